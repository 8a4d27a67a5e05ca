//! `Options::limits` (`thicket_input::Limits`): attributes per tag, name and value lengths, and
//! what the tokenizer does when one is reached (docs/html.md, "Limits"). A cut name or value
//! keeps its first bytes and drops the rest as it is read; the buffer is then allowed to drop
//! the consumed input of the current token (its strings are copied out first), so a 28 MB
//! attribute value costs the limit, not 28 MB. The limit diagnostics are placed in source
//! order among those the same step already reported.

use thicket_input::cursor::{Cursor, MIN_COMPACTION};
use thicket_input::{Diagnostic, Limits, Span, TextAcc};
use thicket_names::html as names;

use super::Tokenizer;
use super::tag::AttrBuild;
use crate::error::ErrorCode;
use crate::state::State;

/// The limits in effect (`usize::MAX` where there is none) and what they did to the current
/// token.
pub(super) struct Guard {
    /// Most attributes kept on one tag.
    pub(super) max_attributes: usize,
    /// Longest tag, attribute, DOCTYPE or processing instruction target name, in bytes.
    pub(super) max_name_len: usize,
    /// Longest attribute value, in bytes.
    pub(super) max_value_len: usize,
    /// The shorter of the two: a tag (or attribute) no longer than this has no name or value
    /// over a limit, which the direct paths check once per tag.
    pub(super) max_tag_len: usize,
    /// Longest comment or processing instruction data, in bytes.
    pub(super) max_token_len: usize,
    /// The comment or processing instruction data being built was cut: the rest of it is read
    /// and dropped.
    token_cut: bool,
    /// The name being built was cut: the rest of it is read and dropped.
    name_cut: bool,
    /// The attribute value being built was cut.
    value_cut: bool,
    /// Attributes the current tag has started, duplicates included.
    pub(super) attributes_seen: usize,
    /// The limits reached, kept whatever `max_diagnostics` keeps (`Tokenizer::limits_reached`).
    pub(super) reached: thicket_input::LimitLog<ErrorCode>,
    /// The current token dropped input: the buffer may forget what the token has consumed.
    pub(super) detach: bool,
    /// How many attributes of the current tag are already owned strings.
    owned_attributes: usize,
}

impl Guard {
    pub(super) fn new(limits: &Limits) -> Guard {
        let or_max = |l: Option<usize>| l.unwrap_or(usize::MAX);
        let (max_name_len, max_value_len) =
            (or_max(limits.max_name_len), or_max(limits.max_value_len));
        Guard {
            max_attributes: or_max(limits.max_attributes),
            max_name_len,
            max_value_len,
            max_tag_len: max_name_len.min(max_value_len),
            max_token_len: or_max(limits.max_token_len),
            token_cut: false,
            name_cut: false,
            value_cut: false,
            attributes_seen: 0,
            reached: thicket_input::LimitLog::new(),
            detach: false,
            owned_attributes: 0,
        }
    }

    /// A new tag, DOCTYPE or processing instruction starts.
    #[inline]
    pub(super) fn new_token(&mut self) {
        self.token_cut = false;
        self.name_cut = false;
        self.value_cut = false;
        self.attributes_seen = 0;
        self.detach = false;
        self.owned_attributes = 0;
    }

    /// A new attribute starts: its name and value have room again.
    #[inline]
    pub(super) fn new_attribute(&mut self) {
        self.name_cut = false;
        self.value_cut = false;
    }
}

/// Appends the input `start..end` to `s` if it fits under `max`; otherwise appends the part
/// that fits (cut at a character boundary), sets `cut` and returns the first dropped
/// character. Nothing is appended once `cut` is set.
#[inline]
fn append_raw(
    s: &mut TextAcc,
    cut: &mut bool,
    max: usize,
    input: &Cursor<'_>,
    start: usize,
    end: usize,
) -> Option<Span> {
    if *cut {
        return None;
    }
    if s.len() + (end - start) <= max {
        s.push_range(start, end, input);
        return None;
    }
    cut_raw(s, cut, max, input, start, end)
}

#[cold]
#[inline(never)]
fn cut_raw(
    s: &mut TextAcc,
    cut: &mut bool,
    max: usize,
    input: &Cursor<'_>,
    start: usize,
    end: usize,
) -> Option<Span> {
    let (text, base) = (input.text(), input.base());
    let mut at = start + max.saturating_sub(s.len()).min(end - start);
    while !text.is_char_boundary(at - base) {
        at -= 1;
    }
    if at > start {
        s.push_range(start, at, input);
    }
    *cut = true;
    let w = text[at - base..].chars().next().map_or(0, char::len_utf8);
    Some(Span::new(at, (at + w).min(end)))
}

