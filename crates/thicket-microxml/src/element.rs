//! The owned tree: [`Element`], [`Node`], [`Attribute`], for building by hand, comparing and
//! serializing ([`crate::Document::to_element`] gives one).

use std::fmt;

/// The name of the element that wraps zero or several top-level nodes.
pub const DOC_WRAPPER: &str = "#doc";

/// An attribute: name and value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Attribute {
    /// The name.
    pub name: String,
    /// The value.
    pub value: String,
}

/// A child of an element.
#[derive(Clone, PartialEq, Eq)]
pub enum Node {
    /// An element.
    Element(Element),
    /// Text; adjacent characters are always merged into one `Text`.
    Text(String),
}

/// An element: name, attributes (in order of first occurrence, names unique) and children.
///
/// Dropping, comparing, cloning and formatting never recurse, so trees of any depth are fine.
#[derive(Default)]
pub struct Element {
    /// The element name (`#doc` for the wrapper).
    pub name: String,
    /// The attributes, in order, names unique.
    pub attributes: Vec<Attribute>,
    /// The children.
    pub children: Vec<Node>,
}

impl Element {
    /// An element with no attributes and no children.
    pub fn new(name: impl Into<String>) -> Element {
        Element {
            name: name.into(),
            attributes: Vec::new(),
            children: Vec::new(),
        }
    }

    /// The value of the attribute `name`.
    pub fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|a| a.name == name)
            .map(|a| a.value.as_str())
    }

    /// The same element without children.
    fn shallow(&self) -> Element {
        Element {
            name: self.name.clone(),
            attributes: self.attributes.clone(),
            children: Vec::new(),
        }
    }

    /// Depth of the deepest element below (0 for no element children), computed without
    /// recursion.
    pub fn depth(&self) -> usize {
        let mut max = 0;
        let mut stack: Vec<(&Element, usize)> = vec![(self, 0)];
        while let Some((e, d)) = stack.pop() {
            max = max.max(d);
            for c in &e.children {
                if let Node::Element(c) = c {
                    stack.push((c, d + 1));
                }
            }
        }
        max
    }
}

impl Drop for Element {
    fn drop(&mut self) {
        // Elements whose children hold no element with element children drop with the default
        // glue at a bounded depth. Deeper descendants are moved onto a heap stack first, so that
        // each element is dropped with at most one level of element children left.
        fn deep(e: &Element) -> bool {
            e.children.iter().any(|g| matches!(g, Node::Element(_)))
        }
        fn take_deep(children: &mut Vec<Node>, stack: &mut Vec<Element>) {
            for c in children.drain(..) {
                if let Node::Element(e) = c
                    && deep(&e)
                {
                    stack.push(e);
                }
            }
        }
        if !self
            .children
            .iter()
            .any(|c| matches!(c, Node::Element(e) if deep(e)))
        {
            return;
        }
        let mut stack: Vec<Element> = Vec::new();
        take_deep(&mut self.children, &mut stack);
        while let Some(mut e) = stack.pop() {
            take_deep(&mut e.children, &mut stack);
        }
    }
}

impl Clone for Element {
    fn clone(&self) -> Element {
        // Pairs of (source, its clone under construction); a finished clone is pushed into its
        // parent's children.
        let mut out_stack: Vec<Element> = vec![self.shallow()];
        let mut work: Vec<std::slice::Iter<'_, Node>> = vec![self.children.iter()];
        while let Some(iter) = work.last_mut() {
            match iter.next() {
                Some(Node::Text(t)) => {
                    let top = out_stack.len() - 1;
                    out_stack[top].children.push(Node::Text(t.clone()));
                }
                Some(Node::Element(e)) => {
                    out_stack.push(e.shallow());
                    work.push(e.children.iter());
                }
                None => {
                    work.pop();
                    let done = out_stack.pop().unwrap_or_default();
                    match out_stack.last_mut() {
                        Some(parent) => parent.children.push(Node::Element(done)),
                        None => return done,
                    }
                }
            }
        }
        Element::default()
    }
}

impl PartialEq for Element {
    fn eq(&self, other: &Element) -> bool {
        let mut stack: Vec<(&Element, &Element)> = vec![(self, other)];
        while let Some((a, b)) = stack.pop() {
            if a.name != b.name
                || a.attributes != b.attributes
                || a.children.len() != b.children.len()
            {
                return false;
            }
            for (x, y) in a.children.iter().zip(&b.children) {
                match (x, y) {
                    (Node::Text(x), Node::Text(y)) if x == y => {}
                    (Node::Element(x), Node::Element(y)) => stack.push((x, y)),
                    _ => return false,
                }
            }
        }
        true
    }
}

impl Eq for Element {}

impl fmt::Debug for Element {
    /// The tree as JSON-like text, `[name, {attrs}, [children]]`, written without recursion.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::to_json(self))
    }
}

impl fmt::Debug for Node {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Node::Element(e) => fmt::Debug::fmt(e, f),
            Node::Text(t) => fmt::Debug::fmt(t, f),
        }
    }
}
