//! Layout assembly: named pieces and where they lie become the layout of CONTRACT.md.
//!
//! - Cities are the cards named as a city (a `<city>_destroyed` face means destroyed). Each
//!   city card's printed orientation gives the table's axes there: "up" points to its red
//!   edge, Moloch's side; "right" runs along the row.
//! - A unit belongs to the city whose column it lies in (least sideways distance, in that
//!   city card's widths); its side is its card's side; a column is ordered from the city out.
//! - A module strip belongs to the unit whose printed right edge it lies against.
//! - A token belongs to the unit card under it (in an overlap, the card farther from the
//!   city, which lies on top, unless the token lies right at that card's top edge:
//!   [`ON_TOP_FROM`]); a marker belongs to the city card under it.
//! - Whatever cannot be named or placed is listed in `unknown`, never guessed.

use super::art::{
    art_bar, FaceArt, CITY_RESCUE_BELOW, FAINT_REACH, FAINT_UNLIKE_ITS_PICTURE, LIKE_ITS_PICTURE,
    NOT_ART, RESCUE_BELOW, SOMEWHAT_ART, UNLIKE_ITS_PICTURE,
};
use super::close_calls;
use super::detect::{Detection, PieceClass};
use super::face_match::{name_strip, FaceLooks};
use super::identify::{crop, quarter_turns, Embedder, Gallery, Identity, Thresholds, DIM};
use super::look_alike::LookAlikes;
use super::missing_cards;
use super::par;
use super::print::{print_likeness, PRINT_LIKENESS, PRINT_SURE};
use super::sides::is_city;
use super::strip_detail::{by_detail, StripLooks};
use super::strips::{StripFinder, STRIP_ABSENT, STRIP_PRESENT};
use super::tokens::{TokenFinder, TURNED_UNDER};
use super::VisionError;
use image::RgbImage;
use std::cell::OnceCell;
use tablelens_engine::catalogue::Feature;
use tablelens_engine::layout::{Doubt, Marker, UnknownPiece};
use tablelens_engine::Catalogue;
use tablelens_engine::{CityId, CityLayout, Corners, Kind, Layout, ModuleCard, Side, Token, Unit};

/// A detection with what it was identified as.
#[derive(Debug, Clone, PartialEq)]
pub struct Piece {
    /// What it looks like.
    pub class: PieceClass,
    /// Corners in frame pixels, clockwise from the printed top-left (for cards and strips,
    /// the half turn that matched the gallery best).
    pub corners: [[f32; 2]; 4],
    /// Detector confidence.
    pub score: f32,
    /// The component, if identified.
    pub id: Option<String>,
    /// Cosine similarity of the best gallery match.
    pub similarity: f32,
    /// The best match even when rejected.
    pub best: String,
    /// For a card, its best similarity to each enrolled card face (both ways up), by which
    /// a later stage may name it among the faces its place allows ([`super::city_row`],
    /// [`super::sides`]); for a token or marker, to each component its card can carry, by
    /// which two look-alikes are told apart ([`super::look_alike`]); for a strip, to each
    /// module. Each says how close a call its name was ([`super::close_calls`]).
    pub similarities: Vec<(String, f32)>,
}

impl Piece {
    /// A piece known for sure, not seen: `id` at `corners`, with the detector's confidence
    /// and the similarity full (a perfect reading of a true layout, or a piece the player
    /// named where the vision saw none).
    pub fn sure(class: PieceClass, corners: [[f32; 2]; 4], id: &str) -> Piece {
        Piece {
            class,
            corners,
            score: 1.0,
            id: Some(id.to_string()),
            similarity: 1.0,
            best: id.to_string(),
            similarities: Vec::new(),
        }
    }

    fn center(&self) -> [f32; 2] {
        centre(&self.corners)
    }

    /// Whether it is a card named as a city (either side up).
    pub(crate) fn named_city(&self) -> bool {
        self.class == PieceClass::Card && self.id.as_deref().is_some_and(is_city)
    }

    /// Whether it is a card named, and not as a city: a unit (or a one-shot card).
    pub(crate) fn named_non_city(&self) -> bool {
        self.class == PieceClass::Card && self.id.as_deref().is_some_and(|id| !is_city(id))
    }
}

/// A card of 60x90 pixels centred at (x, y), printed upright, named `id` (or unknown) and
/// with the given similarities to card faces: what the naming-by-place tests start from.
#[cfg(test)]
pub(crate) fn upright_card(x: f32, y: f32, id: Option<&str>, sims: &[(&str, f32)]) -> Piece {
    let (w, h) = (30.0, 45.0);
    Piece {
        class: PieceClass::Card,
        corners: [
            [x - w, y - h],
            [x + w, y - h],
            [x + w, y + h],
            [x - w, y + h],
        ],
        score: 0.9,
        id: id.map(str::to_string),
        similarity: sims.iter().map(|s| s.1).fold(0.0, f32::max),
        best: sims.first().map_or("", |s| s.0).to_string(),
        similarities: sims.iter().map(|(c, s)| (c.to_string(), *s)).collect(),
    }
}

/// A city (Ziggy One) at (300, 300) and Outpost units (commandos) below it, on its green
/// edge's side, as [`upright_card`]s at the given centres' heights: a column for the tests
/// of the column searches.
#[cfg(test)]
pub(crate) fn outpost_column(ys: &[f32]) -> Vec<Piece> {
    let mut pieces = vec![upright_card(
        300.0,
        300.0,
        Some("ziggy_one"),
        &[("ziggy_one", 0.9)],
    )];
    for &y in ys {
        pieces.push(upright_card(
            300.0,
            y,
            Some("commando"),
            &[("commando", 0.9)],
        ));
    }
    pieces
}

/// How far across the row from a city's middle, in city card widths, a card may lie and
/// still be in that city's column (players lay units a little off the column's line).
pub(crate) const COLUMN_REACH: f32 = 1.2;

/// Where a point lies beside a city card, if it lies in the city's column outside the card:
/// how far across (in card widths from the city's middle) and how far along (in card
/// heights from its middle, positive towards the red edge, Moloch's side).
pub(crate) fn beside(city: &Frame, p: [f32; 2]) -> Option<(f32, f32)> {
    let l = city.local(p);
    let across = (l[0] - 0.5).abs();
    let along = 0.5 - l[1];
    (l[0].is_finite() && along.abs() > 0.5).then_some((across, along))
}

/// The centre of four corners.
pub fn centre(c: &[[f32; 2]; 4]) -> [f32; 2] {
    [
        (c[0][0] + c[1][0] + c[2][0] + c[3][0]) / 4.0,
        (c[0][1] + c[1][1] + c[2][1] + c[3][1]) / 4.0,
    ]
}

/// Four corners grown (or shrunk) by `k` about their centre.
pub fn scaled(quad: &[[f32; 2]; 4], k: f32) -> [[f32; 2]; 4] {
    let c = centre(quad);
    quad.map(|[x, y]| [c[0] + (x - c[0]) * k, c[1] + (y - c[1]) * k])
}

/// The distance between two points.
pub(crate) fn dist(a: [f32; 2], b: [f32; 2]) -> f32 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
}

/// Whether the point `p` lies nearer the centre of `square` (a token's, a marker's or a
/// finder's spot) than `share` of the square's side: where one piece is taken for another
/// seen again.
pub(crate) fn near_centre(square: &[[f32; 2]; 4], p: [f32; 2], share: f32) -> bool {
    dist(centre(square), p) < share * dist(square[0], square[1])
}

/// The median of some numbers (the upper one of an even count), if there are any.
pub(crate) fn median(values: impl Iterator<Item = f32>) -> Option<f32> {
    let mut v: Vec<f32> = values.collect();
    v.sort_by(f32::total_cmp);
    v.get(v.len() / 2).copied()
}

/// A card named with at least this similarity one way up is not embedded the other way
/// up: on 150 validation scenes, no card named this surely matched better the other way
/// (at 0.7, 10 of 1,088 did). A little less than half of all cards are skipped so.
pub const SURE_ONE_WAY: f32 = 0.75;

/// Crops, embeds and names every detection. Cards and strips are tried both ways up,
/// keeping the better, except a card named surely ([`SURE_ONE_WAY`]) the first way.
pub fn identify_cards(
    frame: &RgbImage,
    detections: &[Detection],
    embedder: &Embedder,
    gallery: &Gallery,
) -> Result<Vec<Piece>, VisionError> {
    let (mut pieces, crops) = look_one_way(frame, detections, embedder, gallery)?;
    let again: Vec<usize> = (0..pieces.len())
        .filter(|&i| worth_turning(&pieces[i]))
        .collect();
    look_other_way(&mut pieces, &crops, &again, embedder, gallery)?;
    Ok(pieces)
}

/// The lead over its runner-up from which a card is named on its first crops alone (one or
/// both ways up); below it, [`look_moved`] looks at it again. Chosen on validation scenes
/// (`vision/src/perceive/mod.rs`): 0.05 and 0.2 gave 416 and 418 layouts exact of 480,
/// against 419.
pub(crate) const SURE_CARD_LEAD: f32 = 0.1;

/// How far [`look_moved`] moves a card, as a share of its width, across and along. Chosen
/// on validation scenes: 0.02, 0.06 and 0.08 gave 411, 417 and 418 layouts exact of 480,
/// against 419.
const CARD_MOVE: f32 = 0.04;

