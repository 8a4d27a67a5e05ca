//! The four dialects behind one small interface: a streaming pass (tokens, events or a validity
//! check) and a whole-document pass (tree outline or token list, with diagnostics).

use std::fmt;
use std::io::{self, Write};

use thicket_input::{Encoding, stream::StreamDecoder};

use crate::outline::Item;
use crate::render::{Diag, write_diag};
use crate::source::{OpenError, Source};
use crate::window::Window;

pub mod html;
pub mod leafxml;
pub mod microxml;
pub mod xml5;

/// A Thicket dialect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Dialect {
    /// MicroXML with error recovery: every input becomes a tree, with validity diagnostics.
    Microxml,
    /// LeafXML: strict decoding that stops at the first error.
    Leafxml,
    /// XML5: recovering XML (tokenizer and tree builder, namespaces).
    Xml5,
    /// HTML: the WHATWG tokenization stage (tokens, no tree).
    Html,
}

impl Dialect {
    /// All dialects, in the order `compare` shows them.
    pub const ALL: [Dialect; 4] = [
        Dialect::Xml5,
        Dialect::Microxml,
        Dialect::Leafxml,
        Dialect::Html,
    ];

    /// The dialect for a file name when none is given: `.html`/`.htm` is HTML, anything else XML5.
    pub fn from_path(path: &str) -> Dialect {
        let ext = std::path::Path::new(path)
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match ext.as_deref() {
            Some("html" | "htm") => Dialect::Html,
            _ => Dialect::Xml5,
        }
    }

    /// The lowercase name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Microxml => "microxml",
            Dialect::Leafxml => "leafxml",
            Dialect::Xml5 => "xml5",
            Dialect::Html => "html",
        }
    }

    /// What "valid" means for the dialect, for messages.
    pub fn validity(self) -> &'static str {
        match self {
            Dialect::Microxml => "no validity diagnostics",
            Dialect::Leafxml => "decodes without error",
            Dialect::Xml5 | Dialect::Html => "no parse errors",
        }
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a streaming pass produces on stdout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StreamView {
    /// One line per token.
    Tokens,
    /// One line per event (XML5: tokens and parse errors in input order; LeafXML: start, text, end).
    Events,
    /// Nothing: only count diagnostics.
    Check,
}

/// Why a command could not finish.
#[derive(Debug)]
pub enum CliError {
    /// An input could not be read.
    Read(OpenError),
    /// Standard output or error could not be written (a closed pipe, for instance).
    Write(io::Error),
}

impl From<OpenError> for CliError {
    fn from(e: OpenError) -> Self {
        CliError::Read(e)
    }
}

impl From<io::Error> for CliError {
    fn from(e: io::Error) -> Self {
        CliError::Write(e)
    }
}

/// Where a streaming pass sends its lines and diagnostics.
pub struct Sink<'a> {
    /// The input's name for diagnostics.
    pub name: String,
    /// The recent decoded text, to locate and show diagnostics.
    pub window: Window,
    /// Token or event lines go here (`None` when checking).
    pub out: Option<&'a mut dyn Write>,
    /// Rendered diagnostics go here (`None` to only count them).
    pub err: Option<&'a mut dyn Write>,
    /// Whether diagnostics are drawn with colour.
    pub styled: bool,
    /// How many diagnostics were seen.
    pub count: usize,
    /// The earliest diagnostic in the input and its line and column.
    pub first: Option<(Diag, Option<(usize, usize)>)>,
}

impl<'a> Sink<'a> {
    /// A sink with a bounded window.
    pub fn new(name: &str) -> Sink<'a> {
        Sink {
            name: name.to_owned(),
            window: Window::bounded(),
            out: None,
            err: None,
            styled: false,
            count: 0,
            first: None,
        }
    }

    /// Whether token or event lines are wanted.
    pub fn wants_lines(&self) -> bool {
        self.out.is_some()
    }

    /// Writes one token or event line.
    pub fn line(&mut self, args: fmt::Arguments<'_>) -> io::Result<()> {
        if let Some(out) = self.out.as_mut() {
            out.write_fmt(args)?;
            out.write_all(b"\n")?;
        }
        Ok(())
    }

    /// Records (and shows) a diagnostic.
    pub fn diag(&mut self, diag: Diag) -> io::Result<()> {
        self.count += 1;
        // Keep the earliest in the input (diagnostics of tree construction can come late).
        if self
            .first
            .as_ref()
            .is_none_or(|(first, _)| diag.span.start < first.span.start)
        {
            let at = diag.locate(&self.window);
            self.first = Some((diag.clone(), at));
        }
        if let Some(err) = self.err.as_mut() {
            write_diag(*err, &self.name, &self.window, &diag, self.styled)?;
        }
        Ok(())
    }
}

