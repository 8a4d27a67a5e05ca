//! The streaming decoder: any chunking gives the same text, and the same errors, as one call.

use encoding_rs::{EUC_JP, Encoding, GB18030, SHIFT_JIS, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252};
use proptest::prelude::*;
use thicket_input::decode::DecodeErrorKind;
use thicket_input::{DecodeError, StreamDecoder, Utf, decode_leafxml, decode_strict};

/// Splits `bytes` at the given cut points (indices into it, any order).
fn chunks<'a>(bytes: &'a [u8], cuts: &[prop::sample::Index]) -> Vec<&'a [u8]> {
    let mut at: Vec<usize> = cuts.iter().map(|c| c.index(bytes.len() + 1)).collect();
    at.sort_unstable();
    let mut out = Vec::new();
    let mut start = 0;
    for cut in at.into_iter().chain([bytes.len()]) {
        out.push(&bytes[start..cut]);
        start = cut;
    }
    out
}

fn feed_all(decoder: &mut StreamDecoder, parts: &[&[u8]]) -> String {
    let mut out = String::new();
    for part in parts {
        decoder.feed(part, &mut out);
    }
    decoder.finish(&mut out);
    out
}

fn feed_all_strict(
    decoder: &mut StreamDecoder,
    parts: &[&[u8]],
) -> (String, Result<(), DecodeError>) {
    let mut out = String::new();
    for part in parts {
        if let Err(e) = decoder.feed_strict(part, &mut out) {
            return (out, Err(e));
        }
    }
    let r = decoder.finish_strict(&mut out);
    (out, r)
}

#[test]
fn split_multibyte_sequences_and_pairs() {
    let mut d = StreamDecoder::new(UTF_8);
    assert_eq!(
        feed_all(&mut d, &[b"a\xF0", b"\x9F", b"\x98", b"\x80b"]),
        "a\u{1F600}b"
    );
    let mut d = StreamDecoder::new(UTF_16LE);
    assert_eq!(
        feed_all(&mut d, &[b"a", b"\0\x3D", b"\xD8\x00", b"\xDE"]),
        "a\u{1F600}"
    );
    // Bytes a BOM sniff held back: a lone FE is invalid, EF BB is a cut-short sequence.
    let mut d = StreamDecoder::leafxml();
    let (_, r) = feed_all_strict(&mut d, &[b"\xFE"]);
    assert_eq!(
        r,
        Err(DecodeError {
            offset: 0,
            kind: DecodeErrorKind::InvalidUtf8
        })
    );
    let mut d = StreamDecoder::leafxml();
    let (_, r) = feed_all_strict(&mut d, &[b"\xEF", b"\xBB"]);
    assert_eq!(
        r,
        Err(DecodeError {
            offset: 0,
            kind: DecodeErrorKind::TruncatedUtf8
        })
    );
    let mut d = StreamDecoder::new(SHIFT_JIS);
    assert_eq!(feed_all(&mut d, &[b"\x82", b"\xA0"]), "\u{3042}");
}

#[test]
fn bom_handling_variants() {
    // new: a BOM of the same encoding is removed, even split; another BOM is text.
    let mut d = StreamDecoder::new(UTF_8);
    assert_eq!(feed_all(&mut d, &[b"\xEF", b"\xBB", b"\xBFa"]), "a");
    let mut d = StreamDecoder::new(UTF_8);
    assert_eq!(feed_all(&mut d, &[b"\xFF\xFEa"]), "\u{FFFD}\u{FFFD}a");
    let mut d = StreamDecoder::new(UTF_16BE);
    assert_eq!(feed_all(&mut d, &[b"\xFE\xFF\0a"]), "a");
    // with_bom_sniffing: a BOM chooses the encoding.
    let mut d = StreamDecoder::with_bom_sniffing(WINDOWS_1252);
    let mut out = String::new();
    d.feed(b"\xFF", &mut out);
    d.feed(b"\xFEa\0", &mut out);
    assert_eq!(d.encoding(), UTF_16LE);
    d.finish(&mut out);
    assert_eq!(out, "a");
    let mut d = StreamDecoder::with_bom_sniffing(WINDOWS_1252);
    assert_eq!(feed_all(&mut d, &[b"\xE9"]), "\u{e9}");
    // without_bom_handling: the BOM is U+FEFF.
    let mut d = StreamDecoder::without_bom_handling(UTF_8);
    assert_eq!(feed_all(&mut d, &[b"\xEF\xBB\xBFa"]), "\u{FEFF}a");
}

#[test]
fn finish_flushes_and_starts_a_new_stream() {
    let mut d = StreamDecoder::new(UTF_8);
    let mut out = String::new();
    d.feed(b"a\xE2\x82", &mut out);
    assert_eq!(out, "a");
    assert_eq!(d.bytes_fed(), 3);
    d.finish(&mut out);
    assert_eq!(out, "a\u{FFFD}");
    assert!(d.had_errors());
    // The next stream starts fresh (its BOM is removed again).
    let mut out = String::new();
    d.feed(b"\xEF\xBB\xBFb", &mut out);
    d.finish(&mut out);
    assert_eq!(out, "b");
    d.reset();
    assert!(!d.had_errors());
    assert_eq!(d.bytes_fed(), 0);
}

