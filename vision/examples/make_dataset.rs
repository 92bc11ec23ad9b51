//! Writes the training data of the vision models from rendered scenes (see
//! `models/README.md`). The crops and resized frames are made by the same code that
//! tablelens runs at the table, so training sees exactly what inference sees.
//!
//! ```sh
//! cargo run --release -p tablelens-vision --example make_dataset -- DIR [TRAIN_STYLES] [EVAL_STYLES] [SCENES_PER_STYLE] [DETECTOR_SCENES] [FIRST_SCENE] [JITTER_PERCENT]
//! ```
//!
//! SCENES_PER_STYLE 0 skips the embedder's data; FIRST_SCENE starts the scenes further on,
//! for more scenes unlike the ones already made. JITTER_PERCENT (default 3) is how far, in
//! hundredths of a card's shorter side, each corner of a card (or of the robot a strip is
//! cut beside) may be moved before the crop, as the detector and refiner err.

use image::RgbImage;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::io::Write;
use std::path::PathBuf;
use tablelens_engine::Catalogue;
use tablelens_vision::npy;
use tablelens_vision::perceive::detect::{letterbox, PieceClass};
use tablelens_vision::perceive::eval::truth_pieces;
use tablelens_vision::perceive::identify::{class_of, crop, face_crop, CROP_H, CROP_W};
use tablelens_vision::perceive::par;
use tablelens_vision::perceive::strips::nominal_strip;
use tablelens_vision::render::{face, Renderer, SceneOptions, HELD_OUT_STYLES_FROM};

fn main() {
    if let Err(e) = run() {
        eprintln!("make_dataset: {e}");
        std::process::exit(1);
    }
}

fn arg(i: usize, default: u64) -> Result<u64, String> {
    match std::env::args().nth(i) {
        None => Ok(default),
        Some(s) => s
            .parse()
            .map_err(|_| format!("argument {i}: `{s}` is not a number")),
    }
}

/// Crops and their labels from each core's share, joined in order.
fn joined(parts: Vec<(Vec<RgbImage>, Vec<i32>)>) -> (Vec<RgbImage>, Vec<i32>) {
    let mut crops = Vec::new();
    let mut labels = Vec::new();
    for (c, l) in parts {
        crops.extend(c);
        labels.extend(l);
    }
    (crops, labels)
}

