//! The parsers' diagnostics in source order: by span start, ties in the order they were raised,
//! errors of the end of the input after any other at the same position. The tokenizer raises
//! an error inside a tag as it reads it, the tree builder its own for the tag once the tag is
//! complete (and a tag's own span starts before the errors inside it), so the two streams
//! interleave out of order. Diagnostics wait here until the tokenizer says that nothing raised
//! later can start before them ([`crate::Tokenizer::horizon`]); past
//! [`thicket_input::Limits::max_diagnostics`] they are counted, not kept, and the waiting ones
//! are cut to what the cap can still keep, so memory stays bounded by the cap.

use thicket_input::Diagnostics;

use crate::error::{Diagnostic, ErrorCode};

/// The sort key: the span start, then end-of-input errors last (a stable sort keeps the order
/// they were raised in for the rest).
fn key(d: &Diagnostic) -> (usize, bool) {
    (d.span.start, d.code.is_eof())
}

/// Diagnostics put in source order and capped.
#[derive(Clone, Debug)]
pub(crate) struct Ordered {
    /// In source order, capped.
    settled: Diagnostics<ErrorCode>,
    /// How many were ever settled (taken or not), for the room the cap leaves.
    settled_count: usize,
    cap: usize,
    /// Raised but perhaps still preceded by one raised later; in source order (each is
    /// appended when it is in order, or goes to `late`).
    waiting: Vec<Diagnostic>,
    /// Raised after one that starts later (a tag's own errors after the errors inside it, a
    /// `text-outside-root` at the end of its run), in the order raised: merged into `waiting`
    /// when it is needed, in one linear pass (a sort of all the diagnostics of a document where
    /// every byte is an error cost more than the parse).
    late: Vec<Diagnostic>,
    /// Dropped from `waiting` past the cap.
    dropped: usize,
}

impl Ordered {
    pub(crate) fn new(cap: Option<usize>) -> Ordered {
        Ordered {
            settled: Diagnostics::new(cap),
            settled_count: 0,
            cap: cap.unwrap_or(usize::MAX),
            waiting: Vec::new(),
            late: Vec::new(),
            dropped: 0,
        }
    }

    /// A diagnostic just raised.
    #[inline]
    pub(crate) fn push(&mut self, d: Diagnostic) {
        match self.waiting.last() {
            Some(last) if key(&d) < key(last) => self.late.push(d),
            _ => self.waiting.push(d),
        }
        let room = self.cap.saturating_sub(self.settled_count);
        if self.waiting.len() + self.late.len() > room.saturating_mul(2).saturating_add(64) {
            self.trim(room);
        }
    }

    /// Puts the late diagnostics in their places: sorted (stably) among themselves, then
    /// merged with `waiting`, after any there with the same key (raised before them: whatever
    /// was appended after a late one starts later).
    fn merge_late(&mut self) {
        if self.late.is_empty() {
            return;
        }
        self.late.sort_by_key(key);
        let mut merged = Vec::with_capacity(self.waiting.len() + self.late.len());
        let mut rest = &self.waiting[..];
        for l in self.late.drain(..) {
            let k = rest.partition_point(|d| key(d) <= key(&l));
            merged.extend_from_slice(&rest[..k]);
            merged.push(l);
            rest = &rest[k..];
        }
        merged.extend_from_slice(rest);
        self.waiting = merged;
    }

    /// Diagnostics just raised.
    pub(crate) fn extend(&mut self, list: impl IntoIterator<Item = Diagnostic>) {
        for d in list {
            self.push(d);
        }
    }

    /// Keeps only the `room` first waiting diagnostics: the others cannot be among the first
    /// the cap keeps, whatever is raised later.
    #[cold]
    fn trim(&mut self, room: usize) {
        self.merge_late();
        self.dropped += self.waiting.len() - room;
        self.waiting.truncate(room);
    }

