//! `tests/data/ok/*` must give zero diagnostics, `tests/data/err/*` at least one (with either
//! option set), and every fixture must give the same result whole and fed in small chunks.

use std::path::Path;

use thicket_microxml::{Options, Parser, parse_with};

fn files(dir: &str) -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(dir);
    let mut out: Vec<(String, String)> = std::fs::read_dir(&dir)
        .expect("fixture folder")
        .map(|e| {
            let path = e.expect("entry").path();
            let text = std::fs::read_to_string(&path).expect("UTF-8 fixture");
            (path.display().to_string(), text)
        })
        .collect();
    out.sort();
    assert!(!out.is_empty());
    out
}

fn check(dir: &str, want_valid: bool) {
    for (path, text) in files(dir) {
        for options in [Options::spec(), Options::upstream()] {
            let whole = parse_with(&text, options);
            assert_eq!(
                whole.is_valid(),
                want_valid,
                "{path}: {:?}",
                whole.diagnostics
            );
            let mut p = Parser::new(options);
            let chars: Vec<char> = text.chars().collect();
            for chunk in chars.chunks(3) {
                p.feed(&chunk.iter().collect::<String>());
            }
            assert_eq!(p.finish(), whole, "{path}: chunked");
        }
    }
}

#[test]
fn ok_fixtures_are_valid() {
    check("ok", true);
}

#[test]
fn err_fixtures_are_not() {
    check("err", false);
}
