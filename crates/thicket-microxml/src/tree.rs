//! Tree building: abstract tokens to a [`Document`] (the spec's tree-building rules: duplicate
//! attributes, tag matching, end-of-input closing, whitespace stripping, the `#doc` wrapper).

use thicket_input::{Diagnostics, Span};

use crate::document::{
    AttributeData, Document, MAX_DOCUMENT_LEN, MAX_TEXT_LEN, NONE, NodeData, Span32, Str, n32,
    resolve, resolve_bytes,
};
use crate::error::{Diagnostic, ErrorCode};
use crate::names::{DeepNames, SCANNED, SeenAttributes, same};
use crate::options::Options;
use crate::parser::Parsed;
use crate::token::Token;

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

/// An open element: its node, the span of its start-tag, its last child so far.
#[derive(Clone, Copy, Debug)]
struct Open {
    id: u32,
    span: Span,
    last: u32,
}

/// The start-tag being read.
#[derive(Clone, Copy, Debug)]
struct Tag {
    name: Str,
    /// `<name`.
    span: Span,
    /// Past the depth limit: it opens nothing.
    skipped: bool,
}

/// Characters handed to the tree builder.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Chars<'t> {
    /// `start..end` of the builder's source (the whole input).
    Source(usize, usize),
    /// Characters to copy into the document's own text.
    Copy(&'t str),
}

impl<'t> Chars<'t> {
    /// The first `len` bytes (a character boundary).
    #[inline]
    pub(crate) fn prefix(self, len: usize) -> Chars<'t> {
        match self {
            Chars::Source(a, b) => Chars::Source(a, (a + len).min(b)),
            Chars::Copy(s) => Chars::Copy(s.get(..len).unwrap_or(s)),
        }
    }
}

/// The characters of `c`.
#[inline]
fn chars_of<'s>(source: &'s str, c: Chars<'s>) -> &'s str {
    match c {
        Chars::Source(a, b) => source.get(a..b).unwrap_or(""),
        Chars::Copy(s) => s,
    }
}

/// Builds the tree from abstract tokens: duplicate attributes, tag matching, end-of-input
/// closing, whitespace stripping and the `#doc` wrapper, with the depth limit
/// (`Limits::max_depth`) and the diagnostics cap of its options. The tree is a [`Document`];
/// tokens pushed with [`TreeBuilder::push`] have their strings copied into it.
#[derive(Debug)]
pub struct TreeBuilder<'a> {
    /// The input the strings of [`Chars::Source`] are ranges of.
    source: &'a str,
    /// The document's own text (`#doc` first).
    text: String,
    /// The arena; node 0 is the `#doc` wrapper.
    nodes: Vec<NodeData>,
    /// Every element's attributes, each element's contiguous.
    attributes: Vec<AttributeData>,
    /// Open elements, innermost last.
    stack: Vec<Open>,
    /// The last top-level node.
    top_last: u32,
    /// The names of the open elements past the first `SCANNED`.
    deep: DeepNames,
    /// Top-level nodes.
    top: Vec<u32>,
    /// Whitespace bookkeeping, parallel to `top` (unused for elements).
    top_info: Vec<TopText>,
    /// The start-tag being built.
    tag: Option<Tag>,
    /// Where the attributes of the start-tag being built start in `attributes`.
    tag_attributes: usize,
    /// Whether the current attribute is a duplicate (its value is ignored).
    ignore_attribute: bool,
    /// Whether the current attribute's value has characters yet.
    value_started: bool,
    /// The current start-tag's attribute names, for duplicate checks.
    seen: SeenAttributes,
    top_elements: usize,
    /// `Limits::max_depth`, `usize::MAX` for none.
    max_depth: usize,
    /// Start-tags not opened for the depth limit whose end-tag has not come yet.
    unopened: usize,
    pub(crate) cap: Option<usize>,
    diagnostics: Diagnostics<ErrorCode>,
    /// Whether the tree is kept; without it only what the diagnostics need is (the names of
    /// the open elements and of the current tag's attributes).
    tree: bool,
    /// Input past what a document holds was left out (`document-too-large`).
    too_large: bool,
    /// The top-level text run read so far and not yet reported: its `Data` tokens may come in
    /// pieces (a streaming tokenizer hands out what is certain), and it is one
    /// `text-outside-root` diagnostic however it was cut.
    outside: Option<OutsideText>,
}

