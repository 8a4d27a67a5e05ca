//! The WHATWG encoding sniffing algorithm, as far as it is deterministic.
//!
//! WHATWG HTML §12.2.3.2 "Determining the character encoding" (`../shared/specs/
//! html-tokenization-whatwg.txt`). [`sniff`] runs these steps in order:
//!
//! 1. BOM sniff (the Encoding Standard's `decode` lets a BOM override everything): confidence
//!    certain.
//! 2. The transport layer's encoding label, if it names a supported encoding: certain.
//! 3. [`prescan`] of the first [`PRESCAN_LIMIT`] bytes for `<meta charset>` or
//!    `<meta http-equiv="content-type" content="...charset=...">`: tentative.
//! 4. The default, windows-1252 (the table's "all other locales"): tentative.
//!
//! The steps that depend on a browser (user override, the parent browsing context, remembered
//! encodings, frequency analysis) are not taken.

use std::borrow::Cow;

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252, X_USER_DEFINED};

use crate::bom::sniff_bom;

/// How many bytes [`sniff`] hands to [`prescan`]: the spec encourages prescanning "only the first
/// 1024 bytes", which is also where authors must put the declaration.
pub const PRESCAN_LIMIT: usize = 1024;

/// The confidence the spec attaches to a sniffed encoding.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Confidence {
    /// From a BOM or the transport layer: a `<meta>` found later must not change it.
    Certain,
    /// From the prescan or the default: a parser may still change the encoding when it meets a
    /// `<meta>` ("Changing the encoding while parsing").
    Tentative,
}

/// The result of [`sniff`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Sniffed {
    /// The encoding to decode with.
    pub encoding: &'static Encoding,
    /// Certain or tentative.
    pub confidence: Confidence,
    /// Length of the BOM at the start of the bytes (0 when there is none); the BOM is not text.
    pub bom_len: usize,
}

/// Runs the encoding sniffing algorithm with windows-1252 as the default. See the module docs for
/// the steps.
///
/// ```
/// use thicket_input::whatwg::{sniff, Confidence};
/// let s = sniff(b"<meta charset=utf-8><p>caf\xC3\xA9", None);
/// assert_eq!((s.encoding.name(), s.confidence), ("UTF-8", Confidence::Tentative));
/// let s = sniff(b"<meta charset=utf-8>", Some("iso-8859-2"));
/// assert_eq!((s.encoding.name(), s.confidence), ("ISO-8859-2", Confidence::Certain));
/// ```
pub fn sniff(bytes: &[u8], transport_label: Option<&str>) -> Sniffed {
    sniff_with_default(bytes, transport_label, WINDOWS_1252)
}

/// [`sniff`] with another "implementation-defined or user-specified default" (for example UTF-8,
/// which the spec suggests for controlled environments, or a locale's default from its table).
pub fn sniff_with_default(
    bytes: &[u8],
    transport_label: Option<&str>,
    default: &'static Encoding,
) -> Sniffed {
    if let Some((utf, bom_len)) = sniff_bom(bytes) {
        return Sniffed {
            encoding: utf.encoding(),
            confidence: Confidence::Certain,
            bom_len,
        };
    }
    if let Some(encoding) = transport_label.and_then(|l| Encoding::for_label(l.as_bytes())) {
        return Sniffed {
            encoding,
            confidence: Confidence::Certain,
            bom_len: 0,
        };
    }
    let encoding = prescan(bytes).unwrap_or(default);
    Sniffed {
        encoding,
        confidence: Confidence::Tentative,
        bom_len: 0,
    }
}

/// Sniffs with [`sniff`] and decodes with the Encoding Standard's `decode` (a BOM is removed,
/// malformed input becomes U+FFFD). Returns the text, the encoding used and whether any malformed
/// input was replaced.
///
/// ```
/// use thicket_input::whatwg::decode;
/// let (text, encoding, had_errors) = decode(b"<meta charset=iso-8859-2>\xB1", None);
/// assert_eq!((&*text, encoding.name(), had_errors), ("<meta charset=iso-8859-2>\u{105}", "ISO-8859-2", false));
/// ```
pub fn decode<'a>(
    bytes: &'a [u8],
    transport_label: Option<&str>,
) -> (Cow<'a, str>, &'static Encoding, bool) {
    let sniffed = sniff(bytes, transport_label);
    let (text, had_errors) = sniffed
        .encoding
        .decode_without_bom_handling(&bytes[sniffed.bom_len..]);
    (text, sniffed.encoding, had_errors)
}

