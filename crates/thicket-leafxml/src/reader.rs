//! The pull decoder: tokens, token filtering, assemblies, empty tag expansion, the tag stack and
//! namespace processing, each in the order the spec gives them.

use std::borrow::Cow;
use std::collections::HashMap;
use std::io::Read;
use std::sync::atomic::{AtomicU32, Ordering};

use thicket_input::Span;
use thicket_names::leafxml as names;

use crate::error::{Error, ErrorCode};
use crate::event::{Attributes, Event, EventKind};
use crate::input::{Input, Stop, Tracker};
use crate::text;
use crate::text::Piece;

mod fast;
mod token;

use token::Token;

/// The namespace the `xml` prefix is bound to.
pub const XML_NAMESPACE: &str = "http://www.w3.org/XML/1998/namespace";
/// The namespace the `xmlns` prefix is bound to.
pub const XMLNS_NAMESPACE: &str = "http://www.w3.org/2000/xmlns/";

const DEFAULT_CHUNK: usize = 64 * 1024;

/// Optional limits for untrusted input (the shared [`thicket_input::Limits`]). Every limit is
/// off by default. LeafXML honours `max_depth`, `max_attributes` and `max_token_len`; see
/// docs/leafxml.md.
pub use thicket_input::Limits;

/// "Tag stack": its state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum StackState {
    Initial,
    Active,
    Finished,
}

/// Tag type, from the slashes next to the angle brackets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TagType {
    Start,
    End,
    Empty,
}

/// An attribute of a tag assembly, decoded (pieces of the tag token where nothing changed).
#[derive(Debug)]
struct Attr {
    name: Piece,
    value: Piece,
    /// Offset of the name in the (line-break normalized) tag token.
    offset: usize,
    /// How the name splits at its colon, once known.
    split: Split,
}

/// The attributes of the tag a `Start` event was built from, borrowed from the reader: the
/// tag's text, its attributes (declarations included) and its external attributes (each one's
/// prefix position in the namespace stack and index in `attrs`, from `check_rewrite`).
#[derive(Clone, Copy)]
pub(crate) struct TagAttributes<'a> {
    text: &'a str,
    attrs: &'a [Attr],
    external: &'a [(usize, usize)],
    ns: &'a Namespaces,
}

impl<'a> TagAttributes<'a> {
    /// The local attribute map in document order.
    #[inline]
    pub(crate) fn local(self) -> TagLocal<'a> {
        TagLocal {
            text: self.text,
            attrs: self.attrs.iter(),
        }
    }

    /// The external attribute map in document order.
    #[inline]
    pub(crate) fn external(self) -> TagExternal<'a> {
        TagExternal {
            text: self.text,
            attrs: self.attrs,
            ns: self.ns,
            external: self.external.iter(),
        }
    }
}

/// The local attributes of a [`TagAttributes`].
#[derive(Clone)]
pub(crate) struct TagLocal<'a> {
    text: &'a str,
    attrs: std::slice::Iter<'a, Attr>,
}

impl<'a> Iterator for TagLocal<'a> {
    type Item = (&'a str, &'a str);

    #[inline]
    fn next(&mut self) -> Option<(&'a str, &'a str)> {
        let text = self.text;
        self.attrs.find_map(|a| {
            let name = a.name.get(text);
            (a.split == Split::Local && name != "xmlns").then(|| (name, a.value.get(text)))
        })
    }
}

/// The external attributes of a [`TagAttributes`].
#[derive(Clone)]
pub(crate) struct TagExternal<'a> {
    text: &'a str,
    attrs: &'a [Attr],
    ns: &'a Namespaces,
    external: std::slice::Iter<'a, (usize, usize)>,
}

impl<'a> Iterator for TagExternal<'a> {
    type Item = (&'a str, &'a str, &'a str);

    #[inline]
    fn next(&mut self) -> Option<(&'a str, &'a str, &'a str)> {
        let (text, attrs, ns) = (self.text, self.attrs, self.ns);
        self.external.find_map(|&(position, k)| {
            let a = attrs.get(k)?;
            let namespace = ns.value(position)?;
            Some((
                namespace,
                a.split.apply(a.name.get(text)).1,
                a.value.get(text),
            ))
        })
    }
}

/// How a name splits into prefix and local part ("Tag rewriting").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Split {
    /// Not checked yet.
    Unchecked,
    /// No colon.
    Local,
    /// `name[..k]` is the prefix and `name[k + 1..]` the local part, both valid names without
    /// a colon.
    Prefixed(usize),
}

impl Split {
    /// Prefix and local part of `name`, which this split was found for.
    #[inline]
    fn apply(self, name: &str) -> (Option<&str>, &str) {
        match self {
            Split::Prefixed(k) => match (name.get(..k), name.get(k + 1..)) {
                (Some(prefix), Some(local)) => (Some(prefix), local),
                _ => (None, name),
            },
            Split::Local | Split::Unchecked => (None, name),
        }
    }
}

/// A tag assembly: element name, tag type and attributes.
#[derive(Debug)]
struct TagAssembly {
    name: Piece,
    /// How the element name splits, once known.
    split: Split,
    /// The position of the element's prefix in the namespace stack, once tag rewriting
    /// checked it.
    ns: usize,
    kind: TagType,
    attrs: Vec<Attr>,
}

