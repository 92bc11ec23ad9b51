//! The strip finder's presence, on rendered scenes of face styles no training saw: beside
//! a unit with a module tucked under it, it must hold that one is there, and beside a unit
//! without, that none is.

use tablelens_engine::Catalogue;
use tablelens_vision::perceive::strips::{STRIP_ABSENT, STRIP_PRESENT};
use tablelens_vision::perceive::{StripFinder, STRIPS_ONNX};
use tablelens_vision::render::{Renderer, SceneOptions};

#[test]
fn the_strip_finder_tells_units_with_a_module_from_units_without() {
    let cat = Catalogue::bundled();
    let finder = StripFinder::load(STRIPS_ONNX).expect("strip finder");
    let mut renderer = Renderer::new(&cat);
    let options = SceneOptions::held_out(8);
    // Presences beside units with a module, and beside units without.
    let (mut with, mut without) = (Vec::new(), Vec::new());
    for i in 0..6 {
        let scene = renderer.render(4242, i, &options);
        let units: Vec<_> = scene
            .truth
            .cities
            .iter()
            .flat_map(|c| c.moloch.iter().chain(&c.outpost))
            .filter_map(|u| Some((u.corners?, u.module.is_some())))
            .collect();
        let corners: Vec<_> = units.iter().map(|(c, _)| *c).collect();
        let found = finder.find(&scene.image, &corners).expect("find");
        for ((_, module), strip) in units.iter().zip(found) {
            let presence = strip
                .expect("a strip place beside a true card")
                .presence
                .expect("the committed strip finder has the presence output");
            if *module {
                with.push(presence);
            } else {
                without.push(presence);
            }
        }
    }
    assert!(
        with.len() >= 5 && without.len() >= 20,
        "{} with, {} without",
        with.len(),
        without.len()
    );
    // On validation scenes none with a module was under 0.875 and one in 269 to 442 without
    // over 0.1 (`models/strips.md`); allow one of each here.
    let missed = with.iter().filter(|p| **p < STRIP_PRESENT).count();
    let invented = without.iter().filter(|p| **p >= STRIP_ABSENT).count();
    assert!(
        missed <= 1 && invented <= 1,
        "of {} with a module {missed} under {STRIP_PRESENT}; of {} without {invented} over {STRIP_ABSENT}",
        with.len(),
        without.len()
    );
}
