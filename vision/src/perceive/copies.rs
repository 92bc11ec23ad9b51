//! No more of a card than the deck has: where more pieces are named one card than the
//! catalogue's copies of it, the best-matched ones keep the name and the rest become
//! unknown. A patterned tablecloth or a crowd of faint detections can otherwise be named
//! the same card over and over.

use super::assemble::Piece;
use super::PieceClass;
use std::collections::HashMap;
use tablelens_engine::Catalogue;

/// Unnames, for each card named more often than its copies in the catalogue, the worst
/// matched of its pieces (cards and module strips; tokens and markers are not counted).
pub fn limit(catalogue: &Catalogue, pieces: &mut [Piece]) {
    let mut named: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, p) in pieces.iter().enumerate() {
        if p.class == PieceClass::Small {
            continue;
        }
        if let Some(id) = &p.id {
            named.entry(id.clone()).or_default().push(i);
        }
    }
    for (id, mut at) in named {
        let Some(copies) = catalogue.card(&id).map(|c| c.count as usize) else {
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
