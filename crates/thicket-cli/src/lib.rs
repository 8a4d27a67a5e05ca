#![doc = include_str!("../README.md")]

pub mod dialect;
pub mod outline;
pub mod render;
pub mod rewrite;
pub mod select;
pub mod source;

/// The examples of docs/api.md (the API convention across the four dialects), run as doctests:
/// this crate depends on all four.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/api.md")]
pub struct ApiConvention;

use std::io::{self, BufWriter, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use clap::{ArgAction, ArgMatches, Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use thicket_input::Limits;

use dialect::{CliError, Dialect, Input, Parsed, Sink, StreamView};
use outline::{JsonTreeWriter, OutlineWriter, write_json_str};
use render::{write_diag, write_omitted};
use source::{Source, describe};
use thicket_input::render::Window;

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
                  thicket check --dialect microxml *.xml\n  \
                  thicket rewrite -i --set-attr 'a[href]' rel nofollow page.html"
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
    /// Print the elements a CSS selector matches, streaming (every dialect and ASCII-compatible encoding).
    #[command(
        after_help = "Per match: the outer markup (default), --text, --attr NAME or --json \
                      lines (file, start, end, line, column, outer). Matches are printed as \
                      they close (an inner match before the outer one). Namespace prefixes \
                      (svg|rect) are bound with --ns; in HTML, elements are in the XHTML, SVG \
                      and MathML namespaces as the HTML parser puts them. Selector grammar: \
                      docs/rewrite.md. Exit status: 0 when some element matched and every \
                      match was printed, 1 when none matched, 2 when a file cannot be read \
                      or the rewriter stopped in it, the selector is invalid, or a match was \
                      longer than --max-match."
    )]
    Select(SelectArgs),
    /// Edit documents, streaming: set or remove attributes, remove or unwrap elements matched
    /// by CSS selectors (every dialect).
    #[command(
        after_help = "Operations run in the order given: at each element, those whose \
                      selector matches it run one after the other (--set-attr a x 1 \
                      --remove-attr a x removes x). Untouched bytes are copied exactly; \
                      without an operation the output is the input.\n\
                      The output goes to standard output (one FILE), or with --in-place \
                      replaces each FILE atomically: a temporary file in the same directory, \
                      synced, then renamed over the original; on any error the original is \
                      left as it was.\n\
                      Exit status: 0 when rewritten, 1 when rewritten but a limit was reached \
                      (diagnostics on stderr), 2 when a file was not rewritten (unreadable, \
                      unwritable, an invalid selector, input the rewriter refuses)."
    )]
    Rewrite(RewriteArgs),
}

#[derive(Debug, Args)]
struct RewriteArgs {
    /// The dialect [default: html for .html and .htm files, xml5 otherwise, per file].
    #[arg(long, short, value_enum)]
    dialect: Option<Dialect>,
    /// Set attribute NAME to VALUE on every element SEL matches. Repeatable.
    #[arg(long, num_args = 3, value_names = ["SEL", "NAME", "VALUE"],
          action = ArgAction::Append, allow_hyphen_values = true)]
    set_attr: Vec<String>,
    /// Remove attribute NAME from every element SEL matches. Repeatable.
    #[arg(long, num_args = 2, value_names = ["SEL", "NAME"], action = ArgAction::Append)]
    remove_attr: Vec<String>,
    /// Remove every element SEL matches, with its content. Repeatable.
    #[arg(long, value_name = "SEL", action = ArgAction::Append)]
    remove: Vec<String>,
    /// Remove the tags of every element SEL matches, keeping its content. Repeatable.
    #[arg(long, value_name = "SEL", action = ArgAction::Append)]
    unwrap: Vec<String>,
    /// Replace each FILE by its rewrite (atomically) instead of writing to standard output.
    #[arg(long, short = 'i')]
    in_place: bool,
    /// Bind a namespace prefix for the selectors (`svg|rect`); `=URI` (no prefix) declares the
    /// default namespace. Repeatable.
    #[arg(long = "ns", value_name = "PREFIX=URI", value_parser = namespace_binding)]
    namespaces: Vec<(String, String)>,
    /// The files to rewrite (`-` for standard input, without --in-place).
    #[arg(value_name = "FILE", required = true)]
    files: Vec<String>,
    /// Most bytes the counters of `:nth-of-type` and `:first-of-type` hold over the open
    /// elements (each distinct name counted among an open element's children: its length and
    /// 32; only the selector's own names when each has a type name), or `none` [default: 4 MiB;
    /// none with --no-limits]. Past it the file stops with `counter-limit`.
    #[arg(long, value_name = "N", value_parser = limit_value)]
    max_counters: Option<LimitValue>,
    #[command(flatten)]
    limits: LimitArgs,
}

