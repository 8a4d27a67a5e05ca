//! Tokenizes and parses every document of ../shared/corpus/xml (draft profile).

use std::path::PathBuf;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use thicket_xml5::{Options, Tokenizer, parse_with};

fn corpus() -> Vec<(String, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/xml");
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .filter_map(|e| {
                    let path = e.path();
                    let text = std::fs::read_to_string(&path).ok()?;
                    Some((path.file_name()?.to_string_lossy().into_owned(), text))
                })
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

fn tokenize_all(text: &str) -> usize {
    let mut t = Tokenizer::with_options(text, Options::default());
    let mut n = 0;
    while t.next_event().is_some() {
        n += 1;
    }
    n
}

fn bench(c: &mut Criterion) {
    let files = corpus();
    let mut group = c.benchmark_group("xml5-tokenize");
    for (name, text) in &files {
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| tokenize_all(std::hint::black_box(text)))
        });
    }
    group.finish();
    let mut group = c.benchmark_group("xml5-tree");
    for (name, text) in &files {
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| parse_with(std::hint::black_box(text), Options::default()))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
