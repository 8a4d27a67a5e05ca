//! "Tag assembly": a tag token parsed into its name, type and attributes.

use std::borrow::Cow;

use thicket_input::StopSet;
use thicket_names::leafxml as names;

use super::dedup;
use crate::error::ErrorCode;
use crate::text;

/// Tag type, from the slashes next to the angle brackets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TagType {
    Start,
    End,
    Empty,
}

/// A name or value of a tag token: where it is written (a range of the line-break normalized
/// tag text; a value without its quotes) and, when decoding changed it, which string of the
/// tag's `Decoded` holds the decoded form. Offsets fit in a `u32`: longer tag tokens are
/// `token-length-limit` (`MAX_TAG`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Part {
    pub(crate) start: u32,
    pub(crate) end: u32,
    /// 0: decoding left it as written; k: the decoded form is `Decoded::get(k)`.
    pub(crate) decoded: u32,
}

impl Part {
    /// As written at `start..end`, unchanged by decoding.
    #[inline]
    pub(crate) fn at(start: usize, end: usize) -> Part {
        Part {
            start: start as u32,
            end: end as u32,
            decoded: 0,
        }
    }

    /// Written at `start..end`, decoded to `decoded` (kept in `store` when it differs).
    pub(crate) fn of(start: usize, end: usize, decoded: Cow<'_, str>, store: &mut Decoded) -> Part {
        match decoded {
            Cow::Borrowed(_) => Part::at(start, end),
            Cow::Owned(d) => Part {
                decoded: store.push(d),
                ..Part::at(start, end)
            },
        }
    }

    /// The decoded string, given the tag text and the tag's decoded strings.
    #[inline]
    pub(crate) fn get<'a>(self, text: &'a str, store: &'a Decoded) -> &'a str {
        if self.decoded == 0 {
            text.get(self.start as usize..self.end as usize)
                .unwrap_or_default()
        } else {
            store.get(self.decoded)
        }
    }

    /// The name as written (for names whose decoded form is compared as bytes).
    #[inline]
    pub(crate) fn written(self, text: &[u8]) -> &[u8] {
        text.get(self.start as usize..self.end as usize)
            .unwrap_or_default()
    }
}

/// The longest tag token: offsets into it fit in a `u32`.
pub(crate) const MAX_TAG: usize = u32::MAX as usize;

/// The decoded names and values of one tag that differ from what is written, end to end in one
/// string (so a tag allocates nothing once the reader has warmed up).
#[derive(Debug, Default)]
pub(crate) struct Decoded {
    text: String,
    /// Where each string ends in `text`; string k (from 1) is `ends[k - 2]..ends[k - 1]`.
    ends: Vec<usize>,
}

impl Decoded {
    pub(crate) fn clear(&mut self) {
        self.text.clear();
        self.ends.clear();
    }

    /// Keeps `s`; returns its number (from 1). The first string of a tag is moved in, not
    /// copied (a long decoded value is not held twice).
    pub(crate) fn push(&mut self, s: String) -> u32 {
        if self.text.is_empty() && s.len() > self.text.capacity() {
            self.text = s;
        } else {
            self.text.push_str(&s);
        }
        self.ends.push(self.text.len());
        self.ends.len() as u32
    }

    /// String `k` (from 1).
    #[inline]
    pub(crate) fn get(&self, k: u32) -> &str {
        let k = k as usize;
        let start = match k {
            0 | 1 => 0,
            _ => self.ends.get(k - 2).copied().unwrap_or_default(),
        };
        let end = self
            .ends
            .get(k.wrapping_sub(1))
            .copied()
            .unwrap_or_default();
        self.text.get(start..end).unwrap_or_default()
    }
}

/// An attribute of a tag assembly.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Attr {
    pub(crate) name: Part,
    pub(crate) value: Part,
    /// How the name splits at its colon, once known.
    pub(crate) split: Split,
}

impl Attr {
    /// From the name to the closing quote, in the normalized tag text.
    pub(crate) fn extent(&self) -> (usize, usize) {
        (self.name.start as usize, self.value.end as usize + 1)
    }
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
    Prefixed(u32),
}

impl Split {
    /// Prefix and local part of `name`, which this split was found for.
    #[inline]
    pub(crate) fn apply(self, name: &str) -> (Option<&str>, &str) {
        match self {
            Split::Prefixed(k) => {
                let k = k as usize;
                match (name.get(..k), name.get(k + 1..)) {
                    (Some(prefix), Some(local)) => (Some(prefix), local),
                    _ => (None, name),
                }
            }
            Split::Local | Split::Unchecked => (None, name),
        }
    }
}