/// An open element on the tag stack.
#[derive(Clone, Copy, Debug)]
struct Open {
    /// Where its name starts in `Reader::names`.
    start: usize,
    /// Where the local part of the name starts, from `start`.
    local: usize,
    /// The position of its namespace's prefix in the namespace stack (the default namespace is
    /// position 0), looked up when the element was opened; its scope lasts as long as the
    /// element.
    ns: usize,
}

/// What the next event is, once the reader's state is updated; the event borrows from that
/// state.
#[derive(Clone, Copy, Debug)]
enum Ready {
    Text,
    Start,
    End,
}

/// An error inside a tag token: code, offset in the normalized token, codepoint.
type TagError = (ErrorCode, usize, Option<u32>);

/// "Namespace processing": the namespace stack, kept as prefix -> stack of values plus a log of
/// the prefixes each element declared, so lookups cost the same however many declarations are
/// in scope. (Duplicating the top context for every starting tag, as the spec describes it, gives
/// the same mappings.)
#[derive(Debug)]
struct Namespaces {
    /// Every prefix seen so far, and its stack of values (empty when out of scope).
    prefixes: Vec<String>,
    values: Vec<Vec<String>>,
    /// Prefix -> position in `prefixes`, built once there are many prefixes (a linear scan is
    /// faster for the usual handful; the hash keeps crafted documents linear).
    index: Option<HashMap<String, usize>>,
    /// Positions of the prefixes declared, in order, so scopes can be undone.
    log: Vec<usize>,
    /// Prefixes found recently: position + 1 (0 for none) in a slot chosen by the prefix's
    /// length, first and last byte. A prefix keeps its position for good, so a slot is never
    /// stale; a hit is confirmed by comparing the prefix. (Relaxed atomics rather than cells,
    /// so that the reader stays `Sync`; they compile to plain loads and stores.)
    cache: [AtomicU32; CACHE_SLOTS],
}

/// Slots in `Namespaces::cache`.
const CACHE_SLOTS: usize = 64;

/// The cache slot of a prefix.
#[inline]
fn cache_slot(prefix: &str) -> usize {
    let b = prefix.as_bytes();
    let first = usize::from(b.first().copied().unwrap_or(0));
    let last = usize::from(b.last().copied().unwrap_or(0));
    (b.len().wrapping_mul(37) ^ first.wrapping_mul(5) ^ last) % CACHE_SLOTS
}

/// How many distinct prefixes are searched linearly.
const LINEAR_PREFIXES: usize = 16;

impl Namespaces {
    /// The default context: `xml` and `xmlns`.
    fn new() -> Namespaces {
        Namespaces {
            // The default namespace first: every unprefixed element looks it up.
            prefixes: vec![String::new(), "xml".to_owned(), "xmlns".to_owned()],
            values: vec![
                Vec::new(),
                vec![XML_NAMESPACE.to_owned()],
                vec![XMLNS_NAMESPACE.to_owned()],
            ],
            index: None,
            log: Vec::new(),
            cache: std::array::from_fn(|_| AtomicU32::new(0)),
        }
    }

    #[inline]
    fn position(&self, prefix: &str) -> Option<usize> {
        let slot = &self.cache[cache_slot(prefix)];
        let cached = (slot.load(Ordering::Relaxed) as usize).wrapping_sub(1);
        if self.prefixes.get(cached).is_some_and(|p| p == prefix) {
            return Some(cached);
        }
        let found = self.search(prefix);
        if let Some(k) = found
            && let Ok(k) = u32::try_from(k + 1)
        {
            slot.store(k, Ordering::Relaxed);
        }
        found
    }

    /// `position` without the cache.
    #[cold]
    fn search(&self, prefix: &str) -> Option<usize> {
        match &self.index {
            Some(index) => index.get(prefix).copied(),
            // First byte and length before the full comparison: prefixes are short and often
            // share a length, where a call to memcmp costs more than the test.
            None => self.prefixes.iter().position(|p| {
                p.len() == prefix.len()
                    && p.as_bytes().first() == prefix.as_bytes().first()
                    && p == prefix
            }),
        }
    }

    fn mark(&self) -> usize {
        self.log.len()
    }

    fn declare(&mut self, prefix: &str, value: &str) {
        let k = match self.position(prefix) {
            Some(k) => k,
            None => {
                let k = self.prefixes.len();
                self.prefixes.push(prefix.to_owned());
                self.values.push(Vec::new());
                if let Some(index) = &mut self.index {
                    index.insert(prefix.to_owned(), k);
                } else if self.prefixes.len() > LINEAR_PREFIXES {
                    let index = self
                        .prefixes
                        .iter()
                        .enumerate()
                        .map(|(i, p)| (p.clone(), i))
                        .collect();
                    self.index = Some(index);
                }
                k
            }
        };
        if let Some(v) = self.values.get_mut(k) {
            v.push(value.to_owned());
        }
        self.log.push(k);
    }

    /// Undoes the declarations made since `mark`.
    fn truncate(&mut self, mark: usize) {
        while self.log.len() > mark {
            if let Some(k) = self.log.pop()
                && let Some(v) = self.values.get_mut(k)
            {
                v.pop();
            }
        }
    }

    #[cfg(test)]
    fn lookup(&self, prefix: &str) -> Option<&str> {
        self.value(self.position(prefix)?)
    }

    /// The position of a prefix that is in scope.
    fn position_in_scope(&self, prefix: &str) -> Option<usize> {
        let k = self.position(prefix)?;
        self.value(k).map(|_| k)
    }

