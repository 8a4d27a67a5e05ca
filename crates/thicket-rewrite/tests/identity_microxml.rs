//! MicroXML identity: with a no-op handler on every token kind, the output is the input byte for
//! byte, over the MicroXML suites' inputs, the corpus and random input, however it is split.
#![cfg(feature = "microxml")]

mod common;

use common::*;
use proptest::prelude::*;
use thicket_rewrite::{Dialect, Settings, Unit, UnitKind};

const MICROXML: Dialect = Dialect::MicroXml;

/// The source of every case of the four MicroXML suites.
fn microxml_suite_inputs() -> Vec<String> {
    let root = thicket_testkit::suite_root();
    let mut out = Vec::new();
    for (dir, file) in [
        ("microxml-er", "tests.rust-safe.json"),
        ("microxml-er-generated", "cases.json"),
        ("microxml-js", "tests.json"),
        ("microxml-java", "tests.json"),
    ] {
        let cases = thicket_testkit::suites::microxml::read(&root.join(dir).join(file)).unwrap();
        out.extend(cases.into_iter().map(|c| c.source));
    }
    assert!(out.len() > 500, "{}", out.len());
    out
}

/// Every comment, PI and DOCTYPE the handlers see (what it holds and its span), with no-op
/// handlers everywhere else, `input` fed as text in chunks of `chunk` bytes; the output must be
/// the input.
fn units_seen(input: &str, chunk: usize) -> Vec<String> {
    let seen = std::cell::RefCell::new(Vec::new());
    {
        let seen = &seen;
        let record = move |u: &mut Unit<'_>| {
            seen.borrow_mut()
                .push(format!("{:?} {}", u.kind(), u.span()));
        };
        let settings = noop_everywhere()
            .on_comment(record)
            .on_doctype(record)
            .on_processing_instruction(record);
        assert_eq!(
            rewrite_chunked(input, MICROXML, settings, chunk),
            input,
            "chunks of {chunk}: {input:?}"
        );
    }
    seen.into_inner()
}

/// The reference: the comments, PIs and DOCTYPEs of the whole input, from the tokenizer with
/// `markup_tokens`.
fn units_expected(input: &str) -> Vec<String> {
    use thicket_microxml::Token;
    let options = thicket_microxml::Options {
        markup_tokens: true,
        ..Default::default()
    };
    let (tokens, _) = thicket_microxml::Tokenizer::tokenize(input, options);
    tokens
        .iter()
        .filter_map(|t| {
            let kind = match t {
                Token::Comment { data, .. } => UnitKind::Comment(data),
                Token::ProcessingInstruction { .. } => {
                    let (target, data) = t.pi_target_and_data().unwrap();
                    UnitKind::ProcessingInstruction(target, data)
                }
                Token::Doctype { name, .. } => {
                    UnitKind::Doctype((!name.is_empty()).then_some(name))
                }
                _ => return None,
            };
            Some(format!("{kind:?} {}", t.span()))
        })
        .collect()
}

fn check_small(input: &str) {
    let expected = units_expected(input);
    for chunk in [usize::MAX, 1, 3, 7] {
        assert_eq!(
            units_seen(input, chunk),
            expected,
            "chunks of {chunk}: {input:?}"
        );
    }
    for chunk in [usize::MAX, 1, 5] {
        if let Some(out) = rewrite_bytes(input.as_bytes(), MICROXML, noop_everywhere(), chunk) {
            assert_eq!(
                out,
                input.as_bytes(),
                "bytes in chunks of {chunk}: {input:?}"
            );
        }
    }
}

#[test]
fn identity_on_the_microxml_suites() {
    let mut seen = 0;
    for input in &microxml_suite_inputs() {
        check_small(input);
        seen += units_expected(input).len();
    }
    // The suites have comments, PIs and DOCTYPEs: the handlers ran on them.
    assert!(seen > 50, "{seen}");
}

#[test]
fn identity_on_the_other_suites_inputs() {
    for input in xml5_suite_inputs().iter().chain(&html_suite_inputs()) {
        assert_eq!(
            rewrite_chunked(input, MICROXML, noop_everywhere(), 3),
            *input,
            "{input:?}"
        );
    }
}

#[test]
fn identity_on_the_corpus() {
    for sub in ["html", "xml"] {
        for (name, text) in corpus(sub) {
            let expected = units_expected(&text);
            for chunk in [usize::MAX, 4093] {
                assert!(
                    units_seen(&text, chunk) == expected,
                    "{name} chunks of {chunk}"
                );
            }
            if let Some(out) = rewrite_bytes(text.as_bytes(), MICROXML, noop_everywhere(), 1021) {
                assert!(out == text.as_bytes(), "{name} as bytes");
            }
            let out = rewrite_chunked(&text, MICROXML, Settings::new(), 65536);
            assert!(out == text, "{name} without handlers");
        }
    }
}

