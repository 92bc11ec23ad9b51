//! Reading the city row: the five city cards lie in a row in a fixed order (1 Ziggy One to
//! 5 New York, RULES.md "The table"), so a city card's place in the row says which city it
//! can be. A city card that identification could not name, or named as a city that its
//! place rules out, is named here by the order of the row.
//!
//! The row runs along the named cities' printed left-right axis. Every card lying on that
//! line (within half a card of it) and not named as a unit is a candidate; the candidates,
//! in their order along the row, are matched to the cities in order (either way round, as
//! the table may be seen from either side) so that the sum of their similarities to the
//! matched cities' faces is largest. A candidate is matched only where its similarity to
//! that city reaches the gallery's `city_row` bar; the rest stay as identification left
//! them, or unknown where their name broke the order.
//!
//! A city card is one card with two faces (whole and destroyed), so at most one piece on
//! the table shows each city. Where more pieces are named one city, the one on the row's
//! line keeps the name (of two there, or none, the better matched) and the rest become
//! unknown. A unit in a column, misread as a city, would otherwise turn the sides of its
//! column round, for the sides are read from the nearest city card's printed top. On
//! validation scenes this placed 86.4 / 91.2% of units on rendered decks 1 and 2 before
//! and 86.9 / 91.6% after, the canonical deck's unchanged.
//!
//! Every city card faces one way, its red edge towards the Moloch player. A city card
//! matched weakly (or named only by its place) may be read the other way up, and then the
//! sides of its columns with it: its Outpost units are named among Moloch faces and lost.
//! Such a card is turned to face as the other city cards do, where they, weighed by how
//! surely each is named, outweigh it and those facing its way. On validation scenes
//! (seeds 12 / 11 / 13, rendered decks 1, 2 and 5 to 8) this gave back a city's columns in
//! two scenes of decks 5 and 7 (units placed 94.6 / 96.8% before, 96.1 / 97.3% after;
//! layouts exact 311 -> 312 of 480), and changed nothing on the other sets.

use super::assemble::{centre, half_turn, Frame, Piece};
use super::PieceClass;
use tablelens_engine::CityId;

fn dot(a: [f32; 2], b: [f32; 2]) -> f32 {
    a[0] * b[0] + a[1] * b[1]
}

/// The best face of `city` for a candidate: its similarity and whether it is the
/// destroyed side.
fn best_face(p: &Piece, city: CityId) -> Option<(f32, bool)> {
    p.similarities
        .iter()
        .filter_map(|(id, s)| match CityId::parse_face(id) {
            Some((c, destroyed)) if c == city => Some((*s, destroyed)),
            _ => None,
        })
        .max_by(|a, b| a.0.total_cmp(&b.0))
}

/// Names the city cards among `pieces` by their order in the row, then leaves no more than
/// one piece named each city (see the module's text). Cards with no city named at all are
/// left alone: without one the row cannot be found.
pub fn read(pieces: &mut [Piece], bar: f32) {
    let on_row = read_row(pieces, bar);
    one_per_city(pieces, &on_row);
    same_way_up(pieces);
}

/// Turns half round each city card whose printed top points the other way from the other
/// city cards' (their red edges all face the Moloch player), where the others, weighed by
/// how surely each is named, outweigh it and those agreeing with it together.
fn same_way_up(pieces: &mut [Piece]) {
    let cities: Vec<(usize, [f32; 2], f32)> = pieces
        .iter()
        .enumerate()
        .filter(|(_, p)| p.named_city())
        .map(|(i, p)| (i, Frame::of(&p.corners).down, p.similarity.max(0.0)))
        .collect();
    let turn: Vec<usize> = cities
        .iter()
        .filter(|&&(i, down, sure)| {
            let (mut against, mut with) = (0.0, sure);
            for &(j, other, weight) in &cities {
                if j != i {
                    if dot(down, other) < 0.0 {
                        against += weight;
                    } else {
                        with += weight;
                    }
                }
            }
            against > with
        })
        .map(|&(i, _, _)| i)
        .collect();
    for i in turn {
        pieces[i].corners = half_turn(&pieces[i].corners);
    }
}

