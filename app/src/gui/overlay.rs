//! The frame with what the vision saw drawn over it: every piece outlined in its side's
//! colour and labelled, each unit's strength, each city's totals, the unidentified pieces,
//! the pieces read by a narrow margin and the places where a card may lie unread (marked
//! "?"), a card the player named at such a place, and (on the demo table) the truth.
//! Clicking a piece, or such a place, selects it for correction.

use super::correction::{centre, contains, same_place, Corrections};
use super::i18n::{city_name, component_name, tr, Lang};
use super::panels::{side_colour, WARN};
use super::view::View;
use eframe::egui::{self, Align2, Color32, FontId, Pos2, Rect, Shape, Stroke, Vec2};
use tablelens_engine::{Catalogue, CityId, Corners, Layout};
use tablelens_vision::perceive::assemble::Piece;
use tablelens_vision::perceive::PieceClass;

const CITY: Color32 = Color32::from_rgb(235, 200, 90);
const SMALL: Color32 = Color32::from_rgb(120, 190, 255);
const CORRECTED: Color32 = Color32::from_rgb(80, 230, 255);

/// What to draw.
#[derive(Debug, Clone, Copy)]
pub struct OverlayOptions {
    /// Piece outlines.
    pub outlines: bool,
    /// Names and points.
    pub labels: bool,
    /// The true layout's outlines (demo).
    pub truth: bool,
}

