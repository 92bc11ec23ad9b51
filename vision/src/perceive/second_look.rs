//! A second look at the cards that identification could not name, or named as a face
//! their place rules out ([`super::city_row`] and [`super::sides`] run first).
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
//! one of them matches a wrong face by luck, so the bar is higher than a first look's. For
//! the same reason a crop that names another face than the first look found best must be
//! at least as like it as the first look was like its best ([`as_like`]). A crop that
//! slid onto a card already named was that card seen twice, and names nothing.
//!
//! A weak detection in a crowded column often has about the right centre but the wrong
//! size or turn, and no move along its axis mends that. So a card that its own moved crops
//! leave unknown, and whose quad is unlike that of the nearest named card (a side off by
//! more than [`SHAPE_TOLERANCE`], or the long axis turned by more than
//! [`TURN_TOLERANCE`]), is looked at once more: in the neighbour's quad put on its centre,
//! as it is and slid along its long axis ([`SLIDES`]). On validation scenes (canonical
//! seeds 12 / 11 / 13, decks 1 and 2) this placed 95.6 / 96.8 / 94.3 / 85.3 / 90.1% of
//! units before and 95.9 / 96.8 / 94.5 / 85.8 / 90.4% after, with no more cards named
//! wrong; on the 40-card bench frame it looks at 2 of the 6 unknown cards so and names 1,
//! for about a fifth more time in the second look. Trying the neighbour's shape, with
//! all of [`MOVES`], beside the card's own for every unknown card at once placed the same
//! units (decks 1 and 2: 85.8 / 90.5%) for twice the added time; trying it instead of the
//! card's own lost units (seed 11: 96.3%).
//!
//! A card that no moved crop names at the bar keeps, still unknown, its closest look (the
//! crop most like a face) in place of its first, if that look is more like the same face
//! the first look found best: naming by place ([`super::sides`]) then starts from it. Its
//! best matches there are often right but under the bar (0.5 to 0.6). On validation scenes
//! this placed 95.9 / 96.8 / 94.5 / 85.8 / 90.4% of units before and 96.4 / 97.0 / 94.5 /
//! 86.4 / 91.2% after, naming no more cards wrong, with layouts exact 43.3 / 33.3 / 43.3 /
//! 31.7 / 36.7% before and 43.3 / 33.3 / 43.3 / 30.0 / 38.3% after. Taking the closest look
//! whatever face it is most like placed more units (96.8 / 97.3 / 95.2 / 86.8 / 92.7%) but
//! also more that are not there (deck 2: cards named wrong 0.23 -> 0.78%; layouts exact
//! 40.0 / 33.3 / 45.0 / 28.3 / 38.3%).
//!
//! The moved crops are first named the way up the first look found best. Only the cards
//! none of whose crops reaches the bar so are looked at the other way up too. Each card looked
//! at both ways costs 16 embeddings, about 3 ms on two cores; on validation scenes this
//! found the same cards but one, and on the 40-card bench frame it took the second look from
//! 17.7 to 15.9 ms (6 cards, 1 settled one way). Naming the moved crops one way up only
//! was tried too: it lost cards (recall 0.2 to 1.2 points lower on each validation set).

use super::assemble::{
    centre, dist, lerp, look_one_way, look_other_way, midpoint, worth_turning, Piece,
};
use super::detect::{Detection, PieceClass};
use super::identify::{Embedder, Gallery};
use super::quad_window::Quad;
use super::refine::same_card;
use super::VisionError;
use image::RgbImage;

/// One look, or none, for each card looked at.
type Looks = Vec<Option<Piece>>;

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

/// How far the neighbour's quad put on an unknown card's centre is slid along its long
/// axis, as shares of its length (see [`reshaped`]): its size is the neighbour's, so only
/// its place along the column is in doubt.
pub const SLIDES: [f32; 4] = [-0.25, -0.12, 0.12, 0.25];

/// An unknown card whose best similarity is below this is not looked at again: it is most
/// likely no card at all, or too little of one. A card whose quad runs a third of its
/// length into its neighbour is often as unlike every face (0.2 to 0.3), and one of its
/// moved crops names it. On validation scenes (canonical seeds 12 / 11 / 13, decks 1 and
/// 2) a bar of 0.3 placed 98.3 / 99.3 / 98.6 / 95.1 / 97.6% of units and left 158 of 240
/// layouts exact; 0.2 placed 98.4 / 99.3 / 99.4 / 95.4 / 97.8% and left 159, with no more
/// cards named wrong. (Measured later, with [`super::gaps`] looking beyond a column's
/// last unit too: 0.1 left as many exact as 0.2, 160, and 0.25 one fewer.)
pub const LEAST_FIRST_SIMILARITY: f32 = 0.2;

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

