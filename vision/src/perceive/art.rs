//! Spots that are a card's own art.
//!
//! The token finder sometimes takes a patch of a unit's art (a dark blot, a round window, a
//! bright badge) for a token lying on the card, or a city's print (an empty district place,
//! the check mark of its feature box) for a marker, and the token embedder then names it,
//! weakly, as the piece most like it. [`super::print`] catches such art where the finder
//! already fires on the clean face at enrolment; elsewhere, on a blurred, tilted card at the
//! table, art the finder passed over on the face can still look like a token. So the
//! gallery keeps each unit and city face large enough to see a token's worth of its art
//! ([`ArtPicture`], 90x126 pixels: a token 18 mm across on a 63 mm card is 26 of them), and
//! a spot found on a named unit or city is compared with that card's face where it lies: the
//! window around the spot, and the face cut where the card's corners put that window,
//! by the normalised cross-correlation of each colour channel, averaged over the channels
//! (so neither the light's brightness nor its colour counts; a channel flat in either is
//! left out). The face is cut at small shifts too ([`SHIFTS`]), as a card's corners at the
//! table are a little off. A token lying there hides the art, and the two differ; a spot
//! that is the art itself matches it, and from [`ART_SURE`] it is left out. The other way
//! round, a token the embedder names a little under its bar (small, blurred) is kept where
//! it clearly differs from the art ([`NOT_ART`]): something lies there.
//!
//! A token kept on a unit is also compared with its own enrolled picture (by the
//! correlation of [`super::look_alike`]) where it looks somewhat like the art
//! ([`SOMEWHAT_ART`]) or the finder saw it only faintly: one that looks nothing like the
//! token it is named ([`UNLIKE_ITS_PICTURE`], [`FAINT_UNLIKE_ITS_PICTURE`]) is left out.
//!
//! Nothing here knows what any face looks like: the pictures are the player's own, kept in
//! the gallery by `tablelens enroll`.

use super::assemble::centre;
use super::dot::{dot, sum};
use super::look_alike::Picture;
use super::resample::{apply, invert, rectify, unit_square_to_quad};
use image::RgbImage;

/// Width in pixels of a unit or city face's art picture as the gallery keeps it.
pub const ART_W: u32 = 90;
/// Height in pixels of a unit or city face's art picture as the gallery keeps it.
pub const ART_H: u32 = 126;

/// A unit or city face as the gallery keeps it for [`FaceArt`].
pub type ArtPicture = Picture<ART_W, ART_H>;

/// The likeness to its card's face where it lies from which a spot is that face's art,
/// and is left out ([`super::assemble::read_on_cards`]). On the nine validation sets (480
/// scenes; `models/tokens.md`), eleven tokens were kept where none lay, nearly all on a
/// unit's art; at the cards' true corners, against faces of this size, they matched the
/// art at 0.67 to 0.93, ten of the eleven at 0.8 or more, and of 3,530 real tokens none
/// did at 0.8 (one at 0.75; with faces 63 pixels wide only four of the eleven reached 0.8).
/// At the table, layouts exact rose from 392 to 399 of 480, with no token lost; bars of
/// 0.6 to 0.75 gave 398 to 399, and 0.85 gave 398: the highest of the even ones is kept.
pub const ART_SURE: f32 = 0.8;

/// How far over its bar ([`super::identify::Thresholds`]) a token or marker's similarity
/// may lie for it to be left out where it looks fairly like the art of a unit it lies on
/// ([`FAIRLY_ART`]; [`super::assemble::read_on_cards`]).
pub const BARELY_ABOVE: f32 = 0.05;

/// The likeness to a unit's art from which a token or marker named barely over its bar
/// ([`BARELY_ABOVE`]) is that art, and is left out. On validation a shield was kept at
/// 0.402 (bar 0.4) beside the +1 it overlapped, on art it matched at 0.65. Layouts exact,
/// validation 432 -> 433 of 480 at 0.5 to 0.6 (432 at 0.7; from 0.4 a real token was lost),
/// recast 395 -> 396, held out 165 either way; reaching 0.1 over the bar lost a token on
/// deck 2. The highest of the even bars is kept.
pub const FAIRLY_ART: f32 = 0.6;
const _: () = assert!(NOT_ART < FAIRLY_ART && FAIRLY_ART < ART_SURE);