    /// The value of the prefix at `position`, if it is in scope.
    #[inline]
    fn value(&self, position: usize) -> Option<&str> {
        self.values.get(position)?.last().map(String::as_str)
    }
}

/// The strict LeafXML pull decoder.
///
/// ```
/// use thicket_leafxml::{EventKind, Reader};
///
/// let mut reader = Reader::from_bytes(b"<a x='1'>hi</a>");
/// let mut dump = Vec::new();
/// while let Some(event) = reader.next_event()? {
///     dump.push(event.kind.to_string());
/// }
/// assert_eq!(dump, ["start a x=\"1\"", "text \"hi\"", "end a"]);
/// # Ok::<(), thicket_leafxml::Error>(())
/// ```
pub struct Reader<R> {
    input: Input<R>,
    limits: Limits,
    peeked: Option<Token>,
    state: StackState,
    /// The tag stack: element names as written (NFC), end to end in one string.
    names: String,
    /// Where each open element's name starts in `names`.
    name_starts: Vec<Open>,
    /// The element the last `End` event closed; its name stays at the end of `names` until the
    /// next call.
    closed: Option<Open>,
    /// The namespace scope to leave before the next event (after an `End`).
    pending_truncate: Option<usize>,
    /// The `End` of an empty tag, given on the next call: line and span.
    pending_end: Option<(u32, Span)>,
    /// The last tag assembly and where its (line-break normalized) text is.
    tag: TagAssembly,
    tag_at: usize,
    tag_len: usize,
    tag_in_scratch: bool,
    tag_scratch: String,
    /// The last event's line and span.
    line: u32,
    span: Span,
    /// The namespace stack.
    ns: Namespaces,
    /// `ns.mark()` before each open element's declarations.
    scopes: Vec<usize>,
    doctype_seen: bool,
    seen_tag: bool,
    content: String,
    /// When set, the last content assembly is this range of the input, unchanged (and
    /// `content` is unused).
    text_range: Option<(usize, usize)>,
    failed: Option<Error>,
    done: bool,
    /// False to take the general code only (for testing the fast paths against it).
    fast: bool,
    /// Set when the fast path parsed the tag token just found into `tag`.
    fast_tag: Option<crate::input::Lines>,
    /// Set when the fast path found the text token just found (`fast::text`).
    fast_text: Option<fast::TextToken>,
    /// Scratch space for `check_rewrite`.
    external_scratch: Vec<(usize, usize)>,
}

impl<'a> Reader<&'a [u8]> {
    /// A reader over bytes held in memory.
    pub fn from_bytes(bytes: &'a [u8]) -> Reader<&'a [u8]> {
        Reader::with_input(Input::from_slice(bytes))
    }
}

impl<R: Read> Reader<R> {
    /// A reader over any byte source, read in 64 KiB chunks; memory stays bounded by the longest
    /// token or content assembly.
    pub fn new(src: R) -> Reader<R> {
        Reader::with_input(Input::new(src, DEFAULT_CHUNK))
    }

    fn with_input(input: Input<R>) -> Reader<R> {
        Reader {
            input,
            limits: Limits::default(),
            peeked: None,
            state: StackState::Initial,
            names: String::new(),
            name_starts: Vec::new(),
            closed: None,
            pending_truncate: None,
            pending_end: None,
            tag: TagAssembly {
                name: Piece::At(0, 0),
                split: Split::Unchecked,
                ns: 0,
                kind: TagType::Start,
                attrs: Vec::new(),
            },
            tag_at: 0,
            tag_len: 0,
            tag_in_scratch: false,
            tag_scratch: String::new(),
            line: 1,
            span: Span::empty(0),
            ns: Namespaces::new(),
            scopes: Vec::new(),
            doctype_seen: false,
            seen_tag: false,
            content: String::new(),
            text_range: None,
            failed: None,
            done: false,
            fast: true,
            fast_tag: None,
            fast_text: None,
            external_scratch: Vec::new(),
        }
    }

    /// Sets the limits for untrusted input.
    pub fn with_limits(mut self, limits: Limits) -> Reader<R> {
        self.limits = limits;
        self
    }

    /// Turns the fast paths off, so that every token goes through the general code. The events
    /// and errors are the same either way; this exists to test that.
    #[doc(hidden)]
    pub fn without_fast_paths(mut self) -> Reader<R> {
        self.fast = false;
        self
    }

    /// Bytes of decoded text the reader holds right now (its window over the input). With an
    /// `io::Read` source this stays near the read size plus the longest token.
    pub fn buffered(&self) -> usize {
        self.input.buf.capacity()
    }

    /// The next event, `Ok(None)` after the end of the root element and a clean end of input,
    /// or the first error. After an error, every call returns the same error.
    ///
    /// The event borrows from the reader: names, values and text are borrowed where decoding
    /// left them unchanged. [`Event::into_owned`] (or [`Reader::next_owned`]) keeps one.
    // The event is built here, inline in the caller, from what `advance` left in the reader:
    // an event is mostly borrowed strings, and built in place it is never copied (returned from
    // a call, its hundred bytes went through memory twice).
    #[inline]
    pub fn next_event(&mut self) -> Result<Option<Event<'_>>, Error> {
        match self.advance()? {
            Some(ready) => Ok(Some(self.build(ready))),
            None => Ok(None),
        }
    }

