//! The card and city catalogue: data loaded from `data/*.toml`, validated, and open to a
//! user's corrections.
//!
//! The rulebook gives few printed values. Every value it does not give is marked
//! unconfirmed; [`Catalogue::unconfirmed`] lists them and a user file
//! ([`Catalogue::apply_overrides`]) sets and confirms them from the player's own cards.

use crate::ids::{card, CityId, Kind, Side, Trigger};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::fmt;

/// The bundled card data.
const CARDS_TOML: &str = include_str!("../data/cards.toml");
/// The bundled city data.
const CITIES_TOML: &str = include_str!("../data/cities.toml");

/// Cards in each deck, copies counted.
pub const DECK_SIZE: u32 = 35;

/// A name in the three languages of the game's editions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Names {
    /// English.
    pub en: String,
    /// Polish.
    pub pl: String,
    /// Hungarian.
    pub hu: String,
}

impl Names {
    /// The name in a language code (`en`, `pl`, `hu`); English for any other code.
    pub fn get(&self, lang: &str) -> &str {
        match lang {
            "pl" => &self.pl,
            "hu" => &self.hu,
            _ => &self.en,
        }
    }
}

/// One distinct card design.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Card {
    /// The id used in files (`hornet`).
    pub id: String,
    /// Whose deck it belongs to.
    pub side: Side,
    /// What it is.
    pub kind: Kind,
    /// Copies in the deck.
    pub count: u32,
    /// When its ability acts.
    pub trigger: Trigger,
    /// Names in English, Polish and Hungarian.
    pub names: Names,
    /// A one-line summary of the ability.
    pub ability: String,
    /// Printed strength (for a power module: what it adds); `None` where the card has none
    /// or the value is unknown.
    #[serde(default)]
    pub strength: Option<i32>,
    /// Whether `strength` is known to be right.
    pub confirmed: bool,
}

impl Card {
    /// A module that adds strength (Combat, Annihilation, Destruction): it has no ability
    /// and can never be switched off.
    pub fn is_power_module(&self) -> bool {
        self.kind == Kind::Module && self.strength.is_some()
    }

    /// A module with a special ability (Kasparov, Net, Contamination).
    pub fn is_special_module(&self) -> bool {
        self.kind == Kind::Module && self.strength.is_none()
    }

    /// Whether the printed strength is still unknown (a unit with no confirmed value).
    pub fn strength_unknown(&self) -> bool {
        self.strength.is_none() && !self.confirmed
    }
}

/// A value that may not yet be confirmed against the physical card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Known<T> {
    /// The value in use (provisional while unconfirmed).
    pub value: T,
    /// Whether it is known to be right.
    pub confirmed: bool,
}

/// What happens when the battle for a district ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DistrictEffect {
    /// The winner kills one enemy unit in the active city (Moloch: soldiers only).
    Kill,
    /// The winner draws a card.
    Draw,
    /// The winner may move one unit from the active city to New York.
    ToNewYork,
    /// Always fires: Moloch kills a soldier, then Outpost kills a robot.
    Bomb,
}

impl DistrictEffect {
    /// The id as written in files.
    pub fn as_str(self) -> &'static str {
        match self {
            DistrictEffect::Kill => "kill",
            DistrictEffect::Draw => "draw",
            DistrictEffect::ToNewYork => "to_new_york",
            DistrictEffect::Bomb => "bomb",
        }
    }
}

/// A city's effect for the battle's winner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VictoryEffect {
    /// Discard Moloch's top deck card.
    DiscardTopCard,
    /// Discard Moloch's top two deck cards.
    DiscardTopTwoCards,
    /// Reveal Moloch's top two, discard one, shuffle the other back.
    RevealTwoDiscardOne,
    /// Destroy another district (of this city, else of the next).
    DestroyAnotherDistrict,
    /// Destroy another district and apply its effect (Cleveland Harbour).
    DestroyAnotherDistrictWithEffect,
}

