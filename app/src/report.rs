//! Readable text for people at the table: the battle, the findings, the catalogue.

use std::fmt::Write;
use tablelens_engine::{BattleResult, Catalogue, Reason, SideStrength, Winner};

/// The battle result as text: one line per unit with its parts, the totals, the winner,
/// the consequences, violations and warnings.
pub fn battle(catalogue: &Catalogue, r: &BattleResult) -> String {
    let mut s = String::new();
    let city = &catalogue.city(r.city).names.en;
    let _ = writeln!(s, "Battle in {city}");
    side(&mut s, "Moloch", &r.moloch);
    side(&mut s, "Outpost", &r.outpost);
    let verdict = match (r.winner, r.reason) {
        (Winner::Moloch, Reason::Stormtrooper) => {
            format!(
                "Moloch wins the tie {}:{} with its Stormtrooper",
                r.moloch.total, r.outpost.total
            )
        }
        (Winner::Moloch, _) => format!("Moloch wins {}:{}", r.moloch.total, r.outpost.total),
        (Winner::Outpost, _) => format!("Outpost wins {}:{}", r.outpost.total, r.moloch.total),
        (Winner::Draw, _) => format!("Draw {}:{}", r.moloch.total, r.outpost.total),
        (Winner::None, _) => "No winner: EMP Assault ended the battle".to_string(),
    };
    let _ = writeln!(s, "\nResult: {verdict}");
    if let Some(game) = &r.game {
        let _ = writeln!(
            s,
            "Game: {}",
            match game {
                tablelens_engine::GameState::Ongoing => "goes on".to_string(),
                tablelens_engine::GameState::Over(side) => format!("over, {side} wins"),
            }
        );
    }
    let _ = writeln!(s, "\nConsequences, in order:");
    for (i, c) in r.consequences.iter().enumerate() {
        let _ = writeln!(s, "  {}. {c}", i + 1);
    }
    s.push('\n');
    s.push_str(&findings(&r.violations, &r.warnings));
    s
}

fn side(s: &mut String, name: &str, strength: &SideStrength) {
    let _ = writeln!(s, "\n{name} {}", strength.total);
    if strength.units.is_empty() {
        let _ = writeln!(s, "  (no units)");
    }
    for u in &strength.units {
        let mut line = String::new();
        for (i, p) in u.parts.iter().enumerate() {
            let sep = if i == 0 { "" } else { " " };
            if i == 0 {
                let _ = write!(line, "{} ({})", p.points, p.label);
            } else {
                let _ = write!(line, "{sep}{:+} ({})", p.points, p.label);
            }
        }
        let _ = writeln!(s, "  {:<20} {:>3} = {line}", u.card, u.total);
    }
}

/// Violations and warnings as text.
pub fn findings(violations: &[String], warnings: &[String]) -> String {
    let mut s = String::new();
    if violations.is_empty() {
        let _ = writeln!(s, "Violations: none");
    } else {
        let _ = writeln!(s, "Violations ({}):", violations.len());
        for v in violations {
            let _ = writeln!(s, "  - {v}");
        }
    }
    if warnings.is_empty() {
        let _ = writeln!(s, "Warnings: none");
    } else {
        let _ = writeln!(s, "Warnings ({}):", warnings.len());
        for w in warnings {
            let _ = writeln!(s, "  - {w}");
        }
    }
    s
}

/// The catalogue as a table, names in `lang`, then the cities and what is unconfirmed.
pub fn catalogue(catalogue: &Catalogue, lang: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:<22} {:<8} {:<9} {:>2} {:>8}  name",
        "id", "side", "kind", "n", "strength"
    );
    for c in catalogue.cards() {
        let strength = match (c.strength, c.confirmed) {
            (Some(v), true) => v.to_string(),
            (Some(v), false) => format!("{v}?"),
            (None, true) => "-".to_string(),
            (None, false) => "?".to_string(),
        };
        let _ = writeln!(
            s,
            "{:<22} {:<8} {:<9} {:>2} {:>8}  {}",
            c.id,
            c.side.as_str(),
            c.kind.as_str(),
            c.count,
            strength,
            c.names.get(lang)
        );
    }
    let _ = writeln!(
        s,
        "\n{:<18} {:>6} {:>7} {:>9}  district effects",
        "city", "moloch", "outpost", "districts"
    );
    for c in catalogue.cities() {
        let mark = |confirmed: bool| if confirmed { "" } else { "?" };
        let effects = if c.effects.is_empty() {
            "?".to_string()
        } else {
            c.effects
                .iter()
                .map(|e| e.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let _ = writeln!(
            s,
            "{:<18} {:>6} {:>7} {:>9}  {}",
            c.id.as_str(),
            format!("{}{}", c.moloch_slots.value, mark(c.moloch_slots.confirmed)),
            format!(
                "{}{}",
                c.outpost_slots.value,
                mark(c.outpost_slots.confirmed)
            ),
            format!("{}{}", c.districts.value, mark(c.districts.confirmed)),
            effects
        );
    }
    let unconfirmed = catalogue.unconfirmed();
    let _ = writeln!(
        s,
        "\n? = not confirmed ({} values). Read them off your cards and put them in a catalogue file:\n  [cards.hacker]\n  strength = 2\n  [cities.iron_gate]\n  moloch_slots = 4\n  effects = [\"kill\", \"bomb\"]",
        unconfirmed.len()
    );
    s
}
