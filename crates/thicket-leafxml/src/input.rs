//! "Character encoding" and "Character set": bytes to checked, decoded text in the shared
//! cursor (`thicket_input::cursor::Cursor`, LeafXML's newline rules), and the shared line
//! counter over it.
//!
//! Three ways in: a whole input decoded at once (`Reader::from_bytes`: the cursor borrows the
//! text when the bytes are UTF-8 already), chunks read from an `io::Read` (`Reader::new`), or
//! chunks the caller pushes (`Reader::push`). The bytes go through the shared
//! `SniffingDecoder` (the BOM rules, strict decoding); each new piece of text is checked
//! against the character set (`thicket_names::leafxml::first_invalid_char`), and the text ends
//! at the first invalid codepoint or malformed sequence (`Cursor::end_at`), where the reader
//! meets the error in document order. Lines are counted once, as the reader reaches them, and
//! forgotten with the text compaction drops, so memory follows the text held.

use std::io::{self, Read};

use thicket_input::cursor::Cursor;
use thicket_input::decode::DecodeErrorKind;
use thicket_input::front::{ReadError, SniffingDecoder};
use thicket_input::lines::LineCounter;
use thicket_input::{DecodeError, NewlineRules, TextAcc};
use thicket_names::leafxml::first_invalid_char;

use crate::error::ErrorCode;

/// Why the text stops where it does before the real end of the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Stop {
    pub code: ErrorCode,
    /// For decoding errors, the offset into the input bytes.
    pub input_offset: Option<u64>,
    pub codepoint: Option<u32>,
}

impl Stop {
    fn decoding(e: DecodeError) -> Stop {
        Stop {
            code: match e.kind {
                DecodeErrorKind::UnpairedSurrogate | DecodeErrorKind::TruncatedUtf16 => {
                    ErrorCode::InvalidUtf16
                }
                _ => ErrorCode::InvalidUtf8,
            },
            input_offset: Some(e.offset as u64),
            codepoint: None,
        }
    }

    fn invalid_char(c: char) -> Stop {
        Stop {
            code: ErrorCode::InvalidChar,
            input_offset: None,
            codepoint: Some(c as u32),
        }
    }
}

/// The byte source of a reader that the caller feeds: [`Reader::push`](crate::Reader::push)
/// makes one, and [`Reader::feed`](crate::Reader::feed) and
/// [`Reader::finish`](crate::Reader::finish) hand it bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Push;

/// Where a [`Reader`](crate::Reader)'s bytes come from: any `io::Read`, pulled a chunk at a
/// time as the reader needs them, or [`Push`], fed by the caller. Sealed.
pub trait Source: private::Sealed {}

impl<R: Read> Source for R {}
impl Source for Push {}

pub(crate) mod private {
    use std::io::Read;

    /// The one thing a reader asks of its source.
    pub trait Sealed {
        /// The `io::Read` to pull from, `None` when the caller pushes.
        fn pull(&mut self) -> Option<&mut dyn Read>;
    }

    impl<R: Read> Sealed for R {
        #[inline]
        fn pull(&mut self) -> Option<&mut dyn Read> {
            Some(self)
        }
    }

    impl Sealed for super::Push {
        #[inline]
        fn pull(&mut self) -> Option<&mut dyn Read> {
            None
        }
    }
}

/// How far past an offset asked for the lines are counted at once (one memchr pass per block).
const LINE_BLOCK: usize = 64 * 1024;

/// The decoded, checked text a reader reads: the cursor, the decoder that fills it, why the
/// text stopped early (if it did), and its line counter.
#[derive(Debug)]
pub(crate) struct Text<'a> {
    pub cursor: Cursor<'a>,
    decoder: SniffingDecoder,
    /// Bytes asked of an `io::Read` per read.
    pub read_size: usize,
    /// Set when the text ends early, at the end of the cursor's text, because of this error.
    pub stop: Option<Stop>,
    lines: LineCounter,
    /// Lines are counted up to this absolute offset.
    counted: usize,
}

