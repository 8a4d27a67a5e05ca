//! Whole text nodes (`Settings::whole_text`): each text node once, whole, however the input is
//! split; edits on the whole node; with scoped handlers; the text node limit.

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
