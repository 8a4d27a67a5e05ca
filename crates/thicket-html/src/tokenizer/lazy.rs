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

use super::Tokenizer;
use super::fast::Fast;
use super::tag::NAME;

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
/// assert_eq!(seen, ["p 0", "text 11..24 \"\"", "a 1", "text 34..38 \"\""]);
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
    /// Text not built (`text` off) is still handed out, as an empty text token; off, the
    /// direct path hands out only the tag after it ([`Tokenizer::set_skipped_text_tokens`]).
    pub(super) skipped_text_tokens: bool,
}

impl Keep {
    pub(super) const ALL: Keep = Keep {
        text: true,
        comments: true,
        doctypes: true,
        pis: true,
        skipped_text_tokens: true,
    };

    pub(super) fn new(lazy: Option<&Lazy>) -> Keep {
        match lazy {
            None => Keep::ALL,
            Some(l) => Keep {
                text: l.text,
                comments: l.comments,
                doctypes: l.doctypes,
                pis: l.processing_instructions,
                skipped_text_tokens: true,
            },
        }
    }
}

/// The compiled [`AttributesOf`] of a lazy tokenizer: which tag names get attributes (sorted,
/// searched per tag in time logarithmic in the caller's list).
#[derive(Debug)]
pub(super) struct Wanted {
    all: bool,
    /// Bit `n` (`n` < 63) is set when a name of `n` bytes is wanted, bit 63 for longer ones:
    /// most tags are rejected by their length alone.
    lengths: u64,
    /// The names of up to eight bytes, each packed in a word ([`pack`]), sorted.
    short: Vec<u64>,
    /// The longer names, sorted.
    long: Vec<Box<[u8]>>,
}

/// A name length's bit in [`Wanted::lengths`].
#[inline(always)]
fn length_bit(len: usize) -> u64 {
    1 << len.min(63)
}

/// A name of at most eight bytes as a word (names hold no NUL: the tokenizer replaces it), so
/// comparing two names is comparing two words.
#[inline(always)]
fn pack(name: &[u8]) -> u64 {
    name.iter()
        .rev()
        .fold(0, |k, &b| (k << 8) | u64::from(b.to_ascii_lowercase()))
}

impl Wanted {
    pub(super) fn new(of: &AttributesOf) -> Wanted {
        let (all, tags) = match of {
            AttributesOf::None => (false, &[][..]),
            AttributesOf::All => (true, &[][..]),
            AttributesOf::Tags(t) => (false, &t[..]),
        };
        let mut short = Vec::new();
        let mut long = Vec::new();
        let mut lengths = 0;
        for name in tags {
            let name = name.as_bytes();
            lengths |= length_bit(name.len());
            if name.len() <= 8 {
                short.push(pack(name));
            } else {
                long.push(name.to_ascii_lowercase().into_boxed_slice());
            }
        }
        short.sort_unstable();
        short.dedup();
        long.sort_unstable();
        long.dedup();
        Wanted {
            all,
            lengths,
            short,
            long,
        }
    }

    /// Whether tags named `name` (lowercase, as the tokenizer has it) get their attributes.
    #[inline(always)]
    pub(super) fn attributes(&self, name: &[u8]) -> bool {
        if self.all {
            return true;
        }
        if self.lengths & length_bit(name.len()) == 0 {
            return false;
        }
        if name.len() > 8 {
            return self.long.binary_search_by(|n| (**n).cmp(name)).is_ok();
        }
        let key = pack(name);
        if self.short.len() <= 8 {
            // A selector program names few tags.
            return self.short.contains(&key);
        }
        self.short.binary_search(&key).is_ok()
    }
}

/// A lazy data run: up to the next `<`, which is all that ends one.
static TO_LT: StopSet = StopSet::new(b"<");

/// [`SKIM`]: ASCII whitespace.
const SKIM_SPACE: u8 = 1;
/// [`SKIM`]: what ends an attribute name (whitespace, `/`, `>`, `=`).
const SKIM_NAME_END: u8 = 2;
/// [`SKIM`]: what ends an unquoted attribute value (whitespace, `>`).
const SKIM_UNQUOTED_END: u8 = 4;

/// The byte classes [`skim_attributes`] steps by: one load and test a byte.
static SKIM: [u8; 256] = skim_table();

