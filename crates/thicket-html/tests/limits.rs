//! `Options::limits`: each limit reports its code once where the standard's input would have
//! gone on, keeps what fits, leaves the rest of the output as it is without the limit, and does
//! all of that however the input is split. Diagnostics stay in source order.

use thicket_html::{ErrorCode, Options, Token, Tokenizer};
use thicket_input::{Limits, Span};
use thicket_testkit::{chunks, spans};

/// Tokens (adjacent text joined), diagnostics and the omitted count of `input` fed as `parts`.
fn run(parts: &[&str], limits: Limits) -> (Vec<Token<'static>>, Vec<(ErrorCode, Span)>, usize) {
    let input: String = parts.concat();
    let mut tok = Tokenizer::with_options(Options {
        limits,
        ..Options::default()
    });
    let mut out: Vec<Token<'static>> = Vec::new();
    let mut seen = Vec::new();
    let mut pull = |tok: &mut Tokenizer, out: &mut Vec<Token<'static>>| {
        while let Some(t) = tok.next_token() {
            seen.push(t.span());
            if let (
                Token::Text { text, span },
                Some(Token::Text {
                    text: last,
                    span: ls,
                }),
            ) = (&t, out.last_mut())
            {
                last.to_mut().push_str(text);
                ls.end = span.end;
                continue;
            }
            out.push(t.into_owned());
        }
    };
    for p in parts {
        tok.feed(p);
        pull(&mut tok, &mut out);
    }
    tok.finish();
    pull(&mut tok, &mut out);
    spans::check_tiling(&input, &seen).unwrap();
    let diags: Vec<(ErrorCode, Span)> =
        tok.diagnostics().iter().map(|d| (d.code, d.span)).collect();
    let starts: Vec<Span> = diags.iter().map(|d| d.1).collect();
    spans::check_ordered(&input, &starts).unwrap();
    (out, diags, tok.omitted_diagnostics())
}

/// `run` on `input` whole, after checking that char-by-char feeding and every two-way split
/// give the same.
fn run_all(input: &str, limits: Limits) -> (Vec<Token<'static>>, Vec<(ErrorCode, Span)>, usize) {
    let whole = run(&[input], limits);
    assert_eq!(
        run(&chunks::chars(input), limits),
        whole,
        "char by char: {input:?}"
    );
    for [a, b] in chunks::two_way_splits(input) {
        assert_eq!(
            run(&[a, b], limits),
            whole,
            "split at {}: {input:?}",
            a.len()
        );
    }
    whole
}

fn start_tag(t: &Token<'_>) -> Vec<(String, String)> {
    match t {
        Token::StartTag(tag) | Token::EndTag(tag) => {
            std::iter::once((tag.name.to_string(), String::new()))
                .chain(
                    tag.attributes
                        .iter()
                        .map(|a| (a.name.to_string(), a.value.to_string())),
                )
                .collect()
        }
        other => panic!("not a tag: {other:?}"),
    }
}

fn codes(d: &[(ErrorCode, Span)]) -> Vec<&'static str> {
    d.iter().map(|(c, _)| c.as_str()).collect()
}

