//! `tablelens eval --scenes DIR --gallery GALLERY [--json]`: accuracy and time of each
//! vision stage against the truth of rendered scenes.

use super::{analyzer, print_json};
use crate::cli::EvalArgs;
use crate::error::CliError;
use tablelens_engine::{Catalogue, Layout};
use tablelens_vision::perceive::conditions::Band;
use tablelens_vision::perceive::eval::{report, score};

/// Scores every `NNNN.png` in the folder against its `NNNN.json`.
pub fn run(catalogue: &Catalogue, args: &EvalArgs) -> Result<(), CliError> {
    let analyzer = analyzer(catalogue, &args.gallery)?;
    let dir = &args.scenes;
    let mut pngs: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| CliError::BadInput(format!("cannot read {}: {e}", dir.display())))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "png") && p.with_extension("json").is_file())
        .collect();
    pngs.sort();
    if pngs.is_empty() {
        return Err(CliError::BadInput(format!(
            "{}: no scenes (NNNN.png with NNNN.json)",
            dir.display()
        )));
    }
    let mut scores = Vec::new();
    let mut times = Vec::new();
    for png in &pngs {
        let frame = tablelens_vision::photo::open(png)
            .map_err(|e| CliError::BadInput(format!("{}: {e}", png.display())))?
            .to_rgb8();
        let json = png.with_extension("json");
        let text = std::fs::read_to_string(&json)
            .map_err(|e| CliError::BadInput(format!("{}: {e}", json.display())))?;
        let truth = Layout::from_json(&text, catalogue)
            .map_err(|e| CliError::BadInput(format!("{}: {e}", json.display())))?;
        let analysis = analyzer
            .analyze(catalogue, &frame)
            .map_err(|e| CliError::Failure(format!("{}: {e}", png.display())))?;
        scores.push(score(&analysis, &truth));
        times.push(analysis.times);
    }
    let names: Vec<String> = pngs
        .iter()
        .map(|p| {
            p.file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
        })
        .collect();
    let r = report(&scores, &times, &names);
    if args.json {
        return print_json(&r);
    }
    outln!("{} scenes from {}", r.scenes, dir.display())?;
    outln!("\ndetection and identification, per piece class:")?;
    outln!(
        "  {:<6} {:>7} {:>8} {:>10} {:>9} {:>7}",
        "class",
        "truth",
        "recall",
        "precision",
        "top-1",
        "wrong"
    )?;
    for (k, c) in &r.detection {
        outln!(
            "  {:<6} {:>7} {:>7.1}% {:>9.1}% {:>8.1}% {:>6.1}%",
            k,
            c.truth,
            100.0 * c.recall,
            100.0 * c.precision,
            100.0 * c.identity_top1,
            100.0 * c.named_wrong
        )?;
    }
    outln!(
        "\nidentity top-1 (all matched pieces): {:.1}%",
        100.0 * r.identity_top1
    )?;
    outln!(
        "units in the right city and side:    {:.1}%",
        100.0 * r.unit_placement
    )?;
    outln!(
        "modules under the right unit:         {:.1}%",
        100.0 * r.module_accuracy
    )?;
    outln!(
        "tokens on the right unit:             {:.1}%",
        100.0 * r.token_accuracy
    )?;
    outln!(
        "city state right:                     {:.1}%",
        100.0 * r.city_state_accuracy
    )?;
    outln!(
        "whole layout exactly right:           {:.1}% of scenes",
        100.0 * r.layout_exact
    )?;
    if r.by_condition
        .iter()
        .any(|c| c.bands.iter().any(|b| b.scenes > 0))
    {
        outln!("\nwhole layout exactly right, by how the scenes were seen (from the truth):")?;
        for c in &r.by_condition {
            let bands: Vec<String> = c.bands.iter().map(band).collect();
            outln!(
                "  {:<15} {}",
                c.condition.replace('_', " "),
                bands.join("  ")
            )?;
        }
    }
    let c = &r.close_calls;
    outln!(
        "\nlayouts that list a piece read by a narrow margin or not identified, or a card missing from a column: {} of {} not exactly right, {} of {} exactly right",
        c.not_exact_flagged, c.not_exact, c.exact_flagged, c.exact
    )?;
    outln!(
        "  pieces read by a narrow margin: {} of {} named wrong, {} of {} named right",
        c.named_wrong_doubted,
        c.named_wrong,
        c.named_right_doubted,
        c.named_right
    )?;
    outln!(
        "\nmedian time per frame: detect {:.1} ms, refine {:.1} ms, identify {:.1} ms, assemble {:.2} ms, total {:.1} ms",
        r.median_ms.detect_ms,
        r.median_ms.refine_ms,
        r.median_ms.identify_ms,
        r.median_ms.assemble_ms,
        r.median_total_ms
    )?;
    outln!(
        "  of identify: first look {:.1} ms, second look {:.1} ms, strips and tokens on the cards {:.1} ms",
        r.median_ms.first_look_ms, r.median_ms.second_look_ms, r.median_ms.on_cards_ms
    )?;
    if r.relit > 0 {
        outln!(
            "  {} of {} scenes lit too far from the enrolled light (colour or brightness) were analysed again with the light taken out",
            r.relit, r.scenes
        )?;
    }
    if !r.faults.is_empty() {
        outln!("\nwhat kept layouts from being exact (scenes with it / with it alone):")?;
        for f in &r.faults {
            outln!("  {:>4} / {:>4}  {}", f.scenes, f.alone, f.fault.name())?;
        }
    }
    if !r.confusions.is_empty() {
        outln!("\nmost frequent errors (truth -> seen):")?;
        for (c, n) in &r.confusions {
            outln!("  {n:>4}  {c}")?;
        }
    }
    if !r.not_exact.is_empty() {
        outln!("\nscenes not exactly right:")?;
        for s in &r.not_exact {
            let faults: Vec<&str> = s.faults.iter().map(|f| f.name()).collect();
            let mut line = format!("  {}: {}", s.scene, faults.join(", "));
            if !s.confusions.is_empty() {
                line += &format!(" ({})", s.confusions.join("; "));
            }
            outln!("{line}")?;
        }
    }
    Ok(())
}

/// A band of a condition as the report prints it: `100-120: 230/262`.
fn band(b: &Band) -> String {
    let range = match b.to {
        Some(to) => format!("{}-{}", b.from, to),
        None => format!(">={}", b.from),
    };
    format!("{range}: {}/{}", b.exact, b.scenes)
}