/// A quad's short and long sides (means of the opposite pairs) and the direction of its
/// long axis, in radians modulo a half turn.
fn shape(c: &[[f32; 2]; 4]) -> (f32, f32, f32) {
    let a = (dist(c[0], c[1]) + dist(c[2], c[3])) / 2.0;
    let b = (dist(c[1], c[2]) + dist(c[3], c[0])) / 2.0;
    let (short, long, from, to) = if a <= b {
        (a, b, midpoint(c[0], c[1]), midpoint(c[2], c[3]))
    } else {
        (b, a, midpoint(c[1], c[2]), midpoint(c[3], c[0]))
    };
    let angle = (to[1] - from[1])
        .atan2(to[0] - from[0])
        .rem_euclid(std::f32::consts::PI);
    (short, long, angle)
}

/// How far a card's short or long side may differ from its nearest named neighbour's, as a
/// share of the neighbour's, before it is also looked at in the neighbour's shape.
pub const SHAPE_TOLERANCE: f32 = 0.15;
/// How far (radians) a card's long axis may turn from its nearest named neighbour's before
/// it is also looked at in the neighbour's shape.
pub const TURN_TOLERANCE: f32 = 0.2;

/// Where an unknown card's quad is unlike the nearest named card's (a weak detection in a
/// crowded column often gets the size or the turn wrong, while its centre is about right),
/// the neighbour's quad moved onto its centre; `None` where it is alike, or no card is
/// named.
fn reshaped(p: &Piece, pieces: &[Piece]) -> Option<Quad> {
    let here = centre(&p.corners);
    let n = pieces
        .iter()
        .filter(|q| q.class == PieceClass::Card && q.id.is_some())
        .min_by(|a, b| dist(centre(&a.corners), here).total_cmp(&dist(centre(&b.corners), here)))?;
    let (s0, l0, a0) = shape(&p.corners);
    let (s1, l1, a1) = shape(&n.corners);
    let turn = (a0 - a1).abs();
    let turn = turn.min(std::f32::consts::PI - turn);
    if (s0 / s1 - 1.0).abs() <= SHAPE_TOLERANCE
        && (l0 / l1 - 1.0).abs() <= SHAPE_TOLERANCE
        && turn <= TURN_TOLERANCE
    {
        return None;
    }
    let there = centre(&n.corners);
    Some(
        n.corners
            .map(|c| [c[0] - there[0] + here[0], c[1] - there[1] + here[1]]),
    )
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
    let bar = gallery.thresholds.second_look;
    // First each card's own quad, moved.
    let own: Vec<Vec<Quad>> = again
        .iter()
        .map(|&i| {
            let c = pieces[i].corners;
            MOVES
                .iter()
                .map(|&(near, far)| moved(&c, near, far))
                .collect()
        })
        .collect();
    let (mut best, mut closest) = best_looks(frame, pieces, &again, &own, bar, embedder, gallery)?;
    // Then, for a card still unnamed whose quad is unlike its nearest named neighbour's,
    // the neighbour's quad on its centre, as it is and slid along the column.
    let (rest, reshapes): (Vec<usize>, Vec<Vec<Quad>>) = (0..again.len())
        .filter(|&k| best[k].is_none())
        .filter_map(|k| {
            let re = reshaped(&pieces[again[k]], pieces)?;
            let quads = std::iter::once(re)
                .chain(SLIDES.iter().map(|&along| moved(&re, along, along)))
                .collect();
            Some((k, quads))
        })
        .unzip();
    let cards: Vec<usize> = rest.iter().map(|&k| again[k]).collect();
    let (more, near) = best_looks(frame, pieces, &cards, &reshapes, bar, embedder, gallery)?;
    for ((k, look), other) in rest.into_iter().zip(more).zip(near) {
        best[k] = look;
        if other.as_ref().map(|o| o.similarity) > closest[k].as_ref().map(|o| o.similarity) {
            closest[k] = other;
        }
    }
    // A card no crop named at the bar may still be named by its place (`sides.rs`), from
    // its closest look rather than its first.
    for (k, &i) in again.iter().enumerate() {
        if best[k].is_some() {
            continue;
        }
        if let Some(look) = closest[k]
            .take()
            .and_then(|l| closer(&pieces[i], l, pieces))
        {
            pieces[i] = look;
        }
    }
    let mut named: Vec<(usize, Piece)> = again
        .iter()
        .zip(best)
        .filter_map(|(&i, look)| Some((i, look?)))
        .collect();
    // A moved crop may have slid onto a card already named: then it was that card seen
    // twice, and stays unknown. Of two moved crops on one card, the better one names it.
    named.sort_by(|a, b| b.1.similarity.total_cmp(&a.1.similarity));
    for (i, look) in named {
        if !seen_twice(pieces, &look.corners) {
            pieces[i] = look;
        }
    }
    Ok(())
}

