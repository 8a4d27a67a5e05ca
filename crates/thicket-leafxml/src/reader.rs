//! The decoder: tokens, token filtering, assemblies, empty tag expansion, the tag stack and
//! namespace processing, each in the order the spec gives them, over the shared cursor.
//!
//! The reader is resumable: everything it knows between two calls is in its fields (the token
//! scan that stopped for more input, the content assembly so far, the tag stack), never on the
//! call stack. A step that runs out of buffered text answers [`Halt::Wait`]; the pull reader
//! then reads the next chunk from its `io::Read` and steps again, the push reader returns to
//! its caller, who feeds the next chunk. Either way the same steps see the same text, so pull
//! and push give the same events and errors however the input is split.

use std::borrow::Cow;
use std::io::Read;

use thicket_input::Span;
use thicket_input::cursor::NeedMore;

use crate::error::{Error, ErrorCode};
use crate::event::{Attributes, Event, EventKind};
use crate::input::{Push, Source, Stop, Text};

mod attributes;
mod content;
mod dedup;
mod fast;
mod namespaces;
mod tag;
mod token;

pub(crate) use attributes::{TagAttributes, TagExternal, TagLocal, TagWritten};
use content::Assembly;
use namespaces::{Namespaces, check_rewrite, declare};
use tag::{Split, TagAssembly, TagError, TagLimits, TagType, parse_tag};
use token::{Scan, Token};

/// The namespace the `xml` prefix is bound to.
pub const XML_NAMESPACE: &str = "http://www.w3.org/XML/1998/namespace";
/// The namespace the `xmlns` prefix is bound to.
pub const XMLNS_NAMESPACE: &str = "http://www.w3.org/2000/xmlns/";

const DEFAULT_CHUNK: usize = 64 * 1024;

/// Optional limits for untrusted input (the shared [`thicket_input::Limits`]). Every limit is
/// off by default. LeafXML honours `max_depth`, `max_attributes`, `max_name_len`,
/// `max_value_len`, `max_namespace_declarations`, `max_namespace_bytes` and `max_token_len`,
/// each a fatal error with
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

/// Drops the prefixes out of scope from the namespace table, and remaps the positions the open
/// elements keep (and the element just closed, should one be pending).
#[cold]
fn compact_namespaces(ns: &mut Namespaces, open: &mut [Open], closed: &mut Option<Open>) {
    let map = ns.compact();
    let at = |k: usize| map.get(k).copied().flatten().unwrap_or(0);
    for o in open.iter_mut().chain(closed.as_mut()) {
        o.ns = at(o.ns);
    }
}

/// What the next event is, once the reader's state is updated; the event borrows from that
/// state.
#[derive(Clone, Copy, Debug)]
enum Ready {
    Text,
    Start,
    End,
    /// With `with_markup_events`: the filtered token at `Reader::span`.
    Comment,
    Instruction,
    Doctype,
}

/// Why a step stopped without an event: the buffered text ran out before the answer is known
/// (more may come: `thicket_input`'s one way to wait, `NeedMore`, carried beside the error), or
/// the document is in error. An error's line and column are filled in by `Reader::advance`,
/// from its span's start.
#[derive(Debug)]
pub(crate) enum Halt {
    Wait,
    Fail(Box<Error>),
}

impl From<Error> for Halt {
    #[cold]
    fn from(e: Error) -> Halt {
        Halt::Fail(Box::new(e))
    }
}

impl From<NeedMore> for Halt {
    #[inline]
    fn from(_: NeedMore) -> Halt {
        Halt::Wait
    }
}

