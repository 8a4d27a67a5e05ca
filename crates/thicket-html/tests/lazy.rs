//! Lazy tokenizing (`Options::lazy`) against the full tokenizer: the same token kinds, spans,
//! tag names and self-closing flags (adjacent text joined: a lazy run is split at other chunk
//! ends), and where attributes, text, comments, DOCTYPEs or processing instructions were asked
//! for, the same strings; where they were not, none. On every html5lib tokenizer case (each
//! initial state, whole and char by char), every HTML corpus file (whole and in chunks) and a
//! property test over random markup with random chunking, in the document-level mode and the
//! bare one.

use proptest::prelude::*;
use thicket_html::{AttributesOf, Lazy, Options, State, Token, Tokenizer};
use thicket_testkit::suites::html5lib;

/// The lazy settings tested: nothing, some tags' attributes (`font` and `annotation-xml` are
/// read by the model of foreign content), everything but attributes, all attributes.
fn lazies() -> Vec<Lazy> {
    vec![
        Lazy::default(),
        Lazy {
            attributes: AttributesOf::tags(["a", "font", "IMG"]),
            ..Lazy::default()
        },
        Lazy {
            text: true,
            comments: true,
            doctypes: true,
            processing_instructions: true,
            attributes: AttributesOf::tags(["annotation-xml"]),
        },
        Lazy {
            attributes: AttributesOf::All,
            doctypes: true,
            ..Lazy::default()
        },
    ]
}

fn wants(lazy: &Lazy, name: &str) -> bool {
    match &lazy.attributes {
        AttributesOf::None => false,
        AttributesOf::All => true,
        AttributesOf::Tags(t) => t.iter().any(|n| n.eq_ignore_ascii_case(name)),
    }
}

/// One token as the comparison sees it: what `lazy` asked for, for both tokenizers (a lazy
/// token must carry nothing else: checked here).
fn project(t: &Token<'_>, lazy: &Lazy, is_lazy: bool) -> String {
    match t {
        Token::StartTag(tag) | Token::EndTag(tag) => {
            let kind = if matches!(t, Token::StartTag(_)) {
                "start"
            } else {
                "end"
            };
            let attributes = if wants(lazy, &tag.name) {
                format!("{:?}", tag.attributes)
            } else {
                assert!(
                    !is_lazy || tag.attributes.is_empty(),
                    "attributes not asked for: {tag:?}"
                );
                String::new()
            };
            format!(
                "{kind} {} {} {:?} {attributes}",
                tag.name, tag.self_closing, tag.span
            )
        }
        Token::Text { text, span } => {
            assert!(lazy.text || !is_lazy || text.is_empty());
            format!("text {span:?}")
        }
        Token::Comment { data, span } => {
            assert!(lazy.comments || !is_lazy || data.is_empty());
            let data = if lazy.comments { data } else { "" };
            format!("comment {span:?} {data:?}")
        }
        Token::ProcessingInstruction { target, data, span } => {
            assert!(
                lazy.processing_instructions || !is_lazy || target.is_empty() && data.is_empty()
            );
            let (target, data) = if lazy.processing_instructions {
                (&**target, &**data)
            } else {
                ("", "")
            };
            format!("pi {span:?} {target:?} {data:?}")
        }
        Token::Doctype(d) => {
            if lazy.doctypes {
                format!("{d:?}")
            } else {
                assert!(!is_lazy || d.name.is_none() && d.public_id.is_none());
                format!("doctype {:?} {}", d.span, d.force_quirks)
            }
        }
        Token::Discarded { span } => format!("discarded {span:?}"),
        Token::Eof { span } => format!("eof {span:?}"),
    }
}

