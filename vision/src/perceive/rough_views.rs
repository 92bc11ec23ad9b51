//! Rough views of an enrolled unit face: the face as a crop at the table shows it. At the
//! table a card's corners are found a few pixels off, the camera softens the print and the
//! light changes its brightness and colour. The embedder learnt to look past that on the
//! decks it trained on, less well on a deck it never saw. So each unit is also enrolled
//! from a few views made that way, and a crop close to one of them is named too.
//!
//! The views are drawn from the face picture itself (its pixels seed the draws), so
//! enrolling the same pictures again gives the same gallery.

use super::identify::{CROP_H, CROP_W};
use super::resample::{area_resize, rectify};
use crate::render::seeds::{rng, splitmix};
use image::RgbImage;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// How many rough views of each unit face are enrolled. Chosen on validation scenes
/// (canonical seeds 12 / 11 / 13, decks 1 and 2; `models/embedder.md`): 2, 4, 8 and 16
/// views all gave more exact layouts than none, but from 8 on more cards were named wrong.
pub const ROUGH_VIEWS: usize = 4;

/// How far each corner of a rough view may lie from the face's, in either direction along
/// either axis, as a share of the face's width (the refined corners at the table are off by
/// a median 7.5% of a card's width at the worst of the four with the first corner refiner;
/// the one of `models/refiner.md` is closer, and a 2.5% slip was tried with it and named more
/// cards wrong).
pub const CORNER_SLIP: f32 = 0.04;

/// The least share of its size a rough view is reduced to before it is enlarged again,
/// which softens it as a camera further away would (the most is the full size).
const LEAST_SHARPNESS: f32 = 0.5;

/// How far a view's contrast may differ from the face's, as a share.
const CONTRAST: f32 = 0.2;

/// How far a view's brightness may differ from the face's, in levels of 255.
const BRIGHTNESS: f32 = 20.0;

/// How far each colour channel's gain may differ from 1 (a light of another colour).
const TINT: f32 = 0.1;

/// `n` rough views of a face crop (the embedder's crop size): each cut from corners slipped
/// by up to [`CORNER_SLIP`] (edges clamped), softened, and given another contrast,
/// brightness and tint.
pub fn rough_views(face: &RgbImage, n: usize) -> Vec<RgbImage> {
    let mut r = rng(&[picture_hash(face), n as u64]);
    let (w, h) = (face.width() as f32, face.height() as f32);
    let slip = |r: &mut ChaCha8Rng| CORNER_SLIP * w * r.gen_range(-1.0f32..1.0);
    (0..n)
        .map(|_| {
            let corners = [[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]]
                .map(|[x, y]: [f32; 2]| [x + slip(&mut r), y + slip(&mut r)]);
            let cut = rectify(face, &corners, CROP_W, CROP_H);
            let sharpness = r.gen_range(LEAST_SHARPNESS..1.0);
            let soft = soften(&cut, sharpness);
            let contrast = 1.0 + CONTRAST * r.gen_range(-1.0f32..1.0);
            let brightness = BRIGHTNESS * r.gen_range(-1.0f32..1.0);
            let gains: [f32; 3] = std::array::from_fn(|_| 1.0 + TINT * r.gen_range(-1.0f32..1.0));
            relit(&soft, contrast, brightness, gains)
        })
        .collect()
}

/// A crop reduced to `sharpness` of its size and enlarged back.
fn soften(crop: &RgbImage, sharpness: f32) -> RgbImage {
    let (w, h) = crop.dimensions();
    let small_w = ((w as f32 * sharpness) as u32).max(1);
    let small_h = ((h as f32 * sharpness) as u32).max(1);
    let small = area_resize(crop, small_w, small_h);
    let (sw, sh) = (small_w as f32, small_h as f32);
    rectify(&small, &[[0.0, 0.0], [sw, 0.0], [sw, sh], [0.0, sh]], w, h)
}

/// A crop with its contrast scaled about mid-grey, its brightness shifted and each channel
/// scaled by its gain.
fn relit(crop: &RgbImage, contrast: f32, brightness: f32, gains: [f32; 3]) -> RgbImage {
    let mut out = crop.clone();
    for px in out.pixels_mut() {
        for (c, gain) in gains.iter().enumerate() {
            let v = ((f32::from(px[c]) - 128.0) * contrast + 128.0 + brightness) * gain;
            px[c] = v.round().clamp(0.0, 255.0) as u8;
        }
    }
    out
}

