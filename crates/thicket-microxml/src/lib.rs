#![doc = include_str!("../README.md")]
#![warn(missing_debug_implementations)]

mod bytes;
mod checker;
mod document;
mod element;
mod error;
mod fast;
mod lexer;
mod names;
mod navigate;
mod options;
mod order;
mod parser;
#[cfg(feature = "serde")]
mod serde_impls;
mod serialize;
mod token;
mod tokenizer;
mod tree;
pub mod validity;

pub use bytes::{ParsedBytes, parse_bytes, parse_bytes_with, parse_reader, parse_reader_with};
pub use checker::Checker;
pub use document::{
    AttributeRef, Attributes, Children, Document, ElementRef, MAX_DOCUMENT_LEN, NodeRef, TextRef,
};
pub use element::{Attribute, DOC_WRAPPER, Element, Node};
pub use error::{Diagnostic, ErrorCode};
pub use lexer::Mode;
pub use navigate::Descendants;
pub use options::{NamedReferences, Options};
pub use parser::{Parsed, Parser};
pub use serialize::{SerializeError, to_string, write};
pub use token::Token;
pub use tokenizer::{Tokenizer, Tokens};
pub use tree::TreeBuilder;

// What a user of this crate needs from the core crates, so that one dependency suffices.
pub use thicket_input::render::Report;
pub use thicket_input::{DiagnosticRenderer, Encoding, Limits, LineCol, LineIndex, Span};

/// Parses `text` with the spec's behaviour ([`Options::default`]). The tree borrows from `text`
/// ([`Parsed::into_owned`] detaches it).
pub fn parse(text: &str) -> Parsed<'_> {
    parse_with(text, Options::default())
}

/// Parses `text` with `options`. The tree borrows from `text` where recovery and newline
/// normalization changed nothing; the result is the same as feeding `text` to a [`Parser`].
/// Plain tags and text go through a fast path beside the modes (see `fast.rs`).
pub fn parse_with(text: &str, options: Options) -> Parsed<'_> {
    let (text, cut) = document::within_limit(text, MAX_DOCUMENT_LEN);
    let mut tokenizer = lexer::Lexer::whole(text, options, false);
    let mut builder = TreeBuilder::for_input(text, &options);
    if cut {
        builder.too_large();
    }
    let mut fast = fast::Fast::new(&options);
    loop {
        tokenizer.drain_into(&mut builder);
        if tokenizer.is_clean() {
            fast.run(text, &mut tokenizer, &mut builder);
        }
        if tokenizer.is_done() || !tokenizer.advance() {
            break;
        }
    }
    tokenizer.drain_into(&mut builder);
    parser::finish(builder, tokenizer.take_diagnostics(), text.len())
}

/// The tree in the suites' JSON form, `["name", {"attr": "value"}, [children]]`, with attributes
/// in order. Written without recursion.
pub fn to_json(root: &Element) -> String {
    enum Step<'a> {
        Open(&'a Element),
        Text(&'a str),
        Raw(&'static str),
    }
    let mut out = String::new();
    let mut stack = vec![Step::Open(root)];
    while let Some(step) = stack.pop() {
        match step {
            Step::Raw(s) => out.push_str(s),
            Step::Text(t) => json_string(&mut out, t),
            Step::Open(e) => {
                out.push('[');
                json_string(&mut out, &e.name);
                out.push_str(",{");
                for (i, a) in e.attributes.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    json_string(&mut out, &a.name);
                    out.push(':');
                    json_string(&mut out, &a.value);
                }
                out.push_str("},[");
                stack.push(Step::Raw("]]"));
                for (i, c) in e.children.iter().enumerate().rev() {
                    stack.push(match c {
                        Node::Element(e) => Step::Open(e),
                        Node::Text(t) => Step::Text(t),
                    });
                    if i > 0 {
                        stack.push(Step::Raw(","));
                    }
                }
            }
        }
    }
    out
}

fn json_string(out: &mut String, s: &str) {
    use std::fmt::Write as _;
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || (0x7F..=0x9F).contains(&(c as u32)) => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}
