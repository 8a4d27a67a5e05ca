//! The direct path beside the states: text up to a tag and a whole plain tag, read in one loop
//! and built from slices of the input.
//!
//! When the data state meets text and the buffer holds the tag after it to its `>`, and the tag
//! is plain (`<name a="v" b='w'>`, `<name/>`, `</name>`: names and quoted values of characters
//! the states take without work, no `&` in values, no CR, U+0000, control or noncharacter, no
//! duplicate names, at most [`FAST_ATTRS`] attributes, no name or value a length limit cuts),
//! [`scan_tag`] reads it following the states' transitions one by one (the odd rules included:
//! `:` before an attribute, `/` not followed by `>`; unquoted values and the end of the buffer
//! give up). The text before it takes the five predefined entities (draft profile, no entities
//! of the user's) as the reference states would. Anything else goes back to the states at the
//! tag's `<` (or wherever the text run stopped), so the tokens, spans and diagnostics are the
//! states' by construction.
//!
//! Tested against the states (`Tokenizer::with_fast_paths(false)`): the unit tests below and
//! `tests/fast.rs` (random tag-shaped markup, whole and in chunks; the corpus whole against
//! char by char), and the `xml5_chunks` fuzz target.

use std::borrow::Cow;

use thicket_input::Span;

use super::hand_out::{Before, Found, HeldTag};
use super::runs::{
    ATTR_NAME, DQ_VALUE, SQ_VALUE, TAG_NAME, TEXT, input_stream_error, run_end_inline,
};
use super::{Profile, ScanLimits, State, TagKind, Tokenizer, charref};
use thicket_charref::numeric;
use thicket_names::html::INPUT_STREAM_ERROR_LEADS;

use crate::error::{Diagnostic, ErrorCode};
use crate::hash::same_bytes;
use crate::token::{Event, Token, TokenKind};

/// At most this many attributes on a tag read by [`scan_tag`]: its duplicate check compares
/// names pairwise (on a filter hit), at most `FAST_ATTRS - 1` comparisons an attribute; past
/// this the states' keyed check takes the tag.
pub(crate) const FAST_ATTRS: usize = 64;

/// An error run: in the data state, errors again and again, each with its text right after
/// it: `<` (or `</`) followed by a character that starts no tag (`<<<<`, `</</`: "tag open
/// state" or "end tag open state", parse error, the `<` or `</` is text and the character
/// after is read again), or a character the input stream reports (a control or noncharacter,
/// kept as text). The direct path hands these out without state steps and without queuing
/// them, two small events an error ([`Tokenizer::error_run_event`]); the events are the
/// states'.
#[derive(Clone, Copy, Debug)]
pub(super) struct ErrorRun {
    /// The diagnostic to hand out next: its code and span.
    diagnostic: Option<(ErrorCode, usize, usize)>,
    /// The text of that error (absolute offsets), as written: it goes out before the next
    /// error's diagnostic or joins the text run.
    pub(super) piece: (usize, usize),
}

/// A step of an error run ([`Tokenizer::error_run_step`]).
pub(crate) enum ErrorStep {
    /// The diagnostic of an error.
    Diagnostic(Diagnostic),
    /// Text, as written: its span.
    Text(Span),
}

/// An error of an error run: its code, its diagnostic's span (indices), and the index where
/// the data state goes on (its text runs from where it starts to there).
struct RunError {
    code: ErrorCode,
    at: usize,
    end: usize,
    next: usize,
}

/// The error of an error run at index `i` of `text`, if any: a `<` followed by whitespace, `:`,
/// `<` or `>` ("tag open state"), `</` followed by whitespace, `<` or `:` ("end tag open
/// state"), or a control or noncharacter ("the input stream"). The end of the buffer is none
/// (the states decide there), and so are CR and U+0000.
#[inline(always)]
fn run_error(text: &str, i: usize) -> Option<RunError> {
    let b = text.as_bytes();
    match (b.get(i), b.get(i + 1), b.get(i + 2)) {
        (Some(b'<'), Some(b'\t' | b'\n' | b' ' | b':' | b'<' | b'>'), _) => Some(RunError {
            code: ErrorCode::InvalidFirstCharacterOfTagName,
            at: i + 1,
            end: i + 2,
            next: i + 1,
        }),
        (Some(b'<'), Some(b'/'), Some(b'\t' | b'\n' | b' ' | b'<' | b':')) => Some(RunError {
            code: ErrorCode::InvalidFirstCharacterOfEndTagName,
            at: i + 2,
            end: i + 3,
            next: i + 2,
        }),
        (Some(&c), _, _) if INPUT_STREAM_ERROR_LEADS[usize::from(c)] => stream_error(text, i),
        _ => None,
    }
}

