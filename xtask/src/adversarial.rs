//! `cargo xtask adversarial`: hostile inputs through every dialect, library and command line.
//!
//! Builds the `thicket` binary and the `drive` example of thicket-cli (release), generates each
//! case of [`cases::CASES`] at 1x, 2x and 4x into a temporary folder, and runs every dialect's
//! views over it: the library (`drive DIALECT tree|stream`) and the command line (`check`,
//! `--tokens`/`--events`, `--tree`, `--json`, `select --attr id '*'` and `rewrite --set-attr '*'
//! data-x 1`), each with the command line's default limits and
//! with every limit off. Each program reports its own peak resident set size and CPU time at
//! exit (`THICKET_REPORT_USAGE`: `VmHWM` and /proc/self/schedstat, so a busy machine, which
//! makes a program wait for a CPU, does not count); the wall clock is shown beside it. Short
//! runs are repeated and the fastest kept. Times are net of a run on `<r/>` (process start). The
//! table compares the per-byte CPU time with a normal document of the same dialect and view
//! (see [`NORMAL`]), and shows the growth from the smallest to the largest size and the peak
//! memory, against the targets of issue 12. It is a benchmark: nothing here is asserted in
//! `cargo test`.

mod cases;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use cases::{CASES, Case};

use crate::{Result, paths};

const USAGE: &str = "\
usage: cargo xtask adversarial [options]

  --quick             a short run: sizes 1x and 4x at 1/16 of the base sizes
  --cases A,B         only these cases (default: all; --list shows them)
  --dialects D,E      only these dialects (xml5, microxml, leafxml, html)
  --views V,W         only these views (lib-tree, lib-stream, check, tokens, events, tree, json,
                      select, rewrite)
  --sizes 1,2,4       the multiples of the base size (default 1,2,4)
  --scale F           multiply every base size by F (default 1; --quick: 0.0625)
  --limits on|off|both  the command line's default limits, all limits off, or both (default)
  --runs N            runs per measurement, best kept (default: 5 under 0.1 s, 3 under 1 s, else 1)
  --timeout S         seconds before a run is stopped (default 300)
  --out FILE.md       also write the table to FILE.md
  --no-build          use the binaries already in target/release
  --keep              keep the generated inputs (their folder is printed)
  --list              list the cases and exit
";

/// The normal document each dialect is compared with (in `../shared/corpus`): a large real
/// document whose per-byte time is in the middle of the corpus, not a tiny file (process start
/// would dominate) nor the slowest one (which would flatter every ratio). Measured with the
/// `drive` example's stream mode, net of process start (ns/B, xml5 / microxml / leafxml):
/// vk.xml (3.3 MB, a registry: elements, attributes and text) 2.9 / 3.7 / 2.8, between
/// huge.xml (0.8 MB) 2.3 / 2.9 / 2.8 and multipolygon_testcases.osm (1.2 MB, nearly all
/// attributes, the slowest) 3.8 / 6.4 / 2.4; gigantic.svg (1.3 MB, one long path) is 0.7 / 0.6
/// / 2.1. For HTML, html-parsing-spec.html (0.7 MB) 2.2, beside the 4.2 MB WHATWG source 2.1
/// and ecma402-spec.html 2.4. (Before, the XML dialects were compared with
/// multipolygon_testcases.osm, which made their ratios look 1.3-1.7x better than they are.)
pub const NORMAL: &[(&str, &str)] = &[
    ("xml5", "xml/vk.xml"),
    ("microxml", "xml/vk.xml"),
    ("leafxml", "xml/vk.xml"),
    ("html", "html/html-parsing-spec.html"),
];

/// The views of each dialect.
const VIEWS: &[(&str, &[&str])] = &[
    (
        "xml5",
        &[
            "lib-tree",
            "lib-stream",
            "check",
            "tokens",
            "events",
            "tree",
            "json",
            "select",
            "rewrite",
        ],
    ),
    (
        "microxml",
        &[
            "lib-tree",
            "lib-stream",
            "check",
            "tokens",
            "tree",
            "json",
            "select",
            "rewrite",
        ],
    ),
    (
        "leafxml",
        &[
            "lib-tree",
            "lib-stream",
            "check",
            "events",
            "tree",
            "json",
            "select",
            "rewrite",
        ],
    ),
    (
        "html",
        &[
            "lib-tree",
            "lib-stream",
            "check",
            "tokens",
            "json",
            "select",
            "rewrite",
        ],
    ),
];