/// Looks again at each card, named or not, whose best face leads the next by under
/// [`SURE_CARD_LEAD`]: it is cut four more times, its quad moved by [`CARD_MOVE`] of its
/// width each way across and along, and its similarity to each face becomes the mean over
/// its first look and those four crops, which names it again. A few pixels off, a crop
/// shows a little more of a neighbour or the cloth, or a little less of the card, and two
/// look-alike faces can swap places; the mean of five steadies them.
pub fn look_moved(
    frame: &RgbImage,
    pieces: &mut [Piece],
    embedder: &Embedder,
    gallery: &Gallery,
) -> Result<(), VisionError> {
    let unsure: Vec<usize> = (0..pieces.len())
        .filter(|&i| pieces[i].class == PieceClass::Card)
        .filter(|&i| {
            super::identify::best_and_lead(&pieces[i].similarities, |_| true)
                .is_some_and(|(_, _, lead)| lead < SURE_CARD_LEAD)
        })
        .collect();
    let quads: Vec<[[f32; 2]; 4]> = unsure.iter().map(|&i| pieces[i].corners).collect();
    let more = embed_moved(frame, PieceClass::Card, &quads, CARD_MOVE, embedder)?;
    for (&i, moved) in unsure.iter().zip(more.chunks(MOVES)) {
        let p = &mut pieces[i];
        let mut sums = p.similarities.clone();
        for e in moved {
            for (sum, (_, s)) in sums
                .iter_mut()
                .zip(gallery.similarities(PieceClass::Card, e))
            {
                sum.1 += s;
            }
        }
        for sum in &mut sums {
            sum.1 /= (MOVES + 1) as f32;
        }
        let id = gallery.name_among(PieceClass::Card, &sums, |_| true);
        p.similarities = sums;
        p.id = id.id;
        p.similarity = id.score;
        p.best = id.best;
    }
    Ok(())
}

/// Drops the cards named as a card back ([`crate::CARD_BACK`]) at `bar` or more: a
/// face-down card, of a deck or a hand, is no piece of the layout, and left in it would be
/// named by its place. A card named a back less surely is left unknown, for the later
/// stages to look at as any other.
pub fn drop_backs(pieces: &mut Vec<Piece>, bar: f32) {
    let is_back = |p: &Piece| p.id.as_deref() == Some(crate::CARD_BACK);
    pieces.retain(|p| !(is_back(p) && p.similarity >= bar));
    for p in pieces.iter_mut().filter(|p| is_back(p)) {
        p.id = None;
    }
}

/// Crops, embeds and names every detection the way up its corners give, and hands back
/// the crops too (for [`look_other_way`]).
pub fn look_one_way(
    frame: &RgbImage,
    detections: &[Detection],
    embedder: &Embedder,
    gallery: &Gallery,
) -> Result<(Vec<Piece>, Vec<RgbImage>), VisionError> {
    let classes: Vec<PieceClass> = detections.iter().map(|d| d.class).collect();
    let crops: Vec<RgbImage> = par::map(detections, |d| crop(frame, d.class, &d.corners));
    let first = embedder.embed_classes(&classes, &crops)?;
    let pieces = detections
        .iter()
        .zip(&first)
        .map(|(d, e)| {
            let sims = gallery.similarities(d.class, e);
            let id = gallery.name_among(d.class, &sims, |_| true);
            Piece {
                class: d.class,
                corners: d.corners,
                score: d.score,
                id: id.id,
                similarity: id.score,
                best: id.best,
                similarities: if d.class == PieceClass::Card {
                    sims
                } else {
                    Vec::new()
                },
            }
        })
        .collect();
    Ok((pieces, crops))
}

/// Whether a piece looked at one way up is worth looking at the other way up: a card or a
/// strip, but not a card already named surely ([`SURE_ONE_WAY`]).
pub fn worth_turning(p: &Piece) -> bool {
    match p.class {
        PieceClass::Small => false,
        PieceClass::Strip => true,
        PieceClass::Card => p.id.is_none() || p.similarity < SURE_ONE_WAY,
    }
}

/// Looks at the pieces `again` (indices into `pieces`, cut as `crops`) the other way up,
/// and keeps for each the better of its two looks.
pub fn look_other_way(
    pieces: &mut [Piece],
    crops: &[RgbImage],
    again: &[usize],
    embedder: &Embedder,
    gallery: &Gallery,
) -> Result<(), VisionError> {
    let classes: Vec<PieceClass> = again.iter().map(|&i| pieces[i].class).collect();
    // The crop from the opposite corner samples the same points as the first one, upside
    // down: turning the first is the same picture without cutting it again.
    let turned_crops: Vec<RgbImage> = par::map(again, |&i| image::imageops::rotate180(&crops[i]));
    let turned = embedder.embed_classes(&classes, &turned_crops)?;
    for (&i, e) in again.iter().zip(&turned) {
        let p = &mut pieces[i];
        let sims = gallery.similarities(p.class, e);
        let id = gallery.name_among(p.class, &sims, |_| true);
        if p.class == PieceClass::Card {
            // Both ways up, in the gallery's order: keep the better of each face.
            for ((_, best), (_, s)) in p.similarities.iter_mut().zip(sims) {
                *best = best.max(s);
            }
        }
        if id.score > p.similarity {
            p.corners = half_turn(&p.corners);
            p.id = id.id;
            p.similarity = id.score;
            p.best = id.best;
        }
    }
    Ok(())
}

/// The lead over the runner-up from which a token or marker is named on its first crop
/// alone; below it, it is looked at from four quarter turns. Chosen on validation scenes
/// (seeds 12 / 11 / 13, tokens on the right unit): 0.05 gave 81.0 / 87.1 / 81.5% but named
/// more pieces wrong (1.5 / 3.3 / 1.4%); 0.1 gave 80.0 / 85.7 / 81.3% (0.9 / 2.1 / 1.2% wrong),
/// as much as turning every piece, for some 1 ms more a frame rather than 7.
const SURE_SMALL_MARGIN: f32 = 0.1;

/// The lead over the runner-up from which a module strip is named on its first crop alone;
/// below it (or when it is too close to call), the strip is cut four more times, moved by
/// [`STRIP_MOVE`], and named by its mean similarities over the five crops. The module
/// strips differ in a few marks, and a strip finder's corners a few pixels off decide
/// between them. Chosen on validation scenes (`models/strips.md`): 0.2 and every strip gave
/// the same layouts.
const SURE_STRIP_MARGIN: f32 = 0.1;

/// The lead over the runner-up under which a module strip, after its crops moved
/// ([`SURE_STRIP_MARGIN`]), is also compared with the enrolled strips in detail
/// ([`super::strip_detail::by_detail`]). At 0.1, as the crops moved, a debug dump of all 31
/// sets had 63 of 4,403 strips named wrong, eight of them by a lead of 0.10 to 0.13 that
/// the detail would have overturned rightly. At 0.15: unseen layouts exact 922 -> 923 of
/// 1,050, modules named wrong there 19 -> 16 (pieces 115 -> 111), validation and the recast
/// sets unchanged; 0.3 read the same.
const DETAIL_STRIP_MARGIN: f32 = 0.15;

/// Whether a piece read as `id` clears its `bar` but leads the runner-up by less than
/// `lead` (or is too close to call): a strip that is looked at again
/// ([`SURE_STRIP_MARGIN`], [`DETAIL_STRIP_MARGIN`]).
fn led_by_less(id: &Identity, bar: f32, lead: f32) -> bool {
    id.score >= bar && id.margin < lead
}

/// How far a strip is moved across, as shares of its width, when the strip finder holds a
/// module is there (presence [`STRIP_PRESENT`] or more) but its crop names none at its bar:
/// the finder's corners are then often off by half a strip's width (deck 10: a
/// Contamination Module's strip found 11 pixels off a strip 21 wide, named at 0.10, bar
/// 0.2). The cut that names a module best is kept, where it names one better. On the nine
/// validation sets and new decks 9 to 12, layouts exact 435 -> 435 of 480 and 195 -> 197
/// of 240 (modules right on deck 10 96.9 -> 98.1%, deck 12 98.8 -> 99.4%), held out 166
/// (modules right on deck 3 88.1 -> 89.4%); recast 397 -> 397 and 183 -> 187. Shares of
/// 0.3 alone: 435 / 197 with fewer modules mended; of 0.5 alone: nothing; of 0.2, 0.4 and
/// 0.6: 435 / 197, recast 398 / 186.
const STRIP_ACROSS: [f32; 4] = [-0.5, -0.25, 0.25, 0.5];

/// How far a strip is moved for its second look, as a share of its width, across and
/// along. Chosen on validation scenes (`models/strips.md`): 0.05, 0.1, 0.15 and 0.2 gave
/// 410, 412, 413 and 408 layouts exact of 480.
const STRIP_MOVE: f32 = 0.1;

/// What [`read_on_cards`] reads with: the networks, the player's gallery, and the pictures
/// of the print on their cards ([`super::print::print_looks`] of the gallery's print).
#[derive(Debug, Clone, Copy)]
pub struct OnCards<'a> {
    /// Embeds the strips, tokens and markers.
    pub embedder: &'a Embedder,
    /// Finds the tokens and markers on a card.
    pub tokens: &'a TokenFinder,
    /// Finds the strip beside a unit.
    pub strips: &'a StripFinder,
    /// Names them.
    pub gallery: &'a Gallery,
    /// Tells print on a card from a piece lying on it.
    pub prints: &'a LookAlikes,
    /// Tells a card's art from a piece lying on it.
    pub art: &'a FaceArt,
    /// The enrolled tokens' and markers' pictures, by which a spot that looks like none of
    /// them is told from a token ([`super::art::UNLIKE_ITS_PICTURE`]).
    pub token_looks: &'a LookAlikes,
    /// The enrolled modules' strips, which name a strip too close to call.
    pub strip_looks: &'a FaceLooks,
    /// The enrolled modules' strips in detail, which tell strips apart by small marks.
    pub strip_details: &'a StripLooks,
}

