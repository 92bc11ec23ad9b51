//! The strip finder: a module tucked under a robot shows as a strip about a fifth of a card
//! wide beside the robot's printed right edge. Read from where the robot's corners put it,
//! the strip is often missed: the corners are a few pixels off, a large part of a strip
//! 20 pixels wide, and the strip's own width varies with how far the module was pushed
//! under. The strip finder looks at a window over the robot's right edge and beyond
//! ([`WINDOW`]) at full resolution, and a small ONNX network says where the strip's four
//! corners lie: inner top, outer top, outer bottom, inner bottom. Beside a unit with no
//! module it gives the strip's place as if there were one; identification then finds no
//! module face there.

use super::assemble::dist;
use super::identify::STRIP_SHARE;
use super::quad_window::{Quad, QuadNet, WindowSpec};
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
}
