//! The character reference states ("character reference in data state", "character reference
//! in attribute value state"): numeric references by each profile's rule, named references by
//! the draft's reading (draft profile) or the WHATWG longest match (compatibility profile).

use thicket_charref::numeric;
use thicket_input::Span;

use super::{Profile, State, Step, Tokenizer, append};
use crate::error::ErrorCode;

/// Where the reference is in its reading.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum RefPhase {
    #[default]
    Begin,
    Octothorpe,
    Numeric {
        hex: bool,
    },
    NumericSemicolon,
    Named,
    BogusName,
    DraftName,
}

/// The character reference being read.
#[derive(Clone, Debug)]
pub(super) struct CharRef {
    phase: RefPhase,
    /// Absolute offset of the `&`.
    pub(super) start: usize,
    additional: Option<char>,
    return_state: State,
    num: u32,
    seen_digit: bool,
    /// Bytes after `&` of the longest complete name so far, and its value (compatibility).
    matched: Option<(usize, &'static str)>,
}

impl Default for CharRef {
    fn default() -> CharRef {
        CharRef {
            phase: RefPhase::Begin,
            start: 0,
            additional: None,
            return_state: State::Data,
            num: 0,
            seen_digit: false,
            matched: None,
        }
    }
}

impl CharRef {
    /// Whether the states may read the input after the `&` again (a name, or `&#` before any
    /// digit: the reference may turn out to be none). Once a numeric reference has a digit its
    /// end is a character whatever follows, so the digits need not be held (a reference of
    /// 10 MB of digits costs its saturated value and its start).
    pub(super) fn may_reread(&self) -> bool {
        match self.phase {
            RefPhase::Numeric { .. } => !self.seen_digit,
            RefPhase::NumericSemicolon => false,
            _ => true,
        }
    }
}

impl Tokenizer<'_> {
    #[inline]
    pub(super) fn start_char_ref(
        &mut self,
        state: State,
        return_state: State,
        additional: Option<char>,
    ) {
        self.cref = CharRef {
            phase: RefPhase::Begin,
            start: self.cur_at,
            additional,
            return_state,
            num: 0,
            seen_digit: false,
            matched: None,
        };
        self.state = state;
    }

    fn ref_span(&self) -> Span {
        Span::new(self.cref.start, self.pos())
    }

    #[cold]
    fn ref_error(&mut self, code: ErrorCode) {
        let span = self.ref_span();
        self.error(code, span);
    }

    /// Ends the reference: nothing (a literal `&`, the input after it read again) or `text`.
    fn finish_ref(&mut self, text: Option<&str>) {
        let in_attr = self.state == State::CharacterReferenceInAttributeValue;
        match text {
            None => {
                self.input.set_offset(self.cref.start + 1);
                if in_attr {
                    append(
                        &mut self.attr_value,
                        '&',
                        self.cref.start,
                        1,
                        true,
                        &self.input,
                    );
                } else {
                    self.push_text('&', self.cref.start, 1, true);
                }
            }
            Some(t) => {
                if in_attr {
                    self.attr_value.push_str(t, &self.input);
                } else {
                    self.text_span(self.cref.start, self.pos());
                    self.text.push_str(t, &self.input);
                }
            }
        }
        if in_attr {
            self.attr_end = self.pos();
            self.attr_value_end = self.pos();
            self.limit_attribute_value();
        }
        self.state = self.cref.return_state;
    }

