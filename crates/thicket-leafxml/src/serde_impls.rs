//! `Serialize` (feature `serde`) for events, errors and documents: spans as `{"start", "end"}`,
//! codes as their strings, attributes as lists (`local`: `[name, value]`, `external`:
//! `[namespace, name, value]`), a document as its flat list of nodes in document order (each
//! with its parent's number), so that no depth makes serialization recurse.

use serde::ser::{SerializeSeq, SerializeStruct};
use serde::{Serialize, Serializer};
use thicket_input::Span;

use crate::{Attributes, Document, Error, ErrorCode, Event, EventKind, NodeRef};

struct SpanOut(Span);

impl Serialize for SpanOut {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Span", 2)?;
        s.serialize_field("start", &self.0.start)?;
        s.serialize_field("end", &self.0.end)?;
        s.end()
    }
}

/// A code as its string (`"mismatched-end-tag"`).
impl Serialize for ErrorCode {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl Serialize for Error {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Error", 6)?;
        s.serialize_field("code", &self.code)?;
        s.serialize_field("line", &self.line)?;
        s.serialize_field("column", &self.column)?;
        s.serialize_field("byte_offset", &self.byte_offset)?;
        s.serialize_field("span", &SpanOut(self.span))?;
        s.serialize_field("codepoint", &self.codepoint)?;
        s.end()
    }
}

struct Local<'x>(&'x Attributes<'x>);
struct External<'x>(&'x Attributes<'x>);

impl Serialize for Local<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.local())
    }
}

impl Serialize for External<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.external())
    }
}

/// `{"local": [[name, value]...], "external": [[namespace, name, value]...]}`.
impl Serialize for Attributes<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Attributes", 2)?;
        s.serialize_field("local", &Local(self))?;
        s.serialize_field("external", &External(self))?;
        s.end()
    }
}

/// Tagged by `"type"`: `start` (`namespace`, `local_name`, `attributes`), `text` (`text`),
/// `end` (`namespace`, `local_name`).
impl Serialize for EventKind<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            EventKind::Start {
                namespace,
                local_name,
                attributes,
            } => {
                let mut s = serializer.serialize_struct("Start", 4)?;
                s.serialize_field("type", "start")?;
                s.serialize_field("namespace", namespace)?;
                s.serialize_field("local_name", local_name)?;
                s.serialize_field("attributes", attributes)?;
                s.end()
            }
            EventKind::Text(text) => {
                let mut s = serializer.serialize_struct("Text", 2)?;
                s.serialize_field("type", "text")?;
                s.serialize_field("text", text)?;
                s.end()
            }
            EventKind::End {
                namespace,
                local_name,
            } => {
                let mut s = serializer.serialize_struct("End", 3)?;
                s.serialize_field("type", "end")?;
                s.serialize_field("namespace", namespace)?;
                s.serialize_field("local_name", local_name)?;
                s.end()
            }
        }
    }
}

/// `{"kind": .., "line": .., "span": .., "skipped": ..}`.
impl Serialize for Event<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Event", 4)?;
        s.serialize_field("kind", &self.kind)?;
        s.serialize_field("line", &self.line)?;
        s.serialize_field("span", &SpanOut(self.span))?;
        s.serialize_field("skipped", &SpanOut(self.skipped))?;
        s.end()
    }
}

struct NodeAttributes<'d>(NodeRef<'d>);
struct NodeExternal<'d>(NodeRef<'d>);

impl Serialize for NodeAttributes<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.attributes())
    }
}

impl Serialize for NodeExternal<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.external_attributes())
    }
}

/// One node: `{"type": "element", "namespace", "local_name", "attributes", "external_attributes",
/// "parent", "span"}` or `{"type": "text", "text", "parent", "span"}` (`parent`: the parent's
/// number in the list, `null` for the root).
impl Serialize for NodeRef<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let parent = self.parent().map(|p| p.id());
        match self.text() {
            Some(text) => {
                let mut s = serializer.serialize_struct("Text", 4)?;
                s.serialize_field("type", "text")?;
                s.serialize_field("text", text)?;
                s.serialize_field("parent", &parent)?;
                s.serialize_field("span", &SpanOut(self.span()))?;
                s.end()
            }
            None => {
                let mut s = serializer.serialize_struct("Element", 7)?;
                s.serialize_field("type", "element")?;
                s.serialize_field("namespace", &self.namespace())?;
                s.serialize_field("local_name", self.local_name())?;
                s.serialize_field("attributes", &NodeAttributes(*self))?;
                s.serialize_field("external_attributes", &NodeExternal(*self))?;
                s.serialize_field("parent", &parent)?;
                s.serialize_field("span", &SpanOut(self.span()))?;
                s.end()
            }
        }
    }
}

/// The nodes in document order, as a list (see [`NodeRef`]'s form).
impl Serialize for Document {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.len()))?;
        for node in self.root().descendants() {
            seq.serialize_element(&node)?;
        }
        seq.end()
    }
}

#[cfg(test)]
mod tests {
    use crate::{Document, Reader};

    #[test]
    fn events_errors_and_documents_serialize() {
        let doc = b"<a xmlns:p='urn:p' k='v' p:x='1'>t</a>";
        let mut reader = Reader::from_bytes(doc);
        let start = reader.next_event().unwrap().unwrap();
        assert_eq!(
            serde_json::to_string(&start).unwrap(),
            r#"{"kind":{"type":"start","namespace":null,"local_name":"a","attributes":{"local":[["k","v"]],"external":[["urn:p","x","1"]]}},"line":1,"span":{"start":0,"end":33},"skipped":{"start":0,"end":0}}"#
        );
        let d = Document::parse(doc).unwrap();
        assert_eq!(
            serde_json::to_string(&d).unwrap(),
            r#"[{"type":"element","namespace":null,"local_name":"a","attributes":[["k","v"]],"external_attributes":[["urn:p","x","1"]],"parent":null,"span":{"start":0,"end":38}},{"type":"text","text":"t","parent":0,"span":{"start":33,"end":34}}]"#
        );
        let err = Document::parse(b"<a></b>").unwrap_err();
        let json = serde_json::to_string(&err).unwrap();
        assert!(
            json.starts_with(r#"{"code":"mismatched-end-tag","line":1,"column":4"#),
            "{json}"
        );
        // Any depth: a flat list.
        let deep = format!("{}{}", "<a>".repeat(100_000), "</a>".repeat(100_000));
        let d = Document::parse(deep.as_bytes()).unwrap();
        assert!(serde_json::to_string(&d).unwrap().len() > 100_000);
    }
}
