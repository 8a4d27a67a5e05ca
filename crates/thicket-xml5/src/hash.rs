//! Comparing names from the document, which an attacker chooses: whatever decides which names
//! are compared is either bounded (a check of a few names pairwise) or a keyed hash of the name
//! bytes themselves (`thicket_names::keyed`, the one hashing policy), so no input can make names
//! collide on purpose and the number of comparisons stays linear in the input. Every comparison
//! goes through [`same`] or [`same_bytes`], so that tests can count them.

/// `a == b` for two names of the document. Names are short, and a `memcmp` call costs more than
/// the comparison: up to sixteen bytes are compared as two overlapping words (of four or eight
/// bytes), with no loop to mispredict; longer names as slices. Every comparison of two names the
/// crate makes to detect duplicates or look up a binding goes through here, so that tests can
/// count them.
#[inline]
pub(crate) fn same(a: &str, b: &str) -> bool {
    #[cfg(test)]
    comparisons::count();
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let n = a.len();
    if n != b.len() {
        return false;
    }
    match n {
        0 => true,
        1..4 => a.iter().zip(b).all(|(x, y)| x == y),
        4..8 => word4(a, 0) == word4(b, 0) && word4(a, n - 4) == word4(b, n - 4),
        8..=16 => word8(a, 0) == word8(b, 0) && word8(a, n - 8) == word8(b, n - 8),
        _ => a == b,
    }
}

/// The four bytes of `s` at `i` as a word (the caller keeps `i + 4 <= s.len()`).
#[inline(always)]
fn word4(s: &[u8], i: usize) -> u32 {
    let mut w = [0u8; 4];
    w.copy_from_slice(&s[i..i + 4]);
    u32::from_ne_bytes(w)
}

/// The eight bytes of `s` at `i` as a word (the caller keeps `i + 8 <= s.len()`).
#[inline(always)]
fn word8(s: &[u8], i: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&s[i..i + 8]);
    u64::from_ne_bytes(w)
}

/// [`same`] for byte slices. Names are mostly short: up to 16 bytes they are compared in line
/// (`==` calls `memcmp` whenever the lengths agree).
#[inline]
pub(crate) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    #[cfg(test)]
    comparisons::count();
    if a.len() != b.len() {
        return false;
    }
    if a.len() <= 16 {
        return a.iter().zip(b).all(|(x, y)| x == y);
    }
    a == b
}

/// A test-only count of name comparisons (see [`same`]), per thread.
#[cfg(test)]
pub(crate) mod comparisons {
    use std::cell::Cell;

    thread_local! {
        static COUNT: Cell<usize> = const { Cell::new(0) };
    }

    pub(crate) fn count() {
        COUNT.with(|c| c.set(c.get() + 1));
    }

    /// The comparisons on this thread so far.
    pub(crate) fn get() -> usize {
        COUNT.with(Cell::get)
    }
}

#[cfg(test)]
mod tests {
    use crate::{Options, Parser, parse_with};

    /// [`super::same`] is `==` on every length around its word sizes, for names that differ
    /// anywhere.
    #[test]
    fn same_is_equality() {
        for n in 0..40 {
            let a: String = (0..n).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
            assert!(super::same(&a, &a.clone()));
            for i in 0..n {
                let mut b = a.clone().into_bytes();
                b[i] = b'Z';
                let b = String::from_utf8(b).unwrap_or_default();
                assert!(!super::same(&a, &b), "{a} {b}");
            }
            assert!(!super::same(&a, &format!("{a}x")));
        }
    }

    /// Names all of one length, first and last byte, so that they collide under every unkeyed
    /// function of the crate that sorts names (the direct path's duplicate filter on length and
    /// last byte, the resolved-prefix cache slot on length, first and last byte).
    fn colliding(i: usize) -> String {
        format!("p{i:07}z")
    }

    /// The name comparisons `run` makes.
    fn comparisons(run: impl FnOnce()) -> usize {
        let before = super::comparisons::get();
        run();
        super::comparisons::get() - before
    }

    /// Comparisons for inputs of 1x, 2x and 4x `n`: each at most `per_item` a name, and the
    /// growth from 1x to 4x at most 4.4x (linear).
    fn assert_linear(n: usize, per_item: usize, input: impl Fn(usize) -> String) {
        let mut counts = Vec::new();
        for k in [1, 2, 4] {
            let text = input(k * n);
            let whole = comparisons(|| {
                let _ = parse_with(&text, Options::default());
            });
            let streamed = comparisons(|| {
                let mut p = Parser::without_tree(Options::default());
                for chunk in text.as_bytes().chunks(4096) {
                    p.feed(std::str::from_utf8(chunk).unwrap_or(""));
                }
                let _ = p.finish();
            });
            assert!(
                whole <= per_item * k * n,
                "{whole} comparisons for {}",
                k * n
            );
            assert!(
                streamed <= per_item * k * n,
                "{streamed} streamed for {}",
                k * n
            );
            counts.push(whole.max(1));
        }
        let growth = counts[2] as f64 / counts[0] as f64;
        assert!(
            growth <= 4.4,
            "comparisons grew {growth:.2}x from 1x to 4x: {counts:?}"
        );
    }

    /// One tag with n namespace declarations of colliding prefixes and an attribute in each
    /// (the tokenizer's duplicate check, the bindings, the builder's expanded-name check).
    #[test]
    fn one_tag_with_colliding_declarations() {
        assert_linear(2000, 16, |n| {
            let mut s = String::from("<r");
            for i in 0..n {
                s.push_str(&format!(" xmlns:{}='urn:{i}'", colliding(i)));
            }
            for i in 0..n {
                s.push_str(&format!(" {}:a='1'", colliding(i)));
            }
            // Duplicates of the first few, in both forms.
            s.push_str(&format!(
                " xmlns:{}='urn:x' {}:a='2'>",
                colliding(0),
                colliding(1)
            ));
            for i in 0..n {
                s.push_str(&format!("<{}:e/>", colliding(i)));
            }
            s.push_str("</r>");
            s
        });
    }

    /// Many tags of 32 attributes with colliding names (the direct path's bounded pairwise
    /// check), and deep nesting with colliding element names closed by stray end tags (the
    /// count of open elements by name).
    #[test]
    fn many_tags_and_deep_nesting_with_colliding_names() {
        // (At most 31 comparisons an attribute of 32: 496 a tag.)
        assert_linear(200, 500, |n| {
            let mut s = String::from("<r>");
            for _ in 0..n {
                s.push_str("<t");
                for i in 0..32 {
                    s.push_str(&format!(" {}='v'", colliding(i)));
                }
                s.push_str("/>");
            }
            s.push_str("</r>");
            s
        });
        assert_linear(2000, 16, |n| {
            let mut s = String::new();
            for i in 0..n {
                s.push_str(&format!("<{}>", colliding(i)));
            }
            for i in 0..n {
                s.push_str(&format!("</{}x>", colliding(i)));
            }
            s
        });
    }
}
