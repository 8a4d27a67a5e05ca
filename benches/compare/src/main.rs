//! `cargo xtask bench --compare`: every parser on every corpus file, in one run.
//!
//! For each file of `$THICKET_CORPUS` (default `../../../shared/corpus`, i.e. `../shared/corpus`
//! from the project root) and each parser that reads that kind of file, the harness repeats the
//! parse until at least `--seconds` (default 0.5) have passed, after a warm-up of a fifth of that,
//! keeps the fastest of several rounds, and prints MB/s. Then it prints the ratio of each Thicket
//! parser to each parser it is compared with, next to the target the issue sets.
//!
//! `--once PARSER FILE` runs one parser on one file instead (see `once.rs`; used by
//! `cargo xtask callgrind`). `--only TEXT` (repeatable) measures only the parsers whose name
//! contains one of the texts. `--check-rewrite` compares thicket-rewrite's output with
//! lol_html's on every HTML file instead (see `check_rewrite.rs`); `--check-matches` compares the
//! elements their selectors match (see `check_matches.rs`).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

mod check_matches;
mod check_rewrite;
mod once;
mod others;
mod others_rewrite;
mod output;
mod parsers;
mod thicket;

/// What kind of corpus file a parser reads.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// `corpus/html/*`
    Html,
    /// `corpus/xml/*`
    Xml,
}

/// One parser under measurement. `run` parses the whole document and returns a number derived
/// from the output (tokens, nodes, events) so the work cannot be optimized away. `None` means the
/// parser rejected the document (reported in the table, not measured).
pub struct Parser {
    /// Display name, e.g. `thicket-html` or `html5gum`.
    pub name: &'static str,
    /// Which corpus files it reads.
    pub kind: Kind,
    /// Parses `text` (and `bytes`, the same document undecoded).
    pub run: fn(text: &str, bytes: &[u8]) -> Option<usize>,
}

/// A Thicket parser compared with another, and the minimum ratio the issue asks for.
pub struct Comparison {
    /// The Thicket parser.
    pub ours: &'static str,
    /// The other parser.
    pub theirs: &'static str,
    /// Target: ours / theirs must be at least this.
    pub target: f64,
}

fn main() {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    if argv.first().is_some_and(|a| a == "--once") {
        once::run(&argv[1..]);
    }
    let mut seconds = 0.5f64;
    let mut filter: Option<String> = None;
    let mut only: Vec<String> = Vec::new();
    let mut check = false;
    let mut check_matches = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--seconds" => seconds = args.next().and_then(|s| s.parse().ok()).unwrap_or(seconds),
            "--bench" => {}
            "--only" => only.extend(args.next()),
            "--check-rewrite" => check = true,
            "--check-matches" => check_matches = true,
            s if !s.starts_with('-') => filter = Some(s.to_owned()),
            _ => {}
        }
    }
    let corpus = std::env::var_os("THICKET_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"));
    if check {
        check_rewrite::run(&corpus);
    }
    if check_matches {
        check_matches::run(&corpus, std::env::args().any(|a| a == "--scripting"));
    }
    let mut parsers = parsers::all();
    if !only.is_empty() {
        parsers.retain(|p| only.iter().any(|o| p.name.contains(o.as_str())));
    }
    let comparisons = parsers::comparisons();
    let mut results: Vec<(String, &'static str, Option<f64>)> = Vec::new();

    for (kind, dir) in [(Kind::Html, "html"), (Kind::Xml, "xml")] {
        let mut files: Vec<PathBuf> = match std::fs::read_dir(corpus.join(dir)) {
            Ok(rd) => rd.filter_map(|e| e.ok().map(|e| e.path())).collect(),
            Err(e) => {
                eprintln!("compare: cannot read {}: {e}", corpus.join(dir).display());
                continue;
            }
        };
        files.sort();
        for path in files {
            let name = path
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            if filter.as_deref().is_some_and(|f| !name.contains(f)) {
                continue;
            }
            let bytes = std::fs::read(&path).unwrap_or_default();
            let text = String::from_utf8_lossy(&bytes).into_owned();
            println!("\n{dir}/{name} ({:.1} KB)", bytes.len() as f64 / 1024.0);
            for p in parsers.iter().filter(|p| p.kind == kind) {
                let mbs = measure(p, &text, &bytes, seconds);
                match mbs {
                    Some(v) => println!("  {:<28} {:>9.1} MB/s", p.name, v),
                    None => println!("  {:<28} {:>9} (rejects this document)", p.name, "-"),
                }
                results.push((format!("{dir}/{name}"), p.name, mbs));
            }
            for c in comparisons.iter() {
                let get = |n: &str| {
                    results
                        .iter()
                        .rev()
                        .find(|(f, p, _)| *p == n && f.ends_with(&name))
                        .and_then(|r| r.2)
                };
                if let (Some(a), Some(b)) = (get(c.ours), get(c.theirs)) {
                    let ratio = a / b;
                    let verdict = if ratio >= c.target {
                        "ok"
                    } else {
                        "BELOW TARGET"
                    };
                    println!(
                        "  ratio {} / {} = {ratio:.2}x (target {:.1}x) {verdict}",
                        c.ours, c.theirs, c.target
                    );
                }
            }
        }
    }
}

fn measure(p: &Parser, text: &str, bytes: &[u8], seconds: f64) -> Option<f64> {
    // Warm up: once (a rejection ends the measurement), then for a fifth of the budget, so that
    // caches, the allocator and the CPU's clock settle before timing (the first parser of a run
    // measured at half its speed in one run otherwise).
    let mut sink = (p.run)(text, bytes)?;
    let warm = Instant::now();
    while warm.elapsed().as_secs_f64() < seconds / 5.0 {
        sink = sink.wrapping_add((p.run)(text, bytes).unwrap_or(0));
    }
    let budget = Duration::from_secs_f64(seconds);
    let mut best = f64::INFINITY;
    let start = Instant::now();
    let mut rounds = 0;
    while start.elapsed() < budget || rounds < 3 {
        let t = Instant::now();
        sink = sink.wrapping_add((p.run)(text, bytes).unwrap_or(0));
        best = best.min(t.elapsed().as_secs_f64());
        rounds += 1;
    }
    std::hint::black_box(sink);
    Some(bytes.len() as f64 / 1e6 / best)
}
