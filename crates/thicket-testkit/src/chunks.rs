//! Ways to split an input into chunks, for chunk-invariance tests.

/// Splits `text` into one chunk per character.
pub fn chars(text: &str) -> Vec<&str> {
    text.char_indices()
        .map(|(i, c)| &text[i..i + c.len_utf8()])
        .collect()
}

/// Every split of `text` into two chunks at a char boundary (including the empty first and last
/// chunks).
pub fn two_way_splits(text: &str) -> impl Iterator<Item = [&str; 2]> {
    (0..=text.len())
        .filter(|&i| text.is_char_boundary(i))
        .map(move |i| [&text[..i], &text[i..]])
}

/// Splits `text` into chunks at the given byte positions (each rounded down to a char boundary;
/// out-of-range positions are ignored).
pub fn split_at_positions<'a>(text: &'a str, positions: &[usize]) -> Vec<&'a str> {
    let mut cuts: Vec<usize> = positions
        .iter()
        .filter(|&&p| p <= text.len())
        .map(|&p| {
            let mut p = p;
            while !text.is_char_boundary(p) {
                p -= 1;
            }
            p
        })
        .collect();
    cuts.sort_unstable();
    cuts.dedup();
    let mut out = Vec::with_capacity(cuts.len() + 1);
    let mut at = 0;
    for c in cuts {
        out.push(&text[at..c]);
        at = c;
    }
    out.push(&text[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_cover_the_input() {
        assert_eq!(chars("aé"), vec!["a", "é"]);
        assert_eq!(two_way_splits("aé").count(), 3);
        for [a, b] in two_way_splits("aéb") {
            assert_eq!(format!("{a}{b}"), "aéb");
        }
        assert_eq!(split_at_positions("aéb", &[3, 1, 9]), vec!["a", "é", "b"]);
        assert_eq!(split_at_positions("aéb", &[2]), vec!["a", "éb"]);
    }
}
