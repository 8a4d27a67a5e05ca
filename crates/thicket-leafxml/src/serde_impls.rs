//! `Serialize` (feature `serde`) for events, errors and documents: spans as `{"start", "end"}`,
//! codes as their strings, attributes as lists (`local`: `[name, value]`, `external`:
//! `[namespace, name, value]`), a document as its flat list of nodes in document order (each
//! with its parent's number), so that no depth makes serialization recurse. The owned tree
//! ([`Element`]) also has `Deserialize`, in the same flat form (without spans), rebuilt without
//! recursion; a [`Name`] is its string.

use serde::de::Error as _;
use serde::ser::{SerializeSeq, SerializeStruct};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use thicket_input::Span;

use crate::{
    Attribute, Attributes, Document, Element, Error, ErrorCode, Event, EventKind, Name, Node,
    NodeRef,
};

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
/// `end` (`namespace`, `local_name`), and with markup events `comment` (`text`),
/// `instruction` (`text`), `doctype` (`name`).
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
            EventKind::Comment(text) => {
                let mut s = serializer.serialize_struct("Comment", 2)?;
                s.serialize_field("type", "comment")?;
                s.serialize_field("text", text)?;
                s.end()
            }
            EventKind::Instruction(text) => {
                let mut s = serializer.serialize_struct("Instruction", 2)?;
                s.serialize_field("type", "instruction")?;
                s.serialize_field("text", text)?;
                s.end()
            }
            EventKind::Doctype(name) => {
                let mut s = serializer.serialize_struct("Doctype", 2)?;
                s.serialize_field("type", "doctype")?;
                s.serialize_field("name", name)?;
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

impl Serialize for Name {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self)
    }
}

impl<'de> Deserialize<'de> for Name {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Name, D::Error> {
        String::deserialize(deserializer).map(Name::from)
    }
}

/// An attribute as `[namespace, local_name, value]` (`namespace` `null` for a local one).
impl Serialize for Attribute {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        (&self.namespace, &self.local_name, &self.value).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Attribute {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Attribute, D::Error> {
        let (namespace, local_name, value) =
            <(Option<Name>, Name, String)>::deserialize(deserializer)?;
        Ok(Attribute {
            namespace,
            local_name,
            value,
        })
    }
}

/// One node of an owned tree in the flat form: `{"type": "element", "namespace", "local_name",
/// "attributes", "parent"}` or `{"type": "text", "text", "parent"}`.
#[derive(Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum FlatNode<'e> {
    Element {
        namespace: Option<Name>,
        local_name: Name,
        attributes: std::borrow::Cow<'e, [Attribute]>,
        parent: Option<usize>,
    },
    Text {
        text: std::borrow::Cow<'e, str>,
        parent: Option<usize>,
    },
}

/// The element and its descendants in document order, as a flat list of nodes, each with its
/// parent's number in the list (`null` for this element, the first).
impl Serialize for Element {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(None)?;
        fn flat(e: &Element, parent: Option<usize>) -> FlatNode<'_> {
            FlatNode::Element {
                namespace: e.namespace.clone(),
                local_name: e.local_name.clone(),
                attributes: std::borrow::Cow::Borrowed(&e.attributes),
                parent,
            }
        }
        seq.serialize_element(&flat(self, None))?;
        // Per open element: its number and its children still to write.
        let mut stack = vec![(0usize, self.children.iter())];
        let mut next = 1usize;
        while let Some((number, children)) = stack.last_mut() {
            let parent = Some(*number);
            let Some(child) = children.next() else {
                stack.pop();
                continue;
            };
            match child {
                Node::Text(t) => seq.serialize_element(&FlatNode::Text {
                    text: std::borrow::Cow::Borrowed(t),
                    parent,
                })?,
                Node::Element(e) => {
                    seq.serialize_element(&flat(e, parent))?;
                    stack.push((next, e.children.iter()));
                }
            }
            next += 1;
        }
        seq.end()
    }
}

