//! The token finder: tokens and markers lie on cards, so they are looked for on each
//! rectified card, where they are large and of a known size, rather than in the whole frame
//! where they are a few pixels wide. A small ONNX network gives a heat map of piece centres
//! over the card (stride 2); its peaks are mapped back to the frame.
//!
//! **A second look at faint spots.** A card's corners at the table are a little off, most
//! of all a covered card's lower corners, and its rectified picture is then stretched or
//! sheared: a real token on it comes out faint, and a faint spot is kept only if named at a
//! higher bar. A throwaway diagnostic on validation seed 12 and decks 1 and 2 ran the finder
//! on the true corners of the cards under the tokens tablelens lost: most it saw at a
//! peak of 0.5-0.9 there, against 0.2-0.4 on the corners tablelens found. So a card with a
//! faint spot is looked at again, rectified from its quad grown and shrunk about its
//! centre ([`RELOOK_SCALES`]), and a faint spot takes the highest peak any look gives it
//! there. Only the table gets a second look ([`TokenFinder::find_looking_again`]): a face
//! read at enrolment has exact corners.
//!
//! **Across the edge.** The finder sees only what lies inside a card's quad, so a token
//! lying across the card's edge, half on the table or the next card, is half cut off, and
//! often not seen at all. So a card is also looked at from its quad grown by a tenth (the
//! grown quad of the second look, [`RELOOK_SCALES`]), and a spot seen there clearly
//! ([`EDGE_PEAK`]) where the first look saw none is added.
//!
//! **Only cities and cards with a faint spot are looked at again.** Until session 48 every
//! card was looked at from its grown quad, for the edges: two runs of the finder a card.
//! Now only the cities (a marker may lie across a city's edge) and the cards with a faint
//! spot are. On the nine validation sets, decks 9 to 12, the held-out sets and decks 13 to
//! 16 (1,170 scenes) every layout reads as before (441 of 480, 205 of 240, 168 of 210, 179
//! of 240 exact; three tokens fewer found, on decks 11, 12 and 3, in scenes exact either
//! way), and the recast copies of the validation sets, decks 9 to 12 and seed 7 (780
//! scenes) identically. Cities left out too, seed 7 lost a battle marker across Iron Gate's
//! edge (55 -> 54 of 60 exact). The crowded table's frames ask the finder 52 and 64 runs
//! instead of 79 and 88, and their analyses took 249.9 and 299.6 ms instead of 275.2 and
//! 322.4 (`stage_times`, medians of three alternated rounds on 2 cores; ratios 0.91 and
//! 0.93). A city with no faint spot is looked at from its grown quad only: the shrunk look
//! can do nothing but raise faint spots. Every report of the 21 validation and held-out
//! sets came out the same to the digit, and the crowded table's frames ask the finder 48
//! and 60 runs instead of 52 and 64 (one core).
//!
//! **Under the least peak.** Some real tokens the first look sees only under
//! [`LEAST_PEAK`], where it reports nothing, while the second look sees them clearly (a
//! disable token on deck 7's Hunter: under 0.2 on the quad found, 0.54 on a second look).
//! So the looks at the table report spots from [`CANDIDATE_PEAK`], each faint spot takes
//! the highest peak any look gives it, and only then are the spots still under
//! [`LEAST_PEAK`] dropped. A spot kept so is marked [`Spot::raised`].
//!
//! **The other way up.** The finder misses some tokens lying clearly on a card, most
//! often on busy art: a shield on deck 2's Hunter peaked at 0.12 on the
//! card as found, and at 0.88 on the same crop turned half round (0.58 mirrored left to
//! right, 0.96 top to bottom; a -2 on seed 13's Stormtrooper 0.07 and 0.74). So a unit
//! with no spot kept, named under [`TURNED_UNDER`] (a token on it hides some of its art),
//! is looked at once more from its quad turned half round (a token turned is still a
//! token as printed, one mirrored is not), and a spot seen there from
//! [`TURNED_PEAK`] that no card's look saw is added, marked [`Spot::turned`] and so held
//! to the faint bar. A finder trained on cards turned half round as often as not read the
//! table worse than this second look does (`models/tokens.md`).

