//! The fast paths give the same events and errors (code, line, column, offset) as the general
//! code, on generated documents and the corpus (the suite runner compares every suite case
//! too). Chunked reading hardly ever gives a fast path enough input, so whole documents are
//! compared here.

use std::path::PathBuf;

use proptest::prelude::*;
use thicket_leafxml::{Error, Event, Reader};

/// Every event up to the end or the first error, and that error.
type Decoded = (Vec<Event<'static>>, Option<Error>);

fn decode(bytes: &[u8], fast: bool) -> Decoded {
    let mut reader = Reader::from_bytes(bytes);
    if !fast {
        reader = reader.without_fast_paths();
    }
    let mut events = Vec::new();
    loop {
        match reader.next_owned() {
            Ok(Some(e)) => events.push(e),
            Ok(None) => return (events, None),
            Err(e) => return (events, Some(e)),
        }
    }
}

fn same(bytes: &[u8]) -> Result<(), TestCaseError> {
    let fast = decode(bytes, true);
    let plain = decode(bytes, false);
    prop_assert_eq!(fast, plain, "{:?}", String::from_utf8_lossy(bytes));
    Ok(())
}

fn name() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "a",
        "b",
        "p:a",
        "q:b",
        "p:b",
        "a1",
        "_x",
        "a.b",
        "a-b",
        "xmlns",
        "xmlns:p",
        "xmlns:q",
        "xmlns:xml",
        "xmlns:xmlns",
        "xml:lang",
        "p:",
        ":a",
        "p:1",
        "p:a:b",
        "1a",
        "-a",
        "é",
        "aé",
        "e\u{301}",
        "a<",
        "",
        "xmlns:1",
    ])
}

fn space() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        " ", " ", " ", "", "  ", "\t", "\n", "\r\n", "\r", "\u{85}", "\u{2028}", " \n ",
    ])
}

fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[a-z0-9:/.]{0,12}",
        3 => "[a  x]{0,12}",
        2 => "[a \t\n&;é\u{301}x]{0,12}",
        2 => "[a &;<\t\n\r\u{85}\u{2028}\u{2026}é\u{301}'\"x#]{0,12}",
        1 => "(&amp;|&lt;|&#x41;|&#65;|&#x85;|&#x2028;|&bogus;|&|x|  | |\u{301}|é){0,6}",
        1 => "[a-z ]{30,80}",
        1 => "[a-z &\n\u{85}é\t]{30,80}",
        1 => "[a-z &\né\t]{30,80}",
        1 => Just("urn:x".to_owned()),
        1 => Just("http://www.w3.org/XML/1998/namespace".to_owned()),
        1 => Just("http://www.w3.org/2000/xmlns/".to_owned()),
    ]
}

/// ` name = "value"` with variations in every part.
fn attribute() -> impl Strategy<Value = String> {
    (
        space(),
        name(),
        space(),
        space(),
        prop::sample::select(vec!['"', '\'']),
        value(),
        any::<u8>(),
    )
        .prop_map(|(s0, n, s1, s2, q, v, odd)| {
            let v = match (q, odd % 8) {
                ('"', 0) => format!("{v}\""),
                ('\'', 0) => format!("{v}'"),
                _ => v,
            };
            let (s1, s2) = if odd % 3 == 0 { (s1, s2) } else { ("", "") };
            let eq = if odd == 255 { "" } else { "=" };
            format!("{s0}{n}{s1}{eq}{s2}{q}{v}{q}")
        })
}

/// A tag: `<name attrs>`, `<name attrs/>`, `</name>` and broken forms.
fn tag() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec!["<", "<", "<", "</"]),
        name(),
        proptest::collection::vec(attribute(), 0..5),
        space(),
        prop::sample::select(vec![">", ">", "/>", "/ >", "", "/"]),
    )
        .prop_map(|(open, n, attrs, s, close)| format!("{open}{n}{}{s}{close}", attrs.concat()))
}

fn content() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[a-z \n]{0,8}",
        2 => "[a \né日か\u{3099}\u{301}\u{2026}한😀\u{c5}\u{2028}\u{85}\u{302a}\u{ff01}]{0,20}",
        1 => "[a&;\r\n\u{85}\u{2028}é\u{301} ]{0,60}",
        1 => "[a-z \n\té\u{2026}日]{50,150}",
        1 => "[a-z \n&;é\r\u{301}\u{85}]{50,150}",
        1 => Just("<!-- c -->".to_owned()),
        1 => Just("<![CDATA[x]]>".to_owned()),
    ]
}

