//! Runs the html5lib tokenizer suite through the testkit runner (whole input, char by char, every
//! two-way split, span tiling) and checks the result against
//! `conformance/expectations/html5lib-tokenizer.toml`: every failure must be listed there, and no
//! listed case may pass.

use std::collections::BTreeSet;

use thicket_testkit::{Outcome, project_root, run_suite, runners};

/// The `case = "..."` lines of the expectations file (a TOML subset: one string per line).
fn expected_failures() -> BTreeSet<String> {
    let path = project_root().join("conformance/expectations/html5lib-tokenizer.toml");
    let Ok(text) = std::fs::read_to_string(path) else {
        return BTreeSet::new();
    };
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("case = "))
        .filter_map(|v| serde_json::from_str::<String>(v).ok())
        .collect()
}

#[test]
fn html5lib_tokenizer_suite() {
    let suites = runners::html::suites();
    let suite = suites
        .iter()
        .find(|s| s.name == "html5lib-tokenizer")
        .expect("the runner defines html5lib-tokenizer");
    let Some(result) = run_suite(suite) else {
        eprintln!("html5lib-tests not found; skipping");
        return;
    };
    let cases = result.expect("the suite reads");
    let listed = expected_failures();
    let mut problems = Vec::new();
    let mut passed = 0;
    for c in &cases {
        match &c.outcome {
            Outcome::Pass => {
                passed += 1;
                if listed.contains(&c.name) {
                    problems.push(format!("listed as failing but passes: {}", c.name));
                }
            }
            Outcome::Fail(why) if !listed.contains(&c.name) => {
                problems.push(format!("unexpected failure: {}: {why}", c.name));
            }
            _ => {}
        }
    }
    assert!(cases.len() >= 7032, "only {} cases", cases.len());
    assert!(passed >= 7028, "only {passed} cases passed");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
