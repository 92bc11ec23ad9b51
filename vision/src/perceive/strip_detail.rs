//! Telling module strips apart by their detail: the strip at the table compared, pixel by
//! pixel, with a long, narrow picture of each enrolled module's strip.
//!
//! The embedder sees a strip as a 40x56 crop, and [`super::face_match::name_strip`] as a
//! 30x42 picture: the strip is some seven times longer than it is wide, so along its length
//! either keeps only a few pixels for each mark printed on it. Where a deck's module strips
//! differ only in such marks (a name printed along the strip, a small badge), both read
//! them poorly. This keeps the strip at [`STRIP_W`] x [`STRIP_H`], near its size in a
//! 1920x1080 frame, and compares it with each enrolled strip by normalised correlation per
//! colour channel (as the face comparison does, so that neither the light's brightness nor
//! its colour counts), at every shift of up to [`ACROSS`] pixels across and [`ALONG`]
//! along (the strip finder places a strip to a pixel or two).
//!
//! Nothing here knows what any strip looks like: the pictures are cut from the player's own
//! module faces when they are enrolled ([`StripPicture::of_face`]).

use super::dot::dot;
use super::face_match::normalised;
use super::identify::STRIP_SHARE;
use super::look_alike::Picture;
use super::resample::rectify;
use image::RgbImage;

/// Width in pixels of a module strip's detail picture as the gallery keeps it.
pub const STRIP_W: u32 = 16;
/// Length in pixels of a module strip's detail picture as the gallery keeps it.
pub const STRIP_H: u32 = 128;
/// How far, in the picture's pixels, a strip is looked for across its width either way.
const ACROSS: u32 = 2;
/// How far, in the picture's pixels, a strip is looked for along its length either way.
const ALONG: u32 = 4;

/// A module's strip as the gallery keeps it for [`StripLooks`]: the right
/// [`STRIP_SHARE`] of the module's face, reduced to [`STRIP_W`] x [`STRIP_H`] pixels.
pub type StripPicture = Picture<STRIP_W, STRIP_H>;

impl StripPicture {
    /// The strip of the module `id` cut from its upright `face`.
    pub fn of_face(id: &str, face: &RgbImage) -> StripPicture {
        let (w, h) = face.dimensions();
        let x0 = ((w as f32 * (1.0 - STRIP_SHARE)).round() as u32).min(w.saturating_sub(1));
        let strip = image::imageops::crop_imm(face, x0, 0, w - x0, h).to_image();
        StripPicture::of(id, &strip)
    }
}

/// Every enrolled module's strip, normalised, ready to be compared with strips at the
/// table.
#[derive(Debug, Clone, Default)]
pub struct StripLooks {
    strips: Vec<(String, Vec<f32>)>,
}

impl StripLooks {
    /// Prepares the gallery's strip pictures (unreadable ones are left out; the gallery
    /// refuses them when it is loaded).
    pub fn new(pictures: &[StripPicture]) -> StripLooks {
        let strips = pictures
            .iter()
            .filter_map(|p| {
                let img = p.image().ok()?;
                Some((p.id.clone(), normalised(&img, 0, 0, STRIP_W, STRIP_H)))
            })
            .collect();
        StripLooks { strips }
    }

    /// Whether no strip is known.
    pub fn is_empty(&self) -> bool {
        self.strips.is_empty()
    }

    /// The likeness (correlation, -1..1) of the strip at `corners` (top left, top right,
    /// bottom right, bottom left of the strip as it shows beside its robot) to every
    /// enrolled strip, at its best shift, best first. Empty where no strip is known.
    pub fn likenesses(&self, frame: &RgbImage, corners: &[[f32; 2]; 4]) -> Vec<(String, f32)> {
        if self.strips.is_empty() {
            return Vec::new();
        }
        let (w, h) = (STRIP_W + 2 * ACROSS, STRIP_H + 2 * ALONG);
        let quad = grown(
            corners,
            ACROSS as f32 / STRIP_W as f32,
            ALONG as f32 / STRIP_H as f32,
        );
        let window = rectify(frame, &quad, w, h);
        let placed: Vec<Vec<f32>> = (0..=2 * ACROSS)
            .flat_map(|x| (0..=2 * ALONG).map(move |y| (x, y)))
            .map(|(x, y)| normalised(&window, x, y, STRIP_W, STRIP_H))
            .collect();
        let mut out: Vec<(String, f32)> = self
            .strips
            .iter()
            .map(|(id, strip)| {
                let best = placed
                    .iter()
                    .map(|v| dot(v, strip))
                    .fold(f32::MIN, f32::max);
                (id.clone(), best)
            })
            .collect();
        out.sort_by(|a, b| b.1.total_cmp(&a.1));
        out
    }
}

