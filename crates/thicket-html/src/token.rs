//! Tokens, in the standard's vocabulary. Strings are `Cow`: borrowed from the tokenizer's input
//! buffer unless a reference, a replacement, lowercasing or newline normalization changed them.

use std::borrow::Cow;

use thicket_input::Span;

/// One attribute of a tag, in source order (duplicates are dropped and reported).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Attribute<'a> {
    /// The name, lowercased.
    pub name: Cow<'a, str>,
    /// The value with character references resolved (empty when there is no value).
    pub value: Cow<'a, str>,
    /// From the first character of the name to the end of the value (closing quote included).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_span"))]
    pub span: Span,
}

/// A start or end tag.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Tag<'a> {
    /// The tag name, lowercased.
    pub name: Cow<'a, str>,
    /// The attributes in source order, without duplicates. End tags keep theirs too (the standard
    /// reports `end-tag-with-attributes` and a tree builder ignores them).
    pub attributes: Vec<Attribute<'a>>,
    /// True for `<br/>`.
    pub self_closing: bool,
    /// From `<` to `>` inclusive.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_span"))]
    pub span: Span,
}

impl<'a> Tag<'a> {
    /// The value of the attribute `name`, if the tag has it. Names are compared ASCII
    /// case-insensitively (the tokenizer lowercases them, and the DOM's `getAttribute` lowercases
    /// its argument on HTML elements).
    ///
    /// ```
    /// let t = thicket_html::parse("<a HREF='/x' title>").next().unwrap();
    /// let thicket_html::Token::StartTag(a) = t else { unreachable!() };
    /// assert_eq!(a.attribute("href"), Some("/x"));
    /// assert_eq!(a.attribute("Title"), Some(""));
    /// assert_eq!(a.attribute("rel"), None);
    /// ```
    pub fn attribute(&self, name: &str) -> Option<&str> {
        self.find_attribute(name).map(|a| &*a.value)
    }

    /// The attribute `name` itself (its value with the input's lifetime where it is borrowed,
    /// and its span), if the tag has it; names compared as [`attribute`](Self::attribute) does.
    pub fn find_attribute(&self, name: &str) -> Option<&Attribute<'a>> {
        self.attributes
            .iter()
            .find(|a| a.name.eq_ignore_ascii_case(name))
    }
}

/// A DOCTYPE token.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Doctype<'a> {
    /// The name, lowercased; `None` when missing.
    pub name: Option<Cow<'a, str>>,
    /// The public identifier; `None` when missing (not the same as empty).
    pub public_id: Option<Cow<'a, str>>,
    /// The system identifier; `None` when missing.
    pub system_id: Option<Cow<'a, str>>,
    /// The standard's force-quirks flag.
    pub force_quirks: bool,
    /// From `<!` to `>` inclusive (or to the end of the input).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_span"))]
    pub span: Span,
}

/// A token. Every token has a span; the spans of all tokens, in order, tile the input.
///
/// With the `serde` feature, a token serializes as an object tagged by `"type"`
/// (`"start-tag"`, `"text"`, ...), spans as `{"start", "end"}`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "type", rename_all = "kebab-case"))]
pub enum Token<'a> {
    /// `<!DOCTYPE ...>`.
    Doctype(Doctype<'a>),
    /// A start tag.
    StartTag(Tag<'a>),
    /// An end tag.
    EndTag(Tag<'a>),
    /// A comment (also a bogus comment such as `</1>`, `<?xml ...>` or `<?1>`).
    Comment {
        /// The comment text.
        data: Cow<'a, str>,
        /// From `<` to `>` inclusive (or to the end of the input).
        #[cfg_attr(feature = "serde", serde(with = "crate::serde_span"))]
        span: Span,
    },
    /// A processing instruction `<?target data>` (HTML Standard, 2026). Not produced with
    /// [`crate::Options::legacy_processing_instructions`], which reads `<?` as a bogus comment.
    ProcessingInstruction {
        /// The target, as written (ASCII letters, digits, `-` and `_`; never lowercased, never
        /// empty, never `xml` or `xml-stylesheet` in any case: those are bogus comments).
        target: Cow<'a, str>,
        /// The data: everything after the whitespace that follows the target, up to the `>` (a
        /// `?` right before the `>` excluded), with newlines normalized. No references.
        data: Cow<'a, str>,
        /// From `<` to `>` inclusive.
        #[cfg_attr(feature = "serde", serde(with = "crate::serde_span"))]
        span: Span,
    },
    /// A run of character tokens. Runs are coalesced, but a run may be split where a chunk fed
    /// to [`crate::Tokenizer::feed`] ended (the text before it was certain and was returned).
    Text {
        /// The characters, with newlines normalized and references resolved.
        text: Cow<'a, str>,
        /// The source they came from (a CDATA section's `<![CDATA[` and `]]>` included).
        #[cfg_attr(feature = "serde", serde(with = "crate::serde_span"))]
        span: Span,
    },
    /// Input the standard drops without a token: `</>`, a tag cut off by the end of the input,
    /// an empty CDATA section. A tree builder ignores it; it keeps the spans lossless.
    Discarded {
        /// The dropped source.
        #[cfg_attr(feature = "serde", serde(with = "crate::serde_span"))]
        span: Span,
    },
    /// The end of the input (an empty span at the end).
    Eof {
        /// Empty, at the end of the input.
        #[cfg_attr(feature = "serde", serde(with = "crate::serde_span"))]
        span: Span,
    },
}

impl Token<'_> {
    /// The source this token came from.
    pub fn span(&self) -> Span {
        match self {
            Token::Doctype(d) => d.span,
            Token::StartTag(t) | Token::EndTag(t) => t.span,
            Token::Comment { span, .. }
            | Token::ProcessingInstruction { span, .. }
            | Token::Text { span, .. }
            | Token::Discarded { span }
            | Token::Eof { span } => *span,
        }
    }

    /// A copy that owns its strings.
    pub fn into_owned(self) -> Token<'static> {
        fn own(c: Cow<'_, str>) -> Cow<'static, str> {
            Cow::Owned(c.into_owned())
        }
        fn own_tag(t: Tag<'_>) -> Tag<'static> {
            Tag {
                name: own(t.name),
                attributes: t
                    .attributes
                    .into_iter()
                    .map(|a| Attribute {
                        name: own(a.name),
                        value: own(a.value),
                        span: a.span,
                    })
                    .collect(),
                self_closing: t.self_closing,
                span: t.span,
            }
        }
        match self {
            Token::Doctype(d) => Token::Doctype(Doctype {
                name: d.name.map(own),
                public_id: d.public_id.map(own),
                system_id: d.system_id.map(own),
                force_quirks: d.force_quirks,
                span: d.span,
            }),
            Token::StartTag(t) => Token::StartTag(own_tag(t)),
            Token::EndTag(t) => Token::EndTag(own_tag(t)),
            Token::Comment { data, span } => Token::Comment {
                data: own(data),
                span,
            },
            Token::ProcessingInstruction { target, data, span } => Token::ProcessingInstruction {
                target: own(target),
                data: own(data),
                span,
            },
            Token::Text { text, span } => Token::Text {
                text: own(text),
                span,
            },
            Token::Discarded { span } => Token::Discarded { span },
            Token::Eof { span } => Token::Eof { span },
        }
    }
}
