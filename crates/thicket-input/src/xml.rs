//! Encoding detection for XML documents read by a recovering parser (XML5).
//!
//! The XML5 draft leaves "how to find the encoding" open, so Thicket uses the order of XML 1.0
//! Appendix F restricted to the encodings of the Encoding Standard:
//!
//! 1. A BOM (`EF BB BF`, `FE FF`, `FF FE`) decides.
//! 2. Without a BOM, `00 3C 00 3F` (`<?` in UTF-16 BE) and `3C 00 3F 00` (`<?` in UTF-16 LE)
//!    select UTF-16.
//! 3. Otherwise an XML declaration at the very start (`<?xml` and whitespace) may carry
//!    `encoding="label"`, resolved with [`Encoding::for_label`] (Encoding Standard labels, so
//!    `latin1` is windows-1252). A UTF-16 label in a document whose bytes are ASCII-compatible is
//!    read as UTF-8, as the HTML prescan does. An unknown label is ignored.
//! 4. The default is UTF-8.
//!
//! The label found in the declaration is reported even when a BOM or the UTF-16 pattern decided
//! the encoding, and [`XmlSniffed::problem`] says when the label is unknown or contradicts what
//! decided, so a recovering parser can report it (codes `unknown-encoding` and
//! `encoding-mismatch` in every dialect) while decoding by the rules above.

use std::borrow::Cow;

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE};

use crate::bom::sniff_bom;

/// How far into the document the XML declaration is looked for, in bytes of UTF-8 (or code units
/// of UTF-16). A declaration is short; this bounds the work on garbage input.
pub(crate) const DECLARATION_LIMIT: usize = 1024;

/// The result of [`sniff`].
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct XmlSniffed {
    /// The encoding to decode with.
    pub encoding: &'static Encoding,
    /// Length of the BOM at the start of the bytes (0 when there is none).
    pub bom_len: usize,
    /// The value of `encoding="..."` in the XML declaration, if there is one, as written
    /// (non-ASCII bytes replaced by U+FFFD).
    pub declared_label: Option<String>,
    /// Where the label's characters are in the decoded text (after the BOM), when there is one.
    pub declared_label_span: Option<crate::Span>,
    /// What is wrong with the declared label, if anything. Decoding follows the rules above
    /// regardless.
    pub problem: Option<EncodingProblem>,
}

/// What can be wrong with an XML declaration's `encoding` label. Neither changes the decoding:
/// a BOM or the UTF-16 byte pattern wins, and an unknown label falls back to UTF-8.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum EncodingProblem {
    /// The label is not one of the Encoding Standard's labels.
    UnknownLabel,
    /// The label names another encoding than the one the BOM or the UTF-16 byte pattern decided,
    /// or names UTF-16 in a document whose bytes are ASCII-compatible.
    Mismatch,
}

impl EncodingProblem {
    /// The stable code every dialect reports it with: `unknown-encoding` or `encoding-mismatch`.
    pub const fn code(self) -> &'static str {
        match self {
            EncodingProblem::UnknownLabel => "unknown-encoding",
            EncodingProblem::Mismatch => "encoding-mismatch",
        }
    }
}