/// A root `<r ...>` with declarations, then tags and content, then `</r>`.
fn document() -> impl Strategy<Value = String> {
    (
        proptest::collection::vec(attribute(), 0..3),
        proptest::collection::vec((tag(), content()), 0..8),
        any::<bool>(),
    )
        .prop_map(|(decls, body, close)| {
            let mut doc = format!("<r xmlns:p='urn:p' xmlns:q=\"urn:q\"{}>", decls.concat());
            for (t, c) in body {
                doc.push_str(&t);
                doc.push_str(&c);
            }
            if close {
                doc.push_str("</r>");
            }
            doc
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("LEAFXML_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(2000)
    ))]

    #[test]
    fn fast_paths_agree_on_documents(doc in document()) {
        same(doc.as_bytes())?;
    }

    #[test]
    fn fast_paths_agree_on_lone_tags(t in tag(), c in content()) {
        same(format!("<r xmlns:p='urn:p'>{c}{t}{c}</r>").as_bytes())?;
        same(t.as_bytes())?;
    }
}

/// Values next to the edges of the fast path: spaces, escapes, line breaks, long values.
#[test]
fn fast_paths_agree_on_values() {
    let long = "x".repeat(40);
    let parts = [
        "", " ", "  ", "a", "a b", "a  b", " a", "a ", "&amp;", "&bogus;", "&", "\t", "\n", "\r",
        "\r\n", "\u{85}", "\u{2028}", "\u{2026}", "é", "e\u{301}", "<", "'", "\"", &long,
    ];
    for a in parts {
        for b in parts {
            for q in ['"', '\''] {
                let doc = format!("<r\nx={q}{a}{b}{q} y={q}{b}{a}{b}{q}>{a}</r>");
                same(doc.as_bytes()).unwrap();
                let doc =
                    format!("<r><e x={q}{a}{long}{b}{q}/>\n<e y={q}{b}{long}{a}{long}{q} /></r>");
                same(doc.as_bytes()).unwrap();
            }
        }
    }
}

/// Line breaks, spaces, escapes and non-ASCII codepoints at every offset around the end of the
/// short scans (32 bytes of a value, 64 of a text), where the long scans take over.
#[test]
fn fast_paths_agree_at_the_short_scan_ends() {
    let parts = [
        "  ", " ", "\n", "\r", "\t", "&amp;", "\u{85}", "\u{2028}", "é", "日", "e\u{301}",
        "\u{1f71}", "😀", "<",
    ];
    for k in 20..72 {
        let pad = "a".repeat(k);
        for p in parts {
            for q in ['"', '\''] {
                let doc = format!("<r x={q}{pad}{p}b{q}>\n{pad}{p}b</r>");
                same(doc.as_bytes()).unwrap();
                let doc = format!("<r x={q}{pad}{p}{q}>{pad}{p}</r>");
                same(doc.as_bytes()).unwrap();
            }
        }
    }
}

/// Tags with up to twelve attributes, with and without repeated names (the fast path's
/// duplicate check sorts above eight).
#[test]
fn fast_paths_agree_on_many_attributes() {
    let names = [
        "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "p:a", "q:a",
    ];
    for n in 1..=12 {
        for repeat in 0..n {
            let mut attrs: Vec<&str> = names[..n].to_vec();
            attrs[repeat] = names[n / 2];
            let tag: String = attrs.iter().map(|a| format!(" {a}='1'")).collect();
            same(format!("<r xmlns:p='urn:x' xmlns:q='urn:x'><e{tag}/></r>").as_bytes()).unwrap();
            let tag: String = names[..n].iter().map(|a| format!(" {a}='1'")).collect();
            same(format!("<r xmlns:p='urn:x' xmlns:q='urn:y'><e{tag}/></r>").as_bytes()).unwrap();
        }
    }
}

/// A tag without attributes after tags with external attributes and declarations (the
/// shortcut for tags without attributes leaves nothing of the tag before it).
#[test]
fn fast_paths_agree_after_external_attributes() {
    for doc in [
        "<r xmlns:p='urn:p'><a p:x='1'/><b/><c p:x='1' p:y='2'></c><d></d></r>",
        "<r xmlns:p='urn:p'><a p:x='1'><b/></a><p:c/><d xmlns='urn:d'><e/></d><f/></r>",
        "<r xmlns:p='urn:p'><a xmlns:p='urn:q' p:x='1'><b/></a><b/><p:c/></r>",
    ] {
        same(doc.as_bytes()).unwrap();
    }
}

/// Every corpus document (when present), both ways.
#[test]
fn fast_paths_agree_on_the_corpus() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/xml");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("no corpus at {}; skipped", dir.display());
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let bytes = std::fs::read(&path).expect("corpus file reads");
        assert_eq!(
            decode(&bytes, true),
            decode(&bytes, false),
            "{}",
            path.display()
        );
    }
}
