//! Tokenizer and tree builder together: [`parse`] over a whole `&str`, the streaming
//! [`Parser`], and over bytes [`parse_bytes`] and [`BytesParser`]. Each returns the tokenizer's
//! and the tree builder's diagnostics merged in source order (see `order.rs`), capped by
//! [`thicket_input::Limits::max_diagnostics`].

use thicket_input::Span;
use thicket_input::front::{Detected, EncodingSource, Sniff, SniffingDecoder};

use crate::error::{Diagnostic, ErrorCode};
use crate::order::Ordered;
use crate::token::{Event, Token, TokenKind};
use crate::tokenizer::{ErrorStep, Options, Tokenizer};
use crate::tree::{Document, TreeBuilder};

/// A document and its diagnostics: what [`parse`], [`Parser::finish`] and
/// [`TreeBuilder::finish`] return.
#[derive(Clone, Debug)]
pub struct Parsed<'a> {
    /// The document (empty when the parser kept no tree).
    pub document: Document<'a>,
    /// The diagnostics in source order (by span start; ties in the order the draft raises
    /// them; errors of the end of the input last), at most
    /// [`thicket_input::Limits::max_diagnostics`].
    pub diagnostics: Vec<Diagnostic>,
    /// How many diagnostics were counted past the cap and not kept.
    pub omitted_diagnostics: usize,
}

/// The tokenizer's options for a parser: the parser caps the merged diagnostics itself.
fn tokenizer_options(options: &Options) -> Options {
    let mut options = options.clone();
    options.limits.max_diagnostics = None;
    // A tree is built from everything.
    options.lazy = None;
    options
}

/// The bytes front end of [`parse_bytes`] and [`BytesParser`]: the XML rules (a BOM, the UTF-16
/// pattern of `<?`, the XML declaration's label), UTF-8 when they find nothing, lossy.
fn decoder() -> SniffingDecoder {
    SniffingDecoder::new(Sniff::Xml, encoding_rs::UTF_8)
}

/// An encoding problem of a byte input, as the first diagnostic.
fn encoding_diagnostic(detected: &Detected) -> Option<Diagnostic> {
    let problem = detected.problem?;
    let span = detected.declared_label_span.unwrap_or(Span::empty(0));
    Some(Diagnostic::new(
        ErrorCode::for_encoding_problem(problem),
        span,
    ))
}

/// Parses the whole of `input` into a document with the default options (the draft profile, no
/// limits); tokenizer and tree diagnostics together, in source order. The document borrows from
/// `input` ([`Document::into_owned`] detaches it).
///
/// ```
/// let parsed = thicket_xml5::parse("<feed><entry>a &amp; b</feed>");
/// let doc = &parsed.document;
/// let entry = doc
///     .descendants(doc.root())
///     .find(|&n| doc.element(n).is_some_and(|e| e.local == "entry"))
///     .unwrap();
/// assert_eq!(doc.text_content(entry), "a & b");
/// assert_eq!(parsed.diagnostics[0].code.as_str(), "mismatched-end-tag");
/// ```
pub fn parse(input: &str) -> Parsed<'_> {
    parse_inner(input, Options::default(), None)
}

/// Parses the whole of `input` into a document with `options` (see [`parse`]).
pub fn parse_with(input: &str, options: Options) -> Parsed<'_> {
    parse_inner(input, options, None)
}

