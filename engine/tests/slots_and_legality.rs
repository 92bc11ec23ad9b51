//! Slots (battle positions) with every modifier, and what else `check` calls illegal.
//! Rulebook: PL/HU phase III-IV ("harcállás" / "stanowisko bojowe"), the cards Spiders,
//! Annihilator, Contamination Module, Nestugov, EMP Launcher, Hacker, and the Cleveland
//! Harbour feature.

mod common;
use common::*;

const THREE_ROBOTS: &str = r#"{"card":"hunter"},{"card":"brute"},{"card":"clown"}"#;
const FOUR_OUTPOST: &str =
    r#"{"card":"scout"},{"card":"trooper"},{"card":"commando"},{"card":"bunker"}"#;

#[test]
fn ziggy_one_has_three_moloch_and_four_outpost_slots() {
    let full = findings(cat(), &ziggy(THREE_ROBOTS, FOUR_OUTPOST));
    assert!(full.violations.is_empty(), "{:?}", full.violations);
    let over = findings(
        cat(),
        &ziggy(
            &format!(r#"{THREE_ROBOTS},{{"card":"ripper"}}"#),
            &format!(r#"{FOUR_OUTPOST},{{"card":"hacker"}}"#),
        ),
    );
    assert_eq!(
        over.violations,
        [
            "Moloch has 4 units taking slots in Ziggy One, but only 3 slots (3 printed)",
            "Outpost has 5 units taking slots in Ziggy One, but only 4 slots (4 printed)",
        ]
    );
}

#[test]
fn battle_reports_the_same_violations_as_check() {
    let json = ziggy(
        &format!(r#"{THREE_ROBOTS},{{"card":"ripper"}}"#),
        FOUR_OUTPOST,
    );
    let r = judge(cat(), &json);
    assert_eq!(r.violations, findings(cat(), &json).violations);
    assert_eq!(r.violations.len(), 1);
}

#[test]
fn modules_take_no_slot() {
    let f = findings(
        cat(),
        &ziggy(
            r#"{"card":"hunter","module":{"card":"combat_module"}},{"card":"brute","module":{"card":"destruction_module"}},{"card":"clown","module":{"card":"kasparov_module"}}"#,
            "",
        ),
    );
    assert!(f.violations.is_empty(), "{:?}", f.violations);
}

// ---- Spiders ------------------------------------------------------------------------------

#[test]
fn working_spiders_take_no_slot() {
    let f = findings(
        cat(),
        &ziggy(
            &format!(r#"{THREE_ROBOTS},{{"card":"spiders"}},{{"card":"spiders"}}"#),
            "",
        ),
    );
    assert!(f.violations.is_empty(), "{:?}", f.violations);
}

#[test]
fn spiders_switched_off_take_a_slot() {
    let over = "Moloch has 4 units taking slots in Ziggy One, but only 3 slots (3 printed)";
    // The Hacker's disable token.
    let f = findings(
        cat(),
        &ziggy(
            &format!(r#"{THREE_ROBOTS},{{"card":"spiders","tokens":["disable"]}}"#),
            "",
        ),
    );
    assert_eq!(f.violations, [over]);
    // An EMP Launcher in the city.
    let f = findings(
        cat(),
        &ziggy(
            &format!(r#"{THREE_ROBOTS},{{"card":"spiders"}}"#),
            r#"{"card":"emp_launcher"}"#,
        ),
    );
    assert_eq!(f.violations, [over]);
    // Shielded Spiders that were there before the EMP Launcher keep their ability...
    let f = findings(
        cat(),
        &ziggy(
            &format!(r#"{THREE_ROBOTS},{{"card":"spiders","tokens":["shield"],"arrived":1}}"#),
            r#"{"card":"emp_launcher","arrived":2}"#,
        ),
    );
    assert!(f.violations.is_empty(), "{:?}", f.violations);
    // ... and those that came after do not.
    let f = findings(
        cat(),
        &ziggy(
            &format!(r#"{THREE_ROBOTS},{{"card":"spiders","tokens":["shield"],"arrived":3}}"#),
            r#"{"card":"emp_launcher","arrived":2}"#,
        ),
    );
    assert_eq!(f.violations, [over]);
    // A netted Spider still takes no slot: the net ends with the battle.
    let f = findings(
        cat(),
        &ziggy(
            &format!(r#"{THREE_ROBOTS},{{"card":"spiders","netted":true}}"#),
            r#"{"card":"nestugov","module":{"card":"net_module"}}"#,
        ),
    );
    assert!(f.violations.is_empty(), "{:?}", f.violations);
}

#[test]
fn spiders_in_a_destroyed_city_take_a_slot() {
    let f = findings(
        cat(),
        &format!(
            r#"{{"cities":[{{"id":"ziggy_one","destroyed":true,"moloch":[{THREE_ROBOTS},{{"card":"spiders"}}]}}]}}"#
        ),
    );
    assert_eq!(
        f.violations,
        ["Moloch has 4 units taking slots in Ziggy One, but only 3 slots (3 printed)"]
    );
}

#[test]
fn a_hacker_disable_on_spiders_puts_them_into_slots_in_the_battle_too() {
    // The strength is unchanged: the ability is about slots only.
    let r = judge(
        cat(),
        &ziggy(r#"{"card":"spiders","tokens":["disable"]}"#, ""),
    );
    assert_eq!(r.moloch.total, 1);
}

// ---- Outpost slot modifiers ---------------------------------------------------------------

#[test]
fn the_annihilator_takes_an_outpost_slot() {
    let f = findings(cat(), &ziggy(r#"{"card":"annihilator"}"#, FOUR_OUTPOST));
    assert_eq!(
        f.violations,
        ["Outpost has 4 units taking slots in Ziggy One, but only 3 slots (4 printed, -1 Annihilator)"]
    );
    let three = r#"{"card":"scout"},{"card":"trooper"},{"card":"bunker"}"#;
    assert!(findings(cat(), &ziggy(r#"{"card":"annihilator"}"#, three))
        .violations
        .is_empty());
}

#[test]
fn a_switched_off_annihilator_takes_no_outpost_slot() {
    for (annihilator, extra) in [
        (r#"{"card":"annihilator","tokens":["disable"]}"#, ""),
        (r#"{"card":"annihilator"}"#, r#"{"card":"emp_launcher"},"#),
    ] {
        let outpost =
            format!(r#"{extra}{{"card":"scout"}},{{"card":"trooper"}},{{"card":"commando"}}"#);
        let outpost = if extra.is_empty() {
            format!(r#"{outpost},{{"card":"hacker"}}"#)
        } else {
            outpost
        };
        let f = findings(cat(), &ziggy(annihilator, &outpost));
        assert!(f.violations.is_empty(), "{annihilator}: {:?}", f.violations);
    }
}

#[test]
fn an_annihilator_in_a_destroyed_city_takes_no_slot() {
    let f = findings(
        cat(),
        &format!(
            r#"{{"cities":[{{"id":"ziggy_one","destroyed":true,"moloch":[{{"card":"annihilator"}}],"outpost":[{FOUR_OUTPOST}]}}]}}"#
        ),
    );
    assert!(f.violations.is_empty(), "{:?}", f.violations);
}

#[test]
fn contamination_module_takes_an_outpost_slot_unless_switched_off() {
    let f = findings(
        cat(),
        &ziggy(
            r#"{"card":"hunter","module":{"card":"contamination_module"}}"#,
            FOUR_OUTPOST,
        ),
    );
    assert_eq!(
        f.violations,
        ["Outpost has 4 units taking slots in Ziggy One, but only 3 slots (4 printed, -1 Contamination Module)"]
    );
    let both = findings(
        cat(),
        &ziggy(
            r#"{"card":"annihilator","module":{"card":"contamination_module"}}"#,
            r#"{"card":"scout"},{"card":"trooper"},{"card":"bunker"}"#,
        ),
    );
    assert_eq!(
        both.violations,
        ["Outpost has 3 units taking slots in Ziggy One, but only 2 slots (4 printed, -1 Annihilator, -1 Contamination Module)"]
    );
    // A disable token on the module, or an EMP Launcher, switches it off.
    let off = findings(
        cat(),
        &ziggy(
            r#"{"card":"hunter","module":{"card":"contamination_module","tokens":["disable"]}}"#,
            FOUR_OUTPOST,
        ),
    );
    assert!(off.violations.is_empty(), "{:?}", off.violations);
    let emp = findings(
        cat(),
        &ziggy(
            r#"{"card":"hunter","module":{"card":"contamination_module"}}"#,
            r#"{"card":"scout"},{"card":"trooper"},{"card":"commando"},{"card":"emp_launcher"}"#,
        ),
    );
    assert!(emp.violations.is_empty(), "{:?}", emp.violations);
    // A shielded robot that was there before the EMP Launcher keeps its module working.
    let kept = findings(
        cat(),
        &ziggy(
            r#"{"card":"hunter","tokens":["shield"],"arrived":1,"module":{"card":"contamination_module"}}"#,
            r#"{"card":"scout"},{"card":"trooper"},{"card":"commando"},{"card":"emp_launcher","arrived":2}"#,
        ),
    );
    assert_eq!(kept.violations.len(), 1, "{:?}", kept.violations);
}

#[test]
fn contamination_taken_over_by_outpost_takes_a_moloch_slot_even_under_an_emp_launcher() {
    let f = findings(
        cat(),
        &ziggy(
            THREE_ROBOTS,
            r#"{"card":"nestugov","module":{"card":"contamination_module"}}"#,
        ),
    );
    assert_eq!(
        f.violations,
        ["Moloch has 3 units taking slots in Ziggy One, but only 2 slots (3 printed, -1 Contamination Module taken over by Outpost)"]
    );
    let emp = findings(
        cat(),
        &ziggy(
            THREE_ROBOTS,
            r#"{"card":"nestugov","module":{"card":"contamination_module"}},{"card":"emp_launcher"}"#,
        ),
    );
    assert_eq!(emp.violations.len(), 1, "{:?}", emp.violations);
    // It does not cost Outpost a slot.
    let own = findings(
        cat(),
        &ziggy(
            "",
            r#"{"card":"nestugov","module":{"card":"contamination_module"}},{"card":"scout"},{"card":"trooper"},{"card":"bunker"}"#,
        ),
    );
    assert!(own.violations.is_empty(), "{:?}", own.violations);
}

#[test]
fn cleveland_harbours_feature_adds_an_outpost_slot_until_the_city_falls() {
    let five =
        r#"{"card":"scout"},{"card":"trooper"},{"card":"bunker"},{"card":"hacker"},{"card":"kid"}"#;
    let table = |fields: &str| {
        format!(
            r#"{{"cities":[{{"id":"ziggy_one","destroyed":true}},{{"id":"iron_gate","destroyed":true}},
                {{"id":"cleveland_harbour"{fields},"outpost":[{five}]}}]}}"#
        )
    };
    let without = findings(cat(), &table(""));
    assert_eq!(
        without.violations,
        ["Outpost has 5 units taking slots in Cleveland Harbour, but only 4 slots (4 printed)"]
    );
    let with = findings(cat(), &table(r#","feature_used":true"#));
    assert!(with.violations.is_empty(), "{:?}", with.violations);
    // Cleveland Harbour's slot counts are not printed in the rulebook: the user is warned.
    assert!(with.warnings.contains(
        &"Cleveland Harbour: Outpost slots (4) are unconfirmed; check the city card".to_string()
    ));
    // Once the city is destroyed the extra slot is gone.
    let fallen = findings(
        cat(),
        &format!(
            r#"{{"cities":[{{"id":"ziggy_one","destroyed":true}},{{"id":"iron_gate","destroyed":true}},
                {{"id":"cleveland_harbour","destroyed":true,"feature_used":true,"outpost":[{five}]}}]}}"#
        ),
    );
    assert_eq!(
        fallen.violations,
        ["Outpost has 5 units taking slots in Cleveland Harbour, but only 4 slots (4 printed)"]
    );
}

#[test]
fn the_users_catalogue_sets_slots() {
    let c = cat_with("[cities.iron_gate]\nmoloch_slots = 2\n");
    let json = r#"{"cities":[{"id":"iron_gate","moloch":[{"card":"hunter"},{"card":"brute"},{"card":"clown"}]}]}"#;
    assert!(findings(cat(), json).violations.is_empty());
    let f = findings(&c, json);
    assert_eq!(
        f.violations,
        ["Moloch has 3 units taking slots in Iron Gate, but only 2 slots (2 printed)"]
    );
    // Confirmed by the user: no more warning on Moloch's slots there.
    assert!(
        !f.warnings
            .iter()
            .any(|w| w.starts_with("Iron Gate: Moloch slots")),
        "{:?}",
        f.warnings
    );
    assert!(findings(cat(), json)
        .warnings
        .contains(&"Iron Gate: Moloch slots (4) are unconfirmed; check the city card".to_string()));
}

// ---- other violations ---------------------------------------------------------------------

#[test]
fn tokens_where_they_cannot_lie() {
    let f = findings(
        cat(),
        &ziggy(
            r#"{"card":"hunter","module":{"card":"combat_module","tokens":["disable","+1"]}}"#,
            r#"{"card":"bunker","tokens":["+2"]},{"card":"scout","tokens":["-2","shield","disable"]}"#,
        ),
    );
    assert_eq!(
        f.violations,
        [
            "module combat_module under hunter in Ziggy One carries a disable token: power modules have no ability to switch off",
            "module combat_module under hunter in Ziggy One carries a +1 token: only a disable token goes on a module",
            "bunker in Ziggy One carries a +2 token: buildings take no strength tokens",
            "scout in Ziggy One carries a -2 token: McPherson's -2 goes on robots only",
            "scout in Ziggy One carries a shield token: the Brute's shield goes on robots only",
            "scout in Ziggy One carries a disable token: the Hacker's disable token goes on robots and special modules only",
        ]
    );
}

#[test]
fn a_disabled_dreadnought_is_illegal_unless_an_emp_launcher_took_its_immunity() {
    let f = findings(
        cat(),
        &ziggy(r#"{"card":"dreadnought","tokens":["disable"]}"#, ""),
    );
    assert_eq!(
        f.violations,
        ["dreadnought in Ziggy One carries a disable token, but the Dreadnought is immune to the Hacker"]
    );
    let f = findings(
        cat(),
        &ziggy(
            r#"{"card":"dreadnought","tokens":["disable"]}"#,
            r#"{"card":"emp_launcher"}"#,
        ),
    );
    assert!(f.violations.is_empty(), "{:?}", f.violations);
}

#[test]
fn nets_and_modules_on_buildings() {
    let f = findings(
        cat(),
        &ziggy(
            r#"{"card":"hunter","module":{"card":"net_module"}}"#,
            r#"{"card":"emp_launcher","netted":true,"module":{"card":"combat_module"}}"#,
        ),
    );
    assert_eq!(
        f.violations,
        [
            "emp_launcher in Ziggy One carries the module combat_module: a module goes on a robot (or, taken over, on a soldier)",
            "emp_launcher in Ziggy One is netted: a Net catches units, not buildings",
        ]
    );
    // A disabled Net Module nets nobody.
    let f = findings(
        cat(),
        &ziggy(
            r#"{"card":"hunter","module":{"card":"net_module","tokens":["disable"]}}"#,
            r#"{"card":"scout","netted":true}"#,
        ),
    );
    assert_eq!(
        f.violations,
        ["scout in Ziggy One is netted, but Moloch has no working Net Module there"]
    );
}

#[test]
fn too_many_copies() {
    let f = findings(
        cat(),
        r#"{"cities":[{"id":"ziggy_one","moloch":[{"card":"hunter"},{"card":"hunter"}]},
                      {"id":"iron_gate","moloch":[{"card":"hunter"},{"card":"hunter"}]}]}"#,
    );
    assert_eq!(
        f.violations,
        ["4 copies of hunter on the table; the deck has 3"]
    );
}

#[test]
fn city_markers_and_fall_order() {
    let f = findings(
        cat(),
        r#"{"cities":[{"id":"ziggy_one","battle_marker":true,"battle_district":3},
                      {"id":"iron_gate","destroyed":true,"districts_destroyed":1},
                      {"id":"cleveland_harbour","battle_marker":true,"feature_used":true}]}"#,
    );
    assert_eq!(
        f.violations,
        [
            "the battle marker is on district 3 of Ziggy One, which has 2",
            "Iron Gate is destroyed but a city before it stands: cities fall in order",
            "Iron Gate is destroyed: its markers are removed when it is flipped",
            "the battle marker lies on Cleveland Harbour, which is not the active city",
            "the used-feature token lies on Cleveland Harbour; a feature is used only while the battle is there",
            "2 battle markers on the table; there is one",
        ]
    );
}

#[test]
fn the_contract_example_is_read_and_judged() {
    let json = r#"{
      "cities": [
        {
          "id": "iron_gate", "destroyed": false, "districts_destroyed": 1, "battle_marker": true,
          "feature_used": false, "extra_district": false,
          "moloch": [
            { "card": "hornet", "tokens": ["+1"], "module": { "card": "combat_module" }, "arrived": 3 },
            { "card": "spiders", "strength": 1, "tokens": ["-2"] }
          ],
          "outpost": [
            { "card": "commando", "tokens": ["+1", "+1"], "netted": true },
            { "card": "nestugov", "module": { "card": "annihilation_module" } },
            { "card": "bunker" }
          ]
        }
      ],
      "emp_assault": false
    }"#;
    // As written, Ziggy One (left out) is intact: it is the active city, and empty.
    let r = judge(cat(), json);
    assert_eq!(r.city.as_str(), "ziggy_one");
    assert_eq!((r.moloch.total, r.outpost.total), (0, 0));
    assert!(r.violations.contains(
        &"the battle marker lies on Iron Gate, which is not the active city".to_string()
    ));
    // With Ziggy One fallen, the battle is in Iron Gate.
    let fallen = json.replace(
        r#""cities": ["#,
        r#""cities": [{"id":"ziggy_one","destroyed":true},"#,
    );
    let r = judge(cat(), &fallen);
    assert_eq!(r.city.as_str(), "iron_gate");
    assert_eq!(totals(&r.moloch), [5, 0]);
    // Commando netted: 0; Nestugov 0 (unknown) + Bunker 1 + module 2; Bunker 0 (unknown).
    assert_eq!(totals(&r.outpost), [0, 3, 0]);
    assert_eq!(r.winner, tablelens_engine::Winner::Moloch);
    assert!(r.violations.contains(
        &"commando in Iron Gate is netted, but Moloch has no working Net Module there".to_string()
    ));
}

/// PL/HU: "Umiejętności kart w zniszczonym mieście nie działają" / "A lerombolt városokban
/// lévő kártyák képességei nem aktiválhatóak többé".
#[test]
fn nothing_works_in_a_destroyed_city() {
    use tablelens_engine::context::CityContext;
    use tablelens_engine::{CityId, Side};
    let json = r#"{"cities":[{"id":"ziggy_one","destroyed":true,
        "moloch":[{"card":"annihilator"},{"card":"dreadnought"},{"card":"hunter","module":{"card":"contamination_module"}},{"card":"spiders"}],
        "outpost":[{"card":"lt_calahan"},{"card":"saboteur"},{"card":"emp_launcher"},{"card":"nestugov","module":{"card":"contamination_module"}}]}]}"#;
    let l = layout(cat(), json);
    let city = l.city(CityId::ZiggyOne).unwrap();
    let ctx = CityContext::new(cat(), city);
    assert!(!ctx.standing());
    assert!(!ctx.emp_present());
    for side in [Side::Moloch, Side::Outpost] {
        for u in ctx.side(side) {
            assert!(!ctx.ability_works(u), "{}", u.card.id);
            assert!(!ctx.module_ability_works(u), "{}", u.card.id);
        }
    }
    assert_eq!(ctx.working(Side::Outpost, "lt_calahan"), 0);
    assert_eq!(ctx.working(Side::Moloch, "annihilator"), 0);
    // Printed slots only, and the Spiders take one.
    assert_eq!(ctx.slots(Side::Moloch), (3, vec!["3 printed".to_string()]));
    assert_eq!(ctx.slots(Side::Outpost), (4, vec!["4 printed".to_string()]));
    assert_eq!(ctx.slots_taken(Side::Moloch), 4);
    // The same city standing: everything is on.
    let standing = json.replace(r#""destroyed":true,"#, "");
    let l = layout(cat(), &standing);
    let ctx = CityContext::new(cat(), l.city(CityId::ZiggyOne).unwrap());
    assert!(ctx.emp_present());
    assert_eq!(ctx.working(Side::Outpost, "lt_calahan"), 1);
    assert_eq!(ctx.slots(Side::Moloch).0, 2);
    // The Annihilator and the Contamination Module are under the EMP Launcher: off.
    assert_eq!(ctx.slots(Side::Outpost).0, 4);
    assert_eq!(ctx.slots_taken(Side::Moloch), 4);
}

#[test]
fn immune_robots_cannot_carry_mcphersons_token_or_be_netted() {
    let cat = tablelens_engine::Catalogue::bundled();
    let check = |json: &str| {
        tablelens_engine::check(
            &cat,
            &tablelens_engine::Layout::from_json(json, &cat).unwrap(),
        )
        .violations
    };
    let minus = check(
        r#"{"cities":[{"id":"ziggy_one","moloch":[{"card":"dreadnought","tokens":["-2"]}]}]}"#,
    );
    assert_eq!(minus.len(), 1, "{minus:?}");
    assert!(minus[0].contains("McPherson"));
    // Under an EMP Launcher that came first the Dreadnought is not immune: legal.
    let emp = check(
        r#"{"cities":[{"id":"ziggy_one","moloch":[{"card":"dreadnought","tokens":["-2"],"arrived":2}],"outpost":[{"card":"emp_launcher","arrived":1}]}]}"#,
    );
    assert!(emp.is_empty(), "{emp:?}");
    let net = check(
        r#"{"cities":[{"id":"ziggy_one","moloch":[{"card":"hunter","tokens":["shield"],"netted":true}],"outpost":[{"card":"nestugov","module":{"card":"net_module"}}]}]}"#,
    );
    assert_eq!(net.len(), 1, "{net:?}");
    assert!(net[0].contains("immune"));
    let plain = check(
        r#"{"cities":[{"id":"ziggy_one","moloch":[{"card":"hunter","netted":true}],"outpost":[{"card":"nestugov","module":{"card":"net_module"}}]}]}"#,
    );
    assert!(plain.is_empty(), "{plain:?}");
}
