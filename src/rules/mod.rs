//! The rulebook as pure functions over plain values. Each function names the
//! rule it implements and is tested with the rulebook's own examples.

pub mod banzai;
pub mod combat_events;
pub mod command_points;
pub mod concealment;
pub mod facing;
pub mod fire;
pub mod fortifications;
pub mod gun;
pub mod los;
pub mod melee;
pub mod monsoon;
pub mod morale;
pub mod mortar;
pub mod movement;
pub mod night;
pub mod odds;
pub mod ops_range;
pub mod paths;
pub mod quantities;
pub mod rout;
pub mod satw;
pub mod seishin;
pub mod setup;
pub mod smoke;
pub mod victory;

pub use quantities::*;
