//! The ECS world: hexes, units and markers as entities (see
//! `docs/architecture.md`), and the plain [`board::Board`] that rule
//! functions read.

pub mod components;
pub mod load;
pub mod queries;
pub mod spawn;

pub use crate::map::board::{self, Board};
pub use crate::map::fast_hash;
pub use crate::map::unit_id::{UnitId, UnitName};
pub use components::*;
pub use load::{check_bytes, load};
