//! XML5: the draft's tokenizer and tree builder (draft profile).

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Write as _;

use thicket_input::Span;
use thicket_xml5::{
    Attribute, Document, Event, NodeData, Options, Token, TokenKind, Tokenizer, TreeBuilder,
};

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

/// The tree builder's phases, followed from the tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Start,
    Main,
    End,
    Stopped,
}

/// Tree-construction diagnostics in bounded memory. `thicket_xml5::TreeBuilder` keeps a node
/// per element; this runs one and, every so many tokens, replaces it with a fresh builder brought
/// to the same state by replaying the open start tags (with their namespace declarations), so
/// only the open elements are ever kept. Diagnostics of the replay are dropped (they were
/// reported the first time). A unit test checks that restarting after every token gives the
/// builder's own diagnostics.
struct Checker<B> {
    builder: B,
    /// The builder's operations, as function pointers so that this type does not name the
    /// builder's own type (and its lifetime parameters).
    ops: BuilderOps<B>,
    /// Diagnostics of `builder` already handed out.
    reported: usize,
    phase: Phase,
    /// The open elements: name and namespace-declaration attributes.
    open: Vec<(String, Vec<Attribute<'static>>)>,
    /// How many open elements have each name.
    open_names: HashMap<String, usize>,
    doctype_seen: bool,
    since_restart: usize,
    /// Restart after this many tokens (or twice the open elements, when more).
    restart_after: usize,
}

/// What [`Checker`] needs of a tree builder.
struct BuilderOps<B> {
    new: fn() -> B,
    process: fn(&mut B, Token<'static>),
    diagnostics: fn(&B) -> &[thicket_xml5::Diagnostic],
}

/// A checker around `thicket_xml5::TreeBuilder`.
fn checker(restart_after: usize) -> Checker<impl Sized> {
    let builder = TreeBuilder::new();
    let ops = BuilderOps {
        new: TreeBuilder::new,
        process: |b, t| b.process(t),
        diagnostics: |b| b.diagnostics(),
    };
    Checker::new(builder, ops, restart_after)
}

impl<B> Checker<B> {
    fn new(builder: B, ops: BuilderOps<B>, restart_after: usize) -> Checker<B> {
        Checker {
            builder,
            ops,
            reported: 0,
            phase: Phase::Start,
            open: Vec::new(),
            open_names: HashMap::new(),
            doctype_seen: false,
            since_restart: 0,
            restart_after,
        }
    }

    /// Processes a token; returns the new diagnostics.
    fn process(&mut self, token: Token<'static>) -> &[thicket_xml5::Diagnostic] {
        if self.since_restart >= self.restart_after.max(2 * self.open.len()) {
            self.restart();
        }
        self.since_restart += 1;
        self.follow(&token);
        (self.ops.process)(&mut self.builder, compact(token));
        let new = &(self.ops.diagnostics)(&self.builder)[self.reported..];
        self.reported += new.len();
        new
    }

    /// Tracks the phase and the open elements as the builder does.
    fn follow(&mut self, token: &Token<'static>) {
        match (self.phase, &token.kind) {
            (Phase::Stopped, _) => {}
            (_, TokenKind::Eof) => self.phase = Phase::Stopped,
            (Phase::Start, TokenKind::Doctype { .. }) => self.doctype_seen = true,
            (Phase::Start | Phase::Main, TokenKind::StartTag { name, attributes }) => {
                let declarations = attributes
                    .iter()
                    .filter(|a| a.name == "xmlns" || a.name.starts_with("xmlns:"))
                    .cloned()
                    .collect();
                *self.open_names.entry(name.to_string()).or_insert(0) += 1;
                self.open.push((name.to_string(), declarations));
                self.phase = Phase::Main;
            }
            (Phase::Start, TokenKind::EmptyTag { .. }) => self.phase = Phase::End,
            (Phase::Main, TokenKind::EndTag { name }) => {
                if self.open_names.get(name.as_ref()).copied().unwrap_or(0) > 0 {
                    while let Some(popped) = self.pop() {
                        if popped == *name {
                            break;
                        }
                    }
                }
                if self.open.is_empty() {
                    self.phase = Phase::End;
                }
            }
            (Phase::Main, TokenKind::ShortEndTag) => {
                self.pop();
                if self.open.is_empty() {
                    self.phase = Phase::End;
                }
            }
            _ => {}
        }
    }

    fn pop(&mut self) -> Option<String> {
        let (name, _) = self.open.pop()?;
        if let Some(n) = self.open_names.get_mut(&name) {
            *n -= 1;
            if *n == 0 {
                self.open_names.remove(&name);
            }
        }
        Some(name)
    }

