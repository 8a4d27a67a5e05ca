//! The modes after `<![CDATA[` and `<!DOCTYPE`: CData, Doctype and Subset.

use thicket_input::NeedMore;
use thicket_input::scan::StopSet;
use thicket_names::microxml as names;

use super::{Found, Lexer, Mode, undecided};

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
                self.skip(end - i);
            }
        }
        Ok(())
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
