//! Infantry fire — R 6.0–6.2 (Infantry Fire), R 7.0 (Suppression), R 8.0
//! (Casualties), R 9.0 (Op Fire), R 10.0–10.1 (Final Op Fire), R 5.2
//! (Assault Fire), R 58.3 (Fireteams), with the fire modifiers of R 15.0 and
//! R 59.2 (Conceal), R 41.0 (Open Ground), R 43.0 (Fortifications, Fire
//! Lanes), R 43.4 (Caves), R 44.0 (Hedgerows), R 46.0–46.1 (Hindrances,
//! Walls), R 47.3 (elevation), R 48.0 (Smoke), R 50.2 (Night), R 52.0
//! (Swamp), R 53.0 (Paths) and R 55.2 (Monsoon).
//!
//! The attack is built in the order of the Player Aid §1 (`player-aid.md`):
//! base FP, long range halving, Prof raises capped at Normal FP, the −1 for
//! turning, the target's single best terrain modifier, then every situation
//! modifier. Every modifier value is read from `assets/player_aid.ron` by its
//! key; a missing key is a [`FireRefusal::MissingData`], never a number here.

use std::fmt;

use crate::scenario::player_aid::{PlayerAid, TerrainRow};
use crate::scenario::roster::{CounterSide, FireRange, UnitClass, UnitType};
use crate::scenario::schema::{FortificationKind, Nationality, Terrain};

use super::mortar::Column;
use super::{D10, Fp, Hexes};

/// The four ways infantry fires (R 6.0, R 9.0, R 10.0, R 5.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FireKind {
    /// Fire instead of moving, with Normal FP (R 6.0).
    Normal,
    /// At a moving enemy unit, with Prof FP (R 9.0).
    OpFire,
    /// By a Used unit at an enemy unit moving adjacent, with Prof FP and −2
    /// (R 10.0).
    FinalOpFire,
    /// By a moving Squad after entering a hex, with Prof FP (R 5.2).
    AssaultFire,
}

impl FireKind {
    /// Prof FP is used for Op Fire, Final Op Fire and Assault Fire (R 2.1).
    pub fn uses_prof(self) -> bool {
        !matches!(self, FireKind::Normal)
    }

    /// Op Fire and Final Op Fire get the Op Fire Prof raises (R 9.0, R 10.0).
    fn is_op_fire(self) -> bool {
        matches!(self, FireKind::OpFire | FireKind::FinalOpFire)
    }

    pub fn name(self) -> &'static str {
        match self {
            FireKind::Normal => "Fire",
            FireKind::OpFire => "Op Fire",
            FireKind::FinalOpFire => "Final Op Fire",
            FireKind::AssaultFire => "Assault Fire",
        }
    }
}

/// The firing unit: the side of its counter in play and what it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Firer {
    pub side: CounterSide,
    pub class: UnitClass,
    /// Japanese Squads cannot change facing to Final Op Fire (R 10.1).
    pub japanese: bool,
    /// Organised in Fireteams: an "F" after its Prof FP (R 58.3).
    pub fireteams: bool,
}

impl Firer {
    /// The firer as a roster unit on its Full-Strength or Reduced side.
    pub fn of(unit: &UnitType, reduced: bool) -> Firer {
        Firer {
            side: if reduced { unit.reduced } else { unit.full },
            class: unit.class,
            japanese: unit.nationality == Nationality::Japanese,
            fireteams: unit.fireteams,
        }
    }
}

/// The target's elevation compared with the firer's (R 47.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Elevation {
    #[default]
    Level,
    /// Target higher: a terrain choice of −1 (`higher_elevation`).
    Higher,
    /// Target lower: a terrain choice of +1 (`lower_elevation`).
    Lower,
}

impl Elevation {
    fn key(self) -> Option<&'static str> {
        match self {
            Elevation::Level => None,
            Elevation::Higher => Some("higher_elevation"),
            Elevation::Lower => Some("lower_elevation"),
        }
    }
}

/// What may give the target its terrain modifier: the candidates for the
/// single best terrain choice (PAC §1 step 4). Keys are Player Aid terrain
/// keys. The caller decides the map geometry; this module applies the rules
/// that depend on motion and Fire Lanes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TargetTerrain {
    /// The terrain of the target hex (`Terrain::key()`).
    pub hex: &'static str,
    /// The Fortification in the target's location, as a Player Aid key (see
    /// [`fortification_key`]). A stationary unit gets only its benefit; a
    /// unit moving into or out of the hex gets none of it (R 43.0).
    pub fortification: Option<&'static str>,
    /// A hexside that protects the target from this fire, when it applies:
    /// `"hedgerow"` (target adjacent to it and the fire crosses it; the
    /// target moving in or out with the firer adjacent gets none of it,
    /// [`infantry_fp`] sees to it, R 44.0), `"wall"` (target directly
    /// behind, same exception, R 46.1), `"ridge"`
    /// (Level 0 firer at a Ridge target, R 54.2).
    pub hexside: Option<&'static str>,
    pub elevation: Elevation,
}

impl TargetTerrain {
    /// A target in a hex of this terrain, no fortification, hexside or
    /// elevation difference.
    pub fn in_hex(hex: &'static str) -> TargetTerrain {
        TargetTerrain {
            hex,
            fortification: None,
            hexside: None,
            elevation: Elevation::Level,
        }
    }
}

/// Whether the target is moving when fired at (R 9.0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Motion {
    #[default]
    Stationary,
    Moving {
        /// The caller judges the move to be in Open Ground (R 41.0: no
        /// terrain at the centre dot; a Road, a hex with a Fortification
        /// entered or left, R 43.0). Not a Trench-to-Trench move (R 43.2) nor
        /// a Path (R 53.0). This module then withholds the bonus for a
        /// Beneficial Terrain modifier, Smoke or Hindering Terrain.
        open_ground: bool,
        /// Moving along a Path hexside: no terrain benefit against adjacent
        /// fire (R 53.0).
        on_path: bool,
    },
}

impl Motion {
    fn is_moving(self) -> bool {
        matches!(self, Motion::Moving { .. })
    }
}

/// A Conceal counter on the target (R 15.0, R 59.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Conceal {
    /// The usual −1 counter (`concealed`).
    Standard,
    /// A Japanese −2 counter, until the unit leaves its starting hex
    /// (`japanese_concealed`, R 59.2).
    JapaneseMinusTwo,
}

/// Smoke on the line of fire (R 48.0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Smoke {
    #[default]
    None,
    Smoke,
    Dispersed,
}

/// Night or Monsoon rain change the moving-in-Open bonus and the range
/// (R 50.2, R 55.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Conditions {
    #[default]
    Day,
    Night,
    MonsoonRain,
    /// A Night scenario in the Monsoon rain: both limits (R 50.2, R 55.2).
    NightRain,
}

impl Conditions {
    /// The dark: no long range fire (R 50.2).
    pub fn dark(self) -> bool {
        matches!(self, Conditions::Night | Conditions::NightRain)
    }

    /// The Monsoon rain: no fire beyond three hexes (R 55.2).
    pub fn rain(self) -> bool {
        matches!(self, Conditions::MonsoonRain | Conditions::NightRain)
    }
}

/// Everything an infantry fire attack depends on, for one target unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FireContext {
    pub kind: FireKind,
    pub firer: Firer,
    pub range: Hexes,
    /// Target adjacent to the firer: +3 (PAC), +1 Prof for Op Fire (R 9.0).
    pub adjacent: bool,
    /// The firer is marked Op Fire: +1 Prof for Op Fire (R 9.0).
    pub firer_marked_op_fire: bool,
    /// A CP spent to raise Prof FP by 1, not above Normal FP (R 3.0 use 5).
    pub cp_prof_bonus: bool,
    /// A CP spent so a Used unit may Final Op Fire beyond one hex, within
    /// normal Range (R 3.0 use 3, R 10.0).
    pub cp_final_op_fire_range: bool,
    /// Fireteam Assault Fire before or mid move: Prof −2 (R 58.3).
    pub fireteam_mid_move: bool,
    /// The firer changes facing to fire: −1 (R 6.0).
    pub changed_facing: bool,
    pub target: TargetTerrain,
    pub target_motion: Motion,
    pub target_concealed: Option<Conceal>,
    pub smoke: Smoke,
    /// Hindrances on the line, already counted (R 46.0: Wheat, Orchard and
    /// Kunai one per two hexes rounded up; a Wall or Dike Road one).
    pub hindrances: u8,
    /// The line passes through Hindering Terrain even where its Hindrance
    /// counts zero (different elevations): never moving in Open Ground
    /// (R 46.0).
    pub hindered_line: bool,
    /// Fire from a flank hex of the target's facing: +1 (R 6.2).
    pub flank: bool,
    /// The firer is in a Fortification with Fire Lanes firing into an
    /// adjacent hex (R 43.0).
    pub fire_lane: bool,
    /// A Bazooka / Panzerschreck / PIAT squad at an unconcealed Gun, WT or
    /// Pillbox within SATW range: +1 (R 33.0).
    pub satw_bonus: bool,
    /// The firer is in a Wire hex (R 43.6).
    pub firer_in_wire: bool,
    pub conditions: Conditions,
    /// A Mortar WT fires by Directed Fire through a spotter next to it:
    /// −1 (R 31.1).
    pub directed: bool,
}

