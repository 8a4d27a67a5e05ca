//! The selector suite: a table of selectors over one HTML and one XML document, each match
//! written out (insta snapshots); selector errors; and the streaming matcher against the
//! non-streaming one (`SelectorList::matches_in_xml5`) on every XML corpus file.
// The HTML and XML5 tests, built with both features (the default).
#![cfg(all(feature = "html", feature = "xml5"))]

mod common;

use thicket_rewrite::{Dialect, SelectorList, select};

const HTML: &str = r#"<!DOCTYPE html>
<html lang="en-US"><head><title>t</title><meta charset=utf-8></head>
<body>
<div id="main" class="box  wide">
  <p class="intro">one<br>two</p>
  <p data-x="alpha beta">three</p>
  <ul><li>a</li><li class="odd">b<li>c</li><li lang="en">d</ul>
  <a href="https://example.com/x.pdf" title="A Link">x</a>
  <a href="/local">y</a>
  <svg><rect/><circle></circle></svg>
  <input type=checkbox checked><span>after</span>
</div>
<section><h1>h</h1><h2>i</h2><p>j</p><h2>k</h2></section>
</body></html>"#;

const XML: &str = r#"<?xml version="1.0"?>
<feed xmlns:m="urn:m">
  <entry id="e1" kind="news"><title>a</title><m:rating value="5"/></entry>
  <entry id="e2"><title>b</title><link href="x"/><link href="y"/></entry>
  <m:entry><title>c</title></m:entry>
  <Entry><title>case</title></Entry>
</feed>"#;

/// Selectors of every form, each combinator, each operator.
const TABLE: &[&str] = &[
    "*",
    "p",
    "P",
    "#main",
    ".box",
    ".wide.box",
    ".intro",
    "[lang]",
    "[lang=en]",
    "[lang=\"en-US\"]",
    "[data-x~=beta]",
    "[data-x~=alp]",
    "[lang|=en]",
    "[href^=https]",
    "[href$='.pdf']",
    "[href*=ample]",
    "[title='a link' i]",
    "[title='a link']",
    "[title='A Link' s]",
    "li:first-child",
    "li:nth-child(2n)",
    "li:nth-child(odd)",
    "li:nth-child(-n+2)",
    "h2:first-of-type",
    "h2:nth-of-type(2)",
    "p:nth-of-type(1)",
    "li:not(.odd)",
    "a:not([href^=http])",
    ":not(p):first-child",
    "div p",
    "div > p",
    "body > p",
    "ul li",
    "h1 + h2",
    "h1 + p",
    "h1 ~ h2",
    "h1 ~ p",
    "p + ul > li.odd + li",
    "svg rect",
    "svg > circle + *",
    "input + span",
    "br",
    "title, h1, h2",
    "entry",
    "entry > title",
    "entry[id] link:nth-of-type(2)",
    "feed > entry ~ entry",
    "rating",
    "[value='5']",
    "Entry",
];

fn describe(input: &str, spans: &[thicket_rewrite::Span]) -> String {
    spans
        .iter()
        .map(|s| format!("{}..{} {}", s.start, s.end, &input[s.start..s.end]))
        .collect::<Vec<_>>()
        .join("\n    ")
}

#[test]
fn selector_table() {
    let mut out = String::new();
    for selector in TABLE {
        let list = SelectorList::parse(selector).unwrap();
        out.push_str(&format!("{selector}  (as {})\n", list.to_css()));
        for (name, dialect, input) in [("html", Dialect::Html, HTML), ("xml5", Dialect::Xml5, XML)]
        {
            let spans = select(input, dialect, selector).unwrap();
            if !spans.is_empty() {
                out.push_str(&format!("  {name}: {}\n", describe(input, &spans)));
            }
        }
        // The streaming matcher agrees with the tree one on the XML document.
        let doc = thicket_xml5::parse(XML).document;
        let streamed: Vec<usize> = select(XML, Dialect::Xml5, selector)
            .unwrap()
            .iter()
            .map(|s| s.start)
            .collect();
        assert_eq!(streamed, list.matches_in_xml5(&doc), "{selector}");
    }
    insta::assert_snapshot!(out);
}

