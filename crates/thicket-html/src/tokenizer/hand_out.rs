//! Handing a finished token out: its strings taken from the builders, borrowed from the
//! tokenizer's buffer (streaming: the token lives until the next call) or from the whole input
//! the tokenizer was given (whole-input iteration: the token has the input's lifetime).

use std::borrow::Cow;

use thicket_input::cursor::Cursor;
use thicket_input::{Span, TextAcc};

use super::Pending;
use super::doctype::DoctypeBuild;
use super::lazy::Keep;
use super::pi::PiBuild;
use super::tag::TagBuild;
use crate::token::{Attribute, Doctype, Tag, Token};

/// The builders of the tokens that are not text, whose strings a token takes.
pub(super) struct Builders<'t> {
    pub(super) tag: &'t mut TagBuild,
    pub(super) comment: &'t mut TextAcc,
    pub(super) pi: &'t mut PiBuild,
    pub(super) doctype: &'t mut DoctypeBuild,
    /// Which strings are handed out (a lazy tokenizer's caller asked for some only).
    pub(super) keep: Keep,
}

/// The token `p`, its strings taken from the builders and borrowed through `strings`.
#[inline(always)]
pub(super) fn hand_out<'o>(p: Pending, b: Builders<'_>, strings: impl Strings<'o>) -> Token<'o> {
    match p {
        Pending::Text(t, span) => Token::Text {
            text: if b.keep.text {
                strings.acc(t)
            } else {
                Cow::Borrowed("")
            },
            span,
        },
        Pending::Discarded(span) => Token::Discarded { span },
        Pending::Eof(span) => Token::Eof { span },
        Pending::Tag(span) if b.tag.attrs.len() > LARGE_TAG => take_large_tag(b.tag, span, strings),
        Pending::Tag(span) => take_tag(b.tag, span, strings),
        Pending::Comment(span) => {
            let data = b.comment.take();
            Token::Comment {
                data: if b.keep.comments {
                    strings.acc(data)
                } else {
                    Cow::Borrowed("")
                },
                span,
            }
        }
        Pending::Pi(span) if !b.keep.pis => {
            *b.pi = PiBuild::default();
            Token::ProcessingInstruction {
                target: Cow::Borrowed(""),
                data: Cow::Borrowed(""),
                span,
            }
        }
        Pending::Doctype(span) if !b.keep.doctypes => {
            let d = std::mem::take(b.doctype);
            Token::Doctype(Doctype {
                name: None,
                public_id: None,
                system_id: None,
                force_quirks: d.force_quirks,
                span,
            })
        }
        Pending::Pi(span) => {
            let p = std::mem::take(b.pi);
            Token::ProcessingInstruction {
                target: strings.acc(p.target),
                data: strings.acc(p.data),
                span,
            }
        }
        Pending::Doctype(span) => {
            let d = std::mem::take(b.doctype);
            Token::Doctype(Doctype {
                name: d.name.map(|s| strings.acc(s)),
                public_id: d.public_id.map(|s| strings.acc(s)),
                system_id: d.system_id.map(|s| strings.acc(s)),
                force_quirks: d.force_quirks,
                span,
            })
        }
    }
}

/// Where a token's strings borrow from.
pub(super) trait Strings<'o>: Copy {
    /// A finished string of a builder.
    fn acc(self, acc: TextAcc) -> Cow<'o, str>;
    /// The input between absolute offsets `start` and `end`, unchanged.
    fn range(self, start: usize, end: usize) -> Cow<'o, str>;
}

/// The tokenizer's own buffer.
impl<'o> Strings<'o> for &'o Cursor<'o> {
    #[inline(always)]
    fn acc(self, acc: TextAcc) -> Cow<'o, str> {
        acc.into_cow(self)
    }

    #[inline(always)]
    fn range(self, start: usize, end: usize) -> Cow<'o, str> {
        Cow::Borrowed(self.slice(start, end))
    }
}

