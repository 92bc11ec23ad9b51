//! Who works and who is protected in one city: the shared ground of strength, outcome,
//! consequences and legality.
//!
//! Rules applied here:
//! - nothing works in a destroyed city;
//! - a netted unit has no ability this battle;
//! - a Hacker's `disable` token switches off that robot's (or module's) ability;
//! - a working EMP Launcher switches off robot abilities and the special modules of Moloch
//!   robots in its city, except for a robot that was immune (Dreadnought, or a shield
//!   token) and arrived **before** the EMP Launcher; such a robot keeps its immunity;
//! - the Dreadnought and shielded robots are immune to Outpost soldier and building
//!   abilities (a shield protects the robot's module too); a disabled Dreadnought is not
//!   (its immunity is its ability), a disabled shielded robot still is (the shield is a token);
//! - modules taken over by Outpost work normally, EMP Launcher or not.

use crate::catalogue::{Card, Catalogue, City};
use crate::ids::{card, Kind, Side, Token};
use crate::layout::{CityLayout, Unit};

/// One unit with its catalogue entries.
#[derive(Debug, Clone, Copy)]
pub struct UnitView<'a> {
    /// The unit as laid out.
    pub unit: &'a Unit,
    /// Its card.
    pub card: &'a Card,
    /// The card of its module, if any.
    pub module: Option<&'a Card>,
    /// Whose it is.
    pub side: Side,
    /// Its position in its side's list.
    pub index: usize,
}

impl UnitView<'_> {
    /// Whether the unit is this card.
    pub fn is(&self, id: &str) -> bool {
        self.card.id == id
    }

    /// Whether its module is this card.
    pub fn module_is(&self, id: &str) -> bool {
        self.module.is_some_and(|m| m.id == id)
    }
}

/// One city's units, resolved against the catalogue, with the rules of who works.
#[derive(Debug, Clone)]
pub struct CityContext<'a> {
    /// The city as laid out.
    pub layout: &'a CityLayout,
    /// The city card's data.
    pub city: &'a City,
    /// Moloch's units.
    pub moloch: Vec<UnitView<'a>>,
    /// Outpost's units.
    pub outpost: Vec<UnitView<'a>>,
    /// Arrival of each EMP Launcher here (None when not recorded).
    emp_arrivals: Vec<Option<u32>>,
}

