#![doc = include_str!("../README.md")]

pub mod bom;
mod codes;
pub mod decode;
mod limits;
pub mod newline;
mod position;
pub mod stream;
pub mod whatwg;
pub mod xml;

pub use bom::{Utf, sniff_bom};
pub use decode::{
    DecodeError, DecodeErrorKind, Replacement, decode_bom_lossy, decode_leafxml, decode_lossy,
    decode_strict, decode_with_replacements,
};
pub use encoding_rs::Encoding;
pub use limits::{Diagnostics, Limits};
pub use newline::{NewlineNormalizer, NewlineRules, normalize_crlf, normalize_leafxml};
pub use position::{Diagnostic, ErrorCode, LineCol, LineIndex, Span};
pub use stream::StreamDecoder;
