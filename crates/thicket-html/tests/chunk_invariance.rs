//! Property: however the input is split into chunks, the tokens (with adjacent text runs joined)
//! and the errors are the same, the spans tile the input and the errors are in source order;
//! with the 2026 processing instructions or the legacy reading of `<?`, and with or without
//! tight limits.

use proptest::prelude::*;
use thicket_html::{Options, State, Token, Tokenizer};
use thicket_input::Limits;

/// Tokenizes `input` split at `cuts` (byte positions, rounded down to char boundaries); returns a
/// normalized dump of tokens and errors. `mode`: see the property below.
fn dump(input: &str, cuts: &[usize], state: State, mode: u8) -> (Vec<String>, Vec<String>) {
    let mut tok = Tokenizer::with_options(Options {
        initial_state: Some(state),
        last_start_tag: Some("script".into()),
        legacy_processing_instructions: mode & 1 != 0,
        limits: if mode & 2 != 0 {
            Limits::none()
                .with_max_attributes(2)
                .with_max_name_len(3)
                .with_max_value_len(2)
                .with_max_diagnostics(5)
        } else {
            Limits::none()
        },
        ..Options::default()
    });
    let chunks = thicket_testkit::chunks::split_at_positions(input, cuts);
    let mut out: Vec<String> = Vec::new();
    let mut at = 0;
    let mut pull = |tok: &mut Tokenizer, out: &mut Vec<String>| {
        while let Some(t) = tok.next_token() {
            let s = t.span();
            assert_eq!(s.start, at, "spans tile the input");
            at = s.end;
            let line = match &t {
                Token::Text { text, .. } => {
                    if let Some(last) = out.last_mut()
                        && last.starts_with("T:")
                    {
                        last.push_str(text);
                        continue;
                    }
                    format!("T:{text}")
                }
                Token::Discarded { .. } => continue,
                other => format!("{other:?}").replace(&format!("{s:?}"), ""),
            };
            out.push(line);
        }
    };
    for (i, c) in chunks.into_iter().enumerate() {
        if mode & 4 != 0 && i % 3 != 1 {
            // Lent (`feed_lent`, no copy when nothing is held), then owned again: the chunk's
            // own string is gone before the next feed.
            let chunk = c.to_owned();
            let mut lent: Tokenizer<'_> = tok;
            lent.feed_lent(&chunk);
            pull(&mut lent, &mut out);
            tok = lent.into_owned();
        } else {
            tok.feed(c);
            pull(&mut tok, &mut out);
        }
    }
    tok.finish();
    pull(&mut tok, &mut out);
    assert_eq!(at, input.len());
    let starts: Vec<usize> = tok.diagnostics().iter().map(|d| d.span.start).collect();
    assert!(
        starts.is_sorted(),
        "diagnostics out of source order: {starts:?}"
    );
    let errors = tok
        .diagnostics()
        .iter()
        .map(|d| format!("{} {:?}", d.code, d.span))
        .collect();
    (out, errors)
}

fn markup() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "<",
        ">",
        "</",
        "<!",
        "<!--",
        "-->",
        "--",
        "-",
        "!",
        "?",
        "/",
        "=",
        "'",
        "\"",
        "&",
        "&amp",
        "&amp;",
        "&notin",
        "&#",
        "&#x",
        "41",
        ";",
        "a",
        "B",
        "script",
        "<script>",
        "</script>",
        "title",
        "<![CDATA[",
        "]]>",
        "]",
        "DOCTYPE",
        " PUBLIC ",
        " SYSTEM ",
        "\r",
        "\n",
        "\r\n",
        "\t",
        " ",
        "\0",
        "\u{b}",
        "\u{fffe}",
        "é",
        "😀",
        " a='v'",
        " b=\"w x\"",
        " a=\"&amp;\"",
        "<p c='1' d=\"2\">",
        " e='\r'",
        "/>",
        "x=y",
        "<a b=c>",
        " u=v ",
        " u=v/",
        " k=a/b>",
        " k=a`b ",
        " k=v\r",
        " k=\u{9f}v ",
        "<i j=k l=m>",
        " j=x&y ",
        // Shapes the direct paths take whole (and near misses they leave to the states).
        "<div>",
        "</div>",
        "</p >",
        "</p a>",
        "<br/>",
        "<br />",
        "<br/ >",
        "<img src=a alt>",
        "<td nowrap class=x>",
        "<x a=1 b c=''>",
        "<p id=\"a\" id=\"b\">",
        "<a href=\"x&amp;y\">",
        "<a href='&lt;&#60;&#x3c;'>",
        "<a href=x&amp;y>",
        "<a t=\"&notit;&noti\">",
        "<a t=\"&amp=\">",
        "<e f=\"g\"h>",
        "<A B=C>",
        "<a b =  c>",
        "<a b= \"\">",
        "&lt;",
        "&lt",
        "&#123;",
        "&#x1F;",
        "&#x1f600;",
        "&#0;",
        "&#x110000;",
        "&notit;",
        "&AMP;",
        "&ampx",
        "&zz;",
        "&#;",
        "<!-- c -->",
        "<!---->",
        "<!-- a -- b -->",
        "<!-- <!-- -->",
        "text ",
        "&&",
        "& ",
        "&lid=",
        "&lid;",
        "<a href=\"?a=1&lpos=2&b&c;\">",
        // Processing instructions (2026) and their near misses.
        "<?",
        "?>",
        "<?pi ",
        "<?t?d?>",
        "<?xml",
        "<?XML-Stylesheet ",
        "<?xmlx",
        "<?a-b_C9",
        "<?1",
        "<?a.b>",
        "<?>",
        "_",
        "<a t='&ampx &amp. &notx=&noti'>",
        "<a t=\"&gt&lt;&#x20&&#\">",
    ]);
    prop::collection::vec(pieces, 0..24).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn chunking_does_not_change_tokens_or_errors(
        input in markup(),
        cuts in prop::collection::vec(0usize..200, 0..6),
        state in prop::sample::select(vec![
            State::Data, State::Rcdata, State::Rawtext, State::ScriptData, State::Plaintext,
            State::CdataSection,
        ]),
        // Bit 0: legacy processing instructions; bit 1: tight limits; bit 2: chunks lent
        // (`feed_lent`, two of every three).
        mode in 0u8..8,
    ) {
        let whole = dump(&input, &[], state, mode);
        let split = dump(&input, &cuts, state, mode);
        prop_assert_eq!(&whole, &split);
        // Fed one byte position at a time the fast paths (whole attributes at once, memchr over
        // text runs) never see enough input, so this compares them with the plain states.
        let every: Vec<usize> = (0..=input.len()).collect();
        let by_char = dump(&input, &every, state, mode);
        prop_assert_eq!(whole, by_char);
    }
}

/// A tokenizer still borrowing a chunk keeps only what it needs of it when it is fed: the
/// rest of the chunk is not copied.
#[test]
fn feeding_a_borrowing_tokenizer_copies_only_what_it_needs() {
    let chunk = format!("{}<!--", "a".repeat(100_000));
    let mut t: Tokenizer<'_> = Tokenizer::new();
    t.feed_lent(&chunk);
    while t.next_token().is_some() {}
    t.feed("x");
    assert_eq!(t.buffered(), 5); // `<!--x`
    t.feed_lent("-->");
    let mut t = t.into_owned();
    t.finish();
    let mut comments = 0;
    while let Some(token) = t.next_token() {
        comments += usize::from(matches!(token, Token::Comment { .. }));
    }
    assert_eq!(comments, 1);
}
