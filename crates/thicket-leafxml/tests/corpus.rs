//! The benchmark corpus (../shared/corpus/xml, when present): which documents LeafXML accepts.

use std::path::PathBuf;

use thicket_leafxml::{Element, ErrorCode, Event, Reader, parse_events, write_document};
use thicket_testkit::runners::leafxml::{check_tiling, decode_pushed, decoded_text, summary};

/// Events, then the trailing span or the error.
type Decoded = (
    Vec<Event<'static>>,
    Result<Option<thicket_input::Span>, thicket_leafxml::Error>,
);

fn decode<S: thicket_leafxml::Source>(mut reader: Reader<'_, S>) -> Decoded {
    let mut events = Vec::new();
    loop {
        match reader.next_owned() {
            Ok(Some(e)) => events.push(e),
            Ok(None) => return (events, Ok(reader.trailing())),
            Err(e) => return (events, Err(e)),
        }
    }
}

/// Every corpus document: the events' spans and skipped input tile the decoded text (up to
/// the error for `sample_ns.xml`), the same read whole and from an `io::Read` (16-byte and
/// 64 KiB reads, so the reader's window drains), attribute spans included.
#[test]
fn corpus_spans_tile() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/xml");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("no corpus at {}; skipped", dir.display());
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let bytes = std::fs::read(&path).expect("corpus file reads");
        let whole = decode(Reader::from_bytes(&bytes));
        let text = decoded_text(&bytes);
        if let Err(why) = check_tiling(&text, &whole.0, &whole.1) {
            panic!("{name}: {why}");
        }
        assert_eq!(whole.1.is_err(), name == "sample_ns.xml", "{name}");
        for read_size in [16, 64 << 10] {
            let streamed = decode(Reader::with_read_size(&bytes[..], read_size));
            assert_eq!(whole.1, streamed.1, "{name}");
            assert_eq!(whole.0.len(), streamed.0.len(), "{name}");
            for (a, b) in whole.0.iter().zip(&streamed.0) {
                assert_eq!((a, a.skipped), (b, b.skipped), "{name}");
                if let (
                    thicket_leafxml::EventKind::Start { attributes: x, .. },
                    thicket_leafxml::EventKind::Start { attributes: y, .. },
                ) = (&a.kind, &b.kind)
                {
                    assert!(x.written().eq(y.written()), "{name}: {a:?}");
                }
            }
        }
    }
}

/// A small deterministic generator (xorshift), so that the chunkings repeat from run to run.
struct Chunks(u64);

impl Chunks {
    /// The next chunk length: mostly a few bytes to a few KiB, sometimes 64 KiB or one byte.
    fn next_len(&mut self) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        match self.0 % 16 {
            0 => 1,
            1 => 64 << 10,
            k => 1 + (self.0 >> 8) as usize % (1 << k.min(13)),
        }
    }

    fn split<'b>(&mut self, bytes: &'b [u8]) -> Vec<&'b [u8]> {
        let mut out = Vec::new();
        let mut rest = bytes;
        while !rest.is_empty() {
            let (a, b) = rest.split_at(self.next_len().min(rest.len()));
            out.push(a);
            rest = b;
        }
        out
    }
}

/// Every corpus document pushed in random chunks (three chunkings each, fixed seeds) gives the
/// events, spans, attributes and error of the whole slice.
#[test]
fn corpus_pushed_in_random_chunks() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/xml");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("no corpus at {}; skipped", dir.display());
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let bytes = std::fs::read(&path).expect("corpus file reads");
        let whole = decode(Reader::from_bytes(&bytes));
        let want = summary(&whole);
        for seed in [0x9E37_79B9_7F4A_7C15u64, 7, 0xDEAD_BEEF] {
            let chunks = Chunks(seed).split(&bytes);
            let pushed = decode_pushed(chunks.iter().copied(), Default::default(), true);
            assert!(
                summary(&pushed) == want,
                "{name}: pushed in {} chunks (seed {seed}) differs",
                chunks.len()
            );
        }
    }
}

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
