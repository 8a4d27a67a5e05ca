//! The parsed tree as an arena: [`Document`] keeps its strings as 8-byte ranges of the input
//! where recovery and newline normalization changed nothing (and of its own text otherwise), so
//! building it costs no allocation per node, and every node and attribute keeps the span of the
//! markup it came from.

use std::fmt;
use std::ops::Deref;

use thicket_input::Span;

use crate::element::{Attribute, Element, Node};

/// "No node": index 0 is the `#doc` wrapper, which is never a child or a sibling.
pub(crate) const NONE: u32 = 0;

/// Marks a text node in [`NodeData::attributes`].
const TEXT: (u32, u32) = (u32::MAX, u32::MAX);

/// The longest input a [`Document`] holds: 1.5 GiB. Its offsets are `u32`, and the document's
/// own text (characters that differ from the input: at most 6 bytes for a 5-byte reference) is
/// addressed after the input, so input and own text stay under 4 GiB. Longer input is cut there
/// with a `document-too-large` diagnostic.
pub const MAX_DOCUMENT_LEN: usize = 3 << 29;

/// The most the own text of a [`Document`] may hold, with the input, in a `u32` address space.
pub(crate) const MAX_TEXT_LEN: usize = u32::MAX as usize - MAX_DOCUMENT_LEN;

/// `text` cut to at most `max` bytes (at a character boundary), and whether it
/// was cut.
pub(crate) fn within_limit(text: &str, max: usize) -> (&str, bool) {
    if text.len() <= max {
        return (text, false);
    }
    let mut cut = max;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    (&text[..cut], true)
}

/// `v` as a `u32`: every offset of a [`Document`] is below 4 GiB (its input is at most
/// [`MAX_DOCUMENT_LEN`], its own text at most [`MAX_TEXT_LEN`]). (A builder without a tree,
/// which serves [`crate::Checker`] on input of any length, does not read what it wraps.)
#[inline]
pub(crate) fn n32(v: usize) -> u32 {
    v as u32
}

/// A string of a document: `len` bytes from `start` in the document's address space, where
/// offsets below the source's length are in the source and the rest in the document's own text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Str {
    pub(crate) start: u32,
    pub(crate) len: u32,
}

impl Str {
    #[inline]
    pub(crate) fn new(start: usize, len: usize) -> Str {
        Str {
            start: n32(start),
            len: n32(len),
        }
    }

    /// Just past the end, in the document's address space.
    #[inline]
    pub(crate) fn end(self) -> usize {
        self.start as usize + self.len as usize
    }
}

/// A span of the input in 8 bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Span32 {
    pub(crate) start: u32,
    pub(crate) end: u32,
}

impl Span32 {
    #[inline]
    pub(crate) fn new(span: Span) -> Span32 {
        Span32 {
            start: n32(span.start),
            end: n32(span.end),
        }
    }

    #[inline]
    pub(crate) fn get(self) -> Span {
        Span::new(self.start as usize, self.end as usize)
    }
}

/// One node of the arena: an element (name, attribute range) or a text node, 32 bytes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NodeData {
    /// The element name, or the text.
    pub(crate) value: Str,
    /// The element's attributes, `start..end` in [`Document::attributes`]; [`TEXT`] for text.
    pub(crate) attributes: (u32, u32),
    pub(crate) first_child: u32,
    pub(crate) next_sibling: u32,
    /// The markup the node came from.
    pub(crate) span: Span32,
}

const _: () = assert!(size_of::<NodeData>() == 32);

impl NodeData {
    #[inline]
    pub(crate) fn element(name: Str, attributes: (u32, u32), span: Span) -> NodeData {
        NodeData {
            value: name,
            attributes,
            first_child: NONE,
            next_sibling: NONE,
            span: Span32::new(span),
        }
    }

    #[inline]
    pub(crate) fn text(text: Str, span: Span) -> NodeData {
        NodeData {
            value: text,
            attributes: TEXT,
            first_child: NONE,
            next_sibling: NONE,
            span: Span32::new(span),
        }
    }

    #[inline]
    pub(crate) fn is_text(&self) -> bool {
        self.attributes == TEXT
    }
}

/// One attribute of the arena: name, value and their spans, 32 bytes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AttributeData {
    pub(crate) name: Str,
    pub(crate) value: Str,
    pub(crate) name_span: Span32,
    pub(crate) value_span: Span32,
}

const _: () = assert!(size_of::<AttributeData>() == 32);

