//! Acting on the board: the selected unit's action bar (each button asks the
//! engine's own check, `operations::check`, and a greyed one shows the
//! engine's refusal), Tab to the next unit that may act, the move mode
//! (reachable hexes with the MPs left, the path under the mouse), the fire
//! mode with its preview, and the Op Fire window's dialog. Every order goes
//! through `send`, the same `operations::apply` that `bob script` drives.

use std::collections::HashMap;

use bevy::prelude::*;

use crate::engine::command_points::CpFunction;
use crate::engine::op_fire::OpFireWindow;
use crate::engine::operations::{OpsState, check};
use crate::engine::{GameEvent, Order};
use crate::rules::Mp;
use crate::rules::fire::FireKind;
use crate::scenario::Coord;
use crate::world::{Location, Unit, Viewer};

use super::preview::{FirePreview, fire_preview};
use super::{Hovered, Selected};
use crate::engine::reach::{Reached, path_to, reachable};

/// What a click on the board does for the selected unit.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub enum Intent {
    /// Clicks select units.
    #[default]
    Select,
    /// A click on a lit hex moves there (R 5.0).
    Move,
    /// A click on an enemy hex fires at it (R 6.0).
    Fire,
    /// A click on a hex places an Illumination counter there (R 50.1).
    Illuminate,
}

/// The actions a unit may be given in the Operations Phase (R 4.0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Move,
    Fire,
    OpFire,
    Used,
    Pass,
    /// Place an Illumination counter near the unit (R 50.1).
    Illuminate,
    /// The Concealed unit brings back a removed Decoy (R 50.3).
    Decoy,
    /// The move declares Seishin: +1 MP, into an enemy hex (R 59.5).
    Seishin,
    /// Remove the Wire or Roadblock in the unit's hex (R 43.6, R 43.7):
    /// offered only where there is one.
    Clear,
}

impl Action {
    pub const ALL: [Action; 6] = [
        Action::Move,
        Action::Fire,
        Action::OpFire,
        Action::Used,
        Action::Pass,
        Action::Clear,
    ];

    /// The Night and Japanese actions, shown where the scenario or the unit
    /// has them (R 50.1, R 50.3, R 59.5).
    pub const PACIFIC: [Action; 3] = [Action::Illuminate, Action::Decoy, Action::Seishin];

    pub fn label(self) -> &'static str {
        match self {
            Action::Move => "Move",
            Action::Fire => "Fire",
            Action::OpFire => "Op Fire",
            Action::Used => "Used",
            Action::Pass => "Pass",
            Action::Illuminate => "Illuminate",
            Action::Decoy => "Decoy back",
            Action::Seishin => "Seishin +1 MP",
            Action::Clear => "Clear obstacle",
        }
    }

    pub fn key(self) -> &'static str {
        match self {
            Action::Move => "M",
            Action::Fire => "G",
            Action::OpFire => "O",
            Action::Used => "U",
            Action::Pass => "P",
            Action::Illuminate => "I",
            Action::Decoy => "B",
            Action::Seishin => "X",
            Action::Clear => "C",
        }
    }
}

/// One button of the action bar: `refusal` is the engine's reason when the
/// action may not be taken now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActionButton {
    pub action: Action,
    pub refusal: Option<String>,
}

/// The action bar of the selected unit.
#[derive(Resource, Debug, Default, Clone)]
pub struct ActionBar {
    pub unit: Option<String>,
    pub buttons: Vec<ActionButton>,
    /// The CP functions a player readies or spends on the unit (R 3.0),
    /// each with the engine's refusal when not allowed now.
    pub cp: Vec<(CpFunction, Option<String>)>,
    /// The Night and Seishin buttons that apply here (`Action::PACIFIC`).
    pub pacific: Vec<ActionButton>,
    /// The Seishin toggle is on: the next move declares it (R 59.5).
    pub seishin: bool,
    /// Illumination mode: the hex under the mouse and its verdict.
    pub lights: IlluminationPreview,
}

/// The CP functions of the action bar, in its order (R 3.0, R 5.4).
pub const CP_BUTTONS: [CpFunction; 4] = [
    CpFunction::Reroll,
    CpFunction::ProfFp,
    CpFunction::FollowMe,
    CpFunction::ActFirst,
];

/// Where the selected unit can go (move mode).
#[derive(Resource, Debug, Default, Clone)]
pub struct Reach {
    pub unit: Option<Entity>,
    pub hexes: HashMap<Coord, Reached>,
}

/// The path to the hex under the mouse (move mode), with the engine's
/// verdict on it.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct PathPreview {
    pub from: Option<Coord>,
    pub path: Vec<Coord>,
    pub left: Option<Mp>,
    pub refusal: Option<String>,
}

/// Illumination mode: the hex under the mouse, the hexes a counter there
/// would light (R 50.1), and the engine's refusal of placing it there.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct IlluminationPreview {
    pub at: Option<Coord>,
    pub lit: Vec<Coord>,
    pub refusal: Option<String>,
}

/// The Seishin toggle of the selected unit: its next move declares
/// Seishin (R 59.5). Off again when the selection changes or it moves.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct SeishinToggle(pub Option<Entity>);

