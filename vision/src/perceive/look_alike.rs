//! Telling look-alike tokens apart by their enrolled pictures.
//!
//! Two of The Convoy's tokens, +1 and +2, differ in one glyph, a few pixels wide at the
//! table. The token embedder sees a spot stretched to its 40x56 crop and often finds such a
//! token too close to call, or names it wrong when it is blurred or tilted
//! (`models/token_embedder.md`). This stage then compares the spot with the enrolled
//! pictures of the two components the embedder could not separate: at every 15-degree turn
//! and at small shifts, the normalised cross-correlation of each colour channel over a disc
//! inside the token (so that neither the light nor the card beneath counts), averaged over
//! the channels. The component whose picture matches better is named when it leads by
//! `thresholds.look_alike` ([`super::identify::Thresholds`]); otherwise the embedder's
//! verdict stands.
//!
//! The pictures are the player's own (kept small in the gallery by `tablelens enroll`), so
//! this holds for any deck: nothing here knows what a +1 looks like.
//!
//! Chosen on validation scenes (seeds 12 / 11 / 13, decks 1 and 2; `models/token_embedder.md`):
//! layouts exact rose from 43.3 / 33.3 / 43.3 / 30.0 / 38.3% to 48.3 / 43.3 / 46.7 / 30.0 /
//! 38.3%, tokens on the right unit from 85.0 / 86.1 / 82.6% to 87.5 / 88.8 / 85.8% on the
//! canonical deck (decks 1 and 2 unchanged), with one more token named wrong on seed 12. A
//! lead of 0.03 named more, and more wrong; letting the pictures overrule a token the
//! embedder had named by a small lead named more wrong on seed 11 and gained nothing.
//!
//! **By hue first.** The correlation above leaves out each channel's mean, so it is blind
//! to the one thing that most often tells two look-alikes apart when the glyph is a blur:
//! their colour (on the canonical deck +1 is yellow and +2 orange). So the disc's mean
//! colour is compared first, as a hue: the angle of its two opponent axes (red against
//! green, yellow against blue), which a brighter or duller light, or a more or less
//! saturated camera, leaves in place. Where both look-alikes' pictures are coloured (a
//! chroma of 60 levels or more, `MIN_CHROMA`) and their hues lie 10 degrees or more apart
//! (`MIN_HUE_GAP`), a piece the embedder could not call is named by the nearer hue when its
//! distance to the other hue is longer by `thresholds.hue_lead` of the gap between them;
//! and a piece the embedder *named* is renamed as its runner-up when the hue says so by
//! `thresholds.hue_overrule`. Pieces whose two look-alikes share a colour (or are grey)
//! go to the correlation as before.
//!
//! Chosen on validation scenes (seeds 12 / 11 / 13, decks 1 and 2; `models/token_embedder.md`
//! has the sweep): layouts exact rose from 124 to 137 of 240 (35 / 14 / 18 / 28 / 29 to
//! 40 / 19 / 21 / 28 / 29), and tokens and markers named wrong fell from 18 to 5. Naming
//! by hue alone, without overruling, gave 130 exact; overruling at any chroma (30 levels)
//! renamed deck 1's pale +2 tokens wrong.
//!
//! **Under the frame's light.** A coloured light moves every hue in the frame the same
//! way, and a green one carried the canonical orange +2 over to the yellow of +1 (validation
//! seed 11, scene 27: four +2 renamed +1). So the spot's colour is first divided by the
//! frame's light as its named cards show it ([`super::light`]). On validation this named
//! tokens as well as before (97.13% of tokens right either way, layouts exact 384 -> 382 of
//! 480, each way a few close calls); on the same scenes recast under a stronger light
//! (`vision/examples/recast.rs`) layouts exact rose from 320 to 346 of 480 and tokens right
//! on the canonical deck from 87-91% to 95-97%; with the frames lit furthest analysed again
//! whitened (`super::RELIGHT_SPREAD`), 385 and 361.
//!
//! **What the camera cut off.** A warm lamp can carry the red of a token past the level
//! where the camera stops (255, or less in a frame relit by dividing a channel,
//! [`Light::ceiling`]); undone, that red comes out short, and an orange +2 reads nearly as
//! yellow as a +1 (seed 11, scene 27, recast: a +2 at 199 / 175 / 34 under the renderer's
//! light, undone 183 / 174 / 34). So the spot's hue is compared with the pictures as the
//! frame could record them: each picture's pixels carried by the light, cut at the
//! ceiling, and undone again ([`Light::clipped`]); a picture the light does not carry past
//! the ceiling is compared as it is. The ceiling counts only in a channel where some pixel
//! of the spot reaches it. On all 31 rendered sets layouts exact rose from 1,591 to 1,593
//! of 1,770 (validation 659 either way, unseen 932 -> 934 of 1,050: three scenes won, one
//! lost), and recast under a coloured light from 797 to 804 of 930; pieces (cards, tokens)
//! named wrong in the scenes not exact 104 -> 103 and 78 -> 68 (+2 taken for +1 there 17
//! -> 5, +1 for +2 6 -> 7). Without the spot's own evidence, comparing every picture cut
//! whatever the spot showed, 1,593 and 803, with more +1 taken for +2 (10).
//!
//! **A hue that only leans.** Where the embedder could not call a piece and its hue leads
//! by less than `thresholds.hue_overrule` (it leans one way without settling it), a
//! correlation that leads the other way by `thresholds.look_alike` names it instead: the
//! light undone from the named cards is sometimes a little off, and the glyph does not
//! depend on it. On validation two +2 tokens under a light that moved them towards +1's
//! yellow (hue leads 0.35 and 0.46, glyph leads 0.04 and 0.13) were named right, and none
//! wrong: layouts exact 404 -> 406 of 480 (recast 379 -> 380; held-out 156 of 210 either
//! way). Across the 77 close calls between +1 and +2 on validation, a hue leading by 0.5
//! or more was never wrong, the glyph's lead was wrong up to 0.10.
//!
//! **Hue and glyph together.** Where neither is clear, the two together often are: a
//! piece is named where its hue, however faint (no least chroma asked, as decks 6 and 8
//! have +1 and +2 too dull for the hue to be believed alone,
//! [`LookAlikes::hue_leaning`]), and the glyph (by [`SECONDED_GLYPH`]) lean the same way,
//! and that overrules the embedder's name too. Across the 13 sets, wherever hue and glyph
//! agreed against the embedder's name they were right (11 pieces, where neither picture
//! is grey, `LEANING_CHROMA`); the glyph alone was mostly wrong there. Recast under a
//! coloured light, they were right 22 times and wrong 3.
//!
//! **A glyph that keeps the name.** A hue that would overrule the embedder's name gives way
//! where the glyph clearly keeps it (`GLYPH_KEEPS`): two tokens of one colour family (deck
//! 13's blue +2 and teal disable) lie close enough in hue for a light undone a little off to
//! carry one over to the other. On all 31 rendered sets layouts exact rose from 1,557 to
//! 1,559 of 1,770 (unseen 909 -> 910 of 1,050, new decks 205 -> 206 of 240), recast 783 ->
//! 788 of 930; pieces named wrong 160 -> 155 (recast 95 -> 88); no scene lost.
//! Nor is a name the embedder gave by a wide lead (`SURE_LEAD`) changed at all: unseen
//! 910 -> 911, pieces named wrong 155 -> 153, the rest as before.
//!
//! **Neither, but leaning.** A piece still too close to call, whose embedder's best
//! reaches the token bar (`thresholds.small`), is named as that best where the glyph leans
//! to it, however little, and the hue (where it can be read) not away: of the 23 tokens
//! left unknown on all 31 rendered sets, the embedder's best was right for 20. This named
//! 11, all right: layouts exact, unseen 918 -> 922 of 1,050, validation 650 -> 652 of 720;
//! recast under a coloured light 788 -> 791 of 930, with one piece more named wrong there.
//! Naming every such piece by its best would have named 3 more wrong on the 31 sets.
//!
//! **A glyph alone where the hue says nothing.** Where neither look-alike's picture (nor the
//! spot) has colour enough for the hue to lean at all, or both pictures share one hue (deck
//! 22's +1 and +2 are one purple), the glyph is all there is besides the embedder, and a
//! clear one (`GLYPH_ALONE`) renames a token the embedder named by a narrow lead. On all 31
//! rendered sets two tokens renamed, both rightly; recast, two rightly and one wrongly
//! (layouts exact 810 -> 812 of 930).

