//! HTML's way in (a child module of `rewriter`, so that it reaches the rewriter's fields):
//! the tokenizer reads a piece where it is (`Tokenizer::feed_lent`) when it and the core hold
//! no source from before, so the text is not copied first; the core reads the tokenizer's
//! buffer, as always.

use super::*;

/// The smallest piece the HTML tokenizer reads where it is (`feed_lent`) rather than in a
/// copy: lending moves the tokenizer to a borrowing one and back (a few hundred
/// instructions), which costs more than copying a short piece.
pub(super) const LEND_MIN: usize = 8 * 1024;

/// The first head of a piece copied while the HTML tokenizer holds source from before (see
/// `Rewriter::feed_piece_html`).
const LEND_HEAD: usize = 256;

impl<S: Sink> Rewriter<'_, S> {
    /// [`feed_piece`](Self::feed_piece) for HTML: the tokenizer reads the piece where it is
    /// (`feed_lent`: no copy, when it and the core hold nothing from before), and the core
    /// reads the tokenizer's buffer as always. Afterwards the tokenizer keeps its own copy of
    /// only what it and the core still need (an unfinished token, pending output).
    ///
    /// While the tokenizer or the core holds source from before (a token a piece cut, output
    /// held for a handler), a head of the piece is copied instead (twice as long each time,
    /// so that a long token costs linear time), until they hold nothing: the tokenizer's own
    /// buffer then stays about as small as the tokens cut, rather than as large as a piece.
    #[allow(irrefutable_let_patterns)] // in a build with HTML alone
    pub(super) fn feed_piece_html(&mut self, mut text: &str) -> Result<(), Error> {
        let mut head = LEND_HEAD;
        while let Driver::Html(t) = &mut self.driver
            && t.holds_input()
        {
            if text.len() <= head {
                return self.feed_piece_copied(text);
            }
            let mut cut = head;
            while !text.is_char_boundary(cut) {
                cut += 1;
            }
            self.feed_piece_copied(&text[..cut])?;
            text = &text[cut..];
            head = head.saturating_mul(2);
        }
        let Driver::Html(owned) = &mut self.driver else {
            return Ok(());
        };
        let mut t: thicket_html::Tokenizer<'_> = std::mem::take(&mut **owned);
        t.feed_lent(text);
        pump_html(&mut self.core, &mut t);
        self.map_diagnostics();
        let input = t.input();
        let src = crate::core::Src::new(input.text(), input.base());
        let sink = &mut self.sink;
        let written = self.core.drain_output_in(src, |b| sink.write_bytes(b));
        let refused = written.is_ok() && self.core.refused().is_some();
        if written.is_ok() && !refused {
            let keep = self.core.compact_external(t.input().end());
            t.retain_from(Some(keep));
        }
        // The tokenizer keeps what it and the core still need (after a refusal or a failed
        // write, everything from the core's floor, as the copying path would have held).
        if let Driver::Html(owned) = &mut self.driver {
            **owned = t.into_owned();
        }
        if let Err(e) = written {
            return self.write_failed(e);
        }
        // A refusal's span is mapped (in a legacy encoding) before compaction lets go of it.
        if let Some(e) = self.core.refused().cloned() {
            return self.fail(e);
        }
        Ok(())
    }

    /// Lends the HTML tokenizer pieces from `bytes` long on (tests: every piece).
    #[cfg(test)]
    pub(crate) fn set_lend_min(&mut self, bytes: usize) {
        self.lend_min = bytes;
    }
}

/// Hands every token the HTML tokenizer has to the core, which reads its source from the
/// tokenizer's buffer.
pub(super) fn pump_html(core: &mut Core<'_>, t: &mut thicket_html::Tokenizer<'_>) {
    while let Some((token, input)) = t.next_token_with_input() {
        html_event(core, token, input);
        core.tokenizer_limits(t.limits_reached(), || t.take_limits_reached());
        // Text is built only while a text handler or capture can see it.
        if core.switch_text {
            core.switch_text = false;
            t.set_lazy_text(core.want_text);
        }
    }
}
