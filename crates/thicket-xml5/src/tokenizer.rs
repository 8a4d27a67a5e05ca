//! The XML5 tokenizer: the draft's state machine, one method per state, with the compatibility
//! profile's differences where the xml5lib suite encodes the 2016 draft.

use std::borrow::Cow;
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use thicket_charref::numeric;
use thicket_input::Span;

use crate::acc::Acc;
use crate::error::{Diagnostic, ErrorCode};
use crate::hash::{NameSet, same_bytes};
use crate::token::{Attribute, Event, Token, TokenKind};

mod attribute;
mod charref;
mod limits;

pub(crate) use limits::ScanLimits;

/// Which rules the tokenizer follows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Profile {
    /// The 2022 draft (the default).
    #[default]
    Draft,
    /// What the xml5lib suite encodes: 2016-style DOCTYPE identifiers, `<?xml …?>` as an ordinary
    /// processing instruction, WHATWG named and numeric references.
    Compatibility,
}

/// A user entity map: names (without `&` and `;`) to replacement text, inserted as text.
pub type EntityMap = HashMap<String, String>;

/// Tokenizer options.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The rules to follow.
    pub profile: Profile,
    /// Entities of the user's own: in the draft profile consulted before the predefined XML and
    /// HTML names; in the compatibility profile for `&name;` that the HTML names do not match.
    /// Replacement text is inserted as text and never parsed again.
    pub entities: Option<Arc<EntityMap>>,
    /// Limits for untrusted input (depth, attributes, name and value lengths, namespace
    /// declarations, diagnostics kept); all off by default. What each does when reached:
    /// docs/xml5.md.
    pub limits: thicket_input::Limits,
}

impl Options {
    /// Options for `profile`, no user entities.
    pub fn with_profile(profile: Profile) -> Options {
        Options {
            profile,
            entities: None,
            limits: thicket_input::Limits::none(),
        }
    }
}

/// The tokenizer states, named as in the draft (the compatibility profile adds the 2016 DOCTYPE
/// identifier states).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum State {
    /// Draft: "Data state".
    Data,
    /// Draft: "Character reference in data state".
    CharacterReferenceInData,
    /// Draft: "Tag open state".
    TagOpen,
    /// Draft: "End tag open state".
    EndTagOpen,
    /// Draft: "End tag name state".
    EndTagName,
    /// Draft: "End tag name after state".
    EndTagNameAfter,
    /// Draft: "Tag name state".
    TagName,
    /// Draft: "Empty tag state".
    EmptyTag,
    /// Draft: "Tag attribute name before state".
    TagAttributeNameBefore,
    /// Draft: "Tag attribute name state".
    TagAttributeName,
    /// Draft: "Tag attribute name after state".
    TagAttributeNameAfter,
    /// Draft: "Tag attribute value before state".
    TagAttributeValueBefore,
    /// Draft: "Tag attribute value double quoted state".
    TagAttributeValueDoubleQuoted,
    /// Draft: "Tag attribute value single quoted state".
    TagAttributeValueSingleQuoted,
    /// Draft: "Tag attribute value unquoted state".
    TagAttributeValueUnquoted,
    /// Draft: "Character reference in attribute value state".
    CharacterReferenceInAttributeValue,
    /// Draft: "Pi state".
    Pi,
    /// Draft: "XML declaration state (draft profile)".
    XmlDeclaration,
    /// Draft: "XML declaration attribute name state".
    XmlDeclarationAttributeName,
    /// Draft: "XML declaration attribute name after".
    XmlDeclarationAttributeNameAfter,
    /// Draft: "XML declaration attribute before value state".
    XmlDeclarationAttributeValueBefore,
    /// Draft: "XML declaration attribute value (single-quoted) state".
    XmlDeclarationAttributeValueSingleQuoted,
    /// Draft: "XML declaration attribute value (double-quoted) state".
    XmlDeclarationAttributeValueDoubleQuoted,
    /// Draft: "XML declaration after state".
    XmlDeclarationAfter,
    /// Draft: "Pi target state".
    PiTarget,
    /// Draft: "Pi target after state".
    PiTargetAfter,
    /// Draft: "Pi data state".
    PiData,
    /// Draft: "Pi after state".
    PiAfter,
    /// Draft: "Markup declaration state".
    MarkupDeclaration,
    /// Draft: "Comment start state".
    CommentStart,
    /// Draft: "Comment start dash state".
    CommentStartDash,
    /// Draft: "Comment state".
    Comment,
    /// Draft: "Comment less-than sign state".
    CommentLessThanSign,
    /// Draft: "Comment less-than sign bang state".
    CommentLessThanSignBang,
    /// Draft: "Comment less-than sign bang dash state".
    CommentLessThanSignBangDash,
    /// Draft: "Comment less-than sign bang dash dash state".
    CommentLessThanSignBangDashDash,
    /// Draft: "Comment end dash state".
    CommentEndDash,
    /// Draft: "Comment end state".
    CommentEnd,
    /// Draft: "Comment end bang state".
    CommentEndBang,
    /// Draft: "CDATA state".
    Cdata,
    /// Draft: "CDATA bracket state".
    CdataBracket,
    /// Draft: "CDATA end state".
    CdataEnd,
    /// Draft: "Bogus comment state".
    BogusComment,
    /// Draft: "DOCTYPE state".
    Doctype,
    /// Draft: "Before DOCTYPE name state".
    BeforeDoctypeName,
    /// Draft: "DOCTYPE name state".
    DoctypeName,
    /// Draft: "After DOCTYPE name state".
    AfterDoctypeName,
    /// Draft: "Bogus DOCTYPE state".
    BogusDoctype,
    /// Compatibility profile: after `PUBLIC` / `SYSTEM`.
    AfterDoctypeKeyword(IdKind),
    /// Compatibility profile.
    BeforeDoctypeIdentifier(IdKind),
    /// Compatibility profile.
    DoctypeIdentifierDoubleQuoted(IdKind),
    /// Compatibility profile.
    DoctypeIdentifierSingleQuoted(IdKind),
    /// Compatibility profile.
    AfterDoctypeIdentifier(IdKind),
    /// Compatibility profile.
    BetweenDoctypePublicAndSystemIdentifiers,
}

/// Which DOCTYPE identifier (compatibility profile).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IdKind {
    /// The `PUBLIC` identifier.
    Public,
    /// The `SYSTEM` identifier.
    System,
}

