//! One scene from start to end: game state, placement, camera, light, surface,
//! distractors, pieces, effects; and the true layout with the image corners of every piece.

use super::cache::{density_for, FaceCache};
use super::camera::{Camera, Shot};
use super::distractors;
use super::effects::{self, Light};
use super::geom::Rect;
use super::placement::{self, Layer, Placed, Slot, StylePick};
use super::raster::{draw_piece, draw_shadow, Canvas};
use super::scene::{self, GameState};
use super::seeds::{self, stream};
use super::surfaces;
use super::{Scene, SceneOptions};
use rand::seq::SliceRandom;
use rand::Rng;
use tablelens_engine::layout::Marker;
use tablelens_engine::{Catalogue, Corners, Layout};

/// Options with sizes and pools made safe.
fn sane(o: &SceneOptions) -> SceneOptions {
    let mut o = o.clone();
    o.width = o.width.clamp(64, 4096);
    o.height = o.height.clamp(64, 4096);
    if o.style_pool.is_empty() {
        o.style_pool = vec![0];
    }
    o.mixed_styles = chance(o.mixed_styles);
    o.stacked = chance(o.stacked);
    o
}

/// A chance kept within 0..1; one that is not a number is 0.
fn chance(p: f64) -> f64 {
    if p.is_finite() {
        p.clamp(0.0, 1.0)
    } else {
        0.0
    }
}

/// Renders scene `index` of the series `seed`.
pub fn render(
    cat: &Catalogue,
    cache: &mut FaceCache,
    seed: u64,
    index: u64,
    options: &SceneOptions,
) -> Scene {
    let state = scene::generate(cat, &mut stream(seed, index, "layout"));
    render_state(cat, cache, &state, seed, index, options, None)
}

fn style_pick(o: &SceneOptions, seed: u64, index: u64) -> StylePick {
    let r = &mut stream(seed, index, "styles");
    let cards = *o.style_pool.choose(r).unwrap_or(&0);
    let tokens = if r.gen_bool(0.7) {
        cards
    } else {
        *o.style_pool.choose(r).unwrap_or(&0)
    };
    let mixed = r.gen_bool(o.mixed_styles).then(|| o.style_pool.clone());
    StylePick {
        cards,
        tokens,
        mixed,
    }
}

/// The table points (mm) of every piece's outline that [`render_state`] would place:
/// the union over the states of a frame sequence frames every one of them alike.
pub fn outline_points(
    cat: &Catalogue,
    state: &GameState,
    seed: u64,
    index: u64,
    options: &SceneOptions,
) -> Vec<(f64, f64)> {
    let o = sane(options);
    let pieces = placement::place(
        cat,
        state,
        &style_pick(&o, seed, index),
        o.stacked,
        &mut stream(seed, index, "place"),
    );
    pieces.iter().flat_map(|p| p.outline_corners()).collect()
}

/// Renders a given game state; `seed` and `index` choose everything else (placement,
/// camera, light, surface, distractors, effects). `frame` gives the table points the
/// camera frames (by default those of the state's own pieces).
pub fn render_state(
    cat: &Catalogue,
    cache: &mut FaceCache,
    state: &GameState,
    seed: u64,
    index: u64,
    options: &SceneOptions,
    frame: Option<&[(f64, f64)]>,
) -> Scene {
    let o = sane(options);
    let styles = style_pick(&o, seed, index);
    let pieces = placement::place(
        cat,
        state,
        &styles,
        o.stacked,
        &mut stream(seed, index, "place"),
    );
    let own: Vec<(f64, f64)> = pieces.iter().flat_map(|p| p.outline_corners()).collect();
    let points: Vec<(f64, f64)> = match frame {
        Some(f) if !f.is_empty() => f.to_vec(),
        _ => own,
    };
    let mut shot = Shot::random(&mut stream(seed, index, "camera"));
    {
        // People often turn the phone so the long side of the layout runs along the long
        // side of the picture; sometimes they don't.
        let r = &mut stream(seed, index, "framing");
        let e = points_extent(&points);
        let wide_img = o.width >= o.height;
        let wide_table = e.w >= e.h;
        if r.gen_bool(0.6) {
            let base = if wide_img == wide_table {
                0.0
            } else {
                std::f64::consts::FRAC_PI_2
            };
            let flip = if r.gen_bool(0.5) {
                std::f64::consts::PI
            } else {
                0.0
            };
            shot.yaw = base + flip + r.gen_range(-0.45..0.45);
        }
    }
    let cam = Camera::fit(&shot, &points, o.width, o.height);
    let light = Light::random(&mut stream(seed, index, "light"));
    let table = cam.table();

    let mut canvas = Canvas::new(o.width as usize, o.height as usize);
    let surface = surfaces::random(&mut stream(seed, index, "surface"));
    surfaces::paint(&mut canvas, &table, surface.as_ref(), 2);

    let pieces_box = image_box(&cam, &points);
    let play = points_extent(&points);
    let play = Rect::new(play.x - 5.0, play.y - 5.0, play.w + 10.0, play.h + 10.0);
    // A copy, as the cache is lent again for the pieces drawn between the distractors.
    let backs = cache.backs(styles.cards).clone();
    let dctx = distractors::Ctx {
        cam: &cam,
        play,
        pieces_box,
        light: &light,
        backs: &backs,
    };
    if o.distractors {
        for (name, p, f) in distractors::UNDER {
            let r = &mut seeds::rng(&[seed, index, seeds::hash_str(name)]);
            if r.gen_bool(*p) {
                f(&mut canvas, &dctx, r);
            }
        }
    }

    // Faces at one density for the whole scene: enough for the closest piece.
    let max_scale = pieces
        .iter()
        .map(|p| {
            table
                .mul(&p.pose.matrix(&p.shape))
                .local_scale(f64::from(p.shape.w) * 0.5, f64::from(p.shape.h) * 0.5)
        })
        .fold(0.0, f64::max);
    let density = density_for(max_scale);
    let mut tint_rng = stream(seed, index, "tint");
    for p in &pieces {
        let h = table.mul(&p.pose.matrix(&p.shape));
        let tint = if o.effects {
            let k = tint_rng.gen_range(0.94..1.04);
            [k, k, k * tint_rng.gen_range(0.98..1.02)]
        } else {
            [1.0; 3]
        };
        if o.effects {
            let height = match p.layer {
                Layer::Card => 0.8,
                Layer::Token => 2.5,
            };
            let (cx, cy) = (p.pose.x, p.pose.y);
            let d = height * light.reach * table.local_scale(cx, cy);
            let shifted = super::geom::Mat3::translate(light.dir.0 * d, light.dir.1 * d).mul(&h);
            draw_shadow(&mut canvas, &shifted, &p.shape, light.soft, light.depth);
        }
        if let Some(tex) = cache.face(cat, &p.id, p.style, density) {
            draw_piece(&mut canvas, &h, &p.shape, tex, tint, 1.0);
        }
    }

    if o.distractors {
        for (name, p, f) in distractors::OVER {
            let r = &mut seeds::rng(&[seed, index, seeds::hash_str(name)]);
            if r.gen_bool(*p) {
                f(&mut canvas, &dctx, r);
            }
        }
    }
    if o.effects {
        let ectx = effects::Ctx {
            cam: &cam,
            light: &light,
        };
        for (name, f) in effects::EFFECTS {
            let r = &mut seeds::rng(&[
                seed,
                index,
                seeds::hash_str("effect"),
                seeds::hash_str(name),
            ]);
            f(&mut canvas, &ectx, r);
        }
    }
    Scene {
        image: canvas.to_image(),
        truth: truth(state, &pieces, &cam),
    }
}

