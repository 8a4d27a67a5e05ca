//! LeafXML: the strict decoder. It reads bytes itself and stops at the first error.

use std::cell::RefCell;
use std::io::{self, Read};
use std::rc::Rc;

use thicket_input::Span;
use thicket_input::stream::StreamDecoder;
use thicket_leafxml::{Error, Event, EventKind, Reader};

use super::{CliError, Parsed, Sink, StreamView};
use crate::outline::{Attr, Item};
use crate::render::Diag;
use crate::source::Source;

/// The decoder's error as a diagnostic (its own line and column: LeafXML counts NEL and LS as
/// line breaks too).
pub fn diag(e: &Error) -> Diag {
    let offset = usize::try_from(e.byte_offset).unwrap_or(usize::MAX);
    Diag {
        code: e.code.as_str(),
        message: e.code.message(),
        span: Span::empty(offset),
        line_col: Some((e.line as usize, e.column as usize)),
        note: e.codepoint.map(|cp| format!("(U+{cp:04X})")),
    }
}

/// One line for an event: `start {urn:d}doc a="1" 0..20`.
pub fn event_line(event: &Event) -> String {
    format!("{} {}", event.kind, event.span)
}

/// A reader that hands what it reads to LeafXML and keeps a lossy decoding of it, so that the
/// line of an error can be shown.
struct Tee<R> {
    inner: R,
    decoder: StreamDecoder,
    text: Rc<RefCell<String>>,
}

impl<R: Read> Read for Tee<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        let mut text = self.text.borrow_mut();
        if n == 0 {
            self.decoder.finish(&mut text);
        } else {
            self.decoder.feed(&buf[..n], &mut text);
        }
        Ok(n)
    }
}

/// Streams events, or checks that the document decodes.
pub fn stream(src: &mut Source, view: StreamView, sink: &mut Sink<'_>) -> Result<(), CliError> {
    // `--tokens` is not offered for leafxml (see `super::supports`); any view streams events.
    let _ = view;
    let pending = Rc::new(RefCell::new(String::new()));
    let tee = Tee {
        inner: src.reader(),
        decoder: StreamDecoder::leafxml(),
        text: Rc::clone(&pending),
    };
    let mut reader = Reader::new(tee);
    loop {
        let next = reader.next_event();
        {
            let mut text = pending.borrow_mut();
            if !text.is_empty() {
                sink.window.push(&text);
                text.clear();
            }
        }
        match next {
            Ok(Some(event)) => {
                if sink.wants_lines() {
                    sink.line(format_args!("{}", event_line(&event)))?;
                }
            }
            Ok(None) => break,
            Err(e) => {
                sink.diag(diag(&e))?;
                break;
            }
        }
    }
    src.done();
    Ok(())
}

/// Decodes a whole document: the outline of the events before any error, and the error.
pub fn parse(bytes: &[u8]) -> Parsed {
    let (text, _, _) = thicket_input::decode_bom_lossy(bytes);
    let mut reader = Reader::from_bytes(bytes);
    let mut items = Vec::new();
    let mut diags = Vec::new();
    loop {
        match reader.next_event() {
            Ok(Some(event)) => items.push(item(&event)),
            Ok(None) => break,
            Err(e) => {
                diags.push(diag(&e));
                break;
            }
        }
    }
    Parsed {
        text: text.into_owned(),
        tree: Some(items),
        tokens: None,
        tokens_json: None,
        diags,
    }
}

/// The outline item of an event. (Written against references and `to_string`, so it reads
/// events whether their strings are owned or borrowed.)
fn item(event: &Event) -> Item {
    match &event.kind {
        EventKind::Start {
            namespace,
            local_name,
            attributes,
        } => {
            let mut attrs: Vec<Attr> = attributes
                .local()
                .map(|(name, value)| Attr {
                    namespace: None,
                    name: name.to_string(),
                    value: value.to_string(),
                })
                .collect();
            for (ns, name, value) in attributes.external_sorted() {
                attrs.push(Attr {
                    namespace: Some(ns.to_string()),
                    name: name.to_string(),
                    value: value.to_string(),
                });
            }
            Item::Open {
                namespace: namespace.as_deref().map(str::to_owned),
                name: local_name.to_string(),
                attributes: attrs,
            }
        }
        EventKind::Text(t) => Item::Text(t.to_string()),
        EventKind::End { .. } => Item::Close,
    }
}
