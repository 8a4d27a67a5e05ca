//! The streaming matcher: every compound of every selector gets one bit, and each open element
//! keeps a fixed number of bit sets (its own matches, its ancestors', its last child's and all
//! its earlier children's), so a start tag is decided from its parent's frame alone, in time
//! linear in the selector program, whatever the depth. Per-name counters for `:nth-of-type`
//! live in a keyed map per open element (`thicket_names::keyed`), only when a selector needs them.

use thicket_names::keyed::{NameHasher, PrehashedMap};

use crate::selector::{Attr, Candidate, Combinator, SelectorList, Simple};

/// Counts per name, keyed by the name's keyed hash (names of one hash compared in full).
pub(crate) type NameCounts = PrehashedMap<Vec<(Box<str>, u32)>>;

/// A bit per compound of the program: the first 64 inline, the rest (for programs of more
/// compounds) in a list, so that a frame of a usual program allocates nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Bits {
    first: u64,
    /// Words 1 and up (`None` for programs of at most 64 compounds: a frame stays small). Boxed
    /// twice so that the pointer is thin: an open element's frame stays small enough to be
    /// moved without a call to `memcpy` (every start tag pushes one, every end tag pops one).
    #[allow(clippy::redundant_allocation)]
    rest: Option<Box<Box<[u64]>>>,
}

impl Bits {
    #[inline]
    fn zeros(n: usize) -> Bits {
        if n <= 64 {
            return Bits {
                first: 0,
                rest: None,
            };
        }
        Bits::zeros_wide(n)
    }
    #[cold]
    fn zeros_wide(n: usize) -> Bits {
        let words = n.div_ceil(64).saturating_sub(1);
        Bits {
            first: 0,
            rest: Some(Box::new(vec![0; words].into_boxed_slice())),
        }
    }
    #[inline]
    fn rest(&self) -> &[u64] {
        self.rest.as_deref().map_or(&[], |r| &r[..])
    }
    #[inline]
    fn get(&self, i: usize) -> bool {
        let word = match i / 64 {
            0 => self.first,
            k => self.rest()[k - 1],
        };
        word >> (i % 64) & 1 == 1
    }
    #[inline]
    fn set(&mut self, i: usize) {
        match i / 64 {
            0 => self.first |= 1 << (i % 64),
            k => {
                if let Some(rest) = self.rest.as_deref_mut() {
                    rest[k - 1] |= 1 << (i % 64);
                }
            }
        }
    }
    #[inline]
    fn or(&mut self, other: &Bits) {
        self.first |= other.first;
        if let Some(rest) = self.rest.as_deref_mut() {
            for (a, b) in rest.iter_mut().zip(other.rest()) {
                *a |= b;
            }
        }
    }
    #[inline]
    fn clear(&mut self) {
        self.first = 0;
        if let Some(rest) = self.rest.as_deref_mut() {
            rest.iter_mut().for_each(|w| *w = 0);
        }
    }
}

/// The matching state of one open element (or of the document, at the bottom).
#[derive(Debug)]
pub(crate) struct MatchFrame {
    /// Which compounds matched this element as their subject (with their left context).
    own: Bits,
    /// The OR of `own` over this element and its ancestors.
    ancestors: Bits,
    /// `own` of the last element child seen so far.
    last_child: Bits,
    /// The OR of `own` over the element children seen so far.
    earlier_children: Bits,
    /// Element children seen so far.
    children: u32,
    /// Element children per name (only when a selector uses `:nth-of-type`).
    type_counts: Option<Box<NameCounts>>,
}

/// The compiled program: the selector lists of the handlers, each compound with its bit.
#[derive(Debug)]
pub(crate) struct Program {
    /// Per handler: its list.
    lists: Vec<SelectorList>,
    width: usize,
    of_type: bool,
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

/// `a == b` compared in line: tag names are short, and `==` calls `memcmp` whenever the
/// lengths agree.
#[inline]
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

impl Program {
    pub(crate) fn new(lists: Vec<SelectorList>) -> Program {
        // The compounds get their bits in order: handler by handler, selector by selector.
        let mut width = 0;
        let mut of_type = false;
        for s in lists.iter().flat_map(|l| &l.selectors) {
            width += s.compounds.len();
            of_type |= s.uses_of_type();
        }
        let types = type_filter(&lists);
        let types_lowercase = types
            .iter()
            .flatten()
            .all(|t| !t.bytes().any(|b| b.is_ascii_uppercase()));
        Program {
            lists,
            width,
            of_type,
            hasher: NameHasher::new(),
            types,
            types_lowercase,
        }
    }

    /// Whether there is anything to match.
    pub(crate) fn is_empty(&self) -> bool {
        self.width == 0
    }

    /// The frame of the document node.
    pub(crate) fn root_frame(&self) -> MatchFrame {
        MatchFrame {
            own: Bits::zeros(self.width),
            ancestors: Bits::zeros(self.width),
            last_child: Bits::zeros(self.width),
            earlier_children: Bits::zeros(self.width),
            children: 0,
            type_counts: None,
        }
    }

    /// Decides a start tag whose parent's frame is `parent`: fills `matched` with the handlers
    /// whose list matches, counts the element as the parent's child, and returns the frame the
    /// element gets if it is opened.
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
        let type_index = if self.of_type {
            let key = self.hasher.hash_name(local);
            let slot = parent
                .type_counts
                .get_or_insert_with(Default::default)
                .entry(key)
                .or_default();
            match slot.iter_mut().find(|(n, _)| &**n == local) {
                Some((_, c)) => {
                    *c += 1;
                    *c
                }
                None => {
                    slot.push((local.into(), 1));
                    1
                }
            }
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
            parent.last_child.clear();
            return MatchFrame {
                own: Bits::zeros(self.width),
                ancestors: parent.ancestors.clone(),
                last_child: Bits::zeros(self.width),
                earlier_children: Bits::zeros(self.width),
                children: 0,
                type_counts: None,
            };
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
                            Combinator::Child => parent.own.get(base + k - 1),
                            Combinator::Descendant => parent.ancestors.get(base + k - 1),
                            Combinator::Adjacent => parent.last_child.get(base + k - 1),
                            Combinator::Sibling => parent.earlier_children.get(base + k - 1),
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
        parent.last_child.clear();
        parent.last_child.or(&own);
        parent.earlier_children.or(&own);
        let mut ancestors = parent.ancestors.clone();
        ancestors.or(&own);
        MatchFrame {
            own,
            ancestors,
            last_child: Bits::zeros(self.width),
            earlier_children: Bits::zeros(self.width),
            children: 0,
            type_counts: None,
        }
    }
}
