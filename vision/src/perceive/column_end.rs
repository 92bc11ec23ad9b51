//! A card beyond a column's last named unit that nothing found at all.
//!
//! The last card of a column lies on top, in full view, and yet the detector sometimes has
//! no peak on it at all (a red-framed card on a red checked cloth, say). [`super::gaps`]
//! looks beyond a column's last unit only where a card left unknown lies further out;
//! here, where nothing was found beyond it, the last unit's quad is moved one step (the
//! frame's, [`super::gaps`]) further out along the column ([`ends`]), brought to the edges
//! of whatever lies there by the corner refiner ([`super::refine`]), cropped, and named
//! among the unit faces of the column's side if the crop reaches [`OPEN_BAR`] ([`look`]).
//! A refined quad that comes back onto a card already found names nothing.
//!
//! The bar is high because such a crop most often shows bare table, and the embedder finds
//! some unit face about 0.6 alike in a crop of plain cloth. On validation scenes (seeds 12
//! / 11 / 13, decks 1, 2 and 5 to 8: 480 scenes) layouts exact went 385 -> 387 at 0.7, and
//! to 384 at 0.6 (units invented on bare table in four more scenes), with no card named
//! wrong; the copies under a coloured light (`examples/recast.rs`) 360 -> 362; the held-out
//! sets (210 scenes) read as before. Without the refiner, the guessed quad alone gave 386 at
//! 0.7 and 375 at 0.6; with one round of it, 386; slid by a tenth of a card either way as
//! well, no more. It costs up to two rounds of the refiner and a crop for each column: the
//! 40-card frames of the speed benchmark took 48.3 and 63.3 ms before and 51.2 and 67.3 ms
//! after (criterion medians of three alternated rounds on 2 cores; ratio 1.06).
//!
//! Even at that bar the embedder sometimes takes bare cloth for a unit: a crop of plain
//! yellow table was 0.76 like deck 15's Runner. Every card face has a frame, print and
//! art, and so a spread of brightness that bare cloth lacks; a crop named here must show
//! at least [`TEXTURE_SHARE`] of the spread the frame's named units show ([`texture`]).
//!
//! A step is the frame's, and a column seen at a slant has its steps shrink as its cards go
//! away from the camera: the guess can lie past the card, half on the next. So a place that
//! named nothing, but whose crop was fairly like some unit of its side ([`SLIDE_LIKE`]) and
//! shows a card's texture, is looked at once more moved back a little towards the last unit
//! ([`SLIDE_IN`]).

use super::assemble::{centre, lerp, look_one_way, median, Piece};
use super::detect::{Detection, PieceClass};
use super::gaps::{
    along_column, best_unit, column_units, frame_step, last_units, neighbours, Readers,
    DEFAULT_STEP,
};
use super::quad_window::Quad;
use super::refine::same_card;
use super::sides::{best_unit_face, city_frames, column_of, is_unit};
use super::VisionError;
use crate::render::draw::luma;
use image::RgbImage;
use tablelens_engine::{Catalogue, Side};

/// The least similarity at which a crop beyond a column's last unit names a card (see the
/// module's doc for the sweep).
pub const OPEN_BAR: f32 = 0.7;

/// The least share of the median spread of brightness of the frame's named units
/// ([`texture`]) that a crop named beyond a column's end must show. On all 31 rendered sets
/// (1,770 scenes) 14 crops were named there: the 10 real cards showed 0.67 to 1.41 of it,
/// three crops of bare cloth 0.11 to 0.19, and one of cloth that took in the edges of the
/// cards beside it 0.56 (still kept). Layouts exact, unseen 872 -> 874 of 1,050 (deck
/// 15), validation 641 of 720 either way, no scene lost; an absolute least of 15 levels
/// did the same on these scenes, but a dim frame's cards show less.
pub const TEXTURE_SHARE: f32 = 0.35;

/// How much the brightness varies inside a quad: the standard deviation of the luminance
/// (0 to 255) at 16 x 24 points spread evenly across it, the points outside the frame left
/// out (0 where all are).
pub fn texture(frame: &RgbImage, quad: &Quad) -> f32 {
    const ACROSS: usize = 16;
    const DOWN: usize = 24;
    let (w, h) = frame.dimensions();
    let mut levels = Vec::with_capacity(ACROSS * DOWN);
    for j in 0..DOWN {
        let t = (j as f32 + 0.5) / DOWN as f32;
        let left = lerp(quad[0], quad[3], t);
        let right = lerp(quad[1], quad[2], t);
        for i in 0..ACROSS {
            let [x, y] = lerp(left, right, (i as f32 + 0.5) / ACROSS as f32);
            if x < 0.0 || y < 0.0 || x >= w as f32 || y >= h as f32 {
                continue;
            }
            levels.push(luma(frame.get_pixel(x as u32, y as u32).0.map(f32::from)));
        }
    }
    if levels.is_empty() {
        return 0.0;
    }
    let n = levels.len() as f32;
    let mean = levels.iter().sum::<f32>() / n;
    (levels.iter().map(|v| (v - mean) * (v - mean)).sum::<f32>() / n).sqrt()
}

