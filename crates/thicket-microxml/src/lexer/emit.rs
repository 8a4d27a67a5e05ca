//! What the modes produce: the token queue, pending data, input consumed without a token, the
//! limits on attribute values, and handing tokens to their consumers (the public [`Token`]s,
//! or the tree builder directly).
//!
//! Lossless spans: every byte of the input is in the span of exactly one token. Runs of
//! `DataChar` are one `Data` token whose span covers comments, PIs and CDATA delimiters between
//! its characters; any other input consumed without a token (a BOM, `S` in tags, quotes,
//! comments, PIs, CDATA delimiters, DOCTYPE declarations, attributes past the attribute
//! limit) is gathered into one `Discarded` token between the tokens around it. The tree path
//! does not need those, and does not make them.
//!
//! Streaming: a `Data` token is handed out in pieces. When the machine has to wait for more
//! input, the characters gathered so far are certain and go out as a piece ([`Lexer::flush_piece`]);
//! the next piece starts where it ended (covering any comment between), so the pieces of one
//! run, joined, are the token a whole input gives, and a text run is never held whole.

use thicket_input::{Span, TextAcc};

use super::{Kind, Lexer, Raw, RefValue};
use crate::error::{Diagnostic, ErrorCode};
use crate::token::Token;
use crate::tree::{Chars, TreeBuilder};

/// The characters of a `Data` token being gathered.
#[derive(Debug)]
pub(super) struct Pending {
    /// The characters: a range of the input while they are exactly the input.
    pub(super) text: TextAcc,
    /// The span (absolute): from the first character (or the end of the last piece handed
    /// out) to the end of the last.
    pub(super) start: usize,
    pub(super) end: usize,
}

impl Pending {
    fn text_len(&self) -> usize {
        self.text.len()
    }

    /// Nothing to hand out: no characters and an empty span (what is left after a piece).
    fn is_empty(&self) -> bool {
        self.start == self.end && self.text.is_empty()
    }
}

/// What happens to the characters of an attribute value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum ValueMode {
    /// Not in a value, or no limit to apply: characters go to `Data` as usual.
    #[default]
    Plain,
    /// Counted against `Limits::max_value_len`.
    Counted,
    /// Past `Limits::max_value_len`: the characters extend the value's span only.
    Cut,
    /// The attribute is past `Limits::max_attributes`: its value is dropped input.
    Dropped,
}

/// The attribute value being read, for the value limits.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Value {
    pub(super) mode: ValueMode,
    /// Where its first character came from, once it has one (absolute).
    start: Option<usize>,
    end: usize,
    /// Text already handed out as tokens (with `reference_tokens`).
    emitted: usize,
}

