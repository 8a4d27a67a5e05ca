//! [`Name`]: the shared string of a tree's names and namespaces.

use std::borrow::Borrow;
use std::collections::HashSet;
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

/// The names of one tree being built: each distinct string becomes one [`Name`] (a `HashSet`
/// with std's `RandomState`, keyed per set). The last namespace is kept aside, since an element
/// is usually in its parent's.
#[derive(Default)]
pub(crate) struct Interner {
    names: HashSet<Name>,
    last_namespace: Option<Name>,
}

impl Interner {
    /// The shared `Name` for `s`.
    pub(crate) fn name(&mut self, s: &str) -> Name {
        if let Some(n) = self.names.get(s) {
            return n.clone();
        }
        let n = Name::new(s);
        self.names.insert(n.clone());
        n
    }

    /// The shared `Name` for the namespace `s`.
    pub(crate) fn namespace(&mut self, s: &str) -> Name {
        if let Some(n) = &self.last_namespace
            && n.as_str() == s
        {
            return n.clone();
        }
        let n = self.name(s);
        self.last_namespace = Some(n.clone());
        n
    }
}
