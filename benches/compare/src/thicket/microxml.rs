//! thicket-microxml in the comparison.

/// thicket-microxml: error recovery to a tree.
pub fn microxml_tree(text: &str, _bytes: &[u8]) -> Option<usize> {
    let parsed = thicket_microxml::parse(text);
    Some(parsed.root().children().count())
}
