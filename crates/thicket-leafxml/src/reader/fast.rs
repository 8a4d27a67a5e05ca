//! The fast path for tag tokens, beside the tokenizer and `parse_tag`: a tag in the common form
//! (ASCII names with at most one colon, quoted values without `<`, no CR, NEL or LS) is found,
//! parsed and line-counted in one pass over its bytes. Anything else gives `None`, and the
//! general code takes the same token from its start, so every error and its position still
//! comes from the general code. The fast path never reports an error of its own.

use super::dedup;
use super::tag::{Attr, Decoded, Part, Split, TagAssembly, TagType};

use thicket_names::leafxml::{
    is_ascii_name_byte, is_ascii_name_start_byte, is_nfc_stable_starter, is_whitespace_byte,
};

use crate::text;

/// A byte class table: `control` for the C0 controls and DEL, `non_ascii` for the bytes from
/// 0x80, `plain` for the rest (each scan then sets its own special bytes).
const fn classes(plain: u8, control: u8, non_ascii: u8) -> [u8; 256] {
    let mut t = [plain; 256];
    let mut i = 0;
    while i < 0x100 {
        t[i] = match i {
            0..0x20 | 0x7F => control,
            0x80.. => non_ascii,
            _ => plain,
        };
        i += 1;
    }
    t
}

/// Byte classes inside a quoted attribute value.
const PLAIN: u8 = 0;
const SPACE: u8 = 1;
/// `&`, HT: the value needs decoding (escapes, whitespace compression).
const DECODE: u8 = 2;
const LF: u8 = 3;
/// `<` (an error) and CR (line break normalization changes the tag): the general code.
const GIVE_UP: u8 = 4;
const NON_ASCII: u8 = 5;
/// Control codepoints other than HT, LF and CR never reach the tokenizer (the character set
/// check stops the text before them), but if one did, the general code would see it.
const VALUE: [u8; 256] = {
    let mut t = classes(PLAIN, GIVE_UP, NON_ASCII);
    t[b'\t' as usize] = DECODE;
    t[b'\n' as usize] = LF;
    t[b' ' as usize] = SPACE;
    t[b'&' as usize] = DECODE;
    t[b'<' as usize] = GIVE_UP;
    t
};

/// The closing quote.
const QUOTE: u8 = 6;

/// `VALUE` for double-quoted values.
const VALUE_DQ: [u8; 256] = {
    let mut t = VALUE;
    t[b'"' as usize] = QUOTE;
    t
};

/// `VALUE` for single-quoted values.
const VALUE_SQ: [u8; 256] = {
    let mut t = VALUE;
    t[b'\'' as usize] = QUOTE;
    t
};

/// The ASCII name bytes other than `:` (the class of `thicket_names`, as a table).
const NAME: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 0x80 {
        t[b] = is_ascii_name_byte(b as u8) && b != b':' as usize;
        b += 1;
    }
    t
};

/// ASCII name start codepoints other than `:`.
#[inline]
fn is_start(b: u8) -> bool {
    is_ascii_name_start_byte(b) && b != b':'
}

/// An ASCII name at `i`: a start codepoint, name codepoints, and at most one `:` followed by a
/// start codepoint. Gives its end and how it splits. Stops at the first byte that continues none
/// of these (the caller decides whether that byte may follow a name).
#[inline]
fn name(b: &[u8], i: usize) -> Option<(usize, Split)> {
    if !is_start(*b.get(i)?) {
        return None;
    }
    let mut j = i + 1;
    let mut split = Split::Local;
    loop {
        let c = *b.get(j)?;
        if NAME[c as usize] {
            j += 1;
        } else if c == b':' && matches!(split, Split::Local) && is_start(*b.get(j + 1)?) {
            split = Split::Prefixed((j - i) as u32);
            j += 2;
        } else {
            return Some((j, split));
        }
    }
}

/// Skips HT, LF and SP from `i`.
#[inline]
fn whitespace(b: &[u8], mut i: usize) -> Option<usize> {
    while is_whitespace_byte(*b.get(i)?) {
        i += 1;
    }
    Some(i)
}

/// Values up to this long are scanned byte by byte; longer ones with vector scans.
const SHORT_VALUE: usize = 32;

