//! `Options::limits`: each limit's code, what the parser keeps and that it goes on after it, the
//! same whole and fed in pieces; the diagnostics cap; the encoding diagnostics of the byte
//! parsers; diagnostics in source order.

use thicket_input::Limits;
use thicket_testkit::chunks;
use thicket_xml5::{
    BytesParser, ErrorCode, Options, Parsed, Parser, Tokenizer, TreeBuilder, parse_bytes_with,
    parse_with,
};

fn with(limits: Limits) -> Options {
    Options {
        limits,
        ..Options::default()
    }
}

fn codes(parsed: &Parsed<'_>) -> Vec<&'static str> {
    parsed.diagnostics.iter().map(|d| d.code.as_str()).collect()
}

/// `parse`, and the same from `Parser` fed char by char, every two-way split, and without a
/// tree (diagnostics only).
fn parse_everywhere<'a>(input: &'a str, options: &Options) -> Parsed<'a> {
    let whole = parse_with(input, options.clone());
    let mut splits: Vec<Vec<&str>> = vec![chunks::chars(input)];
    if input.len() <= 120 {
        splits.extend(chunks::two_way_splits(input).map(|[a, b]| vec![a, b]));
    }
    for pieces in splits {
        let mut p = Parser::new(options.clone());
        let mut checker = Parser::without_tree(options.clone());
        for piece in &pieces {
            p.feed(piece);
            checker.feed(piece);
        }
        let streamed = p.finish();
        assert_eq!(streamed.document, whole.document, "{input:?} in {pieces:?}");
        assert_eq!(streamed.document.dump(), whole.document.dump());
        assert_eq!(
            streamed.diagnostics, whole.diagnostics,
            "{input:?} in {pieces:?}"
        );
        assert_eq!(streamed.omitted_diagnostics, whole.omitted_diagnostics);
        let checked = checker.finish();
        assert_eq!(checked.diagnostics, whole.diagnostics, "without a tree");
        assert_eq!(checked.omitted_diagnostics, whole.omitted_diagnostics);
        assert!(checked.document.is_empty());
    }
    whole
}

#[test]
fn depth_limit_keeps_content_in_the_element_at_the_limit() {
    let options = with(Limits::none().with_max_depth(2));
    let input = "<a><b><c><d>x</d><e/>y</c>z</b><f/></a><!--after-->";
    let p = parse_everywhere(input, &options);
    assert_eq!(
        p.document.dump(),
        "<a>\n  <b>\n    \"xyz\"\n  <f>\n<!-- after -->\n"
    );
    assert_eq!(codes(&p), ["depth-limit", "depth-limit", "depth-limit"]);
    let spans: Vec<_> = p.diagnostics.iter().map(|d| d.span.start).collect();
    assert_eq!(spans, [6, 9, 17]);
    // A million nested tags past the limit cost a counter, and close in order.
    let deep = "<x>".repeat(10_000) + &"</x>".repeat(10_000);
    let p = parse_with(&deep, with(Limits::none().with_max_depth(3)));
    assert_eq!(p.document.len(), 4);
    assert_eq!(p.diagnostics.len(), 10_000 - 3);
    assert!(
        p.diagnostics
            .iter()
            .all(|d| d.code == ErrorCode::DepthLimit)
    );
}

#[test]
fn attribute_limit_drops_the_rest_once_a_tag() {
    let options = with(Limits::none().with_max_attributes(2));
    let input = "<r a='1' b='2' c='3' d='4'><s a='1' a='2' b='3' c='4'/></r>";
    let p = parse_everywhere(input, &options);
    assert_eq!(
        p.document.dump(),
        "<r>\n  a=\"1\"\n  b=\"2\"\n  <s>\n    a=\"1\"\n    b=\"3\"\n"
    );
    assert_eq!(
        codes(&p),
        ["attribute-limit", "duplicate-attribute", "attribute-limit"]
    );
    assert_eq!(p.diagnostics[0].span.start, input.find("c=").unwrap_or(0));
    // Tags at the limit exactly are untouched, on both paths.
    let p = parse_everywhere("<r a='1' b='2'/>", &options);
    assert!(p.diagnostics.is_empty());
}

