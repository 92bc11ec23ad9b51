//! A second look at the cards that identification could not name.
//!
//! Where cards overlap in a column, the detector and the refiner often place a card's two
//! short edges wrong: the quad runs on into the card that covers it, stops short, or is
//! slid along the column by a fifth of a card. Its width is almost always right. The crop is
//! then off, and the card comes out unknown although its face is plain to see.
//!
//! So each unknown card whose best match is not hopeless is cropped again with its short
//! edges moved along its long axis ([`MOVES`]), both ways up (see below). The best named
//! crop names the card and gives it its corners, if its similarity reaches
//! [`super::identify::Thresholds::second_look`]: trying many crops raises the chance that
//! one of them matches a wrong face by luck, so the bar is higher than a first look's. A
//! crop that slid onto a card already named was that card seen twice, and names nothing.
//!
//! The moved crops are first named the way up the first look found best. Only the cards
//! none of whose crops reaches the bar so are looked at the other way up too. Each card looked
//! at both ways costs 16 embeddings, about 3 ms on two cores; on validation scenes this
//! found the same cards but one, and on the 40-card bench frame it took the second look from
//! 17.7 to 15.9 ms (6 cards, 1 settled one way). Naming the moved crops one way up only
//! was tried too: it lost cards (recall 0.2 to 1.2 points lower on each validation set).

use super::assemble::{dist, look_one_way, look_other_way, worth_turning, Piece};
use super::detect::{Detection, PieceClass};
use super::identify::{Embedder, Gallery};
use super::refine::same_card;
use super::VisionError;
use image::RgbImage;

/// How the second look moves a card's short edges, as shares of its length along its long
/// axis (positive: towards the far edge's outside): (near edge, far edge). Slides of the
/// whole card, then one edge in or out.
pub const MOVES: [(f32, f32); 8] = [
    (-0.25, -0.25),
    (-0.12, -0.12),
    (0.12, 0.12),
    (0.25, 0.25),
    (0.0, -0.15),
    (0.0, 0.15),
    (-0.15, 0.0),
    (0.15, 0.0),
];

/// An unknown card whose best similarity is below this is not looked at again: it is most
/// likely no card at all, or too little of one.
pub const LEAST_FIRST_SIMILARITY: f32 = 0.3;

fn lerp(a: [f32; 2], b: [f32; 2], f: f32) -> [f32; 2] {
    [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f]
}

/// The quad with its short edges moved along its long axis: the edge through corners
/// 0 and 1 (or 1 and 2, whichever pair is the short edge) moved by `near` of the long side
/// towards the other, and the opposite edge moved by `far` away from it. Corner order is
/// kept.
pub fn moved(corners: &[[f32; 2]; 4], near: f32, far: f32) -> [[f32; 2]; 4] {
    let c = corners;
    let top_short = dist(c[0], c[1]) + dist(c[2], c[3]) <= dist(c[1], c[2]) + dist(c[3], c[0]);
    // Start the quad on a short edge, move, and turn the order back.
    let q = if top_short {
        *c
    } else {
        [c[1], c[2], c[3], c[0]]
    };
    let m = [
        lerp(q[0], q[3], near),
        lerp(q[1], q[2], near),
        lerp(q[1], q[2], 1.0 + far),
        lerp(q[0], q[3], 1.0 + far),
    ];
    if top_short {
        m
    } else {
        [m[3], m[0], m[1], m[2]]
    }
}

/// Whether a look names its card at the bar `bar`.
fn named_at(look: &Piece, bar: f32) -> bool {
    look.id.is_some() && look.similarity >= bar
}