/// A city's feature, usable by Outpost once per game while the battle is there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Feature {
    /// No feature (Ziggy One).
    None,
    /// Discard 2: destroy a robot here, with its module (Iron Gate).
    DestroyRobot,
    /// Discard 1: one more Outpost slot here until the city falls (Cleveland Harbour).
    ExtraOutpostSlot,
    /// Discard 2: a third district (Jersey Crust).
    ExtraDistrict,
    /// Discard 2: move a soldier between Jersey Crust and New York (New York).
    MoveSoldierJerseyNewYork,
}

/// One city card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct City {
    /// Which city.
    pub id: CityId,
    /// Table order, 1 to 5.
    pub order: u8,
    /// Names in the three languages.
    pub names: Names,
    /// Moloch's printed slots.
    pub moloch_slots: Known<u32>,
    /// Outpost's printed slots.
    pub outpost_slots: Known<u32>,
    /// Printed districts (Jersey Crust's feature can add one).
    pub districts: Known<u32>,
    /// Each district's effect, in printed order; empty while unknown.
    #[serde(default)]
    pub effects: Vec<DistrictEffect>,
    /// What Outpost's victory here does.
    pub outpost_victory: VictoryEffect,
    /// What Moloch's victory here does.
    pub moloch_victory: VictoryEffect,
    /// The city feature.
    pub feature: Feature,
}

impl City {
    /// Printed slots of a side.
    pub fn slots(&self, side: Side) -> Known<u32> {
        match side {
            Side::Moloch => self.moloch_slots,
            Side::Outpost => self.outpost_slots,
        }
    }

    /// The victory effect for a winner.
    pub fn victory(&self, winner: Side) -> VictoryEffect {
        match winner {
            Side::Moloch => self.moloch_victory,
            Side::Outpost => self.outpost_victory,
        }
    }

    /// The effect of district `index` (0-based), if known.
    pub fn district_effect(&self, index: usize) -> Option<DistrictEffect> {
        self.effects.get(index).copied()
    }
}

/// A catalogue that failed to load or to accept corrections.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CatalogueError {
    /// The file is not valid TOML of the expected shape.
    #[error("{file}: {message}")]
    Parse {
        /// Which file.
        file: String,
        /// What is wrong, with the field.
        message: String,
    },
    /// The data parses but breaks a rule of the catalogue.
    #[error("catalogue: {0}")]
    Invalid(String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CardsFile {
    card: Vec<Card>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CitiesFile {
    city: Vec<City>,
}

/// All cards and cities, validated.
#[derive(Debug, Clone)]
pub struct Catalogue {
    cards: Vec<Card>,
    cities: Vec<City>,
    index: HashMap<String, usize>,
}

/// One value that the player has not confirmed yet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Unconfirmed {
    /// The card or city id.
    pub id: String,
    /// Which value (`strength`, `moloch_slots`, `districts`, `effects`, ...).
    pub field: String,
    /// The value in use, as text (`unknown` when there is none).
    pub value: String,
}

impl fmt::Display for Unconfirmed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}.{} = {} (unconfirmed)",
            self.id, self.field, self.value
        )
    }
}

impl Catalogue {
    /// The catalogue shipped with tablelens.
    pub fn bundled() -> Catalogue {
        // The bundled data is part of the program; its validity is checked by the tests.
        Catalogue::from_toml(CARDS_TOML, CITIES_TOML).expect("bundled catalogue is valid")
    }

    /// Loads and validates a catalogue from the two TOML texts.
    pub fn from_toml(cards: &str, cities: &str) -> Result<Catalogue, CatalogueError> {
        let cards: CardsFile = parse_toml("cards.toml", cards)?;
        let cities: CitiesFile = parse_toml("cities.toml", cities)?;
        Catalogue::new(cards.card, cities.city)
    }

