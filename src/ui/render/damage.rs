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
pub const MAX_RECTS: usize = 8;

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
    /// Something of the ground (the layers under `z::OVERLAY`) changed in
    /// the rectangles, so the kept ground picture is drawn again in them;
    /// else it is copied as it is and only the overlays and egui are drawn
    /// over it (`present`). A whole frame draws the ground whole.
    pub ground: bool,
    /// Every layer drawn straight into the window, without the ground
    /// picture (`retain::WholeFrames`: screenshots, and the reference that
    /// `tests/present.rs` compares the kept pictures with).
    pub straight: bool,
}

impl BoardDamage {
    pub fn whole() -> Self {
        Self {
            whole: true,
            rects: Vec::new(),
            ground: true,
            straight: false,
        }
    }

    /// Whether anything is drawn (else the kept picture is shown as it is).
    pub fn draws(&self) -> bool {
        self.whole || !self.rects.is_empty()
    }
}

/// Each drawn entity's place in world space when it was last seen (its
/// bounds, or its `Parts`), so that the place it leaves is redrawn too.
/// With it, whether the entity was drawn in the ground (under
/// `z::OVERLAY`), so that its leaving redraws the ground there.
#[derive(Resource, Debug, Default)]
pub struct Bounds(pub HashMap<Entity, (Vec<Rect>, bool)>);

/// A drawn entity's place, finer than its bounds, in its own space: boxes
/// that together cover everything it draws (the painter's shapes, a long
/// diagonal line in several pieces). Its changed place is these instead of
/// its `Aabb`, whose box around a diagonal line is mostly empty.
#[derive(Component, Debug, Clone, Default, PartialEq)]
pub struct Parts(pub Vec<Rect>);

/// An entity's bounds in world space (x, y), from its `Aabb`.
pub fn world_rect(aabb: &Aabb, gtf: &GlobalTransform) -> Rect {
    let c = Vec3::from(aabb.center);
    let h = Vec3::from(aabb.half_extents);
    world_box(c, h.truncate(), gtf)
}

