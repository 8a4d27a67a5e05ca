//! `cargo xtask callgrind`: instruction counts of every Thicket view on every corpus file.
//!
//! For each corpus file and each view the comparison bench measures, runs the bench's release
//! binary (`benches/compare`, `--once PARSER FILE`) under `valgrind --tool=callgrind` and reads
//! the instructions of the parse alone: callgrind collects nothing but the calls of one
//! unmangled, never-inlined function around the bench's adapter
//! (`--collect-atstart=no --toggle-collect=thicket_callgrind_measured_parse`), after one
//! unmeasured warm-up parse. Process start, reading and decoding the file are not counted; the
//! adapter's walk over the output and dropping it are, exactly what the timed comparison times.
//!
//! `--others` also measures the parser each view is compared with, for instruction ratios.
//! `--save FILE` stores a run as JSON; `--against FILE` prints each cell's change from a stored
//! run and fails when a Thicket cell grew by more than `--max-increase` percent (default 3).
//! See docs/performance.md.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::{Result, paths};

const USAGE: &str = "\
usage: cargo xtask callgrind [--files PAT,...] [--views VIEW,...] [--others]
                             [--save FILE.json] [--against FILE.json] [--max-increase PCT]
                             [--iterations K]

  --files PAT,...      only corpus files whose name contains one of the patterns
  --views VIEW,...     only these views: html, xml5-tokens, xml5-tree, microxml-tree,
                       leafxml-events, rewrite-nofollow, rewrite-h1-h3, rewrite-xml-id
                       (default: all)
  --others             also measure the parser each view is compared with (html5gum,
                       xml5ever, roxmltree, quick-xml) and print instruction ratios
  --save FILE.json     store the run (every cell, the commit, rustc and valgrind versions)
  --against FILE.json  print each cell's change from a stored run, in percent
  --max-increase PCT   with --against: fail when a Thicket cell grew by more (default 3)
  --iterations K       measure K parses per cell and report one (default 1; counts are
                       deterministic, K only averages allocator-state effects)

Environment: VALGRIND (the valgrind binary, default `valgrind`), THICKET_CORPUS (the corpus,
default ../shared/corpus from the project root).
";

/// The function `benches/compare --once` runs each measured parse through.
const TOGGLE: &str = "thicket_callgrind_measured_parse";

/// A corpus subfolder, and the views that read its files.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Html,
    Xml,
}

impl Kind {
    fn dir(self) -> &'static str {
        match self {
            Kind::Html => "html",
            Kind::Xml => "xml",
        }
    }
}

/// A Thicket view the comparison bench measures.
struct View {
    /// Short name used on the command line, in tables and in the JSON.
    id: &'static str,
    /// The parser's name in `benches/compare` (`parsers::all`).
    parser: &'static str,
    kind: Kind,
    /// The other parser it is compared with (an `Other::id`).
    other: &'static str,
}

const VIEWS: &[View] = &[
    View {
        id: "html",
        parser: "thicket-html",
        kind: Kind::Html,
        other: "html5gum",
    },
    View {
        id: "xml5-tokens",
        parser: "thicket-xml5 tokenizer",
        kind: Kind::Xml,
        other: "xml5ever",
    },
    View {
        id: "xml5-tree",
        parser: "thicket-xml5 tree",
        kind: Kind::Xml,
        other: "roxmltree",
    },
    View {
        id: "microxml-tree",
        parser: "thicket-microxml tree",
        kind: Kind::Xml,
        other: "roxmltree",
    },
    View {
        id: "leafxml-events",
        parser: "thicket-leafxml events",
        kind: Kind::Xml,
        other: "quick-xml",
    },
    // thicket-rewrite (issue 16): the same work as lol_html and a quick-xml loop.
    View {
        id: "rewrite-nofollow",
        parser: "thicket-rewrite nofollow",
        kind: Kind::Html,
        other: "lol_html-nofollow",
    },
    View {
        id: "rewrite-h1-h3",
        parser: "thicket-rewrite h1-h3 text",
        kind: Kind::Html,
        other: "lol_html-h1-h3",
    },
    View {
        id: "rewrite-xml-id",
        parser: "thicket-rewrite xml5 [id] attr",
        kind: Kind::Xml,
        other: "quick-xml-loop",
    },
];