    /// Builds a catalogue from parsed data, checking it: unique ids, 35 cards a side,
    /// the five cities once each in order, the cards the rules refer to present, and
    /// strengths that fit the kinds.
    pub fn new(cards: Vec<Card>, mut cities: Vec<City>) -> Result<Catalogue, CatalogueError> {
        let mut index = HashMap::new();
        for (i, c) in cards.iter().enumerate() {
            if c.id.is_empty() {
                return Err(CatalogueError::Invalid(format!("card {i} has an empty id")));
            }
            if index.insert(c.id.clone(), i).is_some() {
                return Err(CatalogueError::Invalid(format!(
                    "duplicate card id `{}`",
                    c.id
                )));
            }
            if CityId::parse(&c.id).is_some() {
                return Err(CatalogueError::Invalid(format!(
                    "card id `{}` is also a city id",
                    c.id
                )));
            }
            let side_ok = match c.kind {
                Kind::Robot | Kind::Module => c.side == Side::Moloch,
                Kind::Soldier | Kind::Building => c.side == Side::Outpost,
                Kind::Instant => true,
            };
            if !side_ok {
                return Err(CatalogueError::Invalid(format!(
                    "card `{}`: a {} cannot belong to {}",
                    c.id,
                    c.kind.as_str(),
                    c.side
                )));
            }
            if c.count == 0 {
                return Err(CatalogueError::Invalid(format!(
                    "card `{}`: count is 0",
                    c.id
                )));
            }
            if c.kind == Kind::Instant && c.strength.is_some() {
                return Err(CatalogueError::Invalid(format!(
                    "card `{}`: an instant has no strength",
                    c.id
                )));
            }
            if let Some(s) = c.strength {
                if !(-10..=20).contains(&s) {
                    return Err(CatalogueError::Invalid(format!(
                        "card `{}`: strength {s} is out of range",
                        c.id
                    )));
                }
            }
        }
        for side in [Side::Moloch, Side::Outpost] {
            let total: u32 = cards
                .iter()
                .filter(|c| c.side == side)
                .map(|c| c.count)
                .sum();
            if total != DECK_SIZE {
                return Err(CatalogueError::Invalid(format!(
                    "the {side} deck has {total} cards, not {DECK_SIZE}"
                )));
            }
        }
        for id in card::REFERENCED {
            if !index.contains_key(id) {
                return Err(CatalogueError::Invalid(format!(
                    "card `{id}`, which the rules refer to, is missing"
                )));
            }
        }
        cities.sort_by_key(|c| c.id);
        let ids: Vec<CityId> = cities.iter().map(|c| c.id).collect();
        if ids != CityId::ALL {
            return Err(CatalogueError::Invalid(
                "the five cities must each appear once".to_string(),
            ));
        }
        for c in &cities {
            if usize::from(c.order) != c.id.index() + 1 {
                return Err(CatalogueError::Invalid(format!(
                    "city `{}` has order {}, expected {}",
                    c.id,
                    c.order,
                    c.id.index() + 1
                )));
            }
            check_city_values(c)?;
        }
        Ok(Catalogue {
            cards,
            cities,
            index,
        })
    }

    /// Every distinct card, in catalogue order (Outpost first, as in the rulebook).
    pub fn cards(&self) -> &[Card] {
        &self.cards
    }

    /// The five cities in table order.
    pub fn cities(&self) -> &[City] {
        &self.cities
    }

    /// A card by id.
    pub fn card(&self, id: &str) -> Option<&Card> {
        self.index.get(id).map(|&i| &self.cards[i])
    }

    /// A city.
    pub fn city(&self, id: CityId) -> &City {
        &self.cities[id.index()]
    }

