//! Comments: the bogus comment state, the markup declaration open state (which also opens
//! DOCTYPEs and CDATA sections) and the comment states (12.2.5.41-52).

use thicket_input::Span;
use thicket_input::scan::StopSet;

use super::{Pending, Step, TEXT_PROBE, Tokenizer, stops};
use crate::error::ErrorCode;
use crate::state::State;

/// Bogus comments (and bogus DOCTYPEs) run to the next `>`.
pub(super) static BOGUS: StopSet = stops(b">");
/// The comment state's runs end at `<` and `-`.
pub(super) static COMMENT: StopSet = stops(b"<-").probe(TEXT_PROBE);

impl<'a> Tokenizer<'a> {
    /// 12.2.5.41 Bogus comment state.
    pub(super) fn bogus_comment_state(&mut self) -> Step {
        let end = self.scan(&BOGUS);
        if end > self.pos() {
            self.comment_append_raw(self.pos(), end);
            self.input.set_offset(end);
        }
        match self.cur()? {
            Some('>') => {
                self.consume();
                self.state = State::Data;
                self.emit_comment();
            }
            None => {
                self.emit_comment();
                return self.emit_eof();
            }
            Some('\0') => {
                self.error(ErrorCode::UnexpectedNullCharacter);
                self.comment_append_str("\u{FFFD}", self.pos(), self.pos() + self.cw);
                self.consume();
            }
            Some(_) => self.comment_push_current(),
        }
        Ok(())
    }

    /// 12.2.5.42 Markup declaration open state.
    pub(super) fn markup_declaration_open_state(&mut self) -> Step {
        let dashes = self.input.starts_with(b"--", false);
        let doctype = self.input.starts_with(b"DOCTYPE", true);
        let cdata = self.input.starts_with(b"[CDATA[", false);
        if dashes == Ok(true) {
            self.input.advance(2);
            self.start_comment();
            self.state = State::CommentStart;
        } else if doctype == Ok(true) {
            self.input.advance(7);
            self.limit.new_token();
            self.state = State::Doctype;
        } else if cdata == Ok(true) {
            let at = self.pos();
            if self.options.cdata_allowed {
                self.input.advance(7);
                self.text_join(self.token_start);
                self.text_extend(self.token_start, self.pos());
                self.state = State::CdataSection;
            } else {
                // html5lib-tests put the error at the last `[` of `[CDATA[`.
                self.error_at(ErrorCode::CdataInHtmlContent, Span::new(at + 6, at + 7));
                self.start_comment();
                self.comment_append_raw(at, at + 7);
                self.input.advance(7);
                self.state = State::BogusComment;
            }
        } else {
            // Each literal either failed or needs more input: wait if any may still match.
            dashes?;
            doctype?;
            cdata?;
            // Read the character for the error's position (and its input-stream errors).
            self.cur()?;
            self.error(ErrorCode::IncorrectlyOpenedComment);
            self.start_comment();
            self.state = State::BogusComment;
        }
        Ok(())
    }

    /// 12.2.5.43 Comment start state.
    pub(super) fn comment_start_state(&mut self) -> Step {
        match self.cur()? {
            Some('-') => {
                self.consume();
                self.state = State::CommentStartDash;
            }
            Some('>') => {
                self.error(ErrorCode::AbruptClosingOfEmptyComment);
                self.consume();
                self.state = State::Data;
                self.emit_comment();
            }
            Some(_) | None => self.state = State::Comment,
        }
        Ok(())
    }

    /// 12.2.5.44 Comment start dash state.
    pub(super) fn comment_start_dash_state(&mut self) -> Step {
        match self.cur()? {
            Some('-') => {
                self.consume();
                self.state = State::CommentEnd;
            }
            Some('>') => {
                self.error(ErrorCode::AbruptClosingOfEmptyComment);
                self.consume();
                self.state = State::Data;
                self.emit_comment();
            }
            None => return self.eof_in_comment(),
            Some(_) => {
                self.comment_push_before(1);
                self.state = State::Comment;
            }
        }
        Ok(())
    }

    /// 12.2.5.45 Comment state.
    pub(super) fn comment_state(&mut self) -> Step {
        let end = self.scan(&COMMENT);
        if end > self.pos() {
            self.comment_append_raw(self.pos(), end);
            self.input.set_offset(end);
        }
        match self.cur()? {
            Some('<') => {
                self.comment_push_current();
                self.state = State::CommentLessThanSign;
            }
            Some('-') => {
                self.consume();
                self.state = State::CommentEndDash;
            }
            Some('\0') => {
                self.error(ErrorCode::UnexpectedNullCharacter);
                self.comment_append_str("\u{FFFD}", self.pos(), self.pos() + self.cw);
                self.consume();
            }
            None => return self.eof_in_comment(),
            Some(_) => self.comment_push_current(),
        }
        Ok(())
    }

