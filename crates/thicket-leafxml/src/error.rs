//! Errors: one stable code per sentence of the spec that makes something an error.
//!
//! `docs/leafxml.md` lists every code with the sentence it enforces.

use std::fmt;

use thicket_input::Span;

thicket_input::error_codes! {
    /// Why a LeafXML document was rejected. Every variant has a stable kebab-case code
    /// ([`ErrorCode::as_str`]); codes are never renamed.
    pub enum ErrorCode {
        /// The input is not valid UTF-8.
        InvalidUtf8 = "invalid-utf8", "the input is not valid UTF-8";
        /// The input starts with a UTF-16 byte signature but is not valid UTF-16.
        InvalidUtf16 = "invalid-utf16", "the input is not valid UTF-16";
        /// "All codepoints within a LeafXML file must be one of the following".
        InvalidChar = "invalid-char", "a codepoint outside the LeafXML character set";
        /// "It is an error if no U+003B is present before the end of the input codepoint sequence."
        UnterminatedEscape = "unterminated-escape", "an entity escape without a closing `;`";
        /// Only `&amp;`, `&lt;`, `&gt;`, `&apos;`, `&quot;` and numeric escapes exist.
        UnknownEscape = "unknown-escape", "an entity escape that is neither one of the five named escapes nor numeric";
        /// A numeric escape without digits, or with a character that is not a digit of its base.
        MalformedNumericEscape = "malformed-numeric-escape", "a numeric escape with no digits or a non-digit";
        /// "the `x` at the start of the base-16 numeric escape _is_ case sensitive and must be lowercase."
        UppercaseHexMarker = "uppercase-hex-marker", "a base-16 numeric escape written `&#X`";
        /// "Codepoints that are encoded in numeric entity escapes must be within the character set".
        EscapeOutsideCharset = "escape-outside-charset", "a numeric escape for a codepoint outside the character set";
        /// `<` that starts none of the six token types (`<>`, `<!x`, `<` at the end of the file).
        InvalidToken = "invalid-token", "`<` that does not start a tag, CDATA, instruction, DOCTYPE or comment";
        /// Tag tokens: "It is an error if there is no such U+003E before the end of the file."
        UnterminatedTag = "unterminated-tag", "a tag without its closing `>`";
        /// CDATA tokens: "It is an error if there is no closing sequence before the end of the file."
        UnterminatedCdata = "unterminated-cdata", "a CDATA section without `]]>`";
        /// Instruction tokens: "It is an error if there is no closing sequence before the end of the file."
        UnterminatedInstruction = "unterminated-instruction", "an instruction without `?>`";
        /// DOCTYPE tokens: "It is an error if there is no such U+003E before the end of the file."
        UnterminatedDoctype = "unterminated-doctype", "a DOCTYPE without its closing `>`";
        /// Comment tokens: "It is an error if there is no closing sequence before the end of the file."
        UnterminatedComment = "unterminated-comment", "a comment without `-->`";
        /// "LeafXML prevents its use by blocking the U+005B and U+005D delimiters within DOCTYPE tokens."
        DoctypeBracket = "doctype-bracket", "`[` or `]` outside quotes in a DOCTYPE";
        /// "verify that there is at most one DOCTYPE token in the XML document".
        MultipleDoctypes = "multiple-doctypes", "a second DOCTYPE";
        /// "and that the DOCTYPE token occurs before the first tag token."
        DoctypeAfterTag = "doctype-after-tag", "a DOCTYPE after the first tag";
        /// "If any non-padding content assembly appears before the first tag assembly or after the
        /// last tag assembly, then LeafXML decoders will treat this as a stray content error."
        StrayContent = "stray-content", "text other than whitespace before or after the root element";
        /// "A _name_ is a sequence of one or more codepoints, where every codepoint is one of the following".
        InvalidName = "invalid-name", "an empty name, or a codepoint not allowed in names";
        /// "In addition, the first codepoint of a name may not be any of the following".
        InvalidNameStart = "invalid-name-start", "a name starting with a codepoint allowed only later in names";
        /// "Items (2) and (6) within a tag token may not be both present at the same time."
        EndAndEmptyTag = "end-and-empty-tag", "a tag with both `</` and `/>`";
        /// "End tags may not have any attributes."
        EndTagAttributes = "end-tag-attributes", "an end tag with attributes";
        /// Attributes model, item 1: "Required whitespace".
        MissingAttributeWhitespace = "missing-attribute-whitespace", "an attribute not preceded by whitespace";
        /// Attributes model, item 4: "U+003D (`=`)".
        MissingEquals = "missing-equals", "an attribute name not followed by `=`";
        /// "Attribute values are either double-quoted or single-quoted".
        UnquotedAttributeValue = "unquoted-attribute-value", "an attribute value without quotes";
        /// Quoted attribute values: "Any sequence of codepoints except U+0022 and U+003C".
        LtInAttributeValue = "lt-in-attribute-value", "a literal `<` in an attribute value";
        /// "A tag token is parsed according to the following model" (anything else, such as `/` not
        /// followed by `>`).
        MalformedTag = "malformed-tag", "a tag that does not follow the tag model";
        /// "It is an error if the same tag has more than one attribute with the same attribute name."
        DuplicateAttribute = "duplicate-attribute", "two attributes with the same name (after NFC)";
        /// "It is an error if an element is pushed onto the tag stack when its state is "finished"".
        MultipleRoots = "multiple-roots", "a second root element";
        /// "Each ending tag verifies that the tag stack is not empty".
        UnexpectedEndTag = "unexpected-end-tag", "an end tag with no open element";
        /// "and that the element name on top of the tag stack matches the element name in the ending tag."
        MismatchedEndTag = "mismatched-end-tag", "an end tag that does not match the open element";
        /// "If it is not empty, then there are unclosed tags."
        UnclosedTags = "unclosed-tags", "elements still open at the end of the file";
        /// "If it is not in "finished" state, then no tags were present."
        NoRootElement = "no-root-element", "no element in the file";
        /// "the remainder of the attribute name after the colon must be a valid namespace prefix."
        InvalidNamespacePrefix = "invalid-namespace-prefix", "`xmlns:` followed by something that is not a prefix";
        /// "The value of namespace attributes must not be empty."
        EmptyNamespaceValue = "empty-namespace-value", "a namespace declaration with an empty value";
        /// "It is an error to attempt to explicitly map the prefix `xmlns` to anything."
        XmlnsPrefixDeclared = "xmlns-prefix-declared", "a declaration of the `xmlns` prefix";
        /// "It is allowed to map the prefix `xml`, but the mapped value must always be
        /// `http://www.w3.org/XML/1998/namespace`."
        XmlPrefixRebound = "xml-prefix-rebound", "the `xml` prefix mapped to another namespace";
        /// "No other prefix may ever be mapped to this value."
        XmlNamespaceRebound = "xml-namespace-rebound", "the XML namespace mapped to a prefix other than `xml`";
        /// "No prefix may ever be explicitly mapped to the value `http://www.w3.org/2000/xmlns/`."
        XmlnsNamespaceBound = "xmlns-namespace-bound", "a prefix mapped to the xmlns namespace";
        /// "then there must be exactly one such codepoint in the name."
        MultipleColons = "multiple-colons", "a name with more than one `:`";
        /// "Both the prefix and the local part must be non-empty and valid names".
        InvalidQualifiedName = "invalid-qualified-name", "an empty or invalid prefix or local part";
        /// "The prefix must be present in the context on top of the namespace stack."
        UndeclaredPrefix = "undeclared-prefix", "a prefix with no namespace declaration in scope";
        /// Our choice where the spec is silent: two attributes with the same namespace and local
        /// name would collide in the external attribute map.
        DuplicateExternalAttribute = "duplicate-external-attribute", "two attributes with the same namespace and local name";
        /// Optional limit: elements nested deeper than `Limits::max_depth`.
        DepthLimit = "depth-limit", "nesting deeper than the configured limit";
        /// Optional limit: more attributes on one tag than `Limits::max_attributes`.
        AttributeLimit = "attribute-limit", "more attributes than the configured limit";
        /// Optional limit: a token or content assembly longer than `Limits::max_token_len` bytes
        /// (and any tag token of 4 GiB or more).
        TokenLengthLimit = "token-length-limit", "a token longer than the configured limit";
        /// Optional limit: an element or attribute name longer than `Limits::max_name_len` bytes.
        NameLengthLimit = "name-length-limit", "a name longer than the configured limit";
        /// Optional limit: an attribute value longer than `Limits::max_value_len` bytes (as
        /// written, between the quotes).
        ValueLengthLimit = "value-length-limit", "an attribute value longer than the configured limit";
        /// Optional limit: more namespace declarations in scope than
        /// `Limits::max_namespace_declarations`, or more bytes of their prefixes and values
        /// than `Limits::max_namespace_bytes`.
        NamespaceLimit = "namespace-limit", "more namespace declarations in scope than the configured limit";
        /// Reading from the `io::Read` source failed (not a property of the document).
        Io = "io-error", "reading the input failed";
    }
}