/// A box of an entity's own space (centre, half size) in world space.
fn world_box(c: Vec3, h: Vec2, gtf: &GlobalTransform) -> Rect {
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

/// An entity's place in world space: its parts if it has them, else its
/// bounds (`None`: not known).
pub fn world_place(
    aabb: Option<&Aabb>,
    parts: Option<&Parts>,
    gtf: &GlobalTransform,
) -> Option<Vec<Rect>> {
    match (parts, aabb) {
        (Some(p), _) if !p.0.is_empty() => Some(
            p.0.iter()
                .map(|r| world_box(r.center().extend(0.0), r.half_size(), gtf))
                .collect(),
        ),
        (_, Some(a)) => Some(vec![world_rect(a, gtf)]),
        _ => None,
    }
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

/// The places where egui's new output differs from the last one drawn (in
/// window pixels). The jobs between the longest common start and end of
/// the two lists are taken apart into their triangles (with each one's clip
/// rectangle and texture), and the two lists of triangles are matched in
/// order (`matched`): a pixel that no unmatched triangle, old or new, may
/// touch is painted by the same triangles in the same order in both, so it
/// shows the same; only the unmatched triangles' places are returned
/// (`clusters`). `None` when a changed job's place is not known.
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
    let (old, new) = (
        Triangles::of(&old[start..old.len() - end])?,
        Triangles::of(&new[start..new.len() - end])?,
    );
    // Each triangle read once (broken ones match nothing).
    let (a, b): (Vec<Option<Triangle>>, Vec<Option<Triangle>>) = (
        (0..old.len()).map(|i| old.get(i)).collect(),
        (0..new.len()).map(|j| new.get(j)).collect(),
    );
    let Some((old_kept, new_kept)) = matched(a.len(), b.len(), MAX_EDITS, |i, j| {
        a[i].is_some() && a[i] == b[j]
    }) else {
        // Too much changed to match: every changed job's place.
        return Some(
            old.jobs
                .iter()
                .chain(&new.jobs)
                .map(|(clip, mesh)| mesh_rect(clip, mesh, pixels_per_point))
                .collect(),
        );
    };
    let mut out = clusters(&old, &old_kept, pixels_per_point);
    out.extend(clusters(&new, &new_kept, pixels_per_point));
    Some(out)
}

/// The most edits (triangles taken out or put in) `egui_changes` matches
/// two lists of triangles with; past it, the changed jobs' whole places
/// are redrawn (the matching's cost grows with the edits times the length).
const MAX_EDITS: usize = 600;

/// One painted triangle: its clip rectangle, texture and corners.
#[derive(Clone, Copy, PartialEq)]
struct Triangle {
    clip: egui::Rect,
    texture: egui::TextureId,
    corners: [egui::epaint::Vertex; 3],
}

/// The triangles of a run of paint jobs, in the order they are painted.
struct Triangles<'a> {
    jobs: Vec<(egui::Rect, &'a egui::Mesh)>,
    /// Each triangle's job and first index.
    at: Vec<(usize, usize)>,
}

impl<'a> Triangles<'a> {
    /// `None` when a job is not a mesh (its place is not known).
    fn of(jobs: &'a [egui::ClippedPrimitive]) -> Option<Self> {
        let mut out = Self {
            jobs: Vec::with_capacity(jobs.len()),
            at: Vec::new(),
        };
        for (n, job) in jobs.iter().enumerate() {
            let egui::epaint::Primitive::Mesh(mesh) = &job.primitive else {
                return None;
            };
            out.jobs.push((job.clip_rect, mesh));
            out.at
                .extend((0..mesh.indices.len() / 3).map(|t| (n, 3 * t)));
        }
        Some(out)
    }

    fn len(&self) -> usize {
        self.at.len()
    }

    /// The i-th triangle (`None` past the end or for an index outside its
    /// mesh, which then matches nothing).
    fn get(&self, i: usize) -> Option<Triangle> {
        let &(job, first) = self.at.get(i)?;
        let (clip, mesh) = self.jobs.get(job)?;
        let corner = |k: usize| {
            let index = *mesh.indices.get(first + k)?;
            mesh.vertices.get(index as usize).copied()
        };
        Some(Triangle {
            clip: *clip,
            texture: mesh.texture_id,
            corners: [corner(0)?, corner(1)?, corner(2)?],
        })
    }
}

/// The window pixels a triangle may touch (its corners' bounds cut to its
/// clip rectangle; empty if it touches none).
fn triangle_rect(t: &Triangle, pixels_per_point: f32) -> Rect {
    points_to_pixels(
        corner_bounds(&t.corners).intersect(t.clip),
        pixels_per_point,
    )
}

/// A triangle's corners' bounds, in points.
fn corner_bounds(corners: &[egui::epaint::Vertex; 3]) -> egui::Rect {
    let mut b = egui::Rect::NOTHING;
    for v in corners {
        b.extend_with(v.pos);
    }
    b
}

fn points_to_pixels(b: egui::Rect, pixels_per_point: f32) -> Rect {
    if !b.is_positive() {
        return Rect::default();
    }
    Rect::new(
        b.min.x * pixels_per_point,
        b.min.y * pixels_per_point,
        b.max.x * pixels_per_point,
        b.max.y * pixels_per_point,
    )
}

/// The places of the unmatched triangles of a list, those that follow each
/// other joined into one while that adds fewer pixels than a rectangle
/// costs (`RECT_PIXELS`: the glyphs of a changed line, the changed lines of
/// a card).
fn clusters(tris: &Triangles, kept: &[bool], pixels_per_point: f32) -> Vec<Rect> {
    let mut out: Vec<Rect> = Vec::new();
    let mut open: Option<Rect> = None;
    for (i, kept) in kept.iter().enumerate() {
        if *kept {
            continue;
        }
        // A triangle whose indices are broken: its job's whole place.
        let r = match tris.get(i) {
            Some(t) => triangle_rect(&t, pixels_per_point),
            None => tris
                .at
                .get(i)
                .and_then(|(job, _)| tris.jobs.get(*job))
                .map_or(Rect::default(), |(clip, mesh)| {
                    mesh_rect(clip, mesh, pixels_per_point)
                }),
        };
        if r.is_empty() {
            continue;
        }
        let pixels = |r: Rect| r.width() * r.height();
        open = Some(match open {
            Some(o) if pixels(o.union(r)) - pixels(o) - pixels(r) < RECT_PIXELS as f32 => {
                o.union(r)
            }
            Some(o) => {
                out.push(o);
                r
            }
            None => r,
        });
    }
    out.extend(open);
    out
}

/// The window pixels a mesh may touch, cut to its clip rectangle.
fn mesh_rect(clip: &egui::Rect, mesh: &egui::Mesh, pixels_per_point: f32) -> Rect {
    let mut b = egui::Rect::NOTHING;
    for v in &mesh.vertices {
        b.extend_with(v.pos);
    }
    points_to_pixels(b.intersect(*clip), pixels_per_point)
}

/// Which items of two lists (lengths `n` and `m`, `same(i, j)` comparing
/// the i-th of the first with the j-th of the second) belong to a longest
/// common subsequence of them, found with at most `max_edits` items taken
/// out or put in (Myers' O(ND) difference); `None` if more are needed.
pub fn matched(
    n: usize,
    m: usize,
    max_edits: usize,
    same: impl Fn(usize, usize) -> bool,
) -> Option<(Vec<bool>, Vec<bool>)> {
    let (n, m) = (n as isize, m as isize);
    let max = max_edits.min((n + m) as usize) as isize;
    let offset = max + 1;
    let at = |k: isize| (k + offset) as usize;
    // v[k]: the furthest x reached on diagonal k = x - y.
    let mut v = vec![0isize; 2 * max as usize + 3];
    // Before each edit count d, v on the diagonals -d..=d.
    let mut trace: Vec<Vec<isize>> = Vec::new();
    let snake = |mut x: isize, mut y: isize| {
        while x < n && y < m && same(x as usize, y as usize) {
            x += 1;
            y += 1;
        }
        x
    };
    let mut reached = None;
    'edits: for d in 0..=max {
        trace.push(v[at(-d)..=at(d)].to_vec());
        for k in (-d..=d).step_by(2) {
            let down = k == -d || (k != d && v[at(k - 1)] < v[at(k + 1)]);
            let x = if down { v[at(k + 1)] } else { v[at(k - 1)] + 1 };
            let x = snake(x, x - k);
            v[at(k)] = x;
            if x >= n && x - k >= m {
                reached = Some(d);
                break 'edits;
            }
        }
    }
    let last = reached?;
    let mut a = vec![false; n as usize];
    let mut b = vec![false; m as usize];
    let (mut x, mut y) = (n, m);
    for d in (0..=last).rev() {
        let seen = &trace[d as usize];
        let v = |k: isize| seen[(k + d) as usize];
        let k = x - y;
        let down = k == -d || (k != d && v(k - 1) < v(k + 1));
        let prev_k = if down { k + 1 } else { k - 1 };
        // Where this edit started (before it, at d = 0: the origin).
        let (px, py) = if d == 0 {
            (0, 0)
        } else {
            let px = v(prev_k);
            (px, px - prev_k)
        };
        // The snake after the edit: matched pairs.
        let (sx, sy) = if d == 0 {
            (0, 0)
        } else if down {
            (px, py + 1)
        } else {
            (px + 1, py)
        };
        while x > sx && y > sy {
            x -= 1;
            y -= 1;
            a[x as usize] = true;
            b[y as usize] = true;
        }
        x = px;
        y = py;
    }
    Some((a, b))
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
/// each job that reaches into it with its clip rectangle cut to it, and of
/// its mesh only the triangles that may touch it (`within`). Drawn in this
/// order with the stock pass, each pixel inside a rectangle gets the
/// triangles a whole frame gives it, in the same order and with the same
/// corners, and nothing is drawn outside. (Jobs that would reach nothing
/// are left out: bevy_egui's pass does not step over the vertices of a
/// draw its scissor empties. A triangle outside the rectangle would only
/// cost its set-up: the panels' text is thousands of them.)
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
            let primitive = match &job.primitive {
                egui::epaint::Primitive::Mesh(mesh) => {
                    let Some(mesh) = within(mesh, cut, pixels_per_point) else {
                        continue;
                    };
                    egui::epaint::Primitive::Mesh(mesh)
                }
                other => other.clone(),
            };
            let point = |v: u32| v as f32 / pixels_per_point;
            out.push(egui::ClippedPrimitive {
                clip_rect: egui::Rect::from_min_max(
                    egui::pos2(point(cut.min.x), point(cut.min.y)),
                    egui::pos2(point(cut.max.x), point(cut.max.y)),
                ),
                primitive,
            });
        }
    }
    out
}

