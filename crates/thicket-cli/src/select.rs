//! `thicket select SELECTOR FILE...`: the elements a CSS selector matches, streamed through
//! `thicket_rewrite` in read-only mode (docs/cli.md, docs/rewrite.md).

use std::cell::RefCell;
use std::io::Write;

use thicket_input::Limits;
use thicket_rewrite::encoding_rs::{Encoding, UTF_8};
use thicket_rewrite::{Capture, NoOutput, Rewriter, SelectorList, Settings};

use crate::dialect::{CliError, Dialect};
use crate::outline::write_json_str;
use crate::source::Source;

/// What is printed per match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The outer markup (start tag to end tag, as in the input).
    Outer,
    /// The text content.
    Text,
    /// The value of one attribute (matches without it print nothing).
    Attr(String),
    /// One JSON object per line: file, span, line, column, outer markup.
    Json,
}

/// The line and column of match starts (`--json`): the input's bytes from offset `base` on,
/// counted forward as matches start (spans are source byte offsets).
struct Lines {
    /// The input's bytes from offset `base` on.
    buf: Vec<u8>,
    /// The input's encoding (`Settings::on_encoding`: known before the first match).
    encoding: &'static Encoding,
    base: usize,
    /// Every element starts at or after this offset from now on (the last start tag seen).
    seen: usize,
    /// Line and character column at offset `at`.
    at: usize,
    line: usize,
    column: usize,
    /// The byte before `at` was a CR (an LF right after it ends no other line).
    after_cr: bool,
}

impl Lines {
    /// Moves the line counter to `to` (which never goes back). Both ends are where tags start,
    /// which are character boundaries in every encoding the rewriter reads.
    fn locate(&mut self, to: usize) -> (usize, usize) {
        if to > self.at {
            let bytes = &self.buf[self.at - self.base..to - self.base];
            // Lines end at LF, CR LF and a lone CR, as everywhere in the CLI (docs/cli.md).
            let mut step = |c: u32, lead: bool| {
                if c == u32::from(b'\n') && self.after_cr {
                    // The LF of a CR LF: the CR ended the line.
                } else if c == u32::from(b'\n') || c == u32::from(b'\r') {
                    self.line += 1;
                    self.column = 1;
                } else if lead {
                    self.column += 1;
                }
                self.after_cr = c == u32::from(b'\r');
            };
            if self.encoding == UTF_8 {
                for &b in bytes {
                    step(u32::from(b), b & 0xC0 != 0x80);
                }
            } else {
                let (text, _) = self.encoding.decode_without_bom_handling(bytes);
                for c in text.chars() {
                    step(u32::from(c), true);
                }
            }
            self.at = to;
        }
        (self.line, self.column)
    }

    /// Counts up to the last start tag seen and drops the bytes before it: what a match needs
    /// printed is captured by the rewriter, so only the line counter reads this buffer.
    fn trim(&mut self) {
        let seen = self.seen;
        self.locate(seen);
        if seen > self.base {
            self.buf.drain(..seen - self.base);
            self.base = seen;
        }
    }
}

/// Where matches go: straight to the output as each one closes (nothing is gathered across
/// matches), the first write error kept.
struct Printer<'o> {
    out: &'o mut dyn Write,
    error: Option<std::io::Error>,
    /// `--json`: the captured outer markup, waiting for the element's end offset.
    pending: Option<String>,
    /// Matches not printed because their capture passed the limit.
    over_limit: usize,
    matches: usize,
}

impl Printer<'_> {
    fn write(&mut self, bytes: &[u8]) {
        if self.error.is_none()
            && let Err(e) = self.out.write_all(bytes)
        {
            self.error = Some(e);
        }
    }

    /// A capture past the limit: reported on standard error, the match is not printed.
    fn refused(&mut self, path: &str, e: &thicket_rewrite::Error, max: Option<usize>) {
        self.over_limit += 1;
        eprintln!(
            "thicket: {path}: the match starting at byte {} is longer than --max-match ({} bytes): \
             not printed",
            e.span.start,
            max.unwrap_or_default()
        );
    }
}

/// What bounds a selection: the parsers' limits, and the longest match printed.
#[derive(Clone, Copy, Debug)]
pub struct Bounds {
    /// The limits given to the rewriter's parser (and what it holds of a token:
    /// `max_token_len`).
    pub limits: Limits,
    /// The longest match printed, in bytes of its outer markup or text (`None`: no limit).
    pub max_match: Option<usize>,
    /// `--max-counters`: `MemoryLimits::max_counters`.
    pub max_counters: Option<usize>,
}

/// The most one match prints by default (bytes of its outer markup or text): 16 MiB.
pub const DEFAULT_MAX_MATCH: usize = 16 << 20;

/// What a selection found.
#[derive(Clone, Copy, Debug, Default)]
pub struct Found {
    /// Elements matched.
    pub matches: usize,
    /// Matches not printed: longer than [`Bounds::max_match`] (each reported on standard
    /// error).
    pub refused: usize,
    /// Files the rewriter stopped in (reported on standard error; the matches before the
    /// point where it stopped are printed).
    pub failed: usize,
}

/// Prints the matches of `selector` in each file, each as soon as it closes.
pub fn select(
    selector: &SelectorList,
    files: &[String],
    forced: Option<Dialect>,
    mode: &Mode,
    bounds: Bounds,
    out: &mut dyn Write,
) -> Result<Found, CliError> {
    let mut total = Found::default();
    for path in files {
        let dialect = forced.unwrap_or_else(|| Dialect::from_path(path));
        let dialect = dialect.rewriter();
        let found = select_file(selector, path, dialect, mode, bounds, out)?;
        total.matches += found.matches;
        total.refused += found.refused;
        total.failed += found.failed;
    }
    Ok(total)
}

