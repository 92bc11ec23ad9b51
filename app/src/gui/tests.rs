//! Headless tests of the window (egui_kittest through the accessibility tree; no GPU).

use super::app::TableLensApp;
use super::follow::{GameFollow, Moment};
use super::i18n::{component_name, Lang};
use super::report::{verdict, verdict_of};
use super::settings::Settings;
use super::sources::{demo, Frame};
use super::wizard::{Outcome, Step, Wizard};
use super::worker::{FromWorker, Seen, ToWorker};
use eframe::egui;
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use std::sync::mpsc::channel;
use std::sync::Arc;
use tablelens_engine::layout::MissingCard;
use tablelens_engine::{battle, BattleResult, Catalogue, CityId, Corners, Layout, Token};
use tablelens_vision::perceive::assemble::Piece;
use tablelens_vision::perceive::{Analysis, PieceClass, StageTimes};

fn quad(x: f32, y: f32) -> Corners {
    [
        [x, y],
        [x + 100.0, y],
        [x + 100.0, y + 140.0],
        [x, y + 140.0],
    ]
}

/// Where a unit lies in the test frames: the same place in every move (as on a real
/// table), by the order in which the cards of its column first appear in the demo game.
fn slot(game: &[Layout], city: CityId, side: tablelens_engine::Side, card: &str) -> usize {
    let mut cards: Vec<&str> = Vec::new();
    for m in game {
        for c in m.cities.iter().filter(|c| c.id == city) {
            for u in c.side(side) {
                if !cards.contains(&u.card.as_str()) {
                    cards.push(&u.card);
                }
            }
        }
    }
    cards.iter().position(|c| *c == card).unwrap_or(cards.len())
}

/// A frame of move `n` of the demo game as if the vision had seen it perfectly: every city
/// and unit with corners, and a piece for each. `skip` leaves out units with that card.
pub(crate) fn seen(cat: &Catalogue, n: usize, skip: Option<&str>) -> FromWorker {
    use tablelens_engine::Side;
    let game = demo::game(cat).unwrap();
    let mut layout: Layout = game[n].clone();
    let mut pieces = Vec::new();
    for city in &mut layout.cities {
        let x = 60.0 + city.id.index() as f32 * 160.0;
        city.corners = Some(quad(x, 400.0));
        pieces.push(piece(quad(x, 400.0), city.id.as_str()));
        for u in city.moloch.iter_mut() {
            let k = slot(&game, city.id, Side::Moloch, &u.card);
            u.corners = Some(quad(x, 240.0 - 150.0 * k as f32));
        }
        for u in city.outpost.iter_mut() {
            let k = slot(&game, city.id, Side::Outpost, &u.card);
            u.corners = Some(quad(x, 560.0 + 150.0 * k as f32));
        }
        // A piece taken away leaves its place empty; the others stay where they were.
        city.moloch.retain(|u| Some(u.card.as_str()) != skip);
        city.outpost.retain(|u| Some(u.card.as_str()) != skip);
        for u in city.moloch.iter().chain(&city.outpost) {
            pieces.push(piece(u.corners.unwrap(), &u.card));
        }
    }
    FromWorker::Seen(Box::new(Seen {
        frame: Frame {
            image: Arc::new(image::RgbImage::new(900, 1000)),
            truth: None,
            label: "test".into(),
            position: Some((n, 6)),
        },
        analysis: Ok(Analysis {
            layout,
            has_cities: true,
            pieces,
            times: StageTimes::default(),
            steps: Vec::new(),
        }),
        demo: true,
        analysis_ms: 1.0,
    }))
}

fn piece(corners: Corners, id: &str) -> Piece {
    Piece {
        class: PieceClass::Card,
        corners,
        score: 0.9,
        id: Some(id.to_string()),
        similarity: 0.9,
        best: id.to_string(),
        similarities: Vec::new(),
    }
}

fn app(lang: Lang) -> TableLensApp {
    let settings = Settings {
        language: Some(lang),
        ..Settings::default()
    };
    TableLensApp::new(Catalogue::bundled(), settings, None)
}

fn harness(app: TableLensApp) -> Harness<'static, TableLensApp> {
    Harness::builder()
        .with_size(egui::vec2(1500.0, 1000.0))
        .build_ui_state(|ui, app: &mut TableLensApp| app.ui(ui), app)
}

