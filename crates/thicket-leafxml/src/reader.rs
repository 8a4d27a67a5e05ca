//! The pull decoder: tokens, token filtering, assemblies, empty tag expansion, the tag stack and
//! namespace processing, each in the order the spec gives them.

use std::borrow::Cow;
use std::collections::{HashMap, VecDeque};
use std::io::Read;

use thicket_input::Span;
use thicket_names::leafxml as names;

use crate::error::{Error, ErrorCode};
use crate::event::{Event, EventKind, ExternalAttributes};
use crate::input::{Input, Stop, Tracker};
use crate::text;

mod token;

use token::Token;

/// The namespace the `xml` prefix is bound to.
pub const XML_NAMESPACE: &str = "http://www.w3.org/XML/1998/namespace";
/// The namespace the `xmlns` prefix is bound to.
pub const XMLNS_NAMESPACE: &str = "http://www.w3.org/2000/xmlns/";

const DEFAULT_CHUNK: usize = 64 * 1024;

/// Optional limits for untrusted input. Every limit is off by default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest allowed element nesting (the root element is depth 1).
    pub max_depth: Option<usize>,
    /// Most attributes (namespace declarations included) allowed on one tag.
    pub max_attributes: Option<usize>,
    /// Longest allowed token, and longest content assembly, in bytes of decoded text.
    pub max_token_len: Option<usize>,
}

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

/// An attribute of a tag assembly, decoded.
#[derive(Debug)]
struct Attr {
    name: String,
    value: String,
    /// Offset of the name in the (line-break normalized) tag token.
    offset: usize,
}

/// A tag assembly: element name, tag type and attributes.
#[derive(Debug)]
struct TagAssembly {
    name: String,
    kind: TagType,
    attrs: Vec<Attr>,
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
}

/// How many distinct prefixes are searched linearly.
const LINEAR_PREFIXES: usize = 16;

impl Namespaces {
    /// The default context: `xml` and `xmlns`.
    fn new() -> Namespaces {
        Namespaces {
            prefixes: vec!["xml".to_owned(), "xmlns".to_owned()],
            values: vec![
                vec![XML_NAMESPACE.to_owned()],
                vec![XMLNS_NAMESPACE.to_owned()],
            ],
            index: None,
            log: Vec::new(),
        }
    }

    fn position(&self, prefix: &str) -> Option<usize> {
        match &self.index {
            Some(index) => index.get(prefix).copied(),
            None => self.prefixes.iter().position(|p| p == prefix),
        }
    }

    fn mark(&self) -> usize {
        self.log.len()
    }

    fn declare(&mut self, prefix: &str, value: String) {
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
            v.push(value);
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

    fn lookup(&self, prefix: &str) -> Option<&str> {
        self.values
            .get(self.position(prefix)?)?
            .last()
            .map(String::as_str)
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
    queue: VecDeque<Event>,
    peeked: Option<Token>,
    state: StackState,
    /// The tag stack: element names as written (NFC).
    tags: Vec<String>,
    /// The namespace stack.
    ns: Namespaces,
    /// `ns.mark()` before each open element's declarations.
    scopes: Vec<usize>,
    doctype_seen: bool,
    seen_tag: bool,
    content: String,
    failed: Option<Error>,
    done: bool,
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
            queue: VecDeque::new(),
            peeked: None,
            state: StackState::Initial,
            tags: Vec::new(),
            ns: Namespaces::new(),
            scopes: Vec::new(),
            doctype_seen: false,
            seen_tag: false,
            content: String::new(),
            failed: None,
            done: false,
        }
    }

    /// Sets the limits for untrusted input.
    pub fn with_limits(mut self, limits: Limits) -> Reader<R> {
        self.limits = limits;
        self
    }

    /// Bytes of decoded text the reader holds right now (its window over the input). With an
    /// `io::Read` source this stays near the read size plus the longest token.
    pub fn buffered(&self) -> usize {
        self.input.buf.capacity()
    }

