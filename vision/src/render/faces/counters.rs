//! Tokens and markers: the cardboard counters.

use super::*;
use crate::render::draw::{contrast_ink, sdf, shade, Align, Painter, Rgb};
use crate::render::geom::Rect;
use crate::render::icons::{self, Icon};
use crate::render::seeds;
use crate::render::style::FaceStyle;
use rand::Rng;
use tablelens_engine::Token;

pub(super) fn disc_face(p: &mut Painter, bg: Rgb, rim: f32) -> (f32, f32, f32) {
    let w = p.w as f32 / p.scale;
    let r = w * 0.5;
    p.rect(Rect::new(0.0, 0.0, w, w), 0.0, [1.0; 3]);
    p.shade(
        Rect::new(0.0, 0.0, w, w),
        |x, y| sdf::circle(x, y, r, r, r),
        |x, y| {
            let d = (((x - r * 0.7).powi(2) + (y - r * 0.7).powi(2)).sqrt() / (2.0 * r)).min(1.0);
            shade(bg, 1.12 - 0.3 * d)
        },
        1.0,
    );
    if rim > 0.0 {
        p.ring(r, r, r - 0.3, rim, shade(bg, 0.6));
    }
    (r, r, r)
}

pub(super) fn paint_token(p: &mut Painter, t: Token, style: &FaceStyle) {
    let i = Token::ALL.iter().position(|&x| x == t).unwrap_or(0);
    let bg = style.token_bg[i];
    let (cx, cy, r) = disc_face(p, bg, style.token_rim_mm);
    let ink = contrast_ink(bg);
    match t {
        Token::Plus1 | Token::Plus2 | Token::Minus2 => {
            let label = t.as_str();
            let font = style.token_font;
            let h = (r * 0.95).min(r * 1.5 / (2.0 * font.width));
            p.text(label, cx, cy - h * 0.5, h, &font, Align::Center, 0.0, ink);
        }
        Token::Shield => icons::draw(p, Icon::Shield, cx, cy, r * 1.2, ink, bg),
        Token::Disable => icons::draw(p, Icon::Disable, cx, cy, r * 1.3, ink, bg),
    }
}

pub(super) fn paint_marker(p: &mut Painter, m: MarkerKind, style: &FaceStyle) {
    let bg = style.marker_bg[m as usize];
    let ink = contrast_ink(bg);
    let w = p.w as f32 / p.scale;
    let h = p.h as f32 / p.scale;
    match m {
        MarkerKind::DestroyedDistrict => {
            let r = Rect::new(0.0, 0.0, w, h);
            p.gradient(r, 0.0, shade(bg, 1.15), shade(bg, 0.8), true);
            p.rect_outline(r.inset(0.6), 1.5, 0.6, shade(bg, 0.6));
            let mut g = seeds::rng(&[style.id, seeds::hash_str("crack")]);
            for _ in 0..5 {
                let a = (g.gen_range(1.0..w - 1.0), g.gen_range(1.0..h - 1.0));
                let b = (a.0 + g.gen_range(-4.0..4.0), a.1 + g.gen_range(-4.0..4.0));
                p.line(a, b, 0.3, shade(bg, 0.5));
            }
            icons::draw(p, Icon::Cross, w * 0.5, h * 0.5, w * 0.7, ink, bg);
        }
        MarkerKind::Battle => {
            let (cx, cy, r) = disc_face(p, bg, 1.2);
            icons::draw(p, Icon::Crosshair, cx, cy, r * 1.5, ink, bg);
        }
        MarkerKind::UsedFeature => {
            let (cx, cy, r) = disc_face(p, bg, 0.8);
            icons::draw(p, Icon::Check, cx, cy, r * 1.3, ink, bg);
        }
        MarkerKind::ExtraDistrict => {
            let r = Rect::new(0.0, 0.0, w, h);
            p.gradient(r, 0.0, shade(bg, 1.1), shade(bg, 0.85), false);
            p.rect_outline(r.inset(0.5), 1.5, 0.6, shade(bg, 0.55));
            icons::draw(p, Icon::PlusHouse, w * 0.35, h * 0.5, h * 0.75, ink, bg);
            p.text(
                "3",
                w * 0.75,
                h * 0.5 - 3.5,
                7.0,
                &style.token_font,
                Align::Center,
                0.0,
                ink,
            );
        }
    }
}
