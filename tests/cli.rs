//! End-to-end tests of the `tablelens` command line: the commands of CONTRACT.md, their
//! JSON, their readable output and their exit status on bad input.

use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn tables() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/tables")
}

/// Runs tablelens with an empty user data dir (no stray catalogue corrections).
fn tablelens(args: &[&str], stdin: Option<&str>) -> Output {
    tablelens_with(args, stdin, &[])
}

/// [`tablelens`] with more environment variables set.
fn tablelens_with(args: &[&str], stdin: Option<&str>, vars: &[(&str, &str)]) -> Output {
    let data = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tablelens"));
    cmd.args(args)
        .envs(vars.iter().copied())
        .env("TABLELENS_DATA_DIR", data.path())
        // No test opens a window: without a display `tablelens` alone falls back to text.
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let mut pipe = child.stdin.take().unwrap();
    pipe.write_all(stdin.unwrap_or("").as_bytes()).unwrap();
    drop(pipe);
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn json(o: &Output) -> Value {
    serde_json::from_str(&stdout(o)).unwrap_or_else(|e| panic!("{e}: {}", stdout(o)))
}

fn example(name: &str) -> String {
    tables().join(name).to_string_lossy().into_owned()
}

#[test]
fn rulebook_new_york_example_moloch_wins_5_to_4_with_consequences_in_order() {
    let effects = example("jersey_effects.toml");
    let table = example("new_york_example.json");
    let o = tablelens(&["--catalogue", &effects, "battle", &table, "--json"], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let r = json(&o);
    assert_eq!(r["city"], "jersey_crust");
    assert_eq!(r["moloch"]["total"], 5);
    assert_eq!(r["outpost"]["total"], 4);
    assert_eq!(r["winner"], "moloch");
    assert_eq!(r["reason"], "strength");
    let c: Vec<String> = r["consequences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    assert!(c[0].starts_with("Defender"), "{c:?}");
    assert!(
        c[1].starts_with("Jersey Crust victory: Moloch destroys another district of Jersey Crust"),
        "{c:?}"
    );
    assert!(c[2].starts_with("District 1 (to_new_york): Moloch may move one unit from here to New York and it gets a +1 token"), "{c:?}");
    assert!(c[3].contains("district 1 is marked destroyed"), "{c:?}");
    assert!(c[4].contains("Jersey Crust is destroyed"), "{c:?}");
    assert!(c[5].starts_with("Moloch's move: Moloch must move one robot (defender, hunter) from Jersey Crust to New York"), "{c:?}");
    assert!(c[6].contains("flipped"), "{c:?}");
    assert_eq!(c.len(), 7);
    assert_eq!(r["violations"].as_array().unwrap().len(), 0);
}

#[test]
fn rulebook_new_york_example_outpost_wins_without_the_hunter() {
    let effects = example("jersey_effects.toml");
    let text = std::fs::read_to_string(tables().join("new_york_example.json")).unwrap();
    let text = text.replace(",\n        { \"card\": \"hunter\", \"strength\": 3 }", "");
    let o = tablelens(
        &["--catalogue", &effects, "battle", "-", "--json"],
        Some(&text),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let r = json(&o);
    assert_eq!(
        (
            r["moloch"]["total"].as_i64(),
            r["outpost"]["total"].as_i64()
        ),
        (Some(2), Some(4))
    );
    assert_eq!(r["winner"], "outpost");
    let c = r["consequences"].as_array().unwrap();
    assert!(c[0].as_str().unwrap().starts_with("Cpt. Johnson"));
    assert!(c[1]
        .as_str()
        .unwrap()
        .starts_with("Jersey Crust victory: discard Moloch's top two deck cards"));
    assert!(c[2]
        .as_str()
        .unwrap()
        .starts_with("District 1 (to_new_york): Outpost may move one unit"));
    assert!(c[3].as_str().unwrap().contains("marked destroyed"));
    // One district of two is gone: the city stands and the next battle is fought there.
    assert_eq!(c.len(), 4, "{c:?}");
}

#[test]
fn battle_parts_explain_every_point_in_the_contract_shape() {
    let layout = r#"{"cities":[{"id":"ziggy_one","moloch":[{"card":"hornet","tokens":["+1"],"module":{"card":"combat_module"}}],"outpost":[{"card":"commando","strength":2,"tokens":["+1","+1"]}]}]}"#;
    let o = tablelens(&["battle", "-", "--json"], Some(layout));
    let r = json(&o);
    let hornet = &r["moloch"]["units"][0];
    assert_eq!(hornet["card"], "hornet");
    assert_eq!(hornet["total"], 5);
    assert_eq!(
        hornet["parts"],
        serde_json::json!([["printed", 3], ["token +1", 1], ["combat_module", 1]])
    );
    assert_eq!(r["outpost"]["total"], 4);
    assert_eq!(r["winner"], "moloch");
    for key in ["consequences", "violations", "warnings"] {
        assert!(r[key].is_array(), "{key}");
    }
}

#[test]
fn readable_battle_output_has_units_totals_winner_and_sections() {
    let effects = example("jersey_effects.toml");
    let table = example("new_york_example.json");
    let o = tablelens(&["--catalogue", &effects, "battle", &table], None);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    for needle in [
        "Battle in Jersey Crust",
        "Moloch 5",
        "Outpost 4",
        "defender",
        "2 (printed)",
        "Result: Moloch wins 5:4",
        "Consequences, in order:",
        "  1. Defender",
        "Violations: none",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in\n{text}");
    }
}

#[test]
fn game_winner_with_deck_and_hand_counts() {
    let layout = r#"{"cities":[{"id":"ziggy_one","destroyed":true}]}"#;
    let o = tablelens(
        &[
            "battle",
            "-",
            "--json",
            "--moloch-deck",
            "0",
            "--moloch-hand",
            "0",
        ],
        Some(layout),
    );
    assert_eq!(
        json(&o)["game"],
        serde_json::json!({"state": "over", "winner": "outpost"})
    );
    let o = tablelens(
        &[
            "battle",
            "-",
            "--json",
            "--moloch-deck",
            "3",
            "--moloch-hand",
            "0",
        ],
        Some(layout),
    );
    assert_eq!(json(&o)["game"], serde_json::json!({"state": "ongoing"}));
}

#[test]
fn check_lists_violations_and_still_exits_0() {
    let layout = r#"{"cities":[{"id":"ziggy_one","moloch":[{"card":"hunter"},{"card":"hunter"},{"card":"brute"},{"card":"clown"}],"outpost":[{"card":"bunker","tokens":["+1"]}]}]}"#;
    let o = tablelens(&["check", "-", "--json"], Some(layout));
    assert_eq!(o.status.code(), Some(0));
    let r = json(&o);
    assert_eq!(r["violations"].as_array().unwrap().len(), 2, "{r}");
    assert!(r["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|w| w.as_str().unwrap().contains("unknown")));
    let o = tablelens(&["check", "-"], Some(layout));
    assert!(stdout(&o).contains("Violations (2):"));
}

#[test]
fn a_layout_listing_a_card_missing_from_a_column_warns_of_it_in_battle_and_check() {
    // A layout as `analyze --json` writes it, with a place where a card may lie unread.
    let layout = r#"{"cities":[{"id":"iron_gate","outpost":[{"card":"trooper"},{"card":"scout"}]}],
        "missing":[{"city":"iron_gate","side":"outpost","after":"trooper","before":"scout",
                    "corners":[[0,0],[60,0],[60,90],[0,90]]}]}"#;
    let warning =
        "Iron Gate: a card may lie unread in the Outpost column between Trooper and Scout";
    for command in ["battle", "check"] {
        let o = tablelens(&[command, "-", "--json"], Some(layout));
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let r = json(&o);
        let warned = r["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|w| w.as_str().is_some_and(|w| w.contains(warning)));
        assert_eq!(warned.count(), 1, "{command}: {r}");
    }
    // A malformed place is refused with the field named, as any bad layout is.
    let bad = r#"{"cities":[],"missing":[{"city":"atlantis","side":"outpost"}]}"#;
    let o = tablelens(&["check", "-"], Some(bad));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("missing"), "{}", stderr(&o));
}

#[test]
fn cards_json_lists_57_cards_in_the_contract_shape() {
    let o = tablelens(&["cards", "--json"], None);
    assert_eq!(o.status.code(), Some(0));
    let cards = json(&o);
    let cards = cards.as_array().unwrap();
    assert_eq!(cards.len(), 57);
    let copies: i64 = cards.iter().map(|c| c["count"].as_i64().unwrap()).sum();
    assert_eq!(copies, 70);
    let spiders = cards.iter().find(|c| c["id"] == "spiders").unwrap();
    assert_eq!(spiders["strength"], 1);
    assert_eq!(spiders["confirmed"], true);
    assert_eq!(spiders["names"]["pl"], "Pająki");
    let hacker = cards.iter().find(|c| c["id"] == "hacker").unwrap();
    assert_eq!(hacker["strength"], Value::Null);
    assert_eq!(hacker["confirmed"], false);
    assert_eq!(hacker["side"], "outpost");
    assert_eq!(hacker["kind"], "soldier");
}

#[test]
fn cards_readable_output_marks_unconfirmed_values_and_speaks_polish() {
    let o = tablelens(&["cards", "--lang", "pl"], None);
    let text = stdout(&o);
    assert!(text.contains("Pająki"));
    assert!(text.contains("iron_gate"));
    assert!(text.contains("? = not confirmed"));
}

#[test]
fn a_catalogue_file_confirms_values_and_changes_the_battle() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("catalogue.toml");
    std::fs::write(&file, "[cards.scout]\nstrength = 2\n").unwrap();
    let layout = r#"{"cities":[{"id":"ziggy_one","outpost":[{"card":"scout"}]}]}"#;
    let before = json(&tablelens(&["battle", "-", "--json"], Some(layout)));
    assert_eq!(before["outpost"]["total"], 0);
    assert!(before["warnings"].as_array().unwrap().iter().any(|w| w
        .as_str()
        .unwrap()
        .starts_with("scout: printed strength is unknown")));
    let path = file.to_string_lossy();
    let after = json(&tablelens(
        &["--catalogue", &path, "battle", "-", "--json"],
        Some(layout),
    ));
    assert_eq!(after["outpost"]["total"], 2);
    assert_eq!(after["winner"], "outpost");
    assert!(!after["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|w| w.as_str().unwrap().starts_with("scout")));
    let cards = json(&tablelens(&["--catalogue", &path, "cards", "--json"], None));
    let scout = cards
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "scout")
        .unwrap()
        .clone();
    assert_eq!(
        (scout["strength"].as_i64(), scout["confirmed"].as_bool()),
        (Some(2), Some(true))
    );
}

#[test]
fn bad_input_exits_2_with_a_message_naming_the_problem() {
    let cases: [(&[&str], Option<&str>, &str); 7] = [
        (
            &["battle", "/no/such/file.json"],
            None,
            "cannot read /no/such/file.json",
        ),
        (&["battle", "-"], Some("{\"cities\": ["), "EOF"),
        (
            &["battle", "-"],
            Some(r#"{"cities":[{"id":"ziggy_one","moloch":[{"card":"hornett"}]}]}"#),
            "cities[0].moloch[0].card: unknown card id `hornett`",
        ),
        (
            &["battle", "-"],
            Some(
                r#"{"cities":[{"id":"ziggy_one","moloch":[{"card":"hornet","module":{"card":"combat_module","module":{"card":"net_module"}}}]}]}"#,
            ),
            "cities[0].moloch[0].module.module",
        ),
        (
            &["check", "-"],
            Some(r#"{"cities":[{"id":"ziggy_one","outpost":[{"card":"hunter"}]}]}"#),
            "cities[0].outpost[0].card",
        ),
        (
            &["--catalogue", "/no/such/catalogue.toml", "cards"],
            None,
            "cannot read catalogue file",
        ),
        (&["battle"], None, "LAYOUT"),
    ];
    for (args, stdin, needle) in cases {
        let o = tablelens(args, stdin);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"));
    }
}

#[test]
fn all_cities_destroyed_is_refused_without_a_panic() {
    let layout = r#"{"cities":[{"id":"ziggy_one","destroyed":true},{"id":"iron_gate","destroyed":true},{"id":"cleveland_harbour","destroyed":true},{"id":"jersey_crust","destroyed":true},{"id":"new_york","destroyed":true}]}"#;
    let o = tablelens(&["battle", "-"], Some(layout));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("every city is destroyed"));
}

#[test]
fn a_display_that_cannot_be_reached_falls_back_to_the_example_table() {
    let data = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_tablelens"))
        .env("TABLELENS_DATA_DIR", data.path())
        .env("DISPLAY", ":4242")
        .env_remove("WAYLAND_DISPLAY")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("Battle in Iron Gate"));
    assert!(
        stderr(&o).contains("cannot open the window"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn no_command_shows_the_built_in_example_table() {
    // With no display the window cannot open: it says so and judges the example table.
    let o = tablelens(&[], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("Battle in Iron Gate"));
    assert!(stderr(&o).contains("no display"), "{}", stderr(&o));
}

#[test]
fn render_writes_faces_and_identical_scenes_for_a_seed() {
    let dir = tempfile::tempdir().unwrap();
    let faces = dir.path().join("faces");
    let o = tablelens(&["render", "--faces", faces.to_str().unwrap()], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let pngs = std::fs::read_dir(&faces)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "png")
        })
        .count();
    assert_eq!(pngs, 76, "one face per component id");
    assert!(faces.join("iron_gate_destroyed.png").is_file());
    // And the deck's two backs, in a folder of their own.
    for side in ["moloch", "outpost"] {
        assert!(faces
            .join("card_back")
            .join(format!("{side}.png"))
            .is_file());
    }
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    for out in [&a, &b] {
        let o = tablelens(
            &[
                "render",
                "--out",
                out.to_str().unwrap(),
                "--count",
                "2",
                "--seed",
                "9",
            ],
            None,
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    for name in ["0000.png", "0000.json", "0001.png", "0001.json"] {
        assert_eq!(
            std::fs::read(a.join(name)).unwrap(),
            std::fs::read(b.join(name)).unwrap(),
            "{name}"
        );
    }
    // The truth is a layout that the battle command reads.
    let o = tablelens(
        &["check", a.join("0000.json").to_str().unwrap(), "--json"],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json(&o)["violations"].as_array().unwrap().len(), 0);
}

#[test]
fn render_draws_another_deck_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let p = |n: &str| dir.path().join(n).to_string_lossy().into_owned();
    for (faces, deck) in [("f0", "0"), ("f2", "2")] {
        let o = tablelens(&["render", "--faces", &p(faces), "--deck", deck], None);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    // Deck 0 is the default; deck 2 prints every piece otherwise.
    let o = tablelens(&["render", "--faces", &p("default")], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let read = |d: &str| std::fs::read(dir.path().join(d).join("hornet.png")).unwrap();
    assert!(read("f0") == read("default"));
    assert!(read("f0") != read("f2"));
    for (out, deck) in [("s0", "0"), ("s2", "2")] {
        let o = tablelens(
            &["render", "--out", &p(out), "--count", "1", "--deck", deck],
            None,
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    let read = |d: &str, f: &str| std::fs::read(dir.path().join(d).join(f)).unwrap();
    assert!(read("s0", "0000.png") != read("s2", "0000.png"));
    assert!(dir.path().join("s2").join("0000.json").is_file());
    for bad in ["two", "-1", "18446744073709551615"] {
        let o = tablelens(&["render", "--faces", &p("bad"), "--deck", bad], None);
        assert_eq!(o.status.code(), Some(2), "{bad}: {}", stderr(&o));
    }
}

#[test]
fn render_draws_scenes_at_the_size_asked() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("small");
    let o = tablelens(
        &[
            "render",
            "--out",
            out.to_str().unwrap(),
            "--count",
            "1",
            "--size",
            "640x480",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let img = image::open(out.join("0000.png")).unwrap();
    assert_eq!((img.width(), img.height()), (640, 480));
    // Every true corner lies in the smaller frame.
    let truth: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("0000.json")).unwrap()).unwrap();
    let corners = truth["cities"][0]["corners"].as_array().unwrap();
    for p in corners {
        let (x, y) = (p[0].as_f64().unwrap(), p[1].as_f64().unwrap());
        assert!(
            (0.0..=640.0).contains(&x) && (0.0..=480.0).contains(&y),
            "{p}"
        );
    }
    for bad in ["640", "640x", "0x480", "640x5000", "wide"] {
        let o = tablelens(
            &["render", "--out", out.to_str().unwrap(), "--size", bad],
            None,
        );
        assert_eq!(o.status.code(), Some(2), "{bad}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("size") || stderr(&o).contains("range"),
            "{bad}: {}",
            stderr(&o)
        );
    }
    // A size means nothing for faces.
    let o = tablelens(
        &[
            "render",
            "--faces",
            dir.path().join("f").to_str().unwrap(),
            "--size",
            "640x480",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn enroll_analyze_and_eval_run_the_vision_end_to_end() {
    let dir = tempfile::tempdir().unwrap();
    let p = |n: &str| dir.path().join(n).to_string_lossy().into_owned();
    assert_eq!(
        tablelens(&["render", "--faces", &p("faces")], None)
            .status
            .code(),
        Some(0)
    );
    let o = tablelens(
        &[
            "enroll",
            "--faces",
            &p("faces"),
            "--out",
            &p("gallery.json"),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("enrolled 76 pictures of 76 components and 2 card backs"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        tablelens(
            &[
                "render",
                "--out",
                &p("scenes"),
                "--count",
                "3",
                "--seed",
                "4"
            ],
            None
        )
        .status
        .code(),
        Some(0)
    );
    let (first, second, gallery) = (
        p("scenes/0000.png"),
        p("scenes/0001.png"),
        p("gallery.json"),
    );
    let analyze = ["analyze", &first, &second, "--gallery", &gallery, "--json"];
    let o = tablelens(&analyze, None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let lines: Vec<Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[0]["image"].as_str().unwrap().ends_with("0000.png"));
    assert!(lines[0]["layout"]["cities"].is_array());
    assert!(lines[0].get("battle").is_some());
    // A photo is read the same to the last digit on one core or on several.
    let on_cores = |n: &str| {
        let o = tablelens_with(&analyze, None, &[("TABLELENS_THREADS", n)]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        stdout(&o)
    };
    let one = on_cores("1");
    assert_eq!(one, on_cores("2"), "one core and two read the photos apart");
    assert_eq!(
        one,
        on_cores("4"),
        "one core and four read the photos apart"
    );
    // A photo whose cards are under 100 px wide asks for the camera closer; the same
    // table nearer does not.
    let near = image::open(&first).unwrap().to_rgb8();
    let (w, h) = near.dimensions();
    let far = image::imageops::resize(
        &near,
        w * 45 / 100,
        h * 45 / 100,
        image::imageops::FilterType::Triangle,
    );
    far.save(p("far.png")).unwrap();
    let closer = "Bring the camera closer";
    for (photo, asks) in [(first.clone(), false), (p("far.png"), true)] {
        let o = tablelens(&["analyze", &photo, "--gallery", &gallery], None);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(stdout(&o).contains(closer), asks, "{photo}: {}", stdout(&o));
    }
    // Each piece read by a narrow margin is listed in the layout's doubts, with what it may
    // be instead, and the battle warns of each; the small cards of the far photo give some.
    let mut doubts = 0;
    for photo in [first.clone(), second.clone(), p("far.png")] {
        let o = tablelens(&["analyze", &photo, "--gallery", &gallery, "--json"], None);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let r = json(&o);
        let listed = r["layout"]["doubts"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        for d in &listed {
            for key in ["read", "could_be", "city"] {
                assert!(d[key].is_string(), "{photo}: {d}");
            }
            assert_ne!(d["read"], d["could_be"], "{d}");
        }
        let warned = r["battle"]["warnings"].as_array().map_or(0, |w| {
            w.iter()
                .filter(|w| w.as_str().is_some_and(|w| w.contains("narrow margin")))
                .count()
        });
        assert_eq!(warned, listed.len(), "{photo}: {r}");
        let text = stdout(&tablelens(
            &["analyze", &photo, "--gallery", &gallery],
            None,
        ));
        assert_eq!(
            text.contains("read by a narrow margin over another reading"),
            !listed.is_empty(),
            "{text}"
        );
        doubts += listed.len();
    }
    assert!(doubts > 0, "no piece of the three photos was a close call");
    // A photo taken in a dim room is read again with the light taken out, and says so.
    let mut dim = image::open(p("scenes/0002.png")).unwrap().to_rgb8();
    dim.pixels_mut()
        .for_each(|px| px.0 = px.0.map(|v| (f32::from(v) * 0.35) as u8));
    dim.save(p("dim.png")).unwrap();
    let o = tablelens(
        &["analyze", &p("dim.png"), "--gallery", &p("gallery.json")],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("the photo was read again with it taken out"),
        "{}",
        stdout(&o)
    );
    let o = tablelens(
        &[
            "eval",
            "--scenes",
            &p("scenes"),
            "--gallery",
            &p("gallery.json"),
            "--json",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let r = json(&o);
    assert_eq!(r["scenes"], 3);
    for key in [
        "identity_top1",
        "token_accuracy",
        "unit_placement",
        "layout_exact",
        "median_total_ms",
    ] {
        assert!(r[key].is_number(), "{key}");
    }
    assert!(r["detection"]["card"]["recall"].is_number());
    // Every scene not read exactly is listed by its picture's name, with a fault or more.
    let not_exact = r["not_exact"].as_array().expect("not_exact");
    let exact = r["layout_exact"].as_f64().unwrap();
    assert_eq!(not_exact.len() as f64, (3.0 * (1.0 - exact)).round());
    for s in not_exact {
        let name = s["scene"].as_str().unwrap_or_default();
        assert!(["0000.png", "0001.png", "0002.png"].contains(&name), "{s}");
        assert!(!s["faults"].as_array().unwrap().is_empty(), "{s}");
    }
    // Layouts exact by how the scenes were seen: the card and perspective bands each hold
    // every scene (rendered scenes have corners), the exact ones among them.
    let by = r["by_condition"].as_array().expect("by_condition");
    let names: Vec<&str> = by.iter().filter_map(|c| c["condition"].as_str()).collect();
    assert_eq!(names, ["card_width_px", "perspective", "token_width_px"]);
    let exact_scenes = (3.0 * exact).round() as u64;
    for c in &by[..2] {
        let bands = c["bands"].as_array().unwrap();
        let count = |k: &str| bands.iter().filter_map(|b| b[k].as_u64()).sum::<u64>();
        assert_eq!((count("scenes"), count("exact")), (3, exact_scenes), "{c}");
    }
    let t = &r["median_ms"];
    for key in [
        "detect_ms",
        "refine_ms",
        "identify_ms",
        "first_look_ms",
        "second_look_ms",
        "on_cards_ms",
        "assemble_ms",
        "first_pass_ms",
    ] {
        assert!(t[key].as_f64().is_some_and(|ms| ms >= 0.0), "{key}");
    }
    // Of the layouts right and wrong, those that ask the player to look again.
    let c = &r["close_calls"];
    let n = |k: &str| c[k].as_u64().expect(k);
    assert_eq!(n("not_exact"), not_exact.len() as u64, "{c}");
    assert_eq!(n("exact"), exact_scenes, "{c}");
    assert!(n("not_exact_flagged") <= n("not_exact") && n("exact_flagged") <= n("exact"));
    assert!(n("named_wrong_doubted") <= n("named_wrong"), "{c}");
    assert!(
        n("named_right_doubted") <= n("named_right") && n("named_right") > 0,
        "{c}"
    );
    assert!(
        r["relit"].as_u64().is_some_and(|n| n <= 3),
        "{}",
        r["relit"]
    );
    let parts = ["first_look_ms", "second_look_ms", "on_cards_ms"]
        .map(|k| t[k].as_f64().unwrap_or(f64::MAX))
        .iter()
        .sum::<f64>();
    assert!(parts > 0.0, "the parts of identify were timed");
}

#[test]
fn vision_commands_refuse_bad_input_with_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let p = |n: &str| dir.path().join(n).to_string_lossy().into_owned();
    std::fs::create_dir(dir.path().join("faces")).unwrap();
    std::fs::write(dir.path().join("faces/not_a_card.png"), b"x").unwrap();
    let o = tablelens(
        &["enroll", "--faces", &p("faces"), "--out", &p("g.json")],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not_a_card"), "{}", stderr(&o));
    std::fs::write(dir.path().join("bad.json"), "{}").unwrap();
    let o = tablelens(
        &["analyze", &p("nothing.png"), "--gallery", &p("bad.json")],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("bad.json"), "{}", stderr(&o));
    let o = tablelens(
        &[
            "eval",
            "--scenes",
            &p("nowhere"),
            "--gallery",
            &p("missing.json"),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(!stderr(&o).contains("panicked"));
}

/// Runs tablelens with its standard output a pipe whose reader is already gone, as when
/// its output goes to `head` that has read enough.
fn tablelens_into_closed_pipe(args: &[&str]) -> Output {
    let data = tempfile::tempdir().unwrap();
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    Command::new(env!("CARGO_BIN_EXE_tablelens"))
        .args(args)
        .env("TABLELENS_DATA_DIR", data.path())
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .unwrap()
}

#[test]
fn output_into_a_closed_pipe_ends_quietly_without_a_panic() {
    let table = example("new_york_example.json");
    for args in [
        vec!["cards"],
        vec!["cards", "--json"],
        vec!["battle", table.as_str()],
        vec!["battle", table.as_str(), "--json"],
        vec!["check", table.as_str()],
        vec![],
    ] {
        let o = tablelens_into_closed_pipe(&args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{args:?}: {}", stderr(&o));
        // Nothing is said about the closed pipe (the example table, shown for want of a
        // display, says why it is shown).
        if !args.is_empty() {
            assert_eq!(stderr(&o), "", "{args:?}");
        }
    }
}