/// How much a strip's likeness in detail to an enrolled strip ([`StripLooks`]) counts
/// against the embedder's similarity to it, where the two are added ([`by_detail`]): the
/// likenesses of one strip to the six modules lie closer together than its similarities.
/// Chosen on the nine validation sets and new decks 9 to 12 (strips named with a lead under
/// 0.1, `assemble::SURE_STRIP_MARGIN`): layouts exact 438 / 205 of 480 / 240 without the
/// detail, 438 / 206 at a weight of 1, 441 / 205 at 1.5 and 2 (modules under the right
/// unit on deck 8 95.6 -> 97.5 and 98.1%), 439 / 203 at 3. Each pixel weighed by how much
/// the enrolled strips differ there gave 441 / 205 at 1 and 2 too: not kept.
pub const DETAIL_WEIGHT: f32 = 2.0;

/// The module a strip is most like by the embedder's `similarities` and its `detail`
/// likenesses ([`StripLooks::likenesses`]) added, the latter weighted by
/// [`DETAIL_WEIGHT`]; `None` where there is no detail to weigh (no strip pictures).
pub fn by_detail(similarities: &[(String, f32)], detail: &[(String, f32)]) -> Option<String> {
    detail
        .iter()
        .filter_map(|(id, d)| {
            let (_, s) = similarities.iter().find(|(other, _)| other == id)?;
            Some((id, s + DETAIL_WEIGHT * d))
        })
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(id, _)| id.clone())
}

