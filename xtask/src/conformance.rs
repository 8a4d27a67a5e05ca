//! `cargo xtask conformance [SUITE...] [--json] [--check] [--write-expectations] [--no-fetch]`
//!
//! Runs every suite whose crate exists, prints one table saying where each suite was read from,
//! writes `conformance/STATUS.md` (when every suite ran), and raises `conformance/baseline.json`
//! where a suite now passes more cases. External suites found nowhere are first fetched at their
//! pinned commits (see `suites.rs`; not with `--no-fetch`). With `--check` nothing
//! is written and the command fails when a suite passes fewer cases than the baseline records,
//! when a case fails that `conformance/expectations/<suite>.toml` does not list, or when a listed
//! case passes (so the list is kept true).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::time::Instant;

use thicket_testkit::{Case, Outcome, SuiteDef};

use crate::suites::{Catalog, Located, Roots, Source};
use crate::{Result, paths, suites};

/// Every suite Thicket knows about, in table order: name, spec, the dialect that runs it.
const KNOWN: &[(&str, &str, &str)] = &[
    ("html5lib-tokenizer", "WHATWG HTML tokenization", "html"),
    (
        "html5lib-tokenizer-pi",
        "WHATWG HTML tokenization, 2026 processing instructions",
        "html",
    ),
    (
        "html-pi-tokenizer",
        "WHATWG HTML processing instructions (2026)",
        "html",
    ),
    (
        "wpt-processing-instructions",
        "WHATWG HTML processing instructions (2026)",
        "html",
    ),
    (
        "xml5lib-tokenizer",
        "XML5 draft (compatibility profile)",
        "xml5",
    ),
    (
        "xml5lib-tokenizer-draft",
        "XML5 draft 2022 (draft profile)",
        "xml5",
    ),
    ("xml5lib-tree", "XML5 tree construction", "xml5"),
    ("microxml-er", "MicroXML error recovery", "microxml"),
    (
        "microxml-er-generated",
        "MicroXML error recovery",
        "microxml",
    ),
    (
        "microxml-strict-js",
        "MicroXML (strict, validity)",
        "microxml",
    ),
    (
        "microxml-strict-java",
        "MicroXML (strict, validity)",
        "microxml",
    ),
    ("leafxml", "LeafXML", "leafxml"),
];

/// The suites the dialects compiled into this xtask provide.
fn available() -> Vec<SuiteDef> {
    #[allow(unused_mut)]
    let mut defs = Vec::new();
    #[cfg(feature = "html")]
    defs.extend(thicket_testkit::runners::html::suites());
    #[cfg(feature = "xml5")]
    defs.extend(thicket_testkit::runners::xml5::suites());
    #[cfg(feature = "microxml")]
    defs.extend(thicket_testkit::runners::microxml::suites());
    #[cfg(feature = "leafxml")]
    defs.extend(thicket_testkit::runners::leafxml::suites());
    defs
}

/// The dialects compiled into this xtask (one cargo feature each).
const BUILT: &[&str] = &[
    #[cfg(feature = "html")]
    "html",
    #[cfg(feature = "xml5")]
    "xml5",
    #[cfg(feature = "microxml")]
    "microxml",
    #[cfg(feature = "leafxml")]
    "leafxml",
];

fn dialect_built(dialect: &str) -> bool {
    BUILT.contains(&dialect)
}

/// One row of the table.
#[derive(Debug, Default, serde::Serialize)]
struct Row {
    suite: String,
    spec: String,
    cases: usize,
    passed: usize,
    failed: usize,
    skipped: usize,
    /// Failures listed in the expectations file.
    #[serde(skip)]
    known_failures: usize,
    /// Failures the expectations file does not list.
    #[serde(skip)]
    unexpected_failures: Vec<(String, String)>,
    /// Listed failures that now pass.
    #[serde(skip)]
    unexpected_passes: Vec<String>,
    /// Skip reasons with their counts.
    #[serde(skip)]
    skip_reasons: BTreeMap<String, usize>,
    /// Where the suite was read from (a suite root, or the repository), when it ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    read_from: Option<&'static str>,
    /// Why the suite did not run, when it did not.
    #[serde(skip_serializing_if = "Option::is_none")]
    status: Option<String>,
    /// A longer explanation of `status`, printed below the table.
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
    #[serde(skip)]
    seconds: f64,
    #[serde(skip)]
    failures: Vec<(String, String)>,
}

