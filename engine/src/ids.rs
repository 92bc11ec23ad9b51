//! Identifiers and small closed vocabularies: sides, card kinds, triggers, tokens and cities.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The two players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// The robots (red deck, red city edge).
    Moloch,
    /// The soldiers (green deck, green city edge).
    Outpost,
}

impl Side {
    /// The other side.
    pub fn opponent(self) -> Side {
        match self {
            Side::Moloch => Side::Outpost,
            Side::Outpost => Side::Moloch,
        }
    }

    /// The id as written in files: `moloch` or `outpost`.
    pub fn as_str(self) -> &'static str {
        match self {
            Side::Moloch => "moloch",
            Side::Outpost => "outpost",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Moloch => "Moloch",
            Side::Outpost => "Outpost",
        })
    }
}

/// What a card is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A Moloch unit; takes a slot.
    Robot,
    /// A Moloch card tucked under a robot; takes no slot.
    Module,
    /// An Outpost unit; takes a slot.
    Soldier,
    /// An Outpost card that takes a slot but is no unit for bonuses and moves.
    Building,
    /// A one-shot card; never lies on the table.
    Instant,
}

impl Kind {
    /// Whether cards of this kind occupy a slot beside a city.
    pub fn is_unit(self) -> bool {
        matches!(self, Kind::Robot | Kind::Soldier | Kind::Building)
    }

    /// The id as written in files.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Robot => "robot",
            Kind::Module => "module",
            Kind::Soldier => "soldier",
            Kind::Building => "building",
            Kind::Instant => "instant",
        }
    }
}

/// When a card's ability acts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Trigger {
    /// Each time it enters a non-destroyed city.
    Enter,
    /// Always, while its city stands.
    Constant,
    /// Discard a card from hand to use; repeatable.
    Discard,
    /// When Outpost wins the battle in its city.
    WinOutpost,
    /// When Moloch wins the battle in its city.
    WinMoloch,
    /// On a tie in its city.
    Tie,
    /// Once per battle.
    Once,
    /// A one-shot card played from hand.
    Instant,
    /// No ability.
    None,
}

/// A token lying on a unit card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Token {
    /// Strength +1 (bonus for an undefended future city, Recon).
    #[serde(rename = "+1")]
    Plus1,
    /// Strength +2 (Hybrid, Heavy Machine Gun).
    #[serde(rename = "+2")]
    Plus2,
    /// Strength -2 (McPherson); lowers a robot's own strength, never below 0.
    #[serde(rename = "-2")]
    Minus2,
    /// Brute's shield: immunity to Outpost soldier and building abilities.
    #[serde(rename = "shield")]
    Shield,
    /// Hacker's disable token: the robot's or module's ability is off.
    #[serde(rename = "disable")]
    Disable,
}

impl Token {
    /// Every token, in a fixed order.
    pub const ALL: [Token; 5] = [
        Token::Plus1,
        Token::Plus2,
        Token::Minus2,
        Token::Shield,
        Token::Disable,
    ];

