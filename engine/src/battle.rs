//! The battle result of CONTRACT.md: strength of both sides in the active city, the
//! winner, the consequences, and the table's violations and warnings.

use crate::catalogue::Catalogue;
use crate::consequences::consequences;
use crate::context::CityContext;
use crate::game::GameState;
use crate::ids::{CityId, Side};
use crate::layout::Layout;
use crate::legality;
use crate::outcome::{decide, Reason, Winner};
use crate::strength::{side_strength, SideStrength};
use serde::Serialize;

/// The battle result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BattleResult {
    /// The active city, where the battle is fought.
    pub city: CityId,
    /// Moloch's strength there.
    pub moloch: SideStrength,
    /// Outpost's strength there.
    pub outpost: SideStrength,
    /// Who won.
    pub winner: Winner,
    /// Why.
    pub reason: Reason,
    /// What the result sets off, in rulebook order.
    pub consequences: Vec<String>,
    /// What breaks the rules on the table.
    pub violations: Vec<String>,
    /// What is uncertain.
    pub warnings: Vec<String>,
    /// The game as a whole, when deck and hand counts were given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<GameState>,
}

/// Why there is no battle to judge.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NoBattle {
    /// All five cities are destroyed.
    #[error("every city is destroyed: there is no battle left (the game is over)")]
    AllDestroyed,
}

/// Judges the battle in the active city.
pub fn battle(catalogue: &Catalogue, layout: &Layout) -> Result<BattleResult, NoBattle> {
    let active = layout.active_city().ok_or(NoBattle::AllDestroyed)?;
    let cities = layout.full_cities();
    let city = &cities[active.index()];
    let ctx = CityContext::new(catalogue, city);
    let findings = legality::check(catalogue, layout);

    let mut warnings = Vec::new();
    let moloch = side_strength(&ctx, Side::Moloch, &mut warnings);
    let outpost = side_strength(&ctx, Side::Outpost, &mut warnings);
    let (winner, reason) = decide(&ctx, moloch.total, outpost.total, layout.emp_assault);
    let consequences = consequences(catalogue, layout, &ctx, winner);

    warnings.extend(findings.warnings);
    dedup(&mut warnings);
    Ok(BattleResult {
        city: active,
        moloch,
        outpost,
        winner,
        reason,
        consequences,
        violations: findings.violations,
        warnings,
        game: None,
    })
}

fn dedup(v: &mut Vec<String>) {
    let mut seen = std::collections::HashSet::new();
    v.retain(|s| seen.insert(s.clone()));
}
