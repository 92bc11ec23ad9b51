//! Small pictograms drawn with the face painter: kind icons, ability-trigger icons, token
//! and marker symbols. Each draws centred on `(cx, cy)` within a square of side `s` mm.

use super::draw::{Painter, Rgb};
use super::geom::Rect;
use tablelens_engine::{Kind, Trigger};

/// What an icon shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Icon {
    /// A robot head.
    Robot,
    /// A chip.
    Module,
    /// A helmet over a chevron.
    Soldier,
    /// A house.
    Building,
    /// A lightning bolt.
    Instant,
    /// A shield.
    Shield,
    /// A crossed-out bolt.
    Disable,
    /// A cross of two bars.
    Cross,
    /// A crosshair.
    Crosshair,
    /// A check mark.
    Check,
    /// A house with a plus.
    PlusHouse,
    /// A pawn (Kasparov Module).
    Pawn,
    /// A net (Net Module).
    Net,
    /// A trefoil (Contamination Module).
    Trefoil,
    /// A star.
    Star,
    /// An arrow entering a bar.
    Enter,
    /// A ring.
    Ring,
    /// A card with a minus.
    Discard,
    /// An equals sign.
    Equals,
    /// A one in a circle.
    Once,
}

impl Icon {
    /// The icon of a card kind.
    pub fn of_kind(kind: Kind) -> Icon {
        match kind {
            Kind::Robot => Icon::Robot,
            Kind::Module => Icon::Module,
            Kind::Soldier => Icon::Soldier,
            Kind::Building => Icon::Building,
            Kind::Instant => Icon::Instant,
        }
    }

    /// The icon of an ability trigger, if it has one.
    pub fn of_trigger(t: Trigger) -> Option<Icon> {
        Some(match t {
            Trigger::Enter => Icon::Enter,
            Trigger::Constant => Icon::Ring,
            Trigger::Discard => Icon::Discard,
            Trigger::WinOutpost | Trigger::WinMoloch => Icon::Star,
            Trigger::Tie => Icon::Equals,
            Trigger::Once => Icon::Once,
            Trigger::Instant => Icon::Instant,
            Trigger::None => return None,
        })
    }
}

/// A regular star polygon with `n` points.
pub fn star_points(cx: f32, cy: f32, r_out: f32, r_in: f32, n: usize) -> Vec<(f32, f32)> {
    (0..2 * n)
        .map(|i| {
            let a = std::f32::consts::PI * i as f32 / n as f32 - std::f32::consts::FRAC_PI_2;
            let r = if i % 2 == 0 { r_out } else { r_in };
            (cx + r * a.cos(), cy + r * a.sin())
        })
        .collect()
}

/// A regular polygon with `n` corners.
pub fn regular(cx: f32, cy: f32, r: f32, n: usize, rot: f32) -> Vec<(f32, f32)> {
    (0..n)
        .map(|i| {
            let a = std::f32::consts::TAU * i as f32 / n as f32 + rot;
            (cx + r * a.cos(), cy + r * a.sin())
        })
        .collect()
}

/// A heraldic shield outline.
pub fn shield_points(cx: f32, cy: f32, s: f32) -> Vec<(f32, f32)> {
    let h = s * 0.5;
    vec![
        (cx - h * 0.85, cy - h * 0.85),
        (cx, cy - h),
        (cx + h * 0.85, cy - h * 0.85),
        (cx + h * 0.8, cy + h * 0.1),
        (cx + h * 0.45, cy + h * 0.65),
        (cx, cy + h),
        (cx - h * 0.45, cy + h * 0.65),
        (cx - h * 0.8, cy + h * 0.1),
    ]
}

fn bolt(cx: f32, cy: f32, s: f32) -> Vec<(f32, f32)> {
    let h = s * 0.5;
    vec![
        (cx + h * 0.15, cy - h),
        (cx - h * 0.55, cy + h * 0.12),
        (cx - h * 0.02, cy + h * 0.12),
        (cx - h * 0.2, cy + h),
        (cx + h * 0.55, cy - h * 0.15),
        (cx + h * 0.02, cy - h * 0.15),
    ]
}