    /// The token as written in layout files (`"+1"`, `"shield"`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Token::Plus1 => "+1",
            Token::Plus2 => "+2",
            Token::Minus2 => "-2",
            Token::Shield => "shield",
            Token::Disable => "disable",
        }
    }

    /// The strength the token adds, or `None` for ability tokens.
    pub fn strength(self) -> Option<i32> {
        match self {
            Token::Plus1 => Some(1),
            Token::Plus2 => Some(2),
            Token::Minus2 => Some(-2),
            Token::Shield | Token::Disable => None,
        }
    }

    /// The enrolment component id of the token (`token_plus1`, ...).
    pub fn component_id(self) -> &'static str {
        match self {
            Token::Plus1 => "token_plus1",
            Token::Plus2 => "token_plus2",
            Token::Minus2 => "token_minus2",
            Token::Shield => "token_shield",
            Token::Disable => "token_disable",
        }
    }

    /// The token an enrolment component id names (`token_plus1` -> `+1`); `None` for any
    /// other id.
    pub fn from_component_id(id: &str) -> Option<Token> {
        Token::ALL.into_iter().find(|t| t.component_id() == id)
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The five cities, in table order (Moloch's convoy goes from Ziggy One to New York).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum CityId {
    /// City 1.
    ZiggyOne,
    /// City 2.
    IronGate,
    /// City 3.
    ClevelandHarbour,
    /// City 4.
    JerseyCrust,
    /// City 5.
    NewYork,
}

impl CityId {
    /// All cities in table order.
    pub const ALL: [CityId; 5] = [
        CityId::ZiggyOne,
        CityId::IronGate,
        CityId::ClevelandHarbour,
        CityId::JerseyCrust,
        CityId::NewYork,
    ];

    /// Position in table order, 0 for Ziggy One.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The id as written in files.
    pub fn as_str(self) -> &'static str {
        match self {
            CityId::ZiggyOne => "ziggy_one",
            CityId::IronGate => "iron_gate",
            CityId::ClevelandHarbour => "cleveland_harbour",
            CityId::JerseyCrust => "jersey_crust",
            CityId::NewYork => "new_york",
        }
    }

    /// Parses a file id.
    pub fn parse(s: &str) -> Option<CityId> {
        CityId::ALL.into_iter().find(|c| c.as_str() == s)
    }

    /// The component id of one of the city card's faces: `iron_gate`, or
    /// `iron_gate_destroyed` for its destroyed side.
    pub fn face_id(self, destroyed: bool) -> String {
        if destroyed {
            format!("{}_destroyed", self.as_str())
        } else {
            self.as_str().to_string()
        }
    }

    /// The city and side a face's component id shows (the inverse of
    /// [`CityId::face_id`]); `None` for anything but a city face.
    pub fn parse_face(id: &str) -> Option<(CityId, bool)> {
        match id.strip_suffix("_destroyed") {
            Some(name) => CityId::parse(name).map(|c| (c, true)),
            None => CityId::parse(id).map(|c| (c, false)),
        }
    }

    /// The next city towards New York.
    pub fn next(self) -> Option<CityId> {
        CityId::ALL.get(self.index() + 1).copied()
    }
}

impl fmt::Display for CityId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Ids of the cards whose abilities the rules code refers to by name.
/// Loading a catalogue checks that each of them exists.
pub mod card {
    #![allow(missing_docs)]
    pub const SPIDERS: &str = "spiders";
    pub const DREADNOUGHT: &str = "dreadnought";
    pub const STORMTROOPER: &str = "stormtrooper";
    pub const ANNIHILATOR: &str = "annihilator";
    pub const BLOCKER: &str = "blocker";
    pub const JUGGERNAUT: &str = "juggernaut";
    pub const DEFENDER: &str = "defender";
    pub const CPT_JOHNSON: &str = "cpt_johnson";
    pub const HEAVY_MACHINE_GUN: &str = "heavy_machine_gun";
    pub const LT_CALAHAN: &str = "lt_calahan";
    pub const SABOTEUR: &str = "saboteur";
    pub const BUNKER: &str = "bunker";
    pub const EMP_LAUNCHER: &str = "emp_launcher";
    pub const EM_FIELD: &str = "em_field";
    pub const NESTUGOV: &str = "nestugov";
    pub const NET_MODULE: &str = "net_module";
    pub const CONTAMINATION_MODULE: &str = "contamination_module";
    pub const KASPAROV_MODULE: &str = "kasparov_module";
    pub const PATRIOT: &str = "patriot";

    /// Every id above.
    pub const REFERENCED: [&str; 19] = [
        SPIDERS,
        DREADNOUGHT,
        STORMTROOPER,
        ANNIHILATOR,
        BLOCKER,
        JUGGERNAUT,
        DEFENDER,
        CPT_JOHNSON,
        HEAVY_MACHINE_GUN,
        LT_CALAHAN,
        SABOTEUR,
        BUNKER,
        EMP_LAUNCHER,
        EM_FIELD,
        NESTUGOV,
        NET_MODULE,
        CONTAMINATION_MODULE,
        KASPAROV_MODULE,
        PATRIOT,
    ];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_is_found_again_by_its_component_id_and_no_other_id_is_a_token() {
        for t in Token::ALL {
            assert_eq!(Token::from_component_id(t.component_id()), Some(t));
        }
        for other in ["+1", "token_", "marker_battle", "hunter", ""] {
            assert_eq!(Token::from_component_id(other), None, "{other}");
        }
    }

    #[test]
    fn city_face_ids_read_back_as_their_city_and_side() {
        for city in CityId::ALL {
            for destroyed in [false, true] {
                let id = city.face_id(destroyed);
                assert_eq!(CityId::parse_face(&id), Some((city, destroyed)), "{id}");
            }
        }
        assert_eq!(CityId::IronGate.face_id(true), "iron_gate_destroyed");
        for other in [
            "hornet",
            "token_plus1",
            "_destroyed",
            "iron_gate_destroyed_destroyed",
            "",
        ] {
            assert_eq!(CityId::parse_face(other), None, "{other}");
        }
    }
}
