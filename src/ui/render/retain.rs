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

use bevy::asset::{AssetEvent, AssetEventSystems};
use bevy::camera::primitives::Aabb;
use bevy::camera::visibility::RenderLayers;
use bevy::camera::visibility::VisibilitySystems;
use bevy::camera::{CameraMainTextureUsages, CameraOutputMode, ClearColorConfig};
use bevy::core_pipeline::Core2d;
use bevy::ecs::system::SystemParam;
use bevy::platform::collections::HashSet;
use bevy::prelude::*;
use bevy::render::camera::CameraRenderGraph;
use bevy::render::render_resource::TextureUsages;
use bevy::text::TextLayoutInfo;
use bevy::window::WindowResized;
use bevy_egui::{EguiManagedTextures, EguiOutput, EguiRenderOutput, egui};

use crate::app::AppState;

use super::damage::{self, BoardDamage, Bounds, Parts, Screen, world_place, world_rect};
use super::present::BoardGraph;
use crate::ui::board::z;
use crate::ui::camera::BoardCamera;

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
    /// Of the frames drawn, those drawn only in their changed rectangles.
    pub partial: u64,
    /// Pixels the board camera drew on the frames drawn (the whole window
    /// on a whole frame, else its rectangles): the frames' shading work,
    /// which unlike their time does not move with the machine's load.
    pub shaded: u64,
    view: Option<(GlobalTransform, Vec4)>,
    egui: Vec<egui::ClippedPrimitive>,
    /// Where egui's paint jobs changed on the last frame (window pixels),
    /// or that it was drawn whole: drawn again when an egui texture arrives
    /// a frame after the jobs that use it.
    last_egui: Vec<Rect>,
    last_whole: bool,
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
            .init_resource::<Bounds>()
            .add_plugins(super::present::PresentPlugin)
            .add_systems(OnEnter(AppState::InGame), start_retaining)
            .add_systems(OnExit(AppState::InGame), stop_retaining)
            .add_systems(
                PostUpdate,
                decide_redraw
                    .run_if(in_state(AppState::InGame))
                    .after(bevy_egui::EguiPostUpdateSet::PostProcessOutput)
                    .after(VisibilitySystems::CalculateBounds)
                    .after(VisibilitySystems::VisibilityPropagate)
                    .before(VisibilitySystems::CheckVisibility),
            );
    }

    /// egui's texture updates (new glyphs written into its font atlas) are
    /// made before the frame's asset messages are sent, as Bevy orders its
    /// own text: otherwise, when the executor happens to run them after,
    /// the atlas reaches the renderer a frame after the text that uses it,
    /// the text is drawn in its changed rectangle without its new glyphs,
    /// and the next frame, seeing nothing changed, keeps that picture (a
    /// missing letter, found by `tests/present.rs`). `LateTextures` orders
    /// them after instead, for that test (`decide_redraw` must then redraw
    /// the text on the frame its atlas arrives).
    fn finish(&self, app: &mut App) {
        let egui_textures = bevy_egui::EguiPostUpdateSet::PostProcessOutput;
        let configured = if app.world().contains_resource::<LateTextures>() {
            egui_textures.after(AssetEventSystems)
        } else {
            egui_textures.before(AssetEventSystems)
        };
        app.configure_sets(PostUpdate, configured);
    }
}

/// egui's texture updates reach the renderer a frame after the paint jobs
/// that use them (the order the executor may pick when nothing orders
/// them), for the check that the kept picture still gets the glyphs.
#[derive(Resource, Debug, Default)]
pub struct LateTextures;

/// Every frame on the board is drawn whole (the check that drawing only
/// the changed rectangles gives the same picture).
#[derive(Resource, Debug, Default)]
pub struct WholeFrames;

/// The intermediate texture also takes copies (the table colour into the
/// changed rectangles); both cameras ask the same, so that they share it.
fn shared_usages() -> CameraMainTextureUsages {
    CameraMainTextureUsages(CameraMainTextureUsages::default().0 | TextureUsages::COPY_DST)
}