#[derive(Debug, Args)]
struct SelectArgs {
    /// The dialect [default: html for .html and .htm files, xml5 otherwise, per file].
    #[arg(long, short, value_enum)]
    dialect: Option<Dialect>,
    /// Print the text content of each match.
    #[arg(long, conflicts_with_all = ["attr", "json"])]
    text: bool,
    /// Print the value of attribute NAME of each match (matches without it print nothing).
    #[arg(long, value_name = "NAME", conflicts_with = "json")]
    attr: Option<String>,
    /// Print one JSON object per match and line.
    #[arg(long)]
    json: bool,
    /// Bind a namespace prefix for the selector (`svg|rect`, `[xlink|href]`); `=URI` (no
    /// prefix) declares the default namespace. Repeatable.
    #[arg(long = "ns", value_name = "PREFIX=URI", value_parser = namespace_binding)]
    namespaces: Vec<(String, String)>,
    /// The CSS selector.
    selector: String,
    /// The files to read (`-` for standard input).
    #[arg(value_name = "FILE", required = true)]
    files: Vec<String>,
    /// Longest match printed (its outer markup or text), in bytes, or `none` [default: 16 MiB;
    /// none with --no-limits]. A longer match is reported on standard error, not printed.
    #[arg(long, value_name = "N", value_parser = limit_value)]
    max_match: Option<LimitValue>,
    /// Most bytes the counters of `:nth-of-type` and `:first-of-type` hold over the open
    /// elements (each distinct name counted among an open element's children: its length and
    /// 32; only the selector's own names when each has a type name), or `none` [default: 4 MiB;
    /// none with --no-limits]. Past it the file stops with `counter-limit`.
    #[arg(long, value_name = "N", value_parser = limit_value)]
    max_counters: Option<LimitValue>,
    #[command(flatten)]
    limits: LimitArgs,
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
    #[command(flatten)]
    limits: LimitArgs,
}

/// `PREFIX=URI` of `select --ns`.
fn namespace_binding(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((prefix, uri)) => Ok((prefix.to_owned(), uri.to_owned())),
        None => Err(format!("expected PREFIX=URI, got {s:?}")),
    }
}

/// A limit given on the command line: a number, or `none`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct LimitValue(Option<usize>);

fn limit_value(s: &str) -> Result<LimitValue, String> {
    if s.eq_ignore_ascii_case("none") {
        return Ok(LimitValue(None));
    }
    s.parse()
        .map(|n| LimitValue(Some(n)))
        .map_err(|_| format!("`{s}` is not a number or `none`"))
}

/// `what [default: N]`, with the default from [`default_limits`].
fn limit_help(what: &str, default: fn(Limits) -> Option<usize>) -> String {
    match default(default_limits()) {
        Some(n) => format!("{what} [default: {n}]"),
        None => format!("{what} [default: none]"),
    }
}