/// The projected tokens of `chunks` (adjacent text joined: its content, when asked for, too).
fn run(chunks: &[&str], options: &Options, lazy: &Lazy, is_lazy: bool) -> Vec<String> {
    let mut options = options.clone();
    options.lazy = is_lazy.then(|| lazy.clone());
    let mut tok = Tokenizer::with_options(options);
    let mut out: Vec<String> = Vec::new();
    // The open text run: start, end, content.
    let mut text: Option<(usize, usize, String)> = None;
    let pull =
        |tok: &mut Tokenizer, out: &mut Vec<String>, text: &mut Option<(usize, usize, String)>| {
            while let Some(t) = tok.next_token() {
                if let Token::Text { text: s, span } = &t {
                    match text {
                        Some((_, e, acc)) if *e == span.start => {
                            *e = span.end;
                            acc.push_str(s);
                        }
                        _ => {
                            if let Some((s0, e0, acc)) = text.take() {
                                let acc = if lazy.text { acc } else { String::new() };
                                out.push(format!("text {s0}..{e0} {acc:?}"));
                            }
                            *text = Some((span.start, span.end, s.to_string()));
                        }
                    }
                    project(&t, lazy, is_lazy);
                    continue;
                }
                if let Some((s0, e0, acc)) = text.take() {
                    let acc = if lazy.text { acc } else { String::new() };
                    out.push(format!("text {s0}..{e0} {acc:?}"));
                }
                out.push(project(&t, lazy, is_lazy));
            }
        };
    for c in chunks {
        tok.feed(c);
        pull(&mut tok, &mut out, &mut text);
    }
    tok.finish();
    pull(&mut tok, &mut out, &mut text);
    out
}

/// Asserts that every lazy setting gives the full tokenizer's tokens on `chunks`.
fn check(chunks: &[&str], options: &Options, what: &str) {
    for lazy in lazies() {
        let full = run(chunks, options, &lazy, false);
        let lazy_tokens = run(chunks, options, &lazy, true);
        if full != lazy_tokens {
            let i = full
                .iter()
                .zip(&lazy_tokens)
                .position(|(a, b)| a != b)
                .unwrap_or(full.len().min(lazy_tokens.len()));
            panic!(
                "{what}: lazy {lazy:?} differs at token {i}:\nfull: {:?}\nlazy: {:?}",
                full.get(i.saturating_sub(1)..(i + 2).min(full.len())),
                lazy_tokens.get(i.saturating_sub(1)..(i + 2).min(lazy_tokens.len())),
            );
        }
    }
}

fn modes() -> [Options; 3] {
    [
        Options::document(),
        Options::default(),
        Options {
            legacy_processing_instructions: true,
            scripting: true,
            ..Options::document()
        },
    ]
}

#[test]
fn html5lib_tokenizer_cases() {
    let dir = thicket_testkit::suite_root().join("html5lib-tests/tokenizer");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("{}: not found; skipping", dir.display());
        return;
    };
    let mut cases = 0;
    for e in entries.flatten() {
        if e.path().extension().is_none_or(|x| x != "test") {
            continue;
        }
        let file = html5lib::read_file(&e.path()).expect("the suite reads");
        for test in &file.tests {
            let Some(input) = &test.input else { continue };
            let chars = thicket_testkit::chunks::chars(input);
            for state_name in &test.initial_states {
                let Some(state) = State::from_html5lib_name(state_name) else {
                    continue;
                };
                for mode in modes() {
                    let options = Options {
                        initial_state: Some(state),
                        last_start_tag: test.last_start_tag.clone(),
                        ..mode
                    };
                    let what = format!("{}: {}", e.path().display(), test.description);
                    check(&[input], &options, &what);
                    check(&chars, &options, &what);
                }
                cases += 1;
            }
        }
    }
    assert!(cases > 1000, "only {cases} cases");
}

#[test]
fn corpus_files() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/html");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    let mut read = 0;
    for e in entries.flatten() {
        let Ok(bytes) = std::fs::read(e.path()) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        // A prefix keeps the debug build quick; it still holds thousands of tags.
        let mut cut = text.len().min(300_000);
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        let text = &text[..cut];
        read += 1;
        let what = e.path().display().to_string();
        for mode in modes() {
            check(&[text], &mode, &what);
        }
        // In chunks of a few sizes, so chunk ends fall inside tags, references and CR LF.
        for size in [4093, 397, 61] {
            let mut chunks = Vec::new();
            let mut at = 0;
            while at < text.len() {
                let mut end = (at + size).min(text.len());
                while !text.is_char_boundary(end) {
                    end += 1;
                }
                chunks.push(&text[at..end]);
                at = end;
            }
            check(
                &chunks,
                &Options::document(),
                &format!("{what} in {size}-byte chunks"),
            );
        }
    }
    assert!(read > 0, "corpus present but unreadable");
}

