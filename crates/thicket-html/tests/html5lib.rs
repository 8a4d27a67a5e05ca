//! Runs the HTML suites through the testkit runner (whole input, char by char, every two-way
//! split, span tiling, diagnostics in source order) and checks each against
//! `conformance/expectations/<suite>.toml`: every failure must be listed there, and no listed
//! case may pass. `html5lib-tokenizer` reads `<?` as before 2026, `html5lib-tokenizer-pi` as
//! since (its 38 listed failures are the cases that expect the dropped
//! `unexpected-question-mark-instead-of-tag-name`); `html-pi-tokenizer` and
//! `wpt-processing-instructions` are the 2026 processing instruction suites.

use std::collections::BTreeSet;

use thicket_testkit::{Outcome, project_root, run_suite, runners};

/// The `case = "..."` lines of a suite's expectations file (a TOML subset: one string per line,
/// in double or single quotes).
fn expected_failures(suite: &str) -> BTreeSet<String> {
    let path = project_root().join(format!("conformance/expectations/{suite}.toml"));
    let Ok(text) = std::fs::read_to_string(path) else {
        return BTreeSet::new();
    };
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("case = "))
        .filter_map(|v| match v.strip_prefix('\'') {
            Some(literal) => literal.strip_suffix('\'').map(str::to_owned),
            None => serde_json::from_str::<String>(v).ok(),
        })
        .collect()
}

/// Runs `suite`; returns (cases, passed, known failures), or `None` when its folder is missing.
fn check(suite: &str) -> Option<(usize, usize, usize)> {
    let suites = runners::html::suites();
    let def = suites
        .iter()
        .find(|s| s.name == suite)
        .expect("the runner defines the suite");
    let Some(result) = run_suite(def) else {
        eprintln!("{suite}: suite folder not found; skipping");
        return None;
    };
    let cases = result.expect("the suite reads");
    let listed = expected_failures(suite);
    let mut problems = Vec::new();
    let (mut passed, mut known) = (0, 0);
    for c in &cases {
        match &c.outcome {
            Outcome::Pass => {
                passed += 1;
                if listed.contains(&c.name) {
                    problems.push(format!("listed as failing but passes: {}", c.name));
                }
            }
            Outcome::Fail(_) if listed.contains(&c.name) => known += 1,
            Outcome::Fail(why) => problems.push(format!("unexpected failure: {}: {why}", c.name)),
            Outcome::Skip(_) => {}
        }
    }
    assert!(problems.is_empty(), "{suite}:\n{}", problems.join("\n"));
    Some((cases.len(), passed, known))
}

#[test]
fn html5lib_tokenizer_suite() {
    if let Some((cases, passed, known)) = check("html5lib-tokenizer") {
        assert!(cases >= 7032, "only {cases} cases");
        assert!(passed >= 7028, "only {passed} cases passed");
        assert_eq!(known, 0);
    }
}

#[test]
fn html5lib_tokenizer_suite_with_2026_processing_instructions() {
    if let Some((cases, passed, known)) = check("html5lib-tokenizer-pi") {
        assert!(cases >= 7032, "only {cases} cases");
        assert_eq!(known, 38, "the 38 cases expecting the pre-2026 `<?` error");
        assert!(passed >= 6990, "only {passed} cases passed");
    }
}

#[test]
fn processing_instruction_tokenizer_suite() {
    if let Some((cases, passed, _)) = check("html-pi-tokenizer") {
        assert_eq!((cases, passed), (81, 81));
    }
}

#[test]
fn wpt_processing_instruction_suite() {
    if let Some((cases, passed, _)) = check("wpt-processing-instructions") {
        assert_eq!((cases, passed), (124, 124));
    }
}