/// The fire preview of the selected unit at the hex under the mouse.
#[derive(Resource, Debug, Default, Clone)]
pub struct Preview(pub Option<FirePreview>);

/// The Op Fire window's dialog: the eligible units, those chosen to fire,
/// and each one's preview against the mover.
#[derive(Resource, Debug, Default, Clone)]
pub struct OpFireDialog {
    pub window: Option<OpFireWindow>,
    /// The mover as the side asked knows it: under its Conceal counter, "a
    /// Conceal counter", never its id (R 15.0).
    pub mover: String,
    pub chosen: Vec<String>,
    pub previews: Vec<(String, Option<FirePreview>)>,
}

/// Requests from the panels and the mouse, handled once a frame.
#[derive(Resource, Debug, Default, Clone)]
pub struct Requests {
    pub action: Option<Action>,
    pub click: Option<Coord>,
    pub toggle_op_fire: Option<String>,
    pub answer_op_fire: Option<Vec<String>>,
    /// Tab: select the next unit that may act.
    pub next_unit: bool,
    /// A CP button of the action bar (R 3.0).
    pub cp: Option<CpFunction>,
}

/// Bumped by every accepted order: the state the UI shows has changed.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct OrderCount(pub u64);

/// What the cached views were built for (`None` before the first build).
#[derive(Resource, Debug, Default, Clone, PartialEq)]
struct Built(Option<BuiltFor>);

#[derive(Debug, Clone, PartialEq)]
struct BuiltFor {
    selected: Option<Entity>,
    orders: u64,
    intent: Intent,
    hovered: Option<Coord>,
    /// The Seishin toggle (R 59.5): the reach and the bar change with it.
    seishin: bool,
}

pub struct ActPlugin;

impl Plugin for ActPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Intent>()
            .init_resource::<ActionBar>()
            .init_resource::<Reach>()
            .init_resource::<PathPreview>()
            .init_resource::<IlluminationPreview>()
            .init_resource::<SeishinToggle>()
            .init_resource::<Preview>()
            .init_resource::<OpFireDialog>()
            .init_resource::<Requests>()
            .init_resource::<OrderCount>()
            .init_resource::<super::tray::DiceTray>()
            .init_resource::<super::tray::UiSettings>()
            .init_resource::<super::tray::LogHighlight>()
            .init_resource::<Built>()
            .init_resource::<Applied>()
            .add_systems(
                OrderShown,
                (
                    follow_decider_shown.in_set(ShownSet::Viewer),
                    show_in_log.in_set(ShownSet::Logged),
                ),
            )
            .edit_schedule(OrderShown, configure_order_shown);
    }
}

/// Run once an accepted order is on disk: every view that shows an order's
/// events (captions, the result screen's turn record, the replay's board,
/// the hotseat view, the log and the dice tray) adds its system here in its
/// own plugin and reads [`Applied`]. Single-threaded, in [`ShownSet`]'s
/// order.
#[derive(bevy::ecs::schedule::ScheduleLabel, Debug, Clone, PartialEq, Eq, Hash)]
pub struct OrderShown;

/// The order of [`OrderShown`]: the views told for the side that watched
/// the order, then the hotseat view turns to the side that must decide
/// next, then the log and the dice tray (whose hexes are that side's).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ShownSet {
    Told,
    Viewer,
    Logged,
}

/// The accepted order and its events, as [`OrderShown`]'s systems read them,
/// with what each side could not see before it (R 15.0).
#[derive(Resource, Debug, Clone, Default)]
pub struct Applied {
    pub order: Option<Order>,
    pub events: Vec<GameEvent>,
    /// Each side's fog before the order, by `SideId::index`.
    pub fogs: Option<[crate::engine::view::Fog; 2]>,
}

/// [`OrderShown`] as it must run: one thread, [`ShownSet`] in order.
pub fn configure_order_shown(schedule: &mut Schedule) {
    schedule.set_executor(bevy::ecs::schedule::SingleThreadedExecutor::new());
    schedule.configure_sets((ShownSet::Told, ShownSet::Viewer, ShownSet::Logged).chain());
}

/// A fresh [`OrderShown`] schedule, configured (for a world without the
/// app, as tests build).
pub fn order_shown_schedule() -> Schedule {
    let mut schedule = Schedule::new(OrderShown);
    configure_order_shown(&mut schedule);
    schedule
}

/// Applies an order through the engine (`engine::game::apply_seen`). Accepted,
/// it goes to the journal on disk first, then [`OrderShown`] shows its
/// events; refused, the log shows why. An order whose journal write fails
/// is taken back and shown nowhere; a board whose journal cannot be written
/// plays none (`ui::session`). Returns whether it was accepted.
pub fn send(world: &mut World, order: &Order) -> bool {
    if !crate::ui::session::may_play(world) {
        return false;
    }
    // With what each side could not see before the order: its copy of the
    // events names those units by their counters (R 15.0).
    match crate::engine::game::apply_seen(world, order) {
        Ok(crate::engine::game::Seen { events, fogs }) => {
            // On disk before the result is shown (issue: never lose a game).
            if !crate::ui::session::record(world, order) {
                return false;
            }
            world.resource_mut::<OrderCount>().0 += 1;
            world.insert_resource(Applied {
                order: Some(order.clone()),
                events,
                fogs: Some(fogs),
            });
            // A world without the app's schedules shows nothing.
            let _ = world.try_run_schedule(OrderShown);
            true
        }
        Err(r) => {
            world.resource_mut::<super::orders::GameLog>().refusal = Some(r.to_string());
            false
        }
    }
}

