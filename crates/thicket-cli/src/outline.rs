//! One tree model for every dialect, walked in document order and written as it is walked: the
//! outline (`--tree`) and the JSON tree (`--json`) stream to their writer, so printing a tree
//! costs no copy of it, and need no recursion (a million nested elements print like a flat list).

use std::fmt::Write as _;
use std::io::{self, Write};

/// An attribute as shown, borrowed from the document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attr<'a> {
    /// Its namespace, when the dialect has namespaces and the attribute is in one.
    pub namespace: Option<&'a str>,
    /// The name (qualified as written for XML5, local for LeafXML external attributes).
    pub name: &'a str,
    /// The value.
    pub value: &'a str,
}

/// One step of a pre-order walk of a tree, borrowed from the document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item<'a> {
    /// An element starts; its children follow until the matching [`Item::Close`].
    Open {
        /// Its namespace, if any.
        namespace: Option<&'a str>,
        /// Its name (qualified as written where the dialect keeps prefixes).
        name: &'a str,
        /// Its attributes in the dialect's order.
        attributes: &'a [Attr<'a>],
    },
    /// The current element ends.
    Close,
    /// Character data.
    Text(&'a str),
    /// A comment.
    Comment(&'a str),
    /// A processing instruction.
    Pi {
        /// The target.
        target: &'a str,
        /// The data.
        data: &'a str,
    },
    /// A DOCTYPE.
    Doctype {
        /// The name.
        name: Option<&'a str>,
        /// The public identifier.
        public_id: Option<&'a str>,
        /// The system identifier.
        system_id: Option<&'a str>,
    },
}

/// What receives a walk: called once per item, in document order.
pub type Visit<'v> = dyn FnMut(&Item<'_>) -> io::Result<()> + 'v;

/// Calls `emit` with the pieces of `s` escaped: for JSON (`"`, `\`, controls below U+0020) or,
/// when `json` is false, for an outline quote (also DEL and the C1 controls, as `\u{..}`).
fn escaped(s: &str, json: bool, mut emit: impl FnMut(&str)) {
    let b = s.as_bytes();
    let (mut run, mut i) = (0, 0);
    while i < b.len() {
        let c = b[i];
        let c1 = !json && c == 0xC2 && b.get(i + 1).is_some_and(|n| (0x80..=0x9F).contains(n));
        if !(c == b'"' || c == b'\\' || c < 0x20 || c1 || (!json && c == 0x7F)) {
            i += 1;
            continue;
        }
        emit(&s[run..i]);
        let ch = s[i..].chars().next().unwrap_or('\0');
        match ch {
            '"' => emit("\\\""),
            '\\' => emit("\\\\"),
            '\n' => emit("\\n"),
            '\t' => emit("\\t"),
            '\r' => emit("\\r"),
            c if json => emit(&format!("\\u{:04x}", c as u32)),
            c => emit(&format!("\\u{{{:x}}}", c as u32)),
        }
        i += ch.len_utf8();
        run = i;
    }
    emit(&s[run..]);
}

/// Writes the pieces `escaped` gives, keeping the first error.
fn write_escaped<W: Write + ?Sized>(out: &mut W, s: &str, json: bool) -> io::Result<()> {
    let mut result = Ok(());
    escaped(s, json, |piece| {
        if result.is_ok() {
            result = out.write_all(piece.as_bytes());
        }
    });
    result
}

/// `"text"` with `\n`, `\t`, `\r`, `"`, `\` and other controls escaped, so that one item stays on
/// one line.
pub fn quote(s: &str) -> String {
    Quoted(s).to_string()
}

/// Displays a string as [`quote`] does, without making a copy of it first (a token's text can
/// be megabytes long).
#[derive(Clone, Copy, Debug)]
pub struct Quoted<'a>(pub &'a str);

impl std::fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("\"")?;
        let mut result = Ok(());
        escaped(self.0, false, |piece| {
            if result.is_ok() {
                result = f.write_str(piece);
            }
        });
        result?;
        f.write_str("\"")
    }
}

