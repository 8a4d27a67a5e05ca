//! Bytes and readers: the encoding from a byte order mark (UTF-8, UTF-16 LE or BE), else UTF-8;
//! malformed sequences become U+FFFD (docs/microxml.md, "Bytes").

use std::io::Read;

use thicket_input::Encoding;
use thicket_input::front::{Sniff, SniffingDecoder};

use crate::document::{Document, ElementRef};
use crate::error::Diagnostic;
use crate::options::Options;

/// The result of [`parse_bytes`] and [`parse_reader`]: the tree, owning its strings, the
/// diagnostics, and the decoded text their spans point into.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedBytes {
    /// The tree (see [`crate::Parsed::document`]).
    pub document: Document<'static>,
    /// The diagnostics in source order, capped (see [`crate::Parsed::diagnostics`]); spans are
    /// byte offsets into [`ParsedBytes::text`].
    pub diagnostics: Vec<Diagnostic>,
    /// How many diagnostics were counted and not kept, past `Limits::max_diagnostics`.
    pub omitted_diagnostics: usize,
    /// The decoded text (the byte order mark left out).
    pub text: String,
    /// The encoding: from the byte order mark, else UTF-8.
    pub encoding: &'static Encoding,
    /// True when malformed bytes were replaced by U+FFFD while decoding.
    pub had_decoding_errors: bool,
}

impl ParsedBytes {
    /// The document element, or the `#doc` wrapper.
    pub fn root(&self) -> ElementRef<'_, 'static> {
        self.document.root()
    }
}

/// Decodes `bytes` (a byte order mark, else UTF-8; lossy) and parses the text with the spec's
/// behaviour ([`Options::default`]).
///
/// ```
/// let parsed = thicket_microxml::parse_bytes(b"\xFF\xFE<\0a\0>\0\xE9\0<\0/\0a\0>\0");
/// assert_eq!(parsed.encoding.name(), "UTF-16LE");
/// assert_eq!(parsed.root().text_content(), "\u{e9}");
/// assert!(parsed.diagnostics.is_empty());
/// ```
pub fn parse_bytes(bytes: &[u8]) -> ParsedBytes {
    parse_bytes_with(bytes, Options::default())
}

/// [`parse_bytes`] with `options`.
pub fn parse_bytes_with(bytes: &[u8], options: Options) -> ParsedBytes {
    let decoder = SniffingDecoder::new(Sniff::Bom, encoding_rs::UTF_8);
    let (text, encoding, had_decoding_errors) = match decoder.decode_whole(bytes) {
        Ok(d) => (d.text.into_owned(), d.detected.encoding, d.had_errors),
        // Lossy decoding does not fail; were it to, UTF-8 with replacements.
        Err(_) => (
            String::from_utf8_lossy(bytes).into_owned(),
            encoding_rs::UTF_8,
            true,
        ),
    };
    let parsed = crate::parse_with(&text, options);
    let document = parsed.document.into_owned();
    ParsedBytes {
        document,
        diagnostics: parsed.diagnostics,
        omitted_diagnostics: parsed.omitted_diagnostics,
        text,
        encoding,
        had_decoding_errors,
    }
}

/// Reads `reader` to its end and parses the bytes as [`parse_bytes`] does. Only reading can
/// fail; the parse never does. (The tree holds the text anyway; to check a stream in bounded
/// memory, feed a [`crate::Checker`].)
///
/// ```
/// let parsed = thicket_microxml::parse_reader(&b"<a>x</a>"[..]).unwrap();
/// assert_eq!(parsed.root().name(), "a");
/// ```
pub fn parse_reader(reader: impl Read) -> std::io::Result<ParsedBytes> {
    parse_reader_with(reader, Options::default())
}

/// [`parse_reader`] with `options`.
pub fn parse_reader_with(mut reader: impl Read, options: Options) -> std::io::Result<ParsedBytes> {
    let mut bytes = Vec::new();
    reader.read_to_end(&mut bytes)?;
    Ok(parse_bytes_with(&bytes, options))
}