/// Whether a look at the card `p` that names `face` at `similarity` may name it (`p`
/// being its first look): it names the face that first look found best, or it is at least
/// as like the face it names as the first look was like its best. (For a card in a
/// column, `p` is its first look named by place, [`super::sides`]: its best face and
/// similarity among its side's units.)
///
/// A card left unknown because two faces matched it about equally well (0.7 to 0.9 on
/// decks whose faces look alike) was often named by a moved crop, less like every face
/// than its own crop, that led on a third face by chance. On the 31 rendered sets (1,770
/// scenes) the second look named 19 cards so: 2 right, and 15 whose first look had found
/// the right face best. Asking this of such crops took layouts exact on the 1,050 unseen
/// scenes from 874 to 877 (held out 167 -> 168, decks 13 to 16 186 -> 188) and pieces
/// named wrong there from 147 to 143; validation stayed at 641 of 720; no scene was lost.
pub(crate) fn as_like(p: &Piece, face: Option<&str>, similarity: f32) -> bool {
    face == Some(p.best.as_str()) || similarity >= p.similarity
}

/// Whether a crop at `corners` is a card already named seen twice.
fn seen_twice(pieces: &[Piece], corners: &Quad) -> bool {
    pieces
        .iter()
        .any(|p| p.class == PieceClass::Card && p.id.is_some() && same_card(&p.corners, corners))
}

/// The look at an unknown card `p` that its naming by place should start from: `look`,
/// kept unknown, if it is more like its best face than `p`'s first look was, that best face
/// is the first look's too, and it is not a card already named seen twice; else `None`.
fn closer(p: &Piece, look: Piece, pieces: &[Piece]) -> Option<Piece> {
    (!seen_twice(pieces, &look.corners) && look.best == p.best && look.similarity > p.similarity)
        .then_some(Piece { id: None, ..look })
}

