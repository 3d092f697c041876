//! The decision window: whenever the game waits for a choice outside the
//! action bar and the Op Fire dialog (a CP re-roll offer, a Rout
//! destination, the next Melee, Melee casualties, a reinforcement's hex, a
//! Combat Event pick), it names the side that must decide, says what in
//! plain words with the rule, and lists the legal choices as buttons. The
//! choices are the engine's own (`phases::Pending`,
//! `combat_events::CombatEventDecision`); every answer goes through `send`.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use egui::RichText;

use crate::engine::Order;
use crate::engine::combat_events::CombatEventDecision;
use crate::phases::{Decision, Pending};
use crate::scenario::schema::SideId;
use crate::world::{ActiveScenario, Viewer};

use super::act::OrderCount;
use super::dialogs::ascii;
use super::panels::{ACCENT, DIM, side_name};

/// One button: its label and the order it sends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    pub label: String,
    pub order: Order,
}

/// What a several-pick answer is made into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Many {
    /// `casualties(units)`: a unit may be named once per Reduction (R 12.0).
    Casualties,
    /// `combat_event(picks)`: distinct options (R 17.0).
    CombatEvent,
}

impl Many {
    pub fn order(self, picks: Vec<String>) -> Order {
        match self {
            Many::Casualties => Order::Casualties { units: picks },
            Many::CombatEvent => Order::CombatEvent { picks },
        }
    }

    /// Whether an option may be picked more than once.
    pub fn repeats(self) -> bool {
        self == Many::Casualties
    }
}

/// An answer of `count` picks among `options`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PickMany {
    pub kind: Many,
    pub count: usize,
    pub options: Vec<String>,
}

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
}

/// The decision the game waits for, if any, with its legal answers.
pub fn decision_view(world: &World) -> Option<DecisionView> {
    if let Some(d) = world.get_resource::<CombatEventDecision>() {
        return Some(combat_event_view(d));
    }
    let Pending(decision) = world.get_resource::<Pending>()?;
    Some(pending_view(decision))
}

fn combat_event_view(d: &CombatEventDecision) -> DecisionView {
    let explain = format!(
        "{} Pick {} of the options (R 17.0).",
        ascii(&d.question),
        d.count
    );
    let (choices, many) = one_or_many(Many::CombatEvent, d.count, &d.options);
    DecisionView {
        side: d.side,
        title: "COMBAT EVENT".into(),
        explain,
        choices,
        many,
    }
}

/// A single pick is a button per option; several picks are toggled, then
/// confirmed.
fn one_or_many(kind: Many, count: usize, options: &[String]) -> (Vec<Choice>, Option<PickMany>) {
    if count == 1 {
        let choices = options
            .iter()
            .map(|o| Choice {
                label: o.clone(),
                order: kind.order(vec![o.clone()]),
            })
            .collect();
        return (choices, None);
    }
    let many = PickMany {
        kind,
        count,
        options: options.to_vec(),
    };
    (Vec::new(), Some(many))
}

fn pending_view(decision: &Decision) -> DecisionView {
    let side = decision.side();
    let one = |label: String, order: Order| Choice { label, order };
    let (title, explain, choices, many) = match decision {
        Decision::CpReroll { units, what, .. } => {
            let mut choices: Vec<Choice> = units
                .iter()
                .map(|u| {
                    one(
                        format!("Spend a CP: re-roll {u}"),
                        Order::CpReroll {
                            unit: Some(u.clone()),
                        },
                    )
                })
                .collect();
            choices.push(one("Decline".into(), Order::CpReroll { unit: None }));
            (
                "CP RE-ROLL",
                format!(
                    "Spend one Command Point to roll {what} again for {}, or decline (R 3.0).",
                    units.join(", ")
                ),
                choices,
                None,
            )
        }
        Decision::RoutDestination { unit, choices, .. } => (
            "ROUT",
            format!("{unit} routs. Choose the hex it routs to (R 11.0)."),
            choices
                .iter()
                .map(|to| {
                    one(
                        to.clone(),
                        Order::Rout {
                            unit: unit.clone(),
                            to: to.clone(),
                        },
                    )
                })
                .collect(),
            None,
        ),
        Decision::MeleeOrder { choices, .. } => (
            "MELEE",
            "The first player chooses which Melee is resolved next (R 12.0).".to_string(),
            choices
                .iter()
                .map(|at| one(format!("Melee in {at}"), Order::Melee { at: at.clone() }))
                .collect(),
            None,
        ),
        Decision::Casualties {
            at, count, units, ..
        } => {
            let explain = format!(
                "Allocate {count} Melee casualt{} in {at}: each pick is one Reduction \
                 (R 12.0).",
                if *count == 1 { "y" } else { "ies" }
            );
            let (choices, many) = one_or_many(Many::Casualties, usize::from(*count), units);
            ("MELEE CASUALTIES", explain, choices, many)
        }
        Decision::Reinforcement {
            unit,
            choices,
            may_hold,
            ..
        } => (
            "REINFORCEMENT",
            format!("Choose the hex where {unit} enters the map (R 16.1, R 18.0)."),
            choices
                .iter()
                .map(|at| {
                    one(
                        at.clone(),
                        Order::Place {
                            unit: unit.clone(),
                            at: at.clone(),
                        },
                    )
                })
                .chain(
                    may_hold
                        .then(|| one("Keep off board".into(), Order::Hold { unit: unit.clone() })),
                )
                .collect(),
            None,
        ),
    };
    DecisionView {
        side,
        title: title.into(),
        explain,
        choices,
        many,
    }
}

