//! Command Points — R 3.0 (the six functions; one CP per unit per turn; the
//! CP counter placed on the unit; returned in the Recovery Phase; never
//! saved for later turns), R 3.1 (Company CPs), R 5.4 (Follow Me!).
//!
//! How a player spends one (see `docs/decisions.md`):
//! - `cp(unit, function: reroll | prof_fp)` readies a CP on a unit for its
//!   next action; it is spent only when used: when an MC of that unit fails
//!   (then the MC is rolled again, R 3.0 #1), or when the unit makes a Prof
//!   FP attack that the raise does not push above Normal FP (R 3.0 #5). A
//!   ready CP not used by the end of the action goes back to the pool.
//! - `cp(unit, function: follow_me)` is spent at once: +1 MP this phase
//!   (R 5.4).
//! - `cp(unit, function: act_first)`: the second player readies a unit
//!   before the first player has Used any; its next order is played out of
//!   turn, outside both Ops Ranges, and spends the CP (R 3.0 #2, R 4.0).
//! - Final Op Fire beyond one hex (R 3.0 #3, R 10.0) is spent by naming a
//!   Used unit that is not adjacent in an Op Fire answer.
//! - The Melee re-roll (R 3.0 #4) is [`melee_reroll`], for the Melee Phase.

use bevy::prelude::*;

use crate::scenario::Coord;
use crate::scenario::schema::SideId;
use crate::world::{ActiveScenario, Unit};

use super::events::GameEvent;
use super::orders::Refusal;

pub use crate::rules::command_points::CpFunction;

/// A CP readied on a unit for its next action, not yet spent.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct CpReady(pub CpFunction);

/// Follow Me!: +1 MP for the rest of the phase (R 5.4).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct FollowMe;

/// CPs a company of a side has left this turn (R 3.1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompanyPool {
    pub side: SideId,
    pub company: String,
    pub left: u8,
}

/// The CPs each side has left (R 3.0, R 3.1).
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub struct CommandPoints {
    /// CPs not assigned to a company, left this turn.
    pub general: [u8; 2],
    /// Company CPs left this turn (R 3.1).
    pub companies: Vec<CompanyPool>,
    /// One-time CPs (Combat Event 9, R 17.0): kept until spent.
    pub one_time: [u8; 2],
    /// Melees where a side spent its Melee re-roll this turn (R 3.0 #4).
    pub melee_rerolls: Vec<(SideId, Coord)>,
}

impl CommandPoints {
    /// A fresh turn's CPs from the scenario card (R 3.0, R 3.1).
    pub fn from_card(sc: &crate::scenario::schema::Scenario, one_time: [u8; 2]) -> Self {
        let mut general = [0; 2];
        let mut companies = Vec::new();
        for card in &sc.sides {
            general[card.side.index()] = card.command_points;
            for co in &card.companies {
                companies.push(CompanyPool {
                    side: card.side,
                    company: co.company.clone(),
                    left: co.command_points,
                });
            }
        }
        CommandPoints {
            general,
            companies,
            one_time,
            melee_rerolls: Vec::new(),
        }
    }

    /// Every CP the side has left.
    pub fn left(&self, side: SideId) -> u8 {
        let companies: u8 = self
            .companies
            .iter()
            .filter(|c| c.side == side)
            .map(|c| c.left)
            .sum();
        self.general[side.index()]
            .saturating_add(self.one_time[side.index()])
            .saturating_add(companies)
    }

    /// Which pool a unit of `side` in `company` draws from (R 3.1): its own
    /// company's CPs when the card gives that company CPs, then one-time
    /// CPs; a unit of no company (or of one the card gives none) uses the
    /// general CPs, then one-time CPs, then any company's.
    fn pool_for(&self, side: SideId, company: Option<&str>) -> Result<Pool, PoolRefusal> {
        let own = company.and_then(|c| {
            self.companies
                .iter()
                .position(|p| p.side == side && p.company == c)
        });
        let one_time = (self.one_time[side.index()] > 0).then_some(Pool::OneTime);
        let found = match own {
            Some(i) => (self.companies[i].left > 0)
                .then_some(Pool::Company(i))
                .or(one_time),
            None => (self.general[side.index()] > 0)
                .then_some(Pool::General)
                .or(one_time)
                .or_else(|| {
                    self.companies
                        .iter()
                        .position(|p| p.side == side && p.left > 0)
                        .map(Pool::Company)
                }),
        };
        match (found, own) {
            (Some(p), _) => Ok(p),
            (None, Some(_)) if self.left(side) > 0 => Err(PoolRefusal::OtherCompanies),
            (None, _) => Err(PoolRefusal::NoneLeft),
        }
    }

