//! The table layout of CONTRACT.md: what lies on the table at one moment.
//!
//! [`Layout::from_json`] reads and validates a layout; every error names the offending
//! field (`cities[1].moloch[0].module.card: ...`). Structural nonsense (an unknown id, a
//! module used as a unit, a robot on the Outpost side) is an error; what the engine can
//! still evaluate but the rules forbid (too many units, a token where it cannot lie) is a
//! *violation*, reported by [`crate::legality`].

use crate::catalogue::Catalogue;
use crate::ids::{CityId, Kind, Side, Token};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Four image points (x, y) in pixels, clockwise from the piece's top-left as printed.
pub type Corners = [[f32; 2]; 4];

fn is_false(b: &bool) -> bool {
    !*b
}

/// The whole table.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Layout {
    /// The cities in table order; a city left out is intact and empty.
    #[serde(default)]
    pub cities: Vec<CityLayout>,
    /// Outpost played EMP Assault: the battle ends with no winner.
    #[serde(default)]
    pub emp_assault: bool,
    /// Pieces the vision saw but could not identify.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unknown: Vec<UnknownPiece>,
    /// Pieces the vision named by a narrow margin over another reading: the ones to check.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub doubts: Vec<Doubt>,
    /// Places in a column where a card most likely lies that the vision could not find or
    /// name: the ones to look at for a card left out of the totals.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<MissingCard>,
}

/// A piece seen but not identified.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UnknownPiece {
    /// What kind of piece it looked like (`card`, `module`, `token`, `marker`).
    #[serde(default)]
    pub kind: String,
    /// Where it lies in the image.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub corners: Option<Corners>,
}

/// A piece the vision named, but only just: another reading came close. The layout holds
/// the piece as it was read; the player may want to look at it before trusting the totals.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Doubt {
    /// The component it was read as (`trooper`, `token_plus2`, `marker_battle`,
    /// `iron_gate_destroyed`, ...).
    pub read: String,
    /// The reading that came closest.
    pub could_be: String,
    /// The city whose card, column or marker it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub city: Option<CityId>,
    /// For a token, the unit card it lies on; for a module, the unit it is tucked under.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on: Option<String>,
    /// Where it lies in the image.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub corners: Option<Corners>,
}

/// A place in a column where the vision expects a card it could not find or name: the
/// column's cards lie a step further apart there than elsewhere (or its first card a step
/// further from the city), as if one lay between them unseen.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MissingCard {
    /// The city whose column it is.
    pub city: CityId,
    /// The side of the column.
    pub side: Side,
    /// The unit on the city's side of the place; none where the place lies against the
    /// city.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<String>,
    /// The unit further out; none where the place lies beyond the column's last unit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<String>,
    /// Where the card would lie in the image.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub corners: Option<Corners>,
    /// The unit cards of the column's side that what lies there looks most like, most like
    /// first: the vision's guesses, none sure enough to name the card, to offer the player
    /// who names it. Empty where nothing was read there.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub likely: Vec<String>,
}

/// One city card and the cards beside it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CityLayout {
    /// Which city.
    pub id: CityId,
    /// Flipped to its destroyed side.
    #[serde(default)]
    pub destroyed: bool,
    /// Destroyed-district markers on the card.
    #[serde(default)]
    pub districts_destroyed: u32,
    /// The battle-for-district marker lies on this city.
    #[serde(default)]
    pub battle_marker: bool,
    /// Which district (1-based, in printed order) the battle marker is on, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub battle_district: Option<u32>,
    /// The used-city-feature token lies on this city.
    #[serde(default)]
    pub feature_used: bool,
    /// The additional-district token lies on this city (Jersey Crust's feature).
    #[serde(default)]
    pub extra_district: bool,
    /// Moloch's units beside the city.
    #[serde(default)]
    pub moloch: Vec<Unit>,
    /// Outpost's units beside the city.
    #[serde(default)]
    pub outpost: Vec<Unit>,
    /// Where the city card lies in the image.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub corners: Option<Corners>,
    /// Markers on the city card and where they lie (component ids such as `marker_battle`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub markers: Vec<Marker>,
}