/// Writes `s` quoted as [`quote`] does.
pub fn write_quoted<W: Write + ?Sized>(out: &mut W, s: &str) -> io::Result<()> {
    out.write_all(b"\"")?;
    write_escaped(out, s, false)?;
    out.write_all(b"\"")
}

/// Appends `s` as a JSON string.
pub fn json_str(out: &mut String, s: &str) {
    out.push('"');
    escaped(s, true, |piece| out.push_str(piece));
    out.push('"');
}

/// Appends a JSON string or `null`.
pub fn json_opt(out: &mut String, s: Option<&str>) {
    match s {
        Some(s) => json_str(out, s),
        None => out.push_str("null"),
    }
}

/// Writes `s` as a JSON string.
pub fn write_json_str<W: Write + ?Sized>(out: &mut W, s: &str) -> io::Result<()> {
    out.write_all(b"\"")?;
    write_escaped(out, s, true)?;
    out.write_all(b"\"")
}

/// Writes a JSON string or `null`.
pub fn write_json_opt<W: Write + ?Sized>(out: &mut W, s: Option<&str>) -> io::Result<()> {
    match s {
        Some(s) => write_json_str(out, s),
        None => out.write_all(b"null"),
    }
}

/// `{namespace}name` or `name`.
pub fn expanded(namespace: Option<&str>, name: &str) -> String {
    match namespace {
        Some(ns) => format!("{{{ns}}}{name}"),
        None => name.to_owned(),
    }
}

fn write_expanded<W: Write + ?Sized>(
    out: &mut W,
    namespace: Option<&str>,
    name: &str,
) -> io::Result<()> {
    if let Some(ns) = namespace {
        write!(out, "{{{ns}}}")?;
    }
    out.write_all(name.as_bytes())
}

/// Deepest level drawn with indentation; deeper lines say their depth instead, so the output of
/// a very deep tree stays linear in its size.
const MAX_INDENT: usize = 40;

/// Writes the indented outline (`--tree`): one line per node, two spaces per level.
#[derive(Debug)]
pub struct OutlineWriter<W> {
    out: W,
    depth: usize,
}

impl<W: Write> OutlineWriter<W> {
    /// An outline written to `out`.
    pub fn new(out: W) -> OutlineWriter<W> {
        OutlineWriter { out, depth: 0 }
    }

    /// The writer back.
    pub fn into_inner(self) -> W {
        self.out
    }

    /// The writer, to write other lines between items.
    pub fn inner_mut(&mut self) -> &mut W {
        &mut self.out
    }

    fn indent(&mut self) -> io::Result<()> {
        const SPACES: &[u8; 2 * MAX_INDENT] = &[b' '; 2 * MAX_INDENT];
        self.out
            .write_all(&SPACES[..2 * self.depth.min(MAX_INDENT)])?;
        if self.depth > MAX_INDENT {
            write!(self.out, "[depth {}] ", self.depth)?;
        }
        Ok(())
    }

    /// Writes the line of one item (nothing for [`Item::Close`], which ends a level).
    pub fn item(&mut self, item: &Item<'_>) -> io::Result<()> {
        if matches!(item, Item::Close) {
            self.depth = self.depth.saturating_sub(1);
            return Ok(());
        }
        self.indent()?;
        let out = &mut self.out;
        match *item {
            Item::Open {
                namespace,
                name,
                attributes,
            } => {
                self.depth += 1;
                out.write_all(b"<")?;
                write_expanded(out, namespace, name)?;
                for a in attributes {
                    out.write_all(b" ")?;
                    write_expanded(out, a.namespace, a.name)?;
                    out.write_all(b"=")?;
                    write_quoted(out, a.value)?;
                }
                out.write_all(b">")?;
            }
            Item::Close => {}
            Item::Text(t) => write_quoted(out, t)?,
            Item::Comment(c) => write!(out, "<!--{c}-->")?,
            Item::Pi { target, data: "" } => write!(out, "<?{target}?>")?,
            Item::Pi { target, data } => write!(out, "<?{target} {data}?>")?,
            Item::Doctype {
                name,
                public_id,
                system_id,
            } => {
                out.write_all(b"<!DOCTYPE")?;
                if let Some(n) = name {
                    write!(out, " {n}")?;
                }
                if let Some(p) = public_id {
                    out.write_all(b" PUBLIC ")?;
                    write_quoted(out, p)?;
                }
                if let Some(s) = system_id {
                    out.write_all(b" SYSTEM ")?;
                    write_quoted(out, s)?;
                }
                out.write_all(b">")?;
            }
        }
        out.write_all(b"\n")
    }
}

