//! Character references (12.2.5.72-80): named references with the every-prefix table of
//! `thicket-charref` (so a chunk end inside a name waits without rescanning), numeric
//! references with its WHATWG rules.

use thicket_charref::LongestMatch;
use thicket_charref::numeric::{self, WhatwgIssue};
use thicket_input::Span;
use thicket_input::cursor::NeedMore;
use thicket_names::html as names;

use super::{Step, Tokenizer};
use crate::error::ErrorCode;
use crate::state::State;

impl<'a> Tokenizer<'a> {
    /// Whether the reference is in an attribute value (its return state is one).
    fn in_attribute(&self) -> bool {
        matches!(
            self.return_state,
            State::AttributeValueDoubleQuoted
                | State::AttributeValueSingleQuoted
                | State::AttributeValueUnquoted
        )
    }

    /// "Flush code points consumed as a character reference": the input `start..end` unchanged.
    fn flush_reference_raw(&mut self, start: usize, end: usize) {
        if self.in_attribute() {
            self.attr_append_raw(false, start, end);
        } else {
            self.emit_raw(start, end);
        }
    }

    /// Flushes the resolved reference `s`, which replaces the input `start..end`.
    fn flush_reference(&mut self, s: &str, start: usize, end: usize) {
        if self.in_attribute() {
            self.attr_append_str(false, s, start, end);
        } else {
            self.emit_str(s, start, end);
        }
    }

    /// Whether the buffer may drop everything before the position although the last token
    /// ended earlier: a numeric reference in data with a digit read ends as a character whatever
    /// follows (its start and value are kept, its digits are not read again), so a reference of
    /// 10 MB of digits is not held. (In an attribute value the tag's strings still point into the
    /// buffer.)
    pub(super) fn reading_digits_in_data(&self) -> bool {
        matches!(
            self.state,
            State::HexadecimalCharacterReference
                | State::DecimalCharacterReference
                | State::NumericCharacterReferenceEnd
        ) && !self.in_attribute()
    }

    /// 12.2.5.72 Character reference state.
    pub(super) fn character_reference_state(&mut self) -> Step {
        match self.cur()? {
            Some(c) if names::is_ascii_alphanumeric_char(c) => {
                self.state = State::NamedCharacterReference;
            }
            Some('#') => {
                self.consume();
                self.state = State::NumericCharacterReference;
            }
            Some(_) | None => {
                self.flush_reference_raw(self.charref_start, self.pos());
                self.state = self.return_state;
            }
        }
        Ok(())
    }

    /// 12.2.5.73 Named character reference state: the longest name of the table that the input
    /// starts with, decided once the input cannot make a longer one.
    pub(super) fn named_character_reference_state(&mut self) -> Step {
        let pos = self.pos();
        let finished = self.input.is_finished();
        let rest = self.input.rest();
        match thicket_charref::longest_match(rest, finished) {
            LongestMatch::NeedMore => Err(NeedMore),
            LongestMatch::None => {
                self.flush_reference_raw(self.charref_start, pos);
                self.state = State::AmbiguousAmpersand;
                Ok(())
            }
            LongestMatch::Found { len, value } => {
                let semicolon = rest.as_bytes()[len - 1] == b';';
                let after = rest.as_bytes().get(len).copied();
                // The character after the name, for the error's span.
                let next_width = rest[len..].chars().next().map_or(0, char::len_utf8);
                let end = pos + len;
                if self.in_attribute() && !semicolon {
                    match after {
                        None if !finished => return Err(NeedMore),
                        Some(b) if b == b'=' || names::is_ascii_alphanumeric(b) => {
                            self.flush_reference_raw(self.charref_start, end);
                            self.input.set_offset(end);
                            self.state = self.return_state;
                            return Ok(());
                        }
                        _ => {}
                    }
                }
                self.input.set_offset(end);
                if !semicolon {
                    // The error points at the character after the name.
                    self.error_at(
                        ErrorCode::MissingSemicolonAfterCharacterReference,
                        Span::new(end, end + next_width),
                    );
                }
                self.flush_reference(value, self.charref_start, end);
                self.state = self.return_state;
                Ok(())
            }
        }
    }

