//! `cargo run --release -p thicket-html --example stream -- FILE [--chunk BYTES] [--untrusted]`:
//! tokenizes FILE fed in chunks (64 KiB by default) as the command line does, pulling tokens and
//! taking diagnostics after every chunk, and prints the number of tokens, the diagnostics kept and
//! those omitted. `--untrusted` sets `Limits::untrusted()`. For peak-memory measurements
//! (`/usr/bin/time -v`).

use std::io::Read;

use thicket_html::{Options, Tokenizer};
use thicket_input::Limits;

fn main() {
    let mut path = None;
    let mut chunk = 64 << 10;
    let mut limits = Limits::none();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--chunk" => chunk = args.next().and_then(|c| c.parse().ok()).unwrap_or(chunk),
            "--untrusted" => limits = Limits::untrusted(),
            _ => path = Some(a),
        }
    }
    let Some(path) = path else {
        eprintln!("usage: stream FILE [--chunk BYTES] [--untrusted]");
        std::process::exit(2);
    };
    let mut file = match std::fs::File::open(&path) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    let mut tok = Tokenizer::with_options(Options {
        switch_by_tag_name: true,
        limits,
        ..Options::default()
    });
    let mut bytes = vec![0u8; chunk];
    let (mut tokens, mut diagnostics) = (0usize, 0usize);
    let mut pending = Vec::new();
    loop {
        let n = file.read(&mut bytes).unwrap_or(0);
        if n == 0 {
            break;
        }
        // Whole characters only (the example reads UTF-8).
        pending.extend_from_slice(&bytes[..n]);
        let valid = match std::str::from_utf8(&pending) {
            Ok(s) => s.len(),
            Err(e) => e.valid_up_to(),
        };
        tok.feed(std::str::from_utf8(&pending[..valid]).unwrap_or(""));
        pending.drain(..valid);
        while tok.next_token().is_some() {
            tokens += 1;
        }
        diagnostics += tok.take_diagnostics().len();
    }
    tok.feed(&String::from_utf8_lossy(&pending));
    tok.finish();
    while tok.next_token().is_some() {
        tokens += 1;
    }
    diagnostics += tok.take_diagnostics().len();
    println!("{tokens} tokens, {diagnostics} diagnostics kept");
}
