//! The direct paths beside the states (whole tags, references, comments) against the plain
//! states: fed one character at a time the tokenizer never holds enough input for a direct path,
//! so every document must give the same tokens (adjacent text joined) and the same errors both
//! ways. Run on every corpus document when the corpus is present.

use thicket_html::{Options, Token, Tokenizer};

/// Tokens (adjacent text joined, spans kept) and errors of `chunks` fed in order.
fn tokens(chunks: &[&str], switch_by_tag_name: bool) -> (Vec<Token<'static>>, Vec<String>) {
    let mut tok = Tokenizer::with_options(Options {
        switch_by_tag_name,
        ..Options::default()
    });
    let mut out: Vec<Token<'static>> = Vec::new();
    let pull = |tok: &mut Tokenizer, out: &mut Vec<Token<'static>>| {
        while let Some(t) = tok.next_token() {
            if let (
                Token::Text { text, span },
                Some(Token::Text {
                    text: last,
                    span: ls,
                }),
            ) = (&t, out.last_mut())
                && ls.end == span.start
            {
                last.to_mut().push_str(text);
                ls.end = span.end;
                continue;
            }
            out.push(t.into_owned());
        }
    };
    for c in chunks {
        tok.feed(c);
        pull(&mut tok, &mut out);
    }
    tok.finish();
    pull(&mut tok, &mut out);
    let errors = tok
        .diagnostics()
        .iter()
        .map(|d| format!("{} {:?}", d.code, d.span))
        .collect();
    (out, errors)
}

#[test]
fn corpus_whole_equals_char_by_char() {
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
        let chars: Vec<&str> = text
            .char_indices()
            .map(|(i, c)| &text[i..i + c.len_utf8()])
            .collect();
        // Also with the switch to RAWTEXT, script data... after `<style>`, `<script>`...
        for switch in [false, true] {
            let whole = tokens(&[text], switch);
            let by_char = tokens(&chars, switch);
            assert!(
                whole == by_char,
                "{} (switch by tag name: {switch}): the direct paths differ from the states",
                e.path().display()
            );
        }
    }
    assert!(read > 0, "corpus present but unreadable");
}
