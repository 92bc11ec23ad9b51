//! Naming a unit card the embedder could not name by comparing it with the enrolled face
//! pictures themselves.
//!
//! The embedder reads a deck it never trained on less surely than its training decks
//! (`models/embedder.md`): on validation deck 1 about one unit in twenty is found but left
//! unknown, its best match a weak one, often another face. Yet the player enrolled the very
//! cards on the table, so a card's crop can be laid over each candidate face picture and
//! the two compared pixel by pixel. This stage does that for every card still unknown once
//! the embedder, the second look and naming by place are done: the card is cut from the
//! frame a little larger than its corners, both ways up, and the top of each unit face of
//! its column's side ([`TOP`] of the face: in a column the next card covers the rest) is
//! looked for in it at every shift of up to a tenth of the card. The likeness is the
//! normalised cross-correlation of each colour channel, averaged over the channels, so
//! that neither the light's brightness nor its colour counts. The best face names the card
//! when its likeness reaches `thresholds.face_match` and leads the best other face's by
//! `thresholds.face_match_lead` ([`super::identify::Thresholds`]).
//!
//! Only faces among the embedder's [`SHORTLIST`] nearest for the card may name it: the
//! picture alone named three more cards wrong on validation deck 1. A card the embedder
//! named with only a small lead over its side's next face is compared too, and renamed
//! where its picture clearly prefers another of those faces: on validation this cut the
//! cards named wrong from 11 to 7 ([`read_columns`]).
//!
//! **A card found surely.** A card the detector found surely but that neither the
//! embedder nor the picture names at its own bar is named by the face the picture finds it
//! most like, against every face of its side, where the embedder finds that face best too
//! (at [`AGREED_SIMILARITY`] and [`AGREED_LIKENESS`] or more: two readings of a different
//! kind agree), or where the picture alone is clear by far ([`CLEAR_LIKENESS`], ahead by
//! [`CLEAR_LEAD`]), whatever the embedder's shortlist ([`settled`]). On the 13
//! validation sets this named five units that had been left unknown, none wrong: layouts
//! exact 435 -> 435 of 480 on the nine sets, 199 -> 203 of 240 on the new decks; held out
//! 167 -> 168 of 210. Recast under a coloured light the new decks read 189 -> 190 and the
//! nine sets 397 -> 396: one frame, analysed again with the light taken out, was lit a
//! little differently once one more card was named, and its second look then took an
//! Assault Team for a Kid.
//!
//! **The embedder's next face.** A card the embedder named with a small lead
//! ([`NEXT_MARGIN`]) is renamed to the embedder's next face where the picture finds it
//! like that face ([`NEXT_LIKENESS`]), more so than like its name by [`NEXT_LEAD`], and
//! like no other face more: two readings of a different kind agree on it
//! ([`next_face_preferred`]). On validation this renamed two cards, both right.
//!
//! A module's strip is read the same way ([`name_strip`]), where the gallery has no strips
//! in detail ([`super::strip_detail`], which names such strips first): a strip the
//! embedder kept as too close to call between modules (their strips differ in a few
//! marks, and unlike decks blur them) is compared with the enrolled pictures of the strips of its
//! [`STRIP_SHORTLIST`] nearest modules, whole and one way up (the strip finder places it),
//! and named by the best where it is alike enough (`thresholds.strip_match`; a lead over the
//! runner-up, `thresholds.strip_match_lead`, is asked for no more since session 33).
//! On validation scenes this raised modules under the right unit from 92.5 / 98.7 / 96.3 /
//! 91.9 / 85.0% to 93.1 / 98.7 / 96.3 / 93.1 / 89.4% and layouts exact from 150 to 155
//! of 240, with no more strips named wrong (`models/strips.md`).
//!
//! Nothing here knows what any face looks like: the pictures are the player's own, kept
//! small in the gallery by `tablelens enroll` ([`FacePicture`]). On validation scenes
//! (seeds 12 / 11 / 13, decks 1 and 2) this stage raised layouts exact from 142 to 150 of
//! 240 with no more cards named wrong (`models/embedder.md` has the figures and the
//! variants tried).

use super::assemble::{centre, scaled, Piece};
use super::detect::{PieceClass, SURE_SCORE};
use super::dot::{dot, sum};
use super::identify::{best_and_lead, Thresholds};
use super::look_alike::Picture;
use super::resample::rectify;
use super::sides::{best_unit_face, city_frames, column_of, is_unit, is_unit_of};
use image::RgbImage;
use tablelens_engine::{Catalogue, Side};

/// Width in pixels of a card face's picture as the gallery keeps it.
pub const FACE_W: u32 = 30;
/// Height in pixels of a card face's picture as the gallery keeps it.
pub const FACE_H: u32 = 42;
/// Share of a face's height compared, from its top: in a column the next card covers the
/// rest (a unit shows at least 55% of its length on validation scenes).
pub const TOP: f32 = 0.55;
/// How much larger than the card's corners its window is cut, so that the face can be
/// looked for at shifts of up to a tenth of the card each way.
const GROW: f32 = 1.2;
/// How many of the faces the embedder found a card most like may name it: the picture
/// chooses among them, and is not trusted against the embedder's reading as a whole.
const SHORTLIST: usize = 4;
/// How many of the modules the embedder found a strip most like may name it.
const STRIP_SHORTLIST: usize = 3;
/// The least spread of a channel (in levels) a picture is normalised by: a flat channel
/// is not stretched into noise.
const MIN_SPREAD: f32 = 4.0;

/// An enrolled picture as the gallery keeps it, a unit's face or a module's strip (as
/// [`super::identify::face_crop`] cuts it), reduced to [`FACE_W`] x [`FACE_H`] pixels.
pub type FacePicture = Picture<FACE_W, FACE_H>;

/// Rows of a face compared.
fn top_rows() -> u32 {
    (TOP * FACE_H as f32).round() as u32
}

