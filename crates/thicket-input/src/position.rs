//! Spans, line/column positions and diagnostics.

use std::fmt;

use crate::lines::{LineCounter, line_col_stateless};
use crate::newline::NewlineRules;

/// A half-open range of byte offsets `start..end` into the decoded (UTF-8) text.
///
/// Spans always point into the text as it was decoded, before any newline normalization,
/// so that the source can be reproduced from them byte for byte.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Span {
    /// Offset of the first byte.
    pub start: usize,
    /// Offset one past the last byte.
    pub end: usize,
}

impl Span {
    /// A span from `start` to `end` (half-open).
    #[inline]
    pub const fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// An empty span at `offset`.
    #[inline]
    pub const fn empty(offset: usize) -> Span {
        Span {
            start: offset,
            end: offset,
        }
    }

    /// Number of bytes covered.
    #[inline]
    pub const fn len(self) -> usize {
        self.end - self.start
    }

    /// True when the span covers no bytes.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.start == self.end
    }

    /// The text the span covers. Panics if the span is out of bounds or not on char boundaries,
    /// which would be a bug in the parser that produced it.
    #[inline]
    pub fn slice(self, text: &str) -> &str {
        &text[self.start..self.end]
    }

    /// The smallest span covering both `self` and `other`.
    #[inline]
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

impl fmt::Debug for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

/// `00` to `99`, two bytes each: [`Span`]'s numbers are written two digits at a time.
const DIGIT_PAIRS: [u8; 200] = {
    let mut pairs = [0u8; 200];
    let mut i = 0;
    while i < 100 {
        pairs[2 * i] = b'0' + (i / 10) as u8;
        pairs[2 * i + 1] = b'0' + (i % 10) as u8;
        i += 1;
    }
    pairs
};

impl Span {
    /// `start..end` in the end of `buf`; returns where it starts.
    #[inline(always)]
    fn format(&self, buf: &mut [u8; 42]) -> usize {
        fn digits(mut n: usize, buf: &mut [u8; 42], at: &mut usize) {
            while n >= 100 {
                let pair = 2 * (n % 100);
                n /= 100;
                *at -= 2;
                buf[*at..*at + 2].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
            }
            if n >= 10 {
                *at -= 2;
                buf[*at..*at + 2].copy_from_slice(&DIGIT_PAIRS[2 * n..2 * n + 2]);
            } else {
                *at -= 1;
                buf[*at] = b'0' + n as u8;
            }
        }
        // Two numbers of at most 20 digits and `..`.
        let mut at = buf.len();
        digits(self.end, buf, &mut at);
        at -= 2;
        buf[at..at + 2].copy_from_slice(b"..");
        digits(self.start, buf, &mut at);
        at
    }

    /// Appends `start..end` (as [`fmt::Display`] writes it) to `out`: for output built as bytes,
    /// such as the command line's token lines, without the formatting machinery.
    ///
    /// ```
    /// let mut line = b"Text ".to_vec();
    /// thicket_input::Span::new(7, 1024).write_into(&mut line);
    /// assert_eq!(line, b"Text 7..1024");
    /// ```
    pub fn write_into(&self, out: &mut Vec<u8>) {
        let mut buf = [0u8; 42];
        let at = self.format(&mut buf);
        out.extend_from_slice(&buf[at..]);
    }
}

impl fmt::Display for Span {
    /// `start..end`, formatted on the stack and written at once: a span ends every token and
    /// diagnostic line the command line prints, and `write!` with two integers costs several
    /// times more (a megabyte of `<` prints two million of them).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = [0u8; 42];
        let at = self.format(&mut buf);
        f.write_str(std::str::from_utf8(&buf[at..]).map_err(|_| fmt::Error)?)
    }
}

/// A stable, kebab-case error code. Every dialect crate has one `ErrorCode` enum implementing
/// this trait; the strings never change once published.
pub trait ErrorCode: Copy + Eq + fmt::Debug + 'static {
    /// The stable kebab-case code, for example `eof-in-tag`.
    fn as_str(self) -> &'static str;

    /// A one-line human-readable description of the problem.
    fn message(self) -> &'static str;

    /// The code whose [`as_str`](ErrorCode::as_str) is `code` (`None` for a string that is no
    /// code of this enum; the default knows none).
    fn from_code(code: &str) -> Option<Self> {
        let _ = code;
        None
    }
}

/// A diagnostic: an error code and the span of input it concerns. `Copy`, allocation-free;
/// messages are rendered by the caller (see [`ErrorCode::message`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Diagnostic<C> {
    /// What went wrong.
    pub code: C,
    /// Where, as byte offsets into the decoded text.
    pub span: Span,
}

impl<C> Diagnostic<C> {
    /// A diagnostic with `code` at `span`.
    #[inline]
    pub const fn new(code: C, span: Span) -> Self {
        Diagnostic { code, span }
    }
}

impl<C: ErrorCode> fmt::Display for Diagnostic<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at {}: {}",
            self.code.as_str(),
            self.span,
            self.code.message()
        )
    }
}

/// A 1-based line and column. Columns count characters (Unicode scalar values), not bytes.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LineCol {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

/// Maps byte offsets of a whole text to line and column numbers: the whole-text form of the
/// crate's one line counter ([`LineCounter`](crate::lines::LineCounter), fed once).
///
/// Lines end at LF, at CR LF (one line break) and at a lone CR, which is the convention of every
/// Thicket dialect after newline normalization, so positions match what a reader of the normalized
/// text sees (html5lib-tests count this way). Building the index is one `memchr` pass; lookups are a
/// binary search plus a character count within the line, and remember nothing (for many lookups
/// in increasing order, a [`LineCounter`](crate::lines::LineCounter) answers in amortized
/// constant time).
#[derive(Clone, Debug)]
pub struct LineIndex {
    counter: LineCounter,
}