/// Appends `text`, which replaces the input `start..end`, as [`append_raw`] does; when it does
/// not fit, the dropped character is that input.
#[inline]
fn append_str(
    s: &mut TextAcc,
    cut: &mut bool,
    max: usize,
    input: &Cursor<'_>,
    text: &str,
    start: usize,
    end: usize,
) -> Option<Span> {
    if *cut {
        return None;
    }
    if s.len() + text.len() <= max {
        s.push_str(text, input);
        return None;
    }
    let mut k = max.saturating_sub(s.len()).min(text.len());
    while !text.is_char_boundary(k) {
        k -= 1;
    }
    if k > 0 {
        s.push_str(&text[..k], input);
    }
    *cut = true;
    Some(Span::new(start, end))
}

impl<'a> Tokenizer<'a> {
    /// Reports a limit reached at `span` (in source order) and lets the buffer forget the
    /// current token's dropped input.
    #[cold]
    fn limit_reached(&mut self, code: ErrorCode, span: Span) {
        self.limit.detach = true;
        self.limit.reached.note(Diagnostic::new(code, span));
        self.push_in_order(Diagnostic::new(code, span));
    }

    /// Adds `d` to the diagnostics in source order: before the diagnostics of this step that
    /// start after it (input-stream errors a scan reported ahead of the cut). Past the cap, it
    /// takes the place of the last one kept if that one comes after it.
    pub(super) fn push_in_order(&mut self, d: Diagnostic<ErrorCode>) {
        let later = self
            .diagnostics
            .as_slice()
            .iter()
            .rev()
            .take_while(|x| x.span.start > d.span.start)
            .count();
        if later == 0 {
            self.diagnostics.push(d);
            return;
        }
        let omitted = self.diagnostics.omitted();
        self.diagnostics.push(d);
        let displaced = self.diagnostics.omitted() > omitted;
        let kept = self.diagnostics.as_mut_vec();
        let n = kept.len();
        if displaced {
            // `d` was counted, not kept: it takes the place of the last kept one (which comes
            // after it), and that one is counted instead.
            kept.pop();
            kept.insert(n - later, d);
        } else {
            kept[n - 1 - later..].rotate_right(1);
        }
    }

    /// Whether a new attribute must be dropped because the tag has had `max_attributes`
    /// already (duplicates included); reports `attribute-limit` at the first one dropped.
    /// Called at the attribute's first character.
    pub(super) fn attribute_over_limit(&mut self) -> bool {
        let g = &mut self.limit;
        if g.attributes_seen < g.max_attributes {
            g.attributes_seen += 1;
            return false;
        }
        if g.attributes_seen == g.max_attributes {
            g.attributes_seen += 1;
            let span = Span::new(self.pos(), self.pos() + self.cw);
            self.limit_reached(ErrorCode::AttributeLimit, span);
        }
        true
    }

    /// Appends the input `start..end` to the current attribute's name or value, within its
    /// limit, and extends the attribute's span to `end`.
    #[inline]
    pub(super) fn attr_append_raw(&mut self, name: bool, start: usize, end: usize) {
        let Some(a) = self.attr.as_mut() else { return };
        a.end = end;
        let (s, cut, max, code) = attr_target(a, &mut self.limit, name);
        if let Some(span) = append_raw(s, cut, max, &self.input, start, end) {
            self.limit_reached(code, span);
        }
    }

    /// Appends `text`, which replaces the input `start..end`, to the current attribute's name or
    /// value, within its limit.
    pub(super) fn attr_append_str(&mut self, name: bool, text: &str, start: usize, end: usize) {
        let Some(a) = self.attr.as_mut() else { return };
        a.end = end;
        let (s, cut, max, code) = attr_target(a, &mut self.limit, name);
        if let Some(span) = append_str(s, cut, max, &self.input, text, start, end) {
            self.limit_reached(code, span);
        }
    }