const fn skim_table() -> [u8; 256] {
    let mut t = [0u8; 256];
    let ws = names::ASCII_WHITESPACE;
    let mut i = 0;
    while i < ws.len() {
        t[ws[i] as usize] = SKIM_SPACE | SKIM_NAME_END | SKIM_UNQUOTED_END;
        i += 1;
    }
    t[b'/' as usize] = SKIM_NAME_END;
    t[b'=' as usize] = SKIM_NAME_END;
    t[b'>' as usize] = SKIM_NAME_END | SKIM_UNQUOTED_END;
    t
}

/// The index of the first byte at or after `j` of a [`SKIM`] class in `class`; `None` when the
/// bytes end first. Eight bytes a turn where eight are left (no bounds check per byte).
#[inline(always)]
fn skim_to(bytes: &[u8], mut j: usize, class: u8) -> Option<usize> {
    while let Some(block) = bytes.get(j..j + 8) {
        for (k, &b) in block.iter().enumerate() {
            if SKIM[usize::from(b)] & class != 0 {
                return Some(j + k);
            }
        }
        j += 8;
    }
    while SKIM[usize::from(*bytes.get(j)?)] & class == 0 {
        j += 1;
    }
    Some(j)
}

/// Follows the attribute states of the standard (12.2.5.32-40) over `bytes` from `j` (just
/// after a tag name) to the tag's `>`: returns its index and whether the tag is self-closing, or
/// `None` when the bytes end first. Only the characters that move between the states matter
/// here (whitespace, `/`, `=`, `>`, quotes); what the states would append or report is
/// skipped, and a character reference in a value never consumes any of them, so the `>` found
/// is the states'. Each loop turn starts in the before attribute name state.
pub(super) fn skim_attributes(bytes: &[u8], mut j: usize) -> Option<(usize, bool)> {
    let at = |j: usize| bytes.get(j).copied();
    let ws = |b: u8| SKIM[usize::from(b)] & SKIM_SPACE != 0;
    loop {
        let mut b = at(j)?;
        while ws(b) {
            j += 1;
            b = at(j)?;
        }
        // `/` and `>` are reconsumed in the after attribute name state.
        match b {
            b'>' => return Some((j, false)),
            b'/' => {
                // Self-closing start tag state: anything but `>` is reconsumed before a name
                // (unexpected-solidus-in-tag).
                j += 1;
                if at(j)? == b'>' {
                    return Some((j, true));
                }
                continue;
            }
            _ => {}
        }
        // Attribute name state: the first character is the name's whatever it is (`=` too:
        // unexpected-equals-sign-before-attribute-name).
        j = skim_to(bytes, j + 1, SKIM_NAME_END)?;
        b = bytes[j];
        // After attribute name state.
        while ws(b) {
            j += 1;
            b = at(j)?;
        }
        match b {
            b'=' => {}
            // `>`, `/`, or a new attribute's name: as before a name.
            _ => continue,
        }
        // Before attribute value state.
        j += 1;
        b = at(j)?;
        while ws(b) {
            j += 1;
            b = at(j)?;
        }
        match b {
            b'"' | b'\'' => {
                // The closing quote: a reference in the value never consumes it.
                j += 1 + memchr::memchr(b, bytes.get(j + 1..)?)?;
                // After attribute value (quoted) state: whitespace, `/` and `>` act as before a
                // name, anything else is reconsumed there (missing-whitespace-between-attributes).
                j += 1;
            }
            // missing-attribute-value: the tag ends.
            b'>' => return Some((j, false)),
            _ => {
                // Attribute value (unquoted) state, up to whitespace or `>`.
                j = skim_to(bytes, j + 1, SKIM_UNQUOTED_END)?;
            }
        }
    }
}

impl<'a> Tokenizer<'a> {
    /// For a lazy tokenizer ([`Options::lazy`](super::Options::lazy)) while it does not build
    /// text ([`Lazy::text`] off, or [`set_lazy_text`](Tokenizer::set_lazy_text)`(false)`):
    /// whether a text run before a tag is still handed out as an empty text token (the default)
    /// or skipped, so that the tag comes next and the tokens' spans leave a gap where the text
    /// was. Only runs the direct path takes whole are skipped (a run up to a tag it skims or
    /// builds); others still come as text tokens. For a caller that handles text it does not
    /// read as the input between two tokens (a rewriter copying it through), and saves a token
    /// per text run. No effect on a full tokenizer.
    ///
    /// ```
    /// use thicket_html::{Lazy, Options, Token, Tokenizer};
    /// let mut tok = Tokenizer::with_options(Options {
    ///     lazy: Some(Lazy::default()),
    ///     ..Options::document()
    /// });
    /// tok.set_skipped_text_tokens(false);
    /// tok.feed("<p>Hi &amp; bye</p>end");
    /// tok.finish();
    /// let mut spans = Vec::new();
    /// while let Some(token) = tok.next_token() {
    ///     match token {
    ///         Token::StartTag(t) | Token::EndTag(t) => spans.push((t.name.into_owned(), t.span)),
    ///         Token::Text { span, .. } => spans.push(("text".to_owned(), span)),
    ///         _ => {}
    ///     }
    /// }
    /// // The run before `</p>` is skipped; the one at the end of the input still comes.
    /// let names: Vec<_> = spans.iter().map(|(n, s)| format!("{n} {s:?}")).collect();
    /// assert_eq!(names, ["p 0..3", "p 15..19", "text 19..22"]);
    /// ```
    pub fn set_skipped_text_tokens(&mut self, hand_out: bool) {
        self.keep.skipped_text_tokens = hand_out;
    }

