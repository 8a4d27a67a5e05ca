//! The WHATWG encoding sniffing algorithm, step by step (WHATWG HTML §12.2.3.2).

use std::borrow::Cow;

use thicket_input::whatwg::{
    Confidence, PRESCAN_LIMIT, decode, extract_meta_charset, prescan, prescan_all, sniff,
    sniff_with_default,
};

fn name(bytes: &[u8]) -> Option<&'static str> {
    prescan(bytes).map(|e| e.name())
}

fn content(s: &str) -> Option<&'static str> {
    extract_meta_charset(s.as_bytes()).map(|e| e.name())
}

// Step: BOM sniff (the Encoding Standard's decode lets a BOM override the rest).

#[test]
fn bom_overrides_transport_label_and_meta() {
    let s = sniff(b"\xEF\xBB\xBF<meta charset=koi8-r>", Some("windows-1251"));
    assert_eq!(
        (s.encoding.name(), s.confidence, s.bom_len),
        ("UTF-8", Confidence::Certain, 3)
    );
    let s = sniff(b"\xFF\xFE<\0", Some("utf-8"));
    assert_eq!((s.encoding.name(), s.bom_len), ("UTF-16LE", 2));
    let s = sniff(b"\xFE\xFF\0<", None);
    assert_eq!(
        (s.encoding.name(), s.confidence, s.bom_len),
        ("UTF-16BE", Confidence::Certain, 2)
    );
}

// Step: the transport layer's encoding, "if it is supported".

#[test]
fn supported_transport_label_is_certain() {
    let s = sniff(b"<meta charset=koi8-r>", Some("  Latin1 "));
    assert_eq!(
        (s.encoding.name(), s.confidence, s.bom_len),
        ("windows-1252", Confidence::Certain, 0)
    );
    // The UTF-16 and x-user-defined rewrites belong to the prescan, not to the transport layer.
    assert_eq!(sniff(b"", Some("utf-16")).encoding.name(), "UTF-16LE");
    assert_eq!(
        sniff(b"", Some("x-user-defined")).encoding.name(),
        "x-user-defined"
    );
}

#[test]
fn unsupported_transport_label_is_ignored() {
    let s = sniff(b"<meta charset=koi8-r>", Some("utf-7"));
    assert_eq!(
        (s.encoding.name(), s.confidence),
        ("KOI8-R", Confidence::Tentative)
    );
    let s = sniff(b"", Some(""));
    assert_eq!(
        (s.encoding.name(), s.confidence),
        ("windows-1252", Confidence::Tentative)
    );
}

// Step: the default.

#[test]
fn default_is_windows_1252_or_chosen_one() {
    let s = sniff(b"<p>caf\xC3\xA9", None);
    assert_eq!(
        (s.encoding.name(), s.confidence, s.bom_len),
        ("windows-1252", Confidence::Tentative, 0)
    );
    let s = sniff_with_default(b"<p>", None, encoding_rs::UTF_8);
    assert_eq!(
        (s.encoding.name(), s.confidence),
        ("UTF-8", Confidence::Tentative)
    );
}

// The prescan: the <meta> branch.

#[test]
fn meta_charset_attribute() {
    assert_eq!(name(b"<meta charset=utf-8>"), Some("UTF-8"));
    assert_eq!(name(b"<META CHARSET=KOI8-R>"), Some("KOI8-R"));
    assert_eq!(name(b"<meta charset='koi8-r'>"), Some("KOI8-R"));
    assert_eq!(name(b"<meta charset = \"koi8-r\" >"), Some("KOI8-R"));
    assert_eq!(name(b"<meta/charset=koi8-r>"), Some("KOI8-R"));
    // "/" is part of an unquoted value, so the label is "koi8-r/", which is unknown.
    assert_eq!(name(b"<meta\tcharset=koi8-r/>"), None);
    assert_eq!(name(b"<meta\tcharset=koi8-r />"), Some("KOI8-R"));
    assert_eq!(name(b"<meta\ncharset=\" koi8-r \">"), Some("KOI8-R")); // labels are trimmed
    assert_eq!(name(b"<meta name=x charset=koi8-r>"), Some("KOI8-R"));
    assert_eq!(name(b"<html><head><meta charset=koi8-r>"), Some("KOI8-R"));
}

