//! Namespaces for selectors (CSS Namespaces): the prefixes a caller binds ([`Namespaces`]),
//! and the streaming scope that gives each start tag its namespace and its attributes'
//! namespaces. XML5: from the `xmlns` and `xmlns:p` declarations in scope, with the rules of
//! `thicket_xml5`'s tree builder (Namespaces in XML 1.0 with its recovery). HTML: from foreign
//! content, as the HTML parser assigns them (HTML elements in the XHTML namespace, `svg` and
//! `math` subtrees in the SVG and MathML namespaces, foreign attributes adjusted).

use thicket_input::{Diagnostic, Span};
use thicket_names::keyed::{NameHasher, PrehashedMap};

use crate::ErrorCode;
use crate::selector::Attr;

/// The namespace prefixes (and the default namespace) selectors may use, bound by the caller:
/// `svg|rect` matches a `rect` element in the namespace the caller bound `svg` to, whatever
/// prefix (if any) the document writes. See [`crate::SelectorList::parse_with_namespaces`]
/// and [`crate::Settings::with_namespaces`].
///
/// ```
/// # #[cfg(feature = "xml5")] {
/// use thicket_rewrite::{Dialect, Namespaces, Settings};
///
/// let ns = Namespaces::new().prefix("s", Namespaces::SVG);
/// let mut found = Vec::new();
/// let settings = Settings::new()
///     .with_namespaces(ns)
///     .on_element("s|rect", |e| found.push(e.name().to_owned()))
///     .unwrap();
/// let xml = "<doc xmlns:svg='http://www.w3.org/2000/svg'><svg:rect/><rect/></doc>";
/// thicket_rewrite::rewrite_str(xml, Dialect::Xml5, settings).unwrap();
/// assert_eq!(found, ["svg:rect"]);
/// # }
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Namespaces {
    prefixes: Vec<(Box<str>, Box<str>)>,
    default: Option<Box<str>>,
}

impl Namespaces {
    /// The XHTML namespace (HTML elements in an HTML document).
    pub const HTML: &'static str = "http://www.w3.org/1999/xhtml";
    /// The SVG namespace.
    pub const SVG: &'static str = "http://www.w3.org/2000/svg";
    /// The MathML namespace.
    pub const MATHML: &'static str = "http://www.w3.org/1998/Math/MathML";
    /// The XLink namespace (`xlink:href`).
    pub const XLINK: &'static str = "http://www.w3.org/1999/xlink";
    /// The XML namespace (the `xml` prefix, always bound in documents).
    pub const XML: &'static str = "http://www.w3.org/XML/1998/namespace";
    /// The namespace of namespace declarations (`xmlns`, `xmlns:p`).
    pub const XMLNS: &'static str = "http://www.w3.org/2000/xmlns/";

    /// No prefixes and no default namespace: `*|x` and `|x` still work, a prefix is an
    /// `unknown-namespace-prefix` error.
    pub fn new() -> Namespaces {
        Namespaces::default()
    }

    /// Binds `prefix` to the namespace `uri` (a later binding of the same prefix wins).
    pub fn prefix(mut self, prefix: &str, uri: &str) -> Namespaces {
        self.prefixes.retain(|(p, _)| &**p != prefix);
        self.prefixes.push((prefix.into(), uri.into()));
        self
    }

    /// Declares the default namespace: a compound selector without a namespace prefix then
    /// matches only elements in `uri` (attribute selectors are not affected), as in CSS.
    pub fn default_namespace(mut self, uri: &str) -> Namespaces {
        self.default = Some(uri.into());
        self
    }

    /// The namespace `prefix` is bound to.
    pub fn uri(&self, prefix: &str) -> Option<&str> {
        self.prefixes
            .iter()
            .find(|(p, _)| &**p == prefix)
            .map(|(_, u)| &**u)
    }

    /// The default namespace, if one is declared.
    pub fn default_uri(&self) -> Option<&str> {
        self.default.as_deref()
    }
}

/// What a namespace-qualified selector asks of a namespace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum NsTest {
    /// `*|`: any namespace or none.
    Any,
    /// `|`: no namespace.
    None,
    /// `p|` (or the default namespace): this namespace.
    Uri(Box<str>),
}

