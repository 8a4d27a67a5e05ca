//! Every `char` against a plain reading of each spec's ranges.

use thicket_names::{html, leafxml, microxml, microxml2012, xml10};

fn in_ranges(c: char, ranges: &[(u32, u32)]) -> bool {
    let c = c as u32;
    ranges.iter().any(|&(lo, hi)| lo <= c && c <= hi)
}

fn all_chars() -> impl Iterator<Item = char> {
    (0..=0x10FFFFu32).filter_map(char::from_u32)
}

#[test]
fn xml10_matches_the_productions() {
    let start: &[(u32, u32)] = &[
        (':' as u32, ':' as u32),
        ('A' as u32, 'Z' as u32),
        ('_' as u32, '_' as u32),
        ('a' as u32, 'z' as u32),
        (0xC0, 0xD6),
        (0xD8, 0xF6),
        (0xF8, 0x2FF),
        (0x370, 0x37D),
        (0x37F, 0x1FFF),
        (0x200C, 0x200D),
        (0x2070, 0x218F),
        (0x2C00, 0x2FEF),
        (0x3001, 0xD7FF),
        (0xF900, 0xFDCF),
        (0xFDF0, 0xFFFD),
        (0x10000, 0xEFFFF),
    ];
    let extra: &[(u32, u32)] = &[
        ('-' as u32, '-' as u32),
        ('.' as u32, '.' as u32),
        ('0' as u32, '9' as u32),
        (0xB7, 0xB7),
        (0x300, 0x36F),
        (0x203F, 0x2040),
    ];
    for c in all_chars() {
        let s = in_ranges(c, start);
        assert_eq!(xml10::is_name_start_char(c), s, "{c:?}");
        assert_eq!(xml10::is_name_char(c), s || in_ranges(c, extra), "{c:?}");
    }
}

#[test]
fn xml10_names_are_a_start_char_then_name_chars() {
    // Every pair of characters from ASCII and a few others (the ASCII fast path and the
    // characters after it agree).
    let mut chars: Vec<char> = (0u8..128).map(char::from).collect();
    chars.extend([
        '\u{B7}',
        '\u{C0}',
        '\u{D7}',
        '\u{300}',
        '\u{203F}',
        '\u{FFFE}',
        '\u{10000}',
    ]);
    let by_chars = |s: &str| {
        let mut it = s.chars();
        it.next().is_some_and(xml10::is_name_start_char) && it.all(xml10::is_name_char)
    };
    assert!(!xml10::is_name(""));
    for &a in &chars {
        let one = a.to_string();
        assert_eq!(xml10::is_name(&one), by_chars(&one), "{one:?}");
        for &b in &chars {
            let two = format!("{a}{b}x");
            assert_eq!(xml10::is_name(&two), by_chars(&two), "{two:?}");
        }
    }
}

#[test]
fn leafxml_matches_the_list() {
    let list: &[(u32, u32)] = &[
        (0x2D, 0x2D),
        (0x2E, 0x2E),
        (0x30, 0x39),
        (0x3A, 0x3A),
        (0x5F, 0x5F),
        (0x41, 0x5A),
        (0x61, 0x7A),
        (0xB7, 0xB7),
        (0xC0, 0x1FFF),
        (0x200C, 0x200C),
        (0x200D, 0x200D),
        (0x203F, 0x203F),
        (0x2040, 0x2040),
        (0x2070, 0x218F),
        (0x2C00, 0x2FEF),
        (0x3001, 0xD7FF),
        (0xF900, 0xFDCF),
        (0xFDF0, 0xEFFFD),
    ];
    let not_first: &[(u32, u32)] = &[
        (0x2D, 0x2D),
        (0x2E, 0x2E),
        (0x30, 0x39),
        (0xB7, 0xB7),
        (0x300, 0x36F),
        (0x203F, 0x2040),
    ];
    for c in all_chars() {
        let cp = c as u32;
        let excluded = matches!(cp, 0xD7 | 0xF7 | 0x37E) || (cp & 0xFFFF) >= 0xFFFE;
        let any = in_ranges(c, list) && !excluded;
        assert_eq!(leafxml::is_name_char(c), any, "{c:?}");
        assert_eq!(
            leafxml::is_name_start_char(c),
            any && !in_ranges(c, not_first),
            "{c:?}"
        );
    }
    assert!(leafxml::is_prefix("svg"));
    assert!(!leafxml::is_prefix("a:b"));
    assert!(!leafxml::is_name(""));
}

#[test]
fn microxml_matches_the_grammar() {
    for c in all_chars() {
        let start = c.is_ascii_alphabetic() || "_:$".contains(c) || c as u32 >= 0x80;
        assert_eq!(microxml::is_name_start_char(c), start, "{c:?}");
        let name = start || c.is_ascii_digit() || c == '-' || c == '.';
        assert_eq!(microxml::is_name_char(c), name, "{c:?}");
        assert_eq!(
            microxml::is_s(c),
            matches!(c as u32, 0x9 | 0xA | 0xC | 0x20),
            "{c:?}"
        );
    }
}