/// Reads what lies on and beside each named card and adds it to `pieces`: the tokens or
/// markers on it (found by the token finder; named among markers on a city and among tokens
/// on a unit) and, beside a unit's printed right edge, the strip of a module tucked under
/// it (found by the strip finder); each is embedded and named like a card, at its own bar
/// (a strip's by [`strip_bar`]). A strip or a token below its bar
/// ([`super::identify::Thresholds`]) is dropped,
/// not kept as unknown: most spots the finders report that match no enrolled face at all
/// are print on the card or the table, while a real piece that is hard to read is most
/// often too close to call between two faces, and is kept as unknown.
///
/// A spot the token finder saw only faintly ([`super::tokens::Spot::faint`]) is kept only
/// if it is named, at its own, higher bar (`thresholds.faint_small`): most such spots are
/// print, but some real tokens lie among them, on cards whose corners are a little off
/// (`models/tokens.md`). On validation scenes (seeds 12 / 11 / 13, decks 1 and 2), with
/// faint spots from a peak of 0.2 named at 0.7, tokens on the right unit rose from
/// 82.0 / 84.0 / 81.5 / 73.1 / 78.6% to 84.0 / 85.7 / 82.6 / 73.3 / 79.8%, and layouts
/// exact from 43.3 / 20.0 / 40.0 / 30.0 / 35.0% to 43.3 / 33.3 / 43.3 / 31.7 / 36.7%;
/// a bar of 0.6 found more tokens and more print (exact 41.7 / 33.3 / 43.3 / 28.3 / 35.0%).
/// Swept again on today's nine validation sets (480 scenes, 365 exact at 0.7): 0.6, 0.65
/// and 0.75 gave 360, 363 and 363. A bar of its own for markers on a city card, with 0.7
/// kept for tokens on units, gave 362 / 366 / 366 / 365 at 0.5 / 0.55 / 0.6 / 0.65 (at
/// 0.55 and 0.6 city states wrong in 13 scenes instead of 16, two of the three with other
/// faults too), and on the held-out sets 142 of 210 against 143 (a marker read that is not
/// there): not kept.
/// A spot where the card's own face has print that looks like a token, and that looks like
/// that print (`prints`, [`super::print::print_looks`] of the gallery's print), is held to
/// the same bar ([`super::print::print_likeness`]); one that looks like the print of a
/// unit it lies on as clearly as [`PRINT_SURE`] is left out. So is a token or marker,
/// however well named, that looks like the art of a unit or city it lies on, where it lies,
/// as clearly as [`super::art::ART_SURE`] ([`super::art`]): no piece lies there, the finder
/// saw the card; and a token named barely over its bar that looks like it fairly, or that
/// looks more like it than like the token it is named ([`art_bar`]).
/// And a token on a unit named under its bar, but by less than [`RESCUE_BELOW`], that looks
/// unlike the unit's art there (under [`NOT_ART`]) is kept: something lies there, and a
/// small or blurred token matches its enrolled picture only weakly; but not one the token
/// finder's first look saw only under its least peak ([`super::tokens::Spot::raised`]): on
/// the recast validation sets two such spots, where no token lay, were kept so. Likewise a
/// marker on a city named under its bar by less than [`CITY_RESCUE_BELOW`], with a clear
/// name, that looks unlike the city's print there: a marker lying on its printed place is
/// often named weakly ([`near_its_bar`]). A strip the strip finder holds is there whose
/// crop names no module at its bar is cut again moved across it ([`STRIP_ACROSS`]).
///
/// `first_markers` are the squares where a first analysis of the frame, under another light,
/// named markers ([`super::carried::marker_squares`]; none where this is the first): each is
/// read as a spot on the city it lies on where the token finder finds none near it.
pub fn read_on_cards(
    catalogue: &Catalogue,
    frame: &RgbImage,
    pieces: &mut Vec<Piece>,
    readers: &OnCards,
    first_markers: &[[[f32; 2]; 4]],
) -> Result<(), VisionError> {
    let OnCards {
        embedder,
        tokens,
        strips,
        gallery,
        prints,
        art,
        token_looks,
        strip_looks,
        strip_details,
    } = *readers;
    let first_new = pieces.len();
    let named: Vec<&Piece> = pieces
        .iter()
        .filter(|p| p.class == PieceClass::Card && p.id.is_some())
        .collect();
    // Modules lie under robots; under an Outpost unit only once Nestugov took one over, so
    // beside those a strip needs a clearer match.
    let units: Vec<(&Piece, bool)> = named
        .iter()
        .filter_map(|card| {
            let robot = match catalogue.card(card.id.as_deref()?).map(|c| c.kind) {
                Some(Kind::Robot) => true,
                Some(Kind::Soldier | Kind::Building) => false,
                _ => return None,
            };
            Some((*card, robot))
        })
        .collect();
    let unit_corners: Vec<[[f32; 2]; 4]> = units.iter().map(|(p, _)| p.corners).collect();
    // Each named card's face and corners, by which a spot that is its art is told apart
    // (where the gallery has its art: units' and cities').
    let art_faces: Vec<(String, [[f32; 2]; 4])> = named
        .iter()
        .filter_map(|p| Some((p.id.clone()?, p.corners)))
        .collect();
    let mut extra: Vec<Beside> = Vec::new();
    for ((card, robot), strip) in units.iter().zip(strips.find(frame, &unit_corners)?) {
        let Some(strip) = strip else {
            continue;
        };
        let Some(bar) = strip_bar(&gallery.thresholds, *robot, strip.presence) else {
            continue;
        };
        extra.push(Beside {
            class: PieceClass::Strip,
            corners: strip.corners,
            score: card.score,
            bar,
            on_city: false,
            faint: false,
            raised: false,
            there: strip.presence.is_some_and(|p| p >= STRIP_PRESENT),
        });
    }
    let corners: Vec<[[f32; 2]; 4]> = named.iter().map(|p| p.corners).collect();
    let cities: Vec<bool> = named.iter().map(|p| p.named_city()).collect();
    // The units a token may lie on unseen: those whose crop is less like their face.
    let unsure: Vec<bool> = named
        .iter()
        .map(|p| p.named_non_city() && p.similarity < TURNED_UNDER)
        .collect();
    let mut found = tokens.find_looking_again(frame, &corners, &cities, &unsure)?;
    super::carried::add_marker_spots(&mut found, &named, first_markers);
    for ((spots, card), &on_city) in found.into_iter().zip(&named).zip(&cities) {
        // More than eight pieces on one card is noise.
        for spot in spots.into_iter().take(8) {
            let print_of = |card: &Piece| {
                let id = card.id.as_deref()?;
                print_likeness(&gallery.print, prints, frame, id, &card.corners, &spot)
            };
            // Print of any card it lies on, as clear as on the face: that card's print,
            // whichever card's crop it was found in. (Not a city's: markers lie on the
            // city's printed places for them, and may look like what is printed there.)
            if named
                .iter()
                .zip(&cities)
                .filter(|&(_, &city)| !city)
                .any(|(other, _)| print_of(other).is_some_and(|l| l >= PRINT_SURE))
            {
                continue;
            }
            let on_print = print_of(card).is_some_and(|l| l >= PRINT_LIKENESS);
            let faint = spot.faint() || on_print;
            extra.push(Beside {
                class: PieceClass::Small,
                corners: spot.corners,
                score: 1.0,
                bar: if faint {
                    gallery.thresholds.faint_small
                } else {
                    gallery.thresholds.small
                },
                on_city,
                faint,
                raised: spot.raised,
                there: false,
            });
        }
    }
    let crops: Vec<RgbImage> = par::map(&extra, |b| crop(frame, b.class, &b.corners));
    let classes: Vec<PieceClass> = extra.iter().map(|b| b.class).collect();
    let mut embeddings = embedder.embed_classes(&classes, &crops)?;
    // Markers lie on cities and tokens on units: a small piece is named among those its
    // card can carry.
    // Each piece's similarities to the components it may be, as it was last named from.
    let admitted = |b: &Beside, sims: Vec<(String, f32)>| -> Vec<(String, f32)> {
        sims.into_iter()
            .filter(|(id, _)| b.class != PieceClass::Small || small_fits(id, b.on_city))
            .collect()
    };
    let mut sims: Vec<Vec<(String, f32)>> = extra
        .iter()
        .zip(&embeddings)
        .map(|(b, e)| admitted(b, gallery.similarities(b.class, e)))
        .collect();
    // Each is named at its own bar: a strip beside a robot where the strip finder holds a
    // module is there may be named below the class's least similarity.
    let name = |b: &Beside, sims: &[(String, f32)]| gallery.name_at(b.class, sims, |_| true, b.bar);
    let mut ids: Vec<Identity> = extra.iter().zip(&sims).map(|(b, s)| name(b, s)).collect();
    // A token or marker not named with a clear lead is looked at three more times, turned
    // by quarters (it lies at any angle, and its glyph reads differently each way), and
    // named by its mean similarities over the four; a faint spot only if its first crop
    // already clears its bar (the rest are print, dropped below).
    let unsure: Vec<usize> = (0..extra.len())
        .filter(|&i| extra[i].class == PieceClass::Small)
        .filter(|&i| ids[i].id.is_none() || ids[i].margin < SURE_SMALL_MARGIN)
        .filter(|&i| !extra[i].faint || ids[i].score >= extra[i].bar)
        .collect();
    let turned: Vec<RgbImage> = par::map(&unsure, |&i| quarter_turns(frame, &extra[i].corners))
        .into_iter()
        .flatten()
        .collect();
    let more = embedder.embed(PieceClass::Small, &turned)?;
    for (&i, three) in unsure.iter().zip(more.chunks(3)) {
        let four: Vec<&[f32; DIM]> = std::iter::once(&embeddings[i]).chain(three).collect();
        sims[i] = admitted(
            &extra[i],
            gallery.mean_similarities(PieceClass::Small, &four),
        );
        ids[i] = name(&extra[i], &sims[i]);
    }
    // A strip the strip finder holds is there, but that names no module at its bar, is cut
    // again moved across ([`STRIP_ACROSS`]), and read where a cut names a module best.
    let lost_strips: Vec<usize> = (0..extra.len())
        .filter(|&i| extra[i].class == PieceClass::Strip && extra[i].there)
        .filter(|&i| ids[i].score < extra[i].bar)
        .collect();
    let moved_quads: Vec<[[f32; 2]; 4]> = lost_strips
        .iter()
        .flat_map(|&i| {
            let quad = extra[i].corners;
            STRIP_ACROSS.map(|share| moved_across(&quad, share))
        })
        .collect();
    let moved_crops: Vec<RgbImage> = par::map(&moved_quads, |q| crop(frame, PieceClass::Strip, q));
    let moved = embedder.embed(PieceClass::Strip, &moved_crops)?;
    for ((&i, quads), embedded) in lost_strips
        .iter()
        .zip(moved_quads.chunks(STRIP_ACROSS.len()))
        .zip(moved.chunks(STRIP_ACROSS.len()))
    {
        for (quad, e) in quads.iter().zip(embedded) {
            let moved_sims = gallery.similarities(PieceClass::Strip, e);
            let moved_id = name(&extra[i], &moved_sims);
            if moved_id.score > ids[i].score {
                extra[i].corners = *quad;
                embeddings[i] = *e;
                sims[i] = moved_sims;
                ids[i] = moved_id;
            }
        }
    }
    // A strip named with a small lead, or kept as too close to call, is cut again a little
    // off where the strip finder put it, and named by its mean similarities over the crops.
    let unsure_strips: Vec<usize> = (0..extra.len())
        .filter(|&i| extra[i].class == PieceClass::Strip)
        .filter(|&i| led_by_less(&ids[i], extra[i].bar, SURE_STRIP_MARGIN))
        .collect();
    let quads: Vec<[[f32; 2]; 4]> = unsure_strips.iter().map(|&i| extra[i].corners).collect();
    let more = embed_moved(frame, PieceClass::Strip, &quads, STRIP_MOVE, embedder)?;
    for (&i, moved) in unsure_strips.iter().zip(more.chunks(MOVES)) {
        let all: Vec<&[f32; DIM]> = std::iter::once(&embeddings[i]).chain(moved).collect();
        sims[i] = gallery.mean_similarities(PieceClass::Strip, &all);
        ids[i] = name(&extra[i], &sims[i]);
    }
    // A strip still named with a small lead, or kept as too close to call, is compared
    // with the enrolled strips in detail, and named by both readings together (it keeps its
    // best similarity, which cleared its bar).
    let close_strips: Vec<usize> = (0..extra.len())
        .filter(|&i| extra[i].class == PieceClass::Strip)
        .filter(|&i| led_by_less(&ids[i], extra[i].bar, DETAIL_STRIP_MARGIN))
        .collect();
    let details = par::map(&close_strips, |&i| {
        strip_details.likenesses(frame, &extra[i].corners)
    });
    for (&i, detail) in close_strips.iter().zip(&details) {
        if let Some(module) = by_detail(&sims[i], detail) {
            ids[i].best = module.clone();
            ids[i].id = Some(module);
        }
    }
    // A strip still kept as too close to call between modules is compared with their
    // strips (it keeps its best similarity, which cleared its bar).
    for ((b, id), sims) in extra.iter().zip(&mut ids).zip(&sims) {
        if b.class != PieceClass::Strip || id.id.is_some() || id.score < b.bar {
            continue;
        }
        let Some(module) = name_strip(strip_looks, frame, &b.corners, sims, &gallery.thresholds)
        else {
            continue;
        };
        id.best = module.clone();
        id.id = Some(module);
    }
    let strips: Vec<(usize, f32)> = (0..extra.len())
        .filter(|&i| extra[i].class == PieceClass::Strip && ids[i].score >= extra[i].bar)
        .map(|i| (i, extra[i].bar))
        .collect();
    super::copies::name_strips(catalogue, gallery, &strips, &mut ids, &sims);
    // Each piece's last looks (its art and picture where they count), on the cores; the
    // kept ones added in order.
    let read: Vec<_> = extra.into_iter().zip(ids).zip(sims).collect();
    let kept = par::map(&read, |((b, id), sims)| {
        let Beside {
            class,
            corners,
            score,
            bar,
            on_city,
            faint,
            raised,
            there: _,
        } = *b;
        let mut id = id.clone();
        // How like its own token's picture the piece is: asked for at most once, and only
        // where a rule below needs it.
        let own_picture = OnceCell::new();
        let best = id.best.clone();
        let picture_likeness =
            || *own_picture.get_or_init(|| token_looks.likeness(frame, &corners, &best));
        let small = class == PieceClass::Small;
        let near_bar =
            small && near_its_bar(&id, bar, on_city, raised, gallery.thresholds.small_margin);
        // A faint spot on a unit named well under its bar, which two more looks may bear out.
        let far_under = small && well_under_its_bar(&id, bar, faint, on_city);
        // How like the art of the cards it lies on a token or marker is, where it lies.
        let art_here = if near_bar || far_under || (small && id.score >= bar) {
            art_faces
                .iter()
                .filter_map(|(id, quad)| art.likeness(frame, id, quad, &corners))
                .max_by(f32::total_cmp)
        } else {
            None
        };
        // A token or marker a little under its bar that is clearly not the art of its card:
        // something lies there, the piece it is most like (when that leads clearly; a marker
        // on a city only then).
        let not_art = unlike_art(art_here);
        // A faint spot well under its bar that is clearly not the art and is like its own
        // token's picture: the embedder's best, the art and the picture agree a token lies
        // there.
        let vouched_for = !near_bar && far_under && borne_out(art_here, picture_likeness);
        let rescued = (near_bar && not_art) || vouched_for;
        if rescued && id.margin >= gallery.thresholds.small_margin {
            id.id = Some(id.best.clone());
        }
        // Beside a unit there is usually no module at all: only a fair match counts as a
        // strip, named or (when too close to call) unknown. Likewise a spot the token finder
        // found that is like no enrolled token or marker is most likely print on the card
        // (a round icon), not a piece lying on it.
        if (id.score < bar && !rescued) || (faint && id.id.is_none()) {
            return None;
        }
        // The art of a card it lies on, seen clearly enough, or fairly where a token is
        // named barely: not a piece at all.
        if art_here.is_some_and(|l| l >= art_bar(id.score, bar, on_city)) {
            return None;
        }
        // A token that looks too little like its own picture: one that looks somewhat like
        // its unit's art there (the art, named as the token most like it), or one the
        // finder saw only faintly.
        let picture_bar = if faint {
            Some(FAINT_UNLIKE_ITS_PICTURE)
        } else if art_here.is_some_and(|l| l >= SOMEWHAT_ART) {
            Some(UNLIKE_ITS_PICTURE)
        } else {
            None
        };
        let unlike_its_picture = |bar: f32| picture_likeness().is_some_and(|l| l < bar);
        if small && !on_city && picture_bar.is_some_and(unlike_its_picture) {
            return None;
        }
        Some(Piece {
            class,
            corners,
            score,
            id: id.id,
            similarity: id.score,
            best: id.best,
            similarities: sims.clone(),
        })
    });
    pieces.extend(kept.into_iter().flatten());
    drop_repeats(pieces, first_new);
    Ok(())
}

