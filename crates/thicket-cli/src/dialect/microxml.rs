//! MicroXML: error recovery (the spec's options) with validity diagnostics.

use std::collections::HashSet;
use std::io;

use thicket_input::{Limits, Span};
use thicket_microxml::{
    Diagnostic, ElementRef, ErrorCode, NodeRef, Options, Parsed, Token, Tokenizer, validity,
};

use super::{CliError, Piece, Sink, Sniff, StreamView, drive_text};
use crate::open::OpenElements;
use crate::outline::{Attr, Item, Quoted, Visit};
use crate::render::Diag;
use crate::source::Source;

/// The spec's options with `limits`.
fn options(limits: Limits) -> Options {
    Options {
        limits,
        ..Options::default()
    }
}

/// One line for a token: `StartTagOpen doc 0..4`.
pub fn token_line(token: &Token<'_>) -> String {
    TokenLine(token).to_string()
}

/// A token's line, displayed without copying its text (a `Data` token can be megabytes).
#[derive(Clone, Copy, Debug)]
pub struct TokenLine<'a, 't>(pub &'a Token<'t>);

impl std::fmt::Display for TokenLine<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Token::StartTagOpen { name, .. } => write!(f, "StartTagOpen {name}")?,
            Token::AttributeName { name, .. } => write!(f, "AttributeName {name}")?,
            Token::StartTagClose { .. } => f.write_str("StartTagClose")?,
            Token::EmptyElementTagClose { .. } => f.write_str("EmptyElementTagClose")?,
            Token::EndTag { name, .. } => write!(f, "EndTag {name}")?,
            Token::Data { text, .. } => write!(f, "Data {}", Quoted(text))?,
            Token::CharRef { text, .. } => write!(f, "CharRef {}", Quoted(text))?,
        }
        write!(f, " {}", self.0.span())
    }
}

/// The tree builder's diagnostics without the tree: the open element names and the current
/// tag's attribute names are all it keeps, so memory is bounded by the nesting depth and not by
/// the document size. It mirrors `thicket_microxml::TreeBuilder` code for code (a unit test
/// compares the two).
#[derive(Default)]
struct Structure {
    /// The start-tag being read: its name, span and attribute names.
    tag: Option<(String, Span, HashSet<String>)>,
    /// Open elements (their spans are not kept: only the outermost's is ever reported).
    stack: OpenElements<()>,
    /// The start-tag span of the outermost open element.
    outermost: Span,
    top_elements: usize,
    diagnostics: Vec<Diagnostic>,
}

impl Structure {
    fn push(&mut self, token: &Token<'_>) {
        match token {
            Token::StartTagOpen { name, span } => {
                self.tag = Some((name.to_string(), *span, HashSet::new()));
            }
            Token::AttributeName { name, span } => {
                if let Some((_, _, names)) = &mut self.tag
                    && !names.insert(name.to_string())
                {
                    self.error(ErrorCode::DuplicateAttribute, *span);
                }
            }
            Token::StartTagClose { .. } => {
                if let Some((name, span, _)) = self.tag.take() {
                    self.open(&name, span);
                }
            }
            Token::EmptyElementTagClose { .. } => {
                if let Some((_, span, _)) = self.tag.take() {
                    self.append_element(span);
                }
            }
            Token::EndTag { name, span } => self.end_tag(name, *span),
            Token::Data { text, span } => {
                if self.tag.is_none()
                    && self.stack.is_empty()
                    && text.chars().any(|c| !validity::is_s(c))
                {
                    self.error(ErrorCode::TextOutsideRoot, *span);
                }
            }
            Token::CharRef { span, .. } => {
                if self.tag.is_none() && self.stack.is_empty() {
                    self.error(ErrorCode::TextOutsideRoot, *span);
                }
            }
        }
    }

    #[cold]
    fn error(&mut self, code: ErrorCode, span: Span) {
        self.diagnostics.push(Diagnostic::new(code, span));
    }

    fn end_tag(&mut self, name: &str, span: Span) {
        if self.stack.last_name() == Some(name) {
            self.pop();
            return;
        }
        if !self.stack.is_open(name) {
            self.error(ErrorCode::StrayEndTag, span);
            return;
        }
        self.error(ErrorCode::MismatchedEndTag, span);
        while let Some(n) = self.stack.last_name() {
            let done = n == name;
            self.pop();
            if done {
                break;
            }
        }
    }

    fn open(&mut self, name: &str, span: Span) {
        if self.stack.is_empty() {
            self.outermost = span;
        }
        self.stack.push(name, ());
    }

    /// Closes the current element (appending it, as the tree builder does: only an outermost
    /// element's span can be reported).
    fn pop(&mut self) {
        if self.stack.pop().is_some() {
            self.append_element(self.outermost);
        }
    }