    /// Appends the input `start..end` to the tag name, within the name limit.
    #[inline]
    pub(super) fn tag_name_append_raw(&mut self, start: usize, end: usize) {
        let g = &mut self.limit;
        let max = g.max_name_len;
        let (name, input) = (&mut self.tag.name, &self.input);
        if let Some(span) = append_raw(name, &mut g.name_cut, max, input, start, end) {
            self.limit_reached(ErrorCode::NameLengthLimit, span);
        }
    }

    /// Appends `text`, which replaces the input `start..end`, to the tag name.
    pub(super) fn tag_name_append_str(&mut self, text: &str, start: usize, end: usize) {
        let g = &mut self.limit;
        let max = g.max_name_len;
        let (name, input) = (&mut self.tag.name, &self.input);
        if let Some(span) = append_str(name, &mut g.name_cut, max, input, text, start, end) {
            self.limit_reached(ErrorCode::NameLengthLimit, span);
        }
    }

    /// Appends the current input character to the tag name (lowercased) within the name limit,
    /// and consumes it.
    pub(super) fn append_tag_name_limited(&mut self, c: char) {
        let (start, end) = (self.pos(), self.pos() + self.cw);
        if names::is_ascii_upper_alpha_char(c) {
            let mut tmp = [0u8; 4];
            self.tag_name_append_str(c.to_ascii_lowercase().encode_utf8(&mut tmp), start, end);
        } else {
            self.tag_name_append_raw(start, end);
        }
        self.consume();
    }

    /// A comment (or bogus comment) starts: its data is empty and has room again.
    pub(super) fn start_comment(&mut self) {
        self.comment.clear();
        self.limit.new_token();
    }

    /// Appends the input `start..end` to the comment data, within `max_token_len`.
    #[inline]
    pub(super) fn comment_append_raw(&mut self, start: usize, end: usize) {
        let g = &mut self.limit;
        let (s, input) = (&mut self.comment, &self.input);
        if let Some(span) = append_raw(s, &mut g.token_cut, g.max_token_len, input, start, end) {
            self.limit_reached(ErrorCode::TokenLengthLimit, span);
        }
    }

    /// Appends `text`, which replaces the input `start..end`, to the comment data.
    pub(super) fn comment_append_str(&mut self, text: &str, start: usize, end: usize) {
        let g = &mut self.limit;
        let (s, input) = (&mut self.comment, &self.input);
        if let Some(span) = append_str(
            s,
            &mut g.token_cut,
            g.max_token_len,
            input,
            text,
            start,
            end,
        ) {
            self.limit_reached(ErrorCode::TokenLengthLimit, span);
        }
    }

    /// Appends the input `start..end` to the processing instruction data, within
    /// `max_token_len`.
    #[inline]
    pub(super) fn pi_data_append_raw(&mut self, start: usize, end: usize) {
        let g = &mut self.limit;
        let (s, input) = (&mut self.pi.data, &self.input);
        if let Some(span) = append_raw(s, &mut g.token_cut, g.max_token_len, input, start, end) {
            self.limit_reached(ErrorCode::TokenLengthLimit, span);
        }
    }

    /// Appends `text`, which replaces the input `start..end`, to the processing instruction
    /// data.
    pub(super) fn pi_data_append_str(&mut self, text: &str, start: usize, end: usize) {
        let g = &mut self.limit;
        let (s, input) = (&mut self.pi.data, &self.input);
        if let Some(span) = append_str(
            s,
            &mut g.token_cut,
            g.max_token_len,
            input,
            text,
            start,
            end,
        ) {
            self.limit_reached(ErrorCode::TokenLengthLimit, span);
        }
    }

    /// Appends the input `start..end` (target characters: ASCII) to the processing instruction
    /// target, within the name limit.
    pub(super) fn pi_target_append(&mut self, start: usize, end: usize) {
        let g = &mut self.limit;
        let max = g.max_name_len;
        let (target, input) = (&mut self.pi.target, &self.input);
        if let Some(span) = append_raw(target, &mut g.name_cut, max, input, start, end) {
            self.limit_reached(ErrorCode::NameLengthLimit, span);
        }
    }

