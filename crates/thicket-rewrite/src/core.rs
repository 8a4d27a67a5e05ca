//! The dialect-independent rewriter: source held from the first byte not yet handled (its own
//! copy, or HTML's tokenizer buffer: core/source.rs), the open-element stack, the matcher, the handlers and the output.

use thicket_input::{Diagnostic, Limits, Span};
use thicket_names::keyed::NameHasher;

use crate::ErrorCode;
use crate::capture::{Captures, deliver_empty};
use crate::handlers::{Around, DocumentEnd, Element, ElementEdits, EndTag, Unit, UnitKind};
use crate::matcher::{MatchFrame, NameCounts, Program, same_bytes};
use crate::rawtext::{Inside, inside};
use crate::selector::{Attr, SelectorList};

mod inside;
mod limits;
mod source;

pub(crate) use source::Src;

/// An element handler.
pub(crate) type ElementHandler<'h> = Box<dyn FnMut(&mut Element<'_, 'h>) + 'h>;
/// A text, comment, doctype or processing-instruction handler.
pub(crate) type UnitHandler<'h> = Box<dyn FnMut(&mut Unit<'_>) + 'h>;
/// The document-end handler.
pub(crate) type EndHandler<'h> = Box<dyn FnOnce(&mut DocumentEnd<'_>) + 'h>;
/// The handler told the input's encoding (`Settings::on_encoding`).
pub(crate) type EncodingHandler<'h> = Box<dyn FnOnce(&'static encoding_rs::Encoding) + 'h>;

/// A token as the rewriter sees it, from either dialect.
#[derive(Debug)]
pub(crate) enum Event<'t> {
    Start {
        /// The name for the stack (HTML lowercased; XML5 the qualified name).
        name: &'t str,
        /// The name selectors compare with (XML5: after the prefix).
        local: &'t str,
        attributes: &'t [Attr<'t>],
        /// HTML's self-closing flag, or an XML5 empty-element tag.
        self_closing: bool,
        span: Span,
    },
    /// `name` `None`: XML5's `</>`, which closes the current element.
    End {
        name: Option<&'t str>,
        span: Span,
    },
    Unit {
        kind: UnitKind<'t>,
        span: Span,
    },
    /// Input the dialect drops without a token where a text run may go on around it: the
    /// `<![CDATA[` and `]]>` of a CDATA section the tokenizer hands out apart from its text
    /// (when a feed cuts it), HTML's `</>`, a tag cut off by the end of the input.
    #[cfg_attr(
        not(any(feature = "html", feature = "xml5", feature = "microxml")),
        allow(dead_code)
    )]
    Dropped {
        span: Span,
    },
    /// Other input without a token of its own (XML5's XML declaration, what LeafXML skips).
    #[cfg_attr(not(any(feature = "xml5", feature = "leafxml")), allow(dead_code))]
    Other {
        span: Span,
    },
    Eof {
        span: Span,
    },
}

/// Open elements shallower than this are not counted per name: an end tag that is not the
/// current element's looks for them with a walk over at most this many frames, so the usual
/// document (rarely deeper) never hashes a name. Deeper frames are counted in a keyed map, so no
/// input makes the search for a stray end tag's element cost more than this walk; they are
/// counted lazily, when such an end tag first needs the map (`Core::indexed`), so deep nesting
/// with no stray end tag hashes nothing either.
const SHALLOW: usize = 32;

/// One open element: 64 bytes, whatever the program (issue 12's aim for the cost of an open
/// element in the streaming views).
struct Frame<'h> {
    /// Where its name starts in `Core::names` (the names of the open elements, end to end), with
    /// the `FOREIGN`, `INTEGRATION_POINT` and `MATCHING` flags in its top bits.
    packed: usize,
    /// Its matching state (meaningful when `MATCHING` is set: a program runs and had not halted).
    matching: MatchFrame,
    edits: Option<Box<ElementEdits<'h>>>,
}

/// HTML: the element is in foreign content (SVG or MathML).
const FOREIGN: usize = 1 << (usize::BITS - 1);
/// HTML: a foreign element whose content is HTML again.
const INTEGRATION_POINT: usize = 1 << (usize::BITS - 2);
/// The frame has a matching state.
const MATCHING: usize = 1 << (usize::BITS - 3);
const FLAGS: usize = FOREIGN | INTEGRATION_POINT | MATCHING;

impl Frame<'_> {
    /// Where the frame's name starts in `Core::names`.
    #[inline]
    fn name_at(&self) -> usize {
        self.packed & !FLAGS
    }
    #[inline]
    fn foreign(&self) -> bool {
        self.packed & FOREIGN != 0
    }
    #[inline]
    fn integration_point(&self) -> bool {
        self.packed & INTEGRATION_POINT != 0
    }
    /// The frame's matching state, when it has one.
    #[inline]
    fn matching(&mut self) -> Option<&mut MatchFrame> {
        (self.packed & MATCHING != 0).then_some(&mut self.matching)
    }
}

