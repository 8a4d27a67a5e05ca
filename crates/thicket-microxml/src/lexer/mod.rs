//! Tokenization: lexical tokens recognised per mode, mapped to abstract tokens.
//!
//! The machine reads through the shared streaming cursor ([`thicket_input::Cursor`]): every
//! recognizer looks at the unconsumed input (bytes: every significant character is ASCII, and
//! every byte of a non-ASCII character is a `NAME_CHAR` byte, see [`thicket_names::microxml`])
//! and answers `Ok(Some(len))` when its token matches, `Ok(None)` when it does not, or
//! [`NeedMore`] when only more input can decide, the one way to wait. The longest-match rule
//! is applied by trying the longer tokens first; `DATA_CHAR` (and `EMPTY`) are the fallbacks.
//! A mode method either consumes input (and emits what it recognised) or answers `NeedMore`
//! having changed nothing, so a step is retried as a whole once more input has come.
//!
//! The spec's preprocessing is done on the fly so that spans stay offsets into the input as given:
//! a leading BOM is skipped, a CR counts as `S` wherever `S` is recognised (a CR LF pair is then
//! two `S`, which no mode distinguishes from one), and in characters of data the cursor folds CR
//! LF and CR into one LF (a CR at the end of the input so far waits for the next chunk).
//!
//! The modes live by the spec's sections: [`content`] (Main mode: text, tags, comments, PIs,
//! references), [`tag`] (Tag mode and the attribute value modes), [`declaration`] (CData,
//! Doctype and Subset modes); [`emit`] turns what they recognise into tokens.

use std::collections::VecDeque;

use thicket_input::scan::{Finder, StopSet};
use thicket_input::{Cursor, NeedMore, NewlineRules, Span, TextAcc};
use thicket_names::microxml2012;

use crate::error::{Diagnostic, ErrorCode};
use crate::options::Options;
use crate::order::TokenizerDiagnostics;

mod content;
mod declaration;
mod emit;
mod tag;

use emit::{Pending, Value};

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

/// What a recognizer answers: `Ok(Some(len))` when its token matches here, `len` bytes long
/// (trailing context excluded), `Ok(None)` when it does not, `Err(NeedMore)` when only more
/// input can tell.
type Found = Result<Option<usize>, NeedMore>;

/// The answer when the input ends before a recognizer can decide: no match at the real end,
/// else wait.
#[inline]
fn undecided(finished: bool) -> Found {
    if finished { Ok(None) } else { Err(NeedMore) }
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
    /// With `markup_tokens`: a comment (text: its data), a PI (text: between `<?` and `?>`),
    /// a DOCTYPE (text: its name).
    Comment,
    Pi,
    Doctype,
    /// An attribute value with no characters, at the position its characters would be (for
    /// the tree builder's value span; not a public token).
    EmptyValue,
}

/// A token made and not yet handed out: its text is a range of the input (names, plain data)
/// or owned.
#[derive(Debug)]
struct Raw {
    kind: Kind,
    text: TextAcc,
    span: Span,
}

/// What a character reference stands for.
enum RefValue {
    Char(char),
    Str(&'static str),
    /// The lexical token matched but its characters stay as they are.
    Literal(ErrorCode),
}

/// The characters MicroXML forbids, as check bytes: the ASCII ones and the lead bytes of the
/// C1 controls and noncharacters (thicket-names' table), decoded where they occur.
static FORBIDDEN: StopSet = StopSet::new(b"").check_table(&microxml2012::FORBIDDEN_LEADS);

/// The tokenizer's machine, over input it owns (fed in chunks) or borrows (a whole input).
#[derive(Debug)]
pub(crate) struct Lexer<'a> {
    opts: Options,
    /// The input: buffer, absolute offsets, position, end of input, waiting.
    input: Cursor<'a>,
    mode: Mode,
    done: bool,
    bom_checked: bool,
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
    /// With `markup_tokens`, inside a DOCTYPE declaration: where it started and its name.
    doctype: Option<Box<declaration::DoctypeToken>>,
}

impl Default for Lexer<'_> {
    fn default() -> Self {
        Lexer::new(Options::default())
    }
}

impl<'a> Lexer<'a> {
    fn over(input: Cursor<'a>, options: Options) -> Lexer<'a> {
        Lexer {
            opts: options,
            input,
            mode: Mode::Main,
            done: false,
            bom_checked: false,
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
            single: Finder::new(b"'"),
            double: Finder::new(b"\""),
            comment: Finder::new(b"-->"),
            pi: Finder::new(b"?>"),
            doctype: None,
        }
    }

    /// A lexer with `options`, to be fed.
    pub(crate) fn new(options: Options) -> Lexer<'a> {
        Lexer::over(Cursor::new(NewlineRules::CrLf), options)
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
        let mut l = Lexer::over(Cursor::whole(input, NewlineRules::CrLf), options);
        l.lossless = lossless;
        l.scan_characters(0);
        l.check_bom();
        l
    }

