//! The bytes front end: any chunking gives the text and the detection of one call, which are
//! those of the sniffing rules (`whatwg`, `xml`, `bom`) and decoders on the whole input.

use encoding_rs::{UTF_8, WINDOWS_1252};
use proptest::prelude::*;
use thicket_input::cursor::Cursor;
use thicket_input::front::{Detected, EncodingSource, Sniff, SniffingDecoder};
use thicket_input::{DecodeError, NewlineRules, decode_leafxml, whatwg, xml};

/// Documents made of the parts the rules look at: a BOM, an XML declaration or a `<meta>`,
/// a body with non-ASCII and malformed bytes, sometimes all in UTF-16.
fn document() -> impl Strategy<Value = Vec<u8>> {
    let bom = prop_oneof![
        Just(&b""[..]),
        Just(&b""[..]),
        Just(&b"\xEF\xBB\xBF"[..]),
        Just(&b"\xFF\xFE"[..]),
        Just(&b"\xFE\xFF"[..]),
        Just(&b"\xEF\xBB"[..]),
    ];
    let head = prop_oneof![
        Just(String::new()),
        Just("<?xml version='1.0' encoding='koi8-r'?>".to_owned()),
        Just("<?xml version=\"1.0\" encoding=\"utf-16\"?>".to_owned()),
        Just("<?xml version='1.0' encoding='x-bogus'?>".to_owned()),
        Just("<?xml version='1.0'?>".to_owned()),
        Just("<?xml-stylesheet href='a'?>".to_owned()),
        Just("<meta charset=iso-8859-2>".to_owned()),
        Just(
            "<!-- c --><meta http-equiv=content-type content='text/html; charset=euc-jp'>"
                .to_owned()
        ),
        Just("<p>".repeat(400)),
    ];
    let body = proptest::collection::vec(
        prop_oneof![
            Just(&b"<a>text</a>"[..]),
            Just(&b"\xC3\xA9"[..]),
            Just(&b"\xB1"[..]),
            Just(&b"\xE2\x82"[..]),
            Just(&b"\r\n"[..]),
        ],
        0..12,
    );
    (bom, head, body, any::<u8>()).prop_map(|(bom, head, body, form)| {
        let mut text = head.into_bytes();
        for piece in body {
            text.extend_from_slice(piece);
        }
        let mut out = bom.to_vec();
        match form % 4 {
            0 => {
                // UTF-16 LE of the (lossily read) text.
                let s = String::from_utf8_lossy(&text).into_owned();
                out.extend(s.encode_utf16().flat_map(u16::to_le_bytes));
            }
            1 => {
                let s = String::from_utf8_lossy(&text).into_owned();
                out.extend(s.encode_utf16().flat_map(u16::to_be_bytes));
            }
            _ => out.extend_from_slice(&text),
        }
        out
    })
}

fn split(bytes: &[u8], cuts: &[usize]) -> Vec<Vec<u8>> {
    let mut at: Vec<usize> = cuts
        .iter()
        .map(|&c| c % (bytes.len() + 1))
        .chain([0, bytes.len()])
        .collect();
    at.sort_unstable();
    at.dedup();
    at.windows(2).map(|w| bytes[w[0]..w[1]].to_vec()).collect()
}

/// Feeds `parts` into a cursor; the text, the detection, and the first error if strict.
fn stream(
    mut decoder: SniffingDecoder,
    parts: &[Vec<u8>],
) -> (String, Option<Detected>, Result<(), DecodeError>) {
    let mut input = Cursor::new(NewlineRules::CrLf);
    let mut result = Ok(());
    for part in parts {
        result = decoder.feed_into(part, &mut input);
        if result.is_err() {
            break;
        }
    }
    if result.is_ok() {
        result = decoder.finish_into(&mut input);
    }
    (input.text().to_owned(), decoder.detected().cloned(), result)
}

