//! A window over decoded text that knows line numbers, so diagnostics can be located and shown
//! with their source line while a large input streams through in bounded memory.
//!
//! The window keeps the most recent text (at least [`KEEP`] bytes once the input is longer);
//! where its lines start is the crate's one [`LineCounter`] (fed as the text is pushed, told to
//! forget what the window trims). Lines end at LF, CR LF and a lone CR, as
//! [`LineIndex`](crate::LineIndex) counts them. Offsets before the window can no longer be located.
//! A window over a whole document ([`Window::whole`]) borrows the text instead of copying it.
//!
//! Columns are found in time linear in the text and the lookups together, however long a line
//! is: the window remembers the furthest offset whose column it has counted (the *front*) and,
//! every [`MARK`] bytes behind it, the column at that offset. A lookup past the front counts on
//! from the front (diagnostics mostly come in input order, so this is all the counting there is);
//! a lookup behind it counts from the nearest mark or line start, at most [`MARK`] bytes.

use std::borrow::Cow;
use std::collections::VecDeque;

use crate::lines::LineCounter;
use crate::newline::NewlineRules;

/// How much text a bounded window keeps behind the newest chunk when it trims.
pub const KEEP: usize = 256 << 10;

/// Spacing, in bytes, of the remembered columns: the most a lookup behind the front counts.
pub const MARK: usize = 4 << 10;

/// A located line: its number, and the slice of it the window still holds.
#[derive(Debug)]
pub struct Line<'a> {
    /// 1-based line number.
    pub number: usize,
    /// Global byte offset of `text`'s first byte (the line start, or the window start when the
    /// window begins inside the line).
    pub start: usize,
    /// The line without its line break (possibly cut at the window start or end).
    pub text: &'a str,
    /// Characters of the line before `text` (not zero when the window starts inside the line).
    pub hidden_columns: usize,
}

/// Decoded text with line bookkeeping; see the module docs.
#[derive(Debug)]
pub struct Window<'t> {
    text: Cow<'t, str>,
    /// Global offset of `text[0]`.
    base: usize,
    /// Characters between the start of the line that contains `base` and `base`.
    base_col: usize,
    /// Where the lines start (from the line that contains `base` on).
    lines: LineCounter,
    /// How much text to keep when trimming (`None`: keep everything).
    keep: Option<usize>,
    /// Columns are known up to this global offset.
    front: usize,
    /// The column at `front` (characters from its line start, hidden ones included).
    front_col: usize,
    /// The column at each global offset `(first_mark + i) * MARK`, for every such offset from
    /// the window start up to `front` (inclusive).
    marks: VecDeque<usize>,
    /// Index of `marks[0]`.
    first_mark: usize,
    /// Bytes counted to find columns (for tests that check the work stays linear).
    scanned: u64,
}

impl Window<'static> {
    /// A window that keeps everything pushed into it.
    pub fn unbounded() -> Window<'static> {
        Window::new(Cow::Owned(String::new()), None)
    }

    /// A window that keeps about [`KEEP`] bytes (for streaming).
    pub fn bounded() -> Window<'static> {
        Window::with_keep(KEEP)
    }

    /// A window that keeps at least `keep` bytes and at most about twice as many (tests and
    /// fuzzing use a small one to exercise trimming).
    pub fn with_keep(keep: usize) -> Window<'static> {
        Window::new(Cow::Owned(String::new()), Some(keep.max(1)))
    }
}

