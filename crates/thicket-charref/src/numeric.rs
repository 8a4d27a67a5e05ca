//! Numeric character references: one small pure function per dialect rule.
//!
//! Each function takes the value of the digits (callers accumulate with saturation, so any value
//! above `0x10FFFF` stands for "too large") and returns what the reference means in that dialect.

/// Saturating accumulation of one digit: `acc * radix + digit`, capped just above `0x10FFFF` so
/// that arbitrarily long digit strings never overflow.
#[inline]
pub const fn accumulate(acc: u32, radix: u32, digit: u32) -> u32 {
    let v = acc.saturating_mul(radix).saturating_add(digit);
    if v > 0x11_0000 { 0x11_0000 } else { v }
}

// The code point classes are thicket-names' (one definition); re-exported here for the numeric
// rules' callers.
pub use thicket_names::unicode::{is_control, is_noncharacter, is_surrogate};

/// The parse errors of the WHATWG "numeric character reference end state", named as the
/// standard names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WhatwgIssue {
    /// `null-character-reference`: the number is 0x00.
    NullCharacterReference,
    /// `character-reference-outside-unicode-range`: the number is greater than 0x10FFFF.
    CharacterReferenceOutsideUnicodeRange,
    /// `surrogate-character-reference`: the number is a surrogate.
    SurrogateCharacterReference,
    /// `noncharacter-character-reference`: the number is a noncharacter.
    NoncharacterCharacterReference,
    /// `control-character-reference`: 0x0D, or a control that is not ASCII whitespace.
    ControlCharacterReference,
}

/// The WHATWG replacement table for 0x80..=0x9F (`None` where the code point is kept).
const C1_REPLACEMENTS: [Option<char>; 32] = [
    Some('\u{20AC}'),
    None,
    Some('\u{201A}'),
    Some('\u{0192}'),
    Some('\u{201E}'),
    Some('\u{2026}'),
    Some('\u{2020}'),
    Some('\u{2021}'),
    Some('\u{02C6}'),
    Some('\u{2030}'),
    Some('\u{0160}'),
    Some('\u{2039}'),
    Some('\u{0152}'),
    None,
    Some('\u{017D}'),
    None,
    None,
    Some('\u{2018}'),
    Some('\u{2019}'),
    Some('\u{201C}'),
    Some('\u{201D}'),
    Some('\u{2022}'),
    Some('\u{2013}'),
    Some('\u{2014}'),
    Some('\u{02DC}'),
    Some('\u{2122}'),
    Some('\u{0161}'),
    Some('\u{203A}'),
    Some('\u{0153}'),
    None,
    Some('\u{017E}'),
    Some('\u{0178}'),
];

/// WHATWG HTML, "numeric character reference end state": NULL, surrogates and numbers above
/// 0x10FFFF become U+FFFD; noncharacters are kept with an error; 0x0D and non-whitespace controls
/// are errors, and 0x80..=0x9F are mapped through the Windows-1252 table where it has an entry.
pub fn whatwg(code: u32) -> (char, Option<WhatwgIssue>) {
    use WhatwgIssue::*;
    if code == 0 {
        return ('\u{FFFD}', Some(NullCharacterReference));
    }
    if code > 0x10_FFFF {
        return ('\u{FFFD}', Some(CharacterReferenceOutsideUnicodeRange));
    }
    if is_surrogate(code) {
        return ('\u{FFFD}', Some(SurrogateCharacterReference));
    }
    if is_noncharacter(code) {
        return (char_of(code), Some(NoncharacterCharacterReference));
    }
    let ascii_whitespace = matches!(code, 0x09 | 0x0A | 0x0C | 0x20);
    if code == 0x0D || (is_control(code) && !ascii_whitespace) {
        if let Some(Some(c)) = C1_REPLACEMENTS.get(code.wrapping_sub(0x80) as usize) {
            return (*c, Some(ControlCharacterReference));
        }
        return (char_of(code), Some(ControlCharacterReference));
    }
    (char_of(code), None)
}

/// The parse errors of the XML5 draft's numeric character references.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Xml5Issue {
    /// The number is 0: replaced by U+FFFD (the draft asks "at least for null?"; we say yes).
    Null,
    /// A surrogate or a number above 0x10FFFF: replaced by U+FFFD, as the draft says.
    OutOfRange,
    /// One of the code points the draft lists as questionable (controls other than HT, LF and
    /// U+000C... as listed, and noncharacters): kept, with a parse error.
    Disallowed,
}

