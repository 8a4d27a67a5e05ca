//! The duplicate-attribute check: a linear scan while a tag has few attributes, then an index
//! safe from hash flooding: names are hashed with the shared policy of `thicket_names::keyed`
//! (the standard library's `RandomState`, a key chosen per tokenizer) over their bytes, so no input can be made to collide, and a name is compared only
//! with the names whose keyed hash equals its own (in practice: only with an equal name).

use thicket_names::keyed::{NameHasher, PrehashedMap};

use super::Tokenizer;
use super::tag::LINEAR_DUPLICATE_LIMIT;
use crate::error::ErrorCode;

/// No further name with the same hash.
const NONE: usize = usize::MAX;

/// The names of a tag's attributes, by keyed hash: name `i` is attribute `i` of the tag.
pub(super) struct NameIndex {
    keys: NameHasher,
    /// Keyed hash of a name to the last name inserted with that hash.
    heads: PrehashedMap<usize>,
    /// For each name, the previous name with the same keyed hash ([`NONE`] for none).
    next: Vec<usize>,
}

impl Default for NameIndex {
    fn default() -> Self {
        NameIndex {
            keys: NameHasher::new(),
            heads: PrehashedMap::default(),
            next: Vec::new(),
        }
    }
}

impl NameIndex {
    /// How many names are in.
    pub(super) fn len(&self) -> usize {
        self.next.len()
    }

    /// Empties the index for the next tag (its memory too, after a very large tag).
    pub(super) fn clear(&mut self) {
        if self.next.len() > 4096 {
            self.heads = PrehashedMap::default();
            self.next = Vec::new();
        } else {
            self.heads.clear();
            self.next.clear();
        }
    }

    /// Whether `name` equals a name already in (`name_of(i)` gives name `i`); if not, it goes
    /// in as name [`NameIndex::len`].
    pub(super) fn contains_or_insert<'n>(
        &mut self,
        name: &str,
        name_of: impl Fn(usize) -> &'n str,
    ) -> bool {
        let h = self.keys.hash_name(name);
        let mut i = self.heads.get(&h).copied().unwrap_or(NONE);
        while i != NONE {
            count_comparison();
            if name_of(i) == name {
                return true;
            }
            i = self.next[i];
        }
        let index = self.next.len();
        let previous = self.heads.insert(h, index).unwrap_or(NONE);
        self.next.push(previous);
        false
    }
}

impl<'a> Tokenizer<'a> {
    /// Leaving the attribute name state: drops the attribute if its name is already on the tag.
    /// Linear for small tags, then a keyed-hash index ([`NameIndex`]), so a tag with
    /// many attributes stays linear overall, whatever names it has.
    pub(super) fn check_duplicate_attribute(&mut self) {
        let Some(a) = &self.attr else { return };
        if self.tag.attrs.is_empty() {
            return;
        }
        let input = &self.input;
        let name = a.name.as_str(input);
        let attrs = &self.tag.attrs;
        let duplicate = if attrs.len() < LINEAR_DUPLICATE_LIMIT {
            // Lengths first: most names differ in length, and that needs no slicing.
            attrs.iter().any(|x| {
                count_comparison();
                x.name.len() == name.len() && x.name.as_str(input) == name
            })
        } else {
            let index = &mut self.attr_index;
            let name_of = |i: usize| attrs[i].name.as_str(input);
            // The attributes taken before the index was needed go in first (all distinct).
            while index.len() < attrs.len() {
                let n = name_of(index.len());
                index.contains_or_insert(n, name_of);
            }
            index.contains_or_insert(name, name_of)
        };
        if duplicate {
            self.attr_duplicate = true;
            self.error(ErrorCode::DuplicateAttribute);
        }
    }
}

