//! Identification: a crop of a piece becomes an embedding (a unit vector, by the ONNX
//! embedder); the nearest face in the player's gallery names it, or nobody does when the
//! match is weak (an unknown piece is reported as unknown, never as a wrong guess).

use super::art::ArtPicture;
use super::dot::dot;
use super::face_match::FacePicture;
use super::look_alike::SmallPicture;
use super::nn::{push_chw, ItemNet, LEAST_SHARE};
use super::par;
use super::print::{read_print, PrintedSpots};
use super::resample::{area_resize, rectify};
use super::rough_views::{rough_views, ROUGH_VIEWS};
use super::sides::is_city;
use super::strip_detail::StripPicture;
use super::token_views::{token_views, TOKEN_VIEWS};
use super::VisionError;
use crate::perceive::detect::PieceClass;
use image::RgbImage;
use serde::{Deserialize, Serialize};
use std::path::Path;
use tablelens_engine::{Catalogue, Kind, Token};

/// Crop width fed to the embedder.
pub const CROP_W: u32 = 40;
/// Crop height fed to the embedder.
pub const CROP_H: u32 = 56;
/// Default least lead over the runner-up for a token or marker.
const SMALL_MARGIN: f32 = 0.03;
/// Default least similarity of a card named on a second look (`vision/src/perceive/
/// second_look.rs`). First chosen on validation scenes (0.6); in session 54, once a moved
/// crop naming another face than the first look's had to be as like it
/// (`second_look::as_like`), swept on all 31 rendered sets: layouts exact on the 1,050
/// unseen scenes 877 / 878 / 881 / 878 and on validation (720) 641 / 643 / 643 / 644 at
/// 0.6 / 0.625 / 0.65 / 0.7 (0.55: 857 and 631). At 0.65 unseen won 5 scenes and lost 1,
/// with pieces named wrong 143 -> 137; the validation and held-out sets under a coloured
/// light (`vision/examples/recast.rs`, 930 scenes) read 759 -> 758. Galleries enrolled
/// before keep the bar they were enrolled with.
const SECOND_LOOK: f32 = 0.65;
/// Default least similarity of a token or marker the token finder saw only faintly
/// (chosen on validation scenes: `read_on_cards` in `vision/src/perceive/assemble.rs`).
const FAINT_SMALL: f32 = 0.7;
/// The default [`Thresholds::present_strip`].
const PRESENT_STRIP: f32 = 0.2;
/// Default least lead of one look-alike's pictures over the other's (chosen on validation
/// scenes: `vision/src/perceive/look_alike.rs`).
const LOOK_ALIKE: f32 = 0.04;
/// Default least lead in hue for a look-alike to be named by its colour (chosen on
/// validation scenes: `vision/src/perceive/look_alike.rs`).
const HUE_LEAD: f32 = 0.25;
/// Default least lead in hue for a look-alike's colour to overrule the embedder (chosen on
/// validation scenes: `vision/src/perceive/look_alike.rs`).
const HUE_OVERRULE: f32 = 0.5;
/// The default of [`Thresholds::card`]. Calibrated at 0.5 on the embedder's held-out face
/// styles (`models/embedder.md`); at the table a card whose first crop is like its best face
/// by 0.5 to 0.525 is now left unknown at first, and the later looks (its tokens painted
/// out, the second look, the face comparison) name such cards better. On all 31 rendered
/// sets (`models/README.md`), validation layouts exact 652 -> 657 of 720 (won 5, lost none),
/// unseen 923 -> 925 of 1,050 (won 4, lost 2), recast under a coloured light 791 either way;
/// pieces named wrong 37 -> 34 (validation) and 111 -> 107 (unseen). 0.55 and 0.575 won
/// more scenes on the unseen sets (926, 927) with more churn, and 0.575 ran the embedder 28
/// more times on the speed benchmark's play frame; 0.525 adds no network run there.
const CARD: f32 = 0.525;
/// The default of [`Thresholds::face_match`].
const FACE_MATCH: f32 = 0.45;
/// The default of [`Thresholds::face_match_lead`].
const FACE_MATCH_LEAD: f32 = 0.03;
/// The default of [`Thresholds::face_check_margin`]. It was 0.2 (`models/embedder.md`); with
/// the stages since, on validation scenes (seeds 12 / 11 / 13, decks 1, 2 and 5 to 8)
/// layouts exact were 429 of 480 at 0.2 and 430 from 0.25 to 0.4 (a Hornet of deck 2 named
/// Hunter by a small lead, renamed right; cards named wrong 8 -> 7); held out (seeds 7 / 0,
/// decks 3 / 4) 165 of 210 and recast under coloured light 395 of 480 either way. The
/// lowest of the plateau is kept: the fewest cards compared.
const FACE_CHECK_MARGIN: f32 = 0.25;
/// The default of [`Thresholds::face_overrule`].
const FACE_OVERRULE: f32 = 0.5;
/// The default of [`Thresholds::face_overrule_lead`].
const FACE_OVERRULE_LEAD: f32 = 0.1;
/// The default of [`Thresholds::strip_match`]. It was 0.45; once a strip named a module
/// beyond its copies gives the name up ([`super::copies::name_strips`]), on validation
/// scenes (seeds 12 / 11 / 13, decks 1, 2 and 5 to 8) layouts exact were 422 of 480 at
/// 0.45 and 0.4, 424 from 0.35 down to 0.2 (three strips too close to call, seeds 12, decks
/// 6 and 7, named right at likenesses of 0.38 to 0.40, none named wrong); held out (seeds 7
/// / 0, decks 3 / 4) 161 -> 162 of 210; under coloured light 393 either way. The highest
/// of the plateau is kept.
const STRIP_MATCH: f32 = 0.35;
/// The default of [`Thresholds::strip_match_lead`]: none. Chosen on validation scenes
/// (seeds 12 / 11 / 13, decks 1, 2 and 5 to 8) with the detector of session 33: layouts exact
/// 378 of 480 at a lead of 0.03, 381 at 0.01, 384 at 0 (modules named wrong 10 -> 5, left
/// unknown 17 -> 11; deck 8, whose annihilation and destruction strips differ in a few marks,
/// 40 -> 47 of 60); the same at a least likeness of 0.4 or 0.5. The strips that reach this
/// comparison are already too close to call for the embedder, and the likeness itself is the
/// better judge between them. Held out (seeds 7 / 0, decks 3 / 4): 153 of 210 either way.
const STRIP_MATCH_LEAD: f32 = 0.0;
/// The default of [`Thresholds::card_back`]. On validation scenes (seeds 12 / 11 / 13,
/// decks 1, 2 and 5 to 8, each deck's two backs enrolled) a card named as a back at any
/// similarity the card bar allows took 5 units of deck 1 for backs (similarities 0.57 to
/// 0.65; the backs found ranged from 0.61 to 0.99); at 0.65 and 0.7 none, with as many
/// layouts exact (375 of 480, against 369 with no backs enrolled).
const CARD_BACK_BAR: f32 = 0.7;
/// Embedding length.
pub const DIM: usize = 64;
/// Share of a module card's width that shows beside its robot.
pub const STRIP_SHARE: f32 = 12.0 / 63.0;

/// A piece's crop as the embedder sees it, from a frame and the piece's corners.
pub fn crop(frame: &RgbImage, class: PieceClass, corners: &[[f32; 2]; 4]) -> RgbImage {
    match class {
        PieceClass::Card | PieceClass::Strip => rectify(frame, corners, CROP_W, CROP_H),
        PieceClass::Small => rectify(frame, &upright_square(corners), CROP_W, CROP_H),
    }
}

/// The crops of a small piece turned by one, two and three quarters: its upright square cut
/// from each of its other corners in turn.
pub fn quarter_turns(frame: &RgbImage, corners: &[[f32; 2]; 4]) -> [RgbImage; 3] {
    let sq = upright_square(corners);
    [1, 2, 3].map(|k| {
        let turned = [sq[k], sq[(k + 1) % 4], sq[(k + 2) % 4], sq[(k + 3) % 4]];
        rectify(frame, &turned, CROP_W, CROP_H)
    })
}

/// The image-aligned square around a small piece (round pieces have no orientation).
pub fn upright_square(corners: &[[f32; 2]; 4]) -> [[f32; 2]; 4] {
    let c = [
        corners.iter().map(|p| p[0]).sum::<f32>() / 4.0,
        corners.iter().map(|p| p[1]).sum::<f32>() / 4.0,
    ];
    let mut side = 0.0;
    for i in 0..4 {
        let (a, b) = (corners[i], corners[(i + 1) % 4]);
        side += ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt() / 4.0;
    }
    let h = side / 2.0;
    [
        [c[0] - h, c[1] - h],
        [c[0] + h, c[1] - h],
        [c[0] + h, c[1] + h],
        [c[0] - h, c[1] + h],
    ]
}