/// Markup pieces: tags the skim must delimit exactly (quotes, `/`, `=`, errors), raw text and
/// foreign content switches, references, CR, NULL, comments, DOCTYPEs, processing instructions.
fn markup() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "text ",
        "\r",
        "\r\n",
        "\0",
        "&amp;",
        "&amp",
        "&#60;",
        "&",
        "\u{e9}",
        "\u{fffe}",
        "<p>",
        "</p>",
        "<P>",
        "<pA x>",
        "<p\r>",
        "<br/>",
        "<br />",
        "</p >",
        "</p a=\">\">",
        "</p/>",
        "<a href=\"x>y\">",
        "<a href='x\"y'>",
        "<a href=x>",
        "<a href=x/>",
        "<a href=\"x\"/>",
        "<a href=\"x\"b=c>",
        "<a b c d>",
        "<a =b>",
        "<a b=>",
        "<a/b>",
        "<a b/>",
        "<a b = \"c\" / >",
        "<a b=\"c\"/x>",
        "<a\0b>",
        "<a b=\0>",
        "<img src=x>",
        "<IMG SRC=x>",
        "<font color=red>",
        "<a",
        "<a b=\"",
        "</",
        "<",
        "<>",
        "<1>",
        "</>",
        "<script>",
        "</script>",
        "<!--",
        "-->",
        "<style>",
        "</style>",
        "<title>",
        "</title>",
        "<textarea>",
        "<plaintext>",
        "<xmp>",
        "<svg>",
        "</svg>",
        "<math>",
        "</math>",
        "<mi>",
        "<foreignObject>",
        "<annotation-xml encoding=text/html>",
        "<annotation-xml encoding='x'>",
        "<svg/>",
        "<![CDATA[x]]>",
        "<!-- c -->",
        "<!-- a --!>",
        "<!DOCTYPE html>",
        "<!doctype x public \"a\" 'b'>",
        "<?pi x?>",
        "<?x y>",
        "<? >",
    ]);
    prop::collection::vec(pieces, 0..24).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn random_markup_random_chunks(doc in markup(), cuts in prop::collection::vec(0usize..400, 0..6)) {
        let chunks = thicket_testkit::chunks::split_at_positions(&doc, &cuts);
        for mode in modes() {
            check(&[&doc], &mode, &doc);
            check(&chunks, &mode, &doc);
        }
    }
}

/// All tokens of `input` fed whole to a document-level tokenizer with `lazy`, owned.
fn lazy_tokens(input: &str, lazy: Lazy) -> Vec<Token<'static>> {
    let mut tok = Tokenizer::with_options(Options {
        lazy: Some(lazy),
        ..Options::document()
    });
    tok.feed(input);
    tok.finish();
    let mut out = Vec::new();
    while let Some(t) = tok.next_token() {
        out.push(t.into_owned());
    }
    out
}

#[test]
fn text_not_asked_for_is_empty_with_its_span() {
    let t = lazy_tokens("a &amp; b\r\n\0<p>", Lazy::default());
    assert!(matches!(&t[0], Token::Text { text, span } if text.is_empty() && span.end == 12));
    let t = lazy_tokens(
        "a &amp; b<p>",
        Lazy {
            text: true,
            ..Lazy::default()
        },
    );
    assert!(matches!(&t[0], Token::Text { text, .. } if text == "a & b"));
}

#[test]
fn comments_doctypes_and_pis_not_asked_for_are_empty() {
    let t = lazy_tokens("<!DOCTYPE html><!-- c --><?pi d?>", Lazy::default());
    assert!(matches!(&t[0], Token::Doctype(d) if d.name.is_none() && d.span.end == 15));
    assert!(matches!(&t[1], Token::Comment { data, .. } if data.is_empty()));
    assert!(
        matches!(&t[2], Token::ProcessingInstruction { target, data, .. }
        if target.is_empty() && data.is_empty())
    );
    let all = Lazy {
        comments: true,
        doctypes: true,
        processing_instructions: true,
        ..Lazy::default()
    };
    let t = lazy_tokens("<!DOCTYPE html><!-- c --><?pi d?>", all);
    assert!(matches!(&t[0], Token::Doctype(d) if d.name.as_deref() == Some("html")));
    assert!(matches!(&t[1], Token::Comment { data, .. } if data == " c "));
    assert!(matches!(&t[2], Token::ProcessingInstruction { target, .. } if target == "pi"));
}

