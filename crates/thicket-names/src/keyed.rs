//! One hashing policy for names that come from the document (which an attacker chooses):
//! whatever decides which names are compared is either bounded (a few names compared pairwise)
//! or a keyed hash of the name bytes themselves, so no input can make names collide on purpose
//! and the number of comparisons stays linear in the input.
//!
//! - [`NameHasher`]: std's `RandomState` (SipHash with a fresh key per hasher) over a name, or
//!   over any `Hash` key made of names.
//! - [`PrehashedMap`]: a `HashMap` whose keys are such hashes already (its hasher,
//!   [`Prehashed`], passes them through), mapping a name's hash to what the caller keeps.
//! - [`KeyedIndex`]: the names of a list the caller keeps (a tag's attributes), indexed by
//!   keyed hash only once the list is long enough to need it; a key is compared only with the
//!   items of the same keyed hash (so, but for a 64-bit coincidence no input can arrange,
//!   only with its duplicate).
//!
//! ```
//! use thicket_names::keyed::KeyedIndex;
//! let names = ["id", "class", "href"];
//! let mut index = KeyedIndex::new();
//! let eq = |a: &str, b: &str| a == b;
//! assert!(index.contains("class", names.len(), |i| names[i], eq));
//! assert!(!index.contains("src", names.len(), |i| names[i], eq));
//! index.push_last(names.len()); // "src" is the list's next item
//! ```

use std::collections::HashMap;
use std::hash::{BuildHasher, BuildHasherDefault, Hash, Hasher, RandomState};

/// A keyed hash of names: std's `RandomState`, a fresh key per hasher.
#[derive(Clone, Debug, Default)]
pub struct NameHasher(RandomState);

impl NameHasher {
    /// A hasher with a fresh key.
    pub fn new() -> NameHasher {
        NameHasher(RandomState::new())
    }

    /// The keyed hash of `name`'s bytes.
    #[inline]
    pub fn hash_name(&self, name: &str) -> u64 {
        let mut h = self.0.build_hasher();
        h.write(name.as_bytes());
        h.finish()
    }

    /// The keyed hash of a name given as bytes (the same as [`NameHasher::hash_name`] for the
    /// same bytes).
    #[inline]
    pub fn hash_bytes(&self, name: &[u8]) -> u64 {
        let mut h = self.0.build_hasher();
        h.write(name);
        h.finish()
    }

    /// The keyed hash of any key made of names (a tuple of a namespace and a local name, say).
    #[inline]
    pub fn hash_one<K: Hash>(&self, key: K) -> u64 {
        self.0.hash_one(key)
    }
}

/// The hasher of a map whose keys are keyed hashes already: passes a `u64` through.
#[derive(Default, Clone, Copy, Debug)]
pub struct Prehashed(u64);

impl Hasher for Prehashed {
    fn write(&mut self, bytes: &[u8]) {
        // Only `u64` keys are hashed; fold anything else in anyway.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, i: u64) {
        self.0 = i;
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// A map from keyed hashes ([`NameHasher`]) to what the caller keeps for them.
pub type PrehashedMap<V> = HashMap<u64, V, BuildHasherDefault<Prehashed>>;

/// The keys of a list the caller keeps, indexed by keyed hash; see the module docs. The
/// list's items are added lazily, when a lookup needs them.
#[derive(Clone, Debug, Default)]
pub struct KeyedIndex {
    hasher: NameHasher,
    /// The keyed hash of each item of the list from 0 to `indexed`, to the first index that
    /// has it.
    index: PrehashedMap<u32>,
    indexed: usize,
    /// The hash of the key last looked for with [`KeyedIndex::contains`].
    last: u64,
}

impl KeyedIndex {
    /// An empty index with a fresh key.
    pub fn new() -> KeyedIndex {
        KeyedIndex {
            hasher: NameHasher::new(),
            index: PrehashedMap::default(),
            indexed: 0,
            last: 0,
        }
    }

    /// Forgets the list (a new tag). Cheap when the index was not used; an index grown large
    /// for one list is dropped rather than cleared slot by slot for every later one.
    pub fn clear(&mut self) {
        if self.indexed == 0 {
            return;
        }
        if self.index.capacity() > 4 * self.indexed.max(64) {
            self.index = PrehashedMap::default();
        } else {
            self.index.clear();
        }
        self.indexed = 0;
    }

    /// True when `key` equals (by `eq`) one of the list's `len` items (`item(i)` gives each).
    /// Every item not yet indexed is hashed and added first; `key` is compared only with items
    /// of the same keyed hash.
    pub fn contains<K: Hash + Copy>(
        &mut self,
        key: K,
        len: usize,
        item: impl Fn(usize) -> K,
        eq: impl Fn(K, K) -> bool,
    ) -> bool {
        while self.indexed < len {
            let h = self.hasher.hash_one(item(self.indexed));
            let i = u32::try_from(self.indexed).unwrap_or(u32::MAX);
            self.index.entry(h).or_insert(i);
            self.indexed += 1;
        }
        let h = self.hasher.hash_one(key);
        self.last = h;
        let Some(&first) = self.index.get(&h) else {
            return false;
        };
        if eq(item(first as usize), key) {
            return true;
        }
        // Two keys with one keyed hash: compare with every item (never happens on purpose).
        (0..len).any(|i| eq(item(i), key))
    }

    /// Adds the key last asked about with [`KeyedIndex::contains`] as the list's next item (at
    /// index `len`, the list's length before it).
    pub fn push_last(&mut self, len: usize) {
        if self.indexed == len {
            let i = u32::try_from(len).unwrap_or(u32::MAX);
            self.index.entry(self.last).or_insert(i);
            self.indexed += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_duplicates_in_a_growing_list() {
        let mut list: Vec<String> = Vec::new();
        let mut index = KeyedIndex::new();
        for i in 0..200 {
            let name = format!("n{}", i % 150);
            let found = index.contains(
                name.as_str(),
                list.len(),
                |k| list[k].as_str(),
                |a, b| a == b,
            );
            assert_eq!(found, i >= 150, "{name}");
            if !found {
                index.push_last(list.len());
                list.push(name);
            }
        }
        index.clear();
        assert!(!index.contains("n1", 0, |k| list[k].as_str(), |a, b| a == b));
    }

    #[test]
    fn keys_made_of_names_and_prehashed_maps() {
        let h = NameHasher::new();
        assert_eq!(h.hash_one(("urn:x", "a")), h.hash_one(("urn:x", "a")));
        assert_ne!(h.hash_one(("urn:x", "a")), h.hash_one(("urn:xa", "")));
        let mut map: PrehashedMap<u32> = PrehashedMap::default();
        map.insert(h.hash_name("p"), 1);
        assert_eq!(h.hash_bytes(b"p"), h.hash_name("p"));
        assert_eq!(map.get(&h.hash_name("p")), Some(&1));
        // Another hasher has another key.
        assert_ne!(NameHasher::new().hash_name("p"), h.hash_name("p"));
    }
}