/// How a component shows on the table, hence how its face picture is cropped.
pub fn class_of(catalogue: &Catalogue, component: &str) -> PieceClass {
    match catalogue.card(component) {
        Some(c) if c.kind == Kind::Module => PieceClass::Strip,
        Some(_) => PieceClass::Card,
        None if component.starts_with("token_") || component.starts_with("marker_") => {
            PieceClass::Small
        }
        None => PieceClass::Card,
    }
}

/// The crop of an enrolment face picture (one piece alone, upright, cropped to its
/// outline): the whole face, or for a module the strip that shows beside its robot.
pub fn face_crop(face: &RgbImage, class: PieceClass) -> RgbImage {
    let (w, h) = face.dimensions();
    match class {
        PieceClass::Strip => {
            let x0 = w as f32 * (1.0 - STRIP_SHARE);
            let quad = [
                [x0, 0.0],
                [w as f32, 0.0],
                [w as f32, h as f32],
                [x0, h as f32],
            ];
            // Reduce first, so that the rectifier's 2x2 samples are not too sparse.
            let small = area_resize(face, (CROP_W as f32 / STRIP_SHARE) as u32, CROP_H * 2);
            let s = small.width() as f32 / w as f32;
            let quad = quad.map(|p| [p[0] * s, p[1] * (CROP_H * 2) as f32 / h as f32]);
            rectify(&small, &quad, CROP_W, CROP_H)
        }
        PieceClass::Card | PieceClass::Small => area_resize(face, CROP_W, CROP_H),
    }
}

/// A square picture turned clockwise by `eighths` eighths of a turn about its centre (what
/// falls outside it takes the colour of its nearest edge).
pub fn turned(square: &RgbImage, eighths: u8) -> RgbImage {
    rotated(square, f32::from(eighths) * std::f32::consts::FRAC_PI_4)
}

/// A picture turned clockwise by `angle` radians about its centre (what falls outside it
/// takes the colour of its nearest edge).
pub fn rotated(square: &RgbImage, angle: f32) -> RgbImage {
    let (w, h) = square.dimensions();
    let (cx, cy) = (w as f32 / 2.0, h as f32 / 2.0);
    let (s, c) = (-angle).sin_cos();
    // Output corner k samples the picture at that corner turned back about the centre.
    let quad = [
        [0.0, 0.0],
        [w as f32, 0.0],
        [w as f32, h as f32],
        [0.0, h as f32],
    ]
    .map(|[x, y]| {
        let (dx, dy) = (x - cx, y - cy);
        [cx + dx * c - dy * s, cy + dx * s + dy * c]
    });
    rectify(square, &quad, w, h)
}

/// The embedder: two networks of the same shape, one for cards and module strips and one
/// for tokens and markers, whose few round faces differ in a glyph or a colour and are told
/// apart better by a network trained on them alone.
#[derive(Debug)]
pub struct Embedder {
    cards: ItemNet,
    small: ItemNet,
}

impl Embedder {
    /// Loads the embedder from the ONNX bytes of its card-and-strip network and of its
    /// token-and-marker network.
    pub fn load(cards: &[u8], small: &[u8]) -> Result<Embedder, VisionError> {
        let input = [3, CROP_H as usize, CROP_W as usize];
        Ok(Embedder {
            cards: ItemNet::load("embedder", cards, input)?,
            small: ItemNet::load("token embedder", small, input)?,
        })
    }

    /// The embedder built into the binary.
    pub fn builtin() -> Result<Embedder, VisionError> {
        Embedder::load(super::EMBEDDER_ONNX, super::TOKEN_EMBEDDER_ONNX)
    }

    /// Embeds crops (each `CROP_W` x `CROP_H`) of pieces of one class into unit vectors, on
    /// every core.
    pub fn embed(
        &self,
        class: PieceClass,
        crops: &[RgbImage],
    ) -> Result<Vec<[f32; DIM]>, VisionError> {
        let all: Vec<usize> = (0..crops.len()).collect();
        let net = self.net(class);
        par::split(&all, LEAST_SHARE, |share| embed_here(net, crops, share))
    }

    /// Embeds crops of pieces of several classes, `classes[i]` being the class of
    /// `crops[i]`, on every core; the embeddings come back in the crops' order.
    pub fn embed_classes(
        &self,
        classes: &[PieceClass],
        crops: &[RgbImage],
    ) -> Result<Vec<[f32; DIM]>, VisionError> {
        let class = |i: usize| classes.get(i).copied().unwrap_or(PieceClass::Card);
        // Cards and strips first, then tokens and markers: the cores share the whole list,
        // and each runs at most two networks on its share (a share of each network apiece
        // would leave a core idle when one kind has few crops).
        let mut order: Vec<usize> = (0..crops.len()).collect();
        order.sort_by_key(|&i| class(i) == PieceClass::Small);
        let embedded = par::split(&order, LEAST_SHARE, |share| {
            let split = share.partition_point(|&i| class(i) != PieceClass::Small);
            let mut out = embed_here(&self.cards, crops, &share[..split])?;
            out.extend(embed_here(&self.small, crops, &share[split..])?);
            Ok(out)
        })?;
        let mut out = vec![[0f32; DIM]; crops.len()];
        for (i, e) in order.into_iter().zip(embedded) {
            out[i] = e;
        }
        Ok(out)
    }

    /// How many crops each network embedded since it was loaded ([`ItemNet::runs`]):
    /// the card-and-strip network's, then the token-and-marker network's.
    pub fn runs(&self) -> [usize; 2] {
        [self.cards.runs(), self.small.runs()]
    }

    fn net(&self, class: PieceClass) -> &ItemNet {
        match class {
            PieceClass::Small => &self.small,
            PieceClass::Card | PieceClass::Strip => &self.cards,
        }
    }
}

/// Embeds the crops `which` with one network on this thread.
fn embed_here(
    net: &ItemNet,
    crops: &[RgbImage],
    which: &[usize],
) -> Result<Vec<[f32; DIM]>, VisionError> {
    let (rows, shape) = net.run_items(which.len(), |k, buf| push_chw(buf, &crops[which[k]]))?;
    if !rows.is_empty() && shape != [DIM] {
        return Err(VisionError::Model(format!(
            "embedder output shape {shape:?}"
        )));
    }
    Ok(rows
        .iter()
        .map(|row| {
            let mut e = [0f32; DIM];
            let norm = row.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-12);
            for (o, x) in e.iter_mut().zip(row) {
                *o = x / norm;
            }
            e
        })
        .collect())
}

/// One enrolled picture.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GalleryEntry {
    /// Component id (`hornet`, `iron_gate_destroyed`, `token_plus1`, ...).
    pub id: String,
    /// How it shows on the table.
    pub class: PieceClass,
    /// Its embedding.
    pub embedding: Vec<f32>,
    /// Eighths of a turn given to the picture before embedding it (tokens and markers are
    /// enrolled at all eight); 0 for the picture as it was.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub turn: u8,
    /// Hundredths of the face's height covered by another card's top, as the next card in
    /// a column covers a unit ([`COVERED_VIEWS`]); 0 for the whole face.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub covered: u8,
    /// Whether this is one of a unit's rough views ([`super::rough_views`]): its face
    /// as a crop at the table shows it, cut a little amiss and lit otherwise.
    #[serde(default, skip_serializing_if = "is_false")]
    pub rough: bool,
    /// Whether this is one of a unit's token views ([`super::token_views`]): its face
    /// with tokens lying on it.
    #[serde(default, skip_serializing_if = "is_false")]
    pub tokened: bool,
}

