//! Corner refinement: the detector sees the frame at 512x288, where a card is 20 to 60
//! pixels wide, so its corners are a few percent of a card off, too far for identification.
//! The refiner looks again at each card at full resolution: a window around the rough
//! corners (a margin of [`MARGIN`] of the card on every side) is rectified to
//! [`WINDOW_W`]x[`WINDOW_H`], and a small ONNX network gives where the four corners really
//! lie in that window. Two rounds bring a rough quad to the card's edges.
//!
//! The corners keep the order they came in (clockwise from the printed top-left, up to a
//! half turn), so the refiner never decides which end is up.

use super::detect::{Detection, PieceClass};
use super::nn::{push_chw, Batched};
use super::par;
use super::resample::{apply, rectify, unit_square_to_quad};
use super::VisionError;
use image::RgbImage;

/// Width of a refinement window.
pub const WINDOW_W: u32 = 48;
/// Height of a refinement window.
pub const WINDOW_H: u32 = 64;
/// Margin around the rough card, as a share of its size, on every side.
pub const MARGIN: f32 = 0.25;
/// The network's outputs are offsets from the nominal corners, times this.
pub const OUTPUT_SCALE: f32 = 4.0;
/// Cards per network run.
const BATCH: usize = 8;
/// Rounds of refinement.
pub const ROUNDS: usize = 2;

/// Where the card's corners lie in a window made from exactly right corners, in window
/// units (0..1 across the window), clockwise from the top-left.
pub fn nominal() -> [[f32; 2]; 4] {
    let a = MARGIN / (1.0 + 2.0 * MARGIN);
    let b = (1.0 + MARGIN) / (1.0 + 2.0 * MARGIN);
    [[a, a], [b, a], [b, b], [a, b]]
}

/// The window around rough corners: the card's quad grown by [`MARGIN`] in its own
/// (projective) coordinates, in frame pixels. `None` for a degenerate quad.
pub fn window(rough: &[[f32; 2]; 4]) -> Option<[[f32; 2]; 4]> {
    let m = unit_square_to_quad(rough)?;
    let (lo, hi) = (-f64::from(MARGIN), 1.0 + f64::from(MARGIN));
    let mut w = [[0f32; 2]; 4];
    for (p, (u, v)) in w.iter_mut().zip([(lo, lo), (hi, lo), (hi, hi), (lo, hi)]) {
        let (x, y) = apply(&m, u, v);
        if !x.is_finite() || !y.is_finite() {
            return None;
        }
        *p = [x as f32, y as f32];
    }
    Some(w)
}

/// The training target for a window made from `rough`: where the `truth` corners lie in it,
/// as the network should output them (offsets from [`nominal`] times [`OUTPUT_SCALE`]).
pub fn target(rough: &[[f32; 2]; 4], truth: &[[f32; 2]; 4]) -> Option<[f32; 8]> {
    let win = window(rough)?;
    let inv = super::resample::invert(&unit_square_to_quad(&win)?)?;
    let nom = nominal();
    let mut t = [0f32; 8];
    for k in 0..4 {
        let (u, v) = apply(&inv, f64::from(truth[k][0]), f64::from(truth[k][1]));
        if !u.is_finite() || !v.is_finite() {
            return None;
        }
        t[2 * k] = (u as f32 - nom[k][0]) * OUTPUT_SCALE;
        t[2 * k + 1] = (v as f32 - nom[k][1]) * OUTPUT_SCALE;
    }
    Some(t)
}

/// The corners in the frame that a network output `out` says, for a window made from
/// `rough`.
pub fn corners_from(rough: &[[f32; 2]; 4], out: &[f32]) -> Option<[[f32; 2]; 4]> {
    corners_in(&window(rough)?, out)
}

/// The corners in the frame that a network output `out` says for the window `win`.
fn corners_in(win: &[[f32; 2]; 4], out: &[f32]) -> Option<[[f32; 2]; 4]> {
    let m = unit_square_to_quad(win)?;
    let nom = nominal();
    let mut c = [[0f32; 2]; 4];
    for k in 0..4 {
        let u = nom[k][0] + out.get(2 * k)? / OUTPUT_SCALE;
        let v = nom[k][1] + out.get(2 * k + 1)? / OUTPUT_SCALE;
        let (x, y) = apply(&m, f64::from(u), f64::from(v));
        if !x.is_finite() || !y.is_finite() {
            return None;
        }
        c[k] = [x as f32, y as f32];
    }
    Some(c)
}

/// The window image the network sees for rough corners.
pub fn window_image(frame: &RgbImage, rough: &[[f32; 2]; 4]) -> RgbImage {
    match window(rough) {
        Some(w) => rectify(frame, &w, WINDOW_W, WINDOW_H),
        None => RgbImage::new(WINDOW_W, WINDOW_H),
    }
}

/// The refiner network.
#[derive(Debug)]
pub struct Refiner {
    net: Batched,
}

impl Refiner {
    /// Loads the refiner from ONNX bytes.
    pub fn load(bytes: &[u8]) -> Result<Refiner, VisionError> {
        Ok(Refiner {
            net: Batched::load(
                "corner refiner",
                bytes,
                BATCH,
                2,
                [3, WINDOW_H as usize, WINDOW_W as usize],
            )?,
        })
    }

