//! Runs the tokenizer (`tokens`), the tree builder (`tree`), the streaming tree builder fed
//! 64 KiB chunks (`stream`) or the same without a tree (`check`), or the streaming tokenizer fed
//! 64 KiB chunks with owned (`events`) or lent (`lent`) events over one file, for profilers:
//! `cargo run --release --example xml5_profile -- tokens FILE [TIMES]`. Prints the fastest round in MB/s
//! on stderr.

fn main() {
    let mut args = std::env::args().skip(1);
    let mode = args.next().unwrap_or_default();
    let path = args.next().unwrap_or_default();
    let times: usize = args.next().and_then(|t| t.parse().ok()).unwrap_or(1);
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    // PROFILE_WARM=FILE: parse another file first (PROFILE_WARM_TIMES times, default once), as
    // a compare run over the corpus does (the allocator's state after a large document).
    if let Ok(warm) = std::env::var("PROFILE_WARM") {
        let warm = std::fs::read_to_string(warm).unwrap_or_default();
        let n: usize = std::env::var("PROFILE_WARM_TIMES")
            .ok()
            .and_then(|t| t.parse().ok())
            .unwrap_or(1);
        for _ in 0..n {
            run(&mode, &warm);
        }
    }
    // The fastest round, as the compare bench reports it, on stderr.
    let mut best = f64::INFINITY;
    let mut n = 0usize;
    for _ in 0..times {
        let t = std::time::Instant::now();
        n = n.wrapping_add(run(&mode, &text));
        best = best.min(t.elapsed().as_secs_f64());
    }
    eprintln!("{:.1} MB/s", text.len() as f64 / 1e6 / best);
    println!("{n}");
}

fn run(mode: &str, text: &str) -> usize {
    match mode {
        "tree" => {
            let thicket_xml5::Parsed {
                document: doc,
                diagnostics,
                ..
            } = thicket_xml5::parse_with(text, thicket_xml5::Options::default());
            diagnostics.len() + usize::from(doc.root_element().is_some())
        }
        "stream" | "check" => {
            let options = thicket_xml5::Options::default();
            let mut parser = if mode == "check" {
                thicket_xml5::Parser::without_tree(options)
            } else {
                thicket_xml5::Parser::new(options)
            };
            let mut rest = text;
            while !rest.is_empty() {
                let mut cut = rest.len().min(1 << 16);
                while !rest.is_char_boundary(cut) {
                    cut += 1;
                }
                parser.feed(&rest[..cut]);
                rest = &rest[cut..];
            }
            let thicket_xml5::Parsed {
                document: doc,
                diagnostics,
                ..
            } = parser.finish();
            diagnostics.len() + usize::from(doc.root_element().is_some())
        }
        "events" | "lent" => {
            let mut tok = thicket_xml5::Tokenizer::streaming(thicket_xml5::Options::default());
            let mut n = 0usize;
            let mut count = |e: thicket_xml5::Event<'_>| match e {
                thicket_xml5::Event::Token(t) => n += t.span.end - t.span.start,
                thicket_xml5::Event::Diagnostic(_) => n += 1,
            };
            let mut rest = text;
            loop {
                let mut cut = rest.len().min(1 << 16);
                while !rest.is_char_boundary(cut) {
                    cut += 1;
                }
                if cut == 0 {
                    tok.finish();
                } else {
                    tok.feed(&rest[..cut]);
                    rest = &rest[cut..];
                }
                if mode == "lent" {
                    while let Some(e) = tok.next_lent_event() {
                        count(e);
                    }
                } else {
                    while let Some(e) = tok.next_event() {
                        count(e);
                    }
                }
                if cut == 0 {
                    break;
                }
            }
            n
        }
        _ => {
            let mut tok =
                thicket_xml5::Tokenizer::with_options(text, thicket_xml5::Options::default());
            let mut n = 0usize;
            while let Some(token) = tok.next_token() {
                n += token.span.end - token.span.start;
            }
            n
        }
    }
}
