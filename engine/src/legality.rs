//! What breaks the rules on the table (violations) and what is uncertain (warnings).
//!
//! Checked: slots with every modifier (Annihilator, Contamination module either way,
//! Spiders and what switches them off, Cleveland Harbour's extra slot), copies beyond the
//! deck, modules on buildings, tokens that cannot lie where they lie, nets outside the
//! battle or without a Net Module, and the city markers (battle marker, destroyed
//! districts, feature and extra-district tokens, cities falling in order).

use crate::catalogue::{Catalogue, Feature};
use crate::context::{CityContext, UnitView};
use crate::ids::{card, CityId, Kind, Side, Token};
use crate::layout::{Doubt, Layout, MissingCard};
use std::collections::BTreeMap;

/// Violations and warnings of a whole layout.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Findings {
    /// What breaks the rules; empty when the table is legal.
    pub violations: Vec<String>,
    /// What is uncertain but not illegal.
    pub warnings: Vec<String>,
}

/// Checks the whole table.
pub fn check(catalogue: &Catalogue, layout: &Layout) -> Findings {
    let mut f = Findings::default();
    let cities = layout.full_cities();
    let active = layout.active_city();
    copies(catalogue, &cities, &mut f);

    let mut seen_standing = false;
    let mut battle_markers = 0;
    for cl in &cities {
        let ctx = CityContext::new(catalogue, cl);
        let name = &ctx.city.names.en;
        if cl.destroyed && seen_standing {
            f.violations.push(format!(
                "{name} is destroyed but a city before it stands: cities fall in order"
            ));
        }
        seen_standing |= !cl.destroyed;
        battle_markers += u32::from(cl.battle_marker);
        markers(&ctx, active, &mut f);
        for side in [Side::Moloch, Side::Outpost] {
            slots(&ctx, side, &mut f);
            for u in ctx.side(side) {
                unit(&ctx, u, active, &mut f);
            }
        }
    }
    if battle_markers > 1 {
        f.violations.push(format!(
            "{battle_markers} battle markers on the table; there is one"
        ));
    }
    if !layout.unknown.is_empty() {
        f.warnings.push(format!(
            "{} piece(s) seen but not identified",
            layout.unknown.len()
        ));
    }
    for d in &layout.doubts {
        f.warnings.push(doubt(catalogue, d));
    }
    for m in &layout.missing {
        f.warnings.push(missing(catalogue, m));
    }
    f
}

/// The warning for a place in a column where a card most likely lies unread: the city, the
/// column's side, and the cards on either side of the place.
fn missing(catalogue: &Catalogue, m: &MissingCard) -> String {
    let city = &catalogue.city(m.city).names.en;
    let unit = |id: &String| component(catalogue, id);
    let place = match (m.after.as_ref().map(unit), m.before.as_ref().map(unit)) {
        (Some(a), Some(b)) => format!(" between {a} and {b}"),
        (None, Some(b)) => format!(" between the city and {b}"),
        (Some(a), None) => format!(" beyond {a}"),
        (None, None) => String::new(),
    };
    format!(
        "{city}: a card may lie unread in the {} column{place} (its cards leave room for one \
         there); check it",
        m.side
    )
}

/// The warning for a piece read by a narrow margin: where it lies, what it was read as and
/// what it may be instead.
fn doubt(catalogue: &Catalogue, d: &Doubt) -> String {
    let read = component(catalogue, &d.read);
    let could_be = component(catalogue, &d.could_be);
    // A city is named bare; any other piece is "a" or "an" one.
    let could_be = match CityId::parse_face(&d.could_be) {
        Some(_) => could_be,
        None if could_be.starts_with(['A', 'E', 'I', 'O', 'U', 'a', 'e', 'i', 'o', 'u']) => {
            format!("an {could_be}")
        }
        None => format!("a {could_be}"),
    };
    let is_module = catalogue
        .card(&d.read)
        .is_some_and(|c| c.kind == Kind::Module);
    let piece = match &d.on {
        Some(on) if is_module => format!("the {read} under {}", component(catalogue, on)),
        Some(on) => format!("the {read} on {}", component(catalogue, on)),
        None if d.read.starts_with("marker_") => format!("the {read}"),
        None => read,
    };
    let place = d
        .city
        .map(|c| format!("{}: ", catalogue.city(c).names.en))
        .unwrap_or_default();
    format!("{place}{piece} may be {could_be} (read by a narrow margin); check it")
}

