//! HTML settings beyond the handlers: the scripting flag and strict mode (one test per rule
//! of the strict table, each also fed char by char).
// The HTML and XML5 tests, built with both features (the default).
#![cfg(all(feature = "html", feature = "xml5"))]

mod common;

use thicket_rewrite::{Dialect, Rewriter, Settings, select};

/// The `a` start tags an element handler sees, with the scripting flag as given.
fn links(input: &str, scripting: bool) -> Vec<String> {
    let mut names = Vec::new();
    {
        let settings = Settings::new()
            .scripting(scripting)
            .on_element("a", |e| {
                names.push(e.attribute("href").unwrap_or("").to_owned())
            })
            .unwrap();
        let mut r = Rewriter::read_only(Dialect::Html, settings);
        for c in input.chars() {
            r.feed_str(c.encode_utf8(&mut [0; 4])).unwrap();
        }
        r.finish().unwrap();
    }
    names
}

#[test]
fn scripting_makes_noscript_raw_text() {
    let input = "<a href=1></a><noscript><a href=2></a></noscript><a href=3></a>";
    // Disabled (the default): `noscript` content is markup.
    assert_eq!(links(input, false), ["1", "2", "3"]);
    assert_eq!(
        select(input, Dialect::Html, "noscript > a").unwrap().len(),
        1
    );
    // Enabled: it is raw text, as in a browser running scripts (and lol_html).
    assert_eq!(links(input, true), ["1", "3"]);
    // Raw text ends at `</noscript>` only; the text comes through unchanged.
    let settings = Settings::new()
        .scripting(true)
        .on_element("b", |e| e.set_attribute("x", "y"))
        .unwrap();
    let out = thicket_rewrite::rewrite_str("<noscript><b></noscript ><b>", Dialect::Html, settings)
        .unwrap();
    assert_eq!(out, "<noscript><b></noscript ><b x=\"y\">");
}

#[test]
fn scripting_does_not_touch_xml5() {
    let settings = Settings::new()
        .scripting(true)
        .on_element("a", |e| e.set_attribute("x", "1"))
        .unwrap();
    let out =
        thicket_rewrite::rewrite_str("<noscript><a/></noscript>", Dialect::Xml5, settings).unwrap();
    assert_eq!(out, "<noscript><a x=\"1\"/></noscript>");
}