/// (Nothing is handed out before the end, so the diagnostics are put in order once, at the end:
/// a sort that is linear on the runs already in order, most of them.)
fn parse_inner(input: &str, options: Options, first: Option<Diagnostic>) -> Parsed<'_> {
    let mut order = Ordered::new(options.limits.max_diagnostics);
    order.extend(first);
    let mut builder = TreeBuilder::for_source(input, &options.limits);
    let mut tokenizer = Tokenizer::with_options(input, tokenizer_options(&options));
    loop {
        // Text and plain tags without tokens; anything else as events.
        if let Some(d) = tokenizer.next_direct() {
            builder.process_direct(d, tokenizer.direct_attributes());
            builder.drain_diagnostics(&mut order);
            continue;
        }
        // An error run (`<<<<`, `</</`) without events: its diagnostics in order, its text in
        // one piece (the pieces are adjacent and as written).
        if tokenizer.in_error_run() {
            let mut text: Option<Span> = None;
            while let Some(step) = tokenizer.error_run_step() {
                match step {
                    ErrorStep::Diagnostic(d) => order.push(d),
                    ErrorStep::Text(span) => {
                        text = Some(text.map_or(span, |t| Span::new(t.start, span.end)));
                    }
                }
            }
            if let Some(span) = text {
                builder.text(&input[span.start..span.end], span);
            }
            continue;
        }
        let Some(e) = tokenizer.next_event() else {
            break;
        };
        match e {
            Event::Token(Token {
                kind: TokenKind::Text(t),
                span,
            }) => builder.text(&t, span),
            Event::Token(t) => {
                builder.process(t);
                builder.drain_diagnostics(&mut order);
                if builder.spare_attributes.capacity() > 0 {
                    // The tokenizer builds the next tag's attributes in this list: no
                    // allocation per tag.
                    tokenizer.reuse_attributes(std::mem::take(&mut builder.spare_attributes));
                }
            }
            Event::Diagnostic(d) => order.push(d),
        }
    }
    let (diagnostics, omitted_diagnostics) = order.into_parts();
    Parsed {
        document: builder.finish().document,
        diagnostics,
        omitted_diagnostics,
    }
}

/// A streaming parser: tokenizer and tree builder together. [`Parser::without_tree`] checks the
/// input in memory bounded by its open elements and namespace bindings.
pub struct Parser {
    tokenizer: Tokenizer<'static>,
    builder: TreeBuilder<'static>,
    order: Ordered,
}

impl std::fmt::Debug for Parser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Parser")
            .field("builder", &self.builder)
            .finish_non_exhaustive()
    }
}

impl Parser {
    /// A parser building a document, with `options`.
    pub fn new(options: Options) -> Parser {
        Parser::with_tree(options, true)
    }

    /// A parser that builds no tree: the same diagnostics as [`Parser::new`], an empty
    /// document, and memory for the open elements and namespace bindings only.
    pub fn without_tree(options: Options) -> Parser {
        Parser::with_tree(options, false)
    }

    fn with_tree(options: Options, keep_tree: bool) -> Parser {
        Parser {
            builder: TreeBuilder::for_parser(keep_tree, &options.limits),
            order: Ordered::new(options.limits.max_diagnostics),
            tokenizer: Tokenizer::streaming(tokenizer_options(&options)),
        }
    }

    /// Feeds a chunk and builds what it completes.
    pub fn feed(&mut self, chunk: &str) {
        self.tokenizer.feed(chunk);
        self.pump();
    }

    /// Decodes and feeds a chunk of bytes (the byte parser).
    fn feed_bytes(&mut self, decoder: &mut SniffingDecoder, bytes: &[u8]) {
        self.tokenizer.feed_bytes(decoder, bytes);
        self.pump();
    }

    fn pump(&mut self) {
        while let Some(e) = self.tokenizer.next_event() {
            match e {
                Event::Token(Token {
                    kind: TokenKind::Text(t),
                    span,
                }) => self.builder.text(&t, span),
                Event::Token(t) => {
                    self.builder.process(t);
                    self.builder.drain_diagnostics(&mut self.order);
                }
                Event::Diagnostic(d) => self.order.push(d),
            }
        }
        let horizon = self.tokenizer.horizon().min(self.builder.horizon());
        self.order.settle(horizon);
    }

    /// The diagnostics whose place in source order is settled, not yet taken: every one that
    /// starts before the input read so far could still produce one (so a consumer can print
    /// them as the input streams in).
    pub fn take_diagnostics(&mut self) -> Vec<Diagnostic> {
        self.order.take()
    }

