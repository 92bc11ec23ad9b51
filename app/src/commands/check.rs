//! `tablelens check LAYOUT [--json]`: violations and warnings only; exit 0 even when
//! there are some.

use super::{print_json, read_layout};
use crate::cli::CheckArgs;
use crate::error::CliError;
use crate::report;
use tablelens_engine::{battle, check, Catalogue};

/// Checks the layout and prints what is wrong or uncertain.
pub fn run(catalogue: &Catalogue, args: &CheckArgs) -> Result<(), CliError> {
    let layout = read_layout(&args.layout, catalogue)?;
    let mut findings = check(catalogue, &layout);
    // Warnings on the values the battle rests on (unknown strengths, arrival order).
    if let Ok(result) = battle(catalogue, &layout) {
        findings = tablelens_engine::Findings {
            violations: result.violations,
            warnings: result.warnings,
        };
    }
    if args.json {
        print_json(&findings)
    } else {
        out!(
            "{}",
            report::findings(&findings.violations, &findings.warnings)
        )?;
        Ok(())
    }
}
