//! Decoding events: start tags, content text and end tags, as the upstream APIs report them.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::{self, Write as _};

use thicket_input::Span;

/// The external attribute map of an event: namespace -> local name -> value.
pub type ExternalAttributes<'a> = BTreeMap<Cow<'a, str>, BTreeMap<Cow<'a, str>, Cow<'a, str>>>;

/// The external attribute map of a tree element, owned.
pub type ExternalAttributeMap = BTreeMap<String, BTreeMap<String, String>>;

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
        /// The local attribute map in document order: attributes without `:` other than `xmlns`.
        attributes: Vec<(Cow<'a, str>, Cow<'a, str>)>,
        /// The external attribute map: prefixed attributes other than `xmlns:*`.
        external_attributes: ExternalAttributes<'a>,
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
pub fn quote(s: &str) -> String {
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
    /// The same event owning its strings.
    pub fn into_owned(self) -> EventKind<'static> {
        match self {
            EventKind::Start {
                namespace,
                local_name,
                attributes,
                external_attributes,
            } => EventKind::Start {
                namespace: namespace.map(owned),
                local_name: owned(local_name),
                attributes: attributes
                    .into_iter()
                    .map(|(n, v)| (owned(n), owned(v)))
                    .collect(),
                external_attributes: external_attributes
                    .into_iter()
                    .map(|(ns, m)| {
                        (
                            owned(ns),
                            m.into_iter().map(|(n, v)| (owned(n), owned(v))).collect(),
                        )
                    })
                    .collect(),
            },
            EventKind::Text(t) => EventKind::Text(owned(t)),
            EventKind::End {
                namespace,
                local_name,
            } => EventKind::End {
                namespace: namespace.map(owned),
                local_name: owned(local_name),
            },
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
        }
    }
}

impl fmt::Display for EventKind<'_> {
    /// The canonical one-line dump used by the conformance suite and the snapshots:
    /// `start {ns}name a="1" {ns}b="2"`, `text "..."`, `end {ns}name`. Local attributes come in
    /// document order, external ones sorted; values quoted by [`quote`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        match self {
            EventKind::Start {
                namespace,
                local_name,
                attributes,
                external_attributes,
            } => {
                out.push_str("start ");
                write_name(&mut out, namespace.as_deref(), local_name);
                for (name, value) in attributes {
                    let _ = write!(out, " {name}={}", quote(value));
                }
                for (ns, attrs) in external_attributes {
                    for (name, value) in attrs {
                        let _ = write!(out, " {{{ns}}}{name}={}", quote(value));
                    }
                }
            }
            EventKind::Text(text) => {
                let _ = write!(out, "text {}", quote(text));
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
