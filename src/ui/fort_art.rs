//! Fortifications and obstacles on the board (R 43.0-43.7), drawn so they
//! read with units on top of them: a Foxhole, Trench, Bunker, Pillbox or
//! Fortified Position is a thick ring just inside its hex with a named tab
//! over the counters; a Cave marks its two front hexsides (the only way in,
//! out, and for fire and LOS, R 43.4); a Roadblock is a
//! striped bar on the hexside it blocks (R 43.7); Wire is a barbed coil
//! round the hex (R 43.6), with the Trip Flare still waiting on it at Night.
//! A Concealed Fortification the viewer may not see (R 43.0: no unit of its
//! side in the hex) is a grey ring and a `FORT ?` tab, the same for every
//! kind, so nothing of it leaks.

use bevy::prelude::*;

use crate::scenario::Coord;
use crate::scenario::schema::{FortificationKind, SideId, Spine};
use crate::world::FortificationCounter;

use super::board::z;
use super::layout::{HEX_RADIUS, corners, hex_center, side_ends, side_midpoint};
use super::paint::Painter;
use super::palette as pal;

/// Layers: the rings, coils and the Cave's front hexsides under the
/// counters; the tabs, the Cave's chevrons and the Roadblock's bar over the
/// counters and their markers, under the Pacific chips (`ui::markers`,
/// z 30).
mod layer {
    pub const TOP: f32 = 27.0;
}

/// How far in from the hex's corners the ring and the Wire run.
const RING: f32 = 0.87;
/// The tab's type size and the width of one of its letters.
const TAB_TEXT: f32 = 8.5;
const TAB_LETTER: f32 = 5.9;

/// What a viewer may know of a Fortification counter (R 43.0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FortView {
    /// Only that a Concealed Fortification is there (its Concealed side).
    Hidden,
    /// The counter itself; `concealed` when it is still Concealed (seen by
    /// the side whose units hold it).
    Face { concealed: bool },
}

/// A Concealed Fortification shows its kind only to a side with a unit in
/// its hex (R 43.0; it loses its Concealment when unoccupied).
pub fn fort_view(f: &FortificationCounter, sides_here: &[SideId], viewer: SideId) -> FortView {
    if f.concealed && !sides_here.contains(&viewer) {
        FortView::Hidden
    } else {
        FortView::Face {
            concealed: f.concealed,
        }
    }
}

/// The words on the tab. `flare`: the Wire's Trip Flare has not gone up
/// yet in a Night scenario (R 43.6).
pub fn tab_text(kind: FortificationKind, view: FortView, flare: bool) -> &'static str {
    if view == FortView::Hidden {
        return "FORT ?";
    }
    match kind {
        FortificationKind::Foxhole => "FOXHOLE",
        FortificationKind::Trench => "TRENCH",
        FortificationKind::Bunker => "BUNKER",
        FortificationKind::Pillbox => "PILLBOX",
        FortificationKind::Cave => "CAVE",
        FortificationKind::SmallCave => "SMALL CAVE",
        FortificationKind::Wire if flare => "WIRE+FLARE",
        FortificationKind::Wire => "WIRE",
        FortificationKind::Roadblock => "ROADBLOCK",
        FortificationKind::Fortified => "FORTIFIED",
    }
}

/// The ring's colour: earth, concrete or stone by kind; one grey for every
/// Fortification the viewer may not see.
pub fn ring_colour(kind: FortificationKind, view: FortView) -> Color {
    if view == FortView::Hidden {
        return Color::srgb(0.42, 0.42, 0.45);
    }
    match kind {
        FortificationKind::Foxhole | FortificationKind::Trench => Color::srgb(0.55, 0.38, 0.18),
        FortificationKind::Bunker | FortificationKind::Pillbox => Color::srgb(0.70, 0.70, 0.64),
        FortificationKind::Fortified => Color::srgb(0.62, 0.56, 0.48),
        FortificationKind::Cave | FortificationKind::SmallCave => CAVE_ROCK,
        FortificationKind::Wire => WIRE_INK,
        FortificationKind::Roadblock => ROADBLOCK_RED,
    }
}

