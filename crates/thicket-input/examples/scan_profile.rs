//! `cargo run --release -p thicket-input --example scan_profile -- CLASS ENGINE FILE...`: walks
//! the files run by run with one of the benchmark's classes (`data`, `tag-name`, `unquoted`)
//! and engine (`memchr`, `swar`, `table`, `plain`), for instruction counts under
//! `valgrind --tool=callgrind` (the `scan` benchmark measures time).

use thicket_input::scan::{Engine, StopSet};

const ODD: &[u8] = b"\x01\x02\x03\x04\x05\x06\x07\x08\x0B\x0E\x0F\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1A\x1B\x1C\x1D\x1E\x1F\x7F";
const LEADS: &[u8] = &[0xC2, 0xEF, 0xF0, 0xF1, 0xF2, 0xF3, 0xF4];
static DATA: StopSet = StopSet::new(b"<&\r\0").check(ODD).check(LEADS);
static TAG_NAME: StopSet = StopSet::new(b"\t\n\x0C />\r\0").check(ODD).check(LEADS);
static UNQUOTED: StopSet = StopSet::new(b"\t\n\x0C &>\r\0\"'<=`")
    .check(ODD)
    .check(LEADS);

fn utf8_len(b: u8) -> usize {
    match b {
        0xF0.. => 4,
        0xE0.. => 3,
        0xC0.. => 2,
        _ => 1,
    }
}

#[inline(never)]
fn walk(set: &StopSet, bytes: &[u8]) -> usize {
    let mut i = 0;
    let mut sum = 0;
    while i < bytes.len() {
        i = set.run(bytes, i, |j| Some(j + utf8_len(bytes[j])));
        sum += i;
        i += 1;
    }
    sum
}

#[inline(never)]
fn walk_plain(set: &StopSet, bytes: &[u8]) -> usize {
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

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(class), Some(engine)) = (args.next(), args.next()) else {
        eprintln!("usage: scan_profile CLASS ENGINE FILE...");
        std::process::exit(2);
    };
    let set = match class.as_str() {
        "data" => &DATA,
        "tag-name" => &TAG_NAME,
        _ => &UNQUOTED,
    };
    let mut total = 0;
    for path in args {
        let bytes = std::fs::read(&path).unwrap_or_default();
        total += match engine.as_str() {
            "plain" => walk_plain(set, &bytes),
            e => {
                let engine = match e {
                    "memchr" => Engine::Memchr,
                    "swar" => Engine::Swar,
                    _ => Engine::Table,
                };
                walk(&set.clone().with_engine(engine), &bytes)
            }
        };
    }
    println!("{total}");
}
