//! Large inputs stream: `check`, `--tokens`, `--events` and `rewrite` (to stdout and in place)
//! keep memory bounded. Each run reports its peak resident set size (the
//! `THICKET_REPORT_PEAK_RSS` hook); the growth over a run on a tiny file must stay well below the
//! input size, which a program reading the whole input would need at least twice (bytes and
//! decoded text).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Size of the generated inputs.
const INPUT: usize = 8 << 20;

fn write_input(name: &str, head: &str, tail: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let line = format!(
        "<p class=\"x\">{}<b>bold</b> &amp; more</p>\n",
        "Some plain text without markup. ".repeat(30)
    );
    let mut text = String::with_capacity(INPUT + line.len());
    text.push_str(head);
    while text.len() < INPUT {
        text.push_str(&line);
    }
    text.push_str(tail);
    std::fs::write(&path, text).expect("the test input is written");
    path
}

/// Runs `thicket args` with stdout discarded; returns the exit code and the peak RSS in KiB.
fn peak_kib(args: &[&str]) -> (i32, u64) {
    let output = Command::new(assert_cmd::cargo::cargo_bin!("thicket"))
        .args(args)
        .env("THICKET_REPORT_PEAK_RSS", "1")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .expect("thicket runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let line = stderr
        .lines()
        .find(|l| l.starts_with("thicket: peak HWM:"))
        .unwrap_or_else(|| panic!("no peak report in {stderr}"));
    let kib = line
        .trim_start_matches("thicket: peak HWM:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .expect("a number of kB");
    (output.status.code().unwrap_or(-1), kib)
}

#[test]
fn large_inputs_stream_in_bounded_memory() {
    if !Path::new("/proc/self/status").exists() {
        return; // The hook reads /proc (Linux).
    }
    let xml = write_input("large.xml", "<doc>\n", "</doc>\n");
    let html = write_input("large.html", "<!DOCTYPE html>\n", "");
    let tiny = write_input("tiny.xml", "<doc/>", "");
    std::fs::write(&tiny, "<doc/>\n").expect("written");
    let (xml, html, tiny) = (
        xml.to_str().expect("utf-8 path"),
        html.to_str().expect("utf-8 path"),
        tiny.to_str().expect("utf-8 path"),
    );
    let (code, baseline) = peak_kib(&["check", tiny]);
    assert_eq!(code, 0);
    let limit = (INPUT / 1024 / 2) as u64;
    for args in [
        &["check", "-d", "html", html][..],
        &["check", "-d", "microxml", xml],
        &["check", "-d", "leafxml", xml],
        &["check", "-d", "xml5", xml],
        &["parse", "-d", "xml5", "--events", xml],
        &["parse", "-d", "html", "--tokens", html],
        &["rewrite", "-d", "xml5", "--set-attr", "p", "k", "v", xml],
        &["rewrite", "-d", "html", "--set-attr", "p", "k", "v", html],
        &["rewrite", "-d", "xml5", "--in-place", "--unwrap", "b", xml],
    ] {
        let (code, peak) = peak_kib(args);
        assert_eq!(code, 0, "{args:?} should find the input valid");
        assert!(
            peak.saturating_sub(baseline) < limit,
            "{args:?}: peak {peak} KiB, baseline {baseline} KiB, input {} KiB",
            INPUT / 1024
        );
    }
}