const CAVE_ROCK: Color = Color::srgb(0.22, 0.17, 0.13);
const CAVE_EDGE: Color = Color::srgb(0.96, 0.78, 0.30);
const WIRE_INK: Color = Color::srgb(0.12, 0.12, 0.13);
const WIRE_SHINE: Color = Color::srgb(0.78, 0.80, 0.84);
const ROADBLOCK_RED: Color = Color::srgb(0.82, 0.12, 0.10);
const ROADBLOCK_WHITE: Color = Color::srgb(0.96, 0.94, 0.88);
const CONCEAL_NAVY: Color = Color::srgb(0.16, 0.20, 0.34);
const FLARE_YELLOW: Color = Color::srgb(1.0, 0.90, 0.35);

/// The hexside a Roadblock blocks: the first hexside of its spine, as the
/// engine reads it (R 43.7, `engine::obstacles::roadblock_edge`). The bar's
/// two ends.
pub fn roadblock_bar(at: Coord, facing: Spine) -> (Vec2, Vec2) {
    side_ends(at, facing.sides()[0])
}

/// The Cave's two front hexsides (R 43.4): the sides of its spine, each as
/// its two ends.
pub fn cave_mouth(at: Coord, facing: Spine) -> [(Vec2, Vec2); 2] {
    facing.sides().map(|s| side_ends(at, s))
}

/// Where the tab sits: across the bottom of the hex, or across its top
/// when a Cave's counter leans down toward a lower spine.
pub fn tab_centre(at: Coord, kind: FortificationKind, facing: Option<Spine>) -> Vec2 {
    let down = kind.is_cave() && matches!(facing, Some(Spine::Sw | Spine::Se));
    let y = HEX_RADIUS * 0.72;
    hex_center(at) + Vec2::new(0.0, if down { y } else { -y })
}

/// Draws one Fortification or obstacle counter in `at` as `view` allows.
pub fn draw(
    p: &mut Painter,
    f: &FortificationCounter,
    at: Coord,
    view: FortView,
    flare: bool,
) -> Vec<Entity> {
    let mut out = Vec::new();
    let hidden = view == FortView::Hidden;
    let colour = ring_colour(f.kind, view);
    match (f.kind, f.facing) {
        _ if hidden => out.extend(ring(p, at, colour)),
        (FortificationKind::Wire, _) => out.extend(wire(p, at)),
        (FortificationKind::Roadblock, Some(spine)) => out.extend(roadblock(p, at, spine)),
        (k, Some(spine)) if k.is_cave() => out.extend(cave(p, at, spine)),
        _ => out.extend(ring(p, at, colour)),
    }
    let text = tab_text(f.kind, view, flare);
    let fill = match view {
        FortView::Hidden => Color::srgb(0.30, 0.30, 0.32),
        FortView::Face { concealed: true } => CONCEAL_NAVY,
        FortView::Face { concealed: false } => match f.kind {
            FortificationKind::Roadblock => ROADBLOCK_RED,
            k if k.is_cave() => CAVE_ROCK,
            _ => Color::srgb(0.36, 0.28, 0.16),
        },
    };
    let c = tab_centre(at, f.kind, f.facing);
    let w = 8.0 + TAB_LETTER * text.len() as f32;
    out.push(p.rect(c, Vec2::new(w + 2.0, 14.0), 0.0, pal::OUTLINE, layer::TOP));
    out.push(p.rect(c, Vec2::new(w, 12.0), 0.0, fill, layer::TOP + 0.01));
    if flare && !hidden {
        out.extend(flare_star(p, c + Vec2::new(w * 0.5 + 8.0, 0.0)));
    }
    out.push(p.text(text, c, TAB_TEXT, Color::WHITE, layer::TOP + 0.02));
    out
}

