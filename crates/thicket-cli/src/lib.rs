#![doc = include_str!("../README.md")]

pub mod dialect;
pub mod outline;
pub mod render;
pub mod source;
pub mod window;

use std::io::{self, BufWriter, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use clap::{Args, Parser, Subcommand};

use dialect::{CliError, Dialect, Parsed, Sink, StreamView};
use outline::{json_str, lines};
use render::write_diag;
use source::{Source, describe};
use window::Window;

/// Exit code: the command ran and every input is valid (or `compare` ran).
pub const EXIT_OK: u8 = 0;
/// Exit code: some input has diagnostics (is not valid for its dialect).
pub const EXIT_INVALID: u8 = 1;
/// Exit code: a usage error, or an input could not be read.
pub const EXIT_TROUBLE: u8 = 2;

/// Parse, compare and check documents in the four Thicket dialects: XML5, MicroXML, LeafXML
/// and HTML.
#[derive(Debug, Parser)]
#[command(
    name = "thicket",
    version,
    arg_required_else_help = true,
    after_help = "Exit status: 0 when every input is valid, 1 when some input has diagnostics, \
                  2 for usage errors and unreadable files.\n\n\
                  Examples:\n  \
                  thicket parse page.html            tokens and parse errors of an HTML page\n  \
                  thicket parse --tree feed.xml      the XML5 tree as an indented outline\n  \
                  thicket parse --dialect leafxml --json data.xml\n  \
                  thicket compare doc.xml            how the four dialects read one document\n  \
                  thicket check --dialect microxml *.xml"
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Parse one document and print its tokens, events or tree; diagnostics go to stderr.
    #[command(
        after_help = "Without a view flag, HTML prints its tokens and the other dialects \
                            their tree. --tokens, --events and check stream: memory stays \
                            bounded however large the input."
    )]
    Parse(ParseArgs),
    /// Read one document with all four dialects and show how they differ.
    Compare(CompareArgs),
    /// Check that files are valid for a dialect, one summary line per file (in parallel).
    #[command(
        after_help = "Valid means: LeafXML decodes without error; MicroXML has no validity \
                      diagnostics; XML5 and HTML have no parse errors.\n\
                      Exit status: 0 when every file is valid, 1 when one is not, 2 when one \
                      cannot be read."
    )]
    Check(CheckArgs),
}

#[derive(Debug, Args)]
struct ParseArgs {
    /// The dialect [default: html for .html and .htm files, xml5 otherwise].
    #[arg(long, short, value_enum)]
    dialect: Option<Dialect>,
    #[command(flatten)]
    view: ViewArgs,
    /// The file to read, or `-` for standard input.
    #[arg(value_name = "FILE|-")]
    file: String,
}

#[derive(Debug, Args)]
#[group(multiple = false)]
struct ViewArgs {
    /// One line per token (html, xml5, microxml), streamed.
    #[arg(long)]
    tokens: bool,
    /// One line per event (xml5: tokens and errors in order; leafxml: start, text, end), streamed.
    #[arg(long)]
    events: bool,
    /// The tree as an indented outline (xml5, microxml, leafxml).
    #[arg(long)]
    tree: bool,
    /// The tree (or html's tokens) and the diagnostics as one JSON object (see docs/cli.md).
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Args)]
struct CompareArgs {
    /// Lines of each dialect's outline to show; 0 shows everything.
    #[arg(long, default_value_t = 40, value_name = "N")]
    max_lines: usize,
    /// The file to read, or `-` for standard input.
    #[arg(value_name = "FILE|-")]
    file: String,
}

#[derive(Debug, Args)]
struct CheckArgs {
    /// The dialect [default: html for .html and .htm files, xml5 otherwise, per file].
    #[arg(long, short, value_enum)]
    dialect: Option<Dialect>,
    /// The files to check (`-` for standard input).
    #[arg(value_name = "FILE", required = true)]
    files: Vec<String>,
}