/// The quad at `corners` moved by `share` of its first side's length along that side (for
/// a strip: across it, from its inner edge outwards).
fn moved_across(corners: &[[f32; 2]; 4], share: f32) -> [[f32; 2]; 4] {
    let across = [corners[1][0] - corners[0][0], corners[1][1] - corners[0][1]];
    corners.map(|p| [p[0] + share * across[0], p[1] + share * across[1]])
}

/// How many moved quads [`quad_moves`] gives.
const MOVES: usize = 4;

/// The embeddings of pieces of `class` at each of `quads` moved as [`quad_moves`] moves
/// them: [`MOVES`] for each quad, in order.
fn embed_moved(
    frame: &RgbImage,
    class: PieceClass,
    quads: &[[[f32; 2]; 4]],
    share: f32,
    embedder: &Embedder,
) -> Result<Vec<[f32; DIM]>, VisionError> {
    let crops: Vec<RgbImage> = par::map(quads, |q| {
        quad_moves(q, share).map(|moved| crop(frame, class, &moved))
    })
    .into_iter()
    .flatten()
    .collect();
    embedder.embed(class, &crops)
}

/// The quad at `corners` moved by `share` of its first side's length (a strip's width: inner
/// top to outer top; a card's width: top left to top right), along that side and along the
/// next, each way: [`MOVES`] quads of its shape.
fn quad_moves(corners: &[[f32; 2]; 4], share: f32) -> [[[f32; 2]; 4]; MOVES] {
    let across = [corners[1][0] - corners[0][0], corners[1][1] - corners[0][1]];
    let along = [corners[3][0] - corners[0][0], corners[3][1] - corners[0][1]];
    let moved = |a: f32, l: f32| {
        corners.map(|p| {
            [
                p[0] + a * across[0] + l * along[0],
                p[1] + a * across[1] + l * along[1],
            ]
        })
    };
    let l = share * across[0].hypot(across[1]) / along[0].hypot(along[1]).max(1.0);
    [
        moved(share, 0.0),
        moved(-share, 0.0),
        moved(0.0, l),
        moved(0.0, -l),
    ]
}

