//! No layout makes the engine panic: arbitrary text, mutated layout files, JSON of the
//! wrong shape, and structurally valid layouts (random cities, cards from the catalogue on
//! either side, tokens, modules, nets, arrivals, destroyed flags and marker counts). For
//! layouts that are accepted, the battle result is also checked for consistency.

use proptest::prelude::*;
use proptest::sample::{select, Index};
use serde_json::Value;
use std::sync::OnceLock;
use tablelens_engine::{
    battle, check, game_state, Catalogue, CityId, CityLayout, Kind, Layout, ModuleCard, NoBattle,
    Reason, Side, Token, Unit, Winner,
};

fn cat() -> &'static Catalogue {
    static CAT: OnceLock<Catalogue> = OnceLock::new();
    CAT.get_or_init(Catalogue::bundled)
}

fn ids(pred: impl Fn(Kind, Side) -> bool) -> Vec<String> {
    cat()
        .cards()
        .iter()
        .filter(|c| pred(c.kind, c.side))
        .map(|c| c.id.clone())
        .collect()
}

fn all_ids() -> Vec<String> {
    ids(|_, _| true)
}

/// Runs everything the engine offers on a layout; for a layout that passed validation,
/// also checks that the result is consistent.
fn exercise(l: &Layout, validated: bool) {
    let cat = cat();
    let findings = check(cat, l);
    for (deck, hand) in [(0, 0), (0, 1), (1, 0), (7, 3)] {
        let _ = game_state(l, deck, hand);
    }
    let result = battle(cat, l);
    let _ = serde_json::to_string(&result.as_ref().ok()).expect("the result serialises");
    if !validated {
        return;
    }
    let all_destroyed = CityId::ALL
        .iter()
        .all(|&id| l.city(id).is_some_and(|c| c.destroyed));
    let r = match result {
        Err(NoBattle::AllDestroyed) => {
            assert!(all_destroyed);
            return;
        }
        Ok(r) => r,
    };
    assert!(!all_destroyed);
    assert_eq!(Some(r.city), l.active_city());
    let city = l.city(r.city);
    for (side, strength) in [(Side::Moloch, &r.moloch), (Side::Outpost, &r.outpost)] {
        let units = city.map_or(&[][..], |c| c.side(side));
        assert_eq!(strength.units.len(), units.len());
        assert_eq!(
            strength.total,
            strength.units.iter().map(|u| u.total).sum::<i32>()
        );
        for (u, laid) in strength.units.iter().zip(units) {
            assert_eq!(u.card, laid.card);
            assert_eq!(
                u.total,
                u.parts.iter().map(|p| p.points).sum::<i32>(),
                "{u:?}"
            );
            if laid.netted {
                assert_eq!(u.total, 0, "{u:?}");
            } else if side == Side::Moloch {
                // The robot's own strength never goes below 0; only its module adds.
                let module = laid
                    .module
                    .as_ref()
                    .and_then(|m| cat.card(&m.card))
                    .and_then(|m| m.strength)
                    .unwrap_or(0);
                assert!(u.total - module >= 0, "{u:?}");
            }
        }
    }
    let expected = if l.emp_assault {
        Some((Winner::None, Reason::EmpAssault))
    } else if r.moloch.total > r.outpost.total {
        Some((Winner::Moloch, Reason::Strength))
    } else if r.moloch.total < r.outpost.total {
        Some((Winner::Outpost, Reason::Strength))
    } else {
        None
    };
    match expected {
        Some(e) => assert_eq!((r.winner, r.reason), e),
        None => assert!(matches!(
            (r.winner, r.reason),
            (Winner::Draw, Reason::Tie) | (Winner::Moloch, Reason::Stormtrooper)
        )),
    }
    assert!(
        r.consequences
            .iter()
            .any(|c| c.contains("is marked destroyed")),
        "{:?}",
        r.consequences
    );
    assert_eq!(r.violations, findings.violations);
    // An accepted layout reads back as itself.
    let again = Layout::from_json(&l.to_json_pretty(), cat).expect("a layout written reads back");
    assert_eq!(&again, l);
}

fn exercise_text(text: &str) {
    if let Ok(l) = Layout::from_json(text, cat()) {
        exercise(&l, false);
        // Check the consistency too, except the round trip of odd floats in boxes.
        let r = battle(cat(), &l);
        if let Ok(r) = r {
            assert_eq!(
                r.moloch.total,
                r.moloch.units.iter().map(|u| u.total).sum::<i32>()
            );
        }
    }
}

// ---- structured layouts -------------------------------------------------------------------

fn token() -> impl Strategy<Value = Token> {
    select(Token::ALL.to_vec())
}

