#![doc = include_str!("../README.md")]
#![warn(missing_debug_implementations)]

pub mod acc;
pub mod bom;
mod codes;
pub mod cursor;
pub mod decode;
pub mod front;
mod limits;
pub mod lines;
pub mod newline;
mod position;
pub mod render;
pub mod scan;
#[cfg(feature = "serde")]
mod serde_impls;
pub mod stream;
pub mod whatwg;
pub mod xml;

pub use acc::TextAcc;
pub use bom::{Utf, sniff_bom};
pub use cursor::{Cursor, NeedMore, Peeked};
pub use decode::{
    DecodeError, DecodeErrorKind, Replacement, decode_bom_lossy, decode_leafxml, decode_lossy,
    decode_strict, decode_with_replacements,
};
pub use encoding_rs::Encoding;
pub use front::{Detected, EncodingSource, ReadError, Sniff, SniffingDecoder};
pub use limits::{Diagnostics, LIMIT_LOG, LimitLog, Limits};
pub use lines::LineCounter;
pub use newline::{NewlineNormalizer, NewlineRules, normalize_crlf, normalize_leafxml};
pub use position::{Diagnostic, ErrorCode, LineCol, LineIndex, Span};
pub use render::{DiagnosticRenderer, Report};
pub use scan::{Finder, StopSet};
pub use stream::StreamDecoder;