/// Draws the frame and the overlay in the space available; returns the corners of the piece
/// clicked, if any.
#[allow(clippy::too_many_arguments)]
pub fn show(
    ui: &mut egui::Ui,
    texture: &egui::TextureHandle,
    image_size: [u32; 2],
    cat: &Catalogue,
    lang: Lang,
    pieces: &[Piece],
    view: Option<&View>,
    truth: Option<&Layout>,
    corrections: &Corrections,
    selected: Option<&Corners>,
    options: OverlayOptions,
) -> Option<Corners> {
    let avail = ui.available_size();
    let (iw, ih) = (image_size[0].max(1) as f32, image_size[1].max(1) as f32);
    let scale = (avail.x / iw).min(avail.y / ih).max(0.01);
    let size = Vec2::new(iw * scale, ih * scale);
    let (rect, response) = ui.allocate_exact_size(avail, egui::Sense::click());
    let img_rect = Rect::from_center_size(rect.center(), size);
    let painter = ui.painter_at(rect);
    painter.image(
        texture.id(),
        img_rect,
        Rect::from_min_max(Pos2::ZERO, Pos2::new(1.0, 1.0)),
        Color32::WHITE,
    );
    let to_screen =
        |p: [f32; 2]| Pos2::new(img_rect.min.x + p[0] * scale, img_rect.min.y + p[1] * scale);
    let quad = |c: &Corners| c.iter().map(|p| to_screen(*p)).collect::<Vec<_>>();
    let font = FontId::proportional((13.0 * scale.sqrt()).clamp(10.0, 15.0));

    if options.truth {
        if let Some(t) = truth {
            for c in truth_outlines(t) {
                painter.extend(Shape::dashed_line(
                    &closed(quad(&c)),
                    Stroke::new(1.5, Color32::WHITE),
                    6.0,
                    4.0,
                ));
            }
        }
    }

    for p in pieces {
        let colour = piece_colour(cat, p);
        let corrected = corrections.at(&p.corners).is_some();
        let is_selected = selected.is_some_and(|s| same_place(s, &p.corners));
        if options.outlines || is_selected {
            let (w, col) = if is_selected {
                (4.0, Color32::WHITE)
            } else if corrected {
                (3.0, CORRECTED)
            } else {
                (2.0, colour)
            };
            let pts = quad(&p.corners);
            if p.id.is_none() {
                painter.extend(Shape::dashed_line(
                    &closed(pts),
                    Stroke::new(w, col),
                    8.0,
                    5.0,
                ));
            } else {
                painter.add(Shape::closed_line(pts, Stroke::new(w, col)));
            }
        }
        if options.labels {
            let anchor = centre_of(&quad(&p.corners));
            let text = match &p.id {
                None => format!("? {}", tr(lang, "unknown")),
                Some(id) if id.starts_with("token_") || id.starts_with("marker_") => String::new(),
                Some(id) if is_city(id) => String::new(),
                Some(id) => match view.and_then(|v| v.unit_at(&p.corners)) {
                    Some(u) => format!("{} {}", component_name(cat, lang, id), u.total),
                    None => component_name(cat, lang, id),
                },
            };
            if !text.is_empty() {
                tag(&painter, anchor, &text, colour, &font);
            }
        }
    }

    // A card the player named where the vision saw none (at a place where a card may lie
    // unread: the corrected layout holds a unit there), and such a place selected.
    let unseen = |c: &Corners| !pieces.iter().any(|p| same_place(&p.corners, c));
    for c in corrections.all().iter().filter(|c| unseen(&c.corners)) {
        let (Some(id), Some(unit)) = (&c.identity, view.and_then(|v| v.unit_at(&c.corners))) else {
            continue;
        };
        let pts = quad(&c.corners);
        let anchor = centre_of(&pts);
        painter.add(Shape::closed_line(pts, Stroke::new(3.0, CORRECTED)));
        if options.labels {
            let text = format!("{} {}", component_name(cat, lang, id), unit.total);
            tag(&painter, anchor, &text, CORRECTED, &font);
        }
    }
    if let Some(s) = selected.filter(|s| unseen(s)) {
        painter.add(Shape::closed_line(
            quad(s),
            Stroke::new(4.0, Color32::WHITE),
        ));
    }

    if let Some(v) = view {
        // A piece read by a narrow margin, and a place in a column where a card may lie
        // unread: marked for the player to look at.
        if options.outlines || options.labels {
            let missing = v.layout.missing.iter().filter_map(|m| m.corners);
            for corners in v
                .layout
                .doubts
                .iter()
                .filter_map(|d| d.corners)
                .chain(missing)
            {
                let pts = quad(&corners);
                let centre = centre_of(&pts);
                painter.add(Shape::closed_line(pts, Stroke::new(3.0, WARN)));
                tag(&painter, centre, "?", WARN, &font);
            }
        }
        if options.labels {
            for c in &v.cities {
                let Some(corners) = c.corners else { continue };
                let pts = quad(&corners);
                let centre = centre_of(&pts);
                let name = city_name(cat, lang, c.id);
                let text = if c.destroyed {
                    format!("{name} — {}", tr(lang, "destroyed"))
                } else {
                    format!("{name}\n{} : {}", c.moloch, c.outpost)
                };
                let bg = if c.active { WARN } else { CITY };
                tag(
                    &painter,
                    centre,
                    &text,
                    bg,
                    &FontId::proportional(font.size + 3.0),
                );
                if c.active && !c.destroyed {
                    painter.add(Shape::closed_line(pts, Stroke::new(4.0, WARN)));
                }
            }
        }
    }

    if response.clicked() {
        let pos = response.interact_pointer_pos()?;
        let p = [
            (pos.x - img_rect.min.x) / scale,
            (pos.y - img_rect.min.y) / scale,
        ];
        let missing: Vec<Corners> = view
            .map(|v| v.layout.missing.iter().filter_map(|m| m.corners).collect())
            .unwrap_or_default();
        return picked(pieces, &missing, p);
    }
    None
}

/// What a click at `p` (frame pixels) picks: the smallest piece under it (a token on a card
/// wins over the card), or a place where a card may lie unread (`missing`) under it, where
/// no piece but a card is, and the place's middle is nearer than the card's.
fn picked(pieces: &[Piece], missing: &[Corners], p: [f32; 2]) -> Option<Corners> {
    let piece = pieces
        .iter()
        .filter(|q| contains(&q.corners, p))
        .min_by(|a, b| area(&a.corners).total_cmp(&area(&b.corners)));
    let off = |c: &Corners| {
        let m = centre(c);
        (m[0] - p[0]).hypot(m[1] - p[1])
    };
    let place = missing
        .iter()
        .filter(|c| contains(c, p))
        .min_by(|a, b| off(a).total_cmp(&off(b)));
    match (piece, place) {
        (Some(q), Some(m)) if q.class == PieceClass::Card && off(m) < off(&q.corners) => Some(*m),
        (Some(q), _) => Some(q.corners),
        (None, m) => m.copied(),
    }
}

