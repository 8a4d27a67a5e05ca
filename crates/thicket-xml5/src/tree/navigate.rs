//! Walking a [`Document`]: every node under one in document order without recursion, and
//! attribute lookup by name.

use std::slice;

use super::{Document, NodeId};

/// The nodes under a node in document order (the node itself first), from
/// [`Document::descendants`]. Keeps one slice iterator per open level: no recursion at any
/// depth.
#[derive(Clone, Debug)]
pub struct Descendants<'d> {
    doc: &'d Document<'d>,
    first: Option<NodeId>,
    stack: Vec<slice::Iter<'d, NodeId>>,
}

impl Iterator for Descendants<'_> {
    type Item = NodeId;

    fn next(&mut self) -> Option<NodeId> {
        if let Some(id) = self.first.take() {
            self.stack.push(self.doc.children(id).iter());
            return Some(id);
        }
        loop {
            let top = self.stack.last_mut()?;
            match top.next() {
                Some(&id) => {
                    let children = self.doc.children(id);
                    if !children.is_empty() {
                        self.stack.push(children.iter());
                    }
                    return Some(id);
                }
                None => {
                    self.stack.pop();
                }
            }
        }
    }
}

impl<'a> Document<'a> {
    /// `id` and every node under it, in document order (depth first, children in order),
    /// without recursion.
    ///
    /// ```
    /// let doc = thicket_xml5::parse("<a><b><c/></b>t<d/></a>").document;
    /// let names: Vec<String> = doc
    ///     .descendants(doc.root())
    ///     .filter_map(|n| doc.element(n).map(|e| e.local.into_owned()))
    ///     .collect();
    /// assert_eq!(names, ["a", "b", "c", "d"]);
    /// ```
    pub fn descendants(&self, id: NodeId) -> Descendants<'_> {
        Descendants {
            doc: self,
            first: (id.index() < self.len()).then_some(id),
            stack: Vec::new(),
        }
    }

    /// The value of the attribute of element `id` whose qualified name, as written, is `name`
    /// (`href`, `xlink:href`, `xmlns:a`); `None` when there is none or `id` is no element.
    ///
    /// ```
    /// let doc = thicket_xml5::parse("<a x='1' p:y='2' xmlns:p='urn:p'/>").document;
    /// let a = doc.root_element().unwrap();
    /// assert_eq!(doc.attribute(a, "x"), Some("1"));
    /// assert_eq!(doc.attribute(a, "p:y"), Some("2"));
    /// assert_eq!(doc.attribute_ns(a, "urn:p", "y"), Some("2"));
    /// assert_eq!(doc.attribute_ns(a, "urn:q", "y"), None);
    /// ```
    pub fn attribute(&self, id: NodeId, name: &str) -> Option<&str> {
        self.attributes(id)
            .find(|a| a.qualified_name() == name)
            .map(|a| a.value())
    }

    /// The value of the attribute of element `id` in namespace `namespace` with local name
    /// `local` (namespace declarations are in [`XMLNS_NAMESPACE`](super::XMLNS_NAMESPACE)).
    pub fn attribute_ns(&self, id: NodeId, namespace: &str, local: &str) -> Option<&str> {
        self.attributes(id)
            .find(|a| a.local() == local && a.namespace() == Some(namespace))
            .map(|a| a.value())
    }
}