    /// The options in use.
    pub(crate) fn options(&self) -> &Options {
        &self.opts
    }

    /// The input's cursor (for [`crate::fast`]'s delimiter searches).
    pub(crate) fn input(&self) -> &thicket_input::Cursor<'a> {
        &self.input
    }

    /// The current mode.
    pub(crate) fn mode(&self) -> Mode {
        self.mode
    }

    /// The diagnostics released and not yet taken.
    pub(crate) fn released(&self) -> &[Diagnostic] {
        self.diags.released()
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

    /// The limits that cut the input.
    pub(crate) fn limits_reached(&self) -> &thicket_input::LimitLog<ErrorCode> {
        &self.diags.reached
    }

    /// The limits that cut the input, to take their diagnostics.
    pub(crate) fn limits_reached_mut(&mut self) -> &mut thicket_input::LimitLog<ErrorCode> {
        &mut self.diags.reached
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
        self.input.finish();
    }

    /// Appends a chunk of input (after dropping the input nothing refers to any more).
    pub(crate) fn feed(&mut self, chunk: &str) {
        if self.input.is_finished() || chunk.is_empty() {
            return;
        }
        self.compact();
        let from = self.input.end();
        self.input.feed(chunk);
        self.scan_characters(from);
        if !self.bom_checked {
            self.check_bom();
        }
    }

    /// At the start of the input: a BOM is input without a token.
    fn check_bom(&mut self) {
        self.bom_checked = true;
        // Chunks hold whole characters, so a BOM is in the first one or nowhere.
        if self.input.skip_bom() == Ok(true) {
            self.dropped(0, self.input.offset());
        }
    }

    /// One step of the modes (or the end of the input); false when nothing more can be done
    /// until more input comes. Waiting hands out the data read so far (a piece of its `Data`
    /// token): what the spec has made certain is not held back.
    #[inline]
    pub(crate) fn advance(&mut self) -> bool {
        if self.done || !self.input.is_ready() {
            return false;
        }
        if self.input.available() == 0 {
            if !self.input.is_finished() {
                self.flush_piece();
                return false;
            }
            self.end_of_input();
            return true;
        }
        let from = self.input.offset();
        if self.step().is_err() {
            // Retried once the input has grown by what this step looked at (or by anything,
            // for a short look-ahead), so tiny chunks into a long look-ahead stay linear.
            self.input.need_more(from);
            self.flush_piece();
            return false;
        }
        true
    }

    /// True when the tokenizer is in Main mode with nothing queued or pending, the state in
    /// which [`crate::fast`] may take over.
    #[inline]
    pub(crate) fn is_clean(&self) -> bool {
        self.mode == Mode::Main
            && self.pending.is_none()
            && self.dropped.is_none()
            && self.queue.is_empty()
            && !self.done
    }

    /// Where the tokenizer is (an index into the input when it is a whole input).
    #[inline]
    pub(crate) fn position(&self) -> usize {
        self.input.index()
    }

    /// Moves on to `pos`, in Main mode, after [`crate::fast`] consumed the input up to it.
    #[inline]
    pub(crate) fn skip_to(&mut self, pos: usize) {
        debug_assert!(self.is_clean() && pos >= self.input.index());
        self.input.set_index(pos);
    }

    /// Reports a diagnostic found by [`crate::fast`].
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

    /// Lets the cursor drop consumed input that no queued token or pending data refers to.
    fn compact(&mut self) {
        let mut keep = self.input.offset();
        for raw in &self.queue {
            if let Some((a, _)) = raw.text.range() {
                keep = keep.min(a);
            }
        }
        if let Some((a, _)) = self.pending.as_ref().and_then(|p| p.text.range()) {
            keep = keep.min(a);
        }
        self.input.compact(keep, &mut []);
    }

    /// Reports every character MicroXML forbids in the buffered input from absolute offset
    /// `from` on (a chunk just fed, or a whole input).
    fn scan_characters(&mut self, from: usize) {
        let (input, diags) = (&self.input, &mut self.diags);
        let text = input.text();
        let base = input.base();
        FORBIDDEN.run(text.as_bytes(), from - base, |i| {
            let c = text[i..].chars().next().unwrap_or('\u{FFFD}');
            let len = c.len_utf8();
            if microxml2012::is_forbidden_char(c) {
                invalid_char(diags, base + i, base + i + len);
            }
            Some(i + len)
        });
    }

    #[cold]
    fn diag(&mut self, code: ErrorCode, start: usize, end: usize) {
        self.diags
            .lexer(Diagnostic::new(code, Span::new(start, end)));
    }

    /// The absolute offset of the position.
    #[inline(always)]
    fn at(&self) -> usize {
        self.input.offset()
    }

    /// The unread input.
    #[inline(always)]
    fn rest(&self) -> &[u8] {
        self.input.rest_bytes()
    }

    #[inline(always)]
    fn finished(&self) -> bool {
        self.input.is_finished()
    }

    /// One `DATA_CHAR` that MicroXML would have wanted escaped.
    #[cold]
    fn unescaped(&mut self, code: ErrorCode) {
        let a = self.at();
        self.diag(code, a, a + 1);
        self.data(a, a + 1);
        self.input.advance(1);
    }

    /// Whether comments, PIs and DOCTYPE declarations are tokens (`Options::markup_tokens`,
    /// on the lossless path only).
    #[inline(always)]
    fn markup_tokens(&self) -> bool {
        self.opts.markup_tokens && self.lossless
    }

    /// Consumes `n` bytes that produce no token.
    #[inline]
    fn skip(&mut self, n: usize) {
        let a = self.at();
        self.dropped(a, a + n);
        self.input.advance(n);
    }

    /// A line break in data: CR LF or CR, one LF (`NeedMore` at a CR that ends the input so
    /// far, since an LF may follow).
    fn newline(&mut self) -> Result<(), NeedMore> {
        let Some(p) = self.input.peek()? else {
            return Ok(());
        };
        let a = self.at();
        self.data_char(p.ch, a, a + p.len);
        self.input.advance(p.len);
        Ok(())
    }

    // ----- driving -----

    fn step(&mut self) -> Result<(), NeedMore> {
        match self.mode {
            Mode::Main => self.main(),
            Mode::Tag => self.tag(),
            Mode::StartAttributeValue => self.start_attribute_value(),
            Mode::UnquoteAttributeValue => self.unquote_attribute_value(),
            Mode::SingleQuoteAttributeValue => self.quoted_attribute_value(b'\''),
            Mode::DoubleQuoteAttributeValue => self.quoted_attribute_value(b'"'),
            Mode::CData => self.cdata(),
            Mode::Doctype => {
                let r = self.doctype();
                self.end_doctype_token();
                r
            }
            Mode::Subset => {
                let r = self.subset();
                self.end_doctype_token();
                r
            }
        }
    }

    /// The end of the input: in the tag modes a `StartTagClose` is emitted.
    fn end_of_input(&mut self) {
        let end = self.at();
        match self.mode {
            Mode::Tag | Mode::StartAttributeValue | Mode::UnquoteAttributeValue => {
                self.diag(ErrorCode::UnclosedStartTag, end, end);
                self.emit(Kind::Close, TextAcc::new(), Span::empty(end));
            }
            Mode::SingleQuoteAttributeValue | Mode::DoubleQuoteAttributeValue => {
                self.diag(ErrorCode::UnclosedAttributeValue, end, end);
                self.empty_value();
                self.emit(Kind::Close, TextAcc::new(), Span::empty(end));
            }
            Mode::Main | Mode::CData | Mode::Doctype | Mode::Subset => {}
        }
        self.mode = Mode::Main;
        self.end_doctype_token();
        self.flush();
        self.done = true;
    }
}

