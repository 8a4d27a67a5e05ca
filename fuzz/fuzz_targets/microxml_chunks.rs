#![no_main]
//! thicket-microxml: the tokens (text runs joined: a streaming tokenizer hands text out in
//! `Data` pieces), tree, spans and diagnostics (in order) are the same fed whole and fed in
//! chunks, through `parse_with` (whose fast path this differential-tests against the modes:
//! the streaming `Parser` has none), the streaming `Parser` and the `Checker`; token spans,
//! pieces included, tile the input; tree spans hold their markup. Half the inputs run with low
//! limits.

use libfuzzer_sys::fuzz_target;
use thicket_input::Limits;
use thicket_microxml::{Options, parse_with};
use thicket_testkit::runners::microxml::{
    check_chunks_streaming, check_lossless, check_tree_spans, join_data, parse_chunks,
    tokenize_chunks, tokenize_pieces, tree_spans,
};

#[path = "split.rs"]
mod split;

fuzz_target!(|data: &[u8]| {
    let limited = data.first().is_some_and(|b| b & 0x80 != 0);
    let (text, cuts) = split::text_and_chunks(data);
    let limits = if limited {
        Limits::none()
            .with_max_depth(3)
            .with_max_attributes(2)
            .with_max_name_len(4)
            .with_max_value_len(5)
            .with_max_diagnostics(4)
    } else {
        Limits::none()
    };
    for base in [Options::default(), Options::upstream()] {
        let options = Options { limits, ..base };
        let chunks = split::chunks(&text, &cuts);
        let whole_tokens = tokenize_chunks(&[&text], options);
        if let Err(e) = check_lossless(&text, &whole_tokens.0) {
            panic!("token spans: {e}");
        }
        let pieces = tokenize_pieces(&chunks, options);
        if let Err(e) = check_lossless(&text, &pieces.0) {
            panic!("piece spans at {cuts:?}: {e}");
        }
        assert_eq!(
            (join_data(pieces.0), pieces.1),
            whole_tokens,
            "tokens or diagnostics differ when split at {cuts:?}"
        );
        let whole = parse_with(&text, options);
        if let Err(e) = check_tree_spans(&text, &whole) {
            panic!("tree spans: {e}");
        }
        let chunked = parse_chunks(&chunks, options);
        assert_eq!(whole, chunked, "trees or diagnostics differ at {cuts:?}");
        assert_eq!(
            tree_spans(&whole.document),
            tree_spans(&chunked.document),
            "tree spans differ at {cuts:?}"
        );
        let ((tokens, diagnostics), omitted) = check_chunks_streaming(&chunks, options);
        assert_eq!(tokens, whole_tokens.0, "checker tokens differ at {cuts:?}");
        assert_eq!(diagnostics, whole.diagnostics, "checker diagnostics differ at {cuts:?}");
        assert_eq!(omitted, whole.omitted_diagnostics);
        if let Some(cap) = limits.max_diagnostics {
            assert!(whole.diagnostics.len() <= cap);
        }
    }
});
