//! What the commands print on standard output. A reader that stops reading (`tablelens
//! analyze ... | head`) ends the command quietly ([`CliError::Closed`]) instead of a panic,
//! as `print!` would; any other failure to write is an error like the rest.

use crate::error::CliError;
use std::fmt;
use std::io::{self, Write};

/// `print!` that returns an error instead of panicking ([`write()`]).
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::output::write(format_args!($($arg)*))
    };
}

/// `println!` that returns an error instead of panicking ([`write()`]).
macro_rules! outln {
    () => {
        $crate::output::write(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::output::write(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// Writes `args` to standard output (the body of [`out!`] and [`outln!`]).
pub fn write(args: fmt::Arguments) -> Result<(), CliError> {
    io::stdout().lock().write_fmt(args).map_err(write_error)
}

/// The error for a failed write: [`CliError::Closed`] where the reader has gone away.
fn write_error(e: io::Error) -> CliError {
    if e.kind() == io::ErrorKind::BrokenPipe {
        CliError::Closed
    } else {
        CliError::Failure(format!("cannot write to standard output: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closed_pipe_is_a_quiet_end_and_other_failures_are_errors() {
        let closed = write_error(io::Error::from(io::ErrorKind::BrokenPipe));
        assert!(matches!(closed, CliError::Closed), "{closed:?}");
        assert_eq!(closed.code(), 0);
        let full = write_error(io::Error::other("no space left on device"));
        assert!(matches!(full, CliError::Failure(_)), "{full:?}");
        assert_eq!(full.code(), 1);
        assert!(full.to_string().contains("no space left"), "{full}");
    }
}
