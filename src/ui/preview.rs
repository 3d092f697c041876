//! The fire preview: before a unit fires, the FP arithmetic against each
//! unit in the target hex, line by line with its rules, and the exact chance
//! of each outcome counted on the d10 (R 6.1, R 6.2, R 7.0, R 8.0). It is
//! built by `engine::fire::plan_attack`, the function the attack itself
//! resolves, and `rules::odds`; nothing here decides a rule.

use bevy::prelude::*;

use crate::engine::checks::morale_to_act;
use crate::engine::fire::{TargetPlan, plan_attack};
use crate::rules::Morale;
use crate::rules::fire::{FireKind, SuppressionLevel};
use crate::rules::los::Los;
use crate::rules::odds::{FireOdds, MoraleChance, OddsTarget, breakdown_odds, morale_check};
use crate::scenario::Coord;
use crate::world::{AidRes, Location};

/// One unit fired at: its arithmetic and its odds.
#[derive(Debug, Clone)]
pub struct TargetPreview {
    pub plan: TargetPlan,
    pub odds: FireOdds,
}

/// Everything the player is shown before an attack.
#[derive(Debug, Clone)]
pub struct FirePreview {
    pub firer: String,
    pub from: Coord,
    pub to: Coord,
    pub kind: FireKind,
    /// The MC the firer takes to fire (R 6.0), against this Morale.
    pub morale: Morale,
    pub mc: MoraleChance,
    /// `None` when the LOS is clear or hindered; the blocker otherwise
    /// (R 14.0: the firer would be Used for nothing).
    pub blocked: Option<String>,
    /// The LOS in words, hindrances counted.
    pub los: String,
    pub targets: Vec<TargetPreview>,
    /// A Gun's Prof Check before the shot, if one is needed (R 20.4).
    pub gun_prof: Option<crate::rules::gun::ProfCheck>,
}

/// The preview of `firer` attacking the location `to` as `kind`; `mover` is
/// the unit moving into it (Op Fire). `None` when the firer is gone.
pub fn fire_preview(
    world: &mut World,
    firer: Entity,
    to: Coord,
    kind: FireKind,
    mover: Option<Entity>,
) -> Option<FirePreview> {
    let aid = world.resource::<AidRes>().0.clone();
    let from = world.get::<Location>(firer)?.coord;
    let (unit, morale) = morale_to_act(world, firer)?;
    let mc = morale_check(&aid, morale, false);
    // The attack's own LOS, a Mortar's spotter's included (R 31.1).
    let query = crate::engine::fortifications::los_query(world, firer, to, false);
    let first_hex = mover.is_some() && crate::engine::mortar::mover_in_first_hex(world);
    let fire_los = crate::engine::mortar::fire_los(world, firer, &query, first_hex);
    let los = fire_los.los.clone();
    let mut preview = FirePreview {
        firer: unit.id.to_string(),
        from,
        to,
        kind,
        morale,
        mc,
        blocked: None,
        los: los.summary(),
        targets: Vec::new(),
        gun_prof: None,
    };
    match los {
        Los::Blocked { at, reason } => {
            preview.blocked = Some(format!(
                "blocked at {} by {}",
                at.label(),
                reason.describe()
            ));
        }
        Los::Seen(sight) => {
            preview.gun_prof = crate::engine::gun::prospective_prof(world, firer, to, kind, &sight);
            let extras = crate::engine::fire::AttackExtras {
                directed: fire_los.spotter.is_some(),
                ..Default::default()
            };
            let plan = plan_attack(world, firer, to, kind, &sight, mover, extras)?;
            preview.targets = plan
                .targets
                .into_iter()
                .map(|t| {
                    let odds = breakdown_odds(
                        &aid,
                        &t.breakdown,
                        OddsTarget {
                            casualty: t.casualty,
                            suppression: SuppressionLevel::from(t.suppression),
                        },
                    );
                    TargetPreview { plan: t, odds }
                })
                .collect();
        }
    }
    Some(preview)
}

