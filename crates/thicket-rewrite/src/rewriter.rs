//! The public rewriter: settings, sinks and the byte front end (the dialect drivers are in
//! html.rs, xml5.rs, microxml.rs and leafxml.rs).

use std::io;

use thicket_input::front::SniffingDecoder;
use thicket_input::stream::StreamDecoder;
use thicket_input::{Diagnostic, Limits, Span};

use crate::core::{Core, Handlers};
use crate::handlers::{DocumentEnd, Element, Unit};
#[cfg(feature = "html")]
use crate::html::{html_event, html_lazy};
use crate::selector::SelectorList;
#[cfg(feature = "xml5")]
use crate::xml5::{xml5_event, xml5_lazy, xml5_plain_tag};
use crate::{Error, ErrorCode};

/// Which markup language the input is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Dialect {
    /// HTML, through `thicket_html`'s document-level tokenizer.
    #[cfg(feature = "html")]
    Html,
    /// XML5, through `thicket_xml5`'s tokenizer.
    #[cfg(feature = "xml5")]
    Xml5,
    /// MicroXML, through `thicket_microxml`'s streaming tokenizer (its recovery: every input
    /// rewrites), with its comment, processing instruction and DOCTYPE tokens on
    /// (`thicket_microxml::Options::markup_tokens`), so their handlers run.
    #[cfg(feature = "microxml")]
    MicroXml,
    /// LeafXML, through `thicket_leafxml`'s push reader: the first error stops the rewrite
    /// (`not-well-formed`; [`Settings::output_on_error`] says what is written). Comment,
    /// processing instruction (the XML declaration included) and DOCTYPE handlers run
    /// (`thicket_leafxml::Reader::with_markup_events`).
    #[cfg(feature = "leafxml")]
    LeafXml,
}

/// Where the output goes.
pub trait Sink {
    /// Takes the next piece of output.
    fn write_bytes(&mut self, bytes: &[u8]) -> io::Result<()>;
}

impl<F: FnMut(&[u8])> Sink for F {
    fn write_bytes(&mut self, bytes: &[u8]) -> io::Result<()> {
        self(bytes);
        Ok(())
    }
}

/// A sink over an `io::Write`.
#[derive(Debug)]
pub struct WriteSink<W: io::Write>(pub W);

impl<W: io::Write> Sink for WriteSink<W> {
    fn write_bytes(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.0.write_all(bytes)
    }
}

/// No output at all: read-only selection (see [`Rewriter::read_only`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct NoOutput;

impl Sink for NoOutput {
    fn write_bytes(&mut self, _: &[u8]) -> io::Result<()> {
        Ok(())
    }
}

/// The handlers a rewriter runs, built with `on_*` methods.
pub struct Settings<'h> {
    pub(crate) handlers: Handlers<'h>,
}

impl std::fmt::Debug for Settings<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let h = &self.handlers;
        f.debug_struct("Settings")
            .field(
                "elements",
                &h.elements
                    .iter()
                    .map(|(s, _)| s.to_css())
                    .collect::<Vec<_>>(),
            )
            .field("text", &h.text.is_some())
            .field("comment", &h.comment.is_some())
            .field("doctype", &h.doctype.is_some())
            .field("pi", &h.pi.is_some())
            .field("end", &h.end.is_some())
            .field("encoding", &h.encoding.is_some())
            .field("limits", &h.limits)
            .field("modes", &h.modes)
            .field("text_settings", &h.text_settings)
            .finish()
    }
}

impl Default for Settings<'_> {
    fn default() -> Self {
        Settings::new()
    }
}

