//! What handlers see and change: elements (start tags), end tags, text, comments, doctypes,
//! processing instructions and the document end. Every change is recorded and applied when the
//! handler returns; a unit nobody changed is written from its source bytes.

use thicket_input::Span;

use crate::rawtext::{Inside, push_inside};
use crate::selector::Attr;

/// How inserted content is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContentType {
    /// Text: `&`, `<` and `>` are written as `&amp;`, `&lt;` and `&gt;`.
    Text,
    /// Markup, written as given.
    Html,
}

/// Escapes text for element content.
pub(crate) fn push_content(out: &mut String, content: &str, kind: ContentType) {
    match kind {
        ContentType::Html => out.push_str(content),
        ContentType::Text => {
            for c in content.chars() {
                match c {
                    '&' => out.push_str("&amp;"),
                    '<' => out.push_str("&lt;"),
                    '>' => out.push_str("&gt;"),
                    c => out.push(c),
                }
            }
        }
    }
}

/// Escapes an attribute value for a double-quoted attribute.
pub(crate) fn push_attribute_value(out: &mut String, value: &str) {
    if !value.contains(['&', '"']) {
        out.push_str(value);
        return;
    }
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
}

/// Content around and in place of a unit (shared by every kind).
#[derive(Debug, Default)]
pub(crate) struct Around {
    pub(crate) before: String,
    pub(crate) after: String,
    /// Replaces the unit's own source (`Some("")` removes it); for an element, what replaces
    /// it (`Element::replace`).
    pub(crate) replacement: Option<String>,
    /// Text was inserted where it is refused (raw text: rawtext.rs).
    pub(crate) refused: bool,
    /// A handler gave a name that is not one in the dialect (`invalid-name`).
    pub(crate) invalid_name: bool,
}

/// Which names a handler may give an element or an attribute: those the dialect reads back as
/// one name, so that no name a handler passes (from untrusted data, say) can write markup.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum NameRule {
    /// HTML: a tag name starts with an ASCII letter, and neither has ASCII whitespace, `/`,
    /// `>` or NUL (an attribute name not `=`, `"`, `'` or `<` either), as the tokenizer
    /// reads them.
    #[default]
    Html,
    /// XML5 and LeafXML: XML 1.0's `Name`.
    Xml,
    /// MicroXML's `Name`.
    #[cfg_attr(not(feature = "microxml"), allow(dead_code))]
    MicroXml,
}

impl NameRule {
    /// Whether `name` is an element name (`element`) or an attribute name in the dialect.
    pub(crate) fn allows(self, name: &str, element: bool) -> bool {
        match self {
            NameRule::Html => {
                let stops = |c: char| {
                    thicket_names::html::is_ascii_whitespace_char(c)
                        || matches!(c, '/' | '>' | '\0')
                        || !element && matches!(c, '=' | '"' | '\'' | '<')
                };
                let first_ok = match name.chars().next() {
                    None => false,
                    Some(c) if element => c.is_ascii_alphabetic(),
                    Some(_) => true,
                };
                first_ok && !name.contains(stops)
            }
            NameRule::Xml => thicket_names::xml10::is_name(name),
            NameRule::MicroXml => thicket_names::microxml::is_name(name),
        }
    }
}

/// An end-tag handler.
pub type EndTagHandler<'h> = Box<dyn FnOnce(&mut EndTag<'_>) + 'h>;

