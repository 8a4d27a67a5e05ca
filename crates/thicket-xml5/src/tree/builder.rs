//! Tree construction: the draft's start, main and end phases, with namespaces resolved after
//! Namespaces in XML 1.0 (with recovery) and the limits of [`Limits`]. The builder either keeps
//! a [`Document`] or (made with [`TreeBuilder::without_tree`]) only checks the tokens, keeping
//! what the checks need: the open elements and the namespace bindings in scope.

use std::borrow::Cow;

use thicket_input::{Diagnostics, Limits, Span};

use super::scope::{Bindings, OpenElement, OpenNames};
use super::{
    AttributeData, Document, Node, NodeData, NodeId, Payload, Range32, Span32, XML_NAMESPACE,
    XMLNS_NAMESPACE, XmlDeclaration, n32, split_qname,
};
use crate::error::{Diagnostic, ErrorCode};
use thicket_names::keyed::KeyedIndex;

use crate::hash::same;
use crate::parser::Parsed;
use crate::token::{Attribute as TokenAttribute, Token, TokenKind};
use crate::tokenizer::{Direct, RawAttr, TagKind};

mod namespaces;
use namespaces::{RESOLVED_SLOTS, Resolved};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Start,
    Main,
    End,
    Stopped,
}

/// Builds a [`Document`] from tokens (the draft's tree construction), or, made with
/// [`TreeBuilder::without_tree`], only checks them: the same diagnostics, no nodes, and a
/// small constant of memory per open element (20 bytes and its name) and per namespace
/// binding (24 bytes, its prefix and namespace), nothing for a scope that declares none.
pub struct TreeBuilder<'a> {
    pub(crate) doc: Document<'a>,
    keep_tree: bool,
    phase: Phase,
    stack: Vec<OpenElement>,
    /// How many open elements have each name (so "in scope" is a lookup, not a stack walk).
    /// Built from the stack at the first end tag that does not close the current element, and
    /// kept up to date from then on: a document whose end tags match never needs it.
    open_names: Option<OpenNames>,
    bindings: Bindings,
    /// Recently resolved prefixes and their namespace numbers, valid while the bindings are
    /// those of `bindings_generation`: a namespace-heavy document resolves the same few
    /// prefixes on most tags.
    resolved: [Resolved; RESOLVED_SLOTS],
    /// Changes whenever a binding is added or removed (64 bits: it never wraps around to an
    /// old value).
    bindings_generation: u64,
    /// The default namespace's number while the bindings are those of the generation (0: not
    /// resolved).
    resolved_default: (u64, u32),
    /// An emptied attribute list of a tag token, for the tokenizer to reuse (see `parse`).
    pub(crate) spare_attributes: Vec<TokenAttribute<'a>>,
    /// The children of the document node and of the open elements so far, outermost first
    /// (each open element knows where its own start): when an element closes, its children
    /// move to the document's child list in one piece.
    pending: Vec<NodeId>,
    seen_content: bool,
    doctype_seen: bool,
    /// `text-outside-root` was reported for the current run of text (the text tokens between
    /// two other tokens are one run, whatever diagnostics or chunk ends split it).
    outside_text_reported: bool,
    /// Where the current run of text outside the root starts, while one is open.
    outside_run: Option<usize>,
    /// Its report, not yet raised: the span of the whole run, which grows until the run ends.
    outside_text: Option<Span>,
    pending_bindings: usize,
    /// Start tags past [`Limits::max_depth`] not opened and not yet ended.
    unopened: usize,
    max_depth: usize,
    max_namespaces: usize,
    max_namespace_bytes: Option<usize>,
    /// The expanded names of a tag's attributes, for tags with many.
    attribute_keys: KeyedIndex,
    /// The end of the input seen so far.
    end: usize,
    /// The tokens come from this crate's tokenizer, which drops attributes whose qualified
    /// name repeats: only attributes in a namespace need the expanded-name check.
    tokenizer_tokens: bool,
    diagnostics: Diagnostics<ErrorCode>,
}

impl Default for TreeBuilder<'_> {
    fn default() -> Self {
        TreeBuilder::new()
    }
}

impl std::fmt::Debug for TreeBuilder<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TreeBuilder")
            .field("keep_tree", &self.keep_tree)
            .field("phase", &self.phase)
            .field("open_elements", &self.stack.len())
            .field("bindings", &self.bindings.len())
            .field("nodes", &self.doc.len())
            .field("diagnostics", &self.diagnostics.total())
            .finish_non_exhaustive()
    }
}