fn closed(mut pts: Vec<Pos2>) -> Vec<Pos2> {
    if let Some(first) = pts.first().copied() {
        pts.push(first);
    }
    pts
}

fn centre_of(pts: &[Pos2]) -> Pos2 {
    let n = pts.len().max(1) as f32;
    Pos2::new(
        pts.iter().map(|p| p.x).sum::<f32>() / n,
        pts.iter().map(|p| p.y).sum::<f32>() / n,
    )
}

fn area(c: &Corners) -> f32 {
    let mut a = 0.0;
    for i in 0..4 {
        let (p, q) = (c[i], c[(i + 1) % 4]);
        a += p[0] * q[1] - q[0] * p[1];
    }
    a.abs() / 2.0
}

fn is_city(id: &str) -> bool {
    CityId::parse_face(id).is_some()
}

/// The colour of a piece: its side, gold for cities, blue for tokens, orange when unknown.
fn piece_colour(cat: &Catalogue, p: &Piece) -> Color32 {
    match &p.id {
        None => Color32::from_rgb(255, 140, 0),
        Some(id) if is_city(id) => CITY,
        Some(id) => match cat.card(id) {
            Some(card) => side_colour(card.side),
            None => SMALL,
        },
    }
}

/// A label on a dark rounded background, centred on `at`.
fn tag(painter: &egui::Painter, at: Pos2, text: &str, colour: Color32, font: &FontId) {
    let galley = painter.layout_no_wrap(text.to_string(), font.clone(), Color32::WHITE);
    let rect = Align2::CENTER_CENTER
        .anchor_size(at, galley.size())
        .expand2(Vec2::new(5.0, 2.0));
    painter.rect_filled(rect, 4.0, Color32::from_black_alpha(190));
    painter.rect_stroke(
        rect,
        4.0,
        Stroke::new(1.5, colour),
        egui::StrokeKind::Outside,
    );
    painter.galley(rect.min + Vec2::new(5.0, 2.0), galley, Color32::WHITE);
}

/// The outlines of every piece in a true layout.
fn truth_outlines(t: &Layout) -> Vec<Corners> {
    let mut out = Vec::new();
    for c in &t.cities {
        out.extend(c.corners);
        for u in c.moloch.iter().chain(&c.outpost) {
            out.extend(u.corners);
            out.extend(u.module.as_ref().and_then(|m| m.corners));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn piece(class: PieceClass, x: f32, y: f32, w: f32, h: f32) -> Piece {
        Piece {
            class,
            corners: [[x, y], [x + w, y], [x + w, y + h], [x, y + h]],
            score: 0.9,
            id: None,
            similarity: 0.0,
            best: String::new(),
            similarities: Vec::new(),
        }
    }

    #[test]
    fn a_click_picks_the_smallest_piece_or_a_missing_card_nearer_than_the_card_under_it() {
        // A card at 0..60 x 0..90, a token on it, and a place where a card may lie unread
        // overlapping the card's lower half (60..150).
        let card = piece(PieceClass::Card, 0.0, 0.0, 60.0, 90.0);
        let token = piece(PieceClass::Small, 10.0, 10.0, 18.0, 18.0);
        let place: Corners = [[0.0, 60.0], [60.0, 60.0], [60.0, 150.0], [0.0, 150.0]];
        let pieces = [card.clone(), token.clone()];
        let at = |x, y| picked(&pieces, &[place], [x, y]);
        assert_eq!(at(15.0, 15.0), Some(token.corners));
        assert_eq!(at(30.0, 20.0), Some(card.corners));
        // Where both lie, the one whose middle is nearer.
        assert_eq!(at(30.0, 70.0), Some(card.corners));
        assert_eq!(at(30.0, 85.0), Some(place));
        // Where the place alone lies, and where nothing does.
        assert_eq!(at(30.0, 120.0), Some(place));
        assert_eq!(at(300.0, 300.0), None);
        assert_eq!(picked(&pieces, &[], [30.0, 85.0]), Some(card.corners));
    }
}
