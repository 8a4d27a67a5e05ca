//! Events or a tree to LeafXML bytes, as the encoding guidelines recommend: UTF-8 without a byte
//! order mark, an XML header line, NFC, double-quoted attribute values, the five escapes.
//!
//! The writer accepts exactly what the decoder can give back: whatever it writes decodes to the
//! same events (positions aside). It rejects anything else instead of changing it.

use std::collections::{HashMap, HashSet};
use std::io::{self, Write};

use thicket_charref::numeric::is_leafxml_char;
use thicket_names::leafxml as names;

use crate::event::{Attributes, EventKind, WrittenAttribute};
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
/// Prefixes: a `Start` event from a reader carries its tag's namespace declarations
/// ([`Attributes::written`]); the writer declares the same ones, in the same place, and writes
/// names with the prefixes (or the default namespace) in scope, so a namespaced document comes
/// back as it was written (byte for byte when it was written the writer's way: double quotes,
/// `&lt;`-style escapes, empty tags as `<a/>`). Attributes follow their written order.
/// Namespaces without a declaration in scope (events built with [`Attributes::new`], trees)
/// get a fresh `nsN` prefix where they are first needed; the default namespace is declared only
/// when an event says so, and an element in no namespace inside it is refused (LeafXML cannot
/// undeclare it).
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
///
/// // Events from a reader keep their prefixes and default namespace.
/// let doc = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
///            <feed xmlns=\"http://www.w3.org/2005/Atom\" xmlns:m=\"urn:m\"><m:x m:k=\"v\"/></feed>\n";
/// let mut reader = thicket_leafxml::Reader::from_bytes(doc.as_bytes());
/// let mut w = Writer::new(Vec::new());
/// while let Some(event) = reader.next_event().unwrap() {
///     w.write(&event.kind)?;
/// }
/// assert_eq!(String::from_utf8(w.finish()?).unwrap(), doc);
/// # Ok::<(), thicket_leafxml::WriteError>(())
/// ```
pub struct Writer<W: Write> {
    out: W,
    buf: String,
    state: State,
    /// A start tag written up to (not including) its `>` or `/>`.
    open_tag: bool,
    last_was_text: bool,
    /// Open elements.
    stack: Vec<OpenElement>,
    /// The namespaces bound to each prefix (`""`: the default namespace), innermost last.
    prefix_ns: HashMap<String, Vec<String>>,
    /// The prefixes bound to each namespace (not the default), innermost last.
    ns_prefixes: HashMap<String, Vec<String>>,
    /// Every binding in order (prefix, namespace), undone per scope; `scopes` marks each
    /// element's first binding.
    bindings: Vec<(String, String)>,
    scopes: Vec<usize>,
    next_prefix: usize,
    /// Spaces per level of indentation (`None`: none).
    indent: Option<usize>,
}

/// An element the writer has open.
struct OpenElement {
    namespace: Option<String>,
    local_name: String,
    /// The name as written.
    qname: String,
    has_text: bool,
    has_elements: bool,
}

