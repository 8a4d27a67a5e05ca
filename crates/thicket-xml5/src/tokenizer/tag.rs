//! The draft's data state and tag states: "Data state" to "Tag attribute value unquoted
//! state", and emitting the tag.

use thicket_input::scan::StopSet;

use super::runs::{ATTR_NAME, DQ_VALUE, SQ_VALUE, TAG_NAME, TEXT, UNQUOTED_VALUE};
use super::{Profile, State, Step, TagKind, Tokenizer, append};
use crate::error::ErrorCode;
use crate::token::TokenKind;

impl Tokenizer<'_> {
    /// Data state, with a fast path over runs of characters that need no work.
    pub(super) fn data_state(&mut self) -> Step {
        self.text_run();
        match self.consume()? {
            Some('&') => self.start_char_ref(State::CharacterReferenceInData, State::Data, None),
            Some('<') => {
                self.markup_start = self.cur_at;
                self.state = State::TagOpen;
            }
            None => self.emit_eof(),
            Some(_) => self.push_cur_text(),
        }
        Ok(())
    }

    /// Appends the run of ordinary text characters at the input position to the text.
    fn text_run(&mut self) {
        if let Some((start, end)) = self.plain_run(&TEXT) {
            self.text_span(start, end);
            self.text.push_range(start, end, &self.input);
        }
    }

    pub(super) fn tag_open_state(&mut self) -> Step {
        match self.consume()? {
            Some('/') => self.state = State::EndTagOpen,
            Some('?') => self.state = State::Pi,
            Some('!') => self.state = State::MarkupDeclaration,
            Some('\t' | '\n' | ' ' | ':' | '<' | '>') | None => {
                self.error_here(ErrorCode::InvalidFirstCharacterOfTagName);
                self.push_text('<', self.markup_start, 1, true);
                self.reconsume_in(State::Data);
            }
            Some(_) => {
                self.new_tag(TagKind::Start);
                self.push_cur_tag_name();
                self.state = State::TagName;
            }
        }
        Ok(())
    }

    pub(super) fn end_tag_open_state(&mut self) -> Step {
        match self.consume()? {
            Some('>') => {
                let span = self.markup_span();
                self.emit(TokenKind::ShortEndTag, span);
                self.state = State::Data;
            }
            Some('\t' | '\n' | ' ' | '<' | ':') | None => {
                self.error_here(ErrorCode::InvalidFirstCharacterOfEndTagName);
                self.push_text('<', self.markup_start, 1, true);
                self.push_text('/', self.markup_start + 1, 1, true);
                self.reconsume_in(State::Data);
            }
            Some(_) => {
                self.new_tag(TagKind::End);
                self.push_cur_tag_name();
                self.state = State::EndTagName;
            }
        }
        Ok(())
    }

    pub(super) fn end_tag_name_state(&mut self) -> Step {
        if let Some((start, end)) = self.plain_run(&TAG_NAME) {
            self.tag_name.push_range(start, end, &self.input);
            self.name_end = end;
            self.limit_tag_name();
        }
        match self.consume()? {
            Some('\t' | '\n' | ' ') => self.state = State::EndTagNameAfter,
            Some('/') => {
                self.error_here(ErrorCode::SolidusInEndTag);
                self.state = State::EndTagNameAfter;
            }
            None => self.eof_in_tag(None),
            Some('>') => self.emit_tag(None),
            Some(_) => self.push_cur_tag_name(),
        }
        Ok(())
    }

    pub(super) fn end_tag_name_after_state(&mut self) -> Step {
        match self.consume()? {
            Some('>') => self.emit_tag(None),
            Some('\t' | '\n' | ' ') => {}
            None => self.eof_in_tag(None),
            Some(_) => self.error_here(ErrorCode::UnexpectedCharacterAfterEndTagName),
        }
        Ok(())
    }

    pub(super) fn tag_name_state(&mut self) -> Step {
        if let Some((start, end)) = self.plain_run(&TAG_NAME) {
            self.tag_name.push_range(start, end, &self.input);
            self.name_end = end;
            self.limit_tag_name();
        }
        match self.consume()? {
            Some('\t' | '\n' | ' ') => self.state = State::TagAttributeNameBefore,
            Some('>') => self.emit_tag(None),
            None => self.eof_in_tag(None),
            Some('/') => {
                self.tag_kind = TagKind::Empty;
                self.state = State::EmptyTag;
            }
            Some(_) => self.push_cur_tag_name(),
        }
        Ok(())
    }

    pub(super) fn empty_tag_state(&mut self) -> Step {
        match self.consume()? {
            Some('>') => {
                self.tag_kind = TagKind::Empty;
                self.emit_tag(None);
            }
            None if self.profile == Profile::Compatibility => {
                // xml5lib: an error here, and another in the attribute name before state.
                self.error_here(ErrorCode::EofInTag);
                self.reconsume_in(State::TagAttributeNameBefore);
            }
            _ => self.reconsume_in(State::TagAttributeValueBefore),
        }
        Ok(())
    }

    pub(super) fn tag_attribute_name_before_state(&mut self) -> Step {
        match self.consume()? {
            Some('\t' | '\n' | ' ') => {}
            Some('>') => self.emit_tag(None),
            Some('/') => {
                self.tag_kind = TagKind::Empty;
                self.state = State::EmptyTag;
            }
            Some(':') => self.error_here(ErrorCode::ColonBeforeAttr),
            None => self.eof_in_tag(None),
            Some(_) => {
                self.new_attribute();
                self.state = State::TagAttributeName;
            }
        }
        Ok(())
    }

    pub(super) fn tag_attribute_name_state(&mut self) -> Step {
        if let Some((start, end)) = self.plain_run(&ATTR_NAME) {
            self.attr_name.push_range(start, end, &self.input);
            self.attr_end = end;
            self.attr_name_end = end;
            self.limit_attribute_name();
        }
        match self.consume()? {
            Some('=') => self.state = State::TagAttributeValueBefore,
            Some('>') => self.emit_tag(self.draft_start()),
            Some('\t' | '\n' | ' ') => self.state = State::TagAttributeNameAfter,
            Some('/') => {
                self.tag_kind = TagKind::Empty;
                self.state = State::EmptyTag;
            }
            None => self.eof_in_tag(Some(TagKind::Start)),
            Some(c) => {
                append(
                    &mut self.attr_name,
                    c,
                    self.cur_at,
                    self.cur_len,
                    self.cur_verbatim,
                    &self.input,
                );
                self.attr_end = self.pos();
                self.attr_name_end = self.pos();
                self.limit_attribute_name();
            }
        }
        Ok(())
    }

    pub(super) fn tag_attribute_name_after_state(&mut self) -> Step {
        match self.consume()? {
            Some('\t' | '\n' | ' ') => {}
            Some('=') => self.state = State::TagAttributeValueBefore,
            Some('>') => self.emit_tag(None),
            Some('/') => {
                self.tag_kind = TagKind::Empty;
                self.state = State::EmptyTag;
            }
            None => self.eof_in_tag(None),
            Some(_) => {
                self.new_attribute();
                self.state = State::TagAttributeName;
            }
        }
        Ok(())
    }

    pub(super) fn tag_attribute_value_before_state(&mut self) -> Step {
        match self.consume()? {
            Some('\t' | '\n' | ' ') => {}
            Some('"') => {
                self.start_value(self.pos());
                self.state = State::TagAttributeValueDoubleQuoted;
            }
            Some('\'') => {
                self.start_value(self.pos());
                self.state = State::TagAttributeValueSingleQuoted;
            }
            Some('&') => {
                self.start_value(self.cur_at);
                self.reconsume_in(State::TagAttributeValueUnquoted);
            }
            Some('>') => self.emit_tag(None),
            None => self.eof_in_tag(None),
            Some(_) => {
                self.start_value(self.cur_at);
                self.push_cur_value();
                self.state = State::TagAttributeValueUnquoted;
            }
        }
        Ok(())
    }

    pub(super) fn tag_attribute_value_quoted_state(&mut self, quote: char) -> Step {
        let here = if quote == '"' {
            State::TagAttributeValueDoubleQuoted
        } else {
            State::TagAttributeValueSingleQuoted
        };
        let set: &StopSet = if quote == '"' { &DQ_VALUE } else { &SQ_VALUE };
        loop {
            if let Some((start, end)) = self.plain_run(set) {
                self.attr_value.push_range(start, end, &self.input);
                self.attr_end = end;
                self.attr_value_end = end;
                self.limit_attribute_value();
            }
            match self.consume()? {
                Some(c) if c == quote => {
                    self.attr_end = self.pos();
                    self.state = State::TagAttributeNameBefore;
                    return Ok(());
                }
                Some('&') => {
                    self.start_char_ref(
                        State::CharacterReferenceInAttributeValue,
                        here,
                        Some(quote),
                    );
                    return Ok(());
                }
                None => {
                    self.eof_in_tag(None);
                    return Ok(());
                }
                Some(_) => self.push_cur_value(),
            }
        }
    }

    pub(super) fn tag_attribute_value_unquoted_state(&mut self) -> Step {
        if let Some((start, end)) = self.plain_run(&UNQUOTED_VALUE) {
            self.attr_value.push_range(start, end, &self.input);
            self.attr_end = end;
            self.attr_value_end = end;
            self.limit_attribute_value();
        }
        match self.consume()? {
            Some('\t' | '\n' | ' ') => self.state = State::TagAttributeNameBefore,
            Some('&') => {
                let additional = match self.profile {
                    Profile::Draft => Some('>'),
                    Profile::Compatibility => None,
                };
                self.start_char_ref(
                    State::CharacterReferenceInAttributeValue,
                    State::TagAttributeValueUnquoted,
                    additional,
                );
            }
            Some('>') => self.emit_tag(self.draft_start()),
            None => self.eof_in_tag(self.draft_start()),
            Some(_) => self.push_cur_value(),
        }
        Ok(())
    }

    /// In the draft profile, the states that say "emit the current token as start tag token".
    fn draft_start(&self) -> Option<TagKind> {
        match self.profile {
            Profile::Draft => Some(TagKind::Start),
            Profile::Compatibility => None,
        }
    }

    /// Emits the tag in progress, as `kind` when given, and switches to the data state.
    fn emit_tag(&mut self, kind: Option<TagKind>) {
        self.finish_attribute();
        self.report_name_cut();
        let name = self.tag_name.take().into_cow_input(&self.input);
        // The next tag likely has as many attributes: allocate once for it.
        let capacity = self.attrs.len();
        let attributes = std::mem::replace(&mut self.attrs, Vec::with_capacity(capacity));
        self.attr_names.clear();
        let kind = match kind.unwrap_or(self.tag_kind) {
            TagKind::Start => TokenKind::StartTag { name, attributes },
            TagKind::Empty => TokenKind::EmptyTag { name, attributes },
            TagKind::End => TokenKind::EndTag { name },
        };
        let span = self.markup_span();
        self.emit(kind, span);
        self.state = State::Data;
    }

    fn eof_in_tag(&mut self, kind: Option<TagKind>) {
        self.error_here(ErrorCode::EofInTag);
        self.emit_tag(kind);
        self.reconsume_in(State::Data);
    }
}
