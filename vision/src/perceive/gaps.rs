//! Gaps in a column: a card the detector missed between two named cards of one column,
//! between a city and its column's first named card, or beyond its last. And the other way
//! round, two named cards of a column too close to be two ([`drop_crowded`]), and a card
//! left unknown between two that leave no room for it ([`drop_between`]).
//!
//! Players lay a column's units one on the other at a steady step along the column (each
//! card leaves the same share of the one below it in view). So where two named units of one
//! column lie about two steps apart, a card most likely lies between them that the detector
//! did not find or no look could name: deep in a crowded column its peak is often faint or
//! missing. Its quad is about the two neighbours' quads, interpolated corner by corner.
//!
//! Each such place is cropped in that quad, slid a little along the column ([`SLIDES`]),
//! and brought to the edges of what lies there by the corner refiner ([`super::refine`]);
//! named among the unit faces of the column's side, and kept as a card if the best crop
//! reaches [`BAR`]. A crop that is a card already named seen twice names nothing; an
//! unknown card there gives way to the named one, unless it is clearly more like a unit
//! face of the side than the crop is like its name ([`UNKNOWN_KEEPS`]). (The refined crop,
//! added last, took validation layouts exact from 387 to 389 of 480 (seeds 12 / 11 / 13,
//! decks 1, 2 and 5 to 8), their copies under a coloured light from 362 to 364; held out,
//! 155 -> 154 of 210, where a frame analysed again under its light taken out lost a card
//! its detector missed.)
//!
//! The step is the median gap between neighbouring named units over the whole frame
//! (players keep one habit); where no two neighbours lie within [`ONE_STEP`] card lengths
//! of each other it is [`DEFAULT_STEP`] card lengths.
//!
//! A place inside a column where nothing was found and no crop names a card at its bar
//! (most often its best face leads the next by too little) is kept, where asked, as an
//! unknown card cropped where it was most like a face (`unnamed_look`): the face
//! comparison and the squared looks, which come next, name some such cards, and one no look
//! names is dropped with the faint detections (its place is looked at once more when every
//! other look is done, and listed if still empty: [`super::missing_cards`]). Not beyond a
//! column's end, where one such card was named a McPherson on bare cloth at a frame's edge.
//! Layouts exact: unseen 912 -> 917 of 1,050 (won 5, lost none), validation 649 -> 650 of
//! 720, recast 788 either way (won 1, lost 1); no more pieces named wrong.
//!
//! The first unit of a column, laid against its city, is missed as often: it is the one
//! most covered. A city is not covered, so the first unit lies about as far from its city
//! in every column of a frame (the median over the columns whose first named unit lies
//! within [`FIRST_MOST`] card lengths of the city's middle; [`DEFAULT_FIRST`] where none
//! does). A column whose first named unit lies one or two steps further out (from
//! [`FIRST_ROOM`] of a step) has lost the cards between: each is looked for in the named
//! unit's quad moved towards the city, at the higher bar [`FIRST_BAR`].
//!
//! On validation scenes (canonical seeds 12 / 11 / 13, rendered decks 1 and 2) this placed
//! 96.5 / 98.8 / 96.1 / 89.6 / 93.8% of units before and 97.0 / 98.8 / 97.2 / 91.3 / 95.9%
//! after, with no more cards named wrong; modules under the right unit 91.9 / 98.7 / 95.1 /
//! 85.6 / 82.5% -> 92.5 / 98.7 / 95.1 / 87.5 / 85.6%. Layouts exact stayed 116 of 240: the
//! scenes it mends have other faults too. Looking against the city as well (with rough
//! views enrolled) placed 97.2 / 99.3 / 97.5 / 92.6 / 96.2% of units before and 97.3 /
//! 99.3 / 97.8 / 92.9 / 96.4% after, and left 124 layouts exact instead of 122, with no
//! more cards named wrong.
//!
//! The cards beyond a column's last named unit are lost as often, most of all where the
//! detector saw the last two as one long card: its quad runs from one card's top edge to
//! the other's bottom edge, and no crop of it is like a face. Nothing says a column goes on
//! there but the card left unknown further out. So where one lies one or two steps beyond
//! a column's last named unit, each step out is looked at in that unit's quad moved out
//! along the column, at [`FIRST_BAR`]. On validation scenes (canonical seeds 12 / 11 / 13,
//! decks 1 and 2) this placed 98.4 / 99.3 / 99.4 / 95.4 / 97.8% of units before and 98.6 /
//! 99.3 / 99.4 / 95.6 / 97.8% after, and left 160 layouts of 240 exact instead of 159, with
//! no more cards named wrong; at a bar of 0.5, one more card was named wrong. Where nothing
//! at all was found beyond a column's last unit, [`super::column_end`] looks one step out.

use super::assemble::{centre, dist, half_turn, lerp, look_one_way, median, Frame, Piece};
use super::detect::{Detection, PieceClass};
use super::identify::{Embedder, Gallery};
use super::quad_window::Quad;
use super::refine::{same_card, Refiner};
use super::second_look::moved;
use super::sides::{best_unit_face, city_frames, column_of, name_as_unit};
use super::VisionError;
use image::RgbImage;
use tablelens_engine::{Catalogue, Side};

/// Most card lengths between the centres of two neighbouring cards of a column with none
/// between them (the step of a column laid with no overlap at all, and a little more).
pub const ONE_STEP: f32 = 1.15;

/// The step, in card lengths, assumed where no two neighbouring cards show it.
pub const DEFAULT_STEP: f32 = 0.85;

