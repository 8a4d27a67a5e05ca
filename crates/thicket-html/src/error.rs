//! The parse errors of the WHATWG tokenizer, with the standard's own codes, and the codes of the
//! resource limits (`thicket_input::Limits`), the same in every dialect.

/// A WHATWG tokenization parse error, or a resource limit reached. `as_str` gives the code
/// exactly as the standard spells it (the limits' codes are Thicket's, shared by every dialect).
#[non_exhaustive]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ErrorCode {
    /// `abrupt-closing-of-empty-comment`: `<!-->` or `<!--->`.
    AbruptClosingOfEmptyComment,
    /// `abrupt-doctype-public-identifier`: `>` inside a DOCTYPE public identifier.
    AbruptDoctypePublicIdentifier,
    /// `abrupt-doctype-system-identifier`: `>` inside a DOCTYPE system identifier.
    AbruptDoctypeSystemIdentifier,
    /// `absence-of-digits-in-numeric-character-reference`: `&#` or `&#x` without digits.
    AbsenceOfDigitsInNumericCharacterReference,
    /// `attribute-limit`: a tag with more attributes than `Limits::max_attributes` (the rest are
    /// dropped; reported once per tag, at the first dropped attribute). Not a WHATWG code.
    AttributeLimit,
    /// `cdata-in-html-content`: `<![CDATA[` where CDATA sections are not allowed.
    CdataInHtmlContent,
    /// `character-reference-outside-unicode-range`: a numeric reference above U+10FFFF.
    CharacterReferenceOutsideUnicodeRange,
    /// `control-character-in-input-stream`: a control other than ASCII whitespace and NULL.
    ControlCharacterInInputStream,
    /// `control-character-reference`: a numeric reference to a control or CR.
    ControlCharacterReference,
    /// `end-tag-with-attributes`: an end tag with attributes.
    EndTagWithAttributes,
    /// `disallowed-processing-instruction-target` (2026): `<?xml` or `<?xml-stylesheet` (any
    /// case), read as a bogus comment.
    DisallowedProcessingInstructionTarget,
    /// `duplicate-attribute`: a second attribute with the same name (it is dropped).
    DuplicateAttribute,
    /// `end-tag-with-trailing-solidus`: `</a/>`.
    EndTagWithTrailingSolidus,
    /// `eof-before-tag-name`: the input ends after `<` or `</`.
    EofBeforeTagName,
    /// `eof-in-cdata`: the input ends inside a CDATA section.
    EofInCdata,
    /// `eof-in-comment`: the input ends inside a comment.
    EofInComment,
    /// `eof-in-doctype`: the input ends inside a DOCTYPE.
    EofInDoctype,
    /// `eof-in-processing-instruction` (2026): the input ends inside `<?...` (nothing is emitted).
    EofInProcessingInstruction,
    /// `eof-in-script-html-comment-like-text`: the input ends inside `<!--` in script data.
    EofInScriptHtmlCommentLikeText,
    /// `eof-in-tag`: the input ends inside a tag (the tag is dropped).
    EofInTag,
    /// `incorrectly-closed-comment`: a comment closed by `--!>`.
    IncorrectlyClosedComment,
    /// `incorrectly-opened-comment`: `<!` not followed by `--`, DOCTYPE or CDATA.
    IncorrectlyOpenedComment,
    /// `invalid-character-sequence-after-doctype-name`: neither PUBLIC nor SYSTEM.
    InvalidCharacterSequenceAfterDoctypeName,
    /// `invalid-first-character-of-processing-instruction-target` (2026): `<?` followed by
    /// neither an ASCII letter nor `_` (read as a bogus comment).
    InvalidFirstCharacterOfProcessingInstructionTarget,
    /// `invalid-first-character-of-tag-name`: `<` or `</` followed by a non-letter.
    InvalidFirstCharacterOfTagName,
    /// `invalid-processing-instruction-target` (2026): a target character that is not an ASCII
    /// alphanumeric, `-` or `_` (read as a bogus comment).
    InvalidProcessingInstructionTarget,
    /// `missing-attribute-value`: `<a b=>`.
    MissingAttributeValue,
    /// `missing-doctype-name`: `<!DOCTYPE>`.
    MissingDoctypeName,
    /// `missing-doctype-public-identifier`: `PUBLIC` then `>`.
    MissingDoctypePublicIdentifier,
    /// `missing-doctype-system-identifier`: `SYSTEM` then `>`.
    MissingDoctypeSystemIdentifier,
    /// `missing-end-tag-name`: `</>` (dropped).
    MissingEndTagName,
    /// `missing-quote-before-doctype-public-identifier`.
    MissingQuoteBeforeDoctypePublicIdentifier,
    /// `missing-quote-before-doctype-system-identifier`.
    MissingQuoteBeforeDoctypeSystemIdentifier,
    /// `missing-semicolon-after-character-reference`.
    MissingSemicolonAfterCharacterReference,
    /// `missing-whitespace-after-doctype-public-keyword`.
    MissingWhitespaceAfterDoctypePublicKeyword,
    /// `missing-whitespace-after-doctype-system-keyword`.
    MissingWhitespaceAfterDoctypeSystemKeyword,
    /// `missing-whitespace-before-doctype-name`.
    MissingWhitespaceBeforeDoctypeName,
    /// `missing-whitespace-between-attributes`.
    MissingWhitespaceBetweenAttributes,
    /// `missing-whitespace-between-doctype-public-and-system-identifiers`.
    MissingWhitespaceBetweenDoctypePublicAndSystemIdentifiers,
    /// `name-length-limit`: a tag, attribute, DOCTYPE or processing instruction target name
    /// longer than `Limits::max_name_len` (it keeps its first bytes). Not a WHATWG code.
    NameLengthLimit,
    /// `nested-comment`: `<!--` inside a comment.
    NestedComment,
    /// `noncharacter-character-reference`: a numeric reference to a noncharacter.
    NoncharacterCharacterReference,
    /// `noncharacter-in-input-stream`: a noncharacter in the input.
    NoncharacterInInputStream,
    /// `non-void-html-element-start-tag-with-trailing-solidus` (reported by tree builders, never
    /// by the tokenizer; listed because the standard's table has it).
    NonVoidHtmlElementStartTagWithTrailingSolidus,
    /// `null-character-reference`: `&#0;`.
    NullCharacterReference,
    /// `surrogate-character-reference`: a numeric reference to a surrogate.
    SurrogateCharacterReference,
    /// `surrogate-in-input-stream` (never produced here: a Rust `&str` cannot hold a surrogate).
    SurrogateInInputStream,
    /// `unexpected-character-after-doctype-system-identifier`.
    UnexpectedCharacterAfterDoctypeSystemIdentifier,
    /// `unexpected-character-in-attribute-name`: `"`, `'` or `<` in an attribute name.
    UnexpectedCharacterInAttributeName,
    /// `unexpected-character-in-unquoted-attribute-value`: `"`, `'`, `<`, `=` or `` ` ``.
    UnexpectedCharacterInUnquotedAttributeValue,
    /// `unexpected-equals-sign-before-attribute-name`: `<a =b>`.
    UnexpectedEqualsSignBeforeAttributeName,
    /// `unexpected-null-character`: U+0000 where the standard reports it.
    UnexpectedNullCharacter,
    /// `unexpected-question-mark-instead-of-tag-name`: `<?`, before 2026 (only with
    /// `Options::legacy_processing_instructions`; the 2026 standard dropped it).
    UnexpectedQuestionMarkInsteadOfTagName,
    /// `unexpected-solidus-in-tag`: `/` not followed by `>` in a tag.
    UnexpectedSolidusInTag,
    /// `unknown-named-character-reference`: `&foo;` where `foo;` is no name.
    UnknownNamedCharacterReference,
    /// `value-length-limit`: an attribute value longer than `Limits::max_value_len` (it keeps
    /// its first bytes). Not a WHATWG code.
    ValueLengthLimit,
}

