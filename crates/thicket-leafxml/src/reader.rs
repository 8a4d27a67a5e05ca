//! The pull decoder: tokens, token filtering, assemblies, empty tag expansion, the tag stack and
//! namespace processing, each in the order the spec gives them.

use std::borrow::Cow;
use std::io::Read;

use thicket_input::Span;

use crate::error::{Error, ErrorCode};
use crate::event::{Attributes, Event, EventKind};
use crate::input::{Input, NO_PIN, Stop, Tracker};
use crate::text;

mod attributes;
mod dedup;
mod fast;
mod namespaces;
mod tag;
mod token;

pub(crate) use attributes::{TagAttributes, TagExternal, TagLocal, TagWritten};
use namespaces::{Namespaces, check_rewrite, declare};
use tag::{MAX_TAG, Split, TagAssembly, TagError, TagLimits, TagType, parse_tag};
use token::Token;

/// The namespace the `xml` prefix is bound to.
pub const XML_NAMESPACE: &str = "http://www.w3.org/XML/1998/namespace";
/// The namespace the `xmlns` prefix is bound to.
pub const XMLNS_NAMESPACE: &str = "http://www.w3.org/2000/xmlns/";

const DEFAULT_CHUNK: usize = 64 * 1024;

/// Optional limits for untrusted input (the shared [`thicket_input::Limits`]). Every limit is
/// off by default. LeafXML honours `max_depth`, `max_attributes`, `max_name_len`,
/// `max_value_len`, `max_namespace_declarations` and `max_token_len`, each a fatal error with
/// its own code; `max_diagnostics` does not apply (LeafXML stops at its one error). See
/// docs/leafxml.md.
pub use thicket_input::Limits;

