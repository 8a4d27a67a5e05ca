//! Writes a [`Document`] as XML: well-formed XML 1.0 whenever the tree can be written so, and in
//! every case text that the XML5 parser (draft profile) reads back into the same tree.

use std::collections::HashMap;
use std::fmt::Write as _;

use crate::tree::{Document, NodeData, NodeId, XMLNS_NAMESPACE, split_qname};

/// Serializes `doc`.
///
/// Text and attribute values are escaped (`&amp;`, `&lt;`, `&gt;`, `&quot;`, and `&#9;`,
/// `&#10;`, `&#13;` in attribute values, `&#13;` in text, so every character survives). Namespace
/// declarations are written as the tree's attributes hold them; where an element or attribute is
/// in a namespace that those do not declare, a declaration is added.
///
/// Some trees have no well-formed XML 1.0 form: comments holding `--` or ending in `-`, names
/// that are not XML names, processing-instruction data holding `?>`, and control characters.
/// These are written as they are, so that XML5 (which reads them without loss) gets the same
/// tree back. A comment starting with `>` or `->` reads back as an empty comment followed by
/// text, an attribute whose name starts with `:` is dropped when read back, and a carriage return in a comment, a processing instruction or a name cannot be
/// escaped and reads back as a line feed.
pub fn serialize(doc: &Document<'_>) -> String {
    let mut out = String::new();
    if let Some(decl) = &doc.xml_declaration {
        out.push_str("<?xml");
        for (name, value) in [
            ("version", &decl.version),
            ("encoding", &decl.encoding),
            ("standalone", &decl.standalone),
        ] {
            if let Some(v) = value {
                let q = if v.contains('"') { '\'' } else { '"' };
                let _ = write!(out, " {name}={q}{v}{q}");
            }
        }
        out.push_str("?>");
    }
    // In-scope bindings as the output declares them.
    let mut scope = Scope::default();
    enum Step {
        Open(NodeId),
        Close(NodeId, usize),
    }
    let mut stack: Vec<Step> = doc
        .children(doc.root())
        .iter()
        .rev()
        .map(|&c| Step::Open(c))
        .collect();
    while let Some(step) = stack.pop() {
        let id = match step {
            Step::Close(id, pushed) => {
                if let Some(e) = doc.element(id) {
                    let _ = write!(out, "</{}>", e.qualified_name());
                }
                scope.truncate(scope.len() - pushed);
                continue;
            }
            Step::Open(id) => id,
        };
        match doc.data(id) {
            NodeData::Document => {}
            NodeData::Element(e) => {
                let before = scope.len();
                let name = e.qualified_name();
                let _ = write!(out, "<{name}");
                for a in doc.attributes(id) {
                    let qname = a.qualified_name();
                    if a.namespace() == Some(XMLNS_NAMESPACE) {
                        let (p, l) = split_qname(qname);
                        let prefix = match (p, l) {
                            (None, "xmlns") => Some(None),
                            (Some("xmlns"), p) => Some(Some(p.to_owned())),
                            _ => None,
                        };
                        if let Some(prefix) = prefix {
                            let ns = (!a.value().is_empty()).then(|| a.value().to_owned());
                            scope.push(prefix.as_deref(), ns);
                        }
                    }
                    let _ = write!(out, " {qname}=\"");
                    escape_attribute(&mut out, a.value());
                    out.push('"');
                }
                // Declarations the attributes do not make.
                let (prefix, _) = split_qname(&name);
                if lookup(&scope, prefix) != e.namespace.as_deref() {
                    if let Some(ns) = &e.namespace {
                        declare(&mut out, &mut scope, prefix, Some(ns));
                    } else if prefix.is_none() {
                        declare(&mut out, &mut scope, None, None);
                    }
                }
                for a in doc.attributes(id) {
                    if let (Some(p), Some(ns)) = (a.prefix(), a.namespace())
                        && p != "xmlns"
                        && lookup(&scope, Some(p)) != Some(ns)
                    {
                        declare(&mut out, &mut scope, Some(p), Some(ns));
                    }
                }
                let children = doc.children(id);
                if children.is_empty() {
                    out.push_str("/>");
                    scope.truncate(before);
                } else {
                    out.push('>');
                    stack.push(Step::Close(id, scope.len() - before));
                    stack.extend(children.iter().rev().map(|&c| Step::Open(c)));
                }
            }
            NodeData::Text(t) => escape_text(&mut out, &t),
            NodeData::Comment(c) => {
                let _ = write!(out, "<!--{c}-->");
            }
            NodeData::Pi { target, data } => {
                if data.is_empty() {
                    let _ = write!(out, "<?{target}?>");
                } else {
                    let _ = write!(out, "<?{target} {data}?>");
                }
            }
            NodeData::Doctype {
                name,
                public_id,
                system_id,
            } => {
                match name {
                    Some(name) => {
                        let _ = write!(out, "<!DOCTYPE {name}");
                    }
                    None => out.push_str("<!DOCTYPE"),
                }
                match (public_id, system_id) {
                    (Some(p), Some(s)) => {
                        let _ = write!(out, " PUBLIC \"{p}\" \"{s}\"");
                    }
                    (Some(p), None) => {
                        let _ = write!(out, " PUBLIC \"{p}\"");
                    }
                    (None, Some(s)) => {
                        let _ = write!(out, " SYSTEM \"{s}\"");
                    }
                    (None, None) => {}
                }
                out.push('>');
            }
        }
    }
    out
}

/// Namespace bindings: for each prefix (`""` = default) its namespaces innermost last, and the
/// prefixes in the order they were bound, so lookups and unwinding are O(1) per binding.
#[derive(Default)]
struct Scope {
    order: Vec<String>,
    map: HashMap<String, Vec<Option<String>>>,
}

impl Scope {
    fn len(&self) -> usize {
        self.order.len()
    }

    fn push(&mut self, prefix: Option<&str>, ns: Option<String>) {
        let key = prefix.unwrap_or("").to_owned();
        self.map.entry(key.clone()).or_default().push(ns);
        self.order.push(key);
    }

    fn truncate(&mut self, len: usize) {
        while self.order.len() > len {
            if let Some(p) = self.order.pop()
                && let Some(v) = self.map.get_mut(&p)
            {
                v.pop();
            }
        }
    }
}

fn lookup<'s>(scope: &'s Scope, prefix: Option<&str>) -> Option<&'s str> {
    match prefix {
        Some("xml") => return Some(crate::tree::XML_NAMESPACE),
        Some("xmlns") => return Some(XMLNS_NAMESPACE),
        _ => {}
    }
    scope
        .map
        .get(prefix.unwrap_or(""))
        .and_then(|v| v.last())
        .and_then(|ns| ns.as_deref())
}

fn declare(out: &mut String, scope: &mut Scope, prefix: Option<&str>, ns: Option<&str>) {
    match prefix {
        Some(p) => {
            let _ = write!(out, " xmlns:{p}=\"");
        }
        None => out.push_str(" xmlns=\""),
    }
    escape_attribute(out, ns.unwrap_or(""));
    out.push('"');
    scope.push(prefix, ns.map(str::to_owned));
}

fn escape_text(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\r' => out.push_str("&#13;"),
            c => out.push(c),
        }
    }
}

fn escape_attribute(out: &mut String, value: &str) {
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '"' => out.push_str("&quot;"),
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            c => out.push(c),
        }
    }
}
