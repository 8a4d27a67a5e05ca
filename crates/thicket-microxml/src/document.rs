//! The parsed tree as an arena: [`Document`] borrows its strings from the input where recovery
//! and newline normalization changed nothing, so building it costs no allocation per node.

use std::borrow::Cow;
use std::fmt;

use crate::tree::{Attribute, DOC_WRAPPER, Element, Node};

/// "No node": index 0 is the `#doc` wrapper, which is never a child or a sibling.
pub(crate) const NONE: u32 = 0;

/// Marks a text node in [`NodeData::attributes`].
const TEXT: (u32, u32) = (u32::MAX, u32::MAX);

/// One node of the arena: an element (name, attribute range) or a text node.
#[derive(Clone, Debug)]
pub(crate) struct NodeData<'a> {
    /// The element name, or the text.
    pub(crate) value: Cow<'a, str>,
    /// The element's attributes, `start..end` in [`Document::attributes`]; [`TEXT`] for text.
    pub(crate) attributes: (u32, u32),
    pub(crate) first_child: u32,
    pub(crate) next_sibling: u32,
}

impl<'a> NodeData<'a> {
    pub(crate) fn element(name: Cow<'a, str>, attributes: (u32, u32)) -> NodeData<'a> {
        NodeData {
            value: name,
            attributes,
            first_child: NONE,
            next_sibling: NONE,
        }
    }

    pub(crate) fn text(text: Cow<'a, str>) -> NodeData<'a> {
        NodeData {
            value: text,
            attributes: TEXT,
            first_child: NONE,
            next_sibling: NONE,
        }
    }

    pub(crate) fn is_text(&self) -> bool {
        self.attributes == TEXT
    }
}

/// A parsed tree: the document element (or the `#doc` wrapper) and everything below it, stored
/// in two vectors (nodes and attributes). Names, values and text are borrowed from the input
/// unless a reference, a newline or recovery changed them; [`Document::into_owned`] detaches the
/// tree from the input.
///
/// Walk it from [`Document::root`]; [`Document::to_element`] gives the owned [`Element`] tree.
/// Dropping, comparing, cloning and formatting never recurse, so trees of any depth are fine.
#[derive(Clone)]
pub struct Document<'a> {
    pub(crate) nodes: Vec<NodeData<'a>>,
    pub(crate) attributes: Vec<(Cow<'a, str>, Cow<'a, str>)>,
    pub(crate) root: u32,
}

impl<'a> Document<'a> {
    /// The document element, or the `#doc` wrapper when there is not exactly one top-level node.
    pub fn root(&self) -> ElementRef<'_, 'a> {
        ElementRef {
            doc: self,
            id: self.root,
        }
    }

    /// The same tree, owning its strings.
    pub fn into_owned(self) -> Document<'static> {
        fn own(c: Cow<'_, str>) -> Cow<'static, str> {
            Cow::Owned(c.into_owned())
        }
        Document {
            nodes: self
                .nodes
                .into_iter()
                .map(|n| NodeData {
                    value: own(n.value),
                    attributes: n.attributes,
                    first_child: n.first_child,
                    next_sibling: n.next_sibling,
                })
                .collect(),
            attributes: self
                .attributes
                .into_iter()
                .map(|(n, v)| (own(n), own(v)))
                .collect(),
            root: self.root,
        }
    }

    /// The tree as an owned [`Element`] (built without recursion).
    pub fn to_element(&self) -> Element {
        self.root().to_element()
    }

    /// The tree in the suites' JSON form; see [`crate::to_json`].
    pub fn to_json(&self) -> String {
        crate::to_json(&self.to_element())
    }
}

impl PartialEq for Document<'_> {
    fn eq(&self, other: &Document<'_>) -> bool {
        let mut stack = vec![(self.root(), other.root())];
        while let Some((a, b)) = stack.pop() {
            if a.name() != b.name() || !a.attributes().eq(b.attributes()) {
                return false;
            }
            let (mut x, mut y) = (a.children(), b.children());
            loop {
                match (x.next(), y.next()) {
                    (None, None) => break,
                    (Some(NodeRef::Text(s)), Some(NodeRef::Text(t))) if s == t => {}
                    (Some(NodeRef::Element(e)), Some(NodeRef::Element(f))) => stack.push((e, f)),
                    _ => return false,
                }
            }
        }
        true
    }
}

impl Eq for Document<'_> {}

