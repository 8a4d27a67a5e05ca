//! thicket-leafxml in the comparison.

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