/// Views that read the input in chunks and should stay in bounded memory.
fn is_streaming(view: &str) -> bool {
    matches!(
        view,
        "lib-stream" | "check" | "tokens" | "events" | "select" | "rewrite"
    )
}

/// Issue 12's targets.
const MAX_GROWTH_PER_4X: f64 = 4.4;
const MAX_RATIO: f64 = 3.0;
const MAX_RATIO_DENSE: f64 = 10.0;
const MAX_STREAMING_KB: u64 = 16 * 1024;

#[derive(Clone, Debug)]
struct Options {
    cases: Option<Vec<String>>,
    dialects: Option<Vec<String>>,
    views: Option<Vec<String>>,
    sizes: Vec<usize>,
    scale: f64,
    limits: Vec<bool>,
    runs: Option<usize>,
    timeout: Duration,
    out: Option<PathBuf>,
    build: bool,
    keep: bool,
}

fn list(value: Option<&String>) -> Result<Vec<String>> {
    let value = value.ok_or("a list is missing")?;
    Ok(value.split(',').map(str::to_owned).collect())
}

fn parse_options(args: &[String]) -> Result<Option<Options>> {
    let mut o = Options {
        cases: None,
        dialects: None,
        views: None,
        sizes: vec![1, 2, 4],
        scale: 1.0,
        limits: vec![true, false],
        runs: None,
        timeout: Duration::from_secs(300),
        out: None,
        build: true,
        keep: false,
    };
    let mut scale_given = false;
    let mut sizes_given = false;
    let mut quick = false;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--quick" => quick = true,
            "--cases" => o.cases = Some(list(it.next())?),
            "--dialects" => o.dialects = Some(list(it.next())?),
            "--views" => o.views = Some(list(it.next())?),
            "--sizes" => {
                sizes_given = true;
                o.sizes = list(it.next())?
                    .iter()
                    .map(|s| s.parse())
                    .collect::<std::result::Result<_, _>>()?;
            }
            "--scale" => {
                scale_given = true;
                o.scale = it.next().ok_or("--scale needs a number")?.parse()?;
            }
            "--limits" => {
                o.limits = match it.next().map(String::as_str) {
                    Some("on") => vec![true],
                    Some("off") => vec![false],
                    Some("both") => vec![true, false],
                    _ => return Err("--limits takes on, off or both".into()),
                }
            }
            "--runs" => o.runs = Some(it.next().ok_or("--runs needs a number")?.parse()?),
            "--timeout" => {
                o.timeout =
                    Duration::from_secs_f64(it.next().ok_or("--timeout needs seconds")?.parse()?)
            }
            "--out" => o.out = Some(PathBuf::from(it.next().ok_or("--out needs a file")?)),
            "--no-build" => o.build = false,
            "--keep" => o.keep = true,
            "--list" => {
                for c in CASES {
                    println!("{:<18} {}", c.name, c.what);
                }
                return Ok(None);
            }
            "-h" | "--help" => {
                print!("{USAGE}");
                return Ok(None);
            }
            other => return Err(format!("unknown option `{other}`\n{USAGE}").into()),
        }
    }
    if quick {
        if !scale_given {
            o.scale = 1.0 / 16.0;
        }
        if !sizes_given {
            o.sizes = vec![1, 4];
        }
    }
    if o.sizes.is_empty() || o.sizes.contains(&0) {
        return Err("--sizes needs positive multiples".into());
    }
    o.sizes.sort_unstable();
    o.sizes.dedup();
    for (what, given, known) in [
        (
            "case",
            &o.cases,
            CASES.iter().map(|c| c.name).collect::<Vec<_>>(),
        ),
        ("dialect", &o.dialects, VIEWS.iter().map(|v| v.0).collect()),
        (
            "view",
            &o.views,
            vec![
                "lib-tree",
                "lib-stream",
                "check",
                "tokens",
                "events",
                "tree",
                "json",
                "select",
                "rewrite",
            ],
        ),
    ] {
        for g in given.iter().flatten() {
            if !known.contains(&g.as_str()) {
                return Err(format!("unknown {what} `{g}` (known: {})", known.join(", ")).into());
            }
        }
    }
    Ok(Some(o))
}

