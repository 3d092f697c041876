//! Movement costs — R 5.0 (Movement), R 5.4 (Follow Me!), R 42.0 (Road),
//! R 44.0 (Hedgerows), R 46.1 (Walls), R 47.1 (crest lines), R 51.0 (Jungle),
//! R 53.0 (Paths), R 18.0 (moving off board). Every cost comes from the
//! terrain table in `assets/player_aid.ron`.

use crate::map::Board;
use crate::scenario::Coord;
use crate::scenario::player_aid::PlayerAid;
use crate::scenario::roster::UnitClass;
use crate::scenario::schema::{HexsideFeature, Nationality, RoadKind, Terrain};

use super::Mp;

/// One labelled part of a move's cost, for the path preview and the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MpLine {
    pub text: String,
    pub cost: Mp,
    pub rule: &'static str,
}

/// What entering a hex costs, line by line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepCost {
    pub lines: Vec<MpLine>,
    pub total: Mp,
}

/// Why a step cannot be taken (check before execute).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveRefusal {
    /// The hexes are not adjacent.
    NotAdjacent { from: Coord, to: Coord },
    /// The terrain may not be entered (River/Canal except at bridges, R 45.1).
    NoEntry { to: Coord, terrain: Terrain },
    /// Not enough MPs left (R 5.0).
    NotEnoughMp { need: Mp, left: Mp },
    /// Only an LC and its passengers enter this terrain voluntarily (R 45.5
    /// Ocean): the rule.
    NoVoluntaryEntry {
        to: Coord,
        terrain: Terrain,
        rule: String,
    },
    /// No unit crosses this hexside (R 47.4 Cliff): its Player Aid row and
    /// that row's source.
    NoCrossing {
        from: Coord,
        to: Coord,
        hexside: String,
        rule: String,
    },
    /// The Player Aid has no infantry MP for this terrain or feature.
    NoTableEntry { key: String },
}

impl std::fmt::Display for MoveRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveRefusal::NotAdjacent { from, to } => {
                write!(f, "{} is not adjacent to {}", to.label(), from.label())
            }
            MoveRefusal::NoEntry { to, terrain } => {
                write!(
                    f,
                    "{} ({}) may not be entered (R 45.1)",
                    to.label(),
                    terrain.name()
                )
            }
            MoveRefusal::NoCrossing {
                from,
                to,
                hexside,
                rule,
            } => write!(
                f,
                "no unit crosses the {hexside} between {} and {} ({rule})",
                from.label(),
                to.label()
            ),
            MoveRefusal::NoVoluntaryEntry { to, terrain, rule } => write!(
                f,
                "{} ({}) may be entered only by a Landing Craft and its passengers ({rule})",
                to.label(),
                terrain.name()
            ),
            MoveRefusal::NotEnoughMp { need, left } => {
                write!(f, "needs {need} MP, {left} MP left (R 5.0)")
            }
            MoveRefusal::NoTableEntry { key } => {
                write!(f, "the Player Aid has no infantry MP for `{key}`")
            }
        }
    }
}

/// The scenario rules that change movement costs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MoveRules {
    /// New Britain: Jungle costs 2.5 MP (R 51.0).
    pub new_britain_jungle: bool,
    /// At Night the least a hex costs this unit before hexside costs
    /// (R 50.2; none for Japanese Infantry, R 59.0).
    pub night_minimum: Option<Mp>,
}

impl MoveRules {
    /// The movement rules a scenario's special rules call for.
    pub fn of(special: &crate::scenario::schema::SpecialRules) -> Self {
        MoveRules {
            new_britain_jungle: special.new_britain_jungle,
            night_minimum: None,
        }
    }
}

fn row_mp(aid: &PlayerAid, key: &str) -> Result<Mp, MoveRefusal> {
    aid.terrain_row(key)
        .and_then(|r| r.inf_mp.mp())
        .map(Mp::from_aid)
        .ok_or_else(|| MoveRefusal::NoTableEntry {
            key: key.to_string(),
        })
}

