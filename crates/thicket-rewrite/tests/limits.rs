//! The rewriter's memory limits (`MemoryLimits`, `Limits::max_depth`,
//! `Limits::max_diagnostics`): each an error or diagnostic with its own code, the same however
//! the input is split, never a panic or unbounded growth.
#![cfg(all(feature = "html", feature = "xml5"))]

mod splits;

use splits::{Seen, html, xml};
use thicket_rewrite::{Dialect, Limits, MemoryLimits, Rewriter, Settings};

fn buffered(max: usize) -> impl Fn(Seen) -> Settings<'static> {
    move |_| Settings::new().with_memory_limits(MemoryLimits::none().with_max_buffered(Some(max)))
}

#[test]
fn a_token_past_the_buffer_limit_stops_the_rewrite() {
    // A comment of 21 bytes at offset 6: what comes before it is written.
    let run = html("<p>ab<!-- 0123456789 -->cd</p>", buffered(16));
    assert_eq!(run.error.as_deref(), Some("buffer-limit 5..5"));
    assert_eq!(run.out, "<p>ab");
    // A tag, in XML5.
    let run = xml("<r><a x='0123456789'/></r>", buffered(16));
    assert_eq!(run.error.as_deref(), Some("buffer-limit 3..3"));
    assert_eq!(run.out, "<r>");
    // At the limit, it passes.
    let input = "<p>ab<!-- 012345 -->cd</p>";
    let run = html(input, buffered(15));
    assert_eq!((run.error, run.out.as_str()), (None, input));
}

#[test]
fn text_is_not_held_so_long_text_passes() {
    let input = format!("<p>{}</p>", "x".repeat(500));
    let run = html(&input, buffered(16));
    assert_eq!((run.error, run.out), (None, input));
}

#[test]
fn a_tag_cut_off_by_the_end_of_input() {
    let run = html("<p>ab<a href='0123456789012345", buffered(16));
    assert_eq!(run.error.as_deref(), Some("buffer-limit 5..5"));
    assert_eq!(run.out, "<p>ab");
}

#[test]
fn an_unfinished_token_is_bounded_while_it_streams() {
    // A comment that never ends: the rewriter stops holding it at the limit, fed in chunks.
    let max = 1 << 10;
    let settings =
        Settings::new().with_memory_limits(MemoryLimits::none().with_max_buffered(Some(max)));
    let mut r = Rewriter::new(Dialect::Html, settings, |_: &[u8]| {});
    r.feed(b"<p><!--").unwrap();
    let chunk = [b'x'; 100];
    let mut failed = None;
    for _ in 0..100 {
        if let Err(e) = r.feed(&chunk) {
            failed = Some(e);
            break;
        }
    }
    let e = failed.expect("the limit stops it");
    assert_eq!((e.code.as_str(), e.span.start), ("buffer-limit", 3));
    assert_eq!(r.feed(b"-->").unwrap_err().code.as_str(), "buffer-limit");
}

#[test]
fn depth_limit_diagnostics_are_capped() {
    // Each `<b>` past the depth limit after the counter of unopened elements went back to
    // zero is a new report; `max_diagnostics` keeps the first two.
    let limits = Limits::none().with_max_depth(1).with_max_diagnostics(2);
    let run = html(&"<a><b></b>".repeat(5), |seen| {
        let s = seen.clone();
        Settings::new()
            .with_limits(limits)
            .on_end(move |_| s.borrow_mut().push(String::new()))
    });
    assert_eq!(run.error, None);
    let mut r = Rewriter::read_only(Dialect::Html, Settings::new().with_limits(limits));
    r.feed_str(&"<a><b></b>".repeat(5)).unwrap();
    assert_eq!(r.diagnostics().len(), 2);
    let codes: Vec<_> = r.diagnostics().iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["depth-limit", "depth-limit"]);
}