impl NsTest {
    pub(crate) fn accepts(&self, ns: Option<&str>) -> bool {
        match self {
            NsTest::Any => true,
            NsTest::None => ns.is_none(),
            NsTest::Uri(u) => ns == Some(&**u),
        }
    }
}

/// The namespaces of the element a start tag opens, as the matcher asks for them.
pub(crate) trait NsView {
    /// The element's namespace.
    fn element_namespace(&self) -> Option<&str>;
    /// The namespace and local name of attribute `index` (named `name`, with `value`).
    fn attribute_namespace<'a>(
        &'a self,
        index: usize,
        name: &'a str,
        value: &str,
    ) -> (Option<&'a str>, &'a str);
}

/// Splits a qualified name as the XML5 tree builder does (one colon, not at either end).
fn split(name: &str) -> (Option<&str>, &str) {
    #[cfg(feature = "xml5")]
    {
        thicket_xml5::split_qname(name)
    }
    // Without XML5: LeafXML's reader rejects a name with more than one colon or an empty
    // prefix or local part, so on what it accepts a split at the colon is the same rule.
    #[cfg(all(not(feature = "xml5"), feature = "leafxml"))]
    {
        name.split_once(':')
            .map_or((None, name), |(prefix, local)| (Some(prefix), local))
    }
    #[cfg(not(any(feature = "xml5", feature = "leafxml")))]
    {
        (None, name)
    }
}

/// If `name` is a namespace declaration: `Some(None)` for the default namespace,
/// `Some(Some(prefix))` for a prefix.
fn declared_prefix(name: &str) -> Option<Option<&str>> {
    match split(name) {
        (None, "xmlns") => Some(None),
        (Some("xmlns"), local) => Some(Some(local)),
        _ => None,
    }
}

/// Whether a declaration of `prefix` to `value` is valid (Namespaces in XML 1.0: `xml` only to
/// its namespace, `xmlns` never, nothing else to the XML or XMLNS namespace).
fn valid_declaration(prefix: Option<&str>, value: &str) -> bool {
    match prefix {
        Some("xml") => value == Namespaces::XML,
        Some("xmlns") => false,
        _ => value != Namespaces::XMLNS && value != Namespaces::XML,
    }
}

/// HTML's namespaces (the HTML parser's, for elements and for adjusted foreign attributes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum HtmlNs {
    Html,
    Svg,
    MathMl,
    /// MathML `annotation-xml`, whose `svg` child is SVG's.
    MathMlAnnotation,
}

/// One binding: its prefix and namespace as ranges of [`Scope::text`]; `uri` `None` when it
/// undeclares the prefix.
#[derive(Clone, Copy, Debug)]
struct Binding {
    prefix: (u32, u32),
    uri: Option<(u32, u32)>,
}

/// The namespace of the element being matched.
#[derive(Clone, Copy, Debug)]
enum Current {
    None,
    Fixed(&'static str),
    Binding(u32),
}

/// Up to this many bindings in scope, a lookup compares them innermost first; past it, an
/// index keyed by the prefixes' keyed hashes answers.
const SCAN: usize = 16;

/// The namespace bindings in scope while streaming, bounded by the open elements (the depth
/// limit), `Limits::max_namespace_declarations` and `Limits::max_namespace_bytes`. An element that declares nothing costs
/// nothing: only elements with declarations (XML5) or whose namespace differs from their
/// parent's (HTML) leave an entry, removed when they close.
#[derive(Debug)]
pub(crate) struct Scope {
    html: bool,
    text: String,
    list: Vec<Binding>,
    /// Past [`SCAN`] bindings: per prefix hash, the bindings with that hash, innermost last.
    index: Option<PrehashedMap<Vec<u32>>>,
    hasher: NameHasher,
    /// `(depth, bindings before it)` of each open element that declared something.
    declared: Vec<(u32, u32)>,
    /// `(depth, namespace)` of each open HTML element whose namespace is not its parent's.
    html_ns: Vec<(u32, HtmlNs)>,
    /// The bindings before the current start tag's declarations.
    before: u32,
    current: Current,
    current_html: HtmlNs,
    max: usize,
    max_bytes: Option<usize>,
}

fn n32(v: usize) -> u32 {
    u32::try_from(v).unwrap_or(u32::MAX)
}

impl Scope {
    pub(crate) fn new(html: bool, limits: &thicket_input::Limits) -> Scope {
        Scope {
            html,
            text: String::new(),
            list: Vec::new(),
            index: None,
            hasher: NameHasher::new(),
            declared: Vec::new(),
            html_ns: Vec::new(),
            before: 0,
            current: Current::None,
            current_html: HtmlNs::Html,
            max: limits.max_namespace_declarations.unwrap_or(usize::MAX),
            max_bytes: limits.max_namespace_bytes,
        }
    }

