//! Walking a [`Document`] in any direction without recursion: every node under an element in
//! document order, the parent of a node, and the text under an element.

use crate::document::{Document, ElementRef, NONE, NodeRef, TextRef};

/// No parent (the root, and nodes outside the root's tree).
const NO_PARENT: u32 = u32::MAX;

/// The nodes under an element in document order, the element itself first
/// ([`ElementRef::descendants`]). Keeps one pending sibling per open level: no recursion at
/// any depth.
#[derive(Clone, Debug)]
pub struct Descendants<'d, 'a> {
    doc: &'d Document<'a>,
    first: Option<u32>,
    /// The next node to visit at each open level (`NONE` when that level is done).
    pending: Vec<u32>,
}

impl<'d, 'a> Iterator for Descendants<'d, 'a> {
    type Item = NodeRef<'d, 'a>;

    fn next(&mut self) -> Option<NodeRef<'d, 'a>> {
        let id = match self.first.take() {
            Some(id) => id,
            None => loop {
                let id = self.pending.pop()?;
                if id != NONE {
                    self.pending.push(self.doc.nodes[id as usize].next_sibling);
                    break id;
                }
            },
        };
        let n = &self.doc.nodes[id as usize];
        if n.first_child != NONE {
            self.pending.push(n.first_child);
        }
        Some(self.doc.node(id))
    }
}

impl<'a> Document<'a> {
    /// The node `id` as a handle.
    pub(crate) fn node(&self, id: u32) -> NodeRef<'_, 'a> {
        if self.nodes[id as usize].is_text() {
            NodeRef::Text(TextRef { doc: self, id })
        } else {
            NodeRef::Element(ElementRef { doc: self, id })
        }
    }

    /// Every node of the tree in document order, the root first: [`ElementRef::descendants`]
    /// of [`Document::root`].
    pub fn descendants(&self) -> Descendants<'_, 'a> {
        self.root().descendants()
    }

    /// The parent of node `id` (made for all nodes on the first call, in one pass).
    fn parent_of(&self, id: u32) -> Option<ElementRef<'_, 'a>> {
        let parents = self.parents.get_or_init(|| {
            let mut parents = vec![NO_PARENT; self.nodes.len()];
            for node in self.descendants() {
                if let NodeRef::Element(e) = node {
                    let mut c = self.nodes[e.id as usize].first_child;
                    while c != NONE {
                        parents[c as usize] = e.id;
                        c = self.nodes[c as usize].next_sibling;
                    }
                }
            }
            parents
        });
        match parents.get(id as usize) {
            Some(&p) if p != NO_PARENT => Some(ElementRef { doc: self, id: p }),
            _ => None,
        }
    }
}

impl<'d, 'a> ElementRef<'d, 'a> {
    /// The element and every node under it, in document order, without recursion.
    ///
    /// ```
    /// use thicket_microxml::{NodeRef, parse};
    /// let parsed = parse("<a><b><c/></b>t<d/></a>");
    /// let names: Vec<&str> = parsed
    ///     .root()
    ///     .descendants()
    ///     .filter_map(|n| match n {
    ///         NodeRef::Element(e) => Some(e.name()),
    ///         NodeRef::Text(_) => None,
    ///     })
    ///     .collect();
    /// assert_eq!(names, ["a", "b", "c", "d"]);
    /// ```
    pub fn descendants(&self) -> Descendants<'d, 'a> {
        Descendants {
            doc: self.doc,
            first: Some(self.id),
            pending: Vec::new(),
        }
    }

    /// The parent element (`None` for the root). The first call on a document finds the
    /// parents of all its nodes in one pass (4 bytes per node, kept with the document).
    ///
    /// ```
    /// let parsed = thicket_microxml::parse("<a><b/></a>");
    /// let b = parsed.root().children().next().unwrap();
    /// assert_eq!(b.parent().unwrap().name(), "a");
    /// assert!(parsed.root().parent().is_none());
    /// ```
    pub fn parent(&self) -> Option<ElementRef<'d, 'a>> {
        self.doc.parent_of(self.id)
    }

    /// The text of every text node under the element, in document order.
    ///
    /// ```
    /// let parsed = thicket_microxml::parse("<p>Tom <b>&amp;</b> Jerry</p>");
    /// assert_eq!(parsed.root().text_content(), "Tom & Jerry");
    /// ```
    pub fn text_content(&self) -> String {
        let mut out = String::new();
        for n in self.descendants() {
            if let NodeRef::Text(t) = n {
                out.push_str(t.as_str());
            }
        }
        out
    }
}

impl<'d, 'a> TextRef<'d, 'a> {
    /// The element the text is in.
    pub fn parent(&self) -> Option<ElementRef<'d, 'a>> {
        self.doc.parent_of(self.id)
    }
}

impl<'d, 'a> NodeRef<'d, 'a> {
    /// The node's index in the arena.
    #[cfg_attr(not(feature = "serde"), allow(dead_code))]
    pub(crate) fn id(&self) -> u32 {
        match self {
            NodeRef::Element(e) => e.id,
            NodeRef::Text(t) => t.id,
        }
    }

    /// The parent element (`None` for the root).
    pub fn parent(&self) -> Option<ElementRef<'d, 'a>> {
        match self {
            NodeRef::Element(e) => e.parent(),
            NodeRef::Text(t) => t.parent(),
        }
    }

    /// The text under the node: a text node's characters, or an element's
    /// [`text_content`](ElementRef::text_content).
    pub fn text_content(&self) -> String {
        match self {
            NodeRef::Element(e) => e.text_content(),
            NodeRef::Text(t) => t.as_str().to_owned(),
        }
    }
}
