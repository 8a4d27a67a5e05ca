//! The document-level mode's model of the tree builder ([`crate::Options::document`]): which
//! start tags switch the tokenizer to RCDATA, RAWTEXT, script data or PLAINTEXT, and whether the
//! adjusted current node is in the HTML namespace (CDATA sections allowed), without building a
//! tree. It follows the tree construction dispatcher and "the rules for parsing tokens in foreign
//! content" of the HTML standard for SVG and MathML subtrees only: outside them nothing is
//! tracked (an HTML start tag there is always processed by the HTML rules). The subset and where
//! it differs from a tree builder: docs/html.md, "The document-level mode".

use thicket_input::cursor::Cursor;

use super::Tokenizer;
use super::tag::TagBuild;

/// The namespace of an open element.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Namespace {
    Html,
    Svg,
    MathMl,
}

/// What an open element is to the dispatcher.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    /// Nothing special.
    Plain,
    /// A MathML text integration point: `mi`, `mo`, `mn`, `ms`, `mtext`.
    MathText,
    /// MathML `annotation-xml` that is not an HTML integration point (`<svg>` in it is HTML's).
    AnnotationXml,
    /// An HTML integration point: SVG `foreignObject`, `desc`, `title`; MathML `annotation-xml`
    /// with `encoding` `text/html` or `application/xhtml+xml`.
    HtmlIntegration,
}

/// An open element: its namespace, kind and name (a range of [`ForeignContent::names`]).
#[derive(Clone, Copy, Debug)]
struct Open {
    namespace: Namespace,
    kind: Kind,
    name: u32,
}

/// The open elements of the SVG and MathML subtrees (and the HTML elements inside their
/// integration points); empty outside them.
#[derive(Clone, Debug, Default)]
pub(super) struct ForeignContent {
    open: Vec<Open>,
    /// The names of the open elements, one after the other (an element's starts at its `name`).
    names: String,
    /// Start tags not tracked because `Limits::max_depth` elements were open; end tags close
    /// these first.
    unopened: usize,
}

/// Whether a start tag named `name` (lowercase, as tokens have it) ends foreign content: the
/// HTML standard's "rules for parsing tokens in foreign content" pop SVG and MathML elements
/// up to an HTML element or integration point and reprocess it there. That is the tag names
/// the standard lists, and `font` with a `color`, `face` or `size` attribute (`has_attribute`
/// answers for the tag's attributes). The document-level mode follows it; a caller modelling
/// the stack itself (thicket-rewrite's strict mode) asks it too.
///
/// ```
/// use thicket_html::breaks_out_of_foreign_content as breaks_out;
/// assert!(breaks_out("p", |_| false));
/// assert!(!breaks_out("rect", |_| false));
/// assert!(breaks_out("font", |a| a == "size") && !breaks_out("font", |a| a == "id"));
/// ```
pub fn breaks_out_of_foreign_content(name: &str, has_attribute: impl Fn(&str) -> bool) -> bool {
    breaks_out(name)
        || (name == "font" && ["color", "face", "size"].iter().any(|a| has_attribute(a)))
}

/// The start tags that end foreign content ("A start tag whose tag name is one of ...", and
/// `font` with `color`, `face` or `size`, checked by the caller).
fn breaks_out(name: &str) -> bool {
    matches!(
        name,
        "b" | "big"
            | "blockquote"
            | "body"
            | "br"
            | "center"
            | "code"
            | "dd"
            | "div"
            | "dl"
            | "dt"
            | "em"
            | "embed"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "head"
            | "hr"
            | "i"
            | "img"
            | "li"
            | "listing"
            | "menu"
            | "meta"
            | "nobr"
            | "ol"
            | "p"
            | "pre"
            | "ruby"
            | "s"
            | "small"
            | "span"
            | "strong"
            | "strike"
            | "sub"
            | "sup"
            | "table"
            | "tt"
            | "u"
            | "ul"
            | "var"
    )
}

