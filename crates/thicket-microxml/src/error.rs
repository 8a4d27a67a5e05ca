//! Validity diagnostics: where the input is not valid MicroXML.
//!
//! Recovery never fails; these codes say where the input departs from the 2012 MicroXML Community
//! Group grammar. The codes are our own (the recovery spec names none) and are never renamed.

thicket_input::error_codes! {
    /// What is wrong with the input, as a stable kebab-case code.
    pub enum ErrorCode {
        /// A character MicroXML forbids: a control other than tab, LF and CR, a C1 control, DEL or a
        /// noncharacter.
        InvalidCharacter = "invalid-character", "character not allowed in MicroXML";
        /// A `<` in text or an attribute value that does not start markup.
        UnescapedLessThan = "unescaped-less-than", "`<` must be written `&lt;`";
        /// A `>` in text or an attribute value.
        UnescapedGreaterThan = "unescaped-greater-than", "`>` must be written `&gt;`";
        /// A `&` that does not start a character reference.
        UnescapedAmpersand = "unescaped-ampersand", "`&` must be written `&amp;`";
        /// `&name;` where the name is not one of `lt gt amp quot apos`.
        UnknownNamedReference = "unknown-named-reference", "unknown named character reference";
        /// `&#NN;`: MicroXML has only hexadecimal references.
        DecimalCharacterReference = "decimal-character-reference", "decimal character references are not MicroXML";
        /// A numeric reference above U+10FFFF (kept as text).
        ReferenceOutOfRange = "reference-out-of-range", "character reference above U+10FFFF";
        /// A numeric reference to a character MicroXML forbids (including CR and surrogates).
        InvalidReferencedCharacter = "invalid-referenced-character", "character reference to a character not allowed in MicroXML";
        /// A processing instruction (ignored).
        ProcessingInstruction = "processing-instruction", "processing instructions are not MicroXML";
        /// A CDATA section (its content is kept as text).
        CdataSection = "cdata-section", "CDATA sections are not MicroXML";
        /// A DOCTYPE declaration (ignored).
        Doctype = "doctype", "DOCTYPE declarations are not MicroXML";
        /// A comment containing `--` or ending with `-`.
        DoubleHyphenInComment = "double-hyphen-in-comment", "`--` inside a comment";
        /// An attribute value without quotes.
        UnquotedAttributeValue = "unquoted-attribute-value", "attribute values must be quoted";
        /// An attribute without `=` and a value (HTML-style boolean attribute).
        MissingAttributeValue = "missing-attribute-value", "attribute without a value";
        /// An attribute value that is not closed by its quote.
        UnclosedAttributeValue = "unclosed-attribute-value", "attribute value not closed by its quote";
        /// Two attributes with no whitespace between them.
        MissingWhitespaceBeforeAttribute = "missing-whitespace-before-attribute", "whitespace required between attributes";
        /// A start-tag that does not end with `>` or `/>`.
        UnclosedStartTag = "unclosed-start-tag", "start-tag not closed by `>` or `/>`";
        /// A name that is a recovery NAME but not a MicroXML name (`$`, `:`, or a non-ASCII character
        /// outside the MicroXML name ranges).
        InvalidName = "invalid-name", "name not allowed in MicroXML";
        /// An attribute named `xmlns`.
        XmlnsAttribute = "xmlns-attribute", "`xmlns` attributes are not MicroXML";
        /// An attribute name that occurs earlier in the same start-tag (the later one is ignored).
        DuplicateAttribute = "duplicate-attribute", "duplicate attribute (ignored)";
        /// An end-tag that closes other open elements first.
        MismatchedEndTag = "mismatched-end-tag", "end-tag does not match the current element";
        /// An end-tag that matches no open element (ignored).
        StrayEndTag = "stray-end-tag", "end-tag matches no open element (ignored)";
        /// An element still open at the end of the input.
        UnclosedElement = "unclosed-element", "element not closed at end of input";
        /// Text (other than whitespace) or a reference outside the document element.
        TextOutsideRoot = "text-outside-root", "text outside the document element";
        /// A second top-level element.
        MultipleRootElements = "multiple-root-elements", "more than one document element";
        /// No element at all.
        NoRootElement = "no-root-element", "no document element";
        /// A start-tag that would open an element deeper than `Limits::max_depth` (not opened;
        /// its content goes to the element at the limit).
        DepthLimit = "depth-limit", "element nesting deeper than the depth limit (not opened)";
        /// A start-tag with more attributes than `Limits::max_attributes` (the rest are dropped).
        AttributeLimit = "attribute-limit", "more attributes than the limit (the rest dropped)";
        /// A name longer than `Limits::max_name_len` (cut to the limit).
        NameLengthLimit = "name-length-limit", "name longer than the limit (cut short)";
        /// An attribute value longer than `Limits::max_value_len` (cut to the limit).
        ValueLengthLimit = "value-length-limit", "attribute value longer than the limit (cut short)";
        /// Input longer than a document holds (`MAX_DOCUMENT_LEN`, 1.5 GiB): the tree stops there.
        DocumentTooLarge = "document-too-large", "input longer than a document holds (the tree stops at 1.5 GiB)";
    }
}

/// A validity diagnostic of this crate.
pub type Diagnostic = thicket_input::Diagnostic<ErrorCode>;
