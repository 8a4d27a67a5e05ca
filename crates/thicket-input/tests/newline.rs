//! Newline normalization: each rule, and chunk invariance.

use std::borrow::Cow;

use proptest::prelude::*;
use thicket_input::newline::normalize;
use thicket_input::{NewlineNormalizer, NewlineRules, normalize_crlf, normalize_leafxml};

#[test]
fn crlf_rules() {
    assert_eq!(normalize_crlf("a\r\nb"), "a\nb");
    assert_eq!(normalize_crlf("a\rb"), "a\nb");
    assert_eq!(normalize_crlf("a\r\r\nb"), "a\n\nb");
    assert_eq!(normalize_crlf("a\n\rb"), "a\n\nb");
    assert_eq!(normalize_crlf("\r"), "\n");
    assert_eq!(normalize_crlf("\r\n\r\n"), "\n\n");
    // NEL and LS are not line breaks here.
    assert_eq!(normalize_crlf("a\r\u{85}b\u{2028}"), "a\n\u{85}b\u{2028}");
    assert!(matches!(normalize_crlf("a\nb\u{85}"), Cow::Borrowed(_)));
    assert!(matches!(normalize_crlf(""), Cow::Borrowed("")));
}

#[test]
fn leafxml_rules_longest_match_first() {
    assert_eq!(normalize_leafxml("a\r\nb"), "a\nb");
    assert_eq!(normalize_leafxml("a\r\u{85}b"), "a\nb");
    assert_eq!(normalize_leafxml("a\u{85}b"), "a\nb");
    assert_eq!(normalize_leafxml("a\u{2028}b"), "a\nb");
    assert_eq!(normalize_leafxml("a\rb"), "a\nb");
    // CR LS is two breaks: LS does not pair with CR.
    assert_eq!(normalize_leafxml("a\r\u{2028}b"), "a\n\nb");
    assert_eq!(normalize_leafxml("\r\r\u{85}\u{85}\r"), "\n\n\n\n");
    // U+2029 (paragraph separator) and other C2/E2 characters are left alone.
    let s = "\u{a0}\u{e9}\u{2029}\u{2027}\u{20ac}\u{c2}";
    assert!(matches!(normalize_leafxml(s), Cow::Borrowed(_)));
    assert_eq!(
        normalize_leafxml("\u{2029}\u{2028}\u{a0}"),
        "\u{2029}\n\u{a0}"
    );
}

#[test]
fn normalizer_holds_the_cr_across_chunks() {
    for rules in [NewlineRules::CrLf, NewlineRules::LeafXml] {
        let mut n = NewlineNormalizer::new(rules);
        let mut out = String::new();
        n.feed("a\r", &mut out);
        assert!(n.after_cr());
        n.feed("", &mut out);
        assert!(n.after_cr());
        n.feed("\n", &mut out);
        assert!(!n.after_cr());
        n.feed("\n", &mut out);
        n.finish(&mut out);
        assert_eq!(out, "a\n\n");
    }
    let mut n = NewlineNormalizer::new(NewlineRules::LeafXml);
    let mut out = String::new();
    n.feed("\r", &mut out);
    n.feed("\u{85}x\r", &mut out);
    n.finish(&mut out);
    // finish forgets the CR: a new text starts.
    n.feed("\nb", &mut out);
    assert_eq!(out, "\nx\n\nb");
    let mut n = NewlineNormalizer::new(NewlineRules::CrLf);
    let mut out = String::new();
    n.feed("\r", &mut out);
    n.feed("\u{85}", &mut out);
    assert_eq!(out, "\n\u{85}");
}

/// Character-by-character reference for both rule sets.
fn reference(s: &str, rules: NewlineRules) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        match (c, rules) {
            ('\r', NewlineRules::CrLf) => {
                out.push('\n');
                i += if next == Some('\n') { 2 } else { 1 };
            }
            ('\r', NewlineRules::LeafXml) => {
                out.push('\n');
                i += if next == Some('\n') || next == Some('\u{85}') {
                    2
                } else {
                    1
                };
            }
            ('\u{85}' | '\u{2028}', NewlineRules::LeafXml) => {
                out.push('\n');
                i += 1;
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            Just("\r"),
            Just("\n"),
            Just("\u{85}"),
            Just("\u{2028}"),
            Just("\u{2029}"),
            Just("\u{a0}"),
            Just("a"),
            Just("\u{20ac}"),
        ],
        0..20,
    )
    .prop_map(|v| v.concat())
}

fn rules() -> impl Strategy<Value = NewlineRules> {
    prop_oneof![Just(NewlineRules::CrLf), Just(NewlineRules::LeafXml)]
}

proptest! {
    #[test]
    fn whole_string_matches_reference(s in text(), rules in rules()) {
        let got = normalize(&s, rules);
        prop_assert_eq!(got.as_ref(), reference(&s, rules));
        if got.as_ref() == s {
            prop_assert!(matches!(got, Cow::Borrowed(_)));
        }
    }

    #[test]
    fn any_chunking_matches_whole(s in text(), rules in rules(), cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..6)) {
        let boundaries: Vec<usize> = (0..=s.len()).filter(|&i| s.is_char_boundary(i)).collect();
        let mut cuts: Vec<usize> = cuts.iter().map(|c| boundaries[c.index(boundaries.len())]).collect();
        cuts.sort_unstable();
        let mut n = NewlineNormalizer::new(rules);
        let mut out = String::new();
        let mut start = 0;
        for cut in cuts.into_iter().chain([s.len()]) {
            n.feed(&s[start..cut], &mut out);
            start = cut;
        }
        n.finish(&mut out);
        prop_assert_eq!(out, normalize(&s, rules).into_owned());
    }

    #[test]
    fn line_index_agrees_with_normalization(s in text(), rules in rules()) {
        // Each line break becomes one LF, so the normalized text has one line per LF.
        let lines = normalize(&s, rules).matches('\n').count() + 1;
        prop_assert_eq!(thicket_input::LineIndex::with_rules(&s, rules).line_count(), lines);
    }

    #[test]
    fn char_by_char_matches_whole(s in text(), rules in rules()) {
        let mut n = NewlineNormalizer::new(rules);
        let mut out = String::new();
        let mut buf = [0u8; 4];
        for c in s.chars() {
            n.feed(c.encode_utf8(&mut buf), &mut out);
        }
        n.finish(&mut out);
        prop_assert_eq!(out, normalize(&s, rules).into_owned());
    }
}
