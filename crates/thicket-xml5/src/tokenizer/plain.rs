//! Plain tags lent as ranges of the buffer ([`Tokenizer::next_lent_item`]): the direct path's
//! tags (`fast.rs`) handed out without building a token, their names and values read on
//! demand from the ranges the scan found. For a caller that keeps its own view of a tag (a
//! rewriter), this saves building each [`Attribute`](crate::Attribute), a list of them, and
//! emptying that list for the next tag.

use std::borrow::Cow;

use thicket_input::Span;

use super::fast::{ErrorStep, RawAttr, RawTag};
use super::hand_out::HeldTag;
use super::{TagKind, Tokenizer};
use crate::token::{Attribute, Event, Token, TokenKind};

/// What [`Tokenizer::next_lent_item`] hands out: a token, or a plain tag as ranges of the
/// tokenizer's buffer (lent until the next call).
#[derive(Debug)]
pub enum LentItem<'t> {
    /// A token, as [`Tokenizer::next_lent_token`] hands it out.
    Token(Token<'t>),
    /// A plain start, empty-element or end tag read by the direct path: the token
    /// [`Tokenizer::next_lent_token`] would give (`StartTag`, `EmptyTag` or `EndTag`), not
    /// built.
    Tag(PlainTag<'t>),
}

/// A plain tag lent from the tokenizer's buffer ([`LentItem::Tag`]): its name and attributes
/// are the [`TokenKind::StartTag`](crate::TokenKind::StartTag),
/// [`TokenKind::EmptyTag`](crate::TokenKind::EmptyTag) or
/// [`TokenKind::EndTag`](crate::TokenKind::EndTag) token's, all borrowed as written (a plain
/// tag has no reference, CR or character the tokenizer changes).
#[derive(Clone, Copy, Debug)]
pub struct PlainTag<'t> {
    /// The buffer from the tag's base (the indices of `raw` and `attrs` are into it).
    text: &'t str,
    /// The absolute offset of `text`'s first byte.
    base: usize,
    raw: RawTag,
    attrs: &'t [RawAttr],
}

/// An attribute of a [`PlainTag`], as its [`Attribute`](crate::Attribute) would be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlainAttribute<'t> {
    /// The name as written.
    pub name: &'t str,
    /// The value as written, inside its quotes (empty for an attribute without a value).
    pub value: &'t str,
    /// From the name's first byte to the closing quote (or the name's end).
    pub span: Span,
}

impl<'t> PlainTag<'t> {
    /// The (qualified) name as written.
    #[inline]
    pub fn name(&self) -> &'t str {
        &self.text[self.raw.name.0..self.raw.name.1]
    }

    /// From its `<` to its `>`.
    #[inline]
    pub fn span(&self) -> Span {
        Span::new(self.base + self.raw.lt, self.base + self.raw.end)
    }

    /// Whether it is an end tag (`</name>`).
    #[inline]
    pub fn is_end(&self) -> bool {
        self.raw.kind == TagKind::End
    }

    /// Whether it is an empty-element tag (`<name/>`).
    #[inline]
    pub fn is_empty_element(&self) -> bool {
        self.raw.kind == TagKind::Empty
    }

    /// The attributes in source order (none on an end tag, or on a tag whose attributes a
    /// lazy tokenizer does not build).
    #[inline]
    pub fn attributes(&self) -> impl ExactSizeIterator<Item = PlainAttribute<'t>> + use<'t> {
        let (text, base) = (self.text, self.base);
        self.attrs.iter().map(move |a| PlainAttribute {
            name: &text[a.name.0..a.name.1],
            value: &text[a.value.0..a.value.1],
            span: Span::new(base + a.name.0, base + a.end),
        })
    }

    /// The token [`Tokenizer::next_lent_token`] would have handed out for the tag.
    pub fn to_token(&self) -> Token<'t> {
        let (text, base) = (self.text, self.base);
        let name = Cow::Borrowed(self.name());
        let attributes = || {
            let attributes = self.attrs.iter().map(|a| Attribute {
                name: Cow::Borrowed(&text[a.name.0..a.name.1]),
                value: Cow::Borrowed(&text[a.value.0..a.value.1]),
                span: Span::new(base + a.name.0, base + a.end),
                name_span: Span::new(base + a.name.0, base + a.name.1),
                value_span: Span::new(base + a.value.0, base + a.value.1),
            });
            attributes.collect()
        };
        let kind = match self.raw.kind {
            TagKind::End => TokenKind::EndTag { name },
            TagKind::Empty => TokenKind::EmptyTag {
                name,
                attributes: attributes(),
            },
            TagKind::Start => TokenKind::StartTag {
                name,
                attributes: attributes(),
            },
        };
        Token {
            kind,
            span: self.span(),
        }
    }
}