/// What it costs an infantry unit to move from `from` into the adjacent hex
/// `to` (R 5.0): the terrain at the centre dot of `to`, or the road/path rate
/// when the move follows a road or path hexside (R 42.0, R 53.0); plus each
/// hedgerow or wall crossed (R 44.0, R 46.1), plus each level climbed across a
/// crest line (R 47.1).
pub fn step_cost(
    board: &Board,
    aid: &PlayerAid,
    rules: MoveRules,
    from: Coord,
    to: Coord,
) -> Result<StepCost, MoveRefusal> {
    let mut lines = Vec::new();
    step_parts(board, aid, rules, from, to, |part, cost, rule| {
        lines.push(MpLine {
            text: part.text(),
            cost,
            rule,
        });
    })?;
    let total = lines.iter().fold(Mp(0), |a, l| a + l.cost);
    Ok(StepCost { lines, total })
}

/// The total of [`step_cost`] without its lines: for searches over many
/// steps (rout destinations, a charge's cheapest paths), where the words
/// are never read.
pub fn step_total(
    board: &Board,
    aid: &PlayerAid,
    rules: MoveRules,
    from: Coord,
    to: Coord,
) -> Result<Mp, MoveRefusal> {
    let mut total = Mp(0);
    step_parts(board, aid, rules, from, to, |_, cost, _| total += cost)?;
    Ok(total)
}

/// R 53.0: a step from `from` to `to` across a Path hexside is a move on
/// the Path (it pays the Path's 1 MP, `step_parts`).
pub fn path_step(board: &Board, from: Coord, to: Coord) -> bool {
    from.side_towards(to)
        .is_some_and(|side| board.road(from, side) == Some(RoadKind::Path))
}

/// R 43.2: a step from one Trench hex to the next, or between a Trench and
/// a Pillbox or Bunker adjacent to it (they are connected); never to or
/// from a Cave. It costs the Trench row's MPs whatever the terrain of the
/// hex (a road across it keeps its own rate), and it is not moving in Open
/// Ground.
pub fn trench_step(board: &Board, from: Coord, to: Coord) -> bool {
    use crate::scenario::schema::FortificationKind as K;
    let kinds = |c: Coord| {
        let (mut trench, mut work) = (false, false);
        for f in board.fortifications_at(c) {
            trench |= f.kind == K::Trench;
            work |= matches!(f.kind, K::Pillbox | K::Bunker);
        }
        (trench, work)
    };
    let (a, b) = (kinds(from), kinds(to));
    (a.0 && (b.0 || b.1)) || (a.1 && b.0)
}

/// One part of a step's cost, worded only when asked.
#[derive(Debug, Clone, Copy)]
enum StepPart {
    Said(&'static str),
    Enter(Terrain),
    Climb(u16),
    /// The night minimum for entering a hex (R 50.2).
    NightMinimum(Mp),
}

impl StepPart {
    fn text(self) -> String {
        match self {
            StepPart::Said(s) => s.into(),
            StepPart::Enter(t) => format!("enter {}", t.name()),
            StepPart::Climb(levels) => format!("climb {levels} level(s) across the crest line"),
            StepPart::NightMinimum(min) => format!("night minimum {min} MP"),
        }
    }
}

/// The Player Aid row of a terrain or hexside feature a step meets.
fn table_row<'a>(
    aid: &'a PlayerAid,
    key: &str,
) -> Result<&'a crate::scenario::player_aid::TerrainRow, MoveRefusal> {
    aid.terrain_row(key)
        .ok_or_else(|| MoveRefusal::NoTableEntry {
            key: key.to_string(),
        })
}

