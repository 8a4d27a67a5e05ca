//! The DOCTYPE states (12.2.5.53-68), with the DOCTYPE under construction.

use thicket_input::scan::StopSet;
use thicket_input::{Span, TextAcc};
use thicket_names::html as names;

use super::comment::BOGUS;
use super::{Pending, Step, Tokenizer, stops};
use crate::error::ErrorCode;
use crate::state::State;

/// A DOCTYPE under construction.
#[derive(Default)]
pub(super) struct DoctypeBuild {
    pub(super) name: Option<TextAcc>,
    pub(super) public_id: Option<TextAcc>,
    pub(super) system_id: Option<TextAcc>,
    pub(super) force_quirks: bool,
}

/// Which DOCTYPE string a character goes to.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum DoctypeString {
    Name,
    PublicId,
    SystemId,
}

/// The double-quoted identifier states' runs: the quote, and `>` (which ends the DOCTYPE).
static DOUBLE_QUOTED: StopSet = stops(b"\">");
/// The single-quoted identifier states' runs.
static SINGLE_QUOTED: StopSet = stops(b"'>");

impl<'a> Tokenizer<'a> {
    /// 12.2.5.53 DOCTYPE state.
    pub(super) fn doctype_state(&mut self) -> Step {
        match self.cur()? {
            Some(c) if names::is_ascii_whitespace_char(c) => {
                self.consume();
                self.state = State::BeforeDoctypeName;
            }
            Some('>') => self.state = State::BeforeDoctypeName,
            None => {
                self.doctype = DoctypeBuild::default();
                return self.eof_in_doctype();
            }
            Some(_) => {
                self.error(ErrorCode::MissingWhitespaceBeforeDoctypeName);
                self.state = State::BeforeDoctypeName;
            }
        }
        Ok(())
    }

    /// 12.2.5.54 Before DOCTYPE name state.
    pub(super) fn before_doctype_name_state(&mut self) -> Step {
        match self.cur()? {
            Some(c) if names::is_ascii_whitespace_char(c) => self.consume(),
            Some(c) if names::is_ascii_upper_alpha_char(c) => {
                self.doctype = DoctypeBuild::default();
                self.doctype_push(DoctypeString::Name, Some(c.to_ascii_lowercase()));
                self.state = State::DoctypeName;
            }
            Some('\0') => {
                self.error(ErrorCode::UnexpectedNullCharacter);
                self.doctype = DoctypeBuild::default();
                self.doctype_push(DoctypeString::Name, Some('\u{FFFD}'));
                self.state = State::DoctypeName;
            }
            Some('>') => {
                self.error(ErrorCode::MissingDoctypeName);
                self.doctype = DoctypeBuild {
                    force_quirks: true,
                    ..DoctypeBuild::default()
                };
                self.consume();
                self.state = State::Data;
                self.emit_doctype();
            }
            None => {
                self.doctype = DoctypeBuild::default();
                return self.eof_in_doctype();
            }
            Some(_) => {
                self.doctype = DoctypeBuild::default();
                self.doctype_push(DoctypeString::Name, None);
                self.state = State::DoctypeName;
            }
        }
        Ok(())
    }

    /// 12.2.5.55 DOCTYPE name state.
    pub(super) fn doctype_name_state(&mut self) -> Step {
        match self.cur()? {
            Some(c) if names::is_ascii_whitespace_char(c) => {
                self.consume();
                self.state = State::AfterDoctypeName;
            }
            Some('>') => {
                self.consume();
                self.state = State::Data;
                self.emit_doctype();
            }
            Some(c) if names::is_ascii_upper_alpha_char(c) => {
                self.doctype_push(DoctypeString::Name, Some(c.to_ascii_lowercase()))
            }
            Some('\0') => {
                self.error(ErrorCode::UnexpectedNullCharacter);
                self.doctype_push(DoctypeString::Name, Some('\u{FFFD}'));
            }
            None => return self.eof_in_doctype(),
            Some(_) => self.doctype_push(DoctypeString::Name, None),
        }
        Ok(())
    }

