//! Units face their city: a player lays each unit right way up before them, so its printed
//! top points across the table, at the city row, and lies over the lower part of the card
//! before it (RULES.md "The table"). In every unit of the rendered sets' truth (18,318 on the
//! 31 sets of `models/README.md`) the printed top edge's middle lies nearer the city's middle
//! than the bottom edge's, by more than half the card's length.
//!
//! A unit is sometimes named from its crop turned a half turn (23 of the 17,536 units found
//! on those sets in session 66's analyses; Spiders, Hybrid and Juggernaut three times each),
//! and its corners then run from its printed bottom: what is read from its printed edges
//! is read from the wrong ones. Its squared quads are kept from the wrong short edge
//! (`squared::true_up`), its module strip is looked for beside its printed left edge
//! instead of its right (`strips.rs`), and a token near its top edge is judged on it or on
//! the card it covers from its bottom edge (`assemble::ON_TOP_FROM`). So each named unit
//! of a column whose printed top faces away from its city ([`AWAY`]) is turned a half turn,
//! before its quad is trued up and its tokens and strip are looked for.
//!
//! Nor is its name to be trusted: of 65 units turned on the 31 sets (session 68; a frame
//! analysed twice counts twice), 36 had been named from the half-turned crop as another card
//! than the true one nearest them. So each turned unit is named again from its crops facing
//! its city alone, among its side's faces ([`name_again`]). Its own quad is often off (the
//! middles of those 65 quads lay a median 29 pixels from the nearest true card's), so it is
//! cropped in its squared quads too (`squared.rs`: the card's true length on the table,
//! from either short edge), and takes the quad of the crop naming a face most surely. Where
//! no crop names a face, the unit keeps its name if that is still the face its own quad is
//! most like, and is left unknown otherwise, for the looks at unknown cards and at places a
//! column leaves to name it.
//!
//! Named again from its own quad alone (session 68): validation layouts exact 662 -> 663 of
//! 720, unseen 940 -> 943 of 1,050 (on the 31 sets won 8, lost 4), recast 806 -> 809 of 930;
//! cards named wrong 34 -> 29, missed 100 -> 97. Keeping every name the crop does not
//! replace: 663 and 941 (won 2, lost 0); leaving every unit it names none unknown: 664 and
//! 942 (won 10, lost 6: units named right, left unknown). With its squared quads too
//! (session 69): validation 663 as before, unseen 943 -> 946 (won 3, lost 0; two of the four
//! scenes lost before), recast 809 -> 810; cards named wrong 29 -> 27, missed 97 -> 95. Its
//! laid quad as well (`squared::true_up`) read every scene of the 31 sets the same, as did
//! keeping its name where any crop's most like face is that name.

use super::assemble::{centre, dist, half_turn, look_one_way, midpoint, Piece};
use super::detect::Detection;
use super::identify::{Embedder, Gallery, Identity};
use super::quad_window::Quad;
use super::sides::{city_cards, city_frames, column_of, name_as_unit};
use super::squared::squared_quads;
use super::VisionError;
use image::RgbImage;
use tablelens_engine::{Catalogue, Side};

/// By how much (as a share of a unit's length) its printed top edge's middle must lie
/// farther from its city's middle than its bottom edge's for it to face away.
pub const AWAY: f32 = 0.5;

/// Turns each named unit of a column whose printed top faces away from its city by a half
/// turn (see the module's doc). Returns the units it turned, each with its column's side.
pub fn turn_to_cities(pieces: &mut [Piece]) -> Vec<(usize, Side)> {
    let cities = city_cards(pieces);
    let frames = city_frames(pieces);
    let middles: Vec<[f32; 2]> = cities.iter().map(|&i| centre(&pieces[i].corners)).collect();
    let mut turned = Vec::new();
    for (i, p) in pieces.iter_mut().enumerate() {
        if !p.named_non_city() {
            continue;
        }
        let Some((city, side, _)) = column_of(&frames, centre(&p.corners)) else {
            continue;
        };
        if faces_away(&p.corners, middles[city]) {
            p.corners = half_turn(&p.corners);
            turned.push((i, side));
        }
    }
    turned
}