/// A tag assembly: element name, tag type and attributes.
#[derive(Debug)]
pub(crate) struct TagAssembly {
    pub(crate) name: Part,
    /// How the element name splits, once known.
    pub(crate) split: Split,
    /// The position of the element's prefix in the namespace stack, once tag rewriting
    /// checked it.
    pub(crate) ns: usize,
    pub(crate) kind: TagType,
    pub(crate) attrs: Vec<Attr>,
    /// Names and values that decoding changed.
    pub(crate) decoded: Decoded,
    /// When line break normalization changed the tag token: each attribute's name and value
    /// ranges in the token as written (the ranges in `attrs` are in the normalized text).
    /// Empty otherwise.
    pub(crate) written: Vec<[u32; 4]>,
}

impl TagAssembly {
    pub(crate) fn new() -> TagAssembly {
        TagAssembly {
            name: Part::at(0, 0),
            split: Split::Unchecked,
            ns: 0,
            kind: TagType::Start,
            attrs: Vec::new(),
            decoded: Decoded::default(),
            written: Vec::new(),
        }
    }

    /// Starts a new tag.
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.attrs.clear();
        if !self.decoded.ends.is_empty() {
            self.decoded.clear();
        }
        if !self.written.is_empty() {
            self.written.clear();
        }
    }

    /// After line break normalization changed the tag token `raw` into the text the ranges of
    /// `attrs` are in: the ranges as written, in one pass (they are in increasing order).
    pub(crate) fn map_written(&mut self, raw: &str) {
        let mut offsets: Vec<usize> = Vec::with_capacity(self.attrs.len() * 4);
        for a in &self.attrs {
            offsets
                .extend([a.name.start, a.name.end, a.value.start, a.value.end].map(|o| o as usize));
        }
        text::map_back_line_breaks_all(raw, &mut offsets);
        self.written = offsets
            .chunks_exact(4)
            .map(|c| [c[0], c[1], c[2], c[3]].map(|o| o as u32))
            .collect();
    }
}

/// Limits a tag is parsed under.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct TagLimits {
    pub(crate) max_attributes: Option<usize>,
    pub(crate) max_name_len: Option<usize>,
    pub(crate) max_value_len: Option<usize>,
}

/// An error inside a tag token: code, where (offsets in the normalized token; `start == end`
/// for the codepoint at `start`), codepoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TagError {
    pub(crate) code: ErrorCode,
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) codepoint: Option<u32>,
}

impl TagError {
    /// At the codepoint at `i`.
    #[cold]
    pub(crate) fn at(code: ErrorCode, i: usize, codepoint: Option<u32>) -> TagError {
        TagError {
            code,
            start: i,
            end: i,
            codepoint,
        }
    }

    /// Over `start..end`.
    #[cold]
    pub(crate) fn over(code: ErrorCode, start: usize, end: usize) -> TagError {
        TagError {
            code,
            start,
            end,
            codepoint: None,
        }
    }
}

use names::is_whitespace_byte as is_ws;

/// Where a name-like run in a tag ends.
static NAME_END: StopSet = StopSet::new(names::NAME_DELIMITERS);

/// Scans a name at `i` (up to whitespace, `/`, `>`, `=` or a quote) and checks the name rules.
fn scan_name(s: &str, i: usize) -> Result<(&str, usize), TagError> {
    let b = s.as_bytes();
    let mut j = i;
    // Fast path: ASCII name codepoints.
    while j < b.len() && names::is_ascii_name_byte(b[j]) {
        j += 1;
    }
    let ascii_end = j;
    let j = NAME_END.find(b, j);
    if ascii_end == j && j > i && names::is_ascii_name_start_byte(b[i]) {
        return Ok((&s[i..j], j));
    }
    check_name(s, i, j)
}

/// The name rules for `s[i..j]`, codepoint by codepoint.
fn check_name(s: &str, i: usize, j: usize) -> Result<(&str, usize), TagError> {
    let name = &s[i..j];
    let mut chars = name.char_indices();
    match chars.next() {
        None => return Err(TagError::at(ErrorCode::InvalidName, i, None)),
        Some((_, c)) if !names::is_name_start_char(c) => {
            let code = if names::is_name_char(c) {
                ErrorCode::InvalidNameStart
            } else {
                ErrorCode::InvalidName
            };
            return Err(TagError::at(code, i, Some(c as u32)));
        }
        Some(_) => {}
    }
    if let Some((k, c)) = chars.find(|&(_, c)| !names::is_name_char(c)) {
        return Err(TagError::at(ErrorCode::InvalidName, i + k, Some(c as u32)));
    }
    Ok((name, j))
}

/// The end of the name-like run at `i` (up to whitespace, `/`, `>`, `=` or a quote), without
/// checking the name rules.
fn name_end(b: &[u8], i: usize) -> usize {
    NAME_END.find(b, i)
}

