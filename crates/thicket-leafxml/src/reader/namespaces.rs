//! "Namespace processing": the namespace stack, declarations and tag rewriting.

use std::sync::atomic::{AtomicU32, Ordering};

use thicket_names::keyed::{NameHasher, PrehashedMap};
use thicket_names::leafxml as names;

use super::Limits;
use super::dedup::{self, counter};
use super::tag::{Split, TagAssembly};
use super::{XML_NAMESPACE, XMLNS_NAMESPACE};
use crate::error::ErrorCode;

/// "Namespace processing": the namespace stack, kept as one binding stack threaded per prefix
/// (each binding points to the one it shadows), so lookups cost the same however many
/// declarations are in scope, and a declaration allocates nothing of its own: prefixes and
/// values live in two strings that grow and shrink with the scopes. (Duplicating the top
/// context for every starting tag, as the spec describes it, gives the same mappings.)
#[derive(Debug)]
pub(crate) struct Namespaces {
    /// The prefixes of the table, one after another.
    prefix_text: String,
    /// Every prefix seen since the table was last compacted (its position is its index), with
    /// its binding in scope.
    prefixes: Vec<Prefix>,
    /// Keyed hash of a prefix -> its position, built once there are many prefixes (a linear
    /// scan is faster for the usual handful; the keyed hash keeps crafted documents linear).
    index: Option<(NameHasher, PrehashedMap<usize>)>,
    /// Every binding in scope, in the order declared, so scopes can be undone; the first
    /// `BUILT_IN` are `xml` and `xmlns`.
    bindings: Vec<Binding>,
    /// The values of `bindings`, one after another.
    value_text: String,
    /// The bytes of the prefixes and values of the declarations in scope (the built-in `xml`
    /// and `xmlns` not counted), for `Limits::max_namespace_bytes`.
    scope_bytes: usize,
    /// Prefixes found recently: position + 1 (0 for none) in a slot chosen by the prefix's
    /// length, first and last byte. A prefix keeps its position until the table is compacted,
    /// which clears every slot; a hit is confirmed by comparing the prefix. (Relaxed atomics rather than cells,
    /// so that the reader stays `Sync`; they compile to plain loads and stores.)
    cache: [AtomicU32; CACHE_SLOTS],
}

/// One declaration in scope.
#[derive(Debug, Clone, Copy)]
struct Binding {
    /// The prefix's position.
    prefix: usize,
    /// The binding it shadows.
    shadowed: Top,
    /// Where its value starts in `Namespaces::value_text`.
    start: usize,
}

/// A prefix: where it is in `Namespaces::prefix_text`, and its binding in scope.
#[derive(Debug, Clone, Copy)]
struct Prefix {
    start: usize,
    end: usize,
    top: Top,
}

/// The binding in scope for a prefix: its index in `Namespaces::bindings` + 1 (0 for none)
/// and its value in `Namespaces::value_text`.
#[derive(Debug, Clone, Copy, Default)]
struct Top {
    binding: usize,
    start: usize,
    end: usize,
}

/// The bindings every context starts with (`xml` and `xmlns`), never undone.
const BUILT_IN: usize = 2;

/// Slots in `Namespaces::cache`.
const CACHE_SLOTS: usize = 64;

/// The cache slot of a prefix.
#[inline]
fn cache_slot(prefix: &str) -> usize {
    let b = prefix.as_bytes();
    let first = usize::from(b.first().copied().unwrap_or(0));
    let last = usize::from(b.last().copied().unwrap_or(0));
    (b.len().wrapping_mul(37) ^ first.wrapping_mul(5) ^ last) % CACHE_SLOTS
}

/// How many distinct prefixes are searched linearly.
const LINEAR_PREFIXES: usize = 16;

/// Prefixes out of scope the table may hold beyond twice the bindings and open elements
/// before it is compacted ([`Namespaces::wants_compaction`]).
const COMPACT_FROM: usize = 1024;

