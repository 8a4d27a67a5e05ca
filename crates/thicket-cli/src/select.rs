//! `thicket select SELECTOR FILE...`: the elements a CSS selector matches, streamed through
//! `thicket_rewrite` in read-only mode (docs/cli.md, docs/rewrite.md).

use std::borrow::Cow;
use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;

use thicket_input::Limits;
use thicket_rewrite::encoding_rs::{Encoding, UTF_8};
use thicket_rewrite::{Rewriter, SelectorList, Settings, UnitKind};

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

/// A match still open (its outer markup or text is being collected).
struct Open {
    start: usize,
    line: usize,
    column: usize,
    text: String,
}

/// What the handlers share.
struct State {
    /// The input's bytes from offset `base` on (spans are source byte offsets).
    buf: Vec<u8>,
    /// The input's encoding (`Settings::on_encoding`: known before the first match).
    encoding: &'static Encoding,
    base: usize,
    /// Everything before this offset was handled by the rewriter.
    seen: usize,
    /// Line and character column at offset `at`.
    at: usize,
    line: usize,
    column: usize,
    open: Vec<Open>,
    lines: Vec<u8>,
    matches: usize,
}

impl State {
    /// Moves the line counter to `to` (which never goes back). Both ends are where tags start,
    /// which are character boundaries in every encoding the rewriter reads.
    fn locate(&mut self, to: usize) -> (usize, usize) {
        if to > self.at {
            let bytes = &self.buf[self.at - self.base..to - self.base];
            if self.encoding == UTF_8 {
                for &b in bytes {
                    if b == b'\n' {
                        self.line += 1;
                        self.column = 1;
                    } else if b & 0xC0 != 0x80 {
                        self.column += 1;
                    }
                }
            } else {
                let (text, _) = self.encoding.decode_without_bom_handling(bytes);
                for c in text.chars() {
                    if c == '\n' {
                        self.line += 1;
                        self.column = 1;
                    } else {
                        self.column += 1;
                    }
                }
            }
            self.at = to;
        }
        (self.line, self.column)
    }

    /// The input from `start` to `end`, decoded.
    fn slice(&self, start: usize, end: usize) -> Cow<'_, str> {
        let bytes = &self.buf[start - self.base..end - self.base];
        if self.encoding == UTF_8 {
            return Cow::Borrowed(std::str::from_utf8(bytes).unwrap_or(""));
        }
        self.encoding.decode_without_bom_handling(bytes).0
    }

    /// Drops the input no open match and no later token needs.
    fn trim(&mut self) {
        let seen = self.seen;
        self.locate(seen);
        let keep = self
            .open
            .iter()
            .map(|o| o.start)
            .min()
            .unwrap_or(seen)
            .min(seen);
        if keep > self.base {
            self.buf.drain(..keep - self.base);
            self.base = keep;
        }
    }
}

/// Prints the matches of `selector` in each file; returns the number of matches.
pub fn select(
    selector: &SelectorList,
    files: &[String],
    forced: Option<Dialect>,
    mode: &Mode,
    limits: Limits,
    out: &mut dyn Write,
) -> Result<usize, CliError> {
    let mut total = 0;
    for path in files {
        let dialect = forced.unwrap_or_else(|| Dialect::from_path(path));
        let dialect = dialect.rewriter();
        total += select_file(selector, path, dialect, mode, limits, out)?;
    }
    Ok(total)
}

