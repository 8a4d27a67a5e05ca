//! The direct paths (`src/tokenizer/fast.rs`: whole tags, attributes, references, comments and
//! text runs) against the plain states: the same tokens and the same diagnostics, with
//! `Tokenizer::set_direct_paths(false)` and fed one character at a time (which never gives a
//! direct path enough input), on every corpus document (with and without tight limits: the
//! direct paths leave a tag over a limit to the states), on a property test over the shapes the
//! direct paths take and their near misses, and on documents with processing instructions
//! (which the direct paths leave to the states at `<?`). The `html_chunks` fuzz target checks
//! the same.

use proptest::prelude::*;
use thicket_html::{Options, Token, Tokenizer};
use thicket_input::Limits;

/// Tight limits that real documents reach: long attribute values and many attributes.
fn tight() -> Limits {
    Limits::none()
        .with_max_attributes(3)
        .with_max_name_len(8)
        .with_max_value_len(24)
}

/// Tokens (adjacent text joined, spans kept) and errors of `chunks` fed in order.
fn tokens(
    chunks: &[&str],
    switch_by_tag_name: bool,
    limits: Limits,
    direct: bool,
) -> (Vec<Token<'static>>, Vec<String>) {
    let mut tok = Tokenizer::with_options(Options {
        switch_by_tag_name,
        limits,
        ..Options::default()
    });
    tok.set_direct_paths(direct);
    let mut out: Vec<Token<'static>> = Vec::new();
    let pull = |tok: &mut Tokenizer, out: &mut Vec<Token<'static>>| {
        while let Some(t) = tok.next_token() {
            if let (
                Token::Text { text, span },
                Some(Token::Text {
                    text: last,
                    span: ls,
                }),
            ) = (&t, out.last_mut())
                && ls.end == span.start
            {
                last.to_mut().push_str(text);
                ls.end = span.end;
                continue;
            }
            out.push(t.into_owned());
        }
    };
    for c in chunks {
        tok.feed(c);
        pull(&mut tok, &mut out);
    }
    tok.finish();
    pull(&mut tok, &mut out);
    let errors = tok
        .diagnostics()
        .iter()
        .map(|d| format!("{} {:?}", d.code, d.span))
        .collect();
    (out, errors)
}

fn chars(text: &str) -> Vec<&str> {
    text.char_indices()
        .map(|(i, c)| &text[i..i + c.len_utf8()])
        .collect()
}

#[test]
fn corpus_direct_paths_equal_the_states() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/html");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    let mut read = 0;
    for e in entries.flatten() {
        let Ok(bytes) = std::fs::read(e.path()) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        // A prefix keeps the debug build quick; it still holds thousands of tags.
        let mut cut = text.len().min(300_000);
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        let text = &text[..cut];
        read += 1;
        let by_char = chars(text);
        // Also with the switch to RAWTEXT, script data... after `<style>`, `<script>`...
        for (switch, limits) in [
            (false, Limits::none()),
            (true, Limits::none()),
            (true, tight()),
        ] {
            let whole = tokens(&[text], switch, limits, true);
            let states = tokens(&[text], switch, limits, false);
            assert!(
                whole == states,
                "{} (switch by tag name: {switch}, limits: {limits:?}): the direct paths differ \
                 from the states",
                e.path().display()
            );
            let char_by_char = tokens(&by_char, switch, limits, true);
            assert!(
                whole == char_by_char,
                "{} (switch by tag name: {switch}, limits: {limits:?}): whole differs from char \
                 by char",
                e.path().display()
            );
        }
    }
    assert!(read > 0, "corpus present but unreadable");
}

#[test]
fn processing_instructions_between_direct_path_shapes() {
    let doc = "<!DOCTYPE html><?xml-stylesheet href=a?><p class=x>a &amp; b<?pi data?>\
               <br/><?t?d??><a href=\"x&amp;y\">l</a><?1?><!-- c --><?x y>z<?a.b><p id=\"q\"><?";
    for limits in [Limits::none(), tight()] {
        let whole = tokens(&[doc], true, limits, true);
        assert_eq!(whole, tokens(&chars(doc), true, limits, true));
        assert_eq!(whole, tokens(&[doc], true, limits, false));
        let pis = whole
            .0
            .iter()
            .filter(|t| matches!(t, Token::ProcessingInstruction { .. }))
            .count();
        assert_eq!(pis, 3, "{:?}", whole.0);
    }
}

