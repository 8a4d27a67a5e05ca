//! "Character encoding" and "Character set": bytes to a window of checked, decoded text.
//!
//! The window is bounded: text before the cursor is dropped when more is read, so memory grows
//! with the longest token, not with the document.

use std::io::{self, Read};

use thicket_input::StreamDecoder;
use thicket_input::decode::DecodeErrorKind;

use crate::error::ErrorCode;

/// A decoding failure: the code and the offset into the input bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DecodeError {
    pub code: ErrorCode,
    pub input_offset: u64,
}

/// Strict, incremental decoding with the LeafXML byte signatures: `thicket_input`'s streaming
/// decoder (UTF-16 BE, UTF-16 LE or UTF-8 by byte signature, else UTF-8; the signature is not
/// text), stopping at the first malformed sequence.
struct Decoder(StreamDecoder);

impl Default for Decoder {
    fn default() -> Decoder {
        Decoder(StreamDecoder::leafxml())
    }
}

impl Decoder {
    /// Decodes `bytes`, appending the text to `out`. `last` says that no more bytes follow. On
    /// error the valid text before the bad sequence has been appended.
    fn decode(&mut self, bytes: &[u8], last: bool, out: &mut String) -> Result<(), DecodeError> {
        let result = self.0.feed_strict(bytes, out).and_then(|()| {
            if last {
                self.0.finish_strict(out)
            } else {
                Ok(())
            }
        });
        result.map_err(decode_error)
    }
}

fn decode_error(e: thicket_input::DecodeError) -> DecodeError {
    DecodeError {
        code: match e.kind {
            DecodeErrorKind::UnpairedSurrogate | DecodeErrorKind::TruncatedUtf16 => {
                ErrorCode::InvalidUtf16
            }
            _ => ErrorCode::InvalidUtf8,
        },
        input_offset: e.offset as u64,
    }
}

/// Why the text stops where it does before the real end of the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Stop {
    pub code: ErrorCode,
    /// For decoding errors, the offset into the input bytes.
    pub input_offset: Option<u64>,
    pub codepoint: Option<u32>,
}

/// Where the line breaks of a tag token found by the fast path are (it only accepts LF).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Lines {
    /// How many LFs.
    pub lfs: u32,
    /// Offset just after the last LF (0 when there is none).
    pub tail: u32,
    /// True when the token is ASCII, so columns count bytes.
    pub ascii: bool,
}

/// A line and column tracker that knows every LeafXML line break style.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tracker {
    pub line: u32,
    /// Codepoints since the start of the line (the column is this plus one).
    pub col: u32,
    prev_cr: bool,
}

impl Tracker {
    fn new() -> Tracker {
        Tracker {
            line: 1,
            col: 0,
            prev_cr: false,
        }
    }

    /// Moves over `s`.
    pub fn advance(&mut self, s: &str) {
        let b = s.as_bytes();
        // Short slices (most tokens): one byte loop costs less than setting up the scans.
        if b.len() < SHORT {
            self.advance_general(s);
            return;
        }
        // Fast path: no CR, and no lead byte of NEL (C2) or LS (E2), so only LF breaks lines.
        // One scan for those bytes, one for LF; columns count the bytes that start a
        // codepoint after the last LF.
        let ascii = s.is_ascii();
        let cols = |t: &[u8]| {
            if ascii {
                t.len() as u32
            } else {
                count_chars(t)
            }
        };
        let only_lf = if ascii {
            memchr::memchr(b'\r', b).is_none()
        } else {
            memchr::memchr3(b'\r', 0xC2, 0xE2, b).is_none()
        };
        if only_lf {
            let mut lines = memchr::memchr_iter(b'\n', b);
            let Some(first) = lines.next() else {
                self.col = self.col.saturating_add(cols(b));
                if !b.is_empty() {
                    self.prev_cr = false;
                }
                return;
            };
            let mut last = first;
            let mut count = u32::from(!(first == 0 && self.prev_cr));
            for i in lines {
                count += 1;
                last = i;
            }
            self.line = self.line.saturating_add(count);
            self.col = cols(&b[last + 1..]);
            self.prev_cr = false;
            return;
        }
        self.advance_general(s);
    }

    /// Moves over `s`, whose line breaks are known: `lines.lfs` LFs, the last one just before
    /// `lines.tail`, and no other line break.
    #[inline]
    pub fn advance_known(&mut self, b: &[u8], lines: Lines) {
        let tail = b.len().saturating_sub(lines.tail as usize);
        let cols = if lines.ascii {
            tail as u32
        } else {
            count_chars(&b[b.len() - tail..])
        };
        if lines.lfs == 0 {
            self.col = self.col.saturating_add(cols);
        } else {
            // An LF right after a CR ends no second line.
            let lfs = lines.lfs - u32::from(self.prev_cr && b.first() == Some(&b'\n'));
            self.line = self.line.saturating_add(lfs);
            self.col = cols;
        }
        self.prev_cr &= b.is_empty();
    }