/// A module; `sloppy` lets in any card id, which validation refuses.
fn module(sloppy: bool) -> impl Strategy<Value = ModuleCard> {
    let modules = ids(|k, _| k == Kind::Module);
    let odd = if sloppy { 1 } else { 0 };
    (
        prop_oneof![9 => select(modules), odd => select(all_ids())],
        prop::collection::vec(token(), 0..3),
    )
        .prop_map(|(card, tokens)| ModuleCard {
            tokens,
            ..ModuleCard::new(&card)
        })
}

/// A unit of a side; `sloppy` lets in cards of any kind or side and printed strengths out
/// of range, which validation refuses.
fn unit(side: Side, sloppy: bool) -> impl Strategy<Value = Unit> {
    let own = ids(move |k, s| k.is_unit() && s == side);
    let odd = if sloppy { 1 } else { 0 };
    (
        prop_oneof![12 => select(own), odd => select(all_ids())],
        prop::option::weighted(
            0.7,
            prop_oneof![8 => 0i32..=6, 1 => -10i32..=20, odd => -12i32..=22],
        ),
        prop::collection::vec(token(), 0..5),
        prop::option::weighted(0.3, module(sloppy)),
        prop::bool::weighted(0.15),
        prop::option::weighted(0.5, 0u32..8),
    )
        .prop_map(|(card, strength, tokens, module, netted, arrived)| Unit {
            strength,
            tokens,
            module,
            netted,
            arrived,
            ..Unit::new(&card)
        })
}

fn city_body(sloppy: bool) -> impl Strategy<Value = CityLayout> {
    let odd = if sloppy { 1 } else { 0 };
    (
        (
            prop_oneof![12 => 0u32..=4, odd => 5u32..=7],
            prop::bool::weighted(0.3),
            prop::option::weighted(
                0.5,
                prop_oneof![12 => 1u32..=4, odd => Just(0u32), odd => Just(5u32)],
            ),
            prop::bool::weighted(0.2),
            prop::bool::weighted(0.1),
        ),
        prop::collection::vec(unit(Side::Moloch, sloppy), 0..6),
        prop::collection::vec(unit(Side::Outpost, sloppy), 0..6),
    )
        .prop_map(
            |(
                (districts_destroyed, battle_marker, battle_district, feature_used, extra_district),
                moloch,
                outpost,
            )| {
                CityLayout {
                    districts_destroyed,
                    battle_marker,
                    battle_district,
                    feature_used,
                    extra_district,
                    moloch,
                    outpost,
                    ..CityLayout::empty(CityId::ZiggyOne)
                }
            },
        )
}

prop_compose! {
    /// A table of five cities (some left out, possibly out of order), cities before
    /// `fallen` destroyed, or destroyed at random.
    fn table_of(sloppy: bool)(
        bodies in prop::collection::vec(city_body(sloppy), 5),
        listed in prop::collection::vec(prop::bool::weighted(0.8), 5),
        fallen in 0usize..=5,
        chaos in prop::bool::weighted(0.15),
        random_destroyed in prop::collection::vec(any::<bool>(), 5),
        emp_assault in prop::bool::weighted(0.1),
        order in Just((0..5usize).collect::<Vec<_>>()).prop_shuffle(),
        shuffled in prop::bool::weighted(0.2),
    ) -> Layout {
        let mut cities: Vec<CityLayout> = bodies
            .into_iter()
            .enumerate()
            .map(|(i, mut c)| {
                c.id = CityId::ALL[i];
                c.destroyed = if chaos { random_destroyed[i] } else { i < fallen };
                c
            })
            .collect();
        if shuffled {
            cities = order.iter().map(|&i| cities[i].clone()).collect();
        }
        let cities = cities
            .into_iter()
            .zip(listed)
            .filter(|(_, keep)| *keep)
            .map(|(c, _)| c)
            .collect();
        Layout { cities, emp_assault, ..Layout::default() }
    }
}

/// Mostly tables that pass validation; one in four with values it refuses.
fn table() -> impl Strategy<Value = Layout> {
    prop_oneof![3 => table_of(false), 1 => table_of(true)]
}

// ---- JSON of any shape --------------------------------------------------------------------

const KEYS: [&str; 26] = [
    "cities",
    "id",
    "destroyed",
    "districts_destroyed",
    "battle_marker",
    "battle_district",
    "feature_used",
    "extra_district",
    "moloch",
    "outpost",
    "card",
    "strength",
    "tokens",
    "module",
    "netted",
    "arrived",
    "box",
    "corners",
    "token_corners",
    "markers",
    "kind",
    "emp_assault",
    "unknown",
    "x",
    "",
    "cities ",
];

fn words() -> Vec<String> {
    let mut w = all_ids();
    w.extend(CityId::ALL.iter().map(|c| c.as_str().to_string()));
    w.extend(Token::ALL.iter().map(|t| t.as_str().to_string()));
    w.extend(["", "+3", "NEW_YORK", "\u{0}", "é"].map(String::from));
    w
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-5i64..30).prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        select(words()).prop_map(Value::String),
    ];
    leaf.prop_recursive(6, 96, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((select(KEYS.to_vec()), inner), 0..6).prop_map(|kv| {
                Value::Object(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
            }),
        ]
    })
}

