//! The side panel's parts: each city's totals, the battle's outcome and consequences, every
//! unit's points with why, and what is wrong or uncertain on the table.

use super::i18n::{city_name, component_name, tr, Lang};
use super::report::{part_label, verdict};
use super::view::{CityTotals, View};
use eframe::egui::{self, Color32, RichText};
use tablelens_engine::{BattleResult, Catalogue, Corners, Side, SideStrength, Winner};

/// Moloch's colour.
pub const MOLOCH: Color32 = Color32::from_rgb(230, 80, 70);
/// Outpost's colour.
pub const OUTPOST: Color32 = Color32::from_rgb(90, 200, 110);
/// Colour of warnings.
pub const WARN: Color32 = Color32::from_rgb(240, 190, 60);

/// A side's colour.
pub fn side_colour(side: Side) -> Color32 {
    match side {
        Side::Moloch => MOLOCH,
        Side::Outpost => OUTPOST,
    }
}

/// The five cities, one row each: name, Moloch's total, Outpost's total.
pub fn cities(ui: &mut egui::Ui, cat: &Catalogue, lang: Lang, cities: &[CityTotals]) {
    ui.heading(tr(lang, "cities"));
    egui::Grid::new("city_totals")
        .num_columns(3)
        .spacing([12.0, 4.0])
        .show(ui, |ui| {
            for c in cities {
                let mut name = RichText::new(city_name(cat, lang, c.id));
                if c.active {
                    name = name.strong().color(Color32::WHITE);
                } else if c.destroyed || !c.seen {
                    name = name.weak();
                }
                ui.label(name);
                if c.destroyed {
                    ui.label(RichText::new(tr(lang, "destroyed")).weak().italics());
                    ui.label("");
                } else {
                    ui.label(
                        RichText::new(format!("{} {}", tr(lang, "moloch"), c.moloch))
                            .color(MOLOCH)
                            .strong(),
                    );
                    ui.label(
                        RichText::new(format!("{} {}", tr(lang, "outpost"), c.outpost))
                            .color(OUTPOST)
                            .strong(),
                    );
                }
                if c.active {
                    ui.label(RichText::new(format!("<- {}", tr(lang, "active"))).color(WARN));
                }
                ui.end_row();
            }
        });
}

/// The outcome: who wins, then the consequences in order.
pub fn outcome(ui: &mut egui::Ui, cat: &Catalogue, lang: Lang, r: &BattleResult) {
    let colour = match r.winner {
        Winner::Moloch => MOLOCH,
        Winner::Outpost => OUTPOST,
        Winner::Draw | Winner::None => WARN,
    };
    ui.label(
        RichText::new(city_name(cat, lang, r.city))
            .heading()
            .strong(),
    );
    ui.label(
        RichText::new(verdict(lang, r))
            .size(22.0)
            .strong()
            .color(colour),
    );
    ui.add_space(4.0);
    ui.label(RichText::new(tr(lang, "consequences")).strong());
    for (i, c) in r.consequences.iter().enumerate() {
        ui.label(format!("{}. {c}", i + 1));
    }
}

/// Every unit's points, part by part. Returns the unit clicked (side, index in its city).
pub fn breakdown(
    ui: &mut egui::Ui,
    cat: &Catalogue,
    lang: Lang,
    r: &BattleResult,
) -> Option<(Side, usize)> {
    let mut clicked = None;
    ui.label(RichText::new(tr(lang, "breakdown")).strong());
    for (side, st) in [(Side::Moloch, &r.moloch), (Side::Outpost, &r.outpost)] {
        if let Some(i) = side_units(ui, cat, lang, side, st) {
            clicked = Some((side, i));
        }
    }
    clicked
}

fn side_units(
    ui: &mut egui::Ui,
    cat: &Catalogue,
    lang: Lang,
    side: Side,
    st: &SideStrength,
) -> Option<usize> {
    let key = match side {
        Side::Moloch => "moloch",
        Side::Outpost => "outpost",
    };
    let mut clicked = None;
    ui.label(
        RichText::new(format!("{} — {}", tr(lang, key), st.total))
            .color(side_colour(side))
            .strong(),
    );
    if st.units.is_empty() {
        ui.label(RichText::new(tr(lang, "no_units")).weak());
    }
    egui::Grid::new(("units", key))
        .num_columns(3)
        .striped(true)
        .show(ui, |ui| {
            for (i, u) in st.units.iter().enumerate() {
                let name = component_name(cat, lang, &u.card);
                if ui.link(name).on_hover_text(tr(lang, "correct")).clicked() {
                    clicked = Some(i);
                }
                ui.label(RichText::new(u.total.to_string()).strong());
                let parts: Vec<String> = u
                    .parts
                    .iter()
                    .map(|p| format!("{:+} {}", p.points, part_label(cat, lang, &p.label)))
                    .collect();
                ui.label(RichText::new(parts.join(", ")).small());
                ui.end_row();
            }
        });
    clicked
}

/// Violations and warnings, and how many pieces were not identified; a link to each place
/// where a card may lie unread (`Layout::missing`). Returns the place clicked.
pub fn findings(ui: &mut egui::Ui, cat: &Catalogue, lang: Lang, view: &View) -> Option<Corners> {
    let (violations, warnings): (&[String], &[String]) = match &view.battle {
        Some(Ok(r)) => (&r.violations, &r.warnings),
        _ => (&[], &[]),
    };
    let unknown = view.layout.unknown.len();
    ui.label(
        RichText::new(format!("{} ({})", tr(lang, "violations"), violations.len()))
            .strong()
            .color(if violations.is_empty() {
                ui.visuals().text_color()
            } else {
                MOLOCH
            }),
    );
    for v in violations {
        ui.label(RichText::new(format!("• {v}")).color(MOLOCH));
    }
    ui.label(RichText::new(format!("{} ({})", tr(lang, "warnings"), warnings.len())).strong());
    // The engine warns about unidentified pieces itself; without a battle, say it here.
    if unknown > 0 && view.battle.is_none() {
        ui.label(RichText::new(format!("• {unknown} {}", tr(lang, "unidentified"))).color(WARN));
    }
    for w in warnings {
        ui.label(RichText::new(format!("• {w}")).color(WARN));
    }
    if warnings.iter().any(|w| w.contains("confirm")) {
        ui.label(RichText::new(tr(lang, "unconfirmed_hint")).small().weak());
    }
    let mut clicked = None;
    for m in &view.layout.missing {
        let Some(corners) = m.corners else { continue };
        let side = match m.side {
            Side::Moloch => tr(lang, "moloch"),
            Side::Outpost => tr(lang, "outpost"),
        };
        let text = format!(
            "{} ({side}): {}",
            city_name(cat, lang, m.city),
            tr(lang, "name_missing")
        );
        if ui.link(text).clicked() {
            clicked = Some(corners);
        }
    }
    clicked
}
