//! Procedural artwork for the picture window of a face. Each generator paints a whole
//! window from a seeded generator and a small palette; a face style picks one generator and
//! each component seeds it with its own id, so the same card keeps its picture within a
//! style. To add a look, write a function and add one line to [`GENERATORS`].

use super::draw::{hsv, lerp, luma, sdf, shade, Painter, Rgb};
use super::geom::Rect;
use super::icons;
use super::noise::Noise;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// What a picture shows when a figure is drawn over it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subject {
    /// A Moloch robot.
    Robot,
    /// A Moloch module.
    Module,
    /// An Outpost soldier.
    Soldier,
    /// An Outpost building.
    Building,
    /// A one-shot card.
    Instant,
    /// A standing city.
    City,
    /// A destroyed city.
    Ruin,
}

/// An artwork generator: paints the window `r` (the painter is clipped to it).
pub type ArtFn = fn(&mut Painter, Rect, &[Rgb; 5], &mut ChaCha8Rng);

/// Every artwork generator, by name. Face styles index this list.
pub const GENERATORS: &[(&str, ArtFn)] = &[
    ("shapes", shapes),
    ("stripes", stripes),
    ("skyline", skyline),
    ("mosaic", mosaic),
    ("rays", rays),
    ("marbled", marbled),
    ("circuit", circuit),
    ("halftone", halftone),
];

/// A five-colour palette around a base hue.
pub fn palette(hue: f32, spread: f32, sat: f32, r: &mut ChaCha8Rng) -> [Rgb; 5] {
    std::array::from_fn(|i| {
        let h = hue + spread * (i as f32 - 2.0) * 0.5 + r.gen_range(-8.0..8.0);
        let s = (sat * r.gen_range(0.5..1.1)).clamp(0.0, 1.0);
        let v = r.gen_range(0.25..0.95);
        hsv(h, s, v)
    })
}

/// Paints the artwork of one face: the style's generator, then optionally a figure.
pub fn paint(
    p: &mut Painter,
    r: Rect,
    generator: usize,
    pal: &[Rgb; 5],
    subject: Option<Subject>,
    rng: &mut ChaCha8Rng,
) {
    let old = p.clip;
    p.clip = Some(r);
    let g = GENERATORS[generator % GENERATORS.len()].1;
    g(p, r, pal, rng);
    if let Some(s) = subject {
        figure(p, r, s, pal, rng);
    }
    p.clip = old;
}

fn pick(pal: &[Rgb; 5], r: &mut ChaCha8Rng) -> Rgb {
    pal[r.gen_range(0..5)]
}

fn darkest(pal: &[Rgb; 5]) -> Rgb {
    pal.iter()
        .copied()
        .fold([1.0; 3], |a, c| if luma(c) < luma(a) { c } else { a })
}

fn lightest(pal: &[Rgb; 5]) -> Rgb {
    pal.iter()
        .copied()
        .fold([0.0; 3], |a, c| if luma(c) > luma(a) { c } else { a })
}

fn shapes(p: &mut Painter, r: Rect, pal: &[Rgb; 5], g: &mut ChaCha8Rng) {
    p.gradient(r, 0.0, pick(pal, g), pick(pal, g), g.gen_bool(0.5));
    for _ in 0..g.gen_range(5..13) {
        let c = pick(pal, g);
        let cx = g.gen_range(r.x..r.right());
        let cy = g.gen_range(r.y..r.bottom());
        let s = g.gen_range(0.1..0.45) * r.w.min(r.h);
        let alpha = g.gen_range(0.5..1.0);
        match g.gen_range(0..4) {
            0 => {
                let b = Rect::new(cx - s, cy - s, 2.0 * s, 2.0 * s);
                p.fill(b, |x, y| sdf::circle(x, y, cx, cy, s), c, alpha);
            }
            1 => {
                let n = g.gen_range(3..7);
                let pts = icons::regular(cx, cy, s, n, g.gen_range(0.0..6.3));
                p.polygon_alpha(&pts, c, alpha);
            }
            2 => p.ring(cx, cy, s, s * g.gen_range(0.15..0.4), c),
            _ => {
                let b = Rect::new(cx - s, cy - s * 0.4, 2.0 * s, s * 0.8);
                p.rect_alpha(b, s * 0.1, c, alpha);
            }
        }
    }
}

