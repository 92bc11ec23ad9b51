//! The crowded table of the speed target: a 1920x1080 frame of 40 cards (5 cities and 35
//! units), seen from far off and from a camera set up for play. The vision's benchmark
//! (`vision/benches/analyze.rs`) and its stage-by-stage timing (`vision/examples/
//! stage_times.rs`) both analyse these two frames.

use super::{Renderer, Scene, SceneOptions};
use tablelens_engine::{Catalogue, Kind, Layout, Unit};

/// The two views of the crowded table.
pub struct CrowdedTable {
    /// The first camera the renderer draws for it: far off, its units about 50 pixels
    /// wide (the first detectors found under half of them; the one of
    /// `models/detector.md` finds a piece at every card).
    pub far: Scene,
    /// The first camera that shows every card at least [`PLAY_WIDTH`] pixels wide, as a
    /// camera set up for play does: the target's frame, every card found and identified.
    pub near: Scene,
}

/// The least width, in pixels, of every unit card in the near view.
pub const PLAY_WIDTH: f32 = 80.0;

/// Renders the crowded table: the game of seed 5, scene 0, its columns filled up with
/// further units (no card more often than a real deck has it) until the 5 cities have 35
/// units beside them. None if no camera of the first 20 shows it for play.
pub fn crowded_table(cat: &Catalogue) -> Option<CrowdedTable> {
    let mut renderer = Renderer::new(cat);
    let mut layout = renderer.render(5, 0, &SceneOptions::default()).truth;
    fill_columns(cat, &mut layout, 40)?;
    let mut view = |i| renderer.render_layout(&layout, 5, i, &SceneOptions::default());
    let far = view(0);
    let near = (1..20)
        .map(view)
        .find(|s| cards_in_view(s) == 40 && narrowest_unit(s) >= PLAY_WIDTH)?;
    Some(CrowdedTable { far, near })
}

/// Adds units to the columns in turn (Moloch, then Outpost, city by city) until the table
/// holds `cards` cards, each from the deck's copies not yet on the table. None if the deck
/// runs out.
fn fill_columns(cat: &Catalogue, layout: &mut Layout, cards: usize) -> Option<()> {
    let placed = |layout: &Layout, id: &str| {
        layout
            .cities
            .iter()
            .flat_map(|c| c.moloch.iter().chain(&c.outpost))
            .filter(|u| u.card == id || u.module.as_ref().is_some_and(|m| m.card == id))
            .count()
    };
    let spare = |layout: &Layout, kind: Kind| -> Vec<String> {
        cat.cards()
            .iter()
            .filter(|c| c.kind == kind)
            .flat_map(|c| {
                let left = (c.count as usize).saturating_sub(placed(layout, &c.id));
                std::iter::repeat_n(c.id.clone(), left)
            })
            .collect()
    };
    let (mut robots, mut soldiers) = (spare(layout, Kind::Robot), spare(layout, Kind::Soldier));
    let count = |layout: &Layout| {
        layout
            .cities
            .iter()
            .map(|c| 1 + c.moloch.len() + c.outpost.len())
            .sum::<usize>()
    };
    let cities = layout.cities.len();
    if cities == 0 {
        return None;
    }
    let mut k = 0;
    while count(layout) < cards {
        let city = &mut layout.cities[k % cities];
        let (column, pool) = if k % 2 == 0 {
            (&mut city.moloch, &mut robots)
        } else {
            (&mut city.outpost, &mut soldiers)
        };
        column.push(Unit::new(&pool.pop()?));
        k += 1;
    }
    Some(())
}

/// Cards (cities and units) whose corners are in the picture.
pub fn cards_in_view(scene: &Scene) -> usize {
    scene
        .truth
        .cities
        .iter()
        .map(|c| {
            usize::from(c.corners.is_some())
                + c.moloch
                    .iter()
                    .chain(&c.outpost)
                    .filter(|u| u.corners.is_some())
                    .count()
        })
        .sum()
}

/// The shortest side of any unit card in view, in pixels.
pub fn narrowest_unit(scene: &Scene) -> f32 {
    let side = |a: [f32; 2], b: [f32; 2]| ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt();
    scene
        .truth
        .cities
        .iter()
        .flat_map(|c| c.moloch.iter().chain(&c.outpost))
        .filter_map(|u| u.corners)
        .map(|q| {
            (0..4)
                .map(|i| side(q[i], q[(i + 1) % 4]))
                .fold(f32::MAX, f32::min)
        })
        .fold(f32::MAX, f32::min)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_columns_fill_up_to_forty_cards_within_the_deck() {
        let cat = Catalogue::bundled();
        let mut layout = Renderer::new(&cat)
            .render(5, 0, &SceneOptions::default())
            .truth;
        fill_columns(&cat, &mut layout, 40).expect("the deck has units to spare");
        let units: Vec<&Unit> = layout
            .cities
            .iter()
            .flat_map(|c| c.moloch.iter().chain(&c.outpost))
            .collect();
        assert_eq!(layout.cities.len() + units.len(), 40);
        for card in cat.cards() {
            let on_table = units
                .iter()
                .filter(|u| {
                    u.card == card.id || u.module.as_ref().is_some_and(|m| m.card == card.id)
                })
                .count();
            assert!(on_table <= card.count as usize, "{} {on_table}", card.id);
        }
    }

    #[test]
    fn a_deck_too_small_is_none() {
        let cat = Catalogue::bundled();
        let mut layout = Renderer::new(&cat)
            .render(5, 0, &SceneOptions::default())
            .truth;
        assert!(fill_columns(&cat, &mut layout, 500).is_none());
    }
}
