//! The draft's DOCTYPE states ("DOCTYPE state" to "Bogus DOCTYPE state") and, in the
//! compatibility profile, the 2016 draft's identifier states.

use thicket_input::TextAcc;

use super::{IdKind, Profile, State, Step, Tokenizer, append};
use crate::error::ErrorCode;
use crate::token::TokenKind;

/// The DOCTYPE token in progress: its name and (compatibility profile) identifiers, each
/// present or not.
#[derive(Clone, Debug, Default)]
pub(super) struct DoctypeToken {
    name: TextAcc,
    public_id: TextAcc,
    system_id: TextAcc,
    /// Which strings are present: [`NAME`], [`PUBLIC_ID`], [`SYSTEM_ID`].
    present: u8,
    /// Draft profile, after the name: how deep in `[` ... `]` (the internal subset) we are.
    depth: u32,
}

const NAME: u8 = 1;
const PUBLIC_ID: u8 = 2;
const SYSTEM_ID: u8 = 4;

impl DoctypeToken {
    /// The strings under construction (for compaction).
    pub(super) fn strings(&mut self) -> [&mut TextAcc; 3] {
        [&mut self.name, &mut self.public_id, &mut self.system_id]
    }

    /// The name, when it has one (for the name length limit).
    pub(super) fn name_mut(&mut self) -> Option<&mut TextAcc> {
        (self.present & NAME != 0).then_some(&mut self.name)
    }

    /// An identifier, present from now on.
    fn id(&mut self, kind: IdKind) -> &mut TextAcc {
        match kind {
            IdKind::Public => {
                self.present |= PUBLIC_ID;
                &mut self.public_id
            }
            IdKind::System => {
                self.present |= SYSTEM_ID;
                &mut self.system_id
            }
        }
    }
}

