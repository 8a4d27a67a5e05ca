#![no_main]
//! thicket-rewrite, every dialect: identity with a no-op handler on every token kind (LeafXML:
//! what precedes its first error, which is the same error whole and chunked), fed text in the chunks the
//! input picks (split.rs) and fed the raw bytes in the same cuts (which either pass through
//! unchanged or fail with an input code, the same error whole and chunked); with edits on every
//! element, text and comment, the output is the same however the input is split; read-only
//! selection reports in-bounds spans in source order, the same whole and chunked.

use libfuzzer_sys::fuzz_target;
use thicket_rewrite::{ContentType, Dialect, Error, Rewriter, Settings, Sink};

#[path = "split.rs"]
mod split;

const DIALECTS: [Dialect; 4] = [
    Dialect::Html,
    Dialect::Xml5,
    Dialect::MicroXml,
    Dialect::LeafXml,
];

/// A no-op handler on every element, end tag, text, comment, doctype, PI and the document end.
fn noop<'h>() -> Settings<'h> {
    Settings::new()
        .on_element("*", |e| {
            let _ = e.attribute("id");
            e.on_end_tag(|t| {
                let _ = t.name();
            });
        })
        .unwrap()
        .on_text(|t| {
            let _ = t.kind();
        })
        .on_comment(|_| {})
        .on_doctype(|_| {})
        .on_processing_instruction(|_| {})
        .on_end(|_| {})
}

/// Edits everywhere: an attribute on every element, an element removed, text (character by
/// character) and comments changed, content inserted around the first compound match.
fn edits<'h>() -> Settings<'h> {
    Settings::new()
        .on_element("*", |e| e.set_attribute("data-t", "1<\"&"))
        .unwrap()
        .on_element("b", |e| e.remove())
        .unwrap()
        .on_element("i", |e| e.unwrap())
        .unwrap()
        .on_element("p > a:first-child, p ~ q", |e| {
            e.before("<x>", ContentType::Text);
            e.append("<y/>", ContentType::Html);
        })
        .unwrap()
        // Text comes in chunks that depend on the input's split: a change made character by
        // character gives the same output however it is split.
        .on_text(|t| {
            let upper = t.source().to_ascii_uppercase();
            t.replace(&upper, ContentType::Text)
        })
        .on_comment(|c| c.replace("c", ContentType::Text))
}

fn run_text(chunks: &[&str], dialect: Dialect, settings: Settings<'_>) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    let mut r = Rewriter::new(dialect, settings, |b: &[u8]| out.extend_from_slice(b));
    for c in chunks {
        r.feed_str(c)?;
    }
    let _ = r.finish()?;
    Ok(out)
}

fn run_bytes<S: Sink>(pieces: &[&[u8]], mut r: Rewriter<'_, S>) -> Result<S, Error> {
    for p in pieces {
        r.feed(p)?;
    }
    r.finish()
}

fn byte_pieces<'a>(bytes: &'a [u8], cuts: &[usize]) -> Vec<&'a [u8]> {
    let mut out = Vec::new();
    let mut at = 0;
    for &c in cuts {
        let c = c.min(bytes.len()).max(at);
        out.push(&bytes[at..c]);
        at = c;
    }
    out.push(&bytes[at..]);
    out
}

/// The body bytes `split::text_and_chunks` decodes (before its lossy decoding).
fn raw_body(data: &[u8]) -> &[u8] {
    let Some((&n, rest)) = data.split_first() else {
        return &[];
    };
    let n = usize::from(n % 8).min(rest.len() / 2);
    &rest[n * 2..]
}

fuzz_target!(|data: &[u8]| {
    let (text, cuts) = split::text_and_chunks(data);
    let chunks = split::chunks(&text, &cuts);
    let raw = raw_body(data);
    for dialect in DIALECTS {
        let whole = run_text(&[&text], dialect, noop());
        let chunked = run_text(&chunks, dialect, noop());
        match (&whole, &chunked) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a.as_slice(), text.as_bytes(), "{dialect:?}: identity, whole");
                assert_eq!(b.as_slice(), text.as_bytes(), "{dialect:?}: identity, chunked");
            }
            (Err(a), Err(b)) if dialect == Dialect::LeafXml => {
                assert_eq!((a.code, a.span), (b.code, b.span), "LeafXML: the same error");
            }
            _ => panic!("{dialect:?}: whole {whole:?} vs chunked {chunked:?}"),
        }
        if whole.is_err() {
            continue;
        }

        let collect = |pieces: &[&[u8]]| {
            let mut out = Vec::new();
            let r = Rewriter::new(dialect, noop(), |b: &[u8]| out.extend_from_slice(b));
            run_bytes(pieces, r).map(|_| ()).map(|()| out)
        };
        let whole_bytes = collect(&[raw]);
        let chunked_bytes = collect(&byte_pieces(raw, &cuts));
        match (&whole_bytes, &chunked_bytes) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a.as_slice(), raw, "{dialect:?}: byte identity, whole");
                assert_eq!(b.as_slice(), raw, "{dialect:?}: byte identity, chunked");
            }
            (Err(a), Err(b)) => {
                assert_eq!(a.code, b.code, "{dialect:?}: the same error whole and chunked");
                assert_eq!(a.span, b.span, "{dialect:?}: the same error span");
            }
            _ => panic!("{dialect:?}: whole {whole_bytes:?} vs chunked {chunked_bytes:?}"),
        }

        let a = run_text(&[&text], dialect, edits()).map_err(|e| (e.code, e.span));
        let b = run_text(&chunks, dialect, edits()).map_err(|e| (e.code, e.span));
        assert_eq!(a, b, "{dialect:?}: edits, whole vs chunked");

        let spans = |pieces: &[&str]| {
            let mut seen = Vec::new();
            {
                let settings = Settings::new()
                    .on_element("div a[href], p + p, :not(span) > *:nth-child(2n+1)", |e| {
                        seen.push(e.span())
                    })
                    .unwrap();
                let mut r = Rewriter::read_only(dialect, settings);
                for p in pieces {
                    r.feed_str(p).unwrap();
                }
                r.finish().unwrap();
            }
            seen
        };
        let s = spans(&[&text]);
        assert_eq!(s, spans(&chunks), "{dialect:?}: selection, whole vs chunked");
        for w in s.windows(2) {
            assert!(w[0].start < w[1].start, "{dialect:?}: matches out of order");
        }
        for sp in &s {
            assert!(sp.start <= sp.end && sp.end <= text.len());
        }
    }
});
