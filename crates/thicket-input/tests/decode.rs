//! Strict and lossy decoding: one test per rule, and property tests against the standard library.

use std::borrow::Cow;

use proptest::prelude::*;
use thicket_input::decode::{DecodeErrorKind, decode_strict_cow, validate};
use thicket_input::{
    DecodeError, ErrorCode, Utf, decode_bom_lossy, decode_leafxml, decode_lossy, decode_strict,
};

fn err(bytes: &[u8], utf: Utf) -> (usize, DecodeErrorKind) {
    let e = decode_strict(bytes, utf).unwrap_err();
    (e.offset, e.kind)
}

/// `s` encoded as UTF-16 in the given byte order.
fn utf16(s: &str, big_endian: bool) -> Vec<u8> {
    s.encode_utf16()
        .flat_map(|u| {
            if big_endian {
                u.to_be_bytes()
            } else {
                u.to_le_bytes()
            }
        })
        .collect()
}

#[test]
fn utf8_valid_input_decodes_and_borrows() {
    let s = "a\u{e9}\u{20ac}\u{1F600}";
    assert_eq!(decode_strict(s.as_bytes(), Utf::Utf8).unwrap(), s);
    assert!(matches!(
        decode_strict_cow(s.as_bytes(), Utf::Utf8),
        Ok(Cow::Borrowed(_))
    ));
    // A BOM given to decode_strict is text.
    assert_eq!(
        decode_strict(b"\xEF\xBB\xBFa", Utf::Utf8).unwrap(),
        "\u{FEFF}a"
    );
}

#[test]
fn utf8_errors_report_the_first_bad_byte() {
    use DecodeErrorKind::*;
    assert_eq!(err(b"ab\xFFc", Utf::Utf8), (2, InvalidUtf8));
    assert_eq!(err(b"\x80", Utf::Utf8), (0, InvalidUtf8)); // lone continuation byte
    assert_eq!(err(b"a\xC0\x80", Utf::Utf8), (1, InvalidUtf8)); // overlong NUL
    assert_eq!(err(b"ab\xED\xA0\x80", Utf::Utf8), (2, InvalidUtf8)); // encoded surrogate
    assert_eq!(err(b"\xF4\x90\x80\x80", Utf::Utf8), (0, InvalidUtf8)); // above U+10FFFF
    assert_eq!(err(b"\xE2\x82x", Utf::Utf8), (0, InvalidUtf8)); // cut short by ASCII
    assert_eq!(err(b"ok\xE2\x82", Utf::Utf8), (2, TruncatedUtf8)); // cut short by the end
    assert_eq!(err(b"\xF0\x9F\x98", Utf::Utf8), (0, TruncatedUtf8));
    // The first error wins.
    assert_eq!(err(b"\xC3\xA9\xFF\xE2", Utf::Utf8), (2, InvalidUtf8));
}

#[test]
fn utf16_both_byte_orders() {
    let s = "<a>\u{e9}\u{1F600}";
    for be in [false, true] {
        let utf = if be { Utf::Utf16Be } else { Utf::Utf16Le };
        assert_eq!(decode_strict(&utf16(s, be), utf).unwrap(), s);
    }
    assert_eq!(decode_strict(b"", Utf::Utf16Le).unwrap(), "");
}

#[test]
fn utf16_unpaired_surrogates() {
    use DecodeErrorKind::*;
    // A lone low surrogate.
    assert_eq!(err(b"a\0\x00\xDCb\0", Utf::Utf16Le), (2, UnpairedSurrogate));
    // A high surrogate followed by something other than a low surrogate.
    assert_eq!(err(b"a\0\x00\xD8b\0", Utf::Utf16Le), (2, UnpairedSurrogate));
    assert_eq!(
        err(b"\x00\xD8\x00\xD8\x00\xDC", Utf::Utf16Le),
        (0, UnpairedSurrogate)
    );
    // A high surrogate at the very end.
    assert_eq!(err(b"\0a\xD8\x00", Utf::Utf16Be), (2, UnpairedSurrogate));
    // Two lows in a row: the first is the error.
    assert_eq!(
        err(b"\xDC\x00\xDC\x00", Utf::Utf16Be),
        (0, UnpairedSurrogate)
    );
}

#[test]
fn utf16_odd_byte_count() {
    use DecodeErrorKind::*;
    assert_eq!(err(b"a\0b", Utf::Utf16Le), (2, TruncatedUtf16));
    assert_eq!(err(b"\0", Utf::Utf16Be), (0, TruncatedUtf16));
    // A high surrogate and half a code unit: the pair is cut short where it starts.
    assert_eq!(err(b"a\0\x3D\xD8\x00", Utf::Utf16Le), (2, TruncatedUtf16));
}

