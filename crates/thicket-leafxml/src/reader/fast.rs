//! The fast path for tag tokens, beside the tokenizer and `parse_tag`: a tag in the common form
//! (ASCII names with at most one colon, quoted values without `<`, no CR, NEL or LS) is found,
//! parsed and line-counted in one pass over its bytes. Anything else gives `None`, and the
//! general code takes the same token from its start, so every error and its position still
//! comes from the general code. The fast path never reports an error of its own.

use super::dedup;
use super::tag::{Attr, Decoded, Part, Split, TagAssembly, TagType};

use thicket_input::{NewlineRules, StopSet};
use thicket_names::leafxml::{
    is_ascii_name_byte, is_ascii_name_start_byte, is_nfc_stable_starter, is_whitespace_byte,
};

use crate::text;

/// The first bytes of a quoted value, by its quote: the closing quote ends it, `<` (an error) and CR (line
/// break normalization changes the tag) send the tag to the general code; SP, HT, LF, `&` and
/// the lead bytes of non-ASCII codepoints are looked at. (The character set check keeps every
/// other control out of the text.)
static VALUE_DQ: StopSet = StopSet::new(b"\"<\r")
    .check(b" \t\n&")
    .check_range(0xC2, 0xF4);
static VALUE_SQ: StopSet = StopSet::new(b"'<\r")
    .check(b" \t\n&")
    .check_range(0xC2, 0xF4);

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

/// Values up to this long are scanned byte by byte; past that, by the stop set's engine.
const SHORT_VALUE: usize = 32;

/// The quoted value from `start` to the closing `q`: where it closes, and whether it is plain
/// (unchanged by escapes, whitespace compression and NFC: no `&`, HT or LF, no leading,
/// trailing or double SP, ASCII). `None` for `<`, CR, NEL and LS.
#[inline(always)]
fn value(b: &[u8], start: usize, q: u8) -> Option<(usize, bool)> {
    let set = if q == b'"' { &VALUE_DQ } else { &VALUE_SQ };
    let mut v = Value {
        plain: true,
        // Where the last SP was: one just before `start` stands for "a leading SP is not
        // plain".
        last_space: start.wrapping_sub(1),
    };
    let mut i = start;
    let limit = (start + SHORT_VALUE).min(b.len());
    while i < limit {
        let c = b[i];
        // The common bytes first, with one probe of the set's table.
        if !set.contains(c) {
            i += 1;
            continue;
        }
        if c == q {
            return Some((i, v.plain & (v.last_space.wrapping_add(1) != i)));
        }
        i = v.check(b, i)?;
    }
    if i == start {
        // Nothing buffered to scan.
        return None;
    }
    long_value(b, i, q, v.plain)
}

/// Where a long value ends: the closing quote, or `<` and CR, which send the tag to the general
/// code. Three needles and nothing else: the memchr engine searches a vector at a time.
static VALUE_END_DQ: StopSet = StopSet::new(b"\"<\r");
static VALUE_END_SQ: StopSet = StopSet::new(b"'<\r");

/// `value` past the first `SHORT_VALUE` bytes (`from`), carrying whether they were plain: the
/// end, then what else the short scan looks at byte by byte looked for over the rest at once
/// (non-ASCII, NEL and LS, escapes, HT and LF, a double or trailing SP).
#[cold]
fn long_value(b: &[u8], from: usize, q: u8, plain: bool) -> Option<(usize, bool)> {
    let set = if q == b'"' {
        &VALUE_END_DQ
    } else {
        &VALUE_END_SQ
    };
    let close = set.find(b, from);
    if b.get(close) != Some(&q) {
        return None;
    }
    let rest = &b[from..close];
    let ascii = rest.is_ascii();
    if !ascii && has_nel_or_ls(rest) {
        return None;
    }
    let decode = memchr::memchr3(b'&', b'\t', b'\n', rest).is_some();
    // A double SP may straddle `from`; a trailing SP ends the value.
    let double_space = DOUBLE_SPACE.find(b.get(from - 1..close)?).is_some();
    let trailing_space = b[close - 1] == b' ';
    Some((
        close,
        plain && ascii && !decode && !double_space && !trailing_space,
    ))
}

