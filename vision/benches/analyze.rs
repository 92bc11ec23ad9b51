//! Benchmarks of the vision: a whole 1920x1080 table photo of 40 cards analysed (detect,
//! refine, identify, assemble), seen from far off and from a camera set up for play, and one
//! card identified (crop, embed both ways up, nearest neighbour). `TABLELENS_THREADS=1`
//! gives the one-core figures. On a shared virtual machine, compare builds in alternated
//! rounds and note the CPU steal of each round (ARCHITECTURE.md, "Conventions").

use criterion::{criterion_group, criterion_main, Criterion};
use tablelens_engine::Catalogue;
use tablelens_vision::perceive::identify::{crop, gallery_of};
use tablelens_vision::perceive::{embedder_fingerprint, Analyzer, Embedder, Gallery, PieceClass};
use tablelens_vision::render::all_faces;
use tablelens_vision::render::crowded::{cards_in_view, crowded_table, narrowest_unit};

fn gallery(cat: &Catalogue, embedder: &Embedder) -> Gallery {
    gallery_of(cat, embedder, &embedder_fingerprint(), all_faces(cat, 0)).expect("embed faces")
}

fn bench(c: &mut Criterion) {
    let cat = Catalogue::bundled();
    let embedder = Embedder::builtin().expect("embedder");
    let g = gallery(&cat, &embedder);
    let analyzer = Analyzer::new(g.clone()).expect("analyzer");
    // The crowded table of 40 cards (the speed target's), far off and set up for play.
    let table = crowded_table(&cat).expect("a camera showing all 40 cards for play");
    let (far, near) = (table.far, table.near);
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