#[test]
fn capture_limit_bounds_what_is_held() {
    // A capture past the limit lets go of its source: fed in chunks, the source held stays
    // within the limit and a chunk.
    let max = 1 << 10;
    let limits = MemoryLimits::none().with_max_captured(Some(max));
    let got = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let settings = {
        let got = got.clone();
        Settings::new()
            .with_memory_limits(limits)
            .on_element("div", move |d| {
                let got = got.clone();
                d.capture(thicket_rewrite::Capture::Outer, move |r| {
                    got.borrow_mut()
                        .push(r.map(str::len).map_err(|e| e.code.as_str()))
                });
            })
            .unwrap()
    };
    let mut r = Rewriter::read_only(Dialect::Html, settings);
    r.feed_str("<div>").unwrap();
    let mut most = 0;
    for _ in 0..1000 {
        r.feed_str("<p>text</p>").unwrap();
        most = most.max(r.buffered());
    }
    assert!(most > max / 2 && most <= max + 11, "{most}");
    r.feed_str("</div><div>x</div>").unwrap();
    r.finish().unwrap();
    assert_eq!(*got.borrow(), [Err("capture-limit"), Ok(12)]);
}

#[test]
fn when_the_rewrite_stops_open_captures_are_dropped() {
    let run = html("<div>ab<!-- 0123456789 --></div>", |seen| {
        Settings::new()
            .with_memory_limits(MemoryLimits::none().with_max_buffered(Some(8)))
            .on_element("div", move |d| {
                let seen = seen.clone();
                d.capture(thicket_rewrite::Capture::Outer, move |_| {
                    seen.borrow_mut().push("called".to_owned())
                });
            })
            .unwrap()
    });
    assert_eq!(run.error.as_deref(), Some("buffer-limit 7..7"));
    assert_eq!(run.out, "<div>ab");
    assert!(run.seen.is_empty());
}

#[test]
fn long_text_passes_in_every_dialect() {
    // Text, CDATA sections and raw text are handed out in pieces: never held whole.
    let x = "x".repeat(100);
    let input = format!("<r><![CDATA[{x}]]>{x}</r>");
    let run = xml(&input, buffered(16));
    assert_eq!((run.error, run.out), (None, input));
    let input =
        format!("<p><script>{x}</script><textarea>{x}</textarea><svg><![CDATA[{x}]]></svg>");
    let run = html(&input, buffered(16));
    assert_eq!((run.error, run.out), (None, input));
}

/// A removed or unwrapped element's content is dropped or passed as it streams: what the
/// rewriter holds between chunks stays small however long the element is, in every dialect.
#[test]
fn removed_content_is_not_held() {
    for dialect in [
        Dialect::Html,
        Dialect::Xml5,
        Dialect::MicroXml,
        Dialect::LeafXml,
    ] {
        for op in ["remove", "unwrap"] {
            let settings = Settings::new()
                .on_element("big", move |e| match op {
                    "remove" => e.remove(),
                    _ => e.unwrap(),
                })
                .unwrap();
            let mut out = 0;
            let mut r = Rewriter::new(dialect, settings, |b: &[u8]| out += b.len());
            r.feed(b"<doc><big>").unwrap();
            let mut most = 0;
            let piece = b"<p a='1'>text &amp; more text</p>";
            for i in 0..2000 {
                r.feed(piece).unwrap();
                // (HTML holds the first 1024 bytes while its `<meta>` prescan sniffs.)
                if i > 40 {
                    most = most.max(r.buffered());
                }
            }
            r.feed(b"</big></doc>").unwrap();
            let _ = r.finish().unwrap();
            assert!(most < 64, "{dialect:?} {op}: {most} bytes held");
            let kept = if op == "remove" {
                11
            } else {
                11 + 2000 * piece.len()
            };
            assert_eq!(out, kept, "{dialect:?} {op}");
        }
    }
}

