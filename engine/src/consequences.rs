//! What a battle's result sets off, in rulebook order: (1) the winner's units with a win
//! trigger, (2) the city's victory effect, (3) the fought district's effect (a Bomb fires
//! always), then the district is marked destroyed and, if it was the city's last, Moloch
//! must move a robot on and the city is flipped.

use crate::catalogue::{Catalogue, DistrictEffect, VictoryEffect};
use crate::context::{CityContext, UnitView};
use crate::ids::{card, CityId, Kind, Side};
use crate::layout::Layout;
use crate::outcome::Winner;

/// The consequences of a battle in the active city, as sentences in the order they apply.
pub fn consequences(
    catalogue: &Catalogue,
    layout: &Layout,
    ctx: &CityContext,
    winner: Winner,
) -> Vec<String> {
    let mut out = Vec::new();
    let city = ctx.layout.id;
    let name = &ctx.city.names.en;
    let total = ctx.districts();
    // Capped: a layout built in memory may skip validation, which allows at most 4.
    let before = ctx.layout.districts_destroyed.min(4);
    let fought = fought_district(ctx);

    if let Some(side) = winner.side() {
        win_triggers(ctx, side, &mut out);
        let others_left = total.saturating_sub(before + 1);
        victory_effect(catalogue, ctx, side, others_left, &mut out);
        match fought {
            Fought::Known(n, effect) => {
                out.push(district_effect(catalogue, layout, ctx, city, Some(side), n, effect))
            }
            Fought::Unknown(why) => out.push(format!(
                "District effect: {why}; apply the fought district's effect for {side} (a Bomb fires for both)"
            )),
        }
    } else {
        let why = if winner == Winner::None {
            "EMP Assault: no winner"
        } else {
            "Draw: no victory effects"
        };
        match fought {
            Fought::Known(n, DistrictEffect::Bomb) => {
                out.push(format!("{why}; only the Bomb fires"));
                out.push(district_effect(catalogue, layout, ctx, city, None, n, DistrictEffect::Bomb));
            }
            Fought::Known(_, _) => out.push(format!("{why} and no district effect")),
            Fought::Unknown(_) => out.push(format!(
                "{why}; no district effect unless the fought district is a Bomb (then Moloch kills a soldier, then Outpost kills a robot, in {name})"
            )),
        }
    }

    let district = match ctx.layout.battle_district {
        Some(n) if n > 0 => format!("district {n}"),
        _ => "the fought district".to_string(),
    };
    out.push(format!("{name}: {district} is marked destroyed"));

    let extra = u32::from(winner == Winner::Moloch && total > before + 1);
    if before + 1 + extra >= total {
        city_falls(catalogue, layout, ctx, &mut out);
    }
    out
}

