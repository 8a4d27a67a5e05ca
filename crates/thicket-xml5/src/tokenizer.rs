//! The XML5 tokenizer: the draft's state machine, one method per state, with the compatibility
//! profile's differences where the xml5lib suite encodes the 2016 draft.
//!
//! The states live in modules along the draft's own groups: data and tags (`tag.rs`, with the
//! attribute and limit bookkeeping in `attribute.rs` and `limits.rs`), processing instructions
//! and the XML declaration (`pi.rs`), the markup declaration, comments and CDATA (`markup.rs`),
//! the DOCTYPE (`doctype.rs`) and character references (`charref.rs`). This module holds what
//! they share: the input (a [`thicket_input::cursor::Cursor`], read one character at a time by
//! `Tokenizer::consume` or a run at a time by `Tokenizer::plain_run`), the output (text
//! runs, tokens, diagnostics) and the dispatch. The direct path beside the states is `fast.rs`.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use thicket_input::cursor::{Cursor, NeedMore};
use thicket_input::front::SniffingDecoder;
use thicket_input::scan::StopSet;
use thicket_input::{NewlineRules, Span, TextAcc};
use thicket_names::keyed::KeyedIndex;

use crate::error::{Diagnostic, ErrorCode};
use crate::token::{Attribute, Event, SpareAttributes, Token, TokenKind};

mod attribute;
mod charref;
mod doctype;
mod fast;
mod hand_out;
mod lazy;
mod limits;
mod markup;
mod pi;
mod plain;
mod state;
mod tag;

pub(crate) use fast::{Direct, ErrorStep, RawAttr};
pub use lazy::{AttributesOf, Lazy};
pub(crate) use limits::ScanLimits;
pub use plain::{LentItem, PlainAttribute, PlainTag};
pub(crate) use state::TagKind;
pub use state::{IdKind, State};

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
    /// Lazy tokenizing: the same tokens and spans, with only the strings [`Lazy`] asks for
    /// built (`None`, the default: everything). For callers that read little of what the tokens
    /// carry; diagnostics are then incomplete (docs/xml5.md "Lazy tokenizing"). The tree
    /// builder ignores it.
    pub lazy: Option<Lazy>,
}

impl Options {
    /// Options for `profile`, no user entities.
    pub fn with_profile(profile: Profile) -> Options {
        Options {
            profile,
            entities: None,
            limits: thicket_input::Limits::none(),
            lazy: None,
        }
    }
}

/// What a state step returns: done, or [`NeedMore`] input (the one way to wait).
type Step = Result<(), NeedMore>;