impl FireContext {
    /// A plain attack: adjacent when the range is 1, target stationary in
    /// `hex`, no other modifier.
    pub fn new(kind: FireKind, firer: Firer, range: Hexes, hex: &'static str) -> FireContext {
        FireContext {
            kind,
            firer,
            range,
            adjacent: range.0 == 1,
            firer_marked_op_fire: false,
            cp_prof_bonus: false,
            cp_final_op_fire_range: false,
            fireteam_mid_move: false,
            changed_facing: false,
            target: TargetTerrain::in_hex(hex),
            target_motion: Motion::Stationary,
            target_concealed: None,
            smoke: Smoke::None,
            hindrances: 0,
            hindered_line: false,
            flank: false,
            fire_lane: false,
            satw_bonus: false,
            firer_in_wire: false,
            conditions: Conditions::Day,
            directed: false,
        }
    }
}

/// Whether a unit of `class` may fire from a hex of `terrain`: a WT (MG or
/// Mortar) may not where the Player Aid's terrain row names a rule in
/// `no_wt_fire` (R 45.6: "WTs may not fire from a Surf hex."; R 52.0: "WTs
/// cannot fire from a swamp hex."). Squads and GD Squads, which are not
/// WTs, may (R 59.3). The one place fire, Op Fire, Final Op Fire and Mortar
/// fire ask it.
pub fn may_fire_from_terrain(
    aid: &PlayerAid,
    class: UnitClass,
    terrain: Terrain,
) -> Result<(), FireRefusal> {
    if !class.is_weapon_team() {
        return Ok(());
    }
    match aid
        .terrain_row(terrain.key())
        .and_then(|r| r.no_wt_fire.as_ref())
    {
        Some(rule) => Err(FireRefusal::WtNotFrom {
            terrain,
            rule: rule.clone(),
        }),
        None => Ok(()),
    }
}

/// The Player Aid key of the terrain modifier a Fortification gives, if any:
/// a Trench is a Foxhole (R 43.2), a Pillbox and a Bunker share a row
/// (R 43.3), a Fortified Position is a fortified building (R 43.5). Wire
/// gives none (R 43.6); a Roadblock is a Wall hexside for fire (R 43.7), so
/// pass `"wall"` as the hexside when the target is directly behind it.
pub fn fortification_key(kind: FortificationKind) -> Option<&'static str> {
    match kind {
        FortificationKind::Foxhole | FortificationKind::Trench => Some("foxholes"),
        FortificationKind::Bunker | FortificationKind::Pillbox => Some("bunker"),
        FortificationKind::Cave => Some("cave"),
        FortificationKind::SmallCave => Some("small_cave"),
        FortificationKind::Fortified => Some("fortified_building"),
        FortificationKind::Wire | FortificationKind::Roadblock => None,
    }
}

/// One line of the attack: "+3 Adjacent (PAC §2b)".
pub type FpLine = super::ModLine;

/// The attack, line by line; the lines add up to `total`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FpBreakdown {
    pub lines: Vec<FpLine>,
    pub total: Fp,
    /// The target is within the firer's normal Range (R 6.1: a 1 is at least
    /// a Suppression).
    pub within_normal_range: bool,
    /// The target is adjacent (R 6.1: a 1 is at least one Reduction).
    pub adjacent: bool,
}

impl FpBreakdown {
    /// Resolves this attack's roll against one target unit (R 6.1, R 6.2).
    pub fn resolve(&self, aid: &PlayerAid, roll: D10, casualty: (u8, Option<u8>)) -> FireOutcome {
        resolve(
            aid,
            roll,
            self.total,
            casualty,
            self.within_normal_range,
            self.adjacent,
        )
    }
}

/// Why a fire attack may not be made as asked (check before execute).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FireRefusal {
    /// Decoys and units without a Range never fire (R 15.0).
    CannotFire { class: UnitClass },
    /// Mortars and GD Squads fire as Mortars, not by infantry Direct Fire
    /// (R 31.0, R 59.3).
    NotDirectFire { class: UnitClass },
    /// Units may not fire in their own location (R 6.1).
    SameLocation,
    /// Beyond long range, twice the normal Range (R 6.0).
    OutOfRange { range: Hexes, long: Hexes },
    /// At Night Infantry may not fire beyond normal Range (R 50.2).
    BeyondNormalRangeAtNight { range: Hexes, normal: Hexes },
    /// In Monsoon rain no fire beyond three hexes (R 55.2).
    BeyondMonsoonRange { range: Hexes, max: Hexes },
    /// Final Op Fire only at an adjacent unit, unless a CP is spent (R 10.0).
    FinalOpFireNotAdjacent { range: Hexes },
    /// Final Op Fire with a CP reaches only the normal Range (R 10.0).
    FinalOpFireBeyondNormalRange { range: Hexes, normal: Hexes },
    /// That CP use does not apply to this attack (R 3.0).
    CpNotApplicable { rule: &'static str },
    /// Only one CP may be used on a unit each turn (R 3.0).
    OneCpPerUnit,
    /// A CP may not raise Prof FP above Normal FP (R 3.0, R 9.0 example).
    CpBeyondNormalFp { normal: Fp },
    /// WTs and Japanese Squads cannot change facing to Final Op Fire
    /// (R 10.1); a moving Squad has no facing to change (R 5.2).
    NoFacingChange { rule: &'static str },
    /// Only a moving Squad Assault Fires (R 5.2).
    AssaultFireSquadsOnly { class: UnitClass },
    /// Only a Squad in Fireteams Assault Fires before or mid move (R 58.3).
    FireteamsOnly,
    /// Adjusted FP below 1 may fire only within normal Range (R 6.1).
    BelowOneBeyondNormalRange { total: Fp },
    /// The Player Aid has no usable infantry value under this key.
    MissingData { key: String },
    /// WTs may not fire from a hex of this terrain (R 45.6, R 52.0).
    WtNotFrom { terrain: Terrain, rule: String },
    /// What only Mortars and GD Squads may not do (R 31.0, R 31.1, R 59.3).
    Mortar(super::mortar::MortarRefusal),
}

impl fmt::Display for FireRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FireRefusal::CannotFire { class } => {
                write!(f, "a {} may not fire (R 15.0)", class.name())
            }
            FireRefusal::NotDirectFire { class } => {
                write!(f, "a {} fires as a Mortar (R 31.0, R 59.3)", class.name())
            }
            FireRefusal::SameLocation => write!(f, "may not fire in its own location (R 6.1)"),
            FireRefusal::OutOfRange { range, long } => write!(
                f,
                "target {} hexes away, beyond long range {} (R 6.0)",
                range.0, long.0
            ),
            FireRefusal::BeyondNormalRangeAtNight { range, normal } => write!(
                f,
                "target {} hexes away: at Night only within normal Range {} (R 50.2)",
                range.0, normal.0
            ),
            FireRefusal::BeyondMonsoonRange { range, max } => write!(
                f,
                "target {} hexes away: in the Monsoon rain no fire beyond {} hexes (R 55.2)",
                range.0, max.0
            ),
            FireRefusal::FinalOpFireNotAdjacent { range } => write!(
                f,
                "Final Op Fire only at an adjacent unit (target {} hexes away) unless a CP is spent (R 10.0)",
                range.0
            ),
            FireRefusal::FinalOpFireBeyondNormalRange { range, normal } => write!(
                f,
                "Final Op Fire with a CP reaches only normal Range {} (target {} hexes away) (R 10.0)",
                normal.0, range.0
            ),
            FireRefusal::CpNotApplicable { rule } => {
                write!(f, "that CP use does not apply to this attack ({rule})")
            }
            FireRefusal::OneCpPerUnit => write!(f, "only one CP per unit each turn (R 3.0)"),
            FireRefusal::CpBeyondNormalFp { normal } => write!(
                f,
                "a CP may not raise Prof FP above Normal FP {normal} (R 9.0)"
            ),
            FireRefusal::NoFacingChange { rule } => {
                write!(f, "may not change facing to fire ({rule})")
            }
            FireRefusal::AssaultFireSquadsOnly { class } => {
                write!(f, "a {} may not Assault Fire (R 5.2)", class.name())
            }
            FireRefusal::FireteamsOnly => {
                write!(
                    f,
                    "only a Fireteam Squad Assault Fires before or mid move (R 58.3)"
                )
            }
            FireRefusal::BelowOneBeyondNormalRange { total } => write!(
                f,
                "adjusted FP {total} is below 1: only within normal Range (R 6.1)"
            ),
            FireRefusal::MissingData { key } => {
                write!(f, "the Player Aid has no infantry fire value for `{key}`")
            }
            FireRefusal::WtNotFrom { terrain, rule } => {
                write!(
                    f,
                    "a WT may not fire from a {} hex ({rule})",
                    terrain.name()
                )
            }
            FireRefusal::Mortar(r) => r.fmt(f),
        }
    }
}

fn missing(key: &str) -> FireRefusal {
    FireRefusal::MissingData {
        key: key.to_string(),
    }
}

/// The infantry-fire value of a situation row (§2b).
fn situation_fp(aid: &PlayerAid, key: &str) -> Result<(i16, String), FireRefusal> {
    let row = aid.situation(key).ok_or_else(|| missing(key))?;
    let v = row.inf.fp().ok_or_else(|| missing(key))?;
    Ok((i16::from(v), row.name.clone()))
}

