//! `thicket rewrite [OPTIONS] FILE...`: edits streamed through `thicket_rewrite`, to standard
//! output or in place (docs/cli.md, "rewrite").
//!
//! The input is read in [`CHUNK`](crate::source::CHUNK)s and fed to the rewriter, whose output
//! goes through a buffered writer as soon as it is certain: nothing holds the whole document.
//! In place, the output goes to a temporary file beside the original, which replaces the
//! original (a rename) only once everything was written and synced.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use thicket_input::Limits;
use thicket_rewrite::{ErrorCode, MemoryLimits, Rewriter, SelectorList, Settings, Sink};

use crate::dialect::{CliError, Dialect};
use crate::source::{OpenError, Source, describe};
use crate::{EXIT_INVALID, EXIT_OK, EXIT_TROUBLE};

/// What an operation does to each element its selector matches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Edit {
    /// `--set-attr SEL NAME VALUE`: sets (adds or replaces) attribute `NAME`.
    SetAttr {
        /// The attribute name.
        name: String,
        /// Its new value (escaped on output).
        value: String,
    },
    /// `--remove-attr SEL NAME`: removes attribute `NAME` where present.
    RemoveAttr {
        /// The attribute name.
        name: String,
    },
    /// `--remove SEL`: removes the element, tags and content.
    Remove,
    /// `--unwrap SEL`: removes the element's tags, keeps its content.
    Unwrap,
}

/// One operation of the command line: a parsed selector and what to do with its matches.
#[derive(Clone, Debug)]
pub struct Operation {
    /// The elements it applies to.
    pub selector: SelectorList,
    /// What it does to them.
    pub edit: Edit,
}

/// Where the output goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    /// Standard output (one input).
    Stdout,
    /// Each file replaced by its rewrite (atomically).
    InPlace,
}

/// What the command line asked for, besides the operations and files.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// The dialect given with `--dialect` (else chosen per file by its name).
    pub dialect: Option<Dialect>,
    /// The limits given to the rewriter.
    pub limits: Limits,
    /// `--max-counters`: `MemoryLimits::max_counters`.
    pub max_counters: Option<usize>,
    /// How many of the rewriter's diagnostics are shown per file (`None`: all).
    pub shown: Option<usize>,
    /// Standard output or in place.
    pub output: Output,
}

/// Why one file was not rewritten.
#[derive(Debug)]
enum Failure {
    /// The input could not be read.
    Read(OpenError),
    /// The output could not be written.
    Write(io::Error),
    /// No temporary file could be made in this directory.
    Temp(PathBuf, io::Error),
    /// The rewriter stopped (an encoding it does not rewrite, malformed UTF-8, ...).
    Rewrite(thicket_rewrite::Error),
}

impl From<OpenError> for Failure {
    fn from(e: OpenError) -> Self {
        Failure::Read(e)
    }
}

/// A [`Sink`] over a buffered writer.
struct Out<W: Write>(BufWriter<W>);

impl<W: Write> Sink for Out<W> {
    fn write_bytes(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.0.write_all(bytes)
    }
}

/// The rewriter's handlers for `operations`, in command-line order: at each start tag, the
/// operations whose selector matches run in that order. An attribute operation on a tag a
/// limit cut (attributes dropped past `--max-attributes`) stops the rewrite in the library
/// (`attribute-limit`), so nothing is lost without a trace.
fn settings<'a>(operations: &'a [Operation], options: &Options) -> Settings<'a> {
    let mut settings = Settings::new()
        .with_limits(options.limits)
        .with_memory_limits(memory_limits(options.limits, options.max_counters));
    for op in operations {
        let selector = op.selector.clone();
        settings = match &op.edit {
            Edit::SetAttr { name, value } => {
                settings.on_selector(selector, move |e| e.set_attribute(name, value))
            }
            Edit::RemoveAttr { name } => {
                settings.on_selector(selector, move |e| e.remove_attribute(name))
            }
            Edit::Remove => settings.on_selector(selector, |e| e.remove()),
            Edit::Unwrap => settings.on_selector(selector, |e| e.unwrap()),
        };
    }
    settings
}

