//! `tablelens render --out DIR [--count N] [--seed S]` and `tablelens render --faces DIR`.

use crate::cli::RenderArgs;
use crate::error::CliError;
use tablelens_engine::Catalogue;
use tablelens_vision::render;

/// Writes synthetic scenes or the proxy faces.
pub fn run(catalogue: &Catalogue, args: &RenderArgs) -> Result<(), CliError> {
    if let Some(dir) = &args.faces {
        let n =
            render::write_faces(catalogue, dir).map_err(|e| CliError::Failure(e.to_string()))?;
        eprintln!("wrote {n} faces to {}", dir.display());
    } else if let Some(dir) = &args.out {
        render::write_scenes(catalogue, dir, args.count, args.seed)
            .map_err(|e| CliError::Failure(e.to_string()))?;
        eprintln!("wrote {} scenes to {}", args.count, dir.display());
    }
    Ok(())
}
