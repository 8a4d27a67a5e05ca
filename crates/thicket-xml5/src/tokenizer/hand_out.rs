//! Handing out what the direct path found (`fast.rs`): the text before a plain tag and the
//! tag, their strings borrowed from the whole input (the input's lifetime), copied from a fed
//! buffer (the owned tokens of [`Tokenizer::next_token`] and [`Tokenizer::next_event`]), or
//! lent from the buffer until the next call ([`Tokenizer::next_lent_token`] and
//! [`Tokenizer::next_lent_event`]). The buffer is compacted only by a feed, which takes the
//! tokenizer mutably, so a lent token's slices stay valid for as long as it lives.
//!
//! The states' tokens (queued as they are built) are always built with the input's lifetime:
//! the lending methods hand them out as they are, owned when the input is fed.

use std::borrow::Cow;

use thicket_input::cursor::Cursor;
use thicket_input::{Span, TextAcc};

use super::fast::{RawAttr, RawTag};
use super::{State, TagKind, Tokenizer};
use crate::token::{Attribute, Event, Token, TokenKind};

/// Where the strings of a token come from.
pub(super) trait Strings<'o>: Copy {
    /// A finished string of an accumulator.
    fn acc(self, acc: TextAcc) -> Cow<'o, str>;
    /// The input between indices `start` and `end` of the buffer as it was when its first
    /// byte was at absolute offset `base` (a whole input is always at 0), unchanged.
    fn range(self, base: usize, start: usize, end: usize) -> Cow<'o, str>;
}

/// Lent: borrowed from the tokenizer's buffer for as long as the tokenizer is borrowed.
#[derive(Clone, Copy)]
pub(super) struct Lent<'s, 'a>(pub(super) &'s Cursor<'a>);

impl<'s> Strings<'s> for Lent<'s, '_> {
    #[inline(always)]
    fn acc(self, acc: TextAcc) -> Cow<'s, str> {
        acc.into_cow(self.0)
    }

    #[inline(always)]
    fn range(self, base: usize, start: usize, end: usize) -> Cow<'s, str> {
        Cow::Borrowed(self.0.slice(base + start, base + end))
    }
}

/// The whole input the tokenizer was given (at offset 0, never compacted): borrowed with its
/// lifetime.
#[derive(Clone, Copy)]
pub(super) struct Whole<'c, 'a> {
    pub(super) input: &'c Cursor<'a>,
    pub(super) text: &'a str,
}

impl<'a> Strings<'a> for Whole<'_, 'a> {
    #[inline(always)]
    fn acc(self, acc: TextAcc) -> Cow<'a, str> {
        acc.into_cow_input(self.input)
    }

    #[inline(always)]
    fn range(self, _base: usize, start: usize, end: usize) -> Cow<'a, str> {
        // Indices of the whole input: the compiler sees where they come from (the scan of the
        // same text), which spares checks an absolute offset would need.
        Cow::Borrowed(&self.text[start..end])
    }
}

/// A fed buffer, for tokens that outlive the next feed: copied.
#[derive(Clone, Copy)]
pub(super) struct Copied<'c, 'a>(pub(super) &'c Cursor<'a>);

impl<'a> Strings<'a> for Copied<'_, 'a> {
    #[inline(always)]
    fn acc(self, acc: TextAcc) -> Cow<'a, str> {
        acc.into_cow_input(self.0)
    }

    #[inline(always)]
    fn range(self, base: usize, start: usize, end: usize) -> Cow<'a, str> {
        self.0.slice_cow(base + start, base + end)
    }
}

/// The text before a tag of the direct path.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Before {
    /// A run of the buffer, unchanged (indices, from the tag's `base`).
    Range(usize, usize),
    /// Text held from before (references, CDATA) joined by the run: the tokenizer's `text`,
    /// taken when handed out.
    Acc,
}

impl Before {
    /// The text, from `strings` (`base`: see [`HeldTag`]; `acc`: the tokenizer's `text`).
    #[inline(always)]
    pub(super) fn into_cow<'o>(
        self,
        base: usize,
        acc: &mut TextAcc,
        strings: impl Strings<'o>,
    ) -> Cow<'o, str> {
        match self {
            Before::Range(start, end) => strings.range(base, start, end),
            Before::Acc => strings.acc(acc.take()),
        }
    }
}

/// A plain tag the direct path read and the lending methods hold while they lend the text
/// before it: its ranges are indices into the buffer when it started at absolute offset `base`
/// (its attributes are the tokenizer's `raw_attrs` until the next scan). The buffer keeps it
/// until it is handed out.
#[derive(Clone, Copy, Debug)]
pub(crate) struct HeldTag {
    pub(super) base: usize,
    pub(super) raw: RawTag,
}

