//! Resource limits for untrusted input, and the capped diagnostic list every parser keeps.
//!
//! One [`Limits`] type serves every dialect. Each dialect honours the limits where its notion
//! exists (HTML has no nesting depth, MicroXML no namespaces) and documents, in its docs page,
//! what it does when one is reached. Every limit is off by default ([`Limits::none`]); the
//! command line turns them on with [`Limits::untrusted`]. Reaching a limit is a diagnostic with
//! the dialect's own code (the same kebab-case code in every dialect, listed on each field), never
//! a panic or a silent truncation; the recovering dialects go on, LeafXML stops.

use crate::position::Diagnostic;

/// How many diagnostics of limits reached a tokenizer keeps for its caller between two calls
/// of its `take_limits_reached` (past that they are counted by `limits_reached` only): the
/// caller that takes them after each token never sees more than a read-ahead's worth.
pub const LIMIT_LOG: usize = 1024;

/// The limits a tokenizer reached: how many (whatever `max_diagnostics` keeps), the last one,
/// and the diagnostics its caller has not taken yet (at most [`LIMIT_LOG`]). The one place the
/// HTML, XML5 and MicroXML tokenizers keep them, behind their `limits_reached`,
/// `last_limit_reached` and `take_limits_reached`.
///
/// ```
/// use thicket_input::{Diagnostic, LimitLog, Span};
/// let mut log = LimitLog::new();
/// log.note(Diagnostic::new("attribute-limit", Span::new(3, 4)));
/// assert_eq!((log.count(), log.last().map(|d| d.code)), (1, Some("attribute-limit")));
/// assert_eq!(log.take().len(), 1);
/// assert!(log.take().is_empty());
/// assert_eq!(log.count(), 1);
/// ```
#[derive(Clone, Debug)]
pub struct LimitLog<C> {
    count: usize,
    last: Option<Diagnostic<C>>,
    log: Vec<Diagnostic<C>>,
}

impl<C: Copy> Default for LimitLog<C> {
    fn default() -> Self {
        LimitLog::new()
    }
}

impl<C: Copy> LimitLog<C> {
    /// No limit reached.
    pub fn new() -> LimitLog<C> {
        LimitLog {
            count: 0,
            last: None,
            log: Vec::new(),
        }
    }

    /// A limit was reached (its diagnostic).
    pub fn note(&mut self, d: Diagnostic<C>) {
        self.count += 1;
        self.last = Some(d);
        if self.log.len() < LIMIT_LOG {
            self.log.push(d);
        }
    }

    /// How many limits were reached.
    #[inline]
    pub fn count(&self) -> usize {
        self.count
    }

    /// The last limit reached.
    pub fn last(&self) -> Option<Diagnostic<C>> {
        self.last
    }

    /// The diagnostics noted since the last call (at most [`LIMIT_LOG`]).
    pub fn take(&mut self) -> Vec<Diagnostic<C>> {
        std::mem::take(&mut self.log)
    }
}

/// Limits on what one document may make a parser hold. `None` means no limit.
///
/// Lengths are in bytes of decoded (UTF-8) text. Build one with [`Limits::none`] or
/// [`Limits::untrusted`] and the `with_*` methods:
///
/// ```
/// use thicket_input::Limits;
/// let limits = Limits::none().with_max_depth(256).with_max_diagnostics(100);
/// assert_eq!(limits.max_depth, Some(256));
/// assert_eq!(limits.max_attributes, None);
/// assert_eq!(Limits::default(), Limits::none());
/// assert!(Limits::untrusted().max_depth.is_some());
/// ```
#[non_exhaustive]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Limits {
    /// Deepest element nesting (the root element is depth 1), for the tree builders and
    /// LeafXML. Code `depth-limit`.
    pub max_depth: Option<usize>,
    /// Most attributes on one tag (namespace declarations included). Code `attribute-limit`.
    pub max_attributes: Option<usize>,
    /// Longest tag, attribute, processing-instruction or DOCTYPE name. Code `name-length-limit`.
    pub max_name_len: Option<usize>,
    /// Longest attribute value. Code `value-length-limit`.
    pub max_value_len: Option<usize>,
    /// Most namespace declarations in scope at once (XML5, LeafXML). Code `namespace-limit`.
    pub max_namespace_declarations: Option<usize>,
    /// Most bytes of prefixes and namespace names (URIs) declared in scope at once (XML5,
    /// LeafXML): a declaration that would go past it is treated as one past
    /// [`max_namespace_declarations`](Self::max_namespace_declarations). Code
    /// `namespace-limit`.
    pub max_namespace_bytes: Option<usize>,
    /// Longest token or content assembly that must be held whole: LeafXML's tokens and texts
    /// (the streaming dialects emit text in pieces and need no such limit). Code
    /// `token-length-limit`.
    pub max_token_len: Option<usize>,
    /// Most diagnostics kept; past it they are counted, not stored (see [`Diagnostics`]). No
    /// code: the count of omitted diagnostics is reported instead.
    pub max_diagnostics: Option<usize>,
}

