//! The streaming matcher: every compound of every selector gets one bit, and each open element
//! keeps a fixed number of bit sets (its own matches, its ancestors', its last child's and all
//! its earlier children's), so a start tag is decided from its parent's frame alone, in time
//! linear in the selector program, whatever the depth. Per-name counters for `:nth-of-type`
//! live in a keyed map per open element (`thicket_names::keyed`), only when a selector needs them.

use std::cell::Cell;
use std::rc::Rc;

use thicket_names::keyed::{NameHasher, PrehashedMap};

use crate::selector::{Attr, Candidate, Combinator, SelectorList, Simple};

/// Counts per name, keyed by the name's keyed hash (names of one hash compared in full).
pub(crate) type NameCounts = PrehashedMap<Vec<(Box<str>, u32)>>;

/// A bit per compound of the program, while a start tag is decided: the first 64 inline, the
/// rest (for programs of more compounds) in a list.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Bits {
    first: u64,
    /// Words 1 and up (empty, allocating nothing, for programs of at most 64 compounds).
    rest: Vec<u64>,
}

impl Bits {
    #[inline]
    fn zeros(n: usize) -> Bits {
        if n <= 64 {
            return Bits {
                first: 0,
                rest: Vec::new(),
            };
        }
        Bits::zeros_wide(n)
    }
    #[cold]
    fn zeros_wide(n: usize) -> Bits {
        Bits {
            first: 0,
            rest: vec![0; rest_words(n)],
        }
    }
    #[inline]
    fn get(&self, i: usize) -> bool {
        let word = match i / 64 {
            0 => self.first,
            k => self.rest[k - 1],
        };
        word >> (i % 64) & 1 == 1
    }
    #[inline]
    fn set(&mut self, i: usize) {
        match i / 64 {
            0 => self.first |= 1 << (i % 64),
            k => self.rest[k - 1] |= 1 << (i % 64),
        }
    }
}

/// Words past the first of a set of `n` bits.
#[inline]
fn rest_words(n: usize) -> usize {
    n.div_ceil(64).saturating_sub(1)
}

/// The four bit sets of a frame (`MatchFrame::first`'s order).
const OWN: usize = 0;
const ANCESTORS: usize = 1;
const LAST_CHILD: usize = 2;
const EARLIER_CHILDREN: usize = 3;

/// The matching state of one open element (or of the document, at the bottom): four bit sets
/// (which compounds matched this element as their subject, with their left context; the OR of
/// that over the element and its ancestors; that of the last element child seen so far; the OR
/// of that over the element children seen so far) and a count of element children. An open
/// element's frame holds the first word of each set inline and the rest, with `:nth-of-type`'s
/// counters, behind one pointer that a usual program (at most 64 compounds, no
/// `:nth-of-type`) never allocates: the core's whole frame for an open element stays within 64
/// bytes.
#[derive(Debug)]
pub(crate) struct MatchFrame {
    first: [u64; 4],
    /// Element children seen so far.
    children: u32,
    extra: Option<Box<Extra>>,
}

/// What a frame of a wide program, or one that counts children per name, keeps out of line.
#[derive(Debug, Default)]
struct Extra {
    /// Words 1 and up of the four sets, one set after the other (`rest_words(width)` each).
    rest: Box<[u64]>,
    /// Element children per name (only when a selector uses `:nth-of-type`).
    type_counts: TypeCounts,
}

/// What one counted name costs in [`Budget`] besides its bytes: its count and index entry.
pub(crate) const COUNTER_COST: usize = 32;

/// The bytes the `:nth-of-type` counters of every open element hold together
/// (`MemoryLimits::max_counters`): each distinct name counts its length and
/// [`COUNTER_COST`]. A frame's counters give theirs back when the frame is dropped.
#[derive(Debug, Default)]
pub(crate) struct Budget {
    used: Cell<usize>,
    max: Option<usize>,
    /// A name was counted past `max` (the core stops the rewrite with `counter-limit`).
    over: Cell<bool>,
}

/// Element children per name, compactly: the names end to end in one string, and per name
/// (by its keyed hash) where it is and how many; no allocation per name. Two names of one
/// keyed hash (which no input can arrange) go to a list compared in full.
#[derive(Debug, Default)]
struct TypeCounts {
    names: String,
    /// Keyed hash -> (where the name starts in `names`, its length, the count).
    counts: PrehashedMap<(u32, u32, u32)>,
    /// Names whose hash another name has already.
    others: Vec<(Box<str>, u32)>,
    /// What these counters charged to `budget`.
    charged: usize,
    budget: Option<Rc<Budget>>,
}

