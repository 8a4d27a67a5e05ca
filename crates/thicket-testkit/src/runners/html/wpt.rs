//! `wpt-processing-instructions`: the tokenizer-visible outcome of each test of WPT's
//! `processing-instructions.dat` (a tree-construction file; Thicket has no tree builder). The
//! comments and processing instructions of the expected document, in document order, must be
//! the comment and processing instruction tokens, in token order, of the tokenizer run with the
//! tag-name switching mode (`Options::switch_by_tag_name`, which stands in for the tree
//! builder's switches to RCDATA, RAWTEXT and script data) and the test's scripting flag (both
//! values when the test has neither `#script-on` nor `#script-off`). Each input is fed whole,
//! one character at a time and split at every position; spans must tile the input and
//! diagnostics be in source order in every run. The file's `#errors` sections are empty
//! upstream (see SOURCE.txt there), so errors are not compared.

use std::path::Path;

use thicket_html::{Options, Token, Tokenizer};
use thicket_input::Span;

use super::same_however_split;
use crate::suites::html5lib_tree::{self, MarkupNode, TreeTest};
use crate::{Case, Outcome, spans};

/// The file the suite reads, in the suite's folder.
const FILE: &str = "processing-instructions.dat";

/// Runs every test of [`FILE`].
pub(super) fn run(dir: &Path) -> Result<Vec<Case>, String> {
    let tests = html5lib_tree::read_file(&dir.join(FILE))?;
    if tests.is_empty() {
        return Err(format!("{FILE}: no tests"));
    }
    Ok(tests
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let name = format!("{FILE}#{i}: {}", t.data.escape_debug());
            let outcome = match &t.fragment {
                Some(_) => Outcome::Skip("fragment tests need a tree builder's context".into()),
                None => run_test(t),
            };
            Case::new(name, outcome)
        })
        .collect())
}

fn run_test(test: &TreeTest) -> Outcome {
    let expected = test.markup_nodes();
    let modes: &[bool] = match test.scripting {
        Some(on) if on => &[true],
        Some(_) => &[false],
        None => &[false, true],
    };
    for &scripting in modes {
        let input = test.data.as_str();
        match same_however_split(input, |chunks| markup(input, chunks, scripting)) {
            Ok(actual) if actual == expected => {}
            Ok(actual) => {
                return Outcome::Fail(format!(
                    "scripting {scripting}: comments and processing instructions differ\n  \
                     expected: {expected:?}\n  actual:   {actual:?}"
                ));
            }
            Err(e) => return Outcome::Fail(format!("scripting {scripting}: {e}")),
        }
    }
    Outcome::Pass
}

/// The comment and processing instruction tokens of `chunks` (whose concatenation is `input`),
/// after checking the spans and the order of the diagnostics.
fn markup(input: &str, chunks: &[&str], scripting: bool) -> Result<Vec<MarkupNode>, String> {
    let mut tok = Tokenizer::with_options(Options {
        switch_by_tag_name: true,
        scripting,
        ..Options::default()
    });
    let mut nodes = Vec::new();
    let mut seen: Vec<Span> = Vec::new();
    let mut eof = false;
    let mut pull = |tok: &mut Tokenizer| {
        while let Some(t) = tok.next_token() {
            seen.push(t.span());
            match t {
                Token::Comment { data, .. } => nodes.push(MarkupNode::Comment(data.into_owned())),
                Token::ProcessingInstruction { target, data, .. } => {
                    nodes.push(MarkupNode::ProcessingInstruction {
                        target: target.into_owned(),
                        data: data.into_owned(),
                    });
                }
                Token::Eof { .. } => eof = true,
                _ => {}
            }
        }
    };
    for c in chunks {
        tok.feed(c);
        pull(&mut tok);
    }
    tok.finish();
    pull(&mut tok);
    if !eof {
        return Err("no Eof token".into());
    }
    spans::check_tiling(input, &seen)?;
    let errors: Vec<Span> = tok.diagnostics().iter().map(|d| d.span).collect();
    spans::check_ordered(input, &errors).map_err(|e| format!("diagnostics: {e}"))?;
    Ok(nodes)
}
