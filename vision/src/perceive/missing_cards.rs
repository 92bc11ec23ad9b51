//! Cards most likely left out: the places inside a column where, once every look is done,
//! the column's named cards still leave room for a card that nothing found or named
//! ([`super::gaps::missing`]: two neighbours about two steps apart, or a first unit a step
//! further from its city than first units lie in the frame). The layout lists them as
//! `missing`, and the engine warns of each, so that a player whose totals lack a card is
//! told where to look.
//!
//! The places beyond a column's last named unit are not listed: there only a card left
//! unknown further out says the column goes on, and that card is listed as unknown already.
//! Nor is a place where a card lies that no look could name (it is listed as unknown).
//!
//! The columns say where such a card lies, and how large it is, so a place still missing
//! once every other look is done is looked at once more ([`name`]) and named by the unit
//! face of its side most like it where that reaches [`NAMED_BAR`], however close the next
//! face came. Only a place none reaches is listed, with the [`LIKELY`] unit faces of its
//! side most like it ([`offer_likely`]), for the player who names the card to choose from.
//!
//! On the 31 rendered sets of `models/README.md` (session 64), 41 places were missing once
//! the other looks were done, every one in a layout not exactly right, all but one over a
//! unit the truth has there (the other lay 1.3 cards from the nearest). Naming them took
//! the layouts exact from 656 to 659 of 720 (validation) and from 927 to 932 of 1,050
//! (unseen), the recast copies from 796 to 797 of 930; no scene was lost and no piece more
//! named wrong (19 cards named, all right). The 22 places left are listed: validation 7 (in
//! 7 layouts), unseen 15 (in 14), all in layouts not exactly right. Listing them took the
//! layouts not exactly right that list something for the player to look at (a doubt, an
//! unknown piece or a missing card) from 48 to 51 of 64 (validation), 86 to 96 of 123
//! (unseen) and 98 to 104 of 134 (recast), with the right ones that do unchanged (172, 238,
//! 233), before the naming; after it, 48 of 61, 89 of 118, and 175 and 239 right ones.
//!
//! **Tokens painted out** (session 74). The six places still left that were looked at
//! each lay over a unit with tokens on it, which hide its face as they hide a card the first
//! looks leave unknown ([`super::under_tokens`]). So a place no plain crop names is cropped
//! again in the same quads with the token finder's spots painted out
//! (`under_tokens::painted_similarities`), and named by a painted crop only clearly
//! ([`painted_name`]): its best unit face of the side reaches [`NAMED_BAR`], leads the next
//! by the card class's lead, and is one of the [`LIKELY`] faces the plain crops found most
//! like it. On the 31 sets the layouts exact went from 664 to 667 of 720 (validation) and
//! 948 to 949 of 1,050 (unseen), the recast copies 812 to 813 of 930, no scene lost and no
//! piece more named wrong (pieces named right +11 and +9, tokens included). Without the
//! lead, a Scout under a +1 token was named Commando (deck 1); without the likely faces, a
//! Hunter under tokens that no plain crop found likely was named right (deck 5), but on the
//! recast copies two places were named wrong (deck 3, then left unknown as copies too
//! many). The crowded table of the speed target has no such place: its frames run the same
//! networks as before.

use super::assemble::{centre, Piece};
use super::detect::PieceClass;
use super::gaps::{self, Place, Readers};
use super::refine::same_card;
use super::sides::{city_cards, city_frames, column_of, is_unit_of};
use super::tokens::TokenFinder;
use super::under_tokens::painted_similarities;
use super::VisionError;
use image::RgbImage;
use tablelens_engine::layout::MissingCard;
use tablelens_engine::{Catalogue, CityId, Corners, Side};

/// The least similarity at which the best unit face of its column's side names the card at
/// a place still missing once every other look is done ([`name`]), whatever its lead over
/// the next face. On the 31 rendered sets, the best faces at such places were all right
/// from 0.536 up (21 cards) and 6 of 21 right below it: at 0.55, 19 named, none wrong;
/// 0.525 (the card bar), 22 named, one wrong (a Nestugov named Scorn at 0.529).
pub const NAMED_BAR: f32 = 0.55;

/// The places inside the columns of `pieces` where a card most likely lies that no piece
/// covers, found or named ([`gaps::missing`], its places inside a column).
fn unread(pieces: &[Piece], catalogue: &Catalogue) -> Vec<Place> {
    gaps::missing(pieces, catalogue)
        .into_iter()
        .filter(Place::inside)
        .filter(|place| {
            !pieces
                .iter()
                .any(|p| p.class == PieceClass::Card && same_card(&p.corners, &place.quad))
        })
        .collect()
}

