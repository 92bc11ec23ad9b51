//! `tablelens analyze IMAGE... --gallery GALLERY [--json]`: the layout seen in each photo,
//! plus its battle result.

use super::{analyzer, none_unread, print_json};
use crate::cli::AnalyzeArgs;
use crate::error::CliError;
use crate::report;
use tablelens_engine::{battle, Catalogue};

/// Analyses each photo in order. A photo that cannot be read is reported and skipped; the
/// exit status is then 2.
pub fn run(catalogue: &Catalogue, args: &AnalyzeArgs) -> Result<(), CliError> {
    let analyzer = analyzer(catalogue, &args.gallery)?;
    let mut failed = Vec::new();
    for path in &args.images {
        let frame = match tablelens_vision::photo::open(path) {
            Ok(img) => img.to_rgb8(),
            Err(e) => {
                eprintln!("tablelens: {}: {e}", path.display());
                failed.push(path.display().to_string());
                continue;
            }
        };
        let analysis = analyzer
            .analyze(catalogue, &frame)
            .map_err(|e| CliError::Failure(format!("{}: {e}", path.display())))?;
        let result = if analysis.has_cities {
            battle(catalogue, &analysis.layout).ok()
        } else {
            None
        };
        if args.json {
            print_json(&serde_json::json!({
                "image": path.display().to_string(),
                "layout": analysis.layout,
                "battle": result,
            }))?;
        } else {
            outln!("== {}", path.display())?;
            let cards: usize = analysis
                .layout
                .cities
                .iter()
                .map(|c| 1 + c.moloch.len() + c.outpost.len())
                .sum();
            outln!(
                "{} cities, {} cards placed, {} pieces not identified ({:.0} ms)",
                analysis.layout.cities.len(),
                cards,
                analysis.layout.unknown.len(),
                analysis.times.total_ms()
            )?;
            if let Some(width) = analysis.small_cards() {
                outln!(
                    "The cards are about {width:.0} px wide: under {:.0} px, pieces are misread more often. Bring the camera closer or raise its resolution.",
                    tablelens_vision::perceive::SMALL_CARD_PX
                )?;
            }
            let doubts = analysis.layout.doubts.len();
            if doubts > 0 {
                outln!(
                    "{doubts} piece(s) read by a narrow margin over another reading: check them (each is named with the warnings)."
                )?;
            }
            let missing = analysis.layout.missing.len();
            if missing > 0 {
                outln!(
                    "{missing} place(s) in a column where a card may lie unread: check them (each is named with the warnings)."
                )?;
            }
            if analysis.times.relit() {
                outln!(
                    "The light is far from the enrolled pictures' (in colour or brightness): the photo was read again with it taken out."
                )?;
            }
            match &result {
                Some(r) => out!("{}", report::battle(catalogue, r))?,
                None => outln!("No city in view: no battle.")?,
            }
        }
    }
    none_unread(&failed)
}
