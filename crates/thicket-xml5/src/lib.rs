#![doc = include_str!("../README.md")]

pub mod error;
mod hash;
mod order;
mod parser;
pub mod token;
pub mod tokenizer;

pub use error::{Diagnostic, ErrorCode};
pub use token::{Attribute, Event, Token, TokenKind};
pub use tokenizer::{EntityMap, Options, Profile, State, Tokenizer, events, tokenize};
pub mod tree;

pub use parser::{BytesParser, Parsed, ParsedBytes, ParsedStream, Parser, parse, parse_bytes};
pub use tree::{Document, Element, NodeData, NodeId, TreeBuilder};
pub mod serialize;

pub use serialize::serialize;
