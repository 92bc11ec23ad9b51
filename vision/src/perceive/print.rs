//! Print on a card that looks like a token.
//!
//! A card's art may hold a ring, a dial or a round badge that the token finder takes for a
//! token lying on the card, and that the token embedder then names, weakly, as the token
//! most like it (on rendered deck 1, rings in two cards' art became *disable* tokens in 15
//! of 60 scenes). Such print is on the player's own face pictures too, so `tablelens
//! enroll` runs the token finder on each enrolled card face, with a low bar, and the gallery
//! keeps where it found something. At the table, a spot lying where its card's face has
//! such print is treated as a faint spot ([`super::tokens::Spot::faint`]): kept only if
//! named at the faint bar, which a real token lying there clears and print does not.
//!
//! Chosen on validation scenes (seeds 12 / 11 / 13, decks 1 and 2; `models/tokens.md`):
//! tokens and markers found were precise to 98.1 / 97.4 / 99.0 / 95.9 / 95.8% before, and
//! 99.2 / 98.5 / 99.6 / 99.8 / 98.9% with print read from a peak of 0.15; layouts exact
//! rose from 48.3 / 43.3 / 46.7 / 30.0 / 38.3% to 46.7 / 46.7 / 50.0 / 35.0 / 40.0%.

use super::assemble::centre;
use super::resample::{apply, unit_square_to_quad};
use super::tokens::{Spot, TokenFinder};
use super::{VisionError, TOKENS_ONNX};
use image::RgbImage;
use serde::{Deserialize, Serialize};

/// The least heat-map peak of a spot on a clean face that counts as print (lower than at
/// the table, as print on a blurred, tilted card at the table can look more like a token
/// than on its clean picture). From 0.1 more print is caught and more real tokens are lost
/// (tokens found on validation decks 1 and 2: 83.1 / 84.7% against 83.5 / 86.3%); from 0.2
/// less print is caught (precision 99.3 / 98.9% against 99.8 / 98.9%, seed 13 one layout
/// fewer exact).
pub const PRINT_PEAK: f32 = 0.15;

/// Where a card's face has print the token finder takes for a token.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PrintedSpots {
    /// Component id of the card.
    pub id: String,
    /// Centres of the spots, as shares of the face's width and height from its top-left.
    pub at: Vec<[f32; 2]>,
}

/// The print on each face `(component id, upright face picture)` (faces without any are
/// left out).
pub fn read_print(faces: &[(String, &RgbImage)]) -> Result<Vec<PrintedSpots>, VisionError> {
    let mut finder = TokenFinder::load(TOKENS_ONNX)?;
    finder.threshold = PRINT_PEAK;
    let mut out = Vec::new();
    for (id, face) in faces {
        let (w, h) = (face.width() as f32, face.height() as f32);
        let whole = [[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]];
        let spots = finder.find(face, &[whole])?;
        let at: Vec<[f32; 2]> = spots
            .iter()
            .flatten()
            .map(|s| {
                let c = centre(&s.corners);
                [c[0] / w, c[1] / h]
            })
            .collect();
        if !at.is_empty() {
            out.push(PrintedSpots { id: id.clone(), at });
        }
    }
    Ok(out)
}

/// Whether `spot`, found on the card `card_id` lying at `card` (corners clockwise from its
/// printed top-left), lies where that card's face has print: within half a spot's side of
/// it.
pub fn is_print(print: &[PrintedSpots], card_id: &str, card: &[[f32; 2]; 4], spot: &Spot) -> bool {
    let Some(face) = print.iter().find(|p| p.id == card_id) else {
        return false;
    };
    let Some(m) = unit_square_to_quad(card) else {
        return false;
    };
    let c = centre(&spot.corners);
    let side =
        (spot.corners[1][0] - spot.corners[0][0]).hypot(spot.corners[1][1] - spot.corners[0][1]);
    face.at.iter().any(|&[u, v]| {
        let (x, y) = apply(&m, f64::from(u), f64::from(v));
        (x as f32 - c[0]).hypot(y as f32 - c[1]) < 0.5 * side
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgb;

    fn spot_at(x: f32, y: f32) -> Spot {
        let h = 9.0;
        Spot {
            corners: [
                [x - h, y - h],
                [x + h, y - h],
                [x + h, y + h],
                [x - h, y + h],
            ],
            peak: 0.5,
        }
    }

    #[test]
    fn a_spot_is_print_only_where_its_own_face_has_print() {
        let print = vec![PrintedSpots {
            id: "hornet".into(),
            at: vec![[0.25, 0.5]],
        }];
        // The card lies turned by a quarter: its printed top-left is at the frame's top-right.
        let card = [
            [200.0, 100.0],
            [200.0, 163.0],
            [112.0, 163.0],
            [112.0, 100.0],
        ];
        // (0.25, 0.5) of the face: a quarter of the way along the top edge's direction
        // (down the frame), half way along the left edge's (leftwards).
        let on_print = spot_at(156.0, 115.75);
        assert!(is_print(&print, "hornet", &card, &on_print));
        assert!(!is_print(&print, "hornet", &card, &spot_at(156.0, 150.0)));
        assert!(!is_print(&print, "brute", &card, &on_print));
    }

    #[test]
    fn a_ring_in_the_art_is_found_as_print_and_a_plain_face_has_none() {
        let plain = RgbImage::from_pixel(189, 264, Rgb([120, 60, 60]));
        let mut ringed = plain.clone();
        for (x, y, p) in ringed.enumerate_pixels_mut() {
            let d = (x as f32 - 60.0).hypot(y as f32 - 90.0);
            if (18.0..26.0).contains(&d) {
                *p = Rgb([240, 230, 90]);
            } else if d < 18.0 {
                *p = Rgb([30, 30, 30]);
            }
        }
        let found = read_print(&[("plain".into(), &plain), ("ringed".into(), &ringed)]).unwrap();
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].id, "ringed");
        let [u, v] = found[0].at[0];
        assert!(
            (u - 60.0 / 189.0).abs() < 0.08 && (v - 90.0 / 264.0).abs() < 0.06,
            "{u} {v}"
        );
    }
}