/// Looks again at every unknown card (see the module's doc) and names those that a moved
/// crop names with confidence, giving them the moved corners.
pub fn look_again(
    frame: &RgbImage,
    pieces: &mut [Piece],
    embedder: &Embedder,
    gallery: &Gallery,
) -> Result<(), VisionError> {
    let again: Vec<usize> = pieces
        .iter()
        .enumerate()
        .filter(|(_, p)| {
            p.class == PieceClass::Card && p.id.is_none() && p.similarity >= LEAST_FIRST_SIMILARITY
        })
        .map(|(i, _)| i)
        .collect();
    if again.is_empty() {
        return Ok(());
    }
    let tries: Vec<Detection> = again
        .iter()
        .flat_map(|&i| {
            let p = &pieces[i];
            MOVES.iter().map(move |&(near, far)| Detection {
                class: PieceClass::Card,
                score: p.score,
                corners: moved(&p.corners, near, far),
            })
        })
        .collect();
    let bar = gallery.thresholds.second_look;
    // First the moved crops the way up the first look found best; then, for the cards none
    // of whose crops reaches the bar so, the other way up too.
    let (mut seen, crops) = look_one_way(frame, &tries, embedder, gallery)?;
    let turn: Vec<usize> = seen
        .chunks(MOVES.len())
        .enumerate()
        .filter(|(_, looks)| !looks.iter().any(|l| named_at(l, bar)))
        .flat_map(|(k, _)| k * MOVES.len()..(k + 1) * MOVES.len())
        .filter(|&i| worth_turning(&seen[i]))
        .collect();
    look_other_way(&mut seen, &crops, &turn, embedder, gallery)?;
    let mut named: Vec<(usize, Piece)> = again
        .iter()
        .zip(seen.chunks(MOVES.len()))
        .filter_map(|(&i, looks)| {
            looks
                .iter()
                .filter(|l| named_at(l, bar))
                .max_by(|a, b| a.similarity.total_cmp(&b.similarity))
                .map(|best| (i, best.clone()))
        })
        .collect();
    // A moved crop may have slid onto a card already named: then it was that card seen
    // twice, and stays unknown. Of two moved crops on one card, the better one names it.
    named.sort_by(|a, b| b.1.similarity.total_cmp(&a.1.similarity));
    for (i, look) in named {
        let twice = pieces.iter().any(|p| {
            p.class == PieceClass::Card && p.id.is_some() && same_card(&p.corners, &look.corners)
        });
        if !twice {
            pieces[i] = look;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const UPRIGHT: [[f32; 2]; 4] = [[0.0, 0.0], [60.0, 0.0], [60.0, 90.0], [0.0, 90.0]];

    fn assert_near(a: [[f32; 2]; 4], b: [[f32; 2]; 4]) {
        let off = (0..4)
            .flat_map(|i| (0..2).map(move |k| (a[i][k] - b[i][k]).abs()))
            .fold(0.0f32, f32::max);
        assert!(off < 1e-3, "{a:?} is not {b:?}");
    }

    #[test]
    fn moving_the_edges_changes_the_length_only() {
        // The near edge moves a tenth in, the far edge a fifth out.
        let m = moved(&UPRIGHT, 0.1, 0.2);
        assert_near(m, [[0.0, 9.0], [60.0, 9.0], [60.0, 108.0], [0.0, 108.0]]);
        // Both back by a quarter: the card slides a quarter of its length up.
        let slid = moved(&UPRIGHT, -0.25, -0.25);
        assert_near(
            slid,
            [[0.0, -22.5], [60.0, -22.5], [60.0, 67.5], [0.0, 67.5]],
        );
    }

    #[test]
    fn a_card_lying_on_its_side_is_moved_along_its_long_axis() {
        // Corner 0 starts a long edge: the short edges are x = 90 (corners 1 and 2) and
        // x = 0 (corners 3 and 0). The far one moves out by a tenth of 90.
        let lying = [[0.0, 0.0], [90.0, 0.0], [90.0, 60.0], [0.0, 60.0]];
        let m = moved(&lying, 0.0, 0.1);
        assert_near(m, [[-9.0, 0.0], [90.0, 0.0], [90.0, 60.0], [-9.0, 60.0]]);
    }

    #[test]
    fn no_move_leaves_the_quad_alone() {
        assert_eq!(moved(&UPRIGHT, 0.0, 0.0), UPRIGHT);
        let lying = [[0.0, 0.0], [90.0, 0.0], [90.0, 60.0], [0.0, 60.0]];
        assert_eq!(moved(&lying, 0.0, 0.0), lying);
    }
}
