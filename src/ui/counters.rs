//! Counters on the board, drawn like the cardboard: nationality colour, unit
//! symbol, FP-Prof with the Melee subscript, Range, Casualty, Morale, the
//! Reduced stripe (R 2.0), facing (R 2.2), and markers stacked on the counter
//! (Suppressed, Fully Suppressed, Used, Op Fire, Conceal). Enemy units under
//! Conceal counters show only as Conceal counters (R 15.0, R 59.2).

use std::collections::BTreeMap;
use std::f32::consts::FRAC_PI_2;

use bevy::prelude::*;

use crate::scenario::Coord;
use crate::scenario::roster::{CounterSide, UnitClass, UnitType};
use crate::scenario::schema::{FortificationKind, SideId};
use crate::world::{
    ActiveScenario, Concealed, Facing, FortificationCounter, Location, Marks, RosterRes,
    StackOrder, Suppression, Unit, Viewer,
};

use super::board::z;
use super::layout::{HEX_RADIUS, hex_center, spine_point};
use super::paint::{PaintAssets, Painter};
use super::palette as pal;

/// Counter side length in world units.
pub const COUNTER: f32 = 60.0;

/// A marker band's label size, and a smaller one for the labels longer
/// than `MARKER_LABEL_CHARS` ("FULLY SUPP", "SUPPRESSED", "CONCEAL -1"),
/// which at the usual size run past the band's ends.
const MARKER_TEXT: f32 = 9.0;
const MARKER_TEXT_LONG: f32 = 8.0;
const MARKER_LABEL_CHARS: usize = 8;

/// Marks every entity of the drawn counters (redrawn when anything changes).
#[derive(Component)]
pub struct CounterArt;

pub use crate::world::{Shown, shown_to};

/// The markers on a unit, bottom to top, as (label, colour, text colour).
pub fn marker_labels(
    suppression: Option<Suppression>,
    used: bool,
    op_fire: bool,
    concealed: Option<Concealed>,
) -> Vec<(&'static str, Color, Color)> {
    let mut v = Vec::new();
    match suppression {
        Some(Suppression::Suppressed) => {
            v.push(("SUPPRESSED", Color::srgb(0.98, 0.86, 0.10), Color::BLACK))
        }
        Some(Suppression::Full) => {
            v.push(("FULLY SUPP", Color::srgb(0.85, 0.12, 0.10), Color::WHITE))
        }
        None => {}
    }
    if used {
        v.push(("USED", Color::srgb(0.55, 0.55, 0.55), Color::BLACK));
    }
    if op_fire {
        v.push(("OP FIRE", Color::srgb(0.95, 0.50, 0.10), Color::BLACK));
    }
    if let Some(c) = concealed {
        v.push((
            if c.minus_two {
                "CONCEAL -2"
            } else {
                "CONCEAL -1"
            },
            Color::srgb(0.16, 0.20, 0.34),
            Color::WHITE,
        ));
    }
    v
}

type UnitRow<'a> = (
    &'a Unit,
    &'a Location,
    Option<&'a StackOrder>,
    Option<&'a Facing>,
    Option<&'a Suppression>,
    Option<&'a Marks>,
    Option<&'a Concealed>,
);

/// Anything that changes how a counter looks.
type CounterChanged = Or<(
    Changed<Unit>,
    Changed<Location>,
    Changed<Facing>,
    Changed<Suppression>,
    Changed<Concealed>,
    Changed<Marks>,
    Changed<FortificationCounter>,
)>;

