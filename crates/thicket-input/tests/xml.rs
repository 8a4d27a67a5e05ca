//! Encoding detection for XML: BOM, UTF-16 patterns, declaration label, default.

use thicket_input::xml::{XmlSniffed, decode, sniff};

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

fn summary(s: &XmlSniffed) -> (&'static str, usize, Option<&str>) {
    (s.encoding.name(), s.bom_len, s.declared_label.as_deref())
}

#[test]
fn bom_decides_and_the_label_is_still_reported() {
    let s = sniff(b"\xEF\xBB\xBF<?xml version='1.0' encoding='iso-8859-2'?>");
    assert_eq!(summary(&s), ("UTF-8", 3, Some("iso-8859-2")));
    let mut le = b"\xFF\xFE".to_vec();
    le.extend(utf16("<?xml version='1.0' encoding='UTF-16'?><a/>", false));
    assert_eq!(summary(&sniff(&le)), ("UTF-16LE", 2, Some("UTF-16")));
    let mut be = b"\xFE\xFF".to_vec();
    be.extend(utf16("<a/>", true));
    assert_eq!(summary(&sniff(&be)), ("UTF-16BE", 2, None));
}

#[test]
fn utf16_without_bom_by_pattern() {
    let doc = "<?xml version=\"1.0\" encoding=\"utf-16\"?><r>\u{e9}</r>";
    let s = sniff(&utf16(doc, true));
    assert_eq!(summary(&s), ("UTF-16BE", 0, Some("utf-16")));
    let s = sniff(&utf16(doc, false));
    assert_eq!(summary(&s), ("UTF-16LE", 0, Some("utf-16")));
    // Only "<?" is a pattern: "<a" in UTF-16 is not recognized and falls to UTF-8.
    assert_eq!(sniff(&utf16("<a/>", false)).encoding.name(), "UTF-8");
    // The label in UTF-16 stops at the first non-ASCII code unit.
    let s = sniff(&utf16("<?xml encoding='\u{e9}'?>", false));
    assert_eq!(summary(&s), ("UTF-16LE", 0, None));
}

#[test]
fn declared_label_resolves_through_the_encoding_standard() {
    let s = sniff(b"<?xml version='1.0' encoding='ISO-8859-1'?>");
    assert_eq!(summary(&s), ("windows-1252", 0, Some("ISO-8859-1")));
    let s = sniff(b"<?xml version=\"1.0\" encoding=\"Shift_JIS\" standalone=\"yes\"?>");
    assert_eq!(summary(&s), ("Shift_JIS", 0, Some("Shift_JIS")));
    let s = sniff(b"<?xml\n  version = '1.0'\n  encoding = 'euc-kr' ?>");
    assert_eq!(summary(&s), ("EUC-KR", 0, Some("euc-kr")));
}

#[test]
fn utf16_label_in_ascii_bytes_is_utf8() {
    let s = sniff(b"<?xml version='1.0' encoding='UTF-16'?><a/>");
    assert_eq!(summary(&s), ("UTF-8", 0, Some("UTF-16")));
}

#[test]
fn unknown_label_or_no_declaration_is_utf8() {
    let s = sniff(b"<?xml version='1.0' encoding='EBCDIC-cp-us'?>");
    assert_eq!(summary(&s), ("UTF-8", 0, Some("EBCDIC-cp-us")));
    assert_eq!(summary(&sniff(b"<a/>")), ("UTF-8", 0, None));
    assert_eq!(summary(&sniff(b"")), ("UTF-8", 0, None));
    assert_eq!(
        summary(&sniff(b"<?xml version='1.0'?>")),
        ("UTF-8", 0, None)
    );
    // Not at the very start, or not a declaration.
    assert_eq!(
        summary(&sniff(b"\n<?xml encoding='koi8-r'?>")),
        ("UTF-8", 0, None)
    );
    assert_eq!(
        summary(&sniff(b"<?xml-model encoding='koi8-r'?>")),
        ("UTF-8", 0, None)
    );
    assert_eq!(
        summary(&sniff(b"<?xml encoding='koi8-r")),
        ("UTF-8", 0, None)
    );
}

#[test]
fn decode_uses_the_sniffed_encoding() {
    let (t, e, had_errors) = decode(b"<?xml version='1.0' encoding='windows-1251'?><a>\xE0</a>");
    assert_eq!((e.name(), had_errors), ("windows-1251", false));
    assert!(t.ends_with("<a>\u{430}</a>"));
    let mut bytes = b"\xFE\xFF".to_vec();
    bytes.extend(utf16("<a>\u{1F600}</a>", true));
    let (t, e, _) = decode(&bytes);
    assert_eq!((&*t, e.name()), ("<a>\u{1F600}</a>", "UTF-16BE"));
    let bytes = utf16("<?xml version='1.0'?><a/>", false);
    let (t, e, _) = decode(&bytes);
    assert_eq!((&*t, e.name()), ("<?xml version='1.0'?><a/>", "UTF-16LE"));
    let (t, _, had_errors) = decode(b"<a>\xFF</a>");
    assert_eq!((&*t, had_errors), ("<a>\u{FFFD}</a>", true));
}

mod properties {
    use proptest::prelude::*;
    use thicket_input::xml::{decode, sniff};

    fn declaration_like() -> impl Strategy<Value = Vec<u8>> {
        prop::collection::vec(
            prop::sample::select(vec![
                &b"<?xml"[..],
                b" ",
                b"\t",
                b"version",
                b"encoding",
                b"=",
                b"'",
                b"\"",
                b"utf-16",
                b"koi8-r",
                b"?>",
                b">",
                b"<",
                b"\0",
                b"\xFE\xFF",
                b"\xFF\xFE",
                b"\xEF\xBB\xBF",
                b"\xE9",
            ]),
            0..16,
        )
        .prop_map(|v| v.concat())
    }

    proptest! {
        #[test]
        fn sniff_is_total_and_consistent(bytes in declaration_like()) {
            let s = sniff(&bytes);
            prop_assert!(s.bom_len <= bytes.len());
            prop_assert!(s.bom_len == 0 || bytes.starts_with(
                thicket_input::Utf::from_encoding(s.encoding).unwrap().bom()
            ));
            // A declared UTF-16 label never makes ASCII-compatible bytes UTF-16.
            if s.encoding == encoding_rs::UTF_16LE || s.encoding == encoding_rs::UTF_16BE {
                prop_assert!(s.bom_len == 2 || bytes.starts_with(b"\0<\0?") || bytes.starts_with(b"<\0?\0"));
            }
            let (text, encoding, _) = decode(&bytes);
            prop_assert_eq!(encoding, s.encoding);
            // The BOM is not text: what follows it is decoded as it is.
            prop_assert_eq!(text, s.encoding.decode_without_bom_handling(&bytes[s.bom_len..]).0);
        }
    }
}
