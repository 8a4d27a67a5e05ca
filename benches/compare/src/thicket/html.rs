//! thicket-html in the comparison.

/// thicket-html: fully materialized tokens (names, attributes, text), whole input in one feed.
pub fn html(text: &str, _bytes: &[u8]) -> Option<usize> {
    use thicket_html::{Token, Tokenizer};
    let mut tok = Tokenizer::new();
    tok.feed(text);
    tok.finish();
    let mut n = 0usize;
    while let Some(token) = tok.next_token() {
        n += match token {
            Token::StartTag(t) => {
                t.name.len()
                    + t.attributes
                        .iter()
                        .map(|a| a.name.len() + a.value.len())
                        .sum::<usize>()
            }
            Token::EndTag(t) => t.name.len(),
            Token::Text { text, .. } => text.len(),
            Token::Comment { data, .. } => data.len(),
            _ => 1,
        };
    }
    Some(n)
}
