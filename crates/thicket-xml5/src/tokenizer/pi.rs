//! The draft's processing instruction states ("Pi state" to "Pi after state") and, in the
//! draft profile, the XML declaration states ("XML declaration state" to "XML declaration
//! after state").

use std::borrow::Cow;

use thicket_input::TextAcc;
use thicket_input::cursor::NeedMore;

use super::runs::{DECL_DQ_VALUE, DECL_SQ_VALUE, PI_DATA, run_end};
use super::{Profile, State, Step, Tokenizer, append};
use crate::error::ErrorCode;
use crate::token::TokenKind;

/// A pseudo-attribute of the XML declaration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum DeclAttr {
    #[default]
    Version,
    Encoding,
    Standalone,
}

/// The XML declaration in progress (draft profile).
#[derive(Clone, Debug, Default)]
pub(super) struct Declaration<'a> {
    /// What was read since `<?xml` (the data, should it turn into a processing instruction).
    raw: TextAcc,
    attr: DeclAttr,
    value: TextAcc,
    /// `version`, `encoding`, `standalone`.
    values: [Option<Cow<'a, str>>; 3],
}

impl Declaration<'_> {
    /// The strings under construction (for compaction).
    pub(super) fn strings(&mut self) -> [&mut TextAcc; 2] {
        [&mut self.raw, &mut self.value]
    }
}

impl<'a> Tokenizer<'a> {
    pub(super) fn pi_state(&mut self) -> Step {
        if self.profile == Profile::Draft && !self.reconsume && self.xml_declaration_start()? {
            if self.plain_xml_declaration() {
                return Ok(());
            }
            self.decl.raw = TextAcc::new();
            self.decl.values = [None, None, None];
            self.state = State::XmlDeclaration;
            return Ok(());
        }
        match self.consume()? {
            Some('\t' | '\n' | ' ') | None => {
                self.error_here(ErrorCode::MissingPiTarget);
                self.comment = TextAcc::new();
                self.reconsume_in(State::BogusComment);
            }
            Some(c) => {
                self.pi_target = TextAcc::new();
                self.pi_data = TextAcc::new();
                append(
                    &mut self.pi_target,
                    c,
                    self.cur_at,
                    self.cur_len,
                    self.cur_verbatim,
                    &self.input,
                );
                self.name_start = self.cur_at;
                self.name_end = self.pos();
                self.name_cut = None;
                self.state = State::PiTarget;
            }
        }
        Ok(())
    }

    /// Draft profile: `xml` followed by whitespace starts an XML declaration (`xml-stylesheet`
    /// and the like stay processing instructions; see docs/xml5.md).
    fn xml_declaration_start(&mut self) -> Result<bool, NeedMore> {
        if !self.input.starts_with(b"xml", false)? {
            return Ok(false);
        }
        let Some(after) = self.input.peek_byte_at(3) else {
            return if self.input.is_finished() {
                Ok(false)
            } else {
                Err(NeedMore)
            };
        };
        if matches!(after, b'\t' | b'\n' | b'\r' | b' ') {
            self.input.advance(3);
            return Ok(true);
        }
        Ok(false)
    }

    /// The direct path for a plain XML declaration, after `<?xml` and before the whitespace
    /// that made it one: when the buffer holds it whole to its `?>` and it is plain (each of
    /// `version`, `encoding`, `standalone` followed by `=` and a quoted value, with whitespace
    /// anywhere the states skip it, values of characters the states take as they are), emits
    /// the token the declaration states would and returns true, the input past the `?>`. Any
    /// other character, or the end of the buffer, returns false having changed nothing: the
    /// states read the declaration (so the tokens and diagnostics stay theirs, also for a
    /// declaration that turns into a processing instruction). The values are ranges of the
    /// input (the first of each name wins, as in the states); nothing is built character by
    /// character.
    fn plain_xml_declaration(&mut self) -> bool {
        if !self.fast {
            return false;
        }
        let text = self.input.text();
        let b = text.as_bytes();
        let skip_space = |mut i: usize| {
            while let Some(b'\t' | b'\n' | b' ') = b.get(i) {
                i += 1;
            }
            i
        };
        let mut i = self.input.index();
        let mut values: [Option<(usize, usize)>; 3] = [None; 3];
        let end = loop {
            // XML declaration state.
            i = skip_space(i);
            let attr = match b.get(i) {
                Some(b'?') if b.get(i + 1) == Some(&b'>') => break i + 2,
                Some(b'v') if b[i..].starts_with(b"version") => (DeclAttr::Version, 7),
                Some(b'e') if b[i..].starts_with(b"encoding") => (DeclAttr::Encoding, 8),
                Some(b's') if b[i..].starts_with(b"standalone") => (DeclAttr::Standalone, 10),
                _ => return false,
            };
            // Attribute name after state, attribute value before state.
            i = skip_space(i + attr.1);
            if b.get(i) != Some(&b'=') {
                return false;
            }
            i = skip_space(i + 1);
            let (quote, set) = match b.get(i) {
                Some(b'"') => (b'"', &DECL_DQ_VALUE),
                Some(b'\'') => (b'\'', &DECL_SQ_VALUE),
                _ => return false,
            };
            // Attribute value (quoted) state: a run of characters taken as they are, then the
            // quote (a `?`, CR, U+0000, control, noncharacter or the buffer's end: the states).
            let start = i + 1;
            i = run_end(set, text, start);
            if b.get(i) != Some(&quote) {
                return false;
            }
            let slot = &mut values[attr.0 as usize];
            if slot.is_none() {
                *slot = Some((start, i));
            }
            i += 1;
        };
        let base = self.input.base();
        let values = values.map(|v| v.map(|(s, e)| self.input.slice_cow(base + s, base + e)));
        self.input.set_index(end);
        self.emit_declaration_values(values);
        self.state = State::Data;
        true
    }

