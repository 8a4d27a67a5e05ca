//! Tokenization: lexical tokens recognised per mode, mapped to abstract tokens.
//!
//! Each recognizer looks at the unconsumed input (bytes: every significant character is ASCII, and
//! every byte of a non-ASCII character is a `NAME_CHAR`) and answers [`Scan::Match`] with a
//! length, [`Scan::No`], or [`Scan::More`] when only more input can decide. The longest-match rule
//! is applied by trying the longer tokens first; `DATA_CHAR` (and `EMPTY`) are the fallbacks.
//!
//! The spec's preprocessing is done on the fly so that spans stay offsets into the input as given:
//! a leading BOM is skipped, a CR counts as `S` wherever `S` is recognised (a CR LF pair is then
//! two `S`, which no mode distinguishes from one), and text copies CR as LF and drop the LF of CR
//! LF.

use std::borrow::Cow;
use std::collections::VecDeque;

use memchr::{memchr, memchr2, memchr3, memmem};
use thicket_input::Span;

use crate::error::{Diagnostic, ErrorCode};
use crate::options::{NamedReferences, Options};
use crate::order::TokenizerDiagnostics;
use crate::token::Token;
use crate::validity;

mod emit;

use emit::{Pending, Value, ValueMode};

/// The tokenization modes of the spec.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Content.
    Main,
    /// Inside a start-tag, between attributes.
    Tag,
    /// After `=`, before the value.
    StartAttributeValue,
    /// An unquoted attribute value.
    UnquoteAttributeValue,
    /// A value in `'`.
    SingleQuoteAttributeValue,
    /// A value in `"`.
    DoubleQuoteAttributeValue,
    /// After `<![CDATA[`.
    CData,
    /// After `<!DOCTYPE`.
    Doctype,
    /// Inside the internal subset `[...]`.
    Subset,
}

/// What a recognizer found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scan {
    /// The token matches, this many bytes long (trailing context excluded).
    Match(usize),
    /// The token does not match here.
    No,
    /// The input ends before the answer is known.
    More,
}

/// Whether a mode method made progress or needs more input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    Progress,
    More,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Open,
    Attr,
    Close,
    EmptyClose,
    End,
    Data,
    CharRef,
    /// Input consumed without a token (`Token::Discarded`).
    Discarded,
    /// An attribute value with no characters, at the position its characters would be (for
    /// the tree builder's value span; not a public token).
    EmptyValue,
}

#[derive(Debug)]
enum Text {
    None,
    /// Absolute byte range of the input, unchanged.
    Src(usize, usize),
    Owned(String),
    Static(&'static str),
}

#[derive(Debug)]
struct Raw {
    kind: Kind,
    text: Text,
    span: Span,
}

/// Caches the position of the next occurrence of a needle, so that repeated look-ahead (the
/// end of a comment, the closing quote of an attribute value) stays linear.
#[derive(Debug, Default)]
struct Finder {
    valid: bool,
    from: usize,
    found: Option<usize>,
    scanned: usize,
}

impl Finder {
    /// The absolute position of the first `needle` at or after absolute `from`, or `None` when
    /// the buffered input holds none.
    fn find(&mut self, buf: &[u8], base: usize, from: usize, needle: &[u8]) -> Option<usize> {
        let end = base + buf.len();
        if from > end {
            return None;
        }
        if self.valid && self.from <= from {
            match self.found {
                Some(f) if f >= from => return Some(f),
                Some(_) => {}
                None => {
                    let start = self
                        .scanned
                        .saturating_sub(needle.len().saturating_sub(1))
                        .max(from);
                    self.found = memmem::find(&buf[start - base..], needle).map(|i| start + i);
                    self.scanned = end;
                    return self.found;
                }
            }
        }
        self.valid = true;
        self.from = from;
        self.found = memmem::find(&buf[from - base..], needle).map(|i| from + i);
        self.scanned = end;
        self.found
    }
}

/// The streaming tokenizer: `feed` chunks, pull [`Token`]s with [`Tokenizer::next_token`],
/// `finish`, pull the rest. The tokens do not depend on how the input was split, and their
/// spans tile the input (input the spec drops comes as [`Token::Discarded`]).
///
/// Of `Options::limits` it applies `max_attributes`, `max_name_len`, `max_value_len` and
/// `max_diagnostics` (nesting depth is the tree builder's).
#[derive(Debug)]
pub struct Tokenizer {
    lexer: Lexer<'static>,
}

impl Default for Tokenizer {
    fn default() -> Self {
        Tokenizer::new(Options::default())
    }
}

impl Tokenizer {
    /// A tokenizer with `options`.
    pub fn new(options: Options) -> Tokenizer {
        Tokenizer {
            lexer: Lexer::lossless(options),
        }
    }

    /// The options in use.
    pub fn options(&self) -> &Options {
        &self.lexer.opts
    }

    /// The current tokenization mode.
    pub fn mode(&self) -> Mode {
        self.lexer.mode
    }

    /// Appends a chunk of input. Call [`Tokenizer::next_token`] until it returns `None` between
    /// feeds (or not: tokens are kept until pulled).
    pub fn feed(&mut self, chunk: &str) {
        self.lexer.feed(chunk);
    }

    /// Marks the end of the input.
    pub fn finish(&mut self) {
        self.lexer.finish();
    }

    /// The diagnostics released and not yet taken, in source order (by span start; at the same
    /// start, a forbidden character first, then in the order the modes raise them). A
    /// diagnostic is released once every token before it has been returned by
    /// [`Tokenizer::next_token`] (so a consumer that adds diagnostics of its own at the tokens
    /// it was given can merge the two lists in order), and at the end every one is. The list
    /// does not depend on how the input was split.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        self.lexer.diags.released()
    }

    /// Takes the diagnostics released so far (see [`Tokenizer::diagnostics`]).
    pub fn take_diagnostics(&mut self) -> Vec<Diagnostic> {
        self.lexer.diags.take()
    }

    /// How many diagnostics were counted and not kept, past `Limits::max_diagnostics` (the
    /// first ones in source order are kept).
    pub fn omitted_diagnostics(&self) -> usize {
        self.lexer.diags.omitted()
    }

    /// Tokenizes the whole of `text`: the tokens (whose spans tile `text`) and every
    /// diagnostic kept, in source order.
    pub fn tokenize(text: &str, options: Options) -> (Vec<Token<'static>>, Vec<Diagnostic>) {
        let mut t = Lexer::whole(text, options, true);
        let mut out = Vec::new();
        while let Some(tok) = t.next_token() {
            out.push(tok.into_owned());
        }
        (out, t.take_diagnostics().0)
    }

    /// The next abstract token, or `None` when more input is needed (or, after
    /// [`Tokenizer::finish`], at the end).
    pub fn next_token(&mut self) -> Option<Token<'_>> {
        self.lexer.next_token()
    }
}

