//! Events or a tree to LeafXML bytes, as the encoding guidelines recommend: UTF-8 without a byte
//! order mark, an XML header line, NFC, double-quoted attribute values, the five escapes.
//!
//! The writer accepts exactly what the decoder can give back: whatever it writes decodes to the
//! same events (positions aside). It rejects anything else instead of changing it.

use std::collections::{HashMap, HashSet};
use std::io::{self, Write};

use thicket_charref::numeric::is_leafxml_char;
use thicket_names::leafxml as names;

use crate::event::{Attributes, EventKind};
use crate::reader::{XML_NAMESPACE, XMLNS_NAMESPACE};
use crate::text;
use crate::tree::{Element, Node};

/// Why the writer refused its input.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WriteError {
    /// A local name that is not a name without `:` or is not NFC, or a local attribute named
    /// `xmlns`.
    #[error("invalid name {0:?}")]
    InvalidName(String),
    /// Text that the decoder could not give back: empty, outside the character set, holding CR,
    /// NEL or LS (line break normalization), or not NFC.
    #[error("text the decoder would not give back unchanged: {0:?}")]
    NonCanonicalText(String),
    /// An attribute value that the decoder could not give back: outside the character set, not
    /// whitespace-compressed, or not NFC.
    #[error("attribute value the decoder would not give back unchanged: {0:?}")]
    NonCanonicalValue(String),
    /// A namespace that cannot be declared (empty, not a canonical attribute value, or the xmlns
    /// namespace on an attribute).
    #[error("namespace {0:?} cannot be declared")]
    InvalidNamespace(String),
    /// Two local attributes with the same name, or two external attributes with the same
    /// namespace and local name.
    #[error("duplicate attribute {0:?}")]
    DuplicateAttribute(String),
    /// Events out of order: text outside the root, two adjacent texts, a second root, an end
    /// tag that does not match, or an unfinished document.
    #[error("{0}")]
    Structure(&'static str),
    /// The output failed.
    #[error(transparent)]
    Io(#[from] io::Error),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Initial,
    Active,
    Finished,
}

/// Writes LeafXML from events.
///
/// ```
/// use thicket_leafxml::{Attributes, EventKind, Writer};
///
/// let mut w = Writer::new(Vec::new());
/// w.write(&EventKind::Start {
///     namespace: Some("urn:x".into()),
///     local_name: "a".into(),
///     attributes: Attributes::new([("k".into(), "1 < 2".into())], []),
/// })?;
/// w.write(&EventKind::End { namespace: Some("urn:x".into()), local_name: "a".into() })?;
/// let bytes = w.finish()?;
/// assert_eq!(
///     String::from_utf8(bytes).unwrap(),
///     "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ns1:a xmlns:ns1=\"urn:x\" k=\"1 &lt; 2\"/>\n"
/// );
/// # Ok::<(), thicket_leafxml::WriteError>(())
/// ```
pub struct Writer<W: Write> {
    out: W,
    buf: String,
    state: State,
    /// A start tag written up to (not including) its `>` or `/>`.
    open_tag: bool,
    last_was_text: bool,
    /// Open elements: namespace, local name, qualified name written.
    stack: Vec<(Option<String>, String, String)>,
    /// Prefixes in scope per namespace, and the namespaces bound in order (undone per scope);
    /// `scopes` marks each element's first binding.
    prefixes: HashMap<String, Vec<String>>,
    bindings: Vec<String>,
    scopes: Vec<usize>,
    next_prefix: usize,
}

impl<W: Write> Writer<W> {
    /// A writer to `out`.
    pub fn new(out: W) -> Writer<W> {
        Writer {
            out,
            buf: String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"),
            state: State::Initial,
            open_tag: false,
            last_was_text: false,
            stack: Vec::new(),
            prefixes: HashMap::new(),
            bindings: Vec::new(),
            scopes: Vec::new(),
            next_prefix: 1,
        }
    }

    /// Writes one event.
    pub fn write(&mut self, event: &EventKind<'_>) -> Result<(), WriteError> {
        match event {
            EventKind::Start {
                namespace,
                local_name,
                attributes,
            } => self.start_event(namespace.as_deref(), local_name, attributes),
            EventKind::Text(t) => self.text(t),
            EventKind::End {
                namespace,
                local_name,
            } => self.end(namespace.as_deref(), local_name),
        }
    }

    /// Writes a whole element (without recursion).
    pub fn write_element(&mut self, root: &Element) -> Result<(), WriteError> {
        let mut stack: Vec<(&Element, usize)> = Vec::new();
        self.start_element(root)?;
        stack.push((root, 0));
        while let Some((e, i)) = stack.pop() {
            match e.children.get(i) {
                None => self.end(e.namespace.as_deref(), &e.local_name)?,
                Some(child) => {
                    stack.push((e, i + 1));
                    match child {
                        Node::Text(t) => self.text(t)?,
                        Node::Element(c) => {
                            self.start_element(c)?;
                            stack.push((c, 0));
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Checks that the document is complete, flushes, and returns the output.
    pub fn finish(mut self) -> Result<W, WriteError> {
        if self.state != State::Finished {
            return Err(WriteError::Structure("the root element is not finished"));
        }
        self.buf.push('\n');
        self.flush_buf()?;
        self.out.flush()?;
        Ok(self.out)
    }

    fn flush_buf(&mut self) -> io::Result<()> {
        self.out.write_all(self.buf.as_bytes())?;
        self.buf.clear();
        Ok(())
    }

    fn close_open_tag(&mut self) {
        if self.open_tag {
            self.buf.push('>');
            self.open_tag = false;
        }
    }

    fn prefix_for(&self, ns: &str) -> Option<&str> {
        match ns {
            XML_NAMESPACE => Some("xml"),
            XMLNS_NAMESPACE => Some("xmlns"),
            _ => self.prefixes.get(ns)?.last().map(String::as_str),
        }
    }

    /// Undoes the bindings made since `mark`.
    fn unbind(&mut self, mark: usize) {
        while self.bindings.len() > mark {
            if let Some(ns) = self.bindings.pop()
                && let Some(p) = self.prefixes.get_mut(&ns)
            {
                p.pop();
            }
        }
    }

    /// The prefix for `ns`, declaring a fresh one (into `decls`) when none is in scope.
    fn bind(&mut self, ns: &str, decls: &mut String) -> Result<String, WriteError> {
        if let Some(p) = self.prefix_for(ns) {
            return Ok(p.to_owned());
        }
        if ns.is_empty() || !canonical_value(ns) {
            return Err(WriteError::InvalidNamespace(ns.to_owned()));
        }
        let prefix = format!("ns{}", self.next_prefix);
        self.next_prefix += 1;
        decls.push_str(" xmlns:");
        decls.push_str(&prefix);
        decls.push_str("=\"");
        escape_value(ns, decls);
        decls.push('"');
        self.prefixes
            .entry(ns.to_owned())
            .or_default()
            .push(prefix.clone());
        self.bindings.push(ns.to_owned());
        Ok(prefix)
    }

    fn start_event(
        &mut self,
        namespace: Option<&str>,
        local: &str,
        attributes: &Attributes<'_>,
    ) -> Result<(), WriteError> {
        let local_attributes: Vec<(&str, &str)> = attributes.local().collect();
        let external = attributes.external_sorted();
        self.start(namespace, local, &local_attributes, &external)
    }

    fn start_element(&mut self, e: &Element) -> Result<(), WriteError> {
        let local: Vec<(&str, &str)> = (e.attributes.iter())
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .collect();
        let external: Vec<(&str, &str, &str)> = (e.external_attributes.iter())
            .flat_map(|(ns, m)| {
                m.iter()
                    .map(move |(n, v)| (ns.as_str(), n.as_str(), v.as_str()))
            })
            .collect();
        self.start(e.namespace.as_deref(), &e.local_name, &local, &external)
    }

    /// Writes a start tag: `external` sorted by namespace, then local name.
    fn start(
        &mut self,
        namespace: Option<&str>,
        local: &str,
        attributes: &[(&str, &str)],
        external: &[(&str, &str, &str)],
    ) -> Result<(), WriteError> {
        if self.state == State::Finished {
            return Err(WriteError::Structure("a second root element"));
        }
        check_local_name(local)?;
        let mut seen = HashSet::new();
        for (i, &(name, value)) in attributes.iter().enumerate() {
            check_local_name(name)?;
            if name == "xmlns" {
                return Err(WriteError::InvalidName(name.to_owned()));
            }
            if !canonical_value(value) {
                return Err(WriteError::NonCanonicalValue(value.to_owned()));
            }
            let repeated = if attributes.len() <= 8 {
                attributes[..i].iter().any(|&(n, _)| n == name)
            } else {
                !seen.insert(name)
            };
            if repeated {
                return Err(WriteError::DuplicateAttribute(name.to_owned()));
            }
        }
        for (i, &(ns, name, value)) in external.iter().enumerate() {
            if ns.is_empty() || ns == XMLNS_NAMESPACE {
                return Err(WriteError::InvalidNamespace(ns.to_owned()));
            }
            check_local_name(name)?;
            if !canonical_value(value) {
                return Err(WriteError::NonCanonicalValue(value.to_owned()));
            }
            if i > 0 && external[i - 1].0 == ns && external[i - 1].1 == name {
                return Err(WriteError::DuplicateAttribute(name.to_owned()));
            }
        }
        let mark = self.bindings.len();
        let mut decls = String::new();
        let mut prefixes = Vec::with_capacity(external.len());
        let qname = (|| {
            let qname = match namespace {
                None => local.to_owned(),
                Some(ns) => format!("{}:{local}", self.bind(ns, &mut decls)?),
            };
            // `bind` declares a namespace the first time and finds it in scope after that.
            for &(ns, _, _) in external {
                prefixes.push(self.bind(ns, &mut decls)?);
            }
            Ok::<_, WriteError>(qname)
        })();
        let qname = match qname {
            Ok(q) => q,
            Err(e) => {
                self.unbind(mark);
                return Err(e);
            }
        };
        self.close_open_tag();
        self.scopes.push(mark);
        self.buf.push('<');
        self.buf.push_str(&qname);
        self.buf.push_str(&decls);
        for &(name, value) in attributes {
            self.buf.push(' ');
            self.buf.push_str(name);
            self.buf.push_str("=\"");
            escape_value(value, &mut self.buf);
            self.buf.push('"');
        }
        for (&(_, name, value), prefix) in external.iter().zip(&prefixes) {
            self.buf.push(' ');
            self.buf.push_str(prefix);
            self.buf.push(':');
            self.buf.push_str(name);
            self.buf.push_str("=\"");
            escape_value(value, &mut self.buf);
            self.buf.push('"');
        }
        self.open_tag = true;
        self.last_was_text = false;
        self.state = State::Active;
        self.stack
            .push((namespace.map(str::to_owned), local.to_owned(), qname));
        if self.buf.len() > 8192 {
            self.flush_buf()?;
        }
        Ok(())
    }

    fn text(&mut self, t: &str) -> Result<(), WriteError> {
        if self.state != State::Active {
            return Err(WriteError::Structure("text outside the root element"));
        }
        if self.last_was_text {
            return Err(WriteError::Structure("two adjacent texts decode as one"));
        }
        if !canonical_text(t) {
            return Err(WriteError::NonCanonicalText(t.to_owned()));
        }
        self.close_open_tag();
        escape_text(t, &mut self.buf);
        self.last_was_text = true;
        Ok(())
    }

    fn end(&mut self, namespace: Option<&str>, local: &str) -> Result<(), WriteError> {
        let Some((ns, name, qname)) = self.stack.pop() else {
            return Err(WriteError::Structure("an end tag with no open element"));
        };
        if ns.as_deref() != namespace || name != local {
            return Err(WriteError::Structure("an end tag that does not match"));
        }
        if self.open_tag {
            self.buf.push_str("/>");
            self.open_tag = false;
        } else {
            self.buf.push_str("</");
            self.buf.push_str(&qname);
            self.buf.push('>');
        }
        let mark = self.scopes.pop().unwrap_or(0);
        self.unbind(mark);
        self.last_was_text = false;
        if self.stack.is_empty() {
            self.state = State::Finished;
        }
        Ok(())
    }
}

/// Writes `root` as a whole LeafXML document.
pub fn write_document(root: &Element) -> Result<Vec<u8>, WriteError> {
    let mut w = Writer::new(Vec::new());
    w.write_element(root)?;
    w.finish()
}

fn check_local_name(name: &str) -> Result<(), WriteError> {
    if names::is_prefix(name) && text::is_nfc(name) {
        Ok(())
    } else {
        Err(WriteError::InvalidName(name.to_owned()))
    }
}

/// Text the decoder gives back unchanged.
fn canonical_text(t: &str) -> bool {
    !t.is_empty()
        && t.chars()
            .all(|c| is_leafxml_char(c) && !matches!(c, '\r' | '\u{85}' | '\u{2028}'))
        && text::is_nfc(t)
}

/// An attribute value the decoder gives back unchanged.
fn canonical_value(v: &str) -> bool {
    v.chars().all(is_leafxml_char) && text::is_compressed(v) && text::is_nfc(v)
}

fn escape_text(t: &str, out: &mut String) {
    for c in t.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
}

fn escape_value(v: &str, out: &mut String) {
    for c in v.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            // Line break normalization of the tag token would turn these into LF.
            '\u{85}' => out.push_str("&#x85;"),
            '\u{2028}' => out.push_str("&#x2028;"),
            c => out.push(c),
        }
    }
}
