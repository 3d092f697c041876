//! The map on screen: terrain art at each hex, elevation shading and crest
//! lines (R 47.0), hedgerows and walls on hexsides (R 44.0, R 46.1), roads and
//! paths (R 42.0, R 53.0), streams and gullies (R 45.3, R 45.4), hex labels and
//! centre dots, and fortification counters (R 43.0).

use std::f32::consts::{PI, TAU};

use bevy::prelude::*;

use crate::scenario::Coord;
use crate::scenario::schema::{HexsideFeature, RoadKind, Side6, Terrain, Theater};
use crate::world::{ActiveScenario, Board, BoardRes};

use super::layout::{HEX_RADIUS, hex_center, side_ends, side_midpoint};
use super::paint::{PaintAssets, Painter, jitter, scatter};
use super::palette as pal;

/// Marks every entity of the drawn map.
#[derive(Component)]
pub struct BoardArt;

/// Z layers, bottom to top.
pub mod z {
    pub const HEX: f32 = 0.0;
    pub const GROUND: f32 = 0.5;
    pub const WATER: f32 = 1.0;
    pub const ROAD: f32 = 1.5;
    pub const ART: f32 = 2.0;
    pub const GRID: f32 = 3.0;
    pub const HEXSIDE: f32 = 3.5;
    pub const LABEL: f32 = 4.0;
    pub const FORT: f32 = 5.0;
    pub const COUNTER: f32 = 10.0;
    pub const HOVER: f32 = 40.0;
    /// Everything drawn at or above this follows the mouse (the hover and
    /// selection outlines, the LOS thread, the move path, the facing and
    /// decision marks) and is drawn again over the kept ground picture on
    /// every drawn frame; everything below is the ground (`present`), drawn
    /// again only where it changed. The ground's highest layers (the
    /// markers' chips at 30, smoke at 38) stay below it.
    pub const OVERLAY: f32 = HOVER;
}

/// Texture pixels per world unit for the pre-rendered map: sharp up to about
/// three times the fitted zoom.
const MAP_TEXELS_PER_UNIT: f32 = 2.0;
/// Largest texture side we ask of the renderer.
const MAP_TEXTURE_MAX: f32 = 4096.0;
/// Frames the map camera renders before it rests: pipelines compile
/// synchronously (see `app.rs`), and meshes reach the GPU a frame or two
/// after they are made.
const MAP_CAMERA_FRAMES: u32 = 6;

/// The render layer of the static map art.
pub const MAP_LAYER: usize = 1;

/// The camera that paints the static map into a texture.
#[derive(Component)]
pub struct MapCamera {
    frames_left: u32,
}

/// Draws the map once into a texture shown as one sprite: the terrain art is
/// thousands of shapes, and software renderers would redraw them every frame.
pub fn draw_board(
    mut commands: Commands,
    mut paint: PaintAssets,
    mut images: ResMut<Assets<Image>>,
    board: Res<BoardRes>,
    active: Res<ActiveScenario>,
) {
    let board = &board.0;
    let theater = active.scenario.theater;
    let bounds = super::layout::map_bounds(board.columns, board.rows);
    let texels = (bounds.size() * MAP_TEXELS_PER_UNIT).min(Vec2::splat(MAP_TEXTURE_MAX));
    let scale = (bounds.width() / texels.x).max(bounds.height() / texels.y);
    let size = (bounds.size() / scale).ceil().as_uvec2().max(UVec2::ONE);
    let image = images.add(Image::new_target_texture(
        size.x,
        size.y,
        bevy::render::render_resource::TextureFormat::Rgba8UnormSrgb,
        None,
    ));
    let layer = bevy::camera::visibility::RenderLayers::layer(MAP_LAYER);
    commands.spawn((
        Camera2d,
        Camera {
            order: -1,
            // Transparent around the hexes: the table (or a chroma key) shows.
            clear_color: ClearColorConfig::Custom(Color::NONE),
            ..default()
        },
        bevy::camera::RenderTarget::Image(image.clone().into()),
        Projection::Orthographic(OrthographicProjection {
            scale,
            ..OrthographicProjection::default_2d()
        }),
        Msaa::Off,
        Transform::from_translation(bounds.center().extend(0.0)),
        layer.clone(),
        MapCamera {
            frames_left: MAP_CAMERA_FRAMES,
        },
    ));
    commands.spawn((
        Sprite {
            image,
            custom_size: Some(size.as_vec2() * scale),
            ..default()
        },
        Transform::from_translation(bounds.center().extend(-1.0)),
        BoardArt,
    ));

    let mut p = paint.painter(&mut commands);
    let mut spawned = Vec::new();
    for c in board.coords() {
        spawned.extend(draw_hex(&mut p, board, c, theater));
    }
    for c in board.coords() {
        spawned.extend(draw_hexsides(&mut p, board, c));
    }
    p.finish();
    for e in spawned {
        p.commands.entity(e).insert((BoardArt, layer.clone()));
    }
}

