//! Drives one dialect's library (not the command line) over one file, as an application would:
//! `drive DIALECT tree|stream limits|no-limits FILE`. `cargo xtask adversarial` runs it (release
//! build) beside the `thicket` binary to measure time and peak memory of the libraries alone.
//!
//! - `tree`: the whole document in memory: XML5 `parse_bytes`, MicroXML `parse_with` on the
//!   decoded text, LeafXML `Element::read`. HTML has no tree: it tokenizes the whole text.
//! - `stream`: 64 KiB chunks through each dialect's streaming API (XML5 and MicroXML
//!   tokenizers, the LeafXML `Reader`, the HTML tokenizer), diagnostics drained per chunk.
//!
//! `limits` is the command line's defaults (`thicket_cli::default_limits`), `no-limits` the
//! library's (`Limits::none`). Prints the number of items and diagnostics on stdout; with
//! `THICKET_REPORT_USAGE=FILE`, writes its peak memory and CPU time there (as `thicket` does).

use std::io::Read;
use std::process::ExitCode;

use thicket_input::{Limits, stream::StreamDecoder};

const CHUNK: usize = 64 << 10;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dialect, mode, limits, path] = &args[..] else {
        eprintln!("usage: drive xml5|microxml|leafxml|html tree|stream limits|no-limits FILE");
        return ExitCode::from(2);
    };
    let limits = match limits.as_str() {
        "limits" => thicket_cli::default_limits(),
        "no-limits" => Limits::none(),
        other => {
            eprintln!("drive: `{other}` is not limits or no-limits");
            return ExitCode::from(2);
        }
    };
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("drive: {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let counts = match (dialect.as_str(), mode.as_str()) {
        ("xml5", "tree") => xml5_tree(file, limits),
        ("xml5", "stream") => xml5_stream(file, limits),
        ("microxml", "tree") => microxml_tree(file, limits),
        ("microxml", "stream") => microxml_stream(file, limits),
        ("leafxml", "tree") => leafxml_tree(file, limits),
        ("leafxml", "stream") => leafxml_stream(file, limits),
        ("html", "tree") => html_whole(file, limits),
        ("html", "stream") => html_stream(file, limits),
        _ => {
            eprintln!("drive: unknown dialect or mode");
            return ExitCode::from(2);
        }
    };
    if let Some(path) = std::env::var_os("THICKET_REPORT_USAGE") {
        let _ = thicket_cli::write_usage(std::path::Path::new(&path));
    }
    match counts {
        Ok((items, diagnostics)) => {
            println!("items {items} diagnostics {diagnostics}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("drive: {path}: {e}");
            ExitCode::from(2)
        }
    }
}

type Counts = std::io::Result<(usize, usize)>;

fn read_all(mut file: std::fs::File) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Reads `file` in chunks, decodes them with the XML rule (or WHATWG's for HTML) and hands
/// each piece of text to `each` (`None` at the end).
fn decode_chunks(
    mut file: std::fs::File,
    html: bool,
    mut each: impl FnMut(Option<&str>),
) -> std::io::Result<()> {
    let mut buf = vec![0; CHUNK];
    let mut text = String::new();
    let mut decoder: Option<StreamDecoder> = None;
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            break;
        }
        let bytes = &buf[..n];
        match decoder.as_mut() {
            Some(d) => d.feed(bytes, &mut text),
            None => {
                let (encoding, bom) = if html {
                    let s =
                        thicket_input::whatwg::sniff_with_default(bytes, None, encoding_rs::UTF_8);
                    (s.encoding, s.bom_len)
                } else {
                    let s = thicket_input::xml::sniff(bytes);
                    (s.encoding, s.bom_len)
                };
                let mut d = StreamDecoder::without_bom_handling(encoding);
                d.feed(&bytes[bom.min(n)..], &mut text);
                decoder = Some(d);
            }
        }
        each(Some(&text));
        text.clear();
    }
    if let Some(d) = decoder.as_mut() {
        d.finish(&mut text);
    }
    each(Some(&text));
    each(None);
    Ok(())
}

