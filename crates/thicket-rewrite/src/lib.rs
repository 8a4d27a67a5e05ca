//! Streaming selection and rewriting of HTML, XML5, MicroXML and LeafXML with byte-exact
//! pass-through.
//!
//! Every byte no handler changes goes to the output unchanged, however the input is split into
//! chunks. Element handlers are chosen by CSS selectors (parsed with `cssparser`) decided at
//! each start tag from bounded state per open element; text, comment, doctype, processing
//! instruction and document-end handlers see every such token, in all four dialects. One
//! cargo feature per dialect (`html`, `xml5`, `microxml`, `leafxml`, all default). The rules
//! are in docs/rewrite.md.
//!
//! ```
//! # #[cfg(all(feature = "html", feature = "xml5"))] {
//! use thicket_rewrite::{ContentType, Dialect, Settings, rewrite_str};
//!
//! let settings = Settings::new()
//!     .on_element("a[href^='http']", |a| a.set_attribute("rel", "nofollow"))
//!     .unwrap()
//!     .on_element("script", |s| s.remove())
//!     .unwrap()
//!     .on_element("ul > li:first-child", |li| li.prepend("1. ", ContentType::Text))
//!     .unwrap();
//! let out = rewrite_str(
//!     "<ul><li>a<li>b</ul><a href='https://x' >x</a><script>1<2</script> <!-- kept -->",
//!     Dialect::Html,
//!     settings,
//! )
//! .unwrap();
//! assert_eq!(
//!     out,
//!     "<ul><li>1. a<li>b</ul><a href='https://x' rel=\"nofollow\">x</a> <!-- kept -->"
//! );
//!
//! // Streaming: feed chunks, the output goes to a sink as it is certain.
//! let mut out = Vec::new();
//! let mut rewriter = thicket_rewrite::Rewriter::new(Dialect::Xml5, Settings::new(), |b: &[u8]| {
//!     out.extend_from_slice(b)
//! });
//! rewriter.feed(b"<a><b x='1'>te").unwrap();
//! rewriter.feed(b"xt</a>").unwrap();
//! rewriter.finish().unwrap();
//! assert_eq!(out, b"<a><b x='1'>text</a>");
//! # }
//! ```
#![warn(missing_debug_implementations)]

#[cfg(not(any(
    feature = "html",
    feature = "xml5",
    feature = "microxml",
    feature = "leafxml"
)))]
compile_error!(
    "thicket-rewrite needs a dialect: enable the `html`, `xml5`, `microxml` or `leafxml` feature (all four are the default)"
);

mod capture;
mod core;
mod encoding;
mod handlers;
#[cfg(feature = "html")]
mod html;
#[cfg(feature = "leafxml")]
mod leafxml;
#[cfg(all(test, feature = "html"))]
mod lend_tests;
mod matcher;
mod memory;
#[cfg(feature = "microxml")]
mod microxml;
mod modes;
mod namespaces;
mod rawtext;
#[cfg(feature = "xml5")]
mod reference;
mod rewriter;
mod selector;
mod strict;
mod text;
#[cfg(feature = "xml5")]
mod xml5;

pub use capture::{Capture, CaptureHandler};
/// `encoding_rs`, whose `Encoding` statics name encodings ([`Settings::default_encoding`],
/// [`Rewriter::encoding`]).
pub use encoding_rs;
pub use handlers::{
    CloseHandler, ContentType, DocumentEnd, Element, EndTag, EndTagHandler, Unit, UnitKind,
};
#[cfg(feature = "leafxml")]
pub use leafxml::ErrorOutput;
pub use memory::MemoryLimits;
pub use namespaces::Namespaces;
pub use rewriter::{Dialect, NoOutput, Rewriter, Settings, Sink, WriteSink, rewrite_str, select};
pub use selector::{MAX_NOT_NESTING, SelectorList};
pub use thicket_input::{Diagnostic, Limits, Span};

