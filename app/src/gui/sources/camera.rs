//! A camera through nokhwa (V4L2 on Linux, AVFoundation on macOS, Media Foundation on
//! Windows). Frames are decoded here (MJPEG by `image`, YUYV, NV12, grey and raw RGB by
//! hand), so no native JPEG library is needed. Every failure is an error value: an
//! unplugged camera is [`SourceError::Unavailable`] and the worker opens it again later.

use super::{Frame, Source, SourceError};
use image::RgbImage;
use nokhwa::pixel_format::RgbFormat;
use nokhwa::utils::{
    ApiBackend, CameraFormat, CameraIndex, FrameFormat, RequestedFormat, RequestedFormatType,
    Resolution,
};
use nokhwa::Camera;
use std::sync::Arc;

/// A camera the system offers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CameraEntry {
    /// Index to open it with.
    pub index: u32,
    /// Its name.
    pub name: String,
}

/// The cameras present now (empty when there are none or they cannot be listed).
pub fn list() -> Vec<CameraEntry> {
    let Ok(infos) = std::panic::catch_unwind(|| nokhwa::query(ApiBackend::Auto)) else {
        return Vec::new();
    };
    infos
        .unwrap_or_default()
        .into_iter()
        .filter_map(|info| match info.index() {
            CameraIndex::Index(i) => Some(CameraEntry {
                index: *i,
                name: info.human_name(),
            }),
            CameraIndex::String(_) => None,
        })
        .collect()
}

/// An open camera.
pub struct CameraSource {
    camera: Camera,
    name: String,
}

impl std::fmt::Debug for CameraSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CameraSource")
            .field("name", &self.name)
            .finish()
    }
}

impl CameraSource {
    /// Opens camera `index` at the format closest to `resolution`.
    pub fn open(index: u32, resolution: [u32; 2]) -> Result<CameraSource, SourceError> {
        let wanted = CameraFormat::new(
            Resolution::new(resolution[0], resolution[1]),
            FrameFormat::MJPEG,
            30,
        );
        let requested = RequestedFormat::new::<RgbFormat>(RequestedFormatType::Closest(wanted));
        let unavailable =
            |e: nokhwa::NokhwaError| SourceError::Unavailable(format!("camera {index}: {e}"));
        let mut camera = Camera::new(CameraIndex::Index(index), requested).map_err(unavailable)?;
        camera.open_stream().map_err(unavailable)?;
        let name = camera.info().human_name();
        Ok(CameraSource { camera, name })
    }
}

impl Source for CameraSource {
    fn poll(&mut self) -> Result<Option<Frame>, SourceError> {
        let buffer = self
            .camera
            .frame()
            .map_err(|e| SourceError::Unavailable(format!("{}: {e}", self.name)))?;
        let res = buffer.resolution();
        let image = decode(
            buffer.source_frame_format(),
            res.width(),
            res.height(),
            buffer.buffer(),
        )
        .map_err(|e| SourceError::Unavailable(format!("{}: {e}", self.name)))?;
        Ok(Some(Frame {
            image: Arc::new(image),
            truth: None,
            label: self.name.clone(),
            position: None,
        }))
    }

    fn idle(&self) -> std::time::Duration {
        // `frame()` waits for the camera itself.
        std::time::Duration::ZERO
    }
}

impl Drop for CameraSource {
    fn drop(&mut self) {
        let _ = self.camera.stop_stream();
    }
}

