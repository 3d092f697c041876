//! Map coordinates: hex labels as printed on wargame maps (`C6`), built on hexx.
//!
//! The map is flat-topped. Columns are lettered A, B, C… west to east; rows are
//! numbered 1, 2, 3… north to south; the 2nd, 4th… columns (B, D, F…) sit
//! half a hex south of their neighbours.

use hexx::{Hex, HexOrientation, OffsetHexMode};

use super::schema::{MapEdge, Side6};

/// Column and row of a hex, both counted from zero (`A1` is `(0, 0)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Coord {
    pub col: u8,
    pub row: u8,
}

/// Why a label is not a hex.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LabelError {
    /// Not a column letter followed by a row number.
    Malformed,
    /// A real label, but outside this map.
    OffMap { columns: u8, rows: u8 },
}

impl Coord {
    pub fn new(col: u8, row: u8) -> Self {
        Coord { col, row }
    }

    /// Parses `C6` (any case) on a map of the given size.
    pub fn parse(label: &str, columns: u8, rows: u8) -> Result<Coord, LabelError> {
        let label = label.trim();
        let mut chars = label.chars();
        let letter = chars.next().ok_or(LabelError::Malformed)?;
        if !letter.is_ascii_alphabetic() {
            return Err(LabelError::Malformed);
        }
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 3 || !digits.chars().all(|c| c.is_ascii_digit()) {
            return Err(LabelError::Malformed);
        }
        let col = letter.to_ascii_uppercase() as u8 - b'A';
        let row: u16 = digits.parse().map_err(|_| LabelError::Malformed)?;
        if row == 0 || row > u16::from(rows) || col >= columns {
            return Err(LabelError::OffMap { columns, rows });
        }
        Ok(Coord::new(col, (row - 1) as u8))
    }

    /// The printed label, `C6`.
    pub fn label(self) -> String {
        let mut s = String::with_capacity(8);
        self.push_label(&mut s);
        s
    }

