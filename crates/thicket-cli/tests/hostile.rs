//! Hostile and broken inputs through the real command line: the diagnostics cap in every view,
//! the limit flags reaching the dialects, encoding labels that are unknown or contradict the
//! bytes, and exit status 2 for every input that cannot be read.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn thicket() -> Command {
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin!("thicket"));
    cmd.env("NO_COLOR", "1").stdin(Stdio::null());
    cmd
}

fn run(args: &[&str]) -> Output {
    thicket().args(args).output().expect("thicket runs")
}

fn write(name: &str, content: &[u8]) -> String {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, content).expect("the test input is written");
    path.to_str().expect("utf-8 path").to_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Diagnostic headlines on stderr (`file:line:col: code: message`) for the file `name`.
fn headlines(err: &str, name: &str) -> usize {
    err.lines()
        .filter(|l| {
            l.strip_prefix(name)
                .and_then(|rest| rest.strip_prefix(':'))
                .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
        })
        .count()
}

/// The count in the `N more diagnostics` line, 0 when there is none.
fn more(err: &str, name: &str) -> usize {
    err.lines()
        .filter_map(|l| l.strip_prefix(name)?.strip_prefix(": "))
        .find_map(|rest| {
            let (n, tail) = rest.split_once(' ')?;
            tail.starts_with("more diagnostic")
                .then(|| n.parse().ok())?
        })
        .unwrap_or(0)
}

/// `"key":N` in a JSON text.
fn json_number(json: &str, key: &str) -> usize {
    let at = json.find(&format!("\"{key}\":")).expect("the key is there") + key.len() + 3;
    json[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .expect("a number")
}

/// Every diagnostic counted by `check` (which shows none).
fn total(dialect: &str, file: &str) -> usize {
    let o = run(&["check", "-d", dialect, file]);
    let out = stdout(&o);
    let n = out
        .split("invalid ")
        .nth(1)
        .and_then(|r| r.split(": ").nth(1))
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no count in {out}"));
    assert_eq!(o.status.code(), Some(1), "{out}");
    n
}

#[test]
fn every_view_shows_at_most_the_cap_and_counts_the_rest() {
    let file = write("cap.xml", "<".repeat(300).as_bytes());
    let html = write("cap.html", "</>".repeat(300).as_bytes());
    for (dialect, file, view) in [
        ("xml5", &file, "--tree"),
        ("xml5", &file, "--tokens"),
        ("xml5", &file, "--events"),
        ("microxml", &file, "--tree"),
        ("microxml", &file, "--tokens"),
        ("html", &html, "--tokens"),
    ] {
        // What the view reports (the streamed views report the tokenizer's errors only).
        let uncapped = stderr(&run(&[
            "parse",
            "-d",
            dialect,
            view,
            file,
            "--max-diagnostics",
            "none",
        ]));
        let all = headlines(&uncapped, file);
        assert!(all > 150, "{dialect} {view}: {all}");
        assert_eq!(more(&uncapped, file), 0);
        if view == "--tree" {
            assert_eq!(
                all,
                total(dialect, file),
                "{dialect}: check counts the same"
            );
        }
        for (cap, shown) in [(None, 100), (Some("7"), 7), (Some("0"), 0)] {
            let mut args = vec!["parse", "-d", dialect, view, file];
            if let Some(cap) = cap {
                args.extend(["--max-diagnostics", cap]);
            }
            let o = run(&args);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(1), "{args:?}");
            assert_eq!(headlines(&err, file), shown, "{args:?}\n{err}");
            assert_eq!(more(&err, file), all - shown, "{args:?}\n{err}");
        }
        // --no-limits turns the parsers' limits off, not the number shown.
        let err = stderr(&run(&["parse", "-d", dialect, view, file, "--no-limits"]));
        assert_eq!(headlines(&err, file), 100, "{dialect} {view} --no-limits");
        assert_eq!(more(&err, file), all - 100, "{dialect} {view} --no-limits");
    }
}

