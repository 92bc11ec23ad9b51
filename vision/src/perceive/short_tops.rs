//! Units whose quad stops short of their printed top, where tokens lie.
//!
//! A unit lies over the lower part of the card before it in its column. The refiner
//! sometimes puts its printed top edge well inside the card (deck 15, scene 25: Patriot's
//! quad 104 pixels long against its true 138, its top corners about a quarter of its width
//! off and its bottom ones a tenth), and tokens lying on the part cut off are then outside
//! the quad, where the token finder, which looks only inside it, does not see them.
//!
//! So a named unit of a column whose bottom edge nothing covers (the last card of its
//! column, most often: the card after it would cover its lower part and make that edge
//! unsure) and whose quad is shorter than a card at its top ([`TablePlane::squared`] from
//! its bottom edge moves the top corners by [`LEAST_CHANGE`] of its width or more,
//! outwards), is looked at by the token finder in that squared quad. Where
//! it sees a token clearly ([`REACH_PEAK`]) beyond its own quad's top edge, the unit takes
//! the squared quad: its tokens are then looked for there like any card's.
//!
//! On the 31 sets of `models/README.md` (1,770 scenes) a unit took one in 2 frames, and its
//! tokens were found (deck 15, scene 25: two +1 tokens on Patriot, which the finder saw at
//! 0.97 and 0.98 in the card's true quad and at 0.00 in its own); unseen layouts exact 935
//! -> 936 of 1,050, validation (661 of 720) and the recast copies (804 of 930) read as
//! before. Units whose bottom edge another card covers looked at too, 6 took one and a
//! validation layout was lost to a token.

use super::assemble::{centre, dist, midpoint, Frame, Piece};
use super::detect::PieceClass;
use super::identify::Gallery;
use super::plane::{Anchor, TablePlane};
use super::quad_window::Quad;
use super::refine::farthest;
use super::squared::{table_plane, LEAST_CHANGE};
use super::tokens::TokenFinder;
use super::VisionError;
use image::RgbImage;

/// The least heat-map peak of a token beyond a unit's top edge for the unit to take its
/// squared quad.
pub const REACH_PEAK: f32 = 0.6;

/// How far past a unit's bottom edge (as a share of its length) a point is looked at to
/// tell whether another card covers that edge.
const PAST_BOTTOM: f32 = 0.05;

/// Gives each named unit whose quad stops short of its printed top, where the token finder
/// sees a token clearly beyond it, the quad of its true length from its bottom edge (see
/// the module's doc). Returns how many units took one.
pub fn reach(
    frame: &RgbImage,
    pieces: &mut [Piece],
    tokens: &TokenFinder,
    gallery: &Gallery,
) -> Result<usize, VisionError> {
    let Some(plane) = table_plane(frame, pieces, gallery) else {
        return Ok(0);
    };
    let cards: Vec<Quad> = pieces
        .iter()
        .filter(|p| p.class == PieceClass::Card && p.id.is_some())
        .map(|p| p.corners)
        .collect();
    let tries: Vec<(usize, Quad)> = pieces
        .iter()
        .enumerate()
        .filter(|(_, p)| p.named_non_city())
        .filter(|(_, p)| !bottom_covered(&p.corners, &cards))
        .filter_map(|(i, p)| Some((i, longer_at_top(plane, &p.corners)?)))
        .collect();
    if tries.is_empty() {
        return Ok(0);
    }
    let quads: Vec<Quad> = tries.iter().map(|t| t.1).collect();
    let found = tokens.find(frame, &quads)?;
    let mut taken = 0;
    for ((i, squared), spots) in tries.into_iter().zip(found) {
        let own = Frame::of(&pieces[i].corners);
        let beyond = spots
            .iter()
            .filter(|s| s.peak >= REACH_PEAK)
            .any(|s| own.local(centre(&s.corners))[1] < 0.0);
        if beyond {
            pieces[i].corners = squared;
            taken += 1;
        }
    }
    Ok(taken)
}

/// Whether another card's quad holds the point just past the middle of `quad`'s printed
/// bottom edge.
fn bottom_covered(quad: &Quad, cards: &[Quad]) -> bool {
    let f = Frame::of(quad);
    let at = [
        f.origin[0] + 0.5 * f.right[0] + (1.0 + PAST_BOTTOM) * f.down[0],
        f.origin[1] + 0.5 * f.right[1] + (1.0 + PAST_BOTTOM) * f.down[1],
    ];
    cards
        .iter()
        .filter(|c| *c != quad)
        .any(|c| Frame::of(c).holds(at, 0.0))
}

/// The quad of a card's true length kept from `quad`'s printed bottom edge, where its top
/// corners lie [`LEAST_CHANGE`] of the card's width or more beyond `quad`'s top edge.
fn longer_at_top(plane: TablePlane, quad: &Quad) -> Option<Quad> {
    let squared = plane.squared(quad, Anchor::Far)?;
    let width = dist(quad[0], quad[1]).min(dist(quad[1], quad[2]));
    let own = Frame::of(quad);
    let top = own.local(midpoint(squared[0], squared[1]));
    (farthest(&squared, quad) >= LEAST_CHANGE * width && top[1] < 0.0).then_some(squared)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perceive::assemble::upright_card as card;

    /// The plane of two upright cities 60x90 pixels, side by side.
    fn plane() -> TablePlane {
        let g: Gallery = serde_json::from_str(r#"{"model": "m", "entries": []}"#).unwrap();
        let cities = [
            card(300.0, 300.0, Some("ziggy_one"), &[("ziggy_one", 0.9)]),
            card(400.0, 300.0, Some("new_york"), &[("new_york", 0.9)]),
        ];
        table_plane(&RgbImage::new(800, 600), &cities, &g).unwrap()
    }

    /// An upright unit 60 pixels wide from `top` to `bottom`.
    fn unit(top: f32, bottom: f32) -> Quad {
        [[270.0, top], [330.0, top], [330.0, bottom], [270.0, bottom]]
    }

    #[test]
    fn a_unit_short_at_its_top_is_squared_from_its_bottom_edge() {
        let plane = plane();
        // As long as a card of the plane, or a little short: left as it is.
        let full = plane.squared(&unit(455.0, 545.0), Anchor::Far).unwrap();
        let length = full[3][1] - full[0][1];
        assert!(longer_at_top(plane, &unit(545.0 - length, 545.0)).is_none());
        assert!(longer_at_top(plane, &unit(550.0 - length, 545.0)).is_none());
        // A quarter short at its top: the bottom edge kept, the top moved out.
        let short = unit(545.0 - 0.75 * length, 545.0);
        let squared = longer_at_top(plane, &short).unwrap();
        assert_eq!([squared[2], squared[3]], [short[2], short[3]]);
        assert!((squared[0][1] - (545.0 - length)).abs() < 0.5);
        // Longer than a card: squaring it would move its top in, not out.
        assert!(longer_at_top(plane, &unit(545.0 - 1.3 * length, 545.0)).is_none());
    }

    #[test]
    fn a_bottom_edge_under_another_card_is_covered() {
        let this = unit(400.0, 490.0);
        // The next card of the column lies over its lower part.
        assert!(bottom_covered(&this, &[this, unit(460.0, 550.0)]));
        // Its last card: nothing beyond its bottom edge but the card itself.
        assert!(!bottom_covered(&this, &[this]));
        // A card beside it does not cover it.
        let beside = [
            [340.0, 460.0],
            [400.0, 460.0],
            [400.0, 550.0],
            [340.0, 550.0],
        ];
        assert!(!bottom_covered(&this, &[this, beside]));
    }
}
