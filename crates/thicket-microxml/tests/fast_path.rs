//! The fast path of `parse_with` (`src/fast.rs`, the one twin of the lexer's modes) against
//! the modes: random documents of plain shapes and their near misses, and every corpus file,
//! parsed whole (fast path) and fed to the streaming `Parser` one character at a time (modes
//! only) give the same tree, spans and diagnostics.

use proptest::prelude::*;
use thicket_microxml::{NamedReferences, Options, Parser, parse_with};
use thicket_testkit::runners::microxml::{corpus, tree_spans};

fn all_options() -> [Options; 3] {
    [
        Options::spec(),
        Options::upstream(),
        Options {
            named_references: NamedReferences::Html5,
            reference_tokens: true,
            ..Options::upstream()
        },
    ]
}

#[test]
fn corpus_whole_equals_char_by_char() {
    let files = corpus();
    if files.is_empty() {
        eprintln!("no corpus; skipped");
        return;
    }
    for path in files {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let name = path.display();
        for options in [Options::spec(), Options::upstream()] {
            let whole = parse_with(&text, options);
            let mut p = Parser::new(options);
            let mut buf = [0u8; 4];
            for c in text.chars() {
                p.feed(c.encode_utf8(&mut buf));
            }
            let chars = p.finish();
            assert!(chars == whole, "{name}: trees or diagnostics differ");
            assert_eq!(
                tree_spans(&chars.document),
                tree_spans(&whole.document),
                "{name}: spans differ"
            );
        }
    }
}

/// Documents of mostly plain markup (what the fast path of `parse_with` takes) with the
/// bytes that make it stop between them: references, CR, `>` in text and values, `<` in
/// values, missing whitespace, unquoted or boolean attributes, odd names, comments, PIs, a BOM.
fn documents() -> impl Strategy<Value = String> {
    let name = prop::sample::select(vec!["a", "b", "x:y", "xmlns", "é", "a$", "a.b-c"]);
    let space = prop::sample::select(vec![" ", "", "  ", "\n", "\r\n", "\t", "\r"]);
    let value = prop::sample::select(vec![
        "'v'",
        "\"w\"",
        "\"\"",
        "''",
        "'a\"b'",
        "\"&amp;\"",
        "'a&lt;b&gt;'",
        "\"&quot;&apos;\r\r\n\"",
        "'&ltx;'",
        "'&amp'",
        "'<'",
        "'>'",
        "'\r\n'",
        "'x\ry'",
        "v",
        "\"",
        "'a b'",
    ]);
    let attribute = (space.clone(), name.clone(), space.clone(), value)
        .prop_map(|(s, n, t, v)| format!("{s}{n}{t}={v}"));
    let attributes = prop::collection::vec(attribute, 0..3).prop_map(|v| v.concat());
    let start = (
        name.clone(),
        attributes.clone(),
        space.clone(),
        any::<bool>(),
    )
        .prop_map(|(n, a, s, empty)| format!("<{n}{a}{s}{}", if empty { "/>" } else { ">" }));
    let boolean = (name.clone(), attributes).prop_map(|(n, a)| format!("<{n} checked{a}>"));
    let end = (name, space).prop_map(|(n, s)| format!("</{n}{s}>"));
    let text = prop::sample::select(vec![
        "",
        "text",
        " ",
        "\n  ",
        "a > b",
        "&lt;",
        "x &amp; y",
        "&gt;&quot;",
        "&apos;",
        "&ltx;",
        "&amp",
        "&lt",
        "&nbsp;",
        "\r\n",
        "\rx",
        "\n",
        "&#x41;",
        "&",
        "<",
        "<!-- c -->",
        "<!---->",
        "<!-- a--b -->",
        "<!--x--->",
        "<!-- > -->",
        "<![CDATA[x]]>",
        "<![CDATA[a\r\nb]]]>",
        "<![CDATA[ > < & ]]>",
        "<![CDATA[",
        "<!DOCTYPE a>",
        "<!--",
        "<?pi x?>",
        "]]>",
        "\u{C}",
        "\u{85}",
        "é",
    ]);
    let piece = prop_oneof![
        3 => start,
        3 => end,
        3 => text.prop_map(str::to_owned),
        1 => boolean,
    ];
    (any::<bool>(), prop::collection::vec(piece, 0..24)).prop_map(|(bom, v)| {
        let body = v.concat();
        if bom { format!("\u{FEFF}{body}") } else { body }
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    /// `parse_with` (whole input: the fast path takes the plain units) gives the same tree and
    /// the same diagnostics as the `Parser` fed one character at a time (the modes only, since
    /// the streaming parser has no fast path).
    #[test]
    fn fast_path_agrees_with_the_modes(text in documents()) {
        for options in all_options() {
            let whole = thicket_microxml::parse_with(&text, options);
            let mut p = Parser::new(options);
            for c in thicket_testkit::chunks::chars(&text) {
                p.feed(c);
            }
            prop_assert_eq!(p.finish(), whole);
        }
    }
}
