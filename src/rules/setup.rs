//! Setup checks that need the board and the rules (not run by the build
//! script, which checks the built-in scenarios with `validate` alone).

use crate::rules::concealment::{SetupConcealment, setup_concealment};
use crate::scenario::coords::Coord;
use crate::scenario::player_aid::PlayerAid;
use crate::scenario::roster::Roster;
use crate::scenario::schema::{Placement, Scenario};
use crate::scenario::validate::{Problem, locate};

/// R 15.0: every unit set up under a Conceal counter must be entitled to
/// it, and must not lose it at once (a unit that would is set up without
/// it). `src` is the scenario's text, for the positions.
pub fn setup_concealment_problems(
    src: &str,
    sc: &Scenario,
    roster: &Roster,
    aid: &PlayerAid,
) -> Vec<Problem> {
    let board = crate::map::Board::from_map(&sc.map);
    let placed: Vec<(&Placement, Coord)> = sc
        .setup
        .iter()
        .filter_map(|p| {
            Coord::parse(&p.at, sc.map.columns, sc.map.rows)
                .ok()
                .map(|c| (p, c))
        })
        .collect();
    let night = sc
        .special_rules
        .night
        .map(|n| crate::rules::night::NightScene::new(&aid.night, n.visibility_range));
    let mut problems = Vec::new();
    for (p, at) in &placed {
        if !p.concealed {
            continue;
        }
        // Guns take a Conceal counter at setup as if Infantry (R 20.1).
        let infantry = roster
            .get(&p.unit)
            .is_none_or(|u| u.class.is_infantry() || u.class.is_gun());
        // At Night a unit beyond the Visibility Range is out of LOS for
        // Concealment (R 50.2).
        let enemies: Vec<Coord> = placed
            .iter()
            .filter(|(q, c)| q.side != p.side && night.as_ref().is_none_or(|n| n.sees(*c, *at)))
            .map(|(_, c)| *c)
            .collect();
        let msg = match setup_concealment(&board, aid, *at, p.in_cave, infantry, &enemies) {
            SetupConcealment::Kept(_) => continue,
            SetupConcealment::NotAllowed(why) => {
                format!("unit {} may not set up Concealed: {why}", p.id)
            }
            SetupConcealment::LostAtOnce(_, why) => format!(
                "unit {} would lose its Conceal counter at once: {why}; set it up without `concealed: true`",
                p.id
            ),
        };
        problems.push(Problem::at(locate(src, Some("id"), &p.id, 0), msg));
    }
    problems
}
