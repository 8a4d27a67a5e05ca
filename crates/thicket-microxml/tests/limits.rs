//! `Options::limits`: each limit's code, what the parser does after it (it goes on), and that
//! none of it depends on how the input is split. Limits are off by default.

use proptest::prelude::*;
use thicket_input::{Limits, Span};
use thicket_microxml::{Options, Parsed, Token, Tokenizer, parse_with};
use thicket_testkit::chunks;
use thicket_testkit::runners::microxml::{
    check_chunks_streaming, check_lossless, parse_chunks, tokenize_chunks, tree_spans,
};

fn with(limits: Limits) -> Options {
    Options {
        limits,
        ..Options::upstream()
    }
}

fn codes(p: &Parsed<'_>) -> Vec<String> {
    p.diagnostics
        .iter()
        .map(|d| format!("{}@{}", d.code, d.span))
        .collect()
}

/// The same tokens, diagnostics, tree and spans whole, char by char and split anywhere (inputs
/// up to 200 bytes), and lossless token spans.
fn check_split_invariance(text: &str, options: Options) {
    let whole = tokenize_chunks(&[text], options);
    check_lossless(text, &whole.0).unwrap_or_else(|e| panic!("{text:?}: {e}"));
    let tree = parse_with(text, options);
    let mut splits = vec![chunks::chars(text)];
    if text.len() <= 200 {
        splits.extend(chunks::two_way_splits(text).map(|s| s.to_vec()));
    }
    for split in splits {
        assert_eq!(
            tokenize_chunks(&split, options),
            whole,
            "{text:?} {split:?}"
        );
        let parsed = parse_chunks(&split, options);
        assert_eq!(parsed, tree, "{text:?} {split:?}");
        assert_eq!(tree_spans(&parsed.document), tree_spans(&tree.document));
        let ((tokens, diagnostics), omitted) = check_chunks_streaming(&split, options);
        assert_eq!(tokens, whole.0, "{text:?} {split:?}");
        assert_eq!(diagnostics, tree.diagnostics, "{text:?} {split:?}");
        assert_eq!(omitted, tree.omitted_diagnostics, "{text:?} {split:?}");
    }
}

#[test]
fn limits_are_off_by_default() {
    assert_eq!(Options::default().limits, Limits::none());
    assert_eq!(Options::upstream().limits, Limits::none());
    let deep = "<a>".repeat(5000);
    let many: String = (0..5000).map(|i| format!(" a{i}=''")).collect();
    let text = format!("<r{many}>{deep}{}", "x".repeat(100_000));
    let parsed = parse_with(&text, Options::upstream());
    assert_eq!(parsed.root().attributes().len(), 5000);
    assert_eq!(parsed.omitted_diagnostics, 0);
    assert!(
        parsed
            .diagnostics
            .iter()
            .all(|d| !d.code.as_str().ends_with("-limit"))
    );
}

