//! The board's picture kept between frames. Software renderers (llvmpipe)
//! pay for every pixel of every layer on every frame: the map, the
//! counters, the overlays and the egui panels cost the board about three
//! times an empty window's frame. Most frames show what the last one
//! showed, so the board camera draws its layers (and egui over them) into
//! the window's intermediate texture only on a frame where something on
//! screen changed: a drawn entity, a mesh, a material or an image, the
//! camera's view, the window's size, the table colour, or egui's painted
//! output. A second camera that draws nothing presents that texture on
//! every frame, as an empty window presents its cleared one: every frame
//! reaches the screen, showing the board as it is.

use bevy::asset::AssetEvent;
use bevy::camera::visibility::RenderLayers;
use bevy::camera::{CameraOutputMode, ClearColorConfig};
use bevy::prelude::*;
use bevy::text::TextLayoutInfo;
use bevy::window::WindowResized;
use bevy_egui::{EguiRenderOutput, egui};

use crate::app::AppState;

use super::camera::BoardCamera;

/// The camera that shows the kept picture on every frame: it draws nothing
/// itself, does not clear, and writes the intermediate texture the board
/// camera drew (they share it: same window, format and MSAA) to the window.
#[derive(Component)]
pub struct PresentCamera;

/// Frames drawn in full and frames that showed the kept picture, and the
/// view and egui output the kept picture was drawn for.
#[derive(Resource, Debug, Default)]
pub struct Retained {
    /// Frames on the board where the board camera drew.
    pub drawn: u64,
    /// Frames on the board that showed the kept picture.
    pub kept: u64,
    view: Option<(GlobalTransform, Vec4)>,
    egui: Vec<egui::ClippedPrimitive>,
    /// Frames still to draw in full (after the board opens).
    settle: u32,
}

/// Frames drawn in full when the board opens, while the map texture is
/// painted and the panels settle.
const SETTLE_FRAMES: u32 = 10;

pub struct RetainPlugin;

impl Plugin for RetainPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Retained>()
            .add_systems(OnEnter(AppState::InGame), start_retaining)
            .add_systems(OnExit(AppState::InGame), stop_retaining)
            .add_systems(Last, decide_redraw.run_if(in_state(AppState::InGame)));
    }
}

/// On the board the board camera leaves its picture in the intermediate
/// texture and the present camera shows it.
fn start_retaining(
    mut commands: Commands,
    mut board: Query<&mut Camera, With<BoardCamera>>,
    mut retained: ResMut<Retained>,
) {
    for mut cam in &mut board {
        cam.output_mode = CameraOutputMode::Skip;
        cam.is_active = true;
    }
    commands.spawn((
        Camera2d,
        Camera {
            order: 1,
            clear_color: ClearColorConfig::None,
            ..default()
        },
        Msaa::Off,
        RenderLayers::none(),
        PresentCamera,
    ));
    *retained = Retained {
        settle: SETTLE_FRAMES,
        ..default()
    };
}

/// Off the board (menu, between games) the board camera draws every frame
/// straight to the window again.
fn stop_retaining(
    mut commands: Commands,
    mut board: Query<&mut Camera, With<BoardCamera>>,
    present: Query<Entity, With<PresentCamera>>,
) {
    for mut cam in &mut board {
        cam.output_mode = CameraOutputMode::default();
        cam.is_active = true;
    }
    for e in &present {
        commands.entity(e).despawn();
    }
}

/// Anything drawn by a 2D camera that changed how it looks or where it is.
type Drawn = Or<(With<Mesh2d>, With<Sprite>, With<Text2d>)>;
type Looks = Or<(
    Changed<GlobalTransform>,
    Changed<InheritedVisibility>,
    Changed<Visibility>,
    Changed<RenderLayers>,
    Changed<Mesh2d>,
    Changed<MeshMaterial2d<ColorMaterial>>,
    Changed<Sprite>,
    Changed<TextLayoutInfo>,
    Changed<TextColor>,
)>;

/// Whether two egui outputs paint the same picture.
fn same_paint(a: &[egui::ClippedPrimitive], b: &[egui::ClippedPrimitive]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| {
            x.clip_rect == y.clip_rect
                && match (&x.primitive, &y.primitive) {
                    (egui::epaint::Primitive::Mesh(m), egui::epaint::Primitive::Mesh(n)) => m == n,
                    _ => false,
                }
        })
}

