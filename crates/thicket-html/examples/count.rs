//! `cargo run --release -p thicket-html --example count -- FILE [REPEAT]`: tokenizes FILE (REPEAT
//! times) and prints the number of tokens and parse errors.

use thicket_html::Tokenizer;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: count FILE [REPEAT]");
        std::process::exit(2);
    };
    let repeat: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(1);
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