/// The window's state: the view, the picks so far of a several-pick answer,
/// and the order chosen this frame.
#[derive(Resource, Debug, Default, Clone)]
pub struct DecisionPanel {
    pub view: Option<DecisionView>,
    pub picks: Vec<String>,
    pub chosen: Option<Order>,
    orders: u64,
}

pub struct DecidePlugin;

impl Plugin for DecidePlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<DecisionPanel>();
    }
}

/// Rebuilds the view from the engine (once per frame; the picks are
/// dropped when the game moved on) and sends the order chosen.
pub fn refresh_and_send(world: &mut World) {
    if let Some(order) = world.resource_mut::<DecisionPanel>().chosen.take() {
        super::act::send(world, &order);
    }
    let view = decision_view(world);
    let orders = world.resource::<OrderCount>().0;
    let panel = world.resource::<DecisionPanel>();
    if panel.view != view || panel.orders != orders {
        let mut panel = world.resource_mut::<DecisionPanel>();
        panel.view = view;
        panel.picks.clear();
        panel.orders = orders;
    }
}

/// The egui window of the pending decision.
pub fn decision_window(
    mut contexts: EguiContexts,
    active: Res<ActiveScenario>,
    viewer: Res<Viewer>,
    mut panel: ResMut<DecisionPanel>,
) -> Result {
    let Some(view) = panel.view.clone() else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?.clone();
    let who = side_name(&active.scenario, view.side);
    egui::Window::new(RichText::new(format!("{} \u{2014} {who} to decide", view.title)).strong())
        .id(egui::Id::new("decision_window"))
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_TOP, [0.0, 60.0])
        .default_width(440.0)
        .show(&ctx, |ui| {
            ui.label(RichText::new(&view.explain).color(ACCENT));
            if viewer.0 != view.side {
                ui.label(RichText::new(format!("Hand the screen to {who} (V).")).color(DIM));
            }
            ui.separator();
            egui::ScrollArea::vertical()
                .max_height(260.0)
                .show(ui, |ui| {
                    ui.horizontal_wrapped(|ui| {
                        for c in &view.choices {
                            if ui.button(RichText::new(&c.label).strong()).clicked() {
                                panel.chosen = Some(c.order.clone());
                            }
                        }
                        if let Some(m) = &view.many {
                            for o in &m.options {
                                let n = panel.picks.iter().filter(|p| *p == o).count();
                                let label = if n > 1 {
                                    format!("{o} x{n}")
                                } else {
                                    o.clone()
                                };
                                let full = panel.picks.len() >= m.count;
                                let on = n > 0;
                                let button =
                                    egui::Button::new(RichText::new(label).strong()).selected(on);
                                if ui.add(button).clicked() {
                                    if on && (!m.kind.repeats() || full) {
                                        panel.picks.retain(|p| p != o);
                                    } else if !full {
                                        panel.picks.push(o.clone());
                                    }
                                }
                            }
                        }
                    });
                });
            if let Some(m) = &view.many {
                ui.separator();
                ui.horizontal(|ui| {
                    ui.label(
                        RichText::new(format!("Picked {} of {}", panel.picks.len(), m.count))
                            .color(DIM),
                    );
                    let ready = panel.picks.len() == m.count;
                    if ui
                        .add_enabled(ready, egui::Button::new(RichText::new("Confirm").strong()))
                        .clicked()
                    {
                        panel.chosen = Some(m.kind.order(panel.picks.clone()));
                    }
                    if ui.button("Clear").clicked() {
                        panel.picks.clear();
                    }
                });
            }
        });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// R 3.0: one button a unit offered, then Decline.
    #[test]
    fn cp_reroll_offers_each_unit_then_decline() {
        let v = pending_view(&Decision::CpReroll {
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
        pending_view(&Decision::Casualties {
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
