#![no_main]
//! thicket-html: whole vs chunked equality, the direct paths (src/tokenizer/fast.rs) against the
//! states (`set_direct_paths(false)`), lossless spans and diagnostics in source order, with the
//! options the first byte's high bits pick (bit 3: legacy processing instructions, bit 4: tight
//! limits, bit 5: switching by tag name); its low bits choose the cuts (split.rs). Lazy
//! tokenizing (`Options::lazy`, attributes of `a` only) gives the same token kinds, spans, names,
//! flags and `a` attributes as the full tokenizer, whole and chunked. Every other chunk is lent
//! (`feed_lent`, then `into_owned`) rather than fed.

use libfuzzer_sys::fuzz_target;
use thicket_html::{AttributesOf, Lazy, Options, Token, Tokenizer};
use thicket_input::Limits;

#[path = "split.rs"]
mod split;

/// Tokens with text coalesced (text may be split where a chunk ended) and the spans seen.
fn run(
    chunks: &[&str],
    options: &Options,
    direct: bool,
) -> (Vec<String>, Vec<(usize, usize)>, Vec<String>) {
    let mut tok: Tokenizer<'static> = Tokenizer::with_options(options.clone());
    tok.set_direct_paths(direct);
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
    for (i, c) in chunks.iter().enumerate() {
        if i % 2 == 0 {
            // Lent (`feed_lent`: read in place when nothing is held), then owned again before
            // the chunk's own string goes.
            let chunk = c.to_string();
            let mut lent: Tokenizer<'_> = tok;
            lent.feed_lent(&chunk);
            pull(&mut lent, &mut out, &mut text);
            tok = lent.into_owned();
        } else {
            tok.feed(c);
            pull(&mut tok, &mut out, &mut text);
        }
    }
    tok.finish();
    pull(&mut tok, &mut out, &mut text);
    let starts: Vec<usize> = tok.diagnostics().iter().map(|d| d.span.start).collect();
    assert!(starts.is_sorted(), "diagnostics out of source order: {starts:?}");
    let mut diags: Vec<String> = tok
        .diagnostics()
        .iter()
        .map(|d| format!("{}@{:?}", d.code.as_str(), d.span))
        .collect();
    diags.push(format!("omitted {}", tok.omitted_diagnostics()));
    (out, spans, diags)
}

/// What lazy tokenizing keeps of each token that is not text: kind, span, name, flags, and the
/// attributes of `a` tags (the ones asked for).
fn shapes(chunks: &[&str], options: &Options) -> Vec<String> {
    let mut tok = Tokenizer::with_options(options.clone());
    let mut out = Vec::new();
    let pull = |tok: &mut Tokenizer, out: &mut Vec<String>| {
        while let Some(t) = tok.next_token() {
            match t {
                Token::Text { .. } => {}
                Token::StartTag(tag) => {
                    let attrs = if tag.name == "a" {
                        format!("{:?}", tag.attributes)
                    } else {
                        String::new()
                    };
                    out.push(format!("<{} {:?} {} {attrs}", tag.name, tag.span, tag.self_closing));
                }
                Token::EndTag(tag) => out.push(format!("</{} {:?}", tag.name, tag.span)),
                other => {
                    let debug = format!("{other:?}");
                    let kind = debug.split([' ', '(', '{']).next().unwrap_or("").to_owned();
                    out.push(format!("{kind} {:?}", other.span()));
                }
            }
        }
    };
    for c in chunks {
        tok.feed(c);
        pull(&mut tok, &mut out);
    }
    tok.finish();
    pull(&mut tok, &mut out);
    out
}

fuzz_target!(|data: &[u8]| {
    let flags = data.first().copied().unwrap_or(0);
    let options = Options {
        legacy_processing_instructions: flags & 8 != 0,
        limits: if flags & 16 != 0 {
            Limits::none()
                .with_max_attributes(3)
                .with_max_name_len(4)
                .with_max_value_len(6)
                .with_max_diagnostics(8)
        } else {
            Limits::none()
        },
        switch_by_tag_name: flags & 32 != 0,
        ..Options::default()
    };
    let (text, cuts) = split::text_and_chunks(data);
    let (whole, spans, diags) = run(&[&text], &options, true);
    // Spans tile the input.
    let mut at = 0;
    for &(s, e) in &spans {
        assert_eq!(s, at, "gap or overlap at {s}");
        assert!(e >= s && e <= text.len());
        at = e;
    }
    assert_eq!(at, text.len(), "spans do not cover the input");
    let (chunked, _, chunked_diags) = run(&split::chunks(&text, &cuts), &options, true);
    assert_eq!(whole, chunked, "tokens differ when split at {cuts:?}");
    assert_eq!(
        diags, chunked_diags,
        "diagnostics differ when split at {cuts:?}"
    );
    let (states, _, state_diags) = run(&[&text], &options, false);
    assert_eq!(whole, states, "the direct paths differ from the states");
    assert_eq!(
        diags, state_diags,
        "the direct paths report other diagnostics"
    );
    // Lazy tokenizing: the same shapes, whole and chunked.
    let lazy = Options {
        lazy: Some(Lazy {
            text: false,
            comments: false,
            doctypes: false,
            processing_instructions: false,
            attributes: AttributesOf::tags(["a"]),
        }),
        ..options.clone()
    };
    let full_shapes = shapes(&[&text], &options);
    assert_eq!(full_shapes, shapes(&[&text], &lazy), "lazy tokens differ");
    assert_eq!(
        full_shapes,
        shapes(&split::chunks(&text, &cuts), &lazy),
        "lazy tokens differ when split at {cuts:?}"
    );
});