impl<W: Write> std::fmt::Debug for Writer<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Writer")
            .field("depth", &self.stack.len())
            .field("bindings", &self.bindings)
            .field("indent", &self.indent)
            .finish_non_exhaustive()
    }
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
            prefix_ns: HashMap::new(),
            ns_prefixes: HashMap::new(),
            bindings: Vec::new(),
            scopes: Vec::new(),
            next_prefix: 1,
            indent: None,
        }
    }

    /// Indents element-only content by `spaces` per level: a line break and the indentation
    /// before a start tag that follows a tag, and before the end tag of an element whose
    /// children are all elements. That whitespace is text to a decoder (padding inside the root
    /// is kept), so the decoded events gain whitespace texts the written ones did not have;
    /// nothing is added next to text, so no text changes.
    ///
    /// ```
    /// use thicket_leafxml::{Element, Writer};
    /// let mut root = Element::new("a");
    /// root.children.push(Element::new("b").into());
    /// let mut w = Writer::new(Vec::new()).with_indent(2);
    /// w.write_element(&root)?;
    /// let text = String::from_utf8(w.finish()?).unwrap();
    /// assert_eq!(text.lines().skip(1).collect::<Vec<_>>(), ["<a>", "  <b/>", "</a>"]);
    /// # Ok::<(), thicket_leafxml::WriteError>(())
    /// ```
    pub fn with_indent(mut self, spaces: usize) -> Writer<W> {
        self.indent = Some(spaces);
        self
    }

    fn newline_indent(&mut self, depth: usize) {
        if let Some(n) = self.indent {
            self.buf.push('\n');
            for _ in 0..n * depth {
                self.buf.push(' ');
            }
        }
    }

    /// Writes one event. A `Start` event's namespace declarations ([`Attributes::written`])
    /// are written as they were; everything else is checked as the decoder would.
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
            // Token filtering discards them: a decoder would not give them back.
            EventKind::Comment(_) | EventKind::Instruction { .. } | EventKind::Doctype { .. } => {
                Err(WriteError::Structure(
                    "comments, instructions and DOCTYPEs are not written",
                ))
            }
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

    /// The prefix in scope for `ns` (not the default namespace), if any.
    fn prefix_for(&self, ns: &str) -> Option<&str> {
        match ns {
            XML_NAMESPACE => Some("xml"),
            XMLNS_NAMESPACE => Some("xmlns"),
            _ => self
                .ns_prefixes
                .get(ns)?
                .iter()
                .rev()
                .map(String::as_str)
                .find(|p| self.bound(p) == Some(ns)),
        }
    }

    /// The namespace `prefix` is bound to (`""`: the default namespace).
    fn bound(&self, prefix: &str) -> Option<&str> {
        self.prefix_ns.get(prefix)?.last().map(String::as_str)
    }

    fn push_binding(&mut self, prefix: &str, ns: &str) {
        self.prefix_ns
            .entry(prefix.to_owned())
            .or_default()
            .push(ns.to_owned());
        if !prefix.is_empty() {
            self.ns_prefixes
                .entry(ns.to_owned())
                .or_default()
                .push(prefix.to_owned());
        }
        self.bindings.push((prefix.to_owned(), ns.to_owned()));
    }

    /// Undoes the bindings made since `mark`.
    fn unbind(&mut self, mark: usize) {
        while self.bindings.len() > mark {
            if let Some((prefix, ns)) = self.bindings.pop() {
                if let Some(v) = self.prefix_ns.get_mut(&prefix) {
                    v.pop();
                }
                if !prefix.is_empty()
                    && let Some(v) = self.ns_prefixes.get_mut(&ns)
                {
                    v.pop();
                }
            }
        }
    }

    /// Binds a declaration the event gave, after checking it is one LeafXML allows.
    fn declare(&mut self, prefix: &str, ns: &str) -> Result<(), WriteError> {
        if !prefix.is_empty() {
            check_local_name(prefix)?;
            if prefix == "xmlns" {
                return Err(WriteError::InvalidName(format!("xmlns:{prefix}")));
            }
        }
        let xml = ns == XML_NAMESPACE;
        if ns.is_empty()
            || !canonical_value(ns)
            || ns == XMLNS_NAMESPACE
            || (prefix == "xml") != xml
        {
            return Err(WriteError::InvalidNamespace(ns.to_owned()));
        }
        self.push_binding(prefix, ns);
        Ok(())
    }

    /// The prefix for `ns`, declaring a fresh one (a declaration into `fresh`) when none is in
    /// scope.
    fn bind(&mut self, ns: &str, fresh: &mut Vec<(String, String)>) -> Result<String, WriteError> {
        if let Some(p) = self.prefix_for(ns) {
            return Ok(p.to_owned());
        }
        if ns.is_empty() || !canonical_value(ns) {
            return Err(WriteError::InvalidNamespace(ns.to_owned()));
        }
        let prefix = loop {
            let p = format!("ns{}", self.next_prefix);
            self.next_prefix += 1;
            if self.bound(&p).is_none() {
                break p;
            }
        };
        self.push_binding(&prefix, ns);
        fresh.push((format!("xmlns:{prefix}"), ns.to_owned()));
        Ok(prefix)
    }

    fn start_event(
        &mut self,
        namespace: Option<&str>,
        local: &str,
        attributes: &Attributes<'_>,
    ) -> Result<(), WriteError> {
        let local_attributes: Vec<(&str, &str)> = attributes.local().collect();
        let external: Vec<(&str, &str, &str)> = attributes.external().collect();
        let written: Vec<WrittenAttribute<'_>> = attributes.written().collect();
        self.start(namespace, local, &local_attributes, &external, &written)
    }

    fn start_element(&mut self, e: &Element) -> Result<(), WriteError> {
        let mut local: Vec<(&str, &str)> = Vec::new();
        let mut external: Vec<(&str, &str, &str)> = Vec::new();
        for a in &e.attributes {
            match &a.namespace {
                None => local.push((&a.local_name, &a.value)),
                Some(ns) => external.push((ns, &a.local_name, &a.value)),
            }
        }
        self.start(
            e.namespace.as_deref(),
            &e.local_name,
            &local,
            &external,
            &[],
        )
    }

    /// Writes a start tag: `written` gives the declarations to make and the order of the
    /// attributes (empty: fresh prefixes, locals, then externals sorted by namespace and name).
    fn start(
        &mut self,
        namespace: Option<&str>,
        local: &str,
        attributes: &[(&str, &str)],
        external: &[(&str, &str, &str)],
        written: &[WrittenAttribute<'_>],
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
        let mut sorted: Vec<usize> = (0..external.len()).collect();
        sorted.sort_unstable_by_key(|&i| (external[i].0, external[i].1));
        for (k, &i) in sorted.iter().enumerate() {
            let (ns, name, value) = external[i];
            if ns.is_empty() || ns == XMLNS_NAMESPACE {
                return Err(WriteError::InvalidNamespace(ns.to_owned()));
            }
            check_local_name(name)?;
            if !canonical_value(value) {
                return Err(WriteError::NonCanonicalValue(value.to_owned()));
            }
            if k > 0 && external[sorted[k - 1]].0 == ns && external[sorted[k - 1]].1 == name {
                return Err(WriteError::DuplicateAttribute(name.to_owned()));
            }
        }
        let mark = self.bindings.len();
        let tag = self.tag_items(namespace, local, attributes, external, &sorted, written);
        let (qname, items) = match tag {
            Ok(t) => t,
            Err(e) => {
                self.unbind(mark);
                return Err(e);
            }
        };
        self.close_open_tag();
        if let Some(parent) = self.stack.last_mut() {
            parent.has_elements = true;
            if !self.last_was_text {
                let depth = self.stack.len();
                self.newline_indent(depth);
            }
        }
        self.scopes.push(mark);
        self.buf.push('<');
        self.buf.push_str(&qname);
        for (name, value) in &items {
            self.buf.push(' ');
            self.buf.push_str(name);
            self.buf.push_str("=\"");
            escape_value(value, &mut self.buf);
            self.buf.push('"');
        }
        self.open_tag = true;
        self.last_was_text = false;
        self.state = State::Active;
        self.stack.push(OpenElement {
            namespace: namespace.map(str::to_owned),
            local_name: local.to_owned(),
            qname,
            has_text: false,
            has_elements: false,
        });
        if self.buf.len() > 8192 {
            self.flush_buf()?;
        }
        Ok(())
    }

    /// The qualified name of a start tag and its attributes in the order written (qualified
    /// name, value), declarations included; binds what they declare.
    fn tag_items(
        &mut self,
        namespace: Option<&str>,
        local: &str,
        attributes: &[(&str, &str)],
        external: &[(&str, &str, &str)],
        sorted: &[usize],
        written: &[WrittenAttribute<'_>],
    ) -> Result<(String, Vec<(String, String)>), WriteError> {
        for w in written {
            if w.name == "xmlns" {
                self.declare("", w.value)?;
            } else if let Some(p) = w.name.strip_prefix("xmlns:") {
                self.declare(p, w.value)?;
            }
        }
        let mut fresh = Vec::new();
        let qname = match namespace {
            None if self.bound("").is_some() => {
                return Err(WriteError::Structure(
                    "an element in no namespace inside a default namespace declaration (LeafXML cannot undeclare it)",
                ));
            }
            None => local.to_owned(),
            Some(ns) if self.bound("") == Some(ns) => local.to_owned(),
            Some(ns) => format!("{}:{local}", self.bind(ns, &mut fresh)?),
        };
        let mut items = Vec::with_capacity(written.len().max(attributes.len() + external.len()));
        // The written order, as long as it matches the maps (a reader's events: locals and
        // externals each in document order).
        let (mut next_local, mut next_external) = (0, 0);
        for w in written {
            if w.name == "xmlns" || w.name.starts_with("xmlns:") {
                items.push((w.name.to_owned(), w.value.to_owned()));
            } else if let Some((p, l)) = w.name.split_once(':') {
                match (self.bound(p), external.get(next_external)) {
                    (Some(ns), Some(&(n, name, value))) if ns == n && name == l => {
                        items.push((w.name.to_owned(), value.to_owned()));
                        next_external += 1;
                    }
                    _ => break,
                }
            } else {
                match attributes.get(next_local) {
                    Some(&(name, value)) if name == w.name => {
                        items.push((name.to_owned(), value.to_owned()));
                        next_local += 1;
                    }
                    _ => break,
                }
            }
        }
        if next_local < attributes.len() || next_external < external.len() {
            // No usable order: the declarations given, locals, externals by namespace and name.
            items.retain(|(name, _)| name == "xmlns" || name.starts_with("xmlns:"));
            for &(name, value) in attributes {
                items.push((name.to_owned(), value.to_owned()));
            }
            for &i in sorted {
                let (ns, name, value) = external[i];
                let prefix = self.bind(ns, &mut fresh)?;
                items.push((format!("{prefix}:{name}"), value.to_owned()));
            }
        }
        fresh.append(&mut items);
        Ok((qname, fresh))
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
        if let Some(parent) = self.stack.last_mut() {
            parent.has_text = true;
        }
        Ok(())
    }

    fn end(&mut self, namespace: Option<&str>, local: &str) -> Result<(), WriteError> {
        let Some(open) = self.stack.pop() else {
            return Err(WriteError::Structure("an end tag with no open element"));
        };
        if open.namespace.as_deref() != namespace || open.local_name != local {
            self.stack.push(open);
            return Err(WriteError::Structure("an end tag that does not match"));
        }
        if self.open_tag {
            self.buf.push_str("/>");
            self.open_tag = false;
        } else {
            if open.has_elements && !open.has_text {
                let depth = self.stack.len();
                self.newline_indent(depth);
            }
            self.buf.push_str("</");
            self.buf.push_str(&open.qname);
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
