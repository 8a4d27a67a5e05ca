#![doc = include_str!("../README.md")]

mod acc;
pub mod error;
mod hash;
pub mod token;
pub mod tokenizer;

pub use error::{Diagnostic, ErrorCode};
pub use token::{Attribute, Event, Token, TokenKind};
pub use tokenizer::{EntityMap, Options, Profile, State, Tokenizer, events, tokenize};
pub mod tree;

pub use tree::{
    BytesParser, Document, Element, NodeData, NodeId, ParsedBytes, ParsedStream, Parser,
    TreeBuilder, parse, parse_bytes,
};
pub mod serialize;

pub use serialize::serialize;
