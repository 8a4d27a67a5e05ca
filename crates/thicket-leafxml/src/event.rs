//! Decoding events: start tags, content text and end tags, as the upstream APIs report them.

use std::borrow::Cow;
use std::fmt::{self, Write as _};

use thicket_input::Span;

use crate::reader::{TagAttributes, TagExternal, TagLocal, TagWritten};

/// What a decoding event carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventKind<'a> {
    /// A starting tag (an empty tag gives a `Start` followed by an `End`).
    Start {
        /// The tag namespace; `None` when the name has no prefix and no default namespace is
        /// declared.
        namespace: Option<Cow<'a, str>>,
        /// The element name without its prefix (NFC).
        local_name: Cow<'a, str>,
        /// The local attribute map (attributes without `:` other than `xmlns`) and the
        /// external attribute map (prefixed attributes other than `xmlns:*`).
        attributes: Attributes<'a>,
    },
    /// A content assembly between tags: escapes decoded, CDATA joined, line breaks normalized,
    /// NFC. Never empty; never before the root element or after it.
    Text(Cow<'a, str>),
    /// An ending tag (or the end of an empty tag).
    End {
        /// The namespace of the matching start tag.
        namespace: Option<Cow<'a, str>>,
        /// The local name of the matching start tag.
        local_name: Cow<'a, str>,
    },
    /// A comment token, only with
    /// [`Reader::with_markup_events`](crate::Reader::with_markup_events): between `<!--` and
    /// `-->`, as written.
    Comment(Cow<'a, str>),
    /// An instruction token, only with `with_markup_events`: between `<?` and `?>`, as
    /// written ([`EventKind::instruction_target_and_data`] splits it).
    Instruction(Cow<'a, str>),
    /// The DOCTYPE token, only with `with_markup_events`: its name (the first word after
    /// `<!DOCTYPE` and whitespace), empty when there is none.
    Doctype(Cow<'a, str>),
}

/// One decoding event with its position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event<'a> {
    /// What happened.
    pub kind: EventKind<'a>,
    /// The 1-based line where the event starts.
    pub line: u32,
    /// The bytes of the decoded text the event covers: the tag token for `Start` and `End`, from
    /// the first to the last text or CDATA token for `Text`. The `End` of an empty tag is the
    /// empty span at the end of that tag.
    pub span: Span,
    /// The input between the previous event's `span` (or the start of the text) and this
    /// event's, which produced no event: the XML declaration, instructions, comments, the
    /// DOCTYPE, whitespace before the root element, and filtered tokens between a content
    /// assembly and a tag. The `skipped` and `span` of every event, in order, and then
    /// [`Reader::trailing`](crate::Reader::trailing) tile the decoded text.
    pub skipped: Span,
}

/// The attributes of a `Start` event: the local attribute map (name -> value, in document
/// order) and the external attribute map (namespace -> local name -> value).
///
/// A reader's events borrow them from the tag it just read, so a start tag costs no allocation;
/// [`Attributes::new`] builds them from lists (for [`Writer`](crate::Writer)), and
/// [`Attributes::into_owned`] keeps them. [`Attributes::written`] gives every attribute of the
/// tag as written, namespace declarations included, with the spans of its name and value.
///
/// ```
/// use thicket_leafxml::{EventKind, Reader};
///
/// let mut reader = Reader::from_bytes(b"<a xmlns:p='urn:p' x='1' p:y='2'/>");
/// let event = reader.next_event()?.unwrap();
/// let EventKind::Start { attributes, .. } = &event.kind else { unreachable!() };
/// assert_eq!(attributes.local().collect::<Vec<_>>(), [("x", "1")]);
/// assert_eq!(attributes.external().collect::<Vec<_>>(), [("urn:p", "y", "2")]);
/// assert_eq!(attributes.get("x"), Some("1"));
/// assert_eq!(attributes.get_external("urn:p", "y"), Some("2"));
/// # Ok::<(), thicket_leafxml::Error>(())
/// ```
#[derive(Clone, Default)]
pub struct Attributes<'a>(Repr<'a>);

#[derive(Clone)]
enum Repr<'a> {
    /// Borrowed from a reader's tag assembly.
    Tag(TagAttributes<'a>),
    /// Lists: local (name, value) pairs, external (namespace, local name, value) triples, and
    /// the attributes as written (kept by `into_owned`; empty for `Attributes::new`).
    Lists(Vec<Pair<'a>>, Vec<Triple<'a>>, Vec<Written<'a>>),
}

type Pair<'a> = (Cow<'a, str>, Cow<'a, str>);
type Triple<'a> = (Cow<'a, str>, Cow<'a, str>, Cow<'a, str>);
type Written<'a> = (Cow<'a, str>, Cow<'a, str>, Span, Span);

impl Default for Repr<'_> {
    fn default() -> Self {
        Repr::Lists(Vec::new(), Vec::new(), Vec::new())
    }
}

