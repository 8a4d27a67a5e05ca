//! One tree model for every dialect, flattened in document order so that printing and JSON need
//! no recursion (a million nested elements print like a flat list).

use std::fmt::Write as _;

/// An attribute as shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attr {
    /// Its namespace, when the dialect has namespaces and the attribute is in one.
    pub namespace: Option<String>,
    /// The name (qualified as written for XML5, local for LeafXML external attributes).
    pub name: String,
    /// The value.
    pub value: String,
}

/// One step of a pre-order walk of a tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// An element starts; its children follow until the matching [`Item::Close`].
    Open {
        /// Its namespace, if any.
        namespace: Option<String>,
        /// Its name (qualified as written where the dialect keeps prefixes).
        name: String,
        /// Its attributes in the dialect's order.
        attributes: Vec<Attr>,
    },
    /// The current element ends.
    Close,
    /// Character data.
    Text(String),
    /// A comment.
    Comment(String),
    /// A processing instruction.
    Pi {
        /// The target.
        target: String,
        /// The data.
        data: String,
    },
    /// A DOCTYPE.
    Doctype {
        /// The name.
        name: Option<String>,
        /// The public identifier.
        public_id: Option<String>,
        /// The system identifier.
        system_id: Option<String>,
    },
}

/// `"text"` with `\n`, `\t`, `\r`, `"`, `\` and other controls escaped, so that one item stays on
/// one line.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `{namespace}name` or `name`.
pub fn expanded(namespace: Option<&str>, name: &str) -> String {
    match namespace {
        Some(ns) => format!("{{{ns}}}{name}"),
        None => name.to_owned(),
    }
}

/// Deepest level drawn with indentation; deeper lines say their depth instead, so the output of
/// a very deep tree stays linear in its size.
const MAX_INDENT: usize = 40;

fn indent(depth: usize) -> String {
    if depth <= MAX_INDENT {
        "  ".repeat(depth)
    } else {
        format!("{}[depth {depth}] ", "  ".repeat(MAX_INDENT))
    }
}

/// The indented outline: one line per node, two spaces per level.
pub fn lines(items: &[Item]) -> Vec<String> {
    let mut out = Vec::with_capacity(items.len());
    let mut depth = 0usize;
    for item in items {
        if matches!(item, Item::Close) {
            depth = depth.saturating_sub(1);
            continue;
        }
        let indent = indent(depth);
        let line = match item {
            Item::Open {
                namespace,
                name,
                attributes,
            } => {
                depth += 1;
                let mut line = format!("{indent}<{}", expanded(namespace.as_deref(), name));
                for a in attributes {
                    let _ = write!(
                        line,
                        " {}={}",
                        expanded(a.namespace.as_deref(), &a.name),
                        quote(&a.value)
                    );
                }
                line.push('>');
                line
            }
            Item::Close => continue,
            Item::Text(t) => format!("{indent}{}", quote(t)),
            Item::Comment(c) => format!("{indent}<!--{c}-->"),
            Item::Pi { target, data } if data.is_empty() => format!("{indent}<?{target}?>"),
            Item::Pi { target, data } => format!("{indent}<?{target} {data}?>"),
            Item::Doctype {
                name,
                public_id,
                system_id,
            } => {
                let mut line = format!("{indent}<!DOCTYPE");
                if let Some(n) = name {
                    let _ = write!(line, " {n}");
                }
                if let Some(p) = public_id {
                    let _ = write!(line, " PUBLIC {}", quote(p));
                }
                if let Some(s) = system_id {
                    let _ = write!(line, " SYSTEM {}", quote(s));
                }
                line.push('>');
                line
            }
        };
        out.push(line);
    }
    out
}

/// Appends `s` as a JSON string.
pub fn json_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Appends a JSON string or `null`.
pub fn json_opt(out: &mut String, s: Option<&str>) {
    match s {
        Some(s) => json_str(out, s),
        None => out.push_str("null"),
    }
}

