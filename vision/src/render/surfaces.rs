//! Table surfaces, defined on the table plane in millimetres so that perspective applies to
//! them like to the pieces. To add one, write a constructor and add a line to [`SURFACES`].

use super::draw::{hsv, lerp, shade, Rgb};
use super::geom::Mat3;
use super::noise::Noise;
use super::raster::Canvas;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// A table surface: the colour at a table point (mm).
pub trait Surface {
    /// Colour at `(x, y)` mm.
    fn color(&self, x: f32, y: f32) -> Rgb;
}

/// Builds a random surface of one kind.
pub type SurfaceFn = fn(&mut ChaCha8Rng) -> Box<dyn Surface>;

/// Every surface kind, by name.
pub const SURFACES: &[(&str, SurfaceFn)] = &[
    ("wood", wood),
    ("felt", felt),
    ("laminate", laminate),
    ("marble", marble),
    ("gingham", gingham),
    ("playmat", playmat),
    ("linen", linen),
    ("dark_desk", dark_desk),
    ("kraft", kraft),
];

/// A random surface of a random kind.
pub fn random(r: &mut ChaCha8Rng) -> Box<dyn Surface> {
    let i = r.gen_range(0..SURFACES.len());
    (SURFACES[i].1)(r)
}

/// Paints the whole canvas with the surface seen through `table` (table mm to image).
/// The surface is evaluated every `step` pixels and interpolated in between.
pub fn paint(canvas: &mut Canvas, table: &Mat3, s: &dyn Surface, step: usize) {
    let Some(inv) = table.inverse() else {
        return;
    };
    let step = step.max(1);
    let gw = canvas.w / step + 2;
    let gh = canvas.h / step + 2;
    let mut grid = vec![[0.0f32; 3]; gw * gh];
    for gy in 0..gh {
        for gx in 0..gw {
            let (ix, iy) = ((gx * step) as f64, (gy * step) as f64);
            let c = match inv.apply(ix, iy) {
                Some((x, y)) => s.color(x as f32, y as f32),
                None => [0.1; 3],
            };
            grid[gy * gw + gx] = c;
        }
    }
    let inv_step = 1.0 / step as f32;
    for py in 0..canvas.h {
        let fy = py as f32 * inv_step;
        let gy = fy as usize;
        let ty = fy - gy as f32;
        for px in 0..canvas.w {
            let fx = px as f32 * inv_step;
            let gx = fx as usize;
            let tx = fx - gx as f32;
            let a = grid[gy * gw + gx];
            let b = grid[gy * gw + gx + 1];
            let c = grid[(gy + 1) * gw + gx];
            let d = grid[(gy + 1) * gw + gx + 1];
            let p = &mut canvas.px[py * canvas.w + px];
            for i in 0..3 {
                let top = a[i] + (b[i] - a[i]) * tx;
                let bot = c[i] + (d[i] - c[i]) * tx;
                p[i] = top + (bot - top) * ty;
            }
        }
    }
}

fn fract(x: f32) -> f32 {
    x - x.floor()
}

