//! Tests of the follower on layouts (no images): hysteresis, hands, token memory,
//! arrivals, bonuses, battles, resuming.

use super::*;
use tablelens_engine::{battle, CityLayout, Unit};

fn cat() -> Catalogue {
    Catalogue::bundled()
}

fn unit(card: &str, tokens: &[Token]) -> Unit {
    let mut u = Unit::new(card);
    u.tokens = tokens.to_vec();
    u
}

/// Ziggy One active with two units a side, Iron Gate empty.
fn base() -> Layout {
    let mut l = Layout {
        cities: CityId::ALL.into_iter().map(CityLayout::empty).collect(),
        ..Layout::default()
    };
    l.cities[0].battle_marker = true;
    l.cities[0].moloch = vec![unit("hornet", &[Token::Plus1]), unit("hunter", &[])];
    l.cities[0].outpost = vec![unit("commando", &[]), unit("trooper", &[])];
    l
}

fn run(f: &mut Follower, l: &Layout, n: usize) -> Vec<Event> {
    let c = cat();
    (0..n).flat_map(|_| f.observe(&c, l)).collect()
}

fn kinds(ev: &[Event]) -> Vec<&'static str> {
    ev.iter().map(Event::kind).collect()
}

#[test]
fn a_stable_table_is_confirmed_once() {
    let mut f = Follower::new(TrackConfig::default());
    let ev = run(&mut f, &base(), 10);
    assert_eq!(kinds(&ev), ["confirmed"]);
    assert_eq!(
        ev[0].frame(),
        3,
        "3 sightings make a piece present, 2 equal frames confirm"
    );
    let Event::Confirmed { layout, .. } = &ev[0] else {
        unreachable!()
    };
    assert_eq!(canonical(layout), canonical(&base()));
    // Pieces on the table from the start share arrival 0.
    assert!(layout.cities[0].moloch.iter().all(|u| u.arrived == Some(0)));
}

#[test]
fn one_bad_frame_changes_nothing() {
    let mut f = Follower::new(TrackConfig::default());
    run(&mut f, &base(), 6);
    let mut bad = base();
    bad.cities[0].moloch[0].card = "ripper".into();
    bad.cities[0].moloch[0].tokens.clear();
    bad.cities[0].districts_destroyed = 1;
    let mut ev = run(&mut f, &bad, 1);
    ev.extend(run(&mut f, &base(), 6));
    assert!(ev.is_empty(), "{ev:?}");
}

#[test]
fn a_hand_over_the_table_is_ignored() {
    let mut f = Follower::new(TrackConfig::default());
    run(&mut f, &base(), 6);
    let mut hand = base();
    hand.cities.remove(0); // Ziggy One and its units vanish at once
    let ev = run(&mut f, &hand, 3);
    assert_eq!(kinds(&ev), ["ignored", "ignored", "ignored"]);
    assert!(run(&mut f, &base(), 5).is_empty());
}

#[test]
fn a_hand_that_stays_long_is_taken_as_a_real_change() {
    let mut f = Follower::new(TrackConfig::default());
    run(&mut f, &base(), 6);
    let mut gone = base();
    gone.cities[0].moloch.clear();
    gone.cities[0].outpost.clear();
    let ev = run(&mut f, &gone, 20);
    assert!(kinds(&ev).contains(&"ignored"), "{ev:?}");
    assert!(kinds(&ev).contains(&"confirmed"), "{ev:?}");
}

#[test]
fn a_token_taken_off_a_card_is_reported_with_since() {
    let mut f = Follower::new(TrackConfig::default());
    run(&mut f, &base(), 6);
    let mut off = base();
    off.cities[0].moloch[0].tokens.clear();
    let ev = run(&mut f, &off, 6);
    assert_eq!(kinds(&ev), ["confirmed", "token_missing"], "{ev:?}");
    let Event::TokenMissing {
        card,
        city,
        token,
        since,
        piece,
        ..
    } = &ev[1]
    else {
        unreachable!()
    };
    assert_eq!(
        (card.as_str(), *city, *token),
        ("hornet", CityId::ZiggyOne, Token::Plus1)
    );
    assert_eq!(*since, 6, "the first frame without it");
    // The user restores it: it counts again, and stays though the camera does not see it.
    let restored = f.restore_token(*piece, Token::Plus1).unwrap();
    assert_eq!(kinds(&restored), ["token_restored", "confirmed"]);
    assert!(run(&mut f, &off, 5).is_empty());
    let conf = f.confirmed().unwrap();
    assert_eq!(conf.layout.cities[0].moloch[0].tokens, [Token::Plus1]);
}