    /// Moves the reader to the next event: what it is, or `None` at the end, or the error.
    fn advance(&mut self) -> Result<Option<Ready>, Error> {
        // Most elements declare nothing: no call for them.
        if let Some(mark) = self.pending_truncate.take()
            && mark < self.ns.mark()
        {
            self.ns.truncate(mark);
        }
        if let Some(open) = self.closed.take() {
            self.names.truncate(open.start);
        }
        if let Some((line, span)) = self.pending_end.take() {
            self.close();
            self.line = line;
            self.span = span;
            return Ok(Some(Ready::End));
        }
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        if self.done {
            return Ok(None);
        }
        match self.step() {
            Ok(Some(ready)) => Ok(Some(ready)),
            Ok(None) => Ok(None),
            Err(e) => {
                self.failed = Some(e.clone());
                Err(e)
            }
        }
    }

    /// The next event, owned.
    pub fn next_owned(&mut self) -> Result<Option<Event<'static>>, Error> {
        Ok(self.next_event()?.map(Event::into_owned))
    }

    /// The text of the last tag token (line-break normalized).
    fn tag_text(&self) -> &str {
        if self.tag_in_scratch {
            &self.tag_scratch
        } else {
            &self.input.buf[self.tag_at..self.tag_at + self.tag_len]
        }
    }

    /// Builds the event `ready` from the reader's state.
    #[inline]
    fn build(&self, ready: Ready) -> Event<'_> {
        let kind = match ready {
            Ready::Text => EventKind::Text(Cow::Borrowed(self.text())),
            Ready::End => {
                let open = self.closed.unwrap_or(Open {
                    start: self.names.len(),
                    local: 0,
                    ns: 0,
                });
                let namespace = self.ns.value(open.ns);
                let local = self
                    .names
                    .get(open.start + open.local..)
                    .unwrap_or_default();
                EventKind::End {
                    namespace: namespace.map(Cow::Borrowed),
                    local_name: Cow::Borrowed(local),
                }
            }
            Ready::Start => {
                let text = self.tag_text();
                let name = self.tag.name.get(text);
                let namespace = self.ns.value(self.tag.ns);
                let local = self.tag.split.apply(name).1;
                let attributes = Attributes::from_tag(TagAttributes {
                    text,
                    attrs: &self.tag.attrs,
                    // `check_rewrite` left the external attributes here, with their prefixes
                    // resolved.
                    external: &self.external_scratch,
                    ns: &self.ns,
                });
                EventKind::Start {
                    namespace: namespace.map(Cow::Borrowed),
                    local_name: Cow::Borrowed(local),
                    attributes,
                }
            }
        };
        Event {
            kind,
            line: self.line,
            span: self.span,
        }
    }

    // ----- positions and errors -----

    #[cold]
    fn error_at(&self, rel: usize, code: ErrorCode, codepoint: Option<u32>) -> Error {
        let (line, column) = self.input.line_col(rel);
        Error {
            code,
            line,
            column,
            byte_offset: self.input.abs(rel) as u64,
            codepoint,
        }
    }

    #[cold]
    fn error_from(&self, at: Tracker, abs: usize, code: ErrorCode) -> Error {
        Error {
            code,
            line: at.line,
            column: at.col.saturating_add(1),
            byte_offset: abs as u64,
            codepoint: None,
        }
    }

    #[cold]
    fn stop_error(&self, stop: Stop) -> Error {
        let rel = self.input.buf.len() - self.input.pos;
        let mut e = self.error_at(rel, stop.code, stop.codepoint);
        if let Some(off) = stop.input_offset {
            e.byte_offset = off;
        }
        e
    }

    /// Reads more text; `Ok(false)` at the real end of the input, the pending error if the text
    /// stopped early.
    fn more(&mut self) -> Result<bool, Error> {
        match self.input.more() {
            Ok(true) => Ok(true),
            Ok(false) => match self.input.stop {
                Some(stop) => Err(self.stop_error(stop)),
                None => Ok(false),
            },
            Err(_) => Err(self.error_at(0, ErrorCode::Io, None)),
        }
    }

    fn check_len(&self, len: usize) -> Result<(), Error> {
        match self.limits.max_token_len {
            Some(max) if len > max => Err(self.error_at(0, ErrorCode::TokenLengthLimit, None)),
            _ => Ok(()),
        }
    }

    // ----- assemblies -----

    /// Reads one content assembly (maybe empty) and the tag or end of file after it.
    fn step(&mut self) -> Result<Option<Ready>, Error> {
        self.content.clear();
        self.text_range = None;
        let mut first: Option<(usize, Tracker)> = None;
        // A first text token without escapes, left in the input (which keeps all its text once
        // the source is exhausted) until a second token joins it.
        let mut borrowed: Option<(usize, usize)> = None;
        // For a borrowed token the fast path found: known to be NFC, or where the NFC scan may
        // start (`fast::TextToken::nfc_from`).
        let mut borrowed_plain: Option<u32> = None;
        let mut last_end = 0;
        let tok = loop {
            let tok = self.next_token()?;
            match tok {
                Token::Text(n) => {
                    // Known by the fast path: no escapes, no line break other than LF.
                    let fast = self.fast_text.take();
                    let pos = self.input.pos;
                    let raw = self.input.rest_bytes().get(..n).unwrap_or_default();
                    if first.is_none()
                        && self.input.exhausted()
                        && (fast.is_some() || memchr::memchr(b'&', raw).is_none())
                    {
                        borrowed = Some((pos, pos + n));
                        borrowed_plain = fast.map(|t| t.nfc_from);
                    } else {
                        if let Some((a, b)) = borrowed.take() {
                            self.content.push_str(&self.input.buf[a..b]);
                        }
                        let raw = &self.input.rest()[..n];
                        if let Err(e) = text::unescape_into(raw, &mut self.content) {
                            return Err(self.error_at(e.offset, e.code, e.value));
                        }
                    }
                    first.get_or_insert((self.input.abs(0), self.input.at));
                    match fast {
                        Some(t) => self.input.advance_known(n, t.lines),
                        None => self.input.advance(n),
                    }
                    last_end = self.input.abs(0);
                }
                Token::CData(n) => {
                    first.get_or_insert((self.input.abs(0), self.input.at));
                    if let Some((a, b)) = borrowed.take() {
                        self.content.push_str(&self.input.buf[a..b]);
                    }
                    self.content.push_str(&self.input.rest()[9..n - 3]);
                    self.input.advance(n);
                    last_end = self.input.abs(0);
                }
                Token::Comment(n) | Token::Instruction(n) => self.input.advance(n),
                Token::Doctype(n) => {
                    if self.seen_tag {
                        return Err(self.error_at(0, ErrorCode::DoctypeAfterTag, None));
                    }
                    if self.doctype_seen {
                        return Err(self.error_at(0, ErrorCode::MultipleDoctypes, None));
                    }
                    self.doctype_seen = true;
                    self.input.advance(n);
                }
                Token::Tag(_) | Token::Eof => break tok,
            }
            if let (Some(max), Some((abs, at))) = (self.limits.max_token_len, first)
                && self.content.len() + borrowed.map_or(0, |(a, b)| b - a) > max
            {
                return Err(self.error_from(at, abs, ErrorCode::TokenLengthLimit));
            }
        };
        if let Some((abs, at)) = first
            && self.finish_content(borrowed, borrowed_plain)
        {
            if self.state == StackState::Active {
                self.peeked = Some(tok);
                self.line = at.line;
                self.span = Span::new(abs, last_end);
                return Ok(Some(Ready::Text));
            }
            // "Padding content assemblies that appear before the first tag assembly or after
            // the last tag assembly are discarded by decoders."
            if !self
                .text()
                .bytes()
                .all(|b| matches!(b, b'\t' | b' ' | b'\n'))
            {
                return Err(self.error_from(at, abs, ErrorCode::StrayContent));
            }
        }
        match tok {
            Token::Tag(n) => self.tag(n).map(Some),
            _ => {
                self.end_of_file()?;
                Ok(None)
            }
        }
    }

    /// The text of the last content assembly.
    fn text(&self) -> &str {
        match self.text_range {
            Some((a, b)) => &self.input.buf[a..b],
            None => &self.content,
        }
    }

    /// Line break normalization, then NFC, in `content` (or of the `borrowed` input range,
    /// which stays borrowed when both leave it unchanged); false when the assembly is empty.
    /// `plain` is set when the fast path found the borrowed range: it holds no line break other
    /// than LF, and the value is `fast::TextToken::nfc_from` (known to be NFC, or where the NFC
    /// scan may start).
    fn finish_content(&mut self, borrowed: Option<(usize, usize)>, plain: Option<u32>) -> bool {
        if let Some((a, b)) = borrowed {
            let raw = &self.input.buf[a..b];
            let normalized = match plain {
                Some(fast::KNOWN_NFC) => Cow::Borrowed(raw),
                Some(from) => text::nfc_from(raw, from as usize),
                None => text::chain(text::normalize_line_breaks(raw), text::nfc),
            };
            match normalized {
                Cow::Borrowed(_) => self.text_range = Some((a, b)),
                Cow::Owned(o) => self.content = o,
            }
            return a < b;
        }
        if self.content.is_empty() {
            return false;
        }
        let normalized = text::chain(text::normalize_line_breaks(&self.content), text::nfc);
        if let Cow::Owned(o) = normalized {
            self.content = o;
        }
        true
    }

    /// "At the end of XML interpretation, the tag stack must be empty in "finished" state."
    fn end_of_file(&mut self) -> Result<(), Error> {
        match self.state {
            StackState::Active => Err(self.error_at(0, ErrorCode::UnclosedTags, None)),
            StackState::Initial => Err(self.error_at(0, ErrorCode::NoRootElement, None)),
            StackState::Finished => {
                self.done = true;
                Ok(())
            }
        }
    }

    /// A tag assembly of `n` bytes at the cursor: parse, empty tag expansion, tag stack,
    /// namespace processing.
    fn tag(&mut self, n: usize) -> Result<Ready, Error> {
        self.seen_tag = true;
        // The fast path has parsed this token already when it was found (`fast::tag`).
        let fast = self.fast_tag.take();
        // "Before parsing a tag token within a tag assembly, line break normalization is
        // performed on the whole tag token."
        let changed = fast.is_none()
            && match text::normalize_line_breaks(&self.input.rest()[..n]) {
                Cow::Borrowed(_) => false,
                Cow::Owned(o) => {
                    self.tag_scratch = o;
                    true
                }
            };
        self.tag_in_scratch = changed;
        self.tag_at = self.input.pos;
        self.tag_len = n;
        let raw = &self.input.buf[self.tag_at..self.tag_at + n];
        let text: &str = if changed { &self.tag_scratch } else { raw };
        let map = |off: usize| -> usize {
            if changed {
                text::map_back_line_breaks(raw, off)
            } else {
                off
            }
        };
        if fast.is_none()
            && let Err((code, off, cp)) = parse_tag(text, self.limits.max_attributes, &mut self.tag)
        {
            let off = map(off);
            return Err(self.error_at(off, code, cp));
        }
        let start = self.input.abs(0);
        self.line = self.input.at.line;
        self.span = Span::new(start, start + n);
        let name = self.tag.name.get(text);
        let ready = match self.tag.kind {
            TagType::End => {
                let Some(top) = self.name_starts.last() else {
                    return Err(self.error_at(0, ErrorCode::UnexpectedEndTag, None));
                };
                if self.names[top.start..] != *name {
                    return Err(self.error_at(0, ErrorCode::MismatchedEndTag, None));
                }
                self.close();
                Ready::End
            }
            TagType::Start | TagType::Empty => {
                if self.state == StackState::Finished {
                    return Err(self.error_at(0, ErrorCode::MultipleRoots, None));
                }
                if self
                    .limits
                    .max_depth
                    .is_some_and(|max| self.name_starts.len() >= max)
                {
                    return Err(self.error_at(0, ErrorCode::DepthLimit, None));
                }
                let mark = self.ns.mark();
                let checked = if self.tag.attrs.is_empty() && self.tag.split == Split::Local {
                    // What `declare` and `check_rewrite` give for a tag without attributes and
                    // with a name already known to have no colon: no declarations, the default
                    // namespace, no external attributes.
                    self.tag.ns = 0;
                    self.external_scratch.clear();
                    Ok(())
                } else {
                    declare(&mut self.ns, text, &self.tag.attrs).and_then(|()| {
                        check_rewrite(
                            &self.ns,
                            text,
                            name,
                            &mut self.tag.split,
                            &mut self.tag.ns,
                            &mut self.tag.attrs,
                            &mut self.external_scratch,
                        )
                    })
                };
                if let Err((code, off)) = checked {
                    self.ns.truncate(mark);
                    let off = map(off);
                    return Err(self.error_at(off, code, None));
                }
                self.scopes.push(mark);
                self.name_starts.push(Open {
                    start: self.names.len(),
                    local: match self.tag.split {
                        Split::Prefixed(k) => k + 1,
                        _ => 0,
                    },
                    ns: self.tag.ns,
                });
                self.names.push_str(name);
                self.state = StackState::Active;
                Ready::Start
            }
        };
        let empty = self.tag.kind == TagType::Empty;
        match fast {
            Some(lines) => self.input.advance_known(n, lines),
            None => self.input.advance(n),
        }
        if empty {
            // "Empty tag expansion": the end comes with the next call.
            self.pending_end = Some((self.input.at.line, Span::empty(start + n)));
        }
        Ok(ready)
    }

    /// Pops the tag stack into `closed`; the name and the namespace scope are dropped before
    /// the next event.
    fn close(&mut self) {
        self.closed = self.name_starts.pop();
        self.pending_truncate = self.scopes.pop();
        if self.name_starts.is_empty() {
            self.state = StackState::Finished;
        }
    }
}