/// Determines the encoding of an XML document. See the module docs for the rules.
///
/// ```
/// use thicket_input::xml::sniff;
/// let s = sniff(b"<?xml version='1.0' encoding='ISO-8859-1'?><a/>");
/// assert_eq!(s.encoding.name(), "windows-1252");
/// assert_eq!(s.declared_label.as_deref(), Some("ISO-8859-1"));
/// assert_eq!(sniff(b"<\0?\0x\0m\0l\0").encoding.name(), "UTF-16LE");
/// assert_eq!(sniff(b"<a/>").encoding.name(), "UTF-8");
/// ```
pub fn sniff(bytes: &[u8]) -> XmlSniffed {
    let (decided, bom_len) = if let Some((utf, bom_len)) = sniff_bom(bytes) {
        (Some(utf.encoding()), bom_len)
    } else if bytes.starts_with(b"\0<\0?") {
        (Some(UTF_16BE), 0)
    } else if bytes.starts_with(b"<\0?\0") {
        (Some(UTF_16LE), 0)
    } else {
        (None, 0)
    };
    let rest = &bytes[bom_len..];
    let (label, label_at) = match decided {
        Some(e) if e == UTF_16BE => declared_label(&ascii_of_utf16(rest, true)),
        Some(e) if e == UTF_16LE => declared_label(&ascii_of_utf16(rest, false)),
        _ => declared_label(rest),
    }
    .map_or((None, None), |(label, at)| (Some(label), Some(at)));
    let labelled = label
        .as_deref()
        .and_then(|label| Encoding::for_label(label.as_bytes()));
    let is_utf16 = |e: &'static Encoding| e == UTF_16BE || e == UTF_16LE;
    let (encoding, problem) = match (decided, labelled) {
        (_, None) if label.is_some() => (
            decided.unwrap_or(UTF_8),
            Some(EncodingProblem::UnknownLabel),
        ),
        (None, None) => (UTF_8, None),
        (None, Some(e)) if is_utf16(e) => (UTF_8, Some(EncodingProblem::Mismatch)),
        (None, Some(e)) => (e, None),
        (Some(d), Some(e)) => {
            // The generic "utf-16" labels name either byte order; only an explicit other byte
            // order contradicts a UTF-16 BOM or pattern.
            let explicit = label.as_deref().is_some_and(|l| {
                let l = l.trim_matches(is_xml_space_char);
                l.eq_ignore_ascii_case("utf-16le") || l.eq_ignore_ascii_case("utf-16be")
            });
            let agrees = d == e || (is_utf16(d) && is_utf16(e) && !explicit);
            (d, (!agrees).then_some(EncodingProblem::Mismatch))
        }
        (Some(d), None) => (d, None),
    };
    XmlSniffed {
        encoding,
        bom_len,
        declared_label: label,
        declared_label_span: label_at,
        problem,
    }
}

/// Sniffs with [`sniff`] and decodes the bytes after the BOM, replacing malformed input with
/// U+FFFD. Returns the text, the encoding and whether anything was replaced.
///
/// ```
/// use thicket_input::xml::decode;
/// let (text, encoding, had_errors) = decode(b"<?xml version='1.0' encoding='koi8-r'?><a>\xC1</a>");
/// assert_eq!((encoding.name(), had_errors), ("KOI8-R", false));
/// assert!(text.ends_with("<a>\u{430}</a>"));
/// ```
pub fn decode(bytes: &[u8]) -> (Cow<'_, str>, &'static Encoding, bool) {
    let sniffed = sniff(bytes);
    let (text, had_errors) = sniffed
        .encoding
        .decode_without_bom_handling(&bytes[sniffed.bom_len..]);
    (text, sniffed.encoding, had_errors)
}

/// The ASCII characters at the start of UTF-16 `bytes`, up to the first non-ASCII code unit.
pub(crate) fn ascii_of_utf16(bytes: &[u8], big_endian: bool) -> Vec<u8> {
    bytes
        .chunks_exact(2)
        .take(DECLARATION_LIMIT)
        .map(|pair| {
            if big_endian {
                u16::from_be_bytes([pair[0], pair[1]])
            } else {
                u16::from_le_bytes([pair[0], pair[1]])
            }
        })
        .take_while(|&u| u < 0x80)
        .map(|u| u as u8)
        .collect()
}

/// XML's `S`: space, tab, CR, LF.
pub(crate) fn is_xml_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// [`is_xml_space`] for `char` patterns.
fn is_xml_space_char(c: char) -> bool {
    c.is_ascii() && is_xml_space(c as u8)
}

