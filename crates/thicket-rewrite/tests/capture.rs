//! Capture (`Element::capture`): inner and outer markup as written and text content, delivered
//! when the element ends; nested captures; elements closed implicitly or by the end of input;
//! elements without content; the capture limit. Every case fed whole, byte by byte, char by
//! char and split at every byte: the same output and the same captures.
#![cfg(all(feature = "html", feature = "xml5"))]

mod splits;

use splits::{Seen, html, xml};
use thicket_rewrite::{Capture, ContentType, MemoryLimits, Settings};

/// Records each capture of `what` on `selector` as `name what: text` or `name what! code span`.
fn capturing(
    selector: &'static str,
    whats: &'static [Capture],
) -> impl Fn(Seen) -> Settings<'static> {
    capturing_with(selector, whats, MemoryLimits::none())
}

fn capturing_with(
    selector: &'static str,
    whats: &'static [Capture],
    limits: MemoryLimits,
) -> impl Fn(Seen) -> Settings<'static> {
    move |seen: Seen| {
        Settings::new()
            .with_memory_limits(limits)
            .on_element(selector, move |e| {
                for &what in whats {
                    let seen = seen.clone();
                    let name = e.name().to_owned();
                    e.capture(what, move |r| {
                        seen.borrow_mut().push(match r {
                            Ok(s) => format!("{name} {what:?}: {s}"),
                            Err(e) => format!(
                                "{name} {what:?}! {} {}..{}",
                                e.code.as_str(),
                                e.span.start,
                                e.span.end
                            ),
                        })
                    });
                }
            })
            .unwrap()
    }
}

const ALL: &[Capture] = &[Capture::Outer, Capture::Inner, Capture::Text];

#[test]
fn outer_inner_and_text_at_the_end_tag() {
    let input = "<div id=a>x &amp; <p>y</p>z</div>tail";
    let run = html(input, capturing("div", ALL));
    assert_eq!(run.out, input, "capture changes no output");
    assert_eq!(
        run.seen,
        [
            "div Outer: <div id=a>x &amp; <p>y</p>z</div>",
            "div Inner: x &amp; <p>y</p>z",
            "div Text: x & yz",
        ]
    );
}

#[test]
fn inner_asked_before_outer() {
    // The source is kept from the start tag whatever the order (split anywhere).
    let input = "<div>a<div>b</div>c</div>";
    let run = html(input, capturing("div", &[Capture::Inner, Capture::Outer]));
    assert_eq!(
        run.seen,
        [
            "div Inner: b",
            "div Outer: <div>b</div>",
            "div Inner: a<div>b</div>c",
            "div Outer: <div>a<div>b</div>c</div>",
        ]
    );
}

#[test]
fn nested_captures_each_get_their_own() {
    let input = "<div><div>a<div>b</div>c</div>d</div>";
    let run = html(input, capturing("div", &[Capture::Outer, Capture::Text]));
    assert_eq!(
        run.seen,
        [
            "div Outer: <div>b</div>",
            "div Text: b",
            "div Outer: <div>a<div>b</div>c</div>",
            "div Text: abc",
            "div Outer: <div><div>a<div>b</div>c</div>d</div>",
            "div Text: abcd",
        ]
    );
}

#[test]
fn the_source_is_captured_not_the_output() {
    let input = "<p>a<b>b</b><i>c</i></p>";
    let run = html(input, |seen| {
        capturing("p", &[Capture::Inner])(seen)
            .on_element("b", |b| b.set_attribute("x", "1"))
            .unwrap()
            .on_element("i", |i| i.replace("!", ContentType::Text))
            .unwrap()
    });
    assert_eq!(run.out, "<p>a<b x=\"1\">b</b>!</p>");
    assert_eq!(run.seen, ["p Inner: a<b>b</b><i>c</i>"]);
}

#[test]
fn a_removed_element_is_captured_too() {
    let run = html("<p>a<s>b</s></p>", |seen| {
        capturing("s", ALL)(seen)
            .on_element("s", |s| s.remove())
            .unwrap()
    });
    assert_eq!(run.out, "<p>a</p>");
    assert_eq!(run.seen, ["s Outer: <s>b</s>", "s Inner: b", "s Text: b"]);
}