impl Namespaces {
    /// The default context: `xml` and `xmlns`.
    pub(crate) fn new() -> Namespaces {
        let mut ns = Namespaces {
            prefix_text: String::new(),
            prefixes: Vec::new(),
            index: None,
            bindings: Vec::new(),
            value_text: String::new(),
            scope_bytes: 0,
            cache: std::array::from_fn(|_| AtomicU32::new(0)),
        };
        // The default namespace first: every unprefixed element looks it up.
        for prefix in ["", "xml", "xmlns"] {
            ns.add_prefix(prefix, None);
        }
        ns.bind(1, XML_NAMESPACE);
        ns.bind(2, XMLNS_NAMESPACE);
        ns.scope_bytes = 0;
        ns
    }

    /// The prefix at `position`, as bytes.
    #[inline]
    fn prefix(&self, position: usize) -> Option<&[u8]> {
        let p = self.prefixes.get(position)?;
        self.prefix_text.as_bytes().get(p.start..p.end)
    }

    /// The position of `prefix` if its cache slot holds it.
    #[inline]
    fn cached(&self, prefix: &str) -> Option<usize> {
        let slot = &self.cache[cache_slot(prefix)];
        let cached = (slot.load(Ordering::Relaxed) as usize).wrapping_sub(1);
        self.prefix(cached)
            .is_some_and(|p| {
                counter::count();
                p == prefix.as_bytes()
            })
            .then_some(cached)
    }

    #[inline]
    fn position(&self, prefix: &str) -> Option<usize> {
        if let Some(k) = self.cached(prefix) {
            return Some(k);
        }
        let found = self.search(prefix).ok();
        if let Some(k) = found {
            self.remember(prefix, k);
        }
        found
    }

    /// Puts the prefix at position `k` in its cache slot.
    #[inline]
    fn remember(&self, prefix: &str, k: usize) {
        if let Ok(k) = u32::try_from(k + 1) {
            self.cache[cache_slot(prefix)].store(k, Ordering::Relaxed);
        }
    }

    /// `position` without the cache. A prefix not found gives its keyed hash when there is an
    /// index, for [`Namespaces::add_prefix`].
    #[cold]
    fn search(&self, prefix: &str) -> Result<usize, Option<u64>> {
        let count = self.prefixes.len();
        let prefix = prefix.as_bytes();
        match &self.index {
            // Keyed by std's `RandomState` over the prefix itself: counted as one comparison.
            Some((hasher, index)) => {
                counter::count();
                let h = hasher.hash_bytes(prefix);
                let &k = index.get(&h).ok_or(Some(h))?;
                if self.prefix(k) == Some(prefix) {
                    return Ok(k);
                }
                // Two prefixes with one keyed hash (never happens on purpose).
                (0..count)
                    .find(|&k| self.prefix(k) == Some(prefix))
                    .ok_or(Some(h))
            }
            // First byte and length before the full comparison: prefixes are short and often
            // share a length, where a call to memcmp costs more than the test.
            None => (0..count)
                .find(|&k| {
                    counter::count();
                    self.prefix(k).is_some_and(|p| {
                        p.len() == prefix.len() && p.first() == prefix.first() && p == prefix
                    })
                })
                .ok_or(None),
        }
    }

    /// Adds a prefix not seen before (`hash`: its keyed hash, when `search` computed it);
    /// returns its position.
    fn add_prefix(&mut self, prefix: &str, hash: Option<u64>) -> usize {
        let k = self.prefixes.len();
        let start = self.prefix_text.len();
        self.prefix_text.push_str(prefix);
        self.prefixes.push(Prefix {
            start,
            end: self.prefix_text.len(),
            top: Top::default(),
        });
        if let Some((hasher, index)) = &mut self.index {
            let h = hash.unwrap_or_else(|| hasher.hash_name(prefix));
            index.entry(h).or_insert(k);
        } else if self.prefixes.len() > LINEAR_PREFIXES {
            self.build_index();
        }
        k
    }

    /// Indexes every prefix by its keyed hash.
    fn build_index(&mut self) {
        let hasher = NameHasher::new();
        let mut index = PrehashedMap::default();
        for j in 0..self.prefixes.len() {
            if let Some(p) = self.prefix(j) {
                index.entry(hasher.hash_bytes(p)).or_insert(j);
            }
        }
        self.index = Some((hasher, index));
    }