    fn take(&mut self, side: SideId, pool: Pool) {
        let n = match pool {
            Pool::General => &mut self.general[side.index()],
            Pool::OneTime => &mut self.one_time[side.index()],
            Pool::Company(i) => &mut self.companies[i].left,
        };
        *n = n.saturating_sub(1);
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pool {
    General,
    OneTime,
    Company(usize),
}

enum PoolRefusal {
    NoneLeft,
    OtherCompanies,
}

/// The CPs of the game: the card's until the first is spent.
fn points(world: &World) -> CommandPoints {
    match world.get_resource::<CommandPoints>() {
        Some(cp) => cp.clone(),
        None => CommandPoints::from_card(&world.resource::<ActiveScenario>().scenario, [0; 2]),
    }
}

/// The game's CPs from now on.
fn store(world: &mut World, cp: CommandPoints) {
    world.insert_resource(cp);
}

/// CPs the side has left this turn.
pub fn left(world: &World, side: SideId) -> u8 {
    points(world).left(side)
}

fn unit_of(world: &World, unit: Entity) -> Result<Unit, Refusal> {
    world
        .get::<Unit>(unit)
        .cloned()
        .ok_or_else(|| Refusal::UnknownUnit {
            unit: crate::world::UnitId::default(),
        })
}

/// May a CP be spent on this unit now (R 3.0: one per unit per turn and
/// while the side has any; R 3.1: from its own company)? Never on a Gun
/// (R 20.0).
pub fn check(world: &World, unit: Entity) -> Result<(), Refusal> {
    check_for(world, unit, None)
}

/// [`check`] for one function: a Gun may take only the CP to act first
/// (R 20.0, R 3.0 #2).
fn check_for(world: &World, unit: Entity, function: Option<CpFunction>) -> Result<(), Refusal> {
    if function != Some(CpFunction::ActFirst) && super::gun::is_gun(world, unit) {
        return Err(Refusal::CpNotApplicable {
            unit: unit_of(world, unit)?.id,
            reason: "CPs may not be used on a Gun, except for the second player to act first (R 20.0, R 3.0 #2)".into(),
        });
    }
    let u = unit_of(world, unit)?;
    // R 59.6 (a Banzai Charge): "CPs may not be used to increase their MP."
    if function == Some(CpFunction::FollowMe) && super::banzai::charging(world, unit) {
        return Err(Refusal::CpNotApplicable {
            unit: u.id,
            reason: "CPs may not be used to increase a charging Squad's MP (R 59.6)".into(),
        });
    }
    if crate::world::marks(world, unit).cp.is_some() {
        return Err(Refusal::CpAlreadyOnUnit { unit: u.id });
    }
    match points(world).pool_for(u.side, u.company.as_deref()) {
        Ok(_) => Ok(()),
        Err(PoolRefusal::NoneLeft) => Err(Refusal::CpNoneLeft { side: u.side }),
        Err(PoolRefusal::OtherCompanies) => Err(Refusal::CpWrongCompany {
            unit: u.id,
            company: u.company.map(String::from).unwrap_or_default(),
        }),
    }
}

/// May a CP be spent on each of these units at once (one each)?
pub fn check_all(world: &World, units: &[Entity]) -> Result<(), Refusal> {
    let mut cp = points(world);
    for &unit in units {
        check(world, unit)?;
        let u = unit_of(world, unit)?;
        let pool = cp
            .pool_for(u.side, u.company.as_deref())
            .map_err(|_| Refusal::CpNoneLeft { side: u.side })?;
        cp.take(u.side, pool);
    }
    Ok(())
}

/// Spends a CP on a unit: its counter goes on the unit (R 3.0).
pub fn spend(
    world: &mut World,
    unit: Entity,
    function: CpFunction,
    events: &mut Vec<GameEvent>,
) -> Result<(), Refusal> {
    check_for(world, unit, Some(function))?;
    let u = unit_of(world, unit)?;
    let mut cp = points(world);
    let Ok(pool) = cp.pool_for(u.side, u.company.as_deref()) else {
        return Err(Refusal::CpNoneLeft { side: u.side });
    };
    cp.take(u.side, pool);
    let left = cp.left(u.side);
    store(world, cp);
    world.entity_mut(unit).remove::<CpReady>();
    crate::world::mark(world, unit, |m| m.cp = Some(function));
    events.push(GameEvent::CommandPointSpent {
        side: u.side,
        unit: u.id,
        function,
        left,
    });
    Ok(())
}

/// Readies a CP on a unit for its next action (the `cp` order), or spends
/// it at once for Follow Me! (R 5.4). Act-first is readied here and spent by
/// the Operations flow when the unit acts.
pub fn ready(
    world: &mut World,
    unit: Entity,
    function: CpFunction,
    events: &mut Vec<GameEvent>,
) -> Result<(), Refusal> {
    let u = unit_of(world, unit)?;
    match function {
        CpFunction::FinalOpFireRange => {
            return Err(Refusal::CpNotApplicable {
                unit: u.id,
                reason: "it is spent by naming a Used unit more than one hex away in an Op Fire answer (R 10.0)".into(),
            });
        }
        CpFunction::MeleeReroll => {
            return Err(Refusal::CpNotApplicable {
                unit: u.id,
                reason: "it is spent in the Melee Phase (R 12.0)".into(),
            });
        }
        _ => {}
    }
    let is_infantry = world
        .resource::<crate::world::RosterRes>()
        .0
        .get(&u.kind)
        .is_some_and(|t| t.class != crate::scenario::roster::UnitClass::Decoy);
    if !is_infantry {
        return Err(Refusal::CpNotApplicable {
            unit: u.id,
            reason: "CPs are spent on infantry units, not Decoys (R 3.0)".into(),
        });
    }
    check_for(world, unit, Some(function))?;
    if world.get::<CpReady>(unit).is_some() {
        return Err(Refusal::CpAlreadyOnUnit { unit: u.id });
    }
    if function == CpFunction::FollowMe {
        spend(world, unit, function, events)?;
        world.entity_mut(unit).insert(FollowMe);
        return Ok(());
    }
    world.entity_mut(unit).insert(CpReady(function));
    events.push(GameEvent::CpReadied {
        unit: u.id,
        function,
    });
    Ok(())
}

/// Spends the CP readied on `unit` for `function`, if there is one and it
/// may still be spent. Returns whether it was spent.
pub fn use_ready(
    world: &mut World,
    unit: Entity,
    function: CpFunction,
    events: &mut Vec<GameEvent>,
) -> bool {
    if world.get::<CpReady>(unit) != Some(&CpReady(function)) {
        return false;
    }
    spend(world, unit, function, events).is_ok()
}

/// Whether a CP is readied on `unit` for `function`.
pub fn is_ready(world: &World, unit: Entity, function: CpFunction) -> bool {
    world.get::<CpReady>(unit) == Some(&CpReady(function))
}

/// Ready CPs not used by the end of the action go back to their pools
/// (they were never spent).
pub fn clear_ready(world: &mut World) {
    let ready: Vec<Entity> =
        crate::world::queries::collect::<Entity, With<CpReady>, _>(world, |e| e);
    for e in ready {
        world.entity_mut(e).remove::<CpReady>();
    }
}

/// Follow Me! MPs for a unit this phase (R 5.4), from the Player Aid.
pub fn mp_bonus(world: &World, unit: Entity) -> crate::rules::Mp {
    if world.get::<FollowMe>(unit).is_some() {
        let n = world
            .resource::<crate::world::AidRes>()
            .0
            .constants
            .follow_me_mp;
        crate::rules::Mp::whole(u16::from(n))
    } else {
        crate::rules::Mp(0)
    }
}

/// The Melee re-roll (R 3.0 #4, R 12.0): a CP on `unit`, in Melee at `at`,
/// so both its dice are rolled again. Only one CP per side in each Melee
/// each turn, and one CP per unit per turn. The Melee Phase rolls again.
pub fn melee_reroll(
    world: &mut World,
    unit: Entity,
    at: Coord,
    events: &mut Vec<GameEvent>,
) -> Result<(), Refusal> {
    let u = unit_of(world, unit)?;
    if points(world).melee_rerolls.contains(&(u.side, at)) {
        return Err(Refusal::CpMeleeAlreadySpent {
            side: u.side,
            at: at.label(),
        });
    }
    spend(world, unit, CpFunction::MeleeReroll, events)?;
    let mut cp = points(world);
    cp.melee_rerolls.push((u.side, at));
    store(world, cp);
    Ok(())
}

/// One-time CPs a side gains (Combat Event 9, R 17.0): usable this turn or
/// later, not returned at the end of the turn.
pub fn grant_one_time(world: &mut World, side: SideId, n: u8) {
    let mut cp = points(world);
    cp.one_time[side.index()] = cp.one_time[side.index()].saturating_add(n);
    store(world, cp);
}

/// The Recovery Phase (R 13.0, R 3.0): CP counters come off the units and
/// each side takes its CPs for the new turn; unspent CPs of the turn are not
/// kept (one-time CPs are). Follow Me! and ready CPs end too.
pub fn return_command_points(world: &mut World) -> Vec<GameEvent> {
    let marked: Vec<Entity> = crate::world::queries::collect::<
        (Entity, &crate::world::Marks, Has<CpReady>, Has<FollowMe>),
        (),
        _,
    >(world, |(e, m, ready, follow_me)| {
        (m.cp.is_some() || ready || follow_me).then_some(e)
    })
    .into_iter()
    .flatten()
    .collect();
    for e in marked {
        crate::world::mark(world, e, |m| m.cp = None);
        world.entity_mut(e).remove::<CpReady>().remove::<FollowMe>();
    }
    let one_time = points(world).one_time;
    let cp = CommandPoints::from_card(&world.resource::<ActiveScenario>().scenario, one_time);
    let event = GameEvent::CpsReturned {
        allies: cp.left(SideId::Allies),
        axis: cp.left(SideId::Axis),
    };
    store(world, cp);
    vec![event]
}

/// Follow Me! lasts for the phase only (R 5.4).
pub fn end_of_phase(world: &mut World) {
    let units: Vec<Entity> =
        crate::world::queries::collect::<Entity, With<FollowMe>, _>(world, |e| e);
    for e in units {
        world.entity_mut(e).remove::<FollowMe>();
    }
    clear_ready(world);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pools() -> CommandPoints {
        CommandPoints {
            general: [1, 0],
            companies: vec![
                CompanyPool {
                    side: SideId::Allies,
                    company: "E".into(),
                    left: 1,
                },
                CompanyPool {
                    side: SideId::Allies,
                    company: "F".into(),
                    left: 0,
                },
            ],
            one_time: [0, 0],
            melee_rerolls: Vec::new(),
        }
    }

    /// R 3.1: a unit uses its own company's CPs only; a unit of no company
    /// may use any CP, the general ones first.
    #[test]
    fn company_cps_go_to_their_company() {
        let mut cp = pools();
        assert_eq!(cp.left(SideId::Allies), 2);
        assert_eq!(
            cp.pool_for(SideId::Allies, Some("E")).ok(),
            Some(Pool::Company(0))
        );
        assert!(matches!(
            cp.pool_for(SideId::Allies, Some("F")),
            Err(PoolRefusal::OtherCompanies)
        ));
        assert_eq!(cp.pool_for(SideId::Allies, None).ok(), Some(Pool::General));
        // A company the card gives no CPs counts as no company.
        assert_eq!(
            cp.pool_for(SideId::Allies, Some("G")).ok(),
            Some(Pool::General)
        );
        cp.take(SideId::Allies, Pool::General);
        assert_eq!(
            cp.pool_for(SideId::Allies, None).ok(),
            Some(Pool::Company(0))
        );
        cp.take(SideId::Allies, Pool::Company(0));
        assert!(matches!(
            cp.pool_for(SideId::Allies, None),
            Err(PoolRefusal::NoneLeft)
        ));
        assert!(matches!(
            cp.pool_for(SideId::Axis, None),
            Err(PoolRefusal::NoneLeft)
        ));
        // One-time CPs (Combat Event 9) serve anyone of the side.
        cp.one_time[0] = 1;
        assert_eq!(
            cp.pool_for(SideId::Allies, Some("F")).ok(),
            Some(Pool::OneTime)
        );
    }

    #[test]
    fn functions_are_numbered_as_in_r3() {
        let all = [
            CpFunction::Reroll,
            CpFunction::ActFirst,
            CpFunction::FinalOpFireRange,
            CpFunction::MeleeReroll,
            CpFunction::ProfFp,
            CpFunction::FollowMe,
        ];
        let numbers: Vec<u8> = all.iter().map(|f| f.number()).collect();
        assert_eq!(numbers, [1, 2, 3, 4, 5, 6]);
        assert!(
            all.iter()
                .all(|f| f.rule().starts_with(&format!("R 3.0 #{}", f.number())))
        );
    }
}
