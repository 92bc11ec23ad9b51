//! `tablelens battle LAYOUT [--json]`.

use super::{print_json, read_layout};
use crate::cli::BattleArgs;
use crate::error::CliError;
use crate::report;
use tablelens_engine::{battle, game_state, Catalogue};

/// Judges the battle in the layout's active city and prints it.
pub fn run(catalogue: &Catalogue, args: &BattleArgs) -> Result<(), CliError> {
    let layout = read_layout(&args.layout, catalogue)?;
    let mut result = battle(catalogue, &layout)
        .map_err(|e| CliError::BadInput(format!("{}: {e}", args.layout.display())))?;
    if let (Some(deck), Some(hand)) = (args.moloch_deck, args.moloch_hand) {
        result.game = Some(game_state(&layout, deck, hand));
    }
    if args.json {
        print_json(&result)
    } else {
        out!("{}", report::battle(catalogue, &result))?;
        Ok(())
    }
}