    /// Whether the prefix table holds so many prefixes out of scope that [`compact`](Self::compact)
    /// pays, with `open` elements on the reader's stack (whose positions it remaps): more
    /// than twice the bindings and open elements, and [`COMPACT_FROM`] more. So each
    /// compaction drops at least as many prefixes as it walks bindings, prefixes in scope and
    /// open elements, and a document costs linear time however many prefixes it declares.
    pub(crate) fn wants_compaction(&self, open: usize) -> bool {
        self.prefixes.len() > 2 * (self.bindings.len() + open) + COMPACT_FROM
    }

    /// Drops the prefixes no binding in scope refers to: the table holds every prefix seen, so
    /// a document of many distinct prefixes would grow it without bound. The default
    /// namespace, `xml` and `xmlns` stay at positions 0, 1 and 2. Returns each old position's
    /// new one (`None` for a dropped prefix).
    pub(crate) fn compact(&mut self) -> Vec<Option<usize>> {
        let mut keep = vec![false; self.prefixes.len()];
        keep.iter_mut().take(3).for_each(|k| *k = true);
        for b in &self.bindings {
            if let Some(k) = keep.get_mut(b.prefix) {
                *k = true;
            }
        }
        let mut map = vec![None; self.prefixes.len()];
        let mut text = String::new();
        let mut prefixes = Vec::new();
        for (k, p) in self.prefixes.iter().enumerate() {
            if !keep[k] {
                continue;
            }
            map[k] = Some(prefixes.len());
            let start = text.len();
            text.push_str(self.prefix_text.get(p.start..p.end).unwrap_or_default());
            prefixes.push(Prefix {
                start,
                end: text.len(),
                top: p.top,
            });
        }
        for b in &mut self.bindings {
            b.prefix = map.get(b.prefix).copied().flatten().unwrap_or(0);
        }
        self.prefix_text = text;
        self.prefixes = prefixes;
        for slot in &self.cache {
            slot.store(0, Ordering::Relaxed);
        }
        self.index = None;
        if self.prefixes.len() > LINEAR_PREFIXES {
            self.build_index();
        }
        map
    }

    /// Binds the prefix at `position` to `value` in the current scope.
    fn bind(&mut self, position: usize, value: &str) {
        let Some(Prefix { top, start, end }) = self.prefixes.get_mut(position) else {
            return;
        };
        self.scope_bytes += *end - *start + value.len();
        let start = self.value_text.len();
        self.value_text.push_str(value);
        self.bindings.push(Binding {
            prefix: position,
            shadowed: *top,
            start,
        });
        *top = Top {
            binding: self.bindings.len(),
            start,
            end: self.value_text.len(),
        };
    }

    pub(crate) fn mark(&self) -> usize {
        self.bindings.len()
    }

    /// The declarations in scope (the built-in `xml` and `xmlns` not counted).
    fn declared(&self) -> usize {
        self.bindings.len() - BUILT_IN
    }

    fn declare(&mut self, prefix: &str, value: &str) {
        // `position`, keeping the keyed hash of a new prefix for the index.
        let k = match self
            .cached(prefix)
            .ok_or(())
            .or_else(|()| self.search(prefix))
        {
            Ok(k) => {
                self.remember(prefix, k);
                k
            }
            Err(hash) => self.add_prefix(prefix, hash),
        };
        self.bind(k, value);
    }

    /// Undoes the declarations made since `mark`.
    pub(crate) fn truncate(&mut self, mark: usize) {
        let mark = mark.max(BUILT_IN);
        if let Some(first) = self.bindings.get(mark) {
            self.value_text.truncate(first.start);
        }
        while self.bindings.len() > mark {
            if let Some(b) = self.bindings.pop()
                && let Some(p) = self.prefixes.get_mut(b.prefix)
            {
                let value = p.top.end - p.top.start;
                self.scope_bytes = self.scope_bytes.saturating_sub(p.end - p.start + value);
                p.top = b.shadowed;
            }
        }
    }

    #[cfg(test)]
    fn lookup(&self, prefix: &str) -> Option<&str> {
        self.value(self.position(prefix)?)
    }

    /// The position of a prefix that is in scope.
    #[inline]
    fn position_in_scope(&self, prefix: &str) -> Option<usize> {
        let k = self.position(prefix)?;
        (self.prefixes.get(k)?.top.binding != 0).then_some(k)
    }