/// The quoted value from `start` to the closing `q`: where it closes, and whether it is plain
/// (unchanged by escapes, whitespace compression and NFC: no `&`, HT or LF, no leading,
/// trailing or double SP, ASCII). `None` for `<`, CR, NEL, LS and controls.
#[inline(always)]
fn value(b: &[u8], start: usize, q: u8) -> Option<(usize, bool)> {
    let table = if q == b'"' { &VALUE_DQ } else { &VALUE_SQ };
    let mut plain = true;
    // Where the last SP was: one just before `start` stands for "a leading SP is not plain".
    let mut last_space = start.wrapping_sub(1);
    let mut i = start;
    let limit = (start + SHORT_VALUE).min(b.len());
    while i < limit {
        let c = b[i];
        let class = table[c as usize];
        // The common class first, without a jump table.
        if class == PLAIN {
            i += 1;
            continue;
        }
        match class {
            QUOTE => return Some((i, plain & (last_space.wrapping_add(1) != i))),
            SPACE => {
                plain &= last_space.wrapping_add(1) != i;
                last_space = i;
            }
            DECODE | LF => plain = false,
            NON_ASCII => {
                plain = false;
                // NEL (C2 85) and LS (E2 80 A8) are line breaks.
                if (c == 0xC2 && b.get(i + 1) == Some(&0x85))
                    || (c == 0xE2 && b.get(i + 1..i + 3) == Some(&[0x80, 0xA8]))
                {
                    return None;
                }
            }
            _ => return None,
        }
        i += 1;
    }
    if i == start {
        // Nothing left to scan.
        return None;
    }
    long_value(b, i, q, plain)
}

/// `value` past the first `SHORT_VALUE` bytes: memchr for the end, then vector scans of the
/// rest from `from`, carrying what the short scan found (`plain`).
#[cold]
fn long_value(b: &[u8], from: usize, q: u8, plain: bool) -> Option<(usize, bool)> {
    let close = from + memchr::memchr(q, b.get(from..)?)?;
    let v = &b[from..close];
    if memchr::memchr2(b'<', b'\r', v).is_some() {
        return None;
    }
    let special = memchr::memchr3(b'&', b'\t', b'\n', v).is_some();
    let ascii = v.is_ascii();
    if !ascii && has_nel_or_ls(v) {
        return None;
    }
    // A double SP may straddle `from`; a trailing SP ends the value.
    let double_space = memchr::memmem::find(b.get(from - 1..close)?, b"  ").is_some();
    let trailing_space = b.get(close - 1) == Some(&b' ');
    Some((
        close,
        plain && !special && ascii && !double_space && !trailing_space,
    ))
}

/// True when two attributes have the same name ("It is an error if the same tag has more than
/// one attribute with the same attribute name.", reported by the general code). The fast path's
/// names are ASCII, so they are NFC and compare as bytes.
#[inline]
fn has_duplicates(b: &[u8], attrs: &[Attr]) -> bool {
    dedup::first_repeat_bytes(attrs.len(), |k| attrs[k].name.written(b)).is_some()
}

/// True when UTF-8 bytes hold NEL or LS.
fn has_nel_or_ls(b: &[u8]) -> bool {
    memchr::memmem::find(b, "\u{85}".as_bytes()).is_some()
        || memchr::memmem::find(b, "\u{2028}".as_bytes()).is_some()
}

/// A value that is not plain, decoded as `parse_tag` decodes it: "Each attribute value is
/// decoded first by entity escaping, second by whitespace compression, and third by Unicode
/// normalization to NFC." `None` for an escape error.
#[cold]
fn decode_value(raw: &[u8], start: usize, store: &mut Decoded) -> Option<Part> {
    let raw = std::str::from_utf8(raw).ok()?;
    let value = text::decode_value(raw).ok()?;
    Some(Part::of(start, start + raw.len(), value, store))
}

/// The tag token at the start of `s` (which starts with `<` and not `<!`, `<?`, `<>`) parsed
/// into `tag` exactly as line break normalization and `parse_tag` would, or `None` when the
/// token is not in the common form, ends beyond `s`, or has an error.
///
/// `max_len` is the longest tag it takes: every name and value of a tag that long is within
/// the length limits, so the fast path checks none of them.
pub(super) fn tag(
    b: &[u8],
    max_attributes: Option<usize>,
    max_len: usize,
    tag: &mut TagAssembly,
) -> Option<u32> {
    // Offsets fit in a `u32` (a longer tag goes to the general code).
    let b = b.get(..b.len().min(max_len)).unwrap_or_default();
    let end = *b.get(1)? == b'/';
    let mut i = if end { 2 } else { 1 };
    let (j, split) = name(b, i)?;
    tag.clear();
    tag.name = Part::at(i, j);
    tag.split = split;
    tag.kind = if end { TagType::End } else { TagType::Start };
    i = j;
    loop {
        let ws_start = i;
        i = whitespace(b, i)?;
        match b[i] {
            b'>' => {
                i += 1;
                break;
            }
            b'/' if !end && b.get(i + 1) == Some(&b'>') => {
                tag.kind = TagType::Empty;
                i += 2;
                break;
            }
            _ if end || i == ws_start => return None,
            _ => {}
        }
        let offset = i;
        let (name_end, split) = name(b, i)?;
        i = whitespace(b, name_end)?;
        if b[i] != b'=' {
            return None;
        }
        i = whitespace(b, i + 1)?;
        let q = b[i];
        if q != b'"' && q != b'\'' {
            return None;
        }
        let start = i + 1;
        let (close, plain) = value(b, start, q)?;
        i = close;
        let value = if plain {
            Part::at(start, i)
        } else {
            decode_value(b.get(start..i)?, start, &mut tag.decoded)?
        };
        if max_attributes.is_some_and(|max| tag.attrs.len() >= max) {
            return None;
        }
        tag.attrs.push(Attr {
            name: Part::at(offset, name_end),
            value,
            split,
        });
        i += 1;
    }
    // Most tags have at most one attribute: no call for them.
    if tag.attrs.len() > 1 && has_duplicates(b, &tag.attrs) {
        return None;
    }
    Some(i as u32)
}

