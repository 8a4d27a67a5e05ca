//! The line counter equals a naive count for every offset under every rule set, however the
//! text is fed and whatever order the offsets are asked in.

use proptest::prelude::*;
use thicket_input::lines::{LineCounter, char_count};
use thicket_input::{LineCol, LineIndex, NewlineRules};

/// Line and column of every byte offset (0..=len), counted naively: walk the text, apply the
/// longest line break at each position.
fn naive(text: &str, rules: NewlineRules) -> Vec<LineCol> {
    let b = text.as_bytes();
    let mut line_start = vec![0usize; b.len() + 1];
    let mut line_no = vec![1usize; b.len() + 1];
    let (mut line, mut start) = (1, 0);
    let mut i = 0;
    while i < b.len() {
        let rest = &text[i..];
        let len = if rest.starts_with("\r\n") {
            2
        } else if rules == NewlineRules::LeafXml && rest.starts_with("\r\u{85}") {
            3
        } else if rest.starts_with('\r') || rest.starts_with('\n') {
            1
        } else if rules == NewlineRules::LeafXml && rest.starts_with('\u{85}') {
            2
        } else if rules == NewlineRules::LeafXml && rest.starts_with('\u{2028}') {
            3
        } else {
            0
        };
        let step = if len == 0 {
            rest.chars().next().map_or(1, char::len_utf8)
        } else {
            len
        };
        for k in i..i + step {
            line_no[k] = line;
            line_start[k] = start;
        }
        i += step;
        if len > 0 {
            line += 1;
            start = i;
        }
    }
    line_no[b.len()] = line;
    line_start[b.len()] = start;
    (0..=b.len())
        .map(|o| LineCol {
            line: line_no[o],
            column: char_count(&b[line_start[o]..o]) + 1,
        })
        .collect()
}

fn text() -> impl Strategy<Value = String> {
    "[ab\r\n\u{85}\u{2028}\u{2029}\u{e9}\u{2026}\u{65e5}]{0,40}"
}

fn rules() -> impl Strategy<Value = NewlineRules> {
    prop_oneof![Just(NewlineRules::CrLf), Just(NewlineRules::LeafXml)]
}

fn split<'t>(text: &'t str, cuts: &[usize]) -> Vec<&'t str> {
    let mut at: Vec<usize> = cuts
        .iter()
        .map(|&c| {
            let mut i = c % (text.len() + 1);
            while !text.is_char_boundary(i) {
                i -= 1;
            }
            i
        })
        .chain([0, text.len()])
        .collect();
    at.sort_unstable();
    at.dedup();
    at.windows(2).map(|w| &text[w[0]..w[1]]).collect()
}

proptest! {
    #[test]
    fn every_offset_in_increasing_order(
        s in text(),
        cuts in proptest::collection::vec(0usize..64, 0..6),
        rules in rules(),
    ) {
        let expected = naive(&s, rules);
        let mut counter = LineCounter::new(rules);
        for part in split(&s, &cuts) {
            counter.push(part);
        }
        counter.finish();
        let index = LineIndex::with_rules(&s, rules);
        for (offset, want) in expected.iter().enumerate() {
            prop_assert_eq!(counter.line_col(offset, &s, 0), Some(*want), "offset {}", offset);
            prop_assert_eq!(index.line_col(&s, offset), *want, "offset {}", offset);
        }
        prop_assert_eq!(counter.line_count(), expected[s.len()].line);
        prop_assert_eq!(index.line_count(), expected[s.len()].line);
    }

    #[test]
    fn any_order_of_offsets(
        s in text(),
        cuts in proptest::collection::vec(0usize..64, 0..6),
        offsets in proptest::collection::vec(0usize..64, 0..30),
        rules in rules(),
    ) {
        let expected = naive(&s, rules);
        let mut counter = LineCounter::new(rules);
        for part in split(&s, &cuts) {
            counter.push(part);
        }
        counter.finish();
        for o in offsets {
            let o = o % (s.len() + 1);
            prop_assert_eq!(counter.line_col(o, &s, 0), Some(expected[o]), "offset {}", o);
            prop_assert_eq!(counter.line(o), Some(expected[o].line));
            let bounds = counter.bounds(o).unwrap();
            prop_assert_eq!(bounds.line, expected[o].line);
            prop_assert!(bounds.start <= o && bounds.next.is_none_or(|n| n > o));
        }
    }

    /// Fed and queried as a streaming reader does: chunks arrive, offsets are asked while the
    /// text is still buffered, and what is behind is forgotten. Answers stay those of the naive
    /// count over the whole text.
    #[test]
    fn streaming_with_forgetting(
        s in text(),
        cuts in proptest::collection::vec(0usize..64, 0..8),
        rules in rules(),
        ask_back in 0usize..4,
    ) {
        let expected = naive(&s, rules);
        let mut counter = LineCounter::new(rules);
        let mut buf = String::new();
        let mut base = 0;
        let mut fed = 0;
        for part in split(&s, &cuts) {
            counter.push(part);
            buf.push_str(part);
            fed += part.len();
            // Just after a CR at the end, the offset may be the LF of a CR LF: unknown yet.
            let pending_cr = buf.ends_with('\r');
            if pending_cr {
                prop_assert_eq!(counter.line(fed), None);
            }
            // Ask a few offsets of what is buffered, mostly increasing.
            for o in (base..=fed).filter(|&o| s.is_char_boundary(o) && !(pending_cr && o == fed)) {
                let q = o.saturating_sub(ask_back).max(base);
                prop_assert_eq!(counter.line_col(q, &buf, base), Some(expected[q]), "q {}", q);
                prop_assert_eq!(counter.line_col(o, &buf, base), Some(expected[o]), "o {}", o);
                prop_assert_eq!(counter.line(q), Some(expected[q].line), "line q {}", q);
                prop_assert_eq!(counter.line(o), Some(expected[o].line), "line o {}", o);
            }
            // Forget the first half of the buffer.
            let mut keep = base + buf.len() / 2;
            while !s.is_char_boundary(keep) {
                keep -= 1;
            }
            counter.forget_before(keep, &buf, base);
            let floor = counter.floor();
            prop_assert!(floor <= keep);
            buf.drain(..floor - base);
            base = floor;
            prop_assert_eq!(counter.line_col(base, &buf, base), Some(expected[base]));
            prop_assert_eq!(counter.line_start(expected[base].line).map(|st| st <= base), Some(true));
        }
        counter.finish();
        prop_assert_eq!(counter.line_col(s.len(), &buf, base), Some(expected[s.len()]));
    }
}

