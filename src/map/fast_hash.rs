//! A small, fast hasher for the engine's internal maps (keys are hexes,
//! hexsides and small tuples, never input an opponent could choose), in
//! place of the standard SipHash. The multiply-rotate scheme of rustc's
//! `FxHasher`, written here so the engine needs no extra crate. Only for
//! maps that are looked up, never for maps whose iteration order reaches
//! the game (that order would change with the hasher).

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// The hasher itself: each word is folded in by a rotate, xor and multiply.
#[derive(Debug, Clone, Copy, Default)]
pub struct FxHasher(u64);

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().unwrap_or([0; 8])));
        }
        for &b in chunks.remainder() {
            self.add(u64::from(b));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }
    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.add(u64::from(i));
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

pub type FxBuildHasher = BuildHasherDefault<FxHasher>;
pub type FxHashMap<K, V> = HashMap<K, V, FxBuildHasher>;
pub type FxHashSet<K> = HashSet<K, FxBuildHasher>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_keys_hash_equal_and_neighbours_differ() {
        let mut m: FxHashMap<(u8, u8), u32> = FxHashMap::default();
        for c in 0..20u8 {
            for r in 0..20u8 {
                m.insert((c, r), u32::from(c) * 100 + u32::from(r));
            }
        }
        assert_eq!(m.len(), 400);
        assert_eq!(m[&(7, 13)], 713);
        let h = |k: (u8, u8)| {
            let mut h = FxHasher::default();
            std::hash::Hash::hash(&k, &mut h);
            h.finish()
        };
        assert_eq!(h((3, 4)), h((3, 4)));
        assert_ne!(h((3, 4)), h((4, 3)));
    }
}
