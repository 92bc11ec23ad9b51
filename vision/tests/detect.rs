//! The detector run in two tiles at once (as on two cores) must find the same cards as
//! the one whole run, with nearly the same corners.

use tablelens_engine::Catalogue;
use tablelens_vision::perceive::detect::SURE_SCORE;
use tablelens_vision::perceive::{Detection, Detector, DetectorRun, DETECTOR_ONNX};
use tablelens_vision::render::{Renderer, SceneOptions};

/// Frame pixels between the corners of two detections, at the worst corner.
fn corner_gap(a: &Detection, b: &Detection) -> f32 {
    a.corners
        .iter()
        .zip(&b.corners)
        .map(|(p, q)| (p[0] - q[0]).hypot(p[1] - q[1]))
        .fold(0.0, f32::max)
}

/// Frame pixels within which two detections are one card: about five detector input pixels.
/// Near the middle the two runs' corners differ by up to a few input pixels, which the
/// refiner then brings to the card's edges either way.
const MATCH_GAP: f32 = 20.0;

/// The sure detections of `a` that no detection of `b` matches.
fn unmatched<'a>(a: &'a [Detection], b: &[Detection]) -> Vec<&'a Detection> {
    a.iter()
        .filter(|d| d.score >= SURE_SCORE)
        .filter(|d| !b.iter().any(|e| corner_gap(d, e) < MATCH_GAP))
        .collect()
}

#[test]
fn tiled_and_whole_runs_find_the_same_cards() {
    let cat = Catalogue::bundled();
    let detector = Detector::load(DETECTOR_ONNX).expect("detector");
    let mut renderer = Renderer::new(&cat);
    let options = SceneOptions::default();
    let (mut sure, mut missed, mut added) = (0, 0, 0);
    for i in 0..10 {
        let scene = renderer.render(31, i, &options);
        let whole = detector
            .detect_as(&scene.image, DetectorRun::Whole)
            .expect("whole");
        let tiled = detector
            .detect_as(&scene.image, DetectorRun::Tiled)
            .expect("tiled");
        sure += whole.iter().filter(|d| d.score >= SURE_SCORE).count();
        missed += unmatched(&whole, &tiled).len();
        added += unmatched(&tiled, &whole).len();
    }
    println!("{sure} sure cards in the whole runs; tiles missed {missed}, added {added}");
    assert!(sure >= 60, "only {sure} sure cards in 10 scenes");
    assert!(missed * 50 <= sure, "tiles missed {missed} of {sure}");
    assert!(added * 50 <= sure, "tiles added {added} to {sure}");
}
