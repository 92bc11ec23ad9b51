//! Strength of each unit in the active city, explained point by point.
//!
//! A robot counts its printed strength and strength tokens, less one for each working
//! Saboteur unless immune, floored at 0; only then its module's strength is added. A
//! soldier counts printed strength, tokens, +1 for each working Lt. Calahan and Bunker in
//! its city, and a module taken over by Nestugov. A building counts printed strength and
//! tokens. A netted unit counts nothing.

use crate::context::{CityContext, UnitView};
use crate::ids::{card, Kind, Side};
use serde::{Serialize, Serializer};

/// One reason for points: a label and the points it adds (negative takes away).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    /// What gives the points (`printed`, `token +1`, `saboteur`, `combat_module`, ...).
    pub label: String,
    /// Points added.
    pub points: i32,
}

impl Part {
    fn new(label: impl Into<String>, points: i32) -> Part {
        Part {
            label: label.into(),
            points,
        }
    }
}

impl Serialize for Part {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (&self.label, self.points).serialize(s)
    }
}

/// One unit's strength.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UnitStrength {
    /// Card id.
    pub card: String,
    /// Its total.
    pub total: i32,
    /// Every point, in the order the rules apply them.
    pub parts: Vec<Part>,
}

/// One side's strength in the active city.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
pub struct SideStrength {
    /// Sum of the units.
    pub total: i32,
    /// Each unit, in layout order.
    pub units: Vec<UnitStrength>,
}

/// The strength of every unit of a side, and warnings on the values it rests on.
pub fn side_strength(ctx: &CityContext, side: Side, warnings: &mut Vec<String>) -> SideStrength {
    let units: Vec<UnitStrength> = ctx
        .side(side)
        .iter()
        .map(|u| unit_strength(ctx, u, warnings))
        .collect();
    SideStrength {
        total: units.iter().map(|u| u.total).sum(),
        units,
    }
}

/// The strength of one unit.
pub fn unit_strength(ctx: &CityContext, u: &UnitView, warnings: &mut Vec<String>) -> UnitStrength {
    let mut parts = vec![Part::new("printed", printed(u, warnings))];
    for t in &u.unit.tokens {
        if let Some(p) = t.strength() {
            parts.push(Part::new(format!("token {}", t.as_str()), p));
        }
    }
    let module = u
        .module
        .and_then(|m| m.strength.map(|s| Part::new(m.id.clone(), s)));

    if u.unit.netted {
        parts.extend(module);
        let sum: i32 = parts.iter().map(|p| p.points).sum();
        parts.push(Part::new("netted: counts nothing this battle", -sum));
        return finish(u, parts);
    }

    match u.card.kind {
        Kind::Robot => {
            if !ctx.immune(u) {
                for _ in 0..ctx.working(Side::Outpost, card::SABOTEUR) {
                    parts.push(Part::new(card::SABOTEUR, -1));
                }
            }
            if ctx.arrival_unknown(u) {
                warnings.push(format!(
                    "{}: arrival order against the EMP Launcher in {} is not recorded; taken as arrived after it (not immune)",
                    u.card.id, ctx.layout.id
                ));
            }
            let own: i32 = parts.iter().map(|p| p.points).sum();
            if own < 0 {
                parts.push(Part::new("floor at 0", -own));
            }
        }
        Kind::Soldier => {
            for _ in 0..ctx.working(Side::Outpost, card::LT_CALAHAN) {
                parts.push(Part::new(card::LT_CALAHAN, 1));
            }
            for _ in 0..ctx.working(Side::Outpost, card::BUNKER) {
                parts.push(Part::new(card::BUNKER, 1));
            }
        }
        Kind::Building | Kind::Module | Kind::Instant => {}
    }
    parts.extend(module);
    finish(u, parts)
}

fn finish(u: &UnitView, parts: Vec<Part>) -> UnitStrength {
    UnitStrength {
        card: u.card.id.clone(),
        total: parts.iter().map(|p| p.points).sum(),
        parts,
    }
}

/// The printed strength: the layout's reading, else the catalogue's, else 0 with a warning.
fn printed(u: &UnitView, warnings: &mut Vec<String>) -> i32 {
    if let Some(s) = u.unit.strength {
        return s;
    }
    match (u.card.strength, u.card.confirmed) {
        (Some(s), true) => s,
        (Some(s), false) => {
            warnings.push(format!(
                "{}: printed strength {s} is unconfirmed (check the card and confirm it)",
                u.card.id
            ));
            s
        }
        (None, _) => {
            warnings.push(format!(
                "{}: printed strength is unknown, counted as 0 (read it off the card: set `strength` in the layout or in the catalogue)",
                u.card.id
            ));
            0
        }
    }
}
