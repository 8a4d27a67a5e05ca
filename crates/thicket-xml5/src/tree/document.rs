//! The document: an arena of nodes (node 0 is the document node) whose attributes and child
//! lists are two lists shared by all nodes and whose strings are 8-byte spans of the input or
//! of one text buffer, so building a node allocates nothing of its own; and the views of its
//! attributes ([`AttributeRef`], [`Attributes`]).

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Write as _;

use thicket_input::Span;

use super::{Attribute, Element, NodeData, NodeId, XmlDeclaration, qualified};

/// A string of a document: `len` bytes from `start` in the document's address space, where
/// offsets below the source's length are in [`Document::source`] (the input of [`crate::parse`]) and
/// the rest in [`Document::text`] (strings not borrowed from the source). Offsets past `u32`
/// saturate: strings of a document past 4 GiB read as empty (or, past 8 GiB, wrong).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Span32 {
    pub(super) start: u32,
    pub(super) len: u32,
}

impl Span32 {
    /// A node's [`Node::span`] when the node did not come from the input.
    pub(super) const NONE: Span32 = Span32 {
        start: u32::MAX,
        len: 0,
    };

    pub(super) fn new(start: usize, len: usize) -> Span32 {
        Span32 {
            start: n32(start),
            len: n32(len),
        }
    }

    /// The span of input offsets `span` (saturating past 4 GiB).
    pub(super) fn of(span: Span) -> Span32 {
        Span32::new(span.start, span.end.saturating_sub(span.start))
    }

    /// Just past the end.
    pub(super) fn end(self) -> usize {
        self.start as usize + self.len as usize
    }
}

/// An attribute as a document stores it: 24 bytes (four `Cow`s took 96), so a parse of an
/// attribute-heavy document touches (and the kernel faults in) a quarter of the memory.
#[derive(Clone, Copy, Debug)]
pub(super) struct AttributeData {
    /// The qualified name.
    pub(super) name: Span32,
    pub(super) value: Span32,
    /// 0 for no namespace, else 1 + its index in [`Document::namespaces`].
    pub(super) namespace: u32,
    /// 0 for no prefix, else the prefix's length + 1 (the name is `prefix:local`).
    pub(super) prefix_len: u32,
}

const _: () = assert!(std::mem::size_of::<AttributeData>() == 24);

/// An attribute of an element in a [`Document`] (from [`Document::attributes`]).
#[derive(Clone, Copy)]
pub struct AttributeRef<'d> {
    doc: &'d Document<'d>,
    data: &'d AttributeData,
}

impl<'d> AttributeRef<'d> {
    /// The namespace, if the name is in one (`xmlns` declarations are in [`XMLNS_NAMESPACE`](super::XMLNS_NAMESPACE)).
    pub fn namespace(&self) -> Option<&'d str> {
        let i = (self.data.namespace as usize).checked_sub(1)?;
        self.doc.namespaces.get(i).map(|ns| &**ns)
    }

    /// The prefix as written.
    pub fn prefix(&self) -> Option<&'d str> {
        self.doc.prefix(self.data.name, self.data.prefix_len)
    }

    /// The local name.
    pub fn local(&self) -> &'d str {
        self.doc.local(self.data.name, self.data.prefix_len)
    }

    /// `prefix:local` or `local`, as written.
    pub fn qualified_name(&self) -> &'d str {
        self.doc.str(self.data.name)
    }

    /// The value.
    pub fn value(&self) -> &'d str {
        self.doc.str(self.data.value)
    }

    /// The attribute as an [`Attribute`] borrowing its strings from the document.
    pub fn to_attribute(&self) -> Attribute<'d> {
        Attribute {
            namespace: self.namespace().map(Cow::Borrowed),
            prefix: self.prefix().map(Cow::Borrowed),
            local: Cow::Borrowed(self.local()),
            value: Cow::Borrowed(self.value()),
        }
    }
}

/// Attributes are equal when their namespaces, prefixes, local names and values are.
impl PartialEq for AttributeRef<'_> {
    fn eq(&self, other: &AttributeRef<'_>) -> bool {
        self.namespace() == other.namespace()
            && self.prefix() == other.prefix()
            && self.local() == other.local()
            && self.value() == other.value()
    }
}

impl Eq for AttributeRef<'_> {}