/// The least [`texture`] a crop named beyond a column's end must show: [`TEXTURE_SHARE`]
/// of the median over the frame's named unit cards (0 where there are none).
fn least_texture(frame: &RgbImage, pieces: &[Piece], catalogue: &Catalogue) -> f32 {
    let units = pieces.iter().filter(|p| {
        p.class == PieceClass::Card && p.id.as_deref().is_some_and(|id| is_unit(catalogue, id))
    });
    median(units.map(|p| texture(frame, &p.corners))).map_or(0.0, |m| TEXTURE_SHARE * m)
}

/// A card found (named or not) this share of the frame's step or more beyond a column's
/// last named unit shows that the column's end was seen: no guess is made there.
pub const SEEN_BEYOND: f32 = 0.3;

/// How far back towards its column's last unit a guess at the column's end is moved for a
/// second look ([`End::slid_in`]), as a share of the step. A column seen at a slant has its
/// cards' steps shrink as they go away from the camera, so the frame's step can carry the
/// guess past the card, half onto the next (seed 31, scene 48: a column whose steps are 186,
/// 170 and 158 pixels, where deck 17's frame's step is 213; on deck 19 the refined guess lay 21 pixels past a Lt. Calahan, its crop 0.60 like him, and slid
/// in it named him; on deck 17 one lay 41 pixels past a Captain Johnson, 0.35 like any unit,
/// under [`SLIDE_LIKE`], and is not looked at again). On all 31 rendered sets (see
/// [`SLIDE_LIKE`]; with the texture alone asked), a quarter in and out as well took a unit
/// where none lay on deck 15 (unseen layouts exact 934 either way); in only, 935.
pub const SLIDE_IN: f32 = 0.25;

/// The least similarity to a unit face of its column's side that a crop at a column's end,
/// named by none at [`OPEN_BAR`], must show for its place to be looked at again slid in
/// ([`SLIDE_IN`]), as well as [`TEXTURE_SHARE`] of the units' texture: something card-like
/// lies there, a little off. On all 31 rendered sets (1,770 scenes), with the texture alone
/// asked, layouts exact went from 659 to 661 of 720 (validation) and from 934 to 935 of
/// 1,050 (unseen), recast 804 to 805 of 930, no scene lost; but the crowded table of the
/// speed target (a cloth whose weave shows texture) took 5 and 25 more network runs, its
/// crops there at most 0.35 like a unit. From 0.45 the same scenes were won (recast 804),
/// no piece more named wrong, 4 more cards found, and the crowded table's frames ran
/// their 289 and 308 networks as before.
pub const SLIDE_LIKE: f32 = 0.45;

/// A place where a card may lie unseen at the end of a column ([`ends`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct End {
    /// The card's guessed quad: the column's last named unit's, one step further out.
    pub quad: Quad,
    /// The column's side.
    pub side: Side,
    /// The step from the last unit's quad to the guess, in frame pixels.
    pub step: [f32; 2],
}

impl End {
    /// The guess moved back towards the column's last unit by [`SLIDE_IN`] of the step.
    pub fn slid_in(&self) -> Quad {
        let [dx, dy] = self.step.map(|v| -SLIDE_IN * v);
        self.quad.map(|p| [p[0] + dx, p[1] + dy])
    }
}

/// Where a card may lie unseen at the end of a column: one step beyond each column's last
/// named unit, where no card was found beyond it and the place is in the frame
/// (`width` x `height`).
pub fn ends(pieces: &[Piece], catalogue: &Catalogue, width: f32, height: f32) -> Vec<End> {
    let cities = city_frames(pieces);
    let units = column_units(pieces, catalogue, &cities);
    let step = frame_step(&neighbours(pieces, &units)).unwrap_or(DEFAULT_STEP);
    let mut out = Vec::new();
    for u in last_units(&units) {
        let seen_beyond = pieces.iter().any(|p| {
            p.class == PieceClass::Card
                && column_of(&cities, centre(&p.corners)).is_some_and(|(city, side, along)| {
                    (city, side) == (u.city, u.side)
                        && along.abs() - u.along.abs() >= SEEN_BEYOND * step
                })
        });
        if seen_beyond {
            continue;
        }
        // Away from the city along its long axis (in city card lengths): the Moloch side
        // lies against the city's `down`.
        let down = cities[u.city].down;
        let shift = if u.along > 0.0 { -step } else { step };
        let q = along_column(&pieces[u.piece].corners, down, shift);
        let [x, y] = centre(&q);
        if (0.0..width).contains(&x) && (0.0..height).contains(&y) {
            out.push(End {
                quad: q,
                side: u.side,
                step: [shift * down[0], shift * down[1]],
            });
        }
    }
    out
}