/// Two SP, which whitespace compression turns into one: the searcher is built once.
static DOUBLE_SPACE: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
    std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"  "));

/// True when UTF-8 bytes hold a non-ASCII line break (NEL, LS): their lead bytes are searched
/// for, the codepoints there tested.
fn has_nel_or_ls(b: &[u8]) -> bool {
    const NEL: u8 = "\u{85}".as_bytes()[0];
    const LS: u8 = "\u{2028}".as_bytes()[0];
    memchr::memchr2_iter(NEL, LS, b).any(|k| is_line_break_lead(b, k))
}

/// What the scan of a value knows.
struct Value {
    plain: bool,
    last_space: usize,
}

impl Value {
    /// A byte of the value's stop set other than the quote, at `i`: where the scan goes on, or
    /// `None` for the general code.
    #[inline(always)]
    fn check(&mut self, b: &[u8], i: usize) -> Option<usize> {
        match b[i] {
            b' ' => {
                self.plain &= self.last_space.wrapping_add(1) != i;
                self.last_space = i;
            }
            b'\t' | b'\n' | b'&' => self.plain = false,
            b'<' | b'\r' => return None,
            _ => {
                self.plain = false;
                if is_line_break_lead(b, i) {
                    return None;
                }
            }
        }
        Some(i + 1)
    }
}

/// True when the codepoint at `i` (a lead byte of a non-ASCII codepoint) is a line break other
/// than LF and CR (NEL, LS), which line break normalization changes.
#[inline]
fn is_line_break_lead(b: &[u8], i: usize) -> bool {
    char::from_u32(text::codepoint_at(b, i).0)
        .is_some_and(|c| NewlineRules::LeafXml.is_line_break(c))
}

/// True when two attributes have the same name ("It is an error if the same tag has more than
/// one attribute with the same attribute name.", reported by the general code). The fast path's
/// names are ASCII, so they are NFC and compare as bytes.
#[inline]
fn has_duplicates(b: &[u8], attrs: &[Attr]) -> bool {
    dedup::first_repeat_bytes(attrs.len(), |k| attrs[k].name.written(b)).is_some()
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

/// A text token's bytes: `<` ends it, `&` (escapes) and CR (line break normalization) send it
/// to the general code, the lead bytes of non-ASCII codepoints are looked at.
static TEXT: StopSet = StopSet::new(b"<&\r").check_range(0xC2, 0xF4);

/// What the fast path knows about a text token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TextToken {
    /// Its length.
    pub len: usize,
    /// `KNOWN_NFC` when it is known to be NFC (made of stable starters only); otherwise the
    /// start of a codepoint (or 0) before which all codepoints are stable starters, the last of
    /// them the one at this offset, where `text::nfc_from` may start. 0 is always a valid value.
    pub nfc_from: u32,
}

/// The longest token the fast paths take: their offsets fit in a `u32`.
pub(super) const MAX_TOKEN: usize = u32::MAX as usize;

/// `TextToken::nfc_from` for a token known to be NFC.
pub(crate) const KNOWN_NFC: u32 = u32::MAX;

/// Text tokens up to this long are scanned byte by byte; past that, by the stop set's engine.
const SHORT_TEXT: usize = 64;

/// The text token at the start of `b` (which does not start with `<`), when it ends within `b`
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
    let mut nfc_from = KNOWN_NFC;
    let mut i = 0;
    let limit = b.len().min(SHORT_TEXT);
    while i < limit {
        let c = b[i];
        // The common bytes first, with one probe of the set's table.
        if !TEXT.contains(c) {
            i += 1;
            continue;
        }
        if c == b'<' {
            return Some(TextToken { len: i, nfc_from });
        }
        i = text_check(b, i, &mut nfc_from)?;
    }
    long_text(b, i, nfc_from)
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

