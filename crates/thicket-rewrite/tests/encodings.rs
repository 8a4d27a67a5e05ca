//! Bytes in, bytes out in legacy encodings (docs/rewrite.md, "Encodings") and text inserted
//! into raw text ("Inserting into raw text").
#![cfg(all(feature = "html", feature = "xml5"))]

mod common;

use common::corpus;
use encoding_rs::{BIG5, EUC_JP, EUC_KR, Encoding, GB18030, GBK, SHIFT_JIS, WINDOWS_1252};
use thicket_rewrite::{ContentType, Dialect, Error, Rewriter, Settings};

/// Rewrites `bytes` fed in `chunk`-byte pieces (0: whole) with the settings `make` builds.
fn rewrite(
    dialect: Dialect,
    make: &dyn Fn() -> Settings<'static>,
    bytes: &[u8],
    chunk: usize,
) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    let mut r = Rewriter::new(dialect, make(), |b: &[u8]| out.extend_from_slice(b));
    let step = if chunk == 0 {
        bytes.len().max(1)
    } else {
        chunk
    };
    for piece in bytes.chunks(step) {
        r.feed(piece)?;
    }
    let _sink = r.finish()?;
    Ok(out)
}

/// The same output whole, byte by byte and at every split in two.
fn every_split(dialect: Dialect, make: &dyn Fn() -> Settings<'static>, bytes: &[u8]) -> Vec<u8> {
    let whole = rewrite(dialect, make, bytes, 0).unwrap();
    assert_eq!(
        rewrite(dialect, make, bytes, 1).unwrap(),
        whole,
        "byte by byte"
    );
    for cut in 0..=bytes.len() {
        let mut out = Vec::new();
        let mut r = Rewriter::new(dialect, make(), |b: &[u8]| out.extend_from_slice(b));
        r.feed(&bytes[..cut]).unwrap();
        r.feed(&bytes[cut..]).unwrap();
        let _sink = r.finish().unwrap();
        assert_eq!(out, whole, "split at {cut}");
    }
    whole
}

fn encode(encoding: &'static Encoding, text: &str) -> Vec<u8> {
    encoding.encode(text).0.into_owned()
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// Handlers that set an attribute, insert text and rename, with characters many encodings lack.
fn edits() -> Settings<'static> {
    Settings::new()
        .on_element("a", |a| {
            a.set_attribute("title", "\u{e9}\u{65e5}\u{672c}\u{20ac}")
        })
        .unwrap()
        .on_element("p", |p| p.append(" \u{2192} \u{fc}<", ContentType::Text))
        .unwrap()
}

/// What [`edits`] gives, as text (the output is this text encoded, unmappable characters as
/// references).
fn edited(text: &str) -> String {
    text.replace(
        "<a href=\"/x\">",
        "<a href=\"/x\" title=\"\u{e9}\u{65e5}\u{672c}\u{20ac}\">",
    )
    .replace("</p>", " \u{2192} \u{fc}&lt;</p>")
}

#[test]
fn windows_1252_page() {
    let text = "<!doctype html><meta charset=\"windows-1252\"><title>Caf\u{e9} \u{201c}q\u{201d}</title>\
                <p class=x>na\u{ef}ve \u{2013} \u{20ac}5</p><a href=\"/x\">link</a>";
    let bytes = encode(WINDOWS_1252, text);
    let out = every_split(Dialect::Html, &edits, &bytes);
    assert_eq!(out, encode(WINDOWS_1252, &edited(text)));
    // The characters windows-1252 holds are its bytes; the others are references.
    assert!(contains(&out, b"title=\"\xE9&#26085;&#26412;\x80\""));
    assert!(contains(&out, b" &#8594; \xFC&lt;</p>"));
}