impl CityLayout {
    /// An intact, empty city.
    pub fn empty(id: CityId) -> CityLayout {
        CityLayout {
            id,
            destroyed: false,
            districts_destroyed: 0,
            battle_marker: false,
            battle_district: None,
            feature_used: false,
            extra_district: false,
            moloch: Vec::new(),
            outpost: Vec::new(),
            corners: None,
            markers: Vec::new(),
        }
    }

    /// The units of one side.
    pub fn side(&self, side: Side) -> &[Unit] {
        match side {
            Side::Moloch => &self.moloch,
            Side::Outpost => &self.outpost,
        }
    }

    /// The units of one side, mutable.
    pub fn side_mut(&mut self, side: Side) -> &mut Vec<Unit> {
        match side {
            Side::Moloch => &mut self.moloch,
            Side::Outpost => &mut self.outpost,
        }
    }
}

/// A marker on a city card, with where it lies.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Marker {
    /// Component id (`marker_destroyed_district`, `marker_battle`, ...).
    pub kind: String,
    /// Where it lies in the image.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub corners: Option<Corners>,
}

/// A unit card beside a city.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    /// Card id.
    pub card: String,
    /// The printed strength read off the card; overrides the catalogue.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strength: Option<i32>,
    /// Tokens on the card.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tokens: Vec<Token>,
    /// The module tucked under it (on an Outpost unit: taken over by Nestugov).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub module: Option<ModuleCard>,
    /// Caught by a Net module for this battle.
    #[serde(default, skip_serializing_if = "is_false")]
    pub netted: bool,
    /// Arrival order in this city (lower is earlier).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arrived: Option<u32>,
    /// Axis-aligned box in the image: x, y, width, height.
    #[serde(default, rename = "box", skip_serializing_if = "Option::is_none")]
    pub bbox: Option<[f32; 4]>,
    /// Where the card lies in the image.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub corners: Option<Corners>,
    /// Where each token lies, in the order of `tokens`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub token_corners: Vec<Corners>,
}

impl Unit {
    /// A unit of this card with nothing on it.
    pub fn new(card: &str) -> Unit {
        Unit {
            card: card.to_string(),
            strength: None,
            tokens: Vec::new(),
            module: None,
            netted: false,
            arrived: None,
            bbox: None,
            corners: None,
            token_corners: Vec::new(),
        }
    }

    /// How many of a token lie on it.
    pub fn count(&self, token: Token) -> usize {
        self.tokens.iter().filter(|&&t| t == token).count()
    }

    /// Whether a token lies on it.
    pub fn has(&self, token: Token) -> bool {
        self.tokens.contains(&token)
    }
}

/// A module under a unit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModuleCard {
    /// Card id of the module.
    pub card: String,
    /// Tokens on the module (a Hacker's `disable`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tokens: Vec<Token>,
    /// Where the visible strip lies in the image.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub corners: Option<Corners>,
    /// Read only to refuse it: a module cannot carry another module.
    #[serde(default, skip_serializing)]
    pub module: Option<serde_json::Value>,
}

impl ModuleCard {
    /// A module with nothing on it.
    pub fn new(card: &str) -> ModuleCard {
        ModuleCard {
            card: card.to_string(),
            tokens: Vec::new(),
            corners: None,
            module: None,
        }
    }
}

/// A layout that cannot be read, with the field at fault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LayoutError {
    /// Path of the field (`cities[0].moloch[1].card`), empty for the whole document.
    pub field: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for LayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.field, self.message)
        }
    }
}

impl std::error::Error for LayoutError {}

fn err(field: impl Into<String>, message: impl Into<String>) -> LayoutError {
    LayoutError {
        field: field.into(),
        message: message.into(),
    }
}

impl Layout {
    /// Reads a layout from JSON and validates it against the catalogue.
    pub fn from_json(text: &str, catalogue: &Catalogue) -> Result<Layout, LayoutError> {
        if !text.trim_start().starts_with('{') {
            return Err(err(
                "",
                "a layout must be a JSON object ({\"cities\": [...]})",
            ));
        }
        let de = &mut serde_json::Deserializer::from_str(text);
        let layout: Layout = serde_path_to_error::deserialize(&mut *de).map_err(|e| {
            let path = e.path().to_string();
            let field = if path == "." { String::new() } else { path };
            err(field, e.into_inner().to_string())
        })?;
        // Nothing but whitespace may follow the object.
        de.end().map_err(|e| err("", e.to_string()))?;
        layout.validate(catalogue)?;
        Ok(layout)
    }