#[test]
fn a_restored_token_counts_in_the_battle_judged_on_that_state() {
    let mut f = Follower::new(TrackConfig::default());
    let mut l = base();
    run(&mut f, &l, 6);
    // A card is played (the battle to come is judged on the state after it), and the
    // Hornet's +1 is knocked off at the same time.
    l.cities[0].outpost.push(unit("scout", &[]));
    l.cities[0].moloch[0].tokens.clear();
    let ev = run(&mut f, &l, 6);
    let piece = ev
        .iter()
        .find_map(|e| match e {
            Event::TokenMissing { piece, .. } => Some(*piece),
            _ => None,
        })
        .expect("token_missing");
    let before = battle(&cat(), &f.confirmed().unwrap().layout).unwrap();
    f.restore_token(piece, Token::Plus1).unwrap();
    l.cities[0].districts_destroyed = 1;
    let ev = run(&mut f, &l, 6);
    let logged = ev
        .iter()
        .find_map(|e| match e {
            Event::Battle { result, .. } => Some(result["moloch"]["total"].as_i64().unwrap()),
            _ => None,
        })
        .expect("battle");
    assert_eq!(logged, i64::from(before.moloch.total) + 1, "{ev:?}");
}

/// Units laid in a row beside the first city, by place in the column.
fn in_a_row(cards: &[(&str, &[Token])]) -> Layout {
    let mut l = base();
    l.cities[0].outpost = cards
        .iter()
        .enumerate()
        .map(|(k, (card, tokens))| {
            let mut u = unit(card, tokens);
            // Cards 60x85 with 75 between centres: one place is 0.72 of a card's diagonal,
            // as in the renderer's columns.
            let x = 100.0 + 75.0 * k as f32;
            u.corners = Some([[x, 0.0], [x + 60.0, 0.0], [x + 60.0, 85.0], [x, 85.0]]);
            u
        })
        .collect();
    l
}

#[test]
fn cards_sliding_along_their_column_keep_who_they_are() {
    let mut f = Follower::new(TrackConfig::default());
    let before = in_a_row(&[
        ("trooper", &[]),
        ("commando", &[Token::Plus1]),
        ("bunker", &[]),
    ]);
    run(&mut f, &before, 6);
    // The Trooper leaves; the others slide one place towards the city.
    let after = in_a_row(&[("commando", &[Token::Plus1]), ("bunker", &[])]);
    let ev = run(&mut f, &after, 8);
    assert_eq!(kinds(&ev), ["confirmed"], "{ev:?}");
    let conf = f.confirmed().unwrap();
    assert_eq!(canonical(&conf.layout), canonical(&after));
}

#[test]
fn arrivals_are_numbered_per_city_and_feed_the_emp_rule() {
    let mut f = Follower::new(TrackConfig::default());
    let mut l = base();
    l.cities[0].moloch.push(unit("dreadnought", &[]));
    run(&mut f, &l, 6);
    l.cities[0].outpost.push(unit("emp_launcher", &[]));
    run(&mut f, &l, 6);
    let conf = f.confirmed().unwrap();
    let emp = conf.layout.cities[0]
        .outpost
        .iter()
        .find(|u| u.card == "emp_launcher");
    assert_eq!(emp.unwrap().arrived, Some(1));
    let dread = conf.layout.cities[0]
        .moloch
        .iter()
        .find(|u| u.card == "dreadnought");
    assert_eq!(dread.unwrap().arrived, Some(0));
    l.cities[0].moloch.push(unit("steelhound", &[]));
    run(&mut f, &l, 6);
    let conf = f.confirmed().unwrap();
    let sh = conf.layout.cities[0]
        .moloch
        .iter()
        .find(|u| u.card == "steelhound");
    assert_eq!(sh.unwrap().arrived, Some(2));
}