fn decoders() -> Vec<SniffingDecoder> {
    vec![
        SniffingDecoder::new(Sniff::Bom, UTF_8),
        SniffingDecoder::new(Sniff::Xml, UTF_8),
        SniffingDecoder::new(Sniff::Xml, WINDOWS_1252),
        SniffingDecoder::whatwg(None, WINDOWS_1252),
        SniffingDecoder::whatwg(Some("utf-8"), WINDOWS_1252),
        SniffingDecoder::leafxml(),
        SniffingDecoder::new(Sniff::Xml, UTF_8).strict(),
    ]
}

proptest! {
    #[test]
    fn any_chunking_equals_the_whole_input(
        doc in document(),
        cuts in proptest::collection::vec(0usize..4000, 0..6),
    ) {
        for (k, config) in decoders().into_iter().enumerate() {
            let whole = config.decode_whole(&doc);
            let fresh = || decoders().swap_remove(k);
            let (text, detected, result) = stream(fresh(), &split(&doc, &cuts));
            match whole {
                Ok(w) => {
                    prop_assert_eq!(result, Ok(()));
                    prop_assert_eq!(&text, &w.text, "decoder {}", k);
                    prop_assert_eq!(detected.as_ref(), Some(&w.detected), "decoder {}", k);
                }
                Err(e) => prop_assert_eq!(result, Err(e), "decoder {}", k),
            }
            // Pulled from an `io::Read` in chunks of a few bytes.
            let mut pulled = Cursor::new(NewlineRules::CrLf);
            let mut d = fresh();
            let mut src: &[u8] = &doc;
            let want = cuts.first().map_or(7, |c| c % 13 + 1);
            let pull = loop {
                match d.read_into(&mut src, want, &mut pulled) {
                    Ok(true) => {}
                    Ok(false) => break Ok(()),
                    Err(thicket_input::ReadError::Decode(e)) => break Err(e),
                    Err(e) => panic!("{e}"),
                }
            };
            prop_assert_eq!((pulled.text(), d.detected(), pull), (text.as_str(), detected.as_ref(), result));
            // Byte by byte.
            let singles: Vec<Vec<u8>> = doc.iter().map(|&b| vec![b]).collect();
            let (text1, detected1, result1) = stream(fresh(), &singles);
            let (text2, detected2, result2) = stream(fresh(), &split(&doc, &cuts));
            prop_assert_eq!((text1, detected1, result1), (text2, detected2, result2));
        }
    }

    #[test]
    fn the_rules_are_those_of_the_sniffing_modules(doc in document()) {
        // WHATWG: `whatwg::sniff` and the Encoding Standard's decode.
        let w = SniffingDecoder::whatwg(None, WINDOWS_1252).decode_whole(&doc).unwrap();
        let s = whatwg::sniff(&doc, None);
        prop_assert_eq!((w.detected.encoding, w.detected.bom_len), (s.encoding, s.bom_len));
        prop_assert_eq!(w.detected.confidence(), s.confidence);
        prop_assert_eq!(&w.text, &whatwg::decode(&doc, None).0);
        // XML: `xml::sniff`, with its own default (UTF-8).
        let x = SniffingDecoder::new(Sniff::Xml, UTF_8).decode_whole(&doc).unwrap();
        let s = xml::sniff(&doc);
        prop_assert_eq!(x.detected.encoding, s.encoding);
        prop_assert_eq!(x.detected.bom_len, s.bom_len);
        prop_assert_eq!(x.detected.problem, s.problem);
        prop_assert_eq!(&x.detected.declared_label, &s.declared_label);
        prop_assert_eq!(x.detected.declared_label_span, s.declared_label_span);
        prop_assert_eq!(&x.text, &xml::decode(&doc).0);
        // LeafXML: `decode_leafxml`, errors at the same byte.
        let l = SniffingDecoder::leafxml().decode_whole(&doc);
        match (l, decode_leafxml(&doc)) {
            (Ok(l), Ok((text, _))) => prop_assert_eq!(&l.text, &text),
            (Err(a), Err(b)) => prop_assert_eq!(a, b),
            (a, b) => prop_assert!(false, "{:?} vs {:?}", a.map(|d| d.text), b),
        }
    }
}