impl GalleryEntry {
    /// Whether this is an enrolled picture as it was: not turned, covered, made rough or
    /// given tokens.
    pub fn is_as_enrolled(&self) -> bool {
        self.turn == 0 && self.covered == 0 && !self.rough && !self.tokened
    }
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// The player's pieces, learnt from their pictures by `tablelens enroll`. The default is a
/// gallery of no pieces, made by no embedder.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Gallery {
    /// Fingerprint of the embedder that made the embeddings.
    pub model: String,
    /// The enrolled pictures.
    pub entries: Vec<GalleryEntry>,
    /// When a match is sure enough to name a piece (absent in older files: the defaults).
    #[serde(default)]
    pub thresholds: Thresholds,
    /// Small pictures of the enrolled tokens and markers, by which two look-alikes the
    /// embedder cannot separate are told apart ([`super::look_alike`]); absent in older
    /// files, which then go without that check.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pictures: Vec<SmallPicture>,
    /// Where the enrolled card faces have print the token finder takes for a token
    /// ([`super::print`]); absent in older files, which then go without that check.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub print: Vec<PrintedSpots>,
    /// Small pictures of the enrolled unit faces, by which a card the embedder cannot name
    /// is compared with the faces themselves ([`super::face_match`]); absent in older
    /// files, which then go without that check.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub faces: Vec<FacePicture>,
    /// The enrolled unit and city faces, large enough to see a token's worth of their art,
    /// by which a spot that is a card's own art is told from a token or marker lying on it
    /// ([`super::art`]); absent in older files, which then go without that check (city
    /// faces are absent from files enrolled before they were kept).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub art: Vec<ArtPicture>,
    /// Pictures of the enrolled modules' strips, by which a strip too close to call
    /// between modules is compared with the strips themselves
    /// ([`super::face_match::name_strip`]); absent in older files, which then go without
    /// that check.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub strips: Vec<FacePicture>,
    /// Long, narrow pictures of the enrolled modules' strips, by which strips that differ
    /// in small marks are told apart ([`super::strip_detail`]); absent in older files,
    /// which then go without that check.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub strip_details: Vec<StripPicture>,
    /// The enrolled card faces' length over their width (the median): the shape of the
    /// player's cards, by which the table's plane is seen ([`super::plane`]). Absent in
    /// older files: [`super::plane::CARD_ASPECT`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card_aspect: Option<f32>,
}

/// What identification concluded about one crop.
#[derive(Debug, Clone, PartialEq)]
pub struct Identity {
    /// The component, or `None` when the match is too weak or too close to call.
    pub id: Option<String>,
    /// Cosine similarity of the best match.
    pub score: f32,
    /// Best similarity minus the best of any other component.
    pub margin: f32,
    /// The best match even when rejected.
    pub best: String,
}

/// How sure identification must be to name a piece: the least cosine similarity to the
/// best face, per class, and the least lead over the best other component. Below either the
/// piece is unknown. A gallery file may carry its own; the defaults are calibrated on the
/// embedder's held-out face styles (`models/train/calibrate_embedder.py`,
/// `models/embedder.md`), where they name 97.9% of cards right and 0.2% wrong (the card
/// bar since raised from 0.5 to 0.525 on rendered scenes); the token margin on validation
/// scenes (`models/token_embedder.md`), where it names 92.0% of the tokens and markers found
/// right and 1.9% wrong.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Thresholds {
    /// Least similarity of a card.
    pub card: f32,
    /// Least similarity of a module strip (beside most units there is none, so this one
    /// also has to turn away the table and the neighbouring cards).
    pub strip: f32,
    /// Least similarity of a module strip beside a robot where the strip finder holds that
    /// a module is there ([`super::assemble`]); absent in older files: the default.
    pub present_strip: f32,
    /// Least similarity of a module strip beside an Outpost unit, where a module lies only
    /// after Nestugov took it over (the higher of this and `strip` applies).
    pub outpost_strip: f32,
    /// Least similarity of a token or marker.
    pub small: f32,
    /// Least similarity to a city's face for a card in the city row to be named that city
    /// by its place in the row's order ([`super::city_row`]).
    pub city_row: f32,
    /// Least lead over the runner-up, for a card or strip.
    pub margin: f32,
    /// Least lead over the runner-up, for a token or marker (the token embedder's own
    /// calibration; absent in older files: the default).
    pub small_margin: f32,
    /// Least similarity of a card named on a second look, from crops with its edges moved
    /// ([`super::second_look`]); absent in older files: the default.
    pub second_look: f32,
    /// Least similarity of a token or marker that the token finder saw only faintly
    /// ([`super::tokens::Spot::faint`]): such a spot is kept only if named, and at this bar;
    /// absent in older files: the default.
    pub faint_small: f32,
    /// Least lead of one look-alike's enrolled pictures over the other's (in normalised
    /// cross-correlation) for a token or marker to be named by them
    /// ([`super::look_alike`]); absent in older files: the default.
    pub look_alike: f32,
    /// Least lead in hue (a share of the gap between the two look-alikes' hues) for a
    /// token or marker the embedder left unknown to be named by its colour
    /// ([`super::look_alike`]); absent in older files: the default.
    pub hue_lead: f32,
    /// Least lead in hue for a token or marker's colour to rename what the embedder named
    /// it as the runner-up ([`super::look_alike`]); absent in older files: the default.
    pub hue_overrule: f32,
    /// What a match to a unit's covered view ([`COVERED_VIEWS`]) counts less than the same
    /// match to its whole face: such a view shows less of the face, so it is also more like
    /// pictures of other pieces. Absent in older files: the default.
    pub covered: f32,
    /// What a match to a unit's rough view ([`super::rough_views`]) counts less than the
    /// same match to its whole face. Absent in older files: the default.
    pub rough: f32,
    /// What a match to a unit's token view ([`super::token_views`]) counts less than the
    /// same match to its whole face. Absent in older files: the default.
    pub tokened: f32,
    /// Least likeness (normalised cross-correlation) of a card the embedder left unknown
    /// to the enrolled picture of a face for it to be named by that picture
    /// ([`super::face_match`]); absent in older files: the default.
    pub face_match: f32,
    /// Least lead of that likeness over the best other face's ([`super::face_match`]);
    /// absent in older files: the default.
    pub face_match_lead: f32,
    /// A card of a column the embedder named with a lead under this over its side's next
    /// face is compared with the enrolled face pictures too ([`super::face_match`]);
    /// absent in older files: the default.
    pub face_check_margin: f32,
    /// Least likeness to another face's picture for such a card to be renamed
    /// ([`super::face_match`]); absent in older files: the default.
    pub face_overrule: f32,
    /// Least lead of that likeness over the best other face's ([`super::face_match`]);
    /// absent in older files: the default.
    pub face_overrule_lead: f32,
    /// Least likeness of a strip too close to call to the enrolled picture of a module's
    /// strip for it to be named by that picture ([`super::face_match::name_strip`]);
    /// absent in older files: the default.
    pub strip_match: f32,
    /// Least lead of that likeness over the best other module's
    /// ([`super::face_match::name_strip`]); absent in older files: the default.
    pub strip_match_lead: f32,
    /// Least similarity of a card named as an enrolled card back ([`crate::CARD_BACK`])
    /// for it to be taken for a face-down card and left out ([`super::assemble::drop_backs`]);
    /// absent in older files: the default.
    pub card_back: f32,
}

impl Default for Thresholds {
    fn default() -> Thresholds {
        Thresholds {
            card: CARD,
            strip: 0.4,
            outpost_strip: 0.6,
            present_strip: PRESENT_STRIP,
            small: 0.4,
            city_row: 0.2,
            margin: 0.04,
            small_margin: SMALL_MARGIN,
            second_look: SECOND_LOOK,
            faint_small: FAINT_SMALL,
            look_alike: LOOK_ALIKE,
            hue_lead: HUE_LEAD,
            hue_overrule: HUE_OVERRULE,
            covered: COVERED_PENALTY,
            rough: ROUGH_PENALTY,
            tokened: TOKENED_PENALTY,
            face_match: FACE_MATCH,
            face_match_lead: FACE_MATCH_LEAD,
            face_check_margin: FACE_CHECK_MARGIN,
            face_overrule: FACE_OVERRULE,
            face_overrule_lead: FACE_OVERRULE_LEAD,
            strip_match: STRIP_MATCH,
            strip_match_lead: STRIP_MATCH_LEAD,
            card_back: CARD_BACK_BAR,
        }
    }
}

impl Thresholds {
    /// The similarity a piece of this class needs to be named.
    pub fn min_score(&self, class: PieceClass) -> f32 {
        match class {
            PieceClass::Card => self.card,
            PieceClass::Strip => self.strip,
            PieceClass::Small => self.small,
        }
    }

    /// The lead over the runner-up a piece of this class needs to be named.
    pub fn min_margin(&self, class: PieceClass) -> f32 {
        match class {
            PieceClass::Card | PieceClass::Strip => self.margin,
            PieceClass::Small => self.small_margin,
        }
    }
}

