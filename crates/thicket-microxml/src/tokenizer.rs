//! The public streaming tokenizer over the lexer's machine.

use crate::error::Diagnostic;
use crate::lexer::{Lexer, Mode};
use crate::options::Options;
use crate::token::Token;

/// The streaming tokenizer: `feed` chunks, pull [`Token`]s with [`Tokenizer::next_token`],
/// `finish`, pull the rest. The spans of the tokens tile the input (input the spec drops comes
/// as [`Token::Discarded`]).
///
/// Text is handed out as soon as the spec makes it certain: when the tokenizer has to wait for
/// more input, the characters of the `Data` token read so far come out as a piece of it (fed
/// `abc<`, it returns `Data("abc")` before the next feed; a long text is never held whole).
/// The pieces of one run, joined (texts concatenated, spans merged), are the token a whole
/// input gives; apart from where runs are split, the tokens and the diagnostics do not depend
/// on how the input was split.
///
/// Of `Options::limits` it applies `max_attributes`, `max_name_len`, `max_value_len` and
/// `max_diagnostics` (nesting depth is the tree builder's).
#[derive(Debug)]
pub struct Tokenizer {
    lexer: Lexer<'static>,
}

impl Default for Tokenizer {
    fn default() -> Self {
        Tokenizer::new(Options::default())
    }
}

impl Tokenizer {
    /// A tokenizer with `options`.
    pub fn new(options: Options) -> Tokenizer {
        Tokenizer {
            lexer: Lexer::lossless(options),
        }
    }

    /// The options in use.
    pub fn options(&self) -> &Options {
        self.lexer.options()
    }

    /// The current tokenization mode.
    pub fn mode(&self) -> Mode {
        self.lexer.mode()
    }

    /// Appends a chunk of input. Call [`Tokenizer::next_token`] until it returns `None` between
    /// feeds (or not: tokens are kept until pulled, and so is the input they refer to).
    pub fn feed(&mut self, chunk: &str) {
        self.lexer.feed(chunk);
    }

    /// Marks the end of the input.
    pub fn finish(&mut self) {
        self.lexer.finish();
    }

    /// The diagnostics released and not yet taken, in source order (by span start; at the same
    /// start, a forbidden character first, then in the order the modes raise them). A
    /// diagnostic is released once every token before it has been returned by
    /// [`Tokenizer::next_token`] (so a consumer that adds diagnostics of its own at the tokens
    /// it was given can merge the two lists in order), and at the end every one is. The list
    /// does not depend on how the input was split.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        self.lexer.released()
    }

    /// Takes the diagnostics released so far (see [`Tokenizer::diagnostics`]).
    pub fn take_diagnostics(&mut self) -> Vec<Diagnostic> {
        self.lexer.take_released()
    }

    /// How many diagnostics were counted and not kept, past `Limits::max_diagnostics` (the
    /// first ones in source order are kept).
    pub fn omitted_diagnostics(&self) -> usize {
        self.lexer.omitted_diagnostics()
    }

    /// How many times a limit of [`Options::limits`](crate::Options) cut a tag so far
    /// (`attribute-limit`, `name-length-limit`, `value-length-limit`), counted whether or not
    /// `max_diagnostics` kept the diagnostics; with
    /// [`last_limit_reached`](Self::last_limit_reached), how a caller that keeps no
    /// diagnostics learns that a tag was cut.
    ///
    /// ```
    /// use thicket_microxml::{Options, Tokenizer};
    /// use thicket_input::Limits;
    /// let mut options = Options::default();
    /// options.limits = Limits::none().with_max_attributes(1).with_max_diagnostics(0);
    /// let mut t = Tokenizer::new(options);
    /// t.feed("<a x='1' y='2'/>");
    /// t.finish();
    /// while t.next_token().is_some() {}
    /// assert_eq!(t.limits_reached(), 1);
    /// assert_eq!(t.last_limit_reached().unwrap().code.as_str(), "attribute-limit");
    /// ```
    pub fn limits_reached(&self) -> usize {
        self.lexer.limits_reached().count()
    }

    /// The diagnostic of the last limit reached (see [`limits_reached`](Self::limits_reached)).
    pub fn last_limit_reached(&self) -> Option<Diagnostic> {
        self.lexer.limits_reached().last()
    }

    /// The diagnostics of the limits reached since the last call, in the order they were
    /// reached (at most [`thicket_input::LIMIT_LOG`] kept between calls): taken after each
    /// token, they tell which tokens were cut, wherever the tokenizer had read to.
    pub fn take_limits_reached(&mut self) -> Vec<Diagnostic> {
        self.lexer.limits_reached_mut().take()
    }

    /// Tokenizes the whole of `text`: the tokens (whose spans tile `text`; each text run is one
    /// `Data` token) and every diagnostic kept, in source order.
    pub fn tokenize(text: &str, options: Options) -> (Vec<Token<'static>>, Vec<Diagnostic>) {
        let mut t = Lexer::whole(text, options, true);
        let mut out = Vec::new();
        while let Some(tok) = t.next_token() {
            out.push(tok.into_owned());
        }
        (out, t.take_diagnostics().0)
    }

    /// The next abstract token, or `None` when more input is needed (or, after
    /// [`Tokenizer::finish`], at the end).
    pub fn next_token(&mut self) -> Option<Token<'_>> {
        self.lexer.next_token()
    }
}

