//! The `serde` feature: tokens, events, diagnostics and documents serialize; the owned forms
//! come back equal. (`cargo test -p thicket-xml5 --features serde`.)
#![cfg(feature = "serde")]

use thicket_xml5::{Diagnostic, Document, Event, Token, Tokenizer, events, parse};

const INPUT: &str = "<?xml version='1.0'?><!DOCTYPE feed><feed xmlns='urn:atom' xmlns:x='urn:x'>\
    <entry x:id='1'>Tom &amp; Jerry<!--c--><?pi data?></entry><br/></oops>";

#[test]
fn tokens_and_events_round_trip() {
    let tokens: Vec<Token<'_>> = Tokenizer::new(INPUT).collect();
    let json = serde_json::to_string(&tokens).unwrap();
    let back: Vec<Token<'static>> = serde_json::from_str::<Vec<Token<'_>>>(&json)
        .unwrap()
        .into_iter()
        .map(Token::into_owned)
        .collect();
    assert_eq!(back, tokens);
    let events = events("<a b='1' b='2'>", Default::default());
    let json = serde_json::to_string(&events).unwrap();
    assert!(json.contains(r#""code":"duplicate-attribute""#), "{json}");
    let back: Vec<Event<'_>> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, events);
}

#[test]
fn diagnostics_serialize_with_their_codes() {
    let parsed = parse(INPUT);
    let json = serde_json::to_string(&parsed.diagnostics).unwrap();
    assert!(json.contains(r#""code":"mismatched-end-tag""#), "{json}");
    let back: Vec<Diagnostic> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, parsed.diagnostics);
}

#[test]
fn documents_round_trip_flat_at_any_depth() {
    let parsed = parse(INPUT);
    let json = serde_json::to_string(&parsed.document).unwrap();
    let back: Document<'static> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, parsed.document);
    for id in back.descendants(back.root()) {
        assert_eq!(back.span(id), parsed.document.span(id));
    }
    // Deep documents: no recursion either way (serde_json's own limit does not apply to a list).
    let depth = 50_000;
    let deep = format!("{}{}", "<a>".repeat(depth), "</a>".repeat(depth));
    let doc = parse(&deep).document;
    let back: Document<'static> =
        serde_json::from_str(&serde_json::to_string(&doc).unwrap()).unwrap();
    assert_eq!(back, doc);
    // A parent that does not come first is an error, not a panic.
    let bad = r#"{"nodes":[{"parent":1,"data":{"Text":"x"}}]}"#;
    assert!(serde_json::from_str::<Document<'static>>(bad).is_err());
    let under_text =
        r#"{"nodes":[{"parent":null,"data":{"Text":"x"}},{"parent":0,"data":{"Comment":"c"}}]}"#;
    assert!(serde_json::from_str::<Document<'static>>(under_text).is_err());
}
