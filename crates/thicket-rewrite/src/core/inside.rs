//! What the core does with the content of elements beyond writing it: captures,
//! element-scoped text handlers and whole text nodes (a child module of `core`, so that these
//! methods share `Core`'s fields; the settings live in capture.rs and text.rs).

use super::*;

/// Captures, element-scoped text handlers and whole text nodes (capture.rs, text.rs).
impl<'h> Core<'h> {
    /// A matched element's captures and text scopes, after its handlers ran: opened for an
    /// element with content, delivered at once (captures) or dropped (scopes) otherwise.
    /// `span` is the start tag in the held text; `shown`, as handlers see it (source bytes:
    /// the span of a `capture-limit` error).
    pub(super) fn open_captures(
        &mut self,
        src: Src<'_>,
        e: &mut ElementEdits<'h>,
        opens: bool,
        span: Span,
        shown: Span,
    ) {
        let max = self.memory.max_captured;
        if !opens {
            e.text_scopes.clear();
            e.scoped = false;
            for (what, handler) in e.captures.drain(..) {
                let source = src.get(span);
                deliver_empty(what, source, handler, max, shown);
            }
            return;
        }
        let depth = self.stack.len();
        if !e.captures.is_empty() {
            let captures = self
                .captures
                .get_or_insert_with(|| Box::new(Captures::new(max)));
            for (what, handler) in e.captures.drain(..) {
                captures.open(depth, what, span, shown, handler);
            }
            e.captured = true;
            self.text_slow = true;
        }
        for &k in &e.text_scopes {
            self.scoped.enter(k, true);
        }
        self.update_want_text();
    }

    /// The element at stack index `index` closes: its captures are delivered, its text scopes
    /// end.
    pub(super) fn close_captures(
        &mut self,
        src: Src<'_>,
        e: &mut ElementEdits<'h>,
        index: usize,
        inner_end: usize,
        outer_end: usize,
    ) {
        if e.captured
            && let Some(c) = self.captures.as_deref_mut()
        {
            c.close(index, src.text, src.base, inner_end, outer_end);
        }
        e.captured = false;
        if !self.scoped.handlers.is_empty() {
            for &k in &e.text_scopes {
                self.scoped.enter(k, false);
            }
        }
        e.text_scopes.clear();
        e.scoped = false;
        self.update_want_text();
    }

    /// Text when scoped handlers, whole text nodes or captures exist.
    pub(super) fn text_slow(&mut self, src: Src<'_>, text: &str, span: Span) {
        if let Some(c) = self.captures.as_deref_mut() {
            c.text(text);
        }
        if self.text.is_none() && self.scoped.active == 0 {
            self.emit_source(src, span);
            return;
        }
        let Some(whole) = self.whole.as_deref_mut() else {
            self.text_handlers(src, text, span);
            return;
        };
        let start = *whole.start.get_or_insert(span.start);
        whole.end = span.end;
        whole.text.push_str(text);
        if !self.whole_open {
            self.set_whole_open(true);
        }
        if crate::capture::past(self.memory.max_text_node, span.end - start) {
            self.fail(crate::Error::new(
                ErrorCode::TextNodeLimit,
                Span::new(start, start),
            ));
        }
    }

    /// Input dropped without a token: written through, or, with whole text nodes, held as part
    /// of the node around it (one text token covers it when no feed cuts the run there, so the
    /// node is the same however the input is split; held alone, it is written through without
    /// handlers when the node ends with no text).
    pub(super) fn dropped(&mut self, src: Src<'_>, span: Span) {
        let Some(whole) = self.whole.as_deref_mut() else {
            self.emit_source(src, span);
            return;
        };
        whole.start.get_or_insert(span.start);
        whole.end = whole.end.max(span.end);
        if !self.whole_open {
            self.set_whole_open(true);
        }
    }

    /// The whole text node held ends (at a token that is not text): its handlers run.
    pub(super) fn end_whole(&mut self, src: Src<'_>) {
        self.set_whole_open(false);
        let Some(whole) = self.whole.as_deref_mut() else {
            return;
        };
        let Some(start) = whole.start.take() else {
            return;
        };
        let span = Span::new(start, whole.end);
        if whole.text.is_empty() {
            // Only dropped input was held: no text node.
            self.emit_source(src, span);
            return;
        }
        let text = std::mem::take(&mut whole.text);
        self.text_handlers(src, &text, span);
        if let Some(whole) = self.whole.as_deref_mut() {
            whole.text = text;
            whole.text.clear();
        }
    }

    /// Writes the whole text node held as its source, without handlers (strict mode refuses
    /// at a later piece of it).
    pub(crate) fn release_whole(&mut self, src: Src<'_>) {
        if !self.whole_open {
            return;
        }
        self.set_whole_open(false);
        if let Some(whole) = self.whole.as_deref_mut()
            && let Some(start) = whole.start.take()
        {
            whole.text.clear();
            let end = whole.end;
            self.emit_source(src, Span::new(start, end));
        }
    }

    /// Runs the text handlers that can fire (the document's, then the scoped ones whose
    /// element is open) on one text unit, and writes it with their edits.
    pub(super) fn text_handlers(&mut self, src: Src<'_>, text: &str, span: Span) {
        let shown = self.shown(span);
        let inside = self.inside_here();
        let mut around = Around::default();
        let source = src.get(span);
        let mut unit = Unit {
            kind: UnitKind::Text(text),
            source,
            span: shown,
            around: &mut around,
            inside,
        };
        if let Some(handler) = self.text.as_mut() {
            handler(&mut unit);
        }
        if self.scoped.active > 0 {
            for (handler, open) in &mut self.scoped.handlers {
                if *open > 0 {
                    handler(&mut unit);
                }
            }
        }
        self.emit_around(src, &around, span);
    }
}
