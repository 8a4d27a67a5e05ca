//! Suite runners for thicket-html: the html5lib tokenizer tests, read with the pre-2026 rule for
//! `<?` (`html5lib-tokenizer`) and with the 2026 processing instructions (`html5lib-tokenizer-pi`);
//! Thicket's processing instruction tokenizer tests (`html-pi-tokenizer`); and the
//! tokenizer-visible outcome of WPT's processing instruction tree tests
//! (`wpt-processing-instructions`, in `runners/html/wpt.rs`).
//!
//! Every test runs once per initial state. A run passes only if the tokens and the errors (code,
//! line, column, in order) match the expectations when the input is fed whole, when it is fed one
//! character at a time, when it is split in two at every position (inputs up to [`SPLIT_LIMIT`]
//! characters) and in three at every pair of positions (up to [`THREE_WAY_LIMIT`]); if the
//! token spans tile the input in each of those runs; and if the diagnostics are in source order.

use std::fmt::Debug;
use std::path::Path;

use thicket_html::{Options, State, Token, Tokenizer};
use thicket_input::{LineIndex, Span};

use crate::suites::html5lib::{self, ExpectedError, ExpectedToken, TokenizerTest};
use crate::{Case, Outcome, SuiteDef, chunks, spans};

mod wpt;

/// Inputs up to this many characters are also split in two at every position.
pub const SPLIT_LIMIT: usize = 200;

/// Inputs up to this many characters are also split in three at every pair of positions.
pub const THREE_WAY_LIMIT: usize = 16;

/// The suites this dialect runs.
pub fn suites() -> Vec<SuiteDef> {
    vec![
        SuiteDef {
            name: "html5lib-tokenizer",
            spec: "WHATWG HTML tokenization",
            dir: "html5lib-tests/tokenizer",
            in_project: false,
            run: run_html5lib_legacy,
        },
        SuiteDef {
            name: "html5lib-tokenizer-pi",
            spec: "WHATWG HTML tokenization, 2026 processing instructions",
            dir: "html5lib-tests/tokenizer",
            in_project: false,
            run: run_html5lib_2026,
        },
        SuiteDef {
            name: "html-pi-tokenizer",
            spec: "WHATWG HTML processing instructions (2026)",
            dir: "wpt-processing-instructions",
            in_project: false,
            run: run_pi_tokenizer,
        },
        SuiteDef {
            name: "wpt-processing-instructions",
            spec: "WHATWG HTML processing instructions (2026)",
            dir: "wpt-processing-instructions",
            in_project: false,
            run: wpt::run,
        },
    ]
}

/// html5lib-tests with `Options::legacy_processing_instructions` (the suite predates 2026).
fn run_html5lib_legacy(dir: &Path) -> Result<Vec<Case>, String> {
    run_tokenizer_files(dir, |_| true, true)
}

/// html5lib-tests with the 2026 processing instructions (the library default).
fn run_html5lib_2026(dir: &Path) -> Result<Vec<Case>, String> {
    run_tokenizer_files(dir, |_| true, false)
}

/// `tokenizer-pi.test`, with the 2026 processing instructions.
fn run_pi_tokenizer(dir: &Path) -> Result<Vec<Case>, String> {
    let cases = run_tokenizer_files(dir, |name| name == "tokenizer-pi.test", false)?;
    if cases.is_empty() {
        return Err(format!("no tokenizer-pi.test in {}", dir.display()));
    }
    Ok(cases)
}

/// Runs every `.test` file of `dir` whose name `wanted` accepts.
fn run_tokenizer_files(
    dir: &Path,
    wanted: fn(&str) -> bool,
    legacy_pi: bool,
) -> Result<Vec<Case>, String> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "test"))
        .filter(|p| p.file_name().is_some_and(|n| wanted(&n.to_string_lossy())))
        .collect();
    files.sort();
    let mut cases = Vec::new();
    for path in files {
        let file_name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let file = html5lib::read_file(&path)?;
        for (i, test) in file.tests.iter().enumerate() {
            let several = test.initial_states.len() > 1;
            for state_name in &test.initial_states {
                let name = if several {
                    format!("{file_name}#{i}: {} [{state_name}]", test.description)
                } else {
                    format!("{file_name}#{i}: {}", test.description)
                };
                let outcome = if file.xml_violation {
                    Outcome::Skip(
                        "xmlViolationTests describe html5lib's XML-coercing mode, not the standard's tokenizer"
                            .into(),
                    )
                } else {
                    run_test(test, state_name, legacy_pi)
                };
                cases.push(Case::new(name, outcome));
            }
        }
    }
    Ok(cases)
}

/// What one run produced, normalized for comparison.
#[derive(Debug, PartialEq, Eq)]
struct RunResult {
    tokens: Vec<ExpectedToken>,
    errors: Vec<ExpectedError>,
}