/// "7 of 10" as a percentage, for the odds table.
pub fn percent(count: u8, faces: u8) -> String {
    format!("{}%", u32::from(count) * 100 / u32::from(faces.max(1)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::events::GameEvent;
    use crate::engine::operations::{apply, begin_operations, check};
    use crate::engine::random::{Lcg, random_order};
    use crate::engine::{Dice, Order, headless_world};
    use crate::rules::D10;
    use crate::world::Unit;

    fn world(scenario: &str, seed: u64) -> World {
        let roster = crate::scenario::builtin_roster().unwrap();
        let aid = crate::scenario::builtin_player_aid().unwrap();
        let loaded = crate::world::load(scenario, &roster, &aid).unwrap();
        headless_world(loaded, roster, aid, seed)
    }

    /// For many random positions of both scenarios (random play between
    /// attacks), a random allowed fire order: the preview's FP and
    /// arithmetic are those the attack logs, and the outcome of the rolled
    /// face is the attack's.
    #[test]
    fn the_preview_and_the_resolved_attack_agree() {
        let mut compared = 0;
        let mut blocked = 0;
        let mut rng = Lcg(11);
        for (scenario, seed) in (0..30u64).map(|s| ("training", s)) {
            let mut w = world(scenario, seed);
            let aid = w.resource::<AidRes>().0.clone();
            begin_operations(&mut w);
            for _ in 0..12 {
                for _ in 0..rng.below(12) {
                    let order = random_order(&mut w, &mut rng);
                    let _ = apply(&mut w, &order);
                }
                let mut q = w.query::<(Entity, &Unit, &Location)>();
                let all: Vec<(Entity, Unit, Coord)> = q
                    .iter(&w)
                    .map(|(e, u, l)| (e, u.clone(), l.coord))
                    .collect();
                let mut allowed = Vec::new();
                for (firer, unit, _) in &all {
                    for (_, _, target) in all.iter().filter(|t| t.1.side != unit.side) {
                        let order = Order::Fire {
                            unit: unit.id.to_string(),
                            target: target.label(),
                            facing: None,
                        };
                        if check(&mut w, &order).is_ok() {
                            allowed.push((*firer, *target, order));
                        }
                    }
                }
                // Hedgerow country blocks most threads: prefer attacks that
                // will be rolled, keep a blocked one when none is.
                let seen: Vec<usize> = (0..allowed.len())
                    .filter(|&i| {
                        let (f, t, _) = &allowed[i];
                        fire_preview(&mut w, *f, *t, FireKind::Normal, None)
                            .is_some_and(|p| p.blocked.is_none())
                    })
                    .collect();
                let pick = match seen.len() {
                    0 if allowed.is_empty() => continue,
                    0 => rng.below(allowed.len()),
                    n => seen[rng.below(n)],
                };
                let (firer, target, order) = allowed.swap_remove(pick);
                let p = fire_preview(&mut w, firer, target, FireKind::Normal, None).unwrap();
                let roll = 1 + rng.below(10) as u8;
                let mut forced = Vec::new();
                if p.mc.needs_roll {
                    forced.push(1);
                }
                forced.push(roll);
                // Fresh dice: no forced roll left over from a blocked attack.
                w.insert_resource(Dice::seeded(seed));
                w.resource_mut::<Dice>().force(forced);
                let events = apply(&mut w, &order).unwrap();
                let results: Vec<_> = events
                    .iter()
                    .filter_map(|e| match e {
                        GameEvent::FireResult {
                            target,
                            arithmetic,
                            fp,
                            roll: r,
                            outcome,
                        } => Some((target.clone(), arithmetic.clone(), *fp, *r, *outcome)),
                        _ => None,
                    })
                    .collect();
                if p.blocked.is_some() {
                    assert!(results.is_empty(), "{events:?}");
                    blocked += 1;
                    continue;
                }
                assert_eq!(results.len(), p.targets.len(), "{events:?}");
                for (t, (id, arithmetic, fp, r, outcome)) in p.targets.iter().zip(results) {
                    assert_eq!(t.plan.unit.id, id);
                    assert_eq!(t.plan.breakdown.total, fp);
                    assert_eq!(r, roll);
                    let lines: Vec<String> = t
                        .plan
                        .breakdown
                        .lines
                        .iter()
                        .map(ToString::to_string)
                        .collect();
                    assert_eq!(lines.join("; "), arithmetic);
                    assert_eq!(
                        t.plan.breakdown.resolve(&aid, D10(roll), t.plan.casualty),
                        outcome
                    );
                    let o = &t.odds;
                    assert_eq!(
                        o.no_effect + o.suppressed + o.reduced + o.eliminated,
                        o.faces
                    );
                    compared += 1;
                }
            }
        }
        assert!(
            compared > 40,
            "only {compared} attacks compared ({blocked} blocked)"
        );
    }
}