/// [`OrderShown`]: the order's events in the log, each with its hexes, and
/// each side's copy of them (R 15.0); its dice in the tray.
pub fn show_in_log(world: &mut World) {
    world.resource_scope(|world, mut applied: Mut<Applied>| {
        let Applied { events, fogs, .. } = &mut *applied;
        let hexes = events
            .iter()
            .map(|e| super::tray::event_hexes(world, e))
            .collect();
        let copies = fogs
            .as_mut()
            .map(|fogs| fogs.each_mut().map(|fog| fog.copy(world, events)));
        let mut log = world.resource_mut::<super::orders::GameLog>();
        log.refusal = None;
        let first = log.lines.len();
        log.push_located(events, hexes);
        if let Some(copies) = copies {
            log.push_copies(first, copies);
        }
        // The tray speaks to the side on screen: an enemy unit still under
        // its counter is named by it (R 15.0).
        let viewer = world.get_resource::<Viewer>().map(|v| v.0);
        let fog = fogs.as_ref().zip(viewer).map(|(f, v)| &f[v.index()]);
        let rolls = super::tray::rolls_of(events, |id| {
            fog.and_then(|f| f.label(id))
                .map_or_else(|| id.to_string(), str::to_string)
        });
        if !rolls.is_empty() {
            let since = world
                .get_resource::<Time>()
                .map_or(0.0, |t| t.elapsed_secs_f64());
            let instant = world.resource::<super::tray::UiSettings>().dice_seconds <= 0.0;
            world.insert_resource(super::tray::DiceTray {
                rolls,
                since,
                settled: instant,
            });
        }
    });
}

/// [`OrderShown`]: the hotseat view follows the side that must decide.
pub fn follow_decider_shown(world: &mut World) {
    world.resource_scope(|world, applied: Mut<Applied>| follow_decider(world, &applied.events));
}

/// Hotseat: the screen shows the view of the side that must decide next
/// (the side a pending decision asks, the side an Op Fire window asks, or
/// the side to act).
fn follow_decider(world: &mut World, events: &[GameEvent]) {
    let decider = super::decide::decision_view(world)
        .map(|d| d.side)
        .or_else(|| world.get_resource::<OpFireWindow>().map(|w| w.side))
        .or_else(|| world.get_resource::<OpsState>().map(|s| s.acting));
    let turned = events.iter().any(|e| {
        matches!(
            e,
            GameEvent::OpsRangeStarted { .. }
                | GameEvent::OpFireWindow { .. }
                | GameEvent::OpFirePassed { .. }
                | GameEvent::OpFires { .. }
                | GameEvent::DecisionAwaited { .. }
        )
    });
    if let Some(side) = decider
        && turned
        && world.resource::<Viewer>().0 != side
    {
        world.resource_mut::<Viewer>().0 = side;
    }
}

fn selected_unit(world: &World) -> Option<(Entity, Unit, Coord)> {
    let e = world.resource::<Selected>().0?;
    let er = world.get_entity(e).ok()?;
    Some((e, er.get::<Unit>()?.clone(), er.get::<Location>()?.coord))
}

/// The order an action means for `unit`, with `target` for fire.
fn order_for(action: Action, unit: &str, target: Option<Coord>) -> Order {
    let unit = unit.to_string();
    match action {
        Action::Move => Order::plain_move(unit, vec![]),
        Action::Fire => Order::Fire {
            unit,
            target: target.map(|c| c.label()).unwrap_or_default(),
            facing: None,
        },
        Action::OpFire => Order::MarkOpFire { unit, facing: None },
        Action::Used | Action::Seishin => Order::MarkUsed { unit },
        Action::Pass => Order::Pass,
        Action::Illuminate => Order::Illuminate {
            unit,
            at: target.map(|c| c.label()).unwrap_or_default(),
        },
        Action::Decoy => Order::RegenerateDecoy {
            unit,
            decoy: String::new(),
        },
        Action::Clear => Order::Clear { unit },
    }
}

/// A move along `path`, declaring Seishin when `seishin` (R 59.5).
fn move_order(unit: &str, path: &[Coord], seishin: bool) -> Order {
    let mut order = Order::plain_move(unit.to_string(), path.iter().map(|c| c.label()).collect());
    if let Order::Move { seishin: s, .. } = &mut order {
        *s = seishin;
    }
    order
}

/// The unit with scenario id `id`: its entity and hex.
fn unit_by_id(world: &mut World, id: &str) -> Option<(Entity, Unit, Coord)> {
    let mut q = world.query::<(Entity, &Unit, &Location)>();
    q.iter(world)
        .find(|(_, u, _)| u.id == id)
        .map(|(e, u, l)| (e, u.clone(), l.coord))
}