impl Tokenizer<'_> {
    /// The next token as [`Tokenizer::next_lent_token`] gives it, except that a plain tag the
    /// direct path read (nearly every tag of an ordinary document) is handed out as ranges of
    /// the buffer ([`LentItem::Tag`]) instead of a built token.
    ///
    /// ```
    /// use thicket_xml5::{LentItem, Options, Tokenizer};
    /// let mut tok = Tokenizer::streaming(Options::default());
    /// tok.feed("<a id='x'>text</a>");
    /// tok.finish();
    /// let mut seen = Vec::new();
    /// while let Some(item) = tok.next_lent_item() {
    ///     match item {
    ///         LentItem::Tag(tag) => {
    ///             let ids = tag.attributes().filter(|a| a.name == "id").map(|a| a.value);
    ///             seen.push(format!("{} {:?}", tag.name(), ids.collect::<Vec<_>>()));
    ///         }
    ///         LentItem::Token(t) => seen.push(format!("{:?}", t.kind)),
    ///     }
    /// }
    /// assert_eq!(seen, ["a [\"x\"]", "Text(\"text\")", "a []", "Eof"]);
    /// ```
    #[inline]
    pub fn next_lent_item(&mut self) -> Option<LentItem<'_>> {
        if self.lazy_scan {
            return self.next_lazy_lent_item();
        }
        self.next_full_lent_item()
    }

    /// [`Tokenizer::next_lent_item`] of a full tokenizer (or a lazy one that skips nothing).
    #[inline(never)]
    fn next_full_lent_item(&mut self) -> Option<LentItem<'_>> {
        self.lent_item::<false>()
    }

    /// [`Tokenizer::next_lent_item`] of a lazy tokenizer that skips something.
    #[inline(never)]
    fn next_lazy_lent_item(&mut self) -> Option<LentItem<'_>> {
        self.lent_item::<true>()
    }

    /// [`Tokenizer::next_lent_item`], with `LAZY` the direct path's lazy copy (the loop of
    /// `lent_token` in `hand_out.rs`, plain tags not built).
    #[inline(always)]
    fn lent_item<const LAZY: bool>(&mut self) -> Option<LentItem<'_>> {
        if self.pending.is_some() {
            return self
                .pending
                .take()
                .map(|t| LentItem::Token(self.stripped(t)));
        }
        loop {
            if let Some(held) = self.take_held() {
                return Some(LentItem::Tag(self.plain_tag(held)));
            }
            if LAZY && self.skip_text && !self.skipped_text_tokens && self.in_error_run() {
                // Skipped text: an error run's pieces (`<`, `</`) join the pending text instead
                // of coming one token each, so the run comes as one text token per buffer
                // (the text flushed where the input runs out, or before the next token).
                while let Some(step) = self.error_run_step() {
                    match step {
                        ErrorStep::Diagnostic(d) => self.diagnostics.push(d),
                        ErrorStep::Text(span) => self.text_span(span.start, span.end),
                    }
                }
                continue;
            }
            if self.direct_first()
                && let Some(found) = self.fast_scan_with::<LAZY>()
            {
                return Some(self.lend_found::<LAZY>(found));
            }
            match self.events::<true, LAZY>() {
                Some(Event::Token(t)) => return Some(LentItem::Token(self.stripped(t))),
                Some(Event::Diagnostic(d)) => self.diagnostics.push(d),
                None => {
                    let found = self.direct_found.take()?;
                    return Some(self.lend_found::<LAZY>(found));
                }
            }
        }
    }

    /// What the direct path found: the text before the tag (the tag held for the next call),
    /// or the tag (also when the text is skipped: [`Tokenizer::set_skipped_text_tokens`]).
    #[inline(always)]
    fn lend_found<const LAZY: bool>(&mut self, found: super::hand_out::Found) -> LentItem<'_> {
        match found {
            (None, tag) => LentItem::Tag(self.plain_tag(tag)),
            // (The direct path kept no text of a skipped run: `fast_scan_with`.)
            (Some(_), tag) if LAZY && self.skip_text && !self.skipped_text_tokens => {
                LentItem::Tag(self.plain_tag(tag))
            }
            found => LentItem::Token(self.lend_text(found)),
        }
    }

    /// For a lazy tokenizer ([`Options::lazy`](super::Options::lazy)) while it does not build
    /// text ([`Lazy::text`](super::Lazy::text) off, or
    /// [`set_lazy_text`](Tokenizer::set_lazy_text)`(false)`): whether
    /// [`Tokenizer::next_lent_item`] still hands out a text run before a tag as an empty text
    /// token (the default) or skips it, so that the tag comes next and the spans leave a gap
    /// where the text was. Only runs the direct path takes whole up to a plain tag are skipped;
    /// others still come as text tokens (an error run's `<` and `</` pieces as one text token
    /// per buffer, not one each). For a caller that handles text it does not read as
    /// the input between two tokens (a rewriter copying it through): a token less per text
    /// run. No effect on a full tokenizer or on the other methods.
    ///
    /// ```
    /// use thicket_xml5::{Lazy, LentItem, Options, Tokenizer};
    /// let mut tok = Tokenizer::streaming(Options {
    ///     lazy: Some(Lazy::default()),
    ///     ..Options::default()
    /// });
    /// tok.set_skipped_text_tokens(false);
    /// tok.feed("<p>Hi &amp; bye</p>end");
    /// tok.finish();
    /// let mut spans = Vec::new();
    /// while let Some(item) = tok.next_lent_item() {
    ///     match item {
    ///         LentItem::Tag(t) => spans.push(format!("{} {:?}", t.name(), t.span())),
    ///         LentItem::Token(t) => spans.push(format!("{:?} {:?}", t.kind, t.span)),
    ///     }
    /// }
    /// // The run before `</p>` is skipped; the one at the end of the input still comes.
    /// assert_eq!(spans, ["p 0..3", "p 15..19", "Text(\"\") 19..22", "Eof 22..22"]);
    /// ```
    pub fn set_skipped_text_tokens(&mut self, hand_out: bool) {
        self.skipped_text_tokens = hand_out;
    }

    /// The held tag `tag` as ranges of the buffer.
    #[inline(always)]
    fn plain_tag(&self, tag: HeldTag) -> PlainTag<'_> {
        // The buffer may have moved on since the scan (its indices are from `tag.base`).
        let shift = tag.base - self.input.base();
        PlainTag {
            text: &self.input.text()[shift..],
            base: tag.base,
            raw: tag.raw,
            attrs: &self.raw_attrs,
        }
    }
}
