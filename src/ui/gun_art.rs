//! A Gun counter and its values (R 20.2, R 20.4): "Gun vs. Vehicle/Inf"
//! FP top left, the Prof Rating top right, a gun silhouette with its short
//! name, the two Casualty numbers bottom left, Morale bottom right. The
//! facing arrow on its hexspine is drawn by `counters` as for any unit
//! with a facing. The unit card shows the same values in words.

use bevy::prelude::*;
use bevy_egui::egui::{self, RichText};

use crate::scenario::roster::{GunRating, UnitType};

use super::counters::COUNTER;
use super::paint::Painter;

/// The printed face of a Gun counter, on the blank already drawn.
pub fn draw_gun_face(
    p: &mut Painter,
    ut: &UnitType,
    gun: &GunRating,
    at: Vec2,
    ink: Color,
    zt: f32,
) -> Vec<Entity> {
    let half = COUNTER * 0.5;
    let mut out = vec![
        // FP against Vehicles / against Infantry and Guns (R 20.4).
        p.text(
            format!("{}/{}", gun.vs_vehicle, gun.vs_infantry),
            at + Vec2::new(-half + 16.0, half - 10.0),
            14.0,
            ink,
            zt,
        ),
        // Prof Rating (R 20.4).
        p.text(
            format!("P{}", gun.prof),
            at + Vec2::new(half - 11.0, half - 10.0),
            12.0,
            ink,
            zt,
        ),
        // Casualty vs Infantry / vs Guns (R 20.2), Morale.
        p.text(
            format!("{}/{}", gun.casualty.0, gun.casualty.1),
            at + Vec2::new(-half + 14.0, -half + 10.0),
            13.0,
            ink,
            zt,
        ),
        p.text(
            ut.full.morale.0.to_string(),
            at + Vec2::new(half - 11.0, -half + 10.0),
            15.0,
            ink,
            zt,
        ),
        p.text(ut.short.clone(), at + Vec2::new(0.0, -9.0), 10.0, ink, zt),
    ];
    // The silhouette: a barrel over a shield and two wheels, the trail
    // behind, pointing up the counter like its facing arrow.
    let c = at + Vec2::new(0.0, 6.0);
    out.push(p.line(
        c + Vec2::new(-13.0, -2.0),
        c + Vec2::new(15.0, -2.0),
        2.4,
        ink,
        zt,
    ));
    out.push(p.rect(c + Vec2::new(-3.0, 0.0), Vec2::new(3.0, 9.0), 0.0, ink, zt));
    out.push(p.line(
        c + Vec2::new(-3.0, -2.0),
        c + Vec2::new(-16.0, -7.0),
        1.6,
        ink,
        zt,
    ));
    out.push(p.circle(c + Vec2::new(-6.0, -5.0), 3.2, ink, zt));
    out.push(p.circle(c + Vec2::new(0.0, -5.0), 3.2, ink, zt));
    out
}

/// The Gun's values on the unit card, in place of the infantry grid.
pub fn gun_values(ui: &mut egui::Ui, ut: &UnitType) {
    let Some(g) = ut.gun else {
        return;
    };
    egui::Grid::new("gun_values")
        .num_columns(5)
        .striped(true)
        .show(ui, |ui| {
            for h in [
                "FP vs Veh/Inf",
                "Prof",
                "Melee",
                "Casualty Inf/Gun",
                "Morale w/y/r",
            ] {
                ui.label(RichText::new(h).strong());
            }
            ui.end_row();
            let m = ut.full.morale;
            for v in [
                format!("{}/{}", g.vs_vehicle, g.vs_infantry),
                g.prof.to_string(),
                ut.full
                    .melee
                    .map_or_else(|| "\u{2014}".into(), |m| m.to_string()),
                format!("{}/{}", g.casualty.0, g.casualty.1),
                format!("{}/{}/{}", m.0, m.1, m.2),
            ] {
                ui.label(RichText::new(v).strong());
            }
            ui.end_row();
        });
    ui.label(
        "A Gun: never moves to a new hex, turns in it to fire; fires in the arc of its facing \
         (R 20.4); Prof Check before Op Fire, after turning or beyond 5 hexes; an MC whenever \
         it fires (R 20.2); roll + Casualty <= FP eliminates it; counts 3 in the Ops Range; \
         no CPs (R 20.0).",
    );
}
