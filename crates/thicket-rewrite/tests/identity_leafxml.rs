//! LeafXML identity: with a no-op handler on every token kind, a document the LeafXML reader
//! accepts is written back byte for byte, however it is split; a document it rejects stops the
//! rewrite with the reader's first error (its code and span), and the output is a prefix of the
//! input (`ErrorOutput::Flush`) or nothing (`ErrorOutput::Discard`). Over the LeafXML suite's
//! inputs, the corpus and random input.
#![cfg(feature = "leafxml")]

mod common;

use common::*;
use proptest::prelude::*;
use thicket_rewrite::{Dialect, Error, ErrorOutput, Rewriter, Settings, Unit, UnitKind};

const LEAFXML: Dialect = Dialect::LeafXml;

/// Every input of the LeafXML suite (conformance/leafxml), as bytes.
fn leafxml_suite_inputs() -> Vec<Vec<u8>> {
    let dir = thicket_testkit::project_root().join("conformance/leafxml");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    let mut out = Vec::new();
    for path in paths {
        let file: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for test in file["tests"].as_array().unwrap() {
            if let Some(text) = test["input"].as_str() {
                out.push(text.as_bytes().to_vec());
            } else if let Some(hex) = test["input_hex"].as_str() {
                let hex: String = hex.split_whitespace().collect();
                let bytes = (0..hex.len())
                    .step_by(2)
                    .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
                    .collect();
                out.push(bytes);
            }
        }
    }
    assert!(out.len() > 200, "{}", out.len());
    out
}

/// Rewrites `input` fed as bytes in chunks of `chunk`: the output and the result.
fn rewrite(input: &[u8], settings: Settings<'_>, chunk: usize) -> (Vec<u8>, Result<(), Error>) {
    let mut out = Vec::new();
    let mut r = Rewriter::new(LEAFXML, settings, |b: &[u8]| out.extend_from_slice(b));
    let mut result = Ok(());
    for piece in input.chunks(chunk.max(1)) {
        result = r.feed(piece);
        if result.is_err() {
            break;
        }
    }
    if result.is_ok() {
        result = r.finish().map(|_| ());
    }
    (out, result)
}

/// The reference: the comments, instructions and DOCTYPE of an accepted document, from the
/// reader with `with_markup_events`, as handlers see them.
fn units_expected(input: &[u8]) -> Vec<String> {
    use thicket_leafxml::EventKind;
    let mut reader = thicket_leafxml::Reader::from_bytes(input).with_markup_events(true);
    let mut out = Vec::new();
    while let Ok(Some(e)) = reader.next_event() {
        let kind = match &e.kind {
            EventKind::Comment(c) => UnitKind::Comment(c),
            EventKind::Instruction(_) => {
                let (target, data) = e.kind.instruction_target_and_data().unwrap();
                UnitKind::ProcessingInstruction(target, data)
            }
            EventKind::Doctype(name) => UnitKind::Doctype((!name.is_empty()).then_some(name)),
            _ => continue,
        };
        out.push(format!("{kind:?} {}", e.span));
    }
    out
}

