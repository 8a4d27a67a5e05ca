//! Tags: the tag open, end tag open and tag name states (12.2.5.6-8), the attribute states
//! (32-40) and the self-closing start tag state, with the tag and attribute under construction.

use thicket_input::TextAcc;
use thicket_input::scan::StopSet;
use thicket_names::html as names;

use super::{Pending, Step, Tokenizer, stops};
use crate::error::ErrorCode;
use crate::state::State;
use thicket_input::Span;

/// An attribute under construction.
#[derive(Default)]
pub(super) struct AttrBuild {
    pub(super) name: TextAcc,
    pub(super) value: TextAcc,
    pub(super) start: usize,
    pub(super) end: usize,
}

/// A tag under construction.
#[derive(Default)]
pub(super) struct TagBuild {
    pub(super) end_tag: bool,
    pub(super) name: TextAcc,
    pub(super) attrs: Vec<AttrBuild>,
    pub(super) self_closing: bool,
}

/// Names above this many attributes are checked for duplicates with a keyed index.
pub(super) const LINEAR_DUPLICATE_LIMIT: usize = 16;

/// Tag and attribute names run until whitespace, `/`, `>`, `=` (attribute names; in a tag name a
/// plain character), the characters that are errors in names and the uppercase letters (which
/// are lowercased).
pub(super) static NAME: StopSet = stops(b"/>\"'<=")
    .stop(names::ASCII_WHITESPACE)
    .stop(names::ASCII_UPPER_ALPHA);
/// The attribute value (double-quoted) state's runs.
pub(super) static DOUBLE_QUOTED: StopSet = stops(b"\"&");
/// The attribute value (single-quoted) state's runs.
pub(super) static SINGLE_QUOTED: StopSet = stops(b"'&");
/// The attribute value (unquoted) state's runs: whitespace, `&`, `>` and the characters that are
/// errors there.
static UNQUOTED: StopSet = stops(b"&>\"'<=`").stop(names::ASCII_WHITESPACE);

impl<'a> Tokenizer<'a> {
    /// 12.2.5.6 Tag open state.
    pub(super) fn tag_open_state(&mut self) -> Step {
        match self.cur()? {
            Some('!') => {
                self.consume();
                self.state = State::MarkupDeclarationOpen;
            }
            Some('/') => {
                self.consume();
                self.state = State::EndTagOpen;
                return self.end_tag_open_state();
            }
            Some(c) if names::is_ascii_alpha_char(c) => {
                self.new_tag(false);
                self.state = State::TagName;
                return self.tag_name_state();
            }
            Some('?') if self.options.legacy_processing_instructions => {
                self.error(ErrorCode::UnexpectedQuestionMarkInsteadOfTagName);
                self.start_comment();
                self.state = State::BogusComment;
            }
            Some('?') => self.tag_open_question_mark(),
            None => {
                self.error(ErrorCode::EofBeforeTagName);
                self.emit_raw(self.token_start, self.pos());
                return self.emit_eof();
            }
            Some(_) => {
                self.error(ErrorCode::InvalidFirstCharacterOfTagName);
                self.emit_raw(self.token_start, self.pos());
                self.state = State::Data;
            }
        }
        Ok(())
    }

    /// 12.2.5.7 End tag open state.
    pub(super) fn end_tag_open_state(&mut self) -> Step {
        match self.cur()? {
            Some(c) if names::is_ascii_alpha_char(c) => {
                self.new_tag(true);
                self.state = State::TagName;
                return self.tag_name_state();
            }
            Some('>') => {
                self.error(ErrorCode::MissingEndTagName);
                self.consume();
                self.push_token(Pending::Discarded(Span::new(self.token_start, self.pos())));
                self.state = State::Data;
            }
            None => {
                self.error(ErrorCode::EofBeforeTagName);
                self.emit_raw(self.token_start, self.pos());
                return self.emit_eof();
            }
            Some(_) => {
                self.error(ErrorCode::InvalidFirstCharacterOfTagName);
                self.start_comment();
                self.state = State::BogusComment;
            }
        }
        Ok(())
    }

    /// 12.2.5.8 Tag name state.
    pub(super) fn tag_name_state(&mut self) -> Step {
        let end = self.scan(&NAME);
        if end > self.pos() {
            self.tag_name_append_raw(self.pos(), end);
            self.input.set_offset(end);
        }
        match self.cur()? {
            Some(c) if names::is_ascii_whitespace_char(c) => {
                self.consume();
                self.state = State::BeforeAttributeName;
                return self.before_attribute_name_state();
            }
            Some('/') => {
                self.consume();
                self.state = State::SelfClosingStartTag;
            }
            Some('>') => {
                self.consume();
                self.state = State::Data;
                self.emit_tag();
            }
            Some('\0') => {
                self.error(ErrorCode::UnexpectedNullCharacter);
                self.tag_name_append_str("\u{FFFD}", self.pos(), self.pos() + self.cw);
                self.consume();
            }
            None => return self.eof_in_tag(),
            Some(c) => self.append_tag_name_limited(c),
        }
        Ok(())
    }