// A frame is moved on every start tag and end tag and kept for every open element: 64 bytes.
const _: () = assert!(std::mem::size_of::<Frame<'_>>() <= 64);

/// The handlers and limits a rewriter runs with.
pub(crate) struct Handlers<'h> {
    pub(crate) elements: Vec<(SelectorList, ElementHandler<'h>)>,
    pub(crate) text: Option<UnitHandler<'h>>,
    pub(crate) comment: Option<UnitHandler<'h>>,
    pub(crate) doctype: Option<UnitHandler<'h>>,
    pub(crate) pi: Option<UnitHandler<'h>>,
    pub(crate) end: Option<EndHandler<'h>>,
    /// Taken by the rewriter (the core never calls it).
    pub(crate) encoding: Option<EncodingHandler<'h>>,
    pub(crate) limits: Limits,
    pub(crate) modes: crate::modes::Modes,
    /// Element-scoped text handlers, whole text, memory limits (text.rs).
    pub(crate) text_settings: crate::text::TextSettings<'h>,
}

pub(crate) struct Core<'h> {
    /// HTML rules (void elements, foreign content, ASCII case-insensitive names).
    html: bool,
    /// Whether output is produced at all (false in read-only selection).
    pub(crate) output: bool,
    /// The source from absolute offset `base` on (`Src`, source.rs). Empty in HTML, whose
    /// core reads the tokenizer's buffer instead (kept from `base` on by the tokenizer's
    /// floor: `Rewriter::compact`).
    pub(crate) src: String,
    pub(crate) base: usize,
    /// Everything before this absolute offset has been handled.
    pub(crate) done: usize,
    /// Output not yet handed to the sink, all of it before `pending`.
    pub(crate) out: String,
    /// Source written out unchanged and not yet handed to the sink: an absolute range still
    /// held in `src`, copied to the sink straight from there (most tokens are never copied
    /// anywhere else).
    pub(crate) pending: (usize, usize),
    /// A legacy encoding's bytes side: source ranges written out are marked, not copied, and
    /// written from the input's bytes (encoding.rs).
    pub(crate) legacy: Option<Box<crate::encoding::Legacy>>,
    element_handlers: Vec<ElementHandler<'h>>,
    text: Option<UnitHandler<'h>>,
    comment: Option<UnitHandler<'h>>,
    doctype: Option<UnitHandler<'h>>,
    pi: Option<UnitHandler<'h>>,
    end: Option<EndHandler<'h>>,
    max_depth: Option<usize>,
    /// The limits under which a tokenizer cuts a start tag (`cut_by_limit`): none for LeafXML,
    /// whose reader stops at a limit instead.
    pub(crate) tag_limits: Limits,
    /// The driver holds a text node whole before handing it out (LeafXML's reader assembles
    /// content): text counts against `MemoryLimits::max_buffered` as other tokens do, so the
    /// limit stops it the same way whether it was held between calls or came in one.
    pub(crate) text_held: bool,
    /// Limits the tokenizer reached in tokens not handed out yet (`tokenizer_limits`; LeafXML's
    /// reader stops at a limit instead).
    pending_limits: Vec<Diagnostic<ErrorCode>>,
    /// The tokenizer's `limits_reached` when its log was last taken.
    #[cfg_attr(
        not(any(feature = "html", feature = "xml5", feature = "microxml")),
        allow(dead_code)
    )]
    limits_seen: usize,
    /// The names handlers may give elements and attributes.
    pub(crate) name_rule: crate::handlers::NameRule,
    program: Program,
    root: MatchFrame,
    stack: Vec<Frame<'h>>,
    /// The names of the open elements, end to end (`Frame::name_at`).
    names: String,
    /// Open elements at index `SHALLOW` up to `indexed`, per name (keyed), so a stray end tag is
    /// rejected without a walk over them.
    open_names: NameCounts,
    /// The frames below this index (and at `SHALLOW` or deeper) are counted in `open_names`;
    /// the others are counted when an end tag first needs them (each frame once).
    indexed: usize,
    hasher: NameHasher,
    /// Start tags not opened past the depth limit (matched by count).
    unopened: usize,
    /// The stack index of the outermost removed element: output is dropped while it is open.
    suppress: Option<usize>,
    matched: Vec<usize>,
    /// The allocation the drivers build each start tag's attribute list in.
    pub(crate) attrs: Vec<Attr<'static>>,
    /// Emptied element edits, reused (a matched element allocates none once warm). Boxed
    /// because each moves into an open element's frame and back.
    #[allow(clippy::vec_box)]
    spare_edits: Vec<Box<ElementEdits<'h>>>,
    /// The namespaces in scope, when a selector is namespace-qualified.
    ns: Option<Box<crate::namespaces::Scope>>,
    /// HTML strict mode's shadow of the stack, when it is on.
    pub(crate) strict: Option<Box<crate::strict::Strict>>,
    pub(crate) diagnostics: Vec<Diagnostic<ErrorCode>>,
    /// HTML's scripting flag (whether `noscript` is raw text).
    scripting: bool,
    /// Text inserted into raw text (`raw-text-insertion`): the rewrite stopped there.
    pub(crate) refusal: Option<crate::Error>,
    max_diagnostics: usize,
    /// Element-scoped text handlers (text.rs); their selectors follow the element handlers'
    /// in the program.
    scoped: crate::text::Scoped<'h>,
    /// Whole text nodes: the node being held (text.rs).
    whole: Option<Box<crate::text::Whole>>,
    /// A whole text node is being held (ended by the next token that is not text).
    whole_open: bool,
    /// Each token is checked before it is handled: a whole text node is held, or
    /// `MemoryLimits::max_buffered` is set (one test per token when neither).
    token_checks: bool,
    /// Text goes through [`Core::text_slow`]: scoped handlers, whole text or captures exist.
    text_slow: bool,
    /// Open captures (capture.rs), once an element handler asked for one.
    captures: Option<Box<Captures<'h>>>,
    /// Text content is always wanted (a document-wide text handler, strict mode).
    text_always: bool,
    /// Whether the tokenizer should build text content now (a text handler or capture can
    /// see it), and whether that changed since the driver last told the tokenizer
    /// (`switch_text`: it switches between tokens).
    pub(crate) want_text: bool,
    pub(crate) switch_text: bool,
    pub(crate) memory: crate::MemoryLimits,
    /// The error the rewrite stopped with (a memory limit).
    failed: Option<crate::Error>,
}

