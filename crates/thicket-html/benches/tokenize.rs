//! Tokenizes every document of `../shared/corpus/html`, fully materializing each token, fed whole
//! and in 4 KB chunks.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use thicket_html::{Token, Tokenizer};

fn corpus() -> Vec<(String, String)> {
    let dir = thicket_testkit::project_root().join("../shared/corpus/html");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    files
        .into_iter()
        .filter_map(|p| {
            let name = p.file_name()?.to_string_lossy().into_owned();
            let text = String::from_utf8_lossy(&std::fs::read(&p).ok()?).into_owned();
            Some((name, text))
        })
        .collect()
}

/// Tokenizes `text` in chunks of `chunk` bytes; returns a number derived from every token.
fn tokenize(text: &str, chunk: usize) -> usize {
    let mut tok = Tokenizer::new();
    let mut n = 0;
    let mut pull = |tok: &mut Tokenizer| {
        while let Some(t) = tok.next_token() {
            n += match &t {
                Token::StartTag(t) | Token::EndTag(t) => t.name.len() + t.attributes.len(),
                Token::Text { text, .. } => text.len(),
                Token::Comment { data, .. } => data.len(),
                _ => 1,
            };
        }
    };
    let mut i = 0;
    while i < text.len() {
        let mut j = (i + chunk).min(text.len());
        while !text.is_char_boundary(j) {
            j += 1;
        }
        tok.feed(&text[i..j]);
        pull(&mut tok);
        i = j;
    }
    tok.finish();
    pull(&mut tok);
    n + tok.diagnostics().len()
}

fn bench(c: &mut Criterion) {
    let docs = corpus();
    let mut group = c.benchmark_group("thicket-html");
    for (name, text) in &docs {
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_function(format!("{name} whole"), |b| {
            b.iter(|| tokenize(black_box(text), usize::MAX))
        });
        group.bench_function(format!("{name} 4k chunks"), |b| {
            b.iter(|| tokenize(black_box(text), 4096))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
