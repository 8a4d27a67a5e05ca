#![no_main]
//! thicket-html: whole vs chunked equality and lossless spans.

use libfuzzer_sys::fuzz_target;
use thicket_html::{Token, Tokenizer};

#[path = "split.rs"]
mod split;

/// Tokens with text coalesced (text may be split where a chunk ended) and the spans seen.
fn run(chunks: &[&str]) -> (Vec<String>, Vec<(usize, usize)>, Vec<String>) {
    let mut tok = Tokenizer::new();
    let mut out: Vec<String> = Vec::new();
    let mut spans = Vec::new();
    let mut text: Option<String> = None;
    let mut pull = |tok: &mut Tokenizer, out: &mut Vec<String>, text: &mut Option<String>| {
        while let Some(t) = tok.next_token() {
            let s = t.span();
            spans.push((s.start, s.end));
            match t {
                Token::Text { text: t, .. } => text.get_or_insert_with(String::new).push_str(&t),
                other => {
                    if let Some(t) = text.take() {
                        out.push(format!("Text({t:?})"));
                    }
                    match other {
                        Token::Discarded { .. } => out.push("Discarded".into()),
                        Token::Eof { .. } => out.push("Eof".into()),
                        o => out.push(format!("{:?}", o.into_owned())),
                    }
                }
            }
        }
    };
    for c in chunks {
        tok.feed(c);
        pull(&mut tok, &mut out, &mut text);
    }
    tok.finish();
    pull(&mut tok, &mut out, &mut text);
    let diags = tok
        .diagnostics()
        .iter()
        .map(|d| format!("{}@{:?}", d.code.as_str(), d.span))
        .collect();
    (out, spans, diags)
}

fuzz_target!(|data: &[u8]| {
    let (text, cuts) = split::text_and_chunks(data);
    let (whole, spans, diags) = run(&[&text]);
    // Spans tile the input.
    let mut at = 0;
    for &(s, e) in &spans {
        assert_eq!(s, at, "gap or overlap at {s}");
        assert!(e >= s && e <= text.len());
        at = e;
    }
    assert_eq!(at, text.len(), "spans do not cover the input");
    let (chunked, _, chunked_diags) = run(&split::chunks(&text, &cuts));
    assert_eq!(whole, chunked, "tokens differ when split at {cuts:?}");
    assert_eq!(
        diags, chunked_diags,
        "diagnostics differ when split at {cuts:?}"
    );
});
