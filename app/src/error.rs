//! The command line's errors and their exit status.

use std::fmt;

/// A failed command: bad input (exit 2) or any other failure (exit 1); or output whose
/// reader went away (exit 0, nothing said).
#[derive(Debug)]
pub enum CliError {
    /// The user's input is wrong: a file that cannot be read or parsed, a bad value.
    BadInput(String),
    /// Something else failed (writing output, an internal limit).
    Failure(String),
    /// Standard output was closed by its reader (`| head`): the command stops writing,
    /// and ends as if it had finished ([`crate::output`]).
    Closed,
}

impl CliError {
    /// The process exit status for this error.
    pub fn code(&self) -> u8 {
        match self {
            CliError::BadInput(_) => 2,
            CliError::Failure(_) => 1,
            CliError::Closed => 0,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::BadInput(m) | CliError::Failure(m) => f.write_str(m),
            CliError::Closed => f.write_str("standard output was closed"),
        }
    }
}

impl std::error::Error for CliError {}
