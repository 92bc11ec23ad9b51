//! Who wins the game, given the table and Moloch's deck and hand counts.
//!
//! After the final battle in New York, Moloch wins with at least one card in its draw deck
//! or at least one robot in New York; else Outpost wins. Outpost also wins early if, at the
//! start of a battle, Moloch has no card in deck, none in hand and no robot in any city
//! that is not destroyed.

use crate::ids::{CityId, Side};
use crate::layout::Layout;
use serde::Serialize;

/// The state of the game as a whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "state", content = "winner")]
pub enum GameState {
    /// The game goes on.
    Ongoing,
    /// The game is over.
    Over(Side),
}

/// Judges the game. `moloch_deck` and `moloch_hand` are card counts.
pub fn game_state(layout: &Layout, moloch_deck: u32, moloch_hand: u32) -> GameState {
    let cities = layout.full_cities();
    let new_york = &cities[CityId::NewYork.index()];
    if new_york.destroyed {
        let moloch_wins = moloch_deck > 0 || !new_york.moloch.is_empty();
        return GameState::Over(if moloch_wins {
            Side::Moloch
        } else {
            Side::Outpost
        });
    }
    let robots_standing = cities.iter().any(|c| !c.destroyed && !c.moloch.is_empty());
    if moloch_deck == 0 && moloch_hand == 0 && !robots_standing {
        return GameState::Over(Side::Outpost);
    }
    GameState::Ongoing
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::Catalogue;

    fn layout(json: &str) -> Layout {
        Layout::from_json(json, &Catalogue::bundled()).unwrap()
    }

    const ALL_FALLEN: &str = r#"{"cities":[{"id":"ziggy_one","destroyed":true},{"id":"iron_gate","destroyed":true},{"id":"cleveland_harbour","destroyed":true},{"id":"jersey_crust","destroyed":true},{"id":"new_york","destroyed":true NY}]}"#;

    #[test]
    fn final_battle_moloch_needs_a_deck_card_or_a_robot_in_new_york() {
        let empty = layout(&ALL_FALLEN.replace(" NY", ""));
        assert_eq!(game_state(&empty, 0, 5), GameState::Over(Side::Outpost));
        assert_eq!(game_state(&empty, 1, 0), GameState::Over(Side::Moloch));
        let robot = layout(&ALL_FALLEN.replace(" NY", r#","moloch":[{"card":"hunter"}]"#));
        assert_eq!(game_state(&robot, 0, 0), GameState::Over(Side::Moloch));
    }

    #[test]
    fn outpost_wins_early_when_moloch_has_nothing_left() {
        let l = layout(
            r#"{"cities":[{"id":"ziggy_one","destroyed":true,"moloch":[{"card":"hunter"}]}]}"#,
        );
        assert_eq!(game_state(&l, 0, 0), GameState::Over(Side::Outpost));
        assert_eq!(game_state(&l, 0, 1), GameState::Ongoing);
        assert_eq!(game_state(&l, 1, 0), GameState::Ongoing);
        let standing = layout(r#"{"cities":[{"id":"iron_gate","moloch":[{"card":"hunter"}]}]}"#);
        assert_eq!(game_state(&standing, 0, 0), GameState::Ongoing);
    }
}
