//! Unit tests per draft rule for state groups whose graph the suites cover thinly: every
//! transition of the processing-instruction states, in both profiles, whole and char by char.

use thicket_xml5::{Event, Options, Profile, TokenKind, Tokenizer, events};

/// The events of `input` in a compact form: `Pi(target,data)`, `Text(..)`, `Comment(..)`, tags,
/// and `!code` for a diagnostic (text pieces merged).
fn compact(input: &str, profile: Profile) -> Vec<String> {
    let whole = render(events(input, Options::with_profile(profile)));
    let mut t = Tokenizer::streaming(Options::with_profile(profile));
    let mut by_char = Vec::new();
    for c in input.chars() {
        t.feed(c.encode_utf8(&mut [0; 4]));
        while let Some(e) = t.next_event() {
            by_char.push(e);
        }
    }
    t.finish();
    while let Some(e) = t.next_event() {
        by_char.push(e);
    }
    assert_eq!(render(by_char), whole, "{input:?} fed char by char");
    whole
}

fn render(events: Vec<Event<'_>>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for e in events {
        let item = match e {
            Event::Diagnostic(d) => format!("!{}", d.code.as_str()),
            Event::Token(t) => match t.kind {
                TokenKind::Pi { target, data } => format!("Pi({target},{data})"),
                TokenKind::Text(s) => {
                    if let Some(prev) = out.last_mut().and_then(|p| p.strip_prefix("Text(")) {
                        let merged = format!("Text({}{s})", &prev[..prev.len() - 1]);
                        *out.last_mut().expect("a last item") = merged;
                        continue;
                    }
                    format!("Text({s})")
                }
                TokenKind::Comment(s) => format!("Comment({s})"),
                TokenKind::StartTag { name, .. } => format!("<{name}>"),
                TokenKind::EmptyTag { name, .. } => format!("<{name}/>"),
                TokenKind::EndTag { name } => format!("</{name}>"),
                TokenKind::Eof => continue,
                other => format!("{other:?}"),
            },
        };
        out.push(item);
    }
    out
}

/// Every transition of the PI states (pi, pi target, pi target after, pi data, pi after), with
/// the output the draft gives; both profiles follow it.
#[test]
fn processing_instruction_state_graph() {
    let cases: &[(&str, &[&str])] = &[
        // Pi after state, anything else: reprocess in pi data (the `?` is not data); the
        // issue's examples.
        (
            "<r><?pi a?b>c?>x</r>",
            &["<r>", "Pi(pi,ab>c)", "Text(x)", "</r>"],
        ),
        ("<?pi data??>", &["Pi(pi,data?)"]),
        // Pi after state, `?`: appended, stay.
        ("<?pi a??b?>", &["Pi(pi,a?b)"]),
        ("<?pi a???>", &["Pi(pi,a??)"]),
        ("<?pi??>", &["Pi(pi,?)"]),
        // Pi after state, `>`: emit.
        ("<?pi a?>?>", &["Pi(pi,a)", "Text(?>)"]),
        // Pi target state: `?` to pi after; whitespace to pi target after; anything else is
        // target.
        ("<?pi?>", &["Pi(pi,)"]),
        ("<?pi?x?>", &["Pi(pi,x)"]),
        ("<?p-i.j?>", &["Pi(p-i.j,)"]),
        // Pi target after state: whitespace skipped, anything else reprocessed in pi data.
        ("<?pi \t\n data ?>", &["Pi(pi,data )"]),
        ("<?pi  ?>", &["Pi(pi,)"]),
        ("<?pi >?>", &["Pi(pi,>)"]),
        // Pi data state: `?` to pi after, anything else is data.
        ("<?pi a>b<c?>", &["Pi(pi,a>b<c)"]),
        // EOF in each state: eof-in-pi, the PI emitted with what it has.
        ("<?pi", &["!eof-in-pi", "Pi(pi,)"]),
        ("<?pi ", &["!eof-in-pi", "Pi(pi,)"]),
        ("<?pi a", &["!eof-in-pi", "Pi(pi,a)"]),
        ("<?pi a?", &["!eof-in-pi", "Pi(pi,a)"]),
        ("<?pi a??", &["!eof-in-pi", "Pi(pi,a?)"]),
        // Pi state: whitespace or EOF is missing-pi-target (a bogus comment).
        ("<? pi?>", &["!missing-pi-target", "Comment( pi?)"]),
        ("<?", &["!missing-pi-target", "Comment()"]),
    ];
    for profile in [Profile::Draft, Profile::Compatibility] {
        for &(input, expected) in cases {
            assert_eq!(
                compact(input, profile),
                expected,
                "{input:?} in {profile:?}"
            );
        }
    }
}

/// The compatibility profile reads `<?xml ...?>` as a processing instruction; its one suite case
/// in the pi after state (`?m?>`).
#[test]
fn compatibility_xml_target_follows_the_pi_states() {
    assert_eq!(
        compact("<?xml \t\n ?m?>", Profile::Compatibility),
        ["Pi(xml,m)"]
    );
    assert_eq!(
        compact("<?xml a?b?>", Profile::Compatibility),
        ["Pi(xml,ab)"]
    );
}
