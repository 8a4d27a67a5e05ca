//! Rewriting one input fed in every way: whole, as bytes one at a time, as text one character
//! at a time, and (for inputs up to 200 bytes) split in two at every byte; every way must give
//! the same output, the same error and the same record of what handlers saw.

#![allow(dead_code)]

use std::cell::RefCell;
use std::rc::Rc;

use thicket_rewrite::{Dialect, Error, Rewriter, Settings};

/// What handlers record, shared with the test.
pub type Seen = Rc<RefCell<Vec<String>>>;

/// The result of one rewrite: the output (or the error, with the output written before it)
/// and what the handlers recorded.
#[derive(Debug, PartialEq, Eq)]
pub struct Run {
    pub out: String,
    pub error: Option<String>,
    pub seen: Vec<String>,
}

fn error_text(e: &Error) -> String {
    format!("{} {}..{}", e.code.as_str(), e.span.start, e.span.end)
}

/// One rewrite with the input fed as `chunks` (bytes through `feed`, or text through
/// `feed_str`).
fn run_chunks(
    dialect: Dialect,
    make: &dyn Fn(Seen) -> Settings<'static>,
    chunks: &[&[u8]],
    as_text: bool,
) -> Run {
    let seen: Seen = Rc::default();
    let out = Rc::new(RefCell::new(Vec::new()));
    let sink = {
        let out = out.clone();
        move |b: &[u8]| out.borrow_mut().extend_from_slice(b)
    };
    let mut r = Rewriter::new(dialect, make(seen.clone()), sink);
    let mut error = None;
    for c in chunks {
        let res = if as_text {
            r.feed_str(std::str::from_utf8(c).expect("chunks at char boundaries"))
        } else {
            r.feed(c)
        };
        if let Err(e) = res {
            error = Some(error_text(&e));
            break;
        }
    }
    if error.is_none()
        && let Err(e) = r.finish()
    {
        error = Some(error_text(&e));
    }
    let out = String::from_utf8(out.borrow().clone()).expect("UTF-8 output");
    let seen = seen.borrow().clone();
    Run { out, error, seen }
}

/// Rewrites `input` in every way; all must agree. Returns the run.
pub fn every_split(input: &str, dialect: Dialect, make: impl Fn(Seen) -> Settings<'static>) -> Run {
    let bytes = input.as_bytes();
    let whole = run_chunks(dialect, &make, &[bytes], false);
    let ones: Vec<&[u8]> = bytes.chunks(1).collect();
    assert_eq!(
        run_chunks(dialect, &make, &ones, false),
        whole,
        "byte by byte: {input:?}"
    );
    let mut chars = Vec::new();
    let mut at = 0;
    for c in input.chars() {
        chars.push(&bytes[at..at + c.len_utf8()]);
        at += c.len_utf8();
    }
    assert_eq!(
        run_chunks(dialect, &make, &chars, true),
        whole,
        "char by char: {input:?}"
    );
    if bytes.len() <= 200 {
        for split in 1..bytes.len() {
            let (a, b) = bytes.split_at(split);
            assert_eq!(
                run_chunks(dialect, &make, &[a, b], false),
                whole,
                "split at {split}: {input:?}"
            );
        }
    }
    whole
}

/// [`every_split`] in HTML.
pub fn html(input: &str, make: impl Fn(Seen) -> Settings<'static>) -> Run {
    every_split(input, Dialect::Html, make)
}

/// [`every_split`] in XML5.
pub fn xml(input: &str, make: impl Fn(Seen) -> Settings<'static>) -> Run {
    every_split(input, Dialect::Xml5, make)
}
