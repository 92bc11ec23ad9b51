//! Photometric effects applied to the composed photo: light gradients, cast shadows, glare,
//! vignetting, defocus and depth of field, motion blur, white balance, tone, sensor noise,
//! JPEG artefacts. Each effect draws its own strength (and whether it applies at all) from
//! its own random stream, so adding one to [`EFFECTS`] is one line and changes no other.

use super::camera::Camera;
use super::draw::{luma, Rgb};
use super::jpeg;
use super::raster::{fill_polygon, Canvas};
use super::seeds::FastRng;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// The scene's light, shared by shadows and effects.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Light {
    /// Direction shadows fall in the image (unit vector).
    pub dir: (f64, f64),
    /// Shadow length per mm of height, in mm (1 / tan of the light's elevation).
    pub reach: f64,
    /// Shadow edge softness (pixels).
    pub soft: f32,
    /// Shadow darkness at the core (0..1).
    pub depth: f32,
}

impl Light {
    /// Draws a random light.
    pub fn random(r: &mut ChaCha8Rng) -> Light {
        let a: f64 = r.gen_range(0.0..std::f64::consts::TAU);
        Light {
            dir: (a.cos(), a.sin()),
            reach: r.gen_range(0.2..1.4),
            soft: r.gen_range(1.2..5.0),
            depth: r.gen_range(0.12..0.45),
        }
    }
}

/// What an effect may know about the scene.
#[derive(Debug, Clone, Copy)]
pub struct Ctx<'a> {
    /// The camera.
    pub cam: &'a Camera,
    /// The light.
    pub light: &'a Light,
}

/// An effect: changes the canvas, drawing its parameters from its own stream.
pub type EffectFn = fn(&mut Canvas, &Ctx, &mut ChaCha8Rng);

/// Every effect, by name, in the order applied.
pub const EFFECTS: &[(&str, EffectFn)] = &[
    ("light_gradient", light_gradient),
    ("cast_shadow", cast_shadow),
    ("glare", glare),
    ("vignette", vignette),
    ("depth_of_field", depth_of_field),
    ("defocus", defocus),
    ("motion_blur", motion_blur),
    ("white_balance", white_balance),
    ("tone", tone),
    ("sensor_noise", sensor_noise),
    ("jpeg", jpeg_artefacts),
];

fn light_gradient(c: &mut Canvas, ctx: &Ctx, r: &mut ChaCha8Rng) {
    if !r.gen_bool(0.85) {
        return;
    }
    let (w, h) = (c.w as f32, c.h as f32);
    let diag = (w * w + h * h).sqrt();
    // Light comes from against the shadow direction.
    let (dx, dy) = (-ctx.light.dir.0 as f32, -ctx.light.dir.1 as f32);
    let slope = r.gen_range(0.05..0.45);
    let spot = (r.gen_range(-0.2..1.2) * w, r.gen_range(-0.2..1.2) * h);
    let spot_r = r.gen_range(0.4..1.2) * diag;
    let spot_k = r.gen_range(0.0..0.35);
    let base = r.gen_range(0.85..1.1);
    let warm = r.gen_range(-0.06..0.06);
    for py in 0..c.h {
        let y = py as f32;
        for px in 0..c.w {
            let x = px as f32;
            let lin = ((x - w * 0.5) * dx + (y - h * 0.5) * dy) / diag;
            let d2 = ((x - spot.0).powi(2) + (y - spot.1).powi(2)) / (spot_r * spot_r);
            let k = base + slope * lin + spot_k * (1.0 - d2.min(1.0));
            let p = &mut c.px[py * c.w + px];
            p[0] *= k * (1.0 + warm);
            p[1] *= k;
            p[2] *= k * (1.0 - warm);
        }
    }
}

fn cast_shadow(c: &mut Canvas, _ctx: &Ctx, r: &mut ChaCha8Rng) {
    if !r.gen_bool(0.3) {
        return;
    }
    // A large soft shadow (a person, a phone, a lamp arm) drawn at low resolution.
    let s = 4;
    let mut mask = Canvas::new(c.w / s + 1, c.h / s + 1);
    let (mw, mh) = (mask.w as f64, mask.h as f64);
    let cx = r.gen_range(-0.2..1.2) * mw;
    let cy = r.gen_range(-0.2..1.2) * mh;
    let n = r.gen_range(3..7);
    let rad = r.gen_range(0.2..0.6) * mw.max(mh);
    let pts: Vec<(f64, f64)> = (0..n)
        .map(|i| {
            let a = std::f64::consts::TAU * f64::from(i) / f64::from(n) + r.gen_range(-0.3..0.3);
            let rr = rad * r.gen_range(0.5..1.3);
            (cx + rr * a.cos(), cy + rr * a.sin())
        })
        .collect();
    fill_polygon(&mut mask, &pts, [1.0; 3], 1.0);
    box_blur(&mut mask, r.gen_range(2..12), 2);
    let depth = r.gen_range(0.12..0.45);
    for py in 0..c.h {
        for px in 0..c.w {
            let m = sample_mask(&mask, px as f32 / s as f32, py as f32 / s as f32);
            let k = 1.0 - depth * m;
            let p = &mut c.px[py * c.w + px];
            p[0] *= k;
            p[1] *= k;
            p[2] *= k * 1.02;
        }
    }
}

