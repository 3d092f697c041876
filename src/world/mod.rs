//! The ECS world: hexes, units and markers as entities (see
//! `docs/architecture.md`), and the plain [`board::Board`] that rule
//! functions read.

pub mod board;
pub mod components;
pub mod fast_hash;
pub mod queries;
pub mod spawn;
pub mod unit_id;

pub use board::Board;
pub use components::*;
pub use unit_id::{UnitId, UnitName};
