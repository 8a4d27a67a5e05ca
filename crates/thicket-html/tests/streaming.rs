//! Streaming behaviour: when tokens come out, chunk invariance, the tree-builder hooks.

use thicket_html::{Options, State, Token, Tokenizer};

/// Feeds `chunks`, pulling after each, and returns (tokens after each feed, all tokens).
fn feed_all(mut tok: Tokenizer, chunks: &[&str]) -> Vec<Vec<Token<'static>>> {
    let mut out = Vec::new();
    for c in chunks {
        tok.feed(c);
        let mut got = Vec::new();
        while let Some(t) = tok.next_token() {
            got.push(t.into_owned());
        }
        out.push(got);
    }
    tok.finish();
    let mut got = Vec::new();
    while let Some(t) = tok.next_token() {
        got.push(t.into_owned());
    }
    out.push(got);
    out
}

fn texts(tokens: &[Token<'_>]) -> Vec<String> {
    tokens
        .iter()
        .map(|t| match t {
            Token::Text { text, .. } => format!("T:{text}"),
            Token::StartTag(t) => format!("S:{}", t.name),
            Token::EndTag(t) => format!("E:{}", t.name),
            Token::Comment { data, .. } => format!("C:{data}"),
            Token::ProcessingInstruction { target, data, .. } => format!("P:{target} {data}"),
            Token::Doctype(d) => format!("D:{:?}", d.name),
            Token::Discarded { span } => format!("X:{span:?}"),
            Token::Eof { .. } => "EOF".into(),
        })
        .collect()
}

#[test]
fn text_before_a_pending_less_than_sign_is_returned() {
    let steps = feed_all(Tokenizer::new(), &["a <", " b", "<b", "r>"]);
    assert_eq!(texts(&steps[0]), ["T:a "]);
    assert_eq!(texts(&steps[1]), ["T:< b"]);
    assert_eq!(texts(&steps[2]), Vec::<String>::new());
    assert_eq!(texts(&steps[3]), ["S:br"]);
    assert_eq!(texts(&steps[4]), ["EOF"]);
}

#[test]
fn references_and_cr_wait_for_the_next_chunk() {
    let steps = feed_all(Tokenizer::new(), &["x&am", "p;y&amp", "z\r", "\nw"]);
    assert_eq!(texts(&steps[0]), ["T:x"]);
    assert_eq!(texts(&steps[1]), ["T:&y"]);
    assert_eq!(texts(&steps[2]), ["T:&z"]);
    assert_eq!(texts(&steps[3]), ["T:\nw"]);
    // `&notin` could still become `&notin;`.
    let steps = feed_all(Tokenizer::new(), &["&notin", "g"]);
    assert_eq!(texts(&steps[0]), Vec::<String>::new());
    assert_eq!(texts(&steps[1]), ["T:\u{ac}ing"]);
}

#[test]
fn tags_are_returned_when_closed_and_not_before() {
    let steps = feed_all(Tokenizer::new(), &["<a href='x", "'>", "<!-- c -", "->"]);
    assert!(steps[0].is_empty());
    assert_eq!(texts(&steps[1]), ["S:a"]);
    assert!(steps[2].is_empty());
    assert_eq!(texts(&steps[3]), ["C: c "]);
}

#[test]
fn borrowed_where_unchanged() {
    let mut tok = Tokenizer::new();
    tok.feed("<a href=\"x\" B=y>text &amp; more</a>");
    tok.finish();
    let Some(Token::StartTag(t)) = tok.next_token() else {
        panic!("expected a start tag")
    };
    assert!(matches!(t.name, std::borrow::Cow::Borrowed("a")));
    assert!(matches!(
        t.attributes[0].value,
        std::borrow::Cow::Borrowed("x")
    ));
    assert!(matches!(t.attributes[1].name, std::borrow::Cow::Owned(_)));
    assert_eq!(t.attributes[1].name, "b");
    assert_eq!(t.attributes[0].span, thicket_input::Span::new(3, 11));
}

#[test]
fn set_state_and_last_start_tag_between_tokens() {
    let mut tok = Tokenizer::new();
    tok.feed("<title><b>&amp;</title><p>");
    tok.finish();
    let first = tok.next_token().map(Token::into_owned);
    assert!(matches!(first, Some(Token::StartTag(_))));
    tok.set_state(State::Rcdata);
    let mut rest = Vec::new();
    while let Some(t) = tok.next_token() {
        rest.push(t.into_owned());
    }
    assert_eq!(texts(&rest), ["T:<b>&", "E:title", "S:p", "EOF"]);

    let mut tok = Tokenizer::with_options(Options {
        initial_state: Some(State::Rawtext),
        ..Options::default()
    });
    tok.set_last_start_tag(Some("style"));
    tok.feed("a</style>b");
    tok.finish();
    let mut all = Vec::new();
    while let Some(t) = tok.next_token() {
        all.push(t.into_owned());
    }
    assert_eq!(texts(&all), ["T:a", "E:style", "T:b", "EOF"]);
}

#[test]
fn cdata_only_when_allowed() {
    let run = |allowed: bool| {
        let mut tok = Tokenizer::new();
        tok.set_cdata_allowed(allowed);
        tok.feed("<![CDATA[x<y]]>z");
        tok.finish();
        let mut all = Vec::new();
        while let Some(t) = tok.next_token() {
            all.push(t.into_owned());
        }
        (texts(&all), tok.diagnostics().len())
    };
    assert_eq!(run(true), (vec!["T:x<yz".to_string(), "EOF".into()], 0));
    assert_eq!(
        run(false),
        (
            vec!["C:[CDATA[x<y]]".to_string(), "T:z".into(), "EOF".into()],
            1
        )
    );
}

#[test]
fn switch_by_tag_name_without_a_tree_builder() {
    let mut tok = Tokenizer::with_options(Options {
        switch_by_tag_name: true,
        ..Options::default()
    });
    tok.feed(
        "<script>if (a<b) x='</p>'</script><textarea>&lt;<i></textarea><plaintext></plaintext>",
    );
    tok.finish();
    let mut all = Vec::new();
    while let Some(t) = tok.next_token() {
        all.push(t.into_owned());
    }
    assert_eq!(
        texts(&all),
        [
            "S:script",
            "T:if (a<b) x='</p>'",
            "E:script",
            "S:textarea",
            "T:<<i>",
            "E:textarea",
            "S:plaintext",
            "T:</plaintext>",
            "EOF"
        ]
    );
}

#[test]
fn discarded_input_keeps_spans_lossless() {
    let input = "a</>b<img src=x";
    let steps = feed_all(Tokenizer::new(), &[input]);
    let all: Vec<_> = steps.into_iter().flatten().collect();
    let mut rebuilt = String::new();
    for t in &all {
        rebuilt.push_str(t.span().slice(input));
    }
    assert_eq!(rebuilt, input);
    assert_eq!(texts(&all), ["T:a", "X:1..4", "T:b", "X:5..15", "EOF"]);
}

#[test]
fn last_start_tag_survives_buffer_compaction() {
    // The last start tag's name is kept as a range of the buffer; feeding much more text in
    // chunks makes the tokenizer drop the consumed start of the buffer, which must keep the name.
    let opts = || Options {
        switch_by_tag_name: true,
        ..Options::default()
    };
    let text = "y".repeat(100);
    for open in ["<textarea>", "<TextArea>"] {
        let mut chunks = vec![open];
        chunks.extend(std::iter::repeat_n(text.as_str(), 200));
        chunks.push("</textareax></textarea><p>");
        let all: Vec<Token<'static>> = feed_all(Tokenizer::with_options(opts()), &chunks)
            .into_iter()
            .flatten()
            .collect();
        let names: Vec<String> = texts(&all)
            .into_iter()
            .filter(|t| !t.starts_with("T:"))
            .collect();
        assert_eq!(names, ["S:textarea", "E:textarea", "S:p", "EOF"], "{open}");
    }
}

/// The tokens returned after feeding `chunk` (nothing finished), as `texts` lines.
fn after_feed(options: Options, chunk: &str) -> Vec<String> {
    let mut tok = Tokenizer::with_options(options);
    tok.feed(chunk);
    let mut got = Vec::new();
    while let Some(t) = tok.next_token() {
        got.push(t.into_owned());
    }
    texts(&got)
}

fn in_state(state: State) -> Options {
    Options {
        initial_state: Some(state),
        last_start_tag: Some("title".into()),
        ..Options::default()
    }
}

/// The streaming notes' rule: text is returned as soon as the standard makes it certain, so
/// `feed("abc<")` yields `abc` before the next feed in every text state (the `<` may still start
/// a tag, an end tag or a `<!--`); in PLAINTEXT a `<` is text at once.
#[test]
fn text_before_a_less_than_sign_is_returned_before_the_next_feed() {
    assert_eq!(after_feed(Options::default(), "abc<"), ["T:abc"]);
    for state in [State::Rcdata, State::Rawtext, State::ScriptData] {
        assert_eq!(after_feed(in_state(state), "abc<"), ["T:abc"], "{state:?}");
        assert_eq!(
            after_feed(in_state(state), "abc</ti"),
            ["T:abc"],
            "{state:?}"
        );
    }
    assert_eq!(after_feed(in_state(State::Plaintext), "abc<"), ["T:abc<"]);
    let cdata = Options {
        cdata_allowed: true,
        ..Options::default()
    };
    assert_eq!(after_feed(cdata, "<![CDATA[abc]"), ["T:abc"]);
    // In script data escapes the text up to the `<` or `-` that may end them.
    assert_eq!(
        after_feed(in_state(State::ScriptData), "<!--abc<"),
        ["T:<!--abc"]
    );
}

/// What waits at a chunk end, and nothing else: a `&` that may still start a reference, a CR
/// (CR LF?), a `<`; the text before each is returned.
#[test]
fn only_the_undecided_tail_waits() {
    assert_eq!(after_feed(Options::default(), "abc&am"), ["T:abc"]);
    assert_eq!(after_feed(Options::default(), "abc&amq"), ["T:abc&amq"]);
    assert_eq!(after_feed(Options::default(), "abc\r"), ["T:abc"]);
    assert_eq!(after_feed(Options::default(), "a\r\nb"), ["T:a\nb"]);
    assert_eq!(after_feed(Options::default(), "a <"), ["T:a "]);
    assert_eq!(after_feed(Options::default(), "a < b"), ["T:a < b"]);
    assert_eq!(after_feed(Options::default(), "a <b"), ["T:a "]);
    assert_eq!(after_feed(in_state(State::Rcdata), "x&lt;y&"), ["T:x<y"]);
}

mod certain_text {
    use proptest::prelude::*;
    use thicket_html::{Options, State, Token, Tokenizer};

    proptest! {
        /// Plain text followed by a tail that leaves the decision to the next chunk: every
        /// character of the text is returned by the time the chunk is fed.
        #[test]
        fn is_returned_by_the_end_of_its_chunk(
            text in "[a-zA-Z0-9 .,;:\u{e9}\u{4e2d}\u{1F600}\n\t]{0,300}",
            tail in prop::sample::select(vec!["", "<", "&", "&am", "&notin", "&#x1", "\r", "</"]),
            state in prop::sample::select(vec![
                State::Data, State::Rcdata, State::Rawtext, State::ScriptData,
            ]),
        ) {
            let mut tok = Tokenizer::with_options(Options {
                initial_state: Some(state),
                ..Options::default()
            });
            let mut chunk = text.clone();
            chunk.push_str(tail);
            tok.feed(&chunk);
            let mut got = String::new();
            while let Some(t) = tok.next_token() {
                if let Token::Text { text, .. } = t {
                    got.push_str(&text);
                }
            }
            // In RAWTEXT and script data `&` is text too; everything else in the tails may
            // still become markup, a reference or CR LF.
            let mut expected = text.clone();
            if tail.starts_with('&') && matches!(state, State::Rawtext | State::ScriptData) {
                expected.push_str(tail);
            }
            prop_assert_eq!(got, expected);
        }
    }
}

/// Feeds `total` bytes of text (with references, CR LF and non-ASCII in it) in chunks of
/// `chunk` bytes in `state`, pulling after each feed; returns the most input the tokenizer held
/// at once and the longest text token returned.
fn text_run(state: State, total: usize, chunk: usize) -> (usize, usize) {
    let mut tok = Tokenizer::with_options(Options {
        initial_state: Some(state),
        cdata_allowed: true,
        ..Options::default()
    });
    let piece = "Fish &amp; chips \u{e9}\r\n, caf\u{e9} &lt;3 ";
    let block = piece.repeat(chunk / piece.len() + 1);
    let mut cut = chunk.min(block.len());
    while !block.is_char_boundary(cut) {
        cut -= 1;
    }
    let block = &block[..cut];
    let (mut held, mut longest, mut fed) = (0, 0, 0);
    while fed < total {
        tok.feed(block);
        fed += block.len();
        held = held.max(tok.buffered());
        while let Some(t) = tok.next_token() {
            longest = longest.max(t.span().len());
        }
    }
    (held, longest)
}

/// A text run is never held whole: the input held and the longest text token stay within a
/// few chunks, whatever the length of the run (1 MiB and 8 MiB give the same), in every text
/// state and in a CDATA section.
#[test]
fn memory_is_independent_of_the_length_of_a_text_run() {
    const CHUNK: usize = 16 << 10;
    for state in [
        State::Data,
        State::Rcdata,
        State::Rawtext,
        State::ScriptData,
        State::Plaintext,
        State::CdataSection,
    ] {
        let short = text_run(state, 1 << 20, CHUNK);
        let long = text_run(state, 8 << 20, CHUNK);
        assert_eq!(short, long, "{state:?}");
        assert!(long.0 <= 3 * CHUNK, "{state:?}: {} bytes held", long.0);
        assert!(
            long.1 <= 2 * CHUNK,
            "{state:?}: a text token of {} bytes",
            long.1
        );
    }
}

/// A numeric character reference with megabytes of digits is not held: once a digit is read
/// its end is a character whatever follows, so the buffer keeps the position, not the digits.
#[test]
fn the_digits_of_a_numeric_reference_are_not_held() {
    const CHUNK: usize = 16 << 10;
    fn pull(tok: &mut Tokenizer, text: &mut String) {
        while let Some(t) = tok.next_token() {
            if let Token::Text { text: t, .. } = t {
                text.push_str(&t);
            }
        }
    }
    for (head, digits, expected) in [
        ("<p>&#", "0", "A"),
        ("<p>&#x", "0", "e"),
        ("<p>a&#", "9", "a\u{FFFD}"),
    ] {
        let mut tok = Tokenizer::with_options(Options::default());
        let mut text = String::new();
        tok.feed(head);
        let block = digits.repeat(CHUNK);
        let mut held = 0;
        for _ in 0..64 {
            tok.feed(&block);
            held = held.max(tok.buffered());
            pull(&mut tok, &mut text);
        }
        tok.feed("65;</p>");
        tok.finish();
        pull(&mut tok, &mut text);
        assert!(held < 4 * CHUNK, "{head}: {held} bytes held");
        assert_eq!(text, expected, "{head}");
    }
}
