//! HTML strict mode: where the HTML standard's tree construction would restructure the
//! document and the rewriter's subset of it (docs/rewrite.md, "The open-element stack")
//! guesses, report the ambiguity (and, with `Settings::strict`, refuse to go on).
//!
//! The rules are the table below, each with its code ([`Strict::start_tag`],
//! [`Strict::end_tag`] and [`Strict::text`] check them); [`class`] is the table of the element
//! names they ask about. The strict state is a shadow of the open-element stack, six bytes per
//! open element: each frame's name class and what is open in the scopes the rules need (a `p`
//! in button scope, an `li` not hidden by a special element, the innermost table part in table
//! scope, ...), inherited from the parent when the element opens. Every check is constant
//! time, but for an end tag's walk over the elements it closes, which are
//! then popped: linear time on any input.
//!
//! | code | reported when |
//! |---|---|
//! | `implied-end-tag` | a start tag ends an open element (a block start tag an open `p` in button scope; `li` an open `li`, `dd`/`dt` an open `dd`/`dt`, not hidden by a special element; a heading the current heading; `option`/`optgroup` the current `option`/`optgroup`; ruby text the current ruby text; `button` an open `button`; a table part an open table part it ends; `table` a table; a start tag that ends foreign content); or an end tag closes elements a parser would not close the same way (a special element between for a non-special end tag, a scope boundary between for a special one, anything but elements with optional end tags for `</body>` and `</html>`, HTML content between for a foreign end tag) |
//! | `implied-element` | the parser would insert an element: `tr`/`td`/`th` directly in `table` (`tbody`), `td`/`th` directly in a table section (`tr`), `col` directly in `table` (`colgroup`), `</p>` with no `p` open (an empty `p`), `</br>` (a `br`) |
//! | `foster-parenting` | text other than whitespace, or a start tag other than a table part, `script`, `style`, `template` or `<input type=hidden>`, directly in `table`, `tbody`, `thead`, `tfoot` or `tr`: the parser moves it before the table |
//! | `misnested-formatting` | an end tag of a formatting element that is not the current element, an element closed implicitly that is a formatting element (reopened by the parser later), `a` in an `a`, `nobr` in a `nobr`: the adoption agency and reconstruction restructure these |
//! | `template-content` | a `template` start tag: its content is a separate document fragment, not children |
//! | `select-content` | a start tag other than `option`, `optgroup`, `hr`, `script` or `template` inside `select` (parsers before 2025 drop or move it) |
//! | `ignored-tag` | a start tag the parser ignores or merges: `form` in a `form`, `html` inside the document, `body` in a `body`, `head` in a `head` or `body`, `frameset` |

use thicket_input::{Diagnostic, Span};

use crate::core::{Core, Src};
use crate::modes::Strictness;
use crate::selector::Attr;
use crate::{Error, ErrorCode};

// Name classes (bits of `class`).
/// The HTML standard's "special" category.
const SPECIAL: u16 = 1;
/// `address`, `div`, `p`: special, but they do not hide an open `li`, `dd` or `dt`.
const ADP: u16 = 1 << 1;
/// A boundary of the default scope (`applet caption html table td th marquee object template`).
const SCOPE: u16 = 1 << 2;
/// `button`: a boundary of button scope.
const BUTTON_SCOPE: u16 = 1 << 3;
/// `html table template`: boundaries of table scope.
const TABLE_SCOPE: u16 = 1 << 4;
/// A formatting element.
const FORMATTING: u16 = 1 << 5;
/// An element whose end tag may be omitted (generated implied end tags, table parts, `html`,
/// `head`, `body`).
const OPTIONAL_END: u16 = 1 << 6;
/// A start tag that closes a `p` in button scope.
const CLOSES_P: u16 = 1 << 7;
/// `h1` to `h6`.
const HEADING: u16 = 1 << 8;
/// `table tbody thead tfoot tr`: text and most tags directly in them are foster-parented.
const TABLE_CONTEXT: u16 = 1 << 9;
/// `rb rt rtc rp`.
const RUBY_TEXT: u16 = 1 << 10;
/// Allowed directly in a table context (`caption colgroup col tbody thead tfoot tr td th
/// table script style template`).
const IN_TABLE: u16 = 1 << 11;
/// A marker in the list of active formatting elements (`td th caption template applet object
/// marquee`).
const MARKER: u16 = 1 << 12;

