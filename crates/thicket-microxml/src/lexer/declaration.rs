//! The modes after `<![CDATA[` and `<!DOCTYPE`: CData, Doctype and Subset.

use thicket_input::scan::StopSet;
use thicket_input::{NeedMore, Span, TextAcc};
use thicket_names::microxml as names;

use super::{Found, Kind, Lexer, Mode, Raw, undecided};

/// A DOCTYPE declaration being read, with `Options::markup_tokens`: it becomes one
/// `Token::Doctype` when the Doctype and Subset modes give way to Main mode.
#[derive(Debug)]
pub(super) struct DoctypeToken {
    /// Where `<!DOCTYPE` starts (absolute).
    start: usize,
    /// The name so far (cut at `Limits::max_name_len`).
    name: String,
    /// The name has ended (whitespace or a delimiter after it).
    name_done: bool,
    /// The name reached the limit: the rest of it is not kept.
    cut: bool,
}

/// Where a run of CDATA characters stops: `]` (which may start `]]>`) and CR (folded by the
/// cursor).
static CDATA: StopSet = StopSet::new(b"]\r");
/// Where a run of `DECL_CHAR` stops.
static DECL_CHARS: StopSet = StopSet::new(b"[]<>\"'");

impl Lexer<'_> {
    /// CData mode: DATA_CHAR, CDATA_CLOSE.
    pub(super) fn cdata(&mut self) -> Result<(), NeedMore> {
        if self.input.starts_with(b"]]>", false)? {
            self.skip(3);
            self.mode = Mode::Main;
            return Ok(());
        }
        if self.rest()[0] == b'\r' {
            return self.newline();
        }
        let i = self.input.index();
        let end = CDATA.find(self.input.bytes(), i + 1);
        let base = self.input.base();
        self.data(base + i, base + end);
        self.input.set_index(end);
        Ok(())
    }

    /// `LITERAL ::= '"' (CHAR - '"')* '"' | "'" (CHAR - "'")* "'"`.
    fn literal_len(&mut self) -> Found {
        let a = self.at();
        let finder = if self.rest()[0] == b'\'' {
            &mut self.single
        } else {
            &mut self.double
        };
        Ok(finder.find(&self.input, a + 1)?.map(|q| q + 1 - a))
    }

    /// Doctype mode: DECL_CHAR, LITERAL, START_TAG_CLOSE, SUBSET_OPEN, EMPTY.
    pub(super) fn doctype(&mut self) -> Result<(), NeedMore> {
        match self.rest()[0] {
            b'>' => {
                self.skip(1);
                self.mode = Mode::Main;
            }
            b'[' => {
                self.skip(1);
                self.mode = Mode::Subset;
            }
            b'"' | b'\'' => match self.literal_len()? {
                Some(n) => self.skip(n),
                None => self.mode = Mode::Main,
            },
            b'<' | b']' => self.mode = Mode::Main,
            _ => {
                let i = self.input.index();
                let end = DECL_CHARS.find(self.input.bytes(), i);
                if self.doctype.is_some() {
                    self.doctype_name(i, end);
                }
                self.skip(end - i);
                return Ok(());
            }
        }
        // Anything but `DECL_CHAR`s ends the name.
        if let Some(d) = &mut self.doctype {
            d.name_done = true;
        }
        Ok(())
    }

    /// `<!DOCTYPE` is here: the pending data and dropped input go out before its token.
    pub(super) fn begin_doctype_token(&mut self) {
        self.flush();
        self.doctype = Some(Box::new(DoctypeToken {
            start: self.at(),
            name: String::new(),
            name_done: false,
            cut: false,
        }));
    }

    /// The `DECL_CHAR`s at `i..end` (buffer indices): the name is the first run of them that
    /// are not whitespace. Read as they come, so a name cut across feeds is the same name.
    fn doctype_name(&mut self, i: usize, end: usize) {
        let max = self.max_name;
        let text = &self.input.text()[i..end];
        let Some(d) = self.doctype.as_deref_mut().filter(|d| !d.name_done) else {
            return;
        };
        for c in text.chars() {
            if matches!(c, '\t' | '\n' | '\u{c}' | '\r' | ' ') {
                if d.name.is_empty() {
                    continue;
                }
                d.name_done = true;
                return;
            }
            d.cut |= d.name.len() + c.len_utf8() > max;
            if !d.cut {
                d.name.push(c);
            }
        }
    }

    /// After a step in the Doctype or Subset mode (or at the end of the input): once back in
    /// Main mode, the declaration is one token over everything it consumed.
    pub(super) fn end_doctype_token(&mut self) {
        if self.mode != Mode::Main {
            return;
        }
        let Some(d) = self.doctype.take() else {
            return;
        };
        // What the modes dropped since `<!DOCTYPE` is the declaration itself.
        self.dropped = None;
        let mut text = TextAcc::new();
        text.push_str(&d.name, &self.input);
        self.queue.push_back(Raw {
            kind: Kind::Doctype,
            text,
            span: Span::new(d.start, self.at()),
        });
    }

    /// `DECL ::= "<!" (DECL_CHAR | LITERAL)* ">"`, the length, without consuming.
    fn decl_len(&mut self) -> Found {
        let finished = self.finished();
        let start = self.at();
        let mut i = 2;
        loop {
            let b = &self.input.bytes()[start - self.input.base()..];
            match b.get(i) {
                None => return undecided(finished),
                Some(b'>') => return Ok(Some(i + 1)),
                Some(&q @ (b'"' | b'\'')) => {
                    let finder = if q == b'\'' {
                        &mut self.single
                    } else {
                        &mut self.double
                    };
                    match finder.find(&self.input, start + i + 1)? {
                        Some(e) => i = e + 1 - start,
                        None => return Ok(None),
                    }
                }
                Some(b'[' | b']' | b'<') => return Ok(None),
                Some(_) => i += 1,
            }
        }
    }

    /// Subset mode: COMMENT, PI, DECL, S, SUBSET_CLOSE, EMPTY.
    pub(super) fn subset(&mut self) -> Result<(), NeedMore> {
        let finished = self.finished();
        let b = self.rest();
        let s = names::s_len(b);
        if s > 0 {
            self.skip(s);
            return Ok(());
        }
        match b[0] {
            b']' => {
                let t = names::s_len(&b[1..]);
                match b.get(1 + t) {
                    None if !finished => return Err(NeedMore),
                    Some(b'>') => {
                        self.skip(2 + t);
                        self.mode = Mode::Main;
                        return Ok(());
                    }
                    _ => {}
                }
            }
            b'<' => match b.get(1).copied() {
                None if !finished => return Err(NeedMore),
                Some(b'?') if self.pi()?.is_some() => return Ok(()),
                Some(b'!') => {
                    let comment = self.comment_len()?;
                    let decl = self.decl_len()?;
                    match (comment, decl) {
                        (Some(c), Some(d)) if c >= d => {
                            self.consume_comment(c);
                            return Ok(());
                        }
                        (Some(c), None) => {
                            self.consume_comment(c);
                            return Ok(());
                        }
                        (_, Some(d)) => {
                            self.skip(d);
                            return Ok(());
                        }
                        (None, None) => {}
                    }
                }
                _ => {}
            },
            _ => {}
        }
        // EMPTY: change to Main mode.
        self.mode = Mode::Main;
        Ok(())
    }
}
