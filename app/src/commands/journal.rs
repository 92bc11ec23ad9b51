//! `tablelens journal FILE [--export-json FILE] [--export-md FILE] [--restore-token P:T]`:
//! export a followed game, or record a correction.

use super::print_json;
use crate::cli::JournalArgs;
use crate::error::CliError;
use crate::journal::Journal;
use std::path::Path;
use tablelens_engine::{Catalogue, Token};
use tablelens_vision::follow::Event;

/// Writes text to a file, or to standard output for `-`.
pub fn write_out(path: &Path, text: &str) -> Result<(), CliError> {
    if path == Path::new("-") {
        out!("{text}")?;
        Ok(())
    } else {
        std::fs::write(path, text)
            .map_err(|e| CliError::Failure(format!("cannot write {}: {e}", path.display())))
    }
}

/// Writes the exports asked for.
pub fn export(journal: &Journal, json: Option<&Path>, md: Option<&Path>) -> Result<(), CliError> {
    if let Some(p) = json {
        let v = journal.export_json()?;
        let mut text = serde_json::to_string_pretty(&v)
            .map_err(|e| CliError::Failure(format!("cannot write JSON: {e}")))?;
        text.push('\n');
        write_out(p, &text)?;
    }
    if let Some(p) = md {
        write_out(p, &journal.export_markdown()?)?;
    }
    Ok(())
}

/// Prints events as JSON lines or readable lines.
pub fn print_events(events: &[Event], json: bool) -> Result<(), CliError> {
    for e in events {
        if json {
            print_json(e)?;
        } else {
            outln!("{}", e.describe())?;
        }
    }
    Ok(())
}

/// Runs `tablelens journal`.
pub fn run(_catalogue: &Catalogue, args: &JournalArgs) -> Result<(), CliError> {
    let mut journal = Journal::open_existing(&args.journal)?;
    if let Some(spec) = &args.restore_token {
        let (piece, token) = spec.split_once(':').ok_or_else(|| {
            CliError::BadInput(format!(
                "--restore-token {spec}: expected PIECE:TOKEN, e.g. 3:+1"
            ))
        })?;
        let piece: u64 = piece.trim().parse().map_err(|_| {
            CliError::BadInput(format!(
                "--restore-token {spec}: `{piece}` is not a piece number"
            ))
        })?;
        let token = Token::ALL
            .into_iter()
            .find(|t| t.as_str() == token.trim())
            .ok_or_else(|| {
                CliError::BadInput(format!(
                    "--restore-token {spec}: unknown token `{token}` (+1, +2, -2, shield, disable)"
                ))
            })?;
        let mut follower = journal.follower()?;
        let events = follower
            .restore_token(piece, token)
            .map_err(|e| CliError::BadInput(format!("--restore-token {spec}: {e}")))?;
        journal.record_correction(
            "restore_token",
            &serde_json::json!({"piece": piece, "token": token}),
            &follower,
            &events,
        )?;
        print_events(&events, args.json)?;
    }
    let md = match (&args.export_json, &args.export_md, &args.restore_token) {
        (None, None, None) => Some(Path::new("-")),
        _ => args.export_md.as_deref(),
    };
    export(&journal, args.export_json.as_deref(), md)
}
