//! Lazy tokenizing (`Options::lazy`) against the full tokenizer: on every xml5lib tokenizer
//! case (both profiles) and every XML corpus file, whole, at random splits and (the suite and
//! the smaller files) a character at a time, through `next_token`, `next_lent_token` and `next_lent_item`, with
//! four `Lazy` settings. The same token kinds, spans, names; the strings asked for equal and
//! those not asked for empty; text runs tile the same spans (a lazy run is cut by fewer
//! diagnostics). With everything asked for, the tokens and diagnostics are the full ones
//! exactly.

use std::borrow::Cow;

use thicket_testkit::suites::xml5lib;
use thicket_xml5::{AttributesOf, Lazy, LentItem, Options, Profile, Token, TokenKind, Tokenizer};

/// How the tokens are pulled.
#[derive(Clone, Copy, Debug)]
enum Pull {
    Token,
    LentToken,
    /// `next_lent_item`, plain tags turned into their tokens.
    LentItem,
    /// `next_lent_item` with `set_skipped_text_tokens(false)`.
    LentItemSkipping,
}

/// The tokens of `chunks` (one chunk: a whole-`&str` tokenizer; more: a streaming one), lent or
/// owned, and the diagnostic codes.
fn tokens(
    chunks: &[&str],
    options: &Options,
    how: Pull,
) -> (Vec<Token<'static>>, Vec<thicket_xml5::Diagnostic>) {
    let mut out = Vec::new();
    let pull = |t: &mut Tokenizer<'_>, out: &mut Vec<Token<'static>>| match how {
        Pull::LentToken => {
            while let Some(tok) = t.next_lent_token() {
                out.push(tok.into_owned());
            }
        }
        Pull::LentItem | Pull::LentItemSkipping => {
            while let Some(item) = t.next_lent_item() {
                let tok = match item {
                    LentItem::Token(tok) => tok,
                    LentItem::Tag(tag) => tag.to_token(),
                };
                out.push(tok.into_owned());
            }
        }
        Pull::Token => {
            while let Some(tok) = t.next_token() {
                out.push(tok.into_owned());
            }
        }
    };
    let mut t = match chunks {
        [whole] => Tokenizer::with_options(whole, options.clone()),
        _ => Tokenizer::streaming(options.clone()),
    };
    if let Pull::LentItemSkipping = how {
        t.set_skipped_text_tokens(false);
    }
    if chunks.len() > 1 {
        for c in chunks {
            t.feed(c);
            pull(&mut t, &mut out);
        }
        t.finish();
    }
    pull(&mut t, &mut out);
    (out, t.take_diagnostics())
}

/// What `lazy` keeps of a full token.
fn expected(mut token: Token<'static>, lazy: &Lazy) -> Token<'static> {
    let empty = || Cow::Borrowed("");
    match &mut token.kind {
        TokenKind::StartTag { name, attributes } | TokenKind::EmptyTag { name, attributes } => {
            let keep = match &lazy.attributes {
                AttributesOf::None => false,
                AttributesOf::All => true,
                AttributesOf::Tags(names) => names.iter().any(|n| n == name),
            };
            if !keep {
                attributes.clear();
            }
        }
        TokenKind::Text(t) if !lazy.text => *t = empty(),
        TokenKind::Comment(c) if !lazy.comments => *c = empty(),
        TokenKind::Pi { target, data } if !lazy.processing_instructions => {
            *target = empty();
            *data = empty();
        }
        TokenKind::Doctype {
            name,
            public_id,
            system_id,
        } if !lazy.doctypes => {
            *name = None;
            *public_id = None;
            *system_id = None;
        }
        _ => {}
    }
    token
}

/// Adjacent text tokens merged (their spans must touch).
fn merged(tokens: Vec<Token<'static>>) -> Vec<Token<'static>> {
    let mut out: Vec<Token<'static>> = Vec::new();
    for t in tokens {
        if let (
            Some(Token {
                kind: TokenKind::Text(prev),
                span: prev_span,
            }),
            TokenKind::Text(next),
        ) = (out.last_mut(), &t.kind)
        {
            assert_eq!(prev_span.end, t.span.start, "text pieces must touch");
            prev.to_mut().push_str(next);
            prev_span.end = t.span.end;
            continue;
        }
        out.push(t);
    }
    out
}

/// The four settings: nothing, everything, the rewriter's `[id]` (every tag's attributes, no
/// text), and some tags' attributes with comments and PIs.
fn settings() -> Vec<Lazy> {
    vec![
        Lazy::default(),
        Lazy {
            text: true,
            comments: true,
            processing_instructions: true,
            doctypes: true,
            attributes: AttributesOf::All,
        },
        Lazy {
            attributes: AttributesOf::All,
            ..Lazy::default()
        },
        Lazy {
            comments: true,
            processing_instructions: true,
            attributes: AttributesOf::tags(["a", "b", "player", "item", "svg:rect", "x"]),
            ..Lazy::default()
        },
    ]
}

/// `input` cut at `n` pseudo-random char boundaries (a fixed seed).
fn random_splits(input: &str, n: usize, seed: u64) -> Vec<&str> {
    let mut state = seed | 1;
    let mut cuts: Vec<usize> = (0..n)
        .filter(|_| !input.is_empty())
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let mut at = (state % input.len() as u64) as usize;
            while !input.is_char_boundary(at) {
                at += 1;
            }
            at
        })
        .collect();
    cuts.push(0);
    cuts.push(input.len());
    cuts.sort_unstable();
    cuts.dedup();
    cuts.windows(2).map(|w| &input[w[0]..w[1]]).collect()
}