/// A situation that concerns the target, read from the attack's column
/// (§2b): the Infantry value must exist; the Mortar column applies only
/// where it prints a non-zero value (R 31.0, R 46.0: no Hindrance, no
/// Adjacent bonus for Mortars).
fn target_situation(
    aid: &PlayerAid,
    key: &str,
    col: Column,
) -> Result<Option<(i16, String)>, FireRefusal> {
    match col {
        Column::Infantry => situation_fp(aid, key).map(Some),
        Column::Mortar => {
            let row = aid.situation(key).ok_or_else(|| missing(key))?;
            Ok(row
                .mort
                .fp()
                .filter(|v| *v != 0)
                .map(|v| (i16::from(v), row.name.clone())))
        }
    }
}

/// The rule behind a terrain choice, for its breakdown line.
fn terrain_rule(key: &str) -> &'static str {
    match key {
        "hedgerow" => "R 44.0",
        "wall" => "R 46.1",
        "higher_elevation" | "lower_elevation" => "R 47.3",
        "ridge" => "R 54.2",
        "foxholes" => "R 43.1",
        "bunker" => "R 43.3",
        "cave" | "small_cave" => "R 43.4",
        "fortified_building" => "R 43.5",
        _ => "PAC \u{00a7}2a",
    }
}

fn terrain_row<'a>(aid: &'a PlayerAid, key: &str) -> Result<&'a TerrainRow, FireRefusal> {
    aid.terrain_row(key).ok_or_else(|| missing(key))
}