/// A parsed tree: the document element (or the `#doc` wrapper) and everything below it, stored
/// in two vectors (32-byte nodes and 32-byte attributes) and the text that is not in the input.
/// Names, values and text are ranges of the input unless a reference, a newline or recovery
/// changed them; [`Document::into_owned`] detaches the tree from the input.
///
/// Walk it from [`Document::root`]; [`Document::to_element`] gives the owned [`Element`] tree.
/// Every element, text node and attribute keeps the span of the markup it came from
/// ([`ElementRef::span`], [`TextRef::span`], [`AttributeRef::name_span`],
/// [`AttributeRef::value_span`]); equality compares the trees, not the spans.
/// Dropping, comparing, cloning and formatting never recurse, so trees of any depth are fine.
///
/// Offsets are kept as `u32`, so a document holds at most [`MAX_DOCUMENT_LEN`] bytes of input:
/// `parse_with` and `Parser` stop there with a `document-too-large` diagnostic.
#[derive(Clone)]
pub struct Document<'a> {
    pub(crate) source: &'a str,
    /// Strings that are not ranges of `source`, at offsets `source.len()..`.
    pub(crate) text: String,
    pub(crate) nodes: Vec<NodeData>,
    pub(crate) attributes: Vec<AttributeData>,
    pub(crate) root: u32,
    /// The parent of every node under the root, made on the first `parent()` call
    /// (`crate::navigate`): 4 bytes per node, only for users who go up.
    pub(crate) parents: std::sync::OnceLock<Vec<u32>>,
}

impl<'a> Document<'a> {
    /// The document element, or the `#doc` wrapper when there is not exactly one top-level node.
    pub fn root(&self) -> ElementRef<'_, 'a> {
        ElementRef {
            doc: self,
            id: self.root,
        }
    }

    /// The characters of `s`.
    #[inline]
    pub(crate) fn str(&self, s: Str) -> &str {
        resolve(self.source, &self.text, s)
    }

    /// The same tree, owning its strings (copied once into the document's own text).
    pub fn into_owned(self) -> Document<'static> {
        let mut text = String::with_capacity(self.text.len());
        let mut own = |s: Str| {
            let chars = resolve(self.source, &self.text, s);
            let start = text.len();
            text.push_str(chars);
            Str::new(start, chars.len())
        };
        let mut nodes = self.nodes;
        for n in &mut nodes {
            n.value = own(n.value);
        }
        let mut attributes = self.attributes;
        for a in &mut attributes {
            a.name = own(a.name);
            a.value = own(a.value);
        }
        Document {
            source: "",
            text,
            nodes,
            attributes,
            root: self.root,
            parents: self.parents,
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

/// The characters of `s` in the address space of `source` followed by `text`.
#[inline]
pub(crate) fn resolve<'s>(source: &'s str, text: &'s str, s: Str) -> &'s str {
    let (start, end) = (s.start as usize, s.end());
    if end <= source.len() {
        source.get(start..end).unwrap_or("")
    } else {
        let base = source.len();
        text.get(start.saturating_sub(base)..end - base)
            .unwrap_or("")
    }
}

/// The bytes of `s` in the address space of `source` followed by `text` (no character
/// boundary checks: for comparing names).
#[inline]
pub(crate) fn resolve_bytes<'s>(source: &'s str, text: &'s str, s: Str) -> &'s [u8] {
    let (start, end) = (s.start as usize, s.end());
    if end <= source.len() {
        source.as_bytes().get(start..end).unwrap_or(b"")
    } else {
        let base = source.len();
        text.as_bytes()
            .get(start.saturating_sub(base)..end - base)
            .unwrap_or(b"")
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
                    (Some(NodeRef::Text(s)), Some(NodeRef::Text(t))) if *s == *t => {}
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
    pub(crate) doc: &'d Document<'a>,
    pub(crate) id: u32,
}

impl<'d, 'a> ElementRef<'d, 'a> {
    fn data(&self) -> &'d NodeData {
        &self.doc.nodes[self.id as usize]
    }

    /// The element name (`#doc` for the wrapper).
    pub fn name(&self) -> &'d str {
        self.doc.str(self.data().value)
    }

    /// The markup that produced the element: from the `<` of its start-tag to the end of its
    /// end-tag (or of `/>`). An element that recovery closed ends where its content ends: at
    /// the end-tag that closed it along with its parent, or at the end of the input. The
    /// `#doc` wrapper, made by recovery once the input has ended, has an empty span at the
    /// end of the input.
    pub fn span(&self) -> Span {
        self.data().span.get()
    }

    /// The attributes, in order of first occurrence, names unique.
    pub fn attributes(&self) -> Attributes<'d, 'a> {
        let (start, end) = self.data().attributes;
        Attributes {
            doc: self.doc,
            inner: self.doc.attributes[start as usize..end as usize].iter(),
        }
    }

    /// The value of the attribute `name`.
    pub fn attribute(&self, name: &str) -> Option<&'d str> {
        self.attributes()
            .find(|a| a.name() == name)
            .map(|a| a.value())
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
                .map(|a| Attribute {
                    name: a.name().to_owned(),
                    value: a.value().to_owned(),
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
                        top.children.push(Node::Text(t.as_str().to_owned()));
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

/// A text node of a [`Document`]: its characters (it dereferences to `str`) and its span.
#[derive(Clone, Copy)]
pub struct TextRef<'d, 'a> {
    pub(crate) doc: &'d Document<'a>,
    pub(crate) id: u32,
}

impl<'d> TextRef<'d, '_> {
    /// The characters (newline-normalized, references replaced).
    pub fn as_str(&self) -> &'d str {
        self.doc.str(self.doc.nodes[self.id as usize].value)
    }

    /// The input the characters came from: from the first character's source to the end of
    /// the last's, so it also covers comments, CDATA delimiters and removed end-tags between
    /// them, and, for text outside the document element, whitespace that stripping removed.
    pub fn span(&self) -> Span {
        self.doc.nodes[self.id as usize].span.get()
    }
}

impl Deref for TextRef<'_, '_> {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Debug for TextRef<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for TextRef<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A child in a [`Document`]: an element or text.
#[derive(Clone, Copy, Debug)]
pub enum NodeRef<'d, 'a> {
    /// An element.
    Element(ElementRef<'d, 'a>),
    /// Text; adjacent characters are always merged into one `Text`.
    Text(TextRef<'d, 'a>),
}

impl NodeRef<'_, '_> {
    /// The markup the node came from ([`ElementRef::span`], [`TextRef::span`]).
    pub fn span(&self) -> Span {
        match self {
            NodeRef::Element(e) => e.span(),
            NodeRef::Text(t) => t.span(),
        }
    }
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
        let doc = self.doc;
        Some(if n.is_text() {
            NodeRef::Text(TextRef { doc, id })
        } else {
            NodeRef::Element(ElementRef { doc, id })
        })
    }
}

impl fmt::Debug for Children<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.clone()).finish()
    }
}