    fn range(&self, r: (u32, u32)) -> &str {
        self.text
            .get(r.0 as usize..(r.0 + r.1) as usize)
            .unwrap_or("")
    }

    fn bind(&mut self, prefix: &str, uri: Option<&str>) {
        let p = (n32(self.text.len()), n32(prefix.len()));
        self.text.push_str(prefix);
        let u = uri.map(|u| {
            let r = (n32(self.text.len()), n32(u.len()));
            self.text.push_str(u);
            r
        });
        let at = n32(self.list.len());
        self.list.push(Binding { prefix: p, uri: u });
        if let Some(index) = &mut self.index {
            index
                .entry(self.hasher.hash_name(prefix))
                .or_default()
                .push(at);
        } else if self.list.len() > SCAN {
            let mut index: PrehashedMap<Vec<u32>> = PrehashedMap::default();
            for (i, b) in self.list.iter().enumerate() {
                let h = self.hasher.hash_name(self.range(b.prefix));
                index.entry(h).or_default().push(n32(i));
            }
            self.index = Some(index);
        }
    }

    fn truncate(&mut self, len: usize) {
        while self.list.len() > len {
            let Some(b) = self.list.pop() else { break };
            if self.index.is_some() {
                let h = self.hasher.hash_name(self.range(b.prefix));
                if let Some(index) = &mut self.index
                    && let Some(v) = index.get_mut(&h)
                {
                    v.pop();
                    if v.is_empty() {
                        index.remove(&h);
                    }
                }
            }
            self.text.truncate(b.prefix.0 as usize);
        }
    }

    /// The innermost binding of `prefix` (`""`: the default namespace).
    fn lookup(&self, prefix: &str) -> Option<u32> {
        match &self.index {
            Some(index) => index
                .get(&self.hasher.hash_name(prefix))?
                .iter()
                .rev()
                .copied()
                .find(|&i| self.range(self.list[i as usize].prefix) == prefix),
            None => self
                .list
                .iter()
                .rposition(|b| self.range(b.prefix) == prefix)
                .map(n32),
        }
    }

    /// The namespace `prefix` (`None`: no prefix, the default namespace) resolves to.
    fn resolve(&self, prefix: Option<&str>) -> Current {
        match prefix {
            Some("xml") => Current::Fixed(Namespaces::XML),
            Some("xmlns") => Current::Fixed(Namespaces::XMLNS),
            _ => match self.lookup(prefix.unwrap_or("")) {
                Some(i) if self.list[i as usize].uri.is_some() => Current::Binding(i),
                _ => Current::None,
            },
        }
    }

    fn uri(&self, c: Current) -> Option<&str> {
        match c {
            Current::None => None,
            Current::Fixed(u) => Some(u),
            Current::Binding(i) => self.list[i as usize].uri.map(|r| self.range(r)),
        }
    }