fn smoothstep(e0: f32, e1: f32, x: f32) -> f32 {
    let t = ((x - e0) / (e1 - e0)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// Distance (in units of `x`) to the nearest multiple of `period`.
fn to_line(x: f32, period: f32) -> f32 {
    let f = fract(x / period);
    f.min(1.0 - f) * period
}

/// A stripe pattern with soft edges: 1 on the first half of each period, 0 on the second,
/// blending over `soft` units, so it does not alias when sampled coarsely.
fn soft_stripe(x: f32, period: f32, soft: f32) -> f32 {
    let f = fract(x / period) * period;
    let half = period * 0.5;
    let d = if f < half {
        (f).min(half - f)
    } else {
        -(f - half).min(period - f)
    };
    smoothstep(-soft, soft, d)
}

fn hash(i: i32, salt: u32) -> f32 {
    let mut h = (i as u32).wrapping_mul(0x9e37_79b9) ^ salt.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 15;
    h = h.wrapping_mul(0x2c1b_3c6d);
    h ^= h >> 12;
    (h & 0xffff) as f32 / 65535.0
}

struct Wood {
    light: Rgb,
    dark: Rgb,
    seam: Rgb,
    cos: f32,
    sin: f32,
    plank: f32,
    joint: f32,
    rings: f32,
    noise: Noise,
    salt: u32,
}

impl Surface for Wood {
    fn color(&self, x: f32, y: f32) -> Rgb {
        let u = x * self.cos + y * self.sin;
        let v = -x * self.sin + y * self.cos;
        let pi = (v / self.plank).floor() as i32;
        let offset = hash(pi, self.salt) * self.joint;
        let g = self.noise.fbm(u * 0.004 + pi as f32 * 7.3, v * 0.06, 3);
        let phase = v * self.rings + g * 9.0 + (u * 0.0015).sin() * 2.0;
        let ring = 0.5 + 0.5 * (phase * std::f32::consts::TAU).cos();
        let t = ring.powi(4) * 0.5 + g * 0.35;
        let mut c = lerp(self.light, self.dark, t.clamp(0.0, 1.0));
        c = shade(c, 0.9 + 0.2 * hash(pi, self.salt ^ 77));
        // Soft seams between planks and at plank ends.
        let seam = 1.0 - smoothstep(0.2, 1.8, to_line(v, self.plank));
        let joint = 1.0 - smoothstep(0.2, 1.5, to_line(u + offset, self.joint));
        lerp(c, self.seam, 0.7 * seam.max(joint))
    }
}

fn wood(r: &mut ChaCha8Rng) -> Box<dyn Surface> {
    let hue = r.gen_range(18.0..38.0);
    let v = r.gen_range(0.3..0.85);
    let a: f32 = r.gen_range(0.0..std::f32::consts::PI);
    Box::new(Wood {
        light: hsv(hue, r.gen_range(0.35..0.6), v),
        dark: hsv(hue - 5.0, r.gen_range(0.5..0.8), v * r.gen_range(0.45..0.7)),
        seam: hsv(hue, 0.6, v * 0.25),
        cos: a.cos(),
        sin: a.sin(),
        plank: r.gen_range(70.0..220.0),
        joint: r.gen_range(500.0..1500.0),
        rings: r.gen_range(0.05..0.3),
        noise: Noise::new(r.gen()),
        salt: r.gen(),
    })
}

struct Felt {
    base: Rgb,
    noise: Noise,
    grain: f32,
}

impl Surface for Felt {
    fn color(&self, x: f32, y: f32) -> Rgb {
        let n = self.noise.fbm(x * self.grain, y * self.grain, 2);
        let m = self.noise.at(x * 0.004 + 31.0, y * 0.004);
        shade(self.base, 0.86 + 0.2 * n + 0.1 * m)
    }
}

fn felt(r: &mut ChaCha8Rng) -> Box<dyn Surface> {
    let hue = [120.0, 210.0, 0.0, 30.0, 270.0, 180.0][r.gen_range(0..6)] + r.gen_range(-15.0..15.0);
    Box::new(Felt {
        base: hsv(hue, r.gen_range(0.0..0.75), r.gen_range(0.2..0.65)),
        noise: Noise::new(r.gen()),
        grain: r.gen_range(0.2..0.5),
    })
}

struct Laminate {
    base: Rgb,
    speck: Rgb,
    noise: Noise,
}

impl Surface for Laminate {
    fn color(&self, x: f32, y: f32) -> Rgb {
        let m = self.noise.fbm(x * 0.003, y * 0.003, 2);
        let s = self.noise.at(x * 0.7 + 100.0, y * 0.7);
        let c = shade(self.base, 0.94 + 0.12 * m);
        if s > 0.8 {
            lerp(c, self.speck, (s - 0.8) * 2.5)
        } else {
            c
        }
    }
}

fn laminate(r: &mut ChaCha8Rng) -> Box<dyn Surface> {
    let base = hsv(
        r.gen_range(0.0..360.0),
        r.gen_range(0.0..0.3),
        r.gen_range(0.45..0.95),
    );
    Box::new(Laminate {
        base,
        speck: shade(base, r.gen_range(0.6..1.3)),
        noise: Noise::new(r.gen()),
    })
}

struct Marble {
    base: Rgb,
    vein: Rgb,
    noise: Noise,
    f: (f32, f32),
    width: f32,
}

impl Surface for Marble {
    fn color(&self, x: f32, y: f32) -> Rgb {
        let w = self.noise.fbm(x * 0.01, y * 0.01, 3) * 7.0;
        let s = (x * self.f.0 + y * self.f.1 + w).sin().abs();
        // Fainter, finer veins across the main ones.
        let w2 = self.noise.fbm(x * 0.02 + 17.0, y * 0.02, 2) * 5.0;
        let s2 = (x * self.f.1 * 2.3 - y * self.f.0 * 2.3 + w2).sin().abs();
        let c = shade(
            self.base,
            0.95 + 0.08 * self.noise.at(x * 0.02, y * 0.02 + 50.0),
        );
        let main = 1.0 - smoothstep(0.0, self.width, s);
        let fine = 1.0 - smoothstep(0.0, self.width * 0.5, s2);
        lerp(c, self.vein, (main * 0.85 + fine * 0.35).min(1.0))
    }
}

fn marble(r: &mut ChaCha8Rng) -> Box<dyn Surface> {
    let light = r.gen_bool(0.7);
    let base = if light {
        hsv(
            r.gen_range(0.0..360.0),
            r.gen_range(0.0..0.08),
            r.gen_range(0.8..0.97),
        )
    } else {
        hsv(
            r.gen_range(0.0..360.0),
            r.gen_range(0.0..0.15),
            r.gen_range(0.08..0.25),
        )
    };
    let a: f32 = r.gen_range(0.0..std::f32::consts::PI);
    let f = r.gen_range(0.005..0.02);
    Box::new(Marble {
        base,
        vein: if light {
            shade(base, 0.6)
        } else {
            [0.7, 0.68, 0.65]
        },
        noise: Noise::new(r.gen()),
        f: (a.cos() * f, a.sin() * f),
        width: r.gen_range(0.02..0.08),
    })
}

struct Gingham {
    a: Rgb,
    b: Rgb,
    period: f32,
    cos: f32,
    sin: f32,
    noise: Noise,
}

impl Surface for Gingham {
    fn color(&self, x: f32, y: f32) -> Rgb {
        let u = x * self.cos + y * self.sin;
        let v = -x * self.sin + y * self.cos;
        let su = soft_stripe(u, self.period, 0.8);
        let sv = soft_stripe(v, self.period, 0.8);
        let t = 0.5 * (su + sv);
        let c = lerp(self.a, self.b, t);
        // Soft folds in the cloth.
        shade(c, 0.9 + 0.15 * self.noise.fbm(x * 0.004, y * 0.004, 2))
    }
}

fn gingham(r: &mut ChaCha8Rng) -> Box<dyn Surface> {
    let a: f32 = r.gen_range(0.0..std::f32::consts::PI);
    Box::new(Gingham {
        a: [0.95, 0.94, 0.9],
        b: hsv(
            r.gen_range(0.0..360.0),
            r.gen_range(0.4..0.9),
            r.gen_range(0.35..0.8),
        ),
        period: r.gen_range(12.0..40.0),
        cos: a.cos(),
        sin: a.sin(),
        noise: Noise::new(r.gen()),
    })
}

struct Playmat {
    base: Rgb,
    line: Rgb,
    grid: f32,
    noise: Noise,
}

impl Surface for Playmat {
    fn color(&self, x: f32, y: f32) -> Rgb {
        let n = self.noise.fbm(x * 0.05, y * 0.05, 2);
        let c = shade(self.base, 0.9 + 0.18 * n);
        let d = to_line(x, self.grid).min(to_line(y, self.grid));
        lerp(c, self.line, 0.35 * (1.0 - smoothstep(0.3, 1.6, d)))
    }
}

fn playmat(r: &mut ChaCha8Rng) -> Box<dyn Surface> {
    let base = hsv(
        r.gen_range(0.0..360.0),
        r.gen_range(0.1..0.6),
        r.gen_range(0.08..0.3),
    );
    Box::new(Playmat {
        base,
        line: shade(base, 2.2),
        grid: r.gen_range(60.0..160.0),
        noise: Noise::new(r.gen()),
    })
}

struct Linen {
    base: Rgb,
    noise: Noise,
}

impl Surface for Linen {
    fn color(&self, x: f32, y: f32) -> Rgb {
        let a = self.noise.at(x * 0.9, y * 0.05);
        let b = self.noise.at(x * 0.05 + 40.0, y * 0.9);
        let m = self.noise.fbm(x * 0.004, y * 0.004, 2);
        shade(self.base, 0.88 + 0.08 * (a + b) + 0.1 * m)
    }
}

fn linen(r: &mut ChaCha8Rng) -> Box<dyn Surface> {
    Box::new(Linen {
        base: hsv(
            r.gen_range(20.0..60.0),
            r.gen_range(0.05..0.3),
            r.gen_range(0.6..0.92),
        ),
        noise: Noise::new(r.gen()),
    })
}

struct DarkDesk {
    base: Rgb,
    noise: Noise,
    sheen: (f32, f32, f32),
}

impl Surface for DarkDesk {
    fn color(&self, x: f32, y: f32) -> Rgb {
        let (sx, sy, w) = self.sheen;
        let d = (((x - sx) * (x - sx) + (y - sy) * (y - sy)).sqrt() / w).min(1.0);
        let n = self.noise.fbm(x * 0.02, y * 0.02, 2);
        shade(self.base, 0.85 + 0.2 * n + 0.8 * (1.0 - d) * (1.0 - d))
    }
}

fn dark_desk(r: &mut ChaCha8Rng) -> Box<dyn Surface> {
    Box::new(DarkDesk {
        base: hsv(
            r.gen_range(0.0..360.0),
            r.gen_range(0.0..0.3),
            r.gen_range(0.05..0.18),
        ),
        noise: Noise::new(r.gen()),
        sheen: (
            r.gen_range(-200.0..600.0),
            r.gen_range(-400.0..400.0),
            r.gen_range(200.0..600.0),
        ),
    })
}

struct Kraft {
    base: Rgb,
    noise: Noise,
}

impl Surface for Kraft {
    fn color(&self, x: f32, y: f32) -> Rgb {
        let f = self.noise.fbm(x * 0.4, y * 0.4, 2);
        let m = self.noise.at(x * 0.01 + 9.0, y * 0.01);
        shade(self.base, 0.85 + 0.22 * f + 0.08 * m)
    }
}

fn kraft(r: &mut ChaCha8Rng) -> Box<dyn Surface> {
    Box::new(Kraft {
        base: hsv(
            r.gen_range(25.0..40.0),
            r.gen_range(0.35..0.6),
            r.gen_range(0.45..0.75),
        ),
        noise: Noise::new(r.gen()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::seeds;

    #[test]
    fn every_surface_gives_colours_in_range_and_has_texture() {
        for (i, (name, make)) in SURFACES.iter().enumerate() {
            let s = make(&mut seeds::rng(&[i as u64]));
            let mut lo = 1.0f32;
            let mut hi = 0.0f32;
            for k in 0..400 {
                let c = s.color(k as f32 * 3.7 - 500.0, (k * 7 % 300) as f32 * 2.1 - 300.0);
                for v in c {
                    assert!((0.0..=1.0).contains(&v), "{name}: {c:?}");
                }
                lo = lo.min(c[0] + c[1] + c[2]);
                hi = hi.max(c[0] + c[1] + c[2]);
            }
            assert!(hi - lo > 0.01, "{name} is flat");
        }
    }
}
