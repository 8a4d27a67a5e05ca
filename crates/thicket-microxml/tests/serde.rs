//! The `serde` feature: tokens, diagnostics and documents serialize; the owned forms come back
//! equal. (`cargo test -p thicket-microxml --features serde`.)
#![cfg(feature = "serde")]

use thicket_microxml::{Diagnostic, Document, Token, Tokens, parse};

const INPUT: &str = "<feed a='1' b=\"&lt;\">\r\n<entry>Tom &amp; Jerry<br/></entry><oops></feed>";

#[test]
fn tokens_round_trip() {
    let tokens: Vec<Token<'_>> = Tokens::new(INPUT).collect();
    let json = serde_json::to_string(&tokens).unwrap();
    let back: Vec<Token<'_>> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, tokens);
}

#[test]
fn diagnostics_serialize_with_their_codes() {
    let parsed = parse(INPUT);
    assert!(!parsed.diagnostics.is_empty());
    let json = serde_json::to_string(&parsed.diagnostics).unwrap();
    let first = parsed.diagnostics[0].code.as_str();
    assert!(json.contains(&format!(r#""code":"{first}""#)), "{json}");
    let back: Vec<Diagnostic> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, parsed.diagnostics);
}

#[test]
fn documents_round_trip_with_their_spans() {
    for input in [INPUT, "text only", "<a/><b/>", ""] {
        let doc = parse(input).document;
        let json = serde_json::to_string(&doc).unwrap();
        let back: Document<'static> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, doc, "{input}");
        let spans = |d: &Document<'_>| d.descendants().map(|n| n.span()).collect::<Vec<_>>();
        assert_eq!(spans(&back), spans(&doc), "{input}");
        assert_eq!(serde_json::to_string(&back).unwrap(), json);
        let last = back.descendants().last().unwrap();
        assert_eq!(
            last.parent().map(|p| p.name()),
            doc.descendants().last().unwrap().parent().map(|p| p.name())
        );
    }
}

#[test]
fn deep_documents_round_trip_without_recursion() {
    let depth = 50_000;
    let deep = format!("{}{}", "<a>".repeat(depth), "</a>".repeat(depth));
    let doc = parse(&deep).document;
    let back: Document<'static> =
        serde_json::from_str(&serde_json::to_string(&doc).unwrap()).unwrap();
    assert_eq!(back, doc);
}

#[test]
fn lists_that_are_no_tree_are_errors() {
    let span = r#""span":{"start":0,"end":0}"#;
    for bad in [
        r#"{"nodes":[]}"#.to_owned(),
        format!(r#"{{"nodes":[{{"parent":null,{span},"text":"x"}}]}}"#),
        format!(
            r#"{{"nodes":[{{"parent":null,{span},"name":"a"}},{{"parent":1,{span},"name":"b"}}]}}"#
        ),
        format!(
            r#"{{"nodes":[{{"parent":null,{span},"name":"a"}},{{"parent":null,{span},"name":"b"}}]}}"#
        ),
        format!(
            r#"{{"nodes":[{{"parent":null,{span},"name":"a"}},{{"parent":0,{span},"text":"t"}},{{"parent":1,{span},"name":"b"}}]}}"#
        ),
        format!(r#"{{"nodes":[{{"parent":null,{span},"name":"a","text":"t"}}]}}"#),
    ] {
        assert!(
            serde_json::from_str::<Document<'static>>(&bad).is_err(),
            "{bad}"
        );
    }
}
