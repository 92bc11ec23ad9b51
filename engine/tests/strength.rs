//! Strength of each unit, point by point: every ability that changes strength.
//! Rulebook: PL p.26 "Rozstrzygnięcie bitwy" / HU phase VI, and the card descriptions.

mod common;
use common::*;
use tablelens_engine::{Catalogue, Winner};

// ---- printed strength -------------------------------------------------------------------

#[test]
fn the_layout_strength_overrides_the_catalogue() {
    // Spiders are printed 1 in the catalogue; the card read off the table says 2.
    let r = judge(cat(), &ziggy(r#"{"card":"spiders","strength":2}"#, ""));
    assert_eq!(parts(unit(&r.moloch, "spiders")), [("printed", 2)]);
    assert_eq!(r.moloch.total, 2);
    // Hornet is 3 in the catalogue.
    let r = judge(cat(), &ziggy(r#"{"card":"hornet"}"#, ""));
    assert_eq!(parts(unit(&r.moloch, "hornet")), [("printed", 3)]);
    let r = judge(cat(), &ziggy(r#"{"card":"hornet","strength":1}"#, ""));
    assert_eq!(parts(unit(&r.moloch, "hornet")), [("printed", 1)]);
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
}

#[test]
fn an_unknown_printed_strength_counts_zero_with_a_warning() {
    let r = judge(
        cat(),
        &ziggy(
            r#"{"card":"hunter","tokens":["+1"]}"#,
            r#"{"card":"scout"}"#,
        ),
    );
    assert_eq!(
        parts(unit(&r.moloch, "hunter")),
        [("printed", 0), ("token +1", 1)]
    );
    assert_eq!(parts(unit(&r.outpost, "scout")), [("printed", 0)]);
    assert_eq!((r.moloch.total, r.outpost.total), (1, 0));
    assert_eq!(
        r.warnings,
        [
            "hunter: printed strength is unknown, counted as 0 (read it off the card: set `strength` in the layout or in the catalogue)",
            "scout: printed strength is unknown, counted as 0 (read it off the card: set `strength` in the layout or in the catalogue)",
        ]
    );
    // Two unknown hunters give one warning.
    let r = judge(cat(), &ziggy(r#"{"card":"hunter"},{"card":"hunter"}"#, ""));
    assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
    // Read off the card, there is nothing to warn about.
    let r = judge(
        cat(),
        &ziggy(
            r#"{"card":"hunter","strength":4}"#,
            r#"{"card":"scout","strength":1}"#,
        ),
    );
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
}

#[test]
fn a_provisional_catalogue_value_is_used_with_a_warning() {
    let base = Catalogue::bundled();
    let mut cards = base.cards().to_vec();
    let hunter = cards.iter_mut().find(|c| c.id == "hunter").unwrap();
    hunter.strength = Some(2);
    hunter.confirmed = false;
    let provisional = Catalogue::new(cards, base.cities().to_vec()).unwrap();
    let r = judge(&provisional, &ziggy(r#"{"card":"hunter"}"#, ""));
    assert_eq!(parts(unit(&r.moloch, "hunter")), [("printed", 2)]);
    assert_eq!(
        r.warnings,
        ["hunter: printed strength 2 is unconfirmed (check the card and confirm it)"]
    );
}

#[test]
fn the_users_catalogue_override_changes_the_battle() {
    let json = ziggy(
        r#"{"card":"hunter"}"#,
        r#"{"card":"scout"},{"card":"trooper"}"#,
    );
    let before = judge(cat(), &json);
    assert_eq!((before.moloch.total, before.outpost.total), (0, 0));
    assert_eq!(before.winner, Winner::Draw);
    assert_eq!(before.warnings.len(), 3);

    let fixed = cat_with("[cards.hunter]\nstrength = 4\n[cards.scout]\nstrength = 1\n[cards.trooper]\nstrength = 2\n");
    let after = judge(&fixed, &json);
    assert_eq!(totals(&after.moloch), [4]);
    assert_eq!(totals(&after.outpost), [1, 2]);
    assert_eq!(after.winner, Winner::Moloch);
    assert!(after.warnings.is_empty(), "{:?}", after.warnings);

    let turned = cat_with("[cards.hunter]\nstrength = 2\n[cards.scout]\nstrength = 1\n[cards.trooper]\nstrength = 2\n");
    assert_eq!(judge(&turned, &json).winner, Winner::Outpost);

    // The layout's reading still beats the catalogue.
    let r = judge(&fixed, &ziggy(r#"{"card":"hunter","strength":6}"#, ""));
    assert_eq!(parts(unit(&r.moloch, "hunter")), [("printed", 6)]);
}

// ---- tokens, the robot's floor, modules ---------------------------------------------------

#[test]
fn strength_tokens_add_to_robots_and_soldiers() {
    let r = judge(
        cat(),
        &ziggy(
            r#"{"card":"hunter","strength":2,"tokens":["+1","+2","+1"]}"#,
            r#"{"card":"commando","strength":1,"tokens":["+2","+1"]}"#,
        ),
    );
    assert_eq!(
        parts(unit(&r.moloch, "hunter")),
        [
            ("printed", 2),
            ("token +1", 1),
            ("token +2", 2),
            ("token +1", 1)
        ]
    );
    assert_eq!(
        parts(unit(&r.outpost, "commando")),
        [("printed", 1), ("token +2", 2), ("token +1", 1)]
    );
    assert_eq!((r.moloch.total, r.outpost.total), (6, 4));
    assert_eq!(r.winner, Winner::Moloch);
}

#[test]
fn ability_tokens_add_no_strength() {
    let r = judge(
        cat(),
        &ziggy(
            r#"{"card":"hunter","strength":2,"tokens":["shield","disable"]}"#,
            "",
        ),
    );
    assert_eq!(parts(unit(&r.moloch, "hunter")), [("printed", 2)]);
}

#[test]
fn a_robot_is_clamped_at_zero_before_its_module() {
    // 2 - 2 - 2 = -2, floored to 0, then +1.
    let r = judge(
        cat(),
        &ziggy(
            r#"{"card":"hunter","strength":2,"tokens":["-2","-2"],"module":{"card":"combat_module"}}"#,
            "",
        ),
    );
    assert_eq!(
        parts(unit(&r.moloch, "hunter")),
        [
            ("printed", 2),
            ("token -2", -2),
            ("token -2", -2),
            ("floor at 0", 2),
            ("combat_module", 1)
        ]
    );
    assert_eq!(r.moloch.total, 1);
    // A +2 token offsets a -2 before the floor is looked at: no floor part.
    let r = judge(
        cat(),
        &ziggy(r#"{"card":"hunter","strength":1,"tokens":["-2","+2"]}"#, ""),
    );
    assert_eq!(
        parts(unit(&r.moloch, "hunter")),
        [("printed", 1), ("token -2", -2), ("token +2", 2)]
    );
    assert_eq!(r.moloch.total, 1);
}

#[test]
fn power_modules_add_one_two_and_three() {
    let r = judge(
        cat(),
        &ziggy(
            r#"{"card":"hunter","strength":1,"module":{"card":"combat_module"}},
               {"card":"ripper","strength":1,"module":{"card":"annihilation_module"}},
               {"card":"brute","strength":1,"module":{"card":"destruction_module"}}"#,
            "",
        ),
    );
    assert_eq!(totals(&r.moloch), [2, 3, 4]);
    assert_eq!(
        parts(unit(&r.moloch, "ripper")),
        [("printed", 1), ("annihilation_module", 2)]
    );
    assert_eq!(r.moloch.total, 9);
}

#[test]
fn special_modules_add_no_strength() {
    let r = judge(
        cat(),
        &ziggy(
            r#"{"card":"hunter","strength":1,"module":{"card":"net_module"}},
               {"card":"ripper","strength":1,"module":{"card":"kasparov_module"}},
               {"card":"brute","strength":1,"module":{"card":"contamination_module"}}"#,
            "",
        ),
    );
    assert_eq!(totals(&r.moloch), [1, 1, 1]);
}

#[test]
fn power_modules_cannot_be_switched_off() {
    // Disabled robot, EMP Launcher in the city: the module still adds its strength.
    let r = judge(
        cat(),
        &ziggy(
            r#"{"card":"hunter","strength":1,"tokens":["disable"],"module":{"card":"destruction_module"}}"#,
            r#"{"card":"emp_launcher","strength":0},{"card":"hacker","strength":1}"#,
        ),
    );
    assert_eq!(
        parts(unit(&r.moloch, "hunter")),
        [("printed", 1), ("destruction_module", 3)]
    );
    assert_eq!(r.moloch.total, 4);
}

#[test]
fn a_module_taken_over_by_nestugov_counts_for_the_soldier() {
    let r = judge(
        cat(),
        &ziggy(
            r#"{"card":"hunter","strength":3}"#,
            r#"{"card":"nestugov","strength":1,"module":{"card":"annihilation_module"}},
               {"card":"scout","strength":1,"module":{"card":"combat_module"}}"#,
        ),
    );
    assert_eq!(
        parts(unit(&r.outpost, "nestugov")),
        [("printed", 1), ("annihilation_module", 2)]
    );
    assert_eq!(
        parts(unit(&r.outpost, "scout")),
        [("printed", 1), ("combat_module", 1)]
    );
    assert_eq!((r.moloch.total, r.outpost.total), (3, 5));
    assert_eq!(r.winner, Winner::Outpost);
    assert!(r.violations.is_empty(), "{:?}", r.violations);
}

// ---- Outpost modifiers --------------------------------------------------------------------

#[test]
fn lt_calahan_adds_one_to_every_soldier_himself_included_but_not_to_buildings() {
    let r = judge(
        cat(),
        &ziggy(
            "",
            r#"{"card":"lt_calahan","strength":2},{"card":"scout","strength":1,"tokens":["+1"]},
               {"card":"em_field","strength":1}"#,
        ),
    );
    assert_eq!(
        parts(unit(&r.outpost, "lt_calahan")),
        [("printed", 2), ("lt_calahan", 1)]
    );
    assert_eq!(
        parts(unit(&r.outpost, "scout")),
        [("printed", 1), ("token +1", 1), ("lt_calahan", 1)]
    );
    assert_eq!(parts(unit(&r.outpost, "em_field")), [("printed", 1)]);
    assert_eq!(r.outpost.total, 3 + 3 + 1);
}

#[test]
fn lt_calahan_in_another_city_adds_nothing() {
    let r = judge(
        cat(),
        r#"{"cities":[{"id":"ziggy_one","outpost":[{"card":"scout","strength":1}]},
                      {"id":"iron_gate","outpost":[{"card":"lt_calahan","strength":2}]}]}"#,
    );
    assert_eq!(parts(unit(&r.outpost, "scout")), [("printed", 1)]);
    assert_eq!(r.outpost.total, 1);
}

#[test]
fn bunker_adds_one_to_every_soldier_but_not_to_itself() {
    let r = judge(
        cat(),
        &ziggy(
            "",
            r#"{"card":"bunker","strength":2},{"card":"scout","strength":1},{"card":"lt_calahan","strength":1}"#,
        ),
    );
    assert_eq!(parts(unit(&r.outpost, "bunker")), [("printed", 2)]);
    assert_eq!(
        parts(unit(&r.outpost, "scout")),
        [("printed", 1), ("lt_calahan", 1), ("bunker", 1)]
    );
    assert_eq!(
        parts(unit(&r.outpost, "lt_calahan")),
        [("printed", 1), ("lt_calahan", 1), ("bunker", 1)]
    );
    assert_eq!(r.outpost.total, 2 + 3 + 3);
}

#[test]
fn calahan_and_bunker_do_not_touch_robots() {
    let r = judge(
        cat(),
        &ziggy(
            r#"{"card":"hunter","strength":2}"#,
            r#"{"card":"bunker","strength":0},{"card":"lt_calahan","strength":0}"#,
        ),
    );
    assert_eq!(parts(unit(&r.moloch, "hunter")), [("printed", 2)]);
}

#[test]
fn the_saboteur_takes_one_from_every_robot_not_from_the_module_and_never_below_zero() {
    let r = judge(
        cat(),
        &ziggy(
            r#"{"card":"hunter","strength":3},
               {"card":"spiders","module":{"card":"combat_module"}},
               {"card":"ripper","strength":0,"module":{"card":"destruction_module"}}"#,
            r#"{"card":"saboteur","strength":1}"#,
        ),
    );
    assert_eq!(
        parts(unit(&r.moloch, "hunter")),
        [("printed", 3), ("saboteur", -1)]
    );
    assert_eq!(
        parts(unit(&r.moloch, "spiders")),
        [("printed", 1), ("saboteur", -1), ("combat_module", 1)]
    );
    assert_eq!(
        parts(unit(&r.moloch, "ripper")),
        [
            ("printed", 0),
            ("saboteur", -1),
            ("floor at 0", 1),
            ("destruction_module", 3)
        ]
    );
    assert_eq!(totals(&r.moloch), [2, 1, 3]);
    // The Saboteur does not touch soldiers, itself included.
    assert_eq!(parts(unit(&r.outpost, "saboteur")), [("printed", 1)]);
}

#[test]
fn the_saboteur_and_a_minus_two_token_floor_together() {
    let r = judge(
        cat(),
        &ziggy(
            r#"{"card":"spiders","tokens":["-2"],"module":{"card":"destruction_module"}}"#,
            r#"{"card":"saboteur","strength":1}"#,
        ),
    );
    assert_eq!(
        parts(unit(&r.moloch, "spiders")),
        [
            ("printed", 1),
            ("token -2", -2),
            ("saboteur", -1),
            ("floor at 0", 2),
            ("destruction_module", 3)
        ]
    );
    assert_eq!(r.moloch.total, 3);
}

#[test]
fn a_saboteur_in_another_city_takes_nothing() {
    let r = judge(
        cat(),
        r#"{"cities":[{"id":"ziggy_one","moloch":[{"card":"hunter","strength":3}]},
                      {"id":"iron_gate","outpost":[{"card":"saboteur","strength":1}]}]}"#,
    );
    assert_eq!(r.moloch.total, 3);
}

// ---- immunity -----------------------------------------------------------------------------

#[test]
fn the_dreadnought_is_immune_to_the_saboteur() {
    let r = judge(
        cat(),
        &ziggy(
            r#"{"card":"dreadnought","strength":4},{"card":"hunter","strength":2}"#,
            r#"{"card":"saboteur","strength":1}"#,
        ),
    );
    assert_eq!(parts(unit(&r.moloch, "dreadnought")), [("printed", 4)]);
    assert_eq!(
        parts(unit(&r.moloch, "hunter")),
        [("printed", 2), ("saboteur", -1)]
    );
    assert_eq!(r.moloch.total, 5);
}

#[test]
fn a_shield_makes_a_robot_immune_to_the_saboteur() {
    let r = judge(
        cat(),
        &ziggy(
            r#"{"card":"hunter","strength":2,"tokens":["shield"]},{"card":"brute","strength":2}"#,
            r#"{"card":"saboteur","strength":1}"#,
        ),
    );
    assert_eq!(parts(unit(&r.moloch, "hunter")), [("printed", 2)]);
    assert_eq!(
        parts(unit(&r.moloch, "brute")),
        [("printed", 2), ("saboteur", -1)]
    );
}

/// HU "EMP fegyver" / PL "Działo EMP", "Pancernik", "Bydlak": an immune robot that was in
/// the city before the EMP Launcher stays immune; one that arrives after loses it.
#[test]
fn emp_launcher_arrival_order_decides_immunity() {
    let outpost =
        r#"{"card":"saboteur","strength":1},{"card":"emp_launcher","strength":0,"arrived":5}"#;
    let table = |dread_arrived: u32, hunter_arrived: u32| {
        judge(
            cat(),
            &ziggy(
                &format!(
                    r#"{{"card":"dreadnought","strength":4,"arrived":{dread_arrived}}},
                       {{"card":"hunter","strength":2,"tokens":["shield"],"arrived":{hunter_arrived}}}"#
                ),
                outpost,
            ),
        )
    };
    let before = table(1, 2);
    assert_eq!(parts(unit(&before.moloch, "dreadnought")), [("printed", 4)]);
    assert_eq!(parts(unit(&before.moloch, "hunter")), [("printed", 2)]);
    assert_eq!(before.moloch.total, 6);
    assert!(before.warnings.is_empty(), "{:?}", before.warnings);

    let after = table(7, 9);
    assert_eq!(
        parts(unit(&after.moloch, "dreadnought")),
        [("printed", 4), ("saboteur", -1)]
    );
    assert_eq!(
        parts(unit(&after.moloch, "hunter")),
        [("printed", 2), ("saboteur", -1)]
    );
    assert_eq!(after.moloch.total, 4);

    let mixed = table(1, 9);
    assert_eq!(totals(&mixed.moloch), [4, 1]);
}

#[test]
fn an_unrecorded_arrival_under_an_emp_launcher_counts_as_after_with_a_warning() {
    let r = judge(
        cat(),
        &ziggy(
            r#"{"card":"dreadnought","strength":4}"#,
            r#"{"card":"saboteur","strength":1},{"card":"emp_launcher","strength":0,"arrived":5}"#,
        ),
    );
    assert_eq!(
        parts(unit(&r.moloch, "dreadnought")),
        [("printed", 4), ("saboteur", -1)]
    );
    assert_eq!(
        r.warnings,
        ["dreadnought: arrival order against the EMP Launcher in ziggy_one is not recorded; taken as arrived after it (not immune)"]
    );
    // The EMP Launcher's own arrival missing is just as unknown.
    let r = judge(
        cat(),
        &ziggy(
            r#"{"card":"hunter","strength":2,"tokens":["shield"],"arrived":1}"#,
            r#"{"card":"saboteur","strength":1},{"card":"emp_launcher","strength":0}"#,
        ),
    );
    assert_eq!(
        parts(unit(&r.moloch, "hunter")),
        [("printed", 2), ("saboteur", -1)]
    );
    assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
    // Without an EMP Launcher the order does not matter and nothing is warned.
    let r = judge(
        cat(),
        &ziggy(
            r#"{"card":"dreadnought","strength":4}"#,
            r#"{"card":"saboteur","strength":1}"#,
        ),
    );
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
}

#[test]
fn an_emp_launcher_in_a_destroyed_city_or_another_city_changes_nothing() {
    let r = judge(
        cat(),
        r#"{"cities":[{"id":"ziggy_one","destroyed":true,"outpost":[{"card":"emp_launcher","strength":0}]},
                      {"id":"iron_gate","moloch":[{"card":"dreadnought","strength":4}],"outpost":[{"card":"saboteur","strength":1}]},
                      {"id":"jersey_crust","outpost":[{"card":"emp_launcher","strength":0}]}]}"#,
    );
    assert_eq!(r.city.as_str(), "iron_gate");
    assert_eq!(parts(unit(&r.moloch, "dreadnought")), [("printed", 4)]);
}

/// HU "Hacker" / "Kegyetlen": a disable token switches the Dreadnought's immunity off (it is
/// its ability); on a shielded robot the shield still protects.
#[test]
fn a_disable_token_removes_the_dreadnoughts_immunity_but_not_a_shields() {
    let r = judge(
        cat(),
        &ziggy(
            r#"{"card":"dreadnought","strength":4,"tokens":["disable"]},
               {"card":"hunter","strength":2,"tokens":["shield","disable"]}"#,
            r#"{"card":"saboteur","strength":1}"#,
        ),
    );
    assert_eq!(
        parts(unit(&r.moloch, "dreadnought")),
        [("printed", 4), ("saboteur", -1)]
    );
    assert_eq!(parts(unit(&r.moloch, "hunter")), [("printed", 2)]);
    assert_eq!(r.moloch.total, 5);
}

// ---- the Net ------------------------------------------------------------------------------

/// HU "Háló modul" / PL "Moduł Sieci": a netted soldier's strength, tokens and every
/// modifier from other Outpost cards are not counted, nor its ability.
#[test]
fn a_netted_soldier_counts_nothing_and_shows_why() {
    let r = judge(
        cat(),
        &ziggy(
            r#"{"card":"hunter","strength":1,"module":{"card":"net_module"}}"#,
            r#"{"card":"commando","strength":2,"tokens":["+1","+2"],"netted":true},
               {"card":"lt_calahan","strength":1},{"card":"bunker","strength":0}"#,
        ),
    );
    let commando = unit(&r.outpost, "commando");
    assert_eq!(
        parts(commando),
        [
            ("printed", 2),
            ("token +1", 1),
            ("token +2", 2),
            ("netted: counts nothing this battle", -5)
        ]
    );
    assert_eq!(commando.total, 0);
    assert_eq!(totals(&r.outpost), [0, 3, 0]);
    assert!(r.violations.is_empty(), "{:?}", r.violations);
}

#[test]
fn a_netted_robot_counts_nothing_not_even_its_module() {
    let r = judge(
        cat(),
        &ziggy(
            r#"{"card":"hunter","strength":3,"tokens":["+1"],"module":{"card":"destruction_module"},"netted":true}"#,
            r#"{"card":"nestugov","strength":1,"module":{"card":"net_module"}}"#,
        ),
    );
    assert_eq!(
        parts(unit(&r.moloch, "hunter")),
        [
            ("printed", 3),
            ("token +1", 1),
            ("destruction_module", 3),
            ("netted: counts nothing this battle", -7)
        ]
    );
    assert_eq!((r.moloch.total, r.outpost.total), (0, 1));
    assert_eq!(r.winner, Winner::Outpost);
    assert!(r.violations.is_empty(), "{:?}", r.violations);
}

#[test]
fn a_netted_soldier_with_a_taken_module_counts_nothing() {
    let r = judge(
        cat(),
        &ziggy(
            r#"{"card":"hunter","strength":1,"module":{"card":"net_module"}}"#,
            r#"{"card":"nestugov","strength":1,"module":{"card":"annihilation_module"},"netted":true}"#,
        ),
    );
    assert_eq!(unit(&r.outpost, "nestugov").total, 0);
}

#[test]
fn a_netted_lt_calahan_gives_no_bonus_and_a_netted_saboteur_takes_nothing() {
    let r = judge(
        cat(),
        &ziggy(
            r#"{"card":"hunter","strength":3,"module":{"card":"net_module"}}"#,
            r#"{"card":"lt_calahan","strength":2,"netted":true},
               {"card":"saboteur","strength":1,"netted":true},
               {"card":"scout","strength":1}"#,
        ),
    );
    assert_eq!(parts(unit(&r.outpost, "scout")), [("printed", 1)]);
    assert_eq!(parts(unit(&r.moloch, "hunter")), [("printed", 3)]);
    assert_eq!(totals(&r.outpost), [0, 0, 1]);
    assert_eq!((r.moloch.total, r.outpost.total), (3, 1));
}

// ---- where the battle is ------------------------------------------------------------------

#[test]
fn only_the_active_city_fights() {
    let r = judge(
        cat(),
        r#"{"cities":[
            {"id":"ziggy_one","destroyed":true,
             "moloch":[{"card":"hunter","strength":9}],"outpost":[{"card":"scout","strength":9}]},
            {"id":"iron_gate","moloch":[{"card":"ripper","strength":2}],"outpost":[{"card":"trooper","strength":1}]},
            {"id":"cleveland_harbour","moloch":[{"card":"brute","strength":9}]},
            {"id":"new_york","outpost":[{"card":"commando","strength":9}]}
        ]}"#,
    );
    assert_eq!(r.city.as_str(), "iron_gate");
    assert_eq!(r.moloch.units.len(), 1);
    assert_eq!(r.outpost.units.len(), 1);
    assert_eq!((r.moloch.total, r.outpost.total), (2, 1));
    assert_eq!(r.winner, Winner::Moloch);
}

#[test]
fn the_active_city_is_the_first_standing_one_even_if_the_list_is_out_of_order() {
    let r = judge(
        cat(),
        r#"{"cities":[
            {"id":"jersey_crust","moloch":[{"card":"hunter","strength":9}]},
            {"id":"iron_gate","destroyed":true},
            {"id":"cleveland_harbour","outpost":[{"card":"scout","strength":2}]},
            {"id":"ziggy_one","destroyed":true}
        ]}"#,
    );
    assert_eq!(r.city.as_str(), "cleveland_harbour");
    assert_eq!((r.moloch.total, r.outpost.total), (0, 2));
}

#[test]
fn no_battle_when_every_city_is_destroyed() {
    let cat = cat();
    let l = layout(
        cat,
        r#"{"cities":[{"id":"ziggy_one","destroyed":true},{"id":"iron_gate","destroyed":true},
                      {"id":"cleveland_harbour","destroyed":true},{"id":"jersey_crust","destroyed":true},
                      {"id":"new_york","destroyed":true}]}"#,
    );
    assert_eq!(
        tablelens_engine::battle(cat, &l),
        Err(tablelens_engine::NoBattle::AllDestroyed)
    );
}

#[test]
fn side_totals_are_the_sums_of_the_unit_totals_in_layout_order() {
    let r = judge(
        cat(),
        &ziggy(
            r#"{"card":"hunter","strength":3},{"card":"spiders"},{"card":"ripper","strength":2,"tokens":["+1"]}"#,
            r#"{"card":"scout","strength":2},{"card":"trooper","strength":1}"#,
        ),
    );
    let ids: Vec<&str> = r.moloch.units.iter().map(|u| u.card.as_str()).collect();
    assert_eq!(ids, ["hunter", "spiders", "ripper"]);
    assert_eq!(totals(&r.moloch), [3, 1, 3]);
    assert_eq!((r.moloch.total, r.outpost.total), (7, 3));
}