    // ---------------------------------------------------------------------------------------
    // 12.2.5.32 - 12.2.5.40: attributes.

    /// 12.2.5.32 Before attribute name state.
    pub(super) fn before_attribute_name_state(&mut self) -> Step {
        if self.direct != super::Direct::Off
            && let Some(step) = self.fast_attributes()
        {
            return step;
        }
        match self.cur()? {
            Some(c) if names::is_ascii_whitespace_char(c) => self.consume(),
            Some('/' | '>') | None => self.state = State::AfterAttributeName,
            Some('=') => {
                self.error(ErrorCode::UnexpectedEqualsSignBeforeAttributeName);
                self.start_attribute();
                self.attr_push_current(true);
                self.state = State::AttributeName;
            }
            Some(_) => {
                self.start_attribute();
                self.state = State::AttributeName;
                return self.attribute_name_state();
            }
        }
        Ok(())
    }

    /// 12.2.5.33 Attribute name state.
    pub(super) fn attribute_name_state(&mut self) -> Step {
        let end = self.scan(&NAME);
        if end > self.pos() {
            self.attr_append_raw(true, self.pos(), end);
            self.input.set_offset(end);
        }
        match self.cur()? {
            Some(c) if names::is_ascii_whitespace_char(c) || c == '/' || c == '>' => {
                self.check_duplicate_attribute();
                self.state = State::AfterAttributeName;
            }
            None => {
                self.check_duplicate_attribute();
                self.state = State::AfterAttributeName;
            }
            Some('=') => {
                self.check_duplicate_attribute();
                self.consume();
                self.state = State::BeforeAttributeValue;
                return self.before_attribute_value_state();
            }
            Some(c) if names::is_ascii_upper_alpha_char(c) => {
                self.attr_push_char(true, c.to_ascii_lowercase())
            }
            Some('\0') => {
                self.error(ErrorCode::UnexpectedNullCharacter);
                self.attr_push_char(true, '\u{FFFD}');
            }
            Some(c) => {
                if matches!(c, '"' | '\'' | '<') {
                    self.error(ErrorCode::UnexpectedCharacterInAttributeName);
                }
                self.attr_push_current(true);
            }
        }
        Ok(())
    }

    /// 12.2.5.34 After attribute name state.
    pub(super) fn after_attribute_name_state(&mut self) -> Step {
        match self.cur()? {
            Some(c) if names::is_ascii_whitespace_char(c) => self.consume(),
            Some('/') => {
                self.consume();
                self.state = State::SelfClosingStartTag;
            }
            Some('=') => {
                self.consume();
                self.state = State::BeforeAttributeValue;
            }
            Some('>') => {
                self.consume();
                self.state = State::Data;
                self.emit_tag();
            }
            None => return self.eof_in_tag(),
            Some(_) => {
                self.start_attribute();
                self.state = State::AttributeName;
            }
        }
        Ok(())
    }

    /// 12.2.5.35 Before attribute value state.
    pub(super) fn before_attribute_value_state(&mut self) -> Step {
        match self.cur()? {
            Some(c) if names::is_ascii_whitespace_char(c) => self.consume(),
            Some('"') => {
                self.consume();
                self.state = State::AttributeValueDoubleQuoted;
                return self.attribute_value_double_quoted_state();
            }
            Some('\'') => {
                self.consume();
                self.state = State::AttributeValueSingleQuoted;
                return self.attribute_value_single_quoted_state();
            }
            Some('>') => {
                self.error(ErrorCode::MissingAttributeValue);
                self.consume();
                self.state = State::Data;
                self.emit_tag();
            }
            Some(_) | None => self.state = State::AttributeValueUnquoted,
        }
        Ok(())
    }

    /// 12.2.5.36 Attribute value (double-quoted) state.
    pub(super) fn attribute_value_double_quoted_state(&mut self) -> Step {
        self.attribute_value_quoted('"', &DOUBLE_QUOTED)
    }

    /// 12.2.5.37 Attribute value (single-quoted) state.
    pub(super) fn attribute_value_single_quoted_state(&mut self) -> Step {
        self.attribute_value_quoted('\'', &SINGLE_QUOTED)
    }