/// The limits on what one document may make a parser hold (docs/cli.md, "Limits").
#[derive(Debug, Args)]
#[command(
    next_help_heading = "Limits (a number, or `none`; defaults are safe for untrusted input)"
)]
struct LimitArgs {
    #[arg(long, value_name = "N", value_parser = limit_value,
          help = limit_help("Deepest element nesting", |l| l.max_depth))]
    max_depth: Option<LimitValue>,
    #[arg(long, value_name = "N", value_parser = limit_value,
          help = limit_help("Most attributes on one tag", |l| l.max_attributes))]
    max_attributes: Option<LimitValue>,
    #[arg(long, value_name = "N", value_parser = limit_value,
          help = limit_help("Longest name, in bytes", |l| l.max_name_len))]
    max_name_len: Option<LimitValue>,
    #[arg(long, value_name = "N", value_parser = limit_value,
          help = limit_help("Longest attribute value, in bytes", |l| l.max_value_len))]
    max_value_len: Option<LimitValue>,
    #[arg(long, value_name = "N", value_parser = limit_value,
          help = limit_help("Most namespace declarations in scope (xml5, leafxml)",
                            |l| l.max_namespace_declarations))]
    max_namespaces: Option<LimitValue>,
    #[arg(long, value_name = "N", value_parser = limit_value,
          help = limit_help("Most bytes of namespace prefixes and names in scope (xml5, leafxml)",
                            |l| l.max_namespace_bytes))]
    max_namespace_bytes: Option<LimitValue>,
    #[arg(long, value_name = "N", value_parser = limit_value,
          help = limit_help("Longest token LeafXML holds whole, in bytes", |l| l.max_token_len))]
    max_token_len: Option<LimitValue>,
    #[arg(long, value_name = "N", value_parser = limit_value,
          help = limit_help("Diagnostics shown per file; the rest are counted",
                            |l| l.max_diagnostics))]
    max_diagnostics: Option<LimitValue>,
    /// Turn every parser limit off (the flags above still apply); diagnostics shown stay at
    /// --max-diagnostics.
    #[arg(long)]
    no_limits: bool,
}

/// What the limit flags ask for.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// The limits given to the parsers.
    pub limits: Limits,
    /// How many diagnostics are shown per file (`None`: all).
    pub shown: Option<usize>,
}

/// Diagnostics shown per file by default.
pub const DEFAULT_MAX_DIAGNOSTICS: usize = 100;

/// `--max-counters` as given, else its default (`MemoryLimits::untrusted`'s, none with
/// `--no-limits`).
fn max_counters(given: Option<LimitValue>, limits: &LimitArgs) -> Option<usize> {
    match given {
        Some(LimitValue(max)) => max,
        None if limits.no_limits => None,
        None => thicket_rewrite::MemoryLimits::untrusted().max_counters,
    }
}

/// The command line's default limits: `Limits::untrusted()` with [`DEFAULT_MAX_DIAGNOSTICS`].
pub fn default_limits() -> Limits {
    Limits::untrusted().with_max_diagnostics(DEFAULT_MAX_DIAGNOSTICS)
}

impl LimitArgs {
    fn settings(&self) -> Settings {
        let mut limits = if self.no_limits {
            Limits::none()
        } else {
            default_limits()
        };
        let set = |field: &mut Option<usize>, value: Option<LimitValue>| {
            if let Some(LimitValue(v)) = value {
                *field = v;
            }
        };
        set(&mut limits.max_depth, self.max_depth);
        set(&mut limits.max_attributes, self.max_attributes);
        set(&mut limits.max_name_len, self.max_name_len);
        set(&mut limits.max_value_len, self.max_value_len);
        set(&mut limits.max_namespace_declarations, self.max_namespaces);
        set(&mut limits.max_namespace_bytes, self.max_namespace_bytes);
        set(&mut limits.max_token_len, self.max_token_len);
        set(&mut limits.max_diagnostics, self.max_diagnostics);
        let shown = match self.max_diagnostics {
            Some(LimitValue(shown)) => shown,
            None => Some(DEFAULT_MAX_DIAGNOSTICS),
        };
        Settings { limits, shown }
    }
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
    #[command(flatten)]
    limits: LimitArgs,
}

