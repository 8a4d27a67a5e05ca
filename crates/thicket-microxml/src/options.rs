//! Parser options: the extensions from the spec's TODO list, each off by default.

/// Which names `&name;` may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum NamedReferences {
    /// `lt gt amp quot apos`, the MicroXML names (what the reference implementation knows).
    #[default]
    MicroXml,
    /// Every WHATWG HTML named reference written with its `;` (TODO: "Allow use of HTML5 character
    /// names"), plus the five MicroXML names.
    Html5,
}

/// Options for [`crate::Tokenizer`] and [`crate::Parser`].
///
/// `Options::default()` is the spec text exactly (`../shared/specs/microxml-error-recovery.md`).
/// [`Options::upstream`] turns on what the final upstream revision of the spec and its reference
/// implementation (`recovery.js`) added, which the conformance suites were produced with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Options {
    /// Recognise `&#` DIGITS `;` as a decimal character reference (TODO: "Handle decimal
    /// character references").
    pub decimal_references: bool,
    /// Which named references are known.
    pub named_references: NamedReferences,
    /// HTML-style attributes without a value (`<input disabled>`), whose value is empty (TODO:
    /// "Maybe handle HTML-style boolean attributes"). Adds the upstream `TAG_CONTEXT` trailing
    /// context to `START_TAG_OPEN` and the `BOOLEAN_ATTRIBUTE` token in Tag mode.
    pub boolean_attributes: bool,
    /// The upstream quoted-attribute-value recovery: inside a quoted value, `<` and `>` are data
    /// only when the rest of the value is followed by its quote and then whitespace, `>` or
    /// `/>`; otherwise the value ends there (`ATTRIBUTE_VALUE_CHAR`, `ANGLE_SINGLE`,
    /// `ANGLE_DOUBLE` and `EMPTY` in the quoted-value modes).
    pub angle_brackets_end_quoted_values: bool,
    /// Deliver character references as [`crate::Token::CharRef`] instead of merging them into
    /// `Data`, so that whitespace stripping keeps whitespace written as a reference (TODO:
    /// "Should there be a CharRef abstract token ...").
    pub reference_tokens: bool,
    /// Deliver comments, processing instructions and DOCTYPE declarations (with their internal
    /// subset) as [`crate::Token::Comment`], [`crate::Token::ProcessingInstruction`] and
    /// [`crate::Token::Doctype`] from the streaming [`crate::Tokenizer`] and [`crate::Tokens`],
    /// instead of leaving them inside a `Data` span or a `Discarded` token (so a comment
    /// between two characters ends one `Data` token and the next begins after it). The spec
    /// emits nothing for them, so the tree and the diagnostics are the same either way; the
    /// tree path ignores the option. Off by default.
    pub markup_tokens: bool,
    /// Limits for untrusted input (depth, attributes, name and value lengths, diagnostics kept);
    /// all off by default. What each does when reached: docs/microxml.md.
    pub limits: thicket_input::Limits,
}

impl Options {
    /// The spec text exactly; same as `Options::default()`.
    pub const fn spec() -> Options {
        Options {
            decimal_references: false,
            named_references: NamedReferences::MicroXml,
            boolean_attributes: false,
            angle_brackets_end_quoted_values: false,
            reference_tokens: false,
            markup_tokens: false,
            limits: thicket_input::Limits::none(),
        }
    }

    /// The final upstream revision of "Error recovery for MicroXML" (jclark/microxml-er, commit
    /// 07668be, `recovery.md` and `recovery.js`): decimal references, boolean attributes and the
    /// angle-bracket rule for quoted attribute values. The conformance suites use this.
    pub const fn upstream() -> Options {
        Options {
            decimal_references: true,
            named_references: NamedReferences::MicroXml,
            boolean_attributes: true,
            angle_brackets_end_quoted_values: true,
            reference_tokens: false,
            markup_tokens: false,
            limits: thicket_input::Limits::none(),
        }
    }
}