/// HTML's void elements: never opened.
fn is_void(name: &str) -> bool {
    matches!(
        name,
        "area"
            | "base"
            | "br"
            | "col"
            | "embed"
            | "hr"
            | "img"
            | "input"
            | "link"
            | "meta"
            | "source"
            | "track"
            | "wbr"
            | "basefont"
            | "bgsound"
            | "frame"
            | "keygen"
            | "param"
    )
}

/// `v` emptied, as a list of attributes of any lifetime in the same allocation (std collects a
/// vector's `into_iter().map(..)` in place when the item layout is the same): the drivers build
/// each start tag's attribute list in one allocation kept for the whole rewrite.
pub(crate) fn reuse_attrs<'b>(mut v: Vec<Attr<'_>>) -> Vec<Attr<'b>> {
    v.clear();
    v.into_iter().map(|_| unreachable!()).collect()
}

/// Adds `delta` to the count of open elements named `name` (keyed hash `key`); a name whose
/// count drops to zero is forgotten, so the map holds only names open now.
fn count_open(counts: &mut NameCounts, key: u64, name: &str, delta: i32) {
    let slot = counts.entry(key).or_default();
    let i = match slot.iter().position(|(n, _)| &**n == name) {
        Some(i) => i,
        None => {
            slot.push((name.into(), 0));
            slot.len() - 1
        }
    };
    let c = &mut slot[i].1;
    *c = c.saturating_add_signed(delta);
    if *c == 0 {
        slot.swap_remove(i);
        if slot.is_empty() {
            counts.remove(&key);
        }
    }
}

/// SVG and MathML elements whose content is HTML again (HTML integration points and MathML
/// text integration points).
fn is_integration_point(name: &str) -> bool {
    matches!(
        name,
        "foreignobject" | "desc" | "title" | "mi" | "mo" | "mn" | "ms" | "mtext"
    )
}

