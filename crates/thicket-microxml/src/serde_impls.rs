//! `Serialize` and `Deserialize` for [`Document`] (feature `serde`): `{"nodes": [...]}`, every
//! node of the tree as a flat list in document order, the root first. Each has the index of
//! its parent in the list (`null` for the root), its span, and either `name` and `attributes`
//! (with their spans) or `text`. Flat, so that trees of any depth go through without recursion;
//! deserializing builds an owned document's arena directly and checks that the list is a tree.

use std::borrow::Cow;

use serde::de::Error as _;
use serde::ser::SerializeSeq;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use thicket_input::Span;

use crate::NodeRef;
use crate::document::{AttributeData, Document, MAX_TEXT_LEN, NONE, NodeData, Span32, Str};
use crate::element::DOC_WRAPPER;
use crate::navigate::Descendants;

#[derive(Serialize, Deserialize)]
struct Flat<'a> {
    parent: Option<usize>,
    span: Span,
    #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
    name: Option<Cow<'a, str>>,
    #[serde(default, borrow, skip_serializing_if = "Vec::is_empty")]
    attributes: Vec<FlatAttribute<'a>>,
    #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
    text: Option<Cow<'a, str>>,
}

#[derive(Serialize, Deserialize)]
struct FlatAttribute<'a> {
    #[serde(borrow)]
    name: Cow<'a, str>,
    #[serde(borrow)]
    value: Cow<'a, str>,
    name_span: Span,
    value_span: Span,
}

#[derive(Serialize)]
struct Out<'d, 'a> {
    nodes: Nodes<'d, 'a>,
}

#[derive(Deserialize)]
struct In<'a> {
    #[serde(borrow)]
    nodes: Vec<Flat<'a>>,
}

struct Nodes<'d, 'a>(&'d Document<'a>);

impl Serialize for Document<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Out { nodes: Nodes(self) }.serialize(serializer)
    }
}

impl Serialize for Nodes<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let doc = self.0;
        // Each node's index in the list, found as it is written (parents come first).
        let mut index = vec![usize::MAX; doc.nodes.len()];
        let mut seq = serializer.serialize_seq(None)?;
        let walk: Descendants<'_, '_> = doc.descendants();
        for (i, node) in walk.enumerate() {
            index[node.id() as usize] = i;
            let parent = node.parent().map(|p| index[p.id as usize]);
            let flat = match node {
                NodeRef::Element(e) => Flat {
                    parent,
                    span: e.span(),
                    name: Some(Cow::Borrowed(e.name())),
                    attributes: e
                        .attributes()
                        .map(|a| FlatAttribute {
                            name: Cow::Borrowed(a.name()),
                            value: Cow::Borrowed(a.value()),
                            name_span: a.name_span(),
                            value_span: a.value_span(),
                        })
                        .collect(),
                    text: None,
                },
                NodeRef::Text(t) => Flat {
                    parent,
                    span: t.span(),
                    name: None,
                    attributes: Vec::new(),
                    text: Some(Cow::Borrowed(t.as_str())),
                },
            };
            seq.serialize_element(&flat)?;
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for Document<'static> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let flat = In::deserialize(deserializer)?.nodes;
        build(flat).map_err(D::Error::custom)
    }
}

/// The arena of `flat`, or why it is not a tree.
fn build(flat: Vec<Flat<'_>>) -> Result<Document<'static>, String> {
    let mut text = String::new();
    let mut keep = |s: &str| -> Result<Str, String> {
        if text.len() + s.len() > MAX_TEXT_LEN {
            return Err("the document's text is too long".into());
        }
        let start = text.len();
        text.push_str(s);
        Ok(Str::new(start, s.len()))
    };
    let first = flat.first().ok_or("a document has a root")?;
    // Node 0 is the `#doc` wrapper: the root when the list's root is one, else unused.
    let wrapper_root = first.name.as_deref() == Some(DOC_WRAPPER);
    let mut nodes = Vec::with_capacity(flat.len() + 1);
    let mut attributes = Vec::new();
    if !wrapper_root {
        nodes.push(NodeData::element(
            keep(DOC_WRAPPER)?,
            (0, 0),
            Span::empty(0),
        ));
    }
    let base = nodes.len();
    let mut last_child = vec![NONE; flat.len() + base];
    for (i, node) in flat.into_iter().enumerate() {
        let id = (base + i) as u32;
        let data = match (node.name, node.text) {
            (Some(name), None) => {
                let start = attributes.len();
                for a in node.attributes {
                    attributes.push(AttributeData {
                        name: keep(&a.name)?,
                        value: keep(&a.value)?,
                        name_span: Span32::new(a.name_span),
                        value_span: Span32::new(a.value_span),
                    });
                }
                let range = (start as u32, attributes.len() as u32);
                NodeData::element(keep(&name)?, range, node.span)
            }
            (None, Some(t)) if node.attributes.is_empty() => NodeData::text(keep(&t)?, node.span),
            _ => return Err(format!("node {i}: either a name (and attributes) or text")),
        };
        match (i, node.parent) {
            (0, None) if !data.is_text() => {}
            (0, _) => return Err("the root is an element without a parent".into()),
            (_, Some(p)) if p < i && !nodes[base + p].is_text() => {
                let p = base + p;
                match last_child[p] {
                    NONE => nodes[p].first_child = id,
                    l => nodes[l as usize].next_sibling = id,
                }
                last_child[p] = id;
            }
            _ => return Err(format!("node {i}: its parent must be an element before it")),
        }
        nodes.push(data);
    }
    Ok(Document {
        source: "",
        text,
        nodes,
        attributes,
        root: base as u32,
        parents: std::sync::OnceLock::new(),
    })
}
