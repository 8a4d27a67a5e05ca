//! The streaming cursor every tokenizer reads through: contiguous decoded text with absolute
//! offsets, fed in chunks or borrowed whole.
//!
//! A [`Cursor`] holds the text a tokenizer has not finished with, `text[0]` at absolute offset
//! [`base`](Cursor::base), and a position in it. Spans, accumulated text ranges ([`TextAcc`])
//! and the caller's own marks are absolute offsets, which never change: compaction drops a
//! prefix of the buffer and moves `base`, so a range in the kept tail stays valid as it is, and
//! a range before it is copied out first ([`Cursor::compact`]).
//!
//! Two ways in:
//! - [`Cursor::whole`] borrows a `&'a str` with no copy (the `parse(&str)` entry points); it is
//!   finished from the start, and [`TextAcc::into_cow_input`] hands out `Cow<'a, str>` borrowed
//!   from it.
//! - [`Cursor::new`], then [`feed`](Cursor::feed) any number of times and
//!   [`finish`](Cursor::finish): the cursor owns its buffer.
//!
//! One way to wait: every read that may run out of input answers `Result<_, NeedMore>`, a
//! zero-sized error, so `?` hands "need more input" up to the tokenizer's loop for the cost of
//! a flag test. `Ok(None)` (or `Ok(false)`) is the real end (or a real "no"): the input is
//! finished. A step that looked far ahead before running out records how far with
//! [`Cursor::need_more`], and the tokenizer retries it only once [`Cursor::is_ready`] (the
//! buffered input has grown by as much again), so feeding tiny chunks into a long look-ahead
//! stays linear.
//!
//! Newlines: [`peek`](Cursor::peek) folds CR LF and CR (and under [`NewlineRules::LeafXml`] also
//! CR NEL, NEL and LS) into one `'\n'` and says how many input bytes it covers; a CR at the end of
//! an unfinished buffer is [`NeedMore`] (an LF may follow). The hot reads
//! ([`peek_byte`](Cursor::peek_byte), [`advance`](Cursor::advance), [`scan`](Cursor::scan)) are
//! one bounds check each; a direct path scans [`bytes`](Cursor::bytes) itself, with
//! [`index`](Cursor::index) and [`base`](Cursor::base).

use std::borrow::Cow;

use crate::acc::TextAcc;
use crate::lines::LineCounter;
use crate::newline::NewlineRules;
use crate::position::LineCol;
use crate::scan::StopSet;

/// The input ended before the answer is known, and more may come: wait for
/// [`Cursor::feed`] or [`Cursor::finish`]. Zero-sized, so `Result<T, NeedMore>` is as cheap as
/// `Option<T>` and `?` propagates it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct NeedMore;

impl std::fmt::Display for NeedMore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("more input is needed")
    }
}

impl std::error::Error for NeedMore {}

/// The next character after newline folding, and how many input bytes it covers.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Peeked {
    /// The character (`'\n'` for every folded line break).
    pub ch: char,
    /// Its length in the input, in bytes (2 for CR LF, 1 for a lone CR).
    pub len: usize,
    /// True when the input is not `ch` itself: a line break other than a lone LF, folded.
    pub folded: bool,
}

/// The smallest dead prefix [`Cursor::compact`] drops by default.
pub const MIN_COMPACTION: usize = 4096;

/// A streaming cursor over contiguous decoded text; see the module docs.
///
/// ```
/// use thicket_input::cursor::{Cursor, NeedMore, Peeked};
/// use thicket_input::NewlineRules;
/// let mut input = Cursor::new(NewlineRules::CrLf);
/// input.feed("a\r");
/// assert_eq!(input.next_char(), Ok(Some('a')));
/// assert_eq!(input.peek(), Err(NeedMore)); // CR: is an LF next?
/// input.feed("\nb");
/// assert_eq!(input.peek(), Ok(Some(Peeked { ch: '\n', len: 2, folded: true })));
/// input.advance(2);
/// assert_eq!(input.offset(), 3);
/// input.finish();
/// assert_eq!(input.next_char(), Ok(Some('b')));
/// assert_eq!(input.next_char(), Ok(None));
/// ```
#[derive(Clone, Debug)]
pub struct Cursor<'a> {
    /// The buffer: borrowed for a whole input, owned when fed.
    text: Cow<'a, str>,
    /// Absolute offset of `text[0]`.
    base: usize,
    /// Index into `text` of the next unread byte.
    at: usize,
    finished: bool,
    rules: NewlineRules,
    /// Absolute buffer end to wait for before a step that needed more input is retried.
    retry_at: usize,
    /// The smallest dead prefix compaction drops.
    min_compaction: usize,
    /// Line breaks of everything fed, when tracked.
    lines: Option<LineCounter>,
    /// True for [`Cursor::whole`]: `text` is the whole input, from offset 0.
    whole: bool,
    /// The owned buffer's room while a lent chunk is read ([`Cursor::lend`]), reused by
    /// [`Cursor::into_owned`].
    spare: String,
}

