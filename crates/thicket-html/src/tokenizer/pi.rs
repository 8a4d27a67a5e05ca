//! Processing instructions, as the HTML Standard reads `<?` since 2026 (whatwg/html#12118,
//! merged as 320c05f6): the tag open state's `?` branch, "convert the temporary buffer to a
//! comment" and the five states 13.2.5.72 to 13.2.5.76, one method each. Reference:
//! `../shared/specs/html-processing-instructions.md`; choices: docs/html.md.

use super::{Flow, Next, PLAIN, Pending, STOP, Tokenizer, table};
use crate::error::ErrorCode;
use crate::sbuf::SBuf;
use crate::state::State;
use thicket_input::Span;

/// The processing instruction being built: the target (the standard's temporary buffer, kept
/// as a range of the input) and the data.
#[derive(Default)]
pub(super) struct PiBuild {
    /// The temporary buffer: the target's characters, as written (at most `max_name_len` bytes
    /// of them with a name limit).
    pub(super) target: SBuf,
    /// The data of the processing instruction token.
    pub(super) data: SBuf,
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

/// The characters of a processing instruction target: ASCII alphanumerics, `-` and `_` run on,
/// anything else stops the scan.
static TARGET_CHARS: [u8; 256] = {
    let mut t = [STOP; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if c.is_ascii_alphanumeric() || c == b'-' || c == b'_' {
            t[b] = PLAIN;
        }
        b += 1;
    }
    t
};

/// Processing instruction data runs until `?` or `>` (NULL and CR stop too, for the states).
static PI_DATA_STOPS: [u8; 256] = table(b"?>\0\r");

impl Tokenizer {
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
        let mut comment = SBuf::Empty;
        if question_mark >= self.base {
            comment.push_raw(&self.buf, self.base, question_mark, question_mark + 1);
        } else {
            comment.push_str(&self.buf, self.base, "?");
        }
        match std::mem::take(&mut self.pi.target) {
            SBuf::Empty => {}
            SBuf::Range(s, e) => comment.push_raw(&self.buf, self.base, s, e),
            SBuf::Owned(o) => comment.push_str(&self.buf, self.base, &o),
        }
        self.comment = comment;
    }

    /// `eof-in-processing-instruction`: "Emit an end-of-file token." Nothing else is emitted;
    /// the source of the processing instruction is returned as discarded (lossless spans).
    fn eof_in_processing_instruction(&mut self) -> Flow {
        self.error(ErrorCode::EofInProcessingInstruction);
        self.pi = PiBuild::default();
        self.push_token(Pending::Discarded(Span::new(self.token_start, self.pos)));
        self.emit_eof()
    }

    /// Emits the current processing instruction token; the `>` has been consumed.
    fn emit_processing_instruction(&mut self) {
        debug_assert!(!self.queue.iter().any(|p| matches!(p, Pending::Pi(_))));
        self.push_token(Pending::Pi(Span::new(self.token_start, self.pos)));
    }

    /// 13.2.5.72 Processing instruction open state.
    pub(super) fn processing_instruction_open_state(&mut self) -> Flow {
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char(c) if c.is_ascii_alphabetic() || c == '_' => {
                self.state = State::ProcessingInstructionTarget;
                return self.processing_instruction_target_state();
            }
            Next::Eof => return self.eof_in_processing_instruction(),
            Next::Char(_) => {
                self.error(ErrorCode::InvalidFirstCharacterOfProcessingInstructionTarget);
                self.convert_temporary_buffer_to_comment();
                self.state = State::BogusComment;
            }
        }
        Flow::Go
    }

    /// 13.2.5.73 Processing instruction target state. The target's characters are taken as one
    /// run; the character after them decides.
    pub(super) fn processing_instruction_target_state(&mut self) -> Flow {
        let end = self.scan(&TARGET_CHARS);
        if end > self.pos {
            let (start, base) = (self.pos, self.base);
            self.pi.saw(&self.buf.as_bytes()[start - base..end - base]);
            self.pi_target_append(start, end);
            self.pos = end;
        }
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char('\t' | '\n' | '\x0C' | ' ' | '?' | '>') => {
                if self.pi.is_disallowed() {
                    self.error(ErrorCode::DisallowedProcessingInstructionTarget);
                    self.convert_temporary_buffer_to_comment();
                    self.state = State::BogusComment;
                } else {
                    // "Create a processing instruction token whose target is target and data is
                    // the empty string": the target stays where it is, the data is empty.
                    self.pi.data = SBuf::Empty;
                    self.state = State::AfterProcessingInstructionTarget;
                }
            }
            Next::Eof => return self.eof_in_processing_instruction(),
            Next::Char(_) => {
                self.error(ErrorCode::InvalidProcessingInstructionTarget);
                self.convert_temporary_buffer_to_comment();
                self.state = State::BogusComment;
            }
        }
        Flow::Go
    }

    /// 13.2.5.74 After processing instruction target state.
    pub(super) fn after_processing_instruction_target_state(&mut self) -> Flow {
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char('\t' | '\n' | '\x0C' | ' ') => self.consume(),
            // No EOF entry: EOF is reconsumed in the data state, which reports it.
            Next::Char(_) | Next::Eof => {
                self.state = State::ProcessingInstructionData;
                return self.processing_instruction_data_state();
            }
        }
        Flow::Go
    }

    /// 13.2.5.75 Processing instruction data state. No U+0000 entry: NULL is data, as it is.
    pub(super) fn processing_instruction_data_state(&mut self) -> Flow {
        let end = self.scan(&PI_DATA_STOPS);
        if end > self.pos {
            self.pi.data.push_raw(&self.buf, self.base, self.pos, end);
            self.pos = end;
        }
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char('?') => {
                self.consume();
                self.state = State::ProcessingInstructionQuestionable;
            }
            Next::Char('>') => {
                self.consume();
                self.state = State::Data;
                self.emit_processing_instruction();
            }
            Next::Eof => return self.eof_in_processing_instruction(),
            Next::Char(_) => self.pi_data_push_current(),
        }
        Flow::Go
    }

    /// 13.2.5.76 Processing instruction questionable state.
    pub(super) fn processing_instruction_questionable_state(&mut self) -> Flow {
        match self.cur() {
            Next::Wait => return Flow::Wait,
            Next::Char('>') => {
                self.consume();
                self.state = State::Data;
                self.emit_processing_instruction();
            }
            Next::Eof => return self.eof_in_processing_instruction(),
            Next::Char(_) => {
                // "Append U+003F (?)": the `?` just before, itself.
                let q = self.pos - 1;
                if q >= self.base {
                    self.pi.data.push_raw(&self.buf, self.base, q, self.pos);
                } else {
                    self.pi.data.push_str(&self.buf, self.base, "?");
                }
                self.state = State::ProcessingInstructionData;
            }
        }
        Flow::Go
    }

    /// Appends the current character to the data (CR LF and CR as LF) and consumes it.
    fn pi_data_push_current(&mut self) {
        let (start, end) = (self.pos, self.pos + self.cw);
        if self.buf.as_bytes()[start - self.base] == b'\r' {
            self.pi.data.push_char(&self.buf, self.base, '\n');
        } else {
            self.pi.data.push_raw(&self.buf, self.base, start, end);
        }
        self.pos = end;
    }
}