/// The corners of the ring, just inside the hex's own.
fn ring_corners(at: Coord) -> [Vec2; 6] {
    let centre = hex_center(at);
    corners(at).map(|k| centre.lerp(k, RING))
}

/// A thick ring just inside the hex: outline, then the kind's colour.
fn ring(p: &mut Painter, at: Coord, colour: Color) -> Vec<Entity> {
    let k = ring_corners(at);
    let mut out = Vec::new();
    for (width, ink, dz) in [(9.0, pal::OUTLINE, 0.0), (6.0, colour, 0.02)] {
        for i in 0..6 {
            out.push(p.line(k[i], k[(i + 1) % 6], width, ink, z::FORT + dz));
            out.push(p.circle(k[i], width * 0.5, ink, z::FORT + dz + 0.01));
        }
    }
    out
}

/// Barbed Wire round the hex (R 43.6): a coil of loops along the ring with
/// barbs, dark with a light glint so it reads on any terrain.
fn wire(p: &mut Painter, at: Coord) -> Vec<Entity> {
    let k = ring_corners(at);
    let centre = hex_center(at);
    let mut out = Vec::new();
    for i in 0..6 {
        let (a, b) = (k[i], k[(i + 1) % 6]);
        let along = b - a;
        let inward = (centre - (a + b) * 0.5).normalize_or_zero();
        let loops = 5;
        for j in 0..loops {
            // One loop: out, back across, and a barb.
            let t0 = j as f32 / loops as f32;
            let t1 = (j as f32 + 1.0) / loops as f32;
            let p0 = a + along * t0;
            let p1 = a + along * t1;
            let mid = (p0 + p1) * 0.5 + inward * 5.0;
            for (w, ink, dz) in [(3.2, WIRE_INK, 0.0), (1.2, WIRE_SHINE, 0.03)] {
                out.push(p.line(p0, mid, w, ink, z::FORT + dz));
                out.push(p.line(mid, p1, w, ink, z::FORT + dz));
            }
            let d = along.normalize_or_zero() * 2.5 + inward * 2.5;
            let e = along.normalize_or_zero() * 2.5 - inward * 2.5;
            out.push(p.line(p1 - d, p1 + d, 1.6, WIRE_INK, z::FORT + 0.05));
            out.push(p.line(p1 - e, p1 + e, 1.6, WIRE_INK, z::FORT + 0.05));
        }
    }
    out
}

/// The Roadblock's bar on its blocked hexside (R 43.7): red and white
/// stripes over a dark edge, with the counter's arrow pointing at it.
fn roadblock(p: &mut Painter, at: Coord, facing: Spine) -> Vec<Entity> {
    let (a, b) = roadblock_bar(at, facing);
    let centre = hex_center(at);
    let mid = (a + b) * 0.5;
    let inward = (centre - mid).normalize_or_zero();
    // The bar sits on the hexside, a little to the Roadblock's own side.
    let (a, b) = (a + inward * 2.0, b + inward * 2.0);
    let mut out = vec![p.line(a, b, 11.0, pal::OUTLINE, layer::TOP)];
    let stripes = 6;
    for i in 0..stripes {
        let t0 = i as f32 / stripes as f32;
        let t1 = (i as f32 + 1.0) / stripes as f32;
        let ink = if i % 2 == 0 {
            ROADBLOCK_RED
        } else {
            ROADBLOCK_WHITE
        };
        out.push(p.line(a.lerp(b, t0), a.lerp(b, t1), 7.0, ink, layer::TOP + 0.01));
    }
    let dir = -inward;
    let tip = mid + inward * 9.0;
    out.push(p.triangle(
        tip,
        Vec2::new(12.0, 8.0),
        dir.y.atan2(dir.x),
        pal::OUTLINE,
        layer::TOP,
    ));
    out.push(p.triangle(
        tip,
        Vec2::new(8.0, 5.0),
        dir.y.atan2(dir.x),
        ROADBLOCK_RED,
        layer::TOP + 0.01,
    ));
    out
}