/// "Namespace declarations": adds this tag's bindings to `ns`.
fn declare(ns: &mut Namespaces, text: &str, attrs: &[Attr]) -> Result<(), (ErrorCode, usize)> {
    for a in attrs {
        let name = a.name.get(text);
        let prefix = match a.split {
            // Known splits: the prefix of `xmlns:p` is `xmlns` and `p` is a valid prefix.
            Split::Local if name != "xmlns" => continue,
            Split::Prefixed(k) if k != 5 || !name.starts_with("xmlns") => continue,
            Split::Local => "",
            Split::Prefixed(k) => name.get(k + 1..).unwrap_or_default(),
            Split::Unchecked => {
                if name == "xmlns" {
                    ""
                } else if let Some(p) = name.strip_prefix("xmlns:") {
                    if !names::is_prefix(p) {
                        return Err((ErrorCode::InvalidNamespacePrefix, a.offset));
                    }
                    p
                } else {
                    continue;
                }
            }
        };
        if prefix == "xmlns" {
            return Err((ErrorCode::XmlnsPrefixDeclared, a.offset));
        }
        let value = a.value.get(text);
        if value.is_empty() {
            return Err((ErrorCode::EmptyNamespaceValue, a.offset));
        }
        if prefix == "xml" && value != XML_NAMESPACE {
            return Err((ErrorCode::XmlPrefixRebound, a.offset));
        }
        if prefix != "xml" && value == XML_NAMESPACE {
            return Err((ErrorCode::XmlNamespaceRebound, a.offset));
        }
        if value == XMLNS_NAMESPACE {
            return Err((ErrorCode::XmlnsNamespaceBound, a.offset));
        }
        ns.declare(prefix, value);
    }
    Ok(())
}