/// HTML elements that are never open (void elements, and those the body's rules insert and pop
/// at once).
fn is_void(name: &str) -> bool {
    matches!(
        name,
        "area"
            | "base"
            | "basefont"
            | "bgsound"
            | "br"
            | "col"
            | "embed"
            | "frame"
            | "hr"
            | "img"
            | "input"
            | "keygen"
            | "link"
            | "meta"
            | "param"
            | "source"
            | "track"
            | "wbr"
            | "image"
    )
}

/// The value of the attribute `name` of the tag being built.
fn attribute<'t>(tag: &'t TagBuild, input: &'t Cursor<'_>, name: &str) -> Option<&'t str> {
    tag.attrs
        .iter()
        .find(|a| a.name.as_str(input) == name)
        .map(|a| a.value.as_str(input))
}

impl ForeignContent {
    /// Whether the adjusted current node is not in the HTML namespace (CDATA is allowed).
    pub(super) fn in_foreign_content(&self) -> bool {
        self.open
            .last()
            .is_some_and(|o| o.namespace != Namespace::Html)
    }

    /// Whether any SVG or MathML element is open (so tags may be processed by the rules for
    /// foreign content, which read attributes of `font` and `annotation-xml`).
    pub(super) fn any_open(&self) -> bool {
        !self.open.is_empty()
    }

    fn name(&self, i: usize) -> &str {
        let end = self
            .open
            .get(i + 1)
            .map_or(self.names.len(), |o| o.name as usize);
        &self.names[self.open[i].name as usize..end]
    }

    fn push(&mut self, namespace: Namespace, kind: Kind, name: &str, max_depth: Option<usize>) {
        if max_depth.is_some_and(|max| self.open.len() >= max) {
            self.unopened += 1;
            return;
        }
        self.open.push(Open {
            namespace,
            kind,
            name: self.names.len() as u32,
        });
        self.names.push_str(name);
    }

    fn truncate(&mut self, len: usize) {
        if let Some(o) = self.open.get(len) {
            self.names.truncate(o.name as usize);
        }
        self.open.truncate(len);
    }

    /// Pops foreign elements until the current node is a MathML text integration point, an
    /// HTML integration point or an HTML element (or nothing is tracked): a breakout.
    fn break_out(&mut self) {
        let keep = self
            .open
            .iter()
            .rposition(|o| {
                o.namespace == Namespace::Html
                    || matches!(o.kind, Kind::MathText | Kind::HtmlIntegration)
            })
            .map_or(0, |i| i + 1);
        self.truncate(keep);
    }

    /// Whether the tree construction dispatcher processes the start tag `name` by the HTML
    /// rules.
    fn html_rules_for_start_tag(&self, name: &str) -> bool {
        match self.open.last() {
            None => true,
            Some(o) => {
                o.namespace == Namespace::Html
                    || o.kind == Kind::HtmlIntegration
                    || (o.kind == Kind::MathText && !matches!(name, "mglyph" | "malignmark"))
                    || (o.kind == Kind::AnnotationXml && name == "svg")
            }
        }
    }

    /// A start tag: updates the open elements and says whether it was processed by the HTML
    /// rules (so that a raw-text element switches the tokenizer).
    pub(super) fn start_tag(
        &mut self,
        tag: &TagBuild,
        input: &Cursor<'_>,
        max_depth: Option<usize>,
    ) -> bool {
        let name = tag.name.as_str(input);
        loop {
            if self.html_rules_for_start_tag(name) {
                match name {
                    "svg" if !tag.self_closing => {
                        self.push(Namespace::Svg, Kind::Plain, name, max_depth)
                    }
                    "math" if !tag.self_closing => {
                        self.push(Namespace::MathMl, Kind::Plain, name, max_depth)
                    }
                    "svg" | "math" => {}
                    // Outside SVG and MathML, HTML elements are not tracked.
                    _ if self.open.is_empty() || is_void(name) => {}
                    _ => self.push(Namespace::Html, Kind::Plain, name, max_depth),
                }
                return true;
            }
            if breaks_out_of_foreign_content(name, |a| attribute(tag, input, a).is_some()) {
                // Pops to an integration point or HTML element; reprocessed there.
                self.break_out();
                continue;
            }
            let namespace = self.open.last().map_or(Namespace::Html, |o| o.namespace);
            if !tag.self_closing {
                let kind = match (namespace, name) {
                    (Namespace::Svg, "foreignobject" | "desc" | "title") => Kind::HtmlIntegration,
                    (Namespace::MathMl, "mi" | "mo" | "mn" | "ms" | "mtext") => Kind::MathText,
                    (Namespace::MathMl, "annotation-xml") => {
                        match attribute(tag, input, "encoding") {
                            Some(e)
                                if e.eq_ignore_ascii_case("text/html")
                                    || e.eq_ignore_ascii_case("application/xhtml+xml") =>
                            {
                                Kind::HtmlIntegration
                            }
                            _ => Kind::AnnotationXml,
                        }
                    }
                    _ => Kind::Plain,
                };
                self.push(namespace, kind, name, max_depth);
            }
            return false;
        }
    }