use super::assemble::{centre, half_turn, near_centre, scaled};
use super::nn::{push_chw, ItemNet, LEAST_SHARE};
use super::par;
use super::peaks::{is_peak, sigmoid, subcell};
use super::resample::{apply, rectify, unit_square_to_quad};
use super::VisionError;
use image::RgbImage;

/// Width of a rectified card fed to the token finder.
pub const CARD_CROP_W: u32 = 48;
/// Height of a rectified card fed to the token finder.
pub const CARD_CROP_H: u32 = 68;
/// Heat-map stride.
const STRIDE: f32 = 2.0;
/// A token's diameter as a share of a card's width (18 mm of 63 mm).
pub const TOKEN_SHARE: f32 = 18.0 / 63.0;
/// The least heat-map peak of a spot the finder reports.
pub const LEAST_PEAK: f32 = 0.2;
/// The least heat-map peak of a spot the looks at the table report before the second
/// look: one under [`LEAST_PEAK`] is kept only where another look raises it to that (see
/// the module's doc). On the nine validation sets (480 scenes) layouts exact were 430 of
/// 480 without (from [`LEAST_PEAK`]), 431 from 0.1, 432 from 0.12 and 0.14, 431 from 0.16;
/// from 0.14 the held-out sets (165 of 210) and the recast validation sets (395 of 480)
/// are read as before.
pub const CANDIDATE_PEAK: f32 = 0.14;
/// The heat-map peak from which a spot is sure; below it, down to [`LEAST_PEAK`], it is
/// *faint*: most often print on the card, sometimes a real token on a card whose corners
/// are a little off (a weak detection), which the finder then sees less clearly.
///
/// It was 0.4 until the finder was retrained on more face styles for longer (see
/// `models/tokens.md`), whose peaks on print and on real tokens both came out higher. On
/// validation scenes (seeds 12 / 11 / 13, decks 1, 2 and 5 to 8) layouts exact were 321 of
/// 480 at 0.3, 339 at 0.4, 345 at 0.5, 346 at 0.55, 347 at 0.6 and 343 at 0.7, with
/// tokens and markers found more precisely from 0.5 (deck 7: 99.4 -> 99.8%) and a little
/// less often from 0.55 (deck 8: recall 97.6% at 0.5, 97.0% at 0.6). Of the plateau the
/// lowest is kept: a real token seen faintly must be named at the faint bar, which cards
/// unlike the renderer's will reach less often.
pub const SURE_PEAK: f32 = 0.5;

/// How much a card's quad is grown or shrunk about its centre for the second look at its
/// faint spots. On validation scenes (seeds 12 / 11 / 13, decks 1 and 2) layouts exact were
/// 139 of 240 without a second look; 142 with 0.9 and 1.1; 141 with 0.85 and 1.15, with
/// 0.8, 0.9, 1.1 and 1.2, or with 1.1 alone; 140 with 0.9 alone; 138 with 0.95 and 1.05.
pub const RELOOK_SCALES: [f32; 2] = [0.9, 1.1];

/// The least peak at which a spot seen only on a card's grown look (the second of
/// [`RELOOK_SCALES`]) is added: one lying across the card's edge (see the module's doc). On
/// validation scenes (seeds 12 / 11 / 13, decks 1, 2 and 5 to 8) layouts exact were 428 of
/// 480 without, 429 at 0.6 and 0.7 (deck 1: a +1 lying across a scout's edge, now found),
/// 429 at 0.5 with one more marker found wrongly on a city; held out (seeds 7 / 0, decks 3
/// / 4) 163 -> 165 of 210 at 0.6. A quad grown by 1.2 instead: 426 and 157; by 1.15, 427;
/// by 1.05 (at 0.5), 429. Recast under coloured light: 393 -> 395 of 480 at 0.6.
pub const EDGE_PEAK: f32 = 0.6;

