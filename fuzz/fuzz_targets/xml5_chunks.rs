#![no_main]
//! thicket-xml5: whole vs chunked equality (text runs may come in pieces when chunked, so
//! adjacent text is merged before comparing); the direct path (`src/tokenizer/fast.rs`)
//! against the states alone, event for event, whole and in the same chunks; the lending
//! `next_lent_event` against `next_event`, chunked; token spans (`Discarded` included) tile the input,
//! attribute name and value spans lie inside their attribute; `parse` (direct path, document
//! borrowing the input) gives the same tree, node spans and diagnostics (in source order) as
//! the streaming `Parser` fed in chunks, as `Parser::without_tree`, and as its own
//! `into_owned`; with small limits (chosen by the input) the same holds and the cap is
//! respected; a lazy tokenizer (`Options::lazy`, the rewriter's `[id]` setting: every tag's
//! attributes, no text) gives the full tokenizer's token kinds, spans, names and attributes,
//! whole and chunked, lent and owned (text pieces merged, text content empty).

use libfuzzer_sys::fuzz_target;
use thicket_input::{Limits, Span};
use thicket_xml5::{AttributesOf, Event, Lazy, NodeId, Options, Parser, Token, TokenKind, Tokenizer};

#[path = "split.rs"]
mod split;

/// The events of a streaming tokenizer fed `chunks`, rendered (text pieces merged), with the
/// token spans checked to tile the input.
fn run(chunks: &[&str], text: &str, options: &Options) -> Vec<String> {
    run_with(chunks, text, options, true, false)
}

/// [`run`] with the direct path on or off, through `next_event` or the lending
/// `next_lent_event`.
fn run_with(
    chunks: &[&str],
    text: &str,
    options: &Options,
    fast: bool,
    lent: bool,
) -> Vec<String> {
    let mut t = Tokenizer::streaming(options.clone()).with_fast_paths(fast);
    let mut out = Vec::new();
    let mut merged: Option<String> = None;
    let mut at = 0;
    let mut pull = |t: &mut Tokenizer<'static>, out: &mut Vec<String>| {
        loop {
            let next = if lent {
                t.next_lent_event()
            } else {
                t.next_event()
            };
            let Some(e) = next else { break };
            match e {
                Event::Token(tok) => {
                    let s = tok.span;
                    assert_eq!(s.start, at, "token spans leave a gap or overlap: {tok:?}");
                    assert!(s.end >= s.start && s.end <= text.len());
                    assert!(text.is_char_boundary(s.start) && text.is_char_boundary(s.end));
                    at = s.end;
                    if let TokenKind::StartTag { attributes, .. }
                    | TokenKind::EmptyTag { attributes, .. } = &tok.kind
                    {
                        let mut last = s.start;
                        for a in attributes {
                            let inside = |x: Span, o: Span| o.start <= x.start && x.end <= o.end;
                            assert!(inside(a.span, s) && a.span.start >= last, "{a:?}");
                            assert!(inside(a.name_span, a.span) && inside(a.value_span, a.span));
                            assert_eq!(a.name_span.start, a.span.start);
                            last = a.span.end;
                        }
                    }
                    if let TokenKind::Text(s) = &tok.kind {
                        merged.get_or_insert_with(String::new).push_str(s);
                        continue;
                    }
                    if let Some(s) = merged.take() {
                        out.push(format!("Text({s:?})"));
                    }
                    out.push(format!("{:?}", tok.kind));
                }
                Event::Diagnostic(d) => {
                    assert!(d.span.start <= d.span.end && d.span.end <= text.len());
                    out.push(format!("{}@{:?}", d.code.as_str(), d.span));
                }
            }
        }
    };
    for c in chunks {
        t.feed(c);
        pull(&mut t, &mut out);
    }
    t.finish();
    pull(&mut t, &mut out);
    assert_eq!(at, text.len(), "token spans end before the input does");
    if let Some(s) = merged.take() {
        out.push(format!("Text({s:?})"));
    }
    out
}

/// Every event of a whole-`&str` tokenizer, with the direct path on or off, as text.
fn events(text: &str, options: &Options, fast: bool) -> Vec<String> {
    let mut t = Tokenizer::with_options(text, options.clone()).with_fast_paths(fast);
    let mut out = Vec::new();
    while let Some(e) = t.next_event() {
        out.push(format!("{e:?}"));
    }
    out
}