/// At the end of each frame on the board: whether the board camera draws
/// this frame (something on screen changed) or the kept picture is shown.
#[allow(clippy::too_many_arguments)]
fn decide_redraw(
    mut retained: ResMut<Retained>,
    mut board: Query<(&mut Camera, &GlobalTransform, &Projection), With<BoardCamera>>,
    other_cameras: Query<&Camera, (Without<BoardCamera>, Without<PresentCamera>)>,
    looks: Query<(), (Drawn, Looks)>,
    mut removed_mesh: RemovedComponents<Mesh2d>,
    mut removed_sprite: RemovedComponents<Sprite>,
    mut removed_text: RemovedComponents<Text2d>,
    mut removed_vis: RemovedComponents<Visibility>,
    mut meshes: MessageReader<AssetEvent<Mesh>>,
    mut materials: MessageReader<AssetEvent<ColorMaterial>>,
    mut images: MessageReader<AssetEvent<Image>>,
    mut resized: MessageReader<WindowResized>,
    clear: Res<ClearColor>,
    egui_out: Query<&EguiRenderOutput, With<BoardCamera>>,
    board_layers: Query<(), (With<BoardCamera>, Changed<RenderLayers>)>,
    mut removed_layers: RemovedComponents<RenderLayers>,
) {
    let Ok((mut cam, gtf, proj)) = board.single_mut() else {
        return;
    };
    let area = match proj {
        Projection::Orthographic(o) => {
            Vec4::new(o.area.min.x, o.area.min.y, o.area.max.x, o.area.max.y)
        }
        _ => Vec4::ZERO,
    };
    // The view, by value: the camera controls touch the transform every
    // frame without moving it.
    let view = Some((*gtf, area));
    let moved = retained.view != view;
    retained.view = view;
    let painted = match egui_out.single() {
        Ok(out) if !same_paint(&out.paint_jobs, &retained.egui) => {
            retained.egui = out.paint_jobs.clone();
            true
        }
        _ => false,
    };
    // Every reader is read, so that old changes are not seen again.
    let reasons = [
        removed_mesh.read().count() > 0,
        removed_sprite.read().count() > 0,
        removed_text.read().count() > 0,
        removed_vis.read().count() > 0,
        // What the board camera looks at (streamer mode's chroma key).
        removed_layers.read().count() > 0,
        !board_layers.is_empty(),
        meshes.read().count() > 0,
        materials.read().count() > 0,
        images.read().count() > 0,
        resized.read().count() > 0,
        clear.is_changed(),
        !looks.is_empty(),
        // A camera painting a texture (the map) changes what the board shows.
        other_cameras.iter().any(|c| c.is_active),
        moved,
        painted,
    ];
    let mut changed = reasons.iter().any(|r| *r);
    if retained.settle > 0 {
        retained.settle -= 1;
        changed = true;
    }
    if changed {
        retained.drawn += 1;
    } else {
        retained.kept += 1;
    }
    if cam.is_active != changed {
        cam.is_active = changed;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A world with the board camera, one sprite and the messages the
    /// decision reads; `decide_redraw` runs on each update.
    fn board() -> (App, Entity, Entity) {
        let mut app = App::new();
        app.add_message::<AssetEvent<Mesh>>()
            .add_message::<AssetEvent<ColorMaterial>>()
            .add_message::<AssetEvent<Image>>()
            .add_message::<WindowResized>()
            .init_resource::<ClearColor>()
            .init_resource::<Retained>()
            .add_systems(Update, decide_redraw);
        let cam = app
            .world_mut()
            .spawn((
                Camera2d,
                BoardCamera,
                GlobalTransform::default(),
                EguiRenderOutput::default(),
            ))
            .id();
        let sprite = app
            .world_mut()
            .spawn((Sprite::default(), GlobalTransform::default()))
            .id();
        (app, cam, sprite)
    }

    fn drawing(app: &mut App, cam: Entity) -> bool {
        app.update();
        app.world().get::<Camera>(cam).unwrap().is_active
    }

    #[test]
    fn the_board_is_drawn_only_when_something_on_screen_changes() {
        let (mut app, cam, sprite) = board();
        // The first frame sees everything new.
        assert!(drawing(&mut app, cam));
        assert!(!drawing(&mut app, cam));
        assert!(!drawing(&mut app, cam));
        // A counter moves.
        *app.world_mut().get_mut::<GlobalTransform>(sprite).unwrap() =
            GlobalTransform::from_xyz(5.0, 0.0, 0.0);
        assert!(drawing(&mut app, cam));
        assert!(!drawing(&mut app, cam));
        // The camera is touched but not moved: nothing to draw.
        app.world_mut()
            .get_mut::<GlobalTransform>(cam)
            .unwrap()
            .set_changed();
        assert!(!drawing(&mut app, cam));
        // The view pans.
        *app.world_mut().get_mut::<GlobalTransform>(cam).unwrap() =
            GlobalTransform::from_xyz(0.0, 3.0, 0.0);
        assert!(drawing(&mut app, cam));
        // egui paints something new, then the same again.
        let mut mesh = egui::Mesh::default();
        mesh.add_colored_rect(
            egui::Rect::from_min_size(egui::pos2(1.0, 1.0), egui::vec2(4.0, 4.0)),
            egui::Color32::RED,
        );
        let job = egui::ClippedPrimitive {
            clip_rect: egui::Rect::EVERYTHING,
            primitive: egui::epaint::Primitive::Mesh(mesh),
        };
        app.world_mut()
            .get_mut::<EguiRenderOutput>(cam)
            .unwrap()
            .paint_jobs = vec![job.clone()];
        assert!(drawing(&mut app, cam));
        app.world_mut()
            .get_mut::<EguiRenderOutput>(cam)
            .unwrap()
            .paint_jobs = vec![job];
        assert!(!drawing(&mut app, cam));
        // A counter is taken off the board.
        app.world_mut().despawn(sprite);
        assert!(drawing(&mut app, cam));
        assert!(!drawing(&mut app, cam));
        let r = app.world().resource::<Retained>();
        assert_eq!((r.drawn, r.kept), (5, 6));
        // The chroma key leaves only the overlays in view.
        app.world_mut()
            .entity_mut(cam)
            .insert(RenderLayers::layer(31));
        assert!(drawing(&mut app, cam));
        assert!(!drawing(&mut app, cam));
    }
}
