//! Property tests: the writer round-trips random trees, and the decoder never panics and gives
//! the same result however the input is split.

use std::io::Read;

use proptest::prelude::*;
use thicket_leafxml::{
    Attribute, Element, Error, Event, Node, Reader, XML_NAMESPACE, XMLNS_NAMESPACE, write_document,
};

fn name() -> impl Strategy<Value = String> {
    "[a-z_éωß漢][a-z0-9éωß漢._-]{0,5}"
}

fn namespace() -> impl Strategy<Value = Option<String>> {
    prop_oneof![
        3 => Just(None),
        1 => Just(Some("urn:a".to_owned())),
        1 => Just(Some("http://example.com/ns?q=1&r=<2>".to_owned())),
        1 => Just(Some("urn:é 漢".to_owned())),
        1 => Just(Some(XML_NAMESPACE.to_owned())),
        1 => Just(Some(XMLNS_NAMESPACE.to_owned())),
    ]
}

fn external_ns() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("urn:a".to_owned()),
        Just("urn:é 漢".to_owned()),
        Just(XML_NAMESPACE.to_owned()),
    ]
}

fn value() -> impl Strategy<Value = String> {
    // Whitespace-compressed: words joined by single spaces.
    proptest::collection::vec("[a-z&<>\"'é漢😀\\x{85}\\x{2028};#]{1,5}", 0..3)
        .prop_map(|words| words.join(" "))
}

fn text() -> impl Strategy<Value = String> {
    "[a-z &<>\"'\t\n\\]é漢😀;#\u{a0}]{1,12}"
}

fn leaf() -> impl Strategy<Value = Element> {
    (
        namespace(),
        name(),
        proptest::collection::btree_map(name(), value(), 0..3),
        proptest::collection::btree_map(
            external_ns(),
            proptest::collection::btree_map(name(), value(), 1..3),
            0..2,
        ),
    )
        .prop_map(|(namespace, local_name, attrs, external)| {
            let local = (attrs.into_iter())
                .filter(|(n, _)| n != "xmlns")
                .map(|(n, v)| Attribute::new(n, v));
            let external = external.into_iter().flat_map(|(ns, map)| {
                (map.into_iter()).map(move |(n, v)| Attribute::external(ns.as_str(), n, v))
            });
            Element {
                namespace: namespace.map(Into::into),
                local_name: local_name.into(),
                attributes: local.chain(external).collect(),
                children: Vec::new(),
            }
        })
}

fn tree() -> impl Strategy<Value = Element> {
    leaf().prop_recursive(5, 40, 5, |inner| {
        (
            leaf(),
            proptest::collection::vec(
                prop_oneof![inner.prop_map(Node::from), text().prop_map(Node::Text)],
                0..5,
            ),
        )
            .prop_map(|(mut e, children)| {
                // Adjacent texts decode as one content assembly: merge them.
                for child in children {
                    match (e.children.last_mut(), child) {
                        (Some(Node::Text(prev)), Node::Text(t)) => prev.push_str(&t),
                        (_, c) => e.children.push(c),
                    }
                }
                e
            })
    })
}

struct Trickle<'a>(&'a [u8], usize);

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = (1 + self.1 % 7).min(buf.len()).min(self.0.len());
        self.1 += 1;
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

type Decoded = Result<Vec<Event<'static>>, Error>;

fn collect<S: thicket_leafxml::Source>(mut reader: Reader<'_, S>) -> Decoded {
    let mut events = Vec::new();
    while let Some(e) = reader.next_owned()? {
        events.push(e);
    }
    Ok(events)
}

/// The same bytes pushed in chunks of 1, 2, ... 7 bytes, events taken between feeds.
fn pushed(bytes: &[u8]) -> Decoded {
    let mut reader = Reader::push();
    let mut events = Vec::new();
    let mut rest = bytes;
    let mut k = 0;
    while !rest.is_empty() {
        let (chunk, tail) = rest.split_at((1 + k % 7).min(rest.len()));
        k += 1;
        rest = tail;
        reader.feed(chunk);
        while let Some(e) = reader.next_owned()? {
            events.push(e);
        }
    }
    reader.finish();
    while let Some(e) = reader.next_owned()? {
        events.push(e);
    }
    Ok(events)
}

/// Whole and read in small chunks (pulled), after checking that pushing in small chunks gives
/// the same as whole.
fn both(bytes: &[u8]) -> (Decoded, Decoded) {
    let whole = collect(Reader::from_bytes(bytes));
    assert_eq!(
        pushed(bytes),
        whole,
        "pushed: {:?}",
        String::from_utf8_lossy(bytes)
    );
    (whole, collect(Reader::new(Trickle(bytes, 0))))
}