/// Lets the map camera rest once the map texture is painted (asking for
/// frames until then, as the window only redraws on input).
pub fn rest_map_camera(
    mut cams: Query<(&mut Camera, &mut MapCamera)>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
) {
    for (mut cam, mut m) in &mut cams {
        if m.frames_left > 0 {
            redraw.write(bevy::window::RequestRedraw);
            m.frames_left -= 1;
            if m.frames_left == 0 {
                cam.is_active = false;
            }
        }
    }
}

fn draw_hex(p: &mut Painter, board: &Board, c: Coord, theater: Theater) -> Vec<Entity> {
    let Some(cell) = board.cell(c) else {
        return Vec::new();
    };
    let centre = hex_center(c);
    let mut out = Vec::new();
    let base = pal::with_elevation(pal::terrain_base(cell.terrain), cell.level, theater);
    out.push(p.hexagon(centre, HEX_RADIUS, base, z::HEX));

    // Streams and gullies run to the neighbouring stream/gully hexes.
    if matches!(
        cell.terrain,
        Terrain::Stream | Terrain::Gully | Terrain::River
    ) {
        out.extend(draw_watercourse(p, board, c, cell.terrain));
    }
    // Roads and paths along their hexsides.
    for side in Side6::ALL {
        if let Some(kind) = board.road(c, side) {
            let m = side_midpoint(c, side);
            let (w, colour) = match kind {
                RoadKind::Road => (15.0, pal::ROAD),
                RoadKind::Path => (6.0, pal::PATH),
            };
            if kind == RoadKind::Road {
                out.push(p.line(centre, m, w + 3.0, pal::ROAD_EDGE, z::ROAD));
                out.push(p.circle(centre, (w + 3.0) * 0.5, pal::ROAD_EDGE, z::ROAD));
            }
            out.push(p.line(centre, m, w, colour, z::ROAD + 0.1));
            out.push(p.circle(centre, w * 0.5, colour, z::ROAD + 0.1));
        }
    }
    out.extend(draw_terrain_art(p, c, cell.terrain, centre));

    // Grid: each hex draws its N, NE and SE sides; edge hexes close the rest.
    for side in Side6::ALL {
        let own = matches!(side, Side6::N | Side6::Ne | Side6::Se);
        if own || board.neighbour(c, side).is_none() {
            let (a, b) = side_ends(c, side);
            out.push(p.line(a, b, 1.3, pal::GRID, z::GRID));
        }
    }
    // Label and centre dot.
    out.push(p.text(
        c.label(),
        centre + Vec2::new(0.0, HEX_RADIUS * 0.68),
        10.0,
        pal::LABEL,
        z::LABEL,
    ));
    out.push(p.circle(centre, 2.2, pal::LABEL, z::LABEL));
    if cell.level > 0 {
        out.push(p.text(
            format!("L{}", cell.level),
            centre + Vec2::new(-HEX_RADIUS * 0.62, 0.0),
            9.0,
            pal::LABEL,
            z::LABEL,
        ));
    }
    out
}