fn select_file(
    selector: &SelectorList,
    path: &str,
    dialect: thicket_rewrite::Dialect,
    mode: &Mode,
    bounds: Bounds,
    out: &mut dyn Write,
) -> Result<Found, CliError> {
    let name = if path == "-" { "<stdin>" } else { path };
    let lines = RefCell::new(Lines {
        buf: Vec::new(),
        encoding: UTF_8,
        base: 0,
        seen: 0,
        at: 0,
        line: 1,
        column: 1,
        after_cr: false,
    });
    let printer = RefCell::new(Printer {
        out,
        error: None,
        pending: None,
        over_limit: 0,
        matches: 0,
    });
    let json = *mode == Mode::Json;
    let failed = {
        let (lines, printer) = (&lines, &printer);
        let mut settings = Settings::new()
            .with_limits(bounds.limits)
            .with_memory_limits(
                crate::rewrite::memory_limits(bounds.limits, bounds.max_counters)
                    .with_max_captured(bounds.max_match),
            )
            .on_encoding(move |e| lines.borrow_mut().encoding = e)
            .on_selector(selector.clone(), move |e| {
                printer.borrow_mut().matches += 1;
                let start = e.span().start;
                match mode {
                    Mode::Attr(name) => {
                        if let Some(v) = e.attribute(name) {
                            let mut p = printer.borrow_mut();
                            p.write(v.as_bytes());
                            p.write(b"\n");
                        }
                    }
                    Mode::Outer | Mode::Text => {
                        let what = if *mode == Mode::Text {
                            Capture::Text
                        } else {
                            Capture::Outer
                        };
                        e.capture(what, move |r| {
                            let mut p = printer.borrow_mut();
                            match r {
                                Ok(s) => {
                                    p.write(s.as_bytes());
                                    p.write(b"\n");
                                }
                                Err(e) => p.refused(name, &e, bounds.max_match),
                            }
                        });
                    }
                    Mode::Json => {
                        let (line, column) = lines.borrow_mut().locate(start);
                        e.capture(Capture::Outer, move |r| {
                            let mut p = printer.borrow_mut();
                            match r {
                                Ok(s) => p.pending = Some(s.to_owned()),
                                Err(e) => p.refused(name, &e, bounds.max_match),
                            }
                        });
                        e.on_close(move |end| {
                            let mut p = printer.borrow_mut();
                            let Some(outer) = p.pending.take() else {
                                return;
                            };
                            let mut json = Vec::with_capacity(outer.len() + 96);
                            json.extend_from_slice(b"{\"file\":");
                            let _ = write_json_str(&mut json, name);
                            let _ = write!(
                                json,
                                ",\"start\":{start},\"end\":{end},\"line\":{line},\"column\":{column},\"outer\":"
                            );
                            let _ = write_json_str(&mut json, &outer);
                            json.extend_from_slice(b"}\n");
                            p.write(&json);
                        });
                    }
                }
            });
        if json {
            // Every start tag and text moves the line counter on, so that what it holds is
            // counted as it streams (a long text run is not held until the next tag).
            let every = SelectorList::parse("*")
                .map_err(|e| CliError::Write(std::io::Error::other(e.to_string())))?;
            settings = settings
                .on_selector(every, move |e| {
                    let mut l = lines.borrow_mut();
                    l.seen = l.seen.max(e.span().start);
                })
                .on_text(move |t| {
                    let mut l = lines.borrow_mut();
                    l.seen = l.seen.max(t.span().end);
                });
        }
        let rewriter = Rewriter::read_only(dialect, settings);
        stream(rewriter, path, json, lines, printer)?
    };
    let printer = printer.into_inner();
    if let Some(e) = printer.error {
        return Err(CliError::Write(e));
    }
    if let Some(e) = &failed {
        // The document, not the file: an encoding the rewriter refuses, malformed UTF-8,
        // LeafXML's first error, a limit that stops the rewriter.
        eprintln!("thicket: cannot select in `{name}`: {e}");
    }
    Ok(Found {
        matches: printer.matches,
        refused: printer.over_limit,
        failed: usize::from(failed.is_some()),
    })
}

/// Feeds `path` to the rewriter in chunks (with `--json`, the line counter gets each chunk
/// too); the rewriter's error, if it stopped with one.
fn stream(
    mut rewriter: Rewriter<'_, NoOutput>,
    path: &str,
    json: bool,
    lines: &RefCell<Lines>,
    printer: &RefCell<Printer<'_>>,
) -> Result<Option<thicket_rewrite::Error>, CliError> {
    let mut source = Source::open(path)?;
    let mut chunk = Vec::new();
    let mut first = true;
    loop {
        let more = source.next_chunk(&mut chunk)?;
        if json {
            let mut l = lines.borrow_mut();
            let mut bytes = &chunk[..];
            if first && bytes.starts_with(b"\xEF\xBB\xBF") {
                bytes = &bytes[3..];
            }
            l.buf.extend_from_slice(bytes);
        }
        first = false;
        if let Err(e) = rewriter.feed(&chunk) {
            return Ok(Some(e));
        }
        if json {
            lines.borrow_mut().trim();
        }
        if printer.borrow().error.is_some() {
            return Ok(None);
        }
        if !more {
            break;
        }
    }
    source.done();
    Ok(rewriter.finish().err())
}