#[allow(clippy::too_many_arguments)]
pub fn redraw_counters(
    mut commands: Commands,
    mut paint: PaintAssets,
    old: Query<Entity, With<CounterArt>>,
    units: Query<UnitRow>,
    forts: Query<(&FortificationCounter, &Location)>,
    roster: Res<RosterRes>,
    viewer: Res<Viewer>,
    active: Res<ActiveScenario>,
    changed: Query<(), CounterChanged>,
    mut removed_conceal: RemovedComponents<Concealed>,
    mut removed_supp: RemovedComponents<Suppression>,
    mut removed_forts: RemovedComponents<FortificationCounter>,
    tripped: Option<Res<crate::engine::night::TrippedWire>>,
    mut drawn_once: Local<bool>,
) {
    let removed =
        removed_conceal.read().count() + removed_supp.read().count() + removed_forts.read().count();
    let flares_changed = tripped.as_ref().is_some_and(|t| t.is_changed());
    if *drawn_once && changed.is_empty() && removed == 0 && !viewer.is_changed() && !flares_changed
    {
        return;
    }
    *drawn_once = true;
    for e in &old {
        commands.entity(e).despawn();
    }
    let mut p = paint.painter(&mut commands);
    let mut spawned = Vec::new();
    // Fortifications and obstacles: rings and coils under the units, their
    // tabs over them (`ui::fort_art`).
    let occupied: Vec<(Coord, SideId)> = units.iter().map(|r| (r.1.coord, r.0.side)).collect();
    let night = active.scenario.special_rules.night.is_some();
    for (f, loc) in &forts {
        let here: Vec<SideId> = occupied
            .iter()
            .filter(|(c, _)| *c == loc.coord)
            .map(|(_, s)| *s)
            .collect();
        let view = super::fort_art::fort_view(f, &here, viewer.0);
        // R 43.6: the first entry at Night sets off the Wire's Trip Flare.
        let flare = night
            && f.kind == FortificationKind::Wire
            && !tripped.as_ref().is_some_and(|t| t.0.contains(&loc.coord));
        spawned.extend(super::fort_art::draw(&mut p, f, loc.coord, view, flare));
    }
    // Units by location, in stacking order.
    let mut stacks: BTreeMap<(Coord, bool), Vec<UnitRow>> = BTreeMap::new();
    for row in &units {
        stacks
            .entry((row.1.coord, row.1.in_cave))
            .or_default()
            .push(row);
    }
    let cave_facing = |c: Coord| {
        forts
            .iter()
            .find(|(f, l)| l.coord == c && f.kind.is_cave())
            .and_then(|(f, _)| f.facing)
    };
    let facing_rule = active.scenario.special_rules.facing_required;
    for ((coord, in_cave), mut rows) in stacks {
        rows.sort_by_key(|r| (r.0.side != viewer.0, r.2.copied(), r.0.id.clone()));
        let n = rows.len();
        let mut base = hex_center(coord);
        if in_cave {
            if let Some(spine) = cave_facing(coord) {
                base = base.lerp(spine_point(coord, spine), 0.3);
            }
        } else if cave_facing(coord).is_some() {
            base += Vec2::new(-6.0, -8.0);
        }
        for (i, r) in rows.into_iter().enumerate() {
            let step = Vec2::new(9.0, -7.0);
            let at = base + step * (i as f32 - (n as f32 - 1.0) * 0.5);
            let zc = z::COUNTER + i as f32 * 2.0 + if in_cave { 8.0 } else { 0.0 };
            let Some(ut) = roster.0.get(&r.0.kind) else {
                continue;
            };
            let shown = shown_to(viewer.0, r.0.side, r.6.copied());
            match shown {
                Shown::ConcealOnly { minus_two } => {
                    spawned.extend(draw_conceal_counter(&mut p, at, minus_two, zc));
                }
                Shown::Face => {
                    spawned.extend(draw_face(&mut p, ut, r.0.reduced, at, zc));
                    if let Some(f) = r.3.filter(|_| facing_rule || r.3.is_some()) {
                        let tip = spine_point(coord, f.0);
                        let dir = (tip - hex_center(coord)).normalize_or_zero();
                        let (body, _) = pal::counter_colours(ut.nationality);
                        let at_edge = at + dir * (COUNTER * 0.5 + 5.0);
                        spawned.push(p.triangle(
                            at_edge,
                            Vec2::new(13.0, 9.0),
                            dir.y.atan2(dir.x),
                            pal::OUTLINE,
                            zc,
                        ));
                        spawned.push(p.triangle(
                            at_edge,
                            Vec2::new(9.0, 6.0),
                            dir.y.atan2(dir.x),
                            body,
                            zc + 0.05,
                        ));
                    }
                    let marks = r.5.copied().unwrap_or_default();
                    let markers =
                        marker_labels(r.4.copied(), marks.used, marks.op_fire, r.6.copied());
                    for (k, (label, colour, text)) in markers.into_iter().enumerate() {
                        let y = COUNTER * 0.5 + 7.0 + k as f32 * 14.0;
                        let mz = zc + 0.5 + k as f32 * 0.1;
                        let c = at + Vec2::new(3.0, y);
                        spawned.push(p.rect(
                            c,
                            Vec2::new(COUNTER + 2.0, 15.0),
                            0.0,
                            pal::OUTLINE,
                            mz,
                        ));
                        spawned.push(p.rect(c, Vec2::new(COUNTER, 13.0), 0.0, colour, mz + 0.01));
                        let size = if label.len() > MARKER_LABEL_CHARS {
                            MARKER_TEXT_LONG
                        } else {
                            MARKER_TEXT
                        };
                        spawned.push(p.text(label, c, size, text, mz + 0.02));
                    }
                }
            }
        }
    }
    p.finish();
    for e in spawned {
        p.commands.entity(e).insert(CounterArt);
    }
}

