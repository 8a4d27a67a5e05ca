//! Runs the conformance suites through the shared runner and checks that every failure is
//! listed in `conformance/expectations/<suite>.toml`, and that every listed case still fails.

use std::collections::BTreeSet;

use thicket_testkit::{Outcome, project_root, run_suite, runners};

#[derive(serde::Deserialize)]
struct Expectations {
    #[serde(default)]
    failure: Vec<Expected>,
}

#[derive(serde::Deserialize)]
struct Expected {
    case: String,
    reason: String,
}

fn known_failures(suite: &str) -> BTreeSet<String> {
    let path = project_root().join(format!("conformance/expectations/{suite}.toml"));
    let Ok(text) = std::fs::read_to_string(&path) else {
        return BTreeSet::new();
    };
    let parsed: Expectations = toml::from_str(&text).expect("expectations file parses");
    for f in &parsed.failure {
        assert!(
            !f.reason.starts_with("fails:"),
            "{suite}: {} has no real reason",
            f.case
        );
    }
    parsed.failure.into_iter().map(|f| f.case).collect()
}

#[test]
fn suites_match_expectations() {
    let mut ran = 0;
    for def in runners::microxml::suites() {
        let Some(result) = run_suite(&def) else {
            eprintln!("{}: suite folder missing, skipped", def.name);
            continue;
        };
        let cases = result.unwrap_or_else(|e| panic!("{}: {e}", def.name));
        assert!(!cases.is_empty(), "{}: no cases", def.name);
        ran += 1;
        let known = known_failures(def.name);
        let mut problems = Vec::new();
        for case in &cases {
            let listed = known.contains(&case.name);
            match &case.outcome {
                Outcome::Fail(why) if !listed => {
                    problems.push(format!("unexpected failure {}: {why}", case.name))
                }
                Outcome::Pass if listed => {
                    problems.push(format!("listed as failing but passes: {}", case.name))
                }
                _ => {}
            }
        }
        assert!(
            problems.is_empty(),
            "{}:\n{}",
            def.name,
            problems.join("\n")
        );
    }
    assert!(ran > 0 || std::env::var_os("THICKET_SUITES").is_some());
}
