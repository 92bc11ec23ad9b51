//! What a battle sets off, in rulebook order: (1) the winner's win-trigger units, (2) the
//! city's victory effect, (3) the fought district's effect; then the district is marked
//! destroyed, and when it was the last, Moloch's move and the city's fall.
//! Rulebook: PL p.26-30 / HU phase VI and VI(a), district effects in phase II.

mod common;
use common::*;
use tablelens_engine::{Catalogue, Winner};

/// Ziggy One with district effects entered by the user: 1 = `first`, 2 = `second`.
fn ziggy_effects(first: &str, second: &str) -> Catalogue {
    cat_with(&format!(
        "[cities.ziggy_one]\neffects = [\"{first}\", \"{second}\"]\n"
    ))
}

/// Ziggy One fought for district `n`, with `destroyed` districts already destroyed.
fn fought(n: u32, destroyed: u32, moloch: &str, outpost: &str) -> String {
    ziggy_with(
        &format!(r#""battle_marker":true,"battle_district":{n},"districts_destroyed":{destroyed}"#),
        moloch,
        outpost,
    )
}

const WIN_M: (&str, &str) = (
    r#"{"card":"hunter","strength":3}"#,
    r#"{"card":"scout","strength":1}"#,
);
const WIN_O: (&str, &str) = (
    r#"{"card":"hunter","strength":1}"#,
    r#"{"card":"scout","strength":3}"#,
);
const TIE: (&str, &str) = (
    r#"{"card":"hunter","strength":2}"#,
    r#"{"card":"scout","strength":2}"#,
);

// ---- win triggers -------------------------------------------------------------------------

#[test]
fn win_triggers_come_first_in_layout_order_then_the_city_then_the_district() {
    let cat = ziggy_effects("draw", "kill");
    let r = judge(
        &cat,
        &fought(
            1,
            0,
            r#"{"card":"hunter","strength":1}"#,
            r#"{"card":"heavy_machine_gun","strength":1},{"card":"scout","strength":1},{"card":"cpt_johnson","strength":1}"#,
        ),
    );
    assert_eq!(r.winner, Winner::Outpost);
    assert_eq!(
        r.consequences,
        [
            "Heavy Machine Gun: a +2 token on a soldier here (it may be itself)",
            "Cpt. Johnson: discard Moloch's top deck card (deck empty: a robot here that is not immune, else a random card from Moloch's hand)",
            "Ziggy One victory: discard Moloch's top deck card; if Moloch's deck is empty, Outpost discards robots of its choice from the active city instead (immunity does not protect), else random cards from Moloch's hand",
            "District 1 (draw): Outpost draws a card",
            "Ziggy One: district 1 is marked destroyed",
        ]
    );
}

#[test]
fn only_the_winners_triggers_fire() {
    let cat = ziggy_effects("draw", "kill");
    let moloch = r#"{"card":"defender","strength":3}"#;
    let outpost =
        r#"{"card":"cpt_johnson","strength":1},{"card":"heavy_machine_gun","strength":1}"#;
    let m = judge(&cat, &fought(1, 0, moloch, outpost));
    assert_eq!(m.winner, Winner::Moloch);
    assert!(m.consequences[0].starts_with("Defender:"));
    assert!(!has_line(&m.consequences, "Cpt. Johnson"));
    assert!(!has_line(&m.consequences, "Heavy Machine Gun"));

    let o = judge(
        &cat,
        &fought(1, 0, r#"{"card":"defender","strength":1}"#, outpost),
    );
    assert_eq!(o.winner, Winner::Outpost);
    assert!(!has_line(&o.consequences, "Defender"));
    assert!(o.consequences[0].starts_with("Cpt. Johnson:"));
    assert!(o.consequences[1].starts_with("Heavy Machine Gun:"));
}

#[test]
fn a_stormtrooper_win_fires_the_defender() {
    let cat = ziggy_effects("draw", "kill");
    let r = judge(
        &cat,
        &fought(
            1,
            0,
            r#"{"card":"defender","strength":1},{"card":"stormtrooper","strength":1}"#,
            r#"{"card":"scout","strength":2}"#,
        ),
    );
    assert_eq!(r.winner, Winner::Moloch);
    assert!(r.consequences[0].starts_with("Defender:"));
    assert_eq!(
        line_at(&r.consequences, "District 1 (draw): Moloch draws a card"),
        2
    );
}

#[test]
fn triggers_of_units_without_their_ability_do_not_fire() {
    let cat = ziggy_effects("draw", "kill");
    // A netted Cpt. Johnson (ability off this battle).
    let r = judge(
        &cat,
        &fought(
            1,
            0,
            r#"{"card":"hunter","strength":1,"module":{"card":"net_module"}}"#,
            r#"{"card":"cpt_johnson","strength":3,"netted":true},{"card":"scout","strength":2}"#,
        ),
    );
    assert_eq!(r.winner, Winner::Outpost);
    assert!(!has_line(&r.consequences, "Cpt. Johnson"));
    assert!(r.consequences[0].starts_with("Ziggy One victory"));
    // A disabled Defender, and a Defender under an EMP Launcher.
    for (defender, extra) in [
        (
            r#"{"card":"defender","strength":3,"tokens":["disable"]}"#,
            "",
        ),
        (
            r#"{"card":"defender","strength":3}"#,
            r#",{"card":"emp_launcher","strength":0}"#,
        ),
    ] {
        let r = judge(
            &cat,
            &fought(
                1,
                0,
                defender,
                &format!(r#"{{"card":"scout","strength":1}}{extra}"#),
            ),
        );
        assert_eq!(r.winner, Winner::Moloch);
        assert!(!has_line(&r.consequences, "Defender"), "{defender}");
        assert!(r.consequences[0].starts_with("Ziggy One victory"));
    }
    // Win triggers in another city do not fire.
    let r = judge(
        &cat,
        r#"{"cities":[{"id":"ziggy_one","battle_marker":true,"battle_district":1,"outpost":[{"card":"scout","strength":1}]},
                      {"id":"iron_gate","outpost":[{"card":"cpt_johnson","strength":1}]}]}"#,
    );
    assert_eq!(r.winner, Winner::Outpost);
    assert!(r.consequences[0].starts_with("Ziggy One victory"));
}

// ---- city victory effects -----------------------------------------------------------------

fn at_city(city: &str, fallen: &[&str], moloch: &str, outpost: &str) -> String {
    let mut cities: Vec<String> = fallen
        .iter()
        .map(|c| format!(r#"{{"id":"{c}","destroyed":true}}"#))
        .collect();
    cities.push(format!(
        r#"{{"id":"{city}","battle_marker":true,"moloch":[{moloch}],"outpost":[{outpost}]}}"#
    ));
    format!(r#"{{"cities":[{}]}}"#, cities.join(","))
}

#[test]
fn each_citys_victory_effect() {
    let fallen = [
        "ziggy_one",
        "iron_gate",
        "cleveland_harbour",
        "jersey_crust",
    ];
    let cities = [
        "ziggy_one",
        "iron_gate",
        "cleveland_harbour",
        "jersey_crust",
        "new_york",
    ];
    let outpost_effects = [
        "Ziggy One victory: discard Moloch's top deck card;",
        "Iron Gate victory: reveal Moloch's top two deck cards, Outpost discards one and the other is shuffled back;",
        "Cleveland Harbour victory: discard Moloch's top deck card;",
        "Jersey Crust victory: discard Moloch's top two deck cards;",
        "New York victory: discard Moloch's top deck card;",
    ];
    let moloch_effects = [
        "Ziggy One victory: Moloch destroys another district of Ziggy One; its effect does not apply unless it is a Bomb",
        "Iron Gate victory: Moloch destroys another district of Iron Gate; its effect does not apply unless it is a Bomb",
        "Cleveland Harbour victory: Moloch destroys another district of Cleveland Harbour and applies its effect",
        "Jersey Crust victory: Moloch destroys another district of Jersey Crust; its effect does not apply unless it is a Bomb",
        "New York victory: Moloch destroys another district of New York; its effect does not apply unless it is a Bomb",
    ];
    for i in 0..5 {
        let o = judge(cat(), &at_city(cities[i], &fallen[..i], WIN_O.0, WIN_O.1));
        assert_eq!(o.city.as_str(), cities[i]);
        assert_eq!(o.winner, Winner::Outpost);
        assert!(
            o.consequences[0].starts_with(outpost_effects[i]),
            "{:?}",
            o.consequences
        );
        let m = judge(cat(), &at_city(cities[i], &fallen[..i], WIN_M.0, WIN_M.1));
        assert_eq!(m.winner, Winner::Moloch);
        assert_eq!(m.consequences[0], moloch_effects[i]);
        // The district is not identified: the user is told to apply it.
        assert_eq!(
            m.consequences[1],
            "District effect: the battle marker's district is not identified; apply the fought district's effect for Moloch (a Bomb fires for both)"
        );
    }
}

#[test]
fn with_no_other_district_left_moloch_destroys_one_of_the_next_city() {
    let effects = ziggy_effects("draw", "kill");
    let r = judge(&effects, &fought(2, 1, WIN_M.0, WIN_M.1));
    assert_eq!(
        r.consequences[0],
        "Ziggy One victory: Moloch destroys a district of Iron Gate (none is left here); its effect does not apply unless it is a Bomb"
    );
    assert_eq!(
        r.consequences[1],
        "District 2 (kill): Moloch kills one soldier in Ziggy One (not a building)"
    );
    assert_eq!(
        r.consequences[2],
        "Ziggy One: district 2 is marked destroyed"
    );
    assert_eq!(
        r.consequences[3],
        "Ziggy One is destroyed: every district is gone"
    );

    // Cleveland Harbour applies the destroyed district's effect, in Jersey Crust.
    let r = judge(
        cat(),
        r#"{"cities":[{"id":"ziggy_one","destroyed":true},{"id":"iron_gate","destroyed":true},
            {"id":"cleveland_harbour","battle_marker":true,"districts_destroyed":1,
             "moloch":[{"card":"hunter","strength":2}]}]}"#,
    );
    assert_eq!(
        r.consequences[0],
        "Cleveland Harbour victory: Moloch destroys a district of Jersey Crust (none is left here) and applies its effect"
    );
    // In New York there is no next city.
    let r = judge(
        cat(),
        r#"{"cities":[{"id":"ziggy_one","destroyed":true},{"id":"iron_gate","destroyed":true},
            {"id":"cleveland_harbour","destroyed":true},{"id":"jersey_crust","destroyed":true},
            {"id":"new_york","battle_marker":true,"districts_destroyed":1,"moloch":[{"card":"hunter","strength":2}]}]}"#,
    );
    assert_eq!(
        r.consequences[0],
        "New York victory: Moloch destroys no district (none is left); its effect does not apply unless it is a Bomb"
    );
}

