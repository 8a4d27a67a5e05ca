//! `Reader::with_markup_events`: comments, instructions and the DOCTYPE as events, over the
//! suite's inputs, the corpus and a table; the same events however the input is split, and the
//! same errors, elements and text as without the option.

use std::path::PathBuf;

use thicket_input::Span;
use thicket_leafxml::{Error, Event, EventKind, Reader};

type Decoded = (Vec<Event<'static>>, Result<Option<Span>, Error>);

/// The events of `chunks` pushed one after the other, then the end or the error.
fn pushed<'c>(chunks: impl IntoIterator<Item = &'c [u8]>, markup: bool, fast: bool) -> Decoded {
    let mut reader = Reader::push().with_markup_events(markup);
    if !fast {
        reader = reader.without_fast_paths();
    }
    let mut events = Vec::new();
    let take = |reader: &mut Reader, events: &mut Vec<Event<'static>>| loop {
        match reader.next_owned() {
            Ok(Some(e)) => events.push(e),
            Ok(None) => return None,
            Err(e) => return Some(e),
        }
    };
    for chunk in chunks {
        reader.feed(chunk);
        if let Some(e) = take(&mut reader, &mut events) {
            return (events, Err(e));
        }
    }
    reader.finish();
    match take(&mut reader, &mut events) {
        Some(e) => (events, Err(e)),
        None => (events, Ok(reader.trailing())),
    }
}

fn show(d: &Decoded) -> Vec<String> {
    let mut out: Vec<String> =
        d.0.iter()
            .map(|e| format!("{} {}+{}", e.kind, e.span, e.skipped))
            .collect();
    out.push(format!("{:?}", d.1));
    out
}

/// `source` with its CDATA sections taken out.
fn without_cdata(source: &str) -> String {
    let mut rest = source.to_owned();
    while let Some(a) = rest.find("<![CDATA[") {
        let b = rest[a..].find("]]>").map_or(rest.len(), |b| a + b + 3);
        rest.replace_range(a..b, "");
    }
    rest
}

fn is_markup(e: &Event<'_>) -> bool {
    matches!(
        e.kind,
        EventKind::Comment(_) | EventKind::Instruction { .. } | EventKind::Doctype { .. }
    )
}

/// Checks `bytes` with the option on against the option off: the same error (or none), the
/// same starts and ends; no text span holds a comment or instruction (its source, CDATA
/// sections taken out, has no `<`); on an accepted document, what no event covers is padding
/// whitespace (so every comment, instruction and DOCTYPE is an event); and the same events
/// whole, byte by byte (with and without the fast paths) and split in two at every byte (when
/// `every_split`). Returns how many markup events there were.
fn check(bytes: &[u8], every_split: bool) -> usize {
    let on = pushed([bytes], true, true);
    let off = pushed([bytes], false, true);
    let err = |d: &Decoded| d.1.as_ref().err().map(|e| (e.code, e.span));
    assert_eq!(err(&on), err(&off), "{bytes:?}");
    let tags = |d: &Decoded| -> Vec<String> {
        d.0.iter()
            .filter(|e| matches!(e.kind, EventKind::Start { .. } | EventKind::End { .. }))
            .map(|e| format!("{} {}", e.kind, e.span))
            .collect()
    };
    assert_eq!(tags(&on), tags(&off), "{bytes:?}");
    let text = String::from_utf8_lossy(bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes));
    if bytes.starts_with(b"\xEF\xBB\xBF") || std::str::from_utf8(bytes).is_ok() {
        for e in &on.0 {
            let source = &text[e.span.start..e.span.end];
            match &e.kind {
                EventKind::Text(_) => {
                    let rest = without_cdata(source);
                    assert!(!rest.contains('<'), "{source:?} in {bytes:?}");
                }
                EventKind::Comment(c) => assert_eq!(source, format!("<!--{c}-->")),
                EventKind::Instruction(_) => {
                    let (target, _) = e.kind.instruction_target_and_data().unwrap();
                    assert!(source.starts_with(&format!("<?{target}")) && source.ends_with("?>"))
                }
                EventKind::Doctype { .. } => assert!(source.starts_with("<!DOCTYPE")),
                _ => {}
            }
            if on.1.is_ok() {
                // Padding (CDATA sections included): no comment, instruction or DOCTYPE.
                let skipped = without_cdata(&text[e.skipped.start..e.skipped.end]);
                assert!(!skipped.contains('<'), "skipped {skipped:?} in {bytes:?}");
            }
        }
    }
    let want = show(&on);
    for fast in [true, false] {
        assert_eq!(
            show(&pushed(bytes.chunks(1), true, fast)),
            want,
            "{bytes:?}"
        );
    }
    if every_split {
        for i in 0..=bytes.len() {
            let (a, b) = bytes.split_at(i);
            assert_eq!(show(&pushed([a, b], true, true)), want, "split at {i}");
        }
    }
    on.0.iter().filter(|e| is_markup(e)).count()
}

