//! Tree building: abstract tokens to an [`Element`] tree, and the streaming [`Parser`].

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};

use thicket_input::Span;

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
pub struct Parsed {
    /// The document element (or the `#doc` wrapper).
    pub root: Element,
    /// Where the input is not valid MicroXML; empty for a valid document.
    pub diagnostics: Vec<Diagnostic>,
}

impl Parsed {
    /// True when the input is valid MicroXML.
    pub fn is_valid(&self) -> bool {
        self.diagnostics.is_empty()
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

/// Builds the tree from abstract tokens: duplicate attributes, tag matching, end-of-input
/// closing, whitespace stripping and the `#doc` wrapper.
#[derive(Debug, Default)]
pub struct TreeBuilder {
    /// Open elements with the span of their start-tag and where their children start in
    /// `nodes`.
    stack: Vec<(Element, Span, usize)>,
    /// The children of every open element, innermost last: an element's children are moved
    /// into a vector of exactly their number when it closes (no growing per element).
    nodes: Vec<Node>,
    /// Hash of an open element's name to how many open elements have it.
    open_names: HashMap<u64, u32, BuildHasherDefault<IdentityHasher>>,
    /// Top-level nodes.
    top: Vec<Node>,
    /// Whitespace bookkeeping, parallel to `top` (unused for elements).
    top_info: Vec<TopText>,
    /// The start-tag being built, its span, and whether the current attribute is ignored.
    tag: Option<(Element, Span)>,
    /// The attributes of the start-tag being built.
    attributes: Vec<Attribute>,
    ignore_attribute: bool,
    /// Hashes of the current start-tag's attribute names, kept once it has many (so duplicate
    /// checks stay linear overall).
    attribute_hashes: HashSet<u64, BuildHasherDefault<IdentityHasher>>,
    top_elements: usize,
    diagnostics: Vec<Diagnostic>,
}

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

/// Whether `attributes` already has one called `name`; keeps `hashes` in step with
/// `attributes` once there are more than a few.
fn has_attribute(
    attributes: &[Attribute],
    name: &str,
    hashes: &mut HashSet<u64, BuildHasherDefault<IdentityHasher>>,
) -> bool {
    const LINEAR: usize = 16;
    let n = attributes.len();
    if n < LINEAR {
        return attributes.iter().any(|a| a.name == name);
    }
    if hashes.is_empty() {
        hashes.extend(attributes.iter().map(|a| name_hash(&a.name)));
    }
    let h = name_hash(name);
    if hashes.contains(&h) {
        // Confirm (hash collisions are possible).
        if attributes.iter().any(|a| a.name == name) {
            return true;
        }
    }
    hashes.insert(h);
    false
}

impl TreeBuilder {
    /// An empty builder.
    pub fn new() -> TreeBuilder {
        TreeBuilder::default()
    }

    /// Processes one token.
    pub fn push(&mut self, token: Token<'_>) {
        match token {
            Token::StartTagOpen { name, span } => {
                self.tag = Some((Element::new(name.into_owned()), span));
                self.ignore_attribute = false;
                self.attribute_hashes.clear();
            }
            Token::AttributeName { name, span } => {
                if self.tag.is_some() {
                    if has_attribute(&self.attributes, &name, &mut self.attribute_hashes) {
                        self.ignore_attribute = true;
                        self.diagnostics
                            .push(Diagnostic::new(ErrorCode::DuplicateAttribute, span));
                    } else {
                        self.ignore_attribute = false;
                        self.attributes.push(Attribute {
                            name: name.into_owned(),
                            value: String::new(),
                        });
                    }
                }
            }
            Token::StartTagClose { .. } => {
                if let Some((e, span)) = self.take_tag() {
                    *self.open_names.entry(name_hash(&e.name)).or_insert(0) += 1;
                    self.stack.push((e, span, self.nodes.len()));
                }
            }
            Token::EmptyElementTagClose { .. } => {
                if let Some((e, span)) = self.take_tag() {
                    self.append_element(e, span);
                }
            }
            Token::EndTag { name, span } => self.end_tag(&name, span),
            Token::Data { text, span } => self.text(&text, span, false),
            Token::CharRef { text, span } => self.text(&text, span, true),
        }
    }

    fn end_tag(&mut self, name: &str, span: Span) {
        if self.stack.last().is_some_and(|(e, _, _)| e.name == name) {
            self.pop();
            return;
        }
        let open = self
            .open_names
            .get(&name_hash(name))
            .is_some_and(|&n| n > 0)
            && self.stack.iter().rev().any(|(e, _, _)| e.name == name);
        if !open {
            self.diagnostics
                .push(Diagnostic::new(ErrorCode::StrayEndTag, span));
            return;
        }
        self.diagnostics
            .push(Diagnostic::new(ErrorCode::MismatchedEndTag, span));
        while let Some((e, _, _)) = self.stack.last() {
            let done = e.name == name;
            self.pop();
            if done {
                break;
            }
        }
    }

    /// Closes the current element.
    fn pop(&mut self) {
        if let Some((mut e, span, start)) = self.stack.pop() {
            if start < self.nodes.len() {
                e.children = self.nodes.drain(start..).collect();
            }
            if let Some(n) = self.open_names.get_mut(&name_hash(&e.name)) {
                *n = n.saturating_sub(1);
            }
            self.append_element(e, span);
        }
    }

    fn append_element(&mut self, e: Element, span: Span) {
        match self.stack.last() {
            Some(_) => self.nodes.push(Node::Element(e)),
            None => {
                self.top_elements += 1;
                if self.top_elements == 2 {
                    self.diagnostics
                        .push(Diagnostic::new(ErrorCode::MultipleRootElements, span));
                }
                self.top.push(Node::Element(e));
                self.top_info.push(TopText::default());
            }
        }
    }

    /// The start-tag being built, with its attributes moved into a vector of exactly their
    /// number.
    fn take_tag(&mut self) -> Option<(Element, Span)> {
        let (mut e, span) = self.tag.take()?;
        if !self.attributes.is_empty() {
            e.attributes = self.attributes.drain(..).collect();
        }
        Some((e, span))
    }

    fn text(&mut self, text: &str, span: Span, reference: bool) {
        if self.tag.is_some() {
            if !self.ignore_attribute
                && let Some(a) = self.attributes.last_mut()
            {
                if a.value.is_empty() {
                    a.value = text.to_owned();
                } else {
                    a.value.push_str(text);
                }
            }
            return;
        }
        if let Some(&(_, _, start)) = self.stack.last() {
            let len = self.nodes.len();
            match self.nodes.last_mut() {
                Some(Node::Text(t)) if len > start => t.push_str(text),
                _ => self.nodes.push(Node::Text(text.to_owned())),
            }
            return;
        }
        // Top level.
        if reference || text.chars().any(|c| !validity::is_s(c)) {
            self.diagnostics
                .push(Diagnostic::new(ErrorCode::TextOutsideRoot, span));
        }
        match self.top.last_mut() {
            Some(Node::Text(t)) => t.push_str(text),
            _ => {
                self.top.push(Node::Text(text.to_owned()));
                self.top_info.push(TopText {
                    lead: 0,
                    all: true,
                    trail: 0,
                });
            }
        }
        let Some(info) = self.top_info.last_mut() else {
            return;
        };
        if reference {
            info.all = false;
            info.trail = 0;
            return;
        }
        let ws_prefix: usize = text
            .chars()
            .take_while(|&c| is_strip_ws(c))
            .map(char::len_utf8)
            .sum();
        if ws_prefix == text.len() {
            if info.all {
                info.lead += text.len();
            }
            info.trail += text.len();
        } else {
            if info.all {
                info.lead += ws_prefix;
                info.all = false;
            }
            info.trail = text
                .chars()
                .rev()
                .take_while(|&c| is_strip_ws(c))
                .map(char::len_utf8)
                .sum();
        }
    }

    /// Closes what is open, strips whitespace, wraps, and returns the tree and the diagnostics
    /// this builder found. `end` is the input length (where a `no-root-element` diagnostic
    /// points).
    pub fn finish(mut self, end: usize) -> (Element, Vec<Diagnostic>) {
        if let Some((e, span)) = self.take_tag() {
            // Only reachable if the token stream was cut inside a start-tag.
            self.stack.push((e, span, self.nodes.len()));
        }
        if let Some((_, span, _)) = self.stack.first() {
            let span = *span;
            self.diagnostics
                .push(Diagnostic::new(ErrorCode::UnclosedElement, span));
        }
        while !self.stack.is_empty() {
            self.pop();
        }
        // Whitespace stripping: only the first and the last top-level node can be touched.
        let n = self.top.len();
        if n > 0 {
            if let Node::Text(t) = &mut self.top[n - 1] {
                let trail = self.top_info[n - 1].trail.min(t.len());
                t.truncate(t.len() - trail);
            }
            if let Node::Text(t) = &mut self.top[0] {
                let lead = self.top_info[0].lead.min(t.len());
                t.drain(..lead);
            }
            self.top
                .retain(|node| !matches!(node, Node::Text(t) if t.is_empty()));
        }
        if self.top_elements == 0 {
            self.diagnostics
                .push(Diagnostic::new(ErrorCode::NoRootElement, Span::empty(end)));
        }
        let root = match self.top.pop() {
            Some(Node::Element(e)) if self.top.is_empty() => e,
            last => {
                let mut doc = Element::new(DOC_WRAPPER);
                doc.children = std::mem::take(&mut self.top);
                doc.children.extend(last);
                doc
            }
        };
        (root, self.diagnostics)
    }
}

/// The streaming parser: tokenizer and tree builder.
#[derive(Debug, Default)]
pub struct Parser {
    tokenizer: Tokenizer,
    builder: TreeBuilder,
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
            self.builder.push(t);
        }
    }

    /// Ends the input and returns the tree with every diagnostic, sorted by position.
    pub fn finish(mut self) -> Parsed {
        self.tokenizer.finish();
        self.drain();
        let mut diagnostics = self.tokenizer.take_diagnostics();
        let (root, more) = self.builder.finish(self.len);
        diagnostics.extend(more);
        diagnostics.sort_by_key(|d| (d.span.start, d.span.end, d.code));
        Parsed { root, diagnostics }
    }
}
