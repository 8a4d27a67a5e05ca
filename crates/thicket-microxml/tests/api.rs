//! The public API convention (docs/api.md): entry points, tree navigation, iteration, `Send`.

use std::borrow::Cow;

use thicket_microxml::{
    Checker, Document, NodeRef, Options, Parsed, ParsedBytes, Parser, Token, Tokenizer, Tokens,
    parse, parse_bytes, parse_reader, parse_with,
};

#[test]
fn parsers_tokenizers_and_documents_are_send() {
    fn send<T: Send>() {}
    send::<Tokenizer>();
    send::<Tokens<'static>>();
    send::<Parser>();
    send::<Checker>();
    send::<Document<'static>>();
    send::<Parsed<'static>>();
    send::<ParsedBytes>();
    send::<Token<'static>>();
}

#[test]
fn descendants_parent_and_text_at_any_depth() {
    let depth = 200_000;
    let input = format!("{}x{}", "<a>".repeat(depth), "</a>".repeat(depth));
    let parsed = parse(&input);
    let all: Vec<NodeRef<'_, '_>> = parsed.document.descendants().collect();
    assert_eq!(all.len(), depth + 1);
    let NodeRef::Text(x) = all[depth] else {
        panic!("the text comes last")
    };
    assert_eq!(x.as_str(), "x");
    // Up from the text to the root, one parent at a time.
    let mut up = 0;
    let mut at = x.parent();
    while let Some(e) = at {
        up += 1;
        at = e.parent();
    }
    assert_eq!(up, depth);
    assert_eq!(parsed.root().text_content(), "x");
    for n in &all {
        assert!(n.span().end <= input.len());
    }
}

#[test]
fn descendants_in_document_order_and_of_a_subtree() {
    let parsed = parse("<r><a><b/>t</a><c>u</c></r>");
    let order: Vec<String> = parsed
        .document
        .descendants()
        .map(|n| match n {
            NodeRef::Element(e) => e.name().to_owned(),
            NodeRef::Text(t) => format!("'{}'", t.as_str()),
        })
        .collect();
    assert_eq!(order, ["r", "a", "b", "'t'", "c", "'u'"]);
    let Some(NodeRef::Element(a)) = parsed.root().children().next() else {
        panic!("a")
    };
    assert_eq!(a.descendants().count(), 3);
    assert_eq!(a.text_content(), "t");
    assert_eq!(a.parent().unwrap().name(), "r");
    // The parents stay right in an owned copy.
    let owned = parsed.into_owned();
    let last = owned.document.descendants().last().unwrap();
    assert_eq!(last.parent().unwrap().name(), "c");
    assert_eq!(last.text_content(), "u");
}

#[test]
fn tokens_iterate_as_the_tokenizer_fed_whole() {
    let input = "<a x='1' y=\"&lt;\">t&#x41;<!--c-->\r\n<b/></a><<";
    let mut fed = Tokenizer::new(Options::default());
    fed.feed(input);
    fed.finish();
    let mut by_hand = Vec::new();
    while let Some(t) = fed.next_token() {
        by_hand.push(t.into_owned());
    }
    let mut tokens = Tokens::new(input);
    let iterated: Vec<Token<'_>> = tokens.by_ref().collect();
    assert_eq!(iterated, by_hand);
    assert_eq!(tokens.take_diagnostics(), fed.take_diagnostics());
    assert_eq!(Tokenizer::tokenize(input, Options::default()).0, iterated);
}

/// Over a whole input the iterator copies nothing where the spec changed nothing.
#[test]
fn iteration_over_plain_markup_borrows_every_string() {
    let input = "<feed><entry a='v'>one</entry><entry>two</entry></feed>".repeat(50);
    let mut n = 0;
    for t in Tokens::new(&input) {
        n += 1;
        match &t {
            Token::StartTagOpen { name, .. }
            | Token::AttributeName { name, .. }
            | Token::EndTag { name, .. } => assert!(matches!(name, Cow::Borrowed(_)), "{t:?}"),
            Token::Data { text, .. } => assert!(matches!(text, Cow::Borrowed(_)), "{t:?}"),
            _ => {}
        }
    }
    assert!(n > 500);
}

#[test]
fn bytes_and_readers_give_the_same_tree() {
    let bytes = b"\xEF\xBB\xBF<a x='1'>caf\xC3\xA9 \xFF</b>";
    let whole = parse_bytes(bytes);
    assert!(whole.had_decoding_errors);
    assert_eq!(whole.encoding.name(), "UTF-8");
    let read = parse_reader(&bytes[..]).unwrap();
    assert_eq!(read, whole);
    let text = parse_with(&whole.text, Options::default());
    assert_eq!(text.document, whole.document);
    assert_eq!(text.diagnostics, whole.diagnostics);
    assert_eq!(whole.root().text_content(), "caf\u{e9} \u{fffd}");
}

#[test]
fn diagnostics_render_through_the_reexports() {
    let input = "<doc>\n<p>x</doc>";
    let parsed = parse(input);
    let d = parsed.diagnostics[0];
    let shown = d.render(input, Some("doc.xml"));
    let lc = thicket_microxml::LineIndex::new(input).line_col(input, d.span.start);
    assert!(
        shown.starts_with(&format!(
            "doc.xml:{}:{}: {}",
            lc.line,
            lc.column,
            d.code.as_str()
        )),
        "{shown}"
    );
    let mut r = thicket_microxml::DiagnosticRenderer::new(input);
    assert_eq!(r.render(&d), shown.trim_start_matches("doc.xml:"));
}
