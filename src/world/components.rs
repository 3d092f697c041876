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

/// A Squad, WT or Decoy (R 2.0). Every unit carries its [`Marks`] and its
/// [`AttackUnderWay`].
#[derive(Component, Debug, Clone)]
#[require(Marks, AttackUnderWay)]
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
// Immutable: every change of place is a new insert.
#[component(immutable)]
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
    /// The CP counter: a CP was spent on the unit this turn, for this
    /// function (R 3.0).
    pub cp: Option<crate::rules::command_points::CpFunction>,
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

/// Turn record (R 1.0). The Command Points left to each side are the
/// engine's (`engine::command_points::CommandPoints`, R 3.0).
#[derive(Resource, Debug, Clone)]
pub struct TurnTrack {
    pub turn: u8,
    pub last_turn: u8,
    pub phase: Phase,
    pub active: SideId,
}

/// The side whose eyes the board shows: enemy units under Conceal counters
/// appear only as Conceal counters (R 15.0). In hotseat it follows the
/// active side; `V` hands the screen over.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Viewer(pub SideId);

/// What the attack a unit is making carries, from its order to its end
/// (cleared then): the firer turned to make it (−1, R 6.0); it was marked Op
/// Fire when it began, +1 Prof (R 9.0), its marker having flipped to Used by
/// then (R 4.3); it was ordered to fire into the Cave of the target hex
/// (`K5/cave`, R 43.4). Every unit carries it (required by [`Unit`]), so an
/// attack moves no unit to another table.
#[derive(Component, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AttackUnderWay {
    pub turned: bool,
    pub from_op_fire_marker: bool,
    pub into_cave: bool,
}

/// The marks `entity` carries (none for an entity that is not a unit).
pub fn marks(world: &World, entity: Entity) -> Marks {
    world.get::<Marks>(entity).copied().unwrap_or_default()
}

/// Changes the marks `entity` carries through `change` (nothing for an
/// entity that is not a unit).
pub fn mark(world: &mut World, entity: Entity, change: impl FnOnce(&mut Marks)) {
    write(world, entity, change);
}

/// What the attack `entity` is making carries (nothing for an entity that
/// is not a unit).
pub fn attack_under_way(world: &World, entity: Entity) -> AttackUnderWay {
    world
        .get::<AttackUnderWay>(entity)
        .copied()
        .unwrap_or_default()
}

/// Changes what the attack `entity` is making carries (nothing for an
/// entity that is not a unit).
pub fn mark_attack(world: &mut World, entity: Entity, change: impl FnOnce(&mut AttackUnderWay)) {
    write(world, entity, change);
}

/// Writes a field-only component of `entity` through `change`, seen as
/// changed only when its value changed.
fn write<C>(world: &mut World, entity: Entity, change: impl FnOnce(&mut C))
where
    C: Component<Mutability = bevy::ecs::component::Mutable> + Copy + PartialEq,
{
    if let Some(mut c) = world.get_mut::<C>(entity) {
        let mut new = *c;
        change(&mut new);
        c.set_if_neq(new);
    }
}

/// What a viewer may know of a unit (R 15.0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    /// The counter face.
    Face,
    /// Only a Conceal counter, with its modifier.
    ConcealOnly { minus_two: bool },
}

/// Enemy units under a Conceal counter show only the Conceal counter.
pub fn shown_to(viewer: SideId, side: SideId, concealed: Option<Concealed>) -> Shown {
    match concealed {
        Some(c) if side != viewer => Shown::ConcealOnly {
            minus_two: c.minus_two,
        },
        _ => Shown::Face,
    }
}

/// The marker as the rules read it (R 7.0).
impl From<Option<Suppression>> for crate::rules::fire::SuppressionLevel {
    fn from(s: Option<Suppression>) -> crate::rules::fire::SuppressionLevel {
        match s {
            None => crate::rules::fire::SuppressionLevel::None,
            Some(Suppression::Suppressed) => crate::rules::fire::SuppressionLevel::Suppressed,
            Some(Suppression::Full) => crate::rules::fire::SuppressionLevel::Full,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fire::SuppressionLevel;

    /// R 7.0: no marker is white Morale, the yellow marker Suppressed, the
    /// red one Fully Suppressed.
    #[test]
    fn markers_read_as_suppression_levels() {
        assert_eq!(SuppressionLevel::from(None), SuppressionLevel::None);
        assert_eq!(
            SuppressionLevel::from(Some(Suppression::Suppressed)),
            SuppressionLevel::Suppressed
        );
        assert_eq!(
            SuppressionLevel::from(Some(Suppression::Full)),
            SuppressionLevel::Full
        );
    }
}
