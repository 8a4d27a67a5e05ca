//! "Namespace processing": the namespace stack, declarations and tag rewriting.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};

use thicket_names::leafxml as names;

use super::tag::{Attr, Split};
use super::{XML_NAMESPACE, XMLNS_NAMESPACE};
use crate::error::ErrorCode;

/// "Namespace processing": the namespace stack, kept as prefix -> stack of values plus a log of
/// the prefixes each element declared, so lookups cost the same however many declarations are
/// in scope. (Duplicating the top context for every starting tag, as the spec describes it, gives
/// the same mappings.)
#[derive(Debug)]
pub(crate) struct Namespaces {
    /// Every prefix seen so far, and its stack of values (empty when out of scope).
    prefixes: Vec<String>,
    values: Vec<Vec<String>>,
    /// Prefix -> position in `prefixes`, built once there are many prefixes (a linear scan is
    /// faster for the usual handful; the hash keeps crafted documents linear).
    index: Option<HashMap<String, usize>>,
    /// Positions of the prefixes declared, in order, so scopes can be undone.
    log: Vec<usize>,
    /// Prefixes found recently: position + 1 (0 for none) in a slot chosen by the prefix's
    /// length, first and last byte. A prefix keeps its position for good, so a slot is never
    /// stale; a hit is confirmed by comparing the prefix. (Relaxed atomics rather than cells,
    /// so that the reader stays `Sync`; they compile to plain loads and stores.)
    cache: [AtomicU32; CACHE_SLOTS],
}

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

impl Namespaces {
    /// The default context: `xml` and `xmlns`.
    pub(crate) fn new() -> Namespaces {
        Namespaces {
            // The default namespace first: every unprefixed element looks it up.
            prefixes: vec![String::new(), "xml".to_owned(), "xmlns".to_owned()],
            values: vec![
                Vec::new(),
                vec![XML_NAMESPACE.to_owned()],
                vec![XMLNS_NAMESPACE.to_owned()],
            ],
            index: None,
            log: Vec::new(),
            cache: std::array::from_fn(|_| AtomicU32::new(0)),
        }
    }

    #[inline]
    fn position(&self, prefix: &str) -> Option<usize> {
        let slot = &self.cache[cache_slot(prefix)];
        let cached = (slot.load(Ordering::Relaxed) as usize).wrapping_sub(1);
        if self.prefixes.get(cached).is_some_and(|p| p == prefix) {
            return Some(cached);
        }
        let found = self.search(prefix);
        if let Some(k) = found
            && let Ok(k) = u32::try_from(k + 1)
        {
            slot.store(k, Ordering::Relaxed);
        }
        found
    }

    /// `position` without the cache.
    #[cold]
    fn search(&self, prefix: &str) -> Option<usize> {
        match &self.index {
            Some(index) => index.get(prefix).copied(),
            // First byte and length before the full comparison: prefixes are short and often
            // share a length, where a call to memcmp costs more than the test.
            None => self.prefixes.iter().position(|p| {
                p.len() == prefix.len()
                    && p.as_bytes().first() == prefix.as_bytes().first()
                    && p == prefix
            }),
        }
    }

    pub(crate) fn mark(&self) -> usize {
        self.log.len()
    }

    fn declare(&mut self, prefix: &str, value: &str) {
        let k = match self.position(prefix) {
            Some(k) => k,
            None => {
                let k = self.prefixes.len();
                self.prefixes.push(prefix.to_owned());
                self.values.push(Vec::new());
                if let Some(index) = &mut self.index {
                    index.insert(prefix.to_owned(), k);
                } else if self.prefixes.len() > LINEAR_PREFIXES {
                    let index = self
                        .prefixes
                        .iter()
                        .enumerate()
                        .map(|(i, p)| (p.clone(), i))
                        .collect();
                    self.index = Some(index);
                }
                k
            }
        };
        if let Some(v) = self.values.get_mut(k) {
            v.push(value.to_owned());
        }
        self.log.push(k);
    }

    /// Undoes the declarations made since `mark`.
    pub(crate) fn truncate(&mut self, mark: usize) {
        while self.log.len() > mark {
            if let Some(k) = self.log.pop()
                && let Some(v) = self.values.get_mut(k)
            {
                v.pop();
            }
        }
    }

    #[cfg(test)]
    fn lookup(&self, prefix: &str) -> Option<&str> {
        self.value(self.position(prefix)?)
    }

    /// The position of a prefix that is in scope.
    fn position_in_scope(&self, prefix: &str) -> Option<usize> {
        let k = self.position(prefix)?;
        self.value(k).map(|_| k)
    }

    /// The value of the prefix at `position`, if it is in scope.
    #[inline]
    pub(crate) fn value(&self, position: usize) -> Option<&str> {
        self.values.get(position)?.last().map(String::as_str)
    }
}

