#![doc = include_str!("../README.md")]
#![warn(missing_debug_implementations)]

mod document;
mod error;
mod event;
mod input;
mod name;
mod reader;
#[cfg(feature = "serde")]
mod serde_impls;
mod text;
mod tree;
mod writer;

pub use document::{Children, Descendants, Document, NodeRef};
pub use error::{Error, ErrorCode};
pub use event::{
    Attributes, Event, EventKind, External, Local, WrittenAttribute, WrittenAttributes,
};
pub use input::{Push, Source};
pub use name::Name;
pub use reader::{Limits, Reader, XML_NAMESPACE, XMLNS_NAMESPACE, parse_events};
pub use thicket_input::{LineCol, LineIndex, Span};
pub use tree::{Attribute, Element, Node};
pub use writer::{WriteError, Writer, write_document};