    /// 12.2.5.56 After DOCTYPE name state.
    pub(super) fn after_doctype_name_state(&mut self) -> Step {
        match self.cur()? {
            Some(c) if names::is_ascii_whitespace_char(c) => self.consume(),
            Some('>') => {
                self.consume();
                self.state = State::Data;
                self.emit_doctype();
            }
            None => return self.eof_in_doctype(),
            Some(_) => {
                let public = self.input.starts_with(b"PUBLIC", true);
                let system = self.input.starts_with(b"SYSTEM", true);
                if public == Ok(true) {
                    self.input.advance(6);
                    self.state = State::AfterDoctypePublicKeyword;
                } else if system == Ok(true) {
                    self.input.advance(6);
                    self.state = State::AfterDoctypeSystemKeyword;
                } else {
                    public?;
                    system?;
                    self.error(ErrorCode::InvalidCharacterSequenceAfterDoctypeName);
                    self.doctype.force_quirks = true;
                    self.state = State::BogusDoctype;
                }
            }
        }
        Ok(())
    }

    /// The "after DOCTYPE public/system keyword" states.
    fn after_doctype_keyword(&mut self, system: bool) -> Step {
        let (before, dq, sq) = if system {
            (
                State::BeforeDoctypeSystemIdentifier,
                State::DoctypeSystemIdentifierDoubleQuoted,
                State::DoctypeSystemIdentifierSingleQuoted,
            )
        } else {
            (
                State::BeforeDoctypePublicIdentifier,
                State::DoctypePublicIdentifierDoubleQuoted,
                State::DoctypePublicIdentifierSingleQuoted,
            )
        };
        match self.cur()? {
            Some(c) if names::is_ascii_whitespace_char(c) => {
                self.consume();
                self.state = before;
            }
            Some(q @ ('"' | '\'')) => {
                self.error(if system {
                    ErrorCode::MissingWhitespaceAfterDoctypeSystemKeyword
                } else {
                    ErrorCode::MissingWhitespaceAfterDoctypePublicKeyword
                });
                self.start_identifier(system);
                self.consume();
                self.state = if q == '"' { dq } else { sq };
            }
            Some('>') => {
                self.error(if system {
                    ErrorCode::MissingDoctypeSystemIdentifier
                } else {
                    ErrorCode::MissingDoctypePublicIdentifier
                });
                self.doctype.force_quirks = true;
                self.consume();
                self.state = State::Data;
                self.emit_doctype();
            }
            None => return self.eof_in_doctype(),
            Some(_) => {
                self.error(if system {
                    ErrorCode::MissingQuoteBeforeDoctypeSystemIdentifier
                } else {
                    ErrorCode::MissingQuoteBeforeDoctypePublicIdentifier
                });
                self.doctype.force_quirks = true;
                self.state = State::BogusDoctype;
            }
        }
        Ok(())
    }

    /// The "before DOCTYPE public/system identifier" states.
    fn before_doctype_identifier(&mut self, system: bool) -> Step {
        let (dq, sq) = if system {
            (
                State::DoctypeSystemIdentifierDoubleQuoted,
                State::DoctypeSystemIdentifierSingleQuoted,
            )
        } else {
            (
                State::DoctypePublicIdentifierDoubleQuoted,
                State::DoctypePublicIdentifierSingleQuoted,
            )
        };
        match self.cur()? {
            Some(c) if names::is_ascii_whitespace_char(c) => self.consume(),
            Some(q @ ('"' | '\'')) => {
                self.start_identifier(system);
                self.consume();
                self.state = if q == '"' { dq } else { sq };
            }
            Some('>') => {
                self.error(if system {
                    ErrorCode::MissingDoctypeSystemIdentifier
                } else {
                    ErrorCode::MissingDoctypePublicIdentifier
                });
                self.doctype.force_quirks = true;
                self.consume();
                self.state = State::Data;
                self.emit_doctype();
            }
            None => return self.eof_in_doctype(),
            Some(_) => {
                self.error(if system {
                    ErrorCode::MissingQuoteBeforeDoctypeSystemIdentifier
                } else {
                    ErrorCode::MissingQuoteBeforeDoctypePublicIdentifier
                });
                self.doctype.force_quirks = true;
                self.state = State::BogusDoctype;
            }
        }
        Ok(())
    }

