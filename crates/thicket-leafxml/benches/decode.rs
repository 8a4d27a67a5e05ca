//! Decoding throughput over the corpus documents LeafXML accepts.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::PathBuf;

/// The corpus files LeafXML accepts: every one but `sample_ns.xml`, which undeclares the default
/// namespace with `xmlns=""` ("The value of namespace attributes must not be empty.").
const FILES: &[&str] = &[
    "atom_mediarss_reddit_1.xml",
    "content-venn.svg",
    "document.xml",
    "gigantic.svg",
    "huge.xml",
    "keepassxc_ja.ts",
    "large.plist",
    "libreoffice_document.fodt",
    "medium.svg",
    "multipolygon_testcases.osm",
    "players.xml",
    "rpm_primary.xml",
    "sample_rss.xml",
    "vk.xml",
];

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/xml")
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("leafxml-decode");
    for name in FILES {
        let Ok(bytes) = std::fs::read(corpus().join(name)) else {
            continue;
        };
        if thicket_leafxml::parse_events(&bytes).is_err() {
            continue;
        }
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function(*name, |b| {
            b.iter(|| {
                let mut reader = thicket_leafxml::Reader::from_bytes(black_box(&bytes));
                let mut n = 0usize;
                while let Ok(Some(_)) = reader.next_event() {
                    n += 1;
                }
                n
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