/// Looks at each card `cards[k]` (an index into `pieces`) in each of its quads `quads[k]`,
/// and gives its best look that names it at the bar `bar`, if any, and its closest look
/// (the one most like any face, named or not). The quads are named first the way up their
/// corners give; a card none of whose crops reaches the bar so is looked at the other way
/// up too.
fn best_looks(
    frame: &RgbImage,
    pieces: &[Piece],
    cards: &[usize],
    quads: &[Vec<Quad>],
    bar: f32,
    embedder: &Embedder,
    gallery: &Gallery,
) -> Result<(Looks, Looks), VisionError> {
    let mut tries: Vec<Detection> = Vec::new();
    let mut spans: Vec<std::ops::Range<usize>> = Vec::new();
    for (&i, qs) in cards.iter().zip(quads) {
        let start = tries.len();
        tries.extend(qs.iter().map(|&corners| Detection {
            class: PieceClass::Card,
            score: pieces[i].score,
            corners,
        }));
        spans.push(start..tries.len());
    }
    if tries.is_empty() {
        return Ok((vec![None; cards.len()], vec![None; cards.len()]));
    }
    let (mut seen, crops) = look_one_way(frame, &tries, embedder, gallery)?;
    let turn: Vec<usize> = spans
        .iter()
        .filter(|span| !seen[(*span).clone()].iter().any(|l| named_at(l, bar)))
        .flat_map(|span| span.clone())
        .filter(|&i| worth_turning(&seen[i]))
        .collect();
    look_other_way(&mut seen, &crops, &turn, embedder, gallery)?;
    let named = spans
        .iter()
        .zip(cards)
        .map(|(span, &i)| {
            seen[span.clone()]
                .iter()
                .filter(|l| named_at(l, bar) && as_like(&pieces[i], l.id.as_deref(), l.similarity))
                .max_by(|a, b| a.similarity.total_cmp(&b.similarity))
                .cloned()
        })
        .collect();
    let closest = spans
        .into_iter()
        .map(|span| {
            seen[span]
                .iter()
                .max_by(|a, b| a.similarity.total_cmp(&b.similarity))
                .cloned()
        })
        .collect();
    Ok((named, closest))
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
    fn a_closer_look_at_the_same_face_is_kept_unknown_and_others_are_not() {
        use crate::perceive::assemble::upright_card as card;
        let first = card(200.0, 100.0, None, &[("hunter", 0.4), ("hornet", 0.3)]);
        let named = card(100.0, 100.0, Some("hornet"), &[("hornet", 0.9)]);
        let pieces = [first.clone(), named.clone()];
        let slid = |x: f32, faces: &[(&str, f32)]| {
            let mut l = card(x, 110.0, Some(faces[0].0), faces);
            l.similarity = faces[0].1;
            l
        };
        let kept = closer(&first, slid(200.0, &[("hunter", 0.55)]), &pieces).expect("kept");
        assert_eq!(kept.id, None);
        assert_eq!(kept.best, "hunter");
        assert!((kept.similarity - 0.55).abs() < 1e-6 && kept.corners[0][1] == 65.0);
        // Less like the face than the first look, or most like another face: not kept.
        assert!(closer(&first, slid(200.0, &[("hunter", 0.35)]), &pieces).is_none());
        assert!(closer(&first, slid(200.0, &[("clown", 0.7)]), &pieces).is_none());
        // Slid onto the named card: that card seen twice.
        let mut onto = slid(102.0, &[("hunter", 0.6)]);
        onto.best = "hunter".into();
        assert!(closer(&first, onto, &pieces).is_none());
    }

    #[test]
    fn a_crop_less_like_its_face_than_the_first_look_names_only_the_first_looks_face() {
        use crate::perceive::assemble::upright_card as card;
        // Too close to call at first: commando by a hair over patriot.
        let first = card(100.0, 100.0, None, &[("commando", 0.86), ("patriot", 0.85)]);
        let look = |id: &str, similarity: f32| as_like(&first, Some(id), similarity);
        // A crop of the same face names it, however like.
        assert!(look("commando", 0.7));
        // Another face only from a crop at least as like it as the first look was.
        assert!(!look("assault_team", 0.68));
        assert!(look("assault_team", 0.86));
        assert!(look("patriot", 0.9));
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
    fn a_card_unlike_its_named_neighbour_is_looked_at_in_the_neighbours_shape() {
        use crate::perceive::assemble::upright_card;
        let named = upright_card(100.0, 100.0, Some("brute"), &[]);
        // The detector saw too little of the card below: a 30x40 quad about its centre.
        let mut small = upright_card(100.0, 200.0, None, &[]);
        small.corners = [[85.0, 180.0], [115.0, 180.0], [115.0, 220.0], [85.0, 220.0]];
        let pieces = [named.clone(), small.clone()];
        let re = reshaped(&small, &pieces).expect("reshaped");
        assert_near(
            re,
            [[70.0, 155.0], [130.0, 155.0], [130.0, 245.0], [70.0, 245.0]],
        );
        // A quad of the neighbour's size, but a quarter turned, is reshaped too.
        let mut turned = upright_card(200.0, 100.0, None, &[]);
        turned.corners = [[155.0, 70.0], [245.0, 70.0], [245.0, 130.0], [155.0, 130.0]];
        let re = reshaped(&turned, &[named.clone(), turned.clone()]).expect("reshaped");
        assert_near(
            re,
            [[170.0, 55.0], [230.0, 55.0], [230.0, 145.0], [170.0, 145.0]],
        );
        // One of its shape (a little off) keeps its own quad, and so does a card with no
        // named card to go by.
        let mut alike = upright_card(100.0, 200.0, None, &[]);
        alike.corners[2][1] += 5.0;
        assert_eq!(reshaped(&alike, &[named, alike.clone()]), None);
        assert_eq!(reshaped(&small, &[small.clone()]), None);
    }

    #[test]
    fn no_move_leaves_the_quad_alone() {
        assert_eq!(moved(&UPRIGHT, 0.0, 0.0), UPRIGHT);
        let lying = [[0.0, 0.0], [90.0, 0.0], [90.0, 60.0], [0.0, 60.0]];
        assert_eq!(moved(&lying, 0.0, 0.0), lying);
    }
}
