//! The synthetic table-photo renderer.
//!
//! We have no pictures of the real cards, so the vision is trained and tested on rendered
//! table photos whose truth is known. This module draws
//! - **proxy faces** of every component id ([`face`], [`write_faces`]): 57 card designs,
//!   both sides of the five cities, tokens and markers, each with procedural artwork, title,
//!   printed strength, kind icon and faction frame, in any number of **face styles**
//!   (style 0 is canonical; see [`style`]);
//! - **scenes** ([`render_scene`], [`write_scenes`]): a legal game state laid out as players
//!   lay cards, photographed by a random camera (any rotation, tilt up to 35 degrees) under
//!   random light, on one of several surfaces, among distractors, with blur, noise and JPEG
//!   artefacts; and the true layout in the CONTRACT schema with the image `corners` of every
//!   card, module strip, token and marker.
//!
//! Everything is deterministic: the same catalogue, seed, index and options give the same
//! bytes, on any machine and whatever else ran before.
//!
//! Conventions: image coordinates are pixels with the centre of the top-left pixel at
//! (0, 0). Corners are clockwise from the piece's printed top-left as its face is upright
//! (for a module, of its visible strip). Table geometry is in millimetres (see
//! [`placement`]).
//!
//! Extending the variety: artwork generators ([`art::GENERATORS`]), table surfaces
//! ([`surfaces::SURFACES`]), distractors ([`distractors::UNDER`], [`distractors::OVER`]) and
//! photometric effects ([`effects::EFFECTS`]) are lists of functions: one line adds one.

pub mod art;
pub mod cache;
pub mod camera;
mod compose;
pub mod crowded;
pub mod distractors;
pub mod draw;
pub mod effects;
mod error;
pub mod faces;
pub mod geom;
pub mod icons;
pub mod jpeg;
pub mod noise;
mod output;
pub mod placement;
pub mod raster;
pub mod scene;
pub mod seeds;
pub mod sequence;
pub mod style;
pub mod surfaces;
pub mod text;

pub use error::RenderError;

use image::RgbImage;
use std::path::Path;
use tablelens_engine::{Catalogue, Layout};

/// A frame size written `WIDTHxHEIGHT` (or `WxH` with a capital X), each side 64 to 4096
/// pixels, as `tablelens render --size` and the dataset examples take it.
pub fn parse_size(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("`{text}` is not a size: write WIDTHxHEIGHT, such as 1280x720");
    let (w, h) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    let side = |s: &str| -> Result<u32, String> {
        let n: u32 = s.trim().parse().map_err(|_| bad())?;
        if (64..=4096).contains(&n) {
            Ok(n)
        } else {
            Err(format!(
                "{n} pixels is out of range: each side is 64 to 4096"
            ))
        }
    };
    Ok((side(w)?, side(h)?))
}

/// How scenes are drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct SceneOptions {
    /// Image width in pixels (64 to 4096).
    pub width: u32,
    /// Image height in pixels (64 to 4096).
    pub height: u32,
    /// Face styles a scene may use (style 0 is the canonical one that `--faces` writes).
    /// Each scene draws one style for its cards (and usually the same for its tokens) from
    /// this pool. Keep training and evaluation pools apart to measure how the vision copes
    /// with pieces that look unlike those it learnt on. Empty means `[0]`.
    pub style_pool: Vec<u64>,
    /// Chance (0..1) that a scene gives each piece its own style from the pool.
    pub mixed_styles: f64,
    /// Photometric effects: shadows, light gradients, glare, blur, noise, JPEG artefacts,
    /// white balance, and small per-piece brightness changes. Off gives clean pictures.
    pub effects: bool,
    /// Dice, coins, card backs, decks, a pencil and the edge of a hand.
    pub distractors: bool,
    /// Chance (0..1) that a unit's tokens, or a city's markers, lie partly over one
    /// another, as players stack them. 0 (the default) lays them apart and draws nothing
    /// more, so scenes rendered before the option existed come out the same.
    pub stacked: f64,
}

impl Default for SceneOptions {
    /// 1920x1080, canonical faces, every effect and distractor.
    fn default() -> SceneOptions {
        SceneOptions {
            width: 1920,
            height: 1080,
            style_pool: vec![0],
            mixed_styles: 0.0,
            effects: true,
            distractors: true,
            stacked: 0.0,
        }
    }
}

/// First style number of the held-out pool of [`SceneOptions::held_out`].
pub const HELD_OUT_STYLES_FROM: u64 = 1 << 40;

