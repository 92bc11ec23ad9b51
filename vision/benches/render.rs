//! How long the renderer takes: one 1920x1080 scene (from nothing, and with the faces
//! already painted by an earlier scene) and one canonical face.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use tablelens_engine::Catalogue;
use tablelens_vision::render::{face, render_scene, Renderer, SceneOptions};

fn scenes(c: &mut Criterion) {
    let cat = Catalogue::bundled();
    let opts = SceneOptions::default();
    let mut g = c.benchmark_group("render");
    g.sample_size(20);
    let mut i = 0u64;
    g.bench_function("scene_1920x1080", |b| {
        b.iter(|| {
            // Cycle through a few scenes so the figure is not one lucky layout.
            i = (i + 1) % 8;
            black_box(render_scene(&cat, 1, i, &opts))
        })
    });
    let mut r = Renderer::new(&cat);
    let mut j = 0u64;
    g.bench_function("scene_1920x1080_warm_faces", |b| {
        b.iter(|| {
            j = (j + 1) % 8;
            black_box(r.render(1, j, &opts))
        })
    });
    g.bench_function("face_hornet_canonical", |b| {
        b.iter(|| black_box(face(&cat, "hornet", 0)))
    });
    g.bench_function("face_iron_gate_style_7", |b| {
        b.iter(|| black_box(face(&cat, "iron_gate", 7)))
    });
    g.finish();
}

criterion_group!(benches, scenes);
criterion_main!(benches);