#[test]
fn validate_agrees_with_decode_strict() {
    for (bytes, utf) in [
        (&b"ab\xFFc"[..], Utf::Utf8),
        (b"abc", Utf::Utf8),
        (b"a\0\x00\xDC", Utf::Utf16Le),
        (b"a\0b", Utf::Utf16Le),
        (b"\0a", Utf::Utf16Be),
    ] {
        assert_eq!(validate(bytes, utf), decode_strict(bytes, utf).map(|_| ()));
    }
}

#[test]
fn leafxml_bom_rules_and_offsets_from_the_first_byte() {
    let (t, u) = decode_leafxml(b"<a/>").unwrap();
    assert_eq!((&*t, u), ("<a/>", Utf::Utf8));
    assert!(matches!(t, Cow::Borrowed(_)));
    let (t, u) = decode_leafxml(b"\xEF\xBB\xBF<a/>").unwrap();
    assert_eq!((&*t, u), ("<a/>", Utf::Utf8));
    assert!(matches!(t, Cow::Borrowed(_)));
    let (t, u) = decode_leafxml(b"\xFF\xFE<\0a\0/\0>\0").unwrap();
    assert_eq!((&*t, u), ("<a/>", Utf::Utf16Le));
    let (t, u) = decode_leafxml(b"\xFE\xFF\0<\0a\0/\0>").unwrap();
    assert_eq!((&*t, u), ("<a/>", Utf::Utf16Be));
    // A BOM alone is an empty text.
    assert_eq!(decode_leafxml(b"\xFE\xFF").unwrap().0, "");
    // Only one BOM is removed.
    assert_eq!(
        decode_leafxml(b"\xEF\xBB\xBF\xEF\xBB\xBF").unwrap().0,
        "\u{FEFF}"
    );
    // UTF-16 without a BOM is not recognized: it is UTF-8 (with NULs, which the parser rejects).
    assert_eq!(decode_leafxml(b"<\0").unwrap(), ("<\0".into(), Utf::Utf8));
    // Error offsets count the BOM.
    let e = decode_leafxml(b"\xEF\xBB\xBF<a>\xFF").unwrap_err();
    assert_eq!((e.offset, e.kind), (6, DecodeErrorKind::InvalidUtf8));
    let e = decode_leafxml(b"\xFF\xFE<\0\x00\xDC").unwrap_err();
    assert_eq!((e.offset, e.kind), (4, DecodeErrorKind::UnpairedSurrogate));
    let e = decode_leafxml(b"\xFE\xFF\0<\0").unwrap_err();
    assert_eq!((e.offset, e.kind), (4, DecodeErrorKind::TruncatedUtf16));
}

#[test]
fn lossy_replaces_maximal_subparts() {
    assert!(matches!(
        decode_lossy(b"abc", Utf::Utf8),
        Cow::Borrowed("abc")
    ));
    assert_eq!(decode_lossy(b"a\xF0\x9F\x98b", Utf::Utf8), "a\u{FFFD}b");
    assert_eq!(decode_lossy(b"\xC0\x80", Utf::Utf8), "\u{FFFD}\u{FFFD}");
    assert_eq!(
        decode_lossy(b"\xED\xA0\x80", Utf::Utf8),
        "\u{FFFD}\u{FFFD}\u{FFFD}"
    );
    assert_eq!(decode_lossy(b"a\0\x00\xDCb\0", Utf::Utf16Le), "a\u{FFFD}b");
    assert_eq!(decode_lossy(b"\0a\0", Utf::Utf16Be), "a\u{FFFD}");
    // The BOM is text for decode_lossy, and removed by decode_bom_lossy.
    assert_eq!(decode_lossy(b"\xEF\xBB\xBFa", Utf::Utf8), "\u{FEFF}a");
    let (t, u, had_errors) = decode_bom_lossy(b"\xEF\xBB\xBFa");
    assert_eq!((&*t, u, had_errors), ("a", Utf::Utf8, false));
    assert!(matches!(t, Cow::Borrowed(_)));
    let (t, u, had_errors) = decode_bom_lossy(b"\xFF\xFEa\0\x00\xD8");
    assert_eq!((&*t, u, had_errors), ("a\u{FFFD}", Utf::Utf16Le, true));
}

#[test]
fn errors_display_and_codes() {
    let e = DecodeError {
        offset: 7,
        kind: DecodeErrorKind::UnpairedSurrogate,
    };
    assert_eq!(e.to_string(), "unpaired UTF-16 surrogate at byte 7");
    let e: Box<dyn std::error::Error> = Box::new(e);
    assert!(e.to_string().contains("byte 7"));
    assert_eq!(DecodeErrorKind::InvalidUtf8.as_str(), "invalid-utf8");
    assert_eq!(DecodeErrorKind::TruncatedUtf16.as_str(), "truncated-utf16");
}