#[test]
fn shift_jis_page() {
    let text = "<meta charset=shift_jis><title>\u{65e5}\u{672c}\u{8a9e}</title>\
                <p>\u{3053}\u{3093}\u{306b}\u{3061}\u{306f}\u{3001}\u{4e16}\u{754c}</p>\
                <a href=\"/x\">\u{30ea}\u{30f3}\u{30af}</a>";
    let bytes = encode(SHIFT_JIS, text);
    let out = every_split(Dialect::Html, &edits, &bytes);
    assert_eq!(out, encode(SHIFT_JIS, &edited(text)));
    // é and € are not in Shift_JIS; 日本 are.
    let title = encode(SHIFT_JIS, "title=\"&#233;\u{65e5}\u{672c}&#8364;\"");
    assert!(contains(&out, &title));
}

#[test]
fn meta_declared_and_default_encodings() {
    for encoding in [EUC_JP, EUC_KR, GBK, GB18030, BIG5, WINDOWS_1252] {
        let body =
            "<p>\u{e9}\u{65e5}\u{672c}\u{d55c}\u{4e2d}\u{6587}</p><a href=\"/x\">\u{3b1}</a>";
        let declared = format!("<meta charset=\"{}\">{body}", encoding.name());
        let bytes = encode(encoding, &declared);
        let out = rewrite(Dialect::Html, &edits, &bytes, 0).unwrap();
        assert_eq!(
            out,
            encode(encoding, &edited(&declared)),
            "{}",
            encoding.name()
        );
        assert_eq!(rewrite(Dialect::Html, &edits, &bytes, 1).unwrap(), out);
        // No declaration: the caller's default.
        let bytes = encode(encoding, body);
        let make = || edits().default_encoding(encoding);
        let out = rewrite(Dialect::Html, &make, &bytes, 0).unwrap();
        assert_eq!(out, encode(encoding, &edited(body)), "{}", encoding.name());
        assert_eq!(rewrite(Dialect::Html, &make, &bytes, 3).unwrap(), out);
    }
}

#[test]
fn xml_declared_encoding() {
    let text = "<?xml version=\"1.0\" encoding=\"Shift_JIS\"?>\n<doc><p>\u{65e5}\u{672c}\u{8a9e}</p>\
                <a href=\"/x\">\u{30ea}\u{30f3}\u{30af}</a><!-- \u{3042} --></doc>";
    let bytes = encode(SHIFT_JIS, text);
    let out = every_split(Dialect::Xml5, &edits, &bytes);
    assert_eq!(out, encode(SHIFT_JIS, &edited(text)));
    let mut r = Rewriter::new(Dialect::Xml5, Settings::new(), |_: &[u8]| {});
    r.feed(&bytes).unwrap();
    assert_eq!(r.encoding(), Some(SHIFT_JIS));
}

#[test]
fn malformed_bytes_pass_through() {
    let p_title = || {
        Settings::new()
            .on_element("p", |p| p.set_attribute("title", "x"))
            .unwrap()
    };
    // Shift_JIS: a lead byte before `<`, a bad trail byte, a lead byte in an attribute of an
    // edited tag and one at the very end.
    let input: &[u8] = b"<meta charset=shift_jis>a\x81<p data-x=\"\x82\">\x93\xFA\x81\xFFz</p>\x81";
    let expected: &[u8] =
        b"<meta charset=shift_jis>a\x81<p data-x=\"\x82\" title=\"x\">\x93\xFA\x81\xFFz</p>\x81";
    assert_eq!(every_split(Dialect::Html, &p_title, input), expected);
    assert_eq!(every_split(Dialect::Html, &Settings::new, input), input);
    // A single-byte encoding with unmapped bytes (ISO-8859-8: 0xA1).
    let input: &[u8] = b"<meta charset=iso-8859-8><p>\xA1\xE0</p>";
    let expected: &[u8] = b"<meta charset=iso-8859-8><p title=\"x\">\xA1\xE0</p>";
    assert_eq!(every_split(Dialect::Html, &p_title, input), expected);
    // gb18030: a four-byte sequence cut short.
    let input: &[u8] = b"<meta charset=gb18030><p>\x81\x30\x81<b>\x81\x30</p>";
    let expected: &[u8] = b"<meta charset=gb18030><p title=\"x\">\x81\x30\x81<b>\x81\x30</p>";
    assert_eq!(every_split(Dialect::Html, &p_title, input), expected);
}

