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

use memchr::memchr;
use thicket_input::Span;

use super::{Kind, Lexer, Raw, RefValue, Text};
use crate::error::{Diagnostic, ErrorCode};
use crate::token::Token;
use crate::tree::{Chars, TreeBuilder};

/// The characters of a `Data` token being gathered.
#[derive(Debug)]
pub(super) struct Pending {
    /// The text once it differs from the input (a reference, a newline, a gap); `None` while it
    /// is exactly the input `start..end`.
    pub(super) owned: Option<String>,
    pub(super) start: usize,
    pub(super) end: usize,
}

impl Pending {
    fn text_len(&self) -> usize {
        self.owned
            .as_ref()
            .map_or(self.end - self.start, String::len)
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
        let raw = loop {
            match self.queue.pop_front() {
                Some(Raw {
                    kind: Kind::EmptyValue,
                    ..
                }) => {}
                Some(raw) => break raw,
                None if self.advance() => {}
                None => {
                    self.release();
                    return None;
                }
            }
        };
        self.release();
        Some(self.materialize(raw))
    }

    /// Releases the diagnostics that nothing still to come can precede: those before the first
    /// token not yet handed out.
    pub(crate) fn release(&mut self) {
        if self.done && self.queue.is_empty() {
            self.diags.release_all();
            return;
        }
        let mut t = self.abs(self.pos);
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
        let mut e = a + self.max_name;
        while !self.buf.is_char_boundary(e - self.base) {
            e -= 1;
        }
        e
    }

