//! Tree construction: the draft's start, main and end phases, building a [`Document`] (an arena
//! of nodes addressed by [`NodeId`], so any depth builds and drops without recursion), with
//! namespaces resolved after Namespaces in XML 1.0, with recovery.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use thicket_input::Span;

use crate::error::{Diagnostic, ErrorCode};
use crate::hash::FxBuild;
use crate::token::{Attribute as TokenAttribute, Token, TokenKind};
use crate::tokenizer::{Direct, Options, RawAttr, TagKind, Tokenizer};

/// The XML namespace, bound to the `xml` prefix.
pub const XML_NAMESPACE: &str = "http://www.w3.org/XML/1998/namespace";
/// The namespace of `xmlns` and `xmlns:*` attributes.
pub const XMLNS_NAMESPACE: &str = "http://www.w3.org/2000/xmlns/";

/// The index of a node in its [`Document`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(u32);

impl NodeId {
    /// The id of the node at `index` in the arena (node 0 is the document node). Ids past
    /// [`Document::len`] are not nodes.
    pub fn from_index(index: usize) -> NodeId {
        NodeId(u32::try_from(index).unwrap_or(u32::MAX))
    }

    /// The position in the arena.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// An attribute to give an element with [`Document::append_element`]. A document's own
/// attributes are [`AttributeRef`]s ([`Document::attributes`]); [`AttributeRef::to_attribute`]
/// turns one into this.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attribute<'a> {
    /// The namespace, if the name is in one (`xmlns` declarations are in [`XMLNS_NAMESPACE`]).
    pub namespace: Option<Cow<'a, str>>,
    /// The prefix as written.
    pub prefix: Option<Cow<'a, str>>,
    /// The local name.
    pub local: Cow<'a, str>,
    /// The value.
    pub value: Cow<'a, str>,
}

impl Attribute<'_> {
    /// `prefix:local` or `local`.
    pub fn qualified_name(&self) -> String {
        qualified(self.prefix.as_deref(), &self.local)
    }
}

/// A string of a document: borrowed from the input, or a range of the document's own text.
#[derive(Clone, Copy, Debug)]
enum Text<'a> {
    Borrowed(&'a str),
    Owned { start: u32, len: u32 },
}

/// An attribute as a document stores it: 40 bytes, where four `Cow`s took 96, so a parse of
/// an attribute-heavy document touches (and the kernel faults in) less than half the memory.
#[derive(Clone, Copy, Debug)]
struct AttributeData<'a> {
    /// The qualified name.
    name: Text<'a>,
    value: Text<'a>,
    /// 0 for no namespace, else 1 + its index in [`Document::namespaces`].
    namespace: u32,
    /// 0 for no prefix, else the prefix's length + 1 (the name is `prefix:local`).
    prefix_len: u32,
}

const _: () = assert!(std::mem::size_of::<AttributeData<'static>>() <= 48);

/// An attribute of an element in a [`Document`] (from [`Document::attributes`]).
#[derive(Clone, Copy)]
pub struct AttributeRef<'d> {
    doc: &'d Document<'d>,
    data: &'d AttributeData<'d>,
}

impl<'d> AttributeRef<'d> {
    /// The namespace, if the name is in one (`xmlns` declarations are in [`XMLNS_NAMESPACE`]).
    pub fn namespace(&self) -> Option<&'d str> {
        let i = (self.data.namespace as usize).checked_sub(1)?;
        self.doc.namespaces.get(i).map(|ns| &**ns)
    }

    /// The prefix as written.
    pub fn prefix(&self) -> Option<&'d str> {
        let n = (self.data.prefix_len as usize).checked_sub(1)?;
        self.qualified_name().get(..n)
    }

    /// The local name.
    pub fn local(&self) -> &'d str {
        let name = self.qualified_name();
        name.get(self.data.prefix_len as usize..).unwrap_or(name)
    }

    /// `prefix:local` or `local`, as written.
    pub fn qualified_name(&self) -> &'d str {
        self.doc.text(self.data.name)
    }

    /// The value.
    pub fn value(&self) -> &'d str {
        self.doc.text(self.data.value)
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
    list: std::slice::Iter<'d, AttributeData<'d>>,
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

/// An element. Its attributes live in the document: [`Document::attributes`].
#[derive(Clone, Debug)]
pub struct Element<'a> {
    /// The namespace, if any.
    pub namespace: Option<Cow<'a, str>>,
    /// The prefix as written.
    pub prefix: Option<Cow<'a, str>>,
    /// The local name.
    pub local: Cow<'a, str>,
    /// Where its attributes are in the document's attribute list.
    attributes: Range32,
}

impl<'a> Element<'a> {
    /// An element with this name and no attributes (add it with [`Document::append_element`]
    /// to give it some).
    pub fn new(
        namespace: Option<Cow<'a, str>>,
        prefix: Option<Cow<'a, str>>,
        local: Cow<'a, str>,
    ) -> Element<'a> {
        Element {
            namespace,
            prefix,
            local,
            attributes: Range32::EMPTY,
        }
    }

    /// `prefix:local` or `local`.
    pub fn qualified_name(&self) -> String {
        qualified(self.prefix.as_deref(), &self.local)
    }
}

/// Elements are equal when their names are; attributes are compared by [`Document`]'s
/// equality (they live in the document).
impl PartialEq for Element<'_> {
    fn eq(&self, other: &Element<'_>) -> bool {
        self.namespace == other.namespace
            && self.prefix == other.prefix
            && self.local == other.local
    }
}

impl Eq for Element<'_> {}

/// A range of one of the document's shared lists (attributes, child ids): `len` items from
/// `start`, `cap` slots reserved there.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Range32 {
    start: u32,
    len: u32,
    cap: u32,
}

impl Range32 {
    const EMPTY: Range32 = Range32 {
        start: 0,
        len: 0,
        cap: 0,
    };

    fn new(start: usize, len: usize) -> Range32 {
        let n = |v: usize| u32::try_from(v).unwrap_or(u32::MAX);
        Range32 {
            start: n(start),
            len: n(len),
            cap: n(len),
        }
    }

    fn of<T>(self, list: &[T]) -> &[T] {
        let start = self.start as usize;
        list.get(start..start + self.len as usize).unwrap_or(&[])
    }
}