#[test]
fn error_spans_are_source_bytes() {
    let text = "<meta charset=shift_jis><p>\u{65e5}\u{672c}<div>";
    let bytes = encode(SHIFT_JIS, text);
    let e = rewrite(Dialect::Html, &|| Settings::new().strict(true), &bytes, 0).unwrap_err();
    assert_eq!(e.code.as_str(), "implied-end-tag");
    let at = bytes.len() - 5;
    assert_eq!((e.span.start, e.span.end), (at, at + 5));
}

#[test]
fn utf8_stays_strict() {
    let e = rewrite(Dialect::Html, &Settings::new, b"<p>\xC3", 0).unwrap_err();
    assert_eq!(e.code.as_str(), "malformed-utf8");
    let e = rewrite(Dialect::Html, &Settings::new, b"<p>\xFF</p>", 0).unwrap_err();
    assert_eq!(e.code.as_str(), "malformed-utf8");
}

#[test]
fn utf16_is_refused() {
    for (dialect, bytes) in [
        (Dialect::Html, &b"\xFE\xFF\0<\0p\0>"[..]),
        (Dialect::Xml5, &b"\xFF\xFE<\0a\0/\0>\0"[..]),
        (Dialect::Xml5, &b"<\0?\0x\0m\0l\0 \0"[..]),
    ] {
        let e = rewrite(dialect, &Settings::new, bytes, 0).unwrap_err();
        assert_eq!(e.code.as_str(), "unsupported-encoding");
    }
}

/// No-op handlers on everything.
fn noop() -> Settings<'static> {
    Settings::new()
        .on_element("*", |_| {})
        .unwrap()
        .on_text(|_| {})
        .on_comment(|_| {})
        .on_doctype(|_| {})
        .on_processing_instruction(|_| {})
}

/// Edits on every element and comment, with characters the encodings lack (no text handler:
/// text comes in pieces where chunks end, and the sniffing reads a first chunk of its own).
fn busy() -> Settings<'static> {
    Settings::new()
        .on_element("*", |e| {
            e.set_attribute("data-e", "\u{e9}\u{65e5}");
            e.before("\u{b7}", ContentType::Text);
        })
        .unwrap()
        .on_comment(|c| c.before("<!--\u{3042}-->", ContentType::Html))
}

#[test]
fn identity_on_the_corpus_re_encoded() {
    for encoding in [WINDOWS_1252, SHIFT_JIS, GB18030, EUC_KR] {
        for (sub, dialect) in [("html", Dialect::Html), ("xml", Dialect::Xml5)] {
            for (name, text) in corpus(sub) {
                let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
                let doc = match dialect {
                    Dialect::Html => format!("<meta charset=\"{}\">{text}", encoding.name()),
                    _ => {
                        let rest = match text.strip_prefix("<?xml") {
                            Some(r) => &r[r.find("?>").map_or(0, |i| i + 2)..],
                            None => text,
                        };
                        format!(
                            "<?xml version=\"1.0\" encoding=\"{}\"?>{rest}",
                            encoding.name()
                        )
                    }
                };
                // Characters the encoding lacks become references: a document all the same.
                let bytes = encode(encoding, &doc);
                let small = bytes.len() < 300_000 && [WINDOWS_1252, SHIFT_JIS].contains(&encoding);
                let chunks: &[usize] = if small { &[0, 4093, 7] } else { &[0, 4093] };
                for &chunk in chunks {
                    let out = rewrite(dialect, &noop, &bytes, chunk).unwrap();
                    assert!(
                        out == bytes,
                        "{name} in {}, chunks of {chunk}",
                        encoding.name()
                    );
                }
                // Edits everywhere: the same as rewriting the decoded text, encoded.
                let edited = rewrite(dialect, &busy, &bytes, 0).unwrap();
                let (decoded, _) = encoding.decode_without_bom_handling(&bytes);
                let reference = thicket_rewrite::rewrite_str(&decoded, dialect, busy()).unwrap();
                let exp = encode(encoding, &reference);
                assert!(edited == exp, "{name} edited, in {}", encoding.name());
                assert!(
                    rewrite(dialect, &busy, &bytes, 4093).unwrap() == edited,
                    "{name}"
                );
            }
        }
    }
}

