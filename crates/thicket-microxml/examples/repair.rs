//! Repair and re-serialize a MicroXML document: parse broken input (unquoted and duplicate
//! attributes, an unclosed element, a stray `<`, a bare `&`), show each diagnostic with its
//! source line, then write the repaired tree, which parses back to itself without diagnostics.
//!
//! `cargo run -p thicket-microxml --example repair [FILE]` (without a file: a built-in one).

use thicket_microxml::{DiagnosticRenderer, NodeRef, parse, parse_reader, to_string};

const BROKEN: &str = "<recipe lang=en lang='fr'>\n  <title>Bread & butter</title>\n  \
                      <step n=1>Slice the bread < 2 cm\n  <step n='2'>Butter it</step>\n";

fn main() -> std::io::Result<()> {
    let parsed = match std::env::args_os().nth(1) {
        Some(path) => parse_reader(std::fs::File::open(path)?)?,
        None => thicket_microxml::parse_bytes(BROKEN.as_bytes()),
    };
    let mut renderer = DiagnosticRenderer::new(&parsed.text).with_name("recipe.xml");
    for d in &parsed.diagnostics {
        print!("{}", renderer.render(d));
    }

    // Walk the repaired tree: every element with its attributes, at any depth.
    for node in parsed.document.descendants() {
        if let NodeRef::Element(e) = node {
            let attributes: Vec<String> = e
                .attributes()
                .map(|a| format!("{}={:?}", a.name(), a.value()))
                .collect();
            println!("<{}> {}", e.name(), attributes.join(" "));
        }
    }

    let repaired = to_string(&parsed.document.to_element())
        .expect("a parsed tree has names that can be written");
    println!("{repaired}");
    let again = parse(&repaired);
    assert!(again.is_valid(), "the repaired text is valid MicroXML");
    assert_eq!(again.document, parsed.document);
    Ok(())
}
