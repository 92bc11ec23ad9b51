//! The cards of the columns in quads squared on the table's plane.
//!
//! In a crowded column the refiner often puts one short edge of a card right and the other
//! a quarter to a half of a card off: on the edge of the card that covers it, or short of its
//! own. The table's plane ([`super::plane`]), seen from the city cards, gives a card's true
//! length from either of its short edges: its *squared* quads, one kept from each short
//! edge.
//!
//! - A card of a column still unknown after the gap search is cropped in its two squared
//!   quads ([`look`]) and named among the unit faces of its column's side, both ways up, if
//!   the better crop reaches [`BAR`]. A crop that is a card already named seen twice names
//!   nothing. On validation scenes (canonical seeds 12 / 11 / 13, decks 1 and 2) this
//!   placed 98.6 / 99.3 / 99.4 / 95.6 / 97.8% of units before and 98.6 / 99.3 / 99.4 / 95.7 /
//!   97.9% after, layouts exact 160 -> 161 of 240, with no more cards named wrong.
//! - A named unit of a column is cropped in other quads too ([`true_up`]), and takes the
//!   one whose crop is most like its face, if more than its own quad's crop. Its tokens
//!   and module strip are then looked for on the card where it lies. The other quads are
//!   its squared quads, where they move a corner by [`LEAST_CHANGE`] of its width or more,
//!   and its *laid* quads: a card of the columns' usual width on the table, laid along its
//!   city's axis about the unit's middle, and slid from there ([`LAID_SLIDE`]), which mends
//!   a quad of the wrong width or turn; a laid quad must be more alike by [`LAID_MARGIN`],
//!   and is looked at only where the unit's quad is off the laid one by [`LAID_FROM`]. A
//!   unit already named at [`SURE_QUAD`] or more keeps its quad; one named at
//!   [`SURE_LAID`] or more is looked at in its squared quads only.
//!
//!   With the squared quads alone, modules under the right unit went 93.1 / 98.7 / 97.6 /
//!   93.1 / 89.4% -> 95.0 / 98.7 / 97.6 / 95.0 / 89.4%, tokens 95.0 / 96.3 / 98.8 / 90.8 /
//!   94.8% -> 95.0 / 96.9 / 98.8 / 90.8 / 95.3%, layouts exact 161 -> 164. Looking from a
//!   change of 0.04 of the width gave 160 exact, 0.08 gave 162, 0.1 and 0.12 gave 163, 0.2
//!   and 0.25 gave 161. (These figures and the first item's were measured while the
//!   plane's fit still let a city's width and length swap; mended, the two together
//!   read every validation layout the same.) The laid quads then took modules to 96.2 /
//!   98.7 / 97.6 / 95.6 /
//!   91.9% and layouts exact to 169; with margins of 0, 0.02, 0.08 and 0.12 they gave 167,
//!   168, 168 and 165, and slides of 0 only, or of 0 and +-0.05, 166 and 163 (margins 0.05
//!   and 0).
//! - A unit turned back to face its city is named again in its squared quads as well as
//!   its own ([`squared_quads`], `facing::name_again`).

use super::assemble::{centre, dist, look_one_way, look_other_way, median, Frame, Piece};
use super::detect::{Detection, PieceClass};
use super::identify::{Embedder, Gallery};
use super::plane::{Anchor, TablePlane, CARD_ASPECT};
use super::quad_window::Quad;
use super::refine::{farthest, same_card};
use super::second_look::LEAST_FIRST_SIMILARITY;
use super::sides::{column_of, name_as_unit};
use super::VisionError;
use image::RgbImage;
use tablelens_engine::{Catalogue, Side};

/// The least similarity at which a squared crop names an unknown card: the bar of the
/// second look and of the gap search against a city (two crops tried, among a side's
/// faces).
pub const BAR: f32 = 0.6;

/// How far (as a share of the card's width) a squared quad must move a corner of a named
/// unit before it is looked at.
pub const LEAST_CHANGE: f32 = 0.15;

/// Where a named unit's laid quads lie besides its middle: slid along its long axis by this
/// share of its length either way. They are looked at only where the crop of the laid quad
/// at its middle is more like the unit's face than its own quad's, in a second batch of
/// crops ([`true_up`]). On 1,770 scenes (validation and unseen, `models/README.md`) that
/// read 7 layouts otherwise, validation 632 -> 633 of 720 and unseen 853 -> 851 of 1,050,
/// with cards, tokens and strips named wrong 160 -> 159; the play frame of the speed
/// benchmark asked 71 -> 51 crops here (network runs 327 -> 307, `stage_times` on one
/// core), the far frame 24 -> 20.
pub const LAID_SLIDE: f64 = 0.08;

