//! Tree construction: the draft's start, main and end phases (`builder.rs`, with the open
//! elements and namespace bindings in `scope.rs`), building a [`Document`] (`document.rs`: an
//! arena of nodes addressed by [`NodeId`], so any depth builds and drops without recursion),
//! with namespaces resolved after Namespaces in XML 1.0, with recovery. This module holds the
//! node vocabulary: ids, the views a document gives of its nodes, and qualified names.

use std::borrow::Cow;

mod builder;
mod document;
mod navigate;
mod scope;
#[cfg(feature = "serde")]
mod serde_impls;

pub use builder::TreeBuilder;
use document::{AttributeData, Node, Payload, Range32, Span32, n32};
pub use document::{AttributeRef, Attributes, Document};
pub use navigate::Descendants;

/// The XML namespace, bound to the `xml` prefix.
pub const XML_NAMESPACE: &str = "http://www.w3.org/XML/1998/namespace";
/// The namespace of `xmlns` and `xmlns:*` attributes.
pub const XMLNS_NAMESPACE: &str = "http://www.w3.org/2000/xmlns/";

/// The index of a node in its [`Document`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(u32);

impl NodeId {
    /// The id of the node at `index` in the arena (node 0 is the document node). Ids past
    /// [`Document::len`] are not nodes.
    pub fn from_index(index: usize) -> NodeId {
        NodeId(u32::try_from(index).unwrap_or(u32::MAX))
    }

    /// The position in the arena.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// An attribute to give an element with [`Document::append_element`]. A document's own
/// attributes are [`AttributeRef`]s ([`Document::attributes`]); [`AttributeRef::to_attribute`]
/// turns one into this.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Attribute<'a> {
    /// The namespace, if the name is in one (`xmlns` declarations are in [`XMLNS_NAMESPACE`]).
    pub namespace: Option<Cow<'a, str>>,
    /// The prefix as written.
    pub prefix: Option<Cow<'a, str>>,
    /// The local name.
    pub local: Cow<'a, str>,
    /// The value.
    pub value: Cow<'a, str>,
}

impl Attribute<'_> {
    /// `prefix:local` or `local`.
    pub fn qualified_name(&self) -> String {
        qualified(self.prefix.as_deref(), &self.local)
    }
}

/// An element: the input of [`Document::append_element`], and the view of a document's element
/// that [`Document::element`] gives (its strings borrowed from the document). Its attributes
/// live in the document: [`Document::attributes`].
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Element<'a> {
    /// The namespace, if any.
    pub namespace: Option<Cow<'a, str>>,
    /// The prefix as written.
    pub prefix: Option<Cow<'a, str>>,
    /// The local name.
    pub local: Cow<'a, str>,
}

impl<'a> Element<'a> {
    /// An element with this name and no attributes (add it with [`Document::append_element`]
    /// to give it some).
    pub fn new(
        namespace: Option<Cow<'a, str>>,
        prefix: Option<Cow<'a, str>>,
        local: Cow<'a, str>,
    ) -> Element<'a> {
        Element {
            namespace,
            prefix,
            local,
        }
    }

    /// `prefix:local` or `local`.
    pub fn qualified_name(&self) -> String {
        qualified(self.prefix.as_deref(), &self.local)
    }
}

/// Elements are equal when their names are; attributes are compared by [`Document`]'s
/// equality (they live in the document).
impl PartialEq for Element<'_> {
    fn eq(&self, other: &Element<'_>) -> bool {
        self.namespace == other.namespace
            && self.prefix == other.prefix
            && self.local == other.local
    }
}

impl Eq for Element<'_> {}

fn qualified(prefix: Option<&str>, local: &str) -> String {
    match prefix {
        Some(p) => format!("{p}:{local}"),
        None => local.to_owned(),
    }
}

