//! The strip finder: a module tucked under a robot shows as a strip about a fifth of a card
//! wide beside the robot's printed right edge. Read from where the robot's corners put it,
//! the strip is often missed: the corners are a few pixels off, a large part of a strip
//! 20 pixels wide, and the strip's own width varies with how far the module was pushed
//! under. The strip finder looks at a window over the robot's right edge and beyond
//! ([`WINDOW`]) at full resolution, and a small ONNX network says where the strip's four
//! corners lie: inner top, outer top, outer bottom, inner bottom. Beside a unit with no
//! module it gives the strip's place as if there were one; identification then finds no
//! module face there.

use super::assemble::{dist, lerp, Piece};
use super::detect::PieceClass;
use super::identify::STRIP_SHARE;
use super::quad_window::{Quad, QuadNet, WindowSpec};
use super::refine::area;
use super::VisionError;
use image::RgbImage;

/// The strip finder's window: across from inside the card's right edge to well past where a
/// strip can end, and a little past the card's top and bottom; the network says where the
/// strip's corners lie, from where they would be if the strip were [`STRIP_SHARE`] of a card
/// wide at the card's right edge.
pub const WINDOW: WindowSpec = WindowSpec {
    across: [0.72, 1.48],
    down: [-0.08, 1.08],
    width: 64,
    height: 64,
    nominal: [
        [1.0, 0.0],
        [1.0 + STRIP_SHARE, 0.0],
        [1.0 + STRIP_SHARE, 1.0],
        [1.0, 1.0],
    ],
    output_scale: 4.0,
};

/// Presence ([`Strip::presence`]) under which no module is read beside a unit.
pub const STRIP_ABSENT: f32 = 0.1;

/// Presence from which a module is held to be there, so that a strip beside a robot is read
/// at a lower bar (`Thresholds::present_strip`).
pub const STRIP_PRESENT: f32 = 0.9;

/// Where a module's strip would show beside a card whose corners are right: its printed
/// right edge, [`STRIP_SHARE`] of the card outwards.
pub fn nominal_strip(card: &Quad) -> Option<Quad> {
    WINDOW.nominal_corners(card)
}

/// The strip-finder network.
#[derive(Debug)]
pub struct StripFinder {
    net: QuadNet,
}

impl StripFinder {
    /// Loads the strip finder from ONNX bytes.
    pub fn load(bytes: &[u8]) -> Result<StripFinder, VisionError> {
        Ok(StripFinder {
            net: QuadNet::load("strip finder", bytes, WINDOW)?,
        })
    }

    /// How many cards the network looked beside since it was loaded ([`QuadNet::runs`]).
    pub fn runs(&self) -> usize {
        self.net.runs()
    }

    /// Where a strip lies beside each card: what the network finds where that is
    /// plausible, else the nominal place; `None` only for a degenerate card.
    pub fn find(
        &self,
        frame: &RgbImage,
        cards: &[Quad],
    ) -> Result<Vec<Option<Strip>>, VisionError> {
        Ok(cards
            .iter()
            .zip(self.net.run(frame, cards)?)
            .map(|(card, found)| {
                let nominal = nominal_strip(card)?;
                let corners = match found.corners {
                    Some(q) if plausible(card, &nominal, &q) => q,
                    _ => nominal,
                };
                Some(Strip {
                    corners,
                    presence: found.presence,
                })
            })
            .collect())
    }
}

/// Where the strip finder puts a strip beside one card.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Strip {
    /// Its corners, clockwise from the printed top-left.
    pub corners: Quad,
    /// How likely the strip finder holds it that a module is there at all, 0 to 1; `None`
    /// for a strip finder without that output (one trained before it had it).
    pub presence: Option<f32>,
}

/// A found strip may lie a little off its nominal place and be narrower or wider, but every
/// corner stays within a fifth of the card's width of the nominal one.
fn plausible(card: &Quad, nominal: &Quad, found: &Quad) -> bool {
    let width = (dist(card[0], card[1]) + dist(card[3], card[2])) / 2.0;
    found.iter().all(|p| p[0].is_finite() && p[1].is_finite())
        && found
            .iter()
            .zip(nominal)
            .all(|(a, b)| dist(*a, *b) <= 0.2 * width)
}

/// The share of a strip left unknown lying under strips named beside other units from
/// which it is dropped ([`drop_seen_beside`]).
pub const SEEN_BESIDE: f32 = 0.5;

/// Drops each strip left unknown that lies mostly ([`SEEN_BESIDE`] or more of its quad)
/// under strips named beside other units. Where a column is crowded, the window beside a
/// unit with no module shows the ends of its neighbours' strips, and the strip finder
/// places one more strip there, across the two, that no module matches: it was reported
/// as a module left unknown. A module only half seen is left as it was.
///
/// On the 13 validation sets (780 scenes), six strips were left unknown: the three
/// across two named strips lay 0.77 to 0.78 under them, the three real modules 0.00 to
/// 0.34.
pub fn drop_seen_beside(pieces: &mut Vec<Piece>) {
    let named: Vec<Quad> = pieces
        .iter()
        .filter(|p| p.class == PieceClass::Strip && p.id.is_some())
        .map(|p| p.corners)
        .collect();
    if named.is_empty() {
        return;
    }
    pieces.retain(|p| {
        p.class != PieceClass::Strip
            || p.id.is_some()
            || share_under(&p.corners, &named) < SEEN_BESIDE
    });
}

