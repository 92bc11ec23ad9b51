//! `tablelens follow FRAME... --gallery GALLERY --journal FILE [--json]`: follow a game
//! through frames in order, print its events, and journal everything so that a rerun with
//! the same journal continues from where it stopped.

use super::journal::{export, print_events};
use super::none_unread;
use crate::cli::FollowArgs;
use crate::error::CliError;
use crate::journal::Journal;
use tablelens_engine::{Catalogue, Layout};
use tablelens_vision::perceive::Analyzer;

/// A test hook: milliseconds to sleep before each frame, so that tests can be sure to
/// kill the process mid-run.
const DELAY_VAR: &str = "TABLELENS_FOLLOW_DELAY_MS";

enum Frame {
    Layout(Layout),
    Image(image::RgbImage),
}

fn read_frame(path: &std::path::Path, catalogue: &Catalogue) -> Result<Frame, String> {
    let is_json = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"));
    if is_json {
        let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
        Layout::from_json(&text, catalogue)
            .map(Frame::Layout)
            .map_err(|e| e.to_string())
    } else {
        tablelens_vision::photo::open(path)
            .map(|i| Frame::Image(i.to_rgb8()))
            .map_err(|e| e.to_string())
    }
}

/// Follows the frames; a frame that cannot be read is reported, left out of the journal
/// (a rerun tries it again) and makes the exit status 2.
pub fn run(catalogue: &Catalogue, args: &FollowArgs) -> Result<(), CliError> {
    let mut journal = Journal::open(&args.journal, args.new_game)?;
    let mut follower = journal.follower()?;
    let delay = std::env::var(DELAY_VAR)
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .map(std::time::Duration::from_millis);
    let mut analyzer: Option<Analyzer> = None;
    let mut failed = Vec::new();
    for path in &args.frames {
        let name = path.display().to_string();
        if journal.processed(&name)? {
            continue;
        }
        if let Some(d) = delay {
            std::thread::sleep(d);
        }
        let seen = match read_frame(path, catalogue) {
            Ok(Frame::Layout(l)) => l,
            Ok(Frame::Image(img)) => {
                if analyzer.is_none() {
                    let gallery = args.gallery.as_deref().ok_or_else(|| {
                        CliError::BadInput(format!(
                            "{name} is a photo: follow needs --gallery GALLERY to read photos"
                        ))
                    })?;
                    analyzer = Some(super::analyzer(catalogue, gallery)?);
                }
                let a = analyzer.as_ref().expect("set above");
                a.analyze(catalogue, &img)
                    .map_err(|e| CliError::Failure(format!("{name}: {e}")))?
                    .layout
            }
            Err(e) => {
                eprintln!("tablelens: {name}: {e}");
                failed.push(name);
                continue;
            }
        };
        let frame = follower.next_frame();
        let events = follower.observe(catalogue, &seen);
        // Committed before printed: whatever was printed is in the journal.
        journal.record_frame(frame, &name, &follower, &events)?;
        print_events(&events, args.json)?;
    }
    export(
        &journal,
        args.export_json.as_deref(),
        args.export_md.as_deref(),
    )?;
    none_unread(&failed)
}