/// Strict mode's table: each input, the code, and the token strict mode stops at (`None`: no
/// ambiguity). One row or more per rule.
const STRICT: &[(&str, Option<(&str, &str)>)] = &[
    // implied-end-tag
    ("<p>a<div>b</div>", Some(("implied-end-tag", "<div>"))),
    ("<p>a<ul>", Some(("implied-end-tag", "<ul>"))),
    ("<li>a<li>b", Some(("implied-end-tag", "<li>"))),
    ("<dl><dt>a<dd>b", Some(("implied-end-tag", "<dd>"))),
    ("<h1>a<h2>b", Some(("implied-end-tag", "<h2>"))),
    (
        "<select><option>a<option>b",
        Some(("implied-end-tag", "<option>")),
    ),
    ("<ruby>a<rt>b<rp>c", Some(("implied-end-tag", "<rp>"))),
    ("<button>a<button>", Some(("implied-end-tag", "<button>"))),
    (
        "<table><tbody><tr><td>a<td>b",
        Some(("implied-end-tag", "<td>")),
    ),
    (
        "<table><tbody><tr><td>a<tr>",
        Some(("implied-end-tag", "<tr>")),
    ),
    (
        "<table><tbody><tr><thead>",
        Some(("implied-end-tag", "<thead>")),
    ),
    ("<table><caption>c<tr>", Some(("implied-end-tag", "<tr>"))),
    (
        "<table><colgroup><col><tr>",
        Some(("implied-end-tag", "<tr>")),
    ),
    ("<table><table>", Some(("implied-end-tag", "<table>"))),
    ("<div><span>a</div>", None),
    ("<span><div>a</span>", Some(("implied-end-tag", "</span>"))),
    ("<div><p>a</span>", None),
    ("<span><p>a</span>", Some(("implied-end-tag", "</span>"))),
    (
        "<div><table><tbody><tr><td>a</div>",
        Some(("implied-end-tag", "</div>")),
    ),
    // implied-element
    (
        "<table><tr><td>a</td></tr></table>",
        Some(("implied-element", "<tr>")),
    ),
    ("<table><tbody><td>", Some(("implied-element", "<td>"))),
    ("<table><col>", Some(("implied-element", "<col>"))),
    ("<div>a</p>", Some(("implied-element", "</p>"))),
    ("a</br>", Some(("implied-element", "</br>"))),
    // foster-parenting
    ("<table> \n text<tr>", Some(("foster-parenting", "t"))),
    ("<table><tbody><div>", Some(("foster-parenting", "<div>"))),
    ("<table><tbody><tr>x</tr>", Some(("foster-parenting", "x"))),
    ("<table><form>", Some(("foster-parenting", "<form>"))),
    (
        "<table>\n <input type=hidden><script></script></table>",
        None,
    ),
    // misnested-formatting
    ("<b><i>a</b>c</i>", Some(("misnested-formatting", "</b>"))),
    ("<b><p>a</b>", Some(("misnested-formatting", "</b>"))),
    ("<p><b>a</p>", Some(("misnested-formatting", "</p>"))),
    (
        "<a href=1>a<a href=2>b",
        Some(("misnested-formatting", "<a href=2>")),
    ),
    ("<nobr>a<nobr>b", Some(("misnested-formatting", "<nobr>"))),
    // template-content
    (
        "<template><p>x</p></template>",
        Some(("template-content", "<template>")),
    ),
    // select-content
    ("<select><div>", Some(("select-content", "<div>"))),
    ("<select><select>", Some(("select-content", "<select>"))),
    // ignored-tag
    ("<form><div><form>", Some(("ignored-tag", "<form>"))),
    ("<html><body><html>", Some(("ignored-tag", "<html>"))),
    ("<body><div><body>", Some(("ignored-tag", "<body>"))),
    ("<frameset>", Some(("ignored-tag", "<frameset>"))),
    // Well-formed markup with nothing to report.
    (
        "<!DOCTYPE html><html><head><title>t</title></head><body><ul><li>a<ul><li>b</li></ul></li>\
         <li>c</ul><p>p</p><div><p>q</div><dl><dt>x</dt><dd>y</dl><table><caption>c</caption>\
         <colgroup><col></colgroup><thead><tr><th>h</th></tr></thead><tbody><tr><td><p>d</td>\
         </tr></tbody></table><select><optgroup><option>o</option></optgroup><hr></select>\
         <svg><g>in svg</g><rect/><foreignObject><p>x</p></foreignObject></svg><b><i>x</i></b><button><p>y</button></body></html>",
        None,
    ),
    (
        "<ul><li>a</ul><ol><li>b<li>c</ol>",
        Some(("implied-end-tag", "<li>")),
    ),
    ("<p>a<svg><circle><div>", Some(("implied-end-tag", "<div>"))),
];

/// Runs strict (refusing) or report-only over `input` fed in chunks of `chunk` bytes: the
/// output, the error, the diagnostics.
fn run_strict(
    input: &str,
    refuse: bool,
    chunk: usize,
) -> (
    String,
    Option<thicket_rewrite::Error>,
    Vec<(String, thicket_rewrite::Span)>,
) {
    let mut out = Vec::new();
    let settings = Settings::new()
        .on_element("*", |e| e.set_attribute("k", "1"))
        .unwrap();
    let settings = if refuse {
        settings.strict(true)
    } else {
        settings.report_ambiguities(true)
    };
    let mut error = None;
    let diagnostics;
    {
        let mut r = Rewriter::new(Dialect::Html, settings, |b: &[u8]| out.extend_from_slice(b));
        let mut rest = input;
        while !rest.is_empty() && error.is_none() {
            let mut cut = chunk.min(rest.len());
            while !rest.is_char_boundary(cut) {
                cut += 1;
            }
            if let Err(e) = r.feed_str(&rest[..cut]) {
                error = Some(e);
            }
            rest = &rest[cut..];
        }
        diagnostics = r
            .diagnostics()
            .iter()
            .map(|d| (d.code.as_str().to_owned(), d.span))
            .collect();
        if let Err(e) = r.finish() {
            let again = error.get_or_insert(e.clone());
            assert_eq!(again.code, e.code, "finish returns the same error");
        }
    }
    (String::from_utf8(out).unwrap(), error, diagnostics)
}