#[test]
fn name_and_value_length_limits_cut_and_report_the_whole_span() {
    let options = with(Limits::none().with_max_name_len(4).with_max_value_len(3));
    let input = "<elementé attribute='valueé'><?target data?><!DOCTYPE doctypename></elementé>";
    let p = parse_everywhere(input, &options);
    let dump = p.document.dump();
    assert!(dump.starts_with("<elem>\n  attr=\"val\"\n"), "{dump}");
    assert!(dump.contains("<?targ data?>"), "{dump}");
    let found: Vec<(&str, &str)> = p
        .diagnostics
        .iter()
        .map(|d| (d.code.as_str(), &input[d.span.start..d.span.end]))
        .collect();
    // The end tag's name is cut as the start tag's was, so they match.
    assert_eq!(
        found,
        [
            ("name-length-limit", "elementé"),
            ("name-length-limit", "attribute"),
            ("value-length-limit", "valueé"),
            ("name-length-limit", "target"),
            ("misplaced-doctype", "<!DOCTYPE doctypename>"),
            ("name-length-limit", "doctypename"),
            ("name-length-limit", "elementé"),
        ]
    );
    // A cut never splits a character: `é` is two bytes, the limit four. Once cut, nothing
    // more is kept, however the input is split (`d` would fit after `abc`).
    let p = parse_everywhere("<abcé/>", &options);
    assert_eq!(p.document.dump(), "<abc>\n");
    let p = parse_everywhere("<abcéd x='1'/><r abcéd='1234é5'/>", &options);
    assert!(p.document.dump().starts_with("<abc>\n"));
    assert_eq!(
        parse_everywhere("<r abcéd='12é5'/>", &options)
            .document
            .dump(),
        "<r>\n  abc=\"12\"\n"
    );
    // A reference's replacement counts, its source is what the span shows.
    let p = parse_everywhere("<a b='&lt;&lt;&lt;&lt;'/>", &options);
    assert_eq!(p.document.dump(), "<a>\n  b=\"<<<\"\n");
    assert_eq!(p.diagnostics[0].span, thicket_input::Span::new(6, 22));
}

#[test]
fn a_long_value_streams_without_being_held() {
    let options = with(Limits::none().with_max_value_len(8));
    let mut t = Tokenizer::streaming(options);
    t.feed("<a b='");
    let chunk = "v".repeat(1 << 16);
    for _ in 0..64 {
        t.feed(&chunk);
        assert!(t.next_event().is_none());
    }
    t.feed("'/>");
    t.finish();
    let mut values = Vec::new();
    let mut cut = 0;
    while let Some(e) = t.next_event() {
        match e {
            thicket_xml5::Event::Token(tok) => {
                if let thicket_xml5::TokenKind::EmptyTag { attributes, .. } = tok.kind {
                    values.extend(attributes.into_iter().map(|a| (a.value, a.value_span)));
                }
            }
            thicket_xml5::Event::Diagnostic(d) => {
                assert_eq!(d.code, ErrorCode::ValueLengthLimit);
                cut += 1;
            }
        }
    }
    assert_eq!(cut, 1);
    assert_eq!(values[0].0, "vvvvvvvv");
    assert_eq!(values[0].1, thicket_input::Span::new(6, 6 + 64 * (1 << 16)));
}