/// The `regenerate_decoy` order of the Decoy button: the first removed
/// Decoy of the unit's side (R 50.3), if any.
fn decoy_order(world: &mut World, unit: &str) -> Option<Order> {
    let side = unit_by_id(world, unit)?.1.side;
    let decoy = crate::engine::night::removed_decoys(world, side)
        .into_iter()
        .next()?;
    Some(Order::RegenerateDecoy {
        unit: unit.to_string(),
        decoy,
    })
}

/// The Night and Seishin buttons, by the engine's checks: Illumination is
/// checked as a counter in the unit's own hex (the hex is picked later),
/// the Decoy with the first removed Decoy of the side, Seishin as a move
/// into the first enemy hex (the path is picked later).
fn pacific_refusal(world: &mut World, action: Action, unit: &str) -> Option<String> {
    let (e, u, at) = unit_by_id(world, unit)?;
    match action {
        Action::Illuminate => check(world, &order_for(action, unit, Some(at)))
            .err()
            .map(|r| r.to_string()),
        Action::Decoy => match decoy_order(world, unit) {
            Some(order) => check(world, &order).err().map(|r| r.to_string()),
            None => refusal(world, Action::Used, Some(unit)).or_else(|| {
                Some("no Decoy of this side has been removed: none to bring back (R 50.3)".into())
            }),
        },
        Action::Seishin => refusal(world, Action::Move, Some(unit)).or_else(|| {
            let mut q = world.query::<(&Unit, &Location)>();
            let mut enemy: Vec<Coord> = q
                .iter(world)
                .filter(|(o, l)| o.side != u.side && !l.in_cave)
                .map(|(_, l)| l.coord)
                .collect();
            enemy.sort_by_key(|c| c.distance(at));
            crate::engine::seishin::check(world, e, enemy.first().copied(), false)
                .err()
                .map(|r| r.to_string())
        }),
        _ => refusal(world, action, Some(unit)),
    }
}

/// Whether the selected unit's bar shows `action` of `Action::PACIFIC`:
/// Illumination and Decoys in a Night scenario (R 50.1, R 50.3), Seishin
/// for a Squad marked "S" (R 59.5).
fn shows(world: &World, action: Action, unit: Option<&Unit>) -> bool {
    match action {
        Action::Illuminate | Action::Decoy => {
            crate::engine::night::visibility_range(world).is_some()
        }
        Action::Seishin => unit.is_some_and(|u| {
            world
                .resource::<crate::world::RosterRes>()
                .0
                .get(&u.kind)
                .is_some_and(|t| t.seishin)
        }),
        _ => false,
    }
}

/// Whether the unit may take the action now, by the engine's check: a move
/// or fire is checked as a Use (its path or target comes later).
pub(crate) fn refusal(world: &mut World, action: Action, unit: Option<&str>) -> Option<String> {
    let order = match (action, unit) {
        (Action::Pass, _) => Order::Pass,
        (_, None) => return Some("select a unit".into()),
        (Action::Move | Action::Fire, Some(u)) => order_for(Action::Used, u, None),
        (Action::Illuminate | Action::Decoy | Action::Seishin, Some(u)) => {
            return pacific_refusal(world, action, u);
        }
        (a, Some(u)) => order_for(a, u, None),
    };
    check(world, &order).err().map(|r| r.to_string())
}

/// Whether a CP may be spent or readied on the unit now, by the engine's
/// check (R 3.0).
fn cp_refusal(world: &mut World, function: CpFunction, unit: Option<&str>) -> Option<String> {
    let Some(unit) = unit.map(str::to_string) else {
        return Some("select a unit".into());
    };
    check(world, &Order::Cp { unit, function })
        .err()
        .map(|r| r.to_string())
}

/// Units of the side to act that may still be Used, by id (Tab cycles them).
pub fn ready_units(world: &mut World) -> Vec<(Entity, String)> {
    let mut q = world.query::<(Entity, &Unit)>();
    let mut all: Vec<(Entity, String)> =
        q.iter(world).map(|(e, u)| (e, u.id.to_string())).collect();
    all.sort_by(|a, b| a.1.cmp(&b.1));
    all.into_iter()
        .filter(|(_, id)| check(world, &Order::MarkUsed { unit: id.clone() }).is_ok())
        .collect()
}

