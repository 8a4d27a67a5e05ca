//! Namespace bindings during tree construction (Namespaces in XML 1.0, with recovery): binding
//! and unbinding prefixes as elements open and close, and resolving a prefix to the number of
//! its namespace, with a small cache of recent resolutions that is valid while the bindings do
//! not change.

use std::borrow::Cow;

use super::{TreeBuilder, XML_NUMBER, XMLNS_NUMBER};
use crate::tree::{XML_NAMESPACE, XMLNS_NAMESPACE};

impl<'a> TreeBuilder<'a> {
    pub(super) fn bind(&mut self, prefix: &str, ns: Option<&str>) {
        self.bindings_generation = self.bindings_generation.wrapping_add(1);
        self.bindings.push(prefix, ns);
    }

    #[inline]
    pub(super) fn unbind_to(&mut self, len: usize) {
        if self.bindings.len() > len {
            self.bindings_generation = self.bindings_generation.wrapping_add(1);
            self.bindings.truncate(len);
        }
    }

    /// The number of a namespace that is always bound (`xml`, `xmlns`): the document's, or
    /// `no_tree` without a tree.
    pub(super) fn fixed_number(&mut self, uri: &'static str, no_tree: u32) -> u32 {
        if self.keep_tree {
            self.doc.namespace_number(Some(Cow::Borrowed(uri)))
        } else {
            no_tree
        }
    }

    /// The number of the namespace of the binding at `i`: the document's (asked once per
    /// binding), or without a tree `i + 1`.
    #[inline]
    pub(super) fn binding_number(&mut self, i: u32) -> u32 {
        if !self.keep_tree {
            return i + 1;
        }
        if let Some(n) = self.bindings.number(i) {
            return n;
        }
        let n = match self.bindings.uri(i) {
            Some(uri) => self.doc.namespace_number_str(uri),
            None => 0,
        };
        self.bindings.set_number(i, n);
        n
    }

    /// The namespace number of a binding, without a tree: its namespace.
    pub(super) fn namespace_uri(&self, n: u32) -> Option<&str> {
        match n {
            0 => None,
            XML_NUMBER => Some(XML_NAMESPACE),
            XMLNS_NUMBER => Some(XMLNS_NAMESPACE),
            n if self.keep_tree => self.doc.namespace(n),
            n => self.bindings.uri(n - 1),
        }
    }

    /// The number (see [`Document::namespace_number`]) of the namespace `prefix` is bound to,
    /// 0 for none (no prefix and no default namespace); `None` when a prefix is unbound. The
    /// default namespace is remembered apart ([`TreeBuilder::resolve_default`]), prefixes in
    /// [`TreeBuilder::resolved`].
    #[inline]
    pub(super) fn resolve(&mut self, prefix: Option<&str>) -> Option<u32> {
        let Some(prefix) = prefix else {
            return Some(self.resolve_default());
        };
        let key = prefix.as_bytes();
        let slot = Resolved::slot(key);
        let generation = self.bindings_generation;
        if let Some(r) = self.resolved.get(slot)
            && r.generation == generation
            && r.prefix.get(..usize::from(r.len)) == Some(key)
        {
            return Some(r.number);
        }
        let number = match prefix {
            "xml" => self.fixed_number(XML_NAMESPACE, XML_NUMBER),
            "xmlns" => self.fixed_number(XMLNS_NAMESPACE, XMLNS_NUMBER),
            _ => match self.bindings.lookup(prefix) {
                Some(i) if self.bindings.uri(i).is_some() => self.binding_number(i),
                _ => return None,
            },
        };
        if key.len() <= RESOLVED_PREFIX
            && let Some(r) = self.resolved.get_mut(slot)
        {
            r.generation = generation;
            r.len = key.len() as u8;
            r.prefix[..key.len()].copy_from_slice(key);
            r.number = number;
        }
        Some(number)
    }

    /// The number of the default namespace (0 when there is none), remembered until the
    /// bindings change: most elements of most documents have no prefix.
    #[inline]
    pub(super) fn resolve_default(&mut self) -> u32 {
        if self.bindings.is_empty() {
            // No namespaces declared (and no default namespace).
            return 0;
        }
        let (generation, number) = self.resolved_default;
        if generation == self.bindings_generation {
            return number;
        }
        let number = match self.bindings.lookup("") {
            Some(i) if self.bindings.uri(i).is_some() => self.binding_number(i),
            _ => 0,
        };
        self.resolved_default = (self.bindings_generation, number);
        number
    }
}

/// How many resolved prefixes [`TreeBuilder`] remembers.
pub(super) const RESOLVED_SLOTS: usize = 8;

/// The longest prefix [`TreeBuilder`] remembers the resolution of.
const RESOLVED_PREFIX: usize = 22;

/// A prefix (empty for none) and the number of the namespace it resolved to while the
/// bindings were those of `generation` (0: an empty slot).
#[derive(Clone, Copy, Default)]
pub(super) struct Resolved {
    generation: u64,
    number: u32,
    len: u8,
    prefix: [u8; RESOLVED_PREFIX],
}

impl Resolved {
    /// The slot for `prefix` (a cache: a wrong guess costs one comparison of at most
    /// [`RESOLVED_PREFIX`] bytes).
    pub(super) fn slot(prefix: &[u8]) -> usize {
        let (first, last) = (prefix.first(), prefix.last());
        let mix = prefix.len()
            ^ usize::from(*first.unwrap_or(&0))
            ^ usize::from(*last.unwrap_or(&0)) << 1;
        mix % RESOLVED_SLOTS
    }
}
