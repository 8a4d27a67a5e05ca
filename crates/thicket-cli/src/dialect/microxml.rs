//! MicroXML: error recovery (the spec's options) with validity diagnostics.

use std::borrow::Cow;
use std::fmt::Write as _;

use thicket_microxml::{Element, Node, Options, Token, Tokenizer, TreeBuilder, validity};

use super::{CliError, Parsed, Piece, Sink, Sniff, StreamView, drive_text};
use crate::outline::{Attr, Item, quote};
use crate::render::Diag;
use crate::source::Source;

/// One line for a token: `StartTagOpen doc 0..4`.
pub fn token_line(token: &Token<'_>) -> String {
    let mut line = match token {
        Token::StartTagOpen { name, .. } => format!("StartTagOpen {name}"),
        Token::AttributeName { name, .. } => format!("AttributeName {name}"),
        Token::StartTagClose { .. } => "StartTagClose".to_owned(),
        Token::EmptyElementTagClose { .. } => "EmptyElementTagClose".to_owned(),
        Token::EndTag { name, .. } => format!("EndTag {name}"),
        Token::Data { text, .. } => format!("Data {}", quote(text)),
        Token::CharRef { text, .. } => format!("CharRef {}", quote(text)),
    };
    let _ = write!(line, " {}", token.span());
    line
}

/// The same token with its text shrunk to what the tree builder's diagnostics depend on
/// (whitespace or not), so checking a large document keeps no text.
fn compact(token: Token<'_>) -> Token<'static> {
    match token {
        Token::Data { text, span } => {
            let blank = text.chars().all(validity::is_s);
            Token::Data {
                text: Cow::Borrowed(if blank { " " } else { "x" }),
                span,
            }
        }
        Token::CharRef { span, .. } => Token::CharRef {
            text: Cow::Borrowed("x"),
            span,
        },
        other => other.into_owned(),
    }
}

/// Streams tokens (with the tokenizer's diagnostics), or checks the document (tokenizer and tree
/// builder diagnostics).
pub fn stream(src: &mut Source, view: StreamView, sink: &mut Sink<'_>) -> Result<(), CliError> {
    debug_assert!(view != StreamView::Events);
    let mut tok = Tokenizer::new(Options::default());
    let mut builder = (view == StreamView::Check).then(TreeBuilder::new);
    let mut tree_diags = Vec::new();
    drive_text(src, Sniff::Xml, sink, |piece, sink| {
        let end = sink.window.end();
        match piece {
            Piece::Text(t) => tok.feed(t),
            Piece::End => tok.finish(),
        }
        while let Some(token) = tok.next_token() {
            if sink.wants_lines() {
                sink.line(format_args!("{}", token_line(&token)))?;
            }
            if let Some(b) = builder.as_mut() {
                b.push(compact(token));
            }
        }
        for d in tok.take_diagnostics() {
            sink.diag(Diag::from_diagnostic(&d))?;
        }
        if let (Piece::End, Some(b)) = (piece, builder.take()) {
            let (_, diags) = b.finish(end);
            tree_diags = diags;
        }
        Ok(())
    })?;
    for d in &tree_diags {
        sink.diag(Diag::from_diagnostic(d))?;
    }
    Ok(())
}

/// Parses a whole document into its tree.
pub fn parse(bytes: &[u8]) -> Parsed {
    let text = Sniff::Xml.decode(bytes);
    let parsed = thicket_microxml::parse(&text);
    let diags = parsed
        .diagnostics
        .iter()
        .map(Diag::from_diagnostic)
        .collect();
    Parsed {
        tree: Some(items(&parsed.root)),
        text,
        tokens: None,
        tokens_json: None,
        diags,
    }
}

/// The tree in document order, without recursion.
fn items(root: &Element) -> Vec<Item> {
    enum Step<'a> {
        Node(&'a Node),
        Close,
    }
    fn open(e: &Element) -> Item {
        Item::Open {
            namespace: None,
            name: e.name.clone(),
            attributes: e
                .attributes
                .iter()
                .map(|a| Attr {
                    namespace: None,
                    name: a.name.clone(),
                    value: a.value.clone(),
                })
                .collect(),
        }
    }
    let mut out = vec![open(root)];
    let mut stack = vec![Step::Close];
    stack.extend(root.children.iter().rev().map(Step::Node));
    while let Some(step) = stack.pop() {
        match step {
            Step::Close => out.push(Item::Close),
            Step::Node(Node::Text(t)) => out.push(Item::Text(t.clone())),
            Step::Node(Node::Element(e)) => {
                out.push(open(e));
                stack.push(Step::Close);
                stack.extend(e.children.iter().rev().map(Step::Node));
            }
        }
    }
    out
}
