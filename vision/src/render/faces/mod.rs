//! Proxy faces of every component: unit, module and instant cards, both sides of the city
//! cards, tokens and markers. A face is painted in millimetres at any density, upright
//! (city cards as the Outpost player sees them: red edge at the top, green at the bottom),
//! and depends only on the component id and the face style.

mod cards;
mod cities;
mod counters;
mod parts;

use super::draw::{sdf, Painter};
use super::geom::Rect;
use super::seeds;
use super::style::FaceStyle;
use image::RgbImage;
use tablelens_engine::catalogue::{Feature, MARKER_IDS};
use tablelens_engine::{Card, Catalogue, City, CityId, Kind, Token};

/// Card width (mm).
pub const CARD_W: f32 = 63.0;
/// Card height (mm).
pub const CARD_H: f32 = 88.0;
/// Corner radius of cards (mm).
pub const CARD_RADIUS: f32 = 3.0;
/// Nominal token diameter (mm); scenes scale tokens to 16-20 mm.
pub const TOKEN_D: f32 = 18.0;
/// Density of the faces `render --faces` writes (pixels per mm).
pub const CANONICAL_DENSITY: f32 = 6.0;

/// One of the markers that lie on city cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MarkerKind {
    /// A destroyed-district marker.
    DestroyedDistrict,
    /// The battle-for-district marker.
    Battle,
    /// The used-city-feature token.
    UsedFeature,
    /// The additional-district token.
    ExtraDistrict,
}

impl MarkerKind {
    /// Every marker, in the order of the catalogue's marker ids.
    pub const ALL: [MarkerKind; 4] = [
        MarkerKind::DestroyedDistrict,
        MarkerKind::Battle,
        MarkerKind::UsedFeature,
        MarkerKind::ExtraDistrict,
    ];

    /// The component id (`marker_battle`, ...).
    pub fn id(self) -> &'static str {
        MARKER_IDS[self as usize]
    }
}

/// A physical piece, resolved from its component id.
#[derive(Debug, Clone, Copy)]
pub enum Component<'a> {
    /// A card from the catalogue.
    Card(&'a Card),
    /// A city card, standing side.
    City(&'a City),
    /// A city card, destroyed side.
    Destroyed(&'a City),
    /// A token.
    Token(Token),
    /// A marker.
    Marker(MarkerKind),
}

/// Resolves a component id.
pub fn component<'a>(cat: &'a Catalogue, id: &str) -> Option<Component<'a>> {
    if let Some(c) = cat.card(id) {
        return Some(Component::Card(c));
    }
    match CityId::parse_face(id) {
        Some((c, false)) => return Some(Component::City(cat.city(c))),
        Some((c, true)) => return Some(Component::Destroyed(cat.city(c))),
        None => {}
    }
    if let Some(t) = Token::from_component_id(id) {
        return Some(Component::Token(t));
    }
    MarkerKind::ALL
        .into_iter()
        .find(|m| m.id() == id)
        .map(Component::Marker)
}

/// The outline of a piece.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Outline {
    /// A rectangle with rounded corners of this radius (mm).
    RoundRect(f32),
    /// A disc filling the square face.
    Circle,
}

/// Size and outline of a piece, in mm, upright.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PieceShape {
    /// Width.
    pub w: f32,
    /// Height.
    pub h: f32,
    /// Outline.
    pub outline: Outline,
}

impl PieceShape {
    /// Signed distance (mm, negative inside) of a point in face coordinates.
    #[inline]
    pub fn sd(&self, x: f32, y: f32) -> f32 {
        match self.outline {
            Outline::RoundRect(r) => sdf::round_rect(x, y, &Rect::new(0.0, 0.0, self.w, self.h), r),
            Outline::Circle => {
                sdf::circle(x, y, self.w * 0.5, self.h * 0.5, self.w.min(self.h) * 0.5)
            }
        }
    }
}

/// The physical size and outline of a component.
pub fn shape_of(c: &Component) -> PieceShape {
    let card = PieceShape {
        w: CARD_W,
        h: CARD_H,
        outline: Outline::RoundRect(CARD_RADIUS),
    };
    match c {
        Component::Card(_) | Component::City(_) | Component::Destroyed(_) => card,
        Component::Token(_) => PieceShape {
            w: TOKEN_D,
            h: TOKEN_D,
            outline: Outline::Circle,
        },
        Component::Marker(m) => match m {
            MarkerKind::DestroyedDistrict => PieceShape {
                w: 16.0,
                h: 16.0,
                outline: Outline::RoundRect(2.0),
            },
            MarkerKind::Battle => PieceShape {
                w: 18.0,
                h: 18.0,
                outline: Outline::Circle,
            },
            MarkerKind::UsedFeature => PieceShape {
                w: 15.0,
                h: 15.0,
                outline: Outline::Circle,
            },
            MarkerKind::ExtraDistrict => PieceShape {
                w: 22.0,
                h: 15.0,
                outline: Outline::RoundRect(2.0),
            },
        },
    }
}