/// The parts of a step's cost, in order, each given to `add` with its MPs
/// and rule.
fn step_parts(
    board: &Board,
    aid: &PlayerAid,
    rules: MoveRules,
    from: Coord,
    to: Coord,
    mut add: impl FnMut(StepPart, Mp, &'static str),
) -> Result<(), MoveRefusal> {
    let side = from
        .side_towards(to)
        .ok_or(MoveRefusal::NotAdjacent { from, to })?;
    let (Some(here), Some(there)) = (board.cell(from), board.cell(to)) else {
        return Err(MoveRefusal::NotAdjacent { from, to });
    };
    // R 45.5: "The only units that can voluntarily enter an Ocean hex are an
    // LC and its passengers." (no LC is built: the row's flag refuses all).
    if let Some(rule) = aid
        .terrain_row(there.terrain.key())
        .and_then(|r| r.no_voluntary_entry.as_ref())
    {
        return Err(MoveRefusal::NoVoluntaryEntry {
            to,
            terrain: there.terrain,
            rule: rule.clone(),
        });
    }
    let (part, base, rule) = match board.road(from, side) {
        Some(RoadKind::Road) => (
            StepPart::Said("along a road"),
            row_mp(aid, "road")?,
            "R 42.0",
        ),
        Some(RoadKind::Path) => (
            StepPart::Said("along a path"),
            row_mp(aid, "path")?,
            "R 53.0",
        ),
        None if trench_step(board, from, to) => (
            StepPart::Said("along the trench"),
            row_mp(aid, "trench")?,
            "R 43.2",
        ),
        None => {
            // New Britain jungle has its own row: 2.5 MP (R 51.0).
            let (key, rule) = if there.terrain == Terrain::Jungle && rules.new_britain_jungle {
                ("jungle_new_britain", "R 51.0")
            } else {
                (there.terrain.key(), "R 5.0")
            };
            let row = table_row(aid, key)?;
            if matches!(row.inf_mp, crate::scenario::player_aid::Cell::No) {
                return Err(MoveRefusal::NoEntry {
                    to,
                    terrain: there.terrain,
                });
            }
            (StepPart::Enter(there.terrain), row_mp(aid, key)?, rule)
        }
    };
    add(part, base, rule);
    // At Night the hex costs at least the night minimum (R 50.2).
    if let Some((min, extra)) = rules
        .night_minimum
        .and_then(|min| super::night::night_minimum_extra(min, base).map(|e| (min, e)))
    {
        add(StepPart::NightMinimum(min), extra, "R 50.2");
    }
    for feature in board.hexside(from, side) {
        let (key, text, rule) = match feature {
            HexsideFeature::Hedgerow => ("hedgerow", "cross a hedgerow", "R 44.0"),
            HexsideFeature::Wall => ("wall", "cross a wall", "R 46.1"),
            // R 47.4: "No unit can cross a Cliff hex side." (its row: no MP).
            HexsideFeature::Cliff => ("cliff", "cross a cliff", "R 47.4"),
            HexsideFeature::Crest => continue,
        };
        let row = table_row(aid, key)?;
        if matches!(row.inf_mp, crate::scenario::player_aid::Cell::No) {
            return Err(MoveRefusal::NoCrossing {
                from,
                to,
                hexside: row.name.clone(),
                rule: row.source.label(),
            });
        }
        add(StepPart::Said(text), row_mp(aid, key)?, rule);
    }
    // The ground at the centre dot: a Gully is Level −1, "and movement out
    // of one is moving to a higher elevation" (R 45.4).
    let (low, high) = (
        super::los::ground_level(board, from),
        super::los::ground_level(board, to),
    );
    if high > low {
        let per_level = row_mp(aid, "higher_elevation")?;
        let levels = u16::try_from(high - low).unwrap_or(0);
        let rule = if here.terrain == Terrain::Gully {
            "R 45.4, R 47.1"
        } else {
            "R 47.1"
        };
        add(StepPart::Climb(levels), Mp(per_level.0 * levels), rule);
    }
    Ok(())
}

/// Checks one step against the MPs left (R 5.0: a unit cannot enter a hex
/// unless it has the MPs to do so).
pub fn check_step(
    board: &Board,
    aid: &PlayerAid,
    rules: MoveRules,
    from: Coord,
    to: Coord,
    left: Mp,
) -> Result<StepCost, MoveRefusal> {
    let cost = step_cost(board, aid, rules, from, to)?;
    if cost.total > left {
        return Err(MoveRefusal::NotEnoughMp {
            need: cost.total,
            left,
        });
    }
    Ok(cost)
}

/// The MPs left after a whole path, or the first step that cannot be taken.
pub fn path_cost(
    board: &Board,
    aid: &PlayerAid,
    rules: MoveRules,
    path: &[Coord],
    allowance: Mp,
) -> Result<Mp, (usize, MoveRefusal)> {
    let mut left = allowance;
    for (i, pair) in path.windows(2).enumerate() {
        let c = check_step(board, aid, rules, pair[0], pair[1], left).map_err(|e| (i + 1, e))?;
        left = Mp(left.0 - c.total.0);
    }
    Ok(left)
}

/// Whether a unit of this nationality may try to move out of an
/// enemy-occupied hex (R 5.1): Japanese units in Melee must be marked Used or
/// Op Fire when selected (R 5.1, R 59.1).
pub fn may_withdraw(nationality: Nationality) -> bool {
    nationality != Nationality::Japanese
}

/// American Reluctance (R 58.1): non-elite American Squads (Airborne and
/// Marines are elite) end their move at once when Suppressed mid-move, with
/// no MC to go on.
pub fn subject_to_reluctance(nationality: Nationality, class: UnitClass) -> bool {
    nationality == Nationality::American && class == UnitClass::Squad
}

/// An enemy unit as a Routing unit (or one under a Declared Retreat) sees
/// it (R 11.0): where it is, and whether it is in Melee.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetreatEnemy {
    pub at: Coord,
    /// In the Cave below `at` (R 43.4).
    pub in_cave: bool,
    /// In a hex with units of the retreating side (R 12.0).
    pub in_melee: bool,
}

