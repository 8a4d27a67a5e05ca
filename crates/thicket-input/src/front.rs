//! The one bytes front end: sniff the encoding, then decode chunk by chunk into a cursor (or any
//! `String`), with bounded memory.
//!
//! A [`SniffingDecoder`] is configured with the sniffing rules of its dialect ([`Sniff`]) and
//! a default encoding, then fed bytes in chunks of any size:
//!
//! 1. It holds back the first bytes only until the rules can decide: at most 3 bytes for
//!    [`Sniff::Bom`] (LeafXML), [`PRESCAN_LIMIT`] (1024) for
//!    [`Sniff::Whatwg`] (HTML; less when the prescan finds a `<meta>` early or a transport
//!    label decides), and the XML declaration (at most 1024 characters, less as soon as its `>`
//!    arrives or the text cannot start one) for [`Sniff::Xml`] (XML5, MicroXML). The rules
//!    themselves are [`bom`](crate::bom), [`whatwg`] and [`xml`].
//! 2. It reports what it found ([`Detected`]): the encoding, how it was found
//!    ([`EncodingSource`]), the BOM's length, and for XML the declared label and any
//!    [`EncodingProblem`].
//! 3. It decodes with `encoding_rs` through [`StreamDecoder`]: lossy (malformed input becomes
//!    U+FFFD, [`had_errors`](SniffingDecoder::had_errors)) or [`strict`](SniffingDecoder::strict)
//!    (the first malformed sequence is a [`DecodeError`] whose offset counts from the first
//!    byte, BOM included). Text goes straight into a [`Cursor`]'s buffer
//!    ([`feed_into`](SniffingDecoder::feed_into)) or onto a `String` ([`feed`](SniffingDecoder::feed)).
//!
//! Any chunking gives the same text and the same [`Detected`] as one call, and as
//! [`decode_whole`](SniffingDecoder::decode_whole), which decodes a whole input at once and
//! borrows it when it is already UTF-8 (or ASCII in an ASCII-compatible encoding).

use std::borrow::Cow;

use encoding_rs::{Encoding, UTF_8};

use crate::Span;
use crate::bom::{Utf, sniff_bom};
use crate::cursor::Cursor;
use crate::decode::{DecodeError, decode_strict_cow};
use crate::stream::StreamDecoder;
use crate::whatwg::{self, Confidence, PRESCAN_LIMIT};
use crate::xml::{self, DECLARATION_LIMIT, EncodingProblem};

/// Which rules find the encoding.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Sniff {
    /// A BOM (UTF-8, UTF-16 LE, UTF-16 BE), else the default: LeafXML's "Character encoding".
    Bom,
    /// A BOM, the UTF-16 `<?` patterns, the XML declaration's `encoding` label, else the default
    /// (see [`xml`]).
    Xml,
    /// WHATWG HTML's sniffing: a BOM, the transport layer's label, the `<meta>` prescan of the
    /// first 1024 bytes, else the default (see [`whatwg`]).
    Whatwg,
}

/// How the encoding was found.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum EncodingSource {
    /// A byte order mark.
    Bom,
    /// The transport layer's label (for example a `Content-Type` charset).
    TransportLabel,
    /// The UTF-16 byte pattern of `<?` at the start of an XML document.
    Utf16Pattern,
    /// The XML declaration's `encoding` label.
    Declaration,
    /// The WHATWG `<meta>` prescan.
    Prescan,
    /// Nothing said: the caller's default.
    Default,
}

/// What the sniffing rules found.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Detected {
    /// The encoding the text is decoded with.
    pub encoding: &'static Encoding,
    /// How it was found.
    pub source: EncodingSource,
    /// Length of the BOM at the start of the bytes (0 when there is none); it is not text.
    pub bom_len: usize,
    /// What is wrong with the XML declaration's label, if anything (it never changes the
    /// decoding; dialects report it as `unknown-encoding` or `encoding-mismatch`).
    pub problem: Option<EncodingProblem>,
    /// The XML declaration's `encoding` label as written, if there is one.
    pub declared_label: Option<String>,
    /// Where that label is in the decoded text.
    pub declared_label_span: Option<Span>,
}

