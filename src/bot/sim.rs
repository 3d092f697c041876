//! `bob sim`: headless games, bot against bot or against the random
//! player, to balance a scenario. Each game is seeded (its dice, each
//! player's tie-breaks), so any game can be played again.

use std::time::Instant;

use bevy::prelude::*;

use crate::engine::game::{apply, begin_game};
use crate::engine::phases::end::GameOver;
use crate::engine::random::{Lcg, random_order};
use crate::engine::{GameEvent, Shared};
use crate::scenario::schema::{SideId, VictoryCondition};
use crate::scenario::{Loaded, PlayerAid, Roster};
use crate::world::TurnTrack;

use super::{Bot, Level, acting_side};

/// Who plays a side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Player {
    Bot(Level),
    Random,
}

/// The opponent of the bot in a simulation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Versus {
    Bot,
    Random,
}

/// How one game ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameResult {
    pub winner: Option<SideId>,
    /// The card's victory condition that decided it (its index), `None`
    /// for a draw.
    pub condition: Option<usize>,
    pub turns: u8,
    pub eliminated: [u16; 2],
    pub reduced: [u16; 2],
    pub orders: u32,
}

/// Plays one whole game; returns its result and its event log.
pub fn play_game(shared: &Shared, seed: u64, players: [Player; 2]) -> (GameResult, Vec<GameEvent>) {
    play(shared, seed, players, &mut None)
}

/// [`play_game`], the bots starting from `memo` (the map's memo of an
/// earlier game's bots, which this game's leave there).
fn play(
    shared: &Shared,
    seed: u64,
    players: [Player; 2],
    memo: &mut Option<std::sync::Arc<super::memo::MapMemo>>,
) -> (GameResult, Vec<GameEvent>) {
    let loaded = &shared.loaded;
    let mut world = shared.world(seed);
    let mut bots = [
        Bot::new(level_of(players[0]), seed.wrapping_mul(2).wrapping_add(1))
            .with_memo(memo.clone()),
        Bot::new(level_of(players[1]), seed.wrapping_mul(2).wrapping_add(2))
            .with_memo(memo.clone()),
    ];
    let mut rng = Lcg(seed ^ 0x5eed);
    let mut log = begin_game(&mut world);
    let mut orders = 0u32;
    let mut refused = 0u32;
    while world.get_resource::<GameOver>().is_none() {
        let side = acting_side(&world).unwrap_or(SideId::Allies);
        let order = match players[side.index()] {
            // A refused bot order (a bug) falls back to random play so a
            // simulation never stalls.
            Player::Bot(_) if refused == 0 => bots[side.index()].order(&mut world),
            _ => random_order(&mut world, &mut rng),
        };
        orders += 1;
        match apply(&mut world, &order) {
            Ok(events) => {
                refused = 0;
                log.extend(events);
            }
            Err(_) => {
                refused += 1;
                if refused > 20_000 || orders > 200_000 {
                    break;
                }
            }
        }
    }
    if let Some(m) = bots.iter().find_map(Bot::memo) {
        *memo = Some(m);
    }
    let result = result_of(&mut world, loaded, orders);
    (result, log)
}

fn level_of(p: Player) -> Level {
    match p {
        Player::Bot(l) => l,
        Player::Random => Level::Normal,
    }
}

fn result_of(world: &mut World, loaded: &Loaded, orders: u32) -> GameResult {
    let tally = crate::engine::phases::end::tally(world);
    let turns = world.get_resource::<TurnTrack>().map_or(0, |t| t.turn);
    let verdict = world.get_resource::<GameOver>().map(|g| g.0.clone());
    let (winner, condition) = match verdict {
        Some(v) if v.winner.is_some() => (v.winner, Some(v.reasons.len().saturating_sub(1))),
        _ => (None, None),
    };
    let _ = loaded;
    GameResult {
        winner,
        condition,
        turns,
        eliminated: tally.eliminated,
        reduced: tally.reduced,
        orders,
    }
}