impl<'a> Cursor<'a> {
    /// An empty cursor to [`feed`](Cursor::feed).
    pub fn new(rules: NewlineRules) -> Cursor<'a> {
        Cursor {
            text: Cow::Owned(String::new()),
            base: 0,
            at: 0,
            finished: false,
            rules,
            retry_at: 0,
            min_compaction: MIN_COMPACTION,
            lines: None,
            whole: false,
            spare: String::new(),
        }
    }

    /// A finished cursor over the whole of `text`, borrowed (no copy).
    pub fn whole(text: &'a str, rules: NewlineRules) -> Cursor<'a> {
        Cursor {
            text: Cow::Borrowed(text),
            base: 0,
            at: 0,
            finished: true,
            rules,
            retry_at: 0,
            min_compaction: MIN_COMPACTION,
            lines: None,
            whole: true,
            spare: String::new(),
        }
    }

    /// Counts line breaks (under the cursor's rules) in everything fed, so that
    /// [`line_col`](Cursor::line_col) and [`line`](Cursor::line) can answer; compaction
    /// forgets what it drops, so the counter stays bounded too. Call it at construction
    /// (before anything is compacted).
    pub fn with_lines(mut self) -> Cursor<'a> {
        debug_assert_eq!(self.base, 0, "with_lines after a compaction");
        let mut lines = LineCounter::new(self.rules);
        lines.push(&self.text);
        if self.finished {
            lines.finish();
        }
        self.lines = Some(lines);
        self
    }

    /// Compacts only when the dead prefix is at least `bytes` long (and half the buffer);
    /// [`MIN_COMPACTION`] by default. Small values are for tests.
    pub fn with_min_compaction(mut self, bytes: usize) -> Cursor<'a> {
        self.min_compaction = bytes.max(1);
        self
    }

    /// The newline rules [`peek`](Cursor::peek) folds by.
    #[inline]
    pub fn rules(&self) -> NewlineRules {
        self.rules
    }

    /// Appends a chunk of text. Ignored once the cursor is finished (a whole input always is).
    pub fn feed(&mut self, chunk: &str) {
        if self.finished || chunk.is_empty() {
            return;
        }
        if let Some(lines) = &mut self.lines {
            lines.push(chunk);
        }
        self.own().push_str(chunk);
    }

    /// The buffer, owned: a lent chunk is copied into the spare room first.
    fn own(&mut self) -> &mut String {
        if let Cow::Borrowed(text) = self.text {
            let mut buf = std::mem::take(&mut self.spare);
            buf.clear();
            buf.push_str(text);
            self.text = Cow::Owned(buf);
        }
        self.text.to_mut()
    }

    /// Reads `chunk` where it is, with no copy, when nothing buffered is still needed: every
    /// buffered byte was read, and the caller needs nothing from absolute offset `keep` on
    /// (`keep` at or past [`end`](Cursor::end): the caller's marks, as for
    /// [`compact`](Cursor::compact)). The buffer becomes `chunk`, at the offset where the
    /// buffered text ended, and the owned buffer's room is kept for later; the ranges in
    /// `texts` are copied out of the buffer first (as `compact` copies those it drops). Answers false, and
    /// does nothing, when something is still needed or the cursor is finished: feed the chunk
    /// instead.
    ///
    /// A later [`feed`](Cursor::feed) copies what is buffered into the cursor's own room
    /// first; [`into_owned`](Cursor::into_owned) ends the loan, keeping what is still needed.
    /// The cursor's lifetime is the chunk's meanwhile: a cursor fed with owned text
    /// (`Cursor<'static>`) is moved into a shorter-lived one to lend it a chunk.
    ///
    /// ```
    /// use thicket_input::cursor::Cursor;
    /// use thicket_input::NewlineRules;
    /// let mut input: Cursor<'static> = Cursor::new(NewlineRules::CrLf);
    /// input.feed("<a>");
    /// input.advance(3);
    /// let chunk = String::from("xy<b");
    /// let mut lent: Cursor<'_> = input;
    /// assert!(lent.lend(&chunk, usize::MAX, &mut []));
    /// assert_eq!((lent.base(), lent.text()), (3, "xy<b"));
    /// lent.advance(2);
    /// let input: Cursor<'static> = lent.into_owned(5, &mut []);
    /// drop(chunk);
    /// assert_eq!((input.base(), input.text(), input.offset()), (5, "<b", 5));
    /// ```
    pub fn lend(&mut self, chunk: &'a str, keep: usize, texts: &mut [&mut TextAcc]) -> bool {
        if !self.can_lend(keep) {
            return false;
        }
        let end = self.end();
        for t in texts.iter_mut() {
            t.detach_before(end, &self.text, self.base);
        }
        if let Some(lines) = &mut self.lines {
            lines.forget_before(end, &self.text, self.base);
            lines.push(chunk);
        }
        if let Cow::Owned(buf) = std::mem::replace(&mut self.text, Cow::Borrowed(chunk)) {
            self.spare = buf;
        }
        self.base = end;
        self.at = 0;
        self.whole = false;
        true
    }

    /// Whether [`lend`](Cursor::lend) would read a chunk in place, given the caller's `keep`:
    /// the cursor is not finished, every buffered byte was read, and nothing from `keep` on
    /// is still needed.
    #[inline]
    pub fn can_lend(&self, keep: usize) -> bool {
        !self.finished && self.at == self.text.len() && keep >= self.end()
    }

    /// The cursor with a buffer of its own, for as long as its owner likes: a lent chunk's
    /// text from absolute offset `keep` on (clamped to the buffer and the position) is copied
    /// into the cursor's own room, and the ranges in `texts` that start before `keep` are
    /// copied out first, as [`compact`](Cursor::compact) does. An owned buffer stays as it is.
    #[inline]
    pub fn into_owned(mut self, keep: usize, texts: &mut [&mut TextAcc]) -> Cursor<'static> {
        self.reown(keep, texts);
        let Cursor {
            text,
            base,
            at,
            finished,
            rules,
            retry_at,
            min_compaction,
            lines,
            whole: _,
            spare,
        } = self;
        Cursor {
            text: Cow::Owned(text.into_owned()),
            base,
            at,
            finished,
            rules,
            retry_at,
            min_compaction,
            lines,
            whole: false,
            spare,
        }
    }

    /// Copies a borrowed buffer's text from `keep` on into the cursor's own room (see
    /// [`into_owned`](Cursor::into_owned)); an owned buffer is left as it is.
    fn reown(&mut self, keep: usize, texts: &mut [&mut TextAcc]) {
        let Cow::Borrowed(lent) = self.text else {
            return;
        };
        let keep = keep.clamp(self.base, self.offset());
        for t in texts.iter_mut() {
            t.detach_before(keep, lent, self.base);
        }
        if let Some(lines) = &mut self.lines {
            lines.forget_before(keep, lent, self.base);
        }
        let mut buf = std::mem::take(&mut self.spare);
        buf.clear();
        buf.push_str(&lent[keep - self.base..]);
        self.at -= keep - self.base;
        self.base = keep;
        self.text = Cow::Owned(buf);
        self.whole = false;
    }

    /// Appends text that `write` pushes onto the buffer (a decoder writing in place, see
    /// [`SniffingDecoder::feed_into`](crate::front::SniffingDecoder::feed_into)); what was
    /// there before is not touched.
    pub(crate) fn feed_with<R>(&mut self, write: impl FnOnce(&mut String) -> R) -> R {
        let buf = self.own();
        let before = buf.len();
        let r = write(buf);
        if let Some(lines) = &mut self.lines {
            lines.push(&self.text[before..]);
        }
        r
    }

    /// Marks the end of the input.
    pub fn finish(&mut self) {
        self.finished = true;
        if let Some(lines) = &mut self.lines {
            lines.finish();
        }
    }

    /// Ends the input at absolute offset `offset` (at or after the position, on a character
    /// boundary): the text after it is dropped and the cursor is finished. For a strict reader
    /// whose text stops at the first error (LeafXML: a character outside its set), so that the
    /// states meet the end of the input there.
    pub fn end_at(&mut self, offset: usize) {
        let i = offset
            .saturating_sub(self.base)
            .clamp(self.at, self.text.len());
        match &mut self.text {
            Cow::Borrowed(text) => *text = &text[..i],
            Cow::Owned(text) => text.truncate(i),
        }
        self.finish();
    }

    /// True once [`finish`](Cursor::finish) was called (always for a whole input).
    #[inline(always)]
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// The whole input, when the cursor borrows one ([`Cursor::whole`]; not a chunk lent
    /// with [`lend`](Cursor::lend)).
    #[inline]
    pub fn input(&self) -> Option<&'a str> {
        match self.text {
            Cow::Borrowed(text) if self.whole => Some(text),
            _ => None,
        }
    }

    // ------------------------------------------------------------------ the buffer

    /// The buffered text; `text()[0]` is at absolute offset [`base`](Cursor::base).
    #[inline(always)]
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The buffered text as bytes.
    #[inline(always)]
    pub fn bytes(&self) -> &[u8] {
        self.text.as_bytes()
    }

    /// Absolute offset of the first buffered byte.
    #[inline(always)]
    pub fn base(&self) -> usize {
        self.base
    }

    /// The position as an index into [`bytes`](Cursor::bytes).
    #[inline(always)]
    pub fn index(&self) -> usize {
        self.at
    }

    /// The position as an absolute offset.
    #[inline(always)]
    pub fn offset(&self) -> usize {
        self.base + self.at
    }

    /// Absolute offset of the end of the buffered text.
    #[inline(always)]
    pub fn end(&self) -> usize {
        self.base + self.text.len()
    }

    /// Buffered bytes not yet read.
    #[inline(always)]
    pub fn available(&self) -> usize {
        self.text.len() - self.at
    }

    /// Bytes held in the buffer (read or not).
    #[inline]
    pub fn buffered(&self) -> usize {
        self.text.len()
    }

    /// The unread text.
    #[inline]
    pub fn rest(&self) -> &str {
        &self.text[self.at..]
    }

    /// The unread bytes.
    #[inline(always)]
    pub fn rest_bytes(&self) -> &[u8] {
        &self.text.as_bytes()[self.at..]
    }

    /// The text between absolute offsets `start` and `end`. Panics when it is not buffered (a
    /// bug in the caller's compaction mark) or not on character boundaries.
    #[inline(always)]
    pub fn slice(&self, start: usize, end: usize) -> &str {
        // Two one-sided slices: each is one boundary check the compiler inlines (the range
        // form became a call on the tokenizers' hot paths).
        let (from, to) = (start - self.base, end - self.base);
        &self.text[from..][..to - from]
    }

    /// The text between absolute offsets `start` and `end` with the input's lifetime: borrowed
    /// from a whole input, copied from a fed buffer (a token string that must outlive the
    /// cursor's next feed). Empty ranges never allocate.
    #[inline]
    pub fn slice_cow(&self, start: usize, end: usize) -> Cow<'a, str> {
        if start == end {
            return Cow::Borrowed("");
        }
        match self.text {
            Cow::Borrowed(text) => Cow::Borrowed(&text[start - self.base..end - self.base]),
            Cow::Owned(_) => Cow::Owned(self.slice(start, end).to_owned()),
        }
    }

    /// The byte at the position, raw (no folding); `None` at the end of the buffer.
    #[inline(always)]
    pub fn peek_byte(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    /// The byte `n` bytes after the position, raw.
    #[inline(always)]
    pub fn peek_byte_at(&self, n: usize) -> Option<u8> {
        self.text.as_bytes().get(self.at + n).copied()
    }

    /// Moves the position `n` bytes on. The caller keeps it on a character boundary.
    #[inline(always)]
    pub fn advance(&mut self, n: usize) {
        self.at += n;
        debug_assert!(self.at <= self.text.len());
    }

    /// Moves the position to index `i` of [`bytes`](Cursor::bytes).
    #[inline(always)]
    pub fn set_index(&mut self, i: usize) {
        debug_assert!(i <= self.text.len());
        self.at = i;
    }

    /// Moves the position to absolute offset `offset` (buffered, on a character boundary).
    #[inline(always)]
    pub fn set_offset(&mut self, offset: usize) {
        self.set_index(offset - self.base);
    }

    // ------------------------------------------------------------------ characters

    /// The next character with newlines folded (see the module docs), without consuming it:
    /// `Ok(None)` at the end of a finished input, [`NeedMore`] at the end of the buffer (or at
    /// a CR there) otherwise.
    #[inline(always)]
    pub fn peek(&self) -> Result<Option<Peeked>, NeedMore> {
        match self.text.as_bytes().get(self.at) {
            Some(&b) if b < 0x80 && b != b'\r' => Ok(Some(Peeked {
                ch: char::from(b),
                len: 1,
                folded: false,
            })),
            Some(&b'\r') => self.peek_cr(),
            Some(_) => Ok(Some(self.peek_non_ascii())),
            None if self.finished => Ok(None),
            None => Err(NeedMore),
        }
    }

    /// Consumes and returns the next character, newlines folded (see [`peek`](Cursor::peek)).
    #[inline(always)]
    pub fn next_char(&mut self) -> Result<Option<char>, NeedMore> {
        match self.peek()? {
            Some(p) => {
                self.at += p.len;
                Ok(Some(p.ch))
            }
            None => Ok(None),
        }
    }

    /// The next character as it is in the input (no folding), without consuming it.
    #[inline]
    pub fn peek_raw(&self) -> Result<Option<char>, NeedMore> {
        match self.text[self.at..].chars().next() {
            Some(c) => Ok(Some(c)),
            None if self.finished => Ok(None),
            None => Err(NeedMore),
        }
    }

    /// [`peek`](Cursor::peek) at a CR.
    #[cold]
    fn peek_cr(&self) -> Result<Option<Peeked>, NeedMore> {
        let after = &self.text.as_bytes()[self.at + 1..];
        let len = match after.first() {
            Some(b'\n') => 2,
            Some(0xC2) if self.rules == NewlineRules::LeafXml && after.get(1) == Some(&0x85) => 3,
            Some(_) => 1,
            None if self.finished => 1,
            None => return Err(NeedMore),
        };
        Ok(Some(Peeked {
            ch: '\n',
            len,
            folded: true,
        }))
    }

    /// [`peek`](Cursor::peek) at a lead byte: NEL and LS are line breaks under LeafXML's rules.
    #[inline]
    fn peek_non_ascii(&self) -> Peeked {
        let ch = self.text[self.at..].chars().next().unwrap_or('\u{FFFD}');
        let len = ch.len_utf8();
        if self.rules == NewlineRules::LeafXml && (ch == '\u{85}' || ch == '\u{2028}') {
            return Peeked {
                ch: '\n',
                len,
                folded: true,
            };
        }
        Peeked {
            ch,
            len,
            folded: false,
        }
    }

    /// Whether the unread input starts with `lit` (ASCII; `ignore_case`: ASCII
    /// case-insensitively). [`NeedMore`] when the buffer ends inside a match and more may come.
    #[inline]
    pub fn starts_with(&self, lit: &[u8], ignore_case: bool) -> Result<bool, NeedMore> {
        let rest = self.rest_bytes();
        let n = rest.len().min(lit.len());
        let same = if ignore_case {
            rest[..n].eq_ignore_ascii_case(&lit[..n])
        } else {
            rest[..n] == lit[..n]
        };
        if !same {
            Ok(false)
        } else if n == lit.len() {
            Ok(true)
        } else if self.finished {
            Ok(false)
        } else {
            Err(NeedMore)
        }
    }

    /// Consumes `lit` when the unread input starts with it (see
    /// [`starts_with`](Cursor::starts_with)).
    #[inline]
    pub fn eat(&mut self, lit: &[u8], ignore_case: bool) -> Result<bool, NeedMore> {
        let found = self.starts_with(lit, ignore_case)?;
        if found {
            self.at += lit.len();
        }
        Ok(found)
    }

    /// At the very start of the input, consumes a U+FEFF (a byte order mark that decoding left
    /// in the text). `Ok(false)` anywhere else.
    pub fn skip_bom(&mut self) -> Result<bool, NeedMore> {
        if self.offset() != 0 {
            return Ok(false);
        }
        self.eat("\u{FEFF}".as_bytes(), false)
    }

    /// The absolute offset where the run from the position stops: the first stop or check
    /// byte of `set`, or the end of the buffer. The position does not move.
    #[inline(always)]
    pub fn scan(&self, set: &StopSet) -> usize {
        self.base + set.find(self.text.as_bytes(), self.at)
    }

    // ------------------------------------------------------------------ waiting

    /// Records that a step is answering [`NeedMore`] after looking at the input from absolute
    /// offset `from` to the end of the buffer, and returns the `NeedMore` to hand up. Until
    /// the buffer has grown by as much again (at least one byte; for look-aheads shorter than
    /// 256 bytes, by anything), [`is_ready`](Cursor::is_ready) says false, so a tokenizer does
    /// not rescan a long construct on every tiny chunk.
    pub fn need_more(&mut self, from: usize) -> NeedMore {
        let end = self.end();
        let looked = end.saturating_sub(from);
        self.retry_at = end + if looked < 256 { 1 } else { looked };
        NeedMore
    }

    /// False while a step that answered [`Cursor::need_more`] should not be retried yet.
    #[inline]
    pub fn is_ready(&self) -> bool {
        self.finished || self.end() >= self.retry_at
    }

    // ------------------------------------------------------------------ compaction

    /// Drops the text before absolute offset `keep` (clamped to the position) when that dead
    /// prefix is large: at least the minimum (4 KiB by default) and at least half the buffer,
    /// which keeps the copying amortized linear. The accumulators in `texts` that still hold a
    /// range starting before `keep` are detached (copied out) first; every other range the
    /// caller holds must start at or after `keep`. Returns whether the buffer was compacted. A
    /// whole input is never compacted; a lent chunk ([`lend`](Cursor::lend)) always is: its
    /// text from `keep` on is copied into the cursor's own room, as
    /// [`into_owned`](Cursor::into_owned) does.
    ///
    /// ```
    /// use thicket_input::cursor::Cursor;
    /// use thicket_input::{NewlineRules, TextAcc};
    /// let mut input = Cursor::new(NewlineRules::CrLf).with_min_compaction(1);
    /// input.feed("<a>text</a>");
    /// let mut name = TextAcc::new();
    /// name.push_range(1, 2, &input);
    /// input.set_offset(7);
    /// assert!(input.compact(7, &mut [&mut name]));
    /// assert_eq!((input.base(), input.rest()), (7, "</a>"));
    /// assert_eq!(name.as_str(&input), "a"); // copied out
    /// ```
    pub fn compact(&mut self, keep: usize, texts: &mut [&mut TextAcc]) -> bool {
        let keep = keep.min(self.offset());
        if matches!(self.text, Cow::Borrowed(_)) && !self.whole {
            // A lent chunk: what is kept goes to the cursor's own room now, so that a feed
            // after it copies no more than that.
            self.reown(keep, texts);
            return true;
        }
        let drop = keep.saturating_sub(self.base);
        if drop < self.min_compaction || drop * 2 < self.text.len() {
            return false;
        }
        let Cow::Owned(buf) = &mut self.text else {
            return false;
        };
        for text in texts.iter_mut() {
            text.detach_before(keep, buf, self.base);
        }
        if let Some(lines) = &mut self.lines {
            lines.forget_before(keep, buf, self.base);
        }
        buf.drain(..drop);
        self.base = keep;
        self.at -= drop;
        true
    }

    // ------------------------------------------------------------------ lines

    /// The 1-based line and character column of absolute offset `offset`, when the cursor
    /// counts lines ([`with_lines`](Cursor::with_lines)) and the offset is buffered and not
    /// before the last compaction. Amortized constant time for increasing offsets.
    pub fn line_col(&mut self, offset: usize) -> Option<LineCol> {
        let lines = self.lines.as_mut()?;
        lines.line_col(offset, &self.text, self.base)
    }

    /// The 1-based line of absolute offset `offset` (fed, not before the last compaction), when
    /// the cursor counts lines. Amortized constant time for increasing offsets; no text is read.
    pub fn line(&mut self, offset: usize) -> Option<usize> {
        self.lines.as_mut()?.line(offset)
    }

    /// The line counter, when the cursor counts lines.
    pub fn lines(&self) -> Option<&LineCounter> {
        self.lines.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leafxml_folds_nel_ls_and_cr_nel() {
        let mut c = Cursor::whole("a\r\u{85}b\u{85}c\u{2028}d\r\ne\rf", NewlineRules::LeafXml);
        let mut out = String::new();
        let mut lens = Vec::new();
        while let Some(p) = c.peek().unwrap() {
            out.push(p.ch);
            if p.ch == '\n' {
                lens.push(p.len);
            }
            c.advance(p.len);
        }
        assert_eq!(out, "a\nb\nc\nd\ne\nf");
        assert_eq!(lens, [3, 2, 3, 2, 1]);
        let mut c = Cursor::whole("a\u{85}\r\u{85}", NewlineRules::CrLf);
        let mut out = String::new();
        while let Some(ch) = c.next_char().unwrap() {
            out.push(ch);
        }
        assert_eq!(out, "a\u{85}\n\u{85}");
    }

    #[test]
    fn raw_peeks_and_input_lifetime_slices() {
        let mut c = Cursor::new(NewlineRules::CrLf);
        assert_eq!(c.peek_raw(), Err(NeedMore));
        c.feed("\r\n");
        assert_eq!(c.peek_raw(), Ok(Some('\r')));
        assert!(matches!(c.slice_cow(0, 2), Cow::Owned(s) if s == "\r\n"));
        let text = String::from("abc");
        let w = Cursor::whole(&text, NewlineRules::CrLf);
        assert!(matches!(w.slice_cow(1, 3), Cow::Borrowed("bc")));
        assert!(matches!(c.slice_cow(1, 1), Cow::Borrowed("")));
    }

    #[test]
    fn a_strict_reader_ends_the_input_at_an_error() {
        let mut c = Cursor::new(NewlineRules::LeafXml);
        c.feed("ab\u{1}cd");
        c.advance(1);
        c.end_at(2);
        assert_eq!(c.next_char(), Ok(Some('b')));
        assert_eq!(c.next_char(), Ok(None));
        let text = "abc";
        let mut w = Cursor::whole(text, NewlineRules::CrLf);
        w.end_at(1);
        assert_eq!(
            (w.text(), w.is_finished(), w.input()),
            ("a", true, Some("a"))
        );
    }

    #[test]
    fn starts_with_is_tri_state() {
        let mut c = Cursor::new(NewlineRules::CrLf);
        c.feed("<!DOC");
        assert_eq!(c.starts_with(b"<!doctype", true), Err(NeedMore));
        assert_eq!(c.starts_with(b"<!doctype", false), Ok(false));
        assert_eq!(c.starts_with(b"<!-", false), Ok(false));
        c.feed("TYPE html>");
        assert_eq!(c.eat(b"<!doctype", true), Ok(true));
        assert_eq!(c.offset(), 9);
        let mut c = Cursor::whole("<!DOC", NewlineRules::CrLf);
        assert_eq!(c.starts_with(b"<!doctype", true), Ok(false));
        assert_eq!(c.skip_bom(), Ok(false));
    }

    #[test]
    fn bom_only_at_the_start() {
        let mut c = Cursor::new(NewlineRules::CrLf);
        assert_eq!(c.skip_bom(), Err(NeedMore));
        c.feed("\u{FEFF}\u{FEFF}x");
        assert_eq!(c.skip_bom(), Ok(true));
        assert_eq!(c.skip_bom(), Ok(false));
        assert_eq!(c.next_char(), Ok(Some('\u{FEFF}')));
    }

    #[test]
    fn need_more_waits_for_input_to_double() {
        let mut c = Cursor::new(NewlineRules::CrLf);
        c.feed(&"x".repeat(1000));
        let _ = c.need_more(0);
        assert!(!c.is_ready());
        c.feed(&"x".repeat(999));
        assert!(!c.is_ready());
        c.feed("x");
        assert!(c.is_ready());
        let _ = c.need_more(1990);
        assert!(!c.is_ready());
        c.feed("y");
        assert!(c.is_ready());
        let _ = c.need_more(0);
        c.finish();
        assert!(c.is_ready());
    }

    #[test]
    fn compaction_is_amortized_and_clamped_to_the_position() {
        let mut c = Cursor::new(NewlineRules::CrLf);
        c.feed(&"a".repeat(10_000));
        c.set_offset(3000);
        assert!(!c.compact(3000, &mut [])); // less than half the buffer
        c.set_offset(9000);
        assert!(c.compact(usize::MAX, &mut []));
        assert_eq!((c.base(), c.index(), c.buffered()), (9000, 0, 1000));
        let long = "a".repeat(10_000);
        let mut w = Cursor::whole(&long, NewlineRules::CrLf);
        w.set_offset(9000);
        assert!(!w.compact(9000, &mut []));
    }
}