/// A parser a view is compared with.
struct Other {
    id: &'static str,
    parser: &'static str,
}

const OTHERS: &[Other] = &[
    Other {
        id: "html5gum",
        parser: "html5gum",
    },
    Other {
        id: "xml5ever",
        parser: "xml5ever tokenizer",
    },
    Other {
        id: "roxmltree",
        parser: "roxmltree",
    },
    Other {
        id: "quick-xml",
        parser: "quick-xml NsReader",
    },
    Other {
        id: "lol_html-nofollow",
        parser: "lol_html nofollow",
    },
    Other {
        id: "lol_html-h1-h3",
        parser: "lol_html h1-h3 text",
    },
    Other {
        id: "quick-xml-loop",
        parser: "quick-xml loop [id] attr",
    },
];

/// One stored run.
#[derive(Serialize, Deserialize, Debug)]
struct Run {
    /// `git rev-parse HEAD` of the measured tree.
    commit: String,
    /// Whether the tree had uncommitted changes.
    dirty: bool,
    rustc: String,
    valgrind: String,
    /// Parses measured per cell (the count is per parse).
    iterations: usize,
    /// What a count is.
    measure: String,
    cells: Vec<Cell>,
}

/// One file measured with one parser.
#[derive(Serialize, Deserialize, Debug, Clone)]
struct Cell {
    /// `html/NAME` or `xml/NAME`.
    file: String,
    /// A view id, or an other parser's id.
    subject: String,
    /// The parser's name in `benches/compare`.
    parser: String,
    /// Whether it is a Thicket view (gated by `--max-increase`).
    thicket: bool,
    /// Instructions of one parse.
    instructions: u64,
    /// The parser rejected the file (the count is the work up to the rejection).
    rejected: bool,
}

/// A corpus file: its folder's kind, `dir/NAME`, and its path.
struct CorpusFile {
    kind: Kind,
    name: String,
    path: PathBuf,
}

/// One cell to measure.
struct Job<'a> {
    file: &'a CorpusFile,
    subject: &'static str,
    parser: &'static str,
    thicket: bool,
}

struct Args {
    files: Vec<String>,
    views: Vec<&'static View>,
    others: bool,
    save: Option<PathBuf>,
    against: Option<PathBuf>,
    max_increase: f64,
    iterations: usize,
}

fn parse_args(args: &[String]) -> Result<Args> {
    let mut out = Args {
        files: Vec::new(),
        views: Vec::new(),
        others: false,
        save: None,
        against: None,
        max_increase: 3.0,
        iterations: 1,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{a} takes a value\n\n{USAGE}"))
        };
        match a.as_str() {
            "--files" => out.files.extend(
                value()?
                    .split(',')
                    .filter(|s| !s.is_empty())
                    .map(String::from),
            ),
            "--views" => {
                for v in value()?.split(',').filter(|s| !s.is_empty()) {
                    let view = VIEWS.iter().find(|x| x.id == v).ok_or_else(|| {
                        let ids: Vec<&str> = VIEWS.iter().map(|x| x.id).collect();
                        format!("unknown view {v:?} (one of: {})", ids.join(", "))
                    })?;
                    if !out.views.iter().any(|x| x.id == view.id) {
                        out.views.push(view);
                    }
                }
            }
            "--others" => out.others = true,
            "--save" => out.save = Some(PathBuf::from(value()?)),
            "--against" => out.against = Some(PathBuf::from(value()?)),
            "--max-increase" => {
                let v = value()?;
                out.max_increase =
                    v.parse()
                        .ok()
                        .filter(|x: &f64| x.is_finite())
                        .ok_or_else(|| {
                            format!("--max-increase takes a number of percent, not {v:?}")
                        })?;
            }
            "--iterations" => {
                let v = value()?;
                out.iterations =
                    v.parse().ok().filter(|&k| k > 0).ok_or_else(|| {
                        format!("--iterations takes a positive number, not {v:?}")
                    })?;
            }
            "-h" | "--help" => {
                print!("{USAGE}");
                std::process::exit(0);
            }
            _ => return Err(format!("unknown argument {a:?}\n\n{USAGE}").into()),
        }
    }
    if out.views.is_empty() {
        out.views = VIEWS.iter().collect();
    } else {
        // Keep the table's column order whatever the order on the command line.
        out.views
            .sort_by_key(|v| VIEWS.iter().position(|x| x.id == v.id));
    }
    Ok(out)
}

