//! LeafXML's character classes: the character set ("Character set"), names and namespace
//! prefixes ("Tag assemblies"), whitespace inside tags and for whitespace compression, and the
//! NFC stable starters its text algorithms skip over.

#[cfg(doc)]
use crate::ascii;

/// True for a codepoint that may appear anywhere in a LeafXML name.
#[inline]
pub fn is_name_char(c: char) -> bool {
    match c as u32 {
        0x2D | 0x2E | 0x30..=0x39 | 0x3A | 0x5F | 0x41..=0x5A | 0x61..=0x7A | 0xB7 => true,
        0xD7 | 0xF7 | 0x37E => false,
        0xC0..=0x1FFF => true,
        0x200C | 0x200D | 0x203F | 0x2040 => true,
        0x2070..=0x218F | 0x2C00..=0x2FEF | 0x3001..=0xD7FF | 0xF900..=0xFDCF => true,
        cp @ 0xFDF0..=0xEFFFD => cp & 0xFFFE != 0xFFFE,
        _ => false,
    }
}

/// True for a codepoint that may start a LeafXML name: a name codepoint other than `-`, `.`,
/// `0-9`, U+00B7, U+0300..=U+036F, U+203F and U+2040.
#[inline]
pub fn is_name_start_char(c: char) -> bool {
    is_name_char(c)
        && !matches!(c as u32, 0x2D | 0x2E | 0x30..=0x39 | 0xB7 | 0x300..=0x36F | 0x203F | 0x2040)
}

/// A LeafXML name: one or more name codepoints, the first a name start codepoint. (Names may
/// contain `:`; the namespace rules decide what a colon means.)
pub fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(is_name_start_char) && chars.all(is_name_char)
}

/// A valid namespace prefix or local part: a name without `:`.
pub fn is_prefix(s: &str) -> bool {
    is_name(s) && !s.contains(':')
}

/// LeafXML whitespace inside tags: HT, LF, SP (after line-break normalization).
#[inline]
pub fn is_whitespace(c: char) -> bool {
    matches!(c, '\t' | '\n' | ' ')
}

/// [`is_whitespace`] as bytes: HT, LF, SP.
pub const WHITESPACE: &[u8] = b"\t\n ";

/// [`is_whitespace`] for a byte.
#[inline(always)]
pub const fn is_whitespace_byte(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b' ')
}

/// What whitespace compression joins ("Whitespace compression"): HT, LF, CR, SP.
#[inline(always)]
pub const fn is_compressed_whitespace(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | ' ')
}

/// [`is_compressed_whitespace`] as bytes.
pub const COMPRESSED_WHITESPACE: &[u8] = b"\t\n\r ";

/// The bytes that end a name-like run inside a tag: whitespace, `/`, `>`, `=` and the quotes.
pub const NAME_DELIMITERS: &[u8] = b"\t\n />=\"'";

/// An ASCII byte that may appear anywhere in a name (`-`, `.`, `0-9`, `:`, `A-Z`, `_`, `a-z`):
/// [`is_name_char`] for ASCII (XML 1.0's `NameChar` among ASCII, [`ascii::XML_NAME`]). A
/// `const fn`, so that a scanner can build a table of it.
#[inline(always)]
pub const fn is_ascii_name_byte(b: u8) -> bool {
    matches!(b, b'-' | b'.' | b'0'..=b'9' | b':' | b'A'..=b'Z' | b'_' | b'a'..=b'z')
}

/// An ASCII byte that may start a name (`:`, `A-Z`, `_`, `a-z`): [`is_name_start_char`] for
/// ASCII ([`ascii::XML_NAME_START`]).
#[inline(always)]
pub const fn is_ascii_name_start_byte(b: u8) -> bool {
    matches!(b, b':' | b'A'..=b'Z' | b'_' | b'a'..=b'z')
}

/// True when `c` is in the LeafXML character set: HT, LF, CR, U+0020..=U+007E, NEL,
/// U+00A0..=U+D7FF, U+E000..=U+FDCF, U+FDF0..=U+10FFFD excluding code points whose low 16 bits
/// are FFFE or FFFF.
#[inline]
pub const fn is_char(c: char) -> bool {
    let c = c as u32;
    matches!(c, 0x09 | 0x0A | 0x0D | 0x20..=0x7E | 0x85 | 0xA0..=0xD7FF | 0xE000..=0xFDCF)
        || (c >= 0xFDF0 && c <= 0x10_FFFD && c & 0xFFFE != 0xFFFE)
}

/// Length of the codepoint at a lead byte when every codepoint with that lead byte is in the
/// character set: C3..=DF is U+00C0..=U+07FF, E0..=EE is U+0800..=U+EFFF (a `str` holds no
/// surrogates); C2 (C1 controls), EF (U+FDD0.., U+FFFE) and 4-byte codepoints are checked
/// codepoint by codepoint.
#[inline]
const fn valid_lead_len(x: u8) -> Option<usize> {
    match x {
        0xC3..=0xDF => Some(2),
        0xE0..=0xEE => Some(3),
        _ => None,
    }
}

