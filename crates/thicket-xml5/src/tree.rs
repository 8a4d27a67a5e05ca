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
use crate::tokenizer::{Options, Tokenizer};

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

/// An attribute of an element.
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

/// An element.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Element<'a> {
    /// The namespace, if any.
    pub namespace: Option<Cow<'a, str>>,
    /// The prefix as written.
    pub prefix: Option<Cow<'a, str>>,
    /// The local name.
    pub local: Cow<'a, str>,
    /// Attributes in source order (namespace declarations included).
    pub attributes: Vec<Attribute<'a>>,
}

impl Element<'_> {
    /// `prefix:local` or `local`.
    pub fn qualified_name(&self) -> String {
        qualified(self.prefix.as_deref(), &self.local)
    }
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

#[derive(Clone, Debug, PartialEq, Eq)]
struct Node<'a> {
    data: NodeData<'a>,
    parent: Option<NodeId>,
    children: Children,
}

/// Up to [`INLINE`] children are kept in the node itself (most elements have few), so only
/// nodes with more children allocate.
#[derive(Clone, Debug)]
enum Children {
    Inline { len: u8, ids: [NodeId; INLINE] },
    Heap(Vec<NodeId>),
}

const INLINE: usize = 4;

impl Children {
    const EMPTY: Children = Children::Inline {
        len: 0,
        ids: [NodeId(0); INLINE],
    };

    fn as_slice(&self) -> &[NodeId] {
        match self {
            Children::Inline { len, ids } => &ids[..usize::from(*len)],
            Children::Heap(v) => v,
        }
    }

    fn push(&mut self, id: NodeId) {
        match self {
            Children::Inline { len, ids } if usize::from(*len) < INLINE => {
                ids[usize::from(*len)] = id;
                *len += 1;
            }
            Children::Inline { ids, .. } => {
                let mut v = Vec::with_capacity(INLINE * 2);
                v.extend_from_slice(ids);
                v.push(id);
                *self = Children::Heap(v);
            }
            Children::Heap(v) => v.push(id),
        }
    }
}

impl PartialEq for Children {
    fn eq(&self, other: &Children) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Children {}

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

/// A document: an arena of nodes. Node 0 is the document node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Document<'a> {
    nodes: Vec<Node<'a>>,
    /// The XML declaration, when the input started with one (draft profile).
    pub xml_declaration: Option<XmlDeclaration>,
}

impl Default for Document<'_> {
    fn default() -> Self {
        Document::new()
    }
}

