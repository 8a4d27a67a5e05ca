//! The decoding front: bytes in, the WHATWG encoding sniffing and a streaming decoder
//! (`thicket_input::front::SniffingDecoder`), text straight into the tokenizer's buffer.

use thicket_input::Encoding;
use thicket_input::front::SniffingDecoder;
use thicket_input::whatwg::Confidence;

use crate::{Options, Token, Tokenizer};

/// A [`Tokenizer`] fed with bytes. The encoding is sniffed as the standard's "determining the
/// character encoding" says (BOM, then the transport layer's label, then a prescan of the first
/// 1024 bytes for `<meta charset>`, then a default encoding): the first bytes are held only until
/// those rules decide (at most 1024 bytes, fewer once a BOM, the label or a `<meta>` settles
/// it), or until [`finish`](Self::finish). Then every chunk is decoded straight into the
/// tokenizer's buffer. Spans are byte offsets into the *decoded* text (without the BOM);
/// malformed input is decoded to U+FFFD.
///
/// The default, used when nothing else decides, is the caller's:
/// [`with_default_encoding`](Self::with_default_encoding) takes it (UTF-8,
/// [`UTF_8`](crate::UTF_8), is what most users expect today: a page without `<meta charset>` is
/// almost always UTF-8); [`new`](Self::new) uses windows-1252, the standard's last step for a
/// user agent without a locale default.
///
/// ```
/// use thicket_html::{ByteTokenizer, Options, Token, UTF_8};
/// let mut t = ByteTokenizer::with_default_encoding(None, UTF_8, Options::default());
/// t.feed("<p>café</p>".as_bytes());
/// t.finish();
/// let mut text = String::new();
/// while let Some(token) = t.next_token() {
///     if let Token::Text { text: s, .. } = token {
///         text.push_str(&s);
///     }
/// }
/// assert_eq!(text, "café");
/// assert_eq!(t.encoding().map(|(e, _)| e.name()), Some("UTF-8"));
/// ```
#[derive(Debug)]
pub struct ByteTokenizer {
    tokenizer: Tokenizer<'static>,
    decoder: SniffingDecoder,
}

impl ByteTokenizer {
    /// A tokenizer for bytes whose default encoding is windows-1252, the standard's last step
    /// ("otherwise, return an implementation-defined or user-specified default character
    /// encoding", windows-1252 for most locales); `transport_label` is the `charset` of a
    /// `Content-Type` header, if there is one. Most callers want
    /// [`with_default_encoding`](Self::with_default_encoding) with [`UTF_8`](crate::UTF_8).
    pub fn new(transport_label: Option<&str>, options: Options) -> ByteTokenizer {
        ByteTokenizer::with_default_encoding(transport_label, encoding_rs::WINDOWS_1252, options)
    }

    /// A tokenizer for bytes with `default` as the encoding used when no BOM, transport label or
    /// `<meta charset>` decides (the standard lets it come from the user: UTF-8 is what users
    /// expect today, windows-1252 is what [`new`](Self::new) uses).
    pub fn with_default_encoding(
        transport_label: Option<&str>,
        default: &'static Encoding,
        options: Options,
    ) -> ByteTokenizer {
        ByteTokenizer {
            tokenizer: Tokenizer::with_options(options),
            decoder: SniffingDecoder::whatwg(transport_label, default),
        }
    }

    /// Appends a chunk of bytes; returns the text it decoded to (empty while the first bytes are
    /// held for sniffing, then everything held so far), for a caller that shows the source,
    /// such as the command line's diagnostics.
    pub fn feed(&mut self, bytes: &[u8]) -> &str {
        let decoder = &mut self.decoder;
        let (from, to) = self.tokenizer.feed_with(|input| {
            let from = input.end();
            // Lossy decoding never fails.
            let _ = decoder.feed_into(bytes, input);
            (from, input.end())
        });
        self.tokenizer.buffered_slice(from, to)
    }

    /// Marks the end of the input; returns the text the bytes still held decoded to.
    pub fn finish(&mut self) -> &str {
        let decoder = &mut self.decoder;
        let (from, to) = self.tokenizer.feed_with(|input| {
            let from = input.end();
            let _ = decoder.finish_into(input);
            (from, input.end())
        });
        self.tokenizer.finish();
        self.tokenizer.buffered_slice(from, to)
    }

    /// The next token (see [`Tokenizer::next_token`]).
    pub fn next_token(&mut self) -> Option<Token<'_>> {
        self.tokenizer.next_token()
    }

    /// The encoding and its confidence, once sniffed.
    pub fn encoding(&self) -> Option<(&'static Encoding, Confidence)> {
        self.decoder
            .detected()
            .map(|d| (d.encoding, d.confidence()))
    }

    /// How many diagnostics were counted but not kept, past `Limits::max_diagnostics`
    /// (see [`Tokenizer::omitted_diagnostics`]).
    pub fn omitted_diagnostics(&self) -> usize {
        self.tokenizer.omitted_diagnostics()
    }

    /// The tokenizer behind, for diagnostics and the tree-builder hooks.
    pub fn tokenizer(&mut self) -> &mut Tokenizer<'static> {
        &mut self.tokenizer
    }
}