fn sample_mask(m: &Canvas, x: f32, y: f32) -> f32 {
    let x0 = (x as usize).min(m.w - 1);
    let y0 = (y as usize).min(m.h - 1);
    let x1 = (x0 + 1).min(m.w - 1);
    let y1 = (y0 + 1).min(m.h - 1);
    let (tx, ty) = (x - x0 as f32, y - y0 as f32);
    let a = m.px[y0 * m.w + x0][0];
    let b = m.px[y0 * m.w + x1][0];
    let cc = m.px[y1 * m.w + x0][0];
    let d = m.px[y1 * m.w + x1][0];
    let top = a + (b - a) * tx;
    let bot = cc + (d - cc) * tx;
    top + (bot - top) * ty
}

fn glare(c: &mut Canvas, _ctx: &Ctx, r: &mut ChaCha8Rng) {
    if !r.gen_bool(0.45) {
        return;
    }
    let (w, h) = (c.w as f32, c.h as f32);
    for _ in 0..r.gen_range(1..4) {
        let cx = r.gen_range(0.0..w);
        let cy = r.gen_range(0.0..h);
        let rx = r.gen_range(0.03..0.2) * w;
        let ry = rx * r.gen_range(0.3..1.0);
        let a: f32 = r.gen_range(0.0..std::f32::consts::PI);
        let (sa, ca) = a.sin_cos();
        let strength = r.gen_range(0.15..0.8);
        let tint: Rgb = [1.0, r.gen_range(0.95..1.0), r.gen_range(0.88..1.0)];
        let ext = rx.max(ry) * 2.2;
        let x0 = (cx - ext).max(0.0) as usize;
        let x1 = ((cx + ext).max(0.0) as usize).min(c.w);
        let y0 = (cy - ext).max(0.0) as usize;
        let y1 = ((cy + ext).max(0.0) as usize).min(c.h);
        for py in y0..y1 {
            for px in x0..x1 {
                let (dx, dy) = (px as f32 - cx, py as f32 - cy);
                let u = (dx * ca + dy * sa) / rx;
                let v = (-dx * sa + dy * ca) / ry;
                let d2 = u * u + v * v;
                if d2 > 4.5 {
                    continue;
                }
                let g = strength * (-d2 * 1.5).exp();
                let p = &mut c.px[py * c.w + px];
                // Glare washes the colour out towards the light's tint.
                for i in 0..3 {
                    p[i] += (tint[i] - p[i]) * g;
                }
            }
        }
    }
}

fn vignette(c: &mut Canvas, _ctx: &Ctx, r: &mut ChaCha8Rng) {
    if !r.gen_bool(0.6) {
        return;
    }
    let k = r.gen_range(0.08..0.4);
    let (hw, hh) = (c.w as f32 * 0.5, c.h as f32 * 0.5);
    let inv = 1.0 / (hw * hw + hh * hh);
    for py in 0..c.h {
        let dy = py as f32 - hh;
        for px in 0..c.w {
            let dx = px as f32 - hw;
            let d = (dx * dx + dy * dy) * inv;
            let m = 1.0 - k * d * d.sqrt();
            let p = &mut c.px[py * c.w + px];
            p[0] *= m;
            p[1] *= m;
            p[2] *= m;
        }
    }
}

/// Box radius whose `passes` repetitions approximate a Gaussian of deviation `sigma`.
fn box_radius(sigma: f32, passes: usize) -> usize {
    let r = ((12.0 * sigma * sigma / passes as f32 + 1.0).sqrt() - 1.0) * 0.5;
    r.round().max(0.0) as usize
}