    /// Every enrolment component id: cards, cities, destroyed city sides, tokens and markers.
    pub fn component_ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = self.cards.iter().map(|c| c.id.clone()).collect();
        for c in CityId::ALL {
            ids.push(c.face_id(false));
            ids.push(c.face_id(true));
        }
        for t in crate::ids::Token::ALL {
            ids.push(t.component_id().to_string());
        }
        for m in MARKER_IDS {
            ids.push(m.to_string());
        }
        ids
    }

    /// Every value still unconfirmed.
    pub fn unconfirmed(&self) -> Vec<Unconfirmed> {
        let mut out = Vec::new();
        for c in &self.cards {
            if !c.confirmed {
                out.push(Unconfirmed {
                    id: c.id.clone(),
                    field: "strength".into(),
                    value: c.strength.map_or("unknown".into(), |s| s.to_string()),
                });
            }
        }
        for c in &self.cities {
            let known = [
                ("moloch_slots", c.moloch_slots),
                ("outpost_slots", c.outpost_slots),
                ("districts", c.districts),
            ];
            for (field, k) in known {
                if !k.confirmed {
                    out.push(Unconfirmed {
                        id: c.id.as_str().into(),
                        field: field.into(),
                        value: k.value.to_string(),
                    });
                }
            }
            if c.effects.is_empty() {
                out.push(Unconfirmed {
                    id: c.id.as_str().into(),
                    field: "effects".into(),
                    value: "unknown".into(),
                });
            }
        }
        out
    }

    /// Applies a user's corrections (TOML, see [`Overrides`]); every value given becomes
    /// confirmed. Returns what changed, one line each. On error nothing is changed.
    pub fn apply_overrides(&mut self, text: &str) -> Result<Vec<String>, CatalogueError> {
        let o: Overrides = parse_toml("catalogue overrides", text)?;
        let mut next = self.clone();
        let mut changes = Vec::new();
        for (id, co) in &o.cards {
            let i = *next.index.get(id).ok_or_else(|| CatalogueError::Parse {
                file: "catalogue overrides".into(),
                message: format!("cards.{id}: unknown card id"),
            })?;
            let c = &mut next.cards[i];
            if let Some(s) = co.strength {
                if c.kind == Kind::Instant || c.is_special_module() {
                    return Err(CatalogueError::Invalid(format!(
                        "cards.{id}.strength: `{id}` has no strength"
                    )));
                }
                changes.push(format!("{id}.strength = {s}"));
                c.strength = Some(s);
                c.confirmed = true;
            }
            if let Some(n) = co.count {
                changes.push(format!("{id}.count = {n}"));
                c.count = n;
            }
        }
        for (id, co) in &o.cities {
            let cid = CityId::parse(id).ok_or_else(|| CatalogueError::Parse {
                file: "catalogue overrides".into(),
                message: format!("cities.{id}: unknown city id"),
            })?;
            let c = &mut next.cities[cid.index()];
            let fields = [
                ("moloch_slots", co.moloch_slots, &mut c.moloch_slots),
                ("outpost_slots", co.outpost_slots, &mut c.outpost_slots),
                ("districts", co.districts, &mut c.districts),
            ];
            for (name, v, slot) in fields {
                if let Some(v) = v {
                    changes.push(format!("{id}.{name} = {v}"));
                    *slot = Known {
                        value: v,
                        confirmed: true,
                    };
                }
            }
            if let Some(e) = &co.effects {
                let names: Vec<&str> = e.iter().map(|e| e.as_str()).collect();
                changes.push(format!("{id}.effects = [{}]", names.join(", ")));
                c.effects = e.clone();
            }
        }
        let checked = Catalogue::new(next.cards, next.cities)?;
        *self = checked;
        Ok(changes)
    }
}

/// Ids of the markers that lie on city cards.
pub const MARKER_IDS: [&str; 4] = [
    "marker_destroyed_district",
    "marker_battle",
    "marker_used_feature",
    "marker_extra_district",
];

/// How many the game has of each marker of [`MARKER_IDS`], in that order (RULES.md: 4
/// destroyed-district markers, 1 battle-for-district marker, 1 used-city-feature token, 1
/// additional-district token): no table shows more.
pub const MARKER_SUPPLY: [u8; 4] = [4, 1, 1, 1];

