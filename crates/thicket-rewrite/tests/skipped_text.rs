//! Text no handler reads is not handed to the core by the HTML tokenizer
//! (`Tokenizer::set_skipped_text_tokens`): the core writes the input between two tokens through.
//! Differential: edits around elements give the same output whether a (no-op) text handler
//! makes every text run a token or not, however the input is split.
#![cfg(feature = "html")]

mod common;

use common::*;
use proptest::prelude::*;
use thicket_rewrite::{ContentType, Dialect, Settings};

/// Edits on every element, and a text handler (a no-op) only when `text`.
fn edits<'h>(text: bool) -> Settings<'h> {
    let settings = Settings::new()
        .on_element("p, b", |e| {
            e.before("[", ContentType::Text);
            e.after("]", ContentType::Text);
            e.prepend("(", ContentType::Text);
            e.append(")", ContentType::Text);
        })
        .unwrap()
        .on_element("i", |e| e.remove())
        .unwrap()
        .on_element("a", |e| e.set_attribute("rel", "x"))
        .unwrap()
        .on_element("u", |e| e.unwrap())
        .unwrap();
    if text {
        settings.on_text(|_| {})
    } else {
        settings
    }
}

fn check(input: &str, chunk: usize) {
    let with = rewrite_chunked(input, Dialect::Html, edits(true), chunk);
    let without = rewrite_chunked(input, Dialect::Html, edits(false), chunk);
    assert_eq!(without, with, "chunks of {chunk}: {input:?}");
}

#[test]
fn skipped_text_is_written_where_its_token_would_be() {
    for input in [
        "a<p>b<b>c</b>d</p>e",
        "<i>gone<b>x</b> too</i> kept <u>in<a href=/>l</a>side</u>!",
        "<p>one<p>two</p>three<script>x<y</script>z<textarea>t<b></textarea>w",
        "\u{feff}<p>é</p>ü",
    ] {
        for chunk in [usize::MAX, 1, 2, 3, 7] {
            check(input, chunk);
        }
    }
}

#[test]
fn skipped_text_on_the_suite_inputs() {
    for input in &html_suite_inputs() {
        for chunk in [usize::MAX, 3] {
            check(input, chunk);
        }
    }
}

fn markup() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("<p>".to_owned()),
        Just("</p>".to_owned()),
        Just("<b>".to_owned()),
        Just("</b>".to_owned()),
        Just("<i>".to_owned()),
        Just("</i>".to_owned()),
        Just("<u>".to_owned()),
        Just("</u>".to_owned()),
        Just("<a href=x>".to_owned()),
        Just("<br>".to_owned()),
        Just("<!--c-->".to_owned()),
        "[a-z &;<>]{0,6}",
    ];
    prop::collection::vec(piece, 0..30).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn skipped_text_with_random_input_and_chunking(input in markup(), chunk in 1usize..17) {
        check(&input, chunk);
        check(&input, usize::MAX);
    }
}
