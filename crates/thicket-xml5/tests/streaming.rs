//! Chunk invariance and span invariants on random markup-heavy input, in both profiles.

use proptest::prelude::*;
use thicket_input::Span;
use thicket_xml5::{Event, Options, Profile, Token, TokenKind, Tokenizer, events};

/// Events with adjacent text merged and every string owned, for comparison.
fn normalize(evs: Vec<Event<'_>>) -> Vec<Event<'static>> {
    let mut out: Vec<Event<'static>> = Vec::new();
    for e in evs {
        let e = match e {
            Event::Token(t) => Event::Token(t.into_owned()),
            Event::Diagnostic(d) => Event::Diagnostic(d),
        };
        if let (
            Some(Event::Token(Token {
                kind: TokenKind::Text(prev),
                span: prev_span,
            })),
            Event::Token(Token {
                kind: TokenKind::Text(next),
                span,
            }),
        ) = (out.last_mut(), &e)
        {
            prev.to_mut().push_str(next);
            *prev_span = Span::new(prev_span.start, span.end);
            continue;
        }
        out.push(e);
    }
    out
}

fn streamed(chunks: &[&str], profile: Profile) -> Vec<Event<'static>> {
    let mut t = Tokenizer::streaming(Options::with_profile(profile));
    let mut out = Vec::new();
    for c in chunks {
        t.feed(c);
        while let Some(e) = t.next_event() {
            out.push(e);
        }
    }
    t.finish();
    while let Some(e) = t.next_event() {
        out.push(e);
    }
    out
}

fn markup() -> impl Strategy<Value = String> {
    "([<>/?!=&;:'\" \t\r\na-cxX#0-9\\-\\[\\]\u{0}\u{1}é]|xml|<?xml |version=|'1.0'|<!DOCTYPE|PUBLIC|<!--|-->|<!\\[CDATA\\[|\\]\\]>|&amp|&#x|&not|&notin;|&bogus;){0,30}"
}

fn check(input: &str, profile: Profile) -> Result<(), TestCaseError> {
    let whole = normalize(events(input, Options::with_profile(profile)));
    let by_char: Vec<&str> = input
        .char_indices()
        .map(|(i, c)| &input[i..i + c.len_utf8()])
        .collect();
    prop_assert_eq!(
        &normalize(streamed(&by_char, profile)),
        &whole,
        "char by char"
    );
    for cut in (0..=input.len()).filter(|&i| input.is_char_boundary(i)) {
        let split = normalize(streamed(&[&input[..cut], &input[cut..]], profile));
        prop_assert_eq!(&split, &whole, "split at {}", cut);
    }
    // Spans: in bounds, on char boundaries; token starts never decrease; tags start at `<`.
    let mut last = 0;
    for e in &whole {
        let span = match e {
            Event::Token(t) => {
                prop_assert!(t.span.start >= last, "{:?} starts before {}", t, last);
                last = t.span.start;
                if matches!(
                    t.kind,
                    TokenKind::StartTag { .. }
                        | TokenKind::EndTag { .. }
                        | TokenKind::EmptyTag { .. }
                ) {
                    prop_assert!(input[t.span.start..].starts_with('<'));
                }
                t.span
            }
            Event::Diagnostic(d) => d.span,
        };
        prop_assert!(span.start <= span.end && span.end <= input.len());
        prop_assert!(input.is_char_boundary(span.start) && input.is_char_boundary(span.end));
    }
    let ends_with_eof = matches!(
        whole.last(),
        Some(Event::Token(Token {
            kind: TokenKind::Eof,
            ..
        }))
    );
    prop_assert!(ends_with_eof, "no end-of-file token");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn chunk_invariant_draft(input in markup()) {
        check(&input, Profile::Draft)?;
    }

    #[test]
    fn chunk_invariant_compatibility(input in markup()) {
        check(&input, Profile::Compatibility)?;
    }

    /// Any text at all: both profiles tokenize it chunk-invariantly and build a tree.
    #[test]
    fn any_text(input in ".{0,40}") {
        for profile in [Profile::Draft, Profile::Compatibility] {
            check(&input, profile)?;
            let thicket_xml5::Parsed { document: doc, .. } = thicket_xml5::parse_with(&input, Options::with_profile(profile));
            let _ = thicket_xml5::serialize(&doc);
        }
    }
}

#[test]
fn borrowed_where_unchanged() {
    let input = "<a b='c'>text<!--x--><?p d?></a>";
    let (tokens, _) = thicket_xml5::tokenize(input, Options::default());
    for t in &tokens {
        match &t.kind {
            TokenKind::StartTag { name, attributes } => {
                assert!(matches!(name, std::borrow::Cow::Borrowed(_)));
                assert!(matches!(attributes[0].value, std::borrow::Cow::Borrowed(_)));
            }
            TokenKind::Text(s) | TokenKind::Comment(s) => {
                assert!(matches!(s, std::borrow::Cow::Borrowed(_)), "{s:?}")
            }
            _ => {}
        }
    }
}