/// Most card lengths from its city's middle to a column's first unit with no card between
/// them (a unit laid against the city, and a little more).
pub const FIRST_MOST: f32 = 1.35;

/// How far a column's first unit lies from its city's middle, in card lengths, assumed where
/// no column shows it.
pub const DEFAULT_FIRST: f32 = 1.1;

/// Most cards looked for in one gap.
pub const MOST_MISSING: usize = 2;

/// The least similarity at which a crop in a gap names a card. On validation scenes
/// (canonical seeds 12 / 11 / 13, decks 1 and 2) the bars of 0.6 (the second look's), 0.5
/// and 0.45 named no card wrong; 0.5 placed more units than 0.6 (decks 1 and 2: 90.9 / 95.4
/// -> 91.3 / 95.9%) and as many as 0.45.
pub const BAR: f32 = 0.5;

/// The least similarity at which a crop between a city and its column's first named unit
/// names a card. That quad is the unit's moved along the column, not two neighbours'
/// interpolated, so it is less sure. On validation scenes (canonical seeds 12 / 11 / 13,
/// decks 1 and 2) a bar of 0.5 left 127 layouts of 240 exact but named 3 more cards wrong
/// (deck 1); 0.55, 125 and 2 more; 0.6, 124 and none more; 0.65, 122 (as many as without
/// looking there).
pub const FIRST_BAR: f32 = 0.6;

/// The least share of the frame's step by which a column's first named unit lies further
/// from its city than first units lie in the frame for a card to be looked for between
/// (one card up to one and a half steps out, then as many as the steps round to; it was
/// half a step). A card laid against its city that the next one covers much of can leave
/// that next one under half a step further out: a Scout of the fresh canonical set of seed
/// 41 lay 0.46 of a step beyond where first units lay, over a Commando no look had found.
/// On all 31 rendered sets (1,770 scenes) any share from 0.3 to 0.45 changed that scene
/// alone (unseen layouts exact 917 -> 918 of 1,050), and none of the recast sets.
pub const FIRST_ROOM: f32 = 0.4;

/// How far each guessed quad is also slid along the column, as shares of its length.
pub const SLIDES: [f32; 2] = [-0.1, 0.1];

/// A named unit card in a column.
pub(crate) struct InColumn {
    /// Its index among the pieces.
    pub piece: usize,
    /// Its city's index among the city frames.
    pub city: usize,
    /// The side of its column.
    pub side: Side,
    /// How far from the city along the column, in city card lengths.
    pub along: f32,
}

/// The length of a card's long axis (top edge's middle to bottom edge's middle).
fn length(q: &Quad) -> f32 {
    let f = Frame::of(q);
    (f.down[0] * f.down[0] + f.down[1] * f.down[1]).sqrt()
}

/// `b`'s corners in the same printed order as `a`'s (a card named the other way up has
/// them a half turn round).
fn same_way(a: &Quad, b: &Quad) -> Quad {
    let (fa, fb) = (Frame::of(a), Frame::of(b));
    if fa.down[0] * fb.down[0] + fa.down[1] * fb.down[1] < 0.0 {
        half_turn(b)
    } else {
        *b
    }
}

/// `q` moved `shift` times the vector `down` (a city's long axis, [`Frame::down`]): a card
/// moved along its column by `shift` city card lengths.
pub(crate) fn along_column(q: &Quad, down: [f32; 2], shift: f32) -> Quad {
    q.map(|p| [p[0] + shift * down[0], p[1] + shift * down[1]])
}

/// Corner by corner, the quad a share `t` of the way from `a` to `b`.
fn between(a: &Quad, b: &Quad, t: f32) -> Quad {
    std::array::from_fn(|i| lerp(a[i], b[i], t))
}

/// A place where a card most likely lies unseen.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Place {
    /// The card's guessed quad.
    pub quad: Quad,
    /// The side of its column.
    pub side: Side,
    /// The least similarity at which a crop there names a card: [`BAR`] between two named
    /// units, [`FIRST_BAR`] against the city.
    pub bar: f32,
    /// The named units on either side of the place (their indices among the pieces): the
    /// one nearer the city (none where the place lies against it) and the one further out
    /// (none beyond the column's last named unit).
    pub between: [Option<usize>; 2],
}

impl Place {
    /// Whether the place lies inside its column, between two named units or between the
    /// city and the first (where the column's steps leave room for a card, one most likely
    /// lies), and not beyond its last named unit (where only a card left unknown further
    /// out says the column goes on): a named unit lies further out.
    pub fn inside(&self) -> bool {
        self.between[1].is_some()
    }
}

/// The named unit cards of the columns (the unit of its column's side), in order: city by
/// city, side by side, from the city outwards.
pub(crate) fn column_units(
    pieces: &[Piece],
    catalogue: &Catalogue,
    cities: &[Frame],
) -> Vec<InColumn> {
    let mut units: Vec<InColumn> = pieces
        .iter()
        .enumerate()
        .filter(|(_, p)| p.class == PieceClass::Card)
        .filter_map(|(i, p)| {
            let card = catalogue.card(p.id.as_deref()?)?;
            let (city, side, along) = column_of(cities, centre(&p.corners))?;
            (card.side == side && card.kind.is_unit()).then_some(InColumn {
                piece: i,
                city,
                side,
                along,
            })
        })
        .collect();
    units.sort_by(|a, b| {
        (a.city, a.side as u8)
            .cmp(&(b.city, b.side as u8))
            .then(a.along.abs().total_cmp(&b.along.abs()))
    });
    units
}

