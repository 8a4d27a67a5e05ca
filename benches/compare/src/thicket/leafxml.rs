//! thicket-leafxml in the comparison.

use thicket_leafxml::{EventKind, Reader};

/// thicket-leafxml: strict decoding of the bytes to events (NFC, namespaces, full validation).
/// A document LeafXML rejects is reported as rejected. Like the quick-xml adapter, it reads
/// every attribute value (local and external, with its namespace) and every text.
pub fn leafxml_events(_text: &str, bytes: &[u8]) -> Option<usize> {
    let mut reader = Reader::from_bytes(bytes);
    let mut n = 0usize;
    while let Some(event) = reader.next_event().ok()? {
        match &event.kind {
            EventKind::Start {
                namespace,
                local_name,
                attributes,
            } => {
                n += 1 + namespace.as_deref().map_or(0, str::len) + local_name.len();
                for (_, value) in attributes.local() {
                    n += value.len();
                }
                for (ns, _, value) in attributes.external() {
                    n += ns.len() + value.len();
                }
            }
            EventKind::Text(t) => n += t.len(),
            EventKind::End { .. } => n += 1,
            // Only with `Reader::with_markup_events` (off here).
            _ => {}
        }
    }
    Some(n)
}