/// The shapes each direct path takes whole, and their near misses (one character away from a
/// shape, so the path must give up at the right place and leave the same state behind).
fn shapes() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        // Text runs, short and long, with what ends or interrupts them.
        "text ",
        "a longer run of plain text that goes on past one probe and a few words of eight bytes ",
        "\n  ",
        "\t",
        "\r",
        "\r\n",
        "\u{c}",
        "\0",
        "\u{1}",
        "\u{7f}",
        "\u{85}",
        "\u{a0}",
        "\u{a9}",
        "\u{e9}",
        "\u{4e2d}\u{6587}",
        "\u{fdd0}",
        "\u{fffe}",
        "\u{ff0c}",
        "\u{1f600}",
        "\u{10ffff}",
        // References: decided whole, and left to the states.
        "&amp;",
        "&lt;",
        "&amp",
        "&ampx",
        "&amp=",
        "&notin;",
        "&notit;",
        "&noti",
        "&zz;",
        "&zz",
        "&AMP;",
        "&#60;",
        "&#x3c;",
        "&#X3C;",
        "&#x1F600;",
        "&#0;",
        "&#x110000;",
        "&#xD800;",
        "&#128;",
        "&#;",
        "&#x;",
        "&#60",
        "& ",
        "&&",
        "&",
        // Tags the direct path builds whole, and near misses.
        "<p>",
        "</p>",
        "<br/>",
        "<br />",
        "</p >",
        "</p a>",
        "</p/>",
        "<P>",
        "<pA>",
        "<p\r>",
        "<p\n\tclass=x>",
        "<a href=\"x\">",
        "<a href='x'>",
        "<a href=x>",
        "<a href=x/>",
        "<a href=\"x\"/>",
        "<a href=\"x\"b=c>",
        "<a href=\"x\" b>",
        "<a b c d>",
        "<a b=\"\" c=''>",
        "<a b =  c>",
        "<a b= \"c\">",
        "<a b=c d=e f=g h=i j=k l=m n=o q=r s=t u=v w=x y=z aa=1 bb=2 cc=3 dd=4 ee=5>",
        "<a b=1 b=2>",
        "<a b=\"&amp;c\">",
        "<a b=\"&amp\">",
        "<a b=\"&ampx\">",
        "<a b=\"&amp=\">",
        "<a b=\"&notit;\">",
        "<a b=\"&#x3c;&#60;&lt;\">",
        "<a b=\"&#0;\">",
        "<a b='x&y'>",
        "<a b=x&amp;y>",
        "<a b=x`y>",
        "<a b=x'y>",
        "<a b=\"\u{e9}\u{a9}\">",
        "<a b=\"\0\">",
        "<a b=\"\r\n\">",
        "<a b=\"\u{1}\">",
        "<a b=\u{e9}>",
        "<a b=\u{a9}>",
        "<a \u{e9}=1>",
        "<a b\"=1>",
        "<a =b>",
        "<a b=>",
        "<a/b>",
        "<a b/>",
        "</a b=c>",
        "<a",
        "<a b=\"",
        "</",
        "<",
        "<>",
        "<1>",
        "<?pi x?>",
        // Comments the direct path takes whole, and near misses.
        "<!-- c -->",
        "<!---->",
        "<!-->",
        "<!--->",
        "<!-- a - b -- c --->",
        "<!-- a --!>",
        "<!-- <!-- -->",
        "<!-- \0 -->",
        "<!-- \r\n -->",
        "<!-- \u{1} -->",
        "<!-- \u{e9} -->",
        "<!-- !-->",
        "<!-- a > b -->",
        "<!-- a -> b -- > c -->",
        "<!-- a --> b -->",
        "<!-- a ! b --> c -->",
        "<!-- a > b ! c -->",
        "<!--->-->",
        // Text elements and their end tags (switched to with the switch by tag name).
        "<script>",
        "<title>",
        "<style>",
        "<textarea>",
        "</script>",
        "</SCRIPT>",
        "</script >",
        "</script/>",
        "</scrip>",
        "</scripts>",
        "</title>",
        "</style>",
        "</textarea>",
        "<!--<script>",
        "a < b </ c",
        "<",
        "</",
        "<!--",
        "-->",
        "<!DOCTYPE html>",
        "<![CDATA[x]]>",
    ]);
    prop::collection::vec(pieces, 0..16).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// With the direct paths and without, whole and split, the same tokens and diagnostics.
    #[test]
    fn direct_paths_equal_the_states_on_their_shapes(
        input in shapes(),
        cuts in prop::collection::vec(0usize..400, 0..4),
        switch in any::<bool>(),
        limited in any::<bool>(),
    ) {
        let limits = if limited { tight() } else { Limits::none() };
        let direct = tokens(&[&input], switch, limits, true);
        let states = tokens(&[&input], switch, limits, false);
        prop_assert_eq!(&direct, &states);
        let split = thicket_testkit::chunks::split_at_positions(&input, &cuts);
        prop_assert_eq!(&direct, &tokens(&split, switch, limits, true));
        prop_assert_eq!(&direct, &tokens(&chars(&input), switch, limits, true));
    }
}
