//! Runs our own conformance suite (conformance/leafxml/) and checks that every error code has
//! at least one case.

use thicket_leafxml::ErrorCode;
use thicket_testkit::{Outcome, project_root, run_suite, runners::leafxml};

#[test]
fn suite_passes() {
    let suites = leafxml::suites();
    let suite = &suites[0];
    let cases = run_suite(suite)
        .expect("conformance/leafxml exists")
        .expect("the suite reads");
    assert!(cases.len() >= 250, "only {} cases", cases.len());
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|c| match &c.outcome {
            Outcome::Fail(why) => Some(format!("{}: {why}", c.name)),
            _ => None,
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases fail:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn every_error_code_has_a_case() {
    let dir = project_root().join("conformance/leafxml");
    let covered = leafxml::error_codes_in_suite(&dir).expect("the suite reads");
    let missing: Vec<&str> = ErrorCode::ALL
        .iter()
        .map(|c| c.as_str())
        // An I/O failure is not a property of a document.
        .filter(|c| *c != "io-error" && !covered.contains(*c))
        .collect();
    assert!(missing.is_empty(), "codes without a case: {missing:?}");
}