#[test]
fn the_panel_shows_every_total_the_verdict_and_the_unit_labels() {
    let base = Catalogue::bundled();
    let cat = demo::catalogue(&base);
    let mut a = app(Lang::En);
    a.accept(seen(&base, 2, None));
    let r = a.view().unwrap().battle.clone().unwrap().unwrap();
    let truth = battle(&cat, &demo::game(&cat).unwrap()[2]).unwrap();
    assert_eq!(r.moloch.total, truth.moloch.total);
    let mut h = harness(a);
    h.run();
    h.get_by_label("Cities");
    assert!(!h
        .query_all_by_label(&format!("Moloch {}", r.moloch.total))
        .collect::<Vec<_>>()
        .is_empty());
    assert!(!h
        .query_all_by_label(&format!("Outpost {}", r.outpost.total))
        .collect::<Vec<_>>()
        .is_empty());
    h.get_by_label(&verdict(Lang::En, &r));
    h.get_by_label("Hornet");
    h.get_by_label("Bunker");
    h.get_by_label_contains("Consequences");
}

#[test]
fn a_frame_read_again_under_a_far_light_says_so() {
    let base = Catalogue::bundled();
    let note = "this frame was read again, corrected";
    let mut a = app(Lang::En);
    a.accept(seen(&base, 2, None));
    let mut h = harness(a);
    h.run();
    assert!(h.query_by_label_contains(note).is_none());
    let mut relit = seen(&base, 2, None);
    if let FromWorker::Seen(s) = &mut relit {
        if let Ok(analysis) = &mut s.analysis {
            analysis.times.first_pass_ms = 80.0;
        }
    }
    let mut a = app(Lang::En);
    a.accept(relit);
    let mut h = harness(a);
    h.run();
    h.get_by_label_contains(note);
}

#[test]
fn a_frame_whose_cards_are_small_asks_for_the_camera_closer_but_not_in_the_demo() {
    let base = Catalogue::bundled();
    let note = "The cards are small in this frame";
    // The test frames' cards are 100 px wide: not small.
    let shows = |shrink: f32, demo: bool| {
        let mut frame = seen(&base, 2, None);
        if let FromWorker::Seen(s) = &mut frame {
            s.demo = demo;
            if let Ok(analysis) = &mut s.analysis {
                for p in &mut analysis.pieces {
                    p.corners = p.corners.map(|[x, y]| [x * shrink, y * shrink]);
                }
            }
        }
        let mut a = app(Lang::En);
        a.accept(frame);
        let mut h = harness(a);
        h.run();
        h.query_by_label_contains(note).is_some()
    };
    assert!(!shows(1.0, false));
    assert!(shows(0.6, false));
    assert!(!shows(0.6, true));
}

#[test]
fn clicking_a_unit_and_netting_it_changes_the_totals() {
    let cat = Catalogue::bundled();
    let mut a = app(Lang::En);
    a.accept(seen(&cat, 1, None));
    let before = a.view().unwrap().battle.clone().unwrap().unwrap();
    let mut h = harness(a);
    h.run();
    h.get_by_label("Hornet").click();
    h.run();
    h.get_by_label("Correct this piece");
    h.get_by_label("Netted").click();
    h.run();
    h.get_by_label("Apply").click();
    h.run();
    let app = h.state();
    assert_eq!(app.corrections.all().len(), 1);
    assert!(app.editor.is_none());
    let after = app.view().unwrap().battle.clone().unwrap().unwrap();
    assert!(
        after.moloch.total < before.moloch.total,
        "{before:?} {after:?}"
    );
    h.get_by_label_contains("Corrections in force: 1");
}

/// The analysis of a frame seen.
fn analysis_of(frame: &FromWorker) -> &Analysis {
    match frame {
        FromWorker::Seen(s) => s.analysis.as_ref().expect("an analysis"),
        _ => panic!("a frame seen"),
    }
}

/// A frame seen whose layout also lists a place where a card may lie unread.
fn with_missing(mut frame: FromWorker, place: MissingCard) -> FromWorker {
    if let FromWorker::Seen(s) = &mut frame {
        if let Ok(analysis) = &mut s.analysis {
            analysis.layout.missing.push(place);
        }
    }
    frame
}