    /// 12.2.5.74 Ambiguous ampersand state.
    pub(super) fn ambiguous_ampersand_state(&mut self) -> Step {
        match self.cur()? {
            Some(c) if names::is_ascii_alphanumeric_char(c) => {
                if self.in_attribute() {
                    self.attr_push_current(false);
                } else {
                    self.emit_current();
                }
            }
            Some(';') => {
                self.error(ErrorCode::UnknownNamedCharacterReference);
                self.state = self.return_state;
            }
            Some(_) | None => self.state = self.return_state,
        }
        Ok(())
    }

    /// 12.2.5.75 Numeric character reference state.
    pub(super) fn numeric_character_reference_state(&mut self) -> Step {
        self.charref_code = 0;
        match self.cur()? {
            Some('x' | 'X') => {
                self.consume();
                self.state = State::HexadecimalCharacterReferenceStart;
            }
            Some(_) | None => self.state = State::DecimalCharacterReferenceStart,
        }
        Ok(())
    }

    /// The hexadecimal and decimal character reference start states.
    fn numeric_start(&mut self, hex: bool) -> Step {
        match self.cur()? {
            Some(c)
                if (hex && names::is_ascii_hex_digit_char(c))
                    || (!hex && names::is_ascii_digit_char(c)) =>
            {
                self.state = if hex {
                    State::HexadecimalCharacterReference
                } else {
                    State::DecimalCharacterReference
                };
            }
            Some(_) | None => {
                self.error(ErrorCode::AbsenceOfDigitsInNumericCharacterReference);
                self.flush_reference_raw(self.charref_start, self.pos());
                self.state = self.return_state;
            }
        }
        Ok(())
    }

    /// 12.2.5.76 Hexadecimal character reference start state.
    pub(super) fn hexadecimal_character_reference_start_state(&mut self) -> Step {
        self.numeric_start(true)
    }

    /// 12.2.5.77 Decimal character reference start state.
    pub(super) fn decimal_character_reference_start_state(&mut self) -> Step {
        self.numeric_start(false)
    }

    /// The hexadecimal and decimal character reference states.
    fn numeric_digits(&mut self, radix: u32) -> Step {
        // Digits are ASCII: take the whole run at once.
        let bytes = self.input.bytes();
        let mut i = self.input.index();
        while let Some(d) = bytes.get(i).and_then(|&b| char::from(b).to_digit(radix)) {
            self.charref_code = numeric::accumulate(self.charref_code, radix, d);
            i += 1;
        }
        self.input.set_index(i);
        match self.cur()? {
            Some(';') => {
                self.consume();
                self.state = State::NumericCharacterReferenceEnd;
            }
            Some(_) | None => {
                self.error(ErrorCode::MissingSemicolonAfterCharacterReference);
                self.state = State::NumericCharacterReferenceEnd;
            }
        }
        Ok(())
    }

    /// 12.2.5.78 Hexadecimal character reference state.
    pub(super) fn hexadecimal_character_reference_state(&mut self) -> Step {
        self.numeric_digits(16)
    }

    /// 12.2.5.79 Decimal character reference state.
    pub(super) fn decimal_character_reference_state(&mut self) -> Step {
        self.numeric_digits(10)
    }

    /// 12.2.5.80 Numeric character reference end state.
    pub(super) fn numeric_character_reference_end_state(&mut self) -> Step {
        let (c, issue) = numeric::whatwg(self.charref_code);
        if let Some(issue) = issue {
            let code = match issue {
                WhatwgIssue::NullCharacterReference => ErrorCode::NullCharacterReference,
                WhatwgIssue::CharacterReferenceOutsideUnicodeRange => {
                    ErrorCode::CharacterReferenceOutsideUnicodeRange
                }
                WhatwgIssue::SurrogateCharacterReference => ErrorCode::SurrogateCharacterReference,
                WhatwgIssue::NoncharacterCharacterReference => {
                    ErrorCode::NoncharacterCharacterReference
                }
                WhatwgIssue::ControlCharacterReference => ErrorCode::ControlCharacterReference,
            };
            self.error_at(code, Span::empty(self.pos()));
        }
        let mut tmp = [0u8; 4];
        let s: &str = c.encode_utf8(&mut tmp);
        self.flush_reference(s, self.charref_start, self.pos());
        self.state = self.return_state;
        Ok(())
    }
}