impl<'h> Core<'h> {
    pub(crate) fn new(html: bool, output: bool, handlers: Handlers<'h>) -> Core<'h> {
        let (mut lists, element_handlers): (Vec<_>, Vec<_>) = handlers.elements.into_iter().unzip();
        let extra = handlers.text_settings;
        let mut scoped = Vec::new();
        for (list, handler) in extra.scoped {
            lists.push(list);
            scoped.push((handler, 0));
        }
        let text_always =
            handlers.text.is_some() || handlers.modes.strictness != crate::modes::Strictness::Guess;
        let ns = lists
            .iter()
            .any(SelectorList::uses_namespaces)
            .then(|| Box::new(crate::namespaces::Scope::new(html, &handlers.limits)));
        let strictness = handlers.modes.strictness;
        let strict = crate::strict::Strict::new(strictness, handlers.limits.max_diagnostics)
            .filter(|_| html)
            .map(Box::new);
        let program = Program::new(lists, extra.memory.max_counters);
        let root = program.root_frame();
        // XML: room for the first levels of open elements, their names and a tag's attributes,
        // so that the first tags of a document do not grow each step by step (a small document
        // paid more for that than for its tags). HTML grows them from empty (an initial room
        // for its open elements measured slower in wall time).
        let (stack, names, attrs) = match html {
            true => (Vec::new(), String::new(), Vec::new()),
            false => (
                Vec::with_capacity(16),
                String::with_capacity(128),
                Vec::with_capacity(16),
            ),
        };
        Core {
            html,
            output,
            src: String::new(),
            base: 0,
            done: 0,
            out: String::new(),
            pending: (0, 0),
            legacy: None,
            element_handlers,
            text: handlers.text,
            comment: handlers.comment,
            doctype: handlers.doctype,
            pi: handlers.pi,
            end: handlers.end,
            max_depth: handlers.limits.max_depth,
            tag_limits: handlers.limits,
            text_held: false,
            pending_limits: Vec::new(),
            limits_seen: 0,
            name_rule: if html {
                crate::handlers::NameRule::Html
            } else {
                crate::handlers::NameRule::Xml
            },
            program,
            root,
            stack,
            names,
            open_names: NameCounts::default(),
            indexed: SHALLOW,
            hasher: NameHasher::new(),
            unopened: 0,
            suppress: None,
            matched: Vec::new(),
            attrs,
            spare_edits: Vec::new(),
            ns,
            strict,
            diagnostics: Vec::new(),
            scripting: handlers.modes.scripting,
            refusal: None,
            max_diagnostics: handlers.limits.max_diagnostics.unwrap_or(usize::MAX),
            text_slow: extra.whole || !scoped.is_empty(),
            scoped: crate::text::Scoped {
                handlers: scoped,
                active: 0,
            },
            whole: extra.whole.then(Box::default),
            whole_open: false,
            token_checks: extra.memory.max_buffered.is_some(),
            captures: None,
            text_always,
            want_text: text_always,
            switch_text: false,
            memory: extra.memory,
            failed: None,
        }
    }

    /// The name of the open element at `index`.
    fn frame_name(&self, index: usize) -> &str {
        let end = self
            .stack
            .get(index + 1)
            .map_or(self.names.len(), Frame::name_at);
        &self.names[self.stack[index].name_at()..end]
    }

    /// Handles one token, reading source from the core's own `src` (the drivers other than
    /// HTML's).
    #[cfg_attr(not(any(feature = "microxml", feature = "leafxml")), allow(dead_code))]
    pub(crate) fn process(&mut self, event: Event<'_>) {
        self.with_own_source(|core, src| core.process_in(src, event));
    }

    /// Handles one token, reading source from `src` (which holds it from the core's `base`
    /// on, at least: HTML's tokenizer buffer).
    pub(crate) fn process_in(&mut self, src: Src<'_>, event: Event<'_>) {
        let span = match &event {
            Event::Start { span, .. }
            | Event::End { span, .. }
            | Event::Unit { span, .. }
            | Event::Dropped { span }
            | Event::Other { span }
            | Event::Eof { span } => *span,
        };
        if span.start > self.done {
            // Source no token holds: a byte order mark the tokenizer skipped, or text no
            // handler can see, which the HTML tokenizer does not hand out (it would only be
            // written through, as here). It comes before the token, so it is written even when
            // the token stops the rewrite.
            self.emit_source(src, Span::new(self.done, span.start));
            self.done = span.start;
        }
        if self.token_checks && self.check_token(src, &event, span) {
            return;
        }
        match event {
            Event::Start {
                name,
                local,
                attributes,
                self_closing,
                span,
            } => self.start_tag(src, name, local, attributes, self_closing, span),
            Event::End { name, span } => self.end_tag(src, name, span),
            Event::Unit { kind, span } => self.unit(src, kind, span),
            Event::Dropped { span } => self.dropped(src, span),
            Event::Other { span } => self.emit_source(src, span),
            Event::Eof { span } => self.eof(src, span),
        }
        self.done = self.done.max(span.end);
    }

    /// Stops handling for good (strict mode refused): no handler runs and nothing is written
    /// any more, whatever tokens still come.
    pub(crate) fn halt(&mut self) {
        self.output = false;
        self.program = Program::new(Vec::new(), None);
        self.text = None;
        self.comment = None;
        self.doctype = None;
        self.pi = None;
        self.end = None;
        for frame in &mut self.stack {
            frame.edits = None;
            frame.packed &= !MATCHING;
        }
        self.scoped.handlers.clear();
        self.scoped.active = 0;
        self.whole = None;
        self.set_whole_open(false);
        if let Some(c) = self.captures.as_deref_mut() {
            c.clear();
        }
        self.text_always = false;
        self.update_want_text();
    }

    /// Stops the rewrite with `error` (a memory limit): as [`halt`](Self::halt), and every
    /// later call returns the error.
    pub(crate) fn fail(&mut self, error: crate::Error) {
        if self.failed.is_none() {
            self.failed = Some(error);
            self.halt();
        }
    }

    /// The error the rewrite stopped with, if a memory limit stopped it.
    pub(crate) fn failed(&self) -> Option<&crate::Error> {
        self.failed.as_ref()
    }

    /// Recomputes whether the tokenizer should build text.
    fn update_want_text(&mut self) {
        let want = self.text_always
            || self.scoped.active > 0
            || self.captures.as_deref().is_some_and(Captures::wants_text);
        if want != self.want_text {
            self.want_text = want;
            self.switch_text = true;
        }
    }

    fn set_whole_open(&mut self, open: bool) {
        self.whole_open = open;
        self.token_checks = open || self.memory.max_buffered.is_some();
    }

    /// The checks before a token when [`token_checks`](Self::token_checks): a token that is not
    /// text ends the whole text node held; one past `MemoryLimits::max_buffered` stops the
    /// rewrite (true: the token is not handled).
    fn check_token(&mut self, src: Src<'_>, event: &Event<'_>, span: Span) -> bool {
        let text = matches!(
            event,
            Event::Unit {
                kind: UnitKind::Text(_),
                ..
            }
        );
        if text && !self.text_held {
            return false;
        }
        // Input dropped without a token does not end a text node (see `dropped`).
        if self.whole_open && !text && !matches!(event, Event::Dropped { .. }) {
            self.end_whole(src);
        }
        if crate::capture::past(self.memory.max_buffered, span.end - span.start) {
            let at = span.start;
            self.fail(crate::Error::new(ErrorCode::BufferLimit, Span::new(at, at)));
            return true;
        }
        false
    }

    /// How many frames at `SHALLOW` or deeper are named `name`.
    fn open_count(&mut self, name: &str) -> u32 {
        while self.indexed < self.stack.len() {
            let index = self.indexed;
            let (name_at, end) = (
                self.stack[index].name_at(),
                self.stack
                    .get(index + 1)
                    .map_or(self.names.len(), Frame::name_at),
            );
            let name = &self.names[name_at..end];
            count_open(&mut self.open_names, self.hasher.hash_name(name), name, 1);
            self.indexed += 1;
        }
        let key = self.hasher.hash_name(name);
        self.open_names
            .get(&key)
            .and_then(|slot| slot.iter().find(|(n, _)| &**n == name))
            .map_or(0, |(_, c)| *c)
    }

    fn start_tag(
        &mut self,
        src: Src<'_>,
        name: &str,
        local: &str,
        attributes: &[Attr<'_>],
        self_closing: bool,
        span: Span,
    ) {
        let (parent_foreign, parent_integration) = self
            .stack
            .last()
            .map_or((false, false), |f| (f.foreign(), f.integration_point()));
        let in_foreign = parent_foreign && !parent_integration;
        let foreign = self.html && (in_foreign || name == "svg" || name == "math");
        let opens = if self.html {
            if foreign {
                !self_closing
            } else {
                !is_void(name)
            }
        } else {
            !self_closing
        };
        if let Some(s) = self.strict.as_deref()
            && let Some(code) = s.start_tag(name, attributes, in_foreign)
            && self.ambiguity(code, span)
        {
            return;
        }
        // (Decided before the namespaces, so that the diagnostics come in source order.)
        let too_deep = opens && self.max_depth.is_some_and(|m| self.stack.len() >= m);
        if too_deep {
            if self.unopened == 0 && self.diagnostics.len() < self.max_diagnostics {
                self.diagnostics
                    .push(Diagnostic::new(ErrorCode::DepthLimit, span));
            }
            self.unopened += 1;
        }
        let opens = opens && !too_deep;
        let ns_view = self.ns.as_deref_mut().map(|ns| {
            ns.start(name, attributes, foreign, in_foreign, &mut self.diagnostics);
            self.diagnostics.truncate(self.max_diagnostics);
            &*ns as &dyn crate::namespaces::NsView
        });
        let mut matching = None;
        self.matched.clear();
        if !self.program.is_empty() {
            let parent = match self.stack.last_mut() {
                Some(f) => f.matching(),
                None => Some(&mut self.root),
            };
            if let Some(parent) = parent {
                matching = Some(self.program.start(
                    parent,
                    local,
                    attributes,
                    self.html,
                    ns_view,
                    &mut self.matched,
                ));
                if self.program.counters_over() {
                    self.fail(crate::Error::new(ErrorCode::CounterLimit, span));
                    return;
                }
            }
        }
        if let Some(ns) = self.ns.as_deref_mut() {
            ns.opened(opens, self.stack.len());
        }
        let mut edits: Option<Box<ElementEdits<'h>>> = None;
        let mut shown = span;
        if !self.matched.is_empty() {
            shown = self.shown(span);
            let mut e = self.spare_edits.pop().unwrap_or_default();
            // (Content of an element that does not open is dropped: nothing to refuse.)
            let inside = match self.html && !foreign && opens {
                true => inside(name, self.scripting),
                false => Inside::Escaped,
            };
            for i in 0..self.matched.len() {
                let h = self.matched[i];
                if h >= self.element_handlers.len() {
                    e.text_scopes.push(h - self.element_handlers.len());
                    e.scoped = true;
                    continue;
                }
                let mut element = Element {
                    name,
                    attributes,
                    span: shown,
                    html: self.html,
                    names: self.name_rule,
                    can_have_content: opens,
                    inside,
                    edits: &mut e,
                };
                (self.element_handlers[h])(&mut element);
            }
            if e.around.refused && self.output {
                self.recycle_edits(e);
                self.refuse_insertion(span);
                return;
            }
            if e.around.invalid_name && self.output {
                self.recycle_edits(e);
                self.refuse(ErrorCode::InvalidName, shown);
                return;
            }
            if self.output
                && let Some(code) = self.cut_by_limit(src, attributes, span, &e)
            {
                self.recycle_edits(e);
                self.refuse(code, shown);
                return;
            }
            edits = Some(e);
        }
        // Captures of an element without content are delivered before its `on_close`
        // handlers, as those of other elements are.
        if let Some(e) = edits.as_deref_mut()
            && e.scoped
        {
            self.open_captures(src, e, opens, span, shown);
        }
        match &mut edits {
            None => self.emit_source(src, span),
            Some(e) => {
                let before = std::mem::take(&mut e.around.before);
                self.emit(src, &before);
                if let Some(replacement) = e.around.replacement.take() {
                    self.emit(src, &replacement);
                }
                if !e.removed && !e.unwrapped {
                    if e.rename.is_none() && e.attributes.is_empty() {
                        self.emit_source(src, span);
                    } else if self.html || !self.emit_added_attributes(src, attributes, span, e) {
                        self.emit_rebuilt_start(src, name, attributes, self_closing, span, e);
                    }
                }
                if opens {
                    if e.removed && self.suppress.is_none() {
                        self.suppress = Some(self.stack.len());
                    }
                    let prepend = std::mem::take(&mut e.prepend);
                    self.emit(src, &prepend);
                } else {
                    let after = std::mem::take(&mut e.around.after);
                    self.emit(src, &after);
                    for h in e.close_handlers.drain(..) {
                        h(shown.end);
                    }
                }
            }
        }
        // Edits with nothing left for the element's end are reused at once.
        if let Some(e) = edits.take() {
            if opens && e.needed_at_close() {
                edits = Some(e);
            } else {
                self.recycle_edits(e);
            }
        }
        if opens {
            if let Some(s) = self.strict.as_deref_mut() {
                s.opened(name, foreign, foreign && is_integration_point(name));
            }
            let mut packed = self.names.len();
            if foreign {
                packed |= FOREIGN;
                if is_integration_point(name) {
                    packed |= INTEGRATION_POINT;
                }
            }
            let matching = match matching {
                Some(m) => {
                    packed |= MATCHING;
                    m
                }
                None => self.program.root_frame(),
            };
            self.names.push_str(name);
            self.stack.push(Frame {
                packed,
                matching,
                edits,
            });
        }
    }

    /// XML: a start tag whose edits only add attributes (none renames it, removes or sets one it
    /// has, or sets one twice) keeps its source, the new attributes written after its last
    /// attribute (or its name). False, writing nothing, when the edits are other than that or
    /// the tag does not end with `>` (a tag the recovery closed: it is rebuilt).
    fn emit_added_attributes(
        &mut self,
        src: Src<'_>,
        attributes: &[Attr<'_>],
        span: Span,
        e: &ElementEdits<'_>,
    ) -> bool {
        if e.rename.is_some() || !src.get(span).ends_with('>') {
            return false;
        }
        let edits = e.attributes.iter();
        for (i, (n, v)) in edits.clone().enumerate() {
            if v.is_none()
                || attributes
                    .iter()
                    .any(|a| same_bytes(a.name.as_bytes(), n.as_bytes()))
                || edits.clone().take(i).any(|(m, _)| m == n)
            {
                return false;
            }
        }
        let at = match attributes.last() {
            Some(a) => a.span.end,
            None => {
                let raw = src.get(span);
                let name_len = raw[1..]
                    .find(|c: char| c.is_ascii_whitespace() || c == '/' || c == '>')
                    .unwrap_or(raw.len() - 1);
                span.start + 1 + name_len
            }
        };
        self.emit_source(src, Span::new(span.start, at));
        if self.output && self.suppress.is_none() {
            self.materialize(src);
            for (n, v) in edits {
                let out = &mut self.out;
                out.push(' ');
                out.push_str(n);
                out.push_str("=\"");
                crate::handlers::push_attribute_value(out, v.unwrap_or_default());
                out.push('"');
            }
        }
        self.emit_source(src, Span::new(at, span.end));
        true
    }

    /// A start tag with renamed element or edited attributes: the name, the attributes not
    /// edited from their source, the edited and new ones double-quoted.
    /// Written straight into the output (after the pending source), with no string of its own.
    fn emit_rebuilt_start(
        &mut self,
        src: Src<'_>,
        name: &str,
        attributes: &[Attr<'_>],
        self_closing: bool,
        span: Span,
        e: &ElementEdits<'_>,
    ) {
        if !self.output || self.suppress.is_some() {
            return;
        }
        self.materialize(src);
        let html = self.html;
        let source = |s: Span| src.get(s);
        let mut legacy = self.legacy.as_deref_mut();
        let out = &mut self.out;
        // Source copied into the tag: marked instead in a legacy encoding (its own bytes),
        // unless those bytes are its text.
        let mut copy = |out: &mut String, s: Span| match legacy.as_deref_mut() {
            Some(l) => l.copy(out, s, src),
            None => out.push_str(source(s)),
        };
        let same = |a: &str, b: &str| {
            if html {
                a.eq_ignore_ascii_case(b)
            } else {
                a == b
            }
        };
        let raw = source(span);
        let name_len = raw[1..]
            .find(|c: char| c.is_ascii_whitespace() || c == '/' || c == '>')
            .unwrap_or(raw.len() - 1);
        out.push('<');
        match &e.rename {
            Some(n) => out.push_str(n),
            None if name_len > 0 => copy(out, Span::new(span.start + 1, span.start + 1 + name_len)),
            None => out.push_str(name),
        }
        let last_edit = |n: &str| {
            e.attributes
                .iter()
                .rev()
                .find(|(m, _)| same(m, n))
                .map(|(_, v)| v)
        };
        for a in attributes {
            match last_edit(a.name) {
                None => {
                    out.push(' ');
                    copy(out, a.span);
                }
                Some(None) => {}
                Some(Some(v)) => {
                    out.push(' ');
                    out.push_str(a.name);
                    out.push_str("=\"");
                    crate::handlers::push_attribute_value(out, v);
                    out.push('"');
                }
            }
        }
        for (i, (n, _)) in e.attributes.iter().enumerate() {
            let earlier = e.attributes.iter().take(i).any(|(m, _)| same(m, n));
            if earlier || attributes.iter().any(|a| same(a.name, n)) {
                continue;
            }
            if let Some(Some(v)) = last_edit(n) {
                out.push(' ');
                out.push_str(n);
                out.push_str("=\"");
                crate::handlers::push_attribute_value(out, v);
                out.push('"');
            }
        }
        out.push_str(if self_closing { "/>" } else { ">" });
    }

    fn end_tag(&mut self, src: Src<'_>, name: Option<&str>, span: Span) {
        if self.unopened > 0 {
            self.unopened -= 1;
            self.emit_source(src, span);
            return;
        }
        let target = match name {
            None => self.stack.len().checked_sub(1),
            Some(n) => {
                let len = self.stack.len();
                if len > 0 && self.frame_name(len - 1) == n {
                    Some(len - 1)
                } else if len > SHALLOW && self.open_count(n) > 0 {
                    // The nearest is deep: the walk to it is paid by closing what it passes.
                    (0..len).rev().find(|&i| self.frame_name(i) == n)
                } else {
                    (0..len.min(SHALLOW))
                        .rev()
                        .find(|&i| self.frame_name(i) == n)
                }
            }
        };
        if let (Some(n), Some(s)) = (name, self.strict.as_deref())
            && let Some(code) = s.end_tag(n, target)
            && self.ambiguity(code, span)
        {
            return;
        }
        let Some(target) = target else {
            // A stray end tag: nothing is open with its name; it passes through.
            self.emit_source(src, span);
            return;
        };
        while self.stack.len() > target + 1 {
            self.close_top(src, None, span.start);
        }
        self.close_top(src, Some(span), span.start);
    }

    /// Pops the current element, with its end tag's span or implicitly (`None`, at `at`).
    fn close_top(&mut self, src: Src<'_>, end: Option<Span>, at: usize) {
        // The usual element: no edits, no namespaces or strict mode to tell, not counted by
        // name; its frame is dropped where it is.
        if let Some(top) = self.stack.last()
            && top.edits.is_none()
            && self.ns.is_none()
            && self.strict.is_none()
            && !(SHALLOW..self.indexed).contains(&(self.stack.len() - 1))
        {
            let index = self.stack.len() - 1;
            let name_at = top.name_at();
            self.stack.truncate(index);
            self.names.truncate(name_at);
            if let Some(span) = end {
                self.emit_source(src, span);
            }
            if self.suppress == Some(index) {
                self.suppress = None;
            }
            return;
        }
        let Some(frame) = self.stack.pop() else {
            return;
        };
        let index = self.stack.len();
        if let Some(ns) = self.ns.as_deref_mut() {
            ns.closed(index);
        }
        if let Some(s) = self.strict.as_deref_mut() {
            s.closed();
        }
        if index >= SHALLOW && index < self.indexed {
            let name = &self.names[frame.name_at()..];
            count_open(&mut self.open_names, self.hasher.hash_name(name), name, -1);
        }
        self.indexed = self.indexed.min(index.max(SHALLOW));
        let inside = match &frame.edits {
            Some(e) if self.html && !frame.foreign() && !e.end_handlers.is_empty() => {
                inside(&self.names[frame.name_at()..], self.scripting)
            }
            _ => Inside::Escaped,
        };
        // The end tag closes the element of its name: end-tag handlers see the element's name
        // (HTML: lowercased, as the start tag's), whatever case the end tag was written in.
        let end_name = match &frame.edits {
            Some(e) if end.is_some() && !e.end_handlers.is_empty() => {
                self.names[frame.name_at()..].to_owned()
            }
            _ => String::new(),
        };
        self.names.truncate(frame.name_at());
        let Some(mut e) = frame.edits else {
            if let Some(span) = end {
                self.emit_source(src, span);
            }
            if self.suppress == Some(index) {
                self.suppress = None;
            }
            return;
        };
        let append = std::mem::take(&mut e.append);
        self.emit(src, &append);
        // Captures slice the held text: decoded offsets.
        if e.scoped {
            let inner_end = end.map_or(at, |s| s.start);
            self.close_captures(src, &mut e, index, inner_end, end.map_or(at, |s| s.end));
        }
        // Handlers see source byte offsets (mapped in a legacy encoding), in input order.
        let shown_end = match end {
            Some(s) if !e.end_handlers.is_empty() || !e.close_handlers.is_empty() => {
                Some(self.shown(s))
            }
            _ => end,
        };
        let outer_end = match shown_end {
            Some(s) => s.end,
            None if !e.close_handlers.is_empty() => self.shown(Span::new(at, at)).end,
            None => at,
        };
        for h in e.close_handlers.drain(..) {
            h(outer_end);
        }
        if let Some(span) = end {
            let mut around = Around::default();
            let mut rename = e.rename.take();
            for handler in e.end_handlers.drain(..) {
                let mut tag = EndTag {
                    name: &end_name,
                    span: shown_end.unwrap_or(span),
                    around: &mut around,
                    rename: &mut rename,
                    inside,
                    names: self.name_rule,
                };
                handler(&mut tag);
            }
            if around.refused && self.output {
                self.refuse_insertion(span);
                return;
            }
            if around.invalid_name && self.output {
                let shown = self.shown(span);
                self.refuse(ErrorCode::InvalidName, shown);
                return;
            }
            self.emit(src, &around.before);
            let keep = !e.removed && !e.unwrapped;
            match (&around.replacement, &rename) {
                (Some(r), _) => self.emit(src, r),
                (None, _) if !keep => {}
                (None, Some(n)) => {
                    let tag = format!("</{n}>");
                    self.emit(src, &tag);
                }
                (None, None) => self.emit_source(src, span),
            }
            self.emit(src, &around.after);
        }
        if self.suppress == Some(index) {
            self.suppress = None;
        }
        let after = std::mem::take(&mut e.around.after);
        self.emit(src, &after);
        self.recycle_edits(e);
    }

    /// Keeps emptied edits for the next matched element (a few: more are dropped).
    fn recycle_edits(&mut self, mut e: Box<ElementEdits<'h>>) {
        if self.spare_edits.len() < 16 {
            e.reset();
            self.spare_edits.push(e);
        }
    }

    fn unit(&mut self, src: Src<'_>, kind: UnitKind<'_>, span: Span) {
        if let UnitKind::Text(text) = kind
            && self.strict.is_some()
            && self.strict_text(src, text, span)
        {
            return;
        }
        if let UnitKind::Text(text) = kind
            && self.text_slow
        {
            self.text_slow(src, text, span);
            return;
        }
        let handled = match kind {
            UnitKind::Text(_) => self.text.is_some(),
            UnitKind::Comment(_) => self.comment.is_some(),
            UnitKind::Doctype(_) => self.doctype.is_some(),
            UnitKind::ProcessingInstruction(..) => self.pi.is_some(),
        };
        if !handled {
            self.emit_source(src, span);
            return;
        }
        let shown = self.shown(span);
        let inside = self.inside_here();
        let mut around = Around::default();
        let source = src.get(span);
        let handler = match kind {
            UnitKind::Text(_) => self.text.as_mut(),
            UnitKind::Comment(_) => self.comment.as_mut(),
            UnitKind::Doctype(_) => self.doctype.as_mut(),
            UnitKind::ProcessingInstruction(..) => self.pi.as_mut(),
        };
        let Some(handler) = handler else {
            return;
        };
        handler(&mut Unit {
            kind,
            source,
            span: shown,
            around: &mut around,
            inside,
        });
        self.emit_around(src, &around, span);
    }

    /// A unit (`span`) with what its handlers asked: refused (text into raw text), or written
    /// with the content before it, its replacement or source, and the content after it.
    fn emit_around(&mut self, src: Src<'_>, around: &Around, span: Span) {
        if around.refused && self.output {
            // Text comes in pieces that depend on the split: the error is where the piece
            // starts, the same however the input was split.
            self.refuse_insertion(Span::new(span.start, span.start));
            return;
        }
        self.emit(src, &around.before);
        match &around.replacement {
            Some(r) => self.emit(src, r),
            None => self.emit_source(src, span),
        }
        self.emit(src, &around.after);
    }

    /// How text inserted at the current position is written (raw text in HTML's raw-text
    /// elements).
    fn inside_here(&self) -> Inside {
        match self.stack.last() {
            Some(f) if self.html && !f.foreign() => {
                inside(&self.names[f.name_at()..], self.scripting)
            }
            _ => Inside::Escaped,
        }
    }

    /// A span as handlers see it: source byte offsets (mapped in a legacy encoding).
    fn shown(&mut self, span: Span) -> Span {
        match self.legacy.as_deref_mut() {
            Some(l) => l.span(span),
            None => span,
        }
    }

    /// Text was inserted into raw text: stops here, as a strict-mode refusal does (never in
    /// read-only mode, where edits are ignored: callers test `output`).
    fn refuse_insertion(&mut self, span: Span) {
        self.refuse(ErrorCode::RawTextInsertion, span);
    }

    fn eof(&mut self, src: Src<'_>, span: Span) {
        while !self.stack.is_empty() {
            self.close_top(src, None, span.start);
        }
        self.emit_source(src, span);
        if let Some(end) = self.end.take() {
            let mut extra = String::new();
            end(&mut DocumentEnd { out: &mut extra });
            self.emit(src, &extra);
        }
    }
}