/// An attribute as written in its tag: its qualified name (NFC, `xmlns` declarations
/// included), its decoded value, and where both are in the decoded text.
///
/// ```
/// use thicket_leafxml::{EventKind, Reader};
///
/// let mut reader = Reader::from_bytes(b"<a xmlns:p='urn:p' p:y=\"2&amp;\"/>");
/// let event = reader.next_event()?.unwrap();
/// let EventKind::Start { attributes, .. } = &event.kind else { unreachable!() };
/// let written: Vec<_> = attributes.written().collect();
/// assert_eq!((written[1].name, written[1].value), ("p:y", "2&"));
/// assert_eq!((written[1].name_span.start, written[1].name_span.end), (19, 22));
/// // The value span is between the quotes, as written.
/// assert_eq!((written[1].value_span.start, written[1].value_span.end), (24, 30));
/// # Ok::<(), thicket_leafxml::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WrittenAttribute<'a> {
    /// The name as written (after NFC), prefix included.
    pub name: &'a str,
    /// The value, decoded (escapes, whitespace compression, NFC).
    pub value: &'a str,
    /// Where the name is written.
    pub name_span: Span,
    /// Where the value is written, between its quotes (the quotes are the bytes just before and
    /// just after it).
    pub value_span: Span,
}

impl WrittenAttribute<'_> {
    /// The whole attribute: from the name to the closing quote.
    pub fn span(&self) -> Span {
        Span::new(self.name_span.start, self.value_span.end + 1)
    }
}

impl<'a> Attributes<'a> {
    /// Attributes from a local map in document order, (name, value), and an external map,
    /// (namespace, local name, value). Nothing is checked here; [`Writer`](crate::Writer)
    /// rejects what a decoder would.
    pub fn new(
        local: impl IntoIterator<Item = (Cow<'a, str>, Cow<'a, str>)>,
        external: impl IntoIterator<Item = (Cow<'a, str>, Cow<'a, str>, Cow<'a, str>)>,
    ) -> Attributes<'a> {
        Attributes(Repr::Lists(
            local.into_iter().collect(),
            external.into_iter().collect(),
            Vec::new(),
        ))
    }

    #[inline]
    pub(crate) fn from_tag(tag: TagAttributes<'a>) -> Attributes<'a> {
        Attributes(Repr::Tag(tag))
    }

    /// The local attribute map in document order: (name, value).
    #[inline]
    pub fn local(&self) -> Local<'_> {
        Local(match &self.0 {
            Repr::Tag(t) => LocalRepr::Tag(t.local()),
            Repr::Lists(local, _, _) => LocalRepr::List(local.iter()),
        })
    }

    /// The external attribute map: (namespace, local name, value), in document order for a
    /// reader's events (see [`Attributes::external_sorted`] for the map's order).
    #[inline]
    pub fn external(&self) -> External<'_> {
        External(match &self.0 {
            Repr::Tag(t) => ExternalRepr::Tag(t.external()),
            Repr::Lists(_, external, _) => ExternalRepr::List(external.iter()),
        })
    }

    /// Every attribute of the tag as written, in document order, namespace declarations
    /// included, with where its name and value are (empty for attributes built with
    /// [`Attributes::new`], which have no source).
    #[inline]
    pub fn written(&self) -> WrittenAttributes<'_> {
        WrittenAttributes(match &self.0 {
            Repr::Tag(t) => WrittenRepr::Tag(t.written()),
            Repr::Lists(_, _, written) => WrittenRepr::List(written.iter()),
        })
    }

    /// The external attribute map sorted by namespace, then local name.
    pub fn external_sorted(&self) -> Vec<(&str, &str, &str)> {
        let mut v: Vec<_> = self.external().collect();
        v.sort_unstable();
        v
    }

    /// The value of the local attribute `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.local().find(|&(n, _)| n == name).map(|(_, v)| v)
    }

    /// The value of the external attribute `local` in `namespace`.
    pub fn get_external(&self, namespace: &str, local: &str) -> Option<&str> {
        self.external()
            .find(|&(ns, n, _)| ns == namespace && n == local)
            .map(|(_, _, v)| v)
    }

    /// True when there are neither local nor external attributes.
    pub fn is_empty(&self) -> bool {
        self.local().next().is_none() && self.external().next().is_none()
    }

    /// The same attributes owning their strings.
    pub fn into_owned(self) -> Attributes<'static> {
        let local = self.local().map(|(n, v)| (owned_str(n), owned_str(v)));
        let external = self
            .external()
            .map(|(ns, n, v)| (owned_str(ns), owned_str(n), owned_str(v)));
        let written = self.written().map(|a| {
            (
                owned_str(a.name),
                owned_str(a.value),
                a.name_span,
                a.value_span,
            )
        });
        Attributes(Repr::Lists(
            local.collect(),
            external.collect(),
            written.collect(),
        ))
    }
}