    /// Checks ids and kinds against the catalogue: every city at most once, every card
    /// known, units of the right side, modules that are modules.
    pub fn validate(&self, catalogue: &Catalogue) -> Result<(), LayoutError> {
        let mut seen = [false; 5];
        for (ci, city) in self.cities.iter().enumerate() {
            let at = format!("cities[{ci}]");
            if std::mem::replace(&mut seen[city.id.index()], true) {
                return Err(err(
                    format!("{at}.id"),
                    format!("city `{}` is listed twice", city.id),
                ));
            }
            if city.districts_destroyed > 4 {
                return Err(err(
                    format!("{at}.districts_destroyed"),
                    format!(
                        "{} is more districts than any city has",
                        city.districts_destroyed
                    ),
                ));
            }
            if let Some(d) = city.battle_district {
                if d == 0 || d > 4 {
                    return Err(err(
                        format!("{at}.battle_district"),
                        format!("district {d} does not exist (districts are numbered from 1)"),
                    ));
                }
            }
            for side in [Side::Moloch, Side::Outpost] {
                for (ui, unit) in city.side(side).iter().enumerate() {
                    let at = format!("{at}.{}[{ui}]", side.as_str());
                    validate_unit(unit, side, &at, catalogue)?;
                }
            }
        }
        Ok(())
    }

    /// The layout of a city, if listed.
    pub fn city(&self, id: CityId) -> Option<&CityLayout> {
        self.cities.iter().find(|c| c.id == id)
    }

    /// All five cities in table order, the missing ones intact and empty.
    pub fn full_cities(&self) -> Vec<CityLayout> {
        CityId::ALL
            .into_iter()
            .map(|id| {
                self.city(id)
                    .cloned()
                    .unwrap_or_else(|| CityLayout::empty(id))
            })
            .collect()
    }

    /// The active city: the first in table order that is not destroyed.
    pub fn active_city(&self) -> Option<CityId> {
        CityId::ALL
            .into_iter()
            .find(|&id| !self.city(id).is_some_and(|c| c.destroyed))
    }