/// Runs `run` on `input` fed whole, one character at a time, split in two at every position
/// (up to [`SPLIT_LIMIT`] characters) and in three at every pair of positions (up to
/// [`THREE_WAY_LIMIT`]); returns the whole run's result when every run gives the same.
fn same_however_split<R: PartialEq + Debug>(
    input: &str,
    run: impl Fn(&[&str]) -> Result<R, String>,
) -> Result<R, String> {
    let whole = run(&[input]).map_err(|e| format!("whole input: {e}"))?;
    let by_char = chunks::chars(input);
    match run(&by_char) {
        Ok(r) if r == whole => {}
        Ok(r) => return Err(format!("fed char by char: {r:?}")),
        Err(e) => return Err(format!("fed char by char: {e}")),
    }
    if by_char.len() <= SPLIT_LIMIT {
        for [a, b] in chunks::two_way_splits(input) {
            match run(&[a, b]) {
                Ok(r) if r == whole => {}
                Ok(r) => return Err(format!("split at {}: {r:?}", a.len())),
                Err(e) => return Err(format!("split at {}: {e}", a.len())),
            }
        }
    }
    if by_char.len() <= THREE_WAY_LIMIT {
        let bounds: Vec<usize> = (0..=input.len())
            .filter(|&i| input.is_char_boundary(i))
            .collect();
        for (k, &i) in bounds.iter().enumerate() {
            for &j in &bounds[k..] {
                let parts = [&input[..i], &input[i..j], &input[j..]];
                match run(&parts) {
                    Ok(r) if r == whole => {}
                    Ok(r) => return Err(format!("split at {i} and {j}: {r:?}")),
                    Err(e) => return Err(format!("split at {i} and {j}: {e}")),
                }
            }
        }
    }
    Ok(whole)
}

/// Runs one test in one initial state, fed whole, char by char and split in two and three;
/// `legacy_pi` sets `Options::legacy_processing_instructions`.
pub fn run_test(test: &TokenizerTest, state_name: &str, legacy_pi: bool) -> Outcome {
    let (Some(input), Some(expected)) = (&test.input, &test.output) else {
        return Outcome::Skip("input holds a lone surrogate, which a Rust &str cannot hold".into());
    };
    let Some(state) = State::from_html5lib_name(state_name) else {
        return Outcome::Fail(format!("unknown initial state {state_name:?}"));
    };
    let index = LineIndex::new(input);
    let options = Options {
        initial_state: Some(state),
        last_start_tag: test.last_start_tag.clone(),
        legacy_processing_instructions: legacy_pi,
        ..Options::default()
    };
    let whole = match same_however_split(input, |chunks| {
        run_chunks(input, &index, chunks, options.clone())
    }) {
        Ok(r) => r,
        Err(e) => return Outcome::Fail(e),
    };
    if &whole.tokens != expected {
        return Outcome::Fail(format!(
            "tokens differ\n  expected: {expected:?}\n  actual:   {:?}",
            whole.tokens
        ));
    }
    if whole.errors != test.errors {
        return Outcome::Fail(format!(
            "errors differ\n  expected: {:?}\n  actual:   {:?}",
            test.errors, whole.errors
        ));
    }
    Outcome::Pass
}

/// Tokenizes `chunks` (whose concatenation is `input`), pulling tokens after every feed, checks
/// that the spans tile the input, and normalizes the result.
fn run_chunks(
    input: &str,
    index: &LineIndex,
    chunks: &[&str],
    options: Options,
) -> Result<RunResult, String> {
    let mut tok = Tokenizer::with_options(options);
    let mut tokens = Vec::new();
    let mut spans_seen: Vec<Span> = Vec::new();
    let mut saw_eof = false;
    let mut collect = |tok: &mut Tokenizer, tokens: &mut Vec<ExpectedToken>| {
        while let Some(t) = tok.next_token() {
            spans_seen.push(t.span());
            if let Token::Eof { .. } = t {
                saw_eof = true;
            }
            if let Some(e) = normalize(t) {
                tokens.push(e);
            }
        }
    };
    for c in chunks {
        tok.feed(c);
        collect(&mut tok, &mut tokens);
    }
    tok.finish();
    collect(&mut tok, &mut tokens);
    if !saw_eof {
        return Err("no Eof token".into());
    }
    spans::check_tiling(input, &spans_seen)?;
    let error_spans: Vec<Span> = tok.diagnostics().iter().map(|d| d.span).collect();
    spans::check_ordered(input, &error_spans).map_err(|e| format!("diagnostics: {e}"))?;
    let errors = tok
        .diagnostics()
        .iter()
        .map(|d| {
            let lc = index.line_col(input, d.span.start);
            // html5lib counts columns in UTF-16 code units (a JavaScript heritage): an astral
            // character counts twice.
            let line_start = index.line_start(lc.line).unwrap_or(0);
            let col = input
                .get(line_start..d.span.start.min(input.len()))
                .map_or(lc.column, |s| s.encode_utf16().count() + 1);
            ExpectedError {
                code: d.code.as_str().to_owned(),
                line: lc.line,
                col,
            }
        })
        .collect();
    Ok(RunResult {
        tokens: html5lib::coalesce(tokens),
        errors,
    })
}

fn normalize(t: Token<'_>) -> Option<ExpectedToken> {
    Some(match t {
        Token::Doctype(d) => ExpectedToken::Doctype {
            name: d.name.map(|s| s.into_owned()),
            public_id: d.public_id.map(|s| s.into_owned()),
            system_id: d.system_id.map(|s| s.into_owned()),
            correct: !d.force_quirks,
        },
        Token::StartTag(t) => {
            let mut attrs: Vec<(String, String)> = t
                .attributes
                .into_iter()
                .map(|a| (a.name.into_owned(), a.value.into_owned()))
                .collect();
            attrs.sort();
            ExpectedToken::StartTag {
                name: t.name.into_owned(),
                attrs,
                self_closing: t.self_closing,
            }
        }
        Token::EndTag(t) => ExpectedToken::EndTag {
            name: t.name.into_owned(),
        },
        Token::Comment { data, .. } => ExpectedToken::Comment(data.into_owned()),
        Token::ProcessingInstruction { target, data, .. } => ExpectedToken::ProcessingInstruction {
            target: target.into_owned(),
            data: data.into_owned(),
        },
        Token::Text { text, .. } => ExpectedToken::Character(text.into_owned()),
        Token::Discarded { .. } | Token::Eof { .. } => return None,
    })
}
