//! Things on the table that are not part of the game state and must not be taken for it:
//! dice, coins, face-down cards and decks, a pencil, and the edge of a hand of cards held
//! over the table. None of them appears in the true layout. Those in [`UNDER`] lie on the
//! table outside the play area and are drawn before the pieces; those in [`OVER`] are held
//! above the table and drawn last, only in the margin the pieces leave free. To add one,
//! write a function and add a line.

use super::camera::Camera;
use super::draw::{hsv, lerp, shade, Align, Painter, Rgb};
use super::effects::Light;
use super::faces::{Outline, PieceShape, CARD_H, CARD_RADIUS, CARD_W};
use super::geom::{Mat3, Rect};
use super::raster::{draw_fn, draw_piece, draw_shadow, fill_polygon, Canvas, Texture};
use super::seeds;
use super::text::Font;
use image::RgbImage;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// What a distractor may know about the scene.
#[derive(Debug, Clone, Copy)]
pub struct Ctx<'a> {
    /// The camera.
    pub cam: &'a Camera,
    /// The play area on the table (mm): distractors on the table stay out of it.
    pub play: Rect,
    /// The image box of every piece of the layout (x0, y0, x1, y1): held objects stay out.
    pub pieces_box: (f64, f64, f64, f64),
    /// The light, for shadows.
    pub light: &'a Light,
    /// The backs of the scene's deck (Moloch, Outpost: [`deck_backs`]), which its face-down
    /// cards show.
    pub backs: &'a [Texture; 2],
}

/// A distractor: draws itself (or nothing) with its own random stream.
pub type DistractorFn = fn(&mut Canvas, &Ctx, &mut ChaCha8Rng);

/// Distractors lying on the table: name, chance to appear, function.
pub const UNDER: &[(&str, f64, DistractorFn)] = &[
    ("deck", 0.5, deck),
    ("card_backs", 0.35, card_backs),
    ("dice", 0.4, dice),
    ("coins", 0.3, coins),
    ("pencil", 0.2, pencil),
];

/// Distractors held over the table: name, chance to appear, function.
pub const OVER: &[(&str, f64, DistractorFn)] = &[("hand", 0.3, hand)];

impl Ctx<'_> {
    /// A free table spot (mm) for an object of radius `rad` mm: in or near the picture,
    /// clear of the play area.
    fn free_spot(&self, r: &mut ChaCha8Rng, rad: f64) -> Option<(f64, f64)> {
        let inv = self.cam.table().inverse()?;
        let (w, h) = (f64::from(self.cam.width), f64::from(self.cam.height));
        let p = self.play;
        for _ in 0..40 {
            let (ix, iy) = (r.gen_range(-0.05..1.05) * w, r.gen_range(-0.05..1.05) * h);
            let Some((x, y)) = inv.apply(ix, iy) else {
                continue;
            };
            let dx = (f64::from(p.x) - x).max(x - f64::from(p.right())).max(0.0);
            let dy = (f64::from(p.y) - y).max(y - f64::from(p.bottom())).max(0.0);
            if dx.hypot(dy) > rad + 6.0 {
                return Some((x, y));
            }
        }
        None
    }

    /// The back of a face-down card: mostly one of the deck's own two backs, sometimes
    /// that of a deck of some other game.
    fn back(&self, r: &mut ChaCha8Rng) -> Texture {
        if r.gen_bool(OTHER_BACKS) {
            Texture::new(&card_back(r), BACK_DENSITY)
        } else {
            self.backs[r.gen_range(0..2)].clone()
        }
    }

    /// Shadow offset in pixels for an object `height` mm tall at a table point.
    fn shadow_shift(&self, x: f64, y: f64, height: f64) -> Mat3 {
        let k = self.cam.table().local_scale(x, y);
        let d = height * self.light.reach * k;
        Mat3::translate(self.light.dir.0 * d, self.light.dir.1 * d)
    }
}

