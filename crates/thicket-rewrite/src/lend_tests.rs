//! The HTML tokenizer reading pieces where they are (`Tokenizer::feed_lent`, in
//! `Rewriter::feed_piece_html`) against it copying every piece: the same output and the same
//! error, however the input is split, with handlers that hold source across pieces (pending
//! output, captures, removed and replaced elements, raw text, unfinished tokens).

use crate::{Capture, ContentType, Dialect, Error, Rewriter, Settings};

/// Documents with every kind of token, raw text and tokens a split can cut.
const DOCUMENTS: &[&str] = &[
    "<!DOCTYPE html><html><head><title>a &amp; b</title><style>p>b{}</style></head>\
     <body><p class=x id=p1>Hello <b>bold</b> &notin; &#x41;<a href=/x>link</a></p>\
     <!-- note --><script>if (a</b) {}</script><textarea>&lt;x</textarea>\
     <div class=x><span>gone</span></div><ul><li>1<li>2</ul><?pi data?>\r\n<br/><img src=a alt></body>",
    "<p>unfinished <a href='x",
    "text only, with no markup at all, long enough to be split in many places.",
    "<svg><rect/><foreignObject><p>in</p></foreignObject></svg><math><mi>x</mi></math>",
    "<div class=x>outer <div class=x>inner</div> tail</div><p>after</p><script>x</script",
    "<p>a</p><script class=refuse>x < y</script><p>never</p>",
];

/// The handlers: every kind of edit, a capture, text and comment handlers, and an insertion
/// into RCDATA. `log` gets the text, then the captures.
fn settings<'h>(log: &'h std::cell::RefCell<Vec<String>>) -> Settings<'h> {
    Settings::new()
        .on_element("a[href]", |a| a.set_attribute("rel", "nofollow"))
        .unwrap()
        .on_element("div.x > span", |e| e.remove())
        .unwrap()
        .on_element("b", |e| e.replace("<i>it</i>", ContentType::Html))
        .unwrap()
        .on_element("li", |e| e.unwrap())
        .unwrap()
        .on_element("p", move |e| {
            e.prepend("[", ContentType::Text);
            e.append("]", ContentType::Text);
            e.capture(Capture::Outer, move |c| {
                log.borrow_mut().push(format!("{:?}", c.map(str::to_owned)));
            });
        })
        .unwrap()
        .on_element("textarea", |e| e.append("</textarea>", ContentType::Text))
        .unwrap()
        .on_text(move |t| {
            // Text comes in pieces that depend on the split: their concatenation does not.
            let mut log = log.borrow_mut();
            match log.first_mut() {
                Some(all) => all.push_str(t.source()),
                None => log.push(t.source().to_owned()),
            }
        })
        .on_element("script.refuse", |e| {
            e.append("</script>", ContentType::Text)
        })
        .unwrap()
        .on_comment(|c| c.remove())
}

/// The output, the error and the captures of `input` fed in `chunks`-byte pieces (0: whole),
/// every piece lent when `lend` (none when not).
fn run(input: &str, chunks: usize, lend: bool) -> (String, Option<String>, Vec<String>) {
    let log = std::cell::RefCell::new(Vec::new());
    let mut out = Vec::new();
    let error = {
        let mut r = Rewriter::new(Dialect::Html, settings(&log), |b: &[u8]| {
            out.extend_from_slice(b)
        });
        r.set_lend_min(if lend { 1 } else { usize::MAX });
        let step = if chunks == 0 {
            input.len().max(1)
        } else {
            chunks
        };
        let mut error = None;
        let mut at = 0;
        while at < input.len() && error.is_none() {
            let mut end = (at + step).min(input.len());
            while !input.is_char_boundary(end) {
                end += 1;
            }
            error = r.feed_str(&input[at..end]).err();
            at = end;
        }
        error
            .or_else(|| r.finish().err())
            .map(|e: Error| format!("{} {:?}", e.code, e.span))
    };
    (String::from_utf8(out).unwrap(), error, log.into_inner())
}

#[test]
fn lent_pieces_give_what_copied_pieces_give() {
    for doc in DOCUMENTS {
        let copied = run(doc, 0, false);
        for chunks in [0, 1, 2, 3, 5, 7, 11, 64] {
            assert_eq!(
                run(doc, chunks, true),
                copied,
                "{doc:?} in {chunks}-byte pieces"
            );
            assert_eq!(run(doc, chunks, false), copied, "{doc:?} copied, {chunks}");
        }
    }
}

#[test]
fn lent_pieces_at_every_split_point() {
    for doc in DOCUMENTS {
        let copied = run(doc, 0, false);
        for cut in 1..doc.len() {
            if !doc.is_char_boundary(cut) {
                continue;
            }
            let log = std::cell::RefCell::new(Vec::new());
            let mut out = Vec::new();
            let error = {
                let mut r = Rewriter::new(Dialect::Html, settings(&log), |b: &[u8]| {
                    out.extend_from_slice(b)
                });
                r.set_lend_min(1);
                let first = r.feed_str(&doc[..cut]).err();
                let second = first.or_else(|| r.feed_str(&doc[cut..]).err());
                second
                    .or_else(|| r.finish().err())
                    .map(|e: Error| format!("{} {:?}", e.code, e.span))
            };
            let lent = (String::from_utf8(out).unwrap(), error, log.into_inner());
            assert_eq!(lent, copied, "{doc:?} cut at {cut}");
        }
    }
}

#[test]
fn the_documents_reach_the_refusal_and_the_captures() {
    let (out, error, log) = run(DOCUMENTS[5], 0, false);
    assert_eq!(error.as_deref(), Some("raw-text-insertion 8..29"), "{out}");
    let (_, error, log0) = run(DOCUMENTS[0], 0, false);
    assert_eq!(error, None);
    assert!(
        log0.iter().any(|l| l.starts_with("Ok(\"<p class=x")),
        "{log0:?}"
    );
    assert!(!log.is_empty());
}

/// Markup from pieces a split or a handler cares about.
fn markup() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    let pieces = prop::sample::select(vec![
        "<p>",
        "</p>",
        "<p class=x>",
        "<div class=x>",
        "</div>",
        "<span>",
        "</span>",
        "<b>",
        "</b>",
        "<a href=/x>",
        "</a>",
        "<li>",
        "<!-- c -->",
        "<!--",
        "-->",
        "<script>",
        "</script>",
        "<script class=refuse>",
        "<textarea>",
        "</textarea>",
        "<svg><rect/>",
        "</svg>",
        "<?pi x?>",
        "<!DOCTYPE html>",
        "&amp;",
        "&notin",
        "&#x41;",
        "\r\n",
        "\r",
        "é",
        "<",
        "&",
        "text ",
        "Hello",
        " a='v'",
    ]);
    prop::collection::vec(pieces, 0..160).prop_map(|v| v.concat())
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

    #[test]
    fn lent_and_copied_agree_on_random_markup(
        doc in markup(),
        chunks in 1usize..40,
    ) {
        let copied = run(&doc, 0, false);
        proptest::prop_assert_eq!(&run(&doc, chunks, true), &copied);
        proptest::prop_assert_eq!(&run(&doc, 0, true), &copied);
    }
}
