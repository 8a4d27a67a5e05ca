//! Main mode: `DATA_CHAR` runs, and at `<` the markup recognizers (`START_TAG_OPEN` with its
//! tag context, `END_TAG`, `COMMENT`, `PI`, `CDATA_OPEN`, `DOCTYPE_OPEN`); at `&` the
//! references (`NAMED_CHAR_REF`, `NUMERIC_CHAR_REF`), which the attribute value modes share.

use memchr::memmem;
use thicket_input::scan::StopSet;
use thicket_input::{NeedMore, Span, TextAcc};
use thicket_names::microxml::{self as names, NAME_START};
use thicket_names::microxml2012;

use super::{Found, Kind, Lexer, Mode, RefValue, undecided};
use crate::error::ErrorCode;
use crate::options::NamedReferences;

/// Where a run of text stops in Main mode: `<`, `&`, and CR (folded by the cursor); `>` is a
/// `DATA_CHAR` MicroXML wants escaped, reported and passed.
pub(super) static TEXT: StopSet = StopSet::new(b"<&\r").check(b">");

/// `TAG_CONTEXT ::= (S+ NAME)* S* (START_TAG_CLOSE | EMPTY_ELEMENT_TAG_CLOSE | S NAME S* "=")`,
/// as trailing context. Without boolean attributes the `(S+ NAME)*` part is absent, which makes
/// `START_TAG_OPEN / TAG_CONTEXT` exactly the start of the spec's `SIMPLE_START_TAG`,
/// `SIMPLE_EMPTY_ELEMENT_TAG` and `START_TAG_ATTRIBUTE`. The match length is where the context
/// ends (after `>`, `/>` or `=`).
pub(super) fn tag_context(b: &[u8], finished: bool, booleans: bool) -> Found {
    let mut i = 0;
    loop {
        let s = names::s_len(&b[i..]);
        let j = i + s;
        let Some(&c) = b.get(j) else {
            return undecided(finished);
        };
        if c == b'>' {
            return Ok(Some(j + 1));
        }
        if c == b'/' {
            return match b.get(j + 1) {
                None => undecided(finished),
                Some(b'>') => Ok(Some(j + 2)),
                Some(_) => Ok(None),
            };
        }
        if s == 0 || !names::byte_is(c, NAME_START) {
            return Ok(None);
        }
        let k = j + names::name_len(&b[j..]);
        if k == b.len() {
            return undecided(finished);
        }
        let t = names::s_len(&b[k..]);
        match b.get(k + t) {
            None => return undecided(finished),
            Some(b'=') => return Ok(Some(k + t + 1)),
            Some(_) if booleans => i = k,
            Some(_) => return Ok(None),
        }
    }
}

