//! One module per command; [`run`] dispatches.

mod analyze;
mod battle;
mod cards;
mod check;
mod demo;
mod enroll;
mod eval;
mod follow;
mod journal;
mod render;

use crate::catalogue_source;
use crate::cli::{Cli, Command};
use crate::error::CliError;
use std::io::Read;
use std::path::Path;
use tablelens_engine::{Catalogue, Layout};

/// Runs the command the user asked for.
pub fn run(cli: Cli) -> Result<(), CliError> {
    let catalogue = || catalogue_source::load(cli.catalogue.as_deref());
    match cli.command {
        None => app(&cli),
        Some(Command::Battle(a)) => battle::run(&catalogue()?, &a),
        Some(Command::Check(a)) => check::run(&catalogue()?, &a),
        Some(Command::Cards(a)) => cards::run(&catalogue()?, &a),
        Some(Command::Render(a)) => render::run(&catalogue()?, &a),
        Some(Command::Enroll(a)) => enroll::run(&catalogue()?, &a),
        Some(Command::Analyze(a)) => analyze::run(&catalogue()?, &a),
        Some(Command::Eval(a)) => eval::run(&catalogue()?, &a),
        Some(Command::Follow(a)) => follow::run(&catalogue()?, &a),
        Some(Command::Journal(a)) => journal::run(&catalogue()?, &a),
    }
}

/// `tablelens` with no command: the desktop app, or, with no display to open it on (none
/// set, or one that cannot be reached), the built-in example table judged on the command
/// line.
fn app(cli: &Cli) -> Result<(), CliError> {
    // A bad catalogue file is refused before the window opens, as the commands do.
    let catalogue = catalogue_source::load(cli.catalogue.as_deref())?;
    if !crate::gui::display_available() {
        eprintln!(
            "tablelens: no display (DISPLAY / WAYLAND_DISPLAY not set), so the window cannot open; \
             showing the built-in example table instead"
        );
        return demo::run(&catalogue);
    }
    match crate::gui::run(cli.catalogue.clone()) {
        Ok(()) => Ok(()),
        Err(e) => {
            eprintln!("tablelens: {e}; showing the built-in example table instead");
            demo::run(&catalogue)
        }
    }
}

/// Reads and validates a layout file (`-` is standard input).
pub fn read_layout(path: &Path, catalogue: &Catalogue) -> Result<Layout, CliError> {
    let text = if path == Path::new("-") {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .map_err(|e| CliError::BadInput(format!("cannot read standard input: {e}")))?;
        s
    } else {
        std::fs::read_to_string(path)
            .map_err(|e| CliError::BadInput(format!("cannot read {}: {e}", path.display())))?
    };
    Layout::from_json(&text, catalogue)
        .map_err(|e| CliError::BadInput(format!("{}: {e}", path.display())))
}

/// Loads a gallery and the vision models; warns on standard error when the gallery lacks
/// pictures that an older `tablelens enroll` did not keep.
pub fn analyzer(
    catalogue: &Catalogue,
    path: &Path,
) -> Result<tablelens_vision::perceive::Analyzer, CliError> {
    use tablelens_vision::perceive::{Analyzer, Gallery, VisionError};
    let gallery = Gallery::load(path).map_err(|e| CliError::BadInput(e.to_string()))?;
    if let Some(note) = gallery.lacking_note(catalogue) {
        eprintln!("warning: {}: {note}", path.display());
    }
    Analyzer::new(gallery).map_err(|e| match e {
        VisionError::Input(m) => CliError::BadInput(m),
        other => CliError::Failure(other.to_string()),
    })
}

/// The end of a command that read a list of pictures and skipped those it could not read
/// (each reported as it was met): bad input naming them all, or success if none.
pub fn none_unread(failed: &[String]) -> Result<(), CliError> {
    if failed.is_empty() {
        Ok(())
    } else {
        Err(CliError::BadInput(format!(
            "could not read {}",
            failed.join(", ")
        )))
    }
}

/// Prints a value as one line of JSON.
pub fn print_json<T: serde::Serialize>(value: &T) -> Result<(), CliError> {
    let text = serde_json::to_string(value)
        .map_err(|e| CliError::Failure(format!("cannot write JSON: {e}")))?;
    outln!("{text}")?;
    Ok(())
}
