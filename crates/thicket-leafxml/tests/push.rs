//! The push reader: what `Ok(None)` means before and after `finish`, a long text fed a byte at a
//! time, bounded memory over a long stream, and the tree built from a pushed document. (That
//! pushed and pulled decodings agree, split anywhere, is checked on every suite case by the
//! suite runner and on the corpus in `tests/corpus.rs`.)

use thicket_leafxml::{Element, ErrorCode, EventKind, Reader};

#[test]
fn none_waits_until_finish_then_ends() {
    let mut reader = Reader::push();
    assert_eq!(reader.next_event().map(|e| e.is_none()), Ok(true));
    assert_eq!(reader.trailing(), None, "waiting, not the end");
    reader.feed(b"<a>te");
    let first = reader
        .next_owned()
        .unwrap()
        .expect("the start tag is whole");
    assert!(matches!(first.kind, EventKind::Start { .. }));
    // The text may go on: no event until the `<` after it arrives.
    assert_eq!(reader.next_owned(), Ok(None));
    assert_eq!(reader.trailing(), None);
    reader.feed(b"xt</a> ");
    let text = reader.next_owned().unwrap().expect("the text ended at `<`");
    assert_eq!(text.kind, EventKind::Text("text".into()));
    assert!(matches!(
        reader.next_owned().unwrap().map(|e| e.kind),
        Some(EventKind::End { .. })
    ));
    // Trailing whitespace may be followed by more: the end is known only at `finish`.
    assert_eq!(reader.next_owned(), Ok(None));
    assert_eq!(reader.trailing(), None);
    reader.finish();
    assert_eq!(reader.next_owned(), Ok(None));
    assert_eq!(reader.trailing().map(|s| (s.start, s.end)), Some((11, 12)));
    // Bytes after the end change nothing.
    reader.feed(b"<b/>");
    assert_eq!(reader.next_owned(), Ok(None));
}

#[test]
fn errors_wait_for_the_bytes_that_decide_them() {
    // An unclosed element is an error only once the input has ended.
    let mut reader = Reader::push();
    reader.feed(b"<a>");
    assert!(reader.next_owned().unwrap().is_some());
    assert_eq!(reader.next_owned(), Ok(None));
    reader.finish();
    let e = reader.next_owned().unwrap_err();
    assert_eq!((e.code, e.span.start), (ErrorCode::UnclosedTags, 3));
    // A malformed sequence cut by a chunk boundary is found when the sequence is complete.
    let mut reader = Reader::push();
    reader.feed(b"<a>\xE2\x82");
    assert!(reader.next_owned().unwrap().is_some());
    assert_eq!(reader.next_owned(), Ok(None));
    reader.feed(b"x</a>");
    let e = reader.next_owned().unwrap_err();
    assert_eq!((e.code, e.byte_offset), (ErrorCode::InvalidUtf8, 3));
    // After an error, every call gives it again.
    assert_eq!(reader.next_owned().unwrap_err(), e);
}

#[test]
fn a_long_text_fed_a_byte_at_a_time() {
    let len = 256 * 1024;
    let doc = format!("<a>{}</a>", "x&amp;y\n".repeat(len / 8));
    let mut reader = Reader::push();
    let mut texts = Vec::new();
    for b in doc.as_bytes().chunks(1) {
        reader.feed(b);
        while let Some(e) = reader.next_owned().unwrap() {
            if let EventKind::Text(t) = e.kind {
                texts.push((t.len(), e.line, e.span));
            }
        }
    }
    reader.finish();
    while reader.next_owned().unwrap().is_some() {}
    assert_eq!(texts.len(), 1, "one event for the whole text");
    let (n, line, span) = texts[0];
    assert_eq!(
        (n, line, span.start, span.end),
        (len / 8 * 4, 1, 3, 3 + len)
    );
}

#[test]
fn memory_stays_bounded_over_a_long_pushed_stream() {
    let mut reader = Reader::push();
    reader.feed(b"<root>");
    let item = b"<item k='v'>text &amp; more</item>\n".repeat(64);
    let mut events = 0usize;
    let mut window = 0;
    for _ in 0..5_000 {
        reader.feed(&item);
        while reader.next_event().expect("valid stream").is_some() {
            events += 1;
        }
        window = window.max(reader.buffered());
    }
    reader.feed(b"</root>");
    reader.finish();
    while reader.next_event().expect("valid stream").is_some() {
        events += 1;
    }
    assert_eq!(events, 2 + 5_000 * 64 * 4);
    assert!(window < 64 * 1024, "the buffer grew to {window} bytes");
}

#[test]
fn a_tree_from_a_pushed_document() {
    let bytes = b"\xEF\xBB\xBF<a xmlns='urn:x'>caf\xC3\xA9<b/></a>";
    let mut reader = Reader::push();
    for b in bytes.chunks(2) {
        reader.feed(b);
    }
    reader.finish();
    let tree = Element::from_reader(reader).expect("valid");
    assert_eq!(Ok(tree), Element::parse(bytes));
}
