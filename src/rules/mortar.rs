//! Mortars — R 31.0 (a range band or a minimum range, no long range fire,
//! where a Mortar may fire from), R 31.1 (Directed Fire: a spotter next to
//! the Mortar, −1 FP, not at a mover before its second hex in Op Fire) and
//! R 59.3 (Type 89 Grenade Discharger Squads: the Mortar column, no Directed
//! or long range fire, may fire from a Swamp and Assault Fire).
//!
//! The attack itself is `rules::fire::infantry_fp`, reading the Player Aid's
//! Mortar column (`mort`) instead of the Infantry column when the firer
//! fires as a Mortar: one function builds every attack, and the fire
//! preview shows it. This module holds what only Mortars have.

use std::fmt;

use crate::scenario::roster::{FireRange, UnitClass};

use super::Hexes;

/// The Player Aid column an attack reads its modifiers from (PAC §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Column {
    /// Infantry Direct Fire (`inf`).
    Infantry,
    /// Mortars and GD Squads (`mort`, R 31.0, R 59.3).
    Mortar,
}

impl Column {
    /// Mortar WTs and GD Squads fire as Mortars (R 31.0, R 59.3).
    pub fn of(class: UnitClass) -> Column {
        if fires_as_mortar(class) {
            Column::Mortar
        } else {
            Column::Infantry
        }
    }
}

/// Mortar WTs and Type 89 GD Squads fire as Mortars (R 31.0, R 59.3).
pub fn fires_as_mortar(class: UnitClass) -> bool {
    matches!(class, UnitClass::MortarTeam | UnitClass::GdSquad)
}

/// Why a Mortar (or a GD Squad) may not make this attack.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MortarRefusal {
    /// Closer than the Mortar's minimum range (R 31.0).
    BelowMinimum { range: Hexes, min: Hexes },
    /// Beyond a defined range, which long range fire cannot extend
    /// (R 31.0, R 59.3).
    BeyondMaximum { range: Hexes, max: Hexes },
    /// GD Squads may not use Directed Fire (R 59.3).
    NoDirectedFire,
    /// Directed Op Fire at a mover only from its second hex on (R 31.1).
    DirectedBeforeSecondHex,
    /// Not from this location (R 31.0, R 43.3, R 43.4, R 51.0).
    NotFromHere {
        why: &'static str,
        rule: &'static str,
    },
}

impl fmt::Display for MortarRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MortarRefusal::BelowMinimum { range, min } => write!(
                f,
                "target {} hexes away, inside the Mortar's minimum range {} (R 31.0)",
                range.0, min.0
            ),
            MortarRefusal::BeyondMaximum { range, max } => write!(
                f,
                "target {} hexes away, beyond the Mortar's range {}: no long range fire (R 31.0, R 59.3)",
                range.0, max.0
            ),
            MortarRefusal::NoDirectedFire => {
                write!(f, "a GD Squad may not use Directed Fire (R 59.3)")
            }
            MortarRefusal::DirectedBeforeSecondHex => write!(
                f,
                "Directed Op Fire only once the mover enters its second hex (R 31.1)"
            ),
            MortarRefusal::NotFromHere { why, rule } => {
                write!(f, "a Mortar may not fire from {why} ({rule})")
            }
        }
    }
}

/// The range a Mortar fires at, checked against its band (R 31.0): a
/// minimum, and a maximum unless the range is unlimited. There is no long
/// range fire: every legal target is within normal Range. A plain Range
/// number on a Mortar counter is read as `1-Range`.
pub fn check_range(spec: FireRange, range: Hexes) -> Result<(), MortarRefusal> {
    let (min, max) = match spec {
        FireRange::Band(a, b) => (u32::from(a), Some(u32::from(b))),
        FireRange::AtLeast(a) => (u32::from(a), None),
        FireRange::Normal(r) => (1, Some(u32::from(r))),
        FireRange::None => (u32::MAX, None),
    };
    if range.0 < min {
        return Err(MortarRefusal::BelowMinimum {
            range,
            min: Hexes(min),
        });
    }
    match max {
        Some(m) if range.0 > m => Err(MortarRefusal::BeyondMaximum {
            range,
            max: Hexes(m),
        }),
        _ => Ok(()),
    }
}

/// Where the firer stands, as far as R 31.0 cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FiringPosition<'a> {
    /// Player Aid terrain key of the firer's hex.
    pub hex: &'a str,
    /// The terrain is a building (Huts excepted: they are not one here).
    pub building: bool,
    /// The firer is in a Pillbox or a Bunker (R 43.3).
    pub pillbox: bool,
    /// The firer is inside a Cave (R 43.4).
    pub in_cave: bool,
    /// The firer moved into its Jungle hex (it did not set up there nor
    /// enter play there through FOW, R 31.0, R 51.0).
    pub moved_into_jungle: bool,
}

