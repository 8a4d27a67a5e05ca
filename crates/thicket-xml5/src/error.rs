//! The parse-error codes of XML5: the draft's own table, and stable codes of our own for each bare
//! "Parse error." of the draft and for the tree builder (listed in docs/xml5.md).

thicket_input::error_codes! {
    /// A stable parse-error code. `as_str` gives the kebab-case code; codes are never renamed.
    pub enum ErrorCode {
        // The draft's table.
        /// `<!-->` or `<!--->`.
        AbruptClosingOfEmptyComment = "abrupt-closing-of-empty-comment", "empty comment closed abruptly by `>`";
        /// `?` inside a quoted XML declaration value.
        AbruptClosingXmlDeclaration = "abrupt-closing-xml-declaration", "XML declaration closed inside a quoted value";
        /// `:` where an attribute name should start.
        ColonBeforeAttr = "colon-before-attr", "`:` before an attribute name";
        /// End of input in a CDATA section.
        EofInCdata = "eof-in-cdata", "end of input in a CDATA section";
        /// End of input in a comment.
        EofInComment = "eof-in-comment", "end of input in a comment";
        /// End of input in a DOCTYPE.
        EofInDoctype = "eof-in-doctype", "end of input in a DOCTYPE";
        /// End of input in a tag.
        EofInTag = "eof-in-tag", "end of input in a tag";
        /// End of input in an XML declaration.
        EofInXmlDeclaration = "eof-in-xml-declaration", "end of input in an XML declaration";
        /// `<!` not followed by `--`, `DOCTYPE` or `[CDATA[`.
        IncorrectlyOpenedComment = "incorrectly-opened-comment", "`<!` that opens no comment, DOCTYPE or CDATA section";
        /// An XML declaration that does not follow the declaration grammar.
        InvalidXmlDeclaration = "invalid-xml-declaration", "invalid XML declaration";
        /// `<!DOCTYPEname`.
        MissingWhitespaceBeforeDoctypeName = "missing-whitespace-before-doctype-name", "no whitespace between `DOCTYPE` and the name";
        /// `<!DOCTYPE>`.
        MissingDoctypeName = "missing-doctype-name", "DOCTYPE without a name";

        // Our own codes for the draft's bare "Parse error.".
        /// `<` followed by whitespace, `:`, `<`, `>` or the end of input.
        InvalidFirstCharacterOfTagName = "invalid-first-character-of-tag-name", "`<` not followed by a tag name";
        /// `</` followed by whitespace, `:`, `<` or the end of input.
        InvalidFirstCharacterOfEndTagName = "invalid-first-character-of-end-tag-name", "`</` not followed by a tag name";
        /// `/` inside an end tag name.
        SolidusInEndTag = "solidus-in-end-tag", "`/` in an end tag";
        /// Anything but whitespace or `>` after an end tag name.
        UnexpectedCharacterAfterEndTagName = "unexpected-character-after-end-tag-name", "unexpected character after an end tag name";
        /// An attribute whose name is already on the tag (dropped).
        DuplicateAttribute = "duplicate-attribute", "duplicate attribute (dropped)";
        /// `<?` followed by whitespace or the end of input.
        MissingPiTarget = "missing-pi-target", "`<?` without a processing-instruction target";
        /// End of input in a processing instruction.
        EofInPi = "eof-in-pi", "end of input in a processing instruction";
        /// `--!>` closing a comment.
        IncorrectlyClosedComment = "incorrectly-closed-comment", "comment closed by `--!>`";
        /// `<!--` inside a comment.
        NestedComment = "nested-comment", "`<!--` inside a comment";
        /// A value where no attribute is in progress (`<a/x>`: the draft's empty tag state
        /// reconsumes `x` as a value); dropped.
        AttributeValueWithoutName = "attribute-value-without-name", "attribute value without an attribute name (dropped)";
        /// Compatibility profile: anything but `PUBLIC`, `SYSTEM` or `>` after a DOCTYPE name.
        InvalidCharacterSequenceAfterDoctypeName = "invalid-character-sequence-after-doctype-name", "unexpected text after the DOCTYPE name";
        /// Compatibility profile: no whitespace after `PUBLIC` / `SYSTEM`.
        MissingWhitespaceAfterDoctypeKeyword = "missing-whitespace-after-doctype-keyword", "no whitespace after `PUBLIC` or `SYSTEM`";
        /// Compatibility profile: `>` or another character where a quoted identifier should start.
        MissingQuoteBeforeDoctypeIdentifier = "missing-quote-before-doctype-identifier", "DOCTYPE identifier does not start with a quote";
        /// Compatibility profile: `>` inside a quoted DOCTYPE identifier.
        AbruptDoctypeIdentifier = "abrupt-doctype-identifier", "`>` inside a DOCTYPE identifier";
        /// Compatibility profile: no whitespace between the public and system identifiers.
        MissingWhitespaceBetweenDoctypeIdentifiers = "missing-whitespace-between-doctype-identifiers", "no whitespace between the DOCTYPE identifiers";
        /// Compatibility profile: unexpected character after a DOCTYPE identifier.
        UnexpectedCharacterAfterDoctypeIdentifier = "unexpected-character-after-doctype-identifier", "unexpected character after a DOCTYPE identifier";

        // Character references.
        /// A character reference without its `;`.
        MissingSemicolonAfterCharacterReference = "missing-semicolon-after-character-reference", "character reference without `;`";
        /// `&#` or `&#x` without digits.
        AbsenceOfDigitsInNumericCharacterReference = "absence-of-digits-in-numeric-character-reference", "numeric character reference without digits";
        /// `&#0;`.
        NullCharacterReference = "null-character-reference", "character reference to U+0000";
        /// A number above 0x10FFFF.
        CharacterReferenceOutsideUnicodeRange = "character-reference-outside-unicode-range", "character reference above U+10FFFF";
        /// A surrogate code point.
        SurrogateCharacterReference = "surrogate-character-reference", "character reference to a surrogate";
        /// A noncharacter.
        NoncharacterCharacterReference = "noncharacter-character-reference", "character reference to a noncharacter";
        /// A control character.
        ControlCharacterReference = "control-character-reference", "character reference to a control character";
        /// `&name;` where no entity is named `name` (kept as text).
        UnknownNamedCharacterReference = "unknown-named-character-reference", "unknown named character reference (kept as text)";
        /// Compatibility profile: `&name=` inside an attribute value (kept as text).
        EqualsSignAfterCharacterReferenceInAttribute = "equals-sign-after-character-reference-in-attribute", "`=` after a character reference in an attribute";

        // The input stream.
        /// A control character in the input.
        ControlCharacterInInputStream = "control-character-in-input-stream", "control character in the input";
        /// A noncharacter in the input.
        NoncharacterInInputStream = "noncharacter-in-input-stream", "noncharacter in the input";
        /// Draft profile: U+0000 in the input (replaced by U+FFFD).
        UnexpectedNullCharacter = "unexpected-null-character", "U+0000 in the input (replaced by U+FFFD)";

        // Tree construction.
        /// Text other than whitespace outside the root element.
        TextOutsideRoot = "text-outside-root", "text outside the root element (ignored)";
        /// A token the phase does not accept (ignored).
        UnexpectedToken = "unexpected-token", "token not allowed here (ignored)";
        /// A DOCTYPE after other content (ignored).
        MisplacedDoctype = "misplaced-doctype", "DOCTYPE not at the start of the document (ignored)";
        /// An XML declaration that is not the first token (ignored).
        MisplacedXmlDeclaration = "misplaced-xml-declaration", "XML declaration not at the start (ignored)";
        /// An end tag whose name is not the current element's.
        MismatchedEndTag = "mismatched-end-tag", "end tag does not match the current element";
        /// The end of input before any element.
        EofBeforeRoot = "eof-before-root", "no root element";
        /// The end of input with open elements.
        EofInElement = "eof-in-element", "end of input with elements still open";
        /// A prefix with no namespace declaration in scope.
        UnboundPrefix = "unbound-prefix", "namespace prefix is not declared";
        /// `xmlns:xml`, `xmlns:xmlns` or a reserved namespace bound wrongly.
        InvalidNamespaceDeclaration = "invalid-namespace-declaration", "invalid namespace declaration";
        /// Two attributes with the same namespace and local name (the second is dropped).
        DuplicateExpandedAttribute = "duplicate-expanded-attribute", "two attributes with the same expanded name (dropped)";

        // Limits (`Options::limits`; see docs/xml5.md for each recovery).
        /// A start tag past `max_depth` open elements (not opened; its content goes to the
        /// element at the limit).
        DepthLimit = "depth-limit", "element nested deeper than the depth limit (not opened)";
        /// Attributes past `max_attributes` on a tag (dropped).
        AttributeLimit = "attribute-limit", "more attributes than the limit (the rest dropped)";
        /// A tag, attribute, PI target or DOCTYPE name longer than `max_name_len` (cut).
        NameLengthLimit = "name-length-limit", "name longer than the limit (cut)";
        /// An attribute value longer than `max_value_len` (cut).
        ValueLengthLimit = "value-length-limit", "attribute value longer than the limit (cut)";
        /// A namespace declaration past `max_namespace_declarations` or `max_namespace_bytes`
        /// in scope (does not bind).
        NamespaceLimit = "namespace-limit", "more namespace declarations in scope than the limit (ignored)";

        // Encoding (`parse_bytes`, `BytesParser`).
        /// The XML declaration's `encoding` label is not one of the Encoding Standard's.
        UnknownEncoding = "unknown-encoding", "unknown encoding label (ignored)";
        /// The `encoding` label contradicts the byte order mark or the UTF-16 byte pattern.
        EncodingMismatch = "encoding-mismatch", "encoding label contradicts the byte order mark";
    }
}

impl ErrorCode {
    /// True for the errors the end of the input raises (they sort after any other diagnostic at
    /// the same position).
    pub const fn is_eof(self) -> bool {
        matches!(
            self,
            ErrorCode::EofInCdata
                | ErrorCode::EofInComment
                | ErrorCode::EofInDoctype
                | ErrorCode::EofInTag
                | ErrorCode::EofInXmlDeclaration
                | ErrorCode::EofInPi
                | ErrorCode::EofBeforeRoot
                | ErrorCode::EofInElement
        )
    }

    /// The code for an encoding problem of `thicket_input::xml::sniff`.
    pub const fn for_encoding_problem(problem: thicket_input::xml::EncodingProblem) -> ErrorCode {
        match problem {
            thicket_input::xml::EncodingProblem::UnknownLabel => ErrorCode::UnknownEncoding,
            thicket_input::xml::EncodingProblem::Mismatch => ErrorCode::EncodingMismatch,
        }
    }
}

/// A diagnostic with an XML5 code.
pub type Diagnostic = thicket_input::Diagnostic<ErrorCode>;
