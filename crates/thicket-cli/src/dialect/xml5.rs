//! XML5: the draft's tokenizer and tree builder (draft profile).

use std::borrow::Cow;
use std::fmt::Write as _;

use thicket_xml5::{Document, Event, NodeData, Options, Token, TokenKind, Tokenizer, TreeBuilder};

use super::{CliError, Parsed, Piece, Sink, Sniff, StreamView, drive_text};
use crate::outline::{Attr, Item, quote};
use crate::render::Diag;
use crate::source::Source;

/// One line for a token: `StartTag doc a="1" 0..11`.
pub fn token_line(token: &Token<'_>) -> String {
    let mut line = String::new();
    match &token.kind {
        TokenKind::StartTag { name, attributes } | TokenKind::EmptyTag { name, attributes } => {
            let kind = if matches!(token.kind, TokenKind::StartTag { .. }) {
                "StartTag"
            } else {
                "EmptyTag"
            };
            let _ = write!(line, "{kind} {name}");
            for a in attributes {
                let _ = write!(line, " {}={}", a.name, quote(&a.value));
            }
        }
        TokenKind::EndTag { name } => {
            let _ = write!(line, "EndTag {name}");
        }
        TokenKind::ShortEndTag => line.push_str("ShortEndTag"),
        TokenKind::Text(t) => {
            let _ = write!(line, "Text {}", quote(t));
        }
        TokenKind::Comment(c) => {
            let _ = write!(line, "Comment {}", quote(c));
        }
        TokenKind::Pi { target, data } => {
            let _ = write!(line, "Pi {target} {}", quote(data));
        }
        TokenKind::XmlDeclaration {
            version,
            encoding,
            standalone,
        } => {
            line.push_str("XmlDeclaration");
            for (key, value) in [
                ("version", version),
                ("encoding", encoding),
                ("standalone", standalone),
            ] {
                if let Some(v) = value {
                    let _ = write!(line, " {key}={}", quote(v));
                }
            }
        }
        TokenKind::Doctype {
            name,
            public_id,
            system_id,
        } => {
            line.push_str("Doctype");
            if let Some(n) = name {
                let _ = write!(line, " {n}");
            }
            if let Some(p) = public_id {
                let _ = write!(line, " public={}", quote(p));
            }
            if let Some(s) = system_id {
                let _ = write!(line, " system={}", quote(s));
            }
        }
        TokenKind::Eof => line.push_str("Eof"),
    }
    let _ = write!(line, " {}", token.span);
    line
}

/// The same token with its character data shrunk to what the tree builder's diagnostics depend
/// on (whitespace or not), so checking a large document keeps no text.
fn compact(token: Token<'static>) -> Token<'static> {
    let kind = match token.kind {
        TokenKind::Text(t) => {
            let blank = t.chars().all(|c| matches!(c, ' ' | '\t' | '\n' | '\r'));
            TokenKind::Text(Cow::Borrowed(if blank { " " } else { "x" }))
        }
        TokenKind::Comment(_) => TokenKind::Comment(Cow::Borrowed("")),
        TokenKind::Pi { target, .. } => TokenKind::Pi {
            target,
            data: Cow::Borrowed(""),
        },
        kind => kind,
    };
    Token {
        kind,
        span: token.span,
    }
}

/// Streams tokens or events (with the tokenizer's errors), or checks the document (tokenizer
/// and tree builder errors; the builder sees the tokens with their text shrunk, so it keeps one
/// small node per element).
pub fn stream(src: &mut Source, view: StreamView, sink: &mut Sink<'_>) -> Result<(), CliError> {
    let mut tok = Tokenizer::streaming(Options::default());
    // Only `check` runs the tree builder (its errors: end tags, namespaces, roots), since it
    // keeps a node per element; `--tokens` and `--events` stay in bounded memory.
    let mut builder = (view == StreamView::Check).then(TreeBuilder::new);
    let mut reported = 0;
    drive_text(src, Sniff::Xml, sink, |piece, sink| {
        match piece {
            Piece::Text(t) => tok.feed(t),
            Piece::End => tok.finish(),
        }
        while let Some(event) = tok.next_event() {
            match event {
                Event::Token(token) => {
                    if sink.wants_lines() {
                        sink.line(format_args!("{}", token_line(&token)))?;
                    }
                    if let Some(b) = builder.as_mut() {
                        b.process(compact(token));
                        for d in &b.diagnostics()[reported..] {
                            sink.diag(Diag::from_diagnostic(d))?;
                        }
                        reported = b.diagnostics().len();
                    }
                }
                Event::Diagnostic(d) => {
                    if view == StreamView::Events {
                        sink.line(format_args!("error[{}] {}", d.code.as_str(), d.span))?;
                    }
                    sink.diag(Diag::from_diagnostic(&d))?;
                }
            }
        }
        Ok(())
    })
}

/// Parses a whole document into its tree.
pub fn parse(bytes: &[u8]) -> Parsed {
    let text = Sniff::Xml.decode(bytes);
    let (doc, diagnostics) = thicket_xml5::parse(&text, Options::default());
    let mut diags: Vec<Diag> = diagnostics.iter().map(Diag::from_diagnostic).collect();
    // Tree builder errors come when a token ends; show everything in source order.
    diags.sort_by_key(|d| d.span.start);
    Parsed {
        tree: Some(items(&doc)),
        text,
        tokens: None,
        tokens_json: None,
        diags,
    }
}

/// The document in document order, without recursion.
fn items(doc: &Document) -> Vec<Item> {
    let mut out = Vec::with_capacity(doc.len());
    if let Some(decl) = &doc.xml_declaration {
        let mut data = String::new();
        for (key, value) in [
            ("version", &decl.version),
            ("encoding", &decl.encoding),
            ("standalone", &decl.standalone),
        ] {
            if let Some(v) = value {
                if !data.is_empty() {
                    data.push(' ');
                }
                let _ = write!(data, "{key}={}", quote(v));
            }
        }
        out.push(Item::Pi {
            target: "xml".to_owned(),
            data,
        });
    }
    // (node, whether its children were already pushed)
    let mut stack: Vec<(thicket_xml5::NodeId, bool)> = doc
        .children(doc.root())
        .iter()
        .rev()
        .map(|&c| (c, false))
        .collect();
    while let Some((id, closing)) = stack.pop() {
        if closing {
            out.push(Item::Close);
            continue;
        }
        match doc.data(id) {
            NodeData::Document => {}
            NodeData::Element(e) => {
                out.push(Item::Open {
                    namespace: e.namespace.clone(),
                    name: e.qualified_name(),
                    attributes: e
                        .attributes
                        .iter()
                        .map(|a| Attr {
                            namespace: a.namespace.clone(),
                            name: a.qualified_name(),
                            value: a.value.clone(),
                        })
                        .collect(),
                });
                stack.push((id, true));
                stack.extend(doc.children(id).iter().rev().map(|&c| (c, false)));
            }
            NodeData::Text(t) => out.push(Item::Text(t.clone())),
            NodeData::Comment(c) => out.push(Item::Comment(c.clone())),
            NodeData::Pi { target, data } => out.push(Item::Pi {
                target: target.clone(),
                data: data.clone(),
            }),
            NodeData::Doctype {
                name,
                public_id,
                system_id,
            } => out.push(Item::Doctype {
                name: name.clone(),
                public_id: public_id.clone(),
                system_id: system_id.clone(),
            }),
        }
    }
    out
}
