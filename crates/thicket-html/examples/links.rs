//! Streams a page and lists every link (`<a href>`, `<link href>`, `<img src>`, ...) with its
//! line and column: bytes in 64 KiB chunks through the library's byte front end (encoding
//! sniffed, UTF-8 by default), the document-level mode (so a `<script>` that writes `<a href=...>`
//! gives no phantom link), lines counted as the text arrives. Memory stays a few chunks however
//! large the page.
//!
//! ```text
//! cargo run --release -p thicket-html --example links -- page.html
//! cargo run --release -p thicket-html --example links            # a generated 4 MB page
//! ```

use std::io::Read;

use thicket_html::{ByteTokenizer, LineCounter, NewlineRules, Options, Token, UTF_8};

/// A generated page of about 4 MB: links, scripts that mention links, inline SVG.
fn generated_page() -> Vec<u8> {
    let mut page = String::from("<!DOCTYPE html><html><head><title>Links</title>\n");
    let mut i = 0;
    while page.len() < 4 << 20 {
        page.push_str(&format!(
            "<p>Item {i}: <a href=\"/item/{i}\">details</a> &amp; <img src=\"/img/{i}.png\" alt=\"\">\n\
             <script>if (a < b) document.write('<a href=\"/not-a-link\">')</script>\n\
             <svg><a href=\"#{i}\"><style>a {{}}</style></a></svg></p>\n"
        ));
        i += 1;
    }
    page.into_bytes()
}

fn main() -> std::io::Result<()> {
    let mut source: Box<dyn Read> = match std::env::args().nth(1) {
        Some(path) => Box::new(std::fs::File::open(path)?),
        None => Box::new(std::io::Cursor::new(generated_page())),
    };
    let mut tok = ByteTokenizer::with_default_encoding(None, UTF_8, Options::document());
    let mut lines = LineCounter::new(NewlineRules::CrLf);
    let mut chunk = vec![0; 64 << 10];
    let (mut links, mut shown) = (0usize, 0usize);
    loop {
        let n = source.read(&mut chunk)?;
        // The text this chunk decoded to feeds the line counter before its tokens are pulled.
        if n == 0 {
            lines.push(tok.finish());
            lines.finish();
        } else {
            lines.push(tok.feed(&chunk[..n]));
        }
        while let Some(token) = tok.next_token() {
            let Token::StartTag(tag) = token else {
                continue;
            };
            let attribute = match &*tag.name {
                "a" | "link" | "area" => "href",
                "img" | "script" | "iframe" | "source" => "src",
                _ => continue,
            };
            if let Some(target) = tag.find_attribute(attribute) {
                links += 1;
                let line = lines.line(target.span.start).unwrap_or(0);
                if shown < 20 {
                    shown += 1;
                    let at = target.span.start;
                    println!("line {line}, byte {at}: <{}> {}", tag.name, target.value);
                }
            }
        }
        if n == 0 {
            break;
        }
    }
    let errors = tok.tokenizer().diagnostics().len() + tok.omitted_diagnostics();
    println!(
        "{links} links ({shown} shown), {errors} parse errors, encoding {}",
        tok.encoding().map_or("?", |(e, _)| e.name())
    );
    Ok(())
}
