//! The parse errors of the WHATWG tokenizer, with the standard's own codes, and the codes of the
//! resource limits (`thicket_input::Limits`), the same in every dialect.

thicket_input::error_codes! {
    /// A WHATWG tokenization parse error, or a resource limit reached. `as_str` gives the code
    /// exactly as the standard spells it (the limits' codes are Thicket's, shared by every dialect).
    pub enum ErrorCode {
        /// `abrupt-closing-of-empty-comment`: `<!-->` or `<!--->`.
        AbruptClosingOfEmptyComment = "abrupt-closing-of-empty-comment",
            "empty comment closed abruptly by `>`";
        /// `abrupt-doctype-public-identifier`: `>` inside a DOCTYPE public identifier.
        AbruptDoctypePublicIdentifier = "abrupt-doctype-public-identifier",
            "`>` inside the DOCTYPE public identifier";
        /// `abrupt-doctype-system-identifier`: `>` inside a DOCTYPE system identifier.
        AbruptDoctypeSystemIdentifier = "abrupt-doctype-system-identifier",
            "`>` inside the DOCTYPE system identifier";
        /// `absence-of-digits-in-numeric-character-reference`: `&#` or `&#x` without digits.
        AbsenceOfDigitsInNumericCharacterReference = "absence-of-digits-in-numeric-character-reference",
            "numeric character reference without digits";
        /// `attribute-limit`: a tag with more attributes than `Limits::max_attributes` (the rest are
        /// dropped; reported once per tag, at the first dropped attribute). Not a WHATWG code.
        AttributeLimit = "attribute-limit",
            "too many attributes on one tag (the rest are dropped)";
        /// `cdata-in-html-content`: `<![CDATA[` where CDATA sections are not allowed.
        CdataInHtmlContent = "cdata-in-html-content",
            "CDATA section outside foreign content";
        /// `character-reference-outside-unicode-range`: a numeric reference above U+10FFFF.
        CharacterReferenceOutsideUnicodeRange = "character-reference-outside-unicode-range",
            "character reference above U+10FFFF";
        /// `control-character-in-input-stream`: a control other than ASCII whitespace and NULL.
        ControlCharacterInInputStream = "control-character-in-input-stream",
            "control character in the input";
        /// `control-character-reference`: a numeric reference to a control or CR.
        ControlCharacterReference = "control-character-reference",
            "character reference to a control character";
        /// `end-tag-with-attributes`: an end tag with attributes.
        EndTagWithAttributes = "end-tag-with-attributes",
            "end tag with attributes";
        /// `disallowed-processing-instruction-target` (2026): `<?xml` or `<?xml-stylesheet` (any
        /// case), read as a bogus comment.
        DisallowedProcessingInstructionTarget = "disallowed-processing-instruction-target",
            "`<?xml` and `<?xml-stylesheet` are not processing instructions in HTML (read as a comment)";
        /// `duplicate-attribute`: a second attribute with the same name (it is dropped).
        DuplicateAttribute = "duplicate-attribute",
            "duplicate attribute (dropped)";
        /// `end-tag-with-trailing-solidus`: `</a/>`.
        EndTagWithTrailingSolidus = "end-tag-with-trailing-solidus",
            "end tag with a trailing `/`";
        /// `eof-before-tag-name`: the input ends after `<` or `</`.
        EofBeforeTagName = "eof-before-tag-name",
            "end of input before a tag name";
        /// `eof-in-cdata`: the input ends inside a CDATA section.
        EofInCdata = "eof-in-cdata",
            "end of input in a CDATA section";
        /// `eof-in-comment`: the input ends inside a comment.
        EofInComment = "eof-in-comment",
            "end of input in a comment";
        /// `eof-in-doctype`: the input ends inside a DOCTYPE.
        EofInDoctype = "eof-in-doctype",
            "end of input in a DOCTYPE";
        /// `eof-in-processing-instruction` (2026): the input ends inside `<?...` (nothing is emitted).
        EofInProcessingInstruction = "eof-in-processing-instruction",
            "end of input in a processing instruction (it is dropped)";
        /// `eof-in-script-html-comment-like-text`: the input ends inside `<!--` in script data.
        EofInScriptHtmlCommentLikeText = "eof-in-script-html-comment-like-text",
            "end of input in `<!--` inside script data";
        /// `eof-in-tag`: the input ends inside a tag (the tag is dropped).
        EofInTag = "eof-in-tag",
            "end of input in a tag (the tag is dropped)";
        /// `incorrectly-closed-comment`: a comment closed by `--!>`.
        IncorrectlyClosedComment = "incorrectly-closed-comment",
            "comment closed by `--!>`";
        /// `incorrectly-opened-comment`: `<!` not followed by `--`, DOCTYPE or CDATA.
        IncorrectlyOpenedComment = "incorrectly-opened-comment",
            "`<!` that does not open a comment, DOCTYPE or CDATA";
        /// `invalid-character-sequence-after-doctype-name`: neither PUBLIC nor SYSTEM.
        InvalidCharacterSequenceAfterDoctypeName = "invalid-character-sequence-after-doctype-name",
            "expected PUBLIC or SYSTEM after the DOCTYPE name";
        /// `invalid-first-character-of-processing-instruction-target` (2026): `<?` followed by
        /// neither an ASCII letter nor `_` (read as a bogus comment).
        InvalidFirstCharacterOfProcessingInstructionTarget = "invalid-first-character-of-processing-instruction-target",
            "a processing instruction target must start with an ASCII letter or `_` (read as a comment)";
        /// `invalid-first-character-of-tag-name`: `<` or `</` followed by a non-letter.
        InvalidFirstCharacterOfTagName = "invalid-first-character-of-tag-name",
            "a tag name must start with an ASCII letter";
        /// `invalid-processing-instruction-target` (2026): a target character that is not an ASCII
        /// alphanumeric, `-` or `_` (read as a bogus comment).
        InvalidProcessingInstructionTarget = "invalid-processing-instruction-target",
            "a processing instruction target holds only ASCII letters, digits, `-` and `_` (read as a comment)";
        /// `missing-attribute-value`: `<a b=>`.
        MissingAttributeValue = "missing-attribute-value",
            "`=` without an attribute value";
        /// `missing-doctype-name`: `<!DOCTYPE>`.
        MissingDoctypeName = "missing-doctype-name",
            "DOCTYPE without a name";
        /// `missing-doctype-public-identifier`: `PUBLIC` then `>`.
        MissingDoctypePublicIdentifier = "missing-doctype-public-identifier",
            "PUBLIC without a public identifier";
        /// `missing-doctype-system-identifier`: `SYSTEM` then `>`.
        MissingDoctypeSystemIdentifier = "missing-doctype-system-identifier",
            "SYSTEM without a system identifier";
        /// `missing-end-tag-name`: `</>` (dropped).
        MissingEndTagName = "missing-end-tag-name",
            "`</>` (dropped)";
        /// `missing-quote-before-doctype-public-identifier`.
        MissingQuoteBeforeDoctypePublicIdentifier = "missing-quote-before-doctype-public-identifier",
            "public identifier without quotes";
        /// `missing-quote-before-doctype-system-identifier`.
        MissingQuoteBeforeDoctypeSystemIdentifier = "missing-quote-before-doctype-system-identifier",
            "system identifier without quotes";
        /// `missing-semicolon-after-character-reference`.
        MissingSemicolonAfterCharacterReference = "missing-semicolon-after-character-reference",
            "character reference without `;`";
        /// `missing-whitespace-after-doctype-public-keyword`.
        MissingWhitespaceAfterDoctypePublicKeyword = "missing-whitespace-after-doctype-public-keyword",
            "no whitespace after PUBLIC";
        /// `missing-whitespace-after-doctype-system-keyword`.
        MissingWhitespaceAfterDoctypeSystemKeyword = "missing-whitespace-after-doctype-system-keyword",
            "no whitespace after SYSTEM";
        /// `missing-whitespace-before-doctype-name`.
        MissingWhitespaceBeforeDoctypeName = "missing-whitespace-before-doctype-name",
            "no whitespace before the DOCTYPE name";
        /// `missing-whitespace-between-attributes`.
        MissingWhitespaceBetweenAttributes = "missing-whitespace-between-attributes",
            "no whitespace between attributes";
        /// `missing-whitespace-between-doctype-public-and-system-identifiers`.
        MissingWhitespaceBetweenDoctypePublicAndSystemIdentifiers = "missing-whitespace-between-doctype-public-and-system-identifiers",
            "no whitespace between the public and system identifiers";
        /// `name-length-limit`: a tag, attribute, DOCTYPE or processing instruction target name
        /// longer than `Limits::max_name_len` (it keeps its first bytes). Not a WHATWG code.
        NameLengthLimit = "name-length-limit",
            "name longer than the limit (cut)";
        /// `nested-comment`: `<!--` inside a comment.
        NestedComment = "nested-comment",
            "`<!--` inside a comment";
        /// `noncharacter-character-reference`: a numeric reference to a noncharacter.
        NoncharacterCharacterReference = "noncharacter-character-reference",
            "character reference to a noncharacter";
        /// `noncharacter-in-input-stream`: a noncharacter in the input.
        NoncharacterInInputStream = "noncharacter-in-input-stream",
            "noncharacter in the input";
        /// `non-void-html-element-start-tag-with-trailing-solidus` (reported by tree builders, never
        /// by the tokenizer; listed because the standard's table has it).
        NonVoidHtmlElementStartTagWithTrailingSolidus = "non-void-html-element-start-tag-with-trailing-solidus",
            "`/>` on a non-void HTML element";
        /// `null-character-reference`: `&#0;`.
        NullCharacterReference = "null-character-reference",
            "character reference to U+0000";
        /// `surrogate-character-reference`: a numeric reference to a surrogate.
        SurrogateCharacterReference = "surrogate-character-reference",
            "character reference to a surrogate";
        /// `surrogate-in-input-stream` (never produced here: a Rust `&str` cannot hold a surrogate).
        SurrogateInInputStream = "surrogate-in-input-stream",
            "surrogate in the input";
        /// `token-length-limit`: comment or processing instruction data longer than
        /// `Limits::max_token_len` (it keeps its first bytes; the rest is read, not held). Not a
        /// WHATWG code.
        TokenLengthLimit = "token-length-limit",
            "comment or processing instruction longer than the limit (cut)";
        /// `unexpected-character-after-doctype-system-identifier`.
        UnexpectedCharacterAfterDoctypeSystemIdentifier = "unexpected-character-after-doctype-system-identifier",
            "unexpected character after the system identifier";
        /// `unexpected-character-in-attribute-name`: `"`, `'` or `<` in an attribute name.
        UnexpectedCharacterInAttributeName = "unexpected-character-in-attribute-name",
            "`\"`, `'` or `<` in an attribute name";
        /// `unexpected-character-in-unquoted-attribute-value`: `"`, `'`, `<`, `=` or `` ` ``.
        UnexpectedCharacterInUnquotedAttributeValue = "unexpected-character-in-unquoted-attribute-value",
            "unexpected character in an unquoted attribute value";
        /// `unexpected-equals-sign-before-attribute-name`: `<a =b>`.
        UnexpectedEqualsSignBeforeAttributeName = "unexpected-equals-sign-before-attribute-name",
            "`=` before an attribute name";
        /// `unexpected-null-character`: U+0000 where the standard reports it.
        UnexpectedNullCharacter = "unexpected-null-character",
            "U+0000 NULL";
        /// `unexpected-question-mark-instead-of-tag-name`: `<?`, before 2026 (only with
        /// `Options::legacy_processing_instructions`; the 2026 standard dropped it).
        UnexpectedQuestionMarkInsteadOfTagName = "unexpected-question-mark-instead-of-tag-name",
            "`<?` (read as a bogus comment, before 2026)";
        /// `unexpected-solidus-in-tag`: `/` not followed by `>` in a tag.
        UnexpectedSolidusInTag = "unexpected-solidus-in-tag",
            "`/` not followed by `>` in a tag";
        /// `unknown-named-character-reference`: `&foo;` where `foo;` is no name.
        UnknownNamedCharacterReference = "unknown-named-character-reference",
            "unknown named character reference";
        /// `value-length-limit`: an attribute value longer than `Limits::max_value_len` (it keeps
        /// its first bytes). Not a WHATWG code.
        ValueLengthLimit = "value-length-limit",
            "attribute value longer than the limit (cut)";
    }
}