fn run() -> Result<(), String> {
    let out = PathBuf::from(
        std::env::args()
            .nth(1)
            .ok_or("usage: make_dataset DIR [...]")?,
    );
    let train_styles = arg(2, 40)?;
    let eval_styles = arg(3, 8)?;
    let per_style = arg(4, 5)?;
    let det_scenes = arg(5, 1200)?;
    let first_scene = arg(6, 0)?;
    let jitter = arg(7, 3)? as f32 / 100.0;
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let cat = Catalogue::bundled();
    let comps = cat.component_ids();
    let styles: Vec<u64> = (1..=train_styles)
        .chain(HELD_OUT_STYLES_FROM..HELD_OUT_STYLES_FROM + eval_styles)
        .collect();
    let eval: Vec<u64> = styles
        .iter()
        .copied()
        .filter(|&s| s >= HELD_OUT_STYLES_FROM)
        .collect();
    // Styles are stored as small indices: position in `styles`.
    let style_index = |s: u64| styles.iter().position(|&x| x == s).unwrap_or(0) as i32;

    // Components and their crop kinds.
    let mut f = std::fs::File::create(out.join("components.json")).map_err(|e| e.to_string())?;
    let list: Vec<serde_json::Value> = comps
        .iter()
        .map(|id| {
            let kind = match class_of(&cat, id) {
                PieceClass::Card => "card",
                PieceClass::Strip => "strip",
                PieceClass::Small => "small",
            };
            serde_json::json!({"id": id, "crop": kind})
        })
        .collect();
    writeln!(f, "{}", serde_json::Value::Array(list)).map_err(|e| e.to_string())?;
    let eval_idx: Vec<i32> = eval.iter().map(|&s| style_index(s)).collect();
    std::fs::write(
        out.join("eval_styles.json"),
        serde_json::to_string(&eval_idx).unwrap_or_default(),
    )
    .map_err(|e| e.to_string())?;

    // Embedder data (skipped when SCENES_PER_STYLE is 0).
    if per_style > 0 {
        // Gallery: every component of every style, cropped as enrolment crops it.
        // The cores share the styles.
        let per_style_faces = par::map(&styles, |&s| {
            let mut crops = Vec::new();
            let mut labels = Vec::new();
            for (ci, id) in comps.iter().enumerate() {
                let Some(img) = face(&cat, id, s) else {
                    continue;
                };
                crops.push(face_crop(&img, class_of(&cat, id)));
                labels.extend([style_index(s), ci as i32]);
            }
            (crops, labels)
        });
        let (gallery, glabels) = joined(per_style_faces);
        npy::write_images(&out.join("emb_gallery.npy"), &gallery)?;
        npy::write_i32(&out.join("emb_glabels.npy"), &glabels, 2)?;
        eprintln!("gallery: {} faces", gallery.len());

        // Queries: pieces cut out of scenes of one style each, by their true corners, jittered
        // as a detector's would be. The cores share the scenes.
        let jobs: Vec<(u64, u64)> = styles
            .iter()
            .flat_map(|&s| (0..per_style).map(move |k| (s, k)))
            .collect();
        let results = par::map(&jobs, |&(s, k)| {
            let mut renderer = Renderer::new(&cat);
            let options = SceneOptions {
                style_pool: vec![s],
                mixed_styles: 0.0,
                ..SceneOptions::default()
            };
            let scene = renderer.render(0x5eed ^ s, first_scene + k, &options);
            let mut rng = ChaCha8Rng::seed_from_u64(s * 1000 + k);
            let mut crops = Vec::new();
            let mut labels = Vec::new();
            for t in truth_pieces(&scene.truth) {
                // Strips are cut below, from their robot, as tablelens cuts them.
                if t.class == PieceClass::Strip {
                    continue;
                }
                let Some(ci) = comps.iter().position(|c| *c == t.id) else {
                    continue;
                };
                let c = match t.class {
                    PieceClass::Small => token_jitter(&mut rng, &t.corners),
                    _ => corner_jitter(&mut rng, &t.corners, jitter),
                };
                crops.push(crop(&scene.image, t.class, &c));
                labels.extend([style_index(s), ci as i32]);
            }
            // A module's strip: where tablelens looks for it, beside its robot's
            // (imprecisely found) printed right edge, whatever the module's true shift.
            for city in &scene.truth.cities {
                for unit in city.moloch.iter().chain(&city.outpost) {
                    let (Some(m), Some(k)) = (&unit.module, unit.corners) else {
                        continue;
                    };
                    let Some(ci) = comps.iter().position(|c| *c == m.card) else {
                        continue;
                    };
                    let Some(q) = nominal_strip(&corner_jitter(&mut rng, &k, jitter)) else {
                        continue;
                    };
                    crops.push(crop(&scene.image, PieceClass::Strip, &q));
                    labels.extend([style_index(s), ci as i32]);
                }
            }
            (crops, labels)
        });
        let (queries, qlabels) = joined(results);
        npy::write_images(&out.join("emb_queries.npy"), &queries)?;
        npy::write_i32(&out.join("emb_qlabels.npy"), &qlabels, 2)?;
        eprintln!(
            "queries: {} crops from {} scenes",
            queries.len(),
            jobs.len()
        );
    }

    // Detector frames: training styles, the last 100 on held-out styles.
    let holdout = 100.min(det_scenes);
    let idx: Vec<u64> = (0..det_scenes).collect();
    let frames = par::map(&idx, |&i| {
        let mut renderer = Renderer::new(&cat);
        let options = if i >= det_scenes - holdout {
            SceneOptions::held_out(eval_styles.max(1))
        } else {
            SceneOptions::training(train_styles)
        };
        let scene = renderer.render(0xde7ec7, first_scene + i, &options);
        let (input, lb) = letterbox(&scene.image);
        let pieces: Vec<serde_json::Value> = truth_pieces(&scene.truth)
            .into_iter()
            .map(|t| {
                let corners: Vec<[f32; 2]> = t.corners.iter().map(|&p| lb.to_input(p)).collect();
                serde_json::json!({"class": t.class.index(), "corners": corners})
            })
            .collect();
        (input, serde_json::Value::Array(pieces))
    });
    let (images, pieces): (Vec<RgbImage>, Vec<serde_json::Value>) = frames.into_iter().unzip();
    npy::write_images(&out.join("det_images.npy"), &images)?;
    std::fs::write(
        out.join("det_pieces.json"),
        serde_json::Value::Array(pieces).to_string(),
    )
    .map_err(|e| e.to_string())?;
    eprintln!("detector: {} frames", images.len());
    let _ = (CROP_W, CROP_H);
    Ok(())
}

/// Each corner moved by up to `share` of the piece's shorter side, as a detector's are.
fn corner_jitter(rng: &mut ChaCha8Rng, c: &[[f32; 2]; 4], share: f32) -> [[f32; 2]; 4] {
    let j = share * side_of(c);
    c.map(|p| [p[0] + rng.gen_range(-j..=j), p[1] + rng.gen_range(-j..=j)])
}

/// A small piece's square as the token finder gives it: its centre off by up to a tenth of
/// its size, its size off by up to a tenth, and a little corner noise.
fn token_jitter(rng: &mut ChaCha8Rng, c: &[[f32; 2]; 4]) -> [[f32; 2]; 4] {
    let side = side_of(c);
    let cx = c.iter().map(|p| p[0]).sum::<f32>() / 4.0;
    let cy = c.iter().map(|p| p[1]).sum::<f32>() / 4.0;
    let (dx, dy) = (
        rng.gen_range(-0.1..=0.1) * side,
        rng.gen_range(-0.1..=0.1) * side,
    );
    let k = rng.gen_range(0.9..=1.1);
    let moved = c.map(|p| [cx + dx + (p[0] - cx) * k, cy + dy + (p[1] - cy) * k]);
    corner_jitter(rng, &moved, 0.02)
}

fn side_of(c: &[[f32; 2]; 4]) -> f32 {
    (0..4)
        .map(|i| {
            ((c[i][0] - c[(i + 1) % 4][0]).powi(2) + (c[i][1] - c[(i + 1) % 4][1]).powi(2)).sqrt()
        })
        .fold(f32::INFINITY, f32::min)
}
