//! Frame sequences of one game for testing the game follower: the table as a fixed
//! camera sees it frame after frame, with camera shake and a hand passing over it
//! ([`super::Renderer::render_sequence`]).

use super::scene::GameState;
use super::seeds;
use super::Scene;
use image::{Rgb, RgbImage};
use rand::Rng;
use tablelens_engine::{Corners, Layout};

/// One frame to render: what lies on the table, and where a hand hides part of it.
#[derive(Debug, Clone, PartialEq)]
pub struct SequenceFrame {
    /// The table.
    pub layout: Layout,
    /// A hand over the table: an ellipse inside this box, in fractions of the image
    /// (x, y, width, height).
    pub hand: Option<[f32; 4]>,
}

impl SequenceFrame {
    /// A frame showing the table in full.
    pub fn table(layout: &Layout) -> SequenceFrame {
        SequenceFrame {
            layout: layout.clone(),
            hand: None,
        }
    }
}

/// The game state the renderer draws for a layout (destroyed-district markers on a
/// city's first districts).
pub fn state_of(layout: &Layout) -> GameState {
    let mut full = layout.clone();
    full.cities = layout.full_cities();
    let mut destroyed_districts: [Vec<u32>; 5] = Default::default();
    for c in &full.cities {
        if !c.destroyed {
            destroyed_districts[c.id.index()] = (1..=c.districts_destroyed.min(4)).collect();
        }
    }
    GameState {
        layout: full,
        destroyed_districts,
    }
}

fn shift(c: &mut Corners, dx: f32, dy: f32) {
    for p in c.iter_mut() {
        p[0] += dx;
        p[1] += dy;
    }
}

fn centre(c: &Corners) -> (f32, f32) {
    (
        c.iter().map(|p| p[0]).sum::<f32>() / 4.0,
        c.iter().map(|p| p[1]).sum::<f32>() / 4.0,
    )
}

/// Shifts a rendered frame by a few pixels (its truth too) and paints the frame's hand,
/// dropping from the truth the cards whose centre it covers.
pub fn shake_and_hand(
    mut scene: Scene,
    frame: &SequenceFrame,
    seed: u64,
    index: u64,
    i: u64,
    jitter: f32,
) -> Scene {
    let r = &mut seeds::rng(&[seed, index, i, seeds::hash_str("shake")]);
    let j = jitter.abs().min(64.0).round() as i64;
    let (dx, dy) = if j > 0 {
        (r.gen_range(-j..=j), r.gen_range(-j..=j))
    } else {
        (0, 0)
    };
    let (w, h) = scene.image.dimensions();
    let src = scene.image.clone();
    scene.image = RgbImage::from_fn(w, h, |x, y| {
        let sx = (i64::from(x) - dx).clamp(0, i64::from(w) - 1) as u32;
        let sy = (i64::from(y) - dy).clamp(0, i64::from(h) - 1) as u32;
        *src.get_pixel(sx, sy)
    });
    let (fx, fy) = (dx as f32, dy as f32);
    let t = &mut scene.truth;
    for c in &mut t.cities {
        if let Some(q) = &mut c.corners {
            shift(q, fx, fy);
        }
        for m in &mut c.markers {
            if let Some(q) = &mut m.corners {
                shift(q, fx, fy);
            }
        }
        for u in c.moloch.iter_mut().chain(c.outpost.iter_mut()) {
            if let Some(q) = &mut u.corners {
                shift(q, fx, fy);
            }
            if let Some(b) = &mut u.bbox {
                b[0] += fx;
                b[1] += fy;
            }
            if let Some(m) = &mut u.module {
                if let Some(q) = &mut m.corners {
                    shift(q, fx, fy);
                }
            }
            for q in &mut u.token_corners {
                shift(q, fx, fy);
            }
        }
    }

    let Some([hx, hy, hw, hh]) = frame.hand else {
        return scene;
    };
    let (wf, hf) = (w as f32, h as f32);
    let (cx, cy) = ((hx + hw * 0.5) * wf, (hy + hh * 0.5) * hf);
    let (rx, ry) = ((hw * 0.5 * wf).max(1.0), (hh * 0.5 * hf).max(1.0));
    let inside = |x: f32, y: f32| ((x - cx) / rx).powi(2) + ((y - cy) / ry).powi(2) <= 1.0;
    for y in 0..h {
        for x in 0..w {
            let (xf, yf) = (x as f32, y as f32);
            if inside(xf, yf) {
                let shade = 1.0 - 0.25 * (((xf - cx) / rx).powi(2) + ((yf - cy) / ry).powi(2));
                let px = [224.0 * shade, 172.0 * shade, 140.0 * shade];
                scene
                    .image
                    .put_pixel(x, y, Rgb(px.map(|v| v.clamp(0.0, 255.0) as u8)));
            }
        }
    }
    let covered = |q: &Option<Corners>| {
        q.as_ref().is_some_and(|q| {
            let (x, y) = centre(q);
            inside(x, y)
        })
    };
    t.cities.retain(|c| !covered(&c.corners));
    for c in &mut t.cities {
        c.moloch.retain(|u| !covered(&u.corners));
        c.outpost.retain(|u| !covered(&u.corners));
    }
    scene
}