/// The face style of rendered deck `deck`: deck 0 is the canonical style 0; deck `k` >= 1 is
/// a held-out style that no training pool contains and that scored no model either (the
/// model cards score on the first held-out styles, from [`HELD_OUT_STYLES_FROM`]), so that
/// `tablelens eval` can be run on decks that look unlike one another. Decks run up to
/// [`LAST_DECK`].
pub fn deck_style(deck: u64) -> u64 {
    match deck.min(LAST_DECK) {
        0 => 0,
        k => HELD_OUT_STYLES_FROM + (1 << 20) + k,
    }
}

/// The last rendered deck [`deck_style`] gives a style of its own.
pub const LAST_DECK: u64 = 1 << 30;

impl SceneOptions {
    /// Options for training data: styles `1..=n` (never the canonical style 0 nor the
    /// held-out ones), with some scenes mixing styles.
    pub fn training(n: u64) -> SceneOptions {
        SceneOptions {
            style_pool: (1..=n.max(1)).collect(),
            mixed_styles: 0.15,
            ..SceneOptions::default()
        }
    }

    /// Options for evaluation on faces no training pool of [`SceneOptions::training`]
    /// contains: `n` styles from [`HELD_OUT_STYLES_FROM`].
    pub fn held_out(n: u64) -> SceneOptions {
        SceneOptions {
            style_pool: (HELD_OUT_STYLES_FROM..HELD_OUT_STYLES_FROM + n.max(1)).collect(),
            ..SceneOptions::default()
        }
    }

    /// The same options at another image size.
    pub fn sized(mut self, width: u32, height: u32) -> SceneOptions {
        self.width = width;
        self.height = height;
        self
    }
}

/// A rendered table photo and what truly lies on the table.
#[derive(Debug, Clone)]
pub struct Scene {
    /// The photo.
    pub image: RgbImage,
    /// The true layout, with image `corners` on every card, module strip, token and marker.
    pub truth: Layout,
}

/// Renders scenes, keeping the faces it painted for the next scene.
#[derive(Debug)]
pub struct Renderer<'a> {
    catalogue: &'a Catalogue,
    cache: cache::FaceCache,
}

