//! Handlers and selectors on MicroXML and LeafXML, each rewrite checked whole and fed one
//! character at a time; what a rewrite does with MicroXML's recovery and at LeafXML's first
//! error.
#![cfg(all(feature = "microxml", feature = "leafxml"))]

mod common;

use std::cell::RefCell;
use std::fmt::Write as _;

use common::rewrite_chunked;
use thicket_rewrite::{
    ContentType, Dialect, ErrorOutput, Namespaces, Rewriter, Settings, UnitKind, rewrite_str,
    select,
};

/// Rewrites with settings built by `make`, whole and char by char; both must agree.
fn run(input: &str, dialect: Dialect, make: impl Fn() -> Settings<'static>) -> String {
    let whole = rewrite_str(input, dialect, make()).unwrap();
    assert_eq!(rewrite_chunked(input, dialect, make(), 1), whole, "chunked");
    whole
}

fn on(
    selector: &'static str,
    f: fn(&mut thicket_rewrite::Element<'_, 'static>),
) -> impl Fn() -> Settings<'static> {
    move || Settings::new().on_element(selector, f).unwrap()
}

fn spans(input: &str, dialect: Dialect, selector: &str) -> Vec<String> {
    select(input, dialect, selector)
        .unwrap()
        .into_iter()
        .map(|s| input[s.start..s.end].to_owned())
        .collect()
}

#[test]
fn microxml_attribute_edits_keep_the_other_attributes_as_written() {
    assert_eq!(
        run(
            "<doc><a href = 'x'  id=\"1\" e=''>t</a><a>u</a></doc>",
            Dialect::MicroXml,
            on("a[href]", |e| e.set_attribute("href", "y&z"))
        ),
        "<doc><a href=\"y&amp;z\" id=\"1\" e=''>t</a><a>u</a></doc>"
    );
    assert_eq!(
        run(
            "<doc><a id='1' k='2'/></doc>",
            Dialect::MicroXml,
            on("a", |e| e.remove_attribute("id"))
        ),
        "<doc><a k='2'/></doc>"
    );
}

#[test]
fn microxml_selectors_see_the_recovered_stack() {
    let input = "<doc><p>a<q x='1'>b</q><q>c</p><r/></doc>";
    // `</p>` closes the unclosed `q` as the tree builder does: `r` follows `p`.
    assert_eq!(spans(input, Dialect::MicroXml, "doc > r"), ["<r/>"]);
    assert_eq!(spans(input, Dialect::MicroXml, "p > q + q"), ["<q>"]);
    assert_eq!(spans(input, Dialect::MicroXml, "q[x='1']"), ["<q x='1'>"]);
    assert_eq!(spans(input, Dialect::MicroXml, "p + r"), ["<r/>"]);
    // A stray end tag closes nothing.
    assert_eq!(
        spans("<a></x><b/></a>", Dialect::MicroXml, "a > b"),
        ["<b/>"]
    );
}

#[test]
fn microxml_elements_closed_by_recovery_have_no_end_tag() {
    let make = || {
        Settings::new()
            .on_element("p", |e| {
                e.append("!", ContentType::Text);
                e.after("|", ContentType::Text);
                e.on_end_tag(|t| t.after("end", ContentType::Text));
            })
            .unwrap()
    };
    // Closed at the end of the input: `append` and `after` where it closes, no end-tag handler.
    assert_eq!(
        run("<doc><p>text", Dialect::MicroXml, make),
        "<doc><p>text!|"
    );
    // Closed by an ancestor's end tag: the same, before that end tag.
    assert_eq!(
        run("<doc><p>x</doc>", Dialect::MicroXml, make),
        "<doc><p>x!|</doc>"
    );
    // A stray end tag is written as it is and closes nothing; `</p>` runs the handlers.
    assert_eq!(
        run("<doc><p>x</q></p></doc>", Dialect::MicroXml, make),
        "<doc><p>x</q>!</p>end|</doc>"
    );
}