/// Of a mesh, the triangles whose corners' bounds (in window pixels,
/// widened by a pixel) reach into `r`, in their order, with their corners
/// unchanged; `None` if there are none. A triangle left out covers no pixel
/// of `r`, so inside `r` the mesh paints what it painted whole.
fn within(mesh: &egui::Mesh, r: URect, pixels_per_point: f32) -> Option<egui::Mesh> {
    let (x0, y0) = (r.min.x as f32 - 1.0, r.min.y as f32 - 1.0);
    let (x1, y1) = (r.max.x as f32 + 1.0, r.max.y as f32 + 1.0);
    let mut out = egui::Mesh::with_texture(mesh.texture_id);
    // Each vertex's index in `out`, once it is taken.
    let mut taken: Vec<u32> = vec![u32::MAX; mesh.vertices.len()];
    for t in mesh.indices.chunks_exact(3) {
        let mut corners = [egui::epaint::Vertex::default(); 3];
        for (c, &i) in corners.iter_mut().zip(t) {
            // A broken index: the mesh as it is (its place is not known).
            let Some(v) = mesh.vertices.get(i as usize) else {
                return Some(mesh.clone());
            };
            *c = *v;
        }
        let b = corner_bounds(&corners);
        let (lo, hi) = (b.min * pixels_per_point, b.max * pixels_per_point);
        if hi.x < x0 || lo.x > x1 || hi.y < y0 || lo.y > y1 {
            continue;
        }
        for (&i, c) in t.iter().zip(&corners) {
            let slot = &mut taken[i as usize];
            if *slot == u32::MAX {
                *slot = out.vertices.len() as u32;
                out.vertices.push(*c);
            }
            out.indices.push(*slot);
        }
    }
    (!out.indices.is_empty()).then_some(out)
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
/// ones first, then the pair whose union adds the least area. Every step
/// leaves one rectangle fewer.
fn unions(mut rects: Vec<URect>, max: usize) -> Vec<URect> {
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
            pair = cheapest_pairs(&rects, 1).first().map(|(_, i, j)| (*i, *j));
        }
        let Some((i, j)) = pair else {
            return rects;
        };
        let b = rects.swap_remove(j);
        rects[i] = rects[i].union(b);
    }
}

