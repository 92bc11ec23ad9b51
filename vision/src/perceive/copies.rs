//! No more of a card than the deck has: where more pieces are named one card than the
//! catalogue's copies of it, the best-matched ones keep the name and the rest become
//! unknown. A patterned tablecloth or a crowd of faint detections can otherwise be named
//! the same card over and over.
//!
//! Likewise no more of a marker than the game has (one battle marker, one used-feature
//! and one extra-district marker, four destroyed-district markers): a second battle
//! marker is print or another marker misread, and the less like its face is left unknown.

use super::assemble::Piece;
use super::PieceClass;
use std::collections::HashMap;
use tablelens_engine::catalogue::marker_supply;
use tablelens_engine::Catalogue;

/// Unnames, for each card named more often than its copies in the catalogue, the worst
/// matched of its pieces (cards and module strips), and likewise for each marker named
/// more often than the game has it ([`marker_supply`]); tokens are not counted.
pub fn limit(catalogue: &Catalogue, pieces: &mut [Piece]) {
    let mut named: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, p) in pieces.iter().enumerate() {
        if let Some(id) = &p.id {
            named.entry(id.clone()).or_default().push(i);
        }
    }
    for (id, mut at) in named {
        let copies = match pieces[at[0]].class {
            PieceClass::Small => marker_supply(&id).map(usize::from),
            _ => catalogue.card(&id).map(|c| c.count as usize),
        };
        let Some(copies) = copies else {
            continue;
        };
        if at.len() <= copies {
            continue;
        }
        at.sort_by(|&a, &b| pieces[b].similarity.total_cmp(&pieces[a].similarity));
        for &i in &at[copies..] {
            pieces[i].id = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perceive::assemble::upright_card;

    #[test]
    fn a_marker_named_more_often_than_the_game_has_it_keeps_only_its_best_match() {
        let cat = Catalogue::bundled();
        let small = |x: f32, id: &str, s: f32| Piece {
            class: PieceClass::Small,
            ..upright_card(x, 0.0, Some(id), &[(id, s)])
        };
        let mut pieces = vec![
            small(0.0, "marker_battle", 0.7),
            small(50.0, "marker_battle", 0.9),
            small(100.0, "marker_destroyed_district", 0.6),
            small(150.0, "marker_destroyed_district", 0.8),
            small(200.0, "token_plus1", 0.8),
            small(250.0, "token_plus1", 0.8),
        ];
        limit(&cat, &mut pieces);
        let names: Vec<Option<&str>> = pieces.iter().map(|p| p.id.as_deref()).collect();
        assert_eq!(
            names,
            [
                None,
                Some("marker_battle"),
                Some("marker_destroyed_district"),
                Some("marker_destroyed_district"),
                Some("token_plus1"),
                Some("token_plus1")
            ]
        );
    }

    #[test]
    fn a_card_named_more_often_than_its_copies_keeps_only_its_best_matches() {
        let cat = Catalogue::bundled();
        let copies = |id: &str| cat.card(id).expect("in the catalogue").count as usize;
        assert_eq!(copies("juggernaut"), 1);
        assert_eq!(copies("commando"), 2);
        let card = |x: f32, id: &str, s: f32| upright_card(x, 0.0, Some(id), &[(id, s)]);
        let mut pieces = vec![
            card(0.0, "juggernaut", 0.62),
            card(100.0, "juggernaut", 0.91),
            card(200.0, "commando", 0.55),
            card(300.0, "commando", 0.70),
            card(400.0, "commando", 0.60),
            card(500.0, "hornet", 0.8),
        ];
        limit(&cat, &mut pieces);
        let names: Vec<Option<&str>> = pieces.iter().map(|p| p.id.as_deref()).collect();
        assert_eq!(
            names,
            [
                None,
                Some("juggernaut"),
                None,
                Some("commando"),
                Some("commando"),
                Some("hornet")
            ]
        );
    }
}
