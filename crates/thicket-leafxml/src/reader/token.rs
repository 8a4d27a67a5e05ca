//! "Tokenizing": the six token types, found without consuming them.
//!
//! Each scan looks for its token's end in the buffered text from the token's start. When the
//! buffer ends first and more input may come, the scan records where it stopped (and inside
//! which quotes) in the reader's `Scan` and answers `Halt::Wait`; called again at the same
//! token, it goes on from there, so a long token fed in small chunks is scanned once.
//!
//! With `max_token_len`, a scan looks at no more than the bytes that can end a token within the
//! limit: a token that passes it is `token-length-limit` there, whatever comes after (a DOCTYPE's
//! bracket, the end of the input), so the error does not depend on how the input was split.

use thicket_input::StopSet;
use thicket_input::cursor::NeedMore;

use super::tag::MAX_TAG;
use super::{Halt, Reader, fast};
use crate::error::ErrorCode;
use crate::input::Source;

/// One token, by its length in bytes from the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Token {
    Text(usize),
    Tag(usize),
    CData(usize),
    Instruction(usize),
    Doctype(usize),
    Comment(usize),
    Eof,
}

/// Where the scan of the token at absolute `start` stopped for more input: the next byte to
/// look at (from the token's start), and the quote it is inside (0 for none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Scan {
    start: usize,
    from: usize,
    quote: u8,
}

impl Scan {
    /// No scan stopped.
    pub(super) const NONE: Scan = Scan {
        start: usize::MAX,
        from: 0,
        quote: 0,
    };
}

/// The end of a text token.
static TEXT_END: StopSet = StopSet::new(b"<");

/// Inside a tag, outside quotes: its end and the quotes.
static TAG: StopSet = StopSet::new(b">\"'");

/// Inside a DOCTYPE, outside quotes: its end, the quotes and the brackets it may not hold.
static DOCTYPE: StopSet = StopSet::new(b">\"'[]");

const COMMENT_OPEN: &[u8] = b"<!--";
const CDATA_OPEN: &[u8] = b"<![CDATA[";
const DOCTYPE_OPEN: &[u8] = b"<!DOCTYPE";

impl<'a, S: Source> Reader<'a, S> {
    /// The token at the position (not consumed).
    pub(super) fn next_token(&mut self) -> Result<Token, Halt> {
        if let Some(t) = self.peeked.take() {
            return Ok(t);
        }
        // Whether a scan of this token stopped for more input: it goes on, and the fast paths
        // (which would look at the whole token again) are not tried.
        let resumed = self.scan.start == self.text.cursor.offset();
        let rest = self.text.cursor.rest_bytes();
        let Some(&first) = rest.first() else {
            self.end_of_buffer(0, 0)?;
            return Ok(Token::Eof);
        };
        if first != b'<' {
            if self.fast
                && !resumed
                && let Some(t) = fast::text(rest)
            {
                self.check_len(t.len)?;
                self.fast_text = Some(t);
                return Ok(Token::Text(t.len));
            }
            return self.text_token(resumed);
        }
        let Some(&second) = rest.get(1) else {
            self.end_of_buffer(0, 0)?;
            return Err(self.error_at(0, ErrorCode::InvalidToken, None).into());
        };
        match second {
            b'!' => {
                if rest.starts_with(COMMENT_OPEN) {
                    self.delimited(resumed, 4, b"-->", ErrorCode::UnterminatedComment)
                        .map(Token::Comment)
                } else if rest.starts_with(CDATA_OPEN) {
                    self.delimited(resumed, 9, b"]]>", ErrorCode::UnterminatedCdata)
                        .map(Token::CData)
                } else if rest.starts_with(DOCTYPE_OPEN) {
                    self.doctype_token(resumed)
                } else {
                    if [COMMENT_OPEN, CDATA_OPEN, DOCTYPE_OPEN]
                        .iter()
                        .any(|o| o.starts_with(rest))
                    {
                        // More input may complete an opening sequence.
                        self.end_of_buffer(0, 0)?;
                    }
                    Err(self.error_at(0, ErrorCode::InvalidToken, None).into())
                }
            }
            // "The opening and closing sequences of instruction tokens may not share the `?`".
            b'?' => self
                .delimited(resumed, 2, b"?>", ErrorCode::UnterminatedInstruction)
                .map(Token::Instruction),
            b'>' => Err(self.error_at(0, ErrorCode::InvalidToken, None).into()),
            _ => {
                if self.fast
                    && !resumed
                    && let Some(n) = fast::tag(
                        rest,
                        self.limits.max_attributes,
                        self.fast_tag_max,
                        &mut self.tag,
                    )
                {
                    let n = n as usize;
                    self.check_len(n)?;
                    self.fast_tag = true;
                    return Ok(Token::Tag(n));
                }
                self.tag_token(resumed)
            }
        }
    }

    /// Where a scan of the token at the position starts: where it stopped for more input, or
    /// at `from` outside quotes.
    #[inline]
    fn resume(&self, resumed: bool, from: usize) -> (usize, u8) {
        if resumed {
            (self.scan.from.max(from), self.scan.quote)
        } else {
            (from, 0)
        }
    }

