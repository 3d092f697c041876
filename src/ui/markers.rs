//! Pacific markers on the board (issue 8): Fire Lanes from occupied
//! Foxholes, Bunkers and Caves into the hexes they cover (R 43.0; a Cave
//! only into its two front hexes, R 43.4), Ambush (R 51.2), Banzai (R 59.6)
//! and Seishin (R 59.5) chips on the units that carry them, the Monsoon
//! rain over the whole map (R 55.2), and a weather badge under the top bar.
//! The Caves and Bunkers themselves are drawn with the counters
//! (`ui::counters`, `ui::fort_art`); a chip stacks above a Fortification's
//! tab. Redrawn only when what it shows changes.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::app::AppState;
use crate::engine::banzai::Banzai;
use crate::engine::monsoon::MonsoonState;
use crate::engine::seishin::Seishin;
use crate::scenario::Coord;
use crate::scenario::schema::{FortificationKind, Side6, Spine, Theater};
use crate::world::{
    ActiveScenario, BoardRes, Concealed, Facing, FortificationCounter, Location, Marks, RosterRes,
    Unit, Viewer,
};

use super::counters::{Shown, shown_to};
use super::layout::{HEX_RADIUS, hex_center, map_bounds, spine_point};
use super::paint::{PaintAssets, scatter};

/// Layers: the rain over the terrain and its labels, under the
/// Fortifications (z 5); the Fire Lanes over the Fortifications, under the
/// counters (z 10); the chips over the counters, under the hover (z 40).
mod z {
    pub const RAIN: f32 = 4.5;
    pub const LANE: f32 = 6.0;
    pub const ARC: f32 = 6.5;
    pub const CHIP: f32 = 30.0;
}

/// An entity drawn by this module.
#[derive(Component)]
pub(crate) struct MarkerArt;

pub struct MarkersPlugin;

impl Plugin for MarkersPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            Update,
            redraw_markers
                .after(super::counters::redraw_counters)
                .run_if(in_state(AppState::InGame)),
        )
        .add_systems(
            EguiPrimaryContextPass,
            weather_badge
                .after(super::panels::game_panels)
                .run_if(in_state(AppState::InGame)),
        );
    }
}

/// A marker chip on a unit: what it says and its colours.
#[derive(Debug, Clone, PartialEq)]
pub struct Chip {
    pub at: Coord,
    pub text: String,
    pub body: [f32; 3],
}

/// The chips the viewer sees: Ambush, Banzai (while charging, not Op Fire)
/// and Seishin, each with the unit's id, on units shown face up.
pub fn chips(
    units: &[(Unit, Location, Option<Concealed>, Flags)],
    viewer: crate::scenario::schema::SideId,
) -> Vec<Chip> {
    let mut out = Vec::new();
    let mut sorted: Vec<&(Unit, Location, Option<Concealed>, Flags)> = units.iter().collect();
    sorted.sort_by(|a, b| a.0.id.cmp(&b.0.id));
    for (u, l, c, f) in sorted {
        if shown_to(viewer, u.side, *c) != Shown::Face {
            continue;
        }
        if f.ambush {
            out.push(Chip {
                at: l.coord,
                text: format!("AMBUSH {}", u.id),
                body: [0.10, 0.42, 0.16],
            });
        }
        if f.banzai && !f.op_fire {
            out.push(Chip {
                at: l.coord,
                text: format!("BANZAI {}", u.id),
                body: [0.78, 0.08, 0.08],
            });
        }
        if f.seishin && !f.banzai {
            out.push(Chip {
                at: l.coord,
                text: format!("SEISHIN {}", u.id),
                body: [0.55, 0.10, 0.45],
            });
        }
    }
    out
}

/// The Pacific markers a unit carries.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Flags {
    pub ambush: bool,
    pub banzai: bool,
    pub seishin: bool,
    pub op_fire: bool,
}

/// A Fire Lane: from the Fortification's hex into a hex it covers.
pub type Lane = (Coord, Coord);

