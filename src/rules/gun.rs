//! Guns — R 20.0 (a Gun counts three in the Ops Range; no CPs on it),
//! R 20.2 (Gun traits: Morale, Casualty, no movement to a new hex), R 20.4
//! (the firing arc from a hexspine facing, turning in the hex, the Prof
//! Check with the PAC §3 modifiers), R 20.5 (Gun fire at Infantry and Guns
//! with its second FP and the V/G column), R 20.7 (Final Op Fire only at an
//! adjacent hex within the arc, -3), R 20.8 (Infantry fire at Guns with the
//! Gun's Casualty), R 11.0 (a Gun failing its Rout
//! MC is eliminated), R 12.0 (Melee FP 2, any casualty eliminates).
//!
//! Every value is read from `assets/units.ron` (the Gun's [`GunRating`]) or
//! `assets/player_aid.ron` (the V/G column and [`GunProfAid`]).

use crate::scenario::Coord;
use crate::scenario::coords::side_vector;
use crate::scenario::player_aid::{Cell, GunProfAid, PlayerAid};
use crate::scenario::roster::{GunRating, UnitClass};
use crate::scenario::schema::{FortificationKind, Spine};

use super::facing::{FireFacing, facing_toward};
use super::fire::{
    Conditions, Elevation, FireContext, FireKind, FireRefusal, FpBreakdown, FpLine, Motion, Smoke,
    conceal_situations,
};
use super::ops_range::UseKind;
use super::{Fp, Hexes};

/// Whether `target` lies in the firing arc of a Gun in `gun` facing the
/// hexspine `facing` (R 20.4): the two hexes on either side of that spine
/// and everything beyond them, the wedge between the two lines from the
/// hex centre through the neighbouring hexspines. A hex whose centre lies on
/// such a line is in the arc (`docs/decisions.md`). Never its own hex.
pub fn in_arc(gun: Coord, facing: Spine, target: Coord) -> bool {
    if gun == target {
        return false;
    }
    let d = target.hex() - gun.hex();
    // Centres in units where a flat-topped hex is exact: (3q, 2r + q) is
    // (2x, 2y/sqrt 3); a dot product is then x·x' + 3·y·y' (times 4).
    let (x, y) = (3 * i64::from(d.x), 2 * i64::from(d.y) + i64::from(d.x));
    facing.sides().into_iter().all(|s| {
        let v = side_vector(s);
        let (sx, sy) = (3 * i64::from(v.x), 2 * i64::from(v.y) + i64::from(v.x));
        x * sx + 3 * y * sy >= 0
    })
}

/// Why a Gun may not fire as asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GunRefusal {
    /// Guns may not fire at units in their own hex (R 20.4).
    OwnHex,
    /// The target is outside the arc of the facing it would fire with
    /// (R 20.4).
    OutsideArc { facing: Spine },
    /// Final Op Fire at Infantry only into an adjacent hex within the arc
    /// as placed (R 20.7); no CP reaches further (R 20.0, R 20.7).
    FinalOpFire,
    /// A Gun in a building may not turn within its hex (R 20.2, R 40.0),
    /// nor as it is marked Op Fire (R 4.3).
    InBuilding,
    /// A Gun in a Pillbox, or in a Fortified building, changes facing only
    /// by being Used, without firing (R 43.3, R 43.5): the rule.
    OnlyByUse {
        fortification: &'static str,
        rule: &'static str,
    },
    /// Guns in a Bunker cannot change facing (R 43.3).
    InBunker,
    /// "Vehicles and Guns may not fire across a Cliff hexside to an
    /// adjacent hex (either up or down)." (R 47.4)
    AcrossCliff,
    /// At Night Guns never fire beyond this range (R 50.2).
    BeyondNightRange { range: Hexes, max: Hexes },
    /// The attack itself (data missing, Monsoon range).
    Fire(FireRefusal),
}

