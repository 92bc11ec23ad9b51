//! Benchmarks of the vision: a whole 1920x1080 table photo of 40 cards analysed (detect,
//! refine, identify, assemble), and one card identified (crop, embed both ways up, nearest
//! neighbour). `TABLELENS_THREADS=1` gives the one-core figures.

use criterion::{criterion_group, criterion_main, Criterion};
use tablelens_engine::{Catalogue, Kind, Unit};
use tablelens_vision::perceive::identify::{crop, gallery_of};
use tablelens_vision::perceive::{embedder_fingerprint, Analyzer, Embedder, Gallery, PieceClass};
use tablelens_vision::render::{all_faces, Renderer, SceneOptions};

fn gallery(cat: &Catalogue, embedder: &Embedder) -> Gallery {
    gallery_of(cat, embedder, &embedder_fingerprint(), all_faces(cat, 0)).expect("embed faces")
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
    let spare = |kind: Kind| -> Vec<String> {
        cat.cards()
            .iter()
            .filter(|c| c.kind == kind)
            .map(|c| c.id.clone())
            .collect()
    };
    let (robots, soldiers) = (spare(Kind::Robot), spare(Kind::Soldier));
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
            (&mut city.moloch, &robots)
        } else {
            (&mut city.outpost, &soldiers)
        };
        column.push(Unit::new(&pool[k % pool.len()]));
        k += 1;
    }
    let scene = renderer.render_layout(&layout, 5, 0, &SceneOptions::default());
    // Cards in view (the camera may leave an edge card out).
    let cards: usize = scene
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
        .sum();
    c.bench_function(&format!("analyze 1920x1080 frame ({cards} cards)"), |b| {
        b.iter(|| analyzer.analyze(&cat, &scene.image).expect("analyze"))
    });
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