fn pose(x: f64, y: f64, angle: f64, w: f64, h: f64) -> Mat3 {
    Mat3::translate(x, y)
        .mul(&Mat3::rotate(angle))
        .mul(&Mat3::translate(-w * 0.5, -h * 0.5))
}

fn card_shape() -> PieceShape {
    PieceShape {
        w: CARD_W,
        h: CARD_H,
        outline: Outline::RoundRect(CARD_RADIUS),
    }
}

/// Chance that a face-down card shows the back of a deck of another game, not one of the
/// scene's deck's own two backs.
pub const OTHER_BACKS: f64 = 0.2;

/// Pixels per mm of a card back's picture.
const BACK_DENSITY: f32 = 3.0;

/// The two card backs (Moloch's deck, Outpost's deck) of the deck drawn in face `style`,
/// upright: what a player would enrol as `card_back` pictures.
pub fn deck_backs(style: u64) -> [RgbImage; 2] {
    [0, 1].map(|side| {
        card_back(&mut seeds::rng(&[
            style,
            seeds::hash_str("card back"),
            side,
        ]))
    })
}

/// [`deck_backs`] as textures to draw.
pub fn deck_back_textures(style: u64) -> [Texture; 2] {
    deck_backs(style).map(|img| Texture::new(&img, BACK_DENSITY))
}

/// A card back: faction colour, border, a pattern and an emblem.
fn card_back(r: &mut ChaCha8Rng) -> RgbImage {
    let base = match r.gen_range(0..4) {
        0 => hsv(
            r.gen_range(-10.0..12.0),
            r.gen_range(0.6..0.9),
            r.gen_range(0.35..0.7),
        ),
        1 => hsv(
            r.gen_range(95.0..150.0),
            r.gen_range(0.5..0.9),
            r.gen_range(0.25..0.6),
        ),
        2 => hsv(
            r.gen_range(200.0..240.0),
            r.gen_range(0.4..0.8),
            r.gen_range(0.25..0.6),
        ),
        _ => hsv(0.0, 0.0, r.gen_range(0.15..0.4)),
    };
    let mut p = Painter::new(CARD_W, CARD_H, BACK_DENSITY, shade(base, 0.6));
    let inner = Rect::new(3.0, 3.0, CARD_W - 6.0, CARD_H - 6.0);
    p.rect(inner, 2.0, base);
    let light = shade(base, 1.5);
    let step = r.gen_range(5.0..10.0);
    let mut t = -CARD_H;
    while t < CARD_W + CARD_H {
        p.clip = Some(inner);
        p.line((t, 3.0), (t + CARD_H, CARD_H), 0.6, light);
        p.line((t + CARD_H, 3.0), (t, CARD_H), 0.6, light);
        t += step;
    }
    p.clip = None;
    let (cx, cy) = inner.center();
    p.circle(cx, cy, 17.0, shade(base, 0.5));
    p.ring(cx, cy, 17.0, 1.2, light);
    let words = ["THE CONVOY", "MOLOCH", "OUTPOST", "CONVOY"];
    let word = words[r.gen_range(0..words.len())];
    let h = Painter::fit_height(word, 30.0, 5.0, &Font::PLAIN.bold());
    p.text(
        word,
        cx,
        cy - h * 0.5,
        h,
        &Font::PLAIN.bold(),
        Align::Center,
        0.0,
        light,
    );
    p.to_image()
}

fn card_backs(c: &mut Canvas, ctx: &Ctx, r: &mut ChaCha8Rng) {
    let tex = ctx.back(r);
    for _ in 0..r.gen_range(1..4) {
        let Some((x, y)) = ctx.free_spot(r, 50.0) else {
            return;
        };
        let m = pose(
            x,
            y,
            r.gen_range(0.0..std::f64::consts::TAU),
            f64::from(CARD_W),
            f64::from(CARD_H),
        );
        let h = ctx.cam.plane(0.3).mul(&m);
        draw_shadow(
            c,
            &ctx.shadow_shift(x, y, 0.8).mul(&h),
            &card_shape(),
            ctx.light.soft,
            ctx.light.depth,
        );
        draw_piece(c, &h, &card_shape(), &tex, [1.0; 3], 1.0);
    }
}

