//! The d10 (R 2.0): seeded, so the same seed and the same orders give the
//! same game on every machine; tests and scripts may force the next rolls.

use std::collections::VecDeque;

use bevy::prelude::*;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

use crate::rules::D10;

#[derive(Resource, Debug, Clone)]
pub struct Dice {
    rng: ChaCha8Rng,
    forced: VecDeque<u8>,
}

impl Dice {
    pub fn seeded(seed: u64) -> Self {
        Dice {
            rng: ChaCha8Rng::seed_from_u64(seed),
            forced: VecDeque::new(),
        }
    }

    /// The next rolls will be these (1..=10), before any random roll.
    pub fn force(&mut self, rolls: impl IntoIterator<Item = u8>) {
        self.forced
            .extend(rolls.into_iter().map(|r| r.clamp(1, 10)));
    }

    /// Rolls the d10: a "0" reads as 10 (R 2.0).
    /// Forced rolls not yet given.
    pub fn forced_left(&self) -> usize {
        self.forced.len()
    }

    pub fn d10(&mut self) -> D10 {
        match self.forced.pop_front() {
            Some(r) => D10(r),
            None => D10(self.rng.random_range(1..=10)),
        }
    }

    /// Where the dice stand: the random stream's word position and the
    /// forced rolls still waiting (the journal's state hash reads it).
    pub fn position(&self) -> (u128, Vec<u8>) {
        (
            self.rng.get_word_pos(),
            self.forced.iter().copied().collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_rolls_and_forced_rolls_come_first() {
        let mut a = Dice::seeded(7);
        let mut b = Dice::seeded(7);
        let ra: Vec<u8> = (0..50).map(|_| a.d10().0).collect();
        let rb: Vec<u8> = (0..50).map(|_| b.d10().0).collect();
        assert_eq!(ra, rb);
        assert!(ra.iter().all(|r| (1..=10).contains(r)));
        assert!(ra.contains(&1) && ra.contains(&10), "{ra:?}");
        let mut c = Dice::seeded(7);
        c.force([3, 10]);
        assert_eq!((c.d10(), c.d10(), c.d10()), (D10(3), D10(10), D10(ra[0])));
    }
}