/// Where a long text token ends: `<`, or `&` and CR, which send it to the general code. Three
/// needles and nothing else: the memchr engine searches a vector at a time.
static TEXT_END: StopSet = StopSet::new(b"<&\r");

/// `text` past the first `SHORT_TEXT` bytes (`from`, a codepoint boundary): the end, then, when
/// the rest is not ASCII, its codepoints as the short scan looks at them.
#[cold]
fn long_text(b: &[u8], from: usize, mut nfc_from: u32) -> Option<TextToken> {
    let end = TEXT_END.find(b, from);
    if b.get(end) != Some(&b'<') {
        return None;
    }
    if !b[from..end].is_ascii() {
        let mut i = from;
        while i < end {
            if b[i] < 0x80 {
                i += 1;
            } else {
                i = text_check(b, i, &mut nfc_from)?;
            }
        }
    }
    Some(TextToken { len: end, nfc_from })
}

/// A byte of the text stop set other than `<`, at `i`: where the scan goes on, or `None` for
/// the general code (`&`, CR, NEL, LS). A non-ASCII codepoint that is not a stable starter
/// sets where the NFC check starts.
#[inline(always)]
fn text_check(b: &[u8], i: usize, nfc_from: &mut u32) -> Option<usize> {
    if b[i] < 0x80 {
        return None;
    }
    let (c, len) = text::codepoint_at(b, i);
    if char::from_u32(c).is_some_and(|c| NewlineRules::LeafXml.is_line_break(c)) {
        return None;
    }
    if *nfc_from == KNOWN_NFC && !is_nfc_stable_starter(c) {
        *nfc_from = codepoint_before(b, i);
    }
    Some(i + len)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `text` and `value` agree with their definitions on every string of up to five
    /// codepoints from an alphabet of their special cases.
    #[test]
    fn scans_by_definition() {
        const ALPHABET: [&str; 12] = [
            "a", " ", "\t", "\n", "<", "&", "\r", "\"", "\u{e9}", "\u{85}", "\u{2028}", "e\u{301}",
        ];
        let mut strings = vec![String::new()];
        for _ in 0..5 {
            let longer: Vec<String> = strings
                .iter()
                .filter(|s| s.chars().count() >= 4 || s.len() < 12)
                .flat_map(|s| ALPHABET.iter().map(move |a| format!("{s}{a}")))
                .collect();
            strings.extend(longer);
        }
        for s in &strings {
            let b = s.as_bytes();
            // A text token: up to `<`, without `&` or a break other than LF.
            let expected = s
                .find('<')
                .filter(|&n| !s[..n].contains(['&', '\r', '\u{85}', '\u{2028}']) && n > 0);
            if !s.starts_with('<') {
                let got = text(b);
                assert_eq!(got.map(|t| t.len), expected, "{s:?}");
                if let Some(t) = got {
                    let token = &s[..t.len];
                    assert_eq!(
                        t.nfc_from == KNOWN_NFC,
                        token.chars().all(|c| is_nfc_stable_starter(c as u32)),
                        "{s:?}"
                    );
                }
            }
            // A double-quoted value: up to `"`, `None` at `<`, CR, NEL or LS first.
            let close = s.find(['"', '<', '\r', '\u{85}', '\u{2028}']);
            let expected = close.filter(|&k| b[k] == b'"').map(|k| {
                let v = &s[..k];
                // (An empty value counts as not plain: its empty decoding is the same.)
                let plain = !v.is_empty()
                    && v.is_ascii()
                    && !v.contains(['\t', '\n', '&'])
                    && !v.starts_with(' ')
                    && !v.ends_with(' ')
                    && !v.contains("  ");
                (k, plain)
            });
            assert_eq!(value(b, 0, b'"'), expected, "{s:?}");
        }
    }

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