/// The identity property on one input; true when the reader accepted it.
fn check(input: &[u8], chunks: &[usize]) -> bool {
    if std::str::from_utf8(input).is_err_and(|e| e.error_len().is_none()) {
        // A sequence cut short at the end of the input: the byte front end (shared by every
        // dialect) does not report it yet; left to its owner.
        return false;
    }
    let expected = thicket_leafxml::parse_events(input);
    let mut accepted = false;
    for &chunk in chunks {
        for mode in [ErrorOutput::Flush, ErrorOutput::Discard] {
            // Every comment, instruction and DOCTYPE the handlers see.
            let seen = std::cell::RefCell::new(Vec::new());
            let record = |u: &mut Unit<'_>| {
                seen.borrow_mut()
                    .push(format!("{:?} {}", u.kind(), u.span()));
            };
            let settings = noop_everywhere()
                .output_on_error(mode)
                .on_comment(record)
                .on_doctype(record)
                .on_processing_instruction(record);
            let (out, result) = rewrite(input, settings, chunk);
            match result {
                Ok(()) => {
                    assert!(expected.is_ok(), "accepted, the reader did not: {input:?}");
                    assert_eq!(out, input, "{mode:?}, chunks of {chunk}");
                    assert_eq!(seen.into_inner(), units_expected(input), "{input:?}");
                    accepted = true;
                }
                Err(e) if e.code.as_str() == "unsupported-encoding" => {
                    // UTF-16: refused, as in every dialect.
                    assert!(out.is_empty());
                }
                Err(e) => {
                    let want = expected.as_ref().expect_err("the reader accepted it");
                    if e.code.as_str() == "malformed-utf8" {
                        assert_eq!(want.code.as_str(), "invalid-utf8");
                    } else {
                        assert_eq!(e.code.as_str(), "not-well-formed", "{e}");
                        let got = e.leafxml_error().expect("the reader's error");
                        assert_eq!(got, want, "chunks of {chunk}: {input:?}");
                        assert_eq!(e.span, want.span);
                    }
                    match mode {
                        ErrorOutput::Discard => assert!(out.is_empty(), "{input:?}"),
                        _ => assert!(input.starts_with(&out), "{input:?}"),
                    }
                }
            }
        }
    }
    accepted
}

#[test]
fn identity_on_the_leafxml_suite() {
    let inputs = leafxml_suite_inputs();
    let accepted: Vec<_> = inputs
        .iter()
        .filter(|i| check(i, &[usize::MAX, 1, 5]))
        .collect();
    assert!(
        accepted.len() > 50,
        "{} of {}",
        accepted.len(),
        inputs.len()
    );
    // The accepted documents have comments, instructions and DOCTYPEs: their handlers ran.
    let units: usize = accepted.iter().map(|i| units_expected(i).len()).sum();
    assert!(units > 20, "{units}");
}

#[test]
fn identity_on_the_other_suites_inputs() {
    for input in xml5_suite_inputs() {
        check(input.as_bytes(), &[3]);
    }
}

#[test]
fn identity_on_the_corpus() {
    let mut accepted = 0;
    for (name, text) in corpus("xml") {
        if check(text.as_bytes(), &[usize::MAX, 4093]) {
            accepted += 1;
            let out = rewrite_chunked(&text, LEAFXML, Settings::new(), 65536);
            assert!(out == text, "{name} without handlers");
        }
    }
    assert!(accepted >= 3, "{accepted}");
}

#[test]
fn a_bom_passes_through() {
    let input = b"\xEF\xBB\xBF<a>x</a>";
    assert!(check(input, &[1, usize::MAX]));
    let text = "\u{feff}<a> x </a>\n";
    assert_eq!(rewrite_chunked(text, LEAFXML, noop_everywhere(), 1), text);
}

/// Markup that is mostly LeafXML: balanced elements around random content.
fn document() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("<b>".to_owned()),
        Just("</b>".to_owned()),
        Just("<c x='1' y=\"&amp;\">".to_owned()),
        Just("</c>".to_owned()),
        Just("<d/>".to_owned()),
        Just("<p:e xmlns:p='urn:p' p:z='2'>".to_owned()),
        Just("</p:e>".to_owned()),
        Just("<!-- c -->".to_owned()),
        Just("<?pi data?>".to_owned()),
        Just("<![CDATA[<x>]]>".to_owned()),
        Just("&lt;&#x41;".to_owned()),
        Just("\r\n".to_owned()),
        Just(" ".to_owned()),
        Just("é".to_owned()),
        "[a-c]{1,3}".prop_map(|s| s),
        Just("<".to_owned()),
        Just("&".to_owned()),
    ];
    let prolog = prop_oneof![
        Just(String::new()),
        Just("<?xml version=\"1.0\"?>\n".to_owned()),
        Just("<!DOCTYPE a>\n<!-- x -->".to_owned()),
    ];
    (prolog, prop::collection::vec(piece, 0..30), "[ \n]{0,2}")
        .prop_map(|(p, v, tail)| format!("{p}<a>{}</a>{tail}", v.concat()))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn identity_on_random_input_and_chunking(input in document(), chunk in 1usize..17) {
        check(input.as_bytes(), &[chunk, usize::MAX]);
    }
}