impl Detected {
    /// The WHATWG confidence: certain from a BOM or a transport label, tentative otherwise (a
    /// `<meta>` met while parsing may still change a tentative encoding).
    pub fn confidence(&self) -> Confidence {
        match self.source {
            EncodingSource::Bom | EncodingSource::TransportLabel => Confidence::Certain,
            _ => Confidence::Tentative,
        }
    }
}

/// What [`SniffingDecoder::read_into`] can fail with.
#[derive(Debug)]
pub enum ReadError {
    /// Reading the source failed.
    Io(std::io::Error),
    /// Strict decoding met a malformed sequence.
    Decode(DecodeError),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "reading failed: {e}"),
            ReadError::Decode(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReadError::Io(e) => Some(e),
            ReadError::Decode(e) => Some(e),
        }
    }
}

/// A whole input decoded by [`SniffingDecoder::decode_whole`].
#[derive(Clone, Debug)]
pub struct Decoded<'b> {
    /// The text (borrowed from the bytes when they are already that text).
    pub text: Cow<'b, str>,
    /// What the sniffing found.
    pub detected: Detected,
    /// True when lossy decoding replaced malformed input with U+FFFD.
    pub had_errors: bool,
}

/// Sniffs, then decodes chunk by chunk; see the module docs.
///
/// ```
/// use thicket_input::cursor::Cursor;
/// use thicket_input::front::{EncodingSource, Sniff, SniffingDecoder};
/// use thicket_input::NewlineRules;
/// let mut decoder = SniffingDecoder::new(Sniff::Xml, encoding_rs::UTF_8);
/// let mut input = Cursor::new(NewlineRules::CrLf);
/// for chunk in [&b"<?xml version='1.0' encod"[..], b"ing='koi8-r'?><a>\xC1</a>"] {
///     decoder.feed_into(chunk, &mut input).unwrap();
/// }
/// decoder.finish_into(&mut input).unwrap();
/// let detected = decoder.detected().unwrap();
/// assert_eq!((detected.encoding.name(), detected.source), ("KOI8-R", EncodingSource::Declaration));
/// assert!(input.text().ends_with("<a>\u{430}</a>"));
/// ```
#[derive(Debug)]
pub struct SniffingDecoder {
    sniff: Sniff,
    default: &'static Encoding,
    transport: Option<&'static Encoding>,
    strict: bool,
    /// Bytes held until the encoding is known.
    head: Vec<u8>,
    detected: Option<Detected>,
    decoder: Option<StreamDecoder>,
    /// Set by [`SniffingDecoder::finish`]: later feeds are a new stream.
    finished: bool,
    /// The buffer [`SniffingDecoder::read_into`] reads into.
    read_buf: Vec<u8>,
}

/// The most bytes the XML rules may hold: a BOM and 1024 UTF-16 code units.
const XML_HOLD: usize = 3 + 2 * DECLARATION_LIMIT;

impl SniffingDecoder {
    /// A lossy decoder with `sniff`'s rules and `default` when they find nothing.
    pub fn new(sniff: Sniff, default: &'static Encoding) -> SniffingDecoder {
        SniffingDecoder {
            sniff,
            default,
            transport: None,
            strict: false,
            head: Vec::new(),
            detected: None,
            decoder: None,
            finished: false,
            read_buf: Vec::new(),
        }
    }

    /// WHATWG sniffing with the transport layer's label (ignored when it names no encoding).
    pub fn whatwg(transport_label: Option<&str>, default: &'static Encoding) -> SniffingDecoder {
        let mut d = SniffingDecoder::new(Sniff::Whatwg, default);
        d.transport = transport_label.and_then(|l| Encoding::for_label(l.as_bytes()));
        d
    }