/// Neighbouring units of one column (by index in `units`, inner first), with the second's
/// quad in the first's printed order and their distance apart in card lengths.
pub(crate) fn neighbours(pieces: &[Piece], units: &[InColumn]) -> Vec<(usize, usize, Quad, f32)> {
    units
        .windows(2)
        .enumerate()
        .filter(|(_, w)| w[0].city == w[1].city && w[0].side == w[1].side)
        .map(|(k, w)| {
            let a = &pieces[w[0].piece].corners;
            let b = same_way(a, &pieces[w[1].piece].corners);
            let len = (length(a) + length(&b)) / 2.0;
            (k, k + 1, b, dist(centre(a), centre(&b)) / len.max(1.0))
        })
        .collect()
}

/// The frame's step between neighbouring units of a column, in card lengths: the median
/// over the neighbours that lie within [`ONE_STEP`], if any do.
pub(crate) fn frame_step(pairs: &[(usize, usize, Quad, f32)]) -> Option<f32> {
    median(pairs.iter().map(|p| p.3).filter(|&d| d <= ONE_STEP))
}

/// The places where cards most likely lie unseen: between neighbouring named units of a
/// column that lie about two or three steps apart, between a city and its column's first
/// named unit where that lies one or two steps further out than a first unit does, and
/// beyond a column's last named unit where a card left unknown lies one or two steps out.
pub fn missing(pieces: &[Piece], catalogue: &Catalogue) -> Vec<Place> {
    let cities = city_frames(pieces);
    let units = column_units(pieces, catalogue, &cities);
    let found = neighbours(pieces, &units);
    let step = frame_step(&found).unwrap_or(DEFAULT_STEP);
    let mut out = Vec::new();
    // Neighbouring pairs of one column, with their distance in card lengths.
    for &(k, l, b, d) in &found {
        if d <= ONE_STEP {
            continue;
        }
        let gaps = ((d / step).round() as usize).saturating_sub(1);
        if gaps == 0 || gaps > MOST_MISSING {
            continue;
        }
        let (inner, outer) = (&units[k], &units[l]);
        for n in 1..=gaps {
            out.push(Place {
                quad: between(
                    &pieces[inner.piece].corners,
                    &b,
                    n as f32 / (gaps + 1) as f32,
                ),
                side: inner.side,
                bar: BAR,
                between: [Some(inner.piece), Some(outer.piece)],
            });
        }
    }
    // Each column's first named unit (nearest its city), and where a first unit lies in
    // this frame: the median over the columns whose first unit is in its place.
    let firsts: Vec<&InColumn> = units
        .iter()
        .enumerate()
        .filter(|(k, u)| *k == 0 || (units[k - 1].city, units[k - 1].side) != (u.city, u.side))
        .map(|(_, u)| u)
        .collect();
    let first = median(
        firsts
            .iter()
            .map(|u| u.along.abs())
            .filter(|&a| a <= FIRST_MOST),
    )
    .unwrap_or(DEFAULT_FIRST);
    for u in firsts {
        let out_by = u.along.abs() - first;
        let steps_out = out_by / step;
        let gaps = if steps_out >= FIRST_ROOM {
            steps_out.round().max(1.0)
        } else {
            0.0
        };
        if !(1.0..=MOST_MISSING as f32).contains(&gaps) {
            continue;
        }
        // Towards the city along its long axis (in city card lengths): the Moloch side
        // lies against the city's `down`.
        let down = cities[u.city].down;
        let towards = if u.along > 0.0 { 1.0 } else { -1.0 };
        let q = &pieces[u.piece].corners;
        for k in 0..gaps as usize {
            let shift = towards * (out_by - k as f32 * step);
            out.push(Place {
                quad: along_column(q, down, shift),
                side: u.side,
                bar: FIRST_BAR,
                between: [None, Some(u.piece)],
            });
        }
    }
    out.extend(beyond(pieces, &cities, &units, step));
    out
}

/// A frame's columns as [`drop_crowded`] and [`drop_between`] read them.
struct Stepped {
    /// The city cards' frames.
    cities: Vec<Frame>,
    /// The named units of the columns, in [`column_units`]' order.
    units: Vec<InColumn>,
    /// Their neighbouring pairs, as [`neighbours`] gives them.
    pairs: Vec<(usize, usize, Quad, f32)>,
    /// The frame's step ([`frame_step`]).
    step: f32,
}

/// The frame's columns and step, where three neighbours or more lie within [`ONE_STEP`]
/// (fewer leave the step unknown).
fn stepped(pieces: &[Piece], catalogue: &Catalogue) -> Option<Stepped> {
    let cities = city_frames(pieces);
    let units = column_units(pieces, catalogue, &cities);
    let pairs = neighbours(pieces, &units);
    if pairs.iter().filter(|p| p.3 <= ONE_STEP).count() < 3 {
        return None;
    }
    let step = frame_step(&pairs)?;
    Some(Stepped {
        cities,
        units,
        pairs,
        step,
    })
}

/// Share of the frame's step under which two neighbouring units of a column lie too close
/// to be two cards ([`drop_crowded`]).
pub const CROWDED: f32 = 0.5;

