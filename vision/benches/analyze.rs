//! Benchmarks of the vision: a whole 1920x1080 table photo of 40 cards analysed (detect,
//! refine, identify, assemble), seen from far off and from a camera set up for play, and one
//! card identified (crop, embed both ways up, nearest neighbour). `TABLELENS_THREADS=1`
//! gives the one-core figures. On a shared virtual machine, compare builds in alternated
//! rounds and note the CPU steal of each round (ARCHITECTURE.md, "Conventions").

use criterion::{criterion_group, criterion_main, Criterion};
use tablelens_engine::{Catalogue, Kind, Unit};
use tablelens_vision::perceive::identify::{crop, gallery_of};
use tablelens_vision::perceive::{embedder_fingerprint, Analyzer, Embedder, Gallery, PieceClass};
use tablelens_vision::render::{all_faces, Renderer, Scene, SceneOptions};

fn gallery(cat: &Catalogue, embedder: &Embedder) -> Gallery {
    gallery_of(cat, embedder, &embedder_fingerprint(), all_faces(cat, 0)).expect("embed faces")
}

/// Cards (cities and units) whose corners are in the picture.
fn cards_in_view(scene: &Scene) -> usize {
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
fn narrowest_unit(scene: &Scene) -> f32 {
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

fn bench(c: &mut Criterion) {
    let cat = Catalogue::bundled();
    let embedder = Embedder::builtin().expect("embedder");
    let g = gallery(&cat, &embedder);
    let analyzer = Analyzer::new(g.clone()).expect("analyzer");
    // A crowded table of 40 cards (the speed target's): a generated game, its columns
    // filled up with further units until the 5 cities have 35 units beside them.
    let mut renderer = Renderer::new(&cat);
    let mut layout = renderer.render(5, 0, &SceneOptions::default()).truth;
    // Spare copies of each unit: the deck's count less those the game already placed, so
    // that the table holds no card more often than a real deck has it.
    let placed = |id: &str| {
        layout
            .cities
            .iter()
            .flat_map(|c| c.moloch.iter().chain(&c.outpost))
            .filter(|u| u.card == id || u.module.as_ref().is_some_and(|m| m.card == id))
            .count()
    };
    let spare = |kind: Kind| -> Vec<String> {
        cat.cards()
            .iter()
            .filter(|c| c.kind == kind)
            .flat_map(|c| {
                let left = (c.count as usize).saturating_sub(placed(&c.id));
                std::iter::repeat_n(c.id.clone(), left)
            })
            .collect()
    };
    let (mut robots, mut soldiers) = (spare(Kind::Robot), spare(Kind::Soldier));
    let mut k = 0;
    while layout
        .cities
        .iter()
        .map(|c| 1 + c.moloch.len() + c.outpost.len())
        .sum::<usize>()
        < 40
    {
        let city = &mut layout.cities[k % 5];
        let (column, pool) = if k % 2 == 0 {
            (&mut city.moloch, &mut robots)
        } else {
            (&mut city.outpost, &mut soldiers)
        };
        let card = pool.pop().expect("the deck has units to spare");
        column.push(Unit::new(&card));
        k += 1;
    }
    // Two views of it: the first camera the renderer draws for it, far off (its cards are
    // so small that the detector finds under half of them: the figure earlier notes gave),
    // and the first camera that shows every card at least 80 pixels wide, as a camera
    // set up for play does (the target's frame: every card found and identified).
    let mut view = |i| renderer.render_layout(&layout, 5, i, &SceneOptions::default());
    let far = view(0);
    let near = (1..20)
        .map(view)
        .find(|s| cards_in_view(s) == 40 && narrowest_unit(s) >= 80.0)
        .expect("a camera showing all 40 cards at 80 pixels or more");
    for scene in [&far, &near] {
        let name = format!(
            "analyze 1920x1080 frame (40 cards, {} in view, units from {:.0} px wide)",
            cards_in_view(scene),
            narrowest_unit(scene)
        );
        c.bench_function(&name, |b| {
            b.iter(|| analyzer.analyze(&cat, &scene.image).expect("analyze"))
        });
    }
    let scene = &near;
    let unit = scene
        .truth
        .cities
        .iter()
        .flat_map(|c| c.moloch.iter().chain(&c.outpost))
        .find_map(|u| u.corners)
        .expect("a unit with corners");
    c.bench_function("identify one card (crop, embed both ways, match)", |b| {
        b.iter(|| {
            let crops = [
                crop(&scene.image, PieceClass::Card, &unit),
                crop(
                    &scene.image,
                    PieceClass::Card,
                    &[unit[2], unit[3], unit[0], unit[1]],
                ),
            ];
            let e = embedder.embed(PieceClass::Card, &crops).expect("embed");
            (
                g.identify(PieceClass::Card, &e[0]),
                g.identify(PieceClass::Card, &e[1]),
            )
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