/// How many unit faces a place left missing offers the player, most like it first
/// ([`Unnamed::likely`], the layout's `MissingCard::likely`).
pub const LIKELY: usize = 3;

/// A place [`name`] looked at and left missing: no unit face reached [`NAMED_BAR`] there.
#[derive(Debug, Clone, PartialEq)]
pub struct Unnamed {
    /// Where the card would lie.
    pub quad: Corners,
    /// The unit faces of its column's side most like what lies there, by its plain crops and
    /// those with its tokens painted out, most like first (at most [`LIKELY`]): the guesses
    /// to offer a player who names the card.
    pub likely: Vec<String>,
}

/// Names the card at each place still missing from a column once every other look is done
/// (the cards dropped as unlikely too): the place's crops, as the gaps' looks cut them
/// (`gaps::look_at`), by the best unit face of its column's side where that reaches
/// [`NAMED_BAR`], as the columns say a card lies there. A place none reaches stays missing,
/// and is returned with the faces most like it.
pub fn name(
    frame: &RgbImage,
    catalogue: &Catalogue,
    pieces: &mut Vec<Piece>,
    readers: Readers,
    tokens: &TokenFinder,
) -> Result<Vec<Unnamed>, VisionError> {
    let places = unread(pieces, catalogue);
    if places.is_empty() {
        return Ok(Vec::new());
    }
    let mut looks = gaps::look_at(frame, &places, readers)?;
    let mut found: Vec<Option<Piece>> = places
        .iter()
        .zip(&looks)
        .map(|(place, looks)| {
            gaps::most_like_a_unit(looks, catalogue, place.side)
                .filter(|b| b.similarity >= NAMED_BAR)
        })
        .collect();
    // The places no crop names: their crops again, with the tokens on them painted out.
    let short: Vec<usize> = (0..places.len()).filter(|&i| found[i].is_none()).collect();
    let quads: Vec<[[f32; 2]; 4]> = short
        .iter()
        .flat_map(|&i| looks[i].iter().map(|l| l.corners))
        .collect();
    let Readers {
        embedder, gallery, ..
    } = readers;
    let mut painted = painted_similarities(frame, &quads, tokens, embedder, gallery)?.into_iter();
    for &i in &short {
        let side = places[i].side;
        let again: Vec<Piece> = looks[i]
            .iter()
            .zip(painted.by_ref())
            .filter_map(|(look, sims)| {
                Some(Piece {
                    similarities: sims?,
                    ..look.clone()
                })
            })
            .collect();
        let likely = likeliest(&looks[i], catalogue, side);
        found[i] = painted_name(&again, catalogue, side, gallery.thresholds.margin, &likely);
        looks[i].extend(again);
    }
    let mut unnamed = Vec::new();
    for ((place, looks), found) in places.iter().zip(&looks).zip(found) {
        match found {
            Some(found) => pieces.push(Piece {
                id: Some(found.best.clone()),
                ..found
            }),
            None => unnamed.push(Unnamed {
                quad: place.quad,
                likely: likeliest(looks, catalogue, place.side),
            }),
        }
    }
    Ok(unnamed)
}

/// Of the painted `looks` at one place (its crops with the tokens on them painted out), the
/// one whose best unit face of `side` reaches [`NAMED_BAR`], leads the next by `lead` (the
/// card class's) or more, and is one of the faces the plain crops found `likely`
/// ([`likeliest`]), most alike; left unnamed, with that face as its best and its likeness
/// to it as its similarity. Painted discs are no face either: unlike a plain crop (see
/// [`name`]), a painted one names a card only clearly, and only as one the plain crops saw.
fn painted_name(
    looks: &[Piece],
    catalogue: &Catalogue,
    side: Side,
    lead: f32,
    likely: &[String],
) -> Option<Piece> {
    gaps::most_like_a_unit_where(looks, catalogue, side, |face, s, by| {
        s >= NAMED_BAR && by >= lead && likely.iter().any(|l| l == face)
    })
}

/// The unit faces of `side` that `looks` at one place rate highest (each face by its best
/// look), most like first, at most [`LIKELY`].
fn likeliest(looks: &[Piece], catalogue: &Catalogue, side: Side) -> Vec<String> {
    let mut faces: Vec<(&str, f32)> = Vec::new();
    let rated = looks.iter().flat_map(|l| &l.similarities);
    for (face, s) in rated.filter(|(f, _)| is_unit_of(catalogue, f, side)) {
        match faces.iter_mut().find(|(f, _)| f == face) {
            Some((_, best)) => *best = best.max(*s),
            None => faces.push((face, *s)),
        }
    }
    faces.sort_by(|a, b| b.1.total_cmp(&a.1));
    faces.truncate(LIKELY);
    faces.into_iter().map(|(f, _)| f.to_string()).collect()
}

