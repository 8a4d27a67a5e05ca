//! The scanning engines against plain loops, over the shared corpus (`../shared/corpus`):
//! walking the whole text run by run with the classes the dialects use, as a tokenizer does.
//! Also the cursor's character reads and the line counter against plain loops.

use std::hint::black_box;
use std::path::{Path, PathBuf};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use thicket_input::NewlineRules;
use thicket_input::cursor::Cursor;
use thicket_input::lines::LineCounter;
use thicket_input::scan::{Engine, StopSet};

/// The corpus folder: `$THICKET_CORPUS`, else `../shared/corpus` beside the workspace.
fn corpus_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("THICKET_CORPUS") {
        return PathBuf::from(dir);
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
}

/// Every corpus file of `kind`, concatenated and decoded lossily.
fn corpus(kind: &str) -> String {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(corpus_dir().join(kind))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .collect();
    paths.sort();
    let mut bytes = Vec::new();
    for path in paths {
        bytes.extend(std::fs::read(path).unwrap_or_default());
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Controls other than tab, LF, FF, CR and NULL, and DEL: bytes with an input-stream error.
const ODD: &[u8] = b"\x01\x02\x03\x04\x05\x06\x07\x08\x0B\x0E\x0F\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1A\x1B\x1C\x1D\x1E\x1F\x7F";
/// Lead bytes of C1 controls and noncharacters.
const LEADS: &[u8] = &[0xC2, 0xEF, 0xF0, 0xF1, 0xF2, 0xF3, 0xF4];

/// HTML's data state: memchr for `<`, `&`, CR; the block test for NULL, controls and leads.
static DATA: StopSet = StopSet::new(b"<&\r\0").check(ODD).check(LEADS);
/// A tag name: the word test.
static TAG_NAME: StopSet = StopSet::new(b"\t\n\x0C />\r\0").check(ODD).check(LEADS);
/// An unquoted attribute value: the table.
static UNQUOTED: StopSet = StopSet::new(b"\t\n\x0C &>\r\0\"'<=`")
    .check(ODD)
    .check(LEADS);

/// Walks `hay` run by run: each run ends at a member, the member is stepped over (a check
/// byte's character is accepted as a tokenizer would after testing it). Returns a checksum.
fn walk(set: &StopSet, hay: &str) -> usize {
    let bytes = hay.as_bytes();
    let mut i = 0;
    let mut sum = 0;
    while i < bytes.len() {
        i = set.run(bytes, i, |j| Some(j + utf8_len(bytes[j])));
        sum += i;
        i += 1;
    }
    sum
}

/// The same walk with a plain loop over the class.
fn walk_plain(set: &StopSet, hay: &str) -> usize {
    let bytes = hay.as_bytes();
    let mut i = 0;
    let mut sum = 0;
    while i < bytes.len() {
        while i < bytes.len() {
            let b = bytes[i];
            if set.is_stop(b) {
                break;
            }
            i += if set.is_check(b) { utf8_len(b) } else { 1 };
        }
        sum += i;
        i += 1;
    }
    sum
}

fn utf8_len(b: u8) -> usize {
    match b {
        0xF0.. => 4,
        0xE0.. => 3,
        0xC0.. => 2,
        _ => 1,
    }
}

fn bench(c: &mut Criterion) {
    for kind in ["html", "xml"] {
        let text = corpus(kind);
        if text.is_empty() {
            eprintln!("no corpus at {}: skipping {kind}", corpus_dir().display());
            continue;
        }
        let mut group = c.benchmark_group(format!("scan/{kind}"));
        group.throughput(Throughput::Bytes(text.len() as u64));
        for (name, set) in [
            ("data", &DATA),
            ("tag-name", &TAG_NAME),
            ("unquoted", &UNQUOTED),
        ] {
            let expected = walk_plain(set, &text);
            group.bench_function(format!("{name} plain loop"), |b| {
                b.iter(|| walk_plain(set, black_box(&text)))
            });
            for engine in [Engine::Memchr, Engine::Swar, Engine::Table] {
                let forced = set.clone().with_engine(engine);
                if forced.engine() != engine {
                    continue; // the class does not fit that engine
                }
                assert_eq!(walk(&forced, &text), expected);
                let chosen = if engine == set.engine() {
                    " (chosen)"
                } else {
                    ""
                };
                group.bench_function(format!("{name} {engine:?}{chosen}"), |b| {
                    b.iter(|| walk(&forced, black_box(&text)))
                });
            }
        }

        // Characters through the cursor against `chars()`.
        group.bench_function("cursor next_char", |b| {
            b.iter(|| {
                let mut input = Cursor::whole(black_box(&text), NewlineRules::CrLf);
                let mut n = 0u32;
                while let Ok(Some(ch)) = input.next_char() {
                    n = n.wrapping_add(ch as u32);
                }
                n
            })
        });
        group.bench_function("plain chars()", |b| {
            b.iter(|| {
                black_box(&text)
                    .chars()
                    .fold(0u32, |n, ch| n.wrapping_add(ch as u32))
            })
        });

        // Line counting: the counter fed in 64 KiB chunks against a plain byte loop.
        for rules in [NewlineRules::CrLf, NewlineRules::LeafXml] {
            group.bench_function(format!("LineCounter {rules:?}"), |b| {
                b.iter(|| {
                    let mut lines = LineCounter::new(rules);
                    let t = black_box(&text);
                    let mut at = 0;
                    while at < t.len() {
                        let mut end = (at + 65536).min(t.len());
                        while !t.is_char_boundary(end) {
                            end += 1;
                        }
                        lines.push(&t[at..end]);
                        at = end;
                    }
                    lines.line_count()
                })
            });
        }
        group.bench_function("line count plain loop", |b| {
            b.iter(|| {
                let bytes = black_box(&text).as_bytes();
                let mut lines = 1;
                for (i, &b) in bytes.iter().enumerate() {
                    if b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')) {
                        lines += 1;
                    }
                }
                lines
            })
        });
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