/// How many the game has of the marker `id`; `None` for anything else.
pub fn marker_supply(id: &str) -> Option<u8> {
    MARKER_IDS
        .iter()
        .position(|m| *m == id)
        .map(|i| MARKER_SUPPLY[i])
}

fn check_city_values(c: &City) -> Result<(), CatalogueError> {
    if c.moloch_slots.value == 0 || c.moloch_slots.value > 8 {
        return Err(CatalogueError::Invalid(format!(
            "city `{}`: moloch_slots must be 1 to 8",
            c.id
        )));
    }
    if c.outpost_slots.value == 0 || c.outpost_slots.value > 8 {
        return Err(CatalogueError::Invalid(format!(
            "city `{}`: outpost_slots must be 1 to 8",
            c.id
        )));
    }
    if c.districts.value == 0 || c.districts.value > 4 {
        return Err(CatalogueError::Invalid(format!(
            "city `{}`: districts must be 1 to 4",
            c.id
        )));
    }
    let printed = c.districts.value as usize;
    let with_extra = printed + usize::from(c.feature == Feature::ExtraDistrict);
    if !c.effects.is_empty() && c.effects.len() != printed && c.effects.len() != with_extra {
        return Err(CatalogueError::Invalid(format!(
            "city `{}`: {} district effects given for {} districts",
            c.id,
            c.effects.len(),
            printed
        )));
    }
    Ok(())
}

fn parse_toml<T: serde::de::DeserializeOwned>(file: &str, text: &str) -> Result<T, CatalogueError> {
    toml::from_str(text).map_err(|e| CatalogueError::Parse {
        file: file.to_string(),
        message: e.to_string().trim().to_string(),
    })
}

/// A user's corrections to the catalogue, read from TOML:
///
/// ```toml
/// [cards.hacker]
/// strength = 2
///
/// [cities.iron_gate]
/// moloch_slots = 4
/// outpost_slots = 3
/// districts = 2
/// effects = ["kill", "bomb"]
/// ```
#[derive(Debug, Default, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Overrides {
    /// Per card id.
    #[serde(default)]
    pub cards: BTreeMap<String, CardOverride>,
    /// Per city id.
    #[serde(default)]
    pub cities: BTreeMap<String, CityOverride>,
}

/// Corrections to one card.
#[derive(Debug, Default, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CardOverride {
    /// The printed strength read off the card.
    pub strength: Option<i32>,
    /// Copies in the player's deck.
    pub count: Option<u32>,
}

