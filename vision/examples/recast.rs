//! Copies a set of rendered scenes under a strongly coloured (or a dimmer or brighter)
//! light, to see how the vision holds up to a camera's white balance or a lamp further off
//! than the renderer's own
//! (`white_balance` in `render/effects.rs` moves red and blue by up to 15% and green by up
//! to 5%; a tungsten bulb or an uncorrected phone camera may move them by a third).
//!
//! ```sh
//! cargo run --release -p tablelens-vision --example recast -- SRC DST [SEED] [WARM] [TINT] [EXPOSURE]
//! ```
//!
//! Each `NNNN.png` of SRC is written to DST with its red channel multiplied by `1 + w` and
//! its blue by `1 - w`, where `w` is drawn between WARM / 2 and WARM hundredths (default 35)
//! either way, and its green by `1 + t`, `t` drawn within TINT hundredths (default 12)
//! either way; then every channel by EXPOSURE hundredths (default 100; the renderer's own
//! exposure lies from 75 to 125). Its truth `NNNN.json` is copied beside it. Then
//! `tablelens eval --scenes DST`.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::{Path, PathBuf};

mod common;

use common::number;

fn main() {
    common::main_of("recast", run);
}

fn run() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: recast SRC DST [SEED] [WARM] [TINT] [EXPOSURE]";
    let src = PathBuf::from(args.next().ok_or(usage)?);
    let dst = PathBuf::from(args.next().ok_or(usage)?);
    let seed: u64 = number(args.next(), 7, "SEED")?;
    let warm = number::<f32>(args.next(), 35.0, "WARM")? / 100.0;
    let tint = number::<f32>(args.next(), 12.0, "TINT")? / 100.0;
    let exposure = number::<f32>(args.next(), 100.0, "EXPOSURE")? / 100.0;
    if !(0.0..1.0).contains(&warm) || !(0.0..1.0).contains(&tint) {
        return Err("WARM and TINT must lie from 0 to 99".into());
    }
    if !(0.01..=10.0).contains(&exposure) {
        return Err("EXPOSURE must lie from 1 to 1000".into());
    }
    std::fs::create_dir_all(&dst).map_err(|e| format!("{}: {e}", dst.display()))?;
    let mut scenes: Vec<PathBuf> = std::fs::read_dir(&src)
        .map_err(|e| format!("{}: {e}", src.display()))?
        .filter_map(|entry| Some(entry.ok()?.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "png"))
        .collect();
    if scenes.is_empty() {
        return Err(format!("{}: no .png scenes", src.display()));
    }
    scenes.sort();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for png in &scenes {
        let sign = if rng.gen_bool(0.5) { 1.0 } else { -1.0 };
        let w = sign * rng.gen_range(warm / 2.0..=warm);
        let t = rng.gen_range(-tint..=tint);
        recast(png, &dst, [1.0 + w, 1.0 + t, 1.0 - w].map(|g| g * exposure))?;
    }
    println!("{} scenes recast into {}", scenes.len(), dst.display());
    Ok(())
}

/// Writes `png` under a light of `gains` into `dst`, with its truth beside it.
fn recast(png: &Path, dst: &Path, gains: [f32; 3]) -> Result<(), String> {
    let name = png.file_name().ok_or("a scene without a name")?;
    let mut img = image::open(png)
        .map_err(|e| format!("{}: {e}", png.display()))?
        .to_rgb8();
    for p in img.pixels_mut() {
        for (v, gain) in p.0.iter_mut().zip(gains) {
            *v = (f32::from(*v) * gain).round().clamp(0.0, 255.0) as u8;
        }
    }
    let out = dst.join(name);
    img.save(&out)
        .map_err(|e| format!("{}: {e}", out.display()))?;
    let truth = png.with_extension("json");
    let copy = dst.join(name).with_extension("json");
    std::fs::copy(&truth, &copy).map_err(|e| format!("{}: {e}", truth.display()))?;
    Ok(())
}
