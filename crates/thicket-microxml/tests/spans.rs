//! Lossless spans and source order: token spans tile the input, tree nodes and attributes keep
//! the span of their markup, and diagnostics come in source order, the same however the input
//! is split. Checked on chosen cases, random markup and every corpus file.

use proptest::prelude::*;
use thicket_input::Span;
use thicket_microxml::{
    Diagnostic, ErrorCode, NamedReferences, NodeRef, Options, Token, Tokenizer, parse_with,
};
use thicket_testkit::chunks;
use thicket_testkit::runners::microxml::{
    check_chunks_streaming, check_lossless, check_tree_spans, corpus, parse_chunks,
    tokenize_chunks, tree_spans,
};

fn all_options() -> [Options; 5] {
    [
        Options::spec(),
        Options::upstream(),
        Options {
            named_references: NamedReferences::Html5,
            reference_tokens: true,
            ..Options::upstream()
        },
        Options {
            markup_tokens: true,
            ..Options::spec()
        },
        Options {
            markup_tokens: true,
            reference_tokens: true,
            ..Options::upstream()
        },
    ]
}

/// The characters of every `Data` and `CharRef` token, end to end.
fn all_text(tokens: &[Token<'_>]) -> String {
    tokens
        .iter()
        .filter_map(|t| match t {
            Token::Data { text, .. } | Token::CharRef { text, .. } => Some(&**text),
            _ => None,
        })
        .collect()
}

fn s(start: usize, end: usize) -> Span {
    Span::new(start, end)
}

/// Codes raised at the end of the input, which come last whatever their span.
fn at_end(code: ErrorCode) -> bool {
    matches!(code, ErrorCode::UnclosedElement | ErrorCode::NoRootElement)
}

/// Diagnostics are in source order, those raised at the end of the input last.
fn check_order(text: &str, ds: &[Diagnostic]) -> Result<(), String> {
    let split = ds.iter().position(|d| at_end(d.code)).unwrap_or(ds.len());
    if ds[split..].iter().any(|d| !at_end(d.code)) {
        return Err(format!("end-of-input diagnostics not last: {ds:?}"));
    }
    let spans: Vec<Span> = ds[..split].iter().map(|d| d.span).collect();
    thicket_testkit::spans::check_ordered(text, &spans)
}

#[test]
fn element_spans_cover_their_markup() {
    let text = "<doc a='1'>x<e/><f>y</f></doc>";
    let parsed = parse_with(text, Options::upstream());
    let root = parsed.root();
    assert_eq!(root.span(), s(0, text.len()));
    let kids: Vec<_> = root.children().collect();
    assert_eq!(kids[0].span(), s(11, 12));
    assert_eq!(kids[1].span(), s(12, 16));
    assert_eq!(kids[2].span(), s(16, 24));
    let a = root.attributes().next().unwrap();
    assert_eq!((a.name_span(), a.value_span()), (s(5, 6), s(8, 9)));
}

#[test]
fn recovery_closed_elements_end_where_their_content_ends() {
    // `</a>` closes b along with a: b ends where `</a>` starts.
    let text = "<a><b>t</a>";
    let parsed = parse_with(text, Options::upstream());
    let a = parsed.root();
    assert_eq!(a.span(), s(0, 11));
    let Some(NodeRef::Element(b)) = a.children().next() else {
        panic!("no b");
    };
    assert_eq!(b.span(), s(3, 7));
    // Unclosed at the end: to the end of the input, an unclosed start-tag included.
    let text = "<a><b x='1";
    let parsed = parse_with(text, Options::upstream());
    assert_eq!(parsed.root().span(), s(0, text.len()));
    // The `#doc` wrapper is made at the end of the input.
    let text = "<a/><b/>";
    let parsed = parse_with(text, Options::upstream());
    assert_eq!(parsed.root().name(), "#doc");
    assert_eq!(parsed.root().span(), Span::empty(text.len()));
}

#[test]
fn text_spans_cover_what_was_merged() {
    let text = "<a>x<!-- c -->y</b>z<![CDATA[w]]></a>";
    let parsed = parse_with(text, Options::upstream());
    let Some(NodeRef::Text(t)) = parsed.root().children().next() else {
        panic!("no text");
    };
    assert_eq!(t.as_str(), "xyzw");
    assert_eq!(t.span(), s(3, 30));
    // References and newlines change the characters, not the span.
    let text = "<a>&lt;\r\n</a>";
    let parsed = parse_with(text, Options::upstream());
    let Some(NodeRef::Text(t)) = parsed.root().children().next() else {
        panic!("no text");
    };
    assert_eq!((&*t, t.span()), ("<\n", s(3, 9)));
}

#[test]
fn attribute_value_spans() {
    let cases: &[(&str, Span, Span)] = &[
        ("<a x=\"v\"/>", s(3, 4), s(6, 7)),
        ("<a x = 'v'/>", s(3, 4), s(8, 9)),
        ("<a x=\"\"/>", s(3, 4), Span::empty(6)),
        ("<a x=''/>", s(3, 4), Span::empty(6)),
        ("<a x=v/>", s(3, 4), s(5, 6)),
        ("<a x=\"&amp;\r\n\"/>", s(3, 4), s(6, 13)),
        ("<a x=/>", s(3, 4), Span::empty(5)),
        ("<a x/>", s(3, 4), Span::empty(4)),
        ("<a x='v", s(3, 4), s(6, 7)),
        ("<a x='", s(3, 4), Span::empty(6)),
        ("<a x='<b", s(3, 4), Span::empty(6)),
    ];
    for &(text, name, value) in cases {
        for split in [vec![text], chunks::chars(text)] {
            let parsed = parse_chunks(&split, Options::upstream());
            let root = parsed.root();
            let e = if root.name() == "#doc" {
                match root.children().next() {
                    Some(NodeRef::Element(e)) => e,
                    _ => panic!("{text:?}: no element"),
                }
            } else {
                root
            };
            let a = e.attributes().next().expect("an attribute");
            assert_eq!((a.name_span(), a.value_span()), (name, value), "{text:?}");
        }
        let whole = parse_with(text, Options::upstream());
        assert_eq!(
            tree_spans(&whole.document),
            tree_spans(&parse_chunks(&[text], Options::upstream()).document),
            "{text:?}"
        );
    }
}

#[test]
fn discarded_input_is_a_token() {
    let text = "\u{FEFF}<?pi?><!DOCTYPE d><d a = 'v' ><!--c--><![CDATA[]]></d>";
    let (tokens, _) = Tokenizer::tokenize(text, Options::upstream());
    check_lossless(text, &tokens).unwrap();
    let discarded: Vec<&str> = tokens
        .iter()
        .filter_map(|t| match t {
            Token::Discarded { span } => Some(&text[span.start..span.end]),
            _ => None,
        })
        .collect();
    assert_eq!(
        discarded,
        [
            "\u{FEFF}<?pi?><!DOCTYPE d>",
            " ",
            " '",
            "' ",
            "<!--c--><![CDATA[]]>"
        ]
    );
}

#[test]
fn ties_and_end_of_input_order() {
    // At one start: the forbidden character, then the tokenizer's, then the builder's.
    let text = "<a/><\u{85}b x='1' x='2'/><c x='";
    let ds = parse_with(text, Options::upstream()).diagnostics;
    let codes: Vec<&str> = ds.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(
        codes,
        [
            "multiple-root-elements",
            "invalid-character",
            "invalid-name",
            "duplicate-attribute",
            "unclosed-attribute-value",
            "unclosed-element"
        ]
    );
    // Raised at the end, pointing at the start: still last.
    let ds = parse_with("<a>\u{1}", Options::upstream()).diagnostics;
    let codes: Vec<&str> = ds.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["invalid-character", "unclosed-element"]);
}