/// Streams `source` through a rewriter running `operations` into `out`; returns the writer
/// (flushed) and how many diagnostics the rewriter reported. Diagnostics are written to `err`
/// as they come, at most `shown`.
fn stream<W: Write>(
    operations: &[Operation],
    source: &mut Source,
    dialect: thicket_rewrite::Dialect,
    options: &Options,
    out: W,
    err: &mut dyn Write,
) -> Result<(W, usize), Failure> {
    let mut rewriter = Rewriter::new(
        dialect,
        settings(operations, options),
        Out(BufWriter::new(out)),
    );
    let mut chunk = Vec::new();
    let mut reported = 0;
    let name = source.name.clone();
    let mut report = |rewriter: &Rewriter<'_, Out<W>>, reported: &mut usize| {
        let diagnostics = rewriter.diagnostics();
        for d in &diagnostics[*reported..] {
            if options.shown.is_none_or(|cap| *reported < cap) {
                // As the rewriter's errors are shown: code, message, span (docs/rewrite.md).
                let _ = writeln!(
                    err,
                    "{name}: {}: {} at {}..{}",
                    d.code.as_str(),
                    d.code.message(),
                    d.span.start,
                    d.span.end
                );
            }
            *reported += 1;
        }
    };
    loop {
        let more = source.next_chunk(&mut chunk)?;
        rewriter.feed(&chunk).map_err(rewrite_failure)?;
        report(&rewriter, &mut reported);
        if !more {
            break;
        }
    }
    source.done();
    // The end of the input may bring the last diagnostics (HTML holds an input shorter than
    // its `<meta>` prescan until then).
    rewriter.finish_input().map_err(rewrite_failure)?;
    report(&rewriter, &mut reported);
    let Out(buffered) = rewriter.finish().map_err(rewrite_failure)?;
    let out = buffered
        .into_inner()
        .map_err(|e| Failure::Write(e.into_error()))?;
    if let Some(cap) = options.shown
        && reported > cap
    {
        crate::render::write_omitted(err, &name, reported - cap).map_err(Failure::Write)?;
    }
    Ok((out, reported))
}

/// How to lift the limit a rewriter error names, for its message.
fn hint(e: &thicket_rewrite::Error) -> &'static str {
    match e.code {
        ErrorCode::AttributeLimit => {
            " (an edited tag is written from the attributes the tokenizer kept, and it dropped \
             those past --max-attributes: --max-attributes none lifts the limit)"
        }
        ErrorCode::NameLengthLimit => " (--max-name-len none lifts the limit)",
        _ => "",
    }
}

/// A rewriter error as a failure: `write-failed` is the sink's I/O error (so that a closed pipe
/// stays quiet), anything else stopped the rewrite.
fn rewrite_failure(e: thicket_rewrite::Error) -> Failure {
    if e.code == ErrorCode::WriteFailed
        && let Some(io) = std::error::Error::source(&e).and_then(|s| s.downcast_ref::<io::Error>())
    {
        return Failure::Write(io::Error::new(io.kind(), io.to_string()));
    }
    Failure::Rewrite(e)
}

/// Runs `operations` over `files` and returns the exit status: 2 when some file was not
/// rewritten (cannot be read or written, or the rewriter stopped), else 1 when the rewriter
/// reported diagnostics (a limit reached), else 0.
pub fn rewrite(
    operations: &[Operation],
    files: &[String],
    options: &Options,
) -> Result<u8, CliError> {
    match options.output {
        Output::Stdout => {
            let [path] = files else {
                eprintln!(
                    "thicket: rewrite writes one document to standard output: give one FILE, \
                     or --in-place to rewrite several"
                );
                return Ok(EXIT_TROUBLE);
            };
            to_stdout(operations, path, options)
        }
        Output::InPlace => {
            if files.iter().any(|f| f == "-") {
                eprintln!("thicket: --in-place cannot rewrite standard input (`-`)");
                return Ok(EXIT_TROUBLE);
            }
            let mut status = EXIT_OK;
            for path in files {
                status = status.max(in_place(operations, path, options)?);
            }
            Ok(status)
        }
    }
}

/// What the rewriter may hold (`select` and `rewrite`): one token of at most
/// `--max-token-len` bytes (`buffer-limit` past it, which stops the file), and `:nth-of-type`
/// counters of at most `--max-counters` bytes (`counter-limit`); nothing else it holds grows
/// with the input (no capture, no whole text node).
pub(crate) fn memory_limits(limits: Limits, max_counters: Option<usize>) -> MemoryLimits {
    MemoryLimits::none()
        .with_max_buffered(limits.max_token_len)
        .with_max_counters(max_counters)
}