    /// A fresh builder in the state of the current one, without its nodes.
    fn restart(&mut self) {
        self.since_restart = 0;
        let mut builder = (self.ops.new)();
        let process = self.ops.process;
        let at = Span::empty(0);
        let token = |kind| Token { kind, span: at };
        match self.phase {
            Phase::Start if self.doctype_seen => process(
                &mut builder,
                token(TokenKind::Doctype {
                    name: None,
                    public_id: None,
                    system_id: None,
                }),
            ),
            Phase::Start => process(&mut builder, token(TokenKind::Comment(Cow::Borrowed("")))),
            Phase::Main => {
                for (name, declarations) in &self.open {
                    process(
                        &mut builder,
                        token(TokenKind::StartTag {
                            name: Cow::Owned(name.clone()),
                            attributes: declarations.clone(),
                        }),
                    );
                }
            }
            Phase::End => process(
                &mut builder,
                token(TokenKind::EmptyTag {
                    name: Cow::Borrowed("r"),
                    attributes: Vec::new(),
                }),
            ),
            Phase::Stopped => return,
        }
        self.reported = (self.ops.diagnostics)(&builder).len();
        self.builder = builder;
    }
}

/// Tokens between two restarts of the checking tree builder.
const RESTART_AFTER: usize = 1 << 13;

/// Streams tokens or events (with the tokenizer's errors), or checks the document (tokenizer
/// and tree builder errors, in bounded memory: see [`Checker`]).
pub fn stream(src: &mut Source, view: StreamView, sink: &mut Sink<'_>) -> Result<(), CliError> {
    let mut tok = Tokenizer::streaming(Options::default());
    // Only `check` runs the tree builder (its errors: end tags, namespaces, roots).
    let mut checker = (view == StreamView::Check).then(|| checker(RESTART_AFTER));
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
                    if let Some(c) = checker.as_mut() {
                        for d in c.process(token) {
                            sink.diag(Diag::from_diagnostic(d))?;
                        }
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
                    namespace: e.namespace.as_deref().map(str::to_owned),
                    name: e.qualified_name(),
                    attributes: doc
                        .attributes(id)
                        .map(|a| Attr {
                            namespace: a.namespace().map(str::to_owned),
                            name: a.qualified_name().to_owned(),
                            value: a.value().to_owned(),
                        })
                        .collect(),
                });
                stack.push((id, true));
                stack.extend(doc.children(id).iter().rev().map(|&c| (c, false)));
            }
            NodeData::Text(t) => out.push(Item::Text(t.to_string())),
            NodeData::Comment(c) => out.push(Item::Comment(c.to_string())),
            NodeData::Pi { target, data } => out.push(Item::Pi {
                target: target.to_string(),
                data: data.to_string(),
            }),
            NodeData::Doctype {
                name,
                public_id,
                system_id,
            } => out.push(Item::Doctype {
                name: name.as_deref().map(str::to_owned),
                public_id: public_id.as_deref().map(str::to_owned),
                system_id: system_id.as_deref().map(str::to_owned),
            }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Restarting the checking builder after every token loses no diagnostic and adds none.
    #[test]
    fn restarts_keep_the_tree_builders_diagnostics() {
        let inputs = [
            "<doc>text</doc>",
            "<a><b></a></b>",
            "</x><a/><b/>text &amp; <c>",
            "<!DOCTYPE a><!DOCTYPE b><?xml version='1.0'?><a/>",
            "<?xml version='1.0'?><!-- c --><?xml version='1.0'?><r/>",
            "text before<r>x</r>text after<!DOCTYPE late>",
            "<x:doc xmlns:x='urn:x' xmlns='urn:d'><item x:id='1' kind='a'/><y:z/></x:doc>",
            "<a xmlns:p='urn:p'><b xmlns:p='urn:q'><p:c p:d='1'/></b><p:e/></a><p:f/>",
            "<a xmlns:xml='urn:wrong' xmlns:xmlns='urn:x' xmlns:p=''><p:b/></a>",
            "<a xmlns:p='urn:p' xmlns:q='urn:p'><b p:x='1' q:x='2'/></a>",
            "<a><b><c></>x</></></>more",
            "<a><b></c></a>",
            "",
            "<a",
        ];
        for input in inputs {
            let (_, expected) = thicket_xml5::parse(input, Options::default());
            let mut tok = Tokenizer::streaming(Options::default());
            tok.feed(input);
            tok.finish();
            let mut checker = checker(1);
            let mut got = Vec::new();
            while let Some(event) = tok.next_event() {
                match event {
                    Event::Token(t) => got.extend_from_slice(checker.process(t)),
                    Event::Diagnostic(d) => got.push(d),
                }
            }
            let mut expected = expected;
            expected.sort_by_key(|d| (d.span.start, d.span.end, d.code));
            got.sort_by_key(|d| (d.span.start, d.span.end, d.code));
            assert_eq!(got, expected, "{input:?}");
        }
    }
}