/// Side faces of a box standing on the table, as image polygons facing the camera.
fn box_sides(cam: &Camera, m: &Mat3, w: f64, d: f64, height: f64) -> Vec<[(f64, f64); 4]> {
    let base = [(0.0, 0.0), (w, 0.0), (w, d), (0.0, d)];
    let pts: Vec<(f64, f64)> = base.iter().filter_map(|&(x, y)| m.apply(x, y)).collect();
    if pts.len() < 4 {
        return Vec::new();
    }
    let (cx, cy) = ((pts[0].0 + pts[2].0) * 0.5, (pts[0].1 + pts[2].1) * 0.5);
    let mut out = Vec::new();
    for i in 0..4 {
        let a = pts[i];
        let b = pts[(i + 1) % 4];
        let mid = ((a.0 + b.0) * 0.5, (a.1 + b.1) * 0.5);
        // Facing the camera when the camera's foot lies outside this side.
        let outward = (mid.0 - cx, mid.1 - cy);
        let to_cam = (cam.centre[0] - mid.0, cam.centre[1] - mid.1);
        if outward.0 * to_cam.0 + outward.1 * to_cam.1 <= 0.0 {
            continue;
        }
        let q = [
            cam.project(a.0, a.1, 0.0),
            cam.project(b.0, b.1, 0.0),
            cam.project(b.0, b.1, height),
            cam.project(a.0, a.1, height),
        ];
        if let [Some(p0), Some(p1), Some(p2), Some(p3)] = q {
            out.push([p0, p1, p2, p3]);
        }
    }
    out
}

fn deck(c: &mut Canvas, ctx: &Ctx, r: &mut ChaCha8Rng) {
    let tex = ctx.back(r);
    let n = r.gen_range(4..32);
    let height = f64::from(n) * 0.32;
    let Some((x, y)) = ctx.free_spot(r, 55.0) else {
        return;
    };
    let (w, d) = (f64::from(CARD_W), f64::from(CARD_H));
    let m = pose(x, y, r.gen_range(0.0..std::f64::consts::TAU), w, d);
    let h_top = ctx.cam.plane(height).mul(&m);
    draw_shadow(
        c,
        &ctx.shadow_shift(x, y, height + 0.5)
            .mul(&ctx.cam.table().mul(&m)),
        &card_shape(),
        ctx.light.soft * 1.3,
        ctx.light.depth,
    );
    let edge: Rgb = lerp([0.92, 0.9, 0.85], [0.5, 0.5, 0.5], r.gen_range(0.0..0.5));
    for (i, q) in box_sides(ctx.cam, &m, w, d, height).iter().enumerate() {
        fill_polygon(c, q, shade(edge, 0.8 - 0.1 * i as f32), 1.0);
    }
    draw_piece(c, &h_top, &card_shape(), &tex, [1.0; 3], 1.0);
}