/// The `width` x `rows` region of `img` at `(x0, y0)`, each channel shifted to mean 0 and
/// scaled to spread 1, the whole divided by the square root of its length (so that the dot
/// product of two is their correlation averaged over the channels).
pub(crate) fn normalised(img: &RgbImage, x0: u32, y0: u32, width: u32, rows: u32) -> Vec<f32> {
    let n = (width * rows) as usize;
    let mut v = Vec::with_capacity(3 * n);
    let (raw, stride) = (img.as_raw(), img.width() as usize * 3);
    for c in 0..3 {
        let start = v.len();
        for y in y0..y0 + rows {
            let from = y as usize * stride + x0 as usize * 3;
            let row = &raw[from..from + width as usize * 3];
            v.extend(row.chunks_exact(3).map(|p| f32::from(p[c])));
        }
        let channel = &mut v[start..];
        let mean = sum(channel) / n as f32;
        channel.iter_mut().for_each(|a| *a -= mean);
        let var = dot(channel, channel) / n as f32;
        let scale = 1.0 / (var.sqrt().max(MIN_SPREAD) * ((3 * n) as f32).sqrt());
        channel.iter_mut().for_each(|a| *a *= scale);
    }
    v
}

/// Every enrolled card face's top (or every module's strip), ready to be compared with
/// cards (or strips) at the table.
#[derive(Debug, Clone, Default)]
pub struct FaceLooks {
    faces: Vec<(String, Vec<f32>)>,
    /// Rows of each picture compared, from its top.
    rows: u32,
}

/// How a card at the table matched the faces it may be.
#[derive(Debug, Clone, PartialEq)]
pub struct FaceMatch {
    /// The best matching face.
    pub id: String,
    /// Its likeness (correlation, -1..1).
    pub likeness: f32,
    /// The best likeness of any other face.
    pub runner_up: f32,
    /// Whether the card lies the other way up from its corners' order.
    pub turned: bool,
}

impl FaceLooks {
    /// Prepares the gallery's face pictures (unreadable ones are left out; the gallery
    /// refuses them when it is loaded).
    pub fn new(pictures: &[FacePicture]) -> FaceLooks {
        FaceLooks::comparing(pictures, top_rows())
    }

    /// Prepares the gallery's pictures of module strips, compared whole (a strip shows
    /// along the whole length of its robot).
    pub fn strips(pictures: &[FacePicture]) -> FaceLooks {
        FaceLooks::comparing(pictures, FACE_H)
    }

    fn comparing(pictures: &[FacePicture], rows: u32) -> FaceLooks {
        let faces = pictures
            .iter()
            .filter_map(|p| {
                Some((
                    p.id.clone(),
                    normalised(&p.image().ok()?, 0, 0, FACE_W, rows),
                ))
            })
            .collect();
        FaceLooks { faces, rows }
    }

    /// Whether no face is known.
    pub fn is_empty(&self) -> bool {
        self.faces.is_empty()
    }

    /// The face among those `allowed` that the card at `corners` looks most like, either
    /// way up; `None` if none is allowed.
    pub fn best(
        &self,
        frame: &RgbImage,
        corners: &[[f32; 2]; 4],
        allowed: impl Fn(&str) -> bool,
    ) -> Option<FaceMatch> {
        self.best_taken(frame, corners, allowed, &[false, true])
    }

    /// [`FaceLooks::best`], the piece at `corners` taken only the ways given (`true`:
    /// turned half round).
    fn best_taken(
        &self,
        frame: &RgbImage,
        corners: &[[f32; 2]; 4],
        allowed: impl Fn(&str) -> bool,
        ways: &[bool],
    ) -> Option<FaceMatch> {
        if !self.faces.iter().any(|(id, _)| allowed(id)) {
            return None;
        }
        self.best_in(&self.window(frame, corners, ways), allowed)
    }

    /// The face among those `allowed` that the piece cut as `window` looks most like;
    /// `None` if none is allowed.
    fn best_in(&self, window: &Window, allowed: impl Fn(&str) -> bool) -> Option<FaceMatch> {
        let faces: Vec<&(String, Vec<f32>)> =
            self.faces.iter().filter(|(id, _)| allowed(id)).collect();
        let best: Vec<(f32, bool)> = faces.iter().map(|(_, f)| window.likeness(f)).collect();
        let (top, &(likeness, turned)) = best
            .iter()
            .enumerate()
            .max_by(|a, b| a.1 .0.total_cmp(&b.1 .0))?;
        let id = &faces[top].0;
        let runner_up = best
            .iter()
            .zip(&faces)
            .filter(|(_, (other, _))| other != id)
            .map(|(b, _)| b.0)
            .fold(-1.0f32, f32::max);
        Some(FaceMatch {
            id: id.clone(),
            likeness,
            runner_up,
            turned,
        })
    }

    /// [`FaceLooks::best_in`] where the best face is one of `first` (faces among those
    /// `allowed`), else `None`; and `None` too where the best of `first` against the rest
    /// of `first` alone is not `worth` going on with (comparing it with the other faces
    /// could only lower its lead). Most cards stop there, having been compared with
    /// `first` only.
    fn best_of(
        &self,
        window: &Window,
        first: &[&str],
        allowed: impl Fn(&str) -> bool,
        worth: impl Fn(&FaceMatch) -> bool,
    ) -> Option<FaceMatch> {
        let (near, far): (Vec<_>, Vec<_>) = self
            .faces
            .iter()
            .filter(|(id, _)| allowed(id))
            .partition(|(id, _)| first.contains(&id.as_str()));
        if near.is_empty() {
            return None;
        }
        let near: Vec<(&String, (f32, bool))> = near
            .iter()
            .map(|(id, f)| (id, window.likeness(f)))
            .collect();
        let (top, &(id, (likeness, turned))) = near
            .iter()
            .enumerate()
            .max_by(|a, b| a.1 .1 .0.total_cmp(&b.1 .1 .0))?;
        let among_first = near
            .iter()
            .enumerate()
            .filter(|(k, _)| *k != top)
            .map(|(_, (_, b))| b.0)
            .fold(-1.0f32, f32::max);
        let mut m = FaceMatch {
            id: id.clone(),
            likeness,
            runner_up: among_first,
            turned,
        };
        if !worth(&m) {
            return None;
        }
        for (_, face) in far {
            let (other, _) = window.likeness(face);
            if other >= likeness {
                return None;
            }
            m.runner_up = m.runner_up.max(other);
        }
        Some(m)
    }

