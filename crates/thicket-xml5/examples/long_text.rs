//! Feeds one long text node, `<r>` + MEGABYTES MB of text + `</r>`, in 64 KiB chunks made on
//! the fly (the input is never held whole) to the streaming tokenizer (`tokens`) or the parser
//! without a tree (`check`), for measuring peak memory:
//! `/usr/bin/time -v target/release/examples/long_text check 60`. Prints how many text bytes
//! came out while the run was being fed (before its end tag) and in all.

fn main() {
    let mut args = std::env::args().skip(1);
    let mode = args.next().unwrap_or_default();
    let megabytes: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(60);
    let line = "Lorem ipsum dolor sit amet, consectetur adipiscing elit &amp; more.\n";
    let chunk = line.repeat((1 << 16) / line.len());
    let chunks = megabytes * 1_000_000 / chunk.len();
    let options = thicket_xml5::Options::default();
    match mode.as_str() {
        "check" => {
            let mut parser = thicket_xml5::Parser::without_tree(options);
            parser.feed("<r>");
            for _ in 0..chunks {
                parser.feed(&chunk);
            }
            parser.feed("</r>");
            let parsed = parser.finish();
            println!("{} diagnostics", parsed.diagnostics.len());
        }
        _ => {
            let mut t = thicket_xml5::Tokenizer::streaming(options);
            let count = |t: &mut thicket_xml5::Tokenizer<'static>| {
                let mut text = 0;
                while let Some(token) = t.next_token() {
                    if let thicket_xml5::TokenKind::Text(s) = token.kind {
                        text += s.len();
                    }
                }
                text
            };
            t.feed("<r>");
            let mut before = 0;
            for _ in 0..chunks {
                t.feed(&chunk);
                before += count(&mut t);
            }
            t.feed("</r>");
            t.finish();
            let all = before + count(&mut t);
            println!("{before} text bytes before the end of the run, {all} in all");
        }
    }
}