/// The pairs of rectangles by the pixels their union adds to theirs, the
/// cheapest first (at most `n`).
fn cheapest_pairs(rects: &[URect], n: usize) -> Vec<(u64, usize, usize)> {
    let mut best: Vec<(u64, usize, usize)> = Vec::with_capacity(n + 1);
    for i in 0..rects.len() {
        for j in i + 1..rects.len() {
            let u = rects[i].union(rects[j]);
            let added = area(&u).saturating_sub(area(&rects[i]) + area(&rects[j]));
            if best.len() == n && best.last().is_some_and(|b| b.0 <= added) {
                continue;
            }
            let at = best.partition_point(|b| b.0 <= added);
            best.insert(at, (added, i, j));
            best.truncate(n);
        }
    }
    best
}

/// Pairs `merge` tries to join in a round.
const TRIES: usize = 8;

/// What drawing one more rectangle costs, in pixels drawn: each rectangle
/// copies the ground and runs the overlays' draws and egui's pass again
/// (their vertices and set-up), so two rectangles whose union adds fewer
/// pixels than this are drawn as one. With every layer drawn again in each
/// rectangle this was 40 000 (and at most 4); with the ground copied, 4 000
/// and at most 8 shade about half the pixels and measured cheaper
/// (docs/performance.md's history in git, "Sweep frames, round 6").
pub const RECT_PIXELS: u64 = 4_000;

/// Rectangles that cover the changed places, at most `max`, no two
/// overlapping (a place drawn twice would blend its translucent layers
/// twice). Overlapping ones are cut apart first (`disjoint`: no pixel is
/// added, so the pieces of a long diagonal line stay pieces); then, while
/// there are more than `max` or two whose union adds fewer pixels than a
/// rectangle costs (`RECT_PIXELS`), the cheapest pair whose union, with the
/// others cut apart from it, leaves fewer rectangles is joined. When none
/// does and there are still too many, by unions alone (`unions`).
pub fn merge(rects: Vec<URect>, max: usize) -> Vec<URect> {
    let max = max.max(1);
    let mut rects = disjoint(&rects);
    'rounds: loop {
        for (added, i, j) in cheapest_pairs(&rects, TRIES) {
            if rects.len() <= max && added >= RECT_PIXELS {
                return rects;
            }
            // The others are apart from each other already: only the union
            // cuts them.
            let joined = rects[i].union(rects[j]);
            let cut_by_joined = |rects: &[URect]| {
                let mut out = vec![joined];
                for (k, r) in rects.iter().enumerate() {
                    if k != i && k != j {
                        out.extend(subtract(*r, &joined));
                    }
                }
                out
            };
            let next = cut_by_joined(&rects);
            if next.len() < rects.len() {
                rects = next;
                continue 'rounds;
            }
        }
        return if rects.len() > max {
            unions(rects, max)
        } else {
            rects
        };
    }
}