    /// The window of a piece at `corners`, [`GROW`] times its size, normalised at every
    /// shift, each way given (`true`: turned half round).
    fn window(&self, frame: &RgbImage, corners: &[[f32; 2]; 4], ways: &[bool]) -> Window {
        let (w, h) = (
            (FACE_W as f32 * GROW).round() as u32,
            (FACE_H as f32 * GROW).round() as u32,
        );
        let ways = ways
            .iter()
            .map(|&turned| {
                let k = if turned { 2 } else { 0 };
                let quad = [0, 1, 2, 3].map(|i| corners[(i + k) % 4]);
                let window = rectify(frame, &scaled(&quad, GROW), w, h);
                let placed = (0..=w - FACE_W)
                    .flat_map(|x| (0..=h - FACE_H).map(move |y| (x, y)))
                    .map(|(x, y)| normalised(&window, x, y, FACE_W, self.rows))
                    .collect();
                (turned, placed)
            })
            .collect();
        Window { ways }
    }
}

/// A piece's window, normalised at every shift, each way it was taken.
struct Window {
    ways: Vec<(bool, Vec<Vec<f32>>)>,
}

impl Window {
    /// A face's best likeness at any shift either way, and whether that was turned.
    fn likeness(&self, face: &[f32]) -> (f32, bool) {
        let mut best = (f32::MIN, false);
        for (turned, placed) in &self.ways {
            for v in placed {
                let s = dot(v, face);
                if s > best.0 {
                    best = (s, *turned);
                }
            }
        }
        best
    }
}

/// The `n` faces among those `allowed` that the embedder found a piece most similar to,
/// from its similarities to every face.
fn shortlist(
    similarities: &[(String, f32)],
    n: usize,
    allowed: impl Fn(&str) -> bool,
) -> Vec<&str> {
    let mut near: Vec<&(String, f32)> = similarities.iter().filter(|(id, _)| allowed(id)).collect();
    near.sort_by(|a, b| b.1.total_cmp(&a.1));
    near.into_iter()
        .take(n)
        .map(|(id, _)| id.as_str())
        .collect()
}

/// How far the embedder's best unit face of `side` leads its next one for a card
/// (infinite where it has no unit face of the side at all).
fn side_margin(catalogue: &Catalogue, similarities: &[(String, f32)], side: Side) -> f32 {
    best_unit_face(catalogue, similarities, side).map_or(f32::INFINITY, |(_, _, lead)| lead)
}

/// Reads the cards of the columns by the enrolled unit faces of their side:
/// - a card still unknown is named by the face it looks most like, where that face is
///   clear enough (`thresholds.face_match`, with a lead of `thresholds.face_match_lead`);
/// - a card the embedder named with a lead under `thresholds.face_check_margin` over its
///   next face of the side is renamed where the picture clearly prefers another face
///   (`thresholds.face_overrule`, with a lead of `thresholds.face_overrule_lead`);
/// - a card so named that the picture finds more like the embedder's next face than like
///   its name is renamed to that face where the embedder hesitated between the two
///   ([`next_face_preferred`]).
///
/// Only a face among the embedder's [`SHORTLIST`] nearest may name a card (but for one
/// still unknown that the detector found surely: [`found_surely`]), and never a face of
/// which the table already shows every copy on other cards ([`super::copies::spent`]):
/// the card is then most often the runner-up. A card
/// found turned gets its corners turned too. The card's similarity becomes the embedder's
/// to its new face, so that a card named surely by the embedder keeps its name against it
/// ([`super::copies`]).
pub fn read_columns(
    catalogue: &Catalogue,
    frame: &RgbImage,
    pieces: &mut [Piece],
    looks: &FaceLooks,
    thresholds: &Thresholds,
) {
    if looks.is_empty() {
        return;
    }
    let cities = city_frames(pieces);
    if cities.is_empty() {
        return;
    }
    let to_read: Vec<(usize, Side)> = pieces
        .iter()
        .enumerate()
        .filter(|(_, p)| p.class == PieceClass::Card)
        .filter_map(|(i, p)| Some((i, column_of(&cities, centre(&p.corners))?.1)))
        .filter(|&(i, side)| match &pieces[i].id {
            None => true,
            Some(id) => {
                is_unit_of(catalogue, id, side)
                    && side_margin(catalogue, &pieces[i].similarities, side)
                        < thresholds.face_check_margin
            }
        })
        .collect();
    let shown = super::copies::shown(PieceClass::Card, pieces);
    let found = super::par::map(&to_read, |&(i, side)| {
        let own = pieces[i].id.as_deref();
        let allowed = |face: &str| {
            is_unit_of(catalogue, face, side) && !super::copies::spent(catalogue, &shown, face, own)
        };
        let clear = |m: &FaceMatch| {
            let lead = m.likeness - m.runner_up;
            match &pieces[i].id {
                None => m.likeness >= thresholds.face_match && lead >= thresholds.face_match_lead,
                Some(named) => {
                    m.id != *named
                        && m.likeness >= thresholds.face_overrule
                        && lead >= thresholds.face_overrule_lead
                }
            }
        };
        let shortlist = shortlist(&pieces[i].similarities, SHORTLIST, allowed);
        // Cut once, and compared with as many faces as each reading below asks.
        let window = looks.window(frame, &pieces[i].corners, &[false, true]);
        if found_surely(&pieces[i]) {
            // Compared once with every face of its side: a card found surely may be named
            // outside the shortlist too.
            let m = looks.best_in(&window, allowed)?;
            let listed = shortlist.contains(&m.id.as_str()) && clear(&m);
            let embedded =
                best_and_lead(&pieces[i].similarities, allowed).map(|(face, s, _)| (face, s));
            return (listed || settled(&m, embedded)).then_some(m);
        }
        // The best face must be one of the shortlist: compared with those first.
        let m = looks.best_of(&window, &shortlist, allowed, clear);
        if let Some(m) = m.filter(clear) {
            return Some(m);
        }
        let named = pieces[i].id.as_deref()?;
        next_face_preferred(looks, &window, &pieces[i], named, allowed)
    });
    for ((i, _), m) in to_read.into_iter().zip(found) {
        let Some(m) = m else { continue };
        let p = &mut pieces[i];
        if m.turned {
            p.corners = [2, 3, 0, 1].map(|k| p.corners[k]);
        }
        p.similarity = p
            .similarities
            .iter()
            .find(|(id, _)| *id == m.id)
            .map_or(0.0, |(_, s)| *s);
        p.best = m.id.clone();
        p.id = Some(m.id);
    }
}