impl Gallery {
    /// Reads a gallery file.
    pub fn load(path: &Path) -> Result<Gallery, VisionError> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            VisionError::Input(format!("cannot read gallery {}: {e}", path.display()))
        })?;
        let g: Gallery = serde_json::from_str(&text)
            .map_err(|e| VisionError::Input(format!("{}: not a gallery: {e}", path.display())))?;
        if g.entries.iter().any(|e| e.embedding.len() != DIM) {
            return Err(VisionError::Input(format!(
                "{}: embeddings of the wrong length",
                path.display()
            )));
        }
        let print_pictures = g.print.iter().flat_map(|p| &p.pictures);
        let unreadable = g
            .pictures
            .iter()
            .chain(print_pictures)
            .find_map(|p| p.image().err())
            .or_else(|| {
                g.faces
                    .iter()
                    .chain(&g.strips)
                    .find_map(|p| p.image().err())
            })
            .or_else(|| g.art.iter().find_map(|p| p.image().err()))
            .or_else(|| g.strip_details.iter().find_map(|p| p.image().err()));
        if let Some(e) = unreadable {
            return Err(VisionError::Input(format!("{}: {e}", path.display())));
        }
        Ok(g)
    }

    /// Puts what `extras` keeps in place of what the gallery kept of the components `ids`
    /// ([`extras_of`]), as when those pieces are enrolled again.
    pub fn replace_extras(&mut self, ids: &[&str], extras: Extras) {
        self.pictures.retain(|p| !ids.contains(&p.id.as_str()));
        self.pictures.extend(extras.pictures);
        self.print.retain(|p| !ids.contains(&p.id.as_str()));
        self.print.extend(extras.print);
        self.faces.retain(|p| !ids.contains(&p.id.as_str()));
        self.faces.extend(extras.faces);
        self.strips.retain(|p| !ids.contains(&p.id.as_str()));
        self.strips.extend(extras.strips);
        self.strip_details.retain(|p| !ids.contains(&p.id.as_str()));
        self.strip_details.extend(extras.strip_details);
        self.art.retain(|p| !ids.contains(&p.id.as_str()));
        self.art.extend(extras.art);
    }

    /// The pictures an older `tablelens enroll` did not keep that this gallery lacks, for
    /// pieces it has enrolled: without them those pieces are named by the embedder alone.
    /// Empty for a gallery enrolled by this tablelens.
    pub fn lacks(&self, catalogue: &Catalogue) -> Vec<&'static str> {
        let has = |f: &dyn Fn(&GalleryEntry) -> bool| self.entries.iter().any(f);
        let unit = |e: &GalleryEntry| {
            e.class == PieceClass::Card && catalogue.card(&e.id).is_some_and(|c| c.kind.is_unit())
        };
        let mut lacking = Vec::new();
        if self.pictures.is_empty() && has(&|e| e.class == PieceClass::Small) {
            lacking.push("token and marker pictures");
        }
        if self.faces.is_empty() && has(&unit) {
            lacking.push("unit face pictures");
        }
        if self.art.is_empty() && has(&unit) {
            lacking.push("unit art pictures");
        }
        if !self.art.iter().any(|p| is_city(&p.id))
            && has(&|e| e.class == PieceClass::Card && is_city(&e.id))
        {
            lacking.push("city art pictures");
        }
        if self.strips.is_empty() && has(&|e| e.class == PieceClass::Strip) {
            lacking.push("module strip pictures");
        } else if self.strip_details.is_empty() && has(&|e| e.class == PieceClass::Strip) {
            lacking.push("module strip details");
        }
        lacking
    }

    /// What to tell the player about a gallery that [`Gallery::lacks`] pictures, if it
    /// does.
    pub fn lacking_note(&self, catalogue: &Catalogue) -> Option<String> {
        let lacking = self.lacks(catalogue);
        (!lacking.is_empty()).then(|| {
            format!(
                "the gallery has no {} (an older tablelens enrolled it): enrol your pieces \
                 again so that pieces the models cannot name are compared with your own pictures",
                lacking.join(" or ")
            )
        })
    }

    /// Writes the gallery file.
    pub fn save(&self, path: &Path) -> Result<(), VisionError> {
        let text = serde_json::to_string(self)
            .map_err(|e| VisionError::Output(format!("gallery: {e}")))?;
        std::fs::write(path, text)
            .map_err(|e| VisionError::Output(format!("cannot write {}: {e}", path.display())))
    }

    /// The best similarity to each enrolled component of the class, in the order the
    /// gallery first lists them.
    pub fn similarities(&self, class: PieceClass, e: &[f32; DIM]) -> Vec<(String, f32)> {
        let mut out: Vec<(String, f32)> = Vec::new();
        for g in self.entries.iter().filter(|g| g.class == class) {
            let mut s = dot(&g.embedding, e);
            if g.covered > 0 {
                s -= self.thresholds.covered;
            } else if g.tokened {
                s -= self.thresholds.tokened;
            } else if g.rough {
                s -= self.thresholds.rough;
            }
            // A component's pictures usually follow one another: look at the last first.
            let seen = match out.last_mut() {
                Some(last) if last.0 == g.id => Some(last),
                _ => out.iter_mut().find(|(id, _)| *id == g.id),
            };
            match seen {
                Some((_, best)) => *best = best.max(s),
                None => out.push((g.id.clone(), s)),
            }
        }
        out
    }

    /// The mean over several embeddings of one piece of each component's similarity (as
    /// [`Gallery::similarities`] gives them).
    pub fn mean_similarities(&self, class: PieceClass, es: &[&[f32; DIM]]) -> Vec<(String, f32)> {
        let Some((first, rest)) = es.split_first() else {
            return Vec::new();
        };
        let mut sums = self.similarities(class, first);
        for e in rest {
            for (sum, (_, s)) in sums.iter_mut().zip(self.similarities(class, e)) {
                sum.1 += s;
            }
        }
        for sum in &mut sums {
            sum.1 /= es.len() as f32;
        }
        sums
    }

    /// The nearest enrolled component of the same class.
    pub fn identify(&self, class: PieceClass, e: &[f32; DIM]) -> Identity {
        self.name_among(class, &self.similarities(class, e), |_| true)
    }

    /// Names a piece of `class` from its similarities to components (as
    /// [`Gallery::similarities`] gives them), among those that `allowed` admits only: the
    /// best must reach the class's least similarity and lead the best other admitted
    /// component by the least margin.
    pub fn name_among(
        &self,
        class: PieceClass,
        similarities: &[(String, f32)],
        allowed: impl Fn(&str) -> bool,
    ) -> Identity {
        self.name_at(
            class,
            similarities,
            allowed,
            self.thresholds.min_score(class),
        )
    }

    /// [`Gallery::name_among`] with a least similarity of its own (`least`) in place of the
    /// class's.
    pub fn name_at(
        &self,
        class: PieceClass,
        similarities: &[(String, f32)],
        allowed: impl Fn(&str) -> bool,
        least: f32,
    ) -> Identity {
        let Some((id, score, margin)) = best_and_lead(similarities, allowed) else {
            return Identity {
                id: None,
                score: 0.0,
                margin: 0.0,
                best: String::new(),
            };
        };
        Identity {
            id: (score >= least && margin >= self.thresholds.min_margin(class))
                .then(|| id.to_string()),
            score,
            margin,
            best: id.to_string(),
        }
    }
}

/// The component among those `allowed` most similar to a piece, its similarity, and its
/// lead over the next (over -1 where it is the only one); `None` if none is allowed.
pub(crate) fn best_and_lead(
    similarities: &[(String, f32)],
    allowed: impl Fn(&str) -> bool,
) -> Option<(&str, f32, f32)> {
    let mut best: Option<(&str, f32)> = None;
    let mut runner_up = -1.0f32;
    for (id, s) in similarities.iter().filter(|(id, _)| allowed(id)) {
        match best {
            Some((_, b)) if *s <= b => runner_up = runner_up.max(*s),
            Some((_, b)) => {
                runner_up = runner_up.max(b);
                best = Some((id, *s));
            }
            None => best = Some((id, *s)),
        }
    }
    best.map(|(id, score)| (id, score, score - runner_up))
}

