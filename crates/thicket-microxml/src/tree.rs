//! Tree building: abstract tokens to a [`Document`], the owned [`Element`] tree, and the
//! streaming [`Parser`].

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};

use thicket_input::Span;

use crate::document::{self, Document, ElementRef, NONE, NodeData};
use crate::error::{Diagnostic, ErrorCode};
use crate::lexer::Tokenizer;
use crate::options::Options;
use crate::token::Token;
use crate::validity;

/// The name of the element that wraps zero or several top-level nodes.
pub const DOC_WRAPPER: &str = "#doc";

/// An attribute: name and value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Attribute {
    /// The name.
    pub name: String,
    /// The value.
    pub value: String,
}

/// A child of an element.
#[derive(Clone, PartialEq, Eq)]
pub enum Node {
    /// An element.
    Element(Element),
    /// Text; adjacent characters are always merged into one `Text`.
    Text(String),
}

/// An element: name, attributes (in order of first occurrence, names unique) and children.
///
/// Dropping, comparing, cloning and formatting never recurse, so trees of any depth are fine.
#[derive(Default)]
pub struct Element {
    /// The element name (`#doc` for the wrapper).
    pub name: String,
    /// The attributes, in order, names unique.
    pub attributes: Vec<Attribute>,
    /// The children.
    pub children: Vec<Node>,
}

impl Element {
    /// An element with no attributes and no children.
    pub fn new(name: impl Into<String>) -> Element {
        Element {
            name: name.into(),
            attributes: Vec::new(),
            children: Vec::new(),
        }
    }

    /// The value of the attribute `name`.
    pub fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|a| a.name == name)
            .map(|a| a.value.as_str())
    }

    /// The same element without children.
    fn shallow(&self) -> Element {
        Element {
            name: self.name.clone(),
            attributes: self.attributes.clone(),
            children: Vec::new(),
        }
    }

    /// Depth of the deepest element below (0 for no element children), computed without
    /// recursion.
    pub fn depth(&self) -> usize {
        let mut max = 0;
        let mut stack: Vec<(&Element, usize)> = vec![(self, 0)];
        while let Some((e, d)) = stack.pop() {
            max = max.max(d);
            for c in &e.children {
                if let Node::Element(c) = c {
                    stack.push((c, d + 1));
                }
            }
        }
        max
    }
}

impl Drop for Element {
    fn drop(&mut self) {
        // Elements whose children hold no element with element children drop with the default
        // glue at a bounded depth. Deeper descendants are moved onto a heap stack first, so that
        // each element is dropped with at most one level of element children left.
        fn deep(e: &Element) -> bool {
            e.children.iter().any(|g| matches!(g, Node::Element(_)))
        }
        fn take_deep(children: &mut Vec<Node>, stack: &mut Vec<Element>) {
            for c in children.drain(..) {
                if let Node::Element(e) = c
                    && deep(&e)
                {
                    stack.push(e);
                }
            }
        }
        if !self
            .children
            .iter()
            .any(|c| matches!(c, Node::Element(e) if deep(e)))
        {
            return;
        }
        let mut stack: Vec<Element> = Vec::new();
        take_deep(&mut self.children, &mut stack);
        while let Some(mut e) = stack.pop() {
            take_deep(&mut e.children, &mut stack);
        }
    }
}