/// Byte classes in text tokens: `<` ends the token; `&` and CR are for the general code.
const T_PLAIN: u8 = 0;
const T_END: u8 = 2;
const T_NON_ASCII: u8 = 3;
const T_GIVE_UP: u8 = 4;
const TEXT: [u8; 256] = {
    let mut t = classes(T_PLAIN, T_GIVE_UP, T_NON_ASCII);
    t[b'\t' as usize] = T_PLAIN;
    t[b'\n' as usize] = T_PLAIN;
    t[b'&' as usize] = T_GIVE_UP;
    t[b'<' as usize] = T_END;
    t
};

/// Text tokens up to this long are scanned byte by byte; longer ones with vector scans.
const SHORT_TEXT: usize = 64;

/// What the fast path knows about a text token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TextToken {
    /// Its length.
    pub len: usize,
    /// `KNOWN_NFC` when it is known to be NFC (made of stable starters only); otherwise the
    /// start of a codepoint (or 0) before which all codepoints are stable starters, the last of
    /// them the one at this offset, where `text::nfc_from` may start. It is within the short
    /// scan, so it fits in a `u32`; 0 is always a valid value.
    pub nfc_from: u32,
}

/// The longest token the fast paths take: their offsets fit in a `u32`.
pub(super) const MAX_TOKEN: usize = u32::MAX as usize;

/// `TextToken::nfc_from` for a token known to be NFC.
pub(crate) const KNOWN_NFC: u32 = u32::MAX;

/// The text token at the start of `s` (which does not start with `<`), when it ends within `s`
/// and holds no `&` and no line break other than LF. Such a token is its own entity escaping
/// and line break normalization. `None` sends it to the general code.
#[inline]
pub(super) fn text(b: &[u8]) -> Option<TextToken> {
    let b = b.get(..b.len().min(MAX_TOKEN)).unwrap_or_default();
    if let Some(n) = indentation(b) {
        return Some(TextToken {
            len: n,
            nfc_from: KNOWN_NFC,
        });
    }
    text_from::<true>(b, 0, KNOWN_NFC)
}

/// The length of an indentation token at the start of `b`: an LF, then fewer than 64 SP or HT, then
/// `<` (most text tokens of an indented document). Eight bytes are tested at once, without a
/// branch per byte; anything else is left to the byte loop.
#[inline]
fn indentation(b: &[u8]) -> Option<usize> {
    if b.first() != Some(&b'\n') {
        return None;
    }
    let mut i = 1;
    while i <= 64 {
        let word = u64::from_le_bytes(b.get(i..i + 8)?.try_into().ok()?);
        // The high bit of each byte of `word` equal to `byte` (exact: no carries between bytes).
        let equal = |byte: u8| {
            let t = word ^ (u64::from(byte) * 0x0101_0101_0101_0101);
            !(((t & 0x7F7F_7F7F_7F7F_7F7F) + 0x7F7F_7F7F_7F7F_7F7F) | t) & 0x8080_8080_8080_8080
        };
        let other = !(equal(b' ') | equal(b'\t')) & 0x8080_8080_8080_8080;
        if other != 0 {
            // The first byte (in memory order) that is neither SP nor HT.
            let k = i + (other.trailing_zeros() / 8) as usize;
            return (b[k] == b'<').then_some(k);
        }
        i += 8;
    }
    None
}