/// Drops a token or marker found twice: where cards overlap, the crop of each card shows
/// a piece lying over both. Of two tokens or markers (from `from` on) whose centres lie
/// within half a piece's side of each other, the better one stays: named before unknown,
/// then the more similar to its face.
fn drop_repeats(pieces: &mut Vec<Piece>, from: usize) {
    let small = |p: &Piece| p.class == PieceClass::Small;
    let mut keep = vec![true; pieces.len()];
    for i in from..pieces.len() {
        if !small(&pieces[i]) {
            continue;
        }
        for j in from..i {
            if !keep[j] || !small(&pieces[j]) {
                continue;
            }
            if !near_centre(&pieces[j].corners, pieces[i].center(), 0.5) {
                continue;
            }
            let rank = |p: &Piece| (p.id.is_some(), p.similarity);
            if rank(&pieces[i]) > rank(&pieces[j]) {
                keep[j] = false;
            } else {
                keep[i] = false;
                break;
            }
        }
    }
    let mut k = keep.into_iter();
    pieces.retain(|_| k.next().unwrap_or(true));
}

/// Whether a token or marker named `id` under its bar `bar` is near enough to it to be kept
/// where it looks unlike the card's art there ([`NOT_ART`]): a token on a unit named by
/// less than [`RESCUE_BELOW`] under it, not one the token finder's first look saw only under
/// its least peak (`raised`); a marker on a city (`on_city`) by less than
/// [`CITY_RESCUE_BELOW`], leading by `least_margin` (a marker kept so is named, never left
/// unknown).
fn near_its_bar(id: &Identity, bar: f32, on_city: bool, raised: bool, least_margin: f32) -> bool {
    if id.score >= bar {
        return false;
    }
    if on_city {
        id.score >= bar - CITY_RESCUE_BELOW
            && Token::from_component_id(&id.best).is_none()
            && id.margin >= least_margin
    } else {
        id.score >= bar - RESCUE_BELOW && Token::from_component_id(&id.best).is_some() && !raised
    }
}

/// Whether a spot the token finder saw only faintly on a unit (`faint`, not `on_city`) is
/// most like a token (not a marker), named `id` under its bar `bar` by less than
/// [`FAINT_REACH`]: a spot two more looks may bear out ([`borne_out`]), raised or not.
fn well_under_its_bar(id: &Identity, bar: f32, faint: bool, on_city: bool) -> bool {
    faint
        && !on_city
        && id.score < bar
        && id.score >= bar - FAINT_REACH
        && Token::from_component_id(&id.best).is_some()
}

/// Whether the looks at a faint spot well under its bar ([`well_under_its_bar`]) bear out
/// the token it is most like: its likeness to its unit's `art` there is under [`NOT_ART`],
/// and its likeness to that token's enrolled `picture` (asked only then, as it costs more)
/// is [`LIKE_ITS_PICTURE`] or more.
fn borne_out(art: Option<f32>, picture: impl FnOnce() -> Option<f32>) -> bool {
    unlike_art(art) && picture().is_some_and(|l| l >= LIKE_ITS_PICTURE)
}

/// Whether a spot's likeness to the `art` of the card it lies on, where it was asked, is
/// under [`NOT_ART`]: something other than the print lies there.
fn unlike_art(art: Option<f32>) -> bool {
    art.is_some_and(|l| l < NOT_ART)
}

/// The least similarity a strip beside a unit needs to be read as its module, or `None`
/// where the strip finder holds that there is no module at all (presence under
/// [`STRIP_ABSENT`]). Beside a robot it is `thresholds.strip`, or the lower
/// `thresholds.present_strip` where the strip finder holds a module there (presence
/// [`STRIP_PRESENT`] or more). Beside an Outpost unit a module lies only once Nestugov took
/// it over, so there it is the higher of `strip` and `outpost_strip`; but where the strip
/// finder holds a module there, `strip`, as beside a robot the finder is unsure of. On the
/// 31 rendered sets the modules Nestugov took over were named right at 0.50 to 0.60, under
/// the Outpost bar of 0.6, with leads of 0.15 to 0.28; reading them at `strip` where
/// present took layouts exact on the 1,050 unseen scenes from 866 to 872, validation (720)
/// the same, no scene lost, no more pieces named wrong (a bar of 0.5 there: 871).
fn strip_bar(thresholds: &Thresholds, robot: bool, presence: Option<f32>) -> Option<f32> {
    if presence.is_some_and(|p| p < STRIP_ABSENT) {
        return None;
    }
    let present = presence.is_some_and(|p| p >= STRIP_PRESENT);
    Some(match (robot, present) {
        (true, true) => thresholds.present_strip.min(thresholds.strip),
        (true, false) | (false, true) => thresholds.strip,
        (false, false) => thresholds.strip.max(thresholds.outpost_strip),
    })
}

/// A place on or beside a named card where a strip, token or marker may lie.
struct Beside {
    class: PieceClass,
    corners: [[f32; 2]; 4],
    /// The detection score the piece is given.
    score: f32,
    /// Least similarity that keeps it.
    bar: f32,
    /// Whether the card is a city.
    on_city: bool,
    /// Whether the token finder saw it only faintly: then it is kept only if named, at
    /// its own bar.
    faint: bool,
    /// Whether the token finder's first look saw it only under its least peak
    /// ([`super::tokens::Spot::raised`]): then it is not kept under its bar.
    raised: bool,
    /// Whether the strip finder holds that a module's strip is there (presence
    /// [`STRIP_PRESENT`] or more).
    there: bool,
}

/// Whether a small piece can lie on a card: markers on a city, tokens on a unit.
pub fn small_fits(id: &str, on_city: bool) -> bool {
    Token::from_component_id(id).is_some() != on_city
}

/// The same quadrilateral starting at the opposite corner.
pub fn half_turn(c: &[[f32; 2]; 4]) -> [[f32; 2]; 4] {
    [c[2], c[3], c[0], c[1]]
}

/// A card's printed axes in the image.
pub(crate) struct Frame {
    /// The printed top-left corner.
    pub origin: [f32; 2],
    /// From the middle of the left edge to the middle of the right edge.
    pub right: [f32; 2],
    /// From the middle of the top edge to the middle of the bottom edge.
    pub down: [f32; 2],
}

impl Frame {
    /// The axes of a card from its corners.
    pub fn of(c: &[[f32; 2]; 4]) -> Frame {
        Frame {
            origin: c[0],
            right: sub(midpoint(c[1], c[2]), midpoint(c[0], c[3])),
            down: sub(midpoint(c[3], c[2]), midpoint(c[0], c[1])),
        }
    }

    /// Position of a point in card units: (0,0) top-left, (1,1) bottom-right.
    pub fn local(&self, p: [f32; 2]) -> [f32; 2] {
        // Solve origin + u*right + v*down = p.
        let d = sub(p, self.origin);
        let det = self.right[0] * self.down[1] - self.right[1] * self.down[0];
        if det.abs() < 1e-6 {
            return [f32::NAN, f32::NAN];
        }
        [
            (d[0] * self.down[1] - d[1] * self.down[0]) / det,
            (self.right[0] * d[1] - self.right[1] * d[0]) / det,
        ]
    }

    /// Whether the card holds the point `p`, or it lies within `margin` card units of its
    /// edges (see [`on_card`]).
    pub fn holds(&self, p: [f32; 2], margin: f32) -> bool {
        on_card(self.local(p), margin)
    }
}

/// Whether a point at `l` in card units ([`Frame::local`]) lies on the card, or within
/// `margin` card units of its edges (0 for on it: from 0 up to, not at, 1 each way).
pub(crate) fn on_card(l: [f32; 2], margin: f32) -> bool {
    let span = -margin..1.0 + margin;
    span.contains(&l[0]) && span.contains(&l[1])
}

fn sub(a: [f32; 2], b: [f32; 2]) -> [f32; 2] {
    [a[0] - b[0], a[1] - b[1]]
}

/// The point a share `f` of the way from `a` to `b`.
pub(crate) fn lerp(a: [f32; 2], b: [f32; 2], f: f32) -> [f32; 2] {
    [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f]
}

/// The point halfway between two points.
pub(crate) fn midpoint(a: [f32; 2], b: [f32; 2]) -> [f32; 2] {
    [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0]
}

/// A placed unit while the layout is built.
struct Placed {
    piece: usize,
    city: CityId,
    side: Side,
    along: f32,
    unit: Unit,
}