/// The least similarity of the embedder's best face, and the least likeness of the
/// picture's, at which a card found surely but left unknown is named where the two agree
/// ([`settled`]).
pub const AGREED_SIMILARITY: f32 = 0.4;
/// See [`AGREED_SIMILARITY`].
pub const AGREED_LIKENESS: f32 = 0.35;
/// The least likeness, and lead over every other face of its side, at which the picture
/// alone names a card found surely but left unknown, whatever the embedder found it most
/// like ([`settled`]).
pub const CLEAR_LIKENESS: f32 = 0.6;
/// See [`CLEAR_LIKENESS`].
pub const CLEAR_LEAD: f32 = 0.15;

/// The lead of a card's name over the embedder's next face under which the picture may
/// rename it to that face ([`next_face_preferred`]).
pub const NEXT_MARGIN: f32 = 0.15;
/// The least likeness of the picture to the embedder's next face at which it renames a
/// card ([`next_face_preferred`]).
pub const NEXT_LIKENESS: f32 = 0.6;
/// The least lead of the picture's likeness to the embedder's next face over its likeness
/// to the card's name at which it renames the card ([`next_face_preferred`]).
pub const NEXT_LEAD: f32 = 0.08;

/// The embedder's next face for a card `named` (the face of those `allowed`, other than
/// its name, it found the card most similar to), where the picture finds the card like
/// that face ([`NEXT_LIKENESS`] or more) and more like it than like its name by
/// [`NEXT_LEAD`], and no face of those allowed more: the two readings then agree on that
/// face. The embedder must have hesitated: its lead for the name under [`NEXT_MARGIN`].
/// The card is compared as `window`, the window [`read_columns`] cut for all its readings.
///
/// On the 13 validation sets, of the 1,892 units named with a lead under
/// `thresholds.face_check_margin`, 25 were named wrong; the picture's favourite was the
/// embedder's next face in 13 of them, and the overrule by the picture alone renamed 8.
/// This renames two more, right (layouts exact 435 -> 436 of 480 on the nine sets,
/// 203 -> 204 of 240 on the new decks), and no card named right: the one such card whose
/// picture prefers its next face as much (a Steelhound of deck 11, 0.34 more like an
/// Annihilator) was named by the embedder 0.25 ahead. Any margin from 0.1 to 0.22 reads
/// the validation sets alike; 0.15 lies between. Held out: 168 -> 168 of 210, and decks
/// 13 to 16 176 -> 178 of 240; recast under a coloured light, the nine sets 396 -> 397
/// and the new decks 190 -> 191.
fn next_face_preferred(
    looks: &FaceLooks,
    window: &Window,
    piece: &Piece,
    named: &str,
    allowed: impl Fn(&str) -> bool + Copy,
) -> Option<FaceMatch> {
    let (next, similarity, _) =
        best_and_lead(&piece.similarities, |face| face != named && allowed(face))?;
    let own = piece
        .similarities
        .iter()
        .find(|(face, _)| face == named)
        .map_or(0.0, |(_, s)| *s);
    if own - similarity >= NEXT_MARGIN {
        return None;
    }
    let pair = looks.best_in(window, |face| face == next || face == named)?;
    if pair.id != next
        || pair.likeness < NEXT_LIKENESS
        || pair.likeness - pair.runner_up < NEXT_LEAD
    {
        return None;
    }
    let m = looks.best_in(window, allowed)?;
    (m.id == next).then_some(m)
}

/// Whether a card is still unknown though the detector found it surely ([`SURE_SCORE`]).
/// Such a card is compared with every face its column's side may show (its side's units
/// not all shown elsewhere), not only with the embedder's shortlist, and is named by the
/// face the picture finds it most like where that face is clear and in the shortlist, as
/// any card is, or else where it is [`settled`].
///
/// On the 13 validation sets, of the cards left unknown in columns whose two readings
/// agreed, the four found at a detector score of 0.35 or more (0.46 to 0.59) were all that
/// face; the eight found less surely (0.07 to 0.18) lay on another unit or on none in all
/// but one. Of the unknown cards whose picture led by 0.1 or more at 0.55 or more, every
/// one was that face; all but one were in the shortlist, and so already named.
fn found_surely(piece: &Piece) -> bool {
    piece.id.is_none() && piece.score >= SURE_SCORE
}

/// Whether the picture's best face `m` names a card found surely ([`found_surely`]),
/// given the embedder's best face of the same faces and its similarity, where
/// - the embedder agrees: its best face is the same, at [`AGREED_SIMILARITY`] or more, and
///   the picture's likeness is [`AGREED_LIKENESS`] or more (each reading is under its own
///   bar, but two readings of a different kind agree); or
/// - the picture is clear alone: a likeness of [`CLEAR_LIKENESS`] or more, ahead of every
///   other face by [`CLEAR_LEAD`] (the embedder's shortlist then does not bind it).
fn settled(m: &FaceMatch, embedded: Option<(&str, f32)>) -> bool {
    let agreed = embedded.is_some_and(|(face, s)| {
        face == m.id && s >= AGREED_SIMILARITY && m.likeness >= AGREED_LIKENESS
    });
    let clear = m.likeness >= CLEAR_LIKENESS && m.likeness - m.runner_up >= CLEAR_LEAD;
    agreed || clear
}