/// Where more than one piece is named a face of one city, keeps the name on the best of
/// them, pieces on the row's line (`on_row`, by index) before the rest, better matched
/// before worse, and unnames the others.
fn one_per_city(pieces: &mut [Piece], on_row: &[usize]) {
    for city in CityId::ALL {
        let mut named: Vec<usize> = (0..pieces.len())
            .filter(|&i| {
                pieces[i].class == PieceClass::Card
                    && pieces[i]
                        .id
                        .as_deref()
                        .and_then(CityId::parse_face)
                        .is_some_and(|(c, _)| c == city)
            })
            .collect();
        named.sort_by(|&a, &b| {
            on_row
                .contains(&b)
                .cmp(&on_row.contains(&a))
                .then(pieces[b].similarity.total_cmp(&pieces[a].similarity))
        });
        for &i in named.iter().skip(1) {
            pieces[i].id = None;
        }
    }
}

/// Names the city cards by the row's order; returns the pieces on the row's line (the
/// candidates), by index.
fn read_row(pieces: &mut [Piece], bar: f32) -> Vec<usize> {
    let is_card = |p: &Piece| p.class == PieceClass::Card;
    let named_city = |p: &Piece| p.id.as_deref().and_then(CityId::parse_face).is_some();
    // The row's axis, from the surest named city.
    let Some(anchor) = pieces
        .iter()
        .filter(|p| is_card(p) && named_city(p))
        .max_by(|a, b| a.similarity.total_cmp(&b.similarity))
    else {
        return Vec::new();
    };
    let Frame { right, down, .. } = Frame::of(&anchor.corners);
    let (width, height) = (dot(right, right).sqrt(), dot(down, down).sqrt());
    if width < 1.0 || height < 1.0 {
        return Vec::new();
    }
    let along = [right[0] / width, right[1] / width];
    let across = [-along[1], along[0]];
    // The row's line: the median offset of the named cities.
    let mut offsets: Vec<f32> = pieces
        .iter()
        .filter(|p| is_card(p) && named_city(p))
        .map(|p| dot(centre(&p.corners), across))
        .collect();
    offsets.sort_by(f32::total_cmp);
    let line = offsets[offsets.len() / 2];
    let mut candidates: Vec<(usize, f32)> = pieces
        .iter()
        .enumerate()
        .filter(|(_, p)| is_card(p) && (p.id.is_none() || named_city(p)))
        .filter(|(_, p)| !p.similarities.is_empty())
        .filter(|(_, p)| (dot(centre(&p.corners), across) - line).abs() < 0.5 * height)
        .map(|(i, p)| (i, dot(centre(&p.corners), along)))
        .collect();
    candidates.sort_by(|a, b| a.1.total_cmp(&b.1));
    let faces: Vec<Vec<Option<(f32, bool)>>> = candidates
        .iter()
        .map(|&(i, _)| {
            CityId::ALL
                .iter()
                .map(|&c| best_face(&pieces[i], c).filter(|(s, _)| *s >= bar))
                .collect()
        })
        .collect();
    let forward = in_order(&faces, false);
    let backward = in_order(&faces, true);
    let (_, matched) = if backward.0 > forward.0 {
        backward
    } else {
        forward
    };
    for (k, &(i, _)) in candidates.iter().enumerate() {
        let p = &mut pieces[i];
        match matched[k] {
            Some(city) => {
                // A matched city always has a face over the bar.
                let Some((s, destroyed)) = faces[k][city.index()] else {
                    continue;
                };
                let face = city.face_id(destroyed);
                if p.id.as_deref() != Some(face.as_str()) {
                    p.id = Some(face.clone());
                    p.similarity = s;
                    p.best = face;
                }
            }
            // Named as a city its place rules out: unknown rather than wrong.
            None if p.id.is_some() => p.id = None,
            None => {}
        }
    }
    candidates.into_iter().map(|(i, _)| i).collect()
}