/// The tokenizer's machine, over input it owns (fed in chunks) or borrows (a whole input).
#[derive(Debug)]
pub(crate) struct Lexer<'a> {
    opts: Options,
    /// The buffered input: borrowed for a whole input, owned when fed.
    buf: Cow<'a, str>,
    /// Absolute offset of `buf[0]`.
    base: usize,
    /// Index into `buf` of the current input.
    pos: usize,
    mode: Mode,
    finished: bool,
    done: bool,
    bom_checked: bool,
    cr_before_buf: bool,
    queue: VecDeque<Raw>,
    pending: Option<Pending>,
    /// Whether input consumed without a token is handed out as `Discarded` (the tree path
    /// does not need it).
    lossless: bool,
    /// Input consumed without a token since the last token (absolute range).
    dropped: Option<(usize, usize)>,
    diags: TokenizerDiagnostics,
    /// The attribute value being read.
    value: Value,
    /// `AttributeName`s in the current start-tag, for the attribute limit.
    tag_attributes: usize,
    /// Absolute position just after the opening quote of the current quoted value.
    quote_at: usize,
    /// The limits, `usize::MAX` for none.
    max_attributes: usize,
    max_name: usize,
    max_value: usize,
    /// Absolute end of a `TAG_CONTEXT` already matched: a name before it is a boolean attribute.
    ctx_until: usize,
    /// The last token was a closing quote, so an attribute name here lacks whitespace.
    after_quote: bool,
    single: Finder,
    double: Finder,
    comment: Finder,
    pi: Finder,
    /// After a step needed more input: the absolute input length to wait for before trying
    /// again. Small look-aheads are retried on every feed; long ones once the buffered input has
    /// doubled, so that feeding tiny chunks into a long look-ahead stays linear.
    wait_for: usize,
}

impl Default for Lexer<'_> {
    fn default() -> Self {
        Lexer::new(Options::default())
    }
}

#[inline]
pub(crate) fn is_s(b: u8) -> bool {
    // S ::= #x9 | #xA | #xC | #x20, with CR standing for the LF it normalizes to.
    matches!(b, b'\t' | b'\n' | b'\x0C' | b' ' | b'\r')
}

/// Byte classes: the recovery `NAME` (every byte of a non-ASCII character is a name byte), the
/// ASCII part of the MicroXML `name`, `S`, and the bytes where the direct path's text and quoted
/// value runs stop.
pub(crate) const NAME_START: u8 = 1;
pub(crate) const NAME_CHAR: u8 = 2;
pub(crate) const MICRO_START: u8 = 4;
pub(crate) const MICRO_CHAR: u8 = 8;
/// `S` (with CR).
pub(crate) const SPACE: u8 = 16;
/// `<`, `&`, `>`, CR: where a text run stops or needs a second look.
pub(crate) const TEXT_STOP: u8 = 32;
/// `"`, `&`, `<`, `>`, CR: where a double-quoted value run stops.
pub(crate) const DQ_STOP: u8 = 64;
/// `'`, `&`, `<`, `>`, CR: where a single-quoted value run stops.
pub(crate) const SQ_STOP: u8 = 128;

pub(crate) static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        let alpha = b.is_ascii_alphabetic();
        let mut c = 0;
        if b >= 0x80 || alpha || b == b'_' || b == b':' || b == b'$' {
            c |= NAME_START | NAME_CHAR;
        }
        if b.is_ascii_digit() || b == b'-' || b == b'.' {
            c |= NAME_CHAR;
        }
        if alpha || b == b'_' {
            c |= MICRO_START | MICRO_CHAR;
        }
        if b.is_ascii_digit() || b == b'-' || b == b'.' {
            c |= MICRO_CHAR;
        }
        if matches!(b, b'\t' | b'\n' | 0x0C | b' ' | b'\r') {
            c |= SPACE;
        }
        if matches!(b, b'<' | b'&' | b'>' | b'\r') {
            c |= TEXT_STOP | DQ_STOP | SQ_STOP;
        }
        if b == b'"' {
            c |= DQ_STOP;
        }
        if b == b'\'' {
            c |= SQ_STOP;
        }
        t[i] = c;
        i += 1;
    }
    t
};

#[inline]
pub(crate) fn is_name_start(b: u8) -> bool {
    CLASS[b as usize] & NAME_START != 0
}

#[inline]
fn is_name_char(b: u8) -> bool {
    CLASS[b as usize] & NAME_CHAR != 0
}

/// True when `name` (a recovery `NAME`) is an ASCII MicroXML `name`; false means "ask
/// [`validity::is_name`]".
#[inline]
pub(crate) fn is_ascii_micro_name(name: &[u8]) -> bool {
    name.first()
        .is_some_and(|&c| CLASS[c as usize] & MICRO_START != 0)
        && name.iter().all(|&c| CLASS[c as usize] & MICRO_CHAR != 0)
}

/// Length of the run of `S` at the start of `b`.
pub(crate) fn s_run(b: &[u8]) -> usize {
    b.iter().take_while(|&&c| is_s(c)).count()
}

/// Length of the `NAME` at the start of `b` (0 when there is none).
pub(crate) fn name_len(b: &[u8]) -> usize {
    match b.first() {
        Some(&c) if is_name_start(c) => 1 + b[1..].iter().take_while(|&&c| is_name_char(c)).count(),
        _ => 0,
    }
}

/// The bytes [`Tokenizer::scan_characters`] looks at: ASCII characters MicroXML forbids, and
/// the lead bytes of the only non-ASCII characters it can forbid (C1 controls after `C2`,
/// noncharacters after `EF` and `F0`-`F4`); any other byte is allowed or a lead or continuation
/// byte of an allowed character.
static SUSPECT: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        t[i] = if b < 0x80 {
            !((b >= 0x20 && b < 0x7F) || b == b'\t' || b == b'\n' || b == b'\r')
        } else {
            matches!(b, 0xC2 | 0xEF | 0xF0..=0xF4)
        };
        i += 1;
    }
    t
};

/// True when the 16 bytes of `a` and `b` are all printable ASCII, tab, LF or CR: a quick test
/// for "printable ASCII only" (no high bit, no byte below 0x20, no DEL), then the exact one.
#[inline]
fn plain_ascii_pair(a: u64, b: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let high = (a | b) & HIGH;
    // A lane below 0x20 borrows into its high bit (lanes above a hit may be flagged too, which
    // only sends the block to the exact test).
    let below = ((a.wrapping_sub(ONES * 0x20) & !a) | (b.wrapping_sub(ONES * 0x20) & !b)) & HIGH;
    let del = (a.wrapping_add(ONES) | b.wrapping_add(ONES)) & HIGH;
    if high | below | del == 0 {
        return true;
    }
    plain_ascii_block(a) && plain_ascii_block(b)
}

/// True when the 8 bytes of `x` are all printable ASCII, tab, LF or CR (checked lane by lane
/// without carries between lanes).
#[inline]
fn plain_ascii_block(x: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    /// High bit set in each lane whose byte is zero.
    #[inline]
    fn zero_lanes(v: u64) -> u64 {
        !(((v & !HIGH) + !HIGH) | v | !HIGH)
    }
    let hi = x & HIGH;
    let low = x & !HIGH;
    let at_least_20 = (low + ONES * 0x60) & HIGH;
    let del = (low + ONES) & HIGH;
    if hi | del != 0 {
        return false;
    }
    let control = !at_least_20 & HIGH;
    if control == 0 {
        return true;
    }
    let allowed = zero_lanes(x ^ (ONES * 0x09))
        | zero_lanes(x ^ (ONES * 0x0A))
        | zero_lanes(x ^ (ONES * 0x0D));
    control & !allowed == 0
}

/// The text run at the start of `b` (up to `<` or `&`): its length, whether it holds `>`, and
/// whether it holds CR. Short runs (whitespace between tags) are scanned byte by byte, long
/// ones with `memchr`.
#[inline]
pub(crate) fn text_run(b: &[u8]) -> (usize, bool, bool) {
    const SHORT: usize = 32;
    let (mut gt, mut cr) = (false, false);
    for (i, &c) in b.iter().take(SHORT).enumerate() {
        match c {
            b'<' | b'&' => return (i, gt, cr),
            b'>' => gt = true,
            b'\r' => cr = true,
            _ => {}
        }
    }
    if b.len() <= SHORT {
        return (b.len(), gt, cr);
    }
    let n = SHORT + memchr2(b'<', b'&', &b[SHORT..]).unwrap_or(b.len() - SHORT);
    gt = gt || memchr(b'>', &b[SHORT..n]).is_some();
    cr = cr || memchr(b'\r', &b[SHORT..n]).is_some();
    (n, gt, cr)
}