/// Looks for a card at each column's end ([`ends`]) and adds those it names to `pieces`
/// (see the module's doc); a place named by none where something card-like lies (not
/// [`bare`], and [`SLIDE_LIKE`] like a unit) is looked at again slid in ([`End::slid_in`]).
pub fn look(
    frame: &RgbImage,
    catalogue: &Catalogue,
    pieces: &mut Vec<Piece>,
    readers: Readers,
) -> Result<(), VisionError> {
    let ends = ends(
        pieces,
        catalogue,
        frame.width() as f32,
        frame.height() as f32,
    );
    if ends.is_empty() {
        return Ok(());
    }
    // Bare cloth named as a unit shows too little of a card's print and art.
    let least = least_texture(frame, pieces, catalogue);
    let guesses: Vec<(Quad, Side)> = ends.iter().map(|e| (e.quad, e.side)).collect();
    let (named, unnamed) = name_at(frame, catalogue, pieces, readers, &guesses, least)?;
    pieces.extend(named);
    let slid: Vec<(Quad, Side)> = unnamed
        .into_iter()
        .filter(|u| u.likeness >= SLIDE_LIKE)
        .map(|u| (ends[u.guess].slid_in(), ends[u.guess].side))
        .collect();
    if slid.is_empty() {
        return Ok(());
    }
    let (named, _) = name_at(frame, catalogue, pieces, readers, &slid, least)?;
    pieces.extend(named);
    Ok(())
}

/// Whether the quad at `quad` shows under `least` [`texture`] ([`least_texture`]): bare
/// cloth, which names no card at a column's end however like a unit its crop is.
fn bare(frame: &RgbImage, quad: &Quad, least: f32) -> bool {
    texture(frame, quad) < least
}

/// A guess [`name_at`] looked at, not [`bare`], that named no card.
struct Unnamed {
    /// Which guess.
    guess: usize,
    /// Its crop's similarity to the unit face of its side most like it (-1 where none).
    likeness: f32,
}