impl Drop for TypeCounts {
    fn drop(&mut self) {
        if let Some(b) = &self.budget {
            b.used.set(b.used.get().saturating_sub(self.charged));
        }
    }
}

impl TypeCounts {
    /// Charges a name seen for the first time to the budget.
    fn charge(&mut self, budget: &Rc<Budget>, name: &str) {
        let cost = name.len() + COUNTER_COST;
        let used = budget.used.get() + cost;
        budget.used.set(used);
        self.charged += cost;
        if self.budget.is_none() {
            self.budget = Some(Rc::clone(budget));
        }
        if budget.max.is_some_and(|max| used > max) {
            budget.over.set(true);
        }
    }

    /// Counts one more child named `name` (keyed hash `key`); its count with it.
    fn add(&mut self, key: u64, name: &str, budget: &Rc<Budget>) -> u32 {
        let at = u32::try_from(self.names.len()).unwrap_or(u32::MAX);
        let len = u32::try_from(name.len()).unwrap_or(u32::MAX);
        let names = &mut self.names;
        let mut new = false;
        let entry = self.counts.entry(key).or_insert_with(|| {
            names.push_str(name);
            new = true;
            (at, len, 0)
        });
        let (start, len, count) = entry;
        let same = names
            .get(*start as usize..*start as usize + *len as usize)
            .is_some_and(|n| n == name);
        if same {
            *count += 1;
            let count = *count;
            if new {
                self.charge(budget, name);
            }
            return count;
        }
        match self.others.iter_mut().find(|(n, _)| &**n == name) {
            Some((_, c)) => {
                *c += 1;
                *c
            }
            None => {
                self.others.push((name.into(), 1));
                self.charge(budget, name);
                1
            }
        }
    }
}

impl Extra {
    /// The four sets' words past the first, all clear, for a program of `width` compounds.
    #[cold]
    fn wide(width: usize) -> Box<Extra> {
        Box::new(Extra {
            rest: vec![0; 4 * rest_words(width)].into_boxed_slice(),
            type_counts: TypeCounts::default(),
        })
    }
}

impl MatchFrame {
    /// All sets clear, no child seen.
    #[inline]
    fn zeros(width: usize) -> MatchFrame {
        MatchFrame {
            first: [0; 4],
            children: 0,
            extra: if width <= 64 {
                None
            } else {
                Some(Extra::wide(width))
            },
        }
    }

    /// Words 1 and up of set `set`.
    #[inline]
    fn rest(&self, set: usize) -> &[u64] {
        match self.extra.as_deref() {
            Some(e) if !e.rest.is_empty() => {
                let w = e.rest.len() / 4;
                &e.rest[set * w..(set + 1) * w]
            }
            _ => &[],
        }
    }

    #[inline]
    fn rest_mut(&mut self, set: usize) -> &mut [u64] {
        match self.extra.as_deref_mut() {
            Some(e) if !e.rest.is_empty() => {
                let w = e.rest.len() / 4;
                &mut e.rest[set * w..(set + 1) * w]
            }
            _ => &mut [],
        }
    }

    /// Bit `i` of set `set`.
    #[inline]
    fn get(&self, set: usize, i: usize) -> bool {
        let word = match i / 64 {
            0 => self.first[set],
            k => self.rest(set)[k - 1],
        };
        word >> (i % 64) & 1 == 1
    }

    /// Clears set `set`.
    #[inline]
    fn clear(&mut self, set: usize) {
        self.first[set] = 0;
        self.rest_mut(set).iter_mut().for_each(|w| *w = 0);
    }

    /// Set `set` becomes `bits` (`or`: ORs `bits` in instead).
    #[inline]
    fn put(&mut self, set: usize, bits: &Bits, or: bool) {
        if or {
            self.first[set] |= bits.first;
        } else {
            self.first[set] = bits.first;
        }
        for (a, b) in self.rest_mut(set).iter_mut().zip(&bits.rest) {
            *a = if or { *a | b } else { *b };
        }
    }

    /// The count of element children named `local` so far, with this one.
    fn count_of_type(&mut self, hasher: &NameHasher, budget: &Rc<Budget>, local: &str) -> u32 {
        let key = hasher.hash_name(local);
        self.extra
            .get_or_insert_with(Default::default)
            .type_counts
            .add(key, local, budget)
    }
}

