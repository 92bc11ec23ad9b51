//! What the player chose last time: kept in `<data dir>/settings.toml` between runs.
//!
//! A missing or unreadable file gives the defaults (never an error at start); saving
//! reports its error to the caller, who shows it.

use super::i18n::Lang;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Which kind of source feeds the overlay.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SourceKind {
    /// The built-in demo table.
    #[default]
    Demo,
    /// A camera.
    Camera,
    /// One photo.
    Photo,
    /// A folder of frames, played in name order.
    Folder,
}

/// The player's settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Interface language; `None` follows the system.
    pub language: Option<Lang>,
    /// The source chosen last.
    pub source: SourceKind,
    /// Camera index (in the list of cameras).
    pub camera: u32,
    /// Requested camera resolution (the camera gives the nearest it has). 1920x1080 by
    /// default: the size the vision's speed target is set for, and it reads a table better
    /// than 1280x720 (60 rendered scenes, `--seed 12`: 58 layouts exact against 48, the
    /// tokens on 720p's smaller cards found less often; `models/tokens.md`).
    pub resolution: [u32; 2],
    /// Last photo opened.
    pub photo: String,
    /// Last folder of frames opened.
    pub folder: String,
    /// Draw the name of every piece.
    pub show_labels: bool,
    /// Draw the outline of every piece.
    pub show_outlines: bool,
    /// On the demo table, show the true layout beside what the vision saw.
    pub show_truth: bool,
    /// On the demo table, take the true layout as what was seen (skip the vision), to show
    /// what the app does with a perfect reading.
    pub demo_truth: bool,
    /// Seconds between frames of the demo and of a folder.
    pub step_seconds: f32,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            language: None,
            source: SourceKind::Demo,
            camera: 0,
            resolution: [1920, 1080],
            photo: String::new(),
            folder: String::new(),
            show_labels: true,
            show_outlines: true,
            show_truth: false,
            demo_truth: false,
            step_seconds: 5.0,
        }
    }
}

/// Camera resolutions offered in the settings.
pub const RESOLUTIONS: [[u32; 2]; 4] = [[640, 480], [1280, 720], [1920, 1080], [3840, 2160]];

impl Settings {
    /// The language in force.
    pub fn lang(&self) -> Lang {
        self.language.unwrap_or_else(Lang::system)
    }

    /// Where the settings live.
    pub fn path() -> Option<PathBuf> {
        crate::catalogue_source::data_dir().map(|d| d.join("settings.toml"))
    }

    /// Reads the settings; the defaults when the file is missing or unreadable.
    pub fn load_from(path: &Path) -> Settings {
        std::fs::read_to_string(path)
            .ok()
            .and_then(|t| toml::from_str(&t).ok())
            .unwrap_or_default()
    }

    /// Writes the settings, creating the folder.
    pub fn save_to(&self, path: &Path) -> Result<(), String> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        let text = toml::to_string(self).map_err(|e| format!("settings: {e}"))?;
        std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_round_trip_and_bad_files_give_defaults() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub").join("settings.toml");
        assert_eq!(Settings::load_from(&path), Settings::default());
        let s = Settings {
            language: Some(Lang::Hu),
            source: SourceKind::Folder,
            folder: "/tmp/frames".into(),
            ..Settings::default()
        };
        s.save_to(&path).unwrap();
        assert_eq!(Settings::load_from(&path), s);
        std::fs::write(&path, "language = 12").unwrap();
        assert_eq!(Settings::load_from(&path), Settings::default());
    }
}
