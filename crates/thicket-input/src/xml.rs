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
//! the encoding, so a caller can warn about a mismatch.

use std::borrow::Cow;

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE};

use crate::bom::sniff_bom;

/// How far into the document the XML declaration is looked for, in bytes of UTF-8 (or code units
/// of UTF-16). A declaration is short; this bounds the work on garbage input.
const DECLARATION_LIMIT: usize = 1024;

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
    if let Some((utf, bom_len)) = sniff_bom(bytes) {
        let rest = &bytes[bom_len..];
        let declared_label = match utf.encoding() {
            e if e == UTF_16BE => declared_label(&ascii_of_utf16(rest, true)),
            e if e == UTF_16LE => declared_label(&ascii_of_utf16(rest, false)),
            _ => declared_label(rest),
        };
        return XmlSniffed {
            encoding: utf.encoding(),
            bom_len,
            declared_label,
        };
    }
    if bytes.starts_with(b"\0<\0?") {
        return XmlSniffed {
            encoding: UTF_16BE,
            bom_len: 0,
            declared_label: declared_label(&ascii_of_utf16(bytes, true)),
        };
    }
    if bytes.starts_with(b"<\0?\0") {
        return XmlSniffed {
            encoding: UTF_16LE,
            bom_len: 0,
            declared_label: declared_label(&ascii_of_utf16(bytes, false)),
        };
    }
    let declared_label = declared_label(bytes);
    let encoding = declared_label
        .as_deref()
        .and_then(|label| Encoding::for_label(label.as_bytes()))
        .map_or(UTF_8, |e| {
            if e == UTF_16BE || e == UTF_16LE {
                UTF_8
            } else {
                e
            }
        });
    XmlSniffed {
        encoding,
        bom_len: 0,
        declared_label,
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
fn ascii_of_utf16(bytes: &[u8], big_endian: bool) -> Vec<u8> {
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
fn is_xml_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// The value of the `encoding` pseudo-attribute of an XML declaration at the very start of
/// `bytes` (`<?xml` followed by whitespace), read in ASCII. Pseudo-attributes are read as
/// `name S? = S? quoted-value` until `?>`; anything else ends the search.
fn declared_label(bytes: &[u8]) -> Option<String> {
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
            return Some(String::from_utf8_lossy(value).into_owned());
        }
        pos += len + 2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declared_label_reads_pseudo_attributes() {
        let f = |s: &[u8]| declared_label(s);
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
    }
}
