//! Writing a tree as MicroXML text.

use crate::element::{DOC_WRAPPER, Element, Node};

/// Why a tree cannot be written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SerializeError {
    /// An element or attribute name that is not a recovery `NAME`, so no text parses to it.
    #[error("`{0}` cannot be written as a name")]
    InvalidName(String),
}

fn check(name: &str) -> Result<(), SerializeError> {
    if thicket_names::microxml::is_name(name) {
        Ok(())
    } else {
        Err(SerializeError::InvalidName(name.to_owned()))
    }
}

fn escape(out: &mut String, text: &str, attribute: bool) {
    let mut last = 0;
    for (i, c) in text.char_indices() {
        let rep = match c {
            '&' => "&amp;",
            '<' => "&lt;",
            '>' => "&gt;",
            '\r' => "&#xD;",
            '"' if attribute => "&quot;",
            _ => continue,
        };
        out.push_str(&text[last..i]);
        out.push_str(rep);
        last = i + c.len_utf8();
    }
    out.push_str(&text[last..]);
}

/// Writes `root` as MicroXML text that parses back (with any [`crate::Options`]) to the same
/// tree, provided the tree is one the parser can produce: adjacent text merged, no empty text.
/// A `#doc` root is written as its children (then the round trip also needs what the wrapper
/// implies: not exactly one element child, and no whitespace at the ends of top-level text).
pub fn to_string(root: &Element) -> Result<String, SerializeError> {
    let mut out = String::new();
    write(root, &mut out)?;
    Ok(out)
}

/// Appends `root` as MicroXML text to `out`; see [`to_string`]. Works without recursion.
pub fn write(root: &Element, out: &mut String) -> Result<(), SerializeError> {
    enum Step<'a> {
        Open(&'a Element),
        Close(&'a Element),
        Text(&'a str),
    }
    let mut stack: Vec<Step<'_>> = Vec::new();
    if root.name == DOC_WRAPPER {
        for c in root.children.iter().rev() {
            stack.push(match c {
                Node::Element(e) => Step::Open(e),
                Node::Text(t) => Step::Text(t),
            });
        }
    } else {
        stack.push(Step::Open(root));
    }
    while let Some(step) = stack.pop() {
        match step {
            Step::Text(t) => escape(out, t, false),
            Step::Close(e) => {
                out.push_str("</");
                out.push_str(&e.name);
                out.push('>');
            }
            Step::Open(e) => {
                check(&e.name)?;
                out.push('<');
                out.push_str(&e.name);
                for a in &e.attributes {
                    check(&a.name)?;
                    out.push(' ');
                    out.push_str(&a.name);
                    out.push_str("=\"");
                    escape(out, &a.value, true);
                    out.push('"');
                }
                if e.children.is_empty() {
                    out.push_str("/>");
                    continue;
                }
                out.push('>');
                stack.push(Step::Close(e));
                for c in e.children.iter().rev() {
                    stack.push(match c {
                        Node::Element(e) => Step::Open(e),
                        Node::Text(t) => Step::Text(t),
                    });
                }
            }
        }
    }
    Ok(())
}