/// Drops, of two neighbouring named units of a column that lie under [`CROWDED`] of the
/// frame's step apart, the one less like its face: players keep one step along their
/// columns, and a card found between two others, a fraction of a step from one of them, is
/// most often a crop of their overlap named as some unit. Needs three neighbours within
/// [`ONE_STEP`] for the step.
///
/// But not where that would leave the stronger one and the weaker one's other neighbour
/// [`NO_ROOM`] steps apart or more: a card fits between them, so the weaker one is most
/// likely that card, found on a quad slid towards its neighbour. On all 31 rendered sets
/// (1,770 scenes), of the 20 cards dropped as crowded, the two named right that lay where
/// no other card was found (a Hybrid and a McPherson, slid half a step) left 1.74 and
/// 1.82 steps; the others at most 1.35, or lay at a column's end.
///
/// On validation scenes (seeds 12 / 11 / 13, decks 1, 2 and 5 to 8), the pairs under 0.45
/// of their frame's step were six, each a phantom beside a real card (the closest real
/// pairs lay at 0.57 and 0.58 of it); dropping them left 326 layouts of 480 exact instead
/// of 323, every real unit kept. The share was 0.45 until a phantom Scout of deck 5
/// (scene 54) lay at 0.454 of its frame's step from the Scout it repeated; on the 13
/// validation sets the closest real pairs lie at 0.568 and 0.570 of it. At 0.5, layouts
/// exact rose from 437 to 438 of 480 (new decks 205 of 240, held out 168 of 210, and the
/// recast sets alike).
pub fn drop_crowded(pieces: &mut Vec<Piece>, catalogue: &Catalogue) {
    let Some(Stepped {
        units, pairs, step, ..
    }) = stepped(pieces, catalogue)
    else {
        return;
    };
    let mut drop = vec![false; pieces.len()];
    for &(ka, kb, _, d) in &pairs {
        let (a, b) = (units[ka].piece, units[kb].piece);
        if d >= CROWDED * step || drop[a] || drop[b] {
            continue;
        }
        let weaker = if pieces[a].similarity < pieces[b].similarity {
            a
        } else {
            b
        };
        // The weaker one's other neighbour in the column, beyond it from the stronger.
        let beyond = if weaker == a {
            pairs.iter().find(|p| p.1 == ka)
        } else {
            pairs.iter().find(|p| p.0 == kb)
        };
        if beyond.is_some_and(|p| d + p.3 >= NO_ROOM * step) {
            continue;
        }
        drop[weaker] = true;
    }
    let mut k = drop.into_iter();
    pieces.retain(|_| !k.next().unwrap_or(false));
}

/// The distance apart, in the frame's steps, under which two neighbouring named units of a
/// column leave no room for a card between them ([`drop_between`]): a card between puts
/// them about two steps apart.
pub const NO_ROOM: f32 = 1.5;

/// Drops each card left unknown that lies in a column between two neighbouring named units
/// less than [`NO_ROOM`] steps apart: no card fits there, and the detection is most often
/// the two cards' overlap found once more, which no face names. Needs the frame's step, as
/// [`drop_crowded`] does.
///
/// On the 13 validation sets (780 scenes), eight cards were left unknown at the end of the
/// analysis: the one lying between two named units (0.33 and 0.39 card lengths from
/// them, they 0.72 apart) lay on no card of its own; the seven real cards lay 0.63 card
/// lengths or more from the nearest named unit, and none between two so close.
pub fn drop_between(pieces: &mut Vec<Piece>, catalogue: &Catalogue) {
    let Some(Stepped {
        cities,
        units,
        pairs,
        step,
    }) = stepped(pieces, catalogue)
    else {
        return;
    };
    // Each pair with no room between, as its column and its two places along it.
    let tight: Vec<(usize, Side, f32, f32)> = pairs
        .iter()
        .filter(|p| p.3 < NO_ROOM * step)
        .map(|&(a, b, _, _)| (units[a].city, units[a].side, units[a].along, units[b].along))
        .collect();
    pieces.retain(|p| {
        if p.class != PieceClass::Card || p.id.is_some() {
            return true;
        }
        let Some((city, side, along)) = column_of(&cities, centre(&p.corners)) else {
            return true;
        };
        !tight
            .iter()
            .any(|&(c, s, a, b)| c == city && s == side && (along - a) * (along - b) < 0.0)
    });
}

/// Each column's last named unit (the farthest from its city), of units in the order of
/// [`column_units`].
pub(crate) fn last_units(units: &[InColumn]) -> impl Iterator<Item = &InColumn> {
    units
        .iter()
        .enumerate()
        .filter(|(k, u)| {
            units
                .get(k + 1)
                .is_none_or(|n| (n.city, n.side) != (u.city, u.side))
        })
        .map(|(_, u)| u)
}

/// Places beyond each column's last named unit where a card left unknown lies further out
/// in that column, one or two steps away (as far as it lies, rounded): the last named
/// unit's quad moved out by whole steps, at [`FIRST_BAR`] (see the module's doc).
fn beyond(pieces: &[Piece], cities: &[Frame], units: &[InColumn], step: f32) -> Vec<Place> {
    let mut out = Vec::new();
    for u in last_units(units) {
        let far = pieces
            .iter()
            .filter(|p| p.class == PieceClass::Card && p.id.is_none())
            .filter_map(|p| {
                let (city, side, along) = column_of(cities, centre(&p.corners))?;
                (city == u.city && side == u.side).then_some(along.abs() - u.along.abs())
            })
            .filter(|&d| d >= 0.5 * step && d <= (MOST_MISSING as f32 + 0.5) * step)
            .max_by(f32::total_cmp);
        let Some(out_by) = far else { continue };
        let gaps = ((out_by / step).round() as usize).clamp(1, MOST_MISSING);
        let down = cities[u.city].down;
        let away = if u.along > 0.0 { -1.0 } else { 1.0 };
        let q = &pieces[u.piece].corners;
        for k in 1..=gaps {
            let shift = away * k as f32 * step;
            out.push(Place {
                quad: along_column(q, down, shift),
                side: u.side,
                bar: FIRST_BAR,
                between: [Some(u.piece), None],
            });
        }
    }
    out
}

