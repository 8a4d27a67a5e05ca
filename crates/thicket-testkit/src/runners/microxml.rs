//! Suite runners for thicket-microxml: the recovery suites (`microxml-er`, its generated
//! differential cases) and the strict MicroXML sets (`microxml-js`, `microxml-java`).
//!
//! Every case is parsed with `Options::upstream()` (the revision the suites were made with),
//! compared as a tree (attributes unordered), checked for validity where the suite says, and fed
//! again in chunks (one character at a time, and split in two at every position for inputs up to
//! 256 bytes): the tokens (modulo where a text run is split into `Data` pieces: the streaming
//! tokenizer hands out text as soon as it is certain), the diagnostics (in the order returned)
//! and the tree with its spans must not change, the token spans must tile the input, and the
//! diagnostics must be in source order.

use std::path::{Path, PathBuf};

use thicket_input::Span;
use thicket_microxml::{
    Checker, Diagnostic, Document, ElementRef, NodeRef, Options, Parsed, Parser, Token, Tokenizer,
    parse_with,
};

use crate::suites::microxml::{Expectation, MicroCase, Tree, TreeNode, read, to_json};
use crate::{Case, Outcome, SuiteDef, chunks, spans};

/// The suites this dialect runs.
pub fn suites() -> Vec<SuiteDef> {
    vec![
        SuiteDef {
            name: "microxml-er",
            spec: "MicroXML error recovery",
            dir: "microxml-er",
            in_project: false,
            run: |dir| run_file(dir, "tests.rust-safe.json"),
        },
        SuiteDef {
            name: "microxml-er-generated",
            spec: "MicroXML error recovery",
            dir: "microxml-er-generated",
            in_project: false,
            run: |dir| run_file(dir, "cases.json"),
        },
        SuiteDef {
            name: "microxml-strict-js",
            spec: "MicroXML (strict, validity)",
            dir: "microxml-js",
            in_project: false,
            run: |dir| run_file(dir, "tests.json"),
        },
        SuiteDef {
            name: "microxml-strict-java",
            spec: "MicroXML (strict, validity)",
            dir: "microxml-java",
            in_project: false,
            run: |dir| run_file(dir, "tests.json"),
        },
    ]
}

/// The options every suite runs with.
pub fn options() -> Options {
    Options::upstream()
}

fn run_file(dir: &Path, file: &str) -> Result<Vec<Case>, String> {
    let cases = read(&dir.join(file))?;
    Ok(cases
        .iter()
        .enumerate()
        .map(|(i, c)| Case::new(case_name(file, i, c), run_case(c)))
        .collect())
}

fn case_name(file: &str, index: usize, c: &MicroCase) -> String {
    let mut src: String = c.source.escape_debug().collect();
    if src.chars().count() > 48 {
        src = src.chars().take(45).collect::<String>() + "...";
    }
    format!("{file}#{index}: {} {src}", c.id)
}

/// Runs one case.
pub fn run_case(c: &MicroCase) -> Outcome {
    if c.lone_surrogate {
        return Outcome::Skip(
            "lone surrogate in the source or the expected tree (not representable in a Rust String)"
                .into(),
        );
    }
    let (tree, valid) = match &c.expectation {
        Expectation::Nothing => return Outcome::Skip("no expectation upstream".into()),
        Expectation::Invalid => (None, Some(false)),
        Expectation::Tree { tree, valid } => (Some(tree), *valid),
    };
    let parsed = parse_with(&c.source, options());
    if let Some(expected) = tree {
        let expected = &merge_text(expected);
        let actual = to_tree(&parsed.root());
        if &actual != expected {
            return Outcome::Fail(format!(
                "tree: expected {} got {}",
                to_json(expected),
                to_json(&actual)
            ));
        }
    }
    match valid {
        Some(true) if !parsed.diagnostics.is_empty() => {
            return Outcome::Fail(format!(
                "valid MicroXML, but diagnostics: {}",
                describe(&parsed.diagnostics)
            ));
        }
        Some(false) if parsed.diagnostics.is_empty() => {
            return Outcome::Fail("invalid MicroXML, but no diagnostic".into());
        }
        _ => {}
    }
    if let Err(e) = check_chunks(&c.source) {
        return Outcome::Fail(e);
    }
    Outcome::Pass
}