/// [`run_error`] at a character the input stream may report.
#[inline]
fn stream_error(text: &str, i: usize) -> Option<RunError> {
    let ch = text.get(i..)?.chars().next()?;
    let code = input_stream_error(ch)?;
    let end = i + ch.len_utf8();
    Some(RunError {
        code,
        at: i,
        end,
        next: end,
    })
}

/// Every ASCII character, for one-character text that must not borrow the input.
const ASCII: &str = "\0\x01\x02\x03\x04\x05\x06\x07\x08\t\n\x0B\x0C\r\x0E\x0F\
    \x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1A\x1B\x1C\x1D\x1E\x1F \
    !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~\x7F";

/// An attribute found by [`scan_tag`]: ranges of the input buffer.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RawAttr {
    pub(crate) name: (usize, usize),
    /// Inside the quotes; empty for an attribute without a value.
    pub(crate) value: (usize, usize),
    /// The end of the attribute's span (after the closing quote, or after the name).
    pub(crate) end: usize,
}

/// The text before a tag of the direct path, if any, and its span.
pub(crate) type TextBefore<'a> = Option<(Cow<'a, str>, Span)>;

/// A plain tag for the tree builder ([`Tokenizer::next_direct`]): no token built.
pub(crate) struct Direct<'a> {
    /// The text before the tag, if any.
    pub(crate) text: TextBefore<'a>,
    pub(crate) kind: TagKind,
    /// The whole input (the attributes are ranges of it).
    pub(crate) input: &'a str,
    pub(crate) name: &'a str,
    pub(crate) span: Span,
}

/// A tag found by [`scan_tag`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct RawTag {
    pub(crate) kind: TagKind,
    /// The `<`.
    pub(crate) lt: usize,
    pub(crate) name: (usize, usize),
    /// Just after the closing `>`.
    pub(crate) end: usize,
}

impl<'a> Tokenizer<'a> {
    /// The direct path beside the data state, for the common case of text followed by a tag:
    /// appends the run of ordinary text at the input position to the text (as the data state's
    /// run does), then, when a whole plain tag follows in the buffer (see [`scan_tag`]), returns
    /// the text before it, if any, and the tag, its attributes left in `raw_attrs`; the input
    /// position is past the tag. Their tokens are built from slices of the input
    /// (`hand_out.rs`). `None` leaves the rest to the states, at the `<` or at whatever ended
    /// the text run (the text run is then held as the data state holds it), so the tokens are
    /// the same as the states would produce.
    ///
    /// The owned methods and the tree builder take it as it is: a lazy tokenizer's owned tokens
    /// are built whole and stripped ([`Tokenizer::next_token`]).
    #[inline(always)]
    pub(super) fn fast_scan(&mut self) -> Option<Found> {
        self.fast_scan_with::<false>()
    }

