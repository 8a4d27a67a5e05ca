//! Tokens, in the draft's vocabulary.

use std::borrow::Cow;

use thicket_input::Span;

use crate::error::Diagnostic;

/// One attribute of a start or empty tag, in source order.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Attribute<'a> {
    /// The qualified name as written (`xmlns:a`, `b:c`, `d`).
    pub name: Cow<'a, str>,
    /// The value with references resolved.
    pub value: Cow<'a, str>,
    /// From the first character of the name to the end of the value (closing quote included).
    pub span: Span,
    /// The name as written.
    pub name_span: Span,
    /// The value's source: inside the quotes, or the characters of an unquoted value (character
    /// references as written). Empty, at the end of [`Attribute::span`], when there is no value.
    pub value_span: Span,
}

/// An emptied attribute list, kept for its allocation: made from the attributes of a token
/// (lent or not) once they are no longer needed, and handed back with
/// [`crate::Tokenizer::recycle`] so that a later tag builds its attributes in it instead of
/// allocating. It borrows nothing, so the token it came from may be gone.
///
/// ```
/// use thicket_xml5::{Options, SpareAttributes, TokenKind, Tokenizer};
/// let mut tok = Tokenizer::streaming(Options::default());
/// tok.feed("<a x='1'/><b y='2'/>");
/// while let Some(token) = tok.next_lent_token() {
///     if let TokenKind::EmptyTag { attributes, .. } = token.kind {
///         assert_eq!(attributes.len(), 1);
///         let spare = SpareAttributes::from(attributes);
///         tok.recycle(spare);
///     }
/// }
/// ```
#[derive(Debug, Default)]
pub struct SpareAttributes(pub(crate) Vec<Attribute<'static>>);

impl From<Vec<Attribute<'_>>> for SpareAttributes {
    fn from(mut list: Vec<Attribute<'_>>) -> SpareAttributes {
        list.clear();
        // No element is left to map: the standard library collects in place, keeping the
        // allocation.
        SpareAttributes(list.into_iter().map(|_| unreachable!()).collect())
    }
}

impl SpareAttributes {
    /// How many attributes it holds without allocating.
    pub fn capacity(&self) -> usize {
        self.0.capacity()
    }
}

/// What a token is.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum TokenKind<'a> {
    /// `<name attr="v">`.
    StartTag {
        /// The qualified name as written.
        name: Cow<'a, str>,
        /// Attributes in source order, duplicates dropped.
        attributes: Vec<Attribute<'a>>,
    },
    /// `<name attr="v"/>`.
    EmptyTag {
        /// The qualified name as written.
        name: Cow<'a, str>,
        /// Attributes in source order, duplicates dropped.
        attributes: Vec<Attribute<'a>>,
    },
    /// `</name>`.
    EndTag {
        /// The qualified name as written.
        name: Cow<'a, str>,
    },
    /// `</>`: closes the current element.
    ShortEndTag,
    /// Character data (coalesced; a diagnostic ends a run so events stay in input order). Its
    /// span covers the run's source: character references and CDATA markup included.
    Text(Cow<'a, str>),
    /// `<!--data-->`, or a bogus comment.
    Comment(Cow<'a, str>),
    /// `<?target data?>`.
    Pi {
        /// The target.
        target: Cow<'a, str>,
        /// The data after the whitespace that follows the target.
        data: Cow<'a, str>,
    },
    /// Draft profile: `<?xml version="1.0" encoding="…" standalone="…"?>`.
    XmlDeclaration {
        /// `version`.
        version: Option<Cow<'a, str>>,
        /// `encoding`.
        encoding: Option<Cow<'a, str>>,
        /// `standalone`.
        standalone: Option<Cow<'a, str>>,
    },
    /// `<!DOCTYPE name …>`. The draft profile skips everything after the name (public and system
    /// identifiers stay `None`); the compatibility profile reads 2016-style identifiers.
    Doctype {
        /// The name, ASCII-lowercased.
        name: Option<Cow<'a, str>>,
        /// Compatibility profile: the `PUBLIC` identifier.
        public_id: Option<Cow<'a, str>>,
        /// Compatibility profile: the `SYSTEM` identifier.
        system_id: Option<Cow<'a, str>>,
    },
    /// Input the draft reads but puts in no token, so that the spans of the tokens, in order,
    /// tile the input: a byte order mark, or CDATA markup with no text around it
    /// (`<![CDATA[]]>` between tags). (A text token's span covers the CDATA markup inside its
    /// run, as it covers character references.)
    Discarded,
    /// The end of the input.
    Eof,
}

/// A token and the span of input it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Token<'a> {
    /// What it is.
    pub kind: TokenKind<'a>,
    /// Where it came from (a tag's span starts at its `<`).
    pub span: Span,
}

impl Token<'_> {
    /// Converts every borrowed string into an owned one.
    pub fn into_owned(self) -> Token<'static> {
        fn o(c: Cow<'_, str>) -> Cow<'static, str> {
            Cow::Owned(c.into_owned())
        }
        fn oo(c: Option<Cow<'_, str>>) -> Option<Cow<'static, str>> {
            c.map(o)
        }
        fn attrs(v: Vec<Attribute<'_>>) -> Vec<Attribute<'static>> {
            v.into_iter()
                .map(|a| Attribute {
                    name: o(a.name),
                    value: o(a.value),
                    span: a.span,
                    name_span: a.name_span,
                    value_span: a.value_span,
                })
                .collect()
        }
        let kind = match self.kind {
            TokenKind::StartTag { name, attributes } => TokenKind::StartTag {
                name: o(name),
                attributes: attrs(attributes),
            },
            TokenKind::EmptyTag { name, attributes } => TokenKind::EmptyTag {
                name: o(name),
                attributes: attrs(attributes),
            },
            TokenKind::EndTag { name } => TokenKind::EndTag { name: o(name) },
            TokenKind::ShortEndTag => TokenKind::ShortEndTag,
            TokenKind::Text(t) => TokenKind::Text(o(t)),
            TokenKind::Comment(t) => TokenKind::Comment(o(t)),
            TokenKind::Pi { target, data } => TokenKind::Pi {
                target: o(target),
                data: o(data),
            },
            TokenKind::XmlDeclaration {
                version,
                encoding,
                standalone,
            } => TokenKind::XmlDeclaration {
                version: oo(version),
                encoding: oo(encoding),
                standalone: oo(standalone),
            },
            TokenKind::Doctype {
                name,
                public_id,
                system_id,
            } => TokenKind::Doctype {
                name: oo(name),
                public_id: oo(public_id),
                system_id: oo(system_id),
            },
            TokenKind::Discarded => TokenKind::Discarded,
            TokenKind::Eof => TokenKind::Eof,
        };
        Token {
            kind,
            span: self.span,
        }
    }
}

/// What the tokenizer produces, in input order: tokens and diagnostics interleaved.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Event<'a> {
    /// A token.
    Token(Token<'a>),
    /// A parse error.
    Diagnostic(Diagnostic),
}