#[test]
fn sources_are_reported() {
    let src = |d: SniffingDecoder, bytes: &[u8]| d.decode_whole(bytes).unwrap().detected.source;
    let html = || SniffingDecoder::whatwg(None, WINDOWS_1252);
    assert_eq!(src(html(), b"\xEF\xBB\xBF<p>"), EncodingSource::Bom);
    assert_eq!(
        src(SniffingDecoder::whatwg(Some("latin2"), UTF_8), b"<p>"),
        EncodingSource::TransportLabel
    );
    assert_eq!(
        src(html(), b"<meta charset=utf-8>"),
        EncodingSource::Prescan
    );
    assert_eq!(src(html(), b"<p>"), EncodingSource::Default);
    let xml = || SniffingDecoder::new(Sniff::Xml, UTF_8);
    assert_eq!(src(xml(), b"<\0?\0x\0"), EncodingSource::Utf16Pattern);
    assert_eq!(
        src(xml(), b"<?xml version='1.0' encoding='latin1'?>"),
        EncodingSource::Declaration
    );
    assert_eq!(
        src(xml(), b"<?xml version='1.0' encoding='nope'?>"),
        EncodingSource::Default
    );
}

#[test]
fn the_held_bytes_are_bounded_and_released_early() {
    // A `<meta>` in the first bytes decides at once: text flows before 1024 bytes arrived.
    let mut d = SniffingDecoder::whatwg(None, WINDOWS_1252);
    let mut out = String::new();
    d.feed(b"<meta charset=utf-8><p>caf\xC3\xA9", &mut out)
        .unwrap();
    assert_eq!(out, "<meta charset=utf-8><p>caf\u{e9}");
    assert_eq!(d.held(), 0);
    // Without one, at most 1024 bytes wait.
    let mut d = SniffingDecoder::whatwg(None, WINDOWS_1252);
    let mut out = String::new();
    for _ in 0..1023 {
        d.feed(b"x", &mut out).unwrap();
    }
    assert_eq!((out.len(), d.held()), (0, 1023));
    d.feed(b"xyz", &mut out).unwrap();
    assert_eq!((out.len(), d.held()), (1026, 0));
    // XML without a declaration: nothing waits past the first bytes.
    let mut d = SniffingDecoder::new(Sniff::Xml, UTF_8);
    let mut out = String::new();
    d.feed(b"<root>", &mut out).unwrap();
    assert_eq!(out, "<root>");
    // A declaration waits for its `>` only.
    let mut d = SniffingDecoder::new(Sniff::Xml, UTF_8);
    let mut out = String::new();
    d.feed(b"<?xml version='1.0' encoding='latin1'", &mut out)
        .unwrap();
    assert_eq!(out, "");
    d.feed(b"?>\xE9", &mut out).unwrap();
    assert!(out.ends_with('\u{e9}'));
}

#[test]
fn strict_errors_count_from_the_first_byte() {
    let mut d = SniffingDecoder::leafxml();
    let mut out = String::new();
    d.feed(b"\xEF\xBB\xBF<a>", &mut out).unwrap();
    let e = d.feed(b"\xFF", &mut out).unwrap_err();
    assert_eq!(e.offset, 6);
    assert_eq!(out, "<a>");
    let e = SniffingDecoder::leafxml()
        .decode_whole(b"\xEF\xBB\xBF<a>\xFF")
        .unwrap_err();
    assert_eq!(e.offset, 6);
}