impl Limits {
    /// No limit at all (the library default).
    pub const fn none() -> Limits {
        Limits {
            max_depth: None,
            max_attributes: None,
            max_name_len: None,
            max_value_len: None,
            max_namespace_declarations: None,
            max_namespace_bytes: None,
            max_token_len: None,
            max_diagnostics: None,
        }
    }

    /// Defaults safe for untrusted input, used by the `thicket` command line: depth 1,024,
    /// 1,024 attributes per tag, names of 16 KiB, attribute values of 4 MiB, 4,096 namespace
    /// declarations and 1 MiB of their prefixes and namespace names in scope, tokens of 4 MiB
    /// and 10,000 kept diagnostics. Real documents stay
    /// far below each; together they keep a streaming parse within a few MiB of memory.
    pub const fn untrusted() -> Limits {
        Limits {
            max_depth: Some(1024),
            max_attributes: Some(1024),
            max_name_len: Some(16 << 10),
            max_value_len: Some(4 << 20),
            max_namespace_declarations: Some(4096),
            max_namespace_bytes: Some(1 << 20),
            max_token_len: Some(4 << 20),
            max_diagnostics: Some(10_000),
        }
    }

    /// With [`max_depth`](Self::max_depth) set.
    #[must_use]
    pub const fn with_max_depth(mut self, max: usize) -> Limits {
        self.max_depth = Some(max);
        self
    }

    /// With [`max_attributes`](Self::max_attributes) set.
    #[must_use]
    pub const fn with_max_attributes(mut self, max: usize) -> Limits {
        self.max_attributes = Some(max);
        self
    }

    /// With [`max_name_len`](Self::max_name_len) set.
    #[must_use]
    pub const fn with_max_name_len(mut self, max: usize) -> Limits {
        self.max_name_len = Some(max);
        self
    }

    /// With [`max_value_len`](Self::max_value_len) set.
    #[must_use]
    pub const fn with_max_value_len(mut self, max: usize) -> Limits {
        self.max_value_len = Some(max);
        self
    }

    /// With [`max_namespace_declarations`](Self::max_namespace_declarations) set.
    #[must_use]
    pub const fn with_max_namespace_declarations(mut self, max: usize) -> Limits {
        self.max_namespace_declarations = Some(max);
        self
    }

    /// With [`max_namespace_bytes`](Self::max_namespace_bytes) set.
    #[must_use]
    pub const fn with_max_namespace_bytes(mut self, max: usize) -> Limits {
        self.max_namespace_bytes = Some(max);
        self
    }

    /// With [`max_token_len`](Self::max_token_len) set.
    #[must_use]
    pub const fn with_max_token_len(mut self, max: usize) -> Limits {
        self.max_token_len = Some(max);
        self
    }

    /// With [`max_diagnostics`](Self::max_diagnostics) set.
    #[must_use]
    pub const fn with_max_diagnostics(mut self, max: usize) -> Limits {
        self.max_diagnostics = Some(max);
        self
    }

    /// True when `len` is over the optional `limit` (a helper for parsers: `len > limit`).
    #[inline]
    pub fn exceeds(limit: Option<usize>, len: usize) -> bool {
        limit.is_some_and(|max| len > max)
    }
}

