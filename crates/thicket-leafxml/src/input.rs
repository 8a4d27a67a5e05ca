//! "Character encoding" and "Character set": bytes to a window of checked, decoded text.
//!
//! The window is bounded: text before the cursor is dropped when more is read, so memory grows
//! with the longest token, not with the document.

use std::io::{self, Read};

use thicket_charref::numeric::is_leafxml_char;

use crate::error::ErrorCode;

/// The encoding chosen by the byte signature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Encoding {
    Utf8,
    Utf16Le,
    Utf16Be,
}

/// A decoding failure: the code and the offset into the input bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DecodeError {
    pub code: ErrorCode,
    pub input_offset: u64,
}

/// Strict, incremental decoding with the LeafXML byte signatures.
///
/// This is the one place that turns bytes into text. It stays private so that it can be replaced
/// by `thicket_input`'s strict decoder once that lands; it uses only `std::str::from_utf8` and
/// `char::decode_utf16`.
#[derive(Debug, Default)]
struct Decoder {
    encoding: Option<Encoding>,
    /// Bytes not decoded yet (an incomplete sequence at a chunk end).
    pending: Vec<u8>,
    /// Input offset of `pending[0]` (or of the next byte when `pending` is empty).
    consumed: u64,
}

impl Decoder {
    /// Decodes `bytes` after whatever is pending, appending the text to `out`. `last` says that no
    /// more bytes follow. On error the valid text before the bad sequence has been appended.
    fn decode(&mut self, bytes: &[u8], last: bool, out: &mut String) -> Result<(), DecodeError> {
        if self.pending.is_empty() {
            let n = self.decode_some(bytes, last, out)?;
            self.pending.extend_from_slice(&bytes[n..]);
        } else {
            let mut data = std::mem::take(&mut self.pending);
            data.extend_from_slice(bytes);
            let n = self.decode_some(&data, last, out)?;
            data.drain(..n);
            self.pending = data;
        }
        Ok(())
    }

    /// Decodes a prefix of `data`, returning how many bytes were used.
    fn decode_some(
        &mut self,
        data: &[u8],
        last: bool,
        out: &mut String,
    ) -> Result<usize, DecodeError> {
        let mut start = 0;
        let encoding = match self.encoding {
            Some(e) => e,
            None => {
                // "The bytes at the beginning of the binary stream determine the specific encoding".
                let (enc, bom) = if data.starts_with(&[0xFE, 0xFF]) {
                    (Encoding::Utf16Be, 2)
                } else if data.starts_with(&[0xFF, 0xFE]) {
                    (Encoding::Utf16Le, 2)
                } else if data.starts_with(&[0xEF, 0xBB, 0xBF]) {
                    (Encoding::Utf8, 3)
                } else if !last
                    && (data.is_empty()
                        || (data.len() < 3 && [0xEF, 0xBB, 0xBF].starts_with(data))
                        || data == [0xFE]
                        || data == [0xFF])
                {
                    return Ok(0);
                } else {
                    (Encoding::Utf8, 0)
                };
                self.encoding = Some(enc);
                self.consumed += bom as u64;
                start = bom;
                enc
            }
        };
        let data = &data[start..];
        let used = match encoding {
            Encoding::Utf8 => self.utf8(data, last, out)?,
            Encoding::Utf16Le => self.utf16(data, last, out, u16::from_le_bytes)?,
            Encoding::Utf16Be => self.utf16(data, last, out, u16::from_be_bytes)?,
        };
        self.consumed += used as u64;
        Ok(start + used)
    }

    fn utf8(&self, data: &[u8], last: bool, out: &mut String) -> Result<usize, DecodeError> {
        match std::str::from_utf8(data) {
            Ok(s) => {
                out.push_str(s);
                Ok(data.len())
            }
            Err(e) => {
                let valid = e.valid_up_to();
                out.push_str(std::str::from_utf8(&data[..valid]).unwrap_or_default());
                if e.error_len().is_none() && !last {
                    Ok(valid)
                } else {
                    Err(DecodeError {
                        code: ErrorCode::InvalidUtf8,
                        input_offset: self.consumed + valid as u64,
                    })
                }
            }
        }
    }

    fn utf16(
        &self,
        data: &[u8],
        last: bool,
        out: &mut String,
        unit: fn([u8; 2]) -> u16,
    ) -> Result<usize, DecodeError> {
        let units = data.chunks_exact(2).map(|p| unit([p[0], p[1]]));
        let total = data.len() / 2;
        let mut used = 0;
        for r in char::decode_utf16(units) {
            match r {
                Ok(c) => {
                    out.push(c);
                    used += c.len_utf16();
                }
                Err(e) => {
                    let lone = e.unpaired_surrogate();
                    if !last && used + 1 == total && (0xD800..0xDC00).contains(&lone) {
                        // A high surrogate at the chunk end: its pair may follow.
                        return Ok(used * 2);
                    }
                    return Err(DecodeError {
                        code: ErrorCode::InvalidUtf16,
                        input_offset: self.consumed + used as u64 * 2,
                    });
                }
            }
        }
        if last && data.len() % 2 == 1 {
            return Err(DecodeError {
                code: ErrorCode::InvalidUtf16,
                input_offset: self.consumed + used as u64 * 2,
            });
        }
        Ok(used * 2)
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

/// The first codepoint of `s` outside the LeafXML character set, with its offset.
fn first_invalid(s: &str) -> Option<(usize, char)> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let x = b[i];
        if x < 0x80 {
            if (0x20..0x7F).contains(&x) || matches!(x, b'\t' | b'\n' | b'\r') {
                i += 1;
                continue;
            }
            return Some((i, x as char));
        }
        let c = s[i..].chars().next()?;
        if !is_leafxml_char(c) {
            return Some((i, c));
        }
        i += c.len_utf8();
    }
    None
}

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
        }
    }

    /// The unconsumed text.
    #[inline]
    pub fn rest(&self) -> &str {
        &self.buf[self.pos..]
    }

    /// True when no more text will ever arrive (the input ended or an error stopped it).
    pub fn exhausted(&self) -> bool {
        self.stop.is_some() || (self.src_done && self.decoder.pending.is_empty())
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

    /// Line and column of `pos + rel` (cold: scans from `pos`).
    #[cold]
    pub fn line_col(&self, rel: usize) -> (u32, u32) {
        let mut t = self.at;
        let end = (self.pos + rel).min(self.buf.len());
        t.advance(&self.buf[self.pos..end]);
        (t.line, t.col.saturating_add(1))
    }

    /// Reads and decodes more text. Returns `Ok(false)` when no more text will arrive. Reads at
    /// least as much as is already buffered past `pos`, so rescanning a long token stays linear.
    pub fn more(&mut self) -> io::Result<bool> {
        if self.exhausted() {
            return Ok(false);
        }
        if self.pos > 0 && self.pos >= self.buf.len() / 2 {
            self.buf.drain(..self.pos);
            self.base += self.pos;
            self.pos = 0;
        }
        let want = self.chunk.max(self.buf.len() - self.pos);
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
            if last && self.stop.is_none() {
                self.decoder.pending.clear();
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
        let (_, stop) = decode_all(b"\xFF\xFEa\x00b", 16);
        assert_eq!(stop.unwrap().code, ErrorCode::InvalidUtf16);
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
    }
}