impl LineIndex {
    /// Indexes `text`.
    pub fn new(text: &str) -> LineIndex {
        LineIndex::with_rules(text, NewlineRules::CrLf)
    }

    /// Indexes `text` with the line breaks of `rules`: [`NewlineRules::CrLf`] is [`LineIndex::new`];
    /// [`NewlineRules::LeafXml`] also ends lines at NEL (U+0085), LS (U+2028) and CR NEL (one
    /// break), so LeafXML's line numbers agree with its line break normalization.
    ///
    /// ```
    /// use thicket_input::{LineIndex, NewlineRules};
    /// let text = "a\r\u{85}b\u{2028}c";
    /// let index = LineIndex::with_rules(text, NewlineRules::LeafXml);
    /// assert_eq!(index.line_count(), 3);
    /// assert_eq!(index.line_col(text, text.len() - 1).line, 3);
    /// ```
    pub fn with_rules(text: &str, rules: NewlineRules) -> LineIndex {
        let mut counter = LineCounter::new(rules);
        counter.push(text);
        counter.finish();
        LineIndex { counter }
    }

    /// Number of lines (a text without line breaks has one).
    pub fn line_count(&self) -> usize {
        self.counter.line_count()
    }

    /// Byte offset where 1-based `line` starts, if it exists.
    pub fn line_start(&self, line: usize) -> Option<usize> {
        self.counter.line_start(line)
    }

    /// The 1-based line and character column of byte `offset` in `text` (the same text the index
    /// was built from). An offset past the end is clamped to the end; an offset inside a
    /// multi-byte character counts as that character.
    pub fn line_col(&self, text: &str, offset: usize) -> LineCol {
        line_col_stateless(&self.counter, text, offset)
    }

    /// The counter behind the index.
    pub fn counter(&self) -> &LineCounter {
        &self.counter
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_display_as_start_dot_dot_end() {
        for (start, end) in [(0, 0), (3, 17), (9, 10), (1_000_000, 1_000_001)] {
            assert_eq!(Span::new(start, end).to_string(), format!("{start}..{end}"));
        }
        let max = Span::new(usize::MAX, usize::MAX);
        assert_eq!(max.to_string(), format!("{0}..{0}", usize::MAX));
    }

    /// Every number of up to five digits, and each power of ten and its neighbours, written two
    /// digits at a time: as `format!` writes them, by `Display` and by `write_into`.
    #[test]
    fn span_digits_match_format() {
        let powers = (0..20).map(|k| 10usize.pow(k));
        let near = powers.flat_map(|p| [p - 1, p, p + 1]);
        for n in (0..100_000).chain(near).chain([usize::MAX]) {
            let span = Span::new(n, n / 3);
            let expected = format!("{}..{}", n, n / 3);
            assert_eq!(span.to_string(), expected);
            let mut bytes = b"x".to_vec();
            span.write_into(&mut bytes);
            assert_eq!(bytes, format!("x{expected}").as_bytes());
        }
    }

    #[test]
    fn line_col_counts_characters_and_all_line_breaks() {
        let text = "ab\ncé\r\nx\ry";
        let idx = LineIndex::new(text);
        assert_eq!(idx.line_count(), 4);
        let lc = |o| {
            let p = idx.line_col(text, o);
            (p.line, p.column)
        };
        assert_eq!(lc(0), (1, 1));
        assert_eq!(lc(2), (1, 3));
        assert_eq!(lc(3), (2, 1));
        assert_eq!(lc(6), (2, 3)); // after "cé" (é is two bytes)
        assert_eq!(lc(8), (3, 1));
        assert_eq!(lc(10), (4, 1));
        assert_eq!(lc(999), (4, 2));
    }

    #[test]
    fn leafxml_line_breaks() {
        let text = "a\r\u{85}b\u{85}c\u{2028}d\r\ne\rf\ng\u{2029}\u{a0}";
        let idx = LineIndex::with_rules(text, NewlineRules::LeafXml);
        assert_eq!(idx.line_count(), 7);
        let line_of = |c: char| idx.line_col(text, text.find(c).unwrap());
        for (c, line) in [
            ('a', 1),
            ('b', 2),
            ('c', 3),
            ('d', 4),
            ('e', 5),
            ('f', 6),
            ('g', 7),
        ] {
            assert_eq!(line_of(c), LineCol { line, column: 1 }, "{c}");
        }
        // U+2029 is not a LeafXML line break; columns count characters.
        assert_eq!(idx.line_col(text, text.len()).column, 4);
        // The CrLf rules are those of `new`.
        let crlf = LineIndex::with_rules(text, NewlineRules::CrLf);
        assert_eq!(crlf.line_count(), LineIndex::new(text).line_count());
        assert_eq!(crlf.line_count(), 5);
    }

    #[test]
    fn span_helpers() {
        let s = Span::new(2, 5);
        assert_eq!(s.len(), 3);
        assert!(!s.is_empty());
        assert!(Span::empty(4).is_empty());
        assert_eq!(s.to(Span::new(7, 9)), Span::new(2, 9));
        assert_eq!(s.slice("abcdefg"), "cde");
        assert_eq!(format!("{s:?}"), "2..5");
    }
}