/// The parts of `r` outside `o` (none if `o` covers it; `r` itself if they
/// do not overlap): the bands above and below `o`, and beside it.
fn subtract(r: URect, o: &URect) -> impl Iterator<Item = URect> {
    let cut = overlap(&r, o);
    let (top, bottom) = (r.min.y.max(o.min.y), r.max.y.min(o.max.y));
    let parts = if cut {
        [
            URect::new(r.min.x, r.min.y, r.max.x, top),
            URect::new(r.min.x, bottom, r.max.x, r.max.y),
            URect::new(r.min.x, top, o.min.x.max(r.min.x), bottom),
            URect::new(o.max.x.min(r.max.x), top, r.max.x, bottom),
        ]
    } else {
        [r, URect::default(), URect::default(), URect::default()]
    };
    parts.into_iter().filter(|p| !p.is_empty())
}

/// The same pixels as `rects`, in rectangles that do not overlap: each
/// one cut by those before it.
fn disjoint(rects: &[URect]) -> Vec<URect> {
    let mut out: Vec<URect> = Vec::new();
    for r in rects {
        let mut pieces = vec![*r];
        for o in &out {
            pieces = pieces.into_iter().flat_map(|p| subtract(p, o)).collect();
        }
        out.extend(pieces);
    }
    out
}

/// The changed places gathered into boxes: each place joins a box whose
/// union with it adds fewer pixels than a rectangle costs (`RECT_PIXELS`),
/// until no two boxes would. `merge` joins pairs one at a time, weighing
/// every pair each time (cubic in the places); a frame where the mouse
/// crosses a hex has 100–200 places (the hex card's changed glyphs, the
/// LOS thread's pieces, the outlines), which took it 2–11 ms. Gathered
/// first, it weighs a handful of boxes. Every pixel of a place is in a box.
pub fn cluster(places: Vec<URect>) -> Vec<URect> {
    let mut boxes = places;
    loop {
        let before = boxes.len();
        let mut out: Vec<URect> = Vec::with_capacity(before);
        for mut r in boxes {
            // Take in every box it is worth joining, then keep it.
            let mut k = 0;
            while k < out.len() {
                let u = out[k].union(r);
                if area(&u) < area(&out[k]) + area(&r) + RECT_PIXELS {
                    r = u;
                    out.swap_remove(k);
                    k = 0;
                } else {
                    k += 1;
                }
            }
            out.push(r);
        }
        boxes = out;
        if boxes.len() == before {
            return boxes;
        }
    }
}

