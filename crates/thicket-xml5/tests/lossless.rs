//! Lossless spans and source-ordered diagnostics, on every xml5lib input (both profiles) and
//! every corpus file (`../shared/corpus`, when present): the tokens' spans (`Discarded` ones
//! included) tile the input, whole and chunked; attributes' name and value spans sit inside
//! them; document nodes have spans inside their parents'; the parsers return their diagnostics
//! in source order, the same whole, chunked and without a tree.

use std::path::{Path, PathBuf};

use thicket_input::Span;
use thicket_testkit::runners::xml5::{check_node_spans, check_spans};
use thicket_testkit::suites::xml5lib;
use thicket_testkit::{chunks, spans, suite_root};
use thicket_xml5::{
    Event, NodeId, Options, Parsed, Parser, Profile, Tokenizer, events, parse_with,
};

fn streamed(pieces: &[&str], options: &Options) -> Vec<Event<'static>> {
    let mut t = Tokenizer::streaming(options.clone());
    let mut out = Vec::new();
    for p in pieces {
        t.feed(p);
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

/// The whole parse of `input` against the streaming parsers fed `pieces`: same diagnostics (in
/// source order), node spans and tree; node spans inside their parents.
fn check_parse(input: &str, pieces: &[&str], options: &Options) -> Result<(), String> {
    let parsed = parse_with(input, options.clone());
    let starts: Vec<Span> = parsed.diagnostics.iter().map(|d| d.span).collect();
    spans::check_ordered(input, &starts).map_err(|e| format!("diagnostics: {e}"))?;
    check_node_spans(input, &parsed.document)?;
    let mut p = Parser::new(options.clone());
    let mut checker = Parser::without_tree(options.clone());
    for piece in pieces {
        p.feed(piece);
        checker.feed(piece);
    }
    let streamed = p.finish();
    let checked = checker.finish();
    if streamed.diagnostics != parsed.diagnostics {
        return Err("the streaming parser's diagnostics differ".into());
    }
    if checked.diagnostics != parsed.diagnostics {
        return Err("the diagnostics without a tree differ".into());
    }
    if streamed.document != parsed.document {
        return Err("the streaming parser's tree differs".into());
    }
    let doc = &parsed.document;
    if let Some(i) = (0..doc.len())
        .map(NodeId::from_index)
        .find(|&id| doc.span(id) != streamed.document.span(id))
    {
        return Err(format!("node {i:?}'s span differs when streamed"));
    }
    Ok(())
}

fn suite_dir(name: &str) -> Option<PathBuf> {
    let dir = suite_root().join("xml5lib-tests").join(name);
    dir.is_dir().then_some(dir)
}

#[test]
fn xml5lib_tokenizer_inputs_tile_in_both_profiles() {
    let Some(dir) = suite_dir("tokenizer") else {
        eprintln!("xml5lib tokenizer suite missing, skipped");
        return;
    };
    let tests = xml5lib::read_tokenizer_dir(&dir).expect("suite reads");
    assert!(tests.len() > 5000);
    for profile in [Profile::Draft, Profile::Compatibility] {
        let options = Options::with_profile(profile);
        for test in &tests {
            let input = &test.input;
            let whole = events(input, options.clone());
            check_spans(input, &whole)
                .unwrap_or_else(|e| panic!("{} ({profile:?}): {e}", test.name()));
            let by_char = streamed(&chunks::chars(input), &options);
            check_spans(input, &by_char)
                .unwrap_or_else(|e| panic!("{} ({profile:?}) char by char: {e}", test.name()));
            check_parse(input, &chunks::chars(input), &options)
                .unwrap_or_else(|e| panic!("{} ({profile:?}): {e}", test.name()));
        }
    }
}

#[test]
fn xml5lib_tree_inputs_have_node_spans_and_ordered_diagnostics() {
    let Some(dir) = suite_dir("tree-construction") else {
        eprintln!("xml5lib tree suite missing, skipped");
        return;
    };
    for test in xml5lib::read_tree_dir(&dir).expect("suite reads") {
        for profile in [Profile::Draft, Profile::Compatibility] {
            let options = Options::with_profile(profile);
            check_parse(&test.data, &chunks::chars(&test.data), &options)
                .unwrap_or_else(|e| panic!("{} ({profile:?}): {e}", test.name()));
        }
    }
}

fn corpus_files(dir: &str) -> Vec<(PathBuf, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/corpus")
        .join(dir);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut files: Vec<(PathBuf, String)> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let text = std::fs::read(e.path()).ok()?;
            Some((e.path(), String::from_utf8_lossy(&text).into_owned()))
        })
        .collect();
    files.sort();
    files
}

