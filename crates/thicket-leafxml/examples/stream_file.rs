//! Decodes one file from an `io::Read` source (as `thicket check -d leafxml` does), for
//! measuring peak memory with `/usr/bin/time -v`:
//! `stream_file PATH [MAX_TOKEN_LEN]` prints the number of events and the bytes of text the
//! reader held at the end, or the error.

use thicket_leafxml::{Limits, Reader};

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_default();
    let mut limits = Limits::none();
    if let Some(max) = args.next().and_then(|m| m.parse().ok()) {
        limits = limits.with_max_token_len(max);
    }
    let file = match std::fs::File::open(&path) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    let mut reader = Reader::new(file).with_limits(limits);
    let mut events = 0usize;
    loop {
        match reader.next_event() {
            Ok(Some(_)) => events += 1,
            Ok(None) => break,
            Err(e) => {
                println!("error after {events} events: {e}");
                return;
            }
        }
    }
    println!("{events} events, {} bytes buffered", reader.buffered());
}