// An open element's frame in the core is this and two words: 64 bytes in all.
const _: () = assert!(std::mem::size_of::<MatchFrame>() <= 48);

/// The compiled program: the selector lists of the handlers, each compound with its bit.
#[derive(Debug)]
pub(crate) struct Program {
    /// Per handler: its list.
    lists: Vec<SelectorList>,
    width: usize,
    of_type: bool,
    /// When every `:nth-of-type` sits in a compound with a type name: those names, the only
    /// ones whose siblings are counted (so the counters stay as few as the selectors' names,
    /// whatever the document); `None`: every name is counted.
    of_type_names: Option<Vec<Box<str>>>,
    /// What the `:nth-of-type` counters hold, against `MemoryLimits::max_counters`.
    budget: Rc<Budget>,
    hasher: NameHasher,
    /// When every compound of the program names a type: those names (an element with another
    /// name matches no compound, so its bits are all clear without running the program).
    types: Option<Vec<Box<str>>>,
    /// No name in `types` has an ASCII capital: in HTML, whose tokens have lowercase names,
    /// the filter compares bytes instead of ignoring ASCII case.
    types_lowercase: bool,
}

/// Up to this many type names, [`Program::types`] is checked before the program runs.
const TYPE_FILTER_MAX: usize = 16;

/// The type names of the program when every compound has one (and there are few of them).
fn type_filter(lists: &[SelectorList]) -> Option<Vec<Box<str>>> {
    let mut types: Vec<Box<str>> = Vec::new();
    for selector in lists.iter().flat_map(|l| &l.selectors) {
        for compound in &selector.compounds {
            let name = compound.simples.iter().find_map(|s| match s {
                Simple::Type(name) => Some(name),
                _ => None,
            })?;
            if !types.contains(name) {
                types.push(name.clone());
            }
        }
    }
    (types.len() <= TYPE_FILTER_MAX).then_some(types)
}

/// `a == b` compared in line: tag and attribute names are short, and `==` calls `memcmp`
/// whenever the lengths agree.
#[inline]
pub(crate) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

impl Program {
    /// The program of `lists`, its `:nth-of-type` counters bounded by `max_counters` bytes.
    pub(crate) fn new(lists: Vec<SelectorList>, max_counters: Option<usize>) -> Program {
        // The compounds get their bits in order: handler by handler, selector by selector.
        let mut width = 0;
        let mut of_type = false;
        for s in lists.iter().flat_map(|l| &l.selectors) {
            width += s.compounds.len();
            of_type |= s.uses_of_type();
        }
        let types = type_filter(&lists);
        let mut names = Vec::new();
        let of_type_names = lists
            .iter()
            .flat_map(|l| &l.selectors)
            .flat_map(|s| &s.compounds)
            .all(|c| c.of_type_names(&mut names))
            .then_some(names);
        let types_lowercase = types
            .iter()
            .flatten()
            .all(|t| !t.bytes().any(|b| b.is_ascii_uppercase()));
        Program {
            lists,
            width,
            of_type,
            of_type_names,
            budget: Rc::new(Budget {
                max: max_counters,
                ..Budget::default()
            }),
            hasher: NameHasher::new(),
            types,
            types_lowercase,
        }
    }

    /// Whether the `:nth-of-type` counters went past `MemoryLimits::max_counters` (the
    /// rewrite stops with `counter-limit`).
    #[inline]
    pub(crate) fn counters_over(&self) -> bool {
        self.budget.over.get()
    }

    /// Whether there is anything to match.
    pub(crate) fn is_empty(&self) -> bool {
        self.width == 0
    }

    /// The frame of the document node.
    pub(crate) fn root_frame(&self) -> MatchFrame {
        MatchFrame::zeros(self.width)
    }

