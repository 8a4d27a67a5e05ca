//! No panic and lossless spans on hostile inputs. Their cost (linear time, bounded memory) is
//! measured by `cargo xtask adversarial`, never asserted here: a quadratic regression shows there
//! as growth from 1x to 4x, and here only as a test that takes minutes.

use thicket_html::{Token, Tokenizer};

/// Tokenizes `input` in chunks of `chunk` bytes (at char boundaries) and returns (token count,
/// error count), checking that the spans tile the input.
fn run(input: &str, chunk: usize) -> (usize, usize) {
    let mut tok = Tokenizer::new();
    let mut count = 0;
    let mut at = 0;
    let mut pull = |tok: &mut Tokenizer, at: &mut usize| {
        while let Some(t) = tok.next_token() {
            let s = t.span();
            assert_eq!(s.start, *at, "spans must tile the input");
            *at = s.end;
            count += 1;
            if let Token::Eof { .. } = t {
                break;
            }
        }
    };
    let mut i = 0;
    while i < input.len() {
        let mut j = (i + chunk).min(input.len());
        while !input.is_char_boundary(j) {
            j += 1;
        }
        tok.feed(&input[i..j]);
        pull(&mut tok, &mut at);
        i = j;
    }
    tok.finish();
    pull(&mut tok, &mut at);
    assert_eq!(at, input.len());
    (count, tok.diagnostics().len())
}

#[test]
fn a_megabyte_of_less_than_signs() {
    let input = "<".repeat(1 << 20);
    let (_, errors) = run(&input, usize::MAX);
    assert_eq!(errors, 1 << 20);
    run(&input[..100_000], 7);
}

#[test]
fn an_unclosed_ten_megabyte_comment() {
    let input = format!("<!--{}", "a-b<c".repeat(2 << 20));
    let (count, errors) = run(&input, 64 * 1024);
    assert_eq!((count, errors), (2, 1));
}

#[test]
fn a_hundred_thousand_attributes() {
    let mut input = String::from("<a");
    for i in 0..100_000 {
        input.push_str(&format!(" a{i}=v"));
    }
    for _ in 0..100_000 {
        input.push_str(" a7=v");
    }
    input.push('>');
    let mut tok = Tokenizer::new();
    tok.feed(&input);
    tok.finish();
    let Some(Token::StartTag(tag)) = tok.next_token() else {
        panic!("expected a start tag")
    };
    assert_eq!(tag.attributes.len(), 100_000);
    drop(tag);
    assert_eq!(tok.diagnostics().len(), 100_000);
}

#[test]
fn a_megabyte_named_reference_look_alike() {
    let input = format!("&{}", "a".repeat(1 << 20));
    run(&input, usize::MAX);
    let input = format!("<p title='&{}'>", "a".repeat(1 << 20));
    run(&input, 1000);
    let input = format!("&#x{};", "0".repeat(1 << 20));
    let (_, errors) = run(&input, 1);
    assert_eq!(errors, 1);
}

#[test]
fn arbitrary_bytes_never_panic() {
    // A deterministic pseudo-random walk over the characters that matter to the machine.
    let alphabet: Vec<char> = "<>/!?-=&#;xX0aA'\"\r\n\t \0[]CDATAscript\u{b}\u{fffe}é😀"
        .chars()
        .collect();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..300 {
        let mut s = String::new();
        for _ in 0..200 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            s.push(alphabet[(seed % alphabet.len() as u64) as usize]);
        }
        run(&s, usize::MAX);
        run(&s, 3);
    }
}

/// The direct paths look ahead in the buffer (for `-->`, a closing quote, the end of a name):
/// on input where the states end each construct earlier than that look-ahead reaches, the
/// look-ahead must stop early too, or every construct would rescan the rest of the input.
#[test]
fn constructs_the_states_end_before_the_direct_paths_would() {
    for piece in [
        "<!--x--!>",
        "<!--x<!-->",
        "<a b=\"&#x26;\" c=&amp>",
        "&zzzzzzzz=",
        "<a b=&x y=\"",
    ] {
        let input = piece.repeat(200_000);
        run(&input, usize::MAX);
    }
}
