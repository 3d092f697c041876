//! The decision window: whenever the game waits for a choice outside the
//! action bar and the Op Fire dialog (a CP re-roll offer, a Rout
//! destination, the next Melee, Melee casualties, a reinforcement's hex, a
//! Combat Event pick, a revealed unit's facing), it names the side that must decide, says what in
//! plain words with the rule, and lists the legal choices as buttons. The
//! choices are the engine's own (`engine::decision::Decision::legal_answers`);
//! every answer goes through `send`.

use super::captions::CaptionStripBottom;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use egui::RichText;

use crate::engine::Order;
use crate::engine::decision::Decision;
use crate::scenario::Coord;
use crate::scenario::schema::{SideId, Spine};
use crate::world::{ActiveScenario, Viewer};

use super::act::OrderCount;
use super::dialogs::ascii;
use super::panels::{ACCENT, DIM, side_name};

pub use crate::engine::decision::{
    Answer as Choice, PickKind as Many, Picks as PickMany, REVEALED_TITLE, Subject,
};

/// The pending decision as the window shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecisionView {
    pub side: SideId,
    pub title: String,
    /// What to decide, in plain words, with the rule.
    pub explain: String,
    /// One button per legal answer (empty when `many` is used).
    pub choices: Vec<Choice>,
    pub many: Option<PickMany>,
    /// The choice that passes (Esc or Space), where the rules allow one.
    pub pass: Option<usize>,
    /// The unit or hex the decision is about (the routing unit, the Melee
    /// hex), ringed on the board.
    pub subject: Option<Subject>,
    /// The answer also takes the facing the unit adopts (a Rout where
    /// facing is in use, R 2.2): the window offers the six hexspines.
    pub facing: bool,
}

impl DecisionView {
    /// The key of each choice: `1`..`9`, `0` for the tenth, `Esc` for the
    /// pass; later ones have none (the mouse picks them).
    pub fn keys(&self) -> Vec<Option<&'static str>> {
        let mut n = 0;
        let count = self
            .choices
            .len()
            .max(self.many.as_ref().map_or(0, |m| m.options.len()));
        (0..count)
            .map(|i| {
                if self.pass == Some(i) {
                    return Some("Esc");
                }
                n += 1;
                DIGITS.get(n - 1).map(|d| d.0)
            })
            .collect()
    }

    /// The choice (or option of a several-pick answer) a digit key stands for.
    pub fn index_of_key(&self, key: KeyCode) -> Option<usize> {
        let label = DIGITS.iter().find(|d| d.1 == key)?.0;
        self.keys().iter().position(|k| *k == Some(label))
    }
}

/// The digit keys in the order choices get them.
const DIGITS: [(&str, KeyCode); 10] = [
    ("1", KeyCode::Digit1),
    ("2", KeyCode::Digit2),
    ("3", KeyCode::Digit3),
    ("4", KeyCode::Digit4),
    ("5", KeyCode::Digit5),
    ("6", KeyCode::Digit6),
    ("7", KeyCode::Digit7),
    ("8", KeyCode::Digit8),
    ("9", KeyCode::Digit9),
    ("0", KeyCode::Digit0),
];

/// The decision the game waits for, if any, with its legal answers: the
/// engine's own (`engine::decision`). The Op Fire window has its own
/// dialog (`act.rs`).
pub fn decision_view(world: &World) -> Option<DecisionView> {
    let decision = crate::engine::decision::awaited(world)?;
    if matches!(decision, Decision::OpFire { .. }) {
        return None;
    }
    Some(view_of(&decision))
}

/// A decision as the window shows it.
pub fn view_of(decision: &Decision) -> DecisionView {
    let answers = decision.legal_answers();
    DecisionView {
        side: decision.side(),
        title: decision.title().into(),
        explain: ascii(&decision.explain()),
        choices: answers.choices,
        many: answers.picks,
        pass: answers.pass,
        subject: decision.subject(),
        facing: answers.facing,
    }
}

/// The window's state: the view, the picks so far of a several-pick answer,
/// and the order chosen this frame.
#[derive(Resource, Debug, Default, Clone)]
pub struct DecisionPanel {
    pub view: Option<DecisionView>,
    pub picks: Vec<String>,
    pub chosen: Option<Order>,
    /// The facing picked for a routing unit (R 2.2); `None` keeps its own.
    pub facing: Option<Spine>,
    orders: u64,
    /// The hexes the choices refer to, each with the keys of its choices.
    pub hexes: Vec<(Coord, String)>,
    /// The hex of the decision's subject.
    pub subject: Option<Coord>,
    /// The choices lie mostly in the upper half of the map: the window
    /// opens at the bottom of the board so as not to hide them.
    pub choices_above: bool,
}