#[test]
fn microxml_remove_unwrap_and_text() {
    assert_eq!(
        run(
            "<doc><p>a<b>x</b></p><q/></doc>",
            Dialect::MicroXml,
            on("b", |e| e.remove())
        ),
        "<doc><p>a</p><q/></doc>"
    );
    assert_eq!(
        run(
            "<doc><p>a<b>x</b></p></doc>",
            Dialect::MicroXml,
            on("p", |e| e.unwrap())
        ),
        "<doc>a<b>x</b></doc>"
    );
    let upper = || {
        Settings::new().on_text(|t| {
            if let UnitKind::Text(s) = t.kind() {
                let s = s.to_uppercase();
                t.replace(&s, ContentType::Text);
            }
        })
    };
    assert_eq!(
        run("<doc>a &amp; b</doc>", Dialect::MicroXml, upper),
        "<doc>A &amp; B</doc>"
    );
}

#[test]
fn leafxml_handlers_and_namespace_selectors() {
    let input = "<?xml version=\"1.0\"?>\n<r xmlns:p='urn:p'><p:a p:x='1'/><a x='2'>t</a></r>\n";
    let ns = || Namespaces::new().prefix("q", "urn:p");
    assert_eq!(
        run(input, Dialect::LeafXml, || {
            Settings::new()
                .with_namespaces(ns())
                .on_element("q|a", |e| e.set_attribute("y", "3"))
                .unwrap()
        }),
        "<?xml version=\"1.0\"?>\n<r xmlns:p='urn:p'><p:a p:x='1' y=\"3\"/><a x='2'>t</a></r>\n"
    );
    assert_eq!(spans(input, Dialect::LeafXml, "r > a[x]"), ["<a x='2'>"]);
    assert_eq!(spans(input, Dialect::LeafXml, "a + a"), ["<a x='2'>"]);
    assert_eq!(
        run(input, Dialect::LeafXml, on("a:not([x])", |e| e.remove())),
        "<?xml version=\"1.0\"?>\n<r xmlns:p='urn:p'><a x='2'>t</a></r>\n"
    );
    // The end tag of an element with content runs its handlers; the text unit is the
    // reader's content assembly (references resolved).
    let seen = RefCell::new(Vec::new());
    let _ = rewrite_str(
        "<r>x &lt; y<![CDATA[!]]></r>",
        Dialect::LeafXml,
        Settings::new()
            .on_element("r", |e| {
                e.on_end_tag(|t| t.before("?", ContentType::Text));
            })
            .unwrap()
            .on_text(|t| seen.borrow_mut().push(format!("{:?}", t.kind()))),
    )
    .unwrap();
    assert_eq!(seen.into_inner(), ["Text(\"x < y!\")"]);
}

/// Rewrites `input` with LeafXML in `mode`: the output and the error.
fn leaf_error(input: &str, settings: Settings<'_>, chunk: usize) -> (String, String) {
    let mut out = Vec::new();
    let mut r = Rewriter::new(Dialect::LeafXml, settings, |b: &[u8]| {
        out.extend_from_slice(b)
    });
    let mut err = None;
    for piece in input.as_bytes().chunks(chunk) {
        if let Err(e) = r.feed(piece) {
            err = Some(e);
            break;
        }
    }
    let err = match err {
        Some(e) => e,
        None => match r.finish() {
            Ok(_) => panic!("no error"),
            Err(e) => e,
        },
    };
    let leaf = err.leafxml_error().map_or("-", |l| l.code.as_str());
    let text = format!(
        "{} {}..{} ({leaf})",
        err.code.as_str(),
        err.span.start,
        err.span.end
    );
    (String::from_utf8(out).unwrap(), text)
}