/// Where the binaries are.
struct Binaries {
    thicket: PathBuf,
    drive: PathBuf,
}

fn build(root: &Path, really: bool) -> Result<Binaries> {
    if really {
        let status = Command::new(env!("CARGO"))
            .current_dir(root)
            .args([
                "build",
                "--release",
                "--quiet",
                "-p",
                "thicket-cli",
                "--bin",
                "thicket",
                "--example",
                "drive",
            ])
            .status()?;
        if !status.success() {
            return Err("building thicket and the drive example failed".into());
        }
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"))
        .join("release");
    let bins = Binaries {
        thicket: target.join("thicket"),
        drive: target.join("examples/drive"),
    };
    for b in [&bins.thicket, &bins.drive] {
        if !b.is_file() {
            return Err(
                format!("{} is missing (build it, or drop --no-build)", b.display()).into(),
            );
        }
    }
    Ok(bins)
}

/// The command of one view (`limits`: the command line's defaults, else every limit off).
fn command(bins: &Binaries, dialect: &str, view: &str, limits: bool, file: &Path) -> Command {
    let mut cmd;
    if let Some(mode) = view.strip_prefix("lib-") {
        cmd = Command::new(&bins.drive);
        cmd.args([dialect, mode, if limits { "limits" } else { "no-limits" }]);
    } else {
        cmd = Command::new(&bins.thicket);
        match view {
            "check" => cmd.args(["check", "-d", dialect]),
            // Every element matched; what is printed (one attribute) grows with the input only.
            "select" => cmd.args(["select", "-d", dialect, "--attr", "id", "*"]),
            // Every start tag edited, written to standard output.
            "rewrite" => cmd.args(["rewrite", "-d", dialect, "--set-attr", "*", "data-x", "1"]),
            v => cmd.args(["parse", "-d", dialect, &format!("--{v}")]),
        };
        if !limits {
            cmd.arg("--no-limits");
        }
    }
    cmd.arg(file);
    cmd
}

/// How a run ended.
#[derive(Clone, Copy, Debug)]
enum End {
    /// Exit status.
    Exit(i32),
    /// Killed by a signal (a crash).
    Signal,
    /// Stopped after the timeout.
    Timeout,
}

/// One measured run.
#[derive(Clone, Copy, Debug)]
struct Run {
    /// Wall-clock seconds.
    wall: f64,
    /// Seconds on a CPU (the program's own report: immune to waiting for a busy machine).
    cpu: f64,
    peak_kb: u64,
    end: End,
}

/// Runs `cmd` with its output discarded; the program writes its peak memory and CPU time to a
/// file at exit (`THICKET_REPORT_USAGE`, see `thicket_cli::write_usage`).
fn measure_once(cmd: &Command, timeout: Duration, scratch: &Path) -> Result<Run> {
    let report = scratch.join("usage.txt");
    let _ = std::fs::remove_file(&report);
    let mut run = Command::new(cmd.get_program());
    run.args(cmd.get_args())
        .env("THICKET_REPORT_USAGE", &report)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let start = Instant::now();
    let mut child = run.spawn()?;
    let mut timed_out = false;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if start.elapsed() > timeout {
            timed_out = true;
            let _ = child.kill();
            break child.wait()?;
        }
        std::thread::sleep(Duration::from_micros(500));
    };
    let wall = start.elapsed().as_secs_f64();
    let text = std::fs::read_to_string(&report).unwrap_or_default();
    let field = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key))
            .and_then(|v| v.trim().parse::<u64>().ok())
            .unwrap_or(0)
    };
    let end = if timed_out {
        End::Timeout
    } else {
        status.code().map_or(End::Signal, End::Exit)
    };
    Ok(Run {
        wall,
        cpu: field("cpu_ns") as f64 / 1e9,
        peak_kb: field("peak_kb"),
        end,
    })
}

