//! The game's winner, and reading layout files (errors name the field).
//! Rulebook: PL/HU "Koniec gry" / "A játék vége".

mod common;
use common::*;
use tablelens_engine::{game_state, GameState, Layout, Side};

const FOUR_FALLEN: &str = r#"{"id":"ziggy_one","destroyed":true},{"id":"iron_gate","destroyed":true},
    {"id":"cleveland_harbour","destroyed":true},{"id":"jersey_crust","destroyed":true}"#;

fn after_final_battle(new_york_moloch: &str) -> Layout {
    layout(
        cat(),
        &format!(
            r#"{{"cities":[{FOUR_FALLEN},{{"id":"new_york","destroyed":true,"moloch":[{new_york_moloch}]}}]}}"#
        ),
    )
}

#[test]
fn after_the_final_battle_moloch_wins_with_a_deck_card_or_a_robot_in_new_york() {
    let empty = after_final_battle("");
    assert_eq!(game_state(&empty, 1, 0), GameState::Over(Side::Moloch));
    assert_eq!(game_state(&empty, 0, 0), GameState::Over(Side::Outpost));
    // Cards in hand do not count.
    assert_eq!(game_state(&empty, 0, 7), GameState::Over(Side::Outpost));
    let robot = after_final_battle(r#"{"card":"spiders"}"#);
    assert_eq!(game_state(&robot, 0, 0), GameState::Over(Side::Moloch));
    assert_eq!(game_state(&robot, 3, 2), GameState::Over(Side::Moloch));
}

#[test]
fn a_robot_elsewhere_does_not_save_moloch_after_the_final_battle() {
    let l = layout(
        cat(),
        r#"{"cities":[{"id":"ziggy_one","destroyed":true},{"id":"iron_gate","destroyed":true},
            {"id":"cleveland_harbour","destroyed":true},{"id":"jersey_crust","destroyed":true,"moloch":[{"card":"hunter"}]},
            {"id":"new_york","destroyed":true,"outpost":[{"card":"scout"}]}]}"#,
    );
    assert_eq!(game_state(&l, 0, 0), GameState::Over(Side::Outpost));
}

#[test]
fn outpost_wins_early_when_moloch_has_no_deck_no_hand_and_no_robot_in_a_standing_city() {
    // Robots only in destroyed cities.
    let l = layout(
        cat(),
        r#"{"cities":[{"id":"ziggy_one","destroyed":true,"moloch":[{"card":"hunter"}]},
                      {"id":"iron_gate","destroyed":true,"moloch":[{"card":"brute"}]},
                      {"id":"cleveland_harbour","outpost":[{"card":"scout"}]}]}"#,
    );
    assert_eq!(game_state(&l, 0, 0), GameState::Over(Side::Outpost));
    assert_eq!(game_state(&l, 1, 0), GameState::Ongoing);
    assert_eq!(game_state(&l, 0, 1), GameState::Ongoing);
    // A robot in a future city keeps the game going.
    let l = layout(
        cat(),
        r#"{"cities":[{"id":"new_york","moloch":[{"card":"spiders"}]}]}"#,
    );
    assert_eq!(game_state(&l, 0, 0), GameState::Ongoing);
    // An empty table at the start of a battle with nothing left.
    let l = layout(cat(), r#"{"cities":[]}"#);
    assert_eq!(game_state(&l, 0, 0), GameState::Over(Side::Outpost));
    assert_eq!(game_state(&l, 35, 0), GameState::Ongoing);
}

#[test]
fn game_state_serialises_with_its_winner() {
    assert_eq!(
        serde_json::to_value(GameState::Over(Side::Outpost)).unwrap(),
        serde_json::json!({"state":"over","winner":"outpost"})
    );
    assert_eq!(
        serde_json::to_value(GameState::Ongoing).unwrap(),
        serde_json::json!({"state":"ongoing"})
    );
}

#[test]
fn bad_layouts_are_refused_naming_the_field() {
    let cases = [
        (
            r#"{"cities":[{"id":"ziggy_one","moloch":[{"card":"hunter","tokens":["+3"]}]}]}"#,
            "cities[0].moloch[0].tokens[0]",
        ),
        (
            r#"{"cities":[{"id":"ziggy_one","outpost":[{"card":"scout","strength":"two"}]}]}"#,
            "cities[0].outpost[0].strength",
        ),
        (
            r#"{"cities":[{"id":"ziggy_one","outpost":[{"card":"scout","strength":99}]}]}"#,
            "cities[0].outpost[0].strength",
        ),
        (
            r#"{"cities":[{"id":"ziggy_one","battle_district":0}]}"#,
            "cities[0].battle_district",
        ),
        (
            r#"{"cities":[{"id":"ziggy_one","districts_destroyed":5}]}"#,
            "cities[0].districts_destroyed",
        ),
        (
            r#"{"cities":[{"id":"ziggy_one"},{"id":"iron_gate","moloch":[{"card":"scout"}]}]}"#,
            "cities[1].moloch[0].card",
        ),
        (
            r#"{"cities":[{"id":"ziggy_one","moloch":[{"card":"hunter","module":{"card":"sniper"}}]}]}"#,
            "cities[0].moloch[0].module.card",
        ),
        (
            r#"{"cities":[{"id":"ziggy_one","moloch":[{"card":"hunter","netted":"yes"}]}]}"#,
            "cities[0].moloch[0].netted",
        ),
        (
            r#"{"cities":[{"id":"ziggy_one","moloch":[{"tokens":[]}]}]}"#,
            "cities[0].moloch[0]",
        ),
        (r#"{"emp_assault":1}"#, "emp_assault"),
    ];
    for (json, field) in cases {
        match Layout::from_json(json, cat()) {
            Ok(_) => panic!("accepted {json}"),
            Err(e) => {
                assert_eq!(e.field, field, "{json}: {e}");
                assert!(!e.message.is_empty());
                assert!(e.to_string().starts_with(field), "{e}");
            }
        }
    }
    for json in [
        "",
        "   ",
        "[]",
        "null",
        "{",
        "{}}",
        "{\"cities\":{}}",
        "\u{feff}{}",
    ] {
        assert!(Layout::from_json(json, cat()).is_err(), "accepted {json:?}");
    }
}

#[test]
fn an_empty_object_is_an_empty_table() {
    let l = layout(cat(), "{}");
    assert_eq!(l.cities.len(), 0);
    assert_eq!(l.full_cities().len(), 5);
    let r = judge(cat(), "{}");
    assert_eq!(r.city.as_str(), "ziggy_one");
    assert!(r.violations.is_empty() && r.warnings.is_empty());
}

#[test]
fn layouts_round_trip_through_json() {
    let json = r#"{"cities":[{"id":"jersey_crust","districts_destroyed":1,"battle_marker":true,"battle_district":3,
        "feature_used":true,"extra_district":true,
        "moloch":[{"card":"dreadnought","strength":4,"tokens":["+1","shield"],"arrived":2,"module":{"card":"net_module","tokens":["disable"]}}],
        "outpost":[{"card":"scout","netted":true,"box":[1.0,2.0,3.0,4.0]}]}],"emp_assault":true}"#;
    let l = layout(cat(), json);
    let again = layout(cat(), &l.to_json_pretty());
    assert_eq!(l, again);
}
