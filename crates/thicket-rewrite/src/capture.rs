//! Capture: the inner or outer markup (as written in the input) or the text content of an
//! element, handed to a callback when the element ends (docs/rewrite.md, "Capture").
//!
//! Markup is captured as a range of the source: the core keeps its source from the start of
//! the oldest live markup capture on ([`Captures::retain_from`]), so every capture open at once
//! shares that one buffer and nothing is copied until delivery (a `&str` into it). Text content
//! goes to one buffer shared by every open text capture, each knowing where its text starts.
//! Captures close in stack order (they belong to open elements), so they live on one stack; the
//! captures past the limit are always the oldest of their kind, which a pointer per kind skips
//! once each: every operation is constant time amortized, whatever the nesting.

use thicket_input::Span;

use crate::{Error, ErrorCode};

/// What [`Element::capture`](crate::Element::capture) captures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Capture {
    /// The markup between the start tag and the end tag, as written in the input.
    Inner,
    /// The markup from the start of the start tag to the end of the end tag, as written.
    Outer,
    /// The text content: the text of every text token inside, references resolved, in order
    /// (the DOM's `textContent`).
    Text,
}

/// A capture's callback: the captured string, or the `capture-limit` error.
pub type CaptureHandler<'h> = Box<dyn FnOnce(Result<&str, Error>) + 'h>;

/// One capture of an open element.
struct Open<'h> {
    /// The stack index of its element.
    depth: usize,
    what: Capture,
    /// Where the captured string starts: an absolute source offset (markup) or text offset.
    from: usize,
    /// Markup: where the source must be kept from, the start of the start tag (for `Inner` too,
    /// so that these never decrease from the bottom of the stack up, whatever order an
    /// element's captures were asked in).
    keep: usize,
    /// Abandoned past the limit: its handler gets the error when the element ends.
    dead: bool,
    /// The start tag as handlers see it (source bytes): the span of `capture-limit`.
    shown: Span,
    handler: CaptureHandler<'h>,
}

/// The open captures.
pub(crate) struct Captures<'h> {
    stack: Vec<Open<'h>>,
    /// Every markup capture below this index of `stack` is abandoned.
    markup_live: usize,
    /// Every text capture below this index of `stack` is abandoned.
    text_live: usize,
    /// Text captures not abandoned.
    text_open: usize,
    /// The text of the open text captures, from text offset `text_base` on.
    text: String,
    text_base: usize,
    max: Option<usize>,
}

impl std::fmt::Debug for Captures<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Captures")
            .field("open", &self.stack.len())
            .field("text_open", &self.text_open)
            .field("text", &self.text.len())
            .finish_non_exhaustive()
    }
}

/// Whether a capture of `len` bytes is past `max`.
pub(crate) fn past(max: Option<usize>, len: usize) -> bool {
    max.is_some_and(|m| len > m)
}