/// XML5 draft, "numeric character reference": surrogates and numbers above 0x10FFFF become U+FFFD
/// with a parse error; NULL likewise; the code points the draft lists (0x01..=0x08, 0x0B,
/// 0x0D..=0x1F, 0x7F..=0x9F, noncharacters) are kept with a parse error. There is no
/// Windows-1252 remapping.
pub fn xml5(code: u32) -> (char, Option<Xml5Issue>) {
    if code == 0 {
        return ('\u{FFFD}', Some(Xml5Issue::Null));
    }
    if code > 0x10_FFFF || is_surrogate(code) {
        return ('\u{FFFD}', Some(Xml5Issue::OutOfRange));
    }
    let listed = matches!(code, 0x01..=0x08 | 0x0B | 0x0D..=0x1F | 0x7F..=0x9F);
    if listed || is_noncharacter(code) {
        return (char_of(code), Some(Xml5Issue::Disallowed));
    }
    (char_of(code), None)
}

/// MicroXML error recovery, NUMERIC_CHAR_REF: "if the number represented in hexadecimal ... is
/// <= #x10FFFF emit a single DataChar ... otherwise emit a DataChar for each character". `None`
/// means the reference stays literal text. (The recovery grammar's CHAR is `[#x0-#x10FFFF]`, so
/// surrogate numbers cannot be stored in a Rust `char`; they also stay literal, see
/// docs/microxml.md.)
pub fn microxml(code: u32) -> Option<char> {
    if code > 0x10_FFFF {
        None
    } else {
        char::from_u32(code)
    }
}

/// True when `c` is in the LeafXML character set: HT, LF, CR, U+0020..=U+007E, NEL,
/// U+00A0..=U+D7FF, U+E000..=U+FDCF, U+FDF0..=U+10FFFD excluding code points whose low 16 bits are
/// FFFE or FFFF. The class is defined once, in [`thicket_names::leafxml::is_char`].
#[inline]
pub const fn is_leafxml_char(c: char) -> bool {
    thicket_names::leafxml::is_char(c)
}

/// LeafXML numeric escapes: "Numeric escapes are only allowed to escape codepoints that are within
/// the character set". `None` means the escape is an error.
pub fn leafxml(code: u32) -> Option<char> {
    char::from_u32(code).filter(|&c| is_leafxml_char(c))
}

#[inline]
fn char_of(code: u32) -> char {
    // Callers have excluded surrogates and values above 0x10FFFF.
    char::from_u32(code).unwrap_or('\u{FFFD}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whatwg_rules() {
        use WhatwgIssue::*;
        assert_eq!(whatwg(0), ('\u{FFFD}', Some(NullCharacterReference)));
        assert_eq!(
            whatwg(0x11_0000),
            ('\u{FFFD}', Some(CharacterReferenceOutsideUnicodeRange))
        );
        assert_eq!(
            whatwg(0xD800),
            ('\u{FFFD}', Some(SurrogateCharacterReference))
        );
        assert_eq!(
            whatwg(0xFFFE),
            ('\u{FFFE}', Some(NoncharacterCharacterReference))
        );
        assert_eq!(
            whatwg(0x10FFFF),
            ('\u{10FFFF}', Some(NoncharacterCharacterReference))
        );
        assert_eq!(whatwg(0x0D), ('\r', Some(ControlCharacterReference)));
        assert_eq!(whatwg(0x01), ('\u{1}', Some(ControlCharacterReference)));
        assert_eq!(whatwg(0x09), ('\t', None));
        assert_eq!(whatwg(0x0C), ('\u{C}', None));
        assert_eq!(whatwg(0x80), ('€', Some(ControlCharacterReference)));
        assert_eq!(whatwg(0x81), ('\u{81}', Some(ControlCharacterReference)));
        assert_eq!(whatwg(0x9F), ('Ÿ', Some(ControlCharacterReference)));
        assert_eq!(whatwg(0x41), ('A', None));
    }

    #[test]
    fn xml5_rules() {
        assert_eq!(xml5(0), ('\u{FFFD}', Some(Xml5Issue::Null)));
        assert_eq!(xml5(0xDFFF), ('\u{FFFD}', Some(Xml5Issue::OutOfRange)));
        assert_eq!(xml5(0x1), ('\u{1}', Some(Xml5Issue::Disallowed)));
        assert_eq!(xml5(0x80), ('\u{80}', Some(Xml5Issue::Disallowed)));
        assert_eq!(xml5(0x9), ('\t', None));
        assert_eq!(xml5(0x7FFFD), ('\u{7FFFD}', None));
    }

    #[test]
    fn microxml_and_leafxml_rules() {
        assert_eq!(microxml(0x10FFFF), Some('\u{10FFFF}'));
        assert_eq!(microxml(0x11_0000), None);
        assert_eq!(leafxml(0x84), None);
        assert_eq!(leafxml(0x85), Some('\u{85}'));
        assert_eq!(leafxml(0xFFFE), None);
        assert_eq!(leafxml(0x3C), Some('<'));
        assert_eq!(leafxml(0xFDD0), None);
    }

    #[test]
    fn accumulate_saturates() {
        let mut v = 0;
        for _ in 0..100 {
            v = accumulate(v, 16, 15);
        }
        assert_eq!(v, 0x11_0000);
    }
}
