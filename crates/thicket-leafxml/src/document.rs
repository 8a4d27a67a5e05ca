//! The decoded tree, held compactly: every node in one list in document order (an element's
//! descendants are the nodes right after it, up to its `end`), texts and attribute values in one
//! string, names and namespaces interned. Building, walking, comparing and dropping never
//! recurse. Memory per input byte: docs/leafxml.md, "Memory".

use std::io::Read;

use thicket_input::Span;

use crate::error::Error;
use crate::event::EventKind;
use crate::input::Source;
use crate::name::{Interner, Name};
use crate::reader::{Limits, Reader};
use crate::tree::{Attribute, Element, Node};

/// The parent of the root.
const NONE: u32 = u32::MAX;

/// One node (48 bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rec {
    /// Element: from its start tag to its end tag; text: its content assembly.
    span: Span,
    /// Element: local name (interned); text: start in `strings`.
    a: usize,
    /// Element: namespace (interned, plus one; 0 for none); text: end in `strings`.
    b: usize,
    parent: u32,
    /// One past the last node inside this one.
    end: u32,
    /// The attributes before this node's: an element's are from here to the next node's
    /// `attributes` (a text has none).
    attributes: u32,
    text: bool,
}

/// One attribute (24 bytes): name and namespace interned (namespace plus one, 0 for a local
/// attribute), value a range of `strings`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Attr {
    name: u32,
    namespace: u32,
    value: (usize, usize),
}

/// A list position or interned name as stored (`u32`); past that the document is refused.
fn index(n: usize, span: Span) -> Result<u32, Error> {
    u32::try_from(n).map_err(|_| Error {
        code: crate::ErrorCode::TokenLengthLimit,
        line: 0,
        column: 0,
        byte_offset: span.start as u64,
        span,
        codepoint: None,
    })
}

/// A decoded LeafXML document as a tree, compact and owned (no lifetime: it can be kept and sent
/// to another thread). Nodes are reached through [`NodeRef`] handles: [`Document::root`], then
/// `children`, `descendants`, `parent`, `attribute`, `attribute_ns`, `text_content` and `span`.
///
/// ```
/// let doc = thicket_leafxml::Document::parse(
///     b"<feed xmlns='http://www.w3.org/2005/Atom' xmlns:m='urn:m'>\
///       <entry><title>A &amp; B</title><m:thumb m:url='x.png'/></entry></feed>",
/// )?;
/// let feed = doc.root();
/// assert_eq!(feed.namespace(), Some("http://www.w3.org/2005/Atom"));
/// let thumb = feed.descendants().find(|n| n.local_name() == "thumb").unwrap();
/// assert_eq!(thumb.attribute_ns("urn:m", "url"), Some("x.png"));
/// assert_eq!(thumb.parent().map(|p| p.local_name()), Some("entry"));
/// assert_eq!(feed.text_content(), "A & B");
/// assert_eq!(thumb.span().start, 89);
/// # Ok::<(), thicket_leafxml::Error>(())
/// ```
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Document {
    nodes: Vec<Rec>,
    attributes: Vec<Attr>,
    /// Texts and attribute values, one after the other.
    strings: String,
    /// Interned names and namespaces (shared with the `Element`s made from the document).
    names: Vec<Name>,
}

impl std::fmt::Debug for Document {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Document")
            .field("nodes", &self.nodes.len())
            .field("attributes", &self.attributes.len())
            .field("root", &self.root())
            .finish_non_exhaustive()
    }
}

/// Interns `s` as a stored number (`plus` added: 1 for namespaces, so that 0 is none; a
/// namespace is looked up with the interner's last-namespace shortcut).
fn intern(interner: &mut Interner, s: &str, plus: usize, span: Span) -> Result<u32, Error> {
    let n = if plus == 0 {
        interner.number(s)
    } else {
        interner.namespace_number(s)
    };
    index(n + plus, span)
}

impl Document {
    /// Decodes a whole document held in memory.
    pub fn parse(bytes: &[u8]) -> Result<Document, Error> {
        Document::from_reader(Reader::from_bytes(bytes))
    }

    /// Decodes a whole document from a byte source with limits.
    pub fn read(src: impl Read, limits: Limits) -> Result<Document, Error> {
        Document::from_reader(Reader::new(src).with_limits(limits))
    }