#[derive(Debug, Args)]
struct CheckArgs {
    /// The dialect [default: html for .html and .htm files, xml5 otherwise, per file].
    #[arg(long, short, value_enum)]
    dialect: Option<Dialect>,
    /// The files to check (`-` for standard input).
    #[arg(value_name = "FILE", required = true)]
    files: Vec<String>,
    #[command(flatten)]
    limits: LimitArgs,
}

/// Runs the command line `args` (the program name first) and returns the exit code.
pub fn run<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let usage = |e: clap::Error| {
        let _ = e.print();
        ExitCode::from(if e.use_stderr() {
            EXIT_TROUBLE
        } else {
            EXIT_OK
        })
    };
    // The matches are kept: `rewrite` reads the order of its operations from them.
    let matches = match Cli::command().try_get_matches_from(args) {
        Ok(m) => m,
        Err(e) => return usage(e),
    };
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => return usage(e.format(&mut Cli::command())),
    };
    let result = match cli.command {
        Command::Parse(a) => parse(a),
        Command::Compare(a) => compare(a),
        Command::Check(a) => check(a),
        Command::Select(a) => select_command(a),
        Command::Rewrite(a) => match matches.subcommand_matches("rewrite") {
            Some(m) => rewrite_command(a, m),
            None => Ok(EXIT_TROUBLE),
        },
    };
    if std::env::var_os("THICKET_REPORT_PEAK_RSS").is_some() {
        report_peak_rss();
    }
    if let Some(path) = std::env::var_os("THICKET_REPORT_USAGE") {
        let _ = write_usage(std::path::Path::new(&path));
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

/// Writes this process's peak resident set size (`VmHWM` of /proc/self/status) and the time
/// its main thread spent on a CPU (/proc/self/schedstat, in nanoseconds: unlike the wall clock,
/// it does not count waiting for a CPU on a busy machine) to `path`, as `peak_kb N` and
/// `cpu_ns N` lines. `THICKET_REPORT_USAGE=FILE` makes `thicket` call it at exit; the `drive`
/// example and `cargo xtask adversarial` use it too (Linux only: elsewhere both read 0).
pub fn write_usage(path: &std::path::Path) -> io::Result<()> {
    let peak_kb = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
        .unwrap_or(0);
    // The kernel adds the running slice to the count at the next scheduling event: yielding
    // makes one, so the count read is current (it would otherwise lag by up to a tick).
    std::thread::yield_now();
    let cpu_ns = std::fs::read_to_string("/proc/self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .unwrap_or(0);
    std::fs::write(path, format!("peak_kb {peak_kb}\ncpu_ns {cpu_ns}\n"))
}

/// Whether diagnostics on stderr get colour.
fn styled() -> bool {
    io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

/// The prefixes of `--ns` (`select`, `rewrite`).
fn namespaces(bindings: &[(String, String)]) -> thicket_rewrite::Namespaces {
    let mut namespaces = thicket_rewrite::Namespaces::new();
    for (prefix, uri) in bindings {
        namespaces = if prefix.is_empty() {
            namespaces.default_namespace(uri)
        } else {
            namespaces.prefix(prefix, uri)
        };
    }
    namespaces
}

fn select_command(args: SelectArgs) -> Result<u8, CliError> {
    let namespaces = namespaces(&args.namespaces);
    let list =
        match thicket_rewrite::SelectorList::parse_with_namespaces(&args.selector, &namespaces) {
            Ok(l) => l,
            Err(e) => {
                eprintln!("thicket: {e}");
                return Ok(EXIT_TROUBLE);
            }
        };
    let mode = if args.text {
        select::Mode::Text
    } else if let Some(name) = args.attr {
        select::Mode::Attr(name)
    } else if args.json {
        select::Mode::Json
    } else {
        select::Mode::Outer
    };
    let limits = args.limits.settings().limits;
    let max_match = match args.max_match {
        Some(LimitValue(max)) => max,
        None if args.limits.no_limits => None,
        None => Some(select::DEFAULT_MAX_MATCH),
    };
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let found = select::select(
        &list,
        &args.files,
        args.dialect,
        &mode,
        select::Bounds {
            limits,
            max_match,
            max_counters: max_counters(args.max_counters, &args.limits),
        },
        &mut out,
    )?;
    out.flush().map_err(CliError::Write)?;
    Ok(if found.refused > 0 || found.failed > 0 {
        EXIT_TROUBLE
    } else if found.matches > 0 {
        EXIT_OK
    } else {
        EXIT_INVALID
    })
}

/// The operations of `rewrite` in command-line order (clap keeps each option's values apart:
/// the order across options is read from their indices).
fn rewrite_operations(matches: &ArgMatches) -> Vec<(usize, rewrite::Edit, String)> {
    let mut ops = Vec::new();
    for (id, arity) in [
        ("set_attr", 3),
        ("remove_attr", 2),
        ("remove", 1),
        ("unwrap", 1),
    ] {
        let (Some(indices), Some(values)) =
            (matches.indices_of(id), matches.get_many::<String>(id))
        else {
            continue;
        };
        let indices: Vec<usize> = indices.collect();
        let values: Vec<&String> = values.collect();
        for (k, v) in values.chunks_exact(arity).enumerate() {
            let edit = match (id, v) {
                ("set_attr", [_, name, value]) => rewrite::Edit::SetAttr {
                    name: name.to_string(),
                    value: value.to_string(),
                },
                ("remove_attr", [_, name]) => rewrite::Edit::RemoveAttr {
                    name: name.to_string(),
                },
                ("remove", _) => rewrite::Edit::Remove,
                _ => rewrite::Edit::Unwrap,
            };
            ops.push((indices[k * arity], edit, v[0].clone()));
        }
    }
    ops.sort_by_key(|(at, _, _)| *at);
    ops
}

fn rewrite_command(args: RewriteArgs, matches: &ArgMatches) -> Result<u8, CliError> {
    let namespaces = namespaces(&args.namespaces);
    let mut operations = Vec::new();
    for (_, edit, selector) in rewrite_operations(matches) {
        match thicket_rewrite::SelectorList::parse_with_namespaces(&selector, &namespaces) {
            Ok(selector) => operations.push(rewrite::Operation { selector, edit }),
            Err(e) => {
                eprintln!("thicket: in selector `{selector}`: {e}");
                return Ok(EXIT_TROUBLE);
            }
        }
    }
    let Settings { limits, shown } = args.limits.settings();
    let options = rewrite::Options {
        dialect: args.dialect,
        limits,
        max_counters: max_counters(args.max_counters, &args.limits),
        shown,
        output: if args.in_place {
            rewrite::Output::InPlace
        } else {
            rewrite::Output::Stdout
        },
    };
    rewrite::rewrite(&operations, &args.files, &options)
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
    let Settings { limits, shown } = args.limits.settings();
    let mut src = Source::open(&args.file)?.with_progress();
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let stderr = io::stderr();
    let mut err = BufWriter::new(stderr.lock());
    if let Some(view) = streamed {
        let (count, omitted) = {
            let mut sink = Sink::new(&src.name.clone());
            sink.out = Some(&mut out);
            sink.err = Some(&mut err);
            sink.styled = styled();
            sink.cap = shown;
            dialect::stream(dialect, &mut src, view, limits, &mut sink)?;
            (sink.count, sink.omitted())
        };
        out.flush()?;
        write_omitted(&mut err, &src.name, omitted)?;
        err.flush()?;
        return Ok(if count == 0 { EXIT_OK } else { EXIT_INVALID });
    }
    let name = src.name.clone();
    let bytes = src.read_all()?;
    let input = Input::new(dialect, bytes);
    let parsed = dialect::parse(&input, limits, shown);
    let mut window = None;
    if v.json {
        write_json_with(&mut out, &name, &parsed, &mut window)?;
        out.write_all(b"\n")?;
    } else {
        let mut w = OutlineWriter::new(&mut out);
        parsed.walk(&mut |item| w.item(item))?;
    }
    out.flush()?;
    if !parsed.diags.is_empty() {
        let window = window.get_or_insert_with(|| Window::whole(&parsed.text));
        let styled = styled();
        for d in &parsed.diags {
            write_diag(&mut err, &name, window, d, styled)?;
        }
    }
    write_omitted(&mut err, &name, parsed.omitted)?;
    err.flush()?;
    Ok(if parsed.total() == 0 {
        EXIT_OK
    } else {
        EXIT_INVALID
    })
}

/// Writes the `--json` object of `parsed` for the file `name` (documented in docs/cli.md), as
/// the document is walked.
pub fn write_json(out: &mut dyn Write, name: &str, parsed: &Parsed<'_>) -> io::Result<()> {
    write_json_with(out, name, parsed, &mut None)
}

/// [`write_json`], leaving the window made to locate the diagnostics in `window` for reuse.
fn write_json_with<'t>(
    out: &mut dyn Write,
    name: &str,
    parsed: &'t Parsed<'_>,
    window: &mut Option<Window<'t>>,
) -> io::Result<()> {
    out.write_all(br#"{"dialect":"#)?;
    write_json_str(out, parsed.dialect.name())?;
    out.write_all(br#","file":"#)?;
    write_json_str(out, name)?;
    write!(out, r#","valid":{}"#, parsed.total() == 0)?;
    out.write_all(br#","tree":"#)?;
    if parsed.has_tree() {
        let mut tree = JsonTreeWriter::new(&mut *out)?;
        parsed.walk(&mut |item| tree.item(item))?;
        tree.finish()?;
    } else {
        // HTML has no tree; LeafXML stops at its first error: there is no document then.
        out.write_all(b"null")?;
    }
    out.write_all(br#","tokens":"#)?;
    if parsed.dialect == Dialect::Html {
        out.write_all(b"[")?;
        let mut first = true;
        parsed.html_tokens_json(&mut |token| {
            if !first {
                out.write_all(b",")?;
            }
            first = false;
            out.write_all(token.as_bytes())
        })?;
        out.write_all(b"]")?;
    } else {
        out.write_all(b"null")?;
    }
    out.write_all(br#","diagnostics":["#)?;
    for (i, d) in parsed.diags.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        let window = window.get_or_insert_with(|| Window::whole(&parsed.text));
        out.write_all(br#"{"code":"#)?;
        write_json_str(out, d.code)?;
        out.write_all(br#","message":"#)?;
        write_json_str(out, d.message)?;
        let (line, column) = d.locate(window).map_or((0, 0), |lc| (lc.line, lc.column));
        write!(
            out,
            r#","line":{line},"column":{column},"start":{},"end":{}}}"#,
            d.span.start, d.span.end
        )?;
    }
    write!(out, r#"],"omitted_diagnostics":{}}}"#, parsed.omitted)
}

/// What `compare` shows of one dialect.
struct Compared {
    dialect: Dialect,
    total: usize,
    first: String,
    what: &'static str,
    shown: outline::LineCollector,
    diags: Vec<String>,
}

fn compare_one(dialect: Dialect, bytes: &[u8], limit: usize, settings: Settings) -> Compared {
    let input = Input::new(dialect, bytes);
    let parsed = dialect::parse(&input, settings.limits, settings.shown);
    let mut window = Window::whole(&parsed.text);
    let diags: Vec<String> = parsed
        .diags
        .iter()
        .take(limit)
        .map(|diag| {
            let (line, col) = diag
                .locate(&mut window)
                .map_or((0, 0), |lc| (lc.line, lc.column));
            format!("{line}:{col}: {}", diag.headline())
        })
        .collect();
    let first = match parsed.diags.first() {
        Some(diag) => {
            let (line, col) = diag
                .locate(&mut window)
                .map_or((0, 0), |lc| (lc.line, lc.column));
            format!("{line}:{col}: {}", diag.code)
        }
        None => "-".to_owned(),
    };
    Compared {
        dialect,
        total: parsed.total(),
        first,
        what: if dialect == Dialect::Html {
            "tokens"
        } else {
            "tree"
        },
        shown: parsed.outline(limit),
        diags,
    }
}

fn compare(args: CompareArgs) -> Result<u8, CliError> {
    let settings = args.limits.settings();
    let src = Source::open(&args.file)?.with_progress();
    let name = src.name.clone();
    let bytes = src.read_all()?;
    let limit = if args.max_lines == 0 {
        usize::MAX
    } else {
        args.max_lines
    };
    // One dialect at a time: only what is shown is kept.
    let results: Vec<Compared> = Dialect::ALL
        .iter()
        .map(|&d| compare_one(d, &bytes, limit, settings))
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
    for c in &results {
        writeln!(out, "{:<9} {:>11}  {}", c.dialect.name(), c.total, c.first)?;
    }
    for c in &results {
        writeln!(out)?;
        let stopped = if c.dialect == Dialect::Leafxml && c.total > 0 {
            ", stopped at the first error"
        } else {
            ""
        };
        writeln!(
            out,
            "== {} {} ({}{stopped})",
            c.dialect,
            c.what,
            plural(c.total, "diagnostic")
        )?;
        for line in &c.shown.lines {
            writeln!(out, "{line}")?;
        }
        if c.shown.total > c.shown.lines.len() {
            writeln!(
                out,
                "… {} more (--max-lines 0 shows all)",
                plural(c.shown.total - c.shown.lines.len(), "line")
            )?;
        }
        for line in &c.diags {
            writeln!(out, "! {line}")?;
        }
        if c.total > c.diags.len() {
            writeln!(
                out,
                "! … {}",
                plural(c.total - c.diags.len(), "more diagnostic")
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

fn check_one(path: &str, forced: Option<Dialect>, limits: Limits, progress: bool) -> Checked {
    let dialect = forced.unwrap_or_else(|| Dialect::from_path(path));
    let mut src = match Source::open(path) {
        Ok(s) if progress => s.with_progress(),
        Ok(s) => s,
        Err(e) => return Checked::Unreadable(format!("cannot read: {}", describe(&e.error))),
    };
    let mut sink = Sink::new(&src.name.clone());
    // Nothing is shown, only the count and the earliest: the parser keeps that one (diagnostics
    // come in source order) and counts the rest.
    sink.cap = Some(0);
    match dialect::stream(dialect, &mut src, StreamView::Check, limits, &mut sink) {
        Ok(()) => {}
        Err(CliError::Read(e)) => {
            return Checked::Unreadable(format!("cannot read: {}", describe(&e.error)));
        }
        Err(CliError::Write(e)) => return Checked::Unreadable(describe(&e)),
    }
    match sink.first {
        None => Checked::Valid(dialect),
        Some((diag, at)) => {
            let at = at.map_or(format!("byte {}", diag.span.start), |lc| {
                format!("{}:{}", lc.line, lc.column)
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
    let limits = args.limits.settings().limits;
    let work = || {
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(path) = files.get(i) else { break };
            let outcome = check_one(path, args.dialect, limits, progress);
            if let Ok(mut slot) = results[i].lock() {
                *slot = Some(outcome);
            }
        }
    };
    if workers == 1 {
        // One file (or one core): no thread to start.
        work();
    } else {
        std::thread::scope(|scope| {
            for _ in 0..workers {
                scope.spawn(work);
            }
        });
    }
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
