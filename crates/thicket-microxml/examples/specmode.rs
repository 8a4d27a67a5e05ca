//! Lists the microxml-er cases whose tree differs between `Options::spec()` and
//! `Options::upstream()` (a development aid).

fn main() {
    let path = std::env::args()
        .nth(1)
        .expect("usage: specmode tests.rust-safe.json");
    let text = std::fs::read_to_string(path).expect("readable");
    for line in text.lines() {
        let line = line.trim();
        if let Some(src) = line.strip_prefix("\"source\": ") {
            let src: String = serde_json::from_str(src.trim_end_matches(',')).expect("json string");
            let a = thicket_microxml::parse_with(&src, thicket_microxml::Options::spec());
            let b = thicket_microxml::parse_with(&src, thicket_microxml::Options::upstream());
            if a.document.to_element() != b.document.to_element() {
                println!(
                    "{src:?}\n  spec     {}\n  upstream {}",
                    thicket_microxml::to_json(&a.document.to_element()),
                    thicket_microxml::to_json(&b.document.to_element())
                );
            }
        }
    }
}
