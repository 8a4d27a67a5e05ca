//! HTML: the WHATWG tokenizer. Thicket has no HTML tree builder, so the document view is the
//! token list.

use std::fmt::Write as _;

use thicket_html::{Options, Token, Tokenizer};

use super::{CliError, Parsed, Piece, Sink, Sniff, StreamView, drive_text};
use crate::outline::{json_opt, json_str, quote};
use crate::render::Diag;
use crate::source::Source;

/// A tokenizer that switches to RCDATA, RAWTEXT, script data and PLAINTEXT after the start tags
/// that do so, as a tree builder would (there is none here).
fn tokenizer() -> Tokenizer {
    Tokenizer::with_options(Options {
        switch_by_tag_name: true,
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
pub fn stream(src: &mut Source, view: StreamView, sink: &mut Sink<'_>) -> Result<(), CliError> {
    // `--events` is not offered for html (see `super::supports`); any view streams tokens.
    let _ = view;
    let mut tok = tokenizer();
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

/// Tokenizes a whole document.
pub fn parse(bytes: &[u8]) -> Parsed {
    let text = Sniff::Whatwg.decode(bytes);
    let mut tok = tokenizer();
    tok.feed(&text);
    tok.finish();
    let mut lines = Vec::new();
    let mut json = Vec::new();
    while let Some(token) = tok.next_token() {
        lines.push(token_line(&token));
        json.push(token_json(&token));
    }
    let diags = tok
        .take_diagnostics()
        .iter()
        .map(Diag::from_diagnostic)
        .collect();
    Parsed {
        text,
        tree: None,
        tokens: Some(lines),
        tokens_json: Some(json),
        diags,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn processing_instructions_print_as_pi() {
        let parsed = parse(b"<?xml-stylesheet a?><?pi x=\"1\"?>");
        let tokens = parsed.tokens.expect("token lines");
        assert_eq!(tokens[0], "Comment \"?xml-stylesheet a?\" 0..20");
        assert_eq!(tokens[1], "Pi pi \"x=\\\"1\\\"\" 20..32");
        let json = parsed.tokens_json.expect("token objects");
        assert_eq!(
            json[1],
            r#"{"type":"pi","target":"pi","data":"x=\"1\"","start":20,"end":32}"#
        );
    }
}