/// `v` as a `u32` (lists and texts past 4 GiB saturate; their accessors then give nothing).
fn n32(v: usize) -> u32 {
    u32::try_from(v).unwrap_or(u32::MAX)
}

fn qualified(prefix: Option<&str>, local: &str) -> String {
    match prefix {
        Some(p) => format!("{p}:{local}"),
        None => local.to_owned(),
    }
}

/// What a node is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NodeData<'a> {
    /// The document node (always [`Document::root`]).
    Document,
    /// An element.
    Element(Element<'a>),
    /// Character data.
    Text(Cow<'a, str>),
    /// A comment.
    Comment(Cow<'a, str>),
    /// A processing instruction.
    Pi {
        /// The target.
        target: Cow<'a, str>,
        /// The data.
        data: Cow<'a, str>,
    },
    /// A DOCTYPE.
    Doctype {
        /// The name.
        name: Option<Cow<'a, str>>,
        /// The public identifier (compatibility profile).
        public_id: Option<Cow<'a, str>>,
        /// The system identifier (compatibility profile).
        system_id: Option<Cow<'a, str>>,
    },
}

#[derive(Clone, Debug)]
struct Node<'a> {
    data: NodeData<'a>,
    parent: Option<NodeId>,
    /// Where its children's ids are in [`Document::child_ids`]. The tree builder writes an
    /// element's children there when the element closes (they are contiguous from then on);
    /// [`Document::append`] grows a list in place or moves it to the end with room to spare.
    children: Range32,
}

/// The XML declaration's pseudo-attributes (draft profile).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct XmlDeclaration {
    /// `version`.
    pub version: Option<String>,
    /// `encoding`.
    pub encoding: Option<String>,
    /// `standalone`.
    pub standalone: Option<String>,
}

/// A document: an arena of nodes. Node 0 is the document node. Attributes and child lists
/// are kept in two lists shared by all nodes, so building a node allocates nothing of its own.
#[derive(Clone, Debug)]
pub struct Document<'a> {
    nodes: Vec<Node<'a>>,
    attributes: Vec<AttributeData<'a>>,
    /// The attribute names and values not borrowed from the input.
    text: String,
    /// The attributes' namespaces, each once.
    namespaces: Vec<Cow<'a, str>>,
    /// 1 + the index of each namespace in `namespaces`, once there are more than
    /// [`SCAN_NAMESPACES`] (fewer are compared one by one).
    namespace_index: HashMap<Cow<'a, str>, u32, FxBuild>,
    child_ids: Vec<NodeId>,
    /// The XML declaration, when the input started with one (draft profile).
    pub xml_declaration: Option<XmlDeclaration>,
}

impl Default for Document<'_> {
    fn default() -> Self {
        Document::new()
    }
}

/// Two documents are equal when they have the same nodes with the same ids, data, attributes,
/// parents and children (however their lists are laid out).
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
                    a.data == b.data
                        && a.parent == b.parent
                        && self.children(id) == other.children(id)
                        && self.attributes(id).eq(other.attributes(id))
                })
    }
}

impl Eq for Document<'_> {}

