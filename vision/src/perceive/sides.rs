//! Naming by side: each player lays units beside a city on their own side of the row
//! (RULES.md "The table"), so a card in a column on the Moloch side (towards the cities'
//! red edges) is a Moloch card, and one on the Outpost side an Outpost card. Each unit card
//! is named again among its side's faces only: a face of the other side can neither win
//! nor, as the runner-up, make a right reading too close to call.
//!
//! A card stands in a column where [`super::assemble`] would place it: beside the city
//! whose width it is least far from (within [`COLUMN_REACH`] widths), more than half a
//! card from the city's middle. Cards elsewhere, and every city card, are left as they are.
//!
//! The bar is the card bar, although a column card is named among fewer faces. Bars of
//! 0.45 and 0.4 for column cards were tried on validation scenes. They found a few more units
//! (up to 1.9 points on deck 1), but named more cards wrong (deck 1: 1.1% to 1.5% and 2.0%)
//! and left no more layouts exact.

use super::assemble::{beside, centre, Frame, Piece, COLUMN_REACH};
use super::detect::SURE_SCORE;
use super::identify::{best_and_lead, Gallery, Identity};
use super::PieceClass;
use tablelens_engine::{Catalogue, CityId, Side};

/// Whether a card face is a city's (either side up).
pub(crate) fn is_city(id: &str) -> bool {
    CityId::parse_face(id).is_some()
}

/// Whether `face` is a unit of `side`: a card a column on that side may hold (never a city
/// or a one-shot card).
pub(crate) fn is_unit_of(catalogue: &Catalogue, face: &str, side: Side) -> bool {
    catalogue
        .card(face)
        .is_some_and(|c| c.side == side && c.kind.is_unit())
}

/// The unit face of `side` that a piece's `similarities` rate highest, its similarity and
/// its lead over the side's next unit face ([`best_and_lead`] among [`is_unit_of`]).
pub(crate) fn best_unit_face<'a>(
    catalogue: &Catalogue,
    similarities: &'a [(String, f32)],
    side: Side,
) -> Option<(&'a str, f32, f32)> {
    best_and_lead(similarities, |face| is_unit_of(catalogue, face, side))
}

/// Names a card from its `similarities` among the unit faces of `side` only
/// ([`Gallery::name_among`] with [`is_unit_of`]).
pub(crate) fn name_as_unit(
    catalogue: &Catalogue,
    gallery: &Gallery,
    similarities: &[(String, f32)],
    side: Side,
) -> Identity {
    gallery.name_among(PieceClass::Card, similarities, |face| {
        is_unit_of(catalogue, face, side)
    })
}

/// Whether `face` is a unit card of either side.
pub(crate) fn is_unit(catalogue: &Catalogue, face: &str) -> bool {
    catalogue.card(face).is_some_and(|c| c.kind.is_unit())
}

/// The cards named as a city (their indices among the pieces), in order.
pub(crate) fn city_cards(pieces: &[Piece]) -> Vec<usize> {
    (0..pieces.len())
        .filter(|&i| pieces[i].named_city())
        .collect()
}

/// The axes of every card named as a city, in [`city_cards`]' order.
pub(crate) fn city_frames(pieces: &[Piece]) -> Vec<Frame> {
    city_cards(pieces)
        .into_iter()
        .map(|i| Frame::of(&pieces[i].corners))
        .collect()
}

/// The column a point lies in: the index of the city (in `cities`) whose width it is least
/// far from, within [`COLUMN_REACH`] widths, the side of the row it lies on, and how far
/// along the column (in city card lengths from the city's middle, positive towards the red
/// edge).
pub(crate) fn column_of(cities: &[Frame], p: [f32; 2]) -> Option<(usize, Side, f32)> {
    cities
        .iter()
        .enumerate()
        .filter_map(|(i, f)| {
            beside(f, p)
                .filter(|(across, _)| *across < COLUMN_REACH)
                .map(|b| (i, b))
        })
        .min_by(|a, b| a.1 .0.total_cmp(&b.1 .0))
        .map(|(i, (_, along))| {
            let side = if along > 0.0 {
                Side::Moloch
            } else {
                Side::Outpost
            };
            (i, side, along)
        })
}

