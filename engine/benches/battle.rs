//! How long judging a battle takes on a busy, realistic table: `battle()` alone, and
//! reading the layout file plus `battle()`. Expected: microseconds.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use tablelens_engine::{battle, check, Catalogue, Layout};

/// Mid-game: Ziggy One has fallen, the battle is in Iron Gate's second district, every
/// city holds units, and most rules are in play (EMP Launcher arrival order, Saboteur,
/// Lt. Calahan, Bunker, a taken-over module, a net, shields, disables, Spiders, tokens).
const BUSY: &str = r#"{
  "cities": [
    { "id": "ziggy_one", "destroyed": true,
      "moloch": [ { "card": "juggernaut", "strength": 4, "tokens": ["+1"] } ],
      "outpost": [ { "card": "runner", "strength": 1 }, { "card": "scout", "strength": 2 } ] },
    { "id": "iron_gate", "districts_destroyed": 1, "battle_marker": true, "battle_district": 2,
      "moloch": [
        { "card": "dreadnought", "strength": 4, "arrived": 1, "module": { "card": "destruction_module" } },
        { "card": "stormtrooper", "strength": 3, "tokens": ["shield", "+2"], "arrived": 2 },
        { "card": "hunter", "strength": 3, "tokens": ["-2"], "arrived": 4, "module": { "card": "net_module" } },
        { "card": "spiders", "tokens": ["+1"], "arrived": 5, "module": { "card": "combat_module" } },
        { "card": "defender", "strength": 2, "tokens": ["disable"], "arrived": 6 }
      ],
      "outpost": [
        { "card": "emp_launcher", "strength": 2, "arrived": 3 },
        { "card": "lt_calahan", "strength": 2, "tokens": ["+1"], "arrived": 2 },
        { "card": "saboteur", "strength": 1, "arrived": 4 },
        { "card": "nestugov", "strength": 1, "arrived": 5, "module": { "card": "annihilation_module" } }
      ] },
    { "id": "cleveland_harbour",
      "moloch": [ { "card": "hornet", "tokens": ["+1"] }, { "card": "spiders", "strength": 1 } ],
      "outpost": [ { "card": "bunker", "strength": 2 }, { "card": "commando", "strength": 2, "tokens": ["+1"] },
                   { "card": "cpt_johnson", "strength": 2 } ] },
    { "id": "jersey_crust",
      "moloch": [ { "card": "brute", "strength": 2, "tokens": ["+1"], "module": { "card": "contamination_module" } } ],
      "outpost": [ { "card": "em_field", "strength": 1 }, { "card": "heavy_machine_gun", "strength": 2 } ] },
    { "id": "new_york",
      "moloch": [ { "card": "annihilator", "strength": 3 }, { "card": "blocker", "strength": 2 } ],
      "outpost": [ { "card": "trooper", "strength": 2, "tokens": ["+1"] } ] }
  ],
  "emp_assault": false
}"#;

/// The player's own values, so that district effects and strengths are known.
const OVERRIDES: &str = r#"
[cities.iron_gate]
moloch_slots = 5
outpost_slots = 4
districts = 2
effects = ["kill", "to_new_york"]
[cities.new_york]
effects = ["bomb", "draw"]
"#;

fn benches(c: &mut Criterion) {
    let mut cat = Catalogue::bundled();
    cat.apply_overrides(OVERRIDES).expect("overrides are valid");
    let layout = Layout::from_json(BUSY, &cat).expect("the busy layout is valid");
    let result = battle(&cat, &layout).expect("there is a battle");
    assert_eq!(result.city.as_str(), "iron_gate");
    assert!(!result.consequences.is_empty());

    c.bench_function("battle (busy table)", |b| {
        b.iter(|| battle(black_box(&cat), black_box(&layout)))
    });
    c.bench_function("parse + battle (busy table)", |b| {
        b.iter(|| {
            let l = Layout::from_json(black_box(BUSY), &cat).unwrap();
            battle(&cat, &l)
        })
    });
    c.bench_function("check (busy table)", |b| {
        b.iter(|| check(black_box(&cat), black_box(&layout)))
    });
}

criterion_group!(battle_benches, benches);
criterion_main!(battle_benches);
