//! The battle log. A battle is resolved when the active city loses a district or is
//! flipped. It is judged on the last confirmed state before that change, or, when units
//! left the active city in between without a card being played (a Kill district effect
//! applied before the marker was put down), on the last state before they left. After a
//! battle is logged, the next one needs a card played (or a module added) first, so the
//! second district of a Moloch victory is not taken for another battle.

use super::events::Event;
use super::memory::Changes;
use super::Snapshot;
use serde::{Deserialize, Serialize};
use tablelens_engine::{battle, Catalogue, Layout};

/// The state of the battle log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Battles {
    /// A battle may be logged (something was played since the last one).
    armed: bool,
    /// The state the next battle will be judged on, and its frame.
    basis: Option<(u64, Layout)>,
}

impl Default for Battles {
    fn default() -> Battles {
        Battles {
            armed: true,
            basis: None,
        }
    }
}

impl Battles {
    /// Called on every confirmed state, after [`super::memory::Memory::on_confirm`].
    pub fn on_confirm(
        &mut self,
        cat: &Catalogue,
        prev: Option<&Snapshot>,
        new: &Snapshot,
        changes: Changes,
    ) -> Vec<Event> {
        let mut events = Vec::new();
        let Some(prev) = prev else {
            self.basis = Some((new.frame, new.layout.clone()));
            return events;
        };
        let mut resolved = false;
        if let Some(a) = prev.layout.active_city() {
            let before = prev.layout.city(a).map_or(0, |c| c.districts_destroyed);
            let after = new.layout.city(a);
            resolved = after.is_some_and(|c| c.destroyed || c.districts_destroyed > before);
            if resolved && self.armed {
                let (state_frame, basis) = self
                    .basis
                    .take()
                    .unwrap_or_else(|| (prev.frame, prev.layout.clone()));
                if let Ok(result) = battle(cat, &basis) {
                    events.push(Event::Battle {
                        frame: new.frame,
                        city: result.city,
                        winner: serde_json::to_value(result.winner)
                            .ok()
                            .and_then(|v| v.as_str().map(str::to_string))
                            .unwrap_or_default(),
                        state_frame,
                        result: serde_json::to_value(&result).unwrap_or_default(),
                    });
                }
                self.armed = false;
                self.basis = None;
            }
        }
        if changes.played || changes.module_added {
            self.armed = true;
            self.basis = Some((new.frame, new.layout.clone()));
        } else if self.armed && !resolved && (!changes.removed_from_active || self.basis.is_none())
        {
            self.basis = Some((new.frame, new.layout.clone()));
        }
        events
    }

    /// The user put a token back on a unit of the confirmed state of `frame` (index
    /// `index` of `side` in `city`): when the next battle is to be judged on that state,
    /// it is judged with the token.
    pub fn restored(
        &mut self,
        frame: u64,
        city: tablelens_engine::CityId,
        side: tablelens_engine::Side,
        index: usize,
        token: tablelens_engine::Token,
    ) {
        let Some((f, layout)) = &mut self.basis else {
            return;
        };
        if *f != frame {
            return;
        }
        if let Some(u) = layout
            .cities
            .iter_mut()
            .find(|c| c.id == city)
            .and_then(|c| c.side_mut(side).get_mut(index))
        {
            u.tokens.push(token);
        }
    }
}
