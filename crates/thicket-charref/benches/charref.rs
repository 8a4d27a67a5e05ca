//! Named-reference lookup over every `&` in the HTML corpus, and the numeric rules.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

fn corpus_refs() -> Vec<String> {
    let dir = thicket_testkit::project_root().join("../shared/corpus/html");
    let mut refs = Vec::new();
    for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
        for (i, _) in text.match_indices('&') {
            let end = (i + 1 + 40).min(text.len());
            let mut end = end;
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            refs.push(text[i + 1..end].to_owned());
        }
    }
    refs
}

fn bench(c: &mut Criterion) {
    let refs = corpus_refs();
    let bytes: usize = refs.iter().map(String::len).sum();
    let mut group = c.benchmark_group("charref");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function("longest_match over corpus references", |b| {
        b.iter(|| {
            let mut n = 0;
            for r in &refs {
                if let thicket_charref::LongestMatch::Found { len, .. } =
                    thicket_charref::longest_match(black_box(r), true)
                {
                    n += len;
                }
            }
            n
        })
    });
    group.throughput(Throughput::Elements(0x11_0000));
    group.bench_function("numeric::whatwg over every code point", |b| {
        b.iter(|| {
            (0..0x11_0000u32)
                .map(|c| thicket_charref::numeric::whatwg(black_box(c)).0 as u32)
                .fold(0u32, u32::wrapping_add)
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
