//! The rulebook's worked examples that concern a battle, checked to the point.
//! References are to the Polish rulebook (`001_...txt`, page numbers as printed) and the
//! Hungarian one (`000_...txt`).

mod common;
use common::*;
use tablelens_engine::{Reason, Winner};

/// PL p.26 / HU phase VI: "Pająki o sile 1 otrzymując żeton siły -2, mają siłę 0, a gdy
/// grający Molochem doda im Moduł o sile +3, to podczas podliczania ich siła będzie
/// wynosiła 3" (not 2).
#[test]
fn spiders_with_a_minus_two_token_count_zero_and_three_with_a_plus_three_module() {
    let bare = judge(cat(), &ziggy(r#"{"card":"spiders","tokens":["-2"]}"#, ""));
    let spiders = unit(&bare.moloch, "spiders");
    assert_eq!(
        parts(spiders),
        [("printed", 1), ("token -2", -2), ("floor at 0", 1)]
    );
    assert_eq!(spiders.total, 0);
    assert_eq!(bare.moloch.total, 0);

    let moduled = judge(
        cat(),
        &ziggy(
            r#"{"card":"spiders","tokens":["-2"],"module":{"card":"destruction_module"}}"#,
            "",
        ),
    );
    let spiders = unit(&moduled.moloch, "spiders");
    assert_eq!(
        parts(spiders),
        [
            ("printed", 1),
            ("token -2", -2),
            ("floor at 0", 1),
            ("destruction_module", 3)
        ]
    );
    assert_eq!(spiders.total, 3);
    assert_eq!(moduled.moloch.total, 3);
    assert_eq!(
        (moduled.winner, moduled.reason),
        (Winner::Moloch, Reason::Strength)
    );
    assert!(moduled.violations.is_empty(), "{:?}", moduled.violations);
    assert!(moduled.warnings.is_empty(), "{:?}", moduled.warnings);
}

/// The example of PL p.29-30 / HU "Példa egy csata következményeinek végrehajtására": the
/// battle for the district that moves a unit to New York, in a city of two districts whose
/// Outpost victory costs Moloch two deck cards: Jersey Crust.
const JERSEY_EFFECTS: &str = "[cities.jersey_crust]\neffects = [\"to_new_york\", \"draw\"]\n";

fn jersey_crust(moloch: &str, outpost: &str) -> String {
    format!(
        r#"{{"cities":[
            {{"id":"ziggy_one","destroyed":true}},
            {{"id":"iron_gate","destroyed":true}},
            {{"id":"cleveland_harbour","destroyed":true}},
            {{"id":"jersey_crust","battle_marker":true,"battle_district":1,
              "moloch":[{moloch}],"outpost":[{outpost}]}}
        ]}}"#
    )
}

const MOLOCH_FIVE: &str = r#"{"card":"defender","strength":2},{"card":"hunter","strength":3}"#;
const OUTPOST_FOUR: &str =
    r#"{"card":"cpt_johnson","strength":2},{"card":"commando","strength":2}"#;

/// Moloch 5 against Outpost 4 with a Defender: (1) the Defender, (2) the city's victory
/// effect (another district destroyed), (3) the district's effect (a robot to New York);
/// then the district is marked destroyed, and as both districts are gone, Moloch moves a
/// robot on and the city is flipped.
#[test]
fn new_york_example_moloch_wins_and_the_city_falls() {
    let cat = cat_with(JERSEY_EFFECTS);
    let r = judge(&cat, &jersey_crust(MOLOCH_FIVE, OUTPOST_FOUR));
    assert_eq!(r.city.as_str(), "jersey_crust");
    assert_eq!((r.moloch.total, r.outpost.total), (5, 4));
    assert_eq!((r.winner, r.reason), (Winner::Moloch, Reason::Strength));
    assert_eq!(
        r.consequences,
        [
            "Defender: a random card from Moloch's discard pile goes on top of Moloch's deck",
            "Jersey Crust victory: Moloch destroys another district of Jersey Crust; its effect does not apply unless it is a Bomb",
            "District 1 (to_new_york): Moloch may move one unit from here to New York and it gets a +1 token (Outpost holds no slot there)",
            "Jersey Crust: district 1 is marked destroyed",
            "Jersey Crust is destroyed: every district is gone",
            "Moloch's move: Moloch must move one robot (defender, hunter) from Jersey Crust to New York, with no bonus",
            "Jersey Crust is flipped to its destroyed side and its markers are removed",
        ]
    );
    assert!(r.violations.is_empty(), "{:?}", r.violations);
}