/// Decodes a whole HTML document as [`ByteTokenizer`] would: the encoding sniffed from the BOM,
/// `transport_label`, the `<meta charset>` prescan of the first 1024 bytes, then `default`;
/// malformed input becomes U+FFFD. Returns the text (borrowed when the bytes are UTF-8 without a
/// BOM) and the encoding.
///
/// ```
/// let (text, encoding) = thicket_html::decode_bytes(b"caf\xC3\xA9", None, thicket_html::UTF_8);
/// assert_eq!((&*text, encoding.name()), ("café", "UTF-8"));
/// ```
pub fn decode_bytes<'b>(
    bytes: &'b [u8],
    transport_label: Option<&str>,
    default: &'static Encoding,
) -> (std::borrow::Cow<'b, str>, &'static Encoding) {
    let sniffed = thicket_input::whatwg::sniff_with_default(bytes, transport_label, default);
    let (text, _) = sniffed
        .encoding
        .decode_without_bom_handling(&bytes[sniffed.bom_len..]);
    (text, sniffed.encoding)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(bytes: &[u8], chunk: usize, label: Option<&str>) -> (String, &'static str) {
        let mut t = ByteTokenizer::new(label, Options::default());
        let mut out = String::new();
        for c in bytes.chunks(chunk) {
            t.feed(c);
            while let Some(tok) = t.next_token() {
                if let Token::Text { text, .. } = tok {
                    out.push_str(&text);
                }
            }
        }
        t.finish();
        while let Some(tok) = t.next_token() {
            if let Token::Text { text, .. } = tok {
                out.push_str(&text);
            }
        }
        (out, t.encoding().map_or("", |(e, _)| e.name()))
    }

    #[test]
    fn limits_apply_to_bytes_too() {
        let options = Options {
            limits: thicket_input::Limits::none()
                .with_max_value_len(2)
                .with_max_diagnostics(1),
            ..Options::default()
        };
        let mut t = ByteTokenizer::new(Some("utf-8"), options);
        t.feed(b"<a b='xyz'><<");
        t.finish();
        let Some(Token::StartTag(tag)) = t.next_token() else {
            panic!("a start tag")
        };
        assert_eq!(tag.attributes[0].value, "xy");
        while t.next_token().is_some() {}
        let kept: Vec<&str> = t
            .tokenizer()
            .diagnostics()
            .iter()
            .map(|d| d.code.as_str())
            .collect();
        assert_eq!(kept, ["value-length-limit"]);
        assert_eq!(t.omitted_diagnostics(), 2);
    }

    /// The first bytes are held only until the sniffing rules decide: a BOM or a transport
    /// label at once, a `<meta>` as soon as it is read; otherwise up to 1024 bytes.
    #[test]
    fn tokens_come_out_as_soon_as_the_encoding_is_known() {
        let first = |label: Option<&str>, bytes: &[u8]| {
            let mut t = ByteTokenizer::new(label, Options::default());
            t.feed(bytes);
            t.next_token().map(|tok| tok.into_owned())
        };
        assert!(first(Some("utf-8"), b"<p>x").is_some());
        assert!(first(None, b"\xEF\xBB\xBF<p>x").is_some());
        assert!(first(None, b"<meta charset=utf-8><p>x").is_some());
        assert!(first(None, b"<p>x").is_none());
        let mut t = ByteTokenizer::new(None, Options::default());
        t.feed(&b"<p>".repeat(400));
        assert!(t.next_token().is_some());
        assert_eq!(t.encoding().map(|(e, _)| e.name()), Some("windows-1252"));
    }

    #[test]
    fn sniffs_meta_bom_label_and_default() {
        let doc = b"<meta charset=iso-8859-2><p>\xB1";
        for chunk in [1, 3, 1000] {
            assert_eq!(texts(doc, chunk, None), ("\u{105}".into(), "ISO-8859-2"));
        }
        assert_eq!(
            texts(b"\xEF\xBB\xBFcaf\xC3\xA9", 2, None),
            ("caf\u{e9}".into(), "UTF-8")
        );
        assert_eq!(
            texts(b"\xE9", 1, Some("utf-8")),
            ("\u{FFFD}".into(), "UTF-8")
        );
        assert_eq!(texts(b"\xE9", 1, None), ("\u{e9}".into(), "windows-1252"));
    }

    /// The default encoding is the caller's; the whole-document decoder agrees with the
    /// streaming one.
    #[test]
    fn default_encoding_is_a_parameter() {
        let page = "<title>Caf\u{e9}</title><p>\u{2014}".as_bytes();
        for chunk in [1, 7, 4096] {
            let mut t =
                ByteTokenizer::with_default_encoding(None, encoding_rs::UTF_8, Options::default());
            let mut shown = String::new();
            let mut text = String::new();
            for c in page.chunks(chunk) {
                shown.push_str(t.feed(c));
                while let Some(tok) = t.next_token() {
                    if let Token::Text { text: s, .. } = tok {
                        text.push_str(&s);
                    }
                }
            }
            shown.push_str(t.finish());
            while let Some(tok) = t.next_token() {
                if let Token::Text { text: s, .. } = tok {
                    text.push_str(&s);
                }
            }
            assert_eq!(shown, "<title>Caf\u{e9}</title><p>\u{2014}");
            assert_eq!(text, "Caf\u{e9}\u{2014}");
            assert_eq!(t.encoding().map(|(e, _)| e.name()), Some("UTF-8"));
            assert!(t.tokenizer().diagnostics().is_empty());
        }
        let (text, encoding) = decode_bytes(page, None, encoding_rs::UTF_8);
        assert_eq!(
            (&*text, encoding.name()),
            ("<title>Caf\u{e9}</title><p>\u{2014}", "UTF-8")
        );
        let (text, encoding) = decode_bytes(page, None, encoding_rs::WINDOWS_1252);
        assert_eq!(encoding.name(), "windows-1252");
        assert!(text.contains("Caf\u{c3}\u{a9}"));
        let (_, encoding) = decode_bytes(b"<meta charset=iso-8859-2>", None, encoding_rs::UTF_8);
        assert_eq!(encoding.name(), "ISO-8859-2");
    }
}