#[test]
fn closed_implicitly_by_an_ancestors_end_tag() {
    // The `b` ends where `</div>` starts: no end tag of its own.
    let run = html("<div><b>x<i>y</div>z", capturing("b, i", ALL));
    assert_eq!(
        run.seen,
        [
            "i Outer: <i>y",
            "i Inner: y",
            "i Text: y",
            "b Outer: <b>x<i>y",
            "b Inner: x<i>y",
            "b Text: xy",
        ]
    );
}

#[test]
fn unclosed_at_the_end_of_input_gets_what_there_is() {
    let run = html("<div>a<p>b &lt; c", capturing("div", ALL));
    assert_eq!(
        run.seen,
        [
            "div Outer: <div>a<p>b &lt; c",
            "div Inner: a<p>b &lt; c",
            "div Text: ab < c",
        ]
    );
    let run = xml("<r><a>x<b/>", capturing("a", ALL));
    assert_eq!(
        run.seen,
        ["a Outer: <a>x<b/>", "a Inner: x<b/>", "a Text: x"]
    );
}

#[test]
fn elements_without_content_get_it_at_once() {
    let run = html(
        "<p><img src=x>a<svg><rect/></svg></p>",
        capturing("img, rect", ALL),
    );
    assert_eq!(
        run.seen,
        [
            "img Outer: <img src=x>",
            "img Inner: ",
            "img Text: ",
            "rect Outer: <rect/>",
            "rect Inner: ",
            "rect Text: ",
        ]
    );
    let run = xml("<a><b x='1'/></a>", capturing("b", &[Capture::Outer]));
    assert_eq!(run.seen, ["b Outer: <b x='1'/>"]);
}

#[test]
fn xml5_captures() {
    let input = "<r><a:x xmlns:a='u'>t<![CDATA[<c>]]><b>&lt;</b></a:x></r>";
    let run = xml(input, capturing("x", ALL));
    assert_eq!(run.out, input);
    assert_eq!(
        run.seen,
        [
            "a:x Outer: <a:x xmlns:a='u'>t<![CDATA[<c>]]><b>&lt;</b></a:x>",
            "a:x Inner: t<![CDATA[<c>]]><b>&lt;</b>",
            "a:x Text: t<c><",
        ]
    );
    // `</>` closes the current element.
    let run = xml("<r><a>x</></r>", capturing("a", &[Capture::Outer]));
    assert_eq!(run.seen, ["a Outer: <a>x</>"]);
}

#[test]
fn raw_text_and_text_handlers_together() {
    // A document-wide text handler removes the text: the capture has the source.
    let run = html("<div><script>1<2</script>x</div>", |seen| {
        capturing("div", &[Capture::Text])(seen).on_text(|t| t.remove())
    });
    assert_eq!(run.out, "<div><script></script></div>");
    assert_eq!(run.seen, ["div Text: 1<2x"]);
}

#[test]
fn past_the_limit_the_handler_gets_the_error_and_the_rewrite_goes_on() {
    let limits = MemoryLimits::none().with_max_captured(Some(8));
    let input = "<p>abcdefghij</p><p>abc</p>";
    let run = html(input, |seen| {
        capturing_with("p", ALL, limits)(seen)
            .on_element("p", |p| p.set_attribute("k", "v"))
            .unwrap()
    });
    assert_eq!(run.error, None);
    assert_eq!(run.out, "<p k=\"v\">abcdefghij</p><p k=\"v\">abc</p>");
    assert_eq!(
        run.seen,
        [
            "p Outer! capture-limit 0..3",
            "p Inner! capture-limit 0..3",
            "p Text! capture-limit 0..3",
            "p Outer! capture-limit 17..20",
            "p Inner: abc",
            "p Text: abc",
        ]
    );
}