    /// A start tag named `name`: applies its declarations (XML5) and resolves its namespace.
    /// `foreign` and `in_foreign` are the HTML stack's (the element is in foreign content; its
    /// parent is foreign and no integration point).
    pub(crate) fn start(
        &mut self,
        name: &str,
        attributes: &[Attr<'_>],
        foreign: bool,
        in_foreign: bool,
        diagnostics: &mut Vec<Diagnostic<ErrorCode>>,
    ) {
        if self.html {
            let parent = self.html_ns.last().map_or(HtmlNs::Html, |e| e.1);
            self.current_html = match (foreign, in_foreign, parent) {
                (false, _, _) => HtmlNs::Html,
                (true, true, HtmlNs::MathMlAnnotation) if name == "svg" => HtmlNs::Svg,
                (true, true, HtmlNs::MathMlAnnotation) => HtmlNs::MathMl,
                (true, true, parent) => parent,
                (true, false, _) if name == "svg" => HtmlNs::Svg,
                (true, false, _) => HtmlNs::MathMl,
            };
            if self.current_html == HtmlNs::MathMl && name == "annotation-xml" {
                self.current_html = HtmlNs::MathMlAnnotation;
            }
            return;
        }
        self.before = n32(self.list.len());
        if attributes.iter().any(|a| a.name.starts_with("xmlns")) {
            for a in attributes {
                let Some(prefix) = declared_prefix(a.name) else {
                    continue;
                };
                if !valid_declaration(prefix, a.value) || prefix == Some("xml") {
                    continue;
                }
                let bytes = self.text.len() + prefix.map_or(0, str::len) + a.value.len();
                if self.list.len() >= self.max
                    || thicket_input::Limits::exceeds(self.max_bytes, bytes)
                {
                    diagnostics.push(Diagnostic::new(ErrorCode::NamespaceLimit, a.span));
                    continue;
                }
                self.bind(
                    prefix.unwrap_or(""),
                    (!a.value.is_empty()).then_some(a.value),
                );
            }
        }
        self.current = self.resolve(split(name).0);
    }

    /// After [`start`](Self::start): whether the element opened, at `depth` (its index in the
    /// stack). Its declarations stay in scope until it closes, or go now.
    pub(crate) fn opened(&mut self, opens: bool, depth: usize) {
        if self.html {
            let parent = self.html_ns.last().map_or(HtmlNs::Html, |e| e.1);
            if opens && self.current_html != parent {
                self.html_ns.push((n32(depth), self.current_html));
            }
            return;
        }
        if self.list.len() > self.before as usize {
            if opens {
                self.declared.push((n32(depth), self.before));
            } else {
                self.truncate(self.before as usize);
            }
        }
    }

    /// The element at `depth` closed.
    pub(crate) fn closed(&mut self, depth: usize) {
        if self.html {
            if self.html_ns.last().is_some_and(|e| e.0 as usize == depth) {
                self.html_ns.pop();
            }
            return;
        }
        if let Some(&(d, before)) = self.declared.last()
            && d as usize == depth
        {
            self.declared.pop();
            self.truncate(before as usize);
        }
    }
}

/// HTML's "adjust foreign attributes": the namespaced attributes of SVG and MathML elements.
fn adjusted_foreign_attribute(name: &str) -> Option<(&'static str, &str)> {
    let ns = match name {
        "xlink:actuate" | "xlink:arcrole" | "xlink:href" | "xlink:role" | "xlink:show"
        | "xlink:title" | "xlink:type" => Namespaces::XLINK,
        "xml:lang" | "xml:space" => Namespaces::XML,
        "xmlns" | "xmlns:xlink" => Namespaces::XMLNS,
        _ => return None,
    };
    Some((ns, name.rsplit(':').next().unwrap_or(name)))
}

impl NsView for Scope {
    fn element_namespace(&self) -> Option<&str> {
        if self.html {
            return Some(match self.current_html {
                HtmlNs::Html => Namespaces::HTML,
                HtmlNs::Svg => Namespaces::SVG,
                HtmlNs::MathMl | HtmlNs::MathMlAnnotation => Namespaces::MATHML,
            });
        }
        self.uri(self.current)
    }

    fn attribute_namespace<'a>(
        &'a self,
        _index: usize,
        name: &'a str,
        value: &str,
    ) -> (Option<&'a str>, &'a str) {
        if self.html {
            if self.current_html != HtmlNs::Html
                && let Some((ns, local)) = adjusted_foreign_attribute(name)
            {
                return (Some(ns), local);
            }
            return (None, name);
        }
        let (prefix, local) = split(name);
        if let Some(p) = declared_prefix(name)
            && valid_declaration(p, value)
        {
            return (Some(Namespaces::XMLNS), local);
        }
        match prefix {
            None | Some("xmlns") => (None, local),
            Some(p) => (self.uri(self.resolve(Some(p))), local),
        }
    }
}

/// Where a namespace prefix in selector text is not bound.
pub(crate) fn unknown_prefix(start: usize, end: usize) -> crate::Error {
    crate::Error::new(ErrorCode::UnknownNamespacePrefix, Span::new(start, end))
}