/// Builds a gallery from face pictures: `DIR/<component id>.png` or
/// `DIR/<component id>/*.png`. Unknown ids and unreadable pictures are errors that name
/// the file; nothing is written until every picture is read.
pub fn enroll(
    catalogue: &Catalogue,
    embedder: &Embedder,
    model: &str,
    dir: &Path,
) -> Result<Gallery, VisionError> {
    let known = catalogue.component_ids();
    let mut pictures: Vec<(String, std::path::PathBuf)> = Vec::new();
    let entries = std::fs::read_dir(dir)
        .map_err(|e| VisionError::Input(format!("cannot read {}: {e}", dir.display())))?;
    // A component of the catalogue, or the decks' backs.
    let enrollable = |stem: &String| known.contains(stem) || stem == crate::CARD_BACK;
    let mut paths: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        let Some(stem) = path
            .file_stem()
            .and_then(|s| s.to_str())
            .map(str::to_string)
        else {
            continue;
        };
        if path.is_dir() {
            if !enrollable(&stem) {
                return Err(VisionError::Input(format!(
                    "{}: `{stem}` is not a component id",
                    path.display()
                )));
            }
            let mut inner: Vec<_> = std::fs::read_dir(&path)
                .map_err(|e| VisionError::Input(format!("cannot read {}: {e}", path.display())))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| is_picture(p))
                .collect();
            inner.sort();
            pictures.extend(inner.into_iter().map(|p| (stem.clone(), p)));
        } else if is_picture(&path) {
            if !enrollable(&stem) {
                return Err(VisionError::Input(format!(
                    "{}: `{stem}` is not a component id",
                    path.display()
                )));
            }
            pictures.push((stem, path));
        }
    }
    if pictures.is_empty() {
        return Err(VisionError::Input(format!(
            "{}: no face pictures (expected <component id>.png)",
            dir.display()
        )));
    }
    let mut faces = Vec::new();
    for (id, path) in pictures {
        let img = crate::photo::open(&path)
            .map_err(|e| VisionError::Input(format!("{}: {e}", path.display())))?
            .to_rgb8();
        faces.push((id, img));
    }
    gallery_of(catalogue, embedder, model, faces)
}

/// Builds a gallery from face pictures already in memory, `(component id, picture)`.
pub fn gallery_of(
    catalogue: &Catalogue,
    embedder: &Embedder,
    model: &str,
    faces: Vec<(String, RgbImage)>,
) -> Result<Gallery, VisionError> {
    let views: Vec<(String, &RgbImage)> = faces.iter().map(|(id, img)| (id.clone(), img)).collect();
    let extras = extras_of(catalogue, &views)?;
    let card_aspect = card_aspect(catalogue, &views);
    let crops = faces
        .into_iter()
        .map(|(id, img)| {
            let class = class_of(catalogue, &id);
            (id, class, face_crop(&img, class))
        })
        .collect();
    Ok(Gallery {
        model: model.to_string(),
        entries: entries_of(catalogue, embedder, crops)?,
        thresholds: Thresholds::default(),
        pictures: extras.pictures,
        print: extras.print,
        faces: extras.faces,
        art: extras.art,
        strips: extras.strips,
        strip_details: extras.strip_details,
        card_aspect,
    })
}

/// The median length over width of the card faces among `faces` (cities, units and
/// one-shot cards, whichever way up they were pictured), if there are any.
pub fn card_aspect(catalogue: &Catalogue, faces: &[(String, &RgbImage)]) -> Option<f32> {
    let aspects = faces
        .iter()
        .filter(|(id, _)| class_of(catalogue, id) == PieceClass::Card)
        .filter(|(_, img)| img.width() > 0 && img.height() > 0)
        .map(|(_, img)| {
            let (w, h) = (img.width() as f32, img.height() as f32);
            w.max(h) / w.min(h)
        });
    super::assemble::median(aspects)
}

/// What a gallery keeps of enrolment pictures besides their embeddings ([`extras_of`]).
#[derive(Debug, Clone, Default)]
pub struct Extras {
    /// A small picture of each token and marker ([`super::look_alike`]).
    pub pictures: Vec<SmallPicture>,
    /// The print on each card face that looks like a token ([`super::print`]).
    pub print: Vec<PrintedSpots>,
    /// A small picture of each unit face ([`super::face_match`]).
    pub faces: Vec<FacePicture>,
    /// A picture of each module's strip ([`super::face_match::name_strip`]).
    pub strips: Vec<FacePicture>,
    /// A long, narrow picture of each module's strip ([`super::strip_detail`]).
    pub strip_details: Vec<StripPicture>,
    /// A larger picture of each unit and city face, for its art ([`super::art`]).
    pub art: Vec<ArtPicture>,
}

/// What a gallery keeps of enrolment pictures `(component id, picture)` besides their
/// embeddings.
pub fn extras_of(
    catalogue: &Catalogue,
    faces: &[(String, &RgbImage)],
) -> Result<Extras, VisionError> {
    let of_class = |class: PieceClass| {
        faces
            .iter()
            .filter(move |(id, _)| class_of(catalogue, id) == class)
    };
    let pictures = of_class(PieceClass::Small)
        .map(|(id, img)| SmallPicture::of(id, img))
        .collect();
    let cards: Vec<(String, &RgbImage)> = of_class(PieceClass::Card)
        .filter(|(id, _)| id != crate::CARD_BACK)
        .cloned()
        .collect();
    let unit_faces: Vec<&(String, &RgbImage)> = cards
        .iter()
        .filter(|(id, _)| catalogue.card(id).is_some_and(|c| c.kind.is_unit()))
        .collect();
    let units = unit_faces
        .iter()
        .map(|(id, img)| FacePicture::of(id, img))
        .collect();
    let art = cards
        .iter()
        .filter(|(id, _)| catalogue.card(id).is_some_and(|c| c.kind.is_unit()) || is_city(id))
        .map(|(id, img)| ArtPicture::of(id, img))
        .collect();
    let strips = of_class(PieceClass::Strip)
        .map(|(id, img)| FacePicture::of(id, &face_crop(img, PieceClass::Strip)))
        .collect();
    let strip_details = of_class(PieceClass::Strip)
        .map(|(id, img)| StripPicture::of_face(id, img))
        .collect();
    Ok(Extras {
        pictures,
        print: read_print(&cards)?,
        faces: units,
        strips,
        strip_details,
        art,
    })
}

/// How much of a unit's face the next card in its column leaves in sight, for the covered
/// views enrolled beside each unit's whole face ([`entries_of`]). In a column each card
/// covers the lower part of the one before it, so a unit's crop at the table shows its top
/// and then the next card's top; a unit seen so was named less often than one seen whole
/// (on validation decks 1 and 2, 16.8% of the units inside a column were lost, against 2.1%
/// of those at its end), most of them matched best to another face.
pub const COVERED_VIEWS: [f32; 2] = [0.65, 0.8];

/// The default of [`Thresholds::covered`], chosen on validation scenes (canonical seeds
/// 12 / 11 / 13, decks 1 and 2). Units placed, against no covered views: at 0, 96.4 / 99.0
/// / 96.1 / 90.4 / 94.8% against 96.5 / 98.5 / 96.1 / 88.5 / 92.7%, but cards named wrong
/// rose (seed 13: 0.2 to 0.8%) and layouts exact fell on the canonical deck (51.7 / 43.3 /
/// 56.7% to 46.7 / 50.0 / 53.3%); at 0.045, 50.0 / 43.3 / 53.3% exact; at 0.06, every set
/// as many layouts exact as without, no more cards named wrong, and units placed 96.5 /
/// 98.8 / 96.1 / 89.6 / 93.8%.
const COVERED_PENALTY: f32 = 0.06;

/// The default of [`Thresholds::rough`], chosen on validation scenes (canonical seeds 12 /
/// 11 / 13, decks 1 and 2; `models/embedder.md`): at 0 more cards were named wrong than
/// without rough views, at 0.02 and 0.03 about as many, at 0.04 fewer but fewer layouts
/// were exact.
const ROUGH_PENALTY: f32 = 0.03;

/// The default of [`Thresholds::tokened`], chosen on validation scenes (seeds 12 / 11 / 13,
/// decks 1, 2 and 5 to 8; four token views of each unit, [`super::token_views`]). Layouts
/// exact of 480, against 361 without token views: 355 at 0.03 (the rough views' penalty;
/// cards named wrong 15 -> 23), 360 at 0.06, 365 at 0.1 (15 named wrong), 364 at 0.15,
/// 361 at 0.2. At 0.1, eight views gave 361 (22 named wrong) and two 361.
const TOKENED_PENALTY: f32 = 0.1;