/// How far inside a unit's printed top edge, as a share of its length, a token's centre
/// must lie for the token to be on that unit rather than on the card it covers.
///
/// In a column each card covers the lower part of the one before it, so its printed top
/// edge lies across that card, and a token on the card below may lie right beside that
/// edge. The edge is often placed a little too far out (the refiner takes some of the card
/// below for the card on top): a token counted on the card on top wherever its centre lay
/// within the quad, grown by a twentieth, was put on the wrong unit. On validation scenes
/// (canonical seeds 12 / 11 / 13, decks 1 and 2) a share of -0.05 (the grown quad) left
/// tokens on the right unit 95.0 / 96.3 / 96.8 / 90.3 / 94.0% and 156 of 240 layouts exact;
/// 0 and 0.05 left 158, with 95.0 / 96.3 / 97.6 / 90.5 / 94.5% at 0.05; 0.1 left 146 (tokens
/// on the card on top near its top edge went to the card below).
pub const ON_TOP_FROM: f32 = 0.05;

/// The unit a token centred at `c` lies on: of the units whose quad (grown by a
/// twentieth) holds it, the one on top (farthest from its city) among those where it lies
/// at least [`ON_TOP_FROM`] inside the printed top edge, else the one on top of them all;
/// `None` where no unit holds it.
fn token_host(placed: &[Placed], pieces: &[Piece], c: [f32; 2]) -> Option<usize> {
    let under: Vec<(usize, f32, f32)> = placed
        .iter()
        .enumerate()
        .filter_map(|(k, u)| {
            let l = Frame::of(&pieces[u.piece].corners).local(c);
            on_card(l, 0.05).then_some((k, u.along, l[1]))
        })
        .collect();
    let on_top = |inside: bool| {
        under
            .iter()
            .filter(|u| !inside || u.2 >= ON_TOP_FROM)
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|u| u.0)
    };
    on_top(true).or_else(|| on_top(false))
}

/// Builds the layout from identified pieces. Returns it and whether any city was seen.
/// Each piece placed that was named by a narrow margin is listed in its `doubts`
/// ([`close_calls`]), with the city it belongs to and, for a token or a module, the unit it
/// lies on or under; each place in a column where a card most likely lies unread, in its
/// `missing` ([`missing_cards`]).
pub fn assemble(catalogue: &Catalogue, pieces: &[Piece]) -> (Layout, bool) {
    let mut layout = Layout::default();
    let unknown = |p: &Piece, why: &str| UnknownPiece {
        kind: format!("{}{}", class_name(p.class), why),
        corners: Some(p.corners),
    };
    let mut unknowns = Vec::new();
    let mut doubts = Vec::new();
    let mut doubt = |p: &Piece, city: CityId, on: Option<&str>| {
        if let (Some(read), Some(could_be)) = (&p.id, close_calls::doubt(p)) {
            doubts.push(Doubt {
                read: read.clone(),
                could_be: could_be.to_string(),
                city: Some(city),
                on: on.map(String::from),
                corners: Some(p.corners),
            });
        }
    };

    // Cities: one card per city, the most confident.
    let mut cities: Vec<(CityId, bool, usize)> = Vec::new();
    for (i, p) in pieces.iter().enumerate() {
        let Some(id) = &p.id else { continue };
        if p.class != PieceClass::Card {
            continue;
        }
        let Some((city, destroyed)) = CityId::parse_face(id) else {
            continue;
        };
        match cities.iter_mut().find(|c| c.0 == city) {
            Some(existing) if pieces[existing.2].similarity >= p.similarity => {
                unknowns.push(unknown(p, ": a second copy of a city"));
            }
            Some(existing) => {
                unknowns.push(unknown(&pieces[existing.2], ": a second copy of a city"));
                *existing = (city, destroyed, i);
            }
            None => cities.push((city, destroyed, i)),
        }
    }
    cities.sort_by_key(|c| c.0);
    let city_frames: Vec<(CityId, Frame, [f32; 2])> = cities
        .iter()
        .map(|&(id, _, i)| (id, Frame::of(&pieces[i].corners), pieces[i].center()))
        .collect();

    // Units.
    let mut placed: Vec<Placed> = Vec::new();
    for (i, p) in pieces.iter().enumerate() {
        if p.class != PieceClass::Card {
            continue;
        }
        let Some(id) = &p.id else {
            unknowns.push(unknown(p, ""));
            continue;
        };
        let Some(card) = catalogue.card(id) else {
            continue;
        }; // a city
        let side = card.side;
        let c = p.center();
        let column = city_frames
            .iter()
            .filter_map(|(city, f, _)| {
                let (across, along) = beside(f, c)?;
                let right_side = (along > 0.0) == (side == Side::Moloch);
                right_side.then_some((*city, across, along.abs()))
            })
            .min_by(|a, b| a.1.total_cmp(&b.1));
        match column {
            Some((city, across, along)) if across < COLUMN_REACH => {
                doubt(p, city, None);
                let mut unit = Unit::new(id);
                unit.corners = Some(p.corners);
                placed.push(Placed {
                    piece: i,
                    city,
                    side,
                    along,
                    unit,
                });
            }
            _ => unknowns.push(unknown(p, &format!(": {id} beside no city"))),
        }
    }

    // Modules under units.
    for p in pieces.iter().filter(|p| p.class == PieceClass::Strip) {
        let Some(id) = &p.id else {
            unknowns.push(unknown(p, ""));
            continue;
        };
        let c = p.center();
        let host = placed
            .iter()
            .enumerate()
            .filter_map(|(k, u)| {
                let l = Frame::of(&pieces[u.piece].corners).local(c);
                let ok = (0.8..1.5).contains(&l[0])
                    && (0.0..1.0).contains(&l[1])
                    && u.unit.module.is_none();
                ok.then_some((k, (l[0] - 1.1).abs() + (l[1] - 0.5).abs()))
            })
            .min_by(|a, b| a.1.total_cmp(&b.1));
        match host {
            Some((k, _)) => {
                doubt(p, placed[k].city, Some(&placed[k].unit.card));
                let mut m = ModuleCard::new(id);
                m.corners = Some(p.corners);
                placed[k].unit.module = Some(m);
            }
            None => unknowns.push(unknown(p, &format!(": {id} under no unit"))),
        }
    }

    // Tokens on units, markers on cities.
    let mut city_marks: Vec<Vec<(String, Corners)>> = vec![Vec::new(); cities.len()];
    for p in pieces.iter().filter(|p| p.class == PieceClass::Small) {
        let Some(id) = &p.id else {
            unknowns.push(unknown(p, ""));
            continue;
        };
        let c = p.center();
        if let Some(token) = Token::from_component_id(id) {
            let host = token_host(&placed, pieces, c);
            match host {
                Some(k) => {
                    doubt(p, placed[k].city, Some(&placed[k].unit.card));
                    placed[k].unit.tokens.push(token);
                    placed[k].unit.token_corners.push(p.corners);
                }
                None => unknowns.push(unknown(p, &format!(": {id} on no unit"))),
            }
        } else {
            let host = city_frames.iter().position(|(_, f, _)| f.holds(c, 0.1));
            match host {
                Some(k) => {
                    doubt(p, cities[k].0, None);
                    city_marks[k].push((id.clone(), p.corners));
                }
                None => unknowns.push(unknown(p, &format!(": {id} on no city"))),
            }
        }
    }

    // The layout, in table order.
    placed.sort_by(|a, b| a.along.total_cmp(&b.along));
    for (k, &(id, destroyed, i)) in cities.iter().enumerate() {
        doubt(&pieces[i], id, None);
        let mut city = CityLayout::empty(id);
        city.destroyed = destroyed;
        city.corners = Some(pieces[i].corners);
        for (mark, corners) in &city_marks[k] {
            match mark.as_str() {
                "marker_destroyed_district" => city.districts_destroyed += 1,
                "marker_battle" => city.battle_marker = true,
                "marker_used_feature" => city.feature_used = true,
                "marker_extra_district" => city.extra_district = true,
                _ => {}
            }
            city.markers.push(Marker {
                kind: mark.clone(),
                corners: Some(*corners),
            });
        }
        third_district(catalogue, &mut city);
        for u in placed.iter().filter(|u| u.city == id) {
            city.side_mut(u.side).push(u.unit.clone());
        }
        layout.cities.push(city);
    }
    layout.unknown = unknowns;
    // In table order, as the warnings read best.
    doubts.sort_by_key(|d| d.city);
    layout.doubts = doubts;
    layout.missing = missing_cards::find(catalogue, pieces);
    (layout, !cities.is_empty())
}

/// Jersey Crust's feature is its third district (its token laid on the card): a standing
/// Jersey Crust that shows either the used-feature marker or the extra-district token has
/// both, whichever another marker covers. In a game the battle marker or a destroyed
/// district's marker often lies on the third district, right over its token. Rendered
/// scenes lay the token whenever the feature is used, as the rules have it (before session
/// 52 they left it out of 3 such scenes in 10). On those scenes, layouts exact went 630 ->
/// 640 of 720 on validation and 833 -> 859 of 1,050 on the unseen sets
/// (`models/README.md`), none lost, no more pieces named wrong.
fn third_district(catalogue: &Catalogue, city: &mut CityLayout) {
    let adds_one = catalogue.city(city.id).feature == Feature::ExtraDistrict;
    if adds_one && !city.destroyed && (city.feature_used || city.extra_district) {
        city.feature_used = true;
        city.extra_district = true;
    }
}

