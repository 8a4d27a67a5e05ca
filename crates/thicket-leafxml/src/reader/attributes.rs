//! The attributes of the tag a `Start` event was built from, as a view of the reader.

use super::namespaces::Namespaces;
use super::tag::{Attr, Split};

/// The attributes of the tag a `Start` event was built from, borrowed from the reader: the
/// tag's text, its attributes (declarations included) and its external attributes (each one's
/// prefix position in the namespace stack and index in `attrs`, from `check_rewrite`).
#[derive(Clone, Copy)]
pub(crate) struct TagAttributes<'a> {
    pub(super) text: &'a str,
    pub(super) attrs: &'a [Attr],
    pub(super) external: &'a [(usize, usize)],
    pub(super) ns: &'a Namespaces,
}

impl<'a> TagAttributes<'a> {
    /// The local attribute map in document order.
    #[inline]
    pub(crate) fn local(self) -> TagLocal<'a> {
        TagLocal {
            text: self.text,
            attrs: self.attrs.iter(),
        }
    }

    /// The external attribute map in document order.
    #[inline]
    pub(crate) fn external(self) -> TagExternal<'a> {
        TagExternal {
            text: self.text,
            attrs: self.attrs,
            ns: self.ns,
            external: self.external.iter(),
        }
    }
}

/// The local attributes of a [`TagAttributes`].
#[derive(Clone)]
pub(crate) struct TagLocal<'a> {
    text: &'a str,
    attrs: std::slice::Iter<'a, Attr>,
}

impl<'a> Iterator for TagLocal<'a> {
    type Item = (&'a str, &'a str);

    #[inline]
    fn next(&mut self) -> Option<(&'a str, &'a str)> {
        let text = self.text;
        self.attrs.find_map(|a| {
            let name = a.name.get(text);
            (a.split == Split::Local && name != "xmlns").then(|| (name, a.value.get(text)))
        })
    }
}

/// The external attributes of a [`TagAttributes`].
#[derive(Clone)]
pub(crate) struct TagExternal<'a> {
    text: &'a str,
    attrs: &'a [Attr],
    ns: &'a Namespaces,
    external: std::slice::Iter<'a, (usize, usize)>,
}

impl<'a> Iterator for TagExternal<'a> {
    type Item = (&'a str, &'a str, &'a str);

    #[inline]
    fn next(&mut self) -> Option<(&'a str, &'a str, &'a str)> {
        let (text, attrs, ns) = (self.text, self.attrs, self.ns);
        self.external.find_map(|&(position, k)| {
            let a = attrs.get(k)?;
            let namespace = ns.value(position)?;
            Some((
                namespace,
                a.split.apply(a.name.get(text)).1,
                a.value.get(text),
            ))
        })
    }
}
