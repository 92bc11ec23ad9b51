//! Units of a column trued up on rendered scenes whose truth is known: every city and unit
//! given, named at its true corners, but for units whose quad is cut short by a third of
//! the card. Named weakly, a cut unit takes back a quad near its card's true one (32 of 32
//! on these ten scenes); named at `SURE_QUAD` or more, it keeps the quad it has (its crop is
//! taken as good enough).

mod common;

use common::{city_face, named};
use tablelens_engine::{Catalogue, Layout};
use tablelens_vision::perceive::assemble::Piece;
use tablelens_vision::perceive::identify::gallery_of;
use tablelens_vision::perceive::squared::{true_up, SURE_QUAD};
use tablelens_vision::perceive::{embedder_fingerprint, Embedder};
use tablelens_vision::render::{all_faces, Renderer, SceneOptions};

type Quad = [[f32; 2]; 4];

/// `q` with its far short edge (corners 2 and 3) brought a third of the way in.
fn cut_short(q: &Quad) -> Quad {
    let towards = |far: [f32; 2], near: [f32; 2]| {
        [
            far[0] + (near[0] - far[0]) / 3.0,
            far[1] + (near[1] - far[1]) / 3.0,
        ]
    };
    [q[0], q[1], towards(q[2], q[1]), towards(q[3], q[0])]
}

/// The farthest corner of `a` from the same corner of `b`.
fn farthest(a: &Quad, b: &Quad) -> f32 {
    (0..4)
        .map(|k| ((a[k][0] - b[k][0]).powi(2) + (a[k][1] - b[k][1]).powi(2)).sqrt())
        .fold(0.0, f32::max)
}

/// The cities and units of a true layout as named pieces (at 0.9), with every second unit
/// of each column cut short and named at `cut_at`; and for each cut unit, its index among
/// the pieces and its true quad.
fn with_cut_units(truth: &Layout, cut_at: f32) -> (Vec<Piece>, Vec<(usize, Quad)>) {
    let (mut pieces, mut cut) = (Vec::new(), Vec::new());
    for city in &truth.cities {
        let Some(c) = city.corners else { continue };
        let face = city_face(city);
        pieces.push(named(&face, c, 0.9));
        for column in [&city.moloch, &city.outpost] {
            for (i, u) in column.iter().enumerate() {
                let Some(q) = u.corners else { continue };
                if i % 2 == 1 {
                    cut.push((pieces.len(), q));
                    pieces.push(named(&u.card, cut_short(&q), cut_at));
                } else {
                    pieces.push(named(&u.card, q, 0.9));
                }
            }
        }
    }
    (pieces, cut)
}

#[test]
fn a_unit_cut_short_is_trued_up_unless_named_sure() {
    let cat = Catalogue::bundled();
    let embedder = Embedder::builtin().expect("embedder");
    let gallery =
        gallery_of(&cat, &embedder, &embedder_fingerprint(), all_faces(&cat, 0)).expect("gallery");
    let mut renderer = Renderer::new(&cat);
    let (mut cuts, mut mended) = (0, 0);
    for i in 0..10 {
        let scene = renderer.render(783, i, &SceneOptions::default());
        // Named weakly: most cut units come back near their true quad.
        let (mut pieces, cut) = with_cut_units(&scene.truth, 0.5);
        true_up(&scene.image, &mut pieces, &embedder, &gallery).expect("true up");
        for &(k, truth) in &cut {
            let width = farthest(&[truth[0]; 4], &[truth[1]; 4]);
            cuts += 1;
            if farthest(&pieces[k].corners, &truth) < 0.15 * width {
                mended += 1;
            }
        }
        // Named sure: every cut unit keeps its quad.
        let (mut sure, cut) = with_cut_units(&scene.truth, SURE_QUAD);
        let before = sure.clone();
        true_up(&scene.image, &mut sure, &embedder, &gallery).expect("true up");
        for &(k, _) in &cut {
            assert_eq!(
                sure[k].corners, before[k].corners,
                "scene {i}: a sure unit moved"
            );
        }
    }
    assert!(cuts >= 10, "only {cuts} units cut short");
    assert!(
        mended * 10 >= cuts * 8,
        "{mended} of {cuts} units cut short were trued up"
    );
}