#[test]
fn leafxml_stops_at_the_first_error_flushing_or_discarding() {
    let mark = || {
        Settings::new()
            .on_element("a", |e| e.set_attribute("k", "v"))
            .unwrap()
    };
    for chunk in [1, 3, 1 << 20] {
        // Flush (the default): the output of every event before the error.
        // The comment is an event of its own, before the error.
        let (out, err) = leaf_error("<r><a>x</a><!-- c --></b></r>", mark(), chunk);
        assert_eq!(out, "<r><a k=\"v\">x</a><!-- c -->");
        assert_eq!(err, "not-well-formed 21..25 (mismatched-end-tag)");
        let (out, err) = leaf_error("<r><a>x</a>", mark(), chunk);
        assert_eq!(out, "<r><a k=\"v\">x</a>");
        assert_eq!(err, "not-well-formed 11..11 (unclosed-tags)");
        // Discard: nothing of the document.
        let discard = || mark().output_on_error(ErrorOutput::Discard);
        let (out, err) = leaf_error("<r><a>x</a><!-- c --></b></r>", discard(), chunk);
        assert_eq!(
            (out.as_str(), err.as_str()),
            ("", "not-well-formed 21..25 (mismatched-end-tag)")
        );
        // And the whole output at the end when there is no error.
        let ok = rewrite_chunked("<r><a>x</a></r>", Dialect::LeafXml, discard(), chunk);
        assert_eq!(ok, "<r><a k=\"v\">x</a></r>");
    }
}

#[test]
fn leafxml_limits_are_the_readers_errors_with_their_own_codes() {
    use thicket_rewrite::Limits;
    let cases = [
        (
            Limits::none().with_max_depth(2),
            "depth-limit 6..22 (depth-limit)",
        ),
        (
            Limits::none().with_max_attributes(1),
            "attribute-limit 15..16 (attribute-limit)",
        ),
        (
            Limits::none().with_max_name_len(0),
            "name-length-limit 1..2 (name-length-limit)",
        ),
    ];
    for (limits, want) in cases {
        for chunk in [1, 1 << 20] {
            let settings = Settings::new().with_limits(limits);
            let (out, err) = leaf_error("<a><b><c x='1' y='2'/></b></a>", settings, chunk);
            assert_eq!(err, want, "{limits:?}");
            assert!("<a><b><c x='1' y='2'/></b></a>".starts_with(&out));
        }
    }
}

#[test]
fn leafxml_discard_holds_output_within_its_limit() {
    let input = format!("<r>{}</r>", "<a>x</a>".repeat(100));
    let settings = || {
        Settings::new()
            .output_on_error(ErrorOutput::Discard)
            .max_held_output(100)
    };
    for chunk in [1, 64, 1 << 20] {
        let (out, err) = leaf_error(&input, settings(), chunk);
        assert_eq!(out, "");
        assert!(err.starts_with("held-output-limit "), "{err}");
    }
    // Within the limit, and in flush mode (which holds nothing), the output is whole.
    let big = Settings::new()
        .output_on_error(ErrorOutput::Discard)
        .max_held_output(input.len());
    assert_eq!(rewrite_chunked(&input, Dialect::LeafXml, big, 7), input);
    let flush = Settings::new().max_held_output(1);
    assert_eq!(rewrite_chunked(&input, Dialect::LeafXml, flush, 7), input);
}

#[test]
fn a_table_of_rewrites() {
    let cases: &[(Dialect, &str)] = &[
        (Dialect::MicroXml, "<doc><a x='1'<b/>t</doc>"),
        (
            Dialect::MicroXml,
            "<doc a='1' a='2'><a/><!-- c --><?pi?></doc>",
        ),
        (Dialect::MicroXml, "<a><b>x</a>y</b>"),
        (Dialect::MicroXml, "text<a>&#x41;<b/><a/>"),
        (
            Dialect::LeafXml,
            "<!DOCTYPE a><a xmlns='urn:d'><b/><!--c--><b>t</b></a>",
        ),
        (Dialect::LeafXml, "<a\r\n x='1'\r\n>\r\n<b/></a>"),
    ];
    let mut out = String::new();
    for (dialect, input) in cases {
        let make = || {
            Settings::new()
                .on_element("a", |e| e.set_attribute("n", "1"))
                .unwrap()
                .on_element("b", |e| {
                    e.prepend("[", ContentType::Text);
                    e.append("]", ContentType::Text);
                })
                .unwrap()
        };
        let got = run(input, *dialect, make);
        let comments = RefCell::new(0);
        let _ = rewrite_str(
            input,
            *dialect,
            Settings::new().on_comment(|_| *comments.borrow_mut() += 1),
        );
        writeln!(
            out,
            "{dialect:?} {input:?}\n  -> {got:?} (comment handler calls: {})",
            comments.into_inner()
        )
        .unwrap();
    }
    insta::assert_snapshot!(out);
}

