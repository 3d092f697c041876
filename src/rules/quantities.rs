//! Game quantities with their own types, so a movement cost can never be
//! added to a firepower by accident.

use std::fmt;
use std::ops::{Add, AddAssign, Sub};

/// Firepower (R 6.0). May fall below zero while modifiers are summed; an
/// attack at below 1 may still fire within normal Range (R 6.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Fp(pub i16);

impl Add for Fp {
    type Output = Fp;
    fn add(self, o: Fp) -> Fp {
        Fp(self.0 + o.0)
    }
}

impl AddAssign for Fp {
    fn add_assign(&mut self, o: Fp) {
        self.0 += o.0;
    }
}

impl Sub for Fp {
    type Output = Fp;
    fn sub(self, o: Fp) -> Fp {
        Fp(self.0 - o.0)
    }
}

impl fmt::Display for Fp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Movement Points, counted in sixths so that halves (Wheat 1.5) and thirds
/// (Road 2/3) add exactly (R 5.0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Mp(pub u16);

impl Mp {
    pub const SIXTHS: u16 = 6;

    pub fn whole(n: u16) -> Mp {
        Mp(n * Self::SIXTHS)
    }

    /// From a Player Aid value such as 1.5 or 0.6667, to the nearest sixth.
    pub fn from_aid(value: f32) -> Mp {
        Mp((value.max(0.0) * f32::from(Self::SIXTHS)).round() as u16)
    }

    pub fn as_f32(self) -> f32 {
        f32::from(self.0) / f32::from(Self::SIXTHS)
    }
}

impl Add for Mp {
    type Output = Mp;
    fn add(self, o: Mp) -> Mp {
        Mp(self.0 + o.0)
    }
}

impl AddAssign for Mp {
    fn add_assign(&mut self, o: Mp) {
        self.0 += o.0;
    }
}

impl fmt::Display for Mp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let whole = self.0 / Self::SIXTHS;
        let frac = match self.0 % Self::SIXTHS {
            0 => return write!(f, "{whole}"),
            1 => "\u{2159}",
            2 => "\u{2153}",
            3 => "\u{00bd}",
            4 => "\u{2154}",
            _ => "\u{215a}",
        };
        if whole == 0 {
            write!(f, "{frac}")
        } else {
            write!(f, "{whole}{frac}")
        }
    }
}

/// One labelled modifier of a breakdown (FP, Morale): "+3 Adjacent (PAC §2b)".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModLine {
    pub text: String,
    pub delta: i16,
    pub rule: &'static str,
}

impl fmt::Display for ModLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.delta < 0 {
            write!(f, "\u{2212}{} {} ({})", -self.delta, self.text, self.rule)
        } else {
            write!(f, "+{} {} ({})", self.delta, self.text, self.rule)
        }
    }
}

/// A Morale value (R 7.1): 10 or more passes with no roll; never below 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Morale(pub u8);

/// A distance in hexes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Hexes(pub u32);

/// A roll of the d10 (R 2.0): 1..=10, a "0" reads as 10.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct D10(pub u8);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movement_points_add_in_sixths() {
        let road = Mp::from_aid(0.6667);
        assert_eq!(road, Mp(4));
        assert_eq!(road + road + road, Mp::whole(2));
        assert_eq!(Mp::from_aid(1.5) + Mp::whole(1), Mp(15));
        assert_eq!(Mp::from_aid(1.5).to_string(), "1\u{00bd}");
        assert_eq!(road.to_string(), "\u{2154}");
        assert_eq!(Mp::whole(3).to_string(), "3");
    }
}