    /// LeafXML's front end: BOM, else UTF-8, strict.
    pub fn leafxml() -> SniffingDecoder {
        SniffingDecoder::new(Sniff::Bom, UTF_8).strict()
    }

    /// Stops at the first malformed sequence instead of replacing it.
    pub fn strict(mut self) -> SniffingDecoder {
        self.strict = true;
        self
    }

    /// What the rules found, once they have decided.
    pub fn detected(&self) -> Option<&Detected> {
        self.detected.as_ref()
    }

    /// True once lossy decoding replaced malformed input with U+FFFD.
    pub fn had_errors(&self) -> bool {
        self.decoder.as_ref().is_some_and(StreamDecoder::had_errors)
    }

    /// Bytes held back until the encoding is known.
    pub fn held(&self) -> usize {
        self.head.len()
    }

    /// The most bytes the rules ever hold back.
    fn hold_limit(&self) -> usize {
        match self.sniff {
            Sniff::Bom => 3,
            Sniff::Whatwg => PRESCAN_LIMIT.max(3),
            Sniff::Xml => XML_HOLD,
        }
    }

    /// Once the encoding is known to be UTF-8 and nothing is held back: `bytes` as text when
    /// they are complete, valid UTF-8 (counted as decoded, not copied); `None` otherwise, and
    /// then [`feed`](Self::feed) them. A consumer that keeps its own copy of the text saves a
    /// decode into a new string per chunk.
    pub fn pass_utf8<'b>(&mut self, bytes: &'b [u8]) -> Option<&'b str> {
        if self.finished || !self.head.is_empty() {
            return None;
        }
        self.decoder.as_mut()?.pass_utf8(bytes)
    }

    /// At the start of a stream, decides the encoding from the first bytes of `bytes` without
    /// taking them, when they are enough for the rules and start with no byte order mark:
    /// the stream then still starts at `bytes[0]` (hand them to
    /// [`pass_utf8`](Self::pass_utf8) or [`feed`](Self::feed)), and the same encoding is found
    /// as feeding them would find. `None`, and nothing changed, when bytes were fed already,
    /// the rules need more bytes, or there is a BOM. A consumer given the whole document (or a
    /// first chunk past the sniffing limit) saves decoding the head into a new string.
    pub fn sniff_ahead(&mut self, bytes: &[u8]) -> Option<&Detected> {
        if self.finished || self.decoder.is_some() || !self.head.is_empty() {
            return None;
        }
        let head = &bytes[..bytes.len().min(self.hold_limit())];
        let detected = self.decide(head, false)?;
        if detected.bom_len > 0 {
            return None;
        }
        self.decoder = Some(StreamDecoder::without_bom_handling(detected.encoding));
        self.detected = Some(detected);
        self.detected.as_ref()
    }

    /// Decodes `bytes`, appending the text to `out`. In lossy mode this never fails.
    pub fn feed(&mut self, bytes: &[u8], out: &mut String) -> Result<(), DecodeError> {
        if self.finished {
            self.restart();
        }
        if self.decoder.is_some() {
            return self.decode(bytes, out);
        }
        let mut rest = bytes;
        while !rest.is_empty() {
            let take = rest
                .len()
                .min(self.hold_limit().saturating_sub(self.head.len()));
            let take = take.max(1);
            self.head.extend_from_slice(&rest[..take]);
            rest = &rest[take..];
            if self.start(false, out)? {
                return self.decode(rest, out);
            }
        }
        Ok(())
    }

    /// Ends the stream, appending the last text to `out`: an incomplete sequence becomes
    /// U+FFFD (lossy) or a [`DecodeError`] (strict). A later feed starts a new stream.
    pub fn finish(&mut self, out: &mut String) -> Result<(), DecodeError> {
        if self.finished {
            return Ok(());
        }
        if self.decoder.is_none() {
            self.start(true, out)?;
        }
        self.finished = true;
        let bom_len = self.bom_len();
        let strict = self.strict;
        match &mut self.decoder {
            Some(d) if strict => d.finish_strict(out).map_err(|e| shift(e, bom_len)),
            Some(d) => {
                d.finish(out);
                Ok(())
            }
            None => Ok(()),
        }
    }

    /// [`feed`](SniffingDecoder::feed) straight into the cursor's buffer (no copy in between).
    /// Compact the cursor before, as before any feed.
    pub fn feed_into(&mut self, bytes: &[u8], input: &mut Cursor<'_>) -> Result<(), DecodeError> {
        if input.is_finished() {
            return self.feed(bytes, &mut String::new());
        }
        input.feed_with(|buf| self.feed(bytes, buf))
    }

    /// [`finish`](SniffingDecoder::finish) into the cursor, which is then finished too.
    pub fn finish_into(&mut self, input: &mut Cursor<'_>) -> Result<(), DecodeError> {
        let result = if input.is_finished() {
            self.finish(&mut String::new())
        } else {
            input.feed_with(|buf| self.finish(buf))
        };
        input.finish();
        result
    }

    /// The pull side: reads at most `want` bytes (at least one) from `src` and decodes them into
    /// the cursor; at the end of `src`, finishes the decoder and the cursor. Returns whether the
    /// source may have more (`Ok(false)` once it ended). Interrupted reads are retried. The
    /// only copy of the bytes is this call's buffer, reused between calls: `io::Read` supplies
    /// chunks and nothing else.
    ///
    /// ```
    /// use thicket_input::cursor::Cursor;
    /// use thicket_input::front::SniffingDecoder;
    /// use thicket_input::NewlineRules;
    /// let mut src: &[u8] = b"\xEF\xBB\xBF<a>caf\xC3\xA9</a>";
    /// let mut decoder = SniffingDecoder::leafxml();
    /// let mut input = Cursor::new(NewlineRules::LeafXml);
    /// while decoder.read_into(&mut src, 4, &mut input).unwrap() {}
    /// assert_eq!((input.text(), input.is_finished()), ("<a>caf\u{e9}</a>", true));
    /// ```
    pub fn read_into<R: std::io::Read>(
        &mut self,
        src: &mut R,
        want: usize,
        input: &mut Cursor<'_>,
    ) -> Result<bool, ReadError> {
        let mut buf = std::mem::take(&mut self.read_buf);
        buf.resize(want.max(1), 0);
        let n = loop {
            match src.read(&mut buf) {
                Ok(n) => break n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.read_buf = buf;
                    return Err(ReadError::Io(e));
                }
            }
        };
        let result = if n == 0 {
            self.finish_into(input).map(|()| false)
        } else {
            self.feed_into(&buf[..n], input).map(|()| true)
        };
        self.read_buf = buf;
        result.map_err(ReadError::Decode)
    }

    /// Decodes a whole input at once with the same rules: the same text and [`Detected`] as
    /// feeding it in chunks. The text borrows `bytes` when they are that text already.
    pub fn decode_whole<'b>(&self, bytes: &'b [u8]) -> Result<Decoded<'b>, DecodeError> {
        let detected = self
            .decide(bytes, true)
            .unwrap_or_else(|| self.default_detected());
        let body = &bytes[detected.bom_len.min(bytes.len())..];
        let encoding = detected.encoding;
        let (text, had_errors) = if !self.strict {
            encoding.decode_without_bom_handling(body)
        } else if let Some(utf) = Utf::from_encoding(encoding) {
            let text = decode_strict_cow(body, utf).map_err(|e| shift(e, detected.bom_len))?;
            (text, false)
        } else {
            let mut d = StreamDecoder::without_bom_handling(encoding);
            let mut out = String::with_capacity(body.len());
            d.feed_strict(body, &mut out)
                .and_then(|()| d.finish_strict(&mut out))
                .map_err(|e| shift(e, detected.bom_len))?;
            (Cow::Owned(out), false)
        };
        Ok(Decoded {
            text,
            detected,
            had_errors,
        })
    }

    fn bom_len(&self) -> usize {
        self.detected.as_ref().map_or(0, |d| d.bom_len)
    }

    /// Forgets the last stream (after `finish`).
    fn restart(&mut self) {
        self.finished = false;
        self.head.clear();
        self.detected = None;
        self.decoder = None;
    }

    fn default_detected(&self) -> Detected {
        Detected {
            encoding: self.default,
            source: EncodingSource::Default,
            bom_len: 0,
            problem: None,
            declared_label: None,
            declared_label_span: None,
        }
    }

    /// Decides from the bytes held if the rules can (`last`: no more bytes come), then decodes
    /// them. Returns whether decoding has started.
    fn start(&mut self, last: bool, out: &mut String) -> Result<bool, DecodeError> {
        let Some(detected) = self.decide(&self.head, last) else {
            return Ok(false);
        };
        let head = std::mem::take(&mut self.head);
        let body = &head[detected.bom_len.min(head.len())..];
        self.decoder = Some(StreamDecoder::without_bom_handling(detected.encoding));
        self.detected = Some(detected);
        self.decode(body, out)?;
        Ok(true)
    }

    fn decode(&mut self, bytes: &[u8], out: &mut String) -> Result<(), DecodeError> {
        let bom_len = self.bom_len();
        let Some(d) = &mut self.decoder else {
            return Ok(());
        };
        if self.strict {
            d.feed_strict(bytes, out).map_err(|e| shift(e, bom_len))
        } else {
            d.feed(bytes, out);
            Ok(())
        }
    }

    /// The rules over the first bytes: `None` while more bytes could change the answer.
    fn decide(&self, head: &[u8], last: bool) -> Option<Detected> {
        let bom = |utf: Utf, bom_len| Detected {
            encoding: utf.encoding(),
            source: EncodingSource::Bom,
            bom_len,
            ..self.default_detected()
        };
        match self.sniff {
            Sniff::Bom => {
                if let Some((utf, n)) = sniff_bom(head) {
                    return Some(bom(utf, n));
                }
                if !last && is_bom_prefix(head) {
                    return None;
                }
                Some(self.default_detected())
            }
            Sniff::Whatwg => {
                if let Some((utf, n)) = sniff_bom(head) {
                    return Some(bom(utf, n));
                }
                if !last && is_bom_prefix(head) {
                    return None;
                }
                if let Some(encoding) = self.transport {
                    return Some(Detected {
                        encoding,
                        source: EncodingSource::TransportLabel,
                        ..self.default_detected()
                    });
                }
                // A `<meta>` found in part of the bytes is what the prescan of all of them
                // finds: it reads them in order and returns at the first one.
                let scanned = &head[..head.len().min(PRESCAN_LIMIT)];
                if let Some(encoding) = whatwg::prescan_all(scanned) {
                    return Some(Detected {
                        encoding,
                        source: EncodingSource::Prescan,
                        ..self.default_detected()
                    });
                }
                if last || head.len() >= PRESCAN_LIMIT {
                    return Some(self.default_detected());
                }
                None
            }
            Sniff::Xml => {
                if !last && !xml_ready(head) {
                    return None;
                }
                let sniffed = xml::sniff(head);
                let utf16_pattern = head.starts_with(b"\0<\0?") || head.starts_with(b"<\0?\0");
                let labelled = sniffed.declared_label.is_some()
                    && sniffed.problem != Some(EncodingProblem::UnknownLabel);
                let (encoding, source) = if sniffed.bom_len > 0 {
                    (sniffed.encoding, EncodingSource::Bom)
                } else if utf16_pattern {
                    (sniffed.encoding, EncodingSource::Utf16Pattern)
                } else if labelled {
                    (sniffed.encoding, EncodingSource::Declaration)
                } else {
                    (self.default, EncodingSource::Default)
                };
                Some(Detected {
                    encoding,
                    source,
                    bom_len: sniffed.bom_len,
                    problem: sniffed.problem,
                    declared_label: sniffed.declared_label,
                    declared_label_span: sniffed.declared_label_span,
                })
            }
        }
    }
}