/// Namespace numbers of a builder that keeps no tree: the XML namespace.
const XML_NUMBER: u32 = u32::MAX - 1;
/// The XMLNS namespace (no tree).
const XMLNS_NUMBER: u32 = u32::MAX - 2;

impl<'a> TreeBuilder<'a> {
    /// A builder in the start phase, without limits.
    pub fn new() -> TreeBuilder<'a> {
        TreeBuilder::build(true, &Limits::none(), None)
    }

    /// A builder applying `limits`: [`Limits::max_depth`], [`Limits::max_namespace_declarations`],
    /// [`Limits::max_namespace_bytes`] and [`Limits::max_diagnostics`] (the others are the tokenizer's).
    pub fn with_limits(limits: Limits) -> TreeBuilder<'a> {
        TreeBuilder::build(true, &limits, limits.max_diagnostics)
    }

    /// A builder that checks tokens without building a tree: [`TreeBuilder::finish`] gives the
    /// diagnostics and an empty document.
    pub fn without_tree(limits: Limits) -> TreeBuilder<'a> {
        TreeBuilder::build(false, &limits, limits.max_diagnostics)
    }

    /// A builder for a parser, which caps the merged diagnostics itself.
    pub(crate) fn for_parser(keep_tree: bool, limits: &Limits) -> TreeBuilder<'a> {
        let mut builder = TreeBuilder::build(keep_tree, limits, None);
        builder.tokenizer_tokens = true;
        builder
    }

    fn build(keep_tree: bool, limits: &Limits, cap: Option<usize>) -> TreeBuilder<'a> {
        TreeBuilder {
            doc: Document::new(),
            keep_tree,
            phase: Phase::Start,
            stack: Vec::new(),
            open_names: None,
            bindings: Bindings::new(),
            resolved: [Resolved::default(); RESOLVED_SLOTS],
            bindings_generation: 1,
            resolved_default: (0, 0),
            spare_attributes: Vec::new(),
            pending: Vec::new(),
            seen_content: false,
            doctype_seen: false,
            outside_text_reported: false,
            outside_run: None,
            outside_text: None,
            pending_bindings: 0,
            unopened: 0,
            max_depth: limits.max_depth.unwrap_or(usize::MAX),
            max_namespaces: limits.max_namespace_declarations.unwrap_or(usize::MAX),
            max_namespace_bytes: limits.max_namespace_bytes,
            attribute_keys: KeyedIndex::new(),
            end: 0,
            tokenizer_tokens: false,
            diagnostics: Diagnostics::new(cap),
        }
    }

    /// A builder for [`crate::parse`]: strings of `input` are kept as ranges of it, and the
    /// lists start with room. Room for the nodes and attributes at once (at most an element
    /// or other markup and a text node per `<`, at most an attribute per `=`): the lists are
    /// not copied as they grow, and a parse makes a few large allocations instead of a series
    /// of doublings (each of which, past the allocator's mmap threshold, costs fresh pages;
    /// reserved room that is never written costs none). And a start for the stacks and the
    /// namespace table, so a small document does not grow them from four items a doubling at
    /// a time. (Below [`COUNT_FROM`] bytes the counts are guessed from the length: counting
    /// cost more than the lists' growth.)
    pub(crate) fn for_source(input: &'a str, limits: &Limits) -> TreeBuilder<'a> {
        let mut builder = TreeBuilder::for_parser(true, limits);
        builder.doc.source = input;
        let (tags, equals) = if input.len() < COUNT_FROM {
            (input.len() / 16, input.len() / 16)
        } else {
            (
                memchr::memchr_iter(b'<', input.as_bytes()).count(),
                memchr::memchr_iter(b'=', input.as_bytes()).count(),
            )
        };
        reserve_guess(&mut builder.doc.nodes, 2 * tags + 1, input.len());
        reserve_guess(&mut builder.doc.child_ids, 2 * tags + 1, input.len());
        reserve_guess(&mut builder.doc.attributes, equals, input.len());
        builder.stack.reserve(32);
        builder.pending.reserve(64);
        builder.bindings.reserve(8);
        builder.doc.namespaces.reserve(8);
        builder
    }

    /// Moves the diagnostics raised so far to `order` (keeping the list's room).
    #[inline]
    pub(crate) fn drain_diagnostics(&mut self, order: &mut crate::order::Ordered) {
        if !self.diagnostics.as_slice().is_empty() {
            self.move_diagnostics(order);
        }
    }

    #[cold]
    #[inline(never)]
    fn move_diagnostics(&mut self, order: &mut crate::order::Ordered) {
        for d in self.diagnostics.as_mut_vec().drain(..) {
            order.push(d);
        }
    }

    /// The diagnostics of tree construction not yet taken, in source order.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        self.diagnostics.as_slice()
    }

    /// Takes the diagnostics so far.
    pub fn take_diagnostics(&mut self) -> Vec<Diagnostic> {
        self.diagnostics.take()
    }

    /// How many diagnostics were counted past [`Limits::max_diagnostics`] and not kept.
    pub fn omitted_diagnostics(&self) -> usize {
        self.diagnostics.omitted()
    }

    /// The document (empty without a tree) and the diagnostics not taken.
    pub fn finish(mut self) -> Parsed<'a> {
        self.close_all();
        let (diagnostics, omitted_diagnostics) = self.diagnostics.into_parts();
        Parsed {
            document: self.doc,
            diagnostics,
            omitted_diagnostics,
        }
    }

    /// Closes the open elements at the end of the input (the diagnostics are the end-of-file
    /// token's) and the document node.
    fn close_all(&mut self) {
        self.raise_outside_text();
        while !self.stack.is_empty() {
            self.pop(self.end);
        }
        if self.keep_tree {
            self.close_children(self.doc.root(), 0);
            if let Some(n) = self.doc.nodes.first_mut() {
                n.span = Span32::new(0, self.end);
            }
        }
    }

    /// Moves the children of `node` (in `pending` from `mark` on) to the document.
    #[inline]
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

    /// The current element (or the document node) and where its children start in `pending`.
    #[inline]
    fn current(&self) -> (NodeId, usize) {
        match self.stack.last() {
            Some(e) => (NodeId(e.node), e.children as usize),
            None => (self.doc.root(), 0),
        }
    }

    /// Appends a node made from the token at `span` to the current element (or the document
    /// node). Returns the node that holds the data.
    #[inline]
    fn add(&mut self, data: NodeData<'a>, span: Span) -> NodeId {
        if !self.keep_tree {
            return self.doc.root();
        }
        let payload = self.doc.payload(data);
        self.add_payload(payload, Span32::of(span))
    }

    /// Appends text to the current element (merged into text just before it, not added when
    /// empty).
    #[inline]
    fn add_text(&mut self, t: &str, span: Span) -> NodeId {
        let (parent, mark) = self.current();
        if !self.keep_tree {
            return parent;
        }
        if self.pending.len() > mark
            && let Some(&last) = self.pending.last()
            && let Some(Payload::Text { .. }) = self.doc.nodes.get(last.index()).map(|n| n.payload)
        {
            self.doc.merge_text(last.index(), t);
            if let Some(n) = self.doc.nodes.get_mut(last.index()) {
                let start = n.span.start as usize;
                n.span = Span32::new(start, span.end.saturating_sub(start));
            }
            return last;
        }
        if t.is_empty() {
            return parent;
        }
        let text = self.doc.keep(t);
        self.add_payload(Payload::Text { text, room: 0 }, Span32::of(span))
    }

    /// Appends a node to the current element.
    #[inline]
    fn add_payload(&mut self, payload: Payload, span: Span32) -> NodeId {
        let (parent, _) = self.current();
        let id = NodeId::from_index(self.doc.nodes.len());
        self.doc.nodes.push(Node::new(payload, parent, span));
        self.pending.push(id);
        id
    }

    #[cold]
    fn error(&mut self, code: ErrorCode, span: Span) {
        self.diagnostics.push(Diagnostic::new(code, span));
    }

    /// Puts the diagnostics raised for one token (kept from `from` on) in source order: an
    /// element's own come after its attributes' (its namespace is resolved once they are
    /// declared) but start before them.
    #[inline]
    fn sort_new(&mut self, from: usize) {
        let list = self.diagnostics.as_mut_vec();
        if list.len() > from + 1 {
            list[from..].sort_by_key(|d| (d.span.start, d.code.is_eof()));
        }
    }

    /// Processes one token.
    #[inline]
    pub fn process(&mut self, token: Token<'a>) {
        if self.tokenizer_tokens {
            // A parser's: it orders the merged diagnostics itself.
            self.process_token(token);
            return;
        }
        let from = self.diagnostics.as_slice().len();
        self.process_token(token);
        self.sort_new(from);
    }

    #[inline]
    fn process_token(&mut self, token: Token<'a>) {
        let span = token.span;
        match token.kind {
            // Input no token holds: nothing to build, and no content (a byte order mark
            // before the XML declaration leaves it first).
            TokenKind::Discarded => {
                self.end = self.end.max(span.end);
                return;
            }
            TokenKind::Text(t) => return self.text(&t, span),
            _ => {
                self.outside_text_reported = false;
                self.outside_run = None;
                self.raise_outside_text();
            }
        }
        self.end = self.end.max(span.end);
        let first = !self.seen_content;
        self.seen_content = true;
        match self.phase {
            Phase::Start => self.start_phase(token, first),
            Phase::Main => self.main_phase(token),
            Phase::End => self.end_phase(token),
            Phase::Stopped => {}
        }
    }

    /// A text token: merged into the text before it in the main phase, `text-outside-root`
    /// in the others. (A parser hands text tokens here directly: a run of short pieces, such as
    /// the `<` of each error in `<<<<`, then costs no more than the merge.)
    #[inline]
    pub(crate) fn text(&mut self, t: &str, span: Span) {
        self.end = self.end.max(span.end);
        self.seen_content = true;
        match self.phase {
            Phase::Main => {
                self.add_text(t, span);
            }
            Phase::Start | Phase::End => self.outside_root_text(t, span),
            Phase::Stopped => {}
        }
    }

    /// Text in the start or end phase: `text-outside-root` once a run of text that is not all
    /// whitespace, spanning the whole run (the text tokens between two other tokens, however
    /// diagnostics or chunk ends split them).
    fn outside_root_text(&mut self, text: &str, span: Span) {
        let start = *self.outside_run.get_or_insert(span.start);
        if let Some(reported) = &mut self.outside_text {
            reported.end = span.end;
        } else if !self.outside_text_reported
            && !text.chars().all(thicket_names::xml10::is_whitespace)
        {
            self.outside_text_reported = true;
            self.outside_text = Some(Span::new(start, span.end));
        }
    }

    /// Raises the `text-outside-root` of the run that just ended, if any.
    #[inline]
    fn raise_outside_text(&mut self) {
        if let Some(span) = self.outside_text.take() {
            self.error(ErrorCode::TextOutsideRoot, span);
        }
    }

    /// No diagnostic this builder raises from now on starts before this offset (a
    /// `text-outside-root` spans its whole run, so it waits for the run's end).
    pub(crate) fn horizon(&self) -> usize {
        self.outside_run.unwrap_or(usize::MAX)
    }

    fn start_phase(&mut self, token: Token<'a>, first: bool) {
        let span = token.span;
        match token.kind {
            TokenKind::StartTag { name, attributes } => {
                self.start_tag(&name, attributes, span);
                self.phase = Phase::Main;
            }
            TokenKind::EmptyTag { name, attributes } => {
                self.empty_tag(&name, attributes, span);
                self.phase = Phase::End;
            }
            TokenKind::Comment(c) => {
                self.add(NodeData::Comment(c), span);
            }
            TokenKind::Pi { target, data } => {
                self.add(NodeData::Pi { target, data }, span);
            }
            TokenKind::Doctype {
                name,
                public_id,
                system_id,
            } => {
                if self.doctype_seen {
                    self.error(ErrorCode::MisplacedDoctype, span);
                } else {
                    self.doctype_seen = true;
                    let data = NodeData::Doctype {
                        name,
                        public_id,
                        system_id,
                    };
                    self.add(data, span);
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
            TokenKind::Eof => {
                self.error(ErrorCode::EofBeforeRoot, span);
                self.phase = Phase::Stopped;
            }
            // Taken by `process_token`.
            TokenKind::Text(_) | TokenKind::Discarded => {}
            _ => self.error(ErrorCode::UnexpectedToken, span),
        }
    }

    #[inline]
    fn main_phase(&mut self, token: Token<'a>) {
        let span = token.span;
        match token.kind {
            TokenKind::Text(t) => {
                self.add_text(&t, span);
            }
            TokenKind::StartTag { name, attributes } => self.start_tag(&name, attributes, span),
            TokenKind::EmptyTag { name, attributes } => self.empty_tag(&name, attributes, span),
            TokenKind::EndTag { name } => self.end_tag(&name, span),
            TokenKind::ShortEndTag => {
                if self.unopened > 0 {
                    self.unopened -= 1;
                } else {
                    self.pop(span.end);
                }
                self.end_of_root();
            }
            TokenKind::Comment(c) => {
                self.add(NodeData::Comment(c), span);
            }
            TokenKind::Pi { target, data } => {
                self.add(NodeData::Pi { target, data }, span);
            }
            TokenKind::Doctype { .. } => self.error(ErrorCode::MisplacedDoctype, span),
            TokenKind::XmlDeclaration { .. } => {
                self.error(ErrorCode::MisplacedXmlDeclaration, span)
            }
            TokenKind::Eof => {
                self.error(ErrorCode::EofInElement, span);
                self.phase = Phase::Stopped;
            }
            TokenKind::Discarded => {}
        }
    }

    fn end_phase(&mut self, token: Token<'a>) {
        let span = token.span;
        match token.kind {
            TokenKind::Comment(c) => {
                self.add(NodeData::Comment(c), span);
            }
            TokenKind::Pi { target, data } => {
                self.add(NodeData::Pi { target, data }, span);
            }
            TokenKind::Eof => self.phase = Phase::Stopped,
            TokenKind::Doctype { .. } => self.error(ErrorCode::MisplacedDoctype, span),
            TokenKind::XmlDeclaration { .. } => {
                self.error(ErrorCode::MisplacedXmlDeclaration, span)
            }
            // Taken by `process_token`.
            TokenKind::Text(_) | TokenKind::Discarded => {}
            _ => self.error(ErrorCode::UnexpectedToken, span),
        }
    }

    /// The main phase ends with the root element.
    #[inline]
    fn end_of_root(&mut self) {
        if self.stack.is_empty() && self.unopened == 0 {
            self.phase = Phase::End;
        }
    }

    /// True when an element here would be deeper than [`Limits::max_depth`]: reported, and
    /// the element is not created.
    #[inline]
    fn too_deep(&mut self, span: Span) -> bool {
        if self.stack.len() < self.max_depth {
            return false;
        }
        self.error(ErrorCode::DepthLimit, span);
        true
    }

    #[inline]
    fn start_tag(&mut self, name: &str, attributes: Vec<TokenAttribute<'a>>, span: Span) {
        if self.too_deep(span) {
            self.unopened += 1;
            self.recycle(attributes);
            return;
        }
        let (node, name) = self.create_element(name, attributes, span, true);
        self.push(node, name);
    }

    #[inline]
    fn empty_tag(&mut self, name: &str, attributes: Vec<TokenAttribute<'a>>, span: Span) {
        if self.too_deep(span) {
            self.recycle(attributes);
            return;
        }
        let marker = self.bindings.len();
        self.create_element(name, attributes, span, false);
        self.unbind_to(marker);
    }

    /// Keeps an emptied attribute list for the tokenizer.
    #[inline]
    fn recycle(&mut self, mut attributes: Vec<TokenAttribute<'a>>) {
        attributes.clear();
        if attributes.capacity() > self.spare_attributes.capacity() {
            self.spare_attributes = attributes;
        }
    }

    /// Main phase, an end tag.
    #[inline]
    fn end_tag(&mut self, name: &str, span: Span) {
        if self.unopened > 0 {
            // It ends a start tag that was not opened (past the depth limit).
            self.unopened -= 1;
            self.end_of_root();
            return;
        }
        if let Some(e) = self.stack.last()
            && same(self.doc.str(e.name), name)
        {
            // The usual case: the end tag closes the current element, so there is no need to
            // ask whether an element of that name is open.
            self.pop(span.end);
        } else {
            if !self.stack.is_empty() {
                self.error(ErrorCode::MismatchedEndTag, span);
            }
            if self.open_count(name) > 0 {
                while let Some(e) = self.stack.last() {
                    let closes = same(self.doc.str(e.name), name);
                    // Elements the end tag closes implicitly end where it starts.
                    self.pop(if closes { span.end } else { span.start });
                    if closes {
                        break;
                    }
                }
            }
        }
        self.end_of_root();
    }

    /// Processes what [`crate::Tokenizer::next_direct`] found (the text before a plain tag,
    /// then the tag), as [`TreeBuilder::process`] would process their tokens: in the main
    /// phase without building tokens, in the others through `process`.
    /// (The parser orders the diagnostics; the end-of-file token, which always comes through
    /// [`TreeBuilder::process`], sets the end of the input.)
    #[inline]
    pub(crate) fn process_direct(&mut self, d: Direct<'a>, attributes: &[RawAttr]) {
        if let Some((text, span)) = d.text {
            if self.phase == Phase::Main {
                self.seen_content = true;
                self.add_text(&text, span);
            } else {
                self.process_token(Token {
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
            self.process_token(Token { kind, span: d.span });
            return;
        }
        // (In the main phase text outside the root cannot follow: no flag to reset.)
        self.seen_content = true;
        match d.kind {
            TagKind::Start => {
                if self.too_deep(d.span) {
                    self.unopened += 1;
                } else {
                    let (node, name) =
                        self.create_element_direct(d.input, d.name, attributes, d.span, true);
                    self.push(node, name);
                }
            }
            TagKind::Empty => {
                if !self.too_deep(d.span) {
                    let marker = self.bindings.len();
                    self.create_element_direct(d.input, d.name, attributes, d.span, false);
                    self.unbind_to(marker);
                }
            }
            TagKind::End => self.end_tag(d.name, d.span),
        }
    }

    #[inline]
    fn push(&mut self, node: NodeId, name: Span32) {
        let bindings = self.pending_bindings;
        self.pending_bindings = 0;
        if let Some(open) = &mut self.open_names {
            let doc = &self.doc;
            open.add(doc.str(name), name, |s| doc.str(s));
        }
        self.stack.push(OpenElement {
            node: node.0,
            name,
            bindings: n32(bindings),
            children: n32(self.pending.len()),
        });
    }

    /// Pops the current element, which ends at `close_at`.
    #[inline]
    fn pop(&mut self, close_at: usize) {
        let Some(e) = self.stack.pop() else {
            return;
        };
        if let Some(open) = &mut self.open_names {
            let doc = &self.doc;
            open.remove(doc.str(e.name), |s| doc.str(s));
        }
        if e.bindings > 0 {
            let keep = self.bindings.len() - e.bindings as usize;
            self.unbind_to(keep);
        }
        if self.keep_tree {
            self.close_children(NodeId(e.node), e.children as usize);
            if let Some(n) = self.doc.nodes.get_mut(e.node as usize) {
                let start = n.span.start as usize;
                n.span = Span32::new(start, close_at.saturating_sub(start));
            }
        } else {
            // Without a tree the text holds only the open elements' names.
            let at = (e.name.start as usize).saturating_sub(self.doc.source.len());
            self.doc.text.truncate(at);
        }
    }

    /// How many open elements are named `name`.
    #[cold]
    fn open_count(&mut self, name: &str) -> u32 {
        let doc = &self.doc;
        let open = self.open_names.get_or_insert_with(|| {
            let mut open = OpenNames::new();
            for e in &self.stack {
                open.add(doc.str(e.name), e.name, |s| doc.str(s));
            }
            open
        });
        open.count(name, |s| doc.str(s))
    }

    /// Creates an element for a tag token (declaring its namespaces) and appends it to the
    /// current element; its attributes go straight to the document's attribute list. Returns
    /// the node and the name's span (kept, without a tree, only when the element `opens`).
    #[inline]
    fn create_element(
        &mut self,
        name: &str,
        mut attributes: Vec<TokenAttribute<'a>>,
        span: Span,
        opens: bool,
    ) -> (NodeId, Span32) {
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
        let (prefix, _) = split_qname(name);
        let namespace = self.element_namespace(prefix, span);
        self.attribute_keys.clear();
        let start = self.doc.attributes.len();
        let text_mark = self.doc.text.len();
        for (i, a) in attributes.drain(..).enumerate() {
            let declaration = declarations.get(i);
            let check_unqualified = !self.tokenizer_tokens;
            let kept =
                self.attribute_namespace(start, &a.name, a.span, declaration, check_unqualified);
            if let Some((namespace, prefix_len)) = kept {
                let name = self.doc.keep(&a.name);
                let value = if self.keep_tree {
                    self.doc.keep(&a.value)
                } else {
                    Span32::default()
                };
                self.doc
                    .push_attribute_data(namespace, name, prefix_len, value);
            }
        }
        self.recycle(attributes);
        self.add_element(namespace, name, prefix, start, text_mark, span, opens)
    }

    /// [`TreeBuilder::create_element`] for a tag of the direct path: names and values are
    /// ranges of `input`, and so (when `input` is the document's source, as in `parse`) of
    /// the document's address space.
    #[inline]
    fn create_element_direct(
        &mut self,
        input: &'a str,
        name: &'a str,
        attributes: &[RawAttr],
        span: Span,
        opens: bool,
    ) -> (NodeId, Span32) {
        let before = self.bindings.len();
        let mut declarations = Declarations::default();
        let bytes = input.as_bytes();
        if attributes
            .iter()
            .any(|a| bytes[a.name.0..a.name.1].starts_with(b"xmlns"))
        {
            for (i, a) in attributes.iter().enumerate() {
                let name = &input[a.name.0..a.name.1];
                let value = &input[a.value.0..a.value.1];
                let ok = self.declare(name, value, Span::new(a.name.0, a.end)) == Some(true);
                declarations.set(i, ok);
            }
        }
        self.pending_bindings = self.bindings.len() - before;
        let (prefix, _) = split_qname(name);
        let namespace = self.element_namespace(prefix, span);
        self.attribute_keys.clear();
        let start = self.doc.attributes.len();
        let text_mark = self.doc.text.len();
        let base = self.doc.offset_in_source(input);
        for (i, a) in attributes.iter().enumerate() {
            let name = &input[a.name.0..a.name.1];
            let span = Span::new(a.name.0, a.end);
            let declaration = declarations.get(i);
            // The direct path never has two attributes of the same name.
            let kept = self.attribute_namespace(start, name, span, declaration, false);
            if let Some((namespace, prefix_len)) = kept {
                let (name, value) = match base {
                    Some(base) => (
                        Span32::new(base + a.name.0, a.name.1 - a.name.0),
                        Span32::new(base + a.value.0, a.value.1 - a.value.0),
                    ),
                    None => (
                        self.doc.keep(name),
                        self.doc.keep(&input[a.value.0..a.value.1]),
                    ),
                };
                self.doc
                    .push_attribute_data(namespace, name, prefix_len, value);
            }
        }
        self.add_element(namespace, name, prefix, start, text_mark, span, opens)
    }

    /// Appends the element named `name` (namespace number `namespace`) whose attributes are the
    /// document's from `start` on. Without a tree, drops the attributes (and the strings kept
    /// for them from `text_mark` on) and keeps only the name of an element that `opens`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn add_element(
        &mut self,
        namespace: u32,
        name: &str,
        prefix: Option<&str>,
        start: usize,
        text_mark: usize,
        span: Span,
        opens: bool,
    ) -> (NodeId, Span32) {
        if !self.keep_tree {
            self.doc.attributes.truncate(start);
            self.doc.text.truncate(text_mark);
            let name = if opens {
                self.doc.keep(name)
            } else {
                Span32::default()
            };
            return (self.doc.root(), name);
        }
        let name = self.doc.keep(name);
        let len = self.doc.attributes.len() - start;
        let node = self.add_payload(
            Payload::Element {
                name,
                namespace,
                prefix_len: prefix_len(prefix),
                attributes_start: n32(start),
                attributes_len: n32(len),
            },
            Span32::of(span),
        );
        (node, name)
    }

    /// The namespace number of an element with this prefix (`unbound-prefix` when none is in
    /// scope).
    #[inline]
    fn element_namespace(&mut self, prefix: Option<&str>, span: Span) -> u32 {
        self.resolve(prefix).unwrap_or_else(|| {
            self.error(ErrorCode::UnboundPrefix, span);
            0
        })
    }

    /// The namespace number and `prefix_len` (see [`AttributeData`]) of an attribute named
    /// `name` of the element whose attributes start at `start` in the document's list; `None`
    /// when one with the same expanded name is there (`duplicate-expanded-attribute`).
    /// Attributes in no namespace are compared only when `check_unqualified` (their qualified
    /// names may repeat only in tokens that did not come from the tokenizer, which drops
    /// duplicates).
    #[inline]
    fn attribute_namespace(
        &mut self,
        start: usize,
        name: &str,
        span: Span,
        declaration: bool,
        check_unqualified: bool,
    ) -> Option<(u32, u32)> {
        let (aprefix, alocal) = split_qname(name);
        let prefix_len = prefix_len(aprefix);
        let ns = if declaration {
            self.fixed_number(XMLNS_NAMESPACE, XMLNS_NUMBER)
        } else if let Some(p) = aprefix {
            if p == "xmlns" {
                0
            } else {
                self.resolve(Some(p)).unwrap_or_else(|| {
                    self.error(ErrorCode::UnboundPrefix, span);
                    0
                })
            }
        } else {
            0
        };
        if ns == 0 && !check_unqualified {
            return Some((0, prefix_len));
        }
        let this = if ns == 0 { name } else { alocal };
        if self.has_attribute(start, ns, this) {
            self.error(ErrorCode::DuplicateExpandedAttribute, span);
            return None;
        }
        Some((ns, prefix_len))
    }

    /// True when the element whose attributes start at `start` has one in namespace `ns` with
    /// this key (its local name, or its qualified name in no namespace); else the key is
    /// remembered as the next attribute's. Up to [`PAIRWISE_ATTRIBUTES`] the keys are compared
    /// one by one; past that through a set keyed by a keyed hash of the namespace and the key.
    #[inline]
    fn has_attribute(&mut self, start: usize, ns: u32, this: &str) -> bool {
        let attrs = &self.doc.attributes[start..];
        let len = attrs.len();
        let doc = &self.doc;
        if len < PAIRWISE_ATTRIBUTES {
            return attrs.iter().any(|b| {
                same(attribute_key(doc, b), this)
                    && (b.namespace == ns
                        || (!self.keep_tree
                            && b.namespace != 0
                            && ns != 0
                            && same(
                                self.namespace_uri(b.namespace).unwrap_or(""),
                                self.namespace_uri(ns).unwrap_or(""),
                            )))
            });
        }
        let uri = |n: u32| -> &str {
            match n {
                0 => "",
                XML_NUMBER if !self.keep_tree => XML_NAMESPACE,
                XMLNS_NUMBER if !self.keep_tree => XMLNS_NAMESPACE,
                n if self.keep_tree => doc.namespace(n).unwrap_or(""),
                n => self.bindings.uri(n - 1).unwrap_or(""),
            }
        };
        let found = self.attribute_keys.contains(
            (uri(ns), this),
            len,
            |i| (uri(attrs[i].namespace), attribute_key(doc, &attrs[i])),
            |a, b| same(a.1, b.1) && same(a.0, b.0),
        );
        if !found {
            self.attribute_keys.push_last(len);
        }
        found
    }

    /// If `name` is a namespace declaration, applies it: `Some(true)` when it declares (or is
    /// the XML namespace's own, or is past [`Limits::max_namespace_declarations`] or
    /// [`Limits::max_namespace_bytes`]: reported, not bound), `Some(false)` when it is invalid (reported), `None` when it is no
    /// declaration.
    fn declare(&mut self, name: &str, value: &str, span: Span) -> Option<bool> {
        let declared: Option<&str> = match split_qname(name) {
            (None, "xmlns") => None,
            (Some("xmlns"), local) => Some(local),
            _ => return None,
        };
        let ok = match declared {
            Some("xml") => value == XML_NAMESPACE,
            Some("xmlns") => false,
            _ => value != XMLNS_NAMESPACE && value != XML_NAMESPACE,
        };
        if !ok {
            self.error(ErrorCode::InvalidNamespaceDeclaration, span);
            return Some(false);
        }
        if declared == Some("xml") {
            return Some(true);
        }
        let bytes = self.bindings.text_len() + declared.map_or(0, str::len) + value.len();
        if self.bindings.len() >= self.max_namespaces
            || Limits::exceeds(self.max_namespace_bytes, bytes)
        {
            self.error(ErrorCode::NamespaceLimit, span);
            return Some(true);
        }
        if value.is_empty() && declared.is_some() {
            // Namespaces in XML 1.0 forbids undeclaring a prefix; we undeclare it (as 1.1
            // allows) and report it.
            self.error(ErrorCode::InvalidNamespaceDeclaration, span);
        }
        self.bind(declared.unwrap_or(""), (!value.is_empty()).then_some(value));
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
        name_span: Span::new(a.name.0, a.name.1),
        value_span: Span::new(a.value.0, a.value.1),
    }
}

/// From this many input bytes on, [`TreeBuilder::for_source`] counts `<` and `=` to size the
/// document's lists.
const COUNT_FROM: usize = 4096;

/// Up to this many attributes on a tag, a new one's expanded name is compared with each.
const PAIRWISE_ATTRIBUTES: usize = 32;

/// What identifies an attribute besides its namespace number (same number, same namespace):
/// its local name, or its qualified name when it is in no namespace.
fn attribute_key<'d>(doc: &'d Document<'_>, data: &AttributeData) -> &'d str {
    if data.namespace == 0 {
        doc.str(data.name)
    } else {
        doc.local(data.name, data.prefix_len)
    }
}

/// Reserves room for `n` more items as a guess from the input, at most sixteen bytes of room per
/// input byte, and not at all when the allocator refuses: the guess counts every `<` or `=`,
/// so input made of them must not turn it into a huge allocation or an allocation failure.
fn reserve_guess<T>(v: &mut Vec<T>, n: usize, input_len: usize) {
    let cap = input_len.saturating_mul(16) / size_of::<T>().max(1);
    let _ = v.try_reserve(n.min(cap));
}

/// The `prefix_len` of a name with this prefix (see [`AttributeData`]).
fn prefix_len(prefix: Option<&str>) -> u32 {
    prefix.map_or(0, |p| n32(p.len() + 1))
}