/// Every input of the LeafXML suite (conformance/leafxml), as bytes.
fn suite_inputs() -> Vec<Vec<u8>> {
    let dir = thicket_testkit::project_root().join("conformance/leafxml");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    let mut out = Vec::new();
    for path in paths {
        let file: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for test in file["tests"].as_array().unwrap() {
            if let Some(text) = test["input"].as_str() {
                out.push(text.as_bytes().to_vec());
            } else if let Some(hex) = test["input_hex"].as_str() {
                let hex: String = hex.split_whitespace().collect();
                let bytes = (0..hex.len())
                    .step_by(2)
                    .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
                    .collect();
                out.push(bytes);
            }
        }
    }
    assert!(out.len() > 200, "{}", out.len());
    out
}

#[test]
fn the_suite() {
    let markup: usize = suite_inputs().iter().map(|b| check(b, true)).sum();
    assert!(markup > 30, "{markup}");
}

#[test]
fn the_corpus() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/xml");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("no corpus; skipped");
        return;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        let on = pushed([&bytes[..]], true, true);
        check(&bytes, false);
        for size in [4093, 65_536] {
            assert!(
                show(&pushed(bytes.chunks(size), true, true)) == show(&on),
                "{}",
                path.display()
            );
        }
    }
}

#[test]
fn a_table() {
    let cases: &[(&[u8], &[&str])] = &[
        (
            b"<?xml version='1.0'?>\n<!DOCTYPE r SYSTEM 'x'>\n<!--a--><r>x<!--b-->y<?p  q r?><![CDATA[]]><!--c-->z</r>\n<!--d-->",
            &[
                "instruction xml \"version='1.0'\" 0..21+0..0",
                "doctype r 22..45+21..22",
                "comment \"a\" 46..54+45..46",
                "start r 54..57+54..54",
                "text \"x\" 57..58+57..57",
                "comment \"b\" 58..66+58..58",
                "text \"y\" 66..67+66..66",
                "instruction p \"q r\" 67..77+67..67",
                // The empty CDATA section makes no text: skipped.
                "comment \"c\" 89..97+77..89",
                "text \"z\" 97..98+97..97",
                "end r 98..102+98..98",
                "comment \"d\" 103..111+102..103",
                "Ok(Some(111..111))",
            ],
        ),
        // Stray content around a comment: the error is the spec's, over the whole assembly.
        (
            b"x<!--c-->y<r/>",
            &[
                "Err(Error { code: StrayContent, line: 1, column: 1, byte_offset: 0, span: 0..10, codepoint: None })",
            ],
        ),
        // Padding around a comment before the root: the comment is an event.
        (
            b" <!--c--> <r/>",
            &[
                "comment \"c\" 1..9+0..1",
                "start r 10..14+9..10",
                "end r 14..14+14..14",
                "Ok(Some(14..14))",
            ],
        ),
    ];
    for (bytes, want) in cases {
        let got = show(&pushed([*bytes], true, true));
        assert_eq!(got, *want, "{}", String::from_utf8_lossy(bytes));
        check(bytes, true);
    }
}