/// The edits of a start tag, applied when its handlers return.
#[derive(Default)]
pub(crate) struct ElementEdits<'h> {
    pub(crate) around: Around,
    pub(crate) prepend: String,
    pub(crate) append: String,
    /// Remove the tags and the content.
    pub(crate) removed: bool,
    /// Remove the tags, keep the content.
    pub(crate) unwrapped: bool,
    pub(crate) rename: Option<String>,
    /// `(name, None)` removes, `(name, Some(value))` sets; in call order.
    pub(crate) attributes: AttrEdits,
    pub(crate) end_handlers: Vec<EndTagHandler<'h>>,
    pub(crate) close_handlers: Vec<CloseHandler<'h>>,
    /// Captures asked for, until the element opens (then they move to the core's).
    pub(crate) captures: Vec<(crate::Capture, crate::CaptureHandler<'h>)>,
    /// The element has captures open in the core.
    pub(crate) captured: bool,
    /// The element-scoped text handlers whose selector matched it.
    pub(crate) text_scopes: Vec<usize>,
    /// Captures or text scopes were asked for (one test for the three fields above).
    pub(crate) scoped: bool,
}

/// Attribute edits in call order, their names and values end to end in one string (a reused
/// set of edits allocates nothing per edit).
#[derive(Debug, Default)]
pub(crate) struct AttrEdits {
    text: String,
    /// Per edit: where its name ends in `text`, and where its value ends (`None`: removed).
    list: Vec<(usize, Option<usize>)>,
}

impl AttrEdits {
    pub(crate) fn push(&mut self, name: &str, value: Option<&str>) {
        self.text.push_str(name);
        let name_end = self.text.len();
        let value_end = value.map(|v| {
            self.text.push_str(v);
            self.text.len()
        });
        self.list.push((name_end, value_end));
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    pub(crate) fn clear(&mut self) {
        self.text.clear();
        self.list.clear();
    }

    /// The edits in call order: `(name, Some(value))` sets, `(name, None)` removes.
    pub(crate) fn iter(
        &self,
    ) -> impl DoubleEndedIterator<Item = (&str, Option<&str>)> + ExactSizeIterator + Clone {
        self.list
            .iter()
            .enumerate()
            .map(|(i, &(name_end, value_end))| {
                let start = match i {
                    0 => 0,
                    _ => {
                        let (n, v) = self.list[i - 1];
                        v.unwrap_or(n)
                    }
                };
                let name = &self.text[start..name_end];
                (name, value_end.map(|e| &self.text[name_end..e]))
            })
    }
}

impl<'h> ElementEdits<'h> {
    /// Whether anything is left to do when the element closes (else the edits can be reused
    /// at once).
    pub(crate) fn needed_at_close(&self) -> bool {
        self.removed
            || self.unwrapped
            || self.rename.is_some()
            || !self.append.is_empty()
            || !self.around.after.is_empty()
            || self.around.replacement.is_some()
            || !self.end_handlers.is_empty()
            || !self.close_handlers.is_empty()
            || self.scoped
    }

    /// Empties the edits, keeping their allocations.
    pub(crate) fn reset(&mut self) {
        self.around.before.clear();
        self.around.after.clear();
        self.around.replacement = None;
        self.around.refused = false;
        self.around.invalid_name = false;
        self.prepend.clear();
        self.append.clear();
        self.removed = false;
        self.unwrapped = false;
        self.rename = None;
        self.attributes.clear();
        self.end_handlers.clear();
        self.close_handlers.clear();
        if self.scoped {
            self.captures.clear();
            self.captured = false;
            self.text_scopes.clear();
            self.scoped = false;
        }
    }
}

/// A handler told where an element's outer markup ends.
pub type CloseHandler<'h> = Box<dyn FnOnce(usize) + 'h>;

impl std::fmt::Debug for ElementEdits<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ElementEdits")
            .field("around", &self.around)
            .field("removed", &self.removed)
            .field("unwrapped", &self.unwrapped)
            .field("rename", &self.rename)
            .field("attributes", &self.attributes)
            .field("end_handlers", &self.end_handlers.len())
            .finish_non_exhaustive()
    }
}

/// A start tag and the element it opens, as an element handler sees it.
#[derive(Debug)]
pub struct Element<'a, 'h> {
    pub(crate) name: &'a str,
    pub(crate) attributes: &'a [Attr<'a>],
    pub(crate) span: Span,
    pub(crate) html: bool,
    pub(crate) names: NameRule,
    /// Whether the element has content and an end tag (false for void, self-closing and XML
    /// empty elements).
    pub(crate) can_have_content: bool,
    /// How text inserted into its content is written (raw text: rawtext.rs).
    pub(crate) inside: Inside,
    pub(crate) edits: &'a mut ElementEdits<'h>,
}

