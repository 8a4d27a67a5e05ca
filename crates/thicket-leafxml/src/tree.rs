//! The owned tree: built from the events, edited, written back. Building, comparing and
//! dropping never recurse, so nesting depth is limited by memory only.
//!
//! Memory: a child is a 24-byte [`Node`] (an element boxed, a text as its `String`), an element
//! 64 bytes, an attribute 40; names and namespaces are [`Name`]s shared across the tree; every
//! list and string is allocated once at its final size while decoding.

use std::borrow::Cow;
use std::io::Read;

use crate::error::Error;
use crate::event::EventKind;
use crate::input::Source;
use crate::name::{Interner, Name};
use crate::reader::{Limits, Reader};

/// A child of an element.
#[derive(Debug, Clone)]
pub enum Node {
    /// A child element (boxed, so that a text child stays small).
    Element(Box<Element>),
    /// Content text (one content assembly).
    Text(String),
}

impl From<Element> for Node {
    fn from(e: Element) -> Node {
        Node::Element(Box::new(e))
    }
}

impl From<String> for Node {
    fn from(t: String) -> Node {
        Node::Text(t)
    }
}

impl From<&str> for Node {
    fn from(t: &str) -> Node {
        Node::Text(t.to_owned())
    }
}

impl Node {
    /// The element, if it is one.
    pub fn as_element(&self) -> Option<&Element> {
        match self {
            Node::Element(e) => Some(e),
            Node::Text(_) => None,
        }
    }

    /// The text, if it is one.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Node::Text(t) => Some(t),
            Node::Element(_) => None,
        }
    }
}

/// An attribute of an [`Element`]: a local one (no namespace: written without a prefix) or an
/// external one (in a namespace: written with a prefix).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Attribute {
    /// The namespace, `None` for a local attribute.
    pub namespace: Option<Name>,
    /// The local name.
    pub local_name: Name,
    /// The decoded value.
    pub value: String,
}

impl Attribute {
    /// A local attribute (no namespace).
    pub fn new(local_name: impl Into<Name>, value: impl Into<String>) -> Attribute {
        Attribute {
            namespace: None,
            local_name: local_name.into(),
            value: value.into(),
        }
    }

    /// An external attribute: `local_name` in `namespace`.
    pub fn external(
        namespace: impl Into<Name>,
        local_name: impl Into<Name>,
        value: impl Into<String>,
    ) -> Attribute {
        Attribute {
            namespace: Some(namespace.into()),
            local_name: local_name.into(),
            value: value.into(),
        }
    }
}

/// An element: the data of its `Start` event and its children, owned and editable.
///
/// ```
/// use thicket_leafxml::{Attribute, Element, write_document};
/// let mut root = Element::parse(b"<a xmlns:p='urn:p' k='v' p:x='1'>t</a>")?;
/// assert_eq!(root.local_name, "a");
/// assert_eq!(root.attribute("k"), Some("v"));
/// assert_eq!(root.attribute_ns("urn:p", "x"), Some("1"));
/// root.set_attribute("k", "w");
/// root.attributes.push(Attribute::external("urn:q", "y", "2"));
/// root.children.push(Element::new("b").into());
/// let written = write_document(&root).unwrap();
/// assert_eq!(Element::parse(&written)?, root);
/// # Ok::<(), thicket_leafxml::Error>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct Element {
    /// The tag namespace, `None` for no namespace.
    pub namespace: Option<Name>,
    /// The local name.
    pub local_name: Name,
    /// The attributes: decoding gives the local attribute map in document order, then the
    /// external attribute map in document order. Equality compares the local ones in order and
    /// the external ones as a set; the writer writes the local ones in order, then the
    /// external ones sorted by namespace and name.
    pub attributes: Vec<Attribute>,
    /// Child elements and text, in document order.
    pub children: Vec<Node>,
}

impl Element {
    /// An element with no namespace, attributes or children.
    pub fn new(local_name: impl Into<Name>) -> Element {
        Element {
            namespace: None,
            local_name: local_name.into(),
            attributes: Vec::new(),
            children: Vec::new(),
        }
    }

    /// An element `local_name` in `namespace`, with no attributes or children.
    pub fn new_ns(namespace: impl Into<Name>, local_name: impl Into<Name>) -> Element {
        let mut e = Element::new(local_name);
        e.namespace = Some(namespace.into());
        e
    }

