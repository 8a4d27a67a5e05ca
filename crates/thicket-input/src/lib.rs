#![doc = include_str!("../README.md")]

mod position;

pub use position::{Diagnostic, ErrorCode, LineCol, LineIndex, Span};