/// What a choice names: a hex, a unit, or either (a unit first).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Named<'a> {
    Hex(&'a str),
    Unit(&'a str),
    Either(&'a str),
}

/// The hex or unit a choice's order names.
fn order_target(order: &Order) -> Option<Named<'_>> {
    match order {
        Order::Rout { to, .. } => Some(Named::Hex(to)),
        Order::Place { at, .. } | Order::Melee { at } => Some(Named::Hex(at)),
        Order::CpReroll { unit } => unit.as_deref().map(Named::Unit),
        Order::Face { unit, .. } => Some(Named::Unit(unit)),
        Order::Casualties { units } => units.first().map(|u| Named::Unit(u)),
        Order::CombatEvent { picks } => picks.first().map(|p| Named::Either(p)),
        _ => None,
    }
}

/// The hex a name stands for: a hex label, or where the unit stands.
fn hex_of(world: &mut World, name: Named) -> Option<Coord> {
    let (columns, rows) = {
        let b = &world.get_resource::<crate::world::BoardRes>()?.0;
        (b.columns, b.rows)
    };
    let unit_at = |world: &mut World, id: &str| {
        let mut q = world.query::<(&crate::world::Unit, &crate::world::Location)>();
        q.iter(world)
            .find(|(u, _)| u.id == id)
            .map(|(_, l)| l.coord)
    };
    match name {
        Named::Hex(h) => Coord::parse(h, columns, rows).ok(),
        Named::Unit(u) => unit_at(world, u),
        Named::Either(n) => unit_at(world, n).or_else(|| Coord::parse(n, columns, rows).ok()),
    }
}

/// The hexes of a view's choices, with their keys (several keys in one hex
/// are listed together), and the hex of its subject.
fn view_hexes(world: &mut World, view: &DecisionView) -> (Vec<(Coord, String)>, Option<Coord>) {
    let keys = view.keys();
    let names: Vec<Option<Named>> = match &view.many {
        Some(m) => m
            .options
            .iter()
            .map(|o| {
                Some(match m.kind {
                    Many::Casualties | Many::BanzaiGd | Many::BanzaiOpFire | Many::OpFire => {
                        Named::Unit(o)
                    }
                    Many::CombatEvent => Named::Either(o),
                })
            })
            .collect(),
        None => view
            .choices
            .iter()
            .map(|c| order_target(&c.order))
            .collect(),
    };
    let mut out: Vec<(Coord, String)> = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let Some(c) = name.and_then(|n| hex_of(world, n)) else {
            continue;
        };
        let key = keys.get(i).copied().flatten().unwrap_or("");
        match out.iter_mut().find(|(h, _)| *h == c) {
            Some((_, k)) => {
                if !key.is_empty() {
                    k.push(' ');
                    k.push_str(key);
                }
            }
            None => out.push((c, key.to_string())),
        }
    }
    let subject = match &view.subject {
        Some(Subject::Unit(u)) => hex_of(world, Named::Unit(u)),
        Some(Subject::Hex(h)) => hex_of(world, Named::Hex(h)),
        None => None,
    };
    (out, subject)
}

pub struct DecidePlugin;

impl Plugin for DecidePlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<DecisionPanel>().add_systems(
            Update,
            (
                decision_keys
                    .before(refresh_and_send)
                    .run_if(super::replay::orders_allowed),
                draw_choices.after(refresh_and_send),
            )
                .in_set(super::GameSystems)
                .run_if(in_state(crate::app::AppState::InGame)),
        );
    }
}