    /// The four quoted identifier states.
    fn doctype_identifier_quoted(&mut self, system: bool, quote: char) -> Step {
        let run = if quote == '"' {
            &DOUBLE_QUOTED
        } else {
            &SINGLE_QUOTED
        };
        let which = if system {
            DoctypeString::SystemId
        } else {
            DoctypeString::PublicId
        };
        let end = self.scan(run);
        if end > self.pos() {
            let target = if system {
                self.doctype.system_id.get_or_insert_with(TextAcc::new)
            } else {
                self.doctype.public_id.get_or_insert_with(TextAcc::new)
            };
            target.push_range(self.input.offset(), end, &self.input);
            self.input.set_offset(end);
        }
        match self.cur()? {
            Some(c) if c == quote => {
                self.consume();
                self.state = if system {
                    State::AfterDoctypeSystemIdentifier
                } else {
                    State::AfterDoctypePublicIdentifier
                };
            }
            Some('\0') => {
                self.error(ErrorCode::UnexpectedNullCharacter);
                self.doctype_push(which, Some('\u{FFFD}'));
            }
            Some('>') => {
                self.error(if system {
                    ErrorCode::AbruptDoctypeSystemIdentifier
                } else {
                    ErrorCode::AbruptDoctypePublicIdentifier
                });
                self.doctype.force_quirks = true;
                self.consume();
                self.state = State::Data;
                self.emit_doctype();
            }
            None => return self.eof_in_doctype(),
            Some(_) => self.doctype_push(which, None),
        }
        Ok(())
    }

    /// 12.2.5.57 After DOCTYPE public keyword state.
    pub(super) fn after_doctype_public_keyword_state(&mut self) -> Step {
        self.after_doctype_keyword(false)
    }

    /// 12.2.5.58 Before DOCTYPE public identifier state.
    pub(super) fn before_doctype_public_identifier_state(&mut self) -> Step {
        self.before_doctype_identifier(false)
    }

    /// 12.2.5.59 DOCTYPE public identifier (double-quoted) state.
    pub(super) fn doctype_public_identifier_double_quoted_state(&mut self) -> Step {
        self.doctype_identifier_quoted(false, '"')
    }

    /// 12.2.5.60 DOCTYPE public identifier (single-quoted) state.
    pub(super) fn doctype_public_identifier_single_quoted_state(&mut self) -> Step {
        self.doctype_identifier_quoted(false, '\'')
    }

    /// The "after DOCTYPE public identifier" and "between DOCTYPE public and system
    /// identifiers" states differ only in the error for a quote.
    fn after_public_identifier(&mut self, between: bool) -> Step {
        match self.cur()? {
            Some(c) if names::is_ascii_whitespace_char(c) => {
                self.consume();
                self.state = State::BetweenDoctypePublicAndSystemIdentifiers;
            }
            Some('>') => {
                self.consume();
                self.state = State::Data;
                self.emit_doctype();
            }
            Some(q @ ('"' | '\'')) => {
                if !between {
                    self.error(
                        ErrorCode::MissingWhitespaceBetweenDoctypePublicAndSystemIdentifiers,
                    );
                }
                self.start_identifier(true);
                self.consume();
                self.state = if q == '"' {
                    State::DoctypeSystemIdentifierDoubleQuoted
                } else {
                    State::DoctypeSystemIdentifierSingleQuoted
                };
            }
            None => return self.eof_in_doctype(),
            Some(_) => {
                self.error(ErrorCode::MissingQuoteBeforeDoctypeSystemIdentifier);
                self.doctype.force_quirks = true;
                self.state = State::BogusDoctype;
            }
        }
        Ok(())
    }

    /// 12.2.5.61 After DOCTYPE public identifier state.
    pub(super) fn after_doctype_public_identifier_state(&mut self) -> Step {
        self.after_public_identifier(false)
    }