    /// [`Tokenizer::fast_scan`], with `LAZY` what a lazy tokenizer skips skipped.
    #[inline(always)]
    pub(super) fn fast_scan_with<const LAZY: bool>(&mut self) -> Option<Found> {
        let lt = if LAZY && self.skip_text {
            // Lazy, text not asked for: to the next `<` (references, CR and the characters the
            // input stream reports change content, never where a text run ends).
            // Indentation byte by byte first, as below.
            let rel = self.input.index();
            let bytes = self.input.bytes();
            let mut j = rel;
            while let Some(&(b' ' | b'\t' | b'\n')) = bytes.get(j) {
                j += 1;
            }
            if bytes.get(j) == Some(&b'<') {
                j
            } else {
                memchr::memchr(b'<', &bytes[j..]).map_or(bytes.len(), |p| j + p)
            }
        } else {
            loop {
                let rel = self.input.index();
                let text = self.input.text();
                let bytes = text.as_bytes();
                // Indentation (line breaks, spaces, tabs), the most common text between tags, byte
                // by byte: tab and LF would each be a candidate of the word scan.
                let mut j = rel;
                while let Some(&(b' ' | b'\t' | b'\n')) = bytes.get(j) {
                    j += 1;
                }
                let stop = if bytes.get(j) == Some(&b'<') {
                    j
                } else {
                    run_end_inline(&TEXT, text, j)
                };
                if bytes.get(stop) == Some(&b'&') {
                    // One of the five predefined entities (draft profile, no entities of the
                    // user's): what the reference states give, the run and the replacement text,
                    // and on.
                    if self.profile == Profile::Draft
                        && self.entities.is_none()
                        && let Some((len, c)) =
                            thicket_charref::xml_predefined_reference(&bytes[stop..])
                    {
                        let base = self.input.base();
                        let pos = base + rel;
                        if stop > rel {
                            self.text_span(pos, base + stop);
                            self.text.push_range(pos, base + stop, &self.input);
                        }
                        self.text_span(base + stop, base + stop + len);
                        self.text.push_char(c, &self.input);
                        self.input.set_index(stop + len);
                        continue;
                    }
                    // Another reference the direct path takes as the states would (unless it
                    // raised an error, which is queued).
                    match self.text_reference(rel, stop) {
                        Some(true) => continue,
                        Some(false) => return None,
                        None => {}
                    }
                }
                break stop;
            }
        };
        let rel = self.input.index();
        let run = lt - rel;
        let text = self.input.text();
        let raw = if text.as_bytes().get(lt) == Some(&b'<') {
            scan_tag(text, lt, &mut self.raw_attrs, &self.scan_limits)
                .filter(|raw| self.scan_limits.admits(raw, &self.raw_attrs))
        } else {
            None
        };
        let base = self.input.base();
        let Some(raw) = raw else {
            // The states go on from the end of the run, as after the data state's own run.
            if run > 0 {
                let (start, end) = (base + rel, base + lt);
                self.text_span(start, end);
                self.text.push_range(start, end, &self.input);
                self.input.set_index(lt);
            }
            if let Some(&b) = self.input.bytes().get(lt)
                && (b == b'<' || INPUT_STREAM_ERROR_LEADS[usize::from(b)])
            {
                self.start_error_run();
            }
            return None;
        };
        let text = if self.text_open {
            // Text held from before (a reference, CDATA): the run joins it.
            if run > 0 {
                self.text_span(base + rel, base + lt);
                self.text.push_range(base + rel, base + lt, &self.input);
            } else if self.text.is_empty() && !self.text_split {
                // Only CDATA markup: the states emit it (`Discarded`) before the tag.
                return None;
            }
            self.text_open = false;
            let span = Span::new(self.text_start, self.text_end);
            if LAZY && self.skip_text {
                // Lazy: not asked for, handed out empty.
                self.text.clear();
                Some((Before::Range(lt, lt), span))
            } else {
                Some((Before::Acc, span))
            }
        } else if run > 0 {
            // (Lazy, text not asked for: handed out empty.)
            let from = if LAZY && self.skip_text { lt } else { rel };
            Some((Before::Range(from, lt), Span::new(base + rel, base + lt)))
        } else {
            None
        };
        if LAZY && self.some_attributes {
            self.lazy_attributes(&raw);
        }
        // The tag ends the text run.
        self.text_split = false;
        self.input.set_index(raw.end);
        Some((text, HeldTag { base, raw }))
    }

    /// Lazy, with the attributes of some tags asked for: the attributes of the tag `raw` are
    /// forgotten unless asked for (they are then not built).
    #[inline(never)]
    fn lazy_attributes(&mut self, raw: &RawTag) {
        let name = &self.input.text()[raw.name.0..raw.name.1];
        if let Some(lazy) = &self.lazy
            && !lazy.attributes.of(name)
        {
            self.raw_attrs.clear();
        }
    }