impl<'a> Document<'a> {
    /// An empty document.
    pub fn new() -> Document<'a> {
        Document {
            nodes: vec![Node {
                data: NodeData::Document,
                parent: None,
                children: Range32::EMPTY,
            }],
            attributes: Vec::new(),
            text: String::new(),
            namespaces: Vec::new(),
            namespace_index: HashMap::default(),
            child_ids: Vec::new(),
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
        let nodes = self
            .nodes
            .into_iter()
            .map(|n| Node {
                data: match n.data {
                    NodeData::Document => NodeData::Document,
                    NodeData::Element(e) => NodeData::Element(Element {
                        namespace: e.namespace.map(o),
                        prefix: e.prefix.map(o),
                        local: o(e.local),
                        attributes: e.attributes,
                    }),
                    NodeData::Text(t) => NodeData::Text(o(t)),
                    NodeData::Comment(t) => NodeData::Comment(o(t)),
                    NodeData::Pi { target, data } => NodeData::Pi {
                        target: o(target),
                        data: o(data),
                    },
                    NodeData::Doctype {
                        name,
                        public_id,
                        system_id,
                    } => NodeData::Doctype {
                        name: name.map(o),
                        public_id: public_id.map(o),
                        system_id: system_id.map(o),
                    },
                },
                parent: n.parent,
                children: n.children,
            })
            .collect();
        let mut text = self.text;
        let mut own = |t: Text<'_>| match t {
            Text::Borrowed(s) => {
                let start = n32(text.len());
                text.push_str(s);
                Text::Owned {
                    start,
                    len: n32(s.len()),
                }
            }
            Text::Owned { start, len } => Text::Owned { start, len },
        };
        let attributes = self
            .attributes
            .into_iter()
            .map(|a| AttributeData {
                name: own(a.name),
                value: own(a.value),
                namespace: a.namespace,
                prefix_len: a.prefix_len,
            })
            .collect();
        Document {
            nodes,
            attributes,
            text,
            namespaces: self.namespaces.into_iter().map(o).collect(),
            namespace_index: self
                .namespace_index
                .into_iter()
                .map(|(k, v)| (o(k), v))
                .collect(),
            child_ids: self.child_ids,
            xml_declaration: self.xml_declaration,
        }
    }

    /// The first element child of the document node.
    pub fn root_element(&self) -> Option<NodeId> {
        self.children(self.root())
            .iter()
            .copied()
            .find(|&c| matches!(self.data(c), NodeData::Element(_)))
    }

    /// Number of nodes, the document node included.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True when the document has only its document node.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() == 1
    }

    /// What `id` is.
    pub fn data(&self, id: NodeId) -> &NodeData<'a> {
        &self.nodes[id.index()].data
    }

    /// The element at `id`, if it is one.
    pub fn element(&self, id: NodeId) -> Option<&Element<'a>> {
        match self.data(id) {
            NodeData::Element(e) => Some(e),
            _ => None,
        }
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
        let list = match self.nodes.get(id.index()).map(|n| &n.data) {
            Some(NodeData::Element(e)) => e.attributes.of(&self.attributes),
            _ => &[],
        };
        Attributes {
            doc: self,
            list: list.iter(),
        }
    }

    /// The string `t` stands for.
    fn text<'s>(&'s self, t: Text<'s>) -> &'s str {
        match t {
            Text::Borrowed(s) => s,
            Text::Owned { start, len } => {
                let start = start as usize;
                self.text.get(start..start + len as usize).unwrap_or("")
            }
        }
    }

    /// Keeps `s`: borrowed as it is, or copied to the document's text.
    fn keep(&mut self, s: Cow<'a, str>) -> Text<'a> {
        match s {
            Cow::Borrowed(s) => Text::Borrowed(s),
            Cow::Owned(s) => {
                let start = n32(self.text.len());
                self.text.push_str(&s);
                Text::Owned {
                    start,
                    len: n32(s.len()),
                }
            }
        }
    }

    /// The number of namespace `ns` (0 for none), added to the table if new.
    fn namespace_number(&mut self, ns: Option<Cow<'a, str>>) -> u32 {
        let Some(ns) = ns else {
            return 0;
        };
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

    /// Stores an attribute named `name` (`prefix_len`: see [`AttributeData`]).
    fn push_attribute_data(
        &mut self,
        namespace: u32,
        name: Cow<'a, str>,
        prefix_len: usize,
        value: Cow<'a, str>,
    ) {
        let name = self.keep(name);
        let value = self.keep(value);
        self.attributes.push(AttributeData {
            name,
            value,
            namespace,
            prefix_len: n32(prefix_len),
        });
    }

    /// The parent of `id` (`None` for the document node).
    pub fn parent(&self, id: NodeId) -> Option<NodeId> {
        self.nodes[id.index()].parent
    }

    /// Appends a node as the last child of `parent`. Text appended after text is merged into it,
    /// and empty text is not added; the id of the node that holds the data is returned. An
    /// element is appended without attributes (see [`Document::append_element`]).
    pub fn append(&mut self, parent: NodeId, mut data: NodeData<'a>) -> NodeId {
        match &mut data {
            NodeData::Text(t) => {
                if let Some(&last) = self.children(parent).last()
                    && let NodeData::Text(prev) = &mut self.nodes[last.index()].data
                {
                    prev.to_mut().push_str(t);
                    return last;
                }
                if t.is_empty() {
                    return parent;
                }
            }
            NodeData::Element(e) => e.attributes = Range32::EMPTY,
            _ => {}
        }
        let id = NodeId::from_index(self.nodes.len());
        self.nodes.push(Node {
            data,
            parent: Some(parent),
            children: Range32::EMPTY,
        });
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
            let (name, prefix_len) = match a.prefix {
                Some(p) => (Cow::Owned(format!("{p}:{}", a.local)), p.len() + 1),
                None => (a.local, 0),
            };
            self.push_attribute_data(namespace, name, prefix_len, a.value);
        }
        let id = self.append(parent, NodeData::Element(element));
        if let NodeData::Element(e) = &mut self.nodes[id.index()].data {
            e.attributes = Range32::new(start, self.attributes.len() - start);
        }
        id
    }

    /// Adds `id` to the child list of `parent`: in place when there is room or the list ends
    /// the shared list, else moved to the end with twice the room (amortized O(1)).
    fn add_child(&mut self, parent: NodeId, id: NodeId) {
        let Some(node) = self.nodes.get_mut(parent.index()) else {
            return;
        };
        let c = node.children;
        let (start, len) = (c.start as usize, c.len as usize);
        if c.len < c.cap {
            self.child_ids[start + len] = id;
            node.children.len += 1;
        } else if start + len == self.child_ids.len() {
            self.child_ids.push(id);
            node.children = Range32::new(start, len + 1);
        } else {
            let new_start = self.child_ids.len();
            let cap = (2 * len).max(4);
            self.child_ids.extend_from_within(start..start + len);
            self.child_ids.push(id);
            self.child_ids.resize(new_start + cap, NodeId(0));
            node.children = Range32 {
                cap: u32::try_from(cap).unwrap_or(u32::MAX),
                ..Range32::new(new_start, len + 1)
            };
        }
    }

    /// The text of every text node under `id`, in document order.
    pub fn text_content(&self, id: NodeId) -> String {
        let mut out = String::new();
        let mut stack = vec![id];
        while let Some(n) = stack.pop() {
            if let NodeData::Text(t) = self.data(n) {
                out.push_str(t);
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

/// Splits a qualified name at its colon when it has exactly one, not at either end.
pub fn split_qname(name: &str) -> (Option<&str>, &str) {
    // One pass over the bytes (names are short): the position of the only colon, if any.
    let mut colon = None;
    for (i, &b) in name.as_bytes().iter().enumerate() {
        if b == b':' {
            if colon.is_some() {
                return (None, name);
            }
            colon = Some(i);
        }
    }
    match colon {
        Some(i) if i > 0 && i + 1 < name.len() => (Some(&name[..i]), &name[i + 1..]),
        _ => (None, name),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Start,
    Main,
    End,
    Stopped,
}

struct OpenElement<'a> {
    node: NodeId,
    /// The tag name as written.
    name: Cow<'a, str>,
    /// How many namespace bindings this element pushed.
    bindings: usize,
    /// Where its children start in [`TreeBuilder::pending`].
    children: usize,
}

/// Builds a [`Document`] from tokens.
pub struct TreeBuilder<'a> {
    doc: Document<'a>,
    phase: Phase,
    stack: Vec<OpenElement<'a>>,
    /// How many open elements have each name (so "in scope" is a lookup, not a stack walk).
    /// Built from the stack at the first end tag that does not close the current element, and
    /// kept up to date from then on: a document whose end tags match never needs it.
    open_names: Option<HashMap<Cow<'a, str>, usize, FxBuild>>,
    /// The namespace bindings, innermost last (prefix `""` is the default namespace), so that
    /// leaving an element undoes its bindings. While there are few, lookups scan them.
    bindings: Vec<(Cow<'a, str>, Option<Cow<'a, str>>)>,
    /// For each prefix, its bindings innermost last (`None` = undeclared), so that lookups stay
    /// O(1) however many bindings are in scope: built when more than [`SCAN_BINDINGS`] are, and
    /// kept up to date from then on.
    scopes: Option<Scopes<'a>>,
    /// An emptied attribute list of a tag token, for the tokenizer to reuse (see [`parse`]).
    spare_attributes: Vec<TokenAttribute<'a>>,
    /// The children of the document node and of the open elements so far, outermost first
    /// (each open element knows where its own start): when an element closes, its children
    /// move to the document's child list in one piece.
    pending: Vec<NodeId>,
    seen_content: bool,
    pending_bindings: usize,
    diagnostics: Vec<Diagnostic>,
}

impl Default for TreeBuilder<'_> {
    fn default() -> Self {
        TreeBuilder::new()
    }
}

impl<'a> TreeBuilder<'a> {
    /// A builder in the start phase.
    pub fn new() -> TreeBuilder<'a> {
        TreeBuilder {
            doc: Document::new(),
            phase: Phase::Start,
            stack: Vec::new(),
            open_names: None,
            bindings: Vec::new(),
            scopes: None,
            spare_attributes: Vec::new(),
            pending: Vec::new(),
            seen_content: false,
            pending_bindings: 0,
            diagnostics: Vec::new(),
        }
    }

    /// The diagnostics of tree construction so far.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// The document and the tree-construction diagnostics.
    pub fn finish(mut self) -> (Document<'a>, Vec<Diagnostic>) {
        while let Some(e) = self.stack.pop() {
            self.close_children(e.node, e.children);
        }
        self.close_children(self.doc.root(), 0);
        (self.doc, self.diagnostics)
    }

    /// Moves the children of `node` (in `pending` from `mark` on) to the document.
    fn close_children(&mut self, node: NodeId, mark: usize) {
        let start = self.doc.child_ids.len();
        let kids = self.pending.get(mark..).unwrap_or(&[]);
        self.doc.child_ids.extend_from_slice(kids);
        let len = kids.len();
        self.pending.truncate(mark);
        if let Some(n) = self.doc.nodes.get_mut(node.index()) {
            n.children = Range32::new(start, len);
        }
    }

    /// Appends a node to the current element (or the document node): text after text is
    /// merged, empty text is not added. Returns the node that holds the data.
    fn add(&mut self, data: NodeData<'a>) -> NodeId {
        let (parent, mark) = match self.stack.last() {
            Some(e) => (e.node, e.children),
            None => (self.doc.root(), 0),
        };
        if let NodeData::Text(t) = &data {
            if self.pending.len() > mark
                && let Some(&last) = self.pending.last()
                && let NodeData::Text(prev) = &mut self.doc.nodes[last.index()].data
            {
                prev.to_mut().push_str(t);
                return last;
            }
            if t.is_empty() {
                return parent;
            }
        }
        let id = NodeId::from_index(self.doc.nodes.len());
        self.doc.nodes.push(Node {
            data,
            parent: Some(parent),
            children: Range32::EMPTY,
        });
        self.pending.push(id);
        id
    }

    #[cold]
    fn error(&mut self, code: ErrorCode, span: Span) {
        self.diagnostics.push(Diagnostic::new(code, span));
    }

    /// Processes one token.
    pub fn process(&mut self, token: Token<'a>) {
        let span = token.span;
        let first = !self.seen_content;
        self.seen_content = true;
        match self.phase {
            Phase::Start => self.start_phase(token, first),
            Phase::Main => self.main_phase(token),
            Phase::End => self.end_phase(token),
            Phase::Stopped => {}
        }
        let _ = span;
    }

    fn outside_root_text(&mut self, text: &str, span: Span) {
        if !text.chars().all(|c| matches!(c, ' ' | '\t' | '\n' | '\r')) {
            self.error(ErrorCode::TextOutsideRoot, span);
        }
    }

    fn start_phase(&mut self, token: Token<'a>, first: bool) {
        let span = token.span;
        match token.kind {
            TokenKind::StartTag { name, attributes } => {
                let node = self.create_element(&name, attributes, span);
                self.push(node, name);
                self.phase = Phase::Main;
            }
            TokenKind::EmptyTag { name, attributes } => {
                let marker = self.bindings.len();
                self.create_element(&name, attributes, span);
                self.unbind_to(marker);
                self.phase = Phase::End;
            }
            TokenKind::Comment(c) => {
                self.add(NodeData::Comment(c));
            }
            TokenKind::Pi { target, data } => {
                self.add(NodeData::Pi { target, data });
            }
            TokenKind::Doctype {
                name,
                public_id,
                system_id,
            } => {
                // In the start phase the document node's children are all of `pending`.
                let has_doctype = self
                    .pending
                    .iter()
                    .any(|&c| matches!(self.doc.data(c), NodeData::Doctype { .. }));
                if has_doctype {
                    self.error(ErrorCode::MisplacedDoctype, span);
                } else {
                    self.add(NodeData::Doctype {
                        name,
                        public_id,
                        system_id,
                    });
                }
            }
            TokenKind::XmlDeclaration {
                version,
                encoding,
                standalone,
            } => {
                if first {
                    self.doc.xml_declaration = Some(XmlDeclaration {
                        version: version.map(|s| s.into_owned()),
                        encoding: encoding.map(|s| s.into_owned()),
                        standalone: standalone.map(|s| s.into_owned()),
                    });
                } else {
                    self.error(ErrorCode::MisplacedXmlDeclaration, span);
                }
            }
            TokenKind::Text(t) => self.outside_root_text(&t, span),
            TokenKind::Eof => {
                self.error(ErrorCode::EofBeforeRoot, span);
                self.phase = Phase::Stopped;
            }
            _ => self.error(ErrorCode::UnexpectedToken, span),
        }
    }

    fn main_phase(&mut self, token: Token<'a>) {
        let span = token.span;
        match token.kind {
            TokenKind::Text(t) => {
                self.add(NodeData::Text(t));
            }
            TokenKind::StartTag { name, attributes } => {
                let node = self.create_element(&name, attributes, span);
                self.push(node, name);
            }
            TokenKind::EmptyTag { name, attributes } => {
                let marker = self.bindings.len();
                self.create_element(&name, attributes, span);
                self.unbind_to(marker);
            }
            TokenKind::EndTag { name } => self.end_tag(name, span),
            TokenKind::ShortEndTag => {
                self.pop();
                if self.stack.is_empty() {
                    self.phase = Phase::End;
                }
            }
            TokenKind::Comment(c) => {
                self.add(NodeData::Comment(c));
            }
            TokenKind::Pi { target, data } => {
                self.add(NodeData::Pi { target, data });
            }
            TokenKind::Doctype { .. } => self.error(ErrorCode::MisplacedDoctype, span),
            TokenKind::XmlDeclaration { .. } => {
                self.error(ErrorCode::MisplacedXmlDeclaration, span)
            }
            TokenKind::Eof => {
                self.error(ErrorCode::EofInElement, span);
                self.phase = Phase::Stopped;
            }
        }
    }

    /// Main phase, an end tag.
    fn end_tag(&mut self, name: Cow<'a, str>, span: Span) {
        if self.stack.last().is_some_and(|e| same(&e.name, &name)) {
            // The usual case: the end tag closes the current element, so there is no need to
            // ask whether an element of that name is open.
            self.pop();
        } else {
            if !self.stack.is_empty() {
                self.error(ErrorCode::MismatchedEndTag, span);
            }
            if self.open_count(&name) > 0 {
                while let Some(e) = self.pop() {
                    if e == name {
                        break;
                    }
                }
            }
        }
        if self.stack.is_empty() {
            self.phase = Phase::End;
        }
    }

    /// Processes what [`Tokenizer::next_direct`] found (the text before a plain tag, then the
    /// tag), as [`TreeBuilder::process`] would process their tokens: in the main phase without
    /// building tokens, in the others through `process`.
    fn process_direct(&mut self, d: Direct<'a>, attributes: &[RawAttr]) {
        if let Some((text, span)) = d.text {
            if self.phase == Phase::Main {
                self.seen_content = true;
                self.add(NodeData::Text(text));
            } else {
                self.process(Token {
                    kind: TokenKind::Text(text),
                    span,
                });
            }
        }
        if self.phase != Phase::Main {
            let name = Cow::Borrowed(d.name);
            let attributes = || {
                attributes
                    .iter()
                    .map(|a| raw_attribute(d.input, a))
                    .collect()
            };
            let kind = match d.kind {
                TagKind::Start => TokenKind::StartTag {
                    name,
                    attributes: attributes(),
                },
                TagKind::Empty => TokenKind::EmptyTag {
                    name,
                    attributes: attributes(),
                },
                TagKind::End => TokenKind::EndTag { name },
            };
            self.process(Token { kind, span: d.span });
            return;
        }
        self.seen_content = true;
        match d.kind {
            TagKind::Start => {
                let node = self.create_element_direct(d.input, d.name, attributes, d.span);
                self.push(node, Cow::Borrowed(d.name));
            }
            TagKind::Empty => {
                let marker = self.bindings.len();
                self.create_element_direct(d.input, d.name, attributes, d.span);
                self.unbind_to(marker);
            }
            TagKind::End => self.end_tag(Cow::Borrowed(d.name), d.span),
        }
    }

    fn end_phase(&mut self, token: Token<'a>) {
        let span = token.span;
        match token.kind {
            TokenKind::Comment(c) => {
                self.add(NodeData::Comment(c));
            }
            TokenKind::Pi { target, data } => {
                self.add(NodeData::Pi { target, data });
            }
            TokenKind::Eof => self.phase = Phase::Stopped,
            TokenKind::Text(t) => self.outside_root_text(&t, span),
            TokenKind::Doctype { .. } => self.error(ErrorCode::MisplacedDoctype, span),
            TokenKind::XmlDeclaration { .. } => {
                self.error(ErrorCode::MisplacedXmlDeclaration, span)
            }
            _ => self.error(ErrorCode::UnexpectedToken, span),
        }
    }

    fn push(&mut self, node: NodeId, name: Cow<'a, str>) {
        let bindings = self.pending_bindings;
        self.pending_bindings = 0;
        if let Some(open) = &mut self.open_names {
            *open.entry(name.clone()).or_insert(0) += 1;
        }
        self.stack.push(OpenElement {
            node,
            name,
            bindings,
            children: self.pending.len(),
        });
    }

    /// Pops the current element, returning its name.
    fn pop(&mut self) -> Option<Cow<'a, str>> {
        let e = self.stack.pop()?;
        if let Some(n) = self
            .open_names
            .as_mut()
            .and_then(|open| open.get_mut(e.name.as_ref()))
        {
            *n -= 1;
        }
        if e.bindings > 0 {
            let keep = self.bindings.len() - e.bindings;
            self.unbind_to(keep);
        }
        self.close_children(e.node, e.children);
        Some(e.name)
    }

    /// How many open elements are named `name`.
    #[cold]
    fn open_count(&mut self, name: &str) -> usize {
        let stack = &self.stack;
        let open = self.open_names.get_or_insert_with(|| {
            let mut open: HashMap<Cow<'a, str>, usize, FxBuild> = HashMap::default();
            for e in stack {
                *open.entry(e.name.clone()).or_insert(0) += 1;
            }
            open
        });
        open.get(name).copied().unwrap_or(0)
    }

    fn bind(&mut self, prefix: Cow<'a, str>, ns: Option<Cow<'a, str>>) {
        if let Some(scopes) = &mut self.scopes {
            scopes.entry(prefix.clone()).or_default().push(ns.clone());
        }
        self.bindings.push((prefix, ns));
        if self.scopes.is_none() && self.bindings.len() > SCAN_BINDINGS {
            let mut scopes: Scopes<'a> = HashMap::default();
            for (p, ns) in &self.bindings {
                scopes.entry(p.clone()).or_default().push(ns.clone());
            }
            self.scopes = Some(scopes);
        }
    }

    fn unbind_to(&mut self, len: usize) {
        while self.bindings.len() > len {
            if let Some((p, _)) = self.bindings.pop()
                && let Some(v) = self.scopes.as_mut().and_then(|s| s.get_mut(&p))
            {
                v.pop();
            }
        }
    }

    fn lookup(&self, prefix: Option<&str>) -> Option<Cow<'a, str>> {
        match prefix {
            Some("xml") => return Some(Cow::Borrowed(XML_NAMESPACE)),
            Some("xmlns") => return Some(Cow::Borrowed(XMLNS_NAMESPACE)),
            _ => {}
        }
        let prefix = prefix.unwrap_or("");
        // Most documents have a handful of bindings: compare them, innermost first.
        match &self.scopes {
            Some(scopes) if self.bindings.len() > SCAN_BINDINGS => scopes
                .get(prefix)
                .and_then(|v| v.last())
                .and_then(|ns| ns.clone()),
            _ => self
                .bindings
                .iter()
                .rev()
                .find(|(p, _)| same(p, prefix))
                .and_then(|(_, ns)| ns.clone()),
        }
    }

    /// Creates an element for a tag token (declaring its namespaces) and appends it to the
    /// current element; its attributes go straight to the document's attribute list.
    // `&Cow`, not `&str`: a borrowed name's parts stay borrowed from the input (see `split_cow`).
    #[allow(clippy::ptr_arg)]
    fn create_element(
        &mut self,
        name: &Cow<'a, str>,
        mut attributes: Vec<TokenAttribute<'a>>,
        span: Span,
    ) -> NodeId {
        // Declarations first: they are in scope for the element and its attributes. Most tags
        // have none, which one look at the names' first bytes tells.
        let before = self.bindings.len();
        let mut declarations = Declarations::default();
        if attributes.iter().any(|a| a.name.starts_with("xmlns")) {
            for (i, a) in attributes.iter().enumerate() {
                let ok = self.declare(&a.name, &a.value, a.span) == Some(true);
                declarations.set(i, ok);
            }
        }
        self.pending_bindings = self.bindings.len() - before;
        let (prefix, local) = split_cow(name);
        let namespace = self.element_namespace(prefix.as_deref(), span);
        let start = self.doc.attributes.len();
        let mut seen = None;
        for (i, a) in attributes.drain(..).enumerate() {
            let declaration = declarations.get(i);
            let attribute = (a.name, a.value);
            self.push_attribute(start, &mut seen, attribute, a.span, declaration, true);
        }
        if attributes.capacity() > self.spare_attributes.capacity() {
            self.spare_attributes = attributes;
        }
        self.add_element(namespace, prefix, local, start)
    }

    /// [`TreeBuilder::create_element`] for a tag of the direct path: names and values are
    /// ranges of `input`.
    fn create_element_direct(
        &mut self,
        input: &'a str,
        name: &'a str,
        attributes: &[RawAttr],
        span: Span,
    ) -> NodeId {
        let before = self.bindings.len();
        let mut declarations = Declarations::default();
        let bytes = input.as_bytes();
        if attributes
            .iter()
            .any(|a| bytes[a.name.0..a.name.1].starts_with(b"xmlns"))
        {
            for (i, a) in attributes.iter().enumerate() {
                let a = raw_attribute(input, a);
                let ok = self.declare(&a.name, &a.value, a.span) == Some(true);
                declarations.set(i, ok);
            }
        }
        self.pending_bindings = self.bindings.len() - before;
        let (prefix, local) = split_qname(name);
        let namespace = self.element_namespace(prefix, span);
        let start = self.doc.attributes.len();
        let mut seen = None;
        for (i, a) in attributes.iter().enumerate() {
            let name = Cow::Borrowed(&input[a.name.0..a.name.1]);
            let value = Cow::Borrowed(&input[a.value.0..a.value.1]);
            let attribute = (name, value);
            let span = Span::new(a.name.0, a.end);
            // The direct path never has two attributes of the same name.
            let declaration = declarations.get(i);
            self.push_attribute(start, &mut seen, attribute, span, declaration, false);
        }
        self.add_element(
            namespace,
            prefix.map(Cow::Borrowed),
            Cow::Borrowed(local),
            start,
        )
    }

    /// The namespace of an element with this prefix (`unbound-prefix` when none is in scope).
    fn element_namespace(&mut self, prefix: Option<&str>, span: Span) -> Option<Cow<'a, str>> {
        match prefix {
            Some(p) => match self.lookup(Some(p)) {
                Some(ns) => Some(ns),
                None => {
                    self.error(ErrorCode::UnboundPrefix, span);
                    None
                }
            },
            None => self.lookup(None),
        }
    }

    /// Adds an attribute (qualified name, value) of the element whose attributes start at
    /// `start` in the document's list, unless one with the same expanded name is there
    /// (`duplicate-expanded-attribute`). Attributes in no namespace are compared only when
    /// `check_unqualified` (their qualified names may repeat only in tokens that did not come
    /// from the tokenizer, which drops duplicates).
    fn push_attribute(
        &mut self,
        start: usize,
        seen: &mut Option<AttributeKeys>,
        (name, value): (Cow<'a, str>, Cow<'a, str>),
        span: Span,
        declaration: bool,
        check_unqualified: bool,
    ) {
        let (aprefix, alocal) = split_qname(&name);
        let prefix_len = aprefix.map_or(0, |p| p.len() + 1);
        let ans = if declaration {
            Some(Cow::Borrowed(XMLNS_NAMESPACE))
        } else if let Some(p) = aprefix {
            if p == "xmlns" {
                None
            } else {
                match self.lookup(Some(p)) {
                    Some(ns) => Some(ns),
                    None => {
                        self.error(ErrorCode::UnboundPrefix, span);
                        None
                    }
                }
            }
        } else {
            None
        };
        if ans.is_none() && !check_unqualified {
            self.doc.push_attribute_data(0, name, prefix_len, value);
            return;
        }
        let ns = self.doc.namespace_number(ans);
        let key = attribute_key;
        let this = if ns == 0 { &name[..] } else { alocal };
        let attrs = &self.doc.attributes[start..];
        let duplicate = if attrs.len() < 32 {
            attrs
                .iter()
                .any(|b| b.namespace == ns && same(key(&self.doc, b), this))
        } else {
            let doc = &self.doc;
            let seen = seen.get_or_insert_with(|| {
                attrs
                    .iter()
                    .map(|b| (b.namespace, key(doc, b).to_owned()))
                    .collect()
            });
            !seen.insert((ns, this.to_owned()))
        };
        if duplicate {
            self.error(ErrorCode::DuplicateExpandedAttribute, span);
            return;
        }
        self.doc.push_attribute_data(ns, name, prefix_len, value);
    }

    /// Appends the element whose attributes are the document's from `start` on.
    fn add_element(
        &mut self,
        namespace: Option<Cow<'a, str>>,
        prefix: Option<Cow<'a, str>>,
        local: Cow<'a, str>,
        start: usize,
    ) -> NodeId {
        let len = self.doc.attributes.len() - start;
        self.add(NodeData::Element(Element {
            namespace,
            prefix,
            local,
            attributes: Range32::new(start, len),
        }))
    }

    /// If `a` is a namespace declaration, applies it: `Some(true)` when it declares (or is the
    /// XML namespace's own), `Some(false)` when it is invalid (reported), `None` when it is no
    /// declaration.
    // `&Cow`, not `&str`: a borrowed name's parts stay borrowed from the input.
    #[allow(clippy::ptr_arg)]
    fn declare(&mut self, name: &Cow<'a, str>, value: &Cow<'a, str>, span: Span) -> Option<bool> {
        let (prefix, local) = split_cow(name);
        let declared: Option<Cow<'a, str>> = match (prefix.as_deref(), local.as_ref()) {
            (None, "xmlns") => None,
            (Some("xmlns"), _) => Some(local),
            _ => return None,
        };
        let ns_value = value;
        let value: &str = value;
        let ok = match declared.as_deref() {
            Some("xml") => value == XML_NAMESPACE,
            Some("xmlns") => false,
            _ => value != XMLNS_NAMESPACE && value != XML_NAMESPACE,
        };
        if !ok {
            self.error(ErrorCode::InvalidNamespaceDeclaration, span);
            return Some(false);
        }
        if declared.as_deref() == Some("xml") {
            return Some(true);
        }
        if value.is_empty() && declared.is_some() {
            // Namespaces in XML 1.0 forbids undeclaring a prefix; we undeclare it (as 1.1
            // allows) and report it.
            self.error(ErrorCode::InvalidNamespaceDeclaration, span);
        }
        let ns = (!value.is_empty()).then(|| ns_value.clone());
        self.bind(declared.unwrap_or(Cow::Borrowed("")), ns);
        Some(true)
    }
}

