//! Who wins the battle: higher total; a tie goes to Moloch with a working Stormtrooper in
//! the city, else it is a draw; EMP Assault ends the battle with no winner.

use crate::context::CityContext;
use crate::ids::{card, Side};
use serde::Serialize;

/// The battle's winner as written in the battle result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Winner {
    /// Moloch won.
    Moloch,
    /// Outpost won.
    Outpost,
    /// A tie without a working Stormtrooper.
    Draw,
    /// EMP Assault: no winner.
    None,
}

impl Winner {
    /// The winning side, if any.
    pub fn side(self) -> Option<Side> {
        match self {
            Winner::Moloch => Some(Side::Moloch),
            Winner::Outpost => Some(Side::Outpost),
            Winner::Draw | Winner::None => None,
        }
    }
}

/// Why the battle ended as it did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// One side had more strength.
    Strength,
    /// A tie won by Moloch's Stormtrooper.
    Stormtrooper,
    /// A tie: draw.
    Tie,
    /// Outpost played EMP Assault.
    EmpAssault,
}

/// Decides the battle from the two totals.
pub fn decide(ctx: &CityContext, moloch: i32, outpost: i32, emp_assault: bool) -> (Winner, Reason) {
    if emp_assault {
        return (Winner::None, Reason::EmpAssault);
    }
    match moloch.cmp(&outpost) {
        std::cmp::Ordering::Greater => (Winner::Moloch, Reason::Strength),
        std::cmp::Ordering::Less => (Winner::Outpost, Reason::Strength),
        std::cmp::Ordering::Equal if ctx.working(Side::Moloch, card::STORMTROOPER) > 0 => {
            (Winner::Moloch, Reason::Stormtrooper)
        }
        std::cmp::Ordering::Equal => (Winner::Draw, Reason::Tie),
    }
}