/// Runs the command.
pub fn run(args: &[String]) -> Result<()> {
    let args = parse_args(args)?;
    let baseline: Option<Run> = match &args.against {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            Some(
                serde_json::from_str(&text)
                    .map_err(|e| format!("{} is not a stored run: {e}", path.display()))?,
            )
        }
        None => None,
    };
    let valgrind_bin = std::env::var("VALGRIND").unwrap_or_else(|_| "valgrind".into());
    let valgrind = valgrind_version(&valgrind_bin)?;
    let root = paths::project_root();
    let corpus = std::env::var_os("THICKET_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("../shared/corpus"));
    let files = corpus_files(&corpus, &args)?;
    if files.is_empty() {
        return Err("no corpus file matches --files / --views".into());
    }
    let bin = build_compare(&root)?;

    // Every (file, subject) to measure, in table order.
    let mut jobs: Vec<Job> = Vec::new();
    for file in &files {
        for view in args.views.iter().filter(|v| v.kind == file.kind) {
            jobs.push(Job {
                file,
                subject: view.id,
                parser: view.parser,
                thicket: true,
            });
            let measured = |jobs: &[Job]| {
                jobs.iter()
                    .any(|j| j.file.name == file.name && j.subject == view.other)
            };
            if args.others && !measured(&jobs) {
                let other = OTHERS.iter().find(|o| o.id == view.other).expect("known");
                jobs.push(Job {
                    file,
                    subject: other.id,
                    parser: other.parser,
                    thicket: false,
                });
            }
        }
    }

    let tmp = std::env::temp_dir().join(format!("thicket-callgrind-{}", std::process::id()));
    std::fs::create_dir_all(&tmp)?;
    let started = Instant::now();
    let mut cells = Vec::new();
    let mut failure = None;
    for (i, job) in jobs.iter().enumerate() {
        let out = tmp.join("callgrind.out");
        let (file, subject, parser) = (job.file, job.subject, job.parser);
        match measure(
            &valgrind_bin,
            &bin,
            parser,
            &file.path,
            args.iterations,
            &out,
        ) {
            Ok((instructions, rejected)) => {
                eprintln!(
                    "[{:>3}/{}] {:<40} {:<15} {:>10}{}",
                    i + 1,
                    jobs.len(),
                    file.name,
                    subject,
                    human(instructions),
                    if rejected { " (rejected)" } else { "" }
                );
                cells.push(Cell {
                    file: file.name.clone(),
                    subject: subject.to_owned(),
                    parser: parser.to_owned(),
                    thicket: job.thicket,
                    instructions,
                    rejected,
                });
            }
            Err(e) => {
                failure = Some(format!("{} with {parser}: {e}", file.name));
                break;
            }
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    if let Some(f) = failure {
        return Err(f.into());
    }
    eprintln!(
        "{} cells in {:.0} s",
        cells.len(),
        started.elapsed().as_secs_f64()
    );

    let run = Run {
        commit: git(&root, &["rev-parse", "HEAD"]).unwrap_or_else(|| "unknown".into()),
        dirty: git(&root, &["status", "--porcelain", "--untracked-files=no"])
            .is_some_and(|s| !s.is_empty()),
        rustc: rustc_version(),
        valgrind,
        iterations: args.iterations,
        measure: format!(
            "callgrind Ir of one run of the benches/compare adapter (parse, walk of the output, \
             drop), after one unmeasured warm-up run; --toggle-collect={TOGGLE}"
        ),
        cells,
    };
    print!("{}", table(&run, &args));
    if let Some(path) = &args.save {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)?;
        }
        std::fs::write(path, serde_json::to_string_pretty(&run)? + "\n")
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        eprintln!("saved {}", path.display());
    }
    if let Some(base) = &baseline {
        let over = against(&run, base, &args);
        if over > 0 {
            return Err(format!(
                "{over} Thicket cell(s) grew by more than {}% against {}",
                args.max_increase,
                args.against.as_deref().unwrap_or(Path::new("")).display()
            )
            .into());
        }
    }
    Ok(())
}