/// How much more like the art of its unit than like the token it is named a token must
/// look, where it looks like the art at all (from [`NOT_ART`]), to be that art
/// ([`art_bar`]). A patch of art the token finder took for a token (a dark blot, a round
/// window) is named as the token it is most like, weakly; blurred or tilted it matches the
/// art where it lies only fairly, under [`ART_SURE`], but better than any token. On all 31
/// rendered sets (1,770 scenes), of the 32 tokens kept where none lay, 11 looked like the
/// art from 0.5 and by 0.1 more than like their token, and of some 13,000 real tokens read
/// on units, one did (a disable token, in a scene with other faults). (Markers on cities,
/// which may lie on print like them, are held to [`ART_SURE`] as before: 6 real ones would
/// have been lost.) Layouts exact: validation 440 -> 441 of 480, new decks 200 of 240
/// either way, unseen 859 -> 866 of 1,050 (decks 13 to 16: 176 -> 182, where brutes and
/// dreadnoughts have dark blots in their art), no scene lost. A lead of 0.05 from 0.6
/// gained 8 unseen and lost one (a real token left out); 0.1 from 0.6 gained 6.
pub const ART_LEAD: f32 = 0.1;

/// The likeness to the art of a card where it lies from which a token or marker named at
/// `similarity`, against its bar `bar`, is that art. A marker on a city (`on_city`) is
/// held to [`ART_SURE`] however it is named: markers lie on the city's printed places for
/// them, which may look like them. On validation deck 7 (and new deck 9),
/// destroyed-district markers named at 0.71 to 0.73 against the faint bar of 0.7 matched
/// Iron Gate's art there at 0.60 to 0.76; the spots where no marker lay, on the printed
/// feature box of deck 11's cities (a check mark, like the used-feature marker) and on
/// empty district places, at 0.90 to 0.99. A token on a unit is that art from
/// [`ART_LEAD`] over its similarity (but not under [`NOT_ART`], and from [`ART_SURE`]
/// whatever it is named), and from [`FAIRLY_ART`] where it is named by less than
/// [`BARELY_ABOVE`] over its bar.
pub fn art_bar(similarity: f32, bar: f32, on_city: bool) -> f32 {
    if on_city {
        return ART_SURE;
    }
    let leading = (similarity + ART_LEAD).clamp(NOT_ART, ART_SURE);
    if similarity < bar + BARELY_ABOVE {
        leading.min(FAIRLY_ART)
    } else {
        leading
    }
}

/// How far under its bar ([`super::identify::Thresholds`]: `small`, or `faint_small` for a
/// faint spot) a token's similarity may lie for it to be kept where it looks unlike the
/// art of its unit ([`NOT_ART`]; [`super::assemble::read_on_cards`]).
pub const RESCUE_BELOW: f32 = 0.15;

/// How far under its bar a marker on a city may be named for it to be kept where it looks
/// unlike the city's print there ([`NOT_ART`]) and is named with the least lead
/// ([`super::assemble::read_on_cards`]). Markers lie on the city's printed places for them,
/// and a marker there, or one the camera sees at a slant, is named weakly, most often at
/// the faint bar (0.7). On the nine validation sets and new decks 9 to 12 (720 scenes), of
/// the spots on cities named under their bar by less than a quarter, the real markers
/// matched the city's face where they lay at 0.17 to 0.40 (one at 0.68), the spots where
/// none lay at 0.42 to 0.99 (all but one from 0.69). Layouts exact: validation 433 -> 435
/// of 480 (deck 2's destroyed-district markers on their printed places), new decks 194 ->
/// 195, held out 166 either way, recast validation 396 -> 397 and new 180 -> 183; a reach
/// of 0.15 gave 434 / 194, 0.25 the same as 0.2, 0.3 436 / 194 (a marker read on deck 10
/// where none lay); a likeness under 0.4 instead of 0.5 the same. A spot the finder's first
/// look saw only under its least peak is kept so too (deck 2: 434 without).
pub const CITY_RESCUE_BELOW: f32 = 0.2;