impl<'h> Settings<'h> {
    /// No handlers, no limits.
    pub fn new() -> Settings<'h> {
        Settings {
            handlers: Handlers {
                elements: Vec::new(),
                text: None,
                comment: None,
                doctype: None,
                pi: None,
                end: None,
                encoding: None,
                limits: Limits::none(),
                modes: Default::default(),
                text_settings: Default::default(),
            },
        }
    }

    /// Runs `handler` on every element `selector` matches, at its start tag. Handlers run in
    /// the order they were added. Fails with the selector's parse error.
    pub fn on_element(
        self,
        selector: &str,
        handler: impl FnMut(&mut Element<'_, 'h>) + 'h,
    ) -> Result<Settings<'h>, Error> {
        let list = SelectorList::parse_with_namespaces(selector, &self.handlers.modes.namespaces)?;
        Ok(self.on_selector(list, handler))
    }

    /// [`on_element`](Self::on_element) with a parsed selector list.
    pub fn on_selector(
        mut self,
        list: SelectorList,
        handler: impl FnMut(&mut Element<'_, 'h>) + 'h,
    ) -> Settings<'h> {
        self.handlers.elements.push((list, Box::new(handler)));
        self
    }

    /// Runs `handler` on every piece of text (a text run may come in pieces, split where a
    /// chunk ended or where a tokenizer waits).
    pub fn on_text(mut self, handler: impl FnMut(&mut Unit<'_>) + 'h) -> Settings<'h> {
        self.handlers.text = Some(Box::new(handler));
        self
    }

    /// Runs `handler` on every comment.
    pub fn on_comment(mut self, handler: impl FnMut(&mut Unit<'_>) + 'h) -> Settings<'h> {
        self.handlers.comment = Some(Box::new(handler));
        self
    }

    /// Runs `handler` on every doctype.
    pub fn on_doctype(mut self, handler: impl FnMut(&mut Unit<'_>) + 'h) -> Settings<'h> {
        self.handlers.doctype = Some(Box::new(handler));
        self
    }

    /// Runs `handler` on every processing instruction.
    pub fn on_processing_instruction(
        mut self,
        handler: impl FnMut(&mut Unit<'_>) + 'h,
    ) -> Settings<'h> {
        self.handlers.pi = Some(Box::new(handler));
        self
    }

    /// Runs `handler` once, with the input's encoding, as soon as it is known: before any
    /// other handler runs (after sniffing, for [`Rewriter::feed`]; UTF-8 for
    /// [`Rewriter::feed_str`]). Handlers that read the input's bytes themselves (the spans
    /// they see are source byte offsets) decode them with it.
    ///
    /// ```
    /// use std::cell::Cell;
    /// use thicket_rewrite::{Dialect, Rewriter, Settings, encoding_rs};
    ///
    /// let seen = Cell::new(None);
    /// let settings = Settings::new().on_encoding(|e| seen.set(Some(e.name())));
    /// let mut r = Rewriter::read_only(Dialect::Html, settings);
    /// r.feed(b"<meta charset=windows-1252><p>caf\xE9</p>").unwrap();
    /// r.finish().unwrap();
    /// assert_eq!(seen.get(), Some(encoding_rs::WINDOWS_1252.name()));
    /// ```
    pub fn on_encoding(
        mut self,
        handler: impl FnOnce(&'static encoding_rs::Encoding) + 'h,
    ) -> Settings<'h> {
        self.handlers.encoding = Some(Box::new(handler));
        self
    }

    /// Runs `handler` once, at the end of the document.
    pub fn on_end(mut self, handler: impl FnOnce(&mut DocumentEnd<'_>) + 'h) -> Settings<'h> {
        self.handlers.end = Some(Box::new(handler));
        self
    }

    /// The limits (`max_depth` bounds the open-element stack; the tokenizers get them all).
    pub fn with_limits(mut self, limits: Limits) -> Settings<'h> {
        self.handlers.limits = limits;
        self
    }
}

/// The most bytes `feed` hands the decoder at a time while the encoding is being sniffed (the
/// WHATWG prescan reads 1,024).
const SNIFF_STEP: usize = 1024;

#[cfg(feature = "html")]
mod html_feed;

/// The most text the tokenizer is fed at a time: a larger chunk goes in pieces (the output
/// does not depend on how the input is split).
const FEED_PIECE: usize = 64 * 1024;

/// The most bytes of a legacy encoding decoded at a time (see `Rewriter::feed_legacy`).
const LEGACY_PIECE: usize = 16 * 1024;

/// The dialect's tokenizer.
#[allow(clippy::large_enum_variant)]
enum Driver {
    #[cfg(feature = "html")]
    Html(Box<thicket_html::Tokenizer<'static>>),
    #[cfg(feature = "xml5")]
    Xml5(Box<thicket_xml5::Tokenizer<'static>>),
    #[cfg(feature = "microxml")]
    MicroXml(Box<crate::microxml::Driver>),
    #[cfg(feature = "leafxml")]
    LeafXml(Box<crate::leafxml::Driver>),
}

impl Driver {
    /// What the core does differently for the dialect: whether its tokenizer cuts start tags at
    /// limits (LeafXML's reader stops instead), whether text is held whole before it is handed
    /// out (LeafXML), and which names handlers may give.
    fn rules(&self) -> (bool, bool, crate::handlers::NameRule) {
        use crate::handlers::NameRule;
        match *self {
            #[cfg(feature = "html")]
            Driver::Html(_) => (true, false, NameRule::Html),
            #[cfg(feature = "xml5")]
            Driver::Xml5(_) => (true, false, NameRule::Xml),
            #[cfg(feature = "microxml")]
            Driver::MicroXml(_) => (true, false, NameRule::MicroXml),
            #[cfg(feature = "leafxml")]
            Driver::LeafXml(_) => (false, true, NameRule::Xml),
        }
    }
}

impl std::fmt::Debug for Driver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            #[cfg(feature = "html")]
            Driver::Html(_) => f.write_str("Html"),
            #[cfg(feature = "xml5")]
            Driver::Xml5(_) => f.write_str("Xml5"),
            #[cfg(feature = "microxml")]
            Driver::MicroXml(_) => f.write_str("MicroXml"),
            #[cfg(feature = "leafxml")]
            Driver::LeafXml(_) => f.write_str("LeafXml"),
        }
    }
}

/// A streaming rewriter: [`feed`](Self::feed) bytes (or [`feed_str`](Self::feed_str) text) in
/// chunks, then [`finish`](Self::finish); output goes to the sink as soon as it is certain.
pub struct Rewriter<'h, S: Sink> {
    driver: Driver,
    core: Core<'h>,
    sink: S,
    decoder: SniffingDecoder,
    bytes_in: usize,
    bom_done: bool,
    /// The bytes fed while the encoding is being sniffed (at most the sniffing head and one
    /// step), handed to the legacy front end when the encoding is not UTF-8.
    sniffed: Vec<u8>,
    /// Text came through `feed_str` first: the input is UTF-8 by the caller's word, no
    /// sniffing; bytes fed after it go through `after_text`.
    text_only: bool,
    /// Bytes fed after `feed_str` text (strict UTF-8, holding a character a feed cut), and the
    /// text offset where they start (for the span of `malformed-utf8`).
    after_text: Option<(StreamDecoder, usize)>,
    /// Bytes of text fed since `feed_str` came first.
    text_in: usize,
    /// [`Rewriter::finish_input`] ran: later input is ignored.
    input_finished: bool,
    /// The last bytes went through `pass_utf8`: the decoder holds nothing to finish.
    decoder_clean: bool,
    /// The diagnostics whose spans are source byte offsets already (legacy encodings).
    diagnostics_mapped: usize,
    /// `Settings::on_encoding`, until it ran.
    on_encoding: Option<crate::core::EncodingHandler<'h>>,
    error: Option<Error>,
    /// [`LEND_MIN`]; tests lower it to lend pieces of any size.
    #[cfg(feature = "html")]
    lend_min: usize,
}

