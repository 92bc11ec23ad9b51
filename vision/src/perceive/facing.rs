//! Units face their city: a player lays each unit right way up before them, so its printed
//! top points across the table, at the city row, and lies over the lower part of the card
//! before it (RULES.md "The table"). In every unit of the rendered sets' truth (18,318 on the
//! 31 sets of `models/README.md`) the printed top edge's middle lies nearer the city's middle
//! than the bottom edge's, by more than half the card's length.
//!
//! A unit is sometimes named from its crop turned a half turn (23 of the 17,536 units found
//! on those sets in session 66's analyses; Spiders, Hybrid and Juggernaut three times each),
//! and its corners then run from its printed bottom: what is read from its printed edges
//! is read from the wrong ones. Its squared quads are kept from the wrong short edge
//! (`squared::true_up`), its module strip is looked for beside its printed left edge
//! instead of its right (`strips.rs`), and a token near its top edge is judged on it or on
//! the card it covers from its bottom edge (`assemble::ON_TOP_FROM`). So each named unit
//! of a column whose printed top faces away from its city ([`AWAY`]) is turned a half turn,
//! before its quad is trued up and its tokens and strip are looked for.

use super::assemble::{centre, dist, half_turn, midpoint, Piece};
use super::detect::PieceClass;
use super::quad_window::Quad;
use super::sides::{city_cards, city_frames, column_of, is_city};

/// By how much (as a share of a unit's length) its printed top edge's middle must lie
/// farther from its city's middle than its bottom edge's for it to face away.
pub const AWAY: f32 = 0.5;

/// Turns each named unit of a column whose printed top faces away from its city by a half
/// turn (see the module's doc). Returns how many it turned.
pub fn turn_to_cities(pieces: &mut [Piece]) -> usize {
    let cities = city_cards(pieces);
    let frames = city_frames(pieces);
    let middles: Vec<[f32; 2]> = cities.iter().map(|&i| centre(&pieces[i].corners)).collect();
    let mut turned = 0;
    for p in pieces.iter_mut() {
        if p.class != PieceClass::Card || p.id.as_deref().is_none_or(is_city) {
            continue;
        }
        let Some((city, _, _)) = column_of(&frames, centre(&p.corners)) else {
            continue;
        };
        if faces_away(&p.corners, middles[city]) {
            p.corners = half_turn(&p.corners);
            turned += 1;
        }
    }
    turned
}

/// Whether the card at `quad` (corners clockwise from its printed top-left) has its printed
/// top edge [`AWAY`] of its length farther from `city` than its bottom edge.
fn faces_away(quad: &Quad, city: [f32; 2]) -> bool {
    let top = midpoint(quad[0], quad[1]);
    let bottom = midpoint(quad[2], quad[3]);
    dist(top, city) - dist(bottom, city) > AWAY * dist(top, bottom)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perceive::assemble::upright_card as card;

    /// Ziggy One at (300, 300), a unit of each side below and above it, and the unit
    /// `turned` of them named from its crop turned a half turn.
    fn column(turned: Option<usize>) -> Vec<Piece> {
        let mut pieces = vec![
            card(300.0, 300.0, Some("ziggy_one"), &[("ziggy_one", 0.9)]),
            card(300.0, 400.0, Some("commando"), &[("commando", 0.9)]),
            card(300.0, 200.0, Some("spiders"), &[("spiders", 0.9)]),
        ];
        // Upright cards have their tops up: the one above the city is turned to face it.
        pieces[2].corners = half_turn(&pieces[2].corners);
        if let Some(i) = turned {
            pieces[i].corners = half_turn(&pieces[i].corners);
        }
        pieces
    }

    #[test]
    fn a_unit_named_the_other_way_up_is_turned_to_face_its_city() {
        for i in [1, 2] {
            let mut pieces = column(Some(i));
            assert_eq!(turn_to_cities(&mut pieces), 1);
            assert_eq!(pieces, column(None));
        }
    }

    #[test]
    fn units_facing_their_city_cities_and_unknown_cards_are_left_as_they_are() {
        let mut pieces = column(None);
        assert_eq!(turn_to_cities(&mut pieces), 0);
        assert_eq!(pieces, column(None));
        // The city itself, and an unknown card facing away, are not turned.
        let mut pieces = column(Some(0));
        pieces[1].id = None;
        pieces[1].corners = half_turn(&pieces[1].corners);
        let before = pieces.clone();
        assert_eq!(turn_to_cities(&mut pieces), 0);
        assert_eq!(pieces, before);
    }

    #[test]
    fn a_card_lying_across_its_column_does_not_face_away() {
        // Turned a quarter: its top and bottom edges lie about as far from the city.
        let c = card(300.0, 400.0, None, &[]).corners;
        let across = [c[1], c[2], c[3], c[0]];
        assert!(!faces_away(&across, [300.0, 300.0]));
        assert!(faces_away(&half_turn(&c), [300.0, 300.0]));
        assert!(!faces_away(&c, [300.0, 300.0]));
    }
}