#[test]
fn streaming_diagnostics_come_in_order_as_tokens_are_taken() {
    // The tokenizer releases a diagnostic once the tokens before it are taken, so a consumer
    // adding its own diagnostics at tokens can merge in order.
    let text = "<r>a\u{1}b&bogus;c</r>\u{2}";
    let mut t = Tokenizer::new(Options::upstream());
    let mut seen = Vec::new();
    for c in chunks::chars(text) {
        t.feed(c);
        while let Some(tok) = t.next_token() {
            let start = tok.span().start;
            for d in t.take_diagnostics() {
                // Everything released is before the next token still to come.
                seen.push((d, start));
            }
        }
    }
    t.finish();
    while t.next_token().is_some() {}
    let rest = t.take_diagnostics();
    let all: Vec<Diagnostic> = seen.iter().map(|(d, _)| *d).chain(rest).collect();
    assert_eq!(all, Tokenizer::tokenize(text, Options::upstream()).1);
    check_order(text, &all).unwrap();
}

#[test]
fn corpus_spans_tile_and_nothing_depends_on_the_split() {
    let files = corpus();
    if files.is_empty() {
        eprintln!("no corpus; skipped");
        return;
    }
    for path in files {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let name = path.display();
        for options in [
            Options::upstream(),
            Options {
                markup_tokens: true,
                ..Options::upstream()
            },
        ] {
            let whole = tokenize_chunks(&[&text], options);
            check_lossless(&text, &whole.0).unwrap_or_else(|e| panic!("{name}: {e}"));
            let tree = parse_with(&text, options);
            check_tree_spans(&text, &tree).unwrap_or_else(|e| panic!("{name}: {e}"));
            check_order(&text, &tree.diagnostics).unwrap_or_else(|e| panic!("{name}: {e}"));
            // Chunks of a few odd sizes, cut anywhere (also inside characters' neighbours).
            for size in [4093, 65_536] {
                let cuts: Vec<usize> = (1..text.len() / size + 1).map(|i| i * size).collect();
                let split = chunks::split_at_positions(&text, &cuts);
                assert_eq!(tokenize_chunks(&split, options), whole, "{name}");
                let parsed = parse_chunks(&split, options);
                assert_eq!(parsed.diagnostics, tree.diagnostics, "{name}");
                assert_eq!(
                    tree_spans(&parsed.document),
                    tree_spans(&tree.document),
                    "{name}"
                );
                let ((tokens, diagnostics), _) = check_chunks_streaming(&split, options);
                assert!(
                    tokens == whole.0 && diagnostics == tree.diagnostics,
                    "{name}"
                );
            }
        }
    }
}