/// `content` inserted with `insert` into the first element `selector` matches in `html`.
fn insert(
    html: &str,
    selector: &'static str,
    insert: fn(&mut thicket_rewrite::Element<'_, '_>),
    scripting: bool,
) -> Result<String, Error> {
    let settings = Settings::new()
        .scripting(scripting)
        .on_element(selector, insert)
        .unwrap();
    let mut out = Vec::new();
    let mut r = Rewriter::new(Dialect::Html, settings, |b: &[u8]| out.extend_from_slice(b));
    let result = r.feed_str(html).and_then(|()| r.finish().map(|_| ()));
    result.map(|()| String::from_utf8(out).unwrap())
}

#[test]
fn text_into_raw_text_is_refused() {
    for (name, scripting) in [
        ("script", false),
        ("style", false),
        ("xmp", false),
        ("iframe", false),
        ("noembed", false),
        ("noframes", false),
        ("noscript", true),
    ] {
        let html = format!("<p>a</p><{name}>x</{name}><b>after</b>");
        let at = html.find(&format!("<{name}>")).unwrap();
        for method in [
            (|e: &mut thicket_rewrite::Element<'_, '_>| e.append("</x>", ContentType::Text))
                as fn(&mut thicket_rewrite::Element<'_, '_>),
            |e| e.prepend("y", ContentType::Text),
            |e| e.on_end_tag(|t| t.before("y", ContentType::Text)),
        ] {
            let sel: &'static str = Box::leak(name.to_owned().into_boxed_str());
            let e = insert(&html, sel, method, scripting).unwrap_err();
            assert_eq!(e.code.as_str(), "raw-text-insertion", "{name}");
            assert!(e.span.start >= at, "{name}");
        }
        // Markup is written as given; text around the element is escaped as usual.
        let sel: &'static str = Box::leak(name.to_owned().into_boxed_str());
        let out = insert(
            &html,
            sel,
            |e| e.append("/*1*/", ContentType::Html),
            scripting,
        )
        .unwrap();
        assert_eq!(out, html.replace("x</", "x/*1*/</"));
        let out = insert(
            &html,
            sel,
            |e| {
                e.before("<", ContentType::Text);
                e.after(">", ContentType::Text)
            },
            scripting,
        )
        .unwrap();
        assert!(out.contains("&lt;<") && out.contains(">&gt;"), "{out}");
    }
    // The output stops before the token at fault, whole or in pieces.
    let html = "<i>1<2</i><script>1<2</script>";
    for chunk in [html.len(), 1, 3] {
        let settings = Settings::new().on_text(|t| {
            if t.span().start >= 18 {
                t.after("!", ContentType::Text)
            }
        });
        let mut out = Vec::new();
        let mut r = Rewriter::new(Dialect::Html, settings, |b: &[u8]| out.extend_from_slice(b));
        let mut result = Ok(());
        for piece in html.as_bytes().chunks(chunk) {
            result = result.and_then(|()| r.feed(piece));
        }
        let e = result.and_then(|()| r.finish().map(|_| ())).unwrap_err();
        // (Empty, where the refused text starts: its pieces depend on the split.)
        assert_eq!(
            (e.code.as_str(), e.span.start, e.span.end),
            ("raw-text-insertion", 18, 18)
        );
        assert_eq!(out, b"<i>1<2</i><script>");
    }
}

