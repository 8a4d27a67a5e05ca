//! The parsers measured, one function each. Each dialect adds its Thicket parser and the
//! parsers it is compared with.

use crate::others;
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
        Parser {
            name: "html5gum",
            kind: Kind::Html,
            run: others::html5gum,
        },
        Parser {
            name: "html5ever tokenizer",
            kind: Kind::Html,
            run: others::html5ever,
        },
        Parser {
            name: "lol_html (lexer)",
            kind: Kind::Html,
            run: others::lol_html,
        },
        Parser {
            name: "xml5ever tokenizer",
            kind: Kind::Xml,
            run: others::xml5ever,
        },
        Parser {
            name: "roxmltree",
            kind: Kind::Xml,
            run: others::roxmltree,
        },
        Parser {
            name: "xmlparser",
            kind: Kind::Xml,
            run: others::xmlparser,
        },
        Parser {
            name: "quick-xml NsReader",
            kind: Kind::Xml,
            run: others::quick_xml_ns,
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