fn draw_watercourse(p: &mut Painter, board: &Board, c: Coord, t: Terrain) -> Vec<Entity> {
    let centre = hex_center(c);
    let (bank, water, w) = match t {
        Terrain::Gully => (pal::CREST, pal::ROAD_EDGE, 10.0),
        Terrain::River => (pal::ROAD_EDGE, pal::WATER, 26.0),
        _ => (pal::ROAD_EDGE, pal::WATER, 9.0),
    };
    let mut out = Vec::new();
    let mut joined = 0;
    for side in Side6::ALL {
        let links = match board.neighbour(c, side) {
            Some(n) => board.cell(n).is_some_and(|cell| cell.terrain == t),
            None => false,
        };
        if links {
            joined += 1;
            let m = side_midpoint(c, side);
            out.push(p.line(centre, m, w + 6.0, bank, z::WATER));
            out.push(p.line(centre, m, w, water, z::WATER + 0.1));
        }
    }
    // An isolated or end-of-line hex still shows its water.
    if joined < 2 {
        for side in Side6::ALL {
            if board.neighbour(c, side).is_none() {
                let m = side_midpoint(c, side);
                out.push(p.line(centre, m, w + 6.0, bank, z::WATER));
                out.push(p.line(centre, m, w, water, z::WATER + 0.1));
                break;
            }
        }
    }
    out.push(p.circle(centre, (w + 6.0) * 0.5, bank, z::WATER));
    out.push(p.circle(centre, w * 0.5, water, z::WATER + 0.1));
    if t != Terrain::Gully {
        out.push(p.line(
            centre + Vec2::new(-3.0, 1.0),
            centre + Vec2::new(3.0, 1.0),
            1.5,
            pal::WATER_LIGHT,
            z::WATER + 0.2,
        ));
    }
    out
}

