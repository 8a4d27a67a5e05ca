//! The parsers measured, one function each. Each dialect adds its Thicket parser and the
//! parsers it is compared with.

use crate::{Comparison, Kind, Parser};

/// Every parser, Thicket's and the others'.
pub fn all() -> Vec<Parser> {
    vec![
        Parser {
            name: "memchr-scan (reference)",
            kind: Kind::Html,
            run: memchr_scan,
        },
        Parser {
            name: "memchr-scan (reference)",
            kind: Kind::Xml,
            run: memchr_scan,
        },
    ]
}

/// The ratios the issues set as targets.
pub fn comparisons() -> Vec<Comparison> {
    Vec::new()
}

/// The floor: count `<` with memchr. No parser can be faster than a pass over the bytes.
fn memchr_scan(_text: &str, bytes: &[u8]) -> Option<usize> {
    Some(memchr::memchr_iter(b'<', bytes).count())
}