    /// The two quoted attribute value states differ in their quote.
    #[inline(always)]
    fn attribute_value_quoted(&mut self, quote: char, run: &StopSet) -> Step {
        let end = self.scan(run);
        if end > self.pos() {
            self.attr_append_raw(false, self.pos(), end);
            self.input.set_offset(end);
        }
        match self.cur()? {
            Some(c) if c == quote => {
                self.consume();
                let pos = self.pos();
                if let Some(a) = self.attr.as_mut() {
                    a.end = pos;
                }
                self.state = State::AfterAttributeValueQuoted;
                return self.after_attribute_value_quoted_state();
            }
            Some('&') => {
                self.return_state = self.state;
                self.charref_start = self.pos();
                self.consume();
                self.state = State::CharacterReference;
            }
            Some('\0') => {
                self.error(ErrorCode::UnexpectedNullCharacter);
                self.attr_push_char(false, '\u{FFFD}');
            }
            None => return self.eof_in_tag(),
            Some(_) => self.attr_push_current(false),
        }
        Ok(())
    }

    /// 12.2.5.38 Attribute value (unquoted) state.
    pub(super) fn attribute_value_unquoted_state(&mut self) -> Step {
        let end = self.scan(&UNQUOTED);
        if end > self.pos() {
            self.attr_append_raw(false, self.pos(), end);
            self.input.set_offset(end);
        }
        match self.cur()? {
            Some(c) if names::is_ascii_whitespace_char(c) => {
                self.consume();
                self.state = State::BeforeAttributeName;
            }
            Some('&') => {
                self.return_state = State::AttributeValueUnquoted;
                self.charref_start = self.pos();
                self.consume();
                self.state = State::CharacterReference;
            }
            Some('>') => {
                self.consume();
                self.state = State::Data;
                self.emit_tag();
            }
            Some('\0') => {
                self.error(ErrorCode::UnexpectedNullCharacter);
                self.attr_push_char(false, '\u{FFFD}');
            }
            None => return self.eof_in_tag(),
            Some(c) => {
                if matches!(c, '"' | '\'' | '<' | '=' | '`') {
                    self.error(ErrorCode::UnexpectedCharacterInUnquotedAttributeValue);
                }
                self.attr_push_current(false);
            }
        }
        Ok(())
    }

    /// 12.2.5.39 After attribute value (quoted) state.
    pub(super) fn after_attribute_value_quoted_state(&mut self) -> Step {
        match self.cur()? {
            Some(c) if names::is_ascii_whitespace_char(c) => {
                self.consume();
                self.state = State::BeforeAttributeName;
            }
            Some('/') => {
                self.consume();
                self.state = State::SelfClosingStartTag;
            }
            Some('>') => {
                self.consume();
                self.state = State::Data;
                self.emit_tag();
            }
            None => return self.eof_in_tag(),
            Some(_) => {
                self.error(ErrorCode::MissingWhitespaceBetweenAttributes);
                self.state = State::BeforeAttributeName;
            }
        }
        Ok(())
    }

    /// 12.2.5.40 Self-closing start tag state.
    pub(super) fn self_closing_start_tag_state(&mut self) -> Step {
        match self.cur()? {
            Some('>') => {
                self.tag.self_closing = true;
                self.consume();
                self.state = State::Data;
                self.emit_tag();
            }
            None => return self.eof_in_tag(),
            Some(_) => {
                self.error(ErrorCode::UnexpectedSolidusInTag);
                self.state = State::BeforeAttributeName;
            }
        }
        Ok(())
    }

    // ---------------------------------------------------------------------------------------
    // The tag under construction.

    /// `eof-in-tag`: the tag is dropped; its source is reported as discarded.
    pub(super) fn eof_in_tag(&mut self) -> Step {
        self.error(ErrorCode::EofInTag);
        self.tag = TagBuild::default();
        self.attr = None;
        self.attr_index.clear();
        self.push_token(Pending::Discarded(Span::new(self.token_start, self.pos())));
        self.emit_eof()
    }

    /// Starts a new start or end tag.
    pub(super) fn new_tag(&mut self, end_tag: bool) {
        // Field by field: the previous tag has normally been taken already (all fields empty),
        // and assigning a whole new `TagBuild` would run its drop glue every time.
        let t = &mut self.tag;
        t.end_tag = end_tag;
        t.name.clear();
        t.attrs.clear();
        t.self_closing = false;
        if self.attr.is_some() {
            self.attr = None;
        }
        if self.attr_index.len() != 0 {
            self.attr_index.clear();
        }
        self.limit.new_token();
    }