impl std::fmt::Debug for AttributeRef<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Attribute")
            .field("namespace", &self.namespace())
            .field("prefix", &self.prefix())
            .field("local", &self.local())
            .field("value", &self.value())
            .finish()
    }
}

/// The attributes of an element in source order: an iterator of [`AttributeRef`]s.
#[derive(Clone)]
pub struct Attributes<'d> {
    doc: &'d Document<'d>,
    list: std::slice::Iter<'d, AttributeData>,
}

impl<'d> Attributes<'d> {
    /// The `i`th attribute still to come, if there is one.
    pub fn get(&self, i: usize) -> Option<AttributeRef<'d>> {
        let doc = self.doc;
        self.list
            .as_slice()
            .get(i)
            .map(|data| AttributeRef { doc, data })
    }
}

impl<'d> Iterator for Attributes<'d> {
    type Item = AttributeRef<'d>;

    fn next(&mut self) -> Option<AttributeRef<'d>> {
        let doc = self.doc;
        self.list.next().map(|data| AttributeRef { doc, data })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.list.size_hint()
    }
}

impl DoubleEndedIterator for Attributes<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        let doc = self.doc;
        self.list.next_back().map(|data| AttributeRef { doc, data })
    }
}

impl ExactSizeIterator for Attributes<'_> {}

impl std::fmt::Debug for Attributes<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.clone()).finish()
    }
}

/// A range of the document's shared child list: `len` ids from `start` (the room a list has
/// past its length, when [`Document::append`] gave it some, is in [`Document::child_room`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Range32 {
    pub(super) start: u32,
    pub(super) len: u32,
}

impl Range32 {
    pub(super) const EMPTY: Range32 = Range32 { start: 0, len: 0 };

    pub(super) fn new(start: usize, len: usize) -> Range32 {
        Range32 {
            start: n32(start),
            len: n32(len),
        }
    }

    pub(super) fn of<T>(self, list: &[T]) -> &[T] {
        let start = self.start as usize;
        list.get(start..start + self.len as usize).unwrap_or(&[])
    }
}

/// `v` as a `u32` (lists and texts past 4 GiB saturate; their accessors then give nothing).
pub(super) fn n32(v: usize) -> u32 {
    u32::try_from(v).unwrap_or(u32::MAX)
}

/// What a node holds, as the document stores it: strings as [`Span32`]s, an element's
/// namespace as a number in [`Document::namespaces`] (the table attributes use), so that a node
/// takes 44 bytes (it took about 112 with `Cow`s) and a parse writes less than half the memory.
#[derive(Clone, Copy, Debug)]
pub(super) enum Payload {
    /// The document node.
    Document,
    Element {
        /// The qualified name.
        name: Span32,
        /// 0 for no namespace, else 1 + its index in [`Document::namespaces`].
        namespace: u32,
        /// 0 for no prefix, else the prefix's length + 1 (the name is `prefix:local`).
        prefix_len: u32,
        /// Where its attributes are in [`Document::attributes`].
        attributes_start: u32,
        attributes_len: u32,
    },
    Text {
        text: Span32,
        /// When the text is in [`Document::text`]: the bytes it owns there from its start (at
        /// least its length; the rest is padding for text merged into it later).
        room: u32,
    },
    Comment(Span32),
    Pi {
        target: Span32,
        data: Span32,
    },
    Doctype {
        /// Which of the strings are present: [`HAS_NAME`], [`HAS_PUBLIC_ID`],
        /// [`HAS_SYSTEM_ID`].
        present: u8,
        name: Span32,
        public_id: Span32,
        system_id: Span32,
    },
}

/// [`Payload::Doctype`]: the name is present.
const HAS_NAME: u8 = 1;
/// [`Payload::Doctype`]: the public identifier is present.
const HAS_PUBLIC_ID: u8 = 2;
/// [`Payload::Doctype`]: the system identifier is present.
const HAS_SYSTEM_ID: u8 = 4;

#[derive(Clone, Copy, Debug)]
pub(super) struct Node {
    pub(super) payload: Payload,
    /// The parent's index; [`NO_PARENT`] for the document node.
    pub(super) parent: u32,
    /// Where its children's ids are in [`Document::child_ids`]. The tree builder writes an
    /// element's children there when the element closes (they are contiguous from then on);
    /// [`Document::append`] grows a list in place or moves it to the end with room to spare.
    pub(super) children: Range32,
    /// The input it came from (offsets into the parsed text, not the document's address
    /// space); [`Span32::NONE`] for a node appended through the API.
    pub(super) span: Span32,
}