/// The infantry FP of an attack, line by line (R 6.0, R 9.0, PAC §1), or why
/// it may not be made.
pub fn infantry_fp(aid: &PlayerAid, ctx: &FireContext) -> Result<FpBreakdown, FireRefusal> {
    let firer = &ctx.firer;
    let side = &firer.side;
    let col = Column::of(firer.class);
    if firer.class == UnitClass::Decoy || side.range == FireRange::None {
        return Err(FireRefusal::CannotFire { class: firer.class });
    }
    // Who may fire, and how far (R 6.0, R 6.1, R 10.0, R 50.2); a Mortar
    // has its band and no long range (R 31.0, R 59.3).
    if ctx.range.0 == 0 {
        return Err(FireRefusal::SameLocation);
    }
    let normal_range = match (col, side.range) {
        (Column::Mortar, spec) => {
            super::mortar::check_range(spec, ctx.range).map_err(FireRefusal::Mortar)?;
            if ctx.directed {
                super::mortar::check_directed(firer.class, false).map_err(FireRefusal::Mortar)?;
            }
            ctx.range
        }
        (Column::Infantry, FireRange::Normal(r)) => Hexes(u32::from(r)),
        (Column::Infantry, _) => return Err(FireRefusal::NotDirectFire { class: firer.class }),
    };
    let long = match col {
        Column::Mortar => normal_range,
        Column::Infantry => Hexes(normal_range.0 * u32::from(aid.constants.long_range_factor)),
    };
    if ctx.range > long {
        return Err(FireRefusal::OutOfRange {
            range: ctx.range,
            long,
        });
    }
    let within_normal_range = ctx.range <= normal_range;
    let monsoon_max = Hexes(u32::from(aid.constants.monsoon_max_range));
    if ctx.conditions.rain() && ctx.range > monsoon_max {
        return Err(FireRefusal::BeyondMonsoonRange {
            range: ctx.range,
            max: monsoon_max,
        });
    }
    if !within_normal_range && ctx.conditions.dark() {
        return Err(FireRefusal::BeyondNormalRangeAtNight {
            range: ctx.range,
            normal: normal_range,
        });
    }
    if ctx.cp_final_op_fire_range {
        if ctx.kind != FireKind::FinalOpFire || ctx.adjacent {
            return Err(FireRefusal::CpNotApplicable { rule: "R 10.0" });
        }
        if ctx.cp_prof_bonus {
            return Err(FireRefusal::OneCpPerUnit);
        }
    }
    if ctx.cp_prof_bonus && !ctx.kind.uses_prof() {
        return Err(FireRefusal::CpNotApplicable { rule: "R 3.0" });
    }
    match ctx.kind {
        FireKind::FinalOpFire => {
            if !ctx.adjacent {
                if !ctx.cp_final_op_fire_range {
                    return Err(FireRefusal::FinalOpFireNotAdjacent { range: ctx.range });
                }
                if !within_normal_range {
                    return Err(FireRefusal::FinalOpFireBeyondNormalRange {
                        range: ctx.range,
                        normal: normal_range,
                    });
                }
            }
            if ctx.changed_facing && (firer.class.is_weapon_team() || firer.japanese) {
                return Err(FireRefusal::NoFacingChange { rule: "R 10.1" });
            }
        }
        FireKind::AssaultFire => {
            // GD Squads are not WTs: they may Assault Fire (R 59.3).
            if !matches!(firer.class, UnitClass::Squad | UnitClass::GdSquad) {
                return Err(FireRefusal::AssaultFireSquadsOnly { class: firer.class });
            }
            if ctx.changed_facing {
                return Err(FireRefusal::NoFacingChange { rule: "R 5.2" });
            }
        }
        FireKind::Normal | FireKind::OpFire => {}
    }
    if ctx.fireteam_mid_move && (!firer.fireteams || ctx.kind != FireKind::AssaultFire) {
        return Err(FireRefusal::FireteamsOnly);
    }

    let mut lines = Vec::new();
    let mut fp: i16 = 0;
    fn push(lines: &mut Vec<FpLine>, fp: &mut i16, text: String, delta: i16, rule: &'static str) {
        *fp += delta;
        lines.push(FpLine { text, delta, rule });
    }

    // 1. Base FP (R 2.1).
    let normal_fp = i16::from(side.fp);
    let (base, base_text, base_rule) = match ctx.kind {
        FireKind::Normal => (normal_fp, "Normal FP".to_string(), "R 2.1"),
        FireKind::OpFire => (
            i16::from(side.prof),
            "Prof FP: Op Fire".to_string(),
            "R 9.0",
        ),
        FireKind::FinalOpFire => (
            i16::from(side.prof),
            "Prof FP: Final Op Fire".to_string(),
            "R 10.0",
        ),
        FireKind::AssaultFire => (
            i16::from(side.prof),
            "Prof FP: Assault Fire".to_string(),
            "R 5.2",
        ),
    };
    push(&mut lines, &mut fp, base_text, base, base_rule);

    // 2. Long range: halved, rounded down, before anything else (R 6.0).
    // The Prof cap is then the Normal FP at that range, halved too.
    let mut cap = normal_fp;
    if !within_normal_range {
        let halved = fp / 2;
        push(
            &mut lines,
            &mut fp,
            format!(
                "long range ({} hexes, Range {}): halved, rounded down",
                ctx.range.0, normal_range.0
            ),
            halved - base,
            "R 6.0",
        );
        cap = normal_fp / 2;
    }

    // 3. Prof raises, each never above Normal FP (R 9.0); then the Prof
    // reductions: Fireteam fire (R 58.3) and turning (R 6.0).
    if ctx.kind.uses_prof() {
        let raises = [
            (
                "prof_adjacent_op_fire",
                ctx.kind.is_op_fire() && ctx.adjacent,
                "R 9.0",
            ),
            (
                "prof_marked_op_fire",
                ctx.kind.is_op_fire() && ctx.firer_marked_op_fire,
                "R 9.0",
            ),
            ("prof_cp", ctx.cp_prof_bonus, "R 3.0, R 9.0"),
        ];
        for (key, applies, rule) in raises {
            if !applies {
                continue;
            }
            let (value, name) = situation_fp(aid, key)?;
            let room = (cap - fp).max(0);
            let applied = value.min(room);
            if key == "prof_cp" && applied < value {
                return Err(FireRefusal::CpBeyondNormalFp { normal: Fp(cap) });
            }
            let text = if applied < value {
                format!("{name} \u{2014} not above Normal FP {cap}")
            } else {
                name
            };
            push(&mut lines, &mut fp, text, applied, rule);
        }
        if ctx.fireteam_mid_move {
            let (value, name) = situation_fp(aid, "fireteam_fire")?;
            push(&mut lines, &mut fp, name, value, "R 58.3");
        }
    }
    if ctx.changed_facing {
        let (value, name) = situation_fp(aid, "changed_facing")?;
        push(&mut lines, &mut fp, name, value, "R 6.0");
    }

    // 4. Only the target's single best terrain modifier (PAC §1, R 43.0).
    let t = &ctx.target;
    let moving = ctx.target_motion.is_moving();
    let on_path = matches!(ctx.target_motion, Motion::Moving { on_path: true, .. });
    let hex_row = terrain_row(aid, t.hex)?;
    let mut keys: Vec<&'static str> = Vec::new();
    match (t.fortification, moving) {
        // Foxholes in Woods have a row of their own (PAC §2a).
        (Some("foxholes"), false) if t.hex == "woods" => keys.push("woods_foxholes"),
        // In a Fortification: only its benefit (R 43.0).
        (Some(f), false) => keys.push(f),
        // Moving: no Swamp benefit (R 52.0); no terrain benefit on a Path
        // against adjacent fire (R 53.0); a Fortification is ignored.
        (_, true) if t.hex == "swamp" => {}
        (_, true) if on_path && ctx.adjacent => {}
        _ => keys.push(t.hex),
    }
    // R 44.0: "Target units do NOT get the benefit of the hedgerow when they
    // move into or out of a hex on the opposite side of a hedgerow hexside
    // from an adjacent firing unit. They may also be considered moving in
    // Open Ground in that case." R 46.1 says the same of a Wall.
    let across_from_adjacent_firer =
        moving && ctx.adjacent && matches!(t.hexside, Some("hedgerow" | "wall"));
    if !across_from_adjacent_firer {
        keys.extend(t.hexside);
    }
    keys.extend(t.elevation.key());
    let mut candidates: Vec<(&'static str, &TerrainRow, i16)> = Vec::new();
    let mut lost_to_fire_lane = false;
    for key in keys {
        let row = terrain_row(aid, key)?;
        // Words ("open") or a zero that is not Beneficial Terrain: no
        // modifier to choose (Open Ground is the absence of one). Mortars
        // read their column, where a zero is no modifier at all: hexsides
        // and a higher target do not protect from them (R 47.3, PAC §2a).
        let cell = match col {
            Column::Infantry => &row.inf,
            Column::Mortar => &row.mort,
        };
        let Some(v) = cell.fp() else { continue };
        if v == 0 && (!row.beneficial || col == Column::Mortar) {
            continue;
        }
        // Fire Lanes keep only buildings (the `building` flag; Huts count,
        // R 40.1) and a higher target's elevation (R 43.0). The Carrier
        // exception is not modelled here.
        if ctx.fire_lane && moving && row.beneficial && !row.building && key != "higher_elevation" {
            lost_to_fire_lane = true;
            continue;
        }
        candidates.push((key, row, i16::from(v)));
    }
    if lost_to_fire_lane {
        push(
            &mut lines,
            &mut fp,
            "Fire Lane: no Beneficial Terrain modifier for a moving target".to_string(),
            0,
            "R 43.0",
        );
    }
    let best = candidates
        .iter()
        .enumerate()
        .min_by_key(|(i, (_, _, v))| (*v, *i))
        .map(|(_, c)| *c);
    if let Some((key, row, v)) = best {
        let text = if candidates.len() > 1 {
            format!(
                "{} (best of {} terrain choices)",
                row.name,
                candidates.len()
            )
        } else {
            row.name.clone()
        };
        push(&mut lines, &mut fp, text, v, terrain_rule(key));
    }
    // A Mortar's bonus at a mover is lost only to a modifier that lowers
    // its FP (R 41.0, R 47.3 example).
    let best_beneficial = best.is_some_and(|(_, row, v)| match col {
        Column::Infantry => row.beneficial,
        Column::Mortar => v < 0,
    });

    // 5. Every situation that applies (PAC §2b).
    if ctx.adjacent
        && let Some((v, name)) = target_situation(aid, "adjacent", col)?
    {
        push(&mut lines, &mut fp, name, v, "PAC \u{00a7}2b");
    }
    if ctx.directed
        && let Some((v, name)) = target_situation(aid, "mortar_directed", col)?
    {
        push(&mut lines, &mut fp, name, v, "R 31.1");
    }
    // Hindrances never impact Mortars (R 46.0).
    let hindered =
        col == Column::Infantry && (ctx.hindrances > 0 || ctx.hindered_line || hex_row.hindrance);
    if let Motion::Moving {
        open_ground: true, ..
    } = ctx.target_motion
    {
        let withheld = if best_beneficial {
            Some(("a Beneficial Terrain modifier", "R 41.0"))
        } else if ctx.smoke != Smoke::None {
            Some(("Smoke", "R 48.0"))
        } else if hindered {
            Some(("Hindering Terrain", "R 46.0"))
        } else if ctx.fire_lane && hex_row.beneficial {
            Some(("Fire Lane into Beneficial Terrain", "R 43.0"))
        } else {
            None
        };
        match withheld {
            Some((why, rule)) => push(
                &mut lines,
                &mut fp,
                format!("moving in Open Ground: no bonus with {why}"),
                0,
                rule,
            ),
            None => {
                let (key, rule) = match ctx.conditions {
                    Conditions::Day => ("moving_open", "R 41.0"),
                    Conditions::Night => ("moving_open_night", "R 50.2"),
                    Conditions::MonsoonRain | Conditions::NightRain => {
                        ("moving_open_night", "R 55.2")
                    }
                };
                let row = aid.situation(key).ok_or_else(|| missing(key))?;
                let band = row
                    .bands
                    .iter()
                    .find(|b| u32::from(b.from) <= ctx.range.0 && ctx.range.0 <= u32::from(b.to))
                    .ok_or_else(|| missing(key))?;
                push(
                    &mut lines,
                    &mut fp,
                    format!("{}, range {}", row.name, ctx.range.0),
                    i16::from(band.value),
                    rule,
                );
            }
        }
    }
    let [concealed, japanese] = conceal_situations(ctx);
    let situations = [
        (ctx.kind == FireKind::FinalOpFire, "final_op_fire", "R 10.0"),
        concealed,
        japanese,
        (ctx.smoke == Smoke::Smoke, "smoke", "R 48.0"),
        (ctx.smoke == Smoke::Dispersed, "dispersed_smoke", "R 48.0"),
    ];
    for (applies, key, rule) in situations {
        if applies && let Some((v, name)) = target_situation(aid, key, col)? {
            push(&mut lines, &mut fp, name, v, rule);
        }
    }
    if ctx.hindrances > 0 && col == Column::Infantry {
        let (v, name) = situation_fp(aid, "hindrance")?;
        let n = i16::from(ctx.hindrances);
        push(
            &mut lines,
            &mut fp,
            format!("{name} \u{00d7}{n}"),
            v * n,
            "R 46.0",
        );
    }
    // Flank fire is Direct Fire only, never Mortars or GD Squads (R 6.2).
    if ctx.flank && col == Column::Infantry {
        // Moving or Concealed units have no facing: all fire is at their
        // front (R 2.2).
        if moving || ctx.target_concealed.is_some() {
            push(
                &mut lines,
                &mut fp,
                "flank: no bonus, a moving or Concealed target has no facing".to_string(),
                0,
                "R 2.2",
            );
        } else {
            let (v, name) = situation_fp(aid, "flank")?;
            push(&mut lines, &mut fp, name, v, "R 6.2");
        }
    }
    if ctx.satw_bonus && col == Column::Infantry {
        let (v, name) = situation_fp(aid, "satw_bonus")?;
        push(&mut lines, &mut fp, name, v, "R 33.0");
    }
    if ctx.firer_in_wire {
        let (v, name) = situation_fp(aid, "firer_in_wire")?;
        push(&mut lines, &mut fp, name, v, "R 43.6");
    }

    // 6. A Cave lowers FP only to 1 (R 43.4); below 1 fires only within
    // normal Range (R 6.1).
    let cave_min = i16::from(aid.constants.cave_min_fp);
    if best.is_some_and(|(key, _, _)| key == "cave" || key == "small_cave") && fp < cave_min {
        let raise = cave_min - fp;
        push(
            &mut lines,
            &mut fp,
            "Cave: FP not below 1".to_string(),
            raise,
            "R 43.4",
        );
    }
    if fp < 1 && !within_normal_range {
        return Err(FireRefusal::BelowOneBeyondNormalRange { total: Fp(fp) });
    }
    Ok(FpBreakdown {
        lines,
        total: Fp(fp),
        within_normal_range,
        adjacent: ctx.adjacent,
    })
}

/// The target's Conceal counter as situation rows: (applies, key, rule)
/// for the usual -1 (R 15.0) and the Japanese -2 (R 59.2).
pub fn conceal_situations(ctx: &FireContext) -> [(bool, &'static str, &'static str); 2] {
    [
        (
            ctx.target_concealed == Some(Conceal::Standard),
            "concealed",
            "R 15.0",
        ),
        (
            ctx.target_concealed == Some(Conceal::JapaneseMinusTwo),
            "japanese_concealed",
            "R 59.2",
        ),
    ]
}

/// What one fire attack does to one target unit (R 6.2, R 8.0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FireOutcome {
    NoEffect,
    /// One step of Suppression.
    Suppressed,
    /// Reduced and Fully Suppressed (R 6.2, R 8.0).
    Reduced,
    /// Eliminated: by the second Casualty number, or a Reduced unit Reduced
    /// again (R 8.0).
    Eliminated,
}

impl FireOutcome {
    pub fn name(self) -> &'static str {
        match self {
            FireOutcome::NoEffect => "No Effect",
            FireOutcome::Suppressed => "Suppressed",
            FireOutcome::Reduced => "Reduced and Fully Suppressed",
            FireOutcome::Eliminated => "Eliminated",
        }
    }
}

/// Resolves a roll against one target unit (R 6.1, R 6.2, R 8.0).
///
/// `casualty` is the target's Casualty rating: `(first, Some(second))` on a
/// Full-Strength side, `(only, None)` on a Reduced side. Roll ≤ FP: one
/// Suppression step; roll + first ≤ FP: Reduced (a Reduced unit Reduced again
/// is eliminated, R 8.0); roll + second ≤ FP: eliminated. A 10 is always No
/// Effect; a 1 within normal Range is at least a Suppression, and a 1 at an
/// adjacent target at least one Reduction (R 6.1).
pub fn resolve(
    aid: &PlayerAid,
    roll: D10,
    fp: Fp,
    casualty: (u8, Option<u8>),
    within_normal_range: bool,
    adjacent: bool,
) -> FireOutcome {
    if roll.0 >= aid.constants.always_no_effect {
        return FireOutcome::NoEffect;
    }
    let r = i16::from(roll.0);
    let full_strength = casualty.1.is_some();
    let reduction = if full_strength {
        FireOutcome::Reduced
    } else {
        FireOutcome::Eliminated
    };
    let mut outcome = if r > fp.0 {
        FireOutcome::NoEffect
    } else if let Some(second) = casualty.1
        && r + i16::from(second) <= fp.0
    {
        FireOutcome::Eliminated
    } else if r + i16::from(casualty.0) <= fp.0 {
        reduction
    } else {
        FireOutcome::Suppressed
    };
    if roll.0 == 1 {
        if adjacent {
            outcome = outcome.max(reduction);
        } else if within_normal_range {
            outcome = outcome.max(FireOutcome::Suppressed);
        }
    }
    outcome
}

