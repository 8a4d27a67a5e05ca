//! Suite runners for thicket-xml5: the xml5lib tokenizer suite in both profiles (whole input,
//! char by char, and split at every position for short inputs) and the tree-construction suite.

use std::path::Path;

use thicket_input::Span;
use thicket_xml5::{Event, Options, Profile, TokenKind, Tokenizer};

use crate::suites::xml5lib::{self, XmlToken};
use crate::{Case, Outcome, SuiteDef, chunks, spans};

/// Inputs up to this many bytes are also split in two at every position.
const SPLIT_LIMIT: usize = 200;

/// The suites this dialect runs.
pub fn suites() -> Vec<SuiteDef> {
    vec![
        SuiteDef {
            name: "xml5lib-tokenizer",
            spec: "XML5 draft (compatibility profile)",
            dir: "xml5lib-tests/tokenizer",
            in_project: false,
            run: run_tokenizer_compat,
        },
        SuiteDef {
            name: "xml5lib-tokenizer-draft",
            spec: "XML5 draft 2022 (draft profile)",
            dir: "xml5lib-tests/tokenizer",
            in_project: false,
            run: run_tokenizer_draft,
        },
        SuiteDef {
            name: "xml5lib-tree",
            spec: "XML5 tree construction",
            dir: "xml5lib-tests/tree-construction",
            in_project: false,
            run: run_tree,
        },
    ]
}

fn run_tokenizer_compat(dir: &Path) -> Result<Vec<Case>, String> {
    run_tokenizer(dir, Profile::Compatibility)
}

fn run_tokenizer_draft(dir: &Path) -> Result<Vec<Case>, String> {
    run_tokenizer(dir, Profile::Draft)
}

/// The suite's view of an event stream: diagnostics as `ParseError`, text coalesced, no EOF.
pub fn to_suite_tokens<'a>(events: impl IntoIterator<Item = Event<'a>>) -> Vec<XmlToken> {
    let mut out = Vec::new();
    for e in events {
        let t = match e {
            Event::Diagnostic(_) => XmlToken::ParseError,
            Event::Token(t) => match t.kind {
                TokenKind::StartTag { name, attributes } => {
                    XmlToken::StartTag(name.into_owned(), sorted(attributes))
                }
                TokenKind::EmptyTag { name, attributes } => {
                    XmlToken::EmptyTag(name.into_owned(), sorted(attributes))
                }
                TokenKind::EndTag { name } => XmlToken::EndTag(name.into_owned()),
                TokenKind::ShortEndTag => XmlToken::ShortTag,
                TokenKind::Text(t) => XmlToken::Character(t.into_owned()),
                TokenKind::Comment(t) => XmlToken::Comment(t.into_owned()),
                TokenKind::Pi { target, data } => {
                    XmlToken::Pi(target.into_owned(), data.into_owned())
                }
                TokenKind::XmlDeclaration {
                    version,
                    encoding,
                    standalone,
                } => XmlToken::XmlDeclaration(
                    version.map(|s| s.into_owned()),
                    encoding.map(|s| s.into_owned()),
                    standalone.map(|s| s.into_owned()),
                ),
                TokenKind::Doctype {
                    name,
                    public_id,
                    system_id,
                } => XmlToken::Doctype(
                    name.map(|s| s.into_owned()),
                    public_id.map(|s| s.into_owned()),
                    system_id.map(|s| s.into_owned()),
                ),
                TokenKind::Eof | TokenKind::Discarded => continue,
            },
        };
        out.push(t);
    }
    xml5lib::coalesce(out)
}

fn sorted(attrs: Vec<thicket_xml5::Attribute<'_>>) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = attrs
        .into_iter()
        .map(|a| (a.name.into_owned(), a.value.into_owned()))
        .collect();
    v.sort();
    v
}

/// Feeds `chunks` to a streaming tokenizer and collects every event.
fn run_chunks(chunks: &[&str], profile: Profile) -> Vec<Event<'static>> {
    let mut t = Tokenizer::streaming(Options::with_profile(profile));
    let mut out = Vec::new();
    for c in chunks {
        t.feed(c);
        while let Some(e) = t.next_event() {
            out.push(e);
        }
    }
    t.finish();
    while let Some(e) = t.next_event() {
        out.push(e);
    }
    out
}