/// The Fire Lanes the viewer sees (R 43.0, R 43.4): from each occupied
/// Foxhole, Trench, Bunker, Pillbox or Cave of the Pacific, unless it is a
/// Concealed Fortification of the enemy; a Cave only into its two front
/// hexes.
pub fn fire_lanes(
    board: &crate::world::Board,
    forts: &[(FortificationCounter, Coord)],
    occupants: &[(Coord, bool, crate::scenario::schema::SideId)],
    viewer: crate::scenario::schema::SideId,
) -> Vec<Lane> {
    let mut out = Vec::new();
    for (f, at) in forts {
        let cave = f.kind.is_cave();
        let lanes = matches!(
            f.kind,
            FortificationKind::Foxhole
                | FortificationKind::Trench
                | FortificationKind::Bunker
                | FortificationKind::Pillbox
        ) || cave;
        let held: Vec<_> = occupants
            .iter()
            .filter(|(c, in_cave, _)| c == at && *in_cave == cave)
            .map(|o| o.2)
            .collect();
        if !lanes || held.is_empty() {
            continue;
        }
        if f.concealed && !held.contains(&viewer) {
            continue;
        }
        let covered: Vec<Coord> = if cave {
            crate::rules::fortifications::cave_front(board, *at).unwrap_or_default()
        } else {
            Side6::ALL
                .iter()
                .filter_map(|s| board.neighbour(*at, *s))
                .collect()
        };
        out.extend(covered.into_iter().map(|to| (*at, to)));
    }
    out
}

/// What was drawn last: the chips, the Fire Lanes, the rain, the hexes
/// whose Fortification tab lies across the bottom (the chips stack above
/// it there), the Guns' arcs.
type Drawn = (Vec<Chip>, Vec<Lane>, bool, Vec<Coord>, Vec<GunArc>);

/// A face-up Gun's hex and facing: its firing arc is drawn (R 20.4).
pub type GunArc = (Coord, Spine);

/// The two hexspines either side of a Gun's facing: its arc is the wedge
/// between the lines from the hex centre through them (R 20.4, as
/// `rules::gun::in_arc` reads it).
pub fn arc_edges(facing: Spine) -> [Spine; 2] {
    let [a, b] = facing.sides();
    let mut edges = Spine::ALL
        .into_iter()
        .filter(|s| *s != facing && s.sides().iter().any(|x| *x == a || *x == b));
    match (edges.next(), edges.next()) {
        (Some(x), Some(y)) => [x, y],
        _ => [facing, facing],
    }
}

type MarkerUnit<'a> = (
    &'a Unit,
    &'a Location,
    Option<&'a Concealed>,
    Option<&'a Marks>,
    Has<Banzai>,
    Has<Seishin>,
    Option<&'a Facing>,
);