    /// Serialises to pretty JSON.
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

fn validate_unit(
    unit: &Unit,
    side: Side,
    at: &str,
    catalogue: &Catalogue,
) -> Result<(), LayoutError> {
    let card = catalogue.card(&unit.card).ok_or_else(|| {
        err(
            format!("{at}.card"),
            format!("unknown card id `{}`", unit.card),
        )
    })?;
    if !card.kind.is_unit() {
        return Err(err(
            format!("{at}.card"),
            format!(
                "`{}` is {} {}, not a unit that lies beside a city",
                card.id,
                article(card.kind.as_str()),
                card.kind.as_str()
            ),
        ));
    }
    if card.side != side {
        return Err(err(
            format!("{at}.card"),
            format!(
                "`{}` is a {} card, listed on the {} side",
                card.id, card.side, side
            ),
        ));
    }
    if let Some(s) = unit.strength {
        if !(-10..=20).contains(&s) {
            return Err(err(
                format!("{at}.strength"),
                format!("{s} is not a printed strength"),
            ));
        }
    }
    if unit.tokens.len() > 16 {
        return Err(err(
            format!("{at}.tokens"),
            "more than 16 tokens on one card",
        ));
    }
    if let Some(m) = &unit.module {
        let mc = catalogue.card(&m.card).ok_or_else(|| {
            err(
                format!("{at}.module.card"),
                format!("unknown card id `{}`", m.card),
            )
        })?;
        if mc.kind != Kind::Module {
            return Err(err(
                format!("{at}.module.card"),
                format!(
                    "`{}` is {} {}, not a module",
                    mc.id,
                    article(mc.kind.as_str()),
                    mc.kind.as_str()
                ),
            ));
        }
        if m.module.is_some() {
            return Err(err(
                format!("{at}.module.module"),
                "a module cannot carry another module",
            ));
        }
        if m.tokens.len() > 4 {
            return Err(err(
                format!("{at}.module.tokens"),
                "more than 4 tokens on one module",
            ));
        }
    }
    Ok(())
}

fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONTRACT_EXAMPLE: &str = r#"{
      "cities": [
        {
          "id": "iron_gate",
          "destroyed": false,
          "districts_destroyed": 1,
          "battle_marker": true,
          "feature_used": false,
          "extra_district": false,
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

    fn parse(text: &str) -> Result<Layout, LayoutError> {
        Layout::from_json(text, &Catalogue::bundled())
    }

    #[test]
    fn reads_the_contract_example() {
        let l = parse(CONTRACT_EXAMPLE).unwrap();
        let c = &l.cities[0];
        assert_eq!(c.id, CityId::IronGate);
        assert_eq!(c.moloch[0].module.as_ref().unwrap().card, "combat_module");
        assert_eq!(c.outpost[0].count(Token::Plus1), 2);
        assert!(c.outpost[0].netted);
        assert_eq!(l.active_city(), Some(CityId::ZiggyOne));
    }

    #[test]
    fn round_trips_through_json() {
        let l = parse(CONTRACT_EXAMPLE).unwrap();
        let again = parse(&l.to_json_pretty()).unwrap();
        assert_eq!(l, again);
    }

    #[test]
    fn errors_name_the_field() {
        let cases = [
            (r#"{"cities":[{"id":"atlantis"}]}"#, "cities[0].id"),
            (
                r#"{"cities":[{"id":"new_york","moloch":[{"card":"hornett"}]}]}"#,
                "cities[0].moloch[0].card",
            ),
            (
                r#"{"cities":[{"id":"new_york","moloch":[{"card":"hornet","module":{"card":"hunter"}}]}]}"#,
                "cities[0].moloch[0].module.card",
            ),
            (
                r#"{"cities":[{"id":"new_york","moloch":[{"card":"combat_module"}]}]}"#,
                "cities[0].moloch[0].card",
            ),
            (
                r#"{"cities":[{"id":"new_york","outpost":[{"card":"hornet"}]}]}"#,
                "cities[0].outpost[0].card",
            ),
            (
                r#"{"cities":[{"id":"new_york","outpost":[{"card":"scout","tokens":["+3"]}]}]}"#,
                "cities[0].outpost[0].tokens[0]",
            ),
            (
                r#"{"cities":[{"id":"new_york"},{"id":"new_york"}]}"#,
                "cities[1].id",
            ),
            (
                r#"{"cities":[{"id":"new_york","moloch":[{"card":"hornet","module":{"card":"combat_module","module":{"card":"net_module"}}}]}]}"#,
                "cities[0].moloch[0].module.module",
            ),
            (
                r#"{"cities":[{"id":"new_york","districts_destroyed":-1}]}"#,
                "cities[0].districts_destroyed",
            ),
            (
                r#"{"cities":[{"id":"new_york","moloch":[{"card":"sniper"}]}]}"#,
                "cities[0].moloch[0].card",
            ),
        ];
        for (text, field) in cases {
            match parse(text) {
                Err(e) if field.is_empty() => assert!(!e.message.is_empty()),
                Err(e) => assert_eq!(e.field, field, "{e}"),
                Ok(_) if field.is_empty() => {}
                Ok(_) => panic!("accepted {text}"),
            }
        }
    }

    #[test]
    fn malformed_json_is_an_error_not_a_panic() {
        for text in [
            "",
            "{",
            "[]",
            "null",
            "{\"cities\": 3}",
            "{\"cities\":[{}]}",
        ] {
            assert!(parse(text).is_err(), "accepted {text:?}");
        }
    }

    #[test]
    fn active_city_skips_destroyed_ones() {
        let l = parse(r#"{"cities":[{"id":"ziggy_one","destroyed":true},{"id":"iron_gate","destroyed":true}]}"#).unwrap();
        assert_eq!(l.active_city(), Some(CityId::ClevelandHarbour));
        assert_eq!(l.full_cities().len(), 5);
    }
}