impl<'h> Captures<'h> {
    pub(crate) fn new(max: Option<usize>) -> Captures<'h> {
        Captures {
            stack: Vec::new(),
            markup_live: 0,
            text_live: 0,
            text_open: 0,
            text: String::new(),
            text_base: 0,
            max,
        }
    }

    /// Whether a text capture is open (the text tokens inside must be built).
    #[inline]
    pub(crate) fn wants_text(&self) -> bool {
        self.text_open > 0
    }

    /// Opens a capture of the element at stack index `depth` whose start tag is `start_tag`
    /// in the held text (`shown`: as handlers see it, the span of a `capture-limit` error).
    pub(crate) fn open(
        &mut self,
        depth: usize,
        what: Capture,
        start_tag: Span,
        shown: Span,
        handler: CaptureHandler<'h>,
    ) {
        let from = match what {
            Capture::Outer => start_tag.start,
            Capture::Inner => start_tag.end,
            Capture::Text => {
                self.text_open += 1;
                self.text_base + self.text.len()
            }
        };
        self.stack.push(Open {
            depth,
            what,
            from,
            keep: start_tag.start,
            dead: false,
            shown,
            handler,
        });
    }

    /// Text inside the open elements: kept for the open text captures.
    pub(crate) fn text(&mut self, text: &str) {
        if self.text_open == 0 {
            return;
        }
        self.text.push_str(text);
        let end = self.text_base + self.text.len();
        // Abandon the text captures past the limit (the oldest first).
        while let Some(c) = self.stack.get_mut(self.text_live) {
            if c.what == Capture::Text && !c.dead {
                if !past(self.max, end - c.from) {
                    break;
                }
                c.dead = true;
                self.text_open -= 1;
            }
            self.text_live += 1;
        }
        self.drop_dead_text();
    }

    /// Lets go of the text no open text capture needs: all of it when none is open, else the
    /// prefix before the oldest once it is at least half the buffer (each byte is moved a
    /// bounded number of times on average).
    fn drop_dead_text(&mut self) {
        if self.text_open == 0 {
            self.text_base += self.text.len();
            self.text.clear();
            return;
        }
        while let Some(c) = self.stack.get(self.text_live) {
            if c.what == Capture::Text && !c.dead {
                break;
            }
            self.text_live += 1;
        }
        let Some(oldest) = self.stack.get(self.text_live) else {
            return;
        };
        let waste = oldest.from - self.text_base;
        if waste > 0 && waste >= self.text.len() / 2 {
            self.text.drain(..waste);
            self.text_base = oldest.from;
        }
    }

    /// The source offset the core must keep its source from (the oldest live markup capture's
    /// start), after abandoning the markup captures longer than the limit at `done` (the end of
    /// the input handled so far: the elements are still open, so their markup is longer).
    pub(crate) fn retain_from(&mut self, done: usize) -> Option<usize> {
        while let Some(c) = self.stack.get_mut(self.markup_live) {
            if c.what != Capture::Text && !c.dead {
                if !past(self.max, done.saturating_sub(c.from)) {
                    return Some(c.keep);
                }
                c.dead = true;
            }
            self.markup_live += 1;
        }
        None
    }

    /// The element at stack index `depth` ends: its captures are delivered in the order they
    /// were asked for. `src` is the source from absolute offset `base` on; the inner markup
    /// ends at `inner_end`, the outer at `outer_end`.
    pub(crate) fn close(
        &mut self,
        depth: usize,
        src: &str,
        base: usize,
        inner_end: usize,
        outer_end: usize,
    ) {
        let mut k = self.stack.len();
        while k > 0 && self.stack[k - 1].depth == depth {
            k -= 1;
        }
        let max = self.max;
        let text = &self.text;
        let text_base = self.text_base;
        let mut closed_text = 0;
        for c in self.stack.drain(k..) {
            let end = match c.what {
                Capture::Outer => outer_end,
                Capture::Inner => inner_end,
                Capture::Text => {
                    if !c.dead {
                        closed_text += 1;
                    }
                    text_base + text.len()
                }
            };
            let len = end.saturating_sub(c.from);
            if c.dead || past(max, len) {
                (c.handler)(Err(Error::new(ErrorCode::CaptureLimit, c.shown)));
                continue;
            }
            let s = match c.what {
                Capture::Text => &text[c.from - text_base..],
                _ => &src[c.from - base..c.from - base + len],
            };
            (c.handler)(Ok(s));
        }
        self.text_open -= closed_text;
        self.markup_live = self.markup_live.min(k);
        self.text_live = self.text_live.min(k);
        self.drop_dead_text();
    }

    /// Drops every capture without calling its handler (the rewrite stopped).
    pub(crate) fn clear(&mut self) {
        self.stack.clear();
        self.markup_live = 0;
        self.text_live = 0;
        self.text_open = 0;
        self.text.clear();
    }
}

/// What a capture of an element without content gets at once: its start tag (outer), or
/// nothing (inner, text).
pub(crate) fn deliver_empty(
    what: Capture,
    start_tag: &str,
    handler: CaptureHandler<'_>,
    max: Option<usize>,
    span: Span,
) {
    let s = match what {
        Capture::Outer => start_tag,
        _ => "",
    };
    if past(max, s.len()) {
        handler(Err(Error::new(ErrorCode::CaptureLimit, span)));
    } else {
        handler(Ok(s));
    }
}
