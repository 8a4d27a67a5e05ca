//! "Content assemblies": the text and CDATA tokens between two tags, with the filtered tokens
//! among them, joined into one text (escapes decoded, line breaks normalized, NFC).
//!
//! The assembly is held in the reader (`Assembly`), so a step that waits for more input in the
//! middle of one goes on where it stopped. Its text is the shared accumulator
//! (`thicket_input::TextAcc`): a range of the input while it is one text or CDATA token as
//! written, borrowed by the `Text` event; owned once escapes or a second token change it.

use std::borrow::Cow;

use thicket_input::TextAcc;
use thicket_input::cursor::Cursor;

use super::token::Token;
use super::{Halt, Reader, Ready, StackState, fast};
use crate::error::ErrorCode;
use crate::input::Source;
use crate::text;

/// A spare string kept for the next assembly with escapes is dropped past this capacity.
const SPARE_MAX: usize = 1 << 20;

/// The content assembly being read.
#[derive(Debug, Default)]
pub(super) struct Assembly {
    /// Its text so far; after a `Text` event, that event's text until the next step.
    acc: TextAcc,
    /// Where its first text or CDATA token starts, while it is being read.
    start: Option<usize>,
    /// The line of `start`, and its column once recorded (before compaction drops the text
    /// it is counted over).
    line: u32,
    column: Option<u32>,
    /// Where its last text or CDATA token ends.
    end: usize,
    /// When the text is the first token as the fast path found it: that token's end, and
    /// `fast::TextToken::nfc_from`.
    plain: Option<(usize, u32)>,
    /// A string of an earlier assembly, kept for its capacity.
    spare: String,
}

impl Assembly {
    /// Where the assembly starts, while one is being read.
    #[inline]
    pub(super) fn start(&self) -> Option<usize> {
        self.start
    }

    /// The earliest offset the assembly needs kept in the buffer, given the position: its
    /// start while its text is a range of the input.
    #[inline]
    pub(super) fn keep(&self, offset: usize) -> usize {
        match (self.start, self.acc.range()) {
            (Some(_), Some((a, _))) => a.min(offset),
            _ => offset,
        }
    }

    /// Records the column of the assembly's start.
    pub(super) fn set_column(&mut self, column: u32) {
        self.column.get_or_insert(column);
    }

    /// The text, for compaction to detach.
    pub(super) fn acc_mut(&mut self) -> &mut TextAcc {
        &mut self.acc
    }

    /// The line and column of absolute `offset` when it is the start of the assembly and they
    /// were recorded.
    pub(super) fn position_of(&self, offset: usize) -> Option<(u32, u32)> {
        match (self.start, self.column) {
            (Some(start), Some(column)) if start == offset => Some((self.line, column)),
            _ => None,
        }
    }

    /// The text of the last `Text` event.
    #[inline]
    pub(super) fn text<'s>(&'s self, input: &'s Cursor<'_>) -> &'s str {
        self.acc.as_str(input)
    }

    /// Empties the assembly for the next one, keeping an owned string's capacity.
    #[inline]
    fn reset(&mut self, input: &Cursor<'_>) {
        self.plain = None;
        self.column = None;
        if self.acc.is_owned() {
            if let Cow::Owned(mut s) = self.acc.take().into_cow(input)
                && s.capacity() <= SPARE_MAX
            {
                s.clear();
                self.spare = s;
            }
        } else {
            self.acc.clear();
        }
    }

    /// The text so far as an owned string to append to (the spare one when it is empty).
    fn owned(&mut self, input: &Cursor<'_>) -> String {
        match self.acc.take().into_cow(input) {
            Cow::Owned(s) => s,
            Cow::Borrowed(b) => {
                let mut s = std::mem::take(&mut self.spare);
                s.push_str(b);
                s
            }
        }
    }
}

