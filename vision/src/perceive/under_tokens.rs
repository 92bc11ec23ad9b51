//! Naming a card whose tokens hide its face: the tokens painted out.
//!
//! Tokens lie on the units, often two or three on one card, each 18 mm across a card 63 mm
//! wide: the embedder then sees a face it was never enrolled with. On the
//! unseen sets at session 54 (`models/README.md`) the first look left unknown a unit with
//! no token one time in 37, one with a token one time in 14, and one with two or more one
//! time in 11, and those were most of the units missed in the end.
//!
//! So a card the first looks leave unknown is given to the token finder
//! ([`super::tokens`]), and each spot it finds there is painted over with the colour of the
//! card around it (the mean of a ring just outside the spot), before the card is cut again
//! and embedded, both ways up. Painted discs are no face either, but they are flat, and
//! less unlike the face than a token: a throwaway diagnostic that painted out the true
//! tokens on decks 3 and 14 raised the units with one token whose true face led by the
//! card bar and lead from 295 to 309 of 332, those with two or more from 162 to 179 of
//! 206, and those with none from 716 to 717 of 728.
//!
//! The painted card is named at [`PAINTED_BAR`] and the class's lead, where the name
//! fits what the first look saw (`may_name`): it names the face the first look found
//! best, or is at least as like its face as the first look was like its best (as a second
//! look's moved crop must be, `second_look.rs`); and in a column it names a unit of that
//! column's side. On the 31 rendered sets (1,770 scenes), 385 cards were named painted at
//! the card bar, 64 of them wrong; the place alone turned away 30 of the wrong and none of
//! the right.
//!
//! A card the first looks named with a small lead (under `assemble::SURE_CARD_LEAD` over
//! its next face) is looked at so too, and named again where the painted card names
//! another face by the same rules: of 457 such cards with tokens on the 31 sets, 431 named
//! right, this renamed 4 named wrong right and 1 named right wrong.
//!
//! The later stages that look again at unknown cards or cards named with a small lead (the
//! second look, the face comparison) see the frame with those cards' spots painted out.
//!
//! Tried and not kept: the token finder's looks again at faint spots and edges
//! ([`TokenFinder::find_looking_again`]) on these cards (unseen 903 -> 900 of 1,050,
//! validation 647 either way); a disc painted over 1.25 times half a spot's side (unseen
//! 904, validation 644, pieces named wrong 160 -> 174).
//!
//! Nothing here knows what a token looks like: the finder says where they lie.

use super::assemble::{centre, dist, half_turn, Frame, Piece, SURE_CARD_LEAD};
use super::detect::PieceClass;
use super::identify::{best_and_lead, crop, Identity};
use super::second_look::{as_like, LEAST_FIRST_SIMILARITY};
use super::sides::{city_frames, column_of, is_unit_of};
use super::tokens::{Spot, TokenFinder};
use super::{par, Embedder, Gallery, VisionError};
use image::{Rgb, RgbImage};
use tablelens_engine::Catalogue;

/// The least similarity a painted card is named at. Chosen on the validation sets
/// (`models/README.md`), the lead asked being the class's: layouts exact 647 / 648 / 648 of
/// 720 at 0.5 / 0.52 / 0.55, cards, strips and tokens named wrong 43 / 41 / 39 (42 with no
/// painting, and 643 exact).
pub const PAINTED_BAR: f32 = 0.55;
/// A spot's disc painted, as a share of half its side: a little over the token, whose edge
/// the finder places within a pixel or two.
const PAINT: f32 = 1.1;
/// The ring whose mean colour paints a spot, as shares of half its side: just outside the
/// painted disc, on the card around the token.
const RING: (f32, f32) = (1.25, 1.6);
/// How far from its city's middle, in city lengths along the column, a card lies in the
/// column (a city lies at 0, its first unit about a length out).
const IN_COLUMN: f32 = 0.75;