    fn append_element(&mut self, span: Span) {
        if self.stack.is_empty() {
            self.top_elements += 1;
            if self.top_elements == 2 {
                self.error(ErrorCode::MultipleRootElements, span);
            }
        }
    }

    fn finish(&mut self, end: usize) {
        if let Some((name, span, _)) = self.tag.take() {
            self.open(&name, span);
        }
        if !self.stack.is_empty() {
            self.error(ErrorCode::UnclosedElement, self.outermost);
        }
        while !self.stack.is_empty() {
            self.pop();
        }
        if self.top_elements == 0 {
            self.error(ErrorCode::NoRootElement, Span::empty(end));
        }
    }
}

/// Streams tokens, or checks the document. The tokenizer's diagnostics and those of tree
/// construction (tag matching, roots, duplicate attributes) come as they are found; no tree is
/// built, so memory stays bounded.
pub fn stream(
    src: &mut Source,
    view: StreamView,
    limits: Limits,
    sink: &mut Sink<'_>,
) -> Result<(), CliError> {
    let lines = view == StreamView::Tokens;
    let mut tok = Tokenizer::new(options(limits));
    let mut structure = Structure::default();
    drive_text(src, Sniff::Xml, sink, |piece, sink| {
        let end = sink.window.end();
        match piece {
            Piece::Text(t) => tok.feed(t),
            Piece::End => tok.finish(),
        }
        while let Some(token) = tok.next_token() {
            if lines {
                sink.line(format_args!("{}", TokenLine(&token)))?;
            }
            structure.push(&token);
        }
        if let Piece::End = piece {
            structure.finish(end);
        }
        let mut diags = tok.take_diagnostics();
        diags.append(&mut structure.diagnostics);
        diags.sort_by_key(|d| (d.span.start, d.span.end, d.code));
        for d in diags {
            sink.diag(Diag::from_diagnostic(&d))?;
        }
        Ok(())
    })
}

/// Parses a whole document into its tree (borrowing the text).
pub fn parse(text: &str, limits: Limits) -> Parsed<'_> {
    thicket_microxml::parse_with(text, options(limits))
}

/// Walks the tree in document order, without recursion.
pub fn walk<'d, 'a>(root: ElementRef<'d, 'a>, visit: &mut Visit<'_>) -> io::Result<()> {
    let mut attributes = Vec::new();
    let mut open = |e: &ElementRef<'d, 'a>, visit: &mut Visit<'_>| {
        attributes.clear();
        attributes.extend(e.attributes().map(|(name, value)| Attr {
            namespace: None,
            name,
            value,
        }));
        visit(&Item::Open {
            namespace: None,
            name: e.name(),
            attributes: &attributes,
        })
    };
    open(&root, visit)?;
    // Each open element's remaining children; an exhausted iterator closes its element.
    let mut stack = vec![root.children()];
    while let Some(children) = stack.last_mut() {
        match children.next() {
            None => {
                stack.pop();
                visit(&Item::Close)?;
            }
            Some(NodeRef::Text(t)) => visit(&Item::Text(t))?,
            Some(NodeRef::Element(e)) => {
                open(&e, visit)?;
                stack.push(e.children());
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The structure checker and the tokenizer together report exactly what the parser does.
    #[test]
    fn structure_agrees_with_the_tree_builder() {
        let inputs = [
            "<doc>text</doc>",
            "<a><b></a></b>",
            "</x><a/><b/>text &amp; <c>",
            "  <a x='1' x='2' y=3>&#x41;</a>  &lt; ",
            "",
            "just text",
            "<a><a><b></a>x</a></a>",
            "<a b='<'>",
            "<a",
            "<?pi?><!-- c --><r/>\n",
            "<p>one<b>two</p>\n<q a=1>&nbsp;</q></doc>",
        ];
        for input in inputs {
            let mut expected = thicket_microxml::parse(input).diagnostics;
            let mut tok = Tokenizer::new(Options::default());
            let mut structure = Structure::default();
            for c in input.chars() {
                tok.feed(c.encode_utf8(&mut [0; 4]));
                while let Some(t) = tok.next_token() {
                    structure.push(&t);
                }
            }
            tok.finish();
            while let Some(t) = tok.next_token() {
                structure.push(&t);
            }
            structure.finish(input.len());
            let mut got = tok.take_diagnostics();
            got.append(&mut structure.diagnostics);
            got.sort_by_key(|d| (d.span.start, d.span.end, d.code));
            expected.sort_by_key(|d| (d.span.start, d.span.end, d.code));
            assert_eq!(got, expected, "{input:?}");
        }
    }
}
