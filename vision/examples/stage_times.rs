//! Where the time of an analysis goes: the crowded table of the speed target (40 cards,
//! far off and set up for play; `tablelens_vision::render::crowded`) analysed again and
//! again, and the median of each stage printed (`StageTimes`). The criterion benchmark
//! (`vision/benches/analyze.rs`) gives the whole analysis; this says which stage to work
//! on. `TABLELENS_THREADS=1` gives the one-core figures. It also prints how many times each
//! network ran on a frame (`NetworkRuns`): the analysis's work, which unlike its time is
//! the same however busy the machine is. Then each step of the analysis in order
//! (`Analysis::steps`): its median time and the network runs it made, by network.
//!
//! Usage: `cargo run --release -p tablelens-vision --example stage_times [ROUNDS]`
//! (30 rounds by default).

use tablelens_engine::Catalogue;
use tablelens_vision::perceive::identify::gallery_of;
use tablelens_vision::perceive::{
    embedder_fingerprint, Analyzer, Embedder, NetworkRuns, StageTimes, Step,
};
use tablelens_vision::render::all_faces;
use tablelens_vision::render::crowded::{cards_in_view, crowded_table, narrowest_unit};

/// How to read one stage's time off an analysis's times.
type Stage = fn(&StageTimes) -> f64;

/// The stages printed, with their names.
const STAGES: [(&str, Stage); 10] = [
    ("whole analysis", StageTimes::total_ms),
    ("detect", |t| t.detect_ms),
    ("refine", |t| t.refine_ms),
    ("identify", |t| t.identify_ms),
    ("  first look", |t| t.first_look_ms),
    ("  second look", |t| t.second_look_ms),
    ("  on the cards", |t| t.on_cards_ms),
    ("  naming by place and the rest", |t| {
        t.identify_ms - t.first_look_ms - t.second_look_ms - t.on_cards_ms
    }),
    ("assemble", |t| t.assemble_ms),
    ("first pass of a frame analysed again", |t| t.first_pass_ms),
];

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rounds: usize = match std::env::args().nth(1) {
        Some(n) => n.parse().map_err(|e| format!("rounds {n:?}: {e}"))?,
        None => 30,
    };
    let cat = Catalogue::bundled();
    let embedder = Embedder::builtin()?;
    let gallery = gallery_of(&cat, &embedder, &embedder_fingerprint(), all_faces(&cat, 0))?;
    let analyzer = Analyzer::new(gallery)?;
    let table = crowded_table(&cat).ok_or("no camera shows the crowded table for play")?;
    for (name, scene) in [("far off", &table.far), ("set up for play", &table.near)] {
        let mut times = Vec::with_capacity(rounds);
        let mut pieces = 0;
        let mut runs = NetworkRuns::default();
        let mut steps: Vec<Vec<Step>> = Vec::with_capacity(rounds);
        for _ in 0..rounds.max(1) {
            let before = analyzer.network_runs();
            let analysis = analyzer.analyze(&cat, &scene.image)?;
            runs = analyzer.network_runs().since(&before);
            pieces = analysis.pieces.len();
            times.push(analysis.times);
            steps.push(analysis.steps);
        }
        println!(
            "{name}: 40 cards, {} in view, units from {:.0} px wide; {pieces} pieces found; \
             medians of {} rounds (ms):",
            cards_in_view(scene),
            narrowest_unit(scene),
            times.len()
        );
        for (stage, of) in STAGES {
            println!(
                "  {stage:32} {:8.2}",
                median(times.iter().map(of).collect())
            );
        }
        println!(
            "  network runs on the frame: {} ({})",
            runs.total(),
            by_network(&runs, |_| true)
        );
        print_steps(&steps);
    }
    Ok(())
}

/// Each step of the analysis with its median time over the rounds (`steps`, one list a
/// round) and the network runs of its last round.
fn print_steps(steps: &[Vec<Step>]) {
    let Some(last) = steps.last() else {
        return;
    };
    println!("  step by step (ms; network runs):");
    for (k, step) in last.iter().enumerate() {
        let ms = median(
            steps
                .iter()
                .filter_map(|round| round.get(k))
                .filter(|s| s.name == step.name)
                .map(|s| s.ms)
                .collect(),
        );
        println!(
            "    {:28} {ms:8.2} {:4} {}",
            step.name,
            step.runs.total(),
            by_network(&step.runs, |n| n > 0)
        );
    }
}

/// Each network with its runs, those whose count `shown` keeps: "refiner 20, embedder 10".
fn by_network(runs: &NetworkRuns, shown: impl Fn(usize) -> bool) -> String {
    [
        ("detector", runs.detector),
        ("refiner", runs.refiner),
        ("embedder", runs.embedder),
        ("token embedder", runs.token_embedder),
        ("token finder", runs.tokens),
        ("strip finder", runs.strips),
    ]
    .iter()
    .filter(|(_, n)| shown(*n))
    .map(|(name, n)| format!("{name} {n}"))
    .collect::<Vec<_>>()
    .join(", ")
}