/// `END_TAG ::= "</" (NAME) S* ">"` at the start of `b`: the length, and the name's length.
fn end_tag_len(b: &[u8], finished: bool) -> (Found, usize) {
    let n = names::name_len(&b[2..]);
    if n == 0 {
        let found = if b.len() == 2 {
            undecided(finished)
        } else {
            Ok(None)
        };
        return (found, 0);
    }
    let k = 2 + n;
    let t = names::s_len(&b[k..]);
    match b.get(k + t) {
        None => (undecided(finished), n),
        Some(b'>') => (Ok(Some(k + t + 1)), n),
        Some(_) => (Ok(None), n),
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

impl Lexer<'_> {
    /// Main mode.
    pub(super) fn main(&mut self) -> Result<(), NeedMore> {
        match self.rest()[0] {
            b'<' => self.markup(),
            b'&' => self.char_ref(),
            b'\r' => self.newline(),
            _ => {
                // DATA_CHAR: every character other than `<` and `&` is one on its own.
                let start = self.input.index();
                let mut gt = false;
                let end = TEXT.run(self.input.bytes(), start, |i| {
                    gt = true;
                    Some(i + 1)
                });
                let base = self.input.base();
                if gt {
                    self.report_greater_than(base + start, base + end);
                }
                self.data(base + start, base + end);
                self.input.set_index(end);
                Ok(())
            }
        }
    }

    /// A `>` diagnostic for every `>` in the text `start..end` (absolute).
    #[cold]
    fn report_greater_than(&mut self, start: usize, end: usize) {
        let hits: Vec<usize> = memchr::memchr_iter(b'>', self.input.slice(start, end).as_bytes())
            .map(|i| start + i)
            .collect();
        for i in hits {
            self.diag(ErrorCode::UnescapedGreaterThan, i, i + 1);
        }
    }

    /// Main mode at `<`: START_TAG_OPEN (SIMPLE_START_TAG, SIMPLE_EMPTY_ELEMENT_TAG,
    /// START_TAG_ATTRIBUTE), END_TAG, COMMENT, PI, CDATA_OPEN, DOCTYPE_OPEN, or DATA_CHAR.
    fn markup(&mut self) -> Result<(), NeedMore> {
        let Some(&second) = self.rest().get(1) else {
            if !self.finished() {
                return Err(NeedMore);
            }
            self.unescaped(ErrorCode::UnescapedLessThan);
            return Ok(());
        };
        let found = match second {
            b'/' => self.end_tag()?,
            b'!' => self.bang()?,
            b'?' => self.pi()?,
            c if names::byte_is(c, NAME_START) => self.start_tag_open()?,
            _ => None,
        };
        if found.is_none() {
            self.unescaped(ErrorCode::UnescapedLessThan);
        }
        Ok(())
    }

    /// `START_TAG_OPEN ::= "<" (NAME)` with its tag context.
    fn start_tag_open(&mut self) -> Found {
        let b = self.rest();
        let n = names::name_len(&b[1..]);
        let found = tag_context(&b[1 + n..], self.finished(), self.opts.boolean_attributes)?;
        if let Some(m) = found {
            let a = self.at();
            let name_end = a + 1 + n;
            self.check_name(a + 1, name_end);
            self.emit(
                Kind::Open,
                self.range(a + 1, name_end),
                thicket_input::Span::new(a, name_end),
            );
            self.tag_attributes = 0;
            self.ctx_until = name_end + m;
            self.input.advance(1 + n);
            self.after_quote = false;
            self.mode = Mode::Tag;
        }
        Ok(found)
    }

    /// `END_TAG ::= "</" (NAME) S* ">"`.
    fn end_tag(&mut self) -> Found {
        let (found, n) = end_tag_len(self.rest(), self.finished());
        if let Some(len) = found? {
            let a = self.at();
            self.check_name(a + 2, a + 2 + n);
            self.emit(
                Kind::End,
                self.range(a + 2, a + 2 + n),
                thicket_input::Span::new(a, a + len),
            );
            self.input.advance(len);
        }
        found
    }

    /// `<!`: COMMENT, CDATA_OPEN or DOCTYPE_OPEN.
    fn bang(&mut self) -> Found {
        if let Some(n) = self.comment()? {
            return Ok(Some(n));
        }
        let a = self.at();
        if self.input.starts_with(b"<![CDATA[", false)? {
            let n = "<![CDATA[".len();
            self.diag(ErrorCode::CdataSection, a, a + n);
            self.skip(n);
            self.mode = Mode::CData;
            return Ok(Some(n));
        }
        if self.input.starts_with(b"<!DOCTYPE", true)? {
            let n = "<!DOCTYPE".len();
            self.diag(ErrorCode::Doctype, a, a + n);
            if self.markup_tokens() {
                self.begin_doctype_token();
            }
            self.skip(n);
            self.mode = Mode::Doctype;
            return Ok(Some(n));
        }
        Ok(None)
    }

    /// The length of `COMMENT` here, without consuming it.
    pub(super) fn comment_len(&mut self) -> Found {
        if !self.input.starts_with(b"<!--", false)? {
            return Ok(None);
        }
        let a = self.at();
        Ok(self.comment.find(&self.input, a + 4)?.map(|f| f + 3 - a))
    }

    /// `COMMENT ::= "<!--" (CHAR* - (CHAR* "-->" CHAR*)) "-->"`: nothing is emitted.
    fn comment(&mut self) -> Found {
        let found = self.comment_len()?;
        if let Some(n) = found {
            self.consume_comment(n);
        }
        Ok(found)
    }

    pub(super) fn consume_comment(&mut self, n: usize) {
        let content = &self.rest()[4..n - 3];
        let a = self.at();
        if memmem::find(content, b"--").is_some() || content.last() == Some(&b'-') {
            self.diag(ErrorCode::DoubleHyphenInComment, a, a + n);
        }
        if self.mode == Mode::Main && self.markup_tokens() {
            let text = self.markup_text(a + 4, a + n - 3);
            self.emit(Kind::Comment, text, Span::new(a, a + n));
            self.input.advance(n);
            return;
        }
        self.skip(n);
    }

    /// `PI ::= "<?" (CHAR* - (CHAR* "?>" CHAR*)) "?>"`: nothing is emitted.
    pub(super) fn pi(&mut self) -> Found {
        let a = self.at();
        let Some(f) = self.pi.find(&self.input, a + 2)? else {
            return Ok(None);
        };
        let n = f + 2 - a;
        self.diag(ErrorCode::ProcessingInstruction, a, a + n);
        if self.mode == Mode::Main && self.markup_tokens() {
            let text = self.markup_text(a + 2, a + n - 2);
            self.emit(Kind::Pi, text, Span::new(a, a + n));
            self.input.advance(n);
            return Ok(Some(n));
        }
        self.skip(n);
        Ok(Some(n))
    }

    /// `NAMED_CHAR_REF` and `NUMERIC_CHAR_REF` (with the decimal form when enabled), else
    /// `&` as DATA_CHAR.
    pub(super) fn char_ref(&mut self) -> Result<(), NeedMore> {
        let finished = self.finished();
        let b = self.rest();
        let mut decimal = false;
        let (found, value) = if b.get(1) == Some(&b'#') {
            let hex = b.get(2) == Some(&b'x');
            decimal = !hex;
            let (digits_at, radix) = if hex { (3, 16) } else { (2, 10) };
            if !hex && !self.opts.decimal_references {
                let found = if b.len() == 2 {
                    undecided(finished)?
                } else {
                    None
                };
                (found, None)
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
                    (undecided(finished)?, None)
                } else if d == 0 || b[end] != b';' {
                    (None, None)
                } else {
                    let mut code = 0u32;
                    for &c in &b[digits_at..end] {
                        let v = (c as char).to_digit(radix).unwrap_or(0);
                        code = thicket_charref::numeric::accumulate(code, radix, v);
                    }
                    (Some(end + 1), Some(numeric_value(code)))
                }
            }
        } else {
            let n = names::name_len(&b[1..]);
            if n == 0 {
                let found = if b.len() == 1 {
                    undecided(finished)?
                } else {
                    None
                };
                (found, None)
            } else if 1 + n == b.len() {
                (undecided(finished)?, None)
            } else if b[1 + n] != b';' {
                (None, None)
            } else {
                let a = self.at();
                let name = self.input.slice(a + 1, a + 1 + n);
                (Some(n + 2), Some(self.named_value(name)))
            }
        };
        match (found, value) {
            (Some(n), Some(value)) => {
                let a = self.at();
                let e = a + n;
                if decimal {
                    self.diag(ErrorCode::DecimalCharacterReference, a, e);
                }
                if let RefValue::Char(c) = value
                    && !microxml2012::is_referable(c)
                {
                    self.diag(ErrorCode::InvalidReferencedCharacter, a, e);
                }
                self.reference_value(value, a, e);
                self.input.advance(n);
            }
            _ => self.unescaped(ErrorCode::UnescapedAmpersand),
        }
        Ok(())
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
    pub(super) fn check_name(&mut self, start: usize, end: usize) {
        if !microxml2012::is_name(self.input.slice(start, end)) {
            self.diag(ErrorCode::InvalidName, start, end);
        }
        if end - start > self.max_name {
            self.diag(ErrorCode::NameLengthLimit, start, end);
        }
    }

    /// The input `start..end` (absolute) as a token's text.
    #[inline]
    /// The text of a comment or PI, `start..end` (absolute): the input, line breaks
    /// normalized (the spec's preprocessing: CR LF and CR are LF).
    #[cold]
    fn markup_text(&self, start: usize, end: usize) -> TextAcc {
        let raw = self.input.slice(start, end);
        if !raw.contains('\r') {
            return self.range(start, end);
        }
        let mut t = TextAcc::new();
        t.push_str(&raw.replace("\r\n", "\n").replace('\r', "\n"), &self.input);
        t
    }

    pub(super) fn range(&self, start: usize, end: usize) -> TextAcc {
        let mut t = TextAcc::new();
        t.push_range(start, end, &self.input);
        t
    }
}