/// A fatal decoding error: LeafXML stops at the first one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: error[{code}]: {message}{cp}", message = code.message(), cp = CodepointNote(*codepoint))]
pub struct Error {
    /// What is wrong.
    pub code: ErrorCode,
    /// 1-based line (every LeafXML line break style ends a line).
    pub line: u32,
    /// 1-based column, in codepoints.
    pub column: u32,
    /// Byte offset into the decoded text (UTF-8, after the byte signature): `span.start`. For
    /// [`ErrorCode::InvalidUtf8`] and [`ErrorCode::InvalidUtf16`] it is the offset into the input
    /// bytes of the first invalid sequence instead.
    pub byte_offset: u64,
    /// What the error is about, in bytes of the decoded text (the same offsets as event spans):
    /// the offending codepoint, escape, name, value, attribute or token (docs/leafxml.md lists
    /// which for each code). Empty where there is nothing to cover: at the end of the text
    /// (`unclosed-tags`, `no-root-element`, `io-error`) and where decoding stopped
    /// (`invalid-utf8`, `invalid-utf16`: the end of the valid text before the bad bytes).
    pub span: Span,
    /// The offending codepoint (or numeric escape value), where there is one.
    pub codepoint: Option<u32>,
}

struct CodepointNote(Option<u32>);

impl fmt::Display for CodepointNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(cp) => write!(f, " (U+{cp:04X})"),
            None => Ok(()),
        }
    }
}