fn stripes(p: &mut Painter, r: Rect, pal: &[Rgb; 5], g: &mut ChaCha8Rng) {
    let a: f32 = g.gen_range(0.0..std::f32::consts::PI);
    let (sa, ca) = a.sin_cos();
    let period = g.gen_range(3.0..9.0);
    let cols = [pick(pal, g), pick(pal, g), pick(pal, g)];
    let n = g.gen_range(2..4);
    p.shade(
        r,
        |_, _| -1.0,
        |x, y| {
            let t = (x * ca + y * sa) / period;
            let i = (t.floor() as i64).rem_euclid(n) as usize;
            let f = t - t.floor();
            shade(cols[i], 0.9 + 0.2 * f)
        },
        1.0,
    );
    let (cx, cy) = r.center();
    let s = r.w.min(r.h) * g.gen_range(0.25..0.42);
    let pts = if g.gen_bool(0.5) {
        icons::star_points(cx, cy, s, s * g.gen_range(0.4..0.7), g.gen_range(4..8))
    } else {
        icons::regular(cx, cy, s, g.gen_range(3..9), g.gen_range(0.0..1.0))
    };
    p.polygon(&pts, darkest(pal));
    let inner: Vec<(f32, f32)> = pts
        .iter()
        .map(|&(x, y)| (cx + (x - cx) * 0.7, cy + (y - cy) * 0.7))
        .collect();
    p.polygon(&inner, lightest(pal));
}

fn skyline(p: &mut Painter, r: Rect, pal: &[Rgb; 5], g: &mut ChaCha8Rng) {
    let sky0 = lightest(pal);
    let sky1 = pick(pal, g);
    p.gradient(r, 0.0, sky0, sky1, true);
    let sun_x = g.gen_range(r.x..r.right());
    let sun_y = r.y + r.h * g.gen_range(0.15..0.45);
    p.circle(
        sun_x,
        sun_y,
        r.h * g.gen_range(0.08..0.2),
        shade(sky0, 1.15),
    );
    for layer in 0..3 {
        let base = r.bottom() - r.h * 0.08 * layer as f32;
        let c = shade(darkest(pal), 1.0 + 0.45 * (2 - layer) as f32);
        let mut x = r.x - g.gen_range(0.0..4.0);
        while x < r.right() {
            let w = g.gen_range(3.0..9.0);
            let h = r.h * g.gen_range(0.2..0.75) * (1.0 - 0.2 * layer as f32);
            let b = Rect::new(x, base - h, w, h);
            p.rect(b, 0.0, c);
            if layer == 2 && w > 4.0 {
                let win = lightest(pal);
                let mut wy = base - h + 1.5;
                while wy < base - 1.5 {
                    let mut wx = x + 1.0;
                    while wx < x + w - 1.5 {
                        if g.gen_bool(0.5) {
                            p.rect(Rect::new(wx, wy, 0.8, 0.9), 0.0, win);
                        }
                        wx += 1.7;
                    }
                    wy += 2.0;
                }
            }
            x += w + g.gen_range(0.0..2.0);
        }
    }
}

fn mosaic(p: &mut Painter, r: Rect, pal: &[Rgb; 5], g: &mut ChaCha8Rng) {
    let n = g.gen_range(8..18);
    let seeds: Vec<(f32, f32, Rgb)> = (0..n)
        .map(|_| {
            (
                g.gen_range(r.x..r.right()),
                g.gen_range(r.y..r.bottom()),
                pick(pal, g),
            )
        })
        .collect();
    let edge = darkest(pal);
    p.shade(
        r,
        |_, _| -1.0,
        |x, y| {
            let mut best = f32::MAX;
            let mut second = f32::MAX;
            let mut c = [0.0; 3];
            for &(sx, sy, sc) in &seeds {
                let d = (x - sx) * (x - sx) + (y - sy) * (y - sy);
                if d < best {
                    second = best;
                    best = d;
                    c = sc;
                } else if d < second {
                    second = d;
                }
            }
            let gap = second.sqrt() - best.sqrt();
            if gap < 0.5 {
                edge
            } else {
                shade(c, 1.1 - 0.02 * best.sqrt())
            }
        },
        1.0,
    );
}

