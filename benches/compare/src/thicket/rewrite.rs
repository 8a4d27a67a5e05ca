//! thicket-rewrite in the comparison (issue 16): the same work as the lol_html and quick-xml
//! rows in `others_rewrite.rs`.

use std::cell::{Cell, RefCell};
use thicket_rewrite::{Dialect, Rewriter, Settings, UnitKind};

/// What the rewriter is fed: bytes through [`Rewriter::feed`] (sniffed and checked: a
/// `<meta charset>` other than UTF-8 is an error in this part), or text through
/// [`Rewriter::feed_str`] (the caller says it is UTF-8, as lol_html's default `encoding` does).
#[derive(Clone, Copy)]
pub enum Input<'a> {
    /// `feed(bytes)`.
    Bytes(&'a [u8]),
    /// `feed_str(text)`.
    Text(&'a str),
}

fn feed<S: thicket_rewrite::Sink>(rw: &mut Rewriter<'_, S>, input: Input<'_>) -> Option<()> {
    match input {
        Input::Bytes(b) => rw.feed(b).ok(),
        Input::Text(t) => rw.feed_str(t).ok(),
    }
}

/// `rel="nofollow"` on every `a[href]`, output to a `Vec<u8>` (kept from run to run:
/// `crate::output`), fed bytes.
pub fn rewrite_nofollow(_text: &str, bytes: &[u8]) -> Option<usize> {
    let room = bytes.len() + bytes.len() / 8;
    crate::output::with_output(room, |out| nofollow_into(Input::Bytes(bytes), out))
}

/// [`rewrite_nofollow`] fed text.
pub fn rewrite_nofollow_str(text: &str, _bytes: &[u8]) -> Option<usize> {
    let room = text.len() + text.len() / 8;
    crate::output::with_output(room, |out| nofollow_into(Input::Text(text), out))
}

/// The output of [`rewrite_nofollow`] (also used by `--check-rewrite`).
pub fn nofollow_output(input: Input<'_>) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    nofollow_into(input, &mut out)?;
    Some(out)
}

/// [`rewrite_nofollow`]'s work, appending to `out`; answers the output's length.
fn nofollow_into(input: Input<'_>, out: &mut Vec<u8>) -> Option<usize> {
    {
        let settings = Settings::new()
            .on_element("a[href]", |a| a.set_attribute("rel", "nofollow"))
            .ok()?;
        let mut rw = Rewriter::new(Dialect::Html, settings, |b: &[u8]| out.extend_from_slice(b));
        feed(&mut rw, input)?;
        let _ = rw.finish().ok()?;
    }
    Some(out.len())
}

/// The text of every `h1, h2, h3`, read-only (no output): an element handler counting the
/// headings and a text handler scoped to them (`on_text_in`), as lol_html's row does with
/// `element!` and `text!` on the selector (descendants' text included; the HTML tokenizer
/// builds text only inside the headings). The text is taken as written (`Unit::source`), as
/// lol_html's `as_str` gives it.
pub fn extract_headings(_text: &str, bytes: &[u8]) -> Option<usize> {
    Some(headings_text(Input::Bytes(bytes))?.len())
}

/// [`extract_headings`] fed text.
pub fn extract_headings_str(text: &str, _bytes: &[u8]) -> Option<usize> {
    Some(headings_text(Input::Text(text))?.len())
}

/// The text [`extract_headings`] collects (also used by `--check-rewrite`).
pub fn headings_text(input: Input<'_>) -> Option<String> {
    let count = Cell::new(0usize);
    let text = RefCell::new(String::new());
    {
        let settings = Settings::new()
            .on_element("h1, h2, h3", |_| count.set(count.get() + 1))
            .ok()?
            .on_text_in("h1, h2, h3", |t| {
                if matches!(t.kind(), UnitKind::Text(_)) {
                    text.borrow_mut().push_str(t.source());
                }
            })
            .ok()?;
        let mut rw = Rewriter::read_only(Dialect::Html, settings);
        feed(&mut rw, input)?;
        rw.finish().ok()?;
    }
    std::hint::black_box(count.into_inner());
    Some(text.into_inner())
}

/// XML5: `data-seen="1"` on every element with an `id` attribute, output to a `Vec<u8>`.
pub fn xml_set_attribute(_text: &str, bytes: &[u8]) -> Option<usize> {
    Some(xml_set_attribute_output(bytes)?.len())
}

/// The output of [`xml_set_attribute`] (also used by `--check-rewrite`).
pub fn xml_set_attribute_output(bytes: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(bytes.len() + bytes.len() / 8);
    {
        let settings = Settings::new()
            .on_element("[id]", |e| e.set_attribute("data-seen", "1"))
            .ok()?;
        let mut rw = Rewriter::new(Dialect::Xml5, settings, |b: &[u8]| out.extend_from_slice(b));
        rw.feed(bytes).ok()?;
        let _ = rw.finish().ok()?;
    }
    Some(out)
}