#[test]
fn strict_errors_count_bytes_from_the_start_of_the_stream() {
    let mut d = StreamDecoder::leafxml();
    let (out, r) = feed_all_strict(&mut d, &[b"\xEF\xBB", b"\xBF<a>", b"\xC3", b"\xA9\xFF"]);
    assert_eq!(out, "<a>\u{e9}");
    assert_eq!(
        r,
        Err(DecodeError {
            offset: 8,
            kind: DecodeErrorKind::InvalidUtf8
        })
    );
    let mut d = StreamDecoder::leafxml();
    let (out, r) = feed_all_strict(&mut d, &[b"ab\xE2", b"\x82"]);
    assert_eq!(out, "ab");
    assert_eq!(r.unwrap_err().kind, DecodeErrorKind::TruncatedUtf8);
    let mut d = StreamDecoder::leafxml();
    let (out, r) = feed_all_strict(&mut d, &[b"\xFF\xFEa\0\x00", b"\xDC"]);
    assert_eq!(out, "a");
    assert_eq!(
        r,
        Err(DecodeError {
            offset: 4,
            kind: DecodeErrorKind::UnpairedSurrogate
        })
    );
    let mut d = StreamDecoder::new(SHIFT_JIS);
    let (_, r) = feed_all_strict(&mut d, &[b"a\x82"]);
    assert_eq!(r.unwrap_err().kind, DecodeErrorKind::Malformed);
}

fn tricky_bytes() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop_oneof![
            Just(0x00u8),
            Just(0x41),
            Just(0xD8),
            Just(0xDC),
            Just(0xC3),
            Just(0xA9),
            Just(0xE2),
            Just(0x82),
            Just(0xF0),
            Just(0x9F),
            Just(0x8F),
            Just(0xA1),
            Just(0xEF),
            Just(0xBB),
            Just(0xBF),
            Just(0xFE),
            Just(0xFF),
            any::<u8>(),
        ],
        0..32,
    )
}

fn encoding() -> impl Strategy<Value = &'static Encoding> {
    prop_oneof![
        Just(UTF_8),
        Just(UTF_16LE),
        Just(UTF_16BE),
        Just(SHIFT_JIS),
        Just(EUC_JP),
        Just(GB18030),
        Just(WINDOWS_1252),
    ]
}

fn utf() -> impl Strategy<Value = Utf> {
    prop_oneof![Just(Utf::Utf8), Just(Utf::Utf16Le), Just(Utf::Utf16Be)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn lossy_any_chunking_matches_one_call(
        bytes in tricky_bytes(),
        enc in encoding(),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..8),
    ) {
        let parts = chunks(&bytes, &cuts);
        let (whole, _) = enc.decode_with_bom_removal(&bytes);
        prop_assert_eq!(feed_all(&mut StreamDecoder::new(enc), &parts), whole.as_ref());
        let (whole, _, _) = enc.decode(&bytes);
        prop_assert_eq!(feed_all(&mut StreamDecoder::with_bom_sniffing(enc), &parts), whole.as_ref());
        let (whole, had_errors) = enc.decode_without_bom_handling(&bytes);
        let mut d = StreamDecoder::without_bom_handling(enc);
        prop_assert_eq!(feed_all(&mut d, &parts), whole.as_ref());
        prop_assert_eq!(d.had_errors(), had_errors);
    }

    #[test]
    fn byte_by_byte_matches_one_call(bytes in tricky_bytes(), enc in encoding()) {
        let parts: Vec<&[u8]> = bytes.chunks(1).collect();
        let (whole, _) = enc.decode_with_bom_removal(&bytes);
        prop_assert_eq!(feed_all(&mut StreamDecoder::new(enc), &parts), whole.as_ref());
    }

    #[test]
    fn strict_any_chunking_matches_decode_strict(
        bytes in tricky_bytes(),
        utf in utf(),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..8),
    ) {
        let parts = chunks(&bytes, &cuts);
        let mut d = StreamDecoder::without_bom_handling(utf.encoding());
        let (out, r) = feed_all_strict(&mut d, &parts);
        match decode_strict(&bytes, utf) {
            Ok(text) => {
                prop_assert_eq!(r, Ok(()));
                prop_assert_eq!(out, text);
            }
            Err(e) => {
                prop_assert_eq!(r, Err(e));
                // The text before the error has been written, and nothing after it.
                prop_assert_eq!(out, decode_strict(&bytes[..e.offset], utf).unwrap());
            }
        }
    }

    #[test]
    fn strict_leafxml_stream_matches_decode_leafxml(
        bytes in tricky_bytes(),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..8),
    ) {
        let parts = chunks(&bytes, &cuts);
        let mut d = StreamDecoder::leafxml();
        let (out, r) = feed_all_strict(&mut d, &parts);
        match decode_leafxml(&bytes) {
            Ok((text, _)) => {
                prop_assert_eq!(r, Ok(()));
                prop_assert_eq!(out, text);
            }
            Err(e) => prop_assert_eq!(r, Err(e)),
        }
    }
}
