//! The lending API (`next_lent_token`, `next_lent_event`, `next_lent_item`) against the owned
//! one (`next_token`, `next_event`): the same tokens and diagnostics on every xml5lib tokenizer case (both
//! profiles) and every XML corpus file, fed whole, a character at a time and at random splits;
//! and the strings of plain markup borrowed from the buffer.

use std::borrow::Cow;

use thicket_testkit::suites::xml5lib;
use thicket_xml5::{Event, LentItem, Options, Profile, Token, TokenKind, Tokenizer};

/// Owned or lent, tokens or events.
#[derive(Clone, Copy, Debug)]
enum Api {
    Token,
    LentToken,
    Event,
    LentEvent,
    /// `next_lent_item`, plain tags turned into their tokens.
    LentItem,
}

/// Every event of `chunks` fed to a streaming tokenizer through `api` (tokens then the
/// diagnostics collected, for the token APIs), strings owned for comparison.
fn streamed(chunks: &[&str], profile: Profile, api: Api) -> Vec<Event<'static>> {
    let mut t = Tokenizer::streaming(Options::with_profile(profile));
    let mut out = Vec::new();
    for c in chunks {
        t.feed(c);
        pull(&mut t, api, &mut out);
    }
    t.finish();
    pull(&mut t, api, &mut out);
    out.extend(t.take_diagnostics().into_iter().map(Event::Diagnostic));
    out
}

fn pull(t: &mut Tokenizer<'_>, api: Api, out: &mut Vec<Event<'static>>) {
    let owned = |e: Event<'_>| match e {
        Event::Token(t) => Event::Token(t.into_owned()),
        Event::Diagnostic(d) => Event::Diagnostic(d),
    };
    match api {
        Api::Token => {
            while let Some(tok) = t.next_token() {
                out.push(Event::Token(tok.into_owned()));
            }
        }
        Api::LentToken => {
            while let Some(tok) = t.next_lent_token() {
                out.push(Event::Token(tok.into_owned()));
            }
        }
        Api::Event => {
            while let Some(e) = t.next_event() {
                out.push(owned(e));
            }
        }
        Api::LentEvent => {
            while let Some(e) = t.next_lent_event() {
                out.push(owned(e));
            }
        }
        Api::LentItem => {
            while let Some(item) = t.next_lent_item() {
                let tok = match item {
                    LentItem::Token(tok) => tok,
                    LentItem::Tag(tag) => tag.to_token(),
                };
                out.push(Event::Token(tok.into_owned()));
            }
        }
    }
}

/// A whole-input tokenizer through `api`.
fn whole(input: &str, profile: Profile, api: Api) -> Vec<Event<'static>> {
    let mut t = Tokenizer::with_options(input, Options::with_profile(profile));
    let mut out = Vec::new();
    pull(&mut t, api, &mut out);
    out.extend(t.take_diagnostics().into_iter().map(Event::Diagnostic));
    out
}

/// `input` a character at a time.
fn chars(input: &str) -> Vec<&str> {
    input
        .char_indices()
        .map(|(i, c)| &input[i..i + c.len_utf8()])
        .collect()
}

/// `input` cut at `n` pseudo-random char boundaries (a fixed seed: the same cuts every run).
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

