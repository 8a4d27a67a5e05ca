//! A small checker built on thicket-input alone: decode a file of any encoding (WHATWG
//! sniffing, UTF-8 by default), report tabs and trailing whitespace as diagnostics with codes of
//! its own, and show them with their lines as the `thicket` command does.
//!
//! `cargo run -p thicket-input --example lint_whitespace [FILE]` (without a file: a built-in text).

use thicket_input::front::{Sniff, SniffingDecoder};
use thicket_input::{Diagnostic, DiagnosticRenderer, Encoding, Span};

thicket_input::error_codes! {
    /// What this checker reports.
    pub enum Code {
        /// A tab character.
        Tab = "tab", "a tab character (indent with spaces)";
        /// Spaces or tabs before a line break or the end.
        TrailingWhitespace = "trailing-whitespace", "whitespace at the end of the line";
    }
}

const TEXT: &str = "<ul>\n\t<li>one</li>  \n  <li>two</li>\n</ul>\t";

fn main() -> std::io::Result<()> {
    let (name, bytes) = match std::env::args_os().nth(1) {
        Some(path) => (path.to_string_lossy().into_owned(), std::fs::read(&path)?),
        None => ("list.html".to_owned(), TEXT.as_bytes().to_vec()),
    };
    // A BOM, then a `<meta charset>` in the first 1024 bytes, else UTF-8; lossy.
    let utf8 = Encoding::for_label(b"utf-8").expect("a known label");
    let decoded = SniffingDecoder::new(Sniff::Whatwg, utf8)
        .decode_whole(&bytes)
        .expect("lossy decoding does not fail");
    let (text, encoding) = (decoded.text, decoded.detected.encoding);

    // Diagnostics in source order: one pass over the text.
    let mut diagnostics = Vec::new();
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        for (i, c) in body.char_indices() {
            if c == '\t' {
                diagnostics.push(Diagnostic::new(
                    Code::Tab,
                    Span::new(line_start + i, line_start + i + 1),
                ));
            }
        }
        let kept = body.trim_end_matches([' ', '\t']).len();
        if kept < body.len() {
            let span = Span::new(line_start + kept, line_start + body.len());
            diagnostics.push(Diagnostic::new(Code::TrailingWhitespace, span));
        }
        line_start += line.len();
    }

    // One renderer for all of them: locating them costs one pass over the text in all.
    let mut renderer = DiagnosticRenderer::new(&text).with_name(name.as_str());
    for d in &diagnostics {
        print!("{}", renderer.render(d));
    }
    println!(
        "{}: {} diagnostics ({})",
        name,
        diagnostics.len(),
        encoding.name()
    );
    Ok(())
}
