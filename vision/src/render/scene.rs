//! Game-like table states: which cards, modules, tokens and markers lie where, at an early,
//! middle or late point of a game. Every state is checked with the engine
//! ([`tablelens_engine::check`]) piece by piece as it is built, so the result has no
//! violations; a state that still fails is drawn again (bounded), with an always-legal
//! fallback.

use super::faces::printed_strength;
use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use tablelens_engine::catalogue::Feature;
use tablelens_engine::{
    check, Catalogue, CityId, CityLayout, Kind, Layout, ModuleCard, Side, Token, Unit,
};

/// How far the game has gone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Few cards, no city destroyed yet (or one).
    Early,
    /// One or two cities destroyed, a few cards a side.
    Middle,
    /// Several cities destroyed, full columns.
    Late,
}

/// A table state and what the layout format leaves open: which districts the
/// destroyed-district markers lie on.
#[derive(Debug, Clone, PartialEq)]
pub struct GameState {
    /// The layout (no image positions yet).
    pub layout: Layout,
    /// Per city, the districts (1-based) that carry a destroyed-district marker.
    pub destroyed_districts: [Vec<u32>; 5],
}

/// Strength tokens in the box (two-sided +1/+2/-2).
const STRENGTH_TOKENS: usize = 21;
/// Special-ability tokens in the box (two-sided shield/disable).
const SPECIAL_TOKENS: usize = 6;
/// Most tokens drawn on one card (they must fit on its visible part).
pub const MAX_TOKENS_PER_CARD: usize = 4;

fn legal(cat: &Catalogue, layout: &Layout) -> bool {
    check(cat, layout).violations.is_empty()
}

/// Draws a legal game state.
pub fn generate(cat: &Catalogue, rng: &mut ChaCha8Rng) -> GameState {
    for _ in 0..12 {
        let s = attempt(cat, rng);
        if legal(cat, &s.layout) {
            return s;
        }
    }
    fallback()
}

/// An empty table with the battle marker on Ziggy One: always legal.
pub fn fallback() -> GameState {
    let mut layout = empty_layout();
    layout.cities[0].battle_marker = true;
    layout.cities[0].battle_district = Some(1);
    GameState {
        layout,
        destroyed_districts: Default::default(),
    }
}

fn empty_layout() -> Layout {
    Layout {
        cities: CityId::ALL.into_iter().map(CityLayout::empty).collect(),
        ..Layout::default()
    }
}

fn attempt(cat: &Catalogue, r: &mut ChaCha8Rng) -> GameState {
    let phase = match r.gen_range(0..10) {
        0..=2 => Phase::Early,
        3..=6 => Phase::Middle,
        _ => Phase::Late,
    };
    let mut layout = empty_layout();
    let mut destroyed_districts: [Vec<u32>; 5] = Default::default();
    let destroyed = match phase {
        Phase::Early => usize::from(r.gen_bool(0.2)),
        Phase::Middle => r.gen_range(1..=2),
        Phase::Late => r.gen_range(2..=4),
    };
    for c in layout.cities.iter_mut().take(destroyed) {
        c.destroyed = true;
    }
    let active = destroyed;
    city_markers(cat, &mut layout, &mut destroyed_districts, active, r);

    let (mut n_moloch, mut n_outpost) = match phase {
        Phase::Early => (r.gen_range(0..=4), r.gen_range(0..=4)),
        Phase::Middle => (r.gen_range(2..=9), r.gen_range(2..=9)),
        Phase::Late => (r.gen_range(5..=16), r.gen_range(4..=14)),
    };
    if r.gen_bool(0.07) {
        n_moloch = 0;
    } else if r.gen_bool(0.07) {
        n_outpost = 0;
    }
    let weights: Vec<f64> = (0..5)
        .map(|j| {
            if j < active {
                if phase == Phase::Late {
                    0.7
                } else {
                    0.4
                }
            } else if j == active {
                3.0
            } else {
                1.6 / (1.0 + 0.6 * (j - active - 1) as f64)
            }
        })
        .collect();
    let fill = (phase != Phase::Early && r.gen_bool(0.5)).then(|| {
        if r.gen_bool(0.6) {
            active
        } else {
            r.gen_range(active..5)
        }
    });
    for (side, n) in [(Side::Moloch, n_moloch), (Side::Outpost, n_outpost)] {
        let mut pool = unit_pool(cat, side);
        pool.shuffle(r);
        pool.truncate(n);
        let mut target = fill.filter(|_| r.gen_bool(0.7));
        for card in pool {
            place_unit(cat, &mut layout, side, &card, &weights, &mut target, r);
        }
    }
    modules(cat, &mut layout, phase, r);
    tokens(cat, &mut layout, phase, r);
    arrivals(&mut layout, r);
    GameState {
        layout,
        destroyed_districts,
    }
}