impl HeldTag {
    /// The absolute offset of its `<`.
    pub(super) fn start(&self) -> usize {
        self.base + self.raw.lt
    }
}

/// What the direct path found: the text before a tag (and its span), if any, and the tag.
pub(crate) type Found = (Option<(Before, Span)>, HeldTag);

/// The token of the plain tag `t` (its attributes in `raw_attrs`, built in `list`, an empty
/// list), its strings from `strings`.
#[inline(always)]
fn tag_token<'o>(
    t: HeldTag,
    raw_attrs: &[RawAttr],
    mut list: Vec<Attribute<'o>>,
    strings: impl Strings<'o>,
) -> Token<'o> {
    let HeldTag { base, raw } = t;
    let name = strings.range(base, raw.name.0, raw.name.1);
    let kind = match raw.kind {
        TagKind::End => {
            // An end tag has no attributes, so its list is an empty `Vec::new()` (see
            // `Tokenizer::take_list`): forgotten, it costs no call to its drop.
            debug_assert_eq!(list.capacity(), 0);
            std::mem::forget(list);
            TokenKind::EndTag { name }
        }
        kind => {
            for a in raw_attrs {
                let (name_start, name_end) = (base + a.name.0, base + a.name.1);
                let (value_start, value_end) = (base + a.value.0, base + a.value.1);
                list.push(Attribute {
                    name: strings.range(base, a.name.0, a.name.1),
                    value: strings.range(base, a.value.0, a.value.1),
                    span: Span::new(name_start, base + a.end),
                    name_span: Span::new(name_start, name_end),
                    value_span: Span::new(value_start, value_end),
                });
            }
            if kind == TagKind::Empty {
                TokenKind::EmptyTag {
                    name,
                    attributes: list,
                }
            } else {
                TokenKind::StartTag {
                    name,
                    attributes: list,
                }
            }
        }
    };
    Token {
        kind,
        span: Span::new(base + raw.lt, base + raw.end),
    }
}

/// The token of the text before a tag, if any, with the tag's token kept in `pending` for the
/// next call; or the tag's token (see [`tag_token`]).
#[inline(always)]
fn text_then<'a>(
    pending: &mut Option<Token<'a>>,
    acc: &mut TextAcc,
    text: Option<(Before, Span)>,
    tag: HeldTag,
    raw_attrs: &[RawAttr],
    list: Vec<Attribute<'a>>,
    strings: impl Strings<'a>,
) -> Option<Token<'a>> {
    let base = tag.base;
    let tag = tag_token(tag, raw_attrs, list, strings);
    match text {
        Some((text, span)) => {
            let text = text.into_cow(base, acc, strings);
            *pending = Some(tag);
            Some(Token {
                kind: TokenKind::Text(text),
                span,
            })
        }
        None => Some(tag),
    }
}

/// A token of the direct path, settled: what is left to build, with the borrows of the
/// tokenizer it needs (its buffer and the tag's attributes).
enum Settled<'a> {
    /// The text, its base and span, and the held text it takes (empty for a range).
    Text(Before, usize, Span, TextAcc),
    Tag(HeldTag, Vec<Attribute<'a>>),
}