/// A top-level text run not yet reported.
#[derive(Clone, Copy, Debug)]
struct OutsideText {
    span: Span,
    /// Whether a character of it is not MicroXML `s`.
    text: bool,
}

impl Default for TreeBuilder<'_> {
    fn default() -> Self {
        TreeBuilder::new()
    }
}

impl<'a> TreeBuilder<'a> {
    /// An empty builder with the default options (no limits).
    pub fn new() -> TreeBuilder<'a> {
        TreeBuilder::with_options(&Options::default())
    }

    /// An empty builder applying `options.limits` (`max_depth`, `max_diagnostics`).
    pub fn with_options(options: &Options) -> TreeBuilder<'a> {
        TreeBuilder::over("", options)
    }

    fn over(source: &'a str, options: &Options) -> TreeBuilder<'a> {
        let mut text = String::new();
        text.push_str(crate::element::DOC_WRAPPER);
        let name = Str::new(source.len(), text.len());
        TreeBuilder {
            source,
            text,
            nodes: vec![NodeData::element(name, (0, 0), Span::empty(0))],
            attributes: Vec::new(),
            stack: Vec::new(),
            top_last: NONE,
            deep: DeepNames::default(),
            top: Vec::new(),
            top_info: Vec::new(),
            tag: None,
            tag_attributes: 0,
            ignore_attribute: false,
            value_started: false,
            seen: SeenAttributes::default(),
            top_elements: 0,
            max_depth: options.limits.max_depth.unwrap_or(usize::MAX),
            unopened: 0,
            cap: options.limits.max_diagnostics,
            diagnostics: Diagnostics::new(options.limits.max_diagnostics),
            tree: true,
            too_large: false,
            outside: None,
        }
    }

    /// Input past [`MAX_DOCUMENT_LEN`] was left out: reported at the end.
    #[cold]
    pub(crate) fn too_large(&mut self) {
        self.too_large = true;
    }

    /// A builder that keeps no tree, only the diagnostics (see [`crate::Checker`]): its memory
    /// is the open elements and their names, and the current start-tag's attribute names.
    pub(crate) fn without_tree(options: &Options) -> TreeBuilder<'a> {
        let mut b = TreeBuilder::over("", options);
        b.tree = false;
        b
    }

    /// Takes the diagnostics found so far (in source order; those raised at the end of the
    /// input come from [`TreeBuilder::finish`]).
    pub(crate) fn take_diagnostics(&mut self) -> Vec<Diagnostic> {
        self.diagnostics.take()
    }

    /// How many diagnostics were counted and not kept so far.
    pub(crate) fn omitted_diagnostics(&self) -> usize {
        self.diagnostics.omitted()
    }

    /// An empty builder over `input`, with room for its tree: at most one element per `<` and
    /// one text node before and after each (growing the vectors would copy them).
    pub(crate) fn for_input(input: &'a str, options: &Options) -> TreeBuilder<'a> {
        let mut b = TreeBuilder::over(input, options);
        let tags = memchr::memchr_iter(b'<', input.as_bytes()).count();
        reserve_guess(&mut b.nodes, 2 * tags + 1, input.len());
        reserve_guess(&mut b.attributes, input.len() / 32, input.len());
        b.stack.reserve(32);
        b
    }

    /// Processes one token (its strings are copied into the document). Consecutive `Data`
    /// tokens (the pieces a streaming [`crate::Tokenizer`] hands out) are one run of text: at
    /// the top level, one `text-outside-root` diagnostic spans the run.
    pub fn push(&mut self, token: Token<'_>) {
        self.push_ref(&token);
    }

    /// [`TreeBuilder::push`] for a token still borrowed.
    pub(crate) fn push_ref(&mut self, token: &Token<'_>) {
        if self.tree && token.span().end > MAX_DOCUMENT_LEN {
            // The document's offsets are `u32`.
            self.too_large();
            return;
        }
        match *token {
            Token::StartTagOpen { ref name, span } => self.start_tag_open(Chars::Copy(name), span),
            Token::AttributeName { ref name, span } => {
                let name_span = Span::new(span.start, span.start + name.len());
                self.attribute_name(Chars::Copy(name), name_span, span);
            }
            Token::StartTagClose { span } => self.start_tag_close(span),
            Token::EmptyElementTagClose { span } => self.empty_element_tag_close(span),
            Token::EndTag { ref name, span } => self.end_tag(name.as_bytes(), span),
            Token::Data { ref text, span } => self.text(Chars::Copy(text), span, false),
            Token::CharRef { ref text, span } => self.text(Chars::Copy(text), span, true),
            // The spec emits nothing for them (`Options::markup_tokens` only shows them).
            Token::Comment { .. }
            | Token::ProcessingInstruction { .. }
            | Token::Doctype { .. }
            | Token::Discarded { .. } => {}
        }
    }

    /// `c` as a string of the document.
    #[inline]
    fn store(&mut self, c: Chars<'_>) -> Str {
        match c {
            Chars::Source(a, b) => Str::new(a, b - a),
            Chars::Copy(s) => {
                if self.text.len() + s.len() > MAX_TEXT_LEN {
                    self.too_large();
                    return Str::default();
                }
                let start = self.source.len() + self.text.len();
                self.text.push_str(s);
                Str::new(start, s.len())
            }
        }
    }

    /// `s` followed by `c`, as a string of the document (`s` grows in place when it is the
    /// input just before `c`, or the end of the document's text).
    fn append(&mut self, s: Str, c: Chars<'_>) -> Str {
        let src = self.source.len();
        if s.len == 0 {
            return self.store(c);
        }
        if let Chars::Source(a, b) = c
            && s.end() == a
            && a <= src
        {
            return Str::new(s.start as usize, b - s.start as usize);
        }
        let more = chars_of(self.source, c);
        if self.text.len() + s.len as usize + more.len() > MAX_TEXT_LEN {
            self.too_large();
            return s;
        }
        if s.start as usize >= src && s.end() == src + self.text.len() {
            self.text.push_str(more);
            return Str::new(s.start as usize, s.len as usize + more.len());
        }
        let start = src + self.text.len();
        if s.start as usize >= src {
            let from = s.start as usize - src;
            self.text.extend_from_within(from..from + s.len as usize);
        } else {
            let old = resolve(self.source, "", s);
            self.text.push_str(old);
        }
        self.text.push_str(more);
        Str::new(start, src + self.text.len() - start)
    }

    /// The name of element `id`, as bytes (to compare).
    #[inline]
    fn name(&self, id: u32) -> &[u8] {
        resolve_bytes(self.source, &self.text, self.nodes[id as usize].value)
    }

    #[inline]
    pub(crate) fn start_tag_open(&mut self, name: Chars<'_>, span: Span) {
        if self.outside.is_some() {
            self.close_outside();
        }
        if self.tag.is_some() {
            // Only for token streams that open a tag inside another.
            self.start_tag_close(Span::empty(span.start));
        }
        self.tag_attributes = self.attributes.len();
        self.ignore_attribute = false;
        self.value_started = false;
        self.seen.clear();
        if self.stack.len() >= self.max_depth {
            self.limit(ErrorCode::DepthLimit, span);
            self.tag = Some(Tag {
                name: Str::default(),
                span,
                skipped: true,
            });
            return;
        }
        if self.stack.is_empty() {
            self.top_elements += 1;
            if self.top_elements == 2 {
                self.diagnostics
                    .push(Diagnostic::new(ErrorCode::MultipleRootElements, span));
            }
        }
        let name = self.store(name);
        self.tag = Some(Tag {
            name,
            span,
            skipped: false,
        });
    }

    #[cold]
    fn limit(&mut self, code: ErrorCode, span: Span) {
        self.diagnostics.push(Diagnostic::new(code, span));
    }

    /// An attribute name: `name_span` is the name in the input, `span` the token's.
    #[inline]
    pub(crate) fn attribute_name(&mut self, name: Chars<'_>, name_span: Span, span: Span) {
        let Some(tag) = &self.tag else {
            return;
        };
        self.value_started = false;
        if tag.skipped {
            self.ignore_attribute = true;
            return;
        }
        let (source, text) = (self.source, &self.text);
        let attrs = &self.attributes[self.tag_attributes..];
        let n = chars_of(source, name).as_bytes();
        if self.seen.contains(
            attrs.len(),
            |i| resolve_bytes(source, text, attrs[i].name),
            n,
        ) {
            self.ignore_attribute = true;
            self.diagnostics
                .push(Diagnostic::new(ErrorCode::DuplicateAttribute, span));
            return;
        }
        self.ignore_attribute = false;
        let name = self.store(name);
        self.attributes.push(AttributeData {
            name,
            value: Str::default(),
            name_span: Span32::new(name_span),
            value_span: Span32::new(Span::empty(span.end)),
        });
    }

    /// Characters of the current attribute's value, from `span` of the input.
    #[inline]
    pub(crate) fn attribute_value(&mut self, c: Chars<'_>, span: Span) {
        if self.ignore_attribute || self.attributes.len() == self.tag_attributes || !self.tree {
            return;
        }
        let started = self.value_started;
        self.value_started = true;
        let Some(&last) = self.attributes.last() else {
            return;
        };
        let (value, value_span) = if started {
            let mut s = last.value_span;
            s.end = n32(span.end);
            (self.append(last.value, c), s)
        } else {
            (self.store(c), Span32::new(span))
        };
        if let Some(a) = self.attributes.last_mut() {
            a.value = value;
            a.value_span = value_span;
        }
    }

    /// The current attribute's value has no characters; they would be at `pos`.
    pub(crate) fn empty_value(&mut self, pos: usize) {
        if self.ignore_attribute
            || self.value_started
            || self.attributes.len() == self.tag_attributes
        {
            return;
        }
        if let Some(a) = self.attributes.last_mut() {
            a.value_span = Span32::new(Span::empty(pos));
        }
    }

    #[inline]
    pub(crate) fn start_tag_close(&mut self, span: Span) {
        let Some(tag) = self.tag.take() else {
            return;
        };
        if tag.skipped {
            self.unopened += 1;
            return;
        }
        let id = self.add_element(&tag, span.end);
        if !self.tree {
            self.forget_attributes(&tag);
        }
        if self.stack.len() >= SCANNED {
            self.deep
                .open(resolve_bytes(self.source, &self.text, tag.name));
        }
        self.stack.push(Open {
            id,
            span: tag.span,
            last: NONE,
        });
    }

    #[inline]
    pub(crate) fn empty_element_tag_close(&mut self, span: Span) {
        if let Some(tag) = self.tag.take()
            && !tag.skipped
        {
            if self.tree {
                self.add_element(&tag, span.end);
            } else {
                self.forget_attributes(&tag);
                self.forget_name(tag.name);
            }
        }
    }

    /// Without a tree: the attribute names of `tag` are no longer needed.
    fn forget_attributes(&mut self, tag: &Tag) {
        self.attributes.truncate(self.tag_attributes);
        self.forget_name(Str::new(tag.name.end(), 0));
    }

    /// Without a tree: the document's text from `name` on is no longer needed.
    fn forget_name(&mut self, name: Str) {
        let src = self.source.len();
        if name.start as usize >= src {
            self.text.truncate(name.start as usize - src);
        }
    }

    /// The element of `tag`, its span running to `end` for now, linked into the tree.
    #[inline]
    fn add_element(&mut self, tag: &Tag, end: usize) -> u32 {
        let id = self.nodes.len() as u32;
        let range = (n32(self.tag_attributes), n32(self.attributes.len()));
        self.nodes.push(NodeData::element(
            tag.name,
            range,
            Span::new(tag.span.start, end),
        ));
        if !self.tree {
            return id;
        }
        let top = self.stack.is_empty();
        self.link(id);
        if top {
            self.top_info.push(TopText::default());
        }
        id
    }

    #[inline]
    pub(crate) fn end_tag_chars(&mut self, name: Chars<'_>, span: Span) {
        let source = self.source;
        self.end_tag(chars_of(source, name).as_bytes(), span);
    }

    #[inline]
    pub(crate) fn end_tag(&mut self, name: &[u8], span: Span) {
        if self.outside.is_some() {
            self.close_outside();
        }
        if self.unopened > 0 {
            // The end of a start-tag the depth limit did not open.
            self.unopened -= 1;
            return;
        }
        if self
            .stack
            .last()
            .is_some_and(|o| same(self.name(o.id), name))
        {
            self.pop(span.end);
            return;
        }
        self.end_tag_slow(name, span);
    }

    fn end_tag_slow(&mut self, name: &[u8], span: Span) {
        let scanned = self.stack.len().min(SCANNED);
        let (source, text, nodes) = (self.source, &self.text, &self.nodes);
        let name_of = |id: u32| resolve_bytes(source, text, nodes[id as usize].value);
        let open = self.stack[..scanned]
            .iter()
            .any(|o| same(name_of(o.id), name))
            || self.deep.may_be_open(name)
                && self.stack[scanned..]
                    .iter()
                    .rev()
                    .any(|o| same(name_of(o.id), name));
        if !open {
            self.diagnostics
                .push(Diagnostic::new(ErrorCode::StrayEndTag, span));
            return;
        }
        self.diagnostics
            .push(Diagnostic::new(ErrorCode::MismatchedEndTag, span));
        while let Some(o) = self.stack.last() {
            let done = same(self.name(o.id), name);
            // Elements closed along the way end where the end-tag starts.
            self.pop(if done { span.end } else { span.start });
            if done {
                break;
            }
        }
    }

    /// Closes the current element, whose markup ends at `end`.
    #[inline]
    fn pop(&mut self, end: usize) {
        if let Some(o) = self.stack.pop() {
            self.nodes[o.id as usize].span.end = n32(end);
            if self.stack.len() >= SCANNED {
                let name = resolve_bytes(self.source, &self.text, self.nodes[o.id as usize].value);
                self.deep.close(name);
            }
            if !self.tree {
                let name = self.nodes[o.id as usize].value;
                self.nodes.truncate(o.id as usize);
                self.forget_name(name);
            }
        }
    }

    /// Adds node `id` as the last child of the current element (or at the top level).
    #[inline(always)]
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

    #[inline]
    pub(crate) fn text(&mut self, c: Chars<'_>, span: Span, reference: bool) {
        if self.tag.is_some() {
            self.attribute_value(c, span);
            return;
        }
        if !self.tree {
            if self.stack.is_empty() {
                self.top_text(c, span, reference);
            }
            return;
        }
        if let Some(o) = self.stack.last() {
            let last = o.last;
            if last != NONE && self.nodes[last as usize].is_text() {
                let value = self.append(self.nodes[last as usize].value, c);
                let n = &mut self.nodes[last as usize];
                n.value = value;
                n.span.end = n32(span.end);
            } else {
                let id = self.nodes.len() as u32;
                let value = self.store(c);
                self.nodes.push(NodeData::text(value, span));
                self.link(id);
            }
            return;
        }
        self.top_text(c, span, reference);
    }

    fn top_text(&mut self, c: Chars<'_>, span: Span, reference: bool) {
        let text = chars_of(self.source, c);
        if reference {
            self.close_outside();
            self.diagnostics
                .push(Diagnostic::new(ErrorCode::TextOutsideRoot, span));
        } else {
            let chars = text.chars().any(|c| !thicket_names::microxml2012::is_s(c));
            match &mut self.outside {
                // The next piece of the run.
                Some(run) => {
                    run.span.end = span.end;
                    run.text |= chars;
                }
                None => self.outside = Some(OutsideText { span, text: chars }),
            }
        }
        if !self.tree {
            return;
        }
        let last = self.top_last;
        let (ws_prefix, all_ws, ws_suffix) = if reference {
            (0, false, 0)
        } else {
            let prefix: usize = text
                .chars()
                .take_while(|&c| thicket_names::microxml::is_s(c))
                .map(char::len_utf8)
                .sum();
            let suffix: usize = if prefix == text.len() {
                prefix
            } else {
                text.chars()
                    .rev()
                    .take_while(|&c| thicket_names::microxml::is_s(c))
                    .map(char::len_utf8)
                    .sum()
            };
            (prefix, prefix == text.len(), suffix)
        };
        if last != NONE && self.nodes[last as usize].is_text() {
            let value = self.append(self.nodes[last as usize].value, c);
            let n = &mut self.nodes[last as usize];
            n.value = value;
            n.span.end = n32(span.end);
        } else {
            let id = self.nodes.len() as u32;
            let value = self.store(c);
            self.nodes.push(NodeData::text(value, span));
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

    /// Closes what is open, strips whitespace, wraps, and returns the tree with the
    /// diagnostics of tree building (in source order, those raised at the end of the input
    /// last). `end` is the input length (where elements still open end, and where a
    /// `no-root-element` diagnostic points).
    pub fn finish(self, end: usize) -> Parsed<'a> {
        crate::parser::finish(self, (Vec::new(), 0), end)
    }

    /// The top-level text run ends (at a tag, a reference token or the end of the input): its
    /// diagnostic, with the span of the whole run.
    #[inline]
    fn close_outside(&mut self) {
        if let Some(run) = self.outside.take()
            && run.text
        {
            self.diagnostics
                .push(Diagnostic::new(ErrorCode::TextOutsideRoot, run.span));
        }
    }

    /// Where the top-level text run whose diagnostic is still to come starts, if one is open
    /// (diagnostics found after that point must wait for it).
    pub(crate) fn holding(&self) -> Option<usize> {
        self.outside.map(|run| run.span.start)
    }

    /// The diagnostics raised at the end of the input (`end`): an unclosed element, no
    /// document element. (A top-level text run still open is reported first, in the ordinary
    /// list.)
    pub(crate) fn end_diagnostics(&mut self, end: usize) -> Vec<Diagnostic> {
        self.close_outside();
        if self.tag.is_some() {
            // Only reachable if the token stream was cut inside a start-tag.
            self.start_tag_close(Span::empty(end));
        }
        let mut at_end = Vec::new();
        if let Some(o) = self.stack.first() {
            at_end.push(Diagnostic::new(ErrorCode::UnclosedElement, o.span));
        }
        if self.top_elements == 0 {
            at_end.push(Diagnostic::new(ErrorCode::NoRootElement, Span::empty(end)));
        }
        if self.too_large {
            at_end.push(Diagnostic::new(
                ErrorCode::DocumentTooLarge,
                Span::empty(end),
            ));
        }
        at_end
    }

    /// [`TreeBuilder::finish`] in parts: the tree, the diagnostics raised before the end of
    /// the input and those raised at it, and how many were omitted.
    pub(crate) fn finish_parts(
        mut self,
        end: usize,
    ) -> (Document<'a>, Vec<Diagnostic>, Vec<Diagnostic>, usize) {
        let at_end = self.end_diagnostics(end);
        for o in &self.stack {
            self.nodes[o.id as usize].span.end = n32(end);
        }
        self.stack.clear();
        // Whitespace stripping: only the first and the last top-level node can be touched.
        let n = self.top.len();
        if n > 0 {
            let last = &mut self.nodes[self.top[n - 1] as usize];
            if last.is_text() {
                let trail = self.top_info[n - 1].trail.min(last.value.len as usize);
                last.value.len -= n32(trail);
            }
            let first = &mut self.nodes[self.top[0] as usize];
            if first.is_text() {
                let lead = n32(self.top_info[0].lead.min(first.value.len as usize));
                first.value.start += lead;
                first.value.len -= lead;
            }
            let nodes = &self.nodes;
            self.top
                .retain(|&id| !(nodes[id as usize].is_text() && nodes[id as usize].value.len == 0));
            // Relink the top level.
            self.nodes[0].first_child = self.top.first().copied().unwrap_or(NONE);
            for w in self.top.windows(2) {
                self.nodes[w[0] as usize].next_sibling = w[1];
            }
            if let Some(&l) = self.top.last() {
                self.nodes[l as usize].next_sibling = NONE;
            }
        }
        // The wrapper is made once the input has ended.
        self.nodes[0].span = Span32::new(Span::empty(end));
        let root = match self.top[..] {
            [id] if !self.nodes[id as usize].is_text() => id,
            _ => 0,
        };
        let (diagnostics, omitted) = self.diagnostics.into_parts();
        let document = Document {
            source: self.source,
            text: self.text,
            nodes: self.nodes,
            attributes: self.attributes,
            root,
            parents: std::sync::OnceLock::new(),
        };
        (document, diagnostics, at_end, omitted)
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
    use crate::document::within_limit;
    use crate::names::COMPARISONS;
    use proptest::prelude::*;
    use std::borrow::Cow;

    /// Name comparisons made while parsing `text`.
    fn comparisons(text: &str) -> u64 {
        COMPARISONS.with(|c| c.set(0));
        let parsed = crate::parse(text);
        assert!(parsed.document.nodes.len() > 1);
        COMPARISONS.with(|c| c.get())
    }

    /// Checks that comparisons grow linearly: at most `per` per unit, and doubling the input
    /// at most (a little over) doubles them.
    fn linear(make: impl Fn(usize) -> String, per: u64) {
        let counts: Vec<(usize, u64)> = [2_000, 4_000, 8_000]
            .into_iter()
            .map(|n| (n, comparisons(&make(n))))
            .collect();
        for &(n, c) in &counts {
            assert!(c <= per * n as u64, "{c} comparisons for {n}");
        }
        for w in counts.windows(2) {
            assert!(w[1].1 <= w[0].1 * 21 / 10 + 100, "{counts:?}");
        }
    }

    /// Names that collide under every hash the builder computes without a key (the filter:
    /// length, first and last byte), distinct, then each repeated.
    fn colliding(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("a{i:07}z")).collect()
    }

    /// Without a tree, the builder holds the open elements' names and nothing else: memory per
    /// open element is a node, an `Open` and the name.
    #[test]
    fn without_a_tree_only_open_elements_are_held() {
        let mut b = TreeBuilder::without_tree(&Options::default());
        let n = 10_000;
        for i in 0..n {
            b.start_tag_open(Chars::Copy("abc"), Span::new(i, i + 4));
            b.attribute_name(Chars::Copy("x"), Span::new(i, i + 1), Span::new(i, i + 2));
            b.attribute_value(Chars::Copy("a long value"), Span::new(i, i + 1));
            b.start_tag_close(Span::new(i, i + 1));
            b.text(Chars::Copy("some text"), Span::new(i, i + 1), false);
            b.start_tag_open(Chars::Copy("empty"), Span::new(i, i + 4));
            b.empty_element_tag_close(Span::new(i, i + 1));
        }
        assert_eq!(b.nodes.len(), n + 1);
        assert_eq!(b.stack.len(), n);
        assert!(b.attributes.is_empty());
        assert_eq!(b.text.len(), "#doc".len() + 3 * n);
        for i in 0..n {
            b.end_tag(b"abc", Span::new(i, i + 1));
        }
        assert_eq!((b.nodes.len(), b.text.len()), (1, "#doc".len()));
        assert_eq!(size_of::<NodeData>() + size_of::<Open>(), 56);
    }

    #[test]
    fn input_past_what_a_document_holds_is_reported() {
        assert_eq!(within_limit("aé", 2), ("a", true));
        assert_eq!(within_limit("aé", 3), ("aé", false));
        let mut b = TreeBuilder::new();
        b.push(Token::StartTagOpen {
            name: Cow::Borrowed("a"),
            span: Span::new(0, 2),
        });
        b.push(Token::StartTagClose {
            span: Span::new(2, 3),
        });
        b.push(Token::Data {
            text: Cow::Borrowed("x"),
            span: Span::new(MAX_DOCUMENT_LEN, MAX_DOCUMENT_LEN + 1),
        });
        let parsed = b.finish(3);
        assert_eq!(parsed.document.to_json(), r#"["a",{},[]]"#);
        let codes: Vec<_> = parsed.diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(
            codes,
            [ErrorCode::UnclosedElement, ErrorCode::DocumentTooLarge]
        );
    }

    #[test]
    fn duplicate_checks_compare_linearly_on_colliding_names() {
        linear(
            |n| {
                let names = colliding(n);
                let attrs: String = names.iter().map(|a| format!(" {a}=''")).collect();
                format!("<r{attrs}{attrs}/>")
            },
            4,
        );
    }

    #[test]
    fn end_tags_compare_linearly_at_any_depth() {
        // Deep open elements with colliding names, then end-tags that match none of them,
        // then end-tags that close them from the outside in.
        linear(
            |n| {
                let names = colliding(n);
                let open: String = names.iter().map(|a| format!("<{a}>")).collect();
                let stray: String = (0..n).map(|i| format!("</b{i:07}z>")).collect();
                let close: String = names.iter().map(|a| format!("</{a}>")).collect();
                format!("{open}{stray}{close}")
            },
            80,
        );
    }

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
                    builder.start_tag_open(Chars::Copy(name), span);
                    builder.start_tag_close(span);
                    model.push(name);
                    continue;
                }
                builder.end_tag(name.as_bytes(), span);
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
                .as_slice()
                .iter()
                .filter(|d| matches!(d.code, ErrorCode::MismatchedEndTag | ErrorCode::StrayEndTag))
                .copied()
                .collect();
            prop_assert_eq!(got, expected);
        }
    }
}