// ---- district effects ---------------------------------------------------------------------

#[test]
fn kill_district() {
    let cat = ziggy_effects("kill", "draw");
    let m = judge(&cat, &fought(1, 0, WIN_M.0, WIN_M.1));
    assert_eq!(
        m.consequences[1],
        "District 1 (kill): Moloch kills one soldier in Ziggy One (not a building)"
    );
    // Moloch kills soldiers only, never a building.
    let m = judge(
        &cat,
        &fought(1, 0, WIN_M.0, r#"{"card":"bunker","strength":1}"#),
    );
    assert_eq!(
        m.consequences[1],
        "District 1 (kill): Moloch has no soldier in Ziggy One to kill"
    );
    let o = judge(&cat, &fought(1, 0, WIN_O.0, WIN_O.1));
    assert_eq!(
        o.consequences[1],
        "District 1 (kill): Outpost kills one robot in Ziggy One with its module"
    );
    let o = judge(&cat, &fought(1, 0, "", WIN_O.1));
    assert_eq!(
        o.consequences[1],
        "District 1 (kill): Outpost has no robot in Ziggy One to kill"
    );
    // HU "Blokkoló": the Blocker is removed instead of any other robot.
    let o = judge(
        &cat,
        &fought(
            1,
            0,
            r#"{"card":"hunter","strength":1},{"card":"blocker","strength":0}"#,
            WIN_O.1,
        ),
    );
    assert_eq!(
        o.consequences[1],
        "District 1 (kill): Outpost kills one robot in Ziggy One with its module (the Blocker is removed instead)"
    );
}

#[test]
fn draw_district() {
    let cat = ziggy_effects("kill", "draw");
    let m = judge(&cat, &fought(2, 0, WIN_M.0, WIN_M.1));
    assert_eq!(m.consequences[1], "District 2 (draw): Moloch draws a card");
    let o = judge(&cat, &fought(2, 0, WIN_O.0, WIN_O.1));
    assert_eq!(o.consequences[1], "District 2 (draw): Outpost draws a card");
}

#[test]
fn bomb_district_fires_for_a_winner_a_draw_and_emp_assault() {
    let cat = ziggy_effects("bomb", "draw");
    let bomb = "District 1 (bomb): Moloch kills one soldier (not a building), then Outpost kills one robot with its module, in Ziggy One";
    let m = judge(&cat, &fought(1, 0, WIN_M.0, WIN_M.1));
    assert_eq!(m.consequences[1], bomb);
    let o = judge(&cat, &fought(1, 0, WIN_O.0, WIN_O.1));
    assert_eq!(o.consequences[1], bomb);
    let d = judge(&cat, &fought(1, 0, TIE.0, TIE.1));
    assert_eq!(d.winner, Winner::Draw);
    assert_eq!(
        d.consequences,
        [
            "Draw: no victory effects; only the Bomb fires",
            bomb,
            "Ziggy One: district 1 is marked destroyed"
        ]
    );
    // Nobody to kill on one side.
    let empty = judge(&cat, &fought(1, 0, "", r#"{"card":"bunker","strength":0}"#));
    assert_eq!(
        empty.consequences[1],
        "District 1 (bomb): Moloch has no soldier to kill, then Outpost has no robot to kill, in Ziggy One"
    );
}

#[test]
fn a_draw_has_no_victory_effect_and_no_district_effect() {
    let cat = ziggy_effects("kill", "draw");
    let r = judge(
        &cat,
        &fought(
            1,
            0,
            r#"{"card":"defender","strength":2}"#,
            r#"{"card":"cpt_johnson","strength":1},{"card":"heavy_machine_gun","strength":1}"#,
        ),
    );
    assert_eq!(r.winner, Winner::Draw);
    assert_eq!(
        r.consequences,
        [
            "Draw: no victory effects and no district effect",
            "Ziggy One: district 1 is marked destroyed"
        ]
    );
}

#[test]
fn an_unconfirmed_district_effect_is_left_to_the_user() {
    // The bundled catalogue does not know Ziggy One's district effects.
    let r = judge(cat(), &fought(1, 0, WIN_O.0, WIN_O.1));
    assert_eq!(
        r.consequences[1],
        "District effect: this city's district effects are not confirmed; apply the fought district's effect for Outpost (a Bomb fires for both)"
    );
    // The district's number is known even though its effect is not.
    assert_eq!(
        r.consequences[2],
        "Ziggy One: district 1 is marked destroyed"
    );
}

// ---- to New York --------------------------------------------------------------------------

fn to_ny(moloch: &str, outpost: &str, new_york: &str) -> String {
    let new_york = if new_york.is_empty() {
        r#""moloch":[]"#
    } else {
        new_york
    };
    format!(
        r#"{{"cities":[{{"id":"ziggy_one","battle_marker":true,"battle_district":1,"moloch":[{moloch}],"outpost":[{outpost}]}},
                      {{"id":"new_york",{new_york}}}]}}"#
    )
}

