//! What a frame's second analysis, under the light taken out ([`super::Analyzer::analyze`]),
//! takes over from its first: the cards the first named surely, looked at again where the
//! second's detector does not find them ([`cards`]), and the markers the first read on a city
//! where the second sees nothing ([`add_lost_markers`]).
//!
//! The second analysis is the frame's, but its token finder looks at a frame whose colours
//! the relighting moved, and it can miss a marker the first saw plainly: deck 21 scene 35's
//! used-feature marker, named at 0.61 in the first analysis, where the second's finder
//! reported no spot at all, so the layout read the city's feature as unused.
//!
//! Only markers on cities are taken over, not tokens on units. A throwaway log on all 31
//! rendered sets and the 17 recast ones (`models/README.md`; 2,700 scenes, 883 of them
//! analysed twice) listed every token or marker named in a first analysis that lay on a card
//! the second named and where the second kept no piece: 2 markers, both lying where the truth
//! has that marker, and 13 tokens, 7 lying where the truth has that token and 6 where none lay
//! (patches of a unit's art: a swirl's dark middle named -2 at 0.66, a dark square named -2
//! at 0.70). Neither the first analysis's similarity nor the spot's likeness to its unit's art
//! told those apart. Carrying the tokens named at 0.5 or more too read the 31 sets as
//! carrying markers only (one scene won, none lost) and won 2 and lost 2 of the recast ones.
//! Markers only: validation 663 of 720 as before, unseen 946 -> 947 of 1,050, recast 810 of
//! 930 as before (one more scene's city state read right, its token fault left).

use super::assemble::{centre, dist, Frame, Piece};
use super::detect::{Detection, PieceClass};
use super::sides::is_city;
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

/// Adds to `pieces` (a frame's second analysis) each marker `first` (its first analysis)
/// named that lies on a card `pieces` names as a city, where no token, marker or unknown spot
/// of `pieces` lies within a marker's side of it.
pub fn add_lost_markers(pieces: &mut Vec<Piece>, first: &[Piece]) {
    let lost: Vec<Piece> = first
        .iter()
        .filter(|p| p.class == PieceClass::Small)
        .filter(|p| {
            p.id.as_deref()
                .is_some_and(|id| Token::from_component_id(id).is_none())
        })
        .filter(|p| {
            let c = centre(&p.corners);
            let side = dist(p.corners[0], p.corners[1]);
            let seen = pieces
                .iter()
                .filter(|q| q.class == PieceClass::Small)
                .any(|q| dist(centre(&q.corners), c) < side);
            !seen && pieces.iter().any(|q| is_named_city_under(q, c))
        })
        .cloned()
        .collect();
    pieces.extend(lost);
}

/// Whether `card` is a card named as a city whose quad holds the point `c`.
fn is_named_city_under(card: &Piece, c: [f32; 2]) -> bool {
    if card.class != PieceClass::Card || !card.id.as_deref().is_some_and(is_city) {
        return false;
    }
    Frame::of(&card.corners).holds(c, 0.0)
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

    fn ids(pieces: &[Piece]) -> Vec<Option<&str>> {
        pieces.iter().map(|p| p.id.as_deref()).collect()
    }

    #[test]
    fn a_marker_the_first_look_read_on_a_city_and_the_second_lost_is_taken_over() {
        let city = piece(PieceClass::Card, Some("iron_gate"), 0.0, 0.0, 100.0);
        let unit = piece(PieceClass::Card, Some("hornet"), 200.0, 0.0, 100.0);
        let first = vec![
            // On the city, and nothing of the second analysis there: taken over.
            piece(
                PieceClass::Small,
                Some("marker_used_feature"),
                10.0,
                10.0,
                20.0,
            ),
            // On the city, where the second analysis has a marker of its own: kept as it is.
            piece(PieceClass::Small, Some("marker_battle"), 60.0, 60.0, 20.0),
            // A token on a unit: never taken over.
            piece(PieceClass::Small, Some("token_plus1"), 220.0, 20.0, 20.0),
            // A marker off every city, and one left unknown: not taken over.
            piece(PieceClass::Small, Some("marker_battle"), 400.0, 400.0, 20.0),
            piece(PieceClass::Small, None, 30.0, 60.0, 20.0),
        ];
        let mut second = vec![
            city.clone(),
            unit.clone(),
            piece(
                PieceClass::Small,
                Some("marker_destroyed_district"),
                62.0,
                58.0,
                20.0,
            ),
        ];
        add_lost_markers(&mut second, &first);
        assert_eq!(
            ids(&second),
            [
                Some("iron_gate"),
                Some("hornet"),
                Some("marker_destroyed_district"),
                Some("marker_used_feature"),
            ]
        );
        // Where the second analysis names no city there, nothing is taken over.
        let mut unnamed = vec![piece(PieceClass::Card, None, 0.0, 0.0, 100.0), unit];
        add_lost_markers(&mut unnamed, &first);
        assert_eq!(unnamed.len(), 2);
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
