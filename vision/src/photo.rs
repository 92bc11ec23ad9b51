//! Photos read from files as their camera meant them to be seen.
//!
//! A phone or camera often stores a photo's pixels as its sensor read them and notes in the
//! file's EXIF data how to turn them (held upright, the pixels lie on their side). A photo
//! of the table turned a quarter is still read, but a player's face picture enrolled on its
//! side, or mirrored, would name nothing. So every photo tablelens reads from a file (table
//! photos, face pictures to enrol) is turned as the file says first.

use image::{DynamicImage, ImageDecoder, ImageReader, ImageResult};
use std::path::Path;

/// Reads the picture at `path` (its format from its extension, as `image::open` reads it),
/// turned or mirrored as its EXIF orientation says. An orientation that cannot be read is
/// taken as none: the pixels as stored.
pub fn open(path: impl AsRef<Path>) -> ImageResult<DynamicImage> {
    let mut decoder = ImageReader::open(path)?.into_decoder()?;
    let orientation = decoder
        .orientation()
        .unwrap_or(image::metadata::Orientation::NoTransforms);
    let mut picture = DynamicImage::from_decoder(decoder)?;
    picture.apply_orientation(orientation);
    Ok(picture)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perceive::dot::dot;
    use crate::perceive::identify::enroll;
    use crate::perceive::{embedder_fingerprint, Embedder};
    use image::codecs::jpeg::JpegEncoder;
    use image::{ImageEncoder, Rgb, RgbImage};
    use tablelens_engine::Catalogue;

    /// An EXIF block (little-endian TIFF) holding only an orientation.
    fn exif_orientation(value: u16) -> Vec<u8> {
        let mut exif = b"II*\0".to_vec();
        exif.extend_from_slice(&8u32.to_le_bytes());
        exif.extend_from_slice(&1u16.to_le_bytes());
        exif.extend_from_slice(&0x0112u16.to_le_bytes());
        exif.extend_from_slice(&3u16.to_le_bytes());
        exif.extend_from_slice(&1u32.to_le_bytes());
        exif.extend_from_slice(&value.to_le_bytes());
        exif.extend_from_slice(&[0; 6]);
        exif
    }

    /// Saves `picture` as a JPEG at `path`, with EXIF orientation `orientation` where given.
    fn save_jpeg(picture: &RgbImage, path: &Path, orientation: Option<u16>) {
        let file = std::fs::File::create(path).expect("create");
        let mut encoder = JpegEncoder::new_with_quality(file, 95);
        if let Some(v) = orientation {
            encoder
                .set_exif_metadata(exif_orientation(v))
                .expect("exif");
        }
        let (w, h) = picture.dimensions();
        encoder
            .write_image(picture.as_raw(), w, h, image::ExtendedColorType::Rgb8)
            .expect("write");
    }

    /// A 64x32 picture, red on its left half and blue on its right, saved in `dir` as a JPEG
    /// with EXIF orientation `value` (none for `None`).
    fn saved(dir: &Path, value: Option<u16>) -> std::path::PathBuf {
        let picture = RgbImage::from_fn(64, 32, |x, _| {
            if x < 32 {
                Rgb([255, 0, 0])
            } else {
                Rgb([0, 0, 255])
            }
        });
        let path = dir.join(format!("{value:?}.jpg"));
        save_jpeg(&picture, &path, value);
        path
    }

    fn is_red(p: &Rgb<u8>) -> bool {
        p.0[0] > 200 && p.0[2] < 60
    }

    #[test]
    fn a_photo_is_turned_as_its_exif_orientation_says() {
        let dir = tempfile::tempdir().expect("dir");
        // As stored: red on the left.
        let plain = open(saved(dir.path(), None)).expect("open").to_rgb8();
        assert_eq!(plain.dimensions(), (64, 32));
        assert!(is_red(plain.get_pixel(4, 16)) && !is_red(plain.get_pixel(60, 16)));
        // Orientation 6, a quarter clockwise to be seen upright: the left half comes on top.
        let turned = open(saved(dir.path(), Some(6))).expect("open").to_rgb8();
        assert_eq!(turned.dimensions(), (32, 64));
        assert!(is_red(turned.get_pixel(16, 4)) && !is_red(turned.get_pixel(16, 60)));
        // Orientation 2, mirrored: red on the right.
        let mirrored = open(saved(dir.path(), Some(2))).expect("open").to_rgb8();
        assert!(is_red(mirrored.get_pixel(60, 16)) && !is_red(mirrored.get_pixel(4, 16)));
        // `image::open` alone leaves the stored pixels as they are.
        let stored = image::open(saved(dir.path(), Some(6))).expect("open");
        assert_eq!((stored.width(), stored.height()), (64, 32));
    }

    #[test]
    fn a_missing_or_broken_file_is_an_error_not_a_panic() {
        let dir = tempfile::tempdir().expect("dir");
        assert!(open(dir.path().join("nothing.jpg")).is_err());
        let broken = dir.path().join("broken.png");
        std::fs::write(&broken, b"not a png").expect("write");
        assert!(open(&broken).is_err());
    }

    /// The embedding of the first enrolled view of `id` in a gallery enrolled from `dir`.
    fn enrolled(dir: &Path, id: &str) -> Vec<f32> {
        let cat = Catalogue::bundled();
        let embedder = Embedder::builtin().expect("embedder");
        let gallery = enroll(&cat, &embedder, &embedder_fingerprint(), dir).expect("enroll");
        let entry = gallery.entries.iter().find(|e| e.id == id).expect("entry");
        entry.embedding.clone()
    }

    fn cosine(a: &[f32], b: &[f32]) -> f32 {
        let norm = |v: &[f32]| dot(v, v).sqrt();
        dot(a, b) / (norm(a) * norm(b)).max(1e-9)
    }

    /// A face picture taken with a phone is often stored on its side, with the note to turn
    /// it upright: enrolment reads it turned, as the player sees it, not squashed sideways
    /// (read as stored, its embedding came out -0.18 like the upright picture's).
    #[test]
    fn a_face_picture_stored_on_its_side_is_enrolled_upright() {
        let cat = Catalogue::bundled();
        let hunter = crate::render::all_faces(&cat, 0)
            .into_iter()
            .find(|(id, _)| id == "hunter")
            .expect("hunter's face")
            .1;
        let (upright, sideways) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        save_jpeg(&hunter, &upright.path().join("hunter.jpg"), None);
        // Stored a quarter turn anticlockwise, with the note to turn it a quarter clockwise.
        let stored = image::imageops::rotate270(&hunter);
        save_jpeg(&stored, &sideways.path().join("hunter.jpg"), Some(6));
        let (a, b) = (
            enrolled(upright.path(), "hunter"),
            enrolled(sideways.path(), "hunter"),
        );
        let alike = cosine(&a, &b);
        assert!(alike > 0.98, "enrolled alike at only {alike:.3}");
    }
}