const SNIPPETS: [&str; 16] = [
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\"",
    "null",
    "true",
    "-1",
    "4294967296",
    "1e400",
    "\"hunter\"",
    "\"new_york\"",
    "{\"card\":\"spiders\"}",
    "\\u0000",
];

/// Applies edits (delete, insert, replace, truncate) at chosen places of an ASCII text.
fn mutate(text: &str, edits: &[(Index, u8, usize, Index)]) -> String {
    let mut s = text.as_bytes().to_vec();
    for (at, kind, snippet, len) in edits {
        let i = at.index(s.len() + 1);
        let snip = SNIPPETS[*snippet % SNIPPETS.len()].as_bytes();
        match kind % 4 {
            0 => {
                let n = len.index(8).min(s.len() - i);
                s.drain(i..i + n);
            }
            1 => {
                s.splice(i..i, snip.iter().copied());
            }
            2 => {
                let n = len.index(8).min(s.len() - i);
                s.splice(i..i + n, snip.iter().copied());
            }
            _ => s.truncate(i),
        }
    }
    String::from_utf8(s).expect("ASCII edits of ASCII text")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn structurally_valid_layouts_never_panic_and_are_consistent(l in table()) {
        match l.validate(cat()) {
            Ok(()) => exercise(&l, true),
            Err(e) => {
                prop_assert!(!e.message.is_empty());
                // Refused layouts are still evaluated without panicking if built in memory.
                exercise(&l, false);
            }
        }
        // The same layout as a file.
        let text = serde_json::to_string(&l).unwrap();
        match Layout::from_json(&text, cat()) {
            Ok(read) => prop_assert_eq!(&read, &l),
            Err(_) => prop_assert!(l.validate(cat()).is_err()),
        }
    }

    #[test]
    fn arbitrary_text_never_panics(text in any::<String>()) {
        exercise_text(&text);
    }

    #[test]
    fn json_ish_text_never_panics(text in "[\\{\\}\\[\\]\":,0-9a-z_ +.eE\\-]{0,120}") {
        exercise_text(&text);
        exercise_text(&format!("{{\"cities\":[{text}]}}"));
    }

    #[test]
    fn json_of_any_shape_never_panics(
        root in prop::collection::vec((select(KEYS.to_vec()), json_value()), 0..5),
        city in prop::collection::vec((select(KEYS.to_vec()), json_value()), 0..8),
    ) {
        let root: serde_json::Map<String, Value> =
            root.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
        exercise_text(&Value::Object(root).to_string());
        let city: serde_json::Map<String, Value> =
            city.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
        exercise_text(&serde_json::json!({"cities": [Value::Object(city)]}).to_string());
    }

    #[test]
    fn mutated_layout_files_never_panic(
        l in table(),
        edits in prop::collection::vec((any::<Index>(), any::<u8>(), any::<usize>(), any::<Index>()), 1..6),
        pretty in any::<bool>(),
    ) {
        let text = if pretty { l.to_json_pretty() } else { serde_json::to_string(&l).unwrap() };
        exercise_text(&mutate(&text, &edits));
    }
}

#[test]
fn deep_nesting_is_refused_not_overflowed() {
    let deep = format!(
        "{{\"cities\":{}{}}}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    assert!(Layout::from_json(&deep, cat()).is_err());
    let deep_obj = format!("{}{}", "{\"x\":".repeat(50_000), "}".repeat(50_000));
    assert!(Layout::from_json(&deep_obj, cat()).is_err());
}

/// Values that validation refuses, in a layout built in memory (strengths stay far from
/// the integer limits: those are refused by validation and not guarded against).
#[test]
fn extreme_numbers_in_memory_do_not_panic() {
    let mut c = CityLayout::empty(CityId::ZiggyOne);
    c.battle_district = Some(0);
    c.districts_destroyed = u32::MAX;
    c.extra_district = true;
    c.moloch.push(Unit {
        strength: Some(999),
        tokens: vec![Token::Plus2; 40],
        ..Unit::new("hunter")
    });
    c.outpost.push(Unit {
        strength: Some(-999),
        tokens: vec![Token::Minus2; 40],
        ..Unit::new("scout")
    });
    c.moloch.push(Unit::new("no_such_card"));
    let l = Layout {
        cities: vec![c],
        ..Layout::default()
    };
    assert!(l.validate(cat()).is_err());
    let _ = battle(cat(), &l);
    let _ = check(cat(), &l);
    let _ = game_state(&l, u32::MAX, u32::MAX);
    let mut far = CityLayout::empty(CityId::ZiggyOne);
    far.battle_district = Some(u32::MAX);
    let l = Layout {
        cities: vec![far],
        ..Layout::default()
    };
    let _ = battle(cat(), &l);
    let _ = check(cat(), &l);
}
