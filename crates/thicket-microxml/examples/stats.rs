//! Prints diagnostics counts per code for a file (a development aid).

use std::collections::BTreeMap;

fn main() {
    let path = std::env::args().nth(1).expect("usage: stats FILE");
    let text = std::fs::read_to_string(path).expect("readable UTF-8 file");
    let start = std::time::Instant::now();
    let parsed = thicket_microxml::parse_with(&text, thicket_microxml::Options::upstream());
    let elapsed = start.elapsed();
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for d in &parsed.diagnostics {
        *counts.entry(d.code.as_str()).or_default() += 1;
    }
    println!("{elapsed:?} {counts:?}");
}
