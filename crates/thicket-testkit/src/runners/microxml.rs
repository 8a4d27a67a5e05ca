//! Suite runners for thicket-microxml: the recovery suites (`microxml-er`, its generated
//! differential cases) and the strict MicroXML sets (`microxml-js`, `microxml-java`).
//!
//! Every case is parsed with `Options::upstream()` (the revision the suites were made with),
//! compared as a tree (attributes unordered), checked for validity where the suite says, and fed
//! again in chunks (one character at a time, and split in two at every position for inputs up to
//! 256 bytes): the tokens and diagnostics must not change, and token spans must be in order.

use std::path::Path;

use thicket_microxml::{Diagnostic, ElementRef, NodeRef, Options, Token, Tokenizer, parse_with};

use crate::suites::microxml::{Expectation, MicroCase, Tree, TreeNode, read, to_json};
use crate::{Case, Outcome, SuiteDef, chunks, spans};

/// The suites this dialect runs.
pub fn suites() -> Vec<SuiteDef> {
    vec![
        SuiteDef {
            name: "microxml-er",
            spec: "MicroXML error recovery",
            dir: "microxml-er",
            in_project: false,
            run: |dir| run_file(dir, "tests.rust-safe.json"),
        },
        SuiteDef {
            name: "microxml-er-generated",
            spec: "MicroXML error recovery",
            dir: "microxml-er-generated",
            in_project: false,
            run: |dir| run_file(dir, "cases.json"),
        },
        SuiteDef {
            name: "microxml-strict-js",
            spec: "MicroXML (strict, validity)",
            dir: "microxml-js",
            in_project: false,
            run: |dir| run_file(dir, "tests.json"),
        },
        SuiteDef {
            name: "microxml-strict-java",
            spec: "MicroXML (strict, validity)",
            dir: "microxml-java",
            in_project: false,
            run: |dir| run_file(dir, "tests.json"),
        },
    ]
}

/// The options every suite runs with.
pub fn options() -> Options {
    Options::upstream()
}

fn run_file(dir: &Path, file: &str) -> Result<Vec<Case>, String> {
    let cases = read(&dir.join(file))?;
    Ok(cases
        .iter()
        .enumerate()
        .map(|(i, c)| Case::new(case_name(file, i, c), run_case(c)))
        .collect())
}

fn case_name(file: &str, index: usize, c: &MicroCase) -> String {
    let mut src: String = c.source.escape_debug().collect();
    if src.chars().count() > 48 {
        src = src.chars().take(45).collect::<String>() + "...";
    }
    format!("{file}#{index}: {} {src}", c.id)
}

/// Runs one case.
pub fn run_case(c: &MicroCase) -> Outcome {
    if c.lone_surrogate {
        return Outcome::Skip(
            "lone surrogate in the source or the expected tree (not representable in a Rust String)"
                .into(),
        );
    }
    let (tree, valid) = match &c.expectation {
        Expectation::Nothing => return Outcome::Skip("no expectation upstream".into()),
        Expectation::Invalid => (None, Some(false)),
        Expectation::Tree { tree, valid } => (Some(tree), *valid),
    };
    let parsed = parse_with(&c.source, options());
    if let Some(expected) = tree {
        let expected = &merge_text(expected);
        let actual = to_tree(&parsed.root());
        if &actual != expected {
            return Outcome::Fail(format!(
                "tree: expected {} got {}",
                to_json(expected),
                to_json(&actual)
            ));
        }
    }
    match valid {
        Some(true) if !parsed.diagnostics.is_empty() => {
            return Outcome::Fail(format!(
                "valid MicroXML, but diagnostics: {}",
                describe(&parsed.diagnostics)
            ));
        }
        Some(false) if parsed.diagnostics.is_empty() => {
            return Outcome::Fail("invalid MicroXML, but no diagnostic".into());
        }
        _ => {}
    }
    if let Err(e) = check_chunks(&c.source) {
        return Outcome::Fail(e);
    }
    Outcome::Pass
}