impl<'a> Text<'a> {
    /// A whole input decoded at once: borrowed when it is UTF-8 already (the BOM rules and
    /// strict decoding of `SniffingDecoder::leafxml`).
    pub fn whole(bytes: &'a [u8]) -> Text<'a> {
        let decoder = SniffingDecoder::leafxml();
        let (text, mut stop) = match decoder.decode_whole(bytes) {
            Ok(decoded) => (decoded.text, None),
            Err(e) => {
                // The text before the malformed sequence still counts, so that errors come in
                // document order.
                let valid = bytes.get(..e.offset).unwrap_or_default();
                let text = decoder
                    .decode_whole(valid)
                    .map(|d| d.text)
                    .unwrap_or_default();
                (text, Some(Stop::decoding(e)))
            }
        };
        let mut cursor = match text {
            std::borrow::Cow::Borrowed(text) => Cursor::whole(text, NewlineRules::LeafXml),
            std::borrow::Cow::Owned(text) => {
                let mut cursor = Cursor::new(NewlineRules::LeafXml);
                cursor.feed(&text);
                cursor.finish();
                cursor
            }
        };
        if let Some((i, c)) = first_invalid_char(cursor.text()) {
            cursor.end_at(i);
            stop = Some(Stop::invalid_char(c));
        }
        Text {
            cursor,
            decoder,
            read_size: 0,
            stop,
            lines: LineCounter::new(NewlineRules::LeafXml),
            counted: 0,
        }
    }

    /// An empty text to fill chunk by chunk.
    pub fn streaming(read_size: usize) -> Text<'a> {
        Text {
            cursor: Cursor::new(NewlineRules::LeafXml),
            decoder: SniffingDecoder::leafxml(),
            read_size: read_size.max(16),
            stop: None,
            lines: LineCounter::new(NewlineRules::LeafXml),
            counted: 0,
        }
    }

    /// Drops the text before absolute `keep` when that pays (see `Cursor::compact`),
    /// detaching the accumulators in `texts` that start before it, after counting its lines.
    pub fn compact(&mut self, keep: usize, texts: &mut [&mut TextAcc]) {
        let keep = keep.min(self.cursor.offset());
        let drop = keep.saturating_sub(self.cursor.base());
        // The cursor's own condition, tested first so that the lines are counted only when the
        // text is dropped.
        if drop < thicket_input::cursor::MIN_COMPACTION || drop * 2 < self.cursor.buffered() {
            return;
        }
        self.count_lines(keep, true);
        self.lines
            .forget_before(keep, self.cursor.text(), self.cursor.base());
        self.cursor.compact(keep, texts);
    }

    /// Decodes pushed bytes into the text (nothing once the text has ended).
    pub fn feed(&mut self, bytes: &[u8]) {
        if self.cursor.is_finished() {
            return;
        }
        let before = self.cursor.end();
        let decoded = self.decoder.feed_into(bytes, &mut self.cursor);
        self.check(before, decoded.err());
    }

    /// Ends the pushed bytes.
    pub fn finish(&mut self) {
        if self.cursor.is_finished() {
            return;
        }
        let before = self.cursor.end();
        let decoded = self.decoder.finish_into(&mut self.cursor);
        self.check(before, decoded.err());
    }

    /// Reads one chunk from `src` into the text; at the end of `src`, ends the text.
    pub fn read(&mut self, src: &mut dyn Read) -> io::Result<()> {
        if self.cursor.is_finished() {
            return Ok(());
        }
        let before = self.cursor.end();
        let mut src = src;
        match self
            .decoder
            .read_into(&mut src, self.read_size, &mut self.cursor)
        {
            Ok(_) => self.check(before, None),
            Err(ReadError::Decode(e)) => self.check(before, Some(e)),
            Err(ReadError::Io(e)) => return Err(e),
        }
        Ok(())
    }

    /// The character set over the text decoded since absolute `before`, then the decoding
    /// error if there was one: the text ends at the first of them.
    fn check(&mut self, before: usize, error: Option<DecodeError>) {
        let start = before - self.cursor.base();
        if let Some((i, c)) = first_invalid_char(&self.cursor.text()[start..]) {
            self.cursor.end_at(before + i);
            self.stop = Some(Stop::invalid_char(c));
        } else if let Some(e) = error {
            let end = self.cursor.end();
            self.cursor.end_at(end);
            self.stop = Some(Stop::decoding(e));
        }
    }

    /// Counts the lines of the text up to absolute `offset` and a block beyond (as much as is
    /// buffered), so that `line` and `line_col` can answer for it. With `forget`, nothing before
    /// `offset` will be asked for again: a long stretch is counted a block at a time and what
    /// lies before `offset` forgotten on the way, so the counter holds about a block of lines
    /// whatever the length of the token it crosses.
    #[cold]
    fn count_lines(&mut self, offset: usize, forget: bool) {
        let base = self.cursor.base();
        let end = self.cursor.end();
        let target = offset.max(self.counted).saturating_add(LINE_BLOCK).min(end);
        while self.counted < target {
            let text = self.cursor.text();
            let mut to = target.min(self.counted + LINE_BLOCK);
            while !text.is_char_boundary(to - base) {
                to += 1;
            }
            self.lines.push(&text[self.counted - base..to - base]);
            self.counted = to;
            if forget && to < offset && to - self.lines.floor() >= 4 * LINE_BLOCK {
                self.lines.forget_before(to, text, base);
            }
        }
        if self.counted == end && self.cursor.is_finished() {
            self.lines.finish();
        }
    }

