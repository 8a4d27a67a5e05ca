//! The direct path for a whole input ([`crate::parse_with`]), beside the modes.
//!
//! From a clean Main-mode state (nothing queued or pending), it reads units of plain markup: a
//! text run without `&` or CR, followed by a plain end-tag `</name S* >` or a plain start-tag
//! `<name (S+ name S* = S* "value")* S* (> | />)` whose values hold no `&`, `<`, `>` or CR. It
//! hands their tokens straight to the tree builder, with the diagnostics the modes would report
//! there (names that are not MicroXML names, `xmlns` attributes, `>` in text). At the first unit
//! it does not take whole, it stops *before* the unit and leaves it to the mode recognizers, so
//! what it does is exactly what the modes do on those units: the same tokens in the same order
//! (a text run before a tag is one `Data` token either way, since the tag flushes it), and the
//! same diagnostics. `tests/chunks.rs` checks it against the modes on random markup (feeding one
//! character at a time never gives it a unit, since the input then ends inside every tag).

use std::borrow::Cow;

use memchr::memchr;
use thicket_input::Span;

use crate::error::ErrorCode;
use crate::lexer::{
    Tokenizer, is_ascii_micro_name, is_name_start, name_len, quoted_run, s_run, text_run,
};
use crate::tree::TreeBuilder;
use crate::validity;

/// One attribute of a start-tag being read: name `start..end`, `=` ending at `eq_end`, value
/// `value.0..value.1` (inside the quotes).
#[derive(Clone, Copy, Debug)]
struct Attr {
    start: usize,
    end: usize,
    eq_end: usize,
    value: (usize, usize),
}

/// The direct path's scratch space, kept across calls.
#[derive(Debug, Default)]
pub(crate) struct Direct {
    attrs: Vec<Attr>,
}