/// An attribute of an element in a [`Document`]: name, value and where each came from.
#[derive(Clone, Copy)]
pub struct AttributeRef<'d, 'a> {
    doc: &'d Document<'a>,
    data: &'d AttributeData,
}

impl<'d> AttributeRef<'d, '_> {
    /// The name.
    pub fn name(&self) -> &'d str {
        self.doc.str(self.data.name)
    }

    /// The value (newline-normalized, references replaced).
    pub fn value(&self) -> &'d str {
        self.doc.str(self.data.value)
    }

    /// The name in the input (all of it when `Limits::max_name_len` cut the name short).
    pub fn name_span(&self) -> Span {
        self.data.name_span.get()
    }

    /// The value's characters in the input, without its quotes (all of them when
    /// `Limits::max_value_len` cut the value short). An empty value has an empty span: between
    /// its quotes, or right after the `=` (or after the name, for a boolean attribute) when it
    /// has none.
    pub fn value_span(&self) -> Span {
        self.data.value_span.get()
    }
}

/// Attributes are equal when their names and values are (spans are not compared).
impl PartialEq for AttributeRef<'_, '_> {
    fn eq(&self, other: &AttributeRef<'_, '_>) -> bool {
        self.name() == other.name() && self.value() == other.value()
    }
}

impl Eq for AttributeRef<'_, '_> {}

impl fmt::Debug for AttributeRef<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Attribute")
            .field("name", &self.name())
            .field("value", &self.value())
            .field("name_span", &self.name_span())
            .field("value_span", &self.value_span())
            .finish()
    }
}

/// The attributes of an element, in order ([`ElementRef::attributes`]).
#[derive(Clone)]
pub struct Attributes<'d, 'a> {
    doc: &'d Document<'a>,
    inner: std::slice::Iter<'d, AttributeData>,
}

impl<'d, 'a> Iterator for Attributes<'d, 'a> {
    type Item = AttributeRef<'d, 'a>;

    fn next(&mut self) -> Option<AttributeRef<'d, 'a>> {
        let doc = self.doc;
        self.inner.next().map(|data| AttributeRef { doc, data })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl ExactSizeIterator for Attributes<'_, '_> {}

impl fmt::Debug for Attributes<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.clone()).finish()
    }
}