impl ErrorCode {
    /// The standard's code, e.g. `eof-in-tag`.
    pub const fn as_str(self) -> &'static str {
        use ErrorCode::*;
        match self {
            AbruptClosingOfEmptyComment => "abrupt-closing-of-empty-comment",
            AbruptDoctypePublicIdentifier => "abrupt-doctype-public-identifier",
            AbruptDoctypeSystemIdentifier => "abrupt-doctype-system-identifier",
            AbsenceOfDigitsInNumericCharacterReference => {
                "absence-of-digits-in-numeric-character-reference"
            }
            AttributeLimit => "attribute-limit",
            CdataInHtmlContent => "cdata-in-html-content",
            CharacterReferenceOutsideUnicodeRange => "character-reference-outside-unicode-range",
            ControlCharacterInInputStream => "control-character-in-input-stream",
            ControlCharacterReference => "control-character-reference",
            EndTagWithAttributes => "end-tag-with-attributes",
            DisallowedProcessingInstructionTarget => "disallowed-processing-instruction-target",
            DuplicateAttribute => "duplicate-attribute",
            EndTagWithTrailingSolidus => "end-tag-with-trailing-solidus",
            EofBeforeTagName => "eof-before-tag-name",
            EofInCdata => "eof-in-cdata",
            EofInComment => "eof-in-comment",
            EofInDoctype => "eof-in-doctype",
            EofInProcessingInstruction => "eof-in-processing-instruction",
            EofInScriptHtmlCommentLikeText => "eof-in-script-html-comment-like-text",
            EofInTag => "eof-in-tag",
            IncorrectlyClosedComment => "incorrectly-closed-comment",
            IncorrectlyOpenedComment => "incorrectly-opened-comment",
            InvalidCharacterSequenceAfterDoctypeName => {
                "invalid-character-sequence-after-doctype-name"
            }
            InvalidFirstCharacterOfProcessingInstructionTarget => {
                "invalid-first-character-of-processing-instruction-target"
            }
            InvalidFirstCharacterOfTagName => "invalid-first-character-of-tag-name",
            InvalidProcessingInstructionTarget => "invalid-processing-instruction-target",
            MissingAttributeValue => "missing-attribute-value",
            MissingDoctypeName => "missing-doctype-name",
            MissingDoctypePublicIdentifier => "missing-doctype-public-identifier",
            MissingDoctypeSystemIdentifier => "missing-doctype-system-identifier",
            MissingEndTagName => "missing-end-tag-name",
            MissingQuoteBeforeDoctypePublicIdentifier => {
                "missing-quote-before-doctype-public-identifier"
            }
            MissingQuoteBeforeDoctypeSystemIdentifier => {
                "missing-quote-before-doctype-system-identifier"
            }
            MissingSemicolonAfterCharacterReference => {
                "missing-semicolon-after-character-reference"
            }
            MissingWhitespaceAfterDoctypePublicKeyword => {
                "missing-whitespace-after-doctype-public-keyword"
            }
            MissingWhitespaceAfterDoctypeSystemKeyword => {
                "missing-whitespace-after-doctype-system-keyword"
            }
            MissingWhitespaceBeforeDoctypeName => "missing-whitespace-before-doctype-name",
            MissingWhitespaceBetweenAttributes => "missing-whitespace-between-attributes",
            MissingWhitespaceBetweenDoctypePublicAndSystemIdentifiers => {
                "missing-whitespace-between-doctype-public-and-system-identifiers"
            }
            NameLengthLimit => "name-length-limit",
            NestedComment => "nested-comment",
            NoncharacterCharacterReference => "noncharacter-character-reference",
            NoncharacterInInputStream => "noncharacter-in-input-stream",
            NonVoidHtmlElementStartTagWithTrailingSolidus => {
                "non-void-html-element-start-tag-with-trailing-solidus"
            }
            NullCharacterReference => "null-character-reference",
            SurrogateCharacterReference => "surrogate-character-reference",
            SurrogateInInputStream => "surrogate-in-input-stream",
            UnexpectedCharacterAfterDoctypeSystemIdentifier => {
                "unexpected-character-after-doctype-system-identifier"
            }
            UnexpectedCharacterInAttributeName => "unexpected-character-in-attribute-name",
            UnexpectedCharacterInUnquotedAttributeValue => {
                "unexpected-character-in-unquoted-attribute-value"
            }
            UnexpectedEqualsSignBeforeAttributeName => {
                "unexpected-equals-sign-before-attribute-name"
            }
            UnexpectedNullCharacter => "unexpected-null-character",
            UnexpectedQuestionMarkInsteadOfTagName => {
                "unexpected-question-mark-instead-of-tag-name"
            }
            UnexpectedSolidusInTag => "unexpected-solidus-in-tag",
            UnknownNamedCharacterReference => "unknown-named-character-reference",
            ValueLengthLimit => "value-length-limit",
        }
    }

    /// A one-line description.
    pub const fn message(self) -> &'static str {
        use ErrorCode::*;
        match self {
            AbruptClosingOfEmptyComment => "empty comment closed abruptly by `>`",
            AbruptDoctypePublicIdentifier => "`>` inside the DOCTYPE public identifier",
            AbruptDoctypeSystemIdentifier => "`>` inside the DOCTYPE system identifier",
            AbsenceOfDigitsInNumericCharacterReference => {
                "numeric character reference without digits"
            }
            AttributeLimit => "too many attributes on one tag (the rest are dropped)",
            CdataInHtmlContent => "CDATA section outside foreign content",
            CharacterReferenceOutsideUnicodeRange => "character reference above U+10FFFF",
            ControlCharacterInInputStream => "control character in the input",
            ControlCharacterReference => "character reference to a control character",
            EndTagWithAttributes => "end tag with attributes",
            DisallowedProcessingInstructionTarget => {
                "`<?xml` and `<?xml-stylesheet` are not processing instructions in HTML (read as a comment)"
            }
            DuplicateAttribute => "duplicate attribute (dropped)",
            EndTagWithTrailingSolidus => "end tag with a trailing `/`",
            EofBeforeTagName => "end of input before a tag name",
            EofInCdata => "end of input in a CDATA section",
            EofInComment => "end of input in a comment",
            EofInDoctype => "end of input in a DOCTYPE",
            EofInProcessingInstruction => {
                "end of input in a processing instruction (it is dropped)"
            }
            EofInScriptHtmlCommentLikeText => "end of input in `<!--` inside script data",
            EofInTag => "end of input in a tag (the tag is dropped)",
            IncorrectlyClosedComment => "comment closed by `--!>`",
            IncorrectlyOpenedComment => "`<!` that does not open a comment, DOCTYPE or CDATA",
            InvalidCharacterSequenceAfterDoctypeName => {
                "expected PUBLIC or SYSTEM after the DOCTYPE name"
            }
            InvalidFirstCharacterOfProcessingInstructionTarget => {
                "a processing instruction target must start with an ASCII letter or `_` (read as a comment)"
            }
            InvalidFirstCharacterOfTagName => "a tag name must start with an ASCII letter",
            InvalidProcessingInstructionTarget => {
                "a processing instruction target holds only ASCII letters, digits, `-` and `_` (read as a comment)"
            }
            MissingAttributeValue => "`=` without an attribute value",
            MissingDoctypeName => "DOCTYPE without a name",
            MissingDoctypePublicIdentifier => "PUBLIC without a public identifier",
            MissingDoctypeSystemIdentifier => "SYSTEM without a system identifier",
            MissingEndTagName => "`</>` (dropped)",
            MissingQuoteBeforeDoctypePublicIdentifier => "public identifier without quotes",
            MissingQuoteBeforeDoctypeSystemIdentifier => "system identifier without quotes",
            MissingSemicolonAfterCharacterReference => "character reference without `;`",
            MissingWhitespaceAfterDoctypePublicKeyword => "no whitespace after PUBLIC",
            MissingWhitespaceAfterDoctypeSystemKeyword => "no whitespace after SYSTEM",
            MissingWhitespaceBeforeDoctypeName => "no whitespace before the DOCTYPE name",
            MissingWhitespaceBetweenAttributes => "no whitespace between attributes",
            MissingWhitespaceBetweenDoctypePublicAndSystemIdentifiers => {
                "no whitespace between the public and system identifiers"
            }
            NameLengthLimit => "name longer than the limit (cut)",
            NestedComment => "`<!--` inside a comment",
            NoncharacterCharacterReference => "character reference to a noncharacter",
            NoncharacterInInputStream => "noncharacter in the input",
            NonVoidHtmlElementStartTagWithTrailingSolidus => "`/>` on a non-void HTML element",
            NullCharacterReference => "character reference to U+0000",
            SurrogateCharacterReference => "character reference to a surrogate",
            SurrogateInInputStream => "surrogate in the input",
            UnexpectedCharacterAfterDoctypeSystemIdentifier => {
                "unexpected character after the system identifier"
            }
            UnexpectedCharacterInAttributeName => "`\"`, `'` or `<` in an attribute name",
            UnexpectedCharacterInUnquotedAttributeValue => {
                "unexpected character in an unquoted attribute value"
            }
            UnexpectedEqualsSignBeforeAttributeName => "`=` before an attribute name",
            UnexpectedNullCharacter => "U+0000 NULL",
            UnexpectedQuestionMarkInsteadOfTagName => "`<?` (read as a bogus comment, before 2026)",
            UnexpectedSolidusInTag => "`/` not followed by `>` in a tag",
            UnknownNamedCharacterReference => "unknown named character reference",
            ValueLengthLimit => "attribute value longer than the limit (cut)",
        }
    }
}

impl thicket_input::ErrorCode for ErrorCode {
    fn as_str(self) -> &'static str {
        ErrorCode::as_str(self)
    }

    fn message(self) -> &'static str {
        ErrorCode::message(self)
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
