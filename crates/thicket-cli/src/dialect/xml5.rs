//! XML5: the draft's tokenizer and tree builder (draft profile).

use std::borrow::Cow;
use std::io;

use thicket_input::{Limits, Span};
use thicket_xml5::{
    Attribute, Diagnostic, Document, Event, NodeData, Options, Token, TokenKind, Tokenizer,
    TreeBuilder,
};

use super::{CliError, Piece, Sink, Sniff, StreamView, drive_text};
use crate::open::OpenElements;
use crate::outline::{Attr, Item, Quoted, Visit, declaration_data};
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
            TokenKind::Text(t) => write!(f, "Text {}", Quoted(t))?,
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
            TokenKind::Eof => f.write_str("Eof")?,
        }
        write!(f, " {}", token.span)
    }
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
    /// The open elements.
    open: OpenElements<()>,
    /// The namespace declarations of the open elements that have some: the element's index in
    /// `open`, and its `xmlns` and `xmlns:*` attributes.
    declarations: Vec<(usize, Vec<Attribute<'static>>)>,
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
            open: OpenElements::default(),
            declarations: Vec::new(),
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
                let declarations: Vec<Attribute<'static>> = attributes
                    .iter()
                    .filter(|a| a.name == "xmlns" || a.name.starts_with("xmlns:"))
                    .cloned()
                    .collect();
                if !declarations.is_empty() {
                    self.declarations.push((self.open.len(), declarations));
                }
                self.open.push(name, ());
                self.phase = Phase::Main;
            }
            (Phase::Start, TokenKind::EmptyTag { .. }) => self.phase = Phase::End,
            (Phase::Main, TokenKind::EndTag { name }) => {
                if self.open.is_open(name) {
                    loop {
                        let done = self.open.last_name().is_none_or(|n| n == name);
                        self.pop();
                        if done {
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

    fn pop(&mut self) {
        self.open.pop();
        if self
            .declarations
            .last()
            .is_some_and(|(i, _)| *i >= self.open.len())
        {
            self.declarations.pop();
        }
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
                let mut declarations = self.declarations.iter().peekable();
                for (i, (name, ())) in self.open.iter().enumerate() {
                    let attributes = declarations
                        .next_if(|(at, _)| *at == i)
                        .map_or_else(Vec::new, |(_, d)| d.clone());
                    process(
                        &mut builder,
                        token(TokenKind::StartTag {
                            name: Cow::Owned(name.to_owned()),
                            attributes,
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
/// and tree builder errors, in bounded memory: see `Checker`).
pub fn stream(
    src: &mut Source,
    view: StreamView,
    limits: Limits,
    sink: &mut Sink<'_>,
) -> Result<(), CliError> {
    let mut tok = Tokenizer::streaming(options(limits));
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
                        sink.line(format_args!("{}", TokenLine(&token)))?;
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

/// Parses a whole document into its tree (borrowing the text).
pub fn parse(text: &str, limits: Limits) -> (Document<'_>, Vec<Diagnostic>) {
    thicket_xml5::parse(text, options(limits))
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
            "<a><b xmlns:p='urn:p'><c><p:d/></c></b><p:e/></a>",
            "<a xmlns:p='u'><b><c xmlns:q='v'></b><q:x/><p:y/><d xmlns:q='w'><q:z/></></a>",
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
