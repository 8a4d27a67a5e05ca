//! LeafXML: the strict decoder. It reads bytes itself and stops at the first error.

use std::cell::RefCell;
use std::io::{self, Read};
use std::rc::Rc;

use thicket_input::Limits;
use thicket_input::stream::StreamDecoder;
use thicket_leafxml::{Error, Event, EventKind, Reader};

use super::{CliError, Sink, StreamView};
use crate::outline::{Attr, Item, Visit};
use crate::render::Diag;
use crate::source::{CHUNK, Source};
use thicket_input::render::Window;

/// The decoder's error as a diagnostic (its own line and column: LeafXML counts NEL and LS as
/// line breaks too).
pub fn diag(e: &Error) -> Diag {
    Diag {
        code: e.code.as_str(),
        message: e.code.message(),
        span: e.span,
        line_col: Some(thicket_input::LineCol {
            line: e.line as usize,
            column: e.column as usize,
        }),
        note: e.codepoint.map(|cp| format!("(U+{cp:04X})")),
    }
}

/// One line for an event: `start {urn:d}doc a="1" 0..20`.
pub fn event_line(event: &Event) -> String {
    format!("{} {}", event.kind, event.span)
}

/// A reader that hands what it reads to LeafXML and pushes a lossy decoding of it into the
/// window as it goes (bounded: the window trims), so that the line of an error can be shown.
struct Tee<R> {
    inner: R,
    decoder: StreamDecoder,
    text: String,
    window: Rc<RefCell<Window<'static>>>,
}

impl<R: Read> Read for Tee<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        // At most a chunk at a time, so the decoded copy stays small.
        let len = buf.len().min(CHUNK);
        let n = self.inner.read(&mut buf[..len])?;
        if n == 0 {
            self.decoder.finish(&mut self.text);
        } else {
            self.decoder.feed(&buf[..n], &mut self.text);
        }
        if !self.text.is_empty() {
            self.window.borrow_mut().push(&self.text);
            self.text.clear();
        }
        Ok(n)
    }
}

/// Streams events, or checks that the document decodes. An input that cannot be read is a
/// read error (exit status 2), not the decoder's `io-error`.
pub fn stream(
    src: &mut Source,
    view: StreamView,
    limits: Limits,
    sink: &mut Sink<'_>,
) -> Result<(), CliError> {
    // `--tokens` is not offered for leafxml (see `super::supports`); any view streams events.
    let _ = view;
    // The sink's window, lent to the reader while it reads.
    let window = Rc::new(RefCell::new(std::mem::replace(
        &mut sink.window,
        Window::with_keep(1),
    )));
    let tee = Tee {
        inner: src.reader(),
        decoder: StreamDecoder::leafxml(),
        text: String::new(),
        window: Rc::clone(&window),
    };
    let mut reader = Reader::new(tee).with_limits(limits);
    let mut error = None;
    loop {
        match reader.next_event() {
            Ok(Some(event)) => {
                if sink.wants_lines() {
                    sink.line(format_args!("{} {}", event.kind, event.span))?;
                }
            }
            Ok(None) => break,
            Err(e) => {
                error = Some(e);
                break;
            }
        }
    }
    drop(reader);
    if let Ok(window) = Rc::try_unwrap(window) {
        sink.window = window.into_inner();
    }
    if let Some(e) = src.take_read_error() {
        return Err(CliError::Read(e));
    }
    if let Some(e) = error {
        sink.diag(diag(&e))?;
    }
    src.done();
    Ok(())
}

/// The first error of a whole document, if any.
pub fn error(bytes: &[u8], limits: Limits) -> Option<Diag> {
    let mut reader = Reader::from_bytes(bytes).with_limits(limits);
    loop {
        match reader.next_event() {
            Ok(Some(_)) => {}
            Ok(None) => return None,
            Err(e) => return Some(diag(&e)),
        }
    }
}

/// Walks the elements decoded before the first error, in document order (attributes: the
/// local ones in document order, then the external ones sorted by namespace and name).
pub fn walk(bytes: &[u8], limits: Limits, visit: &mut Visit<'_>) -> io::Result<()> {
    let mut reader = Reader::from_bytes(bytes).with_limits(limits);
    while let Ok(Some(event)) = reader.next_event() {
        match &event.kind {
            EventKind::Start {
                namespace,
                local_name,
                attributes,
            } => {
                let mut attrs: Vec<Attr<'_>> = attributes
                    .local()
                    .map(|(name, value)| Attr {
                        namespace: None,
                        name,
                        value,
                    })
                    .collect();
                for (ns, name, value) in attributes.external_sorted() {
                    attrs.push(Attr {
                        namespace: Some(ns),
                        name,
                        value,
                    });
                }
                visit(&Item::Open {
                    namespace: namespace.as_deref(),
                    name: local_name,
                    attributes: &attrs,
                })?;
            }
            EventKind::Text(t) => visit(&Item::Text(t))?,
            EventKind::End { .. } => visit(&Item::Close)?,
            // Only with `Reader::with_markup_events`, which this reader does not turn on.
            EventKind::Comment(_) | EventKind::Instruction { .. } | EventKind::Doctype { .. } => {}
        }
    }
    Ok(())
}
