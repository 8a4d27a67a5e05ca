//! Where the core reads its source and how output leaves it (a child module of `core`, so
//! that these methods share `Core`'s fields): the source a token's handling reads (`Src`: the
//! core's own copy, or HTML's tokenizer buffer), source written through as pending ranges,
//! output handed to the sink, and what source must still be kept between feeds.

use super::*;

/// The source text the core reads (a token's, output not yet written, captures): `text`
/// holds it from absolute offset `base` on. The core's own copy (`Core::src`) for most
/// dialects, HTML's tokenizer buffer for HTML (no copy).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Src<'s> {
    pub(crate) text: &'s str,
    pub(crate) base: usize,
}

impl<'s> Src<'s> {
    pub(crate) fn new(text: &'s str, base: usize) -> Src<'s> {
        Src { text, base }
    }

    /// The text of an absolute span (held).
    #[inline(always)]
    pub(crate) fn get(self, span: Span) -> &'s str {
        self.range(span.start, span.end)
    }

    /// The text between absolute offsets `from` and `to` (held).
    #[inline(always)]
    pub(crate) fn range(self, from: usize, to: usize) -> &'s str {
        &self.text[from - self.base..to - self.base]
    }
}

/// Output, pending source and the source kept (see the module docs).
impl<'h> Core<'h> {
    pub(super) fn emit(&mut self, src: Src<'_>, s: &str) {
        if self.output && self.suppress.is_none() && !s.is_empty() {
            self.materialize(src);
            self.out.push_str(s);
        }
    }

    /// Writes source out unchanged: it joins the pending range when it follows it (no copy).
    pub(crate) fn emit_source(&mut self, src: Src<'_>, span: Span) {
        if self.output && self.suppress.is_none() {
            if span.start == self.pending.1 {
                self.pending.1 = span.end;
            } else {
                self.materialize(src);
                self.pending = (span.start, span.end);
            }
        }
    }

    /// Copies the pending source into `out` (before other output follows it).
    pub(super) fn materialize(&mut self, src: Src<'_>) {
        let (from, to) = self.pending;
        if from < to {
            match self.legacy.as_deref_mut() {
                Some(l) => l.mark(self.out.len(), from, to),
                None => self.out.push_str(src.range(from, to)),
            }
            self.pending.0 = to;
        }
    }

    /// The source this core holds itself (the drivers other than HTML's): `src` from `base`.
    /// Its text is moved out while `f` runs with it (no copy), so that `f` may change the
    /// rest of the core.
    pub(super) fn with_own_source<R>(&mut self, f: impl FnOnce(&mut Self, Src<'_>) -> R) -> R {
        let own = std::mem::take(&mut self.src);
        let r = f(self, Src::new(&own, self.base));
        self.src = own;
        r
    }

    /// Hands the output so far to `write` (`out`, then the pending source, read from the
    /// core's own `src`) and empties it.
    pub(crate) fn drain_output<E>(
        &mut self,
        write: impl FnMut(&[u8]) -> Result<(), E>,
    ) -> Result<(), E> {
        self.with_own_source(|core, src| core.drain_output_in(src, write))
    }

    /// [`drain_output`](Self::drain_output), the pending source read from `src` (HTML: the
    /// tokenizer's buffer).
    pub(crate) fn drain_output_in<E>(
        &mut self,
        src: Src<'_>,
        mut write: impl FnMut(&[u8]) -> Result<(), E>,
    ) -> Result<(), E> {
        let (from, to) = self.pending;
        if let Some(l) = self.legacy.as_deref_mut() {
            self.pending.0 = to;
            return l.drain(&mut self.out, (from, to), &mut write);
        }
        let mut r = Ok(());
        if !self.out.is_empty() {
            r = write(self.out.as_bytes());
            self.out.clear();
        }
        if r.is_ok() && from < to {
            r = write(src.range(from, to).as_bytes());
        }
        self.pending.0 = to;
        r
    }

    /// The first absolute offset of source still needed (between feeds, after
    /// [`drain_output`](Self::drain_output)): the pending output, open captures, a whole
    /// text node held, and what no token has handed out yet (from `done` on).
    pub(super) fn keep_from(&mut self) -> usize {
        // (An empty pending range holds nothing: in read-only selection it stays at 0.)
        let (from, to) = self.pending;
        let mut keep = if from < to {
            self.done.min(from)
        } else {
            self.done
        };
        if let Some(from) = self
            .captures
            .as_deref_mut()
            .and_then(|c| c.retain_from(self.done))
        {
            keep = keep.min(from);
        }
        if let Some(start) = self.whole.as_deref().and_then(|w| w.start) {
            keep = keep.min(start);
        }
        keep
    }

    /// Drops the source before [`keep_from`](Self::keep_from) (called between feeds, after
    /// [`drain_output`](Self::drain_output)).
    pub(crate) fn compact(&mut self) {
        let keep = self.keep_from();
        let cut = keep.saturating_sub(self.base);
        if let Some(l) = self.legacy.as_deref_mut() {
            l.compact(keep);
        }
        if cut > 0 {
            self.src.drain(..cut);
            self.base += cut;
        }
        self.check_buffered(self.base + self.src.len());
    }

    /// [`compact`](Self::compact) after a piece of source the core read where the caller holds
    /// it (`text`, from `base` on, its own `src` empty: `Rewriter::feed_piece`): keeps a copy
    /// of only what is still needed of it, which is what `compact` keeps of the piece copied.
    #[cfg(feature = "xml5")]
    pub(crate) fn compact_borrowed(&mut self, text: &str) {
        debug_assert!(self.src.is_empty());
        let keep = self.keep_from();
        if let Some(l) = self.legacy.as_deref_mut() {
            l.compact(keep);
        }
        let cut = keep.saturating_sub(self.base).min(text.len());
        self.src.push_str(&text[cut..]);
        self.base += cut;
        self.check_buffered(self.base + self.src.len());
    }

    /// [`compact`](Self::compact) for a core that reads its source from elsewhere (HTML: the
    /// tokenizer's buffer, which ends at absolute offset `end`): returns the offset from which
    /// that source must be kept (`base` from then on; `src` stays empty).
    #[cfg_attr(not(feature = "html"), allow(dead_code))]
    pub(crate) fn compact_external(&mut self, end: usize) -> usize {
        let keep = self.keep_from();
        if let Some(l) = self.legacy.as_deref_mut() {
            l.compact(keep);
        }
        self.base = keep;
        self.check_buffered(end);
        keep
    }

    /// Stops the rewrite when the source held past `done` (up to `end`: a token not complete,
    /// which the tokenizer has not handed out yet) is over `MemoryLimits::max_buffered`.
    fn check_buffered(&mut self, end: usize) {
        let held = end.saturating_sub(self.done);
        if crate::capture::past(self.memory.max_buffered, held) {
            let at = self.done;
            self.fail(crate::Error::new(ErrorCode::BufferLimit, Span::new(at, at)));
        }
    }
}