/// Of `looks` at one card, the crop most like a unit face of its column's side (`side_of`
/// the look; none, no name), named as that face if it reaches `bar` with the usual lead.
pub(crate) fn best_unit(
    looks: &[Piece],
    catalogue: &Catalogue,
    gallery: &Gallery,
    bar: f32,
    side_of: impl Fn(&Piece) -> Option<Side>,
) -> Option<Piece> {
    looks
        .iter()
        .filter_map(|look| {
            let side = side_of(look)?;
            let id = name_as_unit(catalogue, gallery, &look.similarities, side);
            let named = id.id.filter(|_| id.score >= bar)?;
            Some(Piece {
                id: Some(named),
                similarity: id.score,
                best: id.best,
                ..look.clone()
            })
        })
        .max_by(|a, b| a.similarity.total_cmp(&b.similarity))
}

/// By how much more an unknown card found where a gap's crop lies must be like some unit
/// face of the column's side than the crop is like its name for the crop to give way to it
/// ([`fill`]). Deck 14's Trooper, left unknown at 0.81 as Scorn came as close, gave way to a
/// crop named Kid at 0.54. On the copies under a coloured light, letting the unknown card
/// stand wherever it was more alike at all (by 0.01 to 0.03 there) lost a scene (a Hornet
/// the crop had led to was left unknown) and left unknown two cards the crops named wrong.
pub const UNKNOWN_KEEPS: f32 = 0.1;

/// Whether an unknown card found where a gap's crop `found` lies is clearly more like some
/// unit face of the column's `side` than the crop is like its name ([`UNKNOWN_KEEPS`]): it
/// was left unknown as two faces came too close, not for looking like none, and the crop
/// gives way to it.
fn more_alike_unknown(unknown: &Piece, found: &Piece, catalogue: &Catalogue, side: Side) -> bool {
    best_unit_face(catalogue, &unknown.similarities, side)
        .is_some_and(|(_, score, _)| score >= found.similarity + UNKNOWN_KEEPS)
}

/// Of the crops at an inside place ([`Place::inside`]) that none named, the one most like a
/// unit face of the place's side, as an unknown card with that face as its best; none
/// beyond a column's end. See [`fill`].
fn unnamed_look(looks: &[Piece], catalogue: &Catalogue, place: &Place) -> Option<Piece> {
    if !place.inside() {
        return None;
    }
    most_like_a_unit(looks, catalogue, place.side)
}

/// Of `looks` at one place, the one most like a unit face of `side`, left unnamed, with
/// that face as its best and its likeness to it as its similarity.
pub(crate) fn most_like_a_unit(
    looks: &[Piece],
    catalogue: &Catalogue,
    side: Side,
) -> Option<Piece> {
    most_like_a_unit_where(looks, catalogue, side, |_, _, _| true)
}

/// [`most_like_a_unit`] among the looks whose best unit face `keep` keeps: it is asked with
/// the face, the look's likeness to it, and how far that leads the next face of `side`.
pub(crate) fn most_like_a_unit_where(
    looks: &[Piece],
    catalogue: &Catalogue,
    side: Side,
    keep: impl Fn(&str, f32, f32) -> bool,
) -> Option<Piece> {
    looks
        .iter()
        .filter_map(|look| {
            let (face, s, lead) = best_unit_face(catalogue, &look.similarities, side)?;
            keep(face, s, lead).then(|| Piece {
                id: None,
                similarity: s,
                best: face.to_string(),
                ..look.clone()
            })
        })
        .max_by(|a, b| a.similarity.total_cmp(&b.similarity))
}

/// What a look at places on the table where a card may lie reads them with: the embedder,
/// the gallery its embeddings are matched against, and the corner refiner that brings a
/// guessed quad to the edges of what lies there. The gaps' looks ([`fill`]), the look
/// beyond a column's end (`column_end::look`) and the naming of the cards still missing
/// (`missing_cards::name`) all take it.
#[derive(Clone, Copy)]
pub struct Readers<'a> {
    /// The card embedder.
    pub embedder: &'a Embedder,
    /// The enrolled faces and thresholds.
    pub gallery: &'a Gallery,
    /// The corner refiner.
    pub refiner: &'a Refiner,
}

/// The looks at each place, in order: its guessed quad cropped, slid by [`SLIDES`] either
/// way, and brought to the edges of what lies there by the corner refiner; each named one
/// way up ([`look_one_way`]).
pub(crate) fn look_at(
    frame: &RgbImage,
    places: &[Place],
    readers: Readers,
) -> Result<Vec<Vec<Piece>>, VisionError> {
    let Readers {
        embedder,
        gallery,
        refiner,
    } = readers;
    let guessed: Vec<Quad> = places.iter().map(|place| place.quad).collect();
    let refined = refiner.refine(frame, &guessed)?;
    let tries: Vec<Detection> = guessed
        .iter()
        .zip(refined)
        .flat_map(|(q, refined)| {
            std::iter::once(*q)
                .chain(SLIDES.iter().map(|&s| moved(q, s, s)))
                .chain(std::iter::once(refined))
                .map(|corners| Detection::card(corners, 0.0))
        })
        .collect();
    let (looks, _) = look_one_way(frame, &tries, embedder, gallery)?;
    let per_place = 2 + SLIDES.len();
    Ok(looks.chunks(per_place).map(<[Piece]>::to_vec).collect())
}