    /// Appends the current input character to the name of an end tag in RCDATA, RAWTEXT or
    /// script data (lowercased) and consumes it. No limit: the name is only compared with the
    /// last start tag's, and is text unless it equals it.
    pub(super) fn append_tag_name(&mut self, c: char) {
        if names::is_ascii_upper_alpha_char(c) {
            self.tag.name.push_char(c.to_ascii_lowercase(), &self.input);
        } else {
            let start = self.pos();
            self.tag
                .name
                .push_range(start, start + self.cw, &self.input);
        }
        self.consume();
    }

    /// Emits the current tag; the `>` has been consumed.
    pub(super) fn emit_tag(&mut self) {
        self.finish_attribute();
        if self.attr_index.len() != 0 {
            // Not needed any more: a large tag's index goes before its token is built.
            self.attr_index.clear();
        }
        let gt = Span::new(self.pos() - 1, self.pos());
        debug_assert!(!self.queue.iter().any(|p| matches!(p, Pending::Tag(_))));
        if self.tag.end_tag {
            if !self.tag.attrs.is_empty() {
                self.error_at(ErrorCode::EndTagWithAttributes, gt);
            }
            if self.tag.self_closing {
                self.error_at(ErrorCode::EndTagWithTrailingSolidus, gt);
            }
            if self.options.foreign_content {
                self.foreign_end_tag();
            }
        } else {
            self.start_tag_done();
        }
        if let Some(wanted) = &self.lazy
            && !wanted.attributes(self.tag.name.as_str(&self.input).as_bytes())
        {
            // A lazy tokenizer's caller did not ask for them (the states built them all).
            self.tag.attrs.clear();
        }
        self.push_token(Pending::Tag(Span::new(self.token_start, self.pos())));
    }

    /// A start tag is finished: it becomes the last start tag, and without a tree builder its
    /// name may switch the state.
    #[inline]
    pub(super) fn start_tag_done(&mut self) {
        self.last_start_tag.clear();
        match self.tag.name.range() {
            Some((s, e)) => self.last_start_tag.push_range(s, e, &self.input),
            None => self
                .last_start_tag
                .push_str(self.tag.name.as_str(&self.input), &self.input),
        }
        if self.options.switch_by_tag_name {
            if self.options.foreign_content && !self.foreign_start_tag() {
                // Processed by the rules for foreign content: nothing switches.
                return;
            }
            let name = self.tag.name.as_str(&self.input);
            if !matches!(
                name.as_bytes().first(),
                Some(b'i' | b'n' | b'p' | b's' | b't' | b'x')
            ) {
                // No raw-text element's name starts otherwise: most tags end here.
                return;
            }
            self.state = match name {
                "title" | "textarea" => State::Rcdata,
                "style" | "xmp" | "iframe" | "noembed" | "noframes" => State::Rawtext,
                "noscript" if self.options.scripting => State::Rawtext,
                "script" => State::ScriptData,
                "plaintext" => State::Plaintext,
                _ => self.state,
            };
        }
    }

    /// Whether the current end tag is an appropriate end tag token.
    pub(super) fn appropriate_end_tag(&self) -> bool {
        let last = self.last_start_tag.as_str(&self.input);
        !last.is_empty() && self.tag.name.as_str(&self.input) == last
    }

    /// Starts an attribute at the current character (dropped past `Limits::max_attributes`).
    fn start_attribute(&mut self) {
        self.finish_attribute();
        self.limit.new_attribute();
        if self.attribute_over_limit() {
            self.attr = None;
            self.attr_duplicate = false;
            return;
        }
        self.attr = Some(AttrBuild {
            start: self.pos(),
            end: self.pos(),
            ..AttrBuild::default()
        });
        self.attr_duplicate = false;
    }

    /// Adds the attribute under construction to the tag, unless it is a duplicate.
    pub(super) fn finish_attribute(&mut self) {
        if let Some(a) = self.attr.take()
            && !self.attr_duplicate
        {
            self.tag.attrs.push(a);
        }
        self.attr_duplicate = false;
    }

    /// Appends the current character to the attribute's name or value (within its limit) and
    /// consumes it.
    pub(super) fn attr_push_current(&mut self, name: bool) {
        let (start, end) = (self.pos(), self.pos() + self.cw);
        if self.at_cr() {
            self.attr_append_str(name, "\n", start, end);
        } else {
            self.attr_append_raw(name, start, end);
        }
        self.consume();
    }

    /// Appends `c` for the current character to the attribute's name or value (within its
    /// limit) and consumes it.
    fn attr_push_char(&mut self, name: bool, c: char) {
        let (start, end) = (self.pos(), self.pos() + self.cw);
        let mut tmp = [0u8; 4];
        self.attr_append_str(name, c.encode_utf8(&mut tmp), start, end);
        self.consume();
    }
}
