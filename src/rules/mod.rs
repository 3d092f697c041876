//! The rulebook as pure functions over plain values. Each function names the
//! rule it implements and is tested with the rulebook's own examples.

pub mod movement;
pub mod quantities;

pub use quantities::*;