#[derive(Debug, Default, serde::Deserialize, serde::Serialize)]
struct Expectations {
    #[serde(default)]
    failure: Vec<Expected>,
}

#[derive(Debug, Clone, serde::Deserialize, serde::Serialize)]
struct Expected {
    case: String,
    reason: String,
}

/// Runs the command.
pub fn run(args: &[String]) -> Result<()> {
    let mut json = false;
    let mut check = false;
    let mut write_expectations = false;
    let mut fetch = true;
    let mut wanted = Vec::new();
    for a in args {
        match a.as_str() {
            "--json" => json = true,
            "--check" => check = true,
            "--write-expectations" => write_expectations = true,
            "--no-fetch" => fetch = false,
            s if s.starts_with('-') => return Err(format!("unknown option {s}").into()),
            s => wanted.push(s.to_owned()),
        }
    }
    for w in &wanted {
        if !KNOWN.iter().any(|(n, _, _)| n.starts_with(w.as_str())) {
            return Err(format!("no suite named {w}; suites: {}", names().join(", ")).into());
        }
    }
    let selected: Vec<&(&str, &str, &str)> = KNOWN
        .iter()
        .filter(|(n, _, _)| wanted.is_empty() || wanted.iter().any(|w| n.starts_with(w.as_str())))
        .collect();

    let root = paths::project_root();
    let defs = available();
    let catalog = Catalog::load(&root)?;
    let roots = Roots::from_env(&root);
    if fetch {
        let external: Vec<(&str, &str)> = selected
            .iter()
            .filter_map(|(name, _, _)| defs.iter().find(|d| d.name == *name))
            .filter(|d| !d.in_project)
            .map(|d| (d.name, d.dir))
            .collect();
        suites::fetch_all(&catalog.to_fetch(&roots, &external), &roots)?;
    }
    let mut rows = Vec::new();
    for &&(name, spec, dialect) in &selected {
        let mut row = Row {
            suite: name.to_owned(),
            spec: spec.to_owned(),
            ..Row::default()
        };
        match defs.iter().find(|d| d.name == name) {
            None if !dialect_built(dialect) => {
                row.status = Some(format!("thicket-{dialect} not built into xtask"));
            }
            None => row.status = Some(format!("thicket-{dialect}: runner not written yet")),
            Some(def) => {
                let start = Instant::now();
                let located = if def.in_project {
                    let dir = root.join("conformance").join(def.dir);
                    if dir.is_dir() {
                        Located::At {
                            dir,
                            source: Source::Repository,
                        }
                    } else {
                        Located::Missing(format!("conformance/{} is missing", def.dir))
                    }
                } else {
                    catalog.locate(&roots, def.name, def.dir)
                };
                match located {
                    Located::Fetchable => {
                        row.status = Some("suite missing (not fetched: --no-fetch)".into());
                        row.note = Some(format!(
                            "{} is found nowhere; run without --no-fetch, or \
                             `cargo xtask suites fetch`, to fetch it at its pinned commit",
                            catalog
                                .folder_of(name)
                                .map_or(def.dir, |f| f.folder.as_str())
                        ));
                    }
                    Located::Missing(why) => {
                        row.status = Some(match why.split_once(':') {
                            Some((short, _)) if why.starts_with("derived") => short.to_owned(),
                            _ => "suite missing".to_owned(),
                        });
                        row.note = Some(why);
                    }
                    Located::At { dir, source } => match (def.run)(&dir) {
                        Err(e) => {
                            row.read_from = Some(source.label());
                            row.status = Some(format!("error: {e}"));
                        }
                        Ok(cases) => {
                            row.read_from = Some(source.label());
                            let expected = read_expectations(name)?;
                            tally(&mut row, &cases, &expected);
                            if write_expectations {
                                write_expectations_file(name, &row, &expected)?;
                            }
                        }
                    },
                }
                row.seconds = start.elapsed().as_secs_f64();
            }
        }
        if !json {
            eprintln!("{}", progress_line(&row));
        }
        rows.push(row);
    }

    let baseline_path = root.join("conformance/baseline.json");
    let mut baseline: BTreeMap<String, usize> = match std::fs::read_to_string(&baseline_path) {
        Ok(text) => serde_json::from_str(&text)?,
        Err(_) => BTreeMap::new(),
    };

    if json {
        let out = serde_json::json!({ "suites": rows });
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        print!("{}", table(&rows));
    }

    let mut problems = Vec::new();
    for row in &rows {
        let base = baseline.get(&row.suite).copied().unwrap_or(0);
        if row.status.is_some() && base > 0 {
            problems.push(format!(
                "{}: did not run ({}) but the baseline is {base}",
                row.suite,
                row.status.as_deref().unwrap_or("")
            ));
        } else if row.passed < base {
            problems.push(format!(
                "{}: {} passed, fewer than the baseline {base}",
                row.suite, row.passed
            ));
        }
        for (case, why) in row.unexpected_failures.iter().take(20) {
            problems.push(format!("{}: unexpected failure {case}: {why}", row.suite));
        }
        if row.unexpected_failures.len() > 20 {
            problems.push(format!(
                "{}: ... and {} more unexpected failures",
                row.suite,
                row.unexpected_failures.len() - 20
            ));
        }
        for case in &row.unexpected_passes {
            problems.push(format!(
                "{}: {case} passes but is listed as a known failure; remove it from \
                 conformance/expectations/{}.toml",
                row.suite, row.suite
            ));
        }
    }

    if check {
        if problems.is_empty() {
            eprintln!("conformance --check: every suite at or above its baseline");
            return Ok(());
        }
        for p in &problems {
            eprintln!("{p}");
        }
        return Err(format!("conformance --check failed ({} problems)", problems.len()).into());
    }

    // Not --check: record progress. The baseline only moves up.
    let mut raised = false;
    for row in &rows {
        if row.status.is_none() {
            let base = baseline.entry(row.suite.clone()).or_insert(0);
            if row.passed > *base {
                *base = row.passed;
                raised = true;
            }
        }
    }
    if raised {
        std::fs::write(
            &baseline_path,
            serde_json::to_string_pretty(&baseline)? + "\n",
        )?;
        eprintln!("conformance: raised {}", baseline_path.display());
    }
    let not_run = rows.iter().filter(|r| r.status.is_some()).count();
    if wanted.is_empty() && not_run == 0 {
        std::fs::write(root.join("conformance/STATUS.md"), status_md(&rows))?;
    } else if wanted.is_empty() {
        eprintln!("conformance: conformance/STATUS.md not written ({not_run} suites did not run)");
    }
    for p in &problems {
        eprintln!("warning: {p}");
    }
    Ok(())
}

