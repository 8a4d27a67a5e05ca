#![doc = include_str!("../README.md")]
#![warn(missing_debug_implementations)]

mod bytes;
mod error;
#[cfg(feature = "serde")]
mod serde_span;
mod state;
mod token;
mod tokenizer;
mod tokens;

pub use bytes::{ByteTokenizer, decode_bytes};
pub use error::ErrorCode;
pub use state::State;
pub use token::{Attribute, Doctype, Tag, Token};
pub use tokenizer::{AttributesOf, Lazy, Options, Tokenizer, breaks_out_of_foreign_content};
pub use tokens::{Decoded, Tokens, parse, parse_bytes, parse_bytes_with, parse_reader, parse_with};

pub use encoding_rs::{Encoding, UTF_8, WINDOWS_1252};
pub use thicket_input::render::Report;
pub use thicket_input::whatwg::Confidence;
pub use thicket_input::{
    DiagnosticRenderer, Limits, LineCol, LineCounter, LineIndex, NewlineRules, Span,
};

/// A diagnostic of this crate.
pub type Diagnostic = thicket_input::Diagnostic<ErrorCode>;