/// Appends the tree as JSON: `{"type":"document","children":[...]}` (see docs/cli.md).
pub fn json(items: &[Item], out: &mut String) {
    out.push_str(r#"{"type":"document","children":["#);
    // Whether the next value at each open level is the first one.
    let mut first = vec![true];
    for item in items {
        if !matches!(item, Item::Close)
            && let Some(f) = first.last_mut()
        {
            if !*f {
                out.push(',');
            }
            *f = false;
        }
        match item {
            Item::Open {
                namespace,
                name,
                attributes,
            } => {
                out.push_str(r#"{"type":"element","name":"#);
                json_str(out, name);
                out.push_str(r#","namespace":"#);
                json_opt(out, namespace.as_deref());
                out.push_str(r#","attributes":["#);
                for (i, a) in attributes.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(r#"{"name":"#);
                    json_str(out, &a.name);
                    out.push_str(r#","namespace":"#);
                    json_opt(out, a.namespace.as_deref());
                    out.push_str(r#","value":"#);
                    json_str(out, &a.value);
                    out.push('}');
                }
                out.push_str(r#"],"children":["#);
                first.push(true);
            }
            Item::Close => {
                if first.len() > 1 {
                    first.pop();
                    out.push_str("]}");
                }
            }
            Item::Text(t) => {
                out.push_str(r#"{"type":"text","data":"#);
                json_str(out, t);
                out.push('}');
            }
            Item::Comment(c) => {
                out.push_str(r#"{"type":"comment","data":"#);
                json_str(out, c);
                out.push('}');
            }
            Item::Pi { target, data } => {
                out.push_str(r#"{"type":"pi","target":"#);
                json_str(out, target);
                out.push_str(r#","data":"#);
                json_str(out, data);
                out.push('}');
            }
            Item::Doctype {
                name,
                public_id,
                system_id,
            } => {
                out.push_str(r#"{"type":"doctype","name":"#);
                json_opt(out, name.as_deref());
                out.push_str(r#","public_id":"#);
                json_opt(out, public_id.as_deref());
                out.push_str(r#","system_id":"#);
                json_opt(out, system_id.as_deref());
                out.push('}');
            }
        }
    }
    // Close anything left open (a partial tree).
    while first.len() > 1 {
        first.pop();
        out.push_str("]}");
    }
    out.push_str("]}");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<Item> {
        vec![
            Item::Comment(" c ".into()),
            Item::Open {
                namespace: Some("urn:x".into()),
                name: "x:doc".into(),
                attributes: vec![Attr {
                    namespace: None,
                    name: "a".into(),
                    value: "1\"2".into(),
                }],
            },
            Item::Text("hi\n".into()),
            Item::Open {
                namespace: None,
                name: "br".into(),
                attributes: vec![],
            },
            Item::Close,
            Item::Close,
        ]
    }

    #[test]
    fn outline_indents_children() {
        assert_eq!(
            lines(&sample()),
            [
                "<!-- c -->",
                "<{urn:x}x:doc a=\"1\\\"2\">",
                "  \"hi\\n\"",
                "  <br>"
            ]
        );
    }

    #[test]
    fn json_nests_children() {
        let mut out = String::new();
        json(&sample(), &mut out);
        assert_eq!(
            out,
            r#"{"type":"document","children":[{"type":"comment","data":" c "},{"type":"element","name":"x:doc","namespace":"urn:x","attributes":[{"name":"a","namespace":null,"value":"1\"2"}],"children":[{"type":"text","data":"hi\n"},{"type":"element","name":"br","namespace":null,"attributes":[],"children":[]}]}]}"#
        );
    }

    #[test]
    fn deep_trees_need_no_recursion() {
        let mut items = Vec::new();
        for _ in 0..200_000 {
            items.push(Item::Open {
                namespace: None,
                name: "a".into(),
                attributes: vec![],
            });
        }
        let mut out = String::new();
        json(&items, &mut out);
        assert!(out.ends_with("]}]}"));
        assert_eq!(lines(&items).len(), 200_000);
    }
}