#[allow(clippy::too_many_arguments)]
fn redraw_markers(
    mut commands: Commands,
    mut paint: PaintAssets,
    old: Query<Entity, With<MarkerArt>>,
    units: Query<MarkerUnit>,
    forts: Query<(&FortificationCounter, &Location)>,
    active: Res<ActiveScenario>,
    board: Res<BoardRes>,
    viewer: Res<Viewer>,
    weather: Option<Res<MonsoonState>>,
    roster: Res<RosterRes>,
    mut last: Local<Option<Drawn>>,
) {
    let mut arcs: Vec<GunArc> = units
        .iter()
        .filter(|(u, _, c, ..)| shown_to(viewer.0, u.side, c.copied()) == Shown::Face)
        .filter(|(u, ..)| roster.0.get(&u.kind).is_some_and(|t| t.gun.is_some()))
        .filter_map(|(_, l, .., f)| f.map(|f| (l.coord, f.0)))
        .collect();
    arcs.sort();
    let rows: Vec<(Unit, Location, Option<Concealed>, Flags)> = units
        .iter()
        .map(|(u, l, c, marks, banzai, seishin, _)| {
            let marks = marks.copied().unwrap_or_default();
            (
                u.clone(),
                *l,
                c.copied(),
                Flags {
                    ambush: marks.ambush,
                    banzai,
                    seishin,
                    op_fire: marks.op_fire,
                },
            )
        })
        .collect();
    let chips = chips(&rows, viewer.0);
    let lanes = if active.scenario.theater == Theater::Pacific {
        let f: Vec<(FortificationCounter, Coord)> =
            forts.iter().map(|(f, l)| (*f, l.coord)).collect();
        let occ: Vec<(Coord, bool, crate::scenario::schema::SideId)> = rows
            .iter()
            .map(|(u, l, _, _)| (l.coord, l.in_cave, u.side))
            .collect();
        fire_lanes(&board.0, &f, &occ, viewer.0)
    } else {
        Vec::new()
    };
    let raining =
        crate::engine::monsoon::state_of(&active, weather.as_deref()).is_some_and(|s| s.raining);
    let empty = chips.is_empty() && lanes.is_empty() && !raining && arcs.is_empty();
    let mut tabbed: Vec<Coord> = forts
        .iter()
        .filter(|(f, l)| {
            super::fort_art::tab_centre(l.coord, f.kind, f.facing).y < hex_center(l.coord).y
        })
        .map(|(_, l)| l.coord)
        .collect();
    tabbed.sort();
    let now = (chips, lanes, raining, tabbed, arcs);
    // Drawn already, unless a new game cleared the art (`ui::teardown`).
    if last.as_ref() == Some(&now) && (empty || !old.is_empty()) {
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    let (chips, lanes, raining, tabbed, arcs) = &now;
    let mut p = paint.painter(&mut commands);
    let mut spawned = Vec::new();
    if *raining {
        spawned.extend(draw_rain(
            &mut p,
            active.scenario.map.columns,
            active.scenario.map.rows,
        ));
    }
    for (from, to) in lanes {
        let a = hex_center(*from);
        let b = hex_center(*to);
        // A dashed lane from the hex's edge to the far hex's centre.
        let dashes = 4;
        for k in 0..dashes {
            let t0 = 0.36 + 0.6 * k as f32 / dashes as f32;
            let t1 = t0 + 0.6 / dashes as f32 * 0.65;
            spawned.push(p.line(
                a.lerp(b, t0),
                a.lerp(b, t1),
                4.0,
                Color::srgba(0.95, 0.32, 0.06, 0.85),
                z::LANE,
            ));
        }
    }
    for (at, facing) in arcs {
        spawned.extend(draw_arc(&mut p, *at, *facing));
    }
    let mut per_hex: std::collections::BTreeMap<Coord, usize> = Default::default();
    for chip in chips {
        let k = per_hex
            .entry(chip.at)
            .or_insert_with(|| usize::from(tabbed.binary_search(&chip.at).is_ok()));
        let c = hex_center(chip.at) + Vec2::new(0.0, -HEX_RADIUS * 0.72 + *k as f32 * 15.0);
        let zc = z::CHIP + *k as f32 * 0.1;
        *k += 1;
        let [r, g, b] = chip.body;
        spawned.push(p.rect(c, Vec2::new(68.0, 15.0), 0.0, Color::BLACK, zc));
        spawned.push(p.rect(
            c,
            Vec2::new(66.0, 13.0),
            0.0,
            Color::srgb(r, g, b),
            zc + 0.01,
        ));
        spawned.push(p.text(chip.text.clone(), c, 9.0, Color::WHITE, zc + 0.02));
    }
    p.finish();
    for e in spawned {
        p.commands.entity(e).insert(MarkerArt);
    }
    *last = Some(now);
}

/// A Gun's firing arc (R 20.4): dashed lines from its hex's edge along the
/// wedge's two sides, out past the range-2 hexes on them, under the
/// counters.
fn draw_arc(p: &mut super::paint::Painter, at: Coord, facing: Spine) -> Vec<Entity> {
    let centre = hex_center(at);
    let mut out = Vec::new();
    for edge in arc_edges(facing) {
        let dir = (spine_point(at, edge) - centre).normalize_or_zero();
        let dashes = 5;
        for k in 0..dashes {
            let t0 = HEX_RADIUS * (1.0 + 2.3 * k as f32 / dashes as f32);
            let t1 = t0 + HEX_RADIUS * 2.3 / dashes as f32 * 0.6;
            let (a, b) = (centre + dir * t0, centre + dir * t1);
            out.push(p.line(a, b, 4.5, Color::srgb(0.10, 0.09, 0.08), z::ARC));
            out.push(p.line(a, b, 2.5, Color::srgb(0.98, 0.93, 0.72), z::ARC + 0.01));
        }
    }
    out
}

/// The Monsoon rain (R 55.2): a faint grey-blue veil and short slanting
/// streaks scattered over every hex, light enough to read the map through.
fn draw_rain(p: &mut super::paint::Painter, columns: u8, rows: u8) -> Vec<Entity> {
    let bounds = map_bounds(columns, rows);
    // The veil is translucent: its own blended material, not the painter's
    // opaque batch (which would hide the terrain under it).
    let veil = p.meshes.add(Rectangle::from_size(bounds.size()));
    let grey = p.materials.add(ColorMaterial::from_color(Color::srgba(
        0.55, 0.62, 0.72, 0.22,
    )));
    let centre = bounds.center();
    let mut out = vec![
        p.commands
            .spawn((
                Mesh2d(veil),
                MeshMaterial2d(grey),
                Transform::from_xyz(centre.x, centre.y, z::RAIN),
            ))
            .id(),
    ];
    let slant = Vec2::new(-4.0, -11.0);
    for col in 0..columns {
        for row in 0..rows {
            let Ok(c) = Coord::parse(
                &format!("{}{}", (b'A' + col) as char, row + 1),
                columns,
                rows,
            ) else {
                continue;
            };
            let centre = hex_center(c);
            for d in scatter(col, row, 9, 0.95, 17) {
                let at = centre + d;
                out.push(p.line(
                    at,
                    at + slant,
                    1.3,
                    Color::srgba(0.86, 0.92, 1.0, 0.55),
                    z::RAIN + 0.1,
                ));
            }
        }
    }
    out
}

/// The weather badge under the top bar in a Monsoon scenario (R 55.2).
fn weather_badge(
    mut contexts: EguiContexts,
    active: Res<ActiveScenario>,
    weather: Option<Res<MonsoonState>>,
) -> Result {
    let Some(state) = crate::engine::monsoon::state_of(&active, weather.as_deref()) else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?.clone();
    let text = weather_line(&active, state);
    let (fill, ink) = if state.raining {
        (egui::Color32::from_rgb(40, 70, 110), egui::Color32::WHITE)
    } else {
        (
            egui::Color32::from_rgb(60, 60, 55),
            egui::Color32::from_rgb(230, 230, 210),
        )
    };
    egui::Area::new(egui::Id::new("monsoon_badge"))
        .anchor(egui::Align2::CENTER_TOP, [0.0, 34.0])
        .interactable(false)
        .show(&ctx, |ui| {
            egui::Frame::new()
                .fill(fill)
                .corner_radius(4.0)
                .inner_margin(egui::Margin::symmetric(8, 3))
                .show(ui, |ui| {
                    ui.label(egui::RichText::new(text).color(ink).strong());
                });
        });
    Ok(())
}

/// The badge's words: the weather, what rain does, the Storm Check.
pub fn weather_line(active: &ActiveScenario, state: MonsoonState) -> String {
    let storm = active.scenario.special_rules.monsoon_storm;
    let check = match (state.settled, storm) {
        (true, _) => "no more Storm Checks".to_string(),
        (false, Some(s)) if s.from == s.to => format!("Storm Check changes it on {}", s.from),
        (false, Some(s)) => format!("Storm Check changes it on {}-{}", s.from, s.to),
        (false, None) => String::new(),
    };
    if state.raining {
        format!(
            "MONSOON RAIN: range 3 hexes, 2 hexes of movement, moving in Open +2/+1/0; {check} (R 55.2)"
        )
    } else {
        format!("Monsoon: dry; {check} (R 55.2)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::schema::SideId;

    fn unit(id: &str, side: SideId) -> Unit {
        Unit {
            id: id.into(),
            kind: "jap_squad".into(),
            side,
            reduced: false,
            company: None,
        }
    }

    fn at(label: &str) -> Location {
        Location {
            coord: Coord::parse(label, 10, 10).unwrap(),
            in_cave: false,
        }
    }

    /// R 20.4: the arc's edge lines run through the centres of the range-2
    /// hexes on the wedge's edge (E6 facing E: F4 and F7, as
    /// `rules::gun::in_arc` counts them), and F5, F6, in the arc, lie
    /// between them.
    #[test]
    fn gun_arc_edges_pass_through_the_edge_hexes() {
        let c = |l: &str| Coord::parse(l, 26, 40).unwrap();
        let (e6, centre) = (c("E6"), hex_center(c("E6")));
        let dirs: Vec<Vec2> = arc_edges(Spine::E)
            .iter()
            .map(|s| (spine_point(e6, *s) - centre).normalize())
            .collect();
        for edge in ["F4", "F7"] {
            assert!(crate::rules::gun::in_arc(e6, Spine::E, c(edge)));
            let to = hex_center(c(edge)) - centre;
            assert!(
                dirs.iter()
                    .any(|d| d.perp_dot(to).abs() < 0.01 && d.dot(to) > 0.0),
                "{edge}"
            );
        }
        // Every hex off the lines is between them exactly when it is in
        // the arc.
        let (a, b) = (dirs[0], dirs[1]);
        let mut inside = 0;
        for col in 0..10u8 {
            for row in 0..12u8 {
                let h = Coord::new(col, row);
                let to = hex_center(h) - centre;
                let (pa, pb) = (a.perp_dot(to), b.perp_dot(to));
                if h == e6 || pa.abs() < 0.01 || pb.abs() < 0.01 {
                    continue;
                }
                let between = pa.signum() != pb.signum() && to.dot(a + b) > 0.0;
                assert_eq!(
                    between,
                    crate::rules::gun::in_arc(e6, Spine::E, h),
                    "{}",
                    h.label()
                );
                inside += usize::from(between);
            }
        }
        assert!(inside > 10);
    }

    /// Chips show on face-up units only; a Banzai chip goes when the Squad
    /// is marked Op Fire (it no longer charges, R 59.6); Seishin has no
    /// effect in a charge (R 59.6).
    #[test]
    fn chips_for_ambush_banzai_and_seishin() {
        let rows = vec![
            (
                unit("J1", SideId::Axis),
                at("C3"),
                None,
                Flags {
                    ambush: true,
                    ..Flags::default()
                },
            ),
            (
                unit("J2", SideId::Axis),
                at("D3"),
                None,
                Flags {
                    banzai: true,
                    seishin: true,
                    ..Flags::default()
                },
            ),
            (
                unit("J3", SideId::Axis),
                at("E3"),
                None,
                Flags {
                    banzai: true,
                    op_fire: true,
                    ..Flags::default()
                },
            ),
            (
                unit("J4", SideId::Axis),
                at("F3"),
                None,
                Flags {
                    seishin: true,
                    ..Flags::default()
                },
            ),
            (
                unit("J5", SideId::Axis),
                at("G3"),
                Some(Concealed { minus_two: true }),
                Flags {
                    seishin: true,
                    ..Flags::default()
                },
            ),
        ];
        let texts: Vec<String> = chips(&rows, SideId::Allies)
            .into_iter()
            .map(|c| c.text)
            .collect();
        assert_eq!(texts, ["AMBUSH J1", "BANZAI J2", "SEISHIN J4"]);
        // The owner sees its own concealed unit's chip.
        let own: Vec<String> = chips(&rows, SideId::Axis)
            .into_iter()
            .map(|c| c.text)
            .collect();
        assert_eq!(own, ["AMBUSH J1", "BANZAI J2", "SEISHIN J4", "SEISHIN J5"]);
    }
}