    /// The value of the prefix at `position`, if it is in scope.
    #[inline]
    pub(crate) fn value(&self, position: usize) -> Option<&str> {
        let top = &self.prefixes.get(position)?.top;
        if top.binding == 0 {
            return None;
        }
        self.value_text.get(top.start..top.end)
    }
}

/// A namespace error: code and where, in the normalized tag text.
pub(crate) type NsError = (ErrorCode, usize, usize);

/// "Namespace declarations": adds this tag's bindings to `ns`, within `limits`'
/// `max_namespace_declarations` and `max_namespace_bytes` in scope.
/// An unchecked `xmlns` or `xmlns:p` is given its split here, as `split` would find it, so
/// that `check_rewrite` does not check the name again.
pub(crate) fn declare(
    ns: &mut Namespaces,
    tag: &mut TagAssembly,
    text: &str,
    limits: &Limits,
) -> Result<(), NsError> {
    let decoded = &tag.decoded;
    for a in &mut tag.attrs {
        let name = a.name.get(text, decoded);
        let (start, end) = a.extent();
        let over = |code| (code, start, end);
        let prefix = match a.split {
            // Known splits: the prefix of `xmlns:p` is `xmlns` and `p` is a valid prefix.
            Split::Local if name != "xmlns" => continue,
            Split::Prefixed(k) if k != 5 || !name.starts_with("xmlns") => continue,
            Split::Local => "",
            Split::Prefixed(k) => name.get(k as usize + 1..).unwrap_or_default(),
            Split::Unchecked => {
                if name == "xmlns" {
                    a.split = Split::Local;
                    ""
                } else if let Some(p) = name.strip_prefix("xmlns:") {
                    if !names::is_prefix(p) {
                        return Err(over(ErrorCode::InvalidNamespacePrefix));
                    }
                    a.split = Split::Prefixed(5);
                    p
                } else {
                    continue;
                }
            }
        };
        if prefix == "xmlns" {
            return Err(over(ErrorCode::XmlnsPrefixDeclared));
        }
        let value = a.value.get(text, decoded);
        if value.is_empty() {
            return Err(over(ErrorCode::EmptyNamespaceValue));
        }
        if prefix == "xml" && value != XML_NAMESPACE {
            return Err(over(ErrorCode::XmlPrefixRebound));
        }
        if prefix != "xml" && value == XML_NAMESPACE {
            return Err(over(ErrorCode::XmlNamespaceRebound));
        }
        if value == XMLNS_NAMESPACE {
            return Err(over(ErrorCode::XmlnsNamespaceBound));
        }
        if prefix == "xml" {
            // `xml` bound to its own namespace: the built-in binding, already in scope (not
            // bound again, so not counted against the limits, as in XML5).
            continue;
        }
        let bytes = ns.scope_bytes + prefix.len() + value.len();
        if limits
            .max_namespace_declarations
            .is_some_and(|max| ns.declared() >= max)
            || Limits::exceeds(limits.max_namespace_bytes, bytes)
        {
            return Err(over(ErrorCode::NamespaceLimit));
        }
        ns.declare(prefix, value);
    }
    Ok(())
}

/// Splits `prefix:local`: exactly one colon, both parts valid names. `at` is where the name is,
/// for the error.
pub(crate) fn split(name: &str, at: (usize, usize)) -> Result<Split, NsError> {
    let Some(k) = memchr::memchr(b':', name.as_bytes()) else {
        return Ok(Split::Local);
    };
    let (prefix, local) = (&name[..k], &name[k + 1..]);
    if local.contains(':') {
        return Err((ErrorCode::MultipleColons, at.0, at.1));
    }
    if !names::is_name(prefix) || !names::is_name(local) {
        return Err((ErrorCode::InvalidQualifiedName, at.0, at.1));
    }
    Ok(Split::Prefixed(k as u32))
}

