//! Decodes one file to events, as the compare bench does (for profiling with callgrind:
//! `--toggle-collect=decode_file::decode` counts the decoding only).

use thicket_leafxml::Reader;

/// Decodes `bytes` to events as the compare bench does; the sum of the event spans.
#[inline(never)]
fn decode(bytes: &[u8]) -> Result<usize, thicket_leafxml::Error> {
    let mut reader = Reader::from_bytes(bytes);
    let mut n = 0usize;
    while let Some(event) = reader.next_event()? {
        n += event.span.end - event.span.start;
    }
    Ok(n)
}

fn main() {
    let path = std::env::args().nth(1).unwrap_or_default();
    let bytes = std::fs::read(&path).unwrap_or_default();
    match decode(&bytes) {
        Ok(n) => println!("{n}"),
        Err(e) => println!("error: {e}"),
    }
}
