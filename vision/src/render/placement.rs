//! Where each piece lies on the table plane (millimetres; x to the right and y towards the
//! Outpost player, as the Outpost player sees the table): the five cities in a row, each
//! side's column of units beside its city, modules tucked under robots, tokens and markers
//! on cards. The result is a list of pieces in drawing order, each with the place in the
//! true layout that its image corners fill.

use super::faces::{
    self, city_geometry, Component, MarkerKind, PieceShape, CARD_H, CARD_W, TOKEN_D,
};
use super::geom::{Mat3, Rect};
use super::scene::GameState;
use super::seeds;
use super::style::FaceStyle;
use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::f64::consts::PI;
use tablelens_engine::{Catalogue, Side, Token};

/// Where a piece lies: its face centre on the table, rotation and scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pose {
    /// Centre x (mm).
    pub x: f64,
    /// Centre y (mm).
    pub y: f64,
    /// Rotation (radians, clockwise as seen from above with y towards Outpost).
    pub angle: f64,
    /// Size factor from the face's nominal size.
    pub scale: f64,
}

impl Pose {
    /// The map from face millimetres (origin at the printed top-left) to the table.
    pub fn matrix(&self, shape: &PieceShape) -> Mat3 {
        Mat3::translate(self.x, self.y)
            .mul(&Mat3::rotate(self.angle))
            .mul(&Mat3::scale(self.scale, self.scale))
            .mul(&Mat3::translate(
                -f64::from(shape.w) * 0.5,
                -f64::from(shape.h) * 0.5,
            ))
    }
}

/// Which entry of the true layout a piece's corners fill.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// The city card of city `i`.
    City(usize),
    /// Marker `k` of city `i`.
    Marker(usize, usize),
    /// Unit `u` of a side of city `i`.
    Unit(usize, Side, usize),
    /// The module under unit `u` (its visible strip).
    Module(usize, Side, usize),
    /// Token `t` on unit `u`.
    Token(usize, Side, usize, usize),
}

/// How high a piece lies above the table, for shadows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layer {
    /// A card.
    Card,
    /// A thick cardboard token or marker.
    Token,
}

/// One piece to draw.
#[derive(Debug, Clone)]
pub struct Placed {
    /// Component id of its face.
    pub id: String,
    /// Face style.
    pub style: u64,
    /// Where it lies.
    pub pose: Pose,
    /// Size and outline of its face.
    pub shape: PieceShape,
    /// Where its corners go in the truth.
    pub slot: Slot,
    /// The part of the face (mm) whose corners the truth gives: the whole face, or the
    /// visible strip of a module.
    pub region: Rect,
    /// Height class.
    pub layer: Layer,
}

impl Placed {
    /// The four corners of its truth region on the table, clockwise from the printed
    /// top-left.
    pub fn table_corners(&self) -> [(f64, f64); 4] {
        let m = self.pose.matrix(&self.shape);
        let r = self.region;
        let pts = [
            (r.x, r.y),
            (r.right(), r.y),
            (r.right(), r.bottom()),
            (r.x, r.bottom()),
        ];
        pts.map(|(x, y)| {
            m.apply(f64::from(x), f64::from(y))
                .unwrap_or((f64::from(x), f64::from(y)))
        })
    }

    /// The four corners of the whole face on the table.
    pub fn outline_corners(&self) -> [(f64, f64); 4] {
        let m = self.pose.matrix(&self.shape);
        let (w, h) = (f64::from(self.shape.w), f64::from(self.shape.h));
        [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)].map(|(x, y)| m.apply(x, y).unwrap_or((x, y)))
    }
}

/// Picks face styles for the pieces of one scene.
#[derive(Debug, Clone)]
pub struct StylePick {
    /// Style of the cards.
    pub cards: u64,
    /// Style of tokens and markers.
    pub tokens: u64,
    /// When set, each piece draws its own style from this pool instead.
    pub mixed: Option<Vec<u64>>,
}

impl StylePick {
    fn card(&self, r: &mut ChaCha8Rng) -> u64 {
        match &self.mixed {
            Some(pool) => *pool.choose(r).unwrap_or(&self.cards),
            None => self.cards,
        }
    }

    fn token(&self, r: &mut ChaCha8Rng) -> u64 {
        match &self.mixed {
            Some(pool) => *pool.choose(r).unwrap_or(&self.tokens),
            None => self.tokens,
        }
    }
}