    /// Nothing raised from now on starts before `horizon`: the waiting diagnostics that start
    /// before it take their place.
    pub(crate) fn settle(&mut self, horizon: usize) {
        self.merge_late();
        if self.waiting.len() == 1 {
            // The usual case (a diagnostic since the last token): no sort, no drain.
            if self.waiting[0].span.start < horizon
                && let Some(d) = self.waiting.pop()
            {
                self.settled_count += 1;
                self.settled.push(d);
            }
            return;
        }
        if self.waiting.is_empty() {
            return;
        }
        let n = self.waiting.partition_point(|d| d.span.start < horizon);
        self.settled_count += n;
        for d in self.waiting.drain(..n) {
            self.settled.push(d);
        }
    }

    /// Settles every waiting diagnostic (the end of the input).
    pub(crate) fn finish(&mut self) {
        self.settle(usize::MAX);
    }

    /// The settled diagnostics not yet taken.
    pub(crate) fn take(&mut self) -> Vec<Diagnostic> {
        self.settled.take()
    }

    /// How many were counted and not kept, past the cap.
    pub(crate) fn omitted(&self) -> usize {
        self.settled.omitted() + self.dropped
    }

    /// The settled diagnostics not yet taken, and the omitted count.
    pub(crate) fn into_parts(mut self) -> (Vec<Diagnostic>, usize) {
        if self.settled_count == 0 && self.settled.is_empty() {
            // Nothing handed out yet (`parse`): the waiting list, in order, is the result.
            self.merge_late();
            let keep = self.waiting.len().min(self.cap);
            let omitted = self.dropped + (self.waiting.len() - keep);
            self.waiting.truncate(keep);
            return (self.waiting, omitted);
        }
        self.finish();
        let omitted = self.omitted();
        (self.settled.into_parts().0, omitted)
    }
}

#[cfg(test)]
mod tests {
    use thicket_input::Span;

    use super::*;

    fn d(code: ErrorCode, start: usize) -> Diagnostic {
        Diagnostic::new(code, Span::new(start, start + 1))
    }

    /// Out-of-order pushes come out sorted, ties in the order pushed, end-of-input errors last;
    /// with a cap, the first ones in that order are kept and the rest counted, however the
    /// pushes and settles interleave.
    #[test]
    fn sorted_and_capped() {
        use ErrorCode::{EofInElement as Eof, MismatchedEndTag as M, UnboundPrefix as U};
        let raised = [
            d(U, 5),
            d(M, 3),
            d(Eof, 9),
            d(M, 9),
            d(U, 3),
            d(M, 7),
            d(U, 1),
        ];
        let mut all: Vec<Diagnostic> = raised.to_vec();
        all.sort_by_key(key);
        for cap in [None, Some(0), Some(1), Some(3), Some(6), Some(100)] {
            for horizon_step in [0, 1, 4] {
                let mut o = Ordered::new(cap);
                let mut horizon = 0;
                for (i, x) in raised.iter().enumerate() {
                    o.push(*x);
                    // The horizon never passes a diagnostic still to be raised.
                    let next_min = raised[i + 1..].iter().map(|d| d.span.start).min();
                    horizon = (horizon + horizon_step).min(next_min.unwrap_or(usize::MAX));
                    o.settle(horizon);
                }
                let (kept, omitted) = o.into_parts();
                let n = cap.unwrap_or(usize::MAX).min(all.len());
                assert_eq!(kept, all[..n], "cap {cap:?} step {horizon_step}");
                assert_eq!(omitted, all.len() - n);
            }
        }
    }

    /// Past the cap, the waiting list stays within a constant of the room left.
    #[test]
    fn waiting_stays_bounded() {
        let mut o = Ordered::new(Some(10));
        for i in (0..100_000).rev() {
            o.push(d(ErrorCode::ColonBeforeAttr, i));
            assert!(o.waiting.len() <= 2 * 10 + 64);
        }
        let (kept, omitted) = o.into_parts();
        assert_eq!(kept.len(), 10);
        assert_eq!(kept[0].span.start, 0);
        assert_eq!(omitted, 100_000 - 10);
    }
}