/// Splits `prefix:local`: exactly one colon, both parts valid names.
fn split(name: &str, offset: usize) -> Result<Split, (ErrorCode, usize)> {
    let Some(k) = memchr::memchr(b':', name.as_bytes()) else {
        return Ok(Split::Local);
    };
    let (prefix, local) = (&name[..k], &name[k + 1..]);
    if local.contains(':') {
        return Err((ErrorCode::MultipleColons, offset));
    }
    if !names::is_name(prefix) || !names::is_name(local) {
        return Err((ErrorCode::InvalidQualifiedName, offset));
    }
    Ok(Split::Prefixed(k))
}

/// "Tag rewriting", checked: prefixed names split and resolve, and no two attributes meet in
/// the external attribute map. The splits are kept for building the event; `seen` is scratch
/// space (each external attribute's prefix position in `ns` and index in `attrs`).
fn check_rewrite(
    ns: &Namespaces,
    text: &str,
    name: &str,
    name_split: &mut Split,
    name_ns: &mut usize,
    attrs: &mut [Attr],
    seen: &mut Vec<(usize, usize)>,
) -> Result<(), (ErrorCode, usize)> {
    if *name_split == Split::Unchecked {
        *name_split = split(name, 1)?;
    }
    *name_ns = match name_split.apply(name) {
        (Some(prefix), _) => ns
            .position_in_scope(prefix)
            .ok_or((ErrorCode::UndeclaredPrefix, 1))?,
        // The default namespace, in scope or not.
        (None, _) => 0,
    };
    seen.clear();
    for (k, a) in attrs.iter_mut().enumerate() {
        let name = a.name.get(text);
        if a.split == Split::Unchecked {
            a.split = split(name, a.offset)?;
        }
        let (Some(prefix), _) = a.split.apply(name) else {
            continue;
        };
        if prefix == "xmlns" {
            continue;
        }
        let position = ns
            .position_in_scope(prefix)
            .ok_or((ErrorCode::UndeclaredPrefix, a.offset))?;
        seen.push((position, k));
    }
    if seen.len() < 2 {
        return Ok(());
    }
    // (namespace, local name) of the `x`th external attribute.
    let key = |x: usize| {
        let (position, k) = seen[x];
        let a = &attrs[k];
        (ns.value(position), a.split.apply(a.name.get(text)).1)
    };
    // Report the earliest attribute that repeats an earlier (namespace, local name).
    let repeated = if seen.len() <= 8 {
        (1..seen.len()).find(|&x| (0..x).any(|y| key(x) == key(y)))
    } else {
        let mut order: Vec<usize> = (0..seen.len()).collect();
        order.sort_by(|&x, &y| key(x).cmp(&key(y)).then(x.cmp(&y)));
        order
            .windows(2)
            .filter(|w| key(w[0]) == key(w[1]))
            .map(|w| w[1])
            .min()
    };
    match repeated {
        Some(x) => Err((
            ErrorCode::DuplicateExternalAttribute,
            attrs[seen[x].1].offset,
        )),
        None => Ok(()),
    }
}