/// How neatly this table is laid out.
#[derive(Debug, Clone, Copy)]
struct Habits {
    city_gap: f64,
    column_gap: f64,
    step: f64,
    angle_sd: f64,
    lateral: f64,
    token_d: f64,
    marker_scale: f64,
    /// Chance that a unit's tokens or a city's markers lie partly over one another.
    stacked: f64,
}

/// The sum of three uniforms on [-1, 1]: deviation 1, close enough to normal, and bounded.
fn normal(r: &mut ChaCha8Rng) -> f64 {
    r.gen_range(-1.0..1.0) + r.gen_range(-1.0..1.0) + r.gen_range(-1.0..1.0)
}

fn jitter_angle(h: &Habits, r: &mut ChaCha8Rng) -> f64 {
    (normal(r) * h.angle_sd).clamp(-6.0, 6.0).to_radians()
}

/// Lays out every piece of a game state, in drawing order; `stacked` is the chance that a
/// unit's tokens or a city's markers lie partly over one another.
pub fn place(
    cat: &Catalogue,
    state: &GameState,
    styles: &StylePick,
    stacked: f64,
    r: &mut ChaCha8Rng,
) -> Vec<Placed> {
    let h = Habits {
        city_gap: r.gen_range(20.0..36.0),
        column_gap: r.gen_range(2.0..16.0),
        step: r.gen_range(0.62..1.0),
        angle_sd: r.gen_range(0.4..2.5),
        lateral: r.gen_range(0.3..2.0),
        token_d: r.gen_range(16.0..20.0),
        marker_scale: r.gen_range(0.9..1.1),
        stacked,
    };
    let card_shape = PieceShape {
        w: CARD_W,
        h: CARD_H,
        outline: faces::Outline::RoundRect(faces::CARD_RADIUS),
    };
    let full = Rect::new(0.0, 0.0, CARD_W, CARD_H);
    let (cw, ch) = (f64::from(CARD_W), f64::from(CARD_H));
    let mut cities = Vec::new();
    let mut columns = Vec::new();
    let mut tokens = Vec::new();
    let mut markers = Vec::new();

    // Each piece draws its jitter from its own stream (city, side, place in the column,
    // card), so that adding or removing a piece, a module or a token leaves every other
    // piece where it was: frame sequences of one game stay put.
    let base: u64 = r.gen();
    for (ci, city) in state.layout.cities.iter().enumerate() {
        let r = &mut seeds::rng(&[base, ci as u64, seeds::hash_str("city")]);
        let cx = ci as f64 * (cw + h.city_gap) + r.gen_range(-1.5..1.5);
        let cy = r.gen_range(-1.5..1.5);
        let city_pose = Pose {
            x: cx,
            y: cy,
            angle: jitter_angle(&h, r) * 0.5,
            scale: 1.0,
        };
        let city_style = styles.card(r);
        let id = city.id.face_id(city.destroyed);
        cities.push(Placed {
            id,
            style: city_style,
            pose: city_pose,
            shape: card_shape,
            slot: Slot::City(ci),
            region: full,
            layer: Layer::Card,
        });
        city_marker_pieces(
            cat,
            state,
            ci,
            &city_pose,
            city_style,
            &h,
            styles,
            r,
            &mut markers,
        );

        for side in [Side::Moloch, Side::Outpost] {
            let units = city.side(side);
            let dir = if side == Side::Moloch { -1.0 } else { 1.0 };
            let unit_rng = |ui: usize, card: &str, what: &str| {
                seeds::rng(&[
                    base,
                    ci as u64,
                    seeds::hash_str(side.as_str()),
                    ui as u64,
                    seeds::hash_str(card),
                    seeds::hash_str(what),
                ])
            };
            let steps: Vec<f64> = units
                .iter()
                .enumerate()
                .map(|(ui, u)| {
                    let r = &mut unit_rng(ui, &u.card, "step");
                    (h.step + r.gen_range(-0.03..0.05)).clamp(0.6, 1.08)
                })
                .collect();
            let mut along = ch * 0.5 + h.column_gap + ch * 0.5;
            for (ui, unit) in units.iter().enumerate() {
                let r = &mut unit_rng(ui, &unit.card, "card");
                let angle = if side == Side::Moloch { PI } else { 0.0 } + jitter_angle(&h, r);
                let pose = Pose {
                    x: cx + r.gen_range(-1.0..1.0) * h.lateral,
                    y: cy + dir * along,
                    angle,
                    scale: 1.0,
                };
                let style = styles.card(r);
                if let Some(m) = &unit.module {
                    let r = &mut unit_rng(ui, &unit.card, "module");
                    let strip = r.gen_range(10.0..14.0);
                    let dy = r.gen_range(-2.5..2.5);
                    // Shift along the robot's own axes: right by the strip, a little up or down.
                    let (s, c) = pose.angle.sin_cos();
                    let mpose = Pose {
                        x: pose.x + c * strip - s * dy,
                        y: pose.y + s * strip + c * dy,
                        angle: pose.angle + r.gen_range(-0.6f64..0.6).to_radians(),
                        scale: 1.0,
                    };
                    let sw = strip as f32;
                    columns.push(Placed {
                        id: m.card.clone(),
                        style: styles.card(r),
                        pose: mpose,
                        shape: card_shape,
                        slot: Slot::Module(ci, side, ui),
                        region: Rect::new(CARD_W - sw, 0.0, sw, CARD_H),
                        layer: Layer::Card,
                    });
                }
                columns.push(Placed {
                    id: unit.card.clone(),
                    style,
                    pose,
                    shape: card_shape,
                    slot: Slot::Unit(ci, side, ui),
                    region: full,
                    layer: Layer::Card,
                });
                // The part of the card left visible by the next one in the column.
                let visible = if ui + 1 < units.len() {
                    steps[ui] * ch
                } else {
                    ch
                };
                token_pieces(
                    &unit.tokens,
                    &pose,
                    visible,
                    ci,
                    side,
                    ui,
                    &h,
                    styles,
                    &mut unit_rng(ui, &unit.card, "tokens"),
                    &mut tokens,
                );
                along += steps[ui] * ch;
            }
        }
    }
    let mut out = cities;
    out.extend(columns);
    out.extend(markers);
    out.extend(tokens);
    out
}