/// The city of the Hornet a seen frame's layout places, and where it lies.
fn hornet(layout: &Layout) -> (CityId, Option<Corners>) {
    layout
        .cities
        .iter()
        .find_map(|c| {
            let u = c.moloch.iter().find(|u| u.card == "hornet")?;
            Some((c.id, u.corners))
        })
        .expect("the hornet")
}

#[test]
fn a_piece_read_by_a_narrow_margin_is_a_warning_until_the_player_corrects_it() {
    let cat = Catalogue::bundled();
    let mut frame = seen(&cat, 1, None);
    if let FromWorker::Seen(s) = &mut frame {
        if let Ok(analysis) = &mut s.analysis {
            let (city, hornet) = hornet(&analysis.layout);
            analysis
                .layout
                .doubts
                .push(tablelens_engine::layout::Doubt {
                    read: "hornet".into(),
                    could_be: "hunter".into(),
                    city: Some(city),
                    on: None,
                    corners: hornet,
                });
        }
    }
    let warning = "Hornet may be a Hunter (read by a narrow margin)";
    let mut a = app(Lang::En);
    a.accept(frame);
    let mut h = harness(a);
    h.run();
    h.get_by_label_contains(warning);
    // The player looks at it and corrects it: the warning goes.
    h.get_by_label("Hornet").click();
    h.run();
    h.get_by_label("Netted").click();
    h.run();
    h.get_by_label("Apply").click();
    h.run();
    assert!(h.query_by_label_contains(warning).is_none());
}

#[test]
fn a_place_where_a_card_may_lie_unread_is_a_warning() {
    let cat = Catalogue::bundled();
    let frame = seen(&cat, 1, None);
    let (city, hornet) = hornet(&analysis_of(&frame).layout);
    let frame = with_missing(
        frame,
        MissingCard {
            city,
            side: tablelens_engine::Side::Moloch,
            after: None,
            before: Some("hornet".into()),
            corners: hornet.map(|c| c.map(|[x, y]| [x, y - 40.0])),
            likely: Vec::new(),
        },
    );
    let mut a = app(Lang::En);
    a.accept(frame);
    let mut h = harness(a);
    h.run();
    h.get_by_label_contains(
        "a card may lie unread in the Moloch column between the city and Hornet",
    );
}

/// The battle of demo frame 1 as seen in full, and the app given that frame with its Hornet
/// missed: the vision says a card may lie unread where it lies, most like the `likely` ones.
fn hornet_unread(cat: &Catalogue, likely: &[&str]) -> (BattleResult, TableLensApp) {
    let full = {
        let mut a = app(Lang::En);
        a.accept(seen(cat, 1, None));
        a.view().unwrap().battle.clone().unwrap().unwrap()
    };
    let (city, place) = hornet(&analysis_of(&seen(cat, 1, None)).layout);
    let frame = with_missing(
        seen(cat, 1, Some("hornet")),
        MissingCard {
            city,
            side: tablelens_engine::Side::Moloch,
            after: None,
            before: None,
            corners: place,
            likely: likely.iter().map(|s| s.to_string()).collect(),
        },
    );
    let mut a = app(Lang::En);
    a.accept(frame);
    (full, a)
}

#[test]
fn the_player_names_a_card_the_vision_says_may_lie_unread_and_it_counts() {
    let cat = Catalogue::bundled();
    let (full, a) = hornet_unread(&cat, &[]);
    let missed = a.view().unwrap().battle.clone().unwrap().unwrap();
    assert!(missed.moloch.total < full.moloch.total, "{missed:?}");
    let mut h = harness(a);
    h.run();
    h.get_by_label_contains("(Moloch): name the card that may lie unread here")
        .click();
    h.run();
    h.get_by_role_and_label(egui::accesskit::Role::ComboBox, "Identity")
        .click();
    h.run();
    h.get_by_label("Hornet").scroll_to_me();
    h.run();
    h.get_by_label("Hornet").click();
    h.run();
    h.get_by_label("Apply").click();
    h.run();
    let app = h.state();
    assert_eq!(app.corrections.all().len(), 1);
    let named = app.view().unwrap().battle.clone().unwrap().unwrap();
    assert_eq!(named.moloch.total, full.moloch.total, "{named:?}");
    assert!(app.view().unwrap().layout.missing.is_empty());
    assert!(h
        .query_by_label_contains("name the card that may lie unread here")
        .is_none());
}