/// Draws an icon in `color`; `bg` fills the cut-outs (eyes, windows).
pub fn draw(p: &mut Painter, icon: Icon, cx: f32, cy: f32, s: f32, color: Rgb, bg: Rgb) {
    let h = s * 0.5;
    let lw = (s * 0.12).max(0.3);
    match icon {
        Icon::Robot => {
            let head = Rect::new(cx - h * 0.75, cy - h * 0.45, h * 1.5, h * 1.2);
            p.rect(head, h * 0.2, color);
            p.circle(cx - h * 0.35, cy + h * 0.05, h * 0.2, bg);
            p.circle(cx + h * 0.35, cy + h * 0.05, h * 0.2, bg);
            p.line((cx, cy - h * 0.45), (cx, cy - h * 0.85), lw, color);
            p.circle(cx, cy - h * 0.88, h * 0.14, color);
            p.rect(
                Rect::new(cx - h * 0.4, cy + h * 0.45, h * 0.8, h * 0.12),
                0.0,
                bg,
            );
        }
        Icon::Module => {
            let body = Rect::new(cx - h * 0.6, cy - h * 0.6, h * 1.2, h * 1.2);
            for i in 0..3 {
                let t = -0.4 + 0.4 * i as f32;
                p.line(
                    (cx + t * h, cy - h * 0.95),
                    (cx + t * h, cy + h * 0.95),
                    lw,
                    color,
                );
                p.line(
                    (cx - h * 0.95, cy + t * h),
                    (cx + h * 0.95, cy + t * h),
                    lw,
                    color,
                );
            }
            p.rect(body, h * 0.12, color);
            p.rect(body.inset(h * 0.3), 0.0, bg);
        }
        Icon::Soldier => {
            let pts: Vec<(f32, f32)> = (0..=16)
                .map(|i| {
                    let a = std::f32::consts::PI * (1.0 + i as f32 / 16.0);
                    (cx + h * 0.8 * a.cos(), cy + h * 0.05 + h * 0.8 * a.sin())
                })
                .collect();
            p.polygon(&pts, color);
            p.line(
                (cx - h * 0.95, cy + h * 0.08),
                (cx + h * 0.95, cy + h * 0.08),
                lw * 1.2,
                color,
            );
            p.line(
                (cx - h * 0.55, cy + h * 0.45),
                (cx, cy + h * 0.8),
                lw * 1.3,
                color,
            );
            p.line(
                (cx, cy + h * 0.8),
                (cx + h * 0.55, cy + h * 0.45),
                lw * 1.3,
                color,
            );
        }
        Icon::Building => {
            p.polygon(
                &[
                    (cx - h * 0.9, cy - h * 0.1),
                    (cx, cy - h * 0.9),
                    (cx + h * 0.9, cy - h * 0.1),
                ],
                color,
            );
            p.rect(
                Rect::new(cx - h * 0.7, cy - h * 0.15, h * 1.4, h * 1.05),
                0.0,
                color,
            );
            p.rect(
                Rect::new(cx - h * 0.18, cy + h * 0.35, h * 0.36, h * 0.55),
                0.0,
                bg,
            );
        }
        Icon::Instant => p.polygon(&bolt(cx, cy, s), color),
        Icon::Shield => {
            p.polygon(&shield_points(cx, cy, s), color);
            p.line((cx, cy - h * 0.6), (cx, cy + h * 0.6), lw, bg);
            p.line(
                (cx - h * 0.5, cy - h * 0.2),
                (cx + h * 0.5, cy - h * 0.2),
                lw,
                bg,
            );
        }
        Icon::Disable => {
            p.polygon(&bolt(cx, cy, s * 0.85), color);
            p.ring(cx, cy, h * 0.95, lw, color);
            p.line(
                (cx - h * 0.65, cy - h * 0.65),
                (cx + h * 0.65, cy + h * 0.65),
                lw * 1.4,
                color,
            );
        }
        Icon::Cross => {
            p.line(
                (cx - h * 0.7, cy - h * 0.7),
                (cx + h * 0.7, cy + h * 0.7),
                lw * 2.0,
                color,
            );
            p.line(
                (cx + h * 0.7, cy - h * 0.7),
                (cx - h * 0.7, cy + h * 0.7),
                lw * 2.0,
                color,
            );
        }
        Icon::Crosshair => {
            p.ring(cx, cy, h * 0.75, lw, color);
            p.circle(cx, cy, h * 0.15, color);
            p.line((cx - h, cy), (cx - h * 0.35, cy), lw, color);
            p.line((cx + h * 0.35, cy), (cx + h, cy), lw, color);
            p.line((cx, cy - h), (cx, cy - h * 0.35), lw, color);
            p.line((cx, cy + h * 0.35), (cx, cy + h), lw, color);
        }
        Icon::Check => {
            p.line(
                (cx - h * 0.7, cy),
                (cx - h * 0.2, cy + h * 0.55),
                lw * 1.8,
                color,
            );
            p.line(
                (cx - h * 0.2, cy + h * 0.55),
                (cx + h * 0.75, cy - h * 0.6),
                lw * 1.8,
                color,
            );
        }
        Icon::PlusHouse => {
            draw(
                p,
                Icon::Building,
                cx - h * 0.25,
                cy + h * 0.1,
                s * 0.7,
                color,
                bg,
            );
            p.line(
                (cx + h * 0.45, cy - h * 0.85),
                (cx + h * 0.45, cy - h * 0.15),
                lw,
                color,
            );
            p.line(
                (cx + h * 0.1, cy - h * 0.5),
                (cx + h * 0.8, cy - h * 0.5),
                lw,
                color,
            );
        }
        Icon::Pawn => {
            p.circle(cx, cy - h * 0.5, h * 0.28, color);
            p.polygon(
                &[
                    (cx - h * 0.2, cy - h * 0.25),
                    (cx + h * 0.2, cy - h * 0.25),
                    (cx + h * 0.45, cy + h * 0.6),
                    (cx - h * 0.45, cy + h * 0.6),
                ],
                color,
            );
            p.rect(
                Rect::new(cx - h * 0.65, cy + h * 0.6, h * 1.3, h * 0.3),
                h * 0.1,
                color,
            );
        }
        Icon::Net => {
            p.ring(cx, cy, h * 0.9, lw, color);
            for i in 0..5 {
                let t = -0.6 + 0.3 * i as f32;
                let e = (1.0 - t * t).max(0.0).sqrt() * 0.85;
                p.line(
                    (cx + t * h, cy - e * h),
                    (cx + t * h, cy + e * h),
                    lw * 0.6,
                    color,
                );
                p.line(
                    (cx - e * h, cy + t * h),
                    (cx + e * h, cy + t * h),
                    lw * 0.6,
                    color,
                );
            }
        }
        Icon::Trefoil => {
            for i in 0..3 {
                let a = std::f32::consts::TAU * i as f32 / 3.0 - std::f32::consts::FRAC_PI_2;
                p.circle(
                    cx + h * 0.45 * a.cos(),
                    cy + h * 0.45 * a.sin(),
                    h * 0.42,
                    color,
                );
            }
            p.circle(cx, cy, h * 0.2, bg);
            p.ring(cx, cy, h * 0.32, lw * 0.5, bg);
        }
        Icon::Star => p.polygon(&star_points(cx, cy, h, h * 0.42, 5), color),
        Icon::Enter => {
            p.line((cx - h * 0.8, cy), (cx + h * 0.2, cy), lw * 1.2, color);
            p.polygon(
                &[(cx + h * 0.45, cy), (cx, cy - h * 0.4), (cx, cy + h * 0.4)],
                color,
            );
            p.line(
                (cx + h * 0.7, cy - h * 0.8),
                (cx + h * 0.7, cy + h * 0.8),
                lw * 1.2,
                color,
            );
        }
        Icon::Ring => {
            p.ring(cx, cy, h * 0.8, lw * 1.4, color);
            p.circle(cx, cy, h * 0.25, color);
        }
        Icon::Discard => {
            let card = Rect::new(cx - h * 0.55, cy - h * 0.8, h * 1.1, h * 1.6);
            p.rect_outline(card, h * 0.15, lw, color);
            p.line((cx - h * 0.3, cy), (cx + h * 0.3, cy), lw * 1.2, color);
        }
        Icon::Equals => {
            p.line(
                (cx - h * 0.7, cy - h * 0.3),
                (cx + h * 0.7, cy - h * 0.3),
                lw * 1.4,
                color,
            );
            p.line(
                (cx - h * 0.7, cy + h * 0.3),
                (cx + h * 0.7, cy + h * 0.3),
                lw * 1.4,
                color,
            );
        }
        Icon::Once => {
            p.ring(cx, cy, h * 0.9, lw, color);
            p.line((cx, cy - h * 0.5), (cx, cy + h * 0.5), lw * 1.3, color);
            p.line(
                (cx, cy - h * 0.5),
                (cx - h * 0.25, cy - h * 0.25),
                lw * 1.3,
                color,
            );
        }
    }
}