/// Gallery entries for enrolment crops `(component id, class, crop)`: one per crop; for a
/// token or marker, which lies at any angle, seven more, at each eighth of a turn; and for
/// a unit, one more for each of [`COVERED_VIEWS`], its lower part covered by the top of
/// another unit's face among the crops (the next one, or itself when it is alone),
/// [`ROUGH_VIEWS`] rough views ([`super::rough_views`]) and, when the crops hold tokens,
/// [`TOKEN_VIEWS`] token views ([`super::token_views`]).
pub fn entries_of(
    catalogue: &Catalogue,
    embedder: &Embedder,
    crops: Vec<(String, PieceClass, RgbImage)>,
) -> Result<Vec<GalleryEntry>, VisionError> {
    let is_unit: Vec<bool> = crops
        .iter()
        .map(|(id, class, _)| {
            *class == PieceClass::Card && catalogue.card(id).is_some_and(|c| c.kind.is_unit())
        })
        .collect();
    let units: Vec<&RgbImage> = crops
        .iter()
        .zip(&is_unit)
        .filter(|(_, unit)| **unit)
        .map(|((_, _, crop), _)| crop)
        .collect();
    let tokens: Vec<&RgbImage> = crops
        .iter()
        .filter(|(id, class, _)| {
            *class == PieceClass::Small && Token::from_component_id(id).is_some()
        })
        .map(|(_, _, crop)| crop)
        .collect();
    let mut images = Vec::new();
    let mut labels = Vec::new();
    let mut unit = 0;
    for ((id, class, crop), is_unit) in crops.iter().zip(is_unit) {
        if *class == PieceClass::Small {
            let square = area_resize(crop, CROP_W, CROP_W);
            for k in 1..8u8 {
                images.push(area_resize(&turned(&square, k), CROP_W, CROP_H));
                labels.push(View::turned(id, *class, k));
            }
        }
        if is_unit {
            for (k, visible) in COVERED_VIEWS.into_iter().enumerate() {
                let over = units[(unit + k + 1) % units.len()];
                images.push(covered(crop, over, visible));
                labels.push(View::covered(id, *class, percent(1.0 - visible)));
            }
            for view in rough_views(crop, ROUGH_VIEWS) {
                images.push(view);
                labels.push(View::rough(id, *class));
            }
            for view in token_views(crop, &tokens, TOKEN_VIEWS) {
                images.push(view);
                labels.push(View::tokened(id, *class));
            }
            unit += 1;
        }
        images.push(crop.clone());
        labels.push(View::turned(id, *class, 0));
    }
    let classes: Vec<PieceClass> = labels.iter().map(|v| v.class).collect();
    let embeddings = embedder.embed_classes(&classes, &images)?;
    Ok(labels
        .into_iter()
        .zip(embeddings)
        .map(|(v, e)| GalleryEntry {
            id: v.id,
            class: v.class,
            embedding: e.to_vec(),
            turn: v.turn,
            covered: v.covered,
            rough: v.rough,
            tokened: v.tokened,
        })
        .collect())
}

/// What one enrolled picture shows: the labels of a [`GalleryEntry`] before its embedding.
struct View {
    id: String,
    class: PieceClass,
    turn: u8,
    covered: u8,
    rough: bool,
    tokened: bool,
}

impl View {
    /// A face turned by `turn` eighths of a turn (0: as it was).
    fn turned(id: &str, class: PieceClass, turn: u8) -> View {
        View {
            id: id.to_string(),
            class,
            turn,
            covered: 0,
            rough: false,
            tokened: false,
        }
    }

    /// A face with `covered` hundredths of its height covered.
    fn covered(id: &str, class: PieceClass, covered: u8) -> View {
        View {
            covered,
            ..View::turned(id, class, 0)
        }
    }

    /// A rough view of a face.
    fn rough(id: &str, class: PieceClass) -> View {
        View {
            rough: true,
            ..View::turned(id, class, 0)
        }
    }

    /// A token view of a face.
    fn tokened(id: &str, class: PieceClass) -> View {
        View {
            tokened: true,
            ..View::turned(id, class, 0)
        }
    }
}

fn percent(share: f32) -> u8 {
    (share * 100.0).round().clamp(0.0, 100.0) as u8
}

/// A face with all below the top `visible` share of its height replaced by the top of
/// `over`, as the next card in a column lies over it.
pub fn covered(face: &RgbImage, over: &RgbImage, visible: f32) -> RgbImage {
    let mut out = face.clone();
    let h = face.height();
    let from = ((visible.clamp(0.0, 1.0) * h as f32).round() as u32).min(h);
    let top = image::imageops::crop_imm(over, 0, 0, over.width(), h - from).to_image();
    image::imageops::replace(&mut out, &top, 0, i64::from(from));
    out
}

