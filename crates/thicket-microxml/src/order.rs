//! Diagnostics in source order, capped.
//!
//! Three parts of the parser find diagnostics, each in source order on its own: the scan for
//! characters MicroXML forbids (run on every chunk as it is fed, ahead of the modes), the modes
//! (and the direct path beside them), and the tree builder. The order returned everywhere is
//! by span start; at the same start, the character scan's first (it is the input's
//! preprocessing), then the modes' and then the tree builder's, each in the order raised; the
//! diagnostics raised at the end of the input (an unclosed start-tag or attribute value,
//! unclosed elements, no root element) come last. The order does not depend on how the input
//! was split.
//!
//! With [`thicket_input::Limits::max_diagnostics`] `N`, each part keeps its first `N` and the
//! merge keeps the first `N` overall (each of those is among the first `N` of its own part), and
//! the rest are counted.

use std::collections::VecDeque;

use crate::error::{Diagnostic, ErrorCode};

/// How many more may be kept, from an optional cap.
fn room(cap: Option<usize>) -> usize {
    cap.unwrap_or(usize::MAX)
}

/// The tokenizer's diagnostics: the character scan's, found ahead of the modes, and the modes',
/// each list in source order. Diagnostics before a threshold (the start of the first token not
/// yet handed out) are released to the caller, the two lists merged; later ones may still be
/// preceded by diagnostics not yet found.
#[derive(Debug)]
pub(crate) struct TokenizerDiagnostics {
    /// Forbidden characters not yet released, in order.
    chars: VecDeque<Diagnostic>,
    chars_room: usize,
    /// The modes' diagnostics, in order: those from `lexer_head` on are not released yet.
    lexer: Vec<Diagnostic>,
    lexer_head: usize,
    lexer_room: usize,
    /// Released, merged, not yet taken.
    released: Vec<Diagnostic>,
    /// How many more may ever be released.
    room: usize,
    omitted: usize,
    /// The limits that cut the input, kept whether or not their diagnostics are
    /// (`Tokenizer::limits_reached`).
    pub(crate) reached: thicket_input::LimitLog<ErrorCode>,
}

impl TokenizerDiagnostics {
    pub(crate) fn new(cap: Option<usize>) -> TokenizerDiagnostics {
        TokenizerDiagnostics {
            chars: VecDeque::new(),
            chars_room: room(cap),
            lexer: Vec::new(),
            lexer_head: 0,
            lexer_room: room(cap),
            released: Vec::new(),
            room: room(cap),
            omitted: 0,
            reached: thicket_input::LimitLog::new(),
        }
    }

    /// A forbidden character (found in source order, ahead of the modes).
    #[inline]
    pub(crate) fn char(&mut self, d: Diagnostic) {
        if self.chars_room > 0 {
            self.chars_room -= 1;
            self.chars.push_back(d);
        } else {
            self.omitted += 1;
        }
    }

    /// A diagnostic of the modes. They are raised in source order (ties in the order raised),
    /// except for one raised late for input whose diagnostics are not released yet (a value cut
    /// by the value-length limit), which goes after those starting at or before it.
    #[inline]
    pub(crate) fn lexer(&mut self, d: Diagnostic) {
        if matches!(
            d.code,
            ErrorCode::AttributeLimit | ErrorCode::NameLengthLimit | ErrorCode::ValueLengthLimit
        ) {
            self.reached.note(d);
        }
        if self.lexer_room > 0
            && self
                .lexer
                .last()
                .is_none_or(|l| l.span.start <= d.span.start)
        {
            self.lexer_room -= 1;
            self.lexer.push(d);
        } else {
            self.lexer_late(d);
        }
    }

    #[cold]
    fn lexer_late(&mut self, d: Diagnostic) {
        let mut at = self.lexer.len();
        while at > self.lexer_head && self.lexer[at - 1].span.start > d.span.start {
            at -= 1;
        }
        if self.lexer_room > 0 {
            self.lexer_room -= 1;
            self.lexer.insert(at, d);
        } else if at < self.lexer.len() {
            // Full: `d` comes before the last one kept, which is dropped instead.
            self.lexer.pop();
            self.lexer.insert(at, d);
            self.omitted += 1;
        } else {
            self.omitted += 1;
        }
    }

