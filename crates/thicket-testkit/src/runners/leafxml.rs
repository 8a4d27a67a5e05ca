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
//!   "limits": { "max_depth": 2 } }      // optional limits
//! ```
//!
//! Every case is decoded three ways (whole slice, whole slice without the fast paths, `io::Read`
//! in tiny chunks) that must agree;
//! valid cases must also survive `decode(write(events)) == events`.

use std::collections::BTreeSet;
use std::io::Read;
use std::path::Path;

use serde::Deserialize;
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

type Decoded = Result<Vec<Event<'static>>, thicket_leafxml::Error>;

fn decode<R: Read>(mut reader: Reader<R>) -> Decoded {
    let mut events = Vec::new();
    while let Some(e) = reader.next_owned()? {
        events.push(e);
    }
    Ok(events)
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
            limits.max_token_len = l.max_token_len;
            limits
        })
        .unwrap_or_default();
    let whole = decode(Reader::from_bytes(&bytes).with_limits(limits));
    let trickled = decode(
        Reader::new(Trickle {
            data: &bytes,
            step: 0,
        })
        .with_limits(limits),
    );
    if whole != trickled {
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
    if whole != plain {
        return Err(format!(
            "the fast paths differ from the general code: fast {:?}, general {:?}",
            summary(&whole),
            summary(&plain)
        ));
    }
    match (&test.events, &test.error) {
        (Some(expected), None) => {
            let events = whole.map_err(|e| format!("expected events, got error {e}"))?;
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
            if test.input.is_some() && test.encoding.is_none() {
                let text = test.input.as_deref().unwrap_or_default();
                let spans: Vec<_> = events.iter().map(|e| e.span).collect();
                crate::spans::check_ordered(text, &spans)?;
                for e in &events {
                    if matches!(e.kind, EventKind::Start { .. })
                        && !e.span.slice(text).starts_with('<')
                    {
                        return Err(format!("start span {:?} does not start at <", e.span));
                    }
                }
            }
            round_trip(&events)
        }
        (None, Some(code)) => {
            if ErrorCode::from_code(code).is_none() {
                return Err(format!("unknown error code {code}"));
            }
            match whole {
                Ok(events) => Err(format!(
                    "expected error {code}, got events {:?}",
                    events
                        .iter()
                        .map(|e| e.kind.to_string())
                        .collect::<Vec<_>>()
                )),
                Err(e) if e.code.as_str() != code => Err(format!("expected error {code}, got {e}")),
                Err(e) => match test.position {
                    Some([line, column]) if (e.line, e.column) != (line, column) => Err(format!(
                        "expected {code} at {line}:{column}, got {}:{}",
                        e.line, e.column
                    )),
                    _ => Ok(()),
                },
            }
        }
        _ => Err("a case needs exactly one of events and error".into()),
    }
}

fn summary(d: &Decoded) -> Result<Vec<String>, String> {
    match d {
        Ok(events) => Ok(events
            .iter()
            .map(|e| format!("{}@{}:{:?}", e.kind, e.line, e.span))
            .collect()),
        Err(e) => Err(format!("{e} @{}", e.byte_offset)),
    }
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