/// A unit's Suppression marker (R 7.0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum SuppressionLevel {
    /// No marker: white Morale.
    #[default]
    None,
    /// Yellow Suppressed marker: yellow Morale.
    Suppressed,
    /// Red Fully Suppressed marker: red Morale.
    Full,
}

/// One step of Suppression (R 6.2, R 7.0): none → Suppressed → Fully
/// Suppressed; a Fully Suppressed unit suffers no more.
pub fn suppression_step(s: SuppressionLevel) -> SuppressionLevel {
    match s {
        SuppressionLevel::None => SuppressionLevel::Suppressed,
        SuppressionLevel::Suppressed | SuppressionLevel::Full => SuppressionLevel::Full,
    }
}

/// The unit's marker after a fire outcome (R 6.2, R 8.0); `None` if it is
/// eliminated. A Reduced unit is always Fully Suppressed.
pub fn suppression_after(s: SuppressionLevel, outcome: FireOutcome) -> Option<SuppressionLevel> {
    match outcome {
        FireOutcome::NoEffect => Some(s),
        FireOutcome::Suppressed => Some(suppression_step(s)),
        FireOutcome::Reduced => Some(SuppressionLevel::Full),
        FireOutcome::Eliminated => None,
    }
}

/// An attack at a unit in a Concealed Fortification (R 43.0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HiddenFortificationResult {
    /// The attack whose result stands.
    pub breakdown: FpBreakdown,
    pub outcome: FireOutcome,
    /// The Fortification loses its Concealment.
    pub fortification_revealed: bool,
}

/// Fire at a unit in a Concealed Fortification (R 43.0, Fortification
/// Concealment): the attack is made with the visible terrain; if that has an
/// effect, the Fortification is revealed (its modifier is used, or the unit
/// is Suppressed), and if its modifier changes the result the unit gets it.
/// `ctx.target.fortification` names the hidden Fortification.
pub fn resolve_hidden_fortification(
    aid: &PlayerAid,
    ctx: &FireContext,
    roll: D10,
    casualty: (u8, Option<u8>),
) -> Result<HiddenFortificationResult, FireRefusal> {
    let mut visible_ctx = *ctx;
    visible_ctx.target.fortification = None;
    let visible = infantry_fp(aid, &visible_ctx)?;
    let seen = visible.resolve(aid, roll, casualty);
    if seen == FireOutcome::NoEffect || ctx.target.fortification.is_none() {
        return Ok(HiddenFortificationResult {
            breakdown: visible,
            outcome: seen,
            fortification_revealed: false,
        });
    }
    let fortified = infantry_fp(aid, ctx)?;
    let with_fort = fortified.resolve(aid, roll, casualty);
    let (breakdown, outcome) = if with_fort < seen {
        (fortified, with_fort)
    } else {
        (visible, seen)
    };
    Ok(HiddenFortificationResult {
        breakdown,
        outcome,
        fortification_revealed: true,
    })
}

/// The hexside the thread from `from` crosses as it enters `to` (R 14.0).
pub fn crossed_edge(
    board: &crate::map::Board,
    from: crate::scenario::Coord,
    to: crate::scenario::Coord,
) -> Option<crate::map::board::Edge> {
    use crate::rules::los::{ThreadStep, thread};
    thread(board, from, to).iter().rev().find_map(|s| match s {
        ThreadStep::Cross { into, edge, .. } if *into == to => Some(*edge),
        _ => None,
    })
}

