//! The public API convention (docs/api.md): entry points, tree navigation, iteration, `Send`.

use thicket_xml5::{
    BytesParser, Document, NodeData, Options, Parsed, ParsedBytes, Parser, Token, TokenKind,
    Tokenizer, parse, parse_bytes, parse_reader, parse_with,
};

#[test]
fn parsers_tokenizers_and_documents_are_send() {
    fn send<T: Send>() {}
    send::<Tokenizer<'static>>();
    send::<Parser>();
    send::<BytesParser>();
    send::<Document<'static>>();
    send::<Parsed<'static>>();
    send::<ParsedBytes>();
    send::<Token<'static>>();
}

#[test]
fn descendants_walk_any_depth_in_document_order() {
    let depth = 200_000;
    let input = format!("{}x{}", "<a>".repeat(depth), "</a>".repeat(depth));
    let doc = parse(&input).document;
    let all: Vec<_> = doc.descendants(doc.root()).collect();
    assert_eq!(all.len(), depth + 2); // the document node, the elements, the text
    assert_eq!(all[0], doc.root());
    // Each node's parent came before it; the last is the text, whose parent is the deepest.
    let last = *all.last().unwrap();
    assert!(matches!(doc.data(last), NodeData::Text(t) if t == "x"));
    assert_eq!(doc.parent(last), Some(all[all.len() - 2]));
    // Every node from the input has a span inside it.
    for &n in &all {
        let span = doc.span(n).expect("a span");
        assert!(span.end <= input.len());
    }
    assert_eq!(doc.text_content(doc.root()), "x");
}

#[test]
fn descendants_of_a_subtree_stay_inside_it() {
    let doc = parse("<r><a><b/>t</a><c/></r>").document;
    let r = doc.root_element().unwrap();
    let a = doc.children(r)[0];
    let under: Vec<_> = doc.descendants(a).collect();
    assert_eq!(under.len(), 3);
    assert!(under.iter().all(|&n| n == a || doc.parent(n) == Some(a)));
}

#[test]
fn attributes_by_name_and_by_namespace() {
    let doc = parse(
        "<feed xmlns='urn:atom' xmlns:x='urn:x'><link href='h' x:rel='r' rel='plain'/></feed>",
    )
    .document;
    let link = doc
        .descendants(doc.root())
        .find(|&n| doc.element(n).is_some_and(|e| e.local == "link"))
        .unwrap();
    assert_eq!(doc.attribute(link, "href"), Some("h"));
    assert_eq!(doc.attribute(link, "rel"), Some("plain"));
    assert_eq!(doc.attribute(link, "x:rel"), Some("r"));
    assert_eq!(doc.attribute_ns(link, "urn:x", "rel"), Some("r"));
    assert_eq!(doc.attribute(link, "nope"), None);
    let feed = doc.root_element().unwrap();
    assert_eq!(
        doc.attribute_ns(feed, thicket_xml5::XMLNS_NAMESPACE, "x"),
        Some("urn:x")
    );
    assert_eq!(doc.attribute(doc.root(), "href"), None);
}

#[test]
fn the_iterator_gives_what_next_token_gives() {
    let input = "<?xml version='1.0'?><a b='&amp;'>t<![CDATA[c]]><!--x--></a><<";
    let mut by_hand = Vec::new();
    let mut t = Tokenizer::new(input);
    while let Some(tok) = t.next_token() {
        by_hand.push(tok);
    }
    let iterated: Vec<Token<'_>> = Tokenizer::new(input).collect();
    assert_eq!(iterated, by_hand);
    assert!(matches!(iterated.last().unwrap().kind, TokenKind::Eof));
    // Diagnostics are kept beside the iteration.
    let mut t = Tokenizer::new("<a b='1' b='2'>");
    let n = t.by_ref().count();
    assert!(n > 0);
    assert!(!t.take_diagnostics().is_empty());
}

