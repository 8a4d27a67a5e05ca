//! "Text algorithms": line break normalization, Unicode normalization, entity escaping and
//! whitespace compression.

use std::borrow::Cow;

use thicket_charref::numeric;
use thicket_input::NewlineRules;
use thicket_input::cursor::Cursor;
use thicket_names::leafxml::{is_compressed_whitespace, is_nfc_stable_starter};
use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfc_quick};

use crate::error::ErrorCode;

/// An escape error: the code, where the escape is in the input (from its `&` to its `;`, or to
/// the end of the input when there is no `;`), and the escape's value where it has one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct EscapeError {
    pub code: ErrorCode,
    pub offset: usize,
    pub end: usize,
    pub value: Option<u32>,
}

/// Entity escaping: appends `src` to `out` with every escape replaced by its codepoint.
///
/// "All entity escapes begin with U+0026 (`&`) and run up to and including the next U+003B (`;`)."
pub(crate) fn unescape_into(src: &str, out: &mut String) -> Result<(), EscapeError> {
    let bytes = src.as_bytes();
    let mut at = 0;
    while let Some(rel) = memchr::memchr(b'&', &bytes[at..]) {
        let amp = at + rel;
        out.push_str(&src[at..amp]);
        let (c, len) = escape_at(src, amp)?;
        out.push(c);
        at = amp + len;
    }
    out.push_str(&src[at..]);
    Ok(())
}

/// The escape whose `&` is at `amp`: its codepoint and its length.
#[inline]
fn escape_at(src: &str, amp: usize) -> Result<(char, usize), EscapeError> {
    let Some(semi) = semicolon(&src.as_bytes()[amp..]) else {
        return Err(escape_error(
            ErrorCode::UnterminatedEscape,
            amp,
            src.len(),
            None,
        ));
    };
    let body = &src[amp + 1..amp + semi];
    match decode_escape(body) {
        Ok(c) => Ok((c, semi + 1)),
        Err((code, value)) => Err(escape_error(code, amp, amp + semi + 1, value)),
    }
}

/// The first `;` of `b`: escapes are short, so the first bytes are looked at one by one
/// before a memchr call is set up.
#[inline]
fn semicolon(b: &[u8]) -> Option<usize> {
    let head = &b[..b.len().min(12)];
    match head.iter().position(|&c| c == b';') {
        Some(k) => Some(k),
        None => memchr::memchr(b';', &b[head.len()..]).map(|k| k + head.len()),
    }
}

#[cold]
fn escape_error(code: ErrorCode, offset: usize, end: usize, value: Option<u32>) -> EscapeError {
    EscapeError {
        code,
        offset,
        end,
        value,
    }
}

/// "Each attribute value is decoded first by entity escaping, second by whitespace compression,
/// and third by Unicode normalization to NFC." Escapes and compression are done in one pass
/// (one copy of the value at most, before NFC); borrowed when nothing changes.
pub(crate) fn decode_value(src: &str) -> Result<Cow<'_, str>, EscapeError> {
    if memchr::memchr(b'&', src.as_bytes()).is_none() {
        return Ok(chain(compress_whitespace(src), nfc));
    }
    let mut out = String::with_capacity(src.len());
    // A run of whitespace seen and not yet written (it becomes one SP before the next
    // codepoint; leading and trailing runs are dropped).
    let mut pending = false;
    let mut at = 0;
    while let Some(rel) = memchr::memchr(b'&', &src.as_bytes()[at..]) {
        let amp = at + rel;
        compress_into(&src[at..amp], &mut out, &mut pending);
        let (c, len) = escape_at(src, amp)?;
        if is_compressed_whitespace(c) {
            pending = true;
        } else {
            if pending && !out.is_empty() {
                out.push(' ');
            }
            pending = false;
            out.push(c);
        }
        at = amp + len;
    }
    compress_into(&src[at..], &mut out, &mut pending);
    Ok(chain(Cow::Owned(out), nfc))
}