/// Checks the spans of an event stream: the tokens' spans (`Discarded` ones included) tile the
/// input; attributes are in order inside their tag, each with its name's span (which holds the
/// name as written) and its value's span inside its own; diagnostics are in bounds; tags start
/// at `<`.
pub fn check_spans(input: &str, events: &[Event<'_>]) -> Result<(), String> {
    let mut token_spans: Vec<Span> = Vec::new();
    for e in events {
        match e {
            Event::Token(t) => {
                token_spans.push(t.span);
                let attrs = match &t.kind {
                    TokenKind::StartTag { attributes, .. }
                    | TokenKind::EmptyTag { attributes, .. } => &attributes[..],
                    _ => &[],
                };
                let a: Vec<Span> = attrs.iter().map(|a| a.span).collect();
                spans::check_ordered(input, &a).map_err(|e| format!("attribute spans: {e}"))?;
                for a in attrs {
                    let inside =
                        |s: Span, outer: Span| outer.start <= s.start && s.end <= outer.end;
                    if !inside(a.span, t.span)
                        || !inside(a.name_span, a.span)
                        || !inside(a.value_span, a.span)
                        || a.name_span.start != a.span.start
                        || a.value_span.start < a.name_span.end
                    {
                        return Err(format!("attribute {a:?} in {:?}", t.span));
                    }
                    let written = &input[a.name_span.start..a.name_span.end];
                    if !written.contains(['\r', '\0']) && written != a.name {
                        return Err(format!("attribute name span {a:?} holds {written:?}"));
                    }
                }
                if matches!(
                    t.kind,
                    TokenKind::StartTag { .. }
                        | TokenKind::EmptyTag { .. }
                        | TokenKind::EndTag { .. }
                        | TokenKind::ShortEndTag
                        | TokenKind::Pi { .. }
                        | TokenKind::Comment(_)
                        | TokenKind::Doctype { .. }
                ) && !input[t.span.start..].starts_with('<')
                {
                    return Err(format!(
                        "{:?} span {:?} does not start at `<`",
                        t.kind, t.span
                    ));
                }
            }
            Event::Diagnostic(d) => {
                spans::check_ordered(input, &[d.span]).map_err(|e| format!("diagnostic: {e}"))?
            }
        }
    }
    spans::check_tiling(input, &token_spans).map_err(|e| format!("token spans: {e}"))
}

fn run_tokenizer(dir: &Path, profile: Profile) -> Result<Vec<Case>, String> {
    let tests = xml5lib::read_tokenizer_dir(dir)?;
    let mut cases = Vec::with_capacity(tests.len());
    for test in &tests {
        let events: Vec<Event<'_>> =
            thicket_xml5::events(&test.input, Options::with_profile(profile));
        let spans_ok = check_spans(&test.input, &events);
        let actual = to_suite_tokens(events);
        let outcome = if actual != test.output {
            Outcome::Fail(format!(
                "input {:?}\nexpected {:?}\nactual   {:?}",
                test.input, test.output, actual
            ))
        } else if let Err(e) = spans_ok {
            Outcome::Fail(format!("spans: {e}"))
        } else {
            chunk_invariance(&test.input, &actual, profile)
        };
        cases.push(Case::new(test.name(), outcome));
    }
    Ok(cases)
}

fn chunk_invariance(input: &str, whole: &[XmlToken], profile: Profile) -> Outcome {
    let events = run_chunks(&chunks::chars(input), profile);
    if let Err(e) = check_spans(input, &events) {
        return Outcome::Fail(format!("spans fed char by char: {e}"));
    }
    let by_char = to_suite_tokens(events);
    if by_char != whole {
        return Outcome::Fail(format!("fed char by char: {by_char:?}\nwhole: {whole:?}"));
    }
    if input.len() <= SPLIT_LIMIT {
        for [a, b] in chunks::two_way_splits(input) {
            let split = to_suite_tokens(run_chunks(&[a, b], profile));
            if split != whole {
                return Outcome::Fail(format!("split at {}: {split:?}\nwhole: {whole:?}", a.len()));
            }
        }
    }
    Outcome::Pass
}

fn run_tree(dir: &Path) -> Result<Vec<Case>, String> {
    let tests = xml5lib::read_tree_dir(dir)?;
    let mut cases = Vec::with_capacity(tests.len());
    for test in &tests {
        let options = Options::with_profile(Profile::Compatibility);
        let parsed = thicket_xml5::parse_with(&test.data, options.clone());
        let actual = parsed.document.dump();
        let actual = actual.trim_end_matches('\n');
        let outcome = if actual == test.document {
            // The same tree, node spans and diagnostics (in source order) when fed char by
            // char.
            let mut p = thicket_xml5::Parser::new(options);
            for c in chunks::chars(&test.data) {
                p.feed(c);
            }
            let streamed = p.finish();
            let diagnostic_spans: Vec<Span> = parsed.diagnostics.iter().map(|d| d.span).collect();
            if streamed.document.dump().trim_end_matches('\n') != actual {
                Outcome::Fail("the tree differs when the input is fed char by char".into())
            } else if streamed.diagnostics != parsed.diagnostics {
                Outcome::Fail("the diagnostics differ when the input is fed char by char".into())
            } else if let Err(e) = spans::check_ordered(&test.data, &diagnostic_spans) {
                Outcome::Fail(format!("diagnostics out of source order: {e}"))
            } else if let Err(e) = check_node_spans(&test.data, &parsed.document) {
                Outcome::Fail(format!("node spans: {e}"))
            } else if (0..parsed.document.len())
                .map(thicket_xml5::NodeId::from_index)
                .any(|id| parsed.document.span(id) != streamed.document.span(id))
            {
                Outcome::Fail("node spans differ when the input is fed char by char".into())
            } else {
                Outcome::Pass
            }
        } else {
            Outcome::Fail(format!(
                "input {:?}\nexpected:\n{}\nactual:\n{}",
                test.data, test.document, actual
            ))
        };
        cases.push(Case::new(test.name(), outcome));
    }
    Ok(cases)
}

/// Checks a document's node spans: every node has one, in bounds; an element's starts at `<`
/// and holds its children's; siblings do not overlap and come in order.
pub fn check_node_spans(input: &str, doc: &thicket_xml5::Document<'_>) -> Result<(), String> {
    let mut stack = vec![doc.root()];
    while let Some(id) = stack.pop() {
        let span = doc
            .span(id)
            .ok_or_else(|| format!("node {id:?} has no span"))?;
        spans::check_ordered(input, &[span])?;
        if doc.element(id).is_some() && !input[span.start..].starts_with('<') {
            return Err(format!(
                "element {id:?} span {span:?} does not start at `<`"
            ));
        }
        let mut at = span.start;
        for &c in doc.children(id) {
            let s = doc
                .span(c)
                .ok_or_else(|| format!("node {c:?} has no span"))?;
            if s.start < at || s.end > span.end {
                return Err(format!(
                    "child {c:?} {s:?} of {id:?} {span:?} overlaps or leaves it"
                ));
            }
            at = s.end;
            stack.push(c);
        }
    }
    Ok(())
}
