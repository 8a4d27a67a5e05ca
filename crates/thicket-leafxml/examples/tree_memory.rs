//! The memory a decoded tree holds, per input byte: run under valgrind's DHAT, which reports
//! the peak of live heap bytes ("At t-gmax"); the input is read first, so the tree's share is the
//! peak minus the input's size (printed here). docs/leafxml.md, "Memory", has the numbers.
//!
//! ```text
//! cargo build --release -p thicket-leafxml --example tree_memory
//! valgrind --tool=dhat --dhat-out-file=/dev/null target/release/examples/tree_memory FILE
//! ```

fn main() {
    let path = std::env::args().nth(1).expect("a LeafXML file");
    let bytes = std::fs::read(&path).expect("readable");
    let root = thicket_leafxml::Element::parse(&bytes).expect("a LeafXML document");
    println!(
        "{path}: {} input bytes, {} elements",
        bytes.len(),
        root.descendants().count()
    );
}