/// Corrections to one city.
#[derive(Debug, Default, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CityOverride {
    /// Moloch's printed slots.
    pub moloch_slots: Option<u32>,
    /// Outpost's printed slots.
    pub outpost_slots: Option<u32>,
    /// Printed districts.
    pub districts: Option<u32>,
    /// Each district's effect, in printed order.
    pub effects: Option<Vec<DistrictEffect>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundled_catalogue_loads_with_57_cards_and_70_copies() {
        let c = Catalogue::bundled();
        assert_eq!(c.cards().len(), 57);
        let copies: u32 = c.cards().iter().map(|c| c.count).sum();
        assert_eq!(copies, 70);
        assert_eq!(c.cities().len(), 5);
    }

    #[test]
    fn the_game_has_four_destroyed_district_markers_and_one_of_each_other() {
        assert_eq!(marker_supply("marker_destroyed_district"), Some(4));
        assert_eq!(marker_supply("marker_battle"), Some(1));
        assert_eq!(marker_supply("marker_used_feature"), Some(1));
        assert_eq!(marker_supply("marker_extra_district"), Some(1));
        assert_eq!(marker_supply("token_plus1"), None);
        assert_eq!(marker_supply("hornet"), None);
    }

    #[test]
    fn known_strengths_are_confirmed_and_the_rest_are_not() {
        let c = Catalogue::bundled();
        assert_eq!(c.card("spiders").unwrap().strength, Some(1));
        assert!(c.card("spiders").unwrap().confirmed);
        assert_eq!(c.card("hornet").unwrap().strength, Some(3));
        assert_eq!(c.card("destruction_module").unwrap().strength, Some(3));
        let hacker = c.card("hacker").unwrap();
        assert_eq!(hacker.strength, None);
        assert!(!hacker.confirmed);
        assert!(hacker.strength_unknown());
        let sniper = c.card("sniper").unwrap();
        assert!(sniper.confirmed && sniper.strength.is_none());
    }

    #[test]
    fn ziggy_one_is_confirmed_and_iron_gate_is_not() {
        let c = Catalogue::bundled();
        let z = c.city(CityId::ZiggyOne);
        assert_eq!((z.moloch_slots.value, z.outpost_slots.value), (3, 4));
        assert!(z.moloch_slots.confirmed && z.districts.confirmed);
        assert!(!c.city(CityId::IronGate).moloch_slots.confirmed);
        let u = c.unconfirmed();
        assert!(u
            .iter()
            .any(|u| u.id == "iron_gate" && u.field == "moloch_slots"));
        assert!(u.iter().any(|u| u.id == "hacker" && u.field == "strength"));
        assert!(!u.iter().any(|u| u.id == "spiders"));
        assert!(!u
            .iter()
            .any(|u| u.id == "ziggy_one" && u.field == "districts"));
    }

    #[test]
    fn overrides_set_and_confirm_values() {
        let mut c = Catalogue::bundled();
        let changes = c
            .apply_overrides(
                "[cards.hacker]\nstrength = 2\n[cities.iron_gate]\nmoloch_slots = 5\neffects = [\"kill\", \"bomb\"]\n",
            )
            .unwrap();
        assert_eq!(changes.len(), 3);
        assert_eq!(c.card("hacker").unwrap().strength, Some(2));
        assert!(c.card("hacker").unwrap().confirmed);
        let ig = c.city(CityId::IronGate);
        assert_eq!(
            ig.moloch_slots,
            Known {
                value: 5,
                confirmed: true
            }
        );
        assert!(!ig.outpost_slots.confirmed);
        assert_eq!(ig.district_effect(1), Some(DistrictEffect::Bomb));
    }

    #[test]
    fn bad_overrides_are_refused_and_change_nothing() {
        let mut c = Catalogue::bundled();
        for bad in [
            "[cards.hackr]\nstrength = 2\n",
            "[cards.hacker]\nstrenght = 2\n",
            "[cards.sniper]\nstrength = 2\n",
            "[cities.atlantis]\ndistricts = 2\n",
            "[cities.iron_gate]\neffects = [\"kill\", \"kill\", \"kill\", \"kill\"]\n",
            "[cards.hunter]\ncount = 4\n",
            "not toml at all [",
        ] {
            let err = c.apply_overrides(bad);
            assert!(err.is_err(), "accepted {bad:?}");
        }
        assert!(c.card("hacker").unwrap().strength.is_none());
        assert_eq!(c.card("hunter").unwrap().count, 3);
    }

    #[test]
    fn validation_catches_broken_data() {
        let good = Catalogue::bundled();
        let mut cards = good.cards().to_vec();
        cards[1].id = cards[0].id.clone();
        assert!(Catalogue::new(cards, good.cities().to_vec()).is_err());
        let mut cards = good.cards().to_vec();
        cards[0].count += 1;
        assert!(Catalogue::new(cards, good.cities().to_vec()).is_err());
        let mut cities = good.cities().to_vec();
        cities.pop();
        assert!(Catalogue::new(good.cards().to_vec(), cities).is_err());
    }

    #[test]
    fn component_ids_cover_cards_cities_tokens_and_markers() {
        let ids = Catalogue::bundled().component_ids();
        assert_eq!(ids.len(), 57 + 10 + 5 + 4);
        assert!(ids.contains(&"new_york_destroyed".to_string()));
        assert!(ids.contains(&"token_disable".to_string()));
        assert!(ids.contains(&"marker_used_feature".to_string()));
    }
}
