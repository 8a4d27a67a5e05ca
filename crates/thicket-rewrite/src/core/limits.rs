//! The core's side of the tokenizers' limits (docs/rewrite.md, "Limits"): reporting every
//! tag a limit cut as a diagnostic of the rewriter's, once the tokens up to it are handled,
//! and refusing an edit that would lose what a limit cut from a start tag.

use super::*;

/// Whether `tail`, a start tag's source after its last kept attribute, names an attribute
/// the tokenizer did not keep for a reason of its dialect. Only HTML's tokenizer drops
/// repeated names (as the spec says); XML5 and MicroXML keep them, so there any name in the
/// tail was dropped past the limit. HTML names are compared ASCII case-insensitively with NUL
/// as U+FFFD, as that tokenizer reads them. Reads names and values closely enough to tell
/// repeats from others: a name runs to space, `/`, `>` or `=`; a value is quoted or runs to
/// space or `>`.
fn tail_names_another(tail: &str, kept: &[Attr<'_>], html: bool) -> bool {
    let b = tail.as_bytes();
    let space = |c: u8| c.is_ascii_whitespace();
    let mut i = 0;
    loop {
        while i < b.len() && (space(b[i]) || b[i] == b'/') {
            i += 1;
        }
        if i >= b.len() || b[i] == b'>' {
            return false;
        }
        let start = i;
        i += 1;
        while i < b.len() && !(space(b[i]) || matches!(b[i], b'/' | b'>' | b'=')) {
            i += 1;
        }
        if !html {
            return true;
        }
        let name = tail[start..i].replace('\0', "\u{FFFD}");
        if !kept.iter().any(|a| a.name.eq_ignore_ascii_case(&name)) {
            return true;
        }
        while i < b.len() && space(b[i]) {
            i += 1;
        }
        if i < b.len() && b[i] == b'=' {
            i += 1;
            while i < b.len() && space(b[i]) {
                i += 1;
            }
            match b.get(i) {
                Some(&q @ (b'"' | b'\'')) => {
                    i += 1;
                    while i < b.len() && b[i] != q {
                        i += 1;
                    }
                    i += 1;
                }
                _ => {
                    while i < b.len() && !(space(b[i]) || b[i] == b'>') {
                        i += 1;
                    }
                }
            }
        }
    }
}

impl Core<'_> {
    /// The limits the tokenizer reached since the last token it handed out: `count` is its
    /// `limits_reached`, `take` its `take_limits_reached`, called only when the count moved
    /// (one test a token otherwise). A tag lost attributes, or a name or value was cut, so a
    /// selector may have missed what was cut. The rewriter keeps none of the tokenizers'
    /// diagnostics, so it reports these as its own (capped as its others), never a silent
    /// truncation: each once the tokens up to it have been handled, in input order, so that
    /// the report does not depend on how far the tokenizer had read (fed whole it reads ahead).
    #[inline]
    #[cfg_attr(
        not(any(feature = "html", feature = "xml5", feature = "microxml")),
        allow(dead_code)
    )]
    pub(crate) fn tokenizer_limits<C: thicket_input::ErrorCode>(
        &mut self,
        count: usize,
        take: impl FnOnce() -> Vec<Diagnostic<C>>,
    ) {
        if count == self.limits_seen && self.pending_limits.is_empty() {
            return;
        }
        if count != self.limits_seen {
            self.limits_seen = count;
            for d in take() {
                let code = match d.code.as_str() {
                    "attribute-limit" => ErrorCode::AttributeLimit,
                    "name-length-limit" => ErrorCode::NameLengthLimit,
                    "value-length-limit" => ErrorCode::ValueLengthLimit,
                    _ => ErrorCode::TokenLengthLimit,
                };
                self.pending_limits.push(Diagnostic::new(code, d.span));
            }
        }
        self.report_limits();
    }

    /// Reports the pending limit hits the handled tokens reach (see `tokenizer_limits`).
    #[cold]
    fn report_limits(&mut self) {
        let done = self.done;
        let mut due: Vec<_> = Vec::new();
        self.pending_limits.retain(|d| {
            let now = d.span.start < done;
            if now {
                due.push(*d);
            }
            !now
        });
        if self.refused().is_some() {
            // Stopped: nothing after the stop is reported.
            self.pending_limits.clear();
            return;
        }
        due.sort_by_key(|d| d.span.start);
        for d in due {
            if self.diagnostics.len() < self.max_diagnostics {
                // (Mapped to source byte offsets with the others: `Rewriter::map_diagnostics`.)
                self.diagnostics.push(d);
            }
        }
    }

    /// An edit cannot be made as asked: the rewrite stops here with `code`.
    pub(super) fn refuse(&mut self, code: ErrorCode, span: Span) {
        if self.refusal.is_none() {
            self.refusal = Some(crate::Error::new(code, span));
        }
        self.halt();
    }

    /// Whether editing this start tag as `e` asks could lose what a tokenizer limit cut from
    /// it (the tag is written from the attributes the tokenizer kept, and an edit matches
    /// names as it cut them): attributes dropped past `Limits::max_attributes` (a name other
    /// than the kept ones between the last attribute and the tag's end), or an edited
    /// attribute whose name may have
    /// been cut at `Limits::max_name_len`. Removing or unwrapping the element, or leaving its
    /// tag alone, loses nothing. Looked at only when those limits are set.
    pub(super) fn cut_by_limit(
        &self,
        src: Src<'_>,
        attributes: &[Attr<'_>],
        span: Span,
        e: &ElementEdits<'_>,
    ) -> Option<ErrorCode> {
        if e.removed || e.unwrapped || (e.rename.is_none() && e.attributes.is_empty()) {
            return None;
        }
        if self.tag_limits.max_attributes.is_some() {
            // Input after the last attribute kept, other than repeats of kept names (which the
            // tokenizers drop as the spec says), is attributes dropped past the limit (which
            // counts repeats too: one kept attribute can be all that is left).
            let from = attributes.last().map_or(span.start + 1, |a| a.span.end);
            let tail = src.get(Span::new(from.min(span.end), span.end));
            let tail = match attributes.last() {
                Some(_) => tail,
                None => tail
                    .trim_start_matches(|c: char| !c.is_ascii_whitespace() && c != '/' && c != '>'),
            };
            if tail_names_another(tail, attributes, self.html) {
                return Some(ErrorCode::AttributeLimit);
            }
        }
        if let Some(max) = self.tag_limits.max_name_len {
            // A cut name keeps at most `max` bytes (at a char boundary: up to 3 fewer), so an
            // edit of the whole name is one that starts with a kept name that may be cut.
            let may_be_cut = |n: &str| n.len() + 3 >= max;
            let starts_with = |n: &str, cut: &str| {
                n.len() >= cut.len()
                    && n.is_char_boundary(cut.len())
                    && n[..cut.len()].eq_ignore_ascii_case(cut)
            };
            if e.attributes.iter().any(|(n, _)| {
                attributes
                    .iter()
                    .any(|a| may_be_cut(a.name) && starts_with(n, a.name))
            }) {
                return Some(ErrorCode::NameLengthLimit);
            }
        }
        None
    }
}
