//! The one line counter: line breaks under a dialect's [`NewlineRules`], fed chunk by chunk or
//! over a whole text, answering line and column for absolute offsets.
//!
//! Lines end at LF, CR LF (one break) and a lone CR; under [`NewlineRules::LeafXml`] also at CR
//! NEL (one break), NEL (U+0085) and LS (U+2028), so line numbers agree with each dialect's
//! newline normalization. A column is 1 plus the number of characters between the line start
//! and the offset (an offset inside a multi-byte character counts that character; an offset on
//! the LF of a CR LF is on the CR's line).
//!
//! [`LineCounter`] is the streaming form. [`push`](LineCounter::push) records where lines start
//! (one `memchr` pass over each chunk); a CR at the end of one chunk and an LF (or NEL) at the
//! start of the next still make one break. Queries remember the last answer, so offsets asked
//! in increasing (or mostly increasing) order cost amortized constant time: the line is found
//! by walking forward from the last one, and the column by counting characters from the last
//! offset asked on the same line, never from the line start again. Columns need the text; the
//! caller passes what it holds (`text`, whose first byte is at absolute `text_base`).
//! [`forget_before`](LineCounter::forget_before) drops what lies before an offset (a cursor
//! does it when it compacts), so memory follows the text held, not the document.
//!
//! [`LineIndex`](crate::LineIndex) is the whole-text form: a counter fed once, with stateless
//! lookups.

use std::collections::VecDeque;

use crate::newline::NewlineRules;
use crate::position::LineCol;

/// NEL in UTF-8.
const NEL: &[u8] = b"\xC2\x85";
/// LS in UTF-8.
const LS: &[u8] = b"\xE2\x80\xA8";

/// The streaming line counter; see the module docs.
///
/// ```
/// use thicket_input::lines::LineCounter;
/// use thicket_input::{LineCol, NewlineRules};
/// let text = "ab\r\ncd\u{85}e";
/// let mut lines = LineCounter::new(NewlineRules::LeafXml);
/// lines.push("ab\r");
/// lines.push("\ncd\u{85}e");
/// assert_eq!(lines.line_col(5, text, 0), Some(LineCol { line: 2, column: 2 }));
/// assert_eq!(lines.line(text.len()), Some(3));
/// ```
#[derive(Clone, Debug)]
pub struct LineCounter {
    rules: NewlineRules,
    /// Absolute offset of the end of the text pushed.
    end: usize,
    /// The last byte pushed is a CR: an LF (or NEL) starting the next chunk joins its break.
    after_cr: bool,
    /// Starts of the lines after the floor's line, increasing: `starts[k]` starts line
    /// `floor_line + 1 + k`.
    starts: VecDeque<usize>,
    /// The earliest offset still known, and its line.
    floor: usize,
    floor_line: usize,
    /// Where the floor's line starts (an offset, possibly before the text still held).
    floor_start: usize,
    /// Characters between the floor's line start and the floor (`None` when they could not be
    /// counted).
    floor_col: Option<usize>,
    /// The last offset located, and how many `starts` are at or before it.
    at: usize,
    at_k: usize,
    /// Where the line after `at`'s starts (or the end of the text pushed when it is the last
    /// line): offsets from `at` up to it are on `at`'s line. 0 when not known.
    next: usize,
    /// The last offset whose column was counted: offset, `k` as above, and its column minus 1.
    memo: Option<(usize, usize, usize)>,
}

/// A line located by [`LineCounter::bounds`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct LineBounds {
    /// 1-based line number.
    pub line: usize,
    /// Absolute offset where the line starts.
    pub start: usize,
    /// Absolute offset where the next line starts (after this line's break), if it has one.
    pub next: Option<usize>,
}

impl LineCounter {
    /// An empty counter (line 1 starts at offset 0).
    pub fn new(rules: NewlineRules) -> LineCounter {
        LineCounter {
            rules,
            end: 0,
            after_cr: false,
            starts: VecDeque::new(),
            floor: 0,
            floor_line: 1,
            floor_start: 0,
            floor_col: Some(0),
            at: 0,
            at_k: 0,
            next: 0,
            memo: None,
        }
    }

    /// The rules in use.
    pub fn rules(&self) -> NewlineRules {
        self.rules
    }

    /// Absolute offset of the end of the text pushed.
    pub fn end(&self) -> usize {
        self.end
    }

    /// The earliest offset the counter still knows (0 until
    /// [`forget_before`](LineCounter::forget_before)).
    pub fn floor(&self) -> usize {
        self.floor
    }

    /// Number of lines so far (a text without line breaks has one).
    pub fn line_count(&self) -> usize {
        self.floor_line + self.starts.len()
    }