impl Direct {
    /// Reads plain units from the tokenizer's position (which must be clean) as far as they
    /// go, and moves the tokenizer past them.
    pub(crate) fn run<'a>(
        &mut self,
        input: &'a str,
        tok: &mut Tokenizer,
        builder: &mut TreeBuilder<'a>,
    ) {
        let b = input.as_bytes();
        let mut p = tok.position();
        // Text starting with the LF of a CR LF pair drops it (the modes handle that).
        if p > 0 && b[p - 1] == b'\r' {
            return;
        }
        let start = p;
        while p < b.len() {
            let (n, gt, cr) = text_run(&b[p..]);
            let lt = p + n;
            if cr || b.get(lt) != Some(&b'<') {
                break;
            }
            let Some(&c) = b.get(lt + 1) else {
                break;
            };
            let end = if c == b'/' {
                let Some(end) = end_tag(b, lt) else {
                    break;
                };
                self.text(input, tok, builder, p, lt, gt);
                let name = (lt + 2, lt + 2 + name_len(&b[lt + 2..]));
                check_name(input, tok, name.0, name.1);
                builder.end_tag(&input[name.0..name.1], Span::new(lt, end));
                end
            } else if is_name_start(c) {
                let Some((end, empty)) = self.start_tag(b, lt) else {
                    break;
                };
                self.text(input, tok, builder, p, lt, gt);
                self.commit_start_tag(input, tok, builder, lt, empty);
                end
            } else {
                break;
            };
            p = end;
        }
        if p > start {
            tok.skip_to(p);
        }
    }

    /// The text run `start..end` as one `Data` token.
    #[inline]
    fn text<'a>(
        &self,
        input: &'a str,
        tok: &mut Tokenizer,
        builder: &mut TreeBuilder<'a>,
        start: usize,
        end: usize,
        gt: bool,
    ) {
        if start == end {
            return;
        }
        if gt {
            report_greater_than(input.as_bytes(), tok, start, end);
        }
        builder.text(
            Cow::Borrowed(&input[start..end]),
            Span::new(start, end),
            false,
        );
    }

    /// A plain start-tag at `lt`: where it ends and whether it is an empty-element tag. The
    /// attributes are left in `self.attrs`.
    #[inline]
    fn start_tag(&mut self, b: &[u8], lt: usize) -> Option<(usize, bool)> {
        self.attrs.clear();
        let mut i = lt + 1 + name_len(&b[lt + 1..]);
        loop {
            let s = s_run(&b[i..]);
            let j = i + s;
            match *b.get(j)? {
                b'>' => return Some((j + 1, false)),
                b'/' => return (b.get(j + 1) == Some(&b'>')).then_some((j + 2, true)),
                c if s > 0 && is_name_start(c) => {
                    let end = j + name_len(&b[j..]);
                    let t = s_run(&b[end..]);
                    if b.get(end + t) != Some(&b'=') {
                        return None;
                    }
                    let eq_end = end + t + 1;
                    let q = eq_end + s_run(&b[eq_end..]);
                    let quote = *b.get(q)?;
                    if quote != b'"' && quote != b'\'' {
                        return None;
                    }
                    let vs = q + 1;
                    let ve = vs + quoted_run(&b[vs..], quote);
                    if b.get(ve) != Some(&quote) || has_cr(&b[vs..ve]) {
                        return None;
                    }
                    self.attrs.push(Attr {
                        start: j,
                        end,
                        eq_end,
                        value: (vs, ve),
                    });
                    i = ve + 1;
                }
                _ => return None,
            }
        }
    }

    /// The tokens of the start-tag at `lt` read by [`Direct::start_tag`].
    #[inline]
    fn commit_start_tag<'a>(
        &self,
        input: &'a str,
        tok: &mut Tokenizer,
        builder: &mut TreeBuilder<'a>,
        lt: usize,
        empty: bool,
    ) {
        let name_end = lt + 1 + name_len(&input.as_bytes()[lt + 1..]);
        check_name(input, tok, lt + 1, name_end);
        builder.start_tag_open(
            Cow::Borrowed(&input[lt + 1..name_end]),
            Span::new(lt, name_end),
        );
        for a in &self.attrs {
            check_name(input, tok, a.start, a.end);
            let name = &input[a.start..a.end];
            if name == "xmlns" {
                tok.report(ErrorCode::XmlnsAttribute, a.start, a.end);
            }
            builder.attribute_name(Cow::Borrowed(name), Span::new(a.start, a.eq_end));
            if a.value.1 > a.value.0 {
                builder.attribute_value(Cow::Borrowed(&input[a.value.0..a.value.1]));
            }
        }
        if empty {
            builder.empty_element_tag_close();
        } else {
            builder.start_tag_close();
        }
    }
}

/// A plain end-tag `</name S* >` at `lt`: where it ends.
#[inline]
fn end_tag(b: &[u8], lt: usize) -> Option<usize> {
    let n = name_len(&b[lt + 2..]);
    if n == 0 {
        return None;
    }
    let k = lt + 2 + n;
    let t = s_run(&b[k..]);
    (b.get(k + t) == Some(&b'>')).then_some(k + t + 1)
}

#[inline]
fn has_cr(b: &[u8]) -> bool {
    if b.len() < 32 {
        b.contains(&b'\r')
    } else {
        memchr(b'\r', b).is_some()
    }
}

/// A name MicroXML does not allow (recovery NAMEs are wider), as the modes check it.
#[inline]
fn check_name(input: &str, tok: &mut Tokenizer, start: usize, end: usize) {
    let name = &input[start..end];
    if !is_ascii_micro_name(name.as_bytes()) && !validity::is_name(name) {
        tok.report(ErrorCode::InvalidName, start, end);
    }
}

#[cold]
fn report_greater_than(b: &[u8], tok: &mut Tokenizer, start: usize, end: usize) {
    for i in memchr::memchr_iter(b'>', &b[start..end]) {
        tok.report(ErrorCode::UnescapedGreaterThan, start + i, start + i + 1);
    }
}
