//! The benchmark corpus (../shared/corpus/xml, when present): which documents LeafXML accepts.

use std::path::PathBuf;

use thicket_leafxml::{Element, ErrorCode, parse_events, write_document};

#[test]
fn corpus_documents() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/xml");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("no corpus at {}; skipped", dir.display());
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let bytes = std::fs::read(&path).expect("corpus file reads");
        let result = parse_events(&bytes);
        if name == "sample_ns.xml" {
            // `xmlns=""`: "The value of namespace attributes must not be empty."
            assert_eq!(
                result.map_err(|e| e.code),
                Err(ErrorCode::EmptyNamespaceValue)
            );
            continue;
        }
        assert!(result.is_ok(), "{name}: {:?}", result.err());
        let tree = Element::parse(&bytes).expect("accepted documents build a tree");
        let written = write_document(&tree).expect("decoded trees are writable");
        assert_eq!(
            Element::parse(&written).as_ref(),
            Ok(&tree),
            "{name} round trip"
        );
    }
}