proptest! {
    // LEAFXML_CASES=100000 for a longer run.
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("LEAFXML_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(300)
    ))]

    #[test]
    fn write_then_decode_gives_the_tree(tree in tree()) {
        let bytes = write_document(&tree).expect("generated trees are writable");
        let again = Element::parse(&bytes);
        prop_assert_eq!(again.as_ref(), Ok(&tree), "{}", String::from_utf8_lossy(&bytes));
        let (whole, chunked) = both(&bytes);
        prop_assert_eq!(whole, chunked);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let (whole, chunked) = both(&bytes);
        prop_assert_eq!(whole, chunked);
    }

    #[test]
    fn markup_soup_never_panics(
        parts in proptest::collection::vec(
            prop::sample::select(vec![
                "<", ">", "</", "/>", "<!--", "-->", "<![CDATA[", "]]>", "<?", "?>", "<!DOCTYPE",
                "[", "]", "=", "\"", "'", " ", "&", ";", "&#x", "&#", "&amp;", "a", "b", ":",
                "xmlns", "xmlns:", "xml", "\r", "\n", "\u{85}", "\u{2028}", "é", "e\u{301}",
                "\u{1}", "\u{FFFE}", "<a>", "</a>", "<a/>", "1", "x",
            ]),
            0..40,
        ),
    ) {
        let doc: String = parts.concat();
        let (whole, chunked) = both(doc.as_bytes());
        if let Ok(events) = &whole {
            // Whatever decodes must be writable and decode again to the same events.
            let mut w = thicket_leafxml::Writer::new(Vec::new());
            for e in events {
                prop_assert!(w.write(&e.kind).is_ok(), "{:?}", doc);
            }
            let bytes = w.finish().expect("complete");
            let again: Vec<_> = thicket_leafxml::parse_events(&bytes)
                .expect("written documents decode")
                .into_iter()
                .map(|e| e.kind)
                .collect();
            let kinds: Vec<_> = events.iter().map(|e| e.kind.clone()).collect();
            prop_assert_eq!(again, kinds);
        }
        prop_assert_eq!(whole, chunked);
    }

    #[test]
    fn mutated_documents_never_panic(
        tree in tree(),
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4),
    ) {
        let mut bytes = write_document(&tree).expect("generated trees are writable");
        for (at, byte) in edits {
            let i = at.index(bytes.len() + 1);
            if i < bytes.len() && byte % 2 == 0 {
                bytes[i] = byte;
            } else {
                bytes.insert(i, b"<>&;'\"/:x]!?-"[byte as usize % 13]);
            }
        }
        let (whole, chunked) = both(&bytes);
        prop_assert_eq!(whole, chunked);
    }
}

#[test]
fn deep_nesting_does_not_recurse() {
    let depth = 200_000;
    let doc = format!("{}{}", "<a>".repeat(depth), "</a>".repeat(depth));
    let tree = Element::parse(doc.as_bytes()).expect("deep documents decode");
    let written = write_document(&tree).expect("deep trees write");
    assert_eq!(Element::parse(&written).as_ref(), Ok(&tree));
    assert_eq!(tree.descendants().count(), depth);
}

#[test]
fn writer_refuses_what_would_not_round_trip() {
    let mut e = Element::new("a");
    e.children.push(Node::Text("x\ry".into()));
    assert!(write_document(&e).is_err());
    let mut e = Element::new("a");
    e.attributes.push(Attribute::new("b", " padded"));
    assert!(write_document(&e).is_err());
    let mut e = Element::new("a");
    e.set_attribute("xmlns", "urn:x");
    assert!(write_document(&e).is_err());
    assert!(write_document(&Element::new("a:b")).is_err());
    assert!(write_document(&Element::new("e\u{301}")).is_err());
    let mut e = Element::new("a");
    e.set_attribute_ns(XMLNS_NAMESPACE, "p", "u");
    assert!(write_document(&e).is_err());
}

#[test]
fn a_failing_source_is_an_io_error() {
    struct Failing(usize);
    impl Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.0 == 0 {
                return Err(std::io::Error::other("disk on fire"));
            }
            self.0 -= 1;
            buf[0] = b'<';
            Ok(1)
        }
    }
    let err = Reader::new(Failing(3)).next_event().unwrap_err();
    assert_eq!(err.code, thicket_leafxml::ErrorCode::Io);
}