use super::assemble::{scaled, Piece};
use super::detect::PieceClass;
use super::dot::{dot, sum};
use super::identify::{rotated, upright_square, Thresholds};
use super::light::Light;
use super::par;
use super::resample::{area_resize, rectify};
use image::RgbImage;
use serde::{Deserialize, Serialize};
use tablelens_engine::Token;

/// Side in pixels of a small piece's picture as the gallery keeps it, and of the token in
/// the window cut around a spot at the table.
pub const PICTURE_SIDE: u32 = 32;
/// Side of the window cut around a spot: half a token more than the token, so that the
/// token can be looked for at shifts of up to [`SHIFT`] pixels.
const WINDOW: u32 = PICTURE_SIDE * 3 / 2;
/// Turns of each picture tried: every 15 degrees.
const TURNS: usize = 24;
/// Largest shift tried, in window pixels, each way.
const SHIFT: i32 = 4;
/// Step between shifts tried.
const SHIFT_STEP: usize = 2;
/// Radius of the disc compared, as a share of the picture's side (inside the token's rim,
/// which is all that shows of the card beneath in most faces).
const DISC: f32 = 0.42;
/// Blur (Gaussian sigma, in picture pixels) given to the pictures: a token at the table is
/// seldom as sharp as its enrolled picture.
const BLUR: f32 = 1.0;

/// The least chroma (opponent-colour distance from grey, in levels) both look-alikes'
/// pictures need for their hues to be compared. The canonical +1 and +2 have about 130;
/// on validation 40 to 90 gave the same, and 30 let deck 1's pale +2 (34) be renamed wrong.
const MIN_CHROMA: f32 = 60.0;
/// The least gap between two look-alikes' hues, in degrees, for hue to tell them apart.
const MIN_HUE_GAP: f32 = 10.0;
/// The least chroma of a spot, as a share of the less coloured look-alike's, for its hue
/// to be read (a token washed out by glare has none to speak of). On validation 0.15 and
/// 0.5 each gave one exact layout fewer.
const SPOT_CHROMA: f32 = 0.3;
/// The least chroma both look-alikes' pictures need for a spot's hue to lean to either
/// ([`LookAlikes::hue_leaning`]): a grey picture has no hue to lean to (deck 1's +1 has
/// 14 levels, the canonical used-feature marker 9; the dull +1 of deck 8, 24). Under a
/// coloured light (the validation sets recast) a faint spot's hue leaned the wrong way
/// towards those grey pictures seven times; from 15 on, never.
const LEANING_CHROMA: f32 = 15.0;
/// The least lead of one look-alike's pictures over the other's (in normalised
/// cross-correlation) that names a piece where its hue, however faint, leans the same way
/// ([`LookAlikes::seconded`]): a piece left too close to call, or named by the embedder as
/// the other. Most pieces this names are +1 or +2 under a light that shifts their hues
/// towards each other, or in a deck whose +1 and +2 show too little colour for the hue
/// alone to be believed (decks 6 and 8). On validation scenes (seeds 12 / 11 / 13, decks
/// 1, 2 and 5 to 8) layouts exact rose from 424 to 428 of 480, tokens and markers named
/// wrong 9 -> 6 and left unknown 2 -> 0 (held out: 162 -> 163 of 210, left unknown 1 -> 0,
/// none named wrong more; recast under coloured light 393 either way); the same at 0.04,
/// and one scene fewer when it only named pieces left too close to call. Naming the other
/// by the glyph alone, where the embedder named one, would have been wrong far more often
/// than right (52 against 5 at a lead of 0.06 on the 13 sets).
const SECONDED_GLYPH: f32 = 0.02;

/// The least lead of the pictures of the piece the embedder named over the other
/// look-alike's by which the name stands against a hue that would overrule it
/// (`thresholds.hue_overrule`). Two tokens of one colour family (deck 13's blue +2 and
/// teal disable) lie close enough in hue for a little error in the light undone to carry
/// one over to the other, and the embedder, which had named it right, was overruled. On all
/// 31 rendered sets (1,770 scenes), of the 40 tokens so overruled, 34 rightly, the 6
/// wrongly overruled had the glyph leading for their name by 0.07 to 0.48 (four from 0.14);
/// the 34 by at most 0.09 (most the other way).
const GLYPH_KEEPS: f32 = 0.12;

/// The embedder's lead (in cosine similarity, over the runner-up) from which the name it
/// gave a token stands, whatever its hue and glyph say. On all 31 rendered sets, of the 60
/// names [`settle`] changed, the 52 changed rightly had led by 0.03 to 0.19, and two of the
/// eight changed wrongly by 0.30 and 0.42 (a +2 taken for deck 13's teal disable, a
/// disable for a +2 on deck 23).
const SURE_LEAD: f32 = 0.25;

/// The least lead of the other look-alike's pictures over those of the token the embedder
/// named that renames it by the glyph alone: where the hue says nothing at all (neither
/// picture nor the spot coloured enough to lean, [`LookAlikes::hue_leaning`], or the two
/// pictures of one hue) and the embedder named it by a lead under [`GLYPH_ALONE_BELOW`].
/// Elsewhere the glyph renames only with the hue leaning its way ([`SECONDED_GLYPH`]). On
/// all 31 rendered sets this renamed two tokens, both rightly (a +1 and a shield the
/// embedder took for a disable), and recast under a coloured light three, two rightly
/// (validation 664 and unseen 948 of 1,050 either way, recast 810 -> 812 of 930). Markers
/// are left out: renamed by a clear glyph alone wherever the hue could not be read
/// clearly ([`MIN_CHROMA`]), two went right and two wrong (a scene won, one lost).
const GLYPH_ALONE: f32 = 0.08;
/// The embedder's lead under which a clear glyph alone renames its name ([`GLYPH_ALONE`]).
const GLYPH_ALONE_BELOW: f32 = 0.15;

/// An enrolled picture as the gallery keeps it: reduced to `W` x `H` pixels, as
/// hexadecimal RGB bytes row by row. In JSON `{"id", "rgb"}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Picture<const W: u32, const H: u32> {
    /// Component id (`token_plus1`, `hornet`, `net_module`, ...).
    pub id: String,
    /// The picture's RGB bytes in hexadecimal.
    pub rgb: String,
}

impl<const W: u32, const H: u32> Picture<W, H> {
    /// The picture of `id` kept from `face`, reduced to `W` x `H` pixels.
    pub fn of(id: &str, face: &RgbImage) -> Picture<W, H> {
        Picture {
            id: id.to_string(),
            rgb: hex_of(&area_resize(face, W, H)),
        }
    }

    /// The picture, or why it cannot be read.
    pub fn image(&self) -> Result<RgbImage, String> {
        image_of_hex(&self.id, &self.rgb, W, H)
    }
}

