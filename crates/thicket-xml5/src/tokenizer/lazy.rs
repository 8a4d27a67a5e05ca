//! Lazy tokenizing ([`crate::Options::lazy`]): the same tokens, kinds and spans as the full
//! tokenizer, with only the strings a caller asked for (docs/xml5.md "Lazy tokenizing").
//!
//! Two things are skipped where it pays: in the data state, a text run the caller does not read
//! goes to the next `<` in one search (the direct path, `fast.rs`), without stopping at
//! references, CR or characters the input stream reports; and the attributes of a tag of the
//! direct path that the caller does not read are not built (`hand_out.rs`). Everything else
//! is built as always and what was not asked for is dropped before the token goes out
//! ([`Lazy::strip`]), so a token does not depend on which path took it.

use std::borrow::Cow;

use crate::token::{Token, TokenKind};

/// What a lazy tokenizer builds ([`crate::Options::lazy`]); what it does not build is empty in
/// the tokens (spans, kinds and names are always exact).
///
/// ```
/// use thicket_xml5::{AttributesOf, Lazy, Options, TokenKind, Tokenizer};
/// let lazy = Lazy { attributes: AttributesOf::tags(["a"]), ..Lazy::default() };
/// let options = Options { lazy: Some(lazy), ..Options::default() };
/// let mut seen = Vec::new();
/// for token in Tokenizer::with_options("<p x='1'>text &amp; more<a y='2'/></p>", options) {
///     match token.kind {
///         TokenKind::StartTag { name, attributes } | TokenKind::EmptyTag { name, attributes } => {
///             seen.push(format!("{name} {}", attributes.len()))
///         }
///         TokenKind::Text(text) => seen.push(format!("text {:?} {text:?}", token.span)),
///         _ => {}
///     }
/// }
/// assert_eq!(seen, ["p 0", "text 9..24 \"\"", "a 1"]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lazy {
    /// Build text content (references resolved, newlines normalized); otherwise text tokens
    /// carry an empty string.
    pub text: bool,
    /// Build comment data; otherwise comments carry an empty string.
    pub comments: bool,
    /// Build processing instruction targets and data; otherwise both are empty.
    pub processing_instructions: bool,
    /// Build DOCTYPE names and identifiers; otherwise they are `None`.
    pub doctypes: bool,
    /// Which start and empty-element tags get their attributes built; the others have none.
    pub attributes: AttributesOf,
}

/// The tags whose attributes a lazy tokenizer builds ([`Lazy::attributes`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum AttributesOf {
    /// No tag.
    #[default]
    None,
    /// Every tag.
    All,
    /// The tags with these qualified names, as written (XML names are case-sensitive).
    Tags(Vec<String>),
}

impl AttributesOf {
    /// The tags named in `names`.
    pub fn tags<S: AsRef<str>>(names: impl IntoIterator<Item = S>) -> AttributesOf {
        AttributesOf::Tags(names.into_iter().map(|n| n.as_ref().to_owned()).collect())
    }

    /// Whether the tag named `name` gets its attributes.
    #[inline]
    pub(crate) fn of(&self, name: &str) -> bool {
        match self {
            AttributesOf::None => false,
            AttributesOf::All => true,
            AttributesOf::Tags(names) => names.iter().any(|n| n == name),
        }
    }
}

impl Lazy {
    /// Drops from `token` what was not asked for.
    pub(crate) fn strip(&self, token: &mut Token<'_>) {
        match &mut token.kind {
            TokenKind::StartTag { name, attributes } | TokenKind::EmptyTag { name, attributes }
                if !attributes.is_empty() && !self.attributes.of(name) =>
            {
                attributes.clear();
            }
            TokenKind::Text(text) if !self.text => *text = Cow::Borrowed(""),
            TokenKind::Comment(data) if !self.comments => *data = Cow::Borrowed(""),
            TokenKind::Pi { target, data } if !self.processing_instructions => {
                *target = Cow::Borrowed("");
                *data = Cow::Borrowed("");
            }
            TokenKind::Doctype {
                name,
                public_id,
                system_id,
            } if !self.doctypes => {
                *name = None;
                *public_id = None;
                *system_id = None;
            }
            _ => {}
        }
    }
}
