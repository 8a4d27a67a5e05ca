//! HTML settings beyond the handlers: the scripting flag and strict mode (one test per rule
//! of the strict table, each also fed char by char).

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
