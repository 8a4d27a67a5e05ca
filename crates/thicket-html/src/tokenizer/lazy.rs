//! Lazy tokenizing ([`Options::lazy`](super::Options::lazy)): the same tokens as the full
//! tokenizer (kinds, spans, tag names, self-closing flags, and every state switch the options
//! ask for), without building what the caller said it does not read: text, comment, DOCTYPE
//! and processing instruction content, and the attributes of tags it did not ask for.
//!
//! Where laziness acts: on the direct path of the data state (beside [`super::fast`]). There a
//! text run the caller does not read is a run up to the next `<` (references, NULL and CR are
//! the content's business, not the boundaries'), and a tag whose attributes nobody asked for is
//! *skimmed*: [`skim_attributes`] follows the attribute states of the standard over bytes only
//! far enough to find the tag's `>` and whether `/>` ends it, building nothing. Anything the
//! skim cannot decide (the end of the buffer, an uppercase or NULL in the tag name, a name over
//! the name limit) goes to the states at its start, which build it whole; what was not asked
//! for is then dropped before the token is handed out, so the tokens do not depend on which path
//! took the input. Everything else (markup declarations, raw text, script data) goes through
//! the states as always.
//!
//! The tokens do not depend on laziness except in what was not asked for (tested against the
//! full tokenizer in tests/lazy.rs): a text, comment or processing instruction token's strings
//! are empty, a DOCTYPE's name and identifiers are `None`, a tag not asked for has no
//! attributes. Text runs may be split at other places when fed in chunks (the full tokenizer
//! waits at a chunk end inside `&amp` or after a CR; a lazy one has nothing to wait for), so
//! the text tokens of one run tile the same span. Diagnostics are not complete: the input a
//! skim or lazy run passes over is not checked.

use thicket_input::Span;
use thicket_input::scan::StopSet;
use thicket_names::html as names;

use super::fast::Fast;
use super::tag::NAME;
use super::Tokenizer;

/// What a lazy tokenizer builds ([`Options::lazy`](super::Options::lazy)); everything else is
/// skipped. `Lazy::default()` builds nothing but the tokens' kinds, spans, tag names and flags.
///
/// ```
/// use thicket_html::{AttributesOf, Lazy, Options, Token, Tokenizer};
/// let mut tok = Tokenizer::with_options(Options {
///     lazy: Some(Lazy { attributes: AttributesOf::tags(["a"]), ..Lazy::default() }),
///     ..Options::document()
/// });
/// tok.feed("<p class=x>Hi &amp; bye <a href=/>link</a></p>");
/// tok.finish();
/// let mut seen = Vec::new();
/// while let Some(token) = tok.next_token() {
///     match token {
///         Token::StartTag(t) => seen.push(format!("{} {}", t.name, t.attributes.len())),
///         Token::Text { text, span } => seen.push(format!("text {span:?} {text:?}")),
///         _ => {}
///     }
/// }
/// assert_eq!(seen, ["p 0", "text 11..24 \"\"", "a 1", "text 35..39 \"\""]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lazy {
    /// Build text content (references resolved, NULL and CR as the standard says); otherwise
    /// text tokens carry an empty string.
    pub text: bool,
    /// Build comment data; otherwise comments carry an empty string.
    pub comments: bool,
    /// Build DOCTYPE names and identifiers; otherwise they are `None` (`force_quirks` is kept).
    pub doctypes: bool,
    /// Build processing instruction targets and data; otherwise both are empty.
    pub processing_instructions: bool,
    /// Which tags get their attributes built; the others have none.
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
    /// The start and end tags with these names (lowercase, as tokens have them: build with
    /// [`AttributesOf::tags`], which lowercases).
    Tags(Vec<String>),
}

impl AttributesOf {
    /// The tags named in `names`, ASCII-lowercased (as the tokenizer lowercases tag names).
    pub fn tags<S: AsRef<str>>(names: impl IntoIterator<Item = S>) -> AttributesOf {
        AttributesOf::Tags(
            names
                .into_iter()
                .map(|n| n.as_ref().to_ascii_lowercase())
                .collect(),
        )
    }
}

