//! What a frame's second analysis, under the light taken out ([`super::Analyzer::analyze`]),
//! takes over from its first: the cards the first named surely, looked at again where the
//! second's detector does not find them ([`cards`]), and the places of the markers the first
//! read, looked at again where the second's token finder sees nothing there
//! ([`marker_squares`], [`add_marker_spots`]).
//!
//! The second analysis is the frame's, but its token finder looks at a frame whose colours
//! the relighting moved, and it can miss a marker the first saw plainly: deck 21 scene 35's
//! used-feature marker, named at 0.61 in the first analysis, where the second's finder
//! reported no spot at all, so the layout read the city's feature as unused.
//!
//! Only the places are handed over, not the names: the second analysis reads a marker's
//! square as a spot of its own finder's, in the frame with the light taken out and by the
//! same rules (its bar, the city's print). Until session 72 the first analysis's named
//! markers were copied into the second's pieces where it kept none near; reading the places
//! again reads all 31 rendered sets and the 17 recast ones (`models/README.md`) field by
//! field as copying did (validation 664 of 720, unseen 948 of 1,050, recast 812 of 930).
//!
//! Only markers on cities are handed over, not tokens on units. A throwaway log on all 31
//! rendered sets and the 17 recast ones (2,700 scenes, 883 of them analysed twice) listed
//! every token or marker named in a first analysis that lay on a card the second named and
//! where the second kept no piece: 2 markers, both lying where the truth has that marker, and
//! 13 tokens, 7 lying where the truth has that token and 6 where none lay (patches of a
//! unit's art: a swirl's dark middle named -2 at 0.66, a dark square named -2 at 0.70).
//! Neither the first analysis's similarity nor the spot's likeness to its unit's art told
//! those apart. Handing the tokens' places over too, read again as spots seen surely or only
//! faintly (at the faint bar), left the 31 sets as they are and read the recast ones 811 of
//! 930 against 812: one scene won (a +2 found), two lost (a -2 read on a unit's art).

use super::assemble::{centre, near_centre, Frame, Piece};
use super::detect::{Detection, PieceClass};
use super::tokens::{Spot, SURE_PEAK};
use super::CARRIED;
use tablelens_engine::Token;

/// The cards `first` (a frame's first analysis) named at [`CARRIED`] or more, as detections
/// for the second analysis to look at where its own detector does not find them
/// ([`super::refine::add_unseen`]).
pub fn cards(first: &[Piece]) -> Vec<Detection> {
    first
        .iter()
        .filter(|p| p.class == PieceClass::Card && p.id.is_some() && p.similarity >= CARRIED)
        .map(|p| Detection::card(p.corners, p.score))
        .collect()
}

/// The squares of the markers `first` (a frame's first analysis) named: the second
/// analysis reads each again where its own token finder sees nothing there
/// ([`add_marker_spots`]).
pub fn marker_squares(first: &[Piece]) -> Vec<[[f32; 2]; 4]> {
    first
        .iter()
        .filter(|p| p.class == PieceClass::Small)
        .filter(|p| {
            p.id.as_deref()
                .is_some_and(|id| Token::from_component_id(id).is_none())
        })
        .map(|p| p.corners)
        .collect()
}