impl<'a> Tokenizer<'a> {
    /// The next token, its strings lent from the tokenizer's buffer until the next call
    /// wherever the input holds them as they are (`Cow::Borrowed`); otherwise the same tokens
    /// as [`Tokenizer::next_token`] (diagnostics met on the way are kept: see
    /// [`Tokenizer::take_diagnostics`]). For a streaming tokenizer, whose
    /// [`Tokenizer::next_token`] copies every string out of the buffer, this saves an
    /// allocation per name, value and text. The tokens the direct path reads (text and plain
    /// tags, nearly every token of an ordinary document) borrow; those the states build
    /// (comments, processing instructions, tags with references or unquoted values, text cut
    /// by a feed) are owned.
    ///
    /// ```
    /// use std::borrow::Cow;
    /// use thicket_xml5::{Options, TokenKind, Tokenizer};
    /// let mut tok = Tokenizer::streaming(Options::default());
    /// tok.feed("<a href='x'>text</a>");
    /// tok.finish();
    /// let mut names = Vec::new();
    /// while let Some(token) = tok.next_lent_token() {
    ///     if let TokenKind::StartTag { name, attributes } = &token.kind {
    ///         assert!(matches!(name, Cow::Borrowed("a")));
    ///         assert!(matches!(attributes[0].value, Cow::Borrowed("x")));
    ///     }
    ///     names.push(format!("{:?}", token.kind));
    /// }
    /// assert_eq!(names.len(), 4); // <a>, text, </a>, end of file
    /// ```
    #[inline]
    pub fn next_lent_token(&mut self) -> Option<Token<'_>> {
        if self.lazy_scan {
            return self.next_lazy_lent_token();
        }
        self.next_full_lent_token()
    }

    /// [`Tokenizer::next_lent_token`] of a full tokenizer (or a lazy one that skips nothing).
    #[inline(never)]
    fn next_full_lent_token(&mut self) -> Option<Token<'_>> {
        self.lent_token::<false>()
    }

    /// [`Tokenizer::next_lent_token`] of a lazy tokenizer that skips something (out of line:
    /// the full one stays as it was).
    #[inline(never)]
    fn next_lazy_lent_token(&mut self) -> Option<Token<'_>> {
        self.lent_token::<true>()
    }

    /// [`Tokenizer::next_lent_token`], with `LAZY` the direct path's lazy copy.
    #[inline(always)]
    fn lent_token<const LAZY: bool>(&mut self) -> Option<Token<'_>> {
        if self.pending.is_some() {
            return self.pending.take().map(|t| self.stripped(t));
        }
        loop {
            if let Some(held) = self.take_held() {
                let list = self.take_list();
                return Some(self.lend(Settled::Tag(held, list)));
            }
            if self.direct_first()
                && let Some(found) = self.fast_scan_with::<LAZY>()
            {
                let settled = self.settle(found);
                return Some(self.lend(settled));
            }
            match self.events::<true, LAZY>() {
                Some(Event::Token(t)) => return Some(self.stripped(t)),
                Some(Event::Diagnostic(d)) => self.diagnostics.push(d),
                None => {
                    let found = self.direct_found.take()?;
                    let settled = self.settle(found);
                    return Some(self.lend(settled));
                }
            }
        }
    }

    /// The next token or diagnostic in input order, as [`Tokenizer::next_event`] gives them,
    /// with the strings of the tokens lent from the buffer until the next call as
    /// [`Tokenizer::next_lent_token`] lends them.
    #[inline]
    pub fn next_lent_event(&mut self) -> Option<Event<'_>> {
        if self.lazy_scan {
            return self.next_lazy_lent_event();
        }
        self.next_full_lent_event()
    }

    /// [`Tokenizer::next_lent_event`] of a full tokenizer (or a lazy one that skips nothing).
    #[inline(never)]
    fn next_full_lent_event(&mut self) -> Option<Event<'_>> {
        self.lent_event::<false>()
    }

    /// [`Tokenizer::next_lent_event`] of a lazy tokenizer that skips something (out of line).
    #[inline(never)]
    fn next_lazy_lent_event(&mut self) -> Option<Event<'_>> {
        self.lent_event::<true>()
    }

    /// [`Tokenizer::next_lent_event`], with `LAZY` the direct path's lazy copy.
    #[inline(always)]
    fn lent_event<const LAZY: bool>(&mut self) -> Option<Event<'_>> {
        if let Some(held) = self.take_held() {
            let list = self.take_list();
            return Some(Event::Token(self.lend(Settled::Tag(held, list))));
        }
        // The direct path first, as in `next_lent_token` (the common case, without the
        // events loop's checks).
        if self.direct_first()
            && let Some(found) = self.fast_scan_with::<LAZY>()
        {
            let settled = self.settle(found);
            return Some(Event::Token(self.lend(settled)));
        }
        // An error run (`<<<<`, `</</`: two events a byte), as the events loop would take it
        // with nothing before it, without its checks.
        if self.in_error_run()
            && let Some(e) = self.error_run_event()
        {
            return Some(self.stripped_event(e));
        }
        match self.events::<true, LAZY>() {
            Some(e) => Some(self.stripped_event(e)),
            None => {
                let found = self.direct_found.take()?;
                let settled = self.settle(found);
                Some(Event::Token(self.lend(settled)))
            }
        }
    }

    /// [`Tokenizer::next_token`] and [`Tokenizer::next_lent_token`] try the direct path
    /// before the queue and the states: nothing is queued or held (`fast` is off while a lent
    /// tag is held), and the data state reads on.
    #[inline(always)]
    pub(super) fn direct_first(&self) -> bool {
        self.fast
            && self.out.is_empty()
            && self.error_run.is_none()
            && self.state == State::Data
            && !self.reconsume
            && self.bom_checked
            && !self.eof_emitted
    }

    /// The direct path ([`Tokenizer::fast_scan`]), its token with the input's lifetime; the
    /// tag is built at once, and kept in `pending` for the next call when the text before it
    /// goes out first. Out of line, so that [`Tokenizer::next_token`] stays small for the tags
    /// handed out after their text.
    #[inline(never)]
    pub(super) fn fast_data(&mut self) -> Option<Token<'a>> {
        let found = self.fast_scan()?;
        self.hold(found)
    }

    /// What the direct path found, as a token with the input's lifetime (see
    /// [`Tokenizer::fast_data`]).
    #[inline(always)]
    fn hold(&mut self, (text, tag): Found) -> Option<Token<'a>> {
        let list = self.take_list();
        match self.input.input() {
            Some(whole) => {
                let strings = Whole {
                    input: &self.input,
                    text: whole,
                };
                text_then(
                    &mut self.pending,
                    &mut self.text,
                    text,
                    tag,
                    &self.raw_attrs,
                    list,
                    strings,
                )
            }
            None => {
                let strings = Copied(&self.input);
                text_then(
                    &mut self.pending,
                    &mut self.text,
                    text,
                    tag,
                    &self.raw_attrs,
                    list,
                    strings,
                )
            }
        }
    }

    /// The tag the direct path read after the text it lent, as a token with the input's
    /// lifetime (the lent and owned methods were mixed).
    pub(super) fn hold_tag(&mut self, held: HeldTag) -> Token<'a> {
        let list = self.take_list();
        match self.input.input() {
            Some(whole) => {
                let strings = Whole {
                    input: &self.input,
                    text: whole,
                };
                tag_token(held, &self.raw_attrs, list, strings)
            }
            None => tag_token(held, &self.raw_attrs, list, Copied(&self.input)),
        }
    }

    /// The held tag, taken (the direct path may run again).
    #[inline]
    pub(super) fn take_held(&mut self) -> Option<HeldTag> {
        // Looked at before taken: `take` would write the whole slot even when it is empty.
        self.held?;
        let held = self.held.take()?;
        self.fast = self.fast_paths;
        Some(held)
    }

    /// An empty list for the attributes of a tag of the direct path (the spare one, when the
    /// tag has attributes).
    #[inline(always)]
    fn take_list(&mut self) -> Vec<Attribute<'a>> {
        if self.raw_attrs.is_empty() {
            Vec::new()
        } else {
            let mut list = std::mem::take(&mut self.spare_attrs);
            list.reserve(self.raw_attrs.len());
            list
        }
    }

    /// The text goes out first, the tag is held for the next call; a tag alone goes out.
    #[inline(always)]
    fn settle(&mut self, (text, tag): Found) -> Settled<'a> {
        match text {
            Some((text, span)) => {
                self.held = Some(tag);
                // The held tag goes out first (see `fast`).
                self.fast = false;
                let acc = match text {
                    Before::Acc => self.text.take(),
                    Before::Range(..) => TextAcc::new(),
                };
                Settled::Text(text, tag.base, span, acc)
            }
            None => Settled::Tag(tag, self.take_list()),
        }
    }

    /// The text before the tag the direct path found (the tag held for the next call), lent.
    #[inline(always)]
    pub(super) fn lend_text(&mut self, found: Found) -> Token<'_> {
        let settled = self.settle(found);
        self.lend(settled)
    }

    #[inline(always)]
    fn lend<'s>(&'s self, settled: Settled<'s>) -> Token<'s> {
        self.build(settled, Lent(&self.input))
    }

    /// `token` without what [`Lazy`] did not ask for.
    #[inline]
    pub(super) fn stripped<'t>(&self, mut token: Token<'t>) -> Token<'t> {
        if let Some(lazy) = &self.lazy {
            lazy.strip(&mut token);
        }
        token
    }

    /// [`Tokenizer::stripped`] for an event.
    #[inline]
    fn stripped_event<'t>(&self, event: Event<'t>) -> Event<'t> {
        match event {
            Event::Token(t) => Event::Token(self.stripped(t)),
            d => d,
        }
    }

    #[inline(always)]
    fn build<'o>(&self, settled: Settled<'o>, strings: impl Strings<'o>) -> Token<'o> {
        match settled {
            Settled::Text(text, base, span, mut acc) => Token {
                kind: TokenKind::Text(text.into_cow(base, &mut acc, strings)),
                span,
            },
            Settled::Tag(tag, list) => tag_token(tag, &self.raw_attrs, list, strings),
        }
    }
}