/// An error soup (`<<<<`, and in the XML dialects `</</`) is text: it is not held either,
/// however it is split (XML5 hands an error run's pieces out as one text token per buffer; the
/// rewriter writes it as it goes). (In HTML `</<` opens a bogus comment, a token like any
/// other.)
#[test]
fn error_soups_pass_without_being_held() {
    let soups = [
        (
            "<".repeat(5000),
            &[Dialect::Html, Dialect::Xml5, Dialect::MicroXml][..],
        ),
        ("</".repeat(2500), &[Dialect::Xml5, Dialect::MicroXml][..]),
    ];
    for (soup, dialects) in soups {
        let input = format!("<r>{soup}</r>");
        for &dialect in dialects {
            let mut out = Vec::new();
            {
                let settings = Settings::new()
                    .with_memory_limits(MemoryLimits::none().with_max_buffered(Some(64)))
                    .on_element("*", |e| e.set_attribute("k", "v"))
                    .unwrap();
                let mut r = Rewriter::new(dialect, settings, |b: &[u8]| out.extend_from_slice(b));
                for chunk in input.as_bytes().chunks(7) {
                    r.feed(chunk)
                        .unwrap_or_else(|e| panic!("{dialect:?} {:?}: {e}", &soup[..8]));
                    assert!(r.buffered() <= 64 + 1024, "{dialect:?}: {}", r.buffered());
                }
                let _ = r.finish().unwrap_or_else(|e| panic!("{dialect:?}: {e}"));
            }
            let out = String::from_utf8(out).unwrap();
            assert!(
                out.starts_with("<r k=\"v\">"),
                "{dialect:?}: {}",
                &out[..20]
            );
            assert!(out.contains(&soup[..100]), "{dialect:?}");
        }
    }
}

/// A tokenizer limit cuts a start tag (attributes dropped past `max_attributes`, names cut at
/// `max_name_len`); an edit of such a tag would write it from what was kept and lose the rest
/// without a trace, so the rewrite stops with the limit's code at the tag, the output being
/// what came before it. A tag at the limit that lost nothing, or one that is removed or left
/// alone, is rewritten as usual.
#[test]
fn editing_a_tag_a_limit_cut_stops_the_rewrite() {
    let run = |input: &str, dialect: Dialect, edit: fn(&mut thicket_rewrite::Element<'_, '_>)| {
        let mut out = Vec::new();
        let settings = Settings::new()
            .with_limits(Limits::none().with_max_attributes(2).with_max_name_len(8))
            .on_element("a", edit)
            .unwrap();
        let mut r = Rewriter::new(dialect, settings, |b: &[u8]| out.extend_from_slice(b));
        let fed = r.feed_str(input);
        let result = fed.and_then(|()| r.finish().map(|_| ()));
        let code = result.err().map(|e| (e.code.as_str(), e.span.start));
        (String::from_utf8(out).unwrap(), code)
    };
    let set = |e: &mut thicket_rewrite::Element<'_, '_>| e.set_attribute("q", "1");
    let remove = |e: &mut thicket_rewrite::Element<'_, '_>| e.remove_attribute("x");
    let drop = |e: &mut thicket_rewrite::Element<'_, '_>| e.remove();
    for dialect in [Dialect::Html, Dialect::Xml5, Dialect::MicroXml] {
        for edit in [set, remove] {
            let (out, code) = run("<r>t<a x='1' y='2' z='3'>u</a></r>", dialect, edit);
            assert_eq!(code, Some(("attribute-limit", 4)), "{dialect:?}: {out}");
            assert_eq!(out, "<r>t", "{dialect:?}");
            // At the limit with nothing dropped (space and `/>` after the last one).
            let (out, code) = run("<r><a x='1' y='2' /></r>", dialect, edit);
            assert_eq!(code, None, "{dialect:?}: {out}");
            assert!(!out.contains("z="), "{out}");
        }
        // Removing the element loses nothing.
        let (out, code) = run("<r><a x='1' y='2' z='3'>u</a>v</r>", dialect, drop);
        assert_eq!((out.as_str(), code), ("<r>v</r>", None), "{dialect:?}");
        // An edited attribute whose name may have been cut.
        let cut = |e: &mut thicket_rewrite::Element<'_, '_>| e.set_attribute("abcdefgh", "1");
        let (_, code) = run("<r><a abcdefghij='1'>u</a></r>", dialect, cut);
        assert_eq!(code, Some(("name-length-limit", 3)), "{dialect:?}");
    }
}

/// Text before a token past the limit is written, in every dialect and every split: HTML's
/// and XML5's skipped text (input between two tokens the core writes through) is written
/// before the token is checked.
#[test]
fn text_before_a_token_past_the_limit_is_written() {
    for dialect in [Dialect::Html, Dialect::Xml5, Dialect::MicroXml] {
        let run = splits::every_split("<r>ab<abcdefghijk>", dialect, buffered(9));
        assert_eq!(
            run.error.as_deref(),
            Some("buffer-limit 5..5"),
            "{dialect:?}"
        );
        assert_eq!(run.out, "<r>ab", "{dialect:?}");
    }
}