/// The strict LeafXML decoder: a pull reader over bytes in memory ([`Reader::from_bytes`]) or
/// any `io::Read` ([`Reader::new`]), or a push reader the caller feeds ([`Reader::push`]).
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
///
/// Pushed, the same document in any pieces gives the same events; `next_event` answers
/// `Ok(None)` while it needs more input, and after [`finish`](Reader::finish) at the end:
///
/// ```
/// use thicket_leafxml::Reader;
///
/// let mut reader = Reader::push();
/// let mut dump = Vec::new();
/// for chunk in [&b"<a x='"[..], b"1'>h", b"i</", b"a>"] {
///     reader.feed(chunk);
///     while let Some(event) = reader.next_event()? {
///         dump.push(event.kind.to_string());
///     }
/// }
/// reader.finish();
/// while let Some(event) = reader.next_event()? {
///     dump.push(event.kind.to_string());
/// }
/// assert_eq!(dump, ["start a x=\"1\"", "text \"hi\"", "end a"]);
/// assert!(reader.trailing().is_some()); // the end, not a wait
/// # Ok::<(), thicket_leafxml::Error>(())
/// ```
pub struct Reader<'a, S = Push> {
    src: S,
    text: Text<'a>,
    limits: Limits,
    /// A token found after a content assembly, handled on the next call.
    peeked: Option<Token>,
    /// The token scan that stopped for more input.
    scan: Scan,
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
    /// The last tag assembly and where its (line-break normalized) text is: the input at
    /// `tag_start..tag_start + tag_len`, or `tag_scratch` when normalization changed it.
    tag: TagAssembly,
    tag_start: usize,
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
    /// The content assembly being read (and, after a `Text` event, its text).
    asm: Assembly,
    failed: Option<Error>,
    done: bool,
    /// False to take the general code only (for testing the fast paths against it).
    fast: bool,
    /// Set when the fast path parsed the tag token just found into `tag`.
    fast_tag: bool,
    /// Set when the fast path found the text token just found (`fast::text`).
    fast_text: Option<fast::TextToken>,
    /// Scratch space for `check_rewrite`.
    external_scratch: Vec<(usize, usize)>,
    /// Comments, instructions and the DOCTYPE are events (`with_markup_events`).
    markup: bool,
    /// The text of the last such event (absolute).
    markup_text: (usize, usize),
}

impl<S> std::fmt::Debug for Reader<'_, S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reader")
            .field("offset", &self.text.cursor.offset())
            .field("buffered", &self.text.cursor.buffered())
            .field("finished", &self.text.cursor.is_finished())
            .field("depth", &self.name_starts.len())
            .field("limits", &self.limits)
            .field("failed", &self.failed)
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}

impl<'a> Reader<'a, &'a [u8]> {
    /// A reader over bytes held in memory: decoded at once, and borrowed rather than copied
    /// when they are UTF-8 already.
    pub fn from_bytes(bytes: &'a [u8]) -> Reader<'a, &'a [u8]> {
        Reader::with_text(&[][..], Text::whole(bytes))
    }
}

impl<R: Read> Reader<'static, R> {
    /// A reader over any byte source, read in 64 KiB chunks; memory stays bounded by the longest
    /// token or content assembly.
    pub fn new(src: R) -> Reader<'static, R> {
        Reader::with_text(src, Text::streaming(DEFAULT_CHUNK))
    }

    /// A reader over a byte source read `read_size` bytes at a time (at least 16), so that
    /// tests can make the window drain often. Events and errors are the same for every size.
    #[doc(hidden)]
    pub fn with_read_size(src: R, read_size: usize) -> Reader<'static, R> {
        Reader::with_text(src, Text::streaming(read_size))
    }
}

impl Reader<'static, Push> {
    /// A reader the caller feeds: [`feed`](Reader::feed) bytes in chunks of any size,
    /// [`finish`](Reader::finish) at the end, and take the events in between with
    /// [`next_event`](Reader::next_event), which answers `Ok(None)` when it needs more input
    /// (until `finish`, after which `Ok(None)` is the end). The events, errors and spans are
    /// those of [`Reader::from_bytes`] over the same bytes, however they are split.
    pub fn push() -> Reader<'static, Push> {
        Reader::with_text(Push, Text::streaming(DEFAULT_CHUNK))
    }

    /// Hands the reader the next bytes of the input. The reader holds only what it has not
    /// finished with: what it has read past is dropped as more arrives.
    pub fn feed(&mut self, bytes: &[u8]) {
        self.compact();
        self.text.feed(bytes);
    }

    /// Ends the input: no more bytes come.
    pub fn finish(&mut self) {
        self.text.finish();
    }
}