    /// A reference at index `stop` of the buffer (its `&`), after the text run from index
    /// `rel`, taken as the states take it when it is plain: a `&` that starts no reference (it
    /// is text), or a numeric reference whose end is in the buffer (an error it raises is
    /// queued, the run before it going out first). Returns whether the direct path goes on
    /// (`false`: an error was queued), or `None` when the states must take the reference.
    #[inline(never)]
    fn text_reference(&mut self, rel: usize, stop: usize) -> Option<bool> {
        let bytes = self.input.bytes();
        let after = *bytes.get(stop + 1)?;
        let base = self.input.base();
        if after.is_ascii() && charref::starts_no_reference(self.profile, char::from(after)) {
            // Text: the `&` joins the run.
            let end = base + stop + 1;
            self.text_span(base + rel, end);
            self.text.push_range(base + rel, end, &self.input);
            self.input.set_index(stop + 1);
            return Some(true);
        }
        if after != b'#' {
            return None;
        }
        let (radix, mut i) = match *bytes.get(stop + 2)? {
            b'x' | b'X' => (16, stop + 3),
            _ => (10, stop + 2),
        };
        let digits = i;
        let mut n = 0;
        while let Some(d) = bytes.get(i).and_then(|&b| char::from(b).to_digit(radix)) {
            n = numeric::accumulate(n, radix, d);
            i += 1;
        }
        // No digits (the states report it and read the `&` as text), or the buffer ends before
        // what follows them.
        if i == digits {
            return None;
        }
        let semicolon = *bytes.get(i)? == b';';
        if semicolon {
            i += 1;
        }
        let (c, code) = charref::numeric_char(self.profile, n);
        if stop > rel {
            self.text_span(base + rel, base + stop);
            self.text.push_range(base + rel, base + stop, &self.input);
        }
        let span = Span::new(base + stop, base + i);
        if !semicolon {
            self.error(ErrorCode::MissingSemicolonAfterCharacterReference, span);
        }
        if let Some(code) = code {
            self.error(code, span);
        }
        self.text_span(span.start, span.end);
        if c == '\u{FFFD}' {
            self.text.push_static("\u{FFFD}", &self.input);
        } else {
            self.text.push_char(c, &self.input);
        }
        self.input.set_index(i);
        Some(semicolon && code.is_none())
    }

    /// Starts an error run at the position (where the direct path's text run stopped and no
    /// tag followed), if there is an error of the run there (see [`ErrorRun`]): the text run
    /// before it goes out, and [`Tokenizer::error_run_event`] hands out the rest.
    #[inline(never)]
    fn start_error_run(&mut self) {
        let i = self.input.index();
        let Some(error) = run_error(self.input.text(), i) else {
            return;
        };
        self.flush_text();
        let base = self.input.base();
        self.input.set_index(error.next);
        self.error_run = Some(ErrorRun {
            diagnostic: Some((error.code, base + error.at, base + error.end)),
            piece: (base + i, base + error.next),
        });
    }

    /// The next event of the error run in progress, made on demand (nothing is queued): the
    /// diagnostic of an error, then, if another error follows, the text before it. `None` once
    /// the run ended: its last text joined the text run, and the states go on after it.
    pub(super) fn error_run_event(&mut self) -> Option<Event<'a>> {
        Some(match self.error_run_step()? {
            ErrorStep::Diagnostic(d) => Event::Diagnostic(d),
            ErrorStep::Text(span) => {
                let base = self.input.base();
                let text = match span.end - span.start {
                    // `<`, `</` (the pieces of nearly every error run) or a control of one byte:
                    // a static string, also when the input is fed (nothing allocated).
                    1 if self.input.bytes()[span.start - base].is_ascii() => {
                        let b = self.input.bytes()[span.start - base];
                        Cow::Borrowed(&ASCII[usize::from(b)..][..1])
                    }
                    2 if self.input.bytes()[span.start - base] == b'<' => Cow::Borrowed("</"),
                    _ => self.input.slice_cow(span.start, span.end),
                };
                Event::Token(Token {
                    kind: TokenKind::Text(text),
                    span,
                })
            }
        })
    }

    /// True when an error run is in progress and nothing is queued before it: the parser over
    /// a whole `&str` then takes it with [`Tokenizer::error_run_step`], without events.
    #[inline]
    pub(crate) fn in_error_run(&self) -> bool {
        self.error_run.is_some()
            && self.out.is_empty()
            && self.pending.is_none()
            && self.held.is_none()
    }

    /// The next step of the error run in progress (see [`Tokenizer::error_run_event`]): a
    /// diagnostic, or the span of text as written (a `<`, `</`, or a character the input
    /// stream reports).
    #[inline]
    pub(crate) fn error_run_step(&mut self) -> Option<ErrorStep> {
        let run = self.error_run.as_mut()?;
        if let Some((code, at, end)) = run.diagnostic.take() {
            if self.diagnostic_room > 0 {
                self.diagnostic_room -= 1;
                let span = Span::new(at, end);
                return Some(ErrorStep::Diagnostic(Diagnostic::new(code, span)));
            }
            // Past the cap: counted, and on to the text.
            self.omitted += 1;
        }
        let (start, end) = run.piece;
        let i = self.input.index();
        let Some(error) = run_error(self.input.text(), i) else {
            self.error_run = None;
            // (Compaction keeps the piece.)
            self.text_span(start, end);
            self.text.push_range(start, end, &self.input);
            return None;
        };
        let base = self.input.base();
        run.piece = (base + i, base + error.next);
        run.diagnostic = Some((error.code, base + error.at, base + error.end));
        self.input.set_index(error.next);
        Some(ErrorStep::Text(Span::new(start, end)))
    }

    /// For the tree builder over a whole `&str`: the direct path without tokens. The text
    /// before a plain tag (if any) and the tag, whose attributes are then
    /// [`Tokenizer::direct_attributes`] (ranges of the input). `None` when the direct path does
    /// not apply here: the caller goes on with [`Tokenizer::next_event`], which gives the
    /// same events the states would.
    #[inline]
    pub(crate) fn next_direct(&mut self) -> Option<Direct<'a>> {
        if self.pending.is_some()
            || self.held.is_some()
            || !self.out.is_empty()
            || self.state != State::Data
            || self.reconsume
            || !self.bom_checked
            || self.eof_emitted
            || !self.fast
            || self.error_run.is_some()
        {
            return None;
        }
        let input = self.input.input()?;
        let (text, HeldTag { raw, .. }) = self.fast_scan()?;
        let text = match text {
            Some((Before::Range(start, end), span)) => {
                Some((Cow::Borrowed(&input[start..end]), span))
            }
            Some((Before::Acc, span)) => Some((self.text.take().into_cow_input(&self.input), span)),
            None => None,
        };
        Some(Direct {
            text,
            kind: raw.kind,
            input,
            name: &input[raw.name.0..raw.name.1],
            span: Span::new(raw.lt, raw.end),
        })
    }

    /// The attributes of the last tag [`Tokenizer::next_direct`] returned.
    pub(crate) fn direct_attributes(&self) -> &[RawAttr] {
        &self.raw_attrs
    }
}