#[test]
fn bonus_due_only_for_an_undefended_future_city_without_its_plus_one() {
    let c = CityId::IronGate.index();
    // A robot enters empty Iron Gate (future) without +1: due.
    let mut f = Follower::new(TrackConfig::default());
    run(&mut f, &base(), 6);
    let mut l = base();
    l.cities[c].moloch.push(unit("steelhound", &[]));
    let ev = run(&mut f, &l, 6);
    assert_eq!(kinds(&ev), ["confirmed", "bonus_due"], "{ev:?}");
    // With its +1: nothing due.
    let mut f = Follower::new(TrackConfig::default());
    run(&mut f, &base(), 6);
    let mut l = base();
    l.cities[c].moloch.push(unit("steelhound", &[Token::Plus1]));
    assert_eq!(kinds(&run(&mut f, &l, 6)), ["confirmed"]);
    // Into the active city: nothing due.
    let mut f = Follower::new(TrackConfig::default());
    run(&mut f, &base(), 6);
    let mut l = base();
    l.cities[0].moloch.push(unit("steelhound", &[]));
    assert_eq!(kinds(&run(&mut f, &l, 6)), ["confirmed"]);
    // A building never gets it; an Outpost soldier where Moloch has a robot neither.
    let mut start = base();
    start.cities[c]
        .moloch
        .push(unit("steelhound", &[Token::Plus1]));
    let mut f = Follower::new(TrackConfig::default());
    run(&mut f, &start, 6);
    let mut l = start.clone();
    l.cities[c].outpost.push(unit("bunker", &[]));
    l.cities[c].outpost.push(unit("trooper", &[]));
    assert_eq!(kinds(&run(&mut f, &l, 6)), ["confirmed"]);
    // A unit moved (Hornet) keeps its tokens and needs one more +1.
    let mut f = Follower::new(TrackConfig::default());
    run(&mut f, &base(), 6);
    let mut l = base();
    let hornet = l.cities[0].moloch.remove(0);
    l.cities[c].moloch.push(hornet);
    let ev = run(&mut f, &l, 6);
    assert_eq!(kinds(&ev), ["confirmed", "bonus_due"], "{ev:?}");
}

#[test]
fn a_battle_is_logged_when_a_district_falls_once_per_battle() {
    let mut f = Follower::new(TrackConfig::default());
    run(&mut f, &base(), 6);
    // A kill district effect removes the commando before the marker goes down.
    let mut killed = base();
    killed.cities[0].outpost.remove(0);
    run(&mut f, &killed, 6);
    let mut fell = killed.clone();
    fell.cities[0].districts_destroyed = 1;
    let ev = run(&mut f, &fell, 6);
    assert_eq!(kinds(&ev), ["confirmed", "battle"], "{ev:?}");
    let Event::Battle {
        city,
        state_frame,
        result,
        ..
    } = &ev[1]
    else {
        unreachable!()
    };
    assert_eq!(*city, CityId::ZiggyOne);
    assert_eq!(*state_frame, 3, "judged before the commando was killed");
    assert_eq!(result["outpost"]["units"].as_array().unwrap().len(), 2);
    // Moloch's victory destroys another district: no second battle; the city flips.
    let mut flip = fell.clone();
    flip.cities[0].districts_destroyed = 2;
    assert_eq!(kinds(&run(&mut f, &flip, 6)), ["confirmed"]);
    flip.cities[0].destroyed = true;
    flip.cities[0].districts_destroyed = 0;
    assert_eq!(kinds(&run(&mut f, &flip, 6)), ["confirmed"]);
    // A card played in Iron Gate, then its district falls: the next battle.
    let mut next = flip.clone();
    next.cities[1]
        .moloch
        .push(unit("steelhound", &[Token::Plus1]));
    run(&mut f, &next, 6);
    next.cities[1].districts_destroyed = 1;
    let ev = run(&mut f, &next, 6);
    assert_eq!(kinds(&ev), ["confirmed", "battle"], "{ev:?}");
}