/// What to do when a `<meta>` met while parsing names `new` (the outcome of
/// [`change_encoding`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EncodingChange {
    /// Keep decoding with the current encoding and set the confidence to certain: the current
    /// encoding is UTF-16, or the new one is the same (after the UTF-16 and x-user-defined
    /// rewrites).
    Keep,
    /// Decode the document again from the start with this encoding, confidence certain.
    Reparse(&'static Encoding),
}

/// "Changing the encoding while parsing" (§12.2.3.4), for a parser whose confidence is tentative.
/// The optional on-the-fly switch (when the bytes decoded so far mean the same in both encodings)
/// is not taken: the answer is then [`EncodingChange::Reparse`].
///
/// ```
/// use thicket_input::whatwg::{change_encoding, EncodingChange};
/// use thicket_input::Encoding;
/// let latin1 = Encoding::for_label(b"latin1").unwrap();
/// let utf16 = Encoding::for_label(b"utf-16").unwrap();
/// let utf8 = Encoding::for_label(b"utf-8").unwrap();
/// assert_eq!(change_encoding(latin1, utf16), EncodingChange::Reparse(utf8));
/// assert_eq!(change_encoding(utf16, latin1), EncodingChange::Keep);
/// assert_eq!(change_encoding(latin1, latin1), EncodingChange::Keep);
/// ```
pub fn change_encoding(current: &'static Encoding, new: &'static Encoding) -> EncodingChange {
    if current == UTF_16BE || current == UTF_16LE {
        return EncodingChange::Keep;
    }
    let mut new = new;
    if new == UTF_16BE || new == UTF_16LE {
        new = UTF_8;
    }
    if new == X_USER_DEFINED {
        new = WINDOWS_1252;
    }
    if new == current {
        return EncodingChange::Keep;
    }
    EncodingChange::Reparse(new)
}

/// "Prescan a byte stream to determine its encoding" over the first [`PRESCAN_LIMIT`] bytes of
/// `bytes`. Returns `None` when the algorithm aborts unsuccessfully, which includes running out of
/// bytes in the middle of a tag. UTF-16 labels give UTF-8 and x-user-defined gives windows-1252,
/// as the spec's last steps say.
///
/// ```
/// use thicket_input::whatwg::prescan;
/// let html = br#"<!-- <meta charset=koi8-r> --><META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=Shift_JIS">"#;
/// assert_eq!(prescan(html).map(|e| e.name()), Some("Shift_JIS"));
/// ```
pub fn prescan(bytes: &[u8]) -> Option<&'static Encoding> {
    prescan_all(&bytes[..bytes.len().min(PRESCAN_LIMIT)])
}

/// The prescan over all of `bytes`, without the 1024-byte end condition (the caller chooses
/// where the byte stream ends).
pub fn prescan_all(bytes: &[u8]) -> Option<&'static Encoding> {
    Prescan { b: bytes, pos: 0 }.run()
}

/// "Extracting a character encoding from a meta element": finds `charset` followed by `=` in the
/// value of a `content` attribute and gets the encoding from the (optionally quoted) value after
/// it. `None` when there is no such value or it is not a known label.
///
/// ```
/// use thicket_input::whatwg::extract_meta_charset;
/// assert_eq!(extract_meta_charset(b"text/html; charset = 'euc-jp'").map(|e| e.name()), Some("EUC-JP"));
/// assert_eq!(extract_meta_charset(b"text/html; charset=\"utf-8"), None); // unmatched quote
/// ```
pub fn extract_meta_charset(s: &[u8]) -> Option<&'static Encoding> {
    let mut pos = 0;
    loop {
        // Loop: find the first seven characters after position that match "charset".
        let found = s[pos..]
            .windows(7)
            .position(|w| w.eq_ignore_ascii_case(b"charset"))?;
        pos += found + 7;
        // Skip any ASCII whitespace after the word.
        while pos < s.len() && is_ascii_whitespace(s[pos]) {
            pos += 1;
        }
        // If the next character is not "=", move position to just before it and loop.
        if s.get(pos) != Some(&b'=') {
            continue;
        }
        pos += 1;
        while pos < s.len() && is_ascii_whitespace(s[pos]) {
            pos += 1;
        }
        let &c = s.get(pos)?;
        if c == b'"' || c == b'\'' {
            // A quote with a later matching quote: the label is what is between them.
            // An unmatched quote: return nothing.
            let len = memchr::memchr(c, &s[pos + 1..])?;
            return Encoding::for_label(&s[pos + 1..pos + 1 + len]);
        }
        let end = s[pos..]
            .iter()
            .position(|&b| is_ascii_whitespace(b) || b == b';')
            .map_or(s.len(), |n| pos + n);
        return Encoding::for_label(&s[pos..end]);
    }
}

