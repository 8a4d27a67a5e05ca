//! Name lookups of the tree builder that must stay linear on hostile input: duplicate attribute
//! checks and the open elements an end-tag may close.
//!
//! Ordinary documents hash nothing: a tag's attributes pass a 64-bit filter (length, first and
//! last byte) and are compared one by one up to 32; an end-tag that does not close the current
//! element is compared with the outermost 64 open elements. Past those, names are looked up by
//! a keyed hash of their bytes (the standard library's `RandomState`, with keys drawn per
//! builder), so no input can choose names that collide; a hit is confirmed by comparing the
//! names. The filter only decides whether a name is compared at all, never how many names are.
//! The keyed hash is the shared policy of `thicket_names::keyed`.

use thicket_names::keyed::{NameHasher, PrehashedMap};

/// Compares two names (counted in tests, to show that comparisons grow linearly).
#[inline]
pub(crate) fn same(a: &[u8], b: &[u8]) -> bool {
    #[cfg(test)]
    COMPARISONS.with(|c| c.set(c.get() + 1));
    a == b
}

#[cfg(test)]
thread_local! {
    /// Name comparisons made by this thread.
    pub(crate) static COMPARISONS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Duplicate checks for the attributes of one start-tag: a 64-bit filter answers "new" for most
/// names at once; otherwise the names are compared, one by one while there are few, then by
/// keyed hash (so duplicate checks stay linear overall).
#[derive(Debug, Default)]
pub(crate) struct SeenAttributes {
    /// One bit per name, from its length and its first and last bytes.
    filter: u64,
    /// Keyed hashes of the first `hashed` attribute names, once the tag has many, to where the
    /// first name with that hash is.
    hashes: PrehashedMap<usize>,
    hashed: usize,
    keys: NameHasher,
}

impl SeenAttributes {
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.filter = 0;
        if self.hashed > 0 {
            self.hashes.clear();
            self.hashed = 0;
        }
    }

    /// Whether the tag's attributes so far (`count` of them, the `i`th called `name_of(i)`)
    /// include one called `name`.
    #[inline]
    pub(crate) fn contains<'n>(
        &mut self,
        count: usize,
        name_of: impl Fn(usize) -> &'n [u8],
        name: &[u8],
    ) -> bool {
        let b = name;
        let key = b.len()
            ^ usize::from(b.first().copied().unwrap_or(0)).wrapping_mul(7)
            ^ usize::from(b.last().copied().unwrap_or(0)).wrapping_mul(13);
        let bit = 1u64 << (key % 64);
        let maybe = self.filter & bit != 0;
        self.filter |= bit;
        maybe && self.compare(count, name_of, name)
    }

    #[cold]
    fn compare<'n>(
        &mut self,
        count: usize,
        name_of: impl Fn(usize) -> &'n [u8],
        name: &[u8],
    ) -> bool {
        const LINEAR: usize = 32;
        if count < LINEAR {
            return (0..count).any(|i| same(name_of(i), name));
        }
        for i in self.hashed..count {
            let h = self.keys.hash_bytes(name_of(i));
            self.hashes.entry(h).or_insert(i);
        }
        self.hashed = count;
        match self.hashes.get(&self.keys.hash_bytes(name)) {
            None => false,
            Some(&i) if same(name_of(i), name) => true,
            // Two names with the same keyed hash (no input can make this happen on purpose).
            Some(_) => (0..count).any(|i| same(name_of(i), name)),
        }
    }
}

/// How many open elements (from the outermost) an end-tag that does not close the current
/// element is compared with one by one; deeper ones are looked up by keyed hash.
pub(crate) const SCANNED: usize = 64;

/// The names of the open elements past the first [`SCANNED`]: how many have each keyed hash.
#[derive(Debug, Default)]
pub(crate) struct DeepNames {
    counts: PrehashedMap<u32>,
    keys: NameHasher,
}

impl DeepNames {
    /// An element called `name` opened past the first [`SCANNED`].
    pub(crate) fn open(&mut self, name: &[u8]) {
        *self.counts.entry(self.keys.hash_bytes(name)).or_insert(0) += 1;
    }

    /// An element called `name` opened past the first [`SCANNED`] was closed.
    pub(crate) fn close(&mut self, name: &[u8]) {
        if let Some(n) = self.counts.get_mut(&self.keys.hash_bytes(name)) {
            *n = n.saturating_sub(1);
        }
    }

    /// Whether an element called `name` may be open past the first [`SCANNED`] (a keyed hash
    /// match: the caller confirms it by comparing names).
    pub(crate) fn may_be_open(&mut self, name: &[u8]) -> bool {
        if self.counts.is_empty() {
            return false;
        }
        let h = self.keys.hash_bytes(name);
        self.counts.get(&h).is_some_and(|&n| n > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2048))]

        /// The filter and the hashes give the answer of comparing every name, also past the
        /// linear limit.
        #[test]
        fn seen_attributes_agree_with_comparing_all(
            names in prop::collection::vec("[a-c]{1,3}|x[0-9]{1,2}", 0..60),
        ) {
            let mut seen = SeenAttributes::default();
            let mut kept: Vec<&str> = Vec::new();
            for name in &names {
                let expected = kept.contains(&name.as_str());
                let found = seen.contains(kept.len(), |i| kept[i].as_bytes(), name.as_bytes());
                prop_assert_eq!(found, expected, "{}", name);
                if !expected {
                    kept.push(name);
                }
            }
            seen.clear();
            prop_assert!(!seen.contains(0, |_| b"", b"a"));
        }
    }
}