#[test]
fn the_cards_a_place_left_unread_looks_most_like_are_offered_first() {
    let cat = Catalogue::bundled();
    // Where the Hornet lies looks most like a Brute, then a Hornet.
    let (full, a) = hornet_unread(&cat, &["brute", "hornet"]);
    let mut h = harness(a);
    h.run();
    h.get_by_label_contains("(Moloch): name the card that may lie unread here")
        .click();
    h.run();
    // The vision's best guess, not taken as read.
    h.get_by_label("Vision: ? (Brute)");
    assert_eq!(
        h.state().editor.as_ref().map(|e| e.identity.clone()),
        Some(None)
    );
    h.get_by_role_and_label(egui::accesskit::Role::ComboBox, "Identity")
        .click();
    h.run();
    h.get_by_label("Brute (likely)");
    // Offered once: not again in the list of every component below them.
    assert_eq!(h.query_all_by_label("Brute").count(), 0);
    assert_eq!(h.query_all_by_label("Hornet").count(), 0);
    h.get_by_label("War Council");
    h.get_by_label("Hornet (likely)").click();
    h.run();
    h.get_by_label("Apply").click();
    h.run();
    let app = h.state();
    let named = app.view().unwrap().battle.clone().unwrap().unwrap();
    assert_eq!(named.moloch.total, full.moloch.total, "{named:?}");
    assert!(app.view().unwrap().layout.missing.is_empty());
}

#[test]
fn a_correction_sticks_while_its_piece_is_in_view_then_goes() {
    let cat = Catalogue::bundled();
    let mut a = app(Lang::En);
    a.accept(seen(&cat, 1, None));
    let hornet = a
        .view()
        .unwrap()
        .units
        .iter()
        .find(|u| u.card == "hornet")
        .unwrap()
        .corners;
    a.corrections.set(super::correction::Correction {
        corners: hornet,
        identity: Some("brute".into()),
        ..Default::default()
    });
    a.rebuild_view();
    let has = |a: &TableLensApp, card: &str| a.view().unwrap().units.iter().any(|u| u.card == card);
    assert!(has(&a, "brute") && !has(&a, "hornet"));
    a.accept(seen(&cat, 1, None));
    assert!(has(&a, "brute"), "the correction sticks on the next frame");
    for _ in 0..=super::correction::MISSES_ALLOWED {
        a.accept(seen(&cat, 1, Some("hornet")));
    }
    a.accept(seen(&cat, 1, None));
    assert!(
        has(&a, "hornet"),
        "a piece that left and came back is seen afresh"
    );
}

#[test]
fn the_interface_speaks_polish_and_hungarian() {
    let cat = Catalogue::bundled();
    for (lang, heading) in [(Lang::Pl, "Miasta"), (Lang::Hu, "Városok")] {
        let mut a = app(lang);
        a.accept(seen(&cat, 1, None));
        let mut h = harness(a);
        h.run();
        h.get_by_label(heading);
        let hornet = cat
            .card("hornet")
            .unwrap()
            .names
            .get(lang.code())
            .to_string();
        h.get_by_label(&hornet);
    }
}

struct WizardState {
    wizard: Wizard,
    outcome: Outcome,
    cat: Catalogue,
}

