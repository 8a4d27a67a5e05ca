//! Limits and memory on long tokens read through `io::Read`: with `max_token_len`, a longer
//! token stops the reader before it is buffered whole; without limits, a long token is held
//! about once (the suite has a case per limit code).

use std::io::Read;

use thicket_leafxml::{ErrorCode, EventKind, Limits, Reader};

/// `head`, then `len` bytes of `fill`, then `tail`, produced as read (never held whole).
struct Long {
    parts: [(Vec<u8>, usize); 3],
    part: usize,
    at: usize,
    /// Bytes handed out so far.
    read: usize,
}

impl Long {
    fn new(head: &str, fill: &str, len: usize, tail: &str) -> Long {
        Long {
            parts: [
                (head.as_bytes().to_vec(), head.len()),
                (fill.as_bytes().to_vec(), len),
                (tail.as_bytes().to_vec(), tail.len()),
            ],
            part: 0,
            at: 0,
            read: 0,
        }
    }
}

impl Read for &mut Long {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let mut n = 0;
        while n < buf.len() && self.part < 3 {
            let (bytes, len) = &self.parts[self.part];
            if self.at == *len {
                self.part += 1;
                self.at = 0;
                continue;
            }
            buf[n] = bytes[self.at % bytes.len()];
            self.at += 1;
            n += 1;
        }
        self.read += n;
        Ok(n)
    }
}

const MIB: usize = 1 << 20;

/// A 16 MiB tag, text, comment and attribute value each stop within a chunk of the limit.
#[test]
fn a_long_token_stops_before_it_is_buffered() {
    let max = MIB;
    for (head, fill, tail, events) in [
        ("<a b='", "x", "'/>", 0),
        ("<a>", "x", "</a>", 1),
        ("<a><!--", "x", "--></a>", 1),
        ("<a", "b", "/>", 0),
    ] {
        let mut src = Long::new(head, fill, 16 * MIB, tail);
        let mut reader = Reader::new(&mut src).with_limits(Limits::none().with_max_token_len(max));
        let mut seen = 0;
        let err = loop {
            match reader.next_event() {
                Ok(Some(_)) => seen += 1,
                Ok(None) => panic!("{head}: no error"),
                Err(e) => break e,
            }
        };
        assert_eq!(err.code, ErrorCode::TokenLengthLimit, "{head}");
        assert_eq!(seen, events, "{head}");
        // The span covers the limit and the codepoint past it, wherever the reads stopped.
        assert_eq!(err.span.end - err.span.start, max + 1, "{head}");
        let buffered = reader.buffered();
        drop(reader);
        assert!(
            src.read <= max + 256 * 1024,
            "{head}: read {} bytes",
            src.read
        );
        assert!(buffered <= 3 * max, "{head}: {buffered} bytes buffered");
    }
}

/// Without limits, a long text node and a long attribute value are held about once: the text
/// is borrowed from the reader's window, the value too.
#[test]
fn a_long_token_is_held_about_once() {
    for (head, fill, tail) in [("<a>", "x", "</a>"), ("<a b='", "y", "'/>")] {
        let len = 8 * MIB;
        let mut src = Long::new(head, fill, len, tail);
        let mut reader = Reader::new(&mut src);
        let mut longest = 0;
        while let Some(event) = reader.next_event().expect("the document decodes") {
            match &event.kind {
                EventKind::Text(t) => longest = longest.max(t.len()),
                EventKind::Start { attributes, .. } => {
                    for a in attributes.written() {
                        assert_eq!(a.value_span.end - a.value_span.start, len);
                        longest = longest.max(a.value.len());
                    }
                }
                _ => {}
            }
        }
        assert_eq!(longest, len, "{head}");
        // The window's capacity (String growth may double it); no second copy is counted here,
        // the peak-memory figures in docs/leafxml.md measure the rest.
        assert!(reader.buffered() <= 2 * len + 256 * 1024, "{head}");
    }
}

/// The limits a caller sets are per reader and off by default.
#[test]
fn limits_are_off_by_default() {
    let name = "n".repeat(100_000);
    let doc = format!("<{name} {name}='{}' xmlns:p='urn:p'/>", "v".repeat(100_000));
    let events: Vec<_> = thicket_leafxml::parse_events(doc.as_bytes()).expect("no limits");
    assert_eq!(events.len(), 2);
    let limited = Reader::from_bytes(doc.as_bytes())
        .with_limits(Limits::none().with_max_name_len(99_999))
        .next_event()
        .map(|_| ())
        .unwrap_err();
    assert_eq!(limited.code, ErrorCode::NameLengthLimit);
    assert_eq!((limited.span.start, limited.span.end), (1, 100_001));
}