#[test]
fn bytes_and_readers_give_the_same_document() {
    let bytes = b"\xEF\xBB\xBF<a x='1'>caf\xC3\xA9</b>";
    let whole = parse_bytes(bytes);
    let read = parse_reader(&bytes[..]).unwrap();
    assert_eq!(read.document, whole.document);
    assert_eq!(read.diagnostics, whole.diagnostics);
    assert_eq!(read.text, whole.text);
    let text = parse_with(&whole.text, Options::default());
    assert_eq!(text.document, whole.document);
}

#[test]
fn a_failing_reader_is_an_io_error() {
    struct Broken;
    impl std::io::Read for Broken {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("gone"))
        }
    }
    assert_eq!(parse_reader(Broken).unwrap_err().to_string(), "gone");
}

#[test]
fn diagnostics_render_through_the_reexports() {
    let input = "<feed>\n<entry>x</feed>";
    let parsed = parse(input);
    let mut renderer = thicket_xml5::DiagnosticRenderer::new(input).with_name("feed.xml");
    let shown = renderer.render(&parsed.diagnostics[0]);
    assert!(
        shown.starts_with("feed.xml:2:9: mismatched-end-tag: "),
        "{shown}"
    );
    assert!(shown.contains("2 | <entry>x</feed>"), "{shown}");
    let lc = thicket_xml5::LineIndex::new(input).line_col(input, parsed.diagnostics[0].span.start);
    assert_eq!((lc.line, lc.column), (2, 9));
}

/// Over a whole input the iterator copies nothing: names and text of unchanged markup borrow
/// from the input, and tags without attributes carry an empty (unallocated) list. (A tag with
/// attributes carries its list, one `Vec`, as `next_token` gives it.)
#[test]
fn iteration_over_plain_markup_borrows_every_string() {
    use std::borrow::Cow;
    let input = "<feed><entry>one</entry><entry>two</entry><br/><!--c--></feed>".repeat(50);
    let mut tokens = 0;
    for t in Tokenizer::new(&input) {
        tokens += 1;
        let strings: Vec<&Cow<'_, str>> = match &t.kind {
            TokenKind::StartTag { name, attributes } | TokenKind::EmptyTag { name, attributes } => {
                assert_eq!(attributes.capacity(), 0, "{t:?}");
                vec![name]
            }
            TokenKind::EndTag { name } => vec![name],
            TokenKind::Text(s) | TokenKind::Comment(s) => vec![s],
            _ => vec![],
        };
        for s in strings {
            assert!(matches!(s, Cow::Borrowed(_)), "{t:?}");
        }
    }
    assert!(tokens > 400);
}

/// A streaming tokenizer's iterator pauses while it waits for input and goes on after a feed;
/// joined, its tokens are those of the whole input (text may come in more pieces).
#[test]
fn the_streaming_iterator_goes_on_after_each_feed() {
    let input = "<a x='1'>text &amp; more</a><b/>";
    let whole: Vec<Token<'_>> = Tokenizer::new(input).collect();
    let mut t = Tokenizer::streaming(Options::default());
    let mut streamed = Vec::new();
    for chunk in input.as_bytes().chunks(5) {
        t.feed(std::str::from_utf8(chunk).unwrap());
        streamed.extend(t.by_ref());
    }
    t.finish();
    streamed.extend(t.by_ref());
    let tags = |v: &[Token<'_>]| -> Vec<String> {
        v.iter()
            .filter(|t| !matches!(t.kind, TokenKind::Text(_)))
            .map(|t| format!("{:?}", t.kind))
            .collect()
    };
    let text = |v: &[Token<'_>]| -> String {
        v.iter()
            .filter_map(|t| match &t.kind {
                TokenKind::Text(s) => Some(s.to_string()),
                _ => None,
            })
            .collect()
    };
    assert_eq!(tags(&streamed), tags(&whole));
    assert_eq!(text(&streamed), text(&whole));
    assert!(matches!(streamed.last().unwrap().kind, TokenKind::Eof));
}
