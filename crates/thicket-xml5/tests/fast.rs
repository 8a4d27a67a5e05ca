//! The direct path beside the states (`src/tokenizer/fast.rs`) against the states alone
//! (`Tokenizer::with_fast_paths(false)`): the same events, token for token with spans, on
//! random tag-shaped markup and long runs of special characters, whole and in the same chunks;
//! and the fast tokenizer over a whole input against the one fed a character at a time (which
//! never gives the direct path a whole tag), modulo the splitting of text runs, on the same
//! markup and on the corpus; and `parse` (which takes the direct path's tags and error runs
//! without tokens) against the streaming `Parser` (tokens only).

use proptest::prelude::*;
use thicket_input::Span;
use thicket_xml5::{
    Event, NodeId, Options, Parser, Profile, Token, TokenKind, Tokenizer, parse_with,
};

/// Every event of `chunks` (one chunk: a whole-`&str` tokenizer; more: a streaming one), with
/// the direct path on or off, every string owned.
fn run(chunks: &[&str], profile: Profile, fast: bool) -> Vec<Event<'static>> {
    let options = Options::with_profile(profile);
    let mut out = Vec::new();
    let owned = |e: Event<'_>| match e {
        Event::Token(t) => Event::Token(t.into_owned()),
        Event::Diagnostic(d) => Event::Diagnostic(d),
    };
    if let [whole] = chunks {
        let mut t = Tokenizer::with_options(whole, options).with_fast_paths(fast);
        while let Some(e) = t.next_event() {
            out.push(owned(e));
        }
        return out;
    }
    let mut t = Tokenizer::streaming(options).with_fast_paths(fast);
    for c in chunks {
        t.feed(c);
        while let Some(e) = t.next_event() {
            out.push(owned(e));
        }
    }
    t.finish();
    while let Some(e) = t.next_event() {
        out.push(owned(e));
    }
    out
}

