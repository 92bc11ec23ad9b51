//! # tablelens-engine: the rules of *The Convoy*
//!
//! A library with no I/O. Load the [`Catalogue`], read a [`Layout`] (the table as
//! CONTRACT.md describes it), then ask:
//! - [`battle()`]: each side's strength in the active city with every point explained, the
//!   winner and the consequences in rulebook order;
//! - [`check`]: what breaks the rules on the table, and what is uncertain;
//! - [`game_state`]: who wins the game, given Moloch's deck and hand counts.
//!
//! ```
//! use tablelens_engine::{battle, Catalogue, Layout, Winner};
//! let cat = Catalogue::bundled();
//! let layout = Layout::from_json(
//!     r#"{"cities":[{"id":"ziggy_one","moloch":[{"card":"spiders","tokens":["-2"],"module":{"card":"destruction_module"}}]}]}"#,
//!     &cat,
//! ).unwrap();
//! let result = battle(&cat, &layout).unwrap();
//! assert_eq!(result.moloch.total, 3);
//! assert_eq!(result.winner, Winner::Moloch);
//! ```
#![warn(missing_docs)]

pub mod battle;
pub mod catalogue;
pub mod consequences;
pub mod context;
pub mod game;
pub mod ids;
pub mod layout;
pub mod legality;
pub mod outcome;
pub mod strength;

pub use battle::{battle, BattleResult, NoBattle};
pub use catalogue::{Card, Catalogue, CatalogueError, City, DistrictEffect, Known};
pub use game::{game_state, GameState};
pub use ids::{CityId, Kind, Side, Token, Trigger};
pub use layout::{CityLayout, Corners, Layout, LayoutError, MissingCard, ModuleCard, Unit};
pub use legality::{check, Findings};
pub use outcome::{Reason, Winner};
pub use strength::{Part, SideStrength, UnitStrength};