impl<'a> Renderer<'a> {
    /// A renderer for a catalogue.
    pub fn new(catalogue: &'a Catalogue) -> Renderer<'a> {
        Renderer {
            catalogue,
            cache: cache::FaceCache::new(),
        }
    }

    /// Renders scene `index` of the series `seed`; the same as [`render_scene`].
    pub fn render(&mut self, seed: u64, index: u64, options: &SceneOptions) -> Scene {
        compose::render(self.catalogue, &mut self.cache, seed, index, options)
    }

    /// Renders a given layout (its `corners` are ignored and filled anew); `seed` and
    /// `index` choose the placement, camera, light and the rest. A city's destroyed-district
    /// markers lie on its first districts. The layout should be legal; an illegal one is
    /// drawn as it is.
    pub fn render_layout(
        &mut self,
        layout: &Layout,
        seed: u64,
        index: u64,
        options: &SceneOptions,
    ) -> Scene {
        let state = sequence::state_of(layout);
        compose::render_state(
            self.catalogue,
            &mut self.cache,
            &state,
            seed,
            index,
            options,
            None,
        )
    }

    /// Renders the frames of one game as a fixed camera sees them: every frame with the
    /// same `seed` and `index` (same camera, light and table), framed alike, each piece
    /// where it was in the other frames, then shifted by up to `jitter` pixels (camera
    /// shake) and, where a frame has a hand, with a skin-coloured hand painted over the
    /// table and the pieces it covers dropped from that frame's truth.
    pub fn render_sequence(
        &mut self,
        frames: &[sequence::SequenceFrame],
        seed: u64,
        index: u64,
        options: &SceneOptions,
        jitter: f32,
    ) -> Vec<Scene> {
        let states: Vec<scene::GameState> = frames
            .iter()
            .map(|f| sequence::state_of(&f.layout))
            .collect();
        let points: Vec<(f64, f64)> = states
            .iter()
            .flat_map(|s| compose::outline_points(self.catalogue, s, seed, index, options))
            .collect();
        let mut out = Vec::with_capacity(frames.len());
        for (i, (f, state)) in frames.iter().zip(&states).enumerate() {
            let scene = compose::render_state(
                self.catalogue,
                &mut self.cache,
                state,
                seed,
                index,
                options,
                Some(&points),
            );
            out.push(sequence::shake_and_hand(
                scene, f, seed, index, i as u64, jitter,
            ));
        }
        out
    }
}

/// Renders scene `index` of the series `seed`. Never panics; options out of range are
/// brought into range.
pub fn render_scene(catalogue: &Catalogue, seed: u64, index: u64, options: &SceneOptions) -> Scene {
    Renderer::new(catalogue).render(seed, index, options)
}

/// One proxy face, upright, at 6 pixels per mm; `None` for an unknown component id.
/// Round pieces (tokens, round markers) are drawn on a white square.
pub fn face(catalogue: &Catalogue, component_id: &str, style: u64) -> Option<RgbImage> {
    let c = faces::component(catalogue, component_id)?;
    let st = style::FaceStyle::new(style);
    Some(faces::paint(&c, &st, faces::CANONICAL_DENSITY))
}

/// The face of every component in one style, `(component id, picture)`, and the deck's two
/// card backs (as [`crate::CARD_BACK`]): what a player would enrol if their deck looked
/// like that style.
pub fn all_faces(catalogue: &Catalogue, style: u64) -> Vec<(String, RgbImage)> {
    catalogue
        .component_ids()
        .into_iter()
        .filter_map(|id| face(catalogue, &id, style).map(|f| (id, f)))
        .chain(distractors::deck_backs(style).map(|img| (crate::CARD_BACK.to_string(), img)))
        .collect()
}

/// Writes the canonical face of every component as `DIR/<component id>.png`, and the
/// deck's two card backs as `DIR/card_back/moloch.png` and `outpost.png` (the layout
/// `enroll --faces` reads); returns how many faces.
pub fn write_faces(catalogue: &Catalogue, dir: &Path) -> Result<usize, RenderError> {
    write_faces_in(catalogue, dir, 0)
}

/// Writes the face of every component in `style` as [`write_faces`] does.
pub fn write_faces_in(catalogue: &Catalogue, dir: &Path, style: u64) -> Result<usize, RenderError> {
    output::create_dir(dir)?;
    let ids = catalogue.component_ids();
    for id in &ids {
        let img = face(catalogue, id, style)
            .ok_or_else(|| RenderError::UnknownComponent { id: id.clone() })?;
        output::write_png(&dir.join(format!("{id}.png")), &img)?;
    }
    let backs = dir.join(crate::CARD_BACK);
    output::create_dir(&backs)?;
    for (side, img) in ["moloch", "outpost"]
        .iter()
        .zip(distractors::deck_backs(style))
    {
        output::write_png(&backs.join(format!("{side}.png")), &img)?;
    }
    Ok(ids.len())
}

/// Writes `count` scenes with the default options as `OUT/0000.png` and `OUT/0000.json`
/// (the true layout), ...
pub fn write_scenes(
    catalogue: &Catalogue,
    out: &Path,
    count: usize,
    seed: u64,
) -> Result<(), RenderError> {
    write_scenes_with(catalogue, out, count, seed, &SceneOptions::default())
}

/// Writes `count` scenes drawn with `options`, as [`write_scenes`] does.
pub fn write_scenes_with(
    catalogue: &Catalogue,
    out: &Path,
    count: usize,
    seed: u64,
    options: &SceneOptions,
) -> Result<(), RenderError> {
    output::create_dir(out)?;
    let mut renderer = Renderer::new(catalogue);
    for i in 0..count {
        let scene = renderer.render(seed, i as u64, options);
        output::write_png(&out.join(format!("{i:04}.png")), &scene.image)?;
        let mut json = scene.truth.to_json_pretty();
        json.push('\n');
        output::write(&out.join(format!("{i:04}.json")), json.as_bytes())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decks_are_style_zero_then_styles_no_model_met() {
        assert_eq!(deck_style(0), 0);
        let decks: Vec<u64> = (1..=50).map(deck_style).collect();
        for (i, s) in decks.iter().enumerate() {
            // Not a training style, nor one of the held-out styles the model cards score.
            assert!(
                *s > HELD_OUT_STYLES_FROM + 1000,
                "deck {} is style {s}",
                i + 1
            );
            assert!(!decks[..i].contains(s), "deck {} repeats style {s}", i + 1);
        }
        // Past the last deck, the last deck's style (no overflow).
        assert_eq!(deck_style(u64::MAX), deck_style(LAST_DECK));
        assert!(deck_style(LAST_DECK) > deck_style(LAST_DECK - 1));
    }

    #[test]
    fn a_size_is_width_by_height_within_range() {
        assert_eq!(parse_size("1280x720"), Ok((1280, 720)));
        assert_eq!(parse_size("4032X3024"), Ok((4032, 3024)));
        assert!(parse_size("5000x3000").is_err());
        assert_eq!(parse_size("640X480"), Ok((640, 480)));
        assert!(parse_size("1280").is_err());
        assert!(parse_size("x720").is_err());
        assert!(parse_size("1280x-1").is_err());
        assert!(parse_size("32x32").is_err());
    }
}