#[test]
fn the_wizard_walks_through_pieces_and_cities_and_saves() {
    let dir = tempfile::tempdir().unwrap();
    let cat = Catalogue::bundled();
    let state = WizardState {
        wizard: Wizard::new(&cat, dir.path().to_path_buf()),
        outcome: Outcome::Open,
        cat,
    };
    let total = state.wizard.items.len();
    let mut h = Harness::builder()
        .with_size(egui::vec2(800.0, 700.0))
        .build_ui_state(
            |ui, s: &mut WizardState| {
                let o = s.wizard.ui(ui, &s.cat, Lang::En, None);
                if o != Outcome::Open {
                    s.outcome = o;
                }
            },
            state,
        );
    h.run();
    h.get_by_label("Start").click();
    h.run();
    assert_eq!(h.state().wizard.step, Step::Piece(0));
    h.get_by_label_contains(&format!("Piece 1 / {total}"));
    h.get_by_label("Use the printed proxy face").click();
    h.run();
    h.get_by_label("Confirm").click();
    h.run();
    assert_eq!(h.state().wizard.step, Step::Piece(1));
    h.get_by_label_contains(&format!("enrolled 1 / {total}"));
    h.get_by_label("Skip").click();
    h.run();
    assert_eq!(h.state().wizard.step, Step::Piece(2));
    h.get_by_label("Confirm the cities").click();
    h.run();
    assert_eq!(h.state().wizard.step, Step::Cities);
    h.get_by_label("Save").click();
    h.run();
    assert_eq!(h.state().outcome, Outcome::Saved);
    assert_eq!(h.state().wizard.step, Step::Done);
    let gallery =
        tablelens_vision::perceive::Gallery::load(&dir.path().join("gallery.json")).unwrap();
    // One picture, of a unit: its whole face, its two covered views and its rough views.
    let whole: Vec<_> = gallery
        .entries
        .iter()
        .filter(|e| e.is_as_enrolled())
        .collect();
    assert_eq!(whole.len(), 1);
    assert!(Catalogue::bundled()
        .card(&whole[0].id)
        .is_some_and(|c| c.kind.is_unit()));
    assert_eq!(
        gallery.entries.len(),
        3 + tablelens_vision::perceive::rough_views::ROUGH_VIEWS
    );
    let toml = std::fs::read_to_string(dir.path().join("catalogue.toml")).unwrap();
    let mut check = Catalogue::bundled();
    check.apply_overrides(&toml).unwrap();
    assert!(check.cities().iter().all(|c| c.moloch_slots.confirmed));
}

#[test]
fn the_wizard_ends_with_the_two_decks_backs() {
    let dir = tempfile::tempdir().unwrap();
    let cat = Catalogue::bundled();
    let mut wizard = Wizard::new(&cat, dir.path().to_path_buf());
    let n = wizard.items.len();
    let back = tablelens_vision::CARD_BACK;
    assert!(wizard.items[n - 2..].iter().all(|i| i.expected == back));
    assert_eq!(
        component_name(&cat, Lang::En, back),
        "Back of a deck's cards"
    );
    for k in [n - 2, n - 1] {
        wizard.use_proxy(&cat, k);
        wizard.items[k].confirmed = true;
    }
    // The proxy deck's two backs, one each.
    assert_ne!(wizard.items[n - 2].crop, wizard.items[n - 1].crop);
    wizard.save(&cat).unwrap();
    let gallery =
        tablelens_vision::perceive::Gallery::load(&dir.path().join("gallery.json")).unwrap();
    let ids: Vec<&str> = gallery.entries.iter().map(|e| e.id.as_str()).collect();
    assert_eq!(ids, [back, back]);
}

/// The layout the vision "saw" in a frame of [`seen`].
fn layout_of(m: &FromWorker) -> Layout {
    match m {
        FromWorker::Seen(s) => s.analysis.as_ref().unwrap().layout.clone(),
        _ => unreachable!(),
    }
}

/// The demo game followed up to move `last` (from 0), each move seen perfectly.
fn followed(last: usize) -> GameFollow {
    let base = Catalogue::bundled();
    let cat = demo::catalogue(&base);
    let mut g = GameFollow::in_memory();
    for n in 0..=last {
        g.hold(&cat, &layout_of(&seen(&base, n, None)), Moment::Step(n + 1))
            .unwrap();
    }
    g
}

fn has_token(a: &TableLensApp, card: &str, t: Token) -> bool {
    a.view()
        .unwrap()
        .units
        .iter()
        .any(|u| u.card == card && u.tokens.contains(&t))
}

