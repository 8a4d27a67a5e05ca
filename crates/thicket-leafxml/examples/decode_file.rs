//! Decodes one file to events, as the compare bench does (for profiling with callgrind:
//! `--toggle-collect=decode_file::decode` counts the decoding only).
//!
//! `decode_file FILE [TIMES] [general]`: `general` turns the fast paths off
//! (`Reader::without_fast_paths`), to compare the general code's instruction count with theirs.

use thicket_leafxml::{EventKind, Reader};

/// Decodes `bytes` to events as the compare bench does, reading every name, attribute value
/// and text.
#[inline(never)]
fn decode(bytes: &[u8], general: bool) -> Result<usize, thicket_leafxml::Error> {
    let mut reader = Reader::from_bytes(bytes);
    if general {
        reader = reader.without_fast_paths();
    }
    let mut n = 0usize;
    while let Some(event) = reader.next_event()? {
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
    Ok(n)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_default();
    // An optional repeat count, for sampling profilers.
    let times: usize = args.next().and_then(|t| t.parse().ok()).unwrap_or(1);
    let general = args.next().as_deref() == Some("general");
    let bytes = std::fs::read(&path).unwrap_or_default();
    for _ in 1..times {
        std::hint::black_box(decode(std::hint::black_box(&bytes), general).ok());
    }
    match decode(&bytes, general) {
        Ok(n) => println!("{n}"),
        Err(e) => println!("error: {e}"),
    }
}