fn describe(ds: &[Diagnostic]) -> String {
    ds.iter()
        .map(|d| format!("{}@{}", d.code, d.span))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The tree in the suites' form.
pub fn to_tree(e: &ElementRef<'_, '_>) -> Tree {
    // Suite trees are shallow; the converted tree is only compared and printed.
    let mut attributes: Vec<(String, String)> = e
        .attributes()
        .map(|a| (a.name().to_owned(), a.value().to_owned()))
        .collect();
    attributes.sort();
    Tree {
        name: e.name().to_owned(),
        attributes,
        children: e
            .children()
            .map(|c| match c {
                NodeRef::Element(e) => TreeNode::Element(to_tree(&e)),
                NodeRef::Text(t) => TreeNode::Text(t.as_str().to_owned()),
            })
            .collect(),
    }
}

/// `expected` with adjacent text merged and empty text dropped. The data model's content is a
/// sequence of characters and elements, so where a string ends is not significant; the
/// reference implementation splits text where it removed an end-tag and can leave an empty
/// string, the spec's data model (and our tree) does not.
pub fn merge_text(expected: &Tree) -> Tree {
    let mut children: Vec<TreeNode> = Vec::new();
    for c in &expected.children {
        match c {
            TreeNode::Text(t) if t.is_empty() => {}
            TreeNode::Text(t) => match children.last_mut() {
                Some(TreeNode::Text(prev)) => prev.push_str(t),
                _ => children.push(TreeNode::Text(t.clone())),
            },
            TreeNode::Element(e) => children.push(TreeNode::Element(merge_text(e))),
        }
    }
    Tree {
        name: expected.name.clone(),
        attributes: expected.attributes.clone(),
        children,
    }
}

type Run = (Vec<Token<'static>>, Vec<Diagnostic>);

/// `tokens` with every run of consecutive `Data` tokens (the pieces a streaming tokenizer hands
/// out) joined into one: texts concatenated, spans merged. Whole-input tokenization never gives
/// two `Data` tokens in a row, so chunked and whole runs compare equal after this.
pub fn join_data(tokens: Vec<Token<'static>>) -> Vec<Token<'static>> {
    let mut out: Vec<Token<'static>> = Vec::with_capacity(tokens.len());
    for t in tokens {
        if let Token::Data { text, span } = &t
            && let Some(Token::Data {
                text: prev,
                span: prev_span,
            }) = out.last_mut()
        {
            prev.to_mut().push_str(text);
            *prev_span = Span::new(prev_span.start, span.end);
            continue;
        }
        out.push(t);
    }
    out
}

/// Tokens (as returned: text runs may come in `Data` pieces) and diagnostics (in the order
/// returned, taken after every token) for `chunks` fed in order, pulling after every feed.
pub fn tokenize_pieces(chunks: &[&str], options: Options) -> Run {
    let mut t = Tokenizer::new(options);
    let mut out = Vec::new();
    let mut ds = Vec::new();
    let mut pull = |t: &mut Tokenizer, out: &mut Vec<Token<'static>>| {
        while let Some(tok) = t.next_token() {
            out.push(tok.into_owned());
            ds.extend(t.take_diagnostics());
        }
        ds.extend(t.take_diagnostics());
    };
    for c in chunks {
        t.feed(c);
        pull(&mut t, &mut out);
    }
    t.finish();
    pull(&mut t, &mut out);
    (out, ds)
}

/// [`tokenize_pieces`] with the `Data` pieces of each text run joined ([`join_data`]): the same
/// however the input is split.
pub fn tokenize_chunks(chunks: &[&str], options: Options) -> Run {
    let (tokens, ds) = tokenize_pieces(chunks, options);
    (join_data(tokens), ds)
}

/// Tokens (their `Data` pieces joined), diagnostics (taken after every token) and the omitted
/// count of a [`Checker`] fed `chunks` in order.
pub fn check_chunks_streaming(chunks: &[&str], options: Options) -> (Run, usize) {
    let mut c = Checker::new(options);
    let mut out = Vec::new();
    let mut ds = Vec::new();
    let mut pull = |c: &mut Checker, out: &mut Vec<Token<'static>>| {
        while let Some(tok) = c.next_token() {
            out.push(tok.into_owned());
            ds.extend(c.take_diagnostics());
        }
        ds.extend(c.take_diagnostics());
    };
    for chunk in chunks {
        c.feed(chunk);
        pull(&mut c, &mut out);
    }
    c.finish();
    pull(&mut c, &mut out);
    let omitted = c.omitted_diagnostics();
    ((join_data(out), ds), omitted)
}

/// Checks that the tokens of `source` tile it (the spans alone, in order: no gap, no overlap)
/// and that the tags' spans hold what they say.
pub fn check_lossless(source: &str, tokens: &[Token<'_>]) -> Result<(), String> {
    let token_spans: Vec<Span> = tokens.iter().map(Token::span).collect();
    spans::check_tiling(source, &token_spans).map_err(|e| format!("token spans: {e}"))?;
    for t in tokens {
        let text = &source[t.span().start..t.span().end];
        let ok = match t {
            // Names may be cut by `Limits::max_name_len`; spans never are.
            Token::StartTagOpen { name, .. } => text
                .strip_prefix('<')
                .is_some_and(|rest| rest.starts_with(&**name)),
            Token::EndTag { name, .. } => text
                .strip_prefix("</")
                .is_some_and(|rest| rest.starts_with(&**name) && rest.ends_with('>')),
            Token::AttributeName { name, .. } => text.starts_with(&**name),
            Token::StartTagClose { .. } => text == ">" || text.is_empty(),
            Token::EmptyElementTagClose { .. } => text == "/>",
            Token::Comment { .. } => text.starts_with("<!--") && text.ends_with("-->"),
            Token::ProcessingInstruction { .. } => text.starts_with("<?") && text.ends_with("?>"),
            Token::Doctype { .. } => text
                .get(..9)
                .is_some_and(|o| o.eq_ignore_ascii_case("<!doctype")),
            Token::Data { .. } | Token::CharRef { .. } | Token::Discarded { .. } => {
                !text.is_empty()
            }
        };
        if !ok {
            return Err(format!("{t:?} does not match its input {text:?}"));
        }
    }
    Ok(())
}

/// Every node and attribute span of `doc` in document order (an element, its attributes' name
/// and value spans, then its children), for comparisons. Written without recursion.
pub fn tree_spans(doc: &Document<'_>) -> Vec<(&'static str, Span)> {
    fn open(e: &ElementRef<'_, '_>, out: &mut Vec<(&'static str, Span)>) {
        out.push(("element", e.span()));
        for a in e.attributes() {
            out.push(("name", a.name_span()));
            out.push(("value", a.value_span()));
        }
    }
    let mut out = Vec::new();
    open(&doc.root(), &mut out);
    let mut stack = vec![doc.root().children()];
    while let Some(children) = stack.last_mut() {
        match children.next() {
            None => {
                stack.pop();
            }
            Some(NodeRef::Text(t)) => out.push(("text", t.span())),
            Some(NodeRef::Element(e)) => {
                open(&e, &mut out);
                stack.push(e.children());
            }
        }
    }
    out
}

/// Checks what the tree's spans must be on any input: each element's span starts with `<` and
/// its name (the `#doc` wrapper's is empty, at the end of the input), children lie within their
/// parent, attribute name spans cover the name and value spans lie after it, within the
/// element.
pub fn check_tree_spans(source: &str, parsed: &Parsed<'_>) -> Result<(), String> {
    let root = parsed.root();
    let mut stack = vec![root];
    while let Some(e) = stack.pop() {
        let s = e.span();
        if s.end > source.len() || s.start > s.end {
            return Err(format!("element {} span {s:?} out of bounds", e.name()));
        }
        let markup = &source[s.start..s.end];
        if e.name() == "#doc" && s.is_empty() {
            if s.start != source.len() {
                return Err(format!("#doc span {s:?} not at the end"));
            }
        } else if !markup
            .strip_prefix('<')
            .is_some_and(|m| m.starts_with(e.name()))
        {
            return Err(format!("element {} span {s:?} is {markup:?}", e.name()));
        }
        for a in e.attributes() {
            let n = a.name_span();
            // The name may be cut by `Limits::max_name_len`; its span is not.
            if !source
                .get(n.start..n.end)
                .is_some_and(|s| s.starts_with(a.name()))
            {
                return Err(format!("attribute {} name span {n:?}", a.name()));
            }
            let v = a.value_span();
            if v.end > s.end || v.start < n.end {
                return Err(format!("attribute {} value span {v:?} outside", a.name()));
            }
        }
        for c in e.children() {
            let cs = c.span();
            if !e.name().starts_with('#') && (cs.start < s.start || cs.end > s.end) {
                return Err(format!("child span {cs:?} outside its parent {s:?}"));
            }
            if let NodeRef::Element(child) = c {
                stack.push(child);
            }
        }
    }
    Ok(())
}

/// Parses `chunks` fed in order with the streaming parser.
pub fn parse_chunks(chunks: &[&str], options: Options) -> Parsed<'static> {
    let mut p = Parser::new(options);
    for c in chunks {
        p.feed(c);
    }
    p.finish()
}

/// Checks chunk invariance, lossless token spans, tree spans and the order of diagnostics for
/// `source`.
pub fn check_chunks(source: &str) -> Result<(), String> {
    let whole = tokenize_chunks(&[source], options());
    check_lossless(source, &whole.0)?;
    let diag_spans: Vec<_> = whole.1.iter().map(|d| d.span).collect();
    spans::check_ordered(source, &diag_spans).map_err(|e| format!("diagnostic spans: {e}"))?;
    let tree = parse_with(source, options());
    check_tree_spans(source, &tree)?;
    let tree_spans_whole = tree_spans(&tree.document);
    let compare = |label: &str, chunks: &[&str]| -> Result<(), String> {
        let pieces = tokenize_pieces(chunks, options());
        check_lossless(source, &pieces.0).map_err(|e| format!("pieces ({label}): {e}"))?;
        let got = (join_data(pieces.0), pieces.1);
        if got != whole {
            return Err(format!(
                "chunked ({label}) differs: whole {:?} vs chunked {:?}",
                whole, got
            ));
        }
        let parsed = parse_chunks(chunks, options());
        if parsed != tree || parsed.diagnostics != tree.diagnostics {
            return Err(format!(
                "tree chunked ({label}) differs: whole {:?} vs chunked {:?}",
                tree, parsed
            ));
        }
        if tree_spans(&parsed.document) != tree_spans_whole {
            return Err(format!("tree spans chunked ({label}) differ"));
        }
        let ((tokens, diagnostics), _) = check_chunks_streaming(chunks, options());
        if tokens != whole.0 || diagnostics != tree.diagnostics {
            return Err(format!(
                "Checker ({label}) differs: {diagnostics:?} vs {:?}",
                tree.diagnostics
            ));
        }
        Ok(())
    };
    compare("char by char", &chunks::chars(source))?;
    if source.len() <= 256 {
        for [a, b] in chunks::two_way_splits(source) {
            compare(&format!("split at {}", a.len()), &[a, b])?;
        }
    }
    Ok(())
}

/// The XML files of the benchmark corpus (`../shared/corpus/xml`), when it is there.
pub fn corpus() -> Vec<PathBuf> {
    let dir = crate::project_root().join("../shared/corpus/xml");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.sort();
    files
}
