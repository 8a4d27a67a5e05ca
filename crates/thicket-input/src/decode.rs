//! Strict and lossy decoding of UTF-8 and UTF-16.
//!
//! Strict decoding is what LeafXML needs: it stops at the first malformed sequence and says where
//! it starts, as a byte offset into the input bytes. Lossy decoding is what the recovering dialects
//! need: each malformed sequence becomes U+FFFD following the Encoding Standard's decoders (the
//! same "maximal subpart" practice as Unicode's recommendation), through `encoding_rs`.

use std::borrow::Cow;

use encoding_rs::{DecoderResult, Encoding, UTF_16BE, UTF_16LE};

use crate::bom::{Utf, sniff_bom};
use crate::position::{ErrorCode, Span};

/// What kind of malformed input strict decoding found.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// A byte sequence that is not UTF-8 (including encoded surrogates and overlong forms).
    #[error("invalid UTF-8 byte sequence")]
    InvalidUtf8,
    /// The input ends inside a UTF-8 sequence that would otherwise have been valid.
    #[error("truncated UTF-8 sequence at the end of the input")]
    TruncatedUtf8,
    /// A UTF-16 surrogate code unit that is not part of a high-low pair.
    #[error("unpaired UTF-16 surrogate")]
    UnpairedSurrogate,
    /// The input ends inside a UTF-16 code unit or surrogate pair (an odd number of bytes).
    #[error("truncated UTF-16 code unit at the end of the input")]
    TruncatedUtf16,
    /// A byte sequence that is malformed in a legacy encoding (only from
    /// [`StreamDecoder::feed_strict`](crate::stream::StreamDecoder::feed_strict)).
    #[error("malformed byte sequence")]
    Malformed,
}

impl ErrorCode for DecodeErrorKind {
    fn as_str(self) -> &'static str {
        match self {
            DecodeErrorKind::InvalidUtf8 => "invalid-utf8",
            DecodeErrorKind::TruncatedUtf8 => "truncated-utf8",
            DecodeErrorKind::UnpairedSurrogate => "unpaired-surrogate",
            DecodeErrorKind::TruncatedUtf16 => "truncated-utf16",
            DecodeErrorKind::Malformed => "malformed-bytes",
        }
    }

    fn message(self) -> &'static str {
        match self {
            DecodeErrorKind::InvalidUtf8 => "invalid UTF-8 byte sequence",
            DecodeErrorKind::TruncatedUtf8 => "truncated UTF-8 sequence at the end of the input",
            DecodeErrorKind::UnpairedSurrogate => "unpaired UTF-16 surrogate",
            DecodeErrorKind::TruncatedUtf16 => "truncated UTF-16 code unit at the end of the input",
            DecodeErrorKind::Malformed => "malformed byte sequence",
        }
    }
}

/// Strict decoding failed: the first malformed sequence starts at byte `offset` of the input.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, thiserror::Error)]
#[error("{kind} at byte {offset}")]
pub struct DecodeError {
    /// Byte offset of the start of the first malformed sequence, counted from the start of the
    /// bytes that were passed in (a BOM included).
    pub offset: usize,
    /// What is wrong there.
    pub kind: DecodeErrorKind,
}

/// Decodes `bytes` as `utf`, failing at the first malformed sequence. A BOM is not treated
/// specially: a leading U+FEFF is kept (use [`decode_leafxml`] to sniff and drop it).
///
/// ```
/// use thicket_input::decode::{decode_strict, DecodeErrorKind};
/// use thicket_input::Utf;
/// assert_eq!(decode_strict(b"a\xC3\xA9", Utf::Utf8).unwrap(), "a\u{e9}");
/// let err = decode_strict(b"ab\xFFc", Utf::Utf8).unwrap_err();
/// assert_eq!((err.offset, err.kind), (2, DecodeErrorKind::InvalidUtf8));
/// ```
pub fn decode_strict(bytes: &[u8], utf: Utf) -> Result<String, DecodeError> {
    decode_strict_cow(bytes, utf).map(Cow::into_owned)
}