/// Keys of the action bar and the Op Fire dialog, read into requests.
pub fn action_keys(
    keys: Res<ButtonInput<KeyCode>>,
    mut req: ResMut<Requests>,
    dialog: Res<OpFireDialog>,
    mut selected: ResMut<Selected>,
    mut intent: ResMut<Intent>,
    panel: Option<Res<super::decide::DecisionPanel>>,
    los: Option<Res<super::los_tool::LosTool>>,
) {
    if let Some(w) = &dialog.window {
        if keys.just_pressed(KeyCode::KeyN) || keys.just_pressed(KeyCode::Space) {
            req.answer_op_fire = Some(Vec::new());
        }
        if keys.just_pressed(KeyCode::KeyY) {
            req.answer_op_fire = Some(w.eligible.iter().map(|id| id.to_string()).collect());
        }
        if keys.just_pressed(KeyCode::Enter) {
            req.answer_op_fire = Some(dialog.chosen.clone());
        }
        let digits = [
            KeyCode::Digit1,
            KeyCode::Digit2,
            KeyCode::Digit3,
            KeyCode::Digit4,
            KeyCode::Digit5,
            KeyCode::Digit6,
            KeyCode::Digit7,
            KeyCode::Digit8,
            KeyCode::Digit9,
        ];
        for (i, k) in digits.into_iter().enumerate() {
            if keys.just_pressed(k)
                && let Some(id) = w.eligible.get(i)
            {
                req.toggle_op_fire = Some(id.to_string());
            }
        }
        return;
    }
    let pairs = [
        (KeyCode::KeyM, Action::Move),
        (KeyCode::KeyG, Action::Fire),
        (KeyCode::KeyO, Action::OpFire),
        (KeyCode::KeyU, Action::Used),
        (KeyCode::KeyP, Action::Pass),
        (KeyCode::KeyI, Action::Illuminate),
        (KeyCode::KeyB, Action::Decoy),
        (KeyCode::KeyX, Action::Seishin),
        (KeyCode::KeyC, Action::Clear),
    ];
    for (k, a) in pairs {
        if keys.just_pressed(k) {
            req.action = Some(a);
        }
    }
    if keys.just_pressed(KeyCode::Tab) {
        req.next_unit = true;
    }
    if keys.just_pressed(KeyCode::Escape) {
        let question = panel.as_ref().is_some_and(|p| p.view.is_some());
        let los = los.as_ref().is_some_and(|t| t.from.is_some());
        match escape_goes_to(question, los, *intent != Intent::Select) {
            Escape::Cancel => *intent = Intent::Select,
            Escape::Deselect => selected.0 = None,
            Escape::Decline | Escape::PutAwayLos => {}
        }
    }
}

/// What one press of Esc does: one job only, the first that applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Escape {
    /// A question is on screen: Esc declines it (the decision window).
    Decline,
    /// The LOS tool is out: Esc puts it away.
    PutAwayLos,
    /// Move or Fire is armed: Esc disarms it.
    Cancel,
    /// Else Esc clears the selection.
    Deselect,
}

/// The order in which Esc's jobs take it, as the help line says.
pub const ESCAPE_HELP: &str = "Esc: declines a question, else puts the LOS tool away, else cancels \
                               Move/Fire, else deselects";

/// Esc's one job now: a question first, then the LOS tool, then an armed
/// action, then the selection.
pub fn escape_goes_to(question: bool, los_tool: bool, armed: bool) -> Escape {
    if question {
        Escape::Decline
    } else if los_tool {
        Escape::PutAwayLos
    } else if armed {
        Escape::Cancel
    } else {
        Escape::Deselect
    }
}

/// Carries out the requests of this frame.
pub fn handle_requests(world: &mut World) {
    let req = std::mem::take(&mut *world.resource_mut::<Requests>());
    if let Some(firers) = req.answer_op_fire {
        send(
            world,
            &Order::OpFire {
                firers,
                facing: Default::default(),
            },
        );
        return;
    }
    if let Some(id) = req.toggle_op_fire {
        let mut d = world.resource_mut::<OpFireDialog>();
        if let Some(i) = d.chosen.iter().position(|c| *c == id) {
            d.chosen.remove(i);
        } else {
            d.chosen.push(id);
        }
    }
    if req.next_unit {
        next_ready_unit(world);
    }
    let unit = selected_unit(world);
    if let (Some(function), Some((_, u, _))) = (req.cp, &unit) {
        send(
            world,
            &Order::Cp {
                unit: u.id.to_string(),
                function,
            },
        );
    }
    if let Some(action) = req.action {
        let id = unit.as_ref().map(|u| u.1.id.clone());
        if let Some(r) = refusal(world, action, id.as_deref()) {
            world.resource_mut::<super::orders::GameLog>().refusal = Some(r);
        } else {
            match (action, id) {
                (Action::Move, Some(_)) => toggle_intent(world, Intent::Move),
                (Action::Fire, Some(_)) => toggle_intent(world, Intent::Fire),
                (Action::Illuminate, Some(_)) => toggle_intent(world, Intent::Illuminate),
                (Action::Seishin, Some(_)) => {
                    // The toggle arms a move that declares it (R 59.5).
                    let e = unit.as_ref().map(|u| u.0);
                    let mut t = world.resource_mut::<SeishinToggle>();
                    t.0 = if t.0 == e { None } else { e };
                    let on = t.0.is_some();
                    *world.resource_mut::<Intent>() =
                        if on { Intent::Move } else { Intent::Select };
                }
                (Action::Decoy, Some(id)) => {
                    if let Some(order) = decoy_order(world, &id) {
                        send(world, &order);
                    }
                }
                (a, id) => {
                    let order = order_for(a, id.as_deref().unwrap_or(""), None);
                    send(world, &super::facing::with_plan(world, order));
                }
            }
        }
    }
    if let (Some(at), Some((_, u, from))) = (req.click, unit) {
        let intent = *world.resource::<Intent>();
        let order = match intent {
            Intent::Move => {
                let path = path_to(&world.resource::<Reach>().hexes, at);
                let seishin = seishin_on(world);
                // A facing planned with Q/E or a drag is adopted at the
                // end of the move (R 2.2).
                (!path.is_empty() && at != from)
                    .then(|| super::facing::with_plan(world, move_order(&u.id, &path, seishin)))
            }
            Intent::Illuminate => Some(order_for(Action::Illuminate, &u.id, Some(at))),
            Intent::Fire => Some(super::facing::with_plan(
                world,
                order_for(Action::Fire, &u.id, Some(at)),
            )),
            Intent::Select => None,
        };
        match order {
            Some(o) => {
                if send(world, &o) {
                    *world.resource_mut::<Intent>() = Intent::Select;
                    world.resource_mut::<SeishinToggle>().0 = None;
                }
            }
            None => *world.resource_mut::<Intent>() = Intent::Select,
        }
    }
}