/// The same battle had Moloch one robot less and Outpost won: (4) Cpt. Johnson, (5) the
/// city's victory effect (two deck cards), (3) the district's effect (a soldier to New
/// York); the district is marked destroyed and the next battle is in the same city.
#[test]
fn new_york_example_outpost_wins_with_cpt_johnson() {
    let cat = cat_with(JERSEY_EFFECTS);
    let r = judge(
        &cat,
        &jersey_crust(r#"{"card":"defender","strength":2}"#, OUTPOST_FOUR),
    );
    assert_eq!((r.moloch.total, r.outpost.total), (2, 4));
    assert_eq!((r.winner, r.reason), (Winner::Outpost, Reason::Strength));
    assert_eq!(
        r.consequences,
        [
            "Cpt. Johnson: discard Moloch's top deck card (deck empty: a robot here that is not immune, else a random card from Moloch's hand)",
            "Jersey Crust victory: discard Moloch's top two deck cards; if Moloch's deck is empty, Outpost discards robots of its choice from the active city instead (immunity does not protect), else random cards from Moloch's hand",
            "District 1 (to_new_york): Outpost may move one unit from here to New York and it gets a +1 token (Moloch holds no slot there)",
            "Jersey Crust: district 1 is marked destroyed",
        ]
    );
}

/// Without the Defender among the robots its trigger does not fire, and with no Cpt.
/// Johnson nothing precedes the city's effect.
#[test]
fn win_triggers_fire_only_for_the_cards_present() {
    let cat = cat_with(JERSEY_EFFECTS);
    let r = judge(
        &cat,
        &jersey_crust(
            r#"{"card":"hunter","strength":5}"#,
            r#"{"card":"commando","strength":2}"#,
        ),
    );
    assert_eq!(r.winner, Winner::Moloch);
    assert!(r.consequences[0].starts_with("Jersey Crust victory: Moloch destroys another district"));
    let r = judge(
        &cat,
        &jersey_crust(
            r#"{"card":"defender","strength":1}"#,
            r#"{"card":"commando","strength":2}"#,
        ),
    );
    assert_eq!(r.winner, Winner::Outpost);
    assert!(r.consequences[0].starts_with("Jersey Crust victory: discard Moloch's top two"));
}

/// PL p.27 "Remis" / HU "Döntetlen": equal strength, also 0:0, is a draw unless a
/// Stormtrooper takes part with its ability on; a draw has no victory effects and no
/// district effect, except a Bomb.
#[test]
fn tie_at_zero_is_a_draw() {
    let r = judge(cat(), r#"{"cities":[]}"#);
    assert_eq!((r.moloch.total, r.outpost.total), (0, 0));
    assert_eq!((r.winner, r.reason), (Winner::Draw, Reason::Tie));
    assert_eq!(
        r.consequences[0],
        "Draw: no victory effects; no district effect unless the fought district is a Bomb (then Moloch kills a soldier, then Outpost kills a robot, in Ziggy One)"
    );
}

#[test]
fn tie_without_a_stormtrooper_is_a_draw_and_with_one_moloch_wins() {
    let without = judge(
        cat(),
        &ziggy(
            r#"{"card":"hunter","strength":3}"#,
            r#"{"card":"commando","strength":3}"#,
        ),
    );
    assert_eq!((without.moloch.total, without.outpost.total), (3, 3));
    assert_eq!(
        (without.winner, without.reason),
        (Winner::Draw, Reason::Tie)
    );

    let with = judge(
        cat(),
        &ziggy(
            r#"{"card":"hunter","strength":1},{"card":"stormtrooper","strength":2}"#,
            r#"{"card":"commando","strength":3}"#,
        ),
    );
    assert_eq!((with.moloch.total, with.outpost.total), (3, 3));
    assert_eq!(
        (with.winner, with.reason),
        (Winner::Moloch, Reason::Stormtrooper)
    );
    // Moloch's victory is applied as any other: the city's effect comes first here.
    assert!(with.consequences[0]
        .starts_with("Ziggy One victory: Moloch destroys another district of Ziggy One"));

    // Also at 0:0.
    let zero = judge(cat(), &ziggy(r#"{"card":"stormtrooper","strength":0}"#, ""));
    assert_eq!(
        (zero.winner, zero.reason),
        (Winner::Moloch, Reason::Stormtrooper)
    );
}

/// "jeśli Szturmowiec nie brał udziału w bitwie (albo jego zdolność była wyłączona)": a
/// netted, disabled, or EMP-switched-off Stormtrooper does not break the tie.
#[test]
fn a_stormtrooper_without_its_ability_does_not_break_the_tie() {
    let cases = [
        // Netted by a Net Module that Nestugov took over.
        (
            r#"{"card":"hunter","strength":3},{"card":"stormtrooper","strength":2,"netted":true}"#,
            r#"{"card":"nestugov","strength":3,"module":{"card":"net_module"}}"#,
        ),
        // Disabled by the Hacker.
        (
            r#"{"card":"hunter","strength":1},{"card":"stormtrooper","strength":2,"tokens":["disable"]}"#,
            r#"{"card":"hacker","strength":3}"#,
        ),
        // Under an EMP Launcher.
        (
            r#"{"card":"hunter","strength":1},{"card":"stormtrooper","strength":2}"#,
            r#"{"card":"commando","strength":3},{"card":"emp_launcher","strength":0}"#,
        ),
        // Shielded, but it arrived after the EMP Launcher.
        (
            r#"{"card":"hunter","strength":1},{"card":"stormtrooper","strength":2,"tokens":["shield"],"arrived":5}"#,
            r#"{"card":"commando","strength":3},{"card":"emp_launcher","strength":0,"arrived":2}"#,
        ),
    ];
    for (moloch, outpost) in cases {
        let r = judge(cat(), &ziggy(moloch, outpost));
        assert_eq!((r.moloch.total, r.outpost.total), (3, 3), "{moloch}");
        assert_eq!(
            (r.winner, r.reason),
            (Winner::Draw, Reason::Tie),
            "{moloch}"
        );
        assert!(r.violations.is_empty(), "{moloch}: {:?}", r.violations);
    }
    // A shielded Stormtrooper that was there before the EMP Launcher keeps its ability.
    let r = judge(
        cat(),
        &ziggy(
            r#"{"card":"hunter","strength":1},{"card":"stormtrooper","strength":2,"tokens":["shield"],"arrived":1}"#,
            r#"{"card":"commando","strength":3},{"card":"emp_launcher","strength":0,"arrived":2}"#,
        ),
    );
    assert_eq!((r.winner, r.reason), (Winner::Moloch, Reason::Stormtrooper));
}

/// PL/HU "EMP Assault": the battle ends with no winner, the district is destroyed, only a
/// Bomb fires.
#[test]
fn emp_assault_has_no_winner_and_only_a_bomb_fires() {
    let moloch = r#"{"card":"defender","strength":5}"#;
    let outpost = r#"{"card":"cpt_johnson","strength":1}"#;
    let bomb = cat_with("[cities.ziggy_one]\neffects = [\"bomb\", \"kill\"]\n");
    let on_bomb = format!(
        r#"{{"emp_assault":true,"cities":[{{"id":"ziggy_one","battle_marker":true,"battle_district":1,"moloch":[{moloch}],"outpost":[{outpost}]}}]}}"#
    );
    let r = judge(&bomb, &on_bomb);
    assert_eq!((r.moloch.total, r.outpost.total), (5, 1));
    assert_eq!((r.winner, r.reason), (Winner::None, Reason::EmpAssault));
    assert_eq!(
        r.consequences,
        [
            "EMP Assault: no winner; only the Bomb fires",
            "District 1 (bomb): Moloch kills one soldier (not a building), then Outpost kills one robot with its module, in Ziggy One",
            "Ziggy One: district 1 is marked destroyed",
        ]
    );
    let on_kill = on_bomb.replace(r#""battle_district":1"#, r#""battle_district":2"#);
    let r = judge(&bomb, &on_kill);
    assert_eq!(r.winner, Winner::None);
    assert_eq!(
        r.consequences,
        [
            "EMP Assault: no winner and no district effect",
            "Ziggy One: district 2 is marked destroyed",
        ]
    );
}
