//! `tablelens` with no command: until the desktop app lands, the built-in example table
//! judged on the command line.

use crate::error::CliError;
use crate::report;
use tablelens_engine::{battle, Catalogue, Layout};

/// The bundled example table.
const EXAMPLE_TABLE: &str = include_str!("../../data/example_table.json");

/// Judges the built-in example table and prints the result.
pub fn run(catalogue: &Catalogue) -> Result<(), CliError> {
    let layout = Layout::from_json(EXAMPLE_TABLE, catalogue)
        .map_err(|e| CliError::Failure(format!("built-in example table: {e}")))?;
    let result = battle(catalogue, &layout)
        .map_err(|e| CliError::Failure(format!("built-in example table: {e}")))?;
    outln!("tablelens: built-in example table (see `tablelens --help` for the commands)\n")?;
    out!("{}", report::battle(catalogue, &result))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_table_is_legal_and_judged() {
        let cat = Catalogue::bundled();
        let layout = Layout::from_json(EXAMPLE_TABLE, &cat).unwrap();
        let result = battle(&cat, &layout).unwrap();
        assert!(result.violations.is_empty(), "{:?}", result.violations);
        assert_eq!(result.city, tablelens_engine::CityId::IronGate);
    }
}