    /// Builds the tree from a reader's events (a push reader must have been fed and finished:
    /// a wait for more input is taken as the end, and a document cut off there has an empty
    /// root element with no name).
    pub fn from_reader<S: Source>(reader: Reader<'_, S>) -> Result<Document, Error> {
        // A tree holds the content assemblies whole: no markup events.
        let mut reader = reader.with_markup_events(false);
        let mut doc = Document::default();
        let mut interner = Interner::new();
        let mut open: Vec<usize> = Vec::new();
        while let Some(event) = reader.next_event()? {
            let span = event.span;
            let parent = match open.last() {
                Some(&p) => index(p, span)?,
                None => NONE,
            };
            let id = doc.nodes.len();
            let end = index(id + 1, span)?;
            match event.kind {
                EventKind::Start {
                    namespace,
                    local_name,
                    attributes,
                } => {
                    let first = index(doc.attributes.len(), span)?;
                    for (name, value) in attributes.local() {
                        let attr = Attr {
                            name: intern(&mut interner, name, 0, span)?,
                            namespace: 0,
                            value: doc.push_str(value),
                        };
                        doc.attributes.push(attr);
                    }
                    for (ns, name, value) in attributes.external() {
                        let attr = Attr {
                            name: intern(&mut interner, name, 0, span)?,
                            namespace: intern(&mut interner, ns, 1, span)?,
                            value: doc.push_str(value),
                        };
                        doc.attributes.push(attr);
                    }
                    index(doc.attributes.len(), span)?;
                    let rec = Rec {
                        span,
                        a: interner.number(&local_name),
                        b: namespace.map_or(0, |ns| interner.namespace_number(&ns) + 1),
                        parent,
                        end,
                        attributes: first,
                        text: false,
                    };
                    doc.nodes.push(rec);
                    open.push(id);
                }
                EventKind::Comment(_)
                | EventKind::Instruction { .. }
                | EventKind::Doctype { .. } => continue,
                EventKind::Text(text) => {
                    let (a, b) = doc.push_str(&text);
                    doc.nodes.push(Rec {
                        span,
                        a,
                        b,
                        parent,
                        end,
                        attributes: index(doc.attributes.len(), span)?,
                        text: true,
                    });
                }
                EventKind::End { .. } => {
                    if let Some(e) = open.pop() {
                        let end = index(doc.nodes.len(), span)?;
                        let rec = &mut doc.nodes[e];
                        rec.end = end;
                        rec.span.end = span.end;
                    }
                }
            }
        }
        doc.names = interner.into_names();
        if doc.nodes.is_empty() {
            doc.names.push(Name::default());
            let empty = doc.names.len() - 1;
            doc.nodes.push(Rec {
                span: Span::empty(0),
                a: empty,
                b: 0,
                parent: NONE,
                end: 1,
                attributes: 0,
                text: false,
            });
        }
        doc.nodes.shrink_to_fit();
        doc.attributes.shrink_to_fit();
        doc.strings.shrink_to_fit();
        doc.names.shrink_to_fit();
        Ok(doc)
    }

    fn push_str(&mut self, s: &str) -> (usize, usize) {
        let start = self.strings.len();
        self.strings.push_str(s);
        (start, self.strings.len())
    }

    /// The root element.
    pub fn root(&self) -> NodeRef<'_> {
        NodeRef { doc: self, id: 0 }
    }

    /// The node numbered `id` (nodes are numbered in document order from 0, the root).
    pub fn node(&self, id: usize) -> Option<NodeRef<'_>> {
        (id < self.nodes.len()).then_some(NodeRef { doc: self, id })
    }

    /// How many nodes (elements and texts) the document has.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Always false: a document has a root element.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The tree as an owned [`Element`] (for editing and writing).
    pub fn to_element(&self) -> Element {
        self.root().to_element()
    }

    /// Bytes of memory the document holds (its lists' and strings' capacities), for
    /// measurements.
    pub fn heap_size(&self) -> usize {
        self.nodes.capacity() * size_of::<Rec>()
            + self.attributes.capacity() * size_of::<Attr>()
            + self.strings.capacity()
            + self.names.capacity() * size_of::<Name>()
            + self.names.iter().map(Name::heap_size).sum::<usize>()
    }

    fn name(&self, id: usize) -> &str {
        &self.names[id]
    }

    /// The attributes of node `id` (none for a text).
    fn attrs(&self, id: usize) -> &[Attr] {
        let r = &self.nodes[id];
        if r.text {
            return &[];
        }
        let end = self
            .nodes
            .get(id + 1)
            .map_or(self.attributes.len(), |n| n.attributes as usize);
        &self.attributes[r.attributes as usize..end]
    }
}

