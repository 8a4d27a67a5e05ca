//! Decodes one file to events, as the compare bench does (for profiling with callgrind).

use thicket_leafxml::Reader;

fn main() {
    let path = std::env::args().nth(1).unwrap_or_default();
    let bytes = std::fs::read(&path).unwrap_or_default();
    let mut reader = Reader::from_bytes(&bytes);
    let mut n = 0usize;
    loop {
        match reader.next_event() {
            Ok(Some(event)) => n += event.span.end - event.span.start,
            Ok(None) => break,
            Err(e) => {
                println!("error: {e}");
                break;
            }
        }
    }
    println!("{n}");
}