/// How much more like its face a laid quad's crop must be than the best crop before it, to
/// be taken: a laid quad has the columns' usual width, not the card's own.
pub const LAID_MARGIN: f32 = 0.05;

/// How far (as a share of its width) a named unit's quad must lie from its laid quad at its
/// middle before its laid quads are looked at. On validation scenes this skipped a quarter
/// of the units and read every layout as before; 0.1 skipped 70% and left 2 fewer layouts
/// of 240 exact.
pub const LAID_FROM: f32 = 0.05;

/// The similarity to its face from which a named unit is looked at in its squared quads
/// only, not its laid ones, in [`true_up`] (up to [`SURE_QUAD`], from which it keeps its
/// quad). On the thirteen validation sets (seeds 12 / 11 / 13, decks 1, 2 and 5 to 12)
/// 3,638 units were trued up with 13,331 crops; of the 732 named at 0.9 to 0.95, the 2,190
/// crops of their laid quads were taken 7 times, the 201 of their squared quads 26 times.
/// From 0.9, every figure of those sets' reports, of their copies under a coloured light
/// and seed 7's (`examples/recast.rs`), and of the held-out sets (seeds 7 and 0, decks 3,
/// 4 and 13 to 16) came out as before, while the crowded table's frames asked 21 and 6
/// fewer crops (323 -> 302 and 389 -> 383 network runs, `stage_times` on one core). From
/// 0.85 seed 7's recast copy lost a token (one layout), from 0.8 deck 7 lost a strip, from
/// 0.7 deck 11 a layout.
pub const SURE_LAID: f32 = 0.9;

/// The similarity to its face from which a named unit keeps its quad without looking at
/// others in [`true_up`]: its crop is already about as like its face as crops get. On
/// validation seed 12 and decks 1 and 2 (180 scenes) 1,991 units were trued up with 4,087
/// crops; of the 432 at 0.95 or more none took another quad, of the 408 from 0.9 to 0.95
/// nine did. From 0.95, 461 fewer crops (11%), and every validation layout (seeds 12 / 11 /
/// 13, decks 1, 2 and 5 to 8), and every one of their copies under a coloured light
/// (`examples/recast.rs`), read as before. From 0.9 (27% fewer crops) one validation layout
/// lost a fault, but a recast one gained one; from 0.85 one validation layout fewer exact.
/// Tried from 0.9 again later (with the faint-only second look of the token finder): on
/// the speed benchmark's two frames the embedder ran 22 and 7 times fewer (324 -> 302 and
/// 392 -> 385 network runs), every layout read as before, but three validation strips, two
/// recast strips and a recast token were lost; kept at 0.95. Leaving out only the laid
/// quads from 0.9 ([`SURE_LAID`]) saves about as many crops and changed no figure.
pub const SURE_QUAD: f32 = 0.95;

/// The plane of the table from the cards named as cities, with the enrolled cards' aspect,
/// if they give one.
pub fn table_plane(frame: &RgbImage, pieces: &[Piece], gallery: &Gallery) -> Option<TablePlane> {
    plane_of(frame, &city_quads(pieces), gallery)
}

fn plane_of(frame: &RgbImage, cities: &[Quad], gallery: &Gallery) -> Option<TablePlane> {
    let aspect = gallery.card_aspect.unwrap_or(CARD_ASPECT);
    TablePlane::of_cities(cities, frame.width() as f32, aspect)
}

/// The quads of the cards named as cities.
fn city_quads(pieces: &[Piece]) -> Vec<Quad> {
    pieces
        .iter()
        .filter(|p| p.named_city())
        .map(|p| p.corners)
        .collect()
}

/// What the squared looks know of the table: the cards named as cities, their axes (for
/// [`column_of`]) and the plane they give.
struct Table {
    cities: Vec<Quad>,
    columns: Vec<Frame>,
    plane: TablePlane,
}

impl Table {
    /// The table as the cards named as cities show it, if they give a plane.
    fn of(frame: &RgbImage, pieces: &[Piece], gallery: &Gallery) -> Option<Table> {
        let cities = city_quads(pieces);
        let plane = plane_of(frame, &cities, gallery)?;
        let columns = cities.iter().map(Frame::of).collect();
        Some(Table {
            cities,
            columns,
            plane,
        })
    }

    /// The column a card lies in: its city's index and its side.
    fn column_of(&self, p: &Piece) -> Option<(usize, Side)> {
        column_of(&self.columns, centre(&p.corners)).map(|(city, side, _)| (city, side))
    }
}