fn names() -> Vec<&'static str> {
    KNOWN.iter().map(|(n, _, _)| *n).collect()
}

fn read_expectations(suite: &str) -> Result<Vec<Expected>> {
    let path = paths::project_root().join(format!("conformance/expectations/{suite}.toml"));
    match std::fs::read_to_string(&path) {
        Ok(text) => {
            let e: Expectations =
                toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
            Ok(e.failure)
        }
        Err(_) => Ok(Vec::new()),
    }
}

fn tally(row: &mut Row, cases: &[Case], expected: &[Expected]) {
    let listed: BTreeSet<&str> = expected.iter().map(|e| e.case.as_str()).collect();
    row.cases = cases.len();
    for case in cases {
        match &case.outcome {
            Outcome::Pass => {
                row.passed += 1;
                if listed.contains(case.name.as_str()) {
                    row.unexpected_passes.push(case.name.clone());
                }
            }
            Outcome::Fail(why) => {
                row.failed += 1;
                row.failures.push((case.name.clone(), why.clone()));
                if listed.contains(case.name.as_str()) {
                    row.known_failures += 1;
                } else {
                    row.unexpected_failures
                        .push((case.name.clone(), why.clone()));
                }
            }
            Outcome::Skip(why) => {
                row.skipped += 1;
                *row.skip_reasons.entry(why.clone()).or_insert(0) += 1;
            }
        }
    }
}

fn write_expectations_file(suite: &str, row: &Row, old: &[Expected]) -> Result<()> {
    let path = paths::project_root().join(format!("conformance/expectations/{suite}.toml"));
    let reasons: BTreeMap<&str, &str> = old
        .iter()
        .map(|e| (e.case.as_str(), e.reason.as_str()))
        .collect();
    let failure: Vec<Expected> = row
        .failures
        .iter()
        .map(|(case, why)| Expected {
            case: case.clone(),
            reason: reasons
                .get(case.as_str())
                .map(|r| r.to_string())
                .unwrap_or_else(|| format!("fails: {}", truncate(why, 300))),
        })
        .collect();
    if failure.is_empty() {
        let _ = std::fs::remove_file(&path);
        return Ok(());
    }
    let mut text = format!(
        "# Known failures of the {suite} suite, with the reason for each.\n\
         # `cargo xtask conformance --check` fails when a case fails that is not listed here,\n\
         # or when a listed case passes.\n\n"
    );
    text.push_str(&toml::to_string(&Expectations { failure })?);
    std::fs::write(&path, text)?;
    eprintln!("conformance: wrote {}", path.display());
    Ok(())
}