fn pairs(v: &[(&str, &str)]) -> Vec<(String, String)> {
    v.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

#[test]
fn attribute_limit_drops_the_rest_once_per_tag() {
    let limits = Limits::none().with_max_attributes(2);
    let input = "<a x=1 y='2' z=\"3\" w v=5>t</a><b p q r s>";
    let (tokens, diags, _) = run_all(input, limits);
    assert_eq!(
        start_tag(&tokens[0]),
        pairs(&[("a", ""), ("x", "1"), ("y", "2")])
    );
    assert_eq!(
        start_tag(&tokens[3]),
        pairs(&[("b", ""), ("p", ""), ("q", "")])
    );
    // One per tag, at the first dropped attribute.
    assert_eq!(codes(&diags), ["attribute-limit", "attribute-limit"]);
    assert_eq!(&input[diags[0].1.start..diags[0].1.end], "z");
    assert_eq!(diags[1].1.start, input.find(" r").unwrap() + 1);
    // Everything else is as without the limit.
    let (all, none, _) = run_all(input, Limits::none());
    assert!(none.is_empty());
    assert_eq!(tokens[1..3], all[1..3]);
    assert_eq!(tokens[0].span(), all[0].span());
}

#[test]
fn attribute_limit_counts_duplicates_too() {
    let limits = Limits::none().with_max_attributes(2);
    // The second `x` is the second attribute (a duplicate, dropped as such); `y` is past the
    // limit, and so is the last `x` (no duplicate check past the limit).
    let (tokens, diags, _) = run_all("<a x x y x>", limits);
    assert_eq!(start_tag(&tokens[0]), pairs(&[("a", ""), ("x", "")]));
    assert_eq!(codes(&diags), ["duplicate-attribute", "attribute-limit"]);
    assert_eq!(diags[1].1, Span::new(7, 8));
    let (tokens, diags, _) = run_all("<a x y>", Limits::none().with_max_attributes(0));
    assert_eq!(start_tag(&tokens[0]), pairs(&[("a", "")]));
    assert_eq!(diags, [(ErrorCode::AttributeLimit, Span::new(3, 4))]);
}

#[test]
fn name_length_limit_cuts_tag_attribute_doctype_and_target_names() {
    let limits = Limits::none().with_max_name_len(3);
    let input = "<!DOCTYPE htmlx><ABCDEF bcdef=1 xyz=2><?abcdef x><p\u{e9}\u{e9}>";
    let (tokens, diags, _) = run_all(input, limits);
    let Token::Doctype(d) = &tokens[0] else {
        panic!("{:?}", tokens[0])
    };
    assert_eq!(d.name.as_deref(), Some("htm"));
    assert_eq!(
        start_tag(&tokens[1]),
        pairs(&[("abc", ""), ("bcd", "1"), ("xyz", "2")])
    );
    let Token::ProcessingInstruction { target, data, .. } = &tokens[2] else {
        panic!("{:?}", tokens[2])
    };
    assert_eq!((&**target, &**data), ("abc", "x"));
    // `é` is two bytes: `pé` fits, the second `é` does not.
    assert_eq!(start_tag(&tokens[3]), pairs(&[("p\u{e9}", "")]));
    assert_eq!(codes(&diags), ["name-length-limit"; 5]);
    let at: Vec<&str> = diags.iter().map(|(_, s)| &input[s.start..s.end]).collect();
    assert_eq!(at, ["l", "D", "e", "d", "\u{e9}"]);
    // The spans are those without the limit.
    let (all, _, _) = run_all(input, Limits::none());
    let spans_of = |t: &[Token<'_>]| t.iter().map(Token::span).collect::<Vec<_>>();
    assert_eq!(spans_of(&tokens), spans_of(&all));
}

#[test]
fn a_cut_target_is_still_checked_whole_for_xml() {
    let limits = Limits::none().with_max_name_len(2);
    let (tokens, diags, _) = run_all("<?xml-stylesheet a><?xmlx b>", limits);
    assert!(
        matches!(&tokens[0], Token::Comment { data, .. } if data == "?xm a"),
        "{:?}",
        tokens[0]
    );
    assert!(
        matches!(&tokens[1], Token::ProcessingInstruction { target, data, .. } if target == "xm" && data == "b"),
        "{:?}",
        tokens[1]
    );
    assert_eq!(
        codes(&diags),
        [
            "name-length-limit",
            "disallowed-processing-instruction-target",
            "name-length-limit"
        ]
    );
}

#[test]
fn value_length_limit_cuts_values_and_references() {
    let limits = Limits::none().with_max_value_len(3);
    let input = "<a b=\"abcdef\" c=xyzw d='&amp;&amp;&amp;&amp;' e=\"a\0bc\" f=ok>";
    let (tokens, diags, _) = run_all(input, limits);
    assert_eq!(
        start_tag(&tokens[0]),
        pairs(&[
            ("a", ""),
            ("b", "abc"),
            ("c", "xyz"),
            ("d", "&&&"),
            // U+FFFD is three bytes: it does not fit after `a`.
            ("e", "a"),
            ("f", "ok")
        ])
    );
    assert_eq!(
        codes(&diags),
        [
            "value-length-limit",
            "value-length-limit",
            "value-length-limit",
            "unexpected-null-character",
            "value-length-limit"
        ]
    );
    let at: Vec<&str> = diags.iter().map(|(_, s)| &input[s.start..s.end]).collect();
    assert_eq!(at, ["d", "w", "&amp;", "\0", "\0"]);
}

#[test]
fn limit_diagnostics_come_in_source_order() {
    // The scan reports the control characters of the whole run before the cut is found.
    let input = "<a b=\"ab\u{1}cd\u{2}e\">";
    let (tokens, diags, _) = run_all(input, Limits::none().with_max_value_len(1));
    assert_eq!(start_tag(&tokens[0]), pairs(&[("a", ""), ("b", "a")]));
    assert_eq!(
        codes(&diags),
        [
            "value-length-limit",
            "control-character-in-input-stream",
            "control-character-in-input-stream"
        ]
    );
    // With the diagnostics capped at one, the limit's (first in the input) is the one kept.
    let limits = Limits::none().with_max_value_len(1).with_max_diagnostics(1);
    let (_, diags, omitted) = run_all(input, limits);
    assert_eq!(codes(&diags), ["value-length-limit"]);
    assert_eq!(omitted, 2);
}

#[test]
fn diagnostics_cap_counts_the_rest() {
    let input = "<<<<<<<<<<";
    let (tokens, all, _) = run_all(input, Limits::none());
    assert_eq!(all.len(), 10);
    let (capped_tokens, kept, omitted) = run_all(input, Limits::none().with_max_diagnostics(3));
    assert_eq!(kept, all[..3]);
    assert_eq!(omitted, 7);
    assert_eq!(tokens, capped_tokens);
}

#[test]
fn limits_do_not_change_text_comments_or_what_fits() {
    let input = "<!DOCTYPE html><p class=x id='y'>a &amp; b<!-- c --><?pi d>e</p>";
    let tight = Limits::none()
        .with_max_attributes(2)
        .with_max_name_len(5)
        .with_max_value_len(1)
        .with_max_diagnostics(10);
    assert_eq!(run_all(input, tight), run_all(input, Limits::none()));
    assert_eq!(
        run_all(input, Limits::untrusted()),
        run_all(input, Limits::none())
    );
}

fn comment(t: &Token<'_>) -> String {
    match t {
        Token::Comment { data, .. } => data.to_string(),
        other => panic!("not a comment: {other:?}"),
    }
}

#[test]
fn token_length_limit_cuts_comments_and_bogus_comments() {
    let limits = Limits::none().with_max_token_len(4);
    // The data keeps its first 4 bytes; the limit is reported at the first dropped character;
    // the token's span still covers all of it, and what follows is untouched.
    let (tokens, diags, _) = run_all("<!--0123456789--><p>", limits);
    assert_eq!(comment(&tokens[0]), "0123");
    assert_eq!(tokens[0].span(), Span::new(0, 17));
    assert!(matches!(&tokens[1], Token::StartTag(t) if t.name == "p"));
    assert_eq!(diags, [(ErrorCode::TokenLengthLimit, Span::new(8, 9))]);
    // Exactly the limit: nothing is cut.
    let (tokens, diags, _) = run_all("<!--0123-->", limits);
    assert_eq!((comment(&tokens[0]), diags.len()), ("0123".to_owned(), 0));
    // A bogus comment, a CDATA section outside foreign content and an unclosed comment.
    let (tokens, diags, _) = run_all("<!x123456>", limits);
    assert_eq!(comment(&tokens[0]), "x123");
    assert_eq!(
        codes(&diags),
        ["incorrectly-opened-comment", "token-length-limit"]
    );
    assert_eq!(diags[1].1, Span::new(6, 7));
    let (tokens, diags, _) = run_all("</ 0123456>", limits);
    assert_eq!(comment(&tokens[0]), " 012");
    assert!(codes(&diags).contains(&"token-length-limit"));
    let (tokens, diags, _) = run_all("<![CDATA[x]]>", limits);
    assert_eq!(comment(&tokens[0]), "[CDA");
    assert!(codes(&diags).contains(&"token-length-limit"));
    let (tokens, diags, _) = run_all("<!--01--23-4\r\n56", limits);
    assert_eq!(comment(&tokens[0]), "01--");
    assert_eq!(
        codes(&diags),
        ["token-length-limit", "eof-in-comment"],
        "{diags:?}"
    );
    // A replacement that does not fit is dropped whole (cut at a character boundary).
    let (tokens, diags, _) = run_all("<!--ab\0cd-->", Limits::none().with_max_token_len(3));
    assert_eq!(comment(&tokens[0]), "ab");
    assert_eq!(
        codes(&diags),
        ["unexpected-null-character", "token-length-limit"]
    );
    assert_eq!(diags[1].1, Span::new(6, 7));
}

/// A comment cut by the limit is not held: the rest is read and dropped as it comes.
#[test]
fn a_cut_comment_is_not_held() {
    const CHUNK: usize = 16 << 10;
    let mut tok = Tokenizer::with_options(Options {
        limits: Limits::none().with_max_token_len(1 << 10),
        ..Options::default()
    });
    tok.feed("<!--");
    let block = "comment text -- ".repeat(CHUNK / 16);
    let mut held = 0;
    for _ in 0..256 {
        tok.feed(&block);
        held = held.max(tok.buffered());
        assert!(tok.next_token().is_none());
    }
    tok.feed("-->");
    tok.finish();
    let t = tok.next_token().expect("the comment");
    assert_eq!(comment(&t).len(), 1 << 10);
    assert_eq!(t.span().len(), 4 + 256 * block.len() + 3);
    assert!(held < 4 * CHUNK, "{held} bytes held");
}

#[test]
fn token_length_limit_cuts_processing_instruction_data() {
    let limits = Limits::none().with_max_token_len(4);
    let (tokens, diags, _) = run_all("<?t 0123456789?><p>", limits);
    match &tokens[0] {
        Token::ProcessingInstruction { target, data, span } => {
            assert_eq!((&**target, &**data), ("t", "0123"));
            assert_eq!(*span, Span::new(0, 16));
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(&tokens[1], Token::StartTag(t) if t.name == "p"));
    assert_eq!(diags, [(ErrorCode::TokenLengthLimit, Span::new(8, 9))]);
    let (tokens, diags, _) = run_all("<?t 01?2?3\r\n?>", limits);
    assert!(matches!(&tokens[0], Token::ProcessingInstruction { data, .. } if data == "01?2"));
    assert_eq!(codes(&diags), ["token-length-limit"]);
}
