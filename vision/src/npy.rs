//! NumPy `.npy` files, written by the examples that make training data for `models/train`.

use image::RgbImage;
use std::path::Path;

/// The header of a version 1.0 `.npy` file holding a C-ordered array of `shape`, with
/// element type `descr` (`|u1`, `<i4`, `<f4`).
pub fn header(shape: &[usize], descr: &str) -> Vec<u8> {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    let shape = if dims.len() == 1 {
        format!("({},)", dims[0])
    } else {
        format!("({})", dims.join(", "))
    };
    let mut h = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    while (10 + h.len() + 1) % 64 != 0 {
        h.push(' ');
    }
    h.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend((h.len() as u16).to_le_bytes());
    out.extend(h.as_bytes());
    out
}

/// Writes images of one size as a `uint8` array (N, H, W, 3).
pub fn write_images(path: &Path, images: &[RgbImage]) -> Result<(), String> {
    let (w, h) = images.first().map(|i| i.dimensions()).unwrap_or((0, 0));
    let mut bytes = header(&[images.len(), h as usize, w as usize, 3], "|u1");
    for img in images {
        if img.dimensions() != (w, h) {
            return Err("images of different sizes".into());
        }
        bytes.extend_from_slice(img.as_raw());
    }
    std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// Writes `values` as an `int32` array of `cols` columns.
pub fn write_i32(path: &Path, values: &[i32], cols: usize) -> Result<(), String> {
    let mut bytes = header(&[values.len() / cols.max(1), cols], "<i4");
    for v in values {
        bytes.extend(v.to_le_bytes());
    }
    std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// Writes `values` as a `float32` array of `cols` columns.
pub fn write_f32(path: &Path, values: &[f32], cols: usize) -> Result<(), String> {
    let mut bytes = header(&[values.len() / cols.max(1), cols], "<f4");
    for v in values {
        bytes.extend(v.to_le_bytes());
    }
    std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_padded_to_64_bytes_and_name_the_shape() {
        for shape in [&[3usize][..], &[10, 64, 48, 3], &[7, 8]] {
            let h = header(shape, "<f4");
            assert_eq!(h.len() % 64, 0);
            assert!(h.starts_with(b"\x93NUMPY\x01\x00"));
            assert_eq!(*h.last().unwrap_or(&0), b'\n');
        }
        let h = String::from_utf8_lossy(&header(&[5], "|u1")).to_string();
        assert!(h.contains("'shape': (5,)"), "{h}");
    }
}