/// Names each unit `turned` ([`turn_to_cities`]) again, among the unit faces of its side,
/// from its crop facing its city in its own quad and in its squared quads (see the module's
/// doc): it takes the quad and name of the try naming a face most surely; where no try names
/// one, it keeps its name if that is still the face its own quad is most like, and is left
/// unknown otherwise.
pub fn name_again(
    frame: &RgbImage,
    catalogue: &Catalogue,
    pieces: &mut [Piece],
    turned: &[(usize, Side)],
    embedder: &Embedder,
    gallery: &Gallery,
) -> Result<(), VisionError> {
    if turned.is_empty() {
        return Ok(());
    }
    // The tries, each with the index in `turned` of the unit it is for: every unit's own
    // quad first, then the squared quads.
    let units: Vec<usize> = turned.iter().map(|&(i, _)| i).collect();
    let own = units
        .iter()
        .enumerate()
        .map(|(k, &i)| (k, Detection::card(pieces[i].corners, pieces[i].score)));
    let squared = squared_quads(frame, pieces, gallery, &units);
    let (owners, tries): (Vec<usize>, Vec<Detection>) = own.chain(squared).unzip();
    let (looks, _) = look_one_way(frame, &tries, embedder, gallery)?;
    // For each unit: its own quad's look, or the look naming a face most surely.
    let mut chosen: Vec<Option<(Piece, Identity)>> = vec![None; turned.len()];
    for (look, k) in looks.into_iter().zip(owners) {
        let id = name_as_unit(catalogue, gallery, &look.similarities, turned[k].1);
        let better = match &chosen[k] {
            None => true,
            Some((_, was)) => id.id.is_some() && (was.id.is_none() || id.score > was.score),
        };
        if better {
            chosen[k] = Some((look, id));
        }
    }
    for (&i, found) in units.iter().zip(chosen) {
        let Some((look, id)) = found else { continue };
        let p = &mut pieces[i];
        if id.id.is_none() && p.id.as_deref() == Some(id.best.as_str()) {
            continue;
        }
        p.id = id.id;
        p.similarity = id.score;
        p.best = id.best;
        p.corners = look.corners;
        p.similarities = look.similarities;
    }
    Ok(())
}

