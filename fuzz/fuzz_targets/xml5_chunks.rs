#![no_main]
//! thicket-xml5: whole vs chunked equality, spans in bounds; `parse` (direct path, document
//! borrowing the input) gives the same tree and diagnostics as the streaming `Parser` fed in
//! chunks, and as its own `into_owned`.

use libfuzzer_sys::fuzz_target;
use thicket_xml5::{Event, Options, TokenKind, Tokenizer};

#[path = "split.rs"]
mod split;

fn run(chunks: &[&str], len: usize) -> Vec<String> {
    let mut t = Tokenizer::streaming(Options::default());
    let mut out = Vec::new();
    let mut text: Option<String> = None;
    let pull = |t: &mut Tokenizer<'static>, out: &mut Vec<String>, text: &mut Option<String>| {
        while let Some(e) = t.next_event() {
            match e {
                Event::Token(tok) => {
                    assert!(tok.span.start <= tok.span.end && tok.span.end <= len);
                    if let TokenKind::Text(s) = &tok.kind {
                        text.get_or_insert_with(String::new).push_str(s);
                        continue;
                    }
                    if let Some(s) = text.take() {
                        out.push(format!("Text({s:?})"));
                    }
                    out.push(format!("{:?}", tok.kind));
                }
                Event::Diagnostic(d) => {
                    assert!(d.span.start <= d.span.end && d.span.end <= len);
                    out.push(format!("{}@{:?}", d.code.as_str(), d.span));
                }
            }
        }
    };
    for c in chunks {
        t.feed(c);
        pull(&mut t, &mut out, &mut text);
    }
    t.finish();
    pull(&mut t, &mut out, &mut text);
    if let Some(s) = text.take() {
        out.push(format!("Text({s:?})"));
    }
    out
}

fuzz_target!(|data: &[u8]| {
    let (text, cuts) = split::text_and_chunks(data);
    let whole = run(&[&text], text.len());
    let chunked = run(&split::chunks(&text, &cuts), text.len());
    assert_eq!(whole, chunked, "events differ when split at {cuts:?}");
    let (doc, diagnostics) = thicket_xml5::parse(&text, Options::default());
    let mut parser = thicket_xml5::Parser::new(Options::default());
    for c in split::chunks(&text, &cuts) {
        parser.feed(c);
    }
    let (streamed, streamed_diagnostics) = parser.finish();
    assert_eq!(doc, streamed, "parse and Parser build different trees");
    assert_eq!(diagnostics, streamed_diagnostics);
    assert_eq!(doc.dump(), streamed.dump());
    let owned = doc.clone().into_owned();
    assert_eq!(owned, doc);
    assert_eq!(owned.dump(), doc.dump());
});
