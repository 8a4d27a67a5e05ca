//! A tree built from the events. Building, comparing and dropping never recurse, so nesting
//! depth is limited by memory only.

use std::io::Read;

use crate::error::Error;
use crate::event::{EventKind, ExternalAttributeMap};
use crate::input::Source;
use crate::reader::{Limits, Reader};

/// A child of an element.
#[derive(Debug, Clone)]
pub enum Node {
    /// A child element.
    Element(Element),
    /// Content text (one content assembly).
    Text(String),
}

/// An element: the data of its `Start` event and its children.
#[derive(Debug, Clone, Default)]
pub struct Element {
    /// The tag namespace, `None` for no namespace.
    pub namespace: Option<String>,
    /// The local name.
    pub local_name: String,
    /// The local attribute map, in document order.
    pub attributes: Vec<(String, String)>,
    /// The external attribute map (namespace -> local name -> value).
    pub external_attributes: ExternalAttributeMap,
    /// Child elements and text, in document order.
    pub children: Vec<Node>,
}

impl Element {
    /// An element with no namespace, attributes or children.
    pub fn new(local_name: impl Into<String>) -> Element {
        Element {
            namespace: None,
            local_name: local_name.into(),
            attributes: Vec::new(),
            external_attributes: ExternalAttributeMap::new(),
            children: Vec::new(),
        }
    }

    /// Decodes a whole document held in memory and returns its root element, owned (for
    /// editing and writing; [`Document`](crate::Document) holds a decoded tree in far less
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
    pub fn from_reader<S: Source>(mut reader: Reader<'_, S>) -> Result<Element, Error> {
        let mut stack: Vec<Element> = Vec::new();
        let mut root = None;
        while let Some(event) = reader.next_event()? {
            match event.kind {
                EventKind::Start {
                    namespace,
                    local_name,
                    attributes,
                } => {
                    let mut external = ExternalAttributeMap::new();
                    for (ns, name, value) in attributes.external() {
                        external
                            .entry(ns.to_owned())
                            .or_default()
                            .insert(name.to_owned(), value.to_owned());
                    }
                    stack.push(Element {
                        namespace: namespace.map(String::from),
                        local_name: local_name.into_owned(),
                        attributes: attributes
                            .local()
                            .map(|(n, v)| (n.to_owned(), v.to_owned()))
                            .collect(),
                        external_attributes: external,
                        children: Vec::new(),
                    })
                }
                EventKind::Text(t) => {
                    if let Some(top) = stack.last_mut() {
                        top.children.push(Node::Text(t.into_owned()));
                    }
                }
                EventKind::End { .. } => {
                    if let Some(done) = stack.pop() {
                        match stack.last_mut() {
                            Some(parent) => parent.children.push(Node::Element(done)),
                            None => root = Some(done),
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
            for child in e.children.iter().rev() {
                if let Node::Element(c) = child {
                    stack.push(c);
                }
            }
            Some(e)
        })
    }

    /// The value of the local attribute `name`.
    pub fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The value of the attribute `local` in `namespace`.
    pub fn attribute_ns(&self, namespace: &str, local: &str) -> Option<&str> {
        self.external_attributes
            .get(namespace)?
            .get(local)
            .map(String::as_str)
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

    fn same_head(&self, other: &Element) -> bool {
        self.namespace == other.namespace
            && self.local_name == other.local_name
            && self.attributes == other.attributes
            && self.external_attributes == other.external_attributes
            && self.children.len() == other.children.len()
    }
}

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