    /// Moves over `s` byte by byte (every line break style).
    fn advance_general(&mut self, s: &str) {
        let b = s.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let x = b[i];
            match x {
                b'\n' => {
                    if !self.prev_cr {
                        self.line = self.line.saturating_add(1);
                    }
                    self.col = 0;
                    self.prev_cr = false;
                }
                b'\r' => {
                    self.line = self.line.saturating_add(1);
                    self.col = 0;
                    self.prev_cr = true;
                }
                0x80..=0xBF => {}
                0xC2 if b.get(i + 1) == Some(&0x85) => {
                    if !self.prev_cr {
                        self.line = self.line.saturating_add(1);
                    }
                    self.col = 0;
                    self.prev_cr = false;
                    i += 1;
                }
                0xE2 if b.get(i + 1) == Some(&0x80) && b.get(i + 2) == Some(&0xA8) => {
                    self.line = self.line.saturating_add(1);
                    self.col = 0;
                    self.prev_cr = false;
                    i += 2;
                }
                _ => {
                    self.col = self.col.saturating_add(1);
                    self.prev_cr = false;
                }
            }
            i += 1;
        }
    }
}

/// Below this length, `Tracker::advance` takes the byte loop directly.
const SHORT: usize = 48;

/// Codepoints in UTF-8 bytes: the bytes that are not continuation bytes, eight at a time (a
/// continuation byte has its top bits `10`).
fn count_chars(b: &[u8]) -> u32 {
    let mut continuation = 0usize;
    let mut chunks = b.chunks_exact(8);
    for chunk in &mut chunks {
        let w = u64::from_le_bytes(<[u8; 8]>::try_from(chunk).unwrap_or_default());
        // Bit 7 of each byte: bit 7 set and bit 6 clear.
        let marks = (w & !(w << 1)) & 0x8080_8080_8080_8080;
        // One per marked byte in the low bit of each byte, summed into the top byte.
        continuation += ((marks >> 7).wrapping_mul(0x0101_0101_0101_0101) >> 56) as usize;
    }
    continuation += chunks
        .remainder()
        .iter()
        .filter(|&&x| (x as i8) < -0x40)
        .count();
    (b.len() - continuation) as u32
}

use thicket_names::leafxml::first_invalid_char as first_invalid;

/// `Input::pin` when no text is pinned.
pub(crate) const NO_PIN: usize = usize::MAX;

/// A window of decoded, character-set-checked text over a byte source.
pub(crate) struct Input<R> {
    src: R,
    chunk: usize,
    decoder: Decoder,
    read_buf: Vec<u8>,
    src_done: bool,
    /// Decoded text; `buf[pos..]` is what has not been consumed.
    pub buf: String,
    pub pos: usize,
    /// Offset of `buf[0]` in the whole decoded text.
    pub base: usize,
    /// Set when the text ends early at `buf.len()` because of this error.
    pub stop: Option<Stop>,
    /// Line and column at `pos`.
    pub at: Tracker,
    /// The absolute offset from which text must be kept (a content assembly borrows it):
    /// `more` drops no text at or after it. `NO_PIN` for none.
    pub pin: usize,
}

impl<'a> Input<&'a [u8]> {
    /// The whole input at once: decoded in one pass (`thicket_input::decode_leafxml`), with no
    /// reading or streaming decoder in between.
    pub fn from_slice(bytes: &'a [u8]) -> Input<&'a [u8]> {
        let mut input = Input::new(&[][..], 16);
        input.src_done = true;
        match thicket_input::decode_leafxml(bytes) {
            Ok((text, _)) => input.buf = text.into_owned(),
            Err(e) => {
                // The text before the malformed sequence still counts, so that errors come in
                // document order.
                let valid = bytes.get(..e.offset).unwrap_or_default();
                if let Ok((text, _)) = thicket_input::decode_leafxml(valid) {
                    input.buf = text.into_owned();
                }
                let e = decode_error(e);
                input.stop = Some(Stop {
                    code: e.code,
                    input_offset: Some(e.input_offset),
                    codepoint: None,
                });
            }
        }
        if let Some((i, c)) = first_invalid(&input.buf) {
            input.buf.truncate(i);
            input.stop = Some(Stop {
                code: ErrorCode::InvalidChar,
                input_offset: None,
                codepoint: Some(c as u32),
            });
        }
        input
    }
}

impl<R: Read> Input<R> {
    pub fn new(src: R, chunk: usize) -> Input<R> {
        Input {
            src,
            chunk: chunk.max(16),
            decoder: Decoder::default(),
            read_buf: Vec::new(),
            src_done: false,
            buf: String::new(),
            pos: 0,
            base: 0,
            stop: None,
            at: Tracker::new(),
            pin: NO_PIN,
        }
    }

    /// The unconsumed text.
    #[inline]
    pub fn rest(&self) -> &str {
        &self.buf[self.pos..]
    }

    /// The unconsumed text as bytes (no codepoint boundary check).
    #[inline]
    pub fn rest_bytes(&self) -> &[u8] {
        self.buf.as_bytes().get(self.pos..).unwrap_or_default()
    }

    /// True when no more text will ever arrive (the input ended or an error stopped it).
    pub fn exhausted(&self) -> bool {
        self.stop.is_some() || self.src_done
    }

