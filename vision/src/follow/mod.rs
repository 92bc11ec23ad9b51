//! Following a whole game through camera frames (pure, no I/O).
//!
//! Feed a [`Follower`] the layout seen in each frame, in order (from the
//! [`crate::perceive::Analyzer`], or a true layout in tests); it answers with
//! [`Event`]s:
//! - [`track`]: pieces matched frame to frame, majority over a window, hand frames left
//!   out, a table state *confirmed* once stable;
//! - [`memory`]: arrival order per city (`arrived` in every confirmed layout), tokens that
//!   vanished from a card that stayed (`token_missing`), +1 tokens due (`bonus_due`);
//! - [`battles`]: each resolved battle with its result (`battle`).
//!
//! The whole follower is serialisable ([`Follower::to_json`]), so that a journal can store
//! it after every frame and a restarted process resumes exactly where it stopped.

pub mod battles;
pub mod events;
pub mod memory;
pub mod track;

pub use events::Event;
pub use track::{canonical, Outcome, PieceRef, TrackConfig, Tracker};

use serde::{Deserialize, Serialize};
use tablelens_engine::{Catalogue, CityId, Layout, Side, Token};

/// A confirmed table state and where each of its units comes from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    /// The frame that confirmed it.
    pub frame: u64,
    /// The table, with `arrived` filled.
    pub layout: Layout,
    /// One entry per unit of `layout`.
    pub refs: Vec<PieceRef>,
}

/// Follows one game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Follower {
    tracker: Tracker,
    memory: memory::Memory,
    battles: battles::Battles,
    confirmed: Option<Snapshot>,
    /// The next frame number expected.
    next_frame: u64,
}

/// A correction that cannot be applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CorrectionError(pub String);

impl std::fmt::Display for CorrectionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CorrectionError {}

impl Follower {
    /// A follower with nothing seen.
    pub fn new(config: TrackConfig) -> Follower {
        Follower {
            tracker: Tracker::new(config),
            memory: memory::Memory::default(),
            battles: battles::Battles::default(),
            confirmed: None,
            next_frame: 0,
        }
    }

    /// The number the next frame gets (frames are counted from 0 over the whole game).
    pub fn next_frame(&self) -> u64 {
        self.next_frame
    }

    /// The last confirmed state.
    pub fn confirmed(&self) -> Option<&Snapshot> {
        self.confirmed.as_ref()
    }

    /// The tracker.
    pub fn tracker(&self) -> &Tracker {
        &self.tracker
    }

    /// Takes the layout seen in the next frame; returns what happened.
    pub fn observe(&mut self, catalogue: &Catalogue, seen: &Layout) -> Vec<Event> {
        let frame = self.next_frame;
        self.next_frame += 1;
        let stable = match self.tracker.observe(frame, seen) {
            Outcome::Ignored(reason) => return vec![Event::Ignored { frame, reason }],
            Outcome::Taken { stable } => stable,
        };
        if !stable || !self.tracker.any_city_present() {
            return Vec::new();
        }
        let (layout, refs) = self.tracker.believed();
        let changed = self
            .confirmed
            .as_ref()
            .is_none_or(|c| canonical(&c.layout) != canonical(&layout));
        if !changed {
            return Vec::new();
        }
        self.confirm(
            catalogue,
            Snapshot {
                frame,
                layout,
                refs,
            },
        )
    }

    fn confirm(&mut self, catalogue: &Catalogue, mut new: Snapshot) -> Vec<Event> {
        let prev = self.confirmed.take();
        let (mem_events, changes) =
            self.memory
                .on_confirm(catalogue, prev.as_ref(), &mut new, &self.tracker);
        let battle_events = self
            .battles
            .on_confirm(catalogue, prev.as_ref(), &new, changes);
        let mut events = vec![Event::Confirmed {
            frame: new.frame,
            layout: new.layout.clone(),
        }];
        events.extend(battle_events);
        events.extend(mem_events);
        self.confirmed = Some(new);
        events
    }

    /// A correction: the user puts a vanished token back on a card of the confirmed state
    /// (the app's one-click restore). The token then counts whether or not the camera sees
    /// it, until the card leaves the table. Returns the `token_restored` event and, when
    /// the confirmed state changed, its new `confirmed` event.
    pub fn restore_token(
        &mut self,
        piece: u64,
        token: Token,
    ) -> Result<Vec<Event>, CorrectionError> {
        let Some(conf) = &mut self.confirmed else {
            return Err(CorrectionError("no confirmed table yet".into()));
        };
        let Some(r) = conf.refs.iter().find(|r| r.id == piece).copied() else {
            return Err(CorrectionError(format!(
                "piece {piece} is not on the confirmed table"
            )));
        };
        let track = self
            .tracker
            .track_mut(piece)
            .ok_or_else(|| CorrectionError(format!("piece {piece} is no longer tracked")))?;
        track.pinned.push(token);
        let frame = self.next_frame.saturating_sub(1);
        let Some(u) = conf
            .layout
            .cities
            .iter_mut()
            .find(|c| c.id == r.city)
            .and_then(|c| c.side_mut(r.side).get_mut(r.index))
        else {
            return Err(CorrectionError(format!("piece {piece} has no place")));
        };
        u.tokens.push(token);
        u.tokens
            .sort_by_key(|t| Token::ALL.iter().position(|x| x == t));
        let card = u.card.clone();
        // The battle to come is judged with it too.
        self.battles
            .restored(conf.frame, r.city, r.side, r.index, token);
        Ok(vec![
            Event::TokenRestored {
                frame,
                card,
                city: r.city,
                side: r.side,
                token,
                piece,
            },
            Event::Confirmed {
                frame,
                layout: conf.layout.clone(),
            },
        ])
    }

    /// Finds the piece id of a card on the confirmed table (the first match).
    pub fn find_piece(&self, city: CityId, side: Option<Side>, card: &str) -> Option<u64> {
        let conf = self.confirmed.as_ref()?;
        conf.refs
            .iter()
            .find(|r| {
                r.city == city
                    && side.is_none_or(|s| s == r.side)
                    && conf
                        .layout
                        .city(r.city)
                        .and_then(|c| c.side(r.side).get(r.index))
                        .is_some_and(|u| u.card == card)
            })
            .map(|r| r.id)
    }

    /// The whole state as JSON (for a journal).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads a state written by [`Follower::to_json`].
    pub fn from_json(text: &str) -> Result<Follower, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests;
