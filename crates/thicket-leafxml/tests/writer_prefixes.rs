//! The writer keeps the prefixes and default namespace of a reader's events (their namespace
//! declarations are its hints), writes attributes in their written order, indents on request,
//! and still refuses what LeafXML forbids.

use std::path::PathBuf;

use thicket_leafxml::{Attributes, EventKind, Reader, WriteError, Writer, parse_events};

const HEADER: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";

/// Decodes `bytes` and writes its events back.
fn rewrite(bytes: &[u8], indent: Option<usize>) -> Result<Vec<u8>, WriteError> {
    let mut reader = Reader::from_bytes(bytes);
    let mut w = Writer::new(Vec::new());
    if let Some(n) = indent {
        w = w.with_indent(n);
    }
    while let Some(event) = reader.next_event().expect("decodes") {
        w.write(&event.kind)?;
    }
    w.finish()
}

fn kinds(bytes: &[u8]) -> Vec<EventKind<'static>> {
    parse_events(bytes)
        .expect("decodes")
        .into_iter()
        .map(|e| e.kind)
        .collect()
}

/// Documents written the writer's way come back byte for byte.
#[test]
fn canonical_namespaced_documents_round_trip_byte_for_byte() {
    let docs = [
        r#"<feed xmlns="http://www.w3.org/2005/Atom"><title>t</title><entry><id>1</id></entry></feed>"#,
        r#"<feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/" xml:lang="en"><media:thumbnail url="x"/></feed>"#,
        r#"<a xmlns:p="urn:1"><p:b p:k="1" xmlns:p="urn:2" j="2"><p:c/></p:b><p:d/></a>"#,
        r#"<p:a xmlns:p="urn:p" xmlns:q="urn:q" q:z="1" k="v" p:y="2"><q:b xmlns="urn:d"><c/></q:b></p:a>"#,
        r#"<a k="&lt;&amp;&quot;">x &amp; y<b xmlns="urn:b" xmlns:xml="http://www.w3.org/XML/1998/namespace"/></a>"#,
    ];
    for doc in docs {
        let doc = format!("{HEADER}{doc}\n");
        let out = rewrite(doc.as_bytes(), None).expect("writes");
        assert_eq!(String::from_utf8(out).unwrap(), doc);
    }
}

/// The corpus: every document that decodes comes back with the same events, and the writer's
/// output is a fixed point (byte for byte the second time); with the prefixes kept, the output
/// is no longer than the input plus the header, but for escapes and quotes.
#[test]
fn corpus_round_trips_keep_prefixes() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/xml");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("no corpus at {}; skipped", dir.display());
        return;
    };
    for entry in entries.flatten() {
        let bytes = std::fs::read(entry.path()).expect("reads");
        if parse_events(&bytes).is_err() {
            continue;
        }
        let name = entry.file_name();
        let once = rewrite(&bytes, None).expect("writes");
        assert_eq!(kinds(&once), kinds(&bytes), "{name:?}");
        let twice = rewrite(&once, None).expect("writes");
        assert!(once == twice, "{name:?}: not a fixed point");
        let text = String::from_utf8_lossy(&once);
        assert!(
            !text.contains("xmlns:ns1"),
            "{name:?}: a prefix was renamed"
        );
    }
}

#[test]
fn reddit_feed_keeps_its_default_namespace() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/corpus/xml/atom_mediarss_reddit_1.xml");
    let Ok(bytes) = std::fs::read(path) else {
        return;
    };
    let out = String::from_utf8(rewrite(&bytes, None).unwrap()).unwrap();
    assert!(
        out.contains("<feed xmlns=\"http://www.w3.org/2005/Atom\""),
        "{}",
        &out[..200]
    );
    assert!(
        out.len() <= bytes.len() + HEADER.len(),
        "{} > {}",
        out.len(),
        bytes.len()
    );
}

#[test]
fn indentation_adds_whitespace_only_in_element_content() {
    let doc = format!(r#"{HEADER}<a xmlns="urn:a"><b><c/><c>text<d/></c></b><e/></a>"#);
    let out = String::from_utf8(rewrite(doc.as_bytes(), Some(2)).unwrap()).unwrap();
    assert_eq!(
        out,
        format!(
            "{HEADER}<a xmlns=\"urn:a\">\n  <b>\n    <c/>\n    <c>text<d/></c>\n  </b>\n  <e/>\n</a>\n"
        )
    );
    // The same events but for whitespace texts.
    let strip = |k: Vec<EventKind<'static>>| -> Vec<EventKind<'static>> {
        k.into_iter()
            .filter(|e| !matches!(e, EventKind::Text(t) if t.trim().is_empty()))
            .collect()
    };
    assert_eq!(strip(kinds(out.as_bytes())), kinds(doc.as_bytes()));
}

#[test]
fn still_refuses_what_leafxml_forbids() {
    // An element in no namespace inside a default namespace: LeafXML cannot undeclare it.
    let doc = format!(r#"{HEADER}<a xmlns="urn:a"/>"#);
    let events = parse_events(doc.as_bytes()).unwrap();
    let mut w = Writer::new(Vec::new());
    w.write(&events[0].kind).unwrap();
    let bare = EventKind::Start {
        namespace: None,
        local_name: "b".into(),
        attributes: Attributes::default(),
    };
    assert!(matches!(w.write(&bare), Err(WriteError::Structure(_))));
    // The writer is still usable after a refusal.
    w.write(&events[1].kind).unwrap();
    assert!(w.finish().is_ok());
    // Hand-built events without declarations: fresh prefixes, as before.
    let mut w = Writer::new(Vec::new());
    w.write(&EventKind::Start {
        namespace: Some("urn:x".into()),
        local_name: "a".into(),
        attributes: Attributes::new([], [("urn:y".into(), "k".into(), "v".into())]),
    })
    .unwrap();
    w.write(&EventKind::End {
        namespace: Some("urn:x".into()),
        local_name: "a".into(),
    })
    .unwrap();
    assert_eq!(
        String::from_utf8(w.finish().unwrap()).unwrap(),
        format!("{HEADER}<ns1:a xmlns:ns1=\"urn:x\" xmlns:ns2=\"urn:y\" ns2:k=\"v\"/>\n")
    );
    // Text that is not NFC is refused as before.
    let mut w = Writer::new(Vec::new());
    w.write(&events[0].kind).unwrap();
    assert!(matches!(
        w.write(&EventKind::Text("e\u{301}".into())),
        Err(WriteError::NonCanonicalText(_))
    ));
}
