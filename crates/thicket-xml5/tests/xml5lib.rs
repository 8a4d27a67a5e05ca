//! Runs the xml5lib suites through the testkit runner and checks the outcome against
//! conformance/expectations: every failure listed, every listed case failing.

use std::collections::BTreeSet;

use thicket_testkit::{Outcome, project_root, run_suite, runners::xml5::suites};

/// The `case = ...` values of an expectations file (TOML literal or basic strings).
fn listed(suite: &str) -> BTreeSet<String> {
    let path = project_root().join(format!("conformance/expectations/{suite}.toml"));
    let Ok(text) = std::fs::read_to_string(path) else {
        return BTreeSet::new();
    };
    let mut out = BTreeSet::new();
    for line in text.lines() {
        let Some(v) = line.strip_prefix("case = ") else {
            continue;
        };
        if let Some(s) = v.strip_prefix("'''").and_then(|s| s.strip_suffix("'''")) {
            out.insert(s.to_owned());
        } else if let Some(s) = v
            .strip_prefix("\"\"\"")
            .and_then(|s| s.strip_suffix("\"\"\""))
        {
            out.insert(unescape(s));
        } else if let Some(s) = v.strip_prefix('\'').and_then(|s| s.strip_suffix('\'')) {
            out.insert(s.to_owned());
        } else if let Some(s) = v.strip_prefix('"').and_then(|s| s.strip_suffix('"')) {
            out.insert(unescape(s));
        }
    }
    out
}

fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('u') => {
                let hex: String = chars.by_ref().take(4).collect();
                if let Some(c) = u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                    out.push(c);
                }
            }
            Some('U') => {
                let hex: String = chars.by_ref().take(8).collect();
                if let Some(c) = u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                    out.push(c);
                }
            }
            Some(c) => out.push(c),
            None => {}
        }
    }
    out
}

fn check(name: &str) {
    let def = suites()
        .into_iter()
        .find(|d| d.name == name)
        .expect("suite is defined");
    let Some(result) = run_suite(&def) else {
        eprintln!("{name}: suite folder missing, skipped");
        return;
    };
    let cases = result.expect("suite runs");
    assert!(!cases.is_empty());
    let expected = listed(name);
    let mut unexpected = Vec::new();
    let mut failing = BTreeSet::new();
    for c in &cases {
        if let Outcome::Fail(why) = &c.outcome {
            failing.insert(c.name.clone());
            if !expected.contains(&c.name) {
                unexpected.push(format!("{}: {why}", c.name));
            }
        }
    }
    let now_passing: Vec<_> = expected.difference(&failing).collect();
    assert!(
        unexpected.is_empty(),
        "{name}: {} unexpected failures, first: {:?}",
        unexpected.len(),
        unexpected.first()
    );
    assert!(
        now_passing.is_empty(),
        "{name}: listed failures that pass: {now_passing:?}"
    );
}

#[test]
fn tokenizer_compatibility_profile() {
    check("xml5lib-tokenizer");
}

#[test]
fn tokenizer_draft_profile() {
    check("xml5lib-tokenizer-draft");
}

#[test]
fn tree_construction() {
    check("xml5lib-tree");
}
