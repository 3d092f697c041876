//! Conceal counters at setup (R 15.0): where a unit may start the scenario
//! under a Conceal counter, and when the counter would be removed at once.

use crate::map::Board;
use crate::rules::fire::hexside_protection;
use crate::rules::los::{LosQuery, is_blocked};
use crate::rules::rout::beneficial_hex;
use crate::scenario::schema::{HexsideFeature, Side6, Terrain};
use crate::scenario::{Coord, PlayerAid};

/// Why a setup hex entitles a unit to a Conceal counter (R 15.0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConcealGround {
    /// Terrain or a Fortification with a Beneficial Terrain modifier.
    Beneficial,
    /// Out of the LOS of every enemy unit.
    OutOfSight,
    /// Infantry next to a Hedgerow or Wall hexside.
    BesideHedgerowOrWall,
    /// Infantry on a Hill.
    OnAHill,
}

/// The verdict on a unit set up under a Conceal counter (R 15.0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetupConcealment {
    /// It may keep the counter.
    Kept(ConcealGround),
    /// It may take the counter, but a condition for losing it is met during
    /// setup, so the counter would be removed at once.
    LostAtOnce(ConcealGround, String),
    /// It may not set up Concealed: Open Ground in an enemy's LOS.
    NotAllowed(String),
}

/// R 45.5: "Units can't be Concealed in Ocean hexes." R 45.6: "Units can't
/// be Concealed in Surf hexes." The rule forbidding a Conceal counter in
/// `at`, if one does (the terrain row's `no_concealment`).
pub fn concealment_forbidden<'a>(board: &Board, aid: &'a PlayerAid, at: Coord) -> Option<&'a str> {
    board
        .cell(at)
        .and_then(|c| aid.terrain_row(c.terrain.key()))
        .and_then(|r| r.no_concealment.as_deref())
}

/// Why a unit in a hex where no unit may be Concealed loses its counter.
pub const NO_CONCEALMENT_HERE: &str =
    "units can't be Concealed in Surf or Ocean hexes (R 45.5, R 45.6)";

