#![doc = include_str!("../README.md")]

mod bytes;
mod error;
mod state;
mod token;
mod tokenizer;

pub use bytes::ByteTokenizer;
pub use error::ErrorCode;
pub use state::State;
pub use token::{Attribute, Doctype, Tag, Token};
pub use tokenizer::{Options, Tokenizer};

/// A diagnostic of this crate.
pub type Diagnostic = thicket_input::Diagnostic<ErrorCode>;