/// The scan of `text` from `i` (a codepoint boundary within the short scan). `NFC`: every
/// codepoint before `i` is a stable starter; at the first one that is not, the scan continues
/// in `text_from::<false>`, which carries where `text::nfc_from` may start (`nfc_from`).
#[inline]
fn text_from<const NFC: bool>(b: &[u8], mut i: usize, nfc_from: u32) -> Option<TextToken> {
    let limit = b.len().min(SHORT_TEXT);
    while i < limit {
        let c = b[i];
        let class = TEXT[c as usize];
        // The common classes first, without a jump table.
        if class == T_PLAIN {
            i += 1;
            continue;
        }
        if class == T_END {
            return Some(TextToken { len: i, nfc_from });
        }
        if class != T_NON_ASCII {
            return None;
        }
        // A lead byte (the scan moves codepoint by codepoint): the codepoint, which must not
        // be NEL (C2 85) or LS (E2 80 A8), and whether it is a stable starter.
        let b1 = u32::from(*b.get(i + 1)?);
        let (stable, len) = if c < 0xE0 {
            let cp = (u32::from(c & 0x1F) << 6) | (b1 & 0x3F);
            if cp == 0x85 {
                return None;
            }
            (!NFC || is_nfc_stable_starter(cp), 2)
        } else if c < 0xF0 {
            let b2 = u32::from(*b.get(i + 2)?);
            let cp = (u32::from(c & 0x0F) << 12) | ((b1 & 0x3F) << 6) | (b2 & 0x3F);
            if cp == 0x2028 {
                return None;
            }
            (!NFC || is_nfc_stable_starter(cp), 3)
        } else {
            (!NFC, 4)
        };
        if NFC && !stable {
            return text_rest(b, i + len, codepoint_before(b, i));
        }
        i += len;
    }
    long_text(b, i, nfc_from)
}

/// `text_from::<false>`, out of line so that the scan of stable starters stays small.
#[inline(never)]
fn text_rest(b: &[u8], i: usize, nfc_from: u32) -> Option<TextToken> {
    text_from::<false>(b, i, nfc_from)
}

/// The start of the codepoint before offset `i` (a codepoint boundary) of UTF-8 text `b`, or 0
/// when there is none (or when it does not fit in a `u32`).
#[inline]
fn codepoint_before(b: &[u8], i: usize) -> u32 {
    let mut j = i.saturating_sub(1);
    while j > 0 && b.get(j).is_some_and(|&c| c & 0xC0 == 0x80) {
        j -= 1;
    }
    u32::try_from(j)
        .ok()
        .filter(|&j| j != KNOWN_NFC)
        .unwrap_or(0)
}

/// `text` past the first `SHORT_TEXT` bytes: memchr for the end, then vector scans of the
/// rest from `from` (a codepoint boundary), carrying what the short scan found.
#[cold]
fn long_text(b: &[u8], from: usize, nfc_from: u32) -> Option<TextToken> {
    let n = from + memchr::memchr(b'<', b.get(from..)?)?;
    let t = &b[from..n];
    if memchr::memchr2(b'&', b'\r', t).is_some() {
        return None;
    }
    let ascii = t.is_ascii();
    if !ascii && has_nel_or_ls(t) {
        return None;
    }
    Some(TextToken {
        len: n,
        // Non-ASCII text past the short scan gets the general NFC check, from the last
        // codepoint of the short scan when that scan saw only stable starters.
        nfc_from: if nfc_from == KNOWN_NFC && !ascii {
            codepoint_before(b, from)
        } else {
            nfc_from
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `indentation` agrees with its definition on LF, SP and HT, then every string of six bytes
    /// from LF, SP, HT, `<` and `a`.
    #[test]
    fn indentation_by_definition() {
        const ALPHABET: &[u8] = b"\n \t<a";
        for prefix in [
            "",
            "\n",
            " ",
            "\t  ",
            " \t \t \t \t",
            " \t \t \t \t \t \t \t \t",
        ] {
            for spaces in [0, 2, 9, 56, 60, 63, 64, 70] {
                let mut b = prefix.as_bytes().to_vec();
                b.extend(std::iter::repeat_n(b' ', spaces));
                let head = b.len();
                b.extend([0u8; 6]);
                for mut n in 0..ALPHABET.len().pow(6) {
                    for x in &mut b[head..] {
                        *x = ALPHABET[n % ALPHABET.len()];
                        n /= ALPHABET.len();
                    }
                    let expected = (b[0] == b'\n')
                        .then(|| (1..b.len()).find(|&k| b[k] != b' ' && b[k] != b'\t'))
                        .flatten()
                        .filter(|&k| b[k] == b'<' && k <= 64 && k + 8 - (k - 1) % 8 <= b.len());
                    assert_eq!(indentation(&b), expected, "{:?}", std::str::from_utf8(&b));
                }
            }
        }
    }
}