#[test]
fn json_lists_the_first_diagnostics_and_counts_the_rest() {
    let file = write("cap-json.xml", "<".repeat(300).as_bytes());
    let html = write("cap-json.html", "</>".repeat(300).as_bytes());
    for (dialect, file) in [("xml5", &file), ("microxml", &file), ("html", &html)] {
        let all = total(dialect, file);
        let o = run(&[
            "parse",
            "-d",
            dialect,
            "--json",
            file,
            "--max-diagnostics",
            "5",
        ]);
        let out = stdout(&o);
        assert_eq!(o.status.code(), Some(1));
        assert!(out.contains(r#""valid":false"#), "{out}");
        assert_eq!(out.matches(r#"{"code":"#).count(), 5, "{dialect}");
        assert_eq!(
            json_number(&out, "omitted_diagnostics"),
            all - 5,
            "{dialect}"
        );
        assert_eq!(more(&stderr(&o), file), all - 5);
    }
    let valid = write("valid.xml", b"<a/>");
    let out = stdout(&run(&["parse", "--json", &valid]));
    assert!(out.contains(r#""valid":true"#), "{out}");
    assert_eq!(json_number(&out, "omitted_diagnostics"), 0);
}

#[test]
fn leafxml_error_counts_past_a_zero_cap() {
    let file = write("cap-leaf.xml", b"<a></b>");
    for view in ["--tree", "--events", "--json"] {
        let o = run(&[
            "parse",
            "-d",
            "leafxml",
            view,
            &file,
            "--max-diagnostics",
            "0",
        ]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{view}");
        assert_eq!(headlines(&err, &file), 0, "{view}: {err}");
        assert_eq!(more(&err, &file), 1, "{view}: {err}");
    }
}

#[test]
fn check_counts_every_diagnostic_past_the_cap() {
    let file = write("cap-check.xml", "<".repeat(300).as_bytes());
    let capped = run(&["check", &file, "--max-diagnostics", "3"]);
    let uncapped = run(&["check", &file, "--no-limits"]);
    assert_eq!(stdout(&capped), stdout(&uncapped));
    assert_eq!(capped.status.code(), Some(1));
}

#[test]
fn limit_flags_take_a_number_or_none() {
    let file = write("flags.xml", b"<a/>");
    for ok in [
        &["--max-depth", "5"][..],
        &["--max-depth", "none"],
        &["--max-attributes", "NONE"],
        &["--max-name-len", "1"],
        &["--max-value-len", "10"],
        &["--max-namespaces", "1"],
        &["--max-namespace-bytes", "64"],
        &["--max-token-len", "100"],
        &["--no-limits", "--max-depth", "3"],
    ] {
        let o = thicket().arg("parse").arg(&file).args(ok).output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{ok:?}: {}", stderr(&o));
    }
    for bad in [
        &["--max-depth", "deep"][..],
        &["--max-depth", "-1"],
        &["--max-depth"],
    ] {
        let o = thicket()
            .arg("parse")
            .arg(&file)
            .args(bad)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
    }
}

/// LeafXML already honours its limits: the flags reach it in every view.
#[test]
fn leafxml_gets_the_limits() {
    let deep = write("deep.xml", b"<a><b><c><d/></c></b></a>");
    let wide = write("wide.xml", b"<a x='1' y='2' z='3'/>");
    for view in [&["--tree"][..], &["--events"], &["--json"]] {
        let o = thicket()
            .args(["parse", "-d", "leafxml", "--max-depth", "2", &deep])
            .args(view)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(1), "{view:?}");
        assert!(
            stderr(&o).contains("depth-limit"),
            "{view:?}: {}",
            stderr(&o)
        );
        let o = thicket()
            .args(["parse", "-d", "leafxml", "--max-attributes", "2", &wide])
            .args(view)
            .output()
            .unwrap();
        assert!(stderr(&o).contains("attribute-limit"), "{view:?}");
    }
    let o = run(&["check", "-d", "leafxml", "--max-depth", "2", &deep]);
    assert!(stdout(&o).contains("depth-limit"), "{}", stdout(&o));
    assert_eq!(
        run(&["check", "-d", "leafxml", &deep]).status.code(),
        Some(0)
    );
    assert_eq!(
        run(&["check", "-d", "leafxml", "--no-limits", &deep])
            .status
            .code(),
        Some(0)
    );
}

/// Namespace names in scope are bounded in bytes by default: a few long namespace names,
/// nested, reach `namespace-limit` in XML5 and LeafXML, and `--max-namespace-bytes` moves the
/// bound.
#[test]
fn namespace_bytes_are_bounded_by_default() {
    let uri = "u".repeat(400 << 10);
    let doc = format!("<a xmlns:p='{uri}'><b xmlns:q='{uri}'><c xmlns:r='{uri}'/></b></a>");
    let file = write("ns-bytes.xml", doc.as_bytes());
    for dialect in ["xml5", "leafxml"] {
        let o = run(&["check", "-d", dialect, &file]);
        assert_eq!(o.status.code(), Some(1), "{dialect}");
        assert!(
            stdout(&o).contains("namespace-limit"),
            "{dialect}: {}",
            stdout(&o)
        );
        let o = run(&[
            "check",
            "-d",
            dialect,
            "--max-namespace-bytes",
            "none",
            &file,
        ]);
        assert_eq!(o.status.code(), Some(0), "{dialect}: {}", stdout(&o));
        let o = run(&[
            "check",
            "-d",
            dialect,
            "--max-namespace-bytes",
            "100",
            &file,
        ]);
        assert!(stdout(&o).contains("namespace-limit"), "{dialect}");
    }
}

/// `*:nth-of-type` counts every distinct sibling name: `--max-counters` bounds the bytes its
/// counters hold (4 MiB by default, none with `--no-limits`); past it the file stops with
/// `counter-limit`, exit 2, in `select` and in `rewrite`.
#[test]
fn nth_of_type_counters_are_bounded() {
    let mut doc = String::from("<r>");
    for i in 0..2000 {
        doc.push_str(&format!("<e{i}/><e{i}/>"));
    }
    doc.push_str("</r>");
    let file = write("counters.xml", doc.as_bytes());
    let select = |extra: &[&str]| {
        let mut args = vec![
            "select",
            "-d",
            "xml5",
            "--attr",
            "x",
            "*:nth-of-type(2)",
            &file,
        ];
        args.extend_from_slice(extra);
        run(&args)
    };
    let o = select(&["--max-counters", "1000"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("counter-limit"), "{}", stderr(&o));
    // 2,000 names of about 5 bytes and 32 each fit in the default.
    assert_eq!(select(&[]).status.code(), Some(0));
    assert_eq!(select(&["--no-limits"]).status.code(), Some(0));
    let o = run(&[
        "rewrite",
        "-d",
        "xml5",
        "--set-attr",
        "*:nth-of-type(2)",
        "x",
        "1",
        "--max-counters",
        "1000",
        &file,
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("counter-limit"), "{}", stderr(&o));
}

/// The recovering dialects report their limits with the uniform codes, in every view.
#[test]
fn recovering_dialects_get_the_limits() {
    let deep = write("deep-r.xml", b"<a><b><c><d/></c></b></a>");
    let wide = write("wide-r.xml", b"<a x='1' y='2' z='3'/>");
    let wide_html = write("wide-r.html", b"<p x=1 y=2 z=3>");
    for dialect in ["xml5", "microxml"] {
        for view in ["--tree", "--json"] {
            let o = run(&["parse", "-d", dialect, view, "--max-depth", "2", &deep]);
            assert!(stderr(&o).contains("depth-limit"), "{dialect} {view}");
        }
        let o = run(&["check", "-d", dialect, "--max-depth", "2", &deep]);
        assert!(stdout(&o).contains("depth-limit"), "{dialect} check");
        let o = run(&["parse", "-d", dialect, "--max-attributes", "2", &wide]);
        assert!(stderr(&o).contains("attribute-limit"), "{dialect}");
    }
    for view in ["--tokens", "--json"] {
        let o = run(&[
            "parse",
            "-d",
            "html",
            view,
            "--max-attributes",
            "2",
            &wide_html,
        ]);
        assert!(stderr(&o).contains("attribute-limit"), "html {view}");
    }
}

#[test]
fn encoding_labels_that_are_unknown_or_contradict_the_bytes_are_diagnostics() {
    let unknown = write(
        "unknown-label.xml",
        b"<?xml version=\"1.0\" encoding=\"x-bogus-42\"?><a>caf\xc3\xa9</a>",
    );
    let mut utf16 = vec![0xFF, 0xFE];
    for c in "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a>café</a>".encode_utf16() {
        utf16.extend(c.to_le_bytes());
    }
    let mismatch = write("mismatch-label.xml", &utf16);
    for (file, code) in [
        (&unknown, "unknown-encoding"),
        (&mismatch, "encoding-mismatch"),
    ] {
        for args in [
            &["parse", "-d", "xml5", "--tree"][..],
            &["parse", "-d", "xml5", "--tokens"],
            &["parse", "-d", "xml5", "--events"],
            &["parse", "-d", "microxml", "--tokens"],
        ] {
            let o = thicket().args(args).arg(file).output().unwrap();
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(1), "{args:?}");
            assert!(err.contains(&format!(":1:31: {code}: ")), "{args:?}: {err}");
            // Decoding is unchanged: the text still reads `café`.
            if args.contains(&"--tree") {
                assert!(stdout(&o).contains("\"café\""), "{}", stdout(&o));
            }
        }
        let o = run(&["parse", "-d", "xml5", "--json", file]);
        assert!(
            stdout(&o).contains(&format!(r#"{{"code":"{code}""#)),
            "{}",
            stdout(&o)
        );
        let o = run(&["parse", "-d", "microxml", "--json", file]);
        assert!(stdout(&o).contains(&format!(r#"{{"code":"{code}""#)));
        let o = run(&["check", "-d", "xml5", file]);
        assert_eq!(o.status.code(), Some(1));
        assert!(stdout(&o).contains(code), "{}", stdout(&o));
    }
    // A known label that agrees is no diagnostic.
    let fine = write(
        "fine-label.xml",
        b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a>caf\xe9</a>",
    );
    assert_eq!(run(&["check", "-d", "xml5", &fine]).status.code(), Some(0));
    // HTML: a BOM that disagrees with <meta charset> is not an error.
    let html = write(
        "bom-meta.html",
        b"\xEF\xBB\xBF<!DOCTYPE html><meta charset=windows-1252><p>caf\xc3\xa9</p>",
    );
    assert_eq!(run(&["check", "-d", "html", &html]).status.code(), Some(0));
}

/// Every command and view of every dialect.
fn every_view() -> Vec<Vec<&'static str>> {
    let mut all = Vec::new();
    for (dialect, views) in [
        ("xml5", &["--tree", "--tokens", "--events", "--json"][..]),
        ("microxml", &["--tree", "--tokens", "--json"]),
        ("leafxml", &["--tree", "--events", "--json"]),
        ("html", &["--tokens", "--json"]),
    ] {
        for view in views {
            all.push(vec!["parse", "-d", dialect, view]);
        }
        all.push(vec!["check", "-d", dialect]);
    }
    all.push(vec!["compare"]);
    all
}

fn assert_read_error(args: &[&str], input: &str) {
    let o = thicket().args(args).arg(input).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{args:?} {input}: {}", stderr(&o));
    let said = format!("{}{}", stdout(&o), stderr(&o));
    assert!(said.contains("cannot read"), "{args:?} {input}: {said}");
}

#[test]
fn inputs_that_cannot_be_read_exit_with_2_in_every_view() {
    let dir: PathBuf = Path::new(env!("CARGO_TARGET_TMPDIR")).to_owned();
    let dir = dir.to_str().expect("utf-8 path");
    let missing = format!("{dir}/no-such-file.xml");
    // Opens, then fails on the first read (EIO: address 0 is not mapped).
    let failing = "/proc/self/mem";
    let fails_on_read = std::fs::File::open(failing)
        .and_then(|mut f| std::io::Read::read(&mut f, &mut [0; 16]))
        .is_err();
    for args in every_view() {
        assert_read_error(&args, dir);
        assert_read_error(&args, &missing);
        if fails_on_read {
            assert_read_error(&args, failing);
        }
    }
}

#[test]
fn a_closed_standard_input_is_a_read_error() {
    if !Path::new("/proc/self/fdinfo/0").exists() {
        return; // Telling a closed stdin from /dev/null needs /proc (Linux).
    }
    let bin = assert_cmd::cargo::cargo_bin!("thicket");
    for args in every_view() {
        let script = format!("exec \"$0\" {} - <&-", args.join(" "));
        let o = Command::new("sh")
            .arg("-c")
            .arg(&script)
            .arg(bin)
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{script}: {}", stderr(&o));
        // An empty standard input is a document like any other.
        let o = thicket().args(&args).arg("-").output().unwrap();
        assert_ne!(o.status.code(), Some(2), "{args:?} on /dev/null");
    }
}

#[test]
fn html_comments_honour_the_token_length_limit() {
    let file = write("long-comment.html", b"<p><!--0123456789abcdef--><b>");
    let o = run(&[
        "parse",
        "-d",
        "html",
        "--tokens",
        &file,
        "--max-token-len",
        "8",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("token-length-limit"), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("Comment \"01234567\" 3..26"),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).contains("StartTag b"), "{}", stdout(&o));
    // The default (4 MiB) leaves it alone.
    let o = run(&["parse", "-d", "html", "--tokens", &file]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// `select` on nested matches: each match is printed as it closes (the inner first) and nothing
/// is gathered across matches; past the depth limit of `LIMITS` an element is not opened and
/// prints as its start tag at once (docs/rewrite.md, "Depth limit").
#[test]
fn select_streams_nested_matches_under_the_depth_limit() {
    let whole = "<div>".repeat(50);
    let file = write("select-nested.html", whole.as_bytes());
    let o = run(&["select", "--max-depth", "3", "div", &file]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 50);
    assert!(lines[..47].iter().all(|l| *l == "<div>"), "{lines:?}");
    // Open at the end of input, inner first: each the rest of the document from its div on.
    assert_eq!(lines[47..], [&whole[10..], &whole[5..], &whole[..]]);
}

/// A match longer than `--max-match` is reported and not printed; the others are, and the exit
/// status is 2. `--max-match none` and `--no-limits` lift the bound.
#[test]
fn select_refuses_a_match_longer_than_max_match() {
    let file = write(
        "select-long.html",
        format!("<p>{}</p><p>short</p>", "x".repeat(100)).as_bytes(),
    );
    let o = run(&["select", "--max-match", "50", "p", &file]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stdout(&o), "<p>short</p>\n");
    let err = stderr(&o);
    assert!(
        err.contains("the match starting at byte 0 is longer than --max-match (50 bytes)"),
        "{err}"
    );
    for lift in [&["--max-match", "none"][..], &["--no-limits"][..]] {
        let o = run(&[&["select"][..], lift, &["p", &file]].concat());
        assert_eq!(o.status.code(), Some(0), "{lift:?}: {}", stderr(&o));
        assert_eq!(stdout(&o).lines().count(), 2, "{lift:?}");
    }
    // `--text` is bounded by the text's length, not the markup's.
    let o = run(&["select", "--text", "--max-match", "50", "p", &file]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stdout(&o), "short\n");
}

/// `select` over many chunks in every mode: the same matches as over a small document, at the
/// right lines and columns.
#[test]
fn select_streams_a_large_document_in_every_mode() {
    let mut doc = String::new();
    for i in 0..20_000 {
        doc.push_str(&format!("<p id=\"p{i}\">text {i}\n</p>\n"));
    }
    let file = write("select-large.html", doc.as_bytes());
    let outer = run(&["select", "p", &file]);
    assert_eq!(outer.status.code(), Some(0), "{}", stderr(&outer));
    assert_eq!(stdout(&outer).matches("<p id=").count(), 20_000);
    let text = run(&["select", "--text", "p", &file]);
    assert_eq!(
        stdout(&text)
            .lines()
            .filter(|l| l.starts_with("text "))
            .count(),
        20_000
    );
    let attr = run(&["select", "--attr", "id", "p", &file]);
    assert_eq!(stdout(&attr).lines().last(), Some("p19999"));
    let json = run(&["select", "--json", "p", &file]);
    let last = stdout(&json).lines().last().unwrap_or_default().to_owned();
    assert_eq!(json_number(&last, "line"), 2 * 19_999 + 1, "{last}");
    assert_eq!(json_number(&last, "column"), 1, "{last}");
}

/// `select --json` counts lines as the rest of the CLI does: LF, CR LF (one break) and a lone
/// CR end a line, also when a CR LF is split between two chunks.
#[test]
fn select_json_lines_end_at_cr_lf_and_cr() {
    let mut doc = "<r>\r<a>x</a>\r\n<a/>\n\r<a/>".to_owned();
    // A CR at the end of the first 64 KiB chunk and its LF at the start of the next.
    doc.push_str(&" ".repeat(65_536 - doc.len() - 1));
    doc.push_str("\r\n<a/></r>");
    let file = write("select-cr.xml", doc.as_bytes());
    let json = run(&["select", "--json", "a", &file]);
    let lines: Vec<usize> = stdout(&json)
        .lines()
        .map(|l| json_number(l, "line"))
        .collect();
    assert_eq!(lines, [2, 3, 5, 6], "{}", stdout(&json));
}

/// `select`: a file the rewriter stops in is reported as the document's error, not a read
/// error; the next file is still read, and the exit status is 2. Standard input is `<stdin>`.
#[test]
fn select_goes_on_after_a_file_the_rewriter_stops_in() {
    let bad = write("select-bad.xml", b"<r><p>ok</p>\xff<p>late</p></r>");
    let good = write("select-good.xml", b"<r><p>fine</p></r>");
    let o = run(&["select", "-d", "leafxml", "--text", "p", &bad, &good]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot select in `"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("cannot read"), "{}", stderr(&o));
    assert!(stdout(&o).ends_with("fine\n"), "{}", stdout(&o));
    let mut cmd = thicket();
    cmd.args(["select", "--json", "p", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped());
    let mut child = cmd.spawn().expect("thicket runs");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(b"<p>x</p>").expect("written");
    }
    let o = child.wait_with_output().expect("thicket ends");
    assert!(
        stdout(&o).starts_with("{\"file\":\"<stdin>\""),
        "{}",
        stdout(&o)
    );
}
