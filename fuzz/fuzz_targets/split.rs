//! Shared by the targets: turn fuzzer bytes into a text and chunk boundaries.

/// The first byte chooses how many cut points follow (up to 7, two bytes each); the rest is the
/// text (lossily decoded). Cuts are rounded down to char boundaries.
pub fn text_and_chunks(data: &[u8]) -> (String, Vec<usize>) {
    let Some((&n, rest)) = data.split_first() else {
        return (String::new(), Vec::new());
    };
    let n = usize::from(n % 8).min(rest.len() / 2);
    let (cut_bytes, body) = rest.split_at(n * 2);
    let text = String::from_utf8_lossy(body).into_owned();
    let mut cuts: Vec<usize> = cut_bytes
        .chunks(2)
        .map(|c| {
            let mut p = usize::from(u16::from_le_bytes([c[0], c[1]])) % (text.len() + 1);
            while !text.is_char_boundary(p) {
                p -= 1;
            }
            p
        })
        .collect();
    cuts.sort_unstable();
    cuts.dedup();
    (text, cuts)
}

/// Splits `text` at `cuts` (sorted, on char boundaries).
pub fn chunks<'a>(text: &'a str, cuts: &[usize]) -> Vec<&'a str> {
    let mut out = Vec::with_capacity(cuts.len() + 1);
    let mut at = 0;
    for &c in cuts {
        out.push(&text[at..c]);
        at = c;
    }
    out.push(&text[at..]);
    out
}
