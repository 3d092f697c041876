//! `bob play --vs-bot SIDE`: a person against the bot. When the bot's side
//! must act (`bot::acting_side`), the bot's order goes through the very
//! path a person's order takes (`act::send`: the engine, the journal, the
//! log), one order every `PACE` so it can be followed. The screen stays
//! with the person's side, so the bot's Conceal counters stay hidden
//! (R 15.0).

use std::sync::OnceLock;
use std::time::Duration;

use bevy::prelude::*;

use crate::app::AppState;
use crate::bot::{Bot, Level, acting_side};
use crate::scenario::schema::SideId;
use crate::world::Viewer;

/// Time between two bot orders.
pub const PACE: Duration = Duration::from_millis(600);

/// The side the bot plays and its level, set from the command line before
/// the app starts.
static REQUEST: OnceLock<(SideId, Level)> = OnceLock::new();

/// Asks for a bot on `side` in the game about to open.
pub fn request(side: SideId, level: Level) {
    let _ = REQUEST.set((side, level));
}

/// The bot at the table.
#[derive(Resource)]
pub struct VsBot {
    pub side: SideId,
    pub bot: Bot,
    /// Time since the bot's last order.
    pub waited: Duration,
}

pub struct VsBotPlugin;

impl Plugin for VsBotPlugin {
    fn build(&self, app: &mut App) {
        // The main menu may seat the bot later (`seat`); the system idles
        // while no `VsBot` is at the table.
        app.insert_resource(super::menu::BotAvailable(true))
            .add_systems(Update, bot_plays.run_if(in_state(AppState::InGame)));
        if let Some((side, level)) = REQUEST.get().copied() {
            app.insert_resource(VsBot::seated(side, level));
        }
    }
}

impl VsBot {
    /// The bot on `side`, seeded from the clock (its dice are the game's).
    pub fn seated(side: SideId, level: Level) -> Self {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_secs());
        VsBot {
            side,
            bot: Bot::new(level, seed),
            waited: Duration::ZERO,
        }
    }
}

/// When the bot's side must act and `PACE` has passed, the bot's order is
/// sent; the screen is kept on the person's side.
pub fn bot_plays(world: &mut World) {
    let delta = world.resource::<Time>().delta();
    let Some(mut vs) = world.remove_resource::<VsBot>() else {
        return;
    };
    let person = vs.side.other();
    if acting_side(world) == Some(vs.side) {
        vs.waited += delta;
        if vs.waited >= PACE {
            vs.waited = Duration::ZERO;
            let order = vs.bot.order(world);
            super::act::send(world, &order);
        }
        // Keep frames coming while the bot is to act (the window otherwise
        // redraws on input only).
        world.write_message(bevy::window::RequestRedraw);
    } else {
        vs.waited = Duration::ZERO;
    }
    if let Some(mut v) = world.get_resource_mut::<Viewer>()
        && v.0 != person
    {
        v.0 = person;
    }
    world.insert_resource(vs);
}

/// Parses `allies` / `axis` for `--vs-bot`.
pub fn parse_side(s: &str) -> Result<SideId, String> {
    match s.to_ascii_lowercase().as_str() {
        "allies" => Ok(SideId::Allies),
        "axis" => Ok(SideId::Axis),
        _ => Err(format!("unknown side `{s}`: use allies or axis")),
    }
}
