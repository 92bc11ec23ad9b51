//! The followed game in the side panel: what needs the player's attention (a token that
//! vanished from a card, with a one-click restore; a +1 token due) and the battle log.
//! The panel only draws [`FollowState`]; what the player asks for comes back as a
//! [`GameAction`] for the app to carry out.

use super::follow::{FollowState, LoggedBattle, When};
use super::i18n::{city_name, component_name, tr, trf, Lang};
use super::panels::{MOLOCH, OUTPOST, WARN};
use super::report::verdict_of;
use eframe::egui::{self, RichText};
use tablelens_engine::{Catalogue, Token, Winner};

/// What the player asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameAction {
    /// Put a vanished token back on its card.
    Restore {
        /// The card's piece id.
        piece: u64,
        /// The token.
        token: Token,
    },
    /// Stop reminding of the +1 due to this card.
    Dismiss(u64),
    /// Follow a new game.
    NewGame,
}

/// When something happened: the step of a sequence, else the frame and how long ago.
pub fn when_text(lang: Lang, w: &When) -> String {
    if let Some(n) = w.step {
        return trf(lang, "at_step", &[("n", &n.to_string())]);
    }
    let frame = trf(lang, "at_frame", &[("n", &w.frame.to_string())]);
    match w.at.map(|t| t.elapsed().as_secs()) {
        Some(s) if s < 120 => format!("{frame}, {}", trf(lang, "ago_s", &[("n", &s.to_string())])),
        Some(s) => format!(
            "{frame}, {}",
            trf(lang, "ago_min", &[("n", &(s / 60).to_string())])
        ),
        None => frame,
    }
}

/// Tokens missing and bonuses due, in a highlighted box; nothing when there are none.
pub fn alerts(
    ui: &mut egui::Ui,
    cat: &Catalogue,
    lang: Lang,
    state: &FollowState,
) -> Option<GameAction> {
    if state.missing.is_empty() && state.bonus.is_empty() {
        return None;
    }
    let mut action = None;
    egui::Frame::group(ui.style())
        .stroke(egui::Stroke::new(1.5, WARN))
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.label(RichText::new(tr(lang, "alerts")).strong().color(WARN));
            for m in &state.missing {
                let text = trf(
                    lang,
                    "token_missing",
                    &[
                        ("card", &component_name(cat, lang, &m.card)),
                        ("city", &city_name(cat, lang, m.city)),
                        ("token", m.token.as_str()),
                    ],
                );
                ui.horizontal(|ui| {
                    if ui
                        .button(tr(lang, "restore"))
                        .on_hover_text(tr(lang, "restore_hint"))
                        .clicked()
                    {
                        action = Some(GameAction::Restore {
                            piece: m.piece,
                            token: m.token,
                        });
                    }
                    ui.vertical(|ui| {
                        ui.label(RichText::new(text).color(WARN));
                        let since = when_text(lang, &m.since);
                        ui.label(
                            RichText::new(trf(lang, "missing_since", &[("when", &since)]))
                                .small()
                                .weak(),
                        );
                    });
                });
            }
            for b in &state.bonus {
                let text = trf(
                    lang,
                    "bonus_due",
                    &[
                        ("card", &component_name(cat, lang, &b.card)),
                        ("city", &city_name(cat, lang, b.city)),
                    ],
                );
                ui.horizontal(|ui| {
                    if ui
                        .button(tr(lang, "dismiss"))
                        .on_hover_text(tr(lang, "dismiss_hint"))
                        .clicked()
                    {
                        action = Some(GameAction::Dismiss(b.piece));
                    }
                    ui.vertical(|ui| {
                        ui.label(RichText::new(text).color(WARN));
                        let when = when_text(lang, &b.when);
                        ui.label(
                            RichText::new(trf(lang, "seen_at", &[("when", &when)]))
                                .small()
                                .weak(),
                        );
                    });
                });
            }
        });
    action
}

/// Every battle resolved in this game, in order, with a button to start a new game.
pub fn battle_log(
    ui: &mut egui::Ui,
    cat: &Catalogue,
    lang: Lang,
    state: &FollowState,
) -> Option<GameAction> {
    let mut action = None;
    ui.horizontal(|ui| {
        ui.heading(tr(lang, "battle_log"));
        if ui
            .small_button(tr(lang, "new_game"))
            .on_hover_text(tr(lang, "new_game_hint"))
            .clicked()
        {
            action = Some(GameAction::NewGame);
        }
    });
    if state.battles.is_empty() {
        let key = if state.confirmed {
            "no_battles"
        } else {
            "following"
        };
        ui.label(RichText::new(tr(lang, key)).weak());
    }
    for (i, b) in state.battles.iter().enumerate() {
        battle_entry(ui, cat, lang, i + 1, b);
    }
    if let Some(p) = &state.journal {
        let mut note = trf(lang, "journal_note", &[("path", &p.display().to_string())]);
        if state.resumed {
            note = format!("{note} ({})", tr(lang, "resumed"));
        }
        ui.label(RichText::new(note).small().weak());
    }
    action
}

fn battle_entry(ui: &mut egui::Ui, cat: &Catalogue, lang: Lang, n: usize, b: &LoggedBattle) {
    let colour = match b.winner {
        Winner::Moloch => MOLOCH,
        Winner::Outpost => OUTPOST,
        Winner::Draw | Winner::None => WARN,
    };
    ui.add_space(4.0);
    ui.label(
        RichText::new(format!(
            "{n}. {} — {}",
            city_name(cat, lang, b.city),
            verdict_of(lang, b.winner, b.reason, b.moloch, b.outpost)
        ))
        .strong()
        .color(colour),
    );
    ui.label(RichText::new(when_text(lang, &b.when)).small().weak());
    for c in &b.consequences {
        ui.label(RichText::new(format!("• {c}")).small());
    }
}