fn markup() -> impl Strategy<Value = String> {
    let pieces = vec![
        "<",
        ">",
        "a",
        "b",
        " ",
        "=",
        "'",
        "\"",
        "/",
        "&",
        "#",
        "x",
        ";",
        "lt",
        "amp",
        "!",
        "--",
        "-",
        "?",
        "[",
        "]",
        "CDATA[",
        "DOCTYPE",
        "\r",
        "\n",
        "\u{C}",
        "\u{1}",
        "é",
        "\u{85}",
        "1",
        "\u{FEFF}",
        "</a>",
        "<a>",
        "<b x='1'>",
        "</b>",
        "<a/>",
    ];
    prop::collection::vec(prop::sample::select(pieces), 0..40).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    /// On random markup: token spans tile the input; tree spans and diagnostics, in order, are
    /// the same whole, split anywhere, and char by char.
    #[test]
    fn random_markup_is_lossless_and_split_invariant(
        text in markup(),
        cuts in prop::collection::vec(0usize..200, 0..6),
    ) {
        let split = chunks::split_at_positions(&text, &cuts);
        for options in all_options() {
            let whole = tokenize_chunks(&[&text], options);
            prop_assert!(check_lossless(&text, &whole.0).is_ok(), "{:?}", check_lossless(&text, &whole.0));
            let tree = parse_with(&text, options);
            prop_assert!(check_tree_spans(&text, &tree).is_ok(), "{:?}", check_tree_spans(&text, &tree));
            prop_assert!(check_order(&text, &tree.diagnostics).is_ok(), "{:?}", tree.diagnostics);
            prop_assert_eq!(&tokenize_chunks(&split, options), &whole);
            for pieces in [split.clone(), chunks::chars(&text)] {
                let parsed = parse_chunks(&pieces, options);
                prop_assert_eq!(&parsed.diagnostics, &tree.diagnostics);
                prop_assert_eq!(tree_spans(&parsed.document), tree_spans(&tree.document));
                let ((tokens, diagnostics), _) = check_chunks_streaming(&pieces, options);
                prop_assert_eq!(&tokens, &whole.0);
                prop_assert_eq!(&diagnostics, &tree.diagnostics);
            }
            // The option shows comments, PIs and DOCTYPEs; the characters and the diagnostics
            // are the same without it.
            let plain = tokenize_chunks(&[&text], Options { markup_tokens: false, ..options });
            prop_assert_eq!(all_text(&whole.0), all_text(&plain.0));
            prop_assert_eq!(&whole.1, &plain.1);
        }
    }
}