/// Makes the [`Strings`] of one call from the tokenizer's buffer (borrowed for `'s`), for
/// tokens of lifetime `'o`.
pub(super) trait Source<'s, 'o>: Copy {
    /// The strings' origin.
    type S: Strings<'o>;
    /// It, given the buffer.
    fn make(self, input: &'s Cursor<'s>) -> Self::S;
    /// What the call returns: the token, or the token and the buffer.
    type Out;
    /// It, given the token and the buffer.
    fn out(token: Token<'o>, input: &'s Cursor<'s>) -> Self::Out;
}

/// Tokens borrowed from the tokenizer's buffer (streaming).
#[derive(Clone, Copy)]
pub(super) struct Own;

impl<'s> Source<'s, 's> for Own {
    type S = &'s Cursor<'s>;
    type Out = Token<'s>;

    #[inline(always)]
    fn make(self, input: &'s Cursor<'s>) -> &'s Cursor<'s> {
        input
    }

    #[inline(always)]
    fn out(token: Token<'s>, _: &'s Cursor<'s>) -> Token<'s> {
        token
    }
}

/// Tokens borrowed from the tokenizer's buffer, handed out with the buffer
/// (`Tokenizer::next_token_with_input`).
#[derive(Clone, Copy)]
pub(super) struct OwnWithInput;

impl<'s> Source<'s, 's> for OwnWithInput {
    type S = &'s Cursor<'s>;
    type Out = (Token<'s>, &'s Cursor<'s>);

    #[inline(always)]
    fn make(self, input: &'s Cursor<'s>) -> &'s Cursor<'s> {
        input
    }

    #[inline(always)]
    fn out(token: Token<'s>, input: &'s Cursor<'s>) -> Self::Out {
        (token, input)
    }
}

impl<'s, 'a> Source<'s, 'a> for Whole<'a> {
    type S = Self;
    type Out = Token<'a>;

    #[inline(always)]
    fn make(self, _: &'s Cursor<'s>) -> Self {
        self
    }

    #[inline(always)]
    fn out(token: Token<'a>, _: &'s Cursor<'s>) -> Token<'a> {
        token
    }
}

/// The whole input, at the same offsets as the tokenizer's buffer (which holds a copy of it and
/// is never compacted: it was fed once).
#[derive(Clone, Copy)]
pub(super) struct Whole<'a>(pub(super) &'a str);

impl<'a> Strings<'a> for Whole<'a> {
    #[inline(always)]
    fn acc(self, acc: TextAcc) -> Cow<'a, str> {
        acc.into_cow_in(self.0)
    }

    #[inline(always)]
    fn range(self, start: usize, end: usize) -> Cow<'a, str> {
        Cow::Borrowed(&self.0[start..end])
    }
}

/// The token of the finished tag `t`, its strings borrowed where possible. Its attribute list
/// keeps its capacity for the next tag.
#[inline]
pub(super) fn take_tag<'o>(t: &mut TagBuild, span: Span, strings: impl Strings<'o>) -> Token<'o> {
    let attributes = if t.attrs.is_empty() {
        Vec::new()
    } else {
        let mut v = Vec::with_capacity(t.attrs.len());
        for a in &mut t.attrs {
            v.push(Attribute {
                name: strings.acc(a.name.take()),
                value: strings.acc(a.value.take()),
                span: Span::new(a.start, a.end),
            });
        }
        t.attrs.clear();
        v
    };
    let tag = Tag {
        name: strings.acc(t.name.take()),
        attributes,
        self_closing: t.self_closing,
        span,
    };
    if t.end_tag {
        Token::EndTag(tag)
    } else {
        Token::StartTag(tag)
    }
}

/// Above this many attributes, [`take_large_tag`] converts a tag's list in place.
pub(super) const LARGE_TAG: usize = 1024;

/// [`take_tag`] for a tag with very many attributes (only the states build those): the
/// builder's list becomes the token's in place (the standard library reuses the allocation), so
/// the two are never held at once, and the builder keeps no huge capacity for the next tag.
#[inline(never)]
pub(super) fn take_large_tag<'o>(
    t: &mut TagBuild,
    span: Span,
    strings: impl Strings<'o>,
) -> Token<'o> {
    let attributes = std::mem::take(&mut t.attrs)
        .into_iter()
        .map(|a| Attribute {
            name: strings.acc(a.name),
            value: strings.acc(a.value),
            span: Span::new(a.start, a.end),
        })
        .collect();
    let tag = Tag {
        name: strings.acc(t.name.take()),
        attributes,
        self_closing: t.self_closing,
        span,
    };
    if t.end_tag {
        Token::EndTag(tag)
    } else {
        Token::StartTag(tag)
    }
}
