//! The serializer writes text that parses back to the same tree (property test over random
//! trees whose names and text use characters that need escaping or are otherwise awkward).

use proptest::prelude::*;
use thicket_microxml::{Attribute, Element, Node, Options, SerializeError, parse_with, to_string};

fn name() -> impl Strategy<Value = String> {
    let start = prop::sample::select(vec![
        'a',
        'Z',
        '_',
        ':',
        '$',
        'é',
        '中',
        '\u{10000}',
        '\u{80}',
    ]);
    let rest = prop::collection::vec(
        prop::sample::select(vec!['b', '0', '-', '.', ':', 'é', '\u{300}', '$']),
        0..4,
    );
    (start, rest).prop_map(|(s, r)| std::iter::once(s).chain(r).collect())
}

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec![
            'a', ' ', '\t', '\n', '\r', '\u{C}', '<', '>', '&', '"', '\'', ';', '#', 'x', ']', '/',
            '=', '\0', '\u{FEFF}', '\u{85}', 'é', '😀', '\u{FFFE}', '-', '!', '?',
        ]),
        0..12,
    )
    .prop_map(|v| v.into_iter().collect())
}

#[derive(Clone, Debug)]
enum Gen {
    Text(String),
    El(String, Vec<(String, String)>, Vec<Gen>),
}

fn tree() -> impl Strategy<Value = Gen> {
    let leaf = prop_oneof![
        text().prop_map(Gen::Text),
        (name(), prop::collection::vec((name(), text()), 0..3)).prop_map(|(n, a)| Gen::El(
            n,
            a,
            vec![]
        )),
    ];
    leaf.prop_recursive(5, 40, 5, |inner| {
        (
            name(),
            prop::collection::vec((name(), text()), 0..3),
            prop::collection::vec(inner, 0..5),
        )
            .prop_map(|(n, a, c)| Gen::El(n, a, c))
    })
}

/// The element the generated tree stands for, normalized as a parser would produce it.
fn build(name: &str, attrs: &[(String, String)], children: &[Gen]) -> Element {
    let mut e = Element::new(name);
    for (n, v) in attrs {
        if e.attribute(n).is_none() {
            e.attributes.push(Attribute {
                name: n.clone(),
                value: v.clone(),
            });
        }
    }
    for c in children {
        match c {
            Gen::Text(t) if t.is_empty() => {}
            Gen::Text(t) => match e.children.last_mut() {
                Some(Node::Text(prev)) => prev.push_str(t),
                _ => e.children.push(Node::Text(t.clone())),
            },
            Gen::El(n, a, c) => e.children.push(Node::Element(build(n, a, c))),
        }
    }
    e
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn serialize_then_parse_is_identity(
        root_name in name(),
        attrs in prop::collection::vec((name(), text()), 0..3),
        children in prop::collection::vec(tree(), 0..5),
    ) {
        let root = build(&root_name, &attrs, &children);
        let text = to_string(&root).unwrap();
        for options in [Options::spec(), Options::upstream()] {
            let back = parse_with(&text, options).document.to_element();
            prop_assert_eq!(&back, &root, "text: {:?}", text);
        }
    }
}

#[test]
fn names_that_cannot_be_written_are_refused() {
    for bad in ["a b", "", "1a", "a<", "a=b", "#doc-child"] {
        let e = Element::new(bad);
        assert_eq!(
            to_string(&e),
            Err(SerializeError::InvalidName(bad.to_owned()))
        );
    }
    let mut e = Element::new("ok");
    e.attributes.push(Attribute {
        name: "a'".into(),
        value: String::new(),
    });
    assert!(to_string(&e).is_err());
}

#[test]
fn doc_wrapper_is_written_as_its_children() {
    let parsed = parse_with("x<a/>y<b/>", Options::spec());
    assert_eq!(parsed.document.to_element().name, "#doc");
    let text = to_string(&parsed.document.to_element()).unwrap();
    assert_eq!(text, "x<a/>y<b/>");
    assert_eq!(
        parse_with(&text, Options::spec()).document.to_element(),
        parsed.document.to_element()
    );
}

fn markup() -> impl Strategy<Value = String> {
    let pieces = vec![
        "<",
        ">",
        "a",
        "b",
        " ",
        "=",
        "'",
        "\"",
        "/",
        "&",
        "#",
        "x",
        ";",
        "lt",
        "amp",
        "!",
        "--",
        "?",
        "[",
        "]",
        "CDATA[",
        "\r",
        "\n",
        "é",
        "1",
        "\u{C}",
        "\0",
        "<a>",
        "</a>",
        "<b x='1'>",
        "</b>",
    ];
    prop::collection::vec(prop::sample::select(pieces), 0..40).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    /// Whatever the input, a recovered tree with a real root writes out and parses back to itself.
    #[test]
    fn parse_serialize_parse_is_stable(text in markup()) {
        for options in [Options::spec(), Options::upstream()] {
            let first = parse_with(&text, options).document.to_element();
            if first.name == "#doc" {
                continue;
            }
            let written = to_string(&first).unwrap();
            let again = parse_with(&written, options);
            prop_assert_eq!(&again.document.to_element(), &first, "written: {:?}", written);
        }
    }
}