/// Rebuilds the view from the engine (once per frame; the picks are
/// dropped when the game moved on) and sends the order chosen.
pub fn refresh_and_send(world: &mut World) {
    let chosen = world.resource_mut::<DecisionPanel>().chosen.take();
    let chosen = chosen.map(|o| o.with_facing(world.resource::<DecisionPanel>().facing));
    // A replay shows the decisions; its journal answers them.
    if let Some(order) = chosen
        && !world.contains_resource::<super::replay::Replay>()
    {
        super::act::send(world, &order);
    }
    let view = decision_view(world);
    let orders = world.resource::<OrderCount>().0;
    let panel = world.resource::<DecisionPanel>();
    if panel.view != view || panel.orders != orders {
        let (hexes, subject) = match &view {
            Some(v) => view_hexes(world, v),
            None => (Vec::new(), None),
        };
        let rows = world
            .get_resource::<crate::world::BoardRes>()
            .map_or(0, |b| u32::from(b.0.rows));
        let mut panel = world.resource_mut::<DecisionPanel>();
        panel.view = view;
        panel.picks.clear();
        panel.facing = None;
        panel.orders = orders;
        let n = hexes.len().max(1) as u32;
        let mean_row = hexes.iter().map(|(c, _)| u32::from(c.row)).sum::<u32>() / n;
        panel.choices_above = !hexes.is_empty() && mean_row * 2 < rows;
        panel.hexes = hexes;
        panel.subject = subject;
    }
}

/// The decision window's keys: a digit picks (or toggles) its choice,
/// Enter confirms several picks (or takes the only choice), Esc or Space
/// passes where the rules allow, Backspace clears the picks.
pub fn decision_keys(
    keys: Res<ButtonInput<KeyCode>>,
    mut panel: ResMut<DecisionPanel>,
    mut egui: EguiContexts,
    facings: Query<(&crate::world::Unit, &crate::world::Facing)>,
) {
    let Some(view) = panel.view.clone() else {
        return;
    };
    if egui.ctx_mut().is_ok_and(|c| c.egui_wants_keyboard_input()) {
        return;
    }
    let pressed: Vec<KeyCode> = keys.get_just_pressed().copied().collect();
    for key in pressed {
        match (key, &view.many) {
            (KeyCode::Escape | KeyCode::Space, Some(m)) if m.kind.any_number() => {
                panel.chosen = Some(m.kind.order(Vec::new()));
            }
            (KeyCode::Escape | KeyCode::Space, _) => {
                if let Some(c) = view.pass.and_then(|i| view.choices.get(i)) {
                    panel.chosen = Some(c.order.clone());
                }
            }
            (KeyCode::Enter | KeyCode::NumpadEnter, Some(m)) => {
                if m.ready(panel.picks.len()) {
                    panel.chosen = Some(m.kind.order(panel.picks.clone()));
                }
            }
            (KeyCode::Enter | KeyCode::NumpadEnter, None) => {
                let mut open = (0..view.choices.len()).filter(|i| view.pass != Some(*i));
                if let (Some(i), None) = (open.next(), open.next()) {
                    panel.chosen = Some(view.choices[i].order.clone());
                }
            }
            (KeyCode::Backspace, Some(_)) => panel.picks.clear(),
            // R 2.2: Q and E turn the facing picked, as they turn a unit on
            // the board, starting from the unit's own.
            (KeyCode::KeyQ | KeyCode::KeyE, _) if view.facing => {
                let own = match &view.subject {
                    Some(Subject::Unit(id)) => {
                        facings.iter().find(|(u, _)| &u.id == id).map(|(_, f)| f.0)
                    }
                    _ => None,
                };
                panel.facing = Some(turn_pick(panel.facing, own, key == KeyCode::KeyQ));
            }
            (k, None) => {
                if let Some(c) = view.index_of_key(k).and_then(|i| view.choices.get(i)) {
                    panel.chosen = Some(c.order.clone());
                }
            }
            (k, Some(m)) => {
                if let Some(o) = view.index_of_key(k).and_then(|i| m.options.get(i)) {
                    toggle_pick(&mut panel.picks, m, o);
                }
            }
        }
    }
}

/// The facing picked after a Q (`left`) or E in the decision window: one
/// hexspine on from the one picked, or from the unit's own when none is,
/// as `Q`/`E` turn a selected unit (`facing::turned`).
fn turn_pick(picked: Option<Spine>, own: Option<Spine>, left: bool) -> Spine {
    let from = picked.or(own).unwrap_or(Spine::E);
    super::facing::turned(from, if left { 1 } else { -1 })
}

/// A click or key on an option of a several-pick answer: picks it again
/// (casualties may repeat a unit) until the count is reached, else drops it.
fn toggle_pick(picks: &mut Vec<String>, m: &PickMany, o: &String) {
    let n = picks.iter().filter(|p| *p == o).count();
    let full = picks.len() >= m.count;
    if n > 0 && (!m.kind.repeats() || full) {
        picks.retain(|p| p != o);
    } else if !full {
        picks.push(o.clone());
    }
}

