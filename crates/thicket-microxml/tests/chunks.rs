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