    /// Appends the printed label to `out`, as [`Coord::label`] writes it,
    /// without formatting machinery (labels go into nearly every event).
    pub fn push_label(self, out: &mut String) {
        out.push((b'A' + self.col) as char);
        let row = u16::from(self.row) + 1;
        let mut digits = [0u8; 5];
        let mut n = row;
        let mut i = digits.len();
        loop {
            i -= 1;
            digits[i] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        for d in &digits[i..] {
            out.push(*d as char);
        }
    }

    /// The hexx coordinate of this hex.
    pub fn hex(self) -> Hex {
        Hex::from_offset_coordinates(
            [i32::from(self.col), i32::from(self.row)],
            OffsetHexMode::Odd,
            HexOrientation::Flat,
        )
    }

    /// Back from a hexx coordinate, if it lies on a map of this size.
    pub fn from_hex(hex: Hex, columns: u8, rows: u8) -> Option<Coord> {
        let [c, r] = hex.to_offset_coordinates(OffsetHexMode::Odd, HexOrientation::Flat);
        (c >= 0 && r >= 0 && c < i32::from(columns) && r < i32::from(rows))
            .then(|| Coord::new(c as u8, r as u8))
    }

    /// The neighbour through a hexside, if it is on the map.
    pub fn neighbour(self, side: Side6, columns: u8, rows: u8) -> Option<Coord> {
        Coord::from_hex(self.hex() + side_vector(side), columns, rows)
    }

    /// Distance in hexes.
    pub fn distance(self, other: Coord) -> u32 {
        self.hex().unsigned_distance_to(other.hex())
    }

    /// The hexside of `self` shared with an adjacent `other`.
    pub fn side_towards(self, other: Coord) -> Option<Side6> {
        let d = other.hex() - self.hex();
        Side6::ALL.into_iter().find(|s| side_vector(*s) == d)
    }

    /// Is this hex on the given map edge?
    pub fn on_edge(self, edge: MapEdge, columns: u8, rows: u8) -> bool {
        match edge {
            MapEdge::North => self.row == 0,
            MapEdge::South => self.row + 1 == rows,
            MapEdge::West => self.col == 0,
            MapEdge::East => self.col + 1 == columns,
        }
    }
}

/// The axial step through each hexside, with rows growing southward.
pub fn side_vector(side: Side6) -> Hex {
    match side {
        Side6::N => Hex::new(0, -1),
        Side6::S => Hex::new(0, 1),
        Side6::Ne => Hex::new(1, -1),
        Side6::Se => Hex::new(1, 0),
        Side6::Nw => Hex::new(-1, 0),
        Side6::Sw => Hex::new(-1, 1),
    }
}

impl Side6 {
    pub fn opposite(self) -> Side6 {
        match self {
            Side6::N => Side6::S,
            Side6::S => Side6::N,
            Side6::Ne => Side6::Sw,
            Side6::Sw => Side6::Ne,
            Side6::Se => Side6::Nw,
            Side6::Nw => Side6::Se,
        }
    }
}

/// Expands a hex list entry: a single label (`C6`) or a rectangle (`C6:E8`).
pub fn expand(entry: &str, columns: u8, rows: u8) -> Result<Vec<Coord>, LabelError> {
    match entry.split_once(':') {
        None => Coord::parse(entry, columns, rows).map(|c| vec![c]),
        Some((a, b)) => {
            let a = Coord::parse(a, columns, rows)?;
            let b = Coord::parse(b, columns, rows)?;
            let mut out = Vec::new();
            for col in a.col.min(b.col)..=a.col.max(b.col) {
                for row in a.row.min(b.row)..=a.row.max(b.row) {
                    out.push(Coord::new(col, row));
                }
            }
            Ok(out)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_round_trip() {
        let c = Coord::parse("C6", 16, 12).unwrap();
        assert_eq!(c, Coord::new(2, 5));
        assert_eq!(c.label(), "C6");
        assert_eq!(Coord::parse("p12", 16, 12).unwrap().label(), "P12");
        assert_eq!(
            Coord::parse("Z99", 16, 12),
            Err(LabelError::OffMap {
                columns: 16,
                rows: 12
            })
        );
        assert_eq!(Coord::parse("6C", 16, 12), Err(LabelError::Malformed));
        // Every label is the formatted one, up to three-digit rows.
        for col in 0..26u8 {
            for row in [0u8, 8, 9, 10, 98, 99, 100, 254, 255] {
                let c = Coord::new(col, row);
                let printed = format!("{}{}", (b'A' + col) as char, u16::from(row) + 1);
                assert_eq!(c.label(), printed);
            }
        }
        assert_eq!(Coord::parse("", 16, 12), Err(LabelError::Malformed));
    }

    #[test]
    fn neighbours_follow_the_printed_map() {
        // A, C, E… sit higher than B, D, F…
        let ring = |label: &str| -> Vec<String> {
            let c = Coord::parse(label, 16, 12).unwrap();
            Side6::ALL
                .into_iter()
                .map(|s| c.neighbour(s, 16, 12).unwrap().label())
                .collect()
        };
        // Sides in the order N, NE, SE, S, SW, NW.
        assert_eq!(ring("C3"), ["C2", "D2", "D3", "C4", "B3", "B2"]);
        assert_eq!(ring("D3"), ["D2", "E3", "E4", "D4", "C4", "C3"]);
        assert_eq!(
            Coord::parse("A1", 16, 12)
                .unwrap()
                .neighbour(Side6::N, 16, 12),
            None
        );
    }

    #[test]
    fn rectangles_expand() {
        let v = expand("C6:D7", 16, 12).unwrap();
        let labels: Vec<String> = v.into_iter().map(Coord::label).collect();
        assert_eq!(labels, ["C6", "C7", "D6", "D7"]);
    }
}
