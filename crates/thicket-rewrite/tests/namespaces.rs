//! Namespace-qualified selectors: a table over an XML document (default namespace, a prefix
//! rebound and undeclared, an unbound prefix, namespaced attributes) and an HTML document
//! (foreign content), insta snapshots; errors; the streaming matcher against the tree matcher
//! on every XML corpus file with namespaced selectors built from each file's namespaces; and a
//! bound on the declarations in scope.
// The HTML and XML5 tests, built with both features (the default).
#![cfg(all(feature = "html", feature = "xml5"))]

mod common;

use thicket_rewrite::{Dialect, Limits, Namespaces, Rewriter, SelectorList, Settings, Span};

const XML: &str = r##"<root xmlns="urn:a" xmlns:b="urn:b" xmlns:xl="http://www.w3.org/1999/xlink">
  <item id="1" b:id="x" xl:href="#1"/>
  <b:item id="2"><inner/></b:item>
  <part xmlns="urn:c"><item xml:lang="en"/><b:item/></part>
  <part xmlns="" xmlns:b="urn:b2"><item/><b:item id="3"/><q:item/></part>
  <zone xmlns:b=""><item b:x="1"/></zone>
</root>"##;

const HTML: &str = r##"<!DOCTYPE html><p id=p1>
<svg xmlns:xlink="http://www.w3.org/1999/xlink"><a xlink:href="#x">s</a><title>t</title>
<foreignObject><a href="h" xlink:href="q">h</a><svg><rect/></svg></foreignObject></svg>
<math><mi>x</mi><mtext><b>y</b></mtext></math><a xlink:href="z">plain</a>
<math><annotation-xml><svg><rect/></svg><mrow/></annotation-xml></math>"##;

fn namespaces() -> Namespaces {
    Namespaces::new()
        .prefix("a", "urn:a")
        .prefix("b", "urn:b")
        .prefix("b2", "urn:b2")
        .prefix("c", "urn:c")
        .prefix("xl", Namespaces::XLINK)
        .prefix("xml", Namespaces::XML)
        .prefix("h", Namespaces::HTML)
        .prefix("svg", Namespaces::SVG)
        .prefix("m", Namespaces::MATHML)
}

const TABLE: &[&str] = &[
    "a|item",
    "b|item",
    "b2|item",
    "c|item",
    "*|item",
    "|item",
    "|*",
    "b|*",
    "a|root > c|part > c|*",
    ":not(a|*)",
    "[id]",
    "[|id]",
    "[b|id]",
    "[*|id]",
    "[*|id='x']",
    "[xl|href]",
    "[xl|href^='#']",
    "[xml|lang|=en]",
    "[b|x]",
    "[*|x]",
    "h|a",
    "svg|a",
    "svg|*",
    "m|*",
    "h|b",
    "svg|title",
    "svg|rect",
    "h|p",
];

fn select_ns(input: &str, dialect: Dialect, list: &SelectorList) -> Vec<Span> {
    let mut spans = Vec::new();
    {
        let settings = Settings::new().on_selector(list.clone(), |e| spans.push(e.span()));
        let mut r = Rewriter::read_only(dialect, settings);
        r.feed_str(input).unwrap();
        r.finish().unwrap();
    }
    spans
}

fn describe(input: &str, spans: &[Span]) -> String {
    spans
        .iter()
        .map(|s| format!("{}..{} {}", s.start, s.end, &input[s.start..s.end]))
        .collect::<Vec<_>>()
        .join("\n    ")
}

#[test]
fn namespace_table() {
    let ns = namespaces();
    let doc = thicket_xml5::parse(XML).document;
    let mut out = String::new();
    let with_default = ns.clone().default_namespace("urn:a");
    let defaults = ["item", "*", ".x, [id]", ":not(item)", "*|item", "c|item"];
    let rows = TABLE.iter().map(|s| (*s, &ns, "")).chain(
        defaults
            .iter()
            .map(|s| (*s, &with_default, " (default urn:a)")),
    );
    for (selector, ns, note) in rows {
        let list = SelectorList::parse_with_namespaces(selector, ns).unwrap();
        out.push_str(&format!("{selector}{note}  (as {})\n", list.to_css()));
        for (name, dialect, input) in [("xml5", Dialect::Xml5, XML), ("html", Dialect::Html, HTML)]
        {
            let spans = select_ns(input, dialect, &list);
            if !spans.is_empty() {
                out.push_str(&format!("  {name}: {}\n", describe(input, &spans)));
            }
            for chunk in [1, 7] {
                let mut chunked = Vec::new();
                {
                    let settings =
                        Settings::new().on_selector(list.clone(), |e| chunked.push(e.span()));
                    let mut r = Rewriter::read_only(dialect, settings);
                    let mut rest = input;
                    while !rest.is_empty() {
                        let cut = chunk.min(rest.len());
                        r.feed_str(&rest[..cut]).unwrap();
                        rest = &rest[cut..];
                    }
                    r.finish().unwrap();
                }
                assert_eq!(chunked, spans, "{selector} in chunks of {chunk}");
            }
        }
        let streamed: Vec<usize> = select_ns(XML, Dialect::Xml5, &list)
            .iter()
            .map(|s| s.start)
            .collect();
        assert_eq!(streamed, list.matches_in_xml5(&doc), "{selector}{note}");
    }
    insta::assert_snapshot!(out);
}