/// The board art of the decision window.
#[derive(Component)]
pub struct DecideArt;

const CHOICE_RING: Color = Color::srgb(0.35, 0.95, 0.55);
const SUBJECT_RING: Color = Color::srgb(1.0, 1.0, 1.0);
/// The decision window's distance below the top of the board (egui points).
const TOP_GAP: f32 = 60.0;

/// While the window is open, rings the hexes its choices refer to (each
/// with its keys) and the hex of the unit or Melee it is about.
pub fn draw_choices(
    mut commands: Commands,
    mut paint: super::paint::PaintAssets,
    panel: Res<DecisionPanel>,
    old: Query<Entity, With<DecideArt>>,
) {
    if !panel.is_changed() {
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    use super::board::z;
    use super::layout::{HEX_RADIUS, hex_center, side_ends};
    let mut p = paint.painter(&mut commands);
    let mut spawned = Vec::new();
    let zl = z::HOVER + 2.0;
    let mut ring = |p: &mut super::paint::Painter, c: Coord, colour: Color, w: f32, inset: f32| {
        let centre = hex_center(c);
        for side in crate::scenario::schema::Side6::ALL {
            let (a, b) = side_ends(c, side);
            let (a, b) = (centre + (a - centre) * inset, centre + (b - centre) * inset);
            spawned.push(p.line(a, b, w + 3.0, Color::BLACK, zl));
            spawned.push(p.line(a, b, w, colour, zl + 0.1));
        }
    };
    if let Some(c) = panel.subject {
        ring(&mut p, c, SUBJECT_RING, 4.0, 0.97);
    }
    for (c, _) in &panel.hexes {
        ring(&mut p, *c, CHOICE_RING, 5.0, 0.84);
    }
    // The facing picked for a routing unit (R 2.2).
    if let Some((c, f)) = panel.subject.zip(panel.facing) {
        spawned.extend(super::facing::arrow(&mut p, c, f));
    }
    for (c, keys) in &panel.hexes {
        if keys.is_empty() {
            continue;
        }
        let at = hex_center(*c) + Vec2::new(0.0, HEX_RADIUS * 0.5);
        let width = 14.0 + 11.0 * keys.len() as f32;
        spawned.push(p.rect(
            at,
            Vec2::new(width + 4.0, 26.0),
            0.0,
            Color::BLACK,
            zl + 0.2,
        ));
        spawned.push(p.rect(at, Vec2::new(width, 22.0), 0.0, CHOICE_RING, zl + 0.3));
        spawned.push(p.text(keys.clone(), at, 18.0, Color::BLACK, zl + 0.5));
    }
    p.finish();
    for e in spawned {
        p.commands.entity(e).insert(DecideArt);
    }
}

/// The egui window of the pending decision.
pub fn decision_window(
    mut contexts: EguiContexts,
    active: Res<ActiveScenario>,
    viewer: Res<Viewer>,
    mut panel: ResMut<DecisionPanel>,
    replay: Option<Res<super::replay::Replay>>,
    insets: Res<super::camera::PanelInsets>,
    strip: Option<Res<CaptionStripBottom>>,
) -> Result {
    let Some(view) = panel.view.clone() else {
        return Ok(());
    };
    let replaying = replay.is_some();
    let keys = view.keys();
    // Out of the way of the hexes it rings, and of the dice tray at the
    // bottom right (the replay controls are at the bottom left in a replay).
    let low = panel.choices_above && !replaying;
    let ctx = contexts.ctx_mut()?.clone();
    let scale = ctx.zoom_factor();
    let who = side_name(&active.scenario, view.side);
    // Below the demo's caption strip when it hangs from the top of the
    // board, so the caption never covers the question.
    let screen_top = ctx.content_rect().top();
    let top = CaptionStripBottom::below(strip.as_deref(), screen_top + TOP_GAP) - screen_top;
    egui::Window::new(RichText::new(format!("{} \u{2014} {who} to decide", view.title)).strong())
        .id(egui::Id::new("decision_window"))
        .collapsible(false)
        .resizable(false)
        .anchor(
            if low {
                egui::Align2::LEFT_BOTTOM
            } else {
                egui::Align2::CENTER_TOP
            },
            if low {
                [insets.left / scale + 10.0, -(insets.bottom / scale) - 10.0]
            } else {
                [0.0, top]
            },
        )
        .default_width(440.0)
        .show(&ctx, |ui| {
            ui.label(RichText::new(&view.explain).color(ACCENT));
            if viewer.0 != view.side {
                ui.label(RichText::new(format!("Hand the screen to {who} (V).")).color(DIM));
            }
            if replaying {
                ui.label(RichText::new("Replay: the journal answers.").color(DIM));
            } else {
                ui.label(RichText::new(key_help(&view)).small().color(DIM));
            }
            ui.separator();
            if view.facing {
                let label = if view.title == REVEALED_TITLE {
                    "Facing:"
                } else {
                    "Facing at the end:"
                };
                facing_row(ui, label, &mut panel.facing, !replaying);
            }
            egui::ScrollArea::vertical()
                .max_height(260.0)
                .show(ui, |ui| {
                    ui.horizontal_wrapped(|ui| {
                        for (i, c) in view.choices.iter().enumerate() {
                            let label = keyed(keys.get(i).copied().flatten(), &c.label);
                            let button = egui::Button::new(RichText::new(label).strong());
                            if ui.add_enabled(!replaying, button).clicked() {
                                panel.chosen = Some(c.order.clone());
                            }
                        }
                        if let Some(m) = &view.many {
                            for (i, o) in m.options.iter().enumerate() {
                                let n = panel.picks.iter().filter(|p| *p == o).count();
                                let label = if n > 1 {
                                    format!("{o} x{n}")
                                } else {
                                    o.clone()
                                };
                                let label = keyed(keys.get(i).copied().flatten(), &label);
                                let button = egui::Button::new(RichText::new(label).strong())
                                    .selected(n > 0);
                                if ui.add_enabled(!replaying, button).clicked() {
                                    toggle_pick(&mut panel.picks, m, o);
                                }
                            }
                        }
                    });
                });
            if let Some(m) = &view.many {
                ui.separator();
                ui.horizontal(|ui| {
                    let picked = if m.kind.any_number() {
                        format!("Picked {} (any number, Esc for none)", panel.picks.len())
                    } else {
                        format!("Picked {} of {}", panel.picks.len(), m.count)
                    };
                    ui.label(RichText::new(picked).color(DIM));
                    let ready = m.ready(panel.picks.len()) && !replaying;
                    if ui
                        .add_enabled(
                            ready,
                            egui::Button::new(RichText::new("[Enter] Confirm").strong()),
                        )
                        .clicked()
                    {
                        panel.chosen = Some(m.kind.order(panel.picks.clone()));
                    }
                    if ui
                        .add_enabled(!replaying, egui::Button::new("[Backspace] Clear"))
                        .clicked()
                    {
                        panel.picks.clear();
                    }
                });
            }
        });
    Ok(())
}

/// The facing a routing unit adopts at the end of its rout, or a revealed
/// unit takes (R 2.2): its own, or one of the six hexspines.
fn facing_row(ui: &mut egui::Ui, label: &str, picked: &mut Option<Spine>, enabled: bool) {
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(label).color(DIM));
        let keep = egui::Button::new("Keep its own").selected(picked.is_none());
        if ui.add_enabled(enabled, keep).clicked() {
            *picked = None;
        }
        for spine in Spine::ALL {
            let label = format!("{spine:?}").to_uppercase();
            let button =
                egui::Button::new(RichText::new(label).strong()).selected(*picked == Some(spine));
            if ui.add_enabled(enabled, button).clicked() {
                *picked = Some(spine);
            }
        }
    });
    ui.separator();
}