    /// How many diagnostics were counted past [`thicket_input::Limits::max_diagnostics`].
    pub fn omitted_diagnostics(&self) -> usize {
        self.order.omitted()
    }

    /// Ends the input; returns the document and the diagnostics not taken.
    pub fn finish(mut self) -> Parsed<'static> {
        self.tokenizer.finish();
        self.pump();
        let (diagnostics, omitted_diagnostics) = self.order.into_parts();
        Parsed {
            document: self.builder.finish().document,
            diagnostics,
            omitted_diagnostics,
        }
    }

    /// A diagnostic about the input before its first character (the encoding).
    fn report_first(&mut self, d: Option<Diagnostic>) {
        self.order.extend(d);
    }
}

/// The result of [`parse_bytes`].
#[derive(Clone, Debug)]
pub struct ParsedBytes {
    /// The document.
    pub document: Document<'static>,
    /// The diagnostics in source order, capped (see [`Parsed::diagnostics`]); spans are byte
    /// offsets into [`ParsedBytes::text`]. An XML declaration whose `encoding` label is unknown
    /// (`unknown-encoding`) or contradicts the byte order mark or the UTF-16 byte pattern
    /// (`encoding-mismatch`) is reported at the label.
    pub diagnostics: Vec<Diagnostic>,
    /// How many diagnostics were counted past the cap and not kept.
    pub omitted_diagnostics: usize,
    /// The decoded text the spans refer to.
    pub text: String,
    /// The encoding used: from the BOM, else the `<?` pattern of UTF-16, else the XML
    /// declaration's label, else UTF-8 (see `thicket_input::xml`).
    pub encoding: &'static thicket_input::Encoding,
    /// True when malformed bytes were replaced by U+FFFD while decoding.
    pub had_decoding_errors: bool,
}

/// Decodes `bytes` (encoding from the BOM or the XML declaration, see `thicket_input::xml`) and
/// parses the text with the default options.
///
/// ```
/// let parsed = thicket_xml5::parse_bytes(b"<?xml version='1.0' encoding='latin1'?><p>caf\xE9</p>");
/// assert_eq!(parsed.encoding.name(), "windows-1252");
/// let p = parsed.document.root_element().unwrap();
/// assert_eq!(parsed.document.text_content(p), "caf\u{e9}");
/// ```
pub fn parse_bytes(bytes: &[u8]) -> ParsedBytes {
    parse_bytes_with(bytes, Options::default())
}

/// Reads `reader` to its end and parses the bytes as [`parse_bytes`] does, with the default
/// options. Only reading can fail; the parse never does. (The document holds the whole text
/// anyway; for bounded memory without a tree, feed a [`BytesParser::without_tree`].)
///
/// ```
/// let parsed = thicket_xml5::parse_reader(&b"<a>x</a>"[..]).unwrap();
/// assert!(parsed.diagnostics.is_empty());
/// ```
pub fn parse_reader(reader: impl std::io::Read) -> std::io::Result<ParsedBytes> {
    parse_reader_with(reader, Options::default())
}

/// [`parse_reader`] with `options`.
pub fn parse_reader_with(
    mut reader: impl std::io::Read,
    options: Options,
) -> std::io::Result<ParsedBytes> {
    let mut bytes = Vec::new();
    reader.read_to_end(&mut bytes)?;
    Ok(parse_bytes_with(&bytes, options))
}

/// Decodes `bytes` as [`parse_bytes`] does and parses the text with `options`.
pub fn parse_bytes_with(bytes: &[u8], options: Options) -> ParsedBytes {
    let (text, detected, had_decoding_errors) = match decoder().decode_whole(bytes) {
        Ok(d) => (d.text.into_owned(), d.detected, d.had_errors),
        // Lossy decoding does not fail (only strict decoding errs); were it to, UTF-8.
        Err(_) => {
            let detected = Detected {
                encoding: encoding_rs::UTF_8,
                source: EncodingSource::Default,
                bom_len: 0,
                problem: None,
                declared_label: None,
                declared_label_span: None,
            };
            (String::from_utf8_lossy(bytes).into_owned(), detected, true)
        }
    };
    let parsed = parse_inner(&text, options, encoding_diagnostic(&detected));
    let document = parsed.document.into_owned();
    ParsedBytes {
        document,
        diagnostics: parsed.diagnostics,
        omitted_diagnostics: parsed.omitted_diagnostics,
        text,
        encoding: detected.encoding,
        had_decoding_errors,
    }
}

