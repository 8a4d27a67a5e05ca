#![no_main]
//! thicket-cli: what the command line shows of arbitrary input, in every dialect. The whole
//! document pass (diagnostics capped, each rendered with its position and a cut snippet, the
//! outline and the JSON object), the streaming check through a small window and small chunks
//! (it must count what the whole pass counts and find the same first diagnostic), and the
//! window's positions against `LineIndex` wherever it still holds the text.

use std::io::Cursor;

use libfuzzer_sys::fuzz_target;
use thicket_cli::dialect::{self, Dialect, Input, Sink, StreamView};
use thicket_input::render::{Window, write_report as write_diag};
use thicket_cli::source::Source;
use thicket_input::{Limits, LineIndex};

#[path = "split.rs"]
mod split;

/// The longest line a rendered diagnostic may have: the snippet is cut to 60 characters on each
/// side of the span and the span to its first 60 (at most 4 bytes each), plus the gutter and
/// markers.
const MAX_LINE: usize = 3 * 61 * 4 + 64;

fn check_rendered(out: &[u8], head: Option<&str>) {
    let out = String::from_utf8(out.to_vec()).expect("rendered diagnostics are UTF-8");
    if let Some(head) = head {
        assert!(out.starts_with(head), "{out:?} should start with {head:?}");
    }
    for line in out.lines().skip(1) {
        assert!(
            line.len() <= MAX_LINE,
            "a snippet line of {} bytes",
            line.len()
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    let dialect = Dialect::ALL[usize::from(sel % 4)];
    let cap = match (sel >> 2) % 8 {
        0 => None,
        n => Some(usize::from(n - 1) * 3),
    };
    let keep = 16 + usize::from(sel >> 5) * 40;

    // The whole document.
    let input = Input::new(dialect, rest);
    let parsed = dialect::parse(&input, Limits::none(), cap);
    assert!(cap.is_none_or(|c| parsed.diags.len() <= c));
    let text: &str = &parsed.text;
    let index = LineIndex::new(text);
    let mut window = Window::whole(text);
    let mut out = Vec::new();
    for d in &parsed.diags {
        out.clear();
        write_diag(&mut out, "f", &mut window, d, false).expect("writes to memory");
        let head = d.line_col.is_none().then(|| {
            assert!(
                d.span.start <= d.span.end && d.span.end <= text.len(),
                "{d:?}"
            );
            let lc = index.line_col(text, d.span.start);
            format!("f:{}:{}: {}", lc.line, lc.column, d.code)
        });
        check_rendered(&out, head.as_deref());
    }
    let mut json = Vec::new();
    thicket_cli::write_json(&mut json, "f", &parsed).expect("writes to memory");
    let value: serde_json::Value = serde_json::from_slice(&json).expect("the JSON parses");
    assert_eq!(value["valid"], serde_json::Value::Bool(parsed.total() == 0));
    assert_eq!(
        value["diagnostics"].as_array().map(Vec::len),
        Some(parsed.diags.len())
    );
    assert_eq!(
        value["omitted_diagnostics"].as_u64(),
        Some(parsed.omitted as u64)
    );
    let outline = parsed.outline(usize::MAX);
    assert_eq!(outline.lines.len(), outline.total);

    // The streaming check, in chunks through a small window, counts the same.
    let chunk = 1024 + usize::from(sel) * 5;
    let mut src =
        Source::from_reader("f", Box::new(Cursor::new(rest.to_vec()))).with_chunk_size(chunk);
    let mut err = Vec::new();
    let mut sink = Sink::new("f");
    sink.window = Window::with_keep(keep);
    sink.err = Some(&mut err);
    sink.cap = cap;
    dialect::stream(
        dialect,
        &mut src,
        StreamView::Check,
        Limits::none(),
        &mut sink,
    )
    .expect("reading memory does not fail");
    assert_eq!(
        sink.count,
        parsed.total(),
        "{dialect}: streaming and whole counts"
    );
    // The summary's "first at" is the diagnostic that starts first in the input (MicroXML
    // raises the end-of-input ones, such as `unclosed-element`, last, pointing back at their
    // start tags): the same as the earliest start the whole pass kept, when it kept them all.
    let earliest = parsed
        .diags
        .iter()
        .filter(|d| d.line_col.is_none())
        .map(|d| d.span.start)
        .min();
    if let (Some((first, _)), Some(earliest)) = (&sink.first, earliest)
        && first.line_col.is_none()
        && parsed.omitted == 0
    {
        assert_eq!(first.span.start, earliest, "{dialect}: the first diagnostic");
    }
    let count = sink.count;
    let shown = sink.shown;
    drop(sink);
    assert!(cap.is_none_or(|c| shown <= c) && shown <= count);
    check_rendered(&err, None);

    // A small window fed the text in pieces locates what it still holds as LineIndex does,
    // in and out of order.
    let (_, cuts) = split::text_and_chunks(data);
    let cuts: Vec<usize> = cuts
        .into_iter()
        .map(|c| {
            let mut c = c.min(text.len());
            while !text.is_char_boundary(c) {
                c -= 1;
            }
            c
        })
        .collect();
    let mut w = Window::with_keep(keep);
    let mut pushed = 0;
    for piece in split::chunks(text, &cuts) {
        w.push(piece);
        pushed += piece.len();
        for probe in [
            pushed / 2,
            pushed.saturating_sub(1),
            pushed / 3,
            pushed.saturating_sub(7),
        ] {
            // The last byte's line may still change (a CR before a coming LF).
            if probe >= pushed || !text.is_char_boundary(probe) {
                continue;
            }
            if let Some(got) = w.line_col(probe) {
                let lc = index.line_col(text, probe);
                assert_eq!(got, (lc.line, lc.column), "offset {probe}");
            }
        }
    }
});