/// The least peak at which a spot seen on a unit's look the other way up is added, where
/// no look saw anything on it ([`Spot::turned`]; see the module's doc). On all 31 rendered
/// sets (`models/README.md`), layouts exact: validation 667 -> 668 of 720, unseen 949 ->
/// 951 of 1,050, none lost (deck 2 scene 9, seed 7 scene 50, deck 19 scene 26); tokens and
/// markers missed 184 -> 181, none more kept where none lay. The recast copies 813 of 930
/// either way: deck 2 scene 9 won, deck 10 scene 53 lost (a Hunter's art under a blue
/// light, read as a +2). Looking at every unit with no spot (not only those under
/// [`TURNED_UNDER`]), at 0.5 instead: 668 and 949 (deck 3 lost a scene to a spot of art);
/// held to the sure bar instead of the faint one: the same scenes as at 0.6; the spots
/// another card's look saw not left out: deck 4 lost a scene (a Commando's +1 read on the
/// Kid beside it).
pub const TURNED_PEAK: f32 = 0.6;

/// The similarity to its face under which a unit with no spot on it is looked at the other
/// way up ([`TokenFinder::find_looking_again`]): a token on it hides some of its art. On
/// validation deck 2, seed 7 and deck 19 (180 scenes), 897 of 1,877 units held no spot,
/// 217 of them named under 0.9; the spots added on the turned looks of all 897 lay on 7
/// units, the 3 real tokens among them on units named at 0.67 to 0.86. Every figure of the
/// 31 sets came out as when every unit with no spot was looked at; the crowded table's
/// frames (`stage_times`) ask the finder 51 and 84 runs (48 and 59 with no turned look, 78
/// and 88 with every such unit's). Criterion, five rounds alternated with the pipeline
/// before: far frame 158.6 against 158.1 ms (median per-round ratio 0.97), play frame,
/// where most units are named weakly, 172.2 against 161.3 ms (1.07).
pub const TURNED_UNDER: f32 = 0.9;

/// A token or marker the finder found on a card.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spot {
    /// Its square in frame pixels, clockwise from the top-left.
    pub corners: [[f32; 2]; 4],
    /// The heat map's peak there, from 0 to 1.
    pub peak: f32,
    /// Whether the card's first look saw it only under the finder's least peak and a
    /// second look raised it to that or more ([`TokenFinder::find_looking_again`]).
    pub raised: bool,
    /// Whether the finder saw it only on the card's look the other way up, on a unit where
    /// its first look saw nothing ([`TokenFinder::find_looking_again`]); such a spot counts
    /// as [`Spot::faint`], however high its peak.
    pub turned: bool,
}

impl Spot {
    /// The upright square of half-side `half` centred at `centre`, seen at `peak`.
    pub fn around(centre: [f32; 2], half: f32, peak: f32) -> Spot {
        let [x, y] = centre;
        Spot {
            corners: [
                [x - half, y - half],
                [x + half, y - half],
                [x + half, y + half],
                [x - half, y + half],
            ],
            peak,
            raised: false,
            turned: false,
        }
    }

    /// Whether the finder saw it only faintly (its peak is below [`SURE_PEAK`]), or only
    /// the other way up ([`Spot::turned`]).
    pub fn faint(&self) -> bool {
        self.peak < SURE_PEAK || self.turned
    }
}

/// The token-finder network.
#[derive(Debug)]
pub struct TokenFinder {
    net: ItemNet,
    /// The least heat-map peak of a spot it reports ([`LEAST_PEAK`] unless changed).
    pub threshold: f32,
}

impl TokenFinder {
    /// Loads the token finder from ONNX bytes.
    pub fn load(bytes: &[u8]) -> Result<TokenFinder, VisionError> {
        Ok(TokenFinder {
            net: ItemNet::load(
                "token finder",
                bytes,
                [3, CARD_CROP_H as usize, CARD_CROP_W as usize],
            )?,
            threshold: LEAST_PEAK,
        })
    }

    /// How many cards the network looked at since it was loaded ([`ItemNet::runs`]).
    pub fn runs(&self) -> usize {
        self.net.runs()
    }

    /// For each card (corners clockwise from its printed top-left), every token or marker
    /// found on it, strongest first. Runs on every core.
    pub fn find(
        &self,
        frame: &RgbImage,
        cards: &[[[f32; 2]; 4]],
    ) -> Result<Vec<Vec<Spot>>, VisionError> {
        self.find_from(frame, cards, self.threshold)
    }

    /// [`TokenFinder::find`], reporting spots from the heat-map peak `least`.
    fn find_from(
        &self,
        frame: &RgbImage,
        cards: &[[[f32; 2]; 4]],
        least: f32,
    ) -> Result<Vec<Vec<Spot>>, VisionError> {
        par::split(cards, LEAST_SHARE, |share| {
            self.find_here(frame, share, least)
        })
    }