/// A Cave (R 43.4): its two front hexsides, the only way in and out and
/// for fire and LOS, edged in yellow on dark rock just outside the hex,
/// meeting at the spine it points to, under the counters; and a yellow
/// chevron pointing out into each front hex, over them.
fn cave(p: &mut Painter, at: Coord, facing: Spine) -> Vec<Entity> {
    let centre = hex_center(at);
    let mut out = Vec::new();
    for (side, (a, b)) in facing.sides().into_iter().zip(cave_mouth(at, facing)) {
        let outward = (side_midpoint(at, side) - centre).normalize_or_zero();
        let (a, b) = (a + outward * 4.5, b + outward * 4.5);
        out.push(p.line(a, b, 10.0, CAVE_ROCK, z::FORT));
        out.push(p.line(a, b, 5.0, CAVE_EDGE, z::FORT + 0.02));
        out.push(p.circle(a, 5.0, CAVE_ROCK, z::FORT + 0.01));
        out.push(p.circle(b, 5.0, CAVE_ROCK, z::FORT + 0.01));
        // The chevrons lie beyond the counter of the unit in the Cave:
        // over the counters, so a unit in a front hex does not hide them.
        let tip = side_midpoint(at, side) + outward * 15.0;
        let angle = outward.y.atan2(outward.x);
        out.push(p.triangle(tip, Vec2::new(18.0, 12.0), angle, CAVE_ROCK, layer::TOP));
        out.push(p.triangle(
            tip,
            Vec2::new(12.0, 8.0),
            angle,
            CAVE_EDGE,
            layer::TOP + 0.01,
        ));
    }
    out
}

