//! Reader for the MicroXML suites: `microxml-er/tests.rust-safe.json` (`kind` + `expected`),
//! `microxml-er-generated/cases.json` (`expected`), and the strict sets `microxml-js` /
//! `microxml-java` (`result`, `recover`, or neither). Trees are `[name, {attrs}, [children]]`.
//!
//! The strict sets hold lone surrogates (`"\ud800X"`), which JSON allows and a Rust `String`
//! cannot hold: the reader replaces each lone surrogate escape by U+10FFFE (absent from every
//! suite) and marks the case, so runners can skip it with the reason.

use std::path::Path;

use serde_json::Value;

/// A tree as the suites write it; attribute order is not significant (JSON objects).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tree {
    /// Element name.
    pub name: String,
    /// Attributes, sorted by name.
    pub attributes: Vec<(String, String)>,
    /// Children.
    pub children: Vec<TreeNode>,
}

/// A child in a suite tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TreeNode {
    /// An element.
    Element(Tree),
    /// Text.
    Text(String),
}

/// What a case expects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expectation {
    /// The recovered tree; `valid` is `Some(true)` when the input is valid MicroXML (zero
    /// diagnostics), `Some(false)` when it is not (at least one), `None` when not stated.
    Tree {
        /// The expected tree.
        tree: Tree,
        /// Whether the input is valid MicroXML, when the suite says.
        valid: Option<bool>,
    },
    /// Invalid MicroXML, tree not checked.
    Invalid,
    /// No expectation (a leftover upstream entry).
    Nothing,
}

/// One case.
#[derive(Clone, Debug)]
pub struct MicroCase {
    /// The suite's id.
    pub id: String,
    /// The input.
    pub source: String,
    /// What is expected.
    pub expectation: Expectation,
    /// The upstream comment, if any.
    pub comment: Option<String>,
    /// The case held a lone surrogate (replaced by U+10FFFE).
    pub lone_surrogate: bool,
}

/// The stand-in for a lone surrogate.
pub const LONE_SURROGATE: char = '\u{10FFFE}';

/// Reads a MicroXML suite file.
pub fn read(path: &Path) -> Result<Vec<MicroCase>, String> {
    let raw = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let text = replace_lone_surrogates(&raw);
    let value: Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let items = value
        .as_array()
        .ok_or_else(|| format!("{}: not a JSON array", path.display()))?;
    items.iter().map(case).collect()
}

fn case(v: &Value) -> Result<MicroCase, String> {
    let field = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_owned);
    let id = field("id").ok_or("case without id")?;
    let source = field("source").ok_or_else(|| format!("{id}: no source"))?;
    let tree_of = |k: &str| v.get(k).map(tree).transpose();
    let expectation = if let Some(kind) = field("kind") {
        let tree = tree_of("expected")?.ok_or_else(|| format!("{id}: no expected"))?;
        Expectation::Tree {
            tree,
            valid: Some(kind == "valid"),
        }
    } else if let Some(tree) = tree_of("expected")? {
        Expectation::Tree { tree, valid: None }
    } else if let Some(tree) = tree_of("result")? {
        Expectation::Tree {
            tree,
            valid: Some(true),
        }
    } else if let Some(tree) = tree_of("recover")? {
        Expectation::Tree {
            tree,
            valid: Some(false),
        }
    } else if v.get("result").is_none() && v.get("recover").is_none() {
        Expectation::Invalid
    } else {
        Expectation::Nothing
    };
    let lone_surrogate = v.to_string().contains(LONE_SURROGATE);
    Ok(MicroCase {
        id,
        source,
        expectation,
        comment: field("comment"),
        lone_surrogate,
    })
}

/// Parses `[name, {attrs}, [children]]`.
pub fn tree(v: &Value) -> Result<Tree, String> {
    let bad = || format!("not a tree: {v}");
    let a = v.as_array().ok_or_else(bad)?;
    let name = a
        .first()
        .and_then(Value::as_str)
        .ok_or_else(bad)?
        .to_owned();
    let mut attributes: Vec<(String, String)> = a
        .get(1)
        .and_then(Value::as_object)
        .ok_or_else(bad)?
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_owned()))
        .collect();
    attributes.sort();
    let children = a
        .get(2)
        .and_then(Value::as_array)
        .ok_or_else(bad)?
        .iter()
        .map(|c| match c {
            Value::String(s) => Ok(TreeNode::Text(s.clone())),
            other => tree(other).map(TreeNode::Element),
        })
        .collect::<Result<_, _>>()?;
    Ok(Tree {
        name,
        attributes,
        children,
    })
}

/// Writes `t` back as compact JSON (attributes sorted), for failure messages.
pub fn to_json(t: &Tree) -> String {
    fn node(n: &TreeNode) -> Value {
        match n {
            TreeNode::Text(s) => Value::String(s.clone()),
            TreeNode::Element(t) => value(t),
        }
    }
    fn value(t: &Tree) -> Value {
        let attrs: serde_json::Map<String, Value> = t
            .attributes
            .iter()
            .map(|(k, v)| (k.clone(), Value::String(v.clone())))
            .collect();
        Value::Array(vec![
            Value::String(t.name.clone()),
            Value::Object(attrs),
            Value::Array(t.children.iter().map(node).collect()),
        ])
    }
    value(t).to_string()
}

/// Replaces every `\uXXXX` escape of a lone surrogate by the escape of [`LONE_SURROGATE`].
fn replace_lone_surrogates(raw: &str) -> String {
    let b = raw.as_bytes();
    let hex = |i: usize| -> Option<u32> {
        if b.get(i) == Some(&b'\\') && b.get(i + 1) == Some(&b'u') {
            u32::from_str_radix(raw.get(i + 2..i + 6)?, 16).ok()
        } else {
            None
        }
    };
    let mut out = String::with_capacity(raw.len());
    let mut i = 0;
    let mut last = 0;
    while i < b.len() {
        if b[i] == b'\\' {
            // Count the backslashes: an escaped backslash is not an escape start.
            if b.get(i + 1) == Some(&b'\\') {
                i += 2;
                continue;
            }
            if let Some(u) = hex(i) {
                let high = (0xD800..0xDC00).contains(&u);
                let low = (0xDC00..0xE000).contains(&u);
                if high && hex(i + 6).is_some_and(|v| (0xDC00..0xE000).contains(&v)) {
                    i += 12;
                    continue;
                }
                if high || low {
                    out.push_str(&raw[last..i]);
                    out.push_str("\\udbff\\udffe");
                    i += 6;
                    last = i;
                    continue;
                }
            }
        }
        i += 1;
    }
    out.push_str(&raw[last..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_surrogates_are_marked() {
        let s = replace_lone_surrogates(r#"["\ud800X", "\ud800\udc00", "\\ud800"]"#);
        let v: Vec<String> = serde_json::from_str(&s).unwrap();
        assert_eq!(v, vec!["\u{10FFFE}X", "\u{10000}", "\\ud800"]);
    }

    #[test]
    fn trees() {
        let v: Value =
            serde_json::from_str(r#"["a",{"y":"2","x":"1"},["t",["b",{},[]]]]"#).unwrap();
        let t = tree(&v).unwrap();
        assert_eq!(t.attributes[0].0, "x");
        assert_eq!(to_json(&t), r#"["a",{"x":"1","y":"2"},["t",["b",{},[]]]]"#);
    }
}