/// The XML5 tokenizer. Whole input with [`Tokenizer::new`], or streaming with
/// [`Tokenizer::streaming`], [`Tokenizer::feed`] and [`Tokenizer::finish`]; events are pulled with
/// [`Tokenizer::next_event`] or [`Tokenizer::next_token`]. The tokens do not depend on how the
/// input was split into chunks, except that a streaming tokenizer hands out the text it has
/// read when it runs out of input (text is emitted as soon as it is certain), so a text run may
/// come in several `Text` tokens.
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
    /// The limits that cut the input, kept whether or not their diagnostics were returned
    /// ([`Tokenizer::limits_reached`]).
    reached: thicket_input::LimitLog<ErrorCode>,
    /// The input: a whole `&str` borrowed, or the chunks fed so far not yet compacted away.
    input: Cursor<'a>,
    /// Lazy tokenizing ([`Options::lazy`]): what is dropped from each token before it goes out.
    lazy: Option<Box<Lazy>>,
    /// Lazy, and text not asked for: the direct path runs to the next `<` (`fast.rs`).
    skip_text: bool,
    /// Lazy, and the attributes of only some tags asked for (`fast.rs`).
    some_attributes: bool,
    /// `skip_text` or `some_attributes`: the direct path's lazy copy runs (`fast.rs`).
    lazy_scan: bool,
    /// Whether [`Tokenizer::next_lent_item`] hands out the text run it skips before a tag
    /// (`plain.rs`: [`Tokenizer::set_skipped_text_tokens`]).
    skipped_text_tokens: bool,
    /// The direct path (`fast.rs`) runs beside the states (off only to test it against them).
    fast_paths: bool,
    /// The direct path may run at the next call: `fast_paths`, except while a lent tag is
    /// `held` (which goes out first), so that the owned path's check covers both.
    fast: bool,
    eof_emitted: bool,
    bom_checked: bool,
    state: State,
    reconsume: bool,
    /// The current input character (after newline folding and U+0000 replacement), where it
    /// is, how many input bytes it covers, and whether the input there is exactly it.
    cur: Option<char>,
    cur_at: usize,
    cur_len: usize,
    cur_verbatim: bool,
    out: VecDeque<Event<'a>>,
    /// A tag the direct path built while returning the text before it (see
    /// [`Tokenizer::fast_data`]); returned before anything else.
    pending: Option<Token<'a>>,
    /// A tag the direct path read while lending the text before it (see
    /// [`Tokenizer::next_lent_token`]); handed out before anything else, its token built then.
    held: Option<hand_out::HeldTag>,
    /// What the direct path read for a lending call (see [`Tokenizer::events`]).
    direct_found: Option<hand_out::Found>,
    /// Scratch for the direct path's attributes (kept to reuse its allocation).
    raw_attrs: Vec<RawAttr>,
    /// An empty attribute list to build the next tag's attributes in (see
    /// [`Tokenizer::reuse_attributes`]).
    spare_attrs: Vec<Attribute<'a>>,
    diagnostics: Vec<Diagnostic>,

    text: TextAcc,
    /// A text run is open: its span is `text_start..text_end`. It may hold no text when it
    /// covers only CDATA markup (`<![CDATA[`, `]]>`), which text spans include.
    text_open: bool,
    text_start: usize,
    text_end: usize,
    /// Part of the current text run was handed out already (streaming: the input ran out in
    /// it), so a last piece with no text is an empty `Text`, not `Discarded`.
    text_split: bool,

    markup_start: usize,
    tag_kind: TagKind,
    tag_name: TextAcc,
    attrs: Vec<Attribute<'a>>,
    /// The names in `attrs`, for tags with many attributes (see `finish_attribute`).
    attr_names: KeyedIndex,
    attr_name: TextAcc,
    attr_value: TextAcc,
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

    comment: TextAcc,
    pi_target: TextAcc,
    pi_data: TextAcc,

    /// An error run being handed out (`fast.rs`).
    error_run: Option<fast::ErrorRun>,
    decl: pi::Declaration<'a>,
    doctype: doctype::DoctypeToken,
    cref: charref::CharRef,
}

impl std::fmt::Debug for Tokenizer<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tokenizer")
            .field("profile", &self.profile)
            .field("state", &self.state)
            .field("diagnostics", &self.diagnostics.len())
            .field("eof_emitted", &self.eof_emitted)
            .finish_non_exhaustive()
    }
}

