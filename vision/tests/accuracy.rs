//! Accuracy of the whole vision on rendered table photos whose truth is known, in the
//! canonical face style 0, which no model saw in training (they train on styles 1 to 40):
//! the player enrols their own deck, and the models must carry over to faces they never saw.
//!
//! The floors are set a margin under what the committed models measure (see the model cards
//! and `tablelens eval`), so a change that makes the vision worse fails here. The figures are
//! printed: run with `--nocapture` to see them.

use tablelens_engine::Catalogue;
use tablelens_vision::perceive::eval::{report, score};
use tablelens_vision::perceive::identify::gallery_of;
use tablelens_vision::perceive::{embedder_fingerprint, Analyzer, Embedder, NetworkRuns};
use tablelens_vision::render::{all_faces, Renderer, SceneOptions};

/// The parts of identification are timed apart, one after another, within it.
fn assert_parts_within_identify(t: &tablelens_vision::perceive::StageTimes) {
    let parts = [t.first_look_ms, t.second_look_ms, t.on_cards_ms];
    assert!(parts.iter().all(|&ms| ms >= 0.0), "{t:?}");
    assert!(t.first_look_ms > 0.0, "{t:?}");
    assert!(parts.iter().sum::<f64>() <= t.identify_ms + 1e-6, "{t:?}");
}

/// The steps of an analysis cover it, in order from detection to the layout: their network
/// runs add up to the analysis's (`runs`; to part of them where the frame was analysed
/// again with its light taken out, whose first analysis has no steps), and their times to
/// no more than its own.
fn assert_steps_cover(analysis: &tablelens_vision::perceive::Analysis, runs: &NetworkRuns) {
    let steps = &analysis.steps;
    let names: Vec<&str> = steps.iter().map(|s| s.name).collect();
    assert_eq!(names.first(), Some(&"detect"), "{names:?}");
    assert_eq!(names.last(), Some(&"assemble"), "{names:?}");
    let mut sum = NetworkRuns::default();
    for s in steps {
        assert!(s.ms >= 0.0, "{s:?}");
        sum = sum + s.runs;
    }
    if analysis.times.relit() {
        assert!(sum.total() < runs.total(), "{sum:?} of {runs:?}");
    } else {
        assert_eq!(sum, *runs);
    }
    let t = &analysis.times;
    let ms: f64 = steps.iter().map(|s| s.ms).sum();
    assert!(ms <= t.total_ms() - t.first_pass_ms + 1e-6, "{ms} of {t:?}");
}

/// An analyzer whose gallery holds the canonical faces (style 0).
fn canonical_analyzer(cat: &Catalogue) -> Analyzer {
    let embedder = Embedder::builtin().expect("embedder");
    let faces = all_faces(cat, 0);
    let gallery = gallery_of(cat, &embedder, &embedder_fingerprint(), faces).expect("gallery");
    Analyzer::new(gallery).expect("analyzer")
}