    pub(super) fn character_reference_state(&mut self) -> Step {
        loop {
            match self.cref.phase {
                RefPhase::Begin => {
                    let c = self.input.peek_raw()?;
                    let none = match c {
                        None => true,
                        Some(c) => {
                            Some(c) == self.cref.additional || starts_no_reference(self.profile, c)
                        }
                    };
                    if none {
                        self.finish_ref(None);
                        return Ok(());
                    }
                    if c == Some('#') {
                        self.input.advance(1);
                        self.cref.phase = RefPhase::Octothorpe;
                    } else if self.profile == Profile::Compatibility {
                        self.cref.phase = RefPhase::Named;
                    } else {
                        self.cref.phase = RefPhase::DraftName;
                    }
                }
                RefPhase::Octothorpe => match self.input.peek_raw()? {
                    Some('x' | 'X') => {
                        self.input.advance(1);
                        self.cref.phase = RefPhase::Numeric { hex: true };
                    }
                    _ => self.cref.phase = RefPhase::Numeric { hex: false },
                },
                RefPhase::Numeric { hex } => {
                    let radix = if hex { 16 } else { 10 };
                    match self.input.peek_raw()?.and_then(|c| c.to_digit(radix)) {
                        Some(d) => {
                            self.input.advance(1);
                            self.cref.num = numeric::accumulate(self.cref.num, radix, d);
                            self.cref.seen_digit = true;
                        }
                        None if !self.cref.seen_digit => {
                            self.ref_error(ErrorCode::AbsenceOfDigitsInNumericCharacterReference);
                            self.finish_ref(None);
                            return Ok(());
                        }
                        None => self.cref.phase = RefPhase::NumericSemicolon,
                    }
                }
                RefPhase::NumericSemicolon => {
                    if self.input.peek_raw()? == Some(';') {
                        self.input.advance(1);
                    } else {
                        self.ref_error(ErrorCode::MissingSemicolonAfterCharacterReference);
                    }
                    let c = self.numeric_value();
                    let mut buf = [0; 4];
                    let s: &str = c.encode_utf8(&mut buf);
                    self.finish_ref(Some(s));
                    return Ok(());
                }
                RefPhase::Named => return self.named_reference_2016(),
                RefPhase::BogusName => match self.input.peek_raw()? {
                    Some(c) if c.is_ascii_alphanumeric() => self.input.advance(1),
                    Some(';') => {
                        self.input.advance(1);
                        self.unknown_name_2016();
                        return Ok(());
                    }
                    _ => {
                        self.finish_ref(None);
                        return Ok(());
                    }
                },
                RefPhase::DraftName => return self.named_reference_draft(),
            }
        }
    }

    /// The value of a numeric reference, reporting the profile's errors.
    fn numeric_value(&mut self) -> char {
        let (c, code) = numeric_char(self.profile, self.cref.num);
        if let Some(code) = code {
            self.ref_error(code);
        }
        c
    }

    /// Compatibility profile: `&name;` (the `;` consumed) that the HTML names do not know is
    /// looked up in the user's entities, else it is text with an error.
    fn unknown_name_2016(&mut self) {
        let name = self.input.slice(self.cref.start + 1, self.pos() - 1);
        let value = self.entities.as_ref().and_then(|m| m.get(name).cloned());
        match value {
            Some(v) => self.finish_ref(Some(&v)),
            None => {
                self.ref_error(ErrorCode::UnknownNamedCharacterReference);
                self.finish_ref(None);
            }
        }
    }

    /// Compatibility profile: the WHATWG longest-match algorithm over the HTML names.
    fn named_reference_2016(&mut self) -> Step {
        let name_start = self.cref.start + 1;
        loop {
            let next = self.input.peek_raw()?;
            if let Some(c) = next {
                let end = self.pos() + c.len_utf8();
                let key = self.input.slice(name_start, end);
                if let Some(entry) = thicket_charref::named(key) {
                    self.input.set_offset(end);
                    if let Some(v) = entry.value {
                        self.cref.matched = Some((end - name_start, v));
                    }
                    continue;
                }
            }
            // The name cannot continue with `next`.
            let consumed = self.pos() - name_start;
            match self.cref.matched {
                None => {
                    match next {
                        Some(c) if c.is_ascii_alphanumeric() => {
                            self.cref.phase = RefPhase::BogusName;
                            return Ok(());
                        }
                        Some(';') if consumed > 0 => {
                            self.input.advance(1);
                            self.unknown_name_2016();
                            return Ok(());
                        }
                        _ => {}
                    }
                    self.finish_ref(None);
                }
                Some((len, value)) => {
                    let matched_end = name_start + len;
                    let last = self.input.slice(matched_end - 1, matched_end).as_bytes()[0];
                    let after = if matched_end < self.pos() {
                        self.input
                            .slice(matched_end, self.input.end())
                            .chars()
                            .next()
                    } else {
                        next
                    };
                    let in_attr = self.cref.additional.is_some();
                    if last == b';' {
                        self.input.set_offset(matched_end);
                        self.finish_ref(Some(value));
                    } else if in_attr && after == Some('=') {
                        self.ref_error(ErrorCode::EqualsSignAfterCharacterReferenceInAttribute);
                        self.finish_ref(None);
                    } else if in_attr && after.is_some_and(|c| c.is_ascii_alphanumeric()) {
                        self.finish_ref(None);
                    } else {
                        self.input.set_offset(matched_end);
                        self.ref_error(ErrorCode::MissingSemicolonAfterCharacterReference);
                        self.finish_ref(Some(value));
                    }
                }
            }
            return Ok(());
        }
    }