/// Gives each place of `missing` that [`name`] looked at and left unnamed (the same quad)
/// the unit faces most like it ([`Unnamed::likely`]).
pub fn offer_likely(missing: &mut [MissingCard], unnamed: &[Unnamed]) {
    for m in missing {
        let Some(corners) = m.corners else { continue };
        if let Some(u) = unnamed.iter().find(|u| same_card(&u.quad, &corners)) {
            m.likely = u.likely.clone();
        }
    }
}

/// The places inside the columns of `pieces` (the analysis's last) where a card most likely
/// lies unread, each with its city, its column's side and the named units either side.
pub fn find(catalogue: &Catalogue, pieces: &[Piece]) -> Vec<MissingCard> {
    // The city cards, in the order of their frames.
    let cards = city_cards(pieces);
    let frames = city_frames(pieces);
    let unit = |i: Option<usize>| i.and_then(|i| pieces.get(i)?.id.clone());
    let mut out: Vec<MissingCard> = unread(pieces, catalogue)
        .into_iter()
        .filter_map(|place| {
            let (k, _, _) = column_of(&frames, centre(&place.quad))?;
            let (city, _) = CityId::parse_face(pieces[*cards.get(k)?].id.as_deref()?)?;
            Some(MissingCard {
                city,
                side: place.side,
                after: unit(place.between[0]),
                before: unit(place.between[1]),
                corners: Some(place.quad),
                likely: Vec::new(),
            })
        })
        .collect();
    out.sort_by_key(|m| (m.city, m.side));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perceive::assemble::{outpost_column as column, upright_card as card};
    use tablelens_engine::Side;

    #[test]
    fn a_double_step_and_a_first_unit_a_step_out_are_cards_missing_between_their_neighbours() {
        let cat = Catalogue::bundled();
        // Steps of 72 px (0.8 of a card) and one of 144 between the 2nd and 3rd unit.
        // Each unit named its own, from the city out.
        let named = |ys: &[f32]| {
            let mut pieces = column(ys);
            for (p, id) in pieces[1..]
                .iter_mut()
                .zip(["trooper", "scout", "kid", "runner"])
            {
                p.id = Some(id.to_string());
            }
            pieces
        };
        let mut pieces = named(&[400.0, 472.0, 616.0, 688.0]);
        let found = find(&cat, &pieces);
        assert_eq!(found.len(), 1, "{found:?}");
        let m = &found[0];
        assert_eq!(
            (m.city, m.side, m.after.as_deref(), m.before.as_deref()),
            (CityId::ZiggyOne, Side::Outpost, Some("scout"), Some("kid"))
        );
        let c = centre(&m.corners.expect("corners"));
        assert!(
            (c[1] - 544.0).abs() < 0.5 && (c[0] - 300.0).abs() < 0.5,
            "{c:?}"
        );
        // A card there that no look named is listed as unknown, not as missing.
        pieces.push(card(300.0, 544.0, None, &[]));
        assert!(find(&cat, &pieces).is_empty());
        // A first unit a step out: a card may lie against the city, before it.
        let found = find(&cat, &named(&[472.0, 544.0, 616.0]));
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(
            (found[0].after.as_deref(), found[0].before.as_deref()),
            (None, Some("trooper"))
        );
        // A steady column leaves no room.
        assert!(find(&cat, &named(&[400.0, 472.0, 544.0])).is_empty());
    }

    #[test]
    fn a_unit_left_out_of_a_crowded_column_is_named_back_at_its_place() {
        use crate::perceive::gaps::column_units;
        let cat = Catalogue::bundled();
        let (analyzer, frame) = crate::perceive::crowded_play_frame(&cat);
        let frame = &frame;
        let read = analyzer.analyze(&cat, frame).expect("analysis");
        let name_in = |pieces: &mut Vec<Piece>| {
            name(frame, &cat, pieces, analyzer.readers(), &analyzer.tokens).expect("looks")
        };
        // A unit with a named neighbour either side in its column, as if no look had found
        // it: its column leaves room for it.
        let units = column_units(&read.pieces, &cat, &city_frames(&read.pieces));
        let column = |u: &gaps::InColumn| (u.city, u.side);
        let inner = (1..units.len().saturating_sub(1))
            .find(|&k| {
                column(&units[k - 1]) == column(&units[k])
                    && column(&units[k + 1]) == column(&units[k])
            })
            .expect("a column of three units or more");
        let mut pieces = read.pieces.clone();
        let left_out = pieces.remove(units[inner].piece);
        let listed_there = |pieces: &[Piece]| {
            find(&cat, pieces)
                .iter()
                .any(|m| m.corners.is_some_and(|c| same_card(&c, &left_out.corners)))
        };
        assert!(listed_there(&pieces));
        let before = pieces.len();
        // Named, so not left to offer guesses.
        assert!(name_in(&mut pieces).is_empty());
        assert_eq!(pieces.len(), before + 1);
        let named = pieces.last().expect("a piece named");
        assert_eq!(named.id, left_out.id);
        assert!(named.similarity >= NAMED_BAR);
        assert!(same_card(&named.corners, &left_out.corners));
        assert!(!listed_there(&pieces));
        // Nothing left out, nothing named.
        let mut whole = read.pieces.clone();
        assert!(name_in(&mut whole).is_empty());
        assert_eq!(whole.len(), read.pieces.len());
    }

    #[test]
    fn a_place_left_unnamed_offers_its_sides_likeliest_units_and_only_where_it_lies() {
        let cat = Catalogue::bundled();
        // Two looks at one place on the Moloch side: each face rated by its best look; an
        // Outpost unit and a city are no guess there, however like.
        let looks = [
            card(
                300.0,
                400.0,
                None,
                &[
                    ("hornet", 0.5),
                    ("trooper", 0.6),
                    ("brute", 0.3),
                    ("new_york", 0.9),
                ],
            ),
            card(
                302.0,
                400.0,
                None,
                &[("brute", 0.52), ("hunter", 0.4), ("spiders", 0.45)],
            ),
        ];
        let likely = likeliest(&looks, &cat, Side::Moloch);
        assert_eq!(likely, ["brute", "hornet", "spiders"]);
        assert_eq!(likeliest(&looks, &cat, Side::Outpost), ["trooper"]);
        assert!(likeliest(&[], &cat, Side::Moloch).is_empty());
        // Only the place looked at is given them.
        let unnamed = [Unnamed {
            quad: looks[0].corners,
            likely: likely.clone(),
        }];
        let place = |corners: Option<Corners>| MissingCard {
            city: CityId::NewYork,
            side: Side::Moloch,
            after: None,
            before: None,
            corners,
            likely: Vec::new(),
        };
        let elsewhere = card(300.0, 600.0, None, &[]).corners;
        let mut missing = [
            place(Some(looks[1].corners)),
            place(Some(elsewhere)),
            place(None),
        ];
        offer_likely(&mut missing, &unnamed);
        let offered: Vec<&[String]> = missing.iter().map(|m| m.likely.as_slice()).collect();
        assert_eq!(offered, [likely.as_slice(), &[], &[]]);
    }

    #[test]
    fn a_painted_look_names_a_unit_of_its_side_only_by_a_clear_lead() {
        let cat = Catalogue::bundled();
        let look = |sims: &[(&str, f32)]| card(300.0, 400.0, None, sims);
        let likely = ["hunter", "brute", "spiders", "brain"].map(String::from);
        let named = |looks: &[Piece]| {
            painted_name(looks, &cat, Side::Moloch, 0.04, &likely)
                .map(|p| (p.best, p.similarity, p.id))
        };
        // Clear: the best unit face reaches the bar and leads by the card class's lead.
        let clear = look(&[("hunter", 0.6), ("hornet", 0.5), ("trooper", 0.9)]);
        assert_eq!(
            named(std::slice::from_ref(&clear)),
            Some(("hunter".into(), 0.6, None))
        );
        // Too close to call, or under the bar: nothing.
        let close = look(&[("hunter", 0.6), ("hornet", 0.58)]);
        let weak = look(&[("hunter", NAMED_BAR - 0.01), ("hornet", 0.2)]);
        assert_eq!(named(&[close.clone(), weak]), None);
        // Of several clear looks, the most alike; a close call beside them counts for none.
        let clearer = look(&[("brute", 0.7), ("hunter", 0.5)]);
        let closer = look(&[("spiders", 0.8), ("brain", 0.79)]);
        assert_eq!(
            named(&[clear, clearer, close, closer]),
            Some(("brute".into(), 0.7, None))
        );
        // The other side's faces count for nothing.
        let outpost = look(&[("trooper", 0.9), ("hunter", 0.3)]);
        assert_eq!(named(&[outpost]), None);
        // Nor does a face the plain crops did not find likely, however clear.
        let unseen = look(&[("hornet", 0.9), ("hunter", 0.3)]);
        assert_eq!(named(&[unseen]), None);
    }

    #[test]
    fn a_place_beyond_a_columns_last_unit_is_not_listed() {
        let cat = Catalogue::bundled();
        // An unknown card two steps beyond the last unit: looked for, but not listed (the
        // unknown card is).
        let mut pieces = column(&[400.0, 472.0]);
        pieces.push(card(300.0, 616.0, None, &[]));
        assert!(gaps::missing(&pieces, &cat).iter().any(|p| !p.inside()));
        assert!(find(&cat, &pieces).is_empty());
    }
}