    /// [`TokenFinder::find`] on cards whose corners were found at the table, and so may be
    /// a little off, or have tokens lying across their edges (`cities[i]` says whether card
    /// `i` is a city): each city and each card with a faint spot is looked at again from its
    /// quad grown by the second of [`RELOOK_SCALES`], where a spot seen clearly
    /// ([`EDGE_PEAK`]) and not seen before is added, and a card with a faint spot from its
    /// quad shrunk by the first too; its faint spots take the highest peak any look gives
    /// them. The looks report spots from [`CANDIDATE_PEAK`] (or the finder's least peak,
    /// if lower); a spot the first look saw under the least peak is kept only where
    /// another look raised it to that, and is marked [`Spot::raised`] (see the module's
    /// doc). Last, each card `unsure[i]` marks (a unit named under [`TURNED_UNDER`]) that
    /// holds no spot is looked at the other way up, and takes the spots seen there from
    /// [`TURNED_PEAK`] that no card's look saw, marked [`Spot::turned`].
    pub fn find_looking_again(
        &self,
        frame: &RgbImage,
        cards: &[[[f32; 2]; 4]],
        cities: &[bool],
        unsure: &[bool],
    ) -> Result<Vec<Vec<Spot>>, VisionError> {
        let [shrink, grow] = RELOOK_SCALES;
        let least = self.threshold;
        let candidate = CANDIDATE_PEAK.min(least);
        let mut found = self.find_from(frame, cards, candidate)?;
        for spots in &mut found {
            mark_under(spots, least);
        }
        // Each look again: the card, and whether from its grown quad (else its shrunk one);
        // a card's grown look first.
        let again: Vec<(usize, bool)> = relooks(&found, cities)
            .into_iter()
            .flat_map(|(i, faint)| std::iter::once((i, true)).chain(faint.then_some((i, false))))
            .collect();
        let quads: Vec<[[f32; 2]; 4]> = again
            .iter()
            .map(|&(i, grown)| scaled(&cards[i], if grown { grow } else { shrink }))
            .collect();
        let looks = self.find_from(frame, &quads, candidate)?;
        for (&(i, grown), look) in again.iter().zip(&looks) {
            if grown {
                add_at_edges(&mut found[i], look);
            }
            raise_faint(&mut found[i], look);
        }
        for spots in &mut found {
            keep_from(spots, least);
        }
        // Each unsure unit with no spot kept, looked at the other way up.
        let bare: Vec<usize> = (0..cards.len())
            .filter(|&i| found[i].is_empty() && unsure.get(i) == Some(&true))
            .collect();
        let turned: Vec<[[f32; 2]; 4]> = bare.iter().map(|&i| half_turn(&cards[i])).collect();
        let looks = self.find_from(frame, &turned, TURNED_PEAK.max(least))?;
        add_turned(&mut found, &bare, looks);
        Ok(found)
    }

    /// [`TokenFinder::find`] on this thread.
    fn find_here(
        &self,
        frame: &RgbImage,
        cards: &[[[f32; 2]; 4]],
        least: f32,
    ) -> Result<Vec<Vec<Spot>>, VisionError> {
        let (heat, shape) = self.net.run_items(cards.len(), |i, buf| {
            push_chw(buf, &rectify(frame, &cards[i], CARD_CROP_W, CARD_CROP_H))
        })?;
        if heat.is_empty() {
            return Ok(Vec::new());
        }
        if shape.len() != 3 || shape[0] != 1 {
            return Err(VisionError::Model(format!(
                "token finder output shape {shape:?}"
            )));
        }
        let (gh, gw) = (shape[1], shape[2]);
        Ok(heat
            .iter()
            .zip(cards)
            .map(|(plane, card)| squares(plane, gh, gw, card, least))
            .collect())
    }
}