impl<'a> Document<'a> {
    /// An empty document.
    pub fn new() -> Document<'a> {
        Document {
            nodes: vec![Node {
                data: NodeData::Document,
                parent: None,
                children: Children::EMPTY,
            }],
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
                        attributes: e
                            .attributes
                            .into_iter()
                            .map(|a| Attribute {
                                namespace: a.namespace.map(o),
                                prefix: a.prefix.map(o),
                                local: o(a.local),
                                value: o(a.value),
                            })
                            .collect(),
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
        Document {
            nodes,
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
        self.nodes[id.index()].children.as_slice()
    }

    /// The parent of `id` (`None` for the document node).
    pub fn parent(&self, id: NodeId) -> Option<NodeId> {
        self.nodes[id.index()].parent
    }

    /// Appends a node as the last child of `parent`. Text appended after text is merged into it,
    /// and empty text is not added; the id of the node that holds the data is returned.
    pub fn append(&mut self, parent: NodeId, data: NodeData<'a>) -> NodeId {
        if let NodeData::Text(t) = &data {
            if let Some(&last) = self.nodes[parent.index()].children.as_slice().last()
                && let NodeData::Text(prev) = &mut self.nodes[last.index()].data
            {
                prev.to_mut().push_str(t);
                return last;
            }
            if t.is_empty() {
                return parent;
            }
        }
        let id = NodeId(u32::try_from(self.nodes.len()).unwrap_or(u32::MAX));
        self.nodes.push(Node {
            data,
            parent: Some(parent),
            children: Children::EMPTY,
        });
        self.nodes[parent.index()].children.push(id);
        id
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
                        dump_name(&e.namespace, e.prefix.as_deref(), &e.local)
                    );
                    let mut attrs: Vec<&Attribute<'_>> = e.attributes.iter().collect();
                    attrs.sort_by(|a, b| a.local.cmp(&b.local));
                    for a in attrs {
                        let _ = writeln!(
                            out,
                            "{indent}  {}=\"{}\"",
                            dump_name(&a.namespace, a.prefix.as_deref(), &a.local),
                            a.value
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

fn dump_name(ns: &Option<Cow<'_, str>>, prefix: Option<&str>, local: &str) -> String {
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
    /// For each prefix, its bindings innermost last (`None` = undeclared): lookups stay O(1)
    /// however many bindings are in scope.
    scopes: HashMap<Cow<'a, str>, Vec<Option<Cow<'a, str>>>, FxBuild>,
    /// An emptied attribute list of a tag token, for the tokenizer to reuse (see [`parse`]).
    spare_attributes: Vec<TokenAttribute<'a>>,
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
            scopes: HashMap::default(),
            spare_attributes: Vec::new(),
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
    pub fn finish(self) -> (Document<'a>, Vec<Diagnostic>) {
        (self.doc, self.diagnostics)
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
        let root = self.doc.root();
        match token.kind {
            TokenKind::StartTag { name, attributes } => {
                let node = self.create_element(root, &name, attributes, span);
                self.push(node, name);
                self.phase = Phase::Main;
            }
            TokenKind::EmptyTag { name, attributes } => {
                let marker = self.bindings.len();
                self.create_element(root, &name, attributes, span);
                self.unbind_to(marker);
                self.phase = Phase::End;
            }
            TokenKind::Comment(c) => {
                self.doc.append(root, NodeData::Comment(c));
            }
            TokenKind::Pi { target, data } => {
                self.doc.append(root, NodeData::Pi { target, data });
            }
            TokenKind::Doctype {
                name,
                public_id,
                system_id,
            } => {
                let has_doctype = self
                    .doc
                    .children(root)
                    .iter()
                    .any(|&c| matches!(self.doc.data(c), NodeData::Doctype { .. }));
                if has_doctype {
                    self.error(ErrorCode::MisplacedDoctype, span);
                } else {
                    self.doc.append(
                        root,
                        NodeData::Doctype {
                            name,
                            public_id,
                            system_id,
                        },
                    );
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
        let current = self.stack.last().map_or(self.doc.root(), |e| e.node);
        match token.kind {
            TokenKind::Text(t) => {
                self.doc.append(current, NodeData::Text(t));
            }
            TokenKind::StartTag { name, attributes } => {
                let node = self.create_element(current, &name, attributes, span);
                self.push(node, name);
            }
            TokenKind::EmptyTag { name, attributes } => {
                let marker = self.bindings.len();
                self.create_element(current, &name, attributes, span);
                self.unbind_to(marker);
            }
            TokenKind::EndTag { name } => {
                if self.stack.last().is_some_and(|e| e.name == name) {
                    // The usual case: the end tag closes the current element, so there is no
                    // need to ask whether an element of that name is open.
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
            TokenKind::ShortEndTag => {
                self.pop();
                if self.stack.is_empty() {
                    self.phase = Phase::End;
                }
            }
            TokenKind::Comment(c) => {
                self.doc.append(current, NodeData::Comment(c));
            }
            TokenKind::Pi { target, data } => {
                self.doc.append(current, NodeData::Pi { target, data });
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

    fn end_phase(&mut self, token: Token<'a>) {
        let span = token.span;
        let root = self.doc.root();
        match token.kind {
            TokenKind::Comment(c) => {
                self.doc.append(root, NodeData::Comment(c));
            }
            TokenKind::Pi { target, data } => {
                self.doc.append(root, NodeData::Pi { target, data });
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
        self.scopes
            .entry(prefix.clone())
            .or_default()
            .push(ns.clone());
        self.bindings.push((prefix, ns));
    }

    fn unbind_to(&mut self, len: usize) {
        while self.bindings.len() > len {
            if let Some((p, _)) = self.bindings.pop()
                && let Some(v) = self.scopes.get_mut(&p)
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
        if self.bindings.len() <= 16 {
            return self
                .bindings
                .iter()
                .rev()
                .find(|(p, _)| p == prefix)
                .and_then(|(_, ns)| ns.clone());
        }
        self.scopes
            .get(prefix)
            .and_then(|v| v.last())
            .and_then(|ns| ns.clone())
    }

    /// Creates an element for a tag token (declaring its namespaces) and appends it to `parent`.
    // `&Cow`, not `&str`: a borrowed name's parts stay borrowed from the input (see `split_cow`).
    #[allow(clippy::ptr_arg)]
    fn create_element(
        &mut self,
        parent: NodeId,
        name: &Cow<'a, str>,
        mut attributes: Vec<TokenAttribute<'a>>,
        span: Span,
    ) -> NodeId {
        // Declarations first: they are in scope for the element and its attributes. Most tags
        // have none, which one look at the names' first bytes tells.
        let mut valid_decl: Vec<bool> = Vec::new();
        let before = self.bindings.len();
        if attributes.iter().any(|a| a.name.starts_with("xmlns")) {
            valid_decl = vec![false; attributes.len()];
            for (i, a) in attributes.iter().enumerate() {
                if let Some(ok) = self.declare(a) {
                    valid_decl[i] = ok;
                }
            }
        }
        self.pending_bindings = self.bindings.len() - before;

        let (prefix, local) = split_cow(name);
        let namespace = match prefix.as_deref() {
            Some(p) => match self.lookup(Some(p)) {
                Some(ns) => Some(ns),
                None => {
                    self.error(ErrorCode::UnboundPrefix, span);
                    None
                }
            },
            None => self.lookup(None),
        };
        let mut attrs: Vec<Attribute<'a>> = Vec::with_capacity(attributes.len());
        let mut seen: HashSet<(Option<String>, String), FxBuild> = HashSet::default();
        for (i, a) in attributes.drain(..).enumerate() {
            let (aprefix, alocal) = split_cow(&a.name);
            let ans = if valid_decl.get(i).copied().unwrap_or(false) {
                Some(Cow::Borrowed(XMLNS_NAMESPACE))
            } else if let Some(p) = aprefix.as_deref() {
                if p == "xmlns" {
                    None
                } else {
                    match self.lookup(Some(p)) {
                        Some(ns) => Some(ns),
                        None => {
                            self.error(ErrorCode::UnboundPrefix, a.span);
                            None
                        }
                    }
                }
            } else {
                None
            };
            let duplicate = if attrs.len() < 32 {
                attrs.iter().any(|b| match &ans {
                    Some(_) => b.namespace == ans && b.local == alocal,
                    None => {
                        b.namespace.is_none()
                            && b.local == alocal
                            && b.prefix.as_deref() == aprefix.as_deref()
                    }
                })
            } else {
                if seen.is_empty() {
                    for b in &attrs {
                        seen.insert(attribute_key(
                            b.namespace.as_deref(),
                            b.prefix.as_deref(),
                            &b.local,
                        ));
                    }
                }
                !seen.insert(attribute_key(ans.as_deref(), aprefix.as_deref(), &alocal))
            };
            if duplicate {
                self.error(ErrorCode::DuplicateExpandedAttribute, a.span);
                continue;
            }
            attrs.push(Attribute {
                namespace: ans,
                prefix: aprefix,
                local: alocal,
                value: a.value,
            });
        }
        if attributes.capacity() > self.spare_attributes.capacity() {
            self.spare_attributes = attributes;
        }
        self.doc.append(
            parent,
            NodeData::Element(Element {
                namespace,
                prefix,
                local,
                attributes: attrs,
            }),
        )
    }

    /// If `a` is a namespace declaration, applies it: `Some(true)` when it declares (or is the
    /// XML namespace's own), `Some(false)` when it is invalid (reported), `None` when it is no
    /// declaration.
    fn declare(&mut self, a: &TokenAttribute<'a>) -> Option<bool> {
        let (prefix, local) = split_cow(&a.name);
        let declared: Option<Cow<'a, str>> = match (prefix.as_deref(), local.as_ref()) {
            (None, "xmlns") => None,
            (Some("xmlns"), _) => Some(local),
            _ => return None,
        };
        let value: &str = &a.value;
        let ok = match declared.as_deref() {
            Some("xml") => value == XML_NAMESPACE,
            Some("xmlns") => false,
            _ => value != XMLNS_NAMESPACE && value != XML_NAMESPACE,
        };
        if !ok {
            self.error(ErrorCode::InvalidNamespaceDeclaration, a.span);
            return Some(false);
        }
        if declared.as_deref() == Some("xml") {
            return Some(true);
        }
        if value.is_empty() && declared.is_some() {
            // Namespaces in XML 1.0 forbids undeclaring a prefix; we undeclare it (as 1.1
            // allows) and report it.
            self.error(ErrorCode::InvalidNamespaceDeclaration, a.span);
        }
        let ns = (!value.is_empty()).then(|| a.value.clone());
        self.bind(declared.unwrap_or(Cow::Borrowed("")), ns);
        Some(true)
    }
}

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

/// The identity of an attribute: namespace and local name, or the qualified name when it is in
/// no namespace.
fn attribute_key(ns: Option<&str>, prefix: Option<&str>, local: &str) -> (Option<String>, String) {
    match ns {
        Some(ns) => (Some(ns.to_owned()), local.to_owned()),
        None => (None, qualified(prefix, local)),
    }
}

/// Parses the whole of `input` into a document; tokenizer and tree diagnostics together, in
/// input order.
pub fn parse(input: &str, options: Options) -> (Document<'_>, Vec<Diagnostic>) {
    let mut tokenizer = Tokenizer::new(input, options);
    let mut builder = TreeBuilder::new();
    let mut diagnostics = Vec::new();
    while let Some(e) = tokenizer.next_event() {
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
    (builder.doc, diagnostics)
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