/// Why a step breaks the Routing restrictions a Declared Retreat follows
/// (R 5.3, R 11.0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RetreatRefusal {
    /// The hex is adjacent to (or holds) an enemy unit not in Melee.
    NextToEnemy { to: Coord, enemy: Coord },
    /// The step comes closer to an enemy unit in LOS now or before.
    CloserToEnemy { to: Coord, enemy: Coord },
}

impl std::fmt::Display for RetreatRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RetreatRefusal::NextToEnemy { to, enemy } => write!(
                f,
                "{} is next to the enemy in {}: a Declared Retreat moves as a Routing unit (R 5.3, R 11.0)",
                to.label(),
                enemy.label()
            ),
            RetreatRefusal::CloserToEnemy { to, enemy } => write!(
                f,
                "{} is closer to the enemy in {}, seen during the move: a Declared Retreat moves as a Routing unit (R 5.3, R 11.0)",
                to.label(),
                enemy.label()
            ),
        }
    }
}

/// Whether a hex is the enemy's location or adjacent to it (R 43.4 Caves,
/// R 47.4 Cliffs: `fortifications::adjacent`).
fn next_to(board: &Board, e: &RetreatEnemy, to: Coord) -> bool {
    use super::fortifications::{Place, adjacent};
    let there = Place {
        coord: to,
        in_cave: false,
    };
    let enemy = Place {
        coord: e.at,
        in_cave: e.in_cave,
    };
    enemy == there || adjacent(board, enemy, there)
}