#[test]
fn bounded_memory_over_a_long_stream() {
    // A 10 MB document read through io::Read in 64 KiB chunks: the window stays small.
    const ITEM: &[u8] = b"<item k='v'>text &amp; more</item>\n";
    struct Repeat {
        left: usize,
        at: usize,
    }
    impl Read for Repeat {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.left == 0 {
                return Ok(0);
            }
            let n = (ITEM.len() - self.at).min(buf.len());
            buf[..n].copy_from_slice(&ITEM[self.at..self.at + n]);
            self.at += n;
            if self.at == ITEM.len() {
                self.at = 0;
                self.left -= 1;
            }
            Ok(n)
        }
    }
    let src = b"<root>"
        .chain(Repeat {
            left: 300_000,
            at: 0,
        })
        .chain(&b"</root>"[..]);
    let mut reader = Reader::new(src);
    let mut events = 0usize;
    let mut window = 0;
    while reader.next_event().expect("valid stream").is_some() {
        events += 1;
        window = window.max(reader.buffered());
    }
    assert_eq!(events, 2 + 300_000 * 4);
    assert!(window < 512 * 1024, "window grew to {window} bytes");
}

#[test]
fn many_declarations_and_attributes_stay_linear() {
    // 20 000 prefixes declared on one tag and 20 000 prefixed attributes using them.
    let n = 20_000;
    let mut doc = String::from("<r");
    for i in 0..n {
        doc.push_str(&format!(" xmlns:p{i}='urn:{i}' p{i}:a='{i}'"));
    }
    doc.push_str("><c/></r>");
    let tree = Element::parse(doc.as_bytes()).expect("valid");
    assert_eq!(tree.attributes.len(), n);
    assert_eq!(tree.attribute_ns("urn:7", "a"), Some("7"));
    let written = write_document(&tree).expect("writable");
    assert_eq!(Element::parse(&written).as_ref(), Ok(&tree));
    let mut dup = String::from("<r");
    for i in 0..n {
        dup.push_str(&format!(" a{i}='1'"));
    }
    dup.push_str(" a7='2'/>");
    let err = Element::parse(dup.as_bytes()).unwrap_err();
    assert_eq!(err.code, thicket_leafxml::ErrorCode::DuplicateAttribute);
}

/// Event attributes built by hand: the writer refuses a repeated external attribute (a list can
/// hold one, a decoder never gives one) and writes the external map grouped by namespace.
#[test]
fn writer_checks_event_attributes() {
    use thicket_leafxml::{Attributes, EventKind, WriteError, Writer};
    let start = |external: Vec<(&'static str, &'static str, &'static str)>| EventKind::Start {
        namespace: None,
        local_name: "a".into(),
        attributes: Attributes::new(
            [("k".into(), "v".into())],
            external
                .into_iter()
                .map(|(ns, n, v)| (ns.into(), n.into(), v.into())),
        ),
    };
    let end = EventKind::End {
        namespace: None,
        local_name: "a".into(),
    };
    let mut w = Writer::new(Vec::new());
    let repeated = start(vec![
        ("urn:p", "x", "1"),
        ("urn:q", "y", "2"),
        ("urn:p", "x", "3"),
    ]);
    assert!(matches!(w.write(&repeated), Err(WriteError::DuplicateAttribute(n)) if n == "x"));
    let mut w = Writer::new(Vec::new());
    w.write(&start(vec![
        ("urn:q", "y", "2"),
        ("urn:p", "x", "1"),
        ("urn:p", "w", "0"),
    ]))
    .unwrap();
    w.write(&end).unwrap();
    let bytes = w.finish().unwrap();
    let events = thicket_leafxml::parse_events(&bytes).unwrap();
    let EventKind::Start { attributes, .. } = &events[0].kind else {
        panic!("{events:?}");
    };
    assert_eq!(attributes.local().collect::<Vec<_>>(), [("k", "v")]);
    assert_eq!(
        attributes.external_sorted(),
        [
            ("urn:p", "w", "0"),
            ("urn:p", "x", "1"),
            ("urn:q", "y", "2")
        ]
    );
    assert_eq!(attributes.get_external("urn:q", "y"), Some("2"));
    assert_eq!(attributes.get("k"), Some("v"));
    assert_eq!(attributes.get("x"), None);
    // Equality ignores the order of the external map, and owning changes nothing.
    assert_eq!(
        *attributes,
        Attributes::new(
            [("k".into(), "v".into())],
            [
                ("urn:q".into(), "y".into(), "2".into()),
                ("urn:p".into(), "x".into(), "1".into()),
                ("urn:p".into(), "w".into(), "0".into()),
            ]
        )
    );
    assert_eq!(attributes.clone().into_owned(), *attributes);
    assert!(!attributes.is_empty());
    assert!(Attributes::default().is_empty());
}