/// A component's English name: a card's or city's own, `+2 token`, `battle marker`; the id
/// itself where it names none of these.
fn component(catalogue: &Catalogue, id: &str) -> String {
    if let Some(card) = catalogue.card(id) {
        return card.names.en.clone();
    }
    if let Some((city, destroyed)) = CityId::parse_face(id) {
        let name = &catalogue.city(city).names.en;
        return if destroyed {
            format!("{name} (destroyed side)")
        } else {
            name.clone()
        };
    }
    if let Some(t) = Token::from_component_id(id) {
        return format!("{t} token");
    }
    match id.strip_prefix("marker_") {
        Some(m) => format!("{} marker", m.replace('_', " ")),
        None => id.to_string(),
    }
}

fn copies(catalogue: &Catalogue, cities: &[crate::layout::CityLayout], f: &mut Findings) {
    let mut n: BTreeMap<&str, u32> = BTreeMap::new();
    for c in cities {
        for u in c.moloch.iter().chain(&c.outpost) {
            *n.entry(u.card.as_str()).or_default() += 1;
            if let Some(m) = &u.module {
                *n.entry(m.card.as_str()).or_default() += 1;
            }
        }
    }
    for (id, count) in n {
        if let Some(c) = catalogue.card(id) {
            if count > c.count {
                f.violations.push(format!(
                    "{count} copies of {id} on the table; the deck has {}",
                    c.count
                ));
            }
        }
    }
}

fn slots(ctx: &CityContext, side: Side, f: &mut Findings) {
    let taken = ctx.slots_taken(side);
    if taken == 0 {
        return;
    }
    let (limit, why) = ctx.slots(side);
    let name = &ctx.city.names.en;
    if taken > limit {
        f.violations.push(format!(
            "{side} has {taken} units taking slots in {name}, but only {limit} slots ({})",
            why.join(", ")
        ));
    }
    let printed = ctx.city.slots(side);
    if !printed.confirmed {
        f.warnings.push(format!(
            "{name}: {side} slots ({}) are unconfirmed; check the city card",
            printed.value
        ));
    }
}

fn markers(ctx: &CityContext, active: Option<CityId>, f: &mut Findings) {
    let l = ctx.layout;
    let name = &ctx.city.names.en;
    let districts = ctx.districts();
    let is_active = active == Some(l.id);
    if l.battle_marker && !is_active {
        f.violations.push(format!(
            "the battle marker lies on {name}, which is not the active city"
        ));
    }
    if let Some(d) = l.battle_district {
        if d > districts {
            f.violations.push(format!(
                "the battle marker is on district {d} of {name}, which has {districts}"
            ));
        }
        if !l.battle_marker {
            f.violations.push(format!(
                "{name} names a battle district but has no battle marker"
            ));
        }
    }
    if l.destroyed {
        if l.districts_destroyed > 0 || l.battle_marker || l.extra_district {
            f.violations.push(format!(
                "{name} is destroyed: its markers are removed when it is flipped"
            ));
        }
    } else if l.districts_destroyed >= districts {
        f.violations.push(format!(
            "{name} has {} destroyed districts of {districts} but is not flipped",
            l.districts_destroyed
        ));
    }
    if !ctx.city.districts.confirmed && (is_active || l.districts_destroyed > 0) {
        f.warnings.push(format!(
            "{name}: the number of districts ({}) is unconfirmed; check the city card",
            ctx.city.districts.value
        ));
    }
    let adds_district = ctx.city.feature == Feature::ExtraDistrict;
    if l.extra_district {
        if !adds_district {
            f.violations.push(format!(
                "the extra-district token lies on {name}; only Jersey Crust's feature adds a district"
            ));
        } else if !l.feature_used {
            f.violations.push(format!(
                "{name} has the extra-district token but not the used-feature token"
            ));
        }
    }
    if adds_district && l.feature_used && !l.destroyed && !l.extra_district {
        f.violations.push(format!(
            "{name} has the used-feature token but not the extra-district token: its feature adds the third district (has the token fallen off?)"
        ));
    }
    if l.feature_used {
        if ctx.city.feature == Feature::None {
            f.violations.push(format!(
                "the used-feature token lies on {name}, which has no feature"
            ));
        } else if !l.destroyed && !is_active {
            f.violations.push(format!(
                "the used-feature token lies on {name}; a feature is used only while the battle is there"
            ));
        }
    }
}

