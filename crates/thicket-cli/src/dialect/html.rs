//! HTML: the WHATWG tokenizer. Thicket has no HTML tree builder, so the document view is the
//! token list.

use std::fmt::Write as _;
use std::io;

use thicket_html::{ByteTokenizer, Diagnostic, Options, Token, Tokenizer};
use thicket_input::{Diagnostics, Limits};

use super::{CliError, Sink, StreamView};
use crate::outline::{Quoted, json_opt, json_str};
use crate::render::Diag;
use crate::source::{CHUNK, Source};
use thicket_input::render::floor_char_boundary;

/// The options of every pass: the library's document-level mode (switching to RCDATA, RAWTEXT,
/// script data and PLAINTEXT after the start tags that do so, SVG and MathML followed), as a
/// tree builder would (there is none here).
fn options(limits: Limits) -> Options {
    Options {
        limits,
        ..Options::document()
    }
}

fn tokenizer(limits: Limits) -> Tokenizer<'static> {
    Tokenizer::with_options(options(limits))
}

/// One line for a token: `StartTag p class="x" 0..11`.
pub fn token_line(token: &Token<'_>) -> String {
    TokenLine(token).to_string()
}

/// A token's line, displayed without copying its strings (a comment or text can be megabytes:
/// the streamed `--tokens` view writes it straight to the output).
#[derive(Clone, Copy, Debug)]
pub struct TokenLine<'a, 't>(pub &'a Token<'t>);

impl std::fmt::Display for TokenLine<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let token = self.0;
        match token {
            Token::Doctype(d) => {
                f.write_str("Doctype")?;
                if let Some(n) = &d.name {
                    write!(f, " {n}")?;
                }
                if let Some(p) = &d.public_id {
                    write!(f, " public={}", Quoted(p))?;
                }
                if let Some(s) = &d.system_id {
                    write!(f, " system={}", Quoted(s))?;
                }
                if d.force_quirks {
                    f.write_str(" force-quirks")?;
                }
            }
            Token::StartTag(t) | Token::EndTag(t) => {
                let kind = if matches!(token, Token::StartTag(_)) {
                    "StartTag"
                } else {
                    "EndTag"
                };
                write!(f, "{kind} {}", t.name)?;
                for a in &t.attributes {
                    write!(f, " {}={}", a.name, Quoted(&a.value))?;
                }
                if t.self_closing {
                    f.write_str(" self-closing")?;
                }
            }
            Token::Comment { data, .. } => write!(f, "Comment {}", Quoted(data))?,
            Token::ProcessingInstruction { target, data, .. } => {
                write!(f, "Pi {target} {}", Quoted(data))?;
            }
            Token::Text { text, .. } => write!(f, "Text {}", Quoted(text))?,
            Token::Discarded { .. } => f.write_str("Discarded")?,
            Token::Eof { .. } => f.write_str("Eof")?,
        }
        write!(f, " {}", token.span())
    }
}

