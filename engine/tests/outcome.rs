//! Who wins the battle, and the battle result as CONTRACT.md prints it.
//! Rulebook: PL p.26-27 / HU phase VI ("A nagyobb erővel rendelkező játékos nyeri a
//! csatát", "Döntetlen"), "EMP Assault", "Stormtrooper".

mod common;
use common::*;
use tablelens_engine::{Reason, Winner};

#[test]
fn the_higher_total_wins_either_way() {
    let m = judge(
        cat(),
        &ziggy(
            r#"{"card":"hunter","strength":4}"#,
            r#"{"card":"scout","strength":3}"#,
        ),
    );
    assert_eq!((m.winner, m.reason), (Winner::Moloch, Reason::Strength));
    let o = judge(
        cat(),
        &ziggy(
            r#"{"card":"hunter","strength":3}"#,
            r#"{"card":"scout","strength":4}"#,
        ),
    );
    assert_eq!((o.winner, o.reason), (Winner::Outpost, Reason::Strength));
}

#[test]
fn one_point_of_a_modifier_decides() {
    // 3 against 3 is a draw; Lt. Calahan's +1 to the scout turns it (scout 2+1, Calahan 0+1).
    let draw = judge(
        cat(),
        &ziggy(
            r#"{"card":"hunter","strength":3}"#,
            r#"{"card":"scout","strength":3}"#,
        ),
    );
    assert_eq!(draw.winner, Winner::Draw);
    let won = judge(
        cat(),
        &ziggy(
            r#"{"card":"hunter","strength":4}"#,
            r#"{"card":"scout","strength":2},{"card":"lt_calahan","strength":0}"#,
        ),
    );
    assert_eq!((won.moloch.total, won.outpost.total), (4, 4));
    assert_eq!(won.winner, Winner::Draw);
    let sab = judge(
        cat(),
        &ziggy(
            r#"{"card":"hunter","strength":4}"#,
            r#"{"card":"scout","strength":2},{"card":"lt_calahan","strength":0},{"card":"saboteur","strength":0}"#,
        ),
    );
    assert_eq!((sab.moloch.total, sab.outpost.total), (3, 5));
    assert_eq!(sab.winner, Winner::Outpost);
}

#[test]
fn a_stormtrooper_wins_ties_only() {
    let lost = judge(
        cat(),
        &ziggy(
            r#"{"card":"stormtrooper","strength":2}"#,
            r#"{"card":"scout","strength":3}"#,
        ),
    );
    assert_eq!(
        (lost.winner, lost.reason),
        (Winner::Outpost, Reason::Strength)
    );
    let won = judge(
        cat(),
        &ziggy(
            r#"{"card":"stormtrooper","strength":4}"#,
            r#"{"card":"scout","strength":3}"#,
        ),
    );
    assert_eq!((won.winner, won.reason), (Winner::Moloch, Reason::Strength));
}

#[test]
fn a_stormtrooper_in_another_city_does_not_break_the_tie() {
    let r = judge(
        cat(),
        r#"{"cities":[{"id":"ziggy_one","moloch":[{"card":"hunter","strength":2}],"outpost":[{"card":"scout","strength":2}]},
                      {"id":"iron_gate","moloch":[{"card":"stormtrooper","strength":2}]}]}"#,
    );
    assert_eq!((r.winner, r.reason), (Winner::Draw, Reason::Tie));
}

#[test]
fn a_stormtrooper_that_counts_zero_still_breaks_the_tie() {
    // Brought to 0 by a -2 token: it still takes part with its ability on.
    let r = judge(
        cat(),
        &ziggy(
            r#"{"card":"stormtrooper","strength":1,"tokens":["-2"]},{"card":"hunter","strength":2}"#,
            r#"{"card":"scout","strength":2}"#,
        ),
    );
    assert_eq!((r.moloch.total, r.outpost.total), (2, 2));
    assert_eq!((r.winner, r.reason), (Winner::Moloch, Reason::Stormtrooper));
}

#[test]
fn emp_assault_overrides_strength_and_the_stormtrooper() {
    for (moloch, outpost) in [("9", "1"), ("1", "9"), ("2", "2")] {
        let json = format!(
            r#"{{"emp_assault":true,"cities":[{{"id":"ziggy_one","moloch":[{{"card":"stormtrooper","strength":{moloch}}}],"outpost":[{{"card":"scout","strength":{outpost}}}]}}]}}"#
        );
        let r = judge(cat(), &json);
        assert_eq!(
            (r.winner, r.reason),
            (Winner::None, Reason::EmpAssault),
            "{json}"
        );
        // Strength is still shown.
        assert_eq!(r.moloch.total.to_string(), moloch);
        assert_eq!(
            r.consequences,
            [
                "EMP Assault: no winner; no district effect unless the fought district is a Bomb (then Moloch kills a soldier, then Outpost kills a robot, in Ziggy One)",
                "Ziggy One: the fought district is marked destroyed",
            ]
        );
    }
}

#[test]
fn the_result_serialises_as_the_contract_says() {
    let r = judge(
        cat(),
        r#"{"cities":[{"id":"iron_gate","moloch":[{"card":"hornet","tokens":["+1"],"module":{"card":"combat_module"}}],
                       "outpost":[{"card":"commando","strength":2,"tokens":["+1","+1"],"netted":true}]},
                      {"id":"ziggy_one","destroyed":true}]}"#,
    );
    let v = serde_json::to_value(&r).unwrap();
    assert_eq!(v["city"], "iron_gate");
    assert_eq!(v["winner"], "moloch");
    assert_eq!(v["reason"], "strength");
    assert_eq!(v["moloch"]["total"], 5);
    assert_eq!(
        v["moloch"]["units"][0],
        serde_json::json!({"card":"hornet","total":5,"parts":[["printed",3],["token +1",1],["combat_module",1]]})
    );
    assert_eq!(v["outpost"]["total"], 0);
    assert_eq!(
        v["outpost"]["units"][0]["parts"],
        serde_json::json!([
            ["printed", 2],
            ["token +1", 1],
            ["token +1", 1],
            ["netted: counts nothing this battle", -4]
        ])
    );
    assert!(v["consequences"].is_array());
    // The commando is netted but Moloch has no Net Module there.
    assert_eq!(
        v["violations"].as_array().unwrap().len(),
        1,
        "{}",
        v["violations"]
    );
    assert!(v["warnings"].is_array());
    assert!(v.get("game").is_none());

    for (json, winner, reason) in [
        (ziggy("", ""), "draw", "tie"),
        (
            ziggy(r#"{"card":"stormtrooper","strength":0}"#, ""),
            "moloch",
            "stormtrooper",
        ),
        (r#"{"emp_assault":true}"#.to_string(), "none", "emp_assault"),
        (
            ziggy("", r#"{"card":"scout","strength":1}"#),
            "outpost",
            "strength",
        ),
    ] {
        let v = serde_json::to_value(judge(cat(), &json)).unwrap();
        assert_eq!(
            (v["winner"].as_str(), v["reason"].as_str()),
            (Some(winner), Some(reason)),
            "{json}"
        );
    }
}