#[cold]
fn invalid_char(diags: &mut TokenizerDiagnostics, start: usize, end: usize) {
    diags.char(Diagnostic::new(
        ErrorCode::InvalidCharacter,
        Span::new(start, end),
    ));
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2048))]

        /// The check-only scan reports exactly the characters `is_forbidden_char` forbids,
        /// however the input is fed.
        #[test]
        fn character_scan_agrees_with_is_forbidden_char(
            chars in prop::collection::vec(prop::sample::select(vec![
                'a', ' ', '\n', '\t', '\r', '\0', '\u{C}', '\u{7F}', '\u{80}', '\u{85}',
                '\u{9F}', '\u{A0}', 'é', 'こ', '\u{FDD0}', '\u{FFFE}', '\u{FFFD}', '\u{1FFFF}',
                '😀', '\u{10FFFF}',
            ]), 0..80),
            cut in 0usize..80,
        ) {
            let text: String = chars.into_iter().collect();
            let expected: Vec<(usize, usize)> = text
                .char_indices()
                .filter(|&(_, c)| microxml2012::is_forbidden_char(c))
                .map(|(i, c)| (i, i + c.len_utf8()))
                .collect();
            let mut cut = cut.min(text.len());
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            let mut t = Lexer::new(Options::default());
            t.feed(&text[..cut]);
            t.feed(&text[cut..]);
            let got: Vec<(usize, usize)> =
                t.take_diagnostics().0.iter().map(|d| (d.span.start, d.span.end)).collect();
            prop_assert_eq!(got, expected);
        }
    }
}
