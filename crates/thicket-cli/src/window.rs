//! A window over decoded text that knows line numbers, so diagnostics can be located and shown
//! with their source line while a large input streams through in bounded memory.
//!
//! The window keeps the most recent text (at least [`KEEP`] bytes once the input is longer) and
//! the global byte offsets of the line starts inside it. Lines end at LF, CR LF and a lone CR, as
//! `thicket_input::LineIndex` counts them. Offsets before the window can no longer be located.

use std::collections::VecDeque;

/// How much text the window keeps behind the newest chunk when it trims.
pub const KEEP: usize = 256 << 10;

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
pub struct Window {
    text: String,
    /// Global offset of `text[0]`.
    base: usize,
    /// Line number of the line that contains `base`.
    base_line: usize,
    /// Characters between the start of that line and `base`.
    base_col: usize,
    /// Global offsets of the line starts after `base` (every start that follows a line break).
    starts: VecDeque<usize>,
    /// End offset of the last CR seen, so that an LF right after it joins the same line break.
    last_cr_end: Option<usize>,
    /// Whether the window trims at all (false when the whole document is held anyway).
    bounded: bool,
}

impl Window {
    /// A window that keeps everything (for documents read whole).
    pub fn unbounded() -> Window {
        Window::new(false)
    }

    /// A window that keeps about [`KEEP`] bytes (for streaming).
    pub fn bounded() -> Window {
        Window::new(true)
    }

    fn new(bounded: bool) -> Window {
        Window {
            text: String::new(),
            base: 0,
            base_line: 1,
            base_col: 0,
            starts: VecDeque::new(),
            last_cr_end: None,
            bounded,
        }
    }

    /// The global offset one past the last byte pushed.
    pub fn end(&self) -> usize {
        self.base + self.text.len()
    }

    /// Appends decoded text (trimming old text first when bounded).
    pub fn push(&mut self, chunk: &str) {
        if self.bounded && self.text.len() > 2 * KEEP {
            self.trim(self.text.len() - KEEP);
        }
        let offset = self.end();
        let bytes = chunk.as_bytes();
        let mut from = 0;
        while let Some(i) = bytes[from..]
            .iter()
            .position(|&b| b == b'\n' || b == b'\r')
            .map(|i| i + from)
        {
            let g = offset + i;
            if bytes[i] == b'\n' && self.last_cr_end == Some(g) && self.starts.back() == Some(&g) {
                // The LF of a CR LF pair: the line starts after the LF.
                if let Some(last) = self.starts.back_mut() {
                    *last = g + 1;
                }
            } else {
                self.starts.push_back(g + 1);
            }
            if bytes[i] == b'\r' {
                self.last_cr_end = Some(g + 1);
            }
            from = i + 1;
        }
        self.text.push_str(chunk);
    }

    /// Drops text before local offset `cut` (moved to a character boundary, never right after a CR).
    fn trim(&mut self, mut cut: usize) {
        while cut < self.text.len()
            && (!self.text.is_char_boundary(cut) || self.text.as_bytes()[cut - 1] == b'\r')
        {
            cut += 1;
        }
        let new_base = self.base + cut;
        let mut last_popped = None;
        while let Some(&s) = self.starts.front() {
            if s > new_base {
                break;
            }
            last_popped = Some(s);
            self.starts.pop_front();
            self.base_line += 1;
        }
        self.base_col = match last_popped {
            Some(s) => self.text[s - self.base..cut].chars().count(),
            None => self.base_col + self.text[..cut].chars().count(),
        };
        self.text.drain(..cut);
        self.base = new_base;
    }

    /// The line containing global `offset`, or `None` when the window no longer holds it.
    pub fn line(&self, offset: usize) -> Option<Line<'_>> {
        if offset < self.base || offset > self.end() {
            return None;
        }
        let idx = self.starts.partition_point(|&s| s <= offset);
        let (number, start, hidden) = if idx == 0 {
            (self.base_line, self.base, self.base_col)
        } else {
            (self.base_line + idx, self.starts[idx - 1], 0)
        };
        let end = self.starts.get(idx).copied().unwrap_or(self.end());
        let text = self.text[start - self.base..end - self.base].trim_end_matches(['\n', '\r']);
        Some(Line {
            number,
            start,
            text,
            hidden_columns: hidden,
        })
    }

    /// The 1-based line and column (in characters) of global `offset`.
    pub fn line_col(&self, offset: usize) -> Option<(usize, usize)> {
        let line = self.line(offset)?;
        // Count over the raw text (its line break included: an offset can point at the LF of
        // a CR LF pair).
        let raw = &self.text[line.start - self.base..];
        let upto = floor_char_boundary(raw, offset - line.start);
        Some((
            line.number,
            line.hidden_columns + raw[..upto].chars().count() + 1,
        ))
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
    use thicket_input::LineIndex;

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
            for off in 0..=text.len() {
                if !text.is_char_boundary(off) {
                    continue;
                }
                let lc = index.line_col(text, off);
                assert_eq!(
                    w.line_col(off),
                    Some((lc.line, lc.column)),
                    "split {split} off {off}"
                );
            }
        }
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
        let l = w.line(end - 2).unwrap();
        assert!(l.hidden_columns > 0);
    }
}
