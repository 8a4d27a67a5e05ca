//! The open elements a streamed check keeps (XML5's restartable tree builder, MicroXML's
//! structure checks): their names in one buffer, so an open element costs its name's bytes and
//! a few words, not an allocation of its own.

use std::collections::HashMap;

/// A stack of open elements, each with its name and a `T`, and how many open elements have each
/// name (the map uses the standard library's keyed hasher: the names come from the document).
#[derive(Debug)]
pub struct OpenElements<T> {
    /// The names, one after the other.
    names: String,
    /// Where each element's name ends in `names`, and its data.
    items: Vec<(usize, T)>,
    /// How many open elements have each name.
    counts: HashMap<Box<str>, usize>,
}

impl<T> Default for OpenElements<T> {
    fn default() -> Self {
        OpenElements {
            names: String::new(),
            items: Vec::new(),
            counts: HashMap::new(),
        }
    }
}

impl<T> OpenElements<T> {
    /// How many elements are open.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Opens an element.
    pub fn push(&mut self, name: &str, data: T) {
        self.names.push_str(name);
        self.items.push((self.names.len(), data));
        match self.counts.get_mut(name) {
            Some(n) => *n += 1,
            None => {
                self.counts.insert(name.into(), 1);
            }
        }
    }

    /// Closes the current element; returns its data.
    pub fn pop(&mut self) -> Option<T> {
        let (_, data) = self.items.pop()?;
        let start = self.items.last().map_or(0, |(end, _)| *end);
        let name = &self.names[start..];
        if let Some(n) = self.counts.get_mut(name) {
            *n -= 1;
            if *n == 0 {
                self.counts.remove(name);
            }
        }
        self.names.truncate(start);
        Some(data)
    }

    /// The current element's name.
    pub fn last_name(&self) -> Option<&str> {
        let (end, _) = self.items.last()?;
        let start = self
            .items
            .len()
            .checked_sub(2)
            .map_or(0, |i| self.items[i].0);
        Some(&self.names[start..*end])
    }

    /// Whether an element called `name` is open.
    pub fn is_open(&self, name: &str) -> bool {
        self.counts.contains_key(name)
    }

    /// The open elements from the outermost: name and data.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &T)> {
        let mut start = 0;
        self.items.iter().map(move |(end, data)| {
            let name = &self.names[start..*end];
            start = *end;
            (name, data)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pushes_and_pops_names_and_counts() {
        let mut open = OpenElements::default();
        open.push("a", 1);
        open.push("bé", 2);
        open.push("a", 3);
        assert_eq!(open.len(), 3);
        assert_eq!(open.last_name(), Some("a"));
        assert!(open.is_open("bé") && !open.is_open("b"));
        let all: Vec<(&str, &i32)> = open.iter().collect();
        assert_eq!(all, [("a", &1), ("bé", &2), ("a", &3)]);
        assert_eq!(open.pop(), Some(3));
        assert!(open.is_open("a"));
        assert_eq!(open.last_name(), Some("bé"));
        assert_eq!(open.pop(), Some(2));
        assert!(!open.is_open("bé"));
        assert_eq!(open.pop(), Some(1));
        assert!(!open.is_open("a") && open.is_empty());
        assert_eq!(open.pop(), None);
        assert_eq!(open.last_name(), None);
    }
}