/// A small piece's enrolled picture, [`PICTURE_SIDE`] pixels a side: kept from its face
/// picture (the piece alone, cropped to its outline), or from its crop as the embedder
/// sees it (its square stretched).
pub type SmallPicture = Picture<PICTURE_SIDE, PICTURE_SIDE>;

/// A picture's RGB bytes, row by row, in hexadecimal (as the gallery keeps pictures).
fn hex_of(picture: &RgbImage) -> String {
    picture
        .as_raw()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The `w` x `h` picture of `id` from its RGB bytes in hexadecimal ([`hex_of`]), or why it
/// cannot be read.
fn image_of_hex(id: &str, text: &str, w: u32, h: u32) -> Result<RgbImage, String> {
    let want = (w * h * 3) as usize;
    let text = text.as_bytes();
    if text.len() != want * 2 {
        return Err(format!(
            "the picture of {id} has {} hexadecimal digits, not {}",
            text.len(),
            want * 2
        ));
    }
    let bytes = text
        .chunks(2)
        .map(|pair| {
            std::str::from_utf8(pair)
                .ok()
                .and_then(|s| u8::from_str_radix(s, 16).ok())
        })
        .collect::<Option<Vec<u8>>>()
        .ok_or_else(|| format!("the picture of {id} is not hexadecimal"))?;
    RgbImage::from_raw(w, h, bytes).ok_or_else(|| format!("the picture of {id} has the wrong size"))
}

/// A spot's colour as [`LookAlikes::spot_colour`] reads it, and the light under which the
/// pictures are to be seen to compare it.
#[derive(Debug, Clone, Copy)]
struct Seen {
    /// The spot's opponent colour, with the light undone.
    colour: [f32; 2],
    /// The frame's light, its ceiling kept only in the channels where the spot reaches it.
    light: Light,
}

/// Every enrolled small picture at every turn, ready to be compared with spots.
#[derive(Debug, Clone, Default)]
pub struct LookAlikes {
    /// The pixels compared, `(x, y)` in a picture.
    disc: Vec<(u32, u32)>,
    /// Per component, one template per picture and turn: the disc's pixels channel after
    /// channel, each channel with zero mean and unit length.
    faces: Vec<(String, Vec<Vec<f32>>)>,
    /// Per component, the colours of its pictures' discs, whose mean under a frame's light
    /// ([`LookAlikes::colour_under`]) a spot's hue is compared with.
    colours: Vec<(String, DiscColours)>,
}

/// The disc's pixels of each of one component's pictures (unblurred), with their mean
/// colour and the highest level of each channel among them, read once.
#[derive(Debug, Clone)]
struct DiscColours {
    /// Each picture's disc pixels.
    pixels: Vec<Vec<[f32; 3]>>,
    /// Their mean colour ([`mean_under`] the enrolled pictures' own light).
    mean: [f32; 3],
    /// The highest level of each channel.
    top: [f32; 3],
}

impl DiscColours {
    /// The colours of `pixels`, each picture's disc pixels.
    fn of(pixels: Vec<Vec<[f32; 3]>>) -> DiscColours {
        let mut top = [0.0f32; 3];
        for p in pixels.iter().flatten() {
            (0..3).for_each(|ch| top[ch] = top[ch].max(p[ch]));
        }
        DiscColours {
            mean: mean_under(&pixels, &Light::NEUTRAL),
            pixels,
            top,
        }
    }
}

/// The mean colour of each picture's disc `pixels`, averaged over the pictures, as a frame
/// under `light` can show them with the light undone ([`Light::clipped`]).
fn mean_under(pixels: &[Vec<[f32; 3]>], light: &Light) -> [f32; 3] {
    let mut sum = [0.0f32; 3];
    for picture in pixels {
        let mut own = [0.0f32; 3];
        for p in picture {
            (0..3).for_each(|ch| own[ch] += light.clipped(ch, p[ch]));
        }
        (0..3).for_each(|ch| sum[ch] += own[ch] / picture.len().max(1) as f32);
    }
    sum.map(|v| v / pixels.len().max(1) as f32)
}

impl LookAlikes {
    /// Templates of the pictures (those that cannot be read are left out; a gallery is
    /// checked when it is loaded).
    pub fn new(pictures: &[SmallPicture]) -> LookAlikes {
        let c = (PICTURE_SIDE as f32 - 1.0) / 2.0;
        let r = DISC * PICTURE_SIDE as f32;
        let disc: Vec<(u32, u32)> = (0..PICTURE_SIDE)
            .flat_map(|y| (0..PICTURE_SIDE).map(move |x| (x, y)))
            .filter(|&(x, y)| (x as f32 - c).powi(2) + (y as f32 - c).powi(2) <= r * r)
            .collect();
        let mut faces: Vec<(String, Vec<Vec<f32>>)> = Vec::new();
        let mut pixels: Vec<(String, Vec<Vec<[f32; 3]>>)> = Vec::new();
        for picture in pictures {
            let Ok(img) = picture.image() else {
                continue;
            };
            let own: Vec<[f32; 3]> = disc
                .iter()
                .map(|&(x, y)| img.get_pixel(x, y).0.map(f32::from))
                .collect();
            match pixels.iter_mut().find(|(id, _)| *id == picture.id) {
                Some((_, p)) => p.push(own),
                None => pixels.push((picture.id.clone(), vec![own])),
            }
            let blurred = image::imageops::blur(&img, BLUR);
            let templates = (0..TURNS).map(|k| {
                let angle = k as f32 * std::f32::consts::TAU / TURNS as f32;
                normalised(&disc_pixels(&rotated(&blurred, angle), &disc, 0, 0))
            });
            match faces.iter_mut().find(|(id, _)| *id == picture.id) {
                Some((_, t)) => t.extend(templates),
                None => faces.push((picture.id.clone(), templates.collect())),
            }
        }
        let colours = pixels
            .into_iter()
            .map(|(id, p)| (id, DiscColours::of(p)))
            .collect();
        LookAlikes {
            disc,
            faces,
            colours,
        }
    }

    /// The mean colour of the disc of component `id`'s pictures as a frame under `light`
    /// can show it, with the light undone ([`Light::clipped`]): the pictures' own mean
    /// where the light carries no level above the frame's ceiling. `None` when `id` has no
    /// picture.
    fn colour_under(&self, id: &str, light: &Light) -> Option<[f32; 3]> {
        let colours = of_component(&self.colours, id)?;
        let cut = (0..3).any(|ch| light.cuts(ch, colours.top[ch]));
        Some(if cut {
            mean_under(&colours.pixels, light)
        } else {
            colours.mean
        })
    }

    /// Which of components `a` and `b` the small piece at `corners` is nearer in hue, and
    /// by how much (the difference of its hue's distances to theirs, as a share of the gap
    /// between their hues); `None` when either has no picture, when the two are not both
    /// coloured or not far enough apart in hue, or when the piece shows too little colour.
    pub fn tell_apart_by_colour(
        &self,
        frame: &RgbImage,
        corners: &[[f32; 2]; 4],
        a: &str,
        b: &str,
        light: &Light,
    ) -> Option<(String, f32)> {
        let seen = self.spot_colour(frame, corners, light);
        self.by_hue(seen, [a, b], MIN_CHROMA, SPOT_CHROMA)
    }

    /// Which of components `a` and `b` the small piece at `corners` is nearer in hue, however
    /// little colour it shows: unlike [`LookAlikes::tell_apart_by_colour`] no least chroma
    /// is asked of the spot, and of the pictures only [`LEANING_CHROMA`]; their hues must
    /// lie [`MIN_HUE_GAP`] apart. Too weak a sign to name a piece by; a second opinion beside
    /// the glyph. `None` when either has no picture or the hues are too close.
    pub fn hue_leaning(
        &self,
        frame: &RgbImage,
        corners: &[[f32; 2]; 4],
        a: &str,
        b: &str,
        light: &Light,
    ) -> Option<String> {
        let seen = self.spot_colour(frame, corners, light);
        self.by_hue(seen, [a, b], LEANING_CHROMA, 0.0)
            .map(|(w, _)| w)
    }

    /// The hue verdict of [`LookAlikes::tell_apart_by_colour`] on a spot of colour `seen`
    /// ([`LookAlikes::spot_colour`]), where both pictures show a chroma of `least` or more
    /// and the spot `spot_share` of the less coloured one's (and some colour at all).
    fn by_hue(
        &self,
        seen: Seen,
        [a, b]: [&str; 2],
        least: f32,
        spot_share: f32,
    ) -> Option<(String, f32)> {
        let of = |id: &str| self.colour_under(id, &seen.light).map(opponent);
        let (oa, ob) = (of(a)?, of(b)?);
        let seen = seen.colour;
        let pictures = chroma(oa).min(chroma(ob));
        let gap = hue_distance(oa, ob);
        if pictures < least || gap < MIN_HUE_GAP {
            return None;
        }
        let spot = chroma(seen);
        if spot < pictures * spot_share || spot == 0.0 {
            return None;
        }
        let (da, db) = (hue_distance(seen, oa), hue_distance(seen, ob));
        Some(verdict(a, b, (db - da) / gap))
    }

    /// The opponent colour of the disc of the small piece at `corners`, under the frame's
    /// `light` undone; with the light under which the pictures are to be seen to compare
    /// it: the frame's, whose ceiling is kept only in the channels where some pixel of
    /// the disc reaches it (a spot that shows no level at the ceiling was not cut there,
    /// whatever the light read from the cards says).
    fn spot_colour(&self, frame: &RgbImage, corners: &[[f32; 2]; 4], light: &Light) -> Seen {
        let base = (WINDOW - PICTURE_SIDE) / 2;
        let window = window(frame, corners);
        let (mean, most) = disc_levels(&window, &self.disc, base, base);
        let ceiling = [0, 1, 2].map(|ch| {
            if f32::from(most[ch]) + 1.0 >= light.ceiling[ch] {
                light.ceiling[ch]
            } else {
                f32::INFINITY
            }
        });
        Seen {
            colour: opponent(light.undo(mean)),
            light: light.under(ceiling),
        }
    }

    /// Whether both the hue, however faint ([`LookAlikes::hue_leaning`]), and the glyph
    /// ([`LookAlikes::tell_apart`], leading by [`SECONDED_GLYPH`]) take the small piece at
    /// `corners` for `w`, of look-alikes `a` and `b`. The glyph is compared only where the
    /// hue leans that way.
    pub fn seconded(
        &self,
        frame: &RgbImage,
        corners: &[[f32; 2]; 4],
        [a, b]: [&str; 2],
        w: &str,
        light: &Light,
    ) -> bool {
        let seen = self.spot_colour(frame, corners, light);
        let lean = self.by_hue(seen, [a, b], LEANING_CHROMA, 0.0);
        seconds(lean.as_ref(), w, || self.tell_apart(frame, corners, a, b))
    }

    /// Whether any picture is held.
    pub fn is_empty(&self) -> bool {
        self.faces.is_empty()
    }

    /// Which of components `a` and `b` the small piece at `corners` looks like more, and by
    /// how much its best correlation leads the other's; `None` when either has no picture.
    pub fn tell_apart(
        &self,
        frame: &RgbImage,
        corners: &[[f32; 2]; 4],
        a: &str,
        b: &str,
    ) -> Option<(String, f32)> {
        let (ta, tb) = (of_component(&self.faces, a)?, of_component(&self.faces, b)?);
        let window = window(frame, corners);
        Some(verdict(
            a,
            b,
            self.best(&window, ta) - self.best(&window, tb),
        ))
    }

    /// How much the small piece at `corners` looks like the picture `id`: its best
    /// correlation at any turn and shift (1 for the same picture); `None` when there is no
    /// such picture.
    pub fn likeness(&self, frame: &RgbImage, corners: &[[f32; 2]; 4], id: &str) -> Option<f32> {
        let templates = of_component(&self.faces, id)?;
        Some(self.best(&window(frame, corners), templates))
    }

    /// The best correlation of any template with the window at any shift.
    fn best(&self, window: &RgbImage, templates: &[Vec<f32>]) -> f32 {
        let base = ((WINDOW - PICTURE_SIDE) / 2) as i32;
        let mut best = -1.0f32;
        for dy in (-SHIFT..=SHIFT).step_by(SHIFT_STEP) {
            for dx in (-SHIFT..=SHIFT).step_by(SHIFT_STEP) {
                let seen = normalised(&disc_pixels(
                    window,
                    &self.disc,
                    (base + dx) as u32,
                    (base + dy) as u32,
                ));
                for t in templates {
                    best = best.max(dot(&seen, t) / 3.0);
                }
            }
        }
        best
    }
}

/// What `list` holds for component `id`.
fn of_component<'a, T>(list: &'a [(String, T)], id: &str) -> Option<&'a T> {
    list.iter().find(|(f, _)| f == id).map(|(_, t)| t)
}