    /// 12.2.5.62 Between DOCTYPE public and system identifiers state.
    pub(super) fn between_doctype_public_and_system_identifiers_state(&mut self) -> Step {
        self.after_public_identifier(true)
    }

    /// 12.2.5.63 After DOCTYPE system keyword state.
    pub(super) fn after_doctype_system_keyword_state(&mut self) -> Step {
        self.after_doctype_keyword(true)
    }

    /// 12.2.5.64 Before DOCTYPE system identifier state.
    pub(super) fn before_doctype_system_identifier_state(&mut self) -> Step {
        self.before_doctype_identifier(true)
    }

    /// 12.2.5.65 DOCTYPE system identifier (double-quoted) state.
    pub(super) fn doctype_system_identifier_double_quoted_state(&mut self) -> Step {
        self.doctype_identifier_quoted(true, '"')
    }

    /// 12.2.5.66 DOCTYPE system identifier (single-quoted) state.
    pub(super) fn doctype_system_identifier_single_quoted_state(&mut self) -> Step {
        self.doctype_identifier_quoted(true, '\'')
    }

    /// 12.2.5.67 After DOCTYPE system identifier state.
    pub(super) fn after_doctype_system_identifier_state(&mut self) -> Step {
        match self.cur()? {
            Some(c) if names::is_ascii_whitespace_char(c) => self.consume(),
            Some('>') => {
                self.consume();
                self.state = State::Data;
                self.emit_doctype();
            }
            None => return self.eof_in_doctype(),
            Some(_) => {
                self.error(ErrorCode::UnexpectedCharacterAfterDoctypeSystemIdentifier);
                self.state = State::BogusDoctype;
            }
        }
        Ok(())
    }

    /// 12.2.5.68 Bogus DOCTYPE state.
    pub(super) fn bogus_doctype_state(&mut self) -> Step {
        let end = self.scan(&BOGUS);
        self.input.set_offset(end);
        match self.cur()? {
            Some('>') => {
                self.consume();
                self.state = State::Data;
                self.emit_doctype();
            }
            Some('\0') => {
                self.error(ErrorCode::UnexpectedNullCharacter);
                self.consume();
            }
            None => {
                self.emit_doctype();
                return self.emit_eof();
            }
            Some(_) => self.consume(),
        }
        Ok(())
    }

    // ---------------------------------------------------------------------------------------
    // The DOCTYPE under construction.

    /// Queues the DOCTYPE; its `>` (if any) has been consumed.
    fn emit_doctype(&mut self) {
        debug_assert!(!self.queue.iter().any(|p| matches!(p, Pending::Doctype(_))));
        self.push_token(Pending::Doctype(Span::new(self.token_start, self.pos())));
    }

    /// `eof-in-doctype`: the DOCTYPE so far, in quirks mode, then the end of the input.
    fn eof_in_doctype(&mut self) -> Step {
        self.error(ErrorCode::EofInDoctype);
        self.doctype.force_quirks = true;
        self.emit_doctype();
        self.emit_eof()
    }

    /// Sets the public or system identifier to the empty string.
    fn start_identifier(&mut self, system: bool) {
        if system {
            self.doctype.system_id = Some(TextAcc::new());
        } else {
            self.doctype.public_id = Some(TextAcc::new());
        }
    }

    /// Appends the current character (or `replacement`) to a DOCTYPE string and consumes it
    /// (the name within the name limit).
    fn doctype_push(&mut self, which: DoctypeString, replacement: Option<char>) {
        if which == DoctypeString::Name {
            return self.doctype_name_push(replacement);
        }
        let (start, end) = (self.pos(), self.pos() + self.cw);
        let cr = self.at_cr();
        let target = if which == DoctypeString::PublicId {
            self.doctype.public_id.get_or_insert_with(TextAcc::new)
        } else {
            self.doctype.system_id.get_or_insert_with(TextAcc::new)
        };
        match replacement {
            Some(c) => target.push_char(c, &self.input),
            None if cr => target.push_char('\n', &self.input),
            None => target.push_range(start, end, &self.input),
        }
        self.consume();
    }
}
