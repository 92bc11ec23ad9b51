//! Writes the training data of the corner refiner (see `models/README.md`): for every card
//! of rendered scenes, windows cut around rough corners (the true ones moved, turned,
//! resized and bent as a detector gets them wrong) and where the true corners lie in each.
//!
//! ```sh
//! cargo run --release -p tablelens-vision --example make_refine_dataset -- DIR [SCENES] [TRAIN_STYLES] [WINDOWS_PER_CARD]
//! ```
//!
//! The last tenth of the scenes use held-out face styles; `ref_holdout.json` says how many
//! windows they gave (the last ones), which training only scores.

mod common;

use common::{number, roughen, Scenes, Spread};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tablelens_engine::{Catalogue, Corners};
use tablelens_vision::npy;
use tablelens_vision::perceive::par;
use tablelens_vision::perceive::refine::WINDOW;
use tablelens_vision::render::Renderer;

fn main() {
    common::main_of("make_refine_dataset", run);
}

fn run() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let set = Scenes::from_args(
        &mut args,
        "usage: make_refine_dataset DIR [SCENES] [TRAIN_STYLES] [WINDOWS_PER_CARD]",
        300,
    )?;
    let per_card = number::<u64>(args.next(), 3, "WINDOWS_PER_CARD")? as usize;
    let (out, scenes) = (&set.out, set.count);
    let cat = Catalogue::bundled();
    let jobs: Vec<u64> = (0..scenes).collect();
    let work = |ids: &[u64]| {
        let mut renderer = Renderer::new(&cat);
        let mut windows = Vec::new();
        let mut targets = Vec::new();
        let mut held = 0usize;
        for &i in ids {
            let scene = renderer.render(0x5ef1, i, &set.options(i));
            let mut rng = ChaCha8Rng::seed_from_u64(i ^ 0x5ef1);
            let mut cards: Vec<Corners> = Vec::new();
            for c in &scene.truth.cities {
                cards.extend(c.corners);
                for u in c.moloch.iter().chain(&c.outpost) {
                    cards.extend(u.corners);
                }
            }
            for card in &cards {
                for _ in 0..per_card {
                    let mut truth = *card;
                    if rng.gen_bool(0.5) {
                        truth.rotate_left(2);
                    }
                    let rough = roughen(&truth, &mut rng, &SPREAD);
                    if let Some(t) = WINDOW.target(&rough, &truth) {
                        windows.push(WINDOW.image(&scene.image, &rough));
                        targets.extend(t);
                        if set.held_out(i) {
                            held += 1;
                        }
                    }
                }
            }
        }
        (windows, targets, held)
    };
    let (mut windows, mut targets, mut held) = (Vec::new(), Vec::new(), 0);
    for (w, t, h) in par::shares(&jobs, 1, work) {
        windows.extend(w);
        targets.extend(t);
        held += h;
    }
    npy::write_images(&out.join("ref_images.npy"), &windows)?;
    npy::write_f32(&out.join("ref_targets.npy"), &targets, 8)?;
    std::fs::write(out.join("ref_holdout.json"), format!("{held}")).map_err(|e| e.to_string())?;
    eprintln!(
        "{} windows from {scenes} scenes ({} held out)",
        windows.len(),
        held
    );
    Ok(())
}

/// How far a detector gets corners wrong: mostly a little, a quarter of the time twice as
/// far.
const SPREAD: Spread = Spread {
    shift: 0.08,
    scale: 0.1,
    angle: 0.12,
    corner: 0.05,
    big_share: 0.25,
};
