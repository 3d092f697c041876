//! Band of Brothers, series rules v2.2 (with its Pacific rules), as a desktop
//! wargame on Bevy.
//!
//! Orders go in, events come out, and the rulebook sits in between
//! (see `docs/architecture.md`). This crate holds:
//! - [`scenario`]: the scenario card, roster and Player Aid as checked data;
//! - [`world`]: the ECS world (hexes, units, markers as entities) and the
//!   plain [`world::board::Board`] view that rule functions read;
//! - [`ui`]: the board on screen and the egui panels;
//! - [`app`]: the Bevy application, its states and the screenshot runner.

pub mod app;
pub mod bot;
pub mod cli;
pub mod engine;
pub mod journal;
pub mod map;
pub mod narrate;
pub mod rules;
pub mod scenario;
pub mod settings;
pub mod ui;
pub mod world;
