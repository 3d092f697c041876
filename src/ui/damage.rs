//! What changed on screen in a frame, as rectangles of the window. A frame
//! where the mouse crosses a hex changes a few places (the old and new hover
//! outline, the LOS thread, the hex card's lines, the fire preview), not the
//! whole window; the board camera then draws its layers and egui only inside
//! those rectangles over the kept picture (`present`), which on a software
//! renderer costs the pixels shaded there instead of the whole window's.
//!
//! The rectangles come from what `retain` already watches: each drawn
//! entity's bounds before and after its change (kept per entity, in world
//! space), and egui's paint jobs that differ from the last drawn ones (their
//! bounds, cut to their clip rectangles). Anything whose place cannot be told
//! (the view moved, an image changed, an entity without bounds) draws the
//! whole board, as before.

use bevy::camera::primitives::Aabb;
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use bevy::render::extract_resource::ExtractResource;
use bevy_egui::egui;

/// The most rectangles a frame is drawn in (each costs a run of egui's pass;
/// more are merged).
pub const MAX_RECTS: usize = 4;

/// A frame whose changed rectangles cover more than this share of the
/// window is drawn whole (the rectangles would save little).
const WHOLE_SHARE: f32 = 0.7;

/// Pixels added around each changed place: rounding to whole pixels,
/// anti-aliased edges and text that reaches past its layout box.
const PAD: f32 = 2.0;

/// How the board camera draws this frame (read by the render world).
#[derive(Resource, Clone, Debug, Default, PartialEq, ExtractResource)]
pub struct BoardDamage {
    /// Clear the window and draw every layer and all of egui.
    pub whole: bool,
    /// Else: draw only inside these disjoint rectangles (physical pixels,
    /// top-left origin, `max` exclusive) over the kept picture.
    pub rects: Vec<URect>,
}

impl BoardDamage {
    pub fn whole() -> Self {
        Self {
            whole: true,
            rects: Vec::new(),
        }
    }

    /// Whether anything is drawn (else the kept picture is shown as it is).
    pub fn draws(&self) -> bool {
        self.whole || !self.rects.is_empty()
    }
}

/// Each drawn entity's bounds in world space when it was last seen, so that
/// the place it leaves is redrawn too.
#[derive(Resource, Debug, Default)]
pub struct Bounds(pub HashMap<Entity, Rect>);

/// An entity's bounds in world space (x, y), from its `Aabb`.
pub fn world_rect(aabb: &Aabb, gtf: &GlobalTransform) -> Rect {
    let c = Vec3::from(aabb.center);
    let h = Vec3::from(aabb.half_extents);
    let mut r = Rect::from_center_size(Vec2::ZERO, Vec2::ZERO);
    for (i, (sx, sy)) in [(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)]
        .into_iter()
        .enumerate()
    {
        let p = gtf
            .transform_point(c + Vec3::new(sx * h.x, sy * h.y, 0.0))
            .truncate();
        r = if i == 0 {
            Rect::from_center_size(p, Vec2::ZERO)
        } else {
            r.union_point(p)
        };
    }
    r
}

/// From world space to the window's pixels through the board camera.
pub struct Screen {
    clip_from_world: Mat4,
    size: Vec2,
}

impl Screen {
    pub fn new(camera: &Camera, gtf: &GlobalTransform) -> Option<Self> {
        let size = camera.physical_target_size()?.as_vec2();
        Some(Self {
            clip_from_world: camera.clip_from_view() * gtf.to_matrix().inverse(),
            size,
        })
    }

    /// The window pixels a world rectangle covers (padded; may be empty).
    pub fn rect(&self, r: Rect) -> Rect {
        let mut out: Option<Rect> = None;
        for p in [
            r.min,
            r.max,
            Vec2::new(r.min.x, r.max.y),
            Vec2::new(r.max.x, r.min.y),
        ] {
            let ndc = self.clip_from_world.project_point3(p.extend(0.0));
            let px = Vec2::new(
                (ndc.x + 1.0) * 0.5 * self.size.x,
                (1.0 - ndc.y) * 0.5 * self.size.y,
            );
            out = Some(out.map_or(Rect::from_center_size(px, Vec2::ZERO), |o| {
                o.union_point(px)
            }));
        }
        out.unwrap_or_default()
    }