/// Whether a unit firing as a Mortar may fire from here (R 31.0): not from
/// inside a building (Huts excepted, R 40.1) or a Pillbox (R 43.3); not
/// from a Cave (R 43.4); from a Jungle hex only if it set up there, unless
/// Japanese (R 31.0, R 51.0). The Swamp (R 31.0, R 52.0) bars every WT, and
/// is asked of all of them in one place: `rules::fire::may_fire_from_terrain`.
/// GD Squads are not WTs: they may fire from a Swamp and a Cave (R 59.3,
/// R 43.4); a Pillbox still bars them (R 43.3: "Mortars and GD may not fire
/// from them").
pub fn may_fire_from(
    class: UnitClass,
    japanese: bool,
    pos: FiringPosition<'_>,
) -> Result<(), MortarRefusal> {
    if !fires_as_mortar(class) {
        return Ok(());
    }
    let wt = class == UnitClass::MortarTeam;
    let refuse = |why, rule| Err(MortarRefusal::NotFromHere { why, rule });
    if pos.pillbox {
        return refuse("a Pillbox or Bunker", "R 43.3");
    }
    if !wt {
        return Ok(());
    }
    if pos.in_cave {
        return refuse("inside a Cave", "R 43.4");
    }
    if pos.building && pos.hex != "huts" {
        return refuse("inside a building", "R 31.0");
    }
    if pos.hex == "jungle" && pos.moved_into_jungle && !japanese {
        return refuse("a Jungle hex it moved into", "R 31.0, R 51.0");
    }
    Ok(())
}