    /// Decodes a whole document held in memory and returns its root element, owned (for
    /// editing and writing; [`Document`](crate::Document) holds a decoded tree in less
    /// memory, with spans and parents).
    ///
    /// ```
    /// let root = thicket_leafxml::Element::parse(b"<a xmlns='urn:x'><b/>t</a>")?;
    /// assert_eq!(root.namespace.as_deref(), Some("urn:x"));
    /// assert_eq!(root.children.len(), 2);
    /// # Ok::<(), thicket_leafxml::Error>(())
    /// ```
    pub fn parse(bytes: &[u8]) -> Result<Element, Error> {
        Element::from_reader(Reader::from_bytes(bytes))
    }

    /// Decodes a whole document from a byte source with limits.
    pub fn read(src: impl Read, limits: Limits) -> Result<Element, Error> {
        Element::from_reader(Reader::new(src).with_limits(limits))
    }

    /// Builds the tree from a reader's events (a push reader must have been fed and finished:
    /// a wait for more input is taken as the end).
    pub fn from_reader<S: Source>(reader: Reader<'_, S>) -> Result<Element, Error> {
        // A tree holds the content assemblies whole: no markup events.
        let mut reader = reader.with_markup_events(false);
        let mut names = Interner::new();
        // The open elements with where their children start in `children`, which holds the
        // children of every open element; each list is copied out at its final size when its
        // element ends.
        let mut open: Vec<(Element, usize)> = Vec::new();
        let mut children: Vec<Node> = Vec::new();
        let mut attributes: Vec<Attribute> = Vec::new();
        let mut root = None;
        while let Some(event) = reader.next_event()? {
            match event.kind {
                EventKind::Start {
                    namespace,
                    local_name,
                    attributes: attrs,
                } => {
                    for (name, value) in attrs.local() {
                        attributes.push(Attribute {
                            namespace: None,
                            local_name: names.name(name),
                            value: value.to_owned(),
                        });
                    }
                    for (ns, name, value) in attrs.external() {
                        attributes.push(Attribute {
                            namespace: Some(names.namespace(ns)),
                            local_name: names.name(name),
                            value: value.to_owned(),
                        });
                    }
                    let element = Element {
                        namespace: namespace.map(|ns| names.namespace(&ns)),
                        local_name: names.name(&local_name),
                        attributes: take_exact(&mut attributes, 0),
                        children: Vec::new(),
                    };
                    open.push((element, children.len()));
                }
                EventKind::Comment(_)
                | EventKind::Instruction { .. }
                | EventKind::Doctype { .. } => {}
                EventKind::Text(t) => {
                    if !open.is_empty() {
                        children.push(Node::Text(exact(t)));
                    }
                }
                EventKind::End { .. } => {
                    if let Some((mut done, start)) = open.pop() {
                        done.children = take_exact(&mut children, start);
                        if open.is_empty() {
                            root = Some(done);
                        } else {
                            children.push(done.into());
                        }
                    }
                }
            }
        }
        // The reader ends cleanly only after the root element closed.
        Ok(root.unwrap_or_default())
    }

    /// Iterates over the element and its descendants in document order (no recursion).
    pub fn descendants(&self) -> impl Iterator<Item = &Element> {
        let mut stack = vec![self];
        std::iter::from_fn(move || {
            let e = stack.pop()?;
            stack.extend(e.child_elements().rev());
            Some(e)
        })
    }

    /// The child elements, in document order.
    pub fn child_elements(&self) -> impl DoubleEndedIterator<Item = &Element> {
        self.children.iter().filter_map(Node::as_element)
    }