/// A token as a JSON object (see docs/cli.md).
pub fn token_json(token: &Token<'_>) -> String {
    let mut out = String::new();
    match token {
        Token::Doctype(d) => {
            out.push_str(r#"{"type":"doctype","name":"#);
            json_opt(&mut out, d.name.as_deref());
            out.push_str(r#","public_id":"#);
            json_opt(&mut out, d.public_id.as_deref());
            out.push_str(r#","system_id":"#);
            json_opt(&mut out, d.system_id.as_deref());
            let _ = write!(out, r#","force_quirks":{}"#, d.force_quirks);
        }
        Token::StartTag(t) | Token::EndTag(t) => {
            let kind = if matches!(token, Token::StartTag(_)) {
                "start-tag"
            } else {
                "end-tag"
            };
            let _ = write!(out, r#"{{"type":"{kind}","name":"#);
            json_str(&mut out, &t.name);
            out.push_str(r#","attributes":["#);
            for (i, a) in t.attributes.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(r#"{"name":"#);
                json_str(&mut out, &a.name);
                out.push_str(r#","value":"#);
                json_str(&mut out, &a.value);
                out.push('}');
            }
            let _ = write!(out, r#"],"self_closing":{}"#, t.self_closing);
        }
        Token::Comment { data, .. } => {
            out.push_str(r#"{"type":"comment","data":"#);
            json_str(&mut out, data);
        }
        Token::ProcessingInstruction { target, data, .. } => {
            out.push_str(r#"{"type":"pi","target":"#);
            json_str(&mut out, target);
            out.push_str(r#","data":"#);
            json_str(&mut out, data);
        }
        Token::Text { text, .. } => {
            out.push_str(r#"{"type":"text","data":"#);
            json_str(&mut out, text);
        }
        Token::Discarded { .. } => out.push_str(r#"{"type":"discarded""#),
        Token::Eof { .. } => out.push_str(r#"{"type":"eof""#),
    }
    let span = token.span();
    let _ = write!(out, r#","start":{},"end":{}}}"#, span.start, span.end);
    out
}

/// Streams tokens (or only counts parse errors).
pub fn stream(
    src: &mut Source,
    view: StreamView,
    limits: Limits,
    sink: &mut Sink<'_>,
) -> Result<(), CliError> {
    // `--events` is not offered for html (see `super::supports`); any view streams tokens.
    let _ = view;
    // The library's own byte front end (sniffing with UTF-8 as the default, what `decode`
    // uses for whole documents too); the text each chunk decoded to goes to the window.
    let mut tok = ByteTokenizer::with_default_encoding(None, thicket_html::UTF_8, options(limits));
    let mut buf = Vec::new();
    loop {
        let more = src.next_chunk(&mut buf)?;
        let text = if more { tok.feed(&buf) } else { tok.finish() };
        if !text.is_empty() {
            sink.window.push(text);
        }
        while let Some(token) = tok.next_token() {
            if sink.wants_lines() {
                sink.line(format_args!("{}", TokenLine(&token)))?;
            }
        }
        for d in tok.tokenizer().take_diagnostics() {
            sink.diag(Diag::from_diagnostic(&d))?;
        }
        if !more {
            sink.counted(tok.tokenizer().omitted_diagnostics());
            src.done();
            return Ok(());
        }
    }
}

/// Decodes a whole document as the streaming pass does (the library's sniffing, UTF-8 as the
/// default).
pub fn decode(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    thicket_html::decode_bytes(bytes, None, thicket_html::UTF_8).0
}

/// Tokenizes a whole document held in memory, feeding it in pieces (the tokenizer keeps
/// unconsumed input in a buffer of its own: pieces keep that small), and calls `on_token` with
/// each token and `on_diags` with the diagnostics after each piece.
fn run(
    text: &str,
    limits: Limits,
    mut on_token: impl FnMut(&Token<'_>) -> io::Result<()>,
    mut on_diags: impl FnMut(Vec<Diagnostic>),
) -> io::Result<()> {
    // Diagnostics are drained after every piece: the caller caps them.
    let mut tok = tokenizer(super::streaming_limits(limits));
    let mut at = 0;
    loop {
        let done = at == text.len();
        if done {
            tok.finish();
        } else {
            let mut to = floor_char_boundary(text, at + CHUNK);
            if to == at {
                to = text.len();
            }
            tok.feed(&text[at..to]);
            at = to;
        }
        while let Some(token) = tok.next_token() {
            on_token(&token)?;
        }
        on_diags(tok.take_diagnostics());
        if done {
            return Ok(());
        }
    }
}

/// Calls `each` with every token of a whole document.
pub fn each_token(
    text: &str,
    limits: Limits,
    each: impl FnMut(&Token<'_>) -> io::Result<()>,
) -> io::Result<()> {
    run(text, limits, each, drop)
}

/// The parse errors of a whole document: the first `limits.max_diagnostics` and a count of the
/// rest.
pub fn diagnostics(text: &str, limits: Limits) -> (Vec<Diagnostic>, usize) {
    let mut kept = Diagnostics::new(limits.max_diagnostics);
    // Tokens go nowhere: this pass only counts errors.
    let _ = run(
        text,
        limits,
        |_| Ok(()),
        |diags| {
            for d in diags {
                kept.push(d);
            }
        },
    );
    kept.into_parts()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn processing_instructions_print_as_pi() {
        let mut lines = Vec::new();
        let mut json = Vec::new();
        each_token("<?xml-stylesheet a?><?pi x=\"1\"?>", Limits::none(), |t| {
            lines.push(token_line(t));
            json.push(token_json(t));
            Ok(())
        })
        .unwrap();
        assert_eq!(lines[0], "Comment \"?xml-stylesheet a?\" 0..20");
        assert_eq!(lines[1], "Pi pi \"x=\\\"1\\\"\" 20..32");
        assert_eq!(
            json[1],
            r#"{"type":"pi","target":"pi","data":"x=\"1\"","start":20,"end":32}"#
        );
    }
}
