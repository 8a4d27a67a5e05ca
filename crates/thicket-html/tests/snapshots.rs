//! Token-stream snapshots of the fixtures: `tests/data/ok/*` must give no diagnostics,
//! `tests/data/err/*` at least one. One token or error per line.

use std::fmt::Write as _;
use std::path::Path;

use thicket_html::{Token, Tokenizer};

fn dump(input: &str) -> (String, usize) {
    let mut tok = Tokenizer::new();
    tok.feed(input);
    tok.finish();
    let mut out = String::new();
    while let Some(t) = tok.next_token() {
        let span = t.span();
        let _ = match &t {
            Token::Doctype(d) => writeln!(
                out,
                "Doctype {:?} public={:?} system={:?} quirks={} {span:?}",
                d.name, d.public_id, d.system_id, d.force_quirks
            ),
            Token::StartTag(tag) | Token::EndTag(tag) => {
                let kind = if matches!(t, Token::StartTag(_)) {
                    "StartTag"
                } else {
                    "EndTag"
                };
                let _ = write!(out, "{kind} {:?}", tag.name);
                for a in &tag.attributes {
                    let _ = write!(out, " {:?}={:?}@{:?}", a.name, a.value, a.span);
                }
                let sc = if tag.self_closing {
                    " self-closing"
                } else {
                    ""
                };
                writeln!(out, "{sc} {span:?}")
            }
            Token::Comment { data, .. } => writeln!(out, "Comment {data:?} {span:?}"),
            Token::ProcessingInstruction { target, data, .. } => {
                writeln!(out, "ProcessingInstruction {target:?} {data:?} {span:?}")
            }
            Token::Text { text, .. } => writeln!(out, "Text {text:?} {span:?}"),
            Token::Discarded { .. } => writeln!(out, "Discarded {span:?}"),
            Token::Eof { .. } => writeln!(out, "Eof {span:?}"),
        };
    }
    let errors = tok.diagnostics().len();
    for d in tok.diagnostics() {
        let _ = writeln!(out, "error[{}] {:?}", d.code, d.span);
    }
    (out, errors)
}

fn fixtures(kind: &str) -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(kind);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("fixture folder")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).expect("UTF-8 fixture"))
        })
        .collect()
}

#[test]
fn ok_fixtures_have_no_errors() {
    for (name, input) in fixtures("ok") {
        let (out, errors) = dump(&input);
        assert_eq!(errors, 0, "{name}:\n{out}");
        insta::assert_snapshot!(format!("ok-{name}"), out);
    }
}

#[test]
fn err_fixtures_have_errors() {
    for (name, input) in fixtures("err") {
        let (out, errors) = dump(&input);
        assert!(errors > 0, "{name}:\n{out}");
        insta::assert_snapshot!(format!("err-{name}"), out);
    }
}