/// Decodes one camera buffer into RGB.
pub fn decode(format: FrameFormat, w: u32, h: u32, data: &[u8]) -> Result<RgbImage, String> {
    let (wu, hu) = (w as usize, h as usize);
    let short = |need: usize| {
        if data.len() < need {
            Err(format!(
                "short {format} frame: {} bytes for {w}x{h}",
                data.len()
            ))
        } else {
            Ok(())
        }
    };
    match format {
        FrameFormat::MJPEG => image::load_from_memory_with_format(data, image::ImageFormat::Jpeg)
            .map(|i| i.to_rgb8())
            .map_err(|e| format!("bad MJPEG frame: {e}")),
        FrameFormat::RAWRGB => {
            short(wu * hu * 3)?;
            RgbImage::from_raw(w, h, data[..wu * hu * 3].to_vec())
                .ok_or_else(|| "bad RGB frame".to_string())
        }
        FrameFormat::RAWBGR => {
            short(wu * hu * 3)?;
            let mut v = data[..wu * hu * 3].to_vec();
            v.chunks_exact_mut(3).for_each(|p| p.swap(0, 2));
            RgbImage::from_raw(w, h, v).ok_or_else(|| "bad BGR frame".to_string())
        }
        FrameFormat::GRAY => {
            short(wu * hu)?;
            let v = data[..wu * hu].iter().flat_map(|&g| [g, g, g]).collect();
            RgbImage::from_raw(w, h, v).ok_or_else(|| "bad grey frame".to_string())
        }
        FrameFormat::YUYV => {
            short(wu * hu * 2)?;
            let mut v = Vec::with_capacity(wu * hu * 3);
            for q in data[..wu * hu * 2].chunks_exact(4) {
                let (y0, u, y1, vv) = (q[0], q[1], q[2], q[3]);
                v.extend_from_slice(&yuv(y0, u, vv));
                v.extend_from_slice(&yuv(y1, u, vv));
            }
            RgbImage::from_raw(w, h, v).ok_or_else(|| "bad YUYV frame".to_string())
        }
        FrameFormat::NV12 => {
            short(wu * hu * 3 / 2)?;
            let (luma, chroma) = data.split_at(wu * hu);
            let mut img = RgbImage::new(w, h);
            for y in 0..hu {
                for x in 0..wu {
                    let c = (y / 2) * wu + (x / 2) * 2;
                    let (u, v) = (chroma[c], chroma[c + 1]);
                    img.put_pixel(x as u32, y as u32, image::Rgb(yuv(luma[y * wu + x], u, v)));
                }
            }
            Ok(img)
        }
    }
}

/// BT.601 limited-range YUV to RGB.
fn yuv(y: u8, u: u8, v: u8) -> [u8; 3] {
    let c = (f32::from(y) - 16.0) * 1.164;
    let d = f32::from(u) - 128.0;
    let e = f32::from(v) - 128.0;
    let clamp = |x: f32| x.round().clamp(0.0, 255.0) as u8;
    [
        clamp(c + 1.596 * e),
        clamp(c - 0.392 * d - 0.813 * e),
        clamp(c + 2.017 * d),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_raw_formats_and_refuses_short_or_bad_buffers() {
        let grey = decode(FrameFormat::GRAY, 2, 1, &[0, 255]).unwrap();
        assert_eq!(grey.get_pixel(1, 0).0, [255, 255, 255]);
        let yuyv = decode(FrameFormat::YUYV, 2, 1, &[235, 128, 16, 128]).unwrap();
        assert_eq!(yuyv.get_pixel(0, 0).0, [255, 255, 255]);
        assert_eq!(yuyv.get_pixel(1, 0).0, [0, 0, 0]);
        let bgr = decode(FrameFormat::RAWBGR, 1, 1, &[1, 2, 3]).unwrap();
        assert_eq!(bgr.get_pixel(0, 0).0, [3, 2, 1]);
        assert!(decode(FrameFormat::YUYV, 4, 4, &[0; 3]).is_err());
        assert!(decode(FrameFormat::NV12, 4, 4, &[0; 3]).is_err());
        assert!(decode(FrameFormat::MJPEG, 4, 4, b"not a jpeg").is_err());
    }

    #[test]
    fn a_missing_camera_is_an_error_not_a_panic() {
        assert!(CameraSource::open(9_999, [640, 480]).is_err());
    }
}