/// The classes of an HTML element name: the table the rules read.
fn class(name: &str) -> u16 {
    match name {
        "address" | "div" => SPECIAL | ADP | CLOSES_P,
        "p" => SPECIAL | ADP | CLOSES_P | OPTIONAL_END,
        "article" | "aside" | "blockquote" | "center" | "details" | "dialog" | "dir" | "dl"
        | "fieldset" | "figcaption" | "figure" | "footer" | "header" | "hgroup" | "main"
        | "menu" | "nav" | "ol" | "search" | "section" | "summary" | "ul" | "pre" | "listing"
        | "form" | "plaintext" | "hr" | "xmp" => SPECIAL | CLOSES_P,
        "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => SPECIAL | CLOSES_P | HEADING,
        "li" | "dd" | "dt" => SPECIAL | CLOSES_P | OPTIONAL_END,
        "table" => SPECIAL | CLOSES_P | SCOPE | TABLE_SCOPE | TABLE_CONTEXT | IN_TABLE,
        "html" => SPECIAL | SCOPE | TABLE_SCOPE | OPTIONAL_END,
        "template" => SPECIAL | SCOPE | TABLE_SCOPE | IN_TABLE | MARKER,
        "td" | "th" | "caption" => SPECIAL | SCOPE | OPTIONAL_END | IN_TABLE | MARKER,
        "applet" | "marquee" | "object" => SPECIAL | SCOPE | MARKER,
        "tbody" | "thead" | "tfoot" | "tr" => SPECIAL | OPTIONAL_END | TABLE_CONTEXT | IN_TABLE,
        "colgroup" => SPECIAL | OPTIONAL_END | IN_TABLE,
        "col" | "script" | "style" => SPECIAL | IN_TABLE,
        "head" | "body" => SPECIAL | OPTIONAL_END,
        "button" => SPECIAL | BUTTON_SCOPE,
        "area" | "base" | "basefont" | "bgsound" | "br" | "embed" | "frame" | "frameset"
        | "iframe" | "img" | "input" | "keygen" | "link" | "meta" | "noembed" | "noframes"
        | "noscript" | "param" | "select" | "source" | "textarea" | "title" | "track" | "wbr" => {
            SPECIAL
        }
        "a" | "b" | "big" | "code" | "em" | "font" | "i" | "nobr" | "s" | "small" | "strike"
        | "strong" | "tt" | "u" => FORMATTING,
        "rb" | "rt" | "rtc" | "rp" => RUBY_TEXT | OPTIONAL_END,
        "option" | "optgroup" => OPTIONAL_END,
        _ => 0,
    }
}

/// Table parts, innermost in table scope (`Shadow::part`).
const CAPTION: u8 = 1;
const COLGROUP: u8 = 2;
const SECTION: u8 = 3;
const ROW: u8 = 4;
const CELL: u8 = 5;

fn part(name: &str) -> u8 {
    match name {
        "caption" => CAPTION,
        "colgroup" => COLGROUP,
        "tbody" | "thead" | "tfoot" => SECTION,
        "tr" => ROW,
        "td" | "th" => CELL,
        _ => 0,
    }
}

// What is open (bits of `Shadow::open`), each in the scope its rule needs.
const LI: u16 = 1;
const DD_DT: u16 = 1 << 1;
const P: u16 = 1 << 2;
const A: u16 = 1 << 3;
const NOBR: u16 = 1 << 4;
const BUTTON: u16 = 1 << 5;
const FORM: u16 = 1 << 6;
const SELECT: u16 = 1 << 7;
const BODY: u16 = 1 << 8;
const HEAD: u16 = 1 << 9;
/// The element itself (not inherited): `option`, `optgroup`, `colgroup`.
const IS_OPTION: u16 = 1 << 13;
const IS_OPTGROUP: u16 = 1 << 14;
const IS_COLGROUP: u16 = 1 << 15;
/// The element itself is `ol` or `ul` (a boundary of list item scope).
const IS_LIST: u16 = 1 << 12;

/// One open element as the rules see it.
#[derive(Clone, Copy, Debug, Default)]
struct Shadow {
    /// `class` of its name (0 for a foreign element; an integration point is a scope boundary).
    class: u16,
    /// What is open in it (see the bits above).
    open: u16,
    /// The innermost table part in table scope.
    part: u8,
    foreign: bool,
}

/// Strict mode's state: the shadow stack, and the error it stopped with.
#[derive(Debug)]
pub(crate) struct Strict {
    refuse: bool,
    frames: Vec<Shadow>,
    max_diagnostics: usize,
    pub(crate) error: Option<Error>,
}

impl Strict {
    pub(crate) fn new(strictness: Strictness, max_diagnostics: Option<usize>) -> Option<Strict> {
        (strictness != Strictness::Guess).then(|| Strict {
            refuse: strictness == Strictness::Refuse,
            frames: Vec::new(),
            max_diagnostics: max_diagnostics.unwrap_or(usize::MAX),
            error: None,
        })
    }

    fn top(&self) -> Shadow {
        self.frames.last().copied().unwrap_or_default()
    }