/// The tokens of a whole `&str` input, as an [`Iterator`]: the tokens [`Tokenizer`] gives for
/// the same input fed whole (each text run one `Data` token; spans tile the input), their
/// strings borrowed from the input where the spec changed nothing. (The streaming
/// [`Tokenizer`] lends each token from its buffer until the next call, so it cannot be an
/// iterator; this one borrows the input itself.)
///
/// ```
/// use thicket_microxml::{Token, Tokens};
/// let mut tokens = Tokens::new("<a x='1'>hi</a>");
/// let names: Vec<_> = tokens
///     .by_ref()
///     .filter_map(|t| match t {
///         Token::StartTagOpen { name, .. } | Token::AttributeName { name, .. } => Some(name),
///         _ => None,
///     })
///     .collect();
/// assert_eq!(names, ["a", "x"]);
/// assert!(tokens.diagnostics().is_empty());
/// ```
#[derive(Debug)]
pub struct Tokens<'a> {
    lexer: Lexer<'a>,
}

impl<'a> Tokens<'a> {
    /// The tokens of `text` with the spec's behaviour ([`Options::default`]).
    pub fn new(text: &'a str) -> Tokens<'a> {
        Tokens::with_options(text, Options::default())
    }

    /// The tokens of `text` with `options`.
    pub fn with_options(text: &'a str, options: Options) -> Tokens<'a> {
        Tokens {
            lexer: Lexer::whole(text, options, true),
        }
    }

    /// The next token, or `None` at the end.
    #[inline]
    pub fn next_token(&mut self) -> Option<Token<'a>> {
        self.lexer.next_token_input()
    }

    /// The diagnostics released and not yet taken, in source order (see
    /// [`Tokenizer::diagnostics`]); every one once the iteration has ended.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        self.lexer.released()
    }

    /// Takes the diagnostics released so far.
    pub fn take_diagnostics(&mut self) -> Vec<Diagnostic> {
        self.lexer.take_released()
    }

    /// How many diagnostics were counted and not kept, past `Limits::max_diagnostics`.
    pub fn omitted_diagnostics(&self) -> usize {
        self.lexer.omitted_diagnostics()
    }
}

/// [`Tokens::next_token`], as an iterator (a thin wrapper).
impl<'a> Iterator for Tokens<'a> {
    type Item = Token<'a>;

    #[inline]
    fn next(&mut self) -> Option<Token<'a>> {
        self.next_token()
    }
}
