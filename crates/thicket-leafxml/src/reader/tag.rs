//! "Tag assembly": a tag token parsed into its name, type and attributes.

use crate::error::ErrorCode;
use crate::text::{self, Piece};
use thicket_names::leafxml as names;

/// Tag type, from the slashes next to the angle brackets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TagType {
    Start,
    End,
    Empty,
}

/// An attribute of a tag assembly, decoded (pieces of the tag token where nothing changed).
#[derive(Debug)]
pub(crate) struct Attr {
    pub(crate) name: Piece,
    pub(crate) value: Piece,
    /// Offset of the name in the (line-break normalized) tag token.
    pub(crate) offset: usize,
    /// How the name splits at its colon, once known.
    pub(crate) split: Split,
}

/// How a name splits into prefix and local part ("Tag rewriting").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Split {
    /// Not checked yet.
    Unchecked,
    /// No colon.
    Local,
    /// `name[..k]` is the prefix and `name[k + 1..]` the local part, both valid names without
    /// a colon.
    Prefixed(usize),
}

impl Split {
    /// Prefix and local part of `name`, which this split was found for.
    #[inline]
    pub(crate) fn apply(self, name: &str) -> (Option<&str>, &str) {
        match self {
            Split::Prefixed(k) => match (name.get(..k), name.get(k + 1..)) {
                (Some(prefix), Some(local)) => (Some(prefix), local),
                _ => (None, name),
            },
            Split::Local | Split::Unchecked => (None, name),
        }
    }
}

/// A tag assembly: element name, tag type and attributes.
#[derive(Debug)]
pub(crate) struct TagAssembly {
    pub(crate) name: Piece,
    /// How the element name splits, once known.
    pub(crate) split: Split,
    /// The position of the element's prefix in the namespace stack, once tag rewriting
    /// checked it.
    pub(crate) ns: usize,
    pub(crate) kind: TagType,
    pub(crate) attrs: Vec<Attr>,
}

/// An error inside a tag token: code, offset in the normalized token, codepoint.
pub(crate) type TagError = (ErrorCode, usize, Option<u32>);

#[inline]
fn is_ws(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b' ')
}

/// Scans a name at `i` (up to whitespace, `/`, `>`, `=` or a quote) and checks the name rules.
fn scan_name(s: &str, i: usize) -> Result<(&str, usize), TagError> {
    let b = s.as_bytes();
    let mut j = i;
    // Fast path: ASCII name codepoints.
    while j < b.len() && (b[j].is_ascii_alphanumeric() || matches!(b[j], b'-' | b'.' | b':' | b'_'))
    {
        j += 1;
    }
    let ascii_end = j;
    while j < b.len()
        && !matches!(
            b[j],
            b'\t' | b'\n' | b' ' | b'/' | b'>' | b'=' | b'"' | b'\''
        )
    {
        j += 1;
    }
    if ascii_end == j && j > i && !matches!(b[i], b'-' | b'.' | b'0'..=b'9') {
        return Ok((&s[i..j], j));
    }
    check_name(s, i, j)
}

/// The name rules for `s[i..j]`, codepoint by codepoint.
fn check_name(s: &str, i: usize, j: usize) -> Result<(&str, usize), TagError> {
    let name = &s[i..j];
    let mut chars = name.char_indices();
    match chars.next() {
        None => return Err((ErrorCode::InvalidName, i, None)),
        Some((_, c)) if !names::is_name_start_char(c) => {
            let code = if names::is_name_char(c) {
                ErrorCode::InvalidNameStart
            } else {
                ErrorCode::InvalidName
            };
            return Err((code, i, Some(c as u32)));
        }
        Some(_) => {}
    }
    if let Some((k, c)) = chars.find(|&(_, c)| !names::is_name_char(c)) {
        return Err((ErrorCode::InvalidName, i + k, Some(c as u32)));
    }
    Ok((name, j))
}

