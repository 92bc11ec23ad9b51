//! The renderer's promises: deterministic bytes, legal layouts, truth corners on the drawn
//! pieces, a distinct face for every component, and the files `render` writes.

use image::RgbImage;
use std::path::PathBuf;
use tablelens_engine::{check, Catalogue, Corners, Layout, Side};
use tablelens_vision::render::{
    deck_style, distractors::deck_backs, face, render_scene, write_faces, write_scenes_with,
    RenderError, SceneOptions,
};

fn small() -> SceneOptions {
    SceneOptions::default().sized(640, 360)
}

fn clean(style: u64) -> SceneOptions {
    SceneOptions {
        style_pool: vec![style],
        effects: false,
        distractors: false,
        ..SceneOptions::default().sized(800, 450)
    }
}

fn png(img: &RgbImage) -> Vec<u8> {
    let mut buf = std::io::Cursor::new(Vec::new());
    img.write_to(&mut buf, image::ImageFormat::Png)
        .expect("png");
    buf.into_inner()
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tablelens-vision-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

#[test]
fn the_same_seed_gives_the_same_bytes() {
    let cat = Catalogue::bundled();
    for index in [0, 5] {
        let a = render_scene(&cat, 42, index, &small());
        let b = render_scene(&cat, 42, index, &small());
        assert_eq!(
            png(&a.image),
            png(&b.image),
            "scene {index} differs between runs"
        );
        assert_eq!(a.truth.to_json_pretty(), b.truth.to_json_pretty());
    }
    let other = render_scene(&cat, 43, 0, &small());
    assert_ne!(
        png(&other.image),
        png(&render_scene(&cat, 42, 0, &small()).image)
    );
}

#[test]
fn written_scenes_are_identical_bit_for_bit_and_parse_as_layouts() {
    let cat = Catalogue::bundled();
    let (a, b) = (temp_dir("scenes-a"), temp_dir("scenes-b"));
    let opts = SceneOptions::training(5).sized(480, 270);
    write_scenes_with(&cat, &a, 3, 9, &opts).expect("write a");
    write_scenes_with(&cat, &b, 3, 9, &opts).expect("write b");
    for name in [
        "0000.png",
        "0000.json",
        "0001.png",
        "0001.json",
        "0002.png",
        "0002.json",
    ] {
        let fa = std::fs::read(a.join(name)).expect(name);
        let fb = std::fs::read(b.join(name)).expect(name);
        assert_eq!(fa, fb, "{name} differs");
    }
    let text = std::fs::read_to_string(a.join("0001.json")).expect("json");
    let layout = Layout::from_json(&text, &cat).expect("the truth is a valid layout");
    assert_eq!(layout.cities.len(), 5);
    let img = image::open(a.join("0001.png")).expect("png").to_rgb8();
    assert_eq!(img.dimensions(), (480, 270));
    let _ = std::fs::remove_dir_all(&a);
    let _ = std::fs::remove_dir_all(&b);
}

fn all_corners(l: &Layout) -> Vec<(String, Corners)> {
    let mut out = Vec::new();
    for c in &l.cities {
        let id = c.id.face_id(c.destroyed);
        out.push((id, c.corners.expect("city corners")));
        for m in &c.markers {
            out.push((m.kind.clone(), m.corners.expect("marker corners")));
        }
        for u in c.moloch.iter().chain(&c.outpost) {
            out.push((u.card.clone(), u.corners.expect("unit corners")));
            if let Some(m) = &u.module {
                out.push((m.card.clone(), m.corners.expect("module corners")));
            }
            for (t, q) in u.tokens.iter().zip(&u.token_corners) {
                out.push((t.component_id().to_string(), *q));
            }
        }
    }
    out
}

#[test]
fn rendered_layouts_are_legal_and_complete() {
    let cat = Catalogue::bundled();
    let opts = SceneOptions {
        effects: false,
        distractors: false,
        ..SceneOptions::training(10).sized(320, 180)
    };
    let (mut destroyed, mut tokens, mut modules, mut markers) = (0, 0, 0, 0);
    for i in 0..30 {
        let s = render_scene(&cat, 77, i, &opts);
        let f = check(&cat, &s.truth);
        assert!(f.violations.is_empty(), "scene {i}: {:?}", f.violations);
        let l = &s.truth;
        assert_eq!(l.cities.len(), 5);
        for c in &l.cities {
            destroyed += usize::from(c.destroyed);
            let expected = c.districts_destroyed as usize
                + usize::from(c.battle_marker)
                + usize::from(c.feature_used && !c.destroyed)
                + usize::from(c.extra_district);
            assert_eq!(c.markers.len(), expected, "scene {i} {}", c.id);
            markers += c.markers.len();
            for (side, units) in [(Side::Moloch, &c.moloch), (Side::Outpost, &c.outpost)] {
                for u in units {
                    assert_eq!(u.tokens.len(), u.token_corners.len());
                    assert!(
                        u.arrived.is_some() && u.strength.is_some(),
                        "{side:?} {}",
                        u.card
                    );
                    tokens += u.tokens.len();
                    modules += usize::from(u.module.is_some());
                }
            }
        }
        for (id, q) in all_corners(l) {
            for p in q {
                assert!(
                    p[0] >= -0.5 && p[1] >= -0.5 && p[0] <= 319.5 && p[1] <= 179.5,
                    "scene {i}: {id} has a corner outside the image: {q:?}"
                );
            }
        }
    }
    assert!(destroyed > 5 && tokens > 10 && modules > 5 && markers > 20);
}

/// Bilinear sample of an image at continuous pixel coordinates (pixel centres at integers).
fn sample(img: &RgbImage, x: f64, y: f64) -> [f64; 3] {
    let (w, h) = (img.width() as f64, img.height() as f64);
    let x = x.clamp(0.0, w - 1.0);
    let y = y.clamp(0.0, h - 1.0);
    let (x0, y0) = (x.floor(), y.floor());
    let (x1, y1) = ((x0 + 1.0).min(w - 1.0), (y0 + 1.0).min(h - 1.0));
    let (tx, ty) = (x - x0, y - y0);
    let p = |x: f64, y: f64| img.get_pixel(x as u32, y as u32).0.map(f64::from);
    let (a, b, c, d) = (p(x0, y0), p(x1, y0), p(x0, y1), p(x1, y1));
    std::array::from_fn(|i| {
        let top = a[i] + (b[i] - a[i]) * tx;
        let bot = c[i] + (d[i] - c[i]) * tx;
        top + (bot - top) * ty
    })
}

/// The point of a quad at fractions (s, t) of its face: the homography of the unit square.
fn quad_point(q: &Corners, s: f64, t: f64) -> (f64, f64) {
    let p = |i: usize| (q[i][0] as f64, q[i][1] as f64);
    let (x0, y0) = p(0);
    let (x1, y1) = p(1);
    let (x2, y2) = p(2);
    let (x3, y3) = p(3);
    let sx = x0 - x1 + x2 - x3;
    let sy = y0 - y1 + y2 - y3;
    let (dx1, dx2, dy1, dy2) = (x1 - x2, x3 - x2, y1 - y2, y3 - y2);
    let den = dx1 * dy2 - dx2 * dy1;
    let g = (sx * dy2 - dx2 * sy) / den;
    let h = (dx1 * sy - sx * dy1) / den;
    let a = [x1 - x0 + g * x1, x3 - x0 + h * x3, x0];
    let b = [y1 - y0 + g * y1, y3 - y0 + h * y3, y0];
    let w = g * s + h * t + 1.0;
    (
        (a[0] * s + a[1] * t + a[2]) / w,
        (b[0] * s + b[1] * t + b[2]) / w,
    )
}

fn inside(q: &Corners, x: f64, y: f64, grow: f64) -> bool {
    // Convex quad, clockwise in image coordinates (y down): every edge has the point on its
    // right-hand side, within `grow` pixels.
    (0..4).all(|i| {
        let (ax, ay) = (q[i][0] as f64, q[i][1] as f64);
        let (bx, by) = (q[(i + 1) % 4][0] as f64, q[(i + 1) % 4][1] as f64);
        let len = (bx - ax).hypot(by - ay).max(1e-9);
        ((bx - ax) * (y - ay) - (by - ay) * (x - ax)) / len >= -grow
    })
}

/// Mean colour difference (0..1) between the photo inside `q` and the face, over the face
/// points no other piece covers; `None` when too few such points.
fn face_error(
    img: &RgbImage,
    face_img: &RgbImage,
    q: &Corners,
    others: &[Corners],
    round: bool,
    region: Option<(f64, f64)>,
) -> Option<f64> {
    let (fw, fh) = (face_img.width() as f64, face_img.height() as f64);
    let (s0, s1) = region.unwrap_or((0.0, 1.0));
    let n = 14;
    let mut sum = 0.0;
    let mut count = 0;
    for i in 0..n {
        for j in 0..n {
            let s = 0.08 + 0.84 * (i as f64 + 0.5) / n as f64;
            let t = 0.08 + 0.84 * (j as f64 + 0.5) / n as f64;
            if round && (s - 0.5).hypot(t - 0.5) > 0.38 {
                continue;
            }
            let (x, y) = quad_point(q, s, t);
            if x < 1.0 || y < 1.0 || x > img.width() as f64 - 2.0 || y > img.height() as f64 - 2.0 {
                continue;
            }
            if others.iter().any(|o| inside(o, x, y, 3.0)) {
                continue;
            }
            let fs = s0 + (s1 - s0) * s;
            let a = sample(img, x, y);
            let b = sample(face_img, fs * fw - 0.5, t * fh - 0.5);
            sum += (0..3).map(|k| (a[k] - b[k]).abs()).sum::<f64>() / (3.0 * 255.0);
            count += 1;
        }
    }
    (count >= 12).then(|| sum / count as f64)
}

#[test]
fn truth_corners_land_on_the_drawn_pieces() {
    let cat = Catalogue::bundled();
    let mut checked = 0;
    let (mut err_true, mut err_turned, mut err_shifted) = (0.0, 0.0, 0.0);
    for (k, style) in [0u64, 3, 11, 1 << 40].into_iter().enumerate() {
        for index in 0..3u64 {
            let scene = render_scene(&cat, 500 + k as u64, index, &clean(style));
            let pieces = all_corners(&scene.truth);
            let mut faces = std::collections::BTreeMap::new();
            for (pi, (id, q)) in pieces.iter().enumerate() {
                let module = cat
                    .card(id)
                    .is_some_and(|c| c.kind == tablelens_engine::Kind::Module)
                    && ((q[0][0] - q[1][0]).hypot(q[0][1] - q[1][1])
                        < 0.4 * (q[1][0] - q[2][0]).hypot(q[1][1] - q[2][1]));
                let full = faces
                    .entry(id.clone())
                    .or_insert_with(|| face(&cat, id, style).expect("face"));
                // The face as large as it lies in the photo (the renderer draws from a
                // pyramid of smaller faces, so compare like with like).
                let len = |a: [f32; 2], b: [f32; 2]| f64::from((a[0] - b[0]).hypot(a[1] - b[1]));
                let h_px = len(q[1], q[2]).max(len(q[0], q[3]));
                let w_px = h_px * full.width() as f64 / full.height() as f64;
                let face_img = &image::imageops::resize(
                    &*full,
                    (w_px.ceil() as u32).clamp(8, full.width()),
                    (h_px.ceil() as u32).clamp(8, full.height()),
                    image::imageops::FilterType::Triangle,
                );
                let others: Vec<Corners> = pieces
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != pi)
                    .map(|(_, (_, o))| *o)
                    .collect();
                let round = id.starts_with("token_")
                    || id == "marker_battle"
                    || id == "marker_used_feature";
                // A module's truth is its strip: the right part of its face.
                let region = module.then(|| {
                    let strip_w = (q[0][0] - q[1][0]).hypot(q[0][1] - q[1][1]) as f64;
                    let card_h = (q[1][0] - q[2][0]).hypot(q[1][1] - q[2][1]) as f64;
                    let frac = (strip_w / card_h * 88.0 / 63.0).min(1.0);
                    (1.0 - frac, 1.0)
                });
                let Some(e) = face_error(&scene.image, face_img, q, &others, round, region) else {
                    continue;
                };
                assert!(
                    e < 0.2,
                    "style {style} scene {index}: {id} is not where its corners say (error {e:.3})"
                );
                // The same piece with corners starting at the wrong corner, or moved a little.
                let turned = [q[2], q[3], q[0], q[1]];
                let dx = (q[1][0] - q[0][0]) * 0.12;
                let dy = (q[1][1] - q[0][1]) * 0.12;
                let shifted = q.map(|p| [p[0] + dx, p[1] + dy]);
                let et = face_error(&scene.image, face_img, &turned, &others, round, region);
                let es = face_error(&scene.image, face_img, &shifted, &others, round, region);
                if let (Some(et), Some(es)) = (et, es) {
                    err_true += e;
                    err_turned += et;
                    err_shifted += es;
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} pieces checked");
    let (t, r, s) = (
        err_true / checked as f64,
        err_turned / checked as f64,
        err_shifted / checked as f64,
    );
    eprintln!("checked {checked}: true {t:.3}, turned {r:.3}, shifted {s:.3}");
    assert!(t < 0.06, "mean error with the true corners: {t:.3}");
    assert!(
        r > 3.0 * t && s > 2.0 * t,
        "wrong corners are not told apart: true {t:.3}, turned {r:.3}, shifted {s:.3}"
    );
}

fn thumb(img: &RgbImage) -> Vec<f32> {
    let small = image::imageops::resize(img, 48, 64, image::imageops::FilterType::Triangle);
    small
        .pixels()
        .flat_map(|p| p.0.map(|v| v as f32 / 255.0))
        .collect()
}

#[test]
fn every_component_has_its_own_face_in_every_style() {
    let cat = Catalogue::bundled();
    let ids = cat.component_ids();
    assert_eq!(ids.len(), 76);
    for style in [0u64, 7] {
        let faces: Vec<RgbImage> = ids
            .iter()
            .map(|id| face(&cat, id, style).unwrap_or_else(|| panic!("no face for {id}")))
            .collect();
        let thumbs: Vec<Vec<f32>> = faces.iter().map(thumb).collect();
        for i in 0..ids.len() {
            for j in i + 1..ids.len() {
                let d: f32 = thumbs[i]
                    .iter()
                    .zip(&thumbs[j])
                    .map(|(a, b)| (a - b).abs())
                    .sum::<f32>()
                    / thumbs[i].len() as f32;
                assert!(
                    d > 0.004,
                    "style {style}: {} and {} look the same ({d})",
                    ids[i],
                    ids[j]
                );
            }
        }
        // Faces are fixed by id and style.
        assert_eq!(faces[3], face(&cat, &ids[3], style).expect("face"));
    }
    assert!(face(&cat, "atlantis", 0).is_none());
    assert_ne!(face(&cat, "hornet", 0), face(&cat, "hornet", 1));
}

#[test]
fn canonical_faces_show_the_faction_and_the_city_edges() {
    let cat = Catalogue::bundled();
    let px = |img: &RgbImage, x_mm: f64, y_mm: f64| {
        let s = img.width() as f64 / 63.0;
        img.get_pixel((x_mm * s) as u32, (y_mm * s) as u32)
            .0
            .map(i32::from)
    };
    for card in cat.cards() {
        let img = face(&cat, &card.id, 0).expect("face");
        assert_eq!(img.dimensions(), (378, 528));
        let c = px(&img, 1.0, 44.0);
        match card.side {
            Side::Moloch => assert!(
                c[0] > c[1] + 60 && c[0] > c[2] + 60,
                "{}: frame {c:?}",
                card.id
            ),
            Side::Outpost => assert!(
                c[1] > c[0] + 40 && c[1] > c[2] + 40,
                "{}: frame {c:?}",
                card.id
            ),
        }
    }
    for city in cat.cities() {
        for id in [city.id.to_string(), format!("{}_destroyed", city.id)] {
            let img = face(&cat, &id, 0).expect("face");
            let top = px(&img, 31.0, 1.0);
            let bottom = px(&img, 31.0, 87.0);
            assert!(top[0] > top[1] + 40, "{id}: top edge {top:?} is not red");
            assert!(
                bottom[1] > bottom[0] + 20,
                "{id}: bottom edge {bottom:?} is not green"
            );
        }
    }
}

#[test]
fn write_faces_writes_every_component() {
    let cat = Catalogue::bundled();
    let dir = temp_dir("faces");
    let n = write_faces(&cat, &dir).expect("faces written");
    assert_eq!(n, 76);
    let pngs = std::fs::read_dir(&dir)
        .expect("dir")
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "png"))
        })
        .count();
    assert_eq!(pngs, 76);
    for id in cat.component_ids() {
        let img = image::open(dir.join(format!("{id}.png")))
            .expect("a readable png")
            .to_rgb8();
        assert_eq!(img, face(&cat, &id, 0).expect("face"), "{id}");
    }
    // And the deck's two card backs, which enrolment reads beside the faces.
    let backs = deck_backs(0);
    for (side, back) in ["moloch", "outpost"].iter().zip(&backs) {
        let path = dir
            .join(tablelens_vision::CARD_BACK)
            .join(format!("{side}.png"));
        let img = image::open(&path).expect("a readable png").to_rgb8();
        assert_eq!(&img, back, "{side}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn each_deck_has_two_backs_of_its_own() {
    let [a, b] = deck_backs(deck_style(1));
    assert_ne!(a, b);
    assert_eq!(deck_backs(deck_style(1)), [a.clone(), b]);
    assert_ne!(deck_backs(deck_style(2))[0], a);
}

#[test]
fn unwritable_places_are_reported_with_their_path() {
    let cat = Catalogue::bundled();
    let dir = temp_dir("blocked");
    std::fs::create_dir_all(&dir).expect("dir");
    let file = dir.join("a-file");
    std::fs::write(&file, b"x").expect("file");
    let target = file.join("faces");
    let err = write_faces(&cat, &target).expect_err("cannot create a directory under a file");
    assert!(matches!(err, RenderError::CreateDir { .. }));
    assert!(err.to_string().contains("a-file"), "{err}");
    let err = write_scenes_with(&cat, &target, 1, 0, &small()).expect_err("same for scenes");
    assert!(err.to_string().contains("a-file"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn odd_options_and_seeds_do_not_panic() {
    let cat = Catalogue::bundled();
    let odd = SceneOptions {
        width: 0,
        height: 1,
        style_pool: Vec::new(),
        mixed_styles: f64::NAN,
        effects: true,
        distractors: true,
        stacked: f64::NAN,
    };
    let s = render_scene(&cat, u64::MAX, u64::MAX, &odd);
    assert!(s.image.width() >= 64 && s.image.height() >= 64);
    let mixed = SceneOptions {
        mixed_styles: 1.0,
        ..SceneOptions::training(4).sized(200, 900)
    };
    for i in 0..4 {
        let s = render_scene(&cat, i, i * 1000, &mixed);
        assert!(check(&cat, &s.truth).violations.is_empty());
    }
}

#[test]
fn a_given_layout_is_rendered_with_its_pieces_in_the_truth() {
    let cat = tablelens_engine::Catalogue::bundled();
    let layout = tablelens_engine::Layout::from_json(
        r#"{"cities":[{"id":"ziggy_one","battle_marker":true,"districts_destroyed":1,
            "moloch":[{"card":"hornet","tokens":["+1"],"module":{"card":"combat_module"}}],
            "outpost":[{"card":"scout","tokens":["+1"]},{"card":"bunker"}]}]}"#,
        &cat,
    )
    .unwrap();
    let mut r = tablelens_vision::render::Renderer::new(&cat);
    let opts = tablelens_vision::render::SceneOptions::default().sized(640, 360);
    let scene = r.render_layout(&layout, 3, 0, &opts);
    let z = &scene.truth.cities[0];
    assert_eq!(scene.truth.cities.len(), 5);
    assert_eq!(z.moloch[0].card, "hornet");
    assert_eq!(z.moloch[0].module.as_ref().unwrap().card, "combat_module");
    assert!(z.moloch[0].corners.is_some() && z.moloch[0].token_corners.len() == 1);
    assert_eq!(z.outpost.len(), 2);
    assert_eq!(z.districts_destroyed, 1);
    assert!(z.battle_marker);
    let again = r.render_layout(&layout, 3, 0, &opts);
    assert_eq!(scene.image.as_raw(), again.image.as_raw());
}

/// The least distance between two of the squares' centres, as a share of the first
/// square's side; `None` for fewer than two.
fn closest(squares: &[Corners]) -> Option<f64> {
    let side = |c: &Corners| f64::from((c[0][0] - c[1][0]).hypot(c[0][1] - c[1][1]));
    let mut best: Option<f64> = None;
    for (i, a) in squares.iter().enumerate() {
        for b in &squares[i + 1..] {
            let (p, q) = (quad_point(a, 0.5, 0.5), quad_point(b, 0.5, 0.5));
            let d = (p.0 - q.0).hypot(p.1 - q.1) / side(a);
            best = Some(best.map_or(d, |x| x.min(d)));
        }
    }
    best
}

#[test]
fn stacked_tokens_and_markers_lie_partly_over_one_another_and_apart_by_default() {
    let cat = Catalogue::bundled();
    let apart = SceneOptions::training(4).sized(480, 270);
    let stacked = SceneOptions {
        stacked: 1.0,
        ..apart.clone()
    };
    let (mut over, mut pairs_apart, mut pairs_stacked) = (0, 0, 0);
    for i in 0..6 {
        for (options, stacked) in [(&apart, false), (&stacked, true)] {
            let s = render_scene(&cat, 11, i, options);
            let mut groups: Vec<Vec<Corners>> = Vec::new();
            for c in &s.truth.cities {
                groups.push(c.markers.iter().filter_map(|m| m.corners).collect());
                for u in c.moloch.iter().chain(&c.outpost) {
                    groups.push(u.token_corners.clone());
                }
            }
            for d in groups.iter().filter_map(|g| closest(g)) {
                if stacked {
                    pairs_stacked += 1;
                    over += usize::from(d < 0.9);
                } else {
                    pairs_apart += 1;
                    assert!(
                        d >= 0.7,
                        "scene {i}: two pieces {d} of a side apart by default"
                    );
                }
            }
        }
    }
    assert!(pairs_apart > 0 && pairs_stacked > 0);
    assert!(
        over * 2 > pairs_stacked,
        "{over} of {pairs_stacked} overlapping"
    );
}
