//! The hostile inputs of `cargo xtask adversarial`, each generated at a multiple of its base
//! size (issue 12: "1x is the size listed, or 1 MB where none is given").

use std::collections::HashMap;
use std::fmt::Write as _;

/// One hostile input.
#[derive(Clone, Copy, Debug)]
pub struct Case {
    /// Its name on the command line and in the table.
    pub name: &'static str,
    /// What it is, for the table's legend.
    pub what: &'static str,
    /// Whether (nearly) every byte or construct is an error: the per-byte time target is then
    /// 10x the normal document's instead of 3x.
    pub dense: bool,
    /// The dialects where, with the command line's default limits, (nearly) every construct
    /// is a limit's diagnostic: the 10x target applies to them with limits on (1M nested tags
    /// past `--max-depth` are each a `depth-limit`).
    pub dense_with_limits: &'static [&'static str],
    /// The 1x amount, in the generator's unit.
    pub base: usize,
    /// Makes the input from an amount.
    pub generate: fn(usize) -> Vec<u8>,
}

const MB: usize = 1 << 20;

/// Every case, in the order of the table.
pub const CASES: &[Case] = &[
    Case {
        name: "lt",
        what: "1 MB of `<`",
        dense: true,
        dense_with_limits: &[],
        base: MB,
        generate: |n| vec![b'<'; n],
    },
    Case {
        name: "end-soup",
        what: "1 MB of `</`",
        dense: true,
        dense_with_limits: &[],
        base: MB,
        generate: |n| b"</".repeat(n / 2),
    },
    Case {
        name: "nul-ref",
        what: "`&#0;` repeated (1 MB) in an element",
        dense: true,
        dense_with_limits: &[],
        base: MB,
        generate: |n| wrap(&b"&#0;".repeat(n / 4)),
    },
    Case {
        name: "attrs-distinct",
        what: "one tag with 100k distinct attributes",
        dense: false,
        dense_with_limits: &[],
        base: 100_000,
        generate: |n| tag_with((0..n).map(|i| format!("a{i}=\"\""))),
    },
    Case {
        name: "attrs-duplicate",
        what: "one tag with 100k duplicate attributes",
        dense: true,
        dense_with_limits: &[],
        base: 100_000,
        generate: |n| tag_with((0..n).map(|_| "a=\"\"".to_owned())),
    },
    Case {
        name: "attrs-collide-fx",
        what: "one tag whose attribute names have one FxHash (XML5's name hash), 1 MB",
        dense: false,
        dense_with_limits: &[],
        base: MB,
        generate: |n| tag_with(fx_colliding_names(n).into_iter().map(|a| a + "=\"\"")),
    },
    Case {
        name: "attrs-collide-fnv",
        what: "one tag whose attribute names share the low 20 bits of FNV-1a (MicroXML's), 1 MB",
        dense: false,
        dense_with_limits: &[],
        base: MB,
        generate: |n| tag_with(fnv_colliding_names(n).into_iter().map(|a| a + "=\"\"")),
    },
    Case {
        name: "xmlns-attrs",
        what: "one tag with 100k attributes `xmlns:pN`",
        dense: false,
        dense_with_limits: &[],
        base: 100_000,
        generate: |n| tag_with((0..n).map(|i| format!("xmlns:p{i}=\"urn:{i}\""))),
    },
    Case {
        name: "nest",
        what: "1M nested open tags",
        dense: false,
        // Not HTML: its views here are the bare tokenizer, which no depth limit touches, and
        // its foreign-content model stops tracking tags past the limit without a diagnostic
        // (docs/html.md), so no byte of this case is an error there.
        dense_with_limits: &["xml5", "microxml"],
        base: 1_000_000,
        generate: |n| b"<a>".repeat(n),
    },
    Case {
        name: "nest-ns",
        what: "nested elements each declaring a namespace, 1 MB",
        dense: false,
        dense_with_limits: &[],
        base: MB,
        generate: |n| {
            let mut out = String::with_capacity(n + 32);
            let mut i = 0;
            while out.len() < n {
                let _ = write!(out, "<p{}:a xmlns:p{}=\"urn:{i}\">", i % 64, i % 64);
                i += 1;
            }
            out.into_bytes()
        },
    },
    Case {
        name: "ns-distinct",
        what: "sibling elements each declaring a prefix of its own, 1 MB",
        dense: false,
        dense_with_limits: &[],
        base: MB,
        generate: |n| {
            let mut out = String::with_capacity(n + 32);
            out.push_str("<r>");
            let mut i = 0;
            while out.len() < n {
                let _ = write!(out, "<p{i}:a xmlns:p{i}=\"urn:{i}\"/>");
                i += 1;
            }
            out.push_str("</r>");
            out.into_bytes()
        },
    },
    Case {
        name: "open-comment",
        what: "a comment left open, 1 MB",
        dense: false,
        dense_with_limits: &[],
        base: MB,
        generate: |n| opened(b"<r><!--", n),
    },
    Case {
        name: "open-cdata",
        what: "a CDATA section left open, 1 MB",
        dense: false,
        dense_with_limits: &[],
        base: MB,
        generate: |n| opened(b"<r><![CDATA[", n),
    },
    Case {
        name: "open-pi",
        what: "a processing instruction left open, 1 MB",
        dense: false,
        dense_with_limits: &[],
        base: MB,
        generate: |n| opened(b"<r><?pi ", n),
    },
    Case {
        name: "open-value",
        what: "an attribute value left open, 1 MB",
        dense: false,
        dense_with_limits: &[],
        base: MB,
        generate: |n| opened(b"<r a=\"", n),
    },
    Case {
        name: "doctype-brackets",
        what: "a DOCTYPE left open with 1 MB of nested `[`",
        dense: false,
        dense_with_limits: &[],
        base: MB,
        generate: |n| {
            let mut out = b"<!DOCTYPE r [".to_vec();
            out.resize(n, b'[');
            out
        },
    },
    Case {
        name: "numeric-ref",
        what: "a numeric character reference of 10 MB of digits",
        dense: false,
        dense_with_limits: &[],
        base: 10 * MB,
        generate: |n| {
            let mut out = b"<r>&#".to_vec();
            out.resize(n, b'0');
            out.extend_from_slice(b"65;</r>");
            out
        },
    },
    Case {
        name: "named-ref",
        what: "`&` and 1 MB of name characters",
        dense: false,
        dense_with_limits: &[],
        base: MB,
        generate: |n| {
            let mut out = b"<r>&".to_vec();
            out.resize(n, b'a');
            out.extend_from_slice(b"</r>");
            out
        },
    },
    Case {
        name: "text",
        what: "one 50 MB text node",
        dense: false,
        dense_with_limits: &[],
        base: 50 * MB,
        generate: |n| wrap(&filler(n)),
    },
];

