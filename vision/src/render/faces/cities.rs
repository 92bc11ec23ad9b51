//! Both sides of the city cards.

use super::parts::*;
use super::*;
use crate::render::art::{self, Subject};
use crate::render::draw::{contrast_ink, lerp, shade, Align, Painter, Rgb};
use crate::render::geom::Rect;
use crate::render::icons::{self, Icon};
use crate::render::style::FaceStyle;
use rand::Rng;
use tablelens_engine::catalogue::Feature;
use tablelens_engine::City;

pub(super) fn slot_band(
    p: &mut Painter,
    r: Rect,
    color: Rgb,
    n: u32,
    icon: Icon,
    style: &FaceStyle,
) {
    p.rect(r, 0.0, color);
    p.line(
        (r.x, r.y + 0.4),
        (r.right(), r.y + 0.4),
        0.4,
        shade(color, 1.3),
    );
    let ink = contrast_ink(color);
    let (cx, cy) = r.center();
    let h = r.h * 0.72;
    let font = style.badge_font;
    p.text(
        &n.to_string(),
        cx + 9.0,
        cy - h * 0.5,
        h,
        &font,
        Align::Center,
        0.0,
        ink,
    );
    icons::draw(p, icon, r.x + 7.0, cy, r.h * 0.7, ink, color);
    // One pip per slot.
    let pip = (r.h * 0.22).min(2.2);
    for i in 0..n {
        let x = cx - 4.0 - i as f32 * pip * 2.4;
        p.rect(
            Rect::new(x - pip, cy - pip, pip * 2.0, pip * 2.0),
            pip * 0.3,
            ink,
        );
    }
    p.rect(
        Rect::new(cx + 14.5, cy - r.h * 0.3, 0.5, r.h * 0.6),
        0.0,
        ink,
    );
}

pub(super) fn paint_city(p: &mut Painter, city: &City, style: &FaceStyle) {
    let geo = city_geometry(style, city);
    let bg = lerp(style.paper, [0.55, 0.55, 0.58], 0.25);
    p.rect(Rect::new(0.0, 0.0, CARD_W, CARD_H), 0.0, bg);
    let band = style.city_band_mm;
    slot_band(
        p,
        Rect::new(0.0, 0.0, CARD_W, band),
        style.red,
        city.moloch_slots.value,
        Icon::Robot,
        style,
    );
    slot_band(
        p,
        Rect::new(0.0, CARD_H - band, CARD_W, band),
        style.green,
        city.outpost_slots.value,
        Icon::Soldier,
        style,
    );

    // Order and name.
    let t = geo.title;
    let oc = t.y + t.h * 0.5;
    p.circle(t.x + 4.0, oc, 3.8, style.ink);
    p.text(
        &city.order.to_string(),
        t.x + 4.0,
        oc - 2.6,
        5.2,
        &style.badge_font,
        Align::Center,
        0.0,
        style.paper,
    );
    let name_r = Rect::new(t.x + 8.5, t.y, t.w - 8.5, t.h);
    let name = city.names.get(style.lang);
    title_text(p, name, name_r, style, style.ink, 0.0);

    // Picture.
    let mut g = art_rng(city.id.as_str(), style);
    let pal = art::palette(
        g.gen_range(180.0..280.0),
        style.art_hue_spread,
        style.art_saturation * 0.7,
        &mut g,
    );
    p.rect(geo.art.inset(-0.4), 0.0, style.ink);
    art::paint(p, geo.art, style.art, &pal, Some(Subject::City), &mut g);

    // Districts.
    let printed = city.districts.value as usize;
    for (i, d) in geo.districts.iter().enumerate() {
        let extra = i >= printed;
        let fill = lerp(style.paper, style.accent, 0.18);
        let (cx, cy) = d.center();
        if style.district_discs {
            let r = d.w.min(d.h) * 0.5;
            if extra {
                dashed_ring(p, cx, cy, r - 0.4, style.ink);
            } else {
                p.circle(cx, cy, r, style.ink);
                p.circle(cx, cy, r - 0.6, fill);
            }
        } else if extra {
            dashed_rect(p, *d, style.ink);
        } else {
            p.rect(*d, style.panel_radius, style.ink);
            p.rect(d.inset(0.6), (style.panel_radius - 0.6).max(0.0), fill);
        }
        let nh = 4.2;
        p.text(
            &(i + 1).to_string(),
            d.x + 1.6,
            d.y + 1.4,
            nh,
            &style.badge_font,
            Align::Left,
            0.0,
            style.ink,
        );
        let icon = if extra {
            Icon::PlusHouse
        } else {
            match city.district_effect(i) {
                Some(tablelens_engine::DistrictEffect::Kill) => Icon::Crosshair,
                Some(tablelens_engine::DistrictEffect::Draw) => Icon::Discard,
                Some(tablelens_engine::DistrictEffect::ToNewYork) => Icon::Enter,
                Some(tablelens_engine::DistrictEffect::Bomb) => Icon::Star,
                None => Icon::Building,
            }
        };
        let col = lerp(style.ink, fill, 0.35);
        icons::draw(p, icon, cx, cy + 2.0, d.w.min(d.h) * 0.42, col, fill);
    }

    // Feature box.
    if let Some(f) = geo.feature {
        p.rect(
            f,
            style.panel_radius.min(2.0),
            lerp(style.paper, style.green, 0.25),
        );
        icons::draw(
            p,
            Icon::Check,
            f.x + 4.0,
            f.y + f.h * 0.5,
            f.h * 0.6,
            style.ink,
            style.paper,
        );
        let text = match city.feature {
            Feature::DestroyRobot => "discard 2: destroy a robot here",
            Feature::ExtraOutpostSlot => "discard 1: +1 Outpost slot",
            Feature::ExtraDistrict => "discard 2: add a 3rd district",
            Feature::MoveSoldierJerseyNewYork => "discard 2: move a soldier",
            Feature::None => "",
        };
        let r = Rect::new(f.x + 8.0, f.y + 1.0, f.w - 9.0, f.h - 1.5);
        small_text(p, text, r, style, style.ink);
    }
}

