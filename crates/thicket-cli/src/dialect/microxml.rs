//! MicroXML: error recovery (the spec's options) with validity diagnostics.

use std::io;

use thicket_input::Limits;
use thicket_microxml::{Checker, ElementRef, NodeRef, Options, Parsed, Token};

use super::{CliError, Piece, Sink, Sniff, StreamView, drive_text};
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
            Token::Comment { data, .. } => write!(f, "Comment {}", Quoted(data))?,
            Token::ProcessingInstruction { text, .. } => {
                write!(f, "ProcessingInstruction {}", Quoted(text))?
            }
            Token::Doctype { name, .. } => write!(f, "Doctype {}", Quoted(name))?,
            Token::Discarded { .. } => f.write_str("Discarded")?,
        }
        write!(f, " {}", self.0.span())
    }
}

/// Streams tokens, or checks the document. `thicket_microxml::Checker` gives the tokens and
/// every diagnostic of the parser (tokenizer and tree construction: tag matching, roots,
/// duplicate attributes) in source order as they are released; no tree is built, so memory is
/// bounded by the open elements.
pub fn stream(
    src: &mut Source,
    view: StreamView,
    limits: Limits,
    sink: &mut Sink<'_>,
) -> Result<(), CliError> {
    let lines = view == StreamView::Tokens;
    let mut checker = Checker::new(options(limits));
    drive_text(src, Sniff::Xml, sink, |piece, sink| {
        match piece {
            Piece::Text(t) => checker.feed(t),
            Piece::End => checker.finish(),
        }
        while let Some(token) = checker.next_token() {
            if lines {
                sink.line(format_args!("{}", TokenLine(&token)))?;
            }
        }
        for d in checker.take_diagnostics() {
            sink.diag(Diag::from_diagnostic(&d))?;
        }
        if matches!(piece, Piece::End) {
            sink.counted(checker.omitted_diagnostics());
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
        attributes.extend(e.attributes().map(|a| Attr {
            namespace: None,
            name: a.name(),
            value: a.value(),
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
            Some(NodeRef::Text(t)) => visit(&Item::Text(t.as_str()))?,
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

    #[test]
    fn discarded_input_has_a_line() {
        let mut tok = thicket_microxml::Tokenizer::new(Options::default());
        tok.feed("<!-- c --><r/>");
        tok.finish();
        let first = tok.next_token().expect("a token");
        assert_eq!(token_line(&first), "Discarded 0..10");
    }
}
