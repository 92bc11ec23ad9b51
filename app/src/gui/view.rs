//! What the window shows for one frame, worked out once when the frame (or a correction)
//! arrives: the corrected layout, the battle, every city's totals and every unit's points.

use tablelens_engine::context::CityContext;
use tablelens_engine::strength::side_strength;
use tablelens_engine::{battle, BattleResult, Catalogue, CityId, Corners, Layout, Side};

/// One city's totals.
#[derive(Debug, Clone, PartialEq)]
pub struct CityTotals {
    /// The city.
    pub id: CityId,
    /// Whether its card was seen on the table.
    pub seen: bool,
    /// Whether it is destroyed.
    pub destroyed: bool,
    /// Whether the battle is fought here.
    pub active: bool,
    /// Moloch's strength there.
    pub moloch: i32,
    /// Outpost's strength there.
    pub outpost: i32,
    /// Where its card lies, when seen.
    pub corners: Option<Corners>,
}

/// A unit's place and points, for the overlay.
#[derive(Debug, Clone, PartialEq)]
pub struct UnitMark {
    /// Where the unit's card lies.
    pub corners: Corners,
    /// Its card id.
    pub card: String,
    /// Its city.
    pub city: CityId,
    /// Its side.
    pub side: Side,
    /// Its strength in its city.
    pub total: i32,
    /// Tokens on it.
    pub tokens: Vec<tablelens_engine::Token>,
    /// Whether it is netted.
    pub netted: bool,
}

/// Everything derived from one layout.
#[derive(Debug, Clone)]
pub struct View {
    /// The layout after the player's corrections.
    pub layout: Layout,
    /// The battle in the active city; `None` when no city is seen, `Err` when none is left.
    pub battle: Option<Result<BattleResult, String>>,
    /// The five cities.
    pub cities: Vec<CityTotals>,
    /// Every placed unit.
    pub units: Vec<UnitMark>,
}

impl View {
    /// Works out the view of a layout. `has_cities` is false when no city card was seen.
    pub fn new(cat: &Catalogue, layout: Layout, has_cities: bool) -> View {
        let active = layout.active_city();
        let seen: Vec<CityId> = layout.cities.iter().map(|c| c.id).collect();
        let mut cities = Vec::new();
        let mut units = Vec::new();
        for city in layout.full_cities() {
            let ctx = CityContext::new(cat, &city);
            let mut ignored = Vec::new();
            let m = side_strength(&ctx, Side::Moloch, &mut ignored);
            let o = side_strength(&ctx, Side::Outpost, &mut ignored);
            for (side, st) in [(Side::Moloch, &m), (Side::Outpost, &o)] {
                for (unit, s) in city.side(side).iter().zip(&st.units) {
                    if let Some(c) = unit.corners {
                        units.push(UnitMark {
                            corners: c,
                            card: unit.card.clone(),
                            city: city.id,
                            side,
                            total: s.total,
                            tokens: unit.tokens.clone(),
                            netted: unit.netted,
                        });
                    }
                }
            }
            cities.push(CityTotals {
                id: city.id,
                seen: seen.contains(&city.id),
                destroyed: city.destroyed,
                active: has_cities && active == Some(city.id),
                moloch: m.total,
                outpost: o.total,
                corners: city.corners,
            });
        }
        let battle = has_cities.then(|| battle(cat, &layout).map_err(|e| e.to_string()));
        View {
            layout,
            battle,
            cities,
            units,
        }
    }

    /// Where a unit of this card lies in a city and side: the one nearest `near` when
    /// there are several.
    pub fn place_of(
        &self,
        city: CityId,
        side: Side,
        card: &str,
        near: Option<[f32; 2]>,
    ) -> Option<Corners> {
        let distance = |u: &UnitMark| {
            near.map_or(0.0, |p| {
                let c = super::correction::centre(&u.corners);
                (c[0] - p[0]).powi(2) + (c[1] - p[1]).powi(2)
            })
        };
        self.units
            .iter()
            .filter(|u| u.city == city && u.side == side && u.card == card)
            .min_by(|a, b| distance(a).total_cmp(&distance(b)))
            .map(|u| u.corners)
    }

    /// The unit at a place, if any.
    pub fn unit_at(&self, corners: &Corners) -> Option<&UnitMark> {
        self.units
            .iter()
            .find(|u| super::correction::same_place(&u.corners, corners))
    }
}
