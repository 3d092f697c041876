//! The game log, the start of the Operations Phase, and the script a
//! screenshot plays first. Orders from the mouse and keys are in `act`.

use bevy::prelude::*;

use crate::scenario::schema::SideId;

use crate::engine::Dice;
use crate::engine::game::begin_game;

/// The event log shown under the board: newest last.
#[derive(Resource, Debug, Default, Clone)]
pub struct GameLog {
    /// The referee's lines: every unit by its id.
    pub lines: Vec<String>,
    /// Each side's copy of the lines of the orders given on this board
    /// (`engine::view`): (the referee line's index, the side's words). None
    /// where the log holds only the referee's lines (a replay).
    pub copies: Option<[Vec<(usize, String)>; 2]>,
    /// The hexes each line is about (by index; may be shorter than `lines`).
    pub hexes: Vec<Vec<crate::scenario::Coord>>,
    /// The last refusal, shown until the next accepted order.
    pub refusal: Option<String>,
    /// Show only this many lines (the replay's event steps); all when `None`.
    pub cut: Option<usize>,
}

impl GameLog {
    /// The lines shown: all of them, or those up to the replay's event.
    pub fn shown(&self) -> &[String] {
        &self.lines[..self.cut.unwrap_or(self.lines.len()).min(self.lines.len())]
    }

    /// The lines `viewer` may read, each with the index of its referee
    /// line: the side's copy where the log keeps one (R 15.0), else (and
    /// for no side: a spectator) the referee's lines.
    pub fn shown_to(&self, viewer: Option<SideId>) -> Vec<(usize, &str)> {
        let end = self.cut.unwrap_or(self.lines.len()).min(self.lines.len());
        match (&self.copies, viewer) {
            (Some(copies), Some(viewer)) => copies[viewer.index()]
                .iter()
                .filter(|(i, _)| *i < end)
                .map(|(i, l)| (*i, l.as_str()))
                .collect(),
            _ => self
                .shown()
                .iter()
                .map(String::as_str)
                .enumerate()
                .collect(),
        }
    }

    /// A line every reader reads alike (a note of the window's, not an
    /// event), in the referee's lines and each side's copy.
    pub fn push_note(&mut self, line: String) {
        let at = self.lines.len();
        if let Some(copies) = &mut self.copies {
            for copy in copies {
                copy.push((at, line.clone()));
            }
        }
        self.lines.push(line);
    }

    /// From here on each side reads only its own copy: the lines already
    /// here (a journal replayed on resume) are the referee's, not shown.
    pub fn own_copies_from_now(&mut self) {
        self.copies.get_or_insert_with(Default::default);
    }

    /// Adds each side's copy of lines just added to the referee's, from
    /// `first` on: `copies[s]` holds (the event's index among them, the
    /// side's words).
    pub fn push_copies(&mut self, first: usize, copies: [Vec<(usize, String)>; 2]) {
        let kept = self.copies.get_or_insert_with(Default::default);
        for (side, copy) in copies.into_iter().enumerate() {
            kept[side].extend(copy.into_iter().map(|(k, l)| (first + k, l)));
        }
    }

    /// Adds the events' log lines.
    pub fn push_events(&mut self, events: &[crate::engine::GameEvent]) {
        self.push_located(events, Vec::new());
    }

    /// Adds the events' log lines with the hexes each is about.
    pub fn push_located(
        &mut self,
        events: &[crate::engine::GameEvent],
        mut hexes: Vec<Vec<crate::scenario::Coord>>,
    ) {
        hexes.resize(events.len(), Vec::new());
        self.hexes.resize(self.lines.len(), Vec::new());
        self.lines.extend(events.iter().map(|e| e.line()));
        self.hexes.extend(hexes);
    }
}

/// Starts the Operations Phase once the scenario is on the board.
pub fn start_operations(world: &mut World) {
    if super::replay::begin(world) || crate::ui::session::start_game(world) {
        return;
    }
    if world.get_resource::<Dice>().is_none() {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        world.insert_resource(Dice::seeded(seed));
    }
    let events = begin_game(world);
    let mut log = world.get_resource_or_insert_with(GameLog::default);
    log.push_events(&events);
}

/// `bob screenshot --script FILE`: plays the script's orders on the board
/// before the capture (its seed and forced rolls included). A script for
/// another scenario, a bad file or a refused order is logged and stops there.
pub fn play_screenshot_script(world: &mut World) {
    let Some(path) = world
        .get_resource::<crate::app::ScreenshotRequest>()
        .and_then(|r| r.script.clone())
    else {
        return;
    };
    let name = path.display().to_string();
    let script = match crate::scenario::read_file(&path)
        .and_then(|bytes| crate::engine::script::parse(&name, &bytes))
    {
        Ok(s) => s,
        Err(report) => {
            error!("{report}");
            return;
        }
    };
    let here = world
        .resource::<crate::world::ActiveScenario>()
        .scenario
        .id
        .clone();
    // The script may name the scenario by id, built-in file name or path.
    let named = if script.scenario == here {
        Some(here.clone())
    } else {
        let roster = world.resource::<crate::world::RosterRes>().0.clone();
        let aid = world.resource::<crate::world::AidRes>().0.clone();
        crate::world::load(&script.scenario, &roster, &aid)
            .ok()
            .map(|l| l.scenario.id.clone())
    };
    if named.as_deref() != Some(here.as_str()) {
        error!(
            "{name}: the script is for `{}`, not `{here}`",
            script.scenario
        );
        return;
    }
    world.insert_resource(Dice::seeded(script.seed));
    world
        .resource_mut::<Dice>()
        .force(script.rolls.iter().copied());
    for (i, order) in script.orders.iter().enumerate() {
        if !super::act::send(world, order) {
            let mut log = world.resource_mut::<GameLog>();
            log.refusal = log
                .refusal
                .take()
                .map(|r| format!("order {} refused: {r}", i + 1));
            return;
        }
    }
}