/// Which attributes of a tag are valid namespace declarations: a bit each for the first 64,
/// a list past that.
#[derive(Default)]
struct Declarations {
    first: u64,
    more: Vec<bool>,
}

impl Declarations {
    fn set(&mut self, i: usize, ok: bool) {
        if i < 64 {
            self.first |= u64::from(ok) << i;
        } else {
            self.more.push(ok);
        }
    }

    fn get(&self, i: usize) -> bool {
        match i.checked_sub(64) {
            None => self.first & (1 << i) != 0,
            Some(k) => self.more.get(k).copied().unwrap_or(false),
        }
    }
}

/// An attribute of the direct path as a token attribute (borrowed from `input`).
fn raw_attribute<'a>(input: &'a str, a: &RawAttr) -> TokenAttribute<'a> {
    TokenAttribute {
        name: Cow::Borrowed(&input[a.name.0..a.name.1]),
        value: Cow::Borrowed(&input[a.value.0..a.value.1]),
        span: Span::new(a.name.0, a.end),
    }
}

/// The identities of a tag's attributes so far (tags with many attributes).
type AttributeKeys = HashSet<(u32, String), FxBuild>;

/// `a == b`, comparing short names byte by byte rather than through a `memcmp` call.
#[inline]
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).all(|(x, y)| x == y)
}