    /// The value of the local attribute `name`.
    pub fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|a| a.namespace.is_none() && a.local_name == name)
            .map(|a| a.value.as_str())
    }

    /// The value of the attribute `local` in `namespace`.
    pub fn attribute_ns(&self, namespace: &str, local: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|a| a.namespace.as_deref() == Some(namespace) && a.local_name == local)
            .map(|a| a.value.as_str())
    }

    /// Sets the local attribute `name` (replacing its value, or adding it at the end).
    pub fn set_attribute(&mut self, name: &str, value: impl Into<String>) {
        let found =
            (self.attributes.iter_mut()).find(|a| a.namespace.is_none() && a.local_name == name);
        match found {
            Some(a) => a.value = value.into(),
            None => self.attributes.push(Attribute::new(name, value)),
        }
    }

    /// Sets the attribute `local` in `namespace` (replacing its value, or adding it at the end).
    pub fn set_attribute_ns(&mut self, namespace: &str, local: &str, value: impl Into<String>) {
        let found = (self.attributes.iter_mut())
            .find(|a| a.namespace.as_deref() == Some(namespace) && a.local_name == local);
        match found {
            Some(a) => a.value = value.into(),
            None => (self.attributes).push(Attribute::external(namespace, local, value)),
        }
    }

    /// The texts inside the element, joined in document order (no recursion).
    pub fn text_content(&self) -> String {
        let mut out = String::new();
        let mut stack: Vec<std::slice::Iter<'_, Node>> = vec![self.children.iter()];
        while let Some(top) = stack.last_mut() {
            match top.next() {
                None => {
                    stack.pop();
                }
                Some(Node::Text(t)) => out.push_str(t),
                Some(Node::Element(e)) => stack.push(e.children.iter()),
            }
        }
        out
    }

    /// Bytes of memory the tree holds outside the root's own struct: the lists' capacities,
    /// the boxed child elements, the strings' capacities, and each shared [`Name`] once. For
    /// measurements (docs/leafxml.md, "Memory").
    pub fn heap_size(&self) -> usize {
        let mut names = std::collections::HashSet::new();
        let mut name = |n: &Name| {
            if names.insert(n.addr()) {
                n.heap_size()
            } else {
                0
            }
        };
        let mut total = 0;
        for e in self.descendants() {
            total += e.namespace.as_ref().map_or(0, &mut name) + name(&e.local_name);
            total += e.attributes.capacity() * size_of::<Attribute>();
            for a in &e.attributes {
                total += a.namespace.as_ref().map_or(0, &mut name) + name(&a.local_name);
                total += a.value.capacity();
            }
            total += e.children.capacity() * size_of::<Node>();
            for child in &e.children {
                total += match child {
                    Node::Element(_) => size_of::<Element>(),
                    Node::Text(t) => t.capacity(),
                };
            }
        }
        total
    }

    /// The local attributes in order and the external ones sorted: what equality compares.
    fn attributes_compared(&self) -> (Vec<&Attribute>, Vec<&Attribute>) {
        let (local, mut external): (Vec<&Attribute>, Vec<&Attribute>) =
            (self.attributes.iter()).partition(|a| a.namespace.is_none());
        external.sort_unstable();
        (local, external)
    }

    fn same_head(&self, other: &Element) -> bool {
        self.namespace == other.namespace
            && self.local_name == other.local_name
            && self.children.len() == other.children.len()
            && self.attributes.len() == other.attributes.len()
            && self.attributes_compared() == other.attributes_compared()
    }
}

/// `scratch[start..]` moved into a list of its exact length.
fn take_exact<T>(scratch: &mut Vec<T>, start: usize) -> Vec<T> {
    let mut list = Vec::with_capacity(scratch.len() - start);
    list.extend(scratch.drain(start..));
    list
}

/// The text as a `String` of its exact length.
fn exact(t: Cow<'_, str>) -> String {
    let mut s = t.into_owned();
    s.shrink_to_fit();
    s
}

/// Equal when the names, the local attributes in order, the external attributes as a set, and
/// the children are equal.
impl PartialEq for Element {
    fn eq(&self, other: &Element) -> bool {
        let mut stack = vec![(self, other)];
        while let Some((a, b)) = stack.pop() {
            if !a.same_head(b) {
                return false;
            }
            for pair in a.children.iter().zip(&b.children) {
                match pair {
                    (Node::Text(x), Node::Text(y)) if x == y => {}
                    (Node::Element(x), Node::Element(y)) => stack.push((x, y)),
                    _ => return false,
                }
            }
        }
        true
    }
}

impl Eq for Element {}

impl PartialEq for Node {
    fn eq(&self, other: &Node) -> bool {
        match (self, other) {
            (Node::Text(a), Node::Text(b)) => a == b,
            (Node::Element(a), Node::Element(b)) => a == b,
            _ => false,
        }
    }
}

impl Eq for Node {}

impl Drop for Element {
    fn drop(&mut self) {
        // Move grandchildren out before each child drops, so dropping never recurses.
        let mut pending = std::mem::take(&mut self.children);
        while let Some(node) = pending.pop() {
            if let Node::Element(mut e) = node {
                pending.append(&mut e.children);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_elements_and_attributes_are_small() {
        assert_eq!(size_of::<Name>(), 8);
        assert_eq!(size_of::<Option<Name>>(), 8);
        assert_eq!(size_of::<Node>(), 24);
        assert_eq!(size_of::<Element>(), 64);
        assert_eq!(size_of::<Attribute>(), 40);
    }
}