/// LeafXML's reader hands a text node out whole (it assembles content), so the driver holds
/// text: there it counts against `max_buffered` as other tokens do, the same whether it came
/// in one piece or was held between calls.
#[test]
fn leafxml_text_is_held_so_it_counts() {
    let run = splits::every_split("<r>abcdefghijklmnop</r>", Dialect::LeafXml, buffered(9));
    assert_eq!(run.error.as_deref(), Some("buffer-limit 3..3"));
    assert_eq!(run.out, "<r>");
    // (Between calls the reader holds the text with the unfinished token after it, and the
    // limit bounds both together: docs/rewrite.md, "Limits".)
    let run = splits::every_split("<r>abcd</r>", Dialect::LeafXml, buffered(9));
    assert_eq!((run.error, run.out.as_str()), (None, "<r>abcd</r>"));
}

/// HTML counts repeated attributes against `max_attributes` and drops them: a tag can keep one
/// attribute and have lost others past the limit. An edit of it stops the rewrite; repeats
/// the spec drops are not a cut. And any tag a limit cut is a diagnostic of the rewriter's
/// (its tokenizer's own diagnostics are not kept), so a selector never misses what was cut
/// without a word.
#[test]
fn cut_tags_are_reported_and_never_edited() {
    let run = |input: &str, dialect: Dialect, max: usize| {
        let mut out = Vec::new();
        // Every tag's attributes are read (`*`); only `a` is edited.
        let settings = Settings::new()
            .with_limits(Limits::none().with_max_attributes(max))
            .on_element("*", |e| {
                if e.name() == "a" {
                    e.set_attribute("rel", "nofollow");
                }
            })
            .unwrap();
        let mut r = Rewriter::new(dialect, settings, |b: &[u8]| out.extend_from_slice(b));
        let result = r.feed_str(input).and_then(|()| r.finish_input());
        let codes: Vec<String> = r
            .diagnostics()
            .iter()
            .map(|d| format!("{} {}", d.code.as_str(), d.span.start))
            .collect();
        let error = result.err().map(|e| e.code.as_str());
        drop(r);
        (String::from_utf8(out).unwrap(), error, codes)
    };
    let (out, error, _) = run("<p><a x=1 x=1 x=1 href=/i>t</a></p>", Dialect::Html, 2);
    assert_eq!((out.as_str(), error), ("<p>", Some("attribute-limit")));
    // Repeats only: not a cut.
    let (out, error, codes) = run("<a href=1 x=1 x=2>t</a>", Dialect::Html, 5);
    assert_eq!(out, "<a href=1 x=1 rel=\"nofollow\">t</a>");
    assert_eq!((error, codes.len()), (None, 0));
    // A tag no handler edits, cut: a diagnostic, the tag written as it was. (HTML reads the
    // attributes of the tags a selector may look at: with `*`, every tag's.)
    for dialect in [Dialect::Html, Dialect::Xml5, Dialect::MicroXml] {
        let (out, error, codes) = run("<r><p x='1' y='2' z='3'>t</p></r>", dialect, 2);
        assert_eq!(out, "<r><p x='1' y='2' z='3'>t</p></r>", "{dialect:?}");
        assert_eq!(error, None, "{dialect:?}");
        assert_eq!(codes.len(), 1, "{dialect:?}: {codes:?}");
        assert!(
            codes[0].starts_with("attribute-limit "),
            "{dialect:?}: {codes:?}"
        );
    }
}

/// In a legacy encoding, a cut tag's diagnostic spans source bytes, as the rewriter's other
/// diagnostics do (mapped once).
#[test]
fn cut_tag_diagnostics_span_source_bytes() {
    let settings = Settings::new()
        .with_limits(Limits::none().with_max_attributes(1))
        .default_encoding(thicket_rewrite::encoding_rs::WINDOWS_1252)
        .on_element("*", |_| {})
        .unwrap();
    let mut out = Vec::new();
    let mut r = Rewriter::new(Dialect::Html, settings, |b: &[u8]| out.extend_from_slice(b));
    // Two 2-byte characters in UTF-8 before the tag, one byte each in the input.
    r.feed(b"<p>\xE9\xE9</p><a x=1 y=2>t</a>").unwrap();
    r.finish_input().unwrap();
    let spans: Vec<(String, usize)> = r
        .diagnostics()
        .iter()
        .map(|d| (d.code.as_str().to_owned(), d.span.start))
        .collect();
    drop(r);
    // The `y` of `<a x=1 y=2>` is at byte 16 of the input.
    assert_eq!(spans, [("attribute-limit".to_owned(), 16)]);
}

