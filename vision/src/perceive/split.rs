//! Two cards seen as one: a card detection left unknown whose quad is longer for its width
//! than the frame's named cards, looked at again as the two cards it may span.
//!
//! Where a column's cards are laid with little overlap, the detector often puts one peak
//! between two of them, with a quad too long for a card that runs into both: no crop of it
//! is like a face (the second look slides it, but keeps its length), and both cards are
//! lost. Its width is a card's. So each card still unknown whose quad is at least [`LONG`]
//! times as long for its width as the frame's named cards (the median) is cropped again in
//! quads of its own width and the named cards' shape, centred at [`OFFSETS`] before and
//! after its middle, both ways up. The best crop on each side of the middle, named among
//! the unit faces of the column it lies in at [`super::gaps::FIRST_BAR`], becomes a card,
//! unless it is a card already named; a long quad that gave a card is dropped.
//!
//! On validation scenes (seeds 12 / 11 / 13, decks 1, 2 and 5 to 8) this placed 98.1 /
//! 97.8 / 98.4% of the units of decks 2, 7 and 8 instead of 97.9 / 97.5 / 98.1% (the other
//! sets unchanged), and left 327 layouts of 480 exact instead of 326, with no more cards
//! named wrong. Looking so at every unknown card, whatever its length, placed a few more units
//! (deck 1: 96.1% against 95.9%) for no more exact layouts, at twelve crops a card.

use super::assemble::{centre, dist, half_turn, look_one_way, median, Piece};
use super::detect::{Detection, PieceClass};
use super::gaps::{best_unit, FIRST_BAR};
use super::identify::{Embedder, Gallery};
use super::quad_window::Quad;
use super::refine::same_card;
use super::second_look::moved;
use super::sides::{city_frames, column_of};
use super::VisionError;
use image::RgbImage;
use tablelens_engine::Catalogue;

/// How many times as long for its width as the frame's named cards an unknown card's quad
/// must be to be looked at as two.
pub const LONG: f32 = 1.1;

/// Where the cards looked for in a long quad are centred, in card lengths from its middle
/// along it: those before its middle, then those after it.
pub const OFFSETS: [[f32; 3]; 2] = [[-0.45, -0.3, -0.15], [0.15, 0.3, 0.45]];

/// A quad's short and long sides (means of the opposite pairs).
fn sides_of(q: &Quad) -> (f32, f32) {
    let a = (dist(q[0], q[1]) + dist(q[2], q[3])) / 2.0;
    let b = (dist(q[1], q[2]) + dist(q[3], q[0])) / 2.0;
    (a.min(b), a.max(b))
}

/// The quads of a card of `share` of `q`'s length centred at [`OFFSETS`] along it: first
/// those before its middle, then those after it.
fn ends(q: &Quad, share: f32) -> [Vec<Quad>; 2] {
    OFFSETS.map(|side| {
        side.iter()
            .map(|&k| {
                let mid = 0.5 + k * share;
                moved(q, mid - share / 2.0, mid + share / 2.0 - 1.0)
            })
            .collect()
    })
}

/// Looks for two cards in each long unknown card (see the module's doc), adds those it names
/// to `pieces`, and drops the long quads that gave one.
pub fn look(
    frame: &RgbImage,
    catalogue: &Catalogue,
    pieces: &mut Vec<Piece>,
    embedder: &Embedder,
    gallery: &Gallery,
) -> Result<(), VisionError> {
    let cities = city_frames(pieces);
    if cities.is_empty() {
        return Ok(());
    }
    let aspect = |q: &Quad| {
        let (s, l) = sides_of(q);
        l / s.max(1.0)
    };
    let Some(usual) = median(
        pieces
            .iter()
            .filter(|p| p.class == PieceClass::Card && p.id.is_some())
            .map(|p| aspect(&p.corners)),
    ) else {
        return Ok(());
    };
    let long: Vec<usize> = (0..pieces.len())
        .filter(|&i| {
            let p = &pieces[i];
            p.class == PieceClass::Card && p.id.is_none() && aspect(&p.corners) >= LONG * usual
        })
        .collect();
    if long.is_empty() {
        return Ok(());
    }
    let per_end = 2 * OFFSETS[0].len();
    let tries: Vec<Detection> = long
        .iter()
        .flat_map(|&i| {
            let q = pieces[i].corners;
            let [a, b] = ends(&q, usual / aspect(&q));
            a.into_iter()
                .chain(b)
                .flat_map(|q| [q, half_turn(&q)])
                .map(|corners| Detection::card(corners, 0.0))
        })
        .collect();
    let (looks, _) = look_one_way(frame, &tries, embedder, gallery)?;
    let mut found = Vec::new();
    let mut gave = Vec::new();
    for (&i, looks) in long.iter().zip(looks.chunks(2 * per_end)) {
        for end in looks.chunks(per_end) {
            let best = best_unit(end, catalogue, gallery, FIRST_BAR, |look| {
                column_of(&cities, centre(&look.corners)).map(|c| c.1)
            });
            let Some(card) = best.map(|b| Piece {
                score: pieces[i].score,
                ..b
            }) else {
                continue;
            };
            let seen = pieces.iter().chain(&found).any(|p: &Piece| {
                p.class == PieceClass::Card
                    && p.id.is_some()
                    && same_card(&p.corners, &card.corners)
            });
            if !seen {
                found.push(card);
                gave.push(i);
            }
        }
    }
    let mut k = 0;
    pieces.retain(|_| {
        k += 1;
        !gave.contains(&(k - 1))
    });
    pieces.extend(found);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_quads_looked_at_are_cards_about_the_middle() {
        // Upright, 60 wide and 150 long; cards of 90 (a share of 0.6).
        let q = [[0.0, 0.0], [60.0, 0.0], [60.0, 150.0], [0.0, 150.0]];
        let [before, after] = ends(&q, 0.6);
        assert_eq!(before.len(), OFFSETS[0].len());
        assert_eq!(after.len(), OFFSETS[1].len());
        for (quads, offsets) in [(&before, OFFSETS[0]), (&after, OFFSETS[1])] {
            for (t, k) in quads.iter().zip(offsets) {
                let (short, long) = sides_of(t);
                assert!(
                    (short - 60.0).abs() < 0.01 && (long - 90.0).abs() < 0.01,
                    "{t:?}"
                );
                // Centred k card lengths from the middle (75), along the quad.
                let c = centre(t);
                assert!((c[0] - 30.0).abs() < 0.01, "{t:?}");
                assert!((c[1] - (75.0 + k * 90.0)).abs() < 0.01, "{t:?} {k}");
            }
        }
    }
}