impl<'a> CityContext<'a> {
    /// Resolves a city. Units whose card the catalogue does not know are left out
    /// (a validated layout has none).
    pub fn new(catalogue: &'a Catalogue, layout: &'a CityLayout) -> CityContext<'a> {
        let resolve = |side: Side| -> Vec<UnitView<'a>> {
            layout
                .side(side)
                .iter()
                .enumerate()
                .filter_map(|(index, unit)| {
                    let card = catalogue.card(&unit.card)?;
                    let module = unit.module.as_ref().and_then(|m| catalogue.card(&m.card));
                    Some(UnitView {
                        unit,
                        card,
                        module,
                        side,
                        index,
                    })
                })
                .collect()
        };
        let moloch = resolve(Side::Moloch);
        let outpost = resolve(Side::Outpost);
        let standing = !layout.destroyed;
        let emp_arrivals = outpost
            .iter()
            .filter(|u| standing && u.is(card::EMP_LAUNCHER))
            .map(|u| u.unit.arrived)
            .collect();
        CityContext {
            layout,
            city: catalogue.city(layout.id),
            moloch,
            outpost,
            emp_arrivals,
        }
    }

    /// The units of a side.
    pub fn side(&self, side: Side) -> &[UnitView<'a>] {
        match side {
            Side::Moloch => &self.moloch,
            Side::Outpost => &self.outpost,
        }
    }

    /// Whether the city is not destroyed (abilities work only then).
    pub fn standing(&self) -> bool {
        !self.layout.destroyed
    }

    /// Whether a working EMP Launcher stands here.
    pub fn emp_present(&self) -> bool {
        !self.emp_arrivals.is_empty()
    }

    /// Whether the robot arrived before every EMP Launcher here; `None` when an arrival
    /// is not recorded.
    pub fn arrived_before_emp(&self, robot: &UnitView) -> Option<bool> {
        let mine = robot.unit.arrived?;
        let mut before = true;
        for emp in &self.emp_arrivals {
            before &= mine < (*emp)?;
        }
        Some(before)
    }

    /// Immunity the robot carries in itself: a shield token, or a Dreadnought whose
    /// ability is not disabled.
    fn carries_immunity(&self, robot: &UnitView) -> bool {
        robot.side == Side::Moloch
            && (robot.unit.has(Token::Shield)
                || (robot.is(card::DREADNOUGHT) && !robot.unit.has(Token::Disable)))
    }

    /// Immune and there before the EMP Launcher, so the EMP Launcher does not touch it.
    /// An unrecorded arrival counts as after.
    fn shielded_from_emp(&self, robot: &UnitView) -> bool {
        self.carries_immunity(robot) && self.arrived_before_emp(robot) == Some(true)
    }

    /// Whether a Moloch robot is immune to Outpost soldier and building abilities here.
    pub fn immune(&self, robot: &UnitView) -> bool {
        !robot.unit.netted && self.immune_unless_netted(robot)
    }

    /// Immunity as it stands before any net: what decides whether a net could catch it.
    pub fn immune_unless_netted(&self, robot: &UnitView) -> bool {
        self.carries_immunity(robot) && (!self.emp_present() || self.shielded_from_emp(robot))
    }

    /// Whether an immune robot's standing depends on an arrival order that is not recorded.
    pub fn arrival_unknown(&self, robot: &UnitView) -> bool {
        self.emp_present()
            && self.carries_immunity(robot)
            && self.arrived_before_emp(robot).is_none()
    }

    /// Whether a unit's own ability works.
    pub fn ability_works(&self, u: &UnitView) -> bool {
        if !self.standing() || u.unit.netted {
            return false;
        }
        match u.card.kind {
            Kind::Robot => {
                !u.unit.has(Token::Disable) && (!self.emp_present() || self.shielded_from_emp(u))
            }
            _ => true,
        }
    }

    /// Whether the special ability of the unit's module works (false for power modules
    /// and for no module).
    pub fn module_ability_works(&self, u: &UnitView) -> bool {
        let Some(m) = u.module else { return false };
        let disabled = u
            .unit
            .module
            .as_ref()
            .is_some_and(|m| m.tokens.contains(&Token::Disable));
        if !m.is_special_module() || !self.standing() || u.unit.netted || disabled {
            return false;
        }
        match u.side {
            // A module taken over by Outpost works normally.
            Side::Outpost => true,
            Side::Moloch => !self.emp_present() || self.shielded_from_emp(u),
        }
    }

    /// Units of a side that are this card and whose ability works.
    pub fn working(&self, side: Side, id: &str) -> usize {
        self.side(side)
            .iter()
            .filter(|u| u.is(id) && self.ability_works(u))
            .count()
    }

    /// Units of a side carrying this module with its ability working.
    pub fn working_modules(&self, side: Side, id: &str) -> usize {
        self.side(side)
            .iter()
            .filter(|u| u.module_is(id) && self.module_ability_works(u))
            .count()
    }

    /// Slots of a side in force, with the printed value and each modifier's reason.
    pub fn slots(&self, side: Side) -> (i64, Vec<String>) {
        let printed = i64::from(self.city.slots(side).value);
        let mut total = printed;
        let mut why = vec![format!("{printed} printed")];
        match side {
            Side::Moloch => {
                let n = self.working_modules(Side::Outpost, card::CONTAMINATION_MODULE) as i64;
                if n > 0 {
                    total -= n;
                    why.push(format!("-{n} Contamination Module taken over by Outpost"));
                }
            }
            Side::Outpost => {
                let a = self.working(Side::Moloch, card::ANNIHILATOR) as i64;
                if a > 0 {
                    total -= a;
                    why.push(format!("-{a} Annihilator"));
                }
                let c = self.working_modules(Side::Moloch, card::CONTAMINATION_MODULE) as i64;
                if c > 0 {
                    total -= c;
                    why.push(format!("-{c} Contamination Module"));
                }
                if self.standing()
                    && self.layout.feature_used
                    && self.city.feature == crate::catalogue::Feature::ExtraOutpostSlot
                {
                    total += 1;
                    why.push("+1 Cleveland Harbour feature".to_string());
                }
            }
        }
        (total.max(0), why)
    }

    /// Slots a side's units take: every unit one, but Spiders none while their ability works.
    pub fn slots_taken(&self, side: Side) -> i64 {
        self.side(side)
            .iter()
            .filter(|u| !(u.is(card::SPIDERS) && self.spiders_slot_free(u)))
            .count() as i64
    }

    /// Whether Spiders take no slot: their ability on (netting lasts only the battle and
    /// does not push them out).
    fn spiders_slot_free(&self, u: &UnitView) -> bool {
        self.standing()
            && !u.unit.has(Token::Disable)
            && (!self.emp_present() || self.shielded_from_emp(u))
    }

    /// Districts the city has now: printed, plus Jersey Crust's extra one.
    pub fn districts(&self) -> u32 {
        self.city.districts.value + u32::from(self.layout.extra_district)
    }
}