/// Directed Fire (R 31.1): a Mortar WT only, never a GD Squad (R 59.3); in
/// Op Fire at a mover only once it enters its second hex.
pub fn check_directed(
    class: UnitClass,
    op_fire_at_mover_first_hex: bool,
) -> Result<(), MortarRefusal> {
    if class == UnitClass::GdSquad {
        return Err(MortarRefusal::NoDirectedFire);
    }
    if op_fire_at_mover_first_hex {
        return Err(MortarRefusal::DirectedBeforeSecondHex);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fire::{
        Elevation, FireContext, FireKind, FireRefusal, Firer, Motion, Smoke, infantry_fp,
    };
    use crate::scenario::schema::Terrain;

    fn pos(hex: &str) -> FiringPosition<'_> {
        FiringPosition {
            hex,
            building: false,
            pillbox: false,
            in_cave: false,
            moved_into_jungle: false,
        }
    }

    /// R 31.0: ">1" is a minimum of 2 with no maximum; "2-12" a band with
    /// no long range; the GD's 1-6 (R 59.3).
    #[test]
    fn r31_0_range_bands() {
        let at_least = FireRange::AtLeast(2);
        assert_eq!(
            check_range(at_least, Hexes(1)),
            Err(MortarRefusal::BelowMinimum {
                range: Hexes(1),
                min: Hexes(2)
            })
        );
        assert_eq!(check_range(at_least, Hexes(2)), Ok(()));
        assert_eq!(check_range(at_least, Hexes(60)), Ok(()));
        let band = FireRange::Band(2, 12);
        assert_eq!(check_range(band, Hexes(12)), Ok(()));
        assert_eq!(
            check_range(band, Hexes(13)).unwrap_err().to_string(),
            "target 13 hexes away, beyond the Mortar's range 12: no long range fire (R 31.0, R 59.3)"
        );
        let gd = FireRange::Band(1, 6);
        assert_eq!(check_range(gd, Hexes(1)), Ok(()));
        assert!(check_range(gd, Hexes(7)).is_err());
    }

    /// R 31.0, R 59.3, R 43.3, R 43.4: where Mortar WTs and GD Squads fire
    /// from.
    #[test]
    fn r31_0_where_a_mortar_may_fire_from() {
        let wt = UnitClass::MortarTeam;
        let gd = UnitClass::GdSquad;
        assert_eq!(may_fire_from(wt, false, pos("open")), Ok(()));
        let house = FiringPosition {
            building: true,
            ..pos("stone_building")
        };
        assert!(may_fire_from(wt, false, house).is_err());
        let huts = FiringPosition {
            building: true,
            ..pos("huts")
        };
        assert_eq!(may_fire_from(wt, false, huts), Ok(()));
        // The Swamp bars every WT, Mortars among them (R 31.0, R 52.0); a
        // GD Squad is no WT (R 59.3).
        let aid = crate::scenario::builtin_player_aid().unwrap();
        assert_eq!(
            crate::rules::fire::may_fire_from_terrain(&aid, wt, Terrain::Swamp)
                .unwrap_err()
                .to_string(),
            "a WT may not fire from a Swamp hex (R 52.0)"
        );
        assert_eq!(
            crate::rules::fire::may_fire_from_terrain(&aid, gd, Terrain::Swamp),
            Ok(())
        );
        assert_eq!(may_fire_from(gd, true, pos("swamp")), Ok(()));
        let cave = FiringPosition {
            in_cave: true,
            ..pos("open")
        };
        assert!(may_fire_from(wt, true, cave).is_err());
        assert_eq!(may_fire_from(gd, true, cave), Ok(()));
        let pillbox = FiringPosition {
            pillbox: true,
            ..pos("open")
        };
        assert!(may_fire_from(gd, true, pillbox).is_err());
        let moved = FiringPosition {
            moved_into_jungle: true,
            ..pos("jungle")
        };
        assert!(may_fire_from(wt, false, moved).is_err());
        assert_eq!(may_fire_from(wt, true, moved), Ok(()));
        assert_eq!(may_fire_from(wt, false, pos("jungle")), Ok(()));
        // A Squad is no Mortar: nothing here limits it.
        assert_eq!(may_fire_from(UnitClass::Squad, false, moved), Ok(()));
    }

    fn aid() -> crate::scenario::PlayerAid {
        crate::scenario::builtin_player_aid().unwrap()
    }

    fn firer(id: &str) -> Firer {
        let roster = crate::scenario::builtin_roster().unwrap();
        Firer::of(roster.get(id).unwrap(), false)
    }

    fn attack(ctx: &FireContext) -> (i16, Vec<String>) {
        let b = infantry_fp(&aid(), ctx).unwrap();
        (b.total.0, b.lines.iter().map(ToString::to_string).collect())
    }

    /// The Mortar column of the PAC: Woods +1 for airbursts (R 31.0),
    /// Foxholes −4, Woods and Foxholes −2, a stone building −2; no Adjacent
    /// bonus, no Hindrance, no flank bonus (R 6.2, R 46.0).
    #[test]
    fn r31_0_the_mortar_column() {
        let mortar = firer("ger_mortar");
        let at = |hex: &'static str| FireContext::new(FireKind::Normal, mortar, Hexes(4), hex);
        assert_eq!(
            attack(&at("open")),
            (6, vec!["+6 Normal FP (R 2.1)".to_string()])
        );
        assert_eq!(attack(&at("woods")).0, 7);
        assert_eq!(attack(&at("stone_building")).0, 4);
        let mut fox = at("open");
        fox.target.fortification = Some("foxholes");
        assert_eq!(attack(&fox).0, 2);
        fox.target.hex = "woods";
        assert_eq!(attack(&fox).0, 4);
        // Hindrances, a hedgerow, a higher target and a flank shot change
        // nothing for a Mortar.
        let mut ctx = at("open");
        ctx.hindrances = 2;
        ctx.hindered_line = true;
        ctx.flank = true;
        ctx.target.hexside = Some("hedgerow");
        ctx.target.elevation = Elevation::Higher;
        assert_eq!(attack(&ctx).0, 6);
        // A GD Squad at an adjacent unit: no +3 (R 59.3).
        let gd = FireContext::new(FireKind::Normal, firer("jap_gd"), Hexes(1), "open");
        assert_eq!(attack(&gd).0, 6);
    }

    /// R 47.3's example: a Mortar WT Op Firing at a unit moving in Open
    /// Ground on higher ground within 4 hexes keeps its +4 (no −1); Smoke
    /// takes the +4 away and costs −1 (R 48.0); Directed Fire −1 (R 31.1).
    #[test]
    fn r47_3_a_mortar_keeps_its_moving_bonus_against_higher_ground() {
        let mut ctx = FireContext::new(FireKind::OpFire, firer("ger_mortar"), Hexes(3), "open");
        ctx.target.elevation = Elevation::Higher;
        ctx.target_motion = Motion::Moving {
            open_ground: true,
            on_path: false,
        };
        assert_eq!(
            attack(&ctx),
            (
                4 + 4,
                vec![
                    "+4 Prof FP: Op Fire (R 9.0)".to_string(),
                    "+4 Target moving in Open Ground, range 3 (R 41.0)".to_string(),
                ]
            )
        );
        ctx.directed = true;
        assert_eq!(attack(&ctx).0, 4 + 4 - 1);
        ctx.smoke = Smoke::Smoke;
        let (fp, lines) = attack(&ctx);
        assert_eq!(fp, 4 - 1 - 1);
        assert!(
            lines.contains(&"+0 moving in Open Ground: no bonus with Smoke (R 48.0)".to_string())
        );
        // A GD Squad may not use Directed Fire (R 59.3).
        let mut gd = FireContext::new(FireKind::Normal, firer("jap_gd"), Hexes(3), "open");
        gd.directed = true;
        assert_eq!(
            infantry_fp(&aid(), &gd),
            Err(FireRefusal::Mortar(MortarRefusal::NoDirectedFire))
        );
    }

    /// R 31.1, R 59.3: who may use Directed Fire, and when in Op Fire.
    #[test]
    fn r31_1_directed_fire_limits() {
        assert_eq!(check_directed(UnitClass::MortarTeam, false), Ok(()));
        assert_eq!(
            check_directed(UnitClass::MortarTeam, true),
            Err(MortarRefusal::DirectedBeforeSecondHex)
        );
        assert_eq!(
            check_directed(UnitClass::GdSquad, false),
            Err(MortarRefusal::NoDirectedFire)
        );
    }
}
