//! A fast hasher with no per-process seed, for the watch-key map.
//!
//! The map is only ever looked up by key, never iterated into any output, so the hash function
//! cannot change a result; it only has to be deterministic (no random seed) and cheap, because
//! every watch and every check-and-complete hashes its key. SipHash costs more than the rest of
//! a watch. Keys are the model's own (partitions, request numbers), so flooding is no concern.

use std::hash::{BuildHasherDefault, Hasher};

/// Multiply-rotate word hashing: each word is xored into the state, which is then multiplied by
/// an odd 64-bit constant (the golden-ratio family), so every input bit reaches the high bits
/// that the map's control bytes use.
#[derive(Clone, Copy, Default)]
pub struct WordHasher {
    state: u64,
}

const MULTIPLIER: u64 = 0x9e37_79b9_7f4a_7c15;

impl WordHasher {
    fn add_word(&mut self, word: u64) {
        self.state = (self.state.rotate_left(26) ^ word).wrapping_mul(MULTIPLIER);
    }
}

impl Hasher for WordHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.add_word(u64::from_le_bytes(chunk.try_into().expect("8 bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.add_word(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.add_word(u64::from(n));
    }

    fn write_u16(&mut self, n: u16) {
        self.add_word(u64::from(n));
    }

    fn write_u32(&mut self, n: u32) {
        self.add_word(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.add_word(n);
    }

    fn write_usize(&mut self, n: usize) {
        self.add_word(n as u64);
    }

    fn finish(&self) -> u64 {
        // The product's low bits see only the input's low bits; folding the high half down lets
        // every bit choose the bucket too.
        self.state ^ (self.state >> 32)
    }
}

pub type FixedState = BuildHasherDefault<WordHasher>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    fn hash<T: std::hash::Hash>(value: T) -> u64 {
        FixedState::default().hash_one(value)
    }

    #[test]
    fn same_input_same_hash_across_builders() {
        assert_eq!(hash(("t-0", 3u32)), hash(("t-0", 3u32)));
        assert_ne!(hash(("t-0", 3u32)), hash(("t-0", 4u32)));
        assert_ne!(hash("t-01"), hash("t-10"));
    }

    #[test]
    fn small_integers_spread_over_low_and_high_bits() {
        let hashes: Vec<u64> = (0u32..64).map(hash).collect();
        let low: std::collections::BTreeSet<u64> = hashes.iter().map(|h| h & 63).collect();
        let high: std::collections::BTreeSet<u64> = hashes.iter().map(|h| h >> 57).collect();
        assert!(low.len() > 32, "low bits collide: {low:?}");
        assert!(high.len() > 32, "high bits collide: {high:?}");
    }
}