#[test]
fn the_vision_finds_and_names_cards_on_faces_it_never_trained_on() {
    let cat = Catalogue::bundled();
    let analyzer = canonical_analyzer(&cat);
    let mut renderer = Renderer::new(&cat);
    let mut scores = Vec::new();
    let mut times = Vec::new();
    for i in 0..8 {
        let scene = renderer.render(2024, i, &SceneOptions::default());
        let before = analyzer.network_runs();
        let analysis = analyzer.analyze(&cat, &scene.image).expect("analyze");
        // The work is counted: the frame was detected, and at least each of its five
        // cities refined and embedded.
        let runs = analyzer.network_runs().since(&before);
        assert!(
            runs.detector >= 1 && runs.refiner >= 5 && runs.embedder >= 5,
            "{runs:?}"
        );
        scores.push(score(&analysis, &scene.truth));
        assert_parts_within_identify(&analysis.times);
        assert_steps_cover(&analysis, &runs);
        times.push(analysis.times);
    }
    // Tables with only the five cities on them: nothing else may be invented around them.
    let bare = tablelens_engine::Layout::default();
    for i in 0..4 {
        let scene = renderer.render_layout(&bare, 2025, i, &SceneOptions::default());
        let analysis = analyzer.analyze(&cat, &scene.image).expect("analyze");
        scores.push(score(&analysis, &scene.truth));
        times.push(analysis.times);
    }
    let r = report(&scores, &times, &[]);
    let card = &r.detection["card"];
    println!(
        "cards: recall {:.3}, precision {:.3}, top-1 {:.3}, named wrong {:.3}; all pieces top-1 {:.3}; units placed {:.3}; \
         modules {:.3}; tokens {:.3}; city states {:.3}; layouts exact {:.3}",
        card.recall,
        card.precision,
        card.identity_top1,
        card.named_wrong,
        r.identity_top1,
        r.unit_placement,
        r.module_accuracy,
        r.token_accuracy,
        r.city_state_accuracy,
        r.layout_exact
    );
    let figures = [
        ("card recall", card.recall, CARD_RECALL),
        ("card precision", card.precision, CARD_PRECISION),
        ("card top-1", card.identity_top1, CARD_TOP1),
        ("units placed", r.unit_placement, UNITS_PLACED),
        ("modules", r.module_accuracy, MODULES),
        ("tokens", r.token_accuracy, TOKENS),
        ("city states", r.city_state_accuracy, CITY_STATES),
    ];
    for (name, value, floor) in figures {
        assert!(value >= floor, "{name} {value:.3} under its floor {floor}");
    }
    // An unknown card is asked about; a wrongly named one silently changes the battle.
    assert!(
        card.named_wrong <= CARD_NAMED_WRONG,
        "cards named wrong {:.3} over its ceiling {CARD_NAMED_WRONG}",
        card.named_wrong
    );
}

/// `image` under a light of `gains` (red, green, blue).
fn lit(image: &image::RgbImage, gains: [f32; 3]) -> image::RgbImage {
    let mut out = image.clone();
    for p in out.pixels_mut() {
        for (v, gain) in p.0.iter_mut().zip(gains) {
            *v = (f32::from(*v) * gain).round().min(255.0) as u8;
        }
    }
    out
}

#[test]
fn a_frame_under_a_coloured_or_dim_light_is_relit_and_read_as_well_as_under_a_white_one() {
    let cat = Catalogue::bundled();
    let analyzer = canonical_analyzer(&cat);
    let mut renderer = Renderer::new(&cat);
    // A green light (a fluorescent tube seen by a camera set for daylight), far greener
    // than the renderer's own white balance; and a dim room, a third as bright as the
    // renderer's frames.
    let lights = [("green", [0.7, 1.2, 1.1]), ("dim", [0.35; 3])];
    let mut white = Vec::new();
    let mut under: Vec<Vec<_>> = vec![Vec::new(); lights.len()];
    let mut times = Vec::new();
    for i in 0..6 {
        let scene = renderer.render(2024, i, &SceneOptions::default());
        let analysis = analyzer.analyze(&cat, &scene.image).expect("analyze");
        white.push(score(&analysis, &scene.truth));
        for ((name, gains), scores) in lights.iter().zip(&mut under) {
            let analysis = analyzer
                .analyze(&cat, &lit(&scene.image, *gains))
                .expect("analyze");
            assert!(
                analysis.times.relit(),
                "scene {i}: the {name} frame was not analysed again relit"
            );
            scores.push(score(&analysis, &scene.truth));
        }
        times.push(analysis.times);
    }
    let white = report(&white, &times, &[]);
    for ((name, _), scores) in lights.iter().zip(&under) {
        let seen = report(scores, &times, &[]);
        println!(
            "white / {name} light: all pieces top-1 {:.3} / {:.3}; tokens {:.3} / {:.3}; layouts exact {:.3} / {:.3}",
            white.identity_top1,
            seen.identity_top1,
            white.token_accuracy,
            seen.token_accuracy,
            white.layout_exact,
            seen.layout_exact
        );
        for (what, white, seen) in [
            (
                "pieces named right",
                white.identity_top1,
                seen.identity_top1,
            ),
            ("tokens right", white.token_accuracy, seen.token_accuracy),
            ("layouts exact", white.layout_exact, seen.layout_exact),
        ] {
            assert!(
                seen >= white - LIGHT_LOSS,
                "{what}: {seen:.3} under the {name} light, {white:.3} under a white one"
            );
        }
    }
}

