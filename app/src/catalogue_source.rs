//! Where the catalogue comes from: the bundled data plus the player's corrections.
//!
//! Corrections are read from `--catalogue FILE`, else from
//! `$TABLELENS_DATA_DIR/catalogue.toml`, else from `<user data dir>/tablelens/catalogue.toml`
//! when that file exists.

use crate::error::CliError;
use std::path::{Path, PathBuf};
use tablelens_engine::Catalogue;

/// The user's data directory for tablelens (`$TABLELENS_DATA_DIR` wins).
pub fn data_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("TABLELENS_DATA_DIR") {
        return Some(PathBuf::from(d));
    }
    dirs::data_dir().map(|d| d.join("tablelens"))
}

/// The catalogue with the corrections in force.
pub fn load(explicit: Option<&Path>) -> Result<Catalogue, CliError> {
    let mut catalogue = Catalogue::bundled();
    let file = match explicit {
        Some(p) => Some(p.to_path_buf()),
        None => data_dir()
            .map(|d| d.join("catalogue.toml"))
            .filter(|p| p.is_file()),
    };
    if let Some(path) = file {
        let text = std::fs::read_to_string(&path).map_err(|e| {
            CliError::BadInput(format!(
                "cannot read catalogue file {}: {e}",
                path.display()
            ))
        })?;
        catalogue
            .apply_overrides(&text)
            .map_err(|e| CliError::BadInput(format!("{}: {e}", path.display())))?;
    }
    Ok(catalogue)
}
