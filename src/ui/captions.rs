//! Captions on screen: every accepted order's events are narrated
//! (`crate::narrate`) from what the units were before the order, queued, and
//! shown one at a time over the board, each with the hexes it is about (the
//! demo camera goes there). The last fire's arithmetic is kept for the
//! streamer overlay.

use std::collections::VecDeque;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use egui::{Color32, RichText};

use crate::engine::GameEvent;
use crate::narrate::{Facts, Narrator, UnitFacts, people, place, unit_noun, weapon};
use crate::rules::fire::FireOutcome;
use crate::scenario::Coord;
use crate::scenario::roster::UnitClass;
use crate::scenario::schema::SideId;
use crate::world::{ActiveScenario, BoardRes, Concealed, Location, RosterRes, Unit};

use super::camera::PanelInsets;
use super::dialogs::ascii;

/// One caption and the hexes it is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caption {
    pub text: String,
    pub hexes: Vec<Coord>,
}

/// The last fire attack's arithmetic, for the streamer overlay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FireNote {
    pub target: String,
    /// One line per modifier, as the engine wrote them.
    pub lines: Vec<String>,
    pub fp: i16,
    pub roll: u8,
    pub outcome: FireOutcome,
}

/// The captions waiting, the one on screen and the last few.
#[derive(Resource, Debug, Default)]
pub struct Captions {
    /// What the units were after the last order (the units an order
    /// removes stay known).
    facts: Facts,
    pub queue: VecDeque<Caption>,
    pub current: Option<Caption>,
    /// When `current` went up (seconds since start).
    pub since: f64,
    /// Older captions, newest last.
    pub recent: VecDeque<String>,
    pub last_fire: Option<FireNote>,
    /// Show the caption strip (demo and streamer mode).
    pub visible: bool,
}

impl Captions {
    /// Captions still to show, or one showing.
    pub fn busy(&self) -> bool {
        self.current.is_some() || !self.queue.is_empty()
    }

    /// The hexes the caption on screen is about.
    pub fn focus(&self) -> Option<&[Coord]> {
        self.current
            .as_ref()
            .map(|c| c.hexes.as_slice())
            .filter(|h| !h.is_empty())
    }

    /// The units as they stand when the game begins.
    pub fn prime(&mut self, facts: Facts) {
        self.facts = facts;
    }

    /// Drop the captions waiting (a demo playing without pacing).
    pub fn drop_queue(&mut self) {
        self.queue.clear();
        self.current = None;
    }

    /// Forget everything (a new game).
    pub fn clear(&mut self) {
        let visible = self.visible;
        *self = Captions {
            visible,
            ..Captions::default()
        };
    }
}

/// [`super::act::OrderShown`]: the accepted order's captions.
pub fn on_order(world: &mut World) {
    world.resource_scope(|world, applied: Mut<super::act::Applied>| {
        record(world, &applied.events);
    });
}

/// Narrates an accepted order's events with the units as they were before
/// the order.
pub fn record(world: &mut World, events: &[GameEvent]) {
    if !world.contains_resource::<Captions>() {
        return;
    }
    let hidden_from = hidden_from(world);
    // The other side's windows and questions are not told (R 15.0).
    let events: Vec<GameEvent> = events
        .iter()
        .filter(|e| hidden_from.is_none_or(|side| !crate::engine::view::secret_to(side, e)))
        .cloned()
        .collect();
    let events = events.as_slice();
    let hexes: Vec<Vec<Coord>> = events
        .iter()
        .map(|e| super::tray::event_hexes(world, e))
        .collect();
    let fresh = facts(world, hidden_from);
    let mut captions = world.resource_mut::<Captions>();
    if captions.facts.sides[0].is_empty() {
        captions.facts = fresh.clone();
    }
    let mut narrator = Narrator::default();
    let mut facts = captions.facts.clone();
    for (e, h) in events.iter().zip(hexes) {
        if let GameEvent::FireResult {
            target,
            arithmetic,
            fp,
            roll,
            outcome,
        } = e
        {
            captions.last_fire = Some(FireNote {
                target: facts
                    .units
                    .get(target.as_str())
                    .map_or_else(|| target.to_string(), |u| format!("{} at {}", u.noun, u.at)),
                lines: ascii(arithmetic).split("; ").map(str::to_string).collect(),
                fp: fp.0,
                roll: *roll,
                outcome: *outcome,
            });
        }
        if let Some(text) = narrator.caption(e, &mut facts) {
            captions.queue.push_back(Caption {
                text: ascii(&text),
                hexes: h,
            });
        }
    }
    // Units known before stay known (the eliminated ones included).
    let mut merged = captions.facts.clone();
    merged.units.extend(fresh.units);
    merged.places = fresh.places;
    merged.sides = fresh.sides;
    captions.facts = merged;
}

/// The side from whose eyes captions name units (R 15.0): a person who took
/// command in a demo (nobody while the computer plays both sides), else the
/// side the screen shows.
pub(crate) fn hidden_from(world: &World) -> Option<SideId> {
    match world.get_resource::<super::demo::Demo>() {
        Some(d) => d.human,
        None => world.get_resource::<crate::world::Viewer>().map(|v| v.0),
    }
}