/// Rewrites `input` fed as text split in two at every char boundary; every split must give
/// `whole`.
fn at_every_split(
    input: &str,
    dialect: Dialect,
    make: &dyn Fn() -> Settings<'static>,
    whole: &str,
) {
    for cut in (0..=input.len()).filter(|&i| input.is_char_boundary(i)) {
        let mut out = Vec::new();
        let mut r = Rewriter::new(dialect, make(), |b: &[u8]| out.extend_from_slice(b));
        r.feed_str(&input[..cut]).unwrap();
        r.feed_str(&input[cut..]).unwrap();
        let _ = r.finish().unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            whole,
            "{dialect:?} split at {cut}"
        );
    }
}

#[test]
fn comment_pi_and_doctype_handlers_run_in_both_dialects() {
    let input = "<!DOCTYPE doc>\n<doc>a<!-- c -->b<?keep x?><?drop y?></doc><!--end-->";
    let make = || {
        Settings::new()
            .on_comment(|c| {
                if let UnitKind::Comment(data) = c.kind() {
                    let upper = format!("<!--{}-->", data.to_uppercase());
                    c.replace(&upper, ContentType::Html);
                }
            })
            .on_processing_instruction(|p| {
                if let UnitKind::ProcessingInstruction("drop", data) = p.kind() {
                    assert_eq!(data, "y");
                    p.remove();
                }
            })
            .on_doctype(|d| {
                assert_eq!(d.kind(), UnitKind::Doctype(Some("doc")));
                d.after("<!--after doctype-->", ContentType::Html);
            })
            .on_text(|t| {
                // A text unit never spans a comment or an instruction.
                assert!(!t.source().contains('<'), "{:?}", t.source());
                if let UnitKind::Text("b") = t.kind() {
                    t.before("[", ContentType::Text);
                }
            })
    };
    let want = "<!DOCTYPE doc><!--after doctype-->\n<doc>a<!-- C -->[b<?keep x?></doc><!--END-->";
    for dialect in [Dialect::MicroXml, Dialect::LeafXml] {
        assert_eq!(run(input, dialect, make), want, "{dialect:?}");
        at_every_split(input, dialect, &make, want);
    }
}

#[test]
fn what_the_handlers_see() {
    let seen = RefCell::new(String::new());
    for dialect in [Dialect::MicroXml, Dialect::LeafXml] {
        seen.borrow_mut().clear();
        let record = |u: &mut thicket_rewrite::Unit<'_>| {
            let _ = writeln!(
                seen.borrow_mut(),
                "{:?} {:?} {}",
                u.kind(),
                u.source(),
                u.span()
            );
        };
        let settings = Settings::new()
            .on_comment(record)
            .on_processing_instruction(record)
            .on_doctype(record)
            .on_text(record);
        let input = "<?xml version='1.0'?><!DOCTYPE r SYSTEM 'r.dtd'><r>x<!--c-->y<?t  d ?></r>";
        let mut r = Rewriter::read_only(dialect, settings);
        r.feed_str(input).unwrap();
        r.finish().unwrap();
        assert_eq!(
            *seen.borrow(),
            "ProcessingInstruction(\"xml\", \"version='1.0'\") \"<?xml version='1.0'?>\" 0..21\n\
             Doctype(Some(\"r\")) \"<!DOCTYPE r SYSTEM 'r.dtd'>\" 21..48\n\
             Text(\"x\") \"x\" 51..52\n\
             Comment(\"c\") \"<!--c-->\" 52..60\n\
             Text(\"y\") \"y\" 60..61\n\
             ProcessingInstruction(\"t\", \"d \") \"<?t  d ?>\" 61..70\n",
            "{dialect:?}"
        );
    }
}

