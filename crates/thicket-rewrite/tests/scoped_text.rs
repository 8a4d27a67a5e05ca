//! Element-scoped text handlers (`Settings::on_text_in`): text anywhere inside a matching
//! element, once per piece, with edits; the HTML tokenizer builds text only inside (checked by
//! the decoded text being right on every split, and on the corpus against a document-wide text
//! handler filtered by hand).
#![cfg(all(feature = "html", feature = "xml5"))]

mod common;
mod splits;

use std::cell::{Cell, RefCell};

use splits::{Seen, html, xml};
use thicket_rewrite::{ContentType, Dialect, Rewriter, Settings, UnitKind};

/// Appends each text piece's decoded text to the last record (pieces differ by chunking; their
/// concatenation does not).
fn join(seen: &Seen, tag: &str, kind: UnitKind<'_>) {
    let UnitKind::Text(t) = kind else { return };
    let mut s = seen.borrow_mut();
    match s.last_mut() {
        Some(last) if last.starts_with(tag) => last.push_str(t),
        _ => s.push(format!("{tag}{t}")),
    }
}

fn scoped(selector: &'static str) -> impl Fn(Seen) -> Settings<'static> {
    move |seen: Seen| {
        Settings::new()
            .on_text_in(selector, move |t| join(&seen, "in: ", t.kind()))
            .unwrap()
    }
}

#[test]
fn text_inside_matching_elements_and_their_descendants() {
    let input = "a &amp; b<h1>x &lt; <b>y</b>&amp;z</h1>c &gt; d<h2>e</h2><h1>f</h1>";
    let run = html(input, scoped("h1"));
    assert_eq!(run.out, input);
    assert_eq!(run.seen, ["in: x < y&zf"]);
    let run = xml("<r>a<h>b<i>c</i></h>d<h>e</h></r>", scoped("h"));
    assert_eq!(run.seen, ["in: bce"]);
}

#[test]
fn nested_matches_see_each_piece_once() {
    let run = html("<div>a<div>b</div>c</div>d", scoped("div"));
    assert_eq!(run.seen, ["in: abc"]);
}

#[test]
fn selector_conditions_read_attributes() {
    let run = html(
        "<div class=x>a</div><div>b</div><p id=k><span>c</span></p>",
        scoped("div.x, #k span"),
    );
    assert_eq!(run.seen, ["in: ac"]);
}

#[test]
fn raw_text_and_rcdata_inside() {
    let run = html(
        "<div><script>1<2</script><title>&amp;</title></div><script>3</script>",
        scoped("div"),
    );
    assert_eq!(run.seen, ["in: 1<2&"]);
}

#[test]
fn edits_apply_and_handlers_add_up_after_the_documents() {
    let input = "<p>a</p><h1>b<i>c</i></h1>";
    let run = html(input, |seen| {
        let s = seen.clone();
        Settings::new()
            .on_text(move |t| join(&s, "all: ", t.kind()))
            .on_text_in("h1", |t| t.remove())
            .unwrap()
            .on_text_in("i", move |t| {
                join(&seen, "i: ", t.kind());
                t.after("!", ContentType::Html)
            })
            .unwrap()
    });
    assert_eq!(run.out, "<p>a</p><h1><i>!</i></h1>");
    assert_eq!(run.seen, ["all: abc", "i: c"]);
}

#[test]
fn closed_implicitly_the_scope_ends_too() {
    let run = html("<div><b>x</div>y<b>z", scoped("b"));
    assert_eq!(run.seen, ["in: xz"]);
}

/// On every HTML corpus file, whole and in 4093-byte chunks: the scoped handler's text equals
/// the document-wide handler's text while an `h1, h2, h3` is open (counted by hand), decoded.
#[test]
fn corpus_agrees_with_a_filtered_document_handler() {
    for (path, text) in common::corpus("html") {
        for chunk in [text.len(), 4093] {
            let scoped = RefCell::new(String::new());
            let by_hand = RefCell::new(String::new());
            let open = Cell::new(0usize);
            {
                let settings = Settings::new()
                    .on_text_in("h1, h2, h3", |t| {
                        if let UnitKind::Text(s) = t.kind() {
                            scoped.borrow_mut().push_str(s)
                        }
                    })
                    .unwrap();
                let mut r = Rewriter::read_only(Dialect::Html, settings);
                for c in chunks(&text, chunk) {
                    r.feed_str(c).unwrap();
                }
                r.finish().unwrap();
            }
            {
                let settings = Settings::new()
                    .on_element("h1, h2, h3", |h| {
                        open.set(open.get() + 1);
                        h.on_close(|_| open.set(open.get() - 1));
                    })
                    .unwrap()
                    .on_text(|t| {
                        if let UnitKind::Text(s) = t.kind()
                            && open.get() > 0
                        {
                            by_hand.borrow_mut().push_str(s)
                        }
                    });
                let mut r = Rewriter::read_only(Dialect::Html, settings);
                for c in chunks(&text, chunk) {
                    r.feed_str(c).unwrap();
                }
                r.finish().unwrap();
            }
            let scoped = scoped.into_inner();
            assert_eq!(scoped, by_hand.into_inner(), "{path} chunk {chunk}");
            assert!(!scoped.is_empty() || !text.contains("<h1"), "{path}");
        }
    }
}

/// `text` in pieces of about `n` bytes, cut at character boundaries.
fn chunks(text: &str, n: usize) -> Vec<&str> {
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