fn is_picture(p: &Path) -> bool {
    p.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| matches!(e.to_ascii_lowercase().as_str(), "png" | "jpg" | "jpeg"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgb;

    /// A square picture with nothing alike under any turn: a gradient and one bright corner.
    fn picture() -> RgbImage {
        RgbImage::from_fn(40, 40, |x, y| {
            if x < 8 && y < 8 {
                Rgb([255, 255, 255])
            } else {
                Rgb([(x * 6) as u8, (y * 6) as u8, 60])
            }
        })
    }

    fn mean_difference(a: &RgbImage, b: &RgbImage) -> f32 {
        let sum: u32 = a
            .pixels()
            .zip(b.pixels())
            .flat_map(|(p, q)| (0..3).map(move |c| u32::from(p[c].abs_diff(q[c]))))
            .sum();
        sum as f32 / (a.width() * a.height() * 3) as f32
    }

    #[test]
    fn eighth_turns_add_up_to_quarter_turns() {
        let p = picture();
        assert!(mean_difference(&turned(&p, 0), &p) < 1.0);
        assert!(mean_difference(&turned(&p, 2), &image::imageops::rotate90(&p)) < 1.0);
        assert!(mean_difference(&turned(&p, 4), &image::imageops::rotate180(&p)) < 1.0);
        // An eighth turn is neither upright nor a quarter turn.
        let eighth = turned(&p, 1);
        assert!(mean_difference(&eighth, &p) > 10.0);
        assert!(mean_difference(&eighth, &image::imageops::rotate90(&p)) > 10.0);
    }

    fn axis(k: usize) -> Vec<f32> {
        let mut v = vec![0.0; DIM];
        v[k] = 1.0;
        v
    }

    fn entry(id: &str, class: PieceClass, k: usize) -> GalleryEntry {
        GalleryEntry {
            id: id.to_string(),
            class,
            embedding: axis(k),
            turn: 0,
            covered: 0,
            rough: false,
            tokened: false,
        }
    }

    /// A gallery of these entries and thresholds alone.
    fn bare(entries: Vec<GalleryEntry>, thresholds: Thresholds) -> Gallery {
        Gallery {
            entries,
            thresholds,
            ..Gallery::default()
        }
    }

    #[test]
    fn tokens_are_held_to_their_own_margin() {
        let g = bare(
            vec![
                entry("hornet", PieceClass::Card, 0),
                entry("brute", PieceClass::Card, 1),
                entry("token_plus1", PieceClass::Small, 0),
                entry("token_plus2", PieceClass::Small, 1),
            ],
            Thresholds {
                margin: 0.04,
                small_margin: 0.03,
                ..Thresholds::default()
            },
        );
        // Similar to the first face by 0.7 and to the second by 0.665: a lead of 0.035.
        let mut e = [0f32; DIM];
        e[0] = 0.7;
        e[1] = 0.665;
        let card = g.identify(PieceClass::Card, &e);
        assert_eq!(card.id, None, "a card needs a lead of 0.04");
        assert_eq!(card.best, "hornet");
        let token = g.identify(PieceClass::Small, &e);
        assert_eq!(token.id.as_deref(), Some("token_plus1"));
        // Closer still, the token is too close to call as well.
        e[1] = 0.68;
        assert_eq!(g.identify(PieceClass::Small, &e).id, None);
    }

    #[test]
    fn mean_similarities_average_each_component_over_the_embeddings() {
        let g = bare(
            vec![
                entry("token_plus1", PieceClass::Small, 0),
                entry("token_plus2", PieceClass::Small, 1),
                entry("token_plus2", PieceClass::Small, 2),
            ],
            Thresholds::default(),
        );
        let (mut a, mut b) = ([0f32; DIM], [0f32; DIM]);
        (a[0], a[1], a[2]) = (0.6, 0.5, 0.1);
        (b[0], b[1], b[2]) = (0.2, 0.1, 0.7);
        let mean = g.mean_similarities(PieceClass::Small, &[&a, &b]);
        // token_plus2 is its best picture each time: 0.5 and 0.7.
        let want = [("token_plus1", 0.4), ("token_plus2", 0.6)];
        assert_eq!(mean.len(), 2);
        for ((id, s), (wid, ws)) in mean.iter().zip(want) {
            assert_eq!(id, wid);
            assert!((s - ws).abs() < 1e-6, "{id}: {s}");
        }
        assert!(g.mean_similarities(PieceClass::Small, &[]).is_empty());
    }

    #[test]
    fn a_token_turned_by_two_quarters_is_its_crop_upside_down() {
        let mut frame = RgbImage::from_pixel(120, 100, Rgb([30, 90, 30]));
        image::imageops::replace(&mut frame, &picture(), 40, 30);
        let token = [[40.0, 30.0], [80.0, 30.0], [80.0, 70.0], [40.0, 70.0]];
        let upright = crop(&frame, PieceClass::Small, &token);
        let [quarter, half, _] = quarter_turns(&frame, &token);
        assert!(mean_difference(&half, &image::imageops::rotate180(&upright)) < 1.0);
        assert!(mean_difference(&quarter, &upright) > 10.0);
    }

    #[test]
    fn older_gallery_files_get_the_token_margin_by_default() {
        let t: Thresholds = serde_json::from_str(r#"{"card": 0.6, "margin": 0.05}"#).unwrap();
        assert_eq!(t.card, 0.6);
        assert_eq!(t.min_margin(PieceClass::Card), 0.05);
        assert_eq!(t.min_margin(PieceClass::Strip), 0.05);
        assert_eq!(t.min_margin(PieceClass::Small), SMALL_MARGIN);
        assert_eq!(t.second_look, SECOND_LOOK);
        assert_eq!(t.faint_small, FAINT_SMALL);
        assert_eq!(t.look_alike, LOOK_ALIKE);
        assert_eq!(t.hue_lead, HUE_LEAD);
        assert_eq!(t.hue_overrule, HUE_OVERRULE);
        assert_eq!(t.covered, COVERED_PENALTY);
    }

    #[test]
    fn a_covered_view_shows_the_face_above_and_the_other_card_below() {
        let face = RgbImage::from_pixel(CROP_W, CROP_H, Rgb([200, 10, 10]));
        let over = RgbImage::from_fn(CROP_W, CROP_H, |_, y| Rgb([0, y as u8, 0]));
        let view = covered(&face, &over, 0.75);
        // 42 of 56 rows stay; the other card's top rows come after, from its first row.
        assert_eq!(view.get_pixel(5, 41).0, [200, 10, 10]);
        assert_eq!(view.get_pixel(5, 42).0, [0, 0, 0]);
        assert_eq!(view.get_pixel(5, 55).0, [0, 13, 0]);
        // Nothing covered, or all of it.
        assert_eq!(covered(&face, &over, 1.0), face);
        assert_eq!(covered(&face, &over, 0.0), over);
    }

    #[test]
    fn units_are_enrolled_whole_covered_and_rough_and_other_pieces_whole() {
        let cat = Catalogue::bundled();
        let embedder = Embedder::builtin().unwrap();
        let faces = vec![
            ("hornet".to_string(), picture()),
            ("trooper".to_string(), picture()),
            ("ziggy_one".to_string(), picture()),
        ];
        let g = gallery_of(&cat, &embedder, "m", faces).unwrap();
        let of = |id: &str| -> Vec<(u8, bool)> {
            let mut v: Vec<(u8, bool)> = g
                .entries
                .iter()
                .filter(|e| e.id == id)
                .map(|e| (e.covered, e.rough))
                .collect();
            v.sort();
            v
        };
        let mut unit = vec![(0, false)];
        unit.extend([(0, true)].repeat(ROUGH_VIEWS));
        unit.extend([(20, false), (35, false)]);
        assert_eq!(of("hornet"), unit);
        assert_eq!(of("trooper"), unit);
        assert_eq!(
            of("ziggy_one"),
            vec![(0, false)],
            "a city is never covered by a column, and named by its place in the row"
        );
        // Each rough view is embedded apart from the face.
        let hornet: Vec<&GalleryEntry> = g.entries.iter().filter(|e| e.id == "hornet").collect();
        let whole = hornet.iter().find(|e| e.is_as_enrolled()).unwrap();
        for rough in hornet.iter().filter(|e| e.rough) {
            assert_ne!(rough.embedding, whole.embedding);
        }
    }

    #[test]
    fn units_get_token_views_when_tokens_are_enrolled() {
        let cat = Catalogue::bundled();
        let embedder = Embedder::builtin().unwrap();
        let token = RgbImage::from_pixel(60, 60, image::Rgb([240, 200, 20]));
        let faces = vec![
            ("hornet".to_string(), picture()),
            ("ziggy_one".to_string(), picture()),
            ("token_plus1".to_string(), token),
        ];
        let g = gallery_of(&cat, &embedder, "m", faces).unwrap();
        let tokened = |id: &str| g.entries.iter().filter(|e| e.id == id && e.tokened).count();
        assert_eq!(tokened("hornet"), TOKEN_VIEWS);
        assert_eq!(tokened("ziggy_one"), 0, "a city holds no tokens");
        assert_eq!(tokened("token_plus1"), 0);
        let hornet: Vec<&GalleryEntry> = g.entries.iter().filter(|e| e.id == "hornet").collect();
        let whole = hornet.iter().find(|e| e.is_as_enrolled()).unwrap();
        for view in hornet.iter().filter(|e| e.tokened) {
            assert_ne!(view.embedding, whole.embedding);
        }
    }

    /// A gallery of hornet's whole face (along axis 0), another view of hornet (axis 1)
    /// that `mark` says what it is, and brute's face (axis 2).
    fn hornet_with_a_view(mark: impl FnOnce(&mut GalleryEntry), thresholds: Thresholds) -> Gallery {
        let mut view = entry("hornet", PieceClass::Card, 1);
        mark(&mut view);
        bare(
            vec![
                entry("hornet", PieceClass::Card, 0),
                view,
                entry("brute", PieceClass::Card, 2),
            ],
            thresholds,
        )
    }

    /// A card embedding's similarity to one component of a gallery.
    fn similarity_to(g: &Gallery, e: &[f32; DIM], id: &str) -> f32 {
        let sims = g.similarities(PieceClass::Card, e);
        sims.iter()
            .find(|(i, _)| i == id)
            .map(|x| x.1)
            .unwrap_or_else(|| panic!("no {id} in {sims:?}"))
    }

    #[test]
    fn a_match_to_a_rough_view_counts_less() {
        let g = hornet_with_a_view(
            |v| v.rough = true,
            Thresholds {
                rough: 0.03,
                ..Thresholds::default()
            },
        );
        let mut e = [0f32; DIM];
        e[1] = 0.8;
        e[2] = 0.7;
        assert!((similarity_to(&g, &e, "hornet") - 0.77).abs() < 1e-6);
        // The whole face still counts in full.
        e[0] = 0.9;
        assert!((similarity_to(&g, &e, "hornet") - 0.9).abs() < 1e-6);
    }

    #[test]
    fn a_match_to_a_token_view_counts_less_by_its_own_penalty() {
        let g = hornet_with_a_view(
            |v| v.tokened = true,
            Thresholds {
                rough: 0.03,
                tokened: 0.1,
                ..Thresholds::default()
            },
        );
        let mut e = [0f32; DIM];
        e[1] = 0.8;
        e[2] = 0.5;
        assert!((similarity_to(&g, &e, "hornet") - 0.7).abs() < 1e-6);
    }

    #[test]
    fn a_gallery_from_before_token_views_still_loads() {
        let old = r#"{"model":"m","entries":[{"id":"hornet","class":"card","embedding":[1.0],"rough":true}],"thresholds":{"card":0.5,"rough":0.03}}"#;
        let g: Gallery = serde_json::from_str(old).unwrap();
        assert!(!g.entries[0].tokened);
        assert_eq!(g.thresholds.tokened, TOKENED_PENALTY);
        let mut e = g.entries[0].clone();
        e.tokened = true;
        assert!(!e.is_as_enrolled());
        let text = serde_json::to_string(&e).unwrap();
        assert!(text.contains(r#""tokened":true"#), "{text}");
    }

    #[test]
    fn a_gallery_from_before_rough_views_still_loads() {
        let old = r#"{"model":"m","entries":[{"id":"hornet","class":"card","embedding":[1.0],"covered":35}],"thresholds":{"card":0.5}}"#;
        let g: Gallery = serde_json::from_str(old).unwrap();
        assert!(!g.entries[0].rough);
        assert_eq!(g.thresholds.rough, ROUGH_PENALTY);
        // And a rough view is written as such.
        let mut e = g.entries[0].clone();
        e.rough = true;
        let text = serde_json::to_string(&e).unwrap();
        assert!(text.contains(r#""rough":true"#), "{text}");
        let plain = serde_json::to_string(&g.entries[0]).unwrap();
        assert!(!plain.contains("rough"), "{plain}");
    }

    #[test]
    fn a_match_to_a_covered_view_counts_less() {
        let g = hornet_with_a_view(
            |v| v.covered = 35,
            Thresholds {
                covered: 0.06,
                ..Thresholds::default()
            },
        );
        let mut e = [0f32; DIM];
        e[1] = 0.8;
        e[2] = 0.7;
        assert!((similarity_to(&g, &e, "hornet") - 0.74).abs() < 1e-6);
        assert!((similarity_to(&g, &e, "brute") - 0.7).abs() < 1e-6);
        // Still named, with a lead of 0.04; the whole face would have been too.
        assert_eq!(
            g.identify(PieceClass::Card, &e).id.as_deref(),
            Some("hornet")
        );
        e[2] = 0.71;
        assert_eq!(g.identify(PieceClass::Card, &e).id, None);
    }

    #[test]
    fn gallery_files_keep_token_pictures_and_refuse_broken_ones() {
        let dir = std::env::temp_dir().join(format!("tl-gallery-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("g.json");
        // A file from before pictures were kept loads, without them.
        std::fs::write(&path, r#"{"model": "m", "entries": []}"#).unwrap();
        assert!(Gallery::load(&path).unwrap().pictures.is_empty());
        let mut g = Gallery {
            model: "m".into(),
            entries: vec![entry("token_plus1", PieceClass::Small, 0)],
            thresholds: Thresholds::default(),
            pictures: vec![SmallPicture::of("token_plus1", &picture())],
            print: vec![PrintedSpots {
                id: "hornet".into(),
                at: vec![[0.25, 0.5]],
                pictures: vec![SmallPicture::of("hornet", &picture())],
            }],
            faces: vec![FacePicture::of("hornet", &picture())],
            art: vec![ArtPicture::of("hornet", &picture())],
            strips: vec![FacePicture::of("net_module", &picture())],
            strip_details: vec![StripPicture::of_face("net_module", &picture())],
            card_aspect: Some(1.4),
        };
        g.save(&path).unwrap();
        assert_eq!(Gallery::load(&path).unwrap(), g);
        let good = g.clone();
        g.pictures[0].rgb.truncate(10);
        g.save(&path).unwrap();
        let err = Gallery::load(&path).unwrap_err().to_string();
        assert!(
            err.contains("token_plus1") && err.contains("digits"),
            "{err}"
        );
        // A broken picture of print is refused the same way.
        let mut g = good.clone();
        g.print[0].pictures[0].rgb.replace_range(0..2, "zz");
        g.save(&path).unwrap();
        let err = Gallery::load(&path).unwrap_err().to_string();
        assert!(
            err.contains("hornet") && err.contains("hexadecimal"),
            "{err}"
        );
        // And a broken face picture too.
        let mut g = good.clone();
        g.faces[0].rgb.push_str("00");
        g.save(&path).unwrap();
        let err = Gallery::load(&path).unwrap_err().to_string();
        assert!(err.contains("hornet") && err.contains("digits"), "{err}");
        // And a broken art picture.
        let mut g = good.clone();
        g.art[0].rgb.truncate(6);
        g.save(&path).unwrap();
        let err = Gallery::load(&path).unwrap_err().to_string();
        assert!(err.contains("hornet") && err.contains("digits"), "{err}");
        // And a broken strip picture.
        let mut g = good.clone();
        g.strips[0].rgb.replace_range(0..1, "x");
        g.save(&path).unwrap();
        let err = Gallery::load(&path).unwrap_err().to_string();
        assert!(
            err.contains("net_module") && err.contains("hexadecimal"),
            "{err}"
        );
        // And a strip's detail cut short.
        let mut g = good;
        g.strip_details[0].rgb.truncate(100);
        g.save(&path).unwrap();
        let err = Gallery::load(&path).unwrap_err().to_string();
        assert!(
            err.contains("net_module") && err.contains("digits"),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_cards_aspect_is_the_median_of_the_card_faces_either_way_up() {
        let cat = Catalogue::bundled();
        let (tall, wide, token) = (
            RgbImage::new(63, 88),
            RgbImage::new(90, 60),
            RgbImage::new(10, 40),
        );
        let faces = [
            ("hornet".to_string(), &tall),
            ("ziggy_one".to_string(), &wide),
            ("medic".to_string(), &tall),
            ("token_plus1".to_string(), &token),
        ];
        let a = card_aspect(&cat, &faces).unwrap();
        assert!((a - 88.0 / 63.0).abs() < 1e-6, "{a}");
        // Tokens and markers say nothing of the cards' shape.
        assert_eq!(card_aspect(&cat, &faces[3..]), None);
    }

    #[test]
    fn enrolment_keeps_a_picture_of_each_token_and_each_unit_face() {
        let cat = Catalogue::bundled();
        let embedder = Embedder::builtin().unwrap();
        let faces = vec![
            ("hornet".to_string(), picture()),
            ("token_plus1".to_string(), picture()),
            ("ziggy_one".to_string(), picture()),
            ("medic".to_string(), picture()),
            ("net_module".to_string(), picture()),
        ];
        let g = gallery_of(&cat, &embedder, "m", faces).unwrap();
        assert_eq!(g.pictures.len(), 1);
        assert_eq!(g.pictures[0].id, "token_plus1");
        assert!(g.pictures[0].image().is_ok());
        // Face pictures of units only: not of cities or one-shot cards.
        let ids: Vec<&str> = g.faces.iter().map(|f| f.id.as_str()).collect();
        assert_eq!(ids, ["hornet"]);
        assert!(g.faces[0].image().is_ok());
        // And of each module its strip.
        assert_eq!(g.strips.len(), 1);
        assert_eq!(g.strips[0].id, "net_module");
        assert!(g.strips[0].image().is_ok());
        // And its strip in detail, long and narrow.
        assert_eq!(g.strip_details.len(), 1);
        assert_eq!(g.strip_details[0].id, "net_module");
        assert!(g.strip_details[0]
            .image()
            .is_ok_and(|s| s.dimensions() == (16, 128)));
    }

    #[test]
    fn a_gallery_enrolled_before_pictures_were_kept_says_what_it_lacks() {
        let cat = Catalogue::bundled();
        let embedder = Embedder::builtin().unwrap();
        let faces = vec![
            ("hornet".to_string(), picture()),
            ("new_york".to_string(), picture()),
            ("token_plus1".to_string(), picture()),
            ("net_module".to_string(), picture()),
        ];
        let mut g = gallery_of(&cat, &embedder, "m", faces).unwrap();
        assert!(g.lacks(&cat).is_empty());
        assert_eq!(g.lacking_note(&cat), None);
        // A gallery enrolled before strips were kept in detail.
        g.strip_details.clear();
        assert_eq!(g.lacks(&cat), ["module strip details"]);
        g.faces.clear();
        g.strips.clear();
        assert_eq!(
            g.lacks(&cat),
            ["unit face pictures", "module strip pictures"]
        );
        let note = g.lacking_note(&cat).unwrap();
        assert!(
            note.contains("unit face pictures or module strip pictures"),
            "{note}"
        );
        assert!(note.contains("enrol"), "{note}");
        // The art of the unit and of the city.
        assert_eq!(g.art.len(), 2);
        assert!(g.art[0].image().is_ok_and(|a| a.dimensions() == (90, 126)));
        // A gallery enrolled before cities' art was kept.
        g.art.retain(|p| p.id == "hornet");
        assert_eq!(
            g.lacks(&cat),
            [
                "unit face pictures",
                "city art pictures",
                "module strip pictures"
            ]
        );
        g.art.clear();
        assert_eq!(
            g.lacks(&cat),
            [
                "unit face pictures",
                "unit art pictures",
                "city art pictures",
                "module strip pictures"
            ]
        );
        // Nothing is lacking for pieces that were never enrolled.
        g.entries.retain(|e| e.id == "token_plus1");
        assert!(g.lacks(&cat).is_empty());
        g.pictures.clear();
        assert_eq!(g.lacks(&cat), ["token and marker pictures"]);
    }

    #[test]
    fn tokens_go_to_the_token_network_and_come_back_in_order() {
        let embedder = Embedder::builtin().unwrap();
        let crops: Vec<RgbImage> = (0..5u32)
            .map(|k| area_resize(&turned(&picture(), k as u8), CROP_W, CROP_H))
            .collect();
        let classes = [
            PieceClass::Card,
            PieceClass::Small,
            PieceClass::Strip,
            PieceClass::Small,
            PieceClass::Card,
        ];
        let mixed = embedder.embed_classes(&classes, &crops).unwrap();
        for (i, class) in classes.iter().enumerate() {
            let alone = embedder.embed(*class, &crops[i..=i]).unwrap();
            let gap: f32 = alone[0]
                .iter()
                .zip(&mixed[i])
                .map(|(a, b)| (a - b).abs())
                .sum();
            assert!(gap < 1e-3, "crop {i}: {gap}");
        }
        // The two networks differ: the same crop as a card and as a token.
        let as_card = embedder.embed(PieceClass::Card, &crops[1..2]).unwrap();
        let cos = dot(&as_card[0], &mixed[1]);
        assert!(cos < 0.999, "{cos}");
    }
}
