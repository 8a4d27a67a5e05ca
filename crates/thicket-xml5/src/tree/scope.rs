//! What the tree builder keeps per open element and per namespace binding, compact so that a
//! streaming builder costs a small constant per open element: the stack of open elements, the
//! count of open elements by name ("has an element in scope"), and the namespace bindings in
//! scope. Names and namespaces live in one string per structure (a stack, cut back when an
//! element closes), never in a string of their own; every map is keyed by a keyed hash of the
//! name bytes (`thicket_names::keyed`), so no input can make lookups collide.

use super::Span32;
use thicket_names::keyed::{NameHasher, PrehashedMap};

use crate::hash::same;

/// One open element: 20 bytes (its name is a span of the builder's address space).
#[derive(Clone, Copy, Debug)]
pub(super) struct OpenElement {
    /// The element's node (when the builder keeps a tree).
    pub(super) node: u32,
    /// The tag name as written.
    pub(super) name: Span32,
    /// How many namespace bindings this element pushed.
    pub(super) bindings: u32,
    /// Where its children start in the builder's pending children.
    pub(super) children: u32,
}

const _: () = assert!(std::mem::size_of::<OpenElement>() == 20);

/// How many open elements have each name, built at the first end tag that does not close the
/// current element (a document whose end tags match never needs it). An entry keeps the span of
/// the outermost open element of its name, which stays valid until that element, the last of
/// its name to close, closes.
#[derive(Debug)]
pub(super) struct OpenNames {
    key: NameHasher,
    counts: PrehashedMap<NameCount>,
    /// Names whose keyed hash another name in `counts` has (searched one by one; empty but for
    /// a 64-bit coincidence no input can arrange).
    others: Vec<NameCount>,
}

#[derive(Clone, Copy, Debug)]
struct NameCount {
    name: Span32,
    count: u32,
}

impl OpenNames {
    pub(super) fn new() -> OpenNames {
        OpenNames {
            key: NameHasher::new(),
            counts: PrehashedMap::default(),
            others: Vec::new(),
        }
    }

    fn hash(&self, name: &str) -> u64 {
        self.key.hash_name(name)
    }

    /// Counts an element named `name` (at `span`) as open; `text` resolves spans.
    pub(super) fn add<'t>(&mut self, name: &str, span: Span32, text: impl Fn(Span32) -> &'t str) {
        let h = self.hash(name);
        match self.counts.get_mut(&h) {
            None => {
                self.counts.insert(
                    h,
                    NameCount {
                        name: span,
                        count: 1,
                    },
                );
            }
            Some(c) if same(text(c.name), name) => c.count += 1,
            Some(_) => match self.others.iter_mut().find(|c| same(text(c.name), name)) {
                Some(c) => c.count += 1,
                None => self.others.push(NameCount {
                    name: span,
                    count: 1,
                }),
            },
        }
    }

    /// Counts an element named `name` as closed.
    pub(super) fn remove<'t>(&mut self, name: &str, text: impl Fn(Span32) -> &'t str) {
        let h = self.hash(name);
        if let Some(c) = self.counts.get_mut(&h)
            && same(text(c.name), name)
        {
            c.count -= 1;
            if c.count == 0 {
                self.counts.remove(&h);
            }
            return;
        }
        if let Some(i) = self.others.iter().position(|c| same(text(c.name), name)) {
            self.others[i].count -= 1;
            if self.others[i].count == 0 {
                self.others.swap_remove(i);
            }
        }
    }

    /// How many open elements are named `name`.
    pub(super) fn count<'t>(&self, name: &str, text: impl Fn(Span32) -> &'t str) -> u32 {
        let h = self.hash(name);
        match self.counts.get(&h) {
            Some(c) if same(text(c.name), name) => c.count,
            _ => self
                .others
                .iter()
                .find(|c| same(text(c.name), name))
                .map_or(0, |c| c.count),
        }
    }
}

/// A binding's namespace: `NONE` when the binding undeclares its prefix.
const UNDECLARED: u32 = u32::MAX;
/// [`Binding::number`] not yet known.
const UNKNOWN: u32 = u32::MAX;
/// [`Binding::previous`]: no earlier binding of the same prefix hash.
const FIRST: u32 = u32::MAX;

/// One namespace binding: 24 bytes, its prefix and namespace in [`Bindings::text`].
#[derive(Clone, Copy, Debug)]
struct Binding {
    prefix_start: u32,
    prefix_len: u32,
    uri_start: u32,
    /// [`UNDECLARED`] when the binding undeclares the prefix.
    uri_len: u32,
    /// The document's number for the namespace, once asked (tree building).
    number: u32,
    /// The binding below with the same prefix hash (once the bindings are indexed).
    previous: u32,
}

/// The namespace bindings in scope, innermost last (prefix `""` is the default namespace).
/// While there are at most [`SCAN_BINDINGS`], a lookup compares the prefixes innermost first;
/// past that, a map from each prefix's keyed hash to its innermost binding (each binding links
/// to the one it hides) keeps lookups O(1).
#[derive(Debug)]
pub(super) struct Bindings {
    /// The prefixes and namespaces of the bindings, in order (cut back as they are removed).
    text: String,
    list: Vec<Binding>,
    index: Option<PrehashedMap<u32>>,
    key: NameHasher,
}

/// Up to this many namespace bindings in scope, lookups compare them one by one.
pub(super) const SCAN_BINDINGS: usize = 16;

impl Bindings {
    pub(super) fn new() -> Bindings {
        Bindings {
            text: String::new(),
            list: Vec::new(),
            index: None,
            key: NameHasher::new(),
        }
    }

