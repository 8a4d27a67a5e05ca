//! Reader for the html5lib / web-platform-tests tree-construction format (`*.dat`): tests of
//! `#data`, `#errors`, optional `#document-fragment`, `#script-on` / `#script-off`, and
//! `#document`, a dump of the tree with one `| `-prefixed line per node (a node whose text holds
//! a newline continues on lines without the prefix).

use std::path::Path;

/// One tree-construction test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeTest {
    /// The input (the `#data` lines, joined with LF, without the last line's end).
    pub data: String,
    /// The `#errors` lines.
    pub errors: Vec<String>,
    /// `#document-fragment`'s context element, if any.
    pub fragment: Option<String>,
    /// `Some(true)` for `#script-on`, `Some(false)` for `#script-off`, `None` when the test holds
    /// with scripting both on and off.
    pub scripting: Option<bool>,
    /// The nodes of `#document`, in document order, without the `| ` prefix (indentation kept:
    /// two spaces per level).
    pub document: Vec<String>,
}

/// A node of a `#document` dump that the tokenizer produces directly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MarkupNode {
    /// `<!-- data -->`.
    Comment(String),
    /// `<?target data?>` (WPT's processing instruction format: target, one space, data).
    ProcessingInstruction {
        /// The target.
        target: String,
        /// The data.
        data: String,
    },
}

impl TreeTest {
    /// The comments and processing instructions of the document, in document order.
    pub fn markup_nodes(&self) -> Vec<MarkupNode> {
        self.document
            .iter()
            .filter_map(|node| {
                let node = node.trim_start_matches(' ');
                if let Some(c) = node
                    .strip_prefix("<!-- ")
                    .and_then(|n| n.strip_suffix(" -->"))
                {
                    return Some(MarkupNode::Comment(c.to_owned()));
                }
                let pi = node.strip_prefix("<?")?.strip_suffix("?>")?;
                let (target, data) = pi.split_once(' ').unwrap_or((pi, ""));
                Some(MarkupNode::ProcessingInstruction {
                    target: target.to_owned(),
                    data: data.to_owned(),
                })
            })
            .collect()
    }
}

/// Reads one `.dat` file.
pub fn read_file(path: &Path) -> Result<Vec<TreeTest>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Parses the text of one `.dat` file. Lines end at LF only (a CR is part of its line, as in
/// test data that holds one).
pub fn parse(text: &str) -> Result<Vec<TreeTest>, String> {
    let mut tests = Vec::new();
    let mut lines = text.split('\n').peekable();
    while let Some(line) = lines.next() {
        if line.is_empty() {
            continue;
        }
        if line != "#data" {
            return Err(format!("expected #data, found {line:?}"));
        }
        let mut section = "#data";
        let mut data: Vec<&str> = Vec::new();
        let mut test = TreeTest {
            data: String::new(),
            errors: Vec::new(),
            fragment: None,
            scripting: None,
            document: Vec::new(),
        };
        while let Some(&line) = lines.peek() {
            // A blank line ends the test once the document is being read (it may also be the
            // data's last line, so only there).
            if line.is_empty() && section == "#document" {
                break;
            }
            lines.next();
            match line {
                "#errors" | "#new-errors" | "#document-fragment" | "#document" => section = line,
                "#script-on" => test.scripting = Some(true),
                "#script-off" => test.scripting = Some(false),
                _ => match section {
                    "#data" => data.push(line),
                    "#errors" | "#new-errors" => test.errors.push(line.to_owned()),
                    "#document-fragment" => test.fragment = Some(line.to_owned()),
                    _ => match line.strip_prefix("| ") {
                        Some(node) => test.document.push(node.to_owned()),
                        None => match test.document.last_mut() {
                            Some(last) => {
                                last.push('\n');
                                last.push_str(line);
                            }
                            None => return Err(format!("document line without `| `: {line:?}")),
                        },
                    },
                },
            }
        }
        test.data = data.join("\n");
        tests.push(test);
    }
    Ok(tests)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_tests_and_markup_nodes() {
        let text = "#data\n<?a b><!--c-->\n#errors\n(1,1): x\n#script-off\n#document\n\
                    | <?a b?>\n| <!-- c -->\n| <html>\n|   <!-- d\ne -->\n\n#data\n<p>\n#errors\n\
                    #document\n| <html>\n";
        let tests = parse(text).unwrap();
        assert_eq!(tests.len(), 2);
        assert_eq!(tests[0].data, "<?a b><!--c-->");
        assert_eq!(tests[0].scripting, Some(false));
        assert_eq!(tests[0].errors, vec!["(1,1): x"]);
        assert_eq!(
            tests[0].markup_nodes(),
            vec![
                MarkupNode::ProcessingInstruction {
                    target: "a".into(),
                    data: "b".into()
                },
                MarkupNode::Comment("c".into()),
                MarkupNode::Comment("d\ne".into()),
            ]
        );
        assert_eq!(tests[1].scripting, None);
        assert_eq!(tests[1].document, vec!["<html>"]);
    }
}
