//! Processing instructions, as the HTML Standard reads `<?` since 2026 (whatwg/html#12118,
//! merged as 320c05f6): the tag open state's `?` branch, "convert the temporary buffer to a
//! comment" and the five states 13.2.5.72 to 13.2.5.76, one method each. Reference:
//! `../shared/specs/html-processing-instructions.md`; choices: docs/html.md.

use thicket_input::scan::StopSet;
use thicket_input::{Span, TextAcc};
use thicket_names::html as names;

use super::{Pending, Step, Tokenizer, stops};
use crate::error::ErrorCode;
use crate::state::State;

/// The processing instruction being built: the target (the standard's temporary buffer, kept
/// as a range of the input) and the data.
#[derive(Default)]
pub(super) struct PiBuild {
    /// The temporary buffer: the target's characters, as written (at most `max_name_len` bytes
    /// of them with a name limit).
    pub(super) target: TextAcc,
    /// The data of the processing instruction token.
    pub(super) data: TextAcc,
    /// The whole target's length in bytes, with what a name limit cut off.
    len: usize,
    /// Whether the whole target so far is an ASCII case-insensitive prefix of `xml-stylesheet`
    /// (so that `xml` and `xml-stylesheet` are recognized even when a name limit cut them).
    xml_prefix: bool,
}

impl PiBuild {
    /// Notes `bytes`, the next part of the target as written, for the `xml` check.
    fn saw(&mut self, bytes: &[u8]) {
        const XML_STYLESHEET: &[u8] = b"xml-stylesheet";
        if self.xml_prefix {
            self.xml_prefix = XML_STYLESHEET
                .get(self.len..self.len + bytes.len())
                .is_some_and(|p| p.eq_ignore_ascii_case(bytes));
        }
        self.len += bytes.len();
    }

    /// Whether the target is an ASCII case-insensitive match for `xml` or `xml-stylesheet`.
    fn is_disallowed(&self) -> bool {
        self.xml_prefix && (self.len == 3 || self.len == 14)
    }
}

/// Processing instruction data runs until `?` or `>` (NULL and CR stop too, for the states).
static DATA: StopSet = stops(b"?>");

impl<'a> Tokenizer<'a> {
    /// The tag open state's `?` branch: "Set the temporary buffer to the empty string. Switch to
    /// the processing instruction open state." (the `?` is consumed).
    pub(super) fn tag_open_question_mark(&mut self) {
        self.consume();
        self.pi = PiBuild {
            xml_prefix: true,
            ..PiBuild::default()
        };
        self.limit.new_token();
        self.state = State::ProcessingInstructionOpen;
    }

    /// "Convert the temporary buffer to a comment": a comment whose data is `?` and the target
    /// so far. Both are the input unchanged, so the comment stays a range of it where the
    /// buffer still holds the `?`.
    fn convert_temporary_buffer_to_comment(&mut self) {
        let question_mark = self.token_start + 1;
        let input = &self.input;
        let mut comment = TextAcc::new();
        if question_mark >= input.base() {
            comment.push_range(question_mark, question_mark + 1, input);
        } else {
            comment.push_str("?", input);
        }
        let target = self.pi.target.take();
        match target.range() {
            Some((s, e)) => comment.push_range(s, e, input),
            None => comment.push_str(target.as_str(input), input),
        }
        self.comment = comment;
    }

    /// `eof-in-processing-instruction`: "Emit an end-of-file token." Nothing else is emitted;
    /// the source of the processing instruction is returned as discarded (lossless spans).
    fn eof_in_processing_instruction(&mut self) -> Step {
        self.error(ErrorCode::EofInProcessingInstruction);
        self.pi = PiBuild::default();
        self.push_token(Pending::Discarded(Span::new(self.token_start, self.pos())));
        self.emit_eof()
    }

    /// Emits the current processing instruction token; the `>` has been consumed.
    fn emit_processing_instruction(&mut self) {
        debug_assert!(!self.queue.iter().any(|p| matches!(p, Pending::Pi(_))));
        self.push_token(Pending::Pi(Span::new(self.token_start, self.pos())));
    }