#[test]
fn microxml2012_matches_the_grammar() {
    // The 2012 MicroXML grammar's productions, as written there.
    let start: &[(u32, u32)] = &[
        ('A' as u32, 'Z' as u32),
        ('a' as u32, 'z' as u32),
        ('_' as u32, '_' as u32),
        (0xC0, 0xD6),
        (0xD8, 0xF6),
        (0xF8, 0x2FF),
        (0x370, 0x37D),
        (0x37F, 0x1FFF),
        (0x200C, 0x200D),
        (0x2070, 0x218F),
        (0x2C00, 0x2FEF),
        (0x3001, 0xD7FF),
        (0xF900, 0xFDCF),
        (0xFDF0, 0xFFFD),
        (0x10000, 0xEFFFF),
    ];
    let extra: &[(u32, u32)] = &[
        ('0' as u32, '9' as u32),
        ('-' as u32, '-' as u32),
        ('.' as u32, '.' as u32),
        (0xB7, 0xB7),
        (0x300, 0x36F),
        (0x203F, 0x2040),
    ];
    for c in all_chars() {
        let s = in_ranges(c, start);
        assert_eq!(microxml2012::is_name_start_char(c), s, "{c:?}");
        assert_eq!(
            microxml2012::is_name_char(c),
            s || in_ranges(c, extra),
            "{c:?}"
        );
        let cp = c as u32;
        let forbidden = (cp < 0x20 && !matches!(cp, 0x9 | 0xA | 0xD))
            || (0x7F..=0x9F).contains(&cp)
            || (0xFDD0..=0xFDEF).contains(&cp)
            || (cp & 0xFFFF) >= 0xFFFE;
        assert_eq!(microxml2012::is_forbidden_char(c), forbidden, "{c:?}");
    }
}

#[test]
fn html_ascii_classes() {
    for b in 0..=255u8 {
        assert_eq!(html::is_ascii_alpha(b), b.is_ascii_alphabetic(), "{b}");
        assert_eq!(html::is_ascii_digit(b), b.is_ascii_digit(), "{b}");
        assert_eq!(
            html::is_ascii_alphanumeric(b),
            b.is_ascii_alphanumeric(),
            "{b}"
        );
        assert_eq!(html::is_ascii_hex_digit(b), b.is_ascii_hexdigit(), "{b}");
        assert_eq!(
            html::is_ascii_whitespace(b),
            matches!(b, 0x09 | 0x0A | 0x0C | 0x0D | 0x20),
            "{b}"
        );
    }
}

#[test]
fn html_byte_lists_and_char_forms() {
    for b in 0..=255u8 {
        assert_eq!(
            html::ASCII_WHITESPACE.contains(&b),
            html::is_ascii_whitespace(b),
            "{b}"
        );
        assert_eq!(
            html::ASCII_UPPER_ALPHA.contains(&b),
            html::is_ascii_upper_alpha(b),
            "{b}"
        );
        assert_eq!(html::is_ascii_upper_alpha(b), b.is_ascii_uppercase());
        assert_eq!(html::is_ascii_lower_alpha(b), b.is_ascii_lowercase());
        assert_eq!(
            html::is_processing_instruction_target_byte(b),
            b.is_ascii_alphanumeric() || b == b'-' || b == b'_'
        );
    }
    for c in all_chars() {
        let ascii = |f: fn(u8) -> bool| c.is_ascii() && f(c as u8);
        assert_eq!(html::is_ascii_alpha_char(c), ascii(html::is_ascii_alpha));
        assert_eq!(
            html::is_ascii_upper_alpha_char(c),
            ascii(html::is_ascii_upper_alpha)
        );
        assert_eq!(
            html::is_ascii_alphanumeric_char(c),
            ascii(html::is_ascii_alphanumeric)
        );
        assert_eq!(html::is_ascii_digit_char(c), ascii(html::is_ascii_digit));
        assert_eq!(
            html::is_ascii_hex_digit_char(c),
            ascii(html::is_ascii_hex_digit)
        );
        assert_eq!(
            html::is_ascii_whitespace_char(c),
            ascii(html::is_ascii_whitespace)
        );
    }
}

/// Every character the HTML input stream reports (a control other than ASCII whitespace and
/// NULL, or a noncharacter) starts with a byte of the prefilter; no ASCII byte outside them is in
/// it.
#[test]
fn html_input_stream_prefilter_covers_every_reported_character() {
    for c in all_chars() {
        let code = c as u32;
        let control = code <= 0x1F || (0x7F..=0x9F).contains(&code);
        let noncharacter = (0xFDD0..=0xFDEF).contains(&code) || code & 0xFFFE == 0xFFFE;
        let reported =
            (control && !matches!(c, '\0' | '\t' | '\n' | '\x0C' | '\r')) || noncharacter;
        let mut buf = [0u8; 4];
        let lead = c.encode_utf8(&mut buf).as_bytes()[0];
        if reported {
            assert!(html::may_start_input_stream_error(lead), "{c:?}");
        } else if c.is_ascii() {
            assert!(!html::may_start_input_stream_error(lead), "{c:?}");
        }
    }
}