#[test]
fn selector_errors() {
    let mut out = String::new();
    for selector in [
        "",
        "a,",
        ",a",
        "a >",
        "> a",
        "a > > b",
        "a:hover",
        "a:last-child",
        "a:has(b)",
        "a:not(b c)",
        "a:not(b, c)",
        "svg|rect",
        "[a|=]",
        "[a=b x]",
        "a..b",
        "a[",
        "li:nth-child(foo)",
        "a b*",
        "p::before",
        "p::slotted(b)",
        "p:::x",
        "li:nth-child(2 of .x)",
        "li:nth-of-type(odd of p, q) + a",
        "li:nth-child(2 of)",
    ] {
        match SelectorList::parse(selector) {
            Ok(l) => out.push_str(&format!("{selector:?}: ok {}\n", l.to_css())),
            Err(e) => out.push_str(&format!(
                "{selector:?}: {} at {}..{}\n",
                e.code.as_str(),
                e.span.start,
                e.span.end
            )),
        }
    }
    insta::assert_snapshot!(out);
}

/// Selectors built from the names in a document (so they match something).
fn selectors_for(text: &str) -> Vec<String> {
    let doc = thicket_xml5::parse(text).document;
    let mut names: Vec<String> = Vec::new();
    for n in doc.descendants(doc.root()) {
        if let Some(e) = doc.element(n) {
            let local = e.local.to_string();
            if !names.contains(&local) && local.chars().all(|c| c.is_ascii_alphanumeric()) {
                names.push(local);
            }
        }
        if names.len() == 4 {
            break;
        }
    }
    let n = |i: usize| names.get(i).or(names.last()).cloned().unwrap_or("x".into());
    let mut out = vec![
        "*".to_owned(),
        "*:first-child".to_owned(),
        "* > *:nth-child(2n+1)".to_owned(),
        "*[id]".to_owned(),
        "* + *".to_owned(),
        "* ~ *:nth-of-type(3)".to_owned(),
        ":not(:first-of-type)".to_owned(),
    ];
    out.push(format!("{} {}", n(0), n(2)));
    out.push(format!("{} > {}", n(1), n(2)));
    out.push(format!("{} + {}", n(2), n(2)));
    out.push(format!("{} ~ {}", n(2), n(3)));
    out.push(format!("{}:nth-of-type(2n)", n(3)));
    out.push(format!("{} *:first-of-type", n(1)));
    out.push(format!("{} > * + {} ~ *", n(0), n(2)));
    out
}

#[test]
fn streaming_matcher_agrees_with_the_tree_on_the_corpus() {
    let mut compared = 0;
    for (name, text) in common::corpus("xml") {
        let doc = thicket_xml5::parse(&text).document;
        for selector in selectors_for(&text) {
            let list = SelectorList::parse(&selector).unwrap();
            let streamed: Vec<usize> = select(&text, Dialect::Xml5, &selector)
                .unwrap()
                .iter()
                .map(|s| s.start)
                .collect();
            let reference = list.matches_in_xml5(&doc);
            assert!(
                streamed == reference,
                "{name}: {selector}: {} streamed, {} in the tree",
                streamed.len(),
                reference.len()
            );
            compared += reference.len();
        }
    }
    assert!(compared > 10_000, "{compared}");
}

/// A program of more than 64 compounds keeps its bits past the first word: compounds 70 and
/// up (the last selector's, with a child combinator) still match, as they do alone.
#[test]
fn programs_wider_than_one_word_match_alike() {
    let input = "<r><p><x70 id=a></x70><x69/></p><x70/></r>";
    let mut list: Vec<String> = (0..70).map(|i| format!("x{i}")).collect();
    list.push("p > x70".to_owned());
    let wide = select(input, Dialect::Xml5, &list.join(", ")).unwrap();
    let alone = select(input, Dialect::Xml5, "p > x70, x69").unwrap();
    assert_eq!(wide, alone);
    assert_eq!(wide.len(), 2);
}

