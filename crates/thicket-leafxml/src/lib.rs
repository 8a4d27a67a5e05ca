#![doc = include_str!("../README.md")]

mod error;
mod event;
mod input;
mod reader;
mod text;
mod tree;
mod writer;

pub use error::{Error, ErrorCode};
pub use event::{
    Attributes, Event, EventKind, External, ExternalAttributeMap, Local, WrittenAttribute,
    WrittenAttributes,
};
pub use input::{Push, Source};
pub use reader::{Limits, Reader, XML_NAMESPACE, XMLNS_NAMESPACE, parse_events};
pub use tree::{Element, Node};
pub use writer::{WriteError, Writer, write_document};