/// A simulation to run.
#[derive(Debug, Clone)]
pub struct SimConfig {
    pub games: u32,
    pub seed: u64,
    pub threads: usize,
    pub level: Level,
    pub versus: Versus,
    /// Print progress on stderr.
    pub progress: bool,
}

/// The games of a simulation, and who played them.
#[derive(Debug, Clone)]
pub struct SimReport {
    pub scenario: String,
    pub conditions: Vec<String>,
    pub versus: Versus,
    /// For each game: the side the bot played (against random), the result.
    pub games: Vec<(Option<SideId>, GameResult)>,
    /// Seeds of the games the engine could not finish (a panic).
    pub failed: Vec<u64>,
    pub seconds: f64,
}

/// The players of game `i`: against random, the bot takes the Allies in
/// even games and the Axis in odd ones.
pub fn players_for(i: u32, level: Level, versus: Versus) -> ([Player; 2], Option<SideId>) {
    match versus {
        Versus::Bot => ([Player::Bot(level), Player::Bot(level)], None),
        Versus::Random if i.is_multiple_of(2) => {
            ([Player::Bot(level), Player::Random], Some(SideId::Allies))
        }
        Versus::Random => ([Player::Random, Player::Bot(level)], Some(SideId::Axis)),
    }
}

/// Runs the games on `threads` threads; game `i` is seeded `seed + i`.
pub fn run(loaded: &Loaded, roster: &Roster, aid: &PlayerAid, cfg: &SimConfig) -> SimReport {
    let start = Instant::now();
    let threads = cfg.threads.max(1);
    let done = std::sync::atomic::AtomicU32::new(0);
    #[allow(clippy::type_complexity)]
    let mut games: Vec<(u32, Option<SideId>, Result<GameResult, u64>)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let done = &done;
                s.spawn(move || {
                    // Each thread its own board and bot memo.
                    let shared = Shared::new(
                        loaded.clone(),
                        std::sync::Arc::new(roster.clone()),
                        std::sync::Arc::new(aid.clone()),
                    );
                    let mut memo = None;
                    let mut out = Vec::new();
                    let mut i = t as u32;
                    while i < cfg.games {
                        let (players, bot_side) = players_for(i, cfg.level, cfg.versus);
                        let seed = cfg.seed.wrapping_add(u64::from(i));
                        // A game the engine cannot finish is reported, not
                        // lost with the whole thread.
                        let played = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            play(&shared, seed, players, &mut memo).0
                        }));
                        match played {
                            Ok(r) => out.push((i, bot_side, Ok(r))),
                            Err(_) => out.push((i, bot_side, Err(seed))),
                        }
                        let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                        if cfg.progress && (n.is_multiple_of(10) || n == cfg.games) {
                            eprint!("\r{n}/{} games", cfg.games);
                        }
                        i += threads as u32;
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    if cfg.progress {
        eprintln!();
    }
    games.sort_by_key(|g| g.0);
    SimReport {
        scenario: loaded.scenario.id.clone(),
        conditions: loaded.scenario.victory.iter().map(describe).collect(),
        versus: cfg.versus,
        failed: games
            .iter()
            .filter_map(|(_, _, r)| r.as_ref().err().copied())
            .collect(),
        games: games
            .into_iter()
            .filter_map(|(_, s, r)| r.ok().map(|r| (s, r)))
            .collect(),
        seconds: start.elapsed().as_secs_f64(),
    }
}

fn describe(c: &VictoryCondition) -> String {
    match c {
        VictoryCondition::ControlHexes { side, hexes, .. } => {
            format!("{side:?} control {}", hexes.join("/"))
        }
        VictoryCondition::EliminateUnits { side, count, .. } => {
            format!("{side:?} eliminate {count}")
        }
        VictoryCondition::ExitUnits { side, count, edge } => {
            format!("{side:?} exit {count} off {edge:?}")
        }
        VictoryCondition::Otherwise { side } => format!("otherwise {side:?}"),
    }
}