    /// Appends the current character (or `replacement`) to the DOCTYPE name, within the name
    /// limit, and consumes it.
    pub(super) fn doctype_name_push(&mut self, replacement: Option<char>) {
        let (start, end) = (self.pos(), self.pos() + self.cw);
        let cr = self.at_cr();
        let g = &mut self.limit;
        let max = g.max_name_len;
        let name = self.doctype.name.get_or_insert_with(TextAcc::new);
        let input = &self.input;
        let mut tmp = [0u8; 4];
        let cut = &mut g.name_cut;
        let dropped = match replacement {
            Some(c) => append_str(name, cut, max, input, c.encode_utf8(&mut tmp), start, end),
            None if cr => append_str(name, cut, max, input, "\n", start, end),
            None => append_raw(name, cut, max, input, start, end),
        };
        if let Some(span) = dropped {
            self.limit_reached(ErrorCode::NameLengthLimit, span);
        }
        self.consume();
    }

    /// Where [`Tokenizer::compact`] may cut the buffer when the current token dropped input:
    /// the states of tags (after the name's start), DOCTYPEs, processing instructions and
    /// comments read nothing before the current character once their strings are owned (the
    /// comment states append the dashes before it only while the data is not cut); the
    /// questionable state reads the `?` before it, the character reference states their `&`.
    /// `None` in the other states (they may still read from the token's start).
    fn compact_floor(&self) -> Option<usize> {
        use State::*;
        Some(match self.state {
            TagName
            | BeforeAttributeName
            | AttributeName
            | AfterAttributeName
            | BeforeAttributeValue
            | AttributeValueDoubleQuoted
            | AttributeValueSingleQuoted
            | AttributeValueUnquoted
            | AfterAttributeValueQuoted
            | SelfClosingStartTag
            | BogusComment
            | CommentStart
            | CommentStartDash
            | Comment
            | CommentLessThanSign
            | CommentLessThanSignBang
            | CommentLessThanSignBangDash
            | CommentLessThanSignBangDashDash
            | CommentEndDash
            | CommentEnd
            | CommentEndBang
            | Doctype
            | BeforeDoctypeName
            | DoctypeName
            | AfterDoctypeName
            | AfterDoctypePublicKeyword
            | BeforeDoctypePublicIdentifier
            | DoctypePublicIdentifierDoubleQuoted
            | DoctypePublicIdentifierSingleQuoted
            | AfterDoctypePublicIdentifier
            | BetweenDoctypePublicAndSystemIdentifiers
            | AfterDoctypeSystemKeyword
            | BeforeDoctypeSystemIdentifier
            | DoctypeSystemIdentifierDoubleQuoted
            | DoctypeSystemIdentifierSingleQuoted
            | AfterDoctypeSystemIdentifier
            | BogusDoctype
            | ProcessingInstructionOpen
            | ProcessingInstructionTarget
            | AfterProcessingInstructionTarget
            | ProcessingInstructionData => self.pos(),
            ProcessingInstructionQuestionable => self.pos() - 1,
            CharacterReference
            | NamedCharacterReference
            | AmbiguousAmpersand
            | NumericCharacterReference
            | HexadecimalCharacterReferenceStart
            | DecimalCharacterReferenceStart
            | HexadecimalCharacterReference
            | DecimalCharacterReference
            | NumericCharacterReferenceEnd => self.charref_start,
            _ => return None,
        })
    }

    /// The offset before which [`Tokenizer::compact`] may drop the buffer when nothing is
    /// queued: the end of the last token returned (the position while the digits of a numeric
    /// reference in data are read), or, when the current token dropped input
    /// to a limit, the current position (after copying out the token's strings, so that they
    /// no longer point into the buffer).
    pub(super) fn compact_point(&mut self) -> usize {
        if !self.limit.detach {
            if self.reading_digits_in_data() {
                // Text before the reference was flushed (`last_end`); the reference's own text
                // is its value, copied when it ends.
                return self.pos().max(self.last_end);
            }
            return self.last_end;
        }
        let Some(floor) = self.compact_floor() else {
            return self.last_end;
        };
        if floor.saturating_sub(self.input.base()) < MIN_COMPACTION {
            // Not worth it yet: the cursor would not drop anything.
            return self.last_end;
        }
        let input = &self.input;
        self.tag.name.detach(input);
        let owned = self.limit.owned_attributes;
        for a in self.tag.attrs.iter_mut().skip(owned) {
            a.name.detach(input);
            a.value.detach(input);
        }
        self.limit.owned_attributes = self.tag.attrs.len();
        if let Some(a) = self.attr.as_mut() {
            a.name.detach(input);
            a.value.detach(input);
        }
        self.comment.detach(input);
        self.pi.target.detach(input);
        self.pi.data.detach(input);
        for s in [
            &mut self.doctype.name,
            &mut self.doctype.public_id,
            &mut self.doctype.system_id,
        ]
        .into_iter()
        .flatten()
        {
            s.detach(input);
        }
        floor.max(self.last_end)
    }
}