    /// An end tag: closes what a tree builder would close, as far as this model can tell.
    pub(super) fn end_tag(&mut self, name: &str) {
        if self.open.is_empty() {
            return;
        }
        if self.unopened > 0 {
            self.unopened -= 1;
            return;
        }
        if self.in_foreign_content() && matches!(name, "br" | "p") {
            // `</br>` and `</p>` break out too, then are HTML's: an element without content.
            self.break_out();
            return;
        }
        if !self.in_foreign_content() {
            self.html_end_tag(name);
            return;
        }
        // "Any other end tag" in foreign content: the nearest open element of that name (names
        // are lowercase on both sides), until an HTML element hands the tag to the HTML rules.
        for i in (0..self.open.len()).rev() {
            if self.open[i].namespace == Namespace::Html {
                self.html_end_tag(name);
                return;
            }
            if self.name(i) == name {
                self.truncate(i);
                return;
            }
        }
        // Below the SVG or MathML root: HTML elements this model does not track. An
        // integration point on the way is special and a scope boundary, so the HTML rules
        // ignore the tag; otherwise it is taken to close an element outside (as `</div>`
        // closing the `<div>` around an unclosed `<svg>`), and foreign content ends.
        if self.open.iter().all(|o| o.kind == Kind::Plain) {
            self.truncate(0);
        }
    }

    /// An end tag by the HTML rules: the nearest open HTML element of that name, unless a scope
    /// boundary (an integration point or `annotation-xml`) comes first; otherwise ignored (no
    /// HTML element is tracked outside an integration point).
    fn html_end_tag(&mut self, name: &str) {
        for i in (0..self.open.len()).rev() {
            let o = self.open[i];
            if o.namespace == Namespace::Html && self.name(i) == name {
                self.truncate(i);
                return;
            }
            if o.kind != Kind::Plain {
                return;
            }
        }
    }
}

impl<'a> Tokenizer<'a> {
    /// After a start tag in the document-level mode: updates the model of the open elements
    /// and returns whether the tag was processed by the HTML rules (so may switch the state).
    #[inline]
    pub(super) fn foreign_start_tag(&mut self) -> bool {
        if !self.foreign.any_open() && !matches!(self.tag.name.as_str(&self.input), "svg" | "math")
        {
            // Outside SVG and MathML nothing but these two changes the model (the common
            // case, decided without the call).
            self.options.cdata_allowed = false;
            return true;
        }
        let html = self
            .foreign
            .start_tag(&self.tag, &self.input, self.options.limits.max_depth);
        self.options.cdata_allowed = self.foreign.in_foreign_content();
        html
    }

    /// After an end tag in the document-level mode.
    pub(super) fn foreign_end_tag(&mut self) {
        if !self.options.switch_by_tag_name {
            return;
        }
        if !self.foreign.any_open() {
            self.options.cdata_allowed = false;
            return;
        }
        self.foreign.end_tag(self.tag.name.as_str(&self.input));
        self.options.cdata_allowed = self.foreign.in_foreign_content();
    }
}
