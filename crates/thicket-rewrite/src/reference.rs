//! The non-streaming matcher: selectors evaluated right to left over a whole XML5 tree (the
//! definition the streaming matcher is tested against).

use std::collections::HashMap;

use thicket_xml5::{Document, NodeId};

use crate::namespaces::NsView;
use crate::selector::{Attr, Candidate, Combinator, Selector, SelectorList};

impl SelectorList {
    /// The elements of an XML5 document (`thicket_xml5::parse`) this list matches, in document
    /// order, as the byte offsets of their start tags. Namespace-qualified selectors compare
    /// with the namespaces the tree resolved. It walks the tree and tests each
    /// selector right to left through parents and earlier siblings: the reference that
    /// [`crate::Rewriter`]'s streaming matcher agrees with on well-formed input.
    ///
    /// ```
    /// let list = thicket_rewrite::SelectorList::parse("a > b + c").unwrap();
    /// let doc = thicket_xml5::parse("<a><b/><c/><c/></a>").document;
    /// assert_eq!(list.matches_in_xml5(&doc), [7]);
    /// ```
    pub fn matches_in_xml5(&self, doc: &Document<'_>) -> Vec<usize> {
        let tree = Tree {
            doc,
            info: infos(doc),
        };
        doc.descendants(doc.root())
            .filter(|&n| doc.element(n).is_some())
            .filter(|&n| {
                self.selectors
                    .iter()
                    .any(|s| tree.matches_at(s, s.compounds.len() - 1, n))
            })
            .filter_map(|n| doc.span(n).map(|s| s.start))
            .collect()
    }
}

/// What the tree says about each element: its previous element sibling and its 1-based
/// positions among its element siblings (all of them, and those of its local name).
struct Info {
    previous: Option<NodeId>,
    index: u32,
    type_index: u32,
    local: String,
    attributes: Vec<(String, String)>,
    namespaces: Namespaces,
}

/// The namespaces the tree gave an element and its attributes (namespace, local name).
struct Namespaces {
    element: Option<String>,
    attributes: Vec<(Option<String>, String)>,
}

impl NsView for Namespaces {
    fn element_namespace(&self) -> Option<&str> {
        self.element.as_deref()
    }

    fn attribute_namespace<'a>(
        &'a self,
        index: usize,
        name: &'a str,
        _value: &str,
    ) -> (Option<&'a str>, &'a str) {
        match self.attributes.get(index) {
            Some((ns, local)) => (ns.as_deref(), local),
            None => (None, name),
        }
    }
}

fn infos(doc: &Document<'_>) -> HashMap<NodeId, Info> {
    let mut map = HashMap::new();
    for n in doc.descendants(doc.root()) {
        let mut previous = None;
        let mut index = 0;
        let mut per_name: HashMap<String, u32> = HashMap::new();
        for &c in doc.children(n) {
            let Some(e) = doc.element(c) else { continue };
            index += 1;
            let t = per_name.entry(e.local.to_string()).or_default();
            *t += 1;
            let attributes = doc
                .attributes(c)
                .map(|a| (a.qualified_name().to_owned(), a.value().to_owned()))
                .collect();
            let namespaces = Namespaces {
                element: e.namespace.as_deref().map(str::to_owned),
                attributes: doc
                    .attributes(c)
                    .map(|a| (a.namespace().map(str::to_owned), a.local().to_owned()))
                    .collect(),
            };
            map.insert(
                c,
                Info {
                    previous,
                    index,
                    type_index: *t,
                    local: e.local.to_string(),
                    attributes,
                    namespaces,
                },
            );
            previous = Some(c);
        }
    }
    map
}

struct Tree<'d, 'a> {
    doc: &'d Document<'a>,
    info: HashMap<NodeId, Info>,
}

impl Tree<'_, '_> {
    fn compound_matches(&self, s: &Selector, k: usize, n: NodeId) -> bool {
        let Some(info) = self.info.get(&n) else {
            return false;
        };
        let attributes: Vec<Attr<'_>> = info
            .attributes
            .iter()
            .map(|(name, value)| Attr {
                name,
                value,
                span: thicket_input::Span::new(0, 0),
            })
            .collect();
        let candidate = Candidate {
            local: &info.local,
            attributes: &attributes,
            html: false,
            index: info.index,
            type_index: info.type_index,
            ns: Some(&info.namespaces),
        };
        s.compounds[k].matches(&candidate)
    }

    fn previous(&self, n: NodeId) -> Option<NodeId> {
        self.info.get(&n).and_then(|i| i.previous)
    }

    fn matches_at(&self, s: &Selector, k: usize, n: NodeId) -> bool {
        if !self.compound_matches(s, k, n) {
            return false;
        }
        if k == 0 {
            return true;
        }
        let left = k - 1;
        let doc = self.doc;
        match s.combinators[left] {
            Combinator::Child => doc.parent(n).is_some_and(|p| self.matches_at(s, left, p)),
            Combinator::Descendant => {
                let mut at = doc.parent(n);
                while let Some(p) = at {
                    if self.matches_at(s, left, p) {
                        return true;
                    }
                    at = doc.parent(p);
                }
                false
            }
            Combinator::Adjacent => self
                .previous(n)
                .is_some_and(|p| self.matches_at(s, left, p)),
            Combinator::Sibling => {
                let mut at = self.previous(n);
                while let Some(p) = at {
                    if self.matches_at(s, left, p) {
                        return true;
                    }
                    at = self.previous(p);
                }
                false
            }
        }
    }
}
