//! LeafXML's character set, byte classes and NFC stable starters, checked on every codepoint.

use thicket_names::leafxml;
use unicode_normalization::char::canonical_combining_class;
use unicode_normalization::{IsNormalized, is_nfc_quick};

fn all_chars() -> impl Iterator<Item = char> {
    (0..=0x10FFFFu32).filter_map(char::from_u32)
}

/// The character set as the spec lists it.
fn in_charset(c: char) -> bool {
    let c = c as u32;
    let listed = matches!(c, 0x9 | 0xA | 0xD | 0x20..=0x7E | 0x85 | 0xA0..=0xD7FF | 0xE000..=0xFDCF)
        || (0xFDF0..=0x10FFFD).contains(&c);
    listed && c & 0xFFFF != 0xFFFE && c & 0xFFFF != 0xFFFF
}

#[test]
fn the_character_set_and_its_fast_scan() {
    for c in all_chars() {
        assert_eq!(leafxml::is_char(c), in_charset(c), "{c:?}");
        let one = c.to_string();
        let expected = (!in_charset(c)).then_some((0, c));
        assert_eq!(leafxml::first_invalid_char(&one), expected, "{c:?}");
        // After 31 ASCII bytes, the codepoint straddles the first 32-byte chunk.
        let straddling = format!("{}{c}{}", "a".repeat(31), "b".repeat(40));
        let expected = (!in_charset(c)).then_some((31, c));
        assert_eq!(leafxml::first_invalid_char(&straddling), expected, "{c:?}");
    }
    let text = format!("{}\u{e9}\u{65e5}\u{1f600}\u{fdd0}x", "y".repeat(70));
    assert_eq!(
        leafxml::first_invalid_char(&text),
        Some((70 + 2 + 3 + 4, '\u{fdd0}'))
    );
    assert_eq!(leafxml::first_invalid_char("a\tb\r\nc\u{85}"), None);
}

#[test]
fn ascii_classes_agree_with_the_name_rules() {
    for b in 0..=0x7Fu8 {
        let c = char::from(b);
        assert_eq!(
            leafxml::is_ascii_name_byte(b),
            leafxml::is_name_char(c),
            "{c:?}"
        );
        assert_eq!(
            leafxml::is_ascii_name_start_byte(b),
            leafxml::is_name_start_char(c),
            "{c:?}"
        );
        assert_eq!(
            leafxml::is_ascii_name_byte(b),
            thicket_names::ascii::is(b, thicket_names::ascii::XML_NAME)
        );
        assert_eq!(
            leafxml::is_ascii_name_start_byte(b),
            thicket_names::ascii::is(b, thicket_names::ascii::XML_NAME_START)
        );
        assert_eq!(leafxml::is_whitespace_byte(b), leafxml::is_whitespace(c));
        assert_eq!(leafxml::WHITESPACE.contains(&b), leafxml::is_whitespace(c));
        assert_eq!(
            leafxml::COMPRESSED_WHITESPACE.contains(&b),
            leafxml::is_compressed_whitespace(c)
        );
    }
    for b in 0x80..=0xFFu8 {
        assert!(!leafxml::is_ascii_name_byte(b) && !leafxml::is_ascii_name_start_byte(b));
    }
}

/// Every stable starter is a starter with quick check "Yes".
#[test]
fn stable_starters() {
    for c in all_chars() {
        if leafxml::is_nfc_stable_starter(c as u32) {
            assert_eq!(canonical_combining_class(c), 0, "{c:?}");
            assert_eq!(is_nfc_quick(std::iter::once(c)), IsNormalized::Yes, "{c:?}");
        }
    }
    for c in "abc 日本語のテキスト、한국어 éà ＡＢ αβγ кириллица ═║ ⠁⠑ ა".chars()
    {
        assert!(leafxml::is_nfc_stable_starter(c as u32), "{c:?}");
    }
    for c in ['\u{3099}', '\u{301}', '\u{1f71}'] {
        assert!(!leafxml::is_nfc_stable_starter(c as u32), "{c:?}");
    }
}
