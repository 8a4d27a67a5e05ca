//! The tokenizer states, named as in the WHATWG standard (section 12.2.5, "Tokenization", of the
//! 2018 text; 13.2.5 in the 2026 standard, which adds the processing instruction states).

/// A state of the tokenizer state machine, one variant per state of the standard, in the
/// standard's order (numbers from the 2018 text, with the five 2026 processing instruction states
/// under their 2026 numbers). A tree builder switches between the first five (and the CDATA section state is
/// entered only through `<![CDATA[` when [`crate::Tokenizer::set_cdata_allowed`] says so).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum State {
    /// 12.2.5.1 Data state.
    Data,
    /// 12.2.5.2 RCDATA state.
    Rcdata,
    /// 12.2.5.3 RAWTEXT state.
    Rawtext,
    /// 12.2.5.4 Script data state.
    ScriptData,
    /// 12.2.5.5 PLAINTEXT state.
    Plaintext,
    /// 12.2.5.6 Tag open state.
    TagOpen,
    /// 12.2.5.7 End tag open state.
    EndTagOpen,
    /// 12.2.5.8 Tag name state.
    TagName,
    /// 12.2.5.9 RCDATA less-than sign state.
    RcdataLessThanSign,
    /// 12.2.5.10 RCDATA end tag open state.
    RcdataEndTagOpen,
    /// 12.2.5.11 RCDATA end tag name state.
    RcdataEndTagName,
    /// 12.2.5.12 RAWTEXT less-than sign state.
    RawtextLessThanSign,
    /// 12.2.5.13 RAWTEXT end tag open state.
    RawtextEndTagOpen,
    /// 12.2.5.14 RAWTEXT end tag name state.
    RawtextEndTagName,
    /// 12.2.5.15 Script data less-than sign state.
    ScriptDataLessThanSign,
    /// 12.2.5.16 Script data end tag open state.
    ScriptDataEndTagOpen,
    /// 12.2.5.17 Script data end tag name state.
    ScriptDataEndTagName,
    /// 12.2.5.18 Script data escape start state.
    ScriptDataEscapeStart,
    /// 12.2.5.19 Script data escape start dash state.
    ScriptDataEscapeStartDash,
    /// 12.2.5.20 Script data escaped state.
    ScriptDataEscaped,
    /// 12.2.5.21 Script data escaped dash state.
    ScriptDataEscapedDash,
    /// 12.2.5.22 Script data escaped dash dash state.
    ScriptDataEscapedDashDash,
    /// 12.2.5.23 Script data escaped less-than sign state.
    ScriptDataEscapedLessThanSign,
    /// 12.2.5.24 Script data escaped end tag open state.
    ScriptDataEscapedEndTagOpen,
    /// 12.2.5.25 Script data escaped end tag name state.
    ScriptDataEscapedEndTagName,
    /// 12.2.5.26 Script data double escape start state.
    ScriptDataDoubleEscapeStart,
    /// 12.2.5.27 Script data double escaped state.
    ScriptDataDoubleEscaped,
    /// 12.2.5.28 Script data double escaped dash state.
    ScriptDataDoubleEscapedDash,
    /// 12.2.5.29 Script data double escaped dash dash state.
    ScriptDataDoubleEscapedDashDash,
    /// 12.2.5.30 Script data double escaped less-than sign state.
    ScriptDataDoubleEscapedLessThanSign,
    /// 12.2.5.31 Script data double escape end state.
    ScriptDataDoubleEscapeEnd,
    /// 12.2.5.32 Before attribute name state.
    BeforeAttributeName,
    /// 12.2.5.33 Attribute name state.
    AttributeName,
    /// 12.2.5.34 After attribute name state.
    AfterAttributeName,
    /// 12.2.5.35 Before attribute value state.
    BeforeAttributeValue,
    /// 12.2.5.36 Attribute value (double-quoted) state.
    AttributeValueDoubleQuoted,
    /// 12.2.5.37 Attribute value (single-quoted) state.
    AttributeValueSingleQuoted,
    /// 12.2.5.38 Attribute value (unquoted) state.
    AttributeValueUnquoted,
    /// 12.2.5.39 After attribute value (quoted) state.
    AfterAttributeValueQuoted,
    /// 12.2.5.40 Self-closing start tag state.
    SelfClosingStartTag,
    /// 12.2.5.41 Bogus comment state.
    BogusComment,
    /// 12.2.5.42 Markup declaration open state.
    MarkupDeclarationOpen,
    /// 12.2.5.43 Comment start state.
    CommentStart,
    /// 12.2.5.44 Comment start dash state.
    CommentStartDash,
    /// 12.2.5.45 Comment state.
    Comment,
    /// 12.2.5.46 Comment less-than sign state.
    CommentLessThanSign,
    /// 12.2.5.47 Comment less-than sign bang state.
    CommentLessThanSignBang,
    /// 12.2.5.48 Comment less-than sign bang dash state.
    CommentLessThanSignBangDash,
    /// 12.2.5.49 Comment less-than sign bang dash dash state.
    CommentLessThanSignBangDashDash,
    /// 12.2.5.50 Comment end dash state.
    CommentEndDash,
    /// 12.2.5.51 Comment end state.
    CommentEnd,
    /// 12.2.5.52 Comment end bang state.
    CommentEndBang,
    /// 12.2.5.53 DOCTYPE state.
    Doctype,
    /// 12.2.5.54 Before DOCTYPE name state.
    BeforeDoctypeName,
    /// 12.2.5.55 DOCTYPE name state.
    DoctypeName,
    /// 12.2.5.56 After DOCTYPE name state.
    AfterDoctypeName,
    /// 12.2.5.57 After DOCTYPE public keyword state.
    AfterDoctypePublicKeyword,
    /// 12.2.5.58 Before DOCTYPE public identifier state.
    BeforeDoctypePublicIdentifier,
    /// 12.2.5.59 DOCTYPE public identifier (double-quoted) state.
    DoctypePublicIdentifierDoubleQuoted,
    /// 12.2.5.60 DOCTYPE public identifier (single-quoted) state.
    DoctypePublicIdentifierSingleQuoted,
    /// 12.2.5.61 After DOCTYPE public identifier state.
    AfterDoctypePublicIdentifier,
    /// 12.2.5.62 Between DOCTYPE public and system identifiers state.
    BetweenDoctypePublicAndSystemIdentifiers,
    /// 12.2.5.63 After DOCTYPE system keyword state.
    AfterDoctypeSystemKeyword,
    /// 12.2.5.64 Before DOCTYPE system identifier state.
    BeforeDoctypeSystemIdentifier,
    /// 12.2.5.65 DOCTYPE system identifier (double-quoted) state.
    DoctypeSystemIdentifierDoubleQuoted,
    /// 12.2.5.66 DOCTYPE system identifier (single-quoted) state.
    DoctypeSystemIdentifierSingleQuoted,
    /// 12.2.5.67 After DOCTYPE system identifier state.
    AfterDoctypeSystemIdentifier,
    /// 12.2.5.68 Bogus DOCTYPE state.
    BogusDoctype,
    /// 12.2.5.69 CDATA section state.
    CdataSection,
    /// 12.2.5.70 CDATA section bracket state.
    CdataSectionBracket,
    /// 12.2.5.71 CDATA section end state.
    CdataSectionEnd,
    /// 13.2.5.72 Processing instruction open state (added in 2026; the standard's numbering
    /// since then, which moves the character reference states to 13.2.5.77 and after).
    ProcessingInstructionOpen,
    /// 13.2.5.73 Processing instruction target state (2026).
    ProcessingInstructionTarget,
    /// 13.2.5.74 After processing instruction target state (2026).
    AfterProcessingInstructionTarget,
    /// 13.2.5.75 Processing instruction data state (2026).
    ProcessingInstructionData,
    /// 13.2.5.76 Processing instruction questionable state (2026).
    ProcessingInstructionQuestionable,
    /// 12.2.5.72 Character reference state.
    CharacterReference,
    /// 12.2.5.73 Named character reference state.
    NamedCharacterReference,
    /// 12.2.5.74 Ambiguous ampersand state.
    AmbiguousAmpersand,
    /// 12.2.5.75 Numeric character reference state.
    NumericCharacterReference,
    /// 12.2.5.76 Hexadecimal character reference start state.
    HexadecimalCharacterReferenceStart,
    /// 12.2.5.77 Decimal character reference start state.
    DecimalCharacterReferenceStart,
    /// 12.2.5.78 Hexadecimal character reference state.
    HexadecimalCharacterReference,
    /// 12.2.5.79 Decimal character reference state.
    DecimalCharacterReference,
    /// 12.2.5.80 Numeric character reference end state.
    NumericCharacterReferenceEnd,
}

impl State {
    /// The state for an html5lib-tests `initialStates` name such as `"RCDATA state"`.
    pub fn from_html5lib_name(name: &str) -> Option<State> {
        Some(match name {
            "Data state" => State::Data,
            "PLAINTEXT state" => State::Plaintext,
            "RCDATA state" => State::Rcdata,
            "RAWTEXT state" => State::Rawtext,
            "Script data state" => State::ScriptData,
            "CDATA section state" => State::CdataSection,
            _ => return None,
        })
    }
}
