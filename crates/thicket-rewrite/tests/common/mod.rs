//! Inputs shared by the tests: the corpus and the suites' inputs.

#![allow(dead_code)]

use std::path::PathBuf;

use thicket_rewrite::{Dialect, Rewriter, Settings};

/// `(name, text)` of every corpus file under `../shared/corpus/<sub>`.
pub fn corpus(sub: &str) -> Vec<(String, String)> {
    let dir = thicket_testkit::project_root()
        .join("../shared/corpus")
        .join(sub);
    let mut out = Vec::new();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    for p in paths {
        let bytes = std::fs::read(&p).unwrap();
        let text = String::from_utf8(bytes).expect("the corpus is UTF-8");
        out.push((p.file_name().unwrap().to_string_lossy().into_owned(), text));
    }
    assert!(!out.is_empty());
    out
}

/// The inputs of the html5lib tokenizer tests.
pub fn html_suite_inputs() -> Vec<String> {
    let dir = thicket_testkit::suite_root().join("html5lib-tests/tokenizer");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "test") {
            let file = thicket_testkit::suites::html5lib::read_file(&path).unwrap();
            out.extend(file.tests.into_iter().filter_map(|t| t.input));
        }
    }
    assert!(out.len() > 1000, "{}", out.len());
    out
}

/// The inputs of the xml5lib tokenizer and tree-construction tests.
pub fn xml5_suite_inputs() -> Vec<String> {
    let root = thicket_testkit::suite_root().join("xml5lib-tests");
    let mut out: Vec<String> =
        thicket_testkit::suites::xml5lib::read_tokenizer_dir(&root.join("tokenizer"))
            .unwrap()
            .into_iter()
            .map(|t| t.input)
            .collect();
    out.extend(
        thicket_testkit::suites::xml5lib::read_tree_dir(&root.join("tree-construction"))
            .unwrap()
            .into_iter()
            .map(|t| t.data),
    );
    assert!(out.len() > 100, "{}", out.len());
    out
}

/// Settings with a no-op handler on every element, end tag, text, comment, doctype, processing
/// instruction and the document end, so every token goes through the handler path.
pub fn noop_everywhere<'h>() -> Settings<'h> {
    Settings::new()
        .on_element("*", |e| {
            let _ = e.attribute("id");
            e.on_end_tag(|t| {
                let _ = t.name();
            });
        })
        .unwrap()
        .on_text(|t| {
            let _ = t.kind();
        })
        .on_comment(|_| {})
        .on_doctype(|_| {})
        .on_processing_instruction(|_| {})
        .on_end(|_| {})
}

/// Rewrites `input` fed as text in chunks of `chunk` bytes (cut at char boundaries).
pub fn rewrite_chunked(
    input: &str,
    dialect: Dialect,
    settings: Settings<'_>,
    chunk: usize,
) -> String {
    let mut out = Vec::new();
    let mut r = Rewriter::new(dialect, settings, |b: &[u8]| out.extend_from_slice(b));
    let mut rest = input;
    while !rest.is_empty() {
        let mut cut = chunk.min(rest.len());
        while !rest.is_char_boundary(cut) {
            cut += 1;
        }
        r.feed_str(&rest[..cut]).unwrap();
        rest = &rest[cut..];
    }
    let _ = r.finish().unwrap();
    String::from_utf8(out).unwrap()
}

/// Rewrites `input` fed as bytes in chunks of `chunk` bytes; `None` when the sniffed encoding
/// is not UTF-8 (a `<meta charset>` naming another one).
pub fn rewrite_bytes(
    input: &[u8],
    dialect: Dialect,
    settings: Settings<'_>,
    chunk: usize,
) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut r = Rewriter::new(dialect, settings, |b: &[u8]| out.extend_from_slice(b));
    for piece in input.chunks(chunk.max(1)) {
        if let Err(e) = r.feed(piece) {
            assert_eq!(e.code.as_str(), "unsupported-encoding", "{e}");
            return None;
        }
    }
    match r.finish() {
        Ok(_) => Some(out),
        Err(e) => {
            assert_eq!(e.code.as_str(), "unsupported-encoding", "{e}");
            None
        }
    }
}