fn dice(c: &mut Canvas, ctx: &Ctx, r: &mut ChaCha8Rng) {
    for _ in 0..r.gen_range(1..4) {
        let s = r.gen_range(12.0..18.0);
        let Some((x, y)) = ctx.free_spot(r, s) else {
            return;
        };
        let body = match r.gen_range(0..5) {
            0 => [0.95, 0.94, 0.9],
            1 => [0.8, 0.1, 0.1],
            2 => [0.08, 0.08, 0.1],
            3 => [0.15, 0.5, 0.2],
            _ => hsv(r.gen_range(0.0..360.0), 0.7, 0.7),
        };
        let pip: Rgb = if body[0] + body[1] + body[2] > 1.5 {
            [0.05; 3]
        } else {
            [0.97; 3]
        };
        let m = pose(x, y, r.gen_range(0.0..std::f64::consts::TAU), s, s);
        let shape = PieceShape {
            w: s as f32,
            h: s as f32,
            outline: Outline::RoundRect(s as f32 * 0.15),
        };
        draw_shadow(
            c,
            &ctx.shadow_shift(x, y, s).mul(&ctx.cam.table().mul(&m)),
            &shape,
            ctx.light.soft * 1.5,
            ctx.light.depth,
        );
        for (i, q) in box_sides(ctx.cam, &m, s, s, s).iter().enumerate() {
            fill_polygon(c, q, shade(body, 0.7 - 0.12 * i as f32), 1.0);
        }
        let face = r.gen_range(1..=6);
        let pips = pip_positions(face);
        let sf = s as f32;
        let rad = sf * 0.09;
        let h = ctx.cam.plane(s).mul(&m);
        draw_fn(c, &h, &shape, 1.0, |u, v| {
            for &(px, py) in pips {
                let (dx, dy) = (u - px * sf, v - py * sf);
                if dx * dx + dy * dy < rad * rad {
                    return pip;
                }
            }
            shade(
                body,
                1.05 - 0.1 * ((u / sf - 0.5).abs() + (v / sf - 0.5).abs()),
            )
        });
    }
}

fn pip_positions(n: u32) -> &'static [(f32, f32)] {
    const A: f32 = 0.27;
    const B: f32 = 0.73;
    match n {
        1 => &[(0.5, 0.5)],
        2 => &[(A, A), (B, B)],
        3 => &[(A, A), (0.5, 0.5), (B, B)],
        4 => &[(A, A), (B, A), (A, B), (B, B)],
        5 => &[(A, A), (B, A), (0.5, 0.5), (A, B), (B, B)],
        _ => &[(A, A), (B, A), (A, 0.5), (B, 0.5), (A, B), (B, B)],
    }
}

fn coins(c: &mut Canvas, ctx: &Ctx, r: &mut ChaCha8Rng) {
    let metal = match r.gen_range(0..3) {
        0 => [0.85, 0.68, 0.3],
        1 => [0.78, 0.78, 0.8],
        _ => [0.72, 0.45, 0.28],
    };
    for _ in 0..r.gen_range(1..5) {
        let d = r.gen_range(16.0..28.0);
        let Some((x, y)) = ctx.free_spot(r, d) else {
            return;
        };
        let m = pose(x, y, r.gen_range(0.0..std::f64::consts::TAU), d, d);
        let shape = PieceShape {
            w: d as f32,
            h: d as f32,
            outline: Outline::Circle,
        };
        let thick = r.gen_range(1.5..2.5);
        draw_shadow(
            c,
            &ctx.shadow_shift(x, y, thick).mul(&ctx.cam.table().mul(&m)),
            &shape,
            ctx.light.soft,
            ctx.light.depth,
        );
        draw_fn(c, &ctx.cam.table().mul(&m), &shape, 1.0, |_, _| {
            shade(metal, 0.55)
        });
        let rr = d as f32 * 0.5;
        let face = r.gen_range(0..3);
        draw_fn(c, &ctx.cam.plane(thick).mul(&m), &shape, 1.0, |u, v| {
            let (dx, dy) = (u - rr, v - rr);
            let dist = (dx * dx + dy * dy).sqrt() / rr;
            let mut k = 1.1 - 0.35 * ((dx + dy) / (2.0 * rr) + 0.5);
            if (0.82..0.9).contains(&dist) {
                k *= 0.75;
            }
            let inner = match face {
                0 => dx.abs() < rr * 0.12 && dy.abs() < rr * 0.45,
                1 => (dist - 0.45).abs() < 0.07,
                _ => (dx.abs() + dy.abs()) < rr * 0.35,
            };
            if inner {
                k *= 0.8;
            }
            shade(metal, k)
        });
    }
}

