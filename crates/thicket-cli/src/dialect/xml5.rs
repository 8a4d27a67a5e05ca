//! XML5: the draft's tokenizer and tree builder (draft profile).

use std::borrow::Cow;
use std::io;

use thicket_input::Limits;
use thicket_xml5::{
    Document, Event, NodeData, Options, Parsed, Parser, Token, TokenKind, Tokenizer,
};

use super::{CliError, Piece, Sink, Sniff, StreamView, drive_text};
use crate::outline::{Attr, Item, Quoted, Visit, declaration_data, write_quoted};
use crate::render::Diag;
use crate::source::Source;

/// The draft profile with `limits`.
fn options(limits: Limits) -> Options {
    Options {
        limits,
        ..Options::default()
    }
}

/// One line for a token: `StartTag doc a="1" 0..11`.
pub fn token_line(token: &Token<'_>) -> String {
    TokenLine(token).to_string()
}

/// A token's line, displayed without copying its text (a text token can be megabytes).
#[derive(Clone, Copy, Debug)]
pub struct TokenLine<'a, 't>(pub &'a Token<'t>);

impl std::fmt::Display for TokenLine<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let token = self.0;
        match &token.kind {
            TokenKind::StartTag { name, attributes } | TokenKind::EmptyTag { name, attributes } => {
                let kind = if matches!(token.kind, TokenKind::StartTag { .. }) {
                    "StartTag"
                } else {
                    "EmptyTag"
                };
                write!(f, "{kind} {name}")?;
                for a in attributes {
                    write!(f, " {}={}", a.name, Quoted(&a.value))?;
                }
            }
            TokenKind::EndTag { name } => write!(f, "EndTag {name}")?,
            TokenKind::ShortEndTag => f.write_str("ShortEndTag")?,
            TokenKind::Text(t) => {
                // The most frequent line (one per `<` of an error soup): plain writes, no
                // `write!` to parse.
                f.write_str("Text ")?;
                std::fmt::Display::fmt(&Quoted(t), f)?;
            }
            TokenKind::Comment(c) => write!(f, "Comment {}", Quoted(c))?,
            TokenKind::Pi { target, data } => write!(f, "Pi {target} {}", Quoted(data))?,
            TokenKind::XmlDeclaration {
                version,
                encoding,
                standalone,
            } => {
                f.write_str("XmlDeclaration")?;
                for (key, value) in [
                    ("version", version),
                    ("encoding", encoding),
                    ("standalone", standalone),
                ] {
                    if let Some(v) = value {
                        write!(f, " {key}={}", Quoted(v))?;
                    }
                }
            }
            TokenKind::Doctype {
                name,
                public_id,
                system_id,
            } => {
                f.write_str("Doctype")?;
                if let Some(n) = name {
                    write!(f, " {n}")?;
                }
                if let Some(p) = public_id {
                    write!(f, " public={}", Quoted(p))?;
                }
                if let Some(s) = system_id {
                    write!(f, " system={}", Quoted(s))?;
                }
            }
            TokenKind::Discarded => f.write_str("Discarded")?,
            TokenKind::Eof => f.write_str("Eof")?,
        }
        f.write_str(" ")?;
        std::fmt::Display::fmt(&token.span, f)
    }
}

impl TokenLine<'_, '_> {
    /// Appends the line and its line break to `out`: text (nearly every line of an error
    /// soup such as 1 MB of `<`) as bytes, other tokens through [`std::fmt::Display`].
    fn write_line(&self, out: &mut Vec<u8>) {
        let token = self.0;
        if let TokenKind::Text(t) = &token.kind {
            match t.as_ref() {
                // The pieces of an error soup (1 MB of `<`, `</` repeated): a line a byte or
                // two, each written in one piece.
                "<" => out.extend_from_slice(b"Text \"<\""),
                "</" => out.extend_from_slice(b"Text \"</\""),
                _ => {
                    out.extend_from_slice(b"Text ");
                    // Writing to a `Vec` cannot fail.
                    let _ = write_quoted(out, t);
                }
            }
            out.push(b' ');
            token.span.write_into(out);
        } else {
            use std::io::Write as _;
            let _ = write!(out, "{self}");
        }
        out.push(b'\n');
    }
}

/// The `--events` line of a parse error: `error[code] start..end`.
#[derive(Clone, Copy, Debug)]
struct ErrorLine<'a>(&'a thicket_xml5::Diagnostic);

impl std::fmt::Display for ErrorLine<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("error[")?;
        f.write_str(self.0.code.as_str())?;
        f.write_str("] ")?;
        std::fmt::Display::fmt(&self.0.span, f)
    }
}

impl ErrorLine<'_> {
    /// Appends the line (as displayed) and its line break to `out`, as bytes.
    fn write_line(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(b"error[");
        out.extend_from_slice(self.0.code.as_str().as_bytes());
        out.extend_from_slice(b"] ");
        self.0.span.write_into(out);
        out.push(b'\n');
    }
}

/// How many bytes of lines [`stream`] builds before it writes them.
const LINES_BUFFERED: usize = 8 << 10;

