//! Suite runner for thicket-leafxml: our own suite in `conformance/leafxml/*.json`.
//!
//! Each file is `{ "description": ..., "tests": [case...] }`; a case is
//!
//! ```json
//! { "description": "what it checks",
//!   "spec": "the spec sentence it enforces",
//!   "input": "<a/>",                    // or "input_hex": "ef bb bf 3c 61 2f 3e"
//!   "encoding": "utf-16le",             // optional: encode "input" as utf-16le / utf-16be /
//!                                       // utf-8-bom, byte signature included
//!   "events": ["start a", "end a"],     // a valid document: the event dump ...
//!   "lines": [1, 1],                    // ... optionally the line of each event
//!   "error": "unclosed-tags",           // or an invalid one: the error code ...
//!   "position": [1, 5],                 // ... optionally its line and column
//!   "span": [4, 4],                     // ... optionally its span (bytes of decoded text)
//!   "limits": { "max_depth": 2 } }      // optional limits
//! ```
//!
//! Every case is decoded many ways that must agree, spans included (events, skipped input,
//! attributes, the error): the whole slice, the whole slice without the fast paths, an
//! `io::Read` in tiny chunks, and a push reader fed the bytes whole, one byte at a time (with
//! and without the fast paths) and split in two at every byte. The events' spans and skipped
//! input tile the decoded text (up to the error, whose span lies after the last event); valid
//! cases must also survive `decode(write(events)) == events`.

use std::collections::BTreeSet;
use std::io::Read;
use std::path::Path;

use serde::Deserialize;
use thicket_input::Span;
use thicket_leafxml::{ErrorCode, Event, EventKind, Limits, Reader, Writer};

use crate::{Case, Outcome, SuiteDef};

