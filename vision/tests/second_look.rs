//! The second look on rendered cards whose corners are known: a unit card whose quad slid a
//! quarter of its length along its column (what the detector does where cards overlap) is
//! named on the second look, with its corners brought back; a slid copy of a card already
//! named stays unknown.

use tablelens_engine::Catalogue;
use tablelens_vision::perceive::assemble::Piece;
use tablelens_vision::perceive::identify::gallery_of;
use tablelens_vision::perceive::second_look::{look_again, moved};
use tablelens_vision::perceive::{embedder_fingerprint, Embedder, Gallery, PieceClass};
use tablelens_vision::render::{all_faces, Renderer, Scene, SceneOptions};

type Quad = [[f32; 2]; 4];

fn setup() -> (Embedder, Gallery, Scene) {
    let cat = Catalogue::bundled();
    let embedder = Embedder::builtin().expect("embedder");
    let gallery =
        gallery_of(&cat, &embedder, &embedder_fingerprint(), all_faces(&cat, 0)).expect("gallery");
    let scene = Renderer::new(&cat).render(2024, 1, &SceneOptions::default());
    (embedder, gallery, scene)
}

/// The units in view with their true corners.
fn units(scene: &Scene) -> Vec<(String, Quad)> {
    scene
        .truth
        .cities
        .iter()
        .flat_map(|c| c.moloch.iter().chain(&c.outpost))
        .filter_map(|u| Some((u.card.clone(), u.corners?)))
        .collect()
}

fn unknown_card(corners: Quad) -> Piece {
    Piece {
        class: PieceClass::Card,
        corners,
        score: 0.2,
        id: None,
        similarity: 0.5,
        best: String::new(),
        similarities: Vec::new(),
    }
}

fn centre(q: &Quad) -> [f32; 2] {
    [
        q.iter().map(|p| p[0]).sum::<f32>() / 4.0,
        q.iter().map(|p| p[1]).sum::<f32>() / 4.0,
    ]
}

fn gap(a: &Quad, b: &Quad) -> f32 {
    let (a, b) = (centre(a), centre(b));
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
}

#[test]
fn a_card_whose_quad_slid_along_its_column_is_named_on_a_second_look() {
    let (embedder, gallery, scene) = setup();
    let units = units(&scene);
    assert!(units.len() >= 5, "a scene with units");
    let slid: Vec<Quad> = units.iter().map(|(_, q)| moved(q, 0.22, 0.22)).collect();
    let mut pieces: Vec<Piece> = slid.iter().map(|q| unknown_card(*q)).collect();
    look_again(&scene.image, &mut pieces, &embedder, &gallery).expect("second look");
    let mut right = 0;
    for ((truth, true_corners), (p, slid)) in units.iter().zip(pieces.iter().zip(&slid)) {
        match &p.id {
            Some(id) => {
                assert_eq!(id, truth, "a slid {truth} named wrong");
                right += 1;
                assert!(
                    gap(&p.corners, true_corners) < gap(slid, true_corners),
                    "{truth}: the corners were not brought back"
                );
            }
            None => assert_eq!(p.corners, *slid, "an unnamed card keeps its corners"),
        }
    }
    assert!(
        right * 10 >= units.len() * 8,
        "only {right} of {} slid units named",
        units.len()
    );
}

#[test]
fn a_slid_copy_of_a_card_already_named_stays_unknown() {
    let (embedder, gallery, scene) = setup();
    let (id, corners) = units(&scene).into_iter().next().expect("a unit");
    let named = Piece {
        id: Some(id.clone()),
        similarity: 0.9,
        best: id,
        ..unknown_card(corners)
    };
    let copy = moved(&corners, 0.22, 0.22);
    let mut pieces = vec![named.clone(), unknown_card(copy)];
    look_again(&scene.image, &mut pieces, &embedder, &gallery).expect("second look");
    assert_eq!(pieces[0], named);
    assert_eq!(pieces[1].id, None, "the same card named twice");
}
