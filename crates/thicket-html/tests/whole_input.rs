//! Whole-input iteration (`parse`, `parse_with`, `Tokens`): the same tokens and diagnostics as
//! `Tokenizer::next_token`, strings borrowed from the input; `Send` and `Debug` on the public
//! types.

use std::borrow::Cow;

use thicket_html::{ByteTokenizer, Options, Token, Tokenizer, Tokens};

fn streamed(input: &str, options: Options) -> (Vec<Token<'static>>, Vec<thicket_html::Diagnostic>) {
    let mut tok = Tokenizer::with_options(options);
    tok.feed(input);
    tok.finish();
    let mut out = Vec::new();
    while let Some(t) = tok.next_token() {
        out.push(t.into_owned());
    }
    (out, tok.take_diagnostics())
}

fn inputs() -> Vec<String> {
    let mut v: Vec<String> = [
        "<!DOCTYPE html><p class=x>Fish &amp; chips</p><!-- c --><?pi d?>",
        "<svg><style><a></style><![CDATA[x]]></svg><style><a></style>",
        "a &notit; &#x0; \r\n <br/> </p a=b> <a b c=d b>",
        "<script><!--<script></script>--></script><textarea>&lt;</textarea>",
    ]
    .map(String::from)
    .to_vec();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/html");
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            if let Ok(bytes) = std::fs::read(e.path()) {
                v.push(String::from_utf8_lossy(&bytes).into_owned());
            }
        }
    }
    v
}

#[test]
fn iterator_gives_what_next_token_gives() {
    for input in inputs() {
        for options in [Options::default(), Options::document()] {
            let (expected, diagnostics) = streamed(&input, options.clone());
            let mut tokens = Tokens::new(&input, options);
            let got: Vec<Token<'_>> = tokens.by_ref().collect();
            assert_eq!(got, expected);
            assert!(matches!(got.last(), Some(Token::Eof { .. })));
            assert_eq!(tokens.next(), None);
            assert_eq!(tokens.take_diagnostics(), diagnostics);
        }
    }
}

/// Unchanged strings borrow from the input itself (no copy per token).
#[test]
fn strings_borrow_from_the_input() {
    let input = String::from("<p class=x>text</p><!--c-->");
    let range = input.as_bytes().as_ptr_range();
    let mut borrowed = 0;
    let tokens: Vec<Token<'_>> = thicket_html::parse(&input).collect();
    for t in &tokens {
        let strings: Vec<&Cow<'_, str>> = match t {
            Token::StartTag(t) | Token::EndTag(t) => std::iter::once(&t.name)
                .chain(t.attributes.iter().flat_map(|a| [&a.name, &a.value]))
                .collect(),
            Token::Text { text, .. } => vec![text],
            Token::Comment { data, .. } => vec![data],
            _ => vec![],
        };
        for s in strings {
            let Cow::Borrowed(b) = s else {
                panic!("{s:?} was copied")
            };
            assert!(range.contains(&b.as_ptr()));
            borrowed += 1;
        }
    }
    assert_eq!(borrowed, 6);
}

#[test]
fn attribute_lookup() {
    let Some(Token::StartTag(t)) = thicket_html::parse("<img SRC=a.png alt='x &amp; y'>").next()
    else {
        panic!("a start tag")
    };
    assert_eq!(t.attribute("src"), Some("a.png"));
    assert_eq!(t.attribute("ALT"), Some("x & y"));
    assert_eq!(t.find_attribute("alt").map(|a| a.span.start), Some(15));
    assert_eq!(t.attribute("width"), None);
}

#[test]
fn public_types_are_send_and_debug() {
    fn send<T: Send>() {}
    send::<Tokenizer>();
    send::<ByteTokenizer>();
    send::<Tokens<'static>>();
    send::<Token<'static>>();
    send::<thicket_html::Diagnostic>();
    let tokens = thicket_html::parse("<p>");
    assert!(format!("{tokens:?}").starts_with("Tokens"));
    let bytes =
        ByteTokenizer::with_default_encoding(None, thicket_html::UTF_8, Options::document());
    assert!(format!("{bytes:?}").contains("ByteTokenizer"));
    assert!(format!("{:?}", Options::document()).contains("foreign_content: true"));
}

/// `parse_bytes` / `parse_reader`: the WHATWG sniffing with UTF-8 as the default, then the same
/// tokens as `parse` over the decoded text.
#[test]
fn bytes_and_readers_decode_then_tokenize() {
    for input in inputs() {
        let decoded = thicket_html::parse_bytes(input.as_bytes());
        let read = thicket_html::parse_reader(input.as_bytes()).unwrap();
        assert!(read == decoded, "parse_reader differs from parse_bytes");
        // (A corpus page whose <meta> names another encoding decodes differently.)
        if decoded.encoding != thicket_html::UTF_8 {
            continue;
        }
        assert!(decoded.text == input, "UTF-8 decoding changed the text");
        let via_bytes: Vec<Token<'_>> = decoded.tokens().collect();
        let direct: Vec<Token<'_>> = thicket_html::parse(&input).collect();
        assert!(via_bytes == direct, "tokens differ from parse's");
    }
    // A byte order mark wins and is removed; a <meta> names the encoding; else UTF-8.
    let d = thicket_html::parse_bytes(b"\xEF\xBB\xBF<meta charset=latin1>\xC3\xA9");
    assert_eq!(
        (d.encoding.name(), &*d.text),
        ("UTF-8", "<meta charset=latin1>\u{e9}")
    );
    let d = thicket_html::parse_bytes(b"<meta charset=latin1>\xE9");
    assert_eq!(
        (d.encoding.name(), &*d.text),
        ("windows-1252", "<meta charset=latin1>\u{e9}")
    );
    let d = thicket_html::parse_bytes(b"caf\xC3\xA9 \xFF");
    assert_eq!(
        (d.encoding.name(), &*d.text),
        ("UTF-8", "caf\u{e9} \u{fffd}")
    );
    let d = thicket_html::parse_bytes_with(b"caf\xE9", None, thicket_html::WINDOWS_1252);
    assert_eq!(&*d.text, "caf\u{e9}");
    let d = thicket_html::parse_bytes_with(b"caf\xE9", Some("iso-8859-2"), thicket_html::UTF_8);
    assert_eq!(d.encoding.name(), "ISO-8859-2");
    // Reading fails only when the reader does.
    struct Broken;
    impl std::io::Read for Broken {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("broken"))
        }
    }
    assert!(thicket_html::parse_reader(Broken).is_err());
}