    pub fn size(&self) -> Vec2 {
        self.size
    }
}

/// Whether two paint jobs paint the same.
fn same_job(x: &egui::ClippedPrimitive, y: &egui::ClippedPrimitive) -> bool {
    x.clip_rect == y.clip_rect
        && match (&x.primitive, &y.primitive) {
            (egui::epaint::Primitive::Mesh(m), egui::epaint::Primitive::Mesh(n)) => m == n,
            _ => false,
        }
}

/// Whether two egui outputs paint the same picture.
pub fn same_paint(a: &[egui::ClippedPrimitive], b: &[egui::ClippedPrimitive]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same_job(x, y))
}

/// The window pixels a paint job may touch: its mesh's bounds cut to its
/// clip rectangle; `None` for a job that is not a mesh (its place is not
/// known).
fn job_rect(job: &egui::ClippedPrimitive, pixels_per_point: f32) -> Option<Rect> {
    let egui::epaint::Primitive::Mesh(mesh) = &job.primitive else {
        return None;
    };
    let mut b = egui::Rect::NOTHING;
    for v in &mesh.vertices {
        b.extend_with(v.pos);
    }
    let b = b.intersect(job.clip_rect);
    if !b.is_positive() {
        return Some(Rect::default());
    }
    Some(Rect::new(
        b.min.x * pixels_per_point,
        b.min.y * pixels_per_point,
        b.max.x * pixels_per_point,
        b.max.y * pixels_per_point,
    ))
}

/// The places where egui's new output differs from the last one drawn (in
/// window pixels): every job between the longest common start and end of
/// the two lists, old and new. `None` when a changed job's place is not
/// known.
pub fn egui_changes(
    old: &[egui::ClippedPrimitive],
    new: &[egui::ClippedPrimitive],
    pixels_per_point: f32,
) -> Option<Vec<Rect>> {
    let start = old
        .iter()
        .zip(new)
        .take_while(|(x, y)| same_job(x, y))
        .count();
    let end = old[start..]
        .iter()
        .rev()
        .zip(new[start..].iter().rev())
        .take_while(|(x, y)| same_job(x, y))
        .count();
    old[start..old.len() - end]
        .iter()
        .chain(&new[start..new.len() - end])
        .map(|job| job_rect(job, pixels_per_point))
        .collect()
}

/// A clip rectangle in window pixels, rounded as bevy_egui's pass rounds
/// it.
fn clip_pixels(clip: egui::Rect, pixels_per_point: f32) -> URect {
    let px = |v: f32| (v * pixels_per_point).round() as u32;
    URect {
        min: UVec2::new(px(clip.min.x), px(clip.min.y)),
        max: UVec2::new(px(clip.max.x), px(clip.max.y)),
    }
}

/// egui's paint jobs for a frame drawn in rectangles: for each rectangle,
/// each job that reaches into it with its clip rectangle cut to it. Drawn
/// in this order with the stock pass, each pixel inside a rectangle gets
/// the jobs a whole frame gives it, in the same order, and nothing is drawn
/// outside. (Jobs that would reach nothing are left out: bevy_egui's pass
/// does not step over the vertices of a draw its scissor empties.)
pub fn cut_jobs(
    jobs: &[egui::ClippedPrimitive],
    rects: &[URect],
    pixels_per_point: f32,
) -> Vec<egui::ClippedPrimitive> {
    let mut out = Vec::new();
    for r in rects {
        for job in jobs {
            let cut = clip_pixels(job.clip_rect, pixels_per_point).intersect(*r);
            if cut.is_empty() {
                continue;
            }
            let point = |v: u32| v as f32 / pixels_per_point;
            out.push(egui::ClippedPrimitive {
                clip_rect: egui::Rect::from_min_max(
                    egui::pos2(point(cut.min.x), point(cut.min.y)),
                    egui::pos2(point(cut.max.x), point(cut.max.y)),
                ),
                primitive: job.primitive.clone(),
            });
        }
    }
    out
}