/// The facts captions need, read from the world now.
pub fn facts(world: &mut World, viewer: Option<SideId>) -> Facts {
    let Some(active) = world.get_resource::<ActiveScenario>() else {
        return Facts::default();
    };
    let sc = active.scenario.clone();
    let roster = world.resource::<RosterRes>().0.clone();
    let board = world.resource::<BoardRes>().0.clone();
    let mut f = Facts::default();
    for card in &sc.sides {
        f.sides[card.side.index()] = people(card.nationality).to_string();
    }
    // The Fortifications on the board now, as the viewer may know them: a
    // Concealed one it may not see is only its hex's terrain (R 43.0).
    let placed: Vec<(Coord, SideId)> = world
        .query::<(&Unit, &Location)>()
        .iter(world)
        .map(|(u, l)| (l.coord, u.side))
        .collect();
    let mut forts: std::collections::BTreeMap<Coord, crate::scenario::schema::FortificationKind> =
        Default::default();
    for (fc, l) in world
        .query::<(&crate::world::FortificationCounter, &Location)>()
        .iter(world)
    {
        let here: Vec<SideId> = placed
            .iter()
            .filter(|(c, _)| *c == l.coord)
            .map(|(_, s)| *s)
            .collect();
        let hidden = viewer.is_some_and(|v| {
            super::fort_art::fort_view(fc, &here, v) == super::fort_art::FortView::Hidden
        });
        if !hidden && fc.kind != crate::scenario::schema::FortificationKind::Wire {
            forts.insert(l.coord, fc.kind);
        }
    }
    for c in board.coords() {
        if let Some(cell) = board.cell(c) {
            f.places
                .insert(c.label(), place(cell.terrain, forts.get(&c).copied()));
        }
    }
    let mut q = world.query::<(&Unit, &Location, Option<&Concealed>)>();
    for (u, l, concealed) in q.iter(world) {
        let kind = roster.get(&u.kind);
        let class = kind.map_or(UnitClass::Squad, |t| t.class);
        let hidden = concealed.is_some() && viewer.is_some_and(|v| v != u.side);
        let noun = match kind {
            _ if hidden => "concealed unit".to_string(),
            Some(t) => unit_noun(t.nationality, class, u.reduced),
            None => format!("unit {}", u.id),
        };
        f.units.insert(
            u.id.to_string(),
            UnitFacts {
                noun,
                side: u.side,
                at: l.coord.label(),
                weapon: if hidden { "rifle" } else { weapon(class) },
            },
        );
    }
    f
}

/// Seconds a caption stays up at speed 1.
pub const CAPTION_SECONDS: f64 = 1.8;

/// Moves the queue on: each caption stays `CAPTION_SECONDS / speed`, less
/// when many wait.
pub fn advance_captions(
    time: Res<Time>,
    demo: Option<Res<super::demo::Demo>>,
    mut captions: ResMut<Captions>,
) {
    let now = time.elapsed_secs_f64();
    let speed = demo.as_ref().map_or(1.0, |d| d.speed());
    let waiting = captions.queue.len();
    let mut hold = CAPTION_SECONDS / f64::from(speed.max(0.05));
    if waiting > 4 {
        hold *= 0.35;
    }
    if captions.current.is_some() && now - captions.since < hold {
        return;
    }
    if let Some(done) = captions.current.take() {
        captions.recent.push_back(done.text);
        while captions.recent.len() > 3 {
            captions.recent.pop_front();
        }
    }
    if let Some(next) = captions.queue.pop_front() {
        captions.current = Some(next);
        captions.since = now;
    }
}

/// Where the caption strip's bottom edge was drawn on the last frame (egui
/// points), when it hangs from the top of the board: the decision window
/// opens below it rather than under it.
#[derive(Resource, Default, Clone, Copy, PartialEq)]
pub struct CaptionStripBottom(pub Option<f32>);

impl CaptionStripBottom {
    /// The top edge for a window over the board that would open at `top`
    /// (egui points from the top of the screen): below the strip when the
    /// strip reaches further down.
    pub fn below(strip: Option<&Self>, top: f32) -> f32 {
        strip
            .and_then(|s| s.0)
            .map_or(top, |bottom| top.max(bottom + STRIP_GAP))
    }
}

/// Space between the caption strip and a window opened below it.
const STRIP_GAP: f32 = 8.0;

pub const CAPTION_BG: Color32 = Color32::from_rgb(14, 14, 12);

pub const CAPTION_TEXT: Color32 = Color32::from_rgb(255, 250, 235);
pub const CAPTION_OLD: Color32 = Color32::from_rgb(190, 186, 170);

