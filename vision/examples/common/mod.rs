//! What the training-data examples share: running and reporting failure, reading numeric
//! arguments and the rendered scenes to draw, and moving true card corners as a network
//! upstream gets them wrong. Not every example uses every part.
#![allow(dead_code)]

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::path::PathBuf;
use tablelens_engine::Corners;
use tablelens_vision::render::SceneOptions;

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

/// The scenes an example draws its data from, as its first arguments give them: `DIR
/// [SCENES] [TRAIN_STYLES]`. The last tenth of the scenes (at least one) are drawn in
/// held-out face styles and only scored.
pub struct Scenes {
    /// The folder written to (made when read).
    pub out: PathBuf,
    /// How many scenes.
    pub count: u64,
    /// How many face styles the training scenes are drawn from.
    pub styles: u64,
    /// How many of the last scenes are held out.
    pub holdout: u64,
}

impl Scenes {
    /// Reads the folder, the scene count (`scenes` when absent) and the training styles (40
    /// when absent) from `args`, and makes the folder; `usage` is the error without one.
    pub fn from_args(
        args: &mut impl Iterator<Item = String>,
        usage: &str,
        scenes: u64,
    ) -> Result<Scenes, String> {
        let out = PathBuf::from(args.next().ok_or(usage)?);
        let count: u64 = number(args.next(), scenes, "SCENES")?;
        let styles: u64 = number(args.next(), 40, "TRAIN_STYLES")?;
        std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
        Ok(Scenes {
            out,
            count,
            styles,
            holdout: (count / 10).max(1),
        })
    }

    /// Whether scene `i` is one of the held-out last ones.
    pub fn held_out(&self, i: u64) -> bool {
        i >= self.count.saturating_sub(self.holdout)
    }

    /// How scene `i` is drawn: in one of 8 held-out face styles, or of the training ones.
    pub fn options(&self, i: u64) -> SceneOptions {
        if self.held_out(i) {
            SceneOptions::held_out(8)
        } else {
            SceneOptions::training(self.styles)
        }
    }
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