    /// Absolute offset of `pos + rel`.
    #[inline]
    pub fn abs(&self, rel: usize) -> usize {
        self.base + self.pos + rel
    }

    /// Consumes `n` bytes of `rest()`.
    pub fn advance(&mut self, n: usize) {
        let end = self.pos + n;
        self.at.advance(&self.buf[self.pos..end]);
        self.pos = end;
    }

    /// Consumes `n` bytes of `rest()` whose line breaks are known (see `Tracker::advance_known`).
    #[inline]
    pub fn advance_known(&mut self, n: usize, lines: Lines) {
        let end = self.pos + n;
        let b = self.buf.as_bytes().get(self.pos..end).unwrap_or_default();
        self.at.advance_known(b, lines);
        self.pos = end;
    }

    /// Line and column of `pos + rel` (cold: scans from `pos`).
    #[cold]
    pub fn line_col(&self, rel: usize) -> (u32, u32) {
        let mut t = self.at;
        let end = (self.pos + rel).min(self.buf.len());
        t.advance(&self.buf[self.pos..end]);
        (t.line, t.col.saturating_add(1))
    }

    /// Reads and decodes one more chunk of text. Returns `Ok(false)` when no more text will
    /// arrive. The token scans continue where they stopped, so a long token costs one pass
    /// however many chunks it spans, and the window holds the token plus at most a chunk (the
    /// read buffer is one chunk, whatever the token's length).
    pub fn more(&mut self) -> io::Result<bool> {
        if self.exhausted() {
            return Ok(false);
        }
        // Text before the cursor (and before a pinned offset) is dropped once it is at least
        // half of the window, so moving the rest costs no more than reading it did.
        let keep = self.pin.saturating_sub(self.base).min(self.pos);
        if keep > 0 && keep >= self.buf.len() / 2 {
            self.buf.drain(..keep);
            self.base += keep;
            self.pos -= keep;
        }
        let want = self.chunk;
        let before = self.buf.len();
        while self.buf.len() == before && !self.exhausted() {
            self.read_buf.resize(want, 0);
            let mut filled = 0;
            while filled < want && !self.src_done {
                match self.src.read(&mut self.read_buf[filled..want]) {
                    Ok(0) => self.src_done = true,
                    Ok(n) => filled += n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            }
            let last = self.src_done;
            let result = self
                .decoder
                .decode(&self.read_buf[..filled], last, &mut self.buf);
            if let Some((i, c)) = first_invalid(&self.buf[before..]) {
                self.buf.truncate(before + i);
                self.stop = Some(Stop {
                    code: ErrorCode::InvalidChar,
                    input_offset: None,
                    codepoint: Some(c as u32),
                });
            } else if let Err(e) = result {
                self.stop = Some(Stop {
                    code: e.code,
                    input_offset: Some(e.input_offset),
                    codepoint: None,
                });
            }
        }
        Ok(self.buf.len() > before)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode_all(bytes: &[u8], chunk: usize) -> (String, Option<Stop>) {
        let mut input = Input::new(bytes, chunk);
        while input.more().unwrap() {}
        (input.buf, input.stop)
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
    }

    proptest::proptest! {
        /// The fast path of `Tracker::advance` agrees with the byte-by-byte path, however the
        /// text is split.
        #[test]
        fn tracker_fast_path(
            parts in proptest::collection::vec("[a\r\n\u{85}\u{2028}\u{2026}é日 ]{0,12}|[ab\n日]{40,90}|[ab\r\n\u{85}]{40,90}", 0..6)
        ) {
            let mut fast = Tracker::new();
            let mut general = Tracker::new();
            for p in &parts {
                fast.advance(p);
                general.advance_general(p);
                proptest::prop_assert_eq!(
                    (fast.line, fast.col, fast.prev_cr),
                    (general.line, general.col, general.prev_cr)
                );
            }
        }
    }

    proptest::proptest! {
        /// `count_chars` counts codepoints.
        #[test]
        fn count_chars_counts_codepoints(s in "[a\n\u{85}é\u{7ff}\u{800}日\u{ffff}😀]{0,40}") {
            proptest::prop_assert_eq!(count_chars(s.as_bytes()) as usize, s.chars().count());
        }
    }

    #[test]
    fn tracker() {
        let mut t = Tracker::new();
        t.advance("a\r\nb\r\u{85}c\u{85}d\u{2028}e\rf\ng");
        assert_eq!((t.line, t.col), (7, 1));
        let mut t = Tracker::new();
        t.advance("ab\r");
        t.advance("\nc");
        assert_eq!((t.line, t.col), (2, 1));
        let text = "ab\r\n\ncd\r\u{85}é\u{2028}\n\r\rx\ny\u{85}\u{85}z";
        let mut whole = Tracker::new();
        whole.advance(text);
        for split in 0..=text.len() {
            if !text.is_char_boundary(split) {
                continue;
            }
            let mut t = Tracker::new();
            t.advance(&text[..split]);
            t.advance(&text[split..]);
            assert_eq!((t.line, t.col), (whole.line, whole.col), "split at {split}");
        }
        assert_eq!((whole.line, whole.col), (11, 1));
    }
}
