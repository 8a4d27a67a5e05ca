//! "Tokenizing": the six token types, found without consuming them.

use std::io::Read;

use super::Reader;
use crate::error::{Error, ErrorCode};

/// One token, by its length in bytes from the cursor.
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

impl<R: Read> Reader<R> {
    /// The token at the cursor (not consumed).
    pub(super) fn next_token(&mut self) -> Result<Token, Error> {
        if let Some(t) = self.peeked.take() {
            return Ok(t);
        }
        loop {
            let rest = self.input.rest_bytes();
            if rest.is_empty() {
                if self.more()? {
                    continue;
                }
                return Ok(Token::Eof);
            }
            if rest[0] != b'<' {
                if self.fast
                    && let Some(t) = super::fast::text(self.input.rest_bytes())
                {
                    self.check_len(t.len)?;
                    self.fast_text = Some(t);
                    return Ok(Token::Text(t.len));
                }
                return self.text_token();
            }
            if rest.len() < 2 {
                if self.more()? {
                    continue;
                }
                return Err(self.error_at(0, ErrorCode::InvalidToken, None));
            }
            return match rest[1] {
                b'!' => {
                    const COMMENT: &[u8] = b"<!--";
                    const CDATA: &[u8] = b"<![CDATA[";
                    const DOCTYPE: &[u8] = b"<!DOCTYPE";
                    if rest.starts_with(COMMENT) {
                        self.delimited(4, b"-->", ErrorCode::UnterminatedComment)
                            .map(Token::Comment)
                    } else if rest.starts_with(CDATA) {
                        self.delimited(9, b"]]>", ErrorCode::UnterminatedCdata)
                            .map(Token::CData)
                    } else if rest.starts_with(DOCTYPE) {
                        self.doctype_token()
                    } else if [COMMENT, CDATA, DOCTYPE]
                        .iter()
                        .any(|o| o.starts_with(rest))
                    {
                        if self.more()? {
                            continue;
                        }
                        Err(self.error_at(0, ErrorCode::InvalidToken, None))
                    } else {
                        Err(self.error_at(0, ErrorCode::InvalidToken, None))
                    }
                }
                // "The opening and closing sequences of instruction tokens may not share the `?`".
                b'?' => self
                    .delimited(2, b"?>", ErrorCode::UnterminatedInstruction)
                    .map(Token::Instruction),
                b'>' => Err(self.error_at(0, ErrorCode::InvalidToken, None)),
                _ => {
                    if self.fast
                        && let Some((n, lines)) = super::fast::tag(
                            self.input.rest_bytes(),
                            self.limits.max_attributes,
                            self.fast_tag_max,
                            &mut self.tag,
                        )
                    {
                        let n = n as usize;
                        self.check_len(n)?;
                        self.fast_tag = Some(lines);
                        return Ok(Token::Tag(n));
                    }
                    self.tag_token()
                }
            };
        }
    }

    /// An unterminated token: over the token, from its start to the end of the text.
    #[cold]
    fn unterminated(&self, code: ErrorCode) -> Error {
        self.error_span(0, self.input.rest().len(), code, None)
    }

    /// Text token: up to the next `<` or the end of the file.
    fn text_token(&mut self) -> Result<Token, Error> {
        let mut from = 0;
        loop {
            let rest = self.input.rest_bytes();
            if let Some(i) = memchr::memchr(b'<', &rest[from..]) {
                self.check_len(from + i)?;
                return Ok(Token::Text(from + i));
            }
            from = rest.len();
            self.check_len(from)?;
            if !self.more()? {
                return Ok(Token::Text(self.input.rest().len()));
            }
        }
    }

    /// A token that runs up to and including the first `close` at or after `open_len`.
    fn delimited(
        &mut self,
        open_len: usize,
        close: &[u8],
        unterminated: ErrorCode,
    ) -> Result<usize, Error> {
        let mut from = open_len;
        loop {
            let rest = self.input.rest_bytes();
            if from <= rest.len() {
                if let Some(i) = memchr::memmem::find(&rest[from..], close) {
                    let len = from + i + close.len();
                    self.check_len(len)?;
                    return Ok(len);
                }
                from = rest.len().saturating_sub(close.len() - 1).max(open_len);
            }
            self.check_len(rest.len())?;
            if !self.more()? {
                return Err(self.unterminated(unterminated));
            }
        }
    }

    /// Tag token: up to the first `>` outside single-quote and double-quote spans.
    fn tag_token(&mut self) -> Result<Token, Error> {
        let mut i = 1;
        let mut quote: Option<u8> = None;
        loop {
            let rest = self.input.rest_bytes();
            while i < rest.len() {
                match quote {
                    None => match memchr::memchr3(b'>', b'"', b'\'', &rest[i..]) {
                        Some(k) => {
                            i += k;
                            if rest[i] == b'>' {
                                self.check_tag_len(i + 1)?;
                                return Ok(Token::Tag(i + 1));
                            }
                            quote = Some(rest[i]);
                            i += 1;
                        }
                        None => i = rest.len(),
                    },
                    Some(q) => match memchr::memchr(q, &rest[i..]) {
                        Some(k) => {
                            i += k + 1;
                            quote = None;
                        }
                        None => i = rest.len(),
                    },
                }
            }
            self.check_tag_len(rest.len())?;
            if !self.more()? {
                return Err(self.unterminated(ErrorCode::UnterminatedTag));
            }
        }
    }

    /// DOCTYPE token: type spans (no `[` or `]`) and quoted spans, up to the first unquoted `>`.
    fn doctype_token(&mut self) -> Result<Token, Error> {
        let mut i = 9;
        let mut quote: Option<u8> = None;
        loop {
            let rest = self.input.rest_bytes();
            while i < rest.len() {
                let b = rest[i];
                match quote {
                    None => match b {
                        b'>' => {
                            self.check_len(i + 1)?;
                            return Ok(Token::Doctype(i + 1));
                        }
                        b'"' | b'\'' => quote = Some(b),
                        b'[' | b']' => {
                            return Err(self.error_at(
                                i,
                                ErrorCode::DoctypeBracket,
                                Some(b as u32),
                            ));
                        }
                        _ => {}
                    },
                    Some(q) if b == q => quote = None,
                    Some(_) => {}
                }
                i += 1;
            }
            self.check_len(rest.len())?;
            if !self.more()? {
                return Err(self.unterminated(ErrorCode::UnterminatedDoctype));
            }
        }
    }
}
