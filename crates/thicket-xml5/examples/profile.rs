//! Runs the tokenizer (`tokens`) or the tree builder (`tree`) over one file, for profilers:
//! `cargo run --release --example profile -- tokens FILE`.

fn main() {
    let mut args = std::env::args().skip(1);
    let mode = args.next().unwrap_or_default();
    let path = args.next().unwrap_or_default();
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let n = match mode.as_str() {
        "tree" => {
            let (doc, diagnostics) = thicket_xml5::parse(&text, thicket_xml5::Options::default());
            diagnostics.len() + usize::from(doc.root_element().is_some())
        }
        _ => {
            let mut tok = thicket_xml5::Tokenizer::new(&text, thicket_xml5::Options::default());
            let mut n = 0usize;
            while let Some(token) = tok.next_token() {
                n += token.span.end - token.span.start;
            }
            n
        }
    };
    println!("{n}");
}