/// What kind of tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TagKind {
    Start,
    Empty,
    End,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DeclAttr {
    Version,
    Encoding,
    Standalone,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RefPhase {
    Begin,
    Octothorpe,
    Numeric { hex: bool },
    NumericSemicolon,
    Named,
    BogusName,
    DraftName,
}

#[derive(Clone, Debug)]
struct CharRef {
    phase: RefPhase,
    /// Absolute offset of the `&`.
    start: usize,
    additional: Option<char>,
    return_state: State,
    num: u32,
    seen_digit: bool,
    /// Bytes after `&` of the longest complete name so far, and its value (compatibility).
    matched: Option<(usize, &'static str)>,
}

/// The machine is waiting for more input.
#[derive(Debug)]
struct Suspend;

type Step = Result<(), Suspend>;

/// The XML5 tokenizer. Whole input with [`Tokenizer::new`], or streaming with
/// [`Tokenizer::streaming`], [`Tokenizer::feed`] and [`Tokenizer::finish`]; events are pulled with
/// [`Tokenizer::next_event`] or [`Tokenizer::next_token`]. The tokens do not depend on how the
/// input was split into chunks.
pub struct Tokenizer<'a> {
    profile: Profile,
    entities: Option<Arc<EntityMap>>,
    /// The limits of [`Options::limits`] the tokenizer applies (names, values, attributes),
    /// with `usize::MAX` for none.
    scan_limits: ScanLimits,
    /// How many more diagnostics may be returned ([`thicket_input::Limits::max_diagnostics`]).
    diagnostic_room: usize,
    /// Diagnostics raised past [`thicket_input::Limits::max_diagnostics`]: counted, not returned.
    omitted: usize,
    input: Cow<'a, str>,
    /// Absolute offset of `input[0]`.
    base: usize,
    /// Absolute offset of the next unread byte.
    pos: usize,
    finished: bool,
    eof_emitted: bool,
    bom_checked: bool,
    state: State,
    reconsume: bool,
    cur: Option<char>,
    cur_at: usize,
    cur_len: usize,
    cur_verbatim: bool,
    out: VecDeque<Event<'a>>,
    /// A tag the fast path built while returning the text before it (see
    /// [`Tokenizer::fast_data`]); returned before anything else.
    pending: Option<Token<'a>>,
    /// Scratch for the fast path's attributes (kept to reuse its allocation).
    raw_attrs: Vec<RawAttr>,
    /// An empty attribute list to build the next tag's attributes in (see
    /// [`Tokenizer::reuse_attributes`]).
    spare_attrs: Vec<Attribute<'a>>,
    diagnostics: Vec<Diagnostic>,

    text: Acc,
    /// A text run is open: its span is `text_start..text_end`. It may hold no text when it
    /// covers only CDATA markup (`<![CDATA[`, `]]>`), which text spans include.
    text_open: bool,
    text_start: usize,
    text_end: usize,

    markup_start: usize,
    tag_kind: TagKind,
    tag_name: Acc,
    attrs: Vec<Attribute<'a>>,
    /// The names in `attrs`, for tags with many attributes (see `finish_attribute`).
    attr_names: NameSet,
    attr_name: Acc,
    attr_value: Acc,
    attr_start: usize,
    attr_end: usize,
    attr_name_end: usize,
    /// Where the value's source starts, once the attribute has a value.
    attr_value_start: Option<usize>,
    attr_value_end: usize,
    attr_has_name: bool,
    /// The length the limits cut the attribute name and value in progress to, once cut (what
    /// is read after is not kept).
    attr_name_cut: Option<usize>,
    attr_value_cut: Option<usize>,
    /// The tag, PI target or DOCTYPE name in progress: where it is, and the length the name
    /// length limit cut it to.
    name_start: usize,
    name_end: usize,
    name_cut: Option<usize>,
    /// The attribute limit was reported for this tag.
    attr_limit_reported: bool,

    comment: Acc,
    pi_target: Acc,
    pi_data: Acc,

    decl_raw: Acc,
    decl_attr: DeclAttr,
    decl_value: Acc,
    decl: [Option<Cow<'a, str>>; 3],

    doctype_name: Option<Acc>,
    doctype_public: Option<Acc>,
    doctype_system: Option<Acc>,
    doctype_depth: u32,

    cref: CharRef,
}

impl<'a> Tokenizer<'a> {
    /// A tokenizer over the whole of `input`; strings in the tokens borrow from it where unchanged.
    pub fn new(input: &'a str, options: Options) -> Tokenizer<'a> {
        let mut t = Tokenizer::with_input(Cow::Borrowed(input), options);
        t.finished = true;
        t
    }

    fn with_input(input: Cow<'a, str>, options: Options) -> Tokenizer<'a> {
        Tokenizer {
            profile: options.profile,
            entities: options.entities,
            scan_limits: ScanLimits::new(&options.limits),
            diagnostic_room: options.limits.max_diagnostics.unwrap_or(usize::MAX),
            omitted: 0,
            input,
            base: 0,
            pos: 0,
            finished: false,
            eof_emitted: false,
            bom_checked: false,
            state: State::Data,
            reconsume: false,
            cur: None,
            cur_at: 0,
            cur_len: 0,
            cur_verbatim: true,
            out: VecDeque::new(),
            pending: None,
            raw_attrs: Vec::new(),
            spare_attrs: Vec::new(),
            diagnostics: Vec::new(),
            text: Acc::Empty,
            text_open: false,
            text_start: 0,
            text_end: 0,
            markup_start: 0,
            tag_kind: TagKind::Start,
            tag_name: Acc::Empty,
            attrs: Vec::new(),
            attr_names: NameSet::new(),
            attr_name: Acc::Empty,
            attr_value: Acc::Empty,
            attr_start: 0,
            attr_end: 0,
            attr_name_end: 0,
            attr_value_start: None,
            attr_value_end: 0,
            attr_has_name: false,
            attr_name_cut: None,
            attr_value_cut: None,
            name_start: 0,
            name_end: 0,
            name_cut: None,
            attr_limit_reported: false,
            comment: Acc::Empty,
            pi_target: Acc::Empty,
            pi_data: Acc::Empty,
            decl_raw: Acc::Empty,
            decl_attr: DeclAttr::Version,
            decl_value: Acc::Empty,
            decl: [None, None, None],
            doctype_name: None,
            doctype_public: None,
            doctype_system: None,
            doctype_depth: 0,
            cref: CharRef {
                phase: RefPhase::Begin,
                start: 0,
                additional: None,
                return_state: State::Data,
                num: 0,
                seen_digit: false,
                matched: None,
            },
        }
    }

    /// The current state (for tests and tree builders).
    pub fn state(&self) -> State {
        self.state
    }

    /// Switches the state between tokens (as a tree builder may; the draft's tree construction
    /// never needs to).
    pub fn set_state(&mut self, state: State) {
        self.state = state;
        self.reconsume = false;
    }

    /// Diagnostics collected by [`Tokenizer::next_token`] and not yet taken.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// Diagnostics collected by [`Tokenizer::next_token`] so far.
    pub fn take_diagnostics(&mut self) -> Vec<Diagnostic> {
        std::mem::take(&mut self.diagnostics)
    }

    /// How many diagnostics were raised past [`thicket_input::Limits::max_diagnostics`] (counted, neither
    /// returned as events nor collected).
    pub fn omitted_diagnostics(&self) -> usize {
        self.omitted
    }

    /// The next token; diagnostics met on the way are kept (see [`Tokenizer::take_diagnostics`]).
    /// `None` means more input is needed (streaming) or the end-of-file token was returned.
    pub fn next_token(&mut self) -> Option<Token<'a>> {
        // Looked at before taken: `take` would copy the whole slot even when it is empty.
        if self.pending.is_some() {
            return self.pending.take();
        }
        loop {
            // The direct path first, without wrapping the token in an event (as `next_event`
            // would do next).
            if self.out.is_empty()
                && self.state == State::Data
                && !self.reconsume
                && self.bom_checked
                && !self.eof_emitted
                && let Some(t) = self.fast_data()
            {
                return Some(t);
            }
            match self.next_event()? {
                Event::Token(t) => return Some(t),
                Event::Diagnostic(d) => self.diagnostics.push(d),
            }
        }
    }

    /// The next token or diagnostic, in input order. `None` means more input is needed
    /// (streaming) or the end-of-file token was returned.
    pub fn next_event(&mut self) -> Option<Event<'a>> {
        if self.pending.is_some()
            && let Some(t) = self.pending.take()
        {
            return Some(Event::Token(t));
        }
        if let Some(e) = self.out.pop_front() {
            return Some(e);
        }
        while !self.eof_emitted {
            if self.state == State::Data
                && !self.reconsume
                && self.bom_checked
                && let Some(t) = self.fast_data()
            {
                return Some(Event::Token(t));
            }
            if self.step().is_err() || !self.out.is_empty() {
                break;
            }
        }
        self.out.pop_front()
    }

    /// Hands back an attribute list a consumer has emptied, so that a later tag builds its
    /// attributes in it instead of allocating (the tree builder does this).
    pub(crate) fn reuse_attributes(&mut self, mut list: Vec<Attribute<'a>>) {
        list.clear();
        self.spare_attrs = list;
    }

    /// Appends a chunk of input (ignored after [`Tokenizer::finish`]).
    pub fn feed(&mut self, chunk: &str) {
        if self.finished {
            return;
        }
        self.compact();
        self.input.to_mut().push_str(chunk);
    }

    /// Marks the end of the input.
    pub fn finish(&mut self) {
        self.finished = true;
    }

    /// Drops consumed input, first copying the text that tokens in progress still need.
    fn compact(&mut self) {
        let keep = match self.state {
            State::CharacterReferenceInData | State::CharacterReferenceInAttributeValue => {
                self.pos.min(self.cref.start)
            }
            _ => self.pos,
        };
        if keep == self.base {
            return;
        }
        let input: &str = &self.input;
        let base = self.base;
        for acc in [
            &mut self.text,
            &mut self.tag_name,
            &mut self.attr_name,
            &mut self.attr_value,
            &mut self.comment,
            &mut self.pi_target,
            &mut self.pi_data,
            &mut self.decl_raw,
            &mut self.decl_value,
        ] {
            acc.detach(input, base);
        }
        for acc in [
            &mut self.doctype_name,
            &mut self.doctype_public,
            &mut self.doctype_system,
        ]
        .into_iter()
        .flatten()
        {
            acc.detach(input, base);
        }
        let drop = keep - self.base;
        self.input.to_mut().drain(..drop);
        self.base = keep;
    }

    // ---------------------------------------------------------------- input

    /// Consumes the next input character (`None` at the end of the input), normalizing CR LF and
    /// CR to LF and U+0000 to U+FFFD, and reporting controls and noncharacters.
    fn consume(&mut self) -> Result<Option<char>, Suspend> {
        if self.reconsume {
            self.reconsume = false;
            return Ok(self.cur);
        }
        // Fast path beside the general one below: a printable ASCII character, tab, LF or form
        // feed needs no normalization and no diagnostic.
        if self.bom_checked
            && let Some(&b) = self.input.as_bytes().get(self.pos - self.base)
            && ((0x20..0x7F).contains(&b) || matches!(b, b'\t' | b'\n' | 0x0C))
        {
            let c = char::from(b);
            self.cur = Some(c);
            self.cur_at = self.pos;
            self.cur_len = 1;
            self.cur_verbatim = true;
            self.pos += 1;
            return Ok(Some(c));
        }
        if !self.bom_checked {
            if self.input.len() - (self.pos - self.base) == 0 && !self.finished {
                return Err(Suspend);
            }
            self.bom_checked = true;
            if self.input[self.pos - self.base..].starts_with('\u{FEFF}') {
                let span = Span::new(self.pos, self.pos + 3);
                self.pos += 3;
                self.emit(TokenKind::Discarded, span);
            }
        }
        let rest = &self.input[self.pos - self.base..];
        let Some(c) = rest.chars().next() else {
            if !self.finished {
                return Err(Suspend);
            }
            self.cur = None;
            self.cur_at = self.pos;
            self.cur_len = 0;
            self.cur_verbatim = true;
            return Ok(None);
        };
        let at = self.pos;
        let (ch, len, verbatim) = match c {
            '\r' => match rest.as_bytes().get(1) {
                Some(b'\n') => ('\n', 2, false),
                Some(_) => ('\n', 1, false),
                None if self.finished => ('\n', 1, false),
                None => return Err(Suspend),
            },
            '\0' => ('\u{FFFD}', 1, false),
            c => (c, c.len_utf8(), true),
        };
        self.pos += len;
        self.cur = Some(ch);
        self.cur_at = at;
        self.cur_len = len;
        self.cur_verbatim = verbatim;
        if c == '\0' {
            if self.profile == Profile::Draft {
                self.error(ErrorCode::UnexpectedNullCharacter, Span::new(at, at + len));
            }
        } else if let Some(code) = bad_char(c) {
            self.error(code, Span::new(at, at + len));
        }
        Ok(Some(ch))
    }

    /// The next raw input character without consuming it (character references).
    fn peek(&self) -> Result<Option<char>, Suspend> {
        match self.input[self.pos - self.base..].chars().next() {
            Some(c) => Ok(Some(c)),
            None if self.finished => Ok(None),
            None => Err(Suspend),
        }
    }

    /// If the input continues with `word`, consumes it.
    fn lookahead(&mut self, word: &str, ignore_case: bool) -> Result<bool, Suspend> {
        let rest = self.input[self.pos - self.base..].as_bytes();
        let n = rest.len().min(word.len());
        let same = if ignore_case {
            rest[..n].eq_ignore_ascii_case(&word.as_bytes()[..n])
        } else {
            rest[..n] == word.as_bytes()[..n]
        };
        if !same {
            return Ok(false);
        }
        if n < word.len() {
            return if self.finished {
                Ok(false)
            } else {
                Err(Suspend)
            };
        }
        self.pos += word.len();
        Ok(true)
    }

    fn cur_span(&self) -> Span {
        Span::new(self.cur_at, self.cur_at + self.cur_len)
    }

    fn reconsume_in(&mut self, state: State) {
        self.reconsume = true;
        self.state = state;
    }

    // ---------------------------------------------------------------- output

    /// Emits the text run, if one is open: a `Text` token, or `Discarded` when the run covers
    /// only CDATA markup (`<![CDATA[]]>` with no text around it).
    fn flush_text(&mut self) {
        if self.text_open {
            self.text_open = false;
            let span = Span::new(self.text_start, self.text_end);
            let kind = if self.text.is_empty() {
                TokenKind::Discarded
            } else {
                TokenKind::Text(self.text.take(&self.input, self.base))
            };
            self.out.push_back(Event::Token(Token { kind, span }));
        }
    }

    /// Reports a diagnostic (ending the text run, so that events stay in input order), or
    /// counts it past [`thicket_input::Limits::max_diagnostics`].
    #[cold]
    fn error(&mut self, code: ErrorCode, span: Span) {
        self.flush_text();
        if self.diagnostic_room == 0 {
            self.omitted += 1;
            return;
        }
        self.diagnostic_room -= 1;
        self.out
            .push_back(Event::Diagnostic(Diagnostic::new(code, span)));
    }

    #[cold]
    fn error_here(&mut self, code: ErrorCode) {
        let span = self.cur_span();
        self.error(code, span);
    }

    fn emit(&mut self, kind: TokenKind<'a>, span: Span) {
        self.flush_text();
        self.out.push_back(Event::Token(Token { kind, span }));
    }

    /// The text run covers `start..end` (the characters just appended, or CDATA markup).
    fn text_span(&mut self, start: usize, end: usize) {
        if !self.text_open {
            self.text_open = true;
            self.text_start = start;
        }
        self.text_end = end;
    }

    /// Appends `c` (from `at..at+len`, verbatim or not) to the text.
    fn push_text(&mut self, c: char, at: usize, len: usize, verbatim: bool) {
        self.text_span(at, at + len);
        self.text.push(c, at, verbatim, &self.input, self.base);
    }

    fn push_cur_text(&mut self) {
        if let Some(c) = self.cur {
            self.push_text(c, self.cur_at, self.cur_len, self.cur_verbatim);
        }
    }

    fn emit_eof(&mut self) {
        let span = Span::empty(self.pos);
        self.emit(TokenKind::Eof, span);
        self.eof_emitted = true;
    }

    fn markup_span(&self) -> Span {
        Span::new(self.markup_start, self.pos)
    }

    // ---------------------------------------------------------------- the direct tag path

    /// Fast path beside the data state, for the common case of text followed by a tag: appends
    /// the run of ordinary text at the input position to the text (as the data state's run
    /// does), then, when a whole plain tag follows in the buffer (see [`scan_tag`]), builds its
    /// token directly with slices of the input. Returns the text token (holding the tag in
    /// `pending`) or the tag; `None` leaves the rest to the states, at the `<` or at whatever
    /// ended the text run, so the tokens are the same as the states would produce.
    fn fast_data(&mut self) -> Option<Token<'a>> {
        let (text, raw) = self.fast_scan()?;
        let base = self.base;
        let name = slice_cow(&self.input, raw.name.0, raw.name.1);
        let kind = match raw.kind {
            TagKind::End => TokenKind::EndTag { name },
            kind => {
                let mut attributes = if self.raw_attrs.is_empty() {
                    Vec::new()
                } else {
                    let mut list = std::mem::take(&mut self.spare_attrs);
                    list.reserve(self.raw_attrs.len());
                    list
                };
                let attribute = |a: &RawAttr, name, value| Attribute {
                    name,
                    value,
                    span: Span::new(base + a.name.0, base + a.end),
                    name_span: Span::new(base + a.name.0, base + a.name.1),
                    value_span: Span::new(base + a.value.0, base + a.value.1),
                };
                match &self.input {
                    // A whole `&str` (base 0): its slices, borrowed.
                    Cow::Borrowed(text) => {
                        for a in &self.raw_attrs {
                            let name = Cow::Borrowed(&text[a.name.0..a.name.1]);
                            let value = Cow::Borrowed(&text[a.value.0..a.value.1]);
                            attributes.push(attribute(a, name, value));
                        }
                    }
                    Cow::Owned(_) => {
                        for a in &self.raw_attrs {
                            let name = slice_cow(&self.input, a.name.0, a.name.1);
                            let value = slice_cow(&self.input, a.value.0, a.value.1);
                            attributes.push(attribute(a, name, value));
                        }
                    }
                }
                if kind == TagKind::Empty {
                    TokenKind::EmptyTag { name, attributes }
                } else {
                    TokenKind::StartTag { name, attributes }
                }
            }
        };
        let tag = Token {
            kind,
            span: Span::new(base + raw.lt, base + raw.end),
        };
        match text {
            Some((text, span)) => {
                self.pending = Some(tag);
                Some(Token {
                    kind: TokenKind::Text(text),
                    span,
                })
            }
            None => Some(tag),
        }
    }

    /// The direct path's scan (see [`Tokenizer::fast_data`]): the text before the tag, if any,
    /// and the tag, its attributes left in `raw_attrs`; the input position is past the tag.
    /// `None` when the states must go on (the text run is then held as the data state holds it).
    #[inline(always)]
    fn fast_scan(&mut self) -> Option<(TextBefore<'a>, RawTag)> {
        let lt = loop {
            let rel = self.pos - self.base;
            // Indentation (line breaks, spaces, tabs), the most common text between tags, byte
            // by byte: tab and LF would each be a candidate of the word scan.
            let bytes = self.input.as_bytes();
            let mut j = rel;
            while let Some(&(b' ' | b'\t' | b'\n')) = bytes.get(j) {
                j += 1;
            }
            let stop = if bytes.get(j) == Some(&b'<') {
                j
            } else {
                match TEXT_STOPS.find_stop(&self.input, j) {
                    Ok(j) | Err(j) => j,
                }
            };
            // One of the five predefined entities (draft profile, no entities of the user's):
            // what the reference states give, the run and the replacement text, and on.
            if bytes.get(stop) == Some(&b'&')
                && self.profile == Profile::Draft
                && self.entities.is_none()
                && let Some((len, replacement)) = predefined_entity(&bytes[stop..])
            {
                let base = self.base;
                if stop > rel {
                    self.text_span(self.pos, base + stop);
                    self.text
                        .push_range(self.pos, base + stop, &self.input, base);
                }
                self.text_span(base + stop, base + stop + len);
                self.text.push_str(replacement, &self.input, base);
                self.pos = base + stop + len;
                continue;
            }
            break stop;
        };
        let rel = self.pos - self.base;
        let run = lt - rel;
        let raw = if self.input.as_bytes().get(lt) == Some(&b'<') {
            scan_tag(&self.input, lt, &mut self.raw_attrs, &self.scan_limits)
                .filter(|raw| self.scan_limits.admits(raw, &self.raw_attrs))
        } else {
            None
        };
        let Some(raw) = raw else {
            // The states go on from the end of the run, as after the data state's own run.
            if run > 0 {
                let (start, end) = (self.pos, self.pos + run);
                self.text_span(start, end);
                self.text.push_range(start, end, &self.input, self.base);
                self.pos = end;
            }
            return None;
        };
        let base = self.base;
        let text = if self.text_open {
            // Text held from before (a reference, CDATA): the run joins it.
            if run > 0 {
                self.text_span(self.pos, base + lt);
                self.text.push_range(self.pos, base + lt, &self.input, base);
            } else if self.text.is_empty() {
                // Only CDATA markup: the states emit it (`Discarded`) before the tag.
                return None;
            }
            self.text_open = false;
            let span = Span::new(self.text_start, self.text_end);
            Some((self.text.take(&self.input, base), span))
        } else if run > 0 {
            let span = Span::new(self.pos, base + lt);
            Some((slice_cow(&self.input, rel, lt), span))
        } else {
            None
        };
        self.pos = base + raw.end;
        Some((text, raw))
    }

    /// For the tree builder over a whole `&str`: the direct path without tokens. The text
    /// before a plain tag (if any) and the tag, whose attributes are then
    /// [`Tokenizer::direct_attributes`] (ranges of the input). `None` when the direct path does
    /// not apply here: the caller goes on with [`Tokenizer::next_event`], which gives the
    /// same events the states would.
    #[inline]
    pub(crate) fn next_direct(&mut self) -> Option<Direct<'a>> {
        if self.pending.is_some()
            || !self.out.is_empty()
            || self.state != State::Data
            || self.reconsume
            || !self.bom_checked
            || self.eof_emitted
            || !matches!(self.input, Cow::Borrowed(_))
        {
            return None;
        }
        let (text, raw) = self.fast_scan()?;
        let input: &'a str = match self.input {
            Cow::Borrowed(input) => input,
            Cow::Owned(_) => "",
        };
        Some(Direct {
            text,
            kind: raw.kind,
            input,
            name: &input[raw.name.0..raw.name.1],
            span: Span::new(raw.lt, raw.end),
        })
    }

    /// No token or diagnostic this tokenizer produces from now on starts before this offset
    /// (the parsers settle the order of their diagnostics with it): the start of the events
    /// not yet returned, of the text and the markup in progress, of a reference being read, or
    /// the input position. `usize::MAX` after the end-of-file token.
    pub(crate) fn horizon(&self) -> usize {
        if self.eof_emitted && self.out.is_empty() && self.pending.is_none() {
            return usize::MAX;
        }
        let mut at = if self.reconsume {
            self.cur_at.min(self.pos)
        } else {
            self.pos
        };
        if self.text_open {
            at = at.min(self.text_start);
        }
        match self.state {
            State::Data => {}
            State::CharacterReferenceInData => at = at.min(self.cref.start),
            // Markup, a reference in an attribute value included.
            _ => at = at.min(self.markup_start),
        }
        for e in &self.out {
            let start = match e {
                Event::Token(t) => t.span.start,
                Event::Diagnostic(d) => d.span.start,
            };
            at = at.min(start);
        }
        if let Some(t) = &self.pending {
            at = at.min(t.span.start);
        }
        at
    }

    /// The attributes of the last tag [`Tokenizer::next_direct`] returned.
    pub(crate) fn direct_attributes(&self) -> &[RawAttr] {
        &self.raw_attrs
    }

    // ---------------------------------------------------------------- the machine

    fn step(&mut self) -> Step {
        match self.state {
            State::Data => self.data_state(),
            State::CharacterReferenceInData | State::CharacterReferenceInAttributeValue => {
                self.character_reference_state()
            }
            State::TagOpen => self.tag_open_state(),
            State::EndTagOpen => self.end_tag_open_state(),
            State::EndTagName => self.end_tag_name_state(),
            State::EndTagNameAfter => self.end_tag_name_after_state(),
            State::TagName => self.tag_name_state(),
            State::EmptyTag => self.empty_tag_state(),
            State::TagAttributeNameBefore => self.tag_attribute_name_before_state(),
            State::TagAttributeName => self.tag_attribute_name_state(),
            State::TagAttributeNameAfter => self.tag_attribute_name_after_state(),
            State::TagAttributeValueBefore => self.tag_attribute_value_before_state(),
            State::TagAttributeValueDoubleQuoted => self.tag_attribute_value_quoted_state('"'),
            State::TagAttributeValueSingleQuoted => self.tag_attribute_value_quoted_state('\''),
            State::TagAttributeValueUnquoted => self.tag_attribute_value_unquoted_state(),
            State::Pi => self.pi_state(),
            State::XmlDeclaration => self.xml_declaration_state(),
            State::XmlDeclarationAttributeName => self.xml_declaration_attribute_name_state(),
            State::XmlDeclarationAttributeNameAfter => {
                self.xml_declaration_attribute_name_after_state()
            }
            State::XmlDeclarationAttributeValueBefore => {
                self.xml_declaration_attribute_value_before_state()
            }
            State::XmlDeclarationAttributeValueSingleQuoted => {
                self.xml_declaration_attribute_value_quoted_state('\'')
            }
            State::XmlDeclarationAttributeValueDoubleQuoted => {
                self.xml_declaration_attribute_value_quoted_state('"')
            }
            State::XmlDeclarationAfter => self.xml_declaration_after_state(),
            State::PiTarget => self.pi_target_state(),
            State::PiTargetAfter => self.pi_target_after_state(),
            State::PiData => self.pi_data_state(),
            State::PiAfter => self.pi_after_state(),
            State::MarkupDeclaration => self.markup_declaration_state(),
            State::CommentStart => self.comment_start_state(),
            State::CommentStartDash => self.comment_start_dash_state(),
            State::Comment => self.comment_state(),
            State::CommentLessThanSign => self.comment_less_than_sign_state(),
            State::CommentLessThanSignBang => self.comment_less_than_sign_bang_state(),
            State::CommentLessThanSignBangDash => self.comment_less_than_sign_bang_dash_state(),
            State::CommentLessThanSignBangDashDash => {
                self.comment_less_than_sign_bang_dash_dash_state()
            }
            State::CommentEndDash => self.comment_end_dash_state(),
            State::CommentEnd => self.comment_end_state(),
            State::CommentEndBang => self.comment_end_bang_state(),
            State::Cdata => self.cdata_state(),
            State::CdataBracket => self.cdata_bracket_state(),
            State::CdataEnd => self.cdata_end_state(),
            State::BogusComment => self.bogus_comment_state(),
            State::Doctype => self.doctype_state(),
            State::BeforeDoctypeName => self.before_doctype_name_state(),
            State::DoctypeName => self.doctype_name_state(),
            State::AfterDoctypeName => self.after_doctype_name_state(),
            State::BogusDoctype => self.bogus_doctype_state(),
            State::AfterDoctypeKeyword(k) => self.after_doctype_keyword_state(k),
            State::BeforeDoctypeIdentifier(k) => self.before_doctype_identifier_state(k),
            State::DoctypeIdentifierDoubleQuoted(k) => self.doctype_identifier_quoted_state(k, '"'),
            State::DoctypeIdentifierSingleQuoted(k) => {
                self.doctype_identifier_quoted_state(k, '\'')
            }
            State::AfterDoctypeIdentifier(k) => self.after_doctype_identifier_state(k),
            State::BetweenDoctypePublicAndSystemIdentifiers => {
                self.between_doctype_public_and_system_identifiers_state()
            }
        }
    }

    /// Data state, with a fast path over runs of characters that need no work.
    fn data_state(&mut self) -> Step {
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
        if let Some((start, end)) = self.plain_run(&TEXT_STOPS) {
            self.text_span(start, end);
            self.text.push_range(start, end, &self.input, self.base);
        }
    }

    /// Consumes the run of characters at the input position that need no work in the current
    /// state: none of `stops`, no CR, no U+0000, no control or noncharacter. Returns its range,
    /// or `None` when it is empty or a character is being reconsumed. A fast path beside the
    /// state machine: the state's own arms handle the character after the run.
    fn plain_run(&mut self, stops: &Stops) -> Option<(usize, usize)> {
        if self.reconsume || !self.bom_checked {
            return None;
        }
        let start = self.pos;
        let rest = &self.input[start - self.base..];
        let i = stops.run_len(rest);
        if i == 0 {
            return None;
        }
        let end = start + i;
        self.pos = end;
        // The last character of the run is the current input character.
        let last = rest[..i].chars().next_back().unwrap_or(' ');
        self.cur = Some(last);
        self.cur_len = last.len_utf8();
        self.cur_at = end - self.cur_len;
        self.cur_verbatim = true;
        Some((start, end))
    }

    fn tag_open_state(&mut self) -> Step {
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

    fn end_tag_open_state(&mut self) -> Step {
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

    fn end_tag_name_state(&mut self) -> Step {
        if let Some((start, end)) = self.plain_run(&TAG_NAME_STOPS) {
            self.tag_name.push_range(start, end, &self.input, self.base);
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

    fn end_tag_name_after_state(&mut self) -> Step {
        match self.consume()? {
            Some('>') => self.emit_tag(None),
            Some('\t' | '\n' | ' ') => {}
            None => self.eof_in_tag(None),
            Some(_) => self.error_here(ErrorCode::UnexpectedCharacterAfterEndTagName),
        }
        Ok(())
    }

    fn tag_name_state(&mut self) -> Step {
        if let Some((start, end)) = self.plain_run(&TAG_NAME_STOPS) {
            self.tag_name.push_range(start, end, &self.input, self.base);
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

    fn empty_tag_state(&mut self) -> Step {
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

    fn tag_attribute_name_before_state(&mut self) -> Step {
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

    fn tag_attribute_name_state(&mut self) -> Step {
        if let Some((start, end)) = self.plain_run(&ATTR_NAME_STOPS) {
            self.attr_name
                .push_range(start, end, &self.input, self.base);
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
                self.attr_name
                    .push(c, self.cur_at, self.cur_verbatim, &self.input, self.base);
                self.attr_end = self.pos;
                self.attr_name_end = self.pos;
                self.limit_attribute_name();
            }
        }
        Ok(())
    }

    fn tag_attribute_name_after_state(&mut self) -> Step {
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

    fn tag_attribute_value_before_state(&mut self) -> Step {
        match self.consume()? {
            Some('\t' | '\n' | ' ') => {}
            Some('"') => {
                self.start_value(self.pos);
                self.state = State::TagAttributeValueDoubleQuoted;
            }
            Some('\'') => {
                self.start_value(self.pos);
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

    fn tag_attribute_value_quoted_state(&mut self, quote: char) -> Step {
        let here = if quote == '"' {
            State::TagAttributeValueDoubleQuoted
        } else {
            State::TagAttributeValueSingleQuoted
        };
        let stops: &Stops = if quote == '"' {
            &DQ_VALUE_STOPS
        } else {
            &SQ_VALUE_STOPS
        };
        loop {
            if let Some((start, end)) = self.plain_run(stops) {
                self.attr_value
                    .push_range(start, end, &self.input, self.base);
                self.attr_end = end;
                self.attr_value_end = end;
                self.limit_attribute_value();
            }
            match self.consume()? {
                Some(c) if c == quote => {
                    self.attr_end = self.pos;
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

    fn tag_attribute_value_unquoted_state(&mut self) -> Step {
        if let Some((start, end)) = self.plain_run(&UNQUOTED_VALUE_STOPS) {
            self.attr_value
                .push_range(start, end, &self.input, self.base);
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
        let name = self.tag_name.take(&self.input, self.base);
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

    // ------------------------------------------------------------ processing instructions

    fn pi_state(&mut self) -> Step {
        if self.profile == Profile::Draft && !self.reconsume && self.xml_declaration_start()? {
            self.decl_raw = Acc::Empty;
            self.decl = [None, None, None];
            self.state = State::XmlDeclaration;
            return Ok(());
        }
        match self.consume()? {
            Some('\t' | '\n' | ' ') | None => {
                self.error_here(ErrorCode::MissingPiTarget);
                self.comment = Acc::Empty;
                self.reconsume_in(State::BogusComment);
            }
            Some(c) => {
                self.pi_target = Acc::Empty;
                self.pi_data = Acc::Empty;
                self.pi_target
                    .push(c, self.cur_at, self.cur_verbatim, &self.input, self.base);
                self.name_start = self.cur_at;
                self.name_end = self.pos;
                self.name_cut = None;
                self.state = State::PiTarget;
            }
        }
        Ok(())
    }

    /// Draft profile: `xml` followed by whitespace starts an XML declaration (`xml-stylesheet`
    /// and the like stay processing instructions; see docs/xml5.md).
    fn xml_declaration_start(&mut self) -> Result<bool, Suspend> {
        let rest = self.input[self.pos - self.base..].as_bytes();
        let n = rest.len().min(4);
        if rest[..n.min(3)] != b"xml"[..n.min(3)] {
            return Ok(false);
        }
        if n < 4 {
            return if self.finished {
                Ok(false)
            } else {
                Err(Suspend)
            };
        }
        if matches!(rest[3], b'\t' | b'\n' | b'\r' | b' ') {
            self.pos += 3;
            return Ok(true);
        }
        Ok(false)
    }

    fn emit_pi(&mut self) {
        self.report_name_cut();
        let target = self.pi_target.take(&self.input, self.base);
        let data = self.pi_data.take(&self.input, self.base);
        let span = self.markup_span();
        self.emit(TokenKind::Pi { target, data }, span);
    }

    fn pi_target_state(&mut self) -> Step {
        match self.consume()? {
            Some('\t' | '\n' | ' ') => self.state = State::PiTargetAfter,
            None => {
                self.error_here(ErrorCode::EofInPi);
                self.emit_pi();
                self.reconsume_in(State::Data);
            }
            Some('?') => self.state = State::PiAfter,
            Some(c) => {
                self.pi_target
                    .push(c, self.cur_at, self.cur_verbatim, &self.input, self.base);
                self.name_end = self.pos;
                self.limit_pi_target();
            }
        }
        Ok(())
    }

    fn pi_target_after_state(&mut self) -> Step {
        match self.consume()? {
            Some('\t' | '\n' | ' ') => {}
            _ => self.reconsume_in(State::PiData),
        }
        Ok(())
    }

    fn pi_data_state(&mut self) -> Step {
        loop {
            if let Some((start, end)) = self.plain_run(&PI_DATA_STOPS) {
                self.pi_data.push_range(start, end, &self.input, self.base);
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
                Some(c) => {
                    self.pi_data
                        .push(c, self.cur_at, self.cur_verbatim, &self.input, self.base)
                }
            }
        }
    }

    fn pi_after_state(&mut self) -> Step {
        match self.consume()? {
            Some('>') => {
                self.emit_pi();
                self.state = State::Data;
            }
            Some('?') => self
                .pi_data
                .push('?', self.cur_at, true, &self.input, self.base),
            // Both profiles: the `?` before is dropped and the character is data again (the
            // draft's rule; the one xml5lib case that reaches here, `?m?>`, expects the same).
            _ => self.reconsume_in(State::PiData),
        }
        Ok(())
    }

    // ------------------------------------------------------------ XML declaration (draft)

    fn push_cur_raw(&mut self) {
        if let Some(c) = self.cur
            && !(self.decl_raw.is_empty() && matches!(c, '\t' | '\n' | ' '))
        {
            self.decl_raw
                .push(c, self.cur_at, self.cur_verbatim, &self.input, self.base);
        }
    }

    /// An invalid declaration becomes a processing instruction `xml` whose data is what was read.
    fn set_xml_target(&mut self) {
        self.pi_target = Acc::Empty;
        for (i, c) in "xml".chars().enumerate() {
            let at = self.markup_start + 2 + i;
            self.pi_target.push(c, at, true, &self.input, self.base);
        }
    }

    #[cold]
    fn xml_declaration_to_pi(&mut self) {
        self.error_here(ErrorCode::InvalidXmlDeclaration);
        self.set_xml_target();
        self.pi_data = std::mem::take(&mut self.decl_raw);
        self.reconsume_in(State::PiData);
    }

    #[cold]
    fn eof_in_xml_declaration_pi(&mut self) {
        self.error_here(ErrorCode::EofInXmlDeclaration);
        self.set_xml_target();
        self.pi_data = std::mem::take(&mut self.decl_raw);
        self.emit_pi();
        self.reconsume_in(State::Data);
    }

    fn emit_xml_declaration(&mut self) {
        self.decl_raw = Acc::Empty;
        let [version, encoding, standalone] = std::mem::take(&mut self.decl);
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

    fn xml_declaration_state(&mut self) -> Step {
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

    fn xml_declaration_attribute_name_state(&mut self) -> Step {
        if self.reconsume {
            // The lookahead below reads the reconsumed ASCII letter from the input again.
            self.reconsume = false;
            self.pos = self.cur_at;
        }
        let start = self.pos;
        for (word, attr) in [
            ("version", DeclAttr::Version),
            ("encoding", DeclAttr::Encoding),
            ("standalone", DeclAttr::Standalone),
        ] {
            if self.lookahead(word, false)? {
                self.decl_raw
                    .push_range(start, self.pos, &self.input, self.base);
                self.decl_attr = attr;
                self.state = State::XmlDeclarationAttributeNameAfter;
                return Ok(());
            }
        }
        self.consume()?;
        self.xml_declaration_to_pi();
        Ok(())
    }

    fn xml_declaration_attribute_name_after_state(&mut self) -> Step {
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

    fn xml_declaration_attribute_value_before_state(&mut self) -> Step {
        match self.consume()? {
            Some('\t' | '\n' | ' ') => self.push_cur_raw(),
            Some('\'') => {
                self.push_cur_raw();
                self.decl_value = Acc::Empty;
                self.state = State::XmlDeclarationAttributeValueSingleQuoted;
            }
            Some('"') => {
                self.push_cur_raw();
                self.decl_value = Acc::Empty;
                self.state = State::XmlDeclarationAttributeValueDoubleQuoted;
            }
            None => self.eof_in_xml_declaration_pi(),
            Some(_) => self.xml_declaration_to_pi(),
        }
        Ok(())
    }

    fn store_decl_value(&mut self) {
        let value = self.decl_value.take(&self.input, self.base);
        let slot = &mut self.decl[self.decl_attr as usize];
        if slot.is_none() {
            *slot = Some(value);
        }
    }

    fn xml_declaration_attribute_value_quoted_state(&mut self, quote: char) -> Step {
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
                self.decl_value
                    .push(c, self.cur_at, self.cur_verbatim, &self.input, self.base);
            }
        }
        Ok(())
    }

    fn xml_declaration_after_state(&mut self) -> Step {
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

    // ------------------------------------------------------------ comments

    fn markup_declaration_state(&mut self) -> Step {
        let compat = self.profile == Profile::Compatibility;
        if self.lookahead("--", false)? {
            self.comment = Acc::Empty;
            self.state = State::CommentStart;
        } else if compat && self.lookahead("[CDATA[", true)? {
            self.start_cdata();
        } else if self.lookahead("DOCTYPE", compat)? {
            self.state = State::Doctype;
        } else if !compat && self.lookahead("[CDATA[", false)? {
            self.start_cdata();
        } else {
            let span = self.markup_span();
            self.error(ErrorCode::IncorrectlyOpenedComment, span);
            self.comment = Acc::Empty;
            self.state = State::BogusComment;
        }
        Ok(())
    }

    fn push_cur_comment(&mut self) {
        if let Some(c) = self.cur {
            self.comment
                .push(c, self.cur_at, self.cur_verbatim, &self.input, self.base);
        }
    }

    fn push_comment_str(&mut self, s: &str) {
        self.comment.push_str(s, &self.input, self.base);
    }

    fn emit_comment(&mut self) {
        let data = self.comment.take(&self.input, self.base);
        let span = self.markup_span();
        self.emit(TokenKind::Comment(data), span);
    }

    #[cold]
    fn eof_in_comment(&mut self) {
        self.error_here(ErrorCode::EofInComment);
        self.emit_comment();
        self.reconsume_in(State::Data);
    }

    fn comment_start_state(&mut self) -> Step {
        match self.consume()? {
            Some('-') => self.state = State::CommentStartDash,
            Some('>') => {
                self.error_here(ErrorCode::AbruptClosingOfEmptyComment);
                self.state = State::Data;
                self.emit_comment();
            }
            _ => self.reconsume_in(State::Comment),
        }
        Ok(())
    }

    fn comment_start_dash_state(&mut self) -> Step {
        match self.consume()? {
            Some('-') => self.state = State::CommentEnd,
            Some('>') => {
                self.error_here(ErrorCode::AbruptClosingOfEmptyComment);
                self.state = State::Data;
                self.emit_comment();
            }
            None => self.eof_in_comment(),
            Some(_) => {
                self.comment
                    .push('-', self.cur_at - 1, true, &self.input, self.base);
                self.reconsume_in(State::Comment);
            }
        }
        Ok(())
    }

    fn comment_state(&mut self) -> Step {
        loop {
            if let Some((start, end)) = self.plain_run(&COMMENT_STOPS) {
                self.comment.push_range(start, end, &self.input, self.base);
            }
            match self.consume()? {
                Some('<') => {
                    self.push_cur_comment();
                    self.state = State::CommentLessThanSign;
                    return Ok(());
                }
                Some('-') => {
                    self.state = State::CommentEndDash;
                    return Ok(());
                }
                None => {
                    self.eof_in_comment();
                    return Ok(());
                }
                Some(_) => self.push_cur_comment(),
            }
        }
    }

    fn comment_less_than_sign_state(&mut self) -> Step {
        match self.consume()? {
            Some('!') => {
                self.push_cur_comment();
                self.state = State::CommentLessThanSignBang;
            }
            Some('<') => self.push_cur_comment(),
            _ => self.reconsume_in(State::Comment),
        }
        Ok(())
    }

    fn comment_less_than_sign_bang_state(&mut self) -> Step {
        match self.consume()? {
            Some('-') => self.state = State::CommentLessThanSignBangDash,
            _ => self.reconsume_in(State::Comment),
        }
        Ok(())
    }

    fn comment_less_than_sign_bang_dash_state(&mut self) -> Step {
        match self.consume()? {
            Some('-') => self.state = State::CommentLessThanSignBangDashDash,
            _ => self.reconsume_in(State::CommentEndDash),
        }
        Ok(())
    }

    fn comment_less_than_sign_bang_dash_dash_state(&mut self) -> Step {
        match self.consume()? {
            Some('>') | None => self.reconsume_in(State::CommentEnd),
            Some(_) => {
                self.error_here(ErrorCode::NestedComment);
                self.reconsume_in(State::CommentEnd);
            }
        }
        Ok(())
    }

    fn comment_end_dash_state(&mut self) -> Step {
        match self.consume()? {
            Some('-') => self.state = State::CommentEnd,
            None => self.eof_in_comment(),
            Some(_) => {
                self.push_comment_str("-");
                self.reconsume_in(State::Comment);
            }
        }
        Ok(())
    }

    fn comment_end_state(&mut self) -> Step {
        match self.consume()? {
            Some('>') => {
                self.state = State::Data;
                self.emit_comment();
            }
            Some('!') => self.state = State::CommentEndBang,
            Some('-') => self.push_comment_str("-"),
            None => self.eof_in_comment(),
            Some(_) => {
                self.push_comment_str("--");
                self.reconsume_in(State::Comment);
            }
        }
        Ok(())
    }

    fn comment_end_bang_state(&mut self) -> Step {
        match self.consume()? {
            Some('-') => {
                self.push_comment_str("--!");
                self.state = State::CommentEndDash;
            }
            Some('>') => {
                self.error_here(ErrorCode::IncorrectlyClosedComment);
                self.state = State::Data;
                self.emit_comment();
            }
            None => self.eof_in_comment(),
            Some(_) => {
                self.push_comment_str("--!");
                self.reconsume_in(State::Comment);
            }
        }
        Ok(())
    }

    fn bogus_comment_state(&mut self) -> Step {
        loop {
            if let Some((start, end)) = self.plain_run(&BOGUS_STOPS) {
                self.comment.push_range(start, end, &self.input, self.base);
            }
            match self.consume()? {
                Some('>') => {
                    self.state = State::Data;
                    self.emit_comment();
                    return Ok(());
                }
                None => {
                    self.emit_comment();
                    self.reconsume_in(State::Data);
                    return Ok(());
                }
                Some(_) => self.push_cur_comment(),
            }
        }
    }

    // ------------------------------------------------------------ CDATA

    /// `<![CDATA[` is read: the text run's span covers it (the section's text is character
    /// data like the text around it).
    fn start_cdata(&mut self) {
        self.text_span(self.markup_start, self.pos);
        self.state = State::Cdata;
    }

    /// The end of the input in a CDATA section: the `]` or `]]` read before it is dropped, and
    /// the text run's span covers it.
    #[cold]
    fn eof_in_cdata(&mut self, pending_brackets: usize) {
        if pending_brackets > 0 {
            self.text_span(self.pos - pending_brackets, self.pos);
        }
        self.error_here(ErrorCode::EofInCdata);
        self.reconsume_in(State::Data);
    }

    fn cdata_state(&mut self) -> Step {
        loop {
            if let Some((start, end)) = self.plain_run(&CDATA_STOPS) {
                self.text_span(start, end);
                self.text.push_range(start, end, &self.input, self.base);
            }
            match self.consume()? {
                Some(']') => {
                    self.state = State::CdataBracket;
                    return Ok(());
                }
                None => {
                    self.eof_in_cdata(0);
                    return Ok(());
                }
                Some(_) => self.push_cur_text(),
            }
        }
    }

    fn cdata_bracket_state(&mut self) -> Step {
        match self.consume()? {
            Some(']') => self.state = State::CdataEnd,
            None => self.eof_in_cdata(1),
            Some(_) => {
                self.push_text(']', self.cur_at - 1, 1, true);
                self.push_cur_text();
                self.state = State::Cdata;
            }
        }
        Ok(())
    }

    fn cdata_end_state(&mut self) -> Step {
        match self.consume()? {
            Some('>') => {
                // `]]>`: covered by the text run's span.
                self.text_span(self.cur_at - 2, self.pos);
                self.state = State::Data;
            }
            Some(']') => self.push_text(']', self.cur_at - 2, 1, true),
            None => self.eof_in_cdata(2),
            Some(_) => {
                self.push_text(']', self.cur_at - 2, 1, true);
                self.push_text(']', self.cur_at - 1, 1, true);
                self.push_cur_text();
                self.state = State::Cdata;
            }
        }
        Ok(())
    }

    // ------------------------------------------------------------ DOCTYPE

    fn is_doctype_space(&self, c: char) -> bool {
        matches!(c, '\t' | '\n' | ' ') || (c == '\x0C' && self.profile == Profile::Compatibility)
    }

    fn new_doctype(&mut self) {
        self.name_cut = None;
        self.doctype_name = None;
        self.doctype_public = None;
        self.doctype_system = None;
    }

    fn push_doctype_name(&mut self, c: char) {
        let lower = c.to_ascii_lowercase();
        let verbatim = self.cur_verbatim && lower == c;
        let name = self.doctype_name.get_or_insert_with(Acc::default);
        if name.is_empty() {
            self.name_start = self.cur_at;
            self.name_cut = None;
        }
        name.push(lower, self.cur_at, verbatim, &self.input, self.base);
        self.name_end = self.pos;
        self.limit_doctype_name();
    }

    fn emit_doctype(&mut self) {
        self.report_name_cut();
        let input = &self.input;
        let base = self.base;
        let take = |a: Option<Acc>| a.map(|mut a| a.take(input, base));
        let name = take(self.doctype_name.take());
        let public_id = take(self.doctype_public.take());
        let system_id = take(self.doctype_system.take());
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

    fn doctype_state(&mut self) -> Step {
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

    fn before_doctype_name_state(&mut self) -> Step {
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

    fn doctype_name_state(&mut self) -> Step {
        match self.consume()? {
            Some(c) if self.is_doctype_space(c) => {
                self.doctype_depth = 0;
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

    fn after_doctype_name_state(&mut self) -> Step {
        if self.profile == Profile::Compatibility {
            return self.after_doctype_name_state_2016();
        }
        loop {
            match self.consume()? {
                Some('[') => self.doctype_depth = self.doctype_depth.saturating_add(1),
                Some(']') => {
                    if self.doctype_depth == 0 {
                        self.state = State::BogusDoctype;
                        return Ok(());
                    }
                    self.doctype_depth -= 1;
                }
                Some('>') => {
                    if self.doctype_depth == 0 {
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

    fn after_doctype_name_state_2016(&mut self) -> Step {
        if self.lookahead("public", true)? {
            self.state = State::AfterDoctypeKeyword(IdKind::Public);
            return Ok(());
        }
        if self.lookahead("system", true)? {
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

    fn doctype_id(&mut self, kind: IdKind) -> &mut Option<Acc> {
        match kind {
            IdKind::Public => &mut self.doctype_public,
            IdKind::System => &mut self.doctype_system,
        }
    }

    fn start_doctype_id(&mut self, kind: IdKind, quote: char) {
        *self.doctype_id(kind) = Some(Acc::Empty);
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

    fn after_doctype_keyword_state(&mut self, kind: IdKind) -> Step {
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

    fn before_doctype_identifier_state(&mut self, kind: IdKind) -> Step {
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

    fn doctype_identifier_quoted_state(&mut self, kind: IdKind, quote: char) -> Step {
        match self.consume()? {
            Some(c) if c == quote => self.state = State::AfterDoctypeIdentifier(kind),
            Some('>') => self.doctype_abrupt(ErrorCode::AbruptDoctypeIdentifier),
            None => self.eof_in_doctype(),
            Some(c) => {
                let (at, verbatim) = (self.cur_at, self.cur_verbatim);
                let base = self.base;
                let acc = match kind {
                    IdKind::Public => &mut self.doctype_public,
                    IdKind::System => &mut self.doctype_system,
                };
                acc.get_or_insert_with(Acc::default)
                    .push(c, at, verbatim, &self.input, base);
            }
        }
        Ok(())
    }

    fn after_doctype_identifier_state(&mut self, kind: IdKind) -> Step {
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

    fn between_doctype_public_and_system_identifiers_state(&mut self) -> Step {
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

    fn bogus_doctype_state(&mut self) -> Step {
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

/// The characters a [`Tokenizer::plain_run`] stops at: the given bytes, CR, the ASCII characters
/// the input stream treats specially (U+0000 and controls), and the non-ASCII controls and
/// noncharacters. `printable` holds the printable stops, padded with repeats of the first, for
/// the sixteen-bytes-at-a-time check.
struct Stops {
    /// Every byte's class: [`PLAIN`], [`STOP`], or [`CHECK`] (a lead byte whose character may
    /// be a non-ASCII control or noncharacter).
    class: [u8; 256],
    printable: [u8; 6],
    /// How many of `printable` are distinct.
    distinct: usize,
    /// The controls that are not stops (tab, LF, form feed), a stop replaced by 0xFF.
    allowed_controls: [u8; 3],
}

const fn stops(extra: &[u8]) -> Stops {
    let mut table = [false; 128];
    let mut i = 0;
    while i < 128 {
        table[i] = matches!(i as u8, b'\r' | 0x00..=0x08 | 0x0B | 0x0E..=0x1F | 0x7F);
        i += 1;
    }
    let mut printable = [0u8; 6];
    let mut count = 0;
    let mut j = 0;
    while j < extra.len() {
        table[extra[j] as usize] = true;
        if extra[j] >= 0x20 {
            printable[count] = extra[j];
            count += 1;
        }
        j += 1;
    }
    let mut k = count;
    while k < 6 {
        printable[k] = printable[0];
        k += 1;
    }
    let mut allowed_controls = [b'\t', b'\n', 0x0C];
    let mut c = 0;
    while c < 3 {
        if table[allowed_controls[c] as usize] {
            allowed_controls[c] = 0xFF;
        }
        c += 1;
    }
    let mut class = [PLAIN; 256];
    let mut b = 0;
    while b < 256 {
        class[b] = if b < 0x80 {
            if table[b] { STOP } else { PLAIN }
        } else if matches!(b as u8, 0xC2 | 0xEF | 0xF0..) {
            // The leads of every non-ASCII control (C2 80..9F) and noncharacter
            // (EF B7 90..AF, EF BF BE..BF, and the four-byte U+xFFFE, U+xFFFF).
            CHECK
        } else {
            // Another lead, or a continuation byte: never the start of a stop.
            PLAIN
        };
        b += 1;
    }
    Stops {
        class,
        printable,
        distinct: count,
        allowed_controls,
    }
}

/// A byte that never stops a run by itself.
const PLAIN: u8 = 0;
/// A byte that stops a run.
const STOP: u8 = 1;
/// A lead byte whose character is checked with [`bad_char`].
const CHECK: u8 = 2;

/// Bytes of a [`Stops::run_len`] block.
const BLOCK: usize = 16;

impl Stops {
    /// True when `block` may hold a byte that needs the byte-by-byte loop: a control (tab, LF and
    /// form feed excepted unless stops), DEL, a non-ASCII byte, or a printable stop. Branch-free, so the
    /// compiler can compare all sixteen bytes at once; false positives only cost the slow loop.
    #[inline]
    fn block_may_stop(&self, block: &[u8; BLOCK]) -> bool {
        let p = self.printable;
        let a = self.allowed_controls;
        let mut hit = 0u8;
        for &b in block {
            let control = (b < 0x20) & (b != a[0]) & (b != a[1]) & (b != a[2]);
            let stop =
                (b == p[0]) | (b == p[1]) | (b == p[2]) | (b == p[3]) | (b == p[4]) | (b == p[5]);
            hit |= u8::from(control | (b > 0x7E) | stop);
        }
        hit != 0
    }

    /// Bit `k` is set when byte `k` of the eight in `w` (little-endian) may stop a run: a
    /// control (tab, LF and form feed included), DEL, a non-ASCII byte, a printable stop, or
    /// rarely the byte after a printable stop (the borrow of the subtraction; extra candidates
    /// only cost a table look-up, a missed one is impossible). Eight bytes in a few word
    /// operations, then one multiplication gathers the flags into a mask.
    #[inline(always)]
    fn candidates(&self, w: u64) -> u32 {
        const L: u64 = 0x0101_0101_0101_0101;
        const H: u64 = 0x8080_8080_8080_8080;
        // Below 0x20: bits 7, 6 and 5 clear (the shifts bring bits 6 and 5 of the same byte to
        // bit 7, so a byte never marks the next one, as a borrow would after a line break).
        let mut hits = !(w | (w << 1) | (w << 2));
        hits |= w | w.wrapping_add(L);
        let mut k = 0;
        while k < self.distinct {
            let x = w ^ (u64::from(self.printable[k]) * L);
            hits |= x.wrapping_sub(L) & !x;
            k += 1;
        }
        ((((hits & H) >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56) as u32
    }

    /// The end of the run at `i` with none of these stops: `Ok` with the index of the stop
    /// byte, or `Err` with the index where the run ends otherwise (the end of `text`, or a
    /// control or noncharacter). Eight bytes at a time: only the bytes [`Stops::candidates`]
    /// marks are looked up in the class table; past sixteen bytes, clean blocks are skipped
    /// sixteen at a time. For the fast paths, with a static table (inlined, the constants fold).
    #[inline(always)]
    fn find_stop(&self, text: &str, mut i: usize) -> Result<usize, usize> {
        let bytes = text.as_bytes();
        let mut words = 0;
        while let Some(chunk) = bytes.get(i..i + 8) {
            let mut w = [0u8; 8];
            w.copy_from_slice(chunk);
            let mut mask = self.candidates(u64::from_le_bytes(w));
            while mask != 0 {
                let j = i + mask.trailing_zeros() as usize;
                let class = self.class[usize::from(bytes[j])];
                if class == STOP {
                    return Ok(j);
                }
                // A plain byte (tab, LF, form feed, a continuation or lead byte) or a checked
                // lead byte, whose continuation bytes are plain.
                if class == CHECK && past_checked_char(text, j).is_none() {
                    return Err(j);
                }
                mask &= mask - 1;
            }
            i += 8;
            words += 1;
            if words == 2 {
                i = self.skip_blocks(bytes, i);
            }
        }
        while let Some(&b) = bytes.get(i) {
            let class = self.class[usize::from(b)];
            if class == PLAIN {
                i += 1;
            } else if class == STOP {
                return Ok(i);
            } else {
                match past_checked_char(text, i) {
                    Some(next) => i = next,
                    None => return Err(i),
                }
            }
        }
        Err(i)
    }

    /// Past the whole blocks from `i` on that hold no byte that may stop. Out of line: setting
    /// up the block compare costs more than a short name or value.
    #[inline(never)]
    fn skip_blocks(&self, bytes: &[u8], mut i: usize) -> usize {
        while let Some(block) = bytes.get(i..i + BLOCK) {
            let mut w = [0u8; BLOCK];
            w.copy_from_slice(block);
            if self.block_may_stop(&w) {
                break;
            }
            i += BLOCK;
        }
        i
    }

    /// The length of the run at the start of `rest` with none of these stops: byte by byte
    /// through the first block (most runs are short names and values), then whole blocks, then
    /// byte by byte through a block that may stop, and so on. Ends on a character boundary.
    fn run_len(&self, rest: &str) -> usize {
        let bytes = rest.as_bytes();
        let mut i = 0;
        loop {
            let block_end = (i + BLOCK).min(bytes.len());
            while i < block_end {
                let Some(k) = bytes[i..block_end]
                    .iter()
                    .position(|&b| self.class[usize::from(b)] != PLAIN)
                else {
                    i = block_end;
                    break;
                };
                i += k;
                if self.class[usize::from(bytes[i])] == STOP {
                    return i;
                }
                let Some(c) = rest.get(i..).and_then(|r| r.chars().next()) else {
                    return i;
                };
                if bad_char(c).is_some() {
                    return i;
                }
                i += c.len_utf8();
            }
            if i >= bytes.len() {
                return bytes.len();
            }
            i = self.skip_blocks(bytes, i);
        }
    }
}

static TEXT_STOPS: Stops = stops(b"<&");
static TAG_NAME_STOPS: Stops = stops(b"\t\n />");
static ATTR_NAME_STOPS: Stops = stops(b"\t\n =>/");
static DQ_VALUE_STOPS: Stops = stops(b"\"&");
static SQ_VALUE_STOPS: Stops = stops(b"'&");
static UNQUOTED_VALUE_STOPS: Stops = stops(b"\t\n &>");
static COMMENT_STOPS: Stops = stops(b"<-");
static PI_DATA_STOPS: Stops = stops(b"?");
static CDATA_STOPS: Stops = stops(b"]");
static BOGUS_STOPS: Stops = stops(b">");

/// An attribute found by [`scan_tag`]: ranges of the input buffer.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RawAttr {
    pub(crate) name: (usize, usize),
    /// Inside the quotes; empty for an attribute without a value.
    pub(crate) value: (usize, usize),
    /// The end of the attribute's span (after the closing quote, or after the name).
    pub(crate) end: usize,
}

/// The text before a tag of the direct path, if any, and its span.
pub(crate) type TextBefore<'a> = Option<(Cow<'a, str>, Span)>;

/// A plain tag for the tree builder ([`Tokenizer::next_direct`]): no token built.
pub(crate) struct Direct<'a> {
    /// The text before the tag, if any.
    pub(crate) text: TextBefore<'a>,
    pub(crate) kind: TagKind,
    /// The whole input (the attributes are ranges of it).
    pub(crate) input: &'a str,
    pub(crate) name: &'a str,
    pub(crate) span: Span,
}

/// A tag found by [`scan_tag`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct RawTag {
    kind: TagKind,
    /// The `<`.
    pub(crate) lt: usize,
    pub(crate) name: (usize, usize),
    /// Just after the closing `>`.
    pub(crate) end: usize,
}

/// The length and replacement text of the XML predefined entity reference at the start of
/// `bytes` (`&lt;`, `&gt;`, `&amp;`, `&quot;`, `&apos;`).
#[inline]
fn predefined_entity(bytes: &[u8]) -> Option<(usize, &'static str)> {
    match bytes.get(1..4)? {
        b"lt;" => Some((4, "<")),
        b"gt;" => Some((4, ">")),
        b"amp" if bytes.get(4) == Some(&b';') => Some((5, "&")),
        b"quo" if bytes.get(4..6) == Some(b"t;") => Some((6, "\"")),
        b"apo" if bytes.get(4..6) == Some(b"s;") => Some((6, "'")),
        _ => None,
    }
}

/// A slice of the input buffer as a token string: borrowed when the input is.
#[inline(always)]
fn slice_cow<'a>(input: &Cow<'a, str>, start: usize, end: usize) -> Cow<'a, str> {
    if start == end {
        return Cow::Borrowed("");
    }
    match input {
        Cow::Borrowed(text) => Cow::Borrowed(&text[start..end]),
        Cow::Owned(text) => Cow::Owned(text[start..end].to_owned()),
    }
}

/// The end of the run at `i` of characters that are none of `stops` (nor CR, U+0000, a control
/// or a noncharacter): the index of the stop byte. `None` when the buffer ends first or the run
/// meets a control or noncharacter (which needs a diagnostic, so the states handle it).
#[inline(always)]
fn scan_run(text: &str, i: usize, stops: &Stops) -> Option<usize> {
    stops.find_stop(text, i).ok()
}

/// Past the character whose lead byte (a [`CHECK`] byte) is at `i`, unless it is a control or
/// noncharacter.
fn past_checked_char(text: &str, i: usize) -> Option<usize> {
    let c = text.get(i..)?.chars().next()?;
    match bad_char(c) {
        Some(_) => None,
        None => Some(i + c.len_utf8()),
    }
}

/// The direct tag path beside the tag states: reads a whole tag starting at the `<` at `lt` in
/// one loop when it is plain: `<name a="v" b='w'>`, `<name/>`, `</name>`, names and values of
/// characters the states take without work (no CR, U+0000, control or noncharacter), quoted
/// values without `&`, at most [`FAST_ATTRS`] attributes (fewer with a lower attribute limit)
/// and no duplicate names (the caller checks the length limits: [`ScanLimits::admits`]). The
/// result is
/// what the states would emit for the same characters (their transitions are followed one by
/// one below). Anything else, or a tag that the buffer does not hold to its `>`, gives `None`
/// and the states read the tag from its `<`.
#[inline(always)]
fn scan_tag(
    text: &str,
    lt: usize,
    attrs: &mut Vec<RawAttr>,
    limits: &ScanLimits,
) -> Option<RawTag> {
    let b = text.as_bytes();
    attrs.clear();
    let mut i = lt + 1;
    // Tag open state.
    match *b.get(i)? {
        b'/' => {
            // End tag open state: the first character of the name (`>` is a short end tag,
            // whitespace, `<` and `:` are errors).
            i += 1;
            let start = i;
            if matches!(*b.get(i)?, b'>' | b'\t' | b'\n' | b' ' | b'<' | b':') {
                return None;
            }
            // End tag name state.
            i = scan_run(text, i, &TAG_NAME_STOPS)?;
            if i == start {
                return None;
            }
            let name = (start, i);
            // End tag name after state (`/` is an error).
            loop {
                match *b.get(i)? {
                    b'>' => {
                        return Some(RawTag {
                            kind: TagKind::End,
                            lt,
                            name,
                            end: i + 1,
                        });
                    }
                    b'\t' | b'\n' | b' ' => i += 1,
                    _ => return None,
                }
            }
        }
        b'?' | b'!' | b'\t' | b'\n' | b' ' | b':' | b'<' | b'>' => return None,
        _ => {}
    }
    // Tag name state.
    let start = i;
    i = scan_run(text, i, &TAG_NAME_STOPS)?;
    if i == start {
        return None;
    }
    let name = (start, i);
    let tag = |kind, end| {
        Some(RawTag {
            kind,
            lt,
            name,
            end,
        })
    };
    let mut seen = 0u64;
    loop {
        // Tag attribute name before state (after the name or a quoted value).
        match *b.get(i)? {
            b'\t' | b'\n' | b' ' => {
                i += 1;
                continue;
            }
            b'>' => return tag(TagKind::Start, i + 1),
            // Empty tag state: only `/>` is plain.
            b'/' => {
                return (*b.get(i + 1)? == b'>').then_some(RawTag {
                    kind: TagKind::Empty,
                    lt,
                    name,
                    end: i + 2,
                });
            }
            b':' => return None,
            _ => {}
        }
        // Tag attribute name state (a name starting with `=` or a stop is not plain).
        let name_start = i;
        i = scan_run(text, i, &ATTR_NAME_STOPS)?;
        if i == name_start || attrs.len() == limits.fast_attributes {
            return None;
        }
        let attr_name = (name_start, i);
        // Duplicates: each name against the (at most FAST_ATTRS - 1) before it, those compared
        // skipped when a 64-bit filter of (length, last byte) says they differ.
        let new = &b[name_start..i];
        let bit = 1u64 << ((new.len() * 7 + usize::from(b[i - 1])) & 63);
        if seen & bit != 0
            && attrs
                .iter()
                .any(|a| same_bytes(&b[a.name.0..a.name.1], new))
        {
            return None;
        }
        seen |= bit;
        let mut valueless = RawAttr {
            name: attr_name,
            value: (i, i),
            end: i,
        };
        let mut c = *b.get(i)?;
        if matches!(c, b'\t' | b'\n' | b' ') {
            // Tag attribute name after state.
            while matches!(c, b'\t' | b'\n' | b' ') {
                i += 1;
                c = *b.get(i)?;
            }
            match c {
                b'=' | b'>' | b'/' => {}
                // Anything else starts the next attribute (here `:` is no error, unlike in the
                // name before state, so it is left to the states).
                b':' => return None,
                _ => {
                    attrs.push(valueless);
                    continue;
                }
            }
        }
        match c {
            b'=' => {}
            b'>' => {
                attrs.push(valueless);
                return tag(TagKind::Start, i + 1);
            }
            b'/' => {
                attrs.push(valueless);
                continue;
            }
            _ => return None,
        }
        // Tag attribute value before state.
        i += 1;
        let quote = loop {
            match *b.get(i)? {
                b'\t' | b'\n' | b' ' => i += 1,
                q @ (b'"' | b'\'') => break q,
                b'>' => {
                    valueless.end = attr_name.1;
                    attrs.push(valueless);
                    return tag(TagKind::Start, i + 1);
                }
                // Unquoted values and references are left to the states.
                _ => return None,
            }
        };
        // Tag attribute value (double- or single-quoted) state.
        i += 1;
        let value_start = i;
        let stops = if quote == b'"' {
            &DQ_VALUE_STOPS
        } else {
            &SQ_VALUE_STOPS
        };
        i = scan_run(text, i, stops)?;
        if b[i] != quote {
            return None;
        }
        attrs.push(RawAttr {
            name: attr_name,
            value: (value_start, i),
            end: i + 1,
        });
        i += 1;
    }
}

/// At most this many attributes on a tag read by [`scan_tag`]: its duplicate check compares
/// names pairwise (on a filter hit), at most `FAST_ATTRS - 1` comparisons an attribute; past
/// this the states' keyed check takes the tag.
pub(crate) const FAST_ATTRS: usize = 64;

/// Controls and noncharacters in the input stream are reported (the character is kept).
#[inline]
fn bad_char(c: char) -> Option<ErrorCode> {
    match c as u32 {
        0x01..=0x08 | 0x0B | 0x0E..=0x1F | 0x7F..=0x9F => {
            Some(ErrorCode::ControlCharacterInInputStream)
        }
        n if numeric::is_noncharacter(n) => Some(ErrorCode::NoncharacterInInputStream),
        _ => None,
    }
}

impl Tokenizer<'static> {
    /// A streaming tokenizer: push chunks with [`Tokenizer::feed`], end with
    /// [`Tokenizer::finish`], pull events between feeds.
    pub fn streaming(options: Options) -> Tokenizer<'static> {
        Tokenizer::with_input(Cow::Owned(String::new()), options)
    }
}

/// Tokenizes the whole of `input`: the tokens (ending with [`TokenKind::Eof`]) and the
/// diagnostics.
pub fn tokenize(input: &str, options: Options) -> (Vec<Token<'_>>, Vec<Diagnostic>) {
    let mut t = Tokenizer::new(input, options);
    let mut tokens = Vec::new();
    while let Some(tok) = t.next_token() {
        tokens.push(tok);
    }
    (tokens, t.take_diagnostics())
}

/// Every event of `input`, in order.
pub fn events(input: &str, options: Options) -> Vec<Event<'_>> {
    let mut t = Tokenizer::new(input, options);
    let mut out = Vec::new();
    while let Some(e) = t.next_event() {
        out.push(e);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// [`Stops::find_stop`] as the class table says, one character at a time.
    fn naive(stops: &Stops, text: &str, i: usize) -> Result<usize, usize> {
        for (k, c) in text[i..].char_indices() {
            let at = i + k;
            if c.is_ascii() {
                if stops.class[c as usize] == STOP {
                    return Ok(at);
                }
            } else if bad_char(c).is_some() {
                return Err(at);
            }
        }
        Err(text.len())
    }

    const ALL: [&Stops; 10] = [
        &TEXT_STOPS,
        &TAG_NAME_STOPS,
        &ATTR_NAME_STOPS,
        &DQ_VALUE_STOPS,
        &SQ_VALUE_STOPS,
        &UNQUOTED_VALUE_STOPS,
        &COMMENT_STOPS,
        &PI_DATA_STOPS,
        &CDATA_STOPS,
        &BOGUS_STOPS,
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// The word-at-a-time scan finds what a character-by-character scan finds, from every
        /// starting point, for every table.
        #[test]
        fn find_stop_matches_the_class_table(
            text in "([a-z =/>\"'&<\\-?\\]]{0,20}|[\t\n\r\x0B\x0C\0\x01\x1F\x7F\u{80}\u{9F}\u{A0}é日😀\u{FDD0}\u{FFFE}\u{FFFF}\u{10FFFF}]){0,12}"
        ) {
            for stops in ALL {
                for i in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
                    prop_assert_eq!(stops.find_stop(&text, i), naive(stops, &text, i), "{:?} from {}", text, i);
                    let run = stops.run_len(&text[i..]);
                    let expected = match naive(stops, &text, i) {
                        Ok(j) | Err(j) => j - i,
                    };
                    prop_assert_eq!(run, expected, "run_len {:?} from {}", text, i);
                }
            }
        }
    }
}