/// Whether the selected unit's Seishin toggle is on (R 59.5).
fn seishin_on(world: &World) -> bool {
    let t = world.resource::<SeishinToggle>().0;
    t.is_some() && t == world.resource::<Selected>().0
}

fn toggle_intent(world: &mut World, to: Intent) {
    let mut intent = world.resource_mut::<Intent>();
    *intent = if *intent == to { Intent::Select } else { to };
}

/// Tab: the next unit of the side to act that may still be Used.
fn next_ready_unit(world: &mut World) {
    let ready = ready_units(world);
    let current = world.resource::<Selected>().0;
    let next = match current.and_then(|s| ready.iter().position(|(e, _)| *e == s)) {
        Some(i) => ready.get((i + 1) % ready.len()),
        None => ready.first(),
    };
    world.resource_mut::<Selected>().0 = next.map(|(e, _)| *e);
    *world.resource_mut::<Intent>() = Intent::Select;
}

/// Rebuilds the action bar, the reach, the path and the previews when the
/// selection, the game, the mode or the hovered hex changed.
pub fn refresh_views(world: &mut World) {
    let now = BuiltFor {
        selected: world.resource::<Selected>().0,
        orders: world.resource::<OrderCount>().0,
        intent: *world.resource::<Intent>(),
        hovered: world.resource::<Hovered>().0,
        seishin: seishin_on(world),
    };
    let before = world.resource::<Built>().0.clone();
    if before.as_ref() == Some(&now) {
        return;
    }
    let unit = selected_unit(world);
    if before.is_none_or(|b| {
        b.selected != now.selected
            || b.orders != now.orders
            || b.intent != now.intent
            || b.seishin != now.seishin
    }) {
        let id = unit.as_ref().map(|u| u.1.id.clone());
        // "Clear obstacle" only where the unit stands in Wire or behind a
        // Roadblock (R 43.6, R 43.7).
        let obstacle = unit
            .as_ref()
            .is_some_and(|(_, _, at)| crate::engine::obstacles::obstacle_at(world, *at).is_some());
        let buttons = Action::ALL
            .into_iter()
            .filter(|a| *a != Action::Clear || obstacle)
            .map(|action| ActionButton {
                action,
                refusal: refusal(world, action, id.as_deref()),
            })
            .collect();
        let cp = CP_BUTTONS
            .into_iter()
            .map(|function| (function, cp_refusal(world, function, id.as_deref())))
            .collect();
        let seishin = now.seishin;
        let shown: Vec<Action> = Action::PACIFIC
            .into_iter()
            .filter(|a| shows(world, *a, unit.as_ref().map(|u| &u.1)))
            .collect();
        let pacific = shown
            .into_iter()
            .map(|action| ActionButton {
                action,
                refusal: refusal(world, action, id.as_deref()),
            })
            .collect();
        world.insert_resource(ActionBar {
            unit: id.map(String::from),
            buttons,
            cp,
            pacific,
            seishin,
            lights: IlluminationPreview::default(),
        });
        let reach = match (&unit, now.intent) {
            (Some((e, _, _)), Intent::Move) => Reach {
                unit: Some(*e),
                hexes: reachable(world, *e, seishin),
            },
            _ => Reach::default(),
        };
        world.insert_resource(reach);
        refresh_op_fire_dialog(world);
    }
    // The path under the mouse, checked by the engine.
    let mut path = PathPreview::default();
    if let (Intent::Move, Some((_, u, from)), Some(to)) = (now.intent, &unit, now.hovered) {
        let reach = world.resource::<Reach>();
        let hexes = path_to(&reach.hexes, to);
        let left = reach.hexes.get(&to).map(|r| r.left);
        if !hexes.is_empty() {
            let order = move_order(&u.id, &hexes, seishin_on(world));
            path = PathPreview {
                from: Some(*from),
                refusal: check(world, &order).err().map(|r| r.to_string()),
                path: hexes,
                left,
            };
        }
    }
    if *world.resource::<PathPreview>() != path {
        world.insert_resource(path);
    }
    let lights = match (&unit, now.hovered, now.intent) {
        (Some((_, u, _)), Some(at), Intent::Illuminate) => illumination_preview(world, &u.id, at),
        _ => IlluminationPreview::default(),
    };
    if world.resource::<ActionBar>().lights != lights {
        world.resource_mut::<ActionBar>().lights = lights.clone();
    }
    if *world.resource::<IlluminationPreview>() != lights {
        world.insert_resource(lights);
    }
    // The fire preview at the hex under the mouse: when the selected unit
    // may fire there by the engine's check.
    let preview = match (&unit, now.hovered, now.intent) {
        (Some((e, u, from)), Some(to), Intent::Select | Intent::Fire) if to != *from => {
            let order = order_for(Action::Fire, &u.id, Some(to));
            if check(world, &order).is_ok() {
                fire_preview(world, *e, to, FireKind::Normal, None)
            } else {
                None
            }
        }
        _ => None,
    };
    // No preview before nor now: leave it untouched, so the overlays that
    // draw it are not rebuilt.
    if preview.is_some() || world.resource::<Preview>().0.is_some() {
        world.insert_resource(Preview(preview));
    }
    world.insert_resource(Built(Some(now)));
}

