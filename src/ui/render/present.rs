//! The board camera's own render schedule on the board: Bevy's 2D main
//! passes and egui's pass, each limited to the frame's changed rectangles
//! (`damage::BoardDamage`) by a scissor, over the kept picture.
//!
//! The board's layers come in two parts. The ground (the map, terrain
//! marks, Fortifications, counters, markers, night and smoke: everything
//! under `z::OVERLAY`) is drawn into a picture of its own, the ground
//! picture, and kept there; the overlays (what follows the mouse: hover and
//! selection outlines, the LOS thread, the move path, the facing and
//! decision marks) are drawn over a copy of it. A drawn frame:
//!
//! 1. the ground: on a whole frame, or where something of it changed
//!    (`BoardDamage::ground`), the ground picture gets the table colour
//!    (copied from a texture cleared with it: the bytes a clear writes)
//!    and the ground's layers in the rectangles (or whole); then the
//!    rectangles (or the whole picture) are copied into the window's
//!    texture;
//! 2. the overlays: the transparent phase's items from `z::OVERLAY` up,
//!    with a scissor on each rectangle;
//! 3. egui: its stock pass draws its paint jobs cut to the rectangles
//!    (`damage::cut_jobs`: each job's clip rectangle intersected with each
//!    rectangle, the jobs outside them left out).
//!
//! Every pixel inside a rectangle is drawn as a whole frame draws it (the
//! ground as the same draws left it, then the same overlays and egui), and
//! every pixel outside keeps what the last frame drew there, which did not
//! change. When the mouse moves, a frame copies the ground and draws a
//! handful of overlays instead of every counter and label again.
//!
//! `BoardDamage::straight` (screenshots, and the whole frames that
//! `tests/present.rs` compares the kept pictures with) draws every layer
//! straight into the window instead, as does a frame whose transparent
//! phase cannot be cut at `z::OVERLAY` (`overlay_start`); the ground is
//! then drawn whole on the next frame that uses it.

use bevy::core_pipeline::core_2d::{AlphaMask2d, Opaque2d, Transparent2d};
use bevy::ecs::schedule::{ScheduleBuildSettings, ScheduleLabel};
use bevy::prelude::*;
use bevy::render::RenderApp;
use bevy::render::camera::ExtractedCamera;
use bevy::render::extract_resource::ExtractResourcePlugin;
use bevy::render::render_phase::{
    BinnedRenderPhase, SortedRenderPhase, TrackedRenderPass, ViewBinnedRenderPhases,
    ViewSortedRenderPhases,
};
use bevy::render::render_resource::{
    CommandEncoder, Extent3d, LoadOp, Operations, Origin3d, RenderPassColorAttachment,
    RenderPassDescriptor, StoreOp, TexelCopyTextureInfo, Texture, TextureAspect, TextureDescriptor,
    TextureDimension, TextureFormat, TextureUsages, TextureView, TextureViewDescriptor,
};
use bevy::render::renderer::{RenderContext, ViewQuery};
use bevy::render::view::{ExtractedView, ViewDepthTexture, ViewTarget};