#[test]
fn to_new_york_with_and_without_the_bonus() {
    let cat = ziggy_effects("to_new_york", "draw");
    let r = judge(&cat, &to_ny(WIN_M.0, WIN_M.1, r#""outpost":[]"#));
    assert_eq!(
        r.consequences[1],
        "District 1 (to_new_york): Moloch may move one unit from here to New York and it gets a +1 token (Outpost holds no slot there)"
    );
    let r = judge(
        &cat,
        &to_ny(WIN_M.0, WIN_M.1, r#""outpost":[{"card":"bunker"}]"#),
    );
    assert_eq!(
        r.consequences[1],
        "District 1 (to_new_york): Moloch may move one unit from here to New York"
    );
    let r = judge(
        &cat,
        &to_ny(WIN_O.0, WIN_O.1, r#""moloch":[{"card":"brute"}]"#),
    );
    assert_eq!(
        r.consequences[1],
        "District 1 (to_new_york): Outpost may move one unit from here to New York"
    );
}

#[test]
fn to_new_york_needs_a_free_slot_there() {
    let cat = ziggy_effects("to_new_york", "draw");
    let full =
        r#""moloch":[{"card":"brute"},{"card":"clown"},{"card":"brain"},{"card":"gauss_cannon"}]"#;
    let r = judge(&cat, &to_ny(WIN_M.0, WIN_M.1, full));
    assert_eq!(
        r.consequences[1],
        "District 1 (to_new_york): Moloch may not move a unit to New York: no free slot there"
    );
    // Spiders there take no slot.
    let spiders =
        r#""moloch":[{"card":"brute"},{"card":"clown"},{"card":"brain"},{"card":"spiders"}]"#;
    let r = judge(&cat, &to_ny(WIN_M.0, WIN_M.1, spiders));
    assert!(r.consequences[1].starts_with("District 1 (to_new_york): Moloch may move one unit"));
}

#[test]
fn outpost_moves_soldiers_only_and_moloch_robots_not_held_by_the_field() {
    let cat = ziggy_effects("to_new_york", "draw");
    // Only a building wins for Outpost: nothing may move.
    let r = judge(
        &cat,
        &to_ny(WIN_O.0, r#"{"card":"bunker","strength":3}"#, ""),
    );
    assert_eq!(
        r.consequences[1],
        "District 1 (to_new_york): Outpost has no unit here that may move to New York"
    );
    // HU "Elektromágneses mező": it blocks robots (not immune ones) from moving to New York.
    let field = r#"{"card":"em_field","strength":0}"#;
    let r = judge(&cat, &to_ny(r#"{"card":"hunter","strength":2}"#, field, ""));
    assert_eq!(r.winner, Winner::Moloch);
    assert_eq!(
        r.consequences[1],
        "District 1 (to_new_york): Moloch has no unit here that may move to New York"
    );
    let r = judge(
        &cat,
        &to_ny(r#"{"card":"dreadnought","strength":2}"#, field, ""),
    );
    assert!(r.consequences[1].starts_with("District 1 (to_new_york): Moloch may move one unit"));
    // The Juggernaut may go to New York by a district effect.
    let r = judge(
        &cat,
        &to_ny(r#"{"card":"juggernaut","strength":2}"#, "", ""),
    );
    assert!(r.consequences[1].starts_with("District 1 (to_new_york): Moloch may move one unit"));
}

#[test]
fn to_new_york_in_new_york_moves_nothing() {
    let cat = cat_with("[cities.new_york]\neffects = [\"to_new_york\", \"draw\"]\n");
    let r = judge(
        &cat,
        r#"{"cities":[{"id":"ziggy_one","destroyed":true},{"id":"iron_gate","destroyed":true},
            {"id":"cleveland_harbour","destroyed":true},{"id":"jersey_crust","destroyed":true},
            {"id":"new_york","battle_marker":true,"battle_district":1,"moloch":[{"card":"hunter","strength":2}]}]}"#,
    );
    assert_eq!(
        r.consequences[1],
        "District 1 (to_new_york): the battle is in New York already; nothing to move"
    );
}

// ---- the city falls -----------------------------------------------------------------------

#[test]
fn the_city_falls_after_its_last_district_for_any_result() {
    let cat = ziggy_effects("kill", "draw");
    for (moloch, outpost) in [WIN_M, WIN_O, TIE] {
        let r = judge(&cat, &fought(2, 1, moloch, outpost));
        let marked = line_at(&r.consequences, "Ziggy One: district 2 is marked destroyed");
        assert_eq!(
            r.consequences[marked + 1],
            "Ziggy One is destroyed: every district is gone"
        );
        assert_eq!(
            r.consequences[marked + 2],
            "Moloch's move: Moloch must move one robot (hunter) from Ziggy One to Iron Gate, with no bonus"
        );
        assert_eq!(
            r.consequences.last().unwrap(),
            "Ziggy One is flipped to its destroyed side and its markers are removed"
        );
        assert_eq!(r.consequences.len(), marked + 4, "{:?}", r.consequences);
    }
}

#[test]
fn a_moloch_win_falls_the_city_with_its_second_district_an_outpost_win_does_not() {
    let cat = ziggy_effects("kill", "draw");
    let m = judge(&cat, &fought(1, 0, WIN_M.0, WIN_M.1));
    assert!(has_line(&m.consequences, "Ziggy One is destroyed"));
    let o = judge(&cat, &fought(1, 0, WIN_O.0, WIN_O.1));
    assert!(!has_line(&o.consequences, "Ziggy One is destroyed"));
    assert_eq!(
        o.consequences.last().unwrap(),
        "Ziggy One: district 1 is marked destroyed"
    );
    let d = judge(&cat, &fought(1, 0, TIE.0, TIE.1));
    assert!(!has_line(&d.consequences, "Ziggy One is destroyed"));
}

#[test]
fn jersey_crusts_extra_district_keeps_the_city_standing() {
    let cat = cat_with("[cities.jersey_crust]\neffects = [\"kill\", \"draw\", \"bomb\"]\n");
    let json = r#"{"cities":[{"id":"ziggy_one","destroyed":true},{"id":"iron_gate","destroyed":true},
        {"id":"cleveland_harbour","destroyed":true},
        {"id":"jersey_crust","battle_marker":true,"battle_district":3,"feature_used":true,"extra_district":true,
         "moloch":[{"card":"hunter","strength":3}]}]}"#;
    let r = judge(&cat, json);
    assert_eq!(r.winner, Winner::Moloch);
    assert_eq!(r.consequences[0], "Jersey Crust victory: Moloch destroys another district of Jersey Crust; its effect does not apply unless it is a Bomb");
    assert!(r.consequences[1].starts_with("District 3 (bomb)"));
    assert!(!has_line(&r.consequences, "Jersey Crust is destroyed"));
    let last = json.replace(
        r#""battle_district":3,"#,
        r#""battle_district":3,"districts_destroyed":1,"#,
    );
    let r = judge(&cat, &last);
    assert!(has_line(&r.consequences, "Jersey Crust is destroyed"));
}

#[test]
fn moloch_move_exceptions_juggernaut_field_and_a_full_next_city() {
    let cat = ziggy_effects("kill", "draw");
    let r = judge(
        &cat,
        &fought(2, 1, r#"{"card":"juggernaut","strength":3}"#, ""),
    );
    assert!(has_line(
        &r.consequences,
        "Moloch's move: no robot in Ziggy One can move on (none, or only the Juggernaut or robots held by the Electromagnetic Field)"
    ));
    let r = judge(
        &cat,
        &fought(
            2,
            1,
            r#"{"card":"hunter","strength":3}"#,
            r#"{"card":"em_field","strength":0}"#,
        ),
    );
    assert!(has_line(
        &r.consequences,
        "Moloch's move: no robot in Ziggy One can move on"
    ));
    let r = judge(
        &cat,
        &fought(
            2,
            1,
            r#"{"card":"juggernaut","strength":3},{"card":"dreadnought","strength":1},{"card":"hunter","strength":1}"#,
            r#"{"card":"em_field","strength":0}"#,
        ),
    );
    assert!(has_line(
        &r.consequences,
        "Moloch's move: Moloch must move one robot (dreadnought) from Ziggy One to Iron Gate, with no bonus"
    ));
    // Iron Gate full for Moloch: the robot moved there is discarded.
    let json = r#"{"cities":[{"id":"ziggy_one","battle_marker":true,"battle_district":2,"districts_destroyed":1,
        "moloch":[{"card":"hunter","strength":3}]},
        {"id":"iron_gate","moloch":[{"card":"brute"},{"card":"clown"},{"card":"brain"},{"card":"ripper"}]}]}"#;
    let r = judge(&cat, json);
    assert!(has_line(
        &r.consequences,
        "Moloch's move: Moloch must move one robot (hunter) from Ziggy One to Iron Gate, with no bonus; Iron Gate has no free Moloch slot, so that robot is discarded with its module"
    ));
    // Nobody to move.
    let r = judge(&cat, &fought(2, 1, "", r#"{"card":"scout","strength":1}"#));
    assert!(has_line(
        &r.consequences,
        "Moloch's move: no robot in Ziggy One can move on"
    ));
}

#[test]
fn new_york_falling_ends_the_game() {
    let r = judge(
        cat(),
        r#"{"cities":[{"id":"ziggy_one","destroyed":true},{"id":"iron_gate","destroyed":true},
            {"id":"cleveland_harbour","destroyed":true},{"id":"jersey_crust","destroyed":true},
            {"id":"new_york","battle_marker":true,"districts_destroyed":1,"outpost":[{"card":"scout","strength":1}]}]}"#,
    );
    assert_eq!(r.winner, Winner::Outpost);
    assert_eq!(
        &r.consequences[r.consequences.len() - 3..],
        [
            "New York is destroyed: every district is gone",
            "New York has fallen: the game ends. Moloch wins with a card left in its deck or a robot in New York, else Outpost wins",
            "New York is flipped to its destroyed side and its markers are removed",
        ]
    );
}

/// PL "Pająki": when the city is destroyed their ability goes off, and those that no longer
/// fit are discarded; Moloch's mandatory move comes first (PL/HU phase VI(a)).
#[test]
fn spiders_in_a_falling_city_are_discarded_only_if_still_over_the_slots() {
    let cat = ziggy_effects("kill", "draw");
    // Three robots and Spiders, one robot must move on: three are left on three slots.
    let fits = judge(
        &cat,
        &fought(
            2,
            1,
            r#"{"card":"hunter","strength":3},{"card":"brute"},{"card":"clown"},{"card":"spiders"}"#,
            "",
        ),
    );
    assert!(has_line(
        &fits.consequences,
        "Moloch's move: Moloch must move one robot"
    ));
    assert!(
        !has_line(&fits.consequences, "Spiders in Ziggy One"),
        "{:#?}",
        fits.consequences
    );
    // The Juggernaut and Spiders alone: one of the Spiders must move on, three stay.
    let one_moves = judge(
        &cat,
        &fought(
            2,
            1,
            r#"{"card":"juggernaut","strength":3},{"card":"spiders"},{"card":"spiders"},{"card":"spiders"}"#,
            "",
        ),
    );
    assert!(has_line(
        &one_moves.consequences,
        "Moloch's move: Moloch must move one robot (spiders, spiders, spiders) from Ziggy One to Iron Gate"
    ));
    assert!(!has_line(&one_moves.consequences, "Spiders in Ziggy One"));
    // Held by the Electromagnetic Field, none can move: four on three slots.
    let over = judge(
        &cat,
        &fought(
            2,
            1,
            r#"{"card":"juggernaut","strength":3},{"card":"hunter"},{"card":"spiders"},{"card":"spiders"}"#,
            r#"{"card":"em_field","strength":0}"#,
        ),
    );
    assert!(has_line(
        &over.consequences,
        "Moloch's move: no robot in Ziggy One can move on"
    ));
    assert!(has_line(
        &over.consequences,
        "Spiders in Ziggy One lose their ability: those over Moloch's slots are discarded"
    ));
}
