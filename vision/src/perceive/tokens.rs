//! The token finder: tokens and markers lie on cards, so they are looked for on each
//! rectified card, where they are large and of a known size, rather than in the whole frame
//! where they are a few pixels wide. A small ONNX network gives a heat map of piece centres
//! over the card (stride 2); its peaks are mapped back to the frame.

use super::nn::{push_chw, ItemNet, LEAST_SHARE};
use super::par;
use super::peaks::{is_peak, subcell};
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

/// The token-finder network.
#[derive(Debug)]
pub struct TokenFinder {
    net: ItemNet,
    /// Minimum heat-map peak.
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
            threshold: 0.4,
        })
    }

    /// For each card (corners clockwise from its printed top-left), the square of every
    /// token or marker found on it, in frame pixels. Runs on every core.
    pub fn find(
        &self,
        frame: &RgbImage,
        cards: &[[[f32; 2]; 4]],
    ) -> Result<Vec<Vec<[[f32; 2]; 4]>>, VisionError> {
        par::split(cards, LEAST_SHARE, |share| self.find_here(frame, share))
    }

    /// [`TokenFinder::find`] on this thread.
    fn find_here(
        &self,
        frame: &RgbImage,
        cards: &[[[f32; 2]; 4]],
    ) -> Result<Vec<Vec<[[f32; 2]; 4]>>, VisionError> {
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
            .map(|(plane, card)| self.squares(plane, gh, gw, card))
            .collect())
    }

    fn squares(
        &self,
        plane: &[f32],
        gh: usize,
        gw: usize,
        card: &[[f32; 2]; 4],
    ) -> Vec<[[f32; 2]; 4]> {
        let Some(m) = unit_square_to_quad(card) else {
            return Vec::new();
        };
        let width = ((card[1][0] - card[0][0]).powi(2) + (card[1][1] - card[0][1]).powi(2)).sqrt();
        let half = width * TOKEN_SHARE / 2.0;
        let logit = (self.threshold / (1.0 - self.threshold)).ln();
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
                let (cx, cy) = (cx as f32, cy as f32);
                found.push([
                    [cx - half, cy - half],
                    [cx + half, cy - half],
                    [cx + half, cy + half],
                    [cx - half, cy + half],
                ]);
            }
        }
        found
    }
}