/// What an Illumination counter placed by `unit`'s side in `at` would
/// light (its hex and the adjacent ones, R 50.1, the engine's own
/// `NightScene::illuminated`), and the engine's refusal of it.
fn illumination_preview(world: &mut World, unit: &str, at: Coord) -> IlluminationPreview {
    let refusal = check(world, &order_for(Action::Illuminate, unit, Some(at)))
        .err()
        .map(|r| r.to_string());
    let mut lit = Vec::new();
    if let Some(mut scene) = crate::engine::night::scene(world) {
        scene.illumination = vec![at];
        let board = world.resource::<crate::world::BoardRes>().0.clone();
        for col in 0..board.columns {
            for row in 0..board.rows {
                let c = Coord::new(col, row);
                if scene.illuminated(c) {
                    lit.push(c);
                }
            }
        }
    }
    IlluminationPreview {
        at: Some(at),
        lit,
        refusal,
    }
}

/// The dialog follows the engine's Op Fire window; a decision asked
/// meanwhile (a revealed unit's facing, R 2.2) is answered first.
fn refresh_op_fire_dialog(world: &mut World) {
    let window = world
        .get_resource::<OpFireWindow>()
        .filter(|_| !world.contains_resource::<crate::engine::decision::Pending>())
        .cloned();
    let mover = match &window {
        Some(w) => {
            let fog = crate::engine::view::Fog::of(world, w.side);
            match fog.label(&w.mover_id) {
                Some(_) => "a Conceal counter".to_string(),
                None => w.mover_id.to_string(),
            }
        }
        None => String::new(),
    };
    if window == world.resource::<OpFireDialog>().window {
        // The mover may lose its counter while the window stays open.
        let mut d = world.resource_mut::<OpFireDialog>();
        if d.mover != mover {
            d.mover = mover;
        }
        return;
    }
    let mut previews = Vec::new();
    if let Some(w) = &window {
        let mut q = world.query::<(Entity, &Unit)>();
        let firers: Vec<(Entity, String)> = q
            .iter(world)
            .filter(|(_, u)| w.eligible.contains(&u.id))
            .map(|(e, u)| (e, u.id.to_string()))
            .collect();
        for id in &w.eligible {
            let p = firers.iter().find(|f| f.1 == *id).and_then(|(e, _)| {
                // The attack the engine makes: Normal FP at a Muzzle Flash
                // (R 50.2), Op Fire or Final Op Fire otherwise.
                let (kind, mover) = crate::engine::night::window_attack(world, w, *e);
                fire_preview(world, *e, w.at, kind, mover)
            });
            previews.push((id.to_string(), p));
        }
    }
    world.insert_resource(OpFireDialog {
        window,
        mover,
        chosen: Vec::new(),
        previews,
    });
}

/// The board art of the move and fire modes.
#[derive(Component)]
pub struct ActArt;

const REACH_RING: Color = Color::srgb(0.30, 0.80, 1.0);
const PATH: Color = Color::srgb(1.0, 0.85, 0.25);
const PATH_BAD: Color = Color::srgb(0.95, 0.25, 0.20);
const LOG_RING: Color = Color::srgb(1.0, 0.45, 0.85);
const FIRE_LINE: Color = Color::srgb(0.95, 0.35, 0.20);
const LIT_RING: Color = Color::srgb(1.0, 0.95, 0.55);

/// The reachable hexes' art (under the counters: part of the ground).
#[derive(Component)]
pub struct ReachArt;