/// A node of a [`Document`]: an element or a text. A `Copy` handle.
#[derive(Clone, Copy)]
pub struct NodeRef<'d> {
    doc: &'d Document,
    id: usize,
}

impl PartialEq for NodeRef<'_> {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.doc, other.doc) && self.id == other.id
    }
}

impl Eq for NodeRef<'_> {}

impl std::fmt::Debug for NodeRef<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.text() {
            Some(t) => f
                .debug_struct("Text")
                .field("text", &t)
                .field("span", &self.span())
                .finish(),
            None => f
                .debug_struct("Element")
                .field("namespace", &self.namespace())
                .field("local_name", &self.local_name())
                .field("span", &self.span())
                .finish_non_exhaustive(),
        }
    }
}

impl<'d> NodeRef<'d> {
    fn rec(&self) -> &'d Rec {
        &self.doc.nodes[self.id]
    }

    /// Its number in document order (the root is 0).
    pub fn id(&self) -> usize {
        self.id
    }

    /// The document it belongs to.
    pub fn document(&self) -> &'d Document {
        self.doc
    }

    /// Whether it is an element.
    pub fn is_element(&self) -> bool {
        !self.rec().text
    }

    /// Whether it is a text.
    pub fn is_text(&self) -> bool {
        self.rec().text
    }

    /// A text node's text (`None` for an element).
    pub fn text(&self) -> Option<&'d str> {
        let r = self.rec();
        r.text.then(|| &self.doc.strings[r.a..r.b])
    }

    /// An element's local name (empty for a text).
    pub fn local_name(&self) -> &'d str {
        let r = self.rec();
        if r.text { "" } else { self.doc.name(r.a) }
    }

    /// An element's namespace (`None` for no namespace, and for a text).
    pub fn namespace(&self) -> Option<&'d str> {
        let r = self.rec();
        (!r.text && r.b > 0).then(|| self.doc.name(r.b - 1))
    }

    /// Where it is in the decoded text: an element from the start of its start tag to the end
    /// of its end tag (an empty tag: the tag), a text from its first to its last token.
    pub fn span(&self) -> Span {
        self.rec().span
    }

    /// The element it is in (`None` for the root).
    pub fn parent(&self) -> Option<NodeRef<'d>> {
        let p = self.rec().parent;
        (p != NONE).then_some(NodeRef {
            doc: self.doc,
            id: p as usize,
        })
    }

    /// Its children in document order (none for a text).
    pub fn children(&self) -> Children<'d> {
        Children {
            doc: self.doc,
            next: self.id + 1,
            end: self.rec().end as usize,
        }
    }

    /// This node and every node inside it, in document order, at any depth (no recursion).
    pub fn descendants(&self) -> Descendants<'d> {
        Descendants {
            doc: self.doc,
            next: self.id,
            end: self.rec().end as usize,
        }
    }

    fn attrs(&self) -> &'d [Attr] {
        self.doc.attrs(self.id)
    }

    /// The local attribute map in document order: (name, value).
    pub fn attributes(&self) -> impl Iterator<Item = (&'d str, &'d str)> + 'd {
        let doc = self.doc;
        self.attrs()
            .iter()
            .filter(|a| a.namespace == 0)
            .map(move |a| {
                (
                    doc.name(a.name as usize),
                    &doc.strings[a.value.0..a.value.1],
                )
            })
    }

    /// The external attribute map in document order: (namespace, local name, value).
    pub fn external_attributes(&self) -> impl Iterator<Item = (&'d str, &'d str, &'d str)> + 'd {
        let doc = self.doc;
        self.attrs()
            .iter()
            .filter(|a| a.namespace > 0)
            .map(move |a| {
                (
                    doc.name(a.namespace as usize - 1),
                    doc.name(a.name as usize),
                    &doc.strings[a.value.0..a.value.1],
                )
            })
    }

    /// The value of the local attribute `name` (an attribute without a prefix).
    pub fn attribute(&self, name: &str) -> Option<&'d str> {
        self.attributes().find(|&(n, _)| n == name).map(|(_, v)| v)
    }

    /// The value of the attribute `local` in `namespace` (a prefixed attribute).
    pub fn attribute_ns(&self, namespace: &str, local: &str) -> Option<&'d str> {
        self.external_attributes()
            .find(|&(ns, n, _)| ns == namespace && n == local)
            .map(|(_, _, v)| v)
    }

    /// The texts inside it, joined in document order (a text: its text).
    pub fn text_content(&self) -> String {
        self.descendants().filter_map(|n| n.text()).collect()
    }

    /// The element and everything inside it as an owned [`Element`] (a text: an element with
    /// no name holding it).
    pub fn to_element(&self) -> Element {
        // The document's own names, shared.
        let name = |id: usize| self.doc.names[id].clone();
        let doc = self.doc;
        let own = |n: NodeRef<'_>| {
            let r = n.rec();
            let mut e = Element::new(name(r.a));
            e.namespace = (r.b > 0).then(|| name(r.b - 1));
            e.attributes = Vec::with_capacity(n.attrs().len());
            for a in n.attrs() {
                e.attributes.push(Attribute {
                    namespace: (a.namespace > 0).then(|| name(a.namespace as usize - 1)),
                    local_name: name(a.name as usize),
                    value: doc.strings[a.value.0..a.value.1].to_owned(),
                });
            }
            e
        };
        if let Some(t) = self.text() {
            let mut e = Element::new("");
            e.children.push(Node::Text(t.to_owned()));
            return e;
        }
        // Open elements being filled; a node's element goes to its parent when the walk leaves
        // it.
        let mut stack: Vec<(Element, usize)> = vec![(own(*self), self.rec().end as usize)];
        for n in self.descendants().skip(1) {
            while stack.len() > 1 && stack.last().is_some_and(|&(_, end)| n.id >= end) {
                close(&mut stack);
            }
            match n.text() {
                Some(t) => {
                    if let Some((top, _)) = stack.last_mut() {
                        top.children.push(Node::Text(t.to_owned()));
                    }
                }
                None => stack.push((own(n), n.rec().end as usize)),
            }
        }
        while stack.len() > 1 {
            close(&mut stack);
        }
        let mut root = stack.pop().map(|(e, _)| e).unwrap_or_default();
        root.children.shrink_to_fit();
        root
    }
}