    /// Releases the diagnostics that start before `threshold`: nothing found later can come
    /// before them. At the same start, a character's comes first.
    pub(crate) fn release(&mut self, threshold: usize) {
        loop {
            let c = self.chars.front().filter(|c| c.span.start < threshold);
            let l = self
                .lexer
                .get(self.lexer_head)
                .filter(|l| l.span.start < threshold);
            let d = match (c, l) {
                (Some(c), Some(l)) if l.span.start < c.span.start => {
                    self.lexer_head += 1;
                    *l
                }
                (Some(c), _) => {
                    let c = *c;
                    self.chars.pop_front();
                    c
                }
                (None, Some(l)) => {
                    self.lexer_head += 1;
                    *l
                }
                (None, None) => break,
            };
            if self.room > 0 {
                self.room -= 1;
                self.released.push(d);
            } else {
                self.omitted += 1;
            }
        }
        if self.lexer_head == self.lexer.len() {
            self.lexer.clear();
            self.lexer_head = 0;
        } else if self.lexer_head > 64 && self.lexer_head * 2 > self.lexer.len() {
            self.lexer.drain(..self.lexer_head);
            self.lexer_head = 0;
        }
    }

    /// The end of the input: everything is released.
    pub(crate) fn release_all(&mut self) {
        self.release(usize::MAX);
    }

    /// The released diagnostics not yet taken.
    pub(crate) fn released(&self) -> &[Diagnostic] {
        &self.released
    }

    /// Takes the released diagnostics.
    pub(crate) fn take(&mut self) -> Vec<Diagnostic> {
        std::mem::take(&mut self.released)
    }

    /// How many diagnostics were counted and not kept so far.
    pub(crate) fn omitted(&self) -> usize {
        self.omitted
    }

    /// Every diagnostic kept (released or not, not yet taken), in order, after the end of the
    /// input, and the count omitted.
    pub(crate) fn into_parts(mut self) -> (Vec<Diagnostic>, usize) {
        if self.chars.is_empty()
            && self.released.is_empty()
            && self.lexer_head == 0
            && self.lexer.len() <= self.room
        {
            // The common case: no forbidden character, nothing taken, under the cap.
            return (self.lexer, self.omitted);
        }
        self.release_all();
        (self.released, self.omitted)
    }
}