impl<'a, 'h> Element<'a, 'h> {
    /// The tag name (HTML: lowercased; XML5: the qualified name as written), or the new name.
    pub fn name(&self) -> &str {
        self.edits.rename.as_deref().unwrap_or(self.name)
    }

    /// The start tag's source range.
    pub fn span(&self) -> Span {
        self.span
    }

    /// Whether the element has content and an end tag to come: false for HTML void elements,
    /// self-closing tags in foreign content and XML empty-element tags. Content added with
    /// [`prepend`](Self::prepend) / [`append`](Self::append) to such an element is dropped.
    pub fn can_have_content(&self) -> bool {
        self.can_have_content
    }

    fn same_name(&self, a: &str, b: &str) -> bool {
        if self.html {
            a.eq_ignore_ascii_case(b)
        } else {
            a == b
        }
    }

    /// The value of attribute `name` after the edits so far (HTML: names compared ASCII
    /// case-insensitively).
    pub fn attribute(&self, name: &str) -> Option<&str> {
        if let Some((_, v)) = self
            .edits
            .attributes
            .iter()
            .rev()
            .find(|(n, _)| self.same_name(n, name))
        {
            return v;
        }
        self.attributes
            .iter()
            .find(|a| self.same_name(a.name, name))
            .map(|a| a.value)
    }

    /// Whether the element has attribute `name`.
    pub fn has_attribute(&self, name: &str) -> bool {
        self.attribute(name).is_some()
    }