/// The hexside that protects a target at `to` from fire out of `from`: the
/// hedgerow (R 44.0) or wall (R 46.1) the thread crosses into the target
/// hex, as a Player Aid key.
pub fn hexside_protection(
    board: &crate::map::Board,
    from: crate::scenario::Coord,
    to: crate::scenario::Coord,
) -> Option<&'static str> {
    use crate::scenario::schema::HexsideFeature;
    let edge = crossed_edge(board, from, to)?;
    let features = board.hexside(edge.coord, edge.side);
    if features.contains(&HexsideFeature::Hedgerow) {
        Some("hedgerow")
    } else if features.contains(&HexsideFeature::Wall) {
        Some("wall")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::roster::Roster;

    fn aid() -> PlayerAid {
        crate::scenario::builtin_player_aid().expect("player aid builds")
    }

    fn roster() -> Roster {
        crate::scenario::builtin_roster().expect("roster builds")
    }

    fn firer(id: &str, reduced: bool) -> Firer {
        let roster = roster();
        Firer::of(roster.get(id).expect("unit in roster"), reduced)
    }

    /// A counter with the values a worked example gives; the rest copied
    /// from the German 1st Line Squad, which the example does not use.
    fn example_squad(fp: u8, prof: u8, range: u8, casualty: (u8, Option<u8>)) -> Firer {
        let mut f = firer("ger1_squad", false);
        f.side.fp = fp;
        f.side.prof = prof;
        f.side.range = FireRange::Normal(range);
        f.side.casualty = casualty;
        f
    }

    /// The attack, checked to add up line by line.
    fn fp(ctx: &FireContext) -> FpBreakdown {
        let b = infantry_fp(&aid(), ctx).expect("attack allowed");
        let sum: i16 = b.lines.iter().map(|l| l.delta).sum();
        assert_eq!(Fp(sum), b.total, "lines add up: {:#?}", b.lines);
        b
    }

    fn deltas(b: &FpBreakdown) -> Vec<(i16, &'static str)> {
        b.lines.iter().map(|l| (l.delta, l.rule)).collect()
    }

    fn d(n: u8) -> D10 {
        D10(n)
    }

    /// R 9.0 example: a Panzer Grenadier Squad (6/5) marked Op Fire fires at
    /// a unit 3 hexes away moving into a stone building: Prof 5, +1 marked
    /// Op Fire = 6, no CP (it would pass Normal FP), stone building −2 = 4.
    #[test]
    fn op_fire_example_r9_panzer_grenadier_comes_to_4() {
        let pzg = example_squad(6, 5, 6, (4, Some(7)));
        let mut ctx = FireContext::new(FireKind::OpFire, pzg, Hexes(3), "stone_building");
        ctx.firer_marked_op_fire = true;
        ctx.target_motion = Motion::Moving {
            open_ground: false,
            on_path: false,
        };
        let b = fp(&ctx);
        assert_eq!(b.total, Fp(4));
        assert_eq!(
            deltas(&b),
            vec![(5, "R 9.0"), (1, "R 9.0"), (-2, "PAC \u{00a7}2a")]
        );
        assert_eq!(b.lines[2].text, "Stone building");
        ctx.cp_prof_bonus = true;
        assert_eq!(
            infantry_fp(&aid(), &ctx),
            Err(FireRefusal::CpBeyondNormalFp { normal: Fp(6) })
        );
    }

    /// R 43.0 Fire Lane example: an MG WT (7/6) in a Bunker Op Fires at a
    /// Squad moving in an adjacent Jungle hex: 6 +1 Prof adjacent +3
    /// adjacent = 10; without the Fire Lane 10 −2 Jungle = 8.
    #[test]
    fn fire_lane_example_r43_10_fp_else_8() {
        let mg = firer("jap_mg", false);
        assert_eq!((mg.side.fp, mg.side.prof), (7, 6));
        let mut ctx = FireContext::new(FireKind::OpFire, mg, Hexes(1), "jungle");
        ctx.target_motion = Motion::Moving {
            open_ground: false,
            on_path: false,
        };
        ctx.fire_lane = true;
        let lane = fp(&ctx);
        assert_eq!(lane.total, Fp(10));
        assert_eq!(
            deltas(&lane),
            vec![
                (6, "R 9.0"),
                (1, "R 9.0"),
                (0, "R 43.0"),
                (3, "PAC \u{00a7}2b")
            ]
        );
        ctx.fire_lane = false;
        let plain = fp(&ctx);
        assert_eq!(plain.total, Fp(8));
        assert_eq!(
            deltas(&plain),
            vec![
                (6, "R 9.0"),
                (1, "R 9.0"),
                (-2, "PAC \u{00a7}2a"),
                (3, "PAC \u{00a7}2b")
            ]
        );
    }

    /// R 43.0 reveal example: an MG WT (7 FP) at a Concealed Japanese Squad
    /// and Bunker in Jungle: 7 −2 Concealed −2 Jungle = 3, roll 3 would
    /// Suppress, so the Bunker is revealed; −3 Bunker replaces −2 Jungle,
    /// 2 FP, and the unit is not Suppressed (keeps its −2 Conceal).
    #[test]
    fn reveal_example_r43_bunker_replaces_jungle() {
        let aid = aid();
        let mg = firer("marine_mg", true);
        assert_eq!(mg.side.fp, 7);
        let mut ctx = FireContext::new(FireKind::Normal, mg, Hexes(4), "jungle");
        ctx.target_concealed = Some(Conceal::JapaneseMinusTwo);
        let visible = fp(&ctx);
        assert_eq!(visible.total, Fp(3));
        assert_eq!(
            deltas(&visible),
            vec![(7, "R 2.1"), (-2, "PAC \u{00a7}2a"), (-2, "R 59.2")]
        );
        let jap = roster().get("jap_squad").unwrap().full.casualty;
        assert_eq!(visible.resolve(&aid, d(3), jap), FireOutcome::Suppressed);

        ctx.target.fortification = Some("bunker");
        let fortified = fp(&ctx);
        assert_eq!(fortified.total, Fp(2));
        assert_eq!(
            deltas(&fortified),
            vec![(7, "R 2.1"), (-3, "R 43.3"), (-2, "R 59.2")]
        );
        let r = resolve_hidden_fortification(&aid, &ctx, d(3), jap).unwrap();
        assert_eq!(r.outcome, FireOutcome::NoEffect);
        assert!(r.fortification_revealed);
        assert_eq!(r.breakdown.total, Fp(2));
        // A 2 Suppresses either way: revealed, Suppressed.
        let r = resolve_hidden_fortification(&aid, &ctx, d(2), jap).unwrap();
        assert_eq!(r.outcome, FireOutcome::Suppressed);
        assert!(r.fortification_revealed);
        // A 4 misses at 3 FP: the Bunker stays hidden.
        let r = resolve_hidden_fortification(&aid, &ctx, d(4), jap).unwrap();
        assert_eq!(r.outcome, FireOutcome::NoEffect);
        assert!(!r.fortification_revealed);
        assert_eq!(r.breakdown.total, Fp(3));
    }

    /// R 51.2 example: a Marine Squad (4/3) Assault Fires at an adjacent
    /// Concealed Japanese Squad in Jungle: 3 Prof +3 adjacent −2 Jungle −1
    /// Concealed = 3. No Op Fire Prof raise for being adjacent.
    #[test]
    fn assault_fire_example_r51_2_is_3() {
        let marines = firer("marine42_squad", false);
        assert_eq!((marines.side.fp, marines.side.prof), (4, 3));
        let mut ctx = FireContext::new(FireKind::AssaultFire, marines, Hexes(1), "jungle");
        ctx.target_concealed = Some(Conceal::Standard);
        let b = fp(&ctx);
        assert_eq!(b.total, Fp(3));
        assert_eq!(
            deltas(&b),
            vec![
                (3, "R 5.2"),
                (-2, "PAC \u{00a7}2a"),
                (3, "PAC \u{00a7}2b"),
                (-1, "R 15.0")
            ]
        );
    }

    /// PAC §1: adjacent to a target in a stone building behind a hedgerow:
    /// only the best terrain (−2, not −4), then +3: −2 + 3 = +1.
    #[test]
    fn pac_example_stone_building_behind_hedgerow_adjacent_is_plus_1() {
        let para = firer("para_squad", false);
        let mut ctx = FireContext::new(FireKind::Normal, para, Hexes(1), "stone_building");
        ctx.target.hexside = Some("hedgerow");
        let b = fp(&ctx);
        let modifiers: i16 = b.lines[1..].iter().map(|l| l.delta).sum();
        assert_eq!(modifiers, 1);
        assert_eq!(b.total, Fp(6 + 1));
        assert_eq!(
            deltas(&b),
            vec![(6, "R 2.1"), (-2, "PAC \u{00a7}2a"), (3, "PAC \u{00a7}2b")]
        );
        assert_eq!(
            b.lines[1].to_string(),
            "\u{2212}2 Stone building (best of 2 terrain choices) (PAC \u{00a7}2a)"
        );
        assert_eq!(b.lines[2].to_string(), "+3 Adjacent (PAC \u{00a7}2b)");
    }

    /// R 67.0: a Russian SMG Squad (FP 6, Range 2) at a Concealed unit in a
    /// wooden building at long range: 6 halved to 3 first, −1 Concealed,
    /// −1 wooden building = 1 (halving after the modifiers would give 2).
    /// It rolls a 1: a Suppression.
    #[test]
    fn long_range_halves_before_modifiers_r67() {
        let aid = aid();
        let smg = example_squad(6, 3, 2, (4, Some(7)));
        let mut ctx = FireContext::new(FireKind::Normal, smg, Hexes(3), "wooden_building");
        ctx.target_concealed = Some(Conceal::Standard);
        let b = fp(&ctx);
        assert_eq!(b.total, Fp(1));
        assert_eq!(
            deltas(&b),
            vec![
                (6, "R 2.1"),
                (-3, "R 6.0"),
                (-1, "PAC \u{00a7}2a"),
                (-1, "R 15.0")
            ]
        );
        assert!(!b.within_normal_range);
        assert_eq!(b.resolve(&aid, d(1), (4, Some(7))), FireOutcome::Suppressed);
        // Range 4 is still long range; 5 is beyond twice the Range.
        ctx.range = Hexes(4);
        assert_eq!(fp(&ctx).total, Fp(1));
        ctx.range = Hexes(5);
        assert_eq!(
            infantry_fp(&aid, &ctx),
            Err(FireRefusal::OutOfRange {
                range: Hexes(5),
                long: Hexes(4)
            })
        );
        // Below 1 at long range may not fire; within normal Range it may.
        ctx.range = Hexes(3);
        ctx.hindrances = 1;
        assert_eq!(
            infantry_fp(&aid, &ctx),
            Err(FireRefusal::BelowOneBeyondNormalRange { total: Fp(0) })
        );
        ctx.range = Hexes(2);
        assert_eq!(fp(&ctx).total, Fp(6 - 1 - 1 - 1));
    }

    /// Long range Op Fire: Prof 5 halved to 2 first; the raise is capped at
    /// the Normal FP at that range (6 halved = 3), so no CP may be spent.
    #[test]
    fn long_range_op_fire_caps_at_halved_normal() {
        let pzg = example_squad(6, 5, 6, (4, Some(7)));
        let mut ctx = FireContext::new(FireKind::OpFire, pzg, Hexes(9), "open");
        ctx.firer_marked_op_fire = true;
        let b = fp(&ctx);
        assert_eq!(deltas(&b), vec![(5, "R 9.0"), (-3, "R 6.0"), (1, "R 9.0")]);
        assert_eq!(b.total, Fp(3));
        ctx.cp_prof_bonus = true;
        assert_eq!(
            infantry_fp(&aid(), &ctx),
            Err(FireRefusal::CpBeyondNormalFp { normal: Fp(3) })
        );
    }

    /// R 9.0: the Prof raises are cumulative but never above Normal FP:
    /// Prof 5 (Normal 6) adjacent and marked Op Fire is 6, the second
    /// raise adding nothing; the +3 adjacent then goes above Normal.
    #[test]
    fn prof_raises_cap_at_normal_fp() {
        let pzg = example_squad(6, 5, 6, (4, Some(7)));
        let mut ctx = FireContext::new(FireKind::OpFire, pzg, Hexes(1), "open");
        ctx.firer_marked_op_fire = true;
        let b = fp(&ctx);
        assert_eq!(
            deltas(&b),
            vec![
                (5, "R 9.0"),
                (1, "R 9.0"),
                (0, "R 9.0"),
                (3, "PAC \u{00a7}2b")
            ]
        );
        assert_eq!(b.total, Fp(9));
        assert!(b.lines[2].text.ends_with("not above Normal FP 6"));
        // Turning costs 1 after the cap (PAC §1 step 3 order).
        ctx.changed_facing = true;
        assert_eq!(fp(&ctx).total, Fp(8));
    }

    /// R 67.0, the Op Fire and Final Op Fire of the extended example.
    #[test]
    fn extended_example_r67_attacks() {
        let aid = aid();
        let german = example_squad(6, 5, 6, (4, Some(7)));
        let russian = (4, Some(7));
        // Op Fire, Prof 5, no CP, +4 moving in Open Ground 2 hexes away = 9.
        let mut ctx = FireContext::new(FireKind::OpFire, german, Hexes(2), "open");
        ctx.target_motion = Motion::Moving {
            open_ground: true,
            on_path: false,
        };
        let b = fp(&ctx);
        assert_eq!(deltas(&b), vec![(5, "R 9.0"), (4, "R 41.0")]);
        // A 3 Reduces; "had he rolled a 2, ... eliminated".
        assert_eq!(b.resolve(&aid, d(3), russian), FireOutcome::Reduced);
        assert_eq!(b.resolve(&aid, d(2), russian), FireOutcome::Eliminated);

        // Final Op Fire at an adjacent unit in a wooden building:
        // 5 +1 adjacent = 6, −1 wooden building, +3 adjacent, −2 = 6; a 2
        // Reduces.
        let ctx = FireContext::new(FireKind::FinalOpFire, german, Hexes(1), "wooden_building");
        let b = fp(&ctx);
        assert_eq!(
            deltas(&b),
            vec![
                (5, "R 10.0"),
                (1, "R 9.0"),
                (-1, "PAC \u{00a7}2a"),
                (3, "PAC \u{00a7}2b"),
                (-2, "R 10.0")
            ]
        );
        assert_eq!(b.total, Fp(6));
        assert_eq!(b.resolve(&aid, d(2), russian), FireOutcome::Reduced);

        // Final Op Fire beyond one hex needs a CP, and then within Range.
        let mut ctx = FireContext::new(FireKind::FinalOpFire, german, Hexes(2), "open");
        assert_eq!(
            infantry_fp(&aid, &ctx),
            Err(FireRefusal::FinalOpFireNotAdjacent { range: Hexes(2) })
        );
        ctx.cp_final_op_fire_range = true;
        assert_eq!(fp(&ctx).total, Fp(5 - 2));
        ctx.cp_prof_bonus = true;
        assert_eq!(infantry_fp(&aid, &ctx), Err(FireRefusal::OneCpPerUnit));
        ctx.cp_prof_bonus = false;
        ctx.range = Hexes(7);
        assert_eq!(
            infantry_fp(&aid, &ctx),
            Err(FireRefusal::FinalOpFireBeyondNormalRange {
                range: Hexes(7),
                normal: Hexes(6)
            })
        );

        // The Reduced Russian Assault Fires: Prof 3, −2 stone building, +3
        // adjacent = 4; rolls 5 and misses. With a CP, 5: "another step of
        // Suppression on the German" (Suppressed to Fully Suppressed).
        let reduced_russian = example_squad(6, 3, 2, (4, None));
        let mut ctx = FireContext::new(
            FireKind::AssaultFire,
            reduced_russian,
            Hexes(1),
            "stone_building",
        );
        let b = fp(&ctx);
        assert_eq!(b.total, Fp(4));
        let german_casualty = german.side.casualty;
        assert_eq!(
            b.resolve(&aid, d(5), german_casualty),
            FireOutcome::NoEffect
        );
        ctx.cp_prof_bonus = true;
        let b = fp(&ctx);
        assert_eq!(b.total, Fp(5));
        let out = b.resolve(&aid, d(5), german_casualty);
        assert_eq!(out, FireOutcome::Suppressed);
        assert_eq!(
            suppression_after(SuppressionLevel::Suppressed, out),
            Some(SuppressionLevel::Full)
        );

        // Marked Op Fire: 5 → 6, no CP above Normal, +4 moving in Open = 10;
        // a 9 Suppresses.
        let mut ctx = FireContext::new(FireKind::OpFire, german, Hexes(2), "open");
        ctx.firer_marked_op_fire = true;
        ctx.target_motion = Motion::Moving {
            open_ground: true,
            on_path: false,
        };
        let b = fp(&ctx);
        assert_eq!(b.total, Fp(10));
        assert_eq!(b.resolve(&aid, d(9), russian), FireOutcome::Suppressed);
    }

    /// R 44.0: "Target units do NOT get the benefit of the hedgerow when
    /// they move into or out of a hex on the opposite side of a hedgerow
    /// hexside from an adjacent firing unit. They may also be considered
    /// moving in Open Ground in that case." R 46.1: "If a firing unit is
    /// adjacent to a Wall hexside when a target unit moves into or out of
    /// a hex which shares that same Wall hexside, then the target unit
    /// receives no Beneficial terrain modifier." A Squad entering Open
    /// Ground across the hexside: from the adjacent Op Firer 3 + 1 + 3 + 4
    /// = 11; from two hexes away the hedgerow or Wall gives −2 and the
    /// moving-in-Open bonus is withheld: 3 − 2 = 1.
    #[test]
    fn r44_0_r46_1_no_hedgerow_or_wall_against_an_adjacent_firer() {
        let marines = firer("marine42_squad", false);
        for hexside in ["hedgerow", "wall"] {
            let mut ctx = FireContext::new(FireKind::OpFire, marines, Hexes(1), "open");
            ctx.target_motion = Motion::Moving {
                open_ground: true,
                on_path: false,
            };
            ctx.target.hexside = Some(hexside);
            assert_eq!(fp(&ctx).total, Fp(11), "{hexside}");
            ctx.range = Hexes(2);
            ctx.adjacent = false;
            assert_eq!(fp(&ctx).total, Fp(1), "{hexside}");
        }
    }

    /// R 50.2 example: Prof 3 at an adjacent unit moving in Open Ground at
    /// Night: 3 +1 adjacent = 4, +3 adjacent, +2 Open Ground = 9.
    #[test]
    fn night_example_r50_2_is_9() {
        let marines = firer("marine42_squad", false);
        let mut ctx = FireContext::new(FireKind::OpFire, marines, Hexes(1), "open");
        ctx.target_motion = Motion::Moving {
            open_ground: true,
            on_path: false,
        };
        ctx.conditions = Conditions::Night;
        let b = fp(&ctx);
        assert_eq!(
            deltas(&b),
            vec![
                (3, "R 9.0"),
                (1, "R 9.0"),
                (3, "PAC \u{00a7}2b"),
                (2, "R 50.2")
            ]
        );
        assert_eq!(b.total, Fp(9));
        // By day the same attack gets +4; at Night range 3 gets nothing,
        // and long range is refused.
        ctx.conditions = Conditions::Day;
        assert_eq!(fp(&ctx).total, Fp(11));
        ctx.conditions = Conditions::Night;
        ctx.adjacent = false;
        ctx.range = Hexes(3);
        assert_eq!(fp(&ctx).total, Fp(3));
        ctx.range = Hexes(6);
        assert_eq!(
            infantry_fp(&aid(), &ctx),
            Err(FireRefusal::BeyondNormalRangeAtNight {
                range: Hexes(6),
                normal: Hexes(5)
            })
        );
    }

    /// R 41.0 example: a Squad at a unit moving in Open Ground 2 hexes away
    /// gets +4; if the target is higher, −1 and not the +4.
    #[test]
    fn open_ground_example_r41_higher_elevation_cancels() {
        let para = firer("para_squad", false);
        let mut ctx = FireContext::new(FireKind::OpFire, para, Hexes(2), "open");
        ctx.target_motion = Motion::Moving {
            open_ground: true,
            on_path: false,
        };
        assert_eq!(deltas(&fp(&ctx)), vec![(5, "R 9.0"), (4, "R 41.0")]);
        ctx.target.elevation = Elevation::Higher;
        let b = fp(&ctx);
        assert_eq!(
            deltas(&b),
            vec![(5, "R 9.0"), (-1, "R 47.3"), (0, "R 41.0")]
        );
        assert_eq!(b.total, Fp(4));
        // Range bands: 5–8 gives +2, 9+ nothing.
        ctx.target.elevation = Elevation::Level;
        ctx.range = Hexes(5);
        assert_eq!(fp(&ctx).total, Fp(7));
        ctx.range = Hexes(9);
        assert_eq!(fp(&ctx).total, Fp(5 / 2));
    }

    /// R 46.0 example: fire through two Hindering hexes at a moving Squad in
    /// a third: Orchard −1 Hindrance; Wheat −1 Hindrance −1 Terrain = −2;
    /// never moving in Open Ground.
    #[test]
    fn hindrance_example_r46() {
        let para = firer("para_squad", false);
        let mut ctx = FireContext::new(FireKind::OpFire, para, Hexes(3), "wheat_field");
        ctx.target_motion = Motion::Moving {
            open_ground: true,
            on_path: false,
        };
        ctx.hindrances = 1;
        let wheat = fp(&ctx);
        assert_eq!(wheat.total, Fp(5 - 2));
        ctx.target.hex = "orchard";
        let orchard = fp(&ctx);
        assert_eq!(orchard.total, Fp(5 - 1));
        assert_eq!(
            deltas(&orchard),
            vec![
                (5, "R 9.0"),
                (0, "PAC \u{00a7}2a"),
                (0, "R 41.0"),
                (-1, "R 46.0")
            ]
        );
        // In Open Ground behind one Hindrance: no +4 either.
        ctx.target.hex = "open";
        assert_eq!(fp(&ctx).total, Fp(5 - 1));
        // Smoke also withholds it: −1 Smoke only.
        ctx.hindrances = 0;
        ctx.smoke = Smoke::Smoke;
        assert_eq!(fp(&ctx).total, Fp(5 - 1));
        ctx.smoke = Smoke::Dispersed;
        assert_eq!(fp(&ctx).total, Fp(5));
    }

    /// R 53.0 example: a Squad moving on a Jungle Path attacked by an
    /// adjacent unit gets no −2: the FP is 2 more than off the Path.
    #[test]
    fn path_example_r53_no_jungle_modifier_adjacent() {
        let mg = firer("jap_mg", false);
        let mut ctx = FireContext::new(FireKind::OpFire, mg, Hexes(1), "jungle");
        ctx.target_motion = Motion::Moving {
            open_ground: false,
            on_path: true,
        };
        assert_eq!(fp(&ctx).total, Fp(10));
        ctx.target_motion = Motion::Moving {
            open_ground: false,
            on_path: false,
        };
        assert_eq!(fp(&ctx).total, Fp(8));
        // Not adjacent: the Path keeps the Jungle modifier.
        ctx.target_motion = Motion::Moving {
            open_ground: false,
            on_path: true,
        };
        ctx.range = Hexes(2);
        ctx.adjacent = false;
        assert_eq!(fp(&ctx).total, Fp(6 - 2));
    }

    /// R 43.0: in a Fortification a unit gets only its benefit; moving into
    /// or out of the hex it gets none and may be moving in Open Ground.
    /// R 52.0: moving units get no Swamp −2.
    #[test]
    fn fortification_and_swamp_only_for_stationary_units() {
        let para = firer("para_squad", false);
        let mut ctx = FireContext::new(FireKind::OpFire, para, Hexes(2), "woods");
        ctx.target.fortification = Some("bunker");
        assert_eq!(fp(&ctx).total, Fp(5 - 3));
        ctx.target_motion = Motion::Moving {
            open_ground: false,
            on_path: false,
        };
        assert_eq!(fp(&ctx).total, Fp(5 - 1));
        ctx.target.hex = "open";
        ctx.target_motion = Motion::Moving {
            open_ground: true,
            on_path: false,
        };
        assert_eq!(fp(&ctx).total, Fp(5 + 4));
        let mut ctx = FireContext::new(FireKind::OpFire, para, Hexes(2), "swamp");
        assert_eq!(fp(&ctx).total, Fp(5 - 2));
        ctx.target_motion = Motion::Moving {
            open_ground: false,
            on_path: false,
        };
        assert_eq!(fp(&ctx).total, Fp(5));
    }

    /// Lower elevation is a terrain choice (PAC §2a): +1 in Open Ground,
    /// but a lower target in Woods keeps only the better −1.
    #[test]
    fn lower_elevation_is_one_terrain_choice() {
        let para = firer("para_squad", false);
        let mut ctx = FireContext::new(FireKind::Normal, para, Hexes(3), "open");
        ctx.target.elevation = Elevation::Lower;
        assert_eq!(deltas(&fp(&ctx)), vec![(6, "R 2.1"), (1, "R 47.3")]);
        ctx.target.hex = "woods";
        assert_eq!(
            deltas(&fp(&ctx)),
            vec![(6, "R 2.1"), (-1, "PAC \u{00a7}2a")]
        );
    }

    /// R 43.4: a Cave lowers FP to a minimum of 1.
    #[test]
    fn cave_lowers_fp_only_to_1() {
        let second_line = firer("ger2_squad", false);
        assert_eq!(second_line.side.prof, 1);
        let mut ctx = FireContext::new(FireKind::OpFire, second_line, Hexes(3), "open");
        ctx.target.fortification = Some("cave");
        let b = fp(&ctx);
        assert_eq!(
            deltas(&b),
            vec![(1, "R 9.0"), (-2, "R 43.4"), (2, "R 43.4")]
        );
        assert_eq!(b.total, Fp(1));
    }

    /// Flank +1 only against a unit with a facing (R 6.2, R 2.2).
    #[test]
    fn flank_only_with_a_facing() {
        let para = firer("para_squad", false);
        let mut ctx = FireContext::new(FireKind::Normal, para, Hexes(2), "open");
        ctx.flank = true;
        assert_eq!(fp(&ctx).total, Fp(7));
        ctx.target_concealed = Some(Conceal::Standard);
        assert_eq!(fp(&ctx).total, Fp(6 - 1));
    }

    #[test]
    fn who_may_fire() {
        let aid = aid();
        let decoy = firer("para_decoy", false);
        let ctx = FireContext::new(FireKind::Normal, decoy, Hexes(2), "open");
        assert_eq!(
            infantry_fp(&aid, &ctx),
            Err(FireRefusal::CannotFire {
                class: UnitClass::Decoy
            })
        );
        // A Mortar fires within its band only (R 31.0).
        let mortar = firer("ger_mortar", false);
        let ctx = FireContext::new(FireKind::Normal, mortar, Hexes(1), "open");
        assert_eq!(
            infantry_fp(&aid, &ctx),
            Err(FireRefusal::Mortar(
                crate::rules::mortar::MortarRefusal::BelowMinimum {
                    range: Hexes(1),
                    min: Hexes(2)
                }
            ))
        );
        let para = firer("para_squad", false);
        let ctx = FireContext::new(FireKind::Normal, para, Hexes(0), "open");
        assert_eq!(infantry_fp(&aid, &ctx), Err(FireRefusal::SameLocation));

        // WTs and Japanese Squads cannot turn to Final Op Fire (R 10.1);
        // other Squads can, at −1.
        for id in ["para_mg", "jap_squad"] {
            let mut ctx =
                FireContext::new(FireKind::FinalOpFire, firer(id, false), Hexes(1), "open");
            ctx.changed_facing = true;
            assert_eq!(
                infantry_fp(&aid, &ctx),
                Err(FireRefusal::NoFacingChange { rule: "R 10.1" }),
                "{id}"
            );
        }
        let mut ctx = FireContext::new(FireKind::FinalOpFire, para, Hexes(1), "open");
        ctx.changed_facing = true;
        assert_eq!(fp(&ctx).total, Fp(5 + 1 - 1 + 3 - 2));

        // Assault Fire: Squads only, no facing to change (R 5.2).
        let mut ctx = FireContext::new(FireKind::AssaultFire, para, Hexes(1), "open");
        ctx.changed_facing = true;
        assert_eq!(
            infantry_fp(&aid, &ctx),
            Err(FireRefusal::NoFacingChange { rule: "R 5.2" })
        );
        let ctx = FireContext::new(
            FireKind::AssaultFire,
            firer("para_mg", false),
            Hexes(1),
            "open",
        );
        assert_eq!(
            infantry_fp(&aid, &ctx),
            Err(FireRefusal::AssaultFireSquadsOnly {
                class: UnitClass::MgTeam
            })
        );
        // A CP raises Prof FP, not Normal FP.
        let mut ctx = FireContext::new(FireKind::Normal, para, Hexes(1), "open");
        ctx.cp_prof_bonus = true;
        assert_eq!(
            infantry_fp(&aid, &ctx),
            Err(FireRefusal::CpNotApplicable { rule: "R 3.0" })
        );
    }

    /// R 58.3: a Fireteam Squad Assault Fires mid move at Prof −2; others
    /// may not.
    #[test]
    fn fireteam_fire_mid_move() {
        let marines = firer("marine44_squad", false);
        let mut ctx = FireContext::new(FireKind::AssaultFire, marines, Hexes(2), "open");
        ctx.fireteam_mid_move = true;
        let b = fp(&ctx);
        assert_eq!(deltas(&b), vec![(5, "R 5.2"), (-2, "R 58.3")]);
        ctx.firer = firer("marine42_squad", false);
        assert_eq!(infantry_fp(&aid(), &ctx), Err(FireRefusal::FireteamsOnly));
    }

    /// R 6.1: a 10 is always No Effect; a 1 within normal Range at least
    /// Suppresses; a 1 at an adjacent target at least Reduces (a Reduced
    /// target is then eliminated, R 8.0); a 1 at long range has no floor.
    #[test]
    fn special_rolls_1_and_10() {
        let aid = aid();
        let full = (4, Some(8));
        assert_eq!(
            resolve(&aid, d(10), Fp(25), full, true, true),
            FireOutcome::NoEffect
        );
        assert_eq!(
            resolve(&aid, d(9), Fp(25), full, true, true),
            FireOutcome::Eliminated
        );
        assert_eq!(
            resolve(&aid, d(1), Fp(-2), full, true, false),
            FireOutcome::Suppressed
        );
        assert_eq!(
            resolve(&aid, d(1), Fp(-2), full, true, true),
            FireOutcome::Reduced
        );
        assert_eq!(
            resolve(&aid, d(1), Fp(0), (5, None), true, true),
            FireOutcome::Eliminated
        );
        assert_eq!(
            resolve(&aid, d(1), Fp(0), full, false, false),
            FireOutcome::NoEffect
        );
        // A 1 keeps a better result than its floor.
        assert_eq!(
            resolve(&aid, d(1), Fp(9), full, true, true),
            FireOutcome::Eliminated
        );
        assert_eq!(
            resolve(&aid, d(1), Fp(5), full, true, false),
            FireOutcome::Reduced
        );
    }

    /// R 6.2 steps at FP 7 against a Full-Strength 4/8 unit and a Reduced 5.
    #[test]
    fn resolution_steps() {
        let aid = aid();
        let full = (4, Some(8));
        let got: Vec<FireOutcome> = (1..=10)
            .map(|r| resolve(&aid, d(r), Fp(7), full, true, false))
            .collect();
        use FireOutcome::*;
        assert_eq!(
            got,
            vec![
                Reduced, Reduced, Reduced, Suppressed, Suppressed, Suppressed, Suppressed,
                NoEffect, NoEffect, NoEffect
            ]
        );
        let got: Vec<FireOutcome> = (1..=10)
            .map(|r| resolve(&aid, d(r), Fp(7), (5, None), true, false))
            .collect();
        assert_eq!(
            got,
            vec![
                Eliminated, Eliminated, Suppressed, Suppressed, Suppressed, Suppressed, Suppressed,
                NoEffect, NoEffect, NoEffect
            ]
        );
    }

    /// R 7.0: a Suppression step; a Fully Suppressed unit suffers no more.
    #[test]
    fn suppression_steps() {
        use SuppressionLevel::*;
        assert_eq!(suppression_step(None), Suppressed);
        assert_eq!(suppression_step(Suppressed), Full);
        assert_eq!(suppression_step(Full), Full);
        assert_eq!(suppression_after(None, FireOutcome::Reduced), Some(Full));
        assert_eq!(
            suppression_after(Suppressed, FireOutcome::NoEffect),
            Some(Suppressed)
        );
        assert_eq!(
            suppression_after(Full, FireOutcome::Eliminated),
            Option::None
        );
    }
}
