//! `tablelens cards [--json]`: the catalogue, with which values are confirmed.

use super::print_json;
use crate::cli::CardsArgs;
use crate::error::CliError;
use serde::Serialize;
use tablelens_engine::catalogue::Names;
use tablelens_engine::{Catalogue, Kind, Side};

/// One card as CONTRACT.md lists it (plus trigger and ability summary).
#[derive(Serialize)]
struct CardRow<'a> {
    id: &'a str,
    side: Side,
    kind: Kind,
    count: u32,
    names: &'a Names,
    strength: Option<i32>,
    confirmed: bool,
    trigger: tablelens_engine::Trigger,
    ability: &'a str,
}

/// Prints the catalogue.
pub fn run(catalogue: &Catalogue, args: &CardsArgs) -> Result<(), CliError> {
    if args.json {
        let rows: Vec<CardRow> = catalogue
            .cards()
            .iter()
            .map(|c| CardRow {
                id: &c.id,
                side: c.side,
                kind: c.kind,
                count: c.count,
                names: &c.names,
                strength: c.strength,
                confirmed: c.confirmed,
                trigger: c.trigger,
                ability: &c.ability,
            })
            .collect();
        return print_json(&rows);
    }
    out!("{}", crate::report::catalogue(catalogue, &args.lang))?;
    Ok(())
}
