//! Snapshots of the real command line: exit status, stdout and stderr of `thicket` run on the
//! fixtures in `tests/data`, for every command and dialect, good and bad input.

mod common;

use common::run;

macro_rules! snap {
    ($name:ident, [$($arg:expr),*]) => {
        #[test]
        fn $name() {
            insta::assert_snapshot!(run(&[$($arg),*], None));
        }
    };
    ($name:ident, [$($arg:expr),*], stdin = $stdin:expr) => {
        #[test]
        fn $name() {
            insta::assert_snapshot!(run(&[$($arg),*], Some($stdin)));
        }
    };
}

// Help and usage.
snap!(help, ["--help"]);
snap!(parse_help, ["parse", "--help"]);
snap!(check_help, ["check", "--help"]);
snap!(no_arguments, []);

// Errors a person has to understand.
snap!(unknown_dialect, ["parse", "--dialect", "svg", "note.xml"]);
snap!(missing_file, ["parse", "missing.xml"]);
snap!(directory, ["parse", "."]);
snap!(two_views, ["parse", "--tokens", "--tree", "note.xml"]);
snap!(html_has_no_tree, ["parse", "--tree", "page.html"]);
snap!(html_has_no_events, ["parse", "--events", "page.html"]);
snap!(
    microxml_has_no_events,
    ["parse", "-d", "microxml", "--events", "note.xml"]
);
snap!(
    leafxml_has_no_tokens,
    ["parse", "-d", "leafxml", "--tokens", "note.xml"]
);

// XML5 (the default for files that are not .html/.htm).
snap!(xml5_tree_valid, ["parse", "note.xml"]);
snap!(xml5_tree_broken, ["parse", "--tree", "broken.xml"]);
snap!(xml5_tree_namespaces, ["parse", "ns.xml"]);
snap!(xml5_tokens, ["parse", "--tokens", "broken.xml"]);
snap!(xml5_events, ["parse", "--events", "broken.xml"]);
snap!(xml5_json, ["parse", "--json", "broken.xml"]);
snap!(xml5_html_page, ["parse", "-d", "xml5", "page.html"]);
snap!(xml5_stdin, ["parse", "-"], stdin = b"<a><b>text</a>");

snap!(xml5_crlf, ["parse", "crlf.xml"]);
snap!(xml5_utf16, ["parse", "utf16.xml"]);

// MicroXML.
snap!(microxml_tree_valid, ["parse", "-d", "microxml", "note.xml"]);
snap!(
    microxml_tree_broken,
    ["parse", "-d", "microxml", "broken.xml"]
);
snap!(
    microxml_tokens,
    ["parse", "-d", "microxml", "--tokens", "broken.xml"]
);
snap!(
    microxml_json,
    ["parse", "-d", "microxml", "--json", "ns.xml"]
);

// LeafXML.
snap!(leafxml_tree, ["parse", "-d", "leafxml", "ns.xml"]);
snap!(
    leafxml_events,
    ["parse", "-d", "leafxml", "--events", "note.xml"]
);
snap!(
    leafxml_events_broken,
    ["parse", "-d", "leafxml", "--events", "broken.xml"]
);
snap!(
    leafxml_json_broken,
    ["parse", "-d", "leafxml", "--json", "broken.xml"]
);
snap!(leafxml_bad_utf8, ["parse", "-d", "leafxml", "latin.xml"]);

// HTML.
snap!(html_tokens, ["parse", "page.html"]);
snap!(html_json, ["parse", "--json", "clean.html"]);
snap!(
    html_stdin,
    ["parse", "-d", "html", "--tokens", "-"],
    stdin = b"<p>a &lt b</p>"
);

snap!(
    leafxml_utf16,
    ["parse", "-d", "leafxml", "--events", "utf16.xml"]
);

// compare.
snap!(compare_broken, ["compare", "broken.xml"]);
snap!(compare_page, ["compare", "--max-lines", "5", "page.html"]);
snap!(compare_stdin, ["compare", "-"], stdin = b"<r>&amp;<x/></r>");
snap!(compare_missing, ["compare", "missing.xml"]);

// check.
snap!(check_valid, ["check", "note.xml", "clean.html"]);
snap!(
    check_mixed,
    [
        "check",
        "note.xml",
        "broken.xml",
        "page.html",
        "ns.xml",
        "latin.xml"
    ]
);
snap!(
    check_microxml,
    ["check", "-d", "microxml", "note.xml", "ns.xml", "page.html"]
);
snap!(
    check_leafxml,
    [
        "check",
        "--dialect",
        "leafxml",
        "note.xml",
        "broken.xml",
        "latin.xml"
    ]
);
snap!(
    check_html,
    ["check", "-d", "html", "clean.html", "page.html"]
);
snap!(
    check_xml5,
    ["check", "-d", "xml5", "note.xml", "ns.xml", "broken.xml"]
);
snap!(
    check_unreadable,
    ["check", "note.xml", "missing.xml", "broken.xml"]
);
snap!(
    check_stdin,
    ["check", "-d", "leafxml", "-"],
    stdin = b"<a>ok</a>"
);

// `select`: the elements a selector matches, streamed.
snap!(select_outer, ["select", "p", "page.html"]);
snap!(select_text_xml, ["select", "--text", "*", "note.xml"]);
snap!(
    select_json,
    [
        "select",
        "--json",
        "*:first-child",
        "note.xml",
        "clean.html"
    ]
);
snap!(
    select_attr_stdin,
    [
        "select",
        "--dialect",
        "html",
        "--attr",
        "href",
        "a[href]",
        "-"
    ],
    stdin = b"<a href=1>x</a><a>y</a><a href='2'>"
);
snap!(select_bad_selector, ["select", "a:hover", "page.html"]);
snap!(select_not_utf8, ["select", "*", "latin.xml"]);
// A windows-1252 page (`<meta charset>`): matches decoded, columns in characters.
snap!(
    select_windows_1252,
    ["select", "--json", "p", "legacy.html"]
);
snap!(
    select_windows_1252_text,
    ["select", "--text", "p", "legacy.html"]
);
snap!(select_no_match, ["select", "nothing", "note.xml"]);
// `select --ns`: prefixes bound on the command line, matched by namespace, not by the
// document's prefixes; an unbound prefix is an error.
snap!(
    select_namespaces,
    [
        "select",
        "--ns",
        "p=urn:x",
        "--ns",
        "=urn:d",
        "p|doc, item[p|id]",
        "ns.xml"
    ]
);
snap!(
    select_namespace_html,
    [
        "select",
        "--dialect",
        "html",
        "--ns",
        "svg=http://www.w3.org/2000/svg",
        "svg|rect",
        "-"
    ],
    stdin = b"<rect>html</rect><svg><rect/><g><rect>x</rect></g></svg>"
);
snap!(select_unknown_prefix, ["select", "svg|rect", "ns.xml"]);
