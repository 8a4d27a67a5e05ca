//! Decoding and newline normalization over the shared corpus (`../shared/corpus`).

use std::hint::black_box;
use std::path::{Path, PathBuf};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use thicket_input::{StreamDecoder, Utf, decode_strict, normalize_crlf, normalize_leafxml, whatwg};

/// The corpus folder: `$THICKET_CORPUS`, else `../shared/corpus` beside the workspace.
fn corpus_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("THICKET_CORPUS") {
        return PathBuf::from(dir);
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
}

/// Every corpus file, concatenated per kind, so each benchmark reads one large buffer.
fn corpus(kind: &str) -> Vec<u8> {
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
    bytes
}

fn bench(c: &mut Criterion) {
    for kind in ["html", "xml"] {
        let bytes = corpus(kind);
        if bytes.is_empty() {
            eprintln!("no corpus at {}: skipping {kind}", corpus_dir().display());
            continue;
        }
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let crlf = text.replace('\n', "\r\n");
        let utf16: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();

        let mut group = c.benchmark_group(format!("input/{kind}"));
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function("decode_strict utf-8", |b| {
            b.iter(|| decode_strict(black_box(&bytes), Utf::Utf8).map(|s| s.len()))
        });
        group.bench_function("whatwg::decode (sniff + decode)", |b| {
            b.iter(|| whatwg::decode(black_box(&bytes), None).0.len())
        });
        group.bench_function("StreamDecoder utf-8, 4 KiB chunks", |b| {
            let mut out = String::with_capacity(bytes.len());
            b.iter(|| {
                out.clear();
                let mut d = StreamDecoder::new(encoding_rs::UTF_8);
                for chunk in black_box(&bytes).chunks(4096) {
                    d.feed(chunk, &mut out);
                }
                d.finish(&mut out);
                out.len()
            })
        });
        group.bench_function("normalize_crlf (no CR)", |b| {
            b.iter(|| normalize_crlf(black_box(&text)).len())
        });
        group.bench_function("normalize_leafxml (no CR)", |b| {
            b.iter(|| normalize_leafxml(black_box(&text)).len())
        });
        group.finish();

        let mut group = c.benchmark_group(format!("input/{kind}-variants"));
        group.throughput(Throughput::Bytes(crlf.len() as u64));
        group.bench_function("normalize_crlf (CR LF everywhere)", |b| {
            b.iter(|| normalize_crlf(black_box(&crlf)).len())
        });
        group.throughput(Throughput::Bytes(utf16.len() as u64));
        group.bench_function("decode_strict utf-16le", |b| {
            b.iter(|| decode_strict(black_box(&utf16), Utf::Utf16Le).map(|s| s.len()))
        });
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
