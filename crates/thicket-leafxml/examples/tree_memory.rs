//! The memory a decoded tree holds, per input byte. Run under valgrind's DHAT, which reports
//! the peak of live heap bytes ("At t-gmax"), once per tree kind; the input is read first and
//! kept, so a tree's share is the peak minus the input's size and the fixed cost of a run (the
//! same with a tiny document). The document also reports its own lists' capacities.
//! docs/leafxml.md, "Memory", has the numbers.
//!
//! ```text
//! cargo build --release -p thicket-leafxml --example tree_memory
//! valgrind --tool=dhat --dhat-out-file=/dev/null target/release/examples/tree_memory document FILE
//! valgrind --tool=dhat --dhat-out-file=/dev/null target/release/examples/tree_memory element FILE
//! ```

fn main() {
    let mut args = std::env::args().skip(1);
    let kind = args.next().unwrap_or_default();
    let path = args
        .next()
        .expect("usage: tree_memory document|element FILE");
    let bytes = std::fs::read(&path).expect("readable");
    match kind.as_str() {
        "document" => {
            let doc = thicket_leafxml::Document::parse(&bytes).expect("a LeafXML document");
            println!(
                "{path}: {} input bytes, {} nodes, lists {} bytes ({:.2} per input byte)",
                bytes.len(),
                doc.len(),
                doc.heap_size(),
                doc.heap_size() as f64 / bytes.len() as f64
            );
        }
        _ => {
            let root = thicket_leafxml::Element::parse(&bytes).expect("a LeafXML document");
            println!(
                "{path}: {} input bytes, {} elements",
                bytes.len(),
                root.descendants().count()
            );
        }
    }
}