/// The likeness to its unit's art under which a token named a little under its bar
/// ([`RESCUE_BELOW`]) is kept: something that is not the card lies there. On the nine
/// validation sets (480 scenes), of the spots on units named under their bar by less than
/// a quarter, the 102 where no token lay matched the art at the cards' true corners at
/// 0.56 to 0.97, and the 26 real tokens at -0.12 to 0.58 (half under 0.25), 24 of them
/// best matched to their own token. Layouts exact, against 401 without: 404 at 0.5 (one
/// scene lost to a token kept as unknown, four gained), 403 at 0.4 and 0.3; a reach of 0.1
/// or 0.2 gave 403, 0.25 gave 401 (at 0.4). The same scenes under a coloured light 377 ->
/// 379.
pub const NOT_ART: f32 = 0.5;

/// The likeness to a unit's art from which a token kept on it is also compared with its
/// own enrolled picture ([`UNLIKE_ITS_PICTURE`]). Few real tokens look even this much like
/// the art they cover (about one spot kept on a unit in six, on all 31 rendered sets), so
/// the comparison, which costs far more than the art's, is made for few.
pub const SOMEWHAT_ART: f32 = 0.3;

/// The likeness to its own enrolled picture (by the correlation of [`super::look_alike`],
/// at its best turn and shift) under which a token kept on a unit, that looks somewhat like
/// the unit's art there ([`SOMEWHAT_ART`]), is that art and is left out. A round patch of
/// art (a blue disc in deck 13's Runner) can be named a token by the embedder, which sees
/// a coloured disc, at 0.62 to 0.67, and match the art only a little less than
/// [`art_bar`] asks; but it looks nothing like the token's picture, whose glyph it lacks.
/// On all 31 rendered sets (1,770 scenes), of 13,285 real tokens kept on units, none
/// looked less like its picture than 0.24 (0.29 for 999 in 1,000); of the 25 kept where
/// none lay, 5 did under 0.2 where they matched the art from 0.3 (at 0.35 to 0.77).
pub const UNLIKE_ITS_PICTURE: f32 = 0.2;
const _: () = assert!(UNLIKE_ITS_PICTURE < SOMEWHAT_ART && SOMEWHAT_ART < NOT_ART);

/// The likeness to its own enrolled picture under which a token kept on a unit where the
/// token finder saw it only faintly ([`super::tokens::Spot::faint`]) is left out, however
/// unlike the art there it looks: the finder is unsure, and the picture does not bear it
/// out. On all 31 rendered sets, of the 351 faint spots kept on units, the 11 where no
/// token lay looked like their token's picture at 0.25 to 0.54 (three under 0.3: a shield
/// on a Hornet, twice, and a +2 named just over the faint bar beside a Runner's tokens),
/// the 340 real tokens at 0.31 or more. A thin margin: at 0.35 one real token would go
/// too.
pub const FAINT_UNLIKE_ITS_PICTURE: f32 = 0.3;

/// How far under the faint bar (`thresholds.faint_small`, 0.7) a faint spot on a unit may
/// be named for it to be kept where two looks besides the embedder's bear it out: it looks
/// unlike its unit's art there ([`NOT_ART`]) and like its own token's enrolled picture
/// ([`LIKE_ITS_PICTURE`]) ([`super::assemble::read_on_cards`]). Unlike a token a little
/// under its bar ([`RESCUE_BELOW`]), one the finder's first look saw only under its least
/// peak counts too: the picture vouches for it.
///
/// A throwaway log on all 31 rendered sets (`models/README.md`; each analysis of a frame
/// relit counted) listed the faint spots on units named from 0.45 to under the faint bar
/// and not kept: 27 lying where the truth has that token, 408 where none lay. Of those that
/// looked unlike the art (under [`NOT_ART`]), 22 and 15; the real ones looked like their
/// token's picture at 0.38 to 0.92 (12 from 0.65), the others at 0.19 to 0.60. Layouts
/// exact: validation 663 -> 664 of 720 (deck 5 scene 27), unseen 947 -> 948 of 1,050 (deck
/// 18 scene 48), none lost; recast 810 of 930 as before; tokens and markers missed 194 ->
/// 190 (recast 119 -> 117), none more named wrong. From a likeness of 0.6 and a reach of
/// 0.35 one scene more was won (deck 14) and one lost (deck 3: a patch of art kept as a
/// -2 token, like its picture at 0.60).
pub const FAINT_REACH: f32 = 0.25;