impl<'a> Tokenizer<'a> {
    /// A tokenizer over the whole of `input` with the default options (the draft profile, no
    /// limits); strings in the tokens borrow from it where unchanged. Also an [`Iterator`] over
    /// the tokens (diagnostics are kept: [`Tokenizer::take_diagnostics`]).
    ///
    /// ```
    /// use thicket_xml5::{TokenKind, Tokenizer};
    /// let names: Vec<String> = Tokenizer::new("<a><b/>x</a>")
    ///     .filter_map(|t| match t.kind {
    ///         TokenKind::StartTag { name, .. } | TokenKind::EmptyTag { name, .. } => Some(name.into_owned()),
    ///         _ => None,
    ///     })
    ///     .collect();
    /// assert_eq!(names, ["a", "b"]);
    /// ```
    pub fn new(input: &'a str) -> Tokenizer<'a> {
        Tokenizer::with_options(input, Options::default())
    }

    /// A tokenizer over the whole of `input` with `options`; strings in the tokens borrow from it
    /// where unchanged.
    pub fn with_options(input: &'a str, options: Options) -> Tokenizer<'a> {
        Tokenizer::with_input(Cursor::whole(input, NewlineRules::CrLf), options)
    }

    fn with_input(input: Cursor<'a>, options: Options) -> Tokenizer<'a> {
        let skip_text = options.lazy.as_ref().is_some_and(|l| !l.text);
        let some_attributes = options
            .lazy
            .as_ref()
            .is_some_and(|l| l.attributes != AttributesOf::All);
        Tokenizer {
            profile: options.profile,
            entities: options.entities,
            scan_limits: ScanLimits::new(&options.limits),
            diagnostic_room: options.limits.max_diagnostics.unwrap_or(usize::MAX),
            omitted: 0,
            reached: thicket_input::LimitLog::new(),
            input,
            skip_text,
            some_attributes,
            lazy_scan: skip_text || some_attributes,
            skipped_text_tokens: true,
            lazy: options.lazy.map(Box::new),
            fast_paths: true,
            fast: true,
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
            held: None,
            direct_found: None,
            raw_attrs: Vec::new(),
            spare_attrs: Vec::new(),
            diagnostics: Vec::new(),
            text: TextAcc::new(),
            text_open: false,
            text_start: 0,
            text_end: 0,
            text_split: false,
            markup_start: 0,
            tag_kind: TagKind::Start,
            tag_name: TextAcc::new(),
            attrs: Vec::new(),
            attr_names: KeyedIndex::new(),
            attr_name: TextAcc::new(),
            attr_value: TextAcc::new(),
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
            comment: TextAcc::new(),
            pi_target: TextAcc::new(),
            pi_data: TextAcc::new(),
            error_run: None,
            decl: pi::Declaration::default(),
            doctype: doctype::DoctypeToken::default(),
            cref: charref::CharRef::default(),
        }
    }

    /// The same tokenizer with the direct path beside the states on (the default) or off. The
    /// tokens, spans and diagnostics are the same either way (only the speed differs); the
    /// switch exists so that tests and fuzz targets can compare the two.
    pub fn with_fast_paths(mut self, on: bool) -> Tokenizer<'a> {
        self.fast_paths = on;
        self.fast = on && self.held.is_none();
        self
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
    /// The token's strings have the input's lifetime: borrowed from a whole input, copied from
    /// a fed one ([`Tokenizer::next_lent_token`] lends them from the buffer instead).
    pub fn next_token(&mut self) -> Option<Token<'a>> {
        if self.lazy.is_some() {
            return self.next_lazy_token();
        }
        self.next_full_token()
    }

    /// [`Tokenizer::next_token`] of a lazy tokenizer (out of line: the full one stays as it
    /// was).
    #[inline(never)]
    fn next_lazy_token(&mut self) -> Option<Token<'a>> {
        let mut token = self.next_full_token()?;
        if let Some(lazy) = &self.lazy {
            lazy.strip(&mut token);
        }
        Some(token)
    }

    /// [`Tokenizer::next_token`] before [`Lazy`] drops anything.
    #[inline(always)]
    fn next_full_token(&mut self) -> Option<Token<'a>> {
        // Looked at before taken: `take` would copy the whole slot even when it is empty.
        if self.pending.is_some() {
            return self.pending.take();
        }
        loop {
            // The direct path first, without wrapping the token in an event (as `next_event`
            // would do next).
            if self.direct_first()
                && let Some(t) = self.fast_data()
            {
                return Some(t);
            }
            match self.events::<false, false>()? {
                Event::Token(t) => return Some(t),
                Event::Diagnostic(d) => self.diagnostics.push(d),
            }
        }
    }