/// `<r>` + `content` + `</r>`.
fn wrap(content: &[u8]) -> Vec<u8> {
    let mut out = b"<r>".to_vec();
    out.extend_from_slice(content);
    out.extend_from_slice(b"</r>");
    out
}

/// `<r a b c ...>` + `</r>`.
fn tag_with(attributes: impl Iterator<Item = String>) -> Vec<u8> {
    let mut out = String::from("<r");
    for a in attributes {
        out.push(' ');
        out.push_str(&a);
    }
    out.push_str("></r>");
    out.into_bytes()
}

/// `head` and `n` bytes of text, never closed.
fn opened(head: &[u8], n: usize) -> Vec<u8> {
    let mut out = head.to_vec();
    out.extend_from_slice(&filler(n));
    out
}

/// `n` bytes of plain text in lines of about 80 characters.
fn filler(n: usize) -> Vec<u8> {
    const LINE: &[u8] = b"Plain text without markup, as long documents have it, line after line.\n";
    let mut out = Vec::with_capacity(n + LINE.len());
    while out.len() < n {
        out.extend_from_slice(LINE);
    }
    out.truncate(n);
    out
}

/// Characters that may follow the first one in a name in every dialect.
const NAME_CHARS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._";

const FX_K: u64 = 0x517c_c1b7_2722_0a95;