#[test]
fn namespace_limit_leaves_declarations_past_it_unbound() {
    let options = with(Limits::none().with_max_namespace_declarations(2));
    let input = "<r xmlns='urn:d' xmlns:p='urn:p'><s xmlns:q='urn:q'><q:t p:u='1'/></s><q:v/></r>";
    let p = parse_everywhere(input, &options);
    assert_eq!(
        codes(&p),
        ["namespace-limit", "unbound-prefix", "unbound-prefix"]
    );
    // The bindings in scope stay usable; after `</s>` the count is back to two.
    let dump = p.document.dump();
    assert!(dump.contains("{urn:p}p:u=\"1\""), "{dump}");
    let p = parse_everywhere(
        "<r xmlns:p='urn:p'><s xmlns:q='urn:q'/><t xmlns:q='urn:q'><q:u/></t></r>",
        &with(Limits::none().with_max_namespace_declarations(2)),
    );
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
}

#[test]
fn namespace_bytes_count_prefixes_and_namespaces_in_scope() {
    // `p` + `urn:p` is 6 bytes, `q` + `urn:q` 6 more: a limit of 11 leaves `q` unbound.
    let options = with(Limits::none().with_max_namespace_bytes(11));
    let input =
        "<r xmlns:p='urn:p'><s xmlns:q='urn:q'><q:t p:u='1'/></s><s xmlns:q='u'><q:t/></s></r>";
    let p = parse_everywhere(input, &options);
    assert_eq!(codes(&p), ["namespace-limit", "unbound-prefix"]);
    let dump = p.document.dump();
    assert!(dump.contains("{urn:p}p:u=\"1\""), "{dump}");
    // After `</s>` the bytes are back to 6; `q` + `u` fits. The default namespace counts its
    // namespace alone.
    assert!(dump.contains("{u}q:t"), "{dump}");
    let p = parse_everywhere(
        "<r xmlns='urn:0123456789'><s xmlns='urn:0123456'/></r>",
        &with(Limits::none().with_max_namespace_bytes(24)),
    );
    assert_eq!(codes(&p), ["namespace-limit"]);
    assert!(Limits::untrusted().max_namespace_bytes.is_some());
}

#[test]
fn diagnostics_cap_keeps_the_first_in_source_order() {
    // One error a `<`, text outside the root, no root.
    let input = "<".repeat(100_000);
    let all = parse_with(&input, Options::default());
    let total = all.diagnostics.len();
    assert_eq!(total, 100_002);
    let options = with(Limits::none().with_max_diagnostics(100));
    let capped = parse_everywhere(&input[..2000], &options);
    assert_eq!(capped.diagnostics.len(), 100);
    assert_eq!(capped.omitted_diagnostics, 2002 - 100);
    let capped = parse_with(&input, options.clone());
    assert_eq!(capped.diagnostics, all.diagnostics[..100]);
    assert_eq!(capped.omitted_diagnostics, total - 100);
    // A cap of zero counts everything; the tokenizer and tree builder count theirs alone.
    let none = parse_with(&input, with(Limits::none().with_max_diagnostics(0)));
    assert!(none.diagnostics.is_empty());
    assert_eq!(none.omitted_diagnostics, total);
    let mut t = Tokenizer::with_options(&input, with(Limits::none().with_max_diagnostics(10)));
    while t.next_token().is_some() {}
    assert_eq!(
        (t.take_diagnostics().len(), t.omitted_diagnostics()),
        (10, 99_990)
    );
    let mut b = TreeBuilder::with_limits(Limits::none().with_max_diagnostics(1));
    for _ in 0..3 {
        b.process(thicket_xml5::Token {
            kind: thicket_xml5::TokenKind::Text("x".into()),
            span: thicket_input::Span::new(0, 1),
        });
        b.process(thicket_xml5::Token {
            kind: thicket_xml5::TokenKind::Comment("".into()),
            span: thicket_input::Span::new(1, 1),
        });
    }
    assert_eq!((b.diagnostics().len(), b.omitted_diagnostics()), (1, 2));
}

