//! The abstract tokens of the spec, as delivered by [`crate::Tokenizer`].

use std::borrow::Cow;

use thicket_input::Span;

/// One abstract token. Runs of the spec's `DataChar` tokens are delivered as one [`Token::Data`]
/// holding the same characters.
///
/// The spans of all tokens, in order, tile the input: each starts where the previous one ended,
/// from 0 to the input's length (a recovery-inserted `StartTagClose` is empty). Input the spec
/// consumes without a token is in [`Token::Discarded`], or inside the span of the `Data` token
/// whose characters surround it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Token<'a> {
    /// `StartTagOpen`: the element name. The span covers `<` and the name.
    StartTagOpen {
        /// The element name.
        name: Cow<'a, str>,
        /// `<name`.
        span: Span,
    },
    /// `AttributeName`: the span covers the name (and `=` when there is one).
    AttributeName {
        /// The attribute name (cut at `Limits::max_name_len`, as are the names of
        /// `StartTagOpen` and `EndTag`; spans are not cut).
        name: Cow<'a, str>,
        /// The name, through `=` when present.
        span: Span,
    },
    /// `StartTagClose`: `>`, or an empty span where the tag was closed by recovery.
    StartTagClose {
        /// `>` or empty.
        span: Span,
    },
    /// `EmptyElementTagClose`: `/>`.
    EmptyElementTagClose {
        /// `/>`.
        span: Span,
    },
    /// `EndTag`: the span covers `</name S* >`.
    EndTag {
        /// The element name.
        name: Cow<'a, str>,
        /// `</name>`.
        span: Span,
    },
    /// A run of `DataChar` tokens: text, or part of an attribute value when it follows an
    /// `AttributeName`. The span runs from the first character to the end of the last (it may
    /// cover comments or CDATA delimiters in between).
    Data {
        /// The characters, newline-normalized, references replaced (an attribute value cut at
        /// `Limits::max_value_len`; its span covers the whole value).
        text: Cow<'a, str>,
        /// Where they came from.
        span: Span,
    },
    /// A character reference, only with [`crate::Options::reference_tokens`]; otherwise
    /// references are part of `Data`.
    CharRef {
        /// What the reference stands for (one character, or two for a few HTML5 names).
        text: Cow<'a, str>,
        /// `&...;`.
        span: Span,
    },
    /// A comment, only with [`crate::Options::markup_tokens`] (the spec's `COMMENT` in Main
    /// mode; comments in a DOCTYPE's internal subset are part of the [`Token::Doctype`]).
    Comment {
        /// Between `<!--` and `-->`, line breaks normalized.
        data: Cow<'a, str>,
        /// `<!--...-->`.
        span: Span,
    },
    /// A processing instruction, only with [`crate::Options::markup_tokens`] (the spec's `PI`
    /// in Main mode). [`Token::pi_target_and_data`] splits it.
    ProcessingInstruction {
        /// Between `<?` and `?>`, line breaks normalized.
        text: Cow<'a, str>,
        /// `<?...?>`.
        span: Span,
    },
    /// A DOCTYPE declaration, only with [`crate::Options::markup_tokens`]: `DOCTYPE_OPEN` and
    /// everything the spec's Doctype and Subset modes consume after it.
    Doctype {
        /// The first run of characters after `<!DOCTYPE` and any whitespace that are neither
        /// whitespace nor a delimiter (`[ ] < > " '`); empty when there is none (cut at
        /// `Limits::max_name_len`, as names are).
        name: Cow<'a, str>,
        /// From `<!DOCTYPE` to the end of the declaration (its `>`, the subset's `]>`, or where
        /// recovery ended it).
        span: Span,
    },
    /// Input the spec consumes without a token, between two tokens: a leading BOM, `S` inside
    /// tags, attribute value quotes, comments, PIs, CDATA delimiters and DOCTYPE declarations
    /// that are not between two characters of one `Data` token, and attributes dropped by
    /// `Limits::max_attributes`. A tree builder ignores it; it keeps the spans lossless.
    Discarded {
        /// The input.
        span: Span,
    },
}

impl Token<'_> {
    /// The token's span.
    pub fn span(&self) -> Span {
        match self {
            Token::StartTagOpen { span, .. }
            | Token::AttributeName { span, .. }
            | Token::StartTagClose { span }
            | Token::EmptyElementTagClose { span }
            | Token::EndTag { span, .. }
            | Token::Data { span, .. }
            | Token::CharRef { span, .. }
            | Token::Comment { span, .. }
            | Token::ProcessingInstruction { span, .. }
            | Token::Doctype { span, .. }
            | Token::Discarded { span } => *span,
        }
    }

    /// For a [`Token::ProcessingInstruction`]: its target (up to the first whitespace, maybe
    /// empty) and its data (after the whitespace that follows the target).
    ///
    /// ```
    /// use thicket_microxml::{Options, Token, Tokenizer};
    ///
    /// let options = Options { markup_tokens: true, ..Options::default() };
    /// let (tokens, _) = Tokenizer::tokenize("<?pi  some data?><r/>", options);
    /// assert_eq!(tokens[0].pi_target_and_data(), Some(("pi", "some data")));
    /// assert!(matches!(&tokens[1], Token::StartTagOpen { .. }));
    /// ```
    pub fn pi_target_and_data(&self) -> Option<(&str, &str)> {
        let Token::ProcessingInstruction { text, .. } = self else {
            return None;
        };
        let is_s = |c: char| matches!(c, '\t' | '\n' | '\u{c}' | ' ');
        let t = text.find(is_s).unwrap_or(text.len());
        Some((&text[..t], text[t..].trim_start_matches(is_s)))
    }

    /// The same token, owning its strings.
    pub fn into_owned(self) -> Token<'static> {
        let own = |c: Cow<'_, str>| Cow::Owned(c.into_owned());
        match self {
            Token::StartTagOpen { name, span } => Token::StartTagOpen {
                name: own(name),
                span,
            },
            Token::AttributeName { name, span } => Token::AttributeName {
                name: own(name),
                span,
            },
            Token::StartTagClose { span } => Token::StartTagClose { span },
            Token::EmptyElementTagClose { span } => Token::EmptyElementTagClose { span },
            Token::EndTag { name, span } => Token::EndTag {
                name: own(name),
                span,
            },
            Token::Data { text, span } => Token::Data {
                text: own(text),
                span,
            },
            Token::CharRef { text, span } => Token::CharRef {
                text: own(text),
                span,
            },
            Token::Comment { data, span } => Token::Comment {
                data: own(data),
                span,
            },
            Token::ProcessingInstruction { text, span } => Token::ProcessingInstruction {
                text: own(text),
                span,
            },
            Token::Doctype { name, span } => Token::Doctype {
                name: own(name),
                span,
            },
            Token::Discarded { span } => Token::Discarded { span },
        }
    }
}