impl fmt::Debug for Document<'_> {
    /// The tree as JSON-like text, `[name, {attrs}, [children]]`, written without recursion.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_json())
    }
}

/// An element of a [`Document`].
#[derive(Clone, Copy)]
pub struct ElementRef<'d, 'a> {
    doc: &'d Document<'a>,
    id: u32,
}

impl<'d, 'a> ElementRef<'d, 'a> {
    fn data(&self) -> &'d NodeData<'a> {
        &self.doc.nodes[self.id as usize]
    }

    /// The element name (`#doc` for the wrapper).
    pub fn name(&self) -> &'d str {
        &self.data().value
    }

    /// The attributes as `(name, value)`, in order of first occurrence, names unique.
    pub fn attributes(&self) -> Attributes<'d, 'a> {
        let (start, end) = self.data().attributes;
        Attributes {
            inner: self.doc.attributes[start as usize..end as usize].iter(),
        }
    }

    /// The value of the attribute `name`.
    pub fn attribute(&self, name: &str) -> Option<&'d str> {
        self.attributes().find(|&(n, _)| n == name).map(|(_, v)| v)
    }

    /// The children, elements and text (adjacent characters always merged into one text).
    pub fn children(&self) -> Children<'d, 'a> {
        Children {
            doc: self.doc,
            next: self.data().first_child,
        }
    }

    /// The element and everything below it as an owned [`Element`] (built without recursion).
    pub fn to_element(&self) -> Element {
        fn shallow(e: &ElementRef<'_, '_>) -> Element {
            let mut out = Element::new(e.name());
            out.attributes = e
                .attributes()
                .map(|(name, value)| Attribute {
                    name: name.to_owned(),
                    value: value.to_owned(),
                })
                .collect();
            out
        }
        let mut out_stack = vec![shallow(self)];
        let mut work = vec![self.children()];
        while let Some(iter) = work.last_mut() {
            match iter.next() {
                Some(NodeRef::Text(t)) => {
                    if let Some(top) = out_stack.last_mut() {
                        top.children.push(Node::Text(t.to_owned()));
                    }
                }
                Some(NodeRef::Element(e)) => {
                    out_stack.push(shallow(&e));
                    work.push(e.children());
                }
                None => {
                    work.pop();
                    let done = out_stack.pop().unwrap_or_default();
                    match out_stack.last_mut() {
                        Some(parent) => parent.children.push(Node::Element(done)),
                        None => return done,
                    }
                }
            }
        }
        Element::default()
    }
}

impl fmt::Debug for ElementRef<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::to_json(&self.to_element()))
    }
}

/// A child in a [`Document`]: an element or text.
#[derive(Clone, Copy, Debug)]
pub enum NodeRef<'d, 'a> {
    /// An element.
    Element(ElementRef<'d, 'a>),
    /// Text; adjacent characters are always merged into one `Text`.
    Text(&'d str),
}

/// The children of an element, in order ([`ElementRef::children`]).
#[derive(Clone)]
pub struct Children<'d, 'a> {
    doc: &'d Document<'a>,
    next: u32,
}

impl<'d, 'a> Iterator for Children<'d, 'a> {
    type Item = NodeRef<'d, 'a>;

    fn next(&mut self) -> Option<NodeRef<'d, 'a>> {
        if self.next == NONE {
            return None;
        }
        let id = self.next;
        let n = &self.doc.nodes[id as usize];
        self.next = n.next_sibling;
        Some(if n.is_text() {
            NodeRef::Text(&n.value)
        } else {
            NodeRef::Element(ElementRef { doc: self.doc, id })
        })
    }
}

/// The attributes of an element as `(name, value)` ([`ElementRef::attributes`]).
#[derive(Clone)]
pub struct Attributes<'d, 'a> {
    inner: std::slice::Iter<'d, (Cow<'a, str>, Cow<'a, str>)>,
}

impl<'d> Iterator for Attributes<'d, '_> {
    type Item = (&'d str, &'d str);

    fn next(&mut self) -> Option<(&'d str, &'d str)> {
        self.inner.next().map(|(n, v)| (&**n, &**v))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl ExactSizeIterator for Attributes<'_, '_> {}

/// Only for the `#doc` name of node 0.
pub(crate) fn wrapper<'a>() -> NodeData<'a> {
    NodeData::element(Cow::Borrowed(DOC_WRAPPER), (0, 0))
}