    /// Records the line breaks of `chunk`, the text after what was pushed before.
    pub fn push(&mut self, chunk: &str) {
        let bytes = chunk.as_bytes();
        if bytes.is_empty() {
            return;
        }
        let off = self.end;
        let mut from = 0;
        if self.after_cr {
            self.after_cr = false;
            let join = if bytes[0] == b'\n' {
                1
            } else if self.rules == NewlineRules::LeafXml && bytes.starts_with(NEL) {
                2
            } else {
                0
            };
            if join > 0 {
                // The CR's break goes on: its line starts after this LF (or NEL).
                if let Some(last) = self.starts.back_mut() {
                    *last = off + join;
                }
                if self.at >= off {
                    self.at = self.floor;
                    self.at_k = 0;
                }
                if self.memo.is_some_and(|(o, _, _)| o >= off) {
                    self.memo = None;
                }
                from = join;
            }
        }
        // LFs between the bytes that may start another break (CR, and under LeafXML's rules
        // the lead bytes of NEL and LS): one needle, the cheapest search per line, for the
        // runs in between; each such byte is looked at on its own.
        let mut at = from;
        loop {
            let next = self
                .other_break(&bytes[at..])
                .map_or(bytes.len(), |k| at + k);
            for i in memchr::memchr_iter(b'\n', &bytes[at..next]) {
                self.starts.push_back(off + at + i + 1);
            }
            if next == bytes.len() {
                break;
            }
            at = self.record(bytes, next, off);
        }
        self.end = off + bytes.len();
        self.next = 0;
    }

    /// The first byte of `bytes` that may start a line break other than LF under the rules.
    #[inline]
    fn other_break(&self, bytes: &[u8]) -> Option<usize> {
        match self.rules {
            NewlineRules::CrLf => memchr::memchr(b'\r', bytes),
            NewlineRules::LeafXml => memchr::memchr3(b'\r', 0xC2, 0xE2, bytes),
        }
    }

    /// Records the break at `bytes[i]` if there is one; returns the index after it.
    #[inline(always)]
    fn record(&mut self, bytes: &[u8], i: usize, off: usize) -> usize {
        let rest = &bytes[i..];
        let len = match rest[0] {
            b'\n' => 1,
            b'\r' => {
                if rest.get(1) == Some(&b'\n') {
                    2
                } else if self.rules == NewlineRules::LeafXml && rest[1..].starts_with(NEL) {
                    3
                } else {
                    self.after_cr = rest.len() == 1;
                    1
                }
            }
            _ if rest.starts_with(NEL) => 2,
            _ if rest.starts_with(LS) => 3,
            _ => return i + 1,
        };
        self.starts.push_back(off + i + len);
        i + len
    }

    /// Ends the text: a CR at its end is a line break of its own.
    pub fn finish(&mut self) {
        self.after_cr = false;
    }

    /// How many line starts are at or before `offset` (`None` before the floor, past the end,
    /// or right after a CR that ends the text pushed, since the next chunk may start with its
    /// LF). Walks on from the last offset located, so increasing offsets cost amortized
    /// constant time; a far jump or a step back is a binary search.
    fn locate(&mut self, offset: usize) -> Option<usize> {
        if offset < self.floor || offset > self.end || (self.after_cr && offset == self.end) {
            return None;
        }
        let starts = &self.starts;
        let k = if offset >= self.at {
            let mut k = self.at_k;
            let mut steps = 0;
            while k < starts.len() && starts[k] <= offset {
                k += 1;
                steps += 1;
                if steps == 16 {
                    // Far ahead: search the rest.
                    k = starts.partition_point(|&s| s <= offset);
                    break;
                }
            }
            k
        } else {
            starts.partition_point(|&s| s <= offset)
        };
        self.at = offset;
        self.at_k = k;
        self.next = starts.get(k).copied().unwrap_or(self.end);
        Some(k)
    }

    /// The 1-based line of absolute `offset`: `None` before the [`floor`](LineCounter::floor)
    /// or past the end (or just after a CR ending the text pushed before
    /// [`finish`](LineCounter::finish), which an LF may still join). Reads no text.
    #[inline]
    pub fn line(&mut self, offset: usize) -> Option<usize> {
        if offset >= self.at {
            // On the line of the last offset located, at or after it: no search.
            if offset < self.next {
                self.at = offset;
                return Some(self.floor_line + self.at_k);
            }
            // On the next line (`next` is its start).
            let k = self.at_k + 1;
            if self.next != 0 && k <= self.starts.len() {
                let next = self.starts.get(k).copied().unwrap_or(self.end);
                if offset < next {
                    self.at = offset;
                    self.at_k = k;
                    self.next = next;
                    return Some(self.floor_line + k);
                }
            }
        }
        Some(self.floor_line + self.locate(offset)?)
    }