fn points_extent(points: &[(f64, f64)]) -> Rect {
    let mut b = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for &(x, y) in points {
        b = (b.0.min(x), b.1.min(y), b.2.max(x), b.3.max(y));
    }
    if b.0 > b.2 {
        return Rect::new(0.0, 0.0, 1.0, 1.0);
    }
    Rect::new(
        b.0 as f32,
        b.1 as f32,
        (b.2 - b.0) as f32,
        (b.3 - b.1) as f32,
    )
}

fn image_box(cam: &Camera, points: &[(f64, f64)]) -> (f64, f64, f64, f64) {
    let t = cam.table();
    let mut b = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for &(x, y) in points {
        if let Some((u, v)) = t.apply(x, y) {
            b = (b.0.min(u), b.1.min(v), b.2.max(u), b.3.max(v));
        }
    }
    if b.0 > b.2 {
        (0.0, 0.0, f64::from(cam.width), f64::from(cam.height))
    } else {
        b
    }
}

/// The image corners of a piece's truth region.
fn corners(p: &Placed, cam: &Camera) -> Corners {
    let t = cam.table();
    p.table_corners().map(|(x, y)| {
        let (u, v) = t.apply(x, y).unwrap_or((x, y));
        [u as f32, v as f32]
    })
}

/// The true layout: the game state with the image corners of every piece.
fn truth(state: &GameState, pieces: &[Placed], cam: &Camera) -> Layout {
    let mut layout = state.layout.clone();
    for c in &mut layout.cities {
        for u in c.moloch.iter_mut().chain(c.outpost.iter_mut()) {
            u.token_corners = vec![[[0.0; 2]; 4]; u.tokens.len()];
        }
    }
    for p in pieces {
        let q = corners(p, cam);
        match p.slot {
            Slot::City(ci) => layout.cities[ci].corners = Some(q),
            Slot::Marker(ci, _) => layout.cities[ci].markers.push(Marker {
                kind: p.id.clone(),
                corners: Some(q),
            }),
            Slot::Unit(ci, side, ui) => {
                if let Some(u) = layout.cities[ci].side_mut(side).get_mut(ui) {
                    u.corners = Some(q);
                    u.bbox = Some(bbox(&q));
                }
            }
            Slot::Module(ci, side, ui) => {
                if let Some(m) = layout.cities[ci]
                    .side_mut(side)
                    .get_mut(ui)
                    .and_then(|u| u.module.as_mut())
                {
                    m.corners = Some(q);
                }
            }
            Slot::Token(ci, side, ui, ti) => {
                if let Some(slot) = layout.cities[ci]
                    .side_mut(side)
                    .get_mut(ui)
                    .and_then(|u| u.token_corners.get_mut(ti))
                {
                    *slot = q;
                }
            }
        }
    }
    layout
}

fn bbox(q: &Corners) -> [f32; 4] {
    let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    for p in q {
        x0 = x0.min(p[0]);
        y0 = y0.min(p[1]);
        x1 = x1.max(p[0]);
        y1 = y1.max(p[1]);
    }
    [x0, y0, x1 - x0, y1 - y0]
}