impl<S: Sink> std::fmt::Debug for Rewriter<'_, S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rewriter")
            .field("driver", &self.driver)
            .field("bytes_in", &self.bytes_in)
            .field("error", &self.error)
            .finish_non_exhaustive()
    }
}

impl<'h> Rewriter<'h, NoOutput> {
    /// A rewriter with no output: handlers run (their edits are ignored), nothing is written.
    pub fn read_only(dialect: Dialect, settings: Settings<'h>) -> Rewriter<'h, NoOutput> {
        let mut r = Rewriter::new(dialect, settings, NoOutput);
        r.core.output = false;
        r
    }
}

impl<'h, S: Sink> Rewriter<'h, S> {
    /// A rewriter for `dialect` running `settings`, writing to `sink`.
    pub fn new(dialect: Dialect, mut settings: Settings<'h>, sink: S) -> Rewriter<'h, S> {
        let on_encoding = settings.handlers.encoding.take();
        // The rewriter reads none of the parsers' diagnostics (its own are in `diagnostics()`):
        // they keep none, or a long messy stream would grow a list nobody reads.
        let limits = settings.handlers.limits.with_max_diagnostics(0);
        // (MicroXML and LeafXML are UTF-8 documents: a BOM, else UTF-8.)
        #[cfg(any(feature = "html", feature = "xml5"))]
        let default_encoding = settings
            .handlers
            .modes
            .encoding
            .unwrap_or(encoding_rs::UTF_8);
        let (driver, decoder, html) = match dialect {
            #[cfg(feature = "html")]
            Dialect::Html => {
                let options = thicket_html::Options {
                    limits,
                    scripting: settings.handlers.modes.scripting,
                    lazy: Some(html_lazy(&settings.handlers)),
                    ..thicket_html::Options::document()
                };
                let mut tokenizer = thicket_html::Tokenizer::with_options(options);
                // Text nobody reads is not a token: the core writes the input between two
                // tokens through as it is (`Core::process`), which is what it does with such
                // a text token.
                tokenizer.set_skipped_text_tokens(false);
                // The core reads its source from the tokenizer's buffer: kept from the first
                // byte until the core moves the floor (`Rewriter::compact`).
                tokenizer.retain_from(Some(0));
                (
                    Driver::Html(Box::new(tokenizer)),
                    SniffingDecoder::whatwg(None, default_encoding).strict(),
                    true,
                )
            }
            #[cfg(feature = "xml5")]
            Dialect::Xml5 => {
                let options = thicket_xml5::Options {
                    limits,
                    lazy: Some(xml5_lazy(&settings.handlers)),
                    ..Default::default()
                };
                let mut tokenizer = thicket_xml5::Tokenizer::streaming(options);
                // Text nobody reads is not a token (as for HTML above): the core writes the
                // input between two tokens through.
                tokenizer.set_skipped_text_tokens(false);
                (
                    Driver::Xml5(Box::new(tokenizer)),
                    SniffingDecoder::new(thicket_input::Sniff::Xml, default_encoding).strict(),
                    false,
                )
            }
            #[cfg(feature = "microxml")]
            Dialect::MicroXml => {
                let options = thicket_microxml::Options {
                    limits,
                    // Comments, PIs and the DOCTYPE as units (for their handlers, and so that a
                    // text unit never spans one); costs nothing measurable (docs/rewrite.md).
                    markup_tokens: true,
                    ..Default::default()
                };
                (
                    Driver::MicroXml(Box::new(crate::microxml::Driver::new(options))),
                    SniffingDecoder::new(thicket_input::Sniff::Bom, encoding_rs::UTF_8).strict(),
                    false,
                )
            }
            #[cfg(feature = "leafxml")]
            Dialect::LeafXml => (
                Driver::LeafXml(Box::new(crate::leafxml::Driver::new(
                    limits,
                    settings.handlers.modes.leafxml,
                ))),
                SniffingDecoder::new(thicket_input::Sniff::Bom, encoding_rs::UTF_8).strict(),
                false,
            ),
        };
        let mut core = Core::new(html, true, settings.handlers);
        let (cuts_tags, text_held, name_rule) = driver.rules();
        if !cuts_tags {
            core.tag_limits = Limits::none();
        }
        core.text_held = text_held;
        core.name_rule = name_rule;
        Rewriter {
            driver,
            core,
            sink,
            decoder,
            bytes_in: 0,
            bom_done: false,
            sniffed: Vec::new(),
            text_only: false,
            after_text: None,
            text_in: 0,
            input_finished: false,
            decoder_clean: false,
            diagnostics_mapped: 0,
            on_encoding,
            error: None,
            #[cfg(feature = "html")]
            lend_min: html_feed::LEND_MIN,
        }
    }

    /// Feeds bytes. The encoding is sniffed as the dialect does (BOM; HTML's `<meta>` prescan;
    /// XML's declaration; else [`Settings::default_encoding`] or UTF-8). UTF-8 is decoded
    /// strictly (malformed UTF-8 fails with `malformed-utf8`); other ASCII-compatible encodings
    /// are rewritten bytes in, bytes out (docs/rewrite.md, "Encodings"); UTF-16 and ISO-2022-JP
    /// fail with `unsupported-encoding`. A UTF-8 BOM is written through unchanged. After an
    /// error, every call returns it again.
    pub fn feed(&mut self, mut bytes: &[u8]) -> Result<(), Error> {
        self.check()?;
        if self.input_finished {
            return Ok(());
        }
        if self.text_only {
            return self.feed_after_text(bytes);
        }
        if self.core.legacy.is_some() {
            return self.feed_legacy(bytes);
        }
        // A first chunk long enough to decide the encoding (with no BOM, which the decoder
        // takes off) is sniffed in place: UTF-8 then passes below whole, a legacy encoding
        // goes to its front end, and no head is decoded into a string of its own.
        if self.sniffed.is_empty() && self.decoder.sniff_ahead(bytes).is_some() {
            self.bom_done = true;
            if self.legacy_detected() {
                return self.start_legacy(bytes);
            }
        }
        // While the encoding is unknown, the decoder reads a sniffing-sized head (cut before a
        // character's first byte, so that the rest starts whole) and the rest may pass below.
        while self.decoder.detected().is_none() && bytes.len() > SNIFF_STEP {
            let mut cut = SNIFF_STEP;
            while cut > SNIFF_STEP - 3 && bytes[cut] & 0xC0 == 0x80 {
                cut -= 1;
            }
            // XML5: before the head's last `<`, so that the tag there reaches the tokenizer
            // whole (a tag cut by a feed goes through its states, not its direct path). The
            // XML sniffing decides on the first bytes; HTML's prescan reads 1,024, and a head
            // cut short would only delay it.
            if self.xml5()
                && let Some(lt) = bytes[1..cut].iter().rposition(|&b| b == b'<')
            {
                cut = lt + 1;
            }
            let (head, rest) = bytes.split_at(cut);
            self.decode_chunk(head)?;
            bytes = rest;
            if self.core.legacy.is_some() {
                return self.feed_legacy(bytes);
            }
        }
        // Once the input is known to be UTF-8, a chunk of whole characters is its own text.
        if let Some(text) = self.decoder.pass_utf8(bytes) {
            self.decoder_clean = true;
            self.bytes_in += bytes.len();
            return self.feed_text(text);
        }
        self.decode_chunk(bytes)
    }

    /// Whether the dialect is XML5.
    fn xml5(&self) -> bool {
        match self.driver {
            #[cfg(feature = "xml5")]
            Driver::Xml5(_) => true,
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }

    /// Feeds `bytes` through the decoder.
    fn decode_chunk(&mut self, bytes: &[u8]) -> Result<(), Error> {
        self.decoder_clean = false;
        let sniffing = self.decoder.detected().is_none();
        let mut text = String::new();
        let r = self.decoder.feed(bytes, &mut text);
        if sniffing {
            // The bytes are copied only while the sniffing waits for more of them.
            if self.decoder.detected().is_none() {
                self.sniffed.extend_from_slice(bytes);
            } else if self.legacy_detected() {
                let mut sniffed = std::mem::take(&mut self.sniffed);
                sniffed.extend_from_slice(bytes);
                return self.start_legacy(&sniffed);
            } else {
                self.sniffed = Vec::new();
            }
        }
        self.after_decode(r, bytes.len())?;
        self.feed_text(&text)
    }

    /// Whether the sniffed encoding is one other than UTF-8.
    fn legacy_detected(&self) -> bool {
        self.decoder
            .detected()
            .is_some_and(|d| d.encoding != encoding_rs::UTF_8)
    }

    /// The encoding is not UTF-8: the legacy front end takes over (encoding.rs), from the
    /// first byte, or the rewrite is refused (UTF-16, ISO-2022-JP, the replacement encoding).
    fn start_legacy(&mut self, sniffed: &[u8]) -> Result<(), Error> {
        let Some(d) = self.decoder.detected() else {
            return Ok(());
        };
        if !crate::encoding::supported(d.encoding) {
            let span = match d.declared_label_span {
                Some(span) => span,
                None => Span::new(0, d.bom_len),
            };
            return self.fail(Error::new(ErrorCode::UnsupportedEncoding, span));
        }
        self.bom_done = true;
        self.core.legacy = Some(Box::new(crate::encoding::Legacy::new(d.encoding)));
        self.feed_legacy(sniffed)
    }

    /// Feeds bytes in a legacy encoding, decoded [`LEGACY_PIECE`] bytes at a time into one
    /// buffer: what is held at once (the decoded text, the front end's copy of the source)
    /// stays as small as a piece, however large the chunk.
    fn feed_legacy(&mut self, bytes: &[u8]) -> Result<(), Error> {
        let mut text = String::new();
        for piece in bytes.chunks(LEGACY_PIECE) {
            // A piece of ASCII in a single-byte encoding is its own text: not decoded.
            if let Some(ascii) = self
                .core
                .legacy
                .as_deref_mut()
                .and_then(|l| l.feed_ascii(piece))
            {
                self.bytes_in += piece.len();
                self.feed_text(ascii)?;
                continue;
            }
            text.clear();
            if let Some(l) = self.core.legacy.as_deref_mut() {
                l.feed(piece, &mut text);
            }
            self.bytes_in += piece.len();
            self.feed_text(&text)?;
        }
        Ok(())
    }

    /// The encoding of the input: `None` until it is known: after the first `feed_str` (UTF-8),
    /// or once the sniffing decided (a byte order mark; XML: the first bytes; HTML: the
    /// `<meta>` prescan, which reads up to 1,024 bytes, so a shorter input's encoding is known
    /// at `finish_input`).
    pub fn encoding(&self) -> Option<&'static encoding_rs::Encoding> {
        if let Some(l) = self.core.legacy.as_deref() {
            return Some(l.encoding());
        }
        if self.text_only {
            return Some(encoding_rs::UTF_8);
        }
        self.decoder.detected().map(|d| d.encoding)
    }

    /// Feeds text. As the first input it is taken as UTF-8 text and nothing is sniffed. After
    /// bytes (`feed`), the text continues them: in a legacy encoding it is encoded in that
    /// encoding; otherwise its UTF-8 bytes are fed as bytes, and while the encoding is still
    /// being sniffed they take part in the sniffing (a `<meta charset>` in the text decides the
    /// encoding of the text too: feed one kind of input per document).
    /// Bytes fed after text that came first continue it as UTF-8 (checked strictly: malformed
    /// bytes are `malformed-utf8`, a character cut between two feeds is joined).
    pub fn feed_str(&mut self, text: &str) -> Result<(), Error> {
        self.check()?;
        if self.input_finished {
            return Ok(());
        }
        if let Some(l) = self.core.legacy.as_deref() {
            // After bytes in a legacy encoding: the text in that encoding.
            let mut bytes = Vec::new();
            crate::encoding::encode(l.encoding(), text, &mut bytes);
            return self.feed_legacy(&bytes);
        }
        if !self.text_only && self.bytes_in > 0 {
            // After bytes: the decoder may hold some (sniffing, or a cut character).
            return self.feed(text.as_bytes());
        }
        if self.after_text.is_some() {
            // After bytes that followed text: they may end inside a character.
            return self.feed_after_text(text.as_bytes());
        }
        if !self.bom_done {
            self.text_only = true;
        }
        self.bom_done = true;
        self.text_in += text.len();
        self.feed_text(text)
    }

    /// Bytes after `feed_str` text: UTF-8 (the caller said so), checked strictly, a character
    /// cut by a feed held until the next.
    fn feed_after_text(&mut self, bytes: &[u8]) -> Result<(), Error> {
        let base = self.text_in;
        let (d, start) = self.after_text.get_or_insert_with(|| {
            (
                StreamDecoder::without_bom_handling(encoding_rs::UTF_8),
                base,
            )
        });
        let start = *start;
        self.text_in += bytes.len();
        if let Some(text) = d.pass_utf8(bytes) {
            return self.feed_text(text);
        }
        let mut text = String::new();
        if let Err(e) = d.feed_strict(bytes, &mut text) {
            let at = start + e.offset;
            return self.fail(Error::new(ErrorCode::MalformedUtf8, Span::new(at, at + 1)));
        }
        self.feed_text(&text)
    }

    /// Marks the end of the input, runs the end handlers and returns the sink
    /// ([`finish_input`](Self::finish_input), then the sink).
    pub fn finish(mut self) -> Result<S, Error> {
        self.finish_input()?;
        Ok(self.sink)
    }

    /// Marks the end of the input and does all that [`finish`](Self::finish) does but return
    /// the sink, keeping the rewriter: [`diagnostics`](Self::diagnostics) then holds every
    /// diagnostic (in HTML an input shorter than the 1,024 bytes the `<meta>` prescan reads is
    /// held until the end, so its diagnostics come only now). Input fed after it is ignored; a
    /// second call does nothing; `finish` after it returns the sink (or the error).
    pub fn finish_input(&mut self) -> Result<(), Error> {
        self.check()?;
        if self.input_finished {
            return Ok(());
        }
        self.input_finished = true;
        if let Some((mut d, start)) = self.after_text.take() {
            let mut text = String::new();
            if let Err(e) = d.finish_strict(&mut text) {
                let at = start + e.offset;
                return self.fail(Error::new(ErrorCode::MalformedUtf8, Span::new(at, at + 1)));
            }
            self.feed_text(&text)?;
        }
        if self.core.legacy.is_none() && !self.text_only && !self.decoder_clean {
            let sniffing = self.decoder.detected().is_none();
            let mut text = String::new();
            let r = self.decoder.finish(&mut text);
            if sniffing && self.legacy_detected() {
                let sniffed = std::mem::take(&mut self.sniffed);
                self.start_legacy(&sniffed)?;
            } else {
                self.after_decode(r, 0)?;
                self.push_source(&text);
            }
        }
        if let Some(l) = self.core.legacy.as_deref_mut() {
            let mut text = String::new();
            l.finish(&mut text);
            self.push_source(&text);
        }
        self.announce_encoding();
        match &mut self.driver {
            #[cfg(feature = "html")]
            Driver::Html(t) => t.finish(),
            #[cfg(feature = "xml5")]
            Driver::Xml5(t) => t.finish(),
            #[cfg(feature = "microxml")]
            Driver::MicroXml(d) => d.finish(),
            #[cfg(feature = "leafxml")]
            Driver::LeafXml(d) => d.finish(),
        }
        self.pump();
        self.map_diagnostics();
        self.flush()?;
        if let Some(e) = self.core.refused().cloned().or_else(|| self.driver_error()) {
            self.fail(e)?;
        }
        #[cfg(feature = "leafxml")]
        if let Driver::LeafXml(d) = &mut self.driver
            && let Some(held) = d.take_held()
            && let Err(e) = self.sink.write_bytes(&held)
        {
            let at = self.core.done;
            let mut err = Error::new(ErrorCode::WriteFailed, Span::new(at, at));
            err.source = Some(std::sync::Arc::new(e));
            return self.fail(err);
        }
        Ok(())
    }

    /// Bytes of input text the rewriter holds between calls: an unfinished token, and the
    /// source of open captures and of a whole text node being held (docs/rewrite.md,
    /// "Limits"), and the bytes held while the encoding is being sniffed (HTML: up to 1024).
    /// In HTML this is the tokenizer's buffer from the first byte still needed (the rewriter
    /// reads its source there, no copy of its own); in the other dialects the tokenizer holds
    /// its own copy of an unfinished token besides.
    pub fn buffered(&self) -> usize {
        let held = match &self.driver {
            // The core reads the tokenizer's buffer from its `base` on (no copy of its own).
            #[cfg(feature = "html")]
            Driver::Html(t) => t.input().end().saturating_sub(self.core.base),
            #[allow(unreachable_patterns)]
            _ => self.core.src.len(),
        };
        held + self.sniffed.len()
    }

    /// The rewriter's own diagnostics (`depth-limit`, `namespace-limit`, and in HTML strict mode
    /// the ambiguities: `Settings::strict`), in input order.
    pub fn diagnostics(&self) -> &[Diagnostic<ErrorCode>] {
        &self.core.diagnostics
    }

    fn check(&self) -> Result<(), Error> {
        match &self.error {
            Some(e) => Err(e.clone()),
            None => Ok(()),
        }
    }

    fn fail(&mut self, mut e: Error) -> Result<(), Error> {
        if let Some(l) = self.core.legacy.as_deref_mut() {
            // Decoded offsets to source bytes (nothing is written after an error).
            e.span = Span::new(l.map(e.span.start), l.map(e.span.end));
        }
        self.error = Some(e.clone());
        Err(e)
    }

    fn after_decode(
        &mut self,
        r: Result<(), thicket_input::DecodeError>,
        len: usize,
    ) -> Result<(), Error> {
        if let Some(d) = self.decoder.detected()
            && !self.bom_done
        {
            self.bom_done = true;
            if d.bom_len > 0 && self.core.output {
                self.core.out.push('\u{feff}');
            }
        }
        if let Err(e) = r {
            // The decoder counts from the first byte of the stream.
            let at = e.offset;
            return self.fail(Error::new(ErrorCode::MalformedUtf8, Span::new(at, at + 1)));
        }
        self.bytes_in += len;
        Ok(())
    }

    /// In a legacy encoding, the new diagnostics' spans as source byte offsets.
    fn map_diagnostics(&mut self) {
        let core = &mut self.core;
        if let Some(l) = core.legacy.as_deref_mut() {
            for d in core.diagnostics.iter_mut().skip(self.diagnostics_mapped) {
                d.span = l.diagnostic_span(d.span);
            }
            self.diagnostics_mapped = core.diagnostics.len();
        }
    }

    /// Hands text to the tokenizer and the core: the core keeps its own copy of the source
    /// except in HTML, where it reads the tokenizer's buffer.
    fn push_source(&mut self, text: &str) {
        match &mut self.driver {
            #[cfg(feature = "html")]
            Driver::Html(t) => t.feed(text),
            #[allow(unreachable_patterns)]
            _ => {
                self.core.src.push_str(text);
                self.push_driver(text);
            }
        }
    }

    /// Lets go of the source no longer needed (the core's own, or, in HTML, the tokenizer's
    /// buffer below the core's floor).
    fn compact(&mut self) {
        match &mut self.driver {
            #[cfg(feature = "html")]
            Driver::Html(t) => {
                let keep = self.core.compact_external(t.input().end());
                t.retain_from(Some(keep));
            }
            #[allow(unreachable_patterns)]
            _ => self.core.compact(),
        }
    }

    fn push_driver(&mut self, text: &str) {
        match &mut self.driver {
            #[cfg(feature = "html")]
            Driver::Html(t) => t.feed(text),
            #[cfg(feature = "xml5")]
            Driver::Xml5(t) => t.feed(text),
            #[cfg(feature = "microxml")]
            Driver::MicroXml(d) => d.feed(text),
            #[cfg(feature = "leafxml")]
            Driver::LeafXml(d) => {
                let bom_taken = self.decoder.detected().is_some_and(|d| d.bom_len > 0);
                d.feed(text, bom_taken)
            }
        }
    }

    /// Runs `Settings::on_encoding` once the encoding is known (before the first token).
    fn announce_encoding(&mut self) {
        if self.on_encoding.is_some()
            && let Some(encoding) = self.encoding()
            && let Some(handler) = self.on_encoding.take()
        {
            handler(encoding);
        }
    }

    fn feed_text(&mut self, text: &str) -> Result<(), Error> {
        if text.is_empty() {
            return self.flush();
        }
        self.announce_encoding();
        // A large chunk goes in pieces: the core and the tokenizer each hold a copy of what
        // they have not handled, so they hold a piece (and an unfinished token), reused and in
        // cache, instead of growing two buffers as large as the chunk.
        let mut rest = text;
        while rest.len() > FEED_PIECE {
            let mut cut = FEED_PIECE;
            while !rest.is_char_boundary(cut) {
                cut -= 1;
            }
            let (piece, tail) = rest.split_at(cut);
            self.feed_piece(piece)?;
            rest = tail;
        }
        self.feed_piece(rest)
    }

    /// Tokenizes and handles one piece of text ([`FEED_PIECE`] bytes at most, unless it is
    /// the sniffing head).
    fn feed_piece(&mut self, text: &str) -> Result<(), Error> {
        // XML5 holding no source from before: the core reads the piece where it is, and keeps
        // a copy of only what it still needs afterwards (usually nothing, or an unfinished
        // token), instead of a copy of every piece.
        #[cfg(feature = "xml5")]
        if self.core.src.is_empty() && matches!(self.driver, Driver::Xml5(_)) {
            return self.feed_piece_borrowed(text);
        }
        #[cfg(feature = "html")]
        if text.len() >= self.lend_min && matches!(self.driver, Driver::Html(_)) {
            return self.feed_piece_html(text);
        }
        self.feed_piece_copied(text)
    }

    /// [`feed_piece`](Self::feed_piece) by copying: the tokenizer (or the core) keeps a copy.
    fn feed_piece_copied(&mut self, text: &str) -> Result<(), Error> {
        self.push_source(text);
        self.pump();
        self.map_diagnostics();
        let r = self.flush();
        // A refusal's span is mapped (in a legacy encoding) before compaction lets go of it.
        if r.is_ok()
            && let Some(e) = self.core.refused().cloned().or_else(|| self.driver_error())
        {
            return self.fail(e);
        }
        self.compact();
        r
    }

    /// [`feed_piece`](Self::feed_piece) for XML5 when the core holds no source: the core reads
    /// `text` itself while the piece is tokenized, handled and written, then keeps what it
    /// still needs of it (`Core::compact_borrowed`), as the copying path would have kept.
    #[cfg(feature = "xml5")]
    fn feed_piece_borrowed(&mut self, text: &str) -> Result<(), Error> {
        self.push_driver(text);
        #[allow(irrefutable_let_patterns)]
        if let Driver::Xml5(t) = &mut self.driver {
            let src = crate::core::Src::new(text, self.core.base);
            pump_xml5(&mut self.core, t, src);
        }
        self.map_diagnostics();
        let sink = &mut self.sink;
        let src = crate::core::Src::new(text, self.core.base);
        let r = match self.core.drain_output_in(src, |b| sink.write_bytes(b)) {
            Ok(()) => Ok(()),
            Err(e) => self.write_failed(e),
        };
        if r.is_ok()
            && let Some(e) = self.core.refused().cloned()
        {
            // As the copying path leaves it: the whole piece held.
            self.core.src.push_str(text);
            return self.fail(e);
        }
        self.core.compact_borrowed(text);
        r
    }

    /// The sink failed: the rewrite stops with `write-failed`.
    fn write_failed(&mut self, e: io::Error) -> Result<(), Error> {
        let at = self.core.done;
        let mut err = Error::new(ErrorCode::WriteFailed, Span::new(at, at));
        err.source = Some(std::sync::Arc::new(e));
        self.fail(err)
    }

    /// The dialect's error (LeafXML's first), once it happened.
    fn driver_error(&self) -> Option<Error> {
        match &self.driver {
            #[cfg(feature = "leafxml")]
            Driver::LeafXml(d) => d.failed(),
            #[allow(unreachable_patterns)]
            _ => None,
        }
    }

    fn flush(&mut self) -> Result<(), Error> {
        #[cfg(feature = "leafxml")]
        if let Driver::LeafXml(d) = &mut self.driver
            && d.holds()
        {
            return match d.hold(&mut self.core) {
                Ok(()) => Ok(()),
                Err(e) => self.fail(e),
            };
        }
        let sink = &mut self.sink;
        let r = match &self.driver {
            #[cfg(feature = "html")]
            Driver::Html(t) => {
                let input = t.input();
                let src = crate::core::Src::new(input.text(), input.base());
                self.core.drain_output_in(src, |b| sink.write_bytes(b))
            }
            #[allow(unreachable_patterns)]
            _ => self.core.drain_output(|b| sink.write_bytes(b)),
        };
        match r {
            Ok(()) => Ok(()),
            Err(e) => self.write_failed(e),
        }
    }

    /// Hands every token the tokenizer has to the core.
    fn pump(&mut self) {
        let core = &mut self.core;
        match &mut self.driver {
            #[cfg(feature = "html")]
            Driver::Html(t) => html_feed::pump_html(core, t),
            #[cfg(feature = "xml5")]
            Driver::Xml5(t) => {
                // The core's own source is moved out while the tokens are handled (no copy,
                // and once a pump rather than once a token: nothing reads or changes it there).
                let own = std::mem::take(&mut core.src);
                pump_xml5(core, t, crate::core::Src::new(&own, core.base));
                core.src = own;
            }
            #[cfg(feature = "microxml")]
            Driver::MicroXml(d) => d.pump(core),
            #[cfg(feature = "leafxml")]
            Driver::LeafXml(d) => d.pump(core),
        }
    }
}

/// Hands every token the XML5 tokenizer has to the core, which reads its source from `src`.
/// Lent: names, values and text borrow the tokenizer's buffer (no copy each), and each start
/// tag's attribute list goes back for the next one. Plain tags come as ranges of the buffer: no
/// token, no attribute list built.
#[cfg(feature = "xml5")]
fn pump_xml5(
    core: &mut Core<'_>,
    t: &mut thicket_xml5::Tokenizer<'static>,
    src: crate::core::Src<'_>,
) {
    while let Some(item) = t.next_lent_item() {
        match item {
            thicket_xml5::LentItem::Tag(tag) => xml5_plain_tag(core, src, tag),
            thicket_xml5::LentItem::Token(token) => {
                if let Some(spare) = xml5_event(core, src, token) {
                    t.recycle(spare);
                }
            }
        }
        core.tokenizer_limits(t.limits_reached(), || t.take_limits_reached());
        // Text is built only while a text handler or capture can see it.
        if core.switch_text {
            core.switch_text = false;
            t.set_lazy_text(core.want_text);
        }
    }
}

/// Rewrites a whole string.
pub fn rewrite_str(input: &str, dialect: Dialect, settings: Settings<'_>) -> Result<String, Error> {
    let mut out = Vec::with_capacity(input.len());
    let mut r = Rewriter::new(dialect, settings, |b: &[u8]| out.extend_from_slice(b));
    r.feed_str(input)?;
    let _sink = r.finish()?;
    // Handlers write strings and the input is a string, so the output is UTF-8.
    Ok(String::from_utf8(out).unwrap_or_default())
}

/// The start-tag spans of the elements `selector` matches in `input`, in document order
/// (read-only selection).
pub fn select(input: &str, dialect: Dialect, selector: &str) -> Result<Vec<Span>, Error> {
    let mut spans = Vec::new();
    {
        let settings = Settings::new().on_element(selector, |e| spans.push(e.span()))?;
        let mut r = Rewriter::read_only(dialect, settings);
        r.feed_str(input)?;
        r.finish()?;
    }
    Ok(spans)
}

#[cfg(all(test, feature = "html", feature = "xml5"))]
mod tests {
    use super::*;