    fn emit_pi(&mut self) {
        self.report_name_cut();
        let target = self.pi_target.take().into_cow_input(&self.input);
        let data = self.pi_data.take().into_cow_input(&self.input);
        let span = self.markup_span();
        self.emit(TokenKind::Pi { target, data }, span);
    }

    pub(super) fn pi_target_state(&mut self) -> Step {
        match self.consume()? {
            Some('\t' | '\n' | ' ') => self.state = State::PiTargetAfter,
            None => {
                self.error_here(ErrorCode::EofInPi);
                self.emit_pi();
                self.reconsume_in(State::Data);
            }
            Some('?') => self.state = State::PiAfter,
            Some(c) => {
                append(
                    &mut self.pi_target,
                    c,
                    self.cur_at,
                    self.cur_len,
                    self.cur_verbatim,
                    &self.input,
                );
                self.name_end = self.pos();
                self.limit_pi_target();
            }
        }
        Ok(())
    }

    pub(super) fn pi_target_after_state(&mut self) -> Step {
        match self.consume()? {
            Some('\t' | '\n' | ' ') => {}
            _ => self.reconsume_in(State::PiData),
        }
        Ok(())
    }

    pub(super) fn pi_data_state(&mut self) -> Step {
        loop {
            if let Some((start, end)) = self.plain_run(&PI_DATA) {
                self.pi_data.push_range(start, end, &self.input);
            }
            match self.consume()? {
                Some('?') => {
                    self.state = State::PiAfter;
                    return Ok(());
                }
                None => {
                    self.error_here(ErrorCode::EofInPi);
                    self.emit_pi();
                    self.reconsume_in(State::Data);
                    return Ok(());
                }
                Some(c) => append(
                    &mut self.pi_data,
                    c,
                    self.cur_at,
                    self.cur_len,
                    self.cur_verbatim,
                    &self.input,
                ),
            }
        }
    }

    pub(super) fn pi_after_state(&mut self) -> Step {
        match self.consume()? {
            Some('>') => {
                self.emit_pi();
                self.state = State::Data;
            }
            Some('?') => append(&mut self.pi_data, '?', self.cur_at, 1, true, &self.input),
            // Both profiles: the `?` before is dropped and the character is data again (the
            // draft's rule; the one xml5lib case that reaches here, `?m?>`, expects the same).
            _ => self.reconsume_in(State::PiData),
        }
        Ok(())
    }

    // ------------------------------------------------------------ XML declaration (draft)

    fn push_cur_raw(&mut self) {
        if let Some(c) = self.cur
            && !(self.decl.raw.is_empty() && matches!(c, '\t' | '\n' | ' '))
        {
            append(
                &mut self.decl.raw,
                c,
                self.cur_at,
                self.cur_len,
                self.cur_verbatim,
                &self.input,
            );
        }
    }

    /// An invalid declaration becomes a processing instruction `xml` whose data is what was read.
    fn set_xml_target(&mut self) {
        self.pi_target = TextAcc::new();
        for (i, c) in "xml".chars().enumerate() {
            let at = self.markup_start + 2 + i;
            append(&mut self.pi_target, c, at, 1, true, &self.input);
        }
    }

    #[cold]
    fn xml_declaration_to_pi(&mut self) {
        self.error_here(ErrorCode::InvalidXmlDeclaration);
        self.set_xml_target();
        self.pi_data = std::mem::take(&mut self.decl.raw);
        self.reconsume_in(State::PiData);
    }

    #[cold]
    fn eof_in_xml_declaration_pi(&mut self) {
        self.error_here(ErrorCode::EofInXmlDeclaration);
        self.set_xml_target();
        self.pi_data = std::mem::take(&mut self.decl.raw);
        self.emit_pi();
        self.reconsume_in(State::Data);
    }

    fn emit_xml_declaration(&mut self) {
        self.decl.raw = TextAcc::new();
        let values = std::mem::take(&mut self.decl.values);
        self.emit_declaration_values(values);
    }