/// A button's label with its key: `[1] F5`.
fn keyed(key: Option<&str>, label: &str) -> String {
    match key {
        Some(k) => format!("[{k}] {label}"),
        None => label.to_string(),
    }
}

/// The keys the window answers to, in a line.
fn key_help(view: &DecisionView) -> String {
    let mut parts = vec!["Keys: the number on a button (its hexes are ringed on the board)"];
    if view.many.is_some() {
        parts.push("Enter confirms, Backspace clears");
    } else if view.choices.len() - usize::from(view.pass.is_some()) == 1 {
        parts.push("Enter takes the only choice");
    }
    if view.pass.is_some() {
        parts.push("Esc or Space declines");
    }
    if view.facing {
        parts.push("Q/E turn the facing");
    }
    parts.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// R 59.6: the Banzai question is two buttons, call it now (key 1) or
    /// not this turn (Esc), sent as `banzai_announce`.
    #[test]
    fn banzai_question_is_now_or_not_this_turn() {
        let v = view_of(&Decision::BanzaiAnnounce {
            side: SideId::Axis,
            turn: 5,
            last: 6,
        });
        assert_eq!(
            (v.side, v.title.as_str()),
            (SideId::Axis, "BANZAI: CALL THE CHARGE?")
        );
        let labels: Vec<(&str, &Order)> = v
            .choices
            .iter()
            .map(|c| (c.label.as_str(), &c.order))
            .collect();
        assert_eq!(
            labels,
            [
                (
                    "Announce the Banzai Charge now",
                    &Order::BanzaiAnnounce { now: true }
                ),
                ("Not this turn", &Order::BanzaiAnnounce { now: false })
            ]
        );
        assert_eq!(v.pass, Some(1));
        assert_eq!(v.keys(), [Some("1"), Some("Esc")]);
        assert!(
            v.explain
                .starts_with("One Banzai Charge is due by Turn 6. Call it now, on Turn 5,")
        );
    }

    /// R 3.0: one button a unit offered, then Decline.
    #[test]
    fn cp_reroll_offers_each_unit_then_decline() {
        let v = view_of(&Decision::CpReroll {
            side: SideId::Axis,
            units: vec!["G1".into(), "G2".into()],
            what: "its Melee dice",
        });
        assert_eq!(v.side, SideId::Axis);
        let labels: Vec<&str> = v.choices.iter().map(|c| c.label.as_str()).collect();
        assert_eq!(
            labels,
            [
                "Spend a CP: re-roll G1",
                "Spend a CP: re-roll G2",
                "Decline"
            ]
        );
        assert_eq!(v.choices[2].order, Order::CpReroll { unit: None });
        assert_eq!(
            v.explain,
            "Spend one Command Point to roll its Melee dice again for G1, G2, or decline (R 3.0)."
        );
    }

    fn casualties_in_f5(count: u8) -> DecisionView {
        view_of(&Decision::Casualties {
            side: SideId::Allies,
            at: "F5".into(),
            count,
            units: vec!["A1".into(), "A2".into()],
        })
    }

    /// R 12.0: two casualties are picked one Reduction at a time (a unit may
    /// take two), then confirmed as one `casualties` order.
    #[test]
    fn two_casualties_are_picked_then_confirmed() {
        let v = casualties_in_f5(2);
        assert!(v.choices.is_empty());
        let m = v.many.expect("several picks");
        assert_eq!((m.kind, m.count), (Many::Casualties, 2));
        assert!(m.kind.repeats());
        assert_eq!(
            m.kind.order(vec!["A1".into(), "A1".into()]),
            Order::Casualties {
                units: vec!["A1".into(), "A1".into()]
            }
        );
        assert_eq!(
            v.explain,
            "Allocate 2 Melee casualties in F5: each pick is one Reduction (R 12.0)."
        );
    }

    /// R 3.0: the units' buttons take the digits, Decline takes Esc.
    #[test]
    fn keys_number_the_choices_and_esc_declines() {
        let v = view_of(&Decision::CpReroll {
            side: SideId::Axis,
            units: vec!["G1".into(), "G2".into()],
            what: "its Melee dice",
        });
        assert_eq!(v.keys(), [Some("1"), Some("2"), Some("Esc")]);
        assert_eq!(v.pass, Some(2));
        assert_eq!(v.index_of_key(KeyCode::Digit2), Some(1));
        assert_eq!(v.index_of_key(KeyCode::Digit3), None);
        assert_eq!(keyed(Some("1"), "F5"), "[1] F5");
        let many: Vec<String> = (1..=12).map(|i| format!("H{i}")).collect();
        let v = view_of(&Decision::Reinforcement {
            side: SideId::Axis,
            unit: "G7".into(),
            choices: many,
            may_hold: false,
        });
        let keys = v.keys();
        assert_eq!((keys[9], keys[10]), (Some("0"), None));
        assert_eq!(v.pass, None);
        assert_eq!(v.subject, None);
    }

    /// R 2.2: Q and E in the window turn the facing picked, from the unit's
    /// own at first, as they turn a selected unit on the board.
    #[test]
    fn q_and_e_turn_the_facing_picked() {
        let left = |s| super::super::facing::turned(s, 1);
        let right = |s| super::super::facing::turned(s, -1);
        assert_eq!(turn_pick(None, Some(Spine::W), true), left(Spine::W));
        assert_eq!(turn_pick(None, Some(Spine::W), false), right(Spine::W));
        assert_eq!(
            turn_pick(Some(Spine::Ne), Some(Spine::W), true),
            left(Spine::Ne)
        );
        assert_ne!(left(Spine::W), Spine::W);
        assert_eq!(right(left(Spine::W)), Spine::W);
        // A unit without a facing starts from E, as on the board.
        assert_eq!(turn_pick(None, None, false), right(Spine::E));
        let v = view_of(&Decision::RevealedFacing {
            side: SideId::Axis,
            unit: "J1".into(),
            why: "an enemy unit moved adjacent",
            facing: Some(Spine::W),
        });
        assert!(
            key_help(&v).ends_with("Q/E turn the facing"),
            "{}",
            key_help(&v)
        );
    }

    /// R 11.0: the routing unit is the subject, by id (not the hex of the
    /// same name).
    #[test]
    fn a_rout_is_about_its_unit() {
        let v = view_of(&Decision::RoutDestination {
            side: SideId::Allies,
            unit: "A4".into(),
            choices: vec!["F3".into(), "H3".into()],
            facing: false,
        });
        assert_eq!(v.subject, Some(Subject::Unit("A4".into())));
        assert_eq!(order_target(&v.choices[1].order), Some(Named::Hex("H3")));
        assert!(!v.facing);
    }

    /// R 2.2: where facing is in use, one hex is still asked, for the
    /// facing; the facing picked rides on the order sent.
    #[test]
    fn a_rout_with_facing_carries_the_facing_picked() {
        let v = view_of(&Decision::RoutDestination {
            side: SideId::Axis,
            unit: "J1".into(),
            choices: vec!["H5".into()],
            facing: true,
        });
        assert!(v.facing);
        assert!(v.explain.contains("R 2.2"), "{}", v.explain);
        assert_eq!(
            v.choices[0].order.clone().with_facing(Some(Spine::Nw)),
            Order::Rout {
                unit: "J1".into(),
                to: "H5".into(),
                facing: Some(Spine::Nw),
            }
        );
        assert_eq!(
            v.choices[0].order.clone().with_facing(None),
            v.choices[0].order
        );
    }

    /// R 2.2: a revealed unit's facing is asked with the rout window's
    /// hexspine row; the window names the unit and why it lost its counter;
    /// "Take this facing" sends the spine picked, or keeps its own.
    #[test]
    fn a_revealed_unit_chooses_its_facing_in_the_hexspine_row() {
        let v = view_of(&Decision::RevealedFacing {
            side: SideId::Axis,
            unit: "J1".into(),
            why: "an enemy unit moved adjacent",
            facing: Some(Spine::W),
        });
        assert_eq!((v.side, v.title.as_str()), (SideId::Axis, REVEALED_TITLE));
        assert!(v.facing);
        assert_eq!(v.subject, Some(Subject::Unit("J1".into())));
        assert_eq!(
            v.explain,
            "J1 lost its Conceal counter: an enemy unit moved adjacent. A Concealed unit \
             chooses its facing when it loses its Concealment: pick a hexspine, or keep the \
             facing it had (W) (R 2.2)."
        );
        assert_eq!(v.choices.len(), 1);
        assert_eq!(v.keys(), [Some("1")]);
        assert_eq!(
            v.choices[0].order.clone().with_facing(Some(Spine::Se)),
            Order::Face {
                unit: "J1".into(),
                facing: Some(Spine::Se),
            }
        );
        assert_eq!(
            v.choices[0].order.clone().with_facing(None),
            Order::Face {
                unit: "J1".into(),
                facing: None,
            }
        );
        assert_eq!(order_target(&v.choices[0].order), Some(Named::Unit("J1")));
    }

    /// R 12.0: one casualty is one button a unit.
    #[test]
    fn one_casualty_is_a_button_per_unit() {
        let v = casualties_in_f5(1);
        assert!(v.many.is_none());
        assert_eq!(
            v.choices[1].order,
            Order::Casualties {
                units: vec!["A2".into()]
            }
        );
    }
}