#[test]
fn duplicate_attributes_on_tags_with_many_attributes() {
    let mut input = String::from("<a");
    for i in 0..50 {
        input.push_str(&format!(" n{i}='{i}'"));
    }
    input.push_str(" n3='x' n45='y' n50='z'/>");
    let (tokens, diagnostics) = thicket_xml5::tokenize(&input, Options::default());
    let TokenKind::EmptyTag { attributes, .. } = &tokens[0].kind else {
        panic!("{:?}", tokens[0]);
    };
    assert_eq!(attributes.len(), 51);
    assert_eq!(attributes[3].value, "3");
    assert_eq!(attributes[45].value, "45");
    assert_eq!(attributes[50].name, "n50");
    assert_eq!(diagnostics.len(), 2);
    assert!(
        diagnostics
            .iter()
            .all(|d| d.code.as_str() == "duplicate-attribute")
    );
}

/// The events a streaming tokenizer gives for what it has been fed so far.
fn pending(t: &mut Tokenizer<'static>) -> Vec<Event<'static>> {
    let mut out = Vec::new();
    while let Some(e) = t.next_event() {
        out.push(match e {
            Event::Token(t) => Event::Token(t.into_owned()),
            Event::Diagnostic(d) => Event::Diagnostic(d),
        });
    }
    out
}

fn text(s: &str, start: usize, end: usize) -> Event<'static> {
    Event::Token(Token {
        kind: TokenKind::Text(s.to_owned().into()),
        span: Span::new(start, end),
    })
}

/// Text is handed out as soon as it is certain (the per-position rule of the streaming notes):
/// before a `<` that may start a tag, before a reference that may still grow, before a CR
/// that may start a CR LF; and the run goes on in the next token.
#[test]
fn text_is_emitted_as_soon_as_it_is_certain() {
    for profile in [Profile::Draft, Profile::Compatibility] {
        let mut t = Tokenizer::streaming(Options::with_profile(profile));
        t.feed("abc<");
        assert_eq!(pending(&mut t), [text("abc", 0, 3)]);
        t.feed("b>x &am");
        let got = pending(&mut t);
        assert!(matches!(
            &got[0],
            Event::Token(Token {
                kind: TokenKind::StartTag { .. },
                ..
            })
        ));
        assert_eq!(got[1..], [text("x ", 6, 8)]);
        t.feed("p; y\r");
        assert_eq!(pending(&mut t), [text("& y", 8, 15)]);
        t.feed("\nz");
        assert_eq!(pending(&mut t), [text("\nz", 15, 18)]);
        t.finish();
        let got = pending(&mut t);
        assert!(matches!(
            &got[..],
            [Event::Token(Token {
                kind: TokenKind::Eof,
                ..
            })]
        ));
    }
    // A run with only CDATA markup waits for text: no empty token, and `Discarded` stays for
    // markup with no text around it.
    let mut t = Tokenizer::streaming(Options::default());
    t.feed("<a><![CDATA[");
    let got = pending(&mut t);
    assert_eq!(got.len(), 1, "{got:?}");
    t.feed("]]></a>");
    let got = pending(&mut t);
    assert!(
        matches!(&got[0], Event::Token(Token { kind: TokenKind::Discarded, span }) if *span == Span::new(3, 15))
    );
    // Text and then CDATA markup cut by a chunk end: the last piece has no text but the span.
    let mut t = Tokenizer::streaming(Options::default());
    t.feed("<a>x<![CDATA[y]");
    let got = pending(&mut t);
    assert_eq!(got[1..], [text("xy", 3, 14)]);
    t.feed("]></a>");
    let got = pending(&mut t);
    assert_eq!(got[0], text("", 14, 17));
}

/// 8 MiB of text inside `<r>`, fed in 64 KiB chunks: nearly all of it comes out before
/// `finish`, a piece a chunk, and the parsers see the same text.
#[test]
fn a_long_text_run_streams() {
    let line = "Lorem ipsum dolor sit amet &amp; more\r\n";
    let chunk = line.repeat((1 << 16) / line.len());
    let chunks = (8 << 20) / chunk.len();
    let mut t = Tokenizer::streaming(Options::default());
    t.feed("<r>");
    let mut before = 0;
    let mut pieces = 0;
    for _ in 0..chunks {
        t.feed(&chunk);
        for e in pending(&mut t) {
            if let Event::Token(Token {
                kind: TokenKind::Text(s),
                ..
            }) = e
            {
                before += s.len();
                pieces += 1;
            }
        }
    }
    // Each line loses 4 bytes to `&amp;` and 1 to CR LF.
    let total = chunks * (chunk.len() / line.len()) * (line.len() - 5);
    assert!(
        before + 64 >= total,
        "{before} of {total} bytes before finish"
    );
    assert!(pieces >= chunks - 1, "{pieces} pieces for {chunks} chunks");
}
