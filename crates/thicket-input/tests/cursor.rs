//! The cursor and the text accumulator: any chunking reads the same characters at the same
//! offsets as the whole input, compaction never loses a byte a caller still holds, and an
//! accumulator equals the naive concatenation of what was pushed.

use std::borrow::Cow;

use proptest::prelude::*;
use thicket_input::cursor::{Cursor, NeedMore};
use thicket_input::scan::Finder;
use thicket_input::{NewlineRules, TextAcc};

/// Text with every kind of line break, multi-byte characters and markup bytes.
fn text() -> impl Strategy<Value = String> {
    "[ab<&\r\n\u{85}\u{2028}\u{e9}\u{65e5}\u{1F600}\u{FEFF}-]{0,40}"
}

fn rules() -> impl Strategy<Value = NewlineRules> {
    prop_oneof![Just(NewlineRules::CrLf), Just(NewlineRules::LeafXml)]
}

/// Splits `text` at the given fractions (moved to character boundaries).
fn chunks(text: &str, cuts: &[usize]) -> Vec<String> {
    let mut at: Vec<usize> = cuts
        .iter()
        .map(|&c| {
            let mut i = c % (text.len() + 1);
            while !text.is_char_boundary(i) {
                i -= 1;
            }
            i
        })
        .collect();
    at.push(0);
    at.push(text.len());
    at.sort_unstable();
    at.dedup();
    at.windows(2).map(|w| text[w[0]..w[1]].to_owned()).collect()
}

/// The naive reading: each character with newlines folded under `rules`, and its offset.
fn naive(text: &str, rules: NewlineRules) -> Vec<(usize, char, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let rest = &text[i..];
        let c = rest.chars().next().unwrap();
        let len = if rest.starts_with("\r\n") {
            2
        } else if rules == NewlineRules::LeafXml && rest.starts_with("\r\u{85}") {
            3
        } else {
            c.len_utf8()
        };
        let folded =
            c == '\r' || (rules == NewlineRules::LeafXml && (c == '\u{85}' || c == '\u{2028}'));
        out.push((i, if folded { '\n' } else { c }, len));
        i += len;
    }
    out
}

/// Reads everything through a cursor fed `parts`, one part whenever it needs more.
fn read(parts: &[String], rules: NewlineRules, compact: bool) -> Vec<(usize, char, usize)> {
    let mut c = Cursor::new(rules).with_min_compaction(1);
    let mut parts = parts.iter();
    let mut out = Vec::new();
    loop {
        match c.peek() {
            Ok(Some(p)) => {
                out.push((c.offset(), p.ch, p.len));
                c.advance(p.len);
            }
            Ok(None) => return out,
            Err(NeedMore) => {
                if compact {
                    let keep = c.offset();
                    c.compact(keep, &mut []);
                }
                match parts.next() {
                    Some(p) => c.feed(p),
                    None => c.finish(),
                }
            }
        }
    }
}