    /// The attributes after the edits so far, in order (new ones last).
    pub fn attributes(&self) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = self
            .attributes
            .iter()
            .map(|a| (a.name.to_owned(), a.value.to_owned()))
            .collect();
        for (name, value) in self.edits.attributes.iter() {
            let at = out.iter().position(|(n, _)| self.same_name(n, name));
            match (at, value) {
                (Some(i), Some(v)) => out[i].1 = v.to_owned(),
                (Some(i), None) => {
                    out.remove(i);
                }
                (None, Some(v)) => out.push((name.to_owned(), v.to_owned())),
                (None, None) => {}
            }
        }
        out
    }

    /// Sets attribute `name` to `value` (written double-quoted, `&` and `"` escaped). A name
    /// the dialect would not read back as one attribute name (HTML: empty, or with ASCII
    /// whitespace, `/`, `>`, `=`, a quote, `<` or NUL; XML5 and LeafXML: not XML's `Name`;
    /// MicroXML: not its `Name`) is never written: the rewrite stops at this tag with
    /// `invalid-name`.
    pub fn set_attribute(&mut self, name: &str, value: &str) {
        if !self.names.allows(name, false) {
            self.edits.around.invalid_name = true;
            return;
        }
        self.edits.attributes.push(name, Some(value));
    }

    /// Removes attribute `name`.
    pub fn remove_attribute(&mut self, name: &str) {
        self.edits.attributes.push(name, None);
    }

    /// Renames the element (start and end tag). A name the dialect would not read back as one
    /// tag name (HTML: not starting with an ASCII letter, or with ASCII whitespace, `/`, `>` or
    /// NUL; XML5 and LeafXML: not XML's `Name`; MicroXML: not its `Name`) is never written:
    /// the rewrite stops at this tag with `invalid-name`.
    pub fn set_name(&mut self, name: &str) {
        if !self.names.allows(name, true) {
            self.edits.around.invalid_name = true;
            return;
        }
        self.edits.rename = Some(name.to_owned());
    }

    /// Inserts content before the start tag.
    pub fn before(&mut self, content: &str, kind: ContentType) {
        push_content(&mut self.edits.around.before, content, kind);
    }

    /// Inserts content after the end tag (after the start tag when there is no content).
    pub fn after(&mut self, content: &str, kind: ContentType) {
        push_content(&mut self.edits.around.after, content, kind);
    }

    /// Inserts content right after the start tag.
    pub fn prepend(&mut self, content: &str, kind: ContentType) {
        let e = &mut *self.edits;
        e.around.refused |= !push_inside(&mut e.prepend, content, kind, self.inside);
    }

    /// Inserts content right before the end tag (or where the element is closed implicitly).
    pub fn append(&mut self, content: &str, kind: ContentType) {
        let e = &mut *self.edits;
        e.around.refused |= !push_inside(&mut e.append, content, kind, self.inside);
    }

    /// Replaces the element (tags and content) with `content`, between what
    /// [`before`](Self::before) and [`after`](Self::after) insert, in whatever order they are
    /// called (a second `replace` replaces the first's content).
    pub fn replace(&mut self, content: &str, kind: ContentType) {
        let mut replacement = String::new();
        push_content(&mut replacement, content, kind);
        self.edits.around.replacement = Some(replacement);
        self.remove();
    }

    /// Removes the element: its tags and its content.
    pub fn remove(&mut self) {
        self.edits.removed = true;
    }

    /// Removes the tags and keeps the content.
    pub fn unwrap(&mut self) {
        self.edits.unwrapped = true;
    }

    /// Whether [`remove`](Self::remove) or [`replace`](Self::replace) was called.
    pub fn is_removed(&self) -> bool {
        self.edits.removed
    }

    /// Runs `handler` when the element ends, with the input offset where its outer markup ends:
    /// after its end tag, where it was closed implicitly (the start of the end tag that closed
    /// it, or the end of the input), or after the start tag for an element without content.
    /// With [`span`](Self::span)`().start` this is the element's source range.
    pub fn on_close(&mut self, handler: impl FnOnce(usize) + 'h) {
        self.edits.close_handlers.push(Box::new(handler));
    }

    /// Captures the element's inner or outer markup (as written in the input, before any
    /// handler's edits) or its text content, handed to `handler` when the element ends: at its
    /// end tag, where it is closed implicitly, or at the end of the input with what there is. An
    /// element without content gets it at once (outer: the start tag; inner and text: empty).
    /// Past [`MemoryLimits::max_captured`](crate::MemoryLimits) bytes the handler gets the
    /// error `capture-limit` (span: the start tag) instead, when the element ends, and the
    /// rewrite goes on (docs/rewrite.md, "Capture").
    ///
    /// ```
    /// use thicket_rewrite::{Capture, Dialect, Settings, rewrite_str};
    /// let got = std::cell::RefCell::new(Vec::new());
    /// let settings = Settings::new()
    ///     .on_element("p", |p| {
    ///         let got = &got;
    ///         p.capture(Capture::Outer, move |s| got.borrow_mut().push(s.unwrap().to_owned()));
    ///         p.set_attribute("class", "seen");
    ///     })
    ///     .unwrap();
    /// let out = rewrite_str("<p>a &amp; <b>b</b></p>", Dialect::Html, settings).unwrap();
    /// assert_eq!(out, "<p class=\"seen\">a &amp; <b>b</b></p>");
    /// assert_eq!(got.into_inner(), ["<p>a &amp; <b>b</b></p>"]);
    /// ```
    pub fn capture(
        &mut self,
        what: crate::Capture,
        handler: impl FnOnce(Result<&str, crate::Error>) + 'h,
    ) {
        self.edits.captures.push((what, Box::new(handler)));
        self.edits.scoped = true;
    }

    /// Runs `handler` on the element's end tag. It does not run for elements without content
    /// or for elements closed implicitly (without an end tag of their own).
    pub fn on_end_tag(&mut self, handler: impl FnOnce(&mut EndTag<'_>) + 'h) {
        self.edits.end_handlers.push(Box::new(handler));
    }
}

