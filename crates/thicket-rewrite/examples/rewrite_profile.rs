//! `cargo run --release -p thicket-rewrite --example rewrite_profile -- FILE`: one rewrite of
//! FILE for profiling (`valgrind --tool=callgrind`): an HTML file (`.html`) gets
//! `rel="nofollow"` on every `a[href]`, anything else is read as XML5 and gets the attribute on
//! every element with an `id`. Prints the output's length.

use thicket_rewrite::{Dialect, Settings, rewrite_str};

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: rewrite_profile FILE");
        std::process::exit(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    let (dialect, selector) = if path.ends_with(".html") {
        (Dialect::Html, "a[href]")
    } else {
        (Dialect::Xml5, "[id]")
    };
    let settings = Settings::new()
        .on_element(selector, |e| e.set_attribute("rel", "nofollow"))
        .unwrap_or_default();
    match rewrite_str(&text, dialect, settings) {
        Ok(out) => println!("{}", out.len()),
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    }
}
