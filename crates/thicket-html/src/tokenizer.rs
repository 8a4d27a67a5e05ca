//! The tokenizer: input buffer, preprocessing, the state machine (one method per state) and the
//! token queue.

use std::borrow::Cow;
use std::collections::VecDeque;

use thicket_charref::LongestMatch;
use thicket_charref::numeric::{self, WhatwgIssue};
use thicket_input::{Diagnostic, Diagnostics, Span};

use crate::error::ErrorCode;
use crate::sbuf::SBuf;
use crate::state::State;
use crate::token::{Attribute, Doctype, Tag, Token};

mod duplicates;
mod limits;
mod pi;

/// Options for [`Tokenizer::with_options`].
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The state to start in (a tree builder's fragment case, or html5lib's `initialStates`).
    /// `None` means the data state.
    pub initial_state: Option<State>,
    /// The "last start tag" for the appropriate-end-tag check before any start tag is seen
    /// (html5lib's `lastStartTag`, or a fragment's context element).
    pub last_start_tag: Option<String>,
    /// For use without a tree builder: after a start tag `title` or `textarea` switch to RCDATA,
    /// after `style`, `xmp`, `iframe`, `noembed`, `noframes` to RAWTEXT, after `script` to script
    /// data, after `plaintext` to PLAINTEXT, as the streaming design notes do.
    pub switch_by_tag_name: bool,
    /// With `switch_by_tag_name`: `noscript` switches to RAWTEXT as well (scripting enabled).
    pub scripting: bool,
    /// Whether `<![CDATA[` opens a CDATA section (the adjusted current node is not in the HTML
    /// namespace). A tree builder updates it with [`Tokenizer::set_cdata_allowed`].
    pub cdata_allowed: bool,
    /// Limits for untrusted input (attributes per tag, name and value lengths, diagnostics
    /// kept); all off by default. What each does when reached: docs/html.md.
    pub limits: thicket_input::Limits,
    /// Read `<?` as the HTML Standard did before 2026: an
    /// `unexpected-question-mark-instead-of-tag-name` error and a bogus comment up to the next
    /// `>`, and never a [`Token::ProcessingInstruction`]. Off by default: `<?target data>` is a
    /// processing instruction, as the standard says since 2026 (whatwg/html#12118).
    pub legacy_processing_instructions: bool,
}

/// What the direct path of [`Tokenizer::next_token`] found.
enum Fast {
    /// Nothing to return: the states go on (with any text found so far pending).
    No,
    /// A tag, ready in `tag`, with no text before it.
    Tag(Span),
    /// Text (pending in `text`) and then a tag, ready in `tag`.
    TextThenTag(Span),
    /// The input `start..end` unchanged as text, and then a tag, ready in `tag`.
    RawTextThenTag(usize, usize, Span),
}

/// What a state method tells the loop.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Flow {
    /// Keep going.
    Go,
    /// The input ran out before the standard could decide; wait for more.
    Wait,
}

/// The next input character after preprocessing.
#[derive(Clone, Copy)]
enum Next {
    Char(char),
    Eof,
    Wait,
}

#[derive(Default)]
struct AttrBuild {
    name: SBuf,
    value: SBuf,
    start: usize,
    end: usize,
}

#[derive(Default)]
struct TagBuild {
    end_tag: bool,
    name: SBuf,
    attrs: Vec<AttrBuild>,
    self_closing: bool,
}

#[derive(Default)]
struct DoctypeBuild {
    name: Option<SBuf>,
    public_id: Option<SBuf>,
    system_id: Option<SBuf>,
    force_quirks: bool,
}

/// A finished token waiting to be returned. Text carries its string; a tag, comment or DOCTYPE
/// stays in the tokenizer's `tag`, `comment` or `doctype` field until it is returned (the
/// tokenizer never runs ahead of the token it returned, so at most one of each is waiting), which
/// keeps the queue entries small and saves moving the tag twice.
enum Pending {
    Text(SBuf, Span),
    Discarded(Span),
    Eof(Span),
    Tag(Span),
    Comment(Span),
    Doctype(Span),
    Pi(Span),
}

impl Pending {
    fn span(&self) -> Span {
        match self {
            Pending::Text(_, s)
            | Pending::Discarded(s)
            | Pending::Eof(s)
            | Pending::Tag(s)
            | Pending::Comment(s)
            | Pending::Doctype(s)
            | Pending::Pi(s) => *s,
        }
    }
}

/// The token of the finished tag `t`, its strings borrowed from `buf` where possible. Its
/// attribute list keeps its capacity for the next tag.
#[inline]
fn take_tag<'a>(t: &mut TagBuild, span: Span, buf: &'a str, base: usize) -> Token<'a> {
    let attributes = if t.attrs.is_empty() {
        Vec::new()
    } else {
        let mut v = Vec::with_capacity(t.attrs.len());
        for a in &mut t.attrs {
            v.push(Attribute {
                name: std::mem::take(&mut a.name).into_cow(buf, base),
                value: std::mem::take(&mut a.value).into_cow(buf, base),
                span: Span::new(a.start, a.end),
            });
        }
        t.attrs.clear();
        v
    };
    let tag = Tag {
        name: std::mem::take(&mut t.name).into_cow(buf, base),
        attributes,
        self_closing: t.self_closing,
        span,
    };
    if t.end_tag {
        Token::EndTag(tag)
    } else {
        Token::StartTag(tag)
    }
}

/// Above this many attributes, [`take_large_tag`] converts a tag's list in place.
const LARGE_TAG: usize = 1024;

/// [`take_tag`] for a tag with very many attributes (only the states build those): the
/// builder's list becomes the token's in place (the standard library reuses the allocation), so
/// the two are never held at once, and the builder keeps no huge capacity for the next tag.
#[inline(never)]
fn take_large_tag<'a>(t: &mut TagBuild, span: Span, buf: &'a str, base: usize) -> Token<'a> {
    let attributes = std::mem::take(&mut t.attrs)
        .into_iter()
        .map(|a| Attribute {
            name: a.name.into_cow(buf, base),
            value: a.value.into_cow(buf, base),
            span: Span::new(a.start, a.end),
        })
        .collect();
    let tag = Tag {
        name: std::mem::take(&mut t.name).into_cow(buf, base),
        attributes,
        self_closing: t.self_closing,
        span,
    };
    if t.end_tag {
        Token::EndTag(tag)
    } else {
        Token::StartTag(tag)
    }
}

/// What a character reference resolves to on the direct path.
#[derive(Clone, Copy)]
enum Resolved {
    Str(&'static str),
    Char(char),
    /// The source stays as it is (an `&` that starts no reference).
    Raw,
}

/// The longest name (without `&`) in the named-reference table is 32 bytes plus `;`.
const MAX_REFERENCE_NAME: usize = 32;

/// The last named reference with `;` that the direct path looked up in the table: documents
/// tend to repeat one (`&amp;` in URLs, `&lt;` in code), and comparing a few bytes is cheaper
/// than hashing them.
#[derive(Clone, Copy)]
struct NameCache {
    key: [u8; MAX_REFERENCE_NAME + 1],
    len: usize,
    value: &'static str,
}

impl Default for NameCache {
    fn default() -> Self {
        NameCache {
            key: [0; MAX_REFERENCE_NAME + 1],
            len: 0,
            value: "",
        }
    }
}

impl NameCache {
    #[inline]
    fn get(&self, key: &[u8]) -> Option<&'static str> {
        (self.len != 0 && self.key.get(..self.len) == Some(key)).then_some(self.value)
    }

    #[inline]
    fn put(&mut self, key: &[u8], value: &'static str) {
        if let Some(slot) = self.key.get_mut(..key.len()) {
            slot.copy_from_slice(key);
            self.len = key.len();
            self.value = value;
        }
    }
}

/// A character reference at `buf[i]` (an `&`) when the buffer holds all the states need to
/// decide it and they decide it without a parse error. Returns what it resolves to and the
/// index after it:
/// - `&name;` whose whole name with its `;` is in the table (names hold `;` only at their end,
///   so that is the longest match);
/// - `&#digits;` / `&#xhex;` with a number that has no error;
/// - [`Resolved::Raw`] for an `&` before anything but an alphanumeric or `#`, before
///   alphanumerics no name starts (and no `;` after them), and in an attribute value
///   (`in_attribute`) before a name without `;` followed by `=` or an alphanumeric.
///
/// `None` (the states decide) for anything else, including a buffer that ends too early.
#[inline]
fn fast_reference(
    buf: &str,
    i: usize,
    in_attribute: bool,
    finished: bool,
    cache: &mut NameCache,
) -> Option<(Resolved, usize)> {
    let bytes = buf.as_bytes();
    let first = *bytes.get(i + 1)?;
    if first.is_ascii_alphanumeric() {
        let mut j = i + 2;
        while j <= i + 1 + MAX_REFERENCE_NAME && bytes.get(j)?.is_ascii_alphanumeric() {
            j += 1;
        }
        if bytes.get(j) == Some(&b';') {
            // A name that is not in the table with its `;` is an error either way.
            let key = &bytes[i + 1..=j];
            if let Some(value) = cache.get(key) {
                return Some((Resolved::Str(value), j + 1));
            }
            let value = thicket_charref::named(&buf[i + 1..=j])?.value?;
            cache.put(key, value);
            return Some((Resolved::Str(value), j + 1));
        }
        // No `;` right after the name: a longest match without one, or none.
        return match thicket_charref::longest_match(&buf[i + 1..], finished) {
            LongestMatch::NeedMore => None,
            LongestMatch::None => {
                // The ambiguous ampersand state copies the alphanumerics; a `;` after them is
                // an error.
                let mut k = j;
                while bytes.get(k)?.is_ascii_alphanumeric() {
                    k += 1;
                }
                (bytes[k] != b';').then_some((Resolved::Raw, k))
            }
            LongestMatch::Found { len, .. } => {
                // Without `;` (a name ending in `;` would have been found above): outside an
                // attribute value that is an error.
                let next = *bytes.get(i + 1 + len)?;
                (in_attribute && (next == b'=' || next.is_ascii_alphanumeric()))
                    .then_some((Resolved::Raw, i + 1 + len))
            }
        };
    }
    if first != b'#' {
        return Some((Resolved::Raw, i + 1));
    }
    let mut j = i + 2;
    let radix = if matches!(*bytes.get(j)?, b'x' | b'X') {
        j += 1;
        16
    } else {
        10
    };
    let digits = j;
    let mut code = 0u32;
    while let Some(d) = char::from(*bytes.get(j)?).to_digit(radix) {
        code = numeric::accumulate(code, radix, d);
        j += 1;
    }
    if j == digits || bytes[j] != b';' {
        return None;
    }
    match numeric::whatwg(code) {
        (c, None) => Some((Resolved::Char(c), j + 1)),
        (_, Some(_)) => None,
    }
}

/// Byte classes of a scan table: part of the run, ends the run, or part of the run but possibly
/// the start of a character with an input-stream error.
const PLAIN: u8 = 0;
const STOP: u8 = 1;
const CHECK: u8 = 2;

/// Builds the byte class table of a run that ends at any of `stops` (NULL and CR always stop).
const fn table(stops: &[u8]) -> [u8; 256] {
    let mut t = [PLAIN; 256];
    let mut b = 0;
    while b < 256 {
        if ODD[b] {
            t[b] = CHECK;
        }
        b += 1;
    }
    t[0] = STOP;
    t[b'\r' as usize] = STOP;
    let mut i = 0;
    while i < stops.len() {
        t[stops[i] as usize] = STOP;
        i += 1;
    }
    t
}

/// Bytes that may start a character with an input-stream error: ASCII controls other than
/// whitespace (CR and NULL are always stop bytes), DEL, and the UTF-8 lead bytes of C1 controls
/// (`C2`), of U+FDD0..U+FDEF and U+FFFE/U+FFFF (`EF`) and of the supplementary planes (`F0`..`F4`).
const ODD: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = (b < 0x20 && b != 0x09 && b != 0x0A && b != 0x0C)
            || b == 0x7F
            || b == 0xC2
            || b == 0xEF
            || b >= 0xF0;
        b += 1;
    }
    t
};

/// [`ODD`] plus NULL and CR: the bytes a text run found by memchr must not contain.
static BAD: [bool; 256] = {
    let mut t = ODD;
    t[0] = true;
    t[b'\r' as usize] = true;
    t
};

/// True when no byte of `run` is in [`BAD`]. Blocks of 16 bytes are first checked for "printable
/// ASCII, LF or tab" in a form that vectorizes; only a block that fails is looked at byte by byte.
#[inline]
fn is_plain(run: &[u8]) -> bool {
    let mut blocks = run.chunks_exact(16);
    for block in &mut blocks {
        let mut acc = 0u8;
        for &b in block {
            acc |= (u8::from(b < 0x20) & u8::from(b != b'\n') & u8::from(b != b'\t'))
                | u8::from(b >= 0x7F);
        }
        if acc != 0 && block.iter().any(|&b| BAD[b as usize]) {
            return false;
        }
    }
    // The tail (most attribute values are all tail): printable ASCII in eight-byte words first.
    let rest = blocks.remainder();
    let mut words = rest.chunks_exact(8);
    for word in &mut words {
        let mut w = [0u8; 8];
        w.copy_from_slice(word);
        if !word_is_printable(u64::from_le_bytes(w)) && word.iter().any(|&b| BAD[b as usize]) {
            return false;
        }
    }
    !words.remainder().iter().any(|&b| BAD[b as usize])
}

/// True when all eight bytes of `w` are printable ASCII (0x20..=0x7E); false means "look
/// closer" (the test may also fail for a byte above a failing one).
#[inline(always)]
fn word_is_printable(w: u64) -> bool {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let below_space = w.wrapping_sub(LO * 0x20) & !w & HI;
    let del = (w ^ (LO * 0x7F)).wrapping_sub(LO) & !(w ^ (LO * 0x7F)) & HI;
    (below_space | del | (w & HI)) == 0
}