/// The caption strip over the bottom of the board: the newest caption
/// large, the two before it smaller.
pub fn caption_strip(
    mut contexts: EguiContexts,
    captions: Res<Captions>,
    insets: Res<PanelInsets>,
    stream: Res<super::stream::StreamMode>,
    demo: Option<Res<super::demo::Demo>>,
    mut bottom: ResMut<CaptionStripBottom>,
) -> Result {
    if !captions.visible {
        bottom.set_if_neq(CaptionStripBottom(None));
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?.clone();
    let scale = ctx.zoom_factor();
    let view = ctx.viewport_rect();
    let left = insets.left / scale;
    let right = view.width() - insets.right / scale;
    // In streamer mode the captions have the footer to themselves (above
    // the action bar when a person plays); else they sit at the top of the
    // board, clear of the dice tray and the Op Fire dialog's corner.
    let playing = demo.as_ref().is_none_or(|d| d.human.is_some());
    let (pivot, y) = if stream.on {
        (
            egui::Align2::CENTER_BOTTOM,
            view.bottom() - if playing { 70.0 } else { 12.0 },
        )
    } else {
        (egui::Align2::CENTER_TOP, insets.top / scale + 44.0)
    };
    let big = if stream.on { 30.0 } else { 24.0 };
    // Over the board one earlier caption is enough; the footer has room
    // for two.
    let older_lines = if stream.on { 2 } else { 1 };
    let (now, older): (Option<&str>, Vec<&str>) = match &captions.current {
        Some(c) => (
            Some(c.text.as_str()),
            captions
                .recent
                .iter()
                .rev()
                .take(older_lines)
                .map(String::as_str)
                .collect(),
        ),
        None => (
            captions.recent.back().map(String::as_str),
            captions
                .recent
                .iter()
                .rev()
                .skip(1)
                .take(older_lines)
                .map(String::as_str)
                .collect(),
        ),
    };
    let Some(now) = now else {
        bottom.set_if_neq(CaptionStripBottom(None));
        return Ok(());
    };
    let width = (right - left - 40.0).clamp(200.0, 900.0);
    let shown = egui::Area::new(egui::Id::new("caption_strip"))
        .order(egui::Order::Foreground)
        .pivot(pivot)
        .fixed_pos([(left + right) / 2.0, y])
        .interactable(false)
        .show(&ctx, |ui| {
            egui::Frame::new()
                .fill(CAPTION_BG)
                .corner_radius(8.0)
                .inner_margin(egui::Margin::symmetric(18, 10))
                .show(ui, |ui| {
                    ui.set_max_width(width);
                    ui.vertical_centered(|ui| {
                        for line in older.iter().rev() {
                            ui.label(RichText::new(*line).size(big * 0.6).color(CAPTION_OLD));
                        }
                        ui.label(RichText::new(now).size(big).strong().color(CAPTION_TEXT));
                    });
                });
        });
    let hanging = !stream.on;
    bottom.set_if_neq(CaptionStripBottom(
        hanging.then_some(shown.response.rect.bottom()),
    ));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// R 43.0: on Guadalcanal the Bunker in L3 starts Concealed under the
    /// Japanese MG J1. A caption seen by the Marines places the hex by its
    /// terrain, not "in the bunker"; seen by the Japanese, or with the
    /// computer on both sides, it names the Bunker; the Cave in K5 (never
    /// Concealed) is named to all.
    #[test]
    fn captions_do_not_name_a_concealed_bunker_to_the_enemy() {
        let roster = crate::scenario::builtin_roster().unwrap();
        let aid = crate::scenario::builtin_player_aid().unwrap();
        let loaded = crate::world::load("guadalcanal", &roster, &aid).unwrap();
        let mut w = crate::engine::headless_world(loaded, roster, aid, 1);
        let marines = facts(&mut w, Some(SideId::Allies));
        let japanese = facts(&mut w, Some(SideId::Axis));
        let nobody = facts(&mut w, None);
        assert_eq!(japanese.places["L3"], "in the bunker");
        assert_eq!(nobody.places["L3"], "in the bunker");
        assert_ne!(marines.places["L3"], "in the bunker");
        assert_eq!(marines.places["K5"], "in the cave");
    }

    /// R 15.0: the Marines' captions never say that the Japanese had a
    /// window at a Marine's move and held their fire (a Decoy would have
    /// had none); the Japanese own captions do.
    #[test]
    fn captions_keep_the_other_side_s_window_from_a_side() {
        let told = |viewer: SideId| {
            let roster = crate::scenario::builtin_roster().unwrap();
            let aid = crate::scenario::builtin_player_aid().unwrap();
            let loaded = crate::world::load("guadalcanal", &roster, &aid).unwrap();
            let mut w = crate::engine::headless_world(loaded, roster, aid, 1);
            w.insert_resource(crate::world::Viewer(viewer));
            w.init_resource::<Captions>();
            let events = [
                GameEvent::OpFireWindow {
                    side: SideId::Axis,
                    mover: "M1".into(),
                    at: "B4".into(),
                    eligible: vec!["J1".into()],
                },
                GameEvent::OpFirePassed {
                    side: SideId::Axis,
                    at: "B4".into(),
                },
            ];
            record(&mut w, &events);
            let c = w.resource::<Captions>();
            c.queue.len() + usize::from(c.current.is_some())
        };
        assert_eq!(told(SideId::Allies), 0);
        assert!(told(SideId::Axis) > 0);
    }
}
