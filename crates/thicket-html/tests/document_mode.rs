//! The document-level mode (`Options::document`): raw-text switching by tag name where the HTML
//! rules process the start tag, SVG and MathML followed as the tree builder's rules for foreign
//! content say, CDATA sections where the adjusted current node is foreign. One test per rule
//! (docs/html.md, "The document-level mode"), each whole, one character at a time and without
//! the direct paths.

use thicket_html::{Options, Token, Tokenizer};

/// The tokens of `input` as short strings, with the diagnostics' codes; checked to be the same
/// fed whole, one character at a time, and through the states alone.
fn tokens_with(input: &str, options: Options) -> (Vec<String>, Vec<&'static str>) {
    let run = |chunked: bool, direct: bool| {
        let mut tok = Tokenizer::with_options(options.clone());
        tok.set_direct_paths(direct);
        let mut out: Vec<String> = Vec::new();
        let mut pull = |tok: &mut Tokenizer| {
            while let Some(t) = tok.next_token() {
                let s = match t {
                    Token::StartTag(t) => format!("<{}>", t.name),
                    Token::EndTag(t) => format!("</{}>", t.name),
                    Token::Text { text, .. } => format!("'{text}'"),
                    Token::Comment { data, .. } => format!("<!--{data}-->"),
                    Token::Eof { .. } | Token::Discarded { .. } => continue,
                    other => format!("{other:?}"),
                };
                // Text runs may be split where a chunk ended: join them.
                match (out.last_mut(), s.strip_prefix('\'')) {
                    (Some(last), Some(more)) if last.starts_with('\'') => {
                        last.pop();
                        last.push_str(more);
                    }
                    _ => out.push(s),
                }
            }
        };
        if chunked {
            for (i, c) in input.char_indices() {
                tok.feed(&input[i..i + c.len_utf8()]);
                pull(&mut tok);
            }
        } else {
            tok.feed(input);
        }
        tok.finish();
        pull(&mut tok);
        let codes: Vec<&'static str> = tok.diagnostics().iter().map(|d| d.code.as_str()).collect();
        (out, codes)
    };
    let whole = run(false, true);
    assert_eq!(run(true, true), whole, "char by char: {input}");
    assert_eq!(run(false, false), whole, "states only: {input}");
    whole
}

fn tokens(input: &str) -> Vec<String> {
    tokens_with(input, Options::document()).0
}

#[test]
fn style_in_svg_does_not_switch() {
    assert_eq!(
        tokens("<svg><style><a></style></svg>"),
        ["<svg>", "<style>", "<a>", "</style>", "</svg>"]
    );
    // The tag-name-only mode switches there, as before.
    let by_name = Options {
        switch_by_tag_name: true,
        ..Options::default()
    };
    assert_eq!(
        tokens_with("<svg><style><a></style></svg>", by_name).0,
        ["<svg>", "<style>", "'<a>'", "</style>", "</svg>"]
    );
}

#[test]
fn style_in_html_switches() {
    assert_eq!(
        tokens("<style><a></style>"),
        ["<style>", "'<a>'", "</style>"]
    );
    assert_eq!(
        tokens("<svg></svg><style><a></style>"),
        ["<svg>", "</svg>", "<style>", "'<a>'", "</style>"]
    );
    assert_eq!(
        tokens("<script>if (a<b) x()</script>"),
        ["<script>", "'if (a<b) x()'", "</script>"]
    );
}

#[test]
fn cdata_only_in_foreign_content() {
    let (t, codes) = tokens_with("<svg><![CDATA[x]]></svg>", Options::document());
    assert_eq!(t, ["<svg>", "'x'", "</svg>"]);
    assert!(codes.is_empty(), "{codes:?}");
    let (t, codes) = tokens_with("<p><![CDATA[x]]>", Options::document());
    assert_eq!(t, ["<p>", "<!--[CDATA[x]]-->"]);
    assert_eq!(codes, ["cdata-in-html-content"]);
    // After the SVG root closes, HTML again.
    let (t, _) = tokens_with("<svg></svg><![CDATA[x]]>", Options::document());
    assert_eq!(t, ["<svg>", "</svg>", "<!--[CDATA[x]]-->"]);
    // An HTML integration point is still a foreign element: CDATA is allowed in it.
    assert_eq!(
        tokens("<svg><desc><![CDATA[x]]>"),
        ["<svg>", "<desc>", "'x'"]
    );
}

