//! Writes the training data of the token finder (see `models/README.md`): every card of
//! rendered scenes, rectified as tablelens rectifies a detected card, with the centres of
//! the tokens and markers lying on it.
//!
//! ```sh
//! cargo run --release -p tablelens-vision --example make_token_dataset -- DIR [SCENES] [TRAIN_STYLES] [JITTER] [STACKED] [FIRST_SCENE] [GROW] [SIZES]
//! ```
//!
//! Each card's corners are moved by up to JITTER hundredths of its width (default 4), as a
//! detector's and refiner's corners err. Each card's quad is then grown about its centre by
//! up to GROW hundredths (default 0): data for a finder that looks at each card once, from
//! its quad grown a little, to see a token across its edge (tried and not kept: see
//! `models/tokens.md`). STACKED (0 to 1, default 0) is the chance that a unit's tokens or
//! a city's markers lie partly over one another (`SceneOptions::stacked`).
//! FIRST_SCENE (default 0) starts the scenes further on, for a set unlike those already made.
//! SIZES (default `1920x1080`) lists the frame sizes the scenes are drawn at, in turn, as
//! `WIDTHxHEIGHT` joined by commas: smaller frames for a finder that sees cards a few dozen
//! pixels wide, as a webcam gives them.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tablelens_engine::{Catalogue, Corners};
use tablelens_vision::npy;
use tablelens_vision::perceive::assemble::{centre, scaled};
use tablelens_vision::perceive::par;
use tablelens_vision::perceive::resample::{rectify, unit_square_to_quad};
use tablelens_vision::perceive::tokens::{CARD_CROP_H, CARD_CROP_W};
use tablelens_vision::render::{parse_size, Renderer, SceneOptions, HELD_OUT_STYLES_FROM};

mod common;

use common::{number, Scenes};

fn main() {
    common::main_of("make_token_dataset", run);
}

fn run() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let set = Scenes::from_args(
        &mut args,
        "usage: make_token_dataset DIR [SCENES] [TRAIN_STYLES] [JITTER] [STACKED] [FIRST_SCENE] [GROW] [SIZES]",
        300,
    )?;
    let jitter = number::<f32>(args.next(), 4.0, "JITTER")? / 100.0;
    let stacked = number::<f64>(args.next(), 0.0, "STACKED")?;
    let first: u64 = number(args.next(), 0, "FIRST_SCENE")?;
    let grow = number::<f32>(args.next(), 0.0, "GROW")? / 100.0;
    let sizes = sizes(&args.next().unwrap_or_else(|| "1920x1080".into()))?;
    let (out, scenes, holdout) = (&set.out, set.count, set.holdout);
    let cat = Catalogue::bundled();
    let jobs: Vec<u64> = (0..scenes).collect();
    let work = |ids: &[u64]| {
        let mut renderer = Renderer::new(&cat);
        let mut crops = Vec::new();
        let mut points = Vec::new();
        for &i in ids {
            let (width, height) = sizes[(i as usize) % sizes.len()];
            let options = SceneOptions {
                stacked,
                width,
                height,
                ..set.options(i)
            };
            let scene = renderer.render(0x70c3, first + i, &options);
            let mut rng = ChaCha8Rng::seed_from_u64(first + i);
            for c in &scene.truth.cities {
                let smalls: Vec<Corners> = c.markers.iter().filter_map(|m| m.corners).collect();
                if let Some(k) = c.corners {
                    push(
                        &scene.image,
                        &k,
                        &smalls,
                        (jitter, grow),
                        &mut rng,
                        &mut crops,
                        &mut points,
                    );
                }
                for u in c.moloch.iter().chain(&c.outpost) {
                    if let Some(k) = u.corners {
                        push(
                            &scene.image,
                            &k,
                            &u.token_corners,
                            (jitter, grow),
                            &mut rng,
                            &mut crops,
                            &mut points,
                        );
                    }
                }
            }
        }
        (crops, points)
    };
    let (mut crops, mut points) = (Vec::new(), Vec::new());
    for (c, p) in par::shares(&jobs, 1, work) {
        crops.extend(c);
        points.extend(p);
    }
    npy::write_images(&out.join("tok_images.npy"), &crops)?;
    std::fs::write(
        out.join("tok_points.json"),
        serde_json::to_string(&points).unwrap_or_default(),
    )
    .map_err(|e| e.to_string())?;
    std::fs::write(out.join("tok_holdout.json"), format!("{}", holdout))
        .map_err(|e| e.to_string())?;
    eprintln!(
        "{} card crops from {scenes} scenes ({} tokens and markers)",
        crops.len(),
        points
            .iter()
            .map(|p: &Vec<[f32; 2]>| p.len())
            .sum::<usize>()
    );
    let _ = HELD_OUT_STYLES_FROM;
    Ok(())
}

/// The frame sizes of a SIZES argument: sizes as `render --size` takes them
/// ([`parse_size`]) joined by commas.
fn sizes(arg: &str) -> Result<Vec<(u32, u32)>, String> {
    arg.split(',')
        .map(|size| parse_size(size).map_err(|e| format!("SIZES: {e}")))
        .collect()
}

/// Rectifies one card (each corner moved by up to `jitter` of its width, as a detector's
/// would be, then the quad grown about its centre by up to `grow`) and maps the centres of
/// the pieces on it into the crop.
fn push(
    img: &image::RgbImage,
    card: &Corners,
    smalls: &[Corners],
    (jitter, grow): (f32, f32),
    rng: &mut ChaCha8Rng,
    crops: &mut Vec<image::RgbImage>,
    points: &mut Vec<Vec<[f32; 2]>>,
) {
    let side = ((card[0][0] - card[1][0]).powi(2) + (card[0][1] - card[1][1]).powi(2)).sqrt();
    let j = jitter * side;
    let mut k = *card;
    for p in k.iter_mut() {
        p[0] += rng.gen_range(-j..=j);
        p[1] += rng.gen_range(-j..=j);
    }
    if grow > 0.0 {
        k = scaled(&k, 1.0 + rng.gen_range(0.0..=grow));
    }
    let Some(m) = unit_square_to_quad(&k) else {
        return;
    };
    let Some(inv) = tablelens_vision::perceive::resample::invert(&m) else {
        return;
    };
    let mut pts = Vec::new();
    for s in smalls {
        let [cx, cy] = centre(s);
        let (u, v) =
            tablelens_vision::perceive::resample::apply(&inv, f64::from(cx), f64::from(cy));
        if (0.0..1.0).contains(&u) && (0.0..1.0).contains(&v) {
            pts.push([u as f32 * CARD_CROP_W as f32, v as f32 * CARD_CROP_H as f32]);
        }
    }
    crops.push(rectify(img, &k, CARD_CROP_W, CARD_CROP_H));
    points.push(pts);
}
