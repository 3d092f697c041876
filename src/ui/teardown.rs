//! Leaving a game without leaving the program: the board's entities, the
//! rules engine's resources and the views' state go, so the next game (the
//! demo's next scenario, or one started from the main menu) begins on a
//! clean world, set up by `OnEnter(InGame)` as at launch.

use bevy::prelude::*;

use crate::app::AppState;
use crate::world::{FortificationCounter, HexCell, TurnTrack, Unit};

/// Set by the result screen's "Main menu": the board is cleared as the game
/// state is left, and the menu opens.
#[derive(Resource, Debug, Clone, Copy, Default)]
pub struct LeavingToMenu;

/// Removes the game's entities and the engine's resources (but the scenario
/// on the board, the data and the few resources the board's set-up replaces
/// itself), and puts the views back as they start.
pub fn clear_game(world: &mut World) {
    let mut doomed: Vec<Entity> = Vec::new();
    macro_rules! gather {
        ($($t:ty),*) => {$(
            let mut q = world.query_filtered::<Entity, With<$t>>();
            doomed.extend(q.iter(world));
        )*};
    }
    gather!(
        Unit,
        HexCell,
        FortificationCounter,
        super::board::BoardArt,
        super::board::MapCamera,
        super::counters::CounterArt,
        super::act::ActArt,
        super::act::ReachArt,
        super::los_tool::LosArt,
        super::facing::PlanArt,
        super::decide::DecideArt,
        super::counters::SmokeArt,
        super::night::NightArt,
        super::markers::MarkerArt,
        crate::engine::smoke::SmokeCounter
    );
    for e in doomed {
        if let Ok(e) = world.get_entity_mut(e) {
            e.despawn();
        }
    }
    // The game's own (`engine::clear`); the turn track stays until the
    // next game's set-up replaces it (the panels read it until then).
    let track = world.get_resource::<TurnTrack>().cloned();
    crate::engine::clear(world);
    if let Some(t) = track {
        world.insert_resource(t);
    }
    world.insert_resource(super::orders::GameLog::default());
    world.insert_resource(super::night::NightDrawn::default());
    world.insert_resource(super::tray::DiceTray::default());
    world.insert_resource(super::act::Applied::default());
    world.insert_resource(super::tray::LogHighlight::default());
    world.insert_resource(super::Selected::default());
    world.insert_resource(super::Hovered::default());
    world.insert_resource(super::act::Intent::default());
    world.insert_resource(super::act::OpFireDialog::default());
    world.insert_resource(super::los_tool::LosTool::default());
    world.insert_resource(super::facing::FacingPlan::default());
    if world.contains_resource::<super::stream::Casualties>() {
        world.insert_resource(super::stream::Casualties::default());
    }
    if let Some(mut n) = world.get_resource_mut::<super::act::OrderCount>() {
        n.0 += 1;
    }
    if let Some(mut insets) = world.get_resource_mut::<super::camera::PanelInsets>() {
        insets.refit = true;
    }
}

/// "Main menu" from a game: the game is in its journal; the board is
/// cleared as the game state is left (`leave_to_menu`) and the menu opens
/// in the same window.
pub fn back_to_menu(world: &mut World) {
    world.insert_resource(LeavingToMenu);
    world
        .resource_mut::<NextState<AppState>>()
        .set(AppState::Menu);
}

/// On leaving the game for the menu: the game's world goes, and with it the
/// journal being written (closed), the computer player, the result screen.
pub fn leave_to_menu(world: &mut World) {
    if world.remove_resource::<LeavingToMenu>().is_none() {
        return;
    }
    clear_game(world);
    world.remove_resource::<crate::ui::session::GameJournal>();
    world.remove_resource::<crate::ui::session::JournalLaunch>();
    world.remove_resource::<super::vs_bot::VsBot>();
    world.remove_resource::<super::result::ResultScreen>();
    world.insert_resource(super::result::ResultRequest::default());
    world.insert_resource(super::handover::HandOver::default());
}