#[test]
fn mathml_text_integration_points_switch() {
    assert_eq!(
        tokens("<math><mi><style><a></style></mi></math>"),
        [
            "<math>", "<mi>", "<style>", "'<a>'", "</style>", "</mi>", "</math>"
        ]
    );
    // mglyph in mi stays MathML; outside mi, style is MathML.
    assert_eq!(
        tokens("<math><style><a></style>"),
        ["<math>", "<style>", "<a>", "</style>"]
    );
    // An mi inside SVG is SVG's: no integration point.
    assert_eq!(
        tokens("<svg><mi><style><a>"),
        ["<svg>", "<mi>", "<style>", "<a>"]
    );
}

#[test]
fn html_integration_points_switch() {
    for root in ["<svg><foreignObject>", "<svg><desc>", "<svg><title>"] {
        let t = tokens(&format!("{root}<style><a></style>"));
        assert_eq!(t[t.len() - 2], "'<a>'", "{root}");
    }
    assert_eq!(
        tokens(r#"<math><annotation-xml encoding="Text/HTML"><style><a>"#),
        ["<math>", "<annotation-xml>", "<style>", "'<a>'"]
    );
    assert_eq!(
        tokens("<math><annotation-xml><style><a>"),
        ["<math>", "<annotation-xml>", "<style>", "<a>"]
    );
    // `<svg><title>` itself is SVG's title: no RCDATA.
    assert_eq!(
        tokens("<svg><title><a></title>"),
        ["<svg>", "<title>", "<a>", "</title>"]
    );
    // Back in the SVG subtree after the integration point's HTML closes.
    assert_eq!(
        tokens("<svg><foreignObject><div></div></foreignObject><style><a>"),
        [
            "<svg>",
            "<foreignobject>",
            "<div>",
            "</div>",
            "</foreignobject>",
            "<style>",
            "<a>"
        ]
    );
    // A void HTML element does not stay open.
    assert_eq!(
        tokens("<svg><desc><br></desc><style><a>"),
        ["<svg>", "<desc>", "<br>", "</desc>", "<style>", "<a>"]
    );
}

#[test]
fn breakout_tags_end_foreign_content() {
    assert_eq!(
        tokens("<svg><g><p><style><a>"),
        ["<svg>", "<g>", "<p>", "<style>", "'<a>'"]
    );
    assert_eq!(
        tokens(r#"<svg><font color=red><style><a>"#),
        ["<svg>", "<font>", "<style>", "'<a>'"]
    );
    assert_eq!(
        tokens("<svg><font><style><a>"),
        ["<svg>", "<font>", "<style>", "<a>"]
    );
    assert_eq!(
        tokens("<svg></p><style><a>"),
        ["<svg>", "</p>", "<style>", "'<a>'"]
    );
}

#[test]
fn end_tags_close_foreign_elements() {
    // An end tag closes the nearest open element of its name, whatever is above it.
    assert_eq!(
        tokens("<svg><g><desc></svg><style><a>"),
        ["<svg>", "<g>", "<desc>", "</svg>", "<style>", "'<a>'"]
    );
    // An unclosed svg ends with an element around it.
    assert_eq!(
        tokens("<div><svg><g></div><style><a>"),
        ["<div>", "<svg>", "<g>", "</div>", "<style>", "'<a>'"]
    );
    // Self-closing foreign elements are not open.
    assert_eq!(tokens("<svg/><style><a>"), ["<svg>", "<style>", "'<a>'"]);
    assert_eq!(
        tokens("<svg><g/><style><a>"),
        ["<svg>", "<g>", "<style>", "<a>"]
    );
}

#[test]
fn depth_limit_bounds_the_model() {
    let options = Options {
        limits: thicket_html::Limits::none().with_max_depth(2),
        ..Options::document()
    };
    let (t, _) = tokens_with("<svg><g><g><g></g></g></g><style><a>", options);
    assert_eq!(t[t.len() - 1], "<a>");
    let deep = format!(
        "{}{}<style><a>",
        "<svg>".repeat(100_000),
        "</svg>".repeat(100_000)
    );
    let mut tok = Tokenizer::with_options(Options::document());
    tok.feed(&deep);
    tok.finish();
    let mut last = String::new();
    while let Some(t) = tok.next_token() {
        if let Token::Text { text, .. } = t {
            last = text.into_owned();
        }
    }
    assert_eq!(last, "<a>");
}