/// Like [`decode_strict`], but borrows the input when it is UTF-8.
pub fn decode_strict_cow(bytes: &[u8], utf: Utf) -> Result<Cow<'_, str>, DecodeError> {
    match utf {
        Utf::Utf8 => match std::str::from_utf8(bytes) {
            Ok(s) => Ok(Cow::Borrowed(s)),
            Err(e) => Err(utf8_error(e)),
        },
        Utf::Utf16Le | Utf::Utf16Be => {
            let encoding = if utf == Utf::Utf16Le {
                UTF_16LE
            } else {
                UTF_16BE
            };
            match encoding.decode_without_bom_handling_and_without_replacement(bytes) {
                Some(text) => Ok(Cow::Owned(text.into_owned())),
                None => Err(first_utf16_error(bytes, utf == Utf::Utf16Be)),
            }
        }
    }
}

/// Checks that `bytes` are well-formed in `utf` without building a string.
pub fn validate(bytes: &[u8], utf: Utf) -> Result<(), DecodeError> {
    match utf {
        Utf::Utf8 => std::str::from_utf8(bytes).map(|_| ()).map_err(utf8_error),
        Utf::Utf16Le => scan_utf16(bytes, false).map_or(Ok(()), Err),
        Utf::Utf16Be => scan_utf16(bytes, true).map_or(Ok(()), Err),
    }
}

/// LeafXML's decoding: the BOM rules of [`sniff_bom`] (UTF-16 BE, UTF-16 LE, UTF-8 with BOM,
/// else UTF-8 without BOM), then strict decoding of the rest. The BOM is not part of the text;
/// error offsets still count from the first byte of `bytes`, BOM included.
///
/// ```
/// use thicket_input::decode::decode_leafxml;
/// use thicket_input::Utf;
/// let (text, utf) = decode_leafxml(b"\xFE\xFF\0<\0a\0/\0>").unwrap();
/// assert_eq!((&*text, utf), ("<a/>", Utf::Utf16Be));
/// assert_eq!(decode_leafxml(b"\xEF\xBB\xBF<a>\xFF").unwrap_err().offset, 6);
/// ```
pub fn decode_leafxml(bytes: &[u8]) -> Result<(Cow<'_, str>, Utf), DecodeError> {
    let (utf, bom_len) = sniff_bom(bytes).unwrap_or((Utf::Utf8, 0));
    match decode_strict_cow(&bytes[bom_len..], utf) {
        Ok(text) => Ok((text, utf)),
        Err(mut e) => {
            e.offset += bom_len;
            Err(e)
        }
    }
}

/// Decodes `bytes` as `utf`, replacing each malformed sequence with U+FFFD as the Encoding
/// Standard's decoders do. Borrows the input when it is valid UTF-8. A leading BOM is kept as
/// U+FEFF (see [`decode_bom_lossy`]).
///
/// ```
/// use thicket_input::decode::decode_lossy;
/// use thicket_input::Utf;
/// assert_eq!(decode_lossy(b"a\xF0\x9Fb", Utf::Utf8), "a\u{FFFD}b");
/// assert_eq!(decode_lossy(b"a\0\0\xD8", Utf::Utf16Le), "a\u{FFFD}");
/// ```
pub fn decode_lossy(bytes: &[u8], utf: Utf) -> Cow<'_, str> {
    utf.encoding().decode_without_bom_handling(bytes).0
}

/// BOM rules of [`sniff_bom`], then lossy decoding of the rest. Returns the text (borrowed when
/// the rest is valid UTF-8), the encoding and whether any malformed sequence was replaced.
pub fn decode_bom_lossy(bytes: &[u8]) -> (Cow<'_, str>, Utf, bool) {
    let (utf, bom_len) = sniff_bom(bytes).unwrap_or((Utf::Utf8, 0));
    let (text, had_errors) = utf
        .encoding()
        .decode_without_bom_handling(&bytes[bom_len..]);
    (text, utf, had_errors)
}

/// A malformed sequence that lossy decoding replaced with U+FFFD.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Replacement {
    /// Byte offset of the malformed sequence in the input bytes.
    pub byte_offset: usize,
    /// Its length in bytes.
    pub byte_len: usize,
    /// Where the U+FFFD that replaced it is in the decoded text (always 3 bytes long).
    pub span: Span,
}

