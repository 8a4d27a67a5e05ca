//! The first repeated key of a list (duplicate attributes, duplicate external attributes):
//! pairwise for a few keys (for names, up to [`PAIRWISE_NAMES`], with a cheap word of each name
//! compared first and the names only when their words are equal); past that, a hash set keyed
//! by std's `RandomState` over the keys themselves, so no document can choose which keys get
//! compared. Expected comparisons grow linearly with the number of keys (checked by
//! `tests::comparisons_grow_linearly`); a pairwise check is bounded by its size.

use std::collections::HashSet;
use std::hash::{Hash, Hasher};

/// Up to this many keys are compared pairwise (at most 28 comparisons, no allocation).
const PAIRWISE: usize = 8;

/// Up to this many names are compared pairwise by their words (at most 496 word comparisons,
/// no allocation, as the other dialects' pairwise checks of up to 32 names). A hash set
/// allocates and hashes every name: three times the instructions for the ten to thirty
/// attributes of an OSM node or a baseball box score.
pub(crate) const PAIRWISE_NAMES: usize = 32;

/// The index of the first of the `n` keys `key(0)`, `key(1)`, ... that equals an earlier one.
#[inline]
pub(crate) fn first_repeat<K: Hash + Eq>(n: usize, key: impl Fn(usize) -> K) -> Option<usize> {
    if n <= PAIRWISE {
        return first_repeat_pairwise(n, key);
    }
    first_repeat_hashed(n, key)
}

/// [`first_repeat`] for names (byte strings).
#[inline]
pub(crate) fn first_repeat_bytes<'k>(n: usize, key: impl Fn(usize) -> &'k [u8]) -> Option<usize> {
    if n <= PAIRWISE {
        return first_repeat_pairwise(n, key);
    }
    if n <= PAIRWISE_NAMES {
        return first_repeat_words(n, key);
    }
    first_repeat_hashed(n, key)
}

/// A word that equal names share: the length and the last eight bytes (or the whole name when
/// it is shorter). Unequal names may share it too; it only spares most comparisons of names.
#[inline]
fn name_word(b: &[u8]) -> u64 {
    let n = b.len();
    let load4 = |s: &[u8]| u64::from(u32::from_le_bytes([s[0], s[1], s[2], s[3]]));
    let w = if n >= 8 {
        let s = &b[n - 8..];
        u64::from_le_bytes([s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]])
    } else if n >= 4 {
        load4(b) | (load4(&b[n - 4..]) << 32)
    } else {
        b.iter().fold(0, |w, &c| (w << 8) | u64::from(c))
    };
    w.wrapping_add(n as u64)
}

#[inline]
fn first_repeat_pairwise<K: Eq>(n: usize, key: impl Fn(usize) -> K) -> Option<usize> {
    (1..n).find(|&x| {
        let k = key(x);
        (0..x).any(|y| {
            counter::count();
            key(y) == k
        })
    })
}

/// Pairwise over the names' words (in a stack array), the names compared only where the words
/// are equal.
#[cold]
fn first_repeat_words<'k>(n: usize, key: impl Fn(usize) -> &'k [u8]) -> Option<usize> {
    let mut words = [0u64; PAIRWISE_NAMES];
    let words = &mut words[..n];
    for (k, w) in words.iter_mut().enumerate() {
        *w = name_word(key(k));
    }
    (1..n).find(|&x| {
        let w = words[x];
        words[..x].iter().enumerate().any(|(y, &v)| {
            v == w && {
                counter::count();
                key(y) == key(x)
            }
        })
    })
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
        for n in [0, 1, 2, 8, 9, 32, 33, 100] {
            let keys: Vec<usize> = (0..n).collect();
            assert_eq!(first_repeat(n, |i| keys[i]), None);
            let names: Vec<String> = (0..n).map(|i| format!("name{i}")).collect();
            assert_eq!(first_repeat_bytes(n, |i| names[i].as_bytes()), None);
        }
        // Every path, every place of the repeat, names sharing their first eight bytes.
        for n in [5, 8, 9, 20, 32, 33, 40] {
            for long in [false, true] {
                let names: Vec<String> = (0..n)
                    .map(|i| {
                        if long {
                            format!("attribute{i:03}")
                        } else {
                            format!("a{i}")
                        }
                    })
                    .collect();
                for first in 0..n {
                    for second in first + 1..n {
                        let mut names = names.clone();
                        names[second] = names[first].clone();
                        let expected = Some(second);
                        assert_eq!(first_repeat(n, |i| names[i].as_str()), expected);
                        assert_eq!(first_repeat_bytes(n, |i| names[i].as_bytes()), expected);
                    }
                }
            }
        }
        let keys = [1, 2, 3, 2, 1];
        assert_eq!(first_repeat(keys.len(), |i| keys[i]), Some(3));
        let keys: Vec<usize> = (0..50).chain([40, 7]).collect();
        assert_eq!(first_repeat(keys.len(), |i| keys[i]), Some(50));
        // Names whose words are all equal (same length, same last eight bytes) are still told
        // apart by comparing them.
        let mut names: Vec<String> = (0..20u8)
            .map(|i| format!("{}-suffix!", char::from(b'a' + i)))
            .collect();
        assert!(
            names
                .iter()
                .all(|n| name_word(n.as_bytes()) == name_word(b"a-suffix!"))
        );
        assert_eq!(
            first_repeat_bytes(names.len(), |i| names[i].as_bytes()),
            None
        );
        names[15] = names[3].clone();
        assert_eq!(
            first_repeat_bytes(names.len(), |i| names[i].as_bytes()),
            Some(15)
        );
        // Two groups: the earliest repeat wins, whichever group sorts first.
        let keys: Vec<&[u8]> = vec![b"b", b"a", b"c", b"d", b"e", b"f", b"g", b"h", b"b", b"a"];
        assert_eq!(first_repeat_bytes(keys.len(), |i| keys[i]), Some(8));
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