/// Length of the run of quoted attribute value characters at the start of `b`: up to `quote`,
/// `&`, `<` or `>`. Short values are scanned byte by byte, long ones with `memchr`.
#[inline]
pub(crate) fn quoted_run(b: &[u8], quote: u8) -> usize {
    const SHORT: usize = 32;
    for (i, &c) in b.iter().take(SHORT).enumerate() {
        if c == quote || matches!(c, b'&' | b'<' | b'>') {
            return i;
        }
    }
    if b.len() <= SHORT {
        return b.len();
    }
    let n = SHORT + memchr3(quote, b'&', b'<', &b[SHORT..]).unwrap_or(b.len() - SHORT);
    memchr(b'>', &b[SHORT..n]).map_or(n, |i| SHORT + i)
}

/// Matches the literal `lit` (ASCII case-insensitively when `ci`) at the start of `b`.
fn literal(b: &[u8], lit: &[u8], ci: bool, eof: bool) -> Scan {
    let n = b.len().min(lit.len());
    let same = if ci {
        b[..n].eq_ignore_ascii_case(&lit[..n])
    } else {
        b[..n] == lit[..n]
    };
    if !same {
        Scan::No
    } else if n == lit.len() {
        Scan::Match(n)
    } else if eof {
        Scan::No
    } else {
        Scan::More
    }
}

#[inline]
fn need(eof: bool) -> Scan {
    if eof { Scan::No } else { Scan::More }
}

/// `TAG_CONTEXT ::= (S+ NAME)* S* (START_TAG_CLOSE | EMPTY_ELEMENT_TAG_CLOSE | S NAME S* "=")`,
/// as trailing context. Without boolean attributes the `(S+ NAME)*` part is absent, which makes
/// `START_TAG_OPEN / TAG_CONTEXT` exactly the start of the spec's `SIMPLE_START_TAG`,
/// `SIMPLE_EMPTY_ELEMENT_TAG` and `START_TAG_ATTRIBUTE`. The match length is where the context
/// ends (after `>`, `/>` or `=`).
fn tag_context(b: &[u8], eof: bool, booleans: bool) -> Scan {
    let mut i = 0;
    loop {
        let s = s_run(&b[i..]);
        let j = i + s;
        let Some(&c) = b.get(j) else {
            return need(eof);
        };
        if c == b'>' {
            return Scan::Match(j + 1);
        }
        if c == b'/' {
            return match b.get(j + 1) {
                None => need(eof),
                Some(b'>') => Scan::Match(j + 2),
                Some(_) => Scan::No,
            };
        }
        if s == 0 || !is_name_start(c) {
            return Scan::No;
        }
        let k = j + name_len(&b[j..]);
        if k == b.len() {
            return need(eof);
        }
        let t = s_run(&b[k..]);
        match b.get(k + t) {
            None => return need(eof),
            Some(b'=') => return Scan::Match(k + t + 1),
            Some(_) if booleans => i = k,
            Some(_) => return Scan::No,
        }
    }
}

/// `END_TAG ::= "</" (NAME) S* ">"`: the length and the name length.
fn end_tag(b: &[u8], eof: bool) -> (Scan, usize) {
    let n = name_len(&b[2..]);
    if n == 0 {
        return (if b.len() == 2 { need(eof) } else { Scan::No }, 0);
    }
    let k = 2 + n;
    let t = s_run(&b[k..]);
    match b.get(k + t) {
        None => (need(eof), n),
        Some(b'>') => (Scan::Match(k + t + 1), n),
        Some(_) => (Scan::No, n),
    }
}

/// What a character reference stands for.
enum RefValue {
    Char(char),
    Str(&'static str),
    /// The lexical token matched but its characters stay as they are.
    Literal(ErrorCode),
}

impl<'a> Lexer<'a> {
    /// A lexer with `options`, to be fed.
    pub(crate) fn new(options: Options) -> Lexer<'a> {
        Lexer {
            opts: options,
            buf: Cow::Borrowed(""),
            base: 0,
            pos: 0,
            mode: Mode::Main,
            finished: false,
            done: false,
            bom_checked: false,
            cr_before_buf: false,
            queue: VecDeque::new(),
            pending: None,
            lossless: false,
            dropped: None,
            diags: TokenizerDiagnostics::new(options.limits.max_diagnostics),
            value: Value::default(),
            tag_attributes: 0,
            quote_at: 0,
            max_attributes: options.limits.max_attributes.unwrap_or(usize::MAX),
            max_name: options.limits.max_name_len.unwrap_or(usize::MAX),
            max_value: options.limits.max_value_len.unwrap_or(usize::MAX),
            ctx_until: 0,
            after_quote: false,
            single: Finder::default(),
            double: Finder::default(),
            comment: Finder::default(),
            pi: Finder::default(),
            wait_for: 0,
        }
    }