/// The Trip Flare still waiting on a Wire hex at Night (R 43.6): a small
/// star by the tab.
fn flare_star(p: &mut Painter, at: Vec2) -> Vec<Entity> {
    let mut out = vec![p.circle(at, 5.0, pal::OUTLINE, layer::TOP)];
    for i in 0..4 {
        let a = Vec2::from_angle(i as f32 * std::f32::consts::FRAC_PI_4 * 2.0 + 0.4);
        out.push(p.line(
            at - a * 6.5,
            at + a * 6.5,
            1.6,
            FLARE_YELLOW,
            layer::TOP + 0.01,
        ));
    }
    out.push(p.circle(at, 3.2, FLARE_YELLOW, layer::TOP + 0.02));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::schema::Side6;

    fn fort(kind: FortificationKind, concealed: bool) -> FortificationCounter {
        FortificationCounter {
            kind,
            facing: None,
            concealed,
        }
    }

    /// R 43.0: the Marines see a Concealed Bunker held by the Japanese only
    /// as a Concealed Fortification, the same as a Concealed Foxhole; the
    /// Japanese see their Bunker, marked Concealed; a Marine in the hex
    /// (or an unconcealed Bunker) shows it to the Marines.
    #[test]
    fn a_concealed_fortification_shows_nothing_of_its_kind_to_the_enemy() {
        let bunker = fort(FortificationKind::Bunker, true);
        let foxhole = fort(FortificationKind::Foxhole, true);
        let held = [SideId::Axis];
        let marines = fort_view(&bunker, &held, SideId::Allies);
        assert_eq!(marines, FortView::Hidden);
        assert_eq!(tab_text(bunker.kind, marines, false), "FORT ?");
        let fox = fort_view(&foxhole, &held, SideId::Allies);
        assert_eq!(
            (
                tab_text(foxhole.kind, fox, false),
                ring_colour(foxhole.kind, fox)
            ),
            (
                tab_text(bunker.kind, marines, false),
                ring_colour(bunker.kind, marines)
            )
        );
        let japanese = fort_view(&bunker, &held, SideId::Axis);
        assert_eq!(japanese, FortView::Face { concealed: true });
        assert_eq!(tab_text(bunker.kind, japanese, false), "BUNKER");
        assert_eq!(
            fort_view(&bunker, &[SideId::Axis, SideId::Allies], SideId::Allies),
            FortView::Face { concealed: true }
        );
        assert_eq!(
            fort_view(
                &fort(FortificationKind::Bunker, false),
                &held,
                SideId::Allies
            ),
            FortView::Face { concealed: false }
        );
        assert_ne!(
            ring_colour(FortificationKind::Bunker, japanese),
            ring_colour(FortificationKind::Foxhole, japanese)
        );
    }

    /// R 43.6: the tab says the Trip Flare is still to come at Night.
    #[test]
    fn wire_tab_names_its_trip_flare() {
        let seen = FortView::Face { concealed: false };
        assert_eq!(tab_text(FortificationKind::Wire, seen, true), "WIRE+FLARE");
        assert_eq!(tab_text(FortificationKind::Wire, seen, false), "WIRE");
    }

    /// R 43.7: the Roadblock in C3 of the roadblock ground points at spine
    /// NE; its bar lies on the hexside C3 shares with C2 (the northern
    /// one, the side fire from C1 crosses).
    #[test]
    fn the_roadblock_bar_lies_on_the_blocked_hexside() {
        let c3 = Coord::parse("C3", 8, 5).unwrap();
        let c2 = Coord::parse("C2", 8, 5).unwrap();
        let (a, b) = roadblock_bar(c3, Spine::Ne);
        let shared = (hex_center(c3) + hex_center(c2)) * 0.5;
        assert!(((a + b) * 0.5).distance(shared) < 0.01, "{a:?} {b:?}");
        assert!((a.distance(b) - HEX_RADIUS).abs() < 0.01);
        assert_eq!(c3.side_towards(c2), Some(Side6::N));
    }

    /// R 43.4: the Cave's marks lie on the hexsides it shares with the two
    /// front hexes the rules give it (Guadalcanal's Cave in K5 faces SW:
    /// J5 and K6), and on no other.
    #[test]
    fn the_cave_mouth_marks_the_sides_to_its_front_hexes() {
        let roster = crate::scenario::builtin_roster().unwrap();
        let aid = crate::scenario::builtin_player_aid().unwrap();
        let loaded = crate::world::load("guadalcanal", &roster, &aid).unwrap();
        let board = crate::world::Board::from_map(&loaded.scenario.map);
        let k5 = Coord::parse("K5", 16, 12).unwrap();
        let mut front = crate::rules::fortifications::cave_front(&board, k5).unwrap();
        front.sort();
        let expected: Vec<Coord> = ["J5", "K6"]
            .iter()
            .map(|l| Coord::parse(l, 16, 12).unwrap())
            .collect();
        assert_eq!(front, expected);
        let mut marked: Vec<Coord> = cave_mouth(k5, Spine::Sw)
            .iter()
            .filter_map(|(a, b)| {
                let mid = (*a + *b) * 0.5;
                Side6::ALL
                    .iter()
                    .filter_map(|s| k5.neighbour(*s, 16, 12))
                    .find(|n| ((hex_center(k5) + hex_center(*n)) * 0.5).distance(mid) < 0.01)
            })
            .collect();
        marked.sort();
        assert_eq!(marked, expected);
    }

    /// The tab moves to the top of the hex only for a Cave whose counter
    /// leans down to a lower spine.
    #[test]
    fn tab_sits_clear_of_a_cave_counter() {
        let c = Coord::parse("K5", 16, 12).unwrap();
        let centre = hex_center(c);
        let down = tab_centre(c, FortificationKind::Cave, Some(Spine::Sw));
        let up = tab_centre(c, FortificationKind::Cave, Some(Spine::W));
        let bunker = tab_centre(c, FortificationKind::Bunker, None);
        assert!(down.y > centre.y && up.y < centre.y && bunker.y < centre.y);
    }
}