impl std::fmt::Display for GunRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GunRefusal::OwnHex => write!(f, "a Gun may not fire at units in its own hex (R 20.4)"),
            GunRefusal::OutsideArc { facing } => write!(
                f,
                "the target is outside the firing arc of facing {facing:?} (R 20.4)"
            ),
            GunRefusal::FinalOpFire => write!(
                f,
                "a Gun Final Op Fires only at Infantry entering an adjacent hex within its firing arc; no CP reaches further (R 20.7)"
            ),
            GunRefusal::InBuilding => write!(
                f,
                "a Gun in a building may not turn within its hex (R 20.2)"
            ),
            GunRefusal::OnlyByUse {
                fortification,
                rule,
            } => write!(
                f,
                "a Gun in a {fortification} changes facing only by being Used, without firing ({rule})"
            ),
            GunRefusal::InBunker => write!(f, "a Gun in a Bunker cannot change facing (R 43.3)"),
            GunRefusal::AcrossCliff => write!(
                f,
                "a Gun may not fire across a Cliff hexside to an adjacent hex (R 47.4)"
            ),
            GunRefusal::BeyondNightRange { range, max } => write!(
                f,
                "target {} hexes away: at Night Guns fire at most {} hexes (R 50.2)",
                range.0, max.0
            ),
            GunRefusal::Fire(r) => r.fmt(f),
        }
    }
}

/// How a Gun would change its facing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GunTurn {
    /// Turning within its hex to fire (R 20.4), Op Fire included.
    ToFire,
    /// To Final Op Fire (R 20.7).
    ToFinalOpFire,
    /// As it is marked Op Fire (R 4.3).
    MarkedOpFire,
    /// An Unused Gun Used to change facing, without firing (R 43.3, R 43.5).
    ByUse,
}

/// Where a Gun stands, as far as turning goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GunSite {
    /// Its terrain is a building (the Player Aid row's `building`).
    pub building: bool,
    /// A building where a Gun may still change its facing (the row's
    /// `gun_turns`: R 40.1 Huts).
    pub gun_turns: bool,
    /// The Fortification it is in, if one gives a modifier there.
    pub fortification: Option<FortificationKind>,
}

/// Why a Gun at `site` may not change facing `how`, if it may not.
/// R 20.2: "A Gun … may (if not in a building) turn within a hex." R 4.3:
/// "…exception - a Gun in a building may not change its facing." R 40.0:
/// "A Gun in a building may not change its facing, unless that building
/// hex is Fortified." R 43.5 (a Fortified Position is a stone building
/// except): "An Unused Gun may be Used to change facing." R 40.1: "A
/// Vehicle or Gun may change its facing in a Hut hex." R 43.3: "Guns in a
/// Pillbox … can only change facing by being 'Used' (without firing) to do
/// so. Guns in a Bunker cannot change facing." R 20.7: Final Op Fire only
/// within the arc as placed.
pub fn turn_refusal(site: GunSite, how: GunTurn) -> Option<GunRefusal> {
    let by_use = |fortification, rule| {
        (how != GunTurn::ByUse).then_some(GunRefusal::OnlyByUse {
            fortification,
            rule,
        })
    };
    if how == GunTurn::ToFinalOpFire {
        return Some(GunRefusal::FinalOpFire);
    }
    match site.fortification {
        Some(FortificationKind::Bunker) => return Some(GunRefusal::InBunker),
        Some(FortificationKind::Pillbox) => return by_use("Pillbox", "R 43.3"),
        Some(FortificationKind::Fortified) => {
            return by_use("Fortified building", "R 40.0, R 43.5");
        }
        _ => {}
    }
    (site.building && !site.gun_turns).then_some(GunRefusal::InBuilding)
}

