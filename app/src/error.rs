//! The command line's errors and their exit status.

use std::fmt;

/// A failed command: bad input (exit 2) or any other failure (exit 1).
#[derive(Debug)]
pub enum CliError {
    /// The user's input is wrong: a file that cannot be read or parsed, a bad value.
    BadInput(String),
    /// Something else failed (writing output, an internal limit).
    Failure(String),
}

impl CliError {
    /// The process exit status for this error.
    pub fn code(&self) -> u8 {
        match self {
            CliError::BadInput(_) => 2,
            CliError::Failure(_) => 1,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::BadInput(m) | CliError::Failure(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for CliError {}