/// Both squared quads of a card, as detections to crop.
fn squared_tries(plane: TablePlane, p: &Piece) -> impl Iterator<Item = Detection> {
    let (corners, score) = (p.corners, p.score);
    [Anchor::Near, Anchor::Far]
        .into_iter()
        .filter_map(move |anchor| plane.squared(&corners, anchor))
        .map(move |corners| Detection::card(corners, score))
}

/// Looks at each unknown card of a column in its squared quads, and names those whose
/// better crop reaches [`BAR`] (see the module's doc).
pub fn look(
    frame: &RgbImage,
    catalogue: &Catalogue,
    pieces: &mut [Piece],
    embedder: &Embedder,
    gallery: &Gallery,
) -> Result<(), VisionError> {
    let Some(table) = Table::of(frame, pieces, gallery) else {
        return Ok(());
    };
    let mut tries = Vec::new();
    let mut owners: Vec<(usize, Side)> = Vec::new();
    for (i, p) in pieces.iter().enumerate() {
        if p.class != PieceClass::Card || p.id.is_some() || p.similarity < LEAST_FIRST_SIMILARITY {
            continue;
        }
        let Some((_, side)) = table.column_of(p) else {
            continue;
        };
        for t in squared_tries(table.plane, p) {
            tries.push(t);
            owners.push((i, side));
        }
    }
    if tries.is_empty() {
        return Ok(());
    }
    let (mut looks, crops) = look_one_way(frame, &tries, embedder, gallery)?;
    let all: Vec<usize> = (0..looks.len()).collect();
    look_other_way(&mut looks, &crops, &all, embedder, gallery)?;
    let mut best: Vec<Option<Piece>> = vec![None; pieces.len()];
    for (look, &(i, side)) in looks.into_iter().zip(&owners) {
        let id = name_as_unit(catalogue, gallery, &look.similarities, side);
        let Some(named) = id.id.filter(|_| id.score >= BAR) else {
            continue;
        };
        if best[i].as_ref().is_some_and(|b| b.similarity >= id.score) {
            continue;
        }
        best[i] = Some(Piece {
            id: Some(named),
            similarity: id.score,
            best: id.best,
            ..look
        });
    }
    for (i, found) in best.into_iter().enumerate() {
        let Some(found) = found else { continue };
        let twice = pieces
            .iter()
            .enumerate()
            .any(|(k, p)| k != i && p.id.is_some() && same_card(&p.corners, &found.corners));
        if !twice {
            pieces[i] = found;
        }
    }
    Ok(())
}

/// The squared quads of the cards `units` points to in `pieces`, each with its index in
/// `units`; none where the cities give no plane of the table.
pub fn squared_quads(
    frame: &RgbImage,
    pieces: &[Piece],
    gallery: &Gallery,
    units: &[usize],
) -> Vec<(usize, Detection)> {
    let Some(plane) = table_plane(frame, pieces, gallery) else {
        return Vec::new();
    };
    let tries = units.iter().enumerate();
    tries
        .flat_map(|(k, &i)| squared_tries(plane, &pieces[i]).map(move |t| (k, t)))
        .collect()
}

/// A piece's similarity to the face `id`, as its last look found it.
fn likeness(p: &Piece, id: &str) -> Option<f32> {
    p.similarities
        .iter()
        .find(|(face, _)| face == id)
        .map(|s| s.1)
}

/// A named piece's similarity to its own face, as its last look found it (its best
/// similarity where that face is not among its similarities).
fn own_likeness(p: &Piece) -> f32 {
    p.id.as_deref()
        .and_then(|id| likeness(p, id))
        .unwrap_or(p.similarity)
}

