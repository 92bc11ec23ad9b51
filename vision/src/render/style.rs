//! Face styles: how a whole set of proxy pieces looks (palette, frame, lettering, artwork
//! generator, badge and icon placement...). Style 0 is the canonical style that
//! `render --faces` writes; every other style number gives a different, randomly drawn but
//! fixed look. Within one style each component keeps its identity (title, artwork, printed
//! strength, kind icon, faction colour); across styles everything else changes, so a model
//! trained on some styles can be evaluated on held-out ones.

use super::art;
use super::draw::{hsv, Align, Rgb};
use super::seeds;
use super::text::Font;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// How the faction frame of a card is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameKind {
    /// One solid band.
    Solid,
    /// A band with a thin inner line.
    Double,
    /// A band shaded from light to dark.
    Gradient,
    /// A thin band with thick faction-coloured corners.
    Corners,
    /// A band only at the top and bottom (a thin line at the sides).
    Banners,
}

/// Where the title sits on a unit card.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TitleAt {
    /// Above the artwork.
    Top,
    /// Between the artwork and the ability text.
    BelowArt,
    /// At the bottom of the card.
    Bottom,
}

/// The outline of the printed strength badge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Badge {
    /// A disc.
    Circle,
    /// A heraldic shield.
    Shield,
    /// A hexagon.
    Hexagon,
    /// A rounded square.
    Square,
    /// A diamond.
    Diamond,
    /// A five-pointed star.
    Star,
}

/// A corner of a face.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Corner {
    /// Top left.
    TopLeft,
    /// Top right.
    TopRight,
    /// Bottom left.
    BottomLeft,
    /// Bottom right.
    BottomRight,
}

/// Everything that sets one face style apart.
#[derive(Debug, Clone)]
pub struct FaceStyle {
    /// The style number.
    pub id: u64,
    /// Card body colour.
    pub paper: Rgb,
    /// Text colour on the body.
    pub ink: Rgb,
    /// Moloch faction colour (red family).
    pub red: Rgb,
    /// Outpost faction colour (green family).
    pub green: Rgb,
    /// A third colour for plates and badges.
    pub accent: Rgb,
    /// Frame drawing.
    pub frame: FrameKind,
    /// Frame band width (mm).
    pub frame_mm: f32,
    /// Radius of inner panel corners (mm).
    pub panel_radius: f32,
    /// Title position.
    pub title_at: TitleAt,
    /// Whether the title sits on a coloured plate.
    pub title_plate: bool,
    /// Largest title glyph height (mm).
    pub title_h: f32,
    /// Title lettering.
    pub title_font: Font,
    /// Title alignment.
    pub title_align: Align,
    /// Language of the printed names (`en`, `pl`, `hu`).
    pub lang: &'static str,
    /// Artwork generator (index into [`art::GENERATORS`]).
    pub art: usize,
    /// Whether a figure of the card's kind is drawn over the artwork.
    pub art_figure: bool,
    /// Full-bleed artwork: the picture fills the card and the title and text lie on
    /// translucent plates over it.
    pub full_art: bool,
    /// Hue spread of the per-card artwork palette (degrees).
    pub art_hue_spread: f32,
    /// Saturation scale of the artwork.
    pub art_saturation: f32,
    /// Strength badge outline.
    pub badge: Badge,
    /// Strength badge position.
    pub badge_at: Corner,
    /// Strength badge size (mm).
    pub badge_mm: f32,
    /// Strength lettering.
    pub badge_font: Font,
    /// Kind icon position.
    pub icon_at: Corner,
    /// Kind icon size (mm).
    pub icon_mm: f32,
    /// Whether the ability text is printed (else only grey text lines).
    pub ability_text: bool,
    /// Small-text lettering.
    pub text_font: Font,
    /// Small-text glyph height (mm).
    pub text_h: f32,
    /// Width of the identifying band on the right of module cards (mm).
    pub module_band_mm: f32,
    /// Height of the red and green bands of city cards (mm).
    pub city_band_mm: f32,
    /// District panels of city cards sit high (else low).
    pub districts_high: bool,
    /// District panels are discs (else rounded rectangles).
    pub district_discs: bool,
    /// Backgrounds of the tokens +1, +2, -2, shield, disable.
    pub token_bg: [Rgb; 5],
    /// Token rim width (mm).
    pub token_rim_mm: f32,
    /// Token lettering.
    pub token_font: Font,
    /// Backgrounds of the markers: destroyed district, battle, used feature, extra district.
    pub marker_bg: [Rgb; 4],
}