fn unit(ctx: &CityContext, u: &UnitView, active: Option<CityId>, f: &mut Findings) {
    let name = &ctx.city.names.en;
    let id = &u.card.id;
    let kind = u.card.kind;
    for t in &u.unit.tokens {
        let wrong = match (t, kind) {
            (Token::Plus1 | Token::Plus2 | Token::Minus2, Kind::Building) => {
                Some("buildings take no strength tokens")
            }
            (Token::Minus2, Kind::Soldier) => Some("McPherson's -2 goes on robots only"),
            (Token::Shield, Kind::Soldier | Kind::Building) => {
                Some("the Brute's shield goes on robots only")
            }
            (Token::Disable, Kind::Soldier | Kind::Building) => {
                Some("the Hacker's disable token goes on robots and special modules only")
            }
            _ => None,
        };
        if let Some(why) = wrong {
            f.violations
                .push(format!("{id} in {name} carries a {t} token: {why}"));
        }
    }
    if kind == Kind::Robot
        && u.is(card::DREADNOUGHT)
        && u.unit.has(Token::Disable)
        && !ctx.emp_present()
    {
        f.violations.push(format!(
            "{id} in {name} carries a disable token, but the Dreadnought is immune to the Hacker"
        ));
    }
    if u.is(card::DREADNOUGHT) && u.unit.has(Token::Minus2) && ctx.immune_unless_netted(u) {
        f.violations.push(format!(
            "{id} in {name} carries a -2 token, but McPherson cannot target the immune Dreadnought"
        ));
    }
    if let (Some(m), Some(mc)) = (&u.unit.module, u.module) {
        if kind == Kind::Building {
            f.violations.push(format!(
                "{id} in {name} carries the module {}: a module goes on a robot (or, taken over, on a soldier)",
                mc.id
            ));
        }
        for t in &m.tokens {
            let why = match t {
                Token::Disable if mc.is_power_module() => {
                    Some("power modules have no ability to switch off")
                }
                Token::Disable => None,
                _ => Some("only a disable token goes on a module"),
            };
            if let Some(why) = why {
                f.violations.push(format!(
                    "module {} under {id} in {name} carries a {t} token: {why}",
                    mc.id
                ));
            }
        }
    }
    if u.unit.netted {
        if kind == Kind::Building {
            f.violations.push(format!(
                "{id} in {name} is netted: a Net catches units, not buildings"
            ));
        } else if active != Some(ctx.layout.id) {
            f.violations.push(format!(
                "{id} in {name} is netted, but a net works only in the battle of the active city"
            ));
        } else {
            let net_side = u.side.opponent();
            if kind == Kind::Robot && ctx.immune_unless_netted(u) {
                f.violations.push(format!(
                    "{id} in {name} is netted, but it is immune to Outpost's abilities, a taken-over Net Module's too"
                ));
            } else if ctx.working_modules(net_side, card::NET_MODULE) == 0 {
                f.violations.push(format!(
                    "{id} in {name} is netted, but {net_side} has no working Net Module there"
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn findings(json: &str) -> Findings {
        let cat = Catalogue::bundled();
        check(&cat, &Layout::from_json(json, &cat).unwrap())
    }

    #[test]
    fn an_empty_table_is_legal() {
        let f = findings(r#"{"cities":[]}"#);
        assert!(f.violations.is_empty(), "{:?}", f.violations);
    }

    #[test]
    fn each_piece_read_by_a_narrow_margin_is_a_warning_naming_it_and_its_rival() {
        let f = findings(
            r#"{"cities":[{"id":"iron_gate","outpost":[{"card":"trooper","tokens":["+2"]}]}],
                "doubts":[
                  {"read":"token_plus2","could_be":"token_plus1","city":"iron_gate","on":"trooper"},
                  {"read":"trooper","could_be":"commando","city":"iron_gate"},
                  {"read":"net_module","could_be":"combat_module","city":"iron_gate","on":"hunter"},
                  {"read":"iron_gate_destroyed","could_be":"iron_gate"},
                  {"read":"marker_battle","could_be":"marker_extra_district","city":"iron_gate"},
                  {"read":"no_such_piece","could_be":"hunter"}]}"#,
        );
        assert!(f.violations.is_empty(), "{:?}", f.violations);
        let narrow: Vec<&String> = f.warnings.iter().filter(|w| w.contains("narrow")).collect();
        assert_eq!(
            narrow,
            [
                "Iron Gate: the +2 token on Trooper may be a +1 token (read by a narrow margin); \
                 check it",
                "Iron Gate: Trooper may be a Commando (read by a narrow margin); check it",
                "Iron Gate: the Net Module under Hunter may be a Combat Module (read by a narrow \
                 margin); check it",
                "Iron Gate (destroyed side) may be Iron Gate (read by a narrow margin); check it",
                "Iron Gate: the battle marker may be an extra district marker (read by a \
                 narrow margin); check it",
                "no_such_piece may be a Hunter (read by a narrow margin); check it",
            ]
        );
        assert_eq!(
            f.warnings.len(),
            narrow.len() + 1,
            "and the unconfirmed slots"
        );
        // Without doubts, nothing to check.
        let sure = findings(
            r#"{"cities":[{"id":"iron_gate","outpost":[{"card":"trooper","tokens":["+2"]}]}]}"#,
        );
        assert!(
            !sure.warnings.iter().any(|w| w.contains("narrow")),
            "{:?}",
            sure.warnings
        );
    }

    #[test]
    fn each_place_a_card_may_lie_unread_is_a_warning_naming_its_neighbours() {
        let f = findings(
            r#"{"cities":[{"id":"iron_gate","outpost":[{"card":"trooper"},{"card":"scout"}]}],
                "missing":[
                  {"city":"iron_gate","side":"outpost","after":"trooper","before":"scout"},
                  {"city":"iron_gate","side":"outpost","before":"trooper"},
                  {"city":"new_york","side":"moloch","after":"hunter"},
                  {"city":"new_york","side":"moloch"}]}"#,
        );
        assert!(f.violations.is_empty(), "{:?}", f.violations);
        let unread: Vec<&String> = f.warnings.iter().filter(|w| w.contains("unread")).collect();
        assert_eq!(
            unread,
            [
                "Iron Gate: a card may lie unread in the Outpost column between Trooper and \
                 Scout (its cards leave room for one there); check it",
                "Iron Gate: a card may lie unread in the Outpost column between the city and \
                 Trooper (its cards leave room for one there); check it",
                "New York: a card may lie unread in the Moloch column beyond Hunter (its cards \
                 leave room for one there); check it",
                "New York: a card may lie unread in the Moloch column (its cards leave room for \
                 one there); check it",
            ]
        );
        // A layout read back keeps its places, and one without lists none.
        let cat = Catalogue::bundled();
        let json = r#"{"cities":[],"missing":[{"city":"iron_gate","side":"outpost",
            "before":"trooper","corners":[[0,0],[60,0],[60,90],[0,90]],
            "likely":["scout","kid"]}]}"#;
        let layout = Layout::from_json(json, &cat).unwrap();
        assert_eq!(layout.missing.len(), 1);
        assert_eq!(layout.missing[0].after, None);
        assert_eq!(layout.missing[0].likely, ["scout", "kid"]);
        assert_eq!(layout.missing[0].corners.map(|c| c[2]), Some([60.0, 90.0]));
        let written = serde_json::to_string(&layout).unwrap();
        assert_eq!(Layout::from_json(&written, &cat).unwrap(), layout);
        let none = serde_json::to_string(&Layout::default()).unwrap();
        assert!(!none.contains("missing"), "{none}");
    }

    #[test]
    fn too_many_robots_in_ziggy_one() {
        let f = findings(
            r#"{"cities":[{"id":"ziggy_one","moloch":[{"card":"hunter"},{"card":"hunter"},{"card":"brute"},{"card":"clown"}]}]}"#,
        );
        assert_eq!(f.violations.len(), 1, "{:?}", f.violations);
        assert!(f.violations[0].contains("4 units"));
    }

    #[test]
    fn spiders_take_no_slot_unless_switched_off() {
        let base = r#"{"card":"hunter"},{"card":"hunter"},{"card":"brute"}"#;
        let ok = findings(&format!(
            r#"{{"cities":[{{"id":"ziggy_one","moloch":[{base},{{"card":"spiders"}}]}}]}}"#
        ));
        assert!(ok.violations.is_empty(), "{:?}", ok.violations);
        let hacked = findings(&format!(
            r#"{{"cities":[{{"id":"ziggy_one","moloch":[{base},{{"card":"spiders","tokens":["disable"]}}]}}]}}"#
        ));
        assert_eq!(hacked.violations.len(), 1);
        let emp = findings(&format!(
            r#"{{"cities":[{{"id":"ziggy_one","moloch":[{base},{{"card":"spiders"}}],"outpost":[{{"card":"emp_launcher"}}]}}]}}"#
        ));
        assert_eq!(emp.violations.len(), 1);
        let destroyed = findings(&format!(
            r#"{{"cities":[{{"id":"ziggy_one","destroyed":true,"moloch":[{base},{{"card":"spiders"}}]}}]}}"#
        ));
        assert_eq!(destroyed.violations.len(), 1, "{:?}", destroyed.violations);
    }

    #[test]
    fn annihilator_and_contamination_take_outpost_slots() {
        let outpost = r#"[{"card":"scout"},{"card":"trooper"},{"card":"bunker"}]"#;
        let one = findings(&format!(
            r#"{{"cities":[{{"id":"ziggy_one","moloch":[{{"card":"annihilator"}}],"outpost":{outpost}}}]}}"#
        ));
        assert!(one.violations.is_empty(), "{:?}", one.violations);
        let two = findings(&format!(
            r#"{{"cities":[{{"id":"ziggy_one","moloch":[{{"card":"annihilator","module":{{"card":"contamination_module"}}}}],"outpost":{outpost}}}]}}"#
        ));
        assert_eq!(two.violations.len(), 1, "{:?}", two.violations);
        // A disabled Contamination Module takes no slot.
        let off = findings(&format!(
            r#"{{"cities":[{{"id":"ziggy_one","moloch":[{{"card":"annihilator","module":{{"card":"contamination_module","tokens":["disable"]}}}}],"outpost":{outpost}}}]}}"#
        ));
        assert!(off.violations.is_empty(), "{:?}", off.violations);
    }

    #[test]
    fn cleveland_feature_adds_an_outpost_slot() {
        let units = r#"[{"card":"scout"},{"card":"trooper"},{"card":"bunker"},{"card":"hacker"},{"card":"kid"}]"#;
        let without = findings(&format!(
            r#"{{"cities":[{{"id":"ziggy_one","destroyed":true}},{{"id":"iron_gate","destroyed":true}},{{"id":"cleveland_harbour","outpost":{units}}}]}}"#
        ));
        assert_eq!(without.violations.len(), 1, "{:?}", without.violations);
        let with = findings(&format!(
            r#"{{"cities":[{{"id":"ziggy_one","destroyed":true}},{{"id":"iron_gate","destroyed":true}},{{"id":"cleveland_harbour","feature_used":true,"outpost":{units}}}]}}"#
        ));
        assert!(with.violations.is_empty(), "{:?}", with.violations);
        assert!(with.warnings.iter().any(|w| w.contains("unconfirmed")));
    }

    #[test]
    fn contamination_taken_over_costs_moloch_a_slot() {
        let f = findings(
            r#"{"cities":[{"id":"ziggy_one","moloch":[{"card":"hunter"},{"card":"hunter"},{"card":"brute"}],"outpost":[{"card":"nestugov","module":{"card":"contamination_module"}}]}]}"#,
        );
        assert_eq!(f.violations.len(), 1, "{:?}", f.violations);
        assert!(f.violations[0].contains("Contamination Module taken over"));
    }

    #[test]
    fn tokens_that_cannot_be_there() {
        let f = findings(
            r#"{"cities":[{"id":"ziggy_one","outpost":[{"card":"bunker","tokens":["+1"]},{"card":"scout","tokens":["-2","shield"]}],"moloch":[{"card":"hunter","module":{"card":"combat_module","tokens":["disable"]}}]}]}"#,
        );
        assert_eq!(f.violations.len(), 4, "{:?}", f.violations);
    }

    #[test]
    fn module_on_a_building_and_too_many_copies() {
        let f = findings(
            r#"{"cities":[{"id":"ziggy_one","outpost":[{"card":"bunker","module":{"card":"combat_module"}}],"moloch":[{"card":"hunter","module":{"card":"combat_module"}},{"card":"brute","module":{"card":"combat_module"}}]}]}"#,
        );
        assert_eq!(f.violations.len(), 2, "{:?}", f.violations);
        assert!(f
            .violations
            .iter()
            .any(|v| v.contains("3 copies of combat_module")));
    }

    #[test]
    fn nets_need_a_net_module_and_the_active_city() {
        let no_net = findings(
            r#"{"cities":[{"id":"ziggy_one","outpost":[{"card":"scout","netted":true}]}]}"#,
        );
        assert_eq!(no_net.violations.len(), 1);
        let ok = findings(
            r#"{"cities":[{"id":"ziggy_one","outpost":[{"card":"scout","netted":true}],"moloch":[{"card":"hunter","module":{"card":"net_module"}}]}]}"#,
        );
        assert!(ok.violations.is_empty(), "{:?}", ok.violations);
        let future = findings(
            r#"{"cities":[{"id":"iron_gate","outpost":[{"card":"scout","netted":true}],"moloch":[{"card":"hunter","module":{"card":"net_module"}}]}]}"#,
        );
        assert_eq!(future.violations.len(), 1);
    }

    #[test]
    fn city_markers() {
        let f = findings(
            r#"{"cities":[{"id":"ziggy_one","districts_destroyed":2},{"id":"iron_gate","battle_marker":true,"extra_district":true},{"id":"new_york","destroyed":true}]}"#,
        );
        // ziggy not flipped; battle marker off the active city; extra district off Jersey;
        // New York destroyed out of order.
        assert_eq!(f.violations.len(), 4, "{:?}", f.violations);
    }

    #[test]
    fn jersey_crusts_used_feature_and_third_district_go_together() {
        // Jersey Crust (city 4) is active once the three cities before it have fallen.
        let at_jersey = |marks: &str| {
            findings(&format!(
                r#"{{"cities":[{{"id":"ziggy_one","destroyed":true}},{{"id":"iron_gate","destroyed":true}},{{"id":"cleveland_harbour","destroyed":true}},{{"id":"jersey_crust"{marks}}}]}}"#
            ))
        };
        let both = at_jersey(r#","feature_used":true,"extra_district":true"#);
        assert!(both.violations.is_empty(), "{:?}", both.violations);
        for one in [r#","feature_used":true"#, r#","extra_district":true"#] {
            let f = at_jersey(one);
            assert_eq!(f.violations.len(), 1, "{one}: {:?}", f.violations);
        }
        // Cleveland Harbour's used feature asks for no token.
        let cleveland = findings(
            r#"{"cities":[{"id":"ziggy_one","destroyed":true},{"id":"iron_gate","destroyed":true},{"id":"cleveland_harbour","feature_used":true}]}"#,
        );
        assert!(
            cleveland.violations.is_empty(),
            "{:?}",
            cleveland.violations
        );
    }
}