/// The spots of a card's heat map `plane` (`gh` x `gw`) peaking at `least` or more, as
/// squares in the frame of the card at `card`, strongest first.
fn squares(plane: &[f32], gh: usize, gw: usize, card: &[[f32; 2]; 4], least: f32) -> Vec<Spot> {
    let Some(m) = unit_square_to_quad(card) else {
        return Vec::new();
    };
    let width = ((card[1][0] - card[0][0]).powi(2) + (card[1][1] - card[0][1]).powi(2)).sqrt();
    let half = width * TOKEN_SHARE / 2.0;
    let logit = (least / (1.0 - least)).ln();
    let mut found = Vec::new();
    for y in 0..gh {
        for x in 0..gw {
            let v = plane[y * gw + x];
            if v < logit {
                continue;
            }
            if !is_peak(plane, gw, gh, x, y, 2) {
                continue;
            }
            let (dx, dy) = subcell(plane, gw, gh, x, y);
            let u = f64::from((x as f32 + 0.5 + dx) * STRIDE / CARD_CROP_W as f32);
            let w = f64::from((y as f32 + 0.5 + dy) * STRIDE / CARD_CROP_H as f32);
            let (cx, cy) = apply(&m, u, w);
            found.push(Spot::around([cx as f32, cy as f32], half, sigmoid(v)));
        }
    }
    found.sort_by(|a, b| b.peak.total_cmp(&a.peak));
    found
}

/// The cards to look at again, given each card's spots from its first look (`found`) and
/// whether it is a city: each city and each card with a faint spot (see the module's doc),
/// with whether to look from its shrunk quad too, which can do nothing but raise faint
/// spots (so only for a card that has one).
fn relooks(found: &[Vec<Spot>], cities: &[bool]) -> Vec<(usize, bool)> {
    found
        .iter()
        .enumerate()
        .map(|(i, spots)| (i, spots.iter().any(Spot::faint)))
        .filter(|&(i, faint)| faint || cities.get(i) == Some(&true))
        .collect()
}

/// Marks each spot of `spots` seen under the peak `least` as [`Spot::raised`]: it stays only
/// if another look raises it ([`raise_faint`], then [`keep_from`]).
fn mark_under(spots: &mut [Spot], least: f32) {
    for s in spots {
        s.raised = s.peak < least;
    }
}

/// Drops the spots of `spots` still under the peak `least`.
fn keep_from(spots: &mut Vec<Spot>, least: f32) {
    spots.retain(|s| s.peak >= least);
}

/// Adds to `spots` (a card's, strongest first) each spot of `wider` (the same card looked at
/// from a grown quad) seen at [`EDGE_PEAK`] or more that lies half a spot's side or more
/// from every spot of `spots`, keeping them strongest first.
fn add_at_edges(spots: &mut Vec<Spot>, wider: &[Spot]) {
    let new: Vec<Spot> = wider
        .iter()
        .filter(|t| t.peak >= EDGE_PEAK)
        .filter(|t| {
            spots
                .iter()
                .all(|s| !near_centre(&t.corners, centre(&s.corners), 0.5))
        })
        .copied()
        .collect();
    if new.is_empty() {
        return;
    }
    spots.extend(new);
    spots.sort_by(|a, b| b.peak.total_cmp(&a.peak));
}

/// Gives each card `bare[k]` of `found` (one that holds no spot) the spots of `turned[k]`
/// (its look the other way up) that lie half a spot's side or more from every spot of
/// `found`, marked [`Spot::turned`]: a spot another card's look saw already is that card's
/// piece, seen again through the card on it.
fn add_turned(found: &mut [Vec<Spot>], bare: &[usize], turned: Vec<Vec<Spot>>) {
    let seen: Vec<[f32; 2]> = found.iter().flatten().map(|s| centre(&s.corners)).collect();
    for (&i, look) in bare.iter().zip(turned) {
        found[i] = look
            .into_iter()
            .filter(|t| seen.iter().all(|&c| !near_centre(&t.corners, c, 0.5)))
            .map(|t| Spot { turned: true, ..t })
            .collect();
    }
}