/// Blurs with `passes` box filters of radius `radius` (edges clamped).
pub fn box_blur(c: &mut Canvas, radius: usize, passes: usize) {
    if radius == 0 || c.w == 0 || c.h == 0 {
        return;
    }
    let (w, h) = (c.w, c.h);
    let norm = 1.0 / (2 * radius + 1) as f32;
    let mut line = vec![[0.0f32; 3]; w.max(h)];
    for _ in 0..passes {
        // Rows.
        for y in 0..h {
            let row = &mut c.px[y * w..(y + 1) * w];
            let mut acc = [0.0f32; 3];
            for k in 0..=2 * radius {
                let p = row[k.saturating_sub(radius).min(w - 1)];
                for i in 0..3 {
                    acc[i] += p[i];
                }
            }
            for x in 0..w {
                line[x] = acc.map(|v| v * norm);
                let add = row[(x + radius + 1).min(w - 1)];
                let sub = row[x.saturating_sub(radius)];
                for i in 0..3 {
                    acc[i] += add[i] - sub[i];
                }
            }
            row.copy_from_slice(&line[..w]);
        }
        // Columns, with a row of running sums.
        let src = c.px.clone();
        let mut acc = vec![[0.0f32; 3]; w];
        for k in 0..=2 * radius {
            let yy = k.saturating_sub(radius).min(h - 1);
            for x in 0..w {
                let p = src[yy * w + x];
                for i in 0..3 {
                    acc[x][i] += p[i];
                }
            }
        }
        for y in 0..h {
            let add_y = (y + radius + 1).min(h - 1);
            let sub_y = y.saturating_sub(radius);
            for x in 0..w {
                c.px[y * w + x] = acc[x].map(|v| v * norm);
                let a = src[add_y * w + x];
                let s = src[sub_y * w + x];
                for i in 0..3 {
                    acc[x][i] += a[i] - s[i];
                }
            }
        }
    }
}

fn defocus(c: &mut Canvas, _ctx: &Ctx, r: &mut ChaCha8Rng) {
    if !r.gen_bool(0.35) {
        return;
    }
    let sigma = r.gen_range(0.5..2.2);
    let radius = box_radius(sigma, 3);
    if radius == 0 {
        // A light blur: mix in a one-pixel box.
        let orig = c.px.clone();
        box_blur(c, 1, 1);
        let t = sigma;
        for (p, o) in c.px.iter_mut().zip(orig) {
            for i in 0..3 {
                p[i] = o[i] + (p[i] - o[i]) * t;
            }
        }
    } else {
        box_blur(c, radius, 3);
    }
}

fn depth_of_field(c: &mut Canvas, ctx: &Ctx, r: &mut ChaCha8Rng) {
    if ctx.cam.tilt_deg < 8.0 || !r.gen_bool(0.35) {
        return;
    }
    let Some(inv) = ctx.cam.table().inverse() else {
        return;
    };
    let mut blurred = c.clone();
    box_blur(&mut blurred, r.gen_range(1..4), 2);
    // Focus on a distance inside the picture; blur grows away from it.
    let probe = |x: f64, y: f64| inv.apply(x, y).map(|(tx, ty)| ctx.cam.distance(tx, ty));
    let (w, h) = (c.w as f64, c.h as f64);
    let ds: Vec<f64> = [(0.0, 0.0), (w, 0.0), (0.0, h), (w, h)]
        .iter()
        .filter_map(|&(x, y)| probe(x, y))
        .collect();
    if ds.is_empty() {
        return;
    }
    let near = ds.iter().copied().fold(f64::MAX, f64::min);
    let far = ds.iter().copied().fold(f64::MIN, f64::max);
    let focus = near + (far - near) * r.gen_range(0.2..0.8);
    let range = ((far - near) * r.gen_range(0.3..0.8)).max(1.0);
    // The distance varies slowly: evaluate the blend on a grid of 8-pixel cells.
    let (gw, gh) = (c.w / 8 + 1, c.h / 8 + 1);
    let mut grid = vec![0.0f32; gw * gh];
    for gy in 0..gh {
        for gx in 0..gw {
            let d = probe((gx * 8) as f64 + 4.0, (gy * 8) as f64 + 4.0).unwrap_or(focus);
            grid[gy * gw + gx] = (((d - focus).abs() / range) as f32).min(1.0);
        }
    }
    for py in 0..c.h {
        for px in 0..c.w {
            let t = grid[(py / 8) * gw + px / 8];
            let i = py * c.w + px;
            let b = blurred.px[i];
            let p = &mut c.px[i];
            for k in 0..3 {
                p[k] += (b[k] - p[k]) * t;
            }
        }
    }
}

