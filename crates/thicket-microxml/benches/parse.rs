//! Parses every XML document of ../shared/corpus/xml (whole, with `Options::upstream()`).

use std::path::PathBuf;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use thicket_microxml::{Options, Tokenizer, parse_with};

fn corpus() -> Vec<(String, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/xml");
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .filter_map(|e| {
                    let path = e.path();
                    let bytes = std::fs::read(&path).ok()?;
                    let text = String::from_utf8_lossy(&bytes).into_owned();
                    Some((path.file_name()?.to_string_lossy().into_owned(), text))
                })
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("microxml-parse");
    for (name, text) in corpus() {
        if name.ends_with(".txt") {
            continue;
        }
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_function(&name, |b| {
            b.iter(|| parse_with(std::hint::black_box(&text), Options::upstream()))
        });
    }
    group.finish();

    // The tokenizer alone (no tree), to separate lexing from tree allocation.
    let mut group = c.benchmark_group("microxml-tokenize");
    for (name, text) in corpus() {
        if name.ends_with(".txt") {
            continue;
        }
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_function(&name, |b| {
            b.iter(|| {
                let mut t = Tokenizer::new(Options::upstream());
                t.feed(std::hint::black_box(&text));
                t.finish();
                let mut n = 0usize;
                while let Some(tok) = t.next_token() {
                    n += tok.span().len();
                }
                n
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
