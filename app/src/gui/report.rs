//! Saving what is on screen: a screenshot (PNG) and a battle report (Markdown), both into
//! `<data dir>/captures/` under a name with the time.

use super::i18n::{city_name, component_name, tr, Lang};
use std::fmt::Write;
use std::path::{Path, PathBuf};
use tablelens_engine::{BattleResult, Catalogue, Reason, Winner};

/// The folder captures go to (created on demand).
pub fn captures_dir(data_dir: Option<&Path>) -> PathBuf {
    data_dir
        .map(|d| d.join("captures"))
        .unwrap_or_else(|| PathBuf::from("tablelens-captures"))
}

/// A file name stamped with the seconds since 1970 (sorts by time, needs no clock crate).
pub fn stamped(dir: &Path, what: &str, ext: &str) -> PathBuf {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis())
        .unwrap_or(0);
    dir.join(format!("{what}-{secs}.{ext}"))
}

/// Writes text, creating the folder; the error names the file.
pub fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Saves an egui screenshot as PNG.
pub fn save_png(path: &Path, image: &eframe::egui::ColorImage) -> Result<(), String> {
    let [w, h] = image.size;
    let mut rgb = Vec::with_capacity(w * h * 3);
    for p in &image.pixels {
        rgb.extend_from_slice(&[p.r(), p.g(), p.b()]);
    }
    let img = image::RgbImage::from_raw(w as u32, h as u32, rgb)
        .ok_or_else(|| "screenshot: bad size".to_string())?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    img.save(path)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The verdict in one line.
pub fn verdict(lang: Lang, r: &BattleResult) -> String {
    verdict_of(lang, r.winner, r.reason, r.moloch.total, r.outpost.total)
}

/// The verdict in one line, from the winner, the reason and the totals (Moloch's `m`,
/// Outpost's `o`).
pub fn verdict_of(lang: Lang, winner: Winner, reason: Reason, m: i32, o: i32) -> String {
    match (winner, reason) {
        (Winner::Moloch, Reason::Stormtrooper) => format!(
            "{} {} {m}:{o}",
            tr(lang, "moloch"),
            tr(lang, "wins_tie_stormtrooper")
        ),
        (Winner::Moloch, _) => format!("{} {} {m}:{o}", tr(lang, "moloch"), tr(lang, "wins")),
        (Winner::Outpost, _) => format!("{} {} {o}:{m}", tr(lang, "outpost"), tr(lang, "wins")),
        (Winner::Draw, _) => format!("{} {m}:{o}", tr(lang, "draw")),
        (Winner::None, _) => tr(lang, "no_winner").to_string(),
    }
}

/// One part's label for people: a card id becomes its name.
pub fn part_label(cat: &Catalogue, lang: Lang, label: &str) -> String {
    if cat.card(label).is_some() {
        component_name(cat, lang, label)
    } else {
        label.to_string()
    }
}

/// The battle as Markdown: totals, every unit's points, the outcome, consequences,
/// violations and warnings, and any corrections the player made.
pub fn battle_markdown(
    cat: &Catalogue,
    lang: Lang,
    r: &BattleResult,
    unidentified: usize,
    corrections: usize,
) -> String {
    let mut s = String::new();
    let city = city_name(cat, lang, r.city);
    let _ = writeln!(s, "# {city}\n");
    let _ = writeln!(s, "**{}**\n", verdict(lang, r));
    for (side, st) in [("moloch", &r.moloch), ("outpost", &r.outpost)] {
        let _ = writeln!(s, "## {} — {}\n", tr(lang, side), st.total);
        if st.units.is_empty() {
            let _ = writeln!(s, "_{}_\n", tr(lang, "no_units"));
            continue;
        }
        let _ = writeln!(s, "| | | |\n|---|---:|---|");
        for u in &st.units {
            let parts: Vec<String> = u
                .parts
                .iter()
                .map(|p| format!("{:+} {}", p.points, part_label(cat, lang, &p.label)))
                .collect();
            let _ = writeln!(
                s,
                "| {} | {} | {} |",
                component_name(cat, lang, &u.card),
                u.total,
                parts.join(", ")
            );
        }
        s.push('\n');
    }
    let _ = writeln!(s, "## {}\n", tr(lang, "consequences"));
    for (i, c) in r.consequences.iter().enumerate() {
        let _ = writeln!(s, "{}. {c}", i + 1);
    }
    for (key, list) in [("violations", &r.violations), ("warnings", &r.warnings)] {
        let _ = writeln!(s, "\n## {}\n", tr(lang, key));
        if list.is_empty() {
            let _ = writeln!(s, "{}", tr(lang, "none"));
        }
        for v in list {
            let _ = writeln!(s, "- {v}");
        }
    }
    if unidentified > 0 {
        let _ = writeln!(s, "- {unidentified} {}", tr(lang, "unidentified"));
    }
    if corrections > 0 {
        let _ = writeln!(s, "\n{}: {corrections}", tr(lang, "corrections"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use tablelens_engine::{battle, Layout};

    #[test]
    fn the_report_names_the_city_the_units_and_the_verdict() {
        let cat = Catalogue::bundled();
        let text = include_str!("../../data/example_table.json");
        let layout = Layout::from_json(text, &cat).unwrap();
        let r = battle(&cat, &layout).unwrap();
        let md = battle_markdown(&cat, Lang::En, &r, 2, 1);
        assert!(md.starts_with("# Iron Gate"), "{md}");
        assert!(md.contains("| Hornet |"));
        assert!(md.contains(&verdict(Lang::En, &r)));
        assert!(md.contains("2 pieces not identified"));
        let dir = tempfile::tempdir().unwrap();
        let p = stamped(&dir.path().join("c"), "battle", "md");
        write(&p, md.as_bytes()).unwrap();
        assert!(p.is_file());
    }
}