/// Gives each named unit of a column the squared or laid quad whose crop is more like its
/// face than its own quad's, if one is (see the module's doc).
pub fn true_up(
    frame: &RgbImage,
    pieces: &mut [Piece],
    embedder: &Embedder,
    gallery: &Gallery,
) -> Result<(), VisionError> {
    let Some(table) = Table::of(frame, pieces, gallery) else {
        return Ok(());
    };
    // The named units of the columns, with their city's quad.
    let units: Vec<(usize, &Quad)> = pieces
        .iter()
        .enumerate()
        .filter(|(_, p)| p.named_non_city())
        .filter_map(|(i, p)| Some((i, table.cities.get(table.column_of(p)?.0)?)))
        .collect();
    let plane = table.plane;
    let widths = units
        .iter()
        .map(|&(i, _)| plane.width_of(&pieces[i].corners) as f32);
    let Some(unit_width) = median(widths).map(f64::from) else {
        return Ok(());
    };
    let mut detections = Vec::new();
    // For each try: the unit it is for, and by how much its crop must be more alike.
    let mut owners: Vec<(usize, f32)> = Vec::new();
    // The tries at a laid quad's middle: the try, and its unit's city.
    let mut middles: Vec<(usize, &Quad)> = Vec::new();
    for &(i, city) in &units {
        let p = &pieces[i];
        if own_likeness(p) >= SURE_QUAD {
            continue;
        }
        let c = &p.corners;
        let width = dist(c[0], c[1]).min(dist(c[1], c[2]));
        let laid = plane.card_at(centre(c), unit_width, city, c, 0.0);
        if let Some(q) = laid.filter(|q| worth_laying(p, Some(q), width)) {
            middles.push((detections.len(), city));
            detections.push(Detection::card(q, p.score));
            owners.push((i, LAID_MARGIN));
        }
        for t in squared_tries(plane, p) {
            if farthest(&t.corners, c) >= LEAST_CHANGE * width {
                detections.push(t);
                owners.push((i, 0.0));
            }
        }
    }
    if detections.is_empty() {
        return Ok(());
    }
    // The corners keep the printed order the card was named in, so one way up is enough.
    let (mut looks, _) = look_one_way(frame, &detections, embedder, gallery)?;
    // The laid quads slid either way, where the one at the middle was more alike than the
    // unit's own quad.
    let mut slid = Vec::new();
    for &(k, city) in &middles {
        let (i, _) = owners[k];
        let p = &pieces[i];
        let closer = p.id.as_deref().and_then(|id| likeness(&looks[k], id));
        if !closer.is_some_and(|s| s > own_likeness(p)) {
            continue;
        }
        let c = &p.corners;
        for slide in [-LAID_SLIDE, LAID_SLIDE] {
            if let Some(q) = plane.card_at(centre(c), unit_width, city, c, slide) {
                slid.push(Detection::card(q, p.score));
                owners.push((i, LAID_MARGIN));
            }
        }
    }
    if !slid.is_empty() {
        looks.extend(look_one_way(frame, &slid, embedder, gallery)?.0);
    }
    let mut best: Vec<Option<(f32, Piece)>> = vec![None; pieces.len()];
    for (look, &(i, margin)) in looks.into_iter().zip(&owners) {
        let Some(id) = pieces[i].id.as_deref() else {
            continue;
        };
        let Some(s) = likeness(&look, id) else {
            continue;
        };
        let now = best[i].as_ref().map_or(own_likeness(&pieces[i]), |b| b.0);
        if s > now + margin {
            best[i] = Some((s, look));
        }
    }
    for (p, b) in pieces.iter_mut().zip(best) {
        if let Some((s, look)) = b {
            p.corners = look.corners;
            p.similarities = look.similarities;
            p.similarity = s;
        }
    }
    Ok(())
}

/// Whether a named unit `width` wide is worth looking at in its laid quads, its middle one
/// `laid`: not one named at [`SURE_LAID`] or more, nor one whose quad is already about the
/// laid one (under [`LAID_FROM`] of its width off).
fn worth_laying(p: &Piece, laid: Option<&Quad>, width: f32) -> bool {
    own_likeness(p) < SURE_LAID
        && laid.is_some_and(|l| farthest(l, &p.corners) >= LAID_FROM * width)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perceive::assemble::upright_card as card;

    #[test]
    fn only_a_unit_named_under_the_laid_bar_and_off_its_laid_quad_is_laid() {
        // A unit 60 px wide whose laid quad lies 6 px (a tenth of its width) off its own.
        let named = |s: f32| card(300.0, 400.0, Some("commando"), &[("commando", s)]);
        let off = named(0.8).corners.map(|[x, y]| [x + 6.0, y]);
        assert!(worth_laying(&named(0.8), Some(&off), 60.0));
        assert!(!worth_laying(&named(SURE_LAID), Some(&off), 60.0));
        assert!(!worth_laying(&named(0.92), Some(&off), 60.0));
        // Its quad already about the laid one, or no laid quad at all.
        let near = named(0.8).corners.map(|[x, y]| [x + 2.0, y]);
        assert!(!worth_laying(&named(0.8), Some(&near), 60.0));
        assert!(!worth_laying(&named(0.8), None, 60.0));
    }

    #[test]
    fn no_plane_without_two_cities() {
        let g: Gallery = serde_json::from_str(r#"{"model": "m", "entries": []}"#).unwrap();
        let frame = RgbImage::new(800, 600);
        let one = vec![
            card(300.0, 300.0, Some("ziggy_one"), &[("ziggy_one", 0.9)]),
            card(300.0, 400.0, Some("commando"), &[("commando", 0.9)]),
        ];
        assert!(table_plane(&frame, &one, &g).is_none());
        let mut two = one.clone();
        two.push(card(400.0, 300.0, Some("new_york"), &[("new_york", 0.9)]));
        assert!(table_plane(&frame, &two, &g).is_some());
    }
}