/// The corpus files to measure, html first, each folder sorted.
fn corpus_files(corpus: &Path, args: &Args) -> Result<Vec<CorpusFile>> {
    let mut out = Vec::new();
    for kind in [Kind::Html, Kind::Xml] {
        if !args.views.iter().any(|v| v.kind == kind) {
            continue;
        }
        let dir = corpus.join(kind.dir());
        let rd = std::fs::read_dir(&dir).map_err(|e| {
            format!(
                "cannot read the corpus folder {} ({e}); set THICKET_CORPUS",
                dir.display()
            )
        })?;
        let mut files: Vec<PathBuf> = rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file())
            .collect();
        files.sort();
        for path in files {
            let name = path
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            if args.files.is_empty() || args.files.iter().any(|f| name.contains(f.as_str())) {
                out.push(CorpusFile {
                    kind,
                    name: format!("{}/{name}", kind.dir()),
                    path,
                });
            }
        }
    }
    Ok(out)
}

/// `valgrind --version`, or a clear error when valgrind cannot be run.
fn valgrind_version(bin: &str) -> Result<String> {
    let output = Command::new(bin).arg("--version").output().map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            format!(
                "valgrind not found ({bin:?} is not on PATH): `cargo xtask callgrind` runs \
                 valgrind --tool=callgrind. Install it (Debian/Ubuntu: apt-get install valgrind) \
                 or set VALGRIND to its path."
            )
        } else {
            format!("cannot run {bin:?}: {e}")
        }
    })?;
    if !output.status.success() {
        return Err(format!(
            "`{bin} --version` failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        )
        .into());
    }
    Ok(String::from_utf8_lossy(&output.stdout).trim().to_owned())
}

/// Builds `benches/compare` in release mode and returns its binary.
fn build_compare(root: &Path) -> Result<PathBuf> {
    eprintln!("building benches/compare (release)...");
    let output = Command::new(env!("CARGO"))
        .current_dir(root.join("benches/compare"))
        .args([
            "build",
            "--release",
            "--quiet",
            "--message-format=json-render-diagnostics",
        ])
        .stderr(std::process::Stdio::inherit())
        .output()?;
    if !output.status.success() {
        return Err("building benches/compare failed".into());
    }
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let Ok(msg) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if msg["reason"] == "compiler-artifact"
            && msg["target"]["name"] == "thicket-compare"
            && let Some(exe) = msg["executable"].as_str()
        {
            return Ok(PathBuf::from(exe));
        }
    }
    Err("cargo built benches/compare but named no thicket-compare binary".into())
}

/// Runs one parser on one file under callgrind: (instructions per parse, rejected).
fn measure(
    valgrind: &str,
    bin: &Path,
    parser: &str,
    file: &Path,
    iterations: usize,
    out: &Path,
) -> Result<(u64, bool)> {
    let _ = std::fs::remove_file(out);
    let output = Command::new(valgrind)
        .arg("--tool=callgrind")
        .arg(format!("--callgrind-out-file={}", out.display()))
        .arg("--collect-atstart=no")
        .arg(format!("--toggle-collect={TOGGLE}"))
        .arg(bin)
        .args(["--once", parser])
        .arg(file)
        .args(["--iterations", &iterations.to_string()])
        .output()?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        return Err(format!(
            "valgrind exited with {}:\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        )
        .into());
    }
    let rejected = match stdout.lines().last() {
        Some(l) if l.starts_with("ok ") => false,
        Some("rejected") => true,
        _ => return Err(format!("unexpected output from --once: {stdout:?}").into()),
    };
    let text = std::fs::read_to_string(out)
        .map_err(|e| format!("no callgrind output at {}: {e}", out.display()))?;
    let total = totals(&text).ok_or("the callgrind output has no totals line")?;
    if total == 0 {
        return Err(format!(
            "callgrind collected no instructions: is {TOGGLE} in the binary (not stripped)?"
        )
        .into());
    }
    Ok((total / iterations as u64, rejected))
}

