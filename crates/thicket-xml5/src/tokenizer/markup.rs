//! The draft's markup declaration state, comment states ("Comment start state" to "Comment
//! end bang state"), CDATA states and bogus comment state.

use thicket_input::TextAcc;

use super::runs::{BOGUS, CDATA, COMMENT};
use super::{Profile, State, Step, Tokenizer, append};
use crate::error::ErrorCode;
use crate::token::TokenKind;

impl Tokenizer<'_> {
    pub(super) fn markup_declaration_state(&mut self) -> Step {
        let compat = self.profile == Profile::Compatibility;
        if self.input.eat(b"--", false)? {
            self.comment = TextAcc::new();
            self.state = State::CommentStart;
        } else if compat && self.input.eat(b"[CDATA[", true)? {
            self.start_cdata();
        } else if self.input.eat(b"DOCTYPE", compat)? {
            self.state = State::Doctype;
        } else if !compat && self.input.eat(b"[CDATA[", false)? {
            self.start_cdata();
        } else {
            let span = self.markup_span();
            self.error(ErrorCode::IncorrectlyOpenedComment, span);
            self.comment = TextAcc::new();
            self.state = State::BogusComment;
        }
        Ok(())
    }

    fn push_cur_comment(&mut self) {
        if let Some(c) = self.cur {
            append(
                &mut self.comment,
                c,
                self.cur_at,
                self.cur_len,
                self.cur_verbatim,
                &self.input,
            );
        }
    }

    fn push_comment_str(&mut self, s: &str) {
        self.comment.push_str(s, &self.input);
    }

    fn emit_comment(&mut self) {
        let data = self.comment.take().into_cow_input(&self.input);
        let span = self.markup_span();
        self.emit(TokenKind::Comment(data), span);
    }

    #[cold]
    fn eof_in_comment(&mut self) {
        self.error_here(ErrorCode::EofInComment);
        self.emit_comment();
        self.reconsume_in(State::Data);
    }

    pub(super) fn comment_start_state(&mut self) -> Step {
        match self.consume()? {
            Some('-') => self.state = State::CommentStartDash,
            Some('>') => {
                self.error_here(ErrorCode::AbruptClosingOfEmptyComment);
                self.state = State::Data;
                self.emit_comment();
            }
            _ => self.reconsume_in(State::Comment),
        }
        Ok(())
    }

    pub(super) fn comment_start_dash_state(&mut self) -> Step {
        match self.consume()? {
            Some('-') => self.state = State::CommentEnd,
            Some('>') => {
                self.error_here(ErrorCode::AbruptClosingOfEmptyComment);
                self.state = State::Data;
                self.emit_comment();
            }
            None => self.eof_in_comment(),
            Some(_) => {
                append(
                    &mut self.comment,
                    '-',
                    self.cur_at - 1,
                    1,
                    true,
                    &self.input,
                );
                self.reconsume_in(State::Comment);
            }
        }
        Ok(())
    }

    pub(super) fn comment_state(&mut self) -> Step {
        loop {
            if let Some((start, end)) = self.plain_run(&COMMENT) {
                self.comment.push_range(start, end, &self.input);
            }
            match self.consume()? {
                Some('<') => {
                    self.push_cur_comment();
                    self.state = State::CommentLessThanSign;
                    return Ok(());
                }
                Some('-') => {
                    self.state = State::CommentEndDash;
                    return Ok(());
                }
                None => {
                    self.eof_in_comment();
                    return Ok(());
                }
                Some(_) => self.push_cur_comment(),
            }
        }
    }

    pub(super) fn comment_less_than_sign_state(&mut self) -> Step {
        match self.consume()? {
            Some('!') => {
                self.push_cur_comment();
                self.state = State::CommentLessThanSignBang;
            }
            Some('<') => self.push_cur_comment(),
            _ => self.reconsume_in(State::Comment),
        }
        Ok(())
    }

    pub(super) fn comment_less_than_sign_bang_state(&mut self) -> Step {
        match self.consume()? {
            Some('-') => self.state = State::CommentLessThanSignBangDash,
            _ => self.reconsume_in(State::Comment),
        }
        Ok(())
    }

    pub(super) fn comment_less_than_sign_bang_dash_state(&mut self) -> Step {
        match self.consume()? {
            Some('-') => self.state = State::CommentLessThanSignBangDashDash,
            _ => self.reconsume_in(State::CommentEndDash),
        }
        Ok(())
    }

    pub(super) fn comment_less_than_sign_bang_dash_dash_state(&mut self) -> Step {
        match self.consume()? {
            Some('>') | None => self.reconsume_in(State::CommentEnd),
            Some(_) => {
                self.error_here(ErrorCode::NestedComment);
                self.reconsume_in(State::CommentEnd);
            }
        }
        Ok(())
    }

    pub(super) fn comment_end_dash_state(&mut self) -> Step {
        match self.consume()? {
            Some('-') => self.state = State::CommentEnd,
            None => self.eof_in_comment(),
            Some(_) => {
                self.push_comment_str("-");
                self.reconsume_in(State::Comment);
            }
        }
        Ok(())
    }

    pub(super) fn comment_end_state(&mut self) -> Step {
        match self.consume()? {
            Some('>') => {
                self.state = State::Data;
                self.emit_comment();
            }
            Some('!') => self.state = State::CommentEndBang,
            Some('-') => self.push_comment_str("-"),
            None => self.eof_in_comment(),
            Some(_) => {
                self.push_comment_str("--");
                self.reconsume_in(State::Comment);
            }
        }
        Ok(())
    }

    pub(super) fn comment_end_bang_state(&mut self) -> Step {
        match self.consume()? {
            Some('-') => {
                self.push_comment_str("--!");
                self.state = State::CommentEndDash;
            }
            Some('>') => {
                self.error_here(ErrorCode::IncorrectlyClosedComment);
                self.state = State::Data;
                self.emit_comment();
            }
            None => self.eof_in_comment(),
            Some(_) => {
                self.push_comment_str("--!");
                self.reconsume_in(State::Comment);
            }
        }
        Ok(())
    }

    pub(super) fn bogus_comment_state(&mut self) -> Step {
        loop {
            if let Some((start, end)) = self.plain_run(&BOGUS) {
                self.comment.push_range(start, end, &self.input);
            }
            match self.consume()? {
                Some('>') => {
                    self.state = State::Data;
                    self.emit_comment();
                    return Ok(());
                }
                None => {
                    self.emit_comment();
                    self.reconsume_in(State::Data);
                    return Ok(());
                }
                Some(_) => self.push_cur_comment(),
            }
        }
    }

    // ------------------------------------------------------------ CDATA

    /// `<![CDATA[` is read: the text run's span covers it (the section's text is character
    /// data like the text around it).
    fn start_cdata(&mut self) {
        self.text_span(self.markup_start, self.pos());
        self.state = State::Cdata;
    }

    /// The end of the input in a CDATA section: the `]` or `]]` read before it is dropped, and
    /// the text run's span covers it.
    #[cold]
    fn eof_in_cdata(&mut self, pending_brackets: usize) {
        if pending_brackets > 0 {
            self.text_span(self.pos() - pending_brackets, self.pos());
        }
        self.error_here(ErrorCode::EofInCdata);
        self.reconsume_in(State::Data);
    }

    pub(super) fn cdata_state(&mut self) -> Step {
        loop {
            if let Some((start, end)) = self.plain_run(&CDATA) {
                self.text_span(start, end);
                self.text.push_range(start, end, &self.input);
            }
            match self.consume()? {
                Some(']') => {
                    self.state = State::CdataBracket;
                    return Ok(());
                }
                None => {
                    self.eof_in_cdata(0);
                    return Ok(());
                }
                Some(_) => self.push_cur_text(),
            }
        }
    }

    pub(super) fn cdata_bracket_state(&mut self) -> Step {
        match self.consume()? {
            Some(']') => self.state = State::CdataEnd,
            None => self.eof_in_cdata(1),
            Some(_) => {
                self.push_text(']', self.cur_at - 1, 1, true);
                self.push_cur_text();
                self.state = State::Cdata;
            }
        }
        Ok(())
    }

    pub(super) fn cdata_end_state(&mut self) -> Step {
        match self.consume()? {
            Some('>') => {
                // `]]>`: covered by the text run's span.
                self.text_span(self.cur_at - 2, self.pos());
                self.state = State::Data;
            }
            Some(']') => self.push_text(']', self.cur_at - 2, 1, true),
            None => self.eof_in_cdata(2),
            Some(_) => {
                self.push_text(']', self.cur_at - 2, 1, true);
                self.push_text(']', self.cur_at - 1, 1, true);
                self.push_cur_text();
                self.state = State::Cdata;
            }
        }
        Ok(())
    }
}
