//! The streaming [`Parser`] and what parsing returns ([`Parsed`]).

use crate::document::{Document, ElementRef, MAX_DOCUMENT_LEN, within_limit};
use crate::error::Diagnostic;
use crate::lexer::Lexer;
use crate::options::Options;
use crate::tree::TreeBuilder;

/// The result of parsing: the tree and the validity diagnostics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed<'a> {
    /// The tree: the document element (or the `#doc` wrapper) and everything below it.
    pub document: Document<'a>,
    /// Where the input is not valid MicroXML, in source order: by span start; at the same
    /// start a forbidden character first, then the tokenizer's and then the tree builder's, each
    /// in the order raised; what is found at the end of the input (an unclosed start-tag or
    /// value, unclosed elements, no document element) last. Empty for a valid document. At
    /// most `Limits::max_diagnostics` (the first ones).
    pub diagnostics: Vec<Diagnostic>,
    /// How many diagnostics were counted and not kept, past `Limits::max_diagnostics`.
    pub omitted_diagnostics: usize,
}

impl<'a> Parsed<'a> {
    /// True when the input is valid MicroXML.
    pub fn is_valid(&self) -> bool {
        self.diagnostics.is_empty() && self.omitted_diagnostics == 0
    }

    /// The document element, or the `#doc` wrapper.
    pub fn root(&self) -> ElementRef<'_, 'a> {
        self.document.root()
    }

    /// The same result, owning its strings.
    pub fn into_owned(self) -> Parsed<'static> {
        Parsed {
            document: self.document.into_owned(),
            diagnostics: self.diagnostics,
            omitted_diagnostics: self.omitted_diagnostics,
        }
    }
}

/// The streaming parser: tokenizer and tree builder. The tree owns its strings (copied once
/// into the document), since the chunks it was built from are gone; [`crate::parse_with`]
/// builds a tree borrowing from the input instead.
#[derive(Debug)]
pub struct Parser {
    lexer: Lexer<'static>,
    builder: TreeBuilder<'static>,
    len: usize,
}

impl Default for Parser {
    fn default() -> Self {
        Parser::new(Options::default())
    }
}

impl Parser {
    /// A parser with `options`.
    pub fn new(options: Options) -> Parser {
        Parser {
            lexer: Lexer::new(options),
            builder: TreeBuilder::with_options(&options),
            len: 0,
        }
    }

    /// Parses one more chunk. Input past [`MAX_DOCUMENT_LEN`] is left out, with a
    /// `document-too-large` diagnostic.
    pub fn feed(&mut self, chunk: &str) {
        let (chunk, cut) = within_limit(chunk, MAX_DOCUMENT_LEN.saturating_sub(self.len));
        if cut {
            self.builder.too_large();
        }
        self.len += chunk.len();
        self.lexer.feed(chunk);
        self.lexer.run_into(&mut self.builder);
    }

    /// Ends the input and returns the tree with every diagnostic, in source order.
    pub fn finish(mut self) -> Parsed<'static> {
        self.lexer.finish();
        self.lexer.run_into(&mut self.builder);
        let diagnostics = self.lexer.take_diagnostics();
        finish(self.builder, diagnostics, self.len)
    }
}

/// The tree, and the diagnostics of tokenizer (kept, omitted) and builder in source order.
pub(crate) fn finish<'a>(
    builder: TreeBuilder<'a>,
    tokenizer: (Vec<Diagnostic>, usize),
    len: usize,
) -> Parsed<'a> {
    let cap = builder.cap;
    let (document, list, at_end, omitted) = builder.finish_parts(len);
    let (diagnostics, dropped) = crate::order::merge(tokenizer.0, list, at_end, cap);
    Parsed {
        document,
        diagnostics,
        omitted_diagnostics: tokenizer.1 + omitted + dropped,
    }
}