#[test]
fn attributes_only_on_the_tags_asked_for() {
    let input = "<p id=x><A HREF='/'>l</a><a href=\"x&amp;y\"></p x=y>";
    let lazy = Lazy {
        attributes: AttributesOf::tags(["A"]),
        ..Lazy::default()
    };
    let attrs: Vec<(String, usize)> = lazy_tokens(input, lazy)
        .iter()
        .filter_map(|t| match t {
            Token::StartTag(t) | Token::EndTag(t) => Some((t.name.to_string(), t.attributes.len())),
            _ => None,
        })
        .collect();
    // Uppercase names go through the states (which build everything): the same result.
    assert_eq!(
        attrs,
        [
            ("p".into(), 0),
            ("a".into(), 1),
            ("a".into(), 0),
            ("a".into(), 1),
            ("p".into(), 0)
        ]
    );
    let all = lazy_tokens(
        input,
        Lazy {
            attributes: AttributesOf::All,
            ..Lazy::default()
        },
    );
    assert!(matches!(&all[4], Token::StartTag(t) if t.attributes[0].value == "x&y"));
}

#[test]
fn raw_text_switches_by_name_without_attributes() {
    let t = lazy_tokens(
        "<script type=x>a<b</script><style media='>'>p{}</style>",
        Lazy::default(),
    );
    let kinds: Vec<&str> = t
        .iter()
        .map(|t| match t {
            Token::StartTag(_) => "start",
            Token::EndTag(_) => "end",
            Token::Text { .. } => "text",
            Token::Eof { .. } => "eof",
            _ => "other",
        })
        .collect();
    assert_eq!(
        kinds,
        ["start", "text", "end", "start", "text", "end", "eof"]
    );
}

#[test]
fn foreign_content_reads_font_attributes_itself() {
    // `<font color>` breaks out of SVG, so `<style>` is HTML's and switches to RAWTEXT; the
    // caller did not ask for `font`'s attributes and gets none.
    let t = lazy_tokens("<svg><font color=red><style><b></style>", Lazy::default());
    assert!(matches!(&t[1], Token::StartTag(f) if f.name == "font" && f.attributes.is_empty()));
    assert!(matches!(&t[3], Token::Text { span, .. } if span.start == 28 && span.end == 31));
    // Without `color` the font stays SVG's: `<b>` is a tag.
    let t = lazy_tokens("<svg><font><style><b></style>", Lazy::default());
    assert!(matches!(&t[3], Token::StartTag(b) if b.name == "b"));
}

#[test]
fn a_tag_cut_by_a_chunk_end_is_the_same_tag() {
    let lazy = Lazy::default();
    let mut tok = Tokenizer::with_options(Options {
        lazy: Some(lazy),
        ..Options::document()
    });
    let mut names = Vec::new();
    for chunk in ["<div cla", "ss=\"a>b\" /", ">x</di", "v>"] {
        tok.feed(chunk);
        while let Some(t) = tok.next_token() {
            if let Token::StartTag(t) | Token::EndTag(t) = t {
                names.push((t.name.to_string(), t.self_closing, t.span.start, t.span.end));
            }
        }
    }
    assert_eq!(
        names,
        [("div".into(), true, 0, 19), ("div".into(), false, 20, 26)]
    );
}

/// `set_lazy_text` switches text building between tokens: on after `<h1>`, off after `</h1>`,
/// the text inside is built (references resolved) and the text outside is not, whole and at
/// every split point.
#[test]
fn lazy_text_switched_between_tokens() {
    let input = "a &amp; b<h1>x &lt; <b>y</b>&amp;z</h1>c &gt; d<h1>e</h1>";
    for split in 0..=input.len() {
        let (head, tail) = input.split_at(split);
        let mut tok = Tokenizer::with_options(Options {
            lazy: Some(Lazy::default()),
            ..Options::document()
        });
        let (mut inside, mut outside) = (String::new(), String::new());
        let mut open = false;
        let mut pull = |tok: &mut Tokenizer, open: &mut bool| {
            while let Some(t) = tok.next_token() {
                let switch = match &t {
                    Token::StartTag(tag) if tag.name == "h1" => Some(true),
                    Token::EndTag(tag) if tag.name == "h1" => Some(false),
                    Token::Text { text, .. } if *open => {
                        inside.push_str(text);
                        None
                    }
                    Token::Text { text, .. } => {
                        outside.push_str(text);
                        None
                    }
                    _ => None,
                };
                drop(t);
                if let Some(on) = switch {
                    *open = on;
                    tok.set_lazy_text(on);
                }
            }
        };
        tok.feed(head);
        pull(&mut tok, &mut open);
        tok.feed(tail);
        pull(&mut tok, &mut open);
        tok.finish();
        pull(&mut tok, &mut open);
        assert_eq!(inside, "x < y&ze", "split at {split}");
        assert_eq!(outside, "", "split at {split}");
    }
}
