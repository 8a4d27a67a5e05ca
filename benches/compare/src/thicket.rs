//! Thicket's parsers, doing the work the issues set targets for.

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

/// thicket-xml5: the tokenizer over a whole `&str` (tokens borrow from it where unchanged).
pub fn xml5_tokens(text: &str, _bytes: &[u8]) -> Option<usize> {
    let mut tok = thicket_xml5::Tokenizer::new(text, thicket_xml5::Options::default());
    let mut n = 0usize;
    while let Some(token) = tok.next_token() {
        n += token.span.end - token.span.start;
    }
    Some(n)
}

/// thicket-xml5: tokenizer and tree construction, with namespaces.
pub fn xml5_tree(text: &str, _bytes: &[u8]) -> Option<usize> {
    let (doc, diagnostics) = thicket_xml5::parse(text, thicket_xml5::Options::default());
    Some(diagnostics.len() + usize::from(doc.root_element().is_some()))
}

/// thicket-microxml: error recovery to a tree.
pub fn microxml_tree(text: &str, _bytes: &[u8]) -> Option<usize> {
    let parsed = thicket_microxml::parse(text);
    Some(parsed.root.children.len())
}

/// thicket-leafxml: strict decoding of the bytes to events (NFC, namespaces, full validation).
/// A document LeafXML rejects is reported as rejected.
pub fn leafxml_events(_text: &str, bytes: &[u8]) -> Option<usize> {
    let mut reader = thicket_leafxml::Reader::from_bytes(bytes);
    let mut n = 0usize;
    while let Some(event) = reader.next_event().ok()? {
        n += event.span.end - event.span.start;
    }
    Some(n)
}
