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

/// With `Options::spec()` (our copy of the spec, without the head revision's additions) exactly
/// the microxml-er cases that exercise those additions recover differently.
#[test]
fn spec_options_differ_only_on_upstream_additions() {
    use thicket_microxml::{Options, parse_with};
    use thicket_testkit::suites::microxml::{Expectation, read};

    let path = thicket_testkit::suite_root().join("microxml-er/tests.rust-safe.json");
    if !path.exists() {
        return;
    }
    let mut differing = Vec::new();
    for case in read(&path).expect("suite reads") {
        let Expectation::Tree { tree, .. } = &case.expectation else {
            continue;
        };
        let merged = runners::microxml::merge_text(tree);
        let got = runners::microxml::to_tree(&parse_with(&case.source, Options::spec()).root());
        if got != merged {
            differing.push(case.id);
        }
    }
    assert_eq!(
        differing,
        [
            "decimalcharref1",
            "attvalquote1",
            "decimalcharref2",
            "boolatt1",
            "boolatt2",
            "boolatt4",
            "boolatt5",
            "attvalquote4"
        ]
    );
}
