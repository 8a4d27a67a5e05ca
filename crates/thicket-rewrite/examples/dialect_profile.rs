//! `cargo run --release -p thicket-rewrite --example dialect_profile -- microxml|leafxml FILE
//! [RUNS]`: rewrites FILE (`rel="nofollow"` on every element with an `id`) and, for comparison,
//! runs the dialect's own streaming tokenizer (MicroXML) or push reader (LeafXML) over it, each
//! RUNS times (default 20), fed in 64 KiB chunks; prints the best time of each and their ratio.
//! With RUNS = 1 it is one rewrite for profiling (`valgrind --tool=callgrind`).

use std::time::{Duration, Instant};

use thicket_rewrite::{Dialect, Rewriter, Settings};

const CHUNK: usize = 64 * 1024;

fn rewrite(dialect: Dialect, bytes: &[u8]) -> usize {
    let settings = Settings::new()
        .on_element("[id]", |e| e.set_attribute("rel", "nofollow"))
        .unwrap_or_default();
    let mut len = 0;
    let mut r = Rewriter::new(dialect, settings, |b: &[u8]| len += b.len());
    for piece in bytes.chunks(CHUNK) {
        if let Err(e) = r.feed(piece) {
            eprintln!("{e}");
            break;
        }
    }
    let _ = r.finish();
    len
}

fn plain(dialect: Dialect, bytes: &[u8]) -> usize {
    let mut n = 0;
    match dialect {
        Dialect::MicroXml => {
            let mut t = thicket_microxml::Tokenizer::new(Default::default());
            let text = std::str::from_utf8(bytes).unwrap_or_default();
            let mut rest = text;
            while !rest.is_empty() {
                let mut cut = CHUNK.min(rest.len());
                while !rest.is_char_boundary(cut) {
                    cut += 1;
                }
                t.feed(&rest[..cut]);
                rest = &rest[cut..];
                while t.next_token().is_some() {
                    n += 1;
                }
            }
            t.finish();
            while t.next_token().is_some() {
                n += 1;
            }
        }
        _ => {
            let mut r = thicket_leafxml::Reader::push();
            for piece in bytes.chunks(CHUNK) {
                r.feed(piece);
                while let Ok(Some(_)) = r.next_event() {
                    n += 1;
                }
            }
            r.finish();
            while let Ok(Some(_)) = r.next_event() {
                n += 1;
            }
        }
    }
    n
}

fn best(runs: usize, mut f: impl FnMut() -> usize) -> Duration {
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            std::hint::black_box(f());
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(name), Some(path)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: dialect_profile microxml|leafxml FILE [RUNS]");
        std::process::exit(2);
    };
    let dialect = match name.as_str() {
        "microxml" => Dialect::MicroXml,
        "leafxml" => Dialect::LeafXml,
        _ => {
            eprintln!("dialect: microxml or leafxml");
            std::process::exit(2);
        }
    };
    let runs = args.get(3).and_then(|r| r.parse().ok()).unwrap_or(20);
    let bytes = std::fs::read(path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(1);
    });
    let rewritten = best(runs, || rewrite(dialect, &bytes));
    if runs == 1 {
        println!("{}", rewrite(dialect, &bytes));
        return;
    }
    let alone = best(runs, || plain(dialect, &bytes));
    let mb = bytes.len() as f64 / 1e6;
    println!(
        "{path}: rewrite {:.1} MB/s, {name} alone {:.1} MB/s, ratio {:.2}",
        mb / rewritten.as_secs_f64(),
        mb / alone.as_secs_f64(),
        alone.as_secs_f64() / rewritten.as_secs_f64()
    );
}