thicket_input::error_codes! {
    /// What can go wrong: in selector text, in the input, or in writing the output.
    pub enum ErrorCode {
        /// The selector text is not selector syntax.
        InvalidSelector = "invalid-selector", "the selector is not valid selector syntax";
        /// Valid CSS the streaming matcher cannot decide at the start tag.
        UnsupportedSelector = "unsupported-selector", "the selector uses a feature the streaming matcher does not support";
        /// An empty selector (or an empty item in a list).
        EmptySelector = "empty-selector", "the selector is empty";
        /// `:not()` nested deeper than [`MAX_NOT_NESTING`]
        /// (span: the `:not(` past it, to its end).
        SelectorNestingLimit = "selector-nesting-limit", "the selector nests :not() deeper than the limit";
        /// The bytes are in an encoding that cannot be rewritten bytes in, bytes out: UTF-16
        /// (by BOM, or XML's UTF-16 patterns), ISO-2022-JP or the replacement encoding (span: the
        /// declared label, else the BOM). Every other encoding `encoding_rs` knows is rewritten
        /// (docs/rewrite.md, "Encodings").
        UnsupportedEncoding = "unsupported-encoding", "the input's encoding cannot be rewritten bytes in, bytes out (UTF-16, ISO-2022-JP, replacement)";
        /// The bytes are not well-formed UTF-8.
        MalformedUtf8 = "malformed-utf8", "the input is not well-formed UTF-8";
        /// An element would be deeper than `Limits::max_depth`; it is not opened (LeafXML: the
        /// reader's error, which stops the rewrite).
        DepthLimit = "depth-limit", "an element is nested deeper than the depth limit";
        /// A namespace prefix in a selector that the caller did not bind (`Namespaces`).
        UnknownNamespacePrefix = "unknown-namespace-prefix", "the selector uses a namespace prefix that is not bound";
        /// A namespace declaration past `Limits::max_namespace_declarations` or
        /// `Limits::max_namespace_bytes` in scope; it does not
        /// bind (LeafXML: the reader's error, which stops the rewrite).
        NamespaceLimit = "namespace-limit", "too many namespace declarations in scope";
        /// Strict mode: a start tag ends an open element, or an end tag closes elements, where
        /// HTML tree construction and the rewriter's subset of it may differ.
        ImpliedEndTag = "implied-end-tag", "the tag ends other open elements implicitly (strict mode)";
        /// Strict mode: HTML tree construction would insert an element here (`tbody`, `tr`, `colgroup`, an empty `p`, a `br`).
        ImpliedElement = "implied-element", "the HTML parser would insert an element here (strict mode)";
        /// Strict mode: text or a tag directly in a table context, which HTML moves before the table.
        FosterParenting = "foster-parenting", "content directly in a table would be moved before it (strict mode)";
        /// Strict mode: a misnested formatting element (the adoption agency, reconstruction).
        MisnestedFormatting = "misnested-formatting", "a formatting element is misnested (strict mode)";
        /// Strict mode: a `template` element, whose content is a separate fragment.
        TemplateContent = "template-content", "template content is a separate document fragment (strict mode)";
        /// Strict mode: a tag inside `select` that parsers drop or move.
        SelectContent = "select-content", "a tag inside select that parsers handle differently (strict mode)";
        /// Strict mode: a start tag the HTML parser ignores or merges.
        IgnoredTag = "ignored-tag", "the HTML parser ignores this start tag (strict mode)";
        /// A handler gave an element or attribute name the dialect would not read back as one
        /// name (`Element::set_attribute`, `Element::set_name`, `EndTag::set_name`): it is never
        /// written, and the rewrite stops at that tag (span: the tag).
        InvalidName = "invalid-name", "a handler gave a name that is not an element or attribute name in the dialect";
        /// `ContentType::Text` inserted into the content of a raw-text element (`script`,
        /// `style`, `xmp`, `iframe`, `noembed`, `noframes`, `noscript` with the scripting flag),
        /// where it cannot be escaped: the rewrite stops (docs/rewrite.md, "Inserting into raw text").
        RawTextInsertion = "raw-text-insertion", "text cannot be inserted into a raw-text element (it cannot be escaped there)";
        /// A capture is longer than `MemoryLimits::max_captured`: its handler gets this error.
        CaptureLimit = "capture-limit", "the captured content is longer than the capture limit";
        /// A whole text node is longer than `MemoryLimits::max_text_node`; the rewrite stops.
        TextNodeLimit = "text-node-limit", "a whole text node is longer than the text node limit";
        /// A token is longer than `MemoryLimits::max_buffered`; the rewrite stops.
        BufferLimit = "buffer-limit", "a token is longer than the buffer limit";
        /// The `:nth-of-type` counters of the open elements hold more than
        /// `MemoryLimits::max_counters` bytes; the rewrite stops at the start tag (span: the
        /// tag).
        CounterLimit = "counter-limit", "the :nth-of-type counters hold more than the counter limit";
        /// LeafXML: the input is not LeafXML; the reader's first error (its code and message
        /// in `source()`, its span here) stops the rewrite.
        NotWellFormed = "not-well-formed", "the input is not well-formed LeafXML";
        /// More attributes on a tag than `Limits::max_attributes`: LeafXML's reader error, or
        /// (other dialects) an edit of a tag whose attributes past the limit the tokenizer
        /// dropped, which would lose them (docs/rewrite.md, "Limits"); the rewrite stops.
        AttributeLimit = "attribute-limit", "more attributes on a tag than the attribute limit";
        /// A name longer than `Limits::max_name_len`: LeafXML's reader error, or (other
        /// dialects) an edit of an attribute whose name the tokenizer may have cut; the
        /// rewrite stops.
        NameLengthLimit = "name-length-limit", "a name longer than the name length limit";
        /// LeafXML: an attribute value longer than `Limits::max_value_len` (the reader's error).
        ValueLengthLimit = "value-length-limit", "an attribute value longer than the value length limit";
        /// LeafXML: a token longer than `Limits::max_token_len` (the reader's error).
        TokenLengthLimit = "token-length-limit", "a token longer than the token length limit";
        /// LeafXML with `ErrorOutput::Discard`: the held output would pass `Settings::max_held_output`.
        HeldOutputLimit = "held-output-limit", "the output held until the end would pass its limit";
        /// The output sink failed.
        WriteFailed = "write-failed", "writing the output failed";
    }
}

/// A rewriting error: a code and the span of the input (or of the selector text) it concerns.
#[derive(Clone, Debug)]
pub struct Error {
    /// What went wrong.
    pub code: ErrorCode,
    /// Where: byte offsets into the input bytes, or into the selector text for selector errors.
    pub span: Span,
    /// The cause: the sink's `io::Error` (`write-failed`), LeafXML's `thicket_leafxml::Error`
    /// (`not-well-formed`).
    source: Option<std::sync::Arc<dyn std::error::Error + Send + Sync>>,
}

impl Error {
    pub(crate) fn new(code: ErrorCode, span: Span) -> Error {
        Error {
            code,
            span,
            source: None,
        }
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: {} at {}..{}",
            self.code.as_str(),
            self.code.message(),
            self.span.start,
            self.span.end
        )?;
        if let Some(e) = &self.source {
            write!(f, ": {e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_deref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

#[cfg(all(doctest, feature = "html"))]
#[doc = include_str!("../README.md")]
struct ReadmeExample;