/// What the tokens keep of their strings: everything (the full tokenizer), or what [`Lazy`]
/// asked for.
#[derive(Clone, Copy, Debug)]
pub(super) struct Keep {
    pub(super) text: bool,
    pub(super) comments: bool,
    pub(super) doctypes: bool,
    pub(super) pis: bool,
}

impl Keep {
    pub(super) const ALL: Keep = Keep {
        text: true,
        comments: true,
        doctypes: true,
        pis: true,
    };

    pub(super) fn new(lazy: Option<&Lazy>) -> Keep {
        match lazy {
            None => Keep::ALL,
            Some(l) => Keep {
                text: l.text,
                comments: l.comments,
                doctypes: l.doctypes,
                pis: l.processing_instructions,
            },
        }
    }
}

/// The compiled [`AttributesOf`] of a lazy tokenizer: which tag names get attributes (sorted,
/// searched per tag in time logarithmic in the caller's list).
#[derive(Debug)]
pub(super) struct Wanted {
    all: bool,
    names: Vec<Box<[u8]>>,
}

impl Wanted {
    pub(super) fn new(of: &AttributesOf) -> Wanted {
        let (all, mut names) = match of {
            AttributesOf::None => (false, Vec::new()),
            AttributesOf::All => (true, Vec::new()),
            AttributesOf::Tags(t) => (
                false,
                t.iter()
                    .map(|n| n.to_ascii_lowercase().into_bytes().into_boxed_slice())
                    .collect(),
            ),
        };
        names.sort();
        names.dedup();
        Wanted { all, names }
    }

    /// Whether tags named `name` get their attributes.
    #[inline]
    pub(super) fn attributes(&self, name: &[u8]) -> bool {
        self.all || self.names.binary_search_by(|n| (**n).cmp(name)).is_ok()
    }
}

/// A lazy run of data: up to the next `<`, which is all that ends one.
static TO_LT: StopSet = StopSet::new(b"<");

/// Where the attributes of a tag being skimmed are, in the standard's attribute states
/// (12.2.5.32-40) as far as they decide where the tag ends.
#[derive(Clone, Copy)]
enum Skim {
    BeforeAttributeName,
    AttributeName,
    AfterAttributeName,
    BeforeAttributeValue,
    AttributeValueUnquoted,
    AfterAttributeValueQuoted,
    SelfClosingStartTag,
}

/// Follows the attribute states over `bytes` from `j` (just after a tag name) to the tag's
/// `>`: returns its index and whether the tag is self-closing, or `None` when the bytes end
/// first. Only the characters that move between states matter here (whitespace, `/`, `=`,
/// `>`, quotes); what the states would append or report is skipped, and a character reference
/// in a value never consumes any of them, so the `>` found is the states'.
pub(super) fn skim_attributes(bytes: &[u8], mut j: usize) -> Option<(usize, bool)> {
    use Skim::*;
    let mut state = BeforeAttributeName;
    loop {
        let b = *bytes.get(j)?;
        let ws = names::is_ascii_whitespace(b);
        state = match (state, b) {
            (BeforeAttributeName, _) if ws => state,
            // `/` and `>` are reconsumed in the after attribute name state.
            (BeforeAttributeName, b'/') => SelfClosingStartTag,
            (BeforeAttributeName, b'>') => return Some((j, false)),
            // Anything else starts a name, `=` too (unexpected-equals-sign-before-attribute-name).
            (BeforeAttributeName, _) => AttributeName,
            (AttributeName, _) if ws => AfterAttributeName,
            (AttributeName, b'/') => SelfClosingStartTag,
            (AttributeName, b'=') => BeforeAttributeValue,
            (AttributeName, b'>') => return Some((j, false)),
            (AttributeName, _) => state,
            (AfterAttributeName, _) if ws => state,
            (AfterAttributeName, b'/') => SelfClosingStartTag,
            (AfterAttributeName, b'=') => BeforeAttributeValue,
            (AfterAttributeName, b'>') => return Some((j, false)),
            (AfterAttributeName, _) => AttributeName,
            (BeforeAttributeValue, _) if ws => state,
            (BeforeAttributeValue, b'"' | b'\'') => {
                // The closing quote: a reference in the value never consumes it.
                j += 1 + memchr::memchr(b, bytes.get(j + 1..)?)?;
                AfterAttributeValueQuoted
            }
            // missing-attribute-value: the tag ends.
            (BeforeAttributeValue, b'>') => return Some((j, false)),
            (BeforeAttributeValue, _) => AttributeValueUnquoted,
            (AttributeValueUnquoted, _) if ws => BeforeAttributeName,
            (AttributeValueUnquoted, b'>') => return Some((j, false)),
            (AttributeValueUnquoted, _) => state,
            (AfterAttributeValueQuoted, _) if ws => BeforeAttributeName,
            (AfterAttributeValueQuoted, b'/') => SelfClosingStartTag,
            (AfterAttributeValueQuoted, b'>') => return Some((j, false)),
            (AfterAttributeValueQuoted, _) => {
                // missing-whitespace-between-attributes: reconsumed before a name.
                state = BeforeAttributeName;
                continue;
            }
            (SelfClosingStartTag, b'>') => return Some((j, true)),
            (SelfClosingStartTag, _) => {
                // unexpected-solidus-in-tag: reconsumed before a name.
                state = BeforeAttributeName;
                continue;
            }
        };
        j += 1;
    }
}