impl<'a, S: Source> Reader<'a, S> {
    /// Reads one content assembly (maybe empty) and the tag or end of file after it; a step
    /// that waits for more input goes on from where it stopped when called again.
    pub(super) fn step(&mut self) -> Result<Option<Ready>, Halt> {
        if self.asm.start.is_none() {
            self.asm.reset(&self.text.cursor);
            self.text.forget_lines(self.text.cursor.offset());
        }
        let tok = loop {
            let tok = self.next_token()?;
            match tok {
                Token::Text(n) => self.content_text(n)?,
                Token::CData(n) => {
                    let at = self.begin();
                    self.asm
                        .acc
                        .push_range(at + 9, at + n - 3, &self.text.cursor);
                    self.text.cursor.advance(n);
                    self.asm.end = at + n;
                }
                Token::Comment(n) | Token::Instruction(n) => {
                    if self.markup
                        && let Some(ready) = self.markup_token(tok, n)
                    {
                        return Ok(Some(ready));
                    }
                    self.filtered();
                    self.text.cursor.advance(n);
                }
                Token::Doctype(n) => {
                    if self.seen_tag {
                        return Err(self
                            .error_span(0, n, ErrorCode::DoctypeAfterTag, None)
                            .into());
                    }
                    if self.doctype_seen {
                        return Err(self
                            .error_span(0, n, ErrorCode::MultipleDoctypes, None)
                            .into());
                    }
                    self.doctype_seen = true;
                    if self.markup
                        && let Some(ready) = self.markup_token(tok, n)
                    {
                        return Ok(Some(ready));
                    }
                    self.filtered();
                    self.text.cursor.advance(n);
                }
                Token::Tag(_) | Token::Eof => break tok,
            }
            if let (Some(max), Some(start)) = (self.limits.max_token_len, self.asm.start)
                && self.asm.acc.len() > max
            {
                let end = self.text.cursor.offset();
                return Err(self
                    .error_over(start, end, ErrorCode::TokenLengthLimit, None)
                    .into());
            }
        };
        if let Some(start) = self.asm.start {
            if self.finish_content() {
                if self.state == StackState::Active {
                    self.peeked = Some(tok);
                    self.line = self.asm.line;
                    self.span = thicket_input::Span::new(start, self.asm.end);
                    self.asm.start = None;
                    return Ok(Some(Ready::Text));
                }
                // "Padding content assemblies that appear before the first tag assembly or after
                // the last tag assembly are discarded by decoders."
                if !self
                    .asm
                    .text(&self.text.cursor)
                    .bytes()
                    .all(thicket_names::leafxml::is_whitespace_byte)
                {
                    let end = self.asm.end;
                    return Err(self
                        .error_over(start, end, ErrorCode::StrayContent, None)
                        .into());
                }
            }
            self.asm.start = None;
        }
        match tok {
            Token::Tag(n) => Ok(Some(self.tag(n)?)),
            _ => {
                self.end_of_file()?;
                Ok(None)
            }
        }
    }

    /// A text or CDATA token at the position joins the assembly; returns where it starts.
    #[inline]
    fn begin(&mut self) -> usize {
        let at = self.text.cursor.offset();
        if self.asm.start.is_none() {
            self.asm.start = Some(at);
            self.asm.line = self.text.line(at);
        } else {
            self.asm.plain = None;
        }
        at
    }

    /// A text token of `n` bytes at the position: "entity escaping".
    fn content_text(&mut self, n: usize) -> Result<(), Halt> {
        // Known by the fast path: no escapes, no line break other than LF.
        let fast = self.fast_text.take();
        let first = self.asm.start.is_none();
        let at = self.begin();
        let raw = &self.text.cursor.rest()[..n];
        if fast.is_some() || memchr::memchr(b'&', raw.as_bytes()).is_none() {
            self.asm.acc.push_range(at, at + n, &self.text.cursor);
            if first && let Some(t) = fast {
                self.asm.plain = Some((at + n, t.nfc_from));
            }
        } else {
            let mut out = self.asm.owned(&self.text.cursor);
            let raw = &self.text.cursor.rest()[..n];
            let unescaped = text::unescape_into(raw, &mut out);
            self.asm.acc = TextAcc::from(out);
            if let Err(e) = unescaped {
                return Err(self.error_span(e.offset, e.end, e.code, e.value).into());
            }
        }
        self.text.cursor.advance(n);
        self.asm.end = at + n;
        Ok(())
    }