/// Streams tokens or events (with the tokenizer's errors), or checks the document (tokenizer
/// and tree builder errors, in memory bounded by the open elements: `Parser::without_tree`).
pub fn stream(
    src: &mut Source,
    view: StreamView,
    limits: Limits,
    sink: &mut Sink<'_>,
) -> Result<(), CliError> {
    if view == StreamView::Check {
        return check(src, limits, sink);
    }
    let mut tok = Tokenizer::streaming(options(limits));
    // The lines are built here as bytes and written some kilobytes at a time (the sink's
    // output is buffered too: this spares a call through it per line of an error soup).
    let mut lines = Vec::new();
    drive_text(src, Sniff::Xml, sink, |piece, sink| {
        match piece {
            Piece::Text(t) => tok.feed(t),
            Piece::End => tok.finish(),
        }
        // Lent: the tokens borrow the tokenizer's buffer until the next call.
        while let Some(event) = tok.next_lent_event() {
            match event {
                Event::Token(token) => {
                    if sink.wants_lines() {
                        TokenLine(&token).write_line(&mut lines);
                    }
                    if let TokenKind::Text(Cow::Borrowed(_)) = token.kind {
                        // It owns nothing: forgotten, it costs no call to `Token`'s drop
                        // (one a byte of an error soup such as 1 MB of `<`).
                        std::mem::forget(token);
                    }
                }
                Event::Diagnostic(d) => {
                    if view == StreamView::Events {
                        ErrorLine(&d).write_line(&mut lines);
                    }
                    sink.diag_lazy(d.span.start, || Diag::from_diagnostic(&d))?;
                }
            }
            if lines.len() >= LINES_BUFFERED {
                sink.line_bytes(&lines)?;
                lines.clear();
            }
        }
        sink.line_bytes(&lines)?;
        lines.clear();
        if matches!(piece, Piece::End) {
            sink.counted(tok.omitted_diagnostics());
        }
        Ok(())
    })
}

/// Checks the document: the tokenizer's and the tree builder's diagnostics, handed out in source
/// order as they settle, without building a tree.
fn check(src: &mut Source, limits: Limits, sink: &mut Sink<'_>) -> Result<(), CliError> {
    let mut parser = Some(Parser::without_tree(options(limits)));
    drive_text(src, Sniff::Xml, sink, |piece, sink| {
        let diagnostics = match piece {
            Piece::Text(t) => {
                let p = parser.as_mut().expect("fed before the end");
                p.feed(t);
                p.take_diagnostics()
            }
            Piece::End => {
                let parsed = parser.take().expect("ended once").finish();
                sink.counted(parsed.omitted_diagnostics);
                parsed.diagnostics
            }
        };
        for d in &diagnostics {
            sink.diag(Diag::from_diagnostic(d))?;
        }
        Ok(())
    })
}

/// Parses a whole document into its tree (borrowing the text).
pub fn parse(text: &str, limits: Limits) -> Parsed<'_> {
    thicket_xml5::parse_with(text, options(limits))
}

/// Walks the document in document order, without recursion: the XML declaration as a
/// processing instruction, then the nodes.
pub fn walk(doc: &Document<'_>, visit: &mut Visit<'_>) -> io::Result<()> {
    if let Some(decl) = &doc.xml_declaration {
        let data = declaration_data(&[
            ("version", decl.version.as_deref()),
            ("encoding", decl.encoding.as_deref()),
            ("standalone", decl.standalone.as_deref()),
        ]);
        visit(&Item::Pi {
            target: "xml",
            data: &data,
        })?;
    }
    let mut attributes = Vec::new();
    // The remaining children of each open element (the document's first).
    let mut stack = vec![doc.children(doc.root()).iter()];
    while let Some(children) = stack.last_mut() {
        let Some(&id) = children.next() else {
            stack.pop();
            if !stack.is_empty() {
                visit(&Item::Close)?;
            }
            continue;
        };
        match doc.data(id) {
            NodeData::Document => {}
            NodeData::Element(e) => {
                let name = e.qualified_name();
                attributes.clear();
                attributes.extend(doc.attributes(id).map(|a| Attr {
                    namespace: a.namespace(),
                    name: a.qualified_name(),
                    value: a.value(),
                }));
                visit(&Item::Open {
                    namespace: e.namespace.as_deref(),
                    name: &name,
                    attributes: &attributes,
                })?;
                stack.push(doc.children(id).iter());
            }
            NodeData::Text(t) => visit(&Item::Text(&t))?,
            NodeData::Comment(c) => visit(&Item::Comment(&c))?,
            NodeData::Pi { target, data } => visit(&Item::Pi {
                target: &target,
                data: &data,
            })?,
            NodeData::Doctype {
                name,
                public_id,
                system_id,
            } => visit(&Item::Doctype {
                name: name.as_deref(),
                public_id: public_id.as_deref(),
                system_id: system_id.as_deref(),
            })?,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discarded_input_has_a_line() {
        let mut tok = Tokenizer::with_options("\u{feff}<a/>", Options::default());
        let first = tok.next_token().expect("a token");
        assert_eq!(token_line(&first), "Discarded 0..3");
    }
}