/// End tags find their element the same way on both sides of the depth (32) below which open
/// elements are found by a short walk and above which they are counted by name.
#[test]
fn end_tags_close_the_nearest_match_at_any_depth() {
    use thicket_rewrite::{Dialect, select};
    for depth in [0usize, 1, 31, 32, 33, 40, 100] {
        let divs = "<div>".repeat(depth);
        // A shallow element closed from deep inside: everything inside it closes.
        let doc = format!("<a>{divs}<span></span></a><i>x</i>");
        for (selector, count) in [
            ("a i", 0),
            ("div i", 0),
            ("i", 1),
            ("div span", usize::from(depth > 0)),
        ] {
            let got = select(&doc, Dialect::Html, selector).unwrap().len();
            assert_eq!(got, count, "depth {depth}, {selector}: {doc}");
        }
        // A deep element closed by its end tag through open children; a stray end tag
        // closes nothing.
        let doc = format!("{divs}<p><span><b></p></nope><q></q>");
        for (selector, count) in [("p q", 0), ("span q", 0), ("b", 1)] {
            let got = select(&doc, Dialect::Html, selector).unwrap().len();
            assert_eq!(got, count, "depth {depth}, {selector}: {doc}");
        }
        let inside_div = select(&doc, Dialect::Html, "div > q").unwrap().len();
        assert_eq!(inside_div, usize::from(depth > 0), "depth {depth}: {doc}");
        // The same element name open at both depths: the nearest closes.
        let doc = format!("<s>{divs}<s><u></s><v></v></s><w></w>");
        let v_in_s = select(&doc, Dialect::Html, "s v").unwrap().len();
        let w_in_s = select(&doc, Dialect::Html, "s w").unwrap().len();
        assert_eq!((v_in_s, w_in_s), (1, 0), "depth {depth}: {doc}");
    }
}

/// Hostile selector text: `:not()` nests at most `MAX_NOT_NESTING` deep (parsing, printing,
/// matching and dropping a selector walk its `:not()`s), deeper is `selector-nesting-limit`,
/// never a stack overflow; other deep brackets are skipped without recursion.
#[test]
fn deep_selector_nesting_is_an_error_not_a_crash() {
    use thicket_rewrite::{Dialect, MAX_NOT_NESTING, Settings, rewrite_str};
    let nested = |depth: usize, open: &str, close: &str| {
        format!("{}a{}", open.repeat(depth), close.repeat(depth))
    };
    // At the limit: parsed, printed and matched (an even number of `:not` is `a`).
    let at = nested(MAX_NOT_NESTING, ":not(", ")");
    let list = SelectorList::parse(&at).expect("nesting at the limit parses");
    assert_eq!(list.to_css(), at);
    let settings = Settings::new()
        .on_element(&at, |e| e.set_attribute("hit", ""))
        .expect("the selector is accepted");
    let out = rewrite_str("<a></a><b></b>", Dialect::Html, settings).expect("rewrites");
    assert_eq!(out, "<a hit=\"\"></a><b></b>");
    for depth in [MAX_NOT_NESTING + 1, 100_000] {
        let e = SelectorList::parse(&nested(depth, ":not(", ")")).unwrap_err();
        assert_eq!(e.code.as_str(), "selector-nesting-limit", "depth {depth}");
        assert_eq!(
            e.span.start,
            ":not(".len() * MAX_NOT_NESTING,
            "the span starts at the :not( past the limit"
        );
    }
    for (open, close) in [("[", "]"), ("(", ")"), (":is(", ")"), (":nth-child(", ")")] {
        let e = SelectorList::parse(&nested(100_000, open, close)).unwrap_err();
        assert!(
            matches!(e.code.as_str(), "invalid-selector" | "unsupported-selector"),
            "{open}: {}",
            e.code.as_str()
        );
    }
}