/// For each prefix, its namespaces innermost last (`None`: undeclared).
type Scopes<'a> = HashMap<Cow<'a, str>, Vec<Option<Cow<'a, str>>>, FxBuild>;

/// Up to this many namespaces in a document, finding an attribute's namespace number compares
/// them one by one.
const SCAN_NAMESPACES: usize = 16;

/// Up to this many namespace bindings in scope, lookups compare them one by one.
const SCAN_BINDINGS: usize = 16;

/// Splits a qualified name held as a `Cow`, borrowing the parts when the name is borrowed.
fn split_cow<'a>(name: &Cow<'a, str>) -> (Option<Cow<'a, str>>, Cow<'a, str>) {
    match name {
        Cow::Borrowed(s) => {
            let (p, l) = split_qname(s);
            (p.map(Cow::Borrowed), Cow::Borrowed(l))
        }
        Cow::Owned(s) => {
            let (p, l) = split_qname(s);
            (
                p.map(|p| Cow::Owned(p.to_owned())),
                Cow::Owned(l.to_owned()),
            )
        }
    }
}

/// What identifies an attribute besides its namespace number (same number, same namespace):
/// its local name, or its qualified name when it is in no namespace.
fn attribute_key<'d>(doc: &'d Document<'d>, data: &'d AttributeData<'d>) -> &'d str {
    let r = AttributeRef { doc, data };
    if data.namespace == 0 {
        r.qualified_name()
    } else {
        r.local()
    }
}