fn draw_terrain_art(p: &mut Painter, c: Coord, t: Terrain, centre: Vec2) -> Vec<Entity> {
    let (col, row) = (c.col, c.row);
    let mut out = Vec::new();
    match t {
        Terrain::Open | Terrain::Road | Terrain::Stream | Terrain::Gully => {
            for (i, d) in scatter(col, row, 4, 0.75, 7).into_iter().enumerate() {
                if jitter(col, row, 90 + i as u32) < 0.5 {
                    out.extend(tuft(p, centre + d, 3.0, pal::GRASS_TUFT.with_alpha(0.45)));
                }
            }
        }
        Terrain::Woods => {
            for d in scatter(col, row, 9, 0.62, 1) {
                let r = 9.0 + jitter(col, row, (d.x * 10.0) as u32) * 5.0;
                out.push(p.circle(
                    centre + d + Vec2::new(1.5, -1.5),
                    r + 1.5,
                    pal::TREE_DARK,
                    z::ART,
                ));
                out.push(p.circle(centre + d, r, pal::TREE, z::ART + 0.1));
                out.push(p.circle(
                    centre + d + Vec2::new(-r * 0.3, r * 0.3),
                    r * 0.35,
                    pal::JUNGLE_LIGHT,
                    z::ART + 0.2,
                ));
            }
        }
        Terrain::Jungle => {
            for (i, d) in scatter(col, row, 16, 0.78, 3).into_iter().enumerate() {
                let r = 7.0 + jitter(col, row, 40 + i as u32) * 6.0;
                let colour = if i % 3 == 0 {
                    pal::JUNGLE_LIGHT
                } else {
                    pal::JUNGLE
                };
                out.push(p.circle(centre + d, r + 1.2, pal::TREE_DARK, z::ART));
                out.push(p.circle(centre + d, r, colour, z::ART + 0.1 + i as f32 * 0.001));
            }
            for (i, d) in scatter(col, row, 5, 0.7, 11).into_iter().enumerate() {
                let a = jitter(col, row, 60 + i as u32) * PI;
                out.push(p.line(
                    centre + d,
                    centre + d + Vec2::from_angle(a) * 9.0,
                    1.5,
                    pal::PALM,
                    z::ART + 0.3,
                ));
            }
        }
        Terrain::Orchard => {
            for dx in [-1.0f32, 0.0, 1.0] {
                for dy in [-1.0f32, 0.0, 1.0] {
                    let at = centre + Vec2::new(dx * 20.0 + dy * 4.0, dy * 20.0);
                    out.push(p.circle(at + Vec2::new(1.0, -1.0), 7.0, pal::TREE_DARK, z::ART));
                    out.push(p.circle(at, 6.0, pal::ORCHARD_TREE, z::ART + 0.1));
                }
            }
        }
        Terrain::WheatField => {
            for k in -4..=4 {
                let off = k as f32 * 9.0;
                let half = (HEX_RADIUS * 0.78).powi(2) - off * off;
                if half > 0.0 {
                    let h = half.sqrt();
                    let dir = Vec2::from_angle(PI / 4.0);
                    let normal = dir.perp();
                    out.push(p.line(
                        centre + normal * off - dir * h,
                        centre + normal * off + dir * h,
                        1.8,
                        pal::WHEAT_LINE,
                        z::ART,
                    ));
                }
            }
        }
        Terrain::KunaiGrass => {
            for d in scatter(col, row, 16, 0.8, 5) {
                out.extend(tuft(p, centre + d, 6.0, pal::GRASS_TUFT));
            }
        }
        Terrain::PalmTrees => {
            for (i, d) in scatter(col, row, 4, 0.55, 9).into_iter().enumerate() {
                let at = centre + d;
                out.push(p.circle(at + Vec2::new(2.0, -2.0), 3.0, pal::ROAD_EDGE, z::ART));
                let spin = jitter(col, row, 30 + i as u32) * TAU;
                for k in 0..6 {
                    let a = spin + k as f32 * TAU / 6.0;
                    out.push(p.ellipse(
                        at + Vec2::from_angle(a) * 7.0,
                        Vec2::new(8.0, 2.4),
                        a,
                        pal::PALM,
                        z::ART + 0.1,
                    ));
                }
            }
        }
        Terrain::Swamp => {
            for (i, d) in scatter(col, row, 4, 0.6, 13).into_iter().enumerate() {
                out.push(p.ellipse(
                    centre + d,
                    Vec2::new(11.0, 5.0),
                    jitter(col, row, 70 + i as u32) * 0.6,
                    pal::WATER.with_alpha(0.65),
                    z::ART,
                ));
            }
            for d in scatter(col, row, 9, 0.8, 17) {
                out.extend(tuft(p, centre + d, 6.0, pal::SWAMP_REED));
            }
        }
        Terrain::StoneBuilding | Terrain::WoodenBuilding => {
            let (wall, roof) = if t == Terrain::StoneBuilding {
                (pal::STONE, pal::STONE_ROOF)
            } else {
                (pal::WOOD_BUILDING, pal::WOOD_ROOF)
            };
            let angle = (jitter(col, row, 3) - 0.5) * 0.5;
            let main = Vec2::new(40.0, 26.0);
            let at = centre + Vec2::new(-4.0, -2.0);
            out.push(p.rect(at, main + Vec2::splat(4.0), angle, pal::OUTLINE, z::ART));
            out.push(p.rect(at, main, angle, wall, z::ART + 0.1));
            out.push(p.line(
                at - Vec2::from_angle(angle) * main.x * 0.5,
                at + Vec2::from_angle(angle) * main.x * 0.5,
                2.0,
                roof,
                z::ART + 0.2,
            ));
            if jitter(col, row, 4) > 0.35 {
                let small = Vec2::new(18.0, 16.0);
                let at2 =
                    at + Vec2::from_angle(angle) * 24.0 + Vec2::from_angle(angle).perp() * 12.0;
                out.push(p.rect(at2, small + Vec2::splat(4.0), angle, pal::OUTLINE, z::ART));
                out.push(p.rect(at2, small, angle, wall, z::ART + 0.1));
            }
        }
        Terrain::Huts => {
            for d in scatter(col, row, 3, 0.45, 21) {
                out.push(p.circle(centre + d, 10.0, pal::OUTLINE, z::ART));
                out.push(p.circle(centre + d, 8.5, pal::THATCH, z::ART + 0.1));
                out.push(p.circle(centre + d, 3.0, pal::WOOD_ROOF, z::ART + 0.2));
            }
        }
        Terrain::Surf | Terrain::Ocean | Terrain::River => {
            for k in -2..=2 {
                let y = k as f32 * 14.0;
                for j in -1..=1 {
                    let x = j as f32 * 22.0 + (k % 2) as f32 * 10.0;
                    out.push(p.ellipse(
                        centre + Vec2::new(x, y),
                        Vec2::new(7.0, 1.4),
                        0.0,
                        pal::WATER_LIGHT,
                        z::ART,
                    ));
                }
            }
        }
        Terrain::Sandbar => {}
    }
    out
}

