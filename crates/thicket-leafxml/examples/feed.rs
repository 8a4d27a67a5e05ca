//! Decodes a namespaced feed and writes it back: the events go through the `Writer`, which keeps
//! the feed's prefixes and default namespace (byte for byte when the feed was written the
//! writer's way), and the `Document` tree is walked for each entry's title and thumbnail.
//!
//! ```text
//! cargo run -p thicket-leafxml --example feed                      # a built-in Atom feed
//! cargo run -p thicket-leafxml --example feed -- feed.xml [--indent]
//! ```

use thicket_leafxml::{Document, Reader, Writer};

const ATOM: &str = "http://www.w3.org/2005/Atom";
const MEDIA: &str = "http://search.yahoo.com/mrss/";

const FEED: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/"><title>Pictures</title><entry><title>Fish &amp; chips</title><media:thumbnail url="https://example.org/fish.jpg" width="140"/></entry><entry><title>Tea</title><media:thumbnail url="https://example.org/tea.jpg" width="140"/></entry></feed>
"#;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next();
    let indent = args.next().as_deref() == Some("--indent");
    let bytes = match &path {
        Some(p) => std::fs::read(p)?,
        None => FEED.as_bytes().to_vec(),
    };

    // The tree: every entry's title and thumbnail, by namespace.
    let doc = Document::parse(&bytes)?;
    for entry in doc
        .root()
        .children()
        .filter(|n| n.namespace() == Some(ATOM) && n.local_name() == "entry")
    {
        let title = entry
            .children()
            .find(|n| n.local_name() == "title")
            .map(|t| t.text_content())
            .unwrap_or_default();
        let thumbnail = entry
            .descendants()
            .find(|n| n.namespace() == Some(MEDIA) && n.local_name() == "thumbnail")
            .and_then(|t| t.attribute("url"));
        println!("{title}: {}", thumbnail.unwrap_or("-"));
    }

    // Written back from the events, with the feed's own prefixes.
    let mut reader = Reader::from_bytes(&bytes);
    let mut writer = Writer::new(Vec::new());
    if indent {
        writer = writer.with_indent(2);
    }
    while let Some(event) = reader.next_event()? {
        writer.write(&event.kind)?;
    }
    let out = writer.finish()?;
    let same = out == bytes;
    println!(
        "written back: {} bytes (input {}), {}",
        out.len(),
        bytes.len(),
        if same { "byte for byte" } else { "same events" }
    );
    if path.is_none() && !indent {
        assert!(same, "the built-in feed is written the writer's way");
    }
    if indent || path.is_none() {
        print!("{}", String::from_utf8_lossy(&out));
    }
    Ok(())
}