/// R 15.0 at setup: a unit may be Concealed in Beneficial Terrain or out of
/// the LOS of all enemy units; Infantry also next to a Hedgerow or Wall or on
/// a Hill, losing the counter at once if a condition for losing Concealment
/// is met: an enemy unit adjacent (not against a unit in the Jungle,
/// R 51.1), or Open Ground in an enemy's LOS. Open Ground is judged against
/// each enemy (the glossary: terrain that gives no beneficial modifier
/// against enemy fire): a Hedgerow or Wall the LOS crosses, or a higher
/// elevation, shelters the unit from that enemy. A unit inside a Cave is in
/// Beneficial Terrain (R 43.4). `enemies` are the hexes of every enemy unit
/// set up.
pub fn setup_concealment(
    board: &Board,
    aid: &PlayerAid,
    at: Coord,
    in_cave: bool,
    infantry: bool,
    enemies: &[Coord],
) -> SetupConcealment {
    if let Some(rule) = concealment_forbidden(board, aid, at) {
        let terrain = board.cell(at).map_or("", |c| c.terrain.name());
        return SetupConcealment::NotAllowed(format!(
            "{} is {terrain}: units can't be Concealed there ({rule})",
            at.label()
        ));
    }
    let seen = |e: &&Coord| !is_blocked(board, aid, &LosQuery::new(**e, at));
    let seen_by = enemies.iter().find(seen);
    let cell = board.cell(at);
    let sheltered = in_cave || beneficial_hex(board, aid, at);
    let ground = if sheltered {
        Some(ConcealGround::Beneficial)
    } else if seen_by.is_none() {
        Some(ConcealGround::OutOfSight)
    } else if infantry
        && Side6::ALL.iter().any(|&s| {
            board
                .hexside(at, s)
                .iter()
                .any(|f| matches!(f, HexsideFeature::Hedgerow | HexsideFeature::Wall))
        })
    {
        Some(ConcealGround::BesideHedgerowOrWall)
    } else if infantry && cell.is_some_and(|c| c.level > 0) {
        Some(ConcealGround::OnAHill)
    } else {
        None
    };
    let Some(ground) = ground else {
        let e = seen_by.map_or_else(String::new, |e| e.label());
        return SetupConcealment::NotAllowed(format!(
            "{} is Open Ground in the LOS of the enemy at {e}: a Conceal counter needs Beneficial Terrain, no enemy LOS, a Hedgerow or Wall alongside, or a Hill (R 15.0)",
            at.label()
        ));
    };
    let in_jungle = cell.is_some_and(|c| c.terrain == Terrain::Jungle);
    if let Some(e) = enemies
        .iter()
        .find(|e| super::fortifications::adjacent_hexes(board, **e, at))
        && !in_jungle
        && !in_cave
    {
        return SetupConcealment::LostAtOnce(
            ground,
            format!(
                "the enemy at {} is adjacent to {} (R 15.0)",
                e.label(),
                at.label()
            ),
        );
    }
    // Open Ground against this enemy: no Beneficial Terrain modifier
    // against its fire, from the hex, a Hedgerow or Wall crossed, or a
    // higher elevation (R 15.0, R 41.0, R 44.0, R 47.3).
    let level = |c: Coord| board.cell(c).map_or(0, |x| x.level);
    let open_to = |e: &Coord| {
        !sheltered && hexside_protection(board, *e, at).is_none() && level(at) <= level(*e)
    };
    if let Some(e) = enemies.iter().filter(seen).find(|e| open_to(e)) {
        return SetupConcealment::LostAtOnce(
            ground,
            format!(
                "{} is Open Ground to the enemy at {} and in its LOS (R 15.0)",
                at.label(),
                e.label()
            ),
        );
    }
    SetupConcealment::Kept(ground)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::schema::MapSpec;

    fn aid() -> PlayerAid {
        crate::scenario::builtin_player_aid().expect("player aid builds")
    }

    /// Open ground with woods at D1:D6, a hedgerow along B5's north side and
    /// a Level 1 hill at F2.
    fn board() -> Board {
        let map: MapSpec = ron::from_str(
            r#"(columns: 8, rows: 6, base_terrain: open,
                terrain: [(terrain: woods, hexes: ["D1:D6"]), (terrain: jungle, hexes: ["H6"])],
                elevation: [(level: 1, hexes: ["F2"])],
                hexsides: [(feature: hedgerow, hex: "B5", sides: [n])],
                fortifications: [])"#,
        )
        .expect("map parses");
        Board::from_map(&map)
    }

    fn c(label: &str) -> Coord {
        Coord::parse(label, 8, 6).unwrap()
    }

    #[test]
    fn beneficial_terrain_or_out_of_sight() {
        let (b, aid) = (board(), aid());
        // Woods: Beneficial Terrain, even in plain sight of A3.
        assert_eq!(
            setup_concealment(&b, &aid, c("D3"), false, true, &[c("A3")]),
            SetupConcealment::Kept(ConcealGround::Beneficial)
        );
        // Open Ground behind the woods from the enemy at A3.
        assert_eq!(
            setup_concealment(&b, &aid, c("G3"), false, true, &[c("A3")]),
            SetupConcealment::Kept(ConcealGround::OutOfSight)
        );
        // Open Ground in sight of A3.
        assert_eq!(
            setup_concealment(&b, &aid, c("B2"), false, true, &[c("A3"), c("G6")]),
            SetupConcealment::NotAllowed(
                "B2 is Open Ground in the LOS of the enemy at A3: a Conceal counter needs Beneficial Terrain, no enemy LOS, a Hedgerow or Wall alongside, or a Hill (R 15.0)".into()
            )
        );
    }

    #[test]
    fn hedgerows_and_hills_give_a_counter_that_is_lost_at_once_in_sight() {
        let (b, aid) = (board(), aid());
        // Beside the hedgerow with an enemy next to it: the counter is
        // placed and removed at once.
        assert_eq!(
            setup_concealment(&b, &aid, c("B5"), false, true, &[c("A6")]),
            SetupConcealment::LostAtOnce(
                ConcealGround::BesideHedgerowOrWall,
                "the enemy at A6 is adjacent to B5 (R 15.0)".into()
            )
        );
        // Seen across the hedgerow from the north: sheltered, it keeps the
        // counter; seen from the woods at D4, not across the hedgerow, it
        // loses it.
        assert_eq!(
            setup_concealment(&b, &aid, c("B5"), false, true, &[c("B2")]),
            SetupConcealment::Kept(ConcealGround::BesideHedgerowOrWall)
        );
        assert_eq!(
            setup_concealment(&b, &aid, c("B5"), false, true, &[c("B2"), c("C6")]),
            SetupConcealment::LostAtOnce(
                ConcealGround::BesideHedgerowOrWall,
                "the enemy at C6 is adjacent to B5 (R 15.0)".into()
            )
        );
        assert_eq!(
            setup_concealment(&b, &aid, c("B5"), false, true, &[c("B2"), c("D4")]),
            SetupConcealment::LostAtOnce(
                ConcealGround::BesideHedgerowOrWall,
                "B5 is Open Ground to the enemy at D4 and in its LOS (R 15.0)".into()
            )
        );
        // On the hill, above the enemy: sheltered by the elevation.
        assert_eq!(
            setup_concealment(&b, &aid, c("F2"), false, true, &[c("G4")]),
            SetupConcealment::Kept(ConcealGround::OnAHill)
        );
        // Only Infantry uses the hedgerow and hill cases.
        assert!(matches!(
            setup_concealment(&b, &aid, c("F2"), false, false, &[c("G4")]),
            SetupConcealment::NotAllowed(_)
        ));
    }

    #[test]
    fn adjacent_enemies_do_not_reveal_units_in_the_jungle() {
        let (b, aid) = (board(), aid());
        assert_eq!(
            setup_concealment(&b, &aid, c("H6"), false, true, &[c("G6")]),
            SetupConcealment::Kept(ConcealGround::Beneficial)
        );
        assert_eq!(
            setup_concealment(&b, &aid, c("D2"), false, true, &[c("C2")]),
            SetupConcealment::LostAtOnce(
                ConcealGround::Beneficial,
                "the enemy at C2 is adjacent to D2 (R 15.0)".into()
            )
        );
    }
}