/// "Tag stack": its state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum StackState {
    Initial,
    Active,
    Finished,
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
    /// The last event's line, span and skipped input.
    line: u32,
    span: Span,
    skipped: Span,
    /// Where the last event's span ended: the next event's skipped input starts here.
    prev_end: usize,
    /// The input after the last event, once the end is reached.
    trailing: Option<Span>,
    /// The longest tag the tag fast path takes (within every length limit).
    fast_tag_max: usize,
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

    /// A reader over a byte source read `read_size` bytes at a time (at least 16), so that
    /// tests can make the window drain often. Events and errors are the same for every size.
    #[doc(hidden)]
    pub fn with_read_size(src: R, read_size: usize) -> Reader<R> {
        Reader::with_input(Input::new(src, read_size))
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
            tag: TagAssembly::new(),
            tag_at: 0,
            tag_len: 0,
            tag_in_scratch: false,
            tag_scratch: String::new(),
            line: 1,
            span: Span::empty(0),
            skipped: Span::empty(0),
            prev_end: 0,
            trailing: None,
            fast_tag_max: fast::MAX_TOKEN,
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
        // A tag no longer than every name and value limit has no name or value over one, so
        // the fast path checks none.
        self.fast_tag_max = [limits.max_name_len, limits.max_value_len]
            .into_iter()
            .flatten()
            .fold(fast::MAX_TOKEN, usize::min);
        self
    }

    /// Once [`next_event`](Reader::next_event) has returned `Ok(None)`: the input after the
    /// last event's span (whitespace, comments and instructions after the root element), so
    /// that the events' [`skipped`](Event::skipped) and [`span`](Event::span), in order, and
    /// this span tile the decoded text. `None` before the end.
    pub fn trailing(&self) -> Option<Span> {
        self.trailing
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
            self.skipped = Span::empty(span.start);
            return Ok(Some(Ready::End));
        }
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        if self.done {
            return Ok(None);
        }
        match self.step() {
            Ok(Some(ready)) => {
                self.skipped = Span::new(self.prev_end, self.span.start);
                self.prev_end = self.span.end;
                Ok(Some(ready))
            }
            Ok(None) => {
                self.trailing = Some(Span::new(self.prev_end, self.input.abs(0)));
                Ok(None)
            }
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
                let name = self.tag.name.get(text, &self.tag.decoded);
                let namespace = self.ns.value(self.tag.ns);
                let local = self.tag.split.apply(name).1;
                let attributes = Attributes::from_tag(TagAttributes {
                    text,
                    tag: &self.tag,
                    // `check_rewrite` left the external attributes here, with their prefixes
                    // resolved.
                    external: &self.external_scratch,
                    ns: &self.ns,
                    base: self.span.start,
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
            skipped: self.skipped,
        }
    }

    // ----- positions and errors -----

    /// An error at the codepoint `rel` bytes past the cursor (its span covers that codepoint;
    /// it is empty at the end of the text).
    #[cold]
    fn error_at(&self, rel: usize, code: ErrorCode, codepoint: Option<u32>) -> Error {
        let at = self.input.pos + rel;
        // Past the text (an invalid codepoint stops the text before itself) the codepoint
        // tells the length.
        let len = match self.input.buf.get(at..).and_then(|s| s.chars().next()) {
            Some(c) => c.len_utf8(),
            None => codepoint.and_then(char::from_u32).map_or(0, char::len_utf8),
        };
        self.error_span(rel, rel + len, code, codepoint)
    }

    /// An error over `start..end`, offsets past the cursor.
    #[cold]
    fn error_span(
        &self,
        start: usize,
        end: usize,
        code: ErrorCode,
        codepoint: Option<u32>,
    ) -> Error {
        let (line, column) = self.input.line_col(start);
        let abs = self.input.abs(start);
        Error {
            code,
            line,
            column,
            byte_offset: abs as u64,
            span: Span::new(abs, self.input.abs(end.max(start))),
            codepoint,
        }
    }

    /// An error over `abs..end` (absolute offsets), which starts where `at` was.
    #[cold]
    fn error_from(&self, at: Tracker, abs: usize, end: usize, code: ErrorCode) -> Error {
        Error {
            code,
            line: at.line,
            column: at.col.saturating_add(1),
            byte_offset: abs as u64,
            span: Span::new(abs, end.max(abs)),
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
            Err(_) => Err(self.error_span(0, 0, ErrorCode::Io, None)),
        }
    }

    /// `token-length-limit` for a token of which `len` bytes are known.
    fn check_len(&self, len: usize) -> Result<(), Error> {
        match self.limits.max_token_len {
            Some(max) if len > max => Err(self.token_too_long(max)),
            _ => Ok(()),
        }
    }

    /// `check_len` for tag tokens, whose offsets must also fit in a `u32` (`MAX_TAG`).
    fn check_tag_len(&self, len: usize) -> Result<(), Error> {
        if len > MAX_TAG {
            return Err(self.token_too_long(MAX_TAG));
        }
        self.check_len(len)
    }

    /// `token-length-limit` over the first `max` bytes of the token at the cursor and the
    /// codepoint that passes them (however much of the token is buffered).
    #[cold]
    fn token_too_long(&self, max: usize) -> Error {
        let rest = self.input.rest();
        let end = (max + 1..=rest.len())
            .find(|&k| rest.is_char_boundary(k))
            .unwrap_or(rest.len());
        self.error_span(0, end, ErrorCode::TokenLengthLimit, None)
    }

    // ----- assemblies -----

    /// Reads one content assembly (maybe empty) and the tag or end of file after it.
    fn step(&mut self) -> Result<Option<Ready>, Error> {
        self.content.clear();
        self.text_range = None;
        self.input.pin = NO_PIN;
        let mut first: Option<(usize, Tracker)> = None;
        // A first text token without escapes (absolute offsets), left in the input, which is
        // pinned so as not to drop it, until a second token joins it (or a filtered token
        // follows it in a source still being read: the pin would keep that token too).
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
                    let raw = self.input.rest_bytes().get(..n).unwrap_or_default();
                    if first.is_none() && (fast.is_some() || memchr::memchr(b'&', raw).is_none()) {
                        let at = self.input.abs(0);
                        borrowed = Some((at, at + n));
                        borrowed_plain = fast.map(|t| t.nfc_from);
                        self.input.pin = at;
                    } else {
                        self.unborrow(&mut borrowed);
                        let raw = &self.input.rest()[..n];
                        if let Err(e) = text::unescape_into(raw, &mut self.content) {
                            return Err(self.error_span(e.offset, e.end, e.code, e.value));
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
                    self.unborrow(&mut borrowed);
                    self.content.push_str(&self.input.rest()[9..n - 3]);
                    self.input.advance(n);
                    last_end = self.input.abs(0);
                }
                Token::Comment(n) | Token::Instruction(n) => {
                    if borrowed.is_some() && !self.input.exhausted() {
                        self.unborrow(&mut borrowed);
                    }
                    self.input.advance(n);
                }
                Token::Doctype(n) => {
                    if self.seen_tag {
                        return Err(self.error_span(0, n, ErrorCode::DoctypeAfterTag, None));
                    }
                    if self.doctype_seen {
                        return Err(self.error_span(0, n, ErrorCode::MultipleDoctypes, None));
                    }
                    self.doctype_seen = true;
                    if borrowed.is_some() && !self.input.exhausted() {
                        self.unborrow(&mut borrowed);
                    }
                    self.input.advance(n);
                }
                Token::Tag(_) | Token::Eof => break tok,
            }
            if let (Some(max), Some((abs, at))) = (self.limits.max_token_len, first)
                && self.content.len() + borrowed.map_or(0, |(a, b)| b - a) > max
            {
                let end = self.input.abs(0);
                return Err(self.error_from(at, abs, end, ErrorCode::TokenLengthLimit));
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
                return Err(self.error_from(at, abs, last_end, ErrorCode::StrayContent));
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

    /// Moves a borrowed first text token into `content` and unpins the input.
    fn unborrow(&mut self, borrowed: &mut Option<(usize, usize)>) {
        if let Some((a, b)) = borrowed.take() {
            let base = self.input.base;
            self.content.push_str(&self.input.buf[a - base..b - base]);
            self.input.pin = NO_PIN;
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
    /// absolute offsets, which stays borrowed when both leave it unchanged); false when the
    /// assembly is empty.
    /// `plain` is set when the fast path found the borrowed range: it holds no line break other
    /// than LF, and the value is `fast::TextToken::nfc_from` (known to be NFC, or where the NFC
    /// scan may start).
    fn finish_content(&mut self, borrowed: Option<(usize, usize)>, plain: Option<u32>) -> bool {
        if let Some((a, b)) = borrowed {
            let (a, b) = (a - self.input.base, b - self.input.base);
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
            StackState::Active => Err(self.error_span(0, 0, ErrorCode::UnclosedTags, None)),
            StackState::Initial => Err(self.error_span(0, 0, ErrorCode::NoRootElement, None)),
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
        // Errors inside the tag, over offsets of the normalized text mapped back.
        let tag_error = |e: TagError| -> (usize, usize, ErrorCode, Option<u32>) {
            let (start, end) = if changed {
                (
                    text::map_back_line_breaks(raw, e.start),
                    text::map_back_line_breaks(raw, e.end),
                )
            } else {
                (e.start, e.end)
            };
            (start, end, e.code, e.codepoint)
        };
        if fast.is_none() {
            let limits = TagLimits {
                max_attributes: self.limits.max_attributes,
                max_name_len: self.limits.max_name_len,
                max_value_len: self.limits.max_value_len,
            };
            if let Err(e) = parse_tag(text, limits, &mut self.tag) {
                let (start, end, code, cp) = tag_error(e);
                return Err(if start == end {
                    self.error_at(start, code, cp)
                } else {
                    self.error_span(start, end, code, cp)
                });
            }
            if changed {
                self.tag.map_written(raw);
            }
        }
        let start = self.input.abs(0);
        self.line = self.input.at.line;
        self.span = Span::new(start, start + n);
        let ready = match self.tag.kind {
            TagType::End => {
                let Some(top) = self.name_starts.last() else {
                    return Err(self.error_span(0, n, ErrorCode::UnexpectedEndTag, None));
                };
                if self.names[top.start..] != *self.tag.name.get(text, &self.tag.decoded) {
                    return Err(self.error_span(0, n, ErrorCode::MismatchedEndTag, None));
                }
                self.close();
                Ready::End
            }
            TagType::Start | TagType::Empty => {
                if self.state == StackState::Finished {
                    return Err(self.error_span(0, n, ErrorCode::MultipleRoots, None));
                }
                if self
                    .limits
                    .max_depth
                    .is_some_and(|max| self.name_starts.len() >= max)
                {
                    return Err(self.error_span(0, n, ErrorCode::DepthLimit, None));
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
                    let max = self.limits.max_namespace_declarations;
                    declare(&mut self.ns, &self.tag, text, max).and_then(|()| {
                        check_rewrite(&self.ns, text, &mut self.tag, &mut self.external_scratch)
                    })
                };
                if let Err((code, start, end)) = checked {
                    self.ns.truncate(mark);
                    let (start, end, code, _) = tag_error(TagError::over(code, start, end));
                    return Err(self.error_span(start, end, code, None));
                }
                self.scopes.push(mark);
                self.name_starts.push(Open {
                    start: self.names.len(),
                    local: match self.tag.split {
                        Split::Prefixed(k) => k as usize + 1,
                        _ => 0,
                    },
                    ns: self.tag.ns,
                });
                self.names
                    .push_str(self.tag.name.get(text, &self.tag.decoded));
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

/// Every event of a document held in memory, owned.
pub fn parse_events(bytes: &[u8]) -> Result<Vec<Event<'static>>, Error> {
    let mut reader = Reader::from_bytes(bytes);
    let mut events = Vec::new();
    while let Some(e) = reader.next_owned()? {
        events.push(e);
    }
    Ok(events)
}
