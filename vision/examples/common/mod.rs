//! What the training-data examples share: running and reporting failure, reading numeric
//! arguments, and moving true card corners as a network upstream gets them wrong. Not every
//! example uses every part.
#![allow(dead_code)]

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use tablelens_engine::Corners;

/// Runs an example's body; on failure prints `name: error` and exits with status 1.
pub fn main_of(name: &str, run: fn() -> Result<(), String>) {
    if let Err(e) = run() {
        eprintln!("{name}: {e}");
        std::process::exit(1);
    }
}

/// A numeric argument, or its default when absent.
pub fn number<T: std::str::FromStr>(
    arg: Option<String>,
    default: T,
    name: &str,
) -> Result<T, String> {
    arg.map_or(Ok(default), |s| s.parse())
        .map_err(|_| format!("{name} is not a number"))
}

/// How far [`roughen`] moves corners, each as a share of the card's mean side (the angle in
/// radians): up to these amounts, and `big_share` of the time twice as far.
pub struct Spread {
    /// Shift of the whole quad, each way.
    pub shift: f32,
    /// Change of size.
    pub scale: f32,
    /// Turn.
    pub angle: f32,
    /// Further move of each corner on its own, each way.
    pub corner: f32,
    /// Share of quads moved twice as far.
    pub big_share: f64,
}

/// The true corners as a network upstream might give them: shifted, resized, turned a
/// little, and each corner moved on its own, by amounts in proportion to the card.
pub fn roughen(truth: &Corners, rng: &mut ChaCha8Rng, spread: &Spread) -> Corners {
    let cx = truth.iter().map(|p| p[0]).sum::<f32>() / 4.0;
    let cy = truth.iter().map(|p| p[1]).sum::<f32>() / 4.0;
    let side = (0..4)
        .map(|i| {
            let (a, b) = (truth[i], truth[(i + 1) % 4]);
            ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
        })
        .sum::<f32>()
        / 4.0;
    let k = if rng.gen_bool(spread.big_share) {
        2.0
    } else {
        1.0
    };
    let shift = [
        rng.gen_range(-spread.shift..spread.shift) * side * k,
        rng.gen_range(-spread.shift..spread.shift) * side * k,
    ];
    let scale = 1.0 + rng.gen_range(-spread.scale..spread.scale) * k;
    let angle = rng.gen_range(-spread.angle..spread.angle) * k;
    let (s, c) = angle.sin_cos();
    let mut out = *truth;
    for p in out.iter_mut() {
        let (dx, dy) = ((p[0] - cx) * scale, (p[1] - cy) * scale);
        p[0] =
            cx + dx * c - dy * s + shift[0] + rng.gen_range(-spread.corner..spread.corner) * side;
        p[1] =
            cy + dx * s + dy * c + shift[1] + rng.gen_range(-spread.corner..spread.corner) * side;
    }
    out
}