/// The rewriter's dialect for `path`.
fn dialect_for(path: &str, options: &Options) -> thicket_rewrite::Dialect {
    options
        .dialect
        .unwrap_or_else(|| Dialect::from_path(path))
        .rewriter()
}

fn to_stdout(operations: &[Operation], path: &str, options: &Options) -> Result<u8, CliError> {
    let dialect = dialect_for(path, options);
    let mut source = Source::open(path)?.with_progress();
    let stdout = io::stdout();
    let stderr = io::stderr();
    let mut err = stderr.lock();
    match stream(
        operations,
        &mut source,
        dialect,
        options,
        stdout.lock(),
        &mut err,
    ) {
        Ok((mut out, diagnostics)) => {
            out.flush()?;
            Ok(if diagnostics > 0 {
                EXIT_INVALID
            } else {
                EXIT_OK
            })
        }
        Err(Failure::Read(e)) => Err(CliError::Read(e)),
        Err(Failure::Write(e) | Failure::Temp(_, e)) => Err(CliError::Write(e)),
        Err(Failure::Rewrite(e)) => {
            // What was certain before the error is on stdout already.
            eprintln!("thicket: cannot rewrite `{}`: {e}{}", source.name, hint(&e));
            Ok(EXIT_TROUBLE)
        }
    }
}

/// Rewrites the file at `path` in place; returns its exit status. Every failure is reported
/// here (the next file is still rewritten), except a closed standard error.
fn in_place(operations: &[Operation], path: &str, options: &Options) -> Result<u8, CliError> {
    let dialect = dialect_for(path, options);
    match replace(operations, path, dialect, options) {
        Ok(0) => Ok(EXIT_OK),
        Ok(_) => Ok(EXIT_INVALID),
        Err(failure) => {
            let why = match failure {
                Failure::Read(e) => e.to_string(),
                Failure::Write(e) => format!("cannot write `{path}`: {}", describe(&e)),
                Failure::Temp(dir, e) => format!(
                    "cannot write `{path}`: cannot create a temporary file in `{}`: {}",
                    dir.display(),
                    describe(&e)
                ),
                Failure::Rewrite(e) => format!("cannot rewrite `{path}`: {e}{}", hint(&e)),
            };
            eprintln!("thicket: {why}; `{path}` is unchanged");
            Ok(EXIT_TROUBLE)
        }
    }
}

/// Rewrites `path` into a temporary file in its directory, syncs it, gives it the original's
/// permissions and renames it over the original (through a symbolic link: the file it points
/// to). On any error the temporary file is removed and the original is untouched. Returns the
/// number of diagnostics.
fn replace(
    operations: &[Operation],
    path: &str,
    dialect: thicket_rewrite::Dialect,
    options: &Options,
) -> Result<usize, Failure> {
    let read_error = |error| OpenError {
        name: path.to_owned(),
        error,
    };
    let target = std::fs::canonicalize(path).map_err(read_error)?;
    // Looked at before the file is opened: opening a pipe waits for a writer.
    let meta = std::fs::metadata(&target).map_err(read_error)?;
    if !meta.is_file() {
        // A device or a pipe would become a regular file.
        return Err(Failure::Read(read_error(io::Error::other(
            "not a regular file (--in-place replaces files only)",
        ))));
    }
    let mut source = Source::open(path)?.with_progress();
    let permissions = meta.permissions();
    let dir = target
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let file_name = target
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    // Removed when dropped, that is on every path but the rename.
    let temp = tempfile::Builder::new()
        .prefix(&format!(".{file_name}."))
        .suffix(".thicket-tmp")
        .tempfile_in(&dir)
        .map_err(|e| Failure::Temp(dir.clone(), e))?;
    temp.as_file()
        .set_permissions(permissions)
        .map_err(Failure::Write)?;
    let stderr = io::stderr();
    let mut err = stderr.lock();
    let (file, diagnostics) = stream(
        operations,
        &mut source,
        dialect,
        options,
        temp.as_file(),
        &mut err,
    )?;
    file.sync_all().map_err(Failure::Write)?;
    drop(source);
    temp.persist(&target).map_err(|e| Failure::Write(e.error))?;
    // The rename is durable once the directory is synced; the file is replaced either way.
    if let Ok(d) = File::open(&dir) {
        let _ = d.sync_all();
    }
    Ok(diagnostics)
}