/// The diagnostics a parser keeps: the first [`Limits::max_diagnostics`] in the order they are
/// raised, and a count of the rest.
///
/// ```
/// use thicket_input::{Diagnostic, Diagnostics, Span};
/// # #[derive(Clone, Copy, Debug, PartialEq, Eq)] enum Code { X }
/// let mut list = Diagnostics::new(Some(2));
/// for i in 0..5 {
///     list.push(Diagnostic::new(Code::X, Span::empty(i)));
/// }
/// assert_eq!(list.as_slice().len(), 2);
/// assert_eq!(list.omitted(), 3);
/// assert_eq!(list.total(), 5);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostics<C> {
    kept: Vec<Diagnostic<C>>,
    /// How many more may be kept (`usize::MAX` without a cap).
    room: usize,
    omitted: usize,
}

impl<C> Default for Diagnostics<C> {
    fn default() -> Self {
        Diagnostics::new(None)
    }
}

impl<C> Diagnostics<C> {
    /// An empty list keeping at most `cap` diagnostics (`None`: all of them).
    pub const fn new(cap: Option<usize>) -> Self {
        Diagnostics {
            kept: Vec::new(),
            room: match cap {
                Some(cap) => cap,
                None => usize::MAX,
            },
            omitted: 0,
        }
    }

    /// Keeps `diagnostic`, or counts it once the cap is reached.
    #[inline]
    pub fn push(&mut self, diagnostic: Diagnostic<C>) {
        if self.room > 0 {
            self.room -= 1;
            self.kept.push(diagnostic);
        } else {
            self.omitted += 1;
        }
    }

    /// The diagnostics kept and not yet taken.
    #[inline]
    pub fn as_slice(&self) -> &[Diagnostic<C>] {
        &self.kept
    }

    /// Mutable access to the kept diagnostics (to sort or merge them).
    #[inline]
    pub fn as_mut_vec(&mut self) -> &mut Vec<Diagnostic<C>> {
        &mut self.kept
    }

    /// Takes the kept diagnostics, leaving the list empty. The cap counts every diagnostic ever
    /// kept, so taking does not make room for more.
    #[inline]
    pub fn take(&mut self) -> Vec<Diagnostic<C>> {
        std::mem::take(&mut self.kept)
    }

    /// How many diagnostics were counted but not kept, past the cap.
    #[inline]
    pub fn omitted(&self) -> usize {
        self.omitted
    }

    /// Every diagnostic raised: kept (taken or not) and omitted. Only meaningful before any
    /// [`take`](Self::take); after one it counts what is still held plus the omitted.
    #[inline]
    pub fn total(&self) -> usize {
        self.kept.len() + self.omitted
    }

    /// True when nothing was raised (nothing kept and nothing omitted).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.kept.is_empty() && self.omitted == 0
    }

    /// The kept diagnostics and the omitted count.
    pub fn into_parts(self) -> (Vec<Diagnostic<C>>, usize) {
        (self.kept, self.omitted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Span;

    #[test]
    fn uncapped_keeps_everything() {
        let mut list = Diagnostics::new(None);
        for i in 0..1000 {
            list.push(Diagnostic::new((), Span::empty(i)));
        }
        assert_eq!((list.as_slice().len(), list.omitted()), (1000, 0));
    }

    #[test]
    fn taking_does_not_reset_the_cap() {
        let mut list = Diagnostics::new(Some(1));
        list.push(Diagnostic::new((), Span::empty(0)));
        assert_eq!(list.take().len(), 1);
        list.push(Diagnostic::new((), Span::empty(1)));
        assert!(list.as_slice().is_empty());
        assert_eq!(list.omitted(), 1);
    }

    #[test]
    fn zero_cap_counts_only() {
        let mut list = Diagnostics::new(Some(0));
        list.push(Diagnostic::new((), Span::empty(0)));
        assert_eq!((list.as_slice().len(), list.omitted()), (0, 1));
        assert_eq!(list.into_parts().1, 1);
    }

    #[test]
    fn exceeds_is_strictly_greater() {
        assert!(!Limits::exceeds(None, usize::MAX));
        assert!(!Limits::exceeds(Some(3), 3));
        assert!(Limits::exceeds(Some(3), 4));
    }
}