impl Tokenizer {
    /// [`Tokenizer::fast_data`] for a lazy tokenizer whose caller does not read text: the text
    /// up to the next `<` in one run, then the tag there ([`Tokenizer::lazy_tag`]).
    #[inline(never)]
    pub(super) fn lazy_data(&mut self) -> Fast {
        let start = self.pos();
        let end = self.scan(&TO_LT);
        if self.input.bytes().get(end - self.input.base()) == Some(&b'<') {
            self.input.set_offset(end);
            if let Some(span) = self.lazy_tag() {
                return if end > start {
                    Fast::RawTextThenTag(start, end, span)
                } else {
                    Fast::Tag(span)
                };
            }
            if end > start {
                self.emit_raw(start, end);
            }
            self.fast_comment();
            return Fast::No;
        }
        if end > start {
            self.emit_raw(start, end);
            self.input.set_offset(end);
        }
        Fast::No
    }

    /// The direct path's tag at the position (a `<`) for a lazy tokenizer: a tag whose
    /// attributes are wanted is built whole by [`Tokenizer::fast_tag`]; any other start or end
    /// tag with a plain name (lowercase, then whitespace, `/` or `>`) is skimmed
    /// ([`skim_attributes`]) and handed out without attributes. `None` leaves the tag to the
    /// states, as [`Tokenizer::fast_tag`] does.
    #[inline(never)]
    pub(super) fn lazy_tag(&mut self) -> Option<Span> {
        let bytes = self.input.bytes();
        let lt = self.input.index();
        let at = |j: usize| bytes.get(j).copied();
        let end_tag = at(lt + 1)? == b'/';
        let name_start = lt + 1 + usize::from(end_tag);
        if !names::is_ascii_lower_alpha(at(name_start)?) {
            return None;
        }
        let mut j = name_start + 1;
        while !NAME.contains(at(j)?) {
            j += 1;
        }
        let name_end = j;
        let stop = bytes[j];
        if !(names::is_ascii_whitespace(stop) || stop == b'/' || stop == b'>')
            || name_end - name_start > self.limit.max_name_len
        {
            return None;
        }
        let name = &bytes[name_start..name_end];
        let wanted = self.lazy.as_ref().is_some_and(|w| w.attributes(name));
        // The model of foreign content reads these two tags' attributes.
        let foreign = !end_tag
            && self.foreign.any_open()
            && matches!(name, b"font" | b"annotation-xml");
        if wanted || foreign {
            let span = self.fast_tag()?;
            if !wanted {
                self.tag.attrs.clear();
            }
            return Some(span);
        }
        let (gt, self_closing) = skim_attributes(bytes, name_end)?;
        let base = self.input.base();
        let t = &mut self.tag;
        t.end_tag = end_tag;
        t.name.clear();
        t.name
            .push_range(base + name_start, base + name_end, &self.input);
        t.attrs.clear();
        t.self_closing = self_closing;
        Some(self.direct_tag_done(lt, gt, name_start, name_end, end_tag))
    }
}