fn city_markers(
    cat: &Catalogue,
    layout: &mut Layout,
    destroyed_districts: &mut [Vec<u32>; 5],
    active: usize,
    r: &mut ChaCha8Rng,
) {
    let Some(ac) = layout.cities.get_mut(active) else {
        return;
    };
    let city = cat.city(ac.id);
    if city.feature != Feature::None && r.gen_bool(0.3) {
        ac.feature_used = true;
        // Jersey Crust's feature is its third district: once used, the district is there.
        ac.extra_district = city.feature == Feature::ExtraDistrict;
    }
    let districts = city.districts.value + u32::from(ac.extra_district);
    let k = r.gen_range(0..districts);
    let mut order: Vec<u32> = (1..=districts).collect();
    order.shuffle(r);
    ac.districts_destroyed = k;
    let mut gone: Vec<u32> = order[..k as usize].to_vec();
    gone.sort_unstable();
    destroyed_districts[active] = gone;
    if r.gen_bool(0.85) {
        ac.battle_marker = true;
        ac.battle_district = Some(order[k as usize]);
    }
    // A Moloch victory can destroy a district of the next city.
    if active + 1 < 5 && r.gen_bool(0.12) {
        let next = &mut layout.cities[active + 1];
        let n = cat.city(next.id).districts.value;
        if n > 1 {
            next.districts_destroyed = 1;
            destroyed_districts[active + 1] = vec![r.gen_range(1..=n)];
        }
    }
}

fn unit_pool(cat: &Catalogue, side: Side) -> Vec<String> {
    let mut pool = Vec::new();
    for c in cat.cards() {
        if c.side == side && c.kind.is_unit() {
            for _ in 0..c.count {
                pool.push(c.id.clone());
            }
        }
    }
    pool
}

fn pick_weighted(weights: &[f64], r: &mut ChaCha8Rng) -> usize {
    let total: f64 = weights.iter().sum();
    let mut x = r.gen_range(0.0..total.max(1e-9));
    for (i, w) in weights.iter().enumerate() {
        if x < *w {
            return i;
        }
        x -= w;
    }
    weights.len() - 1
}

fn place_unit(
    cat: &Catalogue,
    layout: &mut Layout,
    side: Side,
    card: &str,
    weights: &[f64],
    target: &mut Option<usize>,
    r: &mut ChaCha8Rng,
) {
    let mut unit = Unit::new(card);
    unit.strength = cat.card(card).and_then(printed_strength);
    for _ in 0..6 {
        let j = match *target {
            Some(t) => t,
            None => pick_weighted(weights, r),
        };
        layout.cities[j].side_mut(side).push(unit.clone());
        if legal(cat, layout) {
            return;
        }
        layout.cities[j].side_mut(side).pop();
        // The column to fill is full: carry on elsewhere.
        *target = None;
    }
}

fn modules(cat: &Catalogue, layout: &mut Layout, phase: Phase, r: &mut ChaCha8Rng) {
    let mut pool: Vec<String> = Vec::new();
    for c in cat.cards().iter().filter(|c| c.kind == Kind::Module) {
        for _ in 0..c.count {
            pool.push(c.id.clone());
        }
    }
    pool.shuffle(r);
    let p = match phase {
        Phase::Early => 0.25,
        Phase::Middle => 0.4,
        Phase::Late => 0.5,
    };
    let mut wants: Vec<(usize, Side, usize)> = Vec::new();
    for (ci, c) in layout.cities.iter().enumerate() {
        for ui in 0..c.moloch.len() {
            if r.gen_bool(p) {
                wants.push((ci, Side::Moloch, ui));
            }
        }
        // Nestugov now and then takes a module over onto a soldier of his city.
        if c.outpost.iter().any(|u| u.card == "nestugov") && r.gen_bool(0.4) {
            let soldiers: Vec<usize> = (0..c.outpost.len())
                .filter(|&i| {
                    cat.card(&c.outpost[i].card)
                        .is_some_and(|k| k.kind == Kind::Soldier)
                })
                .collect();
            if let Some(&ui) = soldiers.choose(r) {
                wants.push((ci, Side::Outpost, ui));
            }
        }
    }
    for (ci, side, ui) in wants {
        let Some(m) = pool.pop() else { return };
        layout.cities[ci].side_mut(side)[ui].module = Some(ModuleCard::new(&m));
        if !legal(cat, layout) {
            layout.cities[ci].side_mut(side)[ui].module = None;
            pool.insert(0, m);
        }
    }
}