fn draw_face(p: &mut Painter, ut: &UnitType, reduced: bool, at: Vec2, zc: f32) -> Vec<Entity> {
    let side: &CounterSide = if reduced { &ut.reduced } else { &ut.full };
    let (body, ink) = pal::counter_colours(ut.nationality);
    let mut out = counter_blank(p, at, body, zc);
    if reduced {
        // R 2.0: the Reduced side carries a horizontal stripe.
        out.push(p.rect(
            at + Vec2::new(0.0, 6.0),
            Vec2::new(COUNTER, 5.0),
            0.0,
            Color::srgba(1.0, 1.0, 1.0, 0.75),
            zc + 0.03,
        ));
        out.push(p.rect(
            at + Vec2::new(0.0, 6.0),
            Vec2::new(COUNTER, 1.5),
            0.0,
            Color::srgb(0.75, 0.1, 0.1),
            zc + 0.035,
        ));
    }
    let zt = zc + 0.05;
    let half = COUNTER * 0.5;
    if ut.class == UnitClass::Decoy {
        out.push(p.text("DECOY", at + Vec2::new(0.0, 16.0), 12.0, ink, zt));
        out.push(p.text("?", at + Vec2::new(0.0, -6.0), 26.0, ink, zt));
        return out;
    }
    // A Gun prints its own values (R 20.2, R 20.4).
    if let Some(g) = &ut.gun {
        out.extend(super::gun_art::draw_gun_face(p, ut, g, at, ink, zt));
        return out;
    }
    // FP-Prof, top left, with the Melee subscript.
    out.push(p.text(
        format!("{}-{}", side.fp, side.prof),
        at + Vec2::new(-half + 15.0, half - 10.0),
        16.0,
        ink,
        zt,
    ));
    if let Some(m) = side.melee {
        out.push(p.text(
            m.to_string(),
            at + Vec2::new(-half + 32.0, half - 15.0),
            11.0,
            ink,
            zt,
        ));
    }
    // Range, top right; a band such as "2-12" in smaller type and tucked
    // into the corner so it clears the FP.
    let range = side.range.label();
    let (size, dx) = if range.len() > 2 {
        (10.0, 12.0)
    } else {
        (15.0, 9.0)
    };
    out.push(p.text(range, at + Vec2::new(half - dx, half - 10.0), size, ink, zt));
    // Symbol and short name.
    out.extend(symbol(p, ut.class, at + Vec2::new(-9.0, 0.0), ink, zt));
    out.push(p.text(ut.short.clone(), at + Vec2::new(16.0, 0.0), 10.0, ink, zt));
    if let Some(s) = side.satw {
        out.push(p.text(
            format!("S{s}"),
            at + Vec2::new(half - 9.0, 10.0),
            9.0,
            ink,
            zt,
        ));
    }
    // Casualty bottom left, Morale bottom right.
    let cas = match side.casualty {
        (a, Some(b)) => format!("{a}/{b}"),
        (a, None) => a.to_string(),
    };
    out.push(p.text(
        cas,
        at + Vec2::new(-half + 14.0, -half + 10.0),
        14.0,
        ink,
        zt,
    ));
    out.push(p.text(
        side.morale.0.to_string(),
        at + Vec2::new(half - 11.0, -half + 10.0),
        15.0,
        ink,
        zt,
    ));
    out
}

