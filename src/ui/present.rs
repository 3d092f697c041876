//! The board camera's own render schedule on the board: Bevy's 2D main
//! passes and egui's pass, each limited to the frame's changed rectangles
//! (`damage::BoardDamage`) by a scissor, over the kept picture.
//!
//! On a frame drawn whole it does what Bevy's `Core2d` does for this camera
//! (clear, opaque and alpha-mask phases, transparent phase, egui; its
//! tonemapping is off and its upscaling skipped, the present camera shows
//! the picture). On a frame with changed rectangles, the window is not
//! cleared: each rectangle gets the table colour copied from a texture
//! cleared with it (the same bytes a clear writes), then every layer is
//! drawn again with a scissor on it, then egui's stock pass draws egui's
//! paint jobs cut to the rectangles (`damage::cut_jobs`: each job's clip
//! rectangle intersected with each rectangle, the jobs outside them left
//! out). Every pixel inside a rectangle is drawn from the table colour up
//! by the same draws as a whole frame, and every pixel outside keeps what
//! the last frame drew there, which did not change.

use bevy::core_pipeline::core_2d::{AlphaMask2d, Opaque2d, Transparent2d};
use bevy::ecs::schedule::{ScheduleBuildSettings, ScheduleLabel};
use bevy::prelude::*;
use bevy::render::RenderApp;
use bevy::render::camera::ExtractedCamera;
use bevy::render::extract_resource::ExtractResourcePlugin;
use bevy::render::render_phase::{
    TrackedRenderPass, ViewBinnedRenderPhases, ViewSortedRenderPhases,
};
use bevy::render::render_resource::{
    Extent3d, LoadOp, Operations, Origin3d, RenderPassColorAttachment, RenderPassDescriptor,
    StoreOp, TexelCopyTextureInfo, Texture, TextureAspect, TextureDescriptor, TextureDimension,
    TextureFormat, TextureUsages, TextureViewDescriptor,
};
use bevy::render::renderer::{RenderContext, ViewQuery};
use bevy::render::view::{ExtractedView, ViewDepthTexture, ViewTarget};

use super::damage::BoardDamage;

/// The board camera's render schedule while the board keeps its picture.
#[derive(ScheduleLabel, Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct BoardGraph;

pub struct PresentPlugin;

impl Plugin for PresentPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<BoardDamage>()
            .add_plugins(ExtractResourcePlugin::<BoardDamage>::default());
        let Some(render_app) = app.get_sub_app_mut(RenderApp) else {
            return;
        };
        let mut schedule = Schedule::new(BoardGraph);
        schedule.set_build_settings(ScheduleBuildSettings {
            auto_insert_apply_deferred: false,
            ..default()
        });
        render_app
            .init_resource::<Backdrop>()
            .add_schedule(schedule)
            .add_systems(
                BoardGraph,
                (
                    table_colour,
                    opaque_pass,
                    transparent_pass,
                    (
                        bevy_egui::render::prepare_egui_pass,
                        bevy_egui::render::egui_pass,
                    )
                        .chain()
                        .run_if(drawing),
                )
                    .chain(),
            );
    }
}

/// Whether the board camera draws anything this frame (on a kept frame it
/// stays active but begins no pass: the kept picture is left as it is).
fn drawing(damage: Res<BoardDamage>) -> bool {
    damage.draws()
}

/// The scissors of this frame's draws: one run without a scissor on a
/// whole frame, else one per rectangle.
fn scissors(damage: &BoardDamage) -> Vec<Option<URect>> {
    if damage.whole {
        vec![None]
    } else {
        damage.rects.iter().copied().map(Some).collect()
    }
}

/// A texture of the window's size cleared with the table colour, for the
/// changed rectangles' background.
#[derive(Resource, Default)]
struct Backdrop {
    texture: Option<(Texture, Extent3d, TextureFormat, [u32; 4])>,
}