/// Units named under [`UNLIKE_BELOW`] are compared with their face ([`drop_unlike`]).
pub const UNLIKE_BELOW: f32 = 0.7;

/// The likeness to its own face under which a unit named weakly is dropped
/// ([`drop_unlike`]). On the nine validation sets (480 scenes), of the units named under
/// 0.7 at the end of the analysis, 476 lay on a card of that name, at likenesses of 0.25
/// to 0.97 (5% under 0.43); 14 lay where no unit was, at 0.08 to 0.62 (half under 0.3,
/// the lowest on bare cloth or on another game's card back), and 15 on another unit.
/// Layouts exact, against 399 without the check: 401 at 0.2 and 0.25, 402 at 0.3 (five
/// scenes gained, two lost with a real unit); the same scenes under a coloured light 375
/// -> 377 at 0.2 and 379 at 0.3. The lowest is kept: a real unit seen worse than on
/// rendered scenes must not be lost.
pub const UNLIKE: f32 = 0.2;

/// Drops each unit card named under [`UNLIKE_BELOW`] whose crop looks like its own
/// enrolled face, either way up, less than [`UNLIKE`]: no card of that name lies there
/// (most often the table's cloth, or a card back the player did not enrol). Nothing
/// happens without face pictures (an older gallery).
pub fn drop_unlike(
    catalogue: &Catalogue,
    frame: &RgbImage,
    pieces: &mut Vec<Piece>,
    looks: &FaceLooks,
) {
    if looks.is_empty() {
        return;
    }
    let weak_unit = |p: &Piece| {
        p.class == PieceClass::Card
            && p.similarity < UNLIKE_BELOW
            && p.id.as_deref().is_some_and(|id| is_unit(catalogue, id))
    };
    let unlike = super::par::map(pieces, |p| {
        weak_unit(p) && {
            let id = p.id.as_deref().unwrap_or_default();
            looks
                .best(frame, &p.corners, |face| face == id)
                .is_some_and(|m| m.likeness < UNLIKE)
        }
    });
    let mut k = unlike.into_iter();
    pieces.retain(|_| !k.next().unwrap_or(false));
}

