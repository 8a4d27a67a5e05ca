//! The memory a decoded tree holds, per input byte. docs/leafxml.md ("Memory") has the numbers.
//!
//! Without a kind, it prints the table of that page for the given files (every file of
//! `../shared/corpus/xml` when none is given; the files LeafXML rejects are listed as such):
//! what `Element::parse` and `Document::parse` hold once built (`heap_size`, exact and
//! deterministic), per input byte.
//!
//! With a kind (`element` or `document`) and one file, it builds that tree and keeps it, for
//! valgrind's DHAT: "At t-gmax" is the peak of live heap bytes during decoding (the tree and the
//! reader's buffers), "At t-end" what the tree holds; both include the input, read first and
//! kept, and the fixed cost of a run (the same with `<a/>`).
//!
//! ```text
//! cargo run --release -p thicket-leafxml --example tree_memory [FILE...]
//! cargo build --release -p thicket-leafxml --example tree_memory
//! valgrind --tool=dhat --dhat-out-file=/dev/null target/release/examples/tree_memory element FILE
//! ```

use std::path::PathBuf;

use thicket_leafxml::{Document, Element};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some(kind @ ("element" | "document")) => {
            let path = args
                .get(1)
                .expect("usage: tree_memory element|document FILE");
            let bytes = std::fs::read(path).expect("readable");
            if kind == "element" {
                let root = Element::parse(&bytes).expect("a LeafXML document");
                println!("{path}: {} bytes held", root.heap_size());
                // Kept to the end, so that DHAT's "At t-end" counts it.
                std::mem::forget(root);
            } else {
                let doc = Document::parse(&bytes).expect("a LeafXML document");
                println!("{path}: {} bytes held", doc.heap_size());
                std::mem::forget(doc);
            }
        }
        _ => table(args.into_iter().map(PathBuf::from).collect()),
    }
}

/// Prints the table, one row per file.
fn table(mut files: Vec<PathBuf>) {
    if files.is_empty() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus/xml");
        let entries = std::fs::read_dir(dir).expect("the corpus at ../shared/corpus/xml");
        files = entries.map(|e| e.expect("readable").path()).collect();
        files.sort();
    }
    println!("| file | bytes | elements | `Element` held | `Document` held |");
    println!("|---|---:|---:|---:|---:|");
    let mut worst = 0.0f64;
    for path in files {
        let bytes = std::fs::read(&path).expect("readable");
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let root = match Element::parse(&bytes) {
            Ok(root) => root,
            Err(e) => {
                println!("| {name} | {} | rejected ({}) | | |", bytes.len(), e.code);
                continue;
            }
        };
        let doc = Document::parse(&bytes).expect("accepted as an Element");
        let per = |n: usize| n as f64 / bytes.len() as f64;
        worst = worst.max(per(root.heap_size()));
        println!(
            "| {name} | {} | {} | {:.2} | {:.2} |",
            bytes.len(),
            root.descendants().count(),
            per(root.heap_size()),
            per(doc.heap_size()),
        );
    }
    println!("\nmost `Element` bytes per input byte: {worst:.2} (the bound: 8)");
}