#[test]
fn text_where_it_can_be_escaped_or_written_raw() {
    // RCDATA decodes references: text is escaped.
    for name in ["title", "textarea"] {
        let html = format!("<{name}>x</{name}>");
        let sel: &'static str = Box::leak(name.to_owned().into_boxed_str());
        let out = insert(
            &html,
            sel,
            |e| e.append("</title>&", ContentType::Text),
            false,
        )
        .unwrap();
        assert_eq!(out, html.replace("x</", "x&lt;/title&gt;&amp;</"));
    }
    // noscript without the scripting flag is markup.
    let out = insert(
        "<noscript>x</noscript>",
        "noscript",
        |e| e.append("<", ContentType::Text),
        false,
    );
    assert_eq!(out.unwrap(), "<noscript>x&lt;</noscript>");
    // In foreign content `style` and `script` are not raw text.
    let out = insert(
        "<svg><style>x</style></svg>",
        "style",
        |e| e.append("<", ContentType::Text),
        false,
    );
    assert_eq!(out.unwrap(), "<svg><style>x&lt;</style></svg>");
    // PLAINTEXT never ends: text goes in as it is.
    let out = insert(
        "<plaintext>x",
        "plaintext",
        |e| e.prepend("</plaintext>&", ContentType::Text),
        false,
    );
    assert_eq!(out.unwrap(), "<plaintext></plaintext>&x");
    // XML5 has no raw text.
    let settings = Settings::new()
        .on_element("script", |e| e.append("<", ContentType::Text))
        .unwrap();
    let out = thicket_rewrite::rewrite_str("<script>x</script>", Dialect::Xml5, settings).unwrap();
    assert_eq!(out, "<script>x&lt;</script>");
}

#[test]
fn handler_and_diagnostic_spans_are_source_bytes() {
    use std::cell::RefCell;
    use std::rc::Rc;
    let text = "<meta charset=shift_jis><p>\u{65e5}\u{672c}<b id=\u{8a9e}>\u{3042}</b>\u{3044}<i><i><i>x</i></i></i></p>";
    let bytes = encode(SHIFT_JIS, text);
    let at = |needle: &str| {
        let n = encode(SHIFT_JIS, needle);
        bytes
            .windows(n.len())
            .position(|w| w == n.as_slice())
            .unwrap()
    };
    let expected = vec![
        ("b", at("<b "), at("\u{3042}")),
        ("text", at("\u{3042}"), at("</b>")),
        // Close handlers run before end-tag handlers.
        ("close", at("</b>") + 4, 0),
        ("end", at("</b>"), at("</b>") + 4),
        ("text", at("\u{3044}"), at("<i>")),
    ];
    for chunk in [0, 1, 5] {
        let seen = Rc::new(RefCell::new(Vec::new()));
        let make = {
            let seen = seen.clone();
            move || {
                let (s1, s2) = (seen.clone(), seen.clone());
                Settings::new()
                    .with_limits(thicket_rewrite::Limits::none().with_max_depth(3))
                    .on_element("b", move |b| {
                        let span = b.span();
                        s1.borrow_mut().push(("b", span.start, span.end));
                        let (s3, s4) = (s1.clone(), s1.clone());
                        b.on_end_tag(move |t| {
                            let span = t.span();
                            s3.borrow_mut().push(("end", span.start, span.end))
                        });
                        b.on_close(move |end| s4.borrow_mut().push(("close", end, 0)));
                    })
                    .unwrap()
                    .on_text(move |t| {
                        let span = t.span();
                        if t.source() != "x" && span.start > 30 {
                            s2.borrow_mut().push(("text", span.start, span.end))
                        }
                    })
            }
        };
        let mut r = Rewriter::read_only(Dialect::Html, make());
        for piece in bytes.chunks(if chunk == 0 { bytes.len() } else { chunk }) {
            r.feed(piece).unwrap();
        }
        // The third `i` is past the depth limit (meta is void; p, i, i are open).
        let d = r.diagnostics().to_vec();
        let _ = r.finish().unwrap();
        let mut got = seen.borrow().clone();
        // Text may come in pieces when fed in chunks: join adjacent ones.
        got.dedup_by(|b, a| {
            let join = a.0 == "text" && b.0 == "text" && a.2 == b.1;
            if join {
                a.2 = b.2;
            }
            join
        });
        assert_eq!(got, expected, "chunks of {chunk}");
        assert_eq!(d.len(), 1);
        let third = at("<i><i><i>") + 6;
        assert_eq!(
            (d[0].code.as_str(), d[0].span.start, d[0].span.end),
            ("depth-limit", third, third + 3)
        );
        drop(make);
    }
}

mod random {
    use super::*;
    use proptest::prelude::*;