/// Looks for the cards missing from gaps in the columns (see the module's doc) and adds
/// those it names to `pieces`, or names an unknown card found there. Each place is cropped
/// in its guessed quad, slid by [`SLIDES`], and brought to the edges of what lies there by
/// the corner refiner. With `keep_unnamed`, an inside place where nothing was found and
/// no crop names a card keeps its best crop as an unknown card (`unnamed_look`), for
/// the later looks at unknown cards to name (see the module's doc).
pub fn fill(
    frame: &RgbImage,
    catalogue: &Catalogue,
    pieces: &mut Vec<Piece>,
    readers: Readers,
    keep_unnamed: bool,
) -> Result<(), VisionError> {
    let places = missing(pieces, catalogue);
    if places.is_empty() {
        return Ok(());
    }
    let looks = look_at(frame, &places, readers)?;
    for (place, looks) in places.iter().zip(&looks) {
        let best = best_unit(looks, catalogue, readers.gallery, place.bar, |_| {
            Some(place.side)
        });
        let best = best.or_else(|| {
            keep_unnamed
                .then(|| unnamed_look(looks, catalogue, place))
                .flatten()
        });
        let Some(found) = best else { continue };
        let there = pieces
            .iter()
            .position(|p| p.class == PieceClass::Card && same_card(&p.corners, &found.corners));
        match there {
            Some(i) if pieces[i].id.is_some() => {}
            // An unnamed crop neither replaces nor moves a card found there.
            Some(_) if found.id.is_none() => {}
            Some(i) if more_alike_unknown(&pieces[i], &found, catalogue, place.side) => {}
            Some(i) => {
                pieces[i] = Piece {
                    score: pieces[i].score,
                    ..found
                }
            }
            None => pieces.push(found),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perceive::assemble::{outpost_column as column, upright_card as card};

    #[test]
    fn a_double_step_in_a_column_is_a_missing_card() {
        let cat = Catalogue::bundled();
        // Steps of 72 px (0.8 of a card) and one of 144 between the 2nd and 3rd unit.
        let pieces = column(&[400.0, 472.0, 616.0, 688.0]);
        let gaps = missing(&pieces, &cat);
        assert_eq!(gaps.len(), 1);
        let Place {
            quad: q, side, bar, ..
        } = gaps[0];
        assert_eq!(side, Side::Outpost);
        assert_eq!(bar, BAR);
        assert!((centre(&q)[1] - 544.0).abs() < 0.5, "{q:?}");
        assert!((centre(&q)[0] - 300.0).abs() < 0.5);
        assert!((length(&q) - 90.0).abs() < 0.5);
    }

    #[test]
    fn an_inside_place_no_crop_names_keeps_its_most_alike_crop_unknown() {
        let cat = Catalogue::bundled();
        // Inside: a named unit (any piece index) lies further out; beyond: none does.
        let place = |inside: bool| Place {
            quad: card(300.0, 400.0, None, &[]).corners,
            side: Side::Outpost,
            bar: BAR,
            between: if inside {
                [None, Some(0)]
            } else {
                [Some(0), None]
            },
        };
        // Three crops: the second is the most like an Outpost unit face (a Moloch face
        // counts for nothing in an Outpost column).
        let looks = [
            card(300.0, 400.0, None, &[("trooper", 0.45), ("scorn", 0.44)]),
            card(
                300.0,
                410.0,
                None,
                &[("hunter", 0.9), ("scorn", 0.58), ("trooper", 0.57)],
            ),
            card(300.0, 390.0, None, &[("kid", 0.5), ("scorn", 0.49)]),
        ];
        let kept = unnamed_look(&looks, &cat, &place(true)).expect("a crop is kept");
        assert_eq!(kept.id, None);
        assert_eq!((kept.best.as_str(), kept.similarity), ("scorn", 0.58));
        assert_eq!(centre(&kept.corners), [300.0, 410.0]);
        // Beyond a column's end nothing is kept; nor where no crop is like a side's face.
        assert!(unnamed_look(&looks, &cat, &place(false)).is_none());
        let moloch_only = [card(300.0, 400.0, None, &[("hunter", 0.9)])];
        assert!(unnamed_look(&moloch_only, &cat, &place(true)).is_none());
    }

    #[test]
    fn an_unknown_card_gives_way_to_a_gap_crop_unless_clearly_more_alike() {
        let cat = Catalogue::bundled();
        let crop = card(300.0, 400.0, Some("kid"), &[("kid", 0.54)]);
        // Left unknown as two Outpost faces came too close, each far more alike than the
        // crop is like Kid.
        let torn = card(300.0, 400.0, None, &[("trooper", 0.81), ("scorn", 0.809)]);
        assert!(more_alike_unknown(&torn, &crop, &cat, Side::Outpost));
        // A little more alike is not enough.
        let near = card(300.0, 400.0, None, &[("trooper", 0.6), ("scorn", 0.59)]);
        assert!(!more_alike_unknown(&near, &crop, &cat, Side::Outpost));
        // Only the side's unit faces count: a Moloch face in an Outpost column does not.
        let other = card(300.0, 400.0, None, &[("hunter", 0.9), ("trooper", 0.5)]);
        assert!(!more_alike_unknown(&other, &crop, &cat, Side::Outpost));
        assert!(more_alike_unknown(&other, &crop, &cat, Side::Moloch));
    }

    #[test]
    fn a_card_a_fraction_of_a_step_from_its_neighbour_is_dropped_if_less_like_its_face() {
        let cat = Catalogue::bundled();
        // Steps of 72 px; a card 24 px (a third of a step) past the third unit, named less
        // surely than it.
        let mut pieces = column(&[400.0, 472.0, 544.0, 568.0, 616.0]);
        pieces[4].similarity = 0.6;
        drop_crowded(&mut pieces, &cat);
        let ys: Vec<f32> = pieces.iter().map(|p| centre(&p.corners)[1]).collect();
        assert_eq!(ys, [300.0, 400.0, 472.0, 544.0, 616.0]);
        // The less sure of the two goes, whichever it is.
        let mut pieces = column(&[400.0, 472.0, 544.0, 568.0, 616.0]);
        pieces[3].similarity = 0.6;
        drop_crowded(&mut pieces, &cat);
        let ys: Vec<f32> = pieces.iter().map(|p| centre(&p.corners)[1]).collect();
        assert_eq!(ys, [300.0, 400.0, 472.0, 568.0, 616.0]);
        // A steady column loses nothing, nor does a tight one: the step is the frame's.
        for ys in [[400.0, 472.0, 544.0, 616.0], [400.0, 430.0, 460.0, 490.0]] {
            let mut pieces = column(&ys);
            drop_crowded(&mut pieces, &cat);
            assert_eq!(pieces.len(), 5);
        }
        // A card slid towards its neighbour, with room for it on its other side (two steps
        // from that neighbour to the next): it is the card that lies there, and stays.
        let mut pieces = column(&[400.0, 472.0, 544.0, 572.0, 688.0, 760.0]);
        pieces[4].similarity = 0.6;
        drop_crowded(&mut pieces, &cat);
        assert_eq!(pieces.len(), 7);
        // Too few neighbours to know the step: nothing is dropped.
        let mut pieces = column(&[400.0, 472.0, 490.0]);
        drop_crowded(&mut pieces, &cat);
        assert_eq!(pieces.len(), 4);
    }

    #[test]
    fn a_card_left_unknown_between_two_units_a_step_apart_is_dropped() {
        let cat = Catalogue::bundled();
        // Steps of 72 px; an unknown card halfway between the second and third unit.
        let mut pieces = column(&[400.0, 472.0, 544.0, 616.0]);
        let mut between = pieces[2].clone();
        between.id = None;
        between.corners = between.corners.map(|p| [p[0], p[1] + 36.0]);
        pieces.push(between.clone());
        drop_between(&mut pieces, &cat);
        assert_eq!(pieces.len(), 5);
        assert!(pieces.iter().all(|p| p.id.is_some()));
        // Between two units two steps apart a card fits: it stays.
        let mut pieces = column(&[400.0, 472.0, 616.0, 688.0, 760.0]);
        between.corners = pieces[2].corners.map(|p| [p[0], p[1] + 72.0]);
        pieces.push(between.clone());
        drop_between(&mut pieces, &cat);
        assert_eq!(pieces.len(), 7);
        // Beyond the column's last unit, or named, it stays too.
        let mut pieces = column(&[400.0, 472.0, 544.0, 616.0]);
        between.corners = pieces[4].corners.map(|p| [p[0], p[1] + 36.0]);
        pieces.push(between.clone());
        between.id = Some("commando".to_string());
        between.corners = pieces[2].corners.map(|p| [p[0], p[1] + 36.0]);
        pieces.push(between);
        drop_between(&mut pieces, &cat);
        assert_eq!(pieces.len(), 7);
    }

    #[test]
    fn a_steady_column_has_no_gap() {
        let cat = Catalogue::bundled();
        assert!(missing(&column(&[400.0, 472.0, 544.0, 616.0]), &cat).is_empty());
        // A column laid with no overlap at all (steps of a whole card) has none either.
        assert!(missing(&column(&[400.0, 490.0, 580.0]), &cat).is_empty());
    }

    #[test]
    fn a_triple_step_holds_two_cards_and_a_wider_one_none() {
        let cat = Catalogue::bundled();
        let gaps = missing(&column(&[400.0, 472.0, 688.0]), &cat);
        let ys: Vec<f32> = gaps.iter().map(|g| centre(&g.quad)[1]).collect();
        assert_eq!(ys.len(), 2, "{ys:?}");
        assert!(
            (ys[0] - 544.0).abs() < 0.5 && (ys[1] - 616.0).abs() < 0.5,
            "{ys:?}"
        );
        // Four steps apart: too far to be one column's run of hidden cards.
        assert!(missing(&column(&[400.0, 472.0, 760.0]), &cat).is_empty());
    }

    #[test]
    fn cards_of_two_columns_or_two_sides_are_not_neighbours() {
        let cat = Catalogue::bundled();
        // One Outpost unit below the city and one Moloch unit above it, each where a first
        // unit lies (200 px apart, 2.2 card lengths): no column of two.
        let mut pieces = column(&[400.0]);
        pieces.push(card(300.0, 200.0, Some("hunter"), &[("hunter", 0.9)]));
        assert!(missing(&pieces, &cat).is_empty());
        // A unit of the other side in the column (misread) is left out of it.
        // With no steady step to go by, a gap of 1.6 card lengths holds one card.
        let mut pieces = column(&[400.0, 544.0]);
        pieces.push(card(300.0, 472.0, Some("hunter"), &[("hunter", 0.9)]));
        assert_eq!(missing(&pieces, &cat).len(), 1);
    }

    #[test]
    fn a_first_unit_a_step_out_has_lost_a_card_against_the_city() {
        let cat = Catalogue::bundled();
        // No column shows where a first unit lies: 1.1 card lengths (99 px) from the city's
        // middle. The first named unit lies at 172 px, 0.81 lengths further: a step.
        let gaps = missing(&column(&[472.0, 544.0, 616.0]), &cat);
        assert_eq!(gaps.len(), 1, "{gaps:?}");
        let Place {
            quad, side, bar, ..
        } = gaps[0];
        assert_eq!((side, bar), (Side::Outpost, FIRST_BAR));
        assert!((centre(&quad)[1] - 399.0).abs() < 0.5, "{quad:?}");
        assert!((centre(&quad)[0] - 300.0).abs() < 0.5);
        assert!((length(&quad) - 90.0).abs() < 0.5);
        // Three steps out is too far; a third of a step is a first unit laid a little loose
        // (under FIRST_ROOM).
        assert!(missing(&column(&[615.0, 687.0]), &cat).is_empty());
        assert!(missing(&column(&[423.0, 495.0]), &cat).is_empty());
    }

    #[test]
    fn where_a_first_unit_lies_is_read_from_the_frame_and_either_side() {
        let cat = Catalogue::bundled();
        // Beside a second city, at x 500, the first Outpost unit lies 110 px out (1.22
        // lengths): so first units lie there in this frame. Beside the first city the
        // first Moloch unit (above it) lies 182 px out, a step further.
        let mut pieces = column(&[]);
        pieces.push(card(500.0, 300.0, Some("iron_gate"), &[("iron_gate", 0.9)]));
        for y in [410.0, 482.0] {
            pieces.push(card(500.0, y, Some("commando"), &[("commando", 0.9)]));
        }
        for y in [118.0, 46.0] {
            pieces.push(card(300.0, y, Some("hunter"), &[("hunter", 0.9)]));
        }
        let gaps = missing(&pieces, &cat);
        assert_eq!(gaps.len(), 1, "{gaps:?}");
        assert_eq!(gaps[0].side, Side::Moloch);
        let c = centre(&gaps[0].quad);
        assert!(
            (c[1] - 190.0).abs() < 0.5 && (c[0] - 300.0).abs() < 0.5,
            "{c:?}"
        );
    }

    #[test]
    fn a_first_unit_under_half_a_step_out_has_room_for_a_card_from_the_first_room() {
        let cat = Catalogue::bundled();
        // Steps of 72 px (0.8 card lengths); first units lie 99 px from the city's middle
        // (no column shows it). The first named unit 0.45 of a step further out: a card is
        // looked for, where a first unit lies.
        let out = |share: f32| {
            let y = 399.0 + share * 72.0;
            missing(&column(&[y, y + 72.0, y + 144.0]), &cat)
        };
        let gaps = out(0.45);
        assert_eq!(gaps.len(), 1, "{gaps:?}");
        assert_eq!(gaps[0].bar, FIRST_BAR);
        assert!((centre(&gaps[0].quad)[1] - 399.0).abs() < 0.5, "{gaps:?}");
        // A third of a step out is a unit laid a little loosely: nothing is looked for.
        assert!(out(0.33).is_empty());
    }

    #[test]
    fn an_unknown_card_beyond_a_columns_last_unit_is_looked_for_step_by_step() {
        let cat = Catalogue::bundled();
        let beyond = |y: f32| {
            let mut pieces = column(&[400.0, 472.0, 544.0]);
            pieces.push(card(300.0, y, None, &[]));
            missing(&pieces, &cat)
        };
        // Two steps (of 72 px) out: both steps are looked at, in the last unit's quad.
        let gaps = beyond(688.0);
        let ys: Vec<f32> = gaps.iter().map(|g| centre(&g.quad)[1]).collect();
        assert_eq!(ys.len(), 2, "{ys:?}");
        assert!(
            (ys[0] - 616.0).abs() < 0.5 && (ys[1] - 688.0).abs() < 0.5,
            "{ys:?}"
        );
        for g in &gaps {
            assert_eq!((g.side, g.bar), (Side::Outpost, FIRST_BAR));
            assert!(
                (length(&g.quad) - 90.0).abs() < 0.5 && (centre(&g.quad)[0] - 300.0).abs() < 0.5
            );
        }
        // One step out: one place.
        assert_eq!(beyond(620.0).len(), 1);
        // Too near the last unit (a second look at it), or four steps out: none.
        assert!(beyond(570.0).is_empty());
        assert!(beyond(832.0).is_empty());
        // An unknown card in the other column of the city (above it) is not beyond this one.
        let mut pieces = column(&[400.0, 472.0, 544.0]);
        pieces.push(card(300.0, 56.0, None, &[]));
        assert!(missing(&pieces, &cat).is_empty());
    }

    #[test]
    fn a_neighbour_named_the_other_way_up_is_turned_before_interpolating() {
        let a = card(300.0, 400.0, None, &[]).corners;
        let b = card(300.0, 544.0, None, &[]).corners;
        let m = between(&a, &same_way(&a, &half_turn(&b)), 0.5);
        assert!((length(&m) - 90.0).abs() < 0.5, "{m:?}");
        assert!((centre(&m)[1] - 472.0).abs() < 0.5);
    }
}