fn select_file(
    selector: &SelectorList,
    path: &str,
    dialect: thicket_rewrite::Dialect,
    mode: &Mode,
    limits: Limits,
    out: &mut dyn Write,
) -> Result<usize, CliError> {
    let state = Rc::new(RefCell::new(State {
        buf: Vec::new(),
        encoding: UTF_8,
        base: 0,
        seen: 0,
        at: 0,
        line: 1,
        column: 1,
        open: Vec::new(),
        lines: Vec::new(),
        matches: 0,
    }));
    let collect_text = *mode == Mode::Text;
    let s = Rc::clone(&state);
    let track = Rc::clone(&state);
    let texts = Rc::clone(&state);
    let told = Rc::clone(&state);
    let mode2 = mode.clone();
    let path2 = path.to_owned();
    let mut settings = Settings::new()
        .with_limits(limits)
        .with_memory_limits(crate::rewrite::memory_limits(limits))
        .on_encoding(move |e| told.borrow_mut().encoding = e)
        .on_element("*", move |e| {
            let mut st = track.borrow_mut();
            st.seen = st.seen.max(e.span().start);
        })
        .unwrap_or_default()
        .on_selector(selector.clone(), move |e| {
            let start = e.span().start;
            let mut st = s.borrow_mut();
            st.matches += 1;
            if let Mode::Attr(name) = &mode2 {
                if let Some(v) = e.attribute(name) {
                    st.lines.extend_from_slice(v.as_bytes());
                    st.lines.push(b'\n');
                }
                return;
            }
            let (line, column) = st.locate(start);
            st.open.push(Open {
                start,
                line,
                column,
                text: String::new(),
            });
            let s = Rc::clone(&s);
            let mode = mode2.clone();
            let path = path2.clone();
            drop(st);
            e.on_close(move |end| {
                let mut st = s.borrow_mut();
                let Some(i) = st.open.iter().rposition(|o| o.start == start) else {
                    return;
                };
                let open = st.open.remove(i);
                let mut line = Vec::new();
                match mode {
                    Mode::Outer => line.extend_from_slice(st.slice(start, end).as_bytes()),
                    Mode::Text => line.extend_from_slice(open.text.as_bytes()),
                    Mode::Json => {
                        let _ = write!(line, "{{\"file\":");
                        let _ = write_json_str(&mut line, &path);
                        let _ = write!(
                            line,
                            ",\"start\":{start},\"end\":{end},\"line\":{},\"column\":{},\"outer\":",
                            open.line, open.column
                        );
                        let _ = write_json_str(&mut line, &st.slice(start, end));
                        line.push(b'}');
                    }
                    Mode::Attr(_) => {}
                }
                line.push(b'\n');
                st.lines.extend_from_slice(&line);
            });
        });
    if collect_text {
        settings = settings.on_text(move |t| {
            let mut st = texts.borrow_mut();
            if let UnitKind::Text(text) = t.kind() {
                for o in &mut st.open {
                    o.text.push_str(text);
                }
            }
        });
    }
    let mut rewriter = Rewriter::read_only(dialect, settings);
    let mut source = Source::open(path)?;
    let mut chunk = Vec::new();
    let mut first = true;
    let mut failed = None;
    loop {
        let more = source.next_chunk(&mut chunk)?;
        {
            let mut st = state.borrow_mut();
            let mut bytes = &chunk[..];
            if first && bytes.starts_with(b"\xEF\xBB\xBF") {
                bytes = &bytes[3..];
            }
            st.buf.extend_from_slice(bytes);
        }
        first = false;
        if let Err(e) = rewriter.feed(&chunk) {
            failed = Some(e);
            break;
        }
        flush(&state, out)?;
        if !more {
            break;
        }
    }
    source.done();
    if failed.is_none()
        && let Err(e) = rewriter.finish()
    {
        failed = Some(e);
    }
    if let Some(e) = failed {
        flush(&state, out)?;
        return Err(CliError::Read(crate::source::OpenError {
            name: path.to_owned(),
            error: std::io::Error::other(e.to_string()),
        }));
    }
    {
        let mut st = state.borrow_mut();
        st.seen = st.base + st.buf.len();
    }
    flush(&state, out)?;
    let matches = state.borrow().matches;
    Ok(matches)
}

fn flush(state: &Rc<RefCell<State>>, out: &mut dyn Write) -> Result<(), CliError> {
    let mut st = state.borrow_mut();
    out.write_all(&st.lines).map_err(CliError::Write)?;
    st.lines.clear();
    st.trim();
    Ok(())
}