#[test]
fn strict_mode_table() {
    for &(input, expected) in STRICT {
        let (out, error, diagnostics) = run_strict(input, true, input.len());
        let got = error
            .as_ref()
            .map(|e| (e.code.as_str(), &input[e.span.start..e.span.end]));
        assert_eq!(got, expected, "{input}");
        // Chunking changes nothing: not the error, not the output.
        for chunk in [1, 3] {
            let (o, e, d) = run_strict(input, true, chunk);
            assert_eq!(
                e.map(|e| (e.code, e.span)),
                error.as_ref().map(|e| (e.code, e.span)),
                "{input} in chunks of {chunk}"
            );
            assert_eq!((o.as_str(), d.len()), (out.as_str(), diagnostics.len()));
        }
        let Some(e) = error else {
            assert!(diagnostics.is_empty(), "{input}: {diagnostics:?}");
            continue;
        };
        // The diagnostic is the error, and the output stops right before the token at fault.
        assert_eq!(diagnostics, [(e.code.as_str().to_owned(), e.span)]);
        let (guess, none, _) = run_strict(&input[..e.span.start], true, input.len());
        assert!(none.is_none(), "{input}: the prefix alone is clean");
        assert_eq!(out, guess, "{input}: the output is the prefix's");
        // Report-only mode goes on with the guess and reports the same first ambiguity.
        let (full, none, reported) = run_strict(input, false, input.len());
        assert!(none.is_none());
        assert_eq!(
            reported.first(),
            Some(&(e.code.as_str().to_owned(), e.span))
        );
        assert!(full.len() > out.len(), "{input}");
    }
}

/// Strict mode is HTML's: XML5 markup that HTML would restructure is no ambiguity there.
#[test]
fn strict_mode_leaves_xml5_alone() {
    let settings = Settings::new().strict(true);
    let out =
        thicket_rewrite::rewrite_str("<p>a<div>b</div><b><i></b></p>", Dialect::Xml5, settings)
            .unwrap();
    assert_eq!(out, "<p>a<div>b</div><b><i></b></p>");
}

/// Report-only strict mode over the HTML corpus: the same ambiguities whole and in chunks,
/// and the output is the guessing rewrite's (reporting changes nothing).
#[test]
fn strict_reports_on_the_corpus_do_not_depend_on_chunks() {
    let mut reported = 0;
    for (name, text) in common::corpus("html") {
        let (out, error, whole) = run_strict(&text, false, text.len());
        assert!(error.is_none(), "{name}");
        let (chunked_out, _, chunked) = run_strict(&text, false, 4093);
        assert_eq!(whole, chunked, "{name}");
        assert_eq!(out, chunked_out, "{name}");
        let settings = Settings::new()
            .on_element("*", |e| e.set_attribute("k", "1"))
            .unwrap();
        let guess = thicket_rewrite::rewrite_str(&text, Dialect::Html, settings).unwrap();
        assert_eq!(out, guess, "{name}");
        reported += whole.len();
    }
    assert!(reported > 0);
}

/// Read-only mode ignores edits, so text "inserted" into raw text refuses nothing there: the
/// selection goes on past the `<script>` (found by a newcomer reusing one `Settings` for a dry
/// run).
#[test]
fn read_only_ignores_insertions_into_raw_text() {
    use std::cell::RefCell;
    use thicket_rewrite::ContentType;
    let seen = RefCell::new(Vec::new());
    {
        let settings = Settings::new()
            .on_element("script", |e| e.prepend("x", ContentType::Text))
            .unwrap()
            .on_element("p", |e| seen.borrow_mut().push(e.span().start))
            .unwrap();
        let mut r = Rewriter::read_only(Dialect::Html, settings);
        r.feed_str("<script>a</script><p>after</p>").unwrap();
        r.finish().unwrap();
    }
    assert_eq!(seen.into_inner(), [18]);
    // With output, the same handler is refused.
    let settings = Settings::new()
        .on_element("script", |e| e.prepend("x", ContentType::Text))
        .unwrap();
    let e =
        thicket_rewrite::rewrite_str("<script>a</script>", Dialect::Html, settings).unwrap_err();
    assert_eq!(e.code.as_str(), "raw-text-insertion");
}
