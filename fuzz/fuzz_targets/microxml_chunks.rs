#![no_main]
//! thicket-microxml: the tree is the same fed whole and fed in chunks.

use libfuzzer_sys::fuzz_target;
use thicket_microxml::{Options, Parser};

#[path = "split.rs"]
mod split;

fuzz_target!(|data: &[u8]| {
    let (text, cuts) = split::text_and_chunks(data);
    let whole = thicket_microxml::parse_with(&text, Options::default());
    let mut parser = Parser::new(Options::default());
    for c in split::chunks(&text, &cuts) {
        parser.feed(c);
    }
    let chunked = parser.finish();
    assert_eq!(
        whole.document, chunked.document,
        "trees differ when split at {cuts:?}"
    );
    assert_eq!(
        whole.diagnostics, chunked.diagnostics,
        "diagnostics differ at {cuts:?}"
    );
    for d in &whole.diagnostics {
        assert!(d.span.start <= d.span.end && d.span.end <= text.len());
    }
});