/// Component `a` with its lead over `b` when that is not negative, else `b` with its lead
/// over `a`.
fn verdict(a: &str, b: &str, lead_of_a: f32) -> (String, f32) {
    if lead_of_a >= 0.0 {
        (a.to_string(), lead_of_a)
    } else {
        (b.to_string(), -lead_of_a)
    }
}

/// The window around a spot: its upright square grown by half, [`WINDOW`] pixels a side.
fn window(frame: &RgbImage, corners: &[[f32; 2]; 4]) -> RgbImage {
    let grown = scaled(
        &upright_square(corners),
        WINDOW as f32 / PICTURE_SIDE as f32,
    );
    rectify(frame, &grown, WINDOW, WINDOW)
}

/// The mean colour of the disc's pixels of `img` (offset by `x0`, `y0`), and the highest
/// level of each channel among them, read in one walk over the disc.
fn disc_levels(img: &RgbImage, disc: &[(u32, u32)], x0: u32, y0: u32) -> ([f32; 3], [u8; 3]) {
    let mut sum = [0.0f32; 3];
    let mut most = [0u8; 3];
    for &(x, y) in disc {
        let p = img.get_pixel(x0 + x, y0 + y).0;
        for ch in 0..3 {
            sum[ch] += f32::from(p[ch]);
            most[ch] = most[ch].max(p[ch]);
        }
    }
    (sum.map(|v| v / disc.len().max(1) as f32), most)
}

/// A colour's two opponent axes: red against green, and yellow against blue.
fn opponent(c: [f32; 3]) -> [f32; 2] {
    [c[0] - c[1], (c[0] + c[1]) / 2.0 - c[2]]
}

/// How far an opponent colour lies from grey.
fn chroma(o: [f32; 2]) -> f32 {
    o[0].hypot(o[1])
}

/// The angle between two opponent colours' hues, in degrees (0 to 180).
fn hue_distance(x: [f32; 2], y: [f32; 2]) -> f32 {
    let d = (x[0].atan2(x[1]) - y[0].atan2(y[1])).to_degrees().abs() % 360.0;
    d.min(360.0 - d)
}