/// A document read whole: its text (for diagnostics) and what the dialect made of it.
pub struct Parsed {
    /// The decoded text.
    pub text: String,
    /// The tree, for dialects that build one (`None` for HTML, and for LeafXML after an error).
    pub tree: Option<Vec<Item>>,
    /// Token lines (HTML).
    pub tokens: Option<Vec<String>>,
    /// Tokens as JSON objects (HTML).
    pub tokens_json: Option<Vec<String>>,
    /// Every diagnostic, in input order.
    pub diags: Vec<Diag>,
}

/// How a text dialect finds the encoding of its bytes.
#[derive(Clone, Copy, Debug)]
pub enum Sniff {
    /// The WHATWG algorithm (BOM, then the `<meta charset>` prescan), with UTF-8 as the default.
    Whatwg,
    /// Thicket's XML rule (BOM, UTF-16 `<?`, the XML declaration's label, UTF-8).
    Xml,
}

impl Sniff {
    fn encoding(self, head: &[u8]) -> (&'static Encoding, usize) {
        match self {
            Sniff::Whatwg => {
                let s = thicket_input::whatwg::sniff_with_default(head, None, encoding_rs::UTF_8);
                (s.encoding, s.bom_len)
            }
            Sniff::Xml => {
                let s = thicket_input::xml::sniff(head);
                (s.encoding, s.bom_len)
            }
        }
    }

    /// Decodes a whole document.
    pub fn decode(self, bytes: &[u8]) -> String {
        let (encoding, bom_len) = self.encoding(bytes);
        let (text, _) = encoding.decode_without_bom_handling(&bytes[bom_len..]);
        text.into_owned()
    }
}

/// One piece of decoded text, or the end of the input.
#[derive(Clone, Copy, Debug)]
pub enum Piece<'t> {
    /// More text (already pushed into the sink's window).
    Text(&'t str),
    /// The input has ended.
    End,
}

/// Reads `src` in chunks, decodes them, pushes the text into the sink's window and hands each
/// piece to `each`. Memory stays bounded by the chunk size and the window.
pub fn drive_text(
    src: &mut Source,
    sniff: Sniff,
    sink: &mut Sink<'_>,
    mut each: impl FnMut(Piece<'_>, &mut Sink<'_>) -> Result<(), CliError>,
) -> Result<(), CliError> {
    let mut buf = Vec::new();
    let mut text = String::new();
    let mut decoder: Option<StreamDecoder> = None;
    while src.next_chunk(&mut buf)? {
        let bytes = match &mut decoder {
            Some(_) => &buf[..],
            None => {
                let (encoding, bom_len) = sniff.encoding(&buf);
                decoder = Some(StreamDecoder::without_bom_handling(encoding));
                &buf[bom_len.min(buf.len())..]
            }
        };
        if let Some(d) = decoder.as_mut() {
            d.feed(bytes, &mut text);
        }
        if !text.is_empty() {
            sink.window.push(&text);
            each(Piece::Text(&text), sink)?;
            text.clear();
        }
    }
    if let Some(d) = decoder.as_mut() {
        d.finish(&mut text);
    }
    if !text.is_empty() {
        sink.window.push(&text);
        each(Piece::Text(&text), sink)?;
    }
    src.done();
    each(Piece::End, sink)
}

/// The streaming pass of `dialect`.
pub fn stream(
    dialect: Dialect,
    src: &mut Source,
    view: StreamView,
    sink: &mut Sink<'_>,
) -> Result<(), CliError> {
    match dialect {
        Dialect::Html => html::stream(src, view, sink),
        Dialect::Xml5 => xml5::stream(src, view, sink),
        Dialect::Microxml => microxml::stream(src, view, sink),
        Dialect::Leafxml => leafxml::stream(src, view, sink),
    }
}

/// The whole-document pass of `dialect`.
pub fn parse(dialect: Dialect, bytes: &[u8]) -> Parsed {
    match dialect {
        Dialect::Html => html::parse(bytes),
        Dialect::Xml5 => xml5::parse(bytes),
        Dialect::Microxml => microxml::parse(bytes),
        Dialect::Leafxml => leafxml::parse(bytes),
    }
}

/// Whether `dialect` supports streaming `view`, with a message for a person when it does not.
pub fn supports(dialect: Dialect, view: StreamView) -> Result<(), String> {
    match (dialect, view) {
        (_, StreamView::Check) => Ok(()),
        (Dialect::Html | Dialect::Microxml | Dialect::Xml5, StreamView::Tokens) => Ok(()),
        (Dialect::Xml5 | Dialect::Leafxml, StreamView::Events) => Ok(()),
        (Dialect::Leafxml, StreamView::Tokens) => Err(
            "the leafxml decoder reports events, not tokens: use `--events` (or `--tree`)".into(),
        ),
        (Dialect::Html | Dialect::Microxml, StreamView::Events) => Err(format!(
            "`--events` is for xml5 and leafxml; the {dialect} dialect has `--tokens`"
        )),
    }
}