fn class_name(c: PieceClass) -> &'static str {
    match c {
        PieceClass::Card => "card",
        PieceClass::Strip => "module",
        PieceClass::Small => "token",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named_as(best: &str, score: f32, margin: f32) -> Identity {
        Identity {
            id: None,
            score,
            margin,
            best: best.to_string(),
        }
    }

    #[test]
    fn a_point_is_near_a_square_within_a_share_of_its_own_side_from_its_centre() {
        let square = [[0.0, 0.0], [20.0, 0.0], [20.0, 20.0], [0.0, 20.0]];
        assert!(near_centre(&square, [19.0, 10.0], 0.5));
        assert!(!near_centre(&square, [20.0, 10.0], 0.5));
        assert!(near_centre(&square, [10.0, 29.0], 1.0));
        assert!(!near_centre(&square, [10.0, 31.0], 1.0));
    }

    #[test]
    fn a_card_holds_the_points_on_it_and_within_its_margin() {
        // A card turned a quarter: its printed top edge runs down the image's right side.
        let card = Frame::of(&[[100.0, 0.0], [100.0, 60.0], [0.0, 60.0], [0.0, 0.0]]);
        assert!(card.holds([50.0, 30.0], 0.0));
        assert!(card.holds([99.0, 1.0], 0.0));
        // Just off its long edge: held only within a margin of a tenth of the card.
        assert!(!card.holds([50.0, 63.0], 0.0));
        assert!(card.holds([50.0, 63.0], 0.1));
        assert!(!card.holds([50.0, 69.0], 0.1));
        assert!(!card.holds([-5.0, 30.0], 0.0));
        // A point exactly on the far edges is past the card; a degenerate card holds none.
        assert!(!on_card([1.0, 0.5], 0.0));
        assert!(on_card([0.0, 0.5], 0.0));
        let flat = Frame::of(&[[0.0, 0.0], [10.0, 0.0], [10.0, 0.0], [0.0, 0.0]]);
        assert!(!flat.holds([5.0, 0.0], 0.5));
    }

    #[test]
    fn a_standing_jersey_crust_with_either_mark_of_its_feature_has_its_third_district() {
        let cat = Catalogue::bundled();
        let read = |id: CityId, used: bool, extra: bool, destroyed: bool| {
            let mut city = CityLayout::empty(id);
            (city.feature_used, city.extra_district, city.destroyed) = (used, extra, destroyed);
            third_district(&cat, &mut city);
            (city.feature_used, city.extra_district)
        };
        // The used-feature marker seen, the district's token covered; and the other way.
        assert_eq!(read(CityId::JerseyCrust, true, false, false), (true, true));
        assert_eq!(read(CityId::JerseyCrust, false, true, false), (true, true));
        // Neither seen: nothing is made up.
        assert_eq!(
            read(CityId::JerseyCrust, false, false, false),
            (false, false)
        );
        // A flipped city's markers are gone; what is seen there is left for the rules
        // to flag.
        assert_eq!(read(CityId::JerseyCrust, true, false, true), (true, false));
        // Another city's feature adds no district.
        assert_eq!(
            read(CityId::ClevelandHarbour, true, false, false),
            (true, false)
        );
    }

    #[test]
    fn a_strip_led_by_a_little_is_looked_at_again_and_one_led_by_less_compared_in_detail() {
        let bar = 0.4;
        let again = |score: f32, margin: f32| {
            let id = named_as("net_module", score, margin);
            (
                led_by_less(&id, bar, SURE_STRIP_MARGIN),
                led_by_less(&id, bar, DETAIL_STRIP_MARGIN),
            )
        };
        // Too close to call, or led by a little: cut again and compared in detail.
        assert_eq!(again(0.6, 0.0), (true, true));
        assert_eq!(again(0.6, 0.05), (true, true));
        // Led by 0.12: not cut again, but still compared in detail.
        assert_eq!(again(0.6, 0.12), (false, true));
        // Led clearly: as named.
        assert_eq!(again(0.6, 0.2), (false, false));
        // Under its bar: no strip to look at again.
        assert_eq!(again(0.3, 0.05), (false, false));
    }

    #[test]
    fn a_strip_moved_across_keeps_its_shape_and_moves_by_shares_of_its_width() {
        // A strip 20 wide (inner top to outer top) and 100 long, tilted.
        let strip = [[0.0, 0.0], [20.0, 0.0], [20.0, 100.0], [0.0, 100.0]];
        let out = moved_across(&strip, 0.5);
        for (a, b) in strip.iter().zip(&out) {
            assert!((b[0] - a[0] - 10.0).abs() < 1e-4 && (b[1] - a[1]).abs() < 1e-4);
        }
        let tilted = [[0.0, 0.0], [0.0, 20.0], [-100.0, 20.0], [-100.0, 0.0]];
        let back = moved_across(&tilted, -0.25);
        assert!((back[0][1] + 5.0).abs() < 1e-4 && (back[2][0] + 100.0).abs() < 1e-4);
        // The cuts go both ways, each inside one strip width.
        assert!(STRIP_ACROSS.iter().any(|&s| s < 0.0) && STRIP_ACROSS.iter().any(|&s| s > 0.0));
        assert!(STRIP_ACROSS.iter().all(|s| s.abs() <= 0.5));
    }

    #[test]
    fn a_faint_token_well_under_its_bar_is_kept_where_the_art_and_its_picture_bear_it_out() {
        let plus1 = |score| named_as("token_plus1", score, 0.2);
        // A faint spot on a unit, from FAINT_REACH under the faint bar of 0.7.
        assert!(well_under_its_bar(&plus1(0.5), 0.7, true, false));
        assert!(!well_under_its_bar(&plus1(0.4), 0.7, true, false));
        // Over its bar it needs nothing; a clear spot, or one on a city, is not such a spot,
        // nor one most like a marker.
        assert!(!well_under_its_bar(&plus1(0.72), 0.7, true, false));
        assert!(!well_under_its_bar(
            &named_as("marker_battle", 0.5, 0.2),
            0.7,
            true,
            false
        ));
        assert!(!well_under_its_bar(&plus1(0.5), 0.7, false, false));
        assert!(!well_under_its_bar(&plus1(0.5), 0.7, true, true));
        // Unlike the art and like its own picture: borne out.
        assert!(borne_out(Some(0.2), || Some(0.8)));
        // Like the art, or too little like its picture, or with either unknown: not.
        assert!(!borne_out(Some(0.6), || Some(0.8)));
        assert!(!borne_out(Some(0.2), || Some(0.6)));
        assert!(!borne_out(None, || Some(0.8)));
        assert!(!borne_out(Some(0.2), || None));
        // The costlier picture is not asked where the art already rules the spot out.
        assert!(!borne_out(Some(0.9), || panic!("the picture was asked")));
    }

    #[test]
    fn tokens_and_markers_a_little_under_their_bar_may_be_kept() {
        let m = 0.03;
        // A token on a unit: within RESCUE_BELOW, and not raised.
        assert!(near_its_bar(
            &named_as("token_plus1", 0.3, 0.2),
            0.4,
            false,
            false,
            m
        ));
        assert!(!near_its_bar(
            &named_as("token_plus1", 0.2, 0.2),
            0.4,
            false,
            false,
            m
        ));
        assert!(!near_its_bar(
            &named_as("token_plus1", 0.3, 0.2),
            0.4,
            false,
            true,
            m
        ));
        // Over its bar it needs no rescue; a marker is not a token on a unit.
        assert!(!near_its_bar(
            &named_as("token_plus1", 0.5, 0.2),
            0.4,
            false,
            false,
            m
        ));
        assert!(!near_its_bar(
            &named_as("marker_battle", 0.3, 0.2),
            0.4,
            false,
            false,
            m
        ));
        // A marker on a city: further under its bar, raised or not, but only named clearly.
        assert!(near_its_bar(
            &named_as("marker_battle", 0.53, 0.2),
            0.7,
            true,
            false,
            m
        ));
        assert!(near_its_bar(
            &named_as("marker_battle", 0.53, 0.2),
            0.7,
            true,
            true,
            m
        ));
        assert!(!near_its_bar(
            &named_as("marker_battle", 0.53, 0.01),
            0.7,
            true,
            false,
            m
        ));
        assert!(!near_its_bar(
            &named_as("marker_battle", 0.45, 0.2),
            0.7,
            true,
            false,
            m
        ));
        assert!(!near_its_bar(
            &named_as("token_plus1", 0.6, 0.2),
            0.7,
            true,
            false,
            m
        ));
    }

    #[test]
    fn a_strip_is_moved_across_and_along_by_its_own_width() {
        // A strip 20 wide and 100 long, turned a quarter (its width runs down the frame).
        let strip = [[50.0, 10.0], [50.0, 30.0], [-50.0, 30.0], [-50.0, 10.0]];
        let moves = quad_moves(&strip, 0.1);
        let shift = |q: &[[f32; 2]; 4]| {
            let d: Vec<[f32; 2]> = q
                .iter()
                .zip(&strip)
                .map(|(a, b)| [a[0] - b[0], a[1] - b[1]])
                .collect();
            // Every corner moves alike: the strip keeps its shape.
            assert!(d
                .iter()
                .all(|e| (e[0] - d[0][0]).abs() < 1e-4 && (e[1] - d[0][1]).abs() < 1e-4));
            d[0]
        };
        let shifts: Vec<[f32; 2]> = moves.iter().map(shift).collect();
        let near =
            |a: [f32; 2], b: [f32; 2]| (a[0] - b[0]).abs() < 1e-4 && (a[1] - b[1]).abs() < 1e-4;
        // 2 pixels (a tenth of its width) outwards and inwards, then along it each way.
        assert!(near(shifts[0], [0.0, 2.0]), "{shifts:?}");
        assert!(near(shifts[1], [0.0, -2.0]), "{shifts:?}");
        assert!(near(shifts[2], [-2.0, 0.0]), "{shifts:?}");
        assert!(near(shifts[3], [2.0, 0.0]), "{shifts:?}");
    }

    #[test]
    fn markers_fit_cities_and_tokens_fit_units() {
        for t in Token::ALL {
            assert!(small_fits(t.component_id(), false));
            assert!(!small_fits(t.component_id(), true));
        }
        for m in tablelens_engine::catalogue::MARKER_IDS {
            assert!(small_fits(m, true), "{m}");
            assert!(!small_fits(m, false), "{m}");
        }
    }

    /// A token 18 pixels wide centred at (x, y), named `id` (or unknown) with the given
    /// similarity to its best face.
    fn token(x: f32, y: f32, id: Option<&str>, similarity: f32) -> Piece {
        let mut p = upright_card(x, y, id, &[(id.unwrap_or("token_plus1"), similarity)]);
        p.class = PieceClass::Small;
        p.corners = [
            [x - 9.0, y - 9.0],
            [x + 9.0, y - 9.0],
            [x + 9.0, y + 9.0],
            [x - 9.0, y + 9.0],
        ];
        p.similarities.clear();
        p
    }

    #[test]
    fn a_strip_the_finder_holds_present_is_read_at_a_lower_bar() {
        let t = Thresholds::default();
        assert!(t.present_strip < t.strip);
        assert_eq!(strip_bar(&t, true, Some(0.99)), Some(t.present_strip));
        assert_eq!(strip_bar(&t, true, Some(0.5)), Some(t.strip));
        assert_eq!(strip_bar(&t, true, Some(0.01)), None);
        // A strip finder without the presence output reads every strip at the usual bar.
        assert_eq!(strip_bar(&t, true, None), Some(t.strip));
        // Beside an Outpost unit the bar is higher, unless the finder holds a module there.
        let outpost = t.strip.max(t.outpost_strip);
        assert!(outpost > t.strip);
        assert_eq!(strip_bar(&t, false, Some(0.99)), Some(t.strip));
        assert_eq!(strip_bar(&t, false, Some(0.5)), Some(outpost));
        assert_eq!(strip_bar(&t, false, None), Some(outpost));
        assert_eq!(strip_bar(&t, false, Some(0.01)), None);
    }

    #[test]
    fn only_unsure_cards_and_strips_are_turned() {
        let sure = upright_card(100.0, 100.0, Some("hornet"), &[("hornet", SURE_ONE_WAY)]);
        assert!(!worth_turning(&sure));
        let mut unsure = sure.clone();
        unsure.similarity = SURE_ONE_WAY - 0.01;
        assert!(worth_turning(&unsure));
        let mut unknown = sure.clone();
        unknown.id = None;
        assert!(worth_turning(&unknown));
        let mut strip = sure.clone();
        strip.class = PieceClass::Strip;
        assert!(worth_turning(&strip));
        assert!(!worth_turning(&token(50.0, 50.0, None, 0.2)));
    }

    #[test]
    fn a_token_right_at_the_top_edge_of_the_card_on_top_is_on_the_card_below() {
        let cat = Catalogue::bundled();
        // A city, and below it (the Outpost side) two upright units 90 long, the second
        // covering the first from y = 415 down.
        let city = upright_card(300.0, 300.0, Some("ziggy_one"), &[("ziggy_one", 0.9)]);
        let first = upright_card(300.0, 400.0, Some("commando"), &[("commando", 0.9)]);
        let second = upright_card(300.0, 460.0, Some("scout"), &[("scout", 0.9)]);
        let tokens_at = |ys: &[f32]| {
            let mut pieces = vec![city.clone(), first.clone(), second.clone()];
            pieces.extend(
                ys.iter()
                    .map(|&y| token(290.0, y, Some("token_plus1"), 0.9)),
            );
            let (layout, _) = assemble(&cat, &pieces);
            let units = &layout.cities[0].outpost;
            assert_eq!(units.len(), 2, "{units:?}");
            (units[0].tokens.len(), units[1].tokens.len())
        };
        // Well inside the card on top: on it.
        assert_eq!(tokens_at(&[440.0]), (0, 1));
        // Just outside its top edge, or just inside it (less than a twentieth of its
        // length): on the card below, which holds it well inside.
        assert_eq!(tokens_at(&[412.0]), (1, 0));
        assert_eq!(tokens_at(&[418.0]), (1, 0));
        // Just outside the first unit's own top edge, with no card under it: still on it.
        assert_eq!(tokens_at(&[353.0]), (1, 0));
        // Beside both: on neither.
        assert_eq!(tokens_at(&[600.0]), (0, 0));
    }

    #[test]
    fn the_pieces_read_by_a_narrow_margin_are_the_layouts_doubts_with_their_place() {
        let cat = Catalogue::bundled();
        let city = upright_card(
            300.0,
            300.0,
            Some("iron_gate"),
            &[("iron_gate", 0.9), ("iron_gate_destroyed", 0.88)],
        );
        // A unit named surely, one by a narrow margin, and a +2 on the first that was
        // nearly a +1.
        let sure = upright_card(
            300.0,
            400.0,
            Some("commando"),
            &[("commando", 0.9), ("trooper", 0.6)],
        );
        let close = upright_card(
            300.0,
            460.0,
            Some("scout"),
            &[("scout", 0.8), ("kid", 0.78)],
        );
        let mut plus2 = token(290.0, 380.0, Some("token_plus2"), 0.8);
        plus2.similarities = vec![("token_plus2".into(), 0.8), ("token_plus1".into(), 0.79)];
        // And a module beside the first unit's right edge, nearly another module.
        let mut strip = upright_card(
            336.0,
            400.0,
            Some("net_module"),
            &[("net_module", 0.7), ("combat_module", 0.68)],
        );
        strip.class = PieceClass::Strip;
        strip.corners = [
            [330.0, 355.0],
            [342.0, 355.0],
            [342.0, 445.0],
            [330.0, 445.0],
        ];
        let pieces = vec![city, sure, close.clone(), plus2.clone(), strip];
        let (layout, _) = assemble(&cat, &pieces);
        assert_eq!(layout.cities[0].outpost.len(), 2);
        assert_eq!(layout.cities[0].outpost[0].tokens, [Token::Plus2]);
        let module = layout.cities[0].outpost[0]
            .module
            .as_ref()
            .map(|m| m.card.as_str());
        assert_eq!(module, Some("net_module"));
        let listed: Vec<(&str, &str, Option<CityId>, Option<&str>)> = layout
            .doubts
            .iter()
            .map(|d| {
                (
                    d.read.as_str(),
                    d.could_be.as_str(),
                    d.city,
                    d.on.as_deref(),
                )
            })
            .collect();
        let g = Some(CityId::IronGate);
        assert_eq!(
            listed,
            [
                ("scout", "kid", g, None),
                ("net_module", "combat_module", g, Some("commando")),
                ("token_plus2", "token_plus1", g, Some("commando")),
                ("iron_gate", "iron_gate_destroyed", g, None),
            ]
        );
        assert_eq!(layout.doubts[0].corners, Some(close.corners));
        assert_eq!(layout.doubts[2].corners, Some(plus2.corners));
        // A piece that no city holds is no doubt of the layout: it is unknown there.
        let (alone, _) = assemble(&cat, &[close]);
        assert!(alone.doubts.is_empty());
        assert_eq!(alone.unknown.len(), 1);
    }

    #[test]
    fn a_token_seen_on_two_overlapping_cards_is_kept_once() {
        let card = upright_card(100.0, 100.0, Some("hornet"), &[("hornet", 0.9)]);
        let mut pieces = vec![
            card.clone(),
            token(50.0, 50.0, None, 0.5),
            // The same token seen again on another card, named this time.
            token(52.0, 49.0, Some("token_plus2"), 0.7),
            // Another token a whole side away.
            token(70.0, 50.0, Some("token_plus1"), 0.6),
            // Seen a third time, named but less alike.
            token(51.0, 51.0, Some("token_plus2"), 0.65),
        ];
        drop_repeats(&mut pieces, 1);
        let left: Vec<(f32, Option<&str>)> = pieces
            .iter()
            .map(|p| (p.center()[0], p.id.as_deref()))
            .collect();
        assert_eq!(
            left,
            vec![
                (100.0, Some("hornet")),
                (52.0, Some("token_plus2")),
                (70.0, Some("token_plus1")),
            ]
        );
        // Pieces before `from` are never touched, even when they coincide.
        let mut twice = vec![card.clone(), card];
        drop_repeats(&mut twice, 1);
        assert_eq!(twice.len(), 2);
    }

    #[test]
    fn a_card_named_surely_as_a_card_back_is_left_out_and_one_named_less_surely_is_unknown() {
        let back = crate::CARD_BACK;
        let mut sure = upright_card(100.0, 100.0, Some(back), &[(back, 0.9), ("scout", 0.5)]);
        sure.similarity = 0.9;
        let mut unsure = upright_card(300.0, 100.0, Some(back), &[(back, 0.62), ("scout", 0.5)]);
        unsure.similarity = 0.62;
        let scout = upright_card(500.0, 100.0, Some("scout"), &[("scout", 0.8), (back, 0.3)]);
        let mut pieces = vec![sure, unsure, scout];
        drop_backs(&mut pieces, 0.7);
        let ids: Vec<Option<&str>> = pieces.iter().map(|p| p.id.as_deref()).collect();
        assert_eq!(ids, [None, Some("scout")]);
        assert_eq!(
            pieces[0].corners,
            upright_card(300.0, 100.0, None, &[]).corners
        );
    }
}