/// Draws the reachable hexes with their MPs left (R 5.0), when the reach
/// changes: not when only the path under the mouse does, so that a mouse
/// moving in Move redraws the path, not the whole reach.
pub fn draw_reach(
    mut commands: Commands,
    mut paint: super::paint::PaintAssets,
    reach: Res<Reach>,
    old: Query<Entity, With<ReachArt>>,
) {
    if !reach.is_changed() {
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    use super::board::z;
    use super::layout::{HEX_RADIUS, hex_center};
    let mut p = paint.painter(&mut commands);
    let mut spawned = Vec::new();
    let tint_z = z::COUNTER - 1.0;
    for (c, r) in &reach.hexes {
        let centre = hex_center(*c);
        if r.prev.is_none() {
            continue;
        }
        // A ring inside the hex: the painter's batches are opaque, and a
        // ring leaves the terrain readable.
        for side in crate::scenario::schema::Side6::ALL {
            let (a, b) = super::layout::side_ends(*c, side);
            let (a, b) = (centre + (a - centre) * 0.88, centre + (b - centre) * 0.88);
            spawned.push(p.line(a, b, 4.0, REACH_RING, tint_z));
        }
        let at = centre + Vec2::new(0.0, -HEX_RADIUS * 0.64);
        spawned.push(p.rect(
            at,
            Vec2::new(34.0, 17.0),
            0.0,
            Color::srgba(0.0, 0.0, 0.0, 0.7),
            tint_z + 0.1,
        ));
        spawned.push(p.text(mp_text(r.left), at, 14.0, Color::WHITE, tint_z + 0.5));
    }
    p.finish();
    for e in spawned {
        p.commands.entity(e).insert(ReachArt);
    }
}

/// Draws the path under the mouse, the hexes an Illumination counter would
/// light, and the lines of fire of the preview or the Op Fire window.
#[allow(clippy::too_many_arguments)]
pub fn draw_act_overlays(
    mut commands: Commands,
    mut paint: super::paint::PaintAssets,
    path: Res<PathPreview>,
    lights: Res<IlluminationPreview>,
    preview: Res<Preview>,
    dialog: Res<OpFireDialog>,
    highlight: Res<super::tray::LogHighlight>,
    log: Res<super::orders::GameLog>,
    units: Query<(&Unit, &Location)>,
    old: Query<Entity, With<ActArt>>,
) {
    if !path.is_changed()
        && !lights.is_changed()
        && !preview.is_changed()
        && !dialog.is_changed()
        && !highlight.is_changed()
    {
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    use super::board::z;
    use super::layout::hex_center;
    let mut p = paint.painter(&mut commands);
    let mut spawned = Vec::new();
    let line_z = z::HOVER + 1.5;
    // The hexes an Illumination counter would light (R 50.1).
    let lit_colour = if lights.refusal.is_some() {
        PATH_BAD
    } else {
        LIT_RING
    };
    for c in &lights.lit {
        let centre = hex_center(*c);
        for side in crate::scenario::schema::Side6::ALL {
            let (a, b) = super::layout::side_ends(*c, side);
            let (a, b) = (centre + (a - centre) * 0.9, centre + (b - centre) * 0.9);
            spawned.push(p.line(a, b, 5.0, lit_colour, line_z));
        }
    }
    if let Some(at) = lights.at {
        spawned.push(p.circle(hex_center(at), 12.0, Color::BLACK, line_z + 0.15));
        spawned.push(p.circle(hex_center(at), 9.0, lit_colour, line_z + 0.25));
    }
    if let Some(from) = path.from {
        let colour = if path.refusal.is_some() {
            PATH_BAD
        } else {
            PATH
        };
        let mut at = hex_center(from);
        for c in &path.path {
            let next = hex_center(*c);
            spawned.push(p.line(at, next, 9.0, Color::BLACK, line_z));
            spawned.push(p.line(at, next, 5.0, colour, line_z + 0.1));
            spawned.push(p.circle(next, 7.0, colour, line_z + 0.2));
            at = next;
        }
        spawned.push(p.circle(at, 12.0, Color::BLACK, line_z + 0.15));
        spawned.push(p.circle(at, 9.0, colour, line_z + 0.25));
    }
    let mut fire_line = |p: &mut super::paint::Painter, a: Coord, b: Coord, w: f32| {
        let (a, b) = (hex_center(a), hex_center(b));
        spawned.push(p.line(a, b, w + 3.0, Color::BLACK, line_z));
        spawned.push(p.line(a, b, w, FIRE_LINE, line_z + 0.1));
        spawned.push(p.circle(b, 10.0, FIRE_LINE, line_z + 0.2));
    };
    if let Some(w) = &dialog.window {
        for (id, _) in &dialog.previews {
            if let Some((_, l)) = units.iter().find(|(u, _)| u.id == *id) {
                let width = if dialog.chosen.contains(id) { 6.0 } else { 2.5 };
                fire_line(&mut p, l.coord, w.at, width);
            }
        }
    } else if let Some(pv) = &preview.0 {
        fire_line(&mut p, pv.from, pv.to, 4.0);
    }
    if let Some(hexes) = highlight.line.and_then(|i| log.hexes.get(i)) {
        for c in hexes {
            for side in crate::scenario::schema::Side6::ALL {
                let (a, b) = super::layout::side_ends(*c, side);
                spawned.push(p.line(a, b, 6.0, LOG_RING, line_z + 0.3));
            }
        }
    }
    p.finish();
    for e in spawned {
        p.commands.entity(e).insert(ActArt);
    }
}

/// MPs for the board and panel fonts: `3`, `2.5`, `1.3` (thirds rounded).
pub fn mp_text(mp: Mp) -> String {
    if mp.0.is_multiple_of(Mp::SIXTHS) {
        format!("{}", mp.0 / Mp::SIXTHS)
    } else {
        format!("{:.1}", mp.as_f32())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Esc has one job per press, in the order its help line gives.
    #[test]
    fn escape_takes_one_job_in_order() {
        assert_eq!(escape_goes_to(true, true, true), Escape::Decline);
        assert_eq!(escape_goes_to(false, true, true), Escape::PutAwayLos);
        assert_eq!(escape_goes_to(false, false, true), Escape::Cancel);
        assert_eq!(escape_goes_to(false, false, false), Escape::Deselect);
    }
}