#[test]
fn depth_limit_opens_nothing_deeper_and_counts_end_tags() {
    let options = with(Limits::none().with_max_depth(2));
    let text = "<a><b><c x='1'>x<d/></c>y</b>z</a>";
    let parsed = parse_with(text, options);
    assert_eq!(
        parsed.document.to_json(),
        r#"["a",{},[["b",{},["xy"]],"z"]]"#
    );
    assert_eq!(codes(&parsed), ["depth-limit@6..8", "depth-limit@16..18"]);
    // Content after the limit goes on in the element at the limit; later elements open again.
    let text = "<a><b><c><c></c></c></b><e/></a>";
    let parsed = parse_with(text, options);
    assert_eq!(
        parsed.document.to_json(),
        r#"["a",{},[["b",{},[]],["e",{},[]]]]"#
    );
    // An end-tag while unopened start-tags wait closes one of those, whatever its name.
    let parsed = parse_with("<a><b><c></b>t</b></a>", options);
    assert_eq!(parsed.document.to_json(), r#"["a",{},[["b",{},["t"]]]]"#);
    assert!(!parsed.is_valid() && codes(&parsed) == ["depth-limit@6..8"]);
    // Depth 0: no element at all.
    let parsed = parse_with("<a>t</a>", with(Limits::none().with_max_depth(0)));
    assert_eq!(parsed.document.to_json(), r##"["#doc",{},["t"]]"##);
    for text in [
        "<a><b><c>x</c>y</b>z</a>",
        "<a><b><c><d></d></b>",
        "<a><b><c/><c x='1' x='2'>",
    ] {
        check_split_invariance(text, options);
    }
}

#[test]
fn a_million_nested_elements_under_the_depth_limit() {
    let n = 1_000_000;
    let text = format!("{}{}", "<a>".repeat(n), "</a>".repeat(n));
    let parsed = parse_with(
        &text,
        with(Limits::none().with_max_depth(100).with_max_diagnostics(10)),
    );
    assert_eq!(parsed.document.to_element().depth(), 99);
    assert_eq!(parsed.diagnostics.len(), 10);
    assert_eq!(parsed.omitted_diagnostics, n - 100 - 10);
    assert!(
        parsed
            .diagnostics
            .iter()
            .all(|d| d.code.as_str() == "depth-limit")
    );
}

#[test]
fn attribute_limit_drops_the_rest_with_one_diagnostic_per_tag() {
    let options = with(Limits::none().with_max_attributes(2));
    let text = "<a x='1' y='2' z='3' w='4'><b p='1' q='2' r='3'/></a>";
    let parsed = parse_with(text, options);
    assert_eq!(
        parsed.document.to_json(),
        r#"["a",{"x":"1","y":"2"},[["b",{"p":"1","q":"2"},[]]]]"#
    );
    assert_eq!(
        codes(&parsed),
        ["attribute-limit@15..16", "attribute-limit@42..43"]
    );
    // Dropped attributes are dropped input, between the tokens around them.
    let (tokens, _) = Tokenizer::tokenize(text, options);
    let names: Vec<&str> = tokens
        .iter()
        .filter_map(|t| match t {
            Token::AttributeName { name, .. } => Some(&**name),
            _ => None,
        })
        .collect();
    assert_eq!(names, ["x", "y", "p", "q"]);
    // Duplicates count: the limit bounds the work per tag.
    let parsed = parse_with("<a x='1' x='2' y='3'/>", options);
    assert_eq!(
        codes(&parsed),
        ["duplicate-attribute@9..11", "attribute-limit@15..16"]
    );
    for text in [
        text,
        "<a x y z w/>",
        "<a x=1 y=2 z=&amp; w='<'>",
        "<a x='1'y='2'z='&#x41;' w=\"",
    ] {
        check_split_invariance(text, options);
    }
}

#[test]
fn name_length_limit_cuts_names_but_not_spans() {
    let options = with(Limits::none().with_max_name_len(3));
    let text = "<abcdef xyzw='1'>t</abcdefg>";
    let parsed = parse_with(text, options);
    assert_eq!(parsed.document.to_json(), r#"["abc",{"xyz":"1"},["t"]]"#);
    assert_eq!(
        codes(&parsed),
        [
            "name-length-limit@1..7",
            "name-length-limit@8..12",
            "name-length-limit@20..27"
        ]
    );
    let a = parsed.root().attributes().next().unwrap();
    assert_eq!(a.name_span(), thicket_input::Span::new(8, 12));
    assert_eq!(parsed.root().span().end, text.len());
    // Cut at a character boundary.
    let parsed = parse_with("<aéé/>", with(Limits::none().with_max_name_len(2)));
    assert_eq!(parsed.root().name(), "a");
    for text in [text, "<aéé/>", "<abcd x='1'/></abcd>", "<abcd efgh ijkl>"] {
        check_split_invariance(text, options);
    }
}

#[test]
fn value_length_limit_keeps_the_first_bytes_and_the_whole_span() {
    let options = with(Limits::none().with_max_value_len(4));
    let text = "<a x='0123456789' y='&amp;&amp;&amp;&amp;&amp;' z='ééé'/>";
    let parsed = parse_with(text, options);
    assert_eq!(
        parsed.document.to_json(),
        r#"["a",{"x":"0123","y":"&&&&","z":"éé"},[]]"#
    );
    assert_eq!(
        codes(&parsed),
        [
            "value-length-limit@6..16",
            "value-length-limit@21..46",
            "value-length-limit@51..57"
        ]
    );
    let x = parsed.root().attributes().next().unwrap();
    assert_eq!(x.value_span(), thicket_input::Span::new(6, 16));
    let reference_tokens = Options {
        reference_tokens: true,
        ..options
    };
    for options in [options, reference_tokens] {
        for text in [
            text,
            "<a x=0123456789>",
            "<a x='01\r\n23\r\n45'/>",
            "<a x='&#x41;&#x42;&#x43;&#x44;&#x45;&bogus;'/>",
            "<a x='0123<45'/>",
            "<a x='012345",
            "<a x='01&lt;&lt;&lt;' y='&lt;&lt;&lt;&lt;&lt;'>",
        ] {
            check_split_invariance(text, options);
        }
    }
}

#[test]
fn a_huge_value_fed_in_chunks_is_not_held() {
    let options = with(Limits::none().with_max_value_len(16));
    let mut t = Tokenizer::new(options);
    t.feed("<a x='");
    let chunk = "v".repeat(64 << 10);
    let mut data = Vec::new();
    for _ in 0..64 {
        t.feed(&chunk);
        while let Some(tok) = t.next_token() {
            data.push(tok.into_owned());
        }
    }
    t.feed("'/>");
    t.finish();
    while let Some(tok) = t.next_token() {
        data.push(tok.into_owned());
    }
    // The value comes in pieces (handed out while the input is fed); joined, they hold the
    // first 16 bytes and span the whole value.
    let pieces: Vec<(usize, Span)> = data
        .iter()
        .filter_map(|t| match t {
            Token::Data { text, span } => Some((text.len(), *span)),
            _ => None,
        })
        .collect();
    assert!(pieces.len() > 1);
    assert!(pieces.windows(2).all(|w| w[0].1.end == w[1].1.start));
    let text: usize = pieces.iter().map(|p| p.0).sum();
    let span = Span::new(pieces[0].1.start, pieces[pieces.len() - 1].1.end);
    assert_eq!((text, span.len()), (16, 64 * (64 << 10)));
    let ds = t.take_diagnostics();
    assert_eq!(ds.len(), 1);
    assert_eq!(ds[0].code.as_str(), "value-length-limit");
}

#[test]
fn diagnostics_cap_keeps_the_first_in_source_order() {
    let options = with(Limits::none().with_max_diagnostics(3));
    let text = "<a>\u{1}\u{2}&bad;\u{3}</a></b><c/>";
    let all = parse_with(text, Options::upstream());
    let capped = parse_with(text, options);
    assert_eq!(capped.diagnostics, all.diagnostics[..3]);
    assert_eq!(capped.omitted_diagnostics, all.diagnostics.len() - 3);
    assert!(!capped.is_valid());
    let (_, tokenizer_all) = Tokenizer::tokenize(text, Options::upstream());
    let mut t = Tokenizer::new(options);
    t.feed(text);
    t.finish();
    while t.next_token().is_some() {}
    assert_eq!(t.take_diagnostics(), tokenizer_all[..3]);
    assert_eq!(t.omitted_diagnostics(), tokenizer_all.len() - 3);
    // Zero: only counted.
    let none = parse_with(text, with(Limits::none().with_max_diagnostics(0)));
    assert!(none.diagnostics.is_empty());
    assert_eq!(none.omitted_diagnostics, all.diagnostics.len());
    check_split_invariance(text, options);
}

#[test]
fn a_megabyte_of_lt_keeps_only_the_cap() {
    let text = "<".repeat(1 << 20);
    let parsed = parse_with(&text, with(Limits::none().with_max_diagnostics(100)));
    assert_eq!(parsed.diagnostics.len(), 100);
    assert_eq!(
        parsed.diagnostics.len() + parsed.omitted_diagnostics,
        parse_with(&text, Options::upstream()).diagnostics.len()
    );
}

#[test]
fn a_checker_behind_an_open_top_level_run_keeps_only_the_cap() {
    // One top-level run of `<` (each an error): its `text-outside-root` comes first, when the
    // run ends, so the errors inside wait; only as many as the cap can keep may wait.
    let text = "<".repeat(1 << 16);
    let options = with(Limits::none().with_max_diagnostics(10));
    let whole = parse_with(&text, options);
    let mut checker = thicket_microxml::Checker::new(options);
    let mut kept = Vec::new();
    for piece in text.as_bytes().chunks(4096) {
        checker.feed(std::str::from_utf8(piece).expect("ascii"));
        while checker.next_token().is_some() {}
        kept.extend(checker.take_diagnostics());
        assert!(kept.len() <= 10);
    }
    // Past what the cap can keep, the waiting errors were counted as they came, not held.
    assert!(checker.omitted_diagnostics() > text.len() / 2);
    checker.finish();
    while checker.next_token().is_some() {}
    kept.extend(checker.take_diagnostics());
    assert_eq!(kept, whole.diagnostics);
    assert_eq!(checker.omitted_diagnostics(), whole.omitted_diagnostics);
    assert!(kept.iter().any(|d| d.code.as_str() == "text-outside-root"));
}

fn markup() -> impl Strategy<Value = String> {
    let pieces = vec![
        "<a>",
        "</a>",
        "<b x='1' y='2' z='3'>",
        "</b>",
        "<c/>",
        "<long-name-here q='v'>",
        "</long-name-here>",
        " ",
        "text",
        "&amp;",
        "\u{1}",
        "<",
        "x='0123456789'",
        "é",
        "<d p=\"&lt;&lt;&lt;&lt;&lt;\" r=s t>",
        "</d>",
    ];
    prop::collection::vec(prop::sample::select(pieces), 0..30).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// With every limit low, any input gives the same tokens, tree, spans and diagnostics
    /// however it is split, and the token spans tile it.
    #[test]
    fn limits_do_not_depend_on_the_split(
        text in markup(),
        cuts in prop::collection::vec(0usize..300, 0..5),
        depth in 0usize..4,
        attributes in 0usize..3,
        name in 1usize..6,
        value in 0usize..6,
        cap in 0usize..6,
    ) {
        let limits = Limits::none()
            .with_max_depth(depth)
            .with_max_attributes(attributes)
            .with_max_name_len(name)
            .with_max_value_len(value)
            .with_max_diagnostics(cap);
        for options in [with(limits), Options { reference_tokens: true, ..with(limits) }] {
            let split = chunks::split_at_positions(&text, &cuts);
            let whole = tokenize_chunks(&[&text], options);
            prop_assert!(check_lossless(&text, &whole.0).is_ok());
            prop_assert_eq!(&tokenize_chunks(&split, options), &whole);
            prop_assert_eq!(&tokenize_chunks(&chunks::chars(&text), options), &whole);
            let tree = parse_with(&text, options);
            prop_assert!(tree.diagnostics.len() <= cap);
            let parsed = parse_chunks(&split, options);
            prop_assert_eq!(&parsed, &tree);
            prop_assert_eq!(tree_spans(&parsed.document), tree_spans(&tree.document));
            let chars = parse_chunks(&chunks::chars(&text), options);
            prop_assert_eq!(&chars, &tree);
            for pieces in [split.clone(), chunks::chars(&text)] {
                let ((tokens, diagnostics), omitted) = check_chunks_streaming(&pieces, options);
                prop_assert_eq!(&tokens, &whole.0);
                prop_assert_eq!(&diagnostics, &tree.diagnostics);
                prop_assert_eq!(omitted, tree.omitted_diagnostics);
            }
        }
    }
}
