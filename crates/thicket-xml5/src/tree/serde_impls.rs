//! `Serialize` and `Deserialize` for [`Document`] (feature `serde`):
//! `{"span": ..., "xml_declaration": ..., "nodes": [...]}`, the span being the document node's
//! and the nodes those below it as a flat list in document order, each with the index of its
//! parent in the list (`null` for the document node's children), its data, its attributes
//! (elements) and its span. Flat, so that documents of any depth go through without recursion;
//! deserializing rebuilds an owned document with [`Document::append_element`] and
//! [`Document::append`].

use std::borrow::Cow;

use serde::de::Error as _;
use serde::ser::SerializeSeq;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use thicket_input::Span;

use super::document::Span32;
use super::{Attribute, Document, NodeData, NodeId, XmlDeclaration};

#[derive(Serialize, Deserialize)]
struct Flat<'a> {
    parent: Option<usize>,
    #[serde(borrow)]
    data: NodeData<'a>,
    #[serde(default, borrow, skip_serializing_if = "Vec::is_empty")]
    attributes: Vec<Attribute<'a>>,
    #[serde(default)]
    span: Option<Span>,
}

#[derive(Serialize)]
struct Out<'d> {
    span: Option<Span>,
    xml_declaration: &'d Option<XmlDeclaration>,
    nodes: Nodes<'d>,
}

#[derive(Deserialize)]
struct In<'a> {
    #[serde(default)]
    span: Option<Span>,
    #[serde(default)]
    xml_declaration: Option<XmlDeclaration>,
    #[serde(borrow)]
    nodes: Vec<Flat<'a>>,
}

/// The node list of a document, written as it is walked.
struct Nodes<'d>(&'d Document<'d>);

impl Serialize for Document<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Out {
            span: self.span(self.root()),
            xml_declaration: &self.xml_declaration,
            nodes: Nodes(self),
        }
        .serialize(serializer)
    }
}

impl Serialize for Nodes<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let doc = self.0;
        // Each node's index in the list, found as the list is written (parents come first).
        let mut index = vec![usize::MAX; doc.len()];
        let mut seq = serializer.serialize_seq(None)?;
        for (i, id) in doc.descendants(doc.root()).skip(1).enumerate() {
            index[id.index()] = i;
            let parent = doc
                .parent(id)
                .filter(|&p| p != doc.root())
                .map(|p| index[p.index()]);
            seq.serialize_element(&Flat {
                parent,
                data: doc.data(id),
                attributes: doc.attributes(id).map(|a| a.to_attribute()).collect(),
                span: doc.span(id),
            })?;
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for Document<'static> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let input = In::deserialize(deserializer)?;
        let flat = input.nodes;
        let mut doc = Document::new();
        doc.xml_declaration = input.xml_declaration;
        if let Some(span) = input.span {
            doc.nodes[0].span = Span32::of(span);
        }
        let mut ids: Vec<NodeId> = Vec::with_capacity(flat.len());
        for (i, node) in flat.into_iter().enumerate() {
            let parent = match node.parent {
                None => doc.root(),
                Some(p) if p < i && matches!(doc.data(ids[p]), NodeData::Element(_)) => ids[p],
                Some(p) => {
                    return Err(D::Error::custom(format_args!(
                        "node {i}: its parent {p} is no element before it"
                    )));
                }
            };
            let id = match into_owned(node.data) {
                NodeData::Document => return Err(D::Error::custom("a second document node")),
                NodeData::Element(e) => {
                    doc.append_element(parent, e, node.attributes.into_iter().map(owned_attribute))
                }
                data => doc.append(parent, data),
            };
            if let Some(span) = node.span {
                doc.nodes[id.index()].span = Span32::of(span);
            }
            ids.push(id);
        }
        Ok(doc)
    }
}

fn own(s: Cow<'_, str>) -> Cow<'static, str> {
    Cow::Owned(s.into_owned())
}

fn owned_attribute(a: Attribute<'_>) -> Attribute<'static> {
    Attribute {
        namespace: a.namespace.map(own),
        prefix: a.prefix.map(own),
        local: own(a.local),
        value: own(a.value),
    }
}

fn into_owned(data: NodeData<'_>) -> NodeData<'static> {
    match data {
        NodeData::Document => NodeData::Document,
        NodeData::Element(e) => NodeData::Element(super::Element {
            namespace: e.namespace.map(own),
            prefix: e.prefix.map(own),
            local: own(e.local),
        }),
        NodeData::Text(t) => NodeData::Text(own(t)),
        NodeData::Comment(t) => NodeData::Comment(own(t)),
        NodeData::Pi { target, data } => NodeData::Pi {
            target: own(target),
            data: own(data),
        },
        NodeData::Doctype {
            name,
            public_id,
            system_id,
        } => NodeData::Doctype {
            name: name.map(own),
            public_id: public_id.map(own),
            system_id: system_id.map(own),
        },
    }
}