/// The facing a Gun fires with (R 20.4): its own if the target is in its
/// arc and no other is asked for; else the one asked for, or with none the
/// spine pointing most nearly at the target. `no_turn` says why it may not
/// turn, when it may not: Final Op Fire at Infantry (R 20.7), a Gun in a
/// building (R 20.2).
pub fn aim(
    gun: Coord,
    target: Coord,
    current: Spine,
    wanted: Option<Spine>,
    no_turn: Option<GunRefusal>,
) -> Result<FireFacing, GunRefusal> {
    if gun == target {
        return Err(GunRefusal::OwnHex);
    }
    let facing = match wanted {
        Some(w) => w,
        None if in_arc(gun, current, target) || no_turn.is_some() => current,
        None => facing_toward(gun, target),
    };
    let changed = facing != current;
    if let Some(why) = no_turn.clone().filter(|_| changed) {
        return Err(why);
    }
    if !in_arc(gun, facing, target) {
        return Err(no_turn.unwrap_or(GunRefusal::OutsideArc { facing }));
    }
    Ok(FireFacing { facing, changed })
}

/// One shot, as the Prof Check sees it (PAC §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GunShot {
    pub kind: FireKind,
    pub range: Hexes,
    /// The Gun was marked Op Fire when it began this attack: +1.
    pub marked_op_fire: bool,
    /// It turned within its hex to fire: -1.
    pub turned: bool,
    pub smoke: Smoke,
    /// The target is at a higher elevation: -1 (R 47.3).
    pub target_higher: bool,
    /// Hindrances on the line (R 46.0), already counted.
    pub hindrances: u8,
    pub conditions: Conditions,
}

/// A Prof Check: the Prof Rating and every modifier, line by line; the
/// check passes on a roll at or under `target` (R 20.4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProfCheck {
    pub lines: Vec<FpLine>,
    pub target: i16,
}

impl ProfCheck {
    /// The arithmetic as one log phrase: "Prof 8 -2 Op Fire ... = 5".
    pub fn arithmetic(&self) -> String {
        self.lines
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("; ")
    }

    pub fn passes(&self, roll: super::D10) -> bool {
        i16::from(roll.0) <= self.target
    }
}

/// The Prof Check a Gun must pass before this shot, or `None` when none is
/// required (R 20.4, PAC §3): Op Fire or Final Op Fire, turning in its hex,
/// range over 5 hexes, Smoke (even Dispersed), a higher target, a
/// Hindrance, Night. One check; every modifier adds; within each "pick one"
/// group the single one that applies.
pub fn prof_check(aid: &GunProfAid, prof: u8, shot: &GunShot) -> Option<ProfCheck> {
    let mut lines = vec![FpLine {
        text: "Prof Rating".into(),
        delta: i16::from(prof),
        rule: "R 20.4",
    }];
    let mut required = false;
    let mut add = |lines: &mut Vec<FpLine>, text: String, v: i8, rule: &'static str| {
        required = true;
        lines.push(FpLine {
            text,
            delta: i16::from(v),
            rule,
        });
    };
    // Range (pick one): the highest band the range is over.
    if let Some(band) = aid
        .range
        .iter()
        .filter(|b| shot.range.0 > u32::from(b.over))
        .max_by_key(|b| b.over)
    {
        add(
            &mut lines,
            format!("range {} over {} hexes", shot.range.0, band.over),
            band.value,
            "PAC \u{a7}3",
        );
    }
    // Firer Op Firing or Final Op Fire (pick one).
    match shot.kind {
        FireKind::OpFire => add(&mut lines, "Op Fire".into(), aid.op_fire, "R 20.4"),
        FireKind::FinalOpFire => add(
            &mut lines,
            "Final Op Fire".into(),
            aid.final_op_fire,
            "R 20.7",
        ),
        FireKind::Normal | FireKind::AssaultFire => {}
    }
    if shot.turned {
        add(
            &mut lines,
            "turned within its hex to fire".into(),
            aid.turned,
            "R 20.4",
        );
    }
    match shot.smoke {
        Smoke::Smoke => add(&mut lines, "Smoke".into(), aid.smoke, "R 48.0"),
        Smoke::Dispersed => add(
            &mut lines,
            "Dispersed Smoke".into(),
            aid.dispersed_smoke,
            "R 48.0",
        ),
        Smoke::None => {}
    }
    if shot.target_higher {
        add(
            &mut lines,
            "target higher".into(),
            aid.target_higher,
            "R 47.3",
        );
    }
    if shot.hindrances > 0 {
        let n = shot.hindrances as i8;
        add(
            &mut lines,
            format!("Hindrance \u{d7}{n}"),
            aid.hindrance.saturating_mul(n),
            "R 46.0",
        );
    }
    // Night (R 50.2) and the Monsoon rain (R 55.2), a Night in the rain
    // too: -1 per hex of range.
    if shot.conditions != Conditions::Day {
        let per = i64::from(aid.night_per_hex) * i64::from(shot.range.0);
        let v = per.max(i64::from(aid.night_max)) as i8;
        let (what, rule) = if shot.conditions.rain() {
            ("in the Monsoon rain", "R 55.2")
        } else {
            ("at Night", "R 50.2")
        };
        add(
            &mut lines,
            format!("range {} {what}", shot.range.0),
            v,
            rule,
        );
    }
    if !required {
        return None;
    }
    // Marked Op Fire is a modifier only, never a reason to check.
    if shot.marked_op_fire {
        lines.push(FpLine {
            text: "marked Op Fire".into(),
            delta: i16::from(aid.marked_op_fire),
            rule: "PAC \u{a7}3",
        });
    }
    let target = lines.iter().map(|l| l.delta).sum();
    Some(ProfCheck { lines, target })
}