const _: () = assert!(std::mem::size_of::<Node>() <= 48);

/// [`Node::parent`] of the document node.
const NO_PARENT: u32 = u32::MAX;

impl Node {
    pub(super) fn new(payload: Payload, parent: NodeId, span: Span32) -> Node {
        Node {
            payload,
            parent: parent.0,
            children: Range32::EMPTY,
            span,
        }
    }
}

/// A document: an arena of nodes. Node 0 is the document node. Attributes and child lists
/// are kept in two lists shared by all nodes, and strings are ranges of the source (the input
/// of [`crate::parse`]) or of one text buffer, so building a node allocates nothing of its own.
#[derive(Clone)]
pub struct Document<'a> {
    pub(super) nodes: Vec<Node>,
    pub(super) attributes: Vec<AttributeData>,
    /// The input of [`crate::parse`] (empty for other documents): [`Span32`]s below its length are
    /// ranges of it.
    pub(super) source: &'a str,
    /// The strings not borrowed from `source`: [`Span32`]s from `source.len()` on.
    pub(super) text: String,
    /// The namespaces of elements and attributes, each once.
    pub(super) namespaces: Vec<Cow<'a, str>>,
    /// 1 + the index of each namespace in `namespaces`, once there are more than
    /// [`SCAN_NAMESPACES`] (fewer are compared one by one); keyed (`RandomState`).
    namespace_index: HashMap<Cow<'a, str>, u32>,
    /// The address and length of the borrowed namespace string last numbered, and its number:
    /// the elements of a document in a default namespace ask for the same string over and
    /// over. Only borrowed strings are remembered (they live, unchanged, as long as the
    /// document; an owned string's address may be reused for another string).
    last_namespace: (usize, usize, u32),
    pub(super) child_ids: Vec<NodeId>,
    /// The slots reserved for each node's child list past its length, by node index (only for
    /// lists [`Document::append`] moved with room to spare; missing entries are 0).
    child_room: Vec<u32>,
    /// The XML declaration, when the input started with one (draft profile).
    pub xml_declaration: Option<XmlDeclaration>,
}

impl Default for Document<'_> {
    fn default() -> Self {
        Document::new()
    }
}

/// Two documents are equal when they have the same nodes with the same ids, data, attributes,
/// parents and children (however their lists and strings are laid out; node spans are not
/// compared: a document built with [`Document::append`] equals the parsed one).
impl PartialEq for Document<'_> {
    fn eq(&self, other: &Document<'_>) -> bool {
        self.xml_declaration == other.xml_declaration
            && self.nodes.len() == other.nodes.len()
            && self
                .nodes
                .iter()
                .zip(&other.nodes)
                .enumerate()
                .all(|(i, (a, b))| {
                    let id = NodeId::from_index(i);
                    a.parent == b.parent
                        && self.data(id) == other.data(id)
                        && self.children(id) == other.children(id)
                        && self.attributes(id).eq(other.attributes(id))
                })
    }
}

impl Eq for Document<'_> {}

/// Each node with its data, parent, children and attributes.
impl std::fmt::Debug for Document<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        struct NodeDebug<'d>(&'d Document<'d>, NodeId);
        impl std::fmt::Debug for NodeDebug<'_> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                let NodeDebug(doc, id) = *self;
                f.debug_struct("Node")
                    .field("data", &doc.data(id))
                    .field("parent", &doc.parent(id))
                    .field("children", &doc.children(id))
                    .field("attributes", &doc.attributes(id))
                    .finish()
            }
        }
        let nodes: Vec<NodeDebug<'_>> = (0..self.nodes.len())
            .map(|i| NodeDebug(self, NodeId::from_index(i)))
            .collect();
        f.debug_struct("Document")
            .field("nodes", &nodes)
            .field("xml_declaration", &self.xml_declaration)
            .finish()
    }
}