/// The frame's drawing from its changed places (window pixels): whole when
/// they cover most of the window.
pub fn damage(changed: &[Rect], size: Vec2) -> BoardDamage {
    let rects = merge(cluster(to_pixels(changed, size)), MAX_RECTS);
    let covered: u64 = rects.iter().map(area).sum();
    if covered as f32 > WHOLE_SHARE * size.x * size.y {
        return BoardDamage::whole();
    }
    BoardDamage {
        whole: false,
        rects,
        ground: false,
        straight: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(x0: u32, y0: u32, x1: u32, y1: u32) -> URect {
        URect::new(x0, y0, x1, y1)
    }

    /// Whether rectangles cover exactly the pixels of others, no two
    /// overlapping.
    fn same_pixels(parts: &[URect], of: &[URect]) -> bool {
        let inside = |rs: &[URect], x: u32, y: u32| {
            rs.iter()
                .filter(|r| (r.min.x..r.max.x).contains(&x) && (r.min.y..r.max.y).contains(&y))
                .count()
        };
        (0..64).all(|x| {
            (0..64).all(|y| {
                let n = inside(parts, x, y);
                n <= 1 && (n == 1) == (inside(of, x, y) > 0)
            })
        })
    }

    #[test]
    fn overlapping_rectangles_are_cut_apart_without_adding_pixels() {
        let (a, b) = (r(0, 0, 10, 10), r(5, 5, 20, 20));
        // b without a: the band below a and the piece beside it.
        assert_eq!(
            subtract(b, &a).collect::<Vec<_>>(),
            vec![r(5, 10, 20, 20), r(10, 5, 20, 10)]
        );
        // Inside: nothing left; apart: itself.
        assert_eq!(subtract(r(2, 2, 4, 4), &a).count(), 0);
        assert_eq!(
            subtract(r(30, 0, 40, 10), &a).collect::<Vec<_>>(),
            vec![r(30, 0, 40, 10)]
        );
        // A cross, a ring of four and a diagonal chain.
        for rects in [
            vec![r(0, 20, 60, 30), r(20, 0, 30, 60)],
            vec![
                r(0, 0, 40, 10),
                r(30, 0, 40, 40),
                r(0, 30, 40, 40),
                r(0, 0, 10, 40),
                r(5, 5, 35, 35),
            ],
            (0..8)
                .map(|i| r(6 * i, 6 * i, 6 * i + 10, 6 * i + 10))
                .collect(),
        ] {
            assert!(same_pixels(&disjoint(&rects), &rects));
        }
    }

    #[test]
    fn rectangles_are_merged_until_none_overlap_and_few_are_left() {
        // Two overlapping and one apart: cut apart (three pieces, no pixel
        // added), then the pieces whose union costs less than a rectangle
        // joined again; the far one stays apart.
        let m = merge(
            vec![r(0, 0, 10, 10), r(5, 5, 20, 20), r(500, 500, 510, 510)],
            4,
        );
        assert_eq!(m.len(), 2);
        assert!(m.contains(&r(0, 0, 20, 20)) && m.contains(&r(500, 500, 510, 510)));
        // Large ones overlapping at a corner stay cut apart: their union
        // would add more pixels than a rectangle costs.
        let (a, b) = (r(0, 0, 200, 200), r(100, 100, 600, 600));
        let m = merge(vec![a, b], 4);
        assert!(same_pixels(&m, &[a, b]));
        assert_eq!(m.iter().map(area).sum::<u64>(), 40_000 + 250_000 - 10_000);
        // Touching edges do not overlap (`max` is exclusive).
        let m = merge(vec![r(0, 0, 100, 100), r(100, 0, 200, 100)], 4);
        assert_eq!(m.iter().map(area).sum::<u64>(), 20_000);
        // Five apart, at most four: the two closest are joined.
        let apart = (0..4)
            .map(|i| r(1000 * i, 0, 1000 * i + 100, 100))
            .chain([r(3110, 0, 3210, 100)]);
        let m = merge(apart.collect(), 4);
        assert_eq!(m.len(), 4);
        assert!(m.contains(&r(3000, 0, 3210, 100)));
        // A diagonal chain of overlapping squares stays pieces along the
        // diagonal, not one box around it.
        let chain: Vec<URect> = (0..10)
            .map(|i| r(60 * i, 60 * i, 60 * i + 70, 60 * i + 70))
            .collect();
        let m = merge(chain.clone(), 4);
        assert!(m.len() <= 4);
        assert!(m.iter().map(area).sum::<u64>() < 670 * 670 / 2);
        // At most one.
        assert_eq!(merge(chain, 1), vec![r(0, 0, 610, 610)]);
    }

    #[test]
    fn places_are_gathered_into_boxes_worth_drawing_as_one() {
        // The glyphs of a changed line: one box.
        let glyphs: Vec<URect> = (0..20)
            .map(|i| r(900 + i * 8, 60, 907 + i * 8, 74))
            .collect();
        assert_eq!(cluster(glyphs), vec![r(900, 60, 1059, 74)]);
        // Two places far apart (a hover outline and the hex card) stay two.
        let apart = vec![r(0, 0, 50, 50), r(900, 600, 950, 650)];
        assert_eq!(cluster(apart.clone()).len(), 2);
        // Two columns not worth one box, joined through a third between
        // them, in any order.
        let (a, b) = (r(0, 0, 100, 300), r(400, 0, 500, 300));
        assert_eq!(cluster(vec![a, b]), vec![a, b]);
        let chain = [a, b, r(100, 0, 400, 300)];
        for order in [[0, 1, 2], [2, 1, 0], [1, 2, 0]] {
            let places: Vec<URect> = order.iter().map(|&i| chain[i]).collect();
            assert_eq!(cluster(places), vec![r(0, 0, 500, 300)]);
        }
        // Whatever it joins, every place is inside a box.
        let many: Vec<URect> = (0..150u32)
            .map(|i| {
                let (x, y) = ((i * 97) % 1200, (i * 61) % 700);
                r(x, y, x + 1 + i % 40, y + 1 + i % 30)
            })
            .collect();
        let boxes = cluster(many.clone());
        assert!(boxes.len() < many.len());
        for p in &many {
            assert!(boxes.iter().any(|b| b.union(*p) == *b), "{p:?}");
        }
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
                rects: vec![r(64, 68, 129, 122)],
                ground: false,
                straight: false,
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

    fn quads(clip: egui::Rect, at: &[egui::Rect]) -> egui::ClippedPrimitive {
        let mut mesh = egui::Mesh::default();
        for r in at {
            mesh.add_colored_rect(*r, egui::Color32::RED);
        }
        egui::ClippedPrimitive {
            clip_rect: clip,
            primitive: egui::epaint::Primitive::Mesh(mesh),
        }
    }

    #[test]
    fn egui_jobs_are_cut_to_each_rectangle_in_order() {
        let pts = |x0: f32, y0: f32, x1: f32, y1: f32| {
            egui::Rect::from_min_max(egui::pos2(x0, y0), egui::pos2(x1, y1))
        };
        // Points at 2 pixels a point: `a` clips to pixels 0..100, its two
        // squares at pixels 0..16 and (60..68, 0..8); `b` at (40..48,
        // 20..28).
        let (near, far) = (pts(0.0, 0.0, 8.0, 8.0), pts(30.0, 0.0, 34.0, 4.0));
        let a = quads(pts(0.0, 0.0, 50.0, 50.0), &[near, far]);
        let b = quads(egui::Rect::EVERYTHING, &[pts(20.0, 10.0, 24.0, 14.0)]);
        let rects = [r(10, 10, 20, 20), r(60, 0, 70, 10), r(38, 18, 50, 30)];
        let cut = cut_jobs(&[a.clone(), b.clone()], &rects, 2.0);
        // Each rectangle gets the jobs that reach into it, in their order,
        // clipped to it, with only their triangles that may touch it.
        let expected = vec![
            quads(pts(5.0, 5.0, 10.0, 10.0), &[near]),
            quads(pts(30.0, 0.0, 35.0, 5.0), &[far]),
            quads(pts(19.0, 9.0, 25.0, 15.0), &[pts(20.0, 10.0, 24.0, 14.0)]),
        ];
        assert!(same_paint(&cut, &expected));
        // A job outside every rectangle is left out.
        let clipped = quads(pts(0.0, 0.0, 4.0, 4.0), &[near]);
        assert!(cut_jobs(&[clipped], &rects, 2.0).is_empty());
        // A triangle just outside the rectangle's pixel is kept (its edge
        // may touch it); one further off is not.
        let edge = quads(egui::Rect::EVERYTHING, &[pts(10.5, 0.0, 12.0, 4.0)]);
        assert_eq!(cut_jobs(&[edge], &[r(0, 0, 20, 8)], 2.0).len(), 1);
        let off = quads(egui::Rect::EVERYTHING, &[pts(11.5, 0.0, 12.0, 4.0)]);
        assert!(cut_jobs(&[off], &[r(0, 0, 20, 8)], 2.0).is_empty());
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
        assert_eq!(
            egui_changes(&old, &more, 1.0),
            Some(vec![Rect::new(60.0, 10.0, 64.0, 14.0)])
        );
    }

    /// The items of a list kept by `matched`.
    fn kept<T: Copy>(items: &[T], flags: &[bool]) -> Vec<T> {
        items
            .iter()
            .zip(flags)
            .filter(|(_, k)| **k)
            .map(|(c, _)| *c)
            .collect()
    }

    #[test]
    fn two_lists_are_matched_on_a_longest_common_subsequence() {
        let (a, b): (Vec<char>, Vec<char>) =
            ("abcabba".chars().collect(), "cbabac".chars().collect());
        let (ka, kb) = matched(a.len(), b.len(), 20, |i, j| a[i] == b[j]).unwrap();
        // The same items in the same order, as many as can be (4: "baba",
        // "caba", "cbba"...), so 3 taken out and 2 put in.
        assert_eq!(kept(&a, &ka), kept(&b, &kb));
        assert_eq!(kept(&a, &ka).len(), 4);
        // Equal lists: all kept; empty ones: nothing to do.
        assert_eq!(
            matched(3, 3, 0, |i, j| i == j),
            Some((vec![true; 3], vec![true; 3]))
        );
        assert_eq!(matched(0, 0, 0, |_, _| false), Some((vec![], vec![])));
        // One put in at the start, one taken out at the end.
        let (a, b) = (['x', 'y', 'z'], ['w', 'x', 'y']);
        assert_eq!(
            matched(3, 3, 2, |i, j| a[i] == b[j]),
            Some((vec![true, true, false], vec![false, true, true]))
        );
        // More edits than allowed.
        assert_eq!(matched(3, 3, 1, |i, j| a[i] == b[j]), None);
        assert_eq!(
            matched(2, 2, 4, |_, _| false).map(|(a, _)| a),
            Some(vec![false; 2])
        );
    }

    /// A job of one mesh: a 4x4 square at each (x, y) in red, in order.
    fn squares(at: &[(f32, f32)]) -> egui::ClippedPrimitive {
        let mut mesh = egui::Mesh::default();
        for (x, y) in at {
            mesh.add_colored_rect(
                egui::Rect::from_min_size(egui::pos2(*x, *y), egui::vec2(4.0, 4.0)),
                egui::Color32::RED,
            );
        }
        egui::ClippedPrimitive {
            clip_rect: egui::Rect::EVERYTHING,
            primitive: egui::epaint::Primitive::Mesh(mesh),
        }
    }

    #[test]
    fn within_a_changed_job_only_its_changed_triangles_are_redrawn() {
        // A card of four lines of three glyphs each.
        let lines = |third: f32| {
            let mut at = Vec::new();
            for (row, y) in [0.0, 10.0, 20.0, 30.0].into_iter().enumerate() {
                let x0 = if row == 2 { third } else { 0.0 };
                at.extend([(x0, y), (x0 + 6.0, y), (x0 + 12.0, y)]);
            }
            squares(&at)
        };
        let old = vec![lines(0.0)];
        // The third line moves right: its old and new place, not the card's.
        let new = vec![lines(100.0)];
        assert_eq!(
            egui_changes(&old, &new, 1.0),
            Some(vec![
                Rect::new(0.0, 20.0, 16.0, 24.0),
                Rect::new(100.0, 20.0, 116.0, 24.0)
            ])
        );
        // A glyph taken out of the first line: the indices of every later
        // triangle shift, their corners do not; only that glyph's place.
        let mut fewer = squares(&[(0.0, 0.0), (12.0, 0.0)]);
        let egui::epaint::Primitive::Mesh(rest) = &lines(0.0).primitive else {
            unreachable!()
        };
        let egui::epaint::Primitive::Mesh(m) = &mut fewer.primitive else {
            unreachable!()
        };
        let mut rest = rest.clone();
        // Lines two to four of the card (glyphs 3..12, four corners each).
        rest.vertices.drain(..12);
        rest.indices.drain(..18);
        rest.indices.iter_mut().for_each(|i| *i -= 12);
        m.append(rest);
        assert_eq!(
            egui_changes(&old, &[fewer], 1.0),
            Some(vec![Rect::new(6.0, 0.0, 10.0, 4.0)])
        );
        // The same triangles with another clip rectangle or texture are not
        // the same: the whole card.
        let card = Rect::new(0.0, 0.0, 16.0, 34.0);
        let mut clipped = lines(0.0);
        clipped.clip_rect = egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(50.0, 25.0));
        assert_eq!(
            egui_changes(&old, &[clipped], 1.0),
            Some(vec![card, Rect::new(0.0, 0.0, 16.0, 24.0)])
        );
        let mut textured = lines(0.0);
        if let egui::epaint::Primitive::Mesh(m) = &mut textured.primitive {
            m.texture_id = egui::TextureId::User(1);
        }
        assert_eq!(egui_changes(&old, &[textured], 1.0), Some(vec![card, card]));
        // A glyph added in a job after another job, between two unchanged
        // jobs: only the glyph.
        let a = squares(&[(200.0, 0.0)]);
        let b = squares(&[(300.0, 0.0)]);
        let old = vec![a.clone(), lines(0.0), b.clone(), a.clone()];
        let mut more = lines(0.0);
        if let egui::epaint::Primitive::Mesh(m) = &mut more.primitive {
            m.add_colored_rect(
                egui::Rect::from_min_size(egui::pos2(18.0, 30.0), egui::vec2(4.0, 4.0)),
                egui::Color32::RED,
            );
        }
        let new = vec![a.clone(), more, b.clone(), a];
        assert_eq!(
            egui_changes(&old, &new, 1.0),
            Some(vec![Rect::new(18.0, 30.0, 22.0, 34.0)])
        );
    }

    #[test]
    fn too_many_changed_triangles_redraw_the_changed_jobs_whole() {
        let many = |x: f32| {
            let at: Vec<(f32, f32)> = (0..MAX_EDITS).map(|i| (x, i as f32 * 5.0)).collect();
            squares(&at)
        };
        let height = 5.0 * (MAX_EDITS - 1) as f32 + 4.0;
        assert_eq!(
            egui_changes(&[many(0.0)], &[many(10.0)], 1.0),
            Some(vec![
                Rect::new(0.0, 0.0, 4.0, height),
                Rect::new(10.0, 0.0, 14.0, height)
            ])
        );
    }
}
