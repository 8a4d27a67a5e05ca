#![no_main]
//! thicket-leafxml: a slice, the same slice without the fast paths, and a reader that hands
//! out a few bytes at a time give the same events or the same error; nothing panics.

use std::io::Read;

use libfuzzer_sys::fuzz_target;
use thicket_leafxml::Reader;

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

/// Every event up to the end or the first error, and that error.
fn collect<R: Read>(mut reader: Reader<R>) -> (Vec<String>, Option<String>) {
    let mut out = Vec::new();
    loop {
        match reader.next_event() {
            Ok(Some(e)) => out.push(format!("{:?}", e)),
            Ok(None) => return (out, None),
            Err(e) => return (out, Some(format!("{:?}", e))),
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&step, body)) = data.split_first() else {
        return;
    };
    let whole = collect(Reader::from_bytes(body));
    let plain = collect(Reader::from_bytes(body).without_fast_paths());
    assert_eq!(whole, plain, "the fast paths and the general code disagree");
    let step = usize::from(step % 16) + 1;
    let trickled = collect(Reader::new(Trickle { data: body, step }));
    // As before: the same error, or the same events when there is none.
    assert_eq!(
        whole.1, trickled.1,
        "slice and reader (step {step}) disagree"
    );
    if whole.1.is_none() {
        assert_eq!(
            whole.0, trickled.0,
            "slice and reader (step {step}) disagree"
        );
    }
});
