//! Whole text nodes (`Settings::whole_text`): each text node once, whole, however the input is
//! split; edits on the whole node; with scoped handlers; the text node limit.
#![cfg(all(feature = "html", feature = "xml5"))]

mod common;
mod splits;

use splits::{Seen, html, xml};
use thicket_rewrite::{ContentType, MemoryLimits, Settings, UnitKind};

/// Records each text node as `text [start..end] source`.
fn record(seen: &Seen, t: &thicket_rewrite::Unit<'_>) {
    if let UnitKind::Text(s) = t.kind() {
        let span = t.span();
        seen.borrow_mut()
            .push(format!("{s} [{}..{}] {}", span.start, span.end, t.source()));
    }
}

fn whole(seen: Seen) -> Settings<'static> {
    Settings::new()
        .whole_text(true)
        .on_text(move |t| record(&seen, t))
}

#[test]
fn each_node_once_whatever_the_split() {
    let input = "one &amp; two<p>three\r\nfour &lt;</p><!-- c -->five<b></b>";
    let run = html(input, whole);
    assert_eq!(run.out, input);
    assert_eq!(
        run.seen,
        [
            "one & two [0..13] one &amp; two",
            "three\nfour < [16..32] three\r\nfour &lt;",
            "five [46..50] five",
        ]
    );
    // A CDATA section is text: it joins the text around it, as in XML5's tree.
    let run = xml("<r>a &amp; b<![CDATA[<c>]]>d</r>", whole);
    assert_eq!(run.seen, ["a & b<c>d [3..28] a &amp; b<![CDATA[<c>]]>d"]);
}

#[test]
fn a_node_at_the_end_of_input() {
    let run = html("<p>tail &amp; end", whole);
    assert_eq!(run.seen, ["tail & end [3..17] tail &amp; end"]);
}

#[test]
fn edits_apply_to_the_whole_node() {
    let upper = |_: Seen| {
        Settings::new().whole_text(true).on_text(|t| {
            if let UnitKind::Text(s) = t.kind() {
                let up = s.to_uppercase();
                t.replace(&up, ContentType::Text);
                t.before("[", ContentType::Html);
                t.after("]", ContentType::Html);
            }
        })
    };
    let run = html("<p>a &amp; b</p>c<i></i>", upper);
    assert_eq!(run.out, "<p>[A &amp; B]</p>[C]<i></i>");
    let remove = |_: Seen| {
        Settings::new().whole_text(true).on_text(|t| {
            if t.source().contains('x') {
                t.remove()
            }
        })
    };
    // A piece-wise handler would see `x` in one piece only; whole, the node goes.
    let run = html("<p>aaaaxaaaa</p><p>bbbb</p>", remove);
    assert_eq!(run.out, "<p></p><p>bbbb</p>");
}

#[test]
fn scoped_handlers_see_whole_nodes_too() {
    let run = html("a<h1>b &amp; c<i>d</i>e</h1>f", |seen| {
        Settings::new()
            .whole_text(true)
            .on_text_in("h1", move |t| record(&seen, t))
            .unwrap()
    });
    assert_eq!(
        run.seen,
        ["b & c [5..14] b &amp; c", "d [17..18] d", "e [22..23] e"]
    );
}

#[test]
fn without_whole_text_pieces_may_differ_but_join_the_same() {
    // (The reference behaviour whole text mode changes.)
    let run = html("abc<p>def</p>", |seen| {
        Settings::new().on_text(move |t| {
            if let UnitKind::Text(s) = t.kind() {
                let mut v = seen.borrow_mut();
                match v.last_mut() {
                    Some(l) => l.push_str(s),
                    None => v.push(s.to_owned()),
                }
            }
        })
    });
    assert_eq!(run.seen, ["abcdef"]);
}

#[test]
fn past_the_text_node_limit_the_rewrite_stops() {
    let limits = MemoryLimits::none().with_max_text_node(Some(8));
    let make = move |seen: Seen| whole(seen).with_memory_limits(limits);
    let run = html("<p>12345678</p><b>123456789</b>", make);
    assert_eq!(run.error.as_deref(), Some("text-node-limit 18..18"));
    // What was written before the node; the node and everything after it are not.
    assert_eq!(run.out, "<p>12345678</p><b>");
    assert_eq!(run.seen, ["12345678 [3..11] 12345678"]);
    // Without a handler for it, no text is held, so there is no limit to pass.
    let run = html("<p>123456789</p>", move |_| {
        Settings::new().whole_text(true).with_memory_limits(limits)
    });
    assert_eq!(run.error, None);
}

#[test]
fn strict_mode_refusing_inside_a_held_node() {
    // The whitespace held as a node is written as it is, however the text came in pieces.
    let run = html("<table>  \n x</table>", |seen| whole(seen).strict(true));
    assert_eq!(run.error.as_deref(), Some("foster-parenting 11..12"));
    assert_eq!(run.out, "<table>  \n ");
    assert!(run.seen.is_empty());
}

