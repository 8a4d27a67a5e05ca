//! The owned tree's memory: `Element::heap_size` counts every allocation the tree holds, lists
//! and strings are allocated at their final size, names are shared, and a tree holds at most 8
//! bytes per input byte on corpus-like documents (and on the corpus, when it is there).

use std::path::PathBuf;

use thicket_leafxml::{Element, Name, Node};

/// The bound of issue 15: bytes an `Element` tree may hold per input byte.
const BOUND: usize = 8;

fn within_bound(name: &str, bytes: &[u8]) {
    let root = Element::parse(bytes).expect("decodes");
    let held = root.heap_size();
    assert!(
        held <= BOUND * bytes.len(),
        "{name}: the tree holds {held} bytes for {} input bytes",
        bytes.len()
    );
}

#[test]
fn heap_size_counts_every_allocation() {
    let root = Element::parse(b"<a k='vv'><b/>t</a>").unwrap();
    // Names "a", "k", "b": two counts, a box pointer and the text, once each.
    let names = 3 * (16 + 16) + 3;
    // The children list (2 nodes), the boxed `b`, the text, the attribute list and its value.
    let lists = 2 * 24 + 64 + 1 + 40 + 2;
    assert_eq!(root.heap_size(), names + lists);
}

#[test]
fn lists_and_strings_are_allocated_at_their_final_size() {
    let mut doc = String::from("<r xmlns:p='urn:p'>");
    for i in 0..100 {
        doc.push_str(&format!(
            "<e a='{i}' p:b='x &amp; y'>t&amp;{i}<![CDATA[c]]><f/></e>\n"
        ));
    }
    doc.push_str("</r>");
    let root = Element::parse(doc.as_bytes()).unwrap();
    for e in root.descendants() {
        assert_eq!(e.children.capacity(), e.children.len());
        assert_eq!(e.attributes.capacity(), e.attributes.len());
        for a in &e.attributes {
            assert_eq!(a.value.capacity(), a.value.len());
        }
        for t in e.children.iter().filter_map(|n| match n {
            Node::Text(t) => Some(t),
            Node::Element(_) => None,
        }) {
            assert_eq!(t.capacity(), t.len(), "{t:?}");
        }
    }
}

#[test]
fn names_and_namespaces_are_shared_within_a_tree() {
    let root = Element::parse(
        b"<r xmlns='urn:d' xmlns:p='urn:p'><e p:a='1'/><e p:a='2'/><p:e a='3'/></r>",
    )
    .unwrap();
    let e: Vec<&Element> = root.child_elements().collect();
    assert!(Name::ptr_eq(&e[0].local_name, &e[1].local_name));
    assert!(Name::ptr_eq(&e[0].local_name, &e[2].local_name));
    let ns = |e: &Element| e.namespace.clone().unwrap();
    assert!(Name::ptr_eq(&ns(&root), &ns(e[0])));
    let [a0, a1, a2] = [e[0], e[1], e[2]].map(|e| e.attributes[0].clone());
    assert!(Name::ptr_eq(&a0.local_name, &a1.local_name));
    assert!(Name::ptr_eq(&a0.local_name, &a2.local_name));
    assert!(Name::ptr_eq(
        a0.namespace.as_ref().unwrap(),
        e[2].namespace.as_ref().unwrap()
    ));
    assert_eq!(a2.namespace, None);
    // A document's tree shares the document's names.
    let doc = thicket_leafxml::Document::parse(b"<r><e/><e/></r>").unwrap();
    let (one, two) = (doc.to_element(), doc.to_element());
    let e: Vec<&Element> = one.child_elements().chain(two.child_elements()).collect();
    assert!(
        e.windows(2)
            .all(|w| Name::ptr_eq(&w[0].local_name, &w[1].local_name))
    );
    assert_eq!(e.len(), 4);
}

/// Documents shaped like the corpus files that cost the most per byte: short elements, one
/// word of text each, indentation between them (content-venn.svg, large.plist), and empty
/// elements with a prefixed attribute in a prefixed namespace (document.xml). The list is the
/// tightest (7.67 bytes per input byte: a word more per element would exceed the bound).
#[test]
fn corpus_like_documents_hold_at_most_8_bytes_per_input_byte() {
    let mut list = String::from(
        "<svg xmlns='http://www.w3.org/2000/svg'>\n <div xmlns='http://www.w3.org/1999/xhtml'>\n  <ul>\n",
    );
    for word in [
        "a", "abbr", "address", "area", "article", "aside", "b", "bdi",
    ]
    .repeat(20)
    {
        list.push_str(&format!("   <li><code>{word}</code></li>\n"));
    }
    list.push_str("  </ul>\n </div>\n</svg>\n");
    let mut plist = String::from("<plist version='1.0'>\n<dict>\n");
    for i in 0..200 {
        plist.push_str(&format!(
            "\t<key>appIdentifier</key>\n\t<string>app{i}</string>\n\t<array>\n\t\t<dict>\n\t\t\t<key>k</key>\n\t\t\t<true/>\n\t\t</dict>\n\t</array>\n"
        ));
    }
    plist.push_str("</dict>\n</plist>\n");
    let mut word = String::from(
        "<w:document xmlns:w='http://schemas.openxmlformats.org/wordprocessingml/2006/main'><w:body>",
    );
    for _ in 0..200 {
        word.push_str("<w:tc><w:tcPr><w:tcW w:w='4986' w:type='dxa'/><w:jc w:val='left'/><w:shd w:fill='auto' w:val='clear'/></w:tcPr></w:tc>");
    }
    word.push_str("</w:body></w:document>");
    for (name, doc) in [("list", list), ("plist", plist), ("word", word)] {
        within_bound(name, doc.as_bytes());
    }
}

#[test]
fn corpus_files_hold_at_most_8_bytes_per_input_byte() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/xml");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let bytes = std::fs::read(entry.path()).expect("reads");
        // sample_ns.xml declares `xmlns=""`, which LeafXML rejects.
        if Element::parse(&bytes).is_ok() {
            within_bound(&name, &bytes);
        }
    }
}
