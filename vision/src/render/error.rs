//! Errors of the renderer's file output.

use std::fmt;
use std::path::PathBuf;

/// Why faces or scenes could not be written.
#[derive(Debug)]
pub enum RenderError {
    /// The output directory could not be created.
    CreateDir {
        /// The directory.
        path: PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
    /// A file could not be written.
    Write {
        /// The file.
        path: PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
    /// An image could not be encoded.
    Encode {
        /// The file it was meant for.
        path: PathBuf,
        /// The encoder's reason.
        message: String,
    },
    /// A component id that the catalogue does not know.
    UnknownComponent {
        /// The id.
        id: String,
    },
}

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RenderError::CreateDir { path, source } => {
                write!(
                    f,
                    "cannot create the directory {}: {source}",
                    path.display()
                )
            }
            RenderError::Write { path, source } => {
                write!(f, "cannot write {}: {source}", path.display())
            }
            RenderError::Encode { path, message } => {
                write!(f, "cannot encode the image {}: {message}", path.display())
            }
            RenderError::UnknownComponent { id } => {
                write!(f, "no face for `{id}`: not a component id of the catalogue")
            }
        }
    }
}

impl std::error::Error for RenderError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RenderError::CreateDir { source, .. } | RenderError::Write { source, .. } => {
                Some(source)
            }
            _ => None,
        }
    }
}