fn tokens(cat: &Catalogue, layout: &mut Layout, phase: Phase, r: &mut ChaCha8Rng) {
    let mut strength_left = STRENGTH_TOKENS;
    let mut special_left = SPECIAL_TOKENS;
    let busy = match phase {
        Phase::Early => 0.7,
        Phase::Middle => 1.0,
        Phase::Late => 1.3,
    };
    for ci in 0..layout.cities.len() {
        for side in [Side::Moloch, Side::Outpost] {
            for ui in 0..layout.cities[ci].side(side).len() {
                let card = layout.cities[ci].side(side)[ui].card.clone();
                let Some(kind) = cat.card(&card).map(|c| c.kind) else {
                    continue;
                };
                if kind == Kind::Building {
                    continue;
                }
                let x: f64 = r.gen_range(0.0..1.0) / busy;
                let n = if x < 0.05 {
                    3
                } else if x < 0.17 {
                    2
                } else if x < 0.45 {
                    1
                } else {
                    0
                };
                for _ in 0..n {
                    let t = match kind {
                        Kind::Robot => match r.gen_range(0..20) {
                            0..=6 => Token::Plus1,
                            7..=10 => Token::Plus2,
                            11..=13 => Token::Minus2,
                            14..=16 => Token::Shield,
                            _ => Token::Disable,
                        },
                        _ => {
                            if r.gen_bool(0.75) {
                                Token::Plus1
                            } else {
                                Token::Plus2
                            }
                        }
                    };
                    let supply = if t.strength().is_some() {
                        &mut strength_left
                    } else {
                        &mut special_left
                    };
                    let unit = &layout.cities[ci].side(side)[ui];
                    if *supply == 0 || unit.tokens.len() >= MAX_TOKENS_PER_CARD {
                        continue;
                    }
                    layout.cities[ci].side_mut(side)[ui].tokens.push(t);
                    if legal(cat, layout) {
                        *supply -= 1;
                    } else {
                        layout.cities[ci].side_mut(side)[ui].tokens.pop();
                    }
                }
            }
        }
    }
}

/// Numbers the units of each city in an arrival order that keeps each column's order
/// (cards nearer the city came first).
fn arrivals(layout: &mut Layout, r: &mut ChaCha8Rng) {
    for c in &mut layout.cities {
        let (mut m, mut o) = (0, 0);
        let mut n = 1;
        while m < c.moloch.len() || o < c.outpost.len() {
            let take_m = if m == c.moloch.len() {
                false
            } else if o == c.outpost.len() {
                true
            } else {
                r.gen_bool(0.5)
            };
            if take_m {
                c.moloch[m].arrived = Some(n);
                m += 1;
            } else {
                c.outpost[o].arrived = Some(n);
                o += 1;
            }
            n += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::seeds;

    #[test]
    fn generated_states_are_legal_and_varied() {
        let cat = Catalogue::bundled();
        let mut destroyed_seen = [false; 5];
        let (mut empty_side, mut modules, mut tokens, mut full) = (0, 0, 0, 0);
        let mut total_units = 0;
        for i in 0..60 {
            let mut r = seeds::stream(7, i, "layout");
            let s = generate(&cat, &mut r);
            let f = check(&cat, &s.layout);
            assert!(f.violations.is_empty(), "scene {i}: {:?}", f.violations);
            let l = &s.layout;
            assert_eq!(l.cities.len(), 5);
            let d = l.cities.iter().filter(|c| c.destroyed).count();
            destroyed_seen[d] = true;
            // Destroyed cities form a prefix and carry no markers.
            for (j, c) in l.cities.iter().enumerate() {
                assert_eq!(c.destroyed, j < d);
                if c.destroyed {
                    assert!(!c.battle_marker && c.districts_destroyed == 0 && !c.feature_used);
                }
                assert_eq!(s.destroyed_districts[j].len() as u32, c.districts_destroyed);
            }
            let m: usize = l.cities.iter().map(|c| c.moloch.len()).sum();
            let o: usize = l.cities.iter().map(|c| c.outpost.len()).sum();
            total_units += m + o;
            empty_side += usize::from(m == 0 || o == 0);
            for c in &l.cities {
                let units = c.moloch.iter().chain(&c.outpost);
                modules += units.clone().filter(|u| u.module.is_some()).count();
                tokens += units.map(|u| u.tokens.len()).sum::<usize>();
                full += usize::from(c.outpost.len() >= 4 || c.moloch.len() >= 4);
            }
        }
        assert!(destroyed_seen[0] && destroyed_seen[2]);
        assert!(
            empty_side > 0 && modules > 10 && tokens > 20 && full > 3,
            "{empty_side} {modules} {tokens} {full}"
        );
        assert!(total_units > 200);
    }

    #[test]
    fn soldiers_sometimes_carry_a_taken_over_module() {
        let cat = Catalogue::bundled();
        let taken: usize = (0..300)
            .map(|i| {
                let s = generate(&cat, &mut seeds::stream(11, i, "layout"));
                s.layout
                    .cities
                    .iter()
                    .flat_map(|c| &c.outpost)
                    .filter(|u| u.module.is_some())
                    .count()
            })
            .sum();
        assert!(taken > 3, "{taken}");
    }

    #[test]
    fn the_fallback_is_legal() {
        let cat = Catalogue::bundled();
        assert!(legal(&cat, &fallback().layout));
    }
}