/// `to_css` escapes names and values, so its text parses back to the same selector (found by
/// the `selector_parse` fuzz target: `\5` printed as a raw control character).
#[test]
fn printed_selectors_parse_back_to_themselves() {
    for text in [
        "\\5",
        "#\\31 a",
        ".a\\.b",
        "a\\ b > c",
        "[data-x=\"a\\\"b\"]",
        "[a='\\a']",
        "[a=\"\\\\\"]",
        "\\2a",
        ":not(#\\30)",
    ] {
        let list = SelectorList::parse(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        let css = list.to_css();
        let again = SelectorList::parse(&css).unwrap_or_else(|e| panic!("{css:?}: {e}"));
        assert_eq!(again.to_css(), css, "{text:?}");
    }
    assert_eq!(SelectorList::parse("#\\31 a").unwrap().to_css(), "#\\31 a");
}

/// Generated documents deeper than the depth (32) past which open elements are counted by
/// name, counted lazily when an end tag first needs them: end tags of deep and shallow
/// elements, stray end tags and sibling runs interleaved, under a program wider than one word
/// with `:nth-of-type` (so every part of an open element's frame is used). The streaming
/// matcher agrees with the tree on each.
#[test]
fn deep_generated_documents_match_the_tree() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let mut wide: Vec<String> = (0..66).map(|i| format!("x{i}")).collect();
    wide.extend(
        [
            "a > b",
            "b c",
            "a + b",
            "c ~ a",
            "b:nth-of-type(2)",
            "a:nth-child(odd) > c",
        ]
        .map(String::from),
    );
    // (Typed `:nth-of-type` alone counts only its names' siblings; `*:nth-of-type` all.)
    let selectors = [
        wide.join(", "),
        "a b c".to_owned(),
        "c:first-of-type".to_owned(),
        "b:nth-of-type(odd) c:nth-of-type(2)".to_owned(),
        "a > *:nth-of-type(2), c:not(:nth-of-type(3))".to_owned(),
    ];
    let mut deep_strays = 0;
    for round in 0..40 {
        // One root (after it, XML5's tree builder drops elements).
        let mut doc = "<r>".to_owned();
        let mut open: Vec<&str> = Vec::new();
        for _ in 0..400 {
            let name = ["a", "b", "c"][next(3) as usize];
            match next(10) {
                // Mostly deeper.
                0..=5 => {
                    doc.push_str(&format!("<{name}>"));
                    open.push(name);
                }
                6 => doc.push_str(&format!("<{name}/>")),
                // The end tag of some open element (the nearest of that name closes).
                7 | 8 if !open.is_empty() => {
                    let k = next(open.len() as u64) as usize;
                    let n = open[k];
                    doc.push_str(&format!("</{n}>"));
                    let nearest = open.iter().rposition(|&o| o == n).unwrap();
                    open.truncate(nearest);
                }
                // A stray end tag: nothing of that name is open.
                _ => {
                    doc.push_str("</z>");
                    deep_strays += usize::from(open.len() > 40);
                }
            }
        }
        for n in open.iter().rev() {
            doc.push_str(&format!("</{n}>"));
        }
        doc.push_str("</r>");
        let tree = thicket_xml5::parse(&doc).document;
        for selector in &selectors {
            let list = SelectorList::parse(selector).unwrap();
            let streamed: Vec<usize> = select(&doc, Dialect::Xml5, selector)
                .unwrap()
                .iter()
                .map(|s| s.start)
                .collect();
            assert_eq!(
                streamed,
                list.matches_in_xml5(&tree),
                "round {round}, {selector}: {doc}"
            );
        }
    }
    // The documents do go deep, with stray end tags there.
    assert!(deep_strays > 100, "{deep_strays}");
}