/// The likeness to its own enrolled picture (the correlation of [`super::look_alike`]) from
/// which a faint spot named well under its bar ([`FAINT_REACH`]) is kept where it looks
/// unlike its unit's art.
pub const LIKE_ITS_PICTURE: f32 = 0.65;

/// Share of a spot's side the compared window spans: the middle of the spot, where a
/// token lying there hides the art most surely.
const WINDOW: f32 = 0.8;

/// Pixels a side of the compared window and of the face cut to match it.
const SIDE: u32 = 20;

/// Shifts of the face against the window, each way, in the window's pixels (each a 20th
/// of [`WINDOW`]: up to 0.12 of the spot's side), as a card's corners at the table are a
/// few pixels off.
const SHIFTS: u32 = 3;

/// The art pictures of a gallery's unit and city faces, ready to be compared with spots.
#[derive(Debug, Clone, Default)]
pub struct FaceArt {
    faces: Vec<(String, RgbImage)>,
}

impl FaceArt {
    /// The readable pictures among `pictures` (a gallery is checked when it is loaded).
    pub fn new(pictures: &[ArtPicture]) -> FaceArt {
        FaceArt {
            faces: pictures
                .iter()
                .filter_map(|p| Some((p.id.clone(), p.image().ok()?)))
                .collect(),
        }
    }

    /// Whether any picture is held.
    pub fn is_empty(&self) -> bool {
        self.faces.is_empty()
    }

    /// How much the frame around the spot at `spot` (its corners) looks like the face of
    /// `card_id` lying at `card` (corners clockwise from its printed top-left) where the
    /// spot lies on it: the best correlation at any shift (and of any picture of that face
    /// the player enrolled), 1 for the face itself. `None` when there is no picture of that
    /// face, when the spot's centre lies off the card, or when the frame or the face there
    /// is flat.
    pub fn likeness(
        &self,
        frame: &RgbImage,
        card_id: &str,
        card: &[[f32; 2]; 4],
        spot: &[[f32; 2]; 4],
    ) -> Option<f32> {
        let mut faces = self
            .faces
            .iter()
            .filter(|(id, _)| id == card_id)
            .map(|(_, face)| face)
            .peekable();
        faces.peek()?;
        let to_card = invert(&unit_square_to_quad(card)?)?;
        let c = centre(spot);
        let (u, v) = apply(&to_card, f64::from(c[0]), f64::from(c[1]));
        if !(0.0..=1.0).contains(&u) || !(0.0..=1.0).contains(&v) {
            return None;
        }
        let side = (spot[1][0] - spot[0][0]).hypot(spot[1][1] - spot[0][1]);
        let h = WINDOW * side / 2.0;
        let window = [
            [c[0] - h, c[1] - h],
            [c[0] + h, c[1] - h],
            [c[0] + h, c[1] + h],
            [c[0] - h, c[1] + h],
        ];
        let seen = standardised(&rectify(frame, &window, SIDE, SIDE), 0, 0);
        // The face under the window grown by [`SHIFTS`] of its pixels each way, cut once;
        // each shift of the face is then a window of it.
        let grown = h * (SIDE + 2 * SHIFTS) as f32 / SIDE as f32;
        let on_face = [[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]].map(|[sx, sy]| {
            let (u, v) = apply(
                &to_card,
                f64::from(c[0] + sx * grown),
                f64::from(c[1] + sy * grown),
            );
            [u as f32 * ART_W as f32, v as f32 * ART_H as f32]
        });
        let mut best = f32::MIN;
        for face in faces {
            let around = rectify(face, &on_face, SIDE + 2 * SHIFTS, SIDE + 2 * SHIFTS);
            for dy in 0..=2 * SHIFTS {
                for dx in 0..=2 * SHIFTS {
                    if let Some(r) = correlation(&seen, &standardised(&around, dx, dy)) {
                        best = best.max(r);
                    }
                }
            }
        }
        (best > f32::MIN).then_some(best)
    }
}

