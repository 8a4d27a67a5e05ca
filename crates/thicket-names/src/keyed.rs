//! The one hashing policy for names that come from the input: a keyed hash of the name bytes.
//!
//! A parser that looks names up in a hash table (duplicate attributes, open elements, namespace
//! prefixes) hashes them with the standard library's `RandomState` (SipHash with keys drawn per
//! table), over the name bytes themselves, so no input can choose names that collide and turn
//! the lookups quadratic. A table keyed by those hashes ([`ByKeyedHash`]) passes them through
//! ([`Prehashed`]) instead of hashing again; every hit is confirmed by comparing the names.
//!
//! ```
//! use thicket_names::keyed::{ByKeyedHash, KeyedHasher};
//! let mut keys = KeyedHasher::new();
//! let mut seen: ByKeyedHash<usize> = ByKeyedHash::default();
//! seen.insert(keys.hash(b"href"), 0);
//! assert_eq!(seen.get(&keys.hash(b"href")), Some(&0));
//! assert_eq!(keys.hash(b"href"), keys.hash(b"href"));
//! ```

use std::collections::HashMap;
use std::hash::{BuildHasher, BuildHasherDefault, Hasher, RandomState};

/// A keyed hash of name bytes. The keys are drawn the first time a name is hashed, so a parser
/// that never needs a table pays nothing for it.
#[derive(Clone, Debug, Default)]
pub struct KeyedHasher(Option<RandomState>);

impl KeyedHasher {
    /// A hasher whose keys are drawn on first use.
    pub const fn new() -> KeyedHasher {
        KeyedHasher(None)
    }

    /// The keyed hash of `name`: equal names hash equal under one `KeyedHasher`.
    #[inline]
    pub fn hash(&mut self, name: &[u8]) -> u64 {
        self.0.get_or_insert_with(RandomState::new).hash_one(name)
    }
}

/// A [`Hasher`] for keys that already are keyed hashes: `write_u64` hands the value through.
#[derive(Clone, Copy, Debug, Default)]
pub struct Prehashed(u64);

impl Hasher for Prehashed {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only `write_u64` is used by `u64` keys; this keeps the trait's contract otherwise.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// A map from keyed name hashes ([`KeyedHasher::hash`]) to `V`.
pub type ByKeyedHash<V> = HashMap<u64, V, BuildHasherDefault<Prehashed>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prehashed_passes_keys_through() {
        let mut h = Prehashed::default();
        h.write_u64(42);
        assert_eq!(h.finish(), 42);
        let mut a = KeyedHasher::new();
        let mut b = KeyedHasher::new();
        // Different keys: the same name hashes differently (with overwhelming probability).
        let names: Vec<u64> = (0..8).map(|i| a.hash(format!("n{i}").as_bytes())).collect();
        let other: Vec<u64> = (0..8).map(|i| b.hash(format!("n{i}").as_bytes())).collect();
        assert_ne!(names, other);
    }
}