/// NATO-style symbol: infantry box with a cross; MG adds a bar; mortar a circle.
fn symbol(p: &mut Painter, class: UnitClass, at: Vec2, ink: Color, zt: f32) -> Vec<Entity> {
    let (w, h) = (22.0, 14.0);
    let corners = [
        at + Vec2::new(-w / 2.0, -h / 2.0),
        at + Vec2::new(w / 2.0, -h / 2.0),
        at + Vec2::new(w / 2.0, h / 2.0),
        at + Vec2::new(-w / 2.0, h / 2.0),
    ];
    let mut out = Vec::new();
    for i in 0..4 {
        out.push(p.line(corners[i], corners[(i + 1) % 4], 1.4, ink, zt));
    }
    out.push(p.line(corners[0], corners[2], 1.1, ink, zt));
    out.push(p.line(corners[1], corners[3], 1.1, ink, zt));
    match class {
        UnitClass::MgTeam => {
            out.push(p.line(
                at + Vec2::new(-w / 2.0, h / 2.0 + 3.0),
                at + Vec2::new(w / 2.0, h / 2.0 + 3.0),
                1.6,
                ink,
                zt,
            ));
        }
        UnitClass::MortarTeam | UnitClass::GdSquad => {
            out.push(p.circle(at + Vec2::new(0.0, h / 2.0 + 3.5), 2.2, ink, zt));
            out.push(p.triangle(
                at + Vec2::new(0.0, -h / 2.0 - 3.0),
                Vec2::new(5.0, 4.0),
                FRAC_PI_2,
                ink,
                zt,
            ));
        }
        _ => {}
    }
    out
}

fn draw_conceal_counter(p: &mut Painter, at: Vec2, minus_two: bool, zc: f32) -> Vec<Entity> {
    let mut out = counter_blank(p, at, Color::srgb(0.16, 0.20, 0.34), zc);
    out.push(p.text(
        "?",
        at + Vec2::new(-6.0, -2.0),
        30.0,
        Color::WHITE,
        zc + 0.05,
    ));
    out.push(p.text(
        if minus_two { "-2" } else { "-1" },
        at + Vec2::new(COUNTER * 0.5 - 12.0, -COUNTER * 0.5 + 11.0),
        15.0,
        Color::srgb(1.0, 0.85, 0.4),
        zc + 0.05,
    ));
    out.push(p.text(
        "CONCEAL",
        at + Vec2::new(0.0, COUNTER * 0.5 - 8.0),
        9.0,
        Color::srgb(0.8, 0.8, 0.9),
        zc + 0.05,
    ));
    out
}

/// A blank counter: shadow, outline and body.
fn counter_blank(p: &mut Painter, at: Vec2, body: Color, zc: f32) -> Vec<Entity> {
    vec![
        p.rect(
            at + Vec2::new(3.0, -3.0),
            Vec2::splat(COUNTER),
            0.0,
            Color::srgba(0.0, 0.0, 0.0, 0.45),
            zc,
        ),
        p.rect(at, Vec2::splat(COUNTER + 2.0), 0.0, pal::OUTLINE, zc + 0.01),
        p.rect(at, Vec2::splat(COUNTER), 0.0, body, zc + 0.02),
    ]
}