    /// An element opened (as the core pushes it): `foreign` and `integration_point` as its frame.
    pub(crate) fn opened(&mut self, name: &str, foreign: bool, integration_point: bool) {
        let parent = self.top();
        let class = if !foreign {
            class(name)
        } else if integration_point {
            SPECIAL | SCOPE
        } else {
            0
        };
        let mut open = parent.open & !(IS_OPTION | IS_OPTGROUP | IS_COLGROUP | IS_LIST);
        let mut table_part = parent.part;
        if class & SPECIAL != 0 && class & ADP == 0 {
            open &= !(LI | DD_DT);
        }
        if class & (SCOPE | BUTTON_SCOPE) != 0 {
            open &= !P;
        }
        if class & SCOPE != 0 {
            open &= !(NOBR | BUTTON);
        }
        if class & MARKER != 0 {
            open &= !A;
        }
        if class & TABLE_SCOPE != 0 {
            table_part = 0;
        }
        if !foreign {
            open |= match name {
                "li" => LI,
                "dd" | "dt" => DD_DT,
                "p" => P,
                "a" => A,
                "nobr" => NOBR,
                "button" => BUTTON,
                "form" => FORM,
                "select" => SELECT,
                "body" => BODY,
                "head" => HEAD,
                "option" => IS_OPTION,
                "optgroup" => IS_OPTGROUP,
                "colgroup" => IS_COLGROUP,
                "ol" | "ul" => IS_LIST,
                _ => 0,
            };
            let p = part(name);
            if p != 0 {
                table_part = p;
            }
        }
        self.frames.push(Shadow {
            class,
            open,
            part: table_part,
            foreign,
        });
    }

    /// The current element closed.
    pub(crate) fn closed(&mut self) {
        self.frames.pop();
    }