/// The case: a tree builder error (an unbound prefix, at the tag) came after a tokenizer
/// error inside the tag (a reference); an attribute's namespace errors before its element's.
#[test]
fn diagnostics_come_in_source_order() {
    let input = "<r>\n<p:b c='&#0;' d:e='1' xmlns:xml='x'>\n</r>";
    let p = parse_everywhere(input, &Options::default());
    let found: Vec<(&str, usize)> = p
        .diagnostics
        .iter()
        .map(|d| (d.code.as_str(), d.span.start))
        .collect();
    assert_eq!(
        found,
        [
            ("unbound-prefix", 4),
            ("null-character-reference", 12),
            ("unbound-prefix", 18),
            ("invalid-namespace-declaration", 26),
            ("mismatched-end-tag", 41),
        ]
    );
}

/// One malformed end tag: the draft's end tag name after state raises a parse error for each
/// character it stays on, so `</entry\n  <entry>` has one per character of `<entry`.
#[test]
fn end_tag_name_after_state_reports_each_character() {
    let p = parse_with("<entry></entry\n  <entry>", Options::default());
    let spans: Vec<usize> = p
        .diagnostics
        .iter()
        .filter(|d| d.code == ErrorCode::UnexpectedCharacterAfterEndTagName)
        .map(|d| d.span.start)
        .collect();
    assert_eq!(spans, [17, 18, 19, 20, 21, 22]);
}

#[test]
fn byte_parsers_report_encoding_problems_at_the_label() {
    let mut utf16 = vec![0xFF, 0xFE];
    for unit in "<?xml encoding='ISO-8859-1'?><a/>".encode_utf16() {
        utf16.extend_from_slice(&unit.to_le_bytes());
    }
    let cases: [(&[u8], Option<ErrorCode>, &str); 4] = [
        (
            b"<?xml version='1.0' encoding='x-bogus-42'?><a/>",
            Some(ErrorCode::UnknownEncoding),
            "UTF-8",
        ),
        (&utf16, Some(ErrorCode::EncodingMismatch), "UTF-16LE"),
        (
            b"<?xml version='1.0' encoding='ISO-8859-1'?><a>\xE9</a>",
            None,
            "windows-1252",
        ),
        (b"<a/>", None, "UTF-8"),
    ];
    for (bytes, code, encoding) in cases {
        let whole = parse_bytes_with(bytes, Options::default());
        assert_eq!(whole.encoding.name(), encoding);
        let found: Vec<ErrorCode> = whole.diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(found, code.into_iter().collect::<Vec<_>>());
        if let Some(d) = whole.diagnostics.first() {
            let label = &whole.text[d.span.start..d.span.end];
            assert!(label == "x-bogus-42" || label == "ISO-8859-1", "{label}");
        }
        for size in [1, 3, 1024] {
            let mut p = BytesParser::new(Options::default());
            for piece in bytes.chunks(size) {
                p.feed(piece);
            }
            let streamed = p.finish();
            assert_eq!(streamed.diagnostics, whole.diagnostics);
            assert_eq!(streamed.encoding, whole.encoding);
        }
    }
}

/// Diagnostics taken while the input streams in, then the rest at the end, are the whole
/// parse's, in order, however the input is split; each is handed out once the input has moved
/// past it.
#[test]
fn streamed_diagnostics_are_handed_out_in_order() {
    let input = "<r>\n<p:b c='&#0;' d:e='1'>x\u{1}</p:b><q:c/>< \n</s></r>trailing";
    let whole = parse_with(input, Options::default());
    assert!(whole.diagnostics.len() >= 6);
    for size in [1, 2, 3, 7, 64] {
        let mut p = Parser::without_tree(Options::default());
        let mut taken = Vec::new();
        let mut fed = 0;
        for piece in input.as_bytes().chunks(size) {
            let piece = std::str::from_utf8(piece).unwrap_or("");
            p.feed(piece);
            fed += piece.len();
            for d in p.take_diagnostics() {
                assert!(d.span.start < fed, "{d:?} handed out before {fed}");
                taken.push(d);
            }
        }
        taken.extend(p.finish().diagnostics);
        assert_eq!(taken, whole.diagnostics, "in pieces of {size}");
    }
}