/// Each guess (with its column's side) brought to the edges of what lies there by the
/// corner refiner, cropped and named among the unit faces of its side at [`OPEN_BAR`]
/// (none where its quad is a card found already); the cards named, and the guesses tried
/// that named none. A refined quad that is [`bare`] (under `least`) is neither named nor
/// looked at again, and so is not cropped at all.
fn name_at(
    frame: &RgbImage,
    catalogue: &Catalogue,
    pieces: &[Piece],
    readers: Readers,
    guesses: &[(Quad, Side)],
    least: f32,
) -> Result<(Vec<Piece>, Vec<Unnamed>), VisionError> {
    let Readers {
        embedder,
        gallery,
        refiner,
    } = readers;
    let quads: Vec<Quad> = guesses.iter().map(|g| g.0).collect();
    let tried: Vec<(usize, Quad)> = refiner
        .refine(frame, &quads)?
        .into_iter()
        .enumerate()
        .filter(|(_, q)| {
            !pieces
                .iter()
                .any(|p| p.class == PieceClass::Card && same_card(&p.corners, q))
        })
        .filter(|(_, q)| !bare(frame, q, least))
        .collect();
    if tried.is_empty() {
        return Ok((Vec::new(), Vec::new()));
    }
    let tries: Vec<Detection> = tried
        .iter()
        .map(|&(_, q)| Detection::card(q, 0.0))
        .collect();
    // The corners keep the printed order of the unit they were moved from.
    let (looks, _) = look_one_way(frame, &tries, embedder, gallery)?;
    let mut named = Vec::new();
    let mut unnamed = Vec::new();
    for (look, &(guess, _)) in looks.iter().zip(&tried) {
        let side = guesses[guess].1;
        let one = std::slice::from_ref(look);
        match best_unit(one, catalogue, gallery, OPEN_BAR, |_| Some(side)) {
            Some(n) => named.push(n),
            None => unnamed.push(Unnamed {
                guess,
                likeness: best_unit_face(catalogue, &look.similarities, side).map_or(-1.0, |b| b.1),
            }),
        }
    }
    Ok((named, unnamed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perceive::assemble::{outpost_column as column, upright_card as card};
    use image::Rgb;

    /// A grey cloth of level 120 with, at (100, 100) and (300, 100), two cards 60x90 of
    /// black and white stripes 10 px wide.
    fn cloth_with_two_cards() -> RgbImage {
        RgbImage::from_fn(400, 200, |x, y| {
            let on_card =
                (55..145).contains(&y) && ((70..130).contains(&x) || (270..330).contains(&x));
            if on_card {
                Rgb(if (x / 10) % 2 == 0 { [0; 3] } else { [255; 3] })
            } else {
                Rgb([120; 3])
            }
        })
    }

    #[test]
    fn bare_cloth_shows_no_texture_and_a_printed_card_shows_much() {
        let frame = cloth_with_two_cards();
        let on = |x: f32| card(x, 100.0, None, &[]).corners;
        assert!(texture(&frame, &on(200.0)) < 1e-3);
        let striped = texture(&frame, &on(100.0));
        assert!((striped - 127.5).abs() < 1.0, "{striped}");
        // Points outside the frame are left out; a quad wholly outside shows none.
        let outside = [[500.0, 10.0], [560.0, 10.0], [560.0, 100.0], [500.0, 100.0]];
        assert_eq!(texture(&frame, &outside), 0.0);
    }

    #[test]
    fn the_least_texture_is_a_share_of_the_named_units() {
        let cat = Catalogue::bundled();
        let frame = cloth_with_two_cards();
        let units = vec![
            card(100.0, 100.0, Some("commando"), &[("commando", 0.9)]),
            card(300.0, 100.0, Some("commando"), &[("commando", 0.9)]),
            // Unknown cards do not count.
            card(200.0, 100.0, None, &[]),
        ];
        let least = least_texture(&frame, &units, &cat);
        assert!((least - TEXTURE_SHARE * 127.5).abs() < 1.0, "{least}");
        assert_eq!(least_texture(&frame, &units[2..], &cat), 0.0);
    }

    #[test]
    fn a_column_is_looked_at_one_step_beyond_its_last_unit() {
        let cat = Catalogue::bundled();
        // Steps of 72 px (0.8 of a card).
        let pieces = column(&[400.0, 472.0, 544.0]);
        let found = ends(&pieces, &cat, 1920.0, 1080.0);
        assert_eq!(found.len(), 1);
        let End { quad, side, step } = found[0];
        assert_eq!(side, Side::Outpost);
        assert!((centre(&quad)[1] - 616.0).abs() < 0.5, "{quad:?}");
        assert!((centre(&quad)[0] - 300.0).abs() < 0.5);
        assert!(
            step[0].abs() < 0.5 && (step[1] - 72.0).abs() < 0.5,
            "{step:?}"
        );
        // Slid in, a quarter of the step back towards the last unit.
        let slid = found[0].slid_in();
        assert!((centre(&slid)[1] - 598.0).abs() < 0.5, "{slid:?}");
        assert!((centre(&slid)[0] - 300.0).abs() < 0.5);
    }

    #[test]
    fn bare_cloth_is_under_the_least_texture_and_a_card_is_not() {
        let cat = Catalogue::bundled();
        let frame = cloth_with_two_cards();
        let units = [
            card(100.0, 100.0, Some("commando"), &[("commando", 0.9)]),
            card(300.0, 100.0, Some("commando"), &[("commando", 0.9)]),
        ];
        let least = least_texture(&frame, &units, &cat);
        let on = |x: f32| card(x, 100.0, None, &[]).corners;
        assert!(bare(&frame, &on(200.0), least));
        assert!(!bare(&frame, &on(100.0), least));
        // With no named unit to compare with, nothing is bare.
        assert!(!bare(&frame, &on(200.0), 0.0));
    }

    #[test]
    fn no_guess_where_a_card_was_found_beyond_or_off_the_frame() {
        let cat = Catalogue::bundled();
        // An unknown card found a step beyond the last unit: the end was seen.
        let mut pieces = column(&[400.0, 472.0, 544.0]);
        pieces.push(card(300.0, 616.0, None, &[]));
        assert!(ends(&pieces, &cat, 1920.0, 1080.0).is_empty());
        // The next step lies below the frame's bottom edge.
        let pieces = column(&[400.0, 472.0, 544.0]);
        assert!(ends(&pieces, &cat, 1920.0, 600.0).is_empty());
        // A column with no named unit has no end to look beyond.
        assert!(ends(&column(&[]), &cat, 1920.0, 1080.0).is_empty());
    }
}