impl FaceStyle {
    /// The style for a style number (0: canonical).
    pub fn new(id: u64) -> FaceStyle {
        if id == 0 {
            return FaceStyle::canonical();
        }
        let mut r = seeds::rng(&[id, seeds::hash_str("face-style")]);
        FaceStyle::random(id, &mut r)
    }

    /// The canonical style: clean, high-contrast, English names.
    pub fn canonical() -> FaceStyle {
        FaceStyle {
            id: 0,
            paper: [0.95, 0.93, 0.87],
            ink: [0.1, 0.1, 0.12],
            red: [0.78, 0.12, 0.1],
            green: [0.16, 0.55, 0.22],
            accent: [0.95, 0.78, 0.2],
            frame: FrameKind::Double,
            frame_mm: 3.2,
            panel_radius: 1.5,
            title_at: TitleAt::Top,
            title_plate: true,
            title_h: 5.0,
            title_font: Font {
                upper: true,
                ..Font::PLAIN.bold()
            },
            title_align: Align::Center,
            lang: "en",
            art: 0,
            art_figure: true,
            full_art: false,
            art_hue_spread: 40.0,
            art_saturation: 0.8,
            badge: Badge::Circle,
            badge_at: Corner::TopLeft,
            badge_mm: 11.0,
            badge_font: Font::PLAIN.bold(),
            icon_at: Corner::BottomLeft,
            icon_mm: 8.0,
            ability_text: true,
            text_font: Font::PLAIN,
            text_h: 2.2,
            module_band_mm: 9.0,
            city_band_mm: 11.0,
            districts_high: true,
            district_discs: false,
            token_bg: [
                [0.96, 0.82, 0.25],
                [0.95, 0.55, 0.15],
                [0.35, 0.35, 0.38],
                [0.2, 0.45, 0.85],
                [0.55, 0.25, 0.65],
            ],
            token_rim_mm: 1.5,
            token_font: Font::PLAIN.bold(),
            marker_bg: [
                [0.3, 0.28, 0.26],
                [0.95, 0.6, 0.1],
                [0.85, 0.85, 0.8],
                [0.35, 0.6, 0.75],
            ],
        }
    }

