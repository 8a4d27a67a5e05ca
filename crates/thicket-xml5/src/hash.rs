//! Comparing and hashing names from the document, which an attacker chooses: whatever decides
//! which names are compared is either bounded (a check of a few names pairwise) or a keyed
//! hash of the name bytes themselves (std's `RandomState`, a fresh key per set), so no input can
//! make names collide on purpose and the number of comparisons stays linear in the input.

use std::collections::HashMap;
use std::hash::{BuildHasher, BuildHasherDefault, Hasher, RandomState};

/// `a == b` for two names of the document: byte by byte (names are short; a `memcmp` call costs
/// more). Every comparison of two names the crate makes to detect duplicates or look up a
/// binding goes through here, so that tests can count them.
#[inline]
pub(crate) fn same(a: &str, b: &str) -> bool {
    #[cfg(test)]
    comparisons::count();
    a.len() == b.len() && a.bytes().zip(b.bytes()).all(|(x, y)| x == y)
}

/// [`same`] for byte slices.
#[inline]
pub(crate) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    #[cfg(test)]
    comparisons::count();
    a == b
}

/// A set of `(namespace, name)` keys that are items of a list the caller keeps (a tag's
/// attributes: the namespace is empty in the tokenizer, an element's namespace in the tree
/// builder), hashed with a keyed hash of the bytes: the list's items are added to the set
/// lazily, when the list is long enough to need it.
#[derive(Clone, Debug)]
pub(crate) struct NameSet {
    key: RandomState,
    /// A keyed hash of each item of the list from 0 to `indexed`, to the first index that has it.
    index: HashMap<u64, u32, BuildHasherDefault<KeyedHashHasher>>,
    indexed: usize,
    /// The hash of the key last looked for with [`NameSet::contains`].
    last: u64,
}

impl NameSet {
    pub(crate) fn new() -> NameSet {
        NameSet {
            key: RandomState::new(),
            index: HashMap::default(),
            indexed: 0,
            last: 0,
        }
    }

    /// Forgets the list (a new tag). Cheap when the set was not used; a set grown large for
    /// one tag is dropped rather than cleared slot by slot for every later one.
    pub(crate) fn clear(&mut self) {
        if self.indexed == 0 {
            return;
        }
        if self.index.capacity() > 4 * self.indexed.max(64) {
            self.index = HashMap::default();
        } else {
            self.index.clear();
        }
        self.indexed = 0;
    }

    fn hash(&self, (namespace, name): (&str, &str)) -> u64 {
        let mut h = self.key.build_hasher();
        h.write(namespace.as_bytes());
        h.write_u8(0xFF);
        h.write(name.as_bytes());
        h.finish()
    }

    /// True when `key` is one of the list's `len` items (`item(i)` gives each). Every item not
    /// yet in the set is hashed and added first. A key is compared only with items of the same
    /// keyed hash (so, but for a 64-bit coincidence no input can arrange, only with its
    /// duplicate).
    pub(crate) fn contains<'n>(
        &mut self,
        key: (&str, &str),
        len: usize,
        item: impl Fn(usize) -> (&'n str, &'n str),
    ) -> bool {
        let equal = |a: (&str, &str), b: (&str, &str)| same(a.1, b.1) && same(a.0, b.0);
        while self.indexed < len {
            let h = self.hash(item(self.indexed));
            let i = u32::try_from(self.indexed).unwrap_or(u32::MAX);
            self.index.entry(h).or_insert(i);
            self.indexed += 1;
        }
        let h = self.hash(key);
        self.last = h;
        let Some(&first) = self.index.get(&h) else {
            return false;
        };
        if equal(item(first as usize), key) {
            return true;
        }
        // Two keys with one keyed hash: compare with every item (never happens on purpose).
        (0..len).any(|i| equal(item(i), key))
    }

    /// Adds the key last asked about with [`NameSet::contains`] as the list's next item (at index
    /// `len`, the list's length before it).
    pub(crate) fn push_last(&mut self, len: usize) {
        if self.indexed == len {
            let i = u32::try_from(len).unwrap_or(u32::MAX);
            self.index.entry(self.last).or_insert(i);
            self.indexed += 1;
        }
    }
}