/// `pass_utf8`: only once UTF-8 is known, with nothing held and whole characters given; the
/// text and later errors are those of feeding everything.
#[test]
fn utf8_passes_through_only_whole_characters() {
    // Nothing is known yet: the BOM rules still hold the first bytes.
    let mut d = SniffingDecoder::new(Sniff::Bom, UTF_8).strict();
    assert_eq!(d.pass_utf8(b"abc"), None);
    let mut out = String::new();
    d.feed(b"\xEF\xBB\xBFab", &mut out).unwrap();
    assert_eq!(d.pass_utf8("ç".as_bytes()), Some("ç"));
    // A character cut by the chunk end is held: nothing passes until it is complete.
    d.feed(b"x\xE2\x82", &mut out).unwrap();
    assert_eq!(d.pass_utf8(b"y"), None);
    d.feed(b"\xACz", &mut out).unwrap();
    assert_eq!(
        d.pass_utf8(b"\xC3"),
        None,
        "an incomplete chunk is fed instead"
    );
    d.feed(b"\xC3", &mut out).unwrap();
    d.feed(b"\xA9", &mut out).unwrap();
    assert_eq!(d.pass_utf8(b"ok"), Some("ok"));
    assert_eq!(out, "abx\u{20ac}z\u{e9}");
    // Errors count every byte, passed or fed: `\xFF` is byte 16 of the stream (the BOM's 3,
    // then 13 more).
    assert_eq!(d.feed(b"\xFF", &mut out).unwrap_err().offset, 16);
    // Another encoding never passes.
    let mut d = SniffingDecoder::new(Sniff::Bom, WINDOWS_1252);
    d.feed(b"abcd", &mut out).unwrap();
    assert_eq!(d.pass_utf8(b"abc"), None);
}

/// `sniff_ahead`: the encoding feeding the same first bytes finds, decided without taking them
/// (the stream still starts at the first byte: UTF-8 passes from there); nothing when a BOM
/// starts them, the rules need more, or bytes were fed already.
#[test]
fn sniff_ahead_decides_as_feeding_would() {
    let meta = b"<meta charset=windows-1252><p>caf\xE9";
    let mut d = SniffingDecoder::whatwg(None, UTF_8).strict();
    let found = d.sniff_ahead(meta).map(|d| (d.encoding, d.source));
    assert_eq!(found, Some((WINDOWS_1252, EncodingSource::Prescan)));
    let mut out = String::new();
    d.feed(meta, &mut out).unwrap();
    assert_eq!(out, "<meta charset=windows-1252><p>caf\u{e9}");

    // No `<meta>` in the first 1024 bytes: the default, and UTF-8 passes from byte 0.
    let mut long = b"<p>".to_vec();
    long.resize(1500, b'a');
    long.extend_from_slice("ç".as_bytes());
    let mut d = SniffingDecoder::whatwg(None, UTF_8).strict();
    let found = d.sniff_ahead(&long).map(|d| (d.encoding, d.source));
    assert_eq!(found, Some((UTF_8, EncodingSource::Default)));
    assert_eq!(d.pass_utf8(&long).map(str::len), Some(long.len()));

    // Too few bytes to know, a BOM, or bytes fed already: nothing decided.
    let mut d = SniffingDecoder::whatwg(None, UTF_8).strict();
    assert!(d.sniff_ahead(b"<p>short").is_none());
    assert!(d.sniff_ahead(b"\xEF\xBB\xBF<meta charset=utf-8>").is_none());
    assert!(d.detected().is_none());
    d.feed(b"<p>", &mut out).unwrap();
    assert!(d.sniff_ahead(meta).is_none());

    // XML: the declaration's encoding, as feeding finds it.
    let decl = b"<?xml version='1.0' encoding='windows-1252'?><a/>";
    let mut d = SniffingDecoder::new(Sniff::Xml, UTF_8);
    let found = d.sniff_ahead(decl).map(|d| (d.encoding, d.source));
    assert_eq!(found, Some((WINDOWS_1252, EncodingSource::Declaration)));
}
