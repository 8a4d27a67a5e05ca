//! Reader for the xml5lib suite format: `tokenizer/*.test` (JSON, html5lib-style token arrays
//! with bare `"ParseError"` strings) and `tree-construction/*.dat` (`#data` / `#document`).

use std::path::Path;

use serde_json::Value;

/// One expected tokenizer output item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum XmlToken {
    /// `"ParseError"`: count and position among the tokens matter.
    ParseError,
    /// `["StartTag", name, {attrs}]`; attributes sorted by name.
    StartTag(String, Vec<(String, String)>),
    /// `["EmptyTag", name, {attrs}]`; attributes sorted by name.
    EmptyTag(String, Vec<(String, String)>),
    /// `["EndTag", name]`.
    EndTag(String),
    /// `["ShortTag", ""]`: `</>`.
    ShortTag,
    /// `["Comment", data]`.
    Comment(String),
    /// `["Character", data]`, adjacent ones coalesced.
    Character(String),
    /// `["PI", target, data]`.
    Pi(String, String),
    /// `["DOCTYPE", name, public_id, system_id]` (a fifth element is ignored).
    Doctype(Option<String>, Option<String>, Option<String>),
    /// Not in the suite: an XML declaration (draft profile output), version / encoding /
    /// standalone.
    XmlDeclaration(Option<String>, Option<String>, Option<String>),
}

/// Merges adjacent `Character` items, as the suite's expected outputs are written.
pub fn coalesce(items: Vec<XmlToken>) -> Vec<XmlToken> {
    let mut out: Vec<XmlToken> = Vec::with_capacity(items.len());
    for item in items {
        if let XmlToken::Character(s) = &item {
            if let Some(XmlToken::Character(prev)) = out.last_mut() {
                prev.push_str(s);
                continue;
            }
            if s.is_empty() {
                continue;
            }
        }
        out.push(item);
    }
    out
}

/// One tokenizer test.
#[derive(Clone, Debug)]
pub struct TokenizerTest {
    /// File name, e.g. `test1.test`.
    pub file: String,
    /// Position in the file's test list (0-based).
    pub index: usize,
    /// The description.
    pub description: String,
    /// The input.
    pub input: String,
    /// The expected output, coalesced.
    pub output: Vec<XmlToken>,
}

impl TokenizerTest {
    /// `file#index: description`.
    pub fn name(&self) -> String {
        format!("{}#{}: {}", self.file, self.index, self.description)
    }
}

fn string(v: &Value) -> Result<String, String> {
    v.as_str()
        .map(str::to_owned)
        .ok_or_else(|| format!("expected a string, found {v}"))
}

fn opt_string(v: Option<&Value>) -> Result<Option<String>, String> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(v) => string(v).map(Some),
    }
}

fn attrs(v: Option<&Value>) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    if let Some(Value::Object(map)) = v {
        for (k, v) in map {
            out.push((k.clone(), string(v)?));
        }
    }
    out.sort();
    Ok(out)
}

fn item(v: &Value) -> Result<XmlToken, String> {
    if v.as_str() == Some("ParseError") {
        return Ok(XmlToken::ParseError);
    }
    let arr = v.as_array().ok_or_else(|| format!("bad output item {v}"))?;
    let kind = arr.first().and_then(Value::as_str).unwrap_or_default();
    let s = |i: usize| arr.get(i).map_or(Ok(String::new()), string);
    Ok(match kind {
        "StartTag" => XmlToken::StartTag(s(1)?, attrs(arr.get(2))?),
        "EmptyTag" => XmlToken::EmptyTag(s(1)?, attrs(arr.get(2))?),
        "EndTag" => XmlToken::EndTag(s(1)?),
        "ShortTag" => XmlToken::ShortTag,
        "Comment" => XmlToken::Comment(s(1)?),
        "Character" => XmlToken::Character(s(1)?),
        "PI" => XmlToken::Pi(s(1)?, s(2)?),
        "DOCTYPE" => XmlToken::Doctype(
            opt_string(arr.get(1))?,
            opt_string(arr.get(2))?,
            opt_string(arr.get(3))?,
        ),
        other => return Err(format!("unknown token kind {other:?}")),
    })
}