    /// HTML reads its source from the tokenizer's buffer, kept from the core's floor on: with
    /// nothing held (no pending output after a flush, no capture), the buffer lets go of what
    /// was written, so a long stream holds a bounded buffer; an open capture keeps its source
    /// there until it closes, and then the buffer shrinks again.
    #[test]
    fn the_html_source_buffer_stays_bounded() {
        let captured = std::cell::Cell::new(0);
        let settings = Settings::new()
            .on_element("a[href]", |e| e.set_attribute("rel", "nofollow"))
            .unwrap()
            .on_element("div", |d| {
                d.capture(crate::Capture::Outer, |r| {
                    captured.set(r.map_or(0, str::len))
                })
            })
            .unwrap();
        let mut out = 0;
        let mut r = Rewriter::new(Dialect::Html, settings, |b: &[u8]| out += b.len());
        let piece = "<p>text <a href=x>link</a> more</p>";
        let physical = |r: &Rewriter<'_, _>| match &r.driver {
            Driver::Html(t) => t.input().buffered(),
            #[allow(unreachable_patterns)]
            _ => unreachable!(),
        };
        let mut most = 0;
        for _ in 0..5000 {
            r.feed_str(piece).unwrap();
            most = most.max(physical(&r));
        }
        // (The cursor drops a dead prefix once it is 4 KiB and half the buffer.)
        assert!(most <= 2 * 4096 + piece.len(), "{most} bytes held");
        r.feed_str("<div>").unwrap();
        for _ in 0..500 {
            r.feed_str(piece).unwrap();
        }
        assert!(
            physical(&r) >= 500 * piece.len(),
            "the capture's source is kept"
        );
        r.feed_str("</div>").unwrap();
        for _ in 0..500 {
            r.feed_str(piece).unwrap();
        }
        assert!(physical(&r) <= 2 * 4096 + piece.len(), "{}", physical(&r));
        let _ = r.finish().unwrap();
        assert_eq!(captured.get(), 500 * piece.len() + "<div></div>".len());
        assert_eq!(out, 6000 * (piece.len() + " rel=\"nofollow\"".len()) + 11);
    }