/// Each colour channel of the [`SIDE`]-pixel square of `img` at `(x0, y0)` shifted to mean
/// 0 and scaled to length 1; `None` for a flat channel (nothing there to correlate).
fn standardised(img: &RgbImage, x0: u32, y0: u32) -> [Option<Vec<f32>>; 3] {
    let n = (SIDE * SIDE) as usize;
    [0, 1, 2].map(|ch| {
        let mut values: Vec<f32> = (y0..y0 + SIDE)
            .flat_map(|y| (x0..x0 + SIDE).map(move |x| f32::from(img.get_pixel(x, y).0[ch])))
            .collect();
        let mean = sum(&values) / n as f32;
        values.iter_mut().for_each(|x| *x -= mean);
        let norm = dot(&values, &values).sqrt();
        (norm >= 1.0).then(|| values.into_iter().map(|x| x / norm).collect())
    })
}

/// The correlation of two [`standardised`] pictures, averaged over the channels neither
/// holds flat; `None` where every channel is flat in one or the other.
fn correlation(a: &[Option<Vec<f32>>; 3], b: &[Option<Vec<f32>>; 3]) -> Option<f32> {
    let each: Vec<f32> = a
        .iter()
        .zip(b)
        .filter_map(|(a, b)| Some(dot(a.as_ref()?, b.as_ref()?)))
        .collect();
    (!each.is_empty()).then(|| each.iter().sum::<f32>() / each.len() as f32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgb;

    #[test]
    fn a_piece_named_barely_over_its_bar_is_held_to_a_lower_art_bar() {
        // Clear of its bar and named well: only art as clear as ART_SURE drops it.
        assert_eq!(art_bar(0.75, 0.4, false), ART_SURE);
        assert_eq!(art_bar(0.95, 0.7, false), ART_SURE);
        // Barely over it (or under it), art matched fairly is enough.
        assert_eq!(art_bar(0.72, 0.7, false), FAIRLY_ART);
        assert_eq!(art_bar(0.65, 0.7, false), FAIRLY_ART);
        // Not for a marker on a city, which may lie on print like it.
        assert_eq!(art_bar(0.42, 0.4, true), ART_SURE);
        assert_eq!(art_bar(0.72, 0.7, true), ART_SURE);
        assert_eq!(art_bar(0.5, 0.4, true), ART_SURE);
    }

    #[test]
    fn a_token_named_weakly_is_art_where_it_looks_more_like_the_art() {
        // Named at 0.55 (clear of the bar of 0.4): art from 0.65 drops it.
        assert!((art_bar(0.55, 0.4, false) - 0.65).abs() < 1e-6);
        assert!((art_bar(0.4 + BARELY_ABOVE, 0.4, false) - (0.45 + ART_LEAD)).abs() < 1e-6);
        // Never from under NOT_ART, however weakly named: below it something lies there.
        assert_eq!(art_bar(0.35, 0.4, false), NOT_ART);
        assert_eq!(art_bar(0.3, 0.4, false), NOT_ART);
    }

    /// A face with busy art: stripes and a dark blot at (30, 40) of 90x126.
    fn face() -> RgbImage {
        RgbImage::from_fn(ART_W * 3, ART_H * 3, |x, y| {
            let (fx, fy) = (x as f32 / 3.0, y as f32 / 3.0);
            if (fx - 30.0).hypot(fy - 40.0) < 9.0 {
                Rgb([25, 20, 40])
            } else {
                let v = ((fx * 0.7).sin() * (fy * 0.45).cos() * 90.0 + 140.0) as u8;
                Rgb([v, 255 - v, (fx * 2.0) as u8])
            }
        })
    }

    /// The face laid on a grey table at `scale` pixels per face pixel, from (40, 30).
    fn table(face: &RgbImage, scale: f32) -> (RgbImage, [[f32; 2]; 4]) {
        let (w, h) = (ART_W as f32 * scale, ART_H as f32 * scale);
        let quad = [
            [40.0, 30.0],
            [40.0 + w, 30.0],
            [40.0 + w, 30.0 + h],
            [40.0, 30.0 + h],
        ];
        let mut frame = RgbImage::from_pixel(400, 400, Rgb([90, 90, 90]));
        let small = super::super::resample::area_resize(face, w as u32, h as u32);
        image::imageops::replace(&mut frame, &small, 40, 30);
        (frame, quad)
    }

    fn spot_at(x: f32, y: f32, side: f32) -> [[f32; 2]; 4] {
        let h = side / 2.0;
        [
            [x - h, y - h],
            [x + h, y - h],
            [x + h, y + h],
            [x - h, y + h],
        ]
    }

    #[test]
    fn art_matches_its_face_and_a_token_on_it_does_not() {
        let face = face();
        let art = FaceArt::new(&[ArtPicture::of("hornet", &face)]);
        let (mut frame, card) = table(&face, 1.5);
        // The blot at face (30, 40) lies at (40 + 45, 30 + 60) in the frame.
        let spot = spot_at(85.0, 90.0, 26.0 * 1.5);
        let blot = art.likeness(&frame, "hornet", &card, &spot).unwrap();
        assert!(blot >= ART_SURE, "{blot}");
        // Another unit's face is not looked at, nor a spot off the card.
        assert_eq!(art.likeness(&frame, "brute", &card, &spot), None);
        assert_eq!(
            art.likeness(&frame, "hornet", &card, &spot_at(20.0, 20.0, 30.0)),
            None
        );
        // A token lying on the blot: a pale disc with a dark cross.
        for (x, y, p) in frame.enumerate_pixels_mut() {
            let (dx, dy) = (x as f32 - 85.0, y as f32 - 90.0);
            if dx.hypot(dy) < 19.0 {
                *p = if dx.abs() < 3.0 || dy.abs() < 3.0 {
                    Rgb([30, 30, 120])
                } else {
                    Rgb([230, 220, 200])
                };
            }
        }
        let token = art.likeness(&frame, "hornet", &card, &spot).unwrap();
        assert!(token < 0.5, "{token}");
    }

    #[test]
    fn the_best_of_a_face_s_pictures_counts() {
        let face = face();
        let (frame, card) = table(&face, 1.5);
        let spot = spot_at(85.0, 90.0, 39.0);
        let other = RgbImage::from_fn(ART_W, ART_H, |x, y| Rgb([(x * 2) as u8, (y * 2) as u8, 90]));
        let one = FaceArt::new(&[ArtPicture::of("hornet", &other)]);
        let both = FaceArt::new(&[
            ArtPicture::of("hornet", &other),
            ArtPicture::of("hornet", &face),
        ]);
        assert!(one.likeness(&frame, "hornet", &card, &spot).unwrap() < 0.5);
        assert!(both.likeness(&frame, "hornet", &card, &spot).unwrap() >= ART_SURE);
    }

    #[test]
    fn a_card_a_little_off_still_matches_its_art() {
        let face = face();
        let art = FaceArt::new(&[ArtPicture::of("hornet", &face)]);
        let (frame, card) = table(&face, 1.5);
        // Corners 3 pixels off, as the corner refiner leaves them.
        let off = card.map(|[x, y]| [x + 3.0, y - 2.0]);
        let spot = spot_at(85.0, 90.0, 39.0);
        let l = art.likeness(&frame, "hornet", &off, &spot).unwrap();
        assert!(l >= ART_SURE, "{l}");
    }
}
