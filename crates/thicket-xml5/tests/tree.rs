//! Tree construction: depth, namespaces, streaming, and the serializer's round trip.

use proptest::prelude::*;
use thicket_xml5::{Document, Element, NodeData};
use thicket_xml5::{Options, Parsed, Parser, Profile, parse_with, serialize};

#[test]
fn a_million_nested_elements_build_and_drop() {
    let n = 1_000_000;
    let mut input = String::with_capacity(n * 7);
    for _ in 0..n {
        input.push_str("<a>");
    }
    input.push('x');
    for _ in 0..n {
        input.push_str("</a>");
    }
    let Parsed {
        document: doc,
        diagnostics,
        ..
    } = parse_with(&input, Options::default());
    assert!(diagnostics.is_empty(), "{:?}", diagnostics.first());
    assert_eq!(doc.len(), n + 2);
    // The serializer is iterative too.
    let out = serialize(&doc);
    assert_eq!(out.len(), input.len());
    drop(doc);
}

#[test]
fn namespaces_resolve_with_recovery() {
    let Parsed {
        document: doc,
        diagnostics,
        ..
    } = parse_with(
        "<r xmlns='urn:d' xmlns:p='urn:p'><p:a p:x='1' y='2'/><q:b/></r>",
        Options::default(),
    );
    let root = doc.root_element().unwrap();
    let r = doc.element(root).unwrap();
    assert_eq!(r.namespace.as_deref(), Some("urn:d"));
    let kids = doc.children(root);
    let a = doc.element(kids[0]).unwrap();
    assert_eq!(a.namespace.as_deref(), Some("urn:p"));
    assert_eq!(
        doc.attributes(kids[0]).get(0).unwrap().namespace(),
        Some("urn:p")
    );
    assert_eq!(doc.attributes(kids[0]).get(1).unwrap().namespace(), None);
    let b = doc.element(kids[1]).unwrap();
    assert_eq!(b.namespace, None);
    assert_eq!(b.prefix.as_deref(), Some("q"));
    assert_eq!(diagnostics.len(), 1);
    assert_eq!(diagnostics[0].code.as_str(), "unbound-prefix");
}

#[test]
fn streaming_parser_gives_the_same_tree() {
    let input = "<?xml version='1.0'?><!DOCTYPE r [<!ENTITY x '>'>]><r a='&amp;&#65;'>t&lt;<![CDATA[c]]><!--k--><?p d?></r>";
    let Parsed {
        document: whole,
        diagnostics: d1,
        ..
    } = parse_with(input, Options::default());
    for cut in 0..=input.len() {
        let mut p = Parser::new(Options::default());
        p.feed(&input[..cut]);
        p.feed(&input[cut..]);
        let Parsed {
            document: doc,
            diagnostics: d2,
            ..
        } = p.finish();
        assert_eq!(doc, whole, "split at {cut}");
        assert_eq!(d1, d2, "split at {cut}");
    }
    assert_eq!(
        whole.xml_declaration.as_ref().unwrap().version.as_deref(),
        Some("1.0")
    );
    assert!(d1.is_empty(), "{d1:?}");
}

#[test]
fn user_entities_are_text_never_reparsed() {
    let mut map = thicket_xml5::EntityMap::new();
    map.insert("bomb".into(), "&bomb;<b/>".into());
    let options = Options {
        profile: Profile::Draft,
        entities: Some(std::sync::Arc::new(map)),
        ..Options::default()
    };
    let Parsed {
        document: doc,
        diagnostics,
        ..
    } = parse_with("<a>&bomb;</a>", options);
    let root = doc.root_element().unwrap();
    assert_eq!(doc.text_content(root), "&bomb;<b/>");
    assert_eq!(doc.children(root).len(), 1);
    assert!(diagnostics.is_empty());
}

fn name() -> impl Strategy<Value = String> {
    "[a-z][a-z0-9._é-]{0,4}"
}

fn text() -> impl Strategy<Value = String> {
    "[^\u{0}]{1,12}"
}

#[derive(Clone, Debug)]
enum Gen {
    Element(String, Vec<(String, String)>, Vec<Gen>),
    Text(String),
    Comment(String),
    Pi(String, String),
}

fn gen_node() -> impl Strategy<Value = Gen> {
    let leaf = prop_oneof![
        text().prop_map(Gen::Text),
        "([^\u{0}\r>-][^\u{0}\r-]{0,7})?".prop_map(Gen::Comment),
        (
            name().prop_filter("not xml", |n| !n.starts_with("xml")),
            "([^\u{0}?\t\n\r ][^\u{0}\r?]{0,6})?"
        )
            .prop_map(|(t, d)| Gen::Pi(t, d)),
    ];
    leaf.prop_recursive(4, 40, 5, |inner| {
        (
            name(),
            proptest::collection::btree_map(name(), "[^\u{0}]{0,6}", 0..3),
            proptest::collection::vec(inner, 0..5),
        )
            .prop_map(|(n, attrs, kids)| Gen::Element(n, attrs.into_iter().collect(), kids))
    })
}