/// Parses a line-break-normalized tag token (`<` ... `>`) into a tag assembly.
pub(crate) fn parse_tag(
    s: &str,
    max_attributes: Option<usize>,
    tag: &mut TagAssembly,
) -> Result<(), TagError> {
    let b = s.as_bytes();
    let last = b.len() - 1;
    let mut i = 1;
    let end = b[1] == b'/';
    if end {
        i = 2;
    }
    let (name, next) = scan_name(s, i)?;
    tag.name = Piece::of(s, name, text::nfc(name));
    tag.split = Split::Unchecked;
    i = next;
    tag.kind = if end { TagType::End } else { TagType::Start };
    let attrs = &mut tag.attrs;
    attrs.clear();
    loop {
        let ws_start = i;
        while i < last && is_ws(b[i]) {
            i += 1;
        }
        match b[i] {
            b'>' => break,
            b'/' => {
                if end {
                    return Err((ErrorCode::EndAndEmptyTag, i, None));
                }
                if i + 1 != last {
                    return Err((ErrorCode::MalformedTag, i, None));
                }
                tag.kind = TagType::Empty;
                break;
            }
            _ => {
                if end {
                    return Err((ErrorCode::EndTagAttributes, i, None));
                }
                if i == ws_start {
                    return Err((ErrorCode::MissingAttributeWhitespace, i, None));
                }
                let offset = i;
                let (aname, next) = scan_name(s, i)?;
                i = next;
                while i < last && is_ws(b[i]) {
                    i += 1;
                }
                if b[i] != b'=' {
                    return Err((ErrorCode::MissingEquals, i, None));
                }
                i += 1;
                while i < last && is_ws(b[i]) {
                    i += 1;
                }
                let q = b[i];
                if q != b'"' && q != b'\'' {
                    return Err((ErrorCode::UnquotedAttributeValue, i, None));
                }
                let Some(close) = memchr::memchr(q, &b[i + 1..]) else {
                    return Err((ErrorCode::MalformedTag, i, None));
                };
                let raw = &s[i + 1..i + 1 + close];
                if let Some(k) = memchr::memchr(b'<', raw.as_bytes()) {
                    return Err((ErrorCode::LtInAttributeValue, i + 1 + k, None));
                }
                // "Each attribute value is decoded first by entity escaping, second by
                // whitespace compression, and third by Unicode normalization to NFC."
                let value = text::unescape(raw).map_err(|e| (e.code, i + 1 + e.offset, e.value))?;
                let value = text::chain(value, text::compress_whitespace);
                let value = text::chain(value, text::nfc);
                if max_attributes.is_some_and(|max| attrs.len() >= max) {
                    return Err((ErrorCode::AttributeLimit, offset, None));
                }
                attrs.push(Attr {
                    name: Piece::of(s, aname, text::nfc(aname)),
                    value: Piece::of(s, raw, value),
                    offset,
                    split: Split::Unchecked,
                });
                i += close + 2;
            }
        }
    }
    check_duplicates(s, attrs)
}

/// "It is an error if the same tag has more than one attribute with the same attribute name."
/// Reports the earliest attribute that repeats an earlier name.
#[inline]
fn check_duplicates(s: &str, attrs: &[Attr]) -> Result<(), TagError> {
    if attrs.len() < 2 {
        return Ok(());
    }
    if attrs.len() <= 8 {
        for (k, a) in attrs.iter().enumerate() {
            if attrs[..k].iter().any(|b| b.name.get(s) == a.name.get(s)) {
                return Err((ErrorCode::DuplicateAttribute, a.offset, None));
            }
        }
        return Ok(());
    }
    let mut order: Vec<usize> = (0..attrs.len()).collect();
    order.sort_by(|&x, &y| {
        attrs[x]
            .name
            .get(s)
            .cmp(attrs[y].name.get(s))
            .then(x.cmp(&y))
    });
    let repeated = order
        .windows(2)
        .filter(|w| attrs[w[0]].name.get(s) == attrs[w[1]].name.get(s))
        .map(|w| w[1])
        .min();
    match repeated {
        Some(k) => Err((ErrorCode::DuplicateAttribute, attrs[k].offset, None)),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ASCII fast path of `scan_name` agrees with the codepoint rules.
    #[test]
    fn scan_name_fast_path() {
        let alphabet = [
            'a', 'Z', '0', '-', '.', ':', '_', '<', '!', 'é', '\u{300}', '\u{b7}', ' ', '>',
        ];
        let mut names = vec![String::new()];
        for _ in 0..3 {
            let mut longer = Vec::new();
            for n in &names {
                for c in alphabet {
                    longer.push(format!("{n}{c}"));
                }
            }
            names.extend(longer);
        }
        for n in names {
            let s = format!("{n}>");
            let b = s.as_bytes();
            let mut j = 0;
            while !matches!(
                b[j],
                b'\t' | b'\n' | b' ' | b'/' | b'>' | b'=' | b'"' | b'\''
            ) {
                j += 1;
            }
            assert_eq!(scan_name(&s, 0), check_name(&s, 0, j), "{s:?}");
        }
    }
}