/// Window rectangles in whole pixels, padded and cut to the window; empty
/// ones dropped.
pub fn to_pixels(rects: &[Rect], size: Vec2) -> Vec<URect> {
    rects
        .iter()
        .filter(|r| r.width() > 0.0 || r.height() > 0.0)
        .map(|r| {
            let min = (r.min - PAD).floor().clamp(Vec2::ZERO, size);
            let max = (r.max + PAD).ceil().clamp(Vec2::ZERO, size);
            URect::from_corners(min.as_uvec2(), max.as_uvec2())
        })
        .filter(|r| !r.is_empty())
        .collect()
}

fn overlap(a: &URect, b: &URect) -> bool {
    a.min.x < b.max.x && b.min.x < a.max.x && a.min.y < b.max.y && b.min.y < a.max.y
}

/// A rectangle's pixels.
pub fn area(r: &URect) -> u64 {
    u64::from(r.width()) * u64::from(r.height())
}

/// Merges rectangles until no two overlap (a place drawn twice would blend
/// its translucent layers twice) and there are at most `max`: overlapping
/// ones first, then the pair whose union adds the least area.
pub fn merge(mut rects: Vec<URect>, max: usize) -> Vec<URect> {
    loop {
        let mut pair = None;
        'find: for i in 0..rects.len() {
            for j in i + 1..rects.len() {
                if overlap(&rects[i], &rects[j]) {
                    pair = Some((i, j));
                    break 'find;
                }
            }
        }
        if pair.is_none() && rects.len() > max.max(1) {
            let mut best = u64::MAX;
            for i in 0..rects.len() {
                for j in i + 1..rects.len() {
                    let u = rects[i].union(rects[j]);
                    let added = area(&u) - area(&rects[i]) - area(&rects[j]);
                    if added < best {
                        best = added;
                        pair = Some((i, j));
                    }
                }
            }
        }
        let Some((i, j)) = pair else {
            return rects;
        };
        let b = rects.swap_remove(j);
        rects[i] = rects[i].union(b);
    }
}