    /// Markup pieces, ASCII that may be a trail byte, and lead and stray bytes of the
    /// multi-byte encodings.
    fn piece() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            Just(b"<p a='x'>".to_vec()),
            Just(b"</p>".to_vec()),
            Just(b"<b>".to_vec()),
            Just(b"<!--c-->".to_vec()),
            Just(b"<script>".to_vec()),
            Just(b"&amp;".to_vec()),
            (0x30u8..0x3a).prop_map(|b| vec![b]),
            (0x40u8..0x7f).prop_map(|b| vec![b]),
            (0x80u8..=0xff).prop_map(|b| vec![b]),
            Just(vec![b'<']),
            Just(vec![b'"']),
        ]
    }

    fn encodings() -> impl Strategy<Value = &'static Encoding> {
        prop_oneof![
            Just(SHIFT_JIS),
            Just(GB18030),
            Just(BIG5),
            Just(EUC_JP),
            Just(EUC_KR),
            Just(WINDOWS_1252),
            Just(encoding_rs::ISO_8859_8),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Any bytes: the output is the input with no-op handlers, and the same in any
        /// chunks with edits.
        #[test]
        fn any_bytes(
            pieces in proptest::collection::vec(piece(), 0..40),
            encoding in encodings(),
            chunk in 1usize..9,
        ) {
            let bytes: Vec<u8> = pieces.concat();
            // A BOM would name UTF-8 or UTF-16.
            prop_assume!(![&b"\xEF\xBB\xBF"[..], b"\xFE\xFF", b"\xFF\xFE"].iter().any(|b| bytes.starts_with(b)));
            let tags = move || {
                Settings::new()
                    .default_encoding(encoding)
                    .on_element("*", |e| {
                        e.set_attribute("data-e", "\u{e9}");
                        e.before("\u{b7}", ContentType::Html);
                    })
                    .unwrap()
            };
            let plain = move || noop().default_encoding(encoding);
            prop_assert_eq!(rewrite(Dialect::Html, &plain, &bytes, 0).unwrap(), bytes.clone());
            prop_assert_eq!(rewrite(Dialect::Html, &plain, &bytes, chunk).unwrap(), bytes.clone());
            let whole = rewrite(Dialect::Html, &tags, &bytes, 0).unwrap();
            prop_assert_eq!(rewrite(Dialect::Html, &tags, &bytes, chunk).unwrap(), whole);
        }
    }
}

/// A `capture-limit` error's span is the start tag in source bytes, as the element's span is.
#[test]
fn capture_limit_spans_are_source_bytes() {
    use std::cell::RefCell;
    use thicket_rewrite::{Capture, MemoryLimits};
    let input: &[u8] =
        b"<meta charset=windows-1252><p>\xE9\xE9\xE9</p><div>\xE9\xE9 long enough</div><b></b>";
    for capture in [Capture::Outer, Capture::Text] {
        let seen = RefCell::new(Vec::new());
        {
            let settings = Settings::new()
                .with_memory_limits(MemoryLimits::none().with_max_captured(Some(4)))
                .on_element("div, b", |e| {
                    let tag = e.span();
                    let seen = &seen;
                    e.capture(capture, move |r| {
                        let e = r.err().map(|e| (e.code.as_str(), e.span.start, e.span.end));
                        seen.borrow_mut().push((tag.start, tag.end, e));
                    })
                })
                .unwrap();
            let mut r = Rewriter::read_only(Dialect::Html, settings);
            r.feed(input).unwrap();
            r.finish().unwrap();
        }
        let seen = seen.into_inner();
        let div = (37, 42, Some(("capture-limit", 37, 42)));
        assert_eq!(seen[0], div, "{capture:?}");
        assert_eq!(&input[37..42], b"<div>");
        // `<b></b>`: its outer markup is 7 bytes (past the limit), its text none.
        let b = match capture {
            Capture::Outer => Some(("capture-limit", 62, 65)),
            _ => None,
        };
        assert_eq!(seen[1], (62, 65, b), "{capture:?}");
        assert_eq!(&input[62..65], b"<b>");
    }
}