impl<'a, S> Reader<'a, S> {
    fn with_text(src: S, text: Text<'a>) -> Reader<'a, S> {
        Reader {
            src,
            text,
            limits: Limits::default(),
            peeked: None,
            scan: Scan::NONE,
            state: StackState::Initial,
            names: String::new(),
            name_starts: Vec::new(),
            closed: None,
            pending_truncate: None,
            pending_end: None,
            tag: TagAssembly::new(),
            tag_start: 0,
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
            asm: Assembly::default(),
            failed: None,
            done: false,
            fast: true,
            fast_tag: false,
            fast_text: None,
            external_scratch: Vec::new(),
            markup: false,
            markup_text: (0, 0),
        }
    }

    /// Sets the limits for untrusted input.
    pub fn with_limits(mut self, limits: Limits) -> Reader<'a, S> {
        self.limits = limits;
        // A tag no longer than every name and value limit has no name or value over one, so
        // the fast path checks none.
        self.fast_tag_max = [limits.max_name_len, limits.max_value_len]
            .into_iter()
            .flatten()
            .fold(fast::MAX_TOKEN, usize::min);
        self
    }

    /// Reports the tokens that token filtering discards (comments, instructions, the DOCTYPE)
    /// as [`EventKind::Comment`](crate::EventKind::Comment),
    /// [`EventKind::Instruction`](crate::EventKind::Instruction) and
    /// [`EventKind::Doctype`](crate::EventKind::Doctype) events, in document order, each with
    /// its span (the token) and `skipped` input, so that the tiling of the text holds. Off by
    /// default. The spec's token filtering still applies: the errors are the same and a content
    /// assembly is still one assembly for the padding and stray-content rules, but inside the
    /// root element a content assembly that holds such a token is handed out as one `Text`
    /// event per run of text and CDATA tokens between them (each decoded as an assembly is;
    /// docs/leafxml.md, "Markup events").
    ///
    /// ```
    /// use thicket_leafxml::Reader;
    ///
    /// let mut reader = Reader::from_bytes(b"<!DOCTYPE r><r>a<!--c-->b<?p d?></r>").with_markup_events(true);
    /// let mut dump = Vec::new();
    /// while let Some(event) = reader.next_event()? {
    ///     dump.push(format!("{} {}", event.kind, event.span));
    /// }
    /// assert_eq!(
    ///     dump,
    ///     ["doctype r 0..12", "start r 12..15", "text \"a\" 15..16", "comment \"c\" 16..24",
    ///      "text \"b\" 24..25", "instruction p \"d\" 25..32", "end r 32..36"]
    /// );
    /// # Ok::<(), thicket_leafxml::Error>(())
    /// ```
    pub fn with_markup_events(mut self, on: bool) -> Reader<'a, S> {
        self.markup = on;
        self
    }

    /// Once [`next_event`](Reader::next_event) has returned `Ok(None)` at the end: the input
    /// after the last event's span (whitespace, comments and instructions after the root
    /// element), so that the events' [`skipped`](Event::skipped) and [`span`](Event::span), in
    /// order, and this span tile the decoded text. `None` before the end (and while a push
    /// reader waits for input).
    pub fn trailing(&self) -> Option<Span> {
        self.trailing
    }

    /// Turns the fast paths off, so that every token goes through the general code. The events
    /// and errors are the same either way; this exists to test that.
    #[doc(hidden)]
    pub fn without_fast_paths(mut self) -> Reader<'a, S> {
        self.fast = false;
        self
    }

    /// Bytes of decoded text the reader holds right now (its window over the input). Read or
    /// pushed in chunks, this stays near the chunk size plus the longest token.
    pub fn buffered(&self) -> usize {
        self.text.cursor.buffered()
    }
}

impl<'a, S: Source> Reader<'a, S> {
    /// The next event; `Ok(None)` after the end of the root element and a clean end of input
    /// (and, for a push reader before [`finish`](Reader::finish), when it needs more input);
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