/// On the board the board camera leaves its picture in the intermediate
/// texture, drawn by its own schedule (`present`), and the present camera
/// shows it.
fn start_retaining(
    mut commands: Commands,
    mut board: Query<(Entity, &mut Camera), With<BoardCamera>>,
    mut retained: ResMut<Retained>,
    mut bounds: ResMut<Bounds>,
) {
    for (e, mut cam) in &mut board {
        cam.output_mode = CameraOutputMode::Skip;
        cam.is_active = true;
        // Its own schedule fills the window with the table colour on a
        // whole frame (through the ground picture, `present`).
        cam.clear_color = ClearColorConfig::None;
        commands
            .entity(e)
            .insert((CameraRenderGraph::new(BoardGraph), shared_usages()));
    }
    bounds.0.clear();
    commands.spawn((
        Camera2d,
        Camera {
            order: 1,
            clear_color: ClearColorConfig::None,
            ..default()
        },
        Msaa::Off,
        RenderLayers::none(),
        shared_usages(),
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
    mut board: Query<(Entity, &mut Camera), With<BoardCamera>>,
    present: Query<Entity, With<PresentCamera>>,
) {
    for (e, mut cam) in &mut board {
        cam.output_mode = CameraOutputMode::default();
        cam.is_active = true;
        cam.clear_color = ClearColorConfig::Default;
        commands.entity(e).insert(CameraRenderGraph::new(Core2d));
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
    Changed<Aabb>,
    Changed<Parts>,
)>;

/// The messages of things taken off or out of the board this frame.
#[derive(SystemParam)]
struct Removed<'w, 's> {
    mesh: RemovedComponents<'w, 's, Mesh2d>,
    sprite: RemovedComponents<'w, 's, Sprite>,
    text: RemovedComponents<'w, 's, Text2d>,
    visibility: RemovedComponents<'w, 's, Visibility>,
    layers: RemovedComponents<'w, 's, RenderLayers>,
}

/// The asset and window messages that change what the board shows.
#[derive(SystemParam)]
struct Events<'w, 's> {
    meshes: MessageReader<'w, 's, AssetEvent<Mesh>>,
    materials: MessageReader<'w, 's, AssetEvent<ColorMaterial>>,
    images: MessageReader<'w, 's, AssetEvent<Image>>,
    resized: MessageReader<'w, 's, WindowResized>,
    egui_textures: Option<Res<'w, EguiManagedTextures>>,
}

/// The assets added, loaded, modified or removed, from their messages.
fn changed_ids<A: Asset>(events: &mut MessageReader<AssetEvent<A>>) -> HashSet<AssetId<A>> {
    events
        .read()
        .filter_map(|ev| match ev {
            AssetEvent::Added { id }
            | AssetEvent::LoadedWithDependencies { id }
            | AssetEvent::Modified { id }
            | AssetEvent::Removed { id } => Some(*id),
            AssetEvent::Unused { .. } => None,
        })
        .collect()
}

/// Drawn entities that changed, with their places.
type Changed2d<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        Option<&'static Aabb>,
        Option<&'static Parts>,
        &'static GlobalTransform,
    ),
    (Drawn, Looks),
>;

/// Sprites, by the image they show.
type SpriteUsers<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static Sprite,
        Option<&'static Aabb>,
        &'static GlobalTransform,
    ),
>;

/// Drawn entities by the mesh and material they draw with.
type MeshUsers<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static Mesh2d,
        Option<&'static MeshMaterial2d<ColorMaterial>>,
        Option<&'static Aabb>,
        Option<&'static Parts>,
        &'static GlobalTransform,
    ),
>;

/// The changed places of a frame, in world space (entities) and window
/// pixels (egui), or that some change's place is not known; and whether
/// any of them is the ground's (an entity under `z::OVERLAY`).
#[derive(Default)]
struct Places {
    world: Vec<Rect>,
    window: Vec<Rect>,
    unknown: bool,
    ground: bool,
}

