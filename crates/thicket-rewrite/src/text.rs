//! Text beyond the document-wide handler: element-scoped text handlers
//! ([`Settings::on_text_in`]) and whole text nodes ([`Settings::whole_text`]); docs/rewrite.md,
//! "Scoped text handlers" and "Whole text". Also the settings method for [`MemoryLimits`].

use crate::Error;
use crate::core::UnitHandler;
use crate::handlers::Unit;
use crate::memory::MemoryLimits;
use crate::rewriter::Settings;
use crate::selector::SelectorList;

/// The settings of this module.
#[derive(Default)]
pub(crate) struct TextSettings<'h> {
    pub(crate) scoped: Vec<(SelectorList, UnitHandler<'h>)>,
    pub(crate) whole: bool,
    pub(crate) memory: MemoryLimits,
}

impl std::fmt::Debug for TextSettings<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TextSettings")
            .field(
                "scoped",
                &self
                    .scoped
                    .iter()
                    .map(|(s, _)| s.to_css())
                    .collect::<Vec<_>>(),
            )
            .field("whole", &self.whole)
            .field("memory", &self.memory)
            .finish()
    }
}

impl<'h> Settings<'h> {
    /// Runs `handler` on the text inside every element `selector` matches: text anywhere in
    /// its content, in child elements too (what lol-html's `text!` handlers see), once per
    /// piece however many matched elements enclose it. Handlers run after the document's
    /// [`on_text`](Self::on_text), in the order added, on the same [`Unit`] (their edits add
    /// up). The HTML tokenizer builds text content only while such a handler can fire. Fails
    /// with the selector's parse error.
    ///
    /// ```
    /// use thicket_rewrite::{ContentType, Dialect, Settings, UnitKind, rewrite_str};
    /// let settings = Settings::new()
    ///     .on_text_in("h1", |t| {
    ///         if let UnitKind::Text(s) = t.kind() {
    ///             let upper = s.to_uppercase();
    ///             t.replace(&upper, ContentType::Text);
    ///         }
    ///     })
    ///     .unwrap();
    /// let out = rewrite_str("<p>a</p><h1>b <i>c</i></h1>d", Dialect::Html, settings).unwrap();
    /// assert_eq!(out, "<p>a</p><h1>B <i>C</i></h1>d");
    /// ```
    pub fn on_text_in(
        self,
        selector: &str,
        handler: impl FnMut(&mut Unit<'_>) + 'h,
    ) -> Result<Settings<'h>, Error> {
        let list = SelectorList::parse_with_namespaces(selector, &self.handlers.modes.namespaces)?;
        Ok(self.on_text_in_selector(list, handler))
    }

    /// [`on_text_in`](Self::on_text_in) with a parsed selector list.
    pub fn on_text_in_selector(
        mut self,
        list: SelectorList,
        handler: impl FnMut(&mut Unit<'_>) + 'h,
    ) -> Settings<'h> {
        self.handlers
            .text_settings
            .scoped
            .push((list, Box::new(handler)));
        self
    }

    /// Whole text nodes: text handlers ([`on_text`](Self::on_text),
    /// [`on_text_in`](Self::on_text_in)) see each text node once, whole (a maximal run of text
    /// between two other tokens), instead of pieces split where chunks ended; its edits
    /// (`replace`, `remove`, `before`, `after`) apply to the whole node. The node is held until
    /// it ends, bounded by [`MemoryLimits::max_text_node`].
    ///
    /// ```
    /// use thicket_rewrite::{Dialect, Rewriter, Settings, UnitKind};
    /// let mut seen = Vec::new();
    /// let settings = Settings::new().whole_text(true).on_text(|t| {
    ///     if let UnitKind::Text(s) = t.kind() {
    ///         seen.push(s.to_owned());
    ///     }
    /// });
    /// let mut r = Rewriter::read_only(Dialect::Html, settings);
    /// r.feed_str("<p>one, t").unwrap();
    /// r.feed_str("wo &amp; three</p>").unwrap();
    /// r.finish().unwrap();
    /// assert_eq!(seen, ["one, two & three"]);
    /// ```
    pub fn whole_text(mut self, enabled: bool) -> Settings<'h> {
        self.handlers.text_settings.whole = enabled;
        self
    }

    /// The bounds on the rewriter's buffers (see [`MemoryLimits`]).
    pub fn with_memory_limits(mut self, limits: MemoryLimits) -> Settings<'h> {
        self.handlers.text_settings.memory = limits;
        self
    }
}

/// The element-scoped text handlers, each with how many of its elements are open.
pub(crate) struct Scoped<'h> {
    pub(crate) handlers: Vec<(UnitHandler<'h>, u32)>,
    /// Handlers with an element open.
    pub(crate) active: usize,
}

impl Scoped<'_> {
    /// An element of handler `k` opens (`open`) or closes.
    pub(crate) fn enter(&mut self, k: usize, open: bool) {
        let count = &mut self.handlers[k].1;
        if open {
            *count += 1;
            if *count == 1 {
                self.active += 1;
            }
        } else {
            *count -= 1;
            if *count == 0 {
                self.active -= 1;
            }
        }
    }
}

/// A text node being held whole: its source from `start`, its text so far.
#[derive(Debug, Default)]
pub(crate) struct Whole {
    pub(crate) start: Option<usize>,
    pub(crate) end: usize,
    pub(crate) text: String,
}
