//! Chunk invariance on random markup-like inputs: the tokens, diagnostics and tree do not depend on
//! where the input is split.

use proptest::prelude::*;
use thicket_microxml::{NamedReferences, Options, Parser};
use thicket_testkit::runners::microxml::tokenize_chunks;

fn input() -> impl Strategy<Value = String> {
    let pieces = vec![
        "<", ">", "a", "b", " ", "=", "'", "\"", "/", "&", "#", "x", ";", "lt", "amp", "nbsp", "!",
        "--", "-", "?", "[", "]", "CDATA[", "DOCTYPE", "\r", "\n", "\u{C}", "é", "1", "9",
        "\u{FEFF}",
    ];
    prop::collection::vec(prop::sample::select(pieces), 0..48).prop_map(|v| v.concat())
}

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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn any_split_gives_the_same_tokens(text in input(), cuts in prop::collection::vec(0usize..200, 0..6)) {
        let chunks = thicket_testkit::chunks::split_at_positions(&text, &cuts);
        for options in all_options() {
            let whole = tokenize_chunks(&[&text], options);
            let split = tokenize_chunks(&chunks, options);
            prop_assert_eq!(&split, &whole, "chunks {:?}", chunks);
            let chars = tokenize_chunks(&thicket_testkit::chunks::chars(&text), options);
            prop_assert_eq!(&chars, &whole);
            let mut p = Parser::new(options);
            for c in &chunks {
                p.feed(c);
            }
            prop_assert_eq!(p.finish(), thicket_microxml::parse_with(&text, options));
        }
    }
}

/// Start-tags with attributes: the `="value"` fast path (taken when the closing quote is already
/// buffered) against the plain mode methods (what char-by-char feeding runs, since the input
/// then ends right after `=`).
fn attributes() -> impl Strategy<Value = String> {
    let space = prop::sample::select(vec!["", " ", "\r\n", "\t"]);
    let name = prop::sample::select(vec!["x", "y", "xmlns", "a$", "é"]);
    let value = prop::sample::select(vec![
        "='v'", "=\"w\"", "=\"\"", "=''", "= 'v'", "='a\"b'", "=\"a'b\"", "='&amp;'", "='<'",
        "='>'", "='\r\n'", "='", "=\"", "=v", "",
    ]);
    let attribute = (space, name, value).prop_map(|(s, n, v)| format!("{s}{n}{v}"));
    let end = prop::sample::select(vec![">", "/>", "", " >", "x</a>"]);
    let tag = (prop::collection::vec(attribute, 0..5), end)
        .prop_map(|(attrs, end)| format!("<a{}{end}", attrs.concat()));
    prop::collection::vec(tag, 1..4).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    #[test]
    fn quoted_value_fast_path_agrees_with_the_modes(text in attributes()) {
        for options in all_options() {
            let whole = tokenize_chunks(&[&text], options);
            let chars = tokenize_chunks(&thicket_testkit::chunks::chars(&text), options);
            prop_assert_eq!(&chars, &whole);
        }
    }
}

/// Documents of mostly plain markup (what the direct path of `parse_with` takes) with the
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

    /// `parse_with` (whole input: the direct path takes the plain units) gives the same tree and
    /// the same diagnostics as the `Parser` fed one character at a time (the modes only, since
    /// the input then ends inside every tag).
    #[test]
    fn direct_path_agrees_with_the_modes(text in documents()) {
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
