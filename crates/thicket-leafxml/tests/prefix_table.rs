//! The reader's table of namespace prefixes keeps the prefixes in scope, not every prefix the
//! document ever declared: a document of many distinct prefixes, each declared once, is read
//! with the right namespaces while the table is compacted under it (the positions that open
//! elements keep are remapped).

use thicket_leafxml::{EventKind, Reader};

/// `(start or end, namespace, local name)` of every element event.
fn elements(doc: &str) -> Vec<(bool, Option<String>, String)> {
    let mut reader = Reader::from_bytes(doc.as_bytes());
    let mut out = Vec::new();
    while let Some(event) = reader.next_event().expect("well-formed") {
        match event.kind {
            EventKind::Start {
                namespace,
                local_name,
                ..
            } => out.push((
                true,
                namespace.map(|n| n.into_owned()),
                local_name.into_owned(),
            )),
            EventKind::End {
                namespace,
                local_name,
            } => out.push((
                false,
                namespace.map(|n| n.into_owned()),
                local_name.into_owned(),
            )),
            _ => {}
        }
    }
    out
}

#[test]
fn many_distinct_prefixes_resolve_while_the_table_is_compacted() {
    // Ancestors bind `a`, `b` and the default namespace; under them, 20,000 siblings each
    // declare a prefix of their own, and every 1,000th one nests a child that uses an
    // ancestor's prefix and its own.
    let mut doc = String::from("<a:r xmlns:a='urn:a' xmlns='urn:d'><b:s xmlns:b='urn:b'>");
    let mut want = vec![
        (true, Some("urn:a".to_owned()), "r".to_owned()),
        (true, Some("urn:b".to_owned()), "s".to_owned()),
    ];
    for i in 0..20_000 {
        let uri = format!("urn:{i}");
        if i % 1000 == 0 {
            doc.push_str(&format!(
                "<p{i}:e xmlns:p{i}='{uri}'><a:c/><p{i}:c/><c/></p{i}:e>"
            ));
            want.push((true, Some(uri.clone()), "e".to_owned()));
            for ns in ["urn:a", &uri, "urn:d"] {
                want.push((true, Some(ns.to_owned()), "c".to_owned()));
                want.push((false, Some(ns.to_owned()), "c".to_owned()));
            }
            want.push((false, Some(uri), "e".to_owned()));
        } else {
            doc.push_str(&format!("<p{i}:e xmlns:p{i}='{uri}'/>"));
            want.push((true, Some(uri.clone()), "e".to_owned()));
            want.push((false, Some(uri), "e".to_owned()));
        }
    }
    doc.push_str("<b:t/></b:s><c/></a:r>");
    want.push((true, Some("urn:b".to_owned()), "t".to_owned()));
    want.push((false, Some("urn:b".to_owned()), "t".to_owned()));
    want.push((false, Some("urn:b".to_owned()), "s".to_owned()));
    want.push((true, Some("urn:d".to_owned()), "c".to_owned()));
    want.push((false, Some("urn:d".to_owned()), "c".to_owned()));
    want.push((false, Some("urn:a".to_owned()), "r".to_owned()));
    assert_eq!(elements(&doc), want);
}

#[test]
fn a_deep_stack_of_prefixed_elements_keeps_its_namespaces_across_compactions() {
    // 3,000 nested elements, each in a namespace of its own, closed after 20,000 other
    // prefixes came and went (the table is compacted past about 13,000): every end tag has
    // its start tag's namespace.
    let depth = 3000;
    let mut doc = String::new();
    for i in 0..depth {
        doc.push_str(&format!("<q{i}:e xmlns:q{i}='urn:q{i}'>"));
    }
    for i in 0..20_000 {
        doc.push_str(&format!("<x{i}:f xmlns:x{i}='urn:x'/>"));
    }
    for i in (0..depth).rev() {
        doc.push_str(&format!("</q{i}:e>"));
    }
    let events = elements(&doc);
    let ends: Vec<_> = events.iter().filter(|e| !e.0 && e.2 == "e").collect();
    assert_eq!(ends.len(), depth);
    for (k, e) in ends.iter().enumerate() {
        assert_eq!(
            e.1.as_deref(),
            Some(format!("urn:q{}", depth - 1 - k).as_str())
        );
    }
}
