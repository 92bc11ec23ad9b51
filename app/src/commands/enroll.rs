//! `tablelens enroll --faces DIR --out GALLERY`: learn the player's own pieces.

use crate::cli::EnrollArgs;
use crate::error::CliError;
use tablelens_engine::Catalogue;
use tablelens_vision::perceive::identify::enroll;
use tablelens_vision::perceive::{embedder_fingerprint, Embedder, VisionError};

/// Embeds every face picture and writes the gallery.
pub fn run(catalogue: &Catalogue, args: &EnrollArgs) -> Result<(), CliError> {
    let embedder = Embedder::builtin().map_err(|e| CliError::Failure(e.to_string()))?;
    let gallery = enroll(catalogue, &embedder, &embedder_fingerprint(), &args.faces).map_err(
        |e| match e {
            VisionError::Input(m) => CliError::BadInput(m),
            other => CliError::Failure(other.to_string()),
        },
    )?;
    gallery
        .save(&args.out)
        .map_err(|e| CliError::Failure(e.to_string()))?;
    let back = tablelens_vision::CARD_BACK;
    let ids: std::collections::BTreeSet<&str> = gallery
        .entries
        .iter()
        .map(|e| e.id.as_str())
        .filter(|id| *id != back)
        .collect();
    let missing: Vec<String> = catalogue
        .component_ids()
        .into_iter()
        .filter(|id| !ids.contains(id.as_str()))
        .collect();
    let pictures = |backs: bool| {
        gallery
            .entries
            .iter()
            .filter(|e| e.is_as_enrolled() && (e.id == back) == backs)
            .count()
    };
    eprintln!(
        "enrolled {} pictures of {} components and {} card backs into {}",
        pictures(false),
        ids.len(),
        pictures(true),
        args.out.display()
    );
    if pictures(true) == 0 {
        eprintln!(
            "no card backs enrolled ({}/{back}.png or {back}/*.png): face-down cards may be taken for pieces",
            args.faces.display()
        );
    }
    if !missing.is_empty() {
        eprintln!(
            "not enrolled ({}): {} — these pieces will be reported as unknown",
            missing.len(),
            missing.join(", ")
        );
    }
    Ok(())
}