    /// With `with_markup_events`, a comment, instruction or DOCTYPE token `tok` of `n` bytes at
    /// the position: the event to hand out now, or `None` to filter it as the spec does.
    /// Inside the root element, the text and CDATA tokens of the assembly before it go out
    /// first as a `Text` event of their own (decoded as an assembly), and the token waits for
    /// the next step. Outside it, the assembly stays open (one assembly for the padding and
    /// stray-content rules): the token is an event while the assembly so far can be padding,
    /// and is filtered once it cannot (the stray-content error follows at its end).
    #[cold]
    fn markup_token(&mut self, tok: Token, n: usize) -> Option<Ready> {
        if let Some(start) = self.asm.start {
            if self.state == StackState::Active {
                self.asm.start = None;
                if self.finish_content() {
                    self.peeked = Some(tok);
                    self.line = self.asm.line;
                    self.span = thicket_input::Span::new(start, self.asm.end);
                    return Some(Ready::Text);
                }
                // Empty (`<![CDATA[]]>`): no event; a new assembly starts after the token.
                self.asm.reset(&self.text.cursor);
            } else if !self
                .asm
                .text(&self.text.cursor)
                .chars()
                .all(|c| matches!(c, ' ' | '\t' | '\n' | '\r' | '\u{85}' | '\u{2028}'))
            {
                return None;
            } else {
                self.filtered();
            }
        }
        let at = self.text.cursor.offset();
        self.line = self.text.line(at);
        self.span = thicket_input::Span::new(at, at + n);
        let token = &self.text.cursor.rest()[..n];
        let (ready, text) = match tok {
            Token::Comment(_) => (Ready::Comment, (at + 4, at + n - 3)),
            Token::Instruction(_) => (Ready::Instruction, (at + 2, at + n - 2)),
            _ => {
                // The name: the first word after `<!DOCTYPE` and whitespace.
                let ws = |c: char| matches!(c, ' ' | '\t' | '\n' | '\r');
                let after = &token["<!DOCTYPE".len()..];
                let rest = after.trim_start_matches(ws);
                let from = at + "<!DOCTYPE".len() + (after.len() - rest.len());
                let len = rest
                    .find(|c: char| ws(c) || matches!(c, '>' | '\'' | '"'))
                    .unwrap_or(rest.len());
                (Ready::Doctype, (from, from + len))
            }
        };
        self.markup_text = text;
        self.text.cursor.advance(n);
        Some(ready)
    }

    /// A comment, instruction or DOCTYPE inside the assembly: while the text is a range of an
    /// input still being read, it is copied out, so that the buffer does not keep the filtered
    /// tokens after it.
    fn filtered(&mut self) {
        if self.asm.start.is_some()
            && self.asm.acc.range().is_some()
            && !self.text.cursor.is_finished()
        {
            let out = self.asm.owned(&self.text.cursor);
            self.asm.acc = TextAcc::from(out);
        }
    }

    /// Line break normalization, then NFC, of the assembly's text (a range of the input stays
    /// borrowed when both leave it unchanged); false when the assembly is empty.
    #[inline(always)]
    fn finish_content(&mut self) -> bool {
        let input = &self.text.cursor;
        if let Some((a, b)) = self.asm.acc.range() {
            let raw = input.slice(a, b);
            let normalized = match self.asm.plain {
                // The first token as the fast path found it: no line break but LF.
                Some((end, fast::KNOWN_NFC)) if end == b => Cow::Borrowed(raw),
                Some((end, from)) if end == b => text::nfc_from(raw, from as usize),
                _ => text::chain(text::normalize_line_breaks(raw), text::nfc),
            };
            if let Cow::Owned(o) = normalized {
                self.asm.acc = TextAcc::from(o);
            }
            return a < b;
        }
        if self.asm.acc.is_empty() {
            return false;
        }
        let current = self.asm.acc.as_str(input);
        let normalized = text::chain(text::normalize_line_breaks(current), text::nfc);
        if let Cow::Owned(o) = normalized {
            self.asm.acc = TextAcc::from(o);
        }
        true
    }
}
