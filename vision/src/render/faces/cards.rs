//! Unit, module and instant cards.

use super::parts::*;
use super::*;
use crate::render::art::{self, Subject};
use crate::render::draw::{contrast_ink, lerp, shade, Align, Painter, Rgb};
use crate::render::geom::Rect;
use crate::render::icons::{self, Icon};
use crate::render::style::{Corner, FaceStyle, TitleAt};
use crate::render::text::Font;
use rand::Rng;
use tablelens_engine::{Card, Kind, Side};

pub(super) fn subject_of(card: &Card) -> Subject {
    match card.kind {
        Kind::Robot => Subject::Robot,
        Kind::Module => Subject::Module,
        Kind::Soldier => Subject::Soldier,
        Kind::Building => Subject::Building,
        Kind::Instant => Subject::Instant,
    }
}

pub(super) fn module_icon(card: &Card) -> Option<Icon> {
    match card.id.as_str() {
        "kasparov_module" => Some(Icon::Pawn),
        "net_module" => Some(Icon::Net),
        "contamination_module" => Some(Icon::Trefoil),
        _ => None,
    }
}

pub(super) fn paint_card(p: &mut Painter, card: &Card, style: &FaceStyle) {
    let moloch = card.side == Side::Moloch;
    let faction = style.faction(moloch);
    let band = if card.kind == Kind::Module {
        style.module_band_mm
    } else {
        0.0
    };
    let body_w = CARD_W - band;
    let inner = frame(p, style, faction, CARD_W, CARD_H);
    let inner = Rect::new(inner.x, inner.y, (inner.w - band).max(10.0), inner.h);
    let mut g = art_rng(&card.id, style);
    let pal = art::palette(
        g.gen_range(0.0..360.0),
        style.art_hue_spread,
        style.art_saturation,
        &mut g,
    );

    // Regions.
    let th = style.title_h + 2.4;
    let text_h = (inner.h * 0.26).max(12.0);
    let art_h = inner.h - th - text_h - 4.0;
    let (title, art_r, text_r) = match style.title_at {
        TitleAt::Top => {
            let t = Rect::new(inner.x + 0.8, inner.y + 0.8, inner.w - 1.6, th);
            let a = Rect::new(inner.x + 1.5, t.bottom() + 1.0, inner.w - 3.0, art_h);
            let x = Rect::new(
                inner.x + 1.5,
                a.bottom() + 1.2,
                inner.w - 3.0,
                inner.bottom() - a.bottom() - 2.0,
            );
            (t, a, x)
        }
        TitleAt::BelowArt => {
            let a = Rect::new(inner.x + 1.5, inner.y + 1.5, inner.w - 3.0, art_h);
            let t = Rect::new(inner.x + 0.8, a.bottom() + 0.8, inner.w - 1.6, th);
            let x = Rect::new(
                inner.x + 1.5,
                t.bottom() + 0.8,
                inner.w - 3.0,
                inner.bottom() - t.bottom() - 1.6,
            );
            (t, a, x)
        }
        TitleAt::Bottom => {
            let a = Rect::new(inner.x + 1.5, inner.y + 1.5, inner.w - 3.0, art_h);
            let x = Rect::new(inner.x + 1.5, a.bottom() + 1.2, inner.w - 3.0, text_h - 1.0);
            let t = Rect::new(inner.x + 0.8, inner.bottom() - th - 0.8, inner.w - 1.6, th);
            (t, a, x)
        }
    };

    // Artwork: in its window, or over the whole card under translucent plates.
    let subject = style.art_figure.then(|| subject_of(card));
    let tint = lerp(style.paper, faction, 0.1);
    if style.full_art {
        art::paint(p, inner, style.art, &pal, subject, &mut g);
        p.rect_alpha(text_r, style.panel_radius.min(2.0), tint, 0.82);
    } else {
        p.rect(art_r.inset(-0.5), 0.0, shade(style.ink, 0.8));
        art::paint(p, art_r, style.art, &pal, subject, &mut g);
        p.rect(text_r, style.panel_radius.min(2.0), tint);
    }
    let trig = icons::Icon::of_trigger(card.trigger);
    let icon_s = 4.0;
    let text_area = Rect::new(
        text_r.x + 1.2,
        text_r.y + 1.2,
        text_r.w - 2.4 - icon_s - 1.0,
        text_r.h - 2.4,
    );
    small_text(p, &card.ability, text_area, style, style.ink);
    if let Some(i) = trig {
        icons::draw(
            p,
            i,
            text_r.right() - icon_s * 0.5 - 1.0,
            text_r.y + icon_s * 0.5 + 1.0,
            icon_s,
            style.ink,
            tint,
        );
    }

    // Title.
    let title_at_top = title.y < CARD_H * 0.5;
    let reserve = |c: Corner, s: f32| -> f32 {
        if is_top(c) == title_at_top {
            s * 0.75
        } else {
            0.0
        }
    };
    let strength = printed_strength(card);
    let mut res = reserve(style.icon_at, style.icon_mm);
    if strength.is_some() {
        res = res.max(reserve(style.badge_at, style.badge_mm));
    }
    let name = card.names.get(style.lang);
    if style.title_plate || style.full_art {
        let plate = lerp(faction, style.paper, 0.15);
        let alpha = if style.full_art { 0.85 } else { 1.0 };
        p.rect_alpha(title, style.panel_radius.min(th * 0.4), plate, alpha);
        title_text(p, name, title, style, contrast_ink(plate), res);
    } else {
        p.line(
            (title.x + 2.0, title.bottom()),
            (title.right() - 2.0, title.bottom()),
            0.5,
            faction,
        );
        title_text(p, name, title, style, style.ink, res);
    }

    // Strength badge and kind icon, straddling the frame corner.
    let area = Rect::new(1.2, 1.2, body_w - 2.4, CARD_H - 2.4);
    if let Some(s) = strength {
        let (bx, by) = corner_pos(style.badge_at, area, style.badge_mm);
        let label = if card.kind == Kind::Module {
            format!("+{s}")
        } else {
            s.to_string()
        };
        badge(p, style, bx, by, style.badge_mm, style.accent, &label);
    }
    let (ix, iy) = corner_pos(style.icon_at, area, style.icon_mm);
    let plate = lerp(faction, [0.0; 3], 0.2);
    p.circle(ix, iy, style.icon_mm * 0.5, plate);
    icons::draw(
        p,
        Icon::of_kind(card.kind),
        ix,
        iy,
        style.icon_mm * 0.68,
        contrast_ink(plate),
        plate,
    );

    if card.kind == Kind::Module {
        module_band(p, card, style, faction, band);
    }
}