/// The collected instructions of a callgrind output file (its `totals:` line, or `summary:`).
fn totals(text: &str) -> Option<u64> {
    text.lines()
        .rev()
        .find_map(|l| {
            l.strip_prefix("totals:")
                .or_else(|| l.strip_prefix("summary:"))
        })
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
}

fn git(root: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .current_dir(root)
        .args(args)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

fn rustc_version() -> String {
    Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))
        .arg("--version")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_else(|| "unknown".into())
}

/// An instruction count with four or more significant digits: `93.47M`, `1.234M`, `21.30k`.
fn human(n: u64) -> String {
    let m = n as f64 / 1e6;
    if m >= 100.0 {
        format!("{m:.1}M")
    } else if m >= 10.0 {
        format!("{m:.2}M")
    } else if m >= 1.0 {
        format!("{m:.3}M")
    } else if n >= 100_000 {
        format!("{:.1}k", n as f64 / 1e3)
    } else {
        format!("{:.2}k", n as f64 / 1e3)
    }
}

/// The columns of one corpus kind's table: a view, an other parser, or the ratio of the two.
enum Column {
    Subject(&'static str),
    Ratio {
        other: &'static str,
        view: &'static str,
    },
}

fn columns(kind: Kind, args: &Args) -> Vec<Column> {
    let mut cols = Vec::new();
    let mut shown: Vec<&str> = Vec::new();
    for view in args.views.iter().filter(|v| v.kind == kind) {
        cols.push(Column::Subject(view.id));
        if args.others {
            if !shown.contains(&view.other) {
                shown.push(view.other);
                cols.push(Column::Subject(view.other));
            }
            cols.push(Column::Ratio {
                other: view.other,
                view: view.id,
            });
        }
    }
    cols
}

/// Markdown tables (one per corpus folder) of instructions per parse; with `--others`, the
/// other parser's count and the ratio other / Thicket (above 1: Thicket runs fewer).
fn table(run: &Run, args: &Args) -> String {
    let get = |file: &str, subject: &str| {
        run.cells
            .iter()
            .find(|c| c.file == file && c.subject == subject)
    };
    let mut out = String::new();
    for kind in [Kind::Html, Kind::Xml] {
        let cols = columns(kind, args);
        let mut files: Vec<&str> = Vec::new();
        for c in run.cells.iter().filter(|c| c.file.starts_with(kind.dir())) {
            if !files.contains(&c.file.as_str()) {
                files.push(&c.file);
            }
        }
        if cols.is_empty() || files.is_empty() {
            continue;
        }
        let _ = write!(out, "\n| {} file |", kind.dir());
        for c in &cols {
            match c {
                Column::Subject(s) => {
                    let _ = write!(out, " {s} |");
                }
                Column::Ratio { other, view } => {
                    let _ = write!(out, " {other} / {view} |");
                }
            }
        }
        out.push_str("\n|---|");
        for _ in &cols {
            out.push_str("---:|");
        }
        for file in files {
            let name = file.split_once('/').map_or(file, |x| x.1);
            let _ = write!(out, "\n| {name} |");
            for c in &cols {
                let cell = match c {
                    Column::Subject(s) => get(file, s).map_or(String::new(), |c| {
                        let r = if c.rejected { " (rejected)" } else { "" };
                        format!("{}{r}", human(c.instructions))
                    }),
                    Column::Ratio { other, view } => match (get(file, other), get(file, view)) {
                        (Some(o), Some(v)) if !o.rejected && !v.rejected => {
                            format!("{:.2}×", o.instructions as f64 / v.instructions as f64)
                        }
                        (Some(_), Some(_)) => "-".into(),
                        _ => String::new(),
                    },
                };
                let _ = write!(out, " {cell} |");
            }
        }
        out.push('\n');
    }
    out
}

/// Prints each cell's change from `base` and returns how many Thicket cells grew by more than
/// `--max-increase` percent.
fn against(run: &Run, base: &Run, args: &Args) -> usize {
    let old: BTreeMap<(&str, &str), &Cell> = base
        .cells
        .iter()
        .map(|c| ((c.file.as_str(), c.subject.as_str()), c))
        .collect();
    println!(
        "\nChange against {} (commit {}{}), in % of its instructions; over +{}% marked OVER:",
        args.against.as_deref().unwrap_or(Path::new("")).display(),
        base.commit.get(..12).unwrap_or(&base.commit),
        if base.dirty { ", dirty" } else { "" },
        args.max_increase
    );
    if base.rustc != run.rustc || base.valgrind != run.valgrind {
        println!(
            "note: measured with {} / {}, the stored run with {} / {}: counts may differ for that alone",
            run.rustc, run.valgrind, base.rustc, base.valgrind
        );
    }
    let mut subjects: Vec<&str> = Vec::new();
    for c in &run.cells {
        if !subjects.contains(&c.subject.as_str()) {
            subjects.push(&c.subject);
        }
    }
    println!();
    print!("| file |");
    for s in &subjects {
        print!(" {s} |");
    }
    print!("\n|---|");
    for _ in &subjects {
        print!("---:|");
    }
    println!();
    let mut files: Vec<&str> = Vec::new();
    for c in &run.cells {
        if !files.contains(&c.file.as_str()) {
            files.push(&c.file);
        }
    }
    let mut over = Vec::new();
    let mut worst: Option<(f64, &str, &str)> = None;
    for file in files {
        print!("| {file} |");
        for s in &subjects {
            let Some(now) = run.cells.iter().find(|c| c.file == file && c.subject == *s) else {
                print!(" |");
                continue;
            };
            let Some(then) = old.get(&(file, *s)) else {
                print!(" new |");
                continue;
            };
            let pct = (now.instructions as f64 / then.instructions as f64 - 1.0) * 100.0;
            let flag = now.thicket && pct > args.max_increase;
            if now.thicket && worst.is_none_or(|w| pct > w.0) {
                worst = Some((pct, file, s));
            }
            if flag {
                over.push(format!(
                    "{file} {s}: {} -> {} ({pct:+.2}%)",
                    human(then.instructions),
                    human(now.instructions)
                ));
            }
            print!(" {pct:+.2}%{} |", if flag { " OVER" } else { "" });
        }
        println!();
    }
    if let Some((pct, file, s)) = worst {
        println!("\nlargest change of a Thicket cell: {pct:+.2}% ({file}, {s})");
    }
    for o in &over {
        println!("OVER: {o}");
    }
    over.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_reads_the_last_totals_line() {
        let out = "version: 1\nevents: Ir\nsummary: 120\nfn=main\n3 7\ntotals: 123\n";
        assert_eq!(totals(out), Some(123));
        assert_eq!(totals("events: Ir\nsummary: 99\n"), Some(99));
        assert_eq!(totals("events: Ir\n"), None);
    }

    #[test]
    fn human_keeps_four_significant_digits() {
        assert_eq!(human(93_470_939), "93.47M");
        assert_eq!(human(280_410_633), "280.4M");
        assert_eq!(human(1_234_567), "1.235M");
        assert_eq!(human(541_746), "541.7k");
        assert_eq!(human(25_790), "25.79k");
    }

    #[test]
    fn views_are_checked_and_kept_in_table_order() {
        let args: Vec<String> = ["--views", "leafxml-events,html", "--max-increase", "10"]
            .map(String::from)
            .to_vec();
        let parsed = parse_args(&args).unwrap();
        let ids: Vec<&str> = parsed.views.iter().map(|v| v.id).collect();
        assert_eq!(ids, ["html", "leafxml-events"]);
        assert_eq!(parsed.max_increase, 10.0);
        assert!(parse_args(&["--views".into(), "xml5".into()]).is_err());
        assert!(parse_args(&["--iterations".into(), "0".into()]).is_err());
        assert!(parse_args(&["--save".into()]).is_err());
    }

    #[test]
    fn every_view_names_a_known_other_parser() {
        for v in VIEWS {
            assert!(OTHERS.iter().any(|o| o.id == v.other), "{}", v.id);
        }
    }
}