/// Every corpus file (the HTML ones too: hostile input for XML5), in both profiles: tiling
/// whole and in 4093-byte chunks, parse against the streaming parsers in the same chunks.
#[test]
fn corpus_files_tile_and_order_their_diagnostics() {
    let mut files = corpus_files("xml");
    files.extend(corpus_files("html"));
    if files.is_empty() {
        eprintln!("corpus missing, skipped");
        return;
    }
    for (path, text) in &files {
        let cuts: Vec<usize> = (1..text.len() / 4093 + 1).map(|i| i * 4093).collect();
        let pieces = chunks::split_at_positions(text, &cuts);
        for profile in [Profile::Draft, Profile::Compatibility] {
            let options = Options::with_profile(profile);
            let whole = events(text, options.clone());
            check_spans(text, &whole).unwrap_or_else(|e| panic!("{path:?} ({profile:?}): {e}"));
            let chunked = streamed(&pieces, &options);
            check_spans(text, &chunked)
                .unwrap_or_else(|e| panic!("{path:?} ({profile:?}) chunked: {e}"));
            check_parse(text, &pieces, &options)
                .unwrap_or_else(|e| panic!("{path:?} ({profile:?}): {e}"));
        }
    }
}

/// What the draft reads into no token is accounted for: a BOM is `Discarded`; CDATA markup is
/// inside the span of its text run (as references are), or `Discarded` with no text around it;
/// a `]` or `]]` dropped at the end of the input in a CDATA section is in the run's span.
#[test]
fn dropped_input_is_accounted_for() {
    let kinds = |input: &str| -> Vec<String> {
        events(input, Options::default())
            .into_iter()
            .filter_map(|e| match e {
                Event::Token(t) => Some(format!("{:?}@{}", t.kind, t.span)),
                Event::Diagnostic(_) => None,
            })
            .collect()
    };
    assert_eq!(
        kinds("\u{FEFF}<a/>"),
        [
            "Discarded@0..3",
            "EmptyTag { name: \"a\", attributes: [] }@3..7",
            "Eof@7..7"
        ]
    );
    assert_eq!(kinds("<a>x<![CDATA[y]]>z</a>")[1], "Text(\"xyz\")@3..18");
    assert_eq!(kinds("<a><![CDATA[y]]></a>")[1], "Text(\"y\")@3..16");
    assert_eq!(kinds("<a><![CDATA[]]></a>")[1], "Discarded@3..15");
    assert_eq!(
        kinds("<a><![CDATA[]]><![CDATA[]]>\n</a>")[1],
        "Text(\"\\n\")@3..28"
    );
    assert_eq!(
        kinds("<a><![CDATA[y]]")[1..],
        ["Text(\"y\")@3..15", "Eof@15..15"]
    );
    assert_eq!(
        kinds("<a><![CDATA[]")[1..],
        ["Discarded@3..13", "Eof@13..13"]
    );
    // The tree's text node has the run's span.
    let input = "<a>x<![CDATA[y]]>z</a>";
    let Parsed { document, .. } = parse_with(input, Options::default());
    let a = document.root_element().expect("a root");
    let text = document.children(a)[0];
    assert_eq!(document.text_content(a), "xyz");
    assert_eq!(document.range(text), Some(3..18));
    assert_eq!(document.range(a), Some(0..input.len()));
}