fn truncate(s: &str, max: usize) -> String {
    let one_line = s.replace('\n', " ");
    if one_line.chars().count() <= max {
        one_line
    } else {
        one_line.chars().take(max).collect::<String>() + "…"
    }
}

fn progress_line(row: &Row) -> String {
    match &row.status {
        Some(s) => format!("{:<28} {s}", row.suite),
        None => format!(
            "{:<28} {}/{} passed ({:.1}s, from {})",
            row.suite,
            row.passed,
            row.cases,
            row.seconds,
            read_from_cell(row)
        ),
    }
}

fn skipped_cell(row: &Row) -> String {
    if row.skip_reasons.is_empty() {
        return row.skipped.to_string();
    }
    let reasons: Vec<String> = row
        .skip_reasons
        .iter()
        .map(|(r, n)| format!("{n}: {r}"))
        .collect();
    format!("{} ({})", row.skipped, reasons.join("; "))
}

fn read_from_cell(row: &Row) -> String {
    row.read_from.unwrap_or("-").to_owned()
}

fn table(rows: &[Row]) -> String {
    let header = [
        "suite",
        "spec",
        "read from",
        "cases",
        "passed",
        "failed",
        "skipped",
    ];
    let cells: Vec<[String; 7]> = rows
        .iter()
        .map(|r| match &r.status {
            Some(s) => [
                r.suite.clone(),
                r.spec.clone(),
                read_from_cell(r),
                "-".into(),
                "-".into(),
                "-".into(),
                s.clone(),
            ],
            None => [
                r.suite.clone(),
                r.spec.clone(),
                read_from_cell(r),
                r.cases.to_string(),
                r.passed.to_string(),
                if r.failed > 0 {
                    format!("{} ({} known)", r.failed, r.known_failures)
                } else {
                    "0".into()
                },
                skipped_cell(r),
            ],
        })
        .collect();
    let mut widths = header.map(str::len);
    for row in &cells {
        for (w, c) in widths.iter_mut().zip(row) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut out = String::new();
    let line = |out: &mut String, row: &[String]| {
        let parts: Vec<String> = row
            .iter()
            .zip(widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect();
        let _ = writeln!(out, "{}", parts.join("  ").trim_end());
    };
    line(&mut out, &header.map(String::from));
    line(&mut out, &widths.map(|w| "-".repeat(w)));
    for row in &cells {
        line(&mut out, row);
    }
    // One note per explanation, naming the suites it applies to.
    let mut notes: Vec<(Vec<&str>, &str)> = Vec::new();
    for r in rows {
        let Some(note) = r.note.as_deref() else {
            continue;
        };
        match notes.iter_mut().find(|(_, n)| *n == note) {
            Some((suites, _)) => suites.push(&r.suite),
            None => notes.push((vec![&r.suite], note)),
        }
    }
    if !notes.is_empty() {
        out.push('\n');
    }
    for (suites, note) in notes {
        let _ = writeln!(out, "{}: {note}", suites.join(", "));
    }
    out
}

fn status_md(rows: &[Row]) -> String {
    let mut out = String::from(
        "# Conformance status\n\n\
         Generated by `cargo xtask conformance`; do not edit. Known failures and their reasons \
         are in `expectations/<suite>.toml`.\n\n\
         | suite | spec | read from | cases | passed | failed | skipped |\n\
         |---|---|---|---|---|---|---|\n",
    );
    for r in rows {
        match &r.status {
            Some(s) => {
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | - | - | - | {s} |",
                    r.suite,
                    r.spec,
                    read_from_cell(r)
                );
            }
            None => {
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {} | {} | {} | {} |",
                    r.suite,
                    r.spec,
                    read_from_cell(r),
                    r.cases,
                    r.passed,
                    r.failed,
                    skipped_cell(r)
                );
            }
        }
    }
    out
}