    /// 12.2.5.46 Comment less-than sign state.
    pub(super) fn comment_less_than_sign_state(&mut self) -> Step {
        match self.cur()? {
            Some('!') => {
                self.comment_push_current();
                self.state = State::CommentLessThanSignBang;
            }
            Some('<') => self.comment_push_current(),
            Some(_) | None => self.state = State::Comment,
        }
        Ok(())
    }

    /// 12.2.5.47 Comment less-than sign bang state.
    pub(super) fn comment_less_than_sign_bang_state(&mut self) -> Step {
        match self.cur()? {
            Some('-') => {
                self.consume();
                self.state = State::CommentLessThanSignBangDash;
            }
            Some(_) | None => self.state = State::Comment,
        }
        Ok(())
    }

    /// 12.2.5.48 Comment less-than sign bang dash state.
    pub(super) fn comment_less_than_sign_bang_dash_state(&mut self) -> Step {
        match self.cur()? {
            Some('-') => {
                self.consume();
                self.state = State::CommentLessThanSignBangDashDash;
            }
            Some(_) | None => self.state = State::CommentEndDash,
        }
        Ok(())
    }

    /// 12.2.5.49 Comment less-than sign bang dash dash state.
    pub(super) fn comment_less_than_sign_bang_dash_dash_state(&mut self) -> Step {
        match self.cur()? {
            Some('>') | None => self.state = State::CommentEnd,
            Some(_) => {
                self.error(ErrorCode::NestedComment);
                self.state = State::CommentEnd;
            }
        }
        Ok(())
    }

    /// 12.2.5.50 Comment end dash state.
    pub(super) fn comment_end_dash_state(&mut self) -> Step {
        match self.cur()? {
            Some('-') => {
                self.consume();
                self.state = State::CommentEnd;
            }
            None => return self.eof_in_comment(),
            Some(_) => {
                self.comment_push_before(1);
                self.state = State::Comment;
            }
        }
        Ok(())
    }

    /// 12.2.5.51 Comment end state.
    pub(super) fn comment_end_state(&mut self) -> Step {
        match self.cur()? {
            Some('>') => {
                self.consume();
                self.state = State::Data;
                self.emit_comment();
            }
            Some('!') => {
                self.consume();
                self.state = State::CommentEndBang;
            }
            Some('-') => {
                let pos = self.pos();
                self.comment_append_raw(pos - 2, pos - 1);
                self.consume();
            }
            None => return self.eof_in_comment(),
            Some(_) => {
                self.comment_push_before(2);
                self.state = State::Comment;
            }
        }
        Ok(())
    }

    /// 12.2.5.52 Comment end bang state.
    pub(super) fn comment_end_bang_state(&mut self) -> Step {
        match self.cur()? {
            Some('-') => {
                self.comment_push_before(3);
                self.consume();
                self.state = State::CommentEndDash;
            }
            Some('>') => {
                self.error(ErrorCode::IncorrectlyClosedComment);
                self.consume();
                self.state = State::Data;
                self.emit_comment();
            }
            None => return self.eof_in_comment(),
            Some(_) => {
                self.comment_push_before(3);
                self.state = State::Comment;
            }
        }
        Ok(())
    }

    // ---------------------------------------------------------------------------------------
    // The comment under construction.

    /// Appends the current character to the comment (CR LF and CR as LF) and consumes it.
    fn comment_push_current(&mut self) {
        let (start, end) = (self.pos(), self.pos() + self.cw);
        if self.at_cr() {
            self.comment_append_str("\n", start, end);
        } else {
            self.comment_append_raw(start, end);
        }
        self.consume();
    }

    /// Appends the `n` bytes before the position (dashes, `!`: ASCII) to the comment.
    fn comment_push_before(&mut self, n: usize) {
        let pos = self.pos();
        self.comment_append_raw(pos - n, pos);
    }

    /// Queues the comment; its `>` (if any) has been consumed.
    pub(super) fn emit_comment(&mut self) {
        debug_assert!(!self.queue.iter().any(|p| matches!(p, Pending::Comment(_))));
        self.push_token(Pending::Comment(Span::new(self.token_start, self.pos())));
    }

    /// `eof-in-comment`: the comment so far, then the end of the input.
    fn eof_in_comment(&mut self) -> Step {
        self.error(ErrorCode::EofInComment);
        self.emit_comment();
        self.emit_eof()
    }
}