    /// The next event, owned.
    pub fn next_owned(&mut self) -> Result<Option<Event<'static>>, Error> {
        Ok(self.next_event()?.map(Event::into_owned))
    }

    /// Moves the reader to the next event: what it is, or `None` at the end (or while a push
    /// reader waits), or the error.
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
        loop {
            match self.step() {
                Ok(Some(ready)) => {
                    self.skipped = Span::new(self.prev_end, self.span.start);
                    self.prev_end = self.span.end;
                    return Ok(Some(ready));
                }
                Ok(None) => {
                    self.trailing = Some(Span::new(self.prev_end, self.text.cursor.offset()));
                    return Ok(None);
                }
                Err(Halt::Fail(e)) => return Err(self.fail(*e)),
                Err(Halt::Wait) => {
                    self.compact();
                    let Some(src) = self.src.pull() else {
                        // Pushed: the caller feeds more.
                        return Ok(None);
                    };
                    if self.text.read(src).is_err() {
                        let offset = self.text.cursor.offset();
                        let e = self.error_over(offset, offset, ErrorCode::Io, None);
                        return Err(self.fail(e));
                    }
                }
            }
        }
    }

    /// Records the error (its line and column found from its span) and returns it.
    #[cold]
    fn fail(&mut self, mut e: Error) -> Error {
        let (line, column) = match self.asm.position_of(e.span.start) {
            Some(known) => known,
            None => self.text.line_col(e.span.start),
        };
        e.line = line;
        e.column = column;
        self.failed = Some(e.clone());
        e
    }
}

impl<'a, S> Reader<'a, S> {
    /// Drops the text the reader has finished with: everything before the token at the
    /// position, and before the content assembly while it is a range of the input.
    fn compact(&mut self) {
        let offset = self.text.cursor.offset();
        let keep = self.asm.keep(offset);
        if let Some(start) = self.asm.start()
            && start < keep
        {
            // The assembly's start leaves the buffer: keep its column for its errors.
            let (_, column) = self.text.line_col(start);
            self.asm.set_column(column);
        }
        self.text.compact(keep, &mut [self.asm.acc_mut()]);
    }

    /// The text of the last tag token (line-break normalized).
    fn tag_text(&self) -> &str {
        if self.tag_in_scratch {
            &self.tag_scratch
        } else {
            self.text
                .cursor
                .slice(self.tag_start, self.tag_start + self.tag_len)
        }
    }

    /// The text of the last comment, instruction or DOCTYPE event.
    fn markup_text(&self) -> &str {
        self.text
            .cursor
            .slice(self.markup_text.0, self.markup_text.1)
    }