/// The frame's drawing from its changed places (window pixels): whole when
/// they cover most of the window.
pub fn damage(changed: &[Rect], size: Vec2) -> BoardDamage {
    let rects = merge(to_pixels(changed, size), MAX_RECTS);
    let covered: u64 = rects.iter().map(area).sum();
    if covered as f32 > WHOLE_SHARE * size.x * size.y {
        return BoardDamage::whole();
    }
    BoardDamage {
        whole: false,
        rects,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(x0: u32, y0: u32, x1: u32, y1: u32) -> URect {
        URect::new(x0, y0, x1, y1)
    }

    #[test]
    fn rectangles_are_merged_until_none_overlap_and_few_are_left() {
        // Two overlapping and one apart.
        let m = merge(vec![r(0, 0, 10, 10), r(5, 5, 20, 20), r(50, 50, 60, 60)], 4);
        assert_eq!(m, vec![r(0, 0, 20, 20), r(50, 50, 60, 60)]);
        // Touching edges do not overlap (`max` is exclusive).
        let m = merge(vec![r(0, 0, 10, 10), r(10, 0, 20, 10)], 4);
        assert_eq!(m.len(), 2);
        // Five apart, at most four: the two closest are joined.
        let m = merge(
            vec![
                r(0, 0, 10, 10),
                r(100, 0, 110, 10),
                r(200, 0, 210, 10),
                r(300, 0, 310, 10),
                r(311, 0, 321, 10),
            ],
            4,
        );
        assert_eq!(m.len(), 4);
        assert!(m.contains(&r(300, 0, 321, 10)));
        // A union that comes to overlap a third is merged with it too.
        let m = merge(vec![r(0, 0, 10, 10), r(20, 20, 30, 30), r(5, 25, 8, 28)], 1);
        assert_eq!(m, vec![r(0, 0, 30, 30)]);
    }

    #[test]
    fn changed_places_are_padded_cut_to_the_window_and_whole_when_large() {
        let size = Vec2::new(1000.0, 500.0);
        // Padded to whole pixels.
        let d = damage(&[Rect::new(66.2, 70.7, 126.5, 120.0)], size);
        assert_eq!(
            d,
            BoardDamage {
                whole: false,
                rects: vec![r(64, 68, 129, 122)]
            }
        );
        // Cut to the window.
        let d = damage(&[Rect::new(-30.0, 450.0, 5.0, 800.0)], size);
        assert_eq!(d.rects, vec![r(0, 448, 7, 500)]);
        // Nothing changed: nothing drawn.
        assert_eq!(damage(&[], size), BoardDamage::default());
        assert!(damage(&[Rect::new(0.0, 0.0, 900.0, 450.0)], size).whole);
    }

    fn job(x: f32, colour: egui::Color32) -> egui::ClippedPrimitive {
        let mut mesh = egui::Mesh::default();
        mesh.add_colored_rect(
            egui::Rect::from_min_size(egui::pos2(x, 10.0), egui::vec2(4.0, 4.0)),
            colour,
        );
        egui::ClippedPrimitive {
            clip_rect: egui::Rect::EVERYTHING,
            primitive: egui::epaint::Primitive::Mesh(mesh),
        }
    }

    /// The jobs with their clip rectangle set to `clip`.
    fn cut_again(
        jobs: &[&egui::ClippedPrimitive],
        clip: egui::Rect,
    ) -> Vec<egui::ClippedPrimitive> {
        jobs.iter()
            .map(|j| egui::ClippedPrimitive {
                clip_rect: clip,
                primitive: j.primitive.clone(),
            })
            .collect()
    }

    #[test]
    fn egui_jobs_are_cut_to_each_rectangle_in_order() {
        let red = egui::Color32::RED;
        let mut a = job(0.0, red);
        a.clip_rect = egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(50.0, 50.0));
        let b = job(20.0, egui::Color32::BLUE);
        let rects = [r(10, 10, 20, 20), r(60, 0, 70, 10)];
        let cut = cut_jobs(&[a.clone(), b.clone()], &rects, 2.0);
        // In pixels: `a` clips to 0..100, `b` to everything.
        let clips: Vec<egui::Rect> = cut.iter().map(|j| j.clip_rect).collect();
        assert_eq!(
            clips,
            vec![
                egui::Rect::from_min_max(egui::pos2(5.0, 5.0), egui::pos2(10.0, 10.0)),
                egui::Rect::from_min_max(egui::pos2(5.0, 5.0), egui::pos2(10.0, 10.0)),
                egui::Rect::from_min_max(egui::pos2(30.0, 0.0), egui::pos2(35.0, 5.0)),
                egui::Rect::from_min_max(egui::pos2(30.0, 0.0), egui::pos2(35.0, 5.0)),
            ]
        );
        // Each rectangle draws the jobs in their order.
        assert!(same_paint(&cut[..2], &cut_again(&[&a, &b], clips[0])));
        assert!(same_paint(&cut[2..], &cut_again(&[&a, &b], clips[2])));
        // A job outside every rectangle is left out.
        a.clip_rect = egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(4.0, 4.0));
        assert!(cut_jobs(&[a], &rects, 2.0).is_empty());
    }

    #[test]
    fn egui_changes_are_the_jobs_between_the_common_start_and_end() {
        let red = egui::Color32::RED;
        let old = vec![job(0.0, red), job(20.0, red), job(40.0, red)];
        assert_eq!(egui_changes(&old, &old, 1.0), Some(vec![]));
        // The middle one recoloured: its place, old and new.
        let new = vec![
            job(0.0, red),
            job(20.0, egui::Color32::BLUE),
            job(40.0, red),
        ];
        let rect = Rect::new(20.0, 10.0, 24.0, 14.0);
        assert_eq!(egui_changes(&old, &new, 1.0), Some(vec![rect, rect]));
        // One added at the end, at two pixels a point.
        let mut more = old.clone();
        more.push(job(60.0, red));
        assert_eq!(
            egui_changes(&old, &more, 2.0),
            Some(vec![Rect::new(120.0, 20.0, 128.0, 28.0)])
        );
        // A job cut away by its clip rectangle touches nothing.
        let mut clipped = job(80.0, red);
        clipped.clip_rect = egui::Rect::from_min_size(egui::pos2(0.0, 0.0), egui::vec2(5.0, 5.0));
        more.push(clipped);
        assert_eq!(egui_changes(&old, &more, 1.0).map(|v| v.len()), Some(2));
    }
}