/// Reserves room for `n` more items as a guess from the input, at most sixteen bytes of room per
/// input byte, and not at all when the allocator refuses: the guess counts every `<` or `=`,
/// so input made of them must not turn it into a huge allocation or an allocation failure.
fn reserve_guess<T>(v: &mut Vec<T>, n: usize, input_len: usize) {
    let cap = input_len.saturating_mul(16) / size_of::<T>().max(1);
    let _ = v.try_reserve(n.min(cap));
}

/// Parses the whole of `input` into a document; tokenizer and tree diagnostics together, in
/// input order.
pub fn parse(input: &str, options: Options) -> (Document<'_>, Vec<Diagnostic>) {
    let mut tokenizer = Tokenizer::new(input, options);
    let mut builder = TreeBuilder::new();
    // Room for the nodes and attributes at once (at most an element or other markup and a
    // text node per `<`, at most an attribute per `=`): the lists are not copied as they
    // grow, and a parse makes a few large allocations instead of a series of doublings (each
    // of which, past the allocator's mmap threshold, costs fresh pages; reserved room that is
    // never written costs none).
    let tags = memchr::memchr_iter(b'<', input.as_bytes()).count();
    let equals = memchr::memchr_iter(b'=', input.as_bytes()).count();
    reserve_guess(&mut builder.doc.nodes, 2 * tags + 1, input.len());
    reserve_guess(&mut builder.doc.child_ids, 2 * tags + 1, input.len());
    reserve_guess(&mut builder.doc.attributes, equals, input.len());
    let mut diagnostics = Vec::new();
    loop {
        // Text and plain tags without tokens; anything else as events.
        if let Some(d) = tokenizer.next_direct() {
            builder.process_direct(d, tokenizer.direct_attributes());
            if !builder.diagnostics.is_empty() {
                diagnostics.append(&mut builder.diagnostics);
            }
            continue;
        }
        let Some(e) = tokenizer.next_event() else {
            break;
        };
        match e {
            crate::Event::Token(t) => {
                builder.process(t);
                if !builder.diagnostics.is_empty() {
                    diagnostics.append(&mut builder.diagnostics);
                }
                if builder.spare_attributes.capacity() > 0 {
                    // The tokenizer builds the next tag's attributes in this list: no
                    // allocation per tag.
                    tokenizer.reuse_attributes(std::mem::take(&mut builder.spare_attributes));
                }
            }
            crate::Event::Diagnostic(d) => diagnostics.push(d),
        }
    }
    let (doc, _) = builder.finish();
    (doc, diagnostics)
}

