//! Name classification over the characters of the XML corpus.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let dir = thicket_testkit::project_root().join("../shared/corpus/xml");
    let mut text = String::new();
    for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        text.push_str(&std::fs::read_to_string(entry.path()).unwrap_or_default());
    }
    let mut group = c.benchmark_group("names");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("xml10::is_name_char", |b| {
        b.iter(|| {
            black_box(&text)
                .chars()
                .filter(|&c| thicket_names::xml10::is_name_char(c))
                .count()
        })
    });
    group.bench_function("leafxml::is_name_char", |b| {
        b.iter(|| {
            black_box(&text)
                .chars()
                .filter(|&c| thicket_names::leafxml::is_name_char(c))
                .count()
        })
    });
    group.bench_function("microxml::is_name_char", |b| {
        b.iter(|| {
            black_box(&text)
                .chars()
                .filter(|&c| thicket_names::microxml::is_name_char(c))
                .count()
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