    /// [`Tokenizer::fast_data`] for a lazy tokenizer. When its caller does not read text: the
    /// text up to the next `<` in one run, then the tag there ([`Tokenizer::lazy_tag`]).
    #[inline(always)]
    pub(super) fn lazy_data(&mut self) -> Fast {
        if self.keep.text {
            return self.fast_data_in::<true>();
        }
        // A run of data ends only at `<` (or the end of the buffer): what else the states would
        // stop at (`&`, NULL, CR, characters with input-stream errors) is content.
        let start = self.pos();
        let bytes = self.input.bytes();
        let from = self.input.index();
        let at = TO_LT.find_inline(bytes, from);
        let lt = (at < bytes.len()).then_some(at);
        let end = self.input.base() + lt.unwrap_or(bytes.len());
        if end > self.checked {
            self.checked = end;
        }
        if lt.is_some() {
            self.input.set_offset(end);
            if let Some(span) = self.lazy_tag() {
                return if end > start && self.keep.skipped_text_tokens {
                    Fast::SkippedTextThenTag(start, end, span)
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
    #[inline(always)]
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
        let foreign =
            !end_tag && self.foreign.any_open() && matches!(name, b"font" | b"annotation-xml");
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

#[cfg(test)]
mod tests {
    use super::skim_attributes;

    /// The skim over what follows a tag name in `rest`: the index of the `>` and the flag.
    fn skim(rest: &str) -> Option<(usize, bool)> {
        skim_attributes(rest.as_bytes(), 0)
    }

    #[test]
    fn no_attributes() {
        assert_eq!(skim(">"), Some((0, false)));
        assert_eq!(skim(" \t\n\x0c\r>"), Some((5, false)));
    }

    #[test]
    fn a_quoted_value_holds_gt_slash_and_the_other_quote() {
        assert_eq!(skim(r#" a="x>'/>">"#), Some((10, false)));
        assert_eq!(skim(r#" a='x>"/>'/>"#), Some((11, true)));
    }

    #[test]
    fn a_quote_starts_a_value_only_after_equals() {
        // In a name and in an unquoted value a quote is a plain character.
        assert_eq!(skim(r#" a"b>"#), Some((4, false)));
        assert_eq!(skim(r#" a=b"c>"d">"#), Some((6, false)));
    }

    #[test]
    fn an_unquoted_value_ends_at_whitespace_or_gt_and_holds_slash() {
        assert_eq!(skim(" a=b/>"), Some((5, false)));
        assert_eq!(skim(" a=b />"), Some((6, true)));
    }

    #[test]
    fn whitespace_around_equals() {
        assert_eq!(skim(" a = \"b>\" >"), Some((10, false)));
    }

    #[test]
    fn missing_value_ends_the_tag() {
        assert_eq!(skim(" a=>"), Some((3, false)));
        assert_eq!(skim(" a= >"), Some((4, false)));
    }

    #[test]
    fn equals_before_a_name_starts_the_name() {
        // unexpected-equals-sign-before-attribute-name: `="x` is a name, the quote no value.
        assert_eq!(skim(" =\"x>"), Some((4, false)));
    }

    #[test]
    fn missing_whitespace_between_attributes() {
        assert_eq!(skim(r#" a="b"c="d>">"#), Some((12, false)));
    }

    #[test]
    fn solidus_not_before_gt_is_reconsumed() {
        assert_eq!(skim(" /a/ />"), Some((6, true)));
        assert_eq!(skim(" a/b='>'>"), Some((8, false)));
    }

    #[test]
    fn the_end_of_the_bytes_decides_nothing() {
        for rest in [" a=\"b>", " a", " a=b", " /", " a=\"b\"", ""] {
            assert_eq!(skim(rest), None, "{rest:?}");
        }
    }
}