    /// At the end of the buffered text: waits (the scan goes on at `from`, inside `quote`) when
    /// more input may come, gives the error the text ended early for, or `Ok` at the real end.
    fn end_of_buffer(&mut self, from: usize, quote: u8) -> Result<(), Halt> {
        if !self.text.cursor.is_finished() {
            self.scan = Scan {
                start: self.text.cursor.offset(),
                from,
                quote,
            };
            return Err(NeedMore.into());
        }
        match self.text.stop {
            Some(stop) => Err(self.stop_error(stop).into()),
            None => Ok(()),
        }
    }

    /// The bytes a scan may look at: all that is buffered, or with `max_token_len` (or the
    /// longest tag, `cap`) no more than the first `limit + extra` bytes, where `extra` is 1 for
    /// a token that ends before the byte its scan stops at (a text token ends before `<`).
    /// The second value is the limit when the buffer holds more than that.
    #[inline]
    fn scan_window(&self, cap: usize, extra: usize) -> (usize, Option<usize>) {
        let max = self.limits.max_token_len.map_or(cap, |m| m.min(cap));
        let len = self.text.cursor.available();
        let window = max.saturating_add(extra);
        if len > window {
            (window, Some(max))
        } else {
            (len, None)
        }
    }

    /// An unterminated token: over the token, from its start to the end of the text.
    #[cold]
    fn unterminated(&self, code: ErrorCode) -> Halt {
        self.error_span(0, self.text.cursor.available(), code, None)
            .into()
    }

    /// Text token: up to the next `<` or the end of the file.
    fn text_token(&mut self, resumed: bool) -> Result<Token, Halt> {
        let (from, _) = self.resume(resumed, 0);
        let (window, over) = self.scan_window(usize::MAX, 1);
        let rest = &self.text.cursor.rest_bytes()[..window];
        let i = TEXT_END.find(rest, from);
        if i < window {
            return Ok(Token::Text(i));
        }
        if let Some(max) = over {
            return Err(self.token_too_long(max).into());
        }
        self.end_of_buffer(window, 0)?;
        self.check_len(window)?;
        Ok(Token::Text(window))
    }

    /// A token that runs up to and including the first `close` at or after `open_len`.
    fn delimited(
        &mut self,
        resumed: bool,
        open_len: usize,
        close: &[u8],
        unterminated: ErrorCode,
    ) -> Result<usize, Halt> {
        let (from, _) = self.resume(resumed, open_len);
        let (window, over) = self.scan_window(usize::MAX, 0);
        let rest = &self.text.cursor.rest_bytes()[..window];
        if let Some(i) = rest
            .get(from..)
            .and_then(|r| memchr::memmem::find(r, close))
        {
            return Ok(from + i + close.len());
        }
        if let Some(max) = over {
            return Err(self.token_too_long(max).into());
        }
        // The closing sequence may straddle the end of the buffer.
        let from = window.saturating_sub(close.len() - 1).max(open_len);
        self.end_of_buffer(from, 0)?;
        Err(self.unterminated(unterminated))
    }

    /// Tag token: up to the first `>` outside single-quote and double-quote spans.
    fn tag_token(&mut self, resumed: bool) -> Result<Token, Halt> {
        let (mut i, mut quote) = self.resume(resumed, 1);
        let (window, over) = self.scan_window(MAX_TAG, 0);
        let rest = &self.text.cursor.rest_bytes()[..window];
        while i < window {
            if quote == 0 {
                i = TAG.find(rest, i);
                match rest.get(i) {
                    Some(b'>') => return Ok(Token::Tag(i + 1)),
                    Some(&q) => {
                        quote = q;
                        i += 1;
                    }
                    None => {}
                }
            } else {
                match memchr::memchr(quote, &rest[i..]) {
                    Some(k) => {
                        i += k + 1;
                        quote = 0;
                    }
                    None => i = window,
                }
            }
        }
        if let Some(max) = over {
            return Err(self.token_too_long(max).into());
        }
        self.end_of_buffer(window, quote)?;
        Err(self.unterminated(ErrorCode::UnterminatedTag))
    }

    /// DOCTYPE token: type spans (no `[` or `]`) and quoted spans, up to the first unquoted `>`.
    fn doctype_token(&mut self, resumed: bool) -> Result<Token, Halt> {
        let (mut i, mut quote) = self.resume(resumed, 9);
        let (window, over) = self.scan_window(usize::MAX, 0);
        let rest = &self.text.cursor.rest_bytes()[..window];
        while i < window {
            if quote == 0 {
                i = DOCTYPE.find(rest, i);
                match rest.get(i) {
                    Some(b'>') => return Ok(Token::Doctype(i + 1)),
                    Some(&b @ (b'[' | b']')) => {
                        return Err(self
                            .error_at(i, ErrorCode::DoctypeBracket, Some(u32::from(b)))
                            .into());
                    }
                    Some(&q) => {
                        quote = q;
                        i += 1;
                    }
                    None => {}
                }
            } else {
                match memchr::memchr(quote, &rest[i..]) {
                    Some(k) => {
                        i += k + 1;
                        quote = 0;
                    }
                    None => i = window,
                }
            }
        }
        if let Some(max) = over {
            return Err(self.token_too_long(max).into());
        }
        self.end_of_buffer(window, quote)?;
        Err(self.unterminated(ErrorCode::UnterminatedDoctype))
    }
}
