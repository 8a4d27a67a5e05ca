//! Runs the tokenizer (`tokens`), the tree builder (`tree`) or the streaming tree builder fed
//! 64 KiB chunks (`stream`) over one file, for profilers:
//! `cargo run --release --example profile -- tokens FILE [TIMES]`.

fn main() {
    let mut args = std::env::args().skip(1);
    let mode = args.next().unwrap_or_default();
    let path = args.next().unwrap_or_default();
    let times: usize = args.next().and_then(|t| t.parse().ok()).unwrap_or(1);
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    // PROFILE_WARM=FILE: parse another file once first, as a compare run over the corpus does
    // (the allocator's state after a large document).
    if let Ok(warm) = std::env::var("PROFILE_WARM") {
        let warm = std::fs::read_to_string(warm).unwrap_or_default();
        run(&mode, &warm);
    }
    let n: usize = (0..times).map(|_| run(&mode, &text)).sum();
    println!("{n}");
}

fn run(mode: &str, text: &str) -> usize {
    match mode {
        "tree" => {
            let (doc, diagnostics) = thicket_xml5::parse(text, thicket_xml5::Options::default());
            diagnostics.len() + usize::from(doc.root_element().is_some())
        }
        "stream" => {
            let mut parser = thicket_xml5::Parser::new(thicket_xml5::Options::default());
            let mut rest = text;
            while !rest.is_empty() {
                let mut cut = rest.len().min(1 << 16);
                while !rest.is_char_boundary(cut) {
                    cut += 1;
                }
                parser.feed(&rest[..cut]);
                rest = &rest[cut..];
            }
            let (doc, diagnostics) = parser.finish();
            diagnostics.len() + usize::from(doc.root_element().is_some())
        }
        _ => {
            let mut tok = thicket_xml5::Tokenizer::new(text, thicket_xml5::Options::default());
            let mut n = 0usize;
            while let Some(token) = tok.next_token() {
                n += token.span.end - token.span.start;
            }
            n
        }
    }
}