/// Names every unit card in a column again among the unit faces of its column's side.
pub fn read(catalogue: &Catalogue, gallery: &Gallery, pieces: &mut [Piece]) {
    let cities = city_frames(pieces);
    if cities.is_empty() {
        return;
    }
    for p in pieces.iter_mut() {
        if p.class != PieceClass::Card || p.similarities.is_empty() {
            continue;
        }
        if p.named_city() {
            continue;
        }
        let Some((_, side, _)) = column_of(&cities, centre(&p.corners)) else {
            continue;
        };
        let id = name_as_unit(catalogue, gallery, &p.similarities, side);
        p.id = id.id;
        p.similarity = id.score;
        p.best = id.best;
    }
}

/// The least similarity at which a faint card (a detection under
/// [`super::detect::SURE_SCORE`]) lying in no column keeps its name. Such a card is beside
/// no city, so the layout can only list it as unknown, and most often it is no card of the
/// game at all: a face-down deck or card, or the edge of a hand, named as some unit at 0.5
/// to 0.65. On validation scenes (canonical seeds 12 / 11 / 13, decks 1 and 2) dropping
/// those under 0.7 (or 0.8) left 171 layouts of 240 exact instead of 169, and changed
/// nothing else; the one real card off the columns there was named at 0.9.
pub const STRAY_BAR: f32 = 0.7;

/// The least similarity at which a faint card (a detection under
/// [`super::detect::SURE_SCORE`]) named as a unit keeps its name even in a column. Naming
/// by place gives such a card the best of its side's faces however unlike it is, and a
/// card back or the edge of a hand lying in a column's line was named so at 0.19. On
/// validation scenes (seeds 12 / 11 / 13, decks 1, 2 and 5 to 8: 480 scenes) dropping
/// those under 0.25, 0.3, 0.35 or 0.4 left 390 layouts exact instead of 389, their copies
/// under a coloured light 365 instead of 364; under 0.5, 386 (real faint units lost).
pub const FAINT_UNIT_BAR: f32 = 0.3;

/// Whether a card is more like an enrolled card back than like the face it is named as: a
/// face-down card a little too unlike the backs to be dropped as one
/// ([`super::assemble::drop_backs`]), and then named by its place.
fn more_like_a_back(p: &Piece) -> bool {
    p.similarities
        .iter()
        .any(|(face, s)| face == crate::CARD_BACK && *s > p.similarity)
}