#[allow(clippy::too_many_arguments)]
fn city_marker_pieces(
    cat: &Catalogue,
    state: &GameState,
    ci: usize,
    city_pose: &Pose,
    city_style: u64,
    h: &Habits,
    styles: &StylePick,
    r: &mut ChaCha8Rng,
    out: &mut Vec<Placed>,
) {
    let city = &state.layout.cities[ci];
    if city.destroyed {
        return;
    }
    let geo = city_geometry(&FaceStyle::new(city_style), cat.city(city.id));
    let card_shape = faces::shape_of(&Component::City(cat.city(city.id)));
    let to_table = city_pose.matrix(&card_shape);
    let mut k = 0;
    let mut put = |m: MarkerKind, at: (f32, f32), spin: f64, r: &mut ChaCha8Rng| {
        let shape = faces::shape_of(&Component::Marker(m));
        let (x, y) = to_table
            .apply(
                f64::from(at.0) + r.gen_range(-1.5..1.5),
                f64::from(at.1) + r.gen_range(-1.5..1.5),
            )
            .unwrap_or((city_pose.x, city_pose.y));
        out.push(Placed {
            id: m.id().to_string(),
            style: styles.token(r),
            pose: Pose {
                x,
                y,
                angle: city_pose.angle + spin,
                scale: h.marker_scale,
            },
            shape,
            slot: Slot::Marker(ci, k),
            region: Rect::new(0.0, 0.0, shape.w, shape.h),
            layer: Layer::Token,
        });
        k += 1;
    };
    let panel = |d: u32| -> Option<(f32, f32)> {
        geo.districts
            .get(d.checked_sub(1)? as usize)
            .map(|p| p.center())
    };
    if city.extra_district {
        if let Some(c) = panel(3) {
            put(MarkerKind::ExtraDistrict, c, r.gen_range(-0.15..0.15), r);
        }
    }
    for &d in &state.destroyed_districts[ci] {
        if let Some(c) = panel(d) {
            put(MarkerKind::DestroyedDistrict, c, r.gen_range(-0.4..0.4), r);
        }
    }
    if city.battle_marker {
        if let Some(c) = city.battle_district.and_then(panel) {
            put(
                MarkerKind::Battle,
                c,
                r.gen_range(0.0..std::f64::consts::TAU),
                r,
            );
        }
    }
    if city.feature_used {
        let c = geo
            .feature
            .map(|f| (f.right() - 9.0, f.y + f.h * 0.5))
            .unwrap_or((CARD_W * 0.5, CARD_H * 0.5));
        put(
            MarkerKind::UsedFeature,
            c,
            r.gen_range(0.0..std::f64::consts::TAU),
            r,
        );
    }
    // The last marker laid partly over the one before it.
    if k >= 2 && h.stacked > 0.0 && r.gen_bool(h.stacked) {
        let n = out.len();
        let prev = out[n - 2].pose;
        let last = &mut out[n - 1];
        let d = f64::from(last.shape.w) * last.pose.scale * r.gen_range(0.5..0.8);
        let a = r.gen_range(0.0..std::f64::consts::TAU);
        last.pose.x = prev.x + d * a.cos();
        last.pose.y = prev.y + d * a.sin();
    }
}

