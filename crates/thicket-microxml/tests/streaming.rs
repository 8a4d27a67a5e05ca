//! Streaming guarantees: text is handed out as soon as the spec makes it certain, in `Data`
//! pieces that join to the whole-input token, and a long text run is never held whole.

use thicket_input::Span;
use thicket_microxml::{Checker, Options, Token, Tokenizer};
use thicket_testkit::runners::microxml::{join_data, tokenize_chunks, tokenize_pieces};

/// The tokens available after feeding `chunk` (no finish).
fn pull(t: &mut Tokenizer) -> Vec<Token<'static>> {
    let mut out = Vec::new();
    while let Some(tok) = t.next_token() {
        out.push(tok.into_owned());
    }
    out
}

fn data(text: &str, start: usize, end: usize) -> Token<'static> {
    Token::Data {
        text: text.to_owned().into(),
        span: Span::new(start, end),
    }
}

#[test]
fn text_before_a_lone_less_than_comes_out_before_the_next_feed() {
    let mut t = Tokenizer::new(Options::default());
    t.feed("abc<");
    assert_eq!(pull(&mut t), [data("abc", 0, 3)]);
    t.feed("b/>");
    let rest = pull(&mut t);
    assert!(matches!(&rest[0], Token::StartTagOpen { name, .. } if name == "b"));
}

#[test]
fn what_may_continue_waits_and_nothing_else_does() {
    // A reference that may still end with `;`, a CR that may be the first half of CR LF, an
    // end-tag's name: the text before each is out, the construct itself waits.
    for (first, out, second) in [
        ("<a>x&am", "x", "p;</a>"),
        ("<a>x\r", "x", "\ny</a>"),
        ("<a>x</a", "x", "></b>"),
        ("<a>x<!-- c", "x", " -->y</a>"),
    ] {
        let mut t = Tokenizer::new(Options::default());
        t.feed(first);
        let got = pull(&mut t);
        let texts: Vec<&str> = got
            .iter()
            .filter_map(|tok| match tok {
                Token::Data { text, .. } => Some(&**text),
                _ => None,
            })
            .collect();
        assert_eq!(texts, [out], "{first:?}");
        t.feed(second);
        t.finish();
        pull(&mut t);
        let whole = format!("{first}{second}");
        assert_eq!(
            tokenize_chunks(&[first, second], Options::default()),
            tokenize_chunks(&[&whole], Options::default()),
            "{whole:?}"
        );
    }
}

#[test]
fn pieces_of_one_run_join_to_the_whole_token() {
    // A comment between two pieces is inside the next piece's span, as it is inside the span
    // of the whole token.
    let text = "<a>ab<!-- c -->cd&amp;e\r\nf</a>";
    let whole = tokenize_pieces(&[text], Options::default()).0;
    let chunks = thicket_testkit::chunks::chars(text);
    let pieces = tokenize_pieces(&chunks, Options::default()).0;
    assert!(pieces.len() > whole.len());
    assert_eq!(join_data(pieces), whole);
    assert!(whole.contains(&data("abcd&e\nf", 3, 26)));
}

#[test]
fn eight_mebibytes_of_text_come_out_before_finish() {
    let chunk = "some text > and more, ".repeat(3000);
    let total = 8 << 20;
    let mut fed = 0;
    let mut t = Tokenizer::new(Options::default());
    let mut c = Checker::new(Options::default());
    t.feed("<r>");
    c.feed("<r>");
    let (mut out, mut checked) = (0, 0);
    while fed < total {
        t.feed(&chunk);
        c.feed(&chunk);
        fed += chunk.len();
        while let Some(tok) = t.next_token() {
            if let Token::Data { text, .. } = tok {
                out += text.len();
            }
        }
        while let Some(tok) = c.next_token() {
            if let Token::Data { text, .. } = tok {
                checked += text.len();
            }
        }
        // Each feed's text is out before the next feed.
        assert_eq!((out, checked), (fed, fed));
        assert!(
            t.diagnostics().len() < 4000,
            "diagnostics are released as text goes out"
        );
        t.take_diagnostics();
        c.take_diagnostics();
    }
    t.finish();
    assert!(out >= total);
}

#[test]
fn top_level_text_in_pieces_is_one_diagnostic() {
    // Text outside the root is reported once per run, with the run's span, however the run
    // was cut; the checker's diagnostics keep source order around it.
    let text = "x>y z<a/>w";
    let whole = thicket_microxml::parse(text).diagnostics;
    for chunks in [
        thicket_testkit::chunks::chars(text),
        vec!["x>", "y z<a/>", "w"],
    ] {
        let (_, ds) =
            thicket_testkit::runners::microxml::check_chunks_streaming(&chunks, Options::default())
                .0;
        assert_eq!(ds, whole, "{chunks:?}");
    }
    let codes: Vec<&str> = whole.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(
        codes,
        [
            "text-outside-root",
            "unescaped-greater-than",
            "text-outside-root"
        ]
    );
    assert_eq!(whole[0].span, Span::new(0, 5));
}
