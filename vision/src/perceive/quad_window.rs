//! A window cut around a card and a network that says where four corners lie in it: what
//! the corner refiner ([`super::refine`]) and the strip finder ([`super::strips`]) share.
//!
//! A [`WindowSpec`] places the window in the card's own projective coordinates (0 to 1
//! across and down the card, so it turns and tilts with the card) and says where the
//! corners the network looks for would lie if the card's rough corners were exactly right:
//! the network outputs offsets from those, in window units, times a scale.

use super::nn::{push_chw, ItemNet, LEAST_SHARE};
use super::par;
use super::peaks::sigmoid;
use super::resample::{apply, invert, rectify, unit_square_to_quad};
use super::VisionError;
use image::RgbImage;

/// Four corners in frame pixels, clockwise from the printed top-left.
pub type Quad = [[f32; 2]; 4];

/// Where a window lies around a card, what the network sees, and what it outputs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WindowSpec {
    /// The window's left and right ends across the card (0 is the card's printed left edge,
    /// 1 its right edge).
    pub across: [f32; 2],
    /// The window's top and bottom ends down the card (0 top, 1 bottom).
    pub down: [f32; 2],
    /// Width of the rectified window the network sees.
    pub width: u32,
    /// Its height.
    pub height: u32,
    /// Where the four sought corners lie when the rough corners are right, in the card's
    /// coordinates.
    pub nominal: Quad,
    /// The network's outputs are offsets from the nominal corners, in window units, times
    /// this.
    pub output_scale: f32,
}

impl WindowSpec {
    /// The window around rough corners, in frame pixels; `None` for a degenerate quad.
    pub fn window(&self, rough: &Quad) -> Option<Quad> {
        let m = unit_square_to_quad(rough)?;
        let [l, r] = self.across.map(f64::from);
        let [t, b] = self.down.map(f64::from);
        let mut w = [[0f32; 2]; 4];
        for (p, (u, v)) in w.iter_mut().zip([(l, t), (r, t), (r, b), (l, b)]) {
            let (x, y) = apply(&m, u, v);
            if !x.is_finite() || !y.is_finite() {
                return None;
            }
            *p = [x as f32, y as f32];
        }
        Some(w)
    }

    /// The nominal corners in window units (0..1 across the window).
    pub fn nominal_in_window(&self) -> Quad {
        let [l, r] = self.across;
        let [t, b] = self.down;
        self.nominal
            .map(|[u, v]| [(u - l) / (r - l), (v - t) / (b - t)])
    }

    /// The training target for a window made from `rough`: where the `truth` corners lie
    /// in it, as the network should output them.
    pub fn target(&self, rough: &Quad, truth: &Quad) -> Option<[f32; 8]> {
        let win = self.window(rough)?;
        let inv = invert(&unit_square_to_quad(&win)?)?;
        let nom = self.nominal_in_window();
        let mut t = [0f32; 8];
        for k in 0..4 {
            let (u, v) = apply(&inv, f64::from(truth[k][0]), f64::from(truth[k][1]));
            if !u.is_finite() || !v.is_finite() {
                return None;
            }
            t[2 * k] = (u as f32 - nom[k][0]) * self.output_scale;
            t[2 * k + 1] = (v as f32 - nom[k][1]) * self.output_scale;
        }
        Some(t)
    }

    /// The corners in the frame that a network output `out` says, for a window made from
    /// `rough`.
    pub fn corners_from(&self, rough: &Quad, out: &[f32]) -> Option<Quad> {
        self.corners_in(&self.window(rough)?, out)
    }

    /// The corners in the frame that a network output `out` says for the window `win`.
    fn corners_in(&self, win: &Quad, out: &[f32]) -> Option<Quad> {
        let m = unit_square_to_quad(win)?;
        let nom = self.nominal_in_window();
        let mut c = [[0f32; 2]; 4];
        for k in 0..4 {
            let u = nom[k][0] + out.get(2 * k)? / self.output_scale;
            let v = nom[k][1] + out.get(2 * k + 1)? / self.output_scale;
            let (x, y) = apply(&m, f64::from(u), f64::from(v));
            if !x.is_finite() || !y.is_finite() {
                return None;
            }
            c[k] = [x as f32, y as f32];
        }
        Some(c)
    }

    /// The nominal corners in the frame for rough corners: what the network's zero output
    /// says.
    pub fn nominal_corners(&self, rough: &Quad) -> Option<Quad> {
        self.corners_from(rough, &[0.0; 8])
    }

    /// The window image the network sees for rough corners (black for a degenerate quad).
    pub fn image(&self, frame: &RgbImage, rough: &Quad) -> RgbImage {
        match self.window(rough) {
            Some(w) => rectify(frame, &w, self.width, self.height),
            None => RgbImage::new(self.width, self.height),
        }
    }
}

