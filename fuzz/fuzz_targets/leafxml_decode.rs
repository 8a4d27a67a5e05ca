#![no_main]
//! thicket-leafxml: a slice, the same slice without the fast paths, a reader that hands out a
//! few bytes at a time, and a push reader fed chunks of varying sizes (some with the fast
//! paths off) give the same events, spans and error; the spans the reader emits
//! tile the decoded text (each event's skipped input and span, then the trailing span, or up to
//! the last event and then the error's span); nothing panics.

use std::io::Read;

use libfuzzer_sys::fuzz_target;
use thicket_input::Span;
use thicket_leafxml::{EventKind, Reader};

/// An `io::Read` that returns at most `step` bytes per call.
struct Trickle<'a> {
    data: &'a [u8],
    step: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.step.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// What a reader emitted: each event (with its attributes' spans), its skipped input and span,
/// and the trailing span or the error.
struct Run {
    events: Vec<String>,
    spans: Vec<(Span, Span)>,
    attrs: Vec<(Span, Span, Span)>,
    end: Result<Option<Span>, thicket_leafxml::Error>,
}

fn collect<S: thicket_leafxml::Source>(mut reader: Reader<'_, S>) -> Run {
    let mut run = Run {
        events: Vec::new(),
        spans: Vec::new(),
        attrs: Vec::new(),
        end: Ok(None),
    };
    take(&mut reader, &mut run);
    run
}

/// Takes the reader's events into `run` until it ends, fails or (pushed) waits: true when it
/// waits.
fn take<S: thicket_leafxml::Source>(reader: &mut Reader<'_, S>, run: &mut Run) -> bool {
    loop {
        match reader.next_event() {
            Ok(Some(e)) => {
                let mut line = format!("{:?}", e);
                if let EventKind::Start { attributes, .. } = &e.kind {
                    for a in attributes.written() {
                        line.push_str(&format!(" {:?}", a));
                        run.attrs.push((e.span, a.name_span, a.value_span));
                    }
                }
                run.events.push(line);
                run.spans.push((e.skipped, e.span));
            }
            Ok(None) => {
                run.end = Ok(reader.trailing());
                return run.end == Ok(None);
            }
            Err(e) => {
                run.end = Err(e);
                return false;
            }
        }
    }
}

/// A push reader fed `body` in chunks whose sizes cycle through `sizes`.
fn pushed(body: &[u8], sizes: &[u8], fast: bool) -> Run {
    let mut reader = Reader::push();
    if !fast {
        reader = reader.without_fast_paths();
    }
    let mut run = Run {
        events: Vec::new(),
        spans: Vec::new(),
        attrs: Vec::new(),
        end: Ok(None),
    };
    let mut rest = body;
    let mut k = 0;
    while !rest.is_empty() {
        let n = usize::from(sizes[k % sizes.len()]).max(1).min(rest.len());
        k += 1;
        reader.feed(&rest[..n]);
        rest = &rest[n..];
        if !take(&mut reader, &mut run) {
            return run;
        }
    }
    reader.finish();
    take(&mut reader, &mut run);
    run
}

/// The decoded text (before a malformed byte sequence).
fn decoded(body: &[u8]) -> String {
    match thicket_input::decode_leafxml(body) {
        Ok((t, _)) => t.into_owned(),
        Err(e) => thicket_input::decode_leafxml(&body[..e.offset])
            .map(|(t, _)| t.into_owned())
            .unwrap_or_default(),
    }
}

/// The tiling check, from the emitted spans only.
fn check_tiling(text: &str, run: &Run) {
    let mut at = 0;
    for &(skipped, span) in &run.spans {
        for s in [skipped, span] {
            assert_eq!(s.start, at, "gap or overlap at {}", s.start);
            assert!(s.start <= s.end && s.end <= text.len(), "{s:?}");
            assert!(text.is_char_boundary(s.start) && text.is_char_boundary(s.end));
            at = s.end;
        }
    }
    match &run.end {
        Ok(Some(trailing)) => {
            assert_eq!(trailing.start, at, "gap or overlap before the trailing span");
            assert_eq!(trailing.end, text.len(), "spans do not cover the text");
        }
        Ok(None) => panic!("no trailing span at the end"),
        Err(e) => {
            assert!(e.span.start >= at && e.span.start <= e.span.end, "{e:?} before {at}");
            assert!(e.span.end <= text.len(), "{e:?} past the text");
            assert!(text.is_char_boundary(e.span.start) && text.is_char_boundary(e.span.end));
        }
    }
    for &(tag, name, value) in &run.attrs {
        assert!(tag.start < name.start && name.end < value.start && value.end < tag.end);
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&step, body)) = data.split_first() else {
        return;
    };
    let whole = collect(Reader::from_bytes(body));
    check_tiling(&decoded(body), &whole);
    let plain = collect(Reader::from_bytes(body).without_fast_paths());
    assert_eq!(
        (&whole.events, &whole.end),
        (&plain.events, &plain.end),
        "the fast paths and the general code disagree"
    );
    let step = usize::from(step % 16) + 1;
    // 16-byte reads, so the reader's window drains and refills inside tokens.
    let trickled = collect(Reader::with_read_size(Trickle { data: body, step }, 16));
    assert_eq!(
        (&whole.events, &whole.end),
        (&trickled.events, &trickled.end),
        "slice and reader (step {step}) disagree"
    );
    // Pushed in chunks of the first bytes' sizes (1 to 16), and one byte at a time without the
    // fast paths.
    let sizes: Vec<u8> = body.iter().take(8).map(|b| b % 16 + 1).collect();
    for (sizes, fast) in [(&sizes[..], true), (&[1u8][..], false)] {
        if sizes.is_empty() {
            continue;
        }
        let run = pushed(body, sizes, fast);
        assert_eq!(
            (&whole.events, &whole.end),
            (&run.events, &run.end),
            "slice and push reader (chunks {sizes:?}, fast paths {fast}) disagree"
        );
    }
});