fn xml5_options(limits: Limits) -> thicket_xml5::Options {
    thicket_xml5::Options {
        limits,
        ..thicket_xml5::Options::default()
    }
}

fn xml5_tree(file: std::fs::File, limits: Limits) -> Counts {
    let parsed = thicket_xml5::parse_bytes_with(&read_all(file)?, xml5_options(limits));
    Ok((parsed.document.len(), parsed.diagnostics.len()))
}

fn xml5_stream(file: std::fs::File, limits: Limits) -> Counts {
    let mut tok = thicket_xml5::Tokenizer::streaming(xml5_options(limits));
    let (mut items, mut diags) = (0, 0);
    decode_chunks(file, false, |piece| {
        match piece {
            Some(t) => tok.feed(t),
            None => tok.finish(),
        }
        while let Some(event) = tok.next_lent_event() {
            match event {
                thicket_xml5::Event::Token(_) => items += 1,
                thicket_xml5::Event::Diagnostic(_) => diags += 1,
            }
        }
    })?;
    Ok((items, diags))
}

fn microxml_options(limits: Limits) -> thicket_microxml::Options {
    thicket_microxml::Options {
        limits,
        ..thicket_microxml::Options::default()
    }
}

fn decode_xml(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    thicket_input::xml::decode(bytes).0
}

fn microxml_tree(file: std::fs::File, limits: Limits) -> Counts {
    let bytes = read_all(file)?;
    let text = decode_xml(&bytes);
    let parsed = thicket_microxml::parse_with(&text, microxml_options(limits));
    Ok((parsed.root().children().count(), parsed.diagnostics.len()))
}

fn microxml_stream(file: std::fs::File, limits: Limits) -> Counts {
    let mut tok = thicket_microxml::Tokenizer::new(microxml_options(limits));
    let (mut items, mut diags) = (0, 0);
    decode_chunks(file, false, |piece| {
        match piece {
            Some(t) => tok.feed(t),
            None => tok.finish(),
        }
        while tok.next_token().is_some() {
            items += 1;
        }
        diags += tok.take_diagnostics().len();
    })?;
    Ok((items, diags))
}

fn leafxml_tree(file: std::fs::File, limits: Limits) -> Counts {
    match thicket_leafxml::Element::read(std::io::BufReader::new(file), limits) {
        Ok(root) => Ok((root.children.len(), 0)),
        Err(_) => Ok((0, 1)),
    }
}

fn leafxml_stream(file: std::fs::File, limits: Limits) -> Counts {
    let mut reader = thicket_leafxml::Reader::new(file).with_limits(limits);
    let mut items = 0;
    loop {
        match reader.next_event() {
            Ok(Some(_)) => items += 1,
            Ok(None) => return Ok((items, 0)),
            Err(_) => return Ok((items, 1)),
        }
    }
}

fn html_tokenizer(limits: Limits) -> thicket_html::Tokenizer<'static> {
    thicket_html::Tokenizer::with_options(thicket_html::Options {
        switch_by_tag_name: true,
        limits,
        ..thicket_html::Options::default()
    })
}

fn html_whole(file: std::fs::File, limits: Limits) -> Counts {
    let bytes = read_all(file)?;
    let s = thicket_input::whatwg::sniff_with_default(&bytes, None, encoding_rs::UTF_8);
    let (text, _) = s.encoding.decode_without_bom_handling(&bytes[s.bom_len..]);
    let mut tok = html_tokenizer(limits);
    tok.feed(&text);
    tok.finish();
    let mut items = 0;
    while tok.next_token().is_some() {
        items += 1;
    }
    Ok((items, tok.take_diagnostics().len()))
}

fn html_stream(file: std::fs::File, limits: Limits) -> Counts {
    let mut tok = html_tokenizer(limits);
    let (mut items, mut diags) = (0, 0);
    decode_chunks(file, true, |piece| {
        match piece {
            Some(t) => tok.feed(t),
            None => tok.finish(),
        }
        while tok.next_token().is_some() {
            items += 1;
        }
        diags += tok.take_diagnostics().len();
    })?;
    Ok((items, diags))
}