/// The local attributes of [`Attributes`]: (name, value) in document order.
#[derive(Clone)]
pub struct Local<'a>(LocalRepr<'a>);

#[derive(Clone)]
enum LocalRepr<'a> {
    Tag(TagLocal<'a>),
    List(std::slice::Iter<'a, Pair<'a>>),
}

impl<'a> Iterator for Local<'a> {
    type Item = (&'a str, &'a str);

    #[inline]
    fn next(&mut self) -> Option<(&'a str, &'a str)> {
        match &mut self.0 {
            LocalRepr::Tag(t) => t.next(),
            LocalRepr::List(l) => l.next().map(|(n, v)| (&**n, &**v)),
        }
    }
}

/// The external attributes of [`Attributes`]: (namespace, local name, value).
#[derive(Clone)]
pub struct External<'a>(ExternalRepr<'a>);

#[derive(Clone)]
enum ExternalRepr<'a> {
    Tag(TagExternal<'a>),
    List(std::slice::Iter<'a, Triple<'a>>),
}

impl<'a> Iterator for External<'a> {
    type Item = (&'a str, &'a str, &'a str);

    #[inline]
    fn next(&mut self) -> Option<(&'a str, &'a str, &'a str)> {
        match &mut self.0 {
            ExternalRepr::Tag(t) => t.next(),
            ExternalRepr::List(l) => l.next().map(|(ns, n, v)| (&**ns, &**n, &**v)),
        }
    }
}

/// The attributes of [`Attributes`] as written: see [`Attributes::written`].
#[derive(Clone)]
pub struct WrittenAttributes<'a>(WrittenRepr<'a>);

#[derive(Clone)]
enum WrittenRepr<'a> {
    Tag(TagWritten<'a>),
    List(std::slice::Iter<'a, Written<'a>>),
}

impl<'a> Iterator for WrittenAttributes<'a> {
    type Item = WrittenAttribute<'a>;

    fn next(&mut self) -> Option<WrittenAttribute<'a>> {
        match &mut self.0 {
            WrittenRepr::Tag(t) => t.next(),
            WrittenRepr::List(l) => {
                l.next()
                    .map(|(n, v, name_span, value_span)| WrittenAttribute {
                        name: n,
                        value: v,
                        name_span: *name_span,
                        value_span: *value_span,
                    })
            }
        }
    }
}

impl fmt::Debug for WrittenAttributes<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.clone()).finish()
    }
}

impl fmt::Debug for Local<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.clone()).finish()
    }
}

impl fmt::Debug for External<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.clone()).finish()
    }
}

fn owned_str(s: &str) -> Cow<'static, str> {
    Cow::Owned(s.to_owned())
}

/// Equal when the local maps are equal in order and the external maps hold the same entries
/// (where the attributes are written is not compared).
impl PartialEq for Attributes<'_> {
    fn eq(&self, other: &Attributes<'_>) -> bool {
        self.local().eq(other.local()) && self.external_sorted() == other.external_sorted()
    }
}

impl Eq for Attributes<'_> {}

impl fmt::Debug for Attributes<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Attributes")
            .field("local", &self.local().collect::<Vec<_>>())
            .field("external", &self.external_sorted())
            .finish()
    }
}