#[test]
fn a_follower_saved_and_loaded_mid_game_ends_as_an_uninterrupted_one() {
    let mut frames = vec![base(); 6];
    let mut l = base();
    l.cities[1].moloch.push(unit("steelhound", &[]));
    frames.extend(vec![l.clone(); 3]);
    l.cities[0].moloch[0].tokens.clear();
    frames.extend(vec![l.clone(); 6]);
    let c = cat();
    let mut whole = Follower::new(TrackConfig::default());
    let all: Vec<Event> = frames.iter().flat_map(|l| whole.observe(&c, l)).collect();
    for cut in [1, 5, 8, 11] {
        let mut a = Follower::new(TrackConfig::default());
        let mut ev: Vec<Event> = frames[..cut]
            .iter()
            .flat_map(|l| a.observe(&c, l))
            .collect();
        let mut b = Follower::from_json(&a.to_json()).unwrap();
        ev.extend(frames[cut..].iter().flat_map(|l| b.observe(&c, l)));
        assert_eq!(ev, all, "cut at {cut}");
        assert_eq!(b, whole);
    }
}

/// Tracking on the true layouts of rendered frames: camera shake, a hand over the table,
/// and a token taken off a card.
#[test]
fn rendered_sequence_with_shake_a_hand_and_a_token_taken_off() {
    use crate::render::sequence::SequenceFrame;
    use crate::render::{Renderer, SceneOptions};
    let c = cat();
    let mut l0 = base();
    l0.cities[1]
        .moloch
        .push(unit("steelhound", &[Token::Plus2]));
    l0.cities[1].outpost.push(unit("bunker", &[]));
    let mut l1 = l0.clone();
    l1.cities[0].moloch[0].tokens.clear();
    let hand = SequenceFrame {
        layout: l0.clone(),
        hand: Some([0.0, 0.0, 0.55, 1.0]),
    };
    let mut frames = vec![SequenceFrame::table(&l0); 6];
    frames.extend(vec![hand; 2]);
    frames.extend(vec![SequenceFrame::table(&l0); 4]);
    frames.extend(vec![SequenceFrame::table(&l1); 6]);
    let options = SceneOptions {
        effects: false,
        distractors: false,
        ..SceneOptions::default().sized(480, 270)
    };
    let scenes = Renderer::new(&c).render_sequence(&frames, 11, 2, &options, 6.0);
    // The pieces stay put: the hornet's corners move by the shake only.
    let centre = |s: &crate::render::Scene| {
        let q = s.truth.cities[0].moloch[0].corners.unwrap();
        (
            q.iter().map(|p| p[0]).sum::<f32>() / 4.0,
            q.iter().map(|p| p[1]).sum::<f32>() / 4.0,
        )
    };
    let (a, b) = (centre(&scenes[0]), centre(&scenes[15]));
    assert!(
        (a.0 - b.0).abs() <= 12.5 && (a.1 - b.1).abs() <= 12.5,
        "{a:?} {b:?}"
    );
    assert!(
        scenes[6].truth.cities.len() < 5
            || scenes[6]
                .truth
                .cities
                .iter()
                .map(|c| c.moloch.len() + c.outpost.len())
                .sum::<usize>()
                < 6,
        "the hand hides something"
    );

    let mut f = Follower::new(TrackConfig::default());
    let ev: Vec<Event> = scenes
        .iter()
        .flat_map(|s| f.observe(&c, &s.truth))
        .collect();
    let k = kinds(&ev);
    assert_eq!(
        k.iter()
            .filter(|&&k| k != "ignored")
            .copied()
            .collect::<Vec<_>>(),
        ["confirmed", "confirmed", "token_missing"],
        "{ev:?}"
    );
    assert!(
        k.contains(&"ignored"),
        "the hand frames are left out: {k:?}"
    );
    let confirmed: Vec<&Layout> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Confirmed { layout, .. } => Some(layout),
            _ => None,
        })
        .collect();
    assert_eq!(canonical(confirmed[0]), canonical(&l0));
    assert_eq!(canonical(confirmed[1]), canonical(&l1));
    let Some(Event::TokenMissing { card, since, .. }) = ev.last() else {
        unreachable!()
    };
    assert_eq!((card.as_str(), *since), ("hornet", 12));
}
