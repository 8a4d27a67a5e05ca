//! Spans, rule by rule: each event's skipped input, the trailing span, attribute name and value
//! spans (mapped back through line break normalization), error spans. The suite runner, the
//! corpus test and the fuzz target check the tiling on every input; these pin the values.

use thicket_input::Span;
use thicket_leafxml::{ErrorCode, EventKind, Reader};

/// (kind, skipped, span) of every event, and the trailing span.
fn spans(doc: &str) -> (Vec<(String, Span, Span)>, Option<Span>) {
    let mut reader = Reader::from_bytes(doc.as_bytes());
    let mut out = Vec::new();
    while let Some(e) = reader.next_event().expect("the document decodes") {
        out.push((e.kind.to_string(), e.skipped, e.span));
    }
    (out, reader.trailing())
}

fn s(start: usize, end: usize) -> Span {
    Span::new(start, end)
}

#[test]
fn skipped_input_and_trailing_span() {
    let doc = "<?xml version='1.0'?>\n<!--c--><a>x<!--d--><![CDATA[y]]><?p?></a>\n<!--e-->";
    let (events, trailing) = spans(doc);
    let expected = [
        // The declaration, a line break and a comment before the root.
        ("start a", s(0, 30), s(30, 33)),
        // A text covers its first to last text or CDATA token, comments between included.
        ("text \"xy\"", s(33, 33), s(33, 55)),
        // The instruction after the last CDATA token is skipped by the end tag.
        ("end a", s(55, 60), s(60, 64)),
    ];
    let got: Vec<(&str, Span, Span)> = events
        .iter()
        .map(|(k, a, b)| (k.as_str(), *a, *b))
        .collect();
    assert_eq!(got, expected);
    assert_eq!(trailing, Some(s(64, doc.len())));
}

#[test]
fn empty_tags_and_padding() {
    let (events, trailing) = spans("  <a><b/></a>");
    let got: Vec<(Span, Span)> = events.iter().map(|(_, a, b)| (*a, *b)).collect();
    assert_eq!(
        got,
        [
            (s(0, 2), s(2, 5)),
            (s(5, 5), s(5, 9)),
            // The End of an empty tag: empty, at the tag's end, skipping nothing.
            (s(9, 9), s(9, 9)),
            (s(9, 9), s(9, 13)),
        ]
    );
    assert_eq!(trailing, Some(s(13, 13)));
}

/// Attribute spans: the name as written (before NFC), the value as written between its quotes,
/// in a tag whose line breaks normalization changed (mapped back to the text as written), with
/// and without the fast paths.
#[test]
fn attribute_spans_as_written() {
    let doc = "<a\r\n e\u{301}='1'\u{85}xmlns:p = \"urn:p\"\r p:c='x&amp;\r\ny'/>";
    for fast in [true, false] {
        let mut reader = Reader::from_bytes(doc.as_bytes());
        if !fast {
            reader = reader.without_fast_paths();
        }
        let event = reader.next_event().unwrap().unwrap();
        let EventKind::Start { attributes, .. } = &event.kind else {
            panic!("{event:?}");
        };
        let got: Vec<(&str, &str, &str, &str)> = attributes
            .written()
            .map(|a| {
                (
                    a.name,
                    a.value,
                    &doc[a.name_span.start..a.name_span.end],
                    &doc[a.value_span.start..a.value_span.end],
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("\u{e9}", "1", "e\u{301}", "1"),
                ("xmlns:p", "urn:p", "xmlns:p", "urn:p"),
                ("p:c", "x& y", "p:c", "x&amp;\r\ny"),
            ]
        );
        let whole: Vec<Span> = attributes.written().map(|a| a.span()).collect();
        assert_eq!(&doc[whole[1].start..whole[1].end], "xmlns:p = \"urn:p\"");
        // Owned events keep them.
        let owned = event.clone().into_owned();
        let EventKind::Start {
            attributes: kept, ..
        } = &owned.kind
        else {
            unreachable!()
        };
        assert!(kept.written().eq(attributes.written()));
    }
}

/// Fast path and general code give the same attribute spans on a plain tag.
#[test]
fn fast_path_attribute_spans() {
    let doc = "<r><a b='1' c=\"two words\" d='&lt;'/></r>";
    let collect = |fast: bool| {
        let mut reader = Reader::from_bytes(doc.as_bytes());
        if !fast {
            reader = reader.without_fast_paths();
        }
        let mut out = Vec::new();
        while let Some(e) = reader.next_event().unwrap() {
            if let EventKind::Start { attributes, .. } = &e.kind {
                out.extend(
                    attributes
                        .written()
                        .map(|a| (a.name.to_owned(), a.name_span, a.value_span)),
                );
            }
        }
        out
    };
    assert_eq!(collect(true), collect(false));
    assert_eq!(
        collect(true),
        [
            ("b".to_owned(), s(6, 7), s(9, 10)),
            ("c".to_owned(), s(12, 13), s(15, 24)),
            ("d".to_owned(), s(26, 27), s(29, 33)),
        ]
    );
}

/// An error in a tag whose line breaks normalization changed points into the tag as written.
#[test]
fn error_spans_map_back_through_line_breaks() {
    let doc = "<a\r\n\r\n b='1' b='&bad;'/>";
    let err = Reader::from_bytes(doc.as_bytes())
        .next_event()
        .map(|_| ())
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::UnknownEscape);
    assert_eq!(&doc[err.span.start..err.span.end], "&bad;");
    assert_eq!((err.line, err.column), (3, 11));
    let doc = "<a\r\n b='1'\r\n b='2'/>";
    let err = Reader::from_bytes(doc.as_bytes())
        .next_event()
        .map(|_| ())
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::DuplicateAttribute);
    assert_eq!(&doc[err.span.start..err.span.end], "b='2'");
    assert_eq!(err.byte_offset, err.span.start as u64);
}
