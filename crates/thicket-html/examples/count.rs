//! `cargo run --release -p thicket-html --example count -- FILE [REPEAT] [iter]`: tokenizes FILE
//! (REPEAT times) and prints the number of tokens and parse errors; with `iter`, through the
//! whole-input iterator (`thicket_html::parse_with`) instead of `next_token`.

use thicket_html::Tokenizer;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: count FILE [REPEAT]");
        std::process::exit(2);
    };
    let repeat: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(1);
    let iterate = args.next().as_deref() == Some("iter");
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    let text = String::from_utf8_lossy(&bytes);
    let (mut tokens, mut errors) = (0, 0);
    for _ in 0..repeat {
        if iterate {
            let mut tokens_of = thicket_html::parse_with(&text, thicket_html::Options::default());
            tokens = tokens_of.by_ref().count();
            errors = tokens_of.diagnostics().len();
            continue;
        }
        let mut tok = Tokenizer::new();
        tok.feed(&text);
        tok.finish();
        tokens = 0;
        while tok.next_token().is_some() {
            tokens += 1;
        }
        errors = tok.diagnostics().len();
    }
    println!("{tokens} tokens, {errors} parse errors");
}