/// The best of `runs` runs by CPU time (when unset: five under 0.1 s of wall time, three under
/// a second, else one).
fn measure(cmd: &Command, o: &Options, scratch: &Path) -> Result<Run> {
    let first = measure_once(cmd, o.timeout, scratch)?;
    let runs = o.runs.unwrap_or(match first.wall {
        s if s < 0.1 => 5,
        s if s < 1.0 => 3,
        _ => 1,
    });
    let mut best = first;
    for _ in 1..runs {
        if !matches!(best.end, End::Exit(_)) {
            break;
        }
        let r = measure_once(cmd, o.timeout, scratch)?;
        if r.cpu < best.cpu {
            best = Run {
                peak_kb: best.peak_kb.max(r.peak_kb),
                ..r
            };
        }
    }
    Ok(best)
}

/// One row of the table: a case through one view of one dialect, with or without limits.
struct Row {
    case: &'static str,
    dialect: &'static str,
    view: &'static str,
    limits: bool,
    /// (size multiple, bytes, run) for every size measured.
    runs: Vec<(usize, usize, Run)>,
    /// The normal document's ns per byte in the same view.
    normal_ns: f64,
    /// The time of a run on a tiny document (process start, reading, printing nothing much),
    /// taken off every time before it is divided or compared.
    startup: f64,
    /// Whether the 10x target applies (every byte or construct an error in this run).
    dense: bool,
}

impl Row {
    fn verdict(&self) -> String {
        let mut problems = Vec::new();
        for (_, _, r) in &self.runs {
            let expected = |code| {
                if self.view.starts_with("lib-") {
                    code == 0
                } else if matches!(self.view, "select" | "rewrite") {
                    // 2: a document the rewriter refuses (LeafXML's first error, a tag past
                    // --max-attributes that an edit could break), as docs/cli.md says.
                    code <= 2
                } else {
                    code == 0 || code == 1
                }
            };
            match r.end {
                End::Timeout => problems.push("timeout".to_owned()),
                End::Signal => problems.push("crash".to_owned()),
                End::Exit(code) if !expected(code) => problems.push(format!("exit {code}")),
                End::Exit(_) => {}
            }
        }
        if let Some(g) = self.growth()
            && g.0 > g.1
        {
            problems.push(format!("growth {:.1}", g.0));
        }
        if let Some(ratio) = self.ratio() {
            let max = if self.dense {
                MAX_RATIO_DENSE
            } else {
                MAX_RATIO
            };
            if ratio > max {
                problems.push(format!("{ratio:.0}x normal"));
            }
        }
        if self.limits && is_streaming(self.view) && self.peak_kb() > MAX_STREAMING_KB {
            problems.push(format!("{:.0} MB", self.peak_kb() as f64 / 1024.0));
        }
        problems.dedup();
        if problems.is_empty() {
            "ok".to_owned()
        } else {
            problems.join(", ")
        }
    }

    fn completed(&self) -> impl Iterator<Item = &(usize, usize, Run)> {
        self.runs
            .iter()
            .filter(|(_, _, r)| matches!(r.end, End::Exit(_)))
    }

    /// CPU seconds of a run, without the startup time.
    fn net(&self, r: &Run) -> f64 {
        (r.cpu - self.startup).max(1e-5)
    }

    /// ns per byte at the smallest size.
    fn ns_per_byte(&self) -> Option<f64> {
        let (_, bytes, r) = self.completed().next()?;
        Some(self.net(r) * 1e9 / *bytes as f64)
    }

    fn ratio(&self) -> Option<f64> {
        Some(self.ns_per_byte()? / self.normal_ns)
    }

    /// Time growth from the smallest to the largest size, and the most it may be.
    fn growth(&self) -> Option<(f64, f64)> {
        let (m0, b0, r0) = self.completed().next()?;
        let (m1, b1, r1) = self.completed().last()?;
        if m1 == m0 {
            return None;
        }
        let allowed = MAX_GROWTH_PER_4X / 4.0 * (*b1 as f64 / *b0 as f64);
        Some((self.net(r1) / self.net(r0), allowed))
    }

    fn peak_kb(&self) -> u64 {
        self.runs
            .iter()
            .map(|(_, _, r)| r.peak_kb)
            .max()
            .unwrap_or(0)
    }