    /// A start tag (`in_foreign`: its parent is foreign and no integration point): the rule it
    /// breaks.
    pub(crate) fn start_tag(
        &self,
        name: &str,
        attributes: &[Attr<'_>],
        in_foreign: bool,
    ) -> Option<ErrorCode> {
        if in_foreign {
            // The rewriter nests it in the foreign element; the parser ends foreign content.
            #[cfg(feature = "html")]
            let breaks = thicket_html::breaks_out_of_foreign_content(name, |n| {
                attributes.iter().any(|a| a.name == n)
            });
            #[cfg(not(feature = "html"))]
            let breaks = false;
            return breaks.then_some(ErrorCode::ImpliedEndTag);
        }
        let c = class(name);
        let top = self.top();
        let open = top.open;
        let t = if top.foreign { 0 } else { top.class };
        let p = part(name);
        let implied_end = (c & CLOSES_P != 0 && open & P != 0)
            || (name == "li" && open & LI != 0)
            || (matches!(name, "dd" | "dt") && open & DD_DT != 0)
            || (c & HEADING != 0 && t & HEADING != 0)
            || (name == "option" && open & IS_OPTION != 0)
            || (name == "optgroup" && open & (IS_OPTION | IS_OPTGROUP) != 0)
            || (c & RUBY_TEXT != 0 && t & RUBY_TEXT != 0)
            || (name == "button" && open & BUTTON != 0)
            || (open & IS_COLGROUP != 0 && name != "col")
            || (p != 0 && top.part == CAPTION)
            || (p == CELL && top.part == CELL)
            || (p == ROW && top.part >= ROW)
            || (matches!(p, CAPTION | COLGROUP | SECTION) && top.part >= SECTION)
            || (name == "col" && top.part >= SECTION)
            || (name == "table" && t & TABLE_CONTEXT != 0);
        if implied_end {
            return Some(ErrorCode::ImpliedEndTag);
        }
        if t & TABLE_CONTEXT != 0 {
            if (top.part == 0 && matches!(name, "tr" | "td" | "th" | "col"))
                || (top.part == SECTION && p == CELL)
            {
                return Some(ErrorCode::ImpliedElement);
            }
            let hidden_input = name == "input"
                && attributes
                    .iter()
                    .any(|a| a.name == "type" && a.value.eq_ignore_ascii_case("hidden"));
            if c & IN_TABLE == 0 && !hidden_input {
                return Some(ErrorCode::FosterParenting);
            }
        }
        if (name == "a" && open & A != 0) || (name == "nobr" && open & NOBR != 0) {
            return Some(ErrorCode::MisnestedFormatting);
        }
        if name == "template" {
            return Some(ErrorCode::TemplateContent);
        }
        if open & SELECT != 0 && !matches!(name, "option" | "optgroup" | "hr" | "script") {
            return Some(ErrorCode::SelectContent);
        }
        if (name == "form" && open & FORM != 0)
            || (name == "html" && !self.frames.is_empty())
            || (name == "body" && open & BODY != 0)
            || (name == "head" && open & (HEAD | BODY) != 0)
            || name == "frameset"
        {
            return Some(ErrorCode::IgnoredTag);
        }
        None
    }

    /// An HTML end tag named `name` that closes the element at `target` (`None`: none open).
    pub(crate) fn end_tag(&self, name: &str, target: Option<usize>) -> Option<ErrorCode> {
        let Some(target) = target else {
            return matches!(name, "p" | "br").then_some(ErrorCode::ImpliedElement);
        };
        let closed = self.frames.get(target + 1..).unwrap_or(&[]);
        if closed.is_empty() {
            return None;
        }
        let own = self.frames.get(target).copied().unwrap_or_default();
        if !own.foreign && own.class & FORMATTING != 0 {
            return Some(ErrorCode::MisnestedFormatting);
        }
        let c = if own.foreign { 0 } else { class(name) };
        for f in closed {
            if f.foreign && f.class & SCOPE == 0 {
                // A foreign element (not an integration point): the parser pops it too.
                continue;
            }
            if own.foreign {
                // HTML content inside the foreign target: the HTML rules handle the end tag.
                return Some(ErrorCode::ImpliedEndTag);
            }
            if f.class & FORMATTING != 0 {
                return Some(ErrorCode::MisnestedFormatting);
            }
            let differs = if c & SPECIAL == 0 {
                // "Any other end tag": a special element in between makes the parser ignore it.
                f.class & SPECIAL != 0
            } else if matches!(name, "body" | "html") {
                // These end tags pop nothing.
                f.class & OPTIONAL_END == 0
            } else if c & (IN_TABLE | TABLE_CONTEXT) != 0 && c & OPTIONAL_END != 0
                || name == "table"
            {
                // Table end tags look in table scope.
                f.class & TABLE_SCOPE != 0
            } else {
                // The others look in their scope; out of it the parser ignores them.
                f.class & SCOPE != 0
                    || (name == "p" && f.class & BUTTON_SCOPE != 0)
                    || (name == "li" && f.open & IS_LIST != 0)
            };
            if differs {
                return Some(ErrorCode::ImpliedEndTag);
            }
        }
        None
    }

    /// Text in the current element: other than whitespace, directly in a table context, it
    /// is foster-parented (in a `colgroup`, it ends it).
    pub(crate) fn text(&self, text: &str) -> Option<ErrorCode> {
        let top = self.top();
        if top.foreign || top.class & TABLE_CONTEXT == 0 && top.open & IS_COLGROUP == 0 {
            return None;
        }
        if text.bytes().all(thicket_names::html::is_ascii_whitespace) {
            return None;
        }
        Some(if top.open & IS_COLGROUP != 0 {
            ErrorCode::ImpliedEndTag
        } else {
            ErrorCode::FosterParenting
        })
    }
}

impl Core<'_> {
    /// Records an ambiguity at `span`; true when strict mode refuses to go on: the token is
    /// not handled, and the core halts (no handler runs and nothing is written after it).
    pub(crate) fn ambiguity(&mut self, code: ErrorCode, span: Span) -> bool {
        let Some(strict) = self.strict.as_deref_mut() else {
            return false;
        };
        if strict.error.is_some() {
            return true;
        }
        if self.diagnostics.len() < strict.max_diagnostics {
            self.diagnostics.push(Diagnostic::new(code, span));
        }
        if !strict.refuse {
            return false;
        }
        strict.error = Some(Error::new(code, span));
        self.halt();
        true
    }

    /// Text: records an ambiguity at its first character other than whitespace (the
    /// whitespace before it is written, so that the output does not depend on where the text
    /// was split); true when strict mode refuses to go on.
    pub(crate) fn strict_text(&mut self, src: Src<'_>, text: &str, span: Span) -> bool {
        let Some(code) = self.strict.as_deref().and_then(|s| s.text(text)) else {
            return false;
        };
        let source = src.get(span);
        let at = source
            .bytes()
            .position(|b| !thicket_names::html::is_ascii_whitespace(b))
            .unwrap_or(0);
        let len = source[at..].chars().next().map_or(0, char::len_utf8);
        let start = span.start + at;
        if self.strict.as_deref().is_some_and(|s| s.refuse) {
            // Text held as a whole node (whitespace so far) is written as it is, as it would
            // be had it come in this piece.
            self.release_whole(src);
            self.emit_source(src, Span::new(span.start, start));
        }
        self.ambiguity(code, Span::new(start, start + len))
    }

    /// The error strict mode (or a memory limit) stopped with.
    #[inline]
    pub(crate) fn refused(&self) -> Option<&Error> {
        self.failed()
            .or_else(|| self.strict.as_deref().and_then(|s| s.error.as_ref()))
            .or(self.refusal.as_ref())
    }
}