impl Tokenizer<'_> {
    /// Whitespace in the DOCTYPE states: tab, LF, space; the compatibility profile (2016
    /// draft) adds form feed.
    fn is_doctype_space(&self, c: char) -> bool {
        matches!(c, '\t' | '\n' | ' ') || (c == '\x0C' && self.profile == Profile::Compatibility)
    }

    fn new_doctype(&mut self) {
        self.name_cut = None;
        self.doctype = DoctypeToken::default();
    }

    fn push_doctype_name(&mut self, c: char) {
        let lower = c.to_ascii_lowercase();
        let verbatim = self.cur_verbatim && lower == c;
        if self.doctype.present & NAME == 0 {
            self.doctype.present |= NAME;
            self.name_start = self.cur_at;
            self.name_cut = None;
        }
        let len = self.cur_len;
        append(
            &mut self.doctype.name,
            lower,
            self.cur_at,
            len,
            verbatim,
            &self.input,
        );
        self.name_end = self.pos();
        self.limit_doctype_name();
    }

    fn emit_doctype(&mut self) {
        self.report_name_cut();
        let mut d = std::mem::take(&mut self.doctype);
        let input = &self.input;
        let take = |bit: u8, acc: &mut TextAcc| {
            (d.present & bit != 0).then(|| acc.take().into_cow_input(input))
        };
        let name = take(NAME, &mut d.name);
        let public_id = take(PUBLIC_ID, &mut d.public_id);
        let system_id = take(SYSTEM_ID, &mut d.system_id);
        let span = self.markup_span();
        self.emit(
            TokenKind::Doctype {
                name,
                public_id,
                system_id,
            },
            span,
        );
    }

    #[cold]
    fn eof_in_doctype(&mut self) {
        self.error_here(ErrorCode::EofInDoctype);
        self.emit_doctype();
        self.reconsume_in(State::Data);
    }

    pub(super) fn doctype_state(&mut self) -> Step {
        self.new_doctype();
        match self.consume()? {
            Some(c) if self.is_doctype_space(c) => self.state = State::BeforeDoctypeName,
            None => self.eof_in_doctype(),
            Some(_) => {
                self.error_here(ErrorCode::MissingWhitespaceBeforeDoctypeName);
                self.reconsume_in(State::BeforeDoctypeName);
            }
        }
        Ok(())
    }

    pub(super) fn before_doctype_name_state(&mut self) -> Step {
        match self.consume()? {
            Some(c) if self.is_doctype_space(c) => {}
            Some('>') => {
                self.error_here(ErrorCode::MissingDoctypeName);
                self.new_doctype();
                self.emit_doctype();
                self.state = State::Data;
            }
            None => self.eof_in_doctype(),
            Some(c) => {
                self.new_doctype();
                self.push_doctype_name(c);
                self.state = State::DoctypeName;
            }
        }
        Ok(())
    }

    pub(super) fn doctype_name_state(&mut self) -> Step {
        match self.consume()? {
            Some(c) if self.is_doctype_space(c) => {
                self.doctype.depth = 0;
                self.state = State::AfterDoctypeName;
            }
            // The draft says "create a new DOCTYPE token" here, which would drop the name; we emit
            // the current one (docs/xml5.md).
            Some('>') => {
                self.emit_doctype();
                self.state = State::Data;
            }
            None => self.eof_in_doctype(),
            Some(c) => self.push_doctype_name(c),
        }
        Ok(())
    }

    pub(super) fn after_doctype_name_state(&mut self) -> Step {
        if self.profile == Profile::Compatibility {
            return self.after_doctype_name_state_2016();
        }
        loop {
            match self.consume()? {
                Some('[') => self.doctype.depth = self.doctype.depth.saturating_add(1),
                Some(']') => {
                    if self.doctype.depth == 0 {
                        self.state = State::BogusDoctype;
                        return Ok(());
                    }
                    self.doctype.depth -= 1;
                }
                Some('>') => {
                    if self.doctype.depth == 0 {
                        self.emit_doctype();
                        self.state = State::Data;
                        return Ok(());
                    }
                }
                None => {
                    self.eof_in_doctype();
                    return Ok(());
                }
                Some(_) => {}
            }
        }
    }

    pub(super) fn after_doctype_name_state_2016(&mut self) -> Step {
        if self.input.eat(b"public", true)? {
            self.state = State::AfterDoctypeKeyword(IdKind::Public);
            return Ok(());
        }
        if self.input.eat(b"system", true)? {
            self.state = State::AfterDoctypeKeyword(IdKind::System);
            return Ok(());
        }
        match self.consume()? {
            Some(c) if self.is_doctype_space(c) => {}
            Some('>') => {
                self.emit_doctype();
                self.state = State::Data;
            }
            None => self.eof_in_doctype(),
            Some(_) => {
                self.error_here(ErrorCode::InvalidCharacterSequenceAfterDoctypeName);
                self.state = State::BogusDoctype;
            }
        }
        Ok(())
    }

    fn start_doctype_id(&mut self, kind: IdKind, quote: char) {
        *self.doctype.id(kind) = TextAcc::new();
        self.state = if quote == '"' {
            State::DoctypeIdentifierDoubleQuoted(kind)
        } else {
            State::DoctypeIdentifierSingleQuoted(kind)
        };
    }

    #[cold]
    fn doctype_abrupt(&mut self, code: ErrorCode) {
        self.error_here(code);
        self.emit_doctype();
        self.state = State::Data;
    }

    pub(super) fn after_doctype_keyword_state(&mut self, kind: IdKind) -> Step {
        match self.consume()? {
            Some(c) if self.is_doctype_space(c) => {
                self.state = State::BeforeDoctypeIdentifier(kind)
            }
            Some(q @ ('"' | '\'')) => {
                self.error_here(ErrorCode::MissingWhitespaceAfterDoctypeKeyword);
                self.start_doctype_id(kind, q);
            }
            Some('>') => self.doctype_abrupt(ErrorCode::MissingQuoteBeforeDoctypeIdentifier),
            None => self.eof_in_doctype(),
            Some(_) => {
                self.error_here(ErrorCode::MissingQuoteBeforeDoctypeIdentifier);
                self.state = State::BogusDoctype;
            }
        }
        Ok(())
    }

    pub(super) fn before_doctype_identifier_state(&mut self, kind: IdKind) -> Step {
        match self.consume()? {
            Some(c) if self.is_doctype_space(c) => {}
            Some(q @ ('"' | '\'')) => self.start_doctype_id(kind, q),
            Some('>') => self.doctype_abrupt(ErrorCode::MissingQuoteBeforeDoctypeIdentifier),
            None => self.eof_in_doctype(),
            Some(_) => {
                self.error_here(ErrorCode::MissingQuoteBeforeDoctypeIdentifier);
                self.state = State::BogusDoctype;
            }
        }
        Ok(())
    }

    pub(super) fn doctype_identifier_quoted_state(&mut self, kind: IdKind, quote: char) -> Step {
        match self.consume()? {
            Some(c) if c == quote => self.state = State::AfterDoctypeIdentifier(kind),
            Some('>') => self.doctype_abrupt(ErrorCode::AbruptDoctypeIdentifier),
            None => self.eof_in_doctype(),
            Some(c) => {
                let (at, len, verbatim) = (self.cur_at, self.cur_len, self.cur_verbatim);
                append(self.doctype.id(kind), c, at, len, verbatim, &self.input);
            }
        }
        Ok(())
    }

    pub(super) fn after_doctype_identifier_state(&mut self, kind: IdKind) -> Step {
        match (kind, self.consume()?) {
            (_, Some(c)) if self.is_doctype_space(c) => {
                if kind == IdKind::Public {
                    self.state = State::BetweenDoctypePublicAndSystemIdentifiers;
                }
            }
            (IdKind::Public, Some(q @ ('"' | '\''))) => {
                self.error_here(ErrorCode::MissingWhitespaceBetweenDoctypeIdentifiers);
                self.start_doctype_id(IdKind::System, q);
            }
            (_, Some('>')) => {
                self.emit_doctype();
                self.state = State::Data;
            }
            (_, None) => self.eof_in_doctype(),
            (_, Some(_)) => {
                self.error_here(ErrorCode::UnexpectedCharacterAfterDoctypeIdentifier);
                self.state = State::BogusDoctype;
            }
        }
        Ok(())
    }

    pub(super) fn between_doctype_public_and_system_identifiers_state(&mut self) -> Step {
        match self.consume()? {
            Some(c) if self.is_doctype_space(c) => {}
            Some('>') => {
                self.emit_doctype();
                self.state = State::Data;
            }
            // xml5lib: the system identifier is not cleared first, so `''` leaves it absent.
            Some('\'') => self.state = State::DoctypeIdentifierSingleQuoted(IdKind::System),
            Some('"') => self.state = State::DoctypeIdentifierDoubleQuoted(IdKind::System),
            None => self.eof_in_doctype(),
            Some(_) => {
                self.error_here(ErrorCode::UnexpectedCharacterAfterDoctypeIdentifier);
                self.state = State::BogusDoctype;
            }
        }
        Ok(())
    }

    pub(super) fn bogus_doctype_state(&mut self) -> Step {
        loop {
            match self.consume()? {
                Some('>') => {
                    self.state = State::Data;
                    self.emit_doctype();
                    return Ok(());
                }
                None => {
                    self.emit_doctype();
                    self.reconsume_in(State::Data);
                    return Ok(());
                }
                Some(_) => {}
            }
        }
    }
}