/// What [`BytesParser::finish`] returns.
#[derive(Clone, Debug)]
pub struct ParsedStream {
    /// The document.
    pub document: Document<'static>,
    /// The diagnostics in source order, capped, as [`ParsedBytes::diagnostics`]; spans are
    /// byte offsets into the decoded text.
    pub diagnostics: Vec<Diagnostic>,
    /// How many diagnostics were counted past the cap and not kept.
    pub omitted_diagnostics: usize,
    /// The encoding used (see [`parse_bytes`]).
    pub encoding: &'static thicket_input::Encoding,
    /// True when malformed bytes were replaced by U+FFFD while decoding.
    pub had_decoding_errors: bool,
}

/// A streaming parser over bytes: holds the first bytes only until the encoding is known (the
/// XML declaration to its `>`, at most 1024 characters, or fewer when the bytes cannot start
/// one), finds it as [`parse_bytes`] does, then decodes each chunk straight into the
/// tokenizer's input. The result is the same as [`parse_bytes`] on the whole input.
pub struct BytesParser {
    parser: Parser,
    decoder: SniffingDecoder,
    /// The encoding's problem, if any, was reported.
    reported: bool,
}

impl std::fmt::Debug for BytesParser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BytesParser")
            .field("parser", &self.parser)
            .field("encoding", &self.encoding().map(|e| e.name()))
            .finish_non_exhaustive()
    }
}

impl BytesParser {
    /// A parser building a document, with `options`.
    pub fn new(options: Options) -> BytesParser {
        BytesParser::over(Parser::new(options))
    }

    /// A parser building no tree (see [`Parser::without_tree`]).
    pub fn without_tree(options: Options) -> BytesParser {
        BytesParser::over(Parser::without_tree(options))
    }

    fn over(parser: Parser) -> BytesParser {
        BytesParser {
            parser,
            decoder: decoder(),
            reported: false,
        }
    }

    /// The encoding, once it is known.
    pub fn encoding(&self) -> Option<&'static thicket_input::Encoding> {
        self.decoder.detected().map(|d| d.encoding)
    }

    /// Feeds a chunk of bytes.
    pub fn feed(&mut self, bytes: &[u8]) {
        self.report_encoding();
        self.parser.feed_bytes(&mut self.decoder, bytes);
        self.report_encoding();
    }

    /// Once the encoding is known, its problem (if any) as the first diagnostic.
    fn report_encoding(&mut self) {
        if !self.reported
            && let Some(detected) = self.decoder.detected()
        {
            self.reported = true;
            let first = encoding_diagnostic(detected);
            self.parser.report_first(first);
        }
    }

    /// The diagnostics settled so far (see [`Parser::take_diagnostics`]).
    pub fn take_diagnostics(&mut self) -> Vec<Diagnostic> {
        self.parser.take_diagnostics()
    }

    /// How many diagnostics were counted past the cap so far.
    pub fn omitted_diagnostics(&self) -> usize {
        self.parser.omitted_diagnostics()
    }

    /// Ends the input.
    pub fn finish(mut self) -> ParsedStream {
        self.parser.tokenizer.finish_bytes(&mut self.decoder);
        self.report_encoding();
        let had_decoding_errors = self.decoder.had_errors();
        let encoding = self.encoding().unwrap_or(encoding_rs::UTF_8);
        let parsed = self.parser.finish();
        ParsedStream {
            document: parsed.document,
            diagnostics: parsed.diagnostics,
            omitted_diagnostics: parsed.omitted_diagnostics,
            encoding,
            had_decoding_errors,
        }
    }
}