fn pencil(c: &mut Canvas, ctx: &Ctx, r: &mut ChaCha8Rng) {
    let len = r.gen_range(110.0..180.0);
    let wid = 7.5;
    let Some((x, y)) = ctx.free_spot(r, len * 0.5) else {
        return;
    };
    let body = hsv(
        r.gen_range(0.0..360.0),
        r.gen_range(0.5..0.9),
        r.gen_range(0.5..0.95),
    );
    let m = pose(x, y, r.gen_range(0.0..std::f64::consts::TAU), len, wid);
    let shape = PieceShape {
        w: len as f32,
        h: wid as f32,
        outline: Outline::RoundRect(1.0),
    };
    let (lf, wf) = (len as f32, wid as f32);
    draw_shadow(
        c,
        &ctx.shadow_shift(x, y, wid).mul(&ctx.cam.table().mul(&m)),
        &shape,
        ctx.light.soft,
        ctx.light.depth,
    );
    draw_fn(c, &ctx.cam.plane(wid * 0.5).mul(&m), &shape, 1.0, |u, v| {
        let tip = lf - 18.0;
        if u > tip {
            // The sharpened end: wood, then graphite; outside the cone, nothing but shadow.
            let half = wf * 0.5 * (1.0 - (u - tip) / 18.0);
            if (v - wf * 0.5).abs() > half {
                return [0.4, 0.38, 0.35];
            }
            return if u > lf - 5.0 {
                [0.15; 3]
            } else {
                [0.87, 0.72, 0.52]
            };
        }
        let facet = ((v / wf) * 3.0).floor();
        let c = shade(body, 0.8 + 0.15 * facet);
        if u < 12.0 {
            [0.75, 0.75, 0.78]
        } else {
            c
        }
    });
}