static DATA_STOPS: [u8; 256] = table(b"<&\0\r");
static RAWTEXT_STOPS: [u8; 256] = table(b"<\0\r");
static PLAINTEXT_STOPS: [u8; 256] = table(b"\0\r");
static DQ_STOPS: [u8; 256] = table(b"\"&\0\r");
static SQ_STOPS: [u8; 256] = table(b"'&\0\r");
static UNQUOTED_STOPS: [u8; 256] = table(b"\t\n\x0C &>\0\r\"'<=`");
static NAME_STOPS: [u8; 256] = table(b"\t\n\x0C />\0\r\"'<=ABCDEFGHIJKLMNOPQRSTUVWXYZ");
static COMMENT_STOPS: [u8; 256] = table(b"<-\0\r");
static BOGUS_STOPS: [u8; 256] = table(b">\0\r");
static CDATA_STOPS: [u8; 256] = table(b"]\0\r");
static DOCTYPE_DQ_STOPS: [u8; 256] = table(b"\">\0\r");
static DOCTYPE_SQ_STOPS: [u8; 256] = table(b"'>\0\r");

/// Bytes an unquoted attribute value may hold on [`Tokenizer::fast_attributes`]'s path: not
/// whitespace, `&`, `>`, NULL or CR (which end the value or need the states) and not `"`, `'`,
/// `<`, `=` or `` ` `` (which are errors there). Non-ASCII runs are checked with [`is_plain`].
static UNQUOTED_FAST: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0x21;
    while b < 256 {
        t[b] = !matches!(
            b as u8,
            b'"' | b'\'' | b'<' | b'=' | b'>' | b'&' | b'`' | 0x7F
        );
        b += 1;
    }
    t
};

/// How many bytes [`Tokenizer::scan`] looks at with its table before calling memchr.
const SHORT_RUN: usize = 16;

/// Names above this many attributes are checked for duplicates with a hash set.
const LINEAR_DUPLICATE_LIMIT: usize = 16;

/// [`Tokenizer::compact`] drops the consumed prefix of the buffer once it is at least this long
/// (and at least half the buffer).
const COMPACT_MIN: usize = 4096;

/// Reports the input-stream error of `c` at `at`, if it has one.
#[cold]
fn check_input_char(diagnostics: &mut Diagnostics<ErrorCode>, c: char, at: usize, w: usize) {
    let code = c as u32;
    let span = Span::new(at, at + w);
    if numeric::is_control(code) && !matches!(c, '\t' | '\n' | '\x0C' | '\r' | '\0' | ' ') {
        diagnostics.push(Diagnostic::new(
            ErrorCode::ControlCharacterInInputStream,
            span,
        ));
    } else if numeric::is_noncharacter(code) {
        diagnostics.push(Diagnostic::new(ErrorCode::NoncharacterInInputStream, span));
    }
}

#[inline]
fn is_ws(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\x0C' | ' ')
}

/// The WHATWG HTML tokenizer, streaming.
///
/// Feed text with [`feed`](Self::feed) (any number of times), call [`finish`](Self::finish) at the
/// end, and pull tokens with [`next_token`](Self::next_token) between feeds. A token is returned
/// as soon as the standard makes it certain. Tokens borrow from the tokenizer's buffer, so each one
/// must be dropped (or made owned with [`Token::into_owned`]) before the next call.
pub struct Tokenizer {
    /// Unconsumed input (and the part of the current token already read); `buf[0]` is at
    /// absolute offset `base`.
    buf: String,
    base: usize,
    /// Absolute offset of the next input character.
    pos: usize,
    /// Width in bytes of the character last read at `pos` by [`Tokenizer::cur`].
    cw: usize,
    /// Input-stream errors have been reported for every character before this offset.
    checked: usize,
    finished: bool,
    done: bool,
    state: State,
    return_state: State,
    options: Options,
    /// The "last start tag" name when it is not a range of the buffer.
    last_start_tag: String,
    /// The "last start tag" name as absolute offsets into the buffer, when it is the input
    /// unchanged (most names): saves copying every start tag's name. Copied into
    /// `last_start_tag` before [`Tokenizer::compact`] drops that part of the buffer.
    last_start_range: Option<(usize, usize)>,

    /// Where the current markup (`<`, `&`) started.
    token_start: usize,
    /// End of the last queued token: everything before it has been handed out.
    last_end: usize,

    text: SBuf,
    text_span: Option<(usize, usize)>,
    tag: TagBuild,
    attr: Option<AttrBuild>,
    attr_duplicate: bool,
    /// The attribute names of a tag with more than [`LINEAR_DUPLICATE_LIMIT`] of them.
    attr_index: duplicates::NameIndex,
    comment: SBuf,
    doctype: DoctypeBuild,
    pi: pi::PiBuild,
    /// `Options::limits` and what they did to the current token.
    limit: limits::Guard,
    temp: String,
    charref_start: usize,
    charref_code: u32,

    queue: VecDeque<Pending>,
    /// A tag built by the direct path ([`Tokenizer::fast_data`]) behind the text it returned:
    /// handed out by the next call, before anything else (the queue is empty meanwhile).
    ready_tag: Option<Span>,
    /// The direct path's last named-reference lookup.
    names: NameCache,
    diagnostics: Diagnostics<ErrorCode>,
}

impl Default for Tokenizer {
    fn default() -> Self {
        Tokenizer::new()
    }
}

impl Tokenizer {
    /// A tokenizer in the data state with default options.
    pub fn new() -> Tokenizer {
        Tokenizer::with_options(Options::default())
    }

    /// A tokenizer with `options`.
    pub fn with_options(options: Options) -> Tokenizer {
        let state = options.initial_state.unwrap_or(State::Data);
        let last_start_tag = options.last_start_tag.clone().unwrap_or_default();
        let limit = limits::Guard::new(&options.limits);
        let diagnostics = Diagnostics::new(options.limits.max_diagnostics);
        Tokenizer {
            buf: String::new(),
            base: 0,
            pos: 0,
            cw: 0,
            checked: 0,
            finished: false,
            done: false,
            state,
            return_state: State::Data,
            options,
            last_start_tag,
            last_start_range: None,
            token_start: 0,
            last_end: 0,
            text: SBuf::Empty,
            text_span: None,
            tag: TagBuild::default(),
            attr: None,
            attr_duplicate: false,
            attr_index: duplicates::NameIndex::default(),
            comment: SBuf::Empty,
            doctype: DoctypeBuild::default(),
            pi: pi::PiBuild::default(),
            limit,
            temp: String::new(),
            charref_start: 0,
            charref_code: 0,
            queue: VecDeque::new(),
            ready_tag: None,
            names: NameCache::default(),
            diagnostics,
        }
    }

    /// Appends a chunk of input. Chunks may end anywhere (inside a tag, a reference, a CR LF).
    /// Feeding after [`finish`](Self::finish) is ignored.
    pub fn feed(&mut self, chunk: &str) {
        if self.finished {
            return;
        }
        self.compact();
        self.buf.push_str(chunk);
    }

    /// Marks the end of the input; the remaining tokens and the end-of-file token follow.
    pub fn finish(&mut self) {
        self.finished = true;
    }