/// Every event of a document held in memory, owned.
pub fn parse_events(bytes: &[u8]) -> Result<Vec<Event<'static>>, Error> {
    let mut reader = Reader::from_bytes(bytes);
    let mut events = Vec::new();
    while let Some(e) = reader.next_owned()? {
        events.push(e);
    }
    Ok(events)
}

// ----- tag tokens -----

#[inline]
fn is_ws(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b' ')
}

/// Scans a name at `i` (up to whitespace, `/`, `>`, `=` or a quote) and checks the name rules.
fn scan_name(s: &str, i: usize) -> Result<(&str, usize), TagError> {
    let b = s.as_bytes();
    let mut j = i;
    // Fast path: ASCII name codepoints.
    while j < b.len() && (b[j].is_ascii_alphanumeric() || matches!(b[j], b'-' | b'.' | b':' | b'_'))
    {
        j += 1;
    }
    let ascii_end = j;
    while j < b.len()
        && !matches!(
            b[j],
            b'\t' | b'\n' | b' ' | b'/' | b'>' | b'=' | b'"' | b'\''
        )
    {
        j += 1;
    }
    if ascii_end == j && j > i && !matches!(b[i], b'-' | b'.' | b'0'..=b'9') {
        return Ok((&s[i..j], j));
    }
    check_name(s, i, j)
}

/// The name rules for `s[i..j]`, codepoint by codepoint.
fn check_name(s: &str, i: usize, j: usize) -> Result<(&str, usize), TagError> {
    let name = &s[i..j];
    let mut chars = name.char_indices();
    match chars.next() {
        None => return Err((ErrorCode::InvalidName, i, None)),
        Some((_, c)) if !names::is_name_start_char(c) => {
            let code = if names::is_name_char(c) {
                ErrorCode::InvalidNameStart
            } else {
                ErrorCode::InvalidName
            };
            return Err((code, i, Some(c as u32)));
        }
        Some(_) => {}
    }
    if let Some((k, c)) = chars.find(|&(_, c)| !names::is_name_char(c)) {
        return Err((ErrorCode::InvalidName, i + k, Some(c as u32)));
    }
    Ok((name, j))
}