/// Looks again at every card with tokens on it that is unknown or named with a small lead
/// (see the module's doc), and names those its painted crop names. Gives the frame with
/// the spots found on those cards painted out, for the later looks at such cards; `None`
/// where there were none.
pub fn look(
    frame: &RgbImage,
    catalogue: &Catalogue,
    pieces: &mut [Piece],
    tokens: &TokenFinder,
    embedder: &Embedder,
    gallery: &Gallery,
) -> Result<Option<RgbImage>, VisionError> {
    let unsure: Vec<usize> = (0..pieces.len())
        .filter(|&i| pieces[i].class == PieceClass::Card)
        .filter(|&i| pieces[i].id.is_none() || lead(&pieces[i]) < SURE_CARD_LEAD)
        .filter(|&i| pieces[i].similarity >= LEAST_FIRST_SIMILARITY)
        .collect();
    if unsure.is_empty() {
        return Ok(None);
    }
    let quads: Vec<[[f32; 2]; 4]> = unsure.iter().map(|&i| pieces[i].corners).collect();
    let covered: Vec<(usize, Vec<Spot>)> = unsure
        .into_iter()
        .zip(tokens.find(frame, &quads)?)
        .filter(|(_, spots)| !spots.is_empty())
        .collect();
    if covered.is_empty() {
        return Ok(None);
    }
    let mut painted_frame = frame.clone();
    for (_, spots) in &covered {
        paint_spots(&mut painted_frame, spots, [0.0, 0.0]);
    }
    // Each card painted, then the same picture turned half round.
    let crops: Vec<RgbImage> = par::map(&covered, |(i, spots)| {
        let painted = painted_crop(frame, &pieces[*i].corners, spots);
        let turned = image::imageops::rotate180(&painted);
        [painted, turned]
    })
    .into_iter()
    .flatten()
    .collect();
    let embedded = embedder.embed(PieceClass::Card, &crops)?;
    let cities = city_frames(pieces);
    let bar = PAINTED_BAR.max(gallery.thresholds.card);
    for ((i, _), ways) in covered.iter().zip(embedded.chunks(2)) {
        let [upright, turned] = [0, 1].map(|k| gallery.similarities(PieceClass::Card, &ways[k]));
        let up = gallery.name_at(PieceClass::Card, &upright, |_| true, bar);
        let down = gallery.name_at(PieceClass::Card, &turned, |_| true, bar);
        let is_turned = down.score > up.score;
        let look = if is_turned { down } else { up };
        // A card named already is named again only by another face.
        if look.id == pieces[*i].id || !may_name(catalogue, &cities, &pieces[*i], &look) {
            continue;
        }
        let p = &mut pieces[*i];
        // Both ways up, in the gallery's order: the better of each face.
        p.similarities = upright
            .into_iter()
            .zip(turned)
            .map(|((face, a), (_, b))| (face, a.max(b)))
            .collect();
        if is_turned {
            p.corners = half_turn(&p.corners);
        }
        p.id = look.id;
        p.similarity = look.score;
        p.best = look.best;
    }
    Ok(Some(painted_frame))
}

/// A crop's similarity to each card face, in the gallery's order.
type FaceSimilarities = Vec<(String, f32)>;

/// For each card quad of `quads` (clockwise from its printed top-left), where the token
/// finder sees spots on it, its crop with those spots painted out, embedded the one way up
/// and matched with every card face: its similarities to them; `None` where the finder saw
/// nothing there (the crop would be the same).
pub(crate) fn painted_similarities(
    frame: &RgbImage,
    quads: &[[[f32; 2]; 4]],
    tokens: &TokenFinder,
    embedder: &Embedder,
    gallery: &Gallery,
) -> Result<Vec<Option<FaceSimilarities>>, VisionError> {
    let spots = tokens.find(frame, quads)?;
    let covered: Vec<usize> = (0..quads.len()).filter(|&i| !spots[i].is_empty()).collect();
    let crops: Vec<RgbImage> = par::map(&covered, |&i| painted_crop(frame, &quads[i], &spots[i]));
    let embedded = embedder.embed(PieceClass::Card, &crops)?;
    let mut out = vec![None; quads.len()];
    for (&i, e) in covered.iter().zip(&embedded) {
        out[i] = Some(gallery.similarities(PieceClass::Card, e));
    }
    Ok(out)
}

/// How far a card's best face leads the next, by its similarities to every face.
fn lead(p: &Piece) -> f32 {
    best_and_lead(&p.similarities, |_| true).map_or(0.0, |(_, _, lead)| lead)
}