/// An end tag, as an end-tag handler sees it.
#[derive(Debug)]
pub struct EndTag<'a> {
    pub(crate) name: &'a str,
    pub(crate) span: Span,
    pub(crate) around: &'a mut Around,
    pub(crate) rename: &'a mut Option<String>,
    /// How text inserted before it (inside the element) is written.
    pub(crate) inside: Inside,
    pub(crate) names: NameRule,
}

impl EndTag<'_> {
    /// The name of the element it closes, as [`Element::name`] gave it (HTML: lowercased,
    /// whatever case the end tag is written in; XML: the qualified name, which the end tag
    /// matched, also for XML5's `</>`), or the new name.
    pub fn name(&self) -> &str {
        self.rename.as_deref().unwrap_or(self.name)
    }
    /// The source range.
    pub fn span(&self) -> Span {
        self.span
    }
    /// Renames the end tag; a name the dialect would not read back as one tag name stops the
    /// rewrite with `invalid-name`, as [`Element::set_name`].
    pub fn set_name(&mut self, name: &str) {
        if !self.names.allows(name, true) {
            self.around.invalid_name = true;
            return;
        }
        *self.rename = Some(name.to_owned());
    }
    /// Inserts content before the end tag.
    pub fn before(&mut self, content: &str, kind: ContentType) {
        let a = &mut *self.around;
        a.refused |= !push_inside(&mut a.before, content, kind, self.inside);
    }
    /// Inserts content after the end tag.
    pub fn after(&mut self, content: &str, kind: ContentType) {
        push_content(&mut self.around.after, content, kind);
    }
    /// Removes the end tag.
    pub fn remove(&mut self) {
        self.around.replacement = Some(String::new());
    }
}

/// What a text, comment, doctype or processing-instruction handler sees.
#[derive(Debug)]
pub struct Unit<'a> {
    pub(crate) kind: UnitKind<'a>,
    pub(crate) source: &'a str,
    pub(crate) span: Span,
    pub(crate) around: &'a mut Around,
    /// How text inserted around it is written (text in a raw-text element).
    pub(crate) inside: Inside,
}

/// Which token a [`Unit`] is, with its decoded parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum UnitKind<'a> {
    /// A piece of text (references resolved; a text run may come in several pieces).
    Text(&'a str),
    /// A comment, its data.
    Comment(&'a str),
    /// A doctype, its name.
    Doctype(Option<&'a str>),
    /// A processing instruction: target and data.
    ProcessingInstruction(&'a str, &'a str),
}

impl<'a> Unit<'a> {
    /// Which token, with its decoded parts.
    pub fn kind(&self) -> UnitKind<'a> {
        self.kind
    }
    /// The source as written.
    pub fn source(&self) -> &'a str {
        self.source
    }
    /// The source range.
    pub fn span(&self) -> Span {
        self.span
    }
    /// Inserts content before it.
    pub fn before(&mut self, content: &str, kind: ContentType) {
        let a = &mut *self.around;
        a.refused |= !push_inside(&mut a.before, content, kind, self.inside);
    }
    /// Inserts content after it.
    pub fn after(&mut self, content: &str, kind: ContentType) {
        let a = &mut *self.around;
        a.refused |= !push_inside(&mut a.after, content, kind, self.inside);
    }
    /// Replaces it.
    pub fn replace(&mut self, content: &str, kind: ContentType) {
        let mut s = String::new();
        self.around.refused |= !push_inside(&mut s, content, kind, self.inside);
        self.around.replacement = Some(s);
    }
    /// Removes it.
    pub fn remove(&mut self) {
        self.around.replacement = Some(String::new());
    }
}

/// The document end, as the end handler sees it.
#[derive(Debug)]
pub struct DocumentEnd<'a> {
    pub(crate) out: &'a mut String,
}

impl DocumentEnd<'_> {
    /// Appends content at the end of the output.
    pub fn append(&mut self, content: &str, kind: ContentType) {
        push_content(self.out, content, kind);
    }
}