fn build(doc: &mut Document, parent: thicket_xml5::NodeId, g: &Gen) {
    match g {
        Gen::Element(n, attrs, kids) => {
            let id = doc.append_element(
                parent,
                Element::new(None, None, n.clone().into()),
                attrs.iter().map(|(k, v)| thicket_xml5::TreeAttribute {
                    namespace: None,
                    prefix: None,
                    local: k.clone().into(),
                    value: v.clone().into(),
                }),
            );
            for k in kids {
                build(doc, id, k);
            }
        }
        Gen::Text(t) => {
            doc.append(parent, NodeData::Text(t.clone().into()));
        }
        Gen::Comment(c) => {
            doc.append(parent, NodeData::Comment(c.clone().into()));
        }
        Gen::Pi(t, d) => {
            doc.append(
                parent,
                NodeData::Pi {
                    target: t.clone().into(),
                    data: d.clone().into(),
                },
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// A generated tree, written and parsed again, is the same tree.
    #[test]
    fn serializer_round_trip(
        before in proptest::collection::vec("([^\u{0}\r>-][^\u{0}\r-]{0,4})?", 0..2),
        root in (name(), proptest::collection::vec(gen_node(), 0..6)),
    ) {
        let mut doc = Document::new();
        let top = doc.root();
        for c in &before {
            doc.append(top, NodeData::Comment(c.clone().into()));
        }
        build(&mut doc, top, &Gen::Element(root.0.clone(), vec![], root.1.clone()));
        let xml = serialize(&doc);
        let Parsed { document: back, .. } = parse_with(&xml, Options::default());
        prop_assert_eq!(back.dump(), doc.dump(), "{}", xml);
    }

    /// Whatever the parser builds, it builds again from the serializer's output.
    #[test]
    fn parsed_trees_round_trip(input in "([<>/?!=&;:'\" a-c\\-\\[\\]x#]|xmlns|<!--|-->|<!\\[CDATA\\[|\\]\\]>|&amp;|&#6|<?p|\\?>|<!DOCTYPE ){0,40}") {
        let Parsed { document: doc, .. } = parse_with(&input, Options::default());
        // An attribute name starting with `:` (read after a valueless attribute) has no written
        // form that reads back: after `name="value"` a `:` is skipped (colon-before-attr).
        let colon_attribute = (0..doc.len()).any(|i| {
            doc.attributes(thicket_xml5::NodeId::from_index(i))
                .any(|a| a.qualified_name().starts_with(':'))
        });
        prop_assume!(!colon_attribute);
        let xml = serialize(&doc);
        let Parsed { document: back, .. } = parse_with(&xml, Options::default());
        prop_assert_eq!(back.dump(), doc.dump(), "input {:?} written {:?}", input, xml);
    }
}

#[test]
fn bytes_are_decoded_from_the_bom_or_the_declaration() {
    let p = thicket_xml5::parse_bytes_with(
        b"<?xml version='1.0' encoding='ISO-8859-1'?><a>\xE9</a>",
        Options::default(),
    );
    assert_eq!(p.encoding.name(), "windows-1252");
    let root = p.document.root_element().unwrap();
    assert_eq!(p.document.text_content(root), "é");
    assert_eq!(
        p.document
            .xml_declaration
            .as_ref()
            .unwrap()
            .encoding
            .as_deref(),
        Some("ISO-8859-1")
    );
    let utf16: Vec<u8> = "\u{FEFF}<a>x</a>"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    let p = thicket_xml5::parse_bytes_with(&utf16, Options::default());
    assert_eq!(p.encoding.name(), "UTF-16LE");
    assert_eq!(p.document.dump(), "<a>\n  \"x\"\n");
    assert!(p.diagnostics.is_empty());
}

#[test]
fn user_entities_in_the_compatibility_profile() {
    let mut map = thicket_xml5::EntityMap::new();
    map.insert("product".into(), "Thicket".into());
    let options = Options {
        profile: Profile::Compatibility,
        entities: Some(std::sync::Arc::new(map)),
        ..Options::default()
    };
    let Parsed {
        document: doc,
        diagnostics,
        ..
    } = parse_with("<a t='&product;'>&product; &amp; &nope;</a>", options);
    let root = doc.root_element().unwrap();
    assert_eq!(doc.text_content(root), "Thicket & &nope;");
    assert_eq!(doc.attributes(root).get(0).unwrap().value(), "Thicket");
    assert_eq!(diagnostics.len(), 1);
    assert_eq!(
        diagnostics[0].code.as_str(),
        "unknown-named-character-reference"
    );
}

#[test]
fn bytes_parser_matches_parse_bytes_for_any_chunking() {
    let mut input = b"\xEF\xBB\xBF<?xml version='1.0' encoding='UTF-8'?><r>".to_vec();
    for i in 0..300 {
        input.extend_from_slice(format!("<e n='{i}'>caf\u{e9} \u{65e5}\u{672c}</e>").as_bytes());
    }
    input.extend_from_slice(b"\xFF</r>");
    let whole = thicket_xml5::parse_bytes_with(&input, Options::default());
    assert!(whole.had_decoding_errors);
    for size in [1, 2, 3, 7, 1000, 1024, 5000, input.len()] {
        let mut p = thicket_xml5::BytesParser::new(Options::default());
        for chunk in input.chunks(size) {
            p.feed(chunk);
        }
        let got = p.finish();
        assert_eq!(got.encoding, whole.encoding, "chunks of {size}");
        assert_eq!(got.document, whole.document, "chunks of {size}");
        assert_eq!(got.diagnostics, whole.diagnostics, "chunks of {size}");
        assert!(got.had_decoding_errors);
    }
    let p = thicket_xml5::BytesParser::new(Options::default());
    assert_eq!(p.finish().encoding.name(), "UTF-8");
}

/// Children past the few kept inline in a node stay in order.
#[test]
fn many_children_in_order() {
    let thicket_xml5::Parsed { document: doc, .. } = thicket_xml5::parse_with(
        "<r><a/><b/><c/><d/><e/><f/><g/><h/><i/></r>",
        thicket_xml5::Options::default(),
    );
    let root = doc.root_element().expect("root element");
    let names: Vec<String> = doc
        .children(root)
        .iter()
        .filter_map(|&c| doc.element(c).map(|e| e.qualified_name()))
        .collect();
    assert_eq!(names, ["a", "b", "c", "d", "e", "f", "g", "h", "i"]);
    for &c in doc.children(root) {
        assert_eq!(doc.parent(c), Some(root));
    }
}

/// Past sixteen bindings in scope, lookups go through the per-prefix map instead of scanning
/// the bindings: both give the innermost declaration, and leaving an element undoes its own.
#[test]
fn many_bindings_in_scope() {
    let n = 40;
    let mut input = String::from("<root>");
    for i in 0..n {
        input.push_str(&format!(
            "<e{i} xmlns:p{i}='urn:{i}' xmlns='urn:d{i}' xmlns:q='urn:q{i}'>"
        ));
    }
    for i in 0..n {
        input.push_str(&format!("<p{i}:x q:y='1'/>"));
    }
    input.push_str("<z/>");
    for i in (0..n).rev() {
        input.push_str(&format!("</e{i}><q:after{i}/>"));
    }
    input.push_str("</root>");
    let Parsed {
        document: doc,
        diagnostics,
        ..
    } = parse_with(&input, Options::default());
    let mut leaves = Vec::new();
    let mut stack = vec![doc.root()];
    while let Some(id) = stack.pop() {
        if doc.children(id).is_empty()
            && let Some(e) = doc.element(id)
        {
            leaves.push((
                e.clone(),
                doc.attributes(id)
                    .map(|a| a.to_attribute())
                    .collect::<Vec<_>>(),
            ));
        }
        stack.extend(doc.children(id).iter().rev());
    }
    for (i, (e, attributes)) in leaves.iter().take(n).enumerate() {
        assert_eq!(e.prefix.as_deref(), Some(format!("p{i}").as_str()));
        assert_eq!(e.namespace.as_deref(), Some(format!("urn:{i}").as_str()));
        assert_eq!(attributes[0].namespace.as_deref(), Some("urn:q39"));
    }
    assert_eq!(leaves[n].0.namespace.as_deref(), Some("urn:d39"));
    // After `</e{i}>` the bindings of e{i-1} are in scope again; after `</e0>` none is.
    for i in 1..n {
        let e = &leaves[n + 1 + (n - 1 - i)].0;
        assert_eq!(e.local, format!("after{i}"));
        assert_eq!(
            e.namespace.as_deref(),
            Some(format!("urn:q{}", i - 1).as_str())
        );
    }
    let last = &leaves.last().unwrap().0;
    assert_eq!(last.local, "after0");
    assert_eq!(last.namespace, None);
    let codes: Vec<&str> = diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["unbound-prefix"]);
}

/// End tags that do not close the current element: one that names an open element closes up to
/// it, a stray one is ignored.
#[test]
fn mismatched_end_tags() {
    let Parsed {
        document: doc,
        diagnostics,
        ..
    } = parse_with("<a><b><c></b>x</y><d></a>", Options::default());
    assert_eq!(doc.dump(), "<a>\n  <b>\n    <c>\n  \"x\"\n  <d>\n");
    let codes: Vec<&str> = diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(
        codes,
        [
            "mismatched-end-tag",
            "mismatched-end-tag",
            "mismatched-end-tag"
        ]
    );
}

/// Child lists built by appending to parents in any order (each list grows in place or moves
/// to the end of the shared list) read back in order, and the document equals the one the
/// parser builds from the same markup, whatever the lists' layout.
#[test]
fn appends_in_any_order_keep_child_order() {
    let mut doc = Document::new();
    let root = doc.root();
    let r = doc.append(
        root,
        NodeData::Element(Element::new(None, None, "r".into())),
    );
    let mut kids = Vec::new();
    for i in 0..6 {
        kids.push(doc.append(
            r,
            NodeData::Element(Element::new(None, None, format!("k{i}").into())),
        ));
    }
    for round in 0..5 {
        for (i, &k) in kids.iter().enumerate().rev() {
            doc.append_element(
                k,
                Element::new(None, None, format!("g{round}").into()),
                [thicket_xml5::TreeAttribute {
                    namespace: None,
                    prefix: None,
                    local: "n".into(),
                    value: format!("{i}").into(),
                }],
            );
        }
    }
    let mut markup = String::from("<r>");
    for i in 0..6 {
        markup.push_str(&format!("<k{i}>"));
        for round in 0..5 {
            markup.push_str(&format!("<g{round} n='{i}'/>"));
        }
        markup.push_str(&format!("</k{i}>"));
    }
    markup.push_str("</r>");
    let Parsed {
        document: parsed, ..
    } = parse_with(&markup, Options::default());
    assert_eq!(doc.dump(), parsed.dump());
    // Node ids differ (the parser numbers in document order), so compare a rebuilt copy.
    let mut streamed = Parser::new(Options::default());
    streamed.feed(&markup);
    let Parsed {
        document: streamed, ..
    } = streamed.finish();
    assert!(parsed == streamed);
    assert_eq!(doc.children(kids[3]).len(), 5);
    assert_eq!(
        doc.attributes(doc.children(kids[3])[4])
            .get(0)
            .unwrap()
            .value(),
        "3"
    );
}

/// Tag-heavy markup with namespaces: plain tags (which `parse` builds without tokens), odd ones,
/// text, references, comments.
fn tree_markup() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("<a>".to_owned()),
        Just("<p:a>".to_owned()),
        Just("<b/>".to_owned()),
        Just("<q:b x='1' p:y=\"2\"/>".to_owned()),
        Just("</a>".to_owned()),
        Just("</p:a>".to_owned()),
        Just("</b>".to_owned()),
        Just("</>".to_owned()),
        Just("<a xmlns='urn:d' xmlns:p='urn:p'>".to_owned()),
        Just("<c xmlns:p='urn:q' xmlns:q='urn:p' p:x='1' q:x='2'>".to_owned()),
        Just("<c xmlns:p='' xmlns='' a=\"&amp;\">".to_owned()),
        Just("<d xmlns:xml='urn:x' xmlns:xmlns='urn:y' b:c:d='e' :f='g'>".to_owned()),
        Just("</c>".to_owned()),
        Just("</d>".to_owned()),
        Just("<e x='1' x='2'>".to_owned()),
        Just("<!--c-->".to_owned()),
        Just("<?p d?>".to_owned()),
        Just("<!DOCTYPE a>".to_owned()),
        Just("<![CDATA[t]]>".to_owned()),
        Just("&lt;".to_owned()),
        "[ \ta-c<>&\n]{1,3}",
    ];
    proptest::collection::vec(piece, 0..24).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// `parse` (whole input: plain tags go to the builder without tokens) builds the same
    /// document with the same diagnostics as the streaming parser (tokens only).
    #[test]
    fn direct_building_matches_tokens(input in tree_markup()) {
        for profile in [Profile::Draft, Profile::Compatibility] {
            let options = Options::with_profile(profile);
            let Parsed { document: doc, diagnostics, .. } = parse_with(&input, options.clone());
            let mut p = Parser::new(options);
            p.feed(&input);
            let Parsed { document: streamed, diagnostics: streamed_diagnostics, .. } = p.finish();
            prop_assert_eq!(doc.dump(), streamed.dump());
            prop_assert!(doc == streamed);
            prop_assert_eq!(diagnostics, streamed_diagnostics);
        }
    }
}