    /// The next token or diagnostic, in input order. `None` means more input is needed
    /// (streaming) or the end-of-file token was returned. When the input runs out inside a
    /// text run, the text read so far is handed out first (a `Text` token; the run goes on in
    /// the next one). Strings as in [`Tokenizer::next_token`] ([`Tokenizer::next_lent_event`]
    /// lends them).
    pub fn next_event(&mut self) -> Option<Event<'a>> {
        if self.lazy.is_some() {
            return self.next_lazy_event();
        }
        self.events::<false, false>()
    }

    /// [`Tokenizer::next_event`] of a lazy tokenizer (out of line).
    #[inline(never)]
    fn next_lazy_event(&mut self) -> Option<Event<'a>> {
        let mut event = self.events::<false, false>()?;
        if let (Some(lazy), Event::Token(token)) = (&self.lazy, &mut event) {
            lazy.strip(token);
        }
        Some(event)
    }

    /// [`Tokenizer::next_event`], and with `LENT` the same for [`Tokenizer::next_lent_event`]
    /// and [`Tokenizer::next_lent_token`]: where the direct path reads a token, it is left in
    /// `direct_found` and `None` returned, for the caller to lend (a held tag is handed out by them
    /// before they call this).
    #[inline(always)]
    fn events<const LENT: bool, const LAZY: bool>(&mut self) -> Option<Event<'a>> {
        loop {
            if self.pending.is_some()
                && let Some(t) = self.pending.take()
            {
                return Some(Event::Token(t));
            }
            if let Some(e) = self.out.pop_front() {
                return Some(e);
            }
            if self.error_run.is_some()
                && let Some(e) = self.error_run_event()
            {
                return Some(e);
            }
            if !self.bom_checked {
                if self.byte_order_mark().is_err() {
                    return None;
                }
                continue;
            }
            if self.eof_emitted {
                return None;
            }
            if self.fast && self.state == State::Data && (!self.reconsume || self.unread()) {
                if LENT {
                    if let Some(found) = self.fast_scan_with::<LAZY>() {
                        self.direct_found = Some(found);
                        return None;
                    }
                } else if let Some(t) = self.fast_data() {
                    return Some(Event::Token(t));
                }
                // An error run started, or its text before went out.
                if !self.out.is_empty() || self.error_run.is_some() {
                    continue;
                }
            } else if !LENT && let Some(held) = self.take_held() {
                // Lent and owned calls mixed: the tag held while its text was lent.
                return Some(Event::Token(self.hold_tag(held)));
            }
            loop {
                match self.step() {
                    Ok(()) if self.out.is_empty() && !self.eof_emitted => {}
                    Ok(()) => break,
                    Err(NeedMore) => {
                        self.flush_text_piece();
                        return self.out.pop_front();
                    }
                }
                if self.fast && self.state == State::Data && (!self.reconsume || self.unread()) {
                    break;
                }
            }
        }
    }

    /// The character to reconsume in the data state read again from the input instead, when
    /// reading it again is the same (an ASCII character that is itself and raises nothing, in
    /// the buffer, the last character read): the direct path may then take it. Without this,
    /// a `<` the tag open state hands back would keep the states reading `<<<<` (or `</</`)
    /// one character at a time after the first chunk boundary, where the direct path's error
    /// run takes them.
    #[inline]
    fn unread(&mut self) -> bool {
        let base = self.input.base();
        match self.cur {
            Some(c)
                if c.is_ascii()
                    && self.cur_verbatim
                    && self.cur_at >= base
                    && self.cur_at + 1 == self.pos()
                    && !runs::SPECIAL.contains(c as u8) =>
            {
                self.input.set_index(self.cur_at - base);
                self.reconsume = false;
                true
            }
            _ => false,
        }
    }

    /// Hands back an attribute list a consumer has emptied, so that a later tag builds its
    /// attributes in it instead of allocating (the tree builder does this).
    pub(crate) fn reuse_attributes(&mut self, mut list: Vec<Attribute<'a>>) {
        list.clear();
        self.spare_attrs = list;
    }

    /// Hands back an emptied attribute list (see [`SpareAttributes`]): a later tag of the
    /// direct path builds its attributes in it instead of allocating.
    /// (A list smaller than the one kept is dropped.)
    #[inline]
    pub fn recycle(&mut self, spare: SpareAttributes) {
        if spare.0.capacity() > self.spare_attrs.capacity() {
            self.spare_attrs = spare.0;
        }
    }

    /// For a lazy tokenizer ([`Options::lazy`]): whether text content is built, from the next
    /// token handed out on ([`Lazy::text`] is the value it starts with). A caller whose text
    /// handlers can fire only in some places (inside some elements) turns it on and off between
    /// tokens, and pays for building text only there. No effect on a full tokenizer, which
    /// always builds text.
    pub fn set_lazy_text(&mut self, build: bool) {
        if let Some(lazy) = &mut self.lazy {
            lazy.text = build;
            self.skip_text = !build;
            self.lazy_scan = self.skip_text || self.some_attributes;
        }
    }

    /// Appends a chunk of input (ignored after [`Tokenizer::finish`]).
    pub fn feed(&mut self, chunk: &str) {
        self.compact();
        self.input.feed(chunk);
    }

    /// Marks the end of the input.
    pub fn finish(&mut self) {
        self.input.finish();
    }

    /// Decodes `bytes` with `decoder` straight into the input buffer (the byte parsers).
    pub(crate) fn feed_bytes(&mut self, decoder: &mut SniffingDecoder, bytes: &[u8]) {
        self.compact();
        // Lossy decoding never fails.
        let _ = decoder.feed_into(bytes, &mut self.input);
    }

    /// Ends the bytes of `decoder` and the input.
    pub(crate) fn finish_bytes(&mut self, decoder: &mut SniffingDecoder) {
        self.compact();
        let _ = decoder.finish_into(&mut self.input);
    }

    /// Lets the input drop what no token in progress needs: everything before the position, or
    /// before the `&` of a reference being read (whose name the states read again; not the
    /// digits of a numeric reference, see `CharRef::may_reread`). The strings under
    /// construction that start earlier are copied out first.
    fn compact(&mut self) {
        let keep = match self.state {
            State::CharacterReferenceInData | State::CharacterReferenceInAttributeValue
                if self.cref.may_reread() =>
            {
                self.cref.start
            }
            _ => usize::MAX,
        };
        // An error run's last `<` or `</` may still join the text run.
        let keep = self.error_run.map_or(keep, |run| keep.min(run.piece.0));
        // A tag of the direct path not handed out yet is built from the buffer.
        let keep = self.held.map_or(keep, |held| keep.min(held.start()));
        let Tokenizer {
            input,
            text,
            tag_name,
            attr_name,
            attr_value,
            comment,
            pi_target,
            pi_data,
            decl,
            doctype,
            ..
        } = self;
        let [raw, value] = decl.strings();
        let [name, public_id, system_id] = doctype.strings();
        input.compact(
            keep,
            &mut [
                text, tag_name, attr_name, attr_value, comment, pi_target, pi_data, raw, value,
                name, public_id, system_id,
            ],
        );
    }

    /// No token or diagnostic this tokenizer produces from now on starts before this offset
    /// (the parsers settle the order of their diagnostics with it): the start of the events
    /// not yet returned, of the text and the markup in progress, of a reference being read, or
    /// the input position. `usize::MAX` after the end-of-file token.
    pub(crate) fn horizon(&self) -> usize {
        if self.eof_emitted && self.out.is_empty() && self.pending.is_none() && self.held.is_none()
        {
            return usize::MAX;
        }
        let pos = self.input.offset();
        let mut at = if self.reconsume {
            self.cur_at.min(pos)
        } else {
            pos
        };
        if self.text_open {
            at = at.min(self.text_start);
        }
        if let Some(run) = &self.error_run {
            at = at.min(run.piece.0);
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
        if let Some(held) = &self.held {
            at = at.min(held.start());
        }
        at
    }

    // ---------------------------------------------------------------- input

    /// "Decide how to deal with a byte order mark": a U+FEFF at the very start is read into no
    /// token but `Discarded`.
    fn byte_order_mark(&mut self) -> Step {
        if self.input.skip_bom()? {
            self.emit(TokenKind::Discarded, Span::new(0, self.input.offset()));
        }
        self.bom_checked = true;
        Ok(())
    }

    /// Consumes the next input character (`None` at the end of the input), normalizing CR LF and
    /// CR to LF and U+0000 to U+FFFD, and reporting controls and noncharacters.
    #[inline(always)]
    fn consume(&mut self) -> Result<Option<char>, NeedMore> {
        if self.reconsume {
            self.reconsume = false;
            return Ok(self.cur);
        }
        // Fast path beside the general one below: an ASCII character that is itself, with no
        // diagnostic (not CR, U+0000 or a control).
        if let Some(b) = self.input.peek_byte()
            && !runs::SPECIAL.contains(b)
        {
            let c = char::from(b);
            self.cur = Some(c);
            self.cur_at = self.input.offset();
            self.cur_len = 1;
            self.cur_verbatim = true;
            self.input.advance(1);
            return Ok(Some(c));
        }
        self.consume_other()
    }

    /// [`Tokenizer::consume`] past its fast path: the end of the input, a line break to fold,
    /// U+0000, or a character that is not ASCII or that the input stream reports.
    fn consume_other(&mut self) -> Result<Option<char>, NeedMore> {
        let at = self.input.offset();
        let Some(p) = self.input.peek()? else {
            self.cur = None;
            self.cur_at = at;
            self.cur_len = 0;
            self.cur_verbatim = true;
            return Ok(None);
        };
        self.input.advance(p.len);
        let null = p.ch == '\0';
        let ch = if null { '\u{FFFD}' } else { p.ch };
        self.cur = Some(ch);
        self.cur_at = at;
        self.cur_len = p.len;
        self.cur_verbatim = !p.folded && !null;
        let span = Span::new(at, at + p.len);
        if null {
            if self.profile == Profile::Draft {
                self.error(ErrorCode::UnexpectedNullCharacter, span);
            }
        } else if !p.folded
            && let Some(code) = runs::input_stream_error(ch)
        {
            self.error(code, span);
        }
        Ok(Some(ch))
    }

    /// Consumes the run of characters at the input position that need no work in the current
    /// state: none of `set`'s stops, no CR, no U+0000, no control or noncharacter. Returns its
    /// range, or `None` when it is empty or a character is being reconsumed. A fast path
    /// beside the state machine: the state's own arms handle the character after the run.
    #[inline]
    fn plain_run(&mut self, set: &StopSet) -> Option<(usize, usize)> {
        if self.reconsume {
            return None;
        }
        let i = self.input.index();
        let end = runs::run_end(set, self.input.text(), i);
        if end == i {
            return None;
        }
        self.input.set_index(end);
        let base = self.input.base();
        Some((base + i, base + end))
    }

    /// The absolute offset of the next unread byte.
    #[inline(always)]
    fn pos(&self) -> usize {
        self.input.offset()
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
    /// only CDATA markup (`<![CDATA[]]>` with no text around it) and none of it was handed out.
    fn flush_text(&mut self) {
        if self.text_open {
            self.text_open = false;
            let span = Span::new(self.text_start, self.text_end);
            let kind = if self.text.is_empty() && !self.text_split {
                TokenKind::Discarded
            } else {
                TokenKind::Text(self.text.take().into_cow_input(&self.input))
            };
            self.out.push_back(Event::Token(Token { kind, span }));
        }
        self.text_split = false;
    }

    /// The input ran out (streaming): the text of the run so far is certain, so it goes out
    /// now (as a `Text` token; the run goes on from its end). A run holding only CDATA markup
    /// waits for text or its end.
    #[cold]
    fn flush_text_piece(&mut self) {
        if self.text_open && !self.text.is_empty() {
            self.text_open = false;
            let span = Span::new(self.text_start, self.text_end);
            let text = self.text.take().into_cow_input(&self.input);
            self.out.push_back(Event::Token(Token {
                kind: TokenKind::Text(text),
                span,
            }));
            self.text_split = true;
        }
    }

    /// Reports a diagnostic (ending the text run, so that events stay in input order), or
    /// counts it past [`thicket_input::Limits::max_diagnostics`].
    #[cold]
    fn error(&mut self, code: ErrorCode, span: Span) {
        if matches!(
            code,
            ErrorCode::AttributeLimit | ErrorCode::NameLengthLimit | ErrorCode::ValueLengthLimit
        ) {
            self.reached.note(Diagnostic::new(code, span));
        }
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
    #[inline]
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
        append(&mut self.text, c, at, len, verbatim, &self.input);
    }

    fn push_cur_text(&mut self) {
        if let Some(c) = self.cur {
            self.push_text(c, self.cur_at, self.cur_len, self.cur_verbatim);
        }
    }

    fn emit_eof(&mut self) {
        let span = Span::empty(self.pos());
        self.emit(TokenKind::Eof, span);
        self.eof_emitted = true;
    }

    fn markup_span(&self) -> Span {
        Span::new(self.markup_start, self.pos())
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
}

/// Appends `c`, read at absolute offset `at` (`len` input bytes; `verbatim`: the input there
/// is exactly `c`), to `acc`: as a range of the input while it can be one. A character read
/// before the buffer's start (streaming, before a compaction) is appended as a character.
#[inline]
fn append(acc: &mut TextAcc, c: char, at: usize, len: usize, verbatim: bool, input: &Cursor<'_>) {
    if verbatim && at >= input.base() {
        acc.push_range(at, at + len, input);
    } else {
        acc.push_char(c, input);
    }
}

/// The byte classes of the states' runs, and the input stream's checks.
mod runs {
    use thicket_charref::numeric;
    use thicket_input::scan::StopSet;
    use thicket_names::html::INPUT_STREAM_ERROR_LEADS;

    use crate::error::ErrorCode;

    /// A run of `syntax`'s bytes' complement: it stops at each of them, and is checked at CR,
    /// U+0000 and the lead bytes of the characters the input stream reports (controls and
    /// noncharacters), where [`run_end`] stops when the character needs the states. So a byte
    /// where a run stops is one of `syntax` exactly when [`StopSet::is_stop`] says so.
    const fn stops(syntax: &[u8]) -> StopSet {
        StopSet::new(syntax)
            .check(b"\r\0")
            .check_table(&INPUT_STREAM_ERROR_LEADS)
    }

    pub(super) static TEXT: StopSet = stops(b"<&");
    pub(super) static TAG_NAME: StopSet = stops(b"\t\n />").swar_probe(0);
    pub(super) static ATTR_NAME: StopSet = stops(b"\t\n =>/");
    pub(super) static DQ_VALUE: StopSet = stops(b"\"&");
    pub(super) static SQ_VALUE: StopSet = stops(b"'&");
    pub(super) static UNQUOTED_VALUE: StopSet = stops(b"\t\n &>");
    pub(super) static COMMENT: StopSet = stops(b"<-");
    pub(super) static PI_DATA: StopSet = stops(b"?");
    pub(super) static DECL_DQ_VALUE: StopSet = stops(b"\"?");
    pub(super) static DECL_SQ_VALUE: StopSet = stops(b"'?");
    pub(super) static CDATA: StopSet = stops(b"]");
    pub(super) static BOGUS: StopSet = stops(b">");

    /// The bytes [`super::Tokenizer::consume`] cannot take as one ASCII character that is
    /// itself: CR, U+0000, the bytes the input stream checks, and every byte of a character
    /// outside ASCII.
    pub(super) static SPECIAL: StopSet = stops(b"").check_range(0x80, 0xFF);

    /// The end of the run of `set` from index `i` of `text`: the index of the first stop, of a
    /// CR, U+0000, control or noncharacter, or the end of `text`.
    #[inline(always)]
    pub(super) fn run_end(set: &StopSet, text: &str, i: usize) -> usize {
        set.run_inline(text.as_bytes(), i, |j| past_checked(text, j))
    }

    /// [`run_end`] through [`StopSet::run_inline`]: the same answer with the scan inlined into
    /// the caller, for the direct path's hottest runs on a `static` set (text between tags,
    /// names, quoted values). Elsewhere `run_end` keeps the code small.
    #[inline(always)]
    pub(super) fn run_end_inline(set: &StopSet, text: &str, i: usize) -> usize {
        set.run_inline(text.as_bytes(), i, |j| past_checked(text, j))
    }

    /// Past the character at `j` (a check byte of a run), unless the states must take it: CR,
    /// U+0000, a control or a noncharacter.
    #[inline]
    fn past_checked(text: &str, j: usize) -> Option<usize> {
        if text.as_bytes().get(j).is_none_or(|b| b.is_ascii()) {
            return None;
        }
        let c = text.get(j..)?.chars().next()?;
        match input_stream_error(c) {
            Some(_) => None,
            None => Some(j + c.len_utf8()),
        }
    }

    /// The input stream's report for `c`, if any: a control other than ASCII whitespace and
    /// U+0000 (`control-character-in-input-stream`) or a noncharacter
    /// (`noncharacter-in-input-stream`); the character is kept. (U+0000 is replaced instead.)
    #[inline]
    pub(super) fn input_stream_error(c: char) -> Option<ErrorCode> {
        let n = c as u32;
        if numeric::is_control(n) && c != '\0' && !thicket_names::html::is_ascii_whitespace_char(c)
        {
            Some(ErrorCode::ControlCharacterInInputStream)
        } else if numeric::is_noncharacter(n) {
            Some(ErrorCode::NoncharacterInInputStream)
        } else {
            None
        }
    }
}

/// The tokens, as [`Tokenizer::next_token`] gives them (a thin wrapper over it). Over a whole
/// input the iteration ends after the `Eof` token; a streaming tokenizer returns `None` while it
/// waits for input, and goes on after the next [`Tokenizer::feed`].
impl<'a> Iterator for Tokenizer<'a> {
    type Item = Token<'a>;

    #[inline]
    fn next(&mut self) -> Option<Token<'a>> {
        self.next_token()
    }
}

impl Tokenizer<'static> {
    /// A streaming tokenizer: push chunks with [`Tokenizer::feed`], end with
    /// [`Tokenizer::finish`], pull events between feeds.
    pub fn streaming(options: Options) -> Tokenizer<'static> {
        Tokenizer::with_input(Cursor::new(NewlineRules::CrLf), options)
    }
}