/// The movement restrictions of a Routing unit (R 11.0) that a Declared
/// Retreat must follow (R 5.3), step by step from `start` along `path`: no
/// hex adjacent to (or in) the hex of an enemy unit not in Melee, and no step
/// closer in hexes to an enemy unit that is in LOS, or was at some earlier
/// point of the move. `sees(a, b)` is the LOS between two hexes (R 14.0).
/// Returns the 0-based index of the first bad step with its reason.
pub fn check_retreat_path(
    board: &Board,
    start: Coord,
    path: &[Coord],
    enemies: &[RetreatEnemy],
    sees: impl Fn(Coord, Coord) -> bool,
) -> Result<(), (usize, RetreatRefusal)> {
    let mut seen: Vec<bool> = enemies.iter().map(|e| sees(start, e.at)).collect();
    let mut at = start;
    for (i, &to) in path.iter().enumerate() {
        if let Some(e) = enemies
            .iter()
            .find(|e| !e.in_melee && next_to(board, e, to))
        {
            return Err((i, RetreatRefusal::NextToEnemy { to, enemy: e.at }));
        }
        if let Some(e) = enemies
            .iter()
            .zip(&seen)
            .find(|(e, s)| **s && e.at.distance(to) < e.at.distance(at))
            .map(|(e, _)| e)
        {
            return Err((i, RetreatRefusal::CloserToEnemy { to, enemy: e.at }));
        }
        for (e, s) in enemies.iter().zip(seen.iter_mut()) {
            *s = *s || sees(to, e.at);
        }
        at = to;
    }
    Ok(())
}

