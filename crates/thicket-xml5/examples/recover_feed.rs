//! Recover a broken feed and walk its tree: parse an Atom feed with unclosed and mismatched
//! tags, show each diagnostic with its source line, then list the entries with their title,
//! link and the line they start on.
//!
//! `cargo run -p thicket-xml5 --example recover_feed [FILE]` (without a file: a built-in feed).

use thicket_xml5::{DiagnosticRenderer, Document, LineIndex, NodeId, parse_bytes};

const FEED: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>Tom & Jerry's news</title>
  <entry>
    <title>First post
    <link href="https://example.org/1"/>
  </entry>
  <entry>
    <title>Second <b>bold</i> post</title>
    <link href="https://example.org/2" rel="alternate"/>
  </entry>
"#;

const ATOM: &str = "http://www.w3.org/2005/Atom";

/// The first child element of `id` named `local` in the Atom namespace.
fn child(doc: &Document<'_>, id: NodeId, local: &str) -> Option<NodeId> {
    doc.children(id).iter().copied().find(|&c| {
        doc.element(c)
            .is_some_and(|e| e.local == local && e.namespace.as_deref() == Some(ATOM))
    })
}

fn main() -> std::io::Result<()> {
    let file = std::env::args_os().nth(1);
    let bytes = match &file {
        Some(path) => std::fs::read(path)?,
        None => FEED.as_bytes().to_vec(),
    };
    // Bytes in: the encoding comes from a BOM or the XML declaration. Recovery never fails.
    let parsed = parse_bytes(&bytes);
    let (doc, text) = (&parsed.document, &parsed.text);

    let mut renderer = DiagnosticRenderer::new(text).with_name("feed.xml");
    for d in &parsed.diagnostics {
        let mut out = std::io::stdout().lock();
        renderer.write(&mut out, &d.into())?;
    }
    println!(
        "{} diagnostics; the recovered tree:",
        parsed.diagnostics.len()
    );

    let lines = LineIndex::new(text);
    let entries = doc
        .descendants(doc.root())
        .filter(|&n| doc.element(n).is_some_and(|e| e.local == "entry"));
    let mut linked = 0;
    for entry in entries {
        let title = child(doc, entry, "title").map(|t| doc.text_content(t));
        // The link may have ended up inside an unclosed title: look anywhere below the entry.
        let href = doc
            .descendants(entry)
            .find(|&n| doc.element(n).is_some_and(|e| e.local == "link"))
            .and_then(|link| doc.attribute(link, "href"));
        linked += usize::from(href.is_some());
        let line = doc
            .span(entry)
            .map_or(0, |s| lines.line_col(text, s.start).line);
        println!(
            "entry at line {line}: title {:?}, link {:?}",
            title.as_deref().map(str::trim),
            href
        );
    }
    if file.is_none() {
        // Both entries of the built-in feed are recovered with their links.
        assert_eq!(linked, 2);
    }
    Ok(())
}