/// Whether the card at `quad` (corners clockwise from its printed top-left) has its printed
/// top edge [`AWAY`] of its length farther from `city` than its bottom edge.
fn faces_away(quad: &Quad, city: [f32; 2]) -> bool {
    let top = midpoint(quad[0], quad[1]);
    let bottom = midpoint(quad[2], quad[3]);
    dist(top, city) - dist(bottom, city) > AWAY * dist(top, bottom)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perceive::assemble::upright_card as card;
    use crate::perceive::refine::farthest;

    /// Ziggy One at (300, 300), a unit of each side below and above it, and the unit
    /// `turned` of them named from its crop turned a half turn.
    fn column(turned: Option<usize>) -> Vec<Piece> {
        let mut pieces = vec![
            card(300.0, 300.0, Some("ziggy_one"), &[("ziggy_one", 0.9)]),
            card(300.0, 400.0, Some("commando"), &[("commando", 0.9)]),
            card(300.0, 200.0, Some("spiders"), &[("spiders", 0.9)]),
        ];
        // Upright cards have their tops up: the one above the city is turned to face it.
        pieces[2].corners = half_turn(&pieces[2].corners);
        if let Some(i) = turned {
            pieces[i].corners = half_turn(&pieces[i].corners);
        }
        pieces
    }

    #[test]
    fn a_unit_named_the_other_way_up_is_turned_to_face_its_city() {
        for i in [1, 2] {
            let mut pieces = column(Some(i));
            assert_eq!(turn_to_cities(&mut pieces).len(), 1);
            assert_eq!(pieces, column(None));
        }
    }

    #[test]
    fn units_facing_their_city_cities_and_unknown_cards_are_left_as_they_are() {
        let mut pieces = column(None);
        assert!(turn_to_cities(&mut pieces).is_empty());
        assert_eq!(pieces, column(None));
        // The city itself, and an unknown card facing away, are not turned.
        let mut pieces = column(Some(0));
        pieces[1].id = None;
        pieces[1].corners = half_turn(&pieces[1].corners);
        let before = pieces.clone();
        assert!(turn_to_cities(&mut pieces).is_empty());
        assert_eq!(pieces, before);
    }

    #[test]
    fn a_unit_turned_back_is_named_again_from_its_crops_facing_its_city() {
        let cat = Catalogue::bundled();
        let (analyzer, frame) = crate::perceive::crowded_play_frame(&cat);
        let frame = &frame;
        let read = analyzer.analyze(&cat, frame).expect("analysis");
        let readers = analyzer.readers();
        let frames = city_frames(&read.pieces);
        let units: Vec<(usize, Side)> = (0..read.pieces.len())
            .filter_map(|i| {
                let p = &read.pieces[i];
                let (_, side, _) = column_of(&frames, centre(&p.corners))?;
                (p.named_non_city() && p.similarity >= 0.7).then_some((i, side))
            })
            .collect();
        assert!(turn_to_cities(&mut read.pieces.clone()).is_empty());
        // A unit named surely, as if named another unit of its side from its crop turned a
        // half turn.
        let &(i, side) = units.first().expect("a unit named surely");
        let truth = read.pieces[i].id.clone();
        let other = units
            .iter()
            .filter(|&&(_, s)| s == side)
            .map(|&(k, _)| read.pieces[k].id.clone())
            .find(|id| *id != truth)
            .expect("another unit of its side");
        // The unit in `quad`, turned a half turn and named as that other unit: turned back to
        // `quad`, then named again.
        let named_again = |quad: Quad| {
            let mut pieces = read.pieces.clone();
            pieces[i].corners = half_turn(&quad);
            pieces[i].id = other.clone();
            let turned = turn_to_cities(&mut pieces);
            assert_eq!(turned, [(i, side)]);
            assert_eq!(pieces[i].corners, quad);
            name_again(
                frame,
                &cat,
                &mut pieces,
                &turned,
                readers.embedder,
                readers.gallery,
            )
            .expect("looks");
            pieces
        };
        let c = read.pieces[i].corners;
        assert_eq!(named_again(c)[i].id, truth);
        // Its quad reaching a third of its length past its printed bottom as well: named
        // from its squared quad, which it takes.
        let past =
            |a: [f32; 2], b: [f32; 2]| [b[0] + (b[0] - a[0]) / 3.0, b[1] + (b[1] - a[1]) / 3.0];
        let long = named_again([c[0], c[1], past(c[1], c[2]), past(c[0], c[3])]);
        assert_eq!(long[i].id, truth);
        assert!(farthest(&long[i].corners, &c) < 0.15 * dist(c[0], c[1]));
        // Nothing turned, nothing looked at.
        let mut whole = read.pieces.clone();
        name_again(
            frame,
            &cat,
            &mut whole,
            &[],
            readers.embedder,
            readers.gallery,
        )
        .expect("looks");
        assert_eq!(whole, read.pieces);
    }

    #[test]
    fn a_card_lying_across_its_column_does_not_face_away() {
        // Turned a quarter: its top and bottom edges lie about as far from the city.
        let c = card(300.0, 400.0, None, &[]).corners;
        let across = [c[1], c[2], c[3], c[0]];
        assert!(!faces_away(&across, [300.0, 300.0]));
        assert!(faces_away(&half_turn(&c), [300.0, 300.0]));
        assert!(!faces_away(&c, [300.0, 300.0]));
    }
}
