//! Parts shared by the card faces: frames, badges, titles, small print.

use crate::render::draw::{contrast_ink, lerp, shade, Align, Painter, Rgb};
use crate::render::geom::Rect;
use crate::render::icons;
use crate::render::seeds;
use crate::render::style::{Badge, Corner, FaceStyle, FrameKind};
use crate::render::text;

pub(super) fn art_rng(id: &str, style: &FaceStyle) -> rand_chacha::ChaCha8Rng {
    seeds::rng(&[seeds::hash_str(id), style.id, seeds::hash_str("art")])
}

pub(super) fn frame(p: &mut Painter, style: &FaceStyle, color: Rgb, w: f32, h: f32) -> Rect {
    let full = Rect::new(0.0, 0.0, w, h);
    let f = style.frame_mm;
    let r = style.panel_radius;
    match style.frame {
        FrameKind::Solid => {
            p.rect(full, 0.0, color);
            p.rect(full.inset(f), r, style.paper);
            full.inset(f)
        }
        FrameKind::Double => {
            p.rect(full, 0.0, color);
            p.rect_outline(
                full.inset(f * 0.35),
                r + 1.0,
                (f * 0.12).max(0.3),
                lerp(color, [1.0; 3], 0.7),
            );
            p.rect(full.inset(f), r, style.paper);
            full.inset(f)
        }
        FrameKind::Gradient => {
            p.gradient(full, 0.0, shade(color, 1.35), shade(color, 0.6), true);
            p.rect(full.inset(f), r, style.paper);
            full.inset(f)
        }
        FrameKind::Corners => {
            let t = (f * 0.5).max(1.0);
            p.rect(full, 0.0, color);
            p.rect(full.inset(t), r, style.paper);
            let l = 12.0;
            for (cx, cy, sx, sy) in [
                (0.0, 0.0, 1.0, 1.0),
                (w, 0.0, -1.0, 1.0),
                (0.0, h, 1.0, -1.0),
                (w, h, -1.0, -1.0),
            ] {
                let a = Rect::new(
                    if sx > 0.0 { cx } else { cx - l },
                    if sy > 0.0 { cy } else { cy - f * 1.6 },
                    l,
                    f * 1.6,
                );
                let b = Rect::new(
                    if sx > 0.0 { cx } else { cx - f * 1.6 },
                    if sy > 0.0 { cy } else { cy - l },
                    f * 1.6,
                    l,
                );
                p.rect(a, 0.0, color);
                p.rect(b, 0.0, color);
            }
            full.inset(t)
        }
        FrameKind::Banners => {
            let side = 1.0;
            p.rect(full, 0.0, color);
            let inner = Rect::new(side, f * 1.6, w - 2.0 * side, h - f * 3.2);
            p.rect(inner, r, style.paper);
            inner
        }
    }
}

pub(super) fn corner_pos(at: Corner, area: Rect, s: f32) -> (f32, f32) {
    let (x, y) = match at {
        Corner::TopLeft => (area.x, area.y),
        Corner::TopRight => (area.right() - s, area.y),
        Corner::BottomLeft => (area.x, area.bottom() - s),
        Corner::BottomRight => (area.right() - s, area.bottom() - s),
    };
    (x + s * 0.5, y + s * 0.5)
}

pub(super) fn is_top(c: Corner) -> bool {
    matches!(c, Corner::TopLeft | Corner::TopRight)
}

pub(super) fn badge(
    p: &mut Painter,
    style: &FaceStyle,
    cx: f32,
    cy: f32,
    s: f32,
    fill: Rgb,
    label: &str,
) {
    let h = s * 0.5;
    let edge = shade(fill, 0.55);
    let outline: Vec<(f32, f32)> = match style.badge {
        Badge::Circle => Vec::new(),
        Badge::Shield => icons::shield_points(cx, cy, s),
        Badge::Hexagon => icons::regular(cx, cy, h, 6, 0.0),
        Badge::Square => Vec::new(),
        Badge::Diamond => icons::regular(cx, cy, h, 4, 0.0),
        Badge::Star => icons::star_points(cx, cy, h * 1.1, h * 0.72, 8),
    };
    match style.badge {
        Badge::Circle => {
            p.circle(cx, cy, h, edge);
            p.circle(cx, cy, h * 0.86, fill);
        }
        Badge::Square => {
            let r = Rect::new(cx - h, cy - h, s, s);
            p.rect(r, h * 0.3, edge);
            p.rect(r.inset(h * 0.14), h * 0.2, fill);
        }
        _ => {
            p.polygon(&outline, edge);
            let inner: Vec<(f32, f32)> = outline
                .iter()
                .map(|&(x, y)| (cx + (x - cx) * 0.84, cy + (y - cy) * 0.84))
                .collect();
            p.polygon(&inner, fill);
        }
    }
    let font = style.badge_font;
    let n = label.chars().count().max(1) as f32;
    let th = (s * 0.62).min(s * 0.78 / (n * font.width));
    let ink = contrast_ink(fill);
    p.text(
        label,
        cx,
        cy - th * 0.5 + th * 0.06,
        th,
        &font,
        Align::Center,
        0.0,
        ink,
    );
}

pub(super) fn title_text(
    p: &mut Painter,
    s: &str,
    r: Rect,
    style: &FaceStyle,
    color: Rgb,
    reserve: f32,
) {
    let font = style.title_font;
    let s = font.cased(s);
    let avail = Rect::new(r.x + reserve, r.y, (r.w - 2.0 * reserve).max(4.0), r.h);
    let h = Painter::fit_height(&s, avail.w - 1.0, style.title_h.min(r.h - 1.0), &font);
    let y = r.y + (r.h - h) * 0.5 + h * 0.08;
    let (x, align) = match style.title_align {
        Align::Center => (avail.x + avail.w * 0.5, Align::Center),
        _ => (avail.x + 0.8, Align::Left),
    };
    p.text(&s, x, y, h, &font, align, 0.0, color);
}

pub(super) fn small_text(p: &mut Painter, s: &str, r: Rect, style: &FaceStyle, color: Rgb) {
    let font = style.text_font;
    let h = style.text_h;
    let per_line = (r.w / (h * font.width)).floor().max(1.0) as usize;
    let lines = text::wrap(&font.cased(s), per_line);
    let step = h * 1.25;
    for (i, line) in lines.iter().enumerate() {
        let y = r.y + i as f32 * step;
        if y + h > r.bottom() {
            break;
        }
        if style.ability_text {
            p.text(line, r.x, y, h, &font, Align::Left, 0.0, color);
        } else {
            let w = Painter::text_width(line, h, &font);
            p.rect(
                Rect::new(r.x, y + h * 0.2, w, h * 0.55),
                h * 0.2,
                lerp(color, style.paper, 0.55),
            );
        }
    }
}