/// The disc's pixels of `img` (offset by `x0`, `y0`), channel after channel.
fn disc_pixels(img: &RgbImage, disc: &[(u32, u32)], x0: u32, y0: u32) -> Vec<f32> {
    let mut out = vec![0.0f32; disc.len() * 3];
    let n = disc.len();
    for (i, &(x, y)) in disc.iter().enumerate() {
        let p = img.get_pixel(x0 + x, y0 + y).0;
        for ch in 0..3 {
            out[ch * n + i] = f32::from(p[ch]);
        }
    }
    out
}

/// Each third (channel) of `v` moved to zero mean and scaled to unit length; a flat channel
/// becomes zeros, so it adds nothing to a correlation.
fn normalised(v: &[f32]) -> Vec<f32> {
    let n = v.len() / 3;
    let mut out = v.to_vec();
    for ch in out.chunks_mut(n.max(1)) {
        let mean = sum(ch) / n as f32;
        ch.iter_mut().for_each(|x| *x -= mean);
        let len = dot(ch, ch).sqrt();
        let k = if len > 1e-3 { 1.0 / len } else { 0.0 };
        ch.iter_mut().for_each(|x| *x *= k);
    }
    out
}

/// Settles the tokens and markers in `pieces` between the two components the embedder
/// found each most like, where the two look alike:
/// - one the embedder found too close to call is named by its colour when its hue leads by
///   `thresholds.hue_lead`, else by the pictures when they lead by `thresholds.look_alike`,
///   else where hue and pictures both lean one way ([`LookAlikes::seconded`]); a piece
///   none of these separates stays unknown;
/// - one the embedder named keeps its name unless its hue leads the other way by
///   `thresholds.hue_overrule`, or hue and pictures both lean the other way: then it is
///   named the runner-up.
pub fn settle(
    frame: &RgbImage,
    pieces: &mut [Piece],
    look_alikes: &LookAlikes,
    light: &Light,
    thresholds: &Thresholds,
) {
    if look_alikes.is_empty() {
        return;
    }
    // Each piece is settled on its own: on the cores, then named in order.
    let small: Vec<usize> = (0..pieces.len())
        .filter(|&i| pieces[i].class == PieceClass::Small)
        .collect();
    let settled = par::map(&small, |&i| {
        settled(frame, &pieces[i], look_alikes, light, thresholds)
    });
    for (&i, named) in small.iter().zip(settled) {
        if let Some((winner, similarity)) = named {
            let p = &mut pieces[i];
            p.similarity = similarity;
            p.best = winner.clone();
            p.id = Some(winner);
        }
    }
}

/// What [`settle`] names the token or marker `p` and its similarity to that, where it
/// names it anew or again; `None` where it leaves it as it is.
fn settled(
    frame: &RgbImage,
    p: &Piece,
    look_alikes: &LookAlikes,
    light: &Light,
    thresholds: &Thresholds,
) -> Option<(String, f32)> {
    let [(a, sa), (b, sb)] = top_two(&p.similarities)?;
    // A name the embedder gave by a wide lead stands.
    if p.id.as_ref() == Some(&a) && sa - sb >= SURE_LEAD {
        return None;
    }
    // The spot's colour is read once; the glyph (24 turns at every shift) only where
    // it is asked for.
    let pair = [a.as_str(), b.as_str()];
    let seen = look_alikes.spot_colour(frame, &p.corners, light);
    let glyph = || look_alikes.tell_apart(frame, &p.corners, &a, &b);
    let by_colour = look_alikes.by_hue(seen, pair, MIN_CHROMA, SPOT_CHROMA);
    let winner = match (&p.id, by_colour) {
        // A clear hue renames the embedder's name as the runner-up, unless the glyph
        // clearly keeps the name.
        (Some(named), Some((w, lead))) if *named != w && lead >= thresholds.hue_overrule => {
            if glyph().is_some_and(|(g, l)| g == *named && l >= GLYPH_KEEPS) {
                return None;
            }
            w
        }
        // The embedder's name gives way where hue and glyph both take it for the other, or,
        // where the hue says nothing at all, a clear glyph alone against a narrow lead.
        (Some(named), _) => {
            let other = if *named == a { &b } else { &a };
            if *named != a && *named != b {
                return None;
            }
            let lean = look_alikes.by_hue(seen, pair, LEANING_CHROMA, 0.0);
            if lean.is_none() {
                let tokens = pair.iter().all(|id| Token::from_component_id(id).is_some());
                let narrow = tokens && *named == a && sa - sb < GLYPH_ALONE_BELOW;
                let alone = narrow && glyph().is_some_and(|(g, l)| g == *other && l >= GLYPH_ALONE);
                return alone.then(|| (other.clone(), sb));
            }
            if !seconds(lean.as_ref(), other, glyph) {
                return None;
            }
            other.clone()
        }
        // A hue that leads clearly is believed before the glyph.
        (None, Some((w, lead))) if lead >= thresholds.hue_overrule => w,
        (None, by_colour) => {
            let glyph = glyph();
            let by_glyph = glyph
                .clone()
                .filter(|(_, lead)| *lead >= thresholds.look_alike);
            let hue = by_colour.clone();
            match (by_colour, by_glyph) {
                // A hue that only leans one way gives way to a glyph that is clear the
                // other way (a light the frame's cards did not show right).
                (Some((w, lead)), glyph) if lead >= thresholds.hue_lead => match glyph {
                    Some((g, _)) if g != w => g,
                    _ => w,
                },
                (_, Some((g, _))) => g,
                // Neither clear: named where both lean the same way.
                _ => {
                    let lean = look_alikes.by_hue(seen, pair, LEANING_CHROMA, 0.0);
                    match pair
                        .into_iter()
                        .find(|w| seconds(lean.as_ref(), w, || glyph.clone()))
                    {
                        Some(w) => w.to_string(),
                        // Nor that: the embedder's best, where it reaches the bar, the
                        // glyph leans to it however little and the hue not away.
                        None if sa >= thresholds.small
                            && leans_to(&a, &b, glyph.as_ref(), hue.as_ref()) =>
                        {
                            a.clone()
                        }
                        None => return None,
                    }
                }
            }
        }
    };
    let similarity = if winner == a { sa } else { sb };
    Some((winner, similarity))
}

/// Whether a spot's glyph (the look-alike whose pictures match better, and by how much)
/// leans to `one`, by however little, and its hue (the nearer look-alike's, where the hue
/// can be read) not to `other`.
fn leans_to(
    one: &str,
    other: &str,
    glyph: Option<&(String, f32)>,
    hue: Option<&(String, f32)>,
) -> bool {
    glyph.is_some_and(|(g, lead)| g == one && *lead > 0.0) && hue.is_none_or(|(h, _)| h != other)
}

/// [`LookAlikes::seconded`] for a spot whose hue leans to `lean` (the verdict of
/// [`LookAlikes::by_hue`] at [`LEANING_CHROMA`]), with its `glyph` verdict
/// ([`LookAlikes::tell_apart`]) asked for only where the hue leans to `w`.
fn seconds(
    lean: Option<&(String, f32)>,
    w: &str,
    glyph: impl FnOnce() -> Option<(String, f32)>,
) -> bool {
    lean.is_some_and(|(h, _)| h == w)
        && glyph().is_some_and(|(g, lead)| g == w && lead >= SECONDED_GLYPH)
}