/// The direct tag path beside the tag states: reads a whole tag starting at the `<` at `lt` in
/// one loop when it is plain (each run of a name or value ends at one of its set's stops, a
/// CR, U+0000, a control or a noncharacter, or the end of the buffer: the loop goes on only
/// at the stops it expects, and gives up at anything else): `<name a="v" b='w'>`, `<name/>`, `</name>`, names and values of
/// characters the states take without work (no CR, U+0000, control or noncharacter), quoted
/// values without `&`, at most [`FAST_ATTRS`] attributes (fewer with a lower attribute limit)
/// and no duplicate names (the caller checks the length limits: [`ScanLimits::admits`]). The
/// result is what the states would emit for the same characters (their transitions are
/// followed one by one below). Anything else, or a tag that the buffer does not hold to its
/// `>`, gives `None` and the states read the tag from its `<`.
#[inline(always)]
fn scan_tag(
    text: &str,
    lt: usize,
    attrs: &mut Vec<RawAttr>,
    limits: &ScanLimits,
) -> Option<RawTag> {
    let b = text.as_bytes();
    attrs.clear();
    let mut i = lt + 1;
    // Tag open state.
    match *b.get(i)? {
        b'/' => {
            // End tag open state: the first character of the name (`>` is a short end tag,
            // whitespace, `<` and `:` are errors).
            i += 1;
            let start = i;
            if matches!(*b.get(i)?, b'>' | b'\t' | b'\n' | b' ' | b'<' | b':') {
                return None;
            }
            // End tag name state.
            i = run_end_inline(&TAG_NAME, text, i);
            if i == start {
                return None;
            }
            let name = (start, i);
            // End tag name after state (`/` is an error).
            loop {
                match *b.get(i)? {
                    b'>' => {
                        return Some(RawTag {
                            kind: TagKind::End,
                            lt,
                            name,
                            end: i + 1,
                        });
                    }
                    b'\t' | b'\n' | b' ' => i += 1,
                    _ => return None,
                }
            }
        }
        b'?' | b'!' | b'\t' | b'\n' | b' ' | b':' | b'<' | b'>' => return None,
        _ => {}
    }
    // Tag name state.
    let start = i;
    i = run_end_inline(&TAG_NAME, text, i);
    if i == start {
        return None;
    }
    let name = (start, i);
    let tag = |kind, end| {
        Some(RawTag {
            kind,
            lt,
            name,
            end,
        })
    };
    let mut seen = 0u64;
    loop {
        // Tag attribute name before state (after the name or a quoted value).
        match *b.get(i)? {
            b'\t' | b'\n' | b' ' => {
                i += 1;
                continue;
            }
            b'>' => return tag(TagKind::Start, i + 1),
            // Empty tag state: only `/>` is plain.
            b'/' => {
                return (*b.get(i + 1)? == b'>').then_some(RawTag {
                    kind: TagKind::Empty,
                    lt,
                    name,
                    end: i + 2,
                });
            }
            b':' => return None,
            _ => {}
        }
        // Tag attribute name state (a name starting with `=` or a stop is not plain).
        let name_start = i;
        i = run_end_inline(&ATTR_NAME, text, i);
        if i == name_start || attrs.len() == limits.fast_attributes {
            return None;
        }
        let attr_name = (name_start, i);
        // Duplicates: each name against the (at most FAST_ATTRS - 1) before it, those compared
        // skipped when a 64-bit filter of (length, last byte) says they differ, and each of
        // another length skipped before its bytes are sliced.
        let new = &b[name_start..i];
        let bit = 1u64 << ((new.len() * 7 + usize::from(b[i - 1])) & 63);
        if seen & bit != 0
            && attrs.iter().any(|a| {
                a.name.1 - a.name.0 == new.len() && same_bytes(&b[a.name.0..a.name.1], new)
            })
        {
            return None;
        }
        seen |= bit;
        let mut valueless = RawAttr {
            name: attr_name,
            value: (i, i),
            end: i,
        };
        let mut c = *b.get(i)?;
        if matches!(c, b'\t' | b'\n' | b' ') {
            // Tag attribute name after state.
            while matches!(c, b'\t' | b'\n' | b' ') {
                i += 1;
                c = *b.get(i)?;
            }
            match c {
                b'=' | b'>' | b'/' => {}
                // Anything else starts the next attribute (here `:` is no error, unlike in the
                // name before state, so it is left to the states).
                b':' => return None,
                _ => {
                    attrs.push(valueless);
                    continue;
                }
            }
        }
        match c {
            b'=' => {}
            b'>' => {
                attrs.push(valueless);
                return tag(TagKind::Start, i + 1);
            }
            b'/' => {
                attrs.push(valueless);
                continue;
            }
            _ => return None,
        }
        // Tag attribute value before state.
        i += 1;
        let quote = loop {
            match *b.get(i)? {
                b'\t' | b'\n' | b' ' => i += 1,
                q @ (b'"' | b'\'') => break q,
                b'>' => {
                    valueless.end = attr_name.1;
                    attrs.push(valueless);
                    return tag(TagKind::Start, i + 1);
                }
                // Unquoted values and references are left to the states.
                _ => return None,
            }
        };
        // Tag attribute value (double- or single-quoted) state.
        i += 1;
        let value_start = i;
        // One inlined scan per quote, so each knows its set.
        i = if quote == b'"' {
            run_end_inline(&DQ_VALUE, text, i)
        } else {
            run_end_inline(&SQ_VALUE, text, i)
        };
        if *b.get(i)? != quote {
            return None;
        }
        attrs.push(RawAttr {
            name: attr_name,
            value: (value_start, i),
            end: i + 1,
        });
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ascii_table_holds_each_character_at_its_code() {
        assert_eq!(ASCII.len(), 128);
        for (i, c) in ASCII.char_indices() {
            assert_eq!(c as usize, i);
        }
    }

    #[test]
    fn run_errors() {
        let e = |s: &str| run_error(s, 0).map(|e| (e.code, e.at, e.end, e.next));
        assert_eq!(
            e("<<"),
            Some((ErrorCode::InvalidFirstCharacterOfTagName, 1, 2, 1))
        );
        assert_eq!(
            e("</ "),
            Some((ErrorCode::InvalidFirstCharacterOfEndTagName, 2, 3, 2))
        );
        assert_eq!(
            e("\u{1}x"),
            Some((ErrorCode::ControlCharacterInInputStream, 0, 1, 1))
        );
        assert_eq!(
            e("\u{FFFE}"),
            Some((ErrorCode::NoncharacterInInputStream, 0, 3, 3))
        );
        for none in ["<", "</", "<a", "</>", "\r", "\0", "\u{EFFF}", "é", "a"] {
            assert_eq!(e(none), None, "{none:?}");
        }
    }
}