/// Appends `piece` to `out` with whitespace compression; `pending` carries a run of whitespace
/// from one piece to the next.
fn compress_into(piece: &str, out: &mut String, pending: &mut bool) {
    for (k, word) in piece.split(is_compressed_whitespace).enumerate() {
        if k > 0 {
            *pending = true;
        }
        if !word.is_empty() {
            if *pending && !out.is_empty() {
                out.push(' ');
            }
            *pending = false;
            out.push_str(word);
        }
    }
}

/// The codepoint an escape body (between `&` and `;`) stands for.
fn decode_escape(body: &str) -> Result<char, (ErrorCode, Option<u32>)> {
    if let Some(c) = thicket_charref::xml_predefined(body) {
        return Ok(c);
    }
    let Some(num) = body.strip_prefix('#') else {
        return Err((ErrorCode::UnknownEscape, None));
    };
    let (digits, radix) = if let Some(hex) = num.strip_prefix('x') {
        (hex, 16)
    } else if num.starts_with('X') {
        return Err((ErrorCode::UppercaseHexMarker, None));
    } else {
        (num, 10)
    };
    if digits.is_empty() {
        return Err((ErrorCode::MalformedNumericEscape, None));
    }
    let mut value = 0u32;
    for c in digits.chars() {
        let Some(d) = c.to_digit(radix) else {
            return Err((ErrorCode::MalformedNumericEscape, None));
        };
        value = numeric::accumulate(value, radix, d);
    }
    numeric::leafxml(value).ok_or((ErrorCode::EscapeOutsideCharset, Some(value)))
}

/// Line break normalization ("Line break normalization": CR LF, CR NEL, NEL, LS and CR become
/// LF, longest match first), the shared rules of `thicket_input`; borrowed when nothing changes.
#[inline]
pub(crate) fn normalize_line_breaks(s: &str) -> Cow<'_, str> {
    thicket_input::newline::normalize_leafxml(s)
}

/// Maps a byte offset into `normalize_line_breaks(orig)` back to the offset in `orig` (error
/// positions only).
#[cold]
pub(crate) fn map_back_line_breaks(orig: &str, target: usize) -> usize {
    let mut t = [target];
    map_back_line_breaks_all(orig, &mut t);
    t[0]
}

/// `map_back_line_breaks` for many offsets at once, in one pass: `targets` is in increasing
/// order and is mapped in place. The line breaks are folded by the shared cursor's LeafXML
/// rules, which give each folded break's length in `orig`.
#[cold]
pub(crate) fn map_back_line_breaks_all(orig: &str, targets: &mut [usize]) {
    let mut input = Cursor::whole(orig, NewlineRules::LeafXml);
    let mut next = 0;
    // Bytes of the normalized text before the position.
    let mut out = 0;
    while let Ok(Some(p)) = input.peek() {
        while next < targets.len() && out >= targets[next] {
            targets[next] = input.offset();
            next += 1;
        }
        out += p.ch.len_utf8();
        input.advance(p.len);
    }
    for t in &mut targets[next..] {
        *t = orig.len();
    }
}

/// Whitespace compression: runs of HT, LF, CR and SP become one SP; leading and trailing SP
/// are dropped.
pub(crate) fn compress_whitespace(s: &str) -> Cow<'_, str> {
    if is_compressed(s) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    for word in s.split(is_compressed_whitespace).filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    Cow::Owned(out)
}

/// True when whitespace compression leaves `s` unchanged.
pub(crate) fn is_compressed(s: &str) -> bool {
    let b = s.as_bytes();
    if b.first() == Some(&b' ') || b.last() == Some(&b' ') {
        return false;
    }
    let mut prev_space = false;
    for &x in b {
        let space = is_compressed_whitespace(char::from(x));
        if space && (x != b' ' || prev_space) {
            return false;
        }
        prev_space = space;
    }
    true
}

/// True when `s` is made of stable starters only (so it is NFC): all-ASCII strings at once,
/// the rest codepoint by codepoint.
fn all_stable_starters(s: &str) -> bool {
    if s.is_ascii() {
        return true;
    }
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] < 0x80 {
            i += 1;
            continue;
        }
        let (c, len) = codepoint_at(b, i);
        if !is_nfc_stable_starter(c) {
            return false;
        }
        i += len;
    }
    true
}

