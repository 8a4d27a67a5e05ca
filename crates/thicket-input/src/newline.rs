//! Newline normalization.
//!
//! Two rule sets:
//! - [`NewlineRules::CrLf`]: CR LF and a lone CR become LF. MicroXML, XML5 and HTML ("normalize
//!   newlines" in the WHATWG input stream preprocessing) use it.
//! - [`NewlineRules::LeafXml`]: LeafXML's "Line break normalization": CR LF, CR NEL, NEL (U+0085),
//!   LS (U+2028) and a lone CR become LF, longest match first.
//!
//! The whole-string functions borrow their input when nothing changes. [`NewlineNormalizer`] does
//! the same work on chunks: a CR at the end of one chunk and the LF (or NEL) at the start of the
//! next still make one line break.

use std::borrow::Cow;

/// Which line breaks are turned into LF.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum NewlineRules {
    /// CR LF and CR (MicroXML, XML5, HTML).
    CrLf,
    /// CR LF, CR NEL, NEL, LS and CR (LeafXML).
    LeafXml,
}

impl NewlineRules {
    /// True when `c` is a line break under these rules: LF and CR, and under LeafXML's also NEL
    /// (U+0085) and LS (U+2028). (CR LF and CR NEL are one break each, of two characters.)
    ///
    /// ```
    /// use thicket_input::NewlineRules;
    /// assert!(NewlineRules::LeafXml.is_line_break('\u{2028}'));
    /// assert!(!NewlineRules::CrLf.is_line_break('\u{85}'));
    /// ```
    #[inline]
    pub const fn is_line_break(self, c: char) -> bool {
        match self {
            NewlineRules::CrLf => matches!(c, '\n' | '\r'),
            NewlineRules::LeafXml => matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}'),
        }
    }
}

/// NEL, U+0085, in UTF-8.
const NEL: &[u8] = b"\xC2\x85";
/// LS, U+2028, in UTF-8.
const LS: &[u8] = b"\xE2\x80\xA8";

/// Replaces CR LF and lone CR with LF. Borrows `text` when it has no CR.
///
/// ```
/// use thicket_input::newline::normalize_crlf;
/// assert_eq!(normalize_crlf("a\r\nb\rc\n"), "a\nb\nc\n");
/// assert!(matches!(normalize_crlf("a\nb"), std::borrow::Cow::Borrowed(_)));
/// ```
pub fn normalize_crlf(text: &str) -> Cow<'_, str> {
    normalize(text, NewlineRules::CrLf)
}

/// Replaces CR LF, CR NEL, NEL, LS and lone CR with LF (LeafXML). Borrows `text` when it has none
/// of CR, NEL and LS.
///
/// ```
/// use thicket_input::newline::normalize_leafxml;
/// assert_eq!(normalize_leafxml("a\r\u{85}b\u{2028}c\r\rd"), "a\nb\nc\n\nd");
/// ```
pub fn normalize_leafxml(text: &str) -> Cow<'_, str> {
    normalize(text, NewlineRules::LeafXml)
}

/// Normalizes `text` under `rules`; borrowed when nothing changes.
pub fn normalize(text: &str, rules: NewlineRules) -> Cow<'_, str> {
    match next_candidate(text.as_bytes(), 0, rules) {
        None => Cow::Borrowed(text),
        Some(_) => {
            let mut out = String::with_capacity(text.len());
            push_normalized(text, rules, &mut out);
            Cow::Owned(out)
        }
    }
}

/// The offset of the next byte at or after `from` that may start a line break other than LF.
/// For LeafXML this includes lead bytes `C2` and `E2` of characters that are not NEL or LS.
#[inline]
fn next_candidate(bytes: &[u8], from: usize, rules: NewlineRules) -> Option<usize> {
    let rest = &bytes[from..];
    let found = match rules {
        NewlineRules::CrLf => memchr::memchr(b'\r', rest),
        NewlineRules::LeafXml => {
            // Skip lead bytes that do not start NEL or LS.
            let mut at = 0;
            loop {
                let i = at + memchr::memchr3(b'\r', 0xC2, 0xE2, &rest[at..])?;
                let tail = &rest[i..];
                if tail[0] == b'\r' || tail.starts_with(NEL) || tail.starts_with(LS) {
                    break Some(i);
                }
                at = i + 1;
            }
        }
    };
    found.map(|i| from + i)
}

/// Appends `text` to `out` with its line breaks normalized. Returns true when `text` ends with a
/// CR (which has been written as LF), so that a chunked caller can drop an LF or NEL that starts
/// the next chunk.
fn push_normalized(text: &str, rules: NewlineRules, out: &mut String) -> bool {
    let bytes = text.as_bytes();
    let mut copied = 0;
    let mut ends_with_cr = false;
    while let Some(i) = next_candidate(bytes, copied, rules) {
        out.push_str(&text[copied..i]);
        out.push('\n');
        let tail = &bytes[i..];
        let len = if tail[0] == b'\r' {
            if tail.get(1) == Some(&b'\n') {
                2
            } else if rules == NewlineRules::LeafXml && tail[1..].starts_with(NEL) {
                3
            } else {
                ends_with_cr = tail.len() == 1;
                1
            }
        } else if tail.starts_with(NEL) {
            2
        } else {
            3 // LS
        };
        copied = i + len;
    }
    out.push_str(&text[copied..]);
    ends_with_cr
}

/// Chunk-safe newline normalization: feeding a text in chunks gives the same output as
/// [`normalize`] on the whole text, for any chunking.
///
/// A CR is written as LF at once; if the next chunk starts with the LF (or, under LeafXML rules,
/// the NEL) that completes the pair, that character is dropped. So no output is held back and
/// [`finish`](NewlineNormalizer::finish) never has anything to write.
///
/// ```
/// use thicket_input::newline::{NewlineNormalizer, NewlineRules};
/// let mut n = NewlineNormalizer::new(NewlineRules::CrLf);
/// let mut out = String::new();
/// for chunk in ["a\r", "\nb\r", "", "\r", "c"] {
///     n.feed(chunk, &mut out);
/// }
/// n.finish(&mut out);
/// assert_eq!(out, "a\nb\n\nc");
/// ```
#[derive(Clone, Debug)]
pub struct NewlineNormalizer {
    rules: NewlineRules,
    /// The last character fed was a CR.
    after_cr: bool,
}

impl NewlineNormalizer {
    /// A normalizer with the given rules.
    pub fn new(rules: NewlineRules) -> NewlineNormalizer {
        NewlineNormalizer {
            rules,
            after_cr: false,
        }
    }

    /// The rules in use.
    pub fn rules(&self) -> NewlineRules {
        self.rules
    }

    /// True when the last character fed was a CR, so that an LF (or NEL) starting the next chunk
    /// will be dropped.
    pub fn after_cr(&self) -> bool {
        self.after_cr
    }

    /// Appends `chunk` to `out` with its line breaks normalized.
    pub fn feed(&mut self, chunk: &str, out: &mut String) {
        if chunk.is_empty() {
            return;
        }
        let mut rest = chunk;
        if self.after_cr {
            if let Some(r) = rest.strip_prefix('\n') {
                rest = r;
            } else if self.rules == NewlineRules::LeafXml
                && let Some(r) = rest.strip_prefix('\u{85}')
            {
                rest = r;
            }
        }
        self.after_cr = push_normalized(rest, self.rules, out);
    }

    /// Ends the text. Nothing is pending (see the type's docs), so this only resets the state
    /// for a new text; `out` is taken for symmetry with the other streaming types.
    pub fn finish(&mut self, out: &mut String) {
        let _ = out;
        self.after_cr = false;
    }
}
