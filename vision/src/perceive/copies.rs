//! No more of a card than the deck has: where more pieces are named one card than the
//! catalogue's copies of it, the best-matched ones keep the name and the rest become
//! unknown. A patterned tablecloth or a crowd of faint detections can otherwise be named
//! the same card over and over. The limit runs first right after the cards are named, so
//! that a card which lost its name to a better match is cropped again by the stages that
//! look at unknown cards, and a face shown in full ([`spent`]) names no further card when
//! the enrolled pictures are compared ([`super::face_match::read_columns`]).
//!
//! Likewise no more of a marker than the game has (one battle marker, one used-feature
//! and one extra-district marker, four destroyed-district markers): a second battle
//! marker is print or another marker misread, and the less like its face is left unknown.
//!
//! And the other way: a module strip too close to call between two modules, one of which
//! the table already shows every copy of, is the other, and so is a strip named a module
//! beyond its copies and less like it than the strips that keep it ([`name_strips`]).

use super::assemble::Piece;
use super::identify::{Gallery, Identity};
use super::PieceClass;
use std::collections::HashMap;
use tablelens_engine::catalogue::marker_supply;
use tablelens_engine::Catalogue;

/// How many pieces of class `class` the table can show named `id`: the catalogue's copies
/// of a card or module, the game's supply of a marker; `None` for what has no count (a
/// token, or an id the catalogue lacks).
fn copies_of(catalogue: &Catalogue, class: PieceClass, id: &str) -> Option<usize> {
    match class {
        PieceClass::Small => marker_supply(id).map(usize::from),
        PieceClass::Card | PieceClass::Strip => catalogue.card(id).map(|c| c.count as usize),
    }
}

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
    for (id, at) in named {
        let Some(copies) = copies_of(catalogue, pieces[at[0]].class, &id) else {
            continue;
        };
        for i in beyond_copies(at, copies, |i| pieces[i].similarity) {
            pieces[i].id = None;
        }
    }
}

/// Of the pieces at `at`, all named one thing the table can show `copies` of, those beyond
/// the `copies` most `alike` (empty where they are not too many).
fn beyond_copies(mut at: Vec<usize>, copies: usize, alike: impl Fn(usize) -> f32) -> Vec<usize> {
    if at.len() <= copies {
        return Vec::new();
    }
    at.sort_by(|&a, &b| alike(b).total_cmp(&alike(a)));
    at.split_off(copies)
}

/// How many pieces of `class` are named each id.
pub(crate) fn shown(class: PieceClass, pieces: &[Piece]) -> HashMap<String, usize> {
    let mut shown = HashMap::new();
    for p in pieces.iter().filter(|p| p.class == class) {
        if let Some(id) = &p.id {
            *shown.entry(id.clone()).or_default() += 1;
        }
    }
    shown
}

/// Whether the table already shows every copy of card `face` (`shown`, as [`shown`] counts
/// them) besides a piece now named `own`: naming that piece `face` would be one too many.
pub(crate) fn spent(
    catalogue: &Catalogue,
    shown: &HashMap<String, usize>,
    face: &str,
    own: Option<&str>,
) -> bool {
    let others = shown
        .get(face)
        .copied()
        .unwrap_or(0)
        .saturating_sub(usize::from(own == Some(face)));
    copies_of(catalogue, PieceClass::Card, face).is_some_and(|n| others >= n)
}

/// Names a strip kept as too close to call among the modules of which the table does not
/// already show every copy: where the deck has one Destruction module and another strip
/// is named it, a strip too close to call between Destruction and Annihilation is the
/// Annihilation module, if that clears its bar and leads the modules left by the usual
/// margin. Repeated while that names one more strip. `strips` are the strips kept (by
/// index in `ids` and `sims`, each with its bar).
///
/// First, of the strips named a module more often than the deck has it, the ones least
/// like it give the name up and are named the same way among the modules left. On
/// validation scenes (seeds 12 / 11 / 13, decks 1, 2 and 5 to 8) layouts exact rose from
/// 419 to 422 of 480 (deck 8: 47 to 50), modules on deck 8 from 93.1 to 95.6% (its six
/// strips left unknown became four right and two wrong), and under coloured light from
/// 390 to 393.
///
/// On validation scenes (seeds 12 / 11 / 13, rendered decks 1, 2 and 5 to 8) modules
/// under the right unit rose from 96.2 / 98.7 / 97.6 / 95.6 / 91.9 / 80.6 / 96.9 / 95.0 /
/// 75.0% to 96.2 / 98.7 / 97.6 / 96.2 / 92.5 / 83.1 / 97.5 / 96.2 / 80.6%, and layouts
/// exact from 314 to 320 of 480, with no strip more named wrong. Also comparing such a
/// strip with the pictures of the modules left ([`super::face_match::name_strip`]) named
/// 3 more strips wrong on deck 8 for 2 more right.
pub fn name_strips(
    catalogue: &Catalogue,
    gallery: &Gallery,
    strips: &[(usize, f32)],
    ids: &mut [Identity],
    sims: &[Vec<(String, f32)>],
) {
    give_up_surplus(catalogue, strips, ids, sims);
    loop {
        let mut shown: HashMap<&str, usize> = HashMap::new();
        for &(i, _) in strips {
            if let Some(id) = ids[i].id.as_deref() {
                *shown.entry(id).or_default() += 1;
            }
        }
        let spent = |m: &str| {
            copies_of(catalogue, PieceClass::Strip, m)
                .is_some_and(|n| shown.get(m).copied().unwrap_or(0) >= n)
        };
        let renamed = strips
            .iter()
            .filter(|&&(i, _)| ids[i].id.is_none())
            .find_map(|&(i, bar)| {
                let id = gallery.name_at(PieceClass::Strip, &sims[i], |m| !spent(m), bar);
                id.id.is_some().then_some((i, id))
            });
        let Some((i, id)) = renamed else {
            return;
        };
        ids[i] = id;
    }
}