/// The suites this dialect runs.
pub fn suites() -> Vec<SuiteDef> {
    vec![SuiteDef {
        name: "leafxml",
        spec: "LeafXML",
        dir: "leafxml",
        in_project: true,
        run,
    }]
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[allow(dead_code)]
    description: String,
    tests: Vec<Test>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct LimitsDef {
    max_depth: Option<usize>,
    max_attributes: Option<usize>,
    max_name_len: Option<usize>,
    max_value_len: Option<usize>,
    max_namespace_declarations: Option<usize>,
    max_namespace_bytes: Option<usize>,
    max_token_len: Option<usize>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Test {
    description: String,
    spec: String,
    input: Option<String>,
    input_hex: Option<String>,
    encoding: Option<String>,
    events: Option<Vec<String>>,
    lines: Option<Vec<u32>>,
    error: Option<String>,
    position: Option<[u32; 2]>,
    span: Option<[usize; 2]>,
    limits: Option<LimitsDef>,
}

fn files(dir: &Path) -> Result<Vec<(String, File)>, String> {
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    names.sort();
    let mut out = Vec::new();
    for path in names {
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let file: File =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        out.push((name, file));
    }
    Ok(out)
}

/// Every error code the suite in `dir` expects somewhere.
pub fn error_codes_in_suite(dir: &Path) -> Result<BTreeSet<String>, String> {
    Ok(files(dir)?
        .iter()
        .flat_map(|(_, f)| f.tests.iter().filter_map(|t| t.error.clone()))
        .collect())
}

fn run(dir: &Path) -> Result<Vec<Case>, String> {
    let mut cases = Vec::new();
    for (name, file) in files(dir)? {
        for (i, test) in file.tests.iter().enumerate() {
            let outcome = match check(test) {
                Ok(()) => Outcome::Pass,
                Err(why) => Outcome::Fail(why),
            };
            cases.push(Case::new(
                format!("{name}#{i}: {}", test.description),
                outcome,
            ));
        }
    }
    Ok(cases)
}

fn input_bytes(test: &Test) -> Result<Vec<u8>, String> {
    match (&test.input, &test.input_hex) {
        (Some(s), None) => Ok(match test.encoding.as_deref() {
            None => s.as_bytes().to_vec(),
            Some("utf-8-bom") => [&[0xEF, 0xBB, 0xBF][..], s.as_bytes()].concat(),
            Some("utf-16le") => [0xFF, 0xFE]
                .into_iter()
                .chain(s.encode_utf16().flat_map(u16::to_le_bytes))
                .collect(),
            Some("utf-16be") => [0xFE, 0xFF]
                .into_iter()
                .chain(s.encode_utf16().flat_map(u16::to_be_bytes))
                .collect(),
            Some(other) => return Err(format!("unknown encoding {other}")),
        }),
        (None, Some(hex)) => hex
            .split_whitespace()
            .map(|h| u8::from_str_radix(h, 16).map_err(|e| format!("input_hex {h}: {e}")))
            .collect(),
        _ => Err("a case needs exactly one of input and input_hex".into()),
    }
}

/// A reader that hands out 1, 2, 3, 5, 7, 1, ... bytes per call.
struct Trickle<'a> {
    data: &'a [u8],
    step: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        const SIZES: [usize; 5] = [1, 2, 3, 5, 7];
        let n = SIZES[self.step % SIZES.len()]
            .min(buf.len())
            .min(self.data.len());
        self.step += 1;
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// The events up to the end or the first error, and then the trailing span or the error.
pub type Decoded = (
    Vec<Event<'static>>,
    Result<Option<Span>, thicket_leafxml::Error>,
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

/// Decodes the bytes of `chunks` pushed one after the other into [`Reader::push`], taking the
/// events between feeds, then [`Reader::finish`].
pub fn decode_pushed<'c>(
    chunks: impl IntoIterator<Item = &'c [u8]>,
    limits: Limits,
    fast: bool,
) -> Decoded {
    let mut reader = Reader::push().with_limits(limits);
    if !fast {
        reader = reader.without_fast_paths();
    }
    let mut events = Vec::new();
    for chunk in chunks {
        reader.feed(chunk);
        loop {
            match reader.next_owned() {
                Ok(Some(e)) => events.push(e),
                Ok(None) => break,
                Err(e) => return (events, Err(e)),
            }
        }
    }
    reader.finish();
    loop {
        match reader.next_owned() {
            Ok(Some(e)) => events.push(e),
            Ok(None) => return (events, Ok(reader.trailing())),
            Err(e) => return (events, Err(e)),
        }
    }
}

/// Pushed decodings of `bytes` against `expected` (a whole decoding): whole, one byte at a time
/// with and without the fast paths, and split in two at every byte.
pub fn check_pushed(bytes: &[u8], limits: Limits, expected: &Decoded) -> Result<(), String> {
    let want = summary(expected);
    let differs = |how: &str, got: &Decoded| {
        format!(
            "pushed {how} differs: whole {want:?}, pushed {:?}",
            summary(got)
        )
    };
    let whole = decode_pushed([bytes], limits, true);
    if summary(&whole) != want {
        return Err(differs("whole", &whole));
    }
    for fast in [true, false] {
        let bytewise = decode_pushed(bytes.chunks(1), limits, fast);
        if summary(&bytewise) != want {
            return Err(differs(
                &format!("byte by byte (fast paths {fast})"),
                &bytewise,
            ));
        }
    }
    for i in 0..=bytes.len() {
        let (a, b) = bytes.split_at(i);
        let split = decode_pushed([a, b], limits, true);
        if summary(&split) != want {
            return Err(differs(&format!("split at {i}"), &split));
        }
    }
    Ok(())
}

/// The decoded text spans point into: the whole text, or the text before a malformed byte
/// sequence.
pub fn decoded_text(bytes: &[u8]) -> String {
    match thicket_input::decode_leafxml(bytes) {
        Ok((text, _)) => text.into_owned(),
        Err(e) => bytes
            .get(..e.offset)
            .and_then(|valid| thicket_input::decode_leafxml(valid).ok())
            .map(|(text, _)| text.into_owned())
            .unwrap_or_default(),
    }
}

/// The tiling check, from the spans the reader emitted only: each event's skipped input and
/// span, in order, then the trailing span, tile `text`; after an error, the events tile the
/// text up to the last one and the error's span lies in what follows. Every attribute's name
/// and value spans lie inside its `Start` event's span, the value between its quotes.
pub fn check_tiling(
    text: &str,
    events: &[Event<'_>],
    end: &Result<Option<Span>, thicket_leafxml::Error>,
) -> Result<(), String> {
    let mut spans: Vec<Span> = events.iter().flat_map(|e| [e.skipped, e.span]).collect();
    let covered = spans.last().map_or(0, |s| s.end);
    match end {
        Ok(Some(trailing)) => {
            spans.push(*trailing);
            crate::spans::check_tiling(text, &spans)?;
        }
        Ok(None) => return Err("the reader ended without a trailing span".into()),
        Err(e) => {
            let prefix = text.get(..covered).ok_or("events end past the text")?;
            crate::spans::check_tiling(prefix, &spans)?;
            let s = e.span;
            if s.start < covered || s.end < s.start || s.end > text.len() {
                return Err(format!(
                    "error span {s:?} is not after the last event ({covered}) within the text ({})",
                    text.len()
                ));
            }
            if !text.is_char_boundary(s.start) || !text.is_char_boundary(s.end) {
                return Err(format!("error span {s:?} is not on char boundaries"));
            }
            if e.code != ErrorCode::InvalidUtf8
                && e.code != ErrorCode::InvalidUtf16
                && e.byte_offset != s.start as u64
            {
                return Err(format!(
                    "error offset {} is not its span's start {s:?}",
                    e.byte_offset
                ));
            }
        }
    }
    for e in events {
        let EventKind::Start { attributes, .. } = &e.kind else {
            continue;
        };
        for a in attributes.written() {
            let whole = a.span();
            if whole.start < e.span.start || whole.end > e.span.end {
                return Err(format!("attribute {:?} outside its tag {:?}", a, e.span));
            }
            let quote = text.get(a.value_span.start - 1..a.value_span.start);
            if !matches!(quote, Some("\"" | "'")) || text.get(a.value_span.end..whole.end) != quote
            {
                return Err(format!("attribute value {a:?} is not between quotes"));
            }
            if text.get(a.name_span.start..a.name_span.end).is_none() {
                return Err(format!("attribute name {a:?} is not on char boundaries"));
            }
        }
    }
    Ok(())
}

fn check(test: &Test) -> Result<(), String> {
    if test.spec.trim().is_empty() {
        return Err("the case cites no spec sentence".into());
    }
    let bytes = input_bytes(test)?;
    let limits = test
        .limits
        .as_ref()
        .map(|l| {
            let mut limits = Limits::none();
            limits.max_depth = l.max_depth;
            limits.max_attributes = l.max_attributes;
            limits.max_name_len = l.max_name_len;
            limits.max_value_len = l.max_value_len;
            limits.max_namespace_declarations = l.max_namespace_declarations;
            limits.max_namespace_bytes = l.max_namespace_bytes;
            limits.max_token_len = l.max_token_len;
            limits
        })
        .unwrap_or_default();
    let whole = decode(Reader::from_bytes(&bytes).with_limits(limits));
    // Read 16 bytes at a time (from a source that hands out fewer), so that the reader's
    // window drains and refills inside tokens.
    let trickled = decode(
        Reader::with_read_size(
            Trickle {
                data: &bytes,
                step: 0,
            },
            16,
        )
        .with_limits(limits),
    );
    if summary(&whole) != summary(&trickled) {
        return Err(format!(
            "chunked input differs: whole {:?}, chunked {:?}",
            summary(&whole),
            summary(&trickled)
        ));
    }
    let plain = decode(
        Reader::from_bytes(&bytes)
            .with_limits(limits)
            .without_fast_paths(),
    );
    if summary(&whole) != summary(&plain) {
        return Err(format!(
            "the fast paths differ from the general code: fast {:?}, general {:?}",
            summary(&whole),
            summary(&plain)
        ));
    }
    check_pushed(&bytes, limits, &whole)?;
    let text = decoded_text(&bytes);
    check_tiling(&text, &whole.0, &whole.1)?;
    let (events, end) = whole;
    match (&test.events, &test.error) {
        (Some(expected), None) => {
            if let Err(e) = end {
                return Err(format!("expected events, got error {e}"));
            }
            let dump: Vec<String> = events.iter().map(|e| e.kind.to_string()).collect();
            if &dump != expected {
                return Err(format!("expected {expected:?}, got {dump:?}"));
            }
            if let Some(lines) = &test.lines {
                let got: Vec<u32> = events.iter().map(|e| e.line).collect();
                if &got != lines {
                    return Err(format!("expected lines {lines:?}, got {got:?}"));
                }
            }
            for e in &events {
                if matches!(e.kind, EventKind::Start { .. })
                    && !e.span.slice(&text).starts_with('<')
                {
                    return Err(format!("start span {:?} does not start at <", e.span));
                }
            }
            round_trip(&events)
        }
        (None, Some(code)) => {
            if ErrorCode::from_code(code).is_none() {
                return Err(format!("unknown error code {code}"));
            }
            let e = match end {
                Ok(_) => {
                    return Err(format!(
                        "expected error {code}, got events {:?}",
                        events
                            .iter()
                            .map(|e| e.kind.to_string())
                            .collect::<Vec<_>>()
                    ));
                }
                Err(e) => e,
            };
            if e.code.as_str() != code {
                return Err(format!("expected error {code}, got {e}"));
            }
            if let Some([line, column]) = test.position
                && (e.line, e.column) != (line, column)
            {
                return Err(format!(
                    "expected {code} at {line}:{column}, got {}:{}",
                    e.line, e.column
                ));
            }
            if let Some([start, end]) = test.span
                && (e.span.start, e.span.end) != (start, end)
            {
                return Err(format!(
                    "expected {code} over {start}..{end}, got {:?}",
                    e.span
                ));
            }
            Ok(())
        }
        _ => Err("a case needs exactly one of events and error".into()),
    }
}

/// Everything a decoding gave, positions included, as comparable strings.
pub fn summary(d: &Decoded) -> (Vec<String>, String) {
    let events =
        d.0.iter()
            .map(|e| {
                let mut s = format!("{}@{}:{:?}+{:?}", e.kind, e.line, e.span, e.skipped);
                if let EventKind::Start { attributes, .. } = &e.kind {
                    for a in attributes.written() {
                        s.push_str(&format!(
                            " [{:?}={:?} {:?} {:?}]",
                            a.name, a.value, a.name_span, a.value_span
                        ));
                    }
                }
                s
            })
            .collect();
    let end = match &d.1 {
        Ok(trailing) => format!("end {trailing:?}"),
        Err(e) => format!("{e} @{} {:?}", e.byte_offset, e.span),
    };
    (events, end)
}

/// The writer must give back bytes that decode to the same events.
fn round_trip(events: &[Event<'_>]) -> Result<(), String> {
    let mut w = Writer::new(Vec::new());
    for e in events {
        w.write(&e.kind)
            .map_err(|e| format!("writer refused: {e}"))?;
    }
    let bytes = w.finish().map_err(|e| format!("writer refused: {e}"))?;
    let again = thicket_leafxml::parse_events(&bytes).map_err(|e| {
        format!(
            "written document does not decode: {e}: {:?}",
            String::from_utf8_lossy(&bytes)
        )
    })?;
    let a: Vec<&EventKind> = events.iter().map(|e| &e.kind).collect();
    let b: Vec<&EventKind> = again.iter().map(|e| &e.kind).collect();
    if a != b {
        return Err(format!(
            "round trip changed the events: {:?}",
            String::from_utf8_lossy(&bytes)
        ));
    }
    Ok(())
}