#[test]
fn the_limit_applies_to_each_capture_of_a_nest() {
    // The outer `div` is past the limit; the inner one, its text and the `p` are not.
    let limits = MemoryLimits::none().with_max_captured(Some(12));
    let input = "<div>aaaaaaaaaaaa<div>bb<p>c</p></div></div>";
    let run = html(
        input,
        capturing_with("div, p", &[Capture::Inner, Capture::Text], limits),
    );
    assert_eq!(
        run.seen,
        [
            "p Inner: c",
            "p Text: c",
            "div Inner: bb<p>c</p>",
            "div Text: bbc",
            "div Inner! capture-limit 0..5",
            "div Text! capture-limit 0..5",
        ]
    );
    // Text alone past the limit: the markup captures stay.
    let limits = MemoryLimits::none().with_max_captured(Some(6));
    let run = html(
        "<b>&amp;&amp;&amp;&amp;&amp;&amp;&amp;</b>",
        capturing_with("b", &[Capture::Text, Capture::Inner], limits),
    );
    assert_eq!(
        run.seen,
        ["b Text! capture-limit 0..3", "b Inner! capture-limit 0..3"]
    );
    let run = html(
        "<b>&amp;&amp;</b>",
        capturing_with("b", &[Capture::Text], limits),
    );
    assert_eq!(run.seen, ["b Text: &&"]);
}

#[test]
fn deep_nesting_captures_without_copies() {
    // Every level captures its outer markup: all of them share the held source.
    let depth = 5_000;
    let input = format!("{}x{}", "<div>".repeat(depth), "</div>".repeat(depth));
    let total = std::rc::Rc::new(std::cell::Cell::new(0usize));
    let count = std::rc::Rc::new(std::cell::Cell::new(0usize));
    let settings = {
        let (total, count) = (total.clone(), count.clone());
        Settings::new()
            .on_element("div", move |d| {
                let (total, count) = (total.clone(), count.clone());
                d.capture(Capture::Text, move |r| {
                    total.set(total.get() + r.unwrap().len());
                    count.set(count.get() + 1);
                });
            })
            .unwrap()
    };
    let mut r = thicket_rewrite::Rewriter::read_only(thicket_rewrite::Dialect::Html, settings);
    for chunk in input.as_bytes().chunks(7) {
        r.feed(chunk).unwrap();
    }
    r.finish().unwrap();
    assert_eq!((count.get(), total.get()), (depth, depth));
}

/// Random markup: nesting, implied closes, raw text, foreign content, references, cut-off tags.
fn markup() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    let piece = prop_oneof![
        Just("<div>"),
        Just("</div>"),
        Just("<p>"),
        Just("</p>"),
        Just("<b x='>'>"),
        Just("</b>"),
        Just("<br>"),
        Just("<svg><rect/>"),
        Just("</svg>"),
        Just("<script>"),
        Just("</script>"),
        Just("</>"),
        Just("<!--c-->"),
        Just("&amp;"),
        Just("\r\n"),
        Just("é"),
        Just("t"),
        Just("<"),
    ];
    prop::collection::vec(piece, 0..30).prop_map(|v| v.concat())
}

/// Outer, inner and text captures of every element, fed in chunks of `chunk` bytes; checks
/// each outer capture against the source range `on_close` gives.
fn captures_chunked(input: &str, dialect: thicket_rewrite::Dialect, chunk: usize) -> Vec<String> {
    use std::cell::RefCell;
    use std::rc::Rc;
    let seen = Rc::new(RefCell::new(Vec::new()));
    {
        let seen = seen.clone();
        let source: Rc<str> = input.into();
        let settings = Settings::new()
            .on_element("*", move |e| {
                let start = e.span().start;
                let outer = Rc::new(RefCell::new(String::new()));
                for what in [Capture::Outer, Capture::Inner, Capture::Text] {
                    let (seen, outer) = (seen.clone(), outer.clone());
                    e.capture(what, move |r| {
                        let s = r.unwrap();
                        if what == Capture::Outer {
                            *outer.borrow_mut() = s.to_owned();
                        }
                        seen.borrow_mut().push(format!("{start} {what:?} {s}"));
                    });
                }
                let source = source.clone();
                e.on_close(move |end| {
                    assert_eq!(*outer.borrow(), source[start..end], "outer at {start}");
                });
            })
            .unwrap();
        let mut r = thicket_rewrite::Rewriter::read_only(dialect, settings);
        for piece in input.as_bytes().chunks(chunk) {
            r.feed(piece).unwrap();
        }
        r.finish().unwrap();
    }
    seen.take()
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]
    #[test]
    fn captures_do_not_depend_on_chunking(input in markup(), chunk in 1usize..17) {
        for dialect in [thicket_rewrite::Dialect::Html, thicket_rewrite::Dialect::Xml5] {
            proptest::prop_assert_eq!(
                captures_chunked(&input, dialect, chunk),
                captures_chunked(&input, dialect, usize::MAX)
            );
        }
    }
}
