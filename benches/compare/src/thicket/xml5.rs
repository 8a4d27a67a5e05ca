//! thicket-xml5 in the comparison.

/// thicket-xml5: the tokenizer over a whole `&str` (tokens borrow from it where unchanged).
pub fn xml5_tokens(text: &str, _bytes: &[u8]) -> Option<usize> {
    let mut tok = thicket_xml5::Tokenizer::with_options(text, thicket_xml5::Options::default());
    let mut n = 0usize;
    while let Some(token) = tok.next_token() {
        n += token.span.end - token.span.start;
    }
    Some(n)
}

/// thicket-xml5: the same tokenizer through its `Iterator` (issue 15: the same speed as
/// `next_token`, which it wraps).
pub fn xml5_tokens_iter(text: &str, _bytes: &[u8]) -> Option<usize> {
    let tok = thicket_xml5::Tokenizer::new(text);
    Some(tok.map(|token| token.span.end - token.span.start).sum())
}

/// thicket-xml5: tokenizer and tree construction, with namespaces.
pub fn xml5_tree(text: &str, _bytes: &[u8]) -> Option<usize> {
    let parsed = thicket_xml5::parse_with(text, thicket_xml5::Options::default());
    Some(parsed.diagnostics.len() + usize::from(parsed.document.root_element().is_some()))
}
