//! Identity: with a no-op handler on every token kind, the output is the input byte for byte,
//! over the suites' inputs, the corpus and random input, however it is split.
// The HTML and XML5 tests, built with both features (the default).
#![cfg(all(feature = "html", feature = "xml5"))]

mod common;

use common::*;
use proptest::prelude::*;
use thicket_rewrite::{Dialect, Settings};

const DIALECTS: [Dialect; 2] = [Dialect::Html, Dialect::Xml5];

/// A no-op element handler and nothing else: the lazy tokenizers skip the text nobody reads
/// (no text token), and the core writes the gaps through.
fn elements_only<'h>() -> Settings<'h> {
    Settings::new().on_element("*", |_| {}).unwrap()
}

fn check_small(input: &str, dialect: Dialect) {
    for chunk in [usize::MAX, 1, 3, 7] {
        assert_eq!(
            rewrite_chunked(input, dialect, noop_everywhere(), chunk),
            input,
            "{dialect:?}, chunks of {chunk}: {input:?}"
        );
        assert_eq!(
            rewrite_chunked(input, dialect, elements_only(), chunk),
            input,
            "{dialect:?}, element handler only, chunks of {chunk}: {input:?}"
        );
    }
    for chunk in [usize::MAX, 1, 5] {
        if let Some(out) = rewrite_bytes(input.as_bytes(), dialect, noop_everywhere(), chunk) {
            assert_eq!(
                out,
                input.as_bytes(),
                "{dialect:?}, bytes in chunks of {chunk}: {input:?}"
            );
        }
    }
}

#[test]
fn identity_on_html5lib_inputs() {
    let inputs = html_suite_inputs();
    for input in &inputs {
        for dialect in DIALECTS {
            check_small(input, dialect);
        }
    }
}

#[test]
fn identity_on_xml5lib_inputs() {
    let inputs = xml5_suite_inputs();
    for input in &inputs {
        for dialect in DIALECTS {
            check_small(input, dialect);
        }
    }
}

#[test]
fn identity_on_the_corpus() {
    for sub in ["html", "xml"] {
        for (name, text) in corpus(sub) {
            for dialect in DIALECTS {
                for chunk in [usize::MAX, 4093] {
                    let out = rewrite_chunked(&text, dialect, noop_everywhere(), chunk);
                    assert!(out == text, "{name} {dialect:?} chunks of {chunk}");
                    let out = rewrite_chunked(&text, dialect, elements_only(), chunk);
                    assert!(
                        out == text,
                        "{name} {dialect:?} elements only, chunks of {chunk}"
                    );
                }
                if let Some(out) = rewrite_bytes(text.as_bytes(), dialect, noop_everywhere(), 1021)
                {
                    assert!(out == text.as_bytes(), "{name} {dialect:?} as bytes");
                }
                // No handlers at all: the plain pass-through path.
                let out = rewrite_chunked(&text, dialect, Settings::new(), 65536);
                assert!(out == text, "{name} {dialect:?} without handlers");
            }
        }
    }
}

#[test]
fn a_bom_passes_through() {
    for dialect in DIALECTS {
        let input = b"\xEF\xBB\xBF<a>x</a>";
        assert_eq!(
            rewrite_bytes(input, dialect, noop_everywhere(), 1).unwrap(),
            input
        );
    }
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
        Just("<!DOCTYPE".to_owned()),
        Just("<![CDATA[".to_owned()),
        Just("]]>".to_owned()),
        Just("&amp;".to_owned()),
        Just("&".to_owned()),
        Just("\r\n".to_owned()),
        Just("\u{feff}".to_owned()),
        Just("é".to_owned()),
        "[a-c]{1,3}".prop_map(|s| s),
        Just(" x='1' ".to_owned()),
        Just("<script>".to_owned()),
        Just("</script>".to_owned()),
        Just("<svg>".to_owned()),
        Just("<textarea>".to_owned()),
        Just("<br>".to_owned()),
        Just("<a:b>".to_owned()),
        Just("</>".to_owned()),
    ];
    prop::collection::vec(piece, 0..40).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn identity_on_random_input_and_chunking(input in markup(), chunk in 1usize..17) {
        for dialect in DIALECTS {
            prop_assert_eq!(rewrite_chunked(&input, dialect, noop_everywhere(), chunk), input.clone());
            prop_assert_eq!(rewrite_chunked(&input, dialect, noop_everywhere(), usize::MAX), input.clone());
            prop_assert_eq!(rewrite_chunked(&input, dialect, elements_only(), chunk), input.clone());
        }
    }

    /// Edits on every element (the new attribute after the last one, text nobody reads
    /// skipped by the tokenizer) give the same output however the input is split.
    #[test]
    fn edits_do_not_depend_on_chunking(input in markup(), chunk in 1usize..17) {
        let edit = || Settings::new()
            .on_element("*", |e| e.set_attribute("k", "v"))
            .unwrap();
        for dialect in DIALECTS {
            prop_assert_eq!(
                rewrite_chunked(&input, dialect, edit(), chunk),
                rewrite_chunked(&input, dialect, edit(), usize::MAX)
            );
        }
    }
}

/// The start-tag spans `selector` matches, feeding `input` in chunks of `chunk` bytes.
fn select_chunked(
    input: &str,
    dialect: Dialect,
    selector: &str,
    chunk: usize,
) -> Vec<(usize, usize)> {
    let spans = std::cell::RefCell::new(Vec::new());
    {
        let settings = Settings::new()
            .on_element(selector, |e| {
                let start = e.span().start;
                let spans = &spans;
                e.on_close(move |end| spans.borrow_mut().push((start, end)));
            })
            .unwrap();
        let mut r = thicket_rewrite::Rewriter::read_only(dialect, settings);
        for piece in input.as_bytes().chunks(chunk) {
            r.feed(piece).unwrap();
        }
        let _ = r.finish().unwrap();
    }
    spans.into_inner()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn matches_do_not_depend_on_chunking(input in markup(), chunk in 1usize..17) {
        let selector = "*:nth-child(2n+1), a b, a + b, a ~ c:first-of-type, :not(svg) > *";
        for dialect in DIALECTS {
            prop_assert_eq!(
                select_chunked(&input, dialect, selector, chunk),
                select_chunked(&input, dialect, selector, usize::MAX)
            );
        }
    }
}
