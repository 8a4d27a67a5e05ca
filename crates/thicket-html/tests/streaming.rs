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