/// Tokenizes the whole of `input`: the tokens (ending with [`TokenKind::Eof`]) and the
/// diagnostics.
pub fn tokenize(input: &str, options: Options) -> (Vec<Token<'_>>, Vec<Diagnostic>) {
    let mut t = Tokenizer::with_options(input, options);
    let mut tokens = Vec::new();
    while let Some(tok) = t.next_token() {
        tokens.push(tok);
    }
    (tokens, t.take_diagnostics())
}

/// Every event of `input`, in order.
pub fn events(input: &str, options: Options) -> Vec<Event<'_>> {
    let mut t = Tokenizer::with_options(input, options);
    let mut out = Vec::new();
    while let Some(e) = t.next_event() {
        out.push(e);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::runs::*;
    use super::*;
    use proptest::prelude::*;

    /// [`run_end`] as the draft reads it, one character at a time: a stop of the set, CR,
    /// U+0000, or a character the input stream reports ends the run.
    fn naive(set: &StopSet, text: &str, i: usize) -> usize {
        for (k, c) in text[i..].char_indices() {
            let at = i + k;
            let ends = if c.is_ascii() {
                set.contains(c as u8)
            } else {
                input_stream_error(c).is_some()
            };
            if ends {
                return at;
            }
        }
        text.len()
    }

    const ALL: [&StopSet; 12] = [
        &TEXT,
        &TAG_NAME,
        &ATTR_NAME,
        &DQ_VALUE,
        &SQ_VALUE,
        &UNQUOTED_VALUE,
        &COMMENT,
        &PI_DATA,
        &DECL_DQ_VALUE,
        &DECL_SQ_VALUE,
        &CDATA,
        &BOGUS,
    ];

    /// The runs' classes: the syntax bytes are stops, CR, U+0000 and the controls are checked
    /// (and refused), and no other ASCII byte is in any class.
    #[test]
    fn run_classes() {
        for set in ALL {
            for b in [b'\r', 0, 1, 0x0B, 0x1F, 0x7F, 0xC2, 0xEF, 0xF0] {
                assert!(set.is_check(b), "{b:#x}");
            }
            for b in [b'a', b'Z', b'0', b'.', 0x0C, 0x80, 0xE3] {
                assert!(!set.contains(b), "{b:#x}");
            }
        }
        assert!(TEXT.is_stop(b'<') && !TEXT.is_stop(b'\r'));
        for b in 0..=255u8 {
            let plain = (0x20..0x7F).contains(&b) || matches!(b, b'\t' | b'\n' | 0x0C);
            assert_eq!(!SPECIAL.contains(b), plain, "{b:#x}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// The scanning engines find what a character-by-character scan finds, from every
        /// starting point, for every class.
        #[test]
        fn runs_match_the_draft(
            text in "([a-z =/>\"'&<\\-?\\]]{0,20}|[\t\n\r\x0B\x0C\0\x01\x1F\x7F\u{80}\u{9F}\u{A0}é日😀\u{FDD0}\u{FFFE}\u{FFFF}\u{10FFFF}]){0,12}"
        ) {
            for set in ALL {
                for i in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
                    prop_assert_eq!(run_end(set, &text, i), naive(set, &text, i), "{:?} from {}", text, i);
                }
            }
        }
    }

    /// `<<<<` and `</</` split across feeds: after the boundary, where the tag open states
    /// hand the `<` back to the data state, the direct path's error run takes the rest again
    /// (not the states, one character at a time), and the events are those of the whole input.
    #[test]
    fn an_error_run_goes_on_after_a_chunk_boundary() {
        for soup in ["<", "</"] {
            let whole = soup.repeat(64);
            let expected: Vec<String> = events(&whole, Options::default())
                .iter()
                .map(|e| format!("{e:?}"))
                .collect();
            for lent in [false, true] {
                let mut tok = Tokenizer::streaming(Options::default());
                let mut got = Vec::new();
                let mut runs_after_boundary = 0;
                for (i, chunk) in [soup.repeat(8), soup.repeat(56)].iter().enumerate() {
                    tok.feed(chunk);
                    if i == 1 {
                        tok.finish();
                    }
                    loop {
                        let e = if lent {
                            tok.next_lent_event().map(|e| format!("{e:?}"))
                        } else {
                            tok.next_event().map(|e| format!("{e:?}"))
                        };
                        let Some(e) = e else { break };
                        got.push(e);
                        if i == 1 && tok.in_error_run() {
                            runs_after_boundary += 1;
                        }
                    }
                }
                assert_eq!(got, expected, "{soup:?}, lent: {lent}");
                assert!(runs_after_boundary > 50, "{soup:?}: {runs_after_boundary}");
            }
        }
    }

    /// A numeric reference of megabytes of digits is not held: once a digit is read the
    /// reference ends as a character whatever follows, so the input is let go as it is read
    /// (in data and in an attribute value alike), and the result is that of the whole input.
    #[test]
    fn the_digits_of_a_numeric_reference_are_not_held() {
        const CHUNK: usize = 16 << 10;
        for (head, tail) in [("<r>&#", "65;</r>"), ("<r a='&#x", "41;'/>")] {
            let mut tok = Tokenizer::streaming(Options::default());
            let mut kinds = Vec::new();
            tok.feed(head);
            let block = "0".repeat(CHUNK);
            let mut held = 0;
            for _ in 0..64 {
                tok.feed(&block);
                held = held.max(tok.input.buffered());
                while let Some(t) = tok.next_token() {
                    kinds.push(format!("{:?}", t.kind));
                }
            }
            tok.feed(tail);
            tok.finish();
            while let Some(t) = tok.next_token() {
                kinds.push(format!("{:?}", t.kind));
            }
            assert!(held < 4 * CHUNK, "{head}: {held} bytes held");
            let whole = format!("{head}{}{tail}", block.repeat(64));
            let (tokens, _) = tokenize(&whole, Options::default());
            let expected: Vec<String> = tokens.iter().map(|t| format!("{:?}", t.kind)).collect();
            assert_eq!(kinds, expected, "{head}");
        }
    }
}
