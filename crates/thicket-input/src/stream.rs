//! Streaming decoding: bytes fed in chunks of any size give the same text as the whole input.
//!
//! Built on `encoding_rs`'s streaming `Decoder`, which keeps a multi-byte sequence (or a UTF-16
//! surrogate pair) that a chunk boundary cuts until the next chunk completes it.

use encoding_rs::{CoderResult, Decoder, DecoderResult, Encoding, UTF_8, UTF_16BE, UTF_16LE};

use crate::decode::{DecodeError, DecodeErrorKind};

/// What the decoder does with a byte order mark at the start of the stream.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum BomHandling {
    /// Remove a BOM of the decoder's own encoding.
    Remove,
    /// A BOM of UTF-8, UTF-16 LE or UTF-16 BE selects that encoding and is removed.
    Sniff,
    /// A BOM is text (U+FEFF).
    Keep,
}

/// A streaming decoder from bytes of one encoding to UTF-8 text.
///
/// Feed chunks with [`feed`](StreamDecoder::feed) (or [`feed_strict`](StreamDecoder::feed_strict))
/// and end with [`finish`](StreamDecoder::finish); the text is appended to a `String` you own.
/// After `finish` the decoder is ready for a new stream.
///
/// ```
/// use thicket_input::stream::StreamDecoder;
/// use thicket_input::Encoding;
/// let mut decoder = StreamDecoder::new(Encoding::for_label(b"utf-8").unwrap());
/// let mut text = String::new();
/// for chunk in [&b"\xEF\xBB"[..], b"\xBFcaf\xC3", b"\xA9"] {
///     decoder.feed(chunk, &mut text);
/// }
/// decoder.finish(&mut text);
/// assert_eq!(text, "caf\u{e9}");
/// ```
pub struct StreamDecoder {
    /// The encoding the decoder was created with.
    initial: &'static Encoding,
    bom: BomHandling,
    decoder: Decoder,
    /// Bytes fed since the start of the stream.
    fed: usize,
    had_errors: bool,
    /// The last (up to four) bytes fed, to classify a malformed sequence found at the end.
    tail: [u8; 4],
    /// How many bytes of `tail` are valid (they are its last `tail_len` bytes).
    tail_len: usize,
    /// Output buffer of [`SCRATCH_LEN`] bytes between the decoder and the caller's `String`,
    /// allocated by the first decode (a UTF-8 stream taken by `pass_utf8` needs none).
    scratch: String,
}

/// Capacity of the buffer each decoder writes through.
const SCRATCH_LEN: usize = 16 * 1024;

impl std::fmt::Debug for StreamDecoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StreamDecoder")
            .field("encoding", &self.decoder.encoding())
            .field("bom", &self.bom)
            .field("fed", &self.fed)
            .field("had_errors", &self.had_errors)
            .finish()
    }
}

impl StreamDecoder {
    /// A decoder for `encoding` that removes a BOM of that same encoding at the start of the
    /// stream (any other BOM-like bytes are decoded as text).
    pub fn new(encoding: &'static Encoding) -> StreamDecoder {
        StreamDecoder::with(encoding, BomHandling::Remove)
    }

    /// A decoder that starts with `encoding` but lets a UTF-8, UTF-16 LE or UTF-16 BE BOM select
    /// its encoding instead, removing the BOM: the Encoding Standard's `decode`. With UTF-8 as
    /// `encoding` this is exactly LeafXML's rule (see [`StreamDecoder::leafxml`]).
    pub fn with_bom_sniffing(encoding: &'static Encoding) -> StreamDecoder {
        StreamDecoder::with(encoding, BomHandling::Sniff)
    }

    /// A decoder that treats a BOM as the character U+FEFF.
    pub fn without_bom_handling(encoding: &'static Encoding) -> StreamDecoder {
        StreamDecoder::with(encoding, BomHandling::Keep)
    }

    /// LeafXML's decoder: UTF-16 BE, UTF-16 LE or UTF-8 by BOM, else UTF-8. Use it with
    /// [`feed_strict`](StreamDecoder::feed_strict) to stop at the first malformed sequence.
    pub fn leafxml() -> StreamDecoder {
        StreamDecoder::with_bom_sniffing(UTF_8)
    }

