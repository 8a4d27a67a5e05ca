//! The direct paths beside the states (whole tags, references, comments) against the plain
//! states: fed one character at a time the tokenizer never holds enough input for a direct path,
//! so every document must give the same tokens (adjacent text joined) and the same errors both
//! ways. Run on every corpus document when the corpus is present, with and without tight limits
//! (the direct paths leave a tag over a limit to the states), and on documents with processing
//! instructions (which the direct paths leave to the states at `<?`).

use thicket_html::{Options, Token, Tokenizer};
use thicket_input::Limits;

/// Tight limits that real documents reach: long attribute values and many attributes.
fn tight() -> Limits {
    Limits::none()
        .with_max_attributes(3)
        .with_max_name_len(8)
        .with_max_value_len(24)
}

/// Tokens (adjacent text joined, spans kept) and errors of `chunks` fed in order.
fn tokens(
    chunks: &[&str],
    switch_by_tag_name: bool,
    limits: Limits,
) -> (Vec<Token<'static>>, Vec<String>) {
    let mut tok = Tokenizer::with_options(Options {
        switch_by_tag_name,
        limits,
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
        for (switch, limits) in [
            (false, Limits::none()),
            (true, Limits::none()),
            (true, tight()),
        ] {
            let whole = tokens(&[text], switch, limits);
            let by_char = tokens(&chars, switch, limits);
            assert!(
                whole == by_char,
                "{} (switch by tag name: {switch}, limits: {limits:?}): the direct paths differ \
                 from the states",
                e.path().display()
            );
        }
    }
    assert!(read > 0, "corpus present but unreadable");
}

#[test]
fn processing_instructions_between_direct_path_shapes() {
    let doc = "<!DOCTYPE html><?xml-stylesheet href=a?><p class=x>a &amp; b<?pi data?>\
               <br/><?t?d??><a href=\"x&amp;y\">l</a><?1?><!-- c --><?x y>z<?a.b><p id=\"q\"><?";
    let chars: Vec<&str> = doc
        .char_indices()
        .map(|(i, c)| &doc[i..i + c.len_utf8()])
        .collect();
    for limits in [Limits::none(), tight()] {
        let whole = tokens(&[doc], true, limits);
        assert_eq!(whole, tokens(&chars, true, limits));
        let pis = whole
            .0
            .iter()
            .filter(|t| matches!(t, Token::ProcessingInstruction { .. }))
            .count();
        assert_eq!(pis, 3, "{:?}", whole.0);
    }
}