/// Gives each faint spot in `spots` the peak of the strongest spot of `again` (the same
/// card looked at again) within half a spot's side of it, where that is higher.
fn raise_faint(spots: &mut [Spot], again: &[Spot]) {
    for s in spots.iter_mut().filter(|s| s.faint()) {
        for t in again {
            if near_centre(&s.corners, centre(&t.corners), 0.5) && t.peak > s.peak {
                s.peak = t.peak;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spots_come_strongest_first_and_weak_ones_are_faint_or_dropped() {
        let (gw, gh) = (CARD_CROP_W as usize / 2, CARD_CROP_H as usize / 2);
        let mut plane = vec![-6.0f32; gw * gh];
        let logit = |p: f32| (p / (1.0 - p)).ln();
        plane[5 * gw + 5] = logit(0.3);
        plane[20 * gw + 15] = logit(0.9);
        plane[28 * gw + 8] = logit(0.1);
        let card = [[0.0, 0.0], [48.0, 0.0], [48.0, 68.0], [0.0, 68.0]];
        let spots = squares(&plane, gh, gw, &card, LEAST_PEAK);
        assert_eq!(spots.len(), 2, "{spots:?}");
        assert!((spots[0].peak - 0.9).abs() < 1e-3 && !spots[0].faint());
        assert!((spots[1].peak - 0.3).abs() < 1e-3 && spots[1].faint());
        // The strong one lies where its cell is, a token's width wide.
        let c = spots[0].corners;
        let centre = [(c[0][0] + c[2][0]) / 2.0, (c[0][1] + c[2][1]) / 2.0];
        assert!(
            (centre[0] - 31.0).abs() < 1.0 && (centre[1] - 41.0).abs() < 1.0,
            "{centre:?}"
        );
        assert!(((c[1][0] - c[0][0]) - 48.0 * TOKEN_SHARE).abs() < 0.1);
    }

    fn spot(x: f32, y: f32, peak: f32) -> Spot {
        Spot::around([x, y], 5.0, peak)
    }

    #[test]
    fn a_grown_look_adds_only_clear_spots_where_none_was_seen() {
        let mut spots = vec![spot(10.0, 10.0, 0.9), spot(30.0, 30.0, 0.3)];
        let wider = vec![
            // On the sure spot and on the faint one (under half a side off): not added.
            spot(12.0, 10.0, 0.95),
            spot(31.0, 30.0, 0.8),
            // Where none was seen, clearly: added, strongest first.
            spot(50.0, 10.0, 0.7),
            // Where none was seen, but not clearly: not added.
            spot(10.0, 50.0, EDGE_PEAK - 0.05),
        ];
        add_at_edges(&mut spots, &wider);
        let at: Vec<([f32; 2], f32)> = spots.iter().map(|s| (centre(&s.corners), s.peak)).collect();
        assert_eq!(
            at,
            vec![
                ([10.0, 10.0], 0.9),
                ([50.0, 10.0], 0.7),
                ([30.0, 30.0], 0.3)
            ]
        );
    }

    #[test]
    fn only_a_city_a_card_with_a_faint_spot_or_a_bare_unsure_unit_is_looked_at_again() {
        let finder = TokenFinder::load(crate::perceive::TOKENS_ONNX).unwrap();
        // Bare grey cloth: nothing on the cards, so one look at each.
        let frame = RgbImage::from_pixel(400, 300, image::Rgb([128, 128, 128]));
        let card = |x: f32| [[x, 50.0], [x + 60.0, 50.0], [x + 60.0, 134.0], [x, 134.0]];
        let cards = [card(20.0), card(140.0), card(260.0)];
        let found = finder
            .find_looking_again(&frame, &cards, &[false; 3], &[false; 3])
            .unwrap();
        assert!(found.iter().all(Vec::is_empty), "{found:?}");
        assert_eq!(finder.runs(), cards.len());
        // A city is looked at again from its grown quad, for markers across its edge; with
        // no faint spot on it, not from its shrunk one.
        let found = finder
            .find_looking_again(&frame, &cards, &[false, true, false], &[false; 3])
            .unwrap();
        assert!(found.iter().all(Vec::is_empty), "{found:?}");
        assert_eq!(finder.runs(), 2 * cards.len() + 1);
        // An unsure unit with nothing on it, the other way up as well.
        let found = finder
            .find_looking_again(&frame, &cards, &[false; 3], &[false, false, true])
            .unwrap();
        assert!(found.iter().all(Vec::is_empty), "{found:?}");
        assert_eq!(finder.runs(), 3 * cards.len() + 2);
    }

    #[test]
    fn a_turned_look_adds_only_spots_no_card_s_look_saw_and_marks_them_faint() {
        let mut found = vec![vec![spot(10.0, 10.0, 0.9)], vec![], vec![]];
        let turned = vec![
            // Card 1: one spot on card 0's (2 px off): that card's piece, not added; one
            // where no look saw any, added as turned, and so faint however clear.
            vec![spot(12.0, 10.0, 0.95), spot(50.0, 50.0, 0.8)],
            // Card 2: nothing the other way up either.
            vec![],
        ];
        add_turned(&mut found, &[1, 2], turned);
        let at = |spots: &[Spot]| -> Vec<([f32; 2], bool, bool)> {
            spots
                .iter()
                .map(|s| (centre(&s.corners), s.turned, s.faint()))
                .collect()
        };
        assert_eq!(at(&found[0]), vec![([10.0, 10.0], false, false)]);
        assert_eq!(at(&found[1]), vec![([50.0, 50.0], true, true)]);
        assert!(found[2].is_empty());
    }

    #[test]
    fn a_city_is_looked_at_again_and_shrunk_only_with_a_faint_spot() {
        let found = vec![
            vec![],
            vec![spot(10.0, 10.0, 0.9), spot(30.0, 30.0, 0.3)],
            vec![spot(10.0, 10.0, 0.9)],
            vec![],
            vec![spot(10.0, 10.0, 0.15)],
            vec![spot(10.0, 10.0, 0.9)],
        ];
        let cities = [false, false, true, true, true, false];
        // A card with nothing faint on it and no city (0 and 5): not at all. A card with a
        // faint spot (1, and the city 4 with one under the least peak): both looks. A city
        // with nothing faint (2 and 3): its grown look only.
        assert_eq!(
            relooks(&found, &cities),
            vec![(1, true), (2, false), (3, false), (4, true)]
        );
    }

    #[test]
    fn a_second_look_raises_only_faint_spots_and_only_where_it_sees_them() {
        let mut spots = vec![
            spot(10.0, 10.0, 0.9),
            spot(30.0, 30.0, 0.3),
            spot(60.0, 60.0, 0.25),
        ];
        let again = vec![
            // Beside the sure spot, stronger still: the sure spot is left as it is.
            spot(11.0, 10.0, 0.95),
            // On the first faint spot (2 px off, under half a side): raised.
            spot(32.0, 30.0, 0.7),
            // Weaker than the first faint spot, on it: no change from this one.
            spot(30.0, 31.0, 0.2),
            // Near the second faint spot, but more than half a side away: not raised.
            spot(66.0, 60.0, 0.8),
            // Found only on the second look: not added.
            spot(90.0, 90.0, 0.9),
        ];
        raise_faint(&mut spots, &again);
        let peaks: Vec<f32> = spots.iter().map(|s| s.peak).collect();
        assert_eq!(peaks, vec![0.9, 0.7, 0.25]);
        assert!(!spots[1].faint() && spots[2].faint());
    }

    #[test]
    fn a_spot_under_the_least_peak_stays_only_where_another_look_raises_it() {
        let mut spots = vec![
            spot(10.0, 10.0, 0.9),
            spot(30.0, 10.0, 0.16),
            spot(10.0, 40.0, 0.15),
        ];
        mark_under(&mut spots, LEAST_PEAK);
        // The second look sees the middle one clearly, and the last still faintly.
        raise_faint(
            &mut spots,
            &[spot(31.0, 11.0, 0.54), spot(10.0, 41.0, 0.18)],
        );
        keep_from(&mut spots, LEAST_PEAK);
        let kept: Vec<(f32, bool)> = spots.iter().map(|s| (s.peak, s.raised)).collect();
        assert_eq!(kept, vec![(0.9, false), (0.54, true)]);
    }

    #[test]
    fn a_quad_is_scaled_about_its_centre() {
        let q = [[0.0, 0.0], [40.0, 0.0], [40.0, 60.0], [0.0, 60.0]];
        assert_eq!(
            scaled(&q, 1.1),
            [[-2.0, -3.0], [42.0, -3.0], [42.0, 63.0], [-2.0, 63.0]]
        );
        assert_eq!(centre(&scaled(&q, 0.9)), centre(&q));
    }
}