/// True for a byte that needs no codepoint test: printable ASCII, HT, LF, CR, a continuation
/// byte, or a lead byte of `valid_lead_len`. (In a `str`, a continuation byte belongs to a lead
/// byte the scan has already accepted or tested.)
#[inline]
const fn byte_ok(x: u8) -> bool {
    (x.wrapping_sub(0x20) < 0x5F)
        | (x == b'\t')
        | (x == b'\n')
        | (x == b'\r')
        | (x.wrapping_sub(0x80) < 0x40)
        | (x.wrapping_sub(0xC3) < 0x1D)
        | (x.wrapping_sub(0xE0) < 0x0F)
}

/// Bytes checked at a time by the fast path of [`first_invalid_char`].
const CHUNK: usize = 32;

/// The first codepoint of `s` outside the character set ([`is_char`]), with its byte offset.
/// Thirty-two bytes at a time while they need no codepoint test (the checks vectorize), the
/// codepoints of a chunk that does one by one.
pub fn first_invalid_char(s: &str) -> Option<(usize, char)> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        // Printable ASCII first, the cheapest check, then every byte `byte_ok` accepts.
        if let Some(chunk) = b.get(i..i + CHUNK)
            && (chunk
                .iter()
                .fold(true, |ok, &x| ok & (x.wrapping_sub(0x20) < 0x5F))
                || chunk.iter().fold(true, |ok, &x| ok & byte_ok(x)))
        {
            i += CHUNK;
            continue;
        }
        let end = (i + CHUNK).min(b.len());
        while i < end {
            let x = b[i];
            if x < 0x80 {
                if (0x20..0x7F).contains(&x) || matches!(x, b'\t' | b'\n' | b'\r') {
                    i += 1;
                    continue;
                }
                return Some((i, x as char));
            }
            if x < 0xC0 {
                // A continuation byte after a chunk that ended inside a codepoint.
                i += 1;
                continue;
            }
            if let Some(n) = valid_lead_len(x) {
                i += n;
                continue;
            }
            let c = s.get(i..)?.chars().next()?;
            if !is_char(c) {
                return Some((i, c));
            }
            i += c.len_utf8();
        }
    }
    None
}

/// True for a codepoint that is a starter (combining class 0) with NFC quick check "Yes", in
/// ranges common in documents: the blocks of 64 codepoints of the BMP made only of such
/// codepoints (`STABLE_BLOCKS`: Latin, Greek, Cyrillic, Georgian, punctuation, box drawing,
/// Braille, CJK ideographs, Hangul, ...), and, in mixed blocks, Greek from U+0388, Cyrillic
/// without the combining marks U+0483..=U+0489, CJK punctuation without the tone marks
/// U+302A..=U+302F, kana without the combining sound marks U+3099 and U+309A, fullwidth forms.
/// Such a codepoint resets the NFC quick check's state (nothing before it composes with it or
/// with anything after it), so a string made of them only is NFC and a normalizer may cut a
/// string at one. Not every stable starter is listed: `false` means "not known to be one".
#[inline]
pub fn is_nfc_stable_starter(c: u32) -> bool {
    let block = (c >> 6) as usize;
    if let Some(&bits) = STABLE_BLOCKS.get(block >> 6)
        && (bits >> (block & 63)) & 1 == 1
    {
        return true;
    }
    matches!(c,
        0x388..=0x3FF | 0x400..=0x482 | 0x48A..=0x52F | 0x3000..=0x3029 | 0x3030..=0x3098
        | 0x309B..=0x30FF | 0xFF01..=0xFF9D)
}

/// Bit `k` of word `w` is set when the 64 codepoints from `(64 * w + k) * 64` are all starters
/// with NFC quick check "Yes" (892 of the 1024 blocks of the BMP). Computed from the tables of
/// `unicode-normalization` (Unicode 18); `tests/leafxml.rs` checks every codepoint.
const STABLE_BLOCKS: [u64; 16] = [
    0x00400000443B8FFF,
    0x1F7600EB6FFFDF1A,
    0xFF57F7FFFFFFEFE6,
    0xFFFFFFFFFFFFFFFA,
    0xFFFFFFFFFFFFFFFF,
    0xFFFFFFFFFFFFFFFF,
    0xFFFFFFFFFFFFFFFF,
    0xFFFFFFFFFFFFFFFF,
    0xFFFFFFFFFFFFFFFF,
    0xFFFFFFFFFFFFFFFF,
    0xFFFF7306F1FFFFFF,
    0xFFFFFFFFFFFFFFFF,
    0xFFFFFFFFFFFFFFFF,
    0x00000000FFFFFFFF,
    0xFFFFFFFFFFFFFFFF,
    0xFEFFC00FFFFFFFFF,
];
