//! The parsers measured, one function each. Each dialect adds its Thicket parser and the
//! parsers it is compared with.

use crate::{Comparison, Kind, Parser};
use crate::{others, others_rewrite, thicket};

/// Every parser, Thicket's and the others'.
pub fn all() -> Vec<Parser> {
    vec![
        Parser {
            name: "thicket-html",
            kind: Kind::Html,
            run: thicket::html,
        },
        Parser {
            name: "thicket-html (Iterator)",
            kind: Kind::Html,
            run: thicket::html_iter,
        },
        Parser {
            name: "thicket-xml5 tokenizer",
            kind: Kind::Xml,
            run: thicket::xml5_tokens,
        },
        Parser {
            name: "thicket-xml5 tokenizer (Iterator)",
            kind: Kind::Xml,
            run: thicket::xml5_tokens_iter,
        },
        Parser {
            name: "thicket-xml5 tree",
            kind: Kind::Xml,
            run: thicket::xml5_tree,
        },
        Parser {
            name: "thicket-microxml tokenizer",
            kind: Kind::Xml,
            run: thicket::microxml_tokens,
        },
        Parser {
            name: "thicket-microxml tokenizer (Iterator)",
            kind: Kind::Xml,
            run: thicket::microxml_tokens_iter,
        },
        Parser {
            name: "thicket-microxml tree",
            kind: Kind::Xml,
            run: thicket::microxml_tree,
        },
        Parser {
            name: "thicket-leafxml events",
            kind: Kind::Xml,
            run: thicket::leafxml_events,
        },
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
        // Issue 16: thicket-rewrite against lol_html and a quick-xml loop.
        Parser {
            name: "thicket-rewrite nofollow",
            kind: Kind::Html,
            run: thicket::rewrite_nofollow,
        },
        Parser {
            name: "thicket-rewrite nofollow (feed_str)",
            kind: Kind::Html,
            run: thicket::rewrite_nofollow_str,
        },
        Parser {
            name: "lol_html nofollow",
            kind: Kind::Html,
            run: others_rewrite::lol_nofollow,
        },
        Parser {
            name: "lol_html nofollow (told UTF-8)",
            kind: Kind::Html,
            run: others_rewrite::lol_nofollow_utf8,
        },
        Parser {
            name: "thicket-rewrite h1-h3 text",
            kind: Kind::Html,
            run: thicket::extract_headings,
        },
        Parser {
            name: "thicket-rewrite h1-h3 text (feed_str)",
            kind: Kind::Html,
            run: thicket::extract_headings_str,
        },
        Parser {
            name: "lol_html h1-h3 text",
            kind: Kind::Html,
            run: others_rewrite::lol_headings,
        },
        Parser {
            name: "lol_html h1-h3 text (told UTF-8)",
            kind: Kind::Html,
            run: others_rewrite::lol_headings_utf8,
        },
        Parser {
            name: "thicket-rewrite xml5 [id] attr",
            kind: Kind::Xml,
            run: thicket::xml_set_attribute,
        },
        Parser {
            name: "quick-xml loop [id] attr",
            kind: Kind::Xml,
            run: others_rewrite::quick_xml_set_attribute,
        },
    ]
}

/// The ratios the issues set as targets.
pub fn comparisons() -> Vec<Comparison> {
    let c = |ours, theirs, target| Comparison {
        ours,
        theirs,
        target,
    };
    vec![
        // Issue 3: fully materialized tokens at no less than 3x html5gum.
        c("thicket-html", "html5gum", 3.0),
        // Issue 4: tokenizer at least 5x xml5ever's, tree building at least roxmltree's.
        c("thicket-xml5 tokenizer", "xml5ever tokenizer", 5.0),
        c("thicket-xml5 tree", "roxmltree", 1.0),
        // Issue 5: parse to tree at least 1.5x roxmltree.
        c("thicket-microxml tree", "roxmltree", 1.5),
        // Issue 15: an Iterator over a whole &str as fast as the `next_token` it wraps (within
        // measurement noise).
        c("thicket-html (Iterator)", "thicket-html", 0.95),
        c(
            "thicket-xml5 tokenizer (Iterator)",
            "thicket-xml5 tokenizer",
            0.95,
        ),
        c(
            "thicket-microxml tokenizer (Iterator)",
            "thicket-microxml tokenizer",
            0.95,
        ),
        // Issue 6: at least quick-xml's NsReader (with unescaping), on files LeafXML accepts.
        c("thicket-leafxml events", "quick-xml NsReader", 1.0),
        // Issue 16: thicket-rewrite at or above lol_html, and above a quick-xml loop for XML.
        // The same work: fed bytes, thicket sniffs the encoding (`<meta charset>` included) and
        // lol_html honours a `<meta charset>`; fed a `&str`, thicket sniffs nothing and lol_html
        // is told UTF-8 (its default). Both lol_html settings are measured on both rows' files.
        c("thicket-rewrite nofollow", "lol_html nofollow", 1.0),
        c("thicket-rewrite h1-h3 text", "lol_html h1-h3 text", 1.0),
        c(
            "thicket-rewrite nofollow (feed_str)",
            "lol_html nofollow (told UTF-8)",
            1.0,
        ),
        c(
            "thicket-rewrite h1-h3 text (feed_str)",
            "lol_html h1-h3 text (told UTF-8)",
            1.0,
        ),
        c(
            "thicket-rewrite xml5 [id] attr",
            "quick-xml loop [id] attr",
            1.0,
        ),
    ]
}

/// The floor: count `<` with memchr. No parser can be faster than a pass over the bytes.
fn memchr_scan(_text: &str, bytes: &[u8]) -> Option<usize> {
    Some(memchr::memchr_iter(b'<', bytes).count())
}