use super::damage::BoardDamage;
use crate::ui::board::z;

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
            .init_resource::<Kept>()
            .add_schedule(schedule)
            .add_systems(
                BoardGraph,
                (
                    ground_pass,
                    overlay_pass,
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

/// A texture of the window's size cleared with the table colour, for the
/// background of what is drawn again.
#[derive(Default)]
struct Backdrop {
    texture: Option<(Texture, Extent3d, TextureFormat, [u32; 4])>,
}

/// The render world's kept textures. The passes that draw read the world
/// whole (`&World`), so what they change is behind a lock.
#[derive(Resource, Default)]
struct Kept(std::sync::Mutex<(Backdrop, Ground)>);

/// The kept ground picture (see the module's comment).
#[derive(Default)]
struct Ground {
    texture: Option<(Texture, TextureView)>,
    /// It holds the ground as it is now (else the next drawn frame draws
    /// it whole: new, or a frame drew the layers without it).
    valid: bool,
    /// Where this frame's overlays begin in the transparent phase; none when
    /// this frame drew every layer straight into the window.
    overlays_from: Option<usize>,
}

/// A texture of the window's size and format that takes copies and draws.
fn window_texture(
    ctx: &mut RenderContext,
    label: &'static str,
    size: Extent3d,
    format: TextureFormat,
) -> Texture {
    ctx.render_device().create_texture(&TextureDescriptor {
        label: Some(label),
        size,
        mip_level_count: 1,
        sample_count: 1,
        dimension: TextureDimension::D2,
        format,
        usage: TextureUsages::RENDER_ATTACHMENT | TextureUsages::COPY_SRC | TextureUsages::COPY_DST,
        view_formats: &[],
    })
}

/// The table colour texture for this window and colour (made again when
/// either changes).
fn table_texture(
    ctx: &mut RenderContext,
    backdrop: &mut Backdrop,
    clear: &ClearColor,
    size: Extent3d,
    format: TextureFormat,
) -> Texture {
    // As Bevy converts a camera's clear colour for its main texture.
    let colour = LinearRgba::from(clear.0);
    let key = colour.to_f32_array().map(f32::to_bits);
    if let Some((texture, s, f, k)) = &backdrop.texture
        && *s == size
        && *f == format
        && *k == key
    {
        return texture.clone();
    }
    let texture = window_texture(ctx, "board_table_colour", size, format);
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
    backdrop.texture = Some((texture.clone(), size, format, key));
    texture
}

/// Copies the rectangles of one window-sized texture into another.
fn copy(encoder: &mut CommandEncoder, from: &Texture, to: &Texture, rects: &[URect]) {
    for r in rects {
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
            at(from),
            at(to),
            Extent3d {
                width: r.width(),
                height: r.height(),
                depth_or_array_layers: 1,
            },
        );
    }
}

/// Where the overlays begin among the transparent phase's items, given as
/// (z, the items its draw covers: a sprite batch's first item covers the
/// batch, the rest none), sorted by z: the first item at `z::OVERLAY` or
/// above (their count when there is none). None when a batch begun under
/// it reaches past it (two labels with the same font atlas on either
/// side): the ground's draw would then draw an overlay.
pub(crate) fn overlay_start(items: impl IntoIterator<Item = (f32, usize)>) -> Option<usize> {
    let mut covered = 0;
    let mut count = 0;
    for (i, (at, batch)) in items.into_iter().enumerate() {
        if at >= z::OVERLAY {
            return (covered <= i).then_some(i);
        }
        covered = covered.max(i + batch);
        count = i + 1;
    }
    (covered <= count).then_some(count)
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

/// A pass on a colour attachment and the board camera's depth, as Bevy's
/// 2D main passes begin theirs (the depth is cleared on its first pass of
/// the frame).
fn board_pass<'a>(
    ctx: &'a mut RenderContext,
    label: &'static str,
    camera: &ExtractedCamera,
    colour: RenderPassColorAttachment,
    depth: &ViewDepthTexture,
) -> TrackedRenderPass<'a> {
    let mut pass = ctx.begin_tracked_render_pass(RenderPassDescriptor {
        label: Some(label),
        color_attachments: &[Some(colour)],
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

/// The draws that follow limited to a rectangle.
fn cut(pass: &mut TrackedRenderPass, r: URect) {
    pass.set_scissor_rect(r.min.x, r.min.y, r.width(), r.height());
}

/// The whole window, as the one rectangle drawn in.
fn whole_window(size: Extent3d) -> Vec<URect> {
    vec![URect::new(0, 0, size.width, size.height)]
}

/// The rectangles a frame draws in: the whole window, or its changed ones.
fn frame_rects(damage: &BoardDamage, size: Extent3d) -> Vec<URect> {
    if damage.whole {
        whole_window(size)
    } else {
        damage.rects.clone()
    }
}

/// The board camera's 2D phases this frame.
#[derive(Clone, Copy)]
struct Phases<'a> {
    opaque: Option<&'a BinnedRenderPhase<Opaque2d>>,
    alpha_mask: Option<&'a BinnedRenderPhase<AlphaMask2d>>,
    transparent: Option<&'a SortedRenderPhase<Transparent2d>>,
}

/// The ground's draws (Bevy's opaque and alpha-mask 2D phases, then the
/// transparent phase's items before `upto`) in each rectangle.
fn draw_ground<'w>(
    pass: &mut TrackedRenderPass<'w>,
    (world, view): (&'w World, Entity),
    phases: &Phases,
    upto: usize,
    rects: &[URect],
) {
    let Phases {
        opaque,
        alpha_mask,
        transparent,
    } = *phases;
    for r in rects {
        cut(pass, *r);
        if let Some(p) = opaque.filter(|p| !p.is_empty())
            && let Err(err) = p.render(pass, world, view)
        {
            error!("the board's opaque 2D phase: {err:?}");
        }
        if let Some(p) = alpha_mask.filter(|p| !p.is_empty())
            && let Err(err) = p.render(pass, world, view)
        {
            error!("the board's alpha-mask 2D phase: {err:?}");
        }
        if let Some(p) = transparent.filter(|_| upto > 0)
            && let Err(err) = p.render_range(pass, world, view, ..upto)
        {
            error!("the board's transparent 2D phase: {err:?}");
        }
    }
}

/// Step 1: the ground picture brought up to date where it changed, and
/// copied into the window's texture in the frame's rectangles.
#[allow(clippy::too_many_arguments)]
fn ground_pass(
    world: &World,
    view: BoardView,
    opaque_phases: Res<ViewBinnedRenderPhases<Opaque2d>>,
    alpha_mask_phases: Res<ViewBinnedRenderPhases<AlphaMask2d>>,
    transparent_phases: Res<ViewSortedRenderPhases<Transparent2d>>,
    damage: Res<BoardDamage>,
    clear: Res<ClearColor>,
    kept: Res<Kept>,
    mut ctx: RenderContext,
) {
    let Ok(mut kept) = kept.0.lock() else {
        return;
    };
    let (backdrop, ground) = &mut *kept;
    ground.overlays_from = None;
    if !damage.draws() {
        return;
    }
    let view_entity = view.entity();
    let (camera, extracted_view, target, depth) = view.into_inner();
    let key = &extracted_view.retained_view_entity;
    let phases = Phases {
        opaque: opaque_phases.get(key),
        alpha_mask: alpha_mask_phases.get(key),
        transparent: transparent_phases.get(key),
    };
    let transparent = phases.transparent;
    let main = target.main_texture().clone();
    let size = main.size();
    let format = main.format();
    let table = table_texture(&mut ctx, backdrop, &clear, size, format);
    let rects = frame_rects(&damage, size);
    let split = match transparent {
        Some(p) => overlay_start(
            p.items
                .values()
                .map(|i| (i.sort_key.0, i.batch_range.len())),
        ),
        None => Some(0),
    };
    let Some(split) = split.filter(|_| !damage.straight) else {
        // Asked for, or a batch reaches across the overlays' start: every
        // layer straight into the window this frame, and the ground drawn
        // whole next time.
        ground.valid = false;
        copy(ctx.command_encoder(), &table, &main, &rects);
        let colour = target.get_color_attachment();
        let mut pass = board_pass(&mut ctx, "board_layers_2d", camera, colour, depth);
        let all = transparent.map_or(0, |p| p.items.len());
        draw_ground(&mut pass, (world, view_entity), &phases, all, &rects);
        return;
    };
    let fits = |t: &Texture| t.size() == size && t.format() == format;
    if !ground.texture.as_ref().is_some_and(|(t, _)| fits(t)) {
        let texture = window_texture(&mut ctx, "board_ground", size, format);
        let view = texture.create_view(&TextureViewDescriptor::default());
        ground.texture = Some((texture, view));
        ground.valid = false;
    }
    let Some((texture, texture_view)) = ground.texture.clone() else {
        return;
    };
    if damage.ground || !ground.valid {
        let redo = if ground.valid {
            rects.clone()
        } else {
            whole_window(size)
        };
        copy(ctx.command_encoder(), &table, &texture, &redo);
        let colour = RenderPassColorAttachment {
            view: &texture_view,
            depth_slice: None,
            resolve_target: None,
            ops: Operations {
                load: LoadOp::Load,
                store: StoreOp::Store,
            },
        };
        let mut pass = board_pass(&mut ctx, "board_ground_2d", camera, colour, depth);
        draw_ground(&mut pass, (world, view_entity), &phases, split, &redo);
        ground.valid = true;
    }
    copy(ctx.command_encoder(), &texture, &main, &rects);
    ground.overlays_from = Some(split);
}

/// Step 2: the overlays (the transparent phase from `z::OVERLAY` up) over
/// the ground in each rectangle.
fn overlay_pass(
    world: &World,
    view: BoardView,
    transparent_phases: Res<ViewSortedRenderPhases<Transparent2d>>,
    damage: Res<BoardDamage>,
    kept: Res<Kept>,
    mut ctx: RenderContext,
) {
    let Some(from) = kept.0.lock().ok().and_then(|k| k.1.overlays_from) else {
        return;
    };
    let view_entity = view.entity();
    let (camera, extracted_view, target, depth) = view.into_inner();
    let Some(phase) = transparent_phases.get(&extracted_view.retained_view_entity) else {
        return;
    };
    if from >= phase.items.len() {
        return;
    }
    let rects = frame_rects(&damage, target.main_texture().size());
    let colour = target.get_color_attachment();
    let mut pass = board_pass(&mut ctx, "board_overlays_2d", camera, colour, depth);
    for r in rects {
        cut(&mut pass, r);
        if let Err(err) = phase.render_range(&mut pass, world, view_entity, from..) {
            error!("the board's overlays: {err:?}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_overlays_begin_at_their_z_unless_a_batch_reaches_across() {
        let o = z::OVERLAY;
        // Meshes (one item a draw) under and over it.
        assert_eq!(
            overlay_start([(0.0, 1), (10.0, 1), (o, 1), (o + 1.0, 1)]),
            Some(2)
        );
        // Nothing over it: all ground; nothing at all.
        assert_eq!(overlay_start([(0.0, 1), (38.0, 1)]), Some(2));
        assert_eq!(overlay_start([]), Some(0));
        // Everything over it.
        assert_eq!(overlay_start([(o, 1), (o + 2.0, 1)]), Some(0));
        // A sprite batch of three under it, then an overlay.
        assert_eq!(
            overlay_start([(5.0, 3), (6.0, 0), (7.0, 0), (o, 1)]),
            Some(3)
        );
        // A label's batch begun under it takes in the overlay's label.
        assert_eq!(overlay_start([(20.0, 2), (o + 1.6, 0)]), None);
    }
}
