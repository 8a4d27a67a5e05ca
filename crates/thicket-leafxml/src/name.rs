//! [`Name`]: the shared string of a tree's names and namespaces.

use std::borrow::Borrow;
use std::collections::HashMap;
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

/// A local name or namespace of an [`Element`](crate::Element) or [`Attribute`](crate::Attribute):
/// an immutable string behind a shared pointer (8 bytes; cloning copies the pointer). Decoding
/// gives every occurrence of the same name in a document the same `Name`, so a name costs its
/// bytes once per document, not once per element. It reads as a `&str` (`Deref`), compares with
/// strings, and is built from one with `into()`.
///
/// ```
/// use thicket_leafxml::{Element, Name};
/// let root = Element::parse(b"<a><b/><b/></a>")?;
/// let [first, second] = [0, 1].map(|i| root.child_elements().nth(i).unwrap());
/// assert_eq!(first.local_name, "b");
/// assert!(Name::ptr_eq(&first.local_name, &second.local_name));
/// let renamed = Element::new("c");
/// assert_eq!(renamed.local_name.len(), 1);
/// # Ok::<(), thicket_leafxml::Error>(())
/// ```
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Name(Arc<Box<str>>);

impl Name {
    /// A name holding `s`.
    pub fn new(s: &str) -> Name {
        Name(Arc::new(s.into()))
    }

    /// The name as a string slice.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether `a` and `b` share one string (as decoding makes equal names of a document).
    pub fn ptr_eq(a: &Name, b: &Name) -> bool {
        Arc::ptr_eq(&a.0, &b.0)
    }

    /// The bytes of the shared string (its header, pointer and text), for measurements.
    pub(crate) fn heap_size(&self) -> usize {
        size_of::<[usize; 2]>() + size_of::<Box<str>>() + self.0.len()
    }

    /// The address of the shared string, to count it once.
    pub(crate) fn addr(&self) -> usize {
        Arc::as_ptr(&self.0) as usize
    }
}

impl Default for Name {
    fn default() -> Name {
        Name::new("")
    }
}

impl Deref for Name {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Name {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for Name {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self)
    }
}

impl From<&str> for Name {
    fn from(s: &str) -> Name {
        Name::new(s)
    }
}

impl From<String> for Name {
    fn from(s: String) -> Name {
        Name(Arc::new(s.into_boxed_str()))
    }
}

impl From<&String> for Name {
    fn from(s: &String) -> Name {
        Name::new(s)
    }
}

impl From<Box<str>> for Name {
    fn from(s: Box<str>) -> Name {
        Name(Arc::new(s))
    }
}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Name {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<Name> for str {
    fn eq(&self, other: &Name) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<Name> for &str {
    fn eq(&self, other: &Name) -> bool {
        *self == other.as_str()
    }
}

/// The names of one tree being built: each distinct string becomes one [`Name`] with a number
/// (a `HashMap` with std's `RandomState`, keyed per map, numbers them). Documents repeat their
/// names in the same order element after element (a feed's items, a table's rows), so each name
/// remembers the name looked up after it last time, and that one is compared first: one
/// comparison before the keyed hash. The last namespace is kept aside too, since an element is
/// usually in its parent's.
#[derive(Debug)]
pub(crate) struct Interner {
    index: HashMap<Name, usize>,
    /// Each name with the number of the name looked up after it last time (`NONE`: none).
    names: Vec<(Name, usize)>,
    /// The number of the name looked up last.
    prev: usize,
    /// The number of the namespace looked up last.
    last_namespace: usize,
}

/// No name.
const NONE: usize = usize::MAX;

impl Interner {
    pub(crate) fn new() -> Interner {
        Interner {
            index: HashMap::new(),
            names: Vec::new(),
            prev: NONE,
            last_namespace: NONE,
        }
    }

    /// The number of `s` (numbers count up from 0 in order of first appearance).
    pub(crate) fn number(&mut self, s: &str) -> usize {
        let predicted = self.names.get(self.prev).map_or(NONE, |&(_, next)| next);
        if let Some((n, _)) = self.names.get(predicted)
            && n.as_str() == s
        {
            self.prev = predicted;
            return predicted;
        }
        let i = match self.index.get(s) {
            Some(&i) => i,
            None => {
                let n = Name::new(s);
                self.index.insert(n.clone(), self.names.len());
                self.names.push((n, NONE));
                self.names.len() - 1
            }
        };
        if let Some((_, next)) = self.names.get_mut(self.prev) {
            *next = i;
        }
        self.prev = i;
        i
    }

    /// The number of the namespace `s` (the same numbers as [`Interner::number`]).
    pub(crate) fn namespace_number(&mut self, s: &str) -> usize {
        if let Some((n, _)) = self.names.get(self.last_namespace)
            && n.as_str() == s
        {
            return self.last_namespace;
        }
        self.last_namespace = self.number(s);
        self.last_namespace
    }

    /// The shared `Name` for `s`.
    pub(crate) fn name(&mut self, s: &str) -> Name {
        let i = self.number(s);
        self.names[i].0.clone()
    }

    /// The shared `Name` for the namespace `s`.
    pub(crate) fn namespace(&mut self, s: &str) -> Name {
        let i = self.namespace_number(s);
        self.names[i].0.clone()
    }

    /// The names, in the order of their numbers.
    pub(crate) fn into_names(self) -> Vec<Name> {
        self.names.into_iter().map(|(n, _)| n).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interning_gives_one_name_per_string_whatever_the_order() {
        let mut interner = Interner::new();
        let seq = [
            "a", "b", "c", "a", "b", "d", "a", "b", "c", "", "c", "bb", "b",
        ];
        let mut seen: Vec<Name> = Vec::new();
        for _ in 0..3 {
            for s in seq {
                let n = interner.name(s);
                assert_eq!(n, s);
                match seen.iter().find(|m| m.as_str() == s) {
                    Some(m) => assert!(Name::ptr_eq(m, &n), "{s:?}"),
                    None => seen.push(n),
                }
            }
        }
        let ns = interner.namespace("urn:x");
        assert!(Name::ptr_eq(&ns, &interner.namespace("urn:x")));
        assert!(Name::ptr_eq(&ns, &interner.name("urn:x")));
        assert!(Name::ptr_eq(&seen[1], &interner.namespace("b")));
    }

    #[test]
    fn names_read_and_compare_as_strings() {
        let n = Name::from("feed");
        assert_eq!(n, "feed");
        assert_eq!("feed", n);
        assert_eq!(n, String::from("feed"));
        assert_eq!(&*n, "feed");
        assert_eq!(format!("{n} {n:?}"), "feed \"feed\"");
        let mut sorted = [Name::from("b"), Name::from("a")];
        sorted.sort();
        assert_eq!(sorted, ["a", "b"]);
        assert_eq!(Name::default(), "");
        assert!(!Name::ptr_eq(&n, &Name::from("feed")));
    }
}