impl Clone for Element {
    fn clone(&self) -> Element {
        // Pairs of (source, its clone under construction); a finished clone is pushed into its
        // parent's children.
        let mut out_stack: Vec<Element> = vec![self.shallow()];
        let mut work: Vec<std::slice::Iter<'_, Node>> = vec![self.children.iter()];
        while let Some(iter) = work.last_mut() {
            match iter.next() {
                Some(Node::Text(t)) => {
                    let top = out_stack.len() - 1;
                    out_stack[top].children.push(Node::Text(t.clone()));
                }
                Some(Node::Element(e)) => {
                    out_stack.push(e.shallow());
                    work.push(e.children.iter());
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

impl PartialEq for Element {
    fn eq(&self, other: &Element) -> bool {
        let mut stack: Vec<(&Element, &Element)> = vec![(self, other)];
        while let Some((a, b)) = stack.pop() {
            if a.name != b.name
                || a.attributes != b.attributes
                || a.children.len() != b.children.len()
            {
                return false;
            }
            for (x, y) in a.children.iter().zip(&b.children) {
                match (x, y) {
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

impl fmt::Debug for Element {
    /// The tree as JSON-like text, `[name, {attrs}, [children]]`, written without recursion.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::to_json(self))
    }
}

impl fmt::Debug for Node {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Node::Element(e) => fmt::Debug::fmt(e, f),
            Node::Text(t) => fmt::Debug::fmt(t, f),
        }
    }
}

/// The result of parsing: the tree and the validity diagnostics, sorted by position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed<'a> {
    /// The tree: the document element (or the `#doc` wrapper) and everything below it.
    pub document: Document<'a>,
    /// Where the input is not valid MicroXML; empty for a valid document.
    pub diagnostics: Vec<Diagnostic>,
}

impl<'a> Parsed<'a> {
    /// True when the input is valid MicroXML.
    pub fn is_valid(&self) -> bool {
        self.diagnostics.is_empty()
    }

    /// The document element, or the `#doc` wrapper.
    pub fn root(&self) -> ElementRef<'_, 'a> {
        self.document.root()
    }

    /// The same result, owning its strings.
    pub fn into_owned(self) -> Parsed<'static> {
        Parsed {
            document: self.document.into_owned(),
            diagnostics: self.diagnostics,
        }
    }
}

/// Whitespace bookkeeping for a top-level text node (whitespace stripping only ever touches the
/// first and the last top-level node).
#[derive(Clone, Copy, Debug, Default)]
struct TopText {
    /// Bytes of strippable whitespace at the start.
    lead: usize,
    /// Whether every character so far is strippable.
    all: bool,
    /// Bytes of strippable whitespace at the end.
    trail: usize,
}

#[inline]
fn is_strip_ws(c: char) -> bool {
    // The recovery S: tab, LF, FF, space.
    matches!(c, '\t' | '\n' | '\u{C}' | ' ')
}

/// An open element: its node, the span of its start-tag, its last child so far.
#[derive(Clone, Copy, Debug)]
struct Open {
    id: u32,
    span: Span,
    last: u32,
}

/// Builds the tree from abstract tokens: duplicate attributes, tag matching, end-of-input
/// closing, whitespace stripping and the `#doc` wrapper. The tree is a [`Document`] holding the
/// tokens' strings as they come (borrowed tokens give a borrowed tree).
#[derive(Debug)]
pub struct TreeBuilder<'a> {
    /// The arena; node 0 is the `#doc` wrapper.
    nodes: Vec<NodeData<'a>>,
    /// Every element's attributes, each element's contiguous.
    attributes: Vec<(Cow<'a, str>, Cow<'a, str>)>,
    /// Open elements, innermost last.
    stack: Vec<Open>,
    /// The last top-level node.
    top_last: u32,
    /// Hash of an open element's name to how many open elements have it, for the elements at
    /// `stack[SCANNED..]` (the first `SCANNED` are compared one by one when needed: most
    /// documents are never that deep, and pay nothing per element).
    open_names: HashMap<u64, u32, BuildHasherDefault<IdentityHasher>>,
    /// Top-level nodes.
    top: Vec<u32>,
    /// Whitespace bookkeeping, parallel to `top` (unused for elements).
    top_info: Vec<TopText>,
    /// The start-tag being built: its name and span.
    tag: Option<(Cow<'a, str>, Span)>,
    /// Where the attributes of the start-tag being built start in `attributes`.
    tag_attributes: usize,
    /// Whether the current attribute is a duplicate (its value is ignored).
    ignore_attribute: bool,
    /// The current start-tag's attribute names, for duplicate checks.
    seen: SeenAttributes,
    top_elements: usize,
    diagnostics: Vec<Diagnostic>,
}

impl Default for TreeBuilder<'_> {
    fn default() -> Self {
        TreeBuilder::new()
    }
}

/// How many open elements (from the outermost) an end-tag that does not close the current
/// element is compared with one by one; deeper ones are looked up by hash.
const SCANNED: usize = 64;

/// FNV-1a over the name's bytes: names are short and not attacker-chosen keys of a map that
/// decides anything but "maybe open" (a hit is confirmed by comparing names).
fn name_hash(name: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in name.as_bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The keys are already hashes: pass them through.
#[derive(Default)]
struct IdentityHasher(u64);

impl Hasher for IdentityHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// Duplicate checks for the attributes of one start-tag: a 64-bit filter answers "new" for most
/// names at once; otherwise the names are compared, by hash once there are more than a few (so
/// duplicate checks stay linear overall).
#[derive(Debug, Default)]
struct SeenAttributes {
    /// One bit per name, from its length and its first and last bytes.
    filter: u64,
    /// Hashes of the first `hashed` attribute names, once the tag has many, to where the first
    /// name with that hash is.
    hashes: HashMap<u64, usize, BuildHasherDefault<IdentityHasher>>,
    hashed: usize,
}

impl SeenAttributes {
    fn clear(&mut self) {
        self.filter = 0;
        if self.hashed > 0 {
            self.hashes.clear();
            self.hashed = 0;
        }
    }

    /// Whether `attributes` (the tag's so far) already has one called `name`.
    #[inline]
    fn contains(&mut self, attributes: &[(Cow<'_, str>, Cow<'_, str>)], name: &str) -> bool {
        let b = name.as_bytes();
        let key = b.len()
            ^ usize::from(b.first().copied().unwrap_or(0)).wrapping_mul(7)
            ^ usize::from(b.last().copied().unwrap_or(0)).wrapping_mul(13);
        let bit = 1u64 << (key % 64);
        let maybe = self.filter & bit != 0;
        self.filter |= bit;
        maybe && self.compare(attributes, name)
    }

    #[cold]
    fn compare(&mut self, attributes: &[(Cow<'_, str>, Cow<'_, str>)], name: &str) -> bool {
        const LINEAR: usize = 16;
        if attributes.len() < LINEAR {
            return attributes.iter().any(|a| a.0 == name);
        }
        for (i, a) in attributes.iter().enumerate().skip(self.hashed) {
            self.hashes.entry(name_hash(&a.0)).or_insert(i);
        }
        self.hashed = attributes.len();
        match self.hashes.get(&name_hash(name)) {
            None => false,
            Some(&i) if attributes[i].0 == name => true,
            // A hash collision: compare them all.
            Some(_) => attributes.iter().any(|a| a.0 == name),
        }
    }
}

/// `c[start..end]`, without copying a borrowed string.
fn slice_cow(c: &mut Cow<'_, str>, start: usize, end: usize) {
    match c {
        Cow::Borrowed(s) => *s = &s[start..end],
        Cow::Owned(s) => {
            s.truncate(end);
            s.drain(..start);
        }
    }
}

impl<'a> TreeBuilder<'a> {
    /// An empty builder.
    pub fn new() -> TreeBuilder<'a> {
        TreeBuilder {
            nodes: vec![document::wrapper()],
            attributes: Vec::new(),
            stack: Vec::new(),
            top_last: NONE,
            open_names: HashMap::default(),
            top: Vec::new(),
            top_info: Vec::new(),
            tag: None,
            tag_attributes: 0,
            ignore_attribute: false,
            seen: SeenAttributes::default(),
            top_elements: 0,
            diagnostics: Vec::new(),
        }
    }

    /// An empty builder with room for the tree of `input`: at most one element per `<` and one
    /// text node before and after each (growing the vectors would copy them).
    pub(crate) fn for_input(input: &str) -> TreeBuilder<'a> {
        let mut b = TreeBuilder::new();
        let tags = memchr::memchr_iter(b'<', input.as_bytes()).count();
        reserve_guess(&mut b.nodes, 2 * tags + 1, input.len());
        reserve_guess(&mut b.attributes, input.len() / 32, input.len());
        b.stack.reserve(32);
        b
    }

    /// Processes one token.
    pub fn push(&mut self, token: Token<'a>) {
        match token {
            Token::StartTagOpen { name, span } => self.start_tag_open(name, span),
            Token::AttributeName { name, span } => self.attribute_name(name, span),
            Token::StartTagClose { .. } => self.start_tag_close(),
            Token::EmptyElementTagClose { .. } => self.empty_element_tag_close(),
            Token::EndTag { name, span } => self.end_tag(&name, span),
            Token::Data { text, span } => self.text(text, span, false),
            Token::CharRef { text, span } => self.text(text, span, true),
        }
    }

    #[inline]
    pub(crate) fn start_tag_open(&mut self, name: Cow<'a, str>, span: Span) {
        self.tag = Some((name, span));
        self.tag_attributes = self.attributes.len();
        self.ignore_attribute = false;
        self.seen.clear();
    }

    #[inline]
    pub(crate) fn attribute_name(&mut self, name: Cow<'a, str>, span: Span) {
        if self.tag.is_none() {
            return;
        }
        if self
            .seen
            .contains(&self.attributes[self.tag_attributes..], &name)
        {
            self.ignore_attribute = true;
            self.diagnostics
                .push(Diagnostic::new(ErrorCode::DuplicateAttribute, span));
        } else {
            self.ignore_attribute = false;
            self.attributes.push((name, Cow::Borrowed("")));
        }
    }

    /// The value of the current attribute (a whole `Data` token inside a start-tag).
    #[inline]
    pub(crate) fn attribute_value(&mut self, text: Cow<'a, str>) {
        if self.ignore_attribute || self.attributes.len() == self.tag_attributes {
            return;
        }
        if let Some(a) = self.attributes.last_mut() {
            if a.1.is_empty() {
                a.1 = text;
            } else {
                a.1.to_mut().push_str(&text);
            }
        }
    }

    #[inline]
    pub(crate) fn start_tag_close(&mut self) {
        if let Some((id, span)) = self.take_tag() {
            if self.stack.len() >= SCANNED {
                *self.open_names.entry(name_hash(self.name(id))).or_insert(0) += 1;
            }
            self.stack.push(Open {
                id,
                span,
                last: NONE,
            });
        }
    }

    #[inline]
    pub(crate) fn empty_element_tag_close(&mut self) {
        self.take_tag();
    }

    fn name(&self, id: u32) -> &str {
        &self.nodes[id as usize].value
    }

    #[inline]
    pub(crate) fn end_tag(&mut self, name: &str, span: Span) {
        if self.stack.last().is_some_and(|o| self.name(o.id) == name) {
            self.pop();
            return;
        }
        self.end_tag_slow(name, span);
    }

    fn end_tag_slow(&mut self, name: &str, span: Span) {
        let scanned = self.stack.len().min(SCANNED);
        let open = self.stack[..scanned]
            .iter()
            .any(|o| self.name(o.id) == name)
            || self
                .open_names
                .get(&name_hash(name))
                .is_some_and(|&n| n > 0)
                && self.stack[scanned..]
                    .iter()
                    .rev()
                    .any(|o| self.name(o.id) == name);
        if !open {
            self.diagnostics
                .push(Diagnostic::new(ErrorCode::StrayEndTag, span));
            return;
        }
        self.diagnostics
            .push(Diagnostic::new(ErrorCode::MismatchedEndTag, span));
        while let Some(o) = self.stack.last() {
            let done = self.name(o.id) == name;
            self.pop();
            if done {
                break;
            }
        }
    }

    /// Closes the current element.
    #[inline]
    fn pop(&mut self) {
        if let Some(o) = self.stack.pop()
            && self.stack.len() >= SCANNED
        {
            let h = name_hash(self.name(o.id));
            if let Some(n) = self.open_names.get_mut(&h) {
                *n = n.saturating_sub(1);
            }
        }
    }

    /// Adds node `id` as the last child of the current element (or at the top level).
    #[inline]
    fn link(&mut self, id: u32) {
        let last = match self.stack.last_mut() {
            Some(o) => {
                let last = o.last;
                o.last = id;
                if last == NONE {
                    self.nodes[o.id as usize].first_child = id;
                    return;
                }
                last
            }
            None => {
                let last = self.top_last;
                self.top_last = id;
                self.top.push(id);
                if last == NONE {
                    self.nodes[0].first_child = id;
                    return;
                }
                last
            }
        };
        self.nodes[last as usize].next_sibling = id;
    }

    /// The start-tag being built, as a node linked into the tree.
    #[inline]
    fn take_tag(&mut self) -> Option<(u32, Span)> {
        let (name, span) = self.tag.take()?;
        let id = self.nodes.len() as u32;
        let range = (self.tag_attributes as u32, self.attributes.len() as u32);
        self.nodes.push(NodeData::element(name, range));
        let top = self.stack.is_empty();
        self.link(id);
        if top {
            self.top_elements += 1;
            if self.top_elements == 2 {
                self.diagnostics
                    .push(Diagnostic::new(ErrorCode::MultipleRootElements, span));
            }
            self.top_info.push(TopText::default());
        }
        Some((id, span))
    }

    #[inline]
    pub(crate) fn text(&mut self, text: Cow<'a, str>, span: Span, reference: bool) {
        if self.tag.is_some() {
            self.attribute_value(text);
            return;
        }
        if let Some(o) = self.stack.last() {
            let last = o.last;
            if last != NONE && self.nodes[last as usize].is_text() {
                self.nodes[last as usize].value.to_mut().push_str(&text);
            } else {
                let id = self.nodes.len() as u32;
                self.nodes.push(NodeData::text(text));
                self.link(id);
            }
            return;
        }
        self.top_text(text, span, reference);
    }

    fn top_text(&mut self, text: Cow<'a, str>, span: Span, reference: bool) {
        if reference || text.chars().any(|c| !validity::is_s(c)) {
            self.diagnostics
                .push(Diagnostic::new(ErrorCode::TextOutsideRoot, span));
        }
        let last = self.top_last;
        let (ws_prefix, all_ws, ws_suffix) = if reference {
            (0, false, 0)
        } else {
            let prefix: usize = text
                .chars()
                .take_while(|&c| is_strip_ws(c))
                .map(char::len_utf8)
                .sum();
            let suffix: usize = if prefix == text.len() {
                prefix
            } else {
                text.chars()
                    .rev()
                    .take_while(|&c| is_strip_ws(c))
                    .map(char::len_utf8)
                    .sum()
            };
            (prefix, prefix == text.len(), suffix)
        };
        if last != NONE && self.nodes[last as usize].is_text() {
            self.nodes[last as usize].value.to_mut().push_str(&text);
        } else {
            let id = self.nodes.len() as u32;
            self.nodes.push(NodeData::text(text));
            self.link(id);
            self.top_info.push(TopText {
                lead: 0,
                all: true,
                trail: 0,
            });
        }
        let Some(info) = self.top_info.last_mut() else {
            return;
        };
        if reference {
            info.all = false;
            info.trail = 0;
        } else if all_ws {
            if info.all {
                info.lead += ws_prefix;
            }
            info.trail += ws_prefix;
        } else {
            if info.all {
                info.lead += ws_prefix;
                info.all = false;
            }
            info.trail = ws_suffix;
        }
    }

    /// Closes what is open, strips whitespace, wraps, and returns the tree and the diagnostics
    /// this builder found. `end` is the input length (where a `no-root-element` diagnostic
    /// points).
    pub fn finish(mut self, end: usize) -> (Document<'a>, Vec<Diagnostic>) {
        if self.tag.is_some() {
            // Only reachable if the token stream was cut inside a start-tag.
            self.start_tag_close();
        }
        if let Some(o) = self.stack.first() {
            let span = o.span;
            self.diagnostics
                .push(Diagnostic::new(ErrorCode::UnclosedElement, span));
        }
        self.stack.clear();
        // Whitespace stripping: only the first and the last top-level node can be touched.
        let n = self.top.len();
        if n > 0 {
            let last = &mut self.nodes[self.top[n - 1] as usize];
            if last.is_text() {
                let len = last.value.len();
                let trail = self.top_info[n - 1].trail.min(len);
                slice_cow(&mut last.value, 0, len - trail);
            }
            let first = &mut self.nodes[self.top[0] as usize];
            if first.is_text() {
                let len = first.value.len();
                let lead = self.top_info[0].lead.min(len);
                slice_cow(&mut first.value, lead, len);
            }
            let nodes = &self.nodes;
            self.top.retain(|&id| {
                !(nodes[id as usize].is_text() && nodes[id as usize].value.is_empty())
            });
            // Relink the top level.
            self.nodes[0].first_child = self.top.first().copied().unwrap_or(NONE);
            for w in self.top.windows(2) {
                self.nodes[w[0] as usize].next_sibling = w[1];
            }
            if let Some(&l) = self.top.last() {
                self.nodes[l as usize].next_sibling = NONE;
            }
        }
        if self.top_elements == 0 {
            self.diagnostics
                .push(Diagnostic::new(ErrorCode::NoRootElement, Span::empty(end)));
        }
        let root = match self.top[..] {
            [id] if !self.nodes[id as usize].is_text() => id,
            _ => 0,
        };
        (
            Document {
                nodes: self.nodes,
                attributes: self.attributes,
                root,
            },
            self.diagnostics,
        )
    }
}

/// The streaming parser: tokenizer and tree builder. The tree owns its strings, since the
/// chunks it was built from are gone; [`crate::parse_with`] builds a tree borrowing from the
/// input instead.
#[derive(Debug, Default)]
pub struct Parser {
    tokenizer: Tokenizer,
    builder: TreeBuilder<'static>,
    len: usize,
}

impl Parser {
    /// A parser with `options`.
    pub fn new(options: Options) -> Parser {
        Parser {
            tokenizer: Tokenizer::new(options),
            builder: TreeBuilder::new(),
            len: 0,
        }
    }

    /// Parses one more chunk.
    pub fn feed(&mut self, chunk: &str) {
        self.len += chunk.len();
        self.tokenizer.feed(chunk);
        self.drain();
    }

    fn drain(&mut self) {
        while let Some(t) = self.tokenizer.next_token() {
            self.builder.push(t.into_owned());
        }
    }

    /// Ends the input and returns the tree with every diagnostic, sorted by position.
    pub fn finish(mut self) -> Parsed<'static> {
        self.tokenizer.finish();
        self.drain();
        let diagnostics = self.tokenizer.take_diagnostics();
        finish(self.builder, diagnostics, self.len)
    }
}

/// The tree and the diagnostics of tokenizer and builder, sorted by position.
pub(crate) fn finish<'a>(
    builder: TreeBuilder<'a>,
    mut diagnostics: Vec<Diagnostic>,
    len: usize,
) -> Parsed<'a> {
    let (document, more) = builder.finish(len);
    diagnostics.extend(more);
    diagnostics.sort_by_key(|d| (d.span.start, d.span.end, d.code));
    Parsed {
        document,
        diagnostics,
    }
}