/// Merges the tokenizer's diagnostics and the tree builder's (each in source order), then the
/// builder's end-of-input ones, keeping the first `cap`. Returns the list and how many of the
/// three were dropped by the merge.
pub(crate) fn merge(
    tokenizer: Vec<Diagnostic>,
    builder: Vec<Diagnostic>,
    eof: Vec<Diagnostic>,
    cap: Option<usize>,
) -> (Vec<Diagnostic>, usize) {
    let total = tokenizer.len() + builder.len() + eof.len();
    let keep = total.min(room(cap));
    // The common cases: one of the two lists is empty, and the other is kept in place (a
    // document where every byte is an error has a million tokenizer diagnostics and no
    // builder's).
    if builder.is_empty() || tokenizer.is_empty() {
        let mut out = if builder.is_empty() {
            tokenizer
        } else {
            builder
        };
        out.truncate(keep);
        let room = keep - out.len();
        out.extend(eof.into_iter().take(room));
        return (out, total - keep);
    }
    // Each builder diagnostic goes after the tokenizer's that start at or before it. The
    // merge runs in the tokenizer's list, from the end: each builder diagnostic moves the
    // tokenizer's run after it at once (a few builder diagnostics among a million of the
    // tokenizer's cost a search each, not a comparison per diagnostic, and no second list).
    let mut out = tokenizer;
    let mut i = out.len();
    out.reserve_exact(builder.len() + eof.len());
    out.extend_from_slice(&builder);
    for (j, y) in builder.iter().enumerate().rev() {
        let before = out[..i].partition_point(|x| x.span.start <= y.span.start);
        out.copy_within(before..i, before + j + 1);
        out[before + j] = *y;
        i = before;
    }
    out.extend(eof);
    out.truncate(keep);
    (out, total - keep)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorCode;
    use thicket_input::Span;

    fn d(code: ErrorCode, start: usize) -> Diagnostic {
        Diagnostic::new(code, Span::new(start, start + 1))
    }

    #[test]
    fn characters_come_first_at_the_same_start() {
        let mut t = TokenizerDiagnostics::new(None);
        t.char(d(ErrorCode::InvalidCharacter, 2));
        t.char(d(ErrorCode::InvalidCharacter, 5));
        t.lexer(d(ErrorCode::InvalidName, 2));
        t.lexer(d(ErrorCode::UnescapedAmpersand, 4));
        t.release(5);
        let starts: Vec<_> = t.released().iter().map(|d| d.span.start).collect();
        assert_eq!(starts, [2, 2, 4]);
        assert_eq!(t.released()[0].code, ErrorCode::InvalidCharacter);
        let (all, omitted) = t.into_parts();
        assert_eq!(all.len(), 4);
        assert_eq!(omitted, 0);
    }

    #[test]
    fn late_diagnostics_are_inserted_in_order() {
        let mut t = TokenizerDiagnostics::new(None);
        t.lexer(d(ErrorCode::UnescapedAmpersand, 3));
        t.lexer(d(ErrorCode::UnescapedAmpersand, 9));
        t.lexer(d(ErrorCode::ValueLengthLimit, 3));
        let codes: Vec<_> = t.into_parts().0.iter().map(|d| d.code).collect();
        assert_eq!(
            codes,
            [
                ErrorCode::UnescapedAmpersand,
                ErrorCode::ValueLengthLimit,
                ErrorCode::UnescapedAmpersand
            ]
        );
    }

    #[test]
    fn the_cap_keeps_the_first_in_source_order() {
        let mut t = TokenizerDiagnostics::new(Some(2));
        for i in [10, 20, 30] {
            t.char(d(ErrorCode::InvalidCharacter, i));
        }
        t.lexer(d(ErrorCode::InvalidName, 5));
        t.lexer(d(ErrorCode::InvalidName, 40));
        let (kept, omitted) = t.into_parts();
        let starts: Vec<_> = kept.iter().map(|d| d.span.start).collect();
        assert_eq!(starts, [5, 10]);
        assert_eq!(omitted, 3);
        let (merged, dropped) = merge(kept, vec![d(ErrorCode::StrayEndTag, 7)], vec![], Some(2));
        let starts: Vec<_> = merged.iter().map(|d| d.span.start).collect();
        assert_eq!((starts, dropped), (vec![5, 7], 1));
    }

    /// With one list empty, the other is kept in place, then the end-of-input diagnostics,
    /// the first `cap` of them all.
    #[test]
    fn one_list_and_the_end_of_input() {
        let list = |starts: &[usize]| -> Vec<Diagnostic> {
            starts
                .iter()
                .map(|&i| d(ErrorCode::InvalidName, i))
                .collect()
        };
        let starts = |v: &[Diagnostic]| v.iter().map(|d| d.span.start).collect::<Vec<_>>();
        let eof = || vec![d(ErrorCode::StrayEndTag, 99)];
        let (all, dropped) = merge(list(&[1, 2, 3]), vec![], eof(), None);
        assert_eq!((starts(&all), dropped), (vec![1, 2, 3, 99], 0));
        let (all, dropped) = merge(vec![], list(&[4, 5]), eof(), None);
        assert_eq!((starts(&all), dropped), (vec![4, 5, 99], 0));
        let (all, dropped) = merge(list(&[1, 2, 3]), vec![], eof(), Some(2));
        assert_eq!((starts(&all), dropped), (vec![1, 2], 2));
        let (all, dropped) = merge(list(&[1, 2]), vec![], eof(), Some(3));
        assert_eq!((starts(&all), dropped), (vec![1, 2, 99], 0));
    }

    #[test]
    fn taking_releases_only_what_is_before_the_threshold() {
        let mut t = TokenizerDiagnostics::new(None);
        t.lexer(d(ErrorCode::InvalidName, 1));
        t.lexer(d(ErrorCode::InvalidName, 8));
        t.release(5);
        assert_eq!(t.take().len(), 1);
        assert!(t.take().is_empty());
        t.release(9);
        assert_eq!(t.take()[0].span.start, 8);
    }
}
