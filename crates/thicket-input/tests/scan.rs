//! Every scanning engine answers what a plain loop over the class answers, for any class, any
//! text and any start, with check bytes accepted or refused.

use proptest::prelude::*;
use thicket_input::scan::{Engine, StopSet};

/// Builds a class at run time the way the const constructors do (they are `const fn`).
fn class(stops: &[u8], checks: &[u8]) -> StopSet {
    StopSet::new(stops).check(checks)
}

/// A plain loop: the first stop, or the first check the closure refuses; accepted checks move
/// on to the index it gives.
fn naive(
    set: &StopSet,
    hay: &[u8],
    mut i: usize,
    accept: &dyn Fn(usize) -> Option<usize>,
) -> usize {
    while i < hay.len() {
        let b = hay[i];
        if set.is_stop(b) {
            return i;
        }
        if set.is_check(b) {
            match accept(i) {
                Some(n) => {
                    i = n;
                    continue;
                }
                None => return i,
            }
        }
        i += 1;
    }
    i
}

/// Bytes that matter: markup, whitespace, controls, and UTF-8 lead and continuation bytes.
fn interesting_byte() -> impl Strategy<Value = u8> {
    prop_oneof![
        Just(b'<'),
        Just(b'&'),
        Just(b'>'),
        Just(b'"'),
        Just(b'\''),
        Just(b'='),
        Just(b'-'),
        Just(b' '),
        Just(b'\t'),
        Just(b'\n'),
        Just(b'\r'),
        Just(0u8),
        Just(0x0Cu8),
        Just(0x7Fu8),
        Just(0xC2u8),
        Just(0xE2u8),
        Just(0xEFu8),
        Just(0xF0u8),
        Just(b'A'),
        Just(b'z'),
        any::<u8>(),
    ]
}

fn hay() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(interesting_byte(), 0..80),
        // Long clean runs with a few interesting bytes: the block and word paths.
        (
            0usize..200,
            proptest::collection::vec((0usize..200, interesting_byte()), 0..4)
        )
            .prop_map(|(n, hits)| {
                let mut v = b"plain text run ".repeat(n / 15 + 1);
                v.truncate(n);
                for (at, b) in hits {
                    if !v.is_empty() {
                        let at = at % v.len();
                        v[at] = b;
                    }
                }
                v
            }),
    ]
}

proptest! {
    #[test]
    fn engines_agree_with_a_plain_loop(
        stops in proptest::collection::vec(interesting_byte(), 0..8),
        checks in proptest::collection::vec(interesting_byte(), 0..4),
        hay in hay(),
        from in 0usize..100,
        accept_every in 1usize..4,
    ) {
        let set = class(&stops, &checks);
        let from = from.min(hay.len());
        // Accept every `accept_every`-th check position (by index), skipping 1 or 2 bytes.
        let accept = |i: usize| (!i.is_multiple_of(accept_every)).then_some(i + 1 + i % 2);
        let want_find = naive(&set, &hay, from, &|_| None);
        let want_run = naive(&set, &hay, from, &accept);
        for engine in [Engine::Memchr, Engine::Swar, Engine::Table] {
            let forced = set.clone().with_engine(engine);
            prop_assert_eq!(forced.find(&hay, from), want_find, "{:?} find", forced.engine());
            prop_assert_eq!(forced.run(&hay, from, accept), want_run, "{:?} run", forced.engine());
        }
    }
}

#[test]
fn the_classes_the_dialects_use_pick_the_expected_engine() {
    // HTML data, RAWTEXT, attribute values: memchr (the controls and leads by the block test).
    let odd: Vec<u8> = (0u8..0x20)
        .filter(|b| !matches!(b, b'\t' | b'\n' | 0x0C | b'\r' | 0))
        .chain([0x7F])
        .collect();
    let leads = [0xC2, 0xEF, 0xF0, 0xF1, 0xF2, 0xF3, 0xF4];
    for stops in [&b"<&\0\r"[..], b"<\0\r", b"\"&\0\r", b"]\0\r", b"<-\0\r"] {
        let set = StopSet::new(stops).check(&odd).check(&leads);
        assert_eq!(set.engine(), Engine::Memchr, "{stops:?}");
    }
    // Tag names and unquoted values: the word test or the table.
    assert_eq!(StopSet::new(b"\t\n\x0C />\0\r").engine(), Engine::Swar);
    assert_eq!(
        StopSet::new(b"\t\n\x0C &>\0\r\"'<=`").engine(),
        Engine::Table
    );
}

proptest! {
    /// `run_inline` and `find_inline` answer what `run` and `find` answer, for every engine and
    /// probe length (the probe ends inside, at and past a run's end).
    #[test]
    fn the_inlined_run_agrees_with_run(
        stops in proptest::collection::vec(interesting_byte(), 0..8),
        checks in proptest::collection::vec(interesting_byte(), 0..4),
        hay in hay(),
        from in 0usize..100,
        accept_every in 1usize..4,
        probe in prop_oneof![Just(0u8), Just(1), Just(2), Just(3), Just(16), any::<u8>()],
        swar_probe in prop_oneof![Just(0u8), Just(1), Just(16)],
    ) {
        let set = class(&stops, &checks).probe(probe).swar_probe(swar_probe);
        let from = from.min(hay.len());
        let accept = |i: usize| (!i.is_multiple_of(accept_every)).then_some(i + 1 + i % 2);
        let want_find = naive(&set, &hay, from, &|_| None);
        let want_run = naive(&set, &hay, from, &accept);
        for engine in [Engine::Memchr, Engine::Swar, Engine::Table] {
            let forced = set.clone().with_engine(engine);
            prop_assert_eq!(forced.find_inline(&hay, from), want_find, "{:?}", forced.engine());
            prop_assert_eq!(forced.find(&hay, from), want_find, "{:?}", forced.engine());
            prop_assert_eq!(
                forced.run_inline(&hay, from, accept), want_run, "{:?}", forced.engine()
            );
            prop_assert_eq!(forced.run(&hay, from, accept), want_run, "{:?}", forced.engine());
        }
    }
}

/// The inlined run on a `static` set (as the dialects call it, where the compiler specializes
/// it) answers what a plain loop answers, with check bytes accepted a character at a time.
#[test]
fn the_inlined_run_on_a_static_set() {
    static VALUE: StopSet = StopSet::new(b"\"&\r\0").check(&[0xC2, 0xEF]).probe(2);
    let text = "a value with \u{e9}, \u{85}, \u{ff0c} and more, long enough for the word test\" b";
    let hay = text.as_bytes();
    let width = |i: usize| Some(i + text[i..].chars().next().map_or(1, char::len_utf8));
    for from in (0..=hay.len()).filter(|&i| text.is_char_boundary(i)) {
        assert_eq!(
            VALUE.find_inline(hay, from),
            naive(&VALUE, hay, from, &|_| None),
            "from {from}"
        );
        assert_eq!(
            VALUE.run_inline(hay, from, width),
            naive(&VALUE, hay, from, &width),
            "from {from}"
        );
    }
}