/// Moves the innermost open element into its parent (its children list shrunk to fit).
fn close(stack: &mut Vec<(Element, usize)>) {
    if let Some((mut e, _)) = stack.pop()
        && let Some((parent, _)) = stack.last_mut()
    {
        e.children.shrink_to_fit();
        parent.children.push(e.into());
    }
}

/// The children of a node ([`NodeRef::children`]).
#[derive(Clone, Debug)]
pub struct Children<'d> {
    doc: &'d Document,
    next: usize,
    end: usize,
}

impl<'d> Iterator for Children<'d> {
    type Item = NodeRef<'d>;

    fn next(&mut self) -> Option<NodeRef<'d>> {
        if self.next >= self.end {
            return None;
        }
        let id = self.next;
        self.next = self.doc.nodes[id].end as usize;
        Some(NodeRef { doc: self.doc, id })
    }
}

/// A node and the nodes inside it ([`NodeRef::descendants`]).
#[derive(Clone, Debug)]
pub struct Descendants<'d> {
    doc: &'d Document,
    next: usize,
    end: usize,
}

impl<'d> Iterator for Descendants<'d> {
    type Item = NodeRef<'d>;

    fn next(&mut self) -> Option<NodeRef<'d>> {
        if self.next >= self.end {
            return None;
        }
        let id = self.next;
        self.next += 1;
        Some(NodeRef { doc: self.doc, id })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.end - self.next;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Descendants<'_> {}