/// The strength printed on a proxy card: the catalogue value where there is one, else a
/// value fixed by the id (units only; instants and special modules print none).
pub fn printed_strength(card: &Card) -> Option<i32> {
    if card.strength.is_some() {
        return card.strength;
    }
    let h = seeds::hash_str(&card.id);
    match card.kind {
        Kind::Robot => Some(1 + (h % 5) as i32),
        Kind::Soldier => Some(1 + (h % 4) as i32),
        Kind::Building => Some((h % 3) as i32),
        Kind::Module | Kind::Instant => None,
    }
}

/// Where things lie on a city card of a style (mm, upright).
#[derive(Debug, Clone, PartialEq)]
pub struct CityGeometry {
    /// District panels in printed order; a dashed extra one last for Jersey Crust.
    pub districts: Vec<Rect>,
    /// The feature box, for cities with a feature.
    pub feature: Option<Rect>,
    /// The picture window.
    pub art: Rect,
    /// The title row.
    pub title: Rect,
}

/// The city card layout of a style.
pub fn city_geometry(style: &FaceStyle, city: &City) -> CityGeometry {
    let band = style.city_band_mm;
    let top = band + 1.0;
    let bottom = CARD_H - band - 1.0;
    let title = Rect::new(3.0, top, CARD_W - 6.0, 8.0);
    let n = city.districts.value as usize + usize::from(city.feature == Feature::ExtraDistrict);
    let n = n.max(1);
    let dh = 21.0;
    let fh = 9.0;
    let gap = 2.0;
    let dw = (CARD_W - 8.0 - gap * (n as f32 - 1.0)) / n as f32;
    let (dy, art, fy) = if style.districts_high {
        let dy = title.bottom() + 1.0;
        let fy = bottom - fh;
        (
            dy,
            Rect::new(3.0, dy + dh + 1.5, CARD_W - 6.0, fy - dy - dh - 3.0),
            fy,
        )
    } else {
        let fy = bottom - fh;
        let dy = fy - dh - 1.5;
        (
            dy,
            Rect::new(
                3.0,
                title.bottom() + 1.0,
                CARD_W - 6.0,
                dy - title.bottom() - 2.5,
            ),
            fy,
        )
    };
    let districts = (0..n)
        .map(|i| Rect::new(4.0 + i as f32 * (dw + gap), dy, dw, dh))
        .collect();
    let feature = (city.feature != Feature::None).then(|| Rect::new(4.0, fy, CARD_W - 8.0, fh));
    CityGeometry {
        districts,
        feature,
        art,
        title,
    }
}

/// Paints a component's face at `scale` pixels per mm.
pub fn paint(c: &Component, style: &FaceStyle, scale: f32) -> RgbImage {
    let shape = shape_of(c);
    let mut p = Painter::new(shape.w, shape.h, scale, style.paper);
    match c {
        Component::Card(card) => cards::paint_card(&mut p, card, style),
        Component::City(city) => cities::paint_city(&mut p, city, style),
        Component::Destroyed(city) => cities::paint_destroyed(&mut p, city, style),
        Component::Token(t) => counters::paint_token(&mut p, *t, style),
        Component::Marker(m) => counters::paint_marker(&mut p, *m, style),
    }
    p.to_image()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_component_id_resolves() {
        let cat = Catalogue::bundled();
        for id in cat.component_ids() {
            assert!(component(&cat, &id).is_some(), "{id}");
        }
        assert!(component(&cat, "atlantis").is_none());
        assert!(component(&cat, "hornet_destroyed").is_none());
    }

    #[test]
    fn every_face_paints_in_many_styles() {
        let cat = Catalogue::bundled();
        for style in (0..24).chain([1 << 40, u64::MAX]) {
            let st = FaceStyle::new(style);
            for id in cat.component_ids() {
                let c = component(&cat, &id).expect("component");
                let img = paint(&c, &st, 1.5);
                let first = img.get_pixel(img.width() / 2, 0).0;
                let varied = img
                    .pixels()
                    .any(|p| p.0.iter().zip(first).any(|(a, b)| a.abs_diff(b) > 40));
                assert!(varied, "style {style}: {id} is blank");
            }
        }
    }

    #[test]
    fn printed_strength_keeps_known_values() {
        let cat = Catalogue::bundled();
        assert_eq!(printed_strength(cat.card("spiders").unwrap()), Some(1));
        assert_eq!(printed_strength(cat.card("hornet").unwrap()), Some(3));
        assert_eq!(
            printed_strength(cat.card("combat_module").unwrap()),
            Some(1)
        );
        assert_eq!(printed_strength(cat.card("net_module").unwrap()), None);
        assert_eq!(printed_strength(cat.card("sniper").unwrap()), None);
        assert!(printed_strength(cat.card("hacker").unwrap()).is_some());
    }

    #[test]
    fn city_districts_fit_on_the_card() {
        let cat = Catalogue::bundled();
        for style in 0..20 {
            let st = FaceStyle::new(style);
            for c in cat.cities() {
                let g = city_geometry(&st, c);
                for d in &g.districts {
                    assert!(
                        d.x >= 0.0
                            && d.right() <= CARD_W
                            && d.y > st.city_band_mm
                            && d.bottom() < CARD_H - st.city_band_mm
                    );
                }
                assert!(g.art.h > 3.0, "style {style} art {:?}", g.art);
            }
        }
    }
}