/// "Namespace declarations": adds this tag's bindings to `ns`.
pub(crate) fn declare(
    ns: &mut Namespaces,
    text: &str,
    attrs: &[Attr],
) -> Result<(), (ErrorCode, usize)> {
    for a in attrs {
        let name = a.name.get(text);
        let prefix = match a.split {
            // Known splits: the prefix of `xmlns:p` is `xmlns` and `p` is a valid prefix.
            Split::Local if name != "xmlns" => continue,
            Split::Prefixed(k) if k != 5 || !name.starts_with("xmlns") => continue,
            Split::Local => "",
            Split::Prefixed(k) => name.get(k + 1..).unwrap_or_default(),
            Split::Unchecked => {
                if name == "xmlns" {
                    ""
                } else if let Some(p) = name.strip_prefix("xmlns:") {
                    if !names::is_prefix(p) {
                        return Err((ErrorCode::InvalidNamespacePrefix, a.offset));
                    }
                    p
                } else {
                    continue;
                }
            }
        };
        if prefix == "xmlns" {
            return Err((ErrorCode::XmlnsPrefixDeclared, a.offset));
        }
        let value = a.value.get(text);
        if value.is_empty() {
            return Err((ErrorCode::EmptyNamespaceValue, a.offset));
        }
        if prefix == "xml" && value != XML_NAMESPACE {
            return Err((ErrorCode::XmlPrefixRebound, a.offset));
        }
        if prefix != "xml" && value == XML_NAMESPACE {
            return Err((ErrorCode::XmlNamespaceRebound, a.offset));
        }
        if value == XMLNS_NAMESPACE {
            return Err((ErrorCode::XmlnsNamespaceBound, a.offset));
        }
        ns.declare(prefix, value);
    }
    Ok(())
}

/// Splits `prefix:local`: exactly one colon, both parts valid names.
pub(crate) fn split(name: &str, offset: usize) -> Result<Split, (ErrorCode, usize)> {
    let Some(k) = memchr::memchr(b':', name.as_bytes()) else {
        return Ok(Split::Local);
    };
    let (prefix, local) = (&name[..k], &name[k + 1..]);
    if local.contains(':') {
        return Err((ErrorCode::MultipleColons, offset));
    }
    if !names::is_name(prefix) || !names::is_name(local) {
        return Err((ErrorCode::InvalidQualifiedName, offset));
    }
    Ok(Split::Prefixed(k))
}

/// "Tag rewriting", checked: prefixed names split and resolve, and no two attributes meet in
/// the external attribute map. The splits are kept for building the event; `seen` is scratch
/// space (each external attribute's prefix position in `ns` and index in `attrs`).
pub(crate) fn check_rewrite(
    ns: &Namespaces,
    text: &str,
    name: &str,
    name_split: &mut Split,
    name_ns: &mut usize,
    attrs: &mut [Attr],
    seen: &mut Vec<(usize, usize)>,
) -> Result<(), (ErrorCode, usize)> {
    if *name_split == Split::Unchecked {
        *name_split = split(name, 1)?;
    }
    *name_ns = match name_split.apply(name) {
        (Some(prefix), _) => ns
            .position_in_scope(prefix)
            .ok_or((ErrorCode::UndeclaredPrefix, 1))?,
        // The default namespace, in scope or not.
        (None, _) => 0,
    };
    seen.clear();
    for (k, a) in attrs.iter_mut().enumerate() {
        let name = a.name.get(text);
        if a.split == Split::Unchecked {
            a.split = split(name, a.offset)?;
        }
        let (Some(prefix), _) = a.split.apply(name) else {
            continue;
        };
        if prefix == "xmlns" {
            continue;
        }
        let position = ns
            .position_in_scope(prefix)
            .ok_or((ErrorCode::UndeclaredPrefix, a.offset))?;
        seen.push((position, k));
    }
    if seen.len() < 2 {
        return Ok(());
    }
    // (namespace, local name) of the `x`th external attribute.
    let key = |x: usize| {
        let (position, k) = seen[x];
        let a = &attrs[k];
        (ns.value(position), a.split.apply(a.name.get(text)).1)
    };
    // Report the earliest attribute that repeats an earlier (namespace, local name).
    let repeated = if seen.len() <= 8 {
        (1..seen.len()).find(|&x| (0..x).any(|y| key(x) == key(y)))
    } else {
        let mut order: Vec<usize> = (0..seen.len()).collect();
        order.sort_by(|&x, &y| key(x).cmp(&key(y)).then(x.cmp(&y)));
        order
            .windows(2)
            .filter(|w| key(w[0]) == key(w[1]))
            .map(|w| w[1])
            .min()
    };
    match repeated {
        Some(x) => Err((
            ErrorCode::DuplicateExternalAttribute,
            attrs[seen[x].1].offset,
        )),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
