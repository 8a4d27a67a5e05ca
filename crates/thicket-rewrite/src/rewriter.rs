//! The public rewriter: settings, sinks, the dialect drivers and the byte front end.

use std::io;

use thicket_input::front::SniffingDecoder;
use thicket_input::{Diagnostic, Limits, Span};

use crate::core::{Core, Event, Handlers, reuse_attrs};
use crate::handlers::{DocumentEnd, Element, Unit, UnitKind};
use crate::selector::{Attr, SelectorList};
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
    handlers: Handlers<'h>,
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
            .field("limits", &h.limits)
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
                limits: Limits::none(),
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
        let list = SelectorList::parse(selector)?;
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

/// The dialect's tokenizer.
#[allow(clippy::large_enum_variant)]
enum Driver {
    #[cfg(feature = "html")]
    Html(Box<thicket_html::Tokenizer>),
    #[cfg(feature = "xml5")]
    Xml5(Box<thicket_xml5::Tokenizer<'static>>),
}

impl std::fmt::Debug for Driver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            #[cfg(feature = "html")]
            Driver::Html(_) => f.write_str("Html"),
            #[cfg(feature = "xml5")]
            Driver::Xml5(_) => f.write_str("Xml5"),
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
    error: Option<Error>,
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
    pub fn new(dialect: Dialect, settings: Settings<'h>, sink: S) -> Rewriter<'h, S> {
        let limits = settings.handlers.limits;
        let (driver, decoder, html) = match dialect {
            #[cfg(feature = "html")]
            Dialect::Html => {
                let options = thicket_html::Options {
                    limits,
                    ..thicket_html::Options::document()
                };
                (
                    Driver::Html(Box::new(thicket_html::Tokenizer::with_options(options))),
                    SniffingDecoder::whatwg(None, encoding_rs::UTF_8).strict(),
                    true,
                )
            }
            #[cfg(feature = "xml5")]
            Dialect::Xml5 => {
                let options = thicket_xml5::Options {
                    limits,
                    ..Default::default()
                };
                (
                    Driver::Xml5(Box::new(thicket_xml5::Tokenizer::streaming(options))),
                    SniffingDecoder::new(thicket_input::Sniff::Xml, encoding_rs::UTF_8).strict(),
                    false,
                )
            }
        };
        Rewriter {
            driver,
            core: Core::new(html, true, settings.handlers),
            sink,
            decoder,
            bytes_in: 0,
            bom_done: false,
            error: None,
        }
    }

    /// Feeds bytes. The encoding is sniffed as the dialect does (BOM; HTML's `<meta>` prescan;
    /// XML's declaration); anything but UTF-8 fails with `unsupported-encoding`, malformed
    /// UTF-8 with `malformed-utf8`. A UTF-8 BOM is written through unchanged. After an error,
    /// every call returns it again.
    pub fn feed(&mut self, bytes: &[u8]) -> Result<(), Error> {
        self.check()?;
        let mut text = String::new();
        let r = self.decoder.feed(bytes, &mut text);
        self.after_decode(r, bytes.len())?;
        self.feed_text(&text)
    }

    /// Feeds text (no sniffing: it is UTF-8 already).
    pub fn feed_str(&mut self, text: &str) -> Result<(), Error> {
        self.check()?;
        self.bom_done = true;
        self.feed_text(text)
    }

    /// Marks the end of the input, runs the end handlers and returns the sink.
    pub fn finish(mut self) -> Result<S, Error> {
        self.check()?;
        if !self.bom_done {
            let mut text = String::new();
            let r = self.decoder.finish(&mut text);
            self.after_decode(r, 0)?;
            self.core.src.push_str(&text);
            self.push_driver(&text);
        }
        match &mut self.driver {
            #[cfg(feature = "html")]
            Driver::Html(t) => t.finish(),
            #[cfg(feature = "xml5")]
            Driver::Xml5(t) => t.finish(),
        }
        self.pump();
        self.flush()?;
        Ok(self.sink)
    }

    /// The rewriter's own diagnostics (`depth-limit`), in input order.
    pub fn diagnostics(&self) -> &[Diagnostic<ErrorCode>] {
        &self.core.diagnostics
    }

    fn check(&self) -> Result<(), Error> {
        match &self.error {
            Some(e) => Err(e.clone()),
            None => Ok(()),
        }
    }

    fn fail(&mut self, e: Error) -> Result<(), Error> {
        self.error = Some(e.clone());
        Err(e)
    }

    fn after_decode(
        &mut self,
        r: Result<(), thicket_input::DecodeError>,
        len: usize,
    ) -> Result<(), Error> {
        if let Some(d) = self.decoder.detected() {
            if d.encoding != encoding_rs::UTF_8 {
                let span = d.declared_label_span.unwrap_or(Span::new(0, 0));
                return self.fail(Error::new(ErrorCode::UnsupportedEncoding, span));
            }
            if !self.bom_done {
                self.bom_done = true;
                if d.bom_len > 0 && self.core.output {
                    self.core.out.push('\u{feff}');
                }
            }
        }
        if let Err(e) = r {
            let at = self.bytes_in + e.offset;
            return self.fail(Error::new(ErrorCode::MalformedUtf8, Span::new(at, at + 1)));
        }
        self.bytes_in += len;
        Ok(())
    }

    fn push_driver(&mut self, text: &str) {
        match &mut self.driver {
            #[cfg(feature = "html")]
            Driver::Html(t) => t.feed(text),
            #[cfg(feature = "xml5")]
            Driver::Xml5(t) => t.feed(text),
        }
    }

    fn feed_text(&mut self, text: &str) -> Result<(), Error> {
        if text.is_empty() {
            return self.flush();
        }
        self.core.src.push_str(text);
        self.push_driver(text);
        self.pump();
        let r = self.flush();
        self.core.compact();
        r
    }

    fn flush(&mut self) -> Result<(), Error> {
        let sink = &mut self.sink;
        let r = self.core.drain_output(|b| sink.write_bytes(b));
        if let Err(e) = r {
            let at = self.core.done;
            let mut err = Error::new(ErrorCode::WriteFailed, Span::new(at, at));
            err.source = Some(std::sync::Arc::new(e));
            return self.fail(err);
        }
        Ok(())
    }

    /// Hands every token the tokenizer has to the core.
    fn pump(&mut self) {
        let core = &mut self.core;
        match &mut self.driver {
            #[cfg(feature = "html")]
            Driver::Html(t) => {
                while let Some(token) = t.next_token() {
                    html_event(core, token);
                }
            }
            #[cfg(feature = "xml5")]
            Driver::Xml5(t) => {
                // Lent: names, values and text borrow the tokenizer's buffer (no copy each),
                // and each start tag's attribute list goes back for the next one.
                while let Some(token) = t.next_lent_token() {
                    if let Some(spare) = xml5_event(core, token) {
                        t.recycle(spare);
                    }
                }
            }
        }
    }
}

#[cfg(feature = "html")]
fn html_event(core: &mut Core<'_>, token: thicket_html::Token<'_>) {
    use thicket_html::Token;
    match token {
        Token::StartTag(tag) => {
            let mut attributes = reuse_attrs(std::mem::take(&mut core.attrs));
            attributes.extend(tag.attributes.iter().map(|a| Attr {
                name: &a.name,
                value: &a.value,
                span: a.span,
            }));
            core.process(Event::Start {
                name: &tag.name,
                local: &tag.name,
                attributes: &attributes,
                self_closing: tag.self_closing,
                span: tag.span,
            });
            core.attrs = reuse_attrs(attributes);
        }
        Token::EndTag(tag) => core.process(Event::End {
            name: Some(&tag.name),
            span: tag.span,
        }),
        Token::Text { text, span } => core.process(Event::Unit {
            kind: UnitKind::Text(&text),
            span,
        }),
        Token::Comment { data, span } => core.process(Event::Unit {
            kind: UnitKind::Comment(&data),
            span,
        }),
        Token::ProcessingInstruction { target, data, span } => core.process(Event::Unit {
            kind: UnitKind::ProcessingInstruction(&target, &data),
            span,
        }),
        Token::Doctype(d) => core.process(Event::Unit {
            kind: UnitKind::Doctype(d.name.as_deref()),
            span: d.span,
        }),
        Token::Discarded { span } => core.process(Event::Other { span }),
        Token::Eof { span } => core.process(Event::Eof { span }),
    }
}

#[cfg(feature = "xml5")]
fn xml5_event(
    core: &mut Core<'_>,
    token: thicket_xml5::Token<'_>,
) -> Option<thicket_xml5::SpareAttributes> {
    use thicket_xml5::TokenKind;
    let span = token.span;
    let self_closing = matches!(token.kind, TokenKind::EmptyTag { .. });
    match token.kind {
        TokenKind::StartTag { name, attributes } | TokenKind::EmptyTag { name, attributes } => {
            let mut attrs = reuse_attrs(std::mem::take(&mut core.attrs));
            attrs.extend(attributes.iter().map(|a| Attr {
                name: &a.name,
                value: &a.value,
                span: a.span,
            }));
            let local = name.rsplit_once(':').map_or(&*name, |(_, l)| l);
            core.process(Event::Start {
                name: &name,
                local,
                attributes: &attrs,
                self_closing,
                span,
            });
            core.attrs = reuse_attrs(attrs);
            return Some(attributes.into());
        }
        TokenKind::EndTag { name } => core.process(Event::End {
            name: Some(&name),
            span,
        }),
        TokenKind::ShortEndTag => core.process(Event::End { name: None, span }),
        TokenKind::Text(text) => core.process(Event::Unit {
            kind: UnitKind::Text(&text),
            span,
        }),
        TokenKind::Comment(data) => core.process(Event::Unit {
            kind: UnitKind::Comment(&data),
            span,
        }),
        TokenKind::Pi { target, data } => core.process(Event::Unit {
            kind: UnitKind::ProcessingInstruction(&target, &data),
            span,
        }),
        TokenKind::Doctype { name, .. } => core.process(Event::Unit {
            kind: UnitKind::Doctype(name.as_deref()),
            span,
        }),
        TokenKind::XmlDeclaration { .. } | TokenKind::Discarded => {
            core.process(Event::Other { span })
        }
        TokenKind::Eof => core.process(Event::Eof { span }),
    }
    None
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
