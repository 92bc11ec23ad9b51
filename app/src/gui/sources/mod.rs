//! Where frames come from: a camera, a photo, a folder of frames, or the built-in demo
//! table. Every source is polled by the worker thread; none of them blocks the window.

pub mod camera;
pub mod demo;
pub mod still;

use image::RgbImage;
use std::sync::Arc;
use std::time::Duration;
use tablelens_engine::Layout;

/// One frame and what is known about it besides the picture.
#[derive(Debug, Clone)]
pub struct Frame {
    /// The picture.
    pub image: Arc<RgbImage>,
    /// The true layout, when the frame was rendered (the demo table).
    pub truth: Option<Layout>,
    /// What the frame is, for the status line (`frame 3 of 6`, a file name, ...).
    pub label: String,
    /// Position in a sequence (index, length), for the demo and folders.
    pub position: Option<(usize, usize)>,
}

/// What a source can fail with. Every error is shown to the player and retried or left.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceError {
    /// The source is gone for now (unplugged camera); the worker tries again.
    Unavailable(String),
    /// The source cannot work (a bad file, an empty folder); the player must choose again.
    Invalid(String),
}

impl std::fmt::Display for SourceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SourceError::Unavailable(m) | SourceError::Invalid(m) => f.write_str(m),
        }
    }
}

/// A source of frames. Sources are opened and used on the worker thread only (a camera
/// handle may not move between threads).
pub trait Source {
    /// A new frame when there is one; `Ok(None)` when nothing changed since the last one.
    fn poll(&mut self) -> Result<Option<Frame>, SourceError>;
    /// Moves `delta` frames along a sequence (no effect on live sources).
    fn step(&mut self, _delta: i64) {}
    /// Stops or restarts the automatic advance of a sequence.
    fn set_paused(&mut self, _paused: bool) {}
    /// How long the worker may wait before polling again when nothing came.
    fn idle(&self) -> Duration {
        Duration::from_millis(40)
    }
}

/// Which source to open, with its parameters.
#[derive(Debug, Clone, PartialEq)]
pub enum SourceSpec {
    /// The built-in demo game; `step` seconds between its moves.
    Demo {
        /// Seconds between moves.
        step: f32,
    },
    /// Camera `index` at about `resolution`.
    Camera {
        /// Index in the list of cameras.
        index: u32,
        /// Requested resolution.
        resolution: [u32; 2],
    },
    /// One picture file.
    Photo(std::path::PathBuf),
    /// A folder of pictures played in name order, `step` seconds each.
    Folder {
        /// The folder.
        dir: std::path::PathBuf,
        /// Seconds per frame.
        step: f32,
    },
}

/// A sequence that advances by itself every `period`, unless paused or stepped by hand.
#[derive(Debug, Clone)]
pub struct Sequencer {
    len: usize,
    index: usize,
    period: Duration,
    paused: bool,
    last: Option<std::time::Instant>,
    dirty: bool,
}

impl Sequencer {
    /// A sequence of `len` items, starting at the first.
    pub fn new(len: usize, period_s: f32) -> Sequencer {
        Sequencer {
            len,
            index: 0,
            period: Duration::from_secs_f32(period_s.clamp(0.2, 600.0)),
            paused: false,
            last: None,
            dirty: true,
        }
    }

    /// The item to show now, when it changed since the last call.
    pub fn tick(&mut self) -> Option<usize> {
        if self.is_empty() {
            return None;
        }
        let now = std::time::Instant::now();
        match self.last {
            None => self.last = Some(now),
            Some(t) if !self.paused && now.duration_since(t) >= self.period => {
                self.index = (self.index + 1) % self.len;
                self.last = Some(now);
                self.dirty = true;
            }
            _ => {}
        }
        std::mem::take(&mut self.dirty).then_some(self.index)
    }

    /// Moves by `delta` items (wrapping) and restarts the period.
    pub fn step(&mut self, delta: i64) {
        if self.len == 0 {
            return;
        }
        let len = self.len as i64;
        self.index = (self.index as i64 + delta).rem_euclid(len) as usize;
        self.last = Some(std::time::Instant::now());
        self.dirty = true;
    }

    /// Pauses or resumes the automatic advance.
    pub fn set_paused(&mut self, paused: bool) {
        self.paused = paused;
        self.last = Some(std::time::Instant::now());
    }

    /// Number of items.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no items.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Opens a source. Errors name what is wrong (the file, the camera).
pub fn open(
    spec: &SourceSpec,
    catalogue: &tablelens_engine::Catalogue,
) -> Result<Box<dyn Source>, SourceError> {
    match spec {
        SourceSpec::Demo { step } => Ok(Box::new(demo::DemoSource::new(catalogue, *step)?)),
        SourceSpec::Camera { index, resolution } => {
            Ok(Box::new(camera::CameraSource::open(*index, *resolution)?))
        }
        SourceSpec::Photo(path) => Ok(Box::new(still::PhotoSource::open(path)?)),
        SourceSpec::Folder { dir, step } => Ok(Box::new(still::FolderSource::open(dir, *step)?)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequencer_steps_and_wraps() {
        let mut s = Sequencer::new(3, 100.0);
        assert_eq!(s.tick(), Some(0));
        assert_eq!(s.tick(), None);
        s.step(-1);
        assert_eq!(s.tick(), Some(2));
        s.step(2);
        assert_eq!(s.tick(), Some(1));
        let mut empty = Sequencer::new(0, 1.0);
        empty.step(1);
        assert_eq!(empty.tick(), None);
    }
}