#[test]
fn photos_upright_square_or_four_by_three_are_read_as_well_as_wide_ones() {
    let cat = Catalogue::bundled();
    let analyzer = canonical_analyzer(&cat);
    let mut renderer = Renderer::new(&cat);
    // A phone held upright, a square crop, and a camera's 4:3.
    let shapes = [
        ("upright", 1080, 1920),
        ("square", 1440, 1440),
        ("4:3", 1600, 1200),
    ];
    let (mut wide, mut times) = (Vec::new(), Vec::new());
    let mut other: Vec<Vec<_>> = vec![Vec::new(); shapes.len()];
    for i in 0..4 {
        let scene = renderer.render(2024, i, &SceneOptions::default());
        let analysis = analyzer.analyze(&cat, &scene.image).expect("analyze");
        wide.push(score(&analysis, &scene.truth));
        times.push(analysis.times);
        for ((_, width, height), scores) in shapes.iter().zip(&mut other) {
            let options = SceneOptions {
                width: *width,
                height: *height,
                ..SceneOptions::default()
            };
            let scene = renderer.render(2024, i, &options);
            let analysis = analyzer.analyze(&cat, &scene.image).expect("analyze");
            scores.push(score(&analysis, &scene.truth));
        }
    }
    let wide = report(&wide, &times, &[]);
    let wide_cards = &wide.detection["card"];
    for ((name, _, _), scores) in shapes.iter().zip(&other) {
        let seen = report(scores, &times, &[]);
        let cards = &seen.detection["card"];
        println!(
            "wide / {name}: card recall {:.3} / {:.3}; units placed {:.3} / {:.3}; layouts exact {:.3} / {:.3}",
            wide_cards.recall,
            cards.recall,
            wide.unit_placement,
            seen.unit_placement,
            wide.layout_exact,
            seen.layout_exact
        );
        for (what, wide, seen) in [
            ("card recall", wide_cards.recall, cards.recall),
            ("units placed", wide.unit_placement, seen.unit_placement),
        ] {
            assert!(
                seen >= wide - SHAPE_LOSS,
                "{what}: {seen:.3} {name}, {wide:.3} wide"
            );
        }
    }
}

/// How much lower a share may be in upright, square or 4:3 photos than in wide ones.
/// Measured when set: card recall and units placed 1.000 every way but square, 0.986 and
/// 0.981 (upright, before `detect::letterbox` turned such photos: 0.637 and 0.576).
const SHAPE_LOSS: f64 = 0.05;

/// How much lower a share may be under the green or dim light than under a white one.
/// Measured when set: pieces named right, tokens right and layouts exact 1.000 under
/// each; analysed once, without relighting, layouts exact 0.833 under the green light and
/// 1.000 under the dim one (these six scenes are easy: the dim light is checked here for
/// being relit, and for no loss).
const LIGHT_LOSS: f64 = 0.03;

/// Floors, a margin under the committed models' figures on these 12 scenes.
/// Measured when set: recall 0.993 (0.986 before the second look), precision 1.000, top-1
/// 0.993, named wrong 0.000, units placed 0.977 (0.965 before the second look), modules
/// under the right unit 0.917 (one strip of twelve too close to call; 0.750 before the strip
/// finder), tokens on the right unit 0.939 (0.633 before the token embedder and the
/// 16-channel token finder, 0.898 before the second look, 0.918 before tokens were looked at
/// from four quarter turns), city states 0.983.
const CARD_RECALL: f64 = 0.95;
const CARD_PRECISION: f64 = 0.97;
const CARD_TOP1: f64 = 0.96;
const UNITS_PLACED: f64 = 0.93;
const MODULES: f64 = 0.85;
const TOKENS: f64 = 0.88;
const CITY_STATES: f64 = 0.93;
/// Ceiling on the share of matched cards named wrong.
const CARD_NAMED_WRONG: f64 = 0.02;
