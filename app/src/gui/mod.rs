//! The desktop app: a live overlay for the table (egui/eframe).
//!
//! `app` holds the state and lays the window out; `sources` gives frames (camera, photo,
//! folder, demo); `worker` captures and analyses them off the UI thread and feeds them to
//! the game follower; `follow` keeps what the followed game asks of the player and its
//! battle log; `view` works out the battle and totals of a frame; `overlay` draws the frame
//! with what was seen; `panels` the totals, breakdown, outcome and findings; `game_panel`
//! the followed game's alerts and battle log; `correction` the player's fixes; `wizard` the
//! enrolment; `i18n` the words in en/pl/hu; `settings` what is kept between runs; `report`
//! screenshots and battle reports.

pub mod app;
pub mod correction;
pub mod follow;
pub mod game_panel;
pub mod i18n;
pub mod overlay;
pub mod panels;
pub mod report;
pub mod settings;
pub mod sources;
pub mod view;
pub mod wizard;
pub mod worker;

use std::path::PathBuf;

/// Whether a window can be opened here (an X11 or Wayland display is set).
pub fn display_available() -> bool {
    if cfg!(any(target_os = "windows", target_os = "macos")) {
        return true;
    }
    ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|s| !s.is_empty()))
}

/// Opens the window and runs until it is closed.
pub fn run(catalogue_file: Option<PathBuf>) -> Result<(), String> {
    let options = eframe::NativeOptions {
        viewport: eframe::egui::ViewportBuilder::default()
            .with_title("tablelens")
            .with_inner_size([1480.0, 860.0])
            .with_min_inner_size([800.0, 500.0]),
        ..Default::default()
    };
    eframe::run_native(
        "tablelens",
        options,
        Box::new(move |cc| {
            let app = app::TableLensApp::start(&cc.egui_ctx, catalogue_file);
            Ok(Box::new(app))
        }),
    )
    .map_err(|e| format!("cannot open the window: {e}"))
}

#[cfg(test)]
mod tests;