/// What a [`QuadNet`] says about the window around one card.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Found {
    /// The four corners it finds, in frame pixels; `None` where the card's quad is
    /// degenerate or the output makes no quad.
    pub corners: Option<Quad>,
    /// For a network with a ninth output: how likely it is that what it looks for is there
    /// at all, 0 to 1 (the output's logistic). `None` for a network of eight outputs.
    pub presence: Option<f32>,
}

/// A network that looks at a [`WindowSpec`] window around each card and says where four
/// corners lie in it: eight outputs, and optionally a ninth, the logit that what it looks
/// for is there ([`Found::presence`]).
#[derive(Debug)]
pub struct QuadNet {
    net: ItemNet,
    spec: WindowSpec,
    name: &'static str,
}

impl QuadNet {
    /// Loads the network from ONNX bytes.
    pub fn load(
        name: &'static str,
        bytes: &[u8],
        spec: WindowSpec,
    ) -> Result<QuadNet, VisionError> {
        Ok(QuadNet {
            net: ItemNet::load(name, bytes, [3, spec.height as usize, spec.width as usize])?,
            spec,
            name,
        })
    }

    /// How many windows the network looked at since it was loaded ([`ItemNet::runs`]).
    pub fn runs(&self) -> usize {
        self.net.runs()
    }

    /// The window this network looks at.
    pub fn spec(&self) -> &WindowSpec {
        &self.spec
    }

    /// What the network finds around each card, on every core.
    pub fn run(&self, frame: &RgbImage, cards: &[Quad]) -> Result<Vec<Found>, VisionError> {
        par::split(cards, LEAST_SHARE, |share| self.run_here(frame, share))
    }

    /// [`QuadNet::run`] on this thread.
    fn run_here(&self, frame: &RgbImage, cards: &[Quad]) -> Result<Vec<Found>, VisionError> {
        let spec = &self.spec;
        let windows: Vec<Option<Quad>> = cards.iter().map(|c| spec.window(c)).collect();
        let blank = RgbImage::new(spec.width, spec.height);
        let (rows, shape) = self
            .net
            .run_items(cards.len(), |i, buf| match &windows[i] {
                Some(w) => push_chw(buf, &rectify(frame, w, spec.width, spec.height)),
                None => push_chw(buf, &blank),
            })?;
        if !rows.is_empty() && shape != [8] && shape != [9] {
            return Err(VisionError::Model(format!(
                "{} output shape {shape:?}",
                self.name
            )));
        }
        Ok(windows
            .iter()
            .zip(&rows)
            .map(|(win, o)| Found {
                corners: win.as_ref().and_then(|w| spec.corners_in(w, o)),
                presence: o.get(8).map(|z| sigmoid(*z)),
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CARD: Quad = [[100.0, 50.0], [163.0, 60.0], [150.0, 148.0], [88.0, 138.0]];
    const SPEC: WindowSpec = WindowSpec {
        across: [0.7, 1.5],
        down: [-0.1, 1.1],
        width: 32,
        height: 48,
        nominal: [[1.0, 0.0], [1.2, 0.0], [1.2, 1.0], [1.0, 1.0]],
        output_scale: 4.0,
    };

    #[test]
    fn a_zero_output_gives_the_nominal_corners() {
        let n = SPEC.nominal_corners(&CARD).expect("corners");
        // The nominal inner edge is the card's right edge.
        for (a, b) in [(n[0], CARD[1]), (n[3], CARD[2])] {
            assert!(
                (a[0] - b[0]).abs() < 1e-3 && (a[1] - b[1]).abs() < 1e-3,
                "{a:?} {b:?}"
            );
        }
        let t = SPEC.target(&CARD, &n).expect("target");
        assert!(t.iter().all(|v| v.abs() < 1e-4), "{t:?}");
    }

    #[test]
    fn a_target_maps_back_to_the_truth_from_rough_corners() {
        let rough = CARD.map(|p| [p[0] + 7.0, p[1] - 4.0]);
        let truth = [[160.0, 58.0], [175.0, 61.0], [163.0, 150.0], [149.0, 147.0]];
        let t = SPEC.target(&rough, &truth).expect("target");
        let back = SPEC.corners_from(&rough, &t).expect("corners");
        for (a, b) in back.iter().zip(truth.iter()) {
            assert!((a[0] - b[0]).abs() < 1e-2 && (a[1] - b[1]).abs() < 1e-2);
        }
    }

    #[test]
    fn degenerate_quads_give_no_window_and_no_panic() {
        assert!(SPEC.window(&[[1.0, 1.0]; 4]).is_none());
        let img = RgbImage::new(10, 10);
        assert_eq!(
            SPEC.image(&img, &[[f32::NAN, 0.0]; 4]).dimensions(),
            (SPEC.width, SPEC.height)
        );
        assert!(SPEC.corners_from(&CARD, &[0.0; 3]).is_none());
    }
}