/// True when `s` is in NFC, with a quick check first so ASCII and most text is not copied.
pub(crate) fn is_nfc(s: &str) -> bool {
    if all_stable_starters(s) {
        return true;
    }
    match is_nfc_quick(s.chars()) {
        IsNormalized::Yes => true,
        IsNormalized::No => false,
        IsNormalized::Maybe => s.chars().eq(s.nfc()),
    }
}

/// Unicode normalization to NFC; borrowed when `s` is already normalized.
///
/// A stable starter is a normalization boundary (nothing before it composes with it or with
/// anything after it, and canonical reordering does not cross it), so `s` is normalized piece by
/// piece: runs of stable starters stay as they are, and only a piece from the last stable starter
/// before another codepoint up to the next stable starter is checked (quick check, then
/// normalization when the check does not say yes). The string is copied only from the first
/// piece that normalization changes.
pub(crate) fn nfc(s: &str) -> Cow<'_, str> {
    if s.is_ascii() {
        return Cow::Borrowed(s);
    }
    nfc_from(s, 0)
}

/// `nfc(s)` for a string whose codepoints before `from` are known to be stable starters, with
/// `from` at the start of one of them (or 0): the scan continues from there (a scan of `s` from
/// its start would reach `from` with nothing pending and the last boundary at `from`, or at a
/// later codepoint of the ASCII run `from` starts). Any other `from` scans from the start.
pub(crate) fn nfc_from(s: &str, from: usize) -> Cow<'_, str> {
    let from = if s.is_char_boundary(from) { from } else { 0 };
    let mut out: Option<String> = None;
    // `s[..copied]` is in `out` (when there is one); `start` is the last boundary; `pending` is
    // set when a codepoint other than a stable starter follows `start`.
    let mut copied = 0;
    let mut start = from;
    let mut pending = false;
    let b = s.as_bytes();
    let mut i = from;
    while i < b.len() {
        if b[i] < 0x80 {
            // A run of ASCII (stable starters): the piece before it ends, and the last byte of
            // the run is the last boundary.
            if pending {
                nfc_piece(s, start, i, &mut out, &mut copied);
                pending = false;
            }
            i += ascii_run(&b[i..]);
            start = i - 1;
            continue;
        }
        let (c, len) = codepoint_at(b, i);
        if is_nfc_stable_starter(c) {
            if pending {
                nfc_piece(s, start, i, &mut out, &mut copied);
                pending = false;
            }
            start = i;
        } else {
            pending = true;
        }
        i += len;
    }
    if pending {
        nfc_piece(s, start, s.len(), &mut out, &mut copied);
    }
    match out {
        None => Cow::Borrowed(s),
        Some(mut o) => {
            o.push_str(&s[copied..]);
            Cow::Owned(o)
        }
    }
}

