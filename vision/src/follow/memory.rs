//! What a single photo cannot show: the arrival order of units in each city (the EMP
//! Launcher rule), tokens that vanished from a card that stayed, and +1 tokens due for
//! entering an undefended future city.

use super::events::Event;
use super::track::{PieceRef, Tracker};
use super::Snapshot;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use tablelens_engine::{Catalogue, CityId, Kind, Layout, Side, Token, Unit};

/// What changed between two confirmed states, for the battle log.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Changes {
    /// A unit came onto the table (played, not moved).
    pub played: bool,
    /// A module appeared under a unit.
    pub module_added: bool,
    /// A unit left the active city of the earlier state.
    pub removed_from_active: bool,
}

/// Arrival order per city, by track id.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Memory {
    /// Track id to (city, arrival number).
    arrivals: BTreeMap<u64, (CityId, u32)>,
    /// Last arrival number given per city (table order).
    last: Vec<u32>,
}

fn unit<'a>(layout: &'a Layout, r: &PieceRef) -> Option<&'a Unit> {
    layout.city(r.city)?.side(r.side).get(r.index)
}

fn future(layout: &Layout, city: CityId) -> bool {
    let destroyed = layout.city(city).is_some_and(|c| c.destroyed);
    !destroyed && layout.active_city().is_some_and(|a| a < city)
}

impl Memory {
    /// Called on every confirmed state: fills `arrived` in `new` and reports token
    /// memory and bonus events.
    pub fn on_confirm(
        &mut self,
        cat: &Catalogue,
        prev: Option<&Snapshot>,
        new: &mut Snapshot,
        tracker: &Tracker,
    ) -> (Vec<Event>, Changes) {
        if self.last.len() != 5 {
            self.last = vec![0; 5];
        }
        let mut events = Vec::new();
        let mut changes = Changes::default();
        let frame = new.frame;
        let Some(prev) = prev else {
            // Already on the table when following began: order unknown, all share 0.
            self.arrivals = new.refs.iter().map(|r| (r.id, (r.city, 0))).collect();
            fill_arrivals(&mut new.layout, &new.refs, &self.arrivals);
            return (events, changes);
        };
        let new_ids: Vec<u64> = new.refs.iter().map(|r| r.id).collect();
        let mut gone: Vec<PieceRef> = prev
            .refs
            .iter()
            .filter(|r| !new_ids.contains(&r.id))
            .copied()
            .collect();
        let active = prev.layout.active_city();
        changes.removed_from_active = gone.iter().any(|r| Some(r.city) == active);

        for r in &new.refs {
            let Some(u) = unit(&new.layout, r) else {
                continue;
            };
            if let Some(pr) = prev.refs.iter().find(|p| p.id == r.id) {
                // The same card, still there: tokens that vanished, a module that appeared.
                let Some(old) = unit(&prev.layout, pr) else {
                    continue;
                };
                if old.module.is_none() && u.module.is_some() {
                    changes.module_added = true;
                }
                for t in Token::ALL {
                    let (was, is) = (old.count(t), u.count(t));
                    for _ in is..was {
                        let since = tracker
                            .track(r.id)
                            .and_then(|tr| tr.missing_since(t, was))
                            .unwrap_or(frame);
                        events.push(Event::TokenMissing {
                            frame,
                            card: u.card.clone(),
                            city: r.city,
                            side: r.side,
                            token: t,
                            since,
                            piece: r.id,
                        });
                    }
                }
                continue;
            }
            // A card new here: the same card seen again in the same city, moved from
            // another city, or played.
            let from = gone
                .iter()
                .position(|g| {
                    g.side == r.side
                        && g.city == r.city
                        && unit(&prev.layout, g).is_some_and(|o| o.card == u.card)
                })
                .or_else(|| {
                    gone.iter().position(|g| {
                        g.side == r.side && unit(&prev.layout, g).is_some_and(|o| o.card == u.card)
                    })
                })
                .map(|i| gone.remove(i));
            if let Some(g) = from.filter(|g| g.city == r.city) {
                let n = self.arrivals.get(&g.id).map_or(0, |a| a.1);
                self.arrivals.insert(r.id, (r.city, n));
                continue;
            }
            let i = r.city.index();
            self.last[i] += 1;
            self.arrivals.insert(r.id, (r.city, self.last[i]));
            if from.is_none() {
                changes.played = true;
            }
            if u.module.is_some() && from.is_none() {
                changes.module_added = true;
            }

            // Bonus for an undefended future city.
            let building = cat.card(&u.card).is_some_and(|c| c.kind == Kind::Building);
            let opponent = match r.side {
                Side::Moloch => Side::Outpost,
                Side::Outpost => Side::Moloch,
            };
            let undefended = prev
                .layout
                .city(r.city)
                .is_none_or(|c| c.side(opponent).is_empty());
            if !building
                && undefended
                && future(&prev.layout, r.city)
                && future(&new.layout, r.city)
            {
                let had = from
                    .and_then(|g| unit(&prev.layout, &g))
                    .map_or(0, |o| o.count(Token::Plus1));
                if u.count(Token::Plus1) <= had {
                    events.push(Event::BonusDue {
                        frame,
                        card: u.card.clone(),
                        city: r.city,
                        side: r.side,
                        piece: r.id,
                    });
                }
            }
        }
        self.arrivals.retain(|id, _| new_ids.contains(id));
        fill_arrivals(&mut new.layout, &new.refs, &self.arrivals);
        (events, changes)
    }
}

fn fill_arrivals(layout: &mut Layout, refs: &[PieceRef], arrivals: &BTreeMap<u64, (CityId, u32)>) {
    for r in refs {
        let n = arrivals.get(&r.id).map(|a| a.1);
        if let Some(u) = layout
            .cities
            .iter_mut()
            .find(|c| c.id == r.city)
            .and_then(|c| c.side_mut(r.side).get_mut(r.index))
        {
            u.arrived = n;
        }
    }
}