fn rays(p: &mut Painter, r: Rect, pal: &[Rgb; 5], g: &mut ChaCha8Rng) {
    let cx = g.gen_range(r.x..r.right());
    let cy = g.gen_range(r.y..r.bottom());
    let n = g.gen_range(6..20) as f32;
    let a = pick(pal, g);
    let b = pick(pal, g);
    let twist = g.gen_range(-0.1..0.1);
    p.shade(
        r,
        |_, _| -1.0,
        |x, y| {
            let d = ((x - cx).powi(2) + (y - cy).powi(2)).sqrt();
            let ang = (y - cy).atan2(x - cx) + twist * d;
            let s = (ang * n * 0.5).sin();
            lerp(a, b, (s * 3.0).clamp(-1.0, 1.0) * 0.5 + 0.5)
        },
        1.0,
    );
    for i in 0..g.gen_range(1..4) {
        let rr = r.w.min(r.h) * (0.12 + 0.12 * i as f32);
        p.ring(cx, cy, rr, rr * 0.25, pick(pal, g));
    }
}

fn marbled(p: &mut Painter, r: Rect, pal: &[Rgb; 5], g: &mut ChaCha8Rng) {
    let noise = Noise::new(g.gen());
    let f = g.gen_range(0.05..0.2);
    let warp = g.gen_range(2.0..8.0);
    let levels = g.gen_range(3..7) as f32;
    let cols = *pal;
    p.shade(
        r,
        |_, _| -1.0,
        |x, y| {
            let w = noise.fbm(x * f, y * f, 3) * warp;
            let t = (noise.at(x * f * 0.7 + w, y * f * 0.7 - w) * levels).floor() / levels;
            let i = ((t * 4.999) as usize).min(4);
            cols[i]
        },
        1.0,
    );
}

fn circuit(p: &mut Painter, r: Rect, pal: &[Rgb; 5], g: &mut ChaCha8Rng) {
    let bg = darkest(pal);
    p.rect(r, 0.0, bg);
    let step = g.gen_range(2.5..5.0);
    for _ in 0..g.gen_range(8..20) {
        let c = pick(pal, g);
        let mut x = r.x + step * g.gen_range(0..(r.w / step) as i32 + 1) as f32;
        let mut y = r.y + step * g.gen_range(0..(r.h / step) as i32 + 1) as f32;
        p.circle(x, y, step * 0.3, c);
        for _ in 0..g.gen_range(2..6) {
            let (nx, ny) = if g.gen_bool(0.5) {
                (x + step * g.gen_range(-3..4) as f32, y)
            } else {
                (x, y + step * g.gen_range(-3..4) as f32)
            };
            p.line((x, y), (nx, ny), step * 0.18, c);
            x = nx;
            y = ny;
        }
        p.ring(x, y, step * 0.35, step * 0.15, c);
    }
}

fn halftone(p: &mut Painter, r: Rect, pal: &[Rgb; 5], g: &mut ChaCha8Rng) {
    let bg = pick(pal, g);
    let dot = pick(pal, g);
    let dot = if (luma(dot) - luma(bg)).abs() < 0.15 {
        shade(bg, 0.4)
    } else {
        dot
    };
    let noise = Noise::new(g.gen());
    let cell = g.gen_range(1.6..3.2);
    let f = g.gen_range(0.04..0.12);
    p.shade(
        r,
        |_, _| -1.0,
        |x, y| {
            let gx = (x / cell).floor() * cell + cell * 0.5;
            let gy = (y / cell).floor() * cell + cell * 0.5;
            let rad = noise.fbm(gx * f, gy * f, 2) * cell * 0.75;
            let d = ((x - gx).powi(2) + (y - gy).powi(2)).sqrt();
            if d < rad {
                dot
            } else {
                bg
            }
        },
        1.0,
    );
}