/// Marks the drawn Smoke puffs (R 48.0), redrawn when a counter changes.
#[derive(Component)]
pub struct SmokeArt;

/// The puff disc and its Smoke and Dispersed Smoke materials.
type SmokeArtHandles = (Handle<Mesh>, Handle<ColorMaterial>, Handle<ColorMaterial>);

/// Smoke counters as grey translucent puffs over their hexes, over the
/// counters (which show through); Dispersed Smoke fainter (R 48.0). The
/// puffs have a blended material of their own: the painter's is opaque.
#[allow(clippy::too_many_arguments)]
pub fn redraw_smoke(
    mut commands: Commands,
    mut paint: PaintAssets,
    old: Query<Entity, With<SmokeArt>>,
    smoke: Query<&crate::engine::smoke::SmokeCounter>,
    changed: Query<(), Changed<crate::engine::smoke::SmokeCounter>>,
    mut removed: RemovedComponents<crate::engine::smoke::SmokeCounter>,
    mut art: Local<Option<SmokeArtHandles>>,
) {
    if changed.is_empty() && removed.read().count() == 0 {
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    let (disc, thick, thin) = art
        .get_or_insert_with(|| {
            let blend = |alpha: f32| ColorMaterial {
                color: Color::srgba(0.70, 0.70, 0.68, alpha),
                alpha_mode: bevy::sprite_render::AlphaMode2d::Blend,
                ..Default::default()
            };
            (
                paint.meshes.add(Circle::new(1.0)),
                paint.materials.add(blend(0.30)),
                paint.materials.add(blend(0.14)),
            )
        })
        .clone();
    let mut p = paint.painter(&mut commands);
    let mut spawned = Vec::new();
    for c in &smoke {
        let full = c.side == crate::rules::smoke::SmokeSide::Smoke;
        let (material, label) = if full {
            (thick.clone(), "SMOKE")
        } else {
            (thin.clone(), "DISPERSED")
        };
        let centre = hex_center(c.at);
        let zs = z::HOVER - 2.0;
        let puffs = super::paint::scatter(c.at.col, c.at.row, 9, 0.62, 11);
        for (i, off) in puffs.into_iter().enumerate() {
            let r = HEX_RADIUS * (0.28 + 0.07 * (i % 3) as f32);
            let at = centre + off;
            spawned.push(
                p.commands
                    .spawn((
                        Mesh2d(disc.clone()),
                        MeshMaterial2d(material.clone()),
                        Transform::from_xyz(at.x, at.y, zs + i as f32 * 0.01)
                            .with_scale(Vec3::new(r, r, 1.0)),
                    ))
                    .id(),
            );
        }
        spawned.push(p.text(
            label,
            centre + Vec2::new(0.0, -HEX_RADIUS * 0.62),
            9.0,
            Color::srgba(0.15, 0.15, 0.15, 0.9),
            zs + 0.5,
        ));
    }
    p.finish();
    for e in spawned {
        p.commands.entity(e).insert(SmokeArt);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enemy_concealed_units_show_only_the_conceal_counter() {
        let c = Some(Concealed { minus_two: true });
        assert_eq!(
            shown_to(SideId::Allies, SideId::Axis, c),
            Shown::ConcealOnly { minus_two: true }
        );
        assert_eq!(shown_to(SideId::Axis, SideId::Axis, c), Shown::Face);
        assert_eq!(shown_to(SideId::Allies, SideId::Axis, None), Shown::Face);
    }

    #[test]
    fn markers_stack_in_table_order() {
        let labels: Vec<&str> = marker_labels(
            Some(Suppression::Full),
            true,
            false,
            Some(Concealed { minus_two: false }),
        )
        .into_iter()
        .map(|m| m.0)
        .collect();
        assert_eq!(labels, ["FULLY SUPP", "USED", "CONCEAL -1"]);
    }
}