enum Fought {
    Known(u32, DistrictEffect),
    Unknown(&'static str),
}

fn fought_district(ctx: &CityContext) -> Fought {
    let Some(n) = ctx.layout.battle_district else {
        return Fought::Unknown("the battle marker's district is not identified");
    };
    // District 0 does not exist (validation refuses it; a layout built in memory may not).
    let Some(index) = (n as usize).checked_sub(1) else {
        return Fought::Unknown("the battle marker's district is not identified");
    };
    // Jersey Crust's extra district has no printed effect unless the player entered one.
    match ctx.city.district_effect(index) {
        Some(e) => Fought::Known(n, e),
        None => Fought::Unknown("this city's district effects are not confirmed"),
    }
}

fn win_triggers(ctx: &CityContext, side: Side, out: &mut Vec<String>) {
    for u in ctx.side(side) {
        if !ctx.ability_works(u) {
            continue;
        }
        let text = match u.card.id.as_str() {
            card::DEFENDER => "Defender: a random card from Moloch's discard pile goes on top of Moloch's deck",
            card::CPT_JOHNSON => "Cpt. Johnson: discard Moloch's top deck card (deck empty: a robot here that is not immune, else a random card from Moloch's hand)",
            card::HEAVY_MACHINE_GUN => "Heavy Machine Gun: a +2 token on a soldier here (it may be itself)",
            _ => continue,
        };
        out.push(text.to_string());
    }
}

fn victory_effect(
    catalogue: &Catalogue,
    ctx: &CityContext,
    side: Side,
    others_left: u32,
    out: &mut Vec<String>,
) {
    let name = &ctx.city.names.en;
    let empty_deck = "; if Moloch's deck is empty, Outpost discards robots of its choice from the active city instead (immunity does not protect), else random cards from Moloch's hand";
    let text = match ctx.city.victory(side) {
        VictoryEffect::DiscardTopCard => format!("{name} victory: discard Moloch's top deck card{empty_deck}"),
        VictoryEffect::DiscardTopTwoCards => {
            format!("{name} victory: discard Moloch's top two deck cards{empty_deck}")
        }
        VictoryEffect::RevealTwoDiscardOne => format!(
            "{name} victory: reveal Moloch's top two deck cards, Outpost discards one and the other is shuffled back{empty_deck}"
        ),
        VictoryEffect::DestroyAnotherDistrict | VictoryEffect::DestroyAnotherDistrictWithEffect => {
            let with = ctx.city.victory(side) == VictoryEffect::DestroyAnotherDistrictWithEffect;
            let target = if others_left > 0 {
                format!("another district of {name}")
            } else {
                match ctx.layout.id.next() {
                    Some(next) => format!(
                        "a district of {} (none is left here)",
                        catalogue.city(next).names.en
                    ),
                    None => "no district (none is left)".to_string(),
                }
            };
            if with {
                format!("{name} victory: Moloch destroys {target} and applies its effect")
            } else {
                format!("{name} victory: Moloch destroys {target}; its effect does not apply unless it is a Bomb")
            }
        }
    };
    out.push(text);
}

fn district_effect(
    catalogue: &Catalogue,
    layout: &Layout,
    ctx: &CityContext,
    city: CityId,
    winner: Option<Side>,
    n: u32,
    effect: DistrictEffect,
) -> String {
    let name = &ctx.city.names.en;
    let head = format!("District {n} ({})", effect.as_str());
    let blocker = if ctx.working(Side::Moloch, card::BLOCKER) > 0 {
        " (the Blocker is removed instead)"
    } else {
        ""
    };
    match (effect, winner) {
        (DistrictEffect::Bomb, _) => {
            let soldier = if ctx.outpost.iter().any(|u| u.card.kind == Kind::Soldier) {
                "Moloch kills one soldier (not a building)"
            } else {
                "Moloch has no soldier to kill"
            };
            let robot = if ctx.moloch.is_empty() {
                "Outpost has no robot to kill".to_string()
            } else {
                format!("Outpost kills one robot with its module{blocker}")
            };
            format!("{head}: {soldier}, then {robot}, in {name}")
        }
        (DistrictEffect::Draw, Some(side)) => format!("{head}: {side} draws a card"),
        (DistrictEffect::Kill, Some(Side::Moloch)) => {
            if ctx.outpost.iter().any(|u| u.card.kind == Kind::Soldier) {
                format!("{head}: Moloch kills one soldier in {name} (not a building)")
            } else {
                format!("{head}: Moloch has no soldier in {name} to kill")
            }
        }
        (DistrictEffect::Kill, Some(Side::Outpost)) => {
            if ctx.moloch.is_empty() {
                format!("{head}: Outpost has no robot in {name} to kill")
            } else {
                format!("{head}: Outpost kills one robot in {name} with its module{blocker}")
            }
        }
        (DistrictEffect::ToNewYork, Some(side)) => {
            to_new_york(catalogue, layout, ctx, city, side, &head)
        }
        (_, None) => format!("{head}: no effect"),
    }
}

fn to_new_york(
    catalogue: &Catalogue,
    layout: &Layout,
    ctx: &CityContext,
    city: CityId,
    side: Side,
    head: &str,
) -> String {
    if city == CityId::NewYork {
        return format!("{head}: the battle is in New York already; nothing to move");
    }
    let movable: Vec<&UnitView> = ctx
        .side(side)
        .iter()
        .filter(|u| match side {
            Side::Moloch => !blocked_by_field(ctx, u),
            Side::Outpost => u.card.kind == Kind::Soldier,
        })
        .collect();
    if movable.is_empty() {
        return format!("{head}: {side} has no unit here that may move to New York");
    }
    let ny_layout = layout
        .city(CityId::NewYork)
        .cloned()
        .unwrap_or_else(|| crate::layout::CityLayout::empty(CityId::NewYork));
    let ny = CityContext::new(catalogue, &ny_layout);
    let (slots, _) = ny.slots(side);
    let free = slots - ny.slots_taken(side);
    if free <= 0 {
        return format!("{head}: {side} may not move a unit to New York: no free slot there");
    }
    let bonus = if ny.side(side.opponent()).is_empty() {
        format!(
            " and it gets a +1 token ({} holds no slot there)",
            side.opponent()
        )
    } else {
        String::new()
    };
    format!("{head}: {side} may move one unit from here to New York{bonus}")
}

/// Whether an Electromagnetic Field keeps this robot in its city.
fn blocked_by_field(ctx: &CityContext, u: &UnitView) -> bool {
    ctx.working(Side::Outpost, card::EM_FIELD) > 0 && !ctx.immune(u)
}

fn city_falls(catalogue: &Catalogue, layout: &Layout, ctx: &CityContext, out: &mut Vec<String>) {
    let name = &ctx.city.names.en;
    out.push(format!("{name} is destroyed: every district is gone"));
    // Robots that leave with Moloch's mandatory move (it comes before the flip).
    let mut moving_on = 0;
    match ctx.layout.id.next() {
        None => out.push(
            "New York has fallen: the game ends. Moloch wins with a card left in its deck or a robot in New York, else Outpost wins"
                .to_string(),
        ),
        Some(next) => {
            let next_name = &catalogue.city(next).names.en;
            let movable: Vec<&str> = ctx
                .moloch
                .iter()
                .filter(|u| !u.is(card::JUGGERNAUT) && !blocked_by_field(ctx, u))
                .map(|u| u.card.id.as_str())
                .collect();
            if movable.is_empty() {
                out.push(format!(
                    "Moloch's move: no robot in {name} can move on (none, or only the Juggernaut or robots held by the Electromagnetic Field)"
                ));
            } else {
                let next_layout = layout
                    .city(next)
                    .cloned()
                    .unwrap_or_else(|| crate::layout::CityLayout::empty(next));
                let nc = CityContext::new(catalogue, &next_layout);
                let (slots, _) = nc.slots(Side::Moloch);
                let fate = if slots - nc.slots_taken(Side::Moloch) <= 0 {
                    format!("; {next_name} has no free Moloch slot, so that robot is discarded with its module")
                } else {
                    String::new()
                };
                moving_on = 1;
                out.push(format!(
                    "Moloch's move: Moloch must move one robot ({}) from {name} to {next_name}, with no bonus{fate}",
                    movable.join(", ")
                ));
            }
        }
    }
    let spiders = ctx.moloch.iter().filter(|u| u.is(card::SPIDERS)).count();
    let staying = ctx.moloch.len() - moving_on;
    if spiders > 0 && staying as i64 > i64::from(ctx.city.moloch_slots.value) {
        out.push(format!(
            "Spiders in {name} lose their ability: those over Moloch's slots are discarded"
        ));
    }
    out.push(format!(
        "{name} is flipped to its destroyed side and its markers are removed"
    ));
}
