//! Writes the training data of the strip finder (see `models/README.md`): for every unit of
//! rendered scenes, windows over its right edge cut from rough corners, and where its
//! module's strip lies in each (beside a unit with no module, where a strip of the nominal
//! width would lie at its true edge), and whether a module is there at all.
//!
//! ```sh
//! cargo run --release -p tablelens-vision --example make_strip_dataset -- DIR [SCENES] [TRAIN_STYLES]
//! ```
//!
//! The rough corners are of two kinds: those tablelens itself finds (the detector, then the
//! corner refiner), and the true ones moved as the refiner gets them wrong. The last tenth
//! of the scenes use held-out face styles; `strip_holdout.json` says how many windows they
//! gave (the last ones), which training only scores. `strip_present.npy` holds 1 for a
//! window beside a unit with a module tucked under it, else 0.

mod common;

use common::{roughen, Scenes, Spread};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tablelens_engine::{Catalogue, Corners};
use tablelens_vision::npy;
use tablelens_vision::perceive::strips::{nominal_strip, WINDOW};
use tablelens_vision::perceive::{par, Detector, PieceClass, Refiner, DETECTOR_ONNX, REFINER_ONNX};
use tablelens_vision::render::Renderer;

fn main() {
    common::main_of("make_strip_dataset", run);
}

fn run() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let set = Scenes::from_args(
        &mut args,
        "usage: make_strip_dataset DIR [SCENES] [TRAIN_STYLES]",
        400,
    )?;
    let (out, scenes) = (&set.out, set.count);
    let cat = Catalogue::bundled();
    let jobs: Vec<u64> = (0..scenes).collect();
    let work = |ids: &[u64]| -> Result<_, String> {
        let mut renderer = Renderer::new(&cat);
        let detector = Detector::load(DETECTOR_ONNX).map_err(|e| e.to_string())?;
        let refiner = Refiner::load(REFINER_ONNX).map_err(|e| e.to_string())?;
        let mut windows = Vec::new();
        let mut targets = Vec::new();
        let mut present = Vec::new();
        let mut held = 0usize;
        for &i in ids {
            let scene = renderer.render(0x57e1, i, &set.options(i));
            let mut rng = ChaCha8Rng::seed_from_u64(i ^ 0x57e1);
            let found: Vec<Corners> = detector
                .detect(&scene.image)
                .map_err(|e| e.to_string())?
                .into_iter()
                .filter(|d| d.class == PieceClass::Card)
                .map(|d| d.corners)
                .collect();
            let found = refiner
                .refine(&scene.image, &found)
                .map_err(|e| e.to_string())?;
            for c in &scene.truth.cities {
                for u in c.moloch.iter().chain(&c.outpost) {
                    let Some(card) = u.corners else {
                        continue;
                    };
                    let strip = match u.module.as_ref().and_then(|m| m.corners) {
                        Some(s) => s,
                        None => match nominal_strip(&card) {
                            Some(s) => s,
                            None => continue,
                        },
                    };
                    let mut roughs: Vec<Corners> = Vec::new();
                    roughs.extend(as_found(&card, &found));
                    // A strip is rarer than a unit alone: more windows of those that have one.
                    let synthetic = if u.module.is_some() { 3 } else { 1 };
                    roughs.extend((0..synthetic).map(|_| roughen(&card, &mut rng, &SPREAD)));
                    for rough in roughs {
                        if let Some(t) = WINDOW.target(&rough, &strip) {
                            windows.push(WINDOW.image(&scene.image, &rough));
                            targets.extend(t);
                            present.push(if u.module.is_some() { 1.0 } else { 0.0 });
                            if set.held_out(i) {
                                held += 1;
                            }
                        }
                    }
                }
            }
        }
        Ok((windows, targets, present, held))
    };
    let (mut windows, mut targets, mut present, mut held) = (Vec::new(), Vec::new(), Vec::new(), 0);
    for r in par::shares(&jobs, 1, work) {
        let (w, t, p, h) = r?;
        windows.extend(w);
        targets.extend(t);
        present.extend(p);
        held += h;
    }
    npy::write_images(&out.join("strip_images.npy"), &windows)?;
    npy::write_f32(&out.join("strip_targets.npy"), &targets, 8)?;
    npy::write_f32(&out.join("strip_present.npy"), &present, 1)?;
    std::fs::write(out.join("strip_holdout.json"), format!("{held}")).map_err(|e| e.to_string())?;
    eprintln!(
        "{} windows from {scenes} scenes ({} held out)",
        windows.len(),
        held
    );
    Ok(())
}

fn dist(a: [f32; 2], b: [f32; 2]) -> f32 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
}

/// The refined corners tablelens found for this card, turned to match its printed top-left
/// as identification would (`None` when it was not found).
fn as_found(truth: &Corners, found: &[Corners]) -> Option<Corners> {
    let centre = |c: &Corners| {
        [
            c.iter().map(|p| p[0]).sum::<f32>() / 4.0,
            c.iter().map(|p| p[1]).sum::<f32>() / 4.0,
        ]
    };
    let width = dist(truth[0], truth[1]);
    let f = found
        .iter()
        .min_by(|a, b| dist(centre(a), centre(truth)).total_cmp(&dist(centre(b), centre(truth))))?;
    if dist(centre(f), centre(truth)) > 0.25 * width {
        return None;
    }
    let turned = [f[2], f[3], f[0], f[1]];
    let error = |c: &Corners| c.iter().zip(truth).map(|(a, b)| dist(*a, *b)).sum::<f32>();
    Some(if error(&turned) < error(f) {
        turned
    } else {
        *f
    })
}

/// How far the corner refiner leaves corners off: a few percent, three times in ten twice
/// as far.
const SPREAD: Spread = Spread {
    shift: 0.04,
    scale: 0.04,
    angle: 0.04,
    corner: 0.025,
    big_share: 0.3,
};