/// The value of the `encoding` pseudo-attribute of an XML declaration at the very start of
/// `bytes` (`<?xml` followed by whitespace), read in ASCII. Pseudo-attributes are read as
/// `name S? = S? quoted-value` until `?>`; anything else ends the search. Also returns the span
/// of the value in `bytes` (ASCII, so the same offsets as in the decoded text).
fn declared_label(bytes: &[u8]) -> Option<(String, crate::Span)> {
    let b = &bytes[..bytes.len().min(DECLARATION_LIMIT)];
    if !(b.starts_with(b"<?xml") && b.get(5).copied().is_some_and(is_xml_space)) {
        return None;
    }
    let mut pos = 5;
    let skip_space = |pos: &mut usize| {
        while *pos < b.len() && is_xml_space(b[*pos]) {
            *pos += 1;
        }
    };
    loop {
        skip_space(&mut pos);
        let name_start = pos;
        while pos < b.len() && !is_xml_space(b[pos]) && !matches!(b[pos], b'=' | b'?' | b'>') {
            pos += 1;
        }
        if pos == name_start {
            return None;
        }
        let name = &b[name_start..pos];
        skip_space(&mut pos);
        if b.get(pos) != Some(&b'=') {
            return None;
        }
        pos += 1;
        skip_space(&mut pos);
        let quote = *b.get(pos)?;
        if quote != b'"' && quote != b'\'' {
            return None;
        }
        let len = b[pos + 1..]
            .iter()
            .position(|&c| c == quote || c == b'<' || c == b'>')?;
        if b[pos + 1 + len] != quote {
            return None;
        }
        let value = &b[pos + 1..pos + 1 + len];
        if name == b"encoding" {
            let span = crate::Span::new(pos + 1, pos + 1 + len);
            return Some((String::from_utf8_lossy(value).into_owned(), span));
        }
        pos += len + 2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declared_label_reads_pseudo_attributes() {
        let f = |s: &[u8]| declared_label(s).map(|(label, _)| label);
        assert_eq!(
            f(b"<?xml version=\"1.0\" encoding=\"utf-8\"?>").as_deref(),
            Some("utf-8")
        );
        assert_eq!(
            f(b"<?xml\nversion = '1.0'\tencoding = 'Shift_JIS' ?>").as_deref(),
            Some("Shift_JIS")
        );
        assert_eq!(f(b"<?xml version='1.0'?><a encoding='x'/>"), None);
        assert_eq!(f(b"<?xml version='1.0' standalone='yes'?>"), None);
        assert_eq!(f(b"<?xml encoding='x"), None); // unterminated
        assert_eq!(f(b"<?xml encoding=x?>"), None); // unquoted
        assert_eq!(f(b"<?xml-stylesheet encoding='x'?>"), None);
        assert_eq!(f(b" <?xml encoding='x'?>"), None); // not at the very start
        assert_eq!(f(b"<?xml encoding='a\"b'?>").as_deref(), Some("a\"b"));
        let at = declared_label(b"<?xml version='1.0' encoding='koi8-r'?>")
            .unwrap()
            .1;
        assert_eq!((at.start, at.end), (30, 36));
    }

    #[test]
    fn problems_are_reported_and_decoding_follows_the_rules() {
        let p = |b: &[u8]| {
            let s = sniff(b);
            (s.encoding.name(), s.problem)
        };
        use EncodingProblem::*;
        assert_eq!(
            p(b"<?xml version='1.0' encoding='x-bogus-42'?>"),
            ("UTF-8", Some(UnknownLabel))
        );
        assert_eq!(
            p(b"\xEF\xBB\xBF<?xml version='1.0' encoding='x-bogus'?>"),
            ("UTF-8", Some(UnknownLabel))
        );
        let utf16 = |bom: &[u8], big_endian: bool, text: &str| {
            let mut out = bom.to_vec();
            for unit in text.encode_utf16() {
                let pair = if big_endian {
                    unit.to_be_bytes()
                } else {
                    unit.to_le_bytes()
                };
                out.extend_from_slice(&pair);
            }
            out
        };
        let utf16_bom_latin1 = &utf16(b"\xFF\xFE", false, "<?xml encoding='ISO-8859-1'?>");
        assert_eq!(p(utf16_bom_latin1), ("UTF-16LE", Some(Mismatch)));
        assert_eq!(
            sniff(utf16_bom_latin1).declared_label_span,
            Some(crate::Span::new(16, 26))
        );
        let utf16_generic = &utf16(b"\xFE\xFF", true, "<?xml encoding='UTF-16'?>");
        assert_eq!(p(utf16_generic), ("UTF-16BE", None));
        assert_eq!(
            p(b"\xEF\xBB\xBF<?xml version='1.0' encoding='ISO-8859-1'?>"),
            ("UTF-8", Some(Mismatch))
        );
        assert_eq!(
            p(b"\xEF\xBB\xBF<?xml version='1.0' encoding='utf-8'?>"),
            ("UTF-8", None)
        );
        assert_eq!(
            p(b"<?xml version='1.0' encoding='utf-16'?>"),
            ("UTF-8", Some(Mismatch))
        );
        assert_eq!(
            p(b"<?xml version='1.0' encoding='latin1'?>"),
            ("windows-1252", None)
        );
        assert_eq!(p(b"<a/>"), ("UTF-8", None));
        assert_eq!(EncodingProblem::UnknownLabel.code(), "unknown-encoding");
    }
}