/// On every corpus file (both dialects, whole and in 4093-byte chunks), whole text with a
/// handler that reads each node, and an outer capture on every element: the output is the
/// input, and each capture is the input from the start tag to where `on_close` says the
/// element ends.
#[test]
fn corpus_identity_and_captures_are_the_source() {
    use std::cell::RefCell;
    use std::rc::Rc;
    use thicket_rewrite::{Capture, Dialect, Rewriter};
    for (sub, dialect) in [("html", Dialect::Html), ("xml", Dialect::Xml5)] {
        for (name, text) in common::corpus(sub) {
            for chunk in [text.len().max(1), 4093] {
                let bad = Rc::new(RefCell::new(Vec::new()));
                let nodes = Rc::new(RefCell::new(0usize));
                let settings = {
                    let (bad, nodes) = (bad.clone(), nodes.clone());
                    let input: Rc<str> = text.as_str().into();
                    Settings::new()
                        .whole_text(true)
                        .on_text(move |t| {
                            if let UnitKind::Text(_) = t.kind() {
                                *nodes.borrow_mut() += 1;
                            }
                        })
                        .on_element("*", move |e| {
                            let start = e.span().start;
                            let got = Rc::new(RefCell::new(None));
                            let g = got.clone();
                            e.capture(Capture::Outer, move |r| {
                                *g.borrow_mut() = Some(r.unwrap().to_owned())
                            });
                            let (bad, input) = (bad.clone(), input.clone());
                            e.on_close(move |end| {
                                // Captures are delivered before `on_close` handlers.
                                let got = got.borrow_mut().take();
                                if got.as_deref() != Some(&input[start..end]) {
                                    bad.borrow_mut().push(start);
                                }
                            });
                        })
                        .unwrap()
                };
                let mut out = Vec::new();
                {
                    let mut r =
                        Rewriter::new(dialect, settings, |b: &[u8]| out.extend_from_slice(b));
                    for c in common_chunks(&text, chunk) {
                        r.feed_str(c).unwrap();
                    }
                    let _sink = r.finish().unwrap();
                }
                assert!(out == text.as_bytes(), "{name} chunk {chunk}: identity");
                assert_eq!(*bad.borrow(), Vec::<usize>::new(), "{name} chunk {chunk}");
                assert!(*nodes.borrow() > 0 || text.is_empty(), "{name}");
            }
        }
    }
}

/// `text` in pieces of about `n` bytes, cut at character boundaries.
fn common_chunks(text: &str, n: usize) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let mut cut = n.min(rest.len());
        while !rest.is_char_boundary(cut) {
            cut += 1;
        }
        let (a, b) = rest.split_at(cut);
        out.push(a);
        rest = b;
    }
    out
}

/// Input the tokenizer drops without a token inside a text run (HTML: the `<![CDATA[` and `]]>`
/// of a section a feed cuts, which come out as `Discarded`; `</>`) does not end the node: the
/// same node, and the same edits, however the input is split (found by a newcomer's trial:
/// fed byte by byte, `after` content landed inside the CDATA section).
#[test]
fn dropped_input_inside_a_text_run_stays_in_the_node() {
    let bar = |seen: Seen| {
        Settings::new().whole_text(true).on_text(move |t| {
            record(&seen, t);
            t.after("|", ContentType::Text);
        })
    };
    let run = html("<svg>a<![CDATA[x]]>b</svg>", bar);
    assert_eq!(run.out, "<svg>a<![CDATA[x]]>b|</svg>");
    assert_eq!(run.seen, ["axb [5..20] a<![CDATA[x]]>b"]);
    let run = html("<svg>a<![CDATA[]]></svg>", bar);
    assert_eq!(run.out, "<svg>a<![CDATA[]]>|</svg>");
    let run = html("<svg><![CDATA[x]]></svg>", bar);
    assert_eq!(run.out, "<svg><![CDATA[x]]>|</svg>");
    let run = html("<p>a</>b</p>", bar);
    assert_eq!(run.seen, ["ab [3..8] a</>b"]);
    assert_eq!(run.out, "<p>a</>b|</p>");
    // The legacy-encoding path (bytes fed, a windows-1252 page), XML5 and MicroXML alike.
    let page = "<meta charset=windows-1252><svg>a<![CDATA[x]]>b</svg>";
    assert_eq!(html(page, bar).out, page.replace("b</svg>", "b|</svg>"));
    for dialect in [
        thicket_rewrite::Dialect::Xml5,
        thicket_rewrite::Dialect::MicroXml,
    ] {
        let run = splits::every_split("<r>a<![CDATA[x]]>b</r>", dialect, bar);
        assert_eq!(run.out, "<r>a<![CDATA[x]]>b|</r>", "{dialect:?}");
        assert_eq!(run.seen, ["axb [3..18] a<![CDATA[x]]>b"], "{dialect:?}");
    }
}