fn same(input: &str, profile: Profile, by_char: bool, what: &str) {
    let mut splits = vec![
        ("whole", vec![input]),
        ("random", random_splits(input, 40, input.len() as u64)),
    ];
    if by_char {
        splits.push(("char by char", thicket_testkit::chunks::chars(input)));
    }
    let full = Options::with_profile(profile);
    for lazy in settings() {
        let everything = lazy.text && lazy.comments && lazy.attributes == AttributesOf::All;
        let options = Options {
            lazy: Some(lazy.clone()),
            ..Options::with_profile(profile)
        };
        for (how, chunks) in &splits {
            for lent in [Pull::Token, Pull::LentToken, Pull::LentItem] {
                let (want, want_codes) = tokens(chunks, &full, lent);
                let (got, got_codes) = tokens(chunks, &options, lent);
                if everything {
                    assert!(
                        want == got && want_codes == got_codes,
                        "{what}: {how}, lent {lent:?}, {lazy:?}: differs from the full tokenizer"
                    );
                    continue;
                }
                let want = merged(want.into_iter().map(|t| expected(t, &lazy)).collect());
                let got = merged(got);
                assert!(
                    want == got,
                    "{what}: {how}, lent {lent:?}, {lazy:?}: differs from the full tokenizer"
                );
            }
            // Skipped text runs: the same tokens, some text tokens left out.
            let (want, want_codes) = tokens(chunks, &options, Pull::LentItem);
            let (got, got_codes) = tokens(chunks, &options, Pull::LentItemSkipping);
            let is_text = |t: &&Token<'_>| matches!(t.kind, TokenKind::Text(_));
            let mut rest = want.iter();
            assert!(
                got.iter().all(|g| rest.any(|w| w == g))
                    && want
                        .iter()
                        .filter(|t| !is_text(t))
                        .eq(got.iter().filter(|t| !is_text(t)))
                    && (lazy.text || got.len() <= want.len())
                    && (!lazy.text || got == want)
                    && want_codes == got_codes,
                "{what}: {how}, {lazy:?}: skipped text tokens differ from the others"
            );
        }
    }
}

#[test]
fn every_xml5lib_tokenizer_case() {
    let dir = thicket_testkit::suite_root().join("xml5lib-tests/tokenizer");
    let Ok(tests) = xml5lib::read_tokenizer_dir(&dir) else {
        eprintln!("xml5lib-tests missing, skipped");
        return;
    };
    assert!(!tests.is_empty());
    for test in &tests {
        for profile in [Profile::Draft, Profile::Compatibility] {
            same(&test.input, profile, true, &test.name());
        }
    }
}

#[test]
fn every_corpus_file() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/xml");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("corpus missing, skipped");
        return;
    };
    let mut read = 0;
    for entry in entries.flatten() {
        let Ok(text) = std::fs::read_to_string(entry.path()) else {
            continue;
        };
        read += 1;
        let name = entry.file_name().to_string_lossy().into_owned();
        same(&text, Profile::Draft, text.len() <= 1 << 14, &name);
    }
    assert!(read > 0, "corpus present but unreadable");
}

/// Text not asked for is not built, but its span is exact; a text handler switched on between
/// tokens gets the text from the next token on.
#[test]
fn text_switched_between_tokens() {
    let lazy = Lazy {
        attributes: AttributesOf::All,
        ..Lazy::default()
    };
    let options = Options {
        lazy: Some(lazy),
        ..Options::default()
    };
    let mut t = Tokenizer::streaming(options);
    t.feed("<a id='1'>x &amp; y<b>z &lt;</b></a>");
    t.finish();
    let mut seen = Vec::new();
    while let Some(token) = t.next_lent_token() {
        let name = match &token.kind {
            TokenKind::StartTag { name, attributes } => {
                format!("<{name} {}>", attributes.len())
            }
            TokenKind::EndTag { name } => format!("</{name}>"),
            TokenKind::Text(s) => format!("{s:?} {:?}", token.span),
            other => format!("{other:?}"),
        };
        let open_b = name == "<b 0>";
        seen.push(name);
        if open_b {
            t.set_lazy_text(true);
        }
    }
    assert_eq!(
        seen,
        [
            "<a 1>",
            "\"\" 10..19",
            "<b 0>",
            "\"z <\" 22..28",
            "</b>",
            "</a>",
            "Eof"
        ]
    );
}
