//! HTML: the WHATWG tokenizer. Thicket has no HTML tree builder, so the document view is the
//! token list.

use std::fmt::Write as _;
use std::io;

use thicket_html::{Diagnostic, Options, Token, Tokenizer};
use thicket_input::{Diagnostics, Limits};

use super::{CliError, Piece, Sink, Sniff, StreamView, drive_text};
use crate::outline::{json_opt, json_str, quote};
use crate::render::Diag;
use crate::source::{CHUNK, Source};
use thicket_input::render::floor_char_boundary;

/// A tokenizer that switches to RCDATA, RAWTEXT, script data and PLAINTEXT after the start tags
/// that do so, as a tree builder would (there is none here).
fn tokenizer(limits: Limits) -> Tokenizer {
    Tokenizer::with_options(Options {
        switch_by_tag_name: true,
        limits,
        ..Options::default()
    })
}

/// One line for a token: `StartTag p class="x" 0..11`.
pub fn token_line(token: &Token<'_>) -> String {
    let mut line = String::new();
    match token {
        Token::Doctype(d) => {
            line.push_str("Doctype");
            if let Some(n) = &d.name {
                let _ = write!(line, " {n}");
            }
            if let Some(p) = &d.public_id {
                let _ = write!(line, " public={}", quote(p));
            }
            if let Some(s) = &d.system_id {
                let _ = write!(line, " system={}", quote(s));
            }
            if d.force_quirks {
                line.push_str(" force-quirks");
            }
        }
        Token::StartTag(t) | Token::EndTag(t) => {
            let kind = if matches!(token, Token::StartTag(_)) {
                "StartTag"
            } else {
                "EndTag"
            };
            let _ = write!(line, "{kind} {}", t.name);
            for a in &t.attributes {
                let _ = write!(line, " {}={}", a.name, quote(&a.value));
            }
            if t.self_closing {
                line.push_str(" self-closing");
            }
        }
        Token::Comment { data, .. } => {
            let _ = write!(line, "Comment {}", quote(data));
        }
        Token::ProcessingInstruction { target, data, .. } => {
            let _ = write!(line, "Pi {target} {}", quote(data));
        }
        Token::Text { text, .. } => {
            let _ = write!(line, "Text {}", quote(text));
        }
        Token::Discarded { .. } => line.push_str("Discarded"),
        Token::Eof { .. } => line.push_str("Eof"),
    }
    let _ = write!(line, " {}", token.span());
    line
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
    let mut tok = tokenizer(limits);
    drive_text(src, Sniff::Whatwg, sink, |piece, sink| {
        match piece {
            Piece::Text(t) => tok.feed(t),
            Piece::End => tok.finish(),
        }
        while let Some(token) = tok.next_token() {
            if sink.wants_lines() {
                sink.line(format_args!("{}", token_line(&token)))?;
            }
        }
        for d in tok.take_diagnostics() {
            sink.diag(Diag::from_diagnostic(&d))?;
        }
        Ok(())
    })
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