#[cfg(test)]
thread_local! {
    /// Name comparisons made by the duplicate-attribute check on this thread (tests only).
    pub(crate) static COMPARISONS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Counts one name comparison (tests only; nothing in other builds).
#[inline(always)]
pub(super) fn count_comparison() {
    #[cfg(test)]
    COMPARISONS.with(|c| c.set(c.get() + 1));
}

#[cfg(test)]
mod tests {
    use super::COMPARISONS;
    use crate::{ErrorCode, Options, Token, Tokenizer};

    /// FxHash (rustc-hash 1.x, 64-bit), as a `HashMap<String, _, FxBuildHasher>` hashes a name:
    /// the bytes by words of 8, 4, 2 and 1, then `0xFF`.
    fn fx_hash(name: &[u8]) -> u64 {
        const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;
        let add = |h: u64, w: u64| (h.rotate_left(5) ^ w).wrapping_mul(K);
        let mut h = 0;
        let mut rest = name;
        while rest.len() >= 8 {
            h = add(h, u64::from_le_bytes(rest[..8].try_into().unwrap()));
            rest = &rest[8..];
        }
        if rest.len() >= 4 {
            h = add(
                h,
                u64::from(u32::from_le_bytes(rest[..4].try_into().unwrap())),
            );
            rest = &rest[4..];
        }
        if rest.len() >= 2 {
            h = add(
                h,
                u64::from(u16::from_le_bytes(rest[..2].try_into().unwrap())),
            );
            rest = &rest[2..];
        }
        if let Some(&b) = rest.first() {
            h = add(h, u64::from(b));
        }
        add(h, 0xFF)
    }

    /// Bytes an attribute name keeps as they are, without an error: printable ASCII but
    /// uppercase letters, quotes, `<`, `/`, `=` and `>`.
    fn name_byte(b: u8) -> bool {
        (0x21..=0x7E).contains(&b) && !b.is_ascii_uppercase() && !b"\"'</=>".contains(&b)
    }

    /// `count` distinct attribute names of 8 × (`stages` + 1) bytes whose FxHashes are all
    /// equal. Word `i`'s last byte varies; the product it enters FxHash's multiplication with
    /// then differs only in its top byte, which after the rotation by 5 lands in the low five
    /// bits and the top three bits of the next word's value. Keeping the variants whose top
    /// three bits agree and letting the next word's first byte cancel the low five makes every
    /// choice reach the same state; the stages multiply.
    fn colliding_names(stages: usize, count: usize) -> Vec<Vec<u8>> {
        const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;
        const FILL: u8 = b'q';
        // What enters the multiplication for the current word, with its last byte zero.
        let mut p = u64::from_le_bytes([FILL; 8]) & !(0xFF << 56);
        // Per stage: (last byte of word i, first byte of word i + 1) for each kept variant.
        let mut choices: Vec<Vec<(u8, u8)>> = Vec::new();
        for _ in 0..stages {
            let mut classes: Vec<Vec<(u8, u64)>> = vec![Vec::new(); 8];
            for v in (0..=255u8).filter(|&b| name_byte(b)) {
                let t = (p ^ (u64::from(v) << 56)).wrapping_mul(K);
                classes[((t >> 56) & 7) as usize].push((v, t.rotate_left(5)));
            }
            let class = classes.into_iter().max_by_key(Vec::len).unwrap();
            let r = class[0].1;
            // The next word: bytes 1 to 6 FILL, byte 0 in 0x60..0x7E, byte 7 varied next.
            let mut next = r ^ u64::from_le_bytes([FILL; 8]);
            next &= !0xFF;
            next |= u64::from((r as u8 & 0xE0) ^ 0x60);
            next = (next & !(0xFF << 56)) | (r & (0xFF << 56));
            let kept: Vec<(u8, u8)> = class
                .iter()
                .map(|&(v, r)| (v, (r ^ next) as u8))
                .filter(|&(_, first)| name_byte(first))
                .collect();
            choices.push(kept);
            p = next;
        }
        let mut names = Vec::with_capacity(count);
        let mut digits = vec![0usize; stages];
        while names.len() < count {
            let mut name = Vec::with_capacity(8 * (stages + 1));
            let mut first = FILL;
            for (stage, &d) in digits.iter().enumerate() {
                let (last, next_first) = choices[stage][d];
                name.push(first);
                name.extend_from_slice(&[FILL; 6]);
                name.push(last);
                first = next_first;
            }
            name.push(first);
            name.extend_from_slice(&[FILL; 7]);
            names.push(name);
            // The next combination (odometer).
            let mut s = 0;
            loop {
                assert!(s < stages, "only {} combinations", names.len());
                digits[s] += 1;
                if digits[s] < choices[s].len() {
                    break;
                }
                digits[s] = 0;
                s += 1;
            }
        }
        names
    }

    #[test]
    fn colliding_names_collide() {
        let names = colliding_names(6, 2000);
        let h = fx_hash(&names[0]);
        assert!(names.iter().all(|n| fx_hash(n) == h));
        let distinct: std::collections::BTreeSet<&Vec<u8>> = names.iter().collect();
        assert_eq!(distinct.len(), names.len());
        assert!(names.iter().flatten().all(|&b| name_byte(b)));
    }

    /// 100 000 attribute names with one FxHash, each once, then 20 000 of them again: every
    /// name is kept once, every repeat reported, and the names compared stay linear in the
    /// attributes (at most 16 per attribute while the tag is small, then about one per
    /// duplicate).
    #[test]
    fn duplicate_check_stays_linear_on_colliding_names() {
        const DISTINCT: usize = 100_000;
        const REPEATS: usize = 20_000;
        let names = colliding_names(6, DISTINCT);
        let h = fx_hash(&names[0]);
        assert!(names.iter().all(|n| fx_hash(n) == h));
        let mut input = String::from("<a");
        for n in names.iter().chain(names.iter().step_by(DISTINCT / REPEATS)) {
            input.push(' ');
            input.push_str(std::str::from_utf8(n).unwrap());
        }
        input.push('>');
        // Whole (the direct paths first) and in chunks of 1000 bytes (the states).
        for chunk in [input.len(), 1000] {
            COMPARISONS.with(|c| c.set(0));
            let mut tok = Tokenizer::with_options(Options::default());
            for piece in input.as_bytes().chunks(chunk) {
                tok.feed(std::str::from_utf8(piece).unwrap());
            }
            tok.finish();
            let Some(Token::StartTag(tag)) = tok.next_token() else {
                panic!("a start tag")
            };
            assert_eq!(tag.attributes.len(), DISTINCT);
            drop(tag);
            let duplicates = tok
                .diagnostics()
                .iter()
                .filter(|d| d.code == ErrorCode::DuplicateAttribute)
                .count();
            assert_eq!(duplicates, REPEATS);
            let compared = COMPARISONS.with(|c| c.get());
            let attributes = DISTINCT + REPEATS;
            assert!(
                compared <= 16 * 16 + 2 * REPEATS,
                "{compared} name comparisons for {attributes} attributes"
            );
        }
    }
}