    /// The next event, `Ok(None)` after the end of the root element and a clean end of input,
    /// or the first error. After an error, every call returns the same error.
    pub fn next_event(&mut self) -> Result<Option<Event>, Error> {
        if let Some(e) = self.queue.pop_front() {
            return Ok(Some(e));
        }
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        if self.done {
            return Ok(None);
        }
        match self.step() {
            Ok(e) => Ok(e),
            Err(e) => {
                self.failed = Some(e.clone());
                Err(e)
            }
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
    fn step(&mut self) -> Result<Option<Event>, Error> {
        self.content.clear();
        let mut first: Option<(usize, Tracker)> = None;
        let mut last_end = 0;
        let tok = loop {
            let tok = self.next_token()?;
            match tok {
                Token::Text(n) => {
                    first.get_or_insert((self.input.abs(0), self.input.at));
                    let raw = &self.input.rest()[..n];
                    if let Err(e) = text::unescape_into(raw, &mut self.content) {
                        return Err(self.error_at(e.offset, e.code, e.value));
                    }
                    self.input.advance(n);
                    last_end = self.input.abs(0);
                }
                Token::CData(n) => {
                    first.get_or_insert((self.input.abs(0), self.input.at));
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
                && self.content.len() > max
            {
                return Err(self.error_from(at, abs, ErrorCode::TokenLengthLimit));
            }
        };
        if let Some((abs, at)) = first
            && let Some(text) = self.finish_content()
        {
            if self.state == StackState::Active {
                self.peeked = Some(tok);
                return Ok(Some(Event {
                    kind: EventKind::Text(text),
                    line: at.line,
                    span: Span::new(abs, last_end),
                }));
            }
            // "Padding content assemblies that appear before the first tag assembly or after
            // the last tag assembly are discarded by decoders."
            if !text.bytes().all(|b| matches!(b, b'\t' | b' ' | b'\n')) {
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

    /// Line break normalization, then NFC; `None` when the assembly is empty.
    fn finish_content(&mut self) -> Option<String> {
        if self.content.is_empty() {
            return None;
        }
        let normalized = text::chain(text::normalize_line_breaks(&self.content), text::nfc);
        let text = match normalized {
            Cow::Borrowed(_) => std::mem::take(&mut self.content),
            Cow::Owned(o) => o,
        };
        Some(text)
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
    fn tag(&mut self, n: usize) -> Result<Event, Error> {
        self.seen_tag = true;
        let raw = &self.input.rest()[..n];
        // "Before parsing a tag token within a tag assembly, line break normalization is
        // performed on the whole tag token."
        let normalized = text::normalize_line_breaks(raw);
        let changed = matches!(normalized, Cow::Owned(_));
        let parsed = parse_tag(&normalized, self.limits.max_attributes);
        let tag = match parsed {
            Ok(t) => t,
            Err((code, off, cp)) => {
                let off = if changed {
                    text::map_back_line_breaks(raw, off)
                } else {
                    off
                };
                return Err(self.error_at(off, code, cp));
            }
        };
        let map = |s: &Self, off: usize| -> usize {
            if changed {
                text::map_back_line_breaks(&s.input.rest()[..n], off)
            } else {
                off
            }
        };
        let start = self.input.abs(0);
        let line = self.input.at.line;
        let span = Span::new(start, start + n);
        let event = match tag.kind {
            TagType::End => {
                let Some(top) = self.tags.last() else {
                    return Err(self.error_at(0, ErrorCode::UnexpectedEndTag, None));
                };
                if *top != tag.name {
                    return Err(self.error_at(0, ErrorCode::MismatchedEndTag, None));
                }
                let (namespace, local_name) = self.pop();
                Event {
                    kind: EventKind::End {
                        namespace,
                        local_name,
                    },
                    line,
                    span,
                }
            }
            TagType::Start | TagType::Empty => {
                if self.state == StackState::Finished {
                    return Err(self.error_at(0, ErrorCode::MultipleRoots, None));
                }
                if self
                    .limits
                    .max_depth
                    .is_some_and(|max| self.tags.len() >= max)
                {
                    return Err(self.error_at(0, ErrorCode::DepthLimit, None));
                }
                let mark = self.ns.mark();
                if let Err((code, off)) = self.declare(&tag.attrs) {
                    self.ns.truncate(mark);
                    let off = map(self, off);
                    return Err(self.error_at(off, code, None));
                }
                let TagAssembly { name, kind, attrs } = tag;
                let rewritten = self.rewrite(&name, attrs);
                let (namespace, local, attributes, external) = match rewritten {
                    Ok(r) => r,
                    Err((code, off)) => {
                        self.ns.truncate(mark);
                        let off = map(self, off);
                        return Err(self.error_at(off, code, None));
                    }
                };
                self.scopes.push(mark);
                self.tags.push(name);
                self.state = StackState::Active;
                if kind == TagType::Empty {
                    // "Empty tag expansion".
                    let (namespace, local_name) = self.pop();
                    self.queue.push_back(Event {
                        kind: EventKind::End {
                            namespace,
                            local_name,
                        },
                        // Set to the line where the tag ends, below.
                        line,
                        span: Span::empty(start + n),
                    });
                }
                Event {
                    kind: EventKind::Start {
                        namespace,
                        local_name: local,
                        attributes,
                        external_attributes: external,
                    },
                    line,
                    span,
                }
            }
        };
        self.input.advance(n);
        if let Some(end) = self.queue.back_mut() {
            end.line = self.input.at.line;
        }
        Ok(event)
    }

    /// Pops the tag stack and the namespace stack, returning the namespace and local name of
    /// the element (resolved while its declarations are still in scope).
    fn pop(&mut self) -> (Option<String>, String) {
        let name = self.tags.pop().unwrap_or_default();
        let resolved = match name.split_once(':') {
            Some((prefix, local)) => (self.lookup(prefix).map(str::to_owned), local.to_owned()),
            None => (self.lookup("").map(str::to_owned), name),
        };
        let mark = self.scopes.pop().unwrap_or(0);
        self.ns.truncate(mark);
        if self.tags.is_empty() {
            self.state = StackState::Finished;
        }
        resolved
    }

    /// "Namespace declarations": adds this tag's bindings.
    fn declare(&mut self, attrs: &[Attr]) -> Result<(), (ErrorCode, usize)> {
        for a in attrs {
            let prefix = if a.name == "xmlns" {
                ""
            } else if let Some(p) = a.name.strip_prefix("xmlns:") {
                if !names::is_prefix(p) {
                    return Err((ErrorCode::InvalidNamespacePrefix, a.offset));
                }
                if p == "xmlns" {
                    return Err((ErrorCode::XmlnsPrefixDeclared, a.offset));
                }
                p
            } else {
                continue;
            };
            if a.value.is_empty() {
                return Err((ErrorCode::EmptyNamespaceValue, a.offset));
            }
            if prefix == "xml" && a.value != XML_NAMESPACE {
                return Err((ErrorCode::XmlPrefixRebound, a.offset));
            }
            if prefix != "xml" && a.value == XML_NAMESPACE {
                return Err((ErrorCode::XmlNamespaceRebound, a.offset));
            }
            if a.value == XMLNS_NAMESPACE {
                return Err((ErrorCode::XmlnsNamespaceBound, a.offset));
            }
            self.ns.declare(prefix, a.value.clone());
        }
        Ok(())
    }

    fn lookup(&self, prefix: &str) -> Option<&str> {
        self.ns.lookup(prefix)
    }

    /// Splits `prefix:local`: exactly one colon, both parts valid names.
    fn split(name: &str, offset: usize) -> Result<(&str, &str), (ErrorCode, usize)> {
        let (prefix, local) = name.split_once(':').unwrap_or(("", name));
        if local.contains(':') {
            return Err((ErrorCode::MultipleColons, offset));
        }
        if !names::is_name(prefix) || !names::is_name(local) {
            return Err((ErrorCode::InvalidQualifiedName, offset));
        }
        Ok((prefix, local))
    }

    /// "Tag rewriting": namespace and local name, local and external attribute maps.
    #[allow(clippy::type_complexity)]
    fn rewrite(
        &self,
        name: &str,
        attrs: Vec<Attr>,
    ) -> Result<
        (
            Option<String>,
            String,
            Vec<(String, String)>,
            ExternalAttributes,
        ),
        (ErrorCode, usize),
    > {
        let (namespace, local) = if name.contains(':') {
            let (prefix, local) = Self::split(name, 1)?;
            let ns = self
                .lookup(prefix)
                .ok_or((ErrorCode::UndeclaredPrefix, 1))?;
            (Some(ns.to_owned()), local.to_owned())
        } else {
            (self.lookup("").map(str::to_owned), name.to_owned())
        };
        let mut attributes = Vec::with_capacity(attrs.len());
        let mut external = ExternalAttributes::new();
        for a in attrs {
            if !a.name.contains(':') {
                if a.name != "xmlns" {
                    attributes.push((a.name, a.value));
                }
                continue;
            }
            let (prefix, local) = Self::split(&a.name, a.offset)?;
            if prefix == "xmlns" {
                continue;
            }
            let ns = self
                .lookup(prefix)
                .ok_or((ErrorCode::UndeclaredPrefix, a.offset))?;
            let slot = match external.get_mut(ns) {
                Some(slot) => slot,
                None => external.entry(ns.to_owned()).or_default(),
            };
            if slot.insert(local.to_owned(), a.value).is_some() {
                return Err((ErrorCode::DuplicateExternalAttribute, a.offset));
            }
        }
        Ok((namespace, local, attributes, external))
    }
}

impl<R: Read> Iterator for Reader<R> {
    type Item = Result<Event, Error>;

    /// Events until the end of the document; an error ends the iteration after it is returned.
    fn next(&mut self) -> Option<Self::Item> {
        if self.failed.is_some() && self.queue.is_empty() {
            return None;
        }
        self.next_event().transpose()
    }
}

/// Every event of a document held in memory.
pub fn parse_events(bytes: &[u8]) -> Result<Vec<Event>, Error> {
    Reader::from_bytes(bytes).collect()
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
fn parse_tag(s: &str, max_attributes: Option<usize>) -> Result<TagAssembly, TagError> {
    let b = s.as_bytes();
    let last = b.len() - 1;
    let mut i = 1;
    let end = b[1] == b'/';
    if end {
        i = 2;
    }
    let (name, next) = scan_name(s, i)?;
    let name = text::nfc(name).into_owned();
    i = next;
    let mut kind = if end { TagType::End } else { TagType::Start };
    let mut attrs: Vec<Attr> = Vec::new();
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
                kind = TagType::Empty;
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
                let value = text::chain(value, text::nfc).into_owned();
                if max_attributes.is_some_and(|max| attrs.len() >= max) {
                    return Err((ErrorCode::AttributeLimit, offset, None));
                }
                attrs.push(Attr {
                    name: text::nfc(aname).into_owned(),
                    value,
                    offset,
                });
                i += close + 2;
            }
        }
    }
    check_duplicates(&attrs)?;
    Ok(TagAssembly { name, kind, attrs })
}

/// "It is an error if the same tag has more than one attribute with the same attribute name."
/// Reports the earliest attribute that repeats an earlier name.
fn check_duplicates(attrs: &[Attr]) -> Result<(), TagError> {
    if attrs.len() < 2 {
        return Ok(());
    }
    if attrs.len() <= 8 {
        for (k, a) in attrs.iter().enumerate() {
            if attrs[..k].iter().any(|b| b.name == a.name) {
                return Err((ErrorCode::DuplicateAttribute, a.offset, None));
            }
        }
        return Ok(());
    }
    let mut order: Vec<usize> = (0..attrs.len()).collect();
    order.sort_by(|&x, &y| attrs[x].name.cmp(&attrs[y].name).then(x.cmp(&y)));
    let repeated = order
        .windows(2)
        .filter(|w| attrs[w[0]].name == attrs[w[1]].name)
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
            ns.declare(&format!("p{}", i % 25), format!("urn:{i}"));
            ns.declare("", format!("urn:d{i}"));
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