    /// Decides a start tag whose parent's frame is `parent`: fills `matched` with the handlers
    /// whose list matches, counts the element as the parent's child, and returns the frame the
    /// element gets if it is opened.
    #[inline]
    pub(crate) fn start(
        &self,
        parent: &mut MatchFrame,
        local: &str,
        attributes: &[Attr<'_>],
        html: bool,
        ns: Option<&dyn crate::namespaces::NsView>,
        matched: &mut Vec<usize>,
    ) -> MatchFrame {
        matched.clear();
        parent.children += 1;
        let index = parent.children;
        let counted = |names: &Vec<Box<str>>| {
            names.iter().any(|n| {
                if html {
                    n.eq_ignore_ascii_case(local)
                } else {
                    **n == *local
                }
            })
        };
        let type_index = if self.of_type && self.of_type_names.as_ref().is_none_or(counted) {
            parent.count_of_type(&self.hasher, &self.budget, local)
        } else {
            0
        };
        let may_match = match &self.types {
            None => true,
            // (An HTML token's name is lowercase; other dialects compare case and all.)
            Some(types) if self.types_lowercase || !html => types
                .iter()
                .any(|t| same_bytes(t.as_bytes(), local.as_bytes())),
            Some(types) => types.iter().any(|t| t.eq_ignore_ascii_case(local)),
        };
        if !may_match {
            // No compound can match: the element's bits are all clear, so is its parent's
            // last child's, and the rest of the parent's are as they were.
            parent.clear(LAST_CHILD);
            let mut frame = MatchFrame::zeros(self.width);
            frame.first[ANCESTORS] = parent.first[ANCESTORS];
            frame
                .rest_mut(ANCESTORS)
                .copy_from_slice(parent.rest(ANCESTORS));
            return frame;
        }
        let candidate = Candidate {
            local,
            attributes,
            html,
            index,
            type_index,
            ns,
        };
        let mut own = Bits::zeros(self.width);
        // The bit of the selector's first compound.
        let mut base = 0;
        for (h, list) in self.lists.iter().enumerate() {
            let mut hit = false;
            for selector in &list.selectors {
                for (k, compound) in selector.compounds.iter().enumerate() {
                    let context = k == 0
                        || match selector.combinators[k - 1] {
                            Combinator::Child => parent.get(OWN, base + k - 1),
                            Combinator::Descendant => parent.get(ANCESTORS, base + k - 1),
                            Combinator::Adjacent => parent.get(LAST_CHILD, base + k - 1),
                            Combinator::Sibling => parent.get(EARLIER_CHILDREN, base + k - 1),
                        };
                    if context && compound.matches(&candidate) {
                        own.set(base + k);
                    }
                }
                hit |= own.get(base + selector.compounds.len() - 1);
                base += selector.compounds.len();
            }
            if hit {
                matched.push(h);
            }
        }
        parent.put(LAST_CHILD, &own, false);
        parent.put(EARLIER_CHILDREN, &own, true);
        let mut frame = MatchFrame::zeros(self.width);
        frame.put(OWN, &own, false);
        frame.first[ANCESTORS] = parent.first[ANCESTORS] | own.first;
        for ((a, p), o) in frame
            .rest_mut(ANCESTORS)
            .iter_mut()
            .zip(parent.rest(ANCESTORS))
            .zip(&own.rest)
        {
            *a = p | o;
        }
        frame
    }
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use super::{Budget, COUNTER_COST, TypeCounts};

    #[test]
    fn type_counts_count_per_name_even_when_two_names_share_a_hash() {
        let budget = Rc::new(Budget::default());
        let mut c = TypeCounts::default();
        assert_eq!(c.add(1, "a", &budget), 1);
        assert_eq!(c.add(2, "b", &budget), 1);
        assert_eq!(c.add(1, "a", &budget), 2);
        // Another name with `a`'s hash (no input can arrange it: the hash is keyed).
        assert_eq!(c.add(1, "z", &budget), 1);
        assert_eq!(c.add(1, "z", &budget), 2);
        assert_eq!(c.add(1, "a", &budget), 3);
        assert_eq!(c.add(2, "b", &budget), 2);
        assert_eq!(c.names, "ab");
        assert_eq!(budget.used.get(), 3 * (1 + COUNTER_COST));
        drop(c);
        assert_eq!(budget.used.get(), 0);
    }

    #[test]
    fn the_budget_is_charged_once_per_distinct_name_and_flags_going_past_it() {
        let budget = Rc::new(Budget {
            max: Some(2 * (2 + COUNTER_COST)),
            ..Budget::default()
        });
        let mut c = TypeCounts::default();
        let mut d = TypeCounts::default();
        c.add(1, "aa", &budget);
        c.add(1, "aa", &budget);
        d.add(1, "aa", &budget);
        assert!(!budget.over.get());
        d.add(2, "bb", &budget);
        assert!(budget.over.get());
        drop(d);
        assert_eq!(budget.used.get(), 2 + COUNTER_COST);
    }
}