impl<'a> Lexer<'a> {
    /// The next abstract token, or `None` when more input is needed (or at the end).
    pub(crate) fn next_token(&mut self) -> Option<Token<'_>> {
        let raw = self.next_raw()?;
        Some(self.materialize(raw))
    }

    /// The next abstract token with the input's lifetime: its strings borrowed from a whole
    /// input ([`Lexer::whole`]) where unchanged (copied from a fed buffer).
    pub(crate) fn next_token_input(&mut self) -> Option<Token<'a>> {
        let raw = self.next_raw()?;
        let span = raw.span;
        let text = match (raw.kind, raw.text.range()) {
            (Kind::Open | Kind::Attr | Kind::End, Some((a, b))) => {
                self.input.slice_cow(a, self.name_end(a, b))
            }
            _ => raw.text.into_cow_input(&self.input),
        };
        Some(Self::token(raw.kind, text, span))
    }

    /// The next queued token, the diagnostics before it released.
    #[inline(always)]
    fn next_raw(&mut self) -> Option<Raw> {
        let raw = loop {
            match self.queue.pop_front() {
                Some(Raw {
                    kind: Kind::EmptyValue,
                    ..
                }) => {}
                Some(raw) => break raw,
                // Waiting may have handed out a piece of data.
                None if self.advance() || !self.queue.is_empty() => {}
                None => {
                    self.release();
                    return None;
                }
            }
        };
        self.release();
        Some(raw)
    }

    /// Releases the diagnostics that nothing still to come can precede: those before the first
    /// token not yet handed out.
    pub(crate) fn release(&mut self) {
        if self.done && self.queue.is_empty() {
            self.diags.release_all();
            return;
        }
        let mut t = self.at();
        for raw in &self.queue {
            t = t.min(raw.span.start);
        }
        if let Some(p) = &self.pending {
            t = t.min(p.start);
        }
        if let Some((a, _)) = self.dropped {
            t = t.min(a);
        }
        if let Some(s) = self.value.start {
            t = t.min(s);
        }
        self.diags.release(t);
    }

    /// The end of a name token's text `a..b` (absolute) under `Limits::max_name_len`: cut at a
    /// character boundary.
    #[inline]
    fn name_end(&self, a: usize, b: usize) -> usize {
        if b - a <= self.max_name {
            return b;
        }
        let text = self.input.slice(a, b);
        let mut e = self.max_name;
        while !text.is_char_boundary(e) {
            e -= 1;
        }
        a + e
    }

    pub(super) fn materialize(&self, raw: Raw) -> Token<'_> {
        let span = raw.span;
        let text = match (raw.kind, raw.text.range()) {
            (Kind::Open | Kind::Attr | Kind::End, Some((a, b))) => {
                std::borrow::Cow::Borrowed(self.input.slice(a, self.name_end(a, b)))
            }
            _ => raw.text.into_cow(&self.input),
        };
        Self::token(raw.kind, text, span)
    }

    /// The token of `kind` with its text.
    #[inline(always)]
    fn token(kind: Kind, text: std::borrow::Cow<'_, str>, span: thicket_input::Span) -> Token<'_> {
        match kind {
            Kind::Open => Token::StartTagOpen { name: text, span },
            Kind::Attr => Token::AttributeName { name: text, span },
            Kind::Close => Token::StartTagClose { span },
            Kind::EmptyClose => Token::EmptyElementTagClose { span },
            Kind::End => Token::EndTag { name: text, span },
            Kind::Data => Token::Data { text, span },
            Kind::CharRef => Token::CharRef { text, span },
            Kind::Comment => Token::Comment { data: text, span },
            Kind::Pi => Token::ProcessingInstruction { text, span },
            Kind::Doctype => Token::Doctype { name: text, span },
            Kind::Discarded | Kind::EmptyValue => Token::Discarded { span },
        }
    }

    /// Hands every queued token to `builder`, with its text a range of the input where it is
    /// one (the whole input, fed in one piece, so that offsets are indices into it).
    #[inline]
    pub(crate) fn drain_into(&mut self, builder: &mut TreeBuilder<'_>) {
        while let Some(raw) = self.queue.pop_front() {
            let chars = match raw.text.range() {
                Some((a, b)) => Chars::Source(a, b),
                None => Chars::Copy(raw.text.as_str(&self.input)),
            };
            self.hand(builder, &raw, chars);
        }
    }

    /// Hands every queued token to `builder`, which copies their text (the input is gone once
    /// consumed).
    pub(crate) fn drain_copy(&mut self, builder: &mut TreeBuilder<'_>) {
        while let Some(raw) = self.queue.pop_front() {
            let chars = Chars::Copy(raw.text.as_str(&self.input));
            self.hand(builder, &raw, chars);
        }
    }

    #[inline]
    fn hand(&self, builder: &mut TreeBuilder<'_>, raw: &Raw, chars: Chars<'_>) {
        let span = raw.span;
        match raw.kind {
            Kind::Open | Kind::Attr | Kind::End => {
                let Some((a, b)) = raw.text.range() else {
                    return;
                };
                let e = self.name_end(a, b);
                let name = chars.prefix(e - a);
                match raw.kind {
                    Kind::Open => builder.start_tag_open(name, span),
                    Kind::Attr => builder.attribute_name(name, Span::new(a, b), span),
                    _ => builder.end_tag_chars(name, span),
                }
            }
            Kind::Close => builder.start_tag_close(span),
            Kind::EmptyClose => builder.empty_element_tag_close(span),
            Kind::Data => builder.text(chars, span, false),
            Kind::CharRef => builder.text(chars, span, true),
            Kind::EmptyValue => builder.empty_value(span.start),
            Kind::Discarded | Kind::Comment | Kind::Pi | Kind::Doctype => {}
        }
    }

    // ----- emitting -----

    /// Hands out the pending data, then the pending dropped input.
    pub(super) fn flush(&mut self) {
        if let Some(p) = self.pending.take()
            && !p.is_empty()
        {
            if self.value.mode == ValueMode::Counted {
                self.value.emitted += p.text_len();
            }
            self.queue.push_back(Raw {
                kind: Kind::Data,
                text: p.text,
                span: Span::new(p.start, p.end),
            });
        }
        if let Some((a, b)) = self.dropped.take() {
            self.queue.push_back(Raw {
                kind: Kind::Discarded,
                text: TextAcc::new(),
                span: Span::new(a, b),
            });
        }
    }

    /// The machine waits for more input: the pending data read so far is certain, and goes
    /// out as a piece of its `Data` token. The data goes on from where the piece ended, so the
    /// next piece's span covers what comes between (a comment, a PI).
    pub(super) fn flush_piece(&mut self) {
        let Some(p) = &mut self.pending else {
            return;
        };
        if p.is_empty() {
            return;
        }
        let text = p.text.take();
        let span = Span::new(p.start, p.end);
        p.start = p.end;
        if self.value.mode == ValueMode::Counted {
            self.value.emitted += text.len();
        }
        self.queue.push_back(Raw {
            kind: Kind::Data,
            text,
            span,
        });
    }

    pub(super) fn emit(&mut self, kind: Kind, text: TextAcc, span: Span) {
        if self.value.mode != ValueMode::Plain && kind != Kind::CharRef {
            self.end_value();
        }
        self.flush();
        self.queue.push_back(Raw { kind, text, span });
    }

    /// Input `a..b` (absolute) consumed without a token.
    #[inline]
    pub(super) fn dropped(&mut self, a: usize, b: usize) {
        if !self.lossless || a == b {
            return;
        }
        match &mut self.dropped {
            Some((_, e)) if *e == a => *e = b,
            Some(_) => {
                // Not adjacent (cannot happen: everything between is a token or data).
                self.flush();
                self.dropped = Some((a, b));
            }
            None => self.dropped = Some((a, b)),
        }
    }

    /// Before characters join the pending data: input dropped since the pending data began is
    /// covered by its span; dropped input before any pending data is handed out first.
    #[inline]
    fn before_data(&mut self) {
        if self.dropped.is_some() && self.pending.is_none() {
            let (a, b) = self.dropped.take().unwrap_or_default();
            self.queue.push_back(Raw {
                kind: Kind::Discarded,
                text: TextAcc::new(),
                span: Span::new(a, b),
            });
        }
        self.dropped = None;
    }

    /// Appends the input `a..b` (absolute; no CR in it) as DataChar tokens.
    #[inline]
    pub(super) fn data(&mut self, a: usize, b: usize) {
        if a == b {
            return;
        }
        if self.value.mode != ValueMode::Plain {
            return self.value_data(a, b, None);
        }
        self.append_data(a, b);
    }

    /// A DataChar `c` that is not the input `a..b` (a folded line break).
    pub(super) fn data_char(&mut self, c: char, a: usize, b: usize) {
        if self.value.mode != ValueMode::Plain {
            return self.value_data(a, b, Some(c));
        }
        self.pending_push(a, b, c.encode_utf8(&mut [0; 4]));
    }

    #[inline]
    fn append_data(&mut self, a: usize, b: usize) {
        if self.dropped.is_some() {
            self.before_data();
        }
        let input = &self.input;
        match &mut self.pending {
            None => {
                let mut text = TextAcc::new();
                text.push_range(a, b, input);
                self.pending = Some(Pending {
                    text,
                    start: a,
                    end: b,
                });
            }
            Some(p) => {
                p.text.push_range(a, b, input);
                p.end = b;
            }
        }
    }

    /// Appends `s`, which stands for the input `a..b` (absolute), to the pending data (starting
    /// it at `a` if there is none).
    fn pending_push(&mut self, a: usize, b: usize, s: &str) {
        if self.dropped.is_some() {
            self.before_data();
        }
        let p = self.pending.get_or_insert(Pending {
            text: TextAcc::new(),
            start: a,
            end: a,
        });
        p.text.push_str(s, &self.input);
        p.end = b;
    }

    /// A character reference that stands for `value`, covering `a..b` (absolute).
    pub(super) fn reference_value(&mut self, value: RefValue, a: usize, b: usize) {
        let text = match value {
            RefValue::Literal(code) => {
                self.diag(code, a, b);
                return self.data(a, b);
            }
            RefValue::Char(c) => {
                let mut tmp = [0u8; 4];
                let s: &str = c.encode_utf8(&mut tmp);
                if self.value.mode != ValueMode::Plain {
                    return self.value_reference(s, a, b);
                }
                if self.opts.reference_tokens {
                    let mut text = TextAcc::new();
                    text.push_str(s, &self.input);
                    self.emit(Kind::CharRef, text, Span::new(a, b));
                    return;
                }
                return self.pending_push(a, b, s);
            }
            RefValue::Str(s) => s,
        };
        if self.value.mode != ValueMode::Plain {
            return self.value_reference(text, a, b);
        }
        if self.opts.reference_tokens {
            let mut t = TextAcc::new();
            t.push_static(text, &self.input);
            self.emit(Kind::CharRef, t, Span::new(a, b));
        } else {
            self.pending_push(a, b, text);
        }
    }

    // ----- attribute values under the limits -----

    /// An attribute value begins (its `AttributeName` was emitted, or dropped by the attribute
    /// limit).
    pub(super) fn begin_value(&mut self, dropped: bool) {
        self.value = Value {
            mode: if dropped {
                ValueMode::Dropped
            } else if self.max_value != usize::MAX {
                ValueMode::Counted
            } else {
                ValueMode::Plain
            },
            ..Value::default()
        };
    }

    /// The value ends (the next token is emitted, or the input ended): a value cut short is
    /// reported with the span of all its characters.
    pub(super) fn end_value(&mut self) {
        if self.value.mode == ValueMode::Cut
            && let Some(start) = self.value.start
        {
            let end = self.value.end;
            self.diags.lexer(Diagnostic::new(
                ErrorCode::ValueLengthLimit,
                Span::new(start, end),
            ));
        }
        self.value = Value::default();
    }

    /// Characters of a value under a limit: the input `a..b`, or `c` standing for it.
    #[cold]
    fn value_data(&mut self, a: usize, b: usize, c: Option<char>) {
        match self.value.mode {
            ValueMode::Dropped => return self.dropped(a, b),
            ValueMode::Cut => return self.absorb(a, b),
            ValueMode::Plain | ValueMode::Counted => {}
        }
        self.value.start.get_or_insert(a);
        self.value.end = b;
        match c {
            None => self.append_data(a, b),
            Some(c) => self.pending_push(a, b, c.encode_utf8(&mut [0; 4])),
        }
        self.check_value();
    }

    #[cold]
    fn value_reference(&mut self, text: &str, a: usize, b: usize) {
        match self.value.mode {
            ValueMode::Dropped => return self.dropped(a, b),
            ValueMode::Cut => return self.absorb(a, b),
            ValueMode::Plain | ValueMode::Counted => {}
        }
        self.value.start.get_or_insert(a);
        self.value.end = b;
        let held = self.value.emitted + self.pending.as_ref().map_or(0, Pending::text_len);
        if self.opts.reference_tokens && held + text.len() <= self.max_value {
            self.value.emitted += text.len();
            // Not `emit`: the value goes on.
            self.flush();
            let mut t = TextAcc::new();
            t.push_str(text, &self.input);
            self.queue.push_back(Raw {
                kind: Kind::CharRef,
                text: t,
                span: Span::new(a, b),
            });
            return;
        }
        self.pending_push(a, b, text);
        self.check_value();
    }

    /// Cuts the value once its text is longer than the limit: the pending data keeps the first
    /// bytes (at a character boundary) and only its span grows from here on.
    fn check_value(&mut self) {
        let input = &self.input;
        let Some(p) = &mut self.pending else {
            return;
        };
        if self.value.emitted + p.text_len() <= self.max_value {
            return;
        }
        let keep = self.max_value.saturating_sub(self.value.emitted);
        let text = p.text.as_str(input);
        let mut k = keep.min(text.len());
        while !text.is_char_boundary(k) {
            k -= 1;
        }
        let mut cut = TextAcc::new();
        cut.push_str(&text[..k], input);
        p.text = cut;
        self.value.mode = ValueMode::Cut;
    }

    /// Input `a..b` (absolute) of a value past its limit: covered by the pending data's span.
    fn absorb(&mut self, a: usize, b: usize) {
        self.value.end = b;
        match &mut self.pending {
            Some(p) => p.end = b,
            None => {
                self.pending = Some(Pending {
                    text: TextAcc::new(),
                    start: a,
                    end: b,
                });
            }
        }
    }
}