/// ASCII whitespace in the sense of the spec: TAB, LF, FF, CR, SPACE.
fn is_ascii_whitespace(b: u8) -> bool {
    matches!(b, 0x09 | 0x0A | 0x0C | 0x0D | 0x20)
}

/// The prescan ran past the end of its bytes: "abort ... unsuccessfully".
struct OutOfBytes;

/// An attribute found by "get an attribute": name and value, lowercased.
struct Attribute {
    name: Vec<u8>,
    value: Vec<u8>,
}

/// The `charset` variable of the `<meta>` step: null, failure or an encoding.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Charset {
    Null,
    Failure,
    Encoding(&'static Encoding),
}

/// State of one run of the prescan: the bytes and the position pointer.
struct Prescan<'a> {
    b: &'a [u8],
    pos: usize,
}

impl Prescan<'_> {
    /// The bytes from `pos` on.
    fn rest(&self) -> &[u8] {
        &self.b[self.pos.min(self.b.len())..]
    }

    /// The byte at `pos`, or `OutOfBytes`.
    fn byte(&self) -> Result<u8, OutOfBytes> {
        self.b.get(self.pos).copied().ok_or(OutOfBytes)
    }

    fn run(mut self) -> Option<&'static Encoding> {
        self.run_loop().ok().flatten()
    }

    /// The step labelled "loop", returning `Ok(Some)` when the algorithm returns an encoding and
    /// `Ok(None)` or `Err` when it aborts.
    fn run_loop(&mut self) -> Result<Option<&'static Encoding>, OutOfBytes> {
        while self.pos < self.b.len() {
            // Every branch below starts at a "<": any other byte is "do nothing" then "next
            // byte", so the bytes up to the next "<" are passed in one search.
            if self.b[self.pos] != b'<' {
                match memchr::memchr(b'<', &self.b[self.pos..]) {
                    Some(n) => self.pos += n,
                    None => break,
                }
            }
            let rest = self.rest();
            if rest.starts_with(b"<!--") {
                // Advance to the first ">" preceded by "--" after the "<"; the dashes may be the
                // ones of "<!--", so "<!-->" ends the comment.
                let end = memchr::memmem::find(&rest[2..], b"-->").ok_or(OutOfBytes)?;
                self.pos += 2 + end + 2;
            } else if rest.len() >= 6
                && rest[..5].eq_ignore_ascii_case(b"<meta")
                && matches!(rest[5], 0x09 | 0x0A | 0x0C | 0x0D | 0x20 | 0x2F)
            {
                self.pos += 5;
                if let Some(encoding) = self.meta()? {
                    return Ok(Some(encoding));
                }
            } else if rest.len() >= 2
                && rest[0] == b'<'
                && (rest[1].is_ascii_alphabetic()
                    || (rest[1] == b'/' && rest.get(2).is_some_and(u8::is_ascii_alphabetic)))
            {
                // Advance to the next HT, LF, FF, CR, SP or ">", then skip the attributes.
                let n = rest
                    .iter()
                    .position(|&b| matches!(b, 0x09 | 0x0A | 0x0C | 0x0D | 0x20 | b'>'))
                    .ok_or(OutOfBytes)?;
                self.pos += n;
                while self.get_attribute()?.is_some() {}
            } else if rest.starts_with(b"<!") || rest.starts_with(b"</") || rest.starts_with(b"<?")
            {
                // Advance to the first ">" after the "<".
                let n = memchr::memchr(b'>', &rest[1..]).ok_or(OutOfBytes)?;
                self.pos += 1 + n;
            }
            // Any other byte: do nothing with it. Then "next byte".
            self.pos += 1;
        }
        Ok(None)
    }

    /// The `<meta` branch, with `pos` on the space or slash after `<meta`. Returns the encoding if
    /// the prescan is to return one, `None` to go on with "next byte".
    fn meta(&mut self) -> Result<Option<&'static Encoding>, OutOfBytes> {
        // The attribute list matters only for the three names below (a repeated name is
        // skipped), so three flags stand for it and keep the step linear in the attributes.
        let mut seen = [false; 3];
        let mut got_pragma = false;
        let mut need_pragma: Option<bool> = None;
        let mut charset = Charset::Null;
        // Attributes:
        while let Some(attr) = self.get_attribute()? {
            let index = match attr.name.as_slice() {
                b"http-equiv" => 0,
                b"content" => 1,
                b"charset" => 2,
                _ => continue,
            };
            if std::mem::replace(&mut seen[index], true) {
                continue;
            }
            match index {
                0 => got_pragma |= attr.value == b"content-type",
                1 => {
                    if let Some(encoding) = extract_meta_charset(&attr.value)
                        && charset == Charset::Null
                    {
                        charset = Charset::Encoding(encoding);
                        need_pragma = Some(true);
                    }
                }
                _ => {
                    charset = match Encoding::for_label(&attr.value) {
                        Some(encoding) => Charset::Encoding(encoding),
                        None => Charset::Failure,
                    };
                    need_pragma = Some(false);
                }
            }
        }
        // Processing:
        let Some(need_pragma) = need_pragma else {
            return Ok(None);
        };
        if need_pragma && !got_pragma {
            return Ok(None);
        }
        let Charset::Encoding(mut encoding) = charset else {
            return Ok(None);
        };
        if encoding == UTF_16BE || encoding == UTF_16LE {
            encoding = UTF_8;
        }
        if encoding == X_USER_DEFINED {
            encoding = WINDOWS_1252;
        }
        Ok(Some(encoding))
    }

    /// "Get an attribute": `Ok(None)` when there is no attribute (at `>`), `Err` when the bytes
    /// run out.
    fn get_attribute(&mut self) -> Result<Option<Attribute>, OutOfBytes> {
        // Skip HT, LF, FF, CR, SP and "/".
        while let 0x09 | 0x0A | 0x0C | 0x0D | 0x20 | b'/' = self.byte()? {
            self.pos += 1;
        }
        if self.byte()? == b'>' {
            return Ok(None);
        }
        let mut name = Vec::new();
        let value = Vec::new();
        // The attribute name.
        loop {
            let b = self.byte()?;
            match b {
                b'=' if !name.is_empty() => {
                    self.pos += 1;
                    return self.attribute_value(name, value).map(Some);
                }
                0x09 | 0x0A | 0x0C | 0x0D | 0x20 => break,
                b'/' | b'>' => return Ok(Some(Attribute { name, value })),
                _ => name.push(b.to_ascii_lowercase()),
            }
            self.pos += 1;
        }
        // Spaces:
        while is_space(self.byte()?) {
            self.pos += 1;
        }
        if self.byte()? != b'=' {
            return Ok(Some(Attribute { name, value }));
        }
        self.pos += 1;
        self.attribute_value(name, value).map(Some)
    }

    /// The steps of "get an attribute" from the one labelled "value".
    fn attribute_value(
        &mut self,
        name: Vec<u8>,
        mut value: Vec<u8>,
    ) -> Result<Attribute, OutOfBytes> {
        // Value:
        while is_space(self.byte()?) {
            self.pos += 1;
        }
        let b = self.byte()?;
        match b {
            b'"' | b'\'' => loop {
                // Quote loop:
                self.pos += 1;
                let c = self.byte()?;
                if c == b {
                    self.pos += 1;
                    return Ok(Attribute { name, value });
                }
                value.push(c.to_ascii_lowercase());
            },
            b'>' => return Ok(Attribute { name, value }),
            _ => {
                value.push(b.to_ascii_lowercase());
                self.pos += 1;
            }
        }
        loop {
            let c = self.byte()?;
            if is_space(c) || c == b'>' {
                return Ok(Attribute { name, value });
            }
            value.push(c.to_ascii_lowercase());
            self.pos += 1;
        }
    }
}

/// HT, LF, FF, CR or SP.
fn is_space(b: u8) -> bool {
    is_ascii_whitespace(b)
}
