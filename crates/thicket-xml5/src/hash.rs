//! Comparing names from the document, which an attacker chooses: whatever decides which names
//! are compared is either bounded (a check of a few names pairwise) or a keyed hash of the name
//! bytes themselves (`thicket_names::keyed`, the one hashing policy), so no input can make names
//! collide on purpose and the number of comparisons stays linear in the input. Every comparison
//! goes through [`same`] or [`same_bytes`], so that tests can count them.

/// `a == b` for two names of the document: byte by byte (names are short; a `memcmp` call costs
/// more). Every comparison of two names the crate makes to detect duplicates or look up a
/// binding goes through here, so that tests can count them.
#[inline]
pub(crate) fn same(a: &str, b: &str) -> bool {
    #[cfg(test)]
    comparisons::count();
    a.len() == b.len() && a.bytes().zip(b.bytes()).all(|(x, y)| x == y)
}

/// [`same`] for byte slices.
#[inline]
pub(crate) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    #[cfg(test)]
    comparisons::count();
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
    use crate::{Options, Parser, parse};

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
                let _ = parse(&text, Options::default());
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
