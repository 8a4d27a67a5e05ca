//! The first repeated key of a list (duplicate attributes, duplicate external attributes):
//! pairwise for a few keys, a hash set keyed by std's `RandomState` over the keys themselves for
//! more, so no document can choose which keys get compared. Expected comparisons grow linearly
//! with the number of keys (checked by `tests::comparisons_grow_linearly`).

use std::collections::HashSet;
use std::hash::{Hash, Hasher};

/// Up to this many keys are compared pairwise (at most 28 comparisons, no allocation).
const PAIRWISE: usize = 8;

/// The index of the first of the `n` keys `key(0)`, `key(1)`, ... that equals an earlier one.
#[inline]
pub(crate) fn first_repeat<K: Hash + Eq>(n: usize, key: impl Fn(usize) -> K) -> Option<usize> {
    if n <= PAIRWISE {
        return (1..n).find(|&x| {
            let k = key(x);
            (0..x).any(|y| {
                counter::count();
                key(y) == k
            })
        });
    }
    first_repeat_hashed(n, key)
}

#[cold]
fn first_repeat_hashed<K: Hash + Eq>(n: usize, key: impl Fn(usize) -> K) -> Option<usize> {
    let mut seen = HashSet::with_capacity(n);
    (0..n).find(|&x| !seen.insert(Counted(key(x))))
}

/// A key whose comparisons are counted in tests.
struct Counted<K>(K);

impl<K: Hash> Hash for Counted<K> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

impl<K: PartialEq> PartialEq for Counted<K> {
    fn eq(&self, other: &Counted<K>) -> bool {
        counter::count();
        self.0 == other.0
    }
}

impl<K: Eq> Eq for Counted<K> {}

/// A count of the name comparisons the crate makes where input decides how many there are
/// (duplicate checks, namespace prefix lookups), for the tests that show they grow linearly.
/// Outside tests it is nothing.
pub(crate) mod counter {
    #[cfg(test)]
    thread_local! {
        static COMPARISONS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    }

    /// Counts one comparison.
    #[inline(always)]
    pub(crate) fn count() {
        #[cfg(test)]
        COMPARISONS.with(|c| c.set(c.get() + 1));
    }

    /// The comparisons counted on this thread so far.
    #[cfg(test)]
    pub(crate) fn comparisons() -> u64 {
        COMPARISONS.with(std::cell::Cell::get)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_first_repeat() {
        for n in [0, 1, 2, 8, 9, 100] {
            let keys: Vec<usize> = (0..n).collect();
            assert_eq!(first_repeat(n, |i| keys[i]), None);
        }
        let keys = [1, 2, 3, 2, 1];
        assert_eq!(first_repeat(keys.len(), |i| keys[i]), Some(3));
        let keys: Vec<usize> = (0..50).chain([40, 7]).collect();
        assert_eq!(first_repeat(keys.len(), |i| keys[i]), Some(50));
    }

    /// Documents whose names collide under every hash in the crate: the same length, first and
    /// last byte (the namespace cache's slot), and nothing for the keyed `RandomState` to
    /// collide on that a document could choose. Comparisons grow linearly with their number,
    /// through the fast paths and without them.
    #[test]
    fn comparisons_grow_linearly() {
        fn name(i: usize) -> String {
            format!("p{i:07}z")
        }
        // One tag with n attributes.
        let attributes = |n: usize| {
            let attrs: String = (0..n).map(|i| format!(" {}='1'", name(i))).collect();
            format!("<a{attrs}/>")
        };
        // n nested elements, each declaring a prefix and in its namespace.
        let nested = |n: usize| {
            let open: String = (0..n)
                .map(|i| format!("<{0}:e xmlns:{0}='urn:{i}'>", name(i)))
                .collect();
            let close: String = (0..n).rev().map(|i| format!("</{}:e>", name(i))).collect();
            format!("{open}{close}")
        };
        // One tag with n prefixes declared and n external attributes.
        let external = |n: usize| {
            let decls: String = (0..n)
                .map(|i| format!(" xmlns:{}='urn:{i}'", name(i)))
                .collect();
            let attrs: String = (0..n).map(|i| format!(" {}:x='1'", name(i))).collect();
            format!("<a{decls}{attrs}/>")
        };
        let docs: [&dyn Fn(usize) -> String; 3] = [&attributes, &nested, &external];
        for (k, doc) in docs.iter().enumerate() {
            for fast in [true, false] {
                let count = |n: usize| {
                    let bytes = doc(n);
                    let before = counter::comparisons();
                    let mut reader = crate::Reader::from_bytes(bytes.as_bytes());
                    if !fast {
                        reader = reader.without_fast_paths();
                    }
                    while reader.next_event().expect("the document decodes").is_some() {}
                    counter::comparisons() - before
                };
                // At most a few comparisons per name at every size (a pairwise check would
                // make n * (n - 1) / 2: half a million for a thousand names).
                for n in [1000, 4000, 16000] {
                    let c = count(n);
                    assert!(
                        c <= 8 * n as u64,
                        "document {k}, fast paths {fast}: {c} comparisons for {n} names"
                    );
                }
            }
        }
    }
}