/// Whether the painted look `look` at the card `p` names it: it names a face, that face is
/// the one `p`'s first look found best or is at least as like it as that first look was,
/// and where `p` lies in a column (of `cities`), that face is a unit of the column's side.
fn may_name(catalogue: &Catalogue, cities: &[Frame], p: &Piece, look: &Identity) -> bool {
    let Some(face) = look.id.as_deref() else {
        return false;
    };
    let fits = match column_of(cities, centre(&p.corners)) {
        Some((_, side, along)) if along.abs() > IN_COLUMN => is_unit_of(catalogue, face, side),
        _ => true,
    };
    as_like(p, Some(face), look.score) && fits
}

/// The embedder's crop of the card at `corners` with each of `spots` painted out.
fn painted_crop(frame: &RgbImage, corners: &[[f32; 2]; 4], spots: &[Spot]) -> RgbImage {
    // Only the card's surroundings are copied and painted.
    let span = |v: [f32; 4], most: u32| {
        let lo = v.iter().copied().fold(f32::MAX, f32::min) - 4.0;
        let hi = v.iter().copied().fold(f32::MIN, f32::max) + 4.0;
        let clamp = |a: f32| a.clamp(0.0, most as f32) as u32;
        (clamp(lo), clamp(hi))
    };
    let (x0, x1) = span(corners.map(|p| p[0]), frame.width());
    let (y0, y1) = span(corners.map(|p| p[1]), frame.height());
    if x1 <= x0 || y1 <= y0 {
        // No part of the card lies in the frame: nothing to paint.
        return crop(frame, PieceClass::Card, corners);
    }
    let mut part = image::imageops::crop_imm(frame, x0, y0, x1 - x0, y1 - y0).to_image();
    let origin = [x0 as f32, y0 as f32];
    paint_spots(&mut part, spots, origin);
    let shift = |p: [f32; 2]| [p[0] - origin[0], p[1] - origin[1]];
    crop(&part, PieceClass::Card, &corners.map(shift))
}

/// Paints out each of `spots` (in frame pixels) on `img`, a part of the frame whose top
/// left lies at `origin` there.
fn paint_spots(img: &mut RgbImage, spots: &[Spot], origin: [f32; 2]) {
    for spot in spots {
        let [x, y] = centre(&spot.corners);
        let half = dist(spot.corners[0], spot.corners[1]) / 2.0;
        paint_disc(img, [x - origin[0], y - origin[1]], half);
    }
}