/// "Tag rewriting", checked: prefixed names split and resolve, and no two attributes meet in
/// the external attribute map. The splits are kept for building the event; `seen` is scratch
/// space (each external attribute's prefix position in `ns` and index in `attrs`). Element
/// name errors are over the element name, attribute errors over the attribute.
pub(crate) fn check_rewrite(
    ns: &Namespaces,
    text: &str,
    tag: &mut TagAssembly,
    seen: &mut Vec<(usize, usize)>,
) -> Result<(), NsError> {
    let name = tag.name.get(text, &tag.decoded);
    let name_at = (tag.name.start as usize, tag.name.end as usize);
    if tag.split == Split::Unchecked {
        tag.split = split(name, name_at)?;
    }
    tag.ns = match tag.split.apply(name) {
        (Some(prefix), _) => ns.position_in_scope(prefix).ok_or((
            ErrorCode::UndeclaredPrefix,
            name_at.0,
            name_at.1,
        ))?,
        // The default namespace, in scope or not.
        (None, _) => 0,
    };
    seen.clear();
    let decoded = &tag.decoded;
    for (k, a) in tag.attrs.iter_mut().enumerate() {
        let name = a.name.get(text, decoded);
        let (start, end) = a.extent();
        if a.split == Split::Unchecked {
            a.split = split(name, (start, end))?;
        }
        let (Some(prefix), _) = a.split.apply(name) else {
            continue;
        };
        if prefix == "xmlns" {
            continue;
        }
        let position =
            ns.position_in_scope(prefix)
                .ok_or((ErrorCode::UndeclaredPrefix, start, end))?;
        seen.push((position, k));
    }
    if seen.len() < 2 {
        return Ok(());
    }
    // Report the earliest attribute that repeats an earlier (namespace, local name).
    let attrs = &tag.attrs;
    let key = |x: usize| {
        let (position, k) = seen[x];
        let a = &attrs[k];
        (
            ns.value(position),
            a.split.apply(a.name.get(text, decoded)).1,
        )
    };
    match dedup::first_repeat(seen.len(), key) {
        Some(x) => {
            let (start, end) = attrs[seen[x].1].extent();
            Err((ErrorCode::DuplicateExternalAttribute, start, end))
        }
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Compaction keeps the table within twice the bindings (plus its margin) while
    /// prefixes come and go, and what is in scope resolves as before.
    #[test]
    fn compaction_bounds_the_prefix_table() {
        let mut ns = Namespaces::new();
        ns.declare("a", "urn:a");
        ns.declare("", "urn:d");
        let mut most = 0;
        for i in 0..20_000 {
            if ns.wants_compaction(0) {
                let map = ns.compact();
                assert_eq!(map[..3], [Some(0), Some(1), Some(2)]);
            }
            let mark = ns.mark();
            ns.declare(&format!("p{i}"), &format!("urn:{i}"));
            assert_eq!(
                ns.lookup(&format!("p{i}")),
                Some(format!("urn:{i}").as_str())
            );
            ns.truncate(mark);
            most = most.max(ns.prefixes.len());
        }
        assert!(most <= 2 * ns.bindings.len() + COMPACT_FROM + 1, "{most}");
        assert_eq!(ns.lookup("a"), Some("urn:a"));
        assert_eq!(ns.lookup(""), Some("urn:d"));
        assert_eq!(ns.lookup("xml"), Some(XML_NAMESPACE));
        assert_eq!(ns.lookup("p7"), None);
        assert_eq!(ns.scope_bytes, "a".len() + "urn:a".len() + "urn:d".len());
    }

    /// Scoping works the same below and above the linear-search threshold.
    #[test]
    fn namespace_scopes() {
        let mut ns = Namespaces::new();
        let mut marks = Vec::new();
        for i in 0..40 {
            marks.push(ns.mark());
            ns.declare(&format!("p{}", i % 25), &format!("urn:{i}"));
            ns.declare("", &format!("urn:d{i}"));
        }
        assert_eq!(ns.lookup("p3"), Some("urn:28"));
        assert_eq!(ns.lookup(""), Some("urn:d39"));
        assert_eq!(ns.lookup("xml"), Some(XML_NAMESPACE));
        while let Some(mark) = marks.pop() {
            ns.truncate(mark);
            if marks.len() == 20 {
                assert_eq!(ns.lookup("p3"), Some("urn:3"));
                assert_eq!(ns.lookup("p24"), None);
                assert_eq!(ns.lookup(""), Some("urn:d19"));
            }
        }
        assert_eq!(ns.lookup("p3"), None);
        assert_eq!(ns.lookup(""), None);
        assert_eq!(ns.lookup("xmlns"), Some(XMLNS_NAMESPACE));
    }
}