/// What a node is.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum NodeData<'a> {
    /// The document node (always [`Document::root`]).
    Document,
    /// An element.
    Element(Element<'a>),
    /// Character data.
    Text(Cow<'a, str>),
    /// A comment.
    Comment(Cow<'a, str>),
    /// A processing instruction.
    Pi {
        /// The target.
        target: Cow<'a, str>,
        /// The data.
        data: Cow<'a, str>,
    },
    /// A DOCTYPE.
    Doctype {
        /// The name.
        name: Option<Cow<'a, str>>,
        /// The public identifier (compatibility profile).
        public_id: Option<Cow<'a, str>>,
        /// The system identifier (compatibility profile).
        system_id: Option<Cow<'a, str>>,
    },
}

/// The XML declaration's pseudo-attributes (draft profile).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct XmlDeclaration {
    /// `version`.
    pub version: Option<String>,
    /// `encoding`.
    pub encoding: Option<String>,
    /// `standalone`.
    pub standalone: Option<String>,
}

/// Splits a qualified name at its colon when it has exactly one, not at either end.
pub fn split_qname(name: &str) -> (Option<&str>, &str) {
    // One pass over the bytes (names are short): the position of the only colon, if any.
    let mut colon = None;
    for (i, &b) in name.as_bytes().iter().enumerate() {
        if b == b':' {
            if colon.is_some() {
                return (None, name);
            }
            colon = Some(i);
        }
    }
    match colon {
        Some(i) if i > 0 && i + 1 < name.len() => (Some(&name[..i]), &name[i + 1..]),
        _ => (None, name),
    }
}

#[cfg(test)]
mod tests {
    use super::scope::SCAN_BINDINGS;
    use super::*;
    use crate::{ErrorCode, Options, parse_with};

    fn element(doc: &mut Document<'_>, name: &'static str) -> NodeId {
        let root = doc.root();
        doc.append(
            root,
            NodeData::Element(Element::new(None, None, name.into())),
        )
    }

    /// Text merged into two texts in turn (each merge finds the other text at the end of the
    /// buffer) moves each text with room to spare: the buffer stays within a constant factor
    /// of the text, where moving a text on every merge would make it grow with the square.
    #[test]
    fn merges_into_alternating_texts_stay_linear() {
        let mut doc = Document::new();
        let (a, b) = (element(&mut doc, "a"), element(&mut doc, "b"));
        let n = 20_000;
        for _ in 0..n {
            doc.append(a, NodeData::Text("xy".into()));
            doc.append(b, NodeData::Text(Cow::Owned("é".to_owned())));
        }
        assert_eq!(doc.children(a).len(), 1);
        assert_eq!(doc.text_content(a), "xy".repeat(n));
        assert_eq!(doc.text_content(b), "é".repeat(n));
        let total = 4 * n;
        assert!(doc.text.len() <= 4 * total, "{} bytes", doc.text.len());
    }

    /// Merged text reads back the same wherever its parts were (the source, adjacent or not;
    /// owned strings; several texts in turn), and the document owns the same text after
    /// `into_owned`.
    #[test]
    fn merged_text_reads_back() {
        let source = "abcdefgh<x>ijklmnop";
        let mut doc = Document::with_source(source);
        let parents = [
            element(&mut doc, "p"),
            element(&mut doc, "q"),
            element(&mut doc, "r"),
        ];
        let mut expected = vec![String::new(); parents.len()];
        let mut seed = 7u32;
        for i in 0..300 {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let k = (seed >> 16) as usize % parents.len();
            let from = (seed >> 8) as usize % source.len();
            let to = (from + (seed >> 20) as usize % 5).min(source.len());
            let piece: Cow<'_, str> = match i % 3 {
                0 => Cow::Borrowed(&source[from..to]),
                1 => Cow::Owned(format!("<{i}ü>")),
                _ => Cow::Borrowed(&source[..(i % source.len())]),
            };
            expected[k].push_str(&piece);
            doc.append(parents[k], NodeData::Text(piece));
        }
        for (k, &p) in parents.iter().enumerate() {
            assert_eq!(doc.text_content(p), expected[k]);
        }
        let owned = doc.clone().into_owned();
        assert_eq!(owned, doc);
        for (k, &p) in parents.iter().enumerate() {
            assert_eq!(owned.text_content(p), expected[k]);
        }
    }

    /// Text adjacent in the source extends the text before it without copying.
    #[test]
    fn adjacent_source_text_is_not_copied() {
        let source = "<a>one two</a>";
        let mut doc = Document::with_source(source);
        let a = element(&mut doc, "a");
        doc.append(a, NodeData::Text(Cow::Borrowed(&source[3..6])));
        doc.append(a, NodeData::Text(Cow::Borrowed(&source[6..10])));
        assert_eq!(doc.text_content(a), "one two");
        assert_eq!(
            doc.text, "a",
            "only the element name (not in the source) is copied"
        );
    }

    /// A qualified name written in the source is kept as one range of it.
    #[test]
    fn names_in_the_source_are_ranges() {
        let source = "<p:q/>";
        let mut doc = Document::with_source(source);
        let root = doc.root();
        let e = Element::new(
            Some("urn:x".into()),
            Some(Cow::Borrowed(&source[1..2])),
            Cow::Borrowed(&source[3..4]),
        );
        let id = doc.append(root, NodeData::Element(e.clone()));
        assert!(doc.text.is_empty());
        assert_eq!(doc.element(id), Some(e));
        let far = Element::new(None, Some(Cow::Borrowed(&source[1..2])), "r".into());
        let id = doc.append(root, NodeData::Element(far.clone()));
        assert_eq!(doc.element(id), Some(far));
        assert_eq!(doc.text, "p:r");
    }

    /// Element and attribute namespaces (the builder remembers resolved prefixes until the
    /// bindings change) match a plain model of the scopes, on random nested markup that
    /// declares, redeclares and undeclares prefixes and the default namespace; an unbound
    /// prefix is reported every time.
    #[test]
    fn resolved_prefixes_follow_the_scopes() {
        let prefixes = ["p", "q", "rr"];
        let uris = ["urn:a", "urn:b", ""];
        let mut most_in_scope = 0;
        let mut seed = 12_345u32;
        let mut next = |n: usize| {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            (seed >> 16) as usize % n
        };
        for _ in 0..300 {
            // (markup, expected (namespace, qualified name) of each element and attribute in
            // document order, unbound prefixes)
            let mut markup = String::new();
            let mut expected: Vec<(Option<String>, String)> = Vec::new();
            let mut unbound = 0;
            let mut scopes: Vec<Vec<(String, String)>> = vec![Vec::new()];
            let mut open: Vec<String> = Vec::new();
            let mut elements = 0;
            // Large documents nest deep enough for more than `SCAN_BINDINGS` bindings.
            let size = if next(2) == 0 { 12 } else { 80 };
            let lookup = |scopes: &Vec<Vec<(String, String)>>, p: &str| {
                scopes
                    .iter()
                    .rev()
                    .flat_map(|s| s.iter().rev())
                    .find(|(q, _)| q == p)
                    .map(|(_, u)| u.clone())
                    .filter(|u| !u.is_empty())
            };
            while elements < size || !open.is_empty() {
                if !open.is_empty() && (elements >= size || next(4) == 0) {
                    let name = open.pop().unwrap_or_default();
                    scopes.pop();
                    markup.push_str(&format!("</{name}>"));
                    if open.is_empty() {
                        break;
                    }
                    continue;
                }
                elements += 1;
                let mut decls = Vec::new();
                for _ in 0..next(4) {
                    let p = if next(3) == 0 { "" } else { prefixes[next(3)] };
                    let u = uris[next(3)];
                    // (Undeclaring a prefix is an error the model does not follow.)
                    if (p.is_empty() || !u.is_empty())
                        && !decls.iter().any(|(q, _): &(String, String)| q == p)
                    {
                        decls.push((p.to_owned(), u.to_owned()));
                    }
                }
                scopes.push(decls.clone());
                most_in_scope = most_in_scope.max(scopes.iter().map(Vec::len).sum::<usize>());
                let name = match next(2) {
                    0 => "e".to_owned(),
                    _ => format!("{}:e", prefixes[next(3)]),
                };
                let ns = match name.split_once(':') {
                    Some((p, _)) => {
                        let ns = lookup(&scopes, p);
                        unbound += usize::from(ns.is_none());
                        ns
                    }
                    None => lookup(&scopes, ""),
                };
                expected.push((ns, name.clone()));
                markup.push_str(&format!("<{name}"));
                for (p, u) in &decls {
                    let attr = if p.is_empty() {
                        "xmlns".to_owned()
                    } else {
                        format!("xmlns:{p}")
                    };
                    markup.push_str(&format!(" {attr}='{u}'"));
                    expected.push((Some(XMLNS_NAMESPACE.to_owned()), attr));
                }
                let attr = format!("{}:a", prefixes[next(3)]);
                let ns = lookup(&scopes, &attr[..attr.len() - 2]);
                unbound += usize::from(ns.is_none());
                markup.push_str(&format!(" {attr}='v'"));
                expected.push((ns, attr));
                if next(2) == 0 {
                    markup.push_str("/>");
                    scopes.pop();
                } else {
                    markup.push('>');
                    open.push(name);
                }
                if open.is_empty() {
                    break;
                }
            }
            let crate::Parsed {
                document: doc,
                diagnostics,
                ..
            } = parse_with(&markup, Options::default());
            let mut got = Vec::new();
            let mut stack = vec![doc.root()];
            while let Some(id) = stack.pop() {
                if let Some(e) = doc.element(id) {
                    got.push((
                        e.namespace.as_deref().map(str::to_owned),
                        e.qualified_name(),
                    ));
                    for a in doc.attributes(id) {
                        let ns = a.namespace().map(str::to_owned);
                        got.push((ns, a.qualified_name().to_owned()));
                    }
                }
                stack.extend(doc.children(id).iter().rev());
            }
            assert_eq!(got, expected, "{markup}");
            let reported = diagnostics
                .iter()
                .filter(|d| d.code == ErrorCode::UnboundPrefix)
                .count();
            assert_eq!(reported, unbound, "{markup}");
        }
        assert!(
            most_in_scope > SCAN_BINDINGS,
            "{most_in_scope} bindings at most"
        );
    }
}
