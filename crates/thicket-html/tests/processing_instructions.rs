//! The 2026 processing instructions, one test per rule of the tag open state's `?` branch and
//! states 13.2.5.72 to 13.2.5.76 (the suites `html-pi-tokenizer` and
//! `wpt-processing-instructions` cover the rest), the option that turns them off, and the
//! consumers that show them: the byte tokenizer and the tag-name switching mode.

use std::borrow::Cow;

use thicket_html::{ByteTokenizer, ErrorCode, Options, State, Token, Tokenizer};
use thicket_input::Span;

/// Tokens (owned) and diagnostics of `input`, fed whole.
fn tokens(input: &str, options: Options) -> (Vec<Token<'static>>, Vec<(ErrorCode, Span)>) {
    let mut tok = Tokenizer::with_options(options);
    tok.feed(input);
    tok.finish();
    let mut out = Vec::new();
    while let Some(t) = tok.next_token() {
        out.push(t.into_owned());
    }
    let d = tok.diagnostics().iter().map(|d| (d.code, d.span)).collect();
    (out, d)
}

fn pi(target: &str, data: &str, span: std::ops::Range<usize>) -> Token<'static> {
    Token::ProcessingInstruction {
        target: Cow::Owned(target.into()),
        data: Cow::Owned(data.into()),
        span: Span::new(span.start, span.end),
    }
}

fn comment(data: &str, span: std::ops::Range<usize>) -> Token<'static> {
    Token::Comment {
        data: Cow::Owned(data.into()),
        span: Span::new(span.start, span.end),
    }
}

fn eof(at: usize) -> Token<'static> {
    Token::Eof {
        span: Span::empty(at),
    }
}

#[test]
fn a_processing_instruction_is_one_token_from_lt_to_gt() {
    let (t, d) = tokens("<?php echo 1 ?>", Options::default());
    assert_eq!(t, [pi("php", "echo 1 ", 0..15), eof(15)]);
    assert!(d.is_empty());
}

#[test]
fn target_and_data_borrow_from_the_input_when_unchanged() {
    let mut tok = Tokenizer::new();
    tok.feed("<?target some data?>");
    tok.finish();
    let Some(Token::ProcessingInstruction { target, data, .. }) = tok.next_token() else {
        panic!("a processing instruction")
    };
    assert!(matches!(target, Cow::Borrowed("target")));
    assert!(matches!(data, Cow::Borrowed("some data")));
}

#[test]
fn the_target_keeps_its_case() {
    let (t, _) = tokens("<?XmlFoo A>", Options::default());
    assert_eq!(t[0], pi("XmlFoo", "A", 0..11));
}

#[test]
fn xml_and_xml_stylesheet_in_any_case_are_bogus_comments() {
    for input in ["<?xml version=\"1.0\"?>", "<?XML-StyleSheet href=a?>"] {
        let (t, d) = tokens(input, Options::default());
        assert_eq!(t[0], comment(&input[1..input.len() - 1], 0..input.len()));
        let gt = input.find(' ').unwrap();
        assert_eq!(
            d,
            [(
                ErrorCode::DisallowedProcessingInstructionTarget,
                Span::new(gt, gt + 1)
            )]
        );
    }
}

#[test]
fn an_invalid_first_character_makes_a_bogus_comment() {
    let (t, d) = tokens("<?1a>", Options::default());
    assert_eq!(t[0], comment("?1a", 0..5));
    assert_eq!(
        d,
        [(
            ErrorCode::InvalidFirstCharacterOfProcessingInstructionTarget,
            Span::new(2, 3)
        )]
    );
}

#[test]
fn an_invalid_target_character_makes_a_bogus_comment() {
    let (t, d) = tokens("<?a:b c>", Options::default());
    assert_eq!(t[0], comment("?a:b c", 0..8));
    assert_eq!(
        d,
        [(
            ErrorCode::InvalidProcessingInstructionTarget,
            Span::new(3, 4)
        )]
    );
}

#[test]
fn eof_drops_the_processing_instruction_and_keeps_its_span() {
    for input in ["<?", "<?t", "<?t ", "<?t d", "<?t d?"] {
        let (t, d) = tokens(input, Options::default());
        let n = input.len();
        assert_eq!(
            t,
            [
                Token::Discarded {
                    span: Span::new(0, n)
                },
                eof(n)
            ],
            "{input}"
        );
        assert_eq!(
            d,
            [(ErrorCode::EofInProcessingInstruction, Span::empty(n))],
            "{input}"
        );
    }
}

#[test]
fn a_question_mark_not_before_gt_is_data() {
    let (t, _) = tokens("<?t?d??>x", Options::default());
    assert_eq!(t[0], pi("t", "?d?", 0..8));
}

#[test]
fn gt_always_closes_and_nul_and_newlines_are_data() {
    let (t, d) = tokens("<?t a\0b\r\nc > d?>", Options::default());
    assert_eq!(t[0], pi("t", "a\0b\nc ", 0..12));
    assert!(matches!(&t[1], Token::Text { text, .. } if text == " d?>"));
    assert!(d.is_empty());
}

#[test]
fn legacy_option_reads_question_mark_as_a_bogus_comment() {
    let legacy = Options {
        legacy_processing_instructions: true,
        ..Options::default()
    };
    let (t, d) = tokens("<?php echo 1 ?>", legacy);
    assert_eq!(t[0], comment("?php echo 1 ?", 0..15));
    assert_eq!(
        d,
        [(
            ErrorCode::UnexpectedQuestionMarkInsteadOfTagName,
            Span::new(1, 2)
        )]
    );
    assert!(!Options::default().legacy_processing_instructions);
}

#[test]
fn raw_text_elements_keep_question_marks_as_text() {
    let switching = Options {
        switch_by_tag_name: true,
        ..Options::default()
    };
    let (t, _) = tokens("<script><?x></script><?y>", switching);
    assert!(matches!(&t[1], Token::Text { text, .. } if text == "<?x>"));
    assert_eq!(t[3], pi("y", "", 21..25));
    // A tree builder switching the state between tokens gets the same.
    let mut tok = Tokenizer::new();
    tok.feed("<title><?x></title>");
    tok.finish();
    assert!(matches!(tok.next_token(), Some(Token::StartTag(_))));
    tok.set_state(State::Rcdata);
    tok.set_last_start_tag(Some("title"));
    assert!(matches!(tok.next_token(), Some(Token::Text { text, .. }) if text == "<?x>"));
}

#[test]
fn the_byte_tokenizer_shows_processing_instructions() {
    for chunk in [1, 3, 4096] {
        let mut tok = ByteTokenizer::new(Some("utf-8"), Options::default());
        let bytes = "<?t caf\u{e9}>".as_bytes();
        let mut out = Vec::new();
        for c in bytes.chunks(chunk) {
            tok.feed(c);
            while let Some(t) = tok.next_token() {
                out.push(t.into_owned());
            }
        }
        tok.finish();
        while let Some(t) = tok.next_token() {
            out.push(t.into_owned());
        }
        assert_eq!(
            out,
            [pi("t", "caf\u{e9}", 0..10), eof(10)],
            "chunks of {chunk}"
        );
    }
}