/// A silhouette of the subject over the picture, with random proportions.
fn figure(p: &mut Painter, r: Rect, s: Subject, pal: &[Rgb; 5], g: &mut ChaCha8Rng) {
    let ink = darkest(pal);
    let ink = if luma(ink) > 0.35 {
        shade(ink, 0.35)
    } else {
        ink
    };
    let hi = lightest(pal);
    let (cx, cy) = r.center();
    let u = r.w.min(r.h * 1.4) * 0.5;
    match s {
        Subject::Robot => {
            let bw = u * g.gen_range(0.5..0.9);
            let bh = r.h * g.gen_range(0.3..0.45);
            let body = Rect::new(cx - bw * 0.5, cy - bh * 0.35, bw, bh);
            let hw = bw * g.gen_range(0.35..0.7);
            let hh = r.h * g.gen_range(0.14..0.22);
            let head = Rect::new(cx - hw * 0.5, body.y - hh - 0.6, hw, hh);
            if g.gen_bool(0.5) {
                // Treads.
                let t = Rect::new(cx - bw * 0.65, body.bottom() - 1.0, bw * 1.3, r.h * 0.14);
                p.rect(t, t.h * 0.5, ink);
                for i in 0..5 {
                    let x = t.x + t.w * (0.15 + 0.175 * i as f32);
                    p.circle(x, t.y + t.h * 0.5, t.h * 0.28, hi);
                }
            } else {
                let lw = bw * 0.18;
                p.line(
                    (cx - bw * 0.25, body.bottom()),
                    (cx - bw * 0.35, r.bottom()),
                    lw,
                    ink,
                );
                p.line(
                    (cx + bw * 0.25, body.bottom()),
                    (cx + bw * 0.35, r.bottom()),
                    lw,
                    ink,
                );
            }
            p.rect(body, g.gen_range(0.0..2.0), ink);
            p.rect(head, g.gen_range(0.0..2.0), ink);
            let eye = hh * 0.18;
            p.circle(cx - hw * 0.22, head.y + hh * 0.45, eye, [0.95, 0.2, 0.1]);
            p.circle(cx + hw * 0.22, head.y + hh * 0.45, eye, [0.95, 0.2, 0.1]);
            let arm = bw * 0.14;
            let ay = body.y + bh * 0.2;
            let reach = g.gen_range(0.6..1.1) * u;
            p.line(
                (body.x, ay),
                (cx - reach, ay + bh * g.gen_range(-0.3..0.5)),
                arm,
                ink,
            );
            p.line(
                (body.right(), ay),
                (cx + reach, ay + bh * g.gen_range(-0.5..0.3)),
                arm,
                ink,
            );
            if g.gen_bool(0.6) {
                p.line((cx, head.y), (cx + hw * 0.3, head.y - hh * 0.6), 0.6, ink);
            }
            p.rect(body.inset(bw * 0.2), 0.5, shade(hi, 0.8));
        }
        Subject::Soldier => {
            let hr = r.h * g.gen_range(0.09..0.13);
            let hy = cy - r.h * 0.2;
            let tw = u * g.gen_range(0.45..0.7);
            p.polygon(
                &[
                    (cx - tw * 0.5, hy + hr * 1.3),
                    (cx + tw * 0.5, hy + hr * 1.3),
                    (cx + tw * 0.4, r.bottom() + 1.0),
                    (cx - tw * 0.4, r.bottom() + 1.0),
                ],
                ink,
            );
            p.circle(cx, hy, hr, ink);
            // Helmet.
            let helm: Vec<(f32, f32)> = (0..=12)
                .map(|i| {
                    let a = std::f32::consts::PI * (1.0 + i as f32 / 12.0);
                    (cx + hr * 1.35 * a.cos(), hy - hr * 0.1 + hr * 1.3 * a.sin())
                })
                .collect();
            p.polygon(&helm, shade(pal[1], 0.6));
            let side = if g.gen_bool(0.5) { 1.0 } else { -1.0 };
            p.line(
                (cx - side * tw * 0.6, hy + hr * 3.5),
                (cx + side * u * 0.95, hy - hr * g.gen_range(0.5..2.0)),
                g.gen_range(0.8..1.6),
                ink,
            );
        }
        Subject::Building => {
            let w = u * g.gen_range(0.9..1.5);
            let h = r.h * g.gen_range(0.35..0.6);
            let b = Rect::new(cx - w * 0.5, r.bottom() - h, w, h);
            p.rect(b, 0.0, ink);
            for i in 0..g.gen_range(1..4) {
                let tw = w * g.gen_range(0.12..0.25);
                let tx = b.x + (w - tw) * g.gen_range(0.0..1.0);
                let th = h * g.gen_range(0.2..0.6);
                p.rect(Rect::new(tx, b.y - th, tw, th + 0.5), 0.0, ink);
                if i == 0 {
                    p.polygon(
                        &[
                            (tx - 1.0, b.y - th),
                            (tx + tw * 0.5, b.y - th - 3.0),
                            (tx + tw + 1.0, b.y - th),
                        ],
                        ink,
                    );
                }
            }
            let slits = (w / 4.0) as i32;
            for i in 0..slits {
                let x = b.x + 2.0 + 4.0 * i as f32;
                p.rect(Rect::new(x, b.y + h * 0.3, 1.2, h * 0.2), 0.0, hi);
            }
        }
        Subject::Module => {
            let s = u * g.gen_range(0.6..0.9);
            icons::draw(p, icons::Icon::Module, cx, cy, s * 1.6, ink, hi);
        }
        Subject::Instant => {
            let n = g.gen_range(7..14);
            let pts = icons::star_points(cx, cy, u * 0.9, u * g.gen_range(0.35..0.6), n);
            p.polygon(&pts, shade(hi, 1.1));
            icons::draw(p, icons::Icon::Instant, cx, cy, u * 1.1, ink, hi);
        }
        Subject::City | Subject::Ruin => {
            let ruin = s == Subject::Ruin;
            let mut x = r.x;
            while x < r.right() {
                let w = g.gen_range(3.0..8.0);
                let h = r.h * g.gen_range(0.25..0.7);
                let top = r.bottom() - h;
                if ruin {
                    let j = g.gen_range(1.0..4.0);
                    p.polygon(
                        &[
                            (x, r.bottom()),
                            (x, top + j),
                            (x + w * 0.3, top),
                            (x + w * 0.55, top + j * 1.5),
                            (x + w * 0.8, top + 0.5),
                            (x + w, top + j),
                            (x + w, r.bottom()),
                        ],
                        ink,
                    );
                } else {
                    p.rect(Rect::new(x, top, w, h), 0.0, ink);
                }
                x += w + g.gen_range(0.3..1.5);
            }
            if ruin {
                for _ in 0..g.gen_range(2..5) {
                    let sx = g.gen_range(r.x..r.right());
                    let sy = r.y + r.h * g.gen_range(0.1..0.5);
                    let sr = r.h * g.gen_range(0.08..0.18);
                    p.fill(
                        Rect::new(sx - sr, sy - sr, 2.0 * sr, 2.0 * sr),
                        |x, y| sdf::circle(x, y, sx, sy, sr),
                        [0.35, 0.33, 0.32],
                        0.6,
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn every_generator_paints_its_window_and_nothing_else() {
        for (i, (name, _)) in GENERATORS.iter().enumerate() {
            let mut p = Painter::new(40.0, 30.0, 3.0, [1.0, 0.0, 1.0]);
            let r = Rect::new(5.0, 5.0, 30.0, 20.0);
            let mut g = ChaCha8Rng::seed_from_u64(i as u64);
            let pal = palette(30.0, 60.0, 0.8, &mut g);
            paint(&mut p, r, i, &pal, Some(Subject::Robot), &mut g);
            let corner = p.px[0];
            assert_eq!(corner, [1.0, 0.0, 1.0], "{name} painted outside its window");
            let (cx, cy) = ((20.0 * 3.0) as usize, (15.0 * 3.0) as usize);
            assert_ne!(
                p.px[cy * p.w + cx],
                [1.0, 0.0, 1.0],
                "{name} left its window empty"
            );
        }
    }
}