/// Unnames, of the strips named a module more often than the deck has it, the ones least
/// like that module (by their similarity to it, not their best), so that [`name_strips`]
/// names them among the modules left.
fn give_up_surplus(
    catalogue: &Catalogue,
    strips: &[(usize, f32)],
    ids: &mut [Identity],
    sims: &[Vec<(String, f32)>],
) {
    let mut named: HashMap<String, Vec<usize>> = HashMap::new();
    for &(i, _) in strips {
        if let Some(id) = &ids[i].id {
            named.entry(id.clone()).or_default().push(i);
        }
    }
    let like = |i: usize, m: &str| {
        sims[i]
            .iter()
            .find(|(id, _)| id == m)
            .map_or(f32::NEG_INFINITY, |&(_, s)| s)
    };
    for (module, at) in named {
        let Some(copies) = copies_of(catalogue, PieceClass::Strip, &module) else {
            continue;
        };
        for i in beyond_copies(at, copies, |i| like(i, &module)) {
            ids[i].id = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perceive::assemble::upright_card;

    #[test]
    fn a_face_is_spent_when_other_cards_show_every_copy() {
        let cat = Catalogue::bundled();
        // The deck has one Steelhound and two Commandos.
        let pieces = vec![
            upright_card(0.0, 0.0, Some("steelhound"), &[]),
            upright_card(100.0, 0.0, Some("commando"), &[]),
            upright_card(200.0, 0.0, None, &[]),
        ];
        let shown = shown(PieceClass::Card, &pieces);
        assert!(spent(&cat, &shown, "steelhound", None));
        assert!(spent(&cat, &shown, "steelhound", Some("commando")));
        // The card named it is not counted against itself.
        assert!(!spent(&cat, &shown, "steelhound", Some("steelhound")));
        assert!(!spent(&cat, &shown, "commando", None));
        assert!(!spent(&cat, &shown, "hunter", None));
    }

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

    /// A strip's similarities: `d` to the Destruction module, `a` to the Annihilation
    /// module, 0.3 to the Combat module.
    fn sims(d: f32, a: f32) -> Vec<(String, f32)> {
        vec![
            ("destruction_module".to_string(), d),
            ("annihilation_module".to_string(), a),
            ("combat_module".to_string(), 0.3),
        ]
    }

    #[test]
    fn a_strip_too_close_to_call_is_the_module_whose_copies_are_not_all_shown() {
        let cat = Catalogue::bundled();
        let gallery = Gallery::default();
        let named = |id: &str, s: f32| Identity {
            id: Some(id.into()),
            score: s,
            margin: 0.3,
            best: id.into(),
        };
        let too_close = Identity {
            id: None,
            score: 0.7,
            margin: 0.01,
            best: "destruction_module".into(),
        };
        // The deck has one Destruction module, and another strip is named it.
        let all_sims = vec![sims(0.9, 0.5), sims(0.7, 0.69)];
        let mut ids = vec![named("destruction_module", 0.9), too_close.clone()];
        let strips = [(0, 0.4), (1, 0.4)];
        name_strips(&cat, &gallery, &strips, &mut ids, &all_sims);
        assert_eq!(ids[1].id.as_deref(), Some("annihilation_module"));
        // Without that strip, it stays too close to call.
        let mut alone = vec![too_close.clone()];
        name_strips(&cat, &gallery, &[(0, 0.4)], &mut alone, &all_sims[1..]);
        assert_eq!(alone[0].id, None);
        // Nor is it named where the module left is under its bar.
        let mut ids = vec![named("destruction_module", 0.9), too_close];
        name_strips(&cat, &gallery, &[(0, 0.4), (1, 0.75)], &mut ids, &all_sims);
        assert_eq!(ids[1].id, None);
    }

    #[test]
    fn a_strip_named_a_module_beyond_its_copies_gives_it_up_to_the_likest_and_takes_the_next() {
        let cat = Catalogue::bundled();
        let gallery = Gallery::default();
        // Both named Destruction (the deck has one); the second is the less like it, though
        // its best similarity (its score) is the higher: it is the one renamed.
        let all_sims = vec![sims(0.8, 0.4), sims(0.75, 0.9)];
        let named = |s: f32| Identity {
            id: Some("destruction_module".into()),
            score: s,
            margin: 0.2,
            best: "destruction_module".into(),
        };
        let mut ids = vec![named(0.8), named(0.9)];
        name_strips(&cat, &gallery, &[(0, 0.4), (1, 0.4)], &mut ids, &all_sims);
        assert_eq!(ids[0].id.as_deref(), Some("destruction_module"));
        assert_eq!(ids[1].id.as_deref(), Some("annihilation_module"));
        // Where the modules left do not clear the bar, it is left unknown.
        let mut ids = vec![named(0.8), named(0.9)];
        name_strips(&cat, &gallery, &[(0, 0.4), (1, 0.95)], &mut ids, &all_sims);
        assert_eq!(ids[0].id.as_deref(), Some("destruction_module"));
        assert_eq!(ids[1].id, None);
        // Within its copies, nothing changes.
        let mut ids = vec![named(0.9)];
        name_strips(&cat, &gallery, &[(0, 0.4)], &mut ids, &all_sims[1..]);
        assert_eq!(ids[0].id.as_deref(), Some("destruction_module"));
    }
}