/// MicroXML's tokenizer joins a CDATA section's text with the text around it and discards the
/// delimiters at its edges: a text unit still holds the section whole, so removing or
/// replacing text never leaves half a section (docs/rewrite.md, "MicroXML and LeafXML"),
/// however the input is split.
#[test]
fn microxml_text_units_hold_cdata_sections_whole() {
    use std::cell::RefCell;
    for (input, removed, sources) in [
        ("<r><![CDATA[xy]]>z</r>", "<r></r>", "<![CDATA[xy]]>z"),
        ("<r>z<![CDATA[xy]]></r>", "<r></r>", "z<![CDATA[xy]]>"),
        ("<r>q<![CDATA[x<y]]>z</r>", "<r></r>", "q<![CDATA[x<y]]>z"),
        ("<r><![CDATA[xy]]></r>", "<r></r>", "<![CDATA[xy]]>"),
        (
            "<r>a<![CDATA[b]]>c<![CDATA[d]]>e</r>",
            "<r></r>",
            "a<![CDATA[b]]>c<![CDATA[d]]>e",
        ),
        // An empty section (discarded whole) joins the text after it.
        ("<r><![CDATA[]]>abc</r>", "<r></r>", "<![CDATA[]]>abc"),
        // With no text around it, it is written as it is.
        ("<r><![CDATA[]]></r>", "<r><![CDATA[]]></r>", ""),
        (
            "<r>a<!--c--><![CDATA[b]]></r>",
            "<r><!--c--></r>",
            "a|<![CDATA[b]]>",
        ),
    ] {
        for chunk in 1..=input.len() {
            let remove = Settings::new().on_text(|t| t.remove());
            let out = common::rewrite_chunked(input, Dialect::MicroXml, remove, chunk);
            assert_eq!(out, removed, "{input} in chunks of {chunk}");
            // Text after the unit lands after the section, escaped as text.
            let after = Settings::new().on_text(|t| t.after("<", ContentType::Text));
            let out = common::rewrite_chunked(input, Dialect::MicroXml, after, chunk);
            assert!(!out.contains("<<") && !out.contains("&lt;]]>"), "{out}");
            let seen = RefCell::new(String::new());
            let record = Settings::new().on_text(|t| seen.borrow_mut().push_str(t.source()));
            common::rewrite_chunked(input, Dialect::MicroXml, record, chunk);
            let seen = seen.into_inner();
            // Pieces of one text node may be split at chunk boundaries, never a delimiter.
            assert_eq!(
                seen,
                sources.replace('|', ""),
                "{input} in chunks of {chunk}"
            );
        }
    }
}

/// A run of CDATA sections streams: what comes before the open section is handed out, so at
/// most one section is held (here under a 64-byte buffer limit), and the units' texts and
/// sources still add up to the node's text and the input, CR LF and all, however it is split.
#[test]
fn microxml_cdata_runs_stream() {
    use std::cell::RefCell;
    use thicket_rewrite::MemoryLimits;
    let input = format!(
        "<r>a\r\n{}b\r\n<![CDATA[x\r\ny]]>\r\n</r>",
        "<![CDATA[ab\r\n]]>".repeat(2000)
    );
    let text = format!("a\n{}b\nx\ny\n", "ab\n".repeat(2000));
    for chunk in [1, 7, 64, 4096, input.len()] {
        let (texts, sources) = (RefCell::new(String::new()), RefCell::new(String::new()));
        let settings = Settings::new()
            .with_memory_limits(MemoryLimits::none().with_max_buffered(Some(64)))
            .on_text(|t| {
                if let UnitKind::Text(s) = t.kind() {
                    texts.borrow_mut().push_str(s);
                }
                sources.borrow_mut().push_str(t.source());
            });
        let out = common::rewrite_chunked(&input, Dialect::MicroXml, settings, chunk);
        assert_eq!(out, input, "chunks of {chunk}");
        assert_eq!(texts.into_inner(), text, "chunks of {chunk}");
        assert_eq!(
            sources.into_inner(),
            input[3..input.len() - 4],
            "chunks of {chunk}"
        );
    }
}