/// On a frame drawn in rectangles: the table colour into each of them
/// (copied from a texture cleared with it: the bytes a clear writes).
fn table_colour(
    damage: Res<BoardDamage>,
    view: ViewQuery<&ViewTarget>,
    clear: Res<ClearColor>,
    mut backdrop: ResMut<Backdrop>,
    mut ctx: RenderContext,
) {
    if damage.whole || damage.rects.is_empty() {
        return;
    }
    let target = view.into_inner();
    let main = target.main_texture();
    let size = main.size();
    let format = main.format();
    // As Bevy converts a camera's clear colour for its main texture.
    let colour = LinearRgba::from(clear.0);
    let key = colour.to_f32_array().map(f32::to_bits);
    let fresh =
        !matches!(&backdrop.texture, Some((_, s, f, k)) if *s == size && *f == format && *k == key);
    if fresh {
        let texture = ctx.render_device().create_texture(&TextureDescriptor {
            label: Some("board_table_colour"),
            size,
            mip_level_count: 1,
            sample_count: 1,
            dimension: TextureDimension::D2,
            format,
            usage: TextureUsages::RENDER_ATTACHMENT | TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let view = texture.create_view(&TextureViewDescriptor::default());
        ctx.begin_tracked_render_pass(RenderPassDescriptor {
            label: Some("board_table_colour"),
            color_attachments: &[Some(RenderPassColorAttachment {
                view: &view,
                depth_slice: None,
                resolve_target: None,
                ops: Operations {
                    load: LoadOp::Clear(colour.into()),
                    store: StoreOp::Store,
                },
            })],
            depth_stencil_attachment: None,
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        backdrop.texture = Some((texture, size, format, key));
    }
    let Some((texture, ..)) = &backdrop.texture else {
        return;
    };
    let encoder = ctx.command_encoder();
    for r in &damage.rects {
        let at = |t| TexelCopyTextureInfo {
            texture: t,
            mip_level: 0,
            origin: Origin3d {
                x: r.min.x,
                y: r.min.y,
                z: 0,
            },
            aspect: TextureAspect::All,
        };
        encoder.copy_texture_to_texture(
            at(texture),
            at(main),
            Extent3d {
                width: r.width(),
                height: r.height(),
                depth_or_array_layers: 1,
            },
        );
    }
}

/// The board camera's view, as Bevy's 2D main passes read it.
type BoardView<'w, 's> = ViewQuery<
    'w,
    's,
    (
        &'static ExtractedCamera,
        &'static ExtractedView,
        &'static ViewTarget,
        &'static ViewDepthTexture,
    ),
>;

/// A pass on the board camera's main texture and depth, as Bevy's 2D main
/// passes begin theirs (the colour is cleared on a whole frame's first
/// pass, the depth on every frame's).
fn board_pass<'a>(
    ctx: &'a mut RenderContext,
    label: &'static str,
    camera: &ExtractedCamera,
    target: &ViewTarget,
    depth: &ViewDepthTexture,
) -> TrackedRenderPass<'a> {
    let mut pass = ctx.begin_tracked_render_pass(RenderPassDescriptor {
        label: Some(label),
        color_attachments: &[Some(target.get_color_attachment())],
        depth_stencil_attachment: Some(depth.get_attachment(StoreOp::Store)),
        timestamp_writes: None,
        occlusion_query_set: None,
        multiview_mask: None,
    });
    if let Some(viewport) = camera.viewport.as_ref() {
        pass.set_camera_viewport(viewport);
    }
    pass
}

/// The draws that follow limited to a rectangle (none: the whole window).
fn cut(pass: &mut TrackedRenderPass, scissor: Option<URect>) {
    if let Some(r) = scissor {
        pass.set_scissor_rect(r.min.x, r.min.y, r.width(), r.height());
    }
}

/// Bevy's opaque and alpha-mask 2D pass (`main_opaque_pass_2d`), drawn once
/// per scissor.
fn opaque_pass(
    world: &World,
    view: BoardView,
    opaque_phases: Res<ViewBinnedRenderPhases<Opaque2d>>,
    alpha_mask_phases: Res<ViewBinnedRenderPhases<AlphaMask2d>>,
    damage: Res<BoardDamage>,
    mut ctx: RenderContext,
) {
    let view_entity = view.entity();
    let (camera, extracted_view, target, depth) = view.into_inner();
    let (Some(opaque), Some(alpha_mask)) = (
        opaque_phases.get(&extracted_view.retained_view_entity),
        alpha_mask_phases.get(&extracted_view.retained_view_entity),
    ) else {
        return;
    };
    if opaque.is_empty() && alpha_mask.is_empty() || !damage.draws() {
        return;
    }
    let mut pass = board_pass(&mut ctx, "board_opaque_pass_2d", camera, target, depth);
    for scissor in scissors(&damage) {
        cut(&mut pass, scissor);
        if !opaque.is_empty()
            && let Err(err) = opaque.render(&mut pass, world, view_entity)
        {
            error!("the board's opaque 2D phase: {err:?}");
        }
        if !alpha_mask.is_empty()
            && let Err(err) = alpha_mask.render(&mut pass, world, view_entity)
        {
            error!("the board's alpha-mask 2D phase: {err:?}");
        }
    }
}

/// Bevy's transparent 2D pass (`main_transparent_pass_2d`), drawn once per
/// scissor.
fn transparent_pass(
    world: &World,
    view: BoardView,
    transparent_phases: Res<ViewSortedRenderPhases<Transparent2d>>,
    damage: Res<BoardDamage>,
    mut ctx: RenderContext,
) {
    let view_entity = view.entity();
    let (camera, extracted_view, target, depth) = view.into_inner();
    let Some(phase) = transparent_phases.get(&extracted_view.retained_view_entity) else {
        return;
    };
    if !damage.draws() {
        return;
    }
    let mut pass = board_pass(&mut ctx, "board_transparent_pass_2d", camera, target, depth);
    if phase.items.is_empty() {
        return;
    }
    for scissor in scissors(&damage) {
        cut(&mut pass, scissor);
        if let Err(err) = phase.render(&mut pass, world, view_entity) {
            error!("the board's transparent 2D phase: {err:?}");
        }
    }
}