/// The hasher of a map whose keys are already keyed hashes: passes them through.
#[derive(Default, Clone, Copy, Debug)]
pub(crate) struct KeyedHashHasher(u64);

impl Hasher for KeyedHashHasher {
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

/// A test-only count of name comparisons (see [`same`]), per thread.
#[cfg(test)]
pub(crate) mod comparisons {
    use std::cell::Cell;

    thread_local! {
        static COUNT: Cell<usize> = const { Cell::new(0) };
    }

    pub(crate) fn count() {
        COUNT.with(|c| c.set(c.get() + 1));
    }

    /// The comparisons on this thread so far.
    pub(crate) fn get() -> usize {
        COUNT.with(Cell::get)
    }
}

#[cfg(test)]
mod tests {
    use crate::{Options, Parser, parse};

    /// Names all of one length, first and last byte, so that they collide under every unkeyed
    /// function of the crate that sorts names (the direct path's duplicate filter on length and
    /// last byte, the resolved-prefix cache slot on length, first and last byte).
    fn colliding(i: usize) -> String {
        format!("p{i:07}z")
    }

    /// The name comparisons `run` makes.
    fn comparisons(run: impl FnOnce()) -> usize {
        let before = super::comparisons::get();
        run();
        super::comparisons::get() - before
    }

    /// Comparisons for inputs of 1x, 2x and 4x `n`: each at most `per_item` a name, and the
    /// growth from 1x to 4x at most 4.4x (linear).
    fn assert_linear(n: usize, per_item: usize, input: impl Fn(usize) -> String) {
        let mut counts = Vec::new();
        for k in [1, 2, 4] {
            let text = input(k * n);
            let whole = comparisons(|| {
                let _ = parse(&text, Options::default());
            });
            let streamed = comparisons(|| {
                let mut p = Parser::without_tree(Options::default());
                for chunk in text.as_bytes().chunks(4096) {
                    p.feed(std::str::from_utf8(chunk).unwrap_or(""));
                }
                let _ = p.finish();
            });
            assert!(
                whole <= per_item * k * n,
                "{whole} comparisons for {}",
                k * n
            );
            assert!(
                streamed <= per_item * k * n,
                "{streamed} streamed for {}",
                k * n
            );
            counts.push(whole.max(1));
        }
        let growth = counts[2] as f64 / counts[0] as f64;
        assert!(
            growth <= 4.4,
            "comparisons grew {growth:.2}x from 1x to 4x: {counts:?}"
        );
    }

    /// One tag with n namespace declarations of colliding prefixes and an attribute in each
    /// (the tokenizer's duplicate check, the bindings, the builder's expanded-name check).
    #[test]
    fn one_tag_with_colliding_declarations() {
        assert_linear(2000, 16, |n| {
            let mut s = String::from("<r");
            for i in 0..n {
                s.push_str(&format!(" xmlns:{}='urn:{i}'", colliding(i)));
            }
            for i in 0..n {
                s.push_str(&format!(" {}:a='1'", colliding(i)));
            }
            // Duplicates of the first few, in both forms.
            s.push_str(&format!(
                " xmlns:{}='urn:x' {}:a='2'>",
                colliding(0),
                colliding(1)
            ));
            for i in 0..n {
                s.push_str(&format!("<{}:e/>", colliding(i)));
            }
            s.push_str("</r>");
            s
        });
    }

    /// Many tags of 32 attributes with colliding names (the direct path's bounded pairwise
    /// check), and deep nesting with colliding element names closed by stray end tags (the
    /// count of open elements by name).
    #[test]
    fn many_tags_and_deep_nesting_with_colliding_names() {
        // (At most 31 comparisons an attribute of 32: 496 a tag.)
        assert_linear(200, 500, |n| {
            let mut s = String::from("<r>");
            for _ in 0..n {
                s.push_str("<t");
                for i in 0..32 {
                    s.push_str(&format!(" {}='v'", colliding(i)));
                }
                s.push_str("/>");
            }
            s.push_str("</r>");
            s
        });
        assert_linear(2000, 16, |n| {
            let mut s = String::new();
            for i in 0..n {
                s.push_str(&format!("<{}>", colliding(i)));
            }
            for i in 0..n {
                s.push_str(&format!("</{}x>", colliding(i)));
            }
            s
        });
    }
}
