//! Layout assembly on perfect pieces: given every piece of a rendered scene with its true
//! identity and corners (what a flawless detector and embedder would give), the assembly
//! must rebuild the true layout. This tests the geometry apart from the models.

use tablelens_engine::Catalogue;
use tablelens_vision::perceive::assemble::{assemble, Piece};
use tablelens_vision::perceive::eval::{compare_layouts, truth_pieces};
use tablelens_vision::render::{Renderer, SceneOptions};

#[test]
fn perfect_pieces_rebuild_the_true_layout() {
    let cat = Catalogue::bundled();
    let mut renderer = Renderer::new(&cat);
    let options = SceneOptions::training(5).sized(960, 540);
    let scenes = 16;
    let mut exact = 0;
    let mut failures = Vec::new();
    for i in 0..scenes {
        let scene = renderer.render(77, i, &options);
        let pieces: Vec<Piece> = truth_pieces(&scene.truth)
            .into_iter()
            .map(|t| Piece {
                class: t.class,
                corners: t.corners,
                score: 1.0,
                id: Some(t.id.clone()),
                similarity: 1.0,
                best: t.id,
                similarities: Vec::new(),
            })
            .collect();
        let (layout, has_cities) = assemble(&cat, &pieces);
        assert!(has_cities);
        let s = compare_layouts(&layout, &scene.truth);
        assert_eq!(s.units_placed, s.units, "scene {i}: units misplaced");
        assert_eq!(s.modules_right, s.modules, "scene {i}: modules");
        if s.exact {
            exact += 1;
        } else {
            failures.push(format!(
                "scene {i}: tokens {}/{}, cities {}/{}, unknown {:?}",
                s.tokens_right,
                s.tokens,
                s.cities_right,
                s.cities,
                layout
                    .unknown
                    .iter()
                    .map(|u| u.kind.clone())
                    .collect::<Vec<_>>()
            ));
        }
    }
    assert!(exact == scenes, "{exact}/{scenes} exact; {failures:#?}");
}

#[test]
fn a_layout_scored_against_itself_is_exact_and_each_fault_is_named() {
    use tablelens_vision::perceive::eval::Fault;
    let cat = Catalogue::bundled();
    let mut renderer = Renderer::new(&cat);
    let options = SceneOptions::training(5).sized(960, 540);
    // A scene with a module and a token to spoil.
    let truth = (0..40)
        .map(|i| renderer.render(78, i, &options).truth)
        .find(|t| {
            let units = || {
                t.cities
                    .iter()
                    .flat_map(|c| c.moloch.iter().chain(&c.outpost))
            };
            units().any(|u| u.module.is_some()) && units().any(|u| !u.tokens.is_empty())
        })
        .expect("a scene with a module and a token");
    let s = compare_layouts(&truth, &truth);
    assert!(s.exact && s.faults.is_empty(), "{:?}", s.faults);

    let mut seen = truth.clone();
    for c in &mut seen.cities {
        for u in c.moloch.iter_mut().chain(c.outpost.iter_mut()) {
            u.module = None;
            u.tokens.clear();
        }
    }
    let s = compare_layouts(&seen, &truth);
    assert!(!s.exact);
    assert_eq!(
        s.faults.iter().copied().collect::<Vec<_>>(),
        vec![Fault::Module, Fault::Tokens]
    );

    let mut seen = truth.clone();
    let city = seen
        .cities
        .iter_mut()
        .find(|c| !c.moloch.is_empty())
        .expect("a Moloch unit");
    let unit = city.moloch.remove(0);
    city.outpost.push(unit);
    let s = compare_layouts(&seen, &truth);
    assert_eq!(
        s.faults.iter().copied().collect::<Vec<_>>(),
        vec![Fault::UnitMissed, Fault::UnitExtra]
    );
}