#[allow(clippy::too_many_arguments)]
fn token_pieces(
    tokens: &[Token],
    card: &Pose,
    visible: f64,
    ci: usize,
    side: Side,
    ui: usize,
    h: &Habits,
    styles: &StylePick,
    r: &mut ChaCha8Rng,
    out: &mut Vec<Placed>,
) {
    if tokens.is_empty() {
        return;
    }
    let d = h.token_d;
    let rad = d * 0.5;
    let (cw, ch) = (f64::from(CARD_W), f64::from(CARD_H));
    // Positions on the card face (mm), clear of each other and of the next card.
    let top = rad + 2.0;
    let bottom = (visible - rad - 4.0).max(top);
    let mut spots: Vec<(f64, f64)> = Vec::new();
    if tokens.len() > 1 && h.stacked > 0.0 && r.gen_bool(h.stacked) {
        // Each token after the first lies over part of the one before: its centre a half
        // to four fifths of a token away, in any direction, on the card.
        let mut at = (
            r.gen_range(rad + 2.0..cw - rad - 2.0),
            r.gen_range(top..=bottom),
        );
        for _ in 0..tokens.len() {
            spots.push(at);
            let (d_next, a) = (
                d * r.gen_range(0.5..0.8),
                r.gen_range(0.0..std::f64::consts::TAU),
            );
            at = (
                (at.0 + d_next * a.cos()).clamp(rad + 2.0, cw - rad - 2.0),
                (at.1 + d_next * a.sin()).clamp(top, bottom),
            );
        }
    } else if tokens.len() == 1 {
        spots.push((
            r.gen_range(rad + 2.0..cw - rad - 2.0),
            r.gen_range(top..=bottom),
        ));
    } else {
        let mut cells = [(0.3, 0.0), (0.7, 0.0), (0.3, 1.0), (0.7, 1.0)];
        cells.shuffle(r);
        for &(fx, fy) in cells.iter().take(tokens.len()) {
            let x = cw * fx + r.gen_range(-1.5..1.5);
            let y = top + (bottom - top) * fy + r.gen_range(-1.5..1.5) * (1.0 - fy);
            spots.push((x, y.clamp(top, bottom)));
        }
    }
    let shape = faces::shape_of(&Component::Token(Token::Plus1));
    let scale = d / f64::from(TOKEN_D);
    let to_table = card.matrix(&PieceShape {
        w: CARD_W,
        h: CARD_H,
        outline: faces::Outline::RoundRect(faces::CARD_RADIUS),
    });
    for (ti, (t, &(x, y))) in tokens.iter().zip(&spots).enumerate() {
        let (tx, ty) = to_table.apply(x, y.min(ch)).unwrap_or((card.x, card.y));
        out.push(Placed {
            id: t.component_id().to_string(),
            style: styles.token(r),
            pose: Pose {
                x: tx,
                y: ty,
                angle: r.gen_range(0.0..std::f64::consts::TAU),
                scale,
            },
            shape,
            slot: Slot::Token(ci, side, ui, ti),
            region: Rect::new(0.0, 0.0, shape.w, shape.h),
            layer: Layer::Token,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::{scene, seeds};

    #[test]
    fn columns_leave_the_city_and_modules_show_a_strip() {
        let cat = Catalogue::bundled();
        let styles = StylePick {
            cards: 0,
            tokens: 0,
            mixed: None,
        };
        for i in 0..20 {
            let state = scene::generate(&cat, &mut seeds::stream(3, i, "layout"));
            let pieces = place(
                &cat,
                &state,
                &styles,
                0.0,
                &mut seeds::stream(3, i, "place"),
            );
            for p in &pieces {
                match p.slot {
                    Slot::Unit(_, Side::Moloch, _) => assert!(p.pose.y < -88.0),
                    Slot::Unit(_, Side::Outpost, _) => assert!(p.pose.y > 88.0),
                    Slot::Module(_, _, _) => assert!(p.region.w >= 10.0 && p.region.w <= 14.0),
                    _ => {}
                }
            }
            let units: usize = state
                .layout
                .cities
                .iter()
                .map(|c| c.moloch.len() + c.outpost.len())
                .sum();
            let n = pieces
                .iter()
                .filter(|p| matches!(p.slot, Slot::Unit(..)))
                .count();
            assert_eq!(units, n);
        }
    }
}