/// Paints the disc of radius [`PAINT`] x `half` about `c` in the mean colour of the ring
/// [`RING`] around it; nothing where the ring lies wholly outside the picture.
fn paint_disc(img: &mut RgbImage, c: [f32; 2], half: f32) {
    let (w, h) = (i64::from(img.width()), i64::from(img.height()));
    // (No farther than the picture is wide or high, whatever the spot's size.)
    let reach = ((RING.1 * half).ceil() as i64).min(w.max(h));
    let offsets = || (-reach..=reach).flat_map(|dy| (-reach..=reach).map(move |dx| (dx, dy)));
    let pixel = |(dx, dy): (i64, i64)| {
        let (x, y) = (c[0].round() as i64 + dx, c[1].round() as i64 + dy);
        ((0..w).contains(&x) && (0..h).contains(&y)).then_some((x as u32, y as u32))
    };
    let radius = |(dx, dy): (i64, i64)| ((dx * dx + dy * dy) as f32).sqrt();
    let (mut sum, mut n) = ([0.0f32; 3], 0.0f32);
    let ring = offsets().filter(|&o| (RING.0 * half..=RING.1 * half).contains(&radius(o)));
    for (x, y) in ring.filter_map(pixel) {
        let p = img.get_pixel(x, y);
        for (s, v) in sum.iter_mut().zip(p.0) {
            *s += f32::from(v);
        }
        n += 1.0;
    }
    if n == 0.0 {
        return;
    }
    let fill = Rgb(sum.map(|s| (s / n).round().clamp(0.0, 255.0) as u8));
    let disc = offsets().filter(|&o| radius(o) <= PAINT * half);
    for (x, y) in disc.filter_map(pixel) {
        img.put_pixel(x, y, fill);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perceive::assemble::upright_card as card;

    fn look_at(face: Option<&str>, score: f32) -> Identity {
        Identity {
            id: face.map(str::to_string),
            score,
            margin: 0.1,
            best: face.unwrap_or("hunter").to_string(),
        }
    }

    #[test]
    fn only_a_card_with_spots_on_it_is_looked_at_painted() {
        use crate::perceive::assemble::look_one_way;
        use crate::perceive::detect::Detection;
        let cat = Catalogue::bundled();
        let (analyzer, frame) = crate::perceive::crowded_play_frame(&cat);
        let read = analyzer.analyze(&cat, &frame).expect("analysis");
        let quads: Vec<[[f32; 2]; 4]> = read
            .pieces
            .iter()
            .filter(|p| p.named_non_city())
            .map(|p| p.corners)
            .collect();
        let readers = analyzer.readers();
        let tokens = &analyzer.tokens;
        let painted =
            painted_similarities(&frame, &quads, tokens, readers.embedder, readers.gallery)
                .expect("painted looks");
        let spots = tokens.find(&frame, &quads).expect("spots");
        let tries: Vec<Detection> = quads.iter().map(|&q| Detection::card(q, 1.0)).collect();
        let (plain, _) =
            look_one_way(&frame, &tries, readers.embedder, readers.gallery).expect("plain looks");
        assert_eq!(painted.len(), quads.len());
        let mut looked = 0;
        for ((painted, spots), plain) in painted.iter().zip(&spots).zip(&plain) {
            assert_eq!(painted.is_some(), !spots.is_empty());
            if let Some(sims) = painted {
                // Every card face rated, and the painted crop not the plain one.
                assert_eq!(sims.len(), plain.similarities.len());
                assert_ne!(sims, &plain.similarities);
                looked += 1;
            }
        }
        // The table's units carry tokens.
        assert!(looked > 0);
        assert!(
            painted_similarities(&frame, &[], tokens, readers.embedder, readers.gallery)
                .expect("no looks")
                .is_empty()
        );
    }

    #[test]
    fn a_disc_is_painted_in_the_colour_around_it_and_nothing_else() {
        // A grey card with a red token in its middle.
        let mut img = RgbImage::from_pixel(60, 60, Rgb([90, 100, 110]));
        for (x, y, p) in img.enumerate_pixels_mut() {
            if (x as f32 - 30.0).powi(2) + (y as f32 - 30.0).powi(2) <= 64.0 {
                *p = Rgb([220, 30, 30]);
            }
        }
        img.put_pixel(0, 0, Rgb([1, 2, 3]));
        paint_disc(&mut img, [30.0, 30.0], 8.0);
        assert!(img.pixels().skip(1).all(|p| *p == Rgb([90, 100, 110])));
        assert_eq!(*img.get_pixel(0, 0), Rgb([1, 2, 3]));
    }

    #[test]
    fn a_disc_whose_ring_lies_off_the_picture_is_left_alone() {
        let mut img = RgbImage::from_pixel(10, 10, Rgb([5, 5, 5]));
        let before = img.clone();
        paint_disc(&mut img, [100.0, 100.0], 4.0);
        assert_eq!(img, before);
        paint_disc(&mut img, [-40.0, 5.0], 3.0);
        assert_eq!(img, before);
    }

    #[test]
    fn a_painted_crop_of_a_card_is_its_crop_without_the_token() {
        let mut clean = RgbImage::from_pixel(200, 200, Rgb([30, 120, 40]));
        for (x, y, p) in clean.enumerate_pixels_mut() {
            if (60..140).contains(&x) && (40..160).contains(&y) {
                *p = Rgb([200, 190, 120]);
            }
        }
        let mut tokened = clean.clone();
        for (x, y, p) in tokened.enumerate_pixels_mut() {
            if (x as f32 - 100.0).powi(2) + (y as f32 - 90.0).powi(2) <= 100.0 {
                *p = Rgb([240, 240, 250]);
            }
        }
        let corners = [[60.0, 40.0], [140.0, 40.0], [140.0, 160.0], [60.0, 160.0]];
        let spot = Spot::around([100.0, 90.0], 10.0, 0.9);
        let diff = |a: &RgbImage, b: &RgbImage| -> u32 {
            a.pixels()
                .zip(b.pixels())
                .map(|(p, q)| (0..3).map(|k| p[k].abs_diff(q[k]) as u32).sum::<u32>())
                .sum()
        };
        let want = crop(&clean, PieceClass::Card, &corners);
        let painted = painted_crop(&tokened, &corners, &[spot]);
        let left = diff(&crop(&tokened, PieceClass::Card, &corners), &want);
        assert!(left > 0);
        assert!(
            diff(&painted, &want) * 20 < left,
            "{} of {left}",
            diff(&painted, &want)
        );
        // The frame itself is not painted.
        assert_eq!(*tokened.get_pixel(100, 90), Rgb([240, 240, 250]));
    }

    #[test]
    fn spots_are_painted_at_their_place_in_a_part_of_the_frame() {
        let mut frame = RgbImage::from_pixel(80, 60, Rgb([50, 60, 70]));
        for (x, y, p) in frame.enumerate_pixels_mut() {
            if (x as f32 - 40.0).powi(2) + (y as f32 - 30.0).powi(2) <= 25.0 {
                *p = Rgb([250, 250, 250]);
            }
        }
        let spot = Spot::around([40.0, 30.0], 5.0, 0.9);
        let mut part = image::imageops::crop_imm(&frame, 20, 10, 40, 40).to_image();
        paint_spots(&mut frame, &[spot], [0.0, 0.0]);
        paint_spots(&mut part, &[spot], [20.0, 10.0]);
        assert!(frame.pixels().all(|p| *p == Rgb([50, 60, 70])));
        assert_eq!(
            part,
            image::imageops::crop_imm(&frame, 20, 10, 40, 40).to_image()
        );
    }

    #[test]
    fn a_card_or_a_spot_off_the_frame_paints_nothing_and_never_panics() {
        let frame = RgbImage::from_pixel(40, 30, Rgb([9, 9, 9]));
        let far = [
            [500.0, 500.0],
            [560.0, 500.0],
            [560.0, 590.0],
            [500.0, 590.0],
        ];
        let spot = Spot::around([530.0, 540.0], 8.0, 0.9);
        assert_eq!(
            painted_crop(&frame, &far, &[spot]),
            crop(&frame, PieceClass::Card, &far)
        );
        let nan = [[f32::NAN; 2]; 4];
        let odd = Spot::around([f32::NAN, 3.0], f32::INFINITY, 0.9);
        painted_crop(&frame, &nan, &[odd]);
        let mut img = frame.clone();
        paint_spots(
            &mut img,
            &[odd, Spot::around([20.0, 15.0], 1e9, 0.9)],
            [0.0, 0.0],
        );
        assert_eq!(img, frame);
    }

    #[test]
    fn a_painted_card_is_named_as_like_as_its_first_look_and_by_its_place() {
        let cat = Catalogue::bundled();
        // Upright city: Moloch's side up the image, Outpost's down.
        let pieces = vec![
            card(300.0, 300.0, Some("ziggy_one"), &[("ziggy_one", 0.9)]),
            card(300.0, 200.0, None, &[("hunter", 0.45), ("ripper", 0.4)]),
            card(300.0, 400.0, None, &[("commando", 0.45), ("hunter", 0.4)]),
            card(900.0, 900.0, None, &[("commando", 0.45), ("hunter", 0.4)]),
        ];
        let cities = city_frames(&pieces);
        let may = |i: usize, face: Option<&str>, score: f32| {
            may_name(&cat, &cities, &pieces[i], &look_at(face, score))
        };
        // The first look's best face, even less like it; another only as like or more.
        assert!(may(1, Some("hunter"), 0.4));
        assert!(!may(1, Some("ripper"), 0.44));
        assert!(may(1, Some("ripper"), 0.6));
        // In a column, only a unit of its side.
        assert!(!may(1, Some("commando"), 0.6));
        assert!(!may(2, Some("hunter"), 0.6));
        assert!(may(2, Some("commando"), 0.6));
        assert!(!may(2, Some("emp_assault"), 0.6));
        // Beside no city, any face; and no name at all names nothing.
        assert!(may(3, Some("hunter"), 0.6));
        assert!(!may(3, None, 0.9));
    }
}