/// The Wilson score interval at 95% for `wins` of `n` (as fractions).
pub fn wilson(wins: u32, n: u32) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.96f64;
    let n = f64::from(n);
    let p = f64::from(wins) / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * ((p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt()) / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

fn rate(wins: u32, n: u32) -> String {
    let (lo, hi) = wilson(wins, n);
    format!(
        "{wins}/{n} = {:.1}% (95% CI {:.1}-{:.1}%)",
        100.0 * f64::from(wins) / f64::from(n.max(1)),
        100.0 * lo,
        100.0 * hi
    )
}

impl SimReport {
    /// The report `bob sim` prints.
    pub fn text(&self) -> String {
        let n = self.games.len() as u32;
        let mut out = format!("{}: {n} games", self.scenario);
        out.push_str(match self.versus {
            Versus::Bot => ", bot against bot\n",
            Versus::Random => ", bot against random orders\n",
        });
        let wins = |side: SideId, filter: &dyn Fn(&Option<SideId>) -> bool| {
            let games: Vec<_> = self.games.iter().filter(|g| filter(&g.0)).collect();
            let w = games.iter().filter(|g| g.1.winner == Some(side)).count() as u32;
            (w, games.len() as u32)
        };
        match self.versus {
            Versus::Bot => {
                for side in SideId::BOTH {
                    let (w, n) = wins(side, &|_| true);
                    out.push_str(&format!("  {side:?} win {}\n", rate(w, n)));
                }
            }
            Versus::Random => {
                for side in SideId::BOTH {
                    let (w, n) = wins(side, &|s| *s == Some(side));
                    out.push_str(&format!("  bot as {side:?} wins {}\n", rate(w, n)));
                }
            }
        }
        let draws = self.games.iter().filter(|g| g.1.winner.is_none()).count();
        out.push_str(&format!("  draws {draws}\n"));
        let nf = f64::from(n.max(1));
        let turns: f64 = self.games.iter().map(|g| f64::from(g.1.turns)).sum::<f64>() / nf;
        out.push_str(&format!("  average turns {turns:.2}\n"));
        for side in SideId::BOTH {
            let e: f64 = self
                .games
                .iter()
                .map(|g| f64::from(g.1.eliminated[side.index()]))
                .sum::<f64>()
                / nf;
            let r: f64 = self
                .games
                .iter()
                .map(|g| f64::from(g.1.reduced[side.index()]))
                .sum::<f64>()
                / nf;
            out.push_str(&format!(
                "  {side:?} losses per game: {e:.2} eliminated, {r:.2} Reduced at the end\n"
            ));
        }
        for (i, c) in self.conditions.iter().enumerate() {
            let k = self
                .games
                .iter()
                .filter(|g| g.1.condition == Some(i))
                .count();
            out.push_str(&format!(
                "  decided by \"{c}\": {k} ({:.1}%)\n",
                100.0 * k as f64 / nf
            ));
        }
        if !self.failed.is_empty() {
            out.push_str(&format!(
                "  {} games stopped by an engine error, seeds {:?}\n",
                self.failed.len(),
                self.failed
            ));
        }
        out.push_str(&format!(
            "  {:.2} s, {:.1} games/s\n",
            self.seconds,
            f64::from(n) / self.seconds.max(1e-9)
        ));
        out
    }
}

/// `bob sim`: loads the scenario, runs the games, prints the report; exit
/// 1 when the scenario cannot be loaded.
pub fn command(
    scenario: &str,
    cfg: &SimConfig,
    roster: &Roster,
    aid: &PlayerAid,
) -> std::process::ExitCode {
    let loaded = match crate::world::load(scenario, roster, aid) {
        Ok(l) => l,
        Err(report) => {
            eprintln!("{report}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let report = run(&loaded, roster, aid, cfg);
    print!("{}", report.text());
    std::process::ExitCode::SUCCESS
}