    /// The next token, or `None` when more input is needed (or the end-of-file token has been
    /// returned).
    pub fn next_token(&mut self) -> Option<Token<'_>> {
        if let Some(span) = self.ready_tag.take() {
            self.last_end = span.end;
            return Some(take_tag(&mut self.tag, span, &self.buf, self.base));
        }
        if self.queue.is_empty() {
            // Between tokens nothing is pending (text is flushed before `run` returns), so in the
            // data state the direct path may look at the input first.
            debug_assert!(self.text_span.is_none());
            if self.state == State::Data && !self.done {
                match self.fast_data() {
                    Fast::No => {}
                    Fast::Tag(span) => {
                        self.last_end = span.end;
                        return Some(take_tag(&mut self.tag, span, &self.buf, self.base));
                    }
                    Fast::RawTextThenTag(s, e, span) => {
                        self.ready_tag = Some(span);
                        self.last_end = e;
                        return Some(Token::Text {
                            text: Cow::Borrowed(&self.buf[s - self.base..e - self.base]),
                            span: Span::new(s, e),
                        });
                    }
                    Fast::TextThenTag(span) => {
                        self.ready_tag = Some(span);
                        let (s, e) = self.text_span.take().unwrap_or((span.start, span.start));
                        self.last_end = e;
                        let text = std::mem::take(&mut self.text);
                        return Some(Token::Text {
                            text: text.into_cow(&self.buf, self.base),
                            span: Span::new(s, e),
                        });
                    }
                }
            }
            self.run();
        }
        let p = self.queue.pop_front()?;
        let (buf, base) = (self.buf.as_str(), self.base);
        Some(match p {
            Pending::Text(t, span) => Token::Text {
                text: t.into_cow(buf, base),
                span,
            },
            Pending::Discarded(span) => Token::Discarded { span },
            Pending::Eof(span) => Token::Eof { span },
            Pending::Tag(span) if self.tag.attrs.len() > LARGE_TAG => {
                take_large_tag(&mut self.tag, span, buf, base)
            }
            Pending::Tag(span) => take_tag(&mut self.tag, span, buf, base),
            Pending::Comment(span) => Token::Comment {
                data: std::mem::take(&mut self.comment).into_cow(buf, base),
                span,
            },
            Pending::Pi(span) => {
                let p = std::mem::take(&mut self.pi);
                Token::ProcessingInstruction {
                    target: p.target.into_cow(buf, base),
                    data: p.data.into_cow(buf, base),
                    span,
                }
            }
            Pending::Doctype(span) => {
                let d = std::mem::take(&mut self.doctype);
                Token::Doctype(Doctype {
                    name: d.name.map(|s| s.into_cow(buf, base)),
                    public_id: d.public_id.map(|s| s.into_cow(buf, base)),
                    system_id: d.system_id.map(|s| s.into_cow(buf, base)),
                    force_quirks: d.force_quirks,
                    span,
                })
            }
        })
    }

    /// Switches the state between tokens (a tree builder after `<title>`, `<script>`...).
    pub fn set_state(&mut self, state: State) {
        self.state = state;
    }

    /// The current state.
    pub fn state(&self) -> State {
        self.state
    }

    /// Sets the "last start tag" used by the appropriate-end-tag check.
    pub fn set_last_start_tag(&mut self, name: Option<&str>) {
        self.last_start_tag.clear();
        self.last_start_range = None;
        if let Some(n) = name {
            self.last_start_tag.push_str(n);
        }
    }

    /// Says whether `<![CDATA[` opens a CDATA section: true when the adjusted current node is not
    /// in the HTML namespace.
    pub fn set_cdata_allowed(&mut self, allowed: bool) {
        self.options.cdata_allowed = allowed;
    }

    /// The parse errors so far (not yet taken), in source order: by the start of their spans,
    /// errors at the same place in the order the standard reports them. With
    /// `Limits::max_diagnostics`, only the first that many are kept.
    pub fn diagnostics(&self) -> &[Diagnostic<ErrorCode>] {
        self.diagnostics.as_slice()
    }

    /// Takes the parse errors so far. Taking does not make room under `Limits::max_diagnostics`.
    pub fn take_diagnostics(&mut self) -> Vec<Diagnostic<ErrorCode>> {
        self.diagnostics.take()
    }

    /// How many diagnostics were counted but not kept, past `Limits::max_diagnostics`.
    pub fn omitted_diagnostics(&self) -> usize {
        self.diagnostics.omitted()
    }

    /// Drops the consumed prefix of the buffer when it is large, so that memory stays
    /// proportional to the unconsumed input (amortized linear time). Within a token that a limit
    /// cut, the token's own consumed input goes too (see `limits.rs`).
    fn compact(&mut self) {
        let keep = match self.queue.front() {
            Some(p) => p.span().start,
            None => self.compact_point(),
        };
        let drop = keep.saturating_sub(self.base);
        if drop >= COMPACT_MIN && drop * 2 >= self.buf.len() {
            if let Some((s, e)) = self.last_start_range.take() {
                self.last_start_tag.clear();
                self.last_start_tag
                    .push_str(&self.buf[s - self.base..e - self.base]);
            }
            self.buf.drain(..drop);
            self.base += drop;
        }
    }

    fn run(&mut self) {
        while self.queue.is_empty() && !self.done {
            if self.step() == Flow::Wait {
                self.flush_text();
                return;
            }
        }
    }

    fn step(&mut self) -> Flow {
        match self.state {
            State::Data => self.data_state(),
            State::Rcdata => self.rcdata_state(),
            State::Rawtext => self.rawtext_state(),
            State::ScriptData => self.script_data_state(),
            State::Plaintext => self.plaintext_state(),
            State::TagOpen => self.tag_open_state(),
            State::EndTagOpen => self.end_tag_open_state(),
            State::TagName => self.tag_name_state(),
            State::RcdataLessThanSign => self.rcdata_less_than_sign_state(),
            State::RcdataEndTagOpen => self.rcdata_end_tag_open_state(),
            State::RcdataEndTagName => self.rcdata_end_tag_name_state(),
            State::RawtextLessThanSign => self.rawtext_less_than_sign_state(),
            State::RawtextEndTagOpen => self.rawtext_end_tag_open_state(),
            State::RawtextEndTagName => self.rawtext_end_tag_name_state(),
            State::ScriptDataLessThanSign => self.script_data_less_than_sign_state(),
            State::ScriptDataEndTagOpen => self.script_data_end_tag_open_state(),
            State::ScriptDataEndTagName => self.script_data_end_tag_name_state(),
            State::ScriptDataEscapeStart => self.script_data_escape_start_state(),
            State::ScriptDataEscapeStartDash => self.script_data_escape_start_dash_state(),
            State::ScriptDataEscaped => self.script_data_escaped_state(),
            State::ScriptDataEscapedDash => self.script_data_escaped_dash_state(),
            State::ScriptDataEscapedDashDash => self.script_data_escaped_dash_dash_state(),
            State::ScriptDataEscapedLessThanSign => self.script_data_escaped_less_than_sign_state(),
            State::ScriptDataEscapedEndTagOpen => self.script_data_escaped_end_tag_open_state(),
            State::ScriptDataEscapedEndTagName => self.script_data_escaped_end_tag_name_state(),
            State::ScriptDataDoubleEscapeStart => self.script_data_double_escape_start_state(),
            State::ScriptDataDoubleEscaped => self.script_data_double_escaped_state(),
            State::ScriptDataDoubleEscapedDash => self.script_data_double_escaped_dash_state(),
            State::ScriptDataDoubleEscapedDashDash => {
                self.script_data_double_escaped_dash_dash_state()
            }
            State::ScriptDataDoubleEscapedLessThanSign => {
                self.script_data_double_escaped_less_than_sign_state()
            }
            State::ScriptDataDoubleEscapeEnd => self.script_data_double_escape_end_state(),
            State::BeforeAttributeName => self.before_attribute_name_state(),
            State::AttributeName => self.attribute_name_state(),
            State::AfterAttributeName => self.after_attribute_name_state(),
            State::BeforeAttributeValue => self.before_attribute_value_state(),
            State::AttributeValueDoubleQuoted => self.attribute_value_quoted_state(b'"'),
            State::AttributeValueSingleQuoted => self.attribute_value_quoted_state(b'\''),
            State::AttributeValueUnquoted => self.attribute_value_unquoted_state(),
            State::AfterAttributeValueQuoted => self.after_attribute_value_quoted_state(),
            State::SelfClosingStartTag => self.self_closing_start_tag_state(),
            State::BogusComment => self.bogus_comment_state(),
            State::MarkupDeclarationOpen => self.markup_declaration_open_state(),
            State::CommentStart => self.comment_start_state(),
            State::CommentStartDash => self.comment_start_dash_state(),
            State::Comment => self.comment_state(),
            State::CommentLessThanSign => self.comment_less_than_sign_state(),
            State::CommentLessThanSignBang => self.comment_less_than_sign_bang_state(),
            State::CommentLessThanSignBangDash => self.comment_less_than_sign_bang_dash_state(),
            State::CommentLessThanSignBangDashDash => {
                self.comment_less_than_sign_bang_dash_dash_state()
            }
            State::CommentEndDash => self.comment_end_dash_state(),
            State::CommentEnd => self.comment_end_state(),
            State::CommentEndBang => self.comment_end_bang_state(),
            State::Doctype => self.doctype_state(),
            State::BeforeDoctypeName => self.before_doctype_name_state(),
            State::DoctypeName => self.doctype_name_state(),
            State::AfterDoctypeName => self.after_doctype_name_state(),
            State::AfterDoctypePublicKeyword => self.after_doctype_public_keyword_state(),
            State::BeforeDoctypePublicIdentifier => self.before_doctype_public_identifier_state(),
            State::DoctypePublicIdentifierDoubleQuoted => {
                self.doctype_public_identifier_quoted_state(b'"')
            }
            State::DoctypePublicIdentifierSingleQuoted => {
                self.doctype_public_identifier_quoted_state(b'\'')
            }
            State::AfterDoctypePublicIdentifier => self.after_doctype_public_identifier_state(),
            State::BetweenDoctypePublicAndSystemIdentifiers => {
                self.between_doctype_public_and_system_identifiers_state()
            }
            State::AfterDoctypeSystemKeyword => self.after_doctype_system_keyword_state(),
            State::BeforeDoctypeSystemIdentifier => self.before_doctype_system_identifier_state(),
            State::DoctypeSystemIdentifierDoubleQuoted => {
                self.doctype_system_identifier_quoted_state(b'"')
            }
            State::DoctypeSystemIdentifierSingleQuoted => {
                self.doctype_system_identifier_quoted_state(b'\'')
            }
            State::AfterDoctypeSystemIdentifier => self.after_doctype_system_identifier_state(),
            State::BogusDoctype => self.bogus_doctype_state(),
            State::CdataSection => self.cdata_section_state(),
            State::CdataSectionBracket => self.cdata_section_bracket_state(),
            State::CdataSectionEnd => self.cdata_section_end_state(),
            State::ProcessingInstructionOpen => self.processing_instruction_open_state(),
            State::ProcessingInstructionTarget => self.processing_instruction_target_state(),
            State::AfterProcessingInstructionTarget => {
                self.after_processing_instruction_target_state()
            }
            State::ProcessingInstructionData => self.processing_instruction_data_state(),
            State::ProcessingInstructionQuestionable => {
                self.processing_instruction_questionable_state()
            }
            State::CharacterReference => self.character_reference_state(),
            State::NamedCharacterReference => self.named_character_reference_state(),
            State::AmbiguousAmpersand => self.ambiguous_ampersand_state(),
            State::NumericCharacterReference => self.numeric_character_reference_state(),
            State::HexadecimalCharacterReferenceStart => {
                self.hexadecimal_character_reference_start_state()
            }
            State::DecimalCharacterReferenceStart => self.decimal_character_reference_start_state(),
            State::HexadecimalCharacterReference => self.hexadecimal_character_reference_state(),
            State::DecimalCharacterReference => self.decimal_character_reference_state(),
            State::NumericCharacterReferenceEnd => self.numeric_character_reference_end_state(),
        }
    }

    // ---------------------------------------------------------------------------------------
    // Input: preprocessing and the input-stream errors.

    /// The next input character (CR LF and CR read as LF) without consuming it. Reports the
    /// input-stream errors of a character the first time it is read.
    #[inline(always)]
    fn cur(&mut self) -> Next {
        let i = self.pos - self.base;
        let bytes = self.buf.as_bytes();
        let Some(&b) = bytes.get(i) else {
            self.cw = 0;
            return if self.finished { Next::Eof } else { Next::Wait };
        };
        let (c, w) = if b < 0x80 {
            if b == b'\r' {
                match bytes.get(i + 1) {
                    Some(b'\n') => ('\n', 2),
                    Some(_) => ('\n', 1),
                    None if self.finished => ('\n', 1),
                    None => {
                        self.cw = 0;
                        return Next::Wait;
                    }
                }
            } else {
                (b as char, 1)
            }
        } else {
            let c = self.buf[i..].chars().next().unwrap_or('\u{FFFD}');
            (c, c.len_utf8())
        };
        self.cw = w;
        if self.pos >= self.checked {
            self.checked = self.pos + w;
            if ODD[b as usize] {
                self.check_input_char(c, self.pos, w);
            }
        }
        Next::Char(c)
    }

    /// Consumes the character last read by [`Tokenizer::cur`].
    #[inline]
    fn consume(&mut self) {
        self.pos += self.cw;
    }

    fn check_input_char(&mut self, c: char, at: usize, w: usize) {
        check_input_char(&mut self.diagnostics, c, at, w);
    }

    /// Skips from `pos` over bytes that are not in `stops`, reporting input-stream errors, and
    /// returns the absolute offset where the run ends (`pos` is not moved).
    #[inline]
    fn scan(&mut self, stops: &[u8; 256]) -> usize {
        let bytes = self.buf.as_bytes();
        let mut i = self.pos - self.base;
        // Short runs (the text between two tags, a name) end within a few bytes: look at those
        // with the table before paying for a memchr call.
        let probe_end = bytes.len().min(i + SHORT_RUN);
        while i < probe_end {
            match stops[bytes[i] as usize] {
                PLAIN => i += 1,
                STOP => return self.scanned(i),
                _ => break,
            }
        }
        // Fast path for long text runs: find the next byte that matters with memchr, then check the
        // run for bytes that need a closer look.
        let rest = &bytes[i..];
        let found = if i < probe_end || rest.is_empty() {
            None
        } else if std::ptr::eq(stops, &DATA_STOPS) {
            Some(memchr::memchr3(b'<', b'&', b'\r', rest).unwrap_or(rest.len()))
        } else if std::ptr::eq(stops, &RAWTEXT_STOPS) {
            Some(memchr::memchr2(b'<', b'\r', rest).unwrap_or(rest.len()))
        } else if std::ptr::eq(stops, &COMMENT_STOPS) {
            Some(memchr::memchr3(b'<', b'-', b'\r', rest).unwrap_or(rest.len()))
        } else {
            None
        };
        if let Some(n) = found
            && is_plain(&bytes[i..i + n])
        {
            let end = self.base + i + n;
            if end > self.checked {
                self.checked = end;
            }
            return end;
        }
        while let Some(&b) = bytes.get(i) {
            let class = stops[b as usize];
            if class == PLAIN {
                i += 1;
                continue;
            }
            if class == STOP {
                break;
            }
            let at = self.base + i;
            let c = self.buf[i..].chars().next().unwrap_or('\u{FFFD}');
            let w = if b < 0x80 { 1 } else { c.len_utf8() };
            if at >= self.checked {
                let code = c as u32;
                if numeric::is_control(code) || numeric::is_noncharacter(code) {
                    check_input_char(&mut self.diagnostics, c, at, w);
                }
            }
            i += w;
        }
        self.scanned(i)
    }

    /// The end of a scanned run at buffer index `i`: every character before it has been checked.
    #[inline]
    fn scanned(&mut self, i: usize) -> usize {
        let end = self.base + i;
        if end > self.checked {
            self.checked = end;
        }
        end
    }

    /// Whether the input at `pos` starts with `lit` (ASCII; `ci`: ASCII case-insensitively).
    /// `None` when the input ends first and more may come.
    fn lookahead(&self, lit: &[u8], ci: bool) -> Option<bool> {
        let bytes = &self.buf.as_bytes()[self.pos - self.base..];
        for (k, &l) in lit.iter().enumerate() {
            match bytes.get(k) {
                None => return if self.finished { Some(false) } else { None },
                Some(&b) => {
                    let eq = if ci {
                        b.eq_ignore_ascii_case(&l)
                    } else {
                        b == l
                    };
                    if !eq {
                        return Some(false);
                    }
                }
            }
        }
        Some(true)
    }

    // ---------------------------------------------------------------------------------------
    // Output: errors, text, tokens.

    /// Reports `code` at the current input character (an empty span at the end of the input or
    /// where no character was read).
    #[cold]
    fn error(&mut self, code: ErrorCode) {
        let span = Span::new(self.pos, self.pos + self.cw);
        self.diagnostics.push(Diagnostic::new(code, span));
    }

    #[cold]
    fn error_at(&mut self, code: ErrorCode, span: Span) {
        self.diagnostics.push(Diagnostic::new(code, span));
    }

    /// Emits the input `start..end` unchanged as character tokens.
    #[inline]
    fn emit_raw(&mut self, start: usize, end: usize) {
        self.text_join(start);
        self.text.push_raw(&self.buf, self.base, start, end);
        self.text_extend(start, end);
    }

    /// Emits `s`, which replaces the input `start..end`, as character tokens.
    fn emit_str(&mut self, s: &str, start: usize, end: usize) {
        self.text_join(start);
        self.text.push_str(&self.buf, self.base, s);
        self.text_extend(start, end);
    }

    /// Emits the current input character and consumes it.
    #[inline]
    fn emit_current(&mut self) {
        let (start, end) = (self.pos, self.pos + self.cw);
        if self.buf.as_bytes()[start - self.base] == b'\r' {
            self.emit_str("\n", start, end);
        } else {
            self.emit_raw(start, end);
        }
        self.pos = end;
    }

    /// Emits U+FFFD for the current input character (a NULL) and consumes it.
    fn emit_replacement(&mut self) {
        let (start, end) = (self.pos, self.pos + self.cw);
        self.emit_str("\u{FFFD}", start, end);
        self.pos = end;
    }

    /// Starts a new text token if the pending one does not end at `start`.
    #[inline]
    fn text_join(&mut self, start: usize) {
        if let Some((_, e)) = self.text_span
            && e != start
        {
            self.flush_text();
        }
    }

    /// Extends the pending text's span to cover `start..end`.
    #[inline]
    fn text_extend(&mut self, start: usize, end: usize) {
        self.text_span = Some((self.text_span.map_or(start, |(s, _)| s), end));
    }

    /// Queues the pending text, if any.
    #[inline]
    fn flush_text(&mut self) {
        if let Some((s, e)) = self.text_span.take() {
            let text = std::mem::take(&mut self.text);
            let span = Span::new(s, e);
            let p = if text.is_empty() {
                Pending::Discarded(span)
            } else {
                Pending::Text(text, span)
            };
            self.last_end = e;
            self.queue.push_back(p);
        }
    }

    /// Queues a token (after the pending text).
    #[inline]
    fn push_token(&mut self, p: Pending) {
        self.limit.detach = false;
        self.flush_text();
        self.last_end = p.span().end;
        self.queue.push_back(p);
    }

    fn emit_eof(&mut self) -> Flow {
        self.push_token(Pending::Eof(Span::empty(self.pos)));
        self.done = true;
        Flow::Go
    }

    /// `eof-in-tag`: the tag is dropped; its source is reported as discarded.
    fn eof_in_tag(&mut self) -> Flow {
        self.error(ErrorCode::EofInTag);
        self.tag = TagBuild::default();
        self.attr = None;
        self.attr_index.clear();
        self.push_token(Pending::Discarded(Span::new(self.token_start, self.pos)));
        self.emit_eof()
    }

    fn new_tag(&mut self, end_tag: bool) {
        // Field by field: the previous tag has normally been taken already (all fields empty),
        // and assigning a whole new `TagBuild` would run its drop glue every time.
        let t = &mut self.tag;
        t.end_tag = end_tag;
        t.name = SBuf::Empty;
        t.attrs.clear();
        t.self_closing = false;
        if self.attr.is_some() {
            self.attr = None;
        }
        if self.attr_index.len() != 0 {
            self.attr_index.clear();
        }
        self.limit.new_token();
    }

    /// Appends the current input character to the name of an end tag in RCDATA, RAWTEXT or
    /// script data (lowercased) and consumes it. No limit: the name is only compared with the
    /// last start tag's, and is text unless it equals it.
    fn append_tag_name(&mut self, c: char) {
        if c.is_ascii_uppercase() {
            self.tag
                .name
                .push_char(&self.buf, self.base, c.to_ascii_lowercase());
        } else {
            self.tag
                .name
                .push_raw(&self.buf, self.base, self.pos, self.pos + self.cw);
        }
        self.consume();
    }

    /// Emits the current tag; the `>` has been consumed.
    fn emit_tag(&mut self) {
        self.finish_attribute();
        if self.attr_index.len() != 0 {
            // Not needed any more: a large tag's index goes before its token is built.
            self.attr_index.clear();
        }
        let gt = Span::new(self.pos - 1, self.pos);
        debug_assert!(!self.queue.iter().any(|p| matches!(p, Pending::Tag(_))));
        if self.tag.end_tag {
            if !self.tag.attrs.is_empty() {
                self.error_at(ErrorCode::EndTagWithAttributes, gt);
            }
            if self.tag.self_closing {
                self.error_at(ErrorCode::EndTagWithTrailingSolidus, gt);
            }
        } else {
            self.start_tag_done();
        }
        self.push_token(Pending::Tag(Span::new(self.token_start, self.pos)));
    }

    /// A start tag is finished: it becomes the last start tag, and without a tree builder its
    /// name may switch the state.
    #[inline]
    fn start_tag_done(&mut self) {
        if let SBuf::Range(s, e) = self.tag.name {
            self.last_start_range = Some((s, e));
        } else {
            self.last_start_range = None;
            self.last_start_tag.clear();
            self.last_start_tag
                .push_str(self.tag.name.as_str(&self.buf, self.base));
        }
        if self.options.switch_by_tag_name {
            self.state = match self.tag.name.as_str(&self.buf, self.base) {
                "title" | "textarea" => State::Rcdata,
                "style" | "xmp" | "iframe" | "noembed" | "noframes" => State::Rawtext,
                "noscript" if self.options.scripting => State::Rawtext,
                "script" => State::ScriptData,
                "plaintext" => State::Plaintext,
                _ => self.state,
            };
        }
    }

    /// Whether the current end tag is an appropriate end tag token.
    fn appropriate_end_tag(&self) -> bool {
        let last = match self.last_start_range {
            Some((s, e)) => &self.buf[s - self.base..e - self.base],
            None => self.last_start_tag.as_str(),
        };
        !last.is_empty() && self.tag.name.as_str(&self.buf, self.base) == last
    }

    /// Starts an attribute at the current character (dropped past `Limits::max_attributes`).
    fn start_attribute(&mut self) {
        self.finish_attribute();
        self.limit.new_attribute();
        if self.attribute_over_limit() {
            self.attr = None;
            self.attr_duplicate = false;
            return;
        }
        self.attr = Some(AttrBuild {
            start: self.pos,
            end: self.pos,
            ..AttrBuild::default()
        });
        self.attr_duplicate = false;
    }

    fn finish_attribute(&mut self) {
        if let Some(a) = self.attr.take()
            && !self.attr_duplicate
        {
            self.tag.attrs.push(a);
        }
        self.attr_duplicate = false;
    }

    /// Appends the current character to the attribute's name or value (within its limit) and
    /// consumes it.
    fn attr_push_current(&mut self, name: bool) {
        let (start, end) = (self.pos, self.pos + self.cw);
        if self.buf.as_bytes()[start - self.base] == b'\r' {
            self.attr_append_str(name, "\n", start, end);
        } else {
            self.attr_append_raw(name, start, end);
        }
        self.pos = end;
    }

    /// Appends `c` for the current character to the attribute's name or value (within its
    /// limit) and consumes it.
    fn attr_push_char(&mut self, name: bool, c: char) {
        let (start, end) = (self.pos, self.pos + self.cw);
        let mut tmp = [0u8; 4];
        self.attr_append_str(name, c.encode_utf8(&mut tmp), start, end);
        self.pos = end;
    }

    fn comment_push_current(&mut self) {
        let (start, end) = (self.pos, self.pos + self.cw);
        if self.buf.as_bytes()[start - self.base] == b'\r' {
            self.comment.push_char(&self.buf, self.base, '\n');
        } else {
            self.comment.push_raw(&self.buf, self.base, start, end);
        }
        self.pos = end;
    }

    /// Appends the `n` bytes before `pos` (dashes, `!`: ASCII) to the comment.
    fn comment_push_before(&mut self, n: usize) {
        self.comment
            .push_raw(&self.buf, self.base, self.pos - n, self.pos);
    }

    fn emit_comment(&mut self) {
        debug_assert!(!self.queue.iter().any(|p| matches!(p, Pending::Comment(_))));
        self.push_token(Pending::Comment(Span::new(self.token_start, self.pos)));
    }

    fn emit_doctype(&mut self) {
        debug_assert!(!self.queue.iter().any(|p| matches!(p, Pending::Doctype(_))));
        self.push_token(Pending::Doctype(Span::new(self.token_start, self.pos)));
    }

    fn eof_in_doctype(&mut self) -> Flow {
        self.error(ErrorCode::EofInDoctype);
        self.doctype.force_quirks = true;
        self.emit_doctype();
        self.emit_eof()
    }

    fn eof_in_comment(&mut self) -> Flow {
        self.error(ErrorCode::EofInComment);
        self.emit_comment();
        self.emit_eof()
    }

    /// Appends the current character (or `replacement`) to a DOCTYPE string and consumes it
    /// (the name within the name limit).
    fn doctype_push(&mut self, which: u8, replacement: Option<char>) {
        if which == 0 {
            return self.doctype_name_push(replacement);
        }
        let (start, end) = (self.pos, self.pos + self.cw);
        let cr = self.buf.as_bytes()[start - self.base] == b'\r';
        let target = match which {
            0 => self.doctype.name.get_or_insert_with(SBuf::default),
            1 => self.doctype.public_id.get_or_insert_with(SBuf::default),
            _ => self.doctype.system_id.get_or_insert_with(SBuf::default),
        };
        match replacement {
            Some(c) => target.push_char(&self.buf, self.base, c),
            None if cr => target.push_char(&self.buf, self.base, '\n'),
            None => target.push_raw(&self.buf, self.base, start, end),
        }
        self.pos = end;
    }

    // ---------------------------------------------------------------------------------------
    // The direct path beside the states: text, references and whole tags in one go.

    /// In the data state between tokens: takes text runs and the references between them that
    /// [`fast_reference`] decides, and then a whole tag when the buffer holds all of it and it is
    /// plain (see [`Tokenizer::fast_tag`]). Anything else (a chunk end, CR, NULL, a reference or
    /// tag that is not plain, markup declarations) is left to the states at its start, with the
    /// text so far pending as the states would have it.
    fn fast_data(&mut self) -> Fast {
        // The common case first: a run of plain text (maybe empty), then a tag. The text is
        // handed out as a range of the input without going through `text`.
        let start = self.pos;
        let end = self.scan(&DATA_STOPS);
        if self.buf.as_bytes().get(end - self.base) == Some(&b'<') {
            self.pos = end;
            if let Some(span) = self.fast_tag() {
                return if end > start {
                    Fast::RawTextThenTag(start, end, span)
                } else {
                    Fast::Tag(span)
                };
            }
            if end > start {
                self.emit_raw(start, end);
            }
            // A comment goes through the queue (they are few).
            self.fast_comment();
            return Fast::No;
        }
        if end > start {
            self.emit_raw(start, end);
            self.pos = end;
        }
        let mut end = end;
        loop {
            match self.buf.as_bytes().get(end - self.base) {
                Some(b'<') => {
                    return match self.fast_tag() {
                        Some(span) if self.text_span.is_some() => Fast::TextThenTag(span),
                        Some(span) => Fast::Tag(span),
                        None => {
                            // A comment goes through the queue (they are few).
                            self.fast_comment();
                            Fast::No
                        }
                    };
                }
                Some(b'&') => {
                    let Some((resolved, after)) = fast_reference(
                        &self.buf,
                        end - self.base,
                        false,
                        self.finished,
                        &mut self.names,
                    ) else {
                        return Fast::No;
                    };
                    let after = self.base + after;
                    let mut tmp = [0u8; 4];
                    if !matches!(resolved, Resolved::Raw) && !matches!(self.text, SBuf::Owned(_)) {
                        // The text becomes owned here: room for it up to the next `<` at once.
                        let rest = &self.buf.as_bytes()[after - self.base..];
                        let n = memchr::memchr(b'<', rest).unwrap_or(rest.len());
                        self.text.reserve(&self.buf, self.base, n + 8);
                    }
                    match resolved {
                        Resolved::Str(s) => self.emit_str(s, end, after),
                        Resolved::Char(c) => self.emit_str(c.encode_utf8(&mut tmp), end, after),
                        Resolved::Raw => self.emit_raw(end, after),
                    }
                    self.pos = after;
                    if after > self.checked {
                        self.checked = after;
                    }
                }
                _ => return Fast::No,
            }
            end = self.scan(&DATA_STOPS);
            if end > self.pos {
                self.emit_raw(self.pos, end);
                self.pos = end;
            }
        }
    }

    /// A whole comment at `pos` (a `<`) when all of it is in the buffer and the comment states
    /// would take it without a parse error or a change: `<!--`, then data without `!`, NULL, CR
    /// or characters with input-stream errors, not starting with `>` or `->`, up to the first
    /// `-->`. (Without `!` there is no `--!>` ending it first and no nested `<!--`; a `-` or `--`
    /// inside the data is copied by the states as it is, and `--->` leaves the `-` to the data
    /// as the first `-->` does.) Queues it (after the pending text), moves past it and returns
    /// true; otherwise changes nothing and returns false.
    #[inline(never)]
    fn fast_comment(&mut self) -> bool {
        let bytes = self.buf.as_bytes();
        let lt = self.pos - self.base;
        let ds = lt + 4;
        let data = || {
            if bytes.get(lt..ds)? != b"<!--" || matches!(bytes.get(ds..ds + 2)?, [b'>', _] | b"->")
            {
                return None;
            }
            // Only up to the first `!`: the states may end the comment there (`--!>`), and a
            // search past it would rescan the rest of the input for every such comment.
            let rest = &bytes[ds..];
            let bang = memchr::memchr(b'!', rest).unwrap_or(rest.len());
            let de = ds + memchr::memmem::find(&rest[..bang], b"-->")?;
            is_plain(&bytes[ds..de]).then_some(de)
        };
        let Some(de) = data() else {
            return false;
        };
        let base = self.base;
        self.comment = if de > ds {
            SBuf::Range(base + ds, base + de)
        } else {
            SBuf::Empty
        };
        let end = base + de + 3;
        self.token_start = base + lt;
        self.pos = end;
        if end > self.checked {
            self.checked = end;
        }
        self.emit_comment();
        true
    }

    /// A whole tag at `pos` (a `<`), when all of it is in the buffer and it has none of what
    /// makes the states do more than copy: a start tag `<name attr attr="v" attr='v' attr=v>`
    /// (or `/>`) or an end tag `</name>`, with lowercase names of [`NAME_STOPS`]' plain bytes,
    /// values without NULL, CR or characters with input-stream errors (quoted ones may hold
    /// references that [`fast_reference`] decides, unquoted ones none), no duplicate
    /// attribute (at most [`LINEAR_DUPLICATE_LIMIT`] of them) and nothing that is a parse error.
    /// Builds it in `tag` exactly as the states would, moves past it and returns its span;
    /// otherwise changes nothing the states read (`tag` is reset by them at a tag's start) and
    /// returns `None`.
    ///
    /// Always inlined into [`Tokenizer::fast_data`]: called once per tag, the call itself showed
    /// up in the profile (3% of the instructions on whatwg-html-source-2010).
    #[inline(always)]
    fn fast_tag(&mut self) -> Option<Span> {
        let finished = self.finished;
        let mut tmp = [0u8; 4];
        let buf = self.buf.as_str();
        let bytes = buf.as_bytes();
        let base = self.base;
        let at = |j: usize| bytes.get(j).copied();
        let is_ws = |b: u8| matches!(b, b' ' | b'\t' | b'\n' | b'\x0C');
        let lt = self.pos - base;
        let mut j = lt + 1;
        let end_tag = at(j)? == b'/';
        if end_tag {
            j += 1;
        }
        if !at(j)?.is_ascii_lowercase() {
            return None;
        }
        let name_start = j;
        j += 1;
        while NAME_STOPS[at(j)? as usize] == PLAIN {
            j += 1;
        }
        let name_end = j;
        let t = &mut self.tag;
        t.end_tag = end_tag;
        t.name = SBuf::Range(base + name_start, base + name_end);
        t.attrs.clear();
        t.self_closing = false;
        let gt = loop {
            let b = at(j)?;
            if b == b'>' {
                break j;
            }
            if b == b'/' {
                if !end_tag && at(j + 1)? == b'>' {
                    t.self_closing = true;
                    break j + 1;
                }
                return None;
            }
            if is_ws(b) {
                j += 1;
                continue;
            }
            // An attribute: only after whitespace (a name stops at whitespace, `/`, `>` or at
            // what makes this path give up, and a value is followed by whitespace, `/` or `>`).
            if end_tag {
                return None;
            }
            let ns = j;
            while NAME_STOPS[at(j)? as usize] == PLAIN {
                j += 1;
            }
            let ne = j;
            if ne == ns {
                return None;
            }
            let name = &bytes[ns..ne];
            if t.attrs.len() >= LINEAR_DUPLICATE_LIMIT
                || t.attrs.iter().any(|a| match a.name {
                    SBuf::Range(s, e) => &bytes[s - base..e - base] == name,
                    _ => true,
                })
            {
                return None;
            }
            let mut k = j;
            while is_ws(at(k)?) {
                k += 1;
            }
            if at(k)? != b'=' {
                // No value; what follows is another attribute, `/` or `>`.
                t.attrs.push(AttrBuild {
                    name: SBuf::Range(base + ns, base + ne),
                    value: SBuf::Empty,
                    start: base + ns,
                    end: base + ne,
                });
                j = k;
                continue;
            }
            j = k + 1;
            while is_ws(at(j)?) {
                j += 1;
            }
            let (vs, ve, after) = match at(j)? {
                quote @ (b'"' | b'\'') => {
                    let vs = j + 1;
                    let len = memchr::memchr2(quote, b'&', &bytes[vs..])?;
                    let mut ve = vs + len;
                    if !is_plain(&bytes[vs..ve]) {
                        return None;
                    }
                    if bytes[ve] == b'&' {
                        // References: the value is built piece by piece (`seg` is where the
                        // source not yet appended starts).
                        let mut seg = vs;
                        let mut value = SBuf::Empty;
                        // The closing quote bounds the value's length (a reference's source is
                        // never much shorter than what it resolves to): one allocation.
                        let close = ve + memchr::memchr(quote, &bytes[ve..])?;
                        loop {
                            if bytes[ve] == quote {
                                if ve > seg {
                                    value.push_raw(buf, base, base + seg, base + ve);
                                }
                                break;
                            }
                            let (resolved, after) =
                                fast_reference(buf, ve, true, finished, &mut self.names)?;
                            let replacement = match resolved {
                                Resolved::Raw => None,
                                Resolved::Str(s) => Some(s),
                                Resolved::Char(c) => Some(c.encode_utf8(&mut tmp) as &str),
                            };
                            if let Some(r) = replacement {
                                if !matches!(value, SBuf::Owned(_)) {
                                    value.reserve(buf, base, close - seg + 8);
                                }
                                if ve > seg {
                                    value.push_raw(buf, base, base + seg, base + ve);
                                }
                                value.push_str(buf, base, r);
                                seg = after;
                            }
                            let p = after;
                            ve = p + memchr::memchr2(quote, b'&', &bytes[p..])?;
                            if !is_plain(&bytes[p..ve]) {
                                return None;
                            }
                        }
                        if !matches!(at(ve + 1)?, b' ' | b'\t' | b'\n' | b'\x0C' | b'/' | b'>') {
                            return None;
                        }
                        t.attrs.push(AttrBuild {
                            name: SBuf::Range(base + ns, base + ne),
                            value,
                            start: base + ns,
                            end: base + ve + 1,
                        });
                        j = ve + 1;
                        continue;
                    }
                    // After the closing quote: whitespace, `/` or `>` (anything else is an error).
                    if !matches!(at(ve + 1)?, b' ' | b'\t' | b'\n' | b'\x0C' | b'/' | b'>') {
                        return None;
                    }
                    (vs, ve, ve + 1)
                }
                b if UNQUOTED_FAST[b as usize] => {
                    let vs = j;
                    let mut ve = j + 1;
                    while UNQUOTED_FAST[at(ve)? as usize] {
                        ve += 1;
                    }
                    if !matches!(at(ve)?, b' ' | b'\t' | b'\n' | b'\x0C' | b'>')
                        || !is_plain(&bytes[vs..ve])
                    {
                        return None;
                    }
                    (vs, ve, ve)
                }
                _ => return None,
            };
            t.attrs.push(AttrBuild {
                name: SBuf::Range(base + ns, base + ne),
                value: if ve > vs {
                    SBuf::Range(base + vs, base + ve)
                } else {
                    SBuf::Empty
                },
                start: base + ns,
                end: base + after,
            });
            j = after;
        };
        // A tag longer than the shortest name or value limit, or with more attributes than
        // allowed, is left to the states, which cut it (one check per tag: no name or value is
        // longer than the tag).
        if gt - lt > self.limit.max_tag_len || t.attrs.len() > self.limit.max_attributes {
            return None;
        }
        let start = base + lt;
        let end = base + gt + 1;
        self.token_start = start;
        self.pos = end;
        if end > self.checked {
            self.checked = end;
        }
        if !end_tag {
            // The name is a range of the input here.
            self.last_start_range = Some((base + name_start, base + name_end));
            if self.options.switch_by_tag_name {
                self.start_tag_done();
            }
        }
        Some(Span::new(start, end))
    }

    // ---------------------------------------------------------------------------------------
    // 12.2.5.1 - 12.2.5.5: the text states.

    fn data_state(&mut self) -> Flow {
        let end = self.scan(&DATA_STOPS);
        if end > self.pos {
            self.emit_raw(self.pos, end);
            self.pos = end;
        }
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char('&') => {
                self.return_state = State::Data;
                self.charref_start = self.pos;
                self.consume();
                self.state = State::CharacterReference;
            }
            Next::Char('<') => {
                self.token_start = self.pos;
                self.consume();
                self.state = State::TagOpen;
                // Hot transitions call the next state directly (always forward, so the depth is
                // bounded): data, tag open, tag name, attribute name, value, after value.
                return self.tag_open_state();
            }
            Next::Char('\0') => {
                self.error(ErrorCode::UnexpectedNullCharacter);
                self.emit_current();
            }
            Next::Eof => return self.emit_eof(),
            Next::Char(_) => self.emit_current(),
        }
        Flow::Go
    }

    fn rcdata_state(&mut self) -> Flow {
        let end = self.scan(&DATA_STOPS);
        if end > self.pos {
            self.emit_raw(self.pos, end);
            self.pos = end;
        }
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char('&') => {
                self.return_state = State::Rcdata;
                self.charref_start = self.pos;
                self.consume();
                self.state = State::CharacterReference;
            }
            Next::Char('<') => {
                self.token_start = self.pos;
                self.consume();
                self.state = State::RcdataLessThanSign;
            }
            Next::Char('\0') => {
                self.error(ErrorCode::UnexpectedNullCharacter);
                self.emit_replacement();
            }
            Next::Eof => return self.emit_eof(),
            Next::Char(_) => self.emit_current(),
        }
        Flow::Go
    }

    /// RAWTEXT and script data differ only in the state `<` leads to.
    fn rawtext_like(&mut self, less_than: State) -> Flow {
        let end = self.scan(&RAWTEXT_STOPS);
        if end > self.pos {
            self.emit_raw(self.pos, end);
            self.pos = end;
        }
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char('<') => {
                self.token_start = self.pos;
                self.consume();
                self.state = less_than;
            }
            Next::Char('\0') => {
                self.error(ErrorCode::UnexpectedNullCharacter);
                self.emit_replacement();
            }
            Next::Eof => return self.emit_eof(),
            Next::Char(_) => self.emit_current(),
        }
        Flow::Go
    }

    fn rawtext_state(&mut self) -> Flow {
        self.rawtext_like(State::RawtextLessThanSign)
    }

    fn script_data_state(&mut self) -> Flow {
        self.rawtext_like(State::ScriptDataLessThanSign)
    }

    fn plaintext_state(&mut self) -> Flow {
        let end = self.scan(&PLAINTEXT_STOPS);
        if end > self.pos {
            self.emit_raw(self.pos, end);
            self.pos = end;
        }
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char('\0') => {
                self.error(ErrorCode::UnexpectedNullCharacter);
                self.emit_replacement();
            }
            Next::Eof => return self.emit_eof(),
            Next::Char(_) => self.emit_current(),
        }
        Flow::Go
    }

    // ---------------------------------------------------------------------------------------
    // 12.2.5.6 - 12.2.5.8: tags.

    fn tag_open_state(&mut self) -> Flow {
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char('!') => {
                self.consume();
                self.state = State::MarkupDeclarationOpen;
            }
            Next::Char('/') => {
                self.consume();
                self.state = State::EndTagOpen;
                return self.end_tag_open_state();
            }
            Next::Char(c) if c.is_ascii_alphabetic() => {
                self.new_tag(false);
                self.state = State::TagName;
                return self.tag_name_state();
            }
            Next::Char('?') if self.options.legacy_processing_instructions => {
                self.error(ErrorCode::UnexpectedQuestionMarkInsteadOfTagName);
                self.comment = SBuf::Empty;
                self.state = State::BogusComment;
            }
            Next::Char('?') => self.tag_open_question_mark(),
            Next::Eof => {
                self.error(ErrorCode::EofBeforeTagName);
                self.emit_raw(self.token_start, self.pos);
                return self.emit_eof();
            }
            Next::Char(_) => {
                self.error(ErrorCode::InvalidFirstCharacterOfTagName);
                self.emit_raw(self.token_start, self.pos);
                self.state = State::Data;
            }
        }
        Flow::Go
    }

    fn end_tag_open_state(&mut self) -> Flow {
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char(c) if c.is_ascii_alphabetic() => {
                self.new_tag(true);
                self.state = State::TagName;
                return self.tag_name_state();
            }
            Next::Char('>') => {
                self.error(ErrorCode::MissingEndTagName);
                self.consume();
                self.push_token(Pending::Discarded(Span::new(self.token_start, self.pos)));
                self.state = State::Data;
            }
            Next::Eof => {
                self.error(ErrorCode::EofBeforeTagName);
                self.emit_raw(self.token_start, self.pos);
                return self.emit_eof();
            }
            Next::Char(_) => {
                self.error(ErrorCode::InvalidFirstCharacterOfTagName);
                self.comment = SBuf::Empty;
                self.state = State::BogusComment;
            }
        }
        Flow::Go
    }

    fn tag_name_state(&mut self) -> Flow {
        let end = self.scan(&NAME_STOPS);
        if end > self.pos {
            self.tag_name_append_raw(self.pos, end);
            self.pos = end;
        }
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char(c) if is_ws(c) => {
                self.consume();
                self.state = State::BeforeAttributeName;
                return self.before_attribute_name_state();
            }
            Next::Char('/') => {
                self.consume();
                self.state = State::SelfClosingStartTag;
            }
            Next::Char('>') => {
                self.consume();
                self.state = State::Data;
                self.emit_tag();
            }
            Next::Char('\0') => {
                self.error(ErrorCode::UnexpectedNullCharacter);
                self.tag_name_append_str("\u{FFFD}", self.pos, self.pos + self.cw);
                self.consume();
            }
            Next::Eof => return self.eof_in_tag(),
            Next::Char(c) => self.append_tag_name_limited(c),
        }
        Flow::Go
    }

    // ---------------------------------------------------------------------------------------
    // 12.2.5.9 - 12.2.5.17: end tags in RCDATA, RAWTEXT and script data.

    /// The "less-than sign" states of RCDATA and RAWTEXT.
    fn text_less_than_sign(&mut self, end_tag_open: State, text: State) -> Flow {
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char('/') => {
                self.temp.clear();
                self.consume();
                self.state = end_tag_open;
            }
            Next::Char(_) | Next::Eof => {
                self.emit_raw(self.token_start, self.token_start + 1);
                self.state = text;
            }
        }
        Flow::Go
    }

    /// The "end tag open" states: a letter starts an end tag, anything else is text.
    fn text_end_tag_open(&mut self, end_tag_name: State, text: State) -> Flow {
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char(c) if c.is_ascii_alphabetic() => {
                self.new_tag(true);
                self.state = end_tag_name;
            }
            Next::Char(_) | Next::Eof => {
                self.emit_raw(self.token_start, self.pos);
                self.state = text;
            }
        }
        Flow::Go
    }

    /// The "end tag name" states: only an appropriate end tag ends the text.
    fn text_end_tag_name(&mut self, text: State) -> Flow {
        let next = self.cur();
        match next {
            Next::Wait => return Flow::Wait,
            Next::Char(c) if is_ws(c) && self.appropriate_end_tag() => {
                self.consume();
                self.state = State::BeforeAttributeName;
            }
            Next::Char('/') if self.appropriate_end_tag() => {
                self.consume();
                self.state = State::SelfClosingStartTag;
            }
            Next::Char('>') if self.appropriate_end_tag() => {
                self.consume();
                self.state = State::Data;
                self.emit_tag();
            }
            Next::Char(c) if c.is_ascii_alphabetic() => self.append_tag_name(c),
            Next::Char(_) | Next::Eof => {
                self.tag = TagBuild::default();
                self.emit_raw(self.token_start, self.pos);
                self.state = text;
            }
        }
        Flow::Go
    }

    fn rcdata_less_than_sign_state(&mut self) -> Flow {
        self.text_less_than_sign(State::RcdataEndTagOpen, State::Rcdata)
    }

    fn rcdata_end_tag_open_state(&mut self) -> Flow {
        self.text_end_tag_open(State::RcdataEndTagName, State::Rcdata)
    }

    fn rcdata_end_tag_name_state(&mut self) -> Flow {
        self.text_end_tag_name(State::Rcdata)
    }

    fn rawtext_less_than_sign_state(&mut self) -> Flow {
        self.text_less_than_sign(State::RawtextEndTagOpen, State::Rawtext)
    }

    fn rawtext_end_tag_open_state(&mut self) -> Flow {
        self.text_end_tag_open(State::RawtextEndTagName, State::Rawtext)
    }

    fn rawtext_end_tag_name_state(&mut self) -> Flow {
        self.text_end_tag_name(State::Rawtext)
    }

    fn script_data_less_than_sign_state(&mut self) -> Flow {
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char('/') => {
                self.temp.clear();
                self.consume();
                self.state = State::ScriptDataEndTagOpen;
            }
            Next::Char('!') => {
                self.consume();
                self.emit_raw(self.token_start, self.pos);
                self.state = State::ScriptDataEscapeStart;
            }
            Next::Char(_) | Next::Eof => {
                self.emit_raw(self.token_start, self.token_start + 1);
                self.state = State::ScriptData;
            }
        }
        Flow::Go
    }

    fn script_data_end_tag_open_state(&mut self) -> Flow {
        self.text_end_tag_open(State::ScriptDataEndTagName, State::ScriptData)
    }

    fn script_data_end_tag_name_state(&mut self) -> Flow {
        self.text_end_tag_name(State::ScriptData)
    }

    // ---------------------------------------------------------------------------------------
    // 12.2.5.18 - 12.2.5.31: script data escapes.

    fn script_data_escape_start_state(&mut self) -> Flow {
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char('-') => {
                self.emit_current();
                self.state = State::ScriptDataEscapeStartDash;
            }
            Next::Char(_) | Next::Eof => self.state = State::ScriptData,
        }
        Flow::Go
    }

    fn script_data_escape_start_dash_state(&mut self) -> Flow {
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char('-') => {
                self.emit_current();
                self.state = State::ScriptDataEscapedDashDash;
            }
            Next::Char(_) | Next::Eof => self.state = State::ScriptData,
        }
        Flow::Go
    }

    /// The escaped and double-escaped states share their shape; `double` picks the targets.
    fn escaped_text(&mut self, double: bool) -> Flow {
        let (dash, less_than) = if double {
            (
                State::ScriptDataDoubleEscapedDash,
                State::ScriptDataDoubleEscapedLessThanSign,
            )
        } else {
            (
                State::ScriptDataEscapedDash,
                State::ScriptDataEscapedLessThanSign,
            )
        };
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char('-') => {
                self.emit_current();
                self.state = dash;
            }
            Next::Char('<') => {
                self.token_start = self.pos;
                if double {
                    self.emit_current();
                } else {
                    self.consume();
                }
                self.state = less_than;
            }
            Next::Char('\0') => {
                self.error(ErrorCode::UnexpectedNullCharacter);
                self.emit_replacement();
            }
            Next::Eof => {
                self.error(ErrorCode::EofInScriptHtmlCommentLikeText);
                return self.emit_eof();
            }
            Next::Char(_) => {
                let end = self.scan(&COMMENT_STOPS);
                if end > self.pos {
                    self.emit_raw(self.pos, end);
                    self.pos = end;
                } else {
                    self.emit_current();
                }
            }
        }
        Flow::Go
    }

    fn escaped_dash(&mut self, double: bool, dash_dash: bool) -> Flow {
        let (escaped, less_than, next_dash) = if double {
            (
                State::ScriptDataDoubleEscaped,
                State::ScriptDataDoubleEscapedLessThanSign,
                State::ScriptDataDoubleEscapedDashDash,
            )
        } else {
            (
                State::ScriptDataEscaped,
                State::ScriptDataEscapedLessThanSign,
                State::ScriptDataEscapedDashDash,
            )
        };
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char('-') => {
                self.emit_current();
                self.state = next_dash;
            }
            Next::Char('<') => {
                self.token_start = self.pos;
                if double {
                    self.emit_current();
                } else {
                    self.consume();
                }
                self.state = less_than;
            }
            Next::Char('>') if dash_dash => {
                self.emit_current();
                self.state = State::ScriptData;
            }
            Next::Char('\0') => {
                self.error(ErrorCode::UnexpectedNullCharacter);
                self.emit_replacement();
                self.state = escaped;
            }
            Next::Eof => {
                self.error(ErrorCode::EofInScriptHtmlCommentLikeText);
                return self.emit_eof();
            }
            Next::Char(_) => {
                self.emit_current();
                self.state = escaped;
            }
        }
        Flow::Go
    }

    fn script_data_escaped_state(&mut self) -> Flow {
        self.escaped_text(false)
    }

    fn script_data_escaped_dash_state(&mut self) -> Flow {
        self.escaped_dash(false, false)
    }

    fn script_data_escaped_dash_dash_state(&mut self) -> Flow {
        self.escaped_dash(false, true)
    }

    fn script_data_escaped_less_than_sign_state(&mut self) -> Flow {
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char('/') => {
                self.temp.clear();
                self.consume();
                self.state = State::ScriptDataEscapedEndTagOpen;
            }
            Next::Char(c) if c.is_ascii_alphabetic() => {
                self.temp.clear();
                self.emit_raw(self.token_start, self.pos);
                self.state = State::ScriptDataDoubleEscapeStart;
            }
            Next::Char(_) | Next::Eof => {
                self.emit_raw(self.token_start, self.pos);
                self.state = State::ScriptDataEscaped;
            }
        }
        Flow::Go
    }

    fn script_data_escaped_end_tag_open_state(&mut self) -> Flow {
        self.text_end_tag_open(State::ScriptDataEscapedEndTagName, State::ScriptDataEscaped)
    }

    fn script_data_escaped_end_tag_name_state(&mut self) -> Flow {
        self.text_end_tag_name(State::ScriptDataEscaped)
    }

    /// The double escape start and end states: a `script` name between `<` (or `</`) and a
    /// delimiter toggles between escaped and double escaped.
    fn double_escape_toggle(&mut self, on_match: State, otherwise: State) -> Flow {
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char(c) if is_ws(c) || c == '/' || c == '>' => {
                self.state = if self.temp == "script" {
                    on_match
                } else {
                    otherwise
                };
                self.emit_current();
            }
            Next::Char(c) if c.is_ascii_alphabetic() => {
                if self.temp.len() <= 6 {
                    self.temp.push(c.to_ascii_lowercase());
                }
                self.emit_current();
            }
            Next::Char(_) | Next::Eof => self.state = otherwise,
        }
        Flow::Go
    }

    fn script_data_double_escape_start_state(&mut self) -> Flow {
        self.double_escape_toggle(State::ScriptDataDoubleEscaped, State::ScriptDataEscaped)
    }

    fn script_data_double_escaped_state(&mut self) -> Flow {
        self.escaped_text(true)
    }

    fn script_data_double_escaped_dash_state(&mut self) -> Flow {
        self.escaped_dash(true, false)
    }

    fn script_data_double_escaped_dash_dash_state(&mut self) -> Flow {
        self.escaped_dash(true, true)
    }

    fn script_data_double_escaped_less_than_sign_state(&mut self) -> Flow {
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char('/') => {
                self.temp.clear();
                self.emit_current();
                self.state = State::ScriptDataDoubleEscapeEnd;
            }
            Next::Char(_) | Next::Eof => self.state = State::ScriptDataDoubleEscaped,
        }
        Flow::Go
    }

    fn script_data_double_escape_end_state(&mut self) -> Flow {
        self.double_escape_toggle(State::ScriptDataEscaped, State::ScriptDataDoubleEscaped)
    }

    // ---------------------------------------------------------------------------------------
    // 12.2.5.32 - 12.2.5.40: attributes.

    fn before_attribute_name_state(&mut self) -> Flow {
        if let Some(flow) = self.fast_attributes() {
            return flow;
        }
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char(c) if is_ws(c) => self.consume(),
            Next::Char('/' | '>') | Next::Eof => self.state = State::AfterAttributeName,
            Next::Char('=') => {
                self.error(ErrorCode::UnexpectedEqualsSignBeforeAttributeName);
                self.start_attribute();
                self.attr_push_current(true);
                self.state = State::AttributeName;
            }
            Next::Char(_) => {
                self.start_attribute();
                self.state = State::AttributeName;
                return self.attribute_name_state();
            }
        }
        Flow::Go
    }

    /// A fast path beside the attribute states for the common shapes `name="value"` (a lowercase
    /// ASCII name, a quoted value without `&`, NULL, CR or characters with input-stream errors,
    /// then whitespace, `/` or `>`) and `name=value` (an unquoted value of [`UNQUOTED_FAST`]
    /// bytes, then whitespace or `>`), taking whole attributes at once. It produces exactly what the
    /// states would (the only possible error, `duplicate-attribute`, is reported at the `=`) and
    /// gives up, leaving everything to the states, at anything else or at the end of the buffer.
    /// `None` means "not taken here"; otherwise the flow of the state the states would reach.
    fn fast_attributes(&mut self) -> Option<Flow> {
        let mut taken = false;
        loop {
            let bytes = self.buf.as_bytes();
            let mut i = self.pos - self.base;
            while let Some(b' ' | b'\t' | b'\n' | b'\x0C') = bytes.get(i) {
                i += 1;
            }
            let name_start = i;
            if !bytes.get(i).is_some_and(u8::is_ascii_lowercase) {
                break;
            }
            while bytes
                .get(i)
                .is_some_and(|&b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            {
                i += 1;
            }
            let eq = i;
            if bytes.get(eq) != Some(&b'=')
                || self.limit.attributes_seen >= self.limit.max_attributes
            {
                break;
            }
            let (value_start, value_end, after, next) = match bytes.get(eq + 1) {
                Some(&quote @ (b'"' | b'\'')) => {
                    let value_start = eq + 2;
                    let Some(len) = memchr::memchr2(quote, b'&', &bytes[value_start..]) else {
                        break;
                    };
                    let value_end = value_start + len;
                    if bytes[value_end] != quote || !is_plain(&bytes[value_start..value_end]) {
                        break;
                    }
                    let after = value_end + 1;
                    match bytes.get(after) {
                        Some(&b @ (b' ' | b'\t' | b'\n' | b'\x0C' | b'/' | b'>')) => {
                            (value_start, value_end, after, b)
                        }
                        _ => break,
                    }
                }
                // Unquoted: a run of bytes that neither end the value nor carry an error, then
                // whitespace or `>` (the attribute ends with its value).
                Some(&b) if UNQUOTED_FAST[b as usize] => {
                    let value_start = eq + 1;
                    let mut j = value_start;
                    while bytes.get(j).is_some_and(|&b| UNQUOTED_FAST[b as usize]) {
                        j += 1;
                    }
                    if !is_plain(&bytes[value_start..j]) {
                        break;
                    }
                    match bytes.get(j) {
                        Some(&b @ (b' ' | b'\t' | b'\n' | b'\x0C' | b'>')) => {
                            (value_start, j, j, b)
                        }
                        _ => break,
                    }
                }
                _ => break,
            };
            // An attribute longer than the shortest name or value limit is left to the states.
            if after - name_start > self.limit.max_tag_len {
                break;
            }
            // Commit the attribute, as the states would have built it (after the one the states
            // may have left unfinished).
            self.finish_attribute();
            let base = self.base;
            self.attr = Some(AttrBuild {
                name: SBuf::Range(base + name_start, base + eq),
                value: SBuf::Range(base + value_start, base + value_end),
                start: base + name_start,
                end: base + after,
            });
            self.attr_duplicate = false;
            self.limit.attributes_seen += 1;
            self.pos = base + eq;
            self.cw = 1;
            self.check_duplicate_attribute();
            self.finish_attribute();
            self.pos = base + after + 1;
            if self.pos > self.checked {
                self.checked = self.pos;
            }
            taken = true;
            match next {
                b'>' => {
                    self.state = State::Data;
                    self.emit_tag();
                    return Some(Flow::Go);
                }
                b'/' => {
                    self.state = State::SelfClosingStartTag;
                    return Some(Flow::Go);
                }
                _ => {}
            }
        }
        // Whitespace and finished attributes were taken; the states go on from here.
        if taken {
            self.state = State::BeforeAttributeName;
        }
        None
    }

    fn attribute_name_state(&mut self) -> Flow {
        let end = self.scan(&NAME_STOPS);
        if end > self.pos {
            self.attr_append_raw(true, self.pos, end);
            self.pos = end;
        }
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char(c) if is_ws(c) || c == '/' || c == '>' => {
                self.check_duplicate_attribute();
                self.state = State::AfterAttributeName;
            }
            Next::Eof => {
                self.check_duplicate_attribute();
                self.state = State::AfterAttributeName;
            }
            Next::Char('=') => {
                self.check_duplicate_attribute();
                self.consume();
                self.state = State::BeforeAttributeValue;
                return self.before_attribute_value_state();
            }
            Next::Char(c) if c.is_ascii_uppercase() => {
                self.attr_push_char(true, c.to_ascii_lowercase())
            }
            Next::Char('\0') => {
                self.error(ErrorCode::UnexpectedNullCharacter);
                self.attr_push_char(true, '\u{FFFD}');
            }
            Next::Char(c) => {
                if matches!(c, '"' | '\'' | '<') {
                    self.error(ErrorCode::UnexpectedCharacterInAttributeName);
                }
                self.attr_push_current(true);
            }
        }
        Flow::Go
    }

    fn after_attribute_name_state(&mut self) -> Flow {
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char(c) if is_ws(c) => self.consume(),
            Next::Char('/') => {
                self.consume();
                self.state = State::SelfClosingStartTag;
            }
            Next::Char('=') => {
                self.consume();
                self.state = State::BeforeAttributeValue;
            }
            Next::Char('>') => {
                self.consume();
                self.state = State::Data;
                self.emit_tag();
            }
            Next::Eof => return self.eof_in_tag(),
            Next::Char(_) => {
                self.start_attribute();
                self.state = State::AttributeName;
            }
        }
        Flow::Go
    }

    fn before_attribute_value_state(&mut self) -> Flow {
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char(c) if is_ws(c) => self.consume(),
            Next::Char('"') => {
                self.consume();
                self.state = State::AttributeValueDoubleQuoted;
                return self.attribute_value_quoted_state(b'"');
            }
            Next::Char('\'') => {
                self.consume();
                self.state = State::AttributeValueSingleQuoted;
                return self.attribute_value_quoted_state(b'\'');
            }
            Next::Char('>') => {
                self.error(ErrorCode::MissingAttributeValue);
                self.consume();
                self.state = State::Data;
                self.emit_tag();
            }
            Next::Char(_) | Next::Eof => self.state = State::AttributeValueUnquoted,
        }
        Flow::Go
    }

    /// The double- and single-quoted attribute value states.
    fn attribute_value_quoted_state(&mut self, quote: u8) -> Flow {
        let stops = if quote == b'"' { &DQ_STOPS } else { &SQ_STOPS };
        let end = self.scan(stops);
        if end > self.pos {
            self.attr_append_raw(false, self.pos, end);
            self.pos = end;
        }
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char(c) if c as u32 == quote as u32 => {
                self.consume();
                if let Some(a) = self.attr.as_mut() {
                    a.end = self.pos;
                }
                self.state = State::AfterAttributeValueQuoted;
                return self.after_attribute_value_quoted_state();
            }
            Next::Char('&') => {
                self.return_state = self.state;
                self.charref_start = self.pos;
                self.consume();
                self.state = State::CharacterReference;
            }
            Next::Char('\0') => {
                self.error(ErrorCode::UnexpectedNullCharacter);
                self.attr_push_char(false, '\u{FFFD}');
            }
            Next::Eof => return self.eof_in_tag(),
            Next::Char(_) => self.attr_push_current(false),
        }
        Flow::Go
    }

    fn attribute_value_unquoted_state(&mut self) -> Flow {
        let end = self.scan(&UNQUOTED_STOPS);
        if end > self.pos {
            self.attr_append_raw(false, self.pos, end);
            self.pos = end;
        }
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char(c) if is_ws(c) => {
                self.consume();
                self.state = State::BeforeAttributeName;
            }
            Next::Char('&') => {
                self.return_state = State::AttributeValueUnquoted;
                self.charref_start = self.pos;
                self.consume();
                self.state = State::CharacterReference;
            }
            Next::Char('>') => {
                self.consume();
                self.state = State::Data;
                self.emit_tag();
            }
            Next::Char('\0') => {
                self.error(ErrorCode::UnexpectedNullCharacter);
                self.attr_push_char(false, '\u{FFFD}');
            }
            Next::Eof => return self.eof_in_tag(),
            Next::Char(c) => {
                if matches!(c, '"' | '\'' | '<' | '=' | '`') {
                    self.error(ErrorCode::UnexpectedCharacterInUnquotedAttributeValue);
                }
                self.attr_push_current(false);
            }
        }
        Flow::Go
    }

    fn after_attribute_value_quoted_state(&mut self) -> Flow {
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char(c) if is_ws(c) => {
                self.consume();
                self.state = State::BeforeAttributeName;
            }
            Next::Char('/') => {
                self.consume();
                self.state = State::SelfClosingStartTag;
            }
            Next::Char('>') => {
                self.consume();
                self.state = State::Data;
                self.emit_tag();
            }
            Next::Eof => return self.eof_in_tag(),
            Next::Char(_) => {
                self.error(ErrorCode::MissingWhitespaceBetweenAttributes);
                self.state = State::BeforeAttributeName;
            }
        }
        Flow::Go
    }

    fn self_closing_start_tag_state(&mut self) -> Flow {
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char('>') => {
                self.tag.self_closing = true;
                self.consume();
                self.state = State::Data;
                self.emit_tag();
            }
            Next::Eof => return self.eof_in_tag(),
            Next::Char(_) => {
                self.error(ErrorCode::UnexpectedSolidusInTag);
                self.state = State::BeforeAttributeName;
            }
        }
        Flow::Go
    }

    // ---------------------------------------------------------------------------------------
    // 12.2.5.41 - 12.2.5.52: comments.

    fn bogus_comment_state(&mut self) -> Flow {
        let end = self.scan(&BOGUS_STOPS);
        if end > self.pos {
            self.comment.push_raw(&self.buf, self.base, self.pos, end);
            self.pos = end;
        }
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char('>') => {
                self.consume();
                self.state = State::Data;
                self.emit_comment();
            }
            Next::Eof => {
                self.emit_comment();
                return self.emit_eof();
            }
            Next::Char('\0') => {
                self.error(ErrorCode::UnexpectedNullCharacter);
                self.comment.push_char(&self.buf, self.base, '\u{FFFD}');
                self.consume();
            }
            Next::Char(_) => self.comment_push_current(),
        }
        Flow::Go
    }

    fn markup_declaration_open_state(&mut self) -> Flow {
        let dashes = self.lookahead(b"--", false);
        let doctype = self.lookahead(b"DOCTYPE", true);
        let cdata = self.lookahead(b"[CDATA[", false);
        if dashes == Some(true) {
            self.pos += 2;
            self.comment = SBuf::Empty;
            self.state = State::CommentStart;
        } else if doctype == Some(true) {
            self.pos += 7;
            self.limit.new_token();
            self.state = State::Doctype;
        } else if cdata == Some(true) {
            if self.options.cdata_allowed {
                self.pos += 7;
                self.text_join(self.token_start);
                self.text_extend(self.token_start, self.pos);
                self.state = State::CdataSection;
            } else {
                // html5lib-tests put the error at the last `[` of `[CDATA[`.
                self.error_at(
                    ErrorCode::CdataInHtmlContent,
                    Span::new(self.pos + 6, self.pos + 7),
                );
                self.comment = SBuf::Empty;
                self.comment
                    .push_raw(&self.buf, self.base, self.pos, self.pos + 7);
                self.pos += 7;
                self.state = State::BogusComment;
            }
        } else if dashes.is_none() || doctype.is_none() || cdata.is_none() {
            return Flow::Wait;
        } else {
            // Read the character for the error's position (and its input-stream errors).
            if let Next::Wait = self.cur() {
                return Flow::Wait;
            }
            self.error(ErrorCode::IncorrectlyOpenedComment);
            self.comment = SBuf::Empty;
            self.state = State::BogusComment;
        }
        Flow::Go
    }

    fn comment_start_state(&mut self) -> Flow {
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char('-') => {
                self.consume();
                self.state = State::CommentStartDash;
            }
            Next::Char('>') => {
                self.error(ErrorCode::AbruptClosingOfEmptyComment);
                self.consume();
                self.state = State::Data;
                self.emit_comment();
            }
            Next::Char(_) | Next::Eof => self.state = State::Comment,
        }
        Flow::Go
    }

    fn comment_start_dash_state(&mut self) -> Flow {
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char('-') => {
                self.consume();
                self.state = State::CommentEnd;
            }
            Next::Char('>') => {
                self.error(ErrorCode::AbruptClosingOfEmptyComment);
                self.consume();
                self.state = State::Data;
                self.emit_comment();
            }
            Next::Eof => return self.eof_in_comment(),
            Next::Char(_) => {
                self.comment_push_before(1);
                self.state = State::Comment;
            }
        }
        Flow::Go
    }

    fn comment_state(&mut self) -> Flow {
        let end = self.scan(&COMMENT_STOPS);
        if end > self.pos {
            self.comment.push_raw(&self.buf, self.base, self.pos, end);
            self.pos = end;
        }
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char('<') => {
                self.comment_push_current();
                self.state = State::CommentLessThanSign;
            }
            Next::Char('-') => {
                self.consume();
                self.state = State::CommentEndDash;
            }
            Next::Char('\0') => {
                self.error(ErrorCode::UnexpectedNullCharacter);
                self.comment.push_char(&self.buf, self.base, '\u{FFFD}');
                self.consume();
            }
            Next::Eof => return self.eof_in_comment(),
            Next::Char(_) => self.comment_push_current(),
        }
        Flow::Go
    }

    fn comment_less_than_sign_state(&mut self) -> Flow {
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char('!') => {
                self.comment_push_current();
                self.state = State::CommentLessThanSignBang;
            }
            Next::Char('<') => self.comment_push_current(),
            Next::Char(_) | Next::Eof => self.state = State::Comment,
        }
        Flow::Go
    }

    fn comment_less_than_sign_bang_state(&mut self) -> Flow {
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char('-') => {
                self.consume();
                self.state = State::CommentLessThanSignBangDash;
            }
            Next::Char(_) | Next::Eof => self.state = State::Comment,
        }
        Flow::Go
    }

    fn comment_less_than_sign_bang_dash_state(&mut self) -> Flow {
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char('-') => {
                self.consume();
                self.state = State::CommentLessThanSignBangDashDash;
            }
            Next::Char(_) | Next::Eof => self.state = State::CommentEndDash,
        }
        Flow::Go
    }

    fn comment_less_than_sign_bang_dash_dash_state(&mut self) -> Flow {
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char('>') | Next::Eof => self.state = State::CommentEnd,
            Next::Char(_) => {
                self.error(ErrorCode::NestedComment);
                self.state = State::CommentEnd;
            }
        }
        Flow::Go
    }

    fn comment_end_dash_state(&mut self) -> Flow {
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char('-') => {
                self.consume();
                self.state = State::CommentEnd;
            }
            Next::Eof => return self.eof_in_comment(),
            Next::Char(_) => {
                self.comment_push_before(1);
                self.state = State::Comment;
            }
        }
        Flow::Go
    }

    fn comment_end_state(&mut self) -> Flow {
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char('>') => {
                self.consume();
                self.state = State::Data;
                self.emit_comment();
            }
            Next::Char('!') => {
                self.consume();
                self.state = State::CommentEndBang;
            }
            Next::Char('-') => {
                self.comment
                    .push_raw(&self.buf, self.base, self.pos - 2, self.pos - 1);
                self.consume();
            }
            Next::Eof => return self.eof_in_comment(),
            Next::Char(_) => {
                self.comment_push_before(2);
                self.state = State::Comment;
            }
        }
        Flow::Go
    }

    fn comment_end_bang_state(&mut self) -> Flow {
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char('-') => {
                self.comment_push_before(3);
                self.consume();
                self.state = State::CommentEndDash;
            }
            Next::Char('>') => {
                self.error(ErrorCode::IncorrectlyClosedComment);
                self.consume();
                self.state = State::Data;
                self.emit_comment();
            }
            Next::Eof => return self.eof_in_comment(),
            Next::Char(_) => {
                self.comment_push_before(3);
                self.state = State::Comment;
            }
        }
        Flow::Go
    }

    // ---------------------------------------------------------------------------------------
    // 12.2.5.53 - 12.2.5.68: DOCTYPE.

    fn doctype_state(&mut self) -> Flow {
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char(c) if is_ws(c) => {
                self.consume();
                self.state = State::BeforeDoctypeName;
            }
            Next::Char('>') => self.state = State::BeforeDoctypeName,
            Next::Eof => {
                self.doctype = DoctypeBuild::default();
                return self.eof_in_doctype();
            }
            Next::Char(_) => {
                self.error(ErrorCode::MissingWhitespaceBeforeDoctypeName);
                self.state = State::BeforeDoctypeName;
            }
        }
        Flow::Go
    }

    fn before_doctype_name_state(&mut self) -> Flow {
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char(c) if is_ws(c) => self.consume(),
            Next::Char(c) if c.is_ascii_uppercase() => {
                self.doctype = DoctypeBuild::default();
                self.doctype_push(0, Some(c.to_ascii_lowercase()));
                self.state = State::DoctypeName;
            }
            Next::Char('\0') => {
                self.error(ErrorCode::UnexpectedNullCharacter);
                self.doctype = DoctypeBuild::default();
                self.doctype_push(0, Some('\u{FFFD}'));
                self.state = State::DoctypeName;
            }
            Next::Char('>') => {
                self.error(ErrorCode::MissingDoctypeName);
                self.doctype = DoctypeBuild {
                    force_quirks: true,
                    ..DoctypeBuild::default()
                };
                self.consume();
                self.state = State::Data;
                self.emit_doctype();
            }
            Next::Eof => {
                self.doctype = DoctypeBuild::default();
                return self.eof_in_doctype();
            }
            Next::Char(_) => {
                self.doctype = DoctypeBuild::default();
                self.doctype_push(0, None);
                self.state = State::DoctypeName;
            }
        }
        Flow::Go
    }

    fn doctype_name_state(&mut self) -> Flow {
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char(c) if is_ws(c) => {
                self.consume();
                self.state = State::AfterDoctypeName;
            }
            Next::Char('>') => {
                self.consume();
                self.state = State::Data;
                self.emit_doctype();
            }
            Next::Char(c) if c.is_ascii_uppercase() => {
                self.doctype_push(0, Some(c.to_ascii_lowercase()))
            }
            Next::Char('\0') => {
                self.error(ErrorCode::UnexpectedNullCharacter);
                self.doctype_push(0, Some('\u{FFFD}'));
            }
            Next::Eof => return self.eof_in_doctype(),
            Next::Char(_) => self.doctype_push(0, None),
        }
        Flow::Go
    }

    fn after_doctype_name_state(&mut self) -> Flow {
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char(c) if is_ws(c) => self.consume(),
            Next::Char('>') => {
                self.consume();
                self.state = State::Data;
                self.emit_doctype();
            }
            Next::Eof => return self.eof_in_doctype(),
            Next::Char(_) => {
                let public = self.lookahead(b"PUBLIC", true);
                let system = self.lookahead(b"SYSTEM", true);
                if public == Some(true) {
                    self.pos += 6;
                    self.state = State::AfterDoctypePublicKeyword;
                } else if system == Some(true) {
                    self.pos += 6;
                    self.state = State::AfterDoctypeSystemKeyword;
                } else if public.is_none() || system.is_none() {
                    return Flow::Wait;
                } else {
                    self.error(ErrorCode::InvalidCharacterSequenceAfterDoctypeName);
                    self.doctype.force_quirks = true;
                    self.state = State::BogusDoctype;
                }
            }
        }
        Flow::Go
    }

    /// The "after DOCTYPE public/system keyword" states.
    fn after_doctype_keyword(&mut self, system: bool) -> Flow {
        let (before, dq, sq) = if system {
            (
                State::BeforeDoctypeSystemIdentifier,
                State::DoctypeSystemIdentifierDoubleQuoted,
                State::DoctypeSystemIdentifierSingleQuoted,
            )
        } else {
            (
                State::BeforeDoctypePublicIdentifier,
                State::DoctypePublicIdentifierDoubleQuoted,
                State::DoctypePublicIdentifierSingleQuoted,
            )
        };
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char(c) if is_ws(c) => {
                self.consume();
                self.state = before;
            }
            Next::Char(q @ ('"' | '\'')) => {
                self.error(if system {
                    ErrorCode::MissingWhitespaceAfterDoctypeSystemKeyword
                } else {
                    ErrorCode::MissingWhitespaceAfterDoctypePublicKeyword
                });
                self.start_identifier(system);
                self.consume();
                self.state = if q == '"' { dq } else { sq };
            }
            Next::Char('>') => {
                self.error(if system {
                    ErrorCode::MissingDoctypeSystemIdentifier
                } else {
                    ErrorCode::MissingDoctypePublicIdentifier
                });
                self.doctype.force_quirks = true;
                self.consume();
                self.state = State::Data;
                self.emit_doctype();
            }
            Next::Eof => return self.eof_in_doctype(),
            Next::Char(_) => {
                self.error(if system {
                    ErrorCode::MissingQuoteBeforeDoctypeSystemIdentifier
                } else {
                    ErrorCode::MissingQuoteBeforeDoctypePublicIdentifier
                });
                self.doctype.force_quirks = true;
                self.state = State::BogusDoctype;
            }
        }
        Flow::Go
    }

    fn start_identifier(&mut self, system: bool) {
        if system {
            self.doctype.system_id = Some(SBuf::Empty);
        } else {
            self.doctype.public_id = Some(SBuf::Empty);
        }
    }

    /// The "before DOCTYPE public/system identifier" states.
    fn before_doctype_identifier(&mut self, system: bool) -> Flow {
        let (dq, sq) = if system {
            (
                State::DoctypeSystemIdentifierDoubleQuoted,
                State::DoctypeSystemIdentifierSingleQuoted,
            )
        } else {
            (
                State::DoctypePublicIdentifierDoubleQuoted,
                State::DoctypePublicIdentifierSingleQuoted,
            )
        };
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char(c) if is_ws(c) => self.consume(),
            Next::Char(q @ ('"' | '\'')) => {
                self.start_identifier(system);
                self.consume();
                self.state = if q == '"' { dq } else { sq };
            }
            Next::Char('>') => {
                self.error(if system {
                    ErrorCode::MissingDoctypeSystemIdentifier
                } else {
                    ErrorCode::MissingDoctypePublicIdentifier
                });
                self.doctype.force_quirks = true;
                self.consume();
                self.state = State::Data;
                self.emit_doctype();
            }
            Next::Eof => return self.eof_in_doctype(),
            Next::Char(_) => {
                self.error(if system {
                    ErrorCode::MissingQuoteBeforeDoctypeSystemIdentifier
                } else {
                    ErrorCode::MissingQuoteBeforeDoctypePublicIdentifier
                });
                self.doctype.force_quirks = true;
                self.state = State::BogusDoctype;
            }
        }
        Flow::Go
    }

    /// The four quoted identifier states.
    fn doctype_identifier_quoted(&mut self, system: bool, quote: u8) -> Flow {
        let stops = if quote == b'"' {
            &DOCTYPE_DQ_STOPS
        } else {
            &DOCTYPE_SQ_STOPS
        };
        let which = if system { 2 } else { 1 };
        let end = self.scan(stops);
        if end > self.pos {
            let target = if system {
                self.doctype.system_id.get_or_insert_with(SBuf::default)
            } else {
                self.doctype.public_id.get_or_insert_with(SBuf::default)
            };
            target.push_raw(&self.buf, self.base, self.pos, end);
            self.pos = end;
        }
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char(c) if c as u32 == quote as u32 => {
                self.consume();
                self.state = if system {
                    State::AfterDoctypeSystemIdentifier
                } else {
                    State::AfterDoctypePublicIdentifier
                };
            }
            Next::Char('\0') => {
                self.error(ErrorCode::UnexpectedNullCharacter);
                self.doctype_push(which, Some('\u{FFFD}'));
            }
            Next::Char('>') => {
                self.error(if system {
                    ErrorCode::AbruptDoctypeSystemIdentifier
                } else {
                    ErrorCode::AbruptDoctypePublicIdentifier
                });
                self.doctype.force_quirks = true;
                self.consume();
                self.state = State::Data;
                self.emit_doctype();
            }
            Next::Eof => return self.eof_in_doctype(),
            Next::Char(_) => self.doctype_push(which, None),
        }
        Flow::Go
    }

    fn after_doctype_public_keyword_state(&mut self) -> Flow {
        self.after_doctype_keyword(false)
    }

    fn before_doctype_public_identifier_state(&mut self) -> Flow {
        self.before_doctype_identifier(false)
    }

    fn doctype_public_identifier_quoted_state(&mut self, quote: u8) -> Flow {
        self.doctype_identifier_quoted(false, quote)
    }

    /// The "after DOCTYPE public identifier" and "between DOCTYPE public and system
    /// identifiers" states differ only in the error for a quote.
    fn after_public_identifier(&mut self, between: bool) -> Flow {
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char(c) if is_ws(c) => {
                self.consume();
                self.state = State::BetweenDoctypePublicAndSystemIdentifiers;
            }
            Next::Char('>') => {
                self.consume();
                self.state = State::Data;
                self.emit_doctype();
            }
            Next::Char(q @ ('"' | '\'')) => {
                if !between {
                    self.error(
                        ErrorCode::MissingWhitespaceBetweenDoctypePublicAndSystemIdentifiers,
                    );
                }
                self.start_identifier(true);
                self.consume();
                self.state = if q == '"' {
                    State::DoctypeSystemIdentifierDoubleQuoted
                } else {
                    State::DoctypeSystemIdentifierSingleQuoted
                };
            }
            Next::Eof => return self.eof_in_doctype(),
            Next::Char(_) => {
                self.error(ErrorCode::MissingQuoteBeforeDoctypeSystemIdentifier);
                self.doctype.force_quirks = true;
                self.state = State::BogusDoctype;
            }
        }
        Flow::Go
    }

    fn after_doctype_public_identifier_state(&mut self) -> Flow {
        self.after_public_identifier(false)
    }

    fn between_doctype_public_and_system_identifiers_state(&mut self) -> Flow {
        self.after_public_identifier(true)
    }

    fn after_doctype_system_keyword_state(&mut self) -> Flow {
        self.after_doctype_keyword(true)
    }

    fn before_doctype_system_identifier_state(&mut self) -> Flow {
        self.before_doctype_identifier(true)
    }

    fn doctype_system_identifier_quoted_state(&mut self, quote: u8) -> Flow {
        self.doctype_identifier_quoted(true, quote)
    }

    fn after_doctype_system_identifier_state(&mut self) -> Flow {
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char(c) if is_ws(c) => self.consume(),
            Next::Char('>') => {
                self.consume();
                self.state = State::Data;
                self.emit_doctype();
            }
            Next::Eof => return self.eof_in_doctype(),
            Next::Char(_) => {
                self.error(ErrorCode::UnexpectedCharacterAfterDoctypeSystemIdentifier);
                self.state = State::BogusDoctype;
            }
        }
        Flow::Go
    }

    fn bogus_doctype_state(&mut self) -> Flow {
        let end = self.scan(&BOGUS_STOPS);
        self.pos = end;
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char('>') => {
                self.consume();
                self.state = State::Data;
                self.emit_doctype();
            }
            Next::Char('\0') => {
                self.error(ErrorCode::UnexpectedNullCharacter);
                self.consume();
            }
            Next::Eof => {
                self.emit_doctype();
                return self.emit_eof();
            }
            Next::Char(_) => self.consume(),
        }
        Flow::Go
    }

    // ---------------------------------------------------------------------------------------
    // 12.2.5.69 - 12.2.5.71: CDATA sections.

    fn cdata_section_state(&mut self) -> Flow {
        let end = self.scan(&CDATA_STOPS);
        if end > self.pos {
            self.emit_raw(self.pos, end);
            self.pos = end;
        }
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char(']') => {
                self.consume();
                self.state = State::CdataSectionBracket;
            }
            Next::Eof => {
                self.error(ErrorCode::EofInCdata);
                return self.emit_eof();
            }
            Next::Char(_) => self.emit_current(),
        }
        Flow::Go
    }

    fn cdata_section_bracket_state(&mut self) -> Flow {
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char(']') => {
                self.consume();
                self.state = State::CdataSectionEnd;
            }
            Next::Char(_) | Next::Eof => {
                self.emit_raw(self.pos - 1, self.pos);
                self.state = State::CdataSection;
            }
        }
        Flow::Go
    }

    fn cdata_section_end_state(&mut self) -> Flow {
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char(']') => {
                self.emit_raw(self.pos - 2, self.pos - 1);
                self.consume();
            }
            Next::Char('>') => {
                self.consume();
                // `]]>` belongs to the text's span but not to its characters.
                self.text_join(self.pos - 3);
                self.text_extend(self.pos - 3, self.pos);
                self.state = State::Data;
            }
            Next::Char(_) | Next::Eof => {
                self.emit_raw(self.pos - 2, self.pos);
                self.state = State::CdataSection;
            }
        }
        Flow::Go
    }

    // ---------------------------------------------------------------------------------------
    // 12.2.5.72 - 12.2.5.80: character references.

    fn in_attribute(&self) -> bool {
        matches!(
            self.return_state,
            State::AttributeValueDoubleQuoted
                | State::AttributeValueSingleQuoted
                | State::AttributeValueUnquoted
        )
    }

    /// "Flush code points consumed as a character reference": the input `start..end` unchanged.
    fn flush_reference_raw(&mut self, start: usize, end: usize) {
        if self.in_attribute() {
            self.attr_append_raw(false, start, end);
        } else {
            self.emit_raw(start, end);
        }
    }

    /// Flushes the resolved reference `s`, which replaces the input `start..end`.
    fn flush_reference(&mut self, s: &str, start: usize, end: usize) {
        if self.in_attribute() {
            self.attr_append_str(false, s, start, end);
        } else {
            self.emit_str(s, start, end);
        }
    }

    fn character_reference_state(&mut self) -> Flow {
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char(c) if c.is_ascii_alphanumeric() => {
                self.state = State::NamedCharacterReference;
            }
            Next::Char('#') => {
                self.consume();
                self.state = State::NumericCharacterReference;
            }
            Next::Char(_) | Next::Eof => {
                self.flush_reference_raw(self.charref_start, self.pos);
                self.state = self.return_state;
            }
        }
        Flow::Go
    }

    fn named_character_reference_state(&mut self) -> Flow {
        let rest = &self.buf[self.pos - self.base..];
        match thicket_charref::longest_match(rest, self.finished) {
            LongestMatch::NeedMore => Flow::Wait,
            LongestMatch::None => {
                self.flush_reference_raw(self.charref_start, self.pos);
                self.state = State::AmbiguousAmpersand;
                Flow::Go
            }
            LongestMatch::Found { len, value } => {
                let semicolon = rest.as_bytes()[len - 1] == b';';
                let end = self.pos + len;
                if self.in_attribute() && !semicolon {
                    match rest.as_bytes().get(len) {
                        None if !self.finished => return Flow::Wait,
                        Some(&b) if b == b'=' || b.is_ascii_alphanumeric() => {
                            self.flush_reference_raw(self.charref_start, end);
                            self.pos = end;
                            self.state = self.return_state;
                            return Flow::Go;
                        }
                        _ => {}
                    }
                }
                self.pos = end;
                if !semicolon {
                    // The error points at the character after the name.
                    let w = self.buf[end - self.base..]
                        .chars()
                        .next()
                        .map_or(0, char::len_utf8);
                    self.error_at(
                        ErrorCode::MissingSemicolonAfterCharacterReference,
                        Span::new(end, end + w),
                    );
                }
                self.flush_reference(value, self.charref_start, end);
                self.state = self.return_state;
                Flow::Go
            }
        }
    }

    fn ambiguous_ampersand_state(&mut self) -> Flow {
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char(c) if c.is_ascii_alphanumeric() => {
                if self.in_attribute() {
                    self.attr_push_current(false);
                } else {
                    self.emit_current();
                }
            }
            Next::Char(';') => {
                self.error(ErrorCode::UnknownNamedCharacterReference);
                self.state = self.return_state;
            }
            Next::Char(_) | Next::Eof => self.state = self.return_state,
        }
        Flow::Go
    }

    fn numeric_character_reference_state(&mut self) -> Flow {
        self.charref_code = 0;
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char('x' | 'X') => {
                self.consume();
                self.state = State::HexadecimalCharacterReferenceStart;
            }
            Next::Char(_) | Next::Eof => self.state = State::DecimalCharacterReferenceStart,
        }
        Flow::Go
    }

    fn numeric_start(&mut self, hex: bool) -> Flow {
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char(c) if (hex && c.is_ascii_hexdigit()) || (!hex && c.is_ascii_digit()) => {
                self.state = if hex {
                    State::HexadecimalCharacterReference
                } else {
                    State::DecimalCharacterReference
                };
            }
            Next::Char(_) | Next::Eof => {
                self.error(ErrorCode::AbsenceOfDigitsInNumericCharacterReference);
                self.flush_reference_raw(self.charref_start, self.pos);
                self.state = self.return_state;
            }
        }
        Flow::Go
    }

    fn hexadecimal_character_reference_start_state(&mut self) -> Flow {
        self.numeric_start(true)
    }

    fn decimal_character_reference_start_state(&mut self) -> Flow {
        self.numeric_start(false)
    }

    fn numeric_digits(&mut self, radix: u32) -> Flow {
        // Digits are ASCII: take the whole run at once.
        let bytes = self.buf.as_bytes();
        let mut i = self.pos - self.base;
        while let Some(d) = bytes.get(i).and_then(|&b| (b as char).to_digit(radix)) {
            self.charref_code = numeric::accumulate(self.charref_code, radix, d);
            i += 1;
        }
        self.pos = self.base + i;
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char(';') => {
                self.consume();
                self.state = State::NumericCharacterReferenceEnd;
            }
            Next::Char(_) | Next::Eof => {
                self.error(ErrorCode::MissingSemicolonAfterCharacterReference);
                self.state = State::NumericCharacterReferenceEnd;
            }
        }
        Flow::Go
    }

    fn hexadecimal_character_reference_state(&mut self) -> Flow {
        self.numeric_digits(16)
    }

    fn decimal_character_reference_state(&mut self) -> Flow {
        self.numeric_digits(10)
    }

    fn numeric_character_reference_end_state(&mut self) -> Flow {
        let (c, issue) = numeric::whatwg(self.charref_code);
        if let Some(issue) = issue {
            let code = match issue {
                WhatwgIssue::NullCharacterReference => ErrorCode::NullCharacterReference,
                WhatwgIssue::CharacterReferenceOutsideUnicodeRange => {
                    ErrorCode::CharacterReferenceOutsideUnicodeRange
                }
                WhatwgIssue::SurrogateCharacterReference => ErrorCode::SurrogateCharacterReference,
                WhatwgIssue::NoncharacterCharacterReference => {
                    ErrorCode::NoncharacterCharacterReference
                }
                WhatwgIssue::ControlCharacterReference => ErrorCode::ControlCharacterReference,
            };
            self.error_at(code, Span::empty(self.pos));
        }
        let mut tmp = [0u8; 4];
        let s: &str = c.encode_utf8(&mut tmp);
        self.flush_reference(s, self.charref_start, self.pos);
        self.state = self.return_state;
        Flow::Go
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `is_plain`'s blocks and words against the table, for every byte at every position of
    /// runs up to 40 bytes long.
    #[test]
    fn is_plain_matches_the_table() {
        for len in 1..40 {
            for at in 0..len {
                for b in 0..=255u8 {
                    let mut run = vec![b'a'; len];
                    run[at] = b;
                    assert_eq!(is_plain(&run), !BAD[b as usize], "{len} {at} {b:#x}");
                }
            }
        }
    }
}
