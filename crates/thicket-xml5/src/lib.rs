#![doc = include_str!("../README.md")]
#![warn(missing_debug_implementations)]

mod error;
mod hash;
mod order;
mod parser;
mod serialize;
mod token;
mod tokenizer;
mod tree;

pub use error::{Diagnostic, ErrorCode};
pub use parser::{
    BytesParser, Parsed, ParsedBytes, ParsedStream, Parser, parse, parse_bytes, parse_bytes_with,
    parse_reader, parse_reader_with, parse_with,
};
pub use serialize::serialize;
pub use token::{Attribute, Event, SpareAttributes, Token, TokenKind};
pub use tokenizer::{
    AttributesOf, EntityMap, IdKind, Lazy, LentItem, Options, PlainAttribute, PlainTag, Profile,
    State, Tokenizer, events, tokenize,
};
/// An attribute to give an element with [`Document::append_element`] (a document's own
/// attributes are [`AttributeRef`]s; a tag's are [`Attribute`]s).
pub use tree::Attribute as TreeAttribute;
pub use tree::{
    AttributeRef, Attributes, Descendants, Document, Element, NodeData, NodeId, TreeBuilder,
    XML_NAMESPACE, XMLNS_NAMESPACE, XmlDeclaration, split_qname,
};

// What a user of this crate needs from the core crates, so that one dependency suffices.
pub use thicket_input::render::Report;
pub use thicket_input::{DiagnosticRenderer, Encoding, Limits, LineCol, LineIndex, Span};