    /// A lexer with `options`, to be fed, that hands out input consumed without a token as
    /// `Discarded` (the tree path needs no such tokens).
    pub(crate) fn lossless(options: Options) -> Lexer<'a> {
        let mut l = Lexer::new(options);
        l.lossless = true;
        l
    }

    /// A lexer over the whole of `input`, borrowed (no copy), finished.
    /// With `lossless`, input consumed without a token is handed out as `Discarded`.
    pub(crate) fn whole(input: &'a str, options: Options, lossless: bool) -> Lexer<'a> {
        let mut l = Lexer::new(options);
        l.lossless = lossless;
        l.scan_characters(input, 0);
        l.buf = Cow::Borrowed(input);
        l.bom_checked = true;
        if input.starts_with('\u{FEFF}') {
            l.pos = '\u{FEFF}'.len_utf8();
            l.dropped(0, l.pos);
        }
        l.finished = true;
        l
    }

    /// After the end of the input: every diagnostic kept, in source order, and how many were
    /// omitted.
    pub(crate) fn take_diagnostics(&mut self) -> (Vec<Diagnostic>, usize) {
        let cap = self.opts.limits.max_diagnostics;
        std::mem::replace(&mut self.diags, TokenizerDiagnostics::new(cap)).into_parts()
    }

    /// The diagnostics released so far (see [`Lexer::release`]), taken.
    pub(crate) fn take_released(&mut self) -> Vec<Diagnostic> {
        self.diags.take()
    }

    /// How many diagnostics were counted and not kept so far.
    pub(crate) fn omitted_diagnostics(&self) -> usize {
        self.diags.omitted()
    }

    /// Steps the modes as far as the input goes, handing the tokens to `builder` (which copies
    /// their text).
    pub(crate) fn run_into(&mut self, builder: &mut crate::tree::TreeBuilder<'_>) {
        loop {
            self.drain_copy(builder);
            if !self.advance() {
                break;
            }
        }
        self.drain_copy(builder);
    }

    /// Marks the end of the input.
    pub(crate) fn finish(&mut self) {
        self.finished = true;
    }

    /// Appends a chunk of input.
    pub(crate) fn feed(&mut self, chunk: &str) {
        if self.finished || chunk.is_empty() {
            return;
        }
        self.compact();
        let offset = self.base + self.buf.len();
        self.scan_characters(chunk, offset);
        self.buf.to_mut().push_str(chunk);
        if !self.bom_checked {
            self.bom_checked = true;
            if self.base == 0 && self.buf.starts_with('\u{FEFF}') {
                self.pos = '\u{FEFF}'.len_utf8();
                self.dropped(0, self.pos);
            }
        }
    }

    /// One step of the modes (or the end of the input); false when nothing more can be done
    /// now.
    #[inline]
    pub(crate) fn advance(&mut self) -> bool {
        if self.done {
            return false;
        }
        if self.pos == self.buf.len() {
            if !self.finished {
                return false;
            }
            self.end_of_input();
            return true;
        }
        if !self.finished && self.base + self.buf.len() < self.wait_for {
            return false;
        }
        if self.step() == Step::More {
            let available = self.buf.len() - self.pos;
            let end = self.base + self.buf.len();
            self.wait_for = end + if available < 256 { 1 } else { available };
            return false;
        }
        true
    }

    /// True when the tokenizer is in Main mode with nothing queued or pending, the state in
    /// which [`crate::direct`] may take over.
    #[inline]
    pub(crate) fn is_clean(&self) -> bool {
        self.mode == Mode::Main
            && self.pending.is_none()
            && self.dropped.is_none()
            && self.queue.is_empty()
            && !self.done
    }

    /// Where the tokenizer is (an index into the input when it was fed in one piece).
    #[inline]
    pub(crate) fn position(&self) -> usize {
        self.pos
    }

    /// Moves on to `pos`, in Main mode, after [`crate::direct`] consumed the input up to it.
    #[inline]
    pub(crate) fn skip_to(&mut self, pos: usize) {
        debug_assert!(self.is_clean() && pos >= self.pos);
        self.pos = pos;
    }

    /// Reports a diagnostic found by [`crate::direct`].
    #[cold]
    pub(crate) fn report(&mut self, code: ErrorCode, start: usize, end: usize) {
        self.diag(code, start, end);
    }

    /// Whether every token made so far has been handed out.
    pub(crate) fn queue_is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// Whether the whole input has been consumed.
    #[inline]
    pub(crate) fn is_done(&self) -> bool {
        self.done
    }

    /// Drops consumed input that no queued token refers to.
    fn compact(&mut self) {
        let mut keep = self.pos;
        for raw in &self.queue {
            if let Text::Src(a, _) = raw.text {
                keep = keep.min(a - self.base);
            }
        }
        if let Some(Pending {
            owned: None, start, ..
        }) = &self.pending
        {
            keep = keep.min(start - self.base);
        }
        if keep == 0 || keep < self.buf.len() / 2 {
            return;
        }
        self.cr_before_buf = self.buf.as_bytes()[keep - 1] == b'\r';
        self.buf.to_mut().drain(..keep);
        self.base += keep;
        self.pos -= keep;
    }

    /// Reports every character MicroXML forbids.
    fn scan_characters(&mut self, chunk: &str, offset: usize) {
        let bytes = chunk.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            // Fast path: printable ASCII (or tab, LF, CR), 16 bytes at a time.
            while let Some((a, b)) = bytes
                .get(i..i + 16)
                .and_then(|s| <&[u8; 16]>::try_from(s).ok())
                .map(|s| {
                    let (a, b) = s.split_at(8);
                    (
                        u64::from_le_bytes(a.try_into().unwrap_or([0xFF; 8])),
                        u64::from_le_bytes(b.try_into().unwrap_or([0xFF; 8])),
                    )
                })
                && plain_ascii_pair(a, b)
            {
                i += 16;
            }
            // Otherwise the next 16 bytes (at least) one by one: non-ASCII text would fail the
            // block test at every byte.
            let stop = bytes.len().min(i + 16);
            while i < stop {
                let b = bytes[i];
                if !SUSPECT[b as usize] {
                    i += 1;
                } else if b < 0x80 {
                    self.invalid_char(offset + i, offset + i + 1);
                    i += 1;
                } else {
                    let c = chunk[i..].chars().next().unwrap_or('\u{FFFD}');
                    let len = c.len_utf8();
                    if validity::is_forbidden_char(c) {
                        self.invalid_char(offset + i, offset + i + len);
                    }
                    i += len;
                }
            }
        }
    }

    #[cold]
    fn invalid_char(&mut self, start: usize, end: usize) {
        self.diags.char(Diagnostic::new(
            ErrorCode::InvalidCharacter,
            Span::new(start, end),
        ));
    }

    #[cold]
    fn diag(&mut self, code: ErrorCode, start: usize, end: usize) {
        self.diags
            .lexer(Diagnostic::new(code, Span::new(start, end)));
    }

    #[inline]
    fn abs(&self, i: usize) -> usize {
        self.base + i
    }

    #[inline]
    fn eof(&self) -> bool {
        self.finished
    }

    /// One `DATA_CHAR` that MicroXML would have wanted escaped.
    #[cold]
    fn unescaped(&mut self, code: ErrorCode) {
        let (a, b) = (self.abs(self.pos), self.abs(self.pos + 1));
        self.diag(code, a, b);
        self.data(self.pos, self.pos + 1);
        self.pos += 1;
    }

    // ----- driving -----

    fn step(&mut self) -> Step {
        match self.mode {
            Mode::Main => self.main(),
            Mode::Tag => self.tag(),
            Mode::StartAttributeValue => self.start_attribute_value(),
            Mode::UnquoteAttributeValue => self.unquote_attribute_value(),
            Mode::SingleQuoteAttributeValue => self.quoted_attribute_value(b'\''),
            Mode::DoubleQuoteAttributeValue => self.quoted_attribute_value(b'"'),
            Mode::CData => self.cdata(),
            Mode::Doctype => self.doctype(),
            Mode::Subset => self.subset(),
        }
    }

    /// The end of the input: in the tag modes a `StartTagClose` is emitted.
    fn end_of_input(&mut self) {
        let end = self.abs(self.pos);
        match self.mode {
            Mode::Tag | Mode::StartAttributeValue | Mode::UnquoteAttributeValue => {
                self.diag(ErrorCode::UnclosedStartTag, end, end);
                self.emit(Kind::Close, Text::None, Span::empty(end));
            }
            Mode::SingleQuoteAttributeValue | Mode::DoubleQuoteAttributeValue => {
                self.diag(ErrorCode::UnclosedAttributeValue, end, end);
                self.empty_value();
                self.emit(Kind::Close, Text::None, Span::empty(end));
            }
            Mode::Main | Mode::CData | Mode::Doctype | Mode::Subset => {}
        }
        self.mode = Mode::Main;
        self.flush();
        self.done = true;
    }

    fn rest(&self) -> &[u8] {
        &self.buf.as_bytes()[self.pos..]
    }

    /// Consumes `n` bytes that produce no token.
    #[inline]
    fn skip(&mut self, n: usize) {
        self.dropped(self.pos, self.pos + n);
        self.pos += n;
    }

    /// Main mode.
    fn main(&mut self) -> Step {
        let b = self.rest();
        match b[0] {
            b'<' => self.main_markup(),
            b'&' => self.char_ref(),
            _ => {
                // DATA_CHAR: every character other than `<` and `&` is one on its own.
                let (n, gt, cr) = text_run(b);
                let start = self.pos;
                if gt {
                    self.report_greater_than(start, start + n);
                }
                self.data_cr(start, start + n, cr);
                self.pos += n;
                Step::Progress
            }
        }
    }

    #[cold]
    fn report_greater_than(&mut self, start: usize, end: usize) {
        let hits: Vec<usize> = memchr::memchr_iter(b'>', &self.buf.as_bytes()[start..end])
            .map(|i| start + i)
            .collect();
        for i in hits {
            self.diag(
                ErrorCode::UnescapedGreaterThan,
                self.abs(i),
                self.abs(i + 1),
            );
        }
    }

    /// Main mode at `<`: START_TAG_OPEN (SIMPLE_START_TAG, SIMPLE_EMPTY_ELEMENT_TAG,
    /// START_TAG_ATTRIBUTE), END_TAG, COMMENT, PI, CDATA_OPEN, DOCTYPE_OPEN, or DATA_CHAR.
    fn main_markup(&mut self) -> Step {
        let eof = self.eof();
        let b = self.rest();
        let Some(&second) = b.get(1) else {
            if !eof {
                return Step::More;
            }
            self.unescaped(ErrorCode::UnescapedLessThan);
            return Step::Progress;
        };
        let scan = match second {
            b'/' => self.end_tag(),
            b'!' => self.bang(),
            b'?' => self.pi(),
            c if is_name_start(c) => self.start_tag_open(),
            _ => Scan::No,
        };
        match scan {
            Scan::Match(_) => Step::Progress,
            Scan::More => Step::More,
            Scan::No => {
                self.unescaped(ErrorCode::UnescapedLessThan);
                Step::Progress
            }
        }
    }

    /// `START_TAG_OPEN ::= "<" (NAME)` with its tag context.
    fn start_tag_open(&mut self) -> Scan {
        let b = self.rest();
        let n = name_len(&b[1..]);
        let scan = tag_context(&b[1 + n..], self.eof(), self.opts.boolean_attributes);
        if let Scan::Match(m) = scan {
            let (a, name_end) = (self.abs(self.pos), self.abs(self.pos + 1 + n));
            self.check_name(a + 1, name_end);
            self.emit(
                Kind::Open,
                Text::Src(a + 1, name_end),
                Span::new(a, name_end),
            );
            self.tag_attributes = 0;
            self.ctx_until = name_end + m;
            self.pos += 1 + n;
            self.after_quote = false;
            self.mode = Mode::Tag;
        }
        scan
    }

    /// `END_TAG ::= "</" (NAME) S* ">"`.
    fn end_tag(&mut self) -> Scan {
        let (scan, n) = end_tag(self.rest(), self.eof());
        if let Scan::Match(len) = scan {
            let a = self.abs(self.pos);
            self.check_name(a + 2, a + 2 + n);
            self.emit(
                Kind::End,
                Text::Src(a + 2, a + 2 + n),
                Span::new(a, a + len),
            );
            self.pos += len;
        }
        scan
    }

    /// `<!`: COMMENT, CDATA_OPEN or DOCTYPE_OPEN.
    fn bang(&mut self) -> Scan {
        let eof = self.eof();
        match self.comment() {
            Scan::No => {}
            other => return other,
        }
        let a = self.abs(self.pos);
        match literal(self.rest(), b"<![CDATA[", false, eof) {
            Scan::Match(n) => {
                self.diag(ErrorCode::CdataSection, a, a + n);
                self.skip(n);
                self.mode = Mode::CData;
                return Scan::Match(n);
            }
            Scan::More => return Scan::More,
            Scan::No => {}
        }
        match literal(self.rest(), b"<!DOCTYPE", true, eof) {
            Scan::Match(n) => {
                self.diag(ErrorCode::Doctype, a, a + n);
                self.skip(n);
                self.mode = Mode::Doctype;
                Scan::Match(n)
            }
            other => other,
        }
    }

    /// The length of `COMMENT` here, without consuming it.
    fn comment_len(&mut self) -> Scan {
        let eof = self.eof();
        match literal(self.rest(), b"<!--", false, eof) {
            Scan::Match(_) => {}
            other => return other,
        }
        let from = self.abs(self.pos + 4);
        match self
            .comment
            .find(self.buf.as_bytes(), self.base, from, b"-->")
        {
            Some(f) => Scan::Match(f + 3 - self.abs(self.pos)),
            None => need(eof),
        }
    }

    /// `COMMENT ::= "<!--" (CHAR* - (CHAR* "-->" CHAR*)) "-->"`: nothing is emitted.
    fn comment(&mut self) -> Scan {
        let scan = self.comment_len();
        if let Scan::Match(n) = scan {
            self.consume_comment(n);
        }
        scan
    }

    fn consume_comment(&mut self, n: usize) {
        let content = &self.buf.as_bytes()[self.pos + 4..self.pos + n - 3];
        if memmem::find(content, b"--").is_some() || content.last() == Some(&b'-') {
            let a = self.abs(self.pos);
            self.diag(ErrorCode::DoubleHyphenInComment, a, a + n);
        }
        self.skip(n);
    }

    /// `PI ::= "<?" (CHAR* - (CHAR* "?>" CHAR*)) "?>"`: nothing is emitted.
    fn pi(&mut self) -> Scan {
        let from = self.abs(self.pos + 2);
        match self.pi.find(self.buf.as_bytes(), self.base, from, b"?>") {
            Some(f) => {
                let a = self.abs(self.pos);
                let n = f + 2 - a;
                self.diag(ErrorCode::ProcessingInstruction, a, a + n);
                self.skip(n);
                Scan::Match(n)
            }
            None => need(self.eof()),
        }
    }

    /// `NAMED_CHAR_REF` and `NUMERIC_CHAR_REF` (with the decimal form when enabled), else
    /// `&` as DATA_CHAR.
    fn char_ref(&mut self) -> Step {
        let eof = self.eof();
        let b = self.rest();
        let mut decimal = false;
        let (scan, value) = if b.get(1) == Some(&b'#') {
            let hex = b.get(2) == Some(&b'x');
            decimal = !hex;
            let (digits_at, radix) = if hex { (3, 16) } else { (2, 10) };
            if !hex && !self.opts.decimal_references {
                (if b.len() == 2 { need(eof) } else { Scan::No }, None)
            } else {
                let d = b[digits_at.min(b.len())..]
                    .iter()
                    .take_while(|&&c| {
                        if hex {
                            c.is_ascii_hexdigit()
                        } else {
                            c.is_ascii_digit()
                        }
                    })
                    .count();
                let end = digits_at + d;
                if end >= b.len() {
                    (need(eof), None)
                } else if d == 0 || b[end] != b';' {
                    (Scan::No, None)
                } else {
                    let mut code = 0u32;
                    for &c in &b[digits_at..end] {
                        let v = (c as char).to_digit(radix).unwrap_or(0);
                        code = thicket_charref::numeric::accumulate(code, radix, v);
                    }
                    (Scan::Match(end + 1), Some(numeric_value(code)))
                }
            }
        } else {
            let n = name_len(&b[1..]);
            if n == 0 {
                (if b.len() == 1 { need(eof) } else { Scan::No }, None)
            } else if 1 + n == b.len() {
                (need(eof), None)
            } else if b[1 + n] != b';' {
                (Scan::No, None)
            } else {
                let name = &self.buf[self.pos + 1..self.pos + 1 + n];
                (Scan::Match(n + 2), Some(self.named_value(name)))
            }
        };
        match (scan, value) {
            (Scan::Match(n), Some(value)) => {
                let (a, e) = (self.abs(self.pos), self.abs(self.pos + n));
                if decimal {
                    self.diag(ErrorCode::DecimalCharacterReference, a, e);
                }
                if let RefValue::Char(c) = value
                    && !validity::is_referable(c)
                {
                    self.diag(ErrorCode::InvalidReferencedCharacter, a, e);
                }
                self.reference_value(value, self.pos, self.pos + n);
                self.pos += n;
                Step::Progress
            }
            (Scan::More, _) => Step::More,
            _ => {
                self.unescaped(ErrorCode::UnescapedAmpersand);
                Step::Progress
            }
        }
    }

    fn named_value(&self, name: &str) -> RefValue {
        if let Some(c) = thicket_charref::xml_predefined(name) {
            return RefValue::Char(c);
        }
        if self.opts.named_references == NamedReferences::Html5 {
            let key = format!("{name};");
            if let Some(value) = thicket_charref::named(&key).and_then(|e| e.value) {
                return RefValue::Str(value);
            }
        }
        RefValue::Literal(ErrorCode::UnknownNamedReference)
    }

    /// A name MicroXML does not allow (recovery NAMEs are wider), or longer than the name
    /// limit (the token's name is cut when it is handed out).
    fn check_name(&mut self, start: usize, end: usize) {
        let name = &self.buf[start - self.base..end - self.base];
        if !is_ascii_micro_name(name.as_bytes()) && !validity::is_name(name) {
            self.diag(ErrorCode::InvalidName, start, end);
        }
        if end - start > self.max_name {
            self.diag(ErrorCode::NameLengthLimit, start, end);
        }
    }

    /// Tag mode: ATTRIBUTE_NAME_EQUALS, BOOLEAN_ATTRIBUTE, START_TAG_CLOSE,
    /// EMPTY_ELEMENT_TAG_CLOSE, S, EMPTY.
    fn tag(&mut self) -> Step {
        // S: do nothing. Skipping the whole run first is equivalent: ATTRIBUTE_NAME_EQUALS and
        // BOOLEAN_ATTRIBUTE start with S*, so they match after the run iff they match before it.
        let s = s_run(self.rest());
        if s > 0 {
            self.skip(s);
            self.after_quote = false;
            return Step::Progress;
        }
        let eof = self.eof();
        let b = self.rest();
        match b[0] {
            b'>' => {
                self.start_tag_close(1);
                return Step::Progress;
            }
            b'/' => match b.get(1) {
                None if !eof => return Step::More,
                Some(b'>') => {
                    self.start_tag_close(2);
                    return Step::Progress;
                }
                _ => {}
            },
            c if is_name_start(c) => {
                let n = name_len(b);
                if n == b.len() && !eof {
                    return Step::More;
                }
                let t = s_run(&b[n..]);
                match b.get(n + t) {
                    None if !eof => return Step::More,
                    Some(b'=') => {
                        self.attribute_name(n, n + t + 1);
                        self.mode = Mode::StartAttributeValue;
                        self.quoted_value_fast_path();
                        return Step::Progress;
                    }
                    _ if self.opts.boolean_attributes => {
                        let ctx = if self.abs(self.pos) < self.ctx_until {
                            Scan::Match(0)
                        } else {
                            tag_context(&b[n..], eof, true)
                        };
                        match ctx {
                            Scan::More => return Step::More,
                            Scan::Match(m) => {
                                let end = self.abs(self.pos + n + m);
                                self.ctx_until = self.ctx_until.max(end);
                                let a = self.abs(self.pos);
                                self.diag(ErrorCode::MissingAttributeValue, a, a + n);
                                self.attribute_name(n, n);
                                return Step::Progress;
                            }
                            Scan::No => {}
                        }
                    }
                    _ => {}
                }
            }
            _ => {}
        }
        // EMPTY: emit a StartTagClose and change to Main mode.
        let a = self.abs(self.pos);
        self.diag(ErrorCode::UnclosedStartTag, a, a);
        self.emit(Kind::Close, Text::None, Span::empty(a));
        self.mode = Mode::Main;
        Step::Progress
    }

    /// Fast path beside StartAttributeValue and the quoted-value modes for the common
    /// `="value"`: when a quote follows `=` directly and the value holds no `&`, `<` or `>` before
    /// its closing quote, does what those modes would do (SINGLE_QUOTE / DOUBLE_QUOTE, the
    /// DATA_CHARs, the closing quote) in one go. Otherwise leaves the mode methods to it.
    fn quoted_value_fast_path(&mut self) {
        let b = self.rest();
        let Some(&quote @ (b'"' | b'\'')) = b.first() else {
            return;
        };
        let n = quoted_run(&b[1..], quote);
        if b.get(1 + n) != Some(&quote) {
            return;
        }
        self.skip(1);
        self.quote_at = self.abs(self.pos);
        let start = self.pos;
        self.data(start, start + n);
        self.pos = start + n;
        self.close_quote();
    }

    /// The closing quote of a quoted value: back to Tag mode.
    fn close_quote(&mut self) {
        self.empty_value();
        self.skip(1);
        self.mode = Mode::Tag;
        self.after_quote = true;
    }

    /// A quoted value with no characters: tells the tree builder where they would have been.
    fn empty_value(&mut self) {
        if self.abs(self.pos) == self.quote_at && self.value.mode != ValueMode::Dropped {
            self.queue.push_back(Raw {
                kind: Kind::EmptyValue,
                text: Text::None,
                span: Span::empty(self.quote_at),
            });
        }
    }

    /// Emits an AttributeName for the name of length `n` and consumes `len` bytes. Past the
    /// attribute limit the attribute is dropped input instead (reported at the first one).
    fn attribute_name(&mut self, n: usize, len: usize) {
        let a = self.abs(self.pos);
        if self.value.mode != ValueMode::Plain {
            self.end_value();
        }
        if self.after_quote {
            self.diag(ErrorCode::MissingWhitespaceBeforeAttribute, a, a + n);
        }
        self.check_name(a, a + n);
        if &self.buf[self.pos..self.pos + n] == "xmlns" {
            self.diag(ErrorCode::XmlnsAttribute, a, a + n);
        }
        self.tag_attributes += 1;
        let over = self.tag_attributes > self.max_attributes;
        if over {
            if self.tag_attributes == self.max_attributes + 1 {
                self.diag(ErrorCode::AttributeLimit, a, a + n);
            }
            self.skip(len.max(n));
        } else {
            self.emit(
                Kind::Attr,
                Text::Src(a, a + n),
                Span::new(a, a + len.max(n)),
            );
            self.pos += len;
        }
        if over || self.max_value != usize::MAX {
            self.begin_value(over);
        }
        self.after_quote = false;
    }

    /// START_TAG_CLOSE (`len` 1) or EMPTY_ELEMENT_TAG_CLOSE (`len` 2): default handling.
    fn start_tag_close(&mut self, len: usize) {
        let a = self.abs(self.pos);
        let kind = if len == 1 {
            Kind::Close
        } else {
            Kind::EmptyClose
        };
        self.emit(kind, Text::None, Span::new(a, a + len));
        self.pos += len;
        self.mode = Mode::Main;
    }

    /// StartAttributeValue mode: S, SINGLE_QUOTE, DOUBLE_QUOTE, START_TAG_CLOSE,
    /// EMPTY_ELEMENT_TAG_CLOSE, EMPTY.
    fn start_attribute_value(&mut self) -> Step {
        let s = s_run(self.rest());
        if s > 0 {
            self.skip(s);
            return Step::Progress;
        }
        let eof = self.eof();
        let b = self.rest();
        let a = self.abs(self.pos);
        match b[0] {
            b'\'' => {
                self.skip(1);
                self.quote_at = a + 1;
                self.mode = Mode::SingleQuoteAttributeValue;
            }
            b'"' => {
                self.skip(1);
                self.quote_at = a + 1;
                self.mode = Mode::DoubleQuoteAttributeValue;
            }
            b'>' => {
                self.diag(ErrorCode::MissingAttributeValue, a, a);
                self.start_tag_close(1);
            }
            b'/' if b.len() == 1 && !eof => return Step::More,
            b'/' if b.get(1) == Some(&b'>') => {
                self.diag(ErrorCode::MissingAttributeValue, a, a);
                self.start_tag_close(2);
            }
            _ => {
                self.diag(ErrorCode::UnquotedAttributeValue, a, a + 1);
                self.mode = Mode::UnquoteAttributeValue;
            }
        }
        Step::Progress
    }

    /// UnquoteAttributeValue mode: DATA_CHAR, NAMED_CHAR_REF, NUMERIC_CHAR_REF, START_TAG_CLOSE,
    /// EMPTY_ELEMENT_TAG_CLOSE, S.
    fn unquote_attribute_value(&mut self) -> Step {
        let eof = self.eof();
        let b = self.rest();
        match b[0] {
            c if is_s(c) => {
                self.skip(1);
                self.after_quote = false;
                self.mode = Mode::Tag;
            }
            b'>' => self.start_tag_close(1),
            b'/' if b.len() == 1 && !eof => return Step::More,
            b'/' if b.get(1) == Some(&b'>') => self.start_tag_close(2),
            b'&' => return self.char_ref(),
            b'<' => self.unescaped(ErrorCode::UnescapedLessThan),
            _ => {
                let n = 1 + b[1..]
                    .iter()
                    .take_while(|&&c| !is_s(c) && !matches!(c, b'>' | b'/' | b'&' | b'<'))
                    .count();
                self.data(self.pos, self.pos + n);
                self.pos += n;
            }
        }
        Step::Progress
    }

    /// SingleQuote- and DoubleQuoteAttributeValue modes: DATA_CHAR (ATTRIBUTE_VALUE_CHAR and
    /// ANGLE_SINGLE / ANGLE_DOUBLE with the upstream angle rule), NAMED_CHAR_REF,
    /// NUMERIC_CHAR_REF, the quote, and EMPTY with the upstream rule.
    fn quoted_attribute_value(&mut self, quote: u8) -> Step {
        let b = self.rest();
        match b[0] {
            c if c == quote => self.close_quote(),
            b'&' => return self.char_ref(),
            c @ (b'<' | b'>') => {
                let code = if c == b'<' {
                    ErrorCode::UnescapedLessThan
                } else {
                    ErrorCode::UnescapedGreaterThan
                };
                if !self.opts.angle_brackets_end_quoted_values {
                    self.unescaped(code);
                    return Step::Progress;
                }
                match self.angle(quote) {
                    Scan::More => return Step::More,
                    Scan::Match(_) => self.unescaped(code),
                    Scan::No => {
                        // EMPTY: change to Tag mode.
                        let a = self.abs(self.pos);
                        self.diag(ErrorCode::UnclosedAttributeValue, a, a);
                        self.empty_value();
                        self.after_quote = false;
                        self.mode = Mode::Tag;
                    }
                }
            }
            _ => {
                let n = 1 + quoted_run(&b[1..], quote);
                self.data(self.pos, self.pos + n);
                self.pos += n;
            }
        }
        Step::Progress
    }

    /// `ANGLE_SINGLE ::= ([<>]) / (CHAR - "'")* "'" (S | ">" | "/>")` and `ANGLE_DOUBLE`, the
    /// same with `"` (the upstream text has `"'"` there too, a copy-paste slip).
    fn angle(&mut self, quote: u8) -> Scan {
        let eof = self.eof();
        let from = self.abs(self.pos + 1);
        let finder = if quote == b'\'' {
            &mut self.single
        } else {
            &mut self.double
        };
        let Some(q) = finder.find(self.buf.as_bytes(), self.base, from, &[quote]) else {
            return need(eof);
        };
        let after = &self.buf.as_bytes()[q + 1 - self.base..];
        match after.first() {
            None => need(eof),
            Some(&c) if is_s(c) || c == b'>' => Scan::Match(1),
            Some(b'/') => match after.get(1) {
                None => need(eof),
                Some(b'>') => Scan::Match(1),
                Some(_) => Scan::No,
            },
            Some(_) => Scan::No,
        }
    }

    /// CData mode: DATA_CHAR, CDATA_CLOSE.
    fn cdata(&mut self) -> Step {
        let eof = self.eof();
        let b = self.rest();
        match literal(b, b"]]>", false, eof) {
            Scan::Match(n) => {
                self.skip(n);
                self.mode = Mode::Main;
                return Step::Progress;
            }
            Scan::More => return Step::More,
            Scan::No => {}
        }
        let n = 1 + memchr(b']', &b[1..]).unwrap_or(b.len() - 1);
        self.data(self.pos, self.pos + n);
        self.pos += n;
        Step::Progress
    }

    /// `LITERAL ::= '"' (CHAR - '"')* '"' | "'" (CHAR - "'")* "'"`.
    fn literal_len(&mut self) -> Scan {
        let quote = self.rest()[0];
        let from = self.abs(self.pos + 1);
        let finder = if quote == b'\'' {
            &mut self.single
        } else {
            &mut self.double
        };
        match finder.find(self.buf.as_bytes(), self.base, from, &[quote]) {
            Some(q) => Scan::Match(q + 1 - self.abs(self.pos)),
            None => need(self.eof()),
        }
    }

    /// Doctype mode: DECL_CHAR, LITERAL, START_TAG_CLOSE, SUBSET_OPEN, EMPTY.
    fn doctype(&mut self) -> Step {
        let b = self.rest();
        match b[0] {
            b'>' => {
                self.skip(1);
                self.mode = Mode::Main;
            }
            b'[' => {
                self.skip(1);
                self.mode = Mode::Subset;
            }
            b'"' | b'\'' => match self.literal_len() {
                Scan::Match(n) => self.skip(n),
                Scan::More => return Step::More,
                Scan::No => self.mode = Mode::Main,
            },
            b'<' | b']' => self.mode = Mode::Main,
            _ => {
                let n = b
                    .iter()
                    .take_while(|&&c| !matches!(c, b'[' | b']' | b'<' | b'>' | b'"' | b'\''))
                    .count();
                self.skip(n);
            }
        }
        Step::Progress
    }

    /// `DECL ::= "<!" (DECL_CHAR | LITERAL)* ">"`, the length, without consuming.
    fn decl_len(&mut self) -> Scan {
        let eof = self.eof();
        let start = self.pos;
        let mut i = 2;
        loop {
            let b = &self.buf.as_bytes()[start..];
            match b.get(i) {
                None => return need(eof),
                Some(b'>') => return Scan::Match(i + 1),
                Some(&q @ (b'"' | b'\'')) => {
                    let from = self.abs(start + i + 1);
                    let finder = if q == b'\'' {
                        &mut self.single
                    } else {
                        &mut self.double
                    };
                    match finder.find(self.buf.as_bytes(), self.base, from, &[q]) {
                        Some(e) => i = e + 1 - self.abs(start),
                        None => return need(eof),
                    }
                }
                Some(b'[' | b']' | b'<') => return Scan::No,
                Some(_) => i += 1,
            }
        }
    }

    /// Subset mode: COMMENT, PI, DECL, S, SUBSET_CLOSE, EMPTY.
    fn subset(&mut self) -> Step {
        let eof = self.eof();
        let b = self.rest();
        let s = s_run(b);
        if s > 0 {
            self.skip(s);
            return Step::Progress;
        }
        match b[0] {
            b']' => {
                let t = s_run(&b[1..]);
                match b.get(1 + t) {
                    None if !eof => return Step::More,
                    Some(b'>') => {
                        self.skip(2 + t);
                        self.mode = Mode::Main;
                        return Step::Progress;
                    }
                    _ => {}
                }
            }
            b'<' => match b.get(1) {
                None if !eof => return Step::More,
                Some(b'?') => match self.pi() {
                    Scan::Match(_) => return Step::Progress,
                    Scan::More => return Step::More,
                    Scan::No => {}
                },
                Some(b'!') => {
                    let comment = self.comment_len();
                    let decl = self.decl_len();
                    match (comment, decl) {
                        (Scan::More, _) | (_, Scan::More) => return Step::More,
                        (Scan::Match(c), Scan::Match(d)) if c >= d => {
                            self.consume_comment(c);
                            return Step::Progress;
                        }
                        (Scan::Match(c), Scan::No) => {
                            self.consume_comment(c);
                            return Step::Progress;
                        }
                        (_, Scan::Match(d)) => {
                            self.skip(d);
                            return Step::Progress;
                        }
                        (Scan::No, Scan::No) => {}
                    }
                }
                _ => {}
            },
            _ => {}
        }
        // EMPTY: change to Main mode.
        self.mode = Mode::Main;
        Step::Progress
    }
}

