//! Parses a file a number of times with the default options (a profiling aid:
//! `valgrind --tool=callgrind target/release/examples/microxml_profile FILE [TIMES]`).

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: profile FILE [TIMES]");
    let times: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let text = std::fs::read_to_string(path).expect("readable UTF-8 file");
    let mut total = 0;
    for _ in 0..times {
        let parsed = thicket_microxml::parse(&text);
        total += parsed.root().children().count() + parsed.diagnostics.len();
    }
    println!("{total}");
}