#[test]
fn meta_charset_with_unknown_label_is_skipped() {
    assert_eq!(name(b"<meta charset=bogus>"), None);
    assert_eq!(
        name(b"<meta charset=bogus><meta charset=koi8-r>"),
        Some("KOI8-R")
    );
    assert_eq!(name(b"<meta charset>"), None);
}

#[test]
fn meta_requires_space_or_slash_after_the_name() {
    assert_eq!(name(b"<metacharset=koi8-r>"), None);
    assert_eq!(name(b"<meta>"), None);
    assert_eq!(name(b"<meta-x charset=koi8-r>"), None);
}

#[test]
fn meta_content_needs_the_pragma() {
    let with = |s: &str| name(s.as_bytes());
    assert_eq!(
        with(r#"<meta http-equiv="Content-Type" content="text/html; charset=koi8-r">"#),
        Some("KOI8-R")
    );
    // Either order.
    assert_eq!(
        with(r#"<meta content="text/html; charset=koi8-r" http-equiv="content-type">"#),
        Some("KOI8-R")
    );
    // No pragma, or another pragma: nothing.
    assert_eq!(with(r#"<meta content="text/html; charset=koi8-r">"#), None);
    assert_eq!(
        with(r#"<meta http-equiv="refresh" content="text/html; charset=koi8-r">"#),
        None
    );
    // A content value without a charset: need pragma stays null.
    assert_eq!(
        with(r#"<meta http-equiv="content-type" content="text/html">"#),
        None
    );
}

#[test]
fn meta_charset_attribute_beats_content() {
    // charset after content: charset wins and no pragma is needed.
    assert_eq!(
        name(b"<meta content='charset=koi8-r' charset=iso-8859-2>"),
        Some("ISO-8859-2")
    );
    // charset before content: content does not override a non-null charset.
    assert_eq!(
        name(b"<meta charset=iso-8859-2 http-equiv=content-type content='charset=koi8-r'>"),
        Some("ISO-8859-2")
    );
    // A failed charset is not null either, so content is ignored and the meta gives nothing.
    assert_eq!(
        name(b"<meta charset=bogus http-equiv=content-type content='charset=koi8-r'>"),
        None
    );
    // A failed charset after content overrides it with failure.
    assert_eq!(
        name(b"<meta http-equiv=content-type content='charset=koi8-r' charset=bogus>"),
        None
    );
}

#[test]
fn repeated_attributes_keep_the_first() {
    assert_eq!(name(b"<meta charset=bogus charset=koi8-r>"), None);
    assert_eq!(name(b"<meta charset=koi8-r charset=bogus>"), Some("KOI8-R"));
    assert_eq!(
        name(b"<meta http-equiv=refresh http-equiv=content-type content='charset=koi8-r'>"),
        None
    );
}

#[test]
fn utf16_and_x_user_defined_are_rewritten() {
    assert_eq!(name(b"<meta charset=utf-16>"), Some("UTF-8"));
    assert_eq!(name(b"<meta charset=utf-16be>"), Some("UTF-8"));
    assert_eq!(name(b"<meta charset=utf-16le>"), Some("UTF-8"));
    assert_eq!(
        name(b"<meta http-equiv=content-type content='charset=utf-16'>"),
        Some("UTF-8")
    );
    assert_eq!(name(b"<meta charset=x-user-defined>"), Some("windows-1252"));
    // The replacement encoding is returned as it is.
    assert_eq!(name(b"<meta charset=iso-2022-kr>"), Some("replacement"));
}

// The prescan: the other branches of "loop".

#[test]
fn comments_are_skipped() {
    assert_eq!(
        name(b"<!-- <meta charset=koi8-r> --><meta charset=utf-8>"),
        Some("UTF-8")
    );
    // "<!-->" and "<!--->" are whole comments: the dashes of "<!--" count.
    assert_eq!(name(b"<!--><meta charset=koi8-r>"), Some("KOI8-R"));
    assert_eq!(name(b"<!---><meta charset=koi8-r>"), Some("KOI8-R"));
    // A ">" not preceded by "--" does not end the comment.
    assert_eq!(name(b"<!-- > <meta charset=koi8-r> -->"), None);
    // An unterminated comment runs out of bytes.
    assert_eq!(name(b"<!-- <meta charset=koi8-r>"), None);
}

#[test]
fn other_tags_have_their_attributes_skipped() {
    // The meta inside an attribute value is not seen.
    assert_eq!(name(b"<a title='<meta charset=koi8-r>'>"), None);
    assert_eq!(
        name(b"<a title='x>y'><meta charset=koi8-r>"),
        Some("KOI8-R")
    );
    assert_eq!(name(b"<div\ttitle=\"<meta charset=koi8-r>\">"), None);
    // End tags too.
    assert_eq!(name(b"</p title='<meta charset=koi8-r>'>"), None);
    assert_eq!(name(b"</p><meta charset=koi8-r>"), Some("KOI8-R"));
    // A tag that runs to the end of the bytes.
    assert_eq!(name(b"<a"), None);
}

#[test]
fn bang_slash_and_question_mark_skip_to_the_next_gt() {
    assert_eq!(
        name(b"<!DOCTYPE html><meta charset=koi8-r>"),
        Some("KOI8-R")
    );
    assert_eq!(name(b"<! <meta charset=koi8-r>"), None);
    assert_eq!(name(b"<?php <meta charset=koi8-r>"), None);
    assert_eq!(name(b"</ <meta charset=koi8-r>"), None);
    assert_eq!(
        name(b"<?xml version='1.0'?><meta charset=koi8-r>"),
        Some("KOI8-R")
    );
    assert_eq!(name(b"<!DOCTYPE html"), None);
}

#[test]
fn other_bytes_are_ignored() {
    assert_eq!(name(b"a < b <3 <meta charset=koi8-r>"), Some("KOI8-R"));
    assert_eq!(name(b"\xFF\xFE<meta charset=koi8-r>"), Some("KOI8-R")); // prescan alone: no BOM step
    assert_eq!(name(b""), None);
    assert_eq!(name(b"plain text"), None);
}

// The prescan: "get an attribute".

#[test]
fn get_an_attribute_edge_cases() {
    // An "=" at the start of a name is part of the name.
    assert_eq!(name(b"<meta =charset=koi8-r>"), None);
    // A name ends at "/" or ">" with an empty value.
    assert_eq!(name(b"<meta charset/=koi8-r>"), None);
    // Spaces before "=" are allowed; another name after spaces is a new attribute.
    assert_eq!(name(b"<meta charset  \n= koi8-r>"), Some("KOI8-R"));
    assert_eq!(name(b"<meta charset koi8-r>"), None);
    // ">" right after "=" gives an empty value.
    assert_eq!(
        name(b"<meta charset=><meta charset=koi8-r>"),
        Some("KOI8-R")
    );
    // An unquoted value ends at whitespace or ">".
    assert_eq!(name(b"<meta charset=koi8-r\"x>"), None);
    // Running out of bytes anywhere aborts the whole prescan.
    assert_eq!(name(b"<meta charset=utf-8"), None);
    assert_eq!(name(b"<meta charset='utf-8'"), None);
    assert_eq!(name(b"<meta charset='utf-8>"), None);
    assert_eq!(name(b"<meta charset="), None);
    assert_eq!(name(b"<meta "), None);
}

#[test]
fn prescan_looks_at_the_first_1024_bytes() {
    let mut doc = vec![b' '; PRESCAN_LIMIT - 21];
    doc.extend_from_slice(b"<meta charset=koi8-r>");
    assert_eq!(doc.len(), PRESCAN_LIMIT);
    assert_eq!(name(&doc), Some("KOI8-R"));
    // One more byte of padding and the tag crosses the end: the prescan runs out of bytes.
    doc.insert(0, b' ');
    assert_eq!(name(&doc), None);
    assert_eq!(prescan_all(&doc).map(|e| e.name()), Some("KOI8-R"));
    assert_eq!(sniff(&doc, None).encoding.name(), "windows-1252");
}

// "Extracting a character encoding from a meta element".

#[test]
fn extracting_from_content() {
    assert_eq!(content("text/html; charset=utf-8"), Some("UTF-8"));
    assert_eq!(content("text/html;charset=koi8-r;x=y"), Some("KOI8-R"));
    assert_eq!(content("charset = koi8-r"), Some("KOI8-R"));
    assert_eq!(content("CHARSET=KOI8-R"), Some("KOI8-R"));
    assert_eq!(content("charset=\"koi8-r\" trailing"), Some("KOI8-R"));
    assert_eq!(content("charset='koi8-r'"), Some("KOI8-R"));
    assert_eq!(content("charset=' koi8-r '"), Some("KOI8-R"));
    // "charset" not followed by "=": keep looking after it.
    assert_eq!(content("charsetcharset=koi8-r"), Some("KOI8-R"));
    assert_eq!(content("charset; charset=koi8-r"), Some("KOI8-R"));
    // Nothing usable.
    assert_eq!(content("text/html"), None);
    assert_eq!(content("charset="), None);
    assert_eq!(content("charset=  "), None);
    assert_eq!(content("charset=\"koi8-r"), None);
    assert_eq!(content("charset='koi8-r"), None);
    assert_eq!(content("charset=bogus"), None);
    assert_eq!(content("charset=;koi8-r"), None);
}

// decode(): sniff, then the Encoding Standard's decode.

#[test]
fn decode_removes_the_bom_and_reports_errors() {
    let (t, e, had_errors) = decode(b"\xEF\xBB\xBF<p>\xC3\xA9", Some("windows-1252"));
    assert_eq!((&*t, e.name(), had_errors), ("<p>\u{e9}", "UTF-8", false));
    assert!(matches!(t, Cow::Borrowed(_)));
    let (t, e, had_errors) = decode(b"\xFE\xFF\0<\xD8\x00", None);
    assert_eq!((&*t, e.name(), had_errors), ("<\u{FFFD}", "UTF-16BE", true));
    let (t, e, had_errors) = decode(b"<p>\x80", None);
    assert_eq!(
        (&*t, e.name(), had_errors),
        ("<p>\u{20AC}", "windows-1252", false)
    );
    let (t, e, had_errors) = decode(b"<p>\xFF", Some("utf-8"));
    assert_eq!((&*t, e.name(), had_errors), ("<p>\u{FFFD}", "UTF-8", true));
}

mod properties {
    use proptest::prelude::*;
    use thicket_input::whatwg::{Confidence, prescan, prescan_all, sniff};

    /// Markup-heavy bytes, so that the prescan reaches every branch.
    fn markup() -> impl Strategy<Value = Vec<u8>> {
        prop::collection::vec(
            prop::sample::select(vec![
                &b"<"[..],
                &b">"[..],
                &b"<meta "[..],
                &b"<META/"[..],
                &b"<!--"[..],
                &b"-->"[..],
                &b"<!"[..],
                &b"</"[..],
                &b"<?"[..],
                &b"<a "[..],
                &b"charset"[..],
                &b"="[..],
                &b"koi8-r"[..],
                &b"utf-16"[..],
                &b"http-equiv=content-type"[..],
                &b"content="[..],
                &b"'"[..],
                &b" "[..],
                &b"/"[..],
                &b";"[..],
                &b"\xFF"[..],
            ]),
            0..40,
        )
        .prop_map(|v| v.concat())
    }

    proptest! {
        #[test]
        fn prescan_is_total_and_never_returns_utf16(bytes in markup()) {
            if let Some(e) = prescan_all(&bytes) {
                prop_assert!(e != encoding_rs::UTF_16LE && e != encoding_rs::UTF_16BE);
                prop_assert!(e != encoding_rs::X_USER_DEFINED);
            }
            let s = sniff(&bytes, None);
            prop_assert_eq!(s.confidence == Confidence::Certain, s.bom_len > 0);
        }

        #[test]
        fn more_bytes_after_a_result_do_not_change_it(bytes in markup(), more in markup()) {
            // The prescan reads left to right and stops at the first answer.
            if let Some(e) = prescan(&bytes) {
                let mut longer = bytes.clone();
                longer.extend_from_slice(&more);
                prop_assert_eq!(prescan(&longer), Some(e));
            }
        }
    }
}

#[test]
fn changing_the_encoding_while_parsing() {
    use encoding_rs::{SHIFT_JIS, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252, X_USER_DEFINED};
    use thicket_input::whatwg::{EncodingChange, change_encoding};
    // Step 1: UTF-16 stays.
    assert_eq!(change_encoding(UTF_16BE, SHIFT_JIS), EncodingChange::Keep);
    assert_eq!(change_encoding(UTF_16LE, UTF_8), EncodingChange::Keep);
    // Steps 2 and 3: rewrites of the new encoding.
    assert_eq!(
        change_encoding(WINDOWS_1252, UTF_16BE),
        EncodingChange::Reparse(UTF_8)
    );
    assert_eq!(change_encoding(UTF_8, UTF_16LE), EncodingChange::Keep);
    assert_eq!(
        change_encoding(WINDOWS_1252, X_USER_DEFINED),
        EncodingChange::Keep
    );
    assert_eq!(
        change_encoding(UTF_8, X_USER_DEFINED),
        EncodingChange::Reparse(WINDOWS_1252)
    );
    // Step 4 and the last step.
    assert_eq!(change_encoding(SHIFT_JIS, SHIFT_JIS), EncodingChange::Keep);
    assert_eq!(
        change_encoding(WINDOWS_1252, SHIFT_JIS),
        EncodingChange::Reparse(SHIFT_JIS)
    );
}

#[test]
fn many_attributes_stay_linear() {
    // 200,000 repeated attributes: a quadratic attribute list would not finish.
    let mut doc = b"<meta".to_vec();
    for _ in 0..200_000 {
        doc.extend_from_slice(b" a=b");
    }
    doc.extend_from_slice(b" charset=koi8-r>");
    assert_eq!(prescan_all(&doc).map(|e| e.name()), Some("KOI8-R"));
    let mut doc = b"<meta".to_vec();
    for _ in 0..200_000 {
        doc.extend_from_slice(b" charset=bogus");
    }
    doc.extend_from_slice(b">");
    assert_eq!(prescan_all(&doc), None);
}

#[test]
fn quotes_outside_values_are_name_characters() {
    // A quote where a name starts is part of the name; the charset after it still counts.
    assert_eq!(name(b"<meta \" charset=koi8-r>"), Some("KOI8-R"));
    assert_eq!(name(b"<meta test\" charset=koi8-r>"), Some("KOI8-R"));
    assert_eq!(name(b"<meta test=x\" charset=koi8-r>"), Some("KOI8-R"));
    assert_eq!(name(b"<meta test=\"\" charset=koi8-r>"), Some("KOI8-R"));
    // A quote that opens a value swallows everything up to the next quote of the same kind.
    assert_eq!(name(b"<meta test=\" charset=koi8-r>\n<p>\"</p>"), None);
    assert_eq!(name(b"<meta test='\" charset=koi8-r>\n<p>'\"</p>"), None);
    // Likewise in another tag: the meta inside the value is never seen.
    assert_eq!(
        name(b"<p title=\"x>\n<meta test=x\" charset=koi8-r>\n<p>\"</p>"),
        None
    );
    assert_eq!(
        name(b"<p title=\"x>\">\n<meta charset=koi8-r>"),
        Some("KOI8-R")
    );
    // An unquoted content value ends at the space, and what follows is a charset attribute.
    assert_eq!(
        name(b"<meta http-equiv=\"Content-Type\" content=text/html; charset=koi8-r>"),
        Some("KOI8-R")
    );
    // The pragma must be exactly content-type (after lowercasing).
    assert_eq!(
        name(b"<meta http-equiv=\"Content-Type \" content=\"charset=koi8-r\">"),
        None
    );
    // The first meta with an encoding wins.
    assert_eq!(
        name(b"<meta charset=\"ISO-8859-1\">\n<meta charset=\"koi8-r\">"),
        Some("windows-1252")
    );
}

/// Bytes other than `<` are passed in one search: text, a lone `<` or `< a` before the meta,
/// and a meta right at the start or at the end of the prescanned bytes, are read as before.
#[test]
fn prescan_passes_text_between_tags() {
    let text = "x\u{e9}y ".repeat(150);
    let doc = format!("{text}< a <3 <meta charset=koi8-r>");
    assert_eq!(name(doc.as_bytes()), Some("KOI8-R"));
    assert_eq!(name(b"<meta charset=koi8-r>"), Some("KOI8-R"));
    assert_eq!(name(text.as_bytes()), None);
    assert_eq!(name(b"abc<"), None);
    assert_eq!(name(b"abc<!-- <meta charset=koi8-r> -->def"), None);
}
