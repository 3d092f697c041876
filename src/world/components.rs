//! Components and resources of the game world.

use bevy::prelude::*;

use crate::scenario::schema::{FortificationKind, Scenario, SideId, Spine, Terrain};
use crate::scenario::{Coord, PlayerAid, Roster};

use super::Board;

/// A hex of the map, one entity per hex.
#[derive(Component, Debug, Clone, Copy)]
pub struct HexCell {
    pub coord: Coord,
    pub terrain: Terrain,
    /// Hill level (R 47.0).
    pub level: u8,
}

/// A Squad, WT or Decoy (R 2.0). Every unit carries its [`Marks`].
#[derive(Component, Debug, Clone)]
#[require(Marks)]
pub struct Unit {
    /// Scenario id (`"A1"`).
    pub id: super::UnitId,
    /// Unit type id in the roster.
    pub kind: super::UnitName,
    pub side: SideId,
    /// Flipped to its Reduced side (R 2.0).
    pub reduced: bool,
    pub company: Option<super::UnitName>,
}

/// Where a unit or marker is: its hex, and whether inside the Cave (R 43.4).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
// Immutable, so that every change goes through an insert and its hook:
// Control is looked at again only after a hook has counted a write.
#[component(
    immutable,
    on_insert = crate::phases::end::location_written,
    on_remove = crate::phases::end::location_written
)]
pub struct Location {
    pub coord: Coord,
    pub in_cave: bool,
}

/// Infantry facing toward a hexspine (R 2.2).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Facing(pub Spine);

/// Suppression markers (R 7.0).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Suppression {
    Suppressed,
    Full,
}

/// The counters that mark a unit for the rest of the turn; the Recovery
/// Phase takes them all off (R 13.0). Every unit carries this component from
/// its spawn (required by [`Unit`]), so marking or clearing a unit writes a
/// field: the unit keeps its place among the others, where a component per
/// counter moved it to another table at every change.
#[derive(Component, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Marks {
    /// Marked Used this turn (R 4.2).
    pub used: bool,
    /// Marked Op Fire (R 4.3).
    pub op_fire: bool,
    /// A Flank counter: the unit entered Melee through a flank hex of every
    /// enemy unit there, +1 Melee FP (R 12.2).
    pub flank: bool,
    /// Melee Ambush: the unit was Concealed in the Jungle when an enemy
    /// entered its Melee; this turn it strikes first, at +2 Melee FP, and its
    /// casualties are applied before the others attack (R 51.2).
    pub ambush: bool,
}

impl Marks {
    /// Marked Used; an Op Fire marker flips to its Used side (R 4.3).
    pub fn flip_to_used(&mut self) {
        self.op_fire = false;
        self.used = true;
    }
}

/// Under a Conceal counter (R 15.0); Japanese start at −2 (R 59.2).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Concealed {
    pub minus_two: bool,
}

/// A fortification counter (R 43.0).
#[derive(Component, Debug, Clone, Copy)]
pub struct FortificationCounter {
    pub kind: FortificationKind,
    pub facing: Option<Spine>,
    pub concealed: bool,
}

/// Order of the units in a hex, bottom first (as stacked on the table).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct StackOrder(pub u8);

/// The scenario being played.
#[derive(Resource, Debug, Clone)]
pub struct ActiveScenario {
    pub scenario: std::sync::Arc<Scenario>,
    pub origin: String,
}

/// The map as plain data. Shared: the rules read it on every order, so a
/// handle is cloned, never the map.
#[derive(Resource, Debug, Clone)]
pub struct BoardRes(pub std::sync::Arc<Board>);

/// The unit roster (`assets/units.ron`), shared.
#[derive(Resource, Debug, Clone)]
pub struct RosterRes(pub std::sync::Arc<Roster>);

/// The Player Aid (`assets/player_aid.ron`), shared.
#[derive(Resource, Debug, Clone)]
pub struct AidRes(pub std::sync::Arc<PlayerAid>);

/// The phases of a turn (R 1.0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Phase {
    /// Before the first Operations Phase.
    #[default]
    Setup,
    Operations,
    Rout,
    Melee,
    Recovery,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::Setup => "Setup",
            Phase::Operations => "Operations Phase",
            Phase::Rout => "Rout Phase",
            Phase::Melee => "Melee Phase",
            Phase::Recovery => "Recovery Phase",
        }
    }
}

/// Turn record (R 1.0) and the Command Points left to each side (R 3.0).
#[derive(Resource, Debug, Clone)]
pub struct TurnTrack {
    pub turn: u8,
    pub last_turn: u8,
    pub phase: Phase,
    pub active: SideId,
    pub command_points: [u8; 2],
}

/// The side whose eyes the board shows: enemy units under Conceal counters
/// appear only as Conceal counters (R 15.0). In hotseat it follows the
/// active side; `V` hands the screen over.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Viewer(pub SideId);

/// The marks `entity` carries (none for an entity that is not a unit).
pub fn marks(world: &World, entity: Entity) -> Marks {
    world.get::<Marks>(entity).copied().unwrap_or_default()
}

/// Changes the marks `entity` carries through `change` (nothing for an
/// entity that is not a unit).
pub fn mark(world: &mut World, entity: Entity, change: impl FnOnce(&mut Marks)) {
    if let Some(mut m) = world.get_mut::<Marks>(entity) {
        let mut new = *m;
        change(&mut new);
        m.set_if_neq(new);
    }
}