/// The right band of a module card: what shows when it is tucked under a robot.
pub(super) fn module_band(
    p: &mut Painter,
    card: &Card,
    style: &FaceStyle,
    faction: Rgb,
    band: f32,
) {
    let r = Rect::new(CARD_W - band, 0.0, band, CARD_H);
    p.gradient(r, 0.0, shade(faction, 1.15), shade(faction, 0.75), false);
    p.line(
        (r.x + 0.3, 2.0),
        (r.x + 0.3, CARD_H - 2.0),
        0.5,
        style.paper,
    );
    let ink = contrast_ink(faction);
    let (cx, w) = (r.x + band * 0.5 + 0.2, band * 0.8);
    // The power value or the ability symbol, at the top.
    match (printed_strength(card), module_icon(card)) {
        (Some(s), _) => {
            let label = format!("+{s}");
            let fill = style.accent;
            p.circle(cx, 3.0 + w * 0.5, w * 0.5, shade(fill, 0.6));
            p.circle(cx, 3.0 + w * 0.5, w * 0.43, fill);
            let th = w * 0.5;
            p.text(
                &label,
                cx,
                3.0 + w * 0.5 - th * 0.5,
                th,
                &style.badge_font,
                Align::Center,
                0.0,
                contrast_ink(fill),
            );
        }
        (None, Some(i)) => icons::draw(p, i, cx, 3.0 + w * 0.5, w * 0.95, ink, faction),
        (None, None) => {}
    }
    // The name, written downwards.
    let name = style.title_font.cased(card.names.get(style.lang));
    let avail = CARD_H - w - 16.0;
    let font = Font {
        width: style.title_font.width.max(0.8),
        ..style.title_font
    };
    let h = Painter::fit_height(&name, avail, band * 0.62, &font);
    let x = cx + h * 0.5;
    p.text(
        &name,
        x,
        5.0 + w,
        h,
        &font,
        Align::Left,
        std::f32::consts::FRAC_PI_2,
        ink,
    );
    icons::draw(
        p,
        Icon::Module,
        cx,
        CARD_H - 3.0 - w * 0.45,
        w * 0.75,
        ink,
        faction,
    );
}
