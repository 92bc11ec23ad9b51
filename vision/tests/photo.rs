//! A face picture taken with a phone is often stored on its side, with an EXIF note to turn
//! it upright: enrolment must read it turned, as the player sees it, not squashed sideways.

use image::codecs::jpeg::JpegEncoder;
use image::{ImageEncoder, RgbImage};
use std::path::Path;
use tablelens_engine::Catalogue;
use tablelens_vision::perceive::identify::enroll;
use tablelens_vision::perceive::{embedder_fingerprint, Embedder};
use tablelens_vision::render::all_faces;

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

/// Saves `picture` as a JPEG, with EXIF orientation `orientation` where given.
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

/// The embedding of the first enrolled view of `id` in a gallery enrolled from `dir`.
fn enrolled(dir: &Path, id: &str) -> Vec<f32> {
    let cat = Catalogue::bundled();
    let embedder = Embedder::builtin().expect("embedder");
    let gallery = enroll(&cat, &embedder, &embedder_fingerprint(), dir).expect("enroll");
    let entry = gallery.entries.iter().find(|e| e.id == id).expect("entry");
    entry.embedding.clone()
}

fn cosine(a: &[f32], b: &[f32]) -> f32 {
    let dot: f32 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let norm = |v: &[f32]| v.iter().map(|x| x * x).sum::<f32>().sqrt();
    dot / (norm(a) * norm(b)).max(1e-9)
}

#[test]
fn a_face_picture_stored_on_its_side_is_enrolled_upright() {
    let cat = Catalogue::bundled();
    let hunter = all_faces(&cat, 0)
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