/// The V/G column value of a terrain or situation cell: a number, or
/// nothing when the cell is words ("Prof -1": a Prof Check modifier, not
/// FP) or blank.
fn vg(cell: &Cell) -> Option<i16> {
    cell.fp().map(i16::from)
}

fn missing(key: &str) -> FireRefusal {
    FireRefusal::MissingData {
        key: key.to_string(),
    }
}

/// The FP of a Gun's attack at one Infantry unit or Gun (R 20.5): the
/// Gun's second FP, the target's single best terrain modifier from the V/G
/// column, then every V/G situation that applies (Conceal). Words in the
/// V/G column (a higher target, Smoke, Hindrance, Final Op Fire) belong to
/// the Prof Check, not here. No long range, no Prof FP: the FP "is not
/// reduced" by a Prof Check (R 20.4). `ctx` is the attack as infantry fire
/// would describe it; its Prof raises, facing and flank do not apply.
pub fn gun_fp(
    aid: &PlayerAid,
    gun: &GunRating,
    ctx: &FireContext,
) -> Result<FpBreakdown, FireRefusal> {
    if ctx.range.0 == 0 {
        return Err(FireRefusal::SameLocation);
    }
    let monsoon_max = Hexes(u32::from(aid.constants.monsoon_max_range));
    if ctx.conditions.rain() && ctx.range > monsoon_max {
        return Err(FireRefusal::BeyondMonsoonRange {
            range: ctx.range,
            max: monsoon_max,
        });
    }
    let mut lines = vec![FpLine {
        text: "Gun FP at Infantry/Guns".into(),
        delta: i16::from(gun.vs_infantry),
        rule: "R 20.5",
    }];
    // The target's single best terrain modifier, V/G column (PAC §1).
    let t = &ctx.target;
    let moving = matches!(ctx.target_motion, Motion::Moving { .. });
    let mut keys: Vec<&'static str> = Vec::new();
    match (t.fortification, moving) {
        (Some("foxholes"), false) if t.hex == "woods" => keys.push("woods_foxholes"),
        (Some(f), false) => keys.push(f),
        (_, true) if t.hex == "swamp" => {}
        _ => keys.push(t.hex),
    }
    keys.extend(t.hexside);
    if t.elevation == Elevation::Lower {
        keys.push("lower_elevation");
    }
    let mut best: Option<(i16, String, &'static str)> = None;
    for key in keys {
        let row = aid.terrain_row(key).ok_or_else(|| missing(key))?;
        let Some(v) = vg(&row.vg) else { continue };
        if v == 0 && !row.beneficial {
            continue;
        }
        if best.as_ref().is_none_or(|(b, _, _)| v < *b) {
            best = Some((v, row.name.clone(), "PAC \u{a7}2a"));
        }
    }
    if let Some((v, name, rule)) = best {
        lines.push(FpLine {
            text: name,
            delta: v,
            rule,
        });
    }
    let [concealed, japanese] = conceal_situations(ctx);
    let situations = [
        concealed,
        japanese,
        (ctx.adjacent, "adjacent", "PAC \u{a7}2b"),
        (
            matches!(
                ctx.target_motion,
                Motion::Moving {
                    open_ground: true,
                    ..
                }
            ),
            "moving_open",
            "R 41.0",
        ),
    ];
    for (applies, key, rule) in situations {
        if !applies {
            continue;
        }
        let row = aid.situation(key).ok_or_else(|| missing(key))?;
        if let Some(v) = vg(&row.vg).filter(|v| *v != 0) {
            lines.push(FpLine {
                text: row.name.clone(),
                delta: v,
                rule,
            });
        }
    }
    let total = lines.iter().map(|l| l.delta).sum();
    Ok(FpBreakdown {
        lines,
        total: Fp(total),
        // A Gun has no long range: a 1 always at least Suppresses (R 6.1).
        within_normal_range: true,
        adjacent: ctx.adjacent,
    })
}

/// The Casualty rating a Gun shows to an attack (R 20.2): the first number
/// against Infantry or Artillery, the second (three lower) against another
/// Gun, a Vehicle, Aircraft or a SATW Squad in range. Roll + it <= FP
/// eliminates the Gun, never Reduces it; as `(number, None)` it reads as a
/// one-step unit in `rules::fire::resolve`.
pub fn casualty(gun: &GunRating, by_gun: bool) -> (u8, Option<u8>) {
    (
        if by_gun {
            gun.casualty.1
        } else {
            gun.casualty.0
        },
        None,
    )
}

/// What a Use of this unit is for the Ops Range (R 4.1, R 20.0).
pub fn use_kind(class: UnitClass) -> UseKind {
    if class.is_gun() {
        UseKind::GunOrVehicle
    } else {
        UseKind::Infantry
    }
}

/// A unit of this class that fails its Rout Phase MC is eliminated rather
/// than routing (R 11.0, R 20.2: a Gun not being transported).
pub fn eliminated_by_failed_rout(class: UnitClass) -> bool {
    class.is_gun()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::D10;
    use crate::rules::fire::{Conceal, Firer, TargetTerrain, resolve};
    use crate::scenario::schema::Side6;

    fn c(label: &str) -> Coord {
        Coord::parse(label, 26, 40).unwrap()
    }

    fn aid() -> PlayerAid {
        crate::scenario::builtin_player_aid().unwrap()
    }

    fn at57() -> (crate::scenario::roster::UnitType, GunRating) {
        let roster = crate::scenario::builtin_roster().unwrap();
        let u = roster.get("us_57mm_at").unwrap().clone();
        let g = u.gun.unwrap();
        (u, g)
    }

    /// R 40.0: "A Gun in a building may not change its facing, unless that
    /// building hex is Fortified." R 43.5: "An Unused Gun may be Used to
    /// change facing." R 40.1: "A Vehicle or Gun may change its facing in a
    /// Hut hex." R 43.3: "Guns in a Pillbox … can only change facing by
    /// being 'Used' (without firing) to do so. Guns in a Bunker cannot
    /// change facing."
    #[test]
    fn where_and_how_a_gun_may_change_facing() {
        use FortificationKind::{Bunker, Fortified, Foxhole, Pillbox};
        use GunTurn::{ByUse, MarkedOpFire, ToFinalOpFire, ToFire};
        let open = GunSite::default();
        let building = GunSite {
            building: true,
            ..open
        };
        let huts = GunSite {
            gun_turns: true,
            ..building
        };
        let in_ = |site: GunSite, f| GunSite {
            fortification: Some(f),
            ..site
        };
        let only_by_use = |fortification, rule| {
            Some(GunRefusal::OnlyByUse {
                fortification,
                rule,
            })
        };
        let cases = [
            (open, [None, None, None]),
            (in_(open, Foxhole), [None, None, None]),
            (huts, [None, None, None]),
            (
                building,
                [
                    Some(GunRefusal::InBuilding),
                    Some(GunRefusal::InBuilding),
                    Some(GunRefusal::InBuilding),
                ],
            ),
            (
                in_(building, Fortified),
                [
                    only_by_use("Fortified building", "R 40.0, R 43.5"),
                    only_by_use("Fortified building", "R 40.0, R 43.5"),
                    None,
                ],
            ),
            (
                in_(open, Pillbox),
                [
                    only_by_use("Pillbox", "R 43.3"),
                    only_by_use("Pillbox", "R 43.3"),
                    None,
                ],
            ),
            (
                in_(open, Bunker),
                [
                    Some(GunRefusal::InBunker),
                    Some(GunRefusal::InBunker),
                    Some(GunRefusal::InBunker),
                ],
            ),
        ];
        for (site, [to_fire, marked, by_use]) in cases {
            assert_eq!(turn_refusal(site, ToFire), to_fire, "{site:?}");
            assert_eq!(turn_refusal(site, MarkedOpFire), marked, "{site:?}");
            assert_eq!(turn_refusal(site, ByUse), by_use, "{site:?}");
            assert_eq!(
                turn_refusal(site, ToFinalOpFire),
                Some(GunRefusal::FinalOpFire)
            );
        }
    }

    /// R 20.4: of the six neighbours only the two either side of the facing
    /// spine are in the arc; beyond them the wedge widens one hex a row.
    #[test]
    fn the_arc_is_the_two_front_hexes_and_beyond() {
        for at in [c("E6"), c("F5")] {
            for facing in Spine::ALL {
                let front: Vec<Side6> = Side6::ALL
                    .into_iter()
                    .filter(|s| in_arc(at, facing, at.neighbour(*s, 26, 40).unwrap()))
                    .collect();
                let mut want = facing.sides().to_vec();
                want.sort_by_key(|s| Side6::ALL.iter().position(|x| x == s));
                assert_eq!(front, want, "{} facing {facing:?}", at.label());
                assert!(!in_arc(at, facing, at));
            }
        }
        // E6 facing E: at range 2 the wedge holds the three hexes straight
        // ahead and the two whose centres lie on its edge lines.
        let at = c("E6");
        let ring2: Vec<String> = (0..26u8)
            .flat_map(|col| (0..40u8).map(move |row| Coord::new(col, row)))
            .filter(|h| at.distance(*h) == 2 && in_arc(at, Spine::E, *h))
            .map(Coord::label)
            .collect();
        assert_eq!(ring2, ["F4", "F7", "G5", "G6", "G7"]);
    }

    /// R 20.4: turning to a target outside the arc, or keeping the facing;
    /// no turn in a building (R 20.2).
    #[test]
    fn aiming_turns_toward_the_target_unless_final_op_fire() {
        let at = c("E6");
        assert_eq!(
            aim(at, c("G6"), Spine::E, None, None),
            Ok(FireFacing {
                facing: Spine::E,
                changed: false
            })
        );
        let turned = aim(at, c("C6"), Spine::E, None, None).unwrap();
        assert!(turned.changed && in_arc(at, turned.facing, c("C6")));
        assert_eq!(
            aim(at, c("C6"), Spine::E, Some(Spine::E), None),
            Err(GunRefusal::OutsideArc { facing: Spine::E })
        );
        assert_eq!(
            aim(at, c("D6"), Spine::E, None, Some(GunRefusal::FinalOpFire)),
            Err(GunRefusal::FinalOpFire)
        );
        assert_eq!(aim(at, at, Spine::E, None, None), Err(GunRefusal::OwnHex));
        assert_eq!(
            aim(at, c("C6"), Spine::E, None, Some(GunRefusal::InBuilding)),
            Err(GunRefusal::InBuilding)
        );
        assert!(aim(at, c("G6"), Spine::E, None, Some(GunRefusal::InBuilding)).is_ok());
    }

    fn shot(kind: FireKind, range: u32) -> GunShot {
        GunShot {
            kind,
            range: Hexes(range),
            marked_op_fire: false,
            turned: false,
            smoke: Smoke::None,
            target_higher: false,
            hindrances: 0,
            conditions: Conditions::Day,
        }
    }

    /// R 20.4 example: Op Firing (-2) at a higher unit (-1) at range 11
    /// (-1): one check at -4.
    #[test]
    fn r20_4_example_one_check_at_minus_four() {
        let a = aid();
        let mut s = shot(FireKind::OpFire, 11);
        s.target_higher = true;
        let check = prof_check(&a.gun_prof, 8, &s).unwrap();
        assert_eq!(check.target, 4);
        assert_eq!(
            check.arithmetic(),
            "+8 Prof Rating (R 20.4); \u{2212}1 range 11 over 10 hexes (PAC \u{a7}3); \u{2212}2 Op Fire (R 20.4); \u{2212}1 target higher (R 47.3)"
        );
        assert!(check.passes(D10(4)) && !check.passes(D10(5)));
    }

    /// PAC §3: no check for a plain shot within 5 hexes; range over 5 asks
    /// for one at 0; Final Op Fire -3; marked Op Fire +1; turning -1.
    #[test]
    fn which_shots_need_a_check() {
        let a = &aid().gun_prof;
        assert_eq!(prof_check(a, 8, &shot(FireKind::Normal, 5)), None);
        assert_eq!(
            prof_check(a, 8, &shot(FireKind::Normal, 6)).unwrap().target,
            8
        );
        assert_eq!(
            prof_check(a, 8, &shot(FireKind::Normal, 21))
                .unwrap()
                .target,
            6
        );
        assert_eq!(
            prof_check(a, 8, &shot(FireKind::FinalOpFire, 1))
                .unwrap()
                .target,
            5
        );
        let mut s = shot(FireKind::OpFire, 3);
        s.marked_op_fire = true;
        s.turned = true;
        assert_eq!(prof_check(a, 8, &s).unwrap().target, 6);
        let mut s = shot(FireKind::Normal, 2);
        s.marked_op_fire = true;
        assert_eq!(prof_check(a, 8, &s), None);
        let mut s = shot(FireKind::Normal, 2);
        s.smoke = Smoke::Dispersed;
        assert_eq!(prof_check(a, 8, &s).unwrap().target, 8);
        let mut s = shot(FireKind::Normal, 6);
        s.conditions = Conditions::Night;
        assert_eq!(prof_check(a, 8, &s).unwrap().target, 4);
        // R 55.2: in the rain, and at Night in the rain, -1 a hex of range.
        for c in [Conditions::MonsoonRain, Conditions::NightRain] {
            let mut s = shot(FireKind::Normal, 3);
            s.conditions = c;
            let check = prof_check(a, 8, &s).unwrap();
            assert_eq!(check.target, 5, "{c:?}");
            assert_eq!(check.lines[1].text, "range 3 in the Monsoon rain");
            assert_eq!(check.lines[1].rule, "R 55.2");
        }
    }

    /// R 55.2: "Max range for all Infantry, Guns, Vehicles, and Spotters is
    /// three hexes" in the rain, by day and at Night.
    #[test]
    fn a_gun_fires_at_most_three_hexes_in_the_rain() {
        let a = aid();
        let (u, g) = at57();
        let firer = Firer::of(&u, false);
        for c in [Conditions::MonsoonRain, Conditions::NightRain] {
            let mut ctx = FireContext::new(FireKind::Normal, firer, Hexes(4), "open");
            ctx.conditions = c;
            assert_eq!(
                gun_fp(&a, &g, &ctx),
                Err(FireRefusal::BeyondMonsoonRange {
                    range: Hexes(4),
                    max: Hexes(3)
                }),
                "{c:?}"
            );
            ctx.range = Hexes(3);
            assert!(gun_fp(&a, &g, &ctx).is_ok(), "{c:?}");
        }
    }

    /// R 20.5: the second FP with the V/G column: woods -1, Conceal -1,
    /// no +3 adjacent, no moving-in-Open bonus, a lower target +1.
    #[test]
    fn gun_fire_at_infantry_uses_the_vg_column() {
        let a = aid();
        let (u, g) = at57();
        let firer = Firer::of(&u, false);
        let mut ctx = FireContext::new(FireKind::Normal, firer, Hexes(1), "woods");
        ctx.target_concealed = Some(Conceal::Standard);
        let b = gun_fp(&a, &g, &ctx).unwrap();
        assert_eq!(b.total, Fp(2));
        assert_eq!(
            b.lines.iter().map(ToString::to_string).collect::<Vec<_>>(),
            [
                "+4 Gun FP at Infantry/Guns (R 20.5)",
                "\u{2212}1 Woods (PAC \u{a7}2a)",
                "\u{2212}1 Target Concealed (R 15.0)"
            ]
        );
        let mut ctx = FireContext::new(FireKind::OpFire, firer, Hexes(3), "open");
        ctx.target_motion = Motion::Moving {
            open_ground: true,
            on_path: false,
        };
        ctx.target = TargetTerrain {
            elevation: Elevation::Lower,
            ..TargetTerrain::in_hex("open")
        };
        assert_eq!(gun_fp(&a, &g, &ctx).unwrap().total, Fp(5));
        ctx.range = Hexes(0);
        assert_eq!(gun_fp(&a, &g, &ctx), Err(FireRefusal::SameLocation));
    }

    /// R 20.2: roll + Casualty <= FP eliminates a Gun (never Reduces it);
    /// a roll at or under FP Suppresses; the second number against Guns.
    #[test]
    fn a_gun_is_eliminated_by_roll_plus_casualty() {
        let a = aid();
        let (_, g) = at57();
        let vs_inf = casualty(&g, false);
        assert_eq!(vs_inf, (6, None));
        assert_eq!(
            resolve(&a, D10(2), Fp(8), vs_inf, true, false).name(),
            "Eliminated"
        );
        assert_eq!(
            resolve(&a, D10(3), Fp(8), vs_inf, true, false).name(),
            "Suppressed"
        );
        assert_eq!(
            resolve(&a, D10(9), Fp(8), vs_inf, true, false).name(),
            "No Effect"
        );
        // A 1 at an adjacent Gun: at least one Reduction, which eliminates.
        assert_eq!(
            resolve(&a, D10(1), Fp(1), vs_inf, true, true).name(),
            "Eliminated"
        );
        let vs_gun = casualty(&g, true);
        assert_eq!(
            resolve(&a, D10(5), Fp(8), vs_gun, true, false).name(),
            "Eliminated"
        );
    }

    /// R 4.1, R 20.0, R 11.0.
    #[test]
    fn ops_cost_stacking_and_rout() {
        let a = aid();
        let c = &a.constants;
        use crate::rules::ops_range::use_cost;
        assert_eq!(use_cost(c, use_kind(UnitClass::Gun), false), 3);
        assert_eq!(use_cost(c, use_kind(UnitClass::Gun), true), 1);
        assert_eq!(use_cost(c, use_kind(UnitClass::Squad), false), 1);
        assert!(eliminated_by_failed_rout(UnitClass::Gun));
        assert!(!eliminated_by_failed_rout(UnitClass::Squad));
    }
}
