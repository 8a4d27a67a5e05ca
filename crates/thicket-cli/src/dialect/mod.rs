//! The four dialects behind one small interface: a streaming pass (tokens, events or a validity
//! check) and a whole-document pass (a tree walked in document order, or HTML's tokens, with
//! diagnostics).

use std::borrow::Cow;
use std::fmt;
use std::io::{self, Write};

use thicket_input::xml::EncodingProblem;
use thicket_input::{Encoding, ErrorCode, Limits, Span, stream::StreamDecoder};

use crate::outline::{LineCollector, OutlineWriter, Visit};
use crate::render::{Diag, write_diag};
use crate::source::{OpenError, Source};
use thicket_input::render::Window;

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

    /// The dialect `thicket_rewrite` reads this one as (`select`, `rewrite`): the one mapping
    /// from the command line's dialects to the rewriter's.
    pub fn rewriter(self) -> thicket_rewrite::Dialect {
        match self {
            Dialect::Html => thicket_rewrite::Dialect::Html,
            Dialect::Xml5 => thicket_rewrite::Dialect::Xml5,
            Dialect::Microxml => thicket_rewrite::Dialect::MicroXml,
            Dialect::Leafxml => thicket_rewrite::Dialect::LeafXml,
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
    pub window: Window<'static>,
    /// Token or event lines go here (`None` when checking).
    pub out: Option<&'a mut dyn Write>,
    /// Rendered diagnostics go here (`None` to only count them).
    pub err: Option<&'a mut dyn Write>,
    /// Whether diagnostics are drawn with colour.
    pub styled: bool,
    /// How many diagnostics are shown at most (`None`: all).
    pub cap: Option<usize>,
    /// How many diagnostics were seen.
    pub count: usize,
    /// How many were shown.
    pub shown: usize,
    /// The earliest diagnostic in the input and its line and column.
    pub first: Option<(Diag, Option<thicket_input::LineCol>)>,
}

impl<'a> Sink<'a> {
    /// A sink with a bounded window that shows every diagnostic.
    pub fn new(name: &str) -> Sink<'a> {
        Sink {
            name: name.to_owned(),
            window: Window::bounded(),
            out: None,
            err: None,
            styled: false,
            cap: None,
            count: 0,
            shown: 0,
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

    /// Writes token or event lines built as bytes (`lines` ends with a line break, or is
    /// empty): the lines a hostile input floods, without the formatting machinery of
    /// [`Sink::line`].
    pub fn line_bytes(&mut self, lines: &[u8]) -> io::Result<()> {
        if let Some(out) = self.out.as_mut() {
            out.write_all(lines)?;
        }
        Ok(())
    }

    /// Records a diagnostic, and shows it while fewer than `cap` were shown.
    pub fn diag(&mut self, diag: Diag) -> io::Result<()> {
        self.count += 1;
        // Keep the earliest in the input (diagnostics of tree construction can come late).
        if self
            .first
            .as_ref()
            .is_none_or(|(first, _)| diag.span.start < first.span.start)
        {
            let at = diag.locate(&mut self.window);
            self.first = Some((diag.clone(), at));
        }
        if let Some(err) = self.err.as_mut()
            && self.cap.is_none_or(|cap| self.shown < cap)
        {
            self.shown += 1;
            write_diag(*err, &self.name, &mut self.window, &diag, self.styled)?;
        }
        Ok(())
    }

    /// [`Sink::diag`] for a diagnostic at offset `start`, made by `make` only when it is
    /// shown or is the earliest so far: past the cap, a flood of diagnostics (1 MB of `<`) is
    /// only counted.
    pub fn diag_lazy(&mut self, start: usize, make: impl FnOnce() -> Diag) -> io::Result<()> {
        let shown = self.err.is_some() && self.cap.is_none_or(|cap| self.shown < cap);
        let first = self
            .first
            .as_ref()
            .is_none_or(|(first, _)| start < first.span.start);
        if shown || first {
            return self.diag(make());
        }
        self.count += 1;
        Ok(())
    }

    /// Diagnostics the parser counted past its cap and did not hand out (see
    /// [`parser_limits`]): counted, never shown.
    pub fn counted(&mut self, omitted: usize) {
        self.count += omitted;
    }

    /// Diagnostics counted but not shown.
    pub fn omitted(&self) -> usize {
        self.count - self.shown
    }
}

/// The limits a streaming pass gives its parser: the diagnostics cap is the sink's, which
/// drains the parser's diagnostics after every chunk and counts past the cap itself.
pub fn streaming_limits(limits: Limits) -> Limits {
    let mut limits = limits;
    limits.max_diagnostics = None;
    limits
}

/// The limits a streaming pass gives its parser when the diagnostics go only to `sink` (`check`,
/// `--tokens`): the parser keeps as many as the sink shows (at least one, the earliest, which
/// the summary names) and counts the rest, which the pass adds with [`Sink::counted`] at the
/// end. The parser's diagnostics come in source order, so the sink shows the same ones as with
/// no cap, but a parser that must hold diagnostics back (behind an open top-level text run, or a
/// tag still being read) holds at most that many: 1 MB of `<` is not a million held
/// diagnostics, and no time goes to diagnostics that are never shown. `--events` prints every
/// diagnostic as a line: its parser keeps them all.
pub fn parser_limits(limits: Limits, view: StreamView, sink: &Sink<'_>) -> Limits {
    let mut limits = streaming_limits(limits);
    if view != StreamView::Events {
        limits.max_diagnostics = sink.cap.map(|cap| cap.max(1));
    }
    limits
}

/// How a text dialect finds the encoding of its bytes (HTML's is the library's own:
/// `html::stream` and `html::decode`).
#[derive(Clone, Copy, Debug)]
pub enum Sniff {
    /// Thicket's XML rule (BOM, UTF-16 `<?`, the XML declaration's label, UTF-8).
    Xml,
}

/// The diagnostic of an XML declaration's encoding label that is unknown or contradicts the
/// bytes (`thicket_input::xml::EncodingProblem`); decoding is not changed by it.
fn encoding_diag(problem: EncodingProblem, span: Option<Span>) -> Diag {
    Diag {
        code: problem.code(),
        message: match problem {
            EncodingProblem::UnknownLabel => {
                "the XML declaration names an encoding that is not known (it is ignored)"
            }
            EncodingProblem::Mismatch => {
                "the XML declaration names another encoding than the bytes use (the byte order mark or byte pattern wins)"
            }
        },
        span: span.unwrap_or(Span::empty(0)),
        line_col: None,
        note: None,
    }
}

impl Sniff {
    /// The encoding of a document starting with `head`, the length of its BOM, and a diagnostic
    /// when its XML declaration's label is unknown or contradicts the BOM.
    fn encoding(self, head: &[u8]) -> (&'static Encoding, usize, Option<Diag>) {
        match self {
            Sniff::Xml => {
                let s = thicket_input::xml::sniff(head);
                let diag = s.problem.map(|p| encoding_diag(p, s.declared_label_span));
                (s.encoding, s.bom_len, diag)
            }
        }
    }

    /// Decodes a whole document, reusing the bytes when they are already UTF-8 (so a document
    /// is not held twice), with the encoding diagnostic if there is one.
    pub fn decode(self, bytes: Cow<'_, [u8]>) -> (Cow<'_, str>, Option<Diag>) {
        let (encoding, bom_len, diag) = self.encoding(&bytes);
        let utf8 = encoding == encoding_rs::UTF_8 && std::str::from_utf8(&bytes[bom_len..]).is_ok();
        let text = match bytes {
            Cow::Borrowed(b) if utf8 => {
                Cow::Borrowed(std::str::from_utf8(&b[bom_len..]).unwrap_or(""))
            }
            Cow::Owned(mut b) if utf8 => {
                b.drain(..bom_len);
                Cow::Owned(String::from_utf8(b).unwrap_or_default())
            }
            bytes => Cow::Owned(
                encoding
                    .decode_without_bom_handling(&bytes[bom_len..])
                    .0
                    .into_owned(),
            ),
        };
        (text, diag)
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
/// piece to `each`. Memory stays bounded by the chunk size and the window. A problem with the
/// XML declaration's encoding label goes to the sink before the first piece.
pub fn drive_text(
    src: &mut Source,
    sniff: Sniff,
    sink: &mut Sink<'_>,
    mut each: impl FnMut(Piece<'_>, &mut Sink<'_>) -> Result<(), CliError>,
) -> Result<(), CliError> {
    let mut buf = Vec::new();
    let mut text = String::new();
    let mut decoder: Option<StreamDecoder> = None;
    let mut encoding_diag = None;
    while src.next_chunk(&mut buf)? {
        let bytes = match &mut decoder {
            Some(_) => &buf[..],
            None => {
                let (encoding, bom_len, diag) = sniff.encoding(&buf);
                decoder = Some(StreamDecoder::without_bom_handling(encoding));
                encoding_diag = diag;
                &buf[bom_len.min(buf.len())..]
            }
        };
        if let Some(d) = decoder.as_mut() {
            d.feed(bytes, &mut text);
        }
        if !text.is_empty() {
            sink.window.push(&text);
            if let Some(diag) = encoding_diag.take() {
                sink.diag(diag)?;
            }
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

/// The streaming pass of `dialect`, with `limits` (whose diagnostics cap is the sink's, see
/// [`parser_limits`]).
pub fn stream(
    dialect: Dialect,
    src: &mut Source,
    view: StreamView,
    limits: Limits,
    sink: &mut Sink<'_>,
) -> Result<(), CliError> {
    let limits = parser_limits(limits, view, sink);
    match dialect {
        Dialect::Html => html::stream(src, view, limits, sink),
        Dialect::Xml5 => xml5::stream(src, view, limits, sink),
        Dialect::Microxml => microxml::stream(src, view, limits, sink),
        Dialect::Leafxml => leafxml::stream(src, view, limits, sink),
    }
}

/// A whole document, read for one dialect: decoded text for the text dialects (the bytes reused
/// when they are UTF-8), the bytes for LeafXML (which decodes them itself).
pub struct Input<'b> {
    dialect: Dialect,
    data: Data<'b>,
    /// The encoding diagnostic of the XML declaration, if any.
    encoding: Option<Diag>,
}

enum Data<'b> {
    Text(Cow<'b, str>),
    Bytes(Cow<'b, [u8]>),
}

impl fmt::Debug for Input<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Input")
            .field("dialect", &self.dialect)
            .field("len", &self.len())
            .finish_non_exhaustive()
    }
}

impl<'b> Input<'b> {
    /// Reads `bytes` for `dialect` (owned bytes are reused, borrowed ones copied only when
    /// decoding changes them).
    pub fn new(dialect: Dialect, bytes: impl Into<Cow<'b, [u8]>>) -> Input<'b> {
        let bytes = bytes.into();
        let sniff = match dialect {
            Dialect::Leafxml => {
                return Input {
                    dialect,
                    data: Data::Bytes(bytes),
                    encoding: None,
                };
            }
            Dialect::Html => {
                let text = match bytes {
                    Cow::Borrowed(b) => html::decode(b),
                    Cow::Owned(mut b) => {
                        // Valid UTF-8 comes back borrowed (without its BOM): reuse the bytes
                        // rather than copy them.
                        let bom = match html::decode(&b) {
                            Cow::Borrowed(t) => b.len() - t.len(),
                            Cow::Owned(t) => return Input::html(dialect, Cow::Owned(t)),
                        };
                        b.drain(..bom);
                        Cow::Owned(String::from_utf8(b).unwrap_or_default())
                    }
                };
                return Input::html(dialect, text);
            }
            Dialect::Xml5 | Dialect::Microxml => Sniff::Xml,
        };
        let (text, encoding) = sniff.decode(bytes);
        Input {
            dialect,
            data: Data::Text(text),
            encoding,
        }
    }

    fn html(dialect: Dialect, text: Cow<'b, str>) -> Input<'b> {
        Input {
            dialect,
            data: Data::Text(text),
            encoding: None,
        }
    }

    /// The dialect it was read for.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// Its size in bytes (of decoded text, or of bytes for LeafXML).
    pub fn len(&self) -> usize {
        match &self.data {
            Data::Text(t) => t.len(),
            Data::Bytes(b) => b.len(),
        }
    }

    /// Whether it is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn text(&self) -> &str {
        match &self.data {
            Data::Text(t) => t,
            Data::Bytes(_) => "",
        }
    }

    fn bytes(&self) -> &[u8] {
        match &self.data {
            Data::Text(t) => t.as_bytes(),
            Data::Bytes(b) => b,
        }
    }
}

/// What a dialect made of a whole document: the document (walked on demand), and its first
/// diagnostics in input order with a count of the rest.
pub struct Parsed<'t> {
    /// The dialect.
    pub dialect: Dialect,
    /// The decoded text the diagnostics' spans point into.
    pub text: Cow<'t, str>,
    /// The first diagnostics in input order, at most the cap given to [`parse`].
    pub diags: Vec<Diag>,
    /// How many more diagnostics there are.
    pub omitted: usize,
    doc: Doc<'t>,
}

enum Doc<'t> {
    Xml5(thicket_xml5::Document<'t>),
    Microxml(thicket_microxml::Parsed<'t>),
    /// LeafXML decodes the bytes again as it is walked (it stops at its first error).
    Leafxml {
        bytes: &'t [u8],
        limits: Limits,
    },
    /// HTML tokenizes the text again as its tokens are walked.
    Html {
        limits: Limits,
    },
}

impl fmt::Debug for Parsed<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Parsed")
            .field("dialect", &self.dialect)
            .field("diags", &self.diags)
            .field("omitted", &self.omitted)
            .finish_non_exhaustive()
    }
}

impl<'t> Parsed<'t> {
    /// Every diagnostic: shown and omitted.
    pub fn total(&self) -> usize {
        self.diags.len() + self.omitted
    }

    /// Whether there is a tree to show: every dialect but HTML, and LeafXML only when it read
    /// the whole document without error.
    pub fn has_tree(&self) -> bool {
        match self.doc {
            Doc::Html { .. } => false,
            Doc::Leafxml { .. } => self.total() == 0,
            _ => true,
        }
    }

    /// Walks the tree in document order (LeafXML: the elements decoded before its first error;
    /// HTML: nothing).
    pub fn walk(&self, visit: &mut Visit<'_>) -> io::Result<()> {
        match &self.doc {
            Doc::Xml5(doc) => xml5::walk(doc, visit),
            Doc::Microxml(parsed) => microxml::walk(parsed.root(), visit),
            Doc::Leafxml { bytes, limits } => leafxml::walk(bytes, *limits, visit),
            Doc::Html { .. } => Ok(()),
        }
    }

    /// HTML's tokens as JSON objects, one call each (nothing for the other dialects).
    pub fn html_tokens_json(&self, each: &mut dyn FnMut(&str) -> io::Result<()>) -> io::Result<()> {
        match &self.doc {
            Doc::Html { limits } => {
                html::each_token(&self.text, *limits, |t| each(&html::token_json(t)))
            }
            _ => Ok(()),
        }
    }

    /// The outline (HTML: the token lines without their spans), keeping the first `limit`
    /// lines and counting all.
    pub fn outline(&self, limit: usize) -> LineCollector {
        let mut w = OutlineWriter::new(LineCollector::new(limit));
        // Writing to memory cannot fail.
        let _ = match &self.doc {
            Doc::Html { limits } => html::each_token(&self.text, *limits, |t| {
                let line = html::token_line(t);
                let line = line.rsplit_once(' ').map_or(line.as_str(), |(l, _)| l);
                let out = w.inner_mut();
                out.write_all(line.as_bytes())?;
                out.write_all(b"\n")
            }),
            _ => self.walk(&mut |item| w.item(item)),
        };
        w.into_inner()
    }

    /// The outline lines of the whole document.
    pub fn outline_lines(&self) -> Vec<String> {
        self.outline(usize::MAX).lines
    }
}

/// Keeps the first `cap` of `diagnostics` and the encoding diagnostic, in input order, and
/// counts the rest.
fn keep_diags<C: ErrorCode>(
    encoding: Option<&Diag>,
    diagnostics: Vec<thicket_input::Diagnostic<C>>,
    cap: Option<usize>,
) -> (Vec<Diag>, usize) {
    // Every dialect returns its diagnostics in source order: the first `cap` are the first ones.
    let total = diagnostics.len() + usize::from(encoding.is_some());
    let mut kept: Vec<Diag> = diagnostics
        .iter()
        .take(cap.unwrap_or(usize::MAX))
        .map(Diag::from_diagnostic)
        .collect();
    if let Some(e) = encoding {
        let at = kept.partition_point(|d| d.span.start <= e.span.start);
        kept.insert(at, e.clone());
        kept.truncate(cap.unwrap_or(usize::MAX));
    }
    let omitted = total - kept.len();
    (kept, omitted)
}

/// The whole-document pass: parses `input` with `limits` and keeps the first `shown`
/// diagnostics in input order (the command line gives the parser the same cap, so past it
/// diagnostics are counted, not stored; with `--no-limits` the parser keeps them all).
pub fn parse<'t>(input: &'t Input<'_>, limits: Limits, shown: Option<usize>) -> Parsed<'t> {
    let cap = shown;
    let text = input.text();
    let encoding = input.encoding.as_ref();
    let (doc, diags, omitted) = match input.dialect {
        Dialect::Xml5 => {
            let parsed = xml5::parse(text, limits);
            let (diags, omitted) = keep_diags(encoding, parsed.diagnostics, cap);
            let omitted = omitted + parsed.omitted_diagnostics;
            (Doc::Xml5(parsed.document), diags, omitted)
        }
        Dialect::Microxml => {
            let mut parsed = microxml::parse(text, limits);
            let diagnostics = std::mem::take(&mut parsed.diagnostics);
            let (diags, omitted) = keep_diags(encoding, diagnostics, cap);
            let omitted = omitted + parsed.omitted_diagnostics;
            (Doc::Microxml(parsed), diags, omitted)
        }
        Dialect::Html => {
            let (diagnostics, omitted) = html::diagnostics(text, limits);
            let (diags, more) = keep_diags(encoding, diagnostics, cap);
            (Doc::Html { limits }, diags, omitted + more)
        }
        Dialect::Leafxml => {
            let bytes = input.bytes();
            let mut diags: Vec<Diag> = leafxml::error(bytes, limits).into_iter().collect();
            let omitted = diags.len().saturating_sub(cap.unwrap_or(usize::MAX));
            diags.truncate(diags.len() - omitted);
            (Doc::Leafxml { bytes, limits }, diags, omitted)
        }
    };
    let text = match input.dialect {
        // LeafXML's text is only needed to show its error's line.
        Dialect::Leafxml if !diags.is_empty() => thicket_input::decode_bom_lossy(input.bytes()).0,
        _ => Cow::Borrowed(text),
    };
    Parsed {
        dialect: input.dialect,
        text,
        diags,
        omitted,
        doc,
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

#[cfg(test)]
mod tests {
    use super::*;
    use thicket_input::Diagnostic;

    #[test]
    fn the_encoding_diagnostic_joins_the_first_in_order_and_the_rest_are_counted() {
        // As the dialects return them: in source order.
        let all: Vec<Diagnostic<thicket_xml5::ErrorCode>> = [0, 3, 5, 9]
            .iter()
            .map(|&s| Diagnostic::new(thicket_xml5::ErrorCode::EofInTag, Span::new(s, s + 1)))
            .collect();
        let encoding = encoding_diag(EncodingProblem::UnknownLabel, Some(Span::new(4, 8)));
        let (kept, omitted) = keep_diags(Some(&encoding), all.clone(), Some(3));
        let starts: Vec<usize> = kept.iter().map(|d| d.span.start).collect();
        assert_eq!((starts, omitted), (vec![0, 3, 4], 2));
        let (kept, omitted) = keep_diags(None, all, None);
        assert_eq!((kept.len(), omitted), (4, 0));
    }
}
