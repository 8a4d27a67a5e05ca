//! The LeafXML driver: `thicket_leafxml`'s push reader, its events translated into the
//! rewriter's, and what happens to the output at its first error (docs/rewrite.md, "MicroXML
//! and LeafXML").
//!
//! The reader's events carry spans that, with the input each skipped, tile the decoded text:
//! the start tag, the content assembly, the end tag (empty for the end of an empty-element
//! tag), and (`Reader::with_markup_events`, always on here) each comment, instruction and the
//! DOCTYPE. What an event skipped (whitespace outside the root, a comment inside stray content
//! that is about to be an error) is written through as the source between two events.

use std::sync::Arc;

use thicket_input::Span;
use thicket_leafxml::{EventKind, Push, Reader};

use crate::core::{Core, Event, reuse_attrs};
use crate::handlers::UnitKind;
use crate::rewriter::Settings;
use crate::selector::Attr;
use crate::{Error, ErrorCode};

/// What becomes of the output written before a LeafXML error ([`Settings::output_on_error`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorOutput {
    /// The output streams to the sink as it is certain; at an error, the output of every event
    /// before it has been written (the default).
    #[default]
    Flush,
    /// The output is held until [`Rewriter::finish`](crate::Rewriter::finish) succeeds: after
    /// an error nothing of the document has been written. Held output is bounded by
    /// [`Settings::max_held_output`] (`held-output-limit` past it).
    Discard,
}

/// LeafXML's settings.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct LeafSettings {
    pub(crate) on_error: ErrorOutput,
    pub(crate) max_held: Option<usize>,
}

impl<'h> Settings<'h> {
    /// LeafXML only: what becomes of the output when the input turns out not to be LeafXML
    /// (the rewrite stops at the reader's first error, `not-well-formed`): written so far
    /// ([`ErrorOutput::Flush`], the default) or nothing at all ([`ErrorOutput::Discard`], which
    /// holds the whole output until `finish`). The other dialects recover from every input and
    /// stream their output.
    ///
    /// ```
    /// use thicket_rewrite::{Dialect, ErrorOutput, Rewriter, Settings};
    ///
    /// for (mode, written) in [(ErrorOutput::Flush, &b"<r><a>x</a>"[..]), (ErrorOutput::Discard, b"")] {
    ///     let mut out = Vec::new();
    ///     let settings = Settings::new().output_on_error(mode);
    ///     let mut r = Rewriter::new(Dialect::LeafXml, settings, |b: &[u8]| out.extend_from_slice(b));
    ///     let e = r.feed(b"<r><a>x</a></b>").unwrap_err();
    ///     assert_eq!((e.code.as_str(), e.span.start, e.span.end), ("not-well-formed", 11, 15));
    ///     assert_eq!(e.leafxml_error().unwrap().code.as_str(), "mismatched-end-tag");
    ///     drop(r);
    ///     assert_eq!(out, written);
    /// }
    /// ```
    pub fn output_on_error(mut self, output: ErrorOutput) -> Settings<'h> {
        self.handlers.modes.leafxml.on_error = output;
        self
    }

    /// The most bytes of output [`ErrorOutput::Discard`] holds (default: no limit); past it,
    /// the rewrite fails with `held-output-limit` and writes nothing.
    pub fn max_held_output(mut self, bytes: usize) -> Settings<'h> {
        self.handlers.modes.leafxml.max_held = Some(bytes);
        self
    }
}

impl Error {
    /// For an error of the LeafXML reader (`not-well-formed`, or a limit's code): the reader's
    /// error, with its own code, line, column and span (the same as `source()`).
    pub fn leafxml_error(&self) -> Option<&thicket_leafxml::Error> {
        self.source.as_deref()?.downcast_ref()
    }
}

/// The rewrite's code for a reader's error: a limit keeps its name (the same code in every
/// dialect), anything else is `not-well-formed`.
fn code(code: thicket_leafxml::ErrorCode) -> ErrorCode {
    use thicket_leafxml::ErrorCode as Leaf;
    match code {
        Leaf::DepthLimit => ErrorCode::DepthLimit,
        Leaf::AttributeLimit => ErrorCode::AttributeLimit,
        Leaf::NameLengthLimit => ErrorCode::NameLengthLimit,
        Leaf::ValueLengthLimit => ErrorCode::ValueLengthLimit,
        Leaf::NamespaceLimit => ErrorCode::NamespaceLimit,
        Leaf::TokenLengthLimit => ErrorCode::TokenLengthLimit,
        _ => ErrorCode::NotWellFormed,
    }
}

/// The LeafXML reader and what the rewrite keeps beside it.
pub(crate) struct Driver {
    reader: Reader<'static, Push>,
    /// The reader's offsets are into the text after a byte order mark; the core's count it
    /// when the caller's text starts with one (`feed_str`).
    shift: usize,
    started: bool,
    finished: bool,
    /// The first error, once it happened.
    error: Option<Error>,
    /// The next `End` is the end of an empty-element tag (the tag did not open an element).
    empty: bool,
    /// The qualified name of the start tag being handed to the core, as written.
    name: String,
    /// The output held in [`ErrorOutput::Discard`] mode.
    held: Option<Vec<u8>>,
    max_held: Option<usize>,
}

