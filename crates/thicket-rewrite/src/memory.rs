//! The bounds on the rewriter's own buffers (docs/rewrite.md, "Limits").

/// Bounds on the rewriter's own buffers ([`Settings::with_memory_limits`](crate::Settings::with_memory_limits)); `None` is no
/// bound. The open-element stack is bounded by [`Limits::max_depth`](crate::Limits) and the
/// tokenizers by the other [`Limits`](crate::Limits). Exceeding one of these is an error with
/// its own code (docs/rewrite.md, "Limits").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct MemoryLimits {
    /// The most bytes of one token (a tag, comment, doctype, processing instruction, or a tag
    /// the end of input cut off) the rewriter holds: `buffer-limit` past it.
    pub max_buffered: Option<usize>,
    /// The most bytes of one capture ([`Element::capture`](crate::Element::capture)): the
    /// capture's handler gets `capture-limit` past it.
    pub max_captured: Option<usize>,
    /// The most bytes of source of one whole text node ([`Settings::whole_text`](crate::Settings::whole_text)):
    /// `text-node-limit` past it.
    pub max_text_node: Option<usize>,
    /// The most bytes the counters of `:nth-of-type` (and `:first-of-type`) hold over all open
    /// elements together: each distinct name counted among an open element's element children
    /// costs its length and 32 (its count). Only a selector's `:nth-of-type` without a type
    /// name (`*:nth-of-type(2)`) counts every name; one with a type name counts that name
    /// alone. `counter-limit` past
    /// it: the rewrite stops.
    pub max_counters: Option<usize>,
}

impl MemoryLimits {
    /// No bounds (the default).
    pub fn none() -> MemoryLimits {
        MemoryLimits::default()
    }

    /// Bounds for untrusted input: 16 MiB per token, capture and text node, and 4 MiB of
    /// `:nth-of-type` counters.
    pub fn untrusted() -> MemoryLimits {
        const MIB16: Option<usize> = Some(16 << 20);
        MemoryLimits {
            max_buffered: MIB16,
            max_captured: MIB16,
            max_text_node: MIB16,
            max_counters: Some(4 << 20),
        }
    }

    /// Sets [`max_buffered`](Self::max_buffered).
    pub fn with_max_buffered(mut self, max: Option<usize>) -> MemoryLimits {
        self.max_buffered = max;
        self
    }

    /// Sets [`max_captured`](Self::max_captured).
    pub fn with_max_captured(mut self, max: Option<usize>) -> MemoryLimits {
        self.max_captured = max;
        self
    }

    /// Sets [`max_counters`](Self::max_counters).
    pub fn with_max_counters(mut self, max: Option<usize>) -> MemoryLimits {
        self.max_counters = max;
        self
    }

    /// Sets [`max_text_node`](Self::max_text_node).
    pub fn with_max_text_node(mut self, max: Option<usize>) -> MemoryLimits {
        self.max_text_node = max;
        self
    }
}