/// A streaming parser: tokenizer and tree builder together.
pub struct Parser {
    tokenizer: Tokenizer<'static>,
    builder: TreeBuilder<'static>,
    diagnostics: Vec<Diagnostic>,
}

impl Parser {
    /// A parser with `options`.
    pub fn new(options: Options) -> Parser {
        Parser {
            tokenizer: Tokenizer::streaming(options),
            builder: TreeBuilder::new(),
            diagnostics: Vec::new(),
        }
    }

    /// Feeds a chunk and builds what it completes.
    pub fn feed(&mut self, chunk: &str) {
        self.tokenizer.feed(chunk);
        self.pump();
    }

    fn pump(&mut self) {
        while let Some(e) = self.tokenizer.next_event() {
            match e {
                crate::Event::Token(t) => {
                    self.builder.process(t);
                    self.diagnostics.append(&mut self.builder.diagnostics);
                }
                crate::Event::Diagnostic(d) => self.diagnostics.push(d),
            }
        }
    }

    /// Ends the input; returns the document and every diagnostic.
    pub fn finish(mut self) -> (Document<'static>, Vec<Diagnostic>) {
        self.tokenizer.finish();
        self.pump();
        let (doc, _) = self.builder.finish();
        (doc, self.diagnostics)
    }
}

