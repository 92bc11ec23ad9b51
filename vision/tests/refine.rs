//! The corner refiner on rendered scenes whose truth is known: city cards given at their
//! true corners are mostly settled by one round (`perceive::refine::SETTLED`), one window
//! each, while cards given a fifth of a card off take both rounds; either way they come
//! back to their edges.

use image::RgbImage;
use tablelens_engine::Catalogue;
use tablelens_vision::perceive::{Refiner, REFINER_ONNX};
use tablelens_vision::render::{Renderer, SceneOptions};

type Quad = [[f32; 2]; 4];

fn dist(a: [f32; 2], b: [f32; 2]) -> f32 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
}

/// The farthest corner of `a` from the same corner of `b`, as a share of `b`'s mean side.
fn off_by(a: &Quad, b: &Quad) -> f32 {
    let side = (0..4).map(|k| dist(b[k], b[(k + 1) % 4])).sum::<f32>() / 4.0;
    (0..4).map(|k| dist(a[k], b[k])).fold(0.0, f32::max) / side
}

/// `q` slid along its top edge by `share` of that edge.
fn slid(q: &Quad, share: f32) -> Quad {
    let d = [(q[1][0] - q[0][0]) * share, (q[1][1] - q[0][1]) * share];
    q.map(|p| [p[0] + d[0], p[1] + d[1]])
}

/// Refines `given` in `image`: the windows the refiner looked at, and how many of the
/// cards came back within 8% of a side of their `truth`.
fn refined(refiner: &Refiner, image: &RgbImage, given: &[Quad], truth: &[Quad]) -> (usize, usize) {
    let before = refiner.runs();
    let found = refiner.refine(image, given).expect("refine");
    let close = found
        .iter()
        .zip(truth)
        .filter(|(f, t)| off_by(f, t) < 0.08)
        .count();
    (refiner.runs() - before, close)
}

#[test]
fn a_card_at_its_edges_is_mostly_refined_once_and_one_a_fifth_off_twice() {
    let cat = Catalogue::bundled();
    let refiner = Refiner::load(REFINER_ONNX).expect("refiner");
    let mut renderer = Renderer::new(&cat);
    let (mut cards, mut at_edges, mut off) = (0, (0, 0), (0, 0));
    for i in 0..6 {
        let scene = renderer.render(512, i, &SceneOptions::default());
        let truth: Vec<Quad> = scene
            .truth
            .cities
            .iter()
            .filter_map(|c| c.corners)
            .collect();
        cards += truth.len();
        let (runs, close) = refined(&refiner, &scene.image, &truth, &truth);
        at_edges = (at_edges.0 + runs, at_edges.1 + close);
        let moved: Vec<Quad> = truth.iter().map(|q| slid(q, 0.2)).collect();
        let (runs, close) = refined(&refiner, &scene.image, &moved, &truth);
        off = (off.0 + runs, off.1 + close);
    }
    assert!(cards >= 20, "only {cards} city cards in view");
    // A round per card, and a second for at most one in five.
    assert!(
        at_edges.0 >= cards && at_edges.0 * 5 <= cards * 6,
        "{} windows for {cards} cards at their edges",
        at_edges.0
    );
    // Every card a fifth off is moved by its first round, and looked at again.
    assert_eq!(off.0, 2 * cards, "windows for {cards} cards off");
    assert!(
        at_edges.1 * 10 >= cards * 9 && off.1 * 10 >= cards * 9,
        "within 8% of a side: {} at their edges and {} off, of {cards}",
        at_edges.1,
        off.1
    );
}
