//! Benchmarks of the vision: a whole 1920x1080 table photo analysed (detect, identify,
//! assemble), and one card identified (crop, embed both ways up, nearest neighbour).

use criterion::{criterion_group, criterion_main, Criterion};
use tablelens_engine::Catalogue;
use tablelens_vision::perceive::identify::{crop, gallery_of};
use tablelens_vision::perceive::{
    embedder_fingerprint, Analyzer, Embedder, Gallery, PieceClass, EMBEDDER_ONNX,
};
use tablelens_vision::render::{all_faces, Renderer, SceneOptions};

fn gallery(cat: &Catalogue, embedder: &Embedder) -> Gallery {
    gallery_of(cat, embedder, &embedder_fingerprint(), all_faces(cat, 0)).expect("embed faces")
}

fn bench(c: &mut Criterion) {
    let cat = Catalogue::bundled();
    let embedder = Embedder::load(EMBEDDER_ONNX).expect("embedder");
    let g = gallery(&cat, &embedder);
    let analyzer = Analyzer::new(g.clone()).expect("analyzer");
    // The busiest of a few late-game scenes.
    let mut renderer = Renderer::new(&cat);
    let scene = (0..12)
        .map(|i| renderer.render(5, i, &SceneOptions::default()))
        .max_by_key(|s| {
            s.truth
                .cities
                .iter()
                .map(|c| c.moloch.len() + c.outpost.len())
                .sum::<usize>()
        })
        .expect("a scene");
    let cards: usize = scene
        .truth
        .cities
        .iter()
        .map(|c| 1 + c.moloch.len() + c.outpost.len())
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
            let e = embedder.embed(&crops).expect("embed");
            (
                g.identify(PieceClass::Card, &e[0]),
                g.identify(PieceClass::Card, &e[1]),
            )
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