/// A stable hash of a picture's size and pixels.
pub(crate) fn picture_hash(p: &RgbImage) -> u64 {
    let start = splitmix(u64::from(p.width()) << 32 | u64::from(p.height()));
    p.as_raw().chunks(8).fold(start, |h, chunk| {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        splitmix(h ^ u64::from_le_bytes(word))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgb;

    /// A face crop with a different colour in each quarter, so that a slipped cut shows.
    fn face() -> RgbImage {
        RgbImage::from_fn(CROP_W, CROP_H, |x, y| {
            match (x < CROP_W / 2, y < CROP_H / 2) {
                (true, true) => Rgb([200, 40, 40]),
                (false, true) => Rgb([40, 200, 40]),
                (true, false) => Rgb([40, 40, 200]),
                (false, false) => Rgb([220, 220, 60]),
            }
        })
    }

    fn mean(p: &RgbImage) -> [f32; 3] {
        let n = (p.width() * p.height()) as f32;
        let mut m = [0.0; 3];
        for px in p.pixels() {
            for c in 0..3 {
                m[c] += f32::from(px[c]) / n;
            }
        }
        m
    }

    #[test]
    fn views_are_the_size_asked_and_the_same_each_time() {
        let views = rough_views(&face(), ROUGH_VIEWS);
        assert_eq!(views.len(), ROUGH_VIEWS);
        assert!(views.iter().all(|v| v.dimensions() == (CROP_W, CROP_H)));
        assert_eq!(views, rough_views(&face(), ROUGH_VIEWS));
        assert!(rough_views(&face(), 0).is_empty());
    }

    #[test]
    fn each_view_differs_from_the_face_and_from_the_others() {
        let f = face();
        let views = rough_views(&f, ROUGH_VIEWS);
        for (i, v) in views.iter().enumerate() {
            assert_ne!(v, &f, "view {i} is the face itself");
            for w in &views[i + 1..] {
                assert_ne!(v, w);
            }
        }
        // Another picture draws other views.
        let mut other = f.clone();
        other.put_pixel(0, 0, Rgb([0, 0, 0]));
        assert_ne!(rough_views(&other, 1)[0], views[0]);
    }

    #[test]
    fn a_view_still_looks_like_its_face() {
        let f = face();
        let m = mean(&f);
        for v in rough_views(&f, 16) {
            let mv = mean(&v);
            for c in 0..3 {
                // Brightness 20, contrast 20% and tint 10% move a channel's mean by at
                // most about 45 levels.
                assert!((mv[c] - m[c]).abs() < 50.0, "{mv:?} against {m:?}");
            }
            // The top-left quarter is still red, the bottom-left still blue.
            let tl = v.get_pixel(CROP_W / 4, CROP_H / 4);
            let bl = v.get_pixel(CROP_W / 4, 3 * CROP_H / 4);
            assert!(tl[0] > tl[2] + 60, "{tl:?}");
            assert!(bl[2] > bl[0] + 60, "{bl:?}");
        }
    }

    #[test]
    fn relighting_scales_shifts_and_tints() {
        let grey = RgbImage::from_pixel(2, 2, Rgb([100, 100, 100]));
        let lit = relit(&grey, 2.0, 10.0, [1.0, 0.5, 1.0]);
        // (100 - 128) * 2 + 128 + 10 = 82; the green channel at half gain: 41.
        assert_eq!(lit.get_pixel(1, 1), &Rgb([82, 41, 82]));
        let white = RgbImage::from_pixel(1, 1, Rgb([250, 250, 250]));
        assert_eq!(
            relit(&white, 1.2, 20.0, [1.1; 3]).get_pixel(0, 0),
            &Rgb([255; 3])
        );
    }

    #[test]
    fn softening_keeps_a_flat_picture_flat_and_blurs_an_edge() {
        let flat = RgbImage::from_pixel(CROP_W, CROP_H, Rgb([90, 120, 150]));
        assert_eq!(soften(&flat, 0.5), flat);
        let edge = RgbImage::from_fn(CROP_W, CROP_H, |x, _| {
            if x < CROP_W / 2 {
                Rgb([0, 0, 0])
            } else {
                Rgb([255, 255, 255])
            }
        });
        let soft = soften(&edge, 0.5);
        let at_edge = soft.get_pixel(CROP_W / 2, 10)[0];
        assert!(at_edge > 20 && at_edge < 235, "{at_edge}");
        assert_eq!(soften(&edge, 1.0).get_pixel(0, 0)[0], 0);
    }
}