/// Matches candidates (in row order) to cities in order, forwards or backwards, so that
/// the matched similarities sum to the most; `faces[k][c]` is candidate `k`'s similarity
/// to city `c` where it reaches the bar. Returns the sum and each candidate's city.
fn in_order(faces: &[Vec<Option<(f32, bool)>>], backwards: bool) -> (f32, Vec<Option<CityId>>) {
    let n = CityId::ALL.len();
    let city = |j: usize| if backwards { n - 1 - j } else { j };
    let m = faces.len();
    // best[k][j]: the most from the first k candidates matched among the first j cities.
    let mut best = vec![vec![0f32; n + 1]; m + 1];
    for k in 0..m {
        for j in 0..n {
            let take = faces[k][city(j)].map_or(f32::NEG_INFINITY, |(s, _)| best[k][j] + s);
            best[k + 1][j + 1] = best[k][j + 1].max(best[k + 1][j]).max(take);
        }
    }
    let mut matched = vec![None; m];
    let (mut k, mut j) = (m, n);
    while k > 0 && j > 0 {
        if best[k][j] == best[k - 1][j] {
            k -= 1;
        } else if best[k][j] == best[k][j - 1] {
            j -= 1;
        } else {
            matched[k - 1] = Some(CityId::ALL[city(j - 1)]);
            k -= 1;
            j -= 1;
        }
    }
    (best[m][n], matched)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::perceive::assemble::upright_card as card;

    #[test]
    fn an_unnamed_card_between_two_cities_is_the_one_between_them() {
        let mut pieces = vec![
            card(100.0, 300.0, Some("ziggy_one"), &[("ziggy_one", 0.8)]),
            // Read poorly: below the naming bar, its best guess a city out of place.
            card(
                180.0,
                300.0,
                None,
                &[
                    ("new_york", 0.45),
                    ("iron_gate", 0.4),
                    ("jersey_crust", 0.1),
                ],
            ),
            card(
                260.0,
                300.0,
                Some("cleveland_harbour"),
                &[("cleveland_harbour", 0.7)],
            ),
            // A unit in a column, off the row's line: never a candidate.
            card(180.0, 200.0, None, &[("iron_gate", 0.9)]),
        ];
        read(&mut pieces, 0.3);
        assert_eq!(pieces[1].id.as_deref(), Some("iron_gate"));
        assert_eq!(pieces[0].id.as_deref(), Some("ziggy_one"));
        assert_eq!(pieces[2].id.as_deref(), Some("cleveland_harbour"));
        assert_eq!(pieces[3].id, None);
    }

    #[test]
    fn a_city_named_out_of_order_is_renamed_and_the_row_may_run_either_way() {
        // New York first and Ziggy One last: the row is seen from the other side. The
        // second card was named New York too, which its place rules out.
        let mut pieces = vec![
            card(100.0, 300.0, Some("new_york"), &[("new_york", 0.9)]),
            card(
                180.0,
                300.0,
                Some("new_york"),
                &[("new_york", 0.6), ("jersey_crust_destroyed", 0.55)],
            ),
            card(420.0, 300.0, Some("ziggy_one"), &[("ziggy_one", 0.9)]),
        ];
        read(&mut pieces, 0.3);
        assert_eq!(pieces[0].id.as_deref(), Some("new_york"));
        assert_eq!(pieces[1].id.as_deref(), Some("jersey_crust_destroyed"));
        assert_eq!(pieces[2].id.as_deref(), Some("ziggy_one"));
    }

    /// `piece` turned half round.
    fn turned(mut piece: Piece) -> Piece {
        piece.corners = half_turn(&piece.corners);
        piece
    }

    #[test]
    fn a_city_read_the_other_way_up_is_turned_to_face_as_the_row_does() {
        // The second city was matched weakly, and turned: its columns' sides would be read
        // the wrong way round.
        let mut pieces = vec![
            card(100.0, 300.0, Some("ziggy_one"), &[("ziggy_one", 0.9)]),
            turned(card(180.0, 300.0, Some("iron_gate"), &[("iron_gate", 0.3)])),
            card(
                260.0,
                300.0,
                Some("cleveland_harbour"),
                &[("cleveland_harbour", 0.8)],
            ),
        ];
        let upright = card(180.0, 300.0, None, &[]).corners;
        read(&mut pieces, 0.25);
        assert_eq!(pieces[1].corners, upright);
        assert_eq!(pieces[0].corners, card(100.0, 300.0, None, &[]).corners);
        // One city against one: each outweighs the other only if surer, so neither turns.
        let mut two = vec![
            card(100.0, 300.0, Some("ziggy_one"), &[("ziggy_one", 0.5)]),
            turned(card(180.0, 300.0, Some("iron_gate"), &[("iron_gate", 0.5)])),
        ];
        let before: Vec<_> = two.iter().map(|p| p.corners).collect();
        read(&mut two, 0.25);
        assert_eq!(two.iter().map(|p| p.corners).collect::<Vec<_>>(), before);
    }

    #[test]
    fn a_card_below_the_bar_stays_unknown_and_no_named_city_means_no_row() {
        let mut pieces = vec![
            card(100.0, 300.0, Some("ziggy_one"), &[("ziggy_one", 0.8)]),
            card(180.0, 300.0, None, &[("iron_gate", 0.2)]),
        ];
        read(&mut pieces, 0.3);
        assert_eq!(pieces[1].id, None);
        let mut alone = vec![card(180.0, 300.0, None, &[("iron_gate", 0.9)])];
        read(&mut alone, 0.3);
        assert_eq!(alone[0].id, None);
    }

    #[test]
    fn a_card_off_the_row_named_as_a_city_in_the_row_becomes_unknown() {
        // Cleveland Harbour lies destroyed in the row; a unit in a column, a card's height
        // off the row, read as Cleveland Harbour's other face (better than the row card,
        // even), is not that card: it is one card.
        let mut pieces = vec![
            card(100.0, 300.0, Some("ziggy_one"), &[("ziggy_one", 0.9)]),
            card(
                180.0,
                300.0,
                Some("cleveland_harbour_destroyed"),
                &[("cleveland_harbour_destroyed", 0.7)],
            ),
            card(
                180.0,
                420.0,
                Some("cleveland_harbour"),
                &[("cleveland_harbour", 0.8)],
            ),
            // Two cards off the row named New York: the better matched keeps it.
            card(500.0, 100.0, Some("new_york"), &[("new_york", 0.6)]),
            card(500.0, 500.0, Some("new_york"), &[("new_york", 0.75)]),
        ];
        read(&mut pieces, 0.3);
        let names: Vec<Option<&str>> = pieces.iter().map(|p| p.id.as_deref()).collect();
        assert_eq!(
            names,
            [
                Some("ziggy_one"),
                Some("cleveland_harbour_destroyed"),
                None,
                None,
                Some("new_york")
            ]
        );
    }

    #[test]
    fn a_named_city_its_place_rules_out_becomes_unknown() {
        // Two cards both read as Ziggy One, the second more weakly, and nothing else fits.
        let mut pieces = vec![
            card(100.0, 300.0, Some("ziggy_one"), &[("ziggy_one", 0.9)]),
            card(180.0, 300.0, Some("ziggy_one"), &[("ziggy_one", 0.6)]),
        ];
        read(&mut pieces, 0.3);
        assert_eq!(pieces[0].id.as_deref(), Some("ziggy_one"));
        assert_eq!(pieces[1].id, None);
    }
}