/// Runs the command line `args` (the program name first) and returns the exit code.
pub fn run<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() {
                EXIT_TROUBLE
            } else {
                EXIT_OK
            });
        }
    };
    let result = match cli.command {
        Command::Parse(a) => parse(a),
        Command::Compare(a) => compare(a),
        Command::Check(a) => check(a),
    };
    if std::env::var_os("THICKET_REPORT_PEAK_RSS").is_some() {
        report_peak_rss();
    }
    match result {
        Ok(code) => ExitCode::from(code),
        Err(CliError::Write(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::from(EXIT_OK),
        Err(CliError::Write(e)) => {
            eprintln!("thicket: cannot write the output: {}", describe(&e));
            ExitCode::from(EXIT_TROUBLE)
        }
        Err(CliError::Read(e)) => {
            eprintln!("thicket: {e}");
            ExitCode::from(EXIT_TROUBLE)
        }
    }
}

/// Prints the peak resident set size (`VmHWM` of /proc/self/status) on stderr: the hook the
/// bounded-memory tests use (Linux only; elsewhere it prints nothing).
fn report_peak_rss() {
    if let Ok(status) = std::fs::read_to_string("/proc/self/status")
        && let Some(line) = status.lines().find(|l| l.starts_with("VmHWM:"))
    {
        eprintln!("thicket: peak {}", line.trim_start_matches("Vm").trim());
    }
}

/// Whether diagnostics on stderr get colour.
fn styled() -> bool {
    io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

fn parse(args: ParseArgs) -> Result<u8, CliError> {
    let dialect = args
        .dialect
        .unwrap_or_else(|| Dialect::from_path(&args.file));
    let v = &args.view;
    let streamed = if v.tokens || (dialect == Dialect::Html && !v.json && !v.tree && !v.events) {
        Some(StreamView::Tokens)
    } else if v.events {
        Some(StreamView::Events)
    } else {
        None
    };
    if v.tree && dialect == Dialect::Html {
        eprintln!(
            "thicket: the html dialect has no tree: Thicket implements HTML's tokenization stage \
             only. Use --tokens (the default for html) or --json."
        );
        return Ok(EXIT_TROUBLE);
    }
    if let Some(view) = streamed
        && let Err(message) = dialect::supports(dialect, view)
    {
        eprintln!("thicket: {message}");
        return Ok(EXIT_TROUBLE);
    }
    let mut src = Source::open(&args.file)?.with_progress();
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let stderr = io::stderr();
    let mut err = BufWriter::new(stderr.lock());
    if let Some(view) = streamed {
        let count = {
            let mut sink = Sink::new(&src.name.clone());
            sink.out = Some(&mut out);
            sink.err = Some(&mut err);
            sink.styled = styled();
            dialect::stream(dialect, &mut src, view, &mut sink)?;
            sink.count
        };
        out.flush()?;
        err.flush()?;
        return Ok(if count == 0 { EXIT_OK } else { EXIT_INVALID });
    }
    let name = src.name.clone();
    let bytes = src.read_all()?;
    let parsed = dialect::parse(dialect, &bytes);
    drop(bytes);
    if v.json {
        let mut json = String::new();
        write_json(&mut json, dialect, &name, &parsed);
        out.write_all(json.as_bytes())?;
        out.write_all(b"\n")?;
    } else if let Some(tree) = &parsed.tree {
        for line in lines(tree) {
            writeln!(out, "{line}")?;
        }
    }
    out.flush()?;
    let mut window = Window::unbounded();
    window.push(&parsed.text);
    let styled = styled();
    for d in &parsed.diags {
        write_diag(&mut err, &name, &window, d, styled)?;
    }
    err.flush()?;
    Ok(if parsed.diags.is_empty() {
        EXIT_OK
    } else {
        EXIT_INVALID
    })
}

/// The `--json` object (documented in docs/cli.md).
fn write_json(out: &mut String, dialect: Dialect, name: &str, parsed: &Parsed) {
    use std::fmt::Write as _;
    let mut window = Window::unbounded();
    window.push(&parsed.text);
    out.push_str(r#"{"dialect":"#);
    json_str(out, dialect.name());
    out.push_str(r#","file":"#);
    json_str(out, name);
    let _ = write!(out, r#","valid":{}"#, parsed.diags.is_empty());
    out.push_str(r#","tree":"#);
    match &parsed.tree {
        // LeafXML stops at its first error: there is no document then.
        Some(_) if dialect == Dialect::Leafxml && !parsed.diags.is_empty() => out.push_str("null"),
        Some(tree) => outline::json(tree, out),
        None => out.push_str("null"),
    }
    out.push_str(r#","tokens":"#);
    match &parsed.tokens_json {
        Some(tokens) => {
            out.push('[');
            for (i, t) in tokens.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(t);
            }
            out.push(']');
        }
        None => out.push_str("null"),
    }
    out.push_str(r#","diagnostics":["#);
    for (i, d) in parsed.diags.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(r#"{"code":"#);
        json_str(out, d.code);
        out.push_str(r#","message":"#);
        json_str(out, d.message);
        let (line, column) = d.locate(&window).unwrap_or((0, 0));
        let _ = write!(
            out,
            r#","line":{line},"column":{column},"start":{},"end":{}}}"#,
            d.span.start, d.span.end
        );
    }
    out.push_str("]}");
}

fn compare(args: CompareArgs) -> Result<u8, CliError> {
    let src = Source::open(&args.file)?.with_progress();
    let name = src.name.clone();
    let bytes = src.read_all()?;
    let results: Vec<(Dialect, Parsed)> = Dialect::ALL
        .iter()
        .map(|&d| (d, dialect::parse(d, &bytes)))
        .collect();
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    writeln!(out, "{name}: {} bytes, read by four dialects", bytes.len())?;
    writeln!(out)?;
    writeln!(
        out,
        "{:<9} {:>11}  first diagnostic",
        "dialect", "diagnostics"
    )?;
    for (d, parsed) in &results {
        let mut window = Window::unbounded();
        window.push(&parsed.text);
        let first = match parsed.diags.first() {
            Some(diag) => {
                let (line, col) = diag.locate(&window).unwrap_or((0, 0));
                format!("{line}:{col}: {}", diag.code)
            }
            None => "-".to_owned(),
        };
        writeln!(out, "{:<9} {:>11}  {first}", d.name(), parsed.diags.len())?;
    }
    for (d, parsed) in &results {
        let mut window = Window::unbounded();
        window.push(&parsed.text);
        writeln!(out)?;
        let (what, shown): (&str, Vec<String>) = match (&parsed.tree, &parsed.tokens) {
            (Some(tree), _) => ("tree", lines(tree)),
            (None, Some(tokens)) => (
                "tokens",
                tokens
                    .iter()
                    .map(|t| t.rsplit_once(' ').map_or(t.as_str(), |(l, _)| l).to_owned())
                    .collect(),
            ),
            (None, None) => ("nothing", Vec::new()),
        };
        let stopped = if *d == Dialect::Leafxml && !parsed.diags.is_empty() {
            ", stopped at the first error"
        } else {
            ""
        };
        writeln!(
            out,
            "== {d} {what} ({}{stopped})",
            plural(parsed.diags.len(), "diagnostic")
        )?;
        let limit = if args.max_lines == 0 {
            usize::MAX
        } else {
            args.max_lines
        };
        for line in shown.iter().take(limit) {
            writeln!(out, "{line}")?;
        }
        if shown.len() > limit {
            writeln!(
                out,
                "… {} more (--max-lines 0 shows all)",
                plural(shown.len() - limit, "line")
            )?;
        }
        for diag in parsed.diags.iter().take(limit) {
            let (line, col) = diag.locate(&window).unwrap_or((0, 0));
            writeln!(out, "! {line}:{col}: {}", diag.headline())?;
        }
        if parsed.diags.len() > limit {
            writeln!(
                out,
                "! … {}",
                plural(parsed.diags.len() - limit, "more diagnostic")
            )?;
        }
    }
    out.flush()?;
    Ok(EXIT_OK)
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// The outcome of checking one file.
enum Checked {
    Valid(Dialect),
    Invalid {
        dialect: Dialect,
        count: usize,
        first: String,
    },
    Unreadable(String),
}

fn check_one(path: &str, forced: Option<Dialect>, progress: bool) -> Checked {
    let dialect = forced.unwrap_or_else(|| Dialect::from_path(path));
    let mut src = match Source::open(path) {
        Ok(s) if progress => s.with_progress(),
        Ok(s) => s,
        Err(e) => return Checked::Unreadable(format!("cannot read: {}", describe(&e.error))),
    };
    let mut sink = Sink::new(&src.name.clone());
    match dialect::stream(dialect, &mut src, StreamView::Check, &mut sink) {
        Ok(()) => {}
        Err(CliError::Read(e)) => {
            return Checked::Unreadable(format!("cannot read: {}", describe(&e.error)));
        }
        Err(CliError::Write(e)) => return Checked::Unreadable(describe(&e)),
    }
    match sink.first {
        None => Checked::Valid(dialect),
        Some((diag, at)) => {
            let at = at.map_or(format!("byte {}", diag.span.start), |(l, c)| {
                format!("{l}:{c}")
            });
            Checked::Invalid {
                dialect,
                count: sink.count,
                first: format!("{at}: {}", diag.headline()),
            }
        }
    }
}

fn check(args: CheckArgs) -> Result<u8, CliError> {
    let files = &args.files;
    let results: Vec<Mutex<Option<Checked>>> = files.iter().map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(files.len())
        .max(1);
    let progress = files.len() == 1;
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(path) = files.get(i) else { break };
                    let outcome = check_one(path, args.dialect, progress);
                    if let Ok(mut slot) = results[i].lock() {
                        *slot = Some(outcome);
                    }
                }
            });
        }
    });
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let (mut valid, mut invalid, mut unreadable) = (0, 0, 0);
    for (path, slot) in files.iter().zip(results) {
        let outcome = slot.into_inner().ok().flatten();
        let name = if path == "-" { "<stdin>" } else { path };
        match outcome {
            Some(Checked::Valid(d)) => {
                valid += 1;
                writeln!(out, "{name}: ok ({d})")?;
            }
            Some(Checked::Invalid {
                dialect,
                count,
                first,
            }) => {
                invalid += 1;
                writeln!(
                    out,
                    "{name}: invalid {dialect}: {}; first at {first}",
                    plural(count, "diagnostic")
                )?;
            }
            Some(Checked::Unreadable(why)) => {
                unreadable += 1;
                writeln!(out, "{name}: {why}")?;
            }
            None => {
                unreadable += 1;
                writeln!(out, "{name}: not checked (internal error)")?;
            }
        }
    }
    if files.len() > 1 {
        writeln!(
            out,
            "{}: {valid} valid, {invalid} invalid, {unreadable} unreadable",
            plural(files.len(), "file")
        )?;
    }
    out.flush()?;
    Ok(if unreadable > 0 {
        EXIT_TROUBLE
    } else if invalid > 0 {
        EXIT_INVALID
    } else {
        EXIT_OK
    })
}
