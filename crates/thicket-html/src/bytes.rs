//! The decoding front: bytes in, the WHATWG encoding sniffing and a streaming decoder
//! (`thicket_input::front::SniffingDecoder`), text straight into the tokenizer's buffer.

use thicket_input::Encoding;
use thicket_input::front::SniffingDecoder;
use thicket_input::whatwg::Confidence;

use crate::{Options, Token, Tokenizer};

/// A [`Tokenizer`] fed with bytes. The encoding is sniffed as the standard's "determining the
/// character encoding" says (BOM, then the transport layer's label, then a prescan of the first
/// 1024 bytes for `<meta charset>`, then windows-1252): the first bytes are held only until
/// those rules decide (at most 1024 bytes, fewer once a BOM, the label or a `<meta>` settles
/// it), or until [`finish`](Self::finish). Then every chunk is decoded straight into the
/// tokenizer's buffer. Spans are byte offsets into the *decoded* text (without the BOM);
/// malformed input is decoded to U+FFFD.
#[derive(Debug)]
pub struct ByteTokenizer {
    tokenizer: Tokenizer,
    decoder: SniffingDecoder,
}

impl ByteTokenizer {
    /// A tokenizer for bytes; `transport_label` is the `charset` of a `Content-Type` header, if
    /// there is one.
    pub fn new(transport_label: Option<&str>, options: Options) -> ByteTokenizer {
        ByteTokenizer {
            tokenizer: Tokenizer::with_options(options),
            decoder: SniffingDecoder::whatwg(transport_label, encoding_rs::WINDOWS_1252),
        }
    }

    /// Appends a chunk of bytes.
    pub fn feed(&mut self, bytes: &[u8]) {
        let decoder = &mut self.decoder;
        self.tokenizer.feed_with(|input| {
            // Lossy decoding never fails.
            let _ = decoder.feed_into(bytes, input);
        });
    }

    /// Marks the end of the input.
    pub fn finish(&mut self) {
        let decoder = &mut self.decoder;
        self.tokenizer.feed_with(|input| {
            let _ = decoder.finish_into(input);
        });
        self.tokenizer.finish();
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
    pub fn tokenizer(&mut self) -> &mut Tokenizer {
        &mut self.tokenizer
    }
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
}