fn fx_add(h: u64, w: u64) -> u64 {
    (h.rotate_left(5) ^ w).wrapping_mul(FX_K)
}

#[cfg(test)]
/// The FxHash-style hash XML5 gives a name (`thicket_xml5`'s `hash::name_hash`: the length,
/// then 8-byte little-endian words, then the remaining bytes one by one).
pub fn fx_name_hash(name: &[u8]) -> u64 {
    let mut h = fx_add(0, name.len() as u64);
    let mut words = name.chunks_exact(8);
    for w in &mut words {
        h = fx_add(h, u64::from_le_bytes(w.try_into().unwrap_or([0; 8])));
    }
    for &b in words.remainder() {
        h = fx_add(h, u64::from(b));
    }
    h
}

/// Two 16-byte blocks that take the FxHash state `h` to the same state, and that state.
///
/// The first words differ only in their last byte, so the states after them differ only in
/// their top byte (multiplying by an odd constant carries differences upwards only); rotated by
/// 5, that difference sits in the low 5 bits of the second word's first byte and the top 3 bits
/// of its last byte, which a choice of name characters can cancel.
fn fx_block(h: u64, seed: &mut u64) -> ([u8; 16], [u8; 16], u64) {
    loop {
        let mut a = [0u8; 8];
        for byte in &mut a {
            *seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            *byte = NAME_CHARS[(*seed >> 33) as usize % NAME_CHARS.len()];
        }
        let mut b = a;
        b[7] = if a[7] == b'x' { b'y' } else { b'x' };
        let ha = fx_add(h, u64::from_le_bytes(a));
        let hb = fx_add(h, u64::from_le_bytes(b));
        let diff = (ha ^ hb).rotate_left(5).to_le_bytes();
        // A second word for each, differing by `diff`, all name characters.
        let mut second = [[0u8; 8]; 2];
        let mut found = true;
        for (i, &d) in diff.iter().enumerate() {
            match NAME_CHARS.iter().find(|&&c| NAME_CHARS.contains(&(c ^ d))) {
                Some(&c) => {
                    second[0][i] = c;
                    second[1][i] = c ^ d;
                }
                None => {
                    found = false;
                    break;
                }
            }
        }
        if !found {
            continue;
        }
        let end_a = fx_add(ha, u64::from_le_bytes(second[0]));
        let end_b = fx_add(hb, u64::from_le_bytes(second[1]));
        if end_a != end_b {
            continue;
        }
        let mut block_a = [0u8; 16];
        let mut block_b = [0u8; 16];
        block_a[..8].copy_from_slice(&a);
        block_a[8..].copy_from_slice(&second[0]);
        block_b[..8].copy_from_slice(&b);
        block_b[8..].copy_from_slice(&second[1]);
        return (block_a, block_b, end_a);
    }
}

/// About `bytes` bytes of distinct attribute names (each with `=""`) that all have the same
/// FxHash: `k` blocks with two choices each give 2^k names (a Joux multicollision).
pub fn fx_colliding_names(bytes: usize) -> Vec<String> {
    const PREFIX: &[u8; 8] = b"fxname__";
    let per = |k: usize| 8 + 16 * k + 4;
    let mut k = 1;
    while (1usize << k) * per(k) < bytes && k < 24 {
        k += 1;
    }
    let count = (bytes / per(k)).clamp(1, 1 << k);
    let mut h = fx_add(0, (8 + 16 * k) as u64);
    h = fx_add(h, u64::from_le_bytes(*PREFIX));
    let mut seed = 0x2545_f491_4f6c_dd1d;
    let blocks: Vec<([u8; 16], [u8; 16])> = (0..k)
        .map(|_| {
            let (a, b, next) = fx_block(h, &mut seed);
            h = next;
            (a, b)
        })
        .collect();
    (0..count)
        .map(|i| {
            let mut name = PREFIX.to_vec();
            for (j, (a, b)) in blocks.iter().enumerate() {
                name.extend_from_slice(if i >> j & 1 == 0 { a } else { b });
            }
            String::from_utf8_lossy(&name).into_owned()
        })
        .collect()
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0100_0000_01b3;

/// FNV-1a of `bytes` from state `h`.
pub fn fnv1a(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h = (h ^ u64::from(b)).wrapping_mul(FNV_PRIME);
    }
    h
}

