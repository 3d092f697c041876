//! The map as plain data, free of Bevy: the [`board::Board`] that rule
//! functions read, what a line of sight over it meets ([`sight`]), unit
//! ids, and the fast hash tables they are kept in.

pub mod board;
pub mod fast_hash;
pub mod sight;
pub mod unit_id;

pub use board::Board;
pub use unit_id::{UnitId, UnitName};