/// Writes the tree as JSON, `{"type":"document","children":[...]}` (see docs/cli.md), as it is
/// walked: [`JsonTreeWriter::new`] writes the opening, [`JsonTreeWriter::finish`] the closing.
#[derive(Debug)]
pub struct JsonTreeWriter<W> {
    out: W,
    /// Whether the next value at each open level is the first one.
    first: Vec<bool>,
}

impl<W: Write> JsonTreeWriter<W> {
    /// Starts the document object on `out`.
    pub fn new(mut out: W) -> io::Result<JsonTreeWriter<W>> {
        out.write_all(br#"{"type":"document","children":["#)?;
        Ok(JsonTreeWriter {
            out,
            first: vec![true],
        })
    }

    /// Writes one item.
    pub fn item(&mut self, item: &Item<'_>) -> io::Result<()> {
        let out = &mut self.out;
        if !matches!(item, Item::Close)
            && let Some(f) = self.first.last_mut()
        {
            if !*f {
                out.write_all(b",")?;
            }
            *f = false;
        }
        match *item {
            Item::Open {
                namespace,
                name,
                attributes,
            } => {
                out.write_all(br#"{"type":"element","name":"#)?;
                write_json_str(out, name)?;
                out.write_all(br#","namespace":"#)?;
                write_json_opt(out, namespace)?;
                out.write_all(br#","attributes":["#)?;
                for (i, a) in attributes.iter().enumerate() {
                    if i > 0 {
                        out.write_all(b",")?;
                    }
                    out.write_all(br#"{"name":"#)?;
                    write_json_str(out, a.name)?;
                    out.write_all(br#","namespace":"#)?;
                    write_json_opt(out, a.namespace)?;
                    out.write_all(br#","value":"#)?;
                    write_json_str(out, a.value)?;
                    out.write_all(b"}")?;
                }
                out.write_all(br#"],"children":["#)?;
                self.first.push(true);
            }
            Item::Close => {
                if self.first.len() > 1 {
                    self.first.pop();
                    out.write_all(b"]}")?;
                }
            }
            Item::Text(t) => {
                out.write_all(br#"{"type":"text","data":"#)?;
                write_json_str(out, t)?;
                out.write_all(b"}")?;
            }
            Item::Comment(c) => {
                out.write_all(br#"{"type":"comment","data":"#)?;
                write_json_str(out, c)?;
                out.write_all(b"}")?;
            }
            Item::Pi { target, data } => {
                out.write_all(br#"{"type":"pi","target":"#)?;
                write_json_str(out, target)?;
                out.write_all(br#","data":"#)?;
                write_json_str(out, data)?;
                out.write_all(b"}")?;
            }
            Item::Doctype {
                name,
                public_id,
                system_id,
            } => {
                out.write_all(br#"{"type":"doctype","name":"#)?;
                write_json_opt(out, name)?;
                out.write_all(br#","public_id":"#)?;
                write_json_opt(out, public_id)?;
                out.write_all(br#","system_id":"#)?;
                write_json_opt(out, system_id)?;
                out.write_all(b"}")?;
            }
        }
        Ok(())
    }

    /// Closes anything left open (a partial tree) and the document object.
    pub fn finish(mut self) -> io::Result<W> {
        while self.first.len() > 1 {
            self.first.pop();
            self.out.write_all(b"]}")?;
        }
        self.out.write_all(b"]}")?;
        Ok(self.out)
    }
}

/// Collects the lines written to it, keeping the first `limit` and counting the rest (for
/// `compare`, which shows the start of each outline).
#[derive(Debug, Default)]
pub struct LineCollector {
    /// The lines kept, without their line breaks.
    pub lines: Vec<String>,
    /// Every line written, kept or not.
    pub total: usize,
    limit: usize,
    current: Vec<u8>,
}

impl LineCollector {
    /// Keeps at most `limit` lines.
    pub fn new(limit: usize) -> LineCollector {
        LineCollector {
            limit,
            ..LineCollector::default()
        }
    }
}

impl Write for LineCollector {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut rest = buf;
        while let Some(i) = memchr::memchr(b'\n', rest) {
            if self.lines.len() < self.limit {
                self.current.extend_from_slice(&rest[..i]);
                self.lines
                    .push(String::from_utf8_lossy(&self.current).into_owned());
            }
            self.current.clear();
            self.total += 1;
            rest = &rest[i + 1..];
        }
        if self.lines.len() < self.limit {
            self.current.extend_from_slice(rest);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The outline of `items` as lines (a convenience for tests and small documents).
pub fn lines(items: &[Item<'_>]) -> Vec<String> {
    let mut w = OutlineWriter::new(LineCollector::new(usize::MAX));
    for item in items {
        // Writing to memory cannot fail.
        let _ = w.item(item);
    }
    w.into_inner().lines
}

/// `items` as the JSON tree (a convenience for tests and small documents).
pub fn json(items: &[Item<'_>]) -> String {
    let mut out = Vec::new();
    if let Ok(mut w) = JsonTreeWriter::new(&mut out) {
        for item in items {
            let _ = w.item(item);
        }
        let _ = w.finish();
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Appends `key=value` pairs as the outline shows an XML declaration's data.
pub fn declaration_data(pairs: &[(&str, Option<&str>)]) -> String {
    let mut data = String::new();
    for (key, value) in pairs {
        if let Some(v) = value {
            if !data.is_empty() {
                data.push(' ');
            }
            let _ = write!(data, "{key}={}", quote(v));
        }
    }
    data
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<Item<'static>> {
        const ATTRS: &[Attr<'static>] = &[Attr {
            namespace: None,
            name: "a",
            value: "1\"2",
        }];
        vec![
            Item::Comment(" c "),
            Item::Open {
                namespace: Some("urn:x"),
                name: "x:doc",
                attributes: ATTRS,
            },
            Item::Text("hi\n"),
            Item::Open {
                namespace: None,
                name: "br",
                attributes: &[],
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
        assert_eq!(
            json(&sample()),
            r#"{"type":"document","children":[{"type":"comment","data":" c "},{"type":"element","name":"x:doc","namespace":"urn:x","attributes":[{"name":"a","namespace":null,"value":"1\"2"}],"children":[{"type":"text","data":"hi\n"},{"type":"element","name":"br","namespace":null,"attributes":[],"children":[]}]}]}"#
        );
    }

    #[test]
    fn escapes_for_each_form() {
        let s = "a\"b\\c\n\t\r\u{1}\u{7f}\u{85}é";
        assert_eq!(quote(s), "\"a\\\"b\\\\c\\n\\t\\r\\u{1}\\u{7f}\\u{85}é\"");
        let mut j = String::new();
        json_str(&mut j, s);
        assert_eq!(j, "\"a\\\"b\\\\c\\n\\t\\r\\u0001\u{7f}\u{85}é\"");
        let mut w = Vec::new();
        write_quoted(&mut w, s).unwrap();
        assert_eq!(String::from_utf8(w).unwrap(), quote(s));
        let mut w = Vec::new();
        write_json_str(&mut w, s).unwrap();
        assert_eq!(String::from_utf8(w).unwrap(), j);
    }

    #[test]
    fn deep_trees_need_no_recursion() {
        let items = vec![
            Item::Open {
                namespace: None,
                name: "a",
                attributes: &[],
            };
            200_000
        ];
        assert!(json(&items).ends_with("]}]}"));
        let out = lines(&items);
        assert_eq!(out.len(), 200_000);
        assert_eq!(out[41], format!("{}[depth 41] <a>", "  ".repeat(40)));
    }

    #[test]
    fn the_collector_keeps_the_first_lines_and_counts_all() {
        let mut c = LineCollector::new(2);
        c.write_all(b"one\ntw").unwrap();
        c.write_all(b"o\nthree\nfour\n").unwrap();
        assert_eq!(c.lines, ["one", "two"]);
        assert_eq!(c.total, 4);
    }
}
