//! Tokenizes a file a number of times, through the whole-input iterator (`iter`, the default)
//! or the streaming tokenizer fed the whole text (`stream`), to compare the two (a profiling
//! aid: `valgrind --tool=callgrind target/release/examples/tokens_profile FILE [iter|stream]
//! [TIMES]`).

use thicket_microxml::{Options, Token, Tokenizer, Tokens};

fn weight(t: &Token<'_>) -> usize {
    t.span().len()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .expect("usage: tokens_profile FILE [iter|stream] [TIMES]");
    let mode = args.next().unwrap_or_else(|| "iter".into());
    let times: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let text = std::fs::read_to_string(path).expect("readable UTF-8 file");
    let mut total = 0;
    for _ in 0..times {
        if mode == "stream" {
            let mut t = Tokenizer::new(Options::default());
            t.feed(&text);
            t.finish();
            while let Some(token) = t.next_token() {
                total += weight(&token);
            }
        } else {
            total += Tokens::new(&text).map(|t| weight(&t)).sum::<usize>();
        }
    }
    println!("{total}");
}