    pub(super) fn materialize(&self, raw: Raw) -> Token<'_> {
        let span = raw.span;
        let text = match raw.text {
            Text::None => std::borrow::Cow::Borrowed(""),
            Text::Src(a, b) => {
                let b = if matches!(raw.kind, Kind::Open | Kind::Attr | Kind::End) {
                    self.name_end(a, b)
                } else {
                    b
                };
                std::borrow::Cow::Borrowed(&self.buf[a - self.base..b - self.base])
            }
            Text::Owned(s) => std::borrow::Cow::Owned(s),
            Text::Static(s) => std::borrow::Cow::Borrowed(s),
        };
        match raw.kind {
            Kind::Open => Token::StartTagOpen { name: text, span },
            Kind::Attr => Token::AttributeName { name: text, span },
            Kind::Close => Token::StartTagClose { span },
            Kind::EmptyClose => Token::EmptyElementTagClose { span },
            Kind::End => Token::EndTag { name: text, span },
            Kind::Data => Token::Data { text, span },
            Kind::CharRef => Token::CharRef { text, span },
            Kind::Discarded | Kind::EmptyValue => Token::Discarded { span },
        }
    }

    /// Hands every queued token to `builder`, with its text a range of `input` (the whole
    /// input, fed in one piece, so that offsets are indices into it).
    #[inline]
    pub(crate) fn drain_into(&mut self, builder: &mut TreeBuilder<'_>) {
        while let Some(raw) = self.queue.pop_front() {
            let chars = match &raw.text {
                Text::None => Chars::Copy(""),
                Text::Src(a, b) => Chars::Source(*a, *b),
                Text::Owned(s) => Chars::Copy(s),
                Text::Static(s) => Chars::Copy(s),
            };
            self.hand(builder, &raw, chars);
        }
    }

    /// Hands every queued token to `builder`, which copies their text (the input is gone once
    /// consumed).
    pub(crate) fn drain_copy(&mut self, builder: &mut TreeBuilder<'_>) {
        while let Some(raw) = self.queue.pop_front() {
            let chars = match &raw.text {
                Text::None => Chars::Copy(""),
                Text::Src(a, b) => Chars::Copy(&self.buf[a - self.base..b - self.base]),
                Text::Owned(s) => Chars::Copy(s),
                Text::Static(s) => Chars::Copy(s),
            };
            self.hand(builder, &raw, chars);
        }
    }

    #[inline]
    fn hand(&self, builder: &mut TreeBuilder<'_>, raw: &Raw, chars: Chars<'_>) {
        let span = raw.span;
        match raw.kind {
            Kind::Open | Kind::Attr | Kind::End => {
                let Text::Src(a, b) = raw.text else {
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
            Kind::Discarded => {}
        }
    }

    // ----- emitting -----

    /// Hands out the pending data, then the pending dropped input.
    pub(super) fn flush(&mut self) {
        if let Some(p) = self.pending.take() {
            if self.value.mode == ValueMode::Counted {
                self.value.emitted += p.text_len();
            }
            let text = match p.owned {
                None => Text::Src(p.start, p.end),
                Some(s) => Text::Owned(s),
            };
            self.queue.push_back(Raw {
                kind: Kind::Data,
                text,
                span: Span::new(p.start, p.end),
            });
        }
        if let Some((a, b)) = self.dropped.take() {
            self.queue.push_back(Raw {
                kind: Kind::Discarded,
                text: Text::None,
                span: Span::new(a, b),
            });
        }
    }

    pub(super) fn emit(&mut self, kind: Kind, text: Text, span: Span) {
        if self.value.mode != ValueMode::Plain && kind != Kind::CharRef {
            self.end_value();
        }
        self.flush();
        self.queue.push_back(Raw { kind, text, span });
    }

    /// Input `start..end` (indices into `buf`) consumed without a token.
    #[inline]
    pub(super) fn dropped(&mut self, start: usize, end: usize) {
        if !self.lossless || start == end {
            return;
        }
        let (a, b) = (self.abs(start), self.abs(end));
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
                text: Text::None,
                span: Span::new(a, b),
            });
        }
        self.dropped = None;
    }

    /// Appends the input bytes `start..end` (indices into `buf`) as DataChar tokens.
    pub(super) fn data(&mut self, start: usize, end: usize) {
        let bytes = &self.buf.as_bytes()[start..end];
        // Short runs (most attribute values) are cheaper to look at than to set memchr up for.
        let cr = if bytes.len() < 32 {
            bytes.contains(&b'\r')
        } else {
            memchr(b'\r', bytes).is_some()
        };
        self.data_cr(start, end, cr);
    }

    /// [`Lexer::data`] when the caller knows whether `start..end` holds a CR.
    #[inline]
    pub(super) fn data_cr(&mut self, start: usize, end: usize, cr: bool) {
        if start == end {
            return;
        }
        if self.value.mode != ValueMode::Plain {
            return self.value_data(start, end, cr);
        }
        self.append_data(start, end, cr);
    }

    fn append_data(&mut self, start: usize, end: usize, cr: bool) {
        if self.dropped.is_some() {
            self.before_data();
        }
        let (a, b) = (self.abs(start), self.abs(end));
        let bytes = &self.buf.as_bytes()[start..end];
        let prev_cr = if start == 0 {
            self.cr_before_buf
        } else {
            self.buf.as_bytes()[start - 1] == b'\r'
        };
        let plain = !(cr || prev_cr && bytes[0] == b'\n');
        match &mut self.pending {
            None if plain => {
                self.pending = Some(Pending {
                    owned: None,
                    start: a,
                    end: b,
                });
            }
            Some(Pending {
                owned: None, end, ..
            }) if plain && *end == a => {
                *end = b;
            }
            _ => {
                let mut tmp = String::with_capacity(end - start);
                let mut prev = prev_cr;
                for c in self.buf[start..end].chars() {
                    match c {
                        '\r' => tmp.push('\n'),
                        '\n' if prev => {}
                        c => tmp.push(c),
                    }
                    prev = c == '\r';
                }
                self.pending_string(a).push_str(&tmp);
                self.set_pending_end(b);
            }
        }
    }

    /// Turns the pending data into an owned string (starting it at `start` if there is none) and
    /// returns it for appending.
    fn pending_string(&mut self, start: usize) -> &mut String {
        if self.dropped.is_some() {
            self.before_data();
        }
        let base = self.base;
        let buf = &self.buf;
        let p = self.pending.get_or_insert(Pending {
            owned: Some(String::new()),
            start,
            end: start,
        });
        let (s, e) = (p.start, p.end);
        p.owned
            .get_or_insert_with(|| buf[s - base..e - base].to_owned())
    }

    /// A character reference that stands for `value`, covering `start..end` (indices into buf).
    pub(super) fn reference_value(&mut self, value: RefValue, start: usize, end: usize) {
        let (a, b) = (self.abs(start), self.abs(end));
        let text = match value {
            RefValue::Literal(code) => {
                self.diag(code, a, b);
                return self.data(start, end);
            }
            RefValue::Char(c) => {
                let mut tmp = [0u8; 4];
                let s: &str = c.encode_utf8(&mut tmp);
                if self.value.mode != ValueMode::Plain {
                    return self.value_reference(s, a, b);
                }
                if self.opts.reference_tokens {
                    self.emit(Kind::CharRef, Text::Owned(s.to_owned()), Span::new(a, b));
                    return;
                }
                let p = self.pending_string(a);
                p.push(c);
                return self.set_pending_end(b);
            }
            RefValue::Str(s) => s,
        };
        if self.value.mode != ValueMode::Plain {
            return self.value_reference(text, a, b);
        }
        if self.opts.reference_tokens {
            self.emit(Kind::CharRef, Text::Static(text), Span::new(a, b));
        } else {
            self.pending_string(a).push_str(text);
            self.set_pending_end(b);
        }
    }

    fn set_pending_end(&mut self, end: usize) {
        if let Some(p) = &mut self.pending {
            p.end = end;
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

    #[cold]
    fn value_data(&mut self, start: usize, end: usize, cr: bool) {
        let (a, b) = (self.abs(start), self.abs(end));
        match self.value.mode {
            ValueMode::Dropped => return self.dropped(start, end),
            ValueMode::Cut => return self.absorb(a, b),
            ValueMode::Plain | ValueMode::Counted => {}
        }
        self.value.start.get_or_insert(a);
        self.value.end = b;
        self.append_data(start, end, cr);
        self.check_value();
    }

    #[cold]
    fn value_reference(&mut self, text: &str, a: usize, b: usize) {
        match self.value.mode {
            ValueMode::Dropped => return self.dropped(a - self.base, b - self.base),
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
            let text = Text::Owned(text.to_owned());
            self.queue.push_back(Raw {
                kind: Kind::CharRef,
                text,
                span: Span::new(a, b),
            });
            return;
        }
        self.pending_string(a).push_str(text);
        self.set_pending_end(b);
        self.check_value();
    }

    /// Cuts the value once its text is longer than the limit: the pending data keeps the first
    /// bytes (at a character boundary) and only its span grows from here on.
    fn check_value(&mut self) {
        let Some(p) = &mut self.pending else {
            return;
        };
        if self.value.emitted + p.text_len() <= self.max_value {
            return;
        }
        let keep = self.max_value.saturating_sub(self.value.emitted);
        let mut text = match p.owned.take() {
            Some(s) => s,
            None => {
                let (s, e) = (p.start - self.base, p.end - self.base);
                let mut k = (s + keep).min(e);
                while !self.buf.is_char_boundary(k) {
                    k -= 1;
                }
                self.buf[s..k].to_owned()
            }
        };
        let mut k = keep.min(text.len());
        while !text.is_char_boundary(k) {
            k -= 1;
        }
        text.truncate(k);
        p.owned = Some(text);
        self.value.mode = ValueMode::Cut;
    }

    /// Input `a..b` (absolute) of a value past its limit: covered by the pending data's span.
    fn absorb(&mut self, a: usize, b: usize) {
        self.value.end = b;
        match &mut self.pending {
            Some(p) => p.end = b,
            None => {
                self.pending = Some(Pending {
                    owned: Some(String::new()),
                    start: a,
                    end: b,
                });
            }
        }
    }
}