proptest! {
    #[test]
    fn any_chunking_reads_the_whole_input(
        s in text(),
        cuts in proptest::collection::vec(0usize..64, 0..6),
        rules in rules(),
        compact in any::<bool>(),
    ) {
        let expected = naive(&s, rules);
        let mut whole = Cursor::whole(&s, rules);
        let mut got = Vec::new();
        while let Some(p) = whole.peek().unwrap() {
            got.push((whole.offset(), p.ch, p.len));
            whole.advance(p.len);
        }
        prop_assert_eq!(&got, &expected);
        prop_assert_eq!(read(&chunks(&s, &cuts), rules, compact), expected.clone());
        // One character at a time.
        let singles: Vec<String> = s.chars().map(String::from).collect();
        prop_assert_eq!(read(&singles, rules, compact), expected);
    }

    /// A tokenizer-like reader: accumulators and marks held across feeds and compactions.
    /// Whatever a caller holds (an accumulator passed to `compact`, or a mark at or after
    /// `keep`) reads back the same text afterwards.
    #[test]
    fn compaction_never_loses_what_is_held(
        s in text(),
        cuts in proptest::collection::vec(0usize..64, 0..8),
        ops in proptest::collection::vec(0u8..6, 0..80),
        rules in rules(),
    ) {
        let parts = chunks(&s, &cuts);
        let mut parts = parts.iter();
        let mut c = Cursor::new(rules).with_min_compaction(1);
        // Accumulators with the naive text they should hold.
        let mut accs: [(TextAcc, String); 3] = Default::default();
        // A mark: the offset where a "token" began, and the text since (read back at the end).
        let mut mark: Option<usize> = None;
        let mut ops = ops.into_iter().cycle().take(400);
        loop {
            let p = match c.peek() {
                Ok(Some(p)) => p,
                Ok(None) => break,
                Err(NeedMore) => {
                    let keep = mark.unwrap_or(c.offset());
                    let [a, b, d] = &mut accs;
                    c.compact(keep, &mut [&mut a.0, &mut b.0, &mut d.0]);
                    if let Some(m) = mark {
                        // The mark's text is still there.
                        prop_assert_eq!(c.slice(m, c.offset()), &s[m..c.offset()]);
                    }
                    match parts.next() {
                        Some(part) => c.feed(part),
                        None => c.finish(),
                    }
                    continue;
                }
            };
            let at = c.offset();
            let op = ops.next().unwrap_or(0);
            let which = usize::from(op % 3);
            let (acc, model) = &mut accs[which];
            if op < 3 {
                acc.push(p.ch, at, p.len, !p.folded, &c);
                model.push(p.ch);
            } else if op == 3 {
                acc.push_str("&", &c);
                model.push('&');
            } else if op == 4 {
                prop_assert_eq!(acc.as_str(&c), model.as_str());
                *acc = TextAcc::new();
                model.clear();
            } else {
                mark = match mark {
                    Some(m) => {
                        prop_assert_eq!(c.slice(m, at), &s[m..at]);
                        None
                    }
                    None => Some(at),
                };
            }
            c.advance(p.len);
        }
        for (acc, model) in &accs {
            prop_assert_eq!(acc.as_str(&c), model.as_str());
            prop_assert_eq!(acc.clone().into_cow(&c), model.as_str());
        }
    }

    /// The accumulator equals the naive concatenation, and stays borrowed exactly while what
    /// was pushed is one unchanged range.
    #[test]
    fn accumulator_is_the_concatenation(
        s in "[a-z\u{e9}]{1,30}",
        ops in proptest::collection::vec((0u8..5, 0usize..40, 0usize..8), 0..20),
    ) {
        let input = Cursor::whole(&s, NewlineRules::CrLf);
        let mut acc = TextAcc::new();
        let mut model = String::new();
        let mut one_range: Option<Option<(usize, usize)>> = Some(None);
        for (op, a, n) in ops {
            let start = floor(&s, a % (s.len() + 1));
            let end = floor(&s, (start + n).min(s.len()));
            match op {
                0 | 1 => {
                    acc.push_range(start, end, &input);
                    model.push_str(&s[start..end]);
                    one_range = match one_range {
                        Some(None) => Some(Some((start, end))),
                        Some(Some((rs, re))) if re == start => Some(Some((rs, end))),
                        Some(r) if start == end => Some(r),
                        _ => None,
                    };
                }
                2 => {
                    acc.push_char('\u{FFFD}', &input);
                    model.push('\u{FFFD}');
                    one_range = None;
                }
                3 => {
                    acc.push_static("&lt;", &input);
                    model.push_str("&lt;");
                    one_range = None;
                }
                _ => {
                    acc.push_str("x", &input);
                    model.push('x');
                    one_range = None;
                }
            }
            prop_assert_eq!(acc.as_str(&input), model.as_str());
            prop_assert_eq!(acc.len(), model.len());
        }
        let cow: Cow<'_, str> = acc.clone().into_cow_input(&input);
        prop_assert_eq!(&cow, &model);
        if let Some(Some(_)) = one_range {
            prop_assert!(matches!(cow, Cow::Borrowed(_)));
        }
    }

    /// A resumable search finds what a search of the whole input finds, however it is fed.
    #[test]
    fn finder_agrees_with_a_whole_search(
        s in "[-a>]{0,30}",
        cuts in proptest::collection::vec(0usize..40, 0..6),
        from in 0usize..10,
    ) {
        let from = from.min(s.len());
        let expected = s[from..].find("-->").map(|i| from + i);
        let mut c = Cursor::new(NewlineRules::CrLf);
        let mut f = Finder::new(b"-->");
        let mut parts = chunks(&s, &cuts).into_iter();
        let got = loop {
            if c.end() >= from
                && let Ok(found) = f.find(&c, from)
            {
                break found;
            }
            match parts.next() {
                Some(p) => c.feed(&p),
                None => c.finish(),
            }
        };
        prop_assert_eq!(got, expected);
    }
}

fn floor(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[test]
fn whole_inputs_are_borrowed_not_copied() {
    let doc = String::from("<a>text</a>");
    let input = Cursor::whole(&doc, NewlineRules::CrLf);
    assert!(std::ptr::eq(input.text().as_ptr(), doc.as_ptr()));
    assert_eq!(input.input(), Some(doc.as_str()));
    let mut t = TextAcc::new();
    t.push_range(3, 7, &input);
    let s: Cow<'_, str> = t.into_cow_input(&input);
    assert!(matches!(s, Cow::Borrowed("text")));
}

/// Text from a fed buffer is copied, but for one ASCII character, which is a static string:
/// a stream of stray `<` (each its own text token) allocates nothing per token.
#[test]
fn one_ascii_character_from_a_fed_buffer_is_not_copied() {
    let mut c = Cursor::new(NewlineRules::CrLf);
    c.feed("<<é<ab");
    let take = |s: usize, e: usize| {
        let mut t = TextAcc::new();
        t.push_range(s, e, &c);
        t.into_cow_input(&c)
    };
    assert!(matches!(take(0, 1), Cow::Borrowed("<")));
    assert!(matches!(take(0, 2), Cow::Owned(s) if s == "<<"));
    assert!(matches!(take(2, 4), Cow::Owned(s) if s == "é"));
    assert!(matches!(take(5, 6), Cow::Borrowed("a")));
}

#[test]
fn memory_follows_the_text_held_not_the_document() {
    let mut c = Cursor::new(NewlineRules::CrLf).with_lines();
    let line = "0123456789abcdef\n";
    let mut peak = 0;
    for _ in 0..100_000 {
        let keep = c.offset();
        c.compact(keep, &mut []);
        c.feed(line);
        peak = peak.max(c.buffered());
        c.advance(line.len());
        let end = c.offset();
        assert_eq!(c.line(end), Some(c.lines().unwrap().line_count()));
    }
    assert!(peak <= 2 * 4096 + line.len(), "peak {peak}");
    assert_eq!(c.lines().unwrap().line_count(), 100_001);
    let end = c.offset();
    let lc = c.line_col(end - 1).unwrap();
    assert_eq!((lc.line, lc.column), (100_000, 17));
}