/// The edge of a hand of cards held over the table, near one border, out of focus.
fn hand(c: &mut Canvas, ctx: &Ctx, r: &mut ChaCha8Rng) {
    let (w, h) = (c.w as f64, c.h as f64);
    let (x0, y0, x1, y1) = ctx.pieces_box;
    // Free margins: left, right, top, bottom.
    let margins = [x0, w - x1, y0, h - y1];
    let (side, &m) = margins
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(b.1))
        .unwrap_or((0, &0.0));
    let room = m - 6.0;
    if room < w.min(h) * 0.06 {
        return;
    }
    let tex = ctx.back(r);
    let k = ctx.cam.table().local_scale(0.0, 0.0) * r.gen_range(1.3..2.2);
    let (cw, ch) = (f64::from(CARD_W) * k, f64::from(CARD_H) * k);
    // Inward normal of the chosen border and a point along it.
    let (nx, ny): (f64, f64) = [(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)][side];
    let along = r.gen_range(0.15..0.85);
    let (bx, by) = match side {
        0 => (0.0, along * h),
        1 => (w, along * h),
        2 => (along * w, 0.0),
        _ => (along * w, h),
    };
    let base_angle = ny.atan2(nx) + std::f64::consts::FRAC_PI_2 + r.gen_range(-0.5..0.5);
    let n = r.gen_range(2..6);
    let spread = r.gen_range(0.08..0.2);
    let mats: Vec<Mat3> = (0..n)
        .map(|i| {
            let a = base_angle + spread * (f64::from(i) - f64::from(n - 1) * 0.5);
            // Pivot below the cards, as a fan held in one hand.
            Mat3::translate(bx, by)
                .mul(&Mat3::rotate(a))
                .mul(&Mat3::translate(-cw * 0.5, -ch * 1.15))
                .mul(&Mat3::scale(k, k))
        })
        .collect();
    // How far the fan reaches into the picture, then push it back to fit the margin.
    let shape = card_shape();
    let mut reach = f64::MIN;
    for mm in &mats {
        for (u, v) in [(0.0, 0.0), (CARD_W, 0.0), (CARD_W, CARD_H), (0.0, CARD_H)] {
            if let Some((px, py)) = mm.apply(f64::from(u), f64::from(v)) {
                reach = reach.max((px - bx) * nx + (py - by) * ny);
            }
        }
    }
    let want = r.gen_range(0.4..1.0) * room;
    // Never pushed in so far that the fan leaves the border.
    let shift = (want - reach).min(-0.1 * ch);
    let want = reach + shift;
    let t = Mat3::translate(nx * shift, ny * shift);
    // The held cards are drawn on a layer with a coverage mask; both are blurred (the hand
    // is close to the lens) and the layer is blended through the mask.
    let (bx0, by0, bx1, by1) = match side {
        0 => (0, 0, want.ceil() as usize + 2, c.h),
        1 => ((w - want - 2.0).max(0.0) as usize, 0, c.w, c.h),
        2 => (0, 0, c.w, want.ceil() as usize + 2),
        _ => (0, (h - want - 2.0).max(0.0) as usize, c.w, c.h),
    };
    let (bx1, by1) = (bx1.min(c.w), by1.min(c.h));
    if bx1 <= bx0 || by1 <= by0 {
        return;
    }
    let mut layer = Canvas::new(bx1 - bx0, by1 - by0);
    for y in by0..by1 {
        layer.px[(y - by0) * layer.w..(y - by0 + 1) * layer.w]
            .copy_from_slice(&c.px[y * c.w + bx0..y * c.w + bx1]);
    }
    let mut mask = Canvas::new(layer.w, layer.h);
    let to_layer = Mat3::translate(-(bx0 as f64), -(by0 as f64)).mul(&t);
    for (i, mm) in mats.iter().enumerate() {
        let hm = to_layer.mul(mm);
        draw_shadow(&mut layer, &hm, &shape, 6.0, 0.3);
        draw_piece(
            &mut layer,
            &hm,
            &shape,
            &tex,
            [0.9 + 0.03 * i as f32; 3],
            1.0,
        );
        draw_fn(&mut mask, &hm, &shape, 1.0, |_, _| [1.0; 3]);
    }
    if r.gen_bool(0.7) {
        // A thumb over the front card: a capsule with a lighter nail.
        let skin = hsv(
            r.gen_range(15.0..35.0),
            r.gen_range(0.25..0.6),
            r.gen_range(0.35..0.9),
        );
        let tw = CARD_W * 0.34;
        let tl = CARD_H * 0.5;
        let thumb = PieceShape {
            w: tw,
            h: tl,
            outline: Outline::RoundRect(tw * 0.5),
        };
        let front = to_layer.mul(&mats[mats.len() - 1]).mul(&Mat3::translate(
            f64::from(CARD_W) * r.gen_range(0.2..0.5),
            f64::from(CARD_H) * 0.62,
        ));
        draw_shadow(&mut layer, &front, &thumb, 5.0, 0.35);
        draw_fn(&mut layer, &front, &thumb, 1.0, |u, v| {
            let nail = ((u - tw * 0.5) / (tw * 0.32)).powi(2)
                + ((v - tw * 0.55) / (tw * 0.4)).powi(2)
                < 1.0;
            let k = 1.05 - 0.35 * ((u / tw - 0.5).abs() * 2.0).powi(2);
            if nail {
                shade(lerp(skin, [1.0, 0.9, 0.88], 0.45), k)
            } else {
                shade(skin, k)
            }
        });
        draw_fn(&mut mask, &front, &thumb, 1.0, |_, _| [1.0; 3]);
    }
    let radius = r.gen_range(2..6);
    super::effects::box_blur(&mut layer, radius, 2);
    super::effects::box_blur(&mut mask, radius, 2);
    for y in by0..by1 {
        for x in bx0..bx1 {
            let i = (y - by0) * layer.w + (x - bx0);
            let a = mask.px[i][0];
            if a > 0.0 {
                let p = &mut c.px[y * c.w + x];
                let l = layer.px[i];
                for k in 0..3 {
                    p[k] += (l[k] - p[k]) * a;
                }
            }
        }
    }
}