/// How many points across a quad's width and length [`share_under`] looks at.
const SAMPLES: usize = 8;

/// The share of `quad` lying under any of `others` (convex quads), from a grid of
/// [`SAMPLES`] x [`SAMPLES`] points spread evenly over it.
fn share_under(quad: &Quad, others: &[Quad]) -> f32 {
    let mut under = 0;
    for i in 0..SAMPLES {
        for j in 0..SAMPLES {
            let u = (i as f32 + 0.5) / SAMPLES as f32;
            let v = (j as f32 + 0.5) / SAMPLES as f32;
            let point = lerp(lerp(quad[0], quad[1], u), lerp(quad[3], quad[2], u), v);
            if others.iter().any(|o| inside(o, point)) {
                under += 1;
            }
        }
    }
    under as f32 / (SAMPLES * SAMPLES) as f32
}

/// Whether `point` lies inside the convex quad `q` (its corners in either turning order);
/// never inside a quad with no area.
fn inside(q: &Quad, point: [f32; 2]) -> bool {
    if area(q) < 5e-4 {
        return false;
    }
    let sides: Vec<f32> = (0..4)
        .map(|k| {
            let (a, b) = (q[k], q[(k + 1) % 4]);
            (b[0] - a[0]) * (point[1] - a[1]) - (b[1] - a[1]) * (point[0] - a[0])
        })
        .collect();
    sides.iter().all(|&c| c >= 0.0) || sides.iter().all(|&c| c <= 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CARD: Quad = [[100.0, 50.0], [163.0, 60.0], [150.0, 148.0], [88.0, 138.0]];

    #[test]
    fn the_nominal_strip_starts_at_the_cards_right_edge_and_is_a_share_of_it_wide() {
        let s = nominal_strip(&CARD).expect("strip");
        assert!(dist(s[0], CARD[1]) < 1e-3 && dist(s[3], CARD[2]) < 1e-3);
        let width = dist(CARD[0], CARD[1]);
        let strip = dist(s[0], s[1]);
        assert!(
            (strip / width - STRIP_SHARE).abs() < 0.02,
            "{strip} of {width}"
        );
    }

    #[test]
    fn a_strip_far_from_its_place_is_not_plausible() {
        let n = nominal_strip(&CARD).expect("strip");
        assert!(plausible(&CARD, &n, &n.map(|p| [p[0] + 5.0, p[1] - 3.0])));
        assert!(!plausible(&CARD, &n, &n.map(|p| [p[0] + 30.0, p[1]])));
        assert!(!plausible(&CARD, &n, &[[f32::NAN, 0.0]; 4]));
        assert!(nominal_strip(&[[1.0, 1.0]; 4]).is_none());
    }

    fn strip(id: Option<&str>, x: f32) -> Piece {
        Piece {
            class: PieceClass::Strip,
            corners: [[x, 0.0], [x + 20.0, 0.0], [x + 20.0, 100.0], [x, 100.0]],
            score: 0.9,
            id: id.map(str::to_string),
            similarity: 0.5,
            best: "net_module".to_string(),
            similarities: Vec::new(),
        }
    }

    #[test]
    fn a_strip_left_unknown_across_two_named_strips_is_dropped() {
        // Named strips at 0..20 and 28..48; an unknown one at 12..32 lies 0.6 under them.
        let mut pieces = vec![
            strip(Some("net_module"), 0.0),
            strip(Some("combat_module"), 28.0),
            strip(None, 12.0),
        ];
        drop_seen_beside(&mut pieces);
        assert_eq!(pieces.len(), 2);
        assert!(pieces.iter().all(|p| p.id.is_some()));
    }

    #[test]
    fn a_strip_left_unknown_mostly_clear_of_named_strips_stays() {
        // 0.35 of it under the named strip: a module half seen, left unknown.
        let mut pieces = vec![strip(Some("net_module"), 0.0), strip(None, 13.0)];
        drop_seen_beside(&mut pieces);
        assert_eq!(pieces.len(), 2);
        // Without any named strip, nothing is dropped.
        let mut alone = vec![strip(None, 13.0)];
        drop_seen_beside(&mut alone);
        assert_eq!(alone.len(), 1);
    }

    #[test]
    fn inside_holds_either_turning_order_and_share_under_counts_the_grid() {
        let q: Quad = [[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]];
        let r: Quad = [q[0], q[3], q[2], q[1]];
        for quad in [q, r] {
            assert!(inside(&quad, [5.0, 5.0]));
            assert!(!inside(&quad, [11.0, 5.0]));
        }
        assert_eq!(share_under(&q, &[q]), 1.0);
        let half: Quad = [[0.0, 0.0], [5.0, 0.0], [5.0, 10.0], [0.0, 10.0]];
        assert_eq!(share_under(&q, &[half]), 0.5);
        assert_eq!(share_under(&q, &[]), 0.0);
        // A quad collapsed to a point or a line covers nothing.
        assert!(!inside(&[[5.0, 5.0]; 4], [5.0, 5.0]));
        let line: Quad = [[0.0, 0.0], [10.0, 0.0], [10.0, 0.0], [0.0, 0.0]];
        assert!(!inside(&line, [5.0, 0.0]));
    }
}