/// Review findings on the refusal of edits of cut tags: an edit spelling out a name the
/// tokenizer cut; repeats kept by XML5 and MicroXML (only HTML's tokenizer drops them); a form
/// feed inside an XML5 name; HTML's NUL read as U+FFFD.
#[test]
fn cut_tag_refusal_edge_cases() {
    let run = |input: &str,
               dialect: Dialect,
               limits: Limits,
               edit: fn(&mut thicket_rewrite::Element<'_, '_>)| {
        let settings = Settings::new()
            .with_limits(limits)
            .on_element("*", edit)
            .unwrap();
        let mut r = Rewriter::new(dialect, settings, |_: &[u8]| {});
        let result = r.feed_str(input).and_then(|()| r.finish().map(|_| ()));
        result.err().map(|e| e.code.as_str())
    };
    let names = Limits::none().with_max_name_len(8);
    let remove = |e: &mut thicket_rewrite::Element<'_, '_>| {
        if e.name() == "b" {
            e.remove_attribute("onmouseover");
        }
    };
    for dialect in [Dialect::Html, Dialect::Xml5, Dialect::MicroXml] {
        let code = run("<b onmouseover='alert(1)'>t</b>", dialect, names, remove);
        assert_eq!(code, Some("name-length-limit"), "{dialect:?}");
        // A short name, not cut: removed as asked.
        let code = run("<b onclick='x'>t</b>", dialect, names, remove);
        assert_eq!(code, None, "{dialect:?}");
    }
    let one = Limits::none().with_max_attributes(1);
    let rename = |e: &mut thicket_rewrite::Element<'_, '_>| {
        if e.name() == "a" {
            e.set_name("b");
        }
    };
    for dialect in [Dialect::Xml5, Dialect::MicroXml] {
        let code = run("<a x='1' x='2'>t</a>", dialect, one, rename);
        assert_eq!(code, Some("attribute-limit"), "{dialect:?}");
    }
    assert_eq!(
        run("<a x='1' x\x0C='2'>t</a>", Dialect::Xml5, one, rename),
        Some("attribute-limit")
    );
    // HTML drops the repeat itself: nothing was cut.
    assert_eq!(run("<a x=1 x=2>t</a>", Dialect::Html, one, rename), None);
    assert_eq!(
        run("<a x\0=1 x\0=2>t</a>", Dialect::Html, one, rename),
        None
    );
}

/// MicroXML holds a CDATA section as an unfinished token: one longer than `max_buffered`
/// stops the rewrite the same way whether it came in one piece or in many.
#[test]
fn a_long_microxml_cdata_section_is_the_same_error_in_any_split() {
    let input = format!("<r>a<![CDATA[{}]]>b</r>", "x".repeat(100));
    let run = splits::every_split(&input, Dialect::MicroXml, buffered(50));
    assert_eq!(run.error.as_deref(), Some("buffer-limit 4..4"));
    assert_eq!(run.out, "<r>a");
    let input = format!("<r>a<![CDATA[{}]]>b</r>", "x".repeat(30));
    let run = splits::every_split(&input, Dialect::MicroXml, buffered(50));
    assert_eq!((run.error, run.out), (None, input));
}

