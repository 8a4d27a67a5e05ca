//! The attributes of the tag a `Start` event was built from, as a view of the reader.

use thicket_input::Span;

use super::namespaces::Namespaces;
use super::tag::{Attr, Split, TagAssembly};
use crate::event::WrittenAttribute;

/// The attributes of the tag a `Start` event was built from, borrowed from the reader: the
/// tag's text (line-break normalized), its assembly (attributes, declarations included, and
/// decoded strings), its external attributes (each one's prefix position in the namespace stack
/// and index in `attrs`, from `check_rewrite`) and where the tag starts in the decoded text.
#[derive(Clone, Copy)]
pub(crate) struct TagAttributes<'a> {
    pub(super) text: &'a str,
    pub(super) tag: &'a TagAssembly,
    pub(super) external: &'a [(usize, usize)],
    pub(super) ns: &'a Namespaces,
    pub(super) base: usize,
}

impl<'a> TagAttributes<'a> {
    /// The local attribute map in document order.
    #[inline]
    pub(crate) fn local(self) -> TagLocal<'a> {
        TagLocal {
            tag: self,
            attrs: self.tag.attrs.iter(),
        }
    }

    /// The external attribute map in document order.
    #[inline]
    pub(crate) fn external(self) -> TagExternal<'a> {
        TagExternal {
            tag: self,
            external: self.external.iter(),
        }
    }

    /// Every attribute as written, in document order.
    #[inline]
    pub(crate) fn written(self) -> TagWritten<'a> {
        TagWritten { tag: self, k: 0 }
    }

    #[inline]
    fn name(self, a: &Attr) -> &'a str {
        a.name.get(self.text, &self.tag.decoded)
    }

    #[inline]
    fn value(self, a: &Attr) -> &'a str {
        a.value.get(self.text, &self.tag.decoded)
    }
}

/// The local attributes of a [`TagAttributes`].
#[derive(Clone)]
pub(crate) struct TagLocal<'a> {
    tag: TagAttributes<'a>,
    attrs: std::slice::Iter<'a, Attr>,
}

impl<'a> Iterator for TagLocal<'a> {
    type Item = (&'a str, &'a str);

    #[inline]
    fn next(&mut self) -> Option<(&'a str, &'a str)> {
        let tag = self.tag;
        self.attrs.find_map(|a| {
            let name = tag.name(a);
            (a.split == Split::Local && name != "xmlns").then(|| (name, tag.value(a)))
        })
    }
}

/// The external attributes of a [`TagAttributes`].
#[derive(Clone)]
pub(crate) struct TagExternal<'a> {
    tag: TagAttributes<'a>,
    external: std::slice::Iter<'a, (usize, usize)>,
}

impl<'a> Iterator for TagExternal<'a> {
    type Item = (&'a str, &'a str, &'a str);

    #[inline]
    fn next(&mut self) -> Option<(&'a str, &'a str, &'a str)> {
        let tag = self.tag;
        self.external.find_map(|&(position, k)| {
            let a = tag.tag.attrs.get(k)?;
            let namespace = tag.ns.value(position)?;
            Some((namespace, a.split.apply(tag.name(a)).1, tag.value(a)))
        })
    }
}

/// Every attribute of a [`TagAttributes`] as written, with where its name and value are.
#[derive(Clone)]
pub(crate) struct TagWritten<'a> {
    tag: TagAttributes<'a>,
    k: usize,
}

impl<'a> Iterator for TagWritten<'a> {
    type Item = WrittenAttribute<'a>;

    fn next(&mut self) -> Option<WrittenAttribute<'a>> {
        let tag = self.tag;
        let a = tag.tag.attrs.get(self.k)?;
        let [name_start, name_end, value_start, value_end] = match tag.tag.written.get(self.k) {
            Some(&w) => w,
            None => [a.name.start, a.name.end, a.value.start, a.value.end],
        }
        .map(|o| tag.base + o as usize);
        self.k += 1;
        Some(WrittenAttribute {
            name: tag.name(a),
            value: tag.value(a),
            name_span: Span::new(name_start, name_end),
            value_span: Span::new(value_start, value_end),
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.tag.tag.attrs.len().saturating_sub(self.k);
        (n, Some(n))
    }
}