/// Parses a line-break-normalized tag token (`<` ... `>`) into a tag assembly.
fn parse_tag(
    s: &str,
    max_attributes: Option<usize>,
    tag: &mut TagAssembly,
) -> Result<(), TagError> {
    let b = s.as_bytes();
    let last = b.len() - 1;
    let mut i = 1;
    let end = b[1] == b'/';
    if end {
        i = 2;
    }
    let (name, next) = scan_name(s, i)?;
    tag.name = Piece::of(s, name, text::nfc(name));
    tag.split = Split::Unchecked;
    i = next;
    tag.kind = if end { TagType::End } else { TagType::Start };
    let attrs = &mut tag.attrs;
    attrs.clear();
    loop {
        let ws_start = i;
        while i < last && is_ws(b[i]) {
            i += 1;
        }
        match b[i] {
            b'>' => break,
            b'/' => {
                if end {
                    return Err((ErrorCode::EndAndEmptyTag, i, None));
                }
                if i + 1 != last {
                    return Err((ErrorCode::MalformedTag, i, None));
                }
                tag.kind = TagType::Empty;
                break;
            }
            _ => {
                if end {
                    return Err((ErrorCode::EndTagAttributes, i, None));
                }
                if i == ws_start {
                    return Err((ErrorCode::MissingAttributeWhitespace, i, None));
                }
                let offset = i;
                let (aname, next) = scan_name(s, i)?;
                i = next;
                while i < last && is_ws(b[i]) {
                    i += 1;
                }
                if b[i] != b'=' {
                    return Err((ErrorCode::MissingEquals, i, None));
                }
                i += 1;
                while i < last && is_ws(b[i]) {
                    i += 1;
                }
                let q = b[i];
                if q != b'"' && q != b'\'' {
                    return Err((ErrorCode::UnquotedAttributeValue, i, None));
                }
                let Some(close) = memchr::memchr(q, &b[i + 1..]) else {
                    return Err((ErrorCode::MalformedTag, i, None));
                };
                let raw = &s[i + 1..i + 1 + close];
                if let Some(k) = memchr::memchr(b'<', raw.as_bytes()) {
                    return Err((ErrorCode::LtInAttributeValue, i + 1 + k, None));
                }
                // "Each attribute value is decoded first by entity escaping, second by
                // whitespace compression, and third by Unicode normalization to NFC."
                let value = text::unescape(raw).map_err(|e| (e.code, i + 1 + e.offset, e.value))?;
                let value = text::chain(value, text::compress_whitespace);
                let value = text::chain(value, text::nfc);
                if max_attributes.is_some_and(|max| attrs.len() >= max) {
                    return Err((ErrorCode::AttributeLimit, offset, None));
                }
                attrs.push(Attr {
                    name: Piece::of(s, aname, text::nfc(aname)),
                    value: Piece::of(s, raw, value),
                    offset,
                    split: Split::Unchecked,
                });
                i += close + 2;
            }
        }
    }
    check_duplicates(s, attrs)
}

/// "It is an error if the same tag has more than one attribute with the same attribute name."
/// Reports the earliest attribute that repeats an earlier name.
#[inline]
fn check_duplicates(s: &str, attrs: &[Attr]) -> Result<(), TagError> {
    if attrs.len() < 2 {
        return Ok(());
    }
    if attrs.len() <= 8 {
        for (k, a) in attrs.iter().enumerate() {
            if attrs[..k].iter().any(|b| b.name.get(s) == a.name.get(s)) {
                return Err((ErrorCode::DuplicateAttribute, a.offset, None));
            }
        }
        return Ok(());
    }
    let mut order: Vec<usize> = (0..attrs.len()).collect();
    order.sort_by(|&x, &y| {
        attrs[x]
            .name
            .get(s)
            .cmp(attrs[y].name.get(s))
            .then(x.cmp(&y))
    });
    let repeated = order
        .windows(2)
        .filter(|w| attrs[w[0]].name.get(s) == attrs[w[1]].name.get(s))
        .map(|w| w[1])
        .min();
    match repeated {
        Some(k) => Err((ErrorCode::DuplicateAttribute, attrs[k].offset, None)),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Scoping works the same below and above the linear-search threshold.
    #[test]
    fn namespace_scopes() {
        let mut ns = Namespaces::new();
        let mut marks = Vec::new();
        for i in 0..40 {
            marks.push(ns.mark());
            ns.declare(&format!("p{}", i % 25), &format!("urn:{i}"));
            ns.declare("", &format!("urn:d{i}"));
        }
        assert_eq!(ns.lookup("p3"), Some("urn:28"));
        assert_eq!(ns.lookup(""), Some("urn:d39"));
        assert_eq!(ns.lookup("xml"), Some(XML_NAMESPACE));
        while let Some(mark) = marks.pop() {
            ns.truncate(mark);
            if marks.len() == 20 {
                assert_eq!(ns.lookup("p3"), Some("urn:3"));
                assert_eq!(ns.lookup("p24"), None);
                assert_eq!(ns.lookup(""), Some("urn:d19"));
            }
        }
        assert_eq!(ns.lookup("p3"), None);
        assert_eq!(ns.lookup(""), None);
        assert_eq!(ns.lookup("xmlns"), Some(XMLNS_NAMESPACE));
    }

    /// The ASCII fast path of `scan_name` agrees with the codepoint rules.
    #[test]
    fn scan_name_fast_path() {
        let alphabet = [
            'a', 'Z', '0', '-', '.', ':', '_', '<', '!', 'é', '\u{300}', '\u{b7}', ' ', '>',
        ];
        let mut names = vec![String::new()];
        for _ in 0..3 {
            let mut longer = Vec::new();
            for n in &names {
                for c in alphabet {
                    longer.push(format!("{n}{c}"));
                }
            }
            names.extend(longer);
        }
        for n in names {
            let s = format!("{n}>");
            let b = s.as_bytes();
            let mut j = 0;
            while !matches!(
                b[j],
                b'\t' | b'\n' | b' ' | b'/' | b'>' | b'=' | b'"' | b'\''
            ) {
                j += 1;
            }
            assert_eq!(scan_name(&s, 0), check_name(&s, 0, j), "{s:?}");
        }
    }
}