#[test]
fn a_missing_token_shows_and_restore_puts_it_back_for_good() {
    let base = Catalogue::bundled();
    let k = demo::TOKEN_KNOCKED_OFF;
    let mut game = followed(k);
    let mut a = app(Lang::En);
    let (tx, commands) = channel();
    let (_results, rx) = channel();
    a.connect(tx, rx);
    a.accept(seen(&base, k, None));
    a.accept(FromWorker::Follow(Box::new(game.state().clone())));
    assert!(!has_token(&a, "hunter", Token::Plus1));
    assert_eq!(game.state().missing.len(), 1, "{:?}", game.state().missing);
    let mut h = harness(a);
    h.run();
    h.get_by_label("Needs your attention");
    h.get_by_label("Hunter (Iron Gate) lost its +1 token");
    h.get_by_label(&format!("not seen since step {}", k + 1));
    h.get_by_label("Restore").click();
    h.run();
    assert!(has_token(h.state(), "hunter", Token::Plus1));
    assert!(h.state().follow.missing.is_empty());
    assert!(h
        .query_by_label("Hunter (Iron Gate) lost its +1 token")
        .is_none());
    // The worker is asked to pin it in the follower, and follows with the correction.
    let sent: Vec<ToWorker> = commands.try_iter().collect();
    let (piece, token) = sent
        .iter()
        .find_map(|c| match c {
            ToWorker::RestoreToken { piece, token } => Some((*piece, *token)),
            _ => None,
        })
        .expect("restore sent");
    assert_eq!(token, Token::Plus1);
    assert!(sent
        .iter()
        .any(|c| matches!(c, ToWorker::Corrections(cs) if cs.all().len() == 1)));
    game.restore(piece, token).unwrap();
    // The camera still does not see it: the card keeps it and the alert stays closed.
    for _ in 0..3 {
        h.state_mut().accept(seen(&base, k, None));
    }
    h.state_mut()
        .accept(FromWorker::Follow(Box::new(game.state().clone())));
    h.run();
    assert!(has_token(h.state(), "hunter", Token::Plus1));
    assert!(h.state().follow.missing.is_empty());
    assert!(h
        .query_by_label("Hunter (Iron Gate) lost its +1 token")
        .is_none());
}

#[test]
fn a_bonus_due_shows_and_can_be_dismissed() {
    let base = Catalogue::bundled();
    let k = demo::TOKEN_KNOCKED_OFF;
    let game = followed(k);
    let mut a = app(Lang::En);
    let (tx, commands) = channel();
    let (_results, rx) = channel();
    a.connect(tx, rx);
    a.accept(seen(&base, k, None));
    a.accept(FromWorker::Follow(Box::new(game.state().clone())));
    let mut h = harness(a);
    h.run();
    h.get_by_label(
        "Steelhound entered undefended Cleveland Harbour without its +1 token: put one on it",
    );
    h.get_by_label("Dismiss").click();
    h.run();
    assert!(h.state().follow.bonus.is_empty());
    assert!(commands
        .try_iter()
        .any(|c| matches!(c, ToWorker::DismissBonus(_))));
}

#[test]
fn the_battle_log_lists_every_resolved_battle() {
    let base = Catalogue::bundled();
    let cat = demo::catalogue(&base);
    let game = followed(4);
    let battles = game.state().battles.clone();
    assert_eq!(battles.len(), 2);
    let mut a = app(Lang::En);
    let mut h = harness({
        a.accept(seen(&base, 4, None));
        a.accept(FromWorker::Follow(Box::new(game.state().clone())));
        a
    });
    h.run();
    h.get_by_label("Battle log");
    for (i, b) in battles.iter().enumerate() {
        assert_eq!(b.city, CityId::ZiggyOne);
        let line = format!(
            "{}. {} — {}",
            i + 1,
            cat.city(b.city).names.en,
            verdict_of(Lang::En, b.winner, b.reason, b.moloch, b.outpost)
        );
        h.get_by_label(&line);
        h.get_by_label(&format!("step {}", i + 4));
        assert!(!b.consequences.is_empty());
        assert!(
            h.query_all_by_label(&format!("• {}", b.consequences[0]))
                .next()
                .is_some(),
            "{}",
            b.consequences[0]
        );
    }
    // In Polish too.
    let mut a = app(Lang::Pl);
    a.accept(seen(&base, 4, None));
    a.accept(FromWorker::Follow(Box::new(game.state().clone())));
    let mut h = harness(a);
    h.run();
    h.get_by_label("Dziennik bitew");
    h.get_by_label("krok 4");
}
