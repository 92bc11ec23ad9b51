//! Helpers shared by the engine's end-to-end tests: layouts are written as JSON (the public
//! interface) and judged with the bundled catalogue, or with one corrected by a user file.
#![allow(dead_code)]

use std::sync::OnceLock;
use tablelens_engine::{
    battle, check, BattleResult, Catalogue, Findings, Layout, SideStrength, UnitStrength,
};

/// The bundled catalogue, loaded once.
pub fn cat() -> &'static Catalogue {
    static CAT: OnceLock<Catalogue> = OnceLock::new();
    CAT.get_or_init(Catalogue::bundled)
}

/// The bundled catalogue with a user's corrections (TOML) applied.
pub fn cat_with(overrides: &str) -> Catalogue {
    let mut c = Catalogue::bundled();
    c.apply_overrides(overrides)
        .unwrap_or_else(|e| panic!("overrides refused: {e}\n{overrides}"));
    c
}

/// Reads a layout that must be accepted.
pub fn layout(cat: &Catalogue, json: &str) -> Layout {
    Layout::from_json(json, cat).unwrap_or_else(|e| panic!("layout refused: {e}\n{json}"))
}

/// Judges the battle of a layout that must be accepted and have an active city.
pub fn judge(cat: &Catalogue, json: &str) -> BattleResult {
    battle(cat, &layout(cat, json)).expect("there is an active city")
}

/// The violations and warnings of a layout that must be accepted.
pub fn findings(cat: &Catalogue, json: &str) -> Findings {
    check(cat, &layout(cat, json))
}

/// A table where only Ziggy One (the active city) has units; `moloch` and `outpost` are
/// the comma-separated unit objects of each side.
pub fn ziggy(moloch: &str, outpost: &str) -> String {
    format!(r#"{{"cities":[{{"id":"ziggy_one","moloch":[{moloch}],"outpost":[{outpost}]}}]}}"#)
}

/// Ziggy One with extra city fields (e.g. `"battle_marker":true,"battle_district":1`).
pub fn ziggy_with(fields: &str, moloch: &str, outpost: &str) -> String {
    format!(
        r#"{{"cities":[{{"id":"ziggy_one",{fields},"moloch":[{moloch}],"outpost":[{outpost}]}}]}}"#
    )
}

/// A unit's parts as (label, points) pairs.
pub fn parts(u: &UnitStrength) -> Vec<(&str, i32)> {
    u.parts
        .iter()
        .map(|p| (p.label.as_str(), p.points))
        .collect()
}

/// The units of a side whose card is `card`, in layout order.
pub fn units<'a>(side: &'a SideStrength, card: &str) -> Vec<&'a UnitStrength> {
    side.units.iter().filter(|u| u.card == card).collect()
}

/// The only unit of a side whose card is `card`.
pub fn unit<'a>(side: &'a SideStrength, card: &str) -> &'a UnitStrength {
    let found = units(side, card);
    assert_eq!(found.len(), 1, "expected one {card}, got {found:?}");
    found[0]
}

/// Every unit total of a side, in layout order.
pub fn totals(side: &SideStrength) -> Vec<i32> {
    side.units.iter().map(|u| u.total).collect()
}

/// Whether some line starts with `prefix`.
pub fn has_line(lines: &[String], prefix: &str) -> bool {
    lines.iter().any(|l| l.starts_with(prefix))
}

/// Position of the first line that starts with `prefix`; fails the test when there is none.
pub fn line_at(lines: &[String], prefix: &str) -> usize {
    lines
        .iter()
        .position(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no line starts with {prefix:?} in {lines:#?}"))
}