    fn with(encoding: &'static Encoding, bom: BomHandling) -> StreamDecoder {
        StreamDecoder {
            initial: encoding,
            bom,
            decoder: new_decoder(encoding, bom),
            fed: 0,
            had_errors: false,
            tail: [0; 4],
            tail_len: 0,
            scratch: String::new(),
        }
    }

    /// The encoding in use: the one given, or the one a BOM selected for a sniffing decoder.
    pub fn encoding(&self) -> &'static Encoding {
        self.decoder.encoding()
    }

    /// True once lossy decoding has replaced a malformed sequence with U+FFFD in this stream.
    pub fn had_errors(&self) -> bool {
        self.had_errors
    }

    /// Number of bytes fed since the start of the stream.
    pub fn bytes_fed(&self) -> usize {
        self.fed
    }

    /// Forgets the current stream and starts a new one.
    pub fn reset(&mut self) {
        self.decoder = new_decoder(self.initial, self.bom);
        self.fed = 0;
        self.had_errors = false;
        self.tail_len = 0;
    }

    /// Decodes `bytes`, appending the text to `out`. Malformed sequences become U+FFFD. Bytes of
    /// an incomplete sequence at the end of `bytes` are kept for the next call.
    pub fn feed(&mut self, bytes: &[u8], out: &mut String) {
        self.run(bytes, out, false);
    }

    /// Ends the stream: an incomplete sequence left over becomes U+FFFD. The decoder is then ready
    /// for a new stream; [`had_errors`](StreamDecoder::had_errors) keeps its value so it can be
    /// read after `finish` ([`reset`](StreamDecoder::reset) clears it).
    pub fn finish(&mut self, out: &mut String) {
        self.run(&[], out, true);
        self.decoder = new_decoder(self.initial, self.bom);
        self.fed = 0;
        self.tail_len = 0;
    }

    fn run(&mut self, bytes: &[u8], out: &mut String, last: bool) {
        if self.scratch.capacity() == 0 {
            self.scratch.reserve_exact(SCRATCH_LEN);
        }
        let mut pos = 0;
        loop {
            // Decode through a small buffer: encoding_rs touches every page of the spare
            // capacity it is given, which would make many small chunks into a large `out`
            // quadratic.
            self.scratch.clear();
            let (result, read, had_errors) =
                self.decoder
                    .decode_to_string(&bytes[pos..], &mut self.scratch, last);
            pos += read;
            out.push_str(&self.scratch);
            self.had_errors |= had_errors;
            match result {
                CoderResult::InputEmpty => break,
                CoderResult::OutputFull => continue,
            }
        }
        self.fed += bytes.len();
        self.remember_tail(bytes);
    }

    /// Decodes `bytes` like [`feed`](StreamDecoder::feed) but stops at the first malformed
    /// sequence, returning its byte offset from the start of the stream (a BOM included). Text
    /// before the error has been appended to `out`. After an error, [`reset`](StreamDecoder::reset)
    /// before decoding another stream.
    pub fn feed_strict(&mut self, bytes: &[u8], out: &mut String) -> Result<(), DecodeError> {
        self.run_strict(bytes, out, false)
    }

    /// Ends the stream strictly: an incomplete sequence left over is an error. On success the
    /// decoder is reset for a new stream.
    pub fn finish_strict(&mut self, out: &mut String) -> Result<(), DecodeError> {
        self.run_strict(&[], out, true)?;
        self.reset();
        Ok(())
    }

    fn run_strict(
        &mut self,
        bytes: &[u8],
        out: &mut String,
        last: bool,
    ) -> Result<(), DecodeError> {
        if self.scratch.capacity() == 0 {
            self.scratch.reserve_exact(SCRATCH_LEN);
        }
        let mut pos = 0;
        loop {
            self.scratch.clear();
            let (result, read) = self.decoder.decode_to_string_without_replacement(
                &bytes[pos..],
                &mut self.scratch,
                last,
            );
            pos += read;
            out.push_str(&self.scratch);
            match result {
                DecoderResult::InputEmpty => break,
                DecoderResult::OutputFull => continue,
                DecoderResult::Malformed(bad, extra) => {
                    let end = self.fed + pos - usize::from(extra);
                    let offset = end.saturating_sub(usize::from(bad));
                    self.fed += pos;
                    return Err(self.strict_error(offset, last));
                }
            }
        }
        self.fed += bytes.len();
        self.remember_tail(bytes);
        Ok(())
    }

    /// Keeps the last four bytes of the stream in `tail`.
    /// Takes `bytes` as they are when the decoder reads UTF-8, holds no partial sequence and
    /// `bytes` are complete, valid UTF-8: the text, counted as decoded (the same state as
    /// [`feed`](StreamDecoder::feed) would leave), without copying it anywhere. `None` leaves
    /// the decoder untouched (feed them instead). Not at the start of the stream, where a byte
    /// order mark may still be sniffed or removed, unless the decoder keeps a BOM as text
    /// ([`without_bom_handling`](StreamDecoder::without_bom_handling)).
    pub fn pass_utf8<'b>(&mut self, bytes: &'b [u8]) -> Option<&'b str> {
        let bom_pending = self.fed == 0 && self.bom != BomHandling::Keep;
        if self.decoder.encoding() != UTF_8 || bom_pending || !self.ends_complete() {
            return None;
        }
        // (simdutf8: std's validation takes a byte at a time outside ASCII.)
        let text = simdutf8::basic::from_utf8(bytes).ok()?;
        if !bytes.is_empty() {
            self.fed += bytes.len();
            self.remember_tail(bytes);
        }
        Some(text)
    }

    /// Whether the bytes fed so far end on a UTF-8 character boundary (nothing held).
    fn ends_complete(&self) -> bool {
        let tail = &self.tail[4 - self.tail_len..];
        let continuation = tail.iter().rev().take_while(|&&b| b & 0xC0 == 0x80).count();
        let Some(&lead) = tail.len().checked_sub(continuation + 1).map(|i| &tail[i]) else {
            return continuation == 0;
        };
        let needs = match lead {
            0x00..=0x7F => 0,
            0xC0..=0xDF => 1,
            0xE0..=0xEF => 2,
            0xF0..=0xF7 => 3,
            _ => return false,
        };
        continuation == needs
    }

    fn remember_tail(&mut self, bytes: &[u8]) {
        let n = bytes.len().min(4);
        self.tail.rotate_left(n);
        self.tail[4 - n..].copy_from_slice(&bytes[bytes.len() - n..]);
        self.tail_len = (self.tail_len + n).min(4);
    }

    /// The kind of a malformed sequence at `offset`, found while feeding (`last` false) or at the
    /// end of the stream.
    #[cold]
    fn strict_error(&self, offset: usize, last: bool) -> DecodeError {
        let encoding = self.decoder.encoding();
        let kind = if encoding == UTF_8 {
            // Only the end of the stream can cut a sequence short. There the malformed bytes are
            // the last ones fed; they may also be bytes a BOM sniff held back, such as a lone
            // `FE`, which are invalid rather than truncated.
            let len = self.fed - offset;
            let truncated = last
                && len <= self.tail_len
                && std::str::from_utf8(&self.tail[4 - len..])
                    .is_err_and(|e| e.error_len().is_none());
            if truncated {
                DecodeErrorKind::TruncatedUtf8
            } else {
                DecodeErrorKind::InvalidUtf8
            }
        } else if encoding == UTF_16LE || encoding == UTF_16BE {
            if last && (self.fed - offset) % 2 == 1 {
                DecodeErrorKind::TruncatedUtf16
            } else {
                DecodeErrorKind::UnpairedSurrogate
            }
        } else {
            DecodeErrorKind::Malformed
        };
        DecodeError { offset, kind }
    }
}

fn new_decoder(encoding: &'static Encoding, bom: BomHandling) -> Decoder {
    match bom {
        BomHandling::Remove => encoding.new_decoder_with_bom_removal(),
        BomHandling::Sniff => encoding.new_decoder(),
        BomHandling::Keep => encoding.new_decoder_without_bom_handling(),
    }
}