proptest! {
    /// Lines only, asked in increasing order between pushes (a reader asking for each event's
    /// line as the text arrives), then again from the start after forgetting nothing.
    #[test]
    fn lines_between_pushes(
        s in text(),
        cuts in proptest::collection::vec(0usize..64, 0..8),
        rules in rules(),
        step in 1usize..5,
    ) {
        let expected = naive(&s, rules);
        let mut counter = LineCounter::new(rules);
        let mut fed = 0;
        let mut next = 0;
        for part in split(&s, &cuts) {
            counter.push(part);
            fed += part.len();
            let known = if s[..fed].ends_with('\r') { fed - 1 } else { fed };
            while next <= known {
                if s.is_char_boundary(next) {
                    prop_assert_eq!(counter.line(next), Some(expected[next].line), "at {}", next);
                }
                next += step;
            }
        }
        counter.finish();
        for o in (0..=s.len()).filter(|&o| s.is_char_boundary(o)) {
            prop_assert_eq!(counter.line(o), Some(expected[o].line), "again at {}", o);
        }
    }
}

#[test]
fn offsets_before_the_floor_or_past_the_end_are_unknown() {
    let mut c = LineCounter::new(NewlineRules::CrLf);
    c.push("ab\ncd\ref");
    assert_eq!(c.line_col(99, "ab\ncd\ref", 0), None);
    c.forget_before(4, "ab\ncd\ref", 0);
    assert_eq!(c.line(3), None);
    assert_eq!(c.line(4), Some(2));
    assert_eq!(c.line_start(2), Some(3));
    assert_eq!(c.line_start(1), None);
    // Text that does not cover what the column is counted from.
    assert_eq!(c.line_col(8, "f", 8), None);
    assert_eq!(
        c.line_col(8, "cd\ref", 4),
        Some(LineCol { line: 3, column: 3 })
    );
}

#[test]
fn a_cr_at_a_chunk_end_is_not_forgotten_before_its_lf() {
    let mut c = LineCounter::new(NewlineRules::CrLf);
    c.push("ab\r");
    c.forget_before(3, "ab\r", 0);
    assert!(c.floor() <= 2);
    c.push("\ncd");
    assert_eq!(c.line_count(), 2);
    assert_eq!(c.line_start(2), Some(4));
}

/// Many queries in increasing order on one very long line cost time proportional to the line
/// once, not per query (a quadratic count would take minutes here).
#[test]
fn increasing_queries_on_a_long_line_are_linear() {
    let line = "\u{e9}x".repeat(1 << 20);
    let mut c = LineCounter::new(NewlineRules::LeafXml);
    c.push(&line);
    let mut last = 0;
    for o in (0..line.len()).step_by(3) {
        let lc = c.line_col(o, &line, 0).unwrap();
        assert!(lc.column >= last);
        last = lc.column;
    }
    assert_eq!(last, (line.len() - 3) / 3 * 2 + 1);
}