impl Driver {
    pub(crate) fn new(limits: thicket_input::Limits, settings: LeafSettings) -> Driver {
        Driver {
            // Comments, instructions and the DOCTYPE as units (for their handlers, and so that
            // a text unit never spans one); costs nothing measurable (docs/rewrite.md).
            reader: Reader::push().with_limits(limits).with_markup_events(true),
            shift: 0,
            started: false,
            finished: false,
            error: None,
            empty: false,
            name: String::new(),
            held: (settings.on_error == ErrorOutput::Discard).then(Vec::new),
            max_held: settings.max_held,
        }
    }

    /// Hands the reader the next text (as the UTF-8 bytes it is). `bom_taken`: the byte front
    /// end took a byte order mark off the text already, so a U+FEFF at its start is content; the
    /// reader is handed the mark it took (and counts from after it, as the core does). Text
    /// given as text (`feed_str`) may start with the mark itself, which the reader takes off.
    pub(crate) fn feed(&mut self, text: &str, bom_taken: bool) {
        if !self.started && !text.is_empty() {
            self.started = true;
            if bom_taken {
                self.reader.feed("\u{feff}".as_bytes());
            } else if text.starts_with('\u{feff}') {
                self.shift = '\u{feff}'.len_utf8();
            }
        }
        self.reader.feed(text.as_bytes());
    }

    /// Ends the input.
    pub(crate) fn finish(&mut self) {
        self.reader.finish();
        self.finished = true;
    }

    /// The first error, once it happened.
    pub(crate) fn failed(&self) -> Option<Error> {
        self.error.clone()
    }

    /// Hands every event the reader has to the core; at the end, the input after the root
    /// element and `Eof`. At an error, the core stops (nothing is handled or written after it).
    pub(crate) fn pump(&mut self, core: &mut Core<'_>) {
        if self.error.is_some() {
            return;
        }
        let shift = self.shift;
        let at = |s: Span| Span::new(s.start + shift, s.end + shift);
        loop {
            let event = match self.reader.next_event() {
                Ok(Some(event)) => event,
                Ok(None) => break,
                Err(e) => {
                    let mut error = Error::new(code(e.code), at(e.span));
                    error.source = Some(Arc::new(e));
                    self.error = Some(error);
                    core.halt();
                    return;
                }
            };
            let span = at(event.span);
            // What the reader skipped: whitespace outside the root element (and the comments and
            // instructions inside stray content, just before its error).
            let skipped = at(event.skipped);
            if skipped.start < skipped.end {
                core.process(Event::Other { span: skipped });
            }
            match event.kind {
                EventKind::Start {
                    local_name,
                    attributes,
                    ..
                } => {
                    let source = &core.src[span.start - core.base..span.end - core.base];
                    let self_closing = source.ends_with("/>");
                    let name_len = source[1..]
                        .find(|c: char| c.is_ascii_whitespace() || c == '/' || c == '>')
                        .unwrap_or(source.len() - 1);
                    // Copied (the core is borrowed mutably below), into one buffer kept for
                    // the whole rewrite.
                    self.name.clear();
                    self.name.push_str(&source[1..1 + name_len]);
                    let name = &self.name;
                    let mut list = reuse_attrs(std::mem::take(&mut core.attrs));
                    list.extend(attributes.written().map(|a| Attr {
                        name: a.name,
                        value: a.value,
                        span: at(a.span()),
                    }));
                    core.process(Event::Start {
                        name,
                        local: &local_name,
                        attributes: &list,
                        self_closing,
                        span,
                    });
                    core.attrs = reuse_attrs(list);
                    self.empty = self_closing;
                }
                EventKind::End { .. } if std::mem::take(&mut self.empty) => {}
                // The reader matched it with its start tag: it closes the current element.
                EventKind::End { .. } => core.process(Event::End { name: None, span }),
                EventKind::Text(text) => core.process(Event::Unit {
                    kind: UnitKind::Text(&text),
                    span,
                }),
                EventKind::Comment(data) => core.process(Event::Unit {
                    kind: UnitKind::Comment(&data),
                    span,
                }),
                EventKind::Instruction(_) => {
                    let (target, data) =
                        event.kind.instruction_target_and_data().unwrap_or_default();
                    core.process(Event::Unit {
                        kind: UnitKind::ProcessingInstruction(target, data),
                        span,
                    })
                }
                EventKind::Doctype(name) => core.process(Event::Unit {
                    kind: UnitKind::Doctype((!name.is_empty()).then_some(&name)),
                    span,
                }),
            }
        }
        if std::mem::take(&mut self.finished) {
            let end = core.base + core.src.len();
            // The input after the root element (the reader's `trailing`) ends the text.
            let from = self.reader.trailing().map_or(end, |t| at(t).start.min(end));
            core.process(Event::Eof {
                span: Span::new(from, end),
            });
        }
    }

    /// Whether the output is held until the end ([`ErrorOutput::Discard`]).
    pub(crate) fn holds(&self) -> bool {
        self.held.is_some()
    }

    /// Moves the core's output into the held output, within `max_held_output`.
    pub(crate) fn hold(&mut self, core: &mut Core<'_>) -> Result<(), Error> {
        let (held, max) = (&mut self.held, self.max_held);
        let Some(held) = held.as_mut() else {
            return Ok(());
        };
        let at = core.done;
        core.drain_output(|b| {
            if max.is_some_and(|m| held.len() + b.len() > m) {
                return Err(Error::new(ErrorCode::HeldOutputLimit, Span::new(at, at)));
            }
            held.extend_from_slice(b);
            Ok(())
        })
    }

    /// The held output, at the end of a rewrite that succeeded.
    pub(crate) fn take_held(&mut self) -> Option<Vec<u8>> {
        self.held.take()
    }
}