    /// The line of absolute `offset`: its number, start and the start of the next line.
    pub fn bounds(&mut self, offset: usize) -> Option<LineBounds> {
        let k = self.locate(offset)?;
        Some(LineBounds {
            line: self.floor_line + k,
            start: if k == 0 {
                self.floor_start
            } else {
                self.starts[k - 1]
            },
            next: self.starts.get(k).copied(),
        })
    }

    /// The absolute offset where 1-based `line` starts, if it is known (not before the floor's
    /// line, not past the last line).
    pub fn line_start(&self, line: usize) -> Option<usize> {
        match line.checked_sub(self.floor_line)? {
            0 => Some(self.floor_start),
            k => self.starts.get(k - 1).copied(),
        }
    }

    /// The line and column of absolute `offset`. `text` is text the caller holds, its first
    /// byte at absolute `text_base`; it must cover the offset and the characters counted for the
    /// column (from the last offset asked on the same line, or from the line start or the floor).
    /// `None` when it does not, or when the offset is before the floor or past the end.
    pub fn line_col(&mut self, offset: usize, text: &str, text_base: usize) -> Option<LineCol> {
        let k = self.locate(offset)?;
        let bytes = text.as_bytes();
        let count = |a: usize, b: usize| -> Option<usize> {
            let s = bytes.get(a.checked_sub(text_base)?..b.checked_sub(text_base)?)?;
            Some(char_count(s))
        };
        let col = match self.memo {
            Some((o, mk, c)) if mk == k && o <= offset => c + count(o, offset)?,
            Some((o, mk, c)) if mk == k => c.checked_sub(count(offset, o)?)?,
            _ if k == 0 => self.floor_col? + count(self.floor, offset)?,
            _ => count(self.starts[k - 1], offset)?,
        };
        self.memo = Some((offset, k, col));
        Some(LineCol {
            line: self.floor_line + k,
            column: col + 1,
        })
    }

    /// Forgets everything before absolute `offset` (up to the end; never past a CR whose LF
    /// may still come), so memory stays proportional to what follows. `text` (first byte at
    /// `text_base`) must cover what the column of `offset` is counted from, as for
    /// [`line_col`](LineCounter::line_col); when it does not, columns on that line are unknown
    /// from then on.
    pub fn forget_before(&mut self, offset: usize, text: &str, text_base: usize) {
        let mut offset = offset.min(self.end);
        if self.after_cr {
            offset = offset.min(self.end - 1);
        }
        if offset <= self.floor {
            return;
        }
        let col = self
            .line_col(offset, text, text_base)
            .map(|lc| lc.column - 1);
        let k = self.locate(offset).unwrap_or(0);
        if k > 0 {
            self.floor_start = self.starts[k - 1];
            self.starts.drain(..k);
            self.floor_line += k;
        }
        self.floor = offset;
        self.floor_col = col;
        self.at = offset;
        self.at_k = 0;
        self.next = 0;
        self.memo = col.map(|c| (offset, 0, c));
    }
}

/// The number of characters in UTF-8 `bytes` (bytes that are not continuation bytes), eight
/// bytes at a time. Counts are additive, so a range may start or end inside a character.
pub fn char_count(bytes: &[u8]) -> usize {
    let mut continuation = 0usize;
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let mut w = [0u8; 8];
        w.copy_from_slice(chunk);
        let w = u64::from_le_bytes(w);
        // A continuation byte has its top bits `10`.
        let marks = (w & !(w << 1)) & 0x8080_8080_8080_8080;
        continuation += ((marks >> 7).wrapping_mul(0x0101_0101_0101_0101) >> 56) as usize;
    }
    continuation += chunks
        .remainder()
        .iter()
        .filter(|&&b| (b as i8) < -0x40)
        .count();
    bytes.len() - continuation
}

/// The whole-text lookups of [`LineIndex`](crate::LineIndex): the line and column of `offset`
/// (clamped to the text) without remembering anything.
pub(crate) fn line_col_stateless(counter: &LineCounter, text: &str, offset: usize) -> LineCol {
    let offset = offset.min(text.len()).min(counter.end);
    let k = counter.starts.partition_point(|&s| s <= offset);
    let start = if k == 0 { 0 } else { counter.starts[k - 1] };
    LineCol {
        line: k + 1,
        column: char_count(&text.as_bytes()[start..offset]) + 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn char_count_is_additive() {
        let s = "aé日😀b".repeat(5);
        let b = s.as_bytes();
        for i in 0..=b.len() {
            assert_eq!(char_count(&b[..i]) + char_count(&b[i..]), s.chars().count());
        }
    }
}
