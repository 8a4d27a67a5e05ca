//! `thicket-compare --once PARSER FILE [--iterations K]`: one parser on one file, for
//! `cargo xtask callgrind`.
//!
//! The file is read and decoded exactly as the timed comparison does, the parser runs once
//! unmeasured (so one-time setup, lazy tables and the allocator's first growth are not counted,
//! as the timed comparison's warm-up does), then `K` times (default 1) through
//! [`thicket_callgrind_measured_parse`], the only function callgrind collects when run with
//! `--collect-atstart=no --toggle-collect=thicket_callgrind_measured_parse`. The measured
//! instructions are therefore those of `K` calls of the adapter: the parse, the adapter's walk
//! over the output, and dropping the output; never process start, reading or decoding the file.
//!
//! Prints `ok <count>` or `rejected` on stdout; exit status 2 on bad usage or an unreadable file.

use crate::{Parser, parsers};

/// Runs `--once` with the arguments after it.
pub fn run(args: &[String]) -> ! {
    let mut iterations = 1usize;
    let mut positional = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--iterations" => {
                iterations = match it.next().and_then(|s| s.parse().ok()) {
                    Some(k) if k > 0 => k,
                    _ => usage("--iterations takes a positive number"),
                }
            }
            _ => positional.push(a.as_str()),
        }
    }
    let [name, path] = positional[..] else {
        usage("expected PARSER FILE")
    };
    let all = parsers::all();
    let Some(parser) = all.iter().find(|p| p.name == name) else {
        let names: Vec<&str> = all.iter().map(|p| p.name).collect();
        usage(&format!(
            "no parser named {name:?} (one of: {})",
            names.join(", ")
        ))
    };
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("compare --once: cannot read {path}: {e}");
            std::process::exit(2);
        }
    };
    let text = String::from_utf8_lossy(&bytes).into_owned();
    // Warm-up, outside the collected function.
    let mut sink = (parser.run)(&text, &bytes);
    for _ in 0..iterations {
        sink = thicket_callgrind_measured_parse(parser, &text, &bytes);
    }
    match std::hint::black_box(sink) {
        Some(n) => println!("ok {n}"),
        None => println!("rejected"),
    }
    std::process::exit(0);
}

/// The function callgrind collects: one run of the adapter. Its symbol is unmangled and it is
/// never inlined, so `--toggle-collect=thicket_callgrind_measured_parse` finds it exactly.
#[unsafe(no_mangle)]
#[inline(never)]
pub fn thicket_callgrind_measured_parse(p: &Parser, text: &str, bytes: &[u8]) -> Option<usize> {
    (p.run)(std::hint::black_box(text), std::hint::black_box(bytes))
}

fn usage(problem: &str) -> ! {
    eprintln!(
        "compare --once: {problem}\nusage: thicket-compare --once PARSER FILE [--iterations K]"
    );
    std::process::exit(2);
}