    /// The parsers keep none of their diagnostics (the rewriter reads none): a long messy
    /// stream does not grow a list, whatever the caller's limits; the rewriter's own
    /// diagnostics are kept as `Limits::max_diagnostics` says.
    #[test]
    fn the_parsers_keep_no_diagnostics() {
        for dialect in [Dialect::Html, Dialect::Xml5] {
            let settings = Settings::new().with_limits(Limits::none().with_max_depth(1));
            let mut r = Rewriter::read_only(dialect, settings);
            r.feed_str("<a><b>").unwrap();
            for _ in 0..100 {
                r.feed_str(&"<".repeat(1000)).unwrap();
            }
            r.finish_input().unwrap();
            let (kept, omitted) = match &r.driver {
                Driver::Html(t) => (t.diagnostics().len(), t.omitted_diagnostics()),
                Driver::Xml5(t) => (t.diagnostics().len(), t.omitted_diagnostics()),
                #[allow(unreachable_patterns)]
                _ => unreachable!(),
            };
            assert_eq!(kept, 0, "{dialect:?}");
            assert!(omitted >= 100_000, "{dialect:?}: counted, not stored");
            let codes: Vec<&str> = r.diagnostics().iter().map(|d| d.code.as_str()).collect();
            assert_eq!(codes, ["depth-limit"], "{dialect:?}");
        }
    }
}