/// The result of [`parse_bytes`].
#[derive(Clone, Debug)]
pub struct ParsedBytes {
    /// The document.
    pub document: Document<'static>,
    /// Every diagnostic; spans are byte offsets into [`ParsedBytes::text`].
    pub diagnostics: Vec<Diagnostic>,
    /// The decoded text the spans refer to.
    pub text: String,
    /// The encoding used: from the BOM, else the `<?` pattern of UTF-16, else the XML
    /// declaration's label, else UTF-8 (see `thicket_input::xml`).
    pub encoding: &'static thicket_input::Encoding,
    /// True when malformed bytes were replaced by U+FFFD while decoding.
    pub had_decoding_errors: bool,
}

/// Decodes `bytes` (encoding from the BOM or the XML declaration, see `thicket_input::xml`) and
/// parses the text.
pub fn parse_bytes(bytes: &[u8], options: Options) -> ParsedBytes {
    let (text, encoding, had_decoding_errors) = thicket_input::xml::decode(bytes);
    let text = text.into_owned();
    let (document, diagnostics) = parse(&text, options);
    let document = document.into_owned();
    ParsedBytes {
        document,
        diagnostics,
        text,
        encoding,
        had_decoding_errors,
    }
}

/// How many bytes [`BytesParser`] holds before it decides the encoding (the XML declaration is
/// looked for in the first 1024 bytes).
const SNIFF_LEN: usize = 1024;

/// What [`BytesParser::finish`] returns.
#[derive(Clone, Debug)]
pub struct ParsedStream {
    /// The document.
    pub document: Document<'static>,
    /// Every diagnostic; spans are byte offsets into the decoded text.
    pub diagnostics: Vec<Diagnostic>,
    /// The encoding used (see [`parse_bytes`]).
    pub encoding: &'static thicket_input::Encoding,
    /// True when malformed bytes were replaced by U+FFFD while decoding.
    pub had_decoding_errors: bool,
}

/// A streaming parser over bytes: holds the first 1024 bytes (or all, if fewer) to find the
/// encoding as [`parse_bytes`] does, then decodes and parses chunk by chunk. The result is the
/// same as [`parse_bytes`] on the whole input.
pub struct BytesParser {
    parser: Parser,
    head: Vec<u8>,
    decoder: Option<thicket_input::StreamDecoder>,
    text: String,
}

impl BytesParser {
    /// A parser with `options`.
    pub fn new(options: Options) -> BytesParser {
        BytesParser {
            parser: Parser::new(options),
            head: Vec::new(),
            decoder: None,
            text: String::new(),
        }
    }

    /// The encoding, once it is known.
    pub fn encoding(&self) -> Option<&'static thicket_input::Encoding> {
        self.decoder.as_ref().map(|d| d.encoding())
    }

    /// Feeds a chunk of bytes.
    pub fn feed(&mut self, bytes: &[u8]) {
        match &mut self.decoder {
            Some(d) => {
                d.feed(bytes, &mut self.text);
                self.parser.feed(&self.text);
                self.text.clear();
            }
            None => {
                self.head.extend_from_slice(bytes);
                if self.head.len() >= SNIFF_LEN {
                    self.start();
                }
            }
        }
    }

    fn start(&mut self) {
        let sniffed = thicket_input::xml::sniff(&self.head);
        let mut d = thicket_input::StreamDecoder::without_bom_handling(sniffed.encoding);
        let head = std::mem::take(&mut self.head);
        d.feed(&head[sniffed.bom_len.min(head.len())..], &mut self.text);
        self.parser.feed(&self.text);
        self.text.clear();
        self.decoder = Some(d);
    }

    /// Ends the input.
    pub fn finish(mut self) -> ParsedStream {
        if self.decoder.is_none() {
            self.start();
        }
        let mut had_decoding_errors = false;
        let mut encoding = thicket_input::Encoding::for_label(b"utf-8");
        if let Some(d) = &mut self.decoder {
            d.finish(&mut self.text);
            self.parser.feed(&self.text);
            had_decoding_errors = d.had_errors();
            encoding = Some(d.encoding());
        }
        let (document, diagnostics) = self.parser.finish();
        ParsedStream {
            document,
            diagnostics,
            encoding: encoding.unwrap_or_else(|| thicket_input::xml::sniff(b"").encoding),
            had_decoding_errors,
        }
    }
}
