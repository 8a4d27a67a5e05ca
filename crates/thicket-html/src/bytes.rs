//! The decoding front: bytes in, WHATWG encoding sniffing (`thicket_input::whatwg`), text to the
//! tokenizer.

use thicket_input::Encoding;
use thicket_input::stream::StreamDecoder;
use thicket_input::whatwg::{self, Confidence, PRESCAN_LIMIT};

use crate::{Options, Token, Tokenizer};

/// A [`Tokenizer`] fed with bytes. The encoding is sniffed as the standard's "determining the
/// character encoding" says (BOM, then the transport layer's label, then a prescan of the first
/// 1024 bytes for `<meta charset>`, then windows-1252), so tokens start to come out once 1024
/// bytes have arrived (or at [`finish`](Self::finish)). Spans are byte offsets into the *decoded*
/// text (without the BOM); malformed input is decoded to U+FFFD.
pub struct ByteTokenizer {
    tokenizer: Tokenizer,
    transport_label: Option<String>,
    pending: Vec<u8>,
    decoder: Option<StreamDecoder>,
    sniffed: Option<(&'static Encoding, Confidence)>,
    text: String,
}

impl ByteTokenizer {
    /// A tokenizer for bytes; `transport_label` is the `charset` of a `Content-Type` header, if
    /// there is one.
    pub fn new(transport_label: Option<&str>, options: Options) -> ByteTokenizer {
        ByteTokenizer {
            tokenizer: Tokenizer::with_options(options),
            transport_label: transport_label.map(str::to_owned),
            pending: Vec::new(),
            decoder: None,
            sniffed: None,
            text: String::new(),
        }
    }

    /// Appends a chunk of bytes.
    pub fn feed(&mut self, bytes: &[u8]) {
        match &mut self.decoder {
            Some(decoder) => {
                decoder.feed(bytes, &mut self.text);
                self.tokenizer.feed(&self.text);
                self.text.clear();
            }
            None => {
                self.pending.extend_from_slice(bytes);
                if self.pending.len() >= PRESCAN_LIMIT {
                    self.start();
                }
            }
        }
    }

    /// Marks the end of the input.
    pub fn finish(&mut self) {
        if self.decoder.is_none() {
            self.start();
        }
        if let Some(decoder) = &mut self.decoder {
            decoder.finish(&mut self.text);
            self.tokenizer.feed(&self.text);
            self.text.clear();
        }
        self.tokenizer.finish();
    }

    /// The next token (see [`Tokenizer::next_token`]).
    pub fn next_token(&mut self) -> Option<Token<'_>> {
        self.tokenizer.next_token()
    }

    /// The encoding and its confidence, once sniffed.
    pub fn encoding(&self) -> Option<(&'static Encoding, Confidence)> {
        self.sniffed
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

    /// Sniffs the encoding from the bytes so far and decodes them.
    fn start(&mut self) {
        let s = whatwg::sniff(&self.pending, self.transport_label.as_deref());
        self.sniffed = Some((s.encoding, s.confidence));
        let mut decoder = StreamDecoder::without_bom_handling(s.encoding);
        decoder.feed(
            &self.pending[s.bom_len.min(self.pending.len())..],
            &mut self.text,
        );
        self.pending = Vec::new();
        self.tokenizer.feed(&self.text);
        self.text.clear();
        self.decoder = Some(decoder);
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