/// Drops each faint card named as a unit below [`FAINT_UNIT_BAR`], or named as one less
/// surely than it is like a card back, and each one named below [`STRAY_BAR`] that lies in
/// no column of the cities found (see there). Where no city is found, nothing is dropped.
///
/// A faint card more like a back: on validation scenes (480) a face-down card like a back
/// at 0.69, named by its place at 0.51, went, and 391 layouts were exact instead of 390;
/// the held-out sets read as before, their copies under a coloured light one more exact.
pub fn drop_strays(pieces: &mut Vec<Piece>) {
    let cities = city_frames(pieces);
    if cities.is_empty() {
        return;
    }
    pieces.retain(|p| {
        p.class != PieceClass::Card
            || p.score >= SURE_SCORE
            || !p.named_non_city()
            || (!more_like_a_back(p)
                && (p.similarity >= STRAY_BAR
                    || (p.similarity >= FAINT_UNIT_BAR
                        && column_of(&cities, centre(&p.corners)).is_some())))
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::perceive::assemble::upright_card as card;

    fn gallery() -> Gallery {
        Gallery::default()
    }

    #[test]
    fn a_card_is_named_among_its_sides_faces() {
        let cat = Catalogue::bundled();
        let readings = &[("commando", 0.62), ("hunter", 0.6), ("ripper", 0.3)];
        // Upright city: its printed top (the red edge, Moloch's side) is up the image.
        let mut pieces = vec![
            card(300.0, 300.0, Some("ziggy_one"), &[("ziggy_one", 0.9)]),
            // Above the city, on Moloch's side: an Outpost face scores a little higher,
            // but only Moloch faces count there, and Hunter leads them clearly.
            card(300.0, 200.0, None, readings),
            // Below, on Outpost's side: the same readings name Commando; a card beside no
            // city is left alone.
            card(300.0, 400.0, None, readings),
            card(
                900.0,
                200.0,
                Some("hunter"),
                &[("commando", 0.7), ("hunter", 0.65)],
            ),
        ];
        read(&cat, &gallery(), &mut pieces);
        assert_eq!(pieces[1].id.as_deref(), Some("hunter"));
        assert_eq!(pieces[2].id.as_deref(), Some("commando"));
        assert_eq!(pieces[3].id.as_deref(), Some("hunter"));
        assert_eq!(pieces[0].id.as_deref(), Some("ziggy_one"));
    }

    #[test]
    fn a_card_in_a_column_is_never_named_a_one_shot_card() {
        // EMP Assault is an Outpost instant: played from the hand, it never lies in a column.
        let cat = Catalogue::bundled();
        let mut pieces = vec![
            card(300.0, 300.0, Some("ziggy_one"), &[("ziggy_one", 0.9)]),
            card(
                300.0,
                400.0,
                Some("emp_assault"),
                &[("emp_assault", 0.8), ("commando", 0.7), ("scout", 0.5)],
            ),
        ];
        read(&cat, &gallery(), &mut pieces);
        assert_eq!(pieces[1].id.as_deref(), Some("commando"));
    }

    #[test]
    fn a_card_named_for_the_other_side_becomes_unknown_when_its_side_has_no_fit() {
        let cat = Catalogue::bundled();
        let mut pieces = vec![
            card(300.0, 300.0, Some("ziggy_one"), &[("ziggy_one", 0.9)]),
            card(
                300.0,
                200.0,
                Some("commando"),
                &[("commando", 0.8), ("hunter", 0.2)],
            ),
        ];
        read(&cat, &gallery(), &mut pieces);
        assert_eq!(pieces[1].id, None);
        assert_eq!(pieces[1].best, "hunter");
    }

    #[test]
    fn a_faint_card_named_weakly_off_the_columns_or_very_weakly_or_like_a_back_is_dropped() {
        let faint = |x: f32, y: f32, sim: f32| {
            let mut p = card(x, y, Some("trooper"), &[("trooper", sim)]);
            p.score = 0.1;
            p
        };
        let city = card(300.0, 300.0, Some("ziggy_one"), &[("ziggy_one", 0.9)]);
        let mut pieces = vec![
            city.clone(),
            // Off every column: a weak name goes, a strong one stays.
            faint(900.0, 300.0, 0.6),
            faint(900.0, 500.0, 0.85),
            // In the city's column, weak but not too weak.
            faint(300.0, 400.0, 0.55),
            // In the city's column, but named as no more than the best of a bad lot.
            faint(300.0, 480.0, 0.2),
            // Off the columns but sure, and in a column, sure and weakly named.
            card(900.0, 700.0, Some("trooper"), &[("trooper", 0.6)]),
            card(300.0, 560.0, Some("trooper"), &[("trooper", 0.2)]),
            // In the city's column, but more like a card back than a trooper.
            faint(300.0, 640.0, 0.55),
        ];
        let back = pieces.len() - 1;
        pieces[back]
            .similarities
            .push((crate::CARD_BACK.to_string(), 0.65));
        drop_strays(&mut pieces);
        let ys: Vec<f32> = pieces.iter().map(|p| centre(&p.corners)[1]).collect();
        assert_eq!(ys, [300.0, 500.0, 400.0, 700.0, 560.0]);
        // With no city found, nothing says where the columns are: nothing is dropped.
        let mut alone = vec![faint(900.0, 300.0, 0.6)];
        drop_strays(&mut alone);
        assert_eq!(alone.len(), 1);
    }
}