/// Adds to `found` (the token finder's spots on each of `cards`, in order) each of
/// `markers` ([`marker_squares`]) as a spot on the first card named as a city whose quad
/// holds its centre, where no spot `found` on any card lies within a marker's side of it.
/// Such a spot is then read as the finder's are, as one it saw surely, and stands before the
/// card's faint spots.
pub fn add_marker_spots(found: &mut [Vec<Spot>], cards: &[&Piece], markers: &[[[f32; 2]; 4]]) {
    let seen: Vec<[f32; 2]> = found.iter().flatten().map(|s| centre(&s.corners)).collect();
    for square in markers {
        if seen.iter().any(|&s| near_centre(square, s, 1.0)) {
            continue;
        }
        let c = centre(square);
        let host = cards
            .iter()
            .zip(found.iter_mut())
            .find(|(card, _)| card.named_city() && Frame::of(&card.corners).holds(c, 0.0));
        if let Some((_, spots)) = host {
            // Before the card's faint spots: where a card holds more spots than are read,
            // the faint ones are left, not a marker the first analysis named.
            let at = spots.iter().position(Spot::faint).unwrap_or(spots.len());
            let spot = Spot {
                corners: *square,
                peak: SURE_PEAK,
                raised: false,
                turned: false,
            };
            spots.insert(at, spot);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A piece of `class` with a square quad of side `side` whose top left is (x, y).
    fn piece(class: PieceClass, id: Option<&str>, x: f32, y: f32, side: f32) -> Piece {
        Piece {
            class,
            corners: [[x, y], [x + side, y], [x + side, y + side], [x, y + side]],
            score: 0.9,
            id: id.map(String::from),
            similarity: 0.7,
            best: id.unwrap_or_default().to_string(),
            similarities: Vec::new(),
        }
    }

    /// The top-left corners of the spots in each card's list.
    fn at(found: &[Vec<Spot>]) -> Vec<Vec<[f32; 2]>> {
        found
            .iter()
            .map(|spots| spots.iter().map(|s| s.corners[0]).collect())
            .collect()
    }

    #[test]
    fn the_places_of_markers_the_first_look_read_are_read_again_where_the_second_sees_nothing() {
        let city = piece(PieceClass::Card, Some("iron_gate"), 0.0, 0.0, 100.0);
        let unit = piece(PieceClass::Card, Some("hornet"), 200.0, 0.0, 100.0);
        let marker = |x: f32, y: f32| piece(PieceClass::Small, Some("marker_battle"), x, y, 20.0);
        let first = vec![
            city.clone(),
            // On the city, and no spot of the second's finder near: read again there.
            marker(10.0, 10.0),
            // On the city, where the second's finder has a spot of its own: left to that.
            marker(60.0, 60.0),
            // On a unit, and off every card: no city of the second's holds them.
            marker(220.0, 60.0),
            marker(400.0, 400.0),
            // A token, and a spot left unknown: not markers, so never handed over.
            piece(PieceClass::Small, Some("token_plus1"), 220.0, 20.0, 20.0),
            piece(PieceClass::Small, None, 30.0, 60.0, 20.0),
        ];
        let squares = marker_squares(&first);
        assert_eq!(squares.len(), 4);
        let own = Spot::around([72.0, 68.0], 10.0, 0.9);
        // A faint spot far from every marker: it stays, after the marker handed over.
        let faint = Spot::around([80.0, 20.0], 5.0, 0.3);
        let mut found = vec![vec![own, faint], Vec::new()];
        add_marker_spots(&mut found, &[&city, &unit], &squares);
        assert_eq!(
            at(&found),
            [vec![[62.0, 58.0], [10.0, 10.0], [75.0, 15.0]], vec![]]
        );
        assert!(!found[0][1].faint() && !found[0][1].raised);
        // Where the second analysis names no city there, nothing is handed over.
        let not_city = piece(PieceClass::Card, Some("gunner"), 0.0, 0.0, 100.0);
        let mut found = vec![vec![own], Vec::new()];
        add_marker_spots(&mut found, &[&not_city, &unit], &squares);
        assert_eq!(at(&found), [vec![[62.0, 58.0]], vec![]]);
    }

    #[test]
    fn only_cards_the_first_look_named_surely_are_carried() {
        let named = |id: Option<&str>, similarity: f32, x: f32| Piece {
            similarity,
            ..piece(PieceClass::Card, id, x, 0.0, 100.0)
        };
        let first = vec![
            named(Some("hornet"), CARRIED + 0.05, 0.0),
            named(Some("iron_gate"), CARRIED, 150.0),
            // Named, but weakly: a phantom if carried.
            named(Some("gunner"), CARRIED - 0.05, 300.0),
            // Unnamed, and a token: never carried.
            named(None, 0.95, 450.0),
            piece(PieceClass::Small, Some("token_plus1"), 20.0, 20.0, 20.0),
        ];
        let carried = cards(&first);
        let at: Vec<f32> = carried.iter().map(|d| d.corners[0][0]).collect();
        assert_eq!(at, [0.0, 150.0]);
        assert!(carried.iter().all(|d| d.class == PieceClass::Card));
    }
}