/// The flat form [`Element`]'s `Serialize` writes: the first node is the element, and every
/// other node's parent is an element before it that is still open (document order).
impl<'de> Deserialize<'de> for Element {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Element, D::Error> {
        let nodes = Vec::<FlatNode<'static>>::deserialize(deserializer)?;
        // The open elements with their numbers, the element itself at the bottom.
        let mut open: Vec<(usize, Element)> = Vec::new();
        let close = |open: &mut Vec<(usize, Element)>| {
            if let Some((_, done)) = open.pop()
                && let Some((_, parent)) = open.last_mut()
            {
                parent.children.push(done.into());
            }
        };
        for (number, node) in nodes.into_iter().enumerate() {
            let parent = match &node {
                FlatNode::Element { parent, .. } | FlatNode::Text { parent, .. } => *parent,
            };
            match (number, parent) {
                (0, None) => {}
                (0, Some(_)) => return Err(D::Error::custom("the first node has a parent")),
                (_, None) => return Err(D::Error::custom("a second node without a parent")),
                (_, Some(p)) => {
                    while open.len() > 1 && open.last().is_some_and(|(n, _)| *n != p) {
                        close(&mut open);
                    }
                    if open.last().is_none_or(|(n, _)| *n != p) {
                        return Err(D::Error::custom(format!(
                            "node {number}: its parent {p} is not an open element before it"
                        )));
                    }
                }
            }
            match node {
                FlatNode::Element {
                    namespace,
                    local_name,
                    attributes,
                    ..
                } => open.push((
                    number,
                    Element {
                        namespace,
                        local_name,
                        attributes: attributes.into_owned(),
                        children: Vec::new(),
                    },
                )),
                FlatNode::Text { text, .. } => match open.last_mut() {
                    Some((_, parent)) => parent.children.push(Node::Text(text.into_owned())),
                    None => return Err(D::Error::custom("the first node is text")),
                },
            }
        }
        while open.len() > 1 {
            close(&mut open);
        }
        match open.pop() {
            Some((_, root)) => Ok(root),
            None => Err(D::Error::custom("no element")),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Document, Element, Reader};

    #[test]
    fn elements_round_trip_flat_at_any_depth() {
        let doc = b"<a xmlns:p='urn:p' k='v' p:x='1'>t<b/><c>u<d/></c>w</a>";
        let root = Element::parse(doc).unwrap();
        let json = serde_json::to_string(&root).unwrap();
        assert_eq!(
            json,
            r#"[{"type":"element","namespace":null,"local_name":"a","attributes":[[null,"k","v"],["urn:p","x","1"]],"parent":null},{"type":"text","text":"t","parent":0},{"type":"element","namespace":null,"local_name":"b","attributes":[],"parent":0},{"type":"element","namespace":null,"local_name":"c","attributes":[],"parent":0},{"type":"text","text":"u","parent":3},{"type":"element","namespace":null,"local_name":"d","attributes":[],"parent":3},{"type":"text","text":"w","parent":0}]"#
        );
        let back: Element = serde_json::from_str(&json).unwrap();
        assert_eq!(back, root);
        // Any depth, without recursion either way.
        let deep = format!("{}{}", "<a>".repeat(100_000), "</a>".repeat(100_000));
        let root = Element::parse(deep.as_bytes()).unwrap();
        let back: Element = serde_json::from_str(&serde_json::to_string(&root).unwrap()).unwrap();
        assert_eq!(back, root);
        // Not a tree in document order.
        for bad in [
            r#"[]"#,
            r#"[{"type":"text","text":"t","parent":null}]"#,
            r#"[{"type":"element","namespace":null,"local_name":"a","attributes":[],"parent":3}]"#,
            r#"[{"type":"element","namespace":null,"local_name":"a","attributes":[],"parent":null},{"type":"text","text":"t","parent":1}]"#,
            r#"[{"type":"element","namespace":null,"local_name":"a","attributes":[],"parent":null},{"type":"element","namespace":null,"local_name":"b","attributes":[],"parent":null}]"#,
        ] {
            assert!(serde_json::from_str::<Element>(bad).is_err(), "{bad}");
        }
    }

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
