//! A photo, or a folder of frames played in name order.

use super::{Frame, Sequencer, Source, SourceError};
use image::RgbImage;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Whether a path looks like a picture tablelens can read.
pub fn is_picture(path: &Path) -> bool {
    matches!(
        path.extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref(),
        Some("png" | "jpg" | "jpeg")
    )
}

/// Reads a picture, with an error that names the file.
pub fn read_picture(path: &Path) -> Result<RgbImage, SourceError> {
    tablelens_vision::photo::open(path)
        .map(|i| i.to_rgb8())
        .map_err(|e| SourceError::Invalid(format!("{}: {e}", path.display())))
}

/// One photo, shown once.
#[derive(Debug)]
pub struct PhotoSource {
    frame: Option<Frame>,
}

impl PhotoSource {
    /// Reads the photo.
    pub fn open(path: &Path) -> Result<PhotoSource, SourceError> {
        let image = read_picture(path)?;
        Ok(PhotoSource {
            frame: Some(Frame {
                image: Arc::new(image),
                truth: None,
                label: file_name(path),
                position: None,
            }),
        })
    }
}

impl Source for PhotoSource {
    fn poll(&mut self) -> Result<Option<Frame>, SourceError> {
        Ok(self.frame.take())
    }

    fn idle(&self) -> std::time::Duration {
        std::time::Duration::from_millis(100)
    }
}

/// The pictures of a folder, in name order, one every few seconds (or stepped by hand).
#[derive(Debug)]
pub struct FolderSource {
    files: Vec<PathBuf>,
    seq: Sequencer,
}

impl FolderSource {
    /// Lists the folder's pictures; an empty or unreadable folder is an error.
    pub fn open(dir: &Path, step_s: f32) -> Result<FolderSource, SourceError> {
        let entries = std::fs::read_dir(dir)
            .map_err(|e| SourceError::Invalid(format!("cannot read {}: {e}", dir.display())))?;
        let mut files: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| is_picture(p))
            .collect();
        files.sort();
        if files.is_empty() {
            return Err(SourceError::Invalid(format!(
                "{}: no pictures (.png, .jpg)",
                dir.display()
            )));
        }
        let seq = Sequencer::new(files.len(), step_s);
        Ok(FolderSource { files, seq })
    }
}

impl Source for FolderSource {
    fn poll(&mut self) -> Result<Option<Frame>, SourceError> {
        let Some(i) = self.seq.tick() else {
            return Ok(None);
        };
        let path = &self.files[i];
        // A bad picture in the middle of a folder is reported but does not end the folder.
        let image = read_picture(path)?;
        Ok(Some(Frame {
            image: Arc::new(image),
            truth: None,
            label: file_name(path),
            position: Some((i, self.files.len())),
        }))
    }

    fn step(&mut self, delta: i64) {
        self.seq.step(delta);
    }

    fn set_paused(&mut self, paused: bool) {
        self.seq.set_paused(paused);
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folder_plays_pictures_in_order_and_survives_bad_ones() {
        let dir = tempfile::tempdir().unwrap();
        RgbImage::new(8, 8).save(dir.path().join("b.png")).unwrap();
        std::fs::write(dir.path().join("a.png"), b"not a png").unwrap();
        std::fs::write(dir.path().join("notes.txt"), b"x").unwrap();
        let mut src = FolderSource::open(dir.path(), 100.0).unwrap();
        assert!(matches!(src.poll(), Err(SourceError::Invalid(_))));
        src.step(1);
        let f = src.poll().unwrap().unwrap();
        assert_eq!(f.label, "b.png");
        assert_eq!(f.position, Some((1, 2)));
    }

    #[test]
    fn empty_folder_and_bad_photo_are_errors() {
        let dir = tempfile::tempdir().unwrap();
        assert!(FolderSource::open(dir.path(), 1.0).is_err());
        assert!(PhotoSource::open(&dir.path().join("missing.png")).is_err());
    }
}
