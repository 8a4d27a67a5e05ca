//! Whole-input tokenizing: [`parse`], [`parse_with`] and [`Tokens`], an iterator whose tokens
//! borrow from the input.

use crate::{Diagnostic, Options, Token, Tokenizer};

/// The tokens of a whole input, as an [`Iterator`]: each [`Token<'a>`] borrows its strings from
/// the input where they are the input unchanged, so tokens can be kept, collected or compared
/// while iterating. The last token is [`Token::Eof`]. The same tokens, diagnostics and speed as
/// [`Tokenizer::next_token`], with no allocation per token (a tag's attribute list aside, as
/// there); the tokenizer holds one copy of the input while it runs.
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
    tokenizer: Tokenizer,
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
        tokenizer.feed(input);
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
