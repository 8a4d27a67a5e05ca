//! thicket-html in the comparison.

/// thicket-html: fully materialized tokens (names, attributes, text), whole input in one feed.
pub fn html(text: &str, _bytes: &[u8]) -> Option<usize> {
    let mut tok = thicket_html::Tokenizer::new();
    tok.feed(text);
    tok.finish();
    let mut n = 0usize;
    while let Some(token) = tok.next_token() {
        n += weight(&token);
    }
    Some(n)
}

/// thicket-html through `Tokens`, its `Iterator` over a whole `&str` (the same options as
/// [`html`], so the same work: issue 15 wants it as fast as `next_token`).
pub fn html_iter(text: &str, _bytes: &[u8]) -> Option<usize> {
    let tokens = thicket_html::parse_with(text, thicket_html::Options::default());
    Some(tokens.map(|t| weight(&t)).sum())
}

/// What the comparison reads of a token: its names, attributes and text.
#[inline]
fn weight(token: &thicket_html::Token<'_>) -> usize {
    use thicket_html::Token;
    match token {
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
    }
}