/// Parses a line-break-normalized tag token (`<` ... `>`) into a tag assembly.
pub(crate) fn parse_tag(s: &str, limits: TagLimits, tag: &mut TagAssembly) -> Result<(), TagError> {
    let b = s.as_bytes();
    let last = b.len() - 1;
    let mut i = 1;
    let end = b[1] == b'/';
    if end {
        i = 2;
    }
    tag.clear();
    let name_start = i;
    let (name, next) = scan_name_limited(s, i, limits.max_name_len)?;
    tag.name = Part::of(name_start, next, text::nfc(name), &mut tag.decoded);
    tag.split = Split::Unchecked;
    i = next;
    tag.kind = if end { TagType::End } else { TagType::Start };
    loop {
        let ws_start = i;
        while i < last && is_ws(b[i]) {
            i += 1;
        }
        match b[i] {
            b'>' => break,
            b'/' => {
                if end {
                    return Err(TagError::at(ErrorCode::EndAndEmptyTag, i, None));
                }
                if i + 1 != last {
                    return Err(TagError::at(ErrorCode::MalformedTag, i, None));
                }
                tag.kind = TagType::Empty;
                break;
            }
            _ => {
                if end {
                    return Err(TagError::at(ErrorCode::EndTagAttributes, i, None));
                }
                if i == ws_start {
                    return Err(TagError::at(ErrorCode::MissingAttributeWhitespace, i, None));
                }
                // The first attribute past the limit, over its name.
                if limits
                    .max_attributes
                    .is_some_and(|max| tag.attrs.len() >= max)
                {
                    return Err(TagError::over(ErrorCode::AttributeLimit, i, name_end(b, i)));
                }
                let offset = i;
                let (aname, next) = scan_name_limited(s, i, limits.max_name_len)?;
                i = next;
                while i < last && is_ws(b[i]) {
                    i += 1;
                }
                if b[i] != b'=' {
                    return Err(TagError::at(ErrorCode::MissingEquals, i, None));
                }
                i += 1;
                while i < last && is_ws(b[i]) {
                    i += 1;
                }
                let q = b[i];
                if q != b'"' && q != b'\'' {
                    return Err(TagError::at(ErrorCode::UnquotedAttributeValue, i, None));
                }
                let Some(close) = memchr::memchr(q, &b[i + 1..]) else {
                    return Err(TagError::at(ErrorCode::MalformedTag, i, None));
                };
                let (start, stop) = (i + 1, i + 1 + close);
                if limits.max_value_len.is_some_and(|max| close > max) {
                    return Err(TagError::over(ErrorCode::ValueLengthLimit, start, stop));
                }
                let raw = &s[start..stop];
                if let Some(k) = memchr::memchr(b'<', raw.as_bytes()) {
                    return Err(TagError::at(ErrorCode::LtInAttributeValue, start + k, None));
                }
                let value = text::decode_value(raw).map_err(|e| TagError {
                    code: e.code,
                    start: start + e.offset,
                    end: start + e.end,
                    codepoint: e.value,
                })?;
                let name = Part::of(
                    offset,
                    offset + aname.len(),
                    text::nfc(aname),
                    &mut tag.decoded,
                );
                let value = Part::of(start, stop, value, &mut tag.decoded);
                tag.attrs.push(Attr {
                    name,
                    value,
                    split: Split::Unchecked,
                });
                i = stop + 1;
            }
        }
    }
    check_duplicates(s, tag)
}

/// `scan_name`, with the name length limit checked first (over the whole name).
#[inline]
fn scan_name_limited(s: &str, i: usize, max: Option<usize>) -> Result<(&str, usize), TagError> {
    if let Some(max) = max {
        let j = name_end(s.as_bytes(), i);
        if j - i > max {
            return Err(TagError::over(ErrorCode::NameLengthLimit, i, j));
        }
    }
    scan_name(s, i)
}

/// "It is an error if the same tag has more than one attribute with the same attribute name."
/// Reports the earliest attribute that repeats an earlier name, over the attribute.
#[inline]
fn check_duplicates(s: &str, tag: &TagAssembly) -> Result<(), TagError> {
    let attrs = &tag.attrs;
    if attrs.len() < 2 {
        return Ok(());
    }
    match dedup::first_repeat_bytes(attrs.len(), |k| {
        attrs[k].name.get(s, &tag.decoded).as_bytes()
    }) {
        Some(k) => {
            let (start, end) = attrs[k].extent();
            Err(TagError::over(ErrorCode::DuplicateAttribute, start, end))
        }
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
            let j = b
                .iter()
                .position(|c| names::NAME_DELIMITERS.contains(c))
                .unwrap_or(b.len());
            assert_eq!(scan_name(&s, 0), check_name(&s, 0, j), "{s:?}");
        }
    }
}