    /// Emits the XML declaration token of `values` (version, encoding, standalone), spanning
    /// the markup read (the states' way and the direct path's).
    fn emit_declaration_values(
        &mut self,
        [version, encoding, standalone]: [Option<Cow<'a, str>>; 3],
    ) {
        let span = self.markup_span();
        self.emit(
            TokenKind::XmlDeclaration {
                version,
                encoding,
                standalone,
            },
            span,
        );
    }

    pub(super) fn xml_declaration_state(&mut self) -> Step {
        match self.consume()? {
            Some('\t' | '\n' | ' ') => self.push_cur_raw(),
            Some('v' | 'e' | 's') => self.reconsume_in(State::XmlDeclarationAttributeName),
            Some('?') => {
                self.push_cur_raw();
                self.state = State::XmlDeclarationAfter;
            }
            None => self.eof_in_xml_declaration_pi(),
            Some(_) => self.xml_declaration_to_pi(),
        }
        Ok(())
    }

    pub(super) fn xml_declaration_attribute_name_state(&mut self) -> Step {
        if self.reconsume {
            // The lookahead below reads the reconsumed ASCII letter from the input again.
            self.reconsume = false;
            self.input.set_offset(self.cur_at);
        }
        let start = self.pos();
        for (word, attr) in [
            ("version", DeclAttr::Version),
            ("encoding", DeclAttr::Encoding),
            ("standalone", DeclAttr::Standalone),
        ] {
            if self.input.eat(word.as_bytes(), false)? {
                self.decl.raw.push_range(start, self.pos(), &self.input);
                self.decl.attr = attr;
                self.state = State::XmlDeclarationAttributeNameAfter;
                return Ok(());
            }
        }
        self.consume()?;
        self.xml_declaration_to_pi();
        Ok(())
    }

    pub(super) fn xml_declaration_attribute_name_after_state(&mut self) -> Step {
        match self.consume()? {
            Some('\t' | '\n' | ' ') => self.push_cur_raw(),
            Some('=') => {
                self.push_cur_raw();
                self.state = State::XmlDeclarationAttributeValueBefore;
            }
            None => self.eof_in_xml_declaration_pi(),
            Some(_) => self.xml_declaration_to_pi(),
        }
        Ok(())
    }

    pub(super) fn xml_declaration_attribute_value_before_state(&mut self) -> Step {
        match self.consume()? {
            Some('\t' | '\n' | ' ') => self.push_cur_raw(),
            Some('\'') => {
                self.push_cur_raw();
                self.decl.value = TextAcc::new();
                self.state = State::XmlDeclarationAttributeValueSingleQuoted;
            }
            Some('"') => {
                self.push_cur_raw();
                self.decl.value = TextAcc::new();
                self.state = State::XmlDeclarationAttributeValueDoubleQuoted;
            }
            None => self.eof_in_xml_declaration_pi(),
            Some(_) => self.xml_declaration_to_pi(),
        }
        Ok(())
    }

    fn store_decl_value(&mut self) {
        let value = self.decl.value.take().into_cow_input(&self.input);
        let slot = &mut self.decl.values[self.decl.attr as usize];
        if slot.is_none() {
            *slot = Some(value);
        }
    }

    pub(super) fn xml_declaration_attribute_value_quoted_state(&mut self, quote: char) -> Step {
        // A run of characters the last arm would take one by one goes in at once (a state
        // step per character cost more than the rest of a short document's declaration).
        let set = if quote == '"' {
            &DECL_DQ_VALUE
        } else {
            &DECL_SQ_VALUE
        };
        loop {
            if let Some((start, end)) = self.plain_run(set) {
                self.decl.raw.push_range(start, end, &self.input);
                self.decl.value.push_range(start, end, &self.input);
            }
            match self.consume()? {
                Some(c) if c == quote => {
                    self.push_cur_raw();
                    self.store_decl_value();
                    self.state = State::XmlDeclaration;
                }
                Some('?') => {
                    self.push_cur_raw();
                    self.error_here(ErrorCode::AbruptClosingXmlDeclaration);
                    self.store_decl_value();
                    self.state = State::XmlDeclarationAfter;
                }
                None => {
                    self.error_here(ErrorCode::EofInXmlDeclaration);
                    self.store_decl_value();
                    self.emit_xml_declaration();
                    self.reconsume_in(State::Data);
                }
                Some(c) => {
                    self.push_cur_raw();
                    append(
                        &mut self.decl.value,
                        c,
                        self.cur_at,
                        self.cur_len,
                        self.cur_verbatim,
                        &self.input,
                    );
                    continue;
                }
            }
            return Ok(());
        }
    }

    pub(super) fn xml_declaration_after_state(&mut self) -> Step {
        match self.consume()? {
            Some('>') => {
                self.emit_xml_declaration();
                self.state = State::Data;
            }
            Some('?') => self.push_cur_raw(),
            None => {
                self.error_here(ErrorCode::EofInXmlDeclaration);
                self.emit_xml_declaration();
                self.reconsume_in(State::Data);
            }
            Some(_) => self.xml_declaration_to_pi(),
        }
        Ok(())
    }
}