/// Every tag a limit cut is reported once it has been handled, in input order, whatever the
/// tokenizer had read ahead: the same diagnostics fed whole and in any split (XML5 reads
/// ahead when fed whole); after a refusal nothing more is reported.
#[test]
fn cut_tag_diagnostics_do_not_depend_on_the_split() {
    let make = |_| {
        Settings::new()
            .with_limits(Limits::none().with_max_attributes(2).with_max_name_len(4))
            .on_element("*", |_| {})
            .unwrap()
    };
    for dialect in [Dialect::Html, Dialect::Xml5, Dialect::MicroXml] {
        for input in [
            "ab<&#x41;\n<<!DOCTYPE a>",
            "<r><abcdefgh x='1'/><b x='1' y='2' z='3'/><c>t</c><abcdefghij/></r>",
            "<r a='1' b='2' c='3'><d e='1' f='2' g='3'>",
        ] {
            let whole = diagnostics(input, dialect, &make, input.len());
            assert!(
                input.starts_with("ab") || whole.len() >= 2,
                "{dialect:?} {input:?}: {whole:?}"
            );
            for chunk in [1, 2, 3, 7] {
                assert_eq!(
                    diagnostics(input, dialect, &make, chunk),
                    whole,
                    "{dialect:?} {input:?} in chunks of {chunk}"
                );
            }
        }
    }
    // After a refusal, nothing more is reported, fed whole or in pieces.
    let refuse = |_| {
        Settings::new()
            .with_limits(Limits::none().with_max_attributes(2).with_max_name_len(4))
            .on_element("b", |e| e.set_attribute("k", "v"))
            .unwrap()
    };
    for dialect in [Dialect::Html, Dialect::Xml5, Dialect::MicroXml] {
        let input = "<b x='1' y='2' z='3'></b><abcdefgh>";
        let whole = diagnostics(input, dialect, &refuse, input.len());
        assert_eq!(
            diagnostics(input, dialect, &refuse, 1),
            whole,
            "{dialect:?}"
        );
    }
}

/// The rewriter's diagnostics (code and start) after feeding `input` in chunks of `chunk`
/// bytes, whatever the result.
fn diagnostics(
    input: &str,
    dialect: Dialect,
    make: &dyn Fn(()) -> Settings<'static>,
    chunk: usize,
) -> Vec<String> {
    let mut r = Rewriter::new(dialect, make(()), |_: &[u8]| {});
    for piece in input.as_bytes().chunks(chunk) {
        if r.feed(piece).is_err() {
            break;
        }
    }
    let _ = r.finish_input();
    r.diagnostics()
        .iter()
        .map(|d| format!("{} {}", d.code.as_str(), d.span.start))
        .collect()
}

fn counters(selector: &'static str, max: usize) -> impl Fn(Seen) -> Settings<'static> {
    move |_| {
        Settings::new()
            .with_memory_limits(MemoryLimits::none().with_max_counters(Some(max)))
            .on_element(selector, |e| e.set_attribute("n", "2"))
            .unwrap()
    }
}

#[test]
fn nth_of_type_counters_past_the_limit_stop_the_rewrite() {
    // Each distinct name costs its length and 32: `r` under the document, then `a` and `b`
    // under `r` are 99 bytes; `c` goes past.
    let input = "<r><a/><b/><c/><a/></r>";
    let run = xml(input, counters("*:nth-of-type(2)", 99));
    let at = input.find("<c/>").unwrap();
    assert_eq!(run.error, Some(format!("counter-limit {at}..{}", at + 4)));
    assert_eq!(run.out, &input[..at]);
    let run = xml(input, counters("*:nth-of-type(2)", 132));
    assert_eq!(
        (run.error, run.out.as_str()),
        (None, "<r><a/><b/><c/><a n=\"2\"/></r>")
    );
    // The counters of an element go when it closes: at most `r`, `a`, `b` and two names under
    // one of them are held at once (165 bytes), not all seven names (231).
    let input = "<r><a><x/><y/></a><b><x/><y/></b></r>";
    let run = xml(input, counters("*:nth-of-type(2)", 165));
    assert_eq!(run.error, None);
    let run = html(input, counters("*:nth-of-type(2)", 164));
    assert!(run.error.is_some_and(|e| e.starts_with("counter-limit")));
    // A typed `:nth-of-type` counts its name alone, whatever the other names.
    let input = "<r><a/><b/><c/><d/><e/><p/><p/></r>";
    let run = xml(input, counters("p:nth-of-type(2)", 33));
    assert_eq!(run.error, None);
    assert!(run.out.ends_with("<p n=\"2\"/></r>"), "{}", run.out);
    assert!(MemoryLimits::untrusted().max_counters.is_some());
}
