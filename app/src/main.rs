//! `tablelens`: the command line (and, with no command, the table companion).
//!
//! Exit status: 0 on success (and where the reader of its output stops reading), 2 on bad
//! input or usage, 1 on any other failure; messages go to stderr.

#[macro_use]
mod output;
mod catalogue_source;
mod cli;
mod commands;
mod error;
mod gui;
mod journal;
mod report;

use clap::Parser;
use error::CliError;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = match cli::Cli::try_parse() {
        Ok(args) => args,
        Err(e) => {
            // Help and version are not errors.
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match commands::run(args) {
        Ok(()) | Err(CliError::Closed) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tablelens: {e}");
            ExitCode::from(e.code())
        }
    }
}