impl<'t> Window<'t> {
    /// A window over a whole document, borrowing it.
    pub fn whole(text: &'t str) -> Window<'t> {
        let mut w = Window::new(Cow::Borrowed(text), None);
        w.lines.push(text);
        w.lines.finish();
        w
    }

    fn new(text: Cow<'t, str>, keep: Option<usize>) -> Window<'t> {
        Window {
            text,
            base: 0,
            base_col: 0,
            lines: LineCounter::new(NewlineRules::CrLf),
            keep,
            front: 0,
            front_col: 0,
            marks: VecDeque::from([0]),
            first_mark: 0,
            scanned: 0,
        }
    }

    /// The global offset one past the last byte pushed.
    pub fn end(&self) -> usize {
        self.base + self.text.len()
    }

    /// Bytes counted so far to find columns. Locating diagnostics in input order counts each
    /// byte at most once; out of order, at most [`MARK`] bytes more per lookup.
    pub fn scanned_bytes(&self) -> u64 {
        self.scanned
    }

    /// Appends decoded text (trimming old text first when bounded).
    pub fn push(&mut self, chunk: &str) {
        if let Some(keep) = self.keep
            && self.text.len() > 2 * keep
        {
            self.trim(self.text.len() - keep);
        }
        self.text.to_mut().push_str(chunk);
        self.lines.push(chunk);
    }

    /// Drops text before local offset `cut` (moved to a character boundary, never right after a CR).
    fn trim(&mut self, mut cut: usize) {
        while cut < self.text.len()
            && (!self.text.is_char_boundary(cut) || self.text.as_bytes()[cut - 1] == b'\r')
        {
            cut += 1;
        }
        let new_base = self.base + cut;
        // The column at the new start, found as any other (the front moves there if it lagged).
        let Some((_, start, start_col)) = self.line_of(new_base) else {
            return;
        };
        let new_base_col = self.column(new_base, start, start_col);
        self.lines.forget_before(new_base, &self.text, self.base);
        self.base_col = new_base_col;
        self.text.to_mut().drain(..cut);
        self.base = new_base;
        while self.first_mark * MARK < new_base && !self.marks.is_empty() {
            self.marks.pop_front();
            self.first_mark += 1;
        }
    }

    /// The line holding `offset` (which the window holds): its number, its start (the window
    /// start when the line starts before it) and the column there, and where the next line
    /// starts (the end of the text when none has yet).
    fn bounds(&mut self, offset: usize) -> Option<(usize, usize, usize, usize)> {
        let (line, start, next) = match self.lines.bounds(offset) {
            Some(b) => (b.line, b.start, b.next.unwrap_or(self.end())),
            // Just after a CR that ends the text pushed (an LF may still join it): the CR has
            // started a line, empty so far.
            None if offset == self.end() && offset > self.base => {
                (self.lines.line_count(), offset, offset)
            }
            None => return None,
        };
        Some(if start < self.base {
            (line, self.base, self.base_col, next)
        } else {
            (line, start, 0, next)
        })
    }

    /// The line number, start offset and column at the start, of the line holding `offset`.
    fn line_of(&mut self, offset: usize) -> Option<(usize, usize, usize)> {
        let (line, start, col, _) = self.bounds(offset)?;
        Some((line, start, col))
    }

    /// The line containing global `offset`, or `None` when the window no longer holds it.
    pub fn line(&mut self, offset: usize) -> Option<Line<'_>> {
        if offset < self.base || offset > self.end() {
            return None;
        }
        let (number, start, hidden, end) = self.bounds(offset)?;
        let text = self.text[start - self.base..end - self.base].trim_end_matches(['\n', '\r']);
        Some(Line {
            number,
            start,
            text,
            hidden_columns: hidden,
        })
    }

    /// The 1-based line and column (in characters) of global `offset`.
    pub fn line_col(&mut self, offset: usize) -> Option<(usize, usize)> {
        if offset < self.base || offset > self.end() {
            return None;
        }
        let (number, start, start_col) = self.line_of(offset)?;
        let mut col = self.column(offset, start, start_col);
        if !self.text.is_char_boundary(offset - self.base) {
            // The count includes the first byte of the character `offset` points into.
            col -= 1;
        }
        Some((number, col + 1))
    }

    /// Characters (counted as the bytes that start one) from the start of the line to
    /// `offset`, given the line's `start` and the column there.
    fn column(&mut self, offset: usize, start: usize, start_col: usize) -> usize {
        if offset >= self.front {
            self.advance(offset);
            return self.front_col;
        }
        let mark = offset / MARK;
        let (from, col) = if mark >= self.first_mark && mark * MARK >= start {
            (mark * MARK, self.marks[mark - self.first_mark])
        } else {
            (start, start_col)
        };
        self.count(from, offset) + col
    }

    /// Moves the front to `to`, recording the marks it passes.
    fn advance(&mut self, to: usize) {
        let mut at = self.front;
        let mut col = self.front_col;
        let mut next_start = self.next_line_start(at);
        while at < to {
            let next_mark = (self.first_mark + self.marks.len()) * MARK;
            let stop = to.min(next_mark).min(next_start);
            col += self.count(at, stop);
            at = stop;
            if at == next_start {
                col = 0;
                next_start = self.next_line_start(at);
            }
            if at == next_mark {
                self.marks.push_back(col);
            }
        }
        self.front = at;
        self.front_col = col;
    }

    /// Where the line after the one holding `at` starts (`usize::MAX`: none yet).
    fn next_line_start(&mut self, at: usize) -> usize {
        self.lines
            .bounds(at)
            .and_then(|b| b.next)
            .unwrap_or(usize::MAX)
    }

    /// The characters that start in global `from..to`.
    fn count(&mut self, from: usize, to: usize) -> usize {
        self.scanned += (to - from) as u64;
        self.text.as_bytes()[from - self.base..to - self.base]
            .iter()
            .filter(|&&b| (b as i8) >= -0x40)
            .count()
    }
}

/// The largest character boundary of `s` at or below `i`.
pub fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::LineIndex;

