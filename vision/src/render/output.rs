//! Writing images and truth files.

use super::error::RenderError;
use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use image::{ImageEncoder, RgbImage};
use std::path::Path;

/// Encodes an image as PNG (deterministic: same pixels, same bytes).
pub fn png_bytes(img: &RgbImage, path: &Path) -> Result<Vec<u8>, RenderError> {
    let mut buf = Vec::new();
    PngEncoder::new_with_quality(&mut buf, CompressionType::Fast, FilterType::Adaptive)
        .write_image(
            img.as_raw(),
            img.width(),
            img.height(),
            image::ExtendedColorType::Rgb8,
        )
        .map_err(|e| RenderError::Encode {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
    Ok(buf)
}

/// Writes bytes to a file, naming the file in any error.
pub fn write(path: &Path, bytes: &[u8]) -> Result<(), RenderError> {
    std::fs::write(path, bytes).map_err(|source| RenderError::Write {
        path: path.to_path_buf(),
        source,
    })
}

/// Writes an image as PNG.
pub fn write_png(path: &Path, img: &RgbImage) -> Result<(), RenderError> {
    let bytes = png_bytes(img, path)?;
    write(path, &bytes)
}

/// Creates a directory and its parents.
pub fn create_dir(path: &Path) -> Result<(), RenderError> {
    std::fs::create_dir_all(path).map_err(|source| RenderError::CreateDir {
        path: path.to_path_buf(),
        source,
    })
}