/// `quad` (top left, top right, bottom right, bottom left) grown by `across` of its width
/// on each long side and `along` of its length at each end.
fn grown(quad: &[[f32; 2]; 4], across: f32, along: f32) -> [[f32; 2]; 4] {
    let [a, b, c, d] = *quad;
    // Each corner moves away from its neighbour across and from its neighbour along.
    let away = |p: [f32; 2], across_from: [f32; 2], along_from: [f32; 2]| {
        [0, 1].map(|k| p[k] + (p[k] - across_from[k]) * across + (p[k] - along_from[k]) * along)
    };
    [away(a, b, d), away(b, a, c), away(c, d, b), away(d, c, a)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgb;

    /// A module face 63x88 with a pale frame and, on its right strip, dark bars at the
    /// rows `marks` (shares of its length): two modules differ only in those.
    fn module(marks: &[f32]) -> RgbImage {
        let mut face = RgbImage::from_pixel(63, 88, Rgb([200, 180, 170]));
        for &m in marks {
            let y0 = (m * 88.0) as u32;
            for y in y0..(y0 + 4).min(88) {
                for x in 53..60 {
                    face.put_pixel(x, y, Rgb([40, 30, 30]));
                }
            }
        }
        face
    }

    /// A frame with `face`'s strip drawn 24x180 pixels at (200, 100), under a dimmer,
    /// warmer light.
    fn table_with(face: &RgbImage) -> (RgbImage, [[f32; 2]; 4]) {
        let x0 = (63.0 * (1.0 - STRIP_SHARE)).round() as u32;
        let strip = image::imageops::crop_imm(face, x0, 0, 63 - x0, 88).to_image();
        let mut big =
            image::imageops::resize(&strip, 24, 180, image::imageops::FilterType::Triangle);
        for p in big.pixels_mut() {
            let [r, g, b] = p.0;
            *p = Rgb([
                (f32::from(r) * 0.8) as u8,
                (f32::from(g) * 0.7) as u8,
                (f32::from(b) * 0.6) as u8,
            ]);
        }
        let mut frame = RgbImage::from_pixel(500, 400, Rgb([60, 90, 60]));
        image::imageops::overlay(&mut frame, &big, 200, 100);
        let corners = [
            [200.0, 100.0],
            [224.0, 100.0],
            [224.0, 280.0],
            [200.0, 280.0],
        ];
        (frame, corners)
    }

    #[test]
    fn a_strip_unsure_between_modules_is_named_by_both_readings_together() {
        let pairs = |v: &[(&str, f32)]| -> Vec<(String, f32)> {
            v.iter().map(|(id, x)| (id.to_string(), *x)).collect()
        };
        let sims = pairs(&[
            ("destruction_module", 0.60),
            ("annihilation_module", 0.58),
            ("net_module", 0.30),
        ]);
        // The detail prefers the embedder's runner-up by more than the embedder
        // preferred its best: the runner-up.
        let detail = pairs(&[
            ("annihilation_module", 0.80),
            ("destruction_module", 0.77),
            ("net_module", 0.70),
        ]);
        assert_eq!(
            by_detail(&sims, &detail).as_deref(),
            Some("annihilation_module")
        );
        // By less: the embedder's best stays.
        let close = pairs(&[
            ("annihilation_module", 0.78),
            ("destruction_module", 0.77),
            ("net_module", 0.70),
        ]);
        assert_eq!(
            by_detail(&sims, &close).as_deref(),
            Some("destruction_module")
        );
        // A module the embedder has no similarity for is not weighed; no detail, no name.
        let other = pairs(&[("combat_module", 0.99), ("destruction_module", 0.7)]);
        assert_eq!(
            by_detail(&sims, &other).as_deref(),
            Some("destruction_module")
        );
        assert_eq!(by_detail(&sims, &[]), None);
    }

    #[test]
    fn a_strip_is_most_like_its_own_module() {
        let a = module(&[0.1, 0.3, 0.5]);
        let b = module(&[0.1, 0.35, 0.7]);
        let looks = StripLooks::new(&[
            StripPicture::of_face("net_module", &a),
            StripPicture::of_face("combat_module", &b),
        ]);
        for (face, want) in [(&a, "net_module"), (&b, "combat_module")] {
            let (frame, corners) = table_with(face);
            let found = looks.likenesses(&frame, &corners);
            assert_eq!(found.len(), 2);
            assert_eq!(found[0].0, want, "{found:?}");
            assert!(found[0].1 > 0.9, "{found:?}");
            assert!(found[0].1 - found[1].1 > 0.1, "{found:?}");
        }
    }

    #[test]
    fn a_strip_a_few_pixels_off_is_still_found() {
        let a = module(&[0.1, 0.3, 0.5]);
        let b = module(&[0.15, 0.45, 0.8]);
        let looks = StripLooks::new(&[
            StripPicture::of_face("net_module", &a),
            StripPicture::of_face("combat_module", &b),
        ]);
        let (frame, corners) = table_with(&a);
        let off = corners.map(|[x, y]| [x + 1.5, y - 4.0]);
        let found = looks.likenesses(&frame, &off);
        assert_eq!(found[0].0, "net_module", "{found:?}");
    }

    #[test]
    fn an_empty_face_gives_a_blank_picture_not_a_panic() {
        for (w, h) in [(0, 0), (1, 88), (63, 0)] {
            let p = StripPicture::of_face("net_module", &RgbImage::new(w, h));
            assert!(p
                .image()
                .is_ok_and(|i| i.dimensions() == (STRIP_W, STRIP_H)));
        }
    }

    #[test]
    fn without_pictures_nothing_is_compared() {
        let looks = StripLooks::new(&[]);
        assert!(looks.is_empty());
        let (frame, corners) = table_with(&module(&[0.2]));
        assert!(looks.likenesses(&frame, &corners).is_empty());
    }

    #[test]
    fn a_quad_grows_by_its_own_axes() {
        let quad = [[10.0, 20.0], [30.0, 20.0], [30.0, 120.0], [10.0, 120.0]];
        let g = grown(&quad, 0.1, 0.05);
        assert_eq!(g, [[8.0, 15.0], [32.0, 15.0], [32.0, 125.0], [8.0, 125.0]]);
    }
}