/// Adjacent text tokens merged (a streaming tokenizer hands out the text of a run as far as it
/// has read it when the input runs out).
fn merged(evs: Vec<Event<'static>>) -> Vec<Event<'static>> {
    let mut out: Vec<Event<'static>> = Vec::new();
    for e in evs {
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

fn chars(input: &str) -> Vec<&str> {
    input
        .char_indices()
        .map(|(i, c)| &input[i..i + c.len_utf8()])
        .collect()
}

/// The direct path against the states on `input`: whole, char by char and split in two
/// (`splits`), exactly; and whole against char by char and every split, modulo text splitting.
fn differential(input: &str, splits: bool) -> Result<(), TestCaseError> {
    for profile in [Profile::Draft, Profile::Compatibility] {
        let whole = run(&[input], profile, true);
        prop_assert_eq!(
            &run(&[input], profile, false),
            &whole,
            "whole, states alone"
        );
        let by_char = chars(input);
        let fed = run(&by_char, profile, true);
        prop_assert_eq!(
            &run(&by_char, profile, false),
            &fed,
            "char by char, states alone"
        );
        prop_assert_eq!(
            merged(fed),
            merged(whole.clone()),
            "char by char against whole"
        );
        if splits {
            for cut in (0..=input.len()).filter(|&i| input.is_char_boundary(i)) {
                let pieces = [&input[..cut], &input[cut..]];
                let split = run(&pieces, profile, true);
                prop_assert_eq!(&run(&pieces, profile, false), &split, "split at {}", cut);
                prop_assert_eq!(merged(split), merged(whole.clone()), "split at {}", cut);
            }
        }
        let (tokens, _) = thicket_xml5::tokenize(input, Options::with_profile(profile));
        let from_events: Vec<Token<'static>> = whole
            .iter()
            .filter_map(|e| match e {
                Event::Token(t) => Some(t.clone()),
                Event::Diagnostic(_) => None,
            })
            .collect();
        let tokens: Vec<Token<'static>> = tokens.into_iter().map(Token::into_owned).collect();
        prop_assert_eq!(tokens, from_events, "next_token against next_event");
        for text in [input.to_owned(), format!("<r>{input}</r>")] {
            parse_matches_parser(&text, profile)?;
        }
    }
    Ok(())
}

/// `parse` (the direct path's tags and error runs straight into the tree builder) against the
/// streaming `Parser` (tokens only): the same tree, node spans and diagnostics.
fn parse_matches_parser(input: &str, profile: Profile) -> Result<(), TestCaseError> {
    let options = Options::with_profile(profile);
    let parsed = parse_with(input, options.clone());
    let mut p = Parser::new(options);
    p.feed(input);
    let streamed = p.finish();
    prop_assert_eq!(&parsed.diagnostics, &streamed.diagnostics, "{:?}", input);
    prop_assert_eq!(&parsed.document, &streamed.document, "{:?}", input);
    for i in 0..parsed.document.len() {
        let id = NodeId::from_index(i);
        prop_assert_eq!(parsed.document.span(id), streamed.document.span(id));
    }
    Ok(())
}

/// Tags of every shape: plain ones (which the direct tag path reads in one loop) and odd ones
/// (which it leaves to the states), mixed with text, references, CDATA and comments.
fn tags() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("<a".to_owned()),
        Just("<b:c".to_owned()),
        Just("</a".to_owned()),
        Just("</a>".to_owned()),
        Just("</>".to_owned()),
        Just("<é".to_owned()),
        Just("<a x=\"1\" y='2'>".to_owned()),
        Just("<a x=\"1\" x='2'/>".to_owned()),
        Just("<a\tx = \"v>w\"\n/>".to_owned()),
        Just("<a x y = 'z'>".to_owned()),
        Just(" x=\"1\"".to_owned()),
        Just(" x='2'".to_owned()),
        Just(" y=\"3\"".to_owned()),
        Just(" xmlns:p=\"u\"".to_owned()),
        Just(" z=v".to_owned()),
        Just(" z".to_owned()),
        Just("x\"q\"".to_owned()),
        Just("=".to_owned()),
        Just("\"".to_owned()),
        Just("'".to_owned()),
        Just(":".to_owned()),
        Just("/".to_owned()),
        Just("/>".to_owned()),
        Just(">".to_owned()),
        Just("<".to_owned()),
        Just("&amp;".to_owned()),
        Just("&".to_owned()),
        Just("&lt;".to_owned()),
        Just("&quot;&apos;".to_owned()),
        Just("&gt".to_owned()),
        Just("&apo".to_owned()),
        Just("<!--c-->".to_owned()),
        Just("<![CDATA[d]]>".to_owned()),
        Just("<![CDATA[]]>".to_owned()),
        Just("<?p q?>".to_owned()),
        "[ \t\n\r\x0C\0\x01\u{85}\u{FFFE}\u{FDD0}é日😀a-c]{1,3}",
    ];
    proptest::collection::vec(piece, 0..24).prop_map(|v| v.concat())
}

/// XML declarations, plain ones (which the direct declaration path reads in one loop) and odd
/// ones (which it leaves to the states: a `?`, CR or control in a value, an unquoted value, an
/// unknown name, a declaration cut short), mixed with what may follow.
fn declarations() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just(" ".to_owned()),
        Just("\t\n".to_owned()),
        Just("version".to_owned()),
        Just("encoding".to_owned()),
        Just("standalone".to_owned()),
        Just("versionx".to_owned()),
        Just("=".to_owned()),
        Just(" = ".to_owned()),
        Just("\"1.0\"".to_owned()),
        Just("'UTF-8'".to_owned()),
        Just("\"yes\"".to_owned()),
        Just("\"é日\"".to_owned()),
        Just("\"\"".to_owned()),
        Just("\"a?b\"".to_owned()),
        Just("'\r'".to_owned()),
        Just("\"\u{1}\u{FFFE}\0\"".to_owned()),
        Just("1.0".to_owned()),
        Just("?".to_owned()),
        Just(">".to_owned()),
        Just("?>".to_owned()),
        Just("x".to_owned()),
    ];
    let plain = Just("<?xml version=\"1.0\" encoding='utf-8'\tstandalone=\"no\" ?>".to_owned());
    let built =
        proptest::collection::vec(piece, 0..12).prop_map(|v| format!("<?xml {}", v.concat()));
    (
        prop_oneof![plain, built],
        prop_oneof![Just(""), Just("?>"), Just("?><a/>"), Just("\n<?xml ?>")],
    )
        .prop_map(|(decl, rest)| format!("{decl}{rest}"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn direct_tag_path_matches_states(input in tags()) {
        differential(&input, true)?;
    }

    #[test]
    fn direct_declaration_path_matches_states(input in declarations()) {
        differential(&input, true)?;
    }

    /// Error runs (`<<<<`, `</</`, `< < `, controls and noncharacters) and references in text,
    /// which the direct path takes without state steps, mixed with what ends them: tags, text,
    /// CR, U+0000, the end of a chunk or of the input.
    #[test]
    fn error_runs(
        input in r"(<|</|<<|</<|<:|</:|[ \t\n:>a/\r\x00\x01\x1F\x7F\u{85}\u{9F}\u{FDD0}\u{FFFE}\u{10FFFF}é&#x;0-9]|<a>|&lt;|&#0;|&#x41;|&#65|&#xD800;|&#1114112;|& |&<|&%){0,40}"
    ) {
        differential(&input, true)?;
    }

    /// Long runs (past the word and block tests of the scans) with controls, noncharacters, CR,
    /// tab, form feed and multi-byte characters at any position.
    #[test]
    fn long_runs_with_special_characters(
        input in r#"(<a b="|" c='|'>|<!--|-->|<\?p |\?>|<!\[CDATA\[|\]\]>|</a>|[a-z0-9 .=:/]{1,40}|[\t\n\r\x0C\x00\x01\x7F\u0080\u009F\u00A0é日\uFDD0\uFDEF\uFDF0\uFFFE\uFFFF\U0001FFFE\U0010FFFF😀&<>"']){0,40}"#
    ) {
        differential(&input, false)?;
    }
}

/// The corpus: the direct path against the states over each whole file, and the whole file
/// against the same fed a character at a time (smaller files) or in 5-byte chunks.
#[test]
fn corpus_direct_path_matches_states() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/xml");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("corpus missing, skipped");
        return;
    };
    let mut read = 0;
    for entry in entries.flatten() {
        let Ok(text) = std::fs::read_to_string(entry.path()) else {
            continue;
        };
        if text.len() > 1 << 20 {
            continue;
        }
        read += 1;
        let name = entry.file_name();
        let profile = Profile::Draft;
        let whole = run(&[&text], profile, true);
        assert!(
            run(&[&text], profile, false) == whole,
            "{name:?}: the direct path differs from the states"
        );
        let pieces: Vec<&str> = if text.len() <= 1 << 16 {
            chars(&text)
        } else {
            let mut pieces = Vec::new();
            let mut at = 0;
            while at < text.len() {
                let mut next = (at + 5).min(text.len());
                while !text.is_char_boundary(next) {
                    next += 1;
                }
                pieces.push(&text[at..next]);
                at = next;
            }
            pieces
        };
        assert!(
            merged(run(&pieces, profile, true)) == merged(whole),
            "{name:?}: fed in pieces, the events differ"
        );
    }
    assert!(read > 0, "corpus present but unreadable");
}
