//! The tokenizer states, named as in the draft ("Tokenization"), and the kinds the states
//! share.

/// The tokenizer states, named as in the draft (the compatibility profile adds the 2016 DOCTYPE
/// identifier states).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum State {
    /// Draft: "Data state".
    Data,
    /// Draft: "Character reference in data state".
    CharacterReferenceInData,
    /// Draft: "Tag open state".
    TagOpen,
    /// Draft: "End tag open state".
    EndTagOpen,
    /// Draft: "End tag name state".
    EndTagName,
    /// Draft: "End tag name after state".
    EndTagNameAfter,
    /// Draft: "Tag name state".
    TagName,
    /// Draft: "Empty tag state".
    EmptyTag,
    /// Draft: "Tag attribute name before state".
    TagAttributeNameBefore,
    /// Draft: "Tag attribute name state".
    TagAttributeName,
    /// Draft: "Tag attribute name after state".
    TagAttributeNameAfter,
    /// Draft: "Tag attribute value before state".
    TagAttributeValueBefore,
    /// Draft: "Tag attribute value double quoted state".
    TagAttributeValueDoubleQuoted,
    /// Draft: "Tag attribute value single quoted state".
    TagAttributeValueSingleQuoted,
    /// Draft: "Tag attribute value unquoted state".
    TagAttributeValueUnquoted,
    /// Draft: "Character reference in attribute value state".
    CharacterReferenceInAttributeValue,
    /// Draft: "Pi state".
    Pi,
    /// Draft: "XML declaration state (draft profile)".
    XmlDeclaration,
    /// Draft: "XML declaration attribute name state".
    XmlDeclarationAttributeName,
    /// Draft: "XML declaration attribute name after".
    XmlDeclarationAttributeNameAfter,
    /// Draft: "XML declaration attribute before value state".
    XmlDeclarationAttributeValueBefore,
    /// Draft: "XML declaration attribute value (single-quoted) state".
    XmlDeclarationAttributeValueSingleQuoted,
    /// Draft: "XML declaration attribute value (double-quoted) state".
    XmlDeclarationAttributeValueDoubleQuoted,
    /// Draft: "XML declaration after state".
    XmlDeclarationAfter,
    /// Draft: "Pi target state".
    PiTarget,
    /// Draft: "Pi target after state".
    PiTargetAfter,
    /// Draft: "Pi data state".
    PiData,
    /// Draft: "Pi after state".
    PiAfter,
    /// Draft: "Markup declaration state".
    MarkupDeclaration,
    /// Draft: "Comment start state".
    CommentStart,
    /// Draft: "Comment start dash state".
    CommentStartDash,
    /// Draft: "Comment state".
    Comment,
    /// Draft: "Comment less-than sign state".
    CommentLessThanSign,
    /// Draft: "Comment less-than sign bang state".
    CommentLessThanSignBang,
    /// Draft: "Comment less-than sign bang dash state".
    CommentLessThanSignBangDash,
    /// Draft: "Comment less-than sign bang dash dash state".
    CommentLessThanSignBangDashDash,
    /// Draft: "Comment end dash state".
    CommentEndDash,
    /// Draft: "Comment end state".
    CommentEnd,
    /// Draft: "Comment end bang state".
    CommentEndBang,
    /// Draft: "CDATA state".
    Cdata,
    /// Draft: "CDATA bracket state".
    CdataBracket,
    /// Draft: "CDATA end state".
    CdataEnd,
    /// Draft: "Bogus comment state".
    BogusComment,
    /// Draft: "DOCTYPE state".
    Doctype,
    /// Draft: "Before DOCTYPE name state".
    BeforeDoctypeName,
    /// Draft: "DOCTYPE name state".
    DoctypeName,
    /// Draft: "After DOCTYPE name state".
    AfterDoctypeName,
    /// Draft: "Bogus DOCTYPE state".
    BogusDoctype,
    /// Compatibility profile: after `PUBLIC` / `SYSTEM`.
    AfterDoctypeKeyword(IdKind),
    /// Compatibility profile.
    BeforeDoctypeIdentifier(IdKind),
    /// Compatibility profile.
    DoctypeIdentifierDoubleQuoted(IdKind),
    /// Compatibility profile.
    DoctypeIdentifierSingleQuoted(IdKind),
    /// Compatibility profile.
    AfterDoctypeIdentifier(IdKind),
    /// Compatibility profile.
    BetweenDoctypePublicAndSystemIdentifiers,
}

/// Which DOCTYPE identifier (compatibility profile).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IdKind {
    /// The `PUBLIC` identifier.
    Public,
    /// The `SYSTEM` identifier.
    System,
}

/// What kind of tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TagKind {
    Start,
    Empty,
    End,
}