impl Places {
    /// An entity's old place (if it was seen) and its new one.
    fn entity(
        &mut self,
        bounds: &mut Bounds,
        e: Entity,
        now: Option<Vec<Rect>>,
        gtf: &GlobalTransform,
    ) {
        let ground = gtf.translation().z < z::OVERLAY;
        self.world.extend(now.iter().flatten().copied());
        let old = match now {
            Some(r) => bounds.0.insert(e, (r, ground)),
            None => {
                self.unknown = true;
                bounds.0.remove(&e)
            }
        };
        self.ground |= ground || old.as_ref().is_some_and(|(_, g)| *g);
        self.world.extend(old.into_iter().flat_map(|(r, _)| r));
    }

    /// An entity's last place, when it is taken off or hidden.
    fn left(&mut self, old: Option<&(Vec<Rect>, bool)>) {
        if let Some((rects, ground)) = old {
            self.world.extend(rects.iter().copied());
            self.ground |= *ground;
        }
    }
}

/// Each frame on the board, once its changes are known and before its
/// visibility is computed: whether the board camera draws this frame
/// (something on screen changed) or the kept picture is shown,
/// and whether it draws the whole window or only the changed rectangles.
#[allow(clippy::too_many_arguments)]
fn decide_redraw(
    mut retained: ResMut<Retained>,
    mut bounds: ResMut<Bounds>,
    mut damage: ResMut<BoardDamage>,
    whole_frames: Option<Res<WholeFrames>>,
    mut board: Query<(&mut Camera, &GlobalTransform, &Projection), With<BoardCamera>>,
    other_cameras: Query<&Camera, (Without<BoardCamera>, Without<PresentCamera>)>,
    looks: Changed2d,
    users: MeshUsers,
    sprites: SpriteUsers,
    colour_materials: Option<Res<Assets<ColorMaterial>>>,
    mut removed: Removed,
    mut events: Events,
    clear: Res<ClearColor>,
    mut egui_out: Query<(&mut EguiRenderOutput, Option<&EguiOutput>), With<BoardCamera>>,
    board_layers: Query<(), (With<BoardCamera>, Changed<RenderLayers>)>,
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

    let mut places = Places::default();
    let mut egui_out = egui_out.single_mut().ok();
    let ppp = egui_out
        .as_ref()
        .and_then(|(_, o)| o.map(|o| o.pixels_per_point))
        .unwrap_or(1.0);
    // egui: the jobs that differ from the last drawn ones.
    if let Some((out, _)) = &egui_out
        && !damage::same_paint(&out.paint_jobs, &retained.egui)
    {
        match damage::egui_changes(&retained.egui, &out.paint_jobs, ppp) {
            Some(rects) => places.window.extend(rects),
            None => places.unknown = true,
        }
        retained.egui = out.paint_jobs.clone();
    }
    let egui_now = places.window.clone();
    // Entities moved, shown, hidden, recoloured or reshaped: where they were
    // and where they are.
    for (e, aabb, parts, gtf) in &looks {
        places.entity(&mut bounds, e, world_place(aabb, parts, gtf), gtf);
    }
    // Entities drawn with a mesh or material that changed.
    let meshes: HashSet<AssetId<Mesh>> = changed_ids(&mut events.meshes);
    let materials: HashSet<AssetId<ColorMaterial>> = changed_ids(&mut events.materials);
    // An image (the map) changed: the sprites and meshes that show it. An
    // image nothing on the board shows is a font atlas (egui's or the
    // labels'), where new glyphs are added beside the old ones: the text
    // that uses them changed too and is redrawn for that.
    let images: HashSet<AssetId<Image>> = changed_ids(&mut events.images);

    let textured = |m: &MeshMaterial2d<ColorMaterial>| {
        colour_materials
            .as_ref()
            .and_then(|all| all.get(&m.0))
            .and_then(|m| m.texture.as_ref())
            .is_some_and(|t| images.contains(&t.id()))
    };
    if !meshes.is_empty() || !materials.is_empty() || !images.is_empty() {
        for (e, mesh, material, aabb, parts, gtf) in &users {
            if meshes.contains(&mesh.id())
                || material.is_some_and(|m| materials.contains(&m.id()) || textured(m))
            {
                places.entity(&mut bounds, e, world_place(aabb, parts, gtf), gtf);
            }
        }
    }
    // An egui texture (its font atlas, with new glyphs) that reaches the
    // renderer a frame after the jobs that use it (see `finish`): what egui
    // changed on the last frame was drawn without it, and is drawn again.
    let egui_texture = events
        .egui_textures
        .as_ref()
        .is_some_and(|t| t.values().any(|t| images.contains(&t.handle.id())));
    let mut again_whole = false;
    if egui_texture {
        places.window.extend(retained.last_egui.iter().copied());
        again_whole = retained.last_whole;
    }
    if !images.is_empty() {
        for (e, sprite, aabb, gtf) in &sprites {
            if images.contains(&sprite.image.id()) {
                places.entity(&mut bounds, e, aabb.map(|a| vec![world_rect(a, gtf)]), gtf);
            }
        }
    }
    // Entities taken off the board: where they were.
    for e in removed
        .mesh
        .read()
        .chain(removed.sprite.read())
        .chain(removed.text.read())
    {
        match bounds.0.remove(&e) {
            Some(old) => places.left(Some(&old)),
            None => places.unknown = true,
        }
    }
    for e in removed.visibility.read() {
        places.left(bounds.0.get(&e));
    }
    // Every reader is read, so that old changes are not seen again.
    let whole_reasons = [
        // What the board camera looks at (streamer mode's chroma key).
        removed.layers.read().count() > 0,
        !board_layers.is_empty(),
        events.resized.read().count() > 0,
        clear.is_changed(),
        // A camera painting a texture (the map) changes what the board shows.
        other_cameras.iter().any(|c| c.is_active),
        moved,
        places.unknown,
        whole_frames.is_some(),
        again_whole,
    ];
    let mut whole = whole_reasons.iter().any(|r| *r);
    if retained.settle > 0 {
        retained.settle -= 1;
        whole = true;
    }
    let nothing = places.world.is_empty() && places.window.is_empty();
    let this = match Screen::new(&cam, gtf) {
        _ if whole => BoardDamage {
            straight: whole_frames.is_some(),
            ..BoardDamage::whole()
        },
        _ if nothing => BoardDamage::default(),
        Some(screen) => {
            let mut rects = places.window;
            rects.extend(places.world.into_iter().map(|r| screen.rect(r)));
            let d = damage::damage(&rects, screen.size());
            BoardDamage {
                ground: d.whole || places.ground,
                ..d
            }
        }
        None => BoardDamage::whole(),
    };
    retained.last_egui = egui_now;
    retained.last_whole = this.whole;
    let changed = this.draws();
    if changed {
        retained.drawn += 1;
        if this.whole {
            let size = cam.physical_target_size().unwrap_or_default();
            retained.shaded += u64::from(size.x) * u64::from(size.y);
        } else {
            retained.partial += 1;
            retained.shaded += this.rects.iter().map(damage::area).sum::<u64>();
        }
    } else {
        retained.kept += 1;
    }
    // The camera is off on a kept frame (Bevy then skips its visibility,
    // extraction and phases). This runs before the frame's visibility is
    // computed: on the frame it is on again, the board's entities are seen
    // by it, extracted and queued again into its rebuilt phases (decided
    // after the visibility, the meshes that had not changed were never
    // queued again and were missing from every later frame; found by
    // `tests/present.rs`).
    if cam.is_active != changed {
        cam.is_active = changed;
    }
    // egui drawn only inside the rectangles (none on a kept frame).
    if !this.whole
        && let Some((out, _)) = &mut egui_out
    {
        out.paint_jobs = damage::cut_jobs(&out.paint_jobs, &this.rects, ppp);
    }
    if *damage != this {
        *damage = this;
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
            .init_resource::<Bounds>()
            .init_resource::<BoardDamage>()
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

    fn drawing(app: &mut App, _cam: Entity) -> bool {
        app.update();
        app.world().resource::<BoardDamage>().draws()
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