/// The lent APIs give what the owned ones give on `input`, whole, a character at a time (when
/// `by_char`), in 5-byte pieces and at random splits.
fn same(input: &str, profile: Profile, by_char: bool, what: &str) {
    for (owned, lent) in [
        (Api::Token, Api::LentToken),
        (Api::Event, Api::LentEvent),
        (Api::Token, Api::LentItem),
    ] {
        assert!(
            whole(input, profile, owned) == whole(input, profile, lent),
            "{what}: whole input, {lent:?} differs from {owned:?}"
        );
        let mut splits = vec![
            ("whole", vec![input]),
            ("random", random_splits(input, 40, input.len() as u64)),
            (
                "random, many",
                random_splits(input, input.len() / 7, 0x9E37),
            ),
        ];
        if by_char {
            splits.push(("char by char", chars(input)));
        }
        for (how, chunks) in splits {
            assert!(
                streamed(&chunks, profile, owned) == streamed(&chunks, profile, lent),
                "{what}: fed {how}, {lent:?} differs from {owned:?}"
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
        // Char by char on the smaller files (the larger are cut at many random places).
        same(&text, Profile::Draft, text.len() <= 1 << 16, &name);
    }
    assert!(read > 0, "corpus present but unreadable");
}

/// Plain markup, streamed: names, attribute names and values and text borrow the buffer.
#[test]
fn plain_markup_borrows_the_buffer() {
    let mut t = Tokenizer::streaming(Options::default());
    t.feed("<a href='x' id=\"y\">text<b/>more</a>");
    t.finish();
    let mut kinds = 0;
    while let Some(token) = t.next_lent_token() {
        match &token.kind {
            TokenKind::StartTag { name, attributes } | TokenKind::EmptyTag { name, attributes } => {
                assert!(matches!(name, Cow::Borrowed(_)), "{name:?}");
                for a in attributes {
                    assert!(matches!(a.name, Cow::Borrowed(_)), "{a:?}");
                    assert!(matches!(a.value, Cow::Borrowed(_)), "{a:?}");
                }
            }
            TokenKind::EndTag { name } => assert!(matches!(name, Cow::Borrowed("a"))),
            TokenKind::Text(s) => assert!(matches!(s, Cow::Borrowed(_)), "{s:?}"),
            TokenKind::Eof => {}
            other => panic!("unexpected {other:?}"),
        }
        kinds += 1;
    }
    assert_eq!(kinds, 6);
    // The owned API copies out of the buffer.
    let mut t = Tokenizer::streaming(Options::default());
    t.feed("<a/>");
    let token = t.next_token().expect("a tag");
    assert!(matches!(
        token.kind,
        TokenKind::EmptyTag {
            name: Cow::Owned(_),
            ..
        }
    ));
}

/// Events lend the same way.
#[test]
fn events_borrow_the_buffer() {
    let mut t = Tokenizer::streaming(Options::default());
    t.feed("x<a b='c'>");
    let mut n = 0;
    while let Some(e) = t.next_lent_event() {
        match e {
            Event::Token(Token {
                kind: TokenKind::Text(s),
                ..
            }) => assert!(matches!(s, Cow::Borrowed("x"))),
            Event::Token(Token {
                kind: TokenKind::StartTag { name, attributes },
                ..
            }) => {
                assert!(matches!(name, Cow::Borrowed("a")));
                assert!(matches!(attributes[0].value, Cow::Borrowed("c")));
            }
            other => panic!("unexpected {other:?}"),
        }
        n += 1;
    }
    assert_eq!(n, 2);
}

/// A tag read with the text before it is held until the next call; a feed in between (which
/// compacts the buffer) keeps its input, for both APIs.
#[test]
fn a_held_tag_survives_a_feed() {
    for lent in [false, true] {
        let text = "x".repeat(200_000);
        let mut t = Tokenizer::streaming(Options::default());
        t.feed(&text);
        t.feed("<tag name='value'>");
        let next = |t: &mut Tokenizer<'static>| -> Token<'static> {
            if lent {
                t.next_lent_token().expect("a token").into_owned()
            } else {
                t.next_token().expect("a token")
            }
        };
        let first = next(&mut t);
        assert!(matches!(&first.kind, TokenKind::Text(s) if s.len() == text.len()));
        t.feed(&text);
        let tag = next(&mut t);
        let TokenKind::StartTag { name, attributes } = &tag.kind else {
            panic!("{tag:?}");
        };
        assert_eq!(name, "tag");
        assert_eq!(
            (&*attributes[0].name, &*attributes[0].value),
            ("name", "value")
        );
        assert_eq!(tag.span.start, text.len());
    }
}

/// An attribute list handed back is kept and reused: its allocation survives the conversion,
/// and the next tag with attributes builds its list in it.
#[test]
fn recycled_attribute_lists_are_reused() {
    let mut t = Tokenizer::streaming(Options::default());
    t.feed("<a p='1' q='2' r='3' s='4'/><b/><c x='1'/>");
    t.finish();
    let mut capacities = Vec::new();
    while let Some(token) = t.next_lent_token() {
        if let TokenKind::EmptyTag { attributes, .. } = token.kind {
            capacities.push(attributes.capacity());
            let spare = thicket_xml5::SpareAttributes::from(attributes);
            // In place: the same allocation, with nothing in it.
            assert_eq!(spare.capacity(), *capacities.last().unwrap());
            t.recycle(spare);
        }
    }
    // `<c>` has one attribute, built in the list of `<a>` (`<b>`'s empty one was not kept).
    assert_eq!(capacities.len(), 3);
    assert!(capacities[0] >= 4);
    assert_eq!(capacities[2], capacities[0]);
}
