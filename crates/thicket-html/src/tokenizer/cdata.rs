//! CDATA sections (12.2.5.69-71): text up to `]]>`, entered from the markup declaration open
//! state where the consumer allows CDATA ([`Tokenizer::set_cdata_allowed`]).

use thicket_input::scan::StopSet;

use super::{Step, Tokenizer, stops};
use crate::error::ErrorCode;
use crate::state::State;

/// The CDATA section state's runs end at `]`.
static CDATA: StopSet = stops(b"]");

impl<'a> Tokenizer<'a> {
    /// 12.2.5.69 CDATA section state. NULL is text here, as it is.
    pub(super) fn cdata_section_state(&mut self) -> Step {
        let end = self.scan(&CDATA);
        if end > self.pos() {
            self.emit_raw(self.pos(), end);
            self.input.set_offset(end);
        }
        match self.cur()? {
            Some(']') => {
                self.consume();
                self.state = State::CdataSectionBracket;
            }
            None => {
                self.error(ErrorCode::EofInCdata);
                return self.emit_eof();
            }
            Some(_) => self.emit_current(),
        }
        Ok(())
    }

    /// 12.2.5.70 CDATA section bracket state.
    pub(super) fn cdata_section_bracket_state(&mut self) -> Step {
        match self.cur()? {
            Some(']') => {
                self.consume();
                self.state = State::CdataSectionEnd;
            }
            Some(_) | None => {
                self.emit_raw(self.pos() - 1, self.pos());
                self.state = State::CdataSection;
            }
        }
        Ok(())
    }

    /// 12.2.5.71 CDATA section end state.
    pub(super) fn cdata_section_end_state(&mut self) -> Step {
        match self.cur()? {
            Some(']') => {
                self.emit_raw(self.pos() - 2, self.pos() - 1);
                self.consume();
            }
            Some('>') => {
                self.consume();
                // `]]>` belongs to the text's span but not to its characters.
                let pos = self.pos();
                self.text_join(pos - 3);
                self.text_extend(pos - 3, pos);
                self.state = State::Data;
            }
            Some(_) | None => {
                self.emit_raw(self.pos() - 2, self.pos());
                self.state = State::CdataSection;
            }
        }
        Ok(())
    }
}
