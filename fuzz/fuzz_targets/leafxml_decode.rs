#![no_main]
//! thicket-leafxml: a slice and a reader that hands out a few bytes at a time give the same
//! events or the same error; nothing panics.

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

fn collect<R: Read>(mut reader: Reader<R>) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    loop {
        match reader.next_event() {
            Ok(Some(e)) => out.push(format!("{:?}", e)),
            Ok(None) => return Ok(out),
            Err(e) => return Err(format!("{:?}", e)),
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&step, body)) = data.split_first() else {
        return;
    };
    let whole = collect(Reader::from_bytes(body));
    let step = usize::from(step % 16) + 1;
    let trickled = collect(Reader::new(Trickle { data: body, step }));
    assert_eq!(whole, trickled, "slice and reader (step {step}) disagree");
});
