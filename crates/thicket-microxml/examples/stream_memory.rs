//! Streams one long text node through a streaming view in 64 KiB chunks, generated on the fly
//! (so the input itself is never held), and prints what came out: a memory measurement aid.
//!
//! `/usr/bin/time -v target/release/examples/stream_memory [checker|tokenizer|parser] [MB]`
//! reports the peak RSS ("Maximum resident set size"); the streaming views hold no text run
//! whole, so it does not grow with the node (docs/performance.md has the numbers).

use thicket_microxml::{Checker, Options, Parser, Tokenizer};

fn main() {
    let mut args = std::env::args().skip(1);
    let view = args.next().unwrap_or_else(|| "checker".into());
    let megabytes: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(60);
    let line = "a long text node, fed in chunks & never held whole > \r\n";
    let mut chunk = String::new();
    while chunk.len() + line.len() <= 64 << 10 {
        chunk.push_str(line);
    }
    let chunks = (megabytes << 20) / chunk.len();
    let options = Options::default();
    let mut text_bytes = 0usize;
    let mut diagnostics = 0usize;
    match view.as_str() {
        "checker" => {
            let mut c = Checker::new(options);
            let mut pull = |c: &mut Checker| {
                while let Some(t) = c.next_token() {
                    if let thicket_microxml::Token::Data { text, .. } = t {
                        text_bytes += text.len();
                    }
                }
                diagnostics += c.take_diagnostics().len();
            };
            c.feed("<r>");
            for _ in 0..chunks {
                c.feed(&chunk);
                pull(&mut c);
            }
            c.feed("</r>");
            c.finish();
            pull(&mut c);
        }
        "tokenizer" => {
            let mut t = Tokenizer::new(options);
            let mut pull = |t: &mut Tokenizer| {
                while let Some(tok) = t.next_token() {
                    if let thicket_microxml::Token::Data { text, .. } = tok {
                        text_bytes += text.len();
                    }
                }
                diagnostics += t.take_diagnostics().len();
            };
            t.feed("<r>");
            for _ in 0..chunks {
                t.feed(&chunk);
                pull(&mut t);
            }
            t.feed("</r>");
            t.finish();
            pull(&mut t);
        }
        _ => {
            // The tree keeps the text: memory follows the node here.
            let mut p = Parser::new(options);
            p.feed("<r>");
            for _ in 0..chunks {
                p.feed(&chunk);
            }
            p.feed("</r>");
            let parsed = p.finish();
            text_bytes = parsed.root().children().count();
            diagnostics = parsed.diagnostics.len();
        }
    }
    println!(
        "{view}: {} MB of text in, {text_bytes} bytes of text out, {diagnostics} diagnostics",
        (chunks * chunk.len()) >> 20
    );
}