/// Moves a strict decoding error's offset past the BOM the decoder did not see.
fn shift(mut e: DecodeError, bom_len: usize) -> DecodeError {
    e.offset += bom_len;
    e
}

/// True when `head` is a proper prefix of one of the three BOMs (more bytes may make it one).
fn is_bom_prefix(head: &[u8]) -> bool {
    head.len() < 3
        && [&b"\xEF\xBB\xBF"[..], b"\xFE\xFF", b"\xFF\xFE"]
            .iter()
            .any(|bom| bom.len() > head.len() && bom.starts_with(head))
}

/// True when the XML rules over `head` cannot change with more bytes: the BOM or UTF-16 pattern
/// is settled, and the text either cannot start an XML declaration or holds the declaration up
/// to its first `>` (where [`xml::sniff`] stops reading) or to the 1024-character limit.
fn xml_ready(head: &[u8]) -> bool {
    let patterns: [&[u8]; 6] = [
        b"\xEF\xBB\xBF",
        b"\xFE\xFF",
        b"\xFF\xFE",
        b"\0<\0?",
        b"<\0?\0",
        b"<?xml",
    ];
    // Settle the BOM or pattern first: four bytes decide among them.
    if head.len() < 4 && patterns.iter().any(|p| p.starts_with(head)) {
        return false;
    }
    let (rest, utf16) = match sniff_bom(head) {
        Some((Utf::Utf16Be, n)) => (&head[n..], Some(true)),
        Some((Utf::Utf16Le, n)) => (&head[n..], Some(false)),
        Some((Utf::Utf8, n)) => (&head[n..], None),
        None if head.starts_with(b"\0<\0?") => (head, Some(true)),
        None if head.starts_with(b"<\0?\0") => (head, Some(false)),
        None => (head, None),
    };
    // The declaration as ASCII, and whether it is cut short by a non-ASCII code unit.
    let (view, cut_short): (Cow<'_, [u8]>, bool) = match utf16 {
        Some(big_endian) => {
            let units = rest.len() / 2;
            let view = xml::ascii_of_utf16(rest, big_endian);
            let cut = view.len() < units.min(DECLARATION_LIMIT);
            (Cow::Owned(view), cut)
        }
        None => (
            Cow::Borrowed(&rest[..rest.len().min(DECLARATION_LIMIT)]),
            false,
        ),
    };
    if cut_short || view.len() >= DECLARATION_LIMIT {
        return true;
    }
    if view.len() < 6 {
        // Still a prefix of `<?xml` and a space?
        return !b"<?xml".starts_with(&view[..view.len().min(5)]);
    }
    if !(view.starts_with(b"<?xml") && xml::is_xml_space(view[5])) {
        return true;
    }
    memchr::memchr(b'>', &view).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bom_prefixes_wait() {
        assert!(is_bom_prefix(b""));
        assert!(is_bom_prefix(b"\xEF\xBB"));
        assert!(is_bom_prefix(b"\xFF"));
        assert!(!is_bom_prefix(b"\xEF\xBB\xBF"));
        assert!(!is_bom_prefix(b"<"));
    }

    #[test]
    fn xml_waits_for_the_declaration_only() {
        assert!(!xml_ready(b"<?x"));
        assert!(xml_ready(b"<a/>"));
        assert!(xml_ready(b"<?xml-stylesheet"));
        assert!(!xml_ready(b"<?xml version='1.0' enc"));
        assert!(xml_ready(b"<?xml version='1.0'?>"));
        assert!(!xml_ready(b"\xFF\xFE<\0?\0x\0"));
        assert!(xml_ready(b"\xFF\xFE<\0a\0"));
        assert!(xml_ready(b"\xEF\xBB\xBF<a"));
    }
}