    /// Refines every card's corners over [`ROUNDS`] rounds. A card whose refinement goes
    /// wrong (a degenerate or exploding quad) keeps its previous corners.
    pub fn refine(
        &self,
        frame: &RgbImage,
        cards: &[[[f32; 2]; 4]],
    ) -> Result<Vec<[[f32; 2]; 4]>, VisionError> {
        let mut cur = cards.to_vec();
        for _ in 0..ROUNDS {
            cur = self.round(frame, &cur)?;
        }
        Ok(cur)
    }

    /// One round of refinement, on every core.
    pub fn round(
        &self,
        frame: &RgbImage,
        cards: &[[[f32; 2]; 4]],
    ) -> Result<Vec<[[f32; 2]; 4]>, VisionError> {
        par::split(cards, BATCH / 2, |share| self.round_here(frame, share))
    }

    /// One round of refinement on this thread.
    fn round_here(
        &self,
        frame: &RgbImage,
        cards: &[[[f32; 2]; 4]],
    ) -> Result<Vec<[[f32; 2]; 4]>, VisionError> {
        let windows: Vec<Option<[[f32; 2]; 4]>> = cards.iter().map(window).collect();
        let blank = RgbImage::new(WINDOW_W, WINDOW_H);
        let (rows, shape) = self
            .net
            .run_items(cards.len(), |i, buf| match &windows[i] {
                Some(w) => push_chw(buf, &rectify(frame, w, WINDOW_W, WINDOW_H)),
                None => push_chw(buf, &blank),
            })?;
        if !rows.is_empty() && shape != [8] {
            return Err(VisionError::Model(format!(
                "corner refiner output shape {shape:?}"
            )));
        }
        Ok(cards
            .iter()
            .zip(&windows)
            .zip(&rows)
            .map(
                |((card, win), o)| match win.as_ref().and_then(|w| corners_in(w, o)) {
                    Some(c) if plausible(card, &c) => c,
                    _ => *card,
                },
            )
            .collect())
    }
}

/// Keeps the strongest of card detections whose centres lie within a third of a card of
/// each other: after refinement they are one card seen twice. Other classes pass as they
/// are.
pub fn one_per_card(mut detections: Vec<Detection>) -> Vec<Detection> {
    detections.sort_by(|a, b| b.score.total_cmp(&a.score));
    let mut kept: Vec<Detection> = Vec::with_capacity(detections.len());
    for d in detections {
        let duplicate = d.class == PieceClass::Card
            && kept.iter().any(|k| {
                let (a, b) = (k.center(), d.center());
                let gap = ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt();
                k.class == PieceClass::Card && gap < size(&k.corners) / 4.0 / 3.0
            });
        if !duplicate {
            kept.push(d);
        }
    }
    kept
}

/// The perimeter of a quad.
fn size(q: &[[f32; 2]; 4]) -> f32 {
    (0..4)
        .map(|i| {
            let (a, b) = (q[i], q[(i + 1) % 4]);
            ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
        })
        .sum::<f32>()
}

/// A refined quad may move and resize a card, but not blow it up or collapse it.
fn plausible(before: &[[f32; 2]; 4], after: &[[f32; 2]; 4]) -> bool {
    let (s0, s1) = (size(before), size(after));
    s0 > 0.0 && s1 > 0.5 * s0 && s1 < 2.0 * s0
}

#[cfg(test)]
mod tests {
    use super::*;

    const CARD: [[f32; 2]; 4] = [[100.0, 50.0], [163.0, 60.0], [150.0, 148.0], [88.0, 138.0]];

    #[test]
    fn exact_corners_have_a_zero_target_and_map_back_to_themselves() {
        let t = target(&CARD, &CARD).expect("target");
        assert!(t.iter().all(|v| v.abs() < 1e-4), "{t:?}");
        let back = corners_from(&CARD, &[0.0; 8]).expect("corners");
        for (a, b) in back.iter().zip(CARD.iter()) {
            assert!((a[0] - b[0]).abs() < 1e-3 && (a[1] - b[1]).abs() < 1e-3);
        }
    }

    #[test]
    fn a_target_brings_rough_corners_to_the_truth() {
        let rough = CARD.map(|p| [p[0] + 7.0, p[1] - 4.0]);
        let t = target(&rough, &CARD).expect("target");
        let back = corners_from(&rough, &t).expect("corners");
        for (a, b) in back.iter().zip(CARD.iter()) {
            assert!((a[0] - b[0]).abs() < 1e-2 && (a[1] - b[1]).abs() < 1e-2);
        }
    }

    #[test]
    fn degenerate_quads_give_no_window_and_no_panic() {
        assert!(window(&[[1.0, 1.0]; 4]).is_none());
        let img = RgbImage::new(10, 10);
        assert_eq!(
            window_image(&img, &[[f32::NAN, 0.0]; 4]).dimensions(),
            (WINDOW_W, WINDOW_H)
        );
        assert!(!plausible(&CARD, &[[0.0, 0.0]; 4]));
    }

    #[test]
    fn two_detections_of_one_card_become_one_and_neighbours_stay() {
        let det = |score: f32, dx: f32| Detection {
            class: PieceClass::Card,
            score,
            corners: CARD.map(|p| [p[0] + dx, p[1]]),
        };
        let kept = one_per_card(vec![det(0.3, 2.0), det(0.8, 0.0), det(0.5, 70.0)]);
        assert_eq!(kept.len(), 2);
        assert_eq!(kept[0].score, 0.8);
        assert_eq!(kept[1].score, 0.5);
    }
}