/// The number of ASCII bytes at the start of `b`, eight at a time.
#[inline]
fn ascii_run(b: &[u8]) -> usize {
    let mut n = 0;
    for chunk in b.chunks_exact(8) {
        let Ok(word) = <[u8; 8]>::try_from(chunk) else {
            break;
        };
        let high = u64::from_le_bytes(word) & 0x8080_8080_8080_8080;
        if high != 0 {
            return n + (high.trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    n + b[n..].iter().take_while(|&&c| c < 0x80).count()
}

/// The codepoint starting at byte `i` of valid UTF-8 `b` (a lead byte), and its length.
#[inline]
pub(crate) fn codepoint_at(b: &[u8], i: usize) -> (u32, usize) {
    let lead = b[i];
    let at = |k: usize| u32::from(b.get(i + k).copied().unwrap_or(0) & 0x3F);
    if lead < 0x80 {
        (u32::from(lead), 1)
    } else if lead < 0xE0 {
        ((u32::from(lead & 0x1F) << 6) | at(1), 2)
    } else if lead < 0xF0 {
        ((u32::from(lead & 0x0F) << 12) | (at(1) << 6) | at(2), 3)
    } else {
        let c = (u32::from(lead & 0x07) << 18) | (at(1) << 12) | (at(2) << 6) | at(3);
        (c, 4)
    }
}

/// Normalizes the piece `s[a..z]` (from a boundary to a boundary) for `nfc`: when it changes,
/// `out` gets everything from `copied` up to the piece, then the normalized piece.
fn nfc_piece(s: &str, a: usize, z: usize, out: &mut Option<String>, copied: &mut usize) {
    let piece = &s[a..z];
    if is_nfc_quick(piece.chars()) == IsNormalized::Yes {
        return;
    }
    let normalized: String = piece.nfc().collect();
    if normalized == piece {
        return;
    }
    let o = out.get_or_insert_with(|| String::with_capacity(s.len() + 8));
    o.push_str(&s[*copied..a]);
    o.push_str(&normalized);
    *copied = z;
}

/// Applies a borrowed-or-owned transformation to a `Cow`, keeping ownership where possible.
pub(crate) fn chain<'a>(s: Cow<'a, str>, f: impl FnOnce(&str) -> Cow<'_, str>) -> Cow<'a, str> {
    match s {
        Cow::Borrowed(b) => f(b),
        Cow::Owned(o) => match f(&o) {
            Cow::Borrowed(_) => Cow::Owned(o),
            Cow::Owned(n) => Cow::Owned(n),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unescape(src: &str) -> Result<String, EscapeError> {
        let mut out = String::new();
        unescape_into(src, &mut out).map(|()| out)
    }

    #[test]
    fn escapes() {
        assert_eq!(unescape("a&lt;b&#60;&#x3c;&#x3C;").unwrap(), "a<b<<<");
        assert_eq!(unescape("&X;").unwrap_err().code, ErrorCode::UnknownEscape);
        assert_eq!(
            unescape("x &amp").unwrap_err(),
            EscapeError {
                code: ErrorCode::UnterminatedEscape,
                offset: 2,
                end: 6,
                value: None
            }
        );
        assert_eq!(
            unescape("a &#X3c; b").unwrap_err(),
            EscapeError {
                code: ErrorCode::UppercaseHexMarker,
                offset: 2,
                end: 8,
                value: None
            }
        );
        assert_eq!(unescape("&#x84;").unwrap_err().value, Some(0x84));
        assert_eq!(
            unescape("&#99999999999999999999;").unwrap_err().code,
            ErrorCode::EscapeOutsideCharset
        );
    }

    /// Escapes and whitespace compression in one pass agree with the two steps one after the
    /// other (escaped whitespace is compressed too), and NFC follows.
    #[test]
    fn value_decoding() {
        for raw in [
            "",
            " ",
            "a",
            " a  b ",
            "&#x20;a&#x20;&#x20;b&#x9;",
            "&amp; &lt;",
            "x&#10;&#13;y",
            "  &amp;  ",
            "&#x85;",
            "e&#x301;",
            "a\t\n\r b",
            "&#32;",
            "é  &#233;",
        ] {
            let two_steps = compress_whitespace(&unescape(raw).unwrap()).into_owned();
            let expected: String = two_steps.nfc().collect();
            assert_eq!(decode_value(raw).unwrap(), expected.as_str(), "{raw:?}");
        }
        assert!(matches!(decode_value("a b"), Ok(Cow::Borrowed(_))));
        assert_eq!(
            decode_value("a &bogus; b").unwrap_err().code,
            ErrorCode::UnknownEscape
        );
    }

    #[test]
    fn line_breaks_map_back() {
        let orig = "a\r\nb\u{2028}c";
        assert_eq!(map_back_line_breaks(orig, 2), 3);
        assert_eq!(map_back_line_breaks(orig, 4), 7);
        let orig = "<a\r\nb='x\u{2028}y'\r c='\u{85}'\r\u{85}>";
        let normalized = normalize_line_breaks(orig);
        let targets: Vec<usize> = (0..=normalized.len()).collect();
        let mut all = targets.clone();
        map_back_line_breaks_all(orig, &mut all);
        // Each offset maps to where the same character is written, and the end to the end.
        for (t, &o) in targets.iter().zip(&all) {
            let expected = normalized[*t..].chars().next();
            let written = orig[o..].chars().next().map(|c| match c {
                '\r' | '\u{85}' | '\u{2028}' => '\n',
                c => c,
            });
            assert_eq!(expected, written, "{t} -> {o}");
        }
        let one: Vec<usize> = targets
            .iter()
            .map(|&t| map_back_line_breaks(orig, t))
            .collect();
        assert_eq!(all, one);
    }

    #[test]
    fn compression() {
        assert_eq!(compress_whitespace("  a \t\r\n b  "), "a b");
        assert!(matches!(compress_whitespace("a b"), Cow::Borrowed(_)));
        assert_eq!(compress_whitespace("   "), "");
    }

    /// Strings of stable starters are NFC ones.
    #[test]
    fn stable_starter_runs() {
        assert!(all_stable_starters("abc 日本語のテキスト、한국어 éà ＡＢ"));
        assert!(!all_stable_starters("か\u{3099}"));
        assert!(!all_stable_starters("e\u{301}"));
        assert!(all_stable_starters("αβγ кириллица ═║ ⠁⠑ ა"));
        assert!(!all_stable_starters("\u{1f71}"));
    }

    proptest::proptest! {
        /// The fast path agrees with the quick check and full normalization.
        #[test]
        fn nfc_fast_path(s in "[ae\u{300}\u{301}\u{302a}か\u{3099}日한\u{f900}\u{1d15e}α\u{1f71}\u{387}\u{e48}═ \u{1100}\u{1161}\u{11a8}\u{f73}]{0,24}") {
            let expected: String = s.nfc().collect();
            proptest::prop_assert_eq!(is_nfc(&s), expected == s);
            proptest::prop_assert_eq!(nfc(&s), expected.as_str());
            // Continuing from the start of any codepoint with only stable starters before it
            // (as the text fast path hands over) gives the same text.
            proptest::prop_assert_eq!(nfc_from(&s, 0), expected.as_str());
            for (from, c) in s.char_indices() {
                if !is_nfc_stable_starter(c as u32) {
                    break;
                }
                proptest::prop_assert_eq!(nfc_from(&s, from), expected.as_str());
            }
            if all_stable_starters(&s) {
                proptest::prop_assert_eq!(&expected, &s);
            }
        }
    }

    #[test]
    fn stable_starter_strings() {
        // The inline decoding of `all_stable_starters` agrees with `is_nfc_stable_starter` on
        // every codepoint, alone and between other text.
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            let one = c.to_string();
            assert_eq!(
                all_stable_starters(&one),
                is_nfc_stable_starter(c as u32),
                "{c:?}"
            );
            let mixed = format!("a{c}b\u{e9}");
            assert_eq!(
                all_stable_starters(&mixed),
                is_nfc_stable_starter(c as u32),
                "{c:?}"
            );
        }
    }

    #[test]
    fn ascii_runs() {
        for n in 0..20 {
            for tail in ["", "\u{e9}", "\u{1f72}x"] {
                let s = format!("{}{tail}", "a".repeat(n));
                assert_eq!(
                    ascii_run(s.as_bytes()),
                    n + tail.find(|c: char| !c.is_ascii()).map_or(tail.len(), |k| k)
                );
            }
        }
    }

    #[test]
    fn normalization_in_pieces() {
        let s = "\u{3a3}\u{1f72} \u{3b3}\u{3bd}\u{3c9}\u{3c1}\u{1f77}\u{3b6}\u{3c9} e\u{301}\u{300}x \u{1e0b}\u{323}";
        let expected: String = s.nfc().collect();
        assert_eq!(nfc(s), expected.as_str());
    }

    #[test]
    fn normalization() {
        assert_eq!(nfc("e\u{301}"), "\u{e9}");
        assert!(matches!(nfc("\u{e9}t\u{e9}"), Cow::Borrowed(_)));
        assert!(!is_nfc("e\u{301}"));
    }
}