    /// Draft profile: a name of XML name characters and `;`, resolved through the user's
    /// entities, the five XML entities and the HTML names.
    fn named_reference_draft(&mut self) -> Step {
        let name_start = self.cref.start + 1;
        loop {
            match self.input.peek_raw()? {
                Some(c) if thicket_names::xml10::is_name_char(c) => {
                    self.input.advance(c.len_utf8())
                }
                Some(';') => {
                    let name = self.input.slice(name_start, self.pos());
                    let value: Option<String> = self
                        .entities
                        .as_ref()
                        .and_then(|m| m.get(name).cloned())
                        .or_else(|| thicket_charref::xml_predefined(name).map(String::from))
                        .or_else(|| {
                            let mut key = String::with_capacity(name.len() + 1);
                            key.push_str(name);
                            key.push(';');
                            thicket_charref::named(&key)
                                .and_then(|e| e.value)
                                .map(String::from)
                        });
                    self.input.advance(1);
                    match value {
                        Some(v) => self.finish_ref(Some(&v)),
                        None => {
                            self.ref_error(ErrorCode::UnknownNamedCharacterReference);
                            self.finish_ref(None);
                        }
                    }
                    return Ok(());
                }
                _ => {
                    self.ref_error(ErrorCode::MissingSemicolonAfterCharacterReference);
                    self.finish_ref(None);
                    return Ok(());
                }
            }
        }
    }
}

/// "Character reference in data state" and "... in attribute value state": a `&` followed by
/// `c` is no reference, but text (besides the end of the input and the additional allowed
/// character): the draft's list, or the 2016 draft's in the compatibility profile.
#[inline]
pub(super) fn starts_no_reference(profile: Profile, c: char) -> bool {
    match profile {
        Profile::Draft => matches!(c, '\t' | '\n' | '\r' | ' ' | '<' | '%' | '&'),
        Profile::Compatibility => matches!(c, '\t' | '\n' | '\x0C' | ' ' | '<' | '&'),
    }
}

/// The character a numeric reference to `n` stands for in `profile`, and its error if any.
pub(super) fn numeric_char(profile: Profile, n: u32) -> (char, Option<ErrorCode>) {
    match profile {
        Profile::Compatibility => {
            use numeric::WhatwgIssue as W;
            let (c, issue) = numeric::whatwg(n);
            let code = issue.map(|i| match i {
                W::NullCharacterReference => ErrorCode::NullCharacterReference,
                W::CharacterReferenceOutsideUnicodeRange => {
                    ErrorCode::CharacterReferenceOutsideUnicodeRange
                }
                W::SurrogateCharacterReference => ErrorCode::SurrogateCharacterReference,
                W::NoncharacterCharacterReference => ErrorCode::NoncharacterCharacterReference,
                W::ControlCharacterReference => ErrorCode::ControlCharacterReference,
            });
            (c, code)
        }
        Profile::Draft => {
            use numeric::Xml5Issue as X;
            let (c, issue) = numeric::xml5(n);
            let code = issue.map(|i| match i {
                X::Null => ErrorCode::NullCharacterReference,
                X::OutOfRange if numeric::is_surrogate(n) => ErrorCode::SurrogateCharacterReference,
                X::OutOfRange => ErrorCode::CharacterReferenceOutsideUnicodeRange,
                X::Disallowed if numeric::is_noncharacter(n) => {
                    ErrorCode::NoncharacterCharacterReference
                }
                X::Disallowed => ErrorCode::ControlCharacterReference,
            });
            (c, code)
        }
    }
}