impl<'a> Document<'a> {
    /// An empty document.
    pub fn new() -> Document<'a> {
        Document::with_source("")
    }

    /// An empty document whose strings may be ranges of `source`.
    pub(super) fn with_source(source: &'a str) -> Document<'a> {
        Document {
            nodes: vec![Node {
                payload: Payload::Document,
                parent: NO_PARENT,
                children: Range32::EMPTY,
                span: Span32::NONE,
            }],
            attributes: Vec::new(),
            source,
            text: String::new(),
            namespaces: Vec::new(),
            namespace_index: HashMap::default(),
            last_namespace: (0, 0, 0),
            child_ids: Vec::new(),
            child_room: Vec::new(),
            xml_declaration: None,
        }
    }

    /// The document node.
    pub fn root(&self) -> NodeId {
        NodeId(0)
    }

    /// The same document owning all its strings.
    pub fn into_owned(self) -> Document<'static> {
        fn o(c: Cow<'_, str>) -> Cow<'static, str> {
            Cow::Owned(c.into_owned())
        }
        // The source becomes the start of the text: every span stays as it is.
        let text = if self.source.is_empty() {
            self.text
        } else {
            let mut text = String::with_capacity(self.source.len() + self.text.len());
            text.push_str(self.source);
            text.push_str(&self.text);
            text
        };
        Document {
            nodes: self.nodes,
            attributes: self.attributes,
            source: "",
            text,
            namespaces: self.namespaces.into_iter().map(o).collect(),
            namespace_index: self
                .namespace_index
                .into_iter()
                .map(|(k, v)| (o(k), v))
                .collect(),
            last_namespace: (0, 0, 0),
            child_ids: self.child_ids,
            child_room: self.child_room,
            xml_declaration: self.xml_declaration,
        }
    }

    /// The first element child of the document node.
    pub fn root_element(&self) -> Option<NodeId> {
        self.children(self.root())
            .iter()
            .copied()
            .find(|&c| self.is_element(c))
    }

    /// Number of nodes, the document node included.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True when the document has only its document node.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() == 1
    }

    fn is_element(&self, id: NodeId) -> bool {
        matches!(
            self.nodes.get(id.index()).map(|n| &n.payload),
            Some(Payload::Element { .. })
        )
    }

    /// What `id` is, its strings borrowed from the document.
    ///
    /// # Panics
    /// When `id` is not a node of this document.
    pub fn data(&self, id: NodeId) -> NodeData<'_> {
        let s = |span| Cow::Borrowed(self.str(span));
        match self.nodes[id.index()].payload {
            Payload::Document => NodeData::Document,
            Payload::Element {
                name,
                namespace,
                prefix_len,
                ..
            } => NodeData::Element(self.element_view(name, namespace, prefix_len)),
            Payload::Text { text, .. } => NodeData::Text(s(text)),
            Payload::Comment(text) => NodeData::Comment(s(text)),
            Payload::Pi { target, data } => NodeData::Pi {
                target: s(target),
                data: s(data),
            },
            Payload::Doctype {
                present,
                name,
                public_id,
                system_id,
            } => {
                let o = |flag: u8, span| (present & flag != 0).then(|| s(span));
                NodeData::Doctype {
                    name: o(HAS_NAME, name),
                    public_id: o(HAS_PUBLIC_ID, public_id),
                    system_id: o(HAS_SYSTEM_ID, system_id),
                }
            }
        }
    }

    /// The element at `id`, if it is one, its strings borrowed from the document.
    pub fn element(&self, id: NodeId) -> Option<Element<'_>> {
        match self.nodes.get(id.index())?.payload {
            Payload::Element {
                name,
                namespace,
                prefix_len,
                ..
            } => Some(self.element_view(name, namespace, prefix_len)),
            _ => None,
        }
    }

    fn element_view(&self, name: Span32, namespace: u32, prefix_len: u32) -> Element<'_> {
        Element {
            namespace: self.namespace(namespace).map(Cow::Borrowed),
            prefix: self.prefix(name, prefix_len).map(Cow::Borrowed),
            local: Cow::Borrowed(self.local(name, prefix_len)),
        }
    }

    /// The namespace numbered `n` (see [`Document::namespace_number`]).
    pub(super) fn namespace(&self, n: u32) -> Option<&str> {
        let i = (n as usize).checked_sub(1)?;
        self.namespaces.get(i).map(|ns| &**ns)
    }

    /// The prefix of the qualified name `name` (`prefix_len`: see [`AttributeData`]).
    fn prefix(&self, name: Span32, prefix_len: u32) -> Option<&str> {
        let n = (prefix_len as usize).checked_sub(1)?;
        self.str(name).get(..n)
    }

    /// The local part of the qualified name `name`.
    pub(super) fn local(&self, name: Span32, prefix_len: u32) -> &str {
        let name = self.str(name);
        name.get(prefix_len as usize..).unwrap_or(name)
    }

    /// The input `id` came from, as byte offsets into the parsed text (the input of [`crate::parse`]
    /// or [`crate::Parser`], [`crate::ParsedBytes::text`]): for an element, from the `<` of its
    /// start tag to the end of its end tag (or, closed otherwise, to where it was closed: the
    /// start of the end tag that closed an outer element, the end of the input); for text,
    /// from its first character to its last (references and CDATA markup included); for the
    /// document node, the whole input. `None` for nodes added with [`Document::append`] and
    /// for ids that are not nodes. Like roxmltree's `Node::range`.
    pub fn span(&self, id: NodeId) -> Option<Span> {
        let s = self.nodes.get(id.index())?.span;
        (s.start != u32::MAX).then(|| Span::new(s.start as usize, s.end()))
    }

    /// [`Document::span`] as a `Range`.
    pub fn range(&self, id: NodeId) -> Option<std::ops::Range<usize>> {
        self.span(id).map(|s| s.start..s.end)
    }

    /// The children of `id`, in order.
    pub fn children(&self, id: NodeId) -> &[NodeId] {
        match self.nodes.get(id.index()) {
            Some(n) => n.children.of(&self.child_ids),
            None => &[],
        }
    }

    /// The attributes of `id` in source order (namespace declarations included); none when it
    /// is not an element.
    pub fn attributes(&self, id: NodeId) -> Attributes<'_> {
        let list = match self.nodes.get(id.index()).map(|n| n.payload) {
            Some(Payload::Element {
                attributes_start,
                attributes_len,
                ..
            }) => {
                let start = attributes_start as usize;
                (self.attributes)
                    .get(start..start + attributes_len as usize)
                    .unwrap_or(&[])
            }
            _ => &[],
        };
        Attributes {
            doc: self,
            list: list.iter(),
        }
    }

    /// The string `span` stands for.
    pub(super) fn str(&self, span: Span32) -> &str {
        let (start, end) = (span.start as usize, span.end());
        let s = match start.checked_sub(self.source.len()) {
            None => self.source.get(start..end),
            Some(i) => self.text.get(i..i + span.len as usize),
        };
        s.unwrap_or("")
    }

    /// Where `s` is in the source, when it is a slice of it.
    pub(super) fn offset_in_source(&self, s: &str) -> Option<usize> {
        let offset = (s.as_ptr() as usize).wrapping_sub(self.source.as_ptr() as usize);
        (offset < self.source.len() && s.len() <= self.source.len() - offset).then_some(offset)
    }

    /// The end of the document's address space (see [`Span32`]).
    fn text_end(&self) -> usize {
        self.source.len() + self.text.len()
    }

    /// Keeps `s`: a range of the source when it is a slice of it, else copied to the text.
    pub(super) fn keep(&mut self, s: &str) -> Span32 {
        if let Some(offset) = self.offset_in_source(s) {
            return Span32::new(offset, s.len());
        }
        let start = self.text_end();
        self.text.push_str(s);
        Span32::new(start, s.len())
    }

    /// Keeps the qualified name `prefix:local` (one range of the source when it is written so
    /// there); returns it and its `prefix_len` (see [`AttributeData`]).
    fn keep_name(&mut self, prefix: Option<&str>, local: &str) -> (Span32, u32) {
        let Some(prefix) = prefix else {
            return (self.keep(local), 0);
        };
        let prefix_len = prefix.len() + 1;
        if let (Some(p), Some(l)) = (self.offset_in_source(prefix), self.offset_in_source(local))
            && l == p + prefix_len
            && self.source.as_bytes().get(p + prefix.len()) == Some(&b':')
        {
            return (Span32::new(p, prefix_len + local.len()), n32(prefix_len));
        }
        let start = self.text_end();
        self.text.push_str(prefix);
        self.text.push(':');
        self.text.push_str(local);
        (
            Span32::new(start, prefix_len + local.len()),
            n32(prefix_len),
        )
    }

    /// Keeps an optional string of a DOCTYPE, setting `flag` in `present` when it is there.
    fn keep_doctype_string(&mut self, s: Option<&str>, present: &mut u8, flag: u8) -> Span32 {
        match s {
            Some(s) => {
                *present |= flag;
                self.keep(s)
            }
            None => Span32::default(),
        }
    }

    /// The payload of `data` with its strings kept (an element without attributes).
    pub(super) fn payload(&mut self, data: NodeData<'a>) -> Payload {
        match data {
            NodeData::Document => Payload::Document,
            NodeData::Element(e) => {
                let namespace = self.namespace_number(e.namespace);
                let (name, prefix_len) = self.keep_name(e.prefix.as_deref(), &e.local);
                Payload::Element {
                    name,
                    namespace,
                    prefix_len,
                    attributes_start: 0,
                    attributes_len: 0,
                }
            }
            NodeData::Text(t) => {
                let text = self.keep(&t);
                Payload::Text { text, room: 0 }
            }
            NodeData::Comment(t) => Payload::Comment(self.keep(&t)),
            NodeData::Pi { target, data } => Payload::Pi {
                target: self.keep(&target),
                data: self.keep(&data),
            },
            NodeData::Doctype {
                name,
                public_id,
                system_id,
            } => {
                let mut present = 0;
                let name = self.keep_doctype_string(name.as_deref(), &mut present, HAS_NAME);
                let public_id =
                    self.keep_doctype_string(public_id.as_deref(), &mut present, HAS_PUBLIC_ID);
                let system_id =
                    self.keep_doctype_string(system_id.as_deref(), &mut present, HAS_SYSTEM_ID);
                Payload::Doctype {
                    present,
                    name,
                    public_id,
                    system_id,
                }
            }
        }
    }

    /// Appends `s` to the text node at index `node`: in place when the text ends where `s` is
    /// in the source, or has room after it in the text buffer, or ends the buffer; else the
    /// text moves to the end of the buffer with twice the room it needs, so that merges into
    /// texts that alternate stay amortized O(1) a byte.
    pub(super) fn merge_text(&mut self, node: usize, s: &str) {
        let Some(Payload::Text { text, room }) = self.nodes.get(node).map(|n| n.payload) else {
            return;
        };
        if s.is_empty() {
            return;
        }
        let slen = self.source.len();
        let (start, end) = (text.start as usize, text.end());
        let len = text.len as usize + s.len();
        let in_text = start >= slen;
        let room = (room as usize).max(text.len as usize);
        let (new_start, new_room) = if !in_text && self.offset_in_source(s) == Some(end) {
            // Adjacent in the source.
            (start, 0)
        } else if in_text && start + room == self.text_end() {
            // Its room ends the buffer: write over the padding and past it.
            self.text.truncate(end.saturating_sub(slen));
            self.text.push_str(s);
            (start, len)
        } else if in_text && len <= room {
            let at = end.saturating_sub(slen);
            self.text.replace_range(at..at + s.len(), s);
            (start, room)
        } else {
            let new_start = self.text_end();
            let new_room = (2 * len).max(16);
            let old = self.str(text).to_owned();
            self.text.reserve(new_room);
            self.text.push_str(&old);
            self.text.push_str(s);
            let padding = new_room - len;
            self.text.extend(std::iter::repeat_n('\0', padding));
            (new_start, new_room)
        };
        if let Some(n) = self.nodes.get_mut(node) {
            n.payload = Payload::Text {
                text: Span32::new(new_start, len),
                room: n32(new_room),
            };
        }
    }

    /// The number of namespace `ns` (0 for none), added to the table if new.
    pub(super) fn namespace_number(&mut self, ns: Option<Cow<'a, str>>) -> u32 {
        let Some(ns) = ns else {
            return 0;
        };
        let key = match ns {
            Cow::Borrowed(s) => (s.as_ptr() as usize, s.len()),
            Cow::Owned(_) => (0, 0),
        };
        if key.1 > 0 && (key.0, key.1) == (self.last_namespace.0, self.last_namespace.1) {
            return self.last_namespace.2;
        }
        let n = self.find_namespace(ns);
        if key.1 > 0 {
            self.last_namespace = (key.0, key.1, n);
        }
        n
    }

    /// [`Document::namespace_number`] of a namespace the tree builder resolved (copied into the
    /// table when new).
    pub(super) fn namespace_number_str(&mut self, ns: &str) -> u32 {
        let found = if self.namespaces.len() <= SCAN_NAMESPACES {
            (self.namespaces.iter().rposition(|n| **n == *ns)).map(|i| n32(i + 1))
        } else {
            self.namespace_index.get(ns).copied()
        };
        match found {
            Some(n) => n,
            None => self.find_namespace(Cow::Owned(ns.to_owned())),
        }
    }

    /// [`Document::namespace_number`] of a namespace.
    fn find_namespace(&mut self, ns: Cow<'a, str>) -> u32 {
        // A namespace from a binding is mostly the very string it was first seen as (borrowed
        // from the declaration): compare addresses before contents.
        let at = |n: &Cow<'_, str>| n.as_ptr() == ns.as_ptr() && n.len() == ns.len();
        if self.namespaces.len() <= SCAN_NAMESPACES {
            let found = (self.namespaces.iter().rposition(at))
                .or_else(|| self.namespaces.iter().rposition(|n| *n == ns));
            if let Some(i) = found {
                return n32(i + 1);
            }
        } else if let Some(&i) = self.namespace_index.get(&ns) {
            return i;
        }
        self.namespaces.push(ns);
        if self.namespaces.len() > SCAN_NAMESPACES {
            let known = self.namespace_index.len();
            for (i, ns) in self.namespaces.iter().enumerate().skip(known) {
                self.namespace_index.insert(ns.clone(), n32(i + 1));
            }
        }
        n32(self.namespaces.len())
    }

    /// Stores an attribute (`prefix_len`: see [`AttributeData`]).
    pub(super) fn push_attribute_data(
        &mut self,
        namespace: u32,
        name: Span32,
        prefix_len: u32,
        value: Span32,
    ) {
        self.attributes.push(AttributeData {
            name,
            value,
            namespace,
            prefix_len,
        });
    }

    /// The parent of `id` (`None` for the document node).
    ///
    /// # Panics
    /// When `id` is not a node of this document.
    pub fn parent(&self, id: NodeId) -> Option<NodeId> {
        let parent = self.nodes[id.index()].parent;
        (parent != NO_PARENT).then_some(NodeId(parent))
    }

    /// The last child of `parent` when it is a text node.
    fn last_text_child(&self, parent: NodeId) -> Option<NodeId> {
        let &last = self.children(parent).last()?;
        matches!(self.nodes[last.index()].payload, Payload::Text { .. }).then_some(last)
    }

    /// Appends a node as the last child of `parent`. Text appended after text is merged into it,
    /// and empty text is not added; the id of the node that holds the data is returned. An
    /// element is appended without attributes (see [`Document::append_element`]).
    pub fn append(&mut self, parent: NodeId, data: NodeData<'a>) -> NodeId {
        if let NodeData::Text(t) = &data {
            if let Some(last) = self.last_text_child(parent) {
                self.merge_text(last.index(), t);
                return last;
            }
            if t.is_empty() {
                return parent;
            }
        }
        let payload = self.payload(data);
        let id = NodeId::from_index(self.nodes.len());
        self.nodes.push(Node::new(payload, parent, Span32::NONE));
        self.add_child(parent, id);
        id
    }

    /// Appends an element with these attributes as the last child of `parent`.
    pub fn append_element(
        &mut self,
        parent: NodeId,
        element: Element<'a>,
        attributes: impl IntoIterator<Item = Attribute<'a>>,
    ) -> NodeId {
        let start = self.attributes.len();
        for a in attributes {
            let namespace = self.namespace_number(a.namespace);
            let (name, prefix_len) = self.keep_name(a.prefix.as_deref(), &a.local);
            let value = self.keep(&a.value);
            self.push_attribute_data(namespace, name, prefix_len, value);
        }
        let len = self.attributes.len() - start;
        let id = self.append(parent, NodeData::Element(element));
        if let Some(Payload::Element {
            attributes_start,
            attributes_len,
            ..
        }) = self.nodes.get_mut(id.index()).map(|n| &mut n.payload)
        {
            *attributes_start = n32(start);
            *attributes_len = n32(len);
        }
        id
    }

    /// Adds `id` to the child list of `parent`: in place when there is room or the list ends
    /// the shared list, else moved to the end with twice the room (amortized O(1)).
    fn add_child(&mut self, parent: NodeId, id: NodeId) {
        let p = parent.index();
        let Some(node) = self.nodes.get_mut(p) else {
            return;
        };
        let c = node.children;
        let (start, len) = (c.start as usize, c.len as usize);
        let room = self.child_room.get(p).copied().unwrap_or(0);
        if room > 0 {
            self.child_ids[start + len] = id;
            node.children.len += 1;
            self.child_room[p] -= 1;
        } else if start + len == self.child_ids.len() {
            self.child_ids.push(id);
            node.children = Range32::new(start, len + 1);
        } else {
            let new_start = self.child_ids.len();
            let cap = (2 * len).max(4);
            self.child_ids.extend_from_within(start..start + len);
            self.child_ids.push(id);
            self.child_ids.resize(new_start + cap, NodeId(0));
            node.children = Range32::new(new_start, len + 1);
            if self.child_room.len() <= p {
                self.child_room.resize(self.nodes.len(), 0);
            }
            self.child_room[p] = n32(cap - len - 1);
        }
    }

    /// The text of every text node under `id`, in document order.
    pub fn text_content(&self, id: NodeId) -> String {
        let mut out = String::new();
        let mut stack = vec![id];
        while let Some(n) = stack.pop() {
            if let NodeData::Text(t) = self.data(n) {
                out.push_str(&t);
            }
            stack.extend(self.children(n).iter().rev());
        }
        out
    }

    /// The tree in the xml5lib tree-construction format: one line per node, two spaces of
    /// indentation per level, attributes sorted by local name below their element.
    pub fn dump(&self) -> String {
        let mut out = String::new();
        let mut stack: Vec<(NodeId, usize)> = self
            .children(self.root())
            .iter()
            .rev()
            .map(|&c| (c, 0))
            .collect();
        while let Some((id, depth)) = stack.pop() {
            let indent = "  ".repeat(depth);
            match self.data(id) {
                NodeData::Document => {}
                NodeData::Element(e) => {
                    let _ = writeln!(
                        out,
                        "{indent}<{}>",
                        dump_name(e.namespace.as_deref(), e.prefix.as_deref(), &e.local)
                    );
                    let mut attrs: Vec<AttributeRef<'_>> = self.attributes(id).collect();
                    attrs.sort_by(|a, b| a.local().cmp(b.local()));
                    for a in attrs {
                        let _ = writeln!(
                            out,
                            "{indent}  {}=\"{}\"",
                            dump_name(a.namespace(), a.prefix(), a.local()),
                            a.value()
                        );
                    }
                }
                NodeData::Text(t) => {
                    let _ = writeln!(out, "{indent}\"{t}\"");
                }
                NodeData::Comment(c) => {
                    let _ = writeln!(out, "{indent}<!-- {c} -->");
                }
                NodeData::Pi { target, data } => {
                    let _ = writeln!(out, "{indent}<?{target} {data}?>");
                }
                NodeData::Doctype {
                    name,
                    public_id,
                    system_id,
                } => {
                    let name = name.as_deref().unwrap_or("");
                    if public_id.is_some() || system_id.is_some() {
                        let _ = writeln!(
                            out,
                            "{indent}<!DOCTYPE {name} \"{}\" \"{}\">",
                            public_id.as_deref().unwrap_or(""),
                            system_id.as_deref().unwrap_or("")
                        );
                    } else {
                        let _ = writeln!(out, "{indent}<!DOCTYPE {name}>");
                    }
                }
            }
            stack.extend(self.children(id).iter().rev().map(|&c| (c, depth + 1)));
        }
        out
    }
}

fn dump_name(ns: Option<&str>, prefix: Option<&str>, local: &str) -> String {
    match ns {
        Some(ns) => format!("{{{ns}}}{}", qualified(prefix, local)),
        None => qualified(prefix, local),
    }
}

/// Up to this many namespaces in a document, finding an attribute's namespace number compares
/// them one by one.
const SCAN_NAMESPACES: usize = 16;