    fn markdown(&self) -> String {
        let first = self.runs.first();
        let last = self.runs.last();
        let ms = |r: Option<&(usize, usize, Run)>, wall: bool| match r {
            Some((_, _, r)) if matches!(r.end, End::Timeout) => ">timeout".to_owned(),
            Some((_, _, r)) => format!("{:.1}", if wall { r.wall } else { r.cpu } * 1e3),
            None => "-".to_owned(),
        };
        let opt =
            |v: Option<f64>, digits: usize| v.map_or("-".to_owned(), |v| format!("{v:.digits$}"));
        format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.1} | {} |",
            self.case,
            self.dialect,
            self.view,
            if self.limits { "on" } else { "off" },
            first.map_or("-".to_owned(), |f| human(f.1)),
            ms(first, false),
            ms(last, false),
            ms(last, true),
            opt(self.ns_per_byte(), 1),
            opt(self.ratio(), 1),
            opt(self.growth().map(|g| g.0), 2),
            self.peak_kb() as f64 / 1024.0,
            self.verdict(),
        )
    }
}

const HEADER: &str = "| case | dialect | view | limits | size (1st) | cpu ms (1st) | cpu ms (last) | wall ms (last) | ns/B | x normal | growth | peak MB | verdict |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|";

fn human(bytes: usize) -> String {
    if bytes >= 1 << 20 {
        format!("{:.1} MB", bytes as f64 / (1 << 20) as f64)
    } else {
        format!("{:.0} KB", bytes as f64 / 1024.0)
    }
}

fn wanted(filter: &Option<Vec<String>>, name: &str) -> bool {
    filter.as_ref().is_none_or(|f| f.iter().any(|x| x == name))
}

/// Runs the command.
pub fn run(args: &[String]) -> Result<()> {
    let Some(o) = parse_options(args)? else {
        return Ok(());
    };
    if !Path::new("/proc/self/schedstat").is_file() {
        return Err("the suite reads /proc/self/schedstat and /proc/self/status (Linux)".into());
    }
    let root = paths::project_root();
    let corpus = root.join("../shared/corpus");
    let bins = build(&root, o.build)?;
    let scratch = std::env::temp_dir().join(format!("thicket-adversarial-{}", std::process::id()));
    std::fs::create_dir_all(&scratch)?;
    let result = run_all(&o, &bins, &corpus, &scratch);
    if o.keep {
        eprintln!("inputs kept in {}", scratch.display());
    } else {
        let _ = std::fs::remove_dir_all(&scratch);
    }
    result
}

