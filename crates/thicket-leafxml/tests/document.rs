//! The compact tree (`Document`, `NodeRef`): the same tree as `Element`, the row API
//! (children, descendants, parent, attributes, text content, spans) consistent on the corpus,
//! no recursion at any depth, `Send` and `Debug`.

use std::path::PathBuf;

use thicket_leafxml::{Document, Element, EventKind, Reader, Writer, parse_events};

fn corpus() -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/xml");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            (name, std::fs::read(e.path()).expect("reads"))
        })
        .collect()
}

#[test]
fn same_tree_as_element_and_consistent_rows() {
    for (name, bytes) in corpus() {
        let Ok(doc) = Document::parse(&bytes) else {
            assert_eq!(name, "sample_ns.xml");
            continue;
        };
        let element = Element::parse(&bytes).expect("decodes");
        assert!(doc.to_element() == element, "{name}");
        let text = thicket_testkit::runners::leafxml::decoded_text(&bytes);
        let root = doc.root();
        assert_eq!(root.descendants().count(), doc.len(), "{name}");
        for node in root.descendants() {
            for child in node.children() {
                assert_eq!(child.parent(), Some(node), "{name}");
            }
            let span = node.span();
            match node.text() {
                None => {
                    let source = &text[span.start..span.end];
                    assert!(source.starts_with('<') && source.ends_with('>'), "{name}");
                    assert!(source[1..].starts_with(|c: char| c != '/'), "{name}");
                }
                Some(t) => assert!(!t.is_empty(), "{name}"),
            }
            // Attribute lookups agree with the maps.
            for (k, v) in node.attributes() {
                assert_eq!(node.attribute(k), Some(v));
            }
            for (ns, k, v) in node.external_attributes() {
                assert_eq!(node.attribute_ns(ns, k), Some(v));
            }
        }
        let texts: String = parse_events(&bytes)
            .unwrap()
            .into_iter()
            .filter_map(|e| match e.kind {
                EventKind::Text(t) => Some(t.into_owned()),
                _ => None,
            })
            .collect();
        assert_eq!(root.text_content(), texts, "{name}");
        assert_eq!(element.text_content(), texts, "{name}");
    }
}

#[test]
fn row_api_on_a_small_document() {
    let doc = Document::parse(
        br#"<r xmlns="urn:r" xmlns:x="urn:x" a="1" x:b="2">one<c>two</c><d/>three</r>"#,
    )
    .unwrap();
    let r = doc.root();
    assert_eq!((r.namespace(), r.local_name()), (Some("urn:r"), "r"));
    assert_eq!(r.attribute("a"), Some("1"));
    assert_eq!(r.attribute("b"), None);
    assert_eq!(r.attribute_ns("urn:x", "b"), Some("2"));
    let kids: Vec<String> = r
        .children()
        .map(|n| {
            n.text()
                .map_or_else(|| format!("<{}>", n.local_name()), str::to_owned)
        })
        .collect();
    assert_eq!(kids, ["one", "<c>", "<d>", "three"]);
    assert_eq!(r.text_content(), "onetwothree");
    let c = r.children().nth(1).unwrap();
    assert_eq!(c.span(), thicket_leafxml::Span::new(50, 60));
    assert_eq!(c.text_content(), "two");
    assert_eq!(c.parent(), Some(r));
    assert_eq!(r.parent(), None);
    assert_eq!(doc.node(doc.len()), None);
    let e = doc.to_element();
    assert_eq!(e.attribute("a"), Some("1"));
    assert_eq!(e.attribute_ns("urn:x", "b"), Some("2"));
    assert_eq!(e.text_content(), "onetwothree");
}

#[test]
fn any_depth_without_recursion() {
    let n = 200_000;
    let doc = format!("{}x{}", "<a>".repeat(n), "</a>".repeat(n));
    let d = Document::parse(doc.as_bytes()).unwrap();
    assert_eq!(d.len(), n + 1);
    let deepest = d.root().descendants().last().unwrap();
    assert_eq!(deepest.text(), Some("x"));
    let mut depth = 0;
    let mut at = deepest;
    while let Some(p) = at.parent() {
        depth += 1;
        at = p;
    }
    assert_eq!(depth, n);
    assert_eq!(d.root().text_content(), "x");
    let e = d.to_element();
    assert_eq!(e.text_content(), "x");
    let mut w = Writer::new(Vec::new());
    w.write_element(&e).unwrap();
    assert!(w.finish().is_ok());
}

#[test]
fn send_and_debug() {
    fn send<T: Send>() {}
    send::<Document>();
    send::<Element>();
    send::<Reader<'static, &'static [u8]>>();
    send::<Writer<Vec<u8>>>();
    send::<thicket_leafxml::Error>();
    let d = Document::parse(b"<a k='v'>t</a>").unwrap();
    let shown = format!("{d:?} {:?}", d.root().children().next().unwrap());
    assert!(
        shown.contains("Document") && shown.contains("Text"),
        "{shown}"
    );
    let w = Writer::new(Vec::new()).with_indent(1);
    assert!(format!("{w:?}").contains("indent: Some(1)"));
}