fn describe(ds: &[Diagnostic]) -> String {
    ds.iter()
        .map(|d| format!("{}@{}", d.code, d.span))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The tree in the suites' form.
pub fn to_tree(e: &ElementRef<'_, '_>) -> Tree {
    // Suite trees are shallow; the converted tree is only compared and printed.
    let mut attributes: Vec<(String, String)> = e
        .attributes()
        .map(|(n, v)| (n.to_owned(), v.to_owned()))
        .collect();
    attributes.sort();
    Tree {
        name: e.name().to_owned(),
        attributes,
        children: e
            .children()
            .map(|c| match c {
                NodeRef::Element(e) => TreeNode::Element(to_tree(&e)),
                NodeRef::Text(t) => TreeNode::Text(t.to_owned()),
            })
            .collect(),
    }
}

/// `expected` with adjacent text merged and empty text dropped. The data model's content is a
/// sequence of characters and elements, so where a string ends is not significant; the
/// reference implementation splits text where it removed an end-tag and can leave an empty
/// string, the spec's data model (and our tree) does not.
pub fn merge_text(expected: &Tree) -> Tree {
    let mut children: Vec<TreeNode> = Vec::new();
    for c in &expected.children {
        match c {
            TreeNode::Text(t) if t.is_empty() => {}
            TreeNode::Text(t) => match children.last_mut() {
                Some(TreeNode::Text(prev)) => prev.push_str(t),
                _ => children.push(TreeNode::Text(t.clone())),
            },
            TreeNode::Element(e) => children.push(TreeNode::Element(merge_text(e))),
        }
    }
    Tree {
        name: expected.name.clone(),
        attributes: expected.attributes.clone(),
        children,
    }
}

type Run = (Vec<Token<'static>>, Vec<Diagnostic>);

/// Tokens and sorted diagnostics for `chunks` fed in order.
pub fn tokenize_chunks(chunks: &[&str], options: Options) -> Run {
    let mut t = Tokenizer::new(options);
    let mut out = Vec::new();
    for c in chunks {
        t.feed(c);
        while let Some(tok) = t.next_token() {
            out.push(tok.into_owned());
        }
    }
    t.finish();
    while let Some(tok) = t.next_token() {
        out.push(tok.into_owned());
    }
    let mut ds = t.take_diagnostics();
    ds.sort_by_key(|d| (d.span.start, d.span.end, d.code));
    (out, ds)
}

/// Checks chunk invariance and token spans for `source`.
pub fn check_chunks(source: &str) -> Result<(), String> {
    let whole = tokenize_chunks(&[source], options());
    let token_spans: Vec<_> = whole.0.iter().map(Token::span).collect();
    spans::check_ordered(source, &token_spans).map_err(|e| format!("token spans: {e}"))?;
    let diag_spans: Vec<_> = whole.1.iter().map(|d| d.span).collect();
    spans::check_ordered(source, &diag_spans).map_err(|e| format!("diagnostic spans: {e}"))?;
    for t in &whole.0 {
        if let Token::StartTagOpen { span, .. } | Token::EndTag { span, .. } = t
            && !source[span.start..].starts_with('<')
        {
            return Err(format!("tag span {span:?} does not start at `<`"));
        }
    }
    let compare = |label: &str, chunks: &[&str]| -> Result<(), String> {
        let got = tokenize_chunks(chunks, options());
        if got != whole {
            return Err(format!(
                "chunked ({label}) differs: whole {:?} vs chunked {:?}",
                whole, got
            ));
        }
        Ok(())
    };
    compare("char by char", &chunks::chars(source))?;
    if source.len() <= 256 {
        for [a, b] in chunks::two_way_splits(source) {
            compare(&format!("split at {}", a.len()), &[a, b])?;
        }
    }
    Ok(())
}