fn motion_blur(c: &mut Canvas, _ctx: &Ctx, r: &mut ChaCha8Rng) {
    if !r.gen_bool(0.18) {
        return;
    }
    let len = r.gen_range(1.5f32..8.0);
    let a: f32 = r.gen_range(0.0..std::f32::consts::PI);
    let taps = len.ceil() as i32 + 1;
    let offs: Vec<(i64, i64)> = (0..taps)
        .map(|i| {
            let t = (i as f32 / (taps - 1) as f32 - 0.5) * len;
            ((t * a.cos()).round() as i64, (t * a.sin()).round() as i64)
        })
        .collect();
    let src = c.px.clone();
    let (w, h) = (c.w as i64, c.h as i64);
    let norm = 1.0 / taps as f32;
    for py in 0..h {
        for px in 0..w {
            let mut acc = [0.0f32; 3];
            for &(dx, dy) in &offs {
                let x = (px + dx).clamp(0, w - 1);
                let y = (py + dy).clamp(0, h - 1);
                let p = src[(y * w + x) as usize];
                for i in 0..3 {
                    acc[i] += p[i];
                }
            }
            c.px[(py * w + px) as usize] = acc.map(|v| v * norm);
        }
    }
}

fn white_balance(c: &mut Canvas, _ctx: &Ctx, r: &mut ChaCha8Rng) {
    if !r.gen_bool(0.8) {
        return;
    }
    let warm = r.gen_range(-0.15f32..0.15);
    let tint = r.gen_range(-0.05f32..0.05);
    let g = [1.0 + warm, 1.0 + tint, 1.0 - warm];
    for p in &mut c.px {
        for i in 0..3 {
            p[i] *= g[i];
        }
    }
}

fn tone(c: &mut Canvas, _ctx: &Ctx, r: &mut ChaCha8Rng) {
    if !r.gen_bool(0.9) {
        return;
    }
    let exposure = r.gen_range(0.75f32..1.25);
    let contrast = r.gen_range(0.8f32..1.25);
    let gamma = r.gen_range(0.8f32..1.2);
    let sat = r.gen_range(0.65f32..1.3);
    // The tone curve as a table: exposure, contrast, gamma.
    const N: usize = 1024;
    let curve: Vec<f32> = (0..=N)
        .map(|i| {
            let v = i as f32 / N as f32;
            (((v * exposure - 0.5) * contrast + 0.5).clamp(0.0, 1.0)).powf(gamma)
        })
        .collect();
    for p in &mut c.px {
        let l = luma(*p);
        for ch in p.iter_mut() {
            let v = (l + (*ch - l) * sat).clamp(0.0, 1.0) * N as f32;
            let k = (v as usize).min(N - 1);
            let t = v - k as f32;
            *ch = curve[k] + (curve[k + 1] - curve[k]) * t;
        }
    }
}

fn sensor_noise(c: &mut Canvas, _ctx: &Ctx, r: &mut ChaCha8Rng) {
    if !r.gen_bool(0.85) {
        return;
    }
    let sigma = r.gen_range(0.003f32..0.035);
    let chroma = sigma * r.gen_range(0.2..0.7);
    let mut f = FastRng::new(r.gen());
    for p in &mut c.px {
        let l = luma(*p).clamp(0.0, 1.0);
        let n = f.gauss() * sigma * (0.4 + 0.6 * l.sqrt());
        for v in p.iter_mut() {
            *v += n + f.gauss() * chroma;
        }
    }
}

fn jpeg_artefacts(c: &mut Canvas, _ctx: &Ctx, r: &mut ChaCha8Rng) {
    if !r.gen_bool(0.7) {
        return;
    }
    let q = r.gen_range(35..96);
    jpeg::compress(c, q, r.gen_bool(0.8));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_blur_keeps_flat_images_flat_and_spreads_a_point() {
        let mut c = Canvas::new(20, 10);
        c.px.iter_mut().for_each(|p| *p = [0.5; 3]);
        box_blur(&mut c, 2, 3);
        assert!(c.px.iter().all(|p| (p[0] - 0.5).abs() < 1e-5));
        let mut d = Canvas::new(21, 21);
        d.px[10 * 21 + 10] = [1.0; 3];
        box_blur(&mut d, 1, 1);
        assert!((d.px[10 * 21 + 10][0] - 1.0 / 9.0).abs() < 1e-5);
        assert!((d.px[9 * 21 + 9][0] - 1.0 / 9.0).abs() < 1e-5);
        assert_eq!(d.px[8 * 21 + 10][0], 0.0);
    }

    #[test]
    fn box_radius_grows_with_sigma() {
        assert_eq!(box_radius(0.3, 3), 0);
        assert!(box_radius(2.0, 3) >= 1);
        assert!(box_radius(4.0, 3) > box_radius(2.0, 3));
    }
}