/// The bits of FNV-1a made equal: the low bits of the state depend on the low bits alone, so
/// blocks can be found that agree on them whatever the rest.
const FNV_BITS: u32 = 20;

/// About `bytes` bytes of distinct attribute names whose FNV-1a hashes share their low 20 bits
/// (the bucket a hash table with up to 1M slots puts them in): 3-byte blocks, two choices each.
pub fn fnv_colliding_names(bytes: usize) -> Vec<String> {
    let mask = (1u64 << FNV_BITS) - 1;
    let per = |k: usize| 1 + 3 * k + 4;
    let mut k = 1;
    while (1usize << k) * per(k) < bytes && k < 24 {
        k += 1;
    }
    let count = (bytes / per(k)).clamp(1, 1 << k);
    let mut h = fnv1a(FNV_OFFSET, b"f");
    let mut blocks = Vec::with_capacity(k);
    for _ in 0..k {
        let mut seen: HashMap<u64, [u8; 3]> = HashMap::new();
        let mut pair = None;
        'search: for &x in NAME_CHARS {
            for &y in NAME_CHARS {
                for &z in NAME_CHARS {
                    let block = [x, y, z];
                    let low = fnv1a(h, &block) & mask;
                    match seen.get(&low) {
                        Some(&other) => {
                            pair = Some((other, block));
                            break 'search;
                        }
                        None => {
                            seen.insert(low, block);
                        }
                    }
                }
            }
        }
        let Some((a, b)) = pair else { break };
        h = fnv1a(h, &a);
        blocks.push((a, b));
    }
    let k = blocks.len();
    (0..count.min(1 << k))
        .map(|i| {
            let mut name = b"f".to_vec();
            for (j, (a, b)) in blocks.iter().enumerate() {
                name.extend_from_slice(if i >> j & 1 == 0 { a } else { b });
            }
            String::from_utf8_lossy(&name).into_owned()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cases_have_their_size_and_distinct_names() {
        let mut names: Vec<&str> = CASES.iter().map(|c| c.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), CASES.len());
        for case in CASES {
            let small = (case.generate)(case.base / 64);
            let larger = (case.generate)(case.base / 16);
            assert!(!small.is_empty(), "{}", case.name);
            let ratio = larger.len() as f64 / small.len() as f64;
            assert!((3.0..5.0).contains(&ratio), "{}: {ratio}", case.name);
            assert!(std::str::from_utf8(&larger).is_ok(), "{}", case.name);
        }
    }

    #[test]
    fn fx_names_are_distinct_and_share_one_hash() {
        let names = fx_colliding_names(200_000);
        assert!(names.len() > 500, "{}", names.len());
        let first = fx_name_hash(names[0].as_bytes());
        let mut distinct = names.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), names.len());
        for n in &names {
            assert_eq!(fx_name_hash(n.as_bytes()), first, "{n}");
            assert!(n.bytes().all(|b| NAME_CHARS.contains(&b)));
        }
    }

    #[test]
    fn fnv_names_are_distinct_and_share_the_low_bits() {
        let names = fnv_colliding_names(200_000);
        assert!(names.len() > 2000, "{}", names.len());
        let mask = (1u64 << FNV_BITS) - 1;
        let first = fnv1a(FNV_OFFSET, names[0].as_bytes()) & mask;
        let mut distinct = names.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), names.len());
        for n in &names {
            assert_eq!(fnv1a(FNV_OFFSET, n.as_bytes()) & mask, first, "{n}");
        }
    }
}
