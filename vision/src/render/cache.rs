//! Face textures (and the decks' card backs) rendered once and reused: within one scene,
//! and across the scenes of one [`super::Renderer`]. The cache only saves time; faces are deterministic, so what it
//! holds never changes the output.

use super::distractors::deck_back_textures;
use super::faces::{self, component};
use super::raster::Texture;
use super::style::FaceStyle;
use std::collections::BTreeMap;
use tablelens_engine::Catalogue;

/// Densities (pixels per mm) at which scene faces are painted.
pub const DENSITIES: [f32; 5] = [2.0, 3.0, 4.0, 5.0, 6.0];

/// Memory the cache may hold before it is emptied (bytes).
const MAX_BYTES: usize = 256 << 20;

/// The face density to use when a piece covers up to `px_per_mm` image pixels per mm.
pub fn density_for(px_per_mm: f64) -> usize {
    DENSITIES
        .iter()
        .position(|&d| f64::from(d) >= px_per_mm * 1.1)
        .unwrap_or(DENSITIES.len() - 1)
}

/// Textures by (component id, style, density index), styles by number, and each style's
/// two card backs.
#[derive(Debug, Default)]
pub struct FaceCache {
    faces: BTreeMap<(String, u64, usize), Texture>,
    styles: BTreeMap<u64, FaceStyle>,
    backs: BTreeMap<u64, [Texture; 2]>,
    bytes: usize,
}

impl FaceCache {
    /// An empty cache.
    pub fn new() -> FaceCache {
        FaceCache::default()
    }

    /// A face style.
    pub fn style(&mut self, style: u64) -> &FaceStyle {
        self.styles
            .entry(style)
            .or_insert_with(|| FaceStyle::new(style))
    }

    /// The texture of a component in a style at a density, painted on first use; `None`
    /// for an unknown id.
    pub fn face(
        &mut self,
        cat: &Catalogue,
        id: &str,
        style: u64,
        density: usize,
    ) -> Option<&Texture> {
        let key = (id.to_string(), style, density.min(DENSITIES.len() - 1));
        if !self.faces.contains_key(&key) {
            let c = component(cat, id)?;
            self.make_room();
            let d = DENSITIES[key.2];
            let st = self.style(style).clone();
            let tex = Texture::new(&faces::paint(&c, &st, d), d);
            self.bytes += tex.bytes();
            self.faces.insert(key.clone(), tex);
        }
        self.faces.get(&key)
    }

    /// The two card backs of the deck drawn in `style` ([`deck_back_textures`]), painted on
    /// first use.
    pub fn backs(&mut self, style: u64) -> &[Texture; 2] {
        if !self.backs.contains_key(&style) {
            self.make_room();
            let backs = deck_back_textures(style);
            self.bytes += backs.iter().map(Texture::bytes).sum::<usize>();
            self.backs.insert(style, backs);
        }
        &self.backs[&style]
    }

    /// Empties the cache once it holds [`MAX_BYTES`] or more.
    fn make_room(&mut self) {
        if self.bytes >= MAX_BYTES {
            self.faces.clear();
            self.styles.clear();
            self.backs.clear();
            self.bytes = 0;
        }
    }

    /// How many faces it holds.
    pub fn len(&self) -> usize {
        self.faces.len()
    }

    /// Whether it holds no face.
    pub fn is_empty(&self) -> bool {
        self.faces.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn density_grows_with_the_scale() {
        assert_eq!(density_for(1.0), 0);
        assert_eq!(density_for(2.5), 1);
        assert_eq!(density_for(50.0), DENSITIES.len() - 1);
    }

    #[test]
    fn faces_are_painted_once() {
        let cat = Catalogue::bundled();
        let mut c = FaceCache::new();
        assert!(c.face(&cat, "hornet", 0, 0).is_some());
        assert!(c.face(&cat, "hornet", 0, 0).is_some());
        assert!(c.face(&cat, "nonsense", 0, 0).is_none());
        assert_eq!(c.len(), 1);
    }

    #[test]
    fn a_decks_backs_are_painted_once() {
        let mut c = FaceCache::new();
        let first: *const [Texture; 2] = c.backs(7);
        let again: *const [Texture; 2] = c.backs(7);
        assert_eq!(first, again);
        assert!(c.backs(7)[0].bytes() > 0);
    }
}