/// The module whose strip the strip at `corners` (as the strip finder placed it beside
/// its robot) looks like, among the [`STRIP_SHORTLIST`] modules the embedder found it most
/// similar to (`similarities`), where it is alike enough (`thresholds.strip_match`, with a
/// lead of `thresholds.strip_match_lead`, none by default); `None` otherwise. For a strip
/// the embedder kept as too close to call: most often two modules whose strips differ in a
/// few marks.
pub fn name_strip(
    looks: &FaceLooks,
    frame: &RgbImage,
    corners: &[[f32; 2]; 4],
    similarities: &[(String, f32)],
    thresholds: &Thresholds,
) -> Option<String> {
    let near = shortlist(similarities, STRIP_SHORTLIST, |_| true);
    let m = looks.best_taken(frame, corners, |id| near.contains(&id), &[false])?;
    let clear = m.likeness >= thresholds.strip_match
        && m.likeness - m.runner_up >= thresholds.strip_match_lead;
    clear.then_some(m.id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perceive::assemble::upright_card as card;
    use crate::perceive::identify::{face_crop, STRIP_SHARE};
    use crate::render;
    use image::{imageops, Rgb};

    /// Outpost soldiers' faces of the canonical deck.
    fn soldiers(cat: &Catalogue) -> Vec<(String, RgbImage)> {
        ["commando", "hacker", "runner", "kid", "scout", "trooper"]
            .iter()
            .map(|id| (id.to_string(), render::face(cat, id, 0).expect("a face")))
            .collect()
    }

    fn looks(faces: &[(String, RgbImage)]) -> FaceLooks {
        let pictures: Vec<FacePicture> = faces
            .iter()
            .map(|(id, img)| FacePicture::of(id, img))
            .collect();
        FaceLooks::new(&pictures)
    }

    /// A grey table with `face` drawn 60x90 at top left `(x, y)`, in a dimmer and warmer
    /// light than it was enrolled in.
    fn table_with(face: &RgbImage, x: i64, y: i64) -> RgbImage {
        let mut frame = RgbImage::from_pixel(600, 700, Rgb([70, 75, 80]));
        let mut card = imageops::resize(face, 60, 90, imageops::FilterType::Triangle);
        for p in card.pixels_mut() {
            let [r, g, b] = p.0;
            *p = Rgb([
                (f32::from(r) * 0.8 + 20.0) as u8,
                (f32::from(g) * 0.75) as u8,
                (f32::from(b) * 0.6) as u8,
            ]);
        }
        imageops::overlay(&mut frame, &card, x, y);
        frame
    }

    #[test]
    fn a_weakly_named_unit_unlike_its_face_is_dropped() {
        let cat = Catalogue::bundled();
        let faces = soldiers(&cat);
        let looks = looks(&faces);
        // The commando's face at (100, 100); a checked cloth far from it.
        let mut frame = table_with(&faces[0].1, 100, 100);
        for (x, y, p) in frame.enumerate_pixels_mut() {
            if x >= 300 && y >= 300 && (x / 7 + y / 5) % 2 == 0 {
                *p = Rgb([150, 120, 60]);
            }
        }
        let mut pieces = vec![
            // On its face, named weakly: stays.
            card(130.0, 145.0, Some("commando"), &[("commando", 0.6)]),
            // On the cloth, named weakly: dropped.
            card(400.0, 450.0, Some("hacker"), &[("hacker", 0.6)]),
            // On the cloth, named surely: left to the embedder.
            card(500.0, 450.0, Some("kid"), &[("kid", 0.8)]),
            // Not a unit, and unknown: untouched.
            card(400.0, 600.0, Some("iron_gate"), &[("iron_gate", 0.3)]),
            card(500.0, 600.0, None, &[("runner", 0.4)]),
        ];
        drop_unlike(&cat, &frame, &mut pieces, &looks);
        let ids: Vec<Option<&str>> = pieces.iter().map(|p| p.id.as_deref()).collect();
        assert_eq!(
            ids,
            [Some("commando"), Some("kid"), Some("iron_gate"), None]
        );
        // Without face pictures nothing is dropped.
        let mut all = vec![card(400.0, 450.0, Some("hacker"), &[("hacker", 0.6)])];
        drop_unlike(&cat, &frame, &mut all, &FaceLooks::new(&[]));
        assert_eq!(all.len(), 1);
    }

    #[test]
    fn a_face_picture_round_trips_and_a_bad_one_is_an_error() {
        let cat = Catalogue::bundled();
        let face = render::face(&cat, "commando", 0).expect("a face");
        let picture = FacePicture::of("commando", &face);
        let img = picture.image().expect("readable");
        assert_eq!(img.dimensions(), (FACE_W, FACE_H));
        assert_eq!(FacePicture::of("commando", &img).rgb, picture.rgb);
        let short = FacePicture {
            rgb: picture.rgb[..100].to_string(),
            ..picture.clone()
        };
        assert!(short.image().unwrap_err().contains("commando"));
        let garbled = FacePicture {
            rgb: picture.rgb.replacen('0', "g", 1),
            ..picture
        };
        assert!(garbled.image().is_err());
        // An unreadable picture is left out rather than compared.
        assert!(FaceLooks::new(&[short, garbled]).is_empty());
    }

    #[test]
    fn a_card_is_found_among_faces_with_its_corners_off_and_either_way_up() {
        let cat = Catalogue::bundled();
        let faces = soldiers(&cat);
        let looks = looks(&faces);
        for (id, face) in &faces {
            let frame = table_with(face, 270, 355);
            // Corners found 4 px off the card's, as the detector's often are.
            let corners = card(304.0, 396.0, None, &[]).corners;
            let m = looks.best(&frame, &corners, |_| true).expect("a match");
            assert_eq!((&m.id, m.turned), (id, false), "{m:?}");
            assert!(m.likeness > 0.8 && m.likeness - m.runner_up > 0.1, "{m:?}");
            // The same card with its corners listed from the other end.
            let turned = [2, 3, 0, 1].map(|k| corners[k]);
            let m = looks.best(&frame, &turned, |_| true).expect("a match");
            assert_eq!((&m.id, m.turned), (id, true), "{m:?}");
            // Only the faces allowed compete.
            let m = looks.best(&frame, &corners, |f| f != id).expect("a match");
            assert_ne!(&m.id, id);
            assert!(looks.best(&frame, &corners, |_| false).is_none());
        }
    }

    /// A city at (300, 300) and, below it in its Outpost column, a card the embedder left
    /// unknown with `similarities`, on a table where the commando lies there.
    fn unknown_in_column(similarities: &[(&str, f32)]) -> (RgbImage, Vec<Piece>) {
        let cat = Catalogue::bundled();
        let face = render::face(&cat, "commando", 0).expect("a face");
        let frame = table_with(&face, 270, 355);
        let city = card(300.0, 300.0, Some("ziggy_one"), &[("ziggy_one", 0.9)]);
        let mut unknown = card(303.0, 402.0, None, similarities);
        unknown.similarity = 0.4;
        (frame, vec![city, unknown])
    }

    #[test]
    fn a_card_named_with_a_small_lead_is_renamed_only_where_its_face_clearly_disagrees() {
        let cat = Catalogue::bundled();
        let looks = looks(&soldiers(&cat));
        let thresholds = Thresholds::default();
        // The commando lies there; the embedder named it a hacker, 0.05 ahead.
        let sims = [("hacker", 0.6), ("commando", 0.55), ("kid", 0.3)];
        let (frame, mut pieces) = unknown_in_column(&sims);
        pieces[1].id = Some("hacker".into());
        read_columns(&cat, &frame, &mut pieces, &looks, &thresholds);
        assert_eq!(pieces[1].id.as_deref(), Some("commando"));
        assert_eq!(pieces[1].similarity, 0.55);
        // Named with a lead the embedder is sure of, it is not compared.
        let sure = [("hacker", 0.8), ("commando", 0.55)];
        let (frame, mut pieces) = unknown_in_column(&sure);
        pieces[1].id = Some("hacker".into());
        read_columns(&cat, &frame, &mut pieces, &looks, &thresholds);
        assert_eq!(pieces[1].id.as_deref(), Some("hacker"));
        // Named right, it keeps its name.
        let right = [("commando", 0.6), ("hacker", 0.55)];
        let (frame, mut pieces) = unknown_in_column(&right);
        pieces[1].id = Some("commando".into());
        read_columns(&cat, &frame, &mut pieces, &looks, &thresholds);
        assert_eq!(pieces[1].id.as_deref(), Some("commando"));
    }

    #[test]
    fn a_card_named_is_renamed_where_the_picture_prefers_the_embedder_s_next_face() {
        let cat = Catalogue::bundled();
        let looks = looks(&soldiers(&cat));
        // The overrule by the picture alone never fires.
        let timid = Thresholds {
            face_overrule_lead: 2.0,
            ..Thresholds::default()
        };
        let read = |sims: &[(&str, f32)]| {
            let (frame, mut pieces) = unknown_in_column(sims);
            pieces[1].id = Some("hacker".into());
            read_columns(&cat, &frame, &mut pieces, &looks, &timid);
            pieces[1].id.clone()
        };
        // The commando lies there, the embedder's next face after the hacker: renamed.
        let next = [("hacker", 0.6), ("commando", 0.6 - NEXT_MARGIN + 0.01)];
        assert_eq!(read(&next).as_deref(), Some("commando"));
        // The embedder's lead for the hacker too large for the picture to overrule.
        let sure = [("hacker", 0.6), ("commando", 0.6 - NEXT_MARGIN - 0.01)];
        assert_eq!(read(&sure).as_deref(), Some("hacker"));
        // Another face next: the two readings do not agree, and the picture alone does
        // not overrule the embedder by less than the overrule's lead.
        let other = [("hacker", 0.6), ("kid", 0.55), ("commando", 0.5)];
        assert_eq!(read(&other).as_deref(), Some("hacker"));
        // The commando's every copy shown elsewhere: no face is next, and the name stays.
        let (frame, mut pieces) = unknown_in_column(&next);
        pieces[1].id = Some("hacker".into());
        for x in [900.0, 1000.0] {
            pieces.push(card(x, 400.0, Some("commando"), &[("commando", 0.9)]));
        }
        read_columns(&cat, &frame, &mut pieces, &looks, &timid);
        assert_eq!(pieces[1].id.as_deref(), Some("hacker"));
    }

    #[test]
    fn a_face_the_table_already_shows_in_full_names_no_other_card() {
        let cat = Catalogue::bundled();
        let looks = looks(&soldiers(&cat));
        let sims = [("hacker", 0.45), ("commando", 0.42), ("kid", 0.3)];
        let (frame, mut pieces) = unknown_in_column(&sims);
        // The deck's two commandos are named elsewhere on the table.
        for x in [900.0, 1000.0] {
            pieces.push(card(x, 400.0, Some("commando"), &[("commando", 0.9)]));
        }
        read_columns(&cat, &frame, &mut pieces, &looks, &Thresholds::default());
        assert_ne!(pieces[1].id.as_deref(), Some("commando"));
        // With one of them named something else, the card is the other commando.
        pieces[3].id = Some("scout".into());
        read_columns(&cat, &frame, &mut pieces, &looks, &Thresholds::default());
        assert_eq!(pieces[1].id.as_deref(), Some("commando"));
    }

    #[test]
    fn an_unknown_card_in_a_column_is_named_by_its_face() {
        let cat = Catalogue::bundled();
        let looks = looks(&soldiers(&cat));
        let sims = [("hacker", 0.45), ("commando", 0.42), ("kid", 0.3)];
        let (frame, mut pieces) = unknown_in_column(&sims);
        read_columns(&cat, &frame, &mut pieces, &looks, &Thresholds::default());
        assert_eq!(pieces[1].id.as_deref(), Some("commando"));
        assert_eq!(pieces[1].best, "commando");
        // It keeps the embedder's similarity to the face, so that a sure reading elsewhere
        // outranks it.
        assert_eq!(pieces[1].similarity, 0.42);
        // Corners listed from the other end are turned to the card's way up.
        let (frame, mut pieces) = unknown_in_column(&sims);
        let upright = pieces[1].corners;
        pieces[1].corners = [2, 3, 0, 1].map(|k| upright[k]);
        read_columns(&cat, &frame, &mut pieces, &looks, &Thresholds::default());
        assert_eq!(pieces[1].id.as_deref(), Some("commando"));
        assert_eq!(pieces[1].corners, upright);
    }

    #[test]
    fn a_card_stays_unknown_unless_its_face_is_clear_shortlisted_and_in_a_column() {
        let cat = Catalogue::bundled();
        let looks = looks(&soldiers(&cat));
        let thresholds = Thresholds::default();
        // The face that matches is not among the embedder's four nearest.
        let far = [
            ("hacker", 0.45),
            ("kid", 0.44),
            ("runner", 0.43),
            ("scout", 0.42),
            ("commando", 0.2),
        ];
        let (frame, mut pieces) = unknown_in_column(&far);
        pieces[1].score = SURE_SCORE - 0.01;
        read_columns(&cat, &frame, &mut pieces, &looks, &thresholds);
        assert_eq!(pieces[1].id, None);
        // Found surely, its face's picture, far clearer than any other, names it.
        let (frame, mut pieces) = unknown_in_column(&far);
        read_columns(&cat, &frame, &mut pieces, &looks, &thresholds);
        assert_eq!(pieces[1].id.as_deref(), Some("commando"));
        // No card there: an empty patch of table matches no face.
        let sims = [("commando", 0.42)];
        let (_, mut pieces) = unknown_in_column(&sims);
        let empty = RgbImage::from_pixel(600, 700, Rgb([70, 75, 80]));
        read_columns(&cat, &empty, &mut pieces, &looks, &thresholds);
        assert_eq!(pieces[1].id, None);
        // A likeness demanded above any reachable is never met (by a card the detector
        // found faintly: see the next test for one found surely).
        let strict = Thresholds {
            face_match: 1.01,
            ..Thresholds::default()
        };
        let (frame, mut pieces) = unknown_in_column(&sims);
        pieces[1].score = SURE_SCORE - 0.01;
        read_columns(&cat, &frame, &mut pieces, &looks, &strict);
        assert_eq!(pieces[1].id, None);
        // Out of every column (no city), nothing is compared.
        let (frame, mut pieces) = unknown_in_column(&sims);
        pieces.remove(0);
        read_columns(&cat, &frame, &mut pieces, &looks, &thresholds);
        assert_eq!(pieces[0].id, None);
        // Moloch's units are not candidates in an Outpost column.
        let robots: Vec<(String, RgbImage)> = ["hunter", "brute"]
            .iter()
            .map(|id| (id.to_string(), render::face(&cat, id, 0).expect("a face")))
            .collect();
        let (frame, mut pieces) = unknown_in_column(&[("hunter", 0.5), ("brute", 0.4)]);
        read_columns(
            &cat,
            &frame,
            &mut pieces,
            &self::looks(&robots),
            &thresholds,
        );
        assert_eq!(pieces[1].id, None);
    }

    #[test]
    fn a_card_found_surely_is_named_where_embedder_and_picture_agree_under_their_bars() {
        let cat = Catalogue::bundled();
        let looks = looks(&soldiers(&cat));
        // The picture alone is never clear enough for the face comparison's own bar.
        let strict = Thresholds {
            face_match: 1.01,
            ..Thresholds::default()
        };
        let read = |frame: &RgbImage, score: f32| {
            let agree = [("commando", AGREED_SIMILARITY + 0.02), ("hacker", 0.3)];
            let (_, mut pieces) = unknown_in_column(&agree);
            pieces[1].score = score;
            read_columns(&cat, frame, &mut pieces, &looks, &strict);
            pieces[1].id.clone()
        };
        let (frame, _) = unknown_in_column(&[]);
        assert_eq!(read(&frame, SURE_SCORE).as_deref(), Some("commando"));
        // Found faintly, it stays unknown: most such cards lie where no unit is.
        assert_eq!(read(&frame, SURE_SCORE - 0.01), None);
        // A bare table is like no face.
        let empty = RgbImage::from_pixel(600, 700, Rgb([70, 75, 80]));
        assert_eq!(read(&empty, 0.9), None);
    }

    #[test]
    fn the_picture_names_a_card_with_the_embedder_or_clearly_alone() {
        let at = |likeness: f32, runner_up: f32| FaceMatch {
            id: "commando".into(),
            likeness,
            runner_up,
            turned: false,
        };
        // Fairly like the commando, and so the embedder found it: named.
        let fair = at(AGREED_LIKENESS + 0.05, AGREED_LIKENESS);
        assert!(settled(&fair, Some(("commando", AGREED_SIMILARITY))));
        // The embedder under its floor, or most like another face, or silent: not named.
        assert!(!settled(
            &fair,
            Some(("commando", AGREED_SIMILARITY - 0.01))
        ));
        assert!(!settled(&fair, Some(("hacker", 0.6))));
        assert!(!settled(&fair, None));
        // The picture under its floor: not named, however sure the embedder.
        let faint = at(AGREED_LIKENESS - 0.01, 0.0);
        assert!(!settled(&faint, Some(("commando", 0.9))));
        // Clear alone: like it, and far less like any other face.
        let clear = at(CLEAR_LIKENESS, CLEAR_LIKENESS - CLEAR_LEAD - 0.001);
        assert!(settled(&clear, Some(("hacker", 0.6))));
        assert!(settled(&clear, None));
        // Not clear enough: too little ahead, or too little like it.
        assert!(!settled(&at(0.9, 0.9 - CLEAR_LEAD + 0.01), None));
        assert!(!settled(&at(CLEAR_LIKENESS - 0.01, 0.0), None));
    }

    const MODULES: [&str; 6] = [
        "kasparov_module",
        "net_module",
        "contamination_module",
        "combat_module",
        "annihilation_module",
        "destruction_module",
    ];

    /// The strip pictures of every module of the canonical deck, as enrolment keeps them.
    fn strip_looks(cat: &Catalogue) -> FaceLooks {
        let pictures: Vec<FacePicture> = MODULES
            .iter()
            .map(|id| {
                let face = render::face(cat, id, 0).expect("a face");
                FacePicture::of(id, &face_crop(&face, PieceClass::Strip))
            })
            .collect();
        FaceLooks::strips(&pictures)
    }

    /// Where the strip of a card drawn by [`table_with`] at (270, 355) lies: its right
    /// [`STRIP_SHARE`] of the width, 1 px off.
    fn strip_corners() -> [[f32; 2]; 4] {
        let x0 = 270.0 + 60.0 * (1.0 - STRIP_SHARE);
        [
            [x0 + 1.0, 356.0],
            [331.0, 356.0],
            [331.0, 446.0],
            [x0 + 1.0, 446.0],
        ]
    }

    #[test]
    fn a_strip_too_close_to_call_is_named_by_its_picture_among_the_nearest_modules() {
        let cat = Catalogue::bundled();
        let looks = strip_looks(&cat);
        let thresholds = Thresholds::default();
        // Module strips differ in a few marks: each is named right, or left unknown where
        // its picture is too close to another's, never named wrong.
        let mut right = 0;
        for (k, id) in MODULES.iter().enumerate() {
            let face = render::face(&cat, id, 0).expect("a face");
            let frame = table_with(&face, 270, 355);
            // The embedder's reading: another module just ahead, this one second.
            let other = MODULES[(k + 1) % MODULES.len()];
            let third = MODULES[(k + 2) % MODULES.len()];
            let sims = vec![
                (other.to_string(), 0.61),
                (id.to_string(), 0.6),
                (third.to_string(), 0.3),
            ];
            let named = name_strip(&looks, &frame, &strip_corners(), &sims, &thresholds);
            match named.as_deref() {
                Some(m) if m == *id => right += 1,
                None => {}
                Some(m) => panic!("{id} named {m}"),
            }
            // Ranked below the three nearest, the right module is not a candidate.
            let far: Vec<(String, f32)> = MODULES
                .iter()
                .filter(|m| *m != id)
                .enumerate()
                .map(|(r, m)| (m.to_string(), 0.6 - 0.01 * r as f32))
                .chain([(id.to_string(), 0.2)])
                .collect();
            let named = name_strip(&looks, &frame, &strip_corners(), &far, &thresholds);
            assert_ne!(named.as_deref(), Some(*id));
        }
        assert!(right >= 4, "{right} of 6 named");
        // Bare table where the strip would be: no module is named.
        let empty = RgbImage::from_pixel(600, 700, Rgb([70, 75, 80]));
        let sims = vec![
            (MODULES[0].to_string(), 0.6),
            (MODULES[1].to_string(), 0.59),
        ];
        assert_eq!(
            name_strip(&looks, &empty, &strip_corners(), &sims, &thresholds),
            None
        );
    }
}