/// True for codepoints the dump shows as `\u{..}`: controls, NBSP and soft hyphen, combining
/// diacritics, the U+2000 block of spaces and formatting marks, BOM, private use.
fn dump_escaped(c: char) -> bool {
    matches!(c as u32,
        0..=0x1F | 0x7F..=0xA0 | 0xAD | 0x300..=0x36F | 0x2000..=0x200F | 0x2028..=0x202F
        | 0xFEFF | 0xE000..=0xF8FF | 0xF0000..)
}

/// Quotes `s` for the dump: `"` and `\` escaped, `\n`, `\t`, `\r`, and `\u{..}` for
/// controls, NBSP, soft hyphen, combining diacritics, U+2000..U+200F, U+2028..U+202F, BOM and
/// private use; everything else as is.
pub(crate) fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if dump_escaped(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Writes `{namespace}local` or `local`.
fn write_name(out: &mut String, namespace: Option<&str>, local: &str) {
    if let Some(ns) = namespace {
        let _ = write!(out, "{{{ns}}}");
    }
    out.push_str(local);
}

fn owned(s: Cow<'_, str>) -> Cow<'static, str> {
    Cow::Owned(s.into_owned())
}

impl EventKind<'_> {
    /// For an [`EventKind::Instruction`]: its target (up to the first whitespace, maybe empty)
    /// and its data (after the whitespace that follows the target).
    pub fn instruction_target_and_data(&self) -> Option<(&str, &str)> {
        let EventKind::Instruction(text) = self else {
            return None;
        };
        let ws = |c: char| matches!(c, ' ' | '\t' | '\n' | '\r');
        let t = text.find(ws).unwrap_or(text.len());
        Some((&text[..t], text[t..].trim_start_matches(ws)))
    }

    /// The same event owning its strings.
    pub fn into_owned(self) -> EventKind<'static> {
        match self {
            EventKind::Start {
                namespace,
                local_name,
                attributes,
            } => EventKind::Start {
                namespace: namespace.map(owned),
                local_name: owned(local_name),
                attributes: attributes.into_owned(),
            },
            EventKind::Text(t) => EventKind::Text(owned(t)),
            EventKind::End {
                namespace,
                local_name,
            } => EventKind::End {
                namespace: namespace.map(owned),
                local_name: owned(local_name),
            },
            EventKind::Comment(c) => EventKind::Comment(owned(c)),
            EventKind::Instruction(t) => EventKind::Instruction(owned(t)),
            EventKind::Doctype(name) => EventKind::Doctype(owned(name)),
        }
    }
}

impl Event<'_> {
    /// The same event owning its strings.
    pub fn into_owned(self) -> Event<'static> {
        Event {
            kind: self.kind.into_owned(),
            line: self.line,
            span: self.span,
            skipped: self.skipped,
        }
    }
}

impl fmt::Display for EventKind<'_> {
    /// The canonical one-line dump used by the conformance suite and the snapshots:
    /// `start {ns}name a="1" {ns}b="2"`, `text "..."`, `end {ns}name`. Local attributes come in
    /// document order, external ones sorted; values quoted (`"` and `\` escaped, `\n`, `\t`,
    /// `\r`, invisible and combining characters as `\u{..}`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        match self {
            EventKind::Start {
                namespace,
                local_name,
                attributes,
            } => {
                out.push_str("start ");
                write_name(&mut out, namespace.as_deref(), local_name);
                for (name, value) in attributes.local() {
                    let _ = write!(out, " {name}={}", quote(value));
                }
                for (ns, name, value) in attributes.external_sorted() {
                    let _ = write!(out, " {{{ns}}}{name}={}", quote(value));
                }
            }
            EventKind::Text(text) => {
                let _ = write!(out, "text {}", quote(text));
            }
            EventKind::Comment(text) => {
                let _ = write!(out, "comment {}", quote(text));
            }
            EventKind::Instruction(_) => {
                let (target, data) = self.instruction_target_and_data().unwrap_or_default();
                let _ = write!(out, "instruction {target} {}", quote(data));
            }
            EventKind::Doctype(name) => {
                out.push_str("doctype");
                if !name.is_empty() {
                    let _ = write!(out, " {name}");
                }
            }
            EventKind::End {
                namespace,
                local_name,
            } => {
                out.push_str("end ");
                write_name(&mut out, namespace.as_deref(), local_name);
            }
        }
        f.write_str(&out)
    }
}