/// NUMERIC_CHAR_REF: a character when the number is at most #x10FFFF, else the characters of the
/// reference. Surrogate numbers stay literal too (a Rust `char` cannot hold them).
fn numeric_value(code: u32) -> RefValue {
    match thicket_charref::numeric::microxml(code) {
        Some(c) => RefValue::Char(c),
        None if code > 0x10_FFFF => RefValue::Literal(ErrorCode::ReferenceOutOfRange),
        None => RefValue::Literal(ErrorCode::InvalidReferencedCharacter),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Byte strings rich in the bytes the fast paths stop at, long enough to pass the
    /// byte-by-byte prefix and reach `memchr`.
    fn bytes() -> impl Strategy<Value = Vec<u8>> {
        let pick = prop::sample::select(vec![
            b'a', b'Z', b'0', b'-', b'.', b'_', b':', b'$', b' ', b'\n', b'\r', b'\t', b'<', b'>',
            b'&', b'"', b'\'', 0x0C, 0x7F, 0x80, 0xC2, 0xE3, 0xEF,
        ]);
        prop::collection::vec(pick, 0..100)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]

        #[test]
        fn text_run_agrees_with_bytewise(b in bytes()) {
            let n = b.iter().position(|&c| c == b'<' || c == b'&').unwrap_or(b.len());
            let gt = b[..n].contains(&b'>');
            let cr = b[..n].contains(&b'\r');
            prop_assert_eq!(text_run(&b), (n, gt, cr));
        }

        #[test]
        fn quoted_run_agrees_with_bytewise(b in bytes(), double in any::<bool>()) {
            let quote = if double { b'"' } else { b'\'' };
            let n = b
                .iter()
                .position(|&c| c == quote || matches!(c, b'&' | b'<' | b'>'))
                .unwrap_or(b.len());
            prop_assert_eq!(quoted_run(&b, quote), n);
        }

        #[test]
        fn ascii_name_check_agrees_with_validity(name in "[a-zA-Z0-9_:$.\\-]{0,12}") {
            if is_ascii_micro_name(name.as_bytes()) {
                prop_assert!(validity::is_name(&name));
            } else {
                prop_assert!(!validity::is_name(&name));
            }
        }

        #[test]
        fn plain_ascii_block_agrees_on_random_blocks(block in prop::array::uniform8(any::<u8>())) {
            let plain = |b: u8| (0x20..0x7F).contains(&b) || matches!(b, b'\t' | b'\n' | b'\r');
            prop_assert_eq!(
                plain_ascii_block(u64::from_le_bytes(block)),
                block.iter().all(|&c| plain(c))
            );
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2048))]

        /// The block and byte-wise scan reports exactly the characters `is_forbidden_char`
        /// forbids.
        #[test]
        fn character_scan_agrees_with_is_forbidden_char(
            chars in prop::collection::vec(prop::sample::select(vec![
                'a', ' ', '\n', '\t', '\r', '\0', '\u{C}', '\u{7F}', '\u{80}', '\u{85}',
                '\u{9F}', '\u{A0}', 'é', 'こ', '\u{FDD0}', '\u{FFFE}', '\u{FFFD}', '\u{1FFFF}',
                '😀', '\u{10FFFF}',
            ]), 0..40),
        ) {
            let text: String = chars.into_iter().collect();
            let mut t = Lexer::new(Options::default());
            t.scan_characters(&text, 5);
            let got: Vec<(usize, usize)> =
                t.take_diagnostics().0.iter().map(|d| (d.span.start, d.span.end)).collect();
            let expected: Vec<(usize, usize)> = text
                .char_indices()
                .filter(|&(_, c)| validity::is_forbidden_char(c))
                .map(|(i, c)| (5 + i, 5 + i + c.len_utf8()))
                .collect();
            prop_assert_eq!(got, expected);
        }
    }

    #[test]
    fn byte_classes_agree_with_their_definitions() {
        for b in 0..=255u8 {
            let c = CLASS[b as usize];
            assert_eq!(c & SPACE != 0, is_s(b), "{b}");
            let stop = matches!(b, b'<' | b'&' | b'>' | b'\r');
            assert_eq!(c & TEXT_STOP != 0, stop, "{b}");
            assert_eq!(c & DQ_STOP != 0, stop || b == b'"', "{b}");
            assert_eq!(c & SQ_STOP != 0, stop || b == b'\'', "{b}");
            assert_eq!(c & NAME_START != 0, is_name_start(b), "{b}");
            assert_eq!(c & NAME_CHAR != 0, is_name_char(b), "{b}");
            if c & MICRO_START != 0 {
                assert!(c & MICRO_CHAR != 0 && c & NAME_START != 0, "{b}");
            }
        }
    }

    proptest! {
        #[test]
        fn plain_ascii_pair_agrees_on_random_blocks(
            a in prop::array::uniform8(prop::sample::select(vec![
                b'a', b' ', b'~', b'\n', b'\t', b'\r', 0, 0x1F, 0x7F, 0x80, 0xFF, 0xC2,
            ])),
            b in prop::array::uniform8(any::<u8>()),
        ) {
            let plain = |b: u8| (0x20..0x7F).contains(&b) || matches!(b, b'\t' | b'\n' | b'\r');
            prop_assert_eq!(
                plain_ascii_pair(u64::from_le_bytes(a), u64::from_le_bytes(b)),
                a.iter().chain(&b).all(|&c| plain(c))
            );
            prop_assert_eq!(
                plain_ascii_pair(u64::from_le_bytes(b), u64::from_le_bytes(a)),
                a.iter().chain(&b).all(|&c| plain(c))
            );
        }
    }

    #[test]
    fn plain_ascii_block_agrees_with_bytewise() {
        let plain = |b: u8| (0x20..0x7F).contains(&b) || matches!(b, b'\t' | b'\n' | b'\r');
        for fill in [b'a', b'\n', b' ', b'~'] {
            for lane in 0..8 {
                for b in 0..=255u8 {
                    let mut block = [fill; 8];
                    block[lane] = b;
                    assert_eq!(
                        plain_ascii_block(u64::from_le_bytes(block)),
                        block.iter().all(|&c| plain(c)),
                        "{block:?}"
                    );
                }
            }
        }
    }
}