/// Reads every `*.test` file of `dir` (sorted by name).
pub fn read_tokenizer_dir(dir: &Path) -> Result<Vec<TokenizerTest>, String> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "test"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let file = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{file}: {e}"))?;
        let json: Value = serde_json::from_str(&text).map_err(|e| format!("{file}: {e}"))?;
        let tests = json
            .get("tests")
            .and_then(Value::as_array)
            .ok_or_else(|| format!("{file}: no tests array"))?;
        for (index, t) in tests.iter().enumerate() {
            let description = t
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned();
            let input = t.get("input").map(string).transpose()?.unwrap_or_default();
            let output = t
                .get("output")
                .and_then(Value::as_array)
                .ok_or_else(|| format!("{file}#{index}: no output"))?
                .iter()
                .map(item)
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| format!("{file}#{index}: {e}"))?;
            out.push(TokenizerTest {
                file: file.clone(),
                index,
                description,
                input,
                output: coalesce(output),
            });
        }
    }
    Ok(out)
}

/// One tree-construction test.
#[derive(Clone, Debug)]
pub struct TreeTest {
    /// File name, e.g. `namespace.dat`.
    pub file: String,
    /// Position in the file (0-based).
    pub index: usize,
    /// The input (the `#data` section without its final newline).
    pub data: String,
    /// The expected tree: the `#document` lines without the `| ` prefix, joined by `\n`.
    pub document: String,
}

impl TreeTest {
    /// `file#index: <first line of the input>`.
    pub fn name(&self) -> String {
        let first = self.data.lines().next().unwrap_or_default();
        format!("{}#{}: {}", self.file, self.index, first)
    }
}

/// Parses the text of one `.dat` file.
pub fn parse_dat(file: &str, text: &str) -> Vec<TreeTest> {
    let mut out = Vec::new();
    let mut section = "";
    let mut data: Vec<&str> = Vec::new();
    let mut doc: Vec<&str> = Vec::new();
    let mut started = false;
    let flush = |data: &mut Vec<&str>, doc: &mut Vec<&str>, out: &mut Vec<TreeTest>| {
        let index = out.len();
        out.push(TreeTest {
            file: file.to_owned(),
            index,
            data: data.join("\n"),
            document: doc.join("\n"),
        });
        data.clear();
        doc.clear();
    };
    for line in text.lines() {
        if line == "#data" {
            if started {
                flush(&mut data, &mut doc, &mut out);
            }
            started = true;
            section = "data";
            continue;
        }
        if line.starts_with('#') && matches!(line, "#document" | "#errors") {
            section = &line[1..];
            continue;
        }
        match section {
            "data" => data.push(line),
            "document" => {
                if let Some(rest) = line.strip_prefix("| ") {
                    doc.push(rest);
                } else if !line.is_empty() {
                    // A continuation of a multi-line text node.
                    doc.push(line);
                }
            }
            _ => {}
        }
    }
    if started {
        flush(&mut data, &mut doc, &mut out);
    }
    out
}

/// Reads every `*.dat` file of `dir` (sorted by name).
pub fn read_tree_dir(dir: &Path) -> Result<Vec<TreeTest>, String> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "dat"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let file = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{file}: {e}"))?;
        out.extend(parse_dat(&file, &text));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dat_sections() {
        let t = parse_dat(
            "x.dat",
            "#data\n<a>\n#document\n| <a>\n|   \"t\"\n\n#data\n<b/>\n#document\n| <b>\n",
        );
        assert_eq!(t.len(), 2);
        assert_eq!(t[0].data, "<a>");
        assert_eq!(t[0].document, "<a>\n  \"t\"");
        assert_eq!(t[1].name(), "x.dat#1: <b/>");
    }

    #[test]
    fn coalescing() {
        let v = coalesce(vec![
            XmlToken::Character("a".into()),
            XmlToken::Character("b".into()),
            XmlToken::ParseError,
            XmlToken::Character("c".into()),
        ]);
        assert_eq!(v.len(), 3);
        assert_eq!(v[0], XmlToken::Character("ab".into()));
    }
}