    pub(super) fn reserve(&mut self, n: usize) {
        self.list.reserve(n);
        self.text.reserve(n * 32);
    }

    #[inline]
    pub(super) fn len(&self) -> usize {
        self.list.len()
    }

    #[inline]
    pub(super) fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The bytes of the prefixes and namespaces in scope.
    #[inline]
    pub(super) fn text_len(&self) -> usize {
        self.text.len()
    }

    fn hash(&self, prefix: &str) -> u64 {
        self.key.hash_name(prefix)
    }

    #[inline]
    fn prefix(&self, b: &Binding) -> &str {
        let start = b.prefix_start as usize;
        self.text
            .get(start..start + b.prefix_len as usize)
            .unwrap_or("")
    }

    /// The namespace of the binding at `i`, `None` when it undeclares its prefix.
    #[inline]
    pub(super) fn uri(&self, i: u32) -> Option<&str> {
        let b = self.list.get(i as usize)?;
        if b.uri_len == UNDECLARED {
            return None;
        }
        let start = b.uri_start as usize;
        self.text.get(start..start + b.uri_len as usize)
    }

    /// The document's number for the namespace of the binding at `i`, if known.
    #[inline]
    pub(super) fn number(&self, i: u32) -> Option<u32> {
        let n = self.list.get(i as usize)?.number;
        (n != UNKNOWN).then_some(n)
    }

    pub(super) fn set_number(&mut self, i: u32, number: u32) {
        if let Some(b) = self.list.get_mut(i as usize) {
            b.number = number;
        }
    }

    /// Binds `prefix` (`""`: the default namespace) to `uri` (`None`: undeclared).
    pub(super) fn push(&mut self, prefix: &str, uri: Option<&str>) {
        let n = |v: usize| u32::try_from(v).unwrap_or(u32::MAX);
        let prefix_start = n(self.text.len());
        self.text.push_str(prefix);
        let uri_start = n(self.text.len());
        let uri_len = match uri {
            Some(uri) => {
                self.text.push_str(uri);
                n(uri.len())
            }
            None => UNDECLARED,
        };
        let mut binding = Binding {
            prefix_start,
            prefix_len: n(prefix.len()),
            uri_start,
            uri_len,
            number: UNKNOWN,
            previous: FIRST,
        };
        let at = n(self.list.len());
        if self.index.is_some() {
            let h = self.hash(prefix);
            if let Some(index) = &mut self.index {
                binding.previous = index.insert(h, at).unwrap_or(FIRST);
            }
        }
        self.list.push(binding);
        if self.index.is_none() && self.list.len() > SCAN_BINDINGS {
            self.build_index();
        }
    }

    fn build_index(&mut self) {
        let mut index: PrehashedMap<u32> = PrehashedMap::default();
        for i in 0..self.list.len() {
            let h = self.hash(self.prefix(&self.list[i]));
            let at = u32::try_from(i).unwrap_or(u32::MAX);
            self.list[i].previous = index.insert(h, at).unwrap_or(FIRST);
        }
        self.index = Some(index);
    }

    /// Removes the bindings past the first `len`.
    pub(super) fn truncate(&mut self, len: usize) {
        while self.list.len() > len {
            let Some(b) = self.list.pop() else { break };
            if self.index.is_some() {
                let h = self.hash(self.prefix(&b));
                if let Some(index) = &mut self.index {
                    if b.previous == FIRST {
                        index.remove(&h);
                    } else {
                        index.insert(h, b.previous);
                    }
                }
            }
            self.text.truncate(b.prefix_start as usize);
        }
    }

    /// The innermost binding of `prefix` (`""`: the default namespace), if any.
    #[inline]
    pub(super) fn lookup(&self, prefix: &str) -> Option<u32> {
        match &self.index {
            Some(index) if self.list.len() > SCAN_BINDINGS => {
                let mut i = *index.get(&self.hash(prefix))?;
                // The chain of bindings with this prefix hash (other prefixes in it only by a
                // 64-bit coincidence).
                loop {
                    let b = self.list.get(i as usize)?;
                    if same(self.prefix(b), prefix) {
                        return Some(i);
                    }
                    if b.previous == FIRST {
                        return None;
                    }
                    i = b.previous;
                }
            }
            _ => self
                .list
                .iter()
                .rposition(|b| same(self.prefix(b), prefix))
                .map(|i| u32::try_from(i).unwrap_or(u32::MAX)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lookups agree with a plain model through pushes and truncations on both sides of
    /// [`SCAN_BINDINGS`].
    #[test]
    fn bindings_follow_a_model() {
        let mut b = Bindings::new();
        let mut model: Vec<(String, Option<String>)> = Vec::new();
        let mut seed = 99u32;
        let mut next = |n: u32| {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            (seed >> 16) % n
        };
        for _ in 0..5000 {
            if next(3) == 0 && !model.is_empty() {
                let len = next(model.len() as u32 + 1) as usize;
                model.truncate(len);
                b.truncate(len);
            } else {
                let prefix = format!("p{}", next(24));
                let uri = (next(5) != 0).then(|| format!("urn:{}", next(1000)));
                b.push(&prefix, uri.as_deref());
                model.push((prefix, uri));
            }
            for p in 0..24 {
                let prefix = format!("p{p}");
                let want = model
                    .iter()
                    .rev()
                    .find(|(q, _)| *q == prefix)
                    .map(|(_, u)| u.clone());
                let got = b.lookup(&prefix).map(|i| b.uri(i).map(str::to_owned));
                assert_eq!(got, want, "{prefix}");
            }
        }
    }
}
