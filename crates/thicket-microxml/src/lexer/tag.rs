//! Tag mode and the attribute value modes: StartAttributeValue, UnquoteAttributeValue,
//! SingleQuoteAttributeValue and DoubleQuoteAttributeValue.

use thicket_input::scan::StopSet;
use thicket_input::{NeedMore, Span, TextAcc};
use thicket_names::microxml::{self as names, NAME_START, S};

use super::content::tag_context;
use super::emit::ValueMode;
use super::{Kind, Lexer, Mode, undecided};
use crate::error::ErrorCode;

/// Where a run of characters stops in a value in `"`: the quote, a reference, `<` and `>`
/// (which the angle rule decides about), CR (folded by the cursor).
static DOUBLE_QUOTED: StopSet = StopSet::new(b"\"&<>\r");
/// The same in a value in `'`.
static SINGLE_QUOTED: StopSet = StopSet::new(b"'&<>\r");
/// Where an unquoted value stops: `S` (CR included), `>`, `/`, `&`, `<`.
static UNQUOTED: StopSet = StopSet::new(b"\t\n\x0C \r>/&<");

#[inline]
fn quoted_set(quote: u8) -> &'static StopSet {
    if quote == b'"' {
        &DOUBLE_QUOTED
    } else {
        &SINGLE_QUOTED
    }
}