/// The string of `a` that `name` selects, with its cut flag, limit and code.
#[inline]
fn attr_target<'a>(
    a: &'a mut AttrBuild,
    g: &'a mut Guard,
    name: bool,
) -> (&'a mut TextAcc, &'a mut bool, usize, ErrorCode) {
    if name {
        (
            &mut a.name,
            &mut g.name_cut,
            g.max_name_len,
            ErrorCode::NameLengthLimit,
        )
    } else {
        (
            &mut a.value,
            &mut g.value_cut,
            g.max_value_len,
            ErrorCode::ValueLengthLimit,
        )
    }
}

#[cfg(test)]
mod tests {
    use thicket_input::Limits;

    use crate::{Options, Token, Tokenizer};

    /// Feeds `open`, then 4 MiB of `fill` in 64 KiB chunks, then `close`: with the limits on,
    /// the buffer never holds more than a few chunks (the dropped part of the token is
    /// forgotten), and the token's span still covers all of it. Returns the token's debug form.
    fn streamed(open: &str, fill: &str, close: &str) -> String {
        let mut tok = Tokenizer::with_options(Options {
            limits: Limits::none()
                .with_max_name_len(8)
                .with_max_value_len(8)
                .with_max_attributes(2),
            ..Options::default()
        });
        let chunk = fill.repeat((64 << 10) / fill.len());
        tok.feed(open);
        for _ in 0..64 {
            tok.feed(&chunk);
            assert!(tok.next_token().is_none());
            assert!(
                tok.input.buffered() <= 3 * chunk.len(),
                "{open}: {} bytes held",
                tok.input.buffered()
            );
        }
        tok.feed(close);
        tok.finish();
        let total = open.len() + 64 * chunk.len() + close.len();
        let t = tok.next_token().expect("the token").into_owned();
        assert_eq!(t.span().start, 0);
        assert_eq!(t.span().end, total);
        // One limit diagnostic (after a duplicate-attribute for the repeated attributes).
        let limit_codes = ["name-length-limit", "value-length-limit", "attribute-limit"];
        let d = tok.diagnostics();
        assert!(d.len() <= 2, "{d:?}");
        assert!(limit_codes.contains(&d[d.len() - 1].code.as_str()), "{d:?}");
        format!("{t:?}").replace(&format!("{:?}", t.span()), "")
    }

    #[test]
    fn cut_input_is_not_held() {
        let tag = |name: &str, attrs: &str| {
            format!(
                "StartTag(Tag {{ name: {name:?}, attributes: [{attrs}], self_closing: false, span:  }})"
            )
        };
        let out = streamed("<a b=\"", "x", "\">");
        assert!(out.contains("value: \"xxxxxxxx\""), "{out}");
        let out = streamed("<a b=", "y", ">");
        assert!(out.contains("value: \"yyyyyyyy\""), "{out}");
        let out = streamed("<a ", "n", "=1>");
        assert!(out.contains("name: \"nnnnnnnn\", value: \"1\""), "{out}");
        assert_eq!(streamed("<t", "t", ">"), tag("tttttttt", ""));
        let out = streamed("<a", " k=v", ">");
        assert!(out.matches("Attribute").count() == 1, "{out}");
        let out = streamed("<!DOCTYPE d", "d", ">");
        assert!(out.contains("name: Some(\"dddddddd\")"), "{out}");
        let out = streamed("<?p", "p", " data>");
        assert!(
            out.contains("target: \"pppppppp\", data: \"data\""),
            "{out}"
        );
        let out = streamed("<a b='&amp;", "&amp;", "'>");
        assert!(out.contains("value: \"&&&&&&&&\""), "{out}");
    }

    #[test]
    fn without_limits_the_token_is_held_whole() {
        let mut tok = Tokenizer::new();
        tok.feed("<a b=\"");
        let chunk = "x".repeat(64 << 10);
        for _ in 0..8 {
            tok.feed(&chunk);
        }
        tok.feed("\">");
        tok.finish();
        let Some(Token::StartTag(t)) = tok.next_token() else {
            panic!()
        };
        assert_eq!(t.attributes[0].value.len(), 8 * chunk.len());
    }
}