    #[test]
    fn agrees_with_line_index_however_the_text_is_split() {
        let text = "ab\r\ncé\rx\n\ny\r\r\nzz";
        let index = LineIndex::new(text);
        for split in 0..=text.len() {
            if !text.is_char_boundary(split) {
                continue;
            }
            let mut w = Window::unbounded();
            w.push(&text[..split]);
            w.push(&text[split..]);
            let mut whole = Window::whole(text);
            // Forwards, then backwards (behind the front).
            let offsets: Vec<usize> = (0..=text.len())
                .chain((0..=text.len()).rev())
                .filter(|&o| text.is_char_boundary(o))
                .collect();
            for off in offsets {
                let lc = index.line_col(text, off);
                assert_eq!(
                    w.line_col(off),
                    Some((lc.line, lc.column)),
                    "split {split} off {off}"
                );
                assert_eq!(whole.line_col(off), Some((lc.line, lc.column)), "off {off}");
            }
        }
    }

    #[test]
    fn agrees_with_line_index_on_long_lines_in_any_order() {
        // Lines longer than MARK, multi-byte characters straddling marks, lookups in a
        // scrambled order.
        let line = format!("{}\n{}\r\n", "é".repeat(3 * MARK), "a".repeat(MARK + 7));
        let text = line.repeat(3);
        let index = LineIndex::new(&text);
        let mut w = Window::whole(&text);
        let n = text.len();
        for i in 0..2000 {
            let off = floor_char_boundary(&text, (i * 7919 + i * i * 31) % (n + 1));
            let lc = index.line_col(&text, off);
            assert_eq!(w.line_col(off), Some((lc.line, lc.column)), "off {off}");
        }
        // Not on a character boundary: the column of the character it points into.
        let lc = index.line_col(&text, 2);
        assert_eq!(w.line_col(3), Some((lc.line, lc.column)));
    }

    #[test]
    fn lookups_in_order_count_each_byte_once_on_one_long_line() {
        let text = "<".repeat(1 << 20);
        let mut w = Window::whole(&text);
        for off in 0..text.len() {
            assert_eq!(w.line_col(off), Some((1, off + 1)));
        }
        assert!(w.scanned_bytes() <= text.len() as u64);
    }

    #[test]
    fn lookups_out_of_order_count_at_most_a_mark_each() {
        let text = "<".repeat(1 << 20);
        let mut w = Window::whole(&text);
        let lookups = 20_000;
        w.line_col(text.len());
        for i in 0..lookups {
            let off = text.len() - 1 - (i * 37) % text.len();
            assert_eq!(w.line_col(off), Some((1, off + 1)));
        }
        assert!(w.scanned_bytes() <= (text.len() + lookups * MARK) as u64);
    }

    #[test]
    fn a_bounded_window_trims_and_still_counts_lines() {
        let line = "0123456789\n";
        let mut w = Window::bounded();
        let mut total = 0;
        for _ in 0..400_000 {
            w.push(line);
            total += line.len();
        }
        assert!(w.text.len() <= 2 * KEEP + line.len());
        assert_eq!(w.line_col(total - 1), Some((400_000, 11)));
        assert_eq!(w.line_col(0), None);
        let l = w.line(total - 5).unwrap();
        assert_eq!(l.text, "0123456789");
    }

    #[test]
    fn a_bounded_window_trims_inside_a_long_line() {
        let mut w = Window::bounded();
        let chunk = "é".repeat(1000);
        for _ in 0..3000 {
            w.push(&chunk);
        }
        let end = w.end();
        assert_eq!(w.line_col(end), Some((1, 3_000_001)));
        assert_eq!(w.line_col(end - 2), Some((1, 3_000_000)));
        let l = w.line(end - 2).unwrap();
        assert!(l.hidden_columns > 0);
        // Trimming counts the trimmed text once, not once per push.
        assert!(w.scanned_bytes() <= 2 * end as u64);
    }

    #[test]
    fn a_small_window_agrees_with_line_index_where_it_still_holds_the_text() {
        let text = "ab\r\ncé\rx\n\ny\r\r\nzz".repeat(50);
        let index = LineIndex::new(&text);
        for step in [1, 3, 7, 64] {
            let mut w = Window::with_keep(16);
            let mut pushed = 0;
            while pushed < text.len() {
                let to = floor_char_boundary(&text, (pushed + step).min(text.len()));
                let to = if to == pushed {
                    pushed + text[pushed..].chars().next().map_or(1, char::len_utf8)
                } else {
                    to
                };
                w.push(&text[pushed..to]);
                pushed = to;
                // (Not `pushed` itself: a CR at the end may yet be followed by an LF.)
                for off in [
                    pushed.saturating_sub(20),
                    pushed.saturating_sub(3),
                    pushed - 1,
                ] {
                    if !text.is_char_boundary(off) {
                        continue;
                    }
                    if let Some(got) = w.line_col(off) {
                        let lc = index.line_col(&text, off);
                        assert_eq!(got, (lc.line, lc.column), "step {step} off {off}");
                    }
                }
            }
        }
    }
}