impl Lexer<'_> {
    /// Tag mode: ATTRIBUTE_NAME_EQUALS, BOOLEAN_ATTRIBUTE, START_TAG_CLOSE,
    /// EMPTY_ELEMENT_TAG_CLOSE, S, EMPTY.
    pub(super) fn tag(&mut self) -> Result<(), NeedMore> {
        // S: do nothing. Skipping the whole run first is equivalent: ATTRIBUTE_NAME_EQUALS and
        // BOOLEAN_ATTRIBUTE start with S*, so they match after the run iff they match before it.
        let s = names::s_len(self.rest());
        if s > 0 {
            self.skip(s);
            self.after_quote = false;
            return Ok(());
        }
        let finished = self.finished();
        let b = self.rest();
        match b[0] {
            b'>' => {
                self.start_tag_close(1);
                return Ok(());
            }
            b'/' => match b.get(1) {
                None if !finished => return Err(NeedMore),
                Some(b'>') => {
                    self.start_tag_close(2);
                    return Ok(());
                }
                _ => {}
            },
            c if names::byte_is(c, NAME_START) => {
                let n = names::name_len(b);
                if n == b.len() && !finished {
                    return Err(NeedMore);
                }
                let t = names::s_len(&b[n..]);
                match b.get(n + t) {
                    None if !finished => return Err(NeedMore),
                    Some(b'=') => {
                        self.attribute_name(n, n + t + 1);
                        self.mode = Mode::StartAttributeValue;
                        self.quoted_value_fast_path();
                        return Ok(());
                    }
                    _ if self.opts.boolean_attributes => {
                        let ctx = if self.at() < self.ctx_until {
                            Some(0)
                        } else {
                            tag_context(&b[n..], finished, true)?
                        };
                        if let Some(m) = ctx {
                            let a = self.at();
                            self.ctx_until = self.ctx_until.max(a + n + m);
                            self.diag(ErrorCode::MissingAttributeValue, a, a + n);
                            self.attribute_name(n, n);
                            return Ok(());
                        }
                    }
                    _ => {}
                }
            }
            _ => {}
        }
        // EMPTY: emit a StartTagClose and change to Main mode.
        let a = self.at();
        self.diag(ErrorCode::UnclosedStartTag, a, a);
        self.emit(Kind::Close, TextAcc::new(), Span::empty(a));
        self.mode = Mode::Main;
        Ok(())
    }

    /// Fast path beside StartAttributeValue and the quoted-value modes for the common
    /// `="value"`: when a quote follows `=` directly and the value holds no `&`, `<`, `>` or
    /// CR before its closing quote, does what those modes would do (SINGLE_QUOTE /
    /// DOUBLE_QUOTE, the DATA_CHARs, the closing quote) in one go. Otherwise leaves the mode
    /// methods to it.
    fn quoted_value_fast_path(&mut self) {
        let b = self.input.bytes();
        let i = self.input.index();
        let Some(&quote @ (b'"' | b'\'')) = b.get(i) else {
            return;
        };
        let end = quoted_set(quote).find(b, i + 1);
        if b.get(end) != Some(&quote) {
            return;
        }
        self.skip(1);
        let start = self.at();
        self.quote_at = start;
        let base = self.input.base();
        self.data(start, base + end);
        self.input.set_index(end);
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
    pub(super) fn empty_value(&mut self) {
        if self.at() == self.quote_at && self.value.mode != ValueMode::Dropped {
            self.queue.push_back(super::Raw {
                kind: Kind::EmptyValue,
                text: TextAcc::new(),
                span: Span::empty(self.quote_at),
            });
        }
    }

    /// Emits an AttributeName for the name of length `n` and consumes `len` bytes. Past the
    /// attribute limit the attribute is dropped input instead (reported at the first one).
    fn attribute_name(&mut self, n: usize, len: usize) {
        let a = self.at();
        if self.value.mode != ValueMode::Plain {
            self.end_value();
        }
        if self.after_quote {
            self.diag(ErrorCode::MissingWhitespaceBeforeAttribute, a, a + n);
        }
        self.check_name(a, a + n);
        if self.input.slice(a, a + n) == "xmlns" {
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
                self.range(a, a + n),
                Span::new(a, a + len.max(n)),
            );
            self.input.advance(len);
        }
        if over || self.max_value != usize::MAX {
            self.begin_value(over);
        }
        self.after_quote = false;
    }

    /// START_TAG_CLOSE (`len` 1) or EMPTY_ELEMENT_TAG_CLOSE (`len` 2): default handling.
    fn start_tag_close(&mut self, len: usize) {
        let a = self.at();
        let kind = if len == 1 {
            Kind::Close
        } else {
            Kind::EmptyClose
        };
        self.emit(kind, TextAcc::new(), Span::new(a, a + len));
        self.input.advance(len);
        self.mode = Mode::Main;
    }

    /// StartAttributeValue mode: S, SINGLE_QUOTE, DOUBLE_QUOTE, START_TAG_CLOSE,
    /// EMPTY_ELEMENT_TAG_CLOSE, EMPTY.
    pub(super) fn start_attribute_value(&mut self) -> Result<(), NeedMore> {
        let s = names::s_len(self.rest());
        if s > 0 {
            self.skip(s);
            return Ok(());
        }
        let finished = self.finished();
        let b = self.rest();
        let a = self.at();
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
            b'/' if b.len() == 1 && !finished => return Err(NeedMore),
            b'/' if b.get(1) == Some(&b'>') => {
                self.diag(ErrorCode::MissingAttributeValue, a, a);
                self.start_tag_close(2);
            }
            _ => {
                // The span is the value's first character (whole: it may be `é`).
                let len = self.input.rest().chars().next().map_or(1, char::len_utf8);
                self.diag(ErrorCode::UnquotedAttributeValue, a, a + len);
                self.mode = Mode::UnquoteAttributeValue;
            }
        }
        Ok(())
    }

    /// UnquoteAttributeValue mode: DATA_CHAR, NAMED_CHAR_REF, NUMERIC_CHAR_REF, START_TAG_CLOSE,
    /// EMPTY_ELEMENT_TAG_CLOSE, S.
    pub(super) fn unquote_attribute_value(&mut self) -> Result<(), NeedMore> {
        let finished = self.finished();
        let b = self.rest();
        match b[0] {
            c if names::byte_is(c, S) => {
                self.skip(1);
                self.after_quote = false;
                self.mode = Mode::Tag;
            }
            b'>' => self.start_tag_close(1),
            b'/' if b.len() == 1 && !finished => return Err(NeedMore),
            b'/' if b.get(1) == Some(&b'>') => self.start_tag_close(2),
            b'&' => return self.char_ref(),
            b'<' => self.unescaped(ErrorCode::UnescapedLessThan),
            _ => {
                let i = self.input.index();
                let end = UNQUOTED.find(self.input.bytes(), i + 1);
                let base = self.input.base();
                self.data(base + i, base + end);
                self.input.set_index(end);
            }
        }
        Ok(())
    }

    /// SingleQuote- and DoubleQuoteAttributeValue modes: DATA_CHAR (ATTRIBUTE_VALUE_CHAR and
    /// ANGLE_SINGLE / ANGLE_DOUBLE with the upstream angle rule), NAMED_CHAR_REF,
    /// NUMERIC_CHAR_REF, the quote, and EMPTY with the upstream rule.
    pub(super) fn quoted_attribute_value(&mut self, quote: u8) -> Result<(), NeedMore> {
        match self.rest()[0] {
            c if c == quote => self.close_quote(),
            b'&' => return self.char_ref(),
            b'\r' => return self.newline(),
            c @ (b'<' | b'>') => {
                let code = if c == b'<' {
                    ErrorCode::UnescapedLessThan
                } else {
                    ErrorCode::UnescapedGreaterThan
                };
                if !self.opts.angle_brackets_end_quoted_values || self.angle(quote)? {
                    self.unescaped(code);
                } else {
                    // EMPTY: change to Tag mode.
                    let a = self.at();
                    self.diag(ErrorCode::UnclosedAttributeValue, a, a);
                    self.empty_value();
                    self.after_quote = false;
                    self.mode = Mode::Tag;
                }
            }
            _ => {
                let i = self.input.index();
                let end = quoted_set(quote).find(self.input.bytes(), i + 1);
                let base = self.input.base();
                self.data(base + i, base + end);
                self.input.set_index(end);
            }
        }
        Ok(())
    }

    /// `ANGLE_SINGLE ::= ([<>]) / (CHAR - "'")* "'" (S | ">" | "/>")` and `ANGLE_DOUBLE`, the
    /// same with `"` (the upstream text has `"'"` there too, a copy-paste slip): whether the
    /// angle bracket here is a character of the value.
    fn angle(&mut self, quote: u8) -> Result<bool, NeedMore> {
        let finished = self.finished();
        let from = self.at() + 1;
        let finder = if quote == b'\'' {
            &mut self.single
        } else {
            &mut self.double
        };
        let Some(q) = finder.find(&self.input, from)? else {
            return Ok(false);
        };
        let after = &self.input.bytes()[q + 1 - self.input.base()..];
        let found = match after.first() {
            None => undecided(finished)?,
            Some(&c) if names::byte_is(c, S) || c == b'>' => Some(1),
            Some(b'/') => match after.get(1) {
                None => undecided(finished)?,
                Some(b'>') => Some(1),
                Some(_) => None,
            },
            Some(_) => None,
        };
        Ok(found.is_some())
    }
}
