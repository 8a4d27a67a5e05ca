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