/// Decodes `bytes` as `encoding` (any Encoding Standard encoding, without BOM handling) exactly
/// like lossy decoding, and also says where each U+FFFD came from, so that a recovering parser
/// can report malformed input with a span into the text.
///
/// ```
/// use thicket_input::decode::decode_with_replacements;
/// use thicket_input::{Encoding, Span};
/// let utf8 = Encoding::for_label(b"utf-8").unwrap();
/// let (text, replaced) = decode_with_replacements(b"a\xFFb\xE2\x82", utf8);
/// assert_eq!(text, "a\u{FFFD}b\u{FFFD}");
/// assert_eq!(replaced.len(), 2);
/// assert_eq!((replaced[0].byte_offset, replaced[0].byte_len, replaced[0].span), (1, 1, Span::new(1, 4)));
/// assert_eq!((replaced[1].byte_offset, replaced[1].byte_len, replaced[1].span), (3, 2, Span::new(5, 8)));
/// ```
pub fn decode_with_replacements(
    bytes: &[u8],
    encoding: &'static Encoding,
) -> (String, Vec<Replacement>) {
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let mut out = String::with_capacity(bytes.len());
    // A small buffer between the decoder and `out`: encoding_rs touches every page of the spare
    // capacity it is given, so handing it `out` after each error would be quadratic.
    let mut scratch = String::with_capacity(16 * 1024);
    let mut replaced = Vec::new();
    let mut pos = 0;
    loop {
        scratch.clear();
        let (result, read) =
            decoder.decode_to_string_without_replacement(&bytes[pos..], &mut scratch, true);
        pos += read;
        out.push_str(&scratch);
        match result {
            DecoderResult::InputEmpty => break,
            DecoderResult::OutputFull => {}
            DecoderResult::Malformed(bad, extra) => {
                let end = pos - usize::from(extra);
                let start = end.saturating_sub(usize::from(bad));
                replaced.push(Replacement {
                    byte_offset: start,
                    byte_len: end - start,
                    span: Span::new(out.len(), out.len() + 3),
                });
                out.push(char::REPLACEMENT_CHARACTER);
            }
        }
    }
    (out, replaced)
}

#[cold]
fn utf8_error(e: std::str::Utf8Error) -> DecodeError {
    DecodeError {
        offset: e.valid_up_to(),
        kind: if e.error_len().is_some() {
            DecodeErrorKind::InvalidUtf8
        } else {
            DecodeErrorKind::TruncatedUtf8
        },
    }
}

/// Finds the first malformed sequence of UTF-16 input that `encoding_rs` rejected.
#[cold]
fn first_utf16_error(bytes: &[u8], big_endian: bool) -> DecodeError {
    // encoding_rs and `scan_utf16` agree on what is well-formed UTF-16 (the property tests check
    // it); the fallback only keeps this function total.
    scan_utf16(bytes, big_endian).unwrap_or(DecodeError {
        offset: bytes.len(),
        kind: DecodeErrorKind::TruncatedUtf16,
    })
}

/// The first malformed sequence in UTF-16 `bytes`, if any.
fn scan_utf16(bytes: &[u8], big_endian: bool) -> Option<DecodeError> {
    let unit = |i: usize| {
        let pair = [bytes[i], bytes[i + 1]];
        if big_endian {
            u16::from_be_bytes(pair)
        } else {
            u16::from_le_bytes(pair)
        }
    };
    let error = |offset, kind| Some(DecodeError { offset, kind });
    let len = bytes.len();
    let mut i = 0;
    while i + 1 < len {
        let u = unit(i);
        match u {
            0xD800..=0xDBFF => {
                if i + 3 < len {
                    if (0xDC00..=0xDFFF).contains(&unit(i + 2)) {
                        i += 4;
                        continue;
                    }
                    return error(i, DecodeErrorKind::UnpairedSurrogate);
                } else if i + 2 < len {
                    // A high surrogate followed by half a code unit: the pair is cut short.
                    return error(i, DecodeErrorKind::TruncatedUtf16);
                } else {
                    return error(i, DecodeErrorKind::UnpairedSurrogate);
                }
            }
            0xDC00..=0xDFFF => return error(i, DecodeErrorKind::UnpairedSurrogate),
            _ => i += 2,
        }
    }
    if i < len {
        return error(i, DecodeErrorKind::TruncatedUtf16);
    }
    None
}
