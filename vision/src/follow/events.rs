//! What following a game reports: the events of `tablelens follow` (CONTRACT.md). Each
//! serialises to one JSON object with an `event` field naming its kind and the `frame` it
//! came from (the number of the frame, counted from 0 over the whole game).

use serde::{Deserialize, Serialize};
use tablelens_engine::{CityId, Layout, Side, Token};

/// One event of a followed game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A new stable table state. Units carry `arrived` (arrival order in their city; pieces
    /// already there when following started share 0, their order being unknown).
    Confirmed {
        /// The frame that confirmed it.
        frame: u64,
        /// The table state, without image positions.
        layout: Layout,
    },
    /// A token vanished from a card that stayed in place.
    TokenMissing {
        /// The frame whose confirmed state lacks the token.
        frame: u64,
        /// The card the token lay on.
        card: String,
        /// The city of that card.
        city: CityId,
        /// The side of that card.
        side: Side,
        /// The token that vanished.
        token: Token,
        /// The first frame in which the token was no longer seen.
        since: u64,
        /// The stable id of the physical card (for a correction).
        piece: u64,
    },
    /// A unit entered a future city where the opponent had no card, and no +1 token
    /// appeared on it.
    BonusDue {
        /// The frame whose confirmed state shows the unit there without its +1.
        frame: u64,
        /// The unit's card.
        card: String,
        /// The city it entered.
        city: CityId,
        /// Its side.
        side: Side,
        /// The stable id of the physical card.
        piece: u64,
    },
    /// A battle was resolved (the active city lost a district or was flipped).
    Battle {
        /// The frame whose confirmed state showed the battle over.
        frame: u64,
        /// Where it was fought.
        city: CityId,
        /// `moloch`, `outpost`, `draw` or `none`.
        winner: String,
        /// The frame of the confirmed state the battle was judged on (the table before
        /// the district fell).
        state_frame: u64,
        /// The battle result of CONTRACT.md: totals, winner, reason, consequences.
        result: serde_json::Value,
    },
    /// A correction: the user put a vanished token back (in memory; the table may still
    /// lack it).
    TokenRestored {
        /// The last frame processed when the correction was made.
        frame: u64,
        /// The card.
        card: String,
        /// Its city.
        city: CityId,
        /// Its side.
        side: Side,
        /// The token restored.
        token: Token,
        /// The stable id of the physical card.
        piece: u64,
    },
    /// A frame left out because a large part of the table vanished at once (a hand over
    /// the table, the camera knocked).
    Ignored {
        /// The frame.
        frame: u64,
        /// Why, in words.
        reason: String,
    },
}

impl Event {
    /// The frame the event came from.
    pub fn frame(&self) -> u64 {
        match self {
            Event::Confirmed { frame, .. }
            | Event::TokenMissing { frame, .. }
            | Event::BonusDue { frame, .. }
            | Event::Battle { frame, .. }
            | Event::TokenRestored { frame, .. }
            | Event::Ignored { frame, .. } => *frame,
        }
    }

    /// The event's kind as written in its `event` field.
    pub fn kind(&self) -> &'static str {
        match self {
            Event::Confirmed { .. } => "confirmed",
            Event::TokenMissing { .. } => "token_missing",
            Event::BonusDue { .. } => "bonus_due",
            Event::Battle { .. } => "battle",
            Event::TokenRestored { .. } => "token_restored",
            Event::Ignored { .. } => "ignored",
        }
    }

    /// One readable line.
    pub fn describe(&self) -> String {
        match self {
            Event::Confirmed { frame, layout } => {
                let units: usize = layout
                    .cities
                    .iter()
                    .map(|c| c.moloch.len() + c.outpost.len())
                    .sum();
                let active = layout
                    .active_city()
                    .map_or("none (game over)".to_string(), |c| c.to_string());
                format!("frame {frame}: table confirmed: {units} units, active city {active}")
            }
            Event::TokenMissing {
                frame,
                card,
                city,
                token,
                since,
                ..
            } => format!(
                "frame {frame}: token {token} missing from {card} in {city} since frame {since}"
            ),
            Event::BonusDue {
                frame, card, city, ..
            } => format!("frame {frame}: {card} entered undefended {city}: it is due a +1 token"),
            Event::Battle {
                frame,
                city,
                winner,
                result,
                ..
            } => {
                let total = |s: &str| result[s]["total"].as_i64().unwrap_or(0);
                format!(
                    "frame {frame}: battle in {city}: Moloch {} : Outpost {}, winner {winner}",
                    total("moloch"),
                    total("outpost")
                )
            }
            Event::TokenRestored {
                frame,
                card,
                city,
                token,
                ..
            } => format!("frame {frame}: token {token} restored on {card} in {city}"),
            Event::Ignored { frame, reason } => format!("frame {frame}: ignored ({reason})"),
        }
    }
}