/// The tokens of `chunks` (lent or owned) as text, without strings the `[id]` lazy setting does
/// not ask for (text, comment, PI and DOCTYPE content), adjacent text merged by span.
fn shapes(chunks: &[&str], options: &Options, lent: bool) -> Vec<String> {
    let mut t = Tokenizer::streaming(options.clone());
    let mut out = Vec::new();
    let mut text: Option<Span> = None;
    let mut push = |tok: Token<'_>, out: &mut Vec<String>| {
        if let TokenKind::Text(_) = tok.kind {
            let s = text.get_or_insert(Span::new(tok.span.start, tok.span.start));
            assert_eq!(s.end, tok.span.start, "text pieces must touch");
            s.end = tok.span.end;
            return;
        }
        if let Some(s) = text.take() {
            out.push(format!("Text@{s:?}"));
        }
        let kind = match tok.kind {
            TokenKind::Comment(_) => "Comment".to_owned(),
            TokenKind::Pi { .. } => "Pi".to_owned(),
            TokenKind::Doctype { .. } => "Doctype".to_owned(),
            k => format!("{k:?}"),
        };
        out.push(format!("{kind}@{:?}", tok.span));
    };
    let mut pull = |t: &mut Tokenizer<'static>, out: &mut Vec<String>| {
        if lent {
            while let Some(tok) = t.next_lent_token() {
                push(tok, out);
            }
        } else {
            while let Some(tok) = t.next_token() {
                push(tok, out);
            }
        }
    };
    for c in chunks {
        t.feed(c);
        pull(&mut t, &mut out);
    }
    t.finish();
    pull(&mut t, &mut out);
    out
}

fn check(text: &str, cuts: &[usize], options: &Options) {
    let lazy = Options {
        lazy: Some(Lazy {
            attributes: AttributesOf::All,
            ..Lazy::default()
        }),
        ..options.clone()
    };
    let full = shapes(&[text], options, true);
    for chunks in [vec![text], split::chunks(text, cuts)] {
        for lent in [true, false] {
            assert_eq!(full, shapes(&chunks, &lazy, lent), "lazy differs, lent {lent}");
        }
    }
    let whole = run(&[text], text, options);
    let chunked = run(&split::chunks(text, cuts), text, options);
    assert_eq!(whole, chunked, "events differ when split at {cuts:?}");
    assert_eq!(
        events(text, options, true),
        events(text, options, false),
        "the direct path differs from the states"
    );
    assert_eq!(
        chunked,
        run_with(&split::chunks(text, cuts), text, options, false, false),
        "chunked, the direct path differs from the states"
    );
    assert_eq!(
        chunked,
        run_with(&split::chunks(text, cuts), text, options, true, true),
        "chunked, the lent events differ from the owned ones"
    );
    let parsed = thicket_xml5::parse_with(text, options.clone());
    let doc = &parsed.document;
    let starts: Vec<(usize, bool)> = parsed
        .diagnostics
        .iter()
        .map(|d| (d.span.start, d.code.is_eof()))
        .collect();
    assert!(starts.is_sorted(), "diagnostics out of source order");
    if let Some(cap) = options.limits.max_diagnostics {
        assert!(parsed.diagnostics.len() <= cap);
    }
    let mut parser = Parser::new(options.clone());
    let mut checker = Parser::without_tree(options.clone());
    for c in split::chunks(text, cuts) {
        parser.feed(c);
        checker.feed(c);
    }
    let streamed = parser.finish();
    let checked = checker.finish();
    assert_eq!(doc, &streamed.document, "parse and Parser build different trees");
    assert_eq!(parsed.diagnostics, streamed.diagnostics);
    assert_eq!(parsed.omitted_diagnostics, streamed.omitted_diagnostics);
    assert_eq!(parsed.diagnostics, checked.diagnostics, "without_tree differs");
    assert_eq!(parsed.omitted_diagnostics, checked.omitted_diagnostics);
    for i in 0..doc.len() {
        let id = NodeId::from_index(i);
        assert_eq!(doc.span(id), streamed.document.span(id), "node spans differ");
        let s = doc.span(id).expect("every parsed node has a span");
        assert!(s.start <= s.end && s.end <= text.len());
    }
    assert_eq!(doc.dump(), streamed.document.dump());
    let owned = doc.clone().into_owned();
    assert_eq!(&owned, doc);
    assert_eq!(owned.dump(), doc.dump());
}

fuzz_target!(|data: &[u8]| {
    let (text, cuts) = split::text_and_chunks(data);
    check(&text, &cuts, &Options::default());
    // Small limits, from the text's length, so that they are reached.
    let n = text.len() % 7;
    let mut options = Options::default();
    options.limits = Limits::none()
        .with_max_depth(1 + n)
        .with_max_attributes(n)
        .with_max_name_len(1 + n)
        .with_max_value_len(n)
        .with_max_namespace_declarations(n)
        .with_max_diagnostics(2 * n);
    check(&text, &cuts, &options);
});
