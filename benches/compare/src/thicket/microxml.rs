//! thicket-microxml in the comparison.

/// thicket-microxml: error recovery to a tree.
pub fn microxml_tree(text: &str, _bytes: &[u8]) -> Option<usize> {
    let parsed = thicket_microxml::parse(text);
    Some(parsed.root().children().count())
}

/// thicket-microxml: the streaming tokenizer fed the whole text, tokens pulled with `next_token`.
pub fn microxml_tokens(text: &str, _bytes: &[u8]) -> Option<usize> {
    let mut tok = thicket_microxml::Tokenizer::new(thicket_microxml::Options::default());
    tok.feed(text);
    tok.finish();
    let mut n = 0usize;
    while let Some(token) = tok.next_token() {
        n += token.span().len();
    }
    Some(n)
}

/// thicket-microxml: `Tokens`, the `Iterator` over a whole `&str` (issue 15: at least the speed
/// of `next_token`).
pub fn microxml_tokens_iter(text: &str, _bytes: &[u8]) -> Option<usize> {
    Some(
        thicket_microxml::Tokens::new(text)
            .map(|t| t.span().len())
            .sum(),
    )
}