    /// Builds the event `ready` from the reader's state.
    #[inline]
    fn build(&self, ready: Ready) -> Event<'_> {
        let kind = match ready {
            Ready::Text => EventKind::Text(Cow::Borrowed(self.asm.text(&self.text.cursor))),
            Ready::Comment => EventKind::Comment(Cow::Borrowed(self.markup_text())),
            Ready::Instruction => EventKind::Instruction(Cow::Borrowed(self.markup_text())),
            Ready::Doctype => EventKind::Doctype(Cow::Borrowed(self.markup_text())),
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

    // ----- errors (line and column are filled in by `fail`) -----

    /// An error over absolute `start..end`.
    #[cold]
    fn error_over(
        &self,
        start: usize,
        end: usize,
        code: ErrorCode,
        codepoint: Option<u32>,
    ) -> Error {
        Error {
            code,
            line: 0,
            column: 0,
            byte_offset: start as u64,
            span: Span::new(start, end.max(start)),
            codepoint,
        }
    }

    /// An error over `start..end`, offsets past the position.
    #[cold]
    fn error_span(
        &self,
        start: usize,
        end: usize,
        code: ErrorCode,
        codepoint: Option<u32>,
    ) -> Error {
        let at = self.text.cursor.offset();
        self.error_over(at + start, at + end.max(start), code, codepoint)
    }

    /// An error at the codepoint `rel` bytes past the position (its span covers that
    /// codepoint; it is empty at the end of the text).
    #[cold]
    fn error_at(&self, rel: usize, code: ErrorCode, codepoint: Option<u32>) -> Error {
        // Past the text (an invalid codepoint stops the text before itself) the codepoint
        // tells the length.
        let len = match self
            .text
            .cursor
            .rest()
            .get(rel..)
            .and_then(|s| s.chars().next())
        {
            Some(c) => c.len_utf8(),
            None => codepoint.and_then(char::from_u32).map_or(0, char::len_utf8),
        };
        self.error_span(rel, rel + len, code, codepoint)
    }

    /// The error that ended the text early, at the end of the text.
    #[cold]
    fn stop_error(&self, stop: Stop) -> Error {
        let rel = self.text.cursor.available();
        let mut e = self.error_at(rel, stop.code, stop.codepoint);
        if let Some(off) = stop.input_offset {
            e.byte_offset = off;
        }
        e
    }

    /// `token-length-limit` for a token of which `len` bytes are known.
    #[inline]
    fn check_len(&self, len: usize) -> Result<(), Error> {
        match self.limits.max_token_len {
            Some(max) if len > max => Err(self.token_too_long(max)),
            _ => Ok(()),
        }
    }

    /// `token-length-limit` over the first `max` bytes of the token at the position and the
    /// codepoint that passes them (more than `max` bytes of it are buffered).
    #[cold]
    fn token_too_long(&self, max: usize) -> Error {
        let rest = self.text.cursor.rest();
        let end = (max + 1..=rest.len())
            .find(|&k| rest.is_char_boundary(k))
            .unwrap_or(rest.len());
        self.error_span(0, end, ErrorCode::TokenLengthLimit, None)
    }

    // ----- the tag stack -----

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

    /// A tag assembly of `n` bytes at the position: parse, empty tag expansion, tag stack,
    /// namespace processing.
    fn tag(&mut self, n: usize) -> Result<Ready, Error> {
        self.seen_tag = true;
        // The fast path has parsed this token already when it was found (`fast::tag`).
        let fast = std::mem::take(&mut self.fast_tag);
        let start = self.text.cursor.offset();
        let raw = &self.text.cursor.rest()[..n];
        // "Before parsing a tag token within a tag assembly, line break normalization is
        // performed on the whole tag token."
        let changed = !fast
            && match crate::text::normalize_line_breaks(raw) {
                Cow::Borrowed(_) => false,
                Cow::Owned(o) => {
                    self.tag_scratch = o;
                    true
                }
            };
        self.tag_in_scratch = changed;
        self.tag_start = start;
        self.tag_len = n;
        let text: &str = if changed { &self.tag_scratch } else { raw };
        // Errors inside the tag, over offsets of the normalized text mapped back.
        let map = |e: TagError| -> TagError {
            if changed {
                TagError {
                    start: crate::text::map_back_line_breaks(raw, e.start),
                    end: crate::text::map_back_line_breaks(raw, e.end),
                    ..e
                }
            } else {
                e
            }
        };
        if !fast {
            let limits = TagLimits {
                max_attributes: self.limits.max_attributes,
                max_name_len: self.limits.max_name_len,
                max_value_len: self.limits.max_value_len,
            };
            if let Err(e) = parse_tag(text, limits, &mut self.tag) {
                return Err(self.tag_error(map(e)));
            }
            if changed {
                self.tag.map_written(raw);
            }
        }
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
                if self.ns.wants_compaction(self.name_starts.len()) {
                    compact_namespaces(&mut self.ns, &mut self.name_starts, &mut self.closed);
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
                    declare(&mut self.ns, &mut self.tag, text, &self.limits).and_then(|()| {
                        check_rewrite(&self.ns, text, &mut self.tag, &mut self.external_scratch)
                    })
                };
                if let Err((code, s, t)) = checked {
                    self.ns.truncate(mark);
                    return Err(self.tag_error(map(TagError::over(code, s, t))));
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
        self.text.cursor.advance(n);
        self.line = self.text.line(start);
        self.span = Span::new(start, start + n);
        if empty {
            // "Empty tag expansion": the end comes with the next call.
            let end = start + n;
            self.pending_end = Some((self.text.line(end), Span::empty(end)));
        }
        Ok(ready)
    }

    /// An error inside the tag token at the position.
    #[cold]
    fn tag_error(&self, e: TagError) -> Error {
        if e.start == e.end {
            self.error_at(e.start, e.code, e.codepoint)
        } else {
            self.error_span(e.start, e.end, e.code, e.codepoint)
        }
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