/// The first error in UTF-16 `bytes` by the standard library's decoder: the offset of the first
/// unpaired surrogate, or of the odd last byte.
fn reference_utf16(bytes: &[u8], be: bool) -> Result<String, usize> {
    let units: Vec<u16> = bytes
        .chunks_exact(2)
        .map(|p| {
            if be {
                u16::from_be_bytes([p[0], p[1]])
            } else {
                u16::from_le_bytes([p[0], p[1]])
            }
        })
        .collect();
    let mut out = String::new();
    let mut offset = 0;
    for r in char::decode_utf16(units.iter().copied()) {
        match r {
            Ok(c) => {
                out.push(c);
                offset += 2 * c.len_utf16();
            }
            Err(_) => return Err(offset),
        }
    }
    if bytes.len() % 2 == 1 {
        return Err(bytes.len() - 1);
    }
    Ok(out)
}

/// Bytes rich in surrogates and multi-byte sequences.
fn tricky_bytes() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop_oneof![
            Just(0x00u8),
            Just(0x41),
            Just(0xD8),
            Just(0xDB),
            Just(0xDC),
            Just(0xDF),
            Just(0xC3),
            Just(0xA9),
            Just(0xE2),
            Just(0x82),
            Just(0xAC),
            Just(0xF0),
            Just(0x9F),
            any::<u8>(),
        ],
        0..24,
    )
}

proptest! {
    #[test]
    fn utf8_strict_matches_std(bytes in tricky_bytes()) {
        match (decode_strict(&bytes, Utf::Utf8), std::str::from_utf8(&bytes)) {
            (Ok(a), Ok(b)) => prop_assert_eq!(a, b),
            (Err(a), Err(b)) => {
                prop_assert_eq!(a.offset, b.valid_up_to());
                let truncated = b.error_len().is_none();
                prop_assert_eq!(a.kind == DecodeErrorKind::TruncatedUtf8, truncated);
            }
            (a, b) => prop_assert!(false, "{:?} vs {:?}", a, b),
        }
    }

    #[test]
    fn utf16_strict_matches_std(bytes in tricky_bytes(), be in any::<bool>()) {
        let utf = if be { Utf::Utf16Be } else { Utf::Utf16Le };
        match (decode_strict(&bytes, utf), reference_utf16(&bytes, be)) {
            (Ok(a), Ok(b)) => prop_assert_eq!(a, b),
            (Err(a), Err(b)) => prop_assert_eq!(a.offset, b),
            (a, b) => prop_assert!(false, "{:?} vs {:?}", a, b),
        }
        prop_assert_eq!(validate(&bytes, utf), decode_strict(&bytes, utf).map(|_| ()));
    }

    #[test]
    fn lossy_equals_strict_when_strict_succeeds(bytes in tricky_bytes(), which in 0..3u8) {
        let utf = [Utf::Utf8, Utf::Utf16Le, Utf::Utf16Be][usize::from(which)];
        let lossy = decode_lossy(&bytes, utf);
        match decode_strict(&bytes, utf) {
            Ok(s) => prop_assert_eq!(lossy, s),
            Err(e) => {
                // Everything before the error decodes the same way.
                let before = decode_strict(&bytes[..e.offset], utf).unwrap();
                prop_assert!(lossy.starts_with(&before));
                prop_assert!(lossy[before.len()..].starts_with(char::REPLACEMENT_CHARACTER), "no U+FFFD after {:?}", before);
            }
        }
    }
}

mod replacements {
    use encoding_rs::{Encoding, GB18030, SHIFT_JIS, UTF_8, UTF_16BE, UTF_16LE};
    use proptest::prelude::*;
    use thicket_input::decode::decode_with_replacements;

    #[test]
    fn utf16_replacements_point_at_the_surrogate() {
        let (text, r) = decode_with_replacements(b"a\0\x00\xD8b\0\x00\xDC", UTF_16LE);
        assert_eq!(text, "a\u{FFFD}b\u{FFFD}");
        let at: Vec<_> = r.iter().map(|r| (r.byte_offset, r.byte_len)).collect();
        assert_eq!(at, [(2, 2), (6, 2)]);
    }

    fn encoding() -> impl Strategy<Value = &'static Encoding> {
        prop_oneof![
            Just(UTF_8),
            Just(UTF_16LE),
            Just(UTF_16BE),
            Just(SHIFT_JIS),
            Just(GB18030)
        ]
    }

    proptest! {
        #[test]
        fn same_text_as_lossy_and_spans_hold_fffd(
            bytes in prop::collection::vec(any::<u8>(), 0..40),
            enc in encoding(),
        ) {
            let (text, replaced) = decode_with_replacements(&bytes, enc);
            let (lossy, had_errors) = enc.decode_without_bom_handling(&bytes);
            prop_assert_eq!(&text, &lossy);
            prop_assert_eq!(had_errors, !replaced.is_empty());
            let mut last_byte = 0;
            let mut last_span = 0;
            for r in &replaced {
                prop_assert_eq!(r.span.slice(&text), "\u{FFFD}");
                prop_assert!(r.byte_offset >= last_byte && r.span.start >= last_span);
                prop_assert!(r.byte_len > 0 && r.byte_offset + r.byte_len <= bytes.len());
                last_byte = r.byte_offset + r.byte_len;
                last_span = r.span.end;
            }
        }
    }
}