/// `Options::markup_tokens`: comments, PIs and DOCTYPEs are tokens with their spans and
/// content; a comment between characters ends one `Data` token; the same at every split point
/// and char by char.
#[test]
fn markup_tokens_at_every_split() {
    let text = "\u{FEFF}<!DOCTYPE doc [<!-- in --><!ENTITY x 'y'>]>\n<?pi  da\r\nta?><doc>a<!-- c\r -->b<?t?>\
                <![CDATA[c]]><!---->d</doc><!--end-->";
    let options = Options {
        markup_tokens: true,
        ..Options::upstream()
    };
    let whole = tokenize_chunks(&[text], options);
    check_lossless(text, &whole.0).unwrap();
    let shown: Vec<String> = whole
        .0
        .iter()
        .map(|t| match t {
            Token::Comment { data, span } => format!("comment {data:?} {span}"),
            Token::ProcessingInstruction { span, .. } => {
                let (target, data) = t.pi_target_and_data().unwrap();
                format!("pi {target:?} {data:?} {span}")
            }
            Token::Doctype { name, span } => format!("doctype {name:?} {span}"),
            Token::Data { text, span } => format!("data {text:?} {span}"),
            Token::StartTagOpen { name, .. } => format!("<{name}"),
            Token::EndTag { name, .. } => format!("</{name}>"),
            Token::StartTagClose { .. } => ">".to_owned(),
            t => format!("{t:?}"),
        })
        .collect();
    assert_eq!(
        shown,
        [
            "Discarded { span: 0..3 }",
            "doctype \"doc\" 3..46",
            "data \"\\n\" 46..47",
            "pi \"pi\" \"da\\nta\" 47..61",
            "<doc",
            ">",
            "data \"a\" 66..67",
            "comment \" c\\n \" 67..78",
            "data \"b\" 78..79",
            "pi \"t\" \"\" 79..84",
            "Discarded { span: 84..93 }",
            "data \"c\" 93..94",
            "Discarded { span: 94..97 }",
            "comment \"\" 97..104",
            "data \"d\" 104..105",
            "</doc>",
            "comment \"end\" 111..121",
        ]
    );
    // Diagnostics as without the option.
    let plain = tokenize_chunks(&[text], Options::upstream());
    assert_eq!(whole.1, plain.1);
    for cut in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
        let split = [&text[..cut], &text[cut..]];
        assert_eq!(tokenize_chunks(&split, options), whole, "split at {cut}");
    }
    assert_eq!(tokenize_chunks(&chunks::chars(text), options), whole);
    // The doctype name and the tree do not change.
    let tree = parse_with(text, options);
    assert_eq!(
        tree.document,
        parse_with(text, Options::upstream()).document
    );
    let unnamed = tokenize_chunks(&["<!DOCTYPE>"], options).0;
    assert!(
        matches!(&unnamed[0], Token::Doctype { name, span } if name.is_empty() && *span == s(0, 10))
    );
    let cut = Options {
        limits: thicket_microxml::Limits::none().with_max_name_len(3),
        ..options
    };
    let long = tokenize_chunks(&["<!doctype htmlx>"], cut).0;
    assert!(matches!(&long[0], Token::Doctype { name, .. } if name == "htm"));
}