pub(super) fn dashed_rect(p: &mut Painter, r: Rect, color: Rgb) {
    let dash = 2.0;
    let lw = 0.5;
    let mut t = 0.0;
    let per = 2.0 * (r.w + r.h);
    while t < per {
        let a = point_on_rect(r, t);
        let b = point_on_rect(r, (t + dash).min(per));
        p.line(a, b, lw, color);
        t += dash * 2.0;
    }
}

pub(super) fn point_on_rect(r: Rect, t: f32) -> (f32, f32) {
    if t < r.w {
        (r.x + t, r.y)
    } else if t < r.w + r.h {
        (r.right(), r.y + t - r.w)
    } else if t < 2.0 * r.w + r.h {
        (r.right() - (t - r.w - r.h), r.bottom())
    } else {
        (r.x, r.bottom() - (t - 2.0 * r.w - r.h))
    }
}

pub(super) fn dashed_ring(p: &mut Painter, cx: f32, cy: f32, r: f32, color: Rgb) {
    let n = 16;
    for i in 0..n {
        let a0 = std::f32::consts::TAU * i as f32 / n as f32;
        let a1 = a0 + std::f32::consts::TAU * 0.5 / n as f32;
        p.line(
            (cx + r * a0.cos(), cy + r * a0.sin()),
            (cx + r * a1.cos(), cy + r * a1.sin()),
            0.5,
            color,
        );
    }
}

pub(super) fn destroyed_word(lang: &str) -> &'static str {
    match lang {
        "pl" => "Zniszczone",
        "hu" => "Elpusztult",
        _ => "Destroyed",
    }
}

pub(super) fn paint_destroyed(p: &mut Painter, city: &City, style: &FaceStyle) {
    let bg = lerp(shade(style.paper, 0.45), [0.25, 0.2, 0.18], 0.5);
    p.rect(Rect::new(0.0, 0.0, CARD_W, CARD_H), 0.0, bg);
    let band = style.city_band_mm * 0.7;
    p.rect(
        Rect::new(0.0, 0.0, CARD_W, band),
        0.0,
        shade(style.red, 0.7),
    );
    p.rect(
        Rect::new(0.0, CARD_H - band, CARD_W, band),
        0.0,
        shade(style.green, 0.7),
    );
    let mut g = art_rng(&format!("{}_destroyed", city.id), style);
    let pal = art::palette(g.gen_range(10.0..40.0), 25.0, 0.35, &mut g);
    let art_r = Rect::new(3.0, band + 14.0, CARD_W - 6.0, CARD_H - 2.0 * band - 30.0);
    art::paint(p, art_r, style.art, &pal, Some(Subject::Ruin), &mut g);
    // Darken the picture through a translucent veil.
    p.rect_alpha(art_r, 0.0, [0.1, 0.08, 0.07], 0.35);
    let ink = contrast_ink(bg);
    let t = Rect::new(3.0, band + 2.0, CARD_W - 6.0, 10.0);
    p.circle(t.x + 4.0, t.y + 5.0, 3.8, ink);
    p.text(
        &city.order.to_string(),
        t.x + 4.0,
        t.y + 2.4,
        5.2,
        &style.badge_font,
        Align::Center,
        0.0,
        bg,
    );
    title_text(
        p,
        city.names.get(style.lang),
        Rect::new(t.x + 8.5, t.y, t.w - 8.5, t.h),
        style,
        ink,
        0.0,
    );
    let word = style.title_font.cased(destroyed_word(style.lang));
    let wr = Rect::new(4.0, CARD_H - band - 13.0, CARD_W - 8.0, 9.0);
    p.rect(wr, 1.0, shade(style.red, 0.85));
    let h = Painter::fit_height(&word, wr.w - 2.0, 6.0, &style.title_font);
    p.text(
        &word,
        wr.x + wr.w * 0.5,
        wr.y + (wr.h - h) * 0.5,
        h,
        &style.title_font,
        Align::Center,
        0.0,
        contrast_ink(style.red),
    );
    icons::draw(
        p,
        Icon::Cross,
        CARD_W * 0.5,
        art_r.y + art_r.h * 0.5,
        18.0,
        shade(style.red, 1.1),
        bg,
    );
}