    fn random(id: u64, r: &mut ChaCha8Rng) -> FaceStyle {
        let dark_paper = r.gen_bool(0.3);
        let paper = if dark_paper {
            hsv(
                r.gen_range(0.0..360.0),
                r.gen_range(0.0..0.35),
                r.gen_range(0.12..0.32),
            )
        } else {
            hsv(
                r.gen_range(0.0..360.0),
                r.gen_range(0.0..0.25),
                r.gen_range(0.72..0.98),
            )
        };
        let ink = if dark_paper {
            hsv(
                r.gen_range(0.0..360.0),
                r.gen_range(0.0..0.2),
                r.gen_range(0.85..1.0),
            )
        } else {
            hsv(
                r.gen_range(0.0..360.0),
                r.gen_range(0.0..0.3),
                r.gen_range(0.0..0.2),
            )
        };
        let red = hsv(
            r.gen_range(-18.0f32..14.0),
            r.gen_range(0.55..0.95),
            r.gen_range(0.45..0.92),
        );
        let green = hsv(
            r.gen_range(92.0..155.0),
            r.gen_range(0.45..0.9),
            r.gen_range(0.35..0.8),
        );
        let accent = hsv(
            r.gen_range(0.0..360.0),
            r.gen_range(0.3..0.9),
            r.gen_range(0.5..1.0),
        );
        let frames = [
            FrameKind::Solid,
            FrameKind::Double,
            FrameKind::Gradient,
            FrameKind::Corners,
            FrameKind::Banners,
        ];
        let titles = [TitleAt::Top, TitleAt::BelowArt, TitleAt::Bottom];
        let badges = [
            Badge::Circle,
            Badge::Shield,
            Badge::Hexagon,
            Badge::Square,
            Badge::Diamond,
            Badge::Star,
        ];
        let corners = [
            Corner::TopLeft,
            Corner::TopRight,
            Corner::BottomLeft,
            Corner::BottomRight,
        ];
        let badge_at = corners[r.gen_range(0..4)];
        let mut icon_at = corners[r.gen_range(0..4)];
        if icon_at == badge_at {
            icon_at = match badge_at {
                Corner::TopLeft => Corner::BottomLeft,
                Corner::TopRight => Corner::BottomRight,
                Corner::BottomLeft => Corner::TopLeft,
                Corner::BottomRight => Corner::TopRight,
            };
        }
        let font = |r: &mut ChaCha8Rng| Font {
            width: r.gen_range(0.7..1.1),
            italic: if r.gen_bool(0.25) {
                r.gen_range(0.3..0.9)
            } else {
                0.0
            },
            bold: if r.gen_bool(0.6) {
                r.gen_range(0.4..1.0)
            } else {
                0.0
            },
            pixel: r.gen_bool(0.2),
            upper: r.gen_bool(0.6),
        };
        let langs = ["en", "en", "en", "pl", "hu"];
        let token_bg = std::array::from_fn(|_| {
            hsv(
                r.gen_range(0.0..360.0),
                r.gen_range(0.2..0.9),
                r.gen_range(0.3..0.98),
            )
        });
        let marker_bg = std::array::from_fn(|_| {
            hsv(
                r.gen_range(0.0..360.0),
                r.gen_range(0.0..0.9),
                r.gen_range(0.25..0.95),
            )
        });
        let mut style = FaceStyle {
            id,
            paper,
            ink,
            red,
            green,
            accent,
            frame: frames[r.gen_range(0..frames.len())],
            frame_mm: r.gen_range(1.5..5.5),
            panel_radius: r.gen_range(0.0..4.0),
            title_at: titles[r.gen_range(0..titles.len())],
            title_plate: r.gen_bool(0.6),
            title_h: r.gen_range(3.5..6.5),
            title_font: font(r),
            title_align: if r.gen_bool(0.7) {
                Align::Center
            } else {
                Align::Left
            },
            lang: langs[r.gen_range(0..langs.len())],
            art: r.gen_range(0..art::GENERATORS.len()),
            art_figure: r.gen_bool(0.6),
            full_art: false,
            art_hue_spread: r.gen_range(10.0..120.0),
            art_saturation: r.gen_range(0.2..1.0),
            badge: badges[r.gen_range(0..badges.len())],
            badge_at,
            badge_mm: r.gen_range(8.0..13.0),
            badge_font: Font {
                upper: false,
                ..font(r)
            },
            icon_at,
            icon_mm: r.gen_range(5.5..9.5),
            ability_text: r.gen_bool(0.75),
            text_font: Font {
                bold: 0.0,
                italic: 0.0,
                ..font(r)
            },
            text_h: r.gen_range(1.6..2.8),
            module_band_mm: r.gen_range(7.5..9.5),
            city_band_mm: r.gen_range(8.0..14.0),
            districts_high: r.gen_bool(0.5),
            district_discs: r.gen_bool(0.35),
            token_bg,
            token_rim_mm: r.gen_range(0.0..2.5),
            token_font: Font {
                upper: false,
                ..font(r)
            },
            marker_bg,
        };
        // Drawn last, so adding it left every earlier style parameter as it was.
        style.full_art = r.gen_bool(0.2);
        style
    }

    /// The faction colour of a side.
    pub fn faction(&self, moloch: bool) -> Rgb {
        if moloch {
            self.red
        } else {
            self.green
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn styles_are_fixed_and_faction_colours_keep_their_family() {
        for id in 0..40 {
            let s = FaceStyle::new(id);
            let again = FaceStyle::new(id);
            assert_eq!(s.paper, again.paper);
            assert!(
                s.red[0] > s.red[1] && s.red[0] > s.red[2],
                "style {id} red {:?}",
                s.red
            );
            assert!(
                s.green[1] > s.green[0] && s.green[1] > s.green[2],
                "style {id} green {:?}",
                s.green
            );
        }
        assert_ne!(FaceStyle::new(1).paper, FaceStyle::new(2).paper);
    }
}
