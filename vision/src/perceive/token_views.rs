//! Token views of an enrolled unit face: the face with tokens lying on it, as the table
//! shows a unit that was given +1, +2, a shield or a disable token. A token covers about a
//! third of a card's width, often over the art the embedder looks at most, and the
//! embedder never learnt to look past it: on validation decks 1, 2 and 5 a unit with a
//! token on it was lost 3.5 times as often as one without (4.4% against 1.3%). So each
//! unit is also enrolled from a few views with the player's own token pictures laid on it
//! (one or two, at places and turns drawn anywhere over the face's upper three quarters,
//! which the next card of a column leaves in sight), and a crop close to one of them is
//! named too.
//!
//! Like the rough views ([`super::rough_views`]), the draws are seeded by the face's own
//! pixels, so enrolling the same pictures again gives the same gallery.

use super::rough_views::picture_hash;
use crate::render::seeds::rng;
use image::{Rgb, RgbImage};
use rand::Rng;

/// How many token views of each unit face are enrolled.
pub const TOKEN_VIEWS: usize = 4;

/// A token's diameter as a share of the face's width: the game's tokens are about 2 cm
/// across on a card 6.3 cm wide. Each view draws its own within a tenth of this.
pub const TOKEN_SIZE: f32 = 0.3;

/// How far down the face a token's centre may lie, as a share of its height: the part
/// that the next card of a column leaves in sight.
const LOWEST: f32 = 0.75;

/// `n` views of a face crop with one or two of `tokens` (pictures of tokens, each filling
/// its picture as the enrolment crops do) laid on it; none when there are no tokens.
pub fn token_views(face: &RgbImage, tokens: &[&RgbImage], n: usize) -> Vec<RgbImage> {
    if tokens.is_empty() {
        return Vec::new();
    }
    let mut r = rng(&[picture_hash(face), n as u64, 0x70_6b]);
    let (w, h) = (face.width() as f32, face.height() as f32);
    (0..n)
        .map(|k| {
            let mut view = face.clone();
            // Every other view shows two tokens.
            for _ in 0..1 + k % 2 {
                let token = tokens[r.gen_range(0..tokens.len())];
                let d = TOKEN_SIZE * w * r.gen_range(0.9f32..1.1);
                let rad = d / 2.0;
                let centre = [
                    r.gen_range(rad..(w - rad).max(rad + 1.0)),
                    r.gen_range(rad..(LOWEST * h).max(rad + 1.0)),
                ];
                let angle = r.gen_range(0.0..std::f32::consts::TAU);
                lay(&mut view, token, centre, rad, angle);
            }
            view
        })
        .collect()
}

/// Lays a round token, its picture `token` turned by `angle`, on `view` with its centre at
/// `centre` and radius `rad` (pixels).
fn lay(view: &mut RgbImage, token: &RgbImage, centre: [f32; 2], rad: f32, angle: f32) {
    let (tw, th) = (token.width() as f32, token.height() as f32);
    if tw < 1.0 || th < 1.0 || rad <= 0.0 {
        return;
    }
    let (s, c) = angle.sin_cos();
    let x0 = (centre[0] - rad).floor().max(0.0) as u32;
    let y0 = (centre[1] - rad).floor().max(0.0) as u32;
    let x1 = ((centre[0] + rad).ceil() as u32).min(view.width());
    let y1 = ((centre[1] + rad).ceil() as u32).min(view.height());
    for y in y0..y1 {
        for x in x0..x1 {
            let dx = x as f32 + 0.5 - centre[0];
            let dy = y as f32 + 0.5 - centre[1];
            if dx * dx + dy * dy > rad * rad {
                continue;
            }
            // Where this pixel falls on the token, turned back, in 0..1 of its picture.
            let u = 0.5 + (dx * c + dy * s) / (2.0 * rad);
            let v = 0.5 + (-dx * s + dy * c) / (2.0 * rad);
            let px = ((u * tw) as u32).min(token.width() - 1);
            let py = ((v * th) as u32).min(token.height() - 1);
            let Rgb(p) = *token.get_pixel(px, py);
            view.put_pixel(x, y, Rgb(p));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perceive::identify::{CROP_H, CROP_W};

    fn plain(w: u32, h: u32, c: [u8; 3]) -> RgbImage {
        RgbImage::from_pixel(w, h, Rgb(c))
    }

    /// A face with a gradient, so that two faces' views are drawn apart.
    fn face() -> RgbImage {
        RgbImage::from_fn(CROP_W, CROP_H, |x, y| {
            Rgb([(x * 5) as u8, (y * 4) as u8, 90])
        })
    }

    #[test]
    fn views_are_the_size_asked_and_the_same_each_time() {
        let token = plain(CROP_W, CROP_H, [250, 250, 0]);
        let views = token_views(&face(), &[&token], TOKEN_VIEWS);
        assert_eq!(views.len(), TOKEN_VIEWS);
        assert!(views.iter().all(|v| v.dimensions() == (CROP_W, CROP_H)));
        assert_eq!(views, token_views(&face(), &[&token], TOKEN_VIEWS));
    }

    #[test]
    fn no_tokens_no_views() {
        assert!(token_views(&face(), &[], TOKEN_VIEWS).is_empty());
    }

    #[test]
    fn a_token_covers_about_its_disc_in_the_upper_part() {
        let f = face();
        let token = plain(CROP_W, CROP_H, [250, 250, 0]);
        let views = token_views(&f, &[&token], TOKEN_VIEWS);
        let disc = std::f32::consts::PI * (TOKEN_SIZE * CROP_W as f32 / 2.0).powi(2);
        for (k, v) in views.iter().enumerate() {
            let changed: Vec<(u32, u32)> = v
                .enumerate_pixels()
                .filter(|(x, y, p)| *p != f.get_pixel(*x, *y))
                .map(|(x, y, _)| (x, y))
                .collect();
            assert!(changed
                .iter()
                .all(|&(x, y)| v.get_pixel(x, y).0 == [250, 250, 0]));
            let tokens = (1 + k % 2) as f32;
            let n = changed.len() as f32;
            // Two tokens may overlap; each is within a tenth of the nominal size.
            assert!(
                n >= 0.7 * disc && n <= 1.3 * tokens * disc,
                "view {k}: {n} px"
            );
            let lowest = changed.iter().map(|&(_, y)| y).max().unwrap_or(0) as f32;
            assert!(lowest <= LOWEST * CROP_H as f32 + 0.2 * CROP_W as f32);
        }
    }

    #[test]
    fn a_token_is_laid_turned() {
        // A token half red (left) and half blue (right), laid a quarter turn round,
        // shows red above and blue below.
        let token = RgbImage::from_fn(20, 20, |x, _| {
            if x < 10 {
                Rgb([255, 0, 0])
            } else {
                Rgb([0, 0, 255])
            }
        });
        let mut view = plain(40, 40, [0, 0, 0]);
        lay(
            &mut view,
            &token,
            [20.0, 20.0],
            10.0,
            std::f32::consts::FRAC_PI_2,
        );
        assert_eq!(view.get_pixel(20, 13).0, [255, 0, 0]);
        assert_eq!(view.get_pixel(20, 27).0, [0, 0, 255]);
        // Outside the disc nothing changes.
        assert_eq!(view.get_pixel(11, 11).0, [0, 0, 0]);
    }
}