#[test]
fn a_bom_passes_through() {
    let input = b"\xEF\xBB\xBF<a>x</a>";
    assert_eq!(
        rewrite_bytes(input, MICROXML, noop_everywhere(), 1).unwrap(),
        input
    );
    let text = "\u{feff}<a>x</a>";
    assert_eq!(rewrite_chunked(text, MICROXML, noop_everywhere(), 1), text);
}

fn markup() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("<".to_owned()),
        Just(">".to_owned()),
        Just("</".to_owned()),
        Just("/>".to_owned()),
        Just("<!--".to_owned()),
        Just("-->".to_owned()),
        Just("<?".to_owned()),
        Just("?>".to_owned()),
        Just("<!DOCTYPE".to_owned()),
        Just("<![CDATA[".to_owned()),
        Just("]]>".to_owned()),
        Just("&amp;".to_owned()),
        Just("&#x41;".to_owned()),
        Just("&".to_owned()),
        Just("\r\n".to_owned()),
        Just("\u{feff}".to_owned()),
        Just("é".to_owned()),
        "[a-c]{1,3}".prop_map(|s| s),
        Just(" x='1' ".to_owned()),
        Just(" y=\"\" ".to_owned()),
        Just(" z = 'v' ".to_owned()),
        Just("=".to_owned()),
        Just("'".to_owned()),
        Just("\"".to_owned()),
        Just(" ".to_owned()),
        Just("<a:b>".to_owned()),
        Just("</>".to_owned()),
    ];
    prop::collection::vec(piece, 0..40).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn identity_on_random_input_and_chunking(input in markup(), chunk in 1usize..17) {
        let expected = units_expected(&input);
        prop_assert_eq!(units_seen(&input, chunk), expected.clone());
        prop_assert_eq!(units_seen(&input, usize::MAX), expected);
    }

    /// An edit on every attribute rebuilds every tag: the output does not depend on chunking.
    #[test]
    fn edits_do_not_depend_on_chunking(input in markup(), chunk in 1usize..17) {
        let edit = || Settings::new()
            .on_element("*", |e| e.set_attribute("k", "v"))
            .unwrap();
        prop_assert_eq!(
            rewrite_chunked(&input, MICROXML, edit(), chunk),
            rewrite_chunked(&input, MICROXML, edit(), usize::MAX)
        );
    }
}

/// The outer span of every element `*` matches, from the rewriter (start tag to `on_close`),
/// feeding `input` as text in chunks of `chunk` bytes (as text: the tree's spans count a byte
/// order mark, which the byte front end takes off).
fn elements_streamed(input: &str, chunk: usize) -> Vec<(usize, usize)> {
    let spans = std::cell::RefCell::new(Vec::new());
    {
        let settings = Settings::new()
            .on_element("*", |e| {
                let start = e.span().start;
                let at = spans.borrow().len();
                spans.borrow_mut().push((start, usize::MAX));
                let spans = &spans;
                e.on_close(move |end| spans.borrow_mut()[at].1 = end);
            })
            .unwrap();
        let mut r = thicket_rewrite::Rewriter::read_only(MICROXML, settings);
        let mut rest = input;
        while !rest.is_empty() {
            let mut cut = chunk.min(rest.len());
            while !rest.is_char_boundary(cut) {
                cut += 1;
            }
            r.feed_str(&rest[..cut]).unwrap();
            rest = &rest[cut..];
        }
        let _ = r.finish().unwrap();
    }
    spans.into_inner()
}

/// The outer span of every element of `thicket_microxml::parse`'s tree (not the `#doc`
/// wrapper recovery adds).
fn elements_in_tree(input: &str) -> Vec<(usize, usize)> {
    let parsed = thicket_microxml::parse(input);
    parsed
        .root()
        .descendants()
        .filter_map(|n| match n {
            thicket_microxml::NodeRef::Element(e) if e.name() != "#doc" => {
                Some((e.span().start, e.span().end))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn the_stack_agrees_with_the_tree_on_the_suites_and_the_corpus() {
    for (name, text) in corpus("xml") {
        assert!(
            elements_streamed(&text, 4093) == elements_in_tree(&text),
            "{name}"
        );
    }
    for input in &microxml_suite_inputs() {
        assert_eq!(
            elements_streamed(input, usize::MAX),
            elements_in_tree(input),
            "{input:?}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    /// The rewriter's open elements are the recovering tree builder's: the same elements, each
    /// from its start tag to where the tree closes it.
    #[test]
    fn the_stack_agrees_with_the_tree(input in markup(), chunk in 1usize..17) {
        prop_assert_eq!(elements_streamed(&input, chunk), elements_in_tree(&input));
    }
}