    /// 13.2.5.72 Processing instruction open state.
    pub(super) fn processing_instruction_open_state(&mut self) -> Step {
        match self.cur()? {
            Some(c) if names::is_ascii_alpha_char(c) || c == '_' => {
                self.state = State::ProcessingInstructionTarget;
                return self.processing_instruction_target_state();
            }
            None => return self.eof_in_processing_instruction(),
            Some(_) => {
                self.error(ErrorCode::InvalidFirstCharacterOfProcessingInstructionTarget);
                self.convert_temporary_buffer_to_comment();
                self.state = State::BogusComment;
            }
        }
        Ok(())
    }

    /// 13.2.5.73 Processing instruction target state. The target's characters are taken as one
    /// run; the character after them decides.
    pub(super) fn processing_instruction_target_state(&mut self) -> Step {
        let (start, from) = (self.pos(), self.input.index());
        let bytes = self.input.bytes();
        let to = from
            + bytes[from..]
                .iter()
                .take_while(|&&b| names::is_processing_instruction_target_byte(b))
                .count();
        if to > from {
            self.pi.saw(&bytes[from..to]);
            let end = start + (to - from);
            self.pi_target_append(start, end);
            self.input.set_index(to);
        }
        match self.cur()? {
            Some(c) if names::is_ascii_whitespace_char(c) || c == '?' || c == '>' => {
                if self.pi.is_disallowed() {
                    self.error(ErrorCode::DisallowedProcessingInstructionTarget);
                    self.convert_temporary_buffer_to_comment();
                    self.state = State::BogusComment;
                } else {
                    // "Create a processing instruction token whose target is target and data is
                    // the empty string": the target stays where it is, the data is empty.
                    self.pi.data.clear();
                    self.state = State::AfterProcessingInstructionTarget;
                }
            }
            None => return self.eof_in_processing_instruction(),
            Some(_) => {
                self.error(ErrorCode::InvalidProcessingInstructionTarget);
                self.convert_temporary_buffer_to_comment();
                self.state = State::BogusComment;
            }
        }
        Ok(())
    }

    /// 13.2.5.74 After processing instruction target state.
    pub(super) fn after_processing_instruction_target_state(&mut self) -> Step {
        match self.cur()? {
            Some(c) if names::is_ascii_whitespace_char(c) => self.consume(),
            // No EOF entry: EOF is reconsumed in the data state, which reports it.
            Some(_) | None => {
                self.state = State::ProcessingInstructionData;
                return self.processing_instruction_data_state();
            }
        }
        Ok(())
    }

    /// 13.2.5.75 Processing instruction data state. No U+0000 entry: NULL is data, as it is.
    pub(super) fn processing_instruction_data_state(&mut self) -> Step {
        let end = self.scan(&DATA);
        if end > self.pos() {
            self.pi_data_append_raw(self.pos(), end);
            self.input.set_offset(end);
        }
        match self.cur()? {
            Some('?') => {
                self.consume();
                self.state = State::ProcessingInstructionQuestionable;
            }
            Some('>') => {
                self.consume();
                self.state = State::Data;
                self.emit_processing_instruction();
            }
            None => return self.eof_in_processing_instruction(),
            Some(_) => self.pi_data_push_current(),
        }
        Ok(())
    }

    /// 13.2.5.76 Processing instruction questionable state.
    pub(super) fn processing_instruction_questionable_state(&mut self) -> Step {
        match self.cur()? {
            Some('>') => {
                self.consume();
                self.state = State::Data;
                self.emit_processing_instruction();
            }
            None => return self.eof_in_processing_instruction(),
            Some(_) => {
                // "Append U+003F (?)": the `?` just before, itself.
                let pos = self.pos();
                if pos > self.input.base() {
                    self.pi_data_append_raw(pos - 1, pos);
                } else {
                    self.pi_data_append_str("?", pos - 1, pos);
                }
                self.state = State::ProcessingInstructionData;
            }
        }
        Ok(())
    }

    /// Appends the current character to the data (CR LF and CR as LF) and consumes it.
    fn pi_data_push_current(&mut self) {
        let (start, end) = (self.pos(), self.pos() + self.cw);
        if self.at_cr() {
            self.pi_data_append_str("\n", start, end);
        } else {
            self.pi_data_append_raw(start, end);
        }
        self.consume();
    }
}