    /// The 1-based line of absolute `offset` (at or after the last compaction, buffered). Nothing
    /// before `offset` is asked for afterwards (the reader asks for the lines of its events, in
    /// order, and for positions at or after them).
    #[inline]
    pub fn line(&mut self, offset: usize) -> u32 {
        if offset >= self.counted {
            self.count_lines(offset, true);
        }
        let line = self.lines.line(offset);
        debug_assert!(line.is_some(), "line of {offset}: not counted");
        let line = line.unwrap_or(1);
        u32::try_from(line).unwrap_or(u32::MAX)
    }

    /// The 1-based line and column (in codepoints) of absolute `offset`.
    #[cold]
    pub fn line_col(&mut self, offset: usize) -> (u32, u32) {
        if offset >= self.counted {
            self.count_lines(offset, false);
        }
        let lc = self
            .lines
            .line_col(offset, self.cursor.text(), self.cursor.base());
        let (line, column) = lc.map_or((1, 1), |lc| (lc.line, lc.column));
        (
            u32::try_from(line).unwrap_or(u32::MAX),
            u32::try_from(column).unwrap_or(u32::MAX),
        )
    }

    /// For a whole input, which is never compacted: forgets the lines before `keep` once a
    /// block has gone by, so the counter stays bounded.
    #[inline]
    pub fn forget_lines(&mut self, keep: usize) {
        if keep.saturating_sub(self.lines.floor()) >= 4 * LINE_BLOCK {
            self.count_lines(keep, true);
            self.lines
                .forget_before(keep, self.cursor.text(), self.cursor.base());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode_all(bytes: &[u8], chunk: usize) -> (String, Option<Stop>) {
        let mut text = Text::streaming(chunk);
        let mut src = bytes;
        while !text.cursor.is_finished() {
            text.read(&mut src).unwrap();
        }
        (text.cursor.text().to_owned(), text.stop)
    }

    #[test]
    fn signatures() {
        assert_eq!(decode_all(b"\xEF\xBB\xBFab", 16).0, "ab");
        assert_eq!(decode_all(b"\xFF\xFEa\x00b\x00", 16).0, "ab");
        assert_eq!(decode_all(b"\xFE\xFF\x00a\x00b", 16).0, "ab");
        assert_eq!(decode_all(b"ab", 16).0, "ab");
        assert_eq!(
            decode_all(b"\xEF\xBB", 16).1.unwrap().code,
            ErrorCode::InvalidUtf8
        );
    }

    #[test]
    fn errors() {
        let (text, stop) = decode_all(b"ab\xFFcd", 16);
        assert_eq!(text, "ab");
        assert_eq!(stop.unwrap().input_offset, Some(2));
        let (text, stop) = decode_all(b"a\x01b", 16);
        assert_eq!(text, "a");
        assert_eq!(stop.unwrap().codepoint, Some(1));
        let (_, stop) = decode_all(b"\xFF\xFEa\x00\x00\xD8", 16);
        assert_eq!(stop.unwrap().input_offset, Some(4));
        let (_, stop) = decode_all(b"0123456789abcdef0123456789abcdef\x7f", 16);
        assert_eq!(stop.unwrap().codepoint, Some(0x7F));
        let (_, stop) = decode_all(b"\xFF\xFEa\x00b", 16);
        assert_eq!(stop.unwrap().code, ErrorCode::InvalidUtf16);
        // An invalid codepoint before a malformed sequence in the same chunk comes first.
        let (text, stop) = decode_all(b"a\x01b\xFF", 16);
        assert_eq!(
            (text.as_str(), stop.unwrap().code),
            ("a", ErrorCode::InvalidChar)
        );
        // The same read whole.
        let whole = Text::whole(b"a\x01b\xFF");
        assert_eq!(whole.cursor.text(), "a");
        assert_eq!(whole.stop.unwrap().code, ErrorCode::InvalidChar);
        let whole = Text::whole(b"ab\xFFcd");
        assert_eq!(whole.cursor.text(), "ab");
        assert_eq!(whole.stop.unwrap().input_offset, Some(2));
    }

    #[test]
    fn lines_are_counted_once_and_forgotten() {
        let doc = "a\r\nb\r\u{85}c\u{85}d\u{2028}e\rf\ng".repeat(40_000);
        let mut text = Text::whole(doc.as_bytes());
        let mut last = 0;
        for (i, _) in doc.char_indices().step_by(97) {
            let line = text.line(i);
            assert!(line >= last);
            last = line;
            text.forget_lines(i);
        }
        assert_eq!(text.line(doc.len()), 40_000 * 6 + 1);
        let (line, col) = text.line_col(doc.len() - 1);
        assert_eq!((line, col), (40_000 * 6 + 1, 1));
    }
}