/// Reserves room for `n` more items as a guess from the input, at most sixteen bytes of room per
/// input byte, and not at all when the allocator refuses: the guess counts every `<` or `=`,
/// so input made of them must not turn it into a huge allocation or an allocation failure.
fn reserve_guess<T>(v: &mut Vec<T>, n: usize, input_len: usize) {
    let cap = input_len.saturating_mul(16) / size_of::<T>().max(1);
    let _ = v.try_reserve(n.min(cap));
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// Tag matching past the depth where open names are hashed: the same diagnostics as
        /// comparing every open element, from the innermost.
        #[test]
        fn deep_tag_matching_agrees_with_comparing_all(
            events in prop::collection::vec((any::<bool>(), 0usize..5), 0..400),
            deep in 0usize..3,
        ) {
            let names = ["a", "b", "c", "d", "e"];
            let mut builder = TreeBuilder::new();
            let mut model: Vec<&str> = Vec::new();
            let mut expected = Vec::new();
            // Start deep (past SCANNED) for some cases, so both halves of the stack are used.
            let opens = (0..deep * 50).map(|i| (true, i % 3));
            for (at, (open, n)) in opens.chain(events).enumerate() {
                let name = names[n];
                let span = Span::new(at, at + 1);
                if open {
                    builder.start_tag_open(Cow::Borrowed(name), span);
                    builder.start_tag_close();
                    model.push(name);
                    continue;
                }
                builder.end_tag(name, span);
                match model.iter().rposition(|&m| m == name) {
                    Some(i) if i + 1 == model.len() => {
                        model.pop();
                    }
                    Some(i) => {
                        expected.push(Diagnostic::new(ErrorCode::MismatchedEndTag, span));
                        model.truncate(i);
                    }
                    None => expected.push(Diagnostic::new(ErrorCode::StrayEndTag, span)),
                }
            }
            prop_assert_eq!(builder.stack.len(), model.len());
            let got: Vec<Diagnostic> = builder
                .diagnostics
                .iter()
                .filter(|d| matches!(d.code, ErrorCode::MismatchedEndTag | ErrorCode::StrayEndTag))
                .copied()
                .collect();
            prop_assert_eq!(got, expected);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2048))]

        /// The filter and the hashes give the answer of comparing every name, also past the
        /// linear limit.
        #[test]
        fn seen_attributes_agree_with_comparing_all(
            names in prop::collection::vec("[a-c]{1,3}|x[0-9]{1,2}", 0..60),
        ) {
            let mut seen = SeenAttributes::default();
            let mut attributes: Vec<(Cow<'_, str>, Cow<'_, str>)> = Vec::new();
            for name in &names {
                let expected = attributes.iter().any(|a| a.0 == name.as_str());
                prop_assert_eq!(seen.contains(&attributes, name), expected, "{}", name);
                if !expected {
                    attributes.push((Cow::Borrowed(name), Cow::Borrowed("")));
                }
            }
            seen.clear();
            prop_assert!(!seen.contains(&[], "a"));
        }
    }
}