/// The two most similar components, best first.
fn top_two(similarities: &[(String, f32)]) -> Option<[(String, f32); 2]> {
    let mut sorted: Vec<&(String, f32)> = similarities.iter().collect();
    sorted.sort_by(|x, y| y.1.total_cmp(&x.1));
    match sorted.as_slice() {
        [first, second, ..] => Some([(*first).clone(), (*second).clone()]),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgb;

    /// A round token: a coloured disc with a dark bar across it, vertical for "one" and
    /// two bars for "two" (the look-alikes differ only in their glyph).
    fn token(two: bool) -> RgbImage {
        token_in(two, [240, 180, 40])
    }

    /// [`token`] on a disc of `colour`.
    fn token_in(two: bool, colour: [u8; 3]) -> RgbImage {
        let side = 96;
        RgbImage::from_fn(side, side, |x, y| {
            let (dx, dy) = (x as f32 - 47.5, y as f32 - 47.5);
            if dx * dx + dy * dy > 46.0 * 46.0 {
                return Rgb([255, 255, 255]);
            }
            let bar = (40..56).contains(&x) && (20..76).contains(&y);
            let second = two && (20..76).contains(&x) && (40..56).contains(&y);
            if bar || second {
                Rgb([20, 20, 20])
            } else {
                Rgb(colour)
            }
        })
    }

    /// A frame with `face` drawn turned by `angle` at 30 pixels a side, centred at (60, 50),
    /// on a card-coloured ground; and the spot's corners.
    fn scene(face: &RgbImage, angle: f32) -> (RgbImage, [[f32; 2]; 4]) {
        let small = rotated(&area_resize(face, 30, 30), angle);
        let mut frame = RgbImage::from_pixel(120, 100, Rgb([90, 140, 200]));
        image::imageops::overlay(&mut frame, &small, 45, 35);
        (
            frame,
            [[45.0, 35.0], [75.0, 35.0], [75.0, 65.0], [45.0, 65.0]],
        )
    }

    fn gallery() -> LookAlikes {
        LookAlikes::new(&[
            SmallPicture::of("token_plus1", &token(false)),
            SmallPicture::of("token_plus2", &token(true)),
        ])
    }

    #[test]
    fn a_disc_gives_its_mean_and_highest_levels_and_nothing_outside_it() {
        let mut img = RgbImage::from_pixel(4, 3, Rgb([255, 255, 255]));
        img.put_pixel(1, 1, Rgb([10, 200, 30]));
        img.put_pixel(2, 1, Rgb([50, 100, 90]));
        img.put_pixel(1, 2, Rgb([30, 0, 60]));
        // The disc's pixels, offset by (1, 1); the white pixels lie outside it.
        let disc = [(0, 0), (1, 0), (0, 1)];
        assert_eq!(
            disc_levels(&img, &disc, 1, 1),
            ([30.0, 100.0, 60.0], [50, 200, 90])
        );
        assert_eq!(disc_levels(&img, &[], 0, 0), ([0.0; 3], [0; 3]));
    }

    #[test]
    fn a_picture_survives_the_gallery() {
        let p = SmallPicture::of("token_plus1", &token(false));
        let img = p.image().unwrap();
        assert_eq!(img.dimensions(), (PICTURE_SIDE, PICTURE_SIDE));
        assert_eq!(img, area_resize(&token(false), PICTURE_SIDE, PICTURE_SIDE));
        let bad = SmallPicture {
            id: "token_plus1".into(),
            rgb: "zz".repeat((PICTURE_SIDE * PICTURE_SIDE * 3) as usize),
        };
        assert!(bad.image().unwrap_err().contains("not hexadecimal"));
        let short = SmallPicture {
            id: "token_plus1".into(),
            rgb: "00".into(),
        };
        assert!(short.image().unwrap_err().contains("digits"));
    }

    #[test]
    fn each_token_is_told_from_its_look_alike_at_any_turn() {
        let g = gallery();
        for (two, id) in [(false, "token_plus1"), (true, "token_plus2")] {
            for angle in [0.0f32, 0.4, 1.3, 2.9, 4.0] {
                let (frame, corners) = scene(&token(two), angle);
                let (winner, lead) = g
                    .tell_apart(&frame, &corners, "token_plus1", "token_plus2")
                    .unwrap();
                assert_eq!(winner, id, "{id} turned {angle}");
                assert!(lead > 0.05, "{id} turned {angle}: lead {lead}");
            }
        }
    }

    #[test]
    fn no_picture_no_verdict() {
        let g = gallery();
        let (frame, corners) = scene(&token(true), 0.0);
        assert!(g
            .tell_apart(&frame, &corners, "token_plus2", "token_minus2")
            .is_none());
    }

    fn piece(similarities: &[(&str, f32)], id: Option<&str>) -> Piece {
        Piece {
            class: PieceClass::Small,
            corners: [[45.0, 35.0], [75.0, 35.0], [75.0, 65.0], [45.0, 65.0]],
            score: 1.0,
            id: id.map(str::to_string),
            similarity: similarities[0].1,
            best: similarities[0].0.to_string(),
            similarities: similarities
                .iter()
                .map(|(s, v)| (s.to_string(), *v))
                .collect(),
        }
    }

    #[test]
    fn settling_names_close_calls_and_leaves_sure_ones() {
        let g = gallery();
        let (frame, _) = scene(&token(true), 0.7);
        let t = Thresholds::default();
        let mut pieces = vec![
            // Too close to call: the pictures name it.
            piece(&[("token_plus1", 0.80), ("token_plus2", 0.79)], None),
            // Named by a small lead, where the hue says nothing (the two pictures share
            // one colour): the glyph, clearly the other's, renames it.
            piece(
                &[("token_plus1", 0.80), ("token_plus2", 0.76)],
                Some("token_plus1"),
            ),
            // Close, but between a token without pictures and one with: left unknown.
            piece(&[("token_minus2", 0.80), ("token_plus2", 0.79)], None),
            // Named by a wider lead: the embedder's name stands against the glyph.
            piece(
                &[("token_plus1", 0.80), ("token_plus2", 0.64)],
                Some("token_plus1"),
            ),
        ];
        settle(&frame, &mut pieces, &g, &Light::NEUTRAL, &t);
        assert_eq!(pieces[0].id.as_deref(), Some("token_plus2"));
        assert_eq!(pieces[0].best, "token_plus2");
        assert_eq!(pieces[0].similarity, 0.79);
        assert_eq!(pieces[1].id.as_deref(), Some("token_plus2"));
        assert_eq!(pieces[1].similarity, 0.76);
        assert_eq!(pieces[2].id, None);
        assert_eq!(pieces[3].id.as_deref(), Some("token_plus1"));
        // A blurred picture of neither: both lead by little, so it stays unknown.
        let flat = RgbImage::from_pixel(120, 100, Rgb([200, 150, 60]));
        let mut unsure = vec![piece(&[("token_plus1", 0.80), ("token_plus2", 0.79)], None)];
        settle(&flat, &mut unsure, &g, &Light::NEUTRAL, &t);
        assert_eq!(unsure[0].id, None);
    }

    #[test]
    fn a_close_call_leans_to_the_embedders_best_only_where_the_glyph_does_and_the_hue_not_away() {
        let reading = |name: &str, lead: f32| Some((name.to_string(), lead));
        let [one, other] = ["token_plus1", "token_plus2"];
        // The glyph leans to it, by however little; the hue unread or leaning the same way.
        assert!(leans_to(one, other, reading(one, 0.004).as_ref(), None));
        assert!(leans_to(
            one,
            other,
            reading(one, 0.004).as_ref(),
            reading(one, 0.1).as_ref()
        ));
        // The hue leans away, or the glyph does, or has nothing to say.
        assert!(!leans_to(
            one,
            other,
            reading(one, 0.004).as_ref(),
            reading(other, 0.1).as_ref()
        ));
        assert!(!leans_to(one, other, reading(other, 0.004).as_ref(), None));
        assert!(!leans_to(one, other, reading(one, 0.0).as_ref(), None));
        assert!(!leans_to(one, other, None, None));
    }

    const YELLOW: [u8; 3] = [230, 200, 40];
    const ORANGE: [u8; 3] = [230, 120, 30];

    /// +1 yellow and +2 orange, with the same glyph: only their colour tells them apart.
    fn coloured() -> LookAlikes {
        LookAlikes::new(&[
            SmallPicture::of("token_plus1", &token_in(false, YELLOW)),
            SmallPicture::of("token_plus2", &token_in(false, ORANGE)),
        ])
    }

    /// `frame` under a light that warms it by `warm` (red up, blue down).
    fn warmed(mut frame: RgbImage, warm: f32) -> RgbImage {
        for p in frame.pixels_mut() {
            p[0] = (f32::from(p[0]) * (1.0 + warm)).min(255.0) as u8;
            p[2] = (f32::from(p[2]) * (1.0 - warm)).min(255.0) as u8;
        }
        frame
    }

    #[test]
    fn tokens_of_two_colours_are_told_apart_by_hue_under_a_tinted_light() {
        let g = coloured();
        for (colour, id) in [(YELLOW, "token_plus1"), (ORANGE, "token_plus2")] {
            for angle in [0.0f32, 1.3, 4.0] {
                for warm in [-0.1f32, 0.0, 0.1] {
                    let (frame, corners) = scene(&token_in(false, colour), angle);
                    let (winner, lead) = g
                        .tell_apart_by_colour(
                            &warmed(frame, warm),
                            &corners,
                            "token_plus1",
                            "token_plus2",
                            &Light::NEUTRAL,
                        )
                        .unwrap();
                    assert_eq!(winner, id, "{id} turned {angle}, warmed {warm}");
                    assert!(
                        lead > 0.5,
                        "{id} turned {angle}, warmed {warm}: lead {lead}"
                    );
                }
            }
        }
        // The glyph is the same, so the pictures cannot tell them apart.
        let (frame, corners) = scene(&token_in(false, ORANGE), 0.0);
        let (_, lead) = g
            .tell_apart(&frame, &corners, "token_plus1", "token_plus2")
            .unwrap();
        assert!(lead < 0.02, "lead {lead}");
    }

    #[test]
    fn a_light_too_green_for_the_hue_is_undone_by_the_frames_light() {
        let g = coloured();
        // A green lamp: orange comes out nearer the enrolled yellow than the orange.
        let gains = [0.75f32, 1.1, 1.0];
        let (frame, corners) = scene(&token_in(false, ORANGE), 0.7);
        let lit = RgbImage::from_fn(frame.width(), frame.height(), |x, y| {
            let p = frame.get_pixel(x, y).0;
            Rgb([0, 1, 2].map(|ch| (f32::from(p[ch]) * gains[ch]).min(255.0) as u8))
        });
        let read = |light: &Light| {
            g.tell_apart_by_colour(&lit, &corners, "token_plus1", "token_plus2", light)
                .unwrap()
        };
        assert_eq!(read(&Light::NEUTRAL).0, "token_plus1");
        let (winner, lead) = read(&Light::new(gains));
        assert_eq!(winner, "token_plus2");
        assert!(lead > 0.5, "lead {lead}");
    }

    #[test]
    fn a_red_the_light_carries_past_what_the_frame_records_is_compared_as_recorded() {
        let g = coloured();
        // A warm lamp carries orange's red past 255, where the camera stops: undone, the
        // token comes out more yellow than its picture, and nearer the yellow picture's hue.
        let gains = [1.6f32, 1.0, 0.7];
        let read = |colour: [u8; 3], light: &Light| {
            let (frame, corners) = scene(&token_in(false, colour), 0.7);
            let lit = RgbImage::from_fn(frame.width(), frame.height(), |x, y| {
                let p = frame.get_pixel(x, y).0;
                Rgb([0, 1, 2].map(|ch| (f32::from(p[ch]) * gains[ch]).min(255.0) as u8))
            });
            g.tell_apart_by_colour(&lit, &corners, "token_plus1", "token_plus2", light)
                .unwrap()
        };
        let unbounded = Light::new(gains).under([f32::MAX; 3]);
        assert_eq!(read(ORANGE, &unbounded).0, "token_plus1");
        // Compared with the pictures as the frame records them, it is orange again.
        for (colour, id) in [(ORANGE, "token_plus2"), (YELLOW, "token_plus1")] {
            let (winner, lead) = read(colour, &Light::new(gains));
            assert_eq!(winner, id);
            assert!(lead > 0.5, "{id}: lead {lead}");
        }
    }

    #[test]
    fn hue_says_nothing_of_grey_or_like_coloured_pieces_or_a_grey_spot() {
        let (frame, corners) = scene(&token_in(false, ORANGE), 0.0);
        // +1 in `one`, +2 orange: does the hue tell a spot in `frame` from +1 and +2?
        let verdict_with = |one: [u8; 3], frame: &RgbImage| {
            LookAlikes::new(&[
                SmallPicture::of("token_plus1", &token_in(false, one)),
                SmallPicture::of("token_plus2", &token_in(false, ORANGE)),
            ])
            .tell_apart_by_colour(
                frame,
                &corners,
                "token_plus1",
                "token_plus2",
                &Light::NEUTRAL,
            )
        };
        // Pictures too grey to have a hue.
        assert!(verdict_with([150, 140, 130], &frame).is_none());
        // Two oranges a few degrees apart in hue.
        assert!(verdict_with([230, 125, 30], &frame).is_none());
        // A spot washed out to grey (glare).
        let (washed, _) = scene(&token_in(false, [200, 196, 190]), 0.0);
        assert!(verdict_with(YELLOW, &washed).is_none());
        assert!(verdict_with(YELLOW, &frame).is_some());
        // A component without a picture.
        assert!(coloured()
            .tell_apart_by_colour(
                &frame,
                &corners,
                "token_plus2",
                "token_minus2",
                &Light::NEUTRAL
            )
            .is_none());
    }

    #[test]
    fn colour_names_close_calls_and_overrules_only_a_clear_mistake_of_an_unsure_name() {
        let g = coloured();
        let t = Thresholds::default();
        let (orange, _) = scene(&token_in(false, ORANGE), 0.7);
        let mut pieces = vec![
            // Too close to call: named by its colour.
            piece(&[("token_plus1", 0.80), ("token_plus2", 0.79)], None),
            // Named +1, but it is clearly orange: renamed.
            piece(
                &[("token_plus1", 0.85), ("token_plus2", 0.70)],
                Some("token_plus1"),
            ),
            // Named right: kept.
            piece(
                &[("token_plus2", 0.85), ("token_plus1", 0.70)],
                Some("token_plus2"),
            ),
        ];
        settle(&orange, &mut pieces, &g, &Light::NEUTRAL, &t);
        for p in &pieces {
            assert_eq!(p.id.as_deref(), Some("token_plus2"));
            assert_eq!(p.best, "token_plus2");
        }
        assert_eq!(pieces[1].similarity, 0.70);
        // Named +1 by a wide lead (0.3, from SURE_LEAD): the name stands, however orange.
        let mut sure = vec![piece(
            &[("token_plus1", 0.90), ("token_plus2", 0.60)],
            Some("token_plus1"),
        )];
        settle(&orange, &mut sure, &g, &Light::NEUTRAL, &t);
        assert_eq!(sure[0].id.as_deref(), Some("token_plus1"));
        // A spot between the two hues leads by too little to name a close call, or to
        // overrule the embedder that named it the other of the two.
        let (between, corners) = scene(&token_in(false, [230, 160, 35]), 0.7);
        let (nearer, lead) = g
            .tell_apart_by_colour(
                &between,
                &corners,
                "token_plus1",
                "token_plus2",
                &Light::NEUTRAL,
            )
            .unwrap();
        assert!(lead > 0.0 && lead < t.hue_lead, "lead {lead}");
        let other = if nearer == "token_plus1" {
            "token_plus2"
        } else {
            "token_plus1"
        };
        let mut unsure = vec![
            piece(&[("token_plus1", 0.80), ("token_plus2", 0.79)], None),
            piece(&[(other, 0.85), (nearer.as_str(), 0.70)], Some(other)),
        ];
        settle(&between, &mut unsure, &g, &Light::NEUTRAL, &t);
        assert_eq!(unsure[0].id, None);
        assert_eq!(unsure[1].id.as_deref(), Some(other));
    }

    #[test]
    fn a_faint_hue_and_the_glyph_together_overrule_the_embedder_but_neither_alone() {
        // +1 a dull green with one bar, +2 a dull purple with two: too little colour for
        // the hue to be believed alone.
        const GREEN: [u8; 3] = [100, 140, 100];
        const PURPLE: [u8; 3] = [140, 100, 145];
        let g = LookAlikes::new(&[
            SmallPicture::of("token_plus1", &token_in(false, GREEN)),
            SmallPicture::of("token_plus2", &token_in(true, PURPLE)),
        ]);
        let t = Thresholds::default();
        let pair = ["token_plus1", "token_plus2"];
        let read = |two: bool, colour: [u8; 3], id: Option<&str>| {
            let (frame, corners) = scene(&token_in(two, colour), 0.4);
            let by_colour =
                g.tell_apart_by_colour(&frame, &corners, pair[0], pair[1], &Light::NEUTRAL);
            assert_eq!(by_colour, None, "too dull for the hue alone");
            let seconded = pair.map(|w| g.seconded(&frame, &corners, pair, w, &Light::NEUTRAL));
            let mut pieces = vec![piece(&[("token_plus1", 0.54), ("token_plus2", 0.40)], id)];
            settle(&frame, &mut pieces, &g, &Light::NEUTRAL, &t);
            (seconded, pieces.remove(0).id)
        };
        // Purple with two bars: hue and glyph both say +2, which overrules the embedder's
        // +1 and names a piece too close to call.
        let (seconded, named) = read(true, PURPLE, Some("token_plus1"));
        assert_eq!(seconded, [false, true]);
        assert_eq!(named.as_deref(), Some("token_plus2"));
        assert_eq!(read(true, PURPLE, None).1.as_deref(), Some("token_plus2"));
        // Green with two bars, or purple with one: they disagree, the name stands.
        for (two, colour) in [(true, GREEN), (false, PURPLE)] {
            let (seconded, named) = read(two, colour, Some("token_plus1"));
            assert_eq!(seconded, [false, false], "two {two}, {colour:?}");
            assert_eq!(named.as_deref(), Some("token_plus1"));
        }
        // A grey picture has no hue to lean to.
        let (frame, corners) = scene(&token_in(true, PURPLE), 0.4);
        let lean =
            |g: &LookAlikes| g.hue_leaning(&frame, &corners, pair[0], pair[1], &Light::NEUTRAL);
        assert_eq!(lean(&g).as_deref(), Some("token_plus2"));
        let grey = LookAlikes::new(&[
            SmallPicture::of("token_plus1", &token_in(false, [120, 120, 120])),
            SmallPicture::of("token_plus2", &token_in(true, PURPLE)),
        ]);
        assert_eq!(lean(&grey), None);
    }

    /// +1 yellow with one bar, +2 orange with two.
    fn barred() -> LookAlikes {
        LookAlikes::new(&[
            SmallPicture::of("token_plus1", &token_in(false, YELLOW)),
            SmallPicture::of("token_plus2", &token_in(true, ORANGE)),
        ])
    }

    /// What the spot in `frame` at `corners` is by hue, and by glyph, between +1 and +2,
    /// with each one's lead.
    fn hue_and_glyph(
        g: &LookAlikes,
        frame: &RgbImage,
        corners: &[[f32; 2]; 4],
    ) -> ((String, f32), (String, f32)) {
        let [a, b] = ["token_plus1", "token_plus2"];
        let hue = g.tell_apart_by_colour(frame, corners, a, b, &Light::NEUTRAL);
        (hue.unwrap(), g.tell_apart(frame, corners, a, b).unwrap())
    }

    #[test]
    fn a_glyph_that_clearly_keeps_the_embedders_name_stands_against_the_hue() {
        // A one-barred spot, orange: +1 by its glyph, +2 by its hue.
        let t = Thresholds::default();
        let (frame, corners) = scene(&token_in(false, ORANGE), 0.7);
        let ((hue, lead), (glyph, glyph_lead)) = hue_and_glyph(&barred(), &frame, &corners);
        assert_eq!(
            (hue.as_str(), glyph.as_str()),
            ("token_plus2", "token_plus1")
        );
        assert!(lead >= t.hue_overrule, "hue lead {lead}");
        assert!(glyph_lead >= GLYPH_KEEPS, "glyph lead {glyph_lead}");
        // The embedder named it +1, as the glyph reads: the name stands; with both glyphs
        // alike, the same hue overrules it.
        for (g, named) in [(barred(), "token_plus1"), (coloured(), "token_plus2")] {
            let mut pieces = vec![piece(
                &[("token_plus1", 0.85), ("token_plus2", 0.70)],
                Some("token_plus1"),
            )];
            settle(&frame, &mut pieces, &g, &Light::NEUTRAL, &t);
            assert_eq!(pieces[0].id.as_deref(), Some(named));
        }
    }

    #[test]
    fn a_hue_that_only_leans_gives_way_to_a_clear_glyph() {
        // A two-barred spot whose colour lies between +1's and +2's, nearer the yellow.
        let g = barred();
        let t = Thresholds::default();
        let read = |colour: [u8; 3]| {
            let (frame, corners) = scene(&token_in(true, colour), 0.7);
            let (hue, glyph) = hue_and_glyph(&g, &frame, &corners);
            let mut unsure = vec![piece(&[("token_plus1", 0.80), ("token_plus2", 0.79)], None)];
            settle(&frame, &mut unsure, &g, &Light::NEUTRAL, &t);
            (hue, glyph, unsure.remove(0).id)
        };
        // The hue leans to +1, the glyph is clearly +2's: +2.
        let ((hue, lead), (glyph, glyph_lead), named) = read([230, 175, 35]);
        assert_eq!(
            (hue.as_str(), glyph.as_str()),
            ("token_plus1", "token_plus2")
        );
        assert!(
            lead >= t.hue_lead && lead < t.hue_overrule,
            "hue lead {lead}"
        );
        assert!(glyph_lead >= t.look_alike, "glyph lead {glyph_lead}");
        assert_eq!(named.as_deref(), Some("token_plus2"));
        // A hue that leads clearly is believed before the glyph.
        let ((hue, lead), (glyph, _), named) = read([230, 190, 35]);
        assert_eq!(
            (hue.as_str(), glyph.as_str()),
            ("token_plus1", "token_plus2")
        );
        assert!(lead >= t.hue_overrule, "hue lead {lead}");
        assert_eq!(named.as_deref(), Some("token_plus1"));
    }
}
