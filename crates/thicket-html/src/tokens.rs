//! Whole-input tokenizing: [`parse`], [`parse_with`] and [`Tokens`], an iterator whose tokens
//! borrow from the input.

use crate::{Diagnostic, Options, Token, Tokenizer};

/// The tokens of a whole input, as an [`Iterator`]: each [`Token<'a>`] borrows its strings from
/// the input where they are the input unchanged, so tokens can be kept, collected or compared
/// while iterating. The last token is [`Token::Eof`]. The same tokens and diagnostics as
/// [`Tokenizer::next_token`], by the same work, with no allocation per token (a tag's attribute
/// list aside, as there); the tokenizer holds one copy of the input while it runs (measured
/// against `next_token` in docs/performance.md).
///
/// ```
/// use thicket_html::Token;
/// let page = r#"<a href="/x">x</a><script>"<a href=no>"</script>"#;
/// let mut links = Vec::new();
/// for token in thicket_html::parse(page) {
///     if let Token::StartTag(tag) = &token
///         && tag.name == "a"
///         && let Some(href) = tag.attribute("href")
///     {
///         links.push((href.to_owned(), tag.span.start));
///     }
/// }
/// assert_eq!(links, [("/x".to_owned(), 0)]);
/// ```
pub struct Tokens<'a> {
    tokenizer: Tokenizer<'a>,
    input: &'a str,
}

/// The tokens of `input` in the document-level mode ([`Options::document`]: raw-text elements
/// switch, SVG and MathML are followed), what most users want.
pub fn parse(input: &str) -> Tokens<'_> {
    Tokens::new(input, Options::document())
}

/// The tokens of `input` with `options` ([`Options::default`] is the bare tokenizer of the
/// standard, which never switches state by itself).
pub fn parse_with(input: &str, options: Options) -> Tokens<'_> {
    Tokens::new(input, options)
}

impl<'a> Tokens<'a> {
    /// The tokens of `input` with `options`.
    pub fn new(input: &'a str, options: Options) -> Tokens<'a> {
        let mut tokenizer = Tokenizer::with_options(options);
        tokenizer.feed_lent(input);
        tokenizer.finish();
        Tokens { tokenizer, input }
    }

    /// The parse errors so far (of the tokens returned, and of input read ahead), in source
    /// order; see [`Tokenizer::diagnostics`].
    pub fn diagnostics(&self) -> &[Diagnostic] {
        self.tokenizer.diagnostics()
    }

    /// Takes the parse errors so far.
    pub fn take_diagnostics(&mut self) -> Vec<Diagnostic> {
        self.tokenizer.take_diagnostics()
    }

    /// How many diagnostics were counted but not kept, past `Limits::max_diagnostics`.
    pub fn omitted_diagnostics(&self) -> usize {
        self.tokenizer.omitted_diagnostics()
    }

    /// The next token (the same as [`Iterator::next`]).
    pub fn next_token(&mut self) -> Option<Token<'a>> {
        self.tokenizer.next_token_in(self.input)
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = Token<'a>;

    #[inline]
    fn next(&mut self) -> Option<Token<'a>> {
        self.tokenizer.next_token_in(self.input)
    }
}

impl std::iter::FusedIterator for Tokens<'_> {}

impl std::fmt::Debug for Tokens<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tokens")
            .field("len", &self.input.len())
            .field("tokenizer", &self.tokenizer)
            .finish()
    }
}

/// A whole document decoded from bytes by [`parse_bytes`] or [`parse_reader`]: the text and
/// the encoding it was read in. Tokenize it with [`tokens`](Decoded::tokens); the tokens borrow
/// from [`text`](Decoded::text), and their spans are byte offsets into it (not into the bytes).
///
/// ```
/// use thicket_html::Token;
/// let decoded = thicket_html::parse_bytes(b"<meta charset=latin1><p title=caf\xE9>");
/// assert_eq!(decoded.encoding.name(), "windows-1252");
/// let titles: Vec<String> = decoded
///     .tokens()
///     .filter_map(|t| match t {
///         Token::StartTag(tag) => tag.attribute("title").map(str::to_owned),
///         _ => None,
///     })
///     .collect();
/// assert_eq!(titles, ["café"]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    /// The decoded text (malformed input replaced by U+FFFD, a byte order mark removed).
    pub text: String,
    /// The encoding: from the byte order mark, the transport label, the `<meta charset>`
    /// prescan, else the default (UTF-8 for [`parse_bytes`]).
    pub encoding: &'static crate::Encoding,
}

impl Decoded {
    /// The tokens of the text in the document-level mode, as [`parse`] gives them.
    pub fn tokens(&self) -> Tokens<'_> {
        parse(&self.text)
    }

    /// The tokens of the text with `options`, as [`parse_with`] gives them.
    pub fn tokens_with(&self, options: Options) -> Tokens<'_> {
        parse_with(&self.text, options)
    }
}

/// Decodes a whole document from bytes with the WHATWG sniffing (byte order mark, then the
/// `<meta charset>` prescan), UTF-8 when neither names an encoding (what users expect today;
/// the standard lets the default come from the user's locale: see [`parse_bytes_with`]).
pub fn parse_bytes(bytes: &[u8]) -> Decoded {
    parse_bytes_with(bytes, None, crate::UTF_8)
}

/// [`parse_bytes`] with the transport layer's label (a `Content-Type` charset) and the
/// default encoding (the standard's last step; [`crate::WINDOWS_1252`] is what browsers use
/// for most locales).
pub fn parse_bytes_with(
    bytes: &[u8],
    transport_label: Option<&str>,
    default: &'static crate::Encoding,
) -> Decoded {
    let (text, encoding) = crate::decode_bytes(bytes, transport_label, default);
    Decoded {
        text: text.into_owned(),
        encoding,
    }
}

/// Reads `reader` to its end and decodes the bytes as [`parse_bytes`] does. Only reading can
/// fail. (For bounded memory, feed a [`ByteTokenizer`](crate::ByteTokenizer) from a read
/// loop instead.)
///
/// ```
/// let decoded = thicket_html::parse_reader(&b"<p>x</p>"[..]).unwrap();
/// assert_eq!(decoded.tokens().count(), 4); // <p>, x, </p>, end of file
/// ```
pub fn parse_reader(mut reader: impl std::io::Read) -> std::io::Result<Decoded> {
    let mut bytes = Vec::new();
    reader.read_to_end(&mut bytes)?;
    Ok(parse_bytes(&bytes))
}