fn run_all(o: &Options, bins: &Binaries, corpus: &Path, scratch: &Path) -> Result<()> {
    let mut out = String::new();
    let commit = Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "Adversarial suite (`cargo xtask adversarial`), commit {commit}: sizes {:?} x base x {}; \
         cpu ms (1st)/(last): CPU time at the smallest and largest size, wall ms beside it; ns/B \
         (CPU, net of a run on `<r/>`) and x normal at the smallest size; growth: CPU time from \
         the smallest to the largest size (target {MAX_GROWTH_PER_4X} per 4x); \
         targets: at most {MAX_RATIO}x the normal document's ns/B ({MAX_RATIO_DENSE}x for cases \
         where every byte is an error), streaming views under {} MB with limits on.\n",
        o.sizes,
        o.scale,
        MAX_STREAMING_KB / 1024
    );
    let dense: Vec<String> = CASES
        .iter()
        .filter(|c| c.dense)
        .map(|c| c.name.to_owned())
        .collect();
    let with_limits: Vec<String> = CASES
        .iter()
        .filter(|c| !c.dense_with_limits.is_empty())
        .map(|c| format!("{} ({})", c.name, c.dense_with_limits.join(", ")))
        .collect();
    let _ = writeln!(
        out,
        "Cases held to {MAX_RATIO_DENSE}x: {}; with limits on also {} (every construct past a \
         limit is that limit's diagnostic). A verdict names each target a row misses: \
         `growth G` (over {MAX_GROWTH_PER_4X} per 4x), `Nx normal` (over the ratio target), \
         `M MB` (a streaming view over {} MB with limits on), or how a run ended (timeout, crash, \
         exit status).\n",
        dense.join(", "),
        with_limits.join(", "),
        MAX_STREAMING_KB / 1024
    );
    // The normal documents, per dialect, view and limits, and the startup times.
    let mut normal: Vec<(Key, Normal)> = Vec::new();
    let tiny = scratch.join("tiny.xml");
    std::fs::write(&tiny, "<r/>")?;
    let _ = writeln!(
        out,
        "Normal documents (a large real document per dialect, in the middle of the corpus by \
         per-byte time: see `NORMAL` in xtask/src/adversarial.rs; ns/B per view, limits on / \
         off; every time here is net of the startup time, a run on `<r/>`):\n"
    );
    for &(dialect, views) in VIEWS {
        if !wanted(&o.dialects, dialect) {
            continue;
        }
        let file = NORMAL
            .iter()
            .find(|n| n.0 == dialect)
            .map(|n| corpus.join(n.1))
            .ok_or("no normal document")?;
        let bytes = std::fs::metadata(&file)
            .map_err(|e| format!("{}: {e}", file.display()))?
            .len() as f64;
        let mut line = format!("- {dialect}, {}:", file.display());
        for &view in views.iter() {
            if !wanted(&o.views, view) {
                continue;
            }
            let mut parts = Vec::new();
            for &limits in &o.limits {
                let forced = Options {
                    runs: Some(o.runs.unwrap_or(7)),
                    ..o.clone()
                };
                let startup = measure(
                    &command(bins, dialect, view, limits, &tiny),
                    &forced,
                    scratch,
                )?
                .cpu;
                let cmd = command(bins, dialect, view, limits, &file);
                let r = measure(&cmd, &forced, scratch)?;
                let ns = (r.cpu - startup).max(1e-5) * 1e9 / bytes;
                normal.push(((dialect, view, limits), (ns, startup)));
                parts.push(format!("{ns:.1}"));
            }
            let _ = write!(line, " {view} {}", parts.join("/"));
        }
        let _ = writeln!(out, "{line}");
    }
    let _ = writeln!(out, "\n{HEADER}");
    eprintln!("{out}");
    let mut failures = 0;
    for case in CASES {
        if !wanted(&o.cases, case.name) {
            continue;
        }
        let files = generate(case, o, scratch)?;
        for &(dialect, views) in VIEWS {
            if !wanted(&o.dialects, dialect) {
                continue;
            }
            for &view in views.iter() {
                if !wanted(&o.views, view) {
                    continue;
                }
                for &limits in &o.limits {
                    let (normal_ns, startup) = normal
                        .iter()
                        .find(|(k, _)| *k == (dialect, view, limits))
                        .map_or((f64::NAN, 0.0), |(_, v)| *v);
                    let mut row = Row {
                        case: case.name,
                        dialect,
                        view,
                        limits,
                        runs: Vec::new(),
                        normal_ns,
                        startup,
                        dense: case.dense || (limits && case.dense_with_limits.contains(&dialect)),
                    };
                    for (multiple, file, bytes) in &files {
                        let cmd = command(bins, dialect, view, limits, file);
                        let r = measure(&cmd, o, scratch)?;
                        row.runs.push((*multiple, *bytes, r));
                        if matches!(r.end, End::Timeout) {
                            break;
                        }
                    }
                    let line = row.markdown();
                    if row.verdict() != "ok" {
                        failures += 1;
                    }
                    eprintln!("{line}");
                    let _ = writeln!(out, "{line}");
                }
            }
        }
        for (_, file, _) in files {
            if !o.keep {
                let _ = std::fs::remove_file(file);
            }
        }
    }
    let _ = writeln!(out, "\n{failures} rows miss a target.");
    println!("{out}");
    if let Some(path) = &o.out {
        std::fs::write(path, &out)?;
        eprintln!("written to {}", path.display());
    }
    Ok(())
}

/// A dialect, a view, and whether limits are on.
type Key = (&'static str, &'static str, bool);

/// A normal document's ns per byte and the startup time, for one [`Key`].
type Normal = (f64, f64);

/// Writes the case at every size; returns (multiple, path, bytes).
fn generate(case: &Case, o: &Options, scratch: &Path) -> Result<Vec<(usize, PathBuf, usize)>> {
    o.sizes
        .iter()
        .map(|&m| {
            let amount = ((case.base as f64 * o.scale) as usize * m).max(1);
            let bytes = (case.generate)(amount);
            let path = scratch.join(format!("{}-{m}x.xml", case.name));
            std::fs::write(&path, &bytes)?;
            Ok((m, path, bytes.len()))
        })
        .collect()
}
