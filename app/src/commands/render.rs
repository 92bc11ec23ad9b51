//! `tablelens render --out DIR [--count N] [--seed S] [--deck K] [--size WxH]` and
//! `tablelens render --faces DIR [--deck K]`.

use crate::cli::RenderArgs;
use crate::error::CliError;
use tablelens_engine::Catalogue;
use tablelens_vision::render;

/// Writes synthetic scenes or the proxy faces.
pub fn run(catalogue: &Catalogue, args: &RenderArgs) -> Result<(), CliError> {
    if let Some(dir) = &args.faces {
        let n = render::write_faces_in(catalogue, dir, render::deck_style(args.deck))
            .map_err(|e| CliError::Failure(e.to_string()))?;
        eprintln!(
            "wrote {n} faces and the two card backs ({}/) to {}",
            tablelens_vision::CARD_BACK,
            dir.display()
        );
    } else if let Some(dir) = &args.out {
        let options = render::SceneOptions {
            style_pool: vec![render::deck_style(args.deck)],
            ..render::SceneOptions::default()
        }
        .sized(args.size.0, args.size.1);
        render::write_scenes_with(catalogue, dir, args.count, args.seed, &options)
            .map_err(|e| CliError::Failure(e.to_string()))?;
        eprintln!("wrote {} scenes to {}", args.count, dir.display());
    }
    Ok(())
}