/// Backing up after a failed MC mid-move (R 5.0, R 2.2): a unit whose move
/// ends in a hex it over-stacks goes back to the hex it came from,
/// regardless of MPs; if that one is over-stacked too, on back along its
/// trail (its start hex always has room). `trail` is the start hex then
/// every hex entered; `own_units(hex)` counts the other Squads/WTs of its
/// side there. Returns the hex to back up to, or `None` to stay.
pub fn back_up_to(trail: &[Coord], own_units: impl Fn(Coord) -> usize, limit: u8) -> Option<Coord> {
    let (&here, before) = trail.split_last()?;
    if own_units(here) < usize::from(limit) {
        return None;
    }
    before
        .iter()
        .rev()
        .find(|&&c| own_units(c) < usize::from(limit))
        .or(before.first())
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::schema::{
        ElevationArea, HexsideRun, MapSpec, RoadRun, Side6, TerrainArea,
    };

    fn aid() -> PlayerAid {
        crate::scenario::builtin_player_aid().expect("player aid builds")
    }

    fn c(label: &str) -> Coord {
        Coord::parse(label, 8, 8).unwrap()
    }

    fn board() -> Board {
        Board::from_map(&MapSpec {
            columns: 8,
            rows: 8,
            base_terrain: Terrain::Open,
            terrain: vec![
                TerrainArea {
                    terrain: Terrain::StoneBuilding,
                    hexes: vec!["F1".into()],
                },
                TerrainArea {
                    terrain: Terrain::WheatField,
                    hexes: vec!["A5".into()],
                },
                TerrainArea {
                    terrain: Terrain::Jungle,
                    hexes: vec!["H8".into()],
                },
                TerrainArea {
                    terrain: Terrain::River,
                    hexes: vec!["H1".into()],
                },
            ],
            elevation: vec![ElevationArea {
                level: 1,
                hexes: vec!["D7".into()],
            }],
            hexsides: vec![HexsideRun {
                feature: HexsideFeature::Hedgerow,
                hex: "B3".into(),
                sides: vec![Side6::S],
            }],
            roads: vec![RoadRun {
                kind: RoadKind::Road,
                hexes: vec!["A7".into(), "B7".into(), "C7".into(), "D7".into()],
            }],
            fortifications: vec![],
        })
    }

    /// R 43.2: Trench to Trench costs the Trench row's 1 MP whatever the
    /// hex (Jungle here, 3 MP otherwise), a Trench and the Bunker next to it
    /// are connected, and leaving the line costs the terrain again.
    #[test]
    fn r43_2_trench_to_trench_is_one_mp_whatever_the_terrain() {
        use crate::scenario::schema::{FortificationKind, FortificationSpec};
        let mut map = MapSpec {
            columns: 8,
            rows: 8,
            base_terrain: Terrain::Jungle,
            terrain: vec![],
            elevation: vec![],
            hexsides: vec![],
            roads: vec![],
            fortifications: vec![],
        };
        for (kind, at) in [
            (FortificationKind::Trench, "B2"),
            (FortificationKind::Trench, "C2"),
            (FortificationKind::Bunker, "D2"),
            (FortificationKind::Foxhole, "B3"),
        ] {
            map.fortifications.push(FortificationSpec {
                kind,
                at: at.into(),
                facing: None,
                concealed: false,
            });
        }
        let (b, a) = (Board::from_map(&map), aid());
        let rules = MoveRules::default();
        let along = step_cost(&b, &a, rules, c("B2"), c("C2")).unwrap();
        assert_eq!(along.total, Mp::whole(1));
        assert_eq!(along.lines[0].text, "along the trench");
        assert_eq!(along.lines[0].rule, "R 43.2");
        assert_eq!(
            step_total(&b, &a, rules, c("C2"), c("D2")),
            Ok(Mp::whole(1))
        );
        assert!(trench_step(&b, c("D2"), c("C2")));
        // A Foxhole is not part of the Trench: Jungle costs 3.
        assert!(!trench_step(&b, c("B2"), c("B3")));
        assert_eq!(
            step_total(&b, &a, rules, c("B2"), c("B3")),
            Ok(Mp::whole(3))
        );
        assert_eq!(
            step_total(&b, &a, rules, c("C2"), c("C3")),
            Ok(Mp::whole(3))
        );
    }

    /// R 5.0 example: a Squad that has traversed four Open hexes has 1 MP
    /// left and cannot enter a building (2 MP) without a CP (R 5.4 +1 MP).
    #[test]
    fn r5_example_four_open_hexes_then_a_building() {
        let (b, a) = (board(), aid());
        let path = [c("B1"), c("C1"), c("D1"), c("E1"), c("E2")];
        let left = path_cost(&b, &a, MoveRules::default(), &path, Mp::whole(5)).unwrap();
        assert_eq!(left, Mp::whole(1));
        let refusal = check_step(&b, &a, MoveRules::default(), c("E2"), c("F1"), left).unwrap_err();
        assert_eq!(
            refusal,
            MoveRefusal::NotEnoughMp {
                need: Mp::whole(2),
                left: Mp::whole(1)
            }
        );
        assert_eq!(refusal.to_string(), "needs 2 MP, 1 MP left (R 5.0)");
        // Follow Me! (R 5.4): one more MP and the building can be entered.
        let with_cp = Mp(left.0 + Mp::SIXTHS);
        assert!(check_step(&b, &a, MoveRules::default(), c("E2"), c("F1"), with_cp).is_ok());
    }

    #[test]
    fn road_hexsides_cost_two_thirds_and_climbing_adds_one_per_level() {
        let (b, a) = (board(), aid());
        let path = [c("A7"), c("B7"), c("C7")];
        let left = path_cost(&b, &a, MoveRules::default(), &path, Mp::whole(5)).unwrap();
        assert_eq!(left, Mp(30 - 8), "two road hexsides cost 2/3 MP each (PAC)");
        let up = step_cost(&b, &a, MoveRules::default(), c("C7"), c("D7")).unwrap();
        assert_eq!(
            up.total,
            Mp(4 + 6),
            "road 2/3 + 1 for the level climbed (R 47.1)"
        );
        let down = step_cost(&b, &a, MoveRules::default(), c("D7"), c("E7")).unwrap();
        assert_eq!(
            down.total,
            Mp::whole(1),
            "going down costs the terrain only"
        );
    }

    #[test]
    fn hedgerows_add_one_and_wheat_costs_one_and_a_half() {
        let (b, a) = (board(), aid());
        let over = step_cost(&b, &a, MoveRules::default(), c("B3"), c("B4")).unwrap();
        assert_eq!(over.total, Mp::whole(2));
        assert_eq!(over.lines[1].rule, "R 44.0");
        let wheat = step_cost(&b, &a, MoveRules::default(), c("A4"), c("A5")).unwrap();
        assert_eq!(wheat.total, Mp(9));
    }

    #[test]
    fn jungle_costs_three_or_two_and_a_half_on_new_britain_and_rivers_refuse() {
        let (b, a) = (board(), aid());
        let normal = step_cost(&b, &a, MoveRules::default(), c("G8"), c("H8")).unwrap();
        assert_eq!(normal.total, Mp::whole(3));
        let nb = MoveRules {
            new_britain_jungle: true,
            ..MoveRules::default()
        };
        assert_eq!(
            step_cost(&b, &a, nb, c("G8"), c("H8")).unwrap().total,
            Mp(15)
        );
        assert_eq!(
            step_cost(&b, &a, MoveRules::default(), c("G1"), c("H1")).unwrap_err(),
            MoveRefusal::NoEntry {
                to: c("H1"),
                terrain: Terrain::River
            }
        );
        assert!(matches!(
            step_cost(&b, &a, MoveRules::default(), c("A1"), c("C3")),
            Err(MoveRefusal::NotAdjacent { .. })
        ));
    }
    /// R 5.3 / R 11.0: a Declared Retreat never moves next to an enemy not
    /// in Melee, nor closer to one seen now or earlier in the move; an
    /// enemy in Melee may be passed, and one never seen does not count.
    #[test]
    fn declared_retreat_follows_the_routing_restrictions() {
        let free = RetreatEnemy {
            at: c("F4"),
            in_cave: false,
            in_melee: false,
        };
        let board = board();
        let all_see = |_: Coord, _: Coord| true;
        let path = [c("C4"), c("B4"), c("A4")];
        assert_eq!(
            check_retreat_path(&board, c("D4"), &path, &[free], all_see),
            Ok(())
        );
        // Next to F4 at once: E4 is adjacent.
        assert_eq!(
            check_retreat_path(&board, c("D4"), &[c("E4")], &[free], all_see),
            Err((
                0,
                RetreatRefusal::NextToEnemy {
                    to: c("E4"),
                    enemy: c("F4")
                }
            ))
        );
        // D4 -> C4 -> D4 comes back closer (3 -> 2) on the second step.
        let back = [c("C4"), c("D4")];
        assert_eq!(
            check_retreat_path(&board, c("D4"), &back, &[free], all_see)
                .unwrap_err()
                .0,
            1
        );
        // Never seen, the enemy does not bind the path; seen once, it does.
        let never = |_: Coord, _: Coord| false;
        assert_eq!(
            check_retreat_path(&board, c("D4"), &back, &[free], never),
            Ok(())
        );
        let from_c4 = |a: Coord, _: Coord| a == c("C4");
        assert!(check_retreat_path(&board, c("D4"), &back, &[free], from_c4).is_err());
        // An enemy in Melee may be passed next to.
        let melee = RetreatEnemy {
            at: c("F4"),
            in_cave: false,
            in_melee: true,
        };
        assert_eq!(
            check_retreat_path(&board, c("D4"), &[c("E4"), c("E5")], &[melee], never),
            Ok(())
        );
    }

    /// R 45.4: "Movement into a Gully hex costs 1 MP … Gullies are Level -1
    /// terrain and movement out of one is moving to a higher elevation."
    /// Into the Gully of B2: 1 MP; out of it to the Open C2 (same hill
    /// level): 1 MP and +1 for the climb (R 47.1).
    #[test]
    fn r45_4_leaving_a_gully_is_climbing() {
        let map = MapSpec {
            columns: 8,
            rows: 8,
            base_terrain: Terrain::Open,
            terrain: vec![TerrainArea {
                terrain: Terrain::Gully,
                hexes: vec!["B2".into()],
            }],
            elevation: vec![],
            hexsides: vec![],
            roads: vec![],
            fortifications: vec![],
        };
        let (b, a) = (Board::from_map(&map), aid());
        let rules = MoveRules::default();
        assert_eq!(
            step_total(&b, &a, rules, c("C2"), c("B2")),
            Ok(Mp::whole(1))
        );
        let out = step_cost(&b, &a, rules, c("B2"), c("C2")).unwrap();
        assert_eq!(out.total, Mp::whole(2));
        assert_eq!(out.lines[1].rule, "R 45.4, R 47.1");
    }

    /// R 47.4: "No unit can cross a Cliff hex side." and "Units on either
    /// side of a Cliff hexside are not adjacent.": with a Cliff along F4's
    /// west sides, no step crosses it and E4 and E5 are not next to F4.
    #[test]
    fn r47_4_no_step_crosses_a_cliff_and_no_unit_is_adjacent_across_it() {
        let mut map = MapSpec {
            columns: 8,
            rows: 8,
            base_terrain: Terrain::Open,
            terrain: vec![],
            elevation: vec![],
            hexsides: vec![HexsideRun {
                feature: HexsideFeature::Cliff,
                hex: "F4".into(),
                sides: vec![Side6::Nw, Side6::Sw],
            }],
            roads: vec![],
            fortifications: vec![],
        };
        let (b, a) = (Board::from_map(&map), aid());
        let rules = MoveRules::default();
        for from in ["E4", "E5"] {
            assert_eq!(
                step_cost(&b, &a, rules, c(from), c("F4"))
                    .unwrap_err()
                    .to_string(),
                format!("no unit crosses the Cliff hexside between {from} and F4 (R 47.4)")
            );
        }
        assert_eq!(
            step_total(&b, &a, rules, c("F3"), c("F4")),
            Ok(Mp::whole(1))
        );
        let enemy = RetreatEnemy {
            at: c("F4"),
            in_cave: false,
            in_melee: false,
        };
        let never = |_: Coord, _: Coord| false;
        let path = [c("E4"), c("E5")];
        assert_eq!(
            check_retreat_path(&b, c("D4"), &path, &[enemy], never),
            Ok(())
        );
        map.hexsides.clear();
        let plain = Board::from_map(&map);
        assert!(check_retreat_path(&plain, c("D4"), &path, &[enemy], never).is_err());
    }

    /// R 5.0: back up to the previous hex when the last is over-stacked;
    /// further back along the trail when that one is full too; stay when
    /// there is room.
    #[test]
    fn backing_up_goes_to_the_last_hex_with_room() {
        let trail = [c("A1"), c("B1"), c("C1")];
        let full = |f: &'static [&'static str]| {
            move |x: Coord| if f.iter().any(|h| c(h) == x) { 2 } else { 0 }
        };
        assert_eq!(back_up_to(&trail, full(&[]), 2), None);
        assert_eq!(back_up_to(&trail, full(&["C1"]), 2), Some(c("B1")));
        assert_eq!(back_up_to(&trail, full(&["C1", "B1"]), 2), Some(c("A1")));
        assert_eq!(back_up_to(&[c("A1")], full(&["A1"]), 2), None);
    }

    /// R 5.1 / R 59.1, R 58.1: who may Withdraw, who is Reluctant.
    #[test]
    fn withdrawal_and_reluctance_by_nationality() {
        assert!(may_withdraw(Nationality::German));
        assert!(!may_withdraw(Nationality::Japanese));
        assert!(subject_to_reluctance(
            Nationality::American,
            UnitClass::Squad
        ));
        assert!(!subject_to_reluctance(
            Nationality::AmericanAirborne,
            UnitClass::Squad
        ));
        assert!(!subject_to_reluctance(
            Nationality::UsMarines,
            UnitClass::Squad
        ));
        assert!(!subject_to_reluctance(
            Nationality::American,
            UnitClass::MgTeam
        ));
    }
}