/// A grass tuft: three short blades.
fn tuft(p: &mut Painter, at: Vec2, size: f32, colour: Color) -> Vec<Entity> {
    [-0.45f32, 0.0, 0.45]
        .into_iter()
        .map(|a| {
            let dir = Vec2::from_angle(PI / 2.0 + a);
            p.line(at, at + dir * size, 1.3, colour, z::ART)
        })
        .collect()
}

fn draw_hexsides(p: &mut Painter, board: &Board, c: Coord) -> Vec<Entity> {
    let mut out = Vec::new();
    let centre = hex_center(c);
    for side in Side6::ALL {
        // Each hexside is drawn once, from its owning hex.
        if board.edge(c, side).coord != c || board.edge(c, side).side != side {
            continue;
        }
        let (a, b) = side_ends(c, side);
        for feature in board.hexside(c, side) {
            match feature {
                HexsideFeature::Hedgerow => {
                    out.push(p.line(a, b, 7.0, pal::HEDGEROW_DARK, z::HEXSIDE));
                    for k in 0..=6 {
                        let at = a.lerp(b, k as f32 / 6.0);
                        let r = 4.2 + jitter(c.col, c.row, 100 + k) * 1.5;
                        out.push(p.circle(at, r + 1.0, pal::HEDGEROW_DARK, z::HEXSIDE + 0.1));
                        out.push(p.circle(at, r, pal::HEDGEROW, z::HEXSIDE + 0.2));
                    }
                }
                HexsideFeature::Wall => {
                    out.push(p.line(a, b, 6.5, pal::OUTLINE, z::HEXSIDE));
                    out.push(p.line(a, b, 4.0, pal::WALL, z::HEXSIDE + 0.1));
                }
                HexsideFeature::Crest => {
                    // Dashed brown line with ticks pointing downhill.
                    let here = board.cell(c).map_or(0, |x| x.level);
                    let there = board
                        .neighbour(c, side)
                        .and_then(|n| board.cell(n))
                        .map_or(0, |x| x.level);
                    let inward = (centre - side_midpoint(c, side)).normalize_or_zero();
                    let downhill = if here >= there { -inward } else { inward };
                    for k in 0..5 {
                        let t0 = k as f32 / 5.0 + 0.02;
                        let t1 = t0 + 0.14;
                        out.push(p.line(a.lerp(b, t0), a.lerp(b, t1), 3.5, pal::CREST, z::HEXSIDE));
                        let mid = a.lerp(b, (t0 + t1) * 0.5);
                        out.push(p.line(mid, mid + downhill * 5.0, 2.0, pal::CREST, z::HEXSIDE));
                    }
                }
                HexsideFeature::Cliff => {
                    out.push(p.line(a, b, 4.0, pal::CLIFF, z::HEXSIDE));
                    let inward = (centre - side_midpoint(c, side)).normalize_or_zero();
                    for k in 0..6 {
                        let at = a.lerp(b, (k as f32 + 0.5) / 6.0);
                        out.push(p.triangle(
                            at + inward * 2.0,
                            Vec2::new(6.0, 6.0),
                            inward.y.atan2(inward.x),
                            pal::CLIFF,
                            z::HEXSIDE,
                        ));
                    }
                }
            }
        }
    }
    out
}