#[test]
fn namespace_errors() {
    let ns = Namespaces::new().prefix("svg", Namespaces::SVG);
    let mut out = String::new();
    for selector in [
        "math|mi",
        "svg|rect math|mi",
        "[xl|href]",
        "svg|",
        "svg|.a",
        "svg |rect",
        "[svg|]",
        "[*href]",
        "a svg|*|b",
        "*|*",
        "|a",
        "[|a=b i]",
    ] {
        match SelectorList::parse_with_namespaces(selector, &ns) {
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

/// `Settings::with_namespaces` binds the prefixes of later `on_element` selectors.
#[test]
fn settings_bind_prefixes_for_on_element() {
    let mut names = Vec::new();
    {
        let settings = Settings::new()
            .with_namespaces(Namespaces::new().prefix("s", Namespaces::SVG))
            .on_element("s|rect", |e| names.push(e.name().to_owned()))
            .unwrap();
        let mut r = Rewriter::read_only(Dialect::Html, settings);
        r.feed_str("<rect><svg><rect/><g><rect></rect></g></svg>")
            .unwrap();
        r.finish().unwrap();
    }
    assert_eq!(names, ["rect", "rect"]);
    let e = Settings::new().on_element("s|rect", |_| {}).unwrap_err();
    assert_eq!(e.code.as_str(), "unknown-namespace-prefix");
}

/// Declarations past `max_namespace_declarations`, or past `max_namespace_bytes` of prefixes
/// and namespaces, in scope are reported and do not bind; the scope shrinks as elements close,
/// so later declarations bind again.
#[test]
fn namespace_declarations_are_bounded() {
    // Each declaration is 6 bytes (`a` + `urn:1`): two in scope are 12.
    for limits in [
        Limits::none().with_max_namespace_declarations(2),
        Limits::none().with_max_namespace_bytes(12),
    ] {
        namespace_declarations_are_bounded_by(limits);
    }
}

fn namespace_declarations_are_bounded_by(limits: Limits) {
    let input = "<r xmlns:a='urn:1'><s xmlns:b='urn:2'><b:x/></s><t xmlns:b='urn:2'><b:x/></t>\
                 <u xmlns:c='urn:3' xmlns:b='urn:2'><b:x/></u></r>";
    let list = SelectorList::parse_with_namespaces("n|x", &Namespaces::new().prefix("n", "urn:2"))
        .unwrap();
    let mut spans = Vec::new();
    let codes: Vec<(String, usize)>;
    {
        let settings = Settings::new()
            .with_limits(limits)
            .on_selector(list.clone(), |e| spans.push(e.span().start));
        let mut r = Rewriter::read_only(Dialect::Xml5, settings);
        r.feed_str(input).unwrap();
        codes = r
            .diagnostics()
            .iter()
            .map(|d| (d.code.as_str().to_owned(), d.span.start))
            .collect();
        r.finish().unwrap();
    }
    // `u` declares `c` (the second binding) and then `b` (a third: over the limit).
    let over = input.find("xmlns:b='urn:2'><b:x/></u>").unwrap();
    assert_eq!(codes, [("namespace-limit".to_owned(), over)]);
    let xs: Vec<usize> = input.match_indices("<b:x/>").map(|(i, _)| i).collect();
    assert_eq!(spans, xs[..2]);
    let doc = thicket_xml5::parse_with(
        input,
        thicket_xml5::Options {
            limits,
            ..Default::default()
        },
    )
    .document;
    assert_eq!(list.matches_in_xml5(&doc), spans);
}

/// A deep document whose every element declares a prefix: the scope grows with the open
/// elements only, and lookups stay right past the point where they go through the index.
#[test]
fn deep_declarations_resolve_innermost_first() {
    let mut input = String::from("<doc>");
    for i in 0..40 {
        input.push_str(&format!("<e{i} xmlns:p='urn:{i}' xmlns:q{i}='urn:q'>"));
        input.push_str("<p:x/>");
    }
    for i in (0..40).rev() {
        input.push_str(&format!("</e{i}><p:x/>"));
    }
    input.push_str("</doc>");
    let ns = Namespaces::new().prefix("n", "urn:7").prefix("q", "urn:q");
    for selector in ["n|x", "q|*", "*|x", "|x"] {
        let list = SelectorList::parse_with_namespaces(selector, &ns).unwrap();
        let streamed: Vec<usize> = select_ns(&input, Dialect::Xml5, &list)
            .iter()
            .map(|s| s.start)
            .collect();
        let doc = thicket_xml5::parse(&input).document;
        assert_eq!(streamed, list.matches_in_xml5(&doc), "{selector}");
    }
}

/// Namespaces with a local name of an element (or attribute) in each.
type Used = Vec<(String, String)>;

/// The namespaces of one document: its elements' and attributes' namespaces, most used first,
/// and a local name of an element in each.
fn document_namespaces(doc: &thicket_xml5::Document<'_>) -> (Used, Used) {
    let mut elements: Vec<(String, String, usize)> = Vec::new();
    let mut attributes: Vec<(String, String, usize)> = Vec::new();
    let bump = |list: &mut Vec<(String, String, usize)>, ns: &str, local: &str| match list
        .iter_mut()
        .find(|(n, _, _)| n == ns)
    {
        Some(e) => e.2 += 1,
        None => list.push((ns.to_owned(), local.to_owned(), 1)),
    };
    for n in doc.descendants(doc.root()) {
        if let Some(e) = doc.element(n) {
            if let Some(ns) = e.namespace.as_deref() {
                bump(&mut elements, ns, &e.local);
            }
            for a in doc.attributes(n) {
                if let Some(ns) = a.namespace() {
                    bump(&mut attributes, ns, a.local());
                }
            }
        }
    }
    elements.sort_by_key(|e| std::cmp::Reverse(e.2));
    attributes.sort_by_key(|e| std::cmp::Reverse(e.2));
    let strip = |v: Vec<(String, String, usize)>| v.into_iter().map(|(n, l, _)| (n, l)).collect();
    (strip(elements), strip(attributes))
}

#[test]
fn streaming_namespaces_agree_with_the_tree_on_the_corpus() {
    let mut compared = 0;
    let mut namespaced = 0;
    for (name, text) in common::corpus("xml") {
        let doc = thicket_xml5::parse(&text).document;
        let (elements, attributes) = document_namespaces(&doc);
        let mut ns = Namespaces::new();
        let mut selectors = vec![
            "*|*".to_owned(),
            "|*".to_owned(),
            "[*|id]".to_owned(),
            "[|id]".to_owned(),
        ];
        for (i, (uri, local)) in elements.iter().take(3).enumerate() {
            ns = ns.prefix(&format!("e{i}"), uri);
            let ident = local.chars().all(|c| c.is_ascii_alphanumeric());
            selectors.push(format!("e{i}|*"));
            selectors.push(format!(":not(e{i}|*) > e{i}|*"));
            if ident {
                selectors.push(format!("e{i}|{local}"));
                selectors.push(format!("*|{local} + |*, e{i}|* ~ {local}"));
            }
        }
        for (i, (uri, local)) in attributes.iter().take(3).enumerate() {
            ns = ns.prefix(&format!("a{i}"), uri);
            if local.chars().all(|c| c.is_ascii_alphanumeric()) {
                selectors.push(format!("[a{i}|{local}]"));
                selectors.push(format!("[*|{local}]"));
            }
        }
        let mut lists: Vec<SelectorList> = selectors
            .iter()
            .map(|s| SelectorList::parse_with_namespaces(s, &ns).unwrap())
            .collect();
        if let Some((uri, _)) = elements.first() {
            let d = ns.clone().default_namespace(uri);
            for s in ["*", "*:first-child", ":not(*|*:first-child)"] {
                lists.push(SelectorList::parse_with_namespaces(s, &d).unwrap());
            }
        }
        for list in lists {
            let streamed: Vec<usize> = select_ns(&text, Dialect::Xml5, &list)
                .iter()
                .map(|s| s.start)
                .collect();
            let reference = list.matches_in_xml5(&doc);
            assert!(
                streamed == reference,
                "{name}: {}: {} streamed, {} in the tree",
                list.to_css(),
                streamed.len(),
                reference.len()
            );
            compared += reference.len();
        }
        namespaced += elements.len() + attributes.len();
    }
    assert!(namespaced > 10, "{namespaced}");
    assert!(compared > 10_000, "{compared}");
}

/// A start tag past the depth limit is reported before its declarations past the namespace
/// limit: the rewriter's diagnostics come in source order.
#[test]
fn depth_and_namespace_diagnostics_come_in_source_order() {
    let input = "<r xmlns:p='urn:q'><a xmlns:z='urn:x'><z:x/></a></r>";
    let list = SelectorList::parse_with_namespaces("n|x", &Namespaces::new().prefix("n", "urn:x"))
        .unwrap();
    let settings = Settings::new()
        .with_limits(
            Limits::none()
                .with_max_depth(1)
                .with_max_namespace_declarations(1),
        )
        .on_selector(list, |_| {});
    let mut r = Rewriter::read_only(Dialect::Xml5, settings);
    r.feed_str(input).unwrap();
    let codes: Vec<(&str, usize)> = r
        .diagnostics()
        .iter()
        .map(|d| (d.code.as_str(), d.span.start))
        .collect();
    assert_eq!(codes, [("depth-limit", 19), ("namespace-limit", 22)]);
    r.finish().unwrap();
}
